/* norm.h - the normalisations of a transformer block (SPEC §15), each sub-step its own
 * pure function so that the walk-through can show μ, σ², the divisor and x̂ row by row:
 * LayerNorm as torch computes it (biased σ², ε under the root), the Annotated
 * Transformer's form (unbiased σ, ε added to it), and RMSNorm. Outputs first, arrays
 * plus explicit sizes (row-major); nothing here knows about problems or traces. */
#ifndef ATTNSTEP_NORM_H
#define ATTNSTEP_NORM_H

#include <stddef.h>

/* norm: which normalisation the block applies. */
typedef enum as_norm_kind { AS_NORM_LAYER = 0, AS_NORM_RMS, AS_NORM_NONE } as_norm_kind;

/* norm_style: torch (σ² ÷ d, y = (x−μ)/√(σ²+ε)) or annotated (σ ÷ (d−1) under the root,
 * y = (x−μ)/(σ+ε)); RMSNorm has one style. */
typedef enum as_norm_style { AS_NORM_TORCH = 0, AS_NORM_ANNOTATED } as_norm_style;

/* The default ε: 1e-5 for torch's LayerNorm, 1e-6 for the annotated form and RMSNorm. */
double as_norm_default_eps(as_norm_kind kind, as_norm_style style);

/* mean[i] = Σ_j x[i,j] / d for each of n rows of x[n,d]: the μ of LayerNorm. */
void as_row_mean(double *mean, const double *x, size_t n, size_t d);

/* var[i] = Σ_j (x[i,j] − mean[i])² / (d − ddof): ddof 0 is torch's biased σ², 1 the
 * unbiased one (needs d ≥ 2). */
void as_row_var(double *var, const double *x, const double *mean, size_t n, size_t d,
                size_t ddof);

/* ms[i] = Σ_j x[i,j]² / d: RMSNorm's mean square. */
void as_row_mean_square(double *ms, const double *x, size_t n, size_t d);

/* div[i] = √(v[i] + eps): torch's LayerNorm (v = σ²) and RMSNorm (v = mean square). */
void as_norm_div_inside(double *div, const double *v, size_t n, double eps);

/* div[i] = √v[i] + eps: the annotated form, ε added to the standard deviation. */
void as_norm_div_outside(double *div, const double *v, size_t n, double eps);

/* xhat[i,j] = (x[i,j] − mean[i]) / div[i]; mean NULL for RMSNorm (nothing subtracted). */
void as_norm_xhat(double *xhat, const double *x, const double *mean, const double *div,
                  size_t n, size_t d);

/* y[i,j] = g[j]·xhat[i,j] + b[j]: the learned scale γ and shift β; g NULL means γ = 1,
 * b NULL means β = 0. y may be xhat. */
void as_norm_affine(double *y, const double *xhat, const double *g, const double *b,
                    size_t n, size_t d);

/* The sub-steps one normalisation records, each may be NULL when not wanted (xhat is
 * then made in y): mean[n] (LayerNorm only), var[n] (σ², the unbiased one for annotated,
 * or the mean square for RMSNorm), div[n], xhat[n,d], and centred[n,d] = x − μ
 * (LayerNorm only: what the walk-through writes before squaring). */
typedef struct as_norm_rec {
    double *mean, *var, *div, *xhat, *centred;
} as_norm_rec;

/* y[n,d] = the normalisation kind/style of each row of x[n,d] with γ g and β b (either
 * NULL), ε eps; the sub-steps into rec (NULL, or some fields NULL). RMSNorm ignores b.
 * AS_NORM_NONE copies x. Uses scratch of 3n doubles when rec lacks mean/var/div, so
 * returns 0, or -1 when that memory runs out. y and x must not overlap. */
int as_norm_rows(double *y, const as_norm_rec *rec, const double *x, const double *g,
                 const double *b, size_t n, size_t d, as_norm_kind kind, as_norm_style style,
                 double eps);

#endif
