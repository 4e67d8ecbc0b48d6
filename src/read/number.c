/* number.c - reading one number as SPEC §2 writes it (fractions, the Unicode minus,
 * infinities), and the precision it was written to. Decimal text becomes a double in
 * exactly one function (convert_decimal). */
#include "attnstep/number.h"
#include "attnstep/fastfloat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char as_why_too_large[] = "the number is too large for a double";
const char as_why_zero_denominator[] = "the fraction divides by zero";

/* THE place decimal text becomes a double. Reads the longest unsigned decimal literal
 * at s[0..len) (digits with at most one ".", at least one digit, then an exponent only
 * when it has digits) and returns its bytes, 0 when there is none. Overflow returns 0
 * with *why set; underflow to a subnormal or 0 is fine. as_strtod_fast() rounds exactly
 * as strtod does (tested bit for bit against it) without needing a NUL-terminated copy. */
static size_t convert_decimal(const char *s, size_t len, double *out, const char **why)
{
    const char *e;

    if (len == 0 || !((unsigned)(s[0] - '0') < 10 || s[0] == '.'))
        return 0; /* unsigned: the caller reads the sign */
    e = as_strtod_fast(s, s + len, out);
    if (e == NULL)
        return 0;
    if (isinf(*out)) {
        *why = as_why_too_large;
        return 0;
    }
    return (size_t)(e - s);
}

/* Bytes of a sign at p ("+", "-" or U+2212 "−"); *neg set when it is a minus. */
static size_t scan_sign(const char *p, size_t len, int *neg)
{
    *neg = 0;
    if (len >= 1 && (p[0] == '+' || p[0] == '-')) {
        *neg = p[0] == '-';
        return 1;
    }
    if (len >= 3 && memcmp(p, "\xE2\x88\x92", 3) == 0) {
        *neg = 1;
        return 3;
    }
    return 0;
}

/* Bytes of an infinity word at p: "inf" or "infinity" (any case) or "∞"; else 0. */
static size_t scan_inf(const char *p, size_t len)
{
    static const char word[] = "infinity";
    size_t i = 0;

    if (len >= 3 && memcmp(p, "\xE2\x88\x9E", 3) == 0)
        return 3;
    while (i < len && i < 8 && (p[i] | 0x20) == word[i])
        i++;
    return i == 8 ? 8 : i >= 3 ? 3 : 0;
}

/* A square root as the chapter writes it, "√2" (U+221A), or "sqrt(2)" in ASCII: its
 * bytes and *out = the root of the decimal, 0 when p holds none. */
static size_t scan_root(const char *p, size_t len, double *out, const char **why)
{
    size_t k, n;

    if (len >= 3 && memcmp(p, "\xE2\x88\x9A", 3) == 0)
        k = 3;
    else if (len >= 5 && memcmp(p, "sqrt(", 5) == 0)
        k = 5;
    else
        return 0;
    n = convert_decimal(p + k, len - k, out, why);
    if (n == 0 || (k == 5 && (k + n >= len || p[k + n] != ')')))
        return 0;
    *out = sqrt(*out);
    return k + n + (k == 5);
}

/* One signed number without a fraction bar: [sign] (decimal | root | inf). Returns the
 * bytes used, 0 when none (with *why set when the text was a number that cannot be
 * used). */
static size_t scan_signed(const char *s, size_t len, int allow_inf, double *out,
                          const char **why)
{
    int neg;
    size_t k = scan_sign(s, len, &neg), n;

    if (allow_inf && (n = scan_inf(s + k, len - k)) > 0) {
        *out = neg ? -INFINITY : INFINITY;
        return k + n;
    }
    n = scan_root(s + k, len - k, out, why);
    if (n == 0)
        n = convert_decimal(s + k, len - k, out, why);
    if (n == 0)
        return 0;
    if (neg)
        *out = -*out; /* exact: -0 stays -0, as strtod would give it */
    return k + n;
}

