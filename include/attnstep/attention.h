/* attention.h - each step of the chapter as its own pure function, and the trace
 * that records every table of one run. No I/O here. */
#ifndef ATTNSTEP_ATTENTION_H
#define ATTNSTEP_ATTENTION_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"

/* ---- The steps: outputs first, arrays plus explicit sizes (row-major). ---- */

/* out[n,p] = a[n,k] @ b[k,p]: the projection Q = X @ Wq (and every matrix product). */
void as_matmul(double *out, const double *a, const double *b, size_t n, size_t k, size_t p);

/* out[i,:] += bias[:] for each of n rows of width p. */
void as_add_bias(double *out, const double *bias, size_t n, size_t p);

/* Copies columns [c0, c0+w) of src[n, cols] into out[n, w]: one head's slice. */
void as_take_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w);

/* out[n,m] = q[n,d] @ k[m,d]ᵀ: every Query row dotted with every Key row. */
void as_scores(double *out, const double *q, const double *k, size_t n, size_t m, size_t d);

/* out[i] = in[i] * scale for count values: the scaling by 1/sqrt(d_k). */
void as_scale(double *out, const double *in, size_t count, double scale);

/* out[n,n]: the causal mask, 0 where j <= i and -inf where j > i (the future). */
void as_causal_mask(double *out, size_t n);

/* out[i] = in[i] + mask[i] for count values: adds the additive mask M. */
void as_add_mask(double *out, const double *in, const double *mask, size_t count);

/* Softmax of each row of s[n,m] into a[n,m], recording the sub-steps the chapter shows:
 * row_max[n] (over readable cells only), shifted[n,m] = s - max, exps[n,m], sums[n].
 * Cells equal to -inf get shifted -inf and exp exactly 0. Any recording pointer may be
 * NULL. Returns -1 when every row has a readable cell, else the index of the first row
 * with none (its a row is left as zeros). */
long as_softmax_rows(double *a, double *row_max, double *shifted, double *exps, double *sums,
                     const double *s, size_t n, size_t m);

/* out[n,dv] = a[n,m] @ v[m,dv]: mixing the Values by the reading shares. */
void as_mix(double *out, const double *a, const double *v, size_t n, size_t m, size_t dv);

/* Places src[n, w] at columns [c0, c0+w) of out[n, cols]: the heads side by side. */
void as_put_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w);

/* ---- The trace: one run, every table recorded. ---- */

typedef struct as_head_trace {
    as_matrix Q, K, V;        /* this head's slices: [n,d_k], [m,d_k], [m,d_v] */
    as_matrix QKT;            /* [n,m] raw scores */
    as_matrix scaled;         /* [n,m] QKT * scale (before the mask) */
    as_matrix S;              /* [n,m] scaled + M */
    as_matrix row_max;        /* [n,1] */
    as_matrix shifted, exps;  /* [n,m] */
    as_matrix sums;           /* [n,1] */
    as_matrix A;              /* [n,m] reading shares */
    as_matrix O;              /* [n,d_v] */
} as_head_trace;

typedef struct as_trace {
    as_matrix Q, K, V;        /* all heads: [n,heads*d_k], [m,kv_heads*d_k], [m,kv_heads*d_v] */
    size_t heads;
    as_head_trace *head;      /* heads entries */
    as_matrix C;              /* [n,heads*d_v] the heads side by side */
    as_matrix O;              /* final output: C @ Wo + bo, or a copy of C without Wo */
    int lean;                 /* nonzero when made by as_attention_run_lean(): then only
                                 C, O and each head's O are filled; every other table
                                 (Q, K, V and each head's Q ... A) is empty, 0 x 0 */
} as_trace;

/* Runs the whole layer on p, recording every table in t (free with as_trace_free()).
 * Returns 0; or -1 with err set: a row with no readable position, or a value that left
 * the double range (naming the table and cell). t is then empty. */
int as_attention_run(as_trace *t, const as_problem *p, as_error *err);

/* As as_attention_run(), for `--only O` (or C) at model sizes: the same C, O and
 * per-head O, bit for bit, and the same errors, but no other table is kept (t->lean is
 * set; see as_trace), so it has no limit on all heads' tables together. Each head's
 * n x m scores live in one scratch table, reused from step to step and from head to
 * head (one per thread; the heads run on two threads when the layer is large), so
 * memory stays near the size of the inputs. Free t with as_trace_free(). */
int as_attention_run_lean(as_trace *t, const as_problem *p, as_error *err);

/* Frees every table of t. */
void as_trace_free(as_trace *t);

#endif
