/* fused.c - one head of attention in one pass over blocks of score rows (fused.h says
 * why the result is the steps' bit for bit). For each block of AS_FUSED_ROWS rows:
 * the scores of the columns some row of the block may read (one product), then per
 * row scale, bias, mask and max in one sweep, exp and sum in a second, the division in
 * a third, all while the block is in the caches; then the block's shares times the
 * same rows of V (one product). The columns the mask forbids to every row of the block
 * (the future, under the causal mask) are neither scored nor mixed. The head's Keys
 * and Values are packed for the products once, and each block reads its slice. */
#include "attnstep/fused.h"

#include "attnstep/expvec.h"

#include <math.h>
#include <stdlib.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX512_ROWS 1
#else
#define HAVE_AVX512_ROWS 0
#endif

/* ------------------------------------------------------------------------------ */
/* What the mask lets each row read                                                  */
/* ------------------------------------------------------------------------------ */

/* Row i of a window mask of width w over m columns reads lo .. hi - 1. */
static void window_reach(size_t *lo, size_t *hi, size_t i, size_t m, size_t w)
{
    *lo = i + 1 > w ? i + 1 - w : 0;
    *hi = i + 1 < m ? i + 1 : m;
    if (*lo > *hi)
        *lo = *hi;
}

/* Row i of a mask table: the first and one past the last cell that is not -inf. */
static void table_reach(as_mask_reach *r, const double *row, size_t i, size_t m)
{
    size_t j;

    r->lo[i] = m;
    r->hi[i] = 0;
    for (j = 0; j < m; j++) {
        if (row[j] == -INFINITY)
            continue;
        if (r->lo[i] == m)
            r->lo[i] = j;
        r->hi[i] = j + 1;
        if (!(fabs(row[j]) <= r->largest)) /* NaN too: then nothing fits */
            r->largest = fabs(row[j]);
    }
    if (r->hi[i] == 0)
        r->lo[i] = 0;
}

int as_mask_reach_init(as_mask_reach *r, const as_fused_head *h)
{
    const size_t n = h->n, m = h->m;
    size_t i;

    r->lo = malloc((n ? n : 1) * sizeof *r->lo);
    r->hi = malloc((n ? n : 1) * sizeof *r->hi);
    r->largest = 0.0;
    r->every_row = 1;
    if (r->lo == NULL || r->hi == NULL) {
        as_mask_reach_free(r);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (h->mask != NULL)
            table_reach(r, h->mask + i * m, i, m);
        else if (h->window > 0)
            window_reach(&r->lo[i], &r->hi[i], i, m, h->window);
        else
            r->lo[i] = 0, r->hi[i] = m;
        if (r->lo[i] == r->hi[i])
            r->every_row = 0;
    }
    return 0;
}

void as_mask_reach_free(as_mask_reach *r)
{
    free(r->lo);
    free(r->hi);
    r->lo = r->hi = NULL;
}

/* The largest |x| of x[rows, cols] (row stride ld) (NaN when there is one). Without a
 * branch per cell: the running largest as a select (maxsd), NaNs noted apart. */
static double largest(const double *x, size_t rows, size_t cols, size_t ld)
{
    double big = 0.0;
    int nan = 0;
    size_t i, j;

    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            const double a = fabs(x[i * ld + j]);
            big = a > big ? a : big;
            nan |= a != a;
        }
    return nan ? NAN : big;
}

int as_fused_fits(const as_fused_head *h, const as_mask_reach *r)
{
    /* |q_i . k_j| <= d max|q| max|k|, and its partial sums too (up to rounding, which
     * the margin of 2^1000 against DBL_MAX ~ 2^1024 covers); then the scale, the bias
     * (at most |slope| max(n, m)) and the mask; and max - x stays finite as well */
    const double span = (double)(h->n > h->m ? h->n : h->m);
    double bound = (double)h->d * largest(h->q, h->n, h->d, h->ldq) *
                   largest(h->k, h->m, h->d, h->ldk);

    bound = bound * fabs(h->scale) + (h->alibi ? fabs(h->slope) * span : 0.0) + r->largest;
    return r->every_row && bound < 0x1p1000;
}

/* ------------------------------------------------------------------------------ */
/* One block of rows                                                                 */
/* ------------------------------------------------------------------------------ */

