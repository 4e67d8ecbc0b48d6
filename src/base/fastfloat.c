/* fastfloat.c - decimal text to the nearest double (see fastfloat.h).
 *
 * 0. the straight path: the common shape ("-1.234567890123456789e-02", at most 19
 *    digits, with text after it) read block by block into w and q, then 2 and 3 below;
 *    anything else, or anything 3 leaves undecided, goes through 1 to 4;
 * 1. scan: the sign, the first 19 significant digits as an integer w, the decimal
 *    exponent q (value = w * 10^q when nothing was cut off), and where the digits are;
 * 2. Clinger's fast path: w and 10^|q| both exact doubles, one correctly rounded
 *    multiplication or division;
 * 3. Eisel-Lemire: w times a 128-bit power of five, from which the 53 bits of the
 *    answer and its rounding can be read unless the product is too close to a tie;
 *    with more than 19 digits, the answer is the same for w and w + 1, or undecided;
 * 4. strtod, on a bounded copy of the digits, for whatever 2 and 3 leave undecided. */
#include "attnstep/fastfloat.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastfloat_pow5.h"
#include "mul128.h"

#define MAX_W_DIGITS 19          /* 10^19 - 1 < 2^64 */
#define EXP_CAP 1000000000000000 /* exponent digits past this only move it further out */
#define INF_BITS ((uint64_t)0x7FF << 52)
#define MANTISSA_MASK (((uint64_t)1 << 52) - 1)

/* A halfway point between two doubles needs at most 769 significant digits, so the
 * first KEEP_DIGITS digits plus one nonzero "sticky" digit standing for the rest round
 * exactly as the whole number does. */
#define KEEP_DIGITS 800

/* ------------------------------------------------------------------------------ */
/* Machine helpers: a 64x64 -> 128-bit product (mul128.h) and leading zeros          */
/* ------------------------------------------------------------------------------ */

static int leading_zeros(uint64_t w) /* w != 0 */
{
#if defined(__GNUC__)
    return __builtin_clzll(w);
#else
    int n = 0;

    while (!(w >> 63)) {
        w <<= 1;
        n++;
    }
    return n;
#endif
}

/* ------------------------------------------------------------------------------ */
/* 1. Scanning                                                                       */
/* ------------------------------------------------------------------------------ */

typedef struct decimal {
    uint64_t w;            /* the first (up to) 19 significant digits */
    int64_t q;             /* value = w * 10^q, exactly unless truncated */
    int negative;
    int truncated;         /* a nonzero digit was cut off after the 19th */
    const char *mant;      /* the digits and the point, for the strtod fallback */
    const char *mant_end;
    int64_t exp10;         /* the written exponent (capped) */
    int64_t nfrac;         /* digits after the point */
} decimal;

static int is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define SWAR_DIGITS 1
/* The value of 8 ASCII digits loaded little-endian, in three multiplications
 * (pairs, then quads, then all eight) instead of eight dependent ones. */
static uint64_t eight_digit_value(uint64_t v)
{
    const uint64_t mask = 0x000000FF000000FFu;
    const uint64_t mul1 = 100 + ((uint64_t)1000000 << 32), mul2 = 1 + ((uint64_t)10000 << 32);

    v -= 0x3030303030303030u;
    v = v * 10 + (v >> 8);
    return (((v & mask) * mul1) + (((v >> 16) & mask) * mul2)) >> 32;
}

/* The bytes of chunk (8 bytes of text, loaded little-endian) that are not ASCII digits,
 * flagged by their top bit. Only the lowest flag is sure (a byte below '0' borrows from
 * the byte above it), and only the lowest is used. */
static inline uint64_t non_digits(uint64_t chunk)
{
    return ((chunk + 0x4646464646464646u) | (chunk - 0x3030303030303030u)) & 0x8080808080808080u;
}

/* How many of the 8 bytes of chunk, from the first, are digits (0..8). */
static inline int digit_run(uint64_t chunk)
{
    const uint64_t other = non_digits(chunk);

    return other == 0 ? 8 : __builtin_ctzll(other) >> 3;
}

/* The value of the first n (0..8) bytes of chunk, all digits: they are moved to the top
 * of the block below 8 - n zeros, and the block read at once (each shift is done in two
 * halves, as a shift by 64 would be undefined). */
