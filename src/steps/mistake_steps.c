/* mistake_steps.c - the steps a student does another way (SPEC §6); see mistake_steps.h. */
#include "attnstep/mistake_steps.h"

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
