/* norm.c - LayerNorm (torch's and the Annotated Transformer's) and RMSNorm, one sub-step
 * per function (μ, σ² or the mean square, the divisor, x̂, γ and β) so that the run can
 * record each and the walk-through show it. Sums run in order from +0. */
#include "attnstep/norm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double as_norm_default_eps(as_norm_kind kind, as_norm_style style)
{
    /* torch.nn.LayerNorm's 1e-5; the Annotated Transformer's LayerNorm and LLaMA's
     * RMSNorm use 1e-6 */
    return kind == AS_NORM_LAYER && style == AS_NORM_TORCH ? 1e-5 : 1e-6;
}

void as_row_mean(double *mean, const double *x, size_t n, size_t d)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < d; j++)
            s += x[i * d + j];
        mean[i] = s / (double)d;
    }
}

void as_row_var(double *var, const double *x, const double *mean, size_t n, size_t d,
                size_t ddof)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < d; j++) {
            const double c = x[i * d + j] - mean[i];
            s += c * c;
        }
        var[i] = s / (double)(d - ddof);
    }
}

void as_row_mean_square(double *ms, const double *x, size_t n, size_t d)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < d; j++)
            s += x[i * d + j] * x[i * d + j];
        ms[i] = s / (double)d;
    }
}

void as_norm_div_inside(double *div, const double *v, size_t n, double eps)
{
    size_t i;

    for (i = 0; i < n; i++)
        div[i] = sqrt(v[i] + eps);
}

void as_norm_div_outside(double *div, const double *v, size_t n, double eps)
{
    size_t i;

    for (i = 0; i < n; i++)
        div[i] = sqrt(v[i]) + eps;
}

void as_norm_xhat(double *xhat, const double *x, const double *mean, const double *div,
                  size_t n, size_t d)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < d; j++)
            xhat[i * d + j] = (x[i * d + j] - (mean != NULL ? mean[i] : 0.0)) / div[i];
}

void as_norm_affine(double *y, const double *xhat, const double *g, const double *b,
                    size_t n, size_t d)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < d; j++)
            y[i * d + j] = (g != NULL ? g[j] : 1.0) * xhat[i * d + j] + (b != NULL ? b[j] : 0.0);
}

/* The row statistics and divisors of kind/style into mean (LayerNorm), var and div. */
static void statistics(double *mean, double *var, double *div, const double *x, size_t n,
                       size_t d, as_norm_kind kind, as_norm_style style, double eps)
{
    if (kind == AS_NORM_RMS) {
        as_row_mean_square(var, x, n, d);
        as_norm_div_inside(div, var, n, eps);
        return;
    }
    as_row_mean(mean, x, n, d);
    if (style == AS_NORM_ANNOTATED) {
        as_row_var(var, x, mean, n, d, 1);
        as_norm_div_outside(div, var, n, eps);
    } else {
        as_row_var(var, x, mean, n, d, 0);
        as_norm_div_inside(div, var, n, eps);
    }
}

int as_norm_rows(double *y, const as_norm_rec *rec, const double *x, const double *g,
                 const double *b, size_t n, size_t d, as_norm_kind kind, as_norm_style style,
                 double eps)
{
    const as_norm_rec none = {NULL, NULL, NULL, NULL, NULL};
    const as_norm_rec *r = rec != NULL ? rec : &none;
    double *scratch = NULL, *mean = r->mean, *var = r->var, *div = r->div;

    if (kind == AS_NORM_NONE) {
        memmove(y, x, n * d * sizeof *y);
        return 0;
    }
    if (mean == NULL || var == NULL || div == NULL) {
        scratch = malloc((3 * n + 1) * sizeof *scratch);
        if (scratch == NULL)
            return -1;
        mean = mean != NULL ? mean : scratch;
        var = var != NULL ? var : scratch + n;
        div = div != NULL ? div : scratch + 2 * n;
    }
    statistics(mean, var, div, x, n, d, kind, style, eps);
    if (r->centred != NULL && kind == AS_NORM_LAYER) {
        size_t i, j;
        for (i = 0; i < n; i++)
            for (j = 0; j < d; j++)
                r->centred[i * d + j] = x[i * d + j] - mean[i];
    }
    as_norm_xhat(r->xhat != NULL ? r->xhat : y, x, kind == AS_NORM_RMS ? NULL : mean, div, n, d);
    as_norm_affine(y, r->xhat != NULL ? r->xhat : y, g, kind == AS_NORM_RMS ? NULL : b, n, d);
    free(scratch);
    return 0;
}