static inline uint64_t lead_value(uint64_t chunk, int n)
{
    const int up = 4 * (8 - n), down = 4 * n;

    chunk = (chunk << up) << up;
    return eight_digit_value(chunk | ((0x3030303030303030u >> down) >> down));
}

static uint64_t load8(const char *p)
{
    uint64_t chunk;

    memcpy(&chunk, p, 8);
    return chunk;
}

static const uint64_t pow10_u64[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};
#else
#define SWAR_DIGITS 0
#endif

/* Adds the digits at p to *w (wrapping past 19 of them); returns where they stop.
 * Inline: it runs for the integer and the fraction digits of every number. Eight bytes
 * at a time: a block of eight digits at once, and in the block where the digits stop,
 * the n before the first other byte at once too: no loop digit by digit but in the
 * last 7 bytes of text. */
static inline const char *scan_digits(const char *p, const char *end, uint64_t *w)
{
    uint64_t v = *w;
#if SWAR_DIGITS
    int n;

    while (end - p >= 8) {
        const uint64_t chunk = load8(p);
        n = digit_run(chunk);
        v = v * pow10_u64[n] + lead_value(chunk, n);
        p += n;
        if (n < 8) {
            *w = v;
            return p;
        }
    }
#endif
    for (; p < end && is_digit(*p); p++)
        v = v * 10 + (uint64_t)(*p - '0');
    *w = v;
    return p;
}

/* More than 19 digits: w from the first 19 significant ones, q adjusted, and whether
 * a nonzero one was cut. */
static void rescan_long(decimal *d)
{
    const char *p = d->mant;
    int64_t nsig = 0;

    d->w = 0;
    d->truncated = 0;
    for (; p < d->mant_end; p++) {
        if (*p == '.' || (nsig == 0 && *p == '0'))
            continue;
        if (nsig < MAX_W_DIGITS)
            d->w = d->w * 10 + (uint64_t)(*p - '0');
        else if (*p != '0')
            d->truncated = 1;
        nsig++;
    }
    d->q = d->exp10 - d->nfrac + (nsig > MAX_W_DIGITS ? nsig - MAX_W_DIGITS : 0);
}

/* [eE][+-]?digits at p, if there; returns where the number ends. */
static const char *scan_exponent(decimal *d, const char *p, const char *end)
{
    const char *e = p + 1;
    int neg = 0;
    int64_t v = 0;

    if (p >= end || (*p | 0x20) != 'e')
        return p;
    if (e < end && (*e == '+' || *e == '-'))
        neg = *e++ == '-';
    if (e >= end || !is_digit(*e))
        return p; /* "1e" or "1e+": the number is "1" */
    for (; e < end && is_digit(*e); e++)
        if (v < EXP_CAP)
            v = v * 10 + (*e - '0');
    d->exp10 = neg ? -v : v;
    return e;
}

/* Reads the number at s into d; returns its end, or NULL when there is none. */
static const char *scan(decimal *d, const char *s, const char *end)
{
    const char *p = s, *digits;
    uint64_t w = 0;
    int64_t ndigits;

    d->negative = 0;
    if (p < end && (*p == '+' || *p == '-'))
        d->negative = *p++ == '-';
    d->mant = digits = p;
    /* every digit goes into w; more than 19 wrap around and are read again below */
    p = scan_digits(p, end, &w);
    ndigits = p - digits;
    d->nfrac = 0;
    if (p < end && *p == '.') {
        const char *frac = ++p;
        p = scan_digits(p, end, &w);
        d->nfrac = p - frac;
        ndigits += d->nfrac;
    }
    if (ndigits == 0)
        return NULL;
    d->mant_end = p;
    d->exp10 = 0;
    p = scan_exponent(d, p, end);
    d->w = w;
    d->truncated = 0;
    d->q = d->exp10 - d->nfrac;
    if (ndigits > MAX_W_DIGITS)
        rescan_long(d);
    return p;
}

/* ------------------------------------------------------------------------------ */
/* 2. Clinger's fast path                                                            */
/* ------------------------------------------------------------------------------ */

/* w * 10^q when w <= 2^53 and |q| <= 22: both operands are exact doubles, so the one
 * IEEE operation rounds correctly. Needs arithmetic in double precision itself. */
