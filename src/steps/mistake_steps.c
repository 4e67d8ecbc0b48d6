/* mistake_steps.c - the steps a student does another way (SPEC §6); see mistake_steps.h. */
#include "attnstep/mistake_steps.h"
#include "attnstep/norm.h"

#include <math.h>

void as_mask_as_zero(double *out, const double *in, const double *mask, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = isinf(mask[i]) && mask[i] < 0 ? 0.0 : in[i] + mask[i];
}

void as_zero_masked(double *a, const double *mask, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        if (isinf(mask[i]) && mask[i] < 0)
            a[i] = 0.0;
}

void as_exp_all(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = isinf(in[i]) && in[i] < 0 ? 0.0 : exp(in[i]);
}

void as_layer_norm_as(double *y, const double *x, const double *g, const double *b, size_t n,
                      size_t d, size_t ddof, int eps_outside, double eps)
{
    size_t i;

    for (i = 0; i < n; i++) { /* one row at a time, by the chapter's own norm steps */
        double mean, var, div;
        as_row_mean(&mean, x + i * d, 1, d);
        as_row_var(&var, x + i * d, &mean, 1, d, ddof);
        (eps_outside ? as_norm_div_outside : as_norm_div_inside)(&div, &var, 1, eps);
        as_norm_xhat(y + i * d, x + i * d, &mean, &div, 1, d);
        as_norm_affine(y + i * d, y + i * d, g, b, 1, d);
    }
}
