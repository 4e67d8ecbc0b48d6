/* block.h - the whole transformer block of SPEC §15 around the attention layer: the
 * norms, the residual adds and the feed-forward network, every table and each norm's
 * sub-steps recorded for the renderers. The steps are in norm.h and ffn.h. No I/O. */
#ifndef ATTNSTEP_BLOCK_H
#define ATTNSTEP_BLOCK_H

#include "attnstep/attention.h"
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"

/* One normalisation's sub-steps, row by row (empty, 0 x 0, where the block has no such
 * norm or norm: none). */
typedef struct as_norm_trace {
    as_matrix mean;  /* [n,1] LayerNorm's μ; empty for RMSNorm */
    as_matrix var;   /* [n,1] σ² (biased for torch, unbiased for annotated), or RMSNorm's
                        mean square Σx²/d */
    as_matrix div;   /* [n,1] the divisor: √(σ²+ε) (torch), σ+ε (annotated), √(Σx²/d+ε) */
    as_matrix xhat;  /* [n,d_model] the row normalised, before γ and β */
    as_matrix centred; /* [n,d_model] LayerNorm's x − μ; empty for RMSNorm */
} as_norm_trace;

/* The block's tables in SPEC §15's order; a table the block does not make is empty. */
typedef struct as_block_trace {
    as_matrix N1;         /* pre: norm1(X), what the attention reads; empty for post */
    as_matrix R1;         /* post: X + O, the sum norm1 normalises; empty for pre */
    as_matrix H1;         /* pre: X + O; post: norm1(X + O) */
    as_matrix N2;         /* pre: norm2(H1), what the FFN reads; empty for post */
    as_matrix U;          /* [n,d_ff] N2 @ Wup + bup (post: H1 @ Wup + bup) */
    as_matrix Z;          /* swiglu: [n,d_ff] N2 @ Wgate, what SiLU reads; else empty */
    as_matrix G;          /* swiglu: [n,d_ff] silu(N2 @ Wgate); else empty */
    as_matrix F;          /* [n,d_ff] after the activation (swiglu: G ⊙ U) */
    as_matrix D;          /* [n,d_model] F @ Wdown + bdown */
    as_matrix R2;         /* post: H1 + D, the sum norm2 normalises; empty for pre */
    as_matrix H2;         /* pre: H1 + D; post: norm2(H1 + D) */
    as_matrix Y;          /* [n,d_model] the block's output: normf of its last table
                             (H2, or H1 with ffn: none) when lnf is given, else a copy */
    as_norm_trace norm1, norm2, normf;
} as_block_trace;

/* Step 1 of a block: for pre, N1 = norm1(X) into b (start b zeroed). *q becomes the
 * problem the attention layer runs on: p itself for post, and for pre p with X (and
 * Xkv, for self-attention) N1; q borrows from p and b, and needs no freeing. Returns 0;
 * or -1 with err set (b is then freed). */
int as_block_begin(as_block_trace *b, as_problem *q, const as_problem *p, as_error *err);

/* The rest of the block, from the attention's output O [n, d_model] on: the residuals,
 * the norms, the FFN and Y, into b. Returns 0; or -1 with err set (a value that left
 * the double range, naming the table and cell; or memory), b then freed. */
int as_block_finish(as_block_trace *b, const as_matrix *O, const as_problem *p, as_error *err);

/* The whole block on p (p->block not AS_BLOCK_NONE): as_block_begin(), the attention
 * layer into t (as_attention_run), as_block_finish(). Free b with as_block_trace_free()
 * and t with as_trace_free(). Returns 0; or -1 with err set, b and t then empty. */
int as_block_run(as_block_trace *b, as_trace *t, const as_problem *p, as_error *err);

/* The block row by row (decode and generate, SPEC §11 and §19): each step on row t of
 * p->X alone, as the whole block makes that row (its steps are row-wise, and the one-row
 * products are the run's sums in the run's order), so every row is the run's bit for
 * bit. as_block_row_begin(): for pre, N1's row and norm1's sub-steps into the one-row
 * trace b (b zeroed and nothing more for post). as_block_row_finish(): the rest of the
 * block on row t from o [d_model], row t of the attention's output, into the one-row b.
 * Both return 0; or -1 with err set, b then freed; free b with as_block_trace_free(). */
int as_block_row_begin(as_block_trace *b, const as_problem *p, size_t t, as_error *err);
int as_block_row_finish(as_block_trace *b, const double *o, const as_problem *p, size_t t,
                        as_error *err);

/* Copies every table and sub-step of the one-row trace one into row t of all, making a
 * table of all n rows the first time one has it. Returns 0, or -1 when memory ran out. */
int as_block_put_row(as_block_trace *all, const as_block_trace *one, size_t t, size_t n);

/* The table of b that registry row id names (AS_TAB_N1 … AS_TAB_Y), or NULL when id is
 * none of the block's or b has not made it (empty). */
const as_matrix *as_block_table(const as_block_trace *b, as_tab id);

/* Frees every table of b and leaves it zeroed; safe on a zeroed b. */
void as_block_trace_free(as_block_trace *b);

#endif
