/* numfmt.c - number display: rounding is decided here and nowhere else.
 *
 * The JSON text of a double (as_fmt_roundtrip) is DEFINED by as_fmt_roundtrip_printf:
 * the first "%.{p}g", p = 1 .. 17, that strtod reads back to the same double. That
 * costs up to 17 printf and strtod calls (some 3.6 microseconds), so it is computed
 * instead by Ryu (Ulf Adams, "Ryu: fast float-to-string conversion", PLDI 2018) and laid
 * out as printf's %g would lay it out:
 *
 * 1. the interval of reals that round to v, scaled by a power of ten so that its
 *    bounds are 17 to 19 digit integers (one 64 x 128-bit product each, with the
 *    generated table numfmt_pow5.h), noting which divisions were exact;
 * 2. digits dropped from all three while the bounds stay apart: what is left is the
 *    shortest length L, and rounding the last digit dropped gives the L-digit
 *    decimal nearest to v (ties to even, as printf rounds);
 * 3. that is the text of "%.{L}g": no shorter precision reads back (nothing shorter
 *    lies in the interval), and "%.{L}g" prints the L-digit decimal nearest to v,
 *    which is Ryu's whenever the interval is symmetric around v.
 * The one asymmetric case, a power of two (its lower neighbour is twice as near), can
 * make the nearest L-digit decimal fall outside the narrow side while another lies
 * inside the wide one; those 2 x 2045 doubles go to the definition itself.
 * tests/test_numfmt.c compares the two byte for byte on edge cases, every binary
 * exponent and random doubles (`make numfmt-stress`: 10 million). */
#include "attnstep/numfmt.h"
#include "attnstep/fastfloat.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mul128.h"
#include "numfmt_pow5.h"

/* Drops trailing zeros after a decimal point, then the point itself. */
static void trim_zeros(char *buf)
{
    char *end;

    if (strchr(buf, '.') == NULL)
        return;
    end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        *--end = '\0';
}

/* Nonzero when the decimal text shown, a correctly rounded fixed-point form of v, does
 * not stand for v itself: it reads back to another double, or it carries more decimals
 * than v has (the shortest text that reads back to v is shorter: --digits 17 shows
 * 0.70710678118654757 for the double 0.7071067811865476, a rounding of its binary value
 * and not its decimal meaning). Written "0.1" for the double nearest 0.1 is not rounded. */
static int shown_rounded(const char *shown, double v)
{
    const char *point = strchr(shown, '.');
    char shorter[AS_NUM_BUF];
    int places;

    if (strtod(shown, NULL) != v)
        return 1;
    if (point == NULL)
        return 0;
    places = (int)strlen(point + 1);
    snprintf(shorter, sizeof shorter, "%.*f", places - 1, v);
    return strtod(shorter, NULL) == v;
}

int as_fmt_near_whole(double v)
{
    const double w = round(v);

    return fabs(v - w) <= AS_EXACT_MARGIN * fmax(1.0, fabs(w));
}

/* The text of an infinity: −∞ and ∞, or -inf and inf. */
static const char *infinity_text(double v, int ascii)
{
    return v < 0 ? (ascii ? "-inf" : "\xe2\x88\x92\xe2\x88\x9e") : (ascii ? "inf" : "\xe2\x88\x9e");
}

/* "-1e+308" into "-1.0e+308": ".0" after the mantissa's one digit (a text that has
 * no room for it is left as it is). */
static void keep_one_decimal(char *buf, size_t size)
{
    char *e = strchr(buf, 'e');
    const size_t len = strlen(buf);

    if (e == NULL || len + 3 > size)
        return;
    memmove(e + 2, e, len - (size_t)(e - buf) + 1);
    e[0] = '.';
    e[1] = '0';
}

