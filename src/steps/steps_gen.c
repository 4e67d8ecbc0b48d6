/* steps_gen.c - the steps a generating decoder adds: the sliding-window mask and the
 * online softmax update (SPEC §11). Each is pure; attention.c, tiles.c and decode.c
 * use them. */
#include "attnstep/steps_gen.h"
#include "attnstep/expvec.h"
#include "attnstep/kernels.h"
#include "fma_clones.h"

#include <math.h>

void as_window_mask(double *out, size_t n, size_t w)
{
    size_t i;

    for (i = 0; i < n; i++)
        as_window_mask_row(out + i * n, i, n, w);
}

void as_window_mask_row(double *out, size_t i, size_t m, size_t w)
{
    size_t j;

    for (j = 0; j < m; j++)
        out[j] = j <= i && i - j < w ? 0.0 : -INFINITY;
}

/* ---- the online softmax, its sums carried in two doubles ---- */

/* *hi + *lo += x + xe, renormalised so that *hi is the sum rounded (Knuth's two-sum:
 * s + e is exactly *hi + x). A sum that left the double range keeps no error term. */
static void dd_add(double *hi, double *lo, double x, double xe)
{
    const double s = *hi + x, bb = s - *hi;
    double e = (*hi - (s - bb)) + (x - bb);

    if (!isfinite(s)) {
        *hi = s, *lo = 0.0;
        return;
    }
    e += *lo + xe;
    *hi = s + e;
    *lo = e - (*hi - s);
}

/* *hi + *lo *= f: the product of hi exact (fma gives its rounding error). */
static void dd_scale(double *hi, double *lo, double f)
{
    const double p = *hi * f;
    double e;

    if (!isfinite(p)) {
        *hi = p, *lo = 0.0;
        return;
    }
    e = fma(*hi, f, -p) + *lo * f;
    *hi = p + e;
    *lo = e - (*hi - p);
}

void as_online_start(as_online *o, double *acc, double *acc_lo, size_t dv)
{
    size_t c;

    o->m = -INFINITY;
    o->l = o->l_lo = 0.0;
    o->acc = acc, o->acc_lo = acc_lo, o->dv = dv;
    for (c = 0; c < dv; c++)
        acc[c] = acc_lo[c] = 0.0;
}

void as_online_update(as_online *o, double *factor, double *exps, const double *s,
                      const double *v, size_t b)
{
    const size_t dv = o->dv;
    double m_new = o->m, f, e;
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
    f = o->m == -INFINITY ? 0.0 : exp(o->m - m_new);
    dd_scale(&o->l, &o->l_lo, f);
    for (c = 0; c < dv; c++)
        dd_scale(&o->acc[c], &o->acc_lo[c], f);
    /* 3. add this block's exps and their weighted Values, each product exactly */
    for (j = 0; j < b; j++) {
        e = s[j] == -INFINITY ? 0.0 : exp(s[j] - m_new);
        if (exps != NULL)
            exps[j] = e;
        dd_add(&o->l, &o->l_lo, e, 0.0);
        for (c = 0; c < dv; c++) {
            const double x = e * v[j * dv + c];
            dd_add(&o->acc[c], &o->acc_lo[c], x, isfinite(x) ? fma(e, v[j * dv + c], -x) : 0.0);
        }
    }
    o->m = m_new;
    *factor = f;
}

/* (ah + al) / (lh + ll), rounded once: the quotient of the high parts, corrected by
 * the exact remainder (fma) and the low parts. */
static double dd_div(double ah, double al, double lh, double ll)
{
    const double q = ah / lh;

    if (!isfinite(q))
        return q;
    return q + (fma(-q, lh, ah) + al - q * ll) / lh;
}

void as_online_output(double *out, const as_online *o)
{
    size_t c;

    for (c = 0; c < o->dv; c++)
        out[c] = dd_div(o->acc[c], o->acc_lo[c], o->l, o->l_lo);
}

