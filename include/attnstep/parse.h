/* parse.h - the input file (SPEC §2): settings and named matrices, as written. */
#ifndef ATTNSTEP_PARSE_H
#define ATTNSTEP_PARSE_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/positions.h"
#include "attnstep/number.h"
#include "attnstep/norm.h"
#include "attnstep/ffn.h"
#include "attnstep/reader.h"

/* The matrices an input may name. Order is the book's order of appearance. */
typedef enum as_mat_id {
    AS_X, AS_XKV, AS_WQ, AS_WK, AS_WV, AS_WO,
    AS_BQ, AS_BK, AS_BV, AS_BO, AS_M,
    AS_DO, AS_TARGET, /* for grad (SPEC §13): the output's gradient, or the mse target */
    AS_E, AS_P,       /* with ids: (SPEC §16, F05): the rows of the embedding table E and of
                         the learned positions P that X = E[ids] + P[0:n] takes */
    /* the block (SPEC §15): each norm's γ and β, then the feed-forward network's tables */
    AS_LN1_G, AS_LN1_B, AS_LN2_G, AS_LN2_B, AS_LNF_G, AS_LNF_B,
    AS_WUP, AS_BUP, AS_WDOWN, AS_BDOWN, AS_WGATE,
    AS_WOUT, /* the output head (SPEC §19): [d_model, vocab], the logits h·Wout */
    AS_NMAT
} as_mat_id;

/* Canonical name of a matrix id ("X", "Xkv", "Wq", ..., "M"). */
const char *as_mat_name(as_mat_id id);

/* Looks up a matrix name, accepting the spellings SPEC §2 allows (W_Q, WQ, W_q, Xkv,
 * X_kv ...). Returns the id, or -1 when the name is not a matrix of the format. */
int as_mat_lookup(const char *name, size_t len);

/* The word of ffn: that names kind ("gelu_tanh", "gelu", "relu", "swiglu", "none"). */
const char *as_ffn_name(as_ffn_kind kind);

/* The settings an input may give ("title", "tokens", "mask" …): *n of them, static. */
const char *const *as_setting_names(size_t *n);

/* WINDOW (SPEC §11): causal, and each position reads only itself and the window-1
 * positions before it. */
typedef enum as_mask_kind {
    AS_MASK_DEFAULT = 0, AS_MASK_CAUSAL, AS_MASK_NONE, AS_MASK_CUSTOM, AS_MASK_WINDOW
} as_mask_kind;
typedef enum as_layout { AS_LAYOUT_BOOK = 0, AS_LAYOUT_TORCH } as_layout;

/* block: the chapter's lone attention, or a whole transformer block (SPEC §15) with the
 * norms before each sublayer (pre: GPT-2, LLaMA) or after each residual add (post). */
typedef enum as_block_kind { AS_BLOCK_NONE = 0, AS_BLOCK_PRE, AS_BLOCK_POST } as_block_kind;

/* positions: how the layer learns the order of the tokens (SPEC §12). */
typedef enum as_positions {
    AS_POSITIONS_NONE = 0, AS_POSITIONS_SINUSOIDAL, AS_POSITIONS_ROPE, AS_POSITIONS_ALIBI
} as_positions;

/* head: the output head after the layer (SPEC §19): none, the embedding table E
 * (logits = h·Eᵀ) or a table of its own, Wout. */
typedef enum as_head_kind { AS_HEAD_NONE = 0, AS_HEAD_TIED, AS_HEAD_WOUT } as_head_kind;

/* The settings of the output head and the draw, as written (model.c checks them
 * against the vocabulary). */
typedef struct as_head_settings {
    as_head_kind head;    /* AS_HEAD_NONE when not set */
    as_pos head_pos;
    double temperature;   /* meaningful when temperature_set: > 0 */
    int temperature_set;
    as_pos temperature_pos;
    size_t top_k;         /* 0 when not set, else >= 1 */
    as_pos top_k_pos;
    double top_p;         /* 0 when not set, else in (0, 1] */
    as_pos top_p_pos;
    int sample_set;       /* nonzero when sample: is written */
    int seeded;           /* sample: SEED (a draw); 0 for sample: greedy */
    unsigned long long seed;
    as_pos sample_pos;
} as_head_settings;