int as_fmt_display_printf(char *buf, size_t size, double v, int digits, int ascii)
{
    if (isinf(v)) {
        snprintf(buf, size, "%s", infinity_text(v, ascii));
        return 0;
    }
    if (isnan(v)) { /* never reaches a table: the run refuses NaN first */
        snprintf(buf, size, "nan");
        return 1;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v); /* -0 prints as 0 */
        return 0;
    }
    if (fabs(v) >= 1e15) { /* too long for fixed notation: significant digits instead */
        snprintf(buf, size, "%.*g", digits + 1 < 17 ? digits + 1 : 17, v);
        if (strtod(buf, NULL) == v)
            return 0;
        /* %g drops the zeros after a lone digit: "-1e+308" for -1.00000001e308 would
         * read back as exact (SPEC §6), so the rounded text keeps one decimal, as a
         * fixed one does: "-1.0e+308" */
        if (digits > 0 && strchr(buf, '.') == NULL)
            keep_one_decimal(buf, size);
        return 1;
    }
    snprintf(buf, size, "%.*f", digits, v);
    trim_zeros(buf);
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, size, "0");
    if (digits > 0 && strchr(buf, '.') == NULL && !as_fmt_near_whole(v))
        snprintf(buf, size, "%.1f", fabs(v) < 0.5 ? 0.0 : round(v)); /* "0.0", "1.0" */
    return shown_rounded(buf, v);
}

