/* backward.c - the backward steps of the attention layer (SPEC §13), each its own pure
 * function: arrays plus explicit sizes, outputs first. */
#include "attnstep/backward.h"
#include "attnstep/kernels.h"
#include "attnstep/matrix.h"
#include "fma_clones.h"

#include <math.h>
#include <stdlib.h>

double as_loss_sum_backward(double *dO, const double *O, size_t count)
{
    double loss = 0.0;
    size_t i;

    for (i = 0; i < count; i++) {
        dO[i] = 1.0; /* dL/dO of L = Σ O: every cell counts once */
        loss += O[i];
    }
    return loss;
}

double as_loss_mse_backward(double *dO, const double *O, const double *target, size_t count)
{
    double loss = 0.0;
    size_t i;

    for (i = 0; i < count; i++) {
        dO[i] = O[i] - target[i]; /* d/dO of (O - target)²/2 */
        loss += dO[i] * dO[i];
    }
    return loss / 2.0;
}

FMA_INLINE void matmul_tn_acc(double *out, const double *a, const double *b, size_t n, size_t k,
                              size_t p)
{
    size_t i, r, j;

    /* i-r-j order: out row r gathers a[i][r] times b row i, i in order */
    for (i = 0; i < n; i++)
        for (r = 0; r < k; r++) {
            const double x = a[i * k + r];
            const double *brow = b + i * p;
            double *orow = out + r * p;
            for (j = 0; j < p; j++)
                orow[j] = fma(x, brow[j], orow[j]);
        }
}
FMA_BUILD(matmul_tn_acc,
          (double *out, const double *a, const double *b, size_t n, size_t k, size_t p),
          (out, a, b, n, k, p))

void as_matmul_tn_acc(double *out, const double *a, const double *b, size_t n, size_t k,
                      size_t p)
{
    FMA_RUN(matmul_tn_acc, (out, a, b, n, k, p));
}

void as_matmul_tn(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    size_t r;

    for (r = 0; r < k * p; r++)
        out[r] = 0.0; /* every sum starts at +0, as in as_matmul() */
    as_matmul_tn_acc(out, a, b, n, k, p);
}

void as_matmul_tn_fast(double *out, const double *a, const double *b, size_t n, size_t k,
                       size_t p)
{
    double *at = n * k > 0 ? malloc(n * k * sizeof *at) : NULL;

    if (at == NULL) {
        as_matmul_tn(out, a, b, n, k, p);
        return;
    }
    as_transpose(at, a, n, k); /* [k, n]: then out = at @ b, the same sums in the same order */
    as_matmul_fast(out, at, b, k, n, p);
    free(at);
}

FMA_INLINE void softmax_backward_rows(double *ds, double *rowdot, const double *da,
                                      const double *a, size_t n, size_t m)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        const double *ar = a + i * m, *dar = da + i * m;
        double *dsr = ds + i * m, dot = 0.0;
        /* 1. the shares' weighted sum of the row's gradient: Σ_j dA·A */
        for (j = 0; j < m; j++)
            dot = fma(dar[j], ar[j], dot);
        /* 2. each cell: its share times how far its gradient lies above that sum */
        for (j = 0; j < m; j++)
            dsr[j] = ar[j] == 0.0 ? 0.0 : ar[j] * (dar[j] - dot);
        if (rowdot != NULL)
            rowdot[i] = dot;
    }
}
FMA_BUILD(softmax_backward_rows,
          (double *ds, double *rowdot, const double *da, const double *a, size_t n, size_t m),
          (ds, rowdot, da, a, n, m))

void as_softmax_backward_rows(double *ds, double *rowdot, const double *da, const double *a,
                              size_t n, size_t m)
{
    FMA_RUN(softmax_backward_rows, (ds, rowdot, da, a, n, m));
}

void as_column_sums(double *out, const double *in, size_t n, size_t p)
{
    size_t i, j;

    for (j = 0; j < p; j++)
        out[j] = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < p; j++)
            out[j] += in[i * p + j];
}

void as_add_columns(double *out, const double *src, size_t n, size_t cols, size_t c0, size_t w)
{
    size_t i;

    for (i = 0; i < n; i++)
        as_accumulate(out + i * cols + c0, src + i * w, w);
}

void as_accumulate(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] += in[i];
}