int as_fused_scratch_init(as_fused_scratch *s, size_t m, size_t d, size_t dv)
{
    *s = (as_fused_scratch){.s = malloc((m ? m : 1) * AS_FUSED_ROWS * sizeof *s->s)};
    if ((as_packed_b_init(&s->kt, d, m) | as_packed_b_init(&s->v, m, dv) |
         as_gemm_scratch_init(&s->g)) == 0 &&
        s->s != NULL)
        return 0;
    as_fused_scratch_free(s);
    return -1;
}

void as_fused_scratch_free(as_fused_scratch *s)
{
    as_packed_b_free(&s->kt);
    as_packed_b_free(&s->v);
    free(s->s);
    as_gemm_scratch_free(&s->g);
    s->s = NULL;
}

/* The mask's cell (i, c): from the table row (j: its index there), else the window's
 * cell as as_window_mask_row() makes it, else 0. */
static double mask_cell(const double *row, size_t j, size_t i, size_t c, size_t window)
{
    if (row != NULL)
        return row[j];
    if (window == 0)
        return 0.0;
    return c <= i && i - c < window ? 0.0 : -INFINITY;
}

/* Row i's scores of columns c0 .. c0 + w - 1 into its shares, in place: as_scale,
 * as_add_alibi, as_add_mask, then softmax_row() of steps.c, cell by cell the same
 * operations (the cells left of c0 and from c0 + w on are -inf: they add nothing). */
static void shares(double *s, size_t w, size_t i, size_t c0, const as_fused_head *h)
{
    const double *mask = h->mask != NULL ? h->mask + i * h->m + c0 : NULL;
    double max = -INFINITY, total = 0.0;
    size_t j;

    for (j = 0; j < w; j++) {
        double x = s[j] * h->scale;
        if (h->alibi)
            x += -h->slope * ((double)i - (double)(c0 + j));
        x += mask_cell(mask, j, i, c0 + j, h->window); /* + 0.0 too: -0.0 turns +0.0 */
        s[j] = x;
        if (x > max)
            max = x;
    }
    for (j = 0; j < w; j++)
        s[j] = s[j] == -INFINITY ? -INFINITY : s[j] - max;
    as_exp_many(s, s, w); /* exp(-inf) is exactly 0 */
    for (j = 0; j < w; j++)
        total += s[j];
    for (j = 0; j < w; j++)
        s[j] /= total;
}

/* The sweeps of shares_in_reach() over the row's readable cells s[0 .. w): each cell's
 * own operations (a product, a sum, a difference, a quotient: each rounded once, the
 * same bits eight at a time as one at a time) and the max, which is exact in any order.
 * Only the sum of the exps goes one cell after another, in order. wide: eight at a time
 * in AVX-512, where kernels.h found it. */

/* s = s * scale + 0 (the mask's 0: -0.0 turns +0.0); returns the max. */
static double scale_max(double *s, size_t w, double scale)
{
    double max = -INFINITY;
    size_t j;

    for (j = 0; j < w; j++) {
        double x = s[j] * scale;
        x += 0.0; /* apart from the product: never contracted to an fma */
        s[j] = x;
        if (x > max)
            max = x;
    }
    return max;
}

/* s -= by, or with divide s /= by. */
static void shift_or_divide(double *s, size_t w, double by, int divide)
{
    size_t j;

    for (j = 0; j < w; j++)
        s[j] = divide ? s[j] / by : s[j] - by;
}

#if HAVE_AVX512_ROWS
/* The cells are finite here (as_fused_fits bounds every score), so the vector max
 * never meets a NaN. */
__attribute__((target("avx512f"))) static double scale_max_avx512(double *s, size_t w,
                                                                  double scale)
{
    const __m512d k = _mm512_set1_pd(scale), zero = _mm512_setzero_pd();
    __m512d top = _mm512_set1_pd(-INFINITY);
    size_t j;

    for (j = 0; j + 8 <= w; j += 8) {
        const __m512d x = _mm512_add_pd(_mm512_mul_pd(_mm512_loadu_pd(s + j), k), zero);
        _mm512_storeu_pd(s + j, x);
        top = _mm512_max_pd(top, x);
    }
    return fmax(_mm512_reduce_max_pd(top), scale_max(s + j, w - j, scale));
}

__attribute__((target("avx512f"))) static void shift_or_divide_avx512(double *s, size_t w,
                                                                     double by, int divide)
{
    const __m512d b = _mm512_set1_pd(by);
    size_t j;

    for (j = 0; j + 8 <= w; j += 8) {
        const __m512d x = _mm512_loadu_pd(s + j);
        _mm512_storeu_pd(s + j, divide ? _mm512_div_pd(x, b) : _mm512_sub_pd(x, b));
    }
    shift_or_divide(s + j, w - j, by, divide);
}
#endif

