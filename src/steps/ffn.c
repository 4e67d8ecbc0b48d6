/* ffn.c - the activations of the feed-forward network and the residual add, written as
 * torch computes them (the same operations in the same order) so that float64 agrees to
 * the last few bits. */
#include "attnstep/ffn.h"

#include <math.h>
#include <string.h>

/* <math.h>'s sqrt1_2, M_SQRT2 and M_2_SQRTPI are XSI, not C11: their values here. */
static const double sqrt1_2 = 0.70710678118654752440;
static const double sqrt2 = 1.41421356237309504880;
static const double two_sqrtpi = 1.12837916709551257390;

void as_relu(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = in[i] > 0.0 ? in[i] : 0.0;
}

void as_gelu_erf(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = in[i] * 0.5 * (1.0 + erf(in[i] * sqrt1_2));
}

void as_gelu_tanh(double *out, const double *in, size_t count)
{
    const double beta = sqrt2 * two_sqrtpi * 0.5; /* √(2/π), as torch forms it */
    size_t i;

    for (i = 0; i < count; i++) {
        const double x = in[i];
        out[i] = 0.5 * x * (1.0 + tanh(beta * (x + 0.044715 * x * x * x)));
    }
}

void as_silu(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = in[i] / (1.0 + exp(-in[i]));
}

void as_hadamard(double *out, const double *a, const double *b, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = a[i] * b[i];
}

void as_residual_add(double *out, const double *a, const double *b, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = a[i] + b[i];
}

void as_ffn_activate(double *out, const double *in, size_t count, as_ffn_kind kind)
{
    switch (kind) {
    case AS_FFN_RELU: as_relu(out, in, count); return;
    case AS_FFN_GELU: as_gelu_erf(out, in, count); return;
    case AS_FFN_GELU_TANH: as_gelu_tanh(out, in, count); return;
    case AS_FFN_SWIGLU: as_silu(out, in, count); return;
    default: memmove(out, in, count * sizeof *out); return;
    }
}
