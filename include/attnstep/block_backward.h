/* block_backward.h - the backward steps of the transformer block (SPEC §13 through §15):
 * each normalisation, each activation of the FFN, read from what the forward pass
 * recorded (x̂, the divisor, x − μ, σ²). Pure: arrays plus explicit sizes, outputs first;
 * the residual add's backward is the identity on both of its inputs (as_accumulate). */
#ifndef ATTNSTEP_BLOCK_BACKWARD_H
#define ATTNSTEP_BLOCK_BACKWARD_H

#include <stddef.h>
#include "attnstep/ffn.h"
#include "attnstep/norm.h"

/* dx[n,d] = dL/dx of y = norm(x) given dy[n,d], for each row, from the forward's
 * records: xhat[n,d] and div[n] (every kind but none), and for the annotated style
 * also centred[n,d] (x − μ) and var[n] (the unbiased σ²). g is γ [d] or NULL (1).
 *   torch LayerNorm: dx = (e − mean(e) − x̂·mean(e⊙x̂)) / div,  e = dy⊙γ
 *   RMSNorm:         dx = (e − x̂·mean(e⊙x̂)) / div
 *   annotated:       dc = e/div − c·Σ(e⊙c)/(div²·(d−1)·σ),  dx = dc − mean(dc)
 *   none:            dx = dy
 * dg[d] and db[d] (each may be NULL) get γ's and β's gradients, Σ over rows of dy⊙x̂ and
 * of dy (RMSNorm: db unused). dx must not overlap the others. */
void as_norm_backward_rows(double *dx, double *dg, double *db, const double *dy,
                           const double *xhat, const double *centred, const double *var,
                           const double *div, const double *g, size_t n, size_t d,
                           as_norm_kind kind, as_norm_style style);

/* dx[i] = dy[i] · f'(x[i]) for the activation f of kind (relu: 1 where x > 0, else 0, as
 * torch; gelu: Φ(x) + x·φ(x); gelu_tanh: the derivative of GPT-2's tanh form), x the
 * activation's input. AS_FFN_SWIGLU means its gate, SiLU: s·(1 + x·(1 − s)), s = σ(x).
 * AS_FFN_NONE copies dy. dx may be dy. */
void as_activation_backward(double *dx, const double *dy, const double *x, size_t count,
                            as_ffn_kind kind);

#endif