/* The common case in one call: a finite decimal with an ASCII minus at most, no fraction
 * bar after it ("-1.5e-03", as numpy.savetxt writes). as_strtod_fast reads the sign
 * itself, so this is exactly what scan_signed and the checks below give for it. Returns
 * its bytes, or 0 for anything else (the general path then decides). */
static size_t plain_decimal(const char *s, size_t len, double *out)
{
    const size_t k = len > 0 && s[0] == '-';
    const char *e;

    if (len <= k || (unsigned)(s[k] - '0') >= 10)
        return 0;
    e = as_strtod_fast(s, s + len, out);
    if (e == NULL || isinf(*out) || (e < s + len && *e == '/'))
        return 0;
    return (size_t)(e - s);
}

size_t as_parse_number(const char *s, size_t len, int allow_inf, double *out, const char **why)
{
    double p = 0, q = 0;
    size_t n, m;

    *why = NULL;
    if ((n = plain_decimal(s, len, out)) > 0)
        return n;
    *out = 0;
    n = scan_signed(s, len, allow_inf, &p, why);
    if (n == 0)
        return 0;
    if (isinf(p) || n >= len || s[n] != '/') {
        *out = p; /* an infinity takes no fraction bar */
        return n;
    }
    m = scan_signed(s + n + 1, len - n - 1, 0, &q, why);
    if (m == 0) {
        if (*why != NULL)
            return 0;
        *out = p; /* "1/" or "1/x": the longest number is "1" */
        return n;
    }
    if (q == 0) {
        *why = as_why_zero_denominator;
        return 0;
    }
    *out = p / q;
    if (isinf(*out)) {
        *why = as_why_too_large;
        *out = 0;
        return 0;
    }
    return n + 1 + m;
}

/* The exponent written after the "e" in s[0..n), held to [-EXPONENT_BOUND, EXPONENT_BOUND]
 * (beyond that no double has a place to give it: 1e-400 is 0, and 1e400 is refused). */
#define EXPONENT_BOUND 9999
static long written_exponent(const char *s, size_t n)
{
    size_t i = 0;
    long e = 0;
    int neg = 0;

    if (i < n && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        if (e < EXPONENT_BOUND)
            e = e * 10 + (s[i] - '0');
    if (e > EXPONENT_BOUND)
        e = EXPONENT_BOUND;
    return neg ? -e : e;
}

double as_written_unit(const char *s, size_t n)
{
    size_t i, frac = 0;
    int point = 0, nonzero = 0;
    long e = 0;
    double unit;

    for (i = 0; i < n; i++) {
        if (s[i] == '/' || s[i] == '(' || (n - i >= 3 && memcmp(s + i, "\xE2\x88\x9A", 3) == 0))
            return 0; /* a fraction, or a root (√2, sqrt(2)), is exact */
        if ((s[i] | 0x20) == 'e') /* "inf" and "infinity" hold no e */
            break;
        if (s[i] == '.')
            point = 1;
        else if (point && s[i] >= '0' && s[i] <= '9')
            frac++; /* a digit after the point: its place is the unit */
        nonzero |= s[i] >= '1' && s[i] <= '9';
    }
    if (i < n) /* an exponent scales the mantissa's unit: 1.5e-3 was written to 4 places */
        e = written_exponent(s + i + 1, n - i - 1);
    if (!nonzero && e > 0)
        e = 0; /* 0.0e9 is still 0.0: a zero's exponent may narrow its unit, never widen it */
    /* The unit is the place of the last digit written, whatever its value: 0.00e0 is 0.00.
     * No digit after the point ("1.", "1", "2e3") is a whole number, exact. */
    if (frac == 0 && e >= 0)
        return 0;
    unit = pow(10.0, (double)e - (double)frac);
    return isfinite(unit) ? unit : 0; /* no unit to give: the number must be exact */
}
