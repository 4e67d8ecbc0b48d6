/* block_backward.c - the backward steps of the block's norms and activations (see
 * block_backward.h for the formulas, each the chain rule through the forward step of
 * norm.c / ffn.c). */
#include "attnstep/block_backward.h"

#include <math.h>
#include <string.h>

/* e[j] = dy[j]·γ[j] (γ NULL: 1). */
static double gh(const double *dy, const double *g, size_t j)
{
    return g != NULL ? dy[j] * g[j] : dy[j];
}

/* Σ_j e[j]·b[j] (b NULL: Σ e), in order. */
static double gdot(const double *dy, const double *g, const double *b, size_t d)
{
    double s = 0;
    size_t j;

    for (j = 0; j < d; j++)
        s += b != NULL ? gh(dy, g, j) * b[j] : gh(dy, g, j);
    return s;
}

/* One row's dx by the kind's formula. */
static void norm_row(double *dx, const double *dy, const double *xhat, const double *c,
                     double var, double div, const double *g, size_t d, as_norm_kind kind,
                     as_norm_style style)
{
    size_t j;

    if (kind == AS_NORM_LAYER && style == AS_NORM_ANNOTATED) {
        /* σ = √var, div = σ + ε: dσ/dc_j = c_j / ((d−1)σ); then c = x − μ backwards */
        const double k = gdot(dy, g, c, d) / (div * div * (double)(d - 1) * sqrt(var));
        double mean = 0;
        for (j = 0; j < d; j++) {
            dx[j] = gh(dy, g, j) / div - c[j] * k;
            mean += dx[j];
        }
        mean /= (double)d;
        for (j = 0; j < d; j++)
            dx[j] -= mean;
        return;
    }
    {
        const double mg = kind == AS_NORM_LAYER ? gdot(dy, g, NULL, d) / (double)d : 0;
        const double mgx = gdot(dy, g, xhat, d) / (double)d;
        for (j = 0; j < d; j++)
            dx[j] = (gh(dy, g, j) - mg - xhat[j] * mgx) / div;
    }
}

void as_norm_backward_rows(double *dx, double *dg, double *db, const double *dy,
                           const double *xhat, const double *centred, const double *var,
                           const double *div, const double *g, size_t n, size_t d,
                           as_norm_kind kind, as_norm_style style)
{
    size_t i, j;

    if (dg != NULL)
        memset(dg, 0, d * sizeof *dg);
    if (db != NULL)
        memset(db, 0, d * sizeof *db);
    if (kind == AS_NORM_NONE) {
        memcpy(dx, dy, n * d * sizeof *dx);
        return;
    }
    for (i = 0; i < n; i++) {
        const double *dyi = dy + i * d, *xh = xhat + i * d;
        norm_row(dx + i * d, dyi, xh, centred ? centred + i * d : NULL, var ? var[i] : 0,
                 div[i], g, d, kind, style);
        for (j = 0; j < d; j++) {
            if (dg != NULL)
                dg[j] += dyi[j] * xh[j];
            if (db != NULL)
                db[j] += dyi[j];
        }
    }
}

/* f'(x) of each activation. */
static double derivative(double x, as_ffn_kind kind)
{
    static const double sqrt1_2 = 0.70710678118654752440, inv_sqrt_2pi = 0.39894228040143267794;
    static const double beta = 0.79788456080286535588; /* √(2/π) */

    switch (kind) {
    case AS_FFN_RELU: return x > 0 ? 1.0 : 0.0;
    case AS_FFN_GELU: return 0.5 * (1.0 + erf(x * sqrt1_2)) + x * inv_sqrt_2pi * exp(-0.5 * x * x);
    case AS_FFN_GELU_TANH: {
        const double u = beta * (x + 0.044715 * x * x * x), th = tanh(u);
        return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * beta * (1.0 + 3 * 0.044715 * x * x);
    }
    case AS_FFN_SWIGLU: {
        const double s = 1.0 / (1.0 + exp(-x));
        return s * (1.0 + x * (1.0 - s));
    }
    case AS_FFN_NONE: break;
    }
    return 1.0;
}

void as_activation_backward(double *dx, const double *dy, const double *x, size_t count,
                            as_ffn_kind kind)
{
    size_t i;

    for (i = 0; i < count; i++)
        dx[i] = dy[i] * derivative(x[i], kind);
}