static int clinger(uint64_t w, int64_t q, double *x)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    if (w <= (uint64_t)1 << 53 && q >= -22 && q <= 22) {
        *x = q < 0 ? (double)w / p10[-q] : (double)w * p10[q];
        return 1;
    }
#else
    (void)w, (void)q, (void)x;
#endif
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* 3. Eisel-Lemire                                                                   */
/* ------------------------------------------------------------------------------ */

/* floor(log2(10^q)) + 63, by the fixed-point log2(10) ~ 217706 / 2^16 (exact for
 * |q| < 1700). The bias 32768 keeps the shifted value non-negative and is a multiple
 * that divides out exactly (217706 * 32768 / 65536 = 108853). */
static int64_t binary_exponent(int64_t q)
{
    return ((217706 * (q + 32768)) >> 16) - 108853 + 63;
}

/* The top bits of w * 5^q, with w shifted so its top bit is set (Lemire, section 5). */
static void product_5q(uint64_t w, int64_t q, uint64_t *hi, uint64_t *lo)
{
    const uint64_t *p5 = pow5_128[q - POW5_MIN_Q];

    uint64_t hi2, lo2;

    mul_64x64(w, p5[0], hi, lo);
    /* When the 9 bits below the answer's 55 may carry, refine with the next 64 bits of the
     * power. Without a branch: on numbers written with 19 digits (%.18e) those bits are
     * all ones about a third of the time, at random, and a mispredicted branch costs more
     * than the product. */
    mul_64x64(w, p5[1], &hi2, &lo2);
    hi2 &= -(uint64_t)((*hi & 0x1FF) == 0x1FF);
    *lo += hi2;
    *hi += hi2 > *lo;
}

/* Rounds a subnormal answer: power2 <= 0 means the exponent field will be 0. */
static uint64_t subnormal_bits(uint64_t m, int64_t power2)
{
    if (-power2 + 1 >= 64)
        return 0;
    m >>= -power2 + 1;
    m += m & 1;
    m >>= 1;
    /* rounding up may reach the smallest normal number: exponent field 1 */
    return (m < ((uint64_t)1 << 52) ? 0 : (uint64_t)1 << 52) | (m & MANTISSA_MASK);
}

/* Inlined where it is called even when the compiler thinks it too long: it is most of
 * the work per number, and its result goes straight into the caller's registers. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The bits of the positive double nearest to w * 10^q (w != 0) into *bits; returns 0,
 * or -1 when the product leaves the answer undecided. */
