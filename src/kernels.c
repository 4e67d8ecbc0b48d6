/* kernels.c - the matrix products of attention.c, fast: the GotoBLAS blocking (panels
 * of a and b packed so that a small tile of the output stays in registers while the
 * panels stream from the caches), plain C loops of fixed length that gcc -O2
 * vectorises, and two POSIX threads for large products.
 *
 * Every output cell is a single running sum over t = 0, 1, ..., k-1 in that order,
 * starting from 0, exactly as as_matmul() computes it: the blocking changes which
 * cells are worked on when, never the order of one cell's additions, so the results
 * are the reference's bit for bit. */
#include "attnstep/kernels.h"
#include "attnstep/attention.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MR 4    /* rows of the register tile */
#define NR 4    /* columns of the register tile (tile() is written out for 4 x 4) */
#define KC 256  /* depth of a packed panel: a KC x NR panel of b stays in L1 */
#define MC 64   /* rows of a per packed block: MC x KC of a stays in L2 */
#define NC 512  /* columns of b per packed block: KC x NC of b stays in L2/L3 */

#define SMALL_WORK 4096.0 /* below this many multiply-adds the plain loop is faster */

/* ------------------------------------------------------------------------------ */
/* The register tile                                                                 */
/* ------------------------------------------------------------------------------ */

/* c[MR,NR] (row stride ldc) += ap[kc][MR] (a column of a per step) times bp[kc][NR]
 * (a row of b per step). Sixteen named accumulators rather than an array: gcc -O2
 * unrolls no loops, but it keeps named scalars in registers and pairs them into
 * vector multiplies and adds (SLP vectorisation). */
static void tile(double *restrict c, size_t ldc, const double *restrict ap,
                 const double *restrict bp, size_t kc)
{
    double *c0 = c, *c1 = c + ldc, *c2 = c + 2 * ldc, *c3 = c + 3 * ldc;
    double s00 = c0[0], s01 = c0[1], s02 = c0[2], s03 = c0[3];
    double s10 = c1[0], s11 = c1[1], s12 = c1[2], s13 = c1[3];
    double s20 = c2[0], s21 = c2[1], s22 = c2[2], s23 = c2[3];
    double s30 = c3[0], s31 = c3[1], s32 = c3[2], s33 = c3[3];
    size_t t;

    for (t = 0; t < kc; t++, ap += MR, bp += NR) {
        const double b0 = bp[0], b1 = bp[1], b2 = bp[2], b3 = bp[3];
        double x = ap[0];
        s00 += x * b0, s01 += x * b1, s02 += x * b2, s03 += x * b3;
        x = ap[1];
        s10 += x * b0, s11 += x * b1, s12 += x * b2, s13 += x * b3;
        x = ap[2];
        s20 += x * b0, s21 += x * b1, s22 += x * b2, s23 += x * b3;
        x = ap[3];
        s30 += x * b0, s31 += x * b1, s32 += x * b2, s33 += x * b3;
    }
    c0[0] = s00, c0[1] = s01, c0[2] = s02, c0[3] = s03;
    c1[0] = s10, c1[1] = s11, c1[2] = s12, c1[3] = s13;
    c2[0] = s20, c2[1] = s21, c2[2] = s22, c2[3] = s23;
    c3[0] = s30, c3[1] = s31, c3[2] = s32, c3[3] = s33;
}

/* A tile cut by the edge of the output: worked on in a full-size copy. */
static void edge_tile(double *c, size_t ldc, const double *ap, const double *bp, size_t kc,
                      size_t rows, size_t cols)
{
    double tmp[MR * NR] = {0};
    size_t r;

    for (r = 0; r < rows; r++)
        memcpy(tmp + r * NR, c + r * ldc, cols * sizeof *c);
    tile(tmp, NR, ap, bp, kc);
    for (r = 0; r < rows; r++)
        memcpy(c + r * ldc, tmp + r * NR, cols * sizeof *c);
}

/* ------------------------------------------------------------------------------ */
/* Packing                                                                           */
/* ------------------------------------------------------------------------------ */

/* a[rows, kc] (row stride lda) into panels of MR rows, column by column: ap[panel][t][r].
 * Rows past the end are zeros (their results are never stored). */
static void pack_a(double *ap, const double *a, size_t lda, size_t rows, size_t kc)
{
    size_t i0, r, t;

    for (i0 = 0; i0 < rows; i0 += MR, ap += MR * kc)
        for (r = 0; r < MR; r++) {
            const double *row = a + (i0 + r) * lda;
            for (t = 0; t < kc; t++)
                ap[t * MR + r] = i0 + r < rows ? row[t] : 0.0;
        }
}

/* b[kc, cols] (row stride ldb) into panels of NR columns, row by row: bp[panel][t][j]. */
static void pack_b(double *bp, const double *b, size_t ldb, size_t kc, size_t cols)
{
    size_t j0, t, j;

    for (j0 = 0; j0 < cols; j0 += NR, bp += NR * kc)
        for (t = 0; t < kc; t++) {
            const double *row = b + t * ldb + j0;
            const size_t w = cols - j0 < NR ? cols - j0 : NR;
            for (j = 0; j < w; j++)
                bp[t * NR + j] = row[j];
            for (; j < NR; j++)
                bp[t * NR + j] = 0.0;
        }
}

/* ------------------------------------------------------------------------------ */
/* The blocked product on one thread                                                 */
/* ------------------------------------------------------------------------------ */