typedef struct as_named {
    as_matrix m;
    int given;    /* nonzero when the file defines it */
    as_pos pos;   /* where its name stands */
} as_named;

typedef struct as_tokens {
    char **label;  /* count NUL-terminated UTF-8 strings */
    size_t count;
    as_pos pos;
} as_tokens;

/* ids: (SPEC §16, F05): X = E[ids] + P[0:n], made by the parser. Only the rows taken are
 * kept: mat[AS_E] is [n, d_model] with row i = E[ids[i]], mat[AS_P] is P[0:n]; the full
 * tables' row counts are kept here for the messages and the renderers. */
typedef struct as_embedding {
    size_t *ids;         /* count ids, in the order written; NULL when ids: is not set */
    as_pos *at;          /* where each id stands */
    size_t count;
    as_pos pos;          /* where the key ids stands */
    size_t vocab;        /* rows of the whole E (the vocabulary) */
    size_t context;      /* rows of the whole P (the context length), 0 without P */
    as_matrix table;     /* with head: (SPEC §19) the whole E, every row (a tied head's
                            logits h·Eᵀ read them all, generate appends any); else empty */
    as_matrix positions; /* with head: and P, the whole P (generate's later positions) */
} as_embedding;

typedef struct as_input {
    char *path;          /* the file name as given ("-" for stdin): used in errors */
    char *title;         /* NULL when not set */
    as_tokens tokens;    /* count 0 when not set */
    as_tokens kv_tokens; /* count 0 when not set */
    as_mask_kind mask;   /* AS_MASK_DEFAULT when not set (a matrix M is AS_MASK_CUSTOM) */
    as_pos mask_pos;
    size_t heads;        /* 0 when not set */
    as_pos heads_pos;
    size_t kv_heads;     /* 0 when not set (then as many as heads: SPEC §11) */
    as_pos kv_heads_pos;
    size_t window;       /* the W of mask: window W (mask is then AS_MASK_WINDOW) */
    as_layout layout;
    double scale;        /* meaningful when scale_set */
    int scale_set;       /* 0 = auto */
    as_pos scale_pos;
    as_positions positions; /* AS_POSITIONS_NONE when not set */
    as_pos positions_pos;
    double rope_base;       /* meaningful when rope_base_set (default 10000) */
    int rope_base_set;
    as_pos rope_base_pos;
    as_rope_pairing rope;   /* AS_ROPE_HALF when not set */
    int rope_set;
    as_pos rope_pos;
    as_block_kind block;    /* AS_BLOCK_NONE when not set */
    as_pos block_pos;
    as_norm_kind norm;      /* AS_NORM_LAYER when not set */
    as_pos norm_pos;        /* line 0 when not set */
    as_norm_style norm_style; /* AS_NORM_TORCH when not set */
    as_pos norm_style_pos;
    double norm_eps;        /* meaningful when norm_eps_set */
    int norm_eps_set;
    as_pos norm_eps_pos;
    as_ffn_kind ffn;        /* AS_FFN_GELU_TANH (GPT-2's) when not set */
    as_pos ffn_pos;
    char *loss;          /* grad: the loss as written (checked by grad), NULL when not set */
    as_pos loss_pos;     /* where its value starts */
    char *ask;           /* check: the tables the problem asks, as written ("Q K V QKT S A
                          * O", SPEC §6; checked by check), NULL when not set */
    as_pos ask_pos;      /* where its value starts */
    as_head_settings out;   /* the output head and the draw (SPEC §19) */
    as_named mat[AS_NMAT];
    as_embedding emb;    /* ids: and what E and P were before their rows were taken */
} as_input;

/* Parses len bytes of text (need not be NUL-terminated). path names the file in errors,
 * and load("...") paths are taken relative to its folder. Returns 0 and fills in, which
 * the caller frees with as_input_free(); or -1 with err set (in is then empty). */
int as_parse_text(as_input *in, const char *text, size_t len, const char *path, as_error *err);

/* Reads the whole file at path ("-" is standard input) and parses it as above. */
int as_parse_file(as_input *in, const char *path, as_error *err);

/* Frees everything in in and leaves it empty. */
void as_input_free(as_input *in);

#endif