void as_online_shares(double *a, const double *s, double m, double l, size_t count)
{
    size_t j;

    for (j = 0; j < count; j++)
        a[j] = s[j] - m;
    as_exp_many(a, a, count);
    for (j = 0; j < count; j++)
        a[j] = s[j] == -INFINITY ? 0.0 : a[j] / l;
}

/* ---- one row of attention over a cache ---- */

/* Eight running sums at a time, kept in registers: out[0..8) += x * row[0..8) for each
 * (x, row) pair -- the shape the compiler turns into vector loads and broadcasts (as
 * kernels.c's tiles). Every sum still takes its terms one at a time, in order, each by
 * one fused multiply-add as in as_matmul(). */
#define EIGHT_BODY(OUT, COUNT, X, ROW)                                                      \
    double u0 = 0, u1 = 0, u2 = 0, u3 = 0, u4 = 0, u5 = 0, u6 = 0, u7 = 0;                  \
    size_t r;                                                                               \
    for (r = 0; r < (COUNT); r++) {                                                         \
        const double x = (X);                                                               \
        const double *restrict w = (ROW);                                                   \
        u0 = fma(x, w[0], u0), u1 = fma(x, w[1], u1), u2 = fma(x, w[2], u2);                \
        u3 = fma(x, w[3], u3), u4 = fma(x, w[4], u4), u5 = fma(x, w[5], u5);                \
        u6 = fma(x, w[6], u6), u7 = fma(x, w[7], u7);                                       \
    }                                                                                       \
    (OUT)[0] = u0, (OUT)[1] = u1, (OUT)[2] = u2, (OUT)[3] = u3;                             \
    (OUT)[4] = u4, (OUT)[5] = u5, (OUT)[6] = u6, (OUT)[7] = u7

/* out[0..8) = sum over i < d of q[i] kt[i*ld + 0..8) (ld 8: one panel) */
static void scores8(double *restrict out, const double *restrict q, const double *restrict kt,
                    size_t ld, size_t d)
{
    EIGHT_BODY(out, d, q[r], kt + r * ld);
}