static ALWAYS_INLINE int eisel_lemire(uint64_t w, int64_t q, uint64_t *bits)
{
    uint64_t hi, lo, m;
    int64_t power2;
    int lz, upper, shift;

    if (q < POW5_MIN_Q) { /* below 2^64 * 10^-343: under half the least subnormal */
        *bits = 0;
        return 0;
    }
    if (q > POW5_MAX_Q) { /* at least 10^309 */
        *bits = INF_BITS;
        return 0;
    }
    lz = leading_zeros(w);
    w <<= lz;
    product_5q(w, q, &hi, &lo);
    if (lo == UINT64_MAX && (q < -27 || q > 55))
        return -1; /* the truncated power of five may hide a carry */
    upper = (int)(hi >> 63);
    shift = upper + 64 - 52 - 3;
    m = hi >> shift;
    power2 = binary_exponent(q) + upper - lz + 1023;
    if (power2 <= 0) {
        *bits = subnormal_bits(m, power2);
        return 0;
    }
    /* an exact tie (only possible for small |q|) rounds to even */
    if (lo <= 1 && q >= -4 && q <= 23 && (m & 3) == 1 && (m << shift) == hi)
        m &= ~(uint64_t)1;
    m += m & 1;
    m >>= 1;
    if (m >= (uint64_t)2 << 52) { /* rounding carried into a new bit */
        m = (uint64_t)1 << 52;
        power2++;
    }
    *bits = power2 >= 0x7FF ? INF_BITS : (uint64_t)power2 << 52 | (m & MANTISSA_MASK);
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* 4. The strtod fallback                                                            */
/* ------------------------------------------------------------------------------ */

/* strtod on "[-]DIGITS[1]e<exp>": the first KEEP_DIGITS significant digits of d, a
 * sticky 1 when a nonzero digit follows them. Bounded, NUL-terminated, no locale
 * dependent decimal point. */
static double fallback(const decimal *d)
{
    char buf[KEEP_DIGITS + 48], *b = buf;
    const char *p;
    int64_t nsig = 0, extra = 0, e;
    int sticky = 0;

    if (d->negative)
        *b++ = '-';
    for (p = d->mant; p < d->mant_end; p++) {
        if (*p == '.' || (nsig == 0 && *p == '0'))
            continue;
        if (nsig++ < KEEP_DIGITS)
            *b++ = *p;
        else {
            extra++;
            sticky |= *p != '0';
        }
    }
    if (nsig == 0)
        *b++ = '0';
    e = d->exp10 - d->nfrac + extra;
    if (sticky) {
        *b++ = '1';
        e--;
    }
    snprintf(b, (size_t)(buf + sizeof buf - b), "e%lld", (long long)e);
    return strtod(buf, NULL);
}

/* ------------------------------------------------------------------------------ */
/* The whole conversion                                                              */
/* ------------------------------------------------------------------------------ */

static double from_bits(uint64_t bits, int negative)
{
    double x;

    bits |= (uint64_t)(negative != 0) << 63;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static double to_double(const decimal *d)
{
    uint64_t b1, b2;
    double x;

    if (d->w == 0) /* every digit zero */
        return d->negative ? -0.0 : 0.0;
    if (!d->truncated) {
        if (clinger(d->w, d->q, &x))
            return d->negative ? -x : x;
        if (eisel_lemire(d->w, d->q, &b1) == 0)
            return from_bits(b1, d->negative);
    } else if (eisel_lemire(d->w, d->q, &b1) == 0 && eisel_lemire(d->w + 1, d->q, &b2) == 0 &&
               b1 == b2) {
        /* the true value lies strictly between w and w + 1 (times 10^q) */
        return from_bits(b1, d->negative);
    }
    return fallback(d);
}

/* ------------------------------------------------------------------------------ */
/* 0. The common shape in a straight line                                            */
/* ------------------------------------------------------------------------------ */

#if SWAR_DIGITS
/* The bytes the straight path reads from s on: a sign, a block of integer digits, the
 * point and three blocks of fraction digits (the exponent's block lies within them, as
 * at most 19 digits come before it). */
#define STRAIGHT_REACH 33

/* The value of a digit run at the end of the mantissa or in the exponent: its 0..7
 * digits are the first bytes of chunk. One or two digits (a fraction cut short, an
 * exponent such as "e-02") directly; more by lead_value. */
static inline uint64_t short_run_value(uint64_t chunk, int k)
{
    const uint64_t d0 = (chunk & 0xF), d1 = (chunk >> 8 & 0xF);

    if (k <= 2)
        return k == 2 ? d0 * 10 + d1 : k == 1 ? d0 : 0;
    return lead_value(chunk, k);
}

#if defined(__SSE2__) /* every x86-64 */
#include <emmintrin.h>
#define SIXTEEN_AT_ONCE 1
/* The value of the 16 bytes at p when all are digits (*v set, returns 1), else 0: the
 * test and the value of all 16 at once, in SSE2 registers (pairs of digits, then fours,
 * then eights, each by one multiply-add of neighbouring lanes). */
static ALWAYS_INLINE int sixteen_digits(const char *p, uint64_t *v)
{
    const __m128i t = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
                                   _mm_set1_epi8('0'));
    const __m128i nine = _mm_set1_epi8(9);
    __m128i pairs, fours, eights;

    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(t, nine), nine)) != 0xFFFF)
        return 0; /* a byte that is not a digit */
    pairs = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(t, _mm_set1_epi16(0xFF)), _mm_set1_epi16(10)),
                          _mm_srli_epi16(t, 8));
    fours = _mm_madd_epi16(pairs, _mm_set1_epi32(100 | 1 << 16));
    eights = _mm_madd_epi16(_mm_packs_epi32(fours, fours), _mm_set1_epi32(10000 | 1 << 16));
    *v = (uint64_t)(uint32_t)_mm_cvtsi128_si32(eights) * 100000000 +
         (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(eights, 4));
    return 1;
}
#else
#define SIXTEEN_AT_ONCE 0
#endif

