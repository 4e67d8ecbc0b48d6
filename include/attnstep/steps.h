/* steps.h - each step of the chapter as its own pure function: outputs first, arrays
 * plus explicit sizes (row-major). The bottom layer of the calculator, beside their fast
 * kernels (kernels.h); nothing here knows about problems, traces or files. */
#ifndef ATTNSTEP_STEPS_H
#define ATTNSTEP_STEPS_H

#include <stddef.h>

/* ---- The steps: outputs first, arrays plus explicit sizes (row-major). ---- */

/* out[n,p] = a[n,k] @ b[k,p]: the projection Q = X @ Wq (and every matrix product).
 * Each cell a running sum from +0 over t in order, each term added by fma(): the
 * definition every fast kernel gives bit for bit. */
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

#endif