void as_fmt_roundtrip_printf(char *buf, size_t size, double v)
{
    int prec;

    if (v == floor(v) && fabs(v) < 1e15) { /* whole numbers as integers: 10, not 1e+01 */
        snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    for (prec = 1; prec < 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, size, "%.17g", v);
}

/* ------------------------------------------------------------------------------ */
/* 1. The rounding interval, scaled to decimal                                      */
/* ------------------------------------------------------------------------------ */

#define MANTISSA_BITS 52
#define EXPONENT_FIELD_MAX 0x7FF
/* e2 below is the exponent of 4v: two more bits make room for the bounds 4v +- 2 */
#define E2_BIAS (1023 + MANTISSA_BITS + 2)
#define TABLE_BITS 125 /* the precision of the entries of numfmt_pow5.h */

/* The interval around v = m2 * 2^(e2 + 2): 4 m2 and its bounds 4 m2 +- 2 (the halfway
 * points to the neighbours), times 2^e2 / 10^e10 and rounded down. */
typedef struct scaled {
    uint64_t vr, vp, vm; /* the value, the upper bound, the lower bound */
    int e10;
    int vr_exact;        /* nothing was lost dividing the value, or the lower bound */
    int vm_exact;
} scaled;

/* floor(log10(2^e)), floor(log10(5^e)) and the bit length of 5^e, for 0 <= e <= 1650
 * (fixed-point logarithms, exact in that range). */
static int log10_pow2(int e) { return (int)(((uint32_t)e * 78913) >> 18); }
static int log10_pow5(int e) { return (int)(((uint32_t)e * 732923) >> 20); }
static int pow5_bits(int e) { return (int)(((uint32_t)e * 1217359) >> 19) + 1; }

/* floor(m * t / 2^j) for a table entry t = {high, low}; 118 <= j <= 125 here, and the
 * quotient fits in 64 bits. */
static uint64_t mul_shift(uint64_t m, const uint64_t t[2], int j)
{
    uint64_t lo_hi, lo_lo, hi, mid;

    mul_64x64(m, t[1], &lo_hi, &lo_lo);
    mul_64x64(m, t[0], &hi, &mid);
    mid += lo_hi;
    hi += mid < lo_hi; /* the carry */
    j -= 64;
    return (hi << (64 - j)) | (mid >> j);
}

/* Nonzero when 5^p divides v, or 2^p does. */
static int pow5_divides(uint64_t v, int p)
{
    for (; p > 0; p--, v /= 5)
        if (v % 5 != 0)
            return 0;
    return 1;
}

static int pow2_divides(uint64_t v, int p)
{
    return p < 64 && (v & (((uint64_t)1 << p) - 1)) == 0;
}

/* e2 >= 0: divides by 10^q, q = floor(log10(2^e2)) - 1, through the inverse powers. A
 * bound x * 2^e2 / 10^q (e2 >= q) is exact when 5^q divides x; at most one of the
 * three does, and none once 5^q > 2^55 > x. An exact upper bound that rounds away from
 * v (accept == 0) is no candidate: one less. */
static void scale_up(scaled *s, uint64_t mv, int e2, int accept)
{
    const int q = log10_pow2(e2) - (e2 > 3);
    const int j = -e2 + q + pow5_bits(q) - 1 + TABLE_BITS;
    const uint64_t *t = ryu_pow5_inv[q];

    s->e10 = q;
    s->vr = mul_shift(mv, t, j);
    s->vp = mul_shift(mv + 2, t, j);
    s->vm = mul_shift(mv - 2, t, j);
    s->vr_exact = s->vm_exact = 0;
    if (q >= 24)
        return;
    if (mv % 5 == 0)
        s->vr_exact = pow5_divides(mv, q);
    else if (accept)
        s->vm_exact = pow5_divides(mv - 2, q);
    else
        s->vp -= (uint64_t)pow5_divides(mv + 2, q);
}

/* e2 < 0: x * 2^e2 / 10^e10 with e10 = e2 + q is x * 5^i / 2^q, i = -e2 - q, through
 * the powers of five; exact when 2^q divides x. */
static void scale_down(scaled *s, uint64_t mv, int e2, int accept)
{
    const int q = log10_pow5(-e2) - (-e2 > 1);
    const int i = -e2 - q;
    const int j = q - pow5_bits(i) + TABLE_BITS;
    const uint64_t *t = ryu_pow5[i];

    s->e10 = q + e2;
    s->vr = mul_shift(mv, t, j);
    s->vp = mul_shift(mv + 2, t, j);
    s->vm = mul_shift(mv - 2, t, j);
    s->vr_exact = pow2_divides(mv, q);
    s->vm_exact = accept && pow2_divides(mv - 2, q);
    if (!accept && pow2_divides(mv + 2, q))
        s->vp--;
}

/* ------------------------------------------------------------------------------ */
/* 2. The shortest digits                                                            */
/* ------------------------------------------------------------------------------ */

/* What is left of s after dropping digits, and how the dropped ones end. */
typedef struct trimmed {
    uint64_t vr, vp, vm;
    int removed;  /* digits dropped */
    int last;     /* the last digit dropped from vr */
    int vr_zeros; /* everything dropped from vr before the last was 0, and exact */
    int vm_zeros; /* everything dropped from vm was 0, and exact */
} trimmed;

static void drop_digit(trimmed *t)
{
    t->vr_zeros &= t->last == 0;
    t->last = (int)(t->vr % 10);
    t->vr /= 10;
    t->vp /= 10;
    t->vm /= 10;
    t->removed++;
}

/* shortest_digits when nothing was exact (vr_exact and vm_exact 0: no tie, no lower
 * bound to keep), Ryu's common case: the last digit dropped alone decides the rounding,
 * so two are dropped at once while the bounds stay apart by 100 (one quotient for
 * two). */
static uint64_t shortest_inexact(uint64_t vr, uint64_t vp, uint64_t vm, int *removed)
{
    int n = 0, up = 0;

    if (vp / 100 > vm / 100) {
        const uint64_t q = vr / 100;
        up = vr - 100 * q >= 50;
        vr = q, vp /= 100, vm /= 100;
        n = 2;
    }
    for (; vp / 10 > vm / 10; n++) {
        const uint64_t q = vr / 10;
        up = vr - 10 * q >= 5;
        vr = q, vp /= 10, vm /= 10;
    }
    *removed = n;
    return vr + (vr == vm || up);
}

/* The shortest decimal in the interval, nearest to v: drops digits while the bounds
 * stay apart, then (the lower bound being exact and allowed) while it ends in 0; then
 * rounds vr by the digits dropped, ties to even, and steps off an excluded vm. */
static uint64_t shortest_digits(const scaled *s, int accept, int *removed)
{
    trimmed t;

    if (!s->vr_exact && !s->vm_exact)
        return shortest_inexact(s->vr, s->vp, s->vm, removed);
    t.vr = s->vr, t.vp = s->vp, t.vm = s->vm;
    t.removed = t.last = 0;
    t.vr_zeros = s->vr_exact;
    t.vm_zeros = s->vm_exact;
    while (t.vp / 10 > t.vm / 10) {
        t.vm_zeros &= t.vm % 10 == 0;
        drop_digit(&t);
    }
    if (t.vm_zeros)
        while (t.vm % 10 == 0)
            drop_digit(&t);
    if (t.vr_zeros && t.last == 5 && t.vr % 2 == 0)
        t.last = 4; /* exactly halfway: keep the even digit */
    *removed = t.removed;
    return t.vr + ((t.vr == t.vm && (!accept || !t.vm_zeros)) || t.last >= 5);
}

/* The shortest digits of |v| (finite, nonzero) and the exponent of their last digit;
 * -1 for the powers of two with an asymmetric interval (see the top of the file). */
static int shortest(double v, uint64_t *digits, int *exp10)
{
    uint64_t bits, mantissa, m2;
    int field, e2, removed;
    scaled s;

    memcpy(&bits, &v, sizeof bits);
    mantissa = bits & (((uint64_t)1 << MANTISSA_BITS) - 1);
    field = (int)((bits >> MANTISSA_BITS) & EXPONENT_FIELD_MAX);
    if (mantissa == 0 && field > 1)
        return -1;
    m2 = field == 0 ? mantissa : mantissa | (uint64_t)1 << MANTISSA_BITS;
    e2 = (field == 0 ? 1 : field) - E2_BIAS;
    if (e2 >= 0)
        scale_up(&s, 4 * m2, e2, (m2 & 1) == 0);
    else
        scale_down(&s, 4 * m2, e2, (m2 & 1) == 0);
    *digits = shortest_digits(&s, (m2 & 1) == 0, &removed);
    *exp10 = s.e10 + removed;
    while (*digits % 10 == 0) { /* 999.7 -> 1000: carried into zeros */
        *digits /= 10;
        ++*exp10;
    }
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* 3. Laid out as printf lays it out                                                 */
/* ------------------------------------------------------------------------------ */

/* Digits of d, 1 <= d < 10^17 (Ryu's shortest has at most 17): from the top, since
 * most doubles need 16 or 17. */
static int digit_count(uint64_t d)
{
    uint64_t p = 10000000000000000u; /* 10^16 */
    int n = 17;

    for (; n > 1 && d < p; n--)
        p /= 10;
    return n;
}

/* The eight decimal digits of x < 10^8, leading zeros kept, as the ASCII bytes of a
 * 64-bit word, the first digit in the lowest byte: the digits are split in every lane of
 * the word at once (SWAR), 4 + 4, then 2 + 2 in each half, then 1 + 1. The quotients
 * by 100 and 10 are products and shifts, exact below 10^4 and 10^2, and no lane's
 * product reaches the next lane's bits, which the masks keep. */
static inline uint64_t eight_digits(uint32_t x)
{
    uint64_t v = (uint64_t)(x / 10000) | (uint64_t)(x % 10000) << 32, q;

    q = ((v * 10486) >> 20) & 0x0000007F0000007Fu; /* / 100 in each 32-bit lane */
    v = q | (v - 100 * q) << 16;
    q = ((v * 103) >> 10) & 0x000F000F000F000Fu; /* / 10 in each 16-bit lane */
    v = q | (v - 10 * q) << 8;
    return v | 0x3030303030303030u;
}

/* The eight bytes of w at p[0..8), its lowest byte first (one store where the compiler
 * sees it, whatever the byte order). */
static inline void put_word(char *p, uint64_t w)
{
    p[0] = (char)w, p[1] = (char)(w >> 8), p[2] = (char)(w >> 16), p[3] = (char)(w >> 24);
    p[4] = (char)(w >> 32), p[5] = (char)(w >> 40), p[6] = (char)(w >> 48), p[7] = (char)(w >> 56);
}

/* The m <= 8 digits of d < 10^m at p[0..8), the bytes past them scratch. */
static inline void put_head(char *p, uint64_t d, int m)
{
    put_word(p, eight_digits((uint32_t)d) >> (64 - 8 * m));
}

/* The n digits of d < 10^n (1 <= n <= 20) at p[0..n); p must have room for 8 bytes
 * whatever n is: the first digits go as one word whose bytes past them are scratch,
 * overwritten by the group of eight that follows or lying past the text. */
static void put_digits(char *p, uint64_t d, int n)
{
    const uint64_t e8 = 100000000u, e16 = 10000000000000000u;

    if (n > 16) { /* the 17th digit and above (Ryu's longest has 17) */
        put_head(p, d / e16, n - 16);
        p += n - 16;
        d %= e16;
        n = 16;
    }
    if (n > 8) {
        put_head(p, d / e8, n - 8);
        put_word(p + n - 8, eight_digits((uint32_t)(d % e8)));
    } else
        put_head(p, d, n);
}

/* "e+05", "e-308": a sign and at least two digits, as %e writes the exponent. */
static char *put_exponent(char *p, int e)
{
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    e = e < 0 ? -e : e;
    if (e >= 100)
        *p++ = (char)('0' + e / 100);
    *p++ = (char)('0' + e / 10 % 10);
    *p++ = (char)('0' + e % 10);
    return p;
}

/* The text "%.{n}g" gives for the n significant digits d (no trailing zero) whose first
 * stands for 10^e: exponent form when e < -4 or e >= n, else fixed. Returns its length
 * (at most 24 bytes). */
static size_t layout_g(char *out, int negative, uint64_t d, int n, int e)
{
    const int exp_form = e < -4 || e >= n;
    char *p = out + negative;
    int before = exp_form ? 1 : e + 1, i; /* digits before the point */

    out[0] = '-';
    if (before <= 0) { /* 0.000ddd */
        memcpy(p, "0.0000", 6);
        p += 1 - e;
    }
    if (before > 0 && n > before) { /* the digits one place on, then the point */
        put_digits(p + 1, d, n);
        for (i = 0; i < before; i++)
            p[i] = p[i + 1];
        p[before] = '.';
        p += n + 1;
    } else {
        put_digits(p, d, n);
        p += n;
    }
    if (exp_form)
        p = put_exponent(p, e);
    return (size_t)(p - out);
}

/* v == floor(v) && fabs(v) < 1e15 without calling floor: below 1e15 < 2^63 the
 * conversion to int64_t truncates exactly, and gives v back only when v is whole. */
static int whole_below_1e15(double v)
{
    return fabs(v) < 1e15 && (double)(int64_t)v == v;
}

/* "%.0f" of a whole number below 1e15 in magnitude; -0 as "0". */
static size_t layout_whole(char *out, double v)
{
    const uint64_t u = (uint64_t)fabs(v);
    const int n = digit_count(u), neg = v < 0;

    out[0] = '-';
    put_digits(out + neg, u, n);
    return (size_t)(n + neg);
}

size_t as_fmt_roundtrip(char *buf, size_t size, double v)
{
    char text[32], *out = size >= sizeof text ? buf : text; /* room: no copy */
    size_t len;
    uint64_t digits;
    int exp10;

    if (whole_below_1e15(v))
        len = layout_whole(out, v);
    else if (isfinite(v) && shortest(v, &digits, &exp10) == 0) {
        const int n = digit_count(digits);
        len = layout_g(out, signbit(v) != 0, digits, n, exp10 + n - 1);
    } else {
        as_fmt_roundtrip_printf(buf, size, v);
        return size > 0 ? strlen(buf) : 0;
    }
    if (out == text) { /* cut as snprintf cuts */
        if (size == 0)
            return 0;
        len = len < size ? len : size - 1;
        memcpy(buf, text, len);
    }
    buf[len] = '\0';
    return len;
}

/* ------------------------------------------------------------------------------ */
/* 4. Display: "%.{digits}f" computed exactly, without printf                        */
/* ------------------------------------------------------------------------------ */

/* as_fmt_display_printf is the definition; the text of a table cell is computed here
 * instead (printf and strtod cost some 2 microseconds a number, and a table at 512
 * tokens has millions). A double f in [0, 1) is mf * 2^(ef - 1075) exactly, so
 * f * 10^d = mf * 5^d * 2^(ef - 1075 + d): a 93-bit integer (mf < 2^53, 5^17 < 2^40)
 * shifted right by at least 36 bits, which a 128-bit integer holds with its remainder,
 * and so rounds as printf rounds (to nearest, a tie to even). Without a 128-bit type
 * the definition itself runs. */
#if defined(__SIZEOF_INT128__)
#define DISPLAY_MAX_DIGITS 17
#define FIXED_ROOM 48 /* fixed_text's longest text (34 bytes) and its NUL, with room */

__extension__ typedef unsigned __int128 u128;

/* round(f * 10^d) for 0 <= f < 1, 0 <= d <= 17, a tie to even (odd_base: the parity of
 * what stands before the fraction, which decides a tie when d is 0). */
static uint64_t scaled_fraction(double f, int d, int odd_base)
{
    static const uint64_t pow5[DISPLAY_MAX_DIGITS + 1] = {
        1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u, 390625u, 1953125u, 9765625u,
        48828125u, 244140625u, 1220703125u, 6103515625u, 30517578125u, 152587890625u,
        762939453125u};
    uint64_t bits, mf, n;
    int ef, shift;
    u128 x, rem, half;

    memcpy(&bits, &f, sizeof bits);
    ef = (int)(bits >> 52);
    mf = bits & (((uint64_t)1 << 52) - 1);
    if (ef == 0)
        ef = 1; /* a subnormal: no hidden bit */
    else
        mf |= (uint64_t)1 << 52;
    shift = 1075 - ef - d; /* >= 36, as f < 1 */
    if (mf == 0 || shift >= 128)
        return 0; /* below 2^93 / 2^128: under half of the last place */
    x = (u128)mf * pow5[d];
    n = (uint64_t)(x >> shift);
    rem = x & (((u128)1 << shift) - 1);
    half = (u128)1 << (shift - 1);
    if (rem > half || (rem == half && ((n + (uint64_t)odd_base) & 1)))
        n++;
    return n;
}

/* "%.{d}f" of v (finite, |v| < 1e15), trailing zeros and the point dropped (but one "0"
 * when v is not within AS_EXACT_MARGIN of the whole number shown), -0 as "0",
 * into out (at least 40 bytes); returns its length and *places, the decimals kept. */
static size_t fixed_text(char *out, double v, int d, int *places)
{
    static const uint64_t pow10[DISPLAY_MAX_DIGITS + 1] = {
        1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
        1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
        100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u};
    const double a = fabs(v), whole = floor(a);
    uint64_t ip = (uint64_t)whole, frac;
    char *p = out;
    int n = d, whole_digits = 1;
    uint64_t t;

    frac = scaled_fraction(a - whole, d, d == 0 && (ip & 1)); /* a - whole is exact */
    if (frac == pow10[d]) { /* 0.99999...: the rounding carries into the whole part */
        ip++;
        frac = 0;
    }
    for (; n > 0 && frac % 10 == 0; n--)
        frac /= 10; /* the trailing zeros that trim_zeros drops */
    if (d > 0 && frac == 0 && !as_fmt_near_whole(v))
        n = 1; /* "0.0", "1.0": not to be read back as exact */
    if (v < 0 && (ip > 0 || frac > 0))
        *p++ = '-';
    for (t = ip; t >= 10; t /= 10)
        whole_digits++; /* from below: most table cells are under 10 */
    put_digits(p, ip, whole_digits);
    p += whole_digits;
    if (n > 0) {
        *p++ = '.';
        put_digits(p, frac, n);
        p += n;
    }
    *p = '\0';
    *places = n;
    return (size_t)(p - out);
}

/* shown_rounded for the text of fixed_text: the text does not read back to v, or one
 * decimal fewer would (as_strtod_fast reads as strtod does, bit for bit). */
static int fixed_rounded(const char *shown, size_t len, double v, int places)
{
    char shorter[FIXED_ROOM];
    double back;
    int fewer;
    size_t n;

    if (as_strtod_fast(shown, shown + len, &back) == NULL || back != v)
        return 1;
    if (places == 0)
        return 0;
    n = fixed_text(shorter, v, places - 1, &fewer);
    return as_strtod_fast(shorter, shorter + n, &back) != NULL && back == v;
}

size_t as_fmt_display_text(char *buf, size_t size, double v, int digits, int ascii,
                          int *rounded)
{
    size_t len;
    int places, r = 0;

    if (size < FIXED_ROOM || isnan(v) || digits < 0 || digits > DISPLAY_MAX_DIGITS ||
        (isfinite(v) && fabs(v) >= 1e15)) {
        r = as_fmt_display_printf(buf, size, v, digits, ascii);
        len = size > 0 ? strlen(buf) : 0;
    } else if (isinf(v)) { /* the masked cells: half of a causal layer's scores */
        len = strlen(infinity_text(v, ascii));
        memcpy(buf, infinity_text(v, ascii), len + 1);
    } else if (whole_below_1e15(v)) {
        len = layout_whole(buf, v == 0 ? 0.0 : v);
        buf[len] = '\0';
    } else {
        len = fixed_text(buf, v, digits, &places);
        if (rounded != NULL)
            r = fixed_rounded(buf, len, v, places);
    }
    if (rounded != NULL)
        *rounded = r;
    return len;
}
#else
size_t as_fmt_display_text(char *buf, size_t size, double v, int digits, int ascii,
                          int *rounded)
{
    const int r = as_fmt_display_printf(buf, size, v, digits, ascii);

    if (rounded != NULL)
        *rounded = r;
    return size > 0 ? strlen(buf) : 0;
}
#endif

int as_fmt_display(char *buf, size_t size, double v, int digits, int ascii)
{
    int rounded;

    as_fmt_display_text(buf, size, v, digits, ascii, &rounded);
    return rounded;
}

void as_fmt_json(FILE *out, double v)
{
    char buf[AS_NUM_BUF];

    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    as_fmt_roundtrip(buf, sizeof buf, v);
    fputs(buf, out);
}