/* [+-]? d{1,7} ("." d*)? ([eE] [+-]? d{1,7})? with at most 19 digits in all, when
 * STRAIGHT_REACH bytes of text follow s: what numpy.savetxt and printf write. Reads it
 * block by block with no test for the end of the text and no record of where the digits
 * are, to the same w and q as scan() and then the same steps 2 and 3. Returns the end of
 * the number with *out set, or NULL (and *out untouched) for every other text, and when
 * step 3 cannot decide: the general path then reads it from the start. */
static ALWAYS_INLINE const char *straight(const char *s, const char *end, double *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    uint64_t chunk, w, bits;
    int n, k, f = 0;
    int64_t q = 0;
    double x;

    if (end - s < STRAIGHT_REACH)
        return NULL;
    if (is_digit(p[0]) && p[1] == '.') { /* one digit before the point, as %e writes */
        n = 1;
        w = (uint64_t)(p[0] - '0');
    } else {
        chunk = load8(p);
        n = digit_run(chunk);
        if (n == 0 || n == 8)
            return NULL;
        w = short_run_value(chunk, n);
    }
    p += n;
    if (*p == '.') {
        p++;
#if SIXTEEN_AT_ONCE
        if (sixteen_digits(p, &chunk)) { /* as %.16e .. %.18e write: wraps if n > 3, refused */
            w = w * 10000000000000000u + chunk;
            f = 16;
        }
#endif
        chunk = load8(p + f);
        k = digit_run(chunk);
        while (k == 8 && f < 16) { /* 7 + 24 digits are more than 19: two blocks at most */
            w = w * 100000000 + eight_digit_value(chunk);
            f += 8;
            chunk = load8(p + f);
            k = digit_run(chunk);
        }
        f += k;
        if (n + f > MAX_W_DIGITS)
            return NULL;
        w = w * pow10_u64[k] + short_run_value(chunk, k);
        p += f;
        q = -f;
    }
    if ((*p | 0x20) == 'e') {
        const char *e = p + 1 + (p[1] == '-' || p[1] == '+');
        int64_t v;
        if (is_digit(e[0]) && is_digit(e[1]) && !is_digit(e[2])) { /* two, as %e writes */
            k = 2;
            v = (e[0] - '0') * 10 + (e[1] - '0');
        } else {
            chunk = load8(e);
            k = digit_run(chunk);
            if (k == 0 || k == 8)
                return NULL; /* "1e" reads as 1, and long exponents: the general path */
            v = (int64_t)short_run_value(chunk, k);
        }
        q += p[1] == '-' ? -v : v;
        p = e + k;
    }
    if (w == 0)
        bits = 0;
    else if (clinger(w, q, &x))
        memcpy(&bits, &x, sizeof bits);
    else if (eisel_lemire(w, q, &bits) != 0)
        return NULL;
    *out = from_bits(bits, *s == '-');
    return p;
}
#endif

/* Steps 1 to 4 for any text (kept out of line, so that the straight path needs few
 * registers saved). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static const char *general(const char *s, const char *end, double *out)
{
    decimal d;
    const char *stop = scan(&d, s, end);

    if (stop != NULL)
        *out = to_double(&d);
    return stop;
}

/* as_strtod_fast() without its checks of s: the straight path where it applies, else the
 * general one. */
static ALWAYS_INLINE const char *convert(const char *s, const char *end, double *out)
{
#if SWAR_DIGITS
    const char *stop = straight(s, end, out);
    if (stop != NULL)
        return stop;
#endif
    return general(s, end, out);
}

const char *as_strtod_fast(const char *s, const char *end, double *out)
{
    if (s == NULL || s >= end)
        return NULL;
    return convert(s, end, out);
}

size_t as_strtod_fast_spaced(const char *s, const char *end, double *out, size_t most,
                             const char **stop)
{
    const char *p = s, *e;
    size_t n = 0;

    *stop = s;
    while (n < most && p < end && (e = convert(p, end, out + n)) != NULL) {
        n++;
        *stop = p = e;
        if (p >= end || *p != ' ')
            break;
        while (++p < end && *p == ' ')
            ;
    }
    return n;
}