static size_t min_size(size_t x, size_t y)
{
    return x < y ? x : y;
}

static size_t round_up(size_t x, size_t unit)
{
    return (x + unit - 1) / unit * unit;
}

/* out[mc, nc] (stride ldc) += the packed blocks: every tile of the block. */
static void block(double *out, size_t ldc, const double *ap, const double *bp, size_t mc,
                  size_t nc, size_t kc)
{
    size_t i0, j0;

    for (j0 = 0; j0 < nc; j0 += NR)
        for (i0 = 0; i0 < mc; i0 += MR) {
            double *c = out + i0 * ldc + j0;
            const double *a_panel = ap + i0 * kc, *b_panel = bp + j0 * kc;
            if (mc - i0 >= MR && nc - j0 >= NR)
                tile(c, ldc, a_panel, b_panel, kc);
            else
                edge_tile(c, ldc, a_panel, b_panel, kc, min_size(MR, mc - i0),
                          min_size(NR, nc - j0));
        }
}

/* out[n,p] = a[n,k] @ b[k,p] with scratch ap (MC x KC) and bp (KC x NC, rounded). */
static void blocked(double *out, const double *a, const double *b, size_t n, size_t k, size_t p,
                    double *ap, double *bp)
{
    size_t jc, pc, ic;

    for (ic = 0; ic < n; ic++)
        memset(out + ic * p, 0, p * sizeof *out);
    for (jc = 0; jc < p; jc += NC) {
        const size_t nc = min_size(NC, p - jc);
        /* pass 1..: one depth slice at a time, each cell's sum carried on in out */
        for (pc = 0; pc < k; pc += KC) {
            const size_t kc = min_size(KC, k - pc);
            pack_b(bp, b + pc * p + jc, p, kc, nc);
            for (ic = 0; ic < n; ic += MC) {
                const size_t mc = min_size(MC, n - ic);
                pack_a(ap, a + ic * k + pc, k, mc, kc);
                block(out + ic * p + jc, p, ap, bp, mc, nc, kc);
            }
        }
    }
}

void as_matmul_fast_1(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    const size_t kc = min_size(KC, k);
    double *ap, *bp;

    if ((double)n * (double)k * (double)p < SMALL_WORK) {
        as_matmul(out, a, b, n, k, p);
        return;
    }
    ap = malloc(round_up(min_size(MC, n), MR) * kc * sizeof *ap);
    bp = malloc(round_up(min_size(NC, p), NR) * kc * sizeof *bp);
    if (ap == NULL || bp == NULL)
        as_matmul(out, a, b, n, k, p); /* same result, no scratch needed */
    else
        blocked(out, a, b, n, k, p, ap, bp);
    free(ap);
    free(bp);
}

/* ------------------------------------------------------------------------------ */
/* Two threads: each takes a band of rows                                            */
/* ------------------------------------------------------------------------------ */

typedef struct band {
    double *out;
    const double *a, *b;
    size_t n, k, p;
} band;

static void *run_band(void *arg)
{
    const band *w = arg;

    as_matmul_fast_1(w->out, w->a, w->b, w->n, w->k, w->p);
    return NULL;
}

void as_matmul_fast(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    band top, bottom;
    pthread_t helper;
    size_t half;

    if ((double)n * (double)k * (double)p < AS_THREAD_MIN_WORK || n < 2 * MR) {
        as_matmul_fast_1(out, a, b, n, k, p);
        return;
    }
    half = round_up(n / 2, MR);
    top = (band){out, a, b, half, k, p};
    bottom = (band){out + half * p, a + half * k, b, n - half, k, p};
    if (pthread_create(&helper, NULL, run_band, &bottom) != 0) {
        as_matmul_fast_1(out, a, b, n, k, p); /* no thread to be had: all on this one */
        return;
    }
    run_band(&top);
    pthread_join(helper, NULL);
}

/* ------------------------------------------------------------------------------ */
/* Scores                                                                            */
/* ------------------------------------------------------------------------------ */

/* kt[d,m] = k[m,d]ᵀ, in square blocks so both sides stay in cache. */
static void transpose(double *kt, const double *k, size_t m, size_t d)
{
    size_t i0, j0, i, j;

    for (i0 = 0; i0 < m; i0 += 32)
        for (j0 = 0; j0 < d; j0 += 32)
            for (i = i0; i < min_size(i0 + 32, m); i++)
                for (j = j0; j < min_size(j0 + 32, d); j++)
                    kt[j * m + i] = k[i * d + j];
}

/* q @ kᵀ as q @ (kᵀ stored): each cell is the same sum over t in the same order as
 * as_scores() makes it. */
static void scores_with(void (*product)(double *, const double *, const double *, size_t,
                                        size_t, size_t),
                        double *out, const double *q, const double *k, size_t n, size_t m,
                        size_t d)
{
    double *kt;

    if ((double)n * (double)m * (double)d < SMALL_WORK ||
        (kt = malloc(m * d * sizeof *kt)) == NULL) {
        as_scores(out, q, k, n, m, d);
        return;
    }
    transpose(kt, k, m, d);
    product(out, q, kt, n, d, m);
    free(kt);
}

void as_scores_fast(double *out, const double *q, const double *k, size_t n, size_t m, size_t d)
{
    scores_with(as_matmul_fast, out, q, k, n, m, d);
}

void as_scores_fast_1(double *out, const double *q, const double *k, size_t n, size_t m,
                      size_t d)
{
    scores_with(as_matmul_fast_1, out, q, k, n, m, d);
}
