/* model.h - the attention problem: the input with its shapes checked (SPEC §1). */
#ifndef ATTNSTEP_MODEL_H
#define ATTNSTEP_MODEL_H

#include "attnstep/parse.h"

/* Storage of labels made when the file gives none ("0", "1", ...). */
typedef struct as_label_store {
    char *chars;
    const char **ptr;
} as_label_store;

/* Everything the computation needs, in book layout ([in, out], right-multiplied). The
 * problem borrows the input's matrices and token labels: free the input after it. */
typedef struct as_problem {
    const as_input *in;
    const as_matrix *X, *Xkv;             /* [n, d_model], [m, d_kv_model]; Xkv == X for self */
    const as_matrix *Wq, *Wk, *Wv, *Wo;   /* Wo NULL when not given; with layout: torch
                                             the transposes in own_w */
    as_matrix own_w[4];                   /* layout: torch: Wq, Wk, Wv, Wo as [in, out]
                                             (owned); else empty. Built lean: only their
                                             shapes (no values), the products read Wt */
    const as_matrix *Wt[4];               /* layout: torch: the file's Wq, Wk, Wv, Wo as
                                             given ([out, in]; NULL where none); else NULL */
    const as_matrix *bq, *bk, *bv, *bo;   /* [1, width] or NULL when not given */
    as_mask_kind mask;                    /* CAUSAL, NONE, CUSTOM (the file's M, its shape
                                             checked) or WINDOW (never DEFAULT); the run
                                             builds the mask itself (mask.h) */
    size_t window;                        /* WINDOW: its W; CAUSAL: n (a window as wide as
                                             the sequence); else 0 */
    int cross;                            /* nonzero when Xkv is given */
    size_t n, m, d_model, d_kv_model;
    size_t heads, d_k, d_v;               /* d_k, d_v per head */
    size_t kv_heads;                      /* heads of K and V (SPEC §11), dividing heads */
    size_t group;                         /* heads / kv_heads: query heads per K/V head */
    size_t d_out;                         /* columns of the final O */
    double scale;                         /* what the scores are multiplied by */
    int scale_auto;                       /* nonzero when scale is 1/sqrt(d_k) */
    as_positions positions;               /* SPEC §12: none, sinusoidal, rope or alibi */
    double rope_base;                     /* rope: θ_i = rope_base^(−2i/d_k) */
    as_rope_pairing rope;                 /* rope: which numbers turn together */
    size_t offset;                        /* the position of row 0 (--offset P; 0) */
    double sqrt_dk;                       /* sqrt(d_k), the divisor step 2 names */
    /* the block (SPEC §15); block is AS_BLOCK_NONE for the chapter's lone attention, and
       then nothing below is set */
    as_block_kind block;
    as_norm_kind norm;                    /* norm1, norm2 and normf alike */
    as_norm_style norm_style;             /* LayerNorm's: torch or annotated */
    double norm_eps;                      /* the file's, or the convention's default */
    as_ffn_kind ffn;
    const as_matrix *ln_g[3], *ln_b[3];   /* γ and β of norm1, norm2, normf: [1, d_model]
                                             or NULL (γ = 1, β = 0) */
    int final_norm;                       /* nonzero when lnf_g or lnf_b is given: Y = normf(…) */
    const as_matrix *Wup, *Wgate, *Wdown; /* book layout: [d_model, d_ff] (Wgate NULL but
                                             for swiglu), [d_ff, d_model]; NULL with ffn: none */
    const as_matrix *bup, *bdown;         /* [1, d_ff], [1, d_model] or NULL */
    as_matrix own_ffn[3];                 /* layout: torch: Wup, Wgate, Wdown as [in, out]
                                             (as_problem_build_lean: their shapes only) */
    const as_matrix *Wffn_t[3];           /* lean build, layout: torch: the file's Wup,
                                             Wgate, Wdown ([out, in]), which the FFN reads
                                             transposed (no copy made); else NULL */
    size_t d_ff;                          /* columns of U: Wup's */
    /* the output head (SPEC §19); head is AS_HEAD_NONE without head:, and then nothing
       below is set */
    as_head_kind head;
    const as_matrix *head_w;              /* tied: E [vocab, d]; Wout: [d, vocab] (book
                                             layout: with layout: torch its transpose) */
    as_matrix own_head;                   /* layout: torch: Wout as [in, out]; else empty */
    size_t vocab;                         /* tokens of the vocabulary: E's rows, Wout's columns */
    double temperature;                   /* T > 0 (1 when not set) */
    size_t top_k;                         /* 0: no top-k */
    double top_p;                         /* 0: no top-p */
    int seeded;                           /* sample: SEED; else the greedy choice */
    unsigned long long seed;
    const char **tokens, **kv_tokens;     /* n and m labels (defaults "0", "1", ...) */
    as_label_store own_tokens, own_kv_tokens; /* default labels made here */
} as_problem;

/* Checks the input's shapes and settings and builds p. mask_override is
 * AS_MASK_DEFAULT to keep the file's choice, else CAUSAL or NONE. The input is never
 * changed (layout: torch transposes into p's own tables). Returns 0; or -1 with err
 * set, naming the later matrix's position and a hint. Free p with as_problem_free(). */
int as_problem_build(as_problem *p, const as_input *in, as_mask_kind mask_override,
                     as_error *err);

/* As as_problem_build(), for a run that reads the weights only through products
 * (as_attention_run_lean): with layout: torch their transposes are not made (own_w keep
 * only their shapes) and the products read Wt as stored. */
int as_problem_build_lean(as_problem *p, const as_input *in, as_mask_kind mask_override,
                          as_error *err);

/* The largest --offset: positions stay exact as doubles and angles stay meaningful. */
#define AS_MAX_OFFSET 1000000000u

/* The table p reads for matrix id: the input's, or for a W with layout: torch its
 * transpose (book layout, [in, out]), and for X and Xkv p->X and p->Xkv (the file's
 * unless a session of block: pre points them at N1); NULL when the file does not give it. */
const as_matrix *as_problem_table(const as_problem *p, as_mat_id id);

/* The K/V head that query head hd reads: hd / (heads / kv_heads) (grouped-query
 * attention; hd itself when kv_heads == heads). */
size_t as_kv_head(const as_problem *p, size_t hd);

/* Frees what p owns (not the input). */
void as_problem_free(as_problem *p);

#endif