static double sweep_scale_max(double *s, size_t w, double scale, int wide)
{
#if HAVE_AVX512_ROWS
    if (wide)
        return scale_max_avx512(s, w, scale);
#endif
    (void)wide;
    return scale_max(s, w, scale);
}

static void sweep_shift_or_divide(double *s, size_t w, double by, int divide, int wide)
{
#if HAVE_AVX512_ROWS
    if (wide) {
        shift_or_divide_avx512(s, w, by, divide);
        return;
    }
#endif
    (void)wide;
    shift_or_divide(s, w, by, divide);
}

/* Row i's shares as shares() makes them, for a mask made of 0 and -inf only that lets
 * the row read columns lo .. hi - 1 (a window mask, or none): the cells outside are
 * -inf, whose share is 0 and whose +0 added to the sum of exps changes nothing, so
 * only the cells inside are worked on, and the tests of shares() are left out. */
static void shares_in_reach(double *s, size_t w, size_t i, size_t c0, size_t lo, size_t hi,
                            const as_fused_head *h, int wide)
{
    const size_t a = lo > c0 ? lo - c0 : 0, b = hi - c0 < w ? hi - c0 : w;
    double max = -INFINITY, total = 0.0;
    size_t j;

    for (j = 0; j < a; j++)
        s[j] = 0.0;
    for (j = b; j < w; j++)
        s[j] = 0.0;
    if (h->alibi) {
        for (j = a; j < b; j++) {
            double x = s[j] * h->scale;
            x += -h->slope * ((double)i - (double)(c0 + j));
            x += 0.0; /* the mask's 0: -0.0 turns +0.0 */
            s[j] = x;
            if (x > max)
                max = x;
        }
    } else
        max = sweep_scale_max(s + a, b - a, h->scale, wide);
    sweep_shift_or_divide(s + a, b - a, max, 0, wide);
    as_exp_many(s + a, s + a, b - a);
    for (j = a; j < b; j++)
        total += s[j];
    sweep_shift_or_divide(s + a, b - a, total, 1, wide);
}

/* Rows i0 .. i0 + rows - 1 of out. */
static void run_block(double *out, size_t i0, size_t rows, const as_fused_head *h,
                      const as_mask_reach *r, as_fused_scratch *s)
{
    const int wide = as_kernels_simd(-1) >= 2;
    size_t c0 = h->m, c1 = 0, i, w, a, ld;

    for (i = i0; i < i0 + rows; i++) {
        c0 = r->lo[i] < c0 ? r->lo[i] : c0;
        c1 = r->hi[i] > c1 ? r->hi[i] : c1;
    }
    w = c1 - c0;
    a = c0 / AS_GEMM_NR * AS_GEMM_NR; /* the packed Keys are read from a panel's start */
    ld = c1 - a;
    /* step 1: the block's raw scores, columns a .. c1 - 1 of q kᵀ (those left of c0,
     * which no row of the block reads, are made and passed over) */
    as_gemm_packed_1(s->s, ld, h->q + i0 * h->ldq, h->ldq, &s->kt, 0, a, rows, h->d, ld, &s->g);
    /* steps 2 and 3, row by row */
    for (i = 0; i < rows; i++)
        if (h->mask != NULL)
            shares(s->s + i * ld + (c0 - a), w, i0 + i, c0, h);
        else
            shares_in_reach(s->s + i * ld + (c0 - a), w, i0 + i, c0, r->lo[i0 + i],
                            r->hi[i0 + i], h, wide);
    /* step 4: the shares times the same rows of V */
    as_gemm_packed_1(out + i0 * h->dv, h->dv, s->s + (c0 - a), ld, &s->v, c0, 0, rows, w, h->dv,
                     &s->g);
}

void as_fused_run(double *out, const as_fused_head *h, const as_mask_reach *r,
                  as_fused_scratch *s)
{
    size_t i0;

    as_pack_b(&s->kt, h->k, h->ldk, h->d, h->m, 1);
    as_pack_b(&s->v, h->v, h->ldv, h->m, h->dv, 0);
    for (i0 = 0; i0 < h->n; i0 += AS_FUSED_ROWS)
        run_block(out, i0, h->n - i0 < AS_FUSED_ROWS ? h->n - i0 : AS_FUSED_ROWS, h, r, s);
}
