/* steps_gen.c - the steps a generating decoder adds: the sliding-window mask and the
 * online softmax update (SPEC §11). Each is pure; attention.c, tiles.c and decode.c
 * use them. */
#include "attnstep/steps_gen.h"

#include <math.h>

void as_window_mask(double *out, size_t n, size_t w)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            out[i * n + j] = j <= i && i - j < w ? 0.0 : -INFINITY;
}

void as_online_update(double *acc, double *m, double *l, double *factor, double *exps,
                      const double *s, const double *v, size_t b, size_t dv)
{
    double m_new = *m, f, e;
    size_t j, c;

    /* 1. the new running max: the old one, or a larger score of this block */
    for (j = 0; j < b; j++)
        if (s[j] > m_new)
            m_new = s[j];
    if (m_new == -INFINITY) { /* nothing readable yet: nothing changes */
        *factor = 1.0;
        for (j = 0; exps != NULL && j < b; j++)
            exps[j] = 0.0;
        return;
    }
    /* 2. rescale what was summed against the old max: e^(m_old - m_new) */
    f = *m == -INFINITY ? 0.0 : exp(*m - m_new);
    *l *= f;
    for (c = 0; c < dv; c++)
        acc[c] *= f;
    /* 3. add this block's exps and their weighted Values */
    for (j = 0; j < b; j++) {
        e = s[j] == -INFINITY ? 0.0 : exp(s[j] - m_new);
        if (exps != NULL)
            exps[j] = e;
        *l += e;
        for (c = 0; c < dv; c++)
            acc[c] += e * v[j * dv + c];
    }
    *m = m_new;
    *factor = f;
}

void as_online_output(double *out, const double *acc, double l, size_t dv)
{
    size_t c;

    for (c = 0; c < dv; c++)
        out[c] = acc[c] / l;
}

void as_online_shares(double *a, const double *s, double m, double l, size_t count)
{
    size_t j;

    for (j = 0; j < count; j++)
        a[j] = s[j] == -INFINITY ? 0.0 : exp(s[j] - m) / l;
}
