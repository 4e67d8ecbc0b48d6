/* steps.c - the chapter's steps, each its own pure function on arrays with explicit
 * sizes: the plain references that kernels.c speeds up bit for bit. A product's
 * cell is a running sum from +0 over its terms in order, each added by one fused
 * multiply-add (C's fma(): a single rounding), as fast hardware adds them. The bottom layer:
 * nothing here knows about problems, traces or files. */
#include "attnstep/steps.h"

#include "attnstep/expvec.h"
#include "fma_clones.h"

#include <math.h>
#include <string.h>

FMA_INLINE void matmul(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    size_t i, j, t;

    for (i = 0; i < n; i++) {
        double *o = out + i * p;
        for (j = 0; j < p; j++)
            o[j] = 0.0;
        /* i-t-j order reads b row-wise, so the inner loop walks memory in order */
        for (t = 0; t < k; t++) {
            const double x = a[i * k + t];
            const double *brow = b + t * p;
            for (j = 0; j < p; j++)
                o[j] = fma(x, brow[j], o[j]);
        }
    }
}
FMA_BUILD(matmul, (double *out, const double *a, const double *b, size_t n, size_t k, size_t p),
          (out, a, b, n, k, p))

void as_matmul(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    FMA_RUN(matmul, (out, a, b, n, k, p));
}

void as_add_bias(double *out, const double *bias, size_t n, size_t p)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < p; j++)
            out[i * p + j] += bias[j];
}

void as_take_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w)
{
    size_t i;

    for (i = 0; i < n; i++)
        memcpy(out + i * w, src + i * cols + c0, w * sizeof *out);
}

void as_put_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w)
{
    size_t i;

    for (i = 0; i < n; i++)
        memcpy(out + i * cols + c0, src + i * w, w * sizeof *out);
}

FMA_INLINE void scores(double *out, const double *q, const double *k, size_t n, size_t m, size_t d)
{
    size_t i, j, t;

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            double dot = 0.0;
            for (t = 0; t < d; t++)
                dot = fma(q[i * d + t], k[j * d + t], dot);
            out[i * m + j] = dot;
        }
}
FMA_BUILD(scores, (double *out, const double *q, const double *k, size_t n, size_t m, size_t d),
          (out, q, k, n, m, d))

void as_scores(double *out, const double *q, const double *k, size_t n, size_t m, size_t d)
{
    FMA_RUN(scores, (out, q, k, n, m, d));
}

void as_scale(double *out, const double *in, size_t count, double scale)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = in[i] * scale;
}

void as_causal_mask(double *out, size_t n)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            out[i * n + j] = j <= i ? 0.0 : -INFINITY;
}

void as_add_mask(double *out, const double *in, const double *mask, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = in[i] + mask[i];
}

/* Softmax of one row of m cells; returns 0, or -1 when no cell is readable. */
static int softmax_row(double *a, double *row_max, double *shifted, double *exps, double *sum,
                       const double *s, size_t m)
{
    size_t j;
    double max = -INFINITY, total = 0.0;

    /* 1. the max over readable cells only: no finite sentinel (llm.c's warning) */
    for (j = 0; j < m; j++)
        if (s[j] > max)
            max = s[j];
    if (max == -INFINITY)
        return -1;
    /* 2. subtract the max (-inf stays -inf: max is finite) and 3. exponentiate the
     * row at once (exp(-inf) is exactly 0), then add the exps up in order */
    for (j = 0; j < m; j++) {
        a[j] = s[j] - max;
        if (shifted)
            shifted[j] = a[j];
    }
    as_exp_many(a, a, m);
    for (j = 0; j < m; j++) {
        if (exps)
            exps[j] = a[j];
        total += a[j];
    }
    /* 4. divide by the sum (at least 1: the max cell contributes exp(0)) */
    for (j = 0; j < m; j++)
        a[j] /= total;
    if (row_max)
        *row_max = max;
    if (sum)
        *sum = total;
    return 0;
}

long as_softmax_rows(double *a, double *row_max, double *shifted, double *exps, double *sums,
                     const double *s, size_t n, size_t m)
{
    size_t i;
    long bad = -1;

    for (i = 0; i < n; i++) {
        const size_t o = i * m;
        if (softmax_row(a + o, row_max ? row_max + i : NULL, shifted ? shifted + o : NULL,
                        exps ? exps + o : NULL, sums ? sums + i : NULL, s + o, m) != 0) {
            memset(a + o, 0, m * sizeof *a);
            if (bad < 0)
                bad = (long)i;
        }
    }
    return bad;
}

void as_mix(double *out, const double *a, const double *v, size_t n, size_t m, size_t dv)
{
    as_matmul(out, a, v, n, m, dv);
}
