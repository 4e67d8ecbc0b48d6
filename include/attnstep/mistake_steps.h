/* mistake_steps.h - the steps a student does another way (SPEC §6, named mistakes) that
 * the chapter's own steps (attention.h) cannot express: pure, arrays plus explicit sizes,
 * outputs first, row-major. The other mistakes reuse the chapter's steps with another
 * argument (a scale of 1, no mask, a transposed table). */
#ifndef ATTNSTEP_MISTAKE_STEPS_H
#define ATTNSTEP_MISTAKE_STEPS_H

#include <stddef.h>

/* masked_zero: out[i] = 0 where mask[i] is -inf (0 written for −∞), else in[i] + mask[i],
 * for count values. */
void as_mask_as_zero(double *out, const double *in, const double *mask, size_t count);

/* mask_after_softmax: a[i] = 0 where mask[i] is -inf, for count values (the shares are
 * not renormalised). */
void as_zero_masked(double *a, const double *mask, size_t count);

/* no_normalize without the max shift: out[i] = exp(in[i]) (exp(-inf) = 0), count values. */
void as_exp_all(double *out, const double *in, size_t count);

/* ln_unbiased, ln_eps_outside (SPEC §15): y[n,d] = γ⊙(x − μ)/div + β for each row of
 * x[n,d], σ² = Σ(x − μ)²/(d − ddof) (ddof 0 or 1; d > ddof), div = √(σ² + eps), or with
 * eps_outside √σ² + eps. ddof 0 inside is torch's LayerNorm, 1 outside the annotated
 * one. g NULL means γ = 1, b NULL β = 0; y must not overlap x. */
void as_layer_norm_as(double *y, const double *x, const double *g, const double *b, size_t n,
                      size_t d, size_t ddof, int eps_outside, double eps);

#endif