/* out[0..8) = sum over j < count of a[j] v[j*dv + 0..8) */
static void mix8(double *restrict out, const double *restrict a, const double *restrict v,
                 size_t dv, size_t count)
{
    EIGHT_BODY(out, count, a[r], v + r * dv);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_SIMD_ROWS 1
#include <immintrin.h>
__attribute__((target("avx2,fma"))) static void scores8_avx2(double *restrict out,
                                                         const double *restrict q,
                                                         const double *restrict kt,
                                                         size_t ld, size_t d)
{
    EIGHT_BODY(out, d, q[r], kt + r * ld);
}

__attribute__((target("avx2,fma"))) static void mix8_avx2(double *restrict out,
                                                      const double *restrict a,
                                                      const double *restrict v, size_t dv,
                                                      size_t count)
{
    EIGHT_BODY(out, count, a[r], v + r * dv);
}

/* AVX-512: 32 Keys (four panels) at once, four independent sums of eight, so that the
 * multiply-adds do not wait on each other's latency as one chain of eight would. */
__attribute__((target("avx512f"))) static void scores32_avx512(double *restrict out,
                                                              const double *restrict q,
                                                              const double *restrict kt,
                                                              size_t d)
{
    const double *k1 = kt + 8 * d, *k2 = kt + 16 * d, *k3 = kt + 24 * d;
    __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    size_t i;

    for (i = 0; i < d; i++) {
        const __m512d x = _mm512_set1_pd(q[i]);
        s0 = _mm512_fmadd_pd(x, _mm512_loadu_pd(kt + i * 8), s0);
        s1 = _mm512_fmadd_pd(x, _mm512_loadu_pd(k1 + i * 8), s1);
        s2 = _mm512_fmadd_pd(x, _mm512_loadu_pd(k2 + i * 8), s2);
        s3 = _mm512_fmadd_pd(x, _mm512_loadu_pd(k3 + i * 8), s3);
    }
    _mm512_storeu_pd(out, s0);
    _mm512_storeu_pd(out + 8, s1);
    _mm512_storeu_pd(out + 16, s2);
    _mm512_storeu_pd(out + 24, s3);
}

/* out[0..64) = sum over j < count of a[j] v[j*dv + 0..64): eight sums of eight */
__attribute__((target("avx512f"))) static void mix64_avx512(double *restrict out,
                                                           const double *restrict a,
                                                           const double *restrict v,
                                                           size_t dv, size_t count)
{
    __m512d u[8];
    size_t j, c;

    for (c = 0; c < 8; c++)
        u[c] = _mm512_setzero_pd();
    for (j = 0; j < count; j++) {
        const __m512d x = _mm512_set1_pd(a[j]);
        for (c = 0; c < 8; c++)
            u[c] = _mm512_fmadd_pd(x, _mm512_loadu_pd(v + j * dv + c * 8), u[c]);
    }
    for (c = 0; c < 8; c++)
        _mm512_storeu_pd(out + c * 8, u[c]);
}
#else
#define HAVE_SIMD_ROWS 0
#endif

typedef void eight_fn(double *, const double *, const double *, size_t, size_t);

static eight_fn *pick(eight_fn *plain, eight_fn *avx2)
{
    (void)avx2;
#if HAVE_SIMD_ROWS
    if (as_kernels_simd(-1))
        return avx2;
#endif
    return plain;
}

void as_scores_cached(double *s, const double *q, const double *kt, size_t d, size_t first,
                      size_t last)
{
    eight_fn *f = pick(scores8, HAVE_SIMD_ROWS ? scores8_avx2 : scores8);
    size_t i, j;
    double part[8];
#if HAVE_SIMD_ROWS
    const int wide = as_kernels_simd(-1) >= 2;
#endif
    /* a whole panel of 8 Keys at a time (4 with AVX-512), from the one that holds
     * first; the sums of a panel's Keys outside first .. last are made and dropped */
    for (j = first / 8 * 8; j <= last; j += 8) {
#if HAVE_SIMD_ROWS
        if (wide && j >= first && j + 32 <= last + 1) {
            scores32_avx512(s + j, q, kt + AS_PANEL_AT(j, 0, d), d);
            j += 24;
            continue;
        }
#endif
        if (j >= first && j + 8 <= last + 1) {
            f(s + j, q, kt + AS_PANEL_AT(j, 0, d), 8, d);
            continue;
        }
        f(part, q, kt + AS_PANEL_AT(j, 0, d), 8, d);
        for (i = 0; i < 8; i++)
            if (j + i >= first && j + i <= last)
                s[j + i] = part[i];
    }
}

/* out = sum over j < count of a[j] v[j*dv], one column of the Values */
FMA_INLINE double column_mix(const double *a, const double *v, size_t dv, size_t count)
{
    double sum = 0.0;
    size_t j;

    for (j = 0; j < count; j++)
        sum = fma(a[j], v[j * dv], sum);
    return sum;
}

FMA_INLINE void columns_mix(double *o, const double *a, const double *v, size_t dv, size_t c,
                            size_t count)
{
    for (; c < dv; c++)
        o[c] = column_mix(a, v + c, dv, count);
}
FMA_BUILD(columns_mix, (double *o, const double *a, const double *v, size_t dv, size_t c,
                        size_t count), (o, a, v, dv, c, count))

void as_mix_cached(double *o, const double *a, const double *v, size_t dv, size_t first,
                   size_t last)
{
    eight_fn *f = pick(mix8, HAVE_SIMD_ROWS ? mix8_avx2 : mix8);
    size_t c;

    c = 0;
#if HAVE_SIMD_ROWS
    if (as_kernels_simd(-1) >= 2)
        for (; c + 64 <= dv; c += 64)
            mix64_avx512(o + c, a + first, v + first * dv + c, dv, last + 1 - first);
#endif
    for (; c + 8 <= dv; c += 8)
        f(o + c, a + first, v + first * dv + c, dv, last + 1 - first);
    if (c < dv) /* the columns past the last 8, one at a time */
        FMA_RUN(columns_mix, (o, a + first, v + first * dv, dv, c, last + 1 - first));
}
