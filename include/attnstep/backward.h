/* backward.h - the backward pass of one attention layer, each step its own pure function
 * (SPEC §13), beside the forward steps: arrays plus explicit sizes, row-major, outputs
 * first, as llm.c's attention_backward. No I/O, no trace: grad.c runs them in order.
 *
 * The forward steps serve the backward pass too: d(QKᵀ) = dS·scale is as_scale(),
 * dQ = d(QKᵀ)·K is as_matmul(), dA = dO·Vᵀ and each path of dX (dQ·Wqᵀ) are as_scores()
 * (a product with the second table transposed). What is new is here. */
#ifndef ATTNSTEP_BACKWARD_H
#define ATTNSTEP_BACKWARD_H

#include <stddef.h>

/* loss: sum, L = Σ O: dO[i] = 1 for count cells. Returns L, summed in order. */
double as_loss_sum_backward(double *dO, const double *O, size_t count);

/* loss: mse, L = Σ (O - target)² / 2: dO[i] = O[i] - target[i]. Returns L. */
double as_loss_mse_backward(double *dO, const double *O, const double *target, size_t count);

/* out[k,p] = a[n,k]ᵀ @ b[n,p]: the products whose first table is transposed,
 * dV = Aᵀ·dO, dK = d(QKᵀ)ᵀ·Q, dWq = Xᵀ·dQ. Each cell sums over i = 0 .. n-1 in order,
 * one fused multiply-add a term (the plain reference). */
void as_matmul_tn(double *out, const double *a, const double *b, size_t n, size_t k, size_t p);

/* out[k,p] += a[n,k]ᵀ @ b[n,p], each cell's running sum going on from its value in out
 * over i = 0 .. n-1 in order: the products over consecutive blocks of rows, one after
 * the other, give as_matmul_tn() over all the rows bit for bit (out zeroed first). The
 * row-by-row backward pass gathers dV and dK so, a block of rows at a time. */
void as_matmul_tn_acc(double *out, const double *a, const double *b, size_t n, size_t k,
                      size_t p);

/* As as_matmul_tn(), bit for bit, at model sizes: a is transposed once into scratch and
 * the product runs on the fast kernel (kernels.h). Falls back to as_matmul_tn() when no
 * scratch memory can be had. */
void as_matmul_tn_fast(double *out, const double *a, const double *b, size_t n, size_t k,
                       size_t p);

/* The softmax backward along each row of a[n,m] (the shares) given da[n,m] (dL/dA):
 * rowdot[i] = Σ_j da[i,j]·a[i,j] (the shares' weighted mean of da), then
 * ds[i,j] = a[i,j]·(da[i,j] - rowdot[i]). A cell whose share is 0 (masked: exp(-∞) = 0)
 * gets exactly 0, never -0. rowdot may be NULL. ds must not overlap da or a. */
void as_softmax_backward_rows(double *ds, double *rowdot, const double *da, const double *a,
                              size_t n, size_t m);

/* out[p] = Σ_i in[i,p] over n rows, in order: a bias's gradient (dbq = column sums of dQ). */
void as_column_sums(double *out, const double *in, size_t n, size_t p);

/* Adds src[n, w] into columns [c0, c0+w) of out[n, cols]: a head's dK (dV) into the
 * K (V) head it shares with the other heads of its group (kv_heads, SPEC §11), whose
 * gradients add up. */
void as_add_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w);

/* out[i] += in[i] for count values: the paths into dX added one by one. */
void as_accumulate(double *out, const double *in, size_t count);

#endif
