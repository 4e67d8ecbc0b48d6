/* test_numfmt.c - the JSON text of a double: as_fmt_roundtrip (Ryu) against its
 * definition, as_fmt_roundtrip_printf (the first "%.{p}g" that strtod reads back),
 * byte for byte; and a few texts whose expected bytes come from elsewhere (Python's
 * repr and "%.17g", IEEE 754 by hand).
 *
 * ATTNSTEP_FUZZ_N sets how many random doubles the fuzz test draws (200000 by default,
 * a quarter from each of four distributions; `make numfmt-stress` asks for 10000000). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/numfmt.h"
#include "attnstep/prng.h"

static unsigned long long fuzz_n = 200000;

/* ------------------------------------------------------------------------------ */
/* Helpers                                                                           */
/* ------------------------------------------------------------------------------ */

static double double_of(uint64_t b)
{
    double x;

    memcpy(&x, &b, sizeof x);
    return x;
}

/* Nonzero (after printing both texts) when the fast text of v is not the definition's. */
static int differs(double v)
{
    char fast[AS_NUM_BUF], ref[AS_NUM_BUF];

    as_fmt_roundtrip(fast, sizeof fast, v);
    as_fmt_roundtrip_printf(ref, sizeof ref, v);
    if (strcmp(fast, ref) == 0)
        return 0;
    print_error("%a: as_fmt_roundtrip \"%s\", the definition \"%s\"\n", v, fast, ref);
    return 1;
}

/* v and -v print as the definition prints them. */
static void assert_as_printf(double v)
{
    if (differs(v) | differs(-v))
        fail();
}

static void assert_text(double v, const char *want)
{
    char got[AS_NUM_BUF];

    as_fmt_roundtrip(got, sizeof got, v);
    if (strcmp(got, want) != 0) {
        print_error("%a printed \"%s\", expected \"%s\"\n", v, got, want);
        fail();
    }
}

/* ------------------------------------------------------------------------------ */
/* Texts known from elsewhere                                                        */
/* ------------------------------------------------------------------------------ */

/* Expected bytes: Python 3's repr() where it is the shortest nearest decimal, glibc's
 * "%.17g" for the power of two below (whose shortest nearest 16 digits do not read
 * back), and the JSON rules of SPEC §9 for whole numbers and -0. */
static void test_known_values_print_their_known_texts(void **state)
{
    (void)state;
    assert_text(0.0, "0");
    assert_text(-0.0, "0");
    assert_text(10.0, "10");
    assert_text(-123456789012345.0, "-123456789012345");
    assert_text(0.1, "0.1");
    assert_text(1.0 / 3, "0.3333333333333333");
    assert_text(-2.0 / 3, "-0.6666666666666666");
    assert_text(0.5, "0.5");
    assert_text(1e-5, "1e-05");
    assert_text(1.5e-5, "1.5e-05");
    assert_text(1e-4, "0.0001");
    assert_text(0.00012345, "0.00012345");
    assert_text(1e15, "1e+15");
    assert_text(1e16, "1e+16");
    assert_text(123456789012345.5, "123456789012345.5");
    assert_text(9007199254740993.0, "9007199254740992"); /* 2^53 + 1 reads as 2^53 */
    assert_text(1e23, "1e+23");
    assert_text(5e-324, "5e-324");
    assert_text(DBL_MIN, "2.2250738585072014e-308");
    assert_text(DBL_MAX, "1.7976931348623157e+308");
    assert_text(ldexp(1.0, -1017), "7.1202363472230444e-307"); /* repr: ...3045e-307 */
    assert_text(0x1.0000000000001p0, "1.0000000000000002");
    assert_text(-1.5, "-1.5");
}

/* A buffer too small is cut as snprintf cuts: size - 1 bytes and a NUL. */
static void test_a_short_buffer_is_cut_as_snprintf_cuts(void **state)
{
    char buf[8], ref[8];

    (void)state;
    as_fmt_roundtrip(buf, sizeof buf, 1.0 / 3);
    as_fmt_roundtrip_printf(ref, sizeof ref, 1.0 / 3);
    assert_string_equal(buf, "0.33333");
    assert_string_equal(buf, ref);
    as_fmt_roundtrip(buf, 1, 1.0 / 3);
    assert_string_equal(buf, "");
    as_fmt_roundtrip(buf, sizeof buf, -12345678.0);
    assert_string_equal(buf, "-123456");
}

/* ------------------------------------------------------------------------------ */
/* Edge cases against the definition                                                 */
/* ------------------------------------------------------------------------------ */

/* v, its two neighbours, and the same for -v. */
static void assert_with_neighbours(double v)
{
    assert_as_printf(v);
    assert_as_printf(nextafter(v, INFINITY));
    assert_as_printf(nextafter(v, 0.0));
}

static void test_edge_cases_print_as_printf_does(void **state)
{
    static const double edge[] = {
        5e-324, 1e-323, 2.2250738585072009e-308, DBL_MIN, DBL_MAX, DBL_EPSILON,
        0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 0.7, 1e-5, 9.9999999999999991e-06, 1e-4,
        9.9999999999999991e-05, 0.001, 1e15, 1e15 - 0.5, 1e15 + 0.5, 999999999999999.9,
        1e16, 1e17, 1e21, 1e22, 1e23, 9007199254740992.0, 9007199254740994.0,
        18014398509481988.0, 18014398509481990.0, 123456789012345.67, 4.35, 2.675,
        1.7976931348623157e308, 4.9406564584124654e-324, 2.4703282292062328e-324,
        0.30000000000000004, 5e-300, 1.2345678901234567e-300, 299792458.5, 6.02214076e23,
        9.109383701528e-31, 0.6697615493, 6.6976154933};
    size_t i;
    int k;

    (void)state;
    for (i = 0; i < sizeof edge / sizeof edge[0]; i++)
        assert_with_neighbours(edge[i]);
    for (k = -323; k <= 308; k++) { /* powers of ten, as strtod reads them */
        char text[16];
        snprintf(text, sizeof text, "1e%d", k);
        assert_with_neighbours(strtod(text, NULL));
    }
}

/* Every exponent field, each with the mantissas at the ends and in between: every entry
 * of both generated tables, every power of two (the definition's own answer) and every
 * subnormal length. */
static void test_every_binary_exponent_prints_as_printf_does(void **state)
{
    static const uint64_t mantissa[] = {0, 1, 2, 3, 0x8000000000000u, 0xFFFFFFFFFFFFFu,
                                        0x5555555555555u, 0xAAAAAAAAAAAAAu};
    as_prng g;
    uint64_t field;
    size_t i;

    (void)state;
    as_prng_seed(&g, 7);
    for (field = 0; field < 0x7FF; field++) {
        for (i = 0; i < sizeof mantissa / sizeof mantissa[0]; i++)
            if (field != 0 || mantissa[i] != 0)
                assert_as_printf(double_of(field << 52 | mantissa[i]));
        for (i = 0; i < 8; i++)
            assert_as_printf(double_of(field << 52 | (as_prng_next(&g) >> 12)));
    }
}

/* ------------------------------------------------------------------------------ */
/* Random doubles                                                                    */
/* ------------------------------------------------------------------------------ */

/* Uniform in (0, 1): 53 random bits, never 0. */
static double uniform01(as_prng *g)
{
    return ((double)(as_prng_next(g) >> 11) + 0.5) * 0x1p-53;
}

/* One random double of distribution kind (0-3): any finite bit pattern; N(0, 1) by
 * Box-Muller, as weights and activations are; a decimal of 1 to 17 digits with a
 * random point, as people write them (short texts, exact ties of the digit loop);
 * a whole number near 1e15 .. 2^64 or its half (the integer and exponent forms). */
static double random_double(as_prng *g, int kind)
{
    char text[48];
    uint64_t b;

    switch (kind) {
    case 0:
        do
            b = as_prng_next(g);
        while ((b >> 52 & 0x7FF) == 0x7FF);
        return double_of(b);
    case 1:
        return sqrt(-2 * log(uniform01(g))) * cos(6.283185307179586 * uniform01(g));
    case 2:
        snprintf(text, sizeof text, "%.*fe%d", (int)as_prng_range(g, 0, 16),
                 (double)(as_prng_next(g) >> 11) * 0x1p-53 * 10, (int)as_prng_range(g, -30, 30));
        return strtod(text, NULL);
    default:
        b = as_prng_next(g) >> as_prng_range(g, 0, 14);
        return (double)b / (as_prng_range(g, 0, 1) ? 1 : 2);
    }
}

static void test_random_doubles_print_as_printf_does(void **state)
{
    as_prng g;
    unsigned long long i, bad = 0;

    (void)state;
    as_prng_seed(&g, 20250101);
    for (i = 0; i < fuzz_n; i++)
        if (differs(random_double(&g, (int)(i % 4))) && ++bad >= 10)
            break;
    if (bad > 0)
        fail_msg("%llu of %llu random doubles print differently", bad, i);
    printf("[ fuzz     ] %llu random doubles print as the definition prints them\n", fuzz_n);
}

/* ---- a million doubles against the definition, cheaply ---- */

/* The significant digits of a text of as_fmt_roundtrip: its digits before any exponent,
 * leading zeros not counted (a fixed text with a point ends in a nonzero digit). */
static int significant_digits(const char *text)
{
    int n = 0;

    for (; *text != '\0' && *text != 'e'; text++)
        if (*text >= '1' && *text <= '9')
            n++;
        else if (*text == '0' && n > 0)
            n++;
    return n;
}

/* Nonzero (after printing both texts) when the fast text of v is not the definition's,
 * found with two printf and two strtod calls instead of up to seventeen of each. The
 * definition prints "%.{P}g" for the first precision P that reads back. For v that is
 * not a power of two the rounding interval is symmetric, so a precision that reads back
 * is followed by ones that all do (the nearest (p+1)-digit decimal is no farther from v
 * than the nearest p-digit one): P is L, the fast text's length, exactly when
 * "%.{L}g" is the fast text, it reads back, and "%.{L-1}g" does not. The whole numbers
 * (printed "%.0f") and the powers of two go to the definition itself. */
static int differs_cheaply(double v)
{
    char fast[AS_NUM_BUF], shorter[AS_NUM_BUF];
    uint64_t bits;
    int L;

    memcpy(&bits, &v, sizeof bits);
    if ((bits & 0xFFFFFFFFFFFFFu) == 0 || (v == floor(v) && fabs(v) < 1e15))
        return differs(v); /* one printf for a whole number */
    as_fmt_roundtrip(fast, sizeof fast, v);
    L = significant_digits(fast) & 31; /* 1 .. 17 */
    snprintf(shorter, sizeof shorter, "%.*g", L, v);
    if (strcmp(fast, shorter) == 0 && strtod(fast, NULL) == v) {
        snprintf(shorter, sizeof shorter, "%.*g", L - 1, v);
        if (L == 1 || strtod(shorter, NULL) != v)
            return 0;
    }
    return differs(v); /* prints both texts */
}

/* Nonzero when x or one of its neighbours up to 3 places away differs (cheaply). */
static int neighbourhood_differs(double x)
{
    double up = x, down = x;
    int k, bad = differs_cheaply(x);

    for (k = 0; k < 3; k++) {
        up = nextafter(up, INFINITY);
        down = nextafter(down, -INFINITY);
        if (isfinite(up))
            bad |= differs_cheaply(up);
        if (down != 0)
            bad |= differs_cheaply(down);
    }
    return bad;
}

/* One random double of kind (0-9): the bench's and the chapter's ranges half the time
 * (N(0, 1) scaled by 10^-6 .. 10, as weights, activations and the outputs O are; uniform
 * in (0, 1), as attention weights are); log-uniform over [1e-5, 1e16), where the fixed
 * and exponent forms meet; any finite bit pattern; a subnormal. */
static double million_double(as_prng *g, int kind)
{
    switch (kind) {
    case 0: case 1: case 2: case 3:
        return random_double(g, 1) * pow(10, (double)as_prng_range(g, -6000, 1000) / 1000);
    case 4:
        return uniform01(g);
    case 5: case 6:
        return pow(10, (double)as_prng_range(g, -5000, 15999) / 1000);
    case 7: case 8:
        return random_double(g, 0);
    default:
        return double_of((as_prng_next(g) >> 12) | (uint64_t)as_prng_range(g, 0, 1) << 63);
    }
}

/* A million doubles (ATTNSTEP_FUZZ_N when that is more), every one checked against the
 * definition with differs_cheaply and every 64th with the definition itself: first every
 * power of ten (as strtod reads "1e-323" .. "1e308") and of two, the largest and the
 * smallest doubles and the ends of the fixed form, each with 3 neighbours on each side;
 * then random ones. */
static void test_a_million_doubles_print_as_the_definition_prints(void **state)
{
    static const double ends[] = {DBL_MAX, DBL_MIN, 5e-324, 1e-5, 1e-4, 1e15, 1e16};
    const unsigned long long n = fuzz_n > 1000000 ? fuzz_n : 1000000;
    char text[16];
    as_prng g;
    unsigned long long i = 0, bad = 0;
    double v;
    int e;

    (void)state;
    for (e = -323; e <= 308; e++, i += 7) {
        snprintf(text, sizeof text, "1e%d", e);
        bad += neighbourhood_differs(strtod(text, NULL));
    }
    for (e = -1074; e <= 1023; e++, i += 7)
        bad += neighbourhood_differs(-ldexp(1, e));
    for (e = 0; e < (int)(sizeof ends / sizeof ends[0]); e++, i += 7)
        bad += neighbourhood_differs(ends[e]);
    as_prng_seed(&g, 19);
    for (; i < n && bad < 10; i++) {
        v = million_double(&g, (int)(i % 10));
        bad += isfinite(v) && (differs_cheaply(v) || (i % 64 == 0 && differs(v)));
    }
    if (bad > 0)
        fail_msg("%llu of %llu doubles print differently", bad, i);
    printf("[ fuzz     ] %llu doubles print as the definition prints them\n", n);
}

/* ---- display: "=" or "≈" is decided by what the shown text stands for ---- */

/* The text shown for v at digits places, and whether it was rounded. */
static void assert_display(double v, int digits, const char *text, int rounded)
{
    char buf[AS_NUM_BUF];

    assert_int_equal(as_fmt_display(buf, sizeof buf, v, digits, 0), rounded);
    assert_string_equal(buf, text);
}

static void test_display_says_rounded_exactly_when_the_text_is_not_the_value(void **state)
{
    const double s = sqrt(0.5); /* the double nearest 1/√2: the chapter's 0.7071067812 */

    (void)state;
    /* the texts of sqrt(0.5) below are its digits as printf prints the double */
    assert_display(s, 10, "0.7071067812", 1);
    /* 16 places: the shortest text that reads back to the double, nothing cut off */
    assert_display(s, 16, "0.7071067811865476", 0);
    /* 17 places reads back too, but it is a rounding of the binary value: "≈" (the bug
     * of issue 12 printed "=" here) */
    assert_display(s, 17, "0.70710678118654757", 1);
    assert_display(0.1, 10, "0.1", 0);                  /* what was written is shown */
    assert_display(0.1, 17, "0.10000000000000001", 1);  /* more than was written */
    assert_display(0.1 + 0.2, 10, "0.3", 1);            /* 0.30000000000000004 */
    assert_display(0.375, 17, "0.375", 0);              /* exact in binary */
    assert_display(20, 17, "20", 0);
    assert_display(-0.5, 0, "0", 1);                    /* rounds to -0, shown as 0 */
}

/* From 1e15 on the display gives significant digits, and %g drops the zeros after a lone
 * digit: -1e300 + -1e308 = -1.00000001e308 showed as "-1e+308" at 1 to 7 places, which
 * reads back as exact (SPEC §6: no decimal point), so check marked run's own output
 * wrong (the round trip's finding, tests/fuzz/corpus/roundtrip-scale-1e300-*). Rounded,
 * it keeps one decimal, as "1.0" does below 1e15; exact, it is written as it is. The
 * texts are glibc's "%.3g" and "%.9g" of the values, by hand. */
static void test_a_large_rounded_value_never_shows_as_exact(void **state)
{
    (void)state;
    assert_display(-1e300 + -1e308, 2, "-1.0e+308", 1);
    assert_display(-1e300 + -1e308, 1, "-1.0e+308", 1);
    assert_display(-1e300 + -1e308, 8, "-1.00000001e+308", 0); /* reads back: the double */
    assert_display(2.0000000001e20, 5, "2.0e+20", 1);
    assert_display(2.5e20, 5, "2.5e+20", 0);
    assert_display(-1e300, 2, "-1e+300", 0); /* the nearest double to 1e300: shown exactly */
    assert_display(1e20, 3, "1e+20", 0);
    assert_display(2.0000000001e20, 0, "2e+20", 1); /* 0 places: whole numbers asked */
}

/* Nonzero (after printing both) when as_fmt_display differs from its definition for v
 * at digits places, in text or in the rounded flag; or when as_fmt_display_text, asked
 * for the text alone (as a table's cells are once one of them is rounded), writes
 * another text or returns another length. */
static int display_differs_ascii(double v, int digits, int ascii)
{
    char fast[AS_NUM_BUF], ref[AS_NUM_BUF], text[AS_NUM_BUF];
    const int rf = as_fmt_display(fast, sizeof fast, v, digits, ascii);
    const int rr = as_fmt_display_printf(ref, sizeof ref, v, digits, ascii);
    const size_t len = as_fmt_display_text(text, sizeof text, v, digits, ascii, NULL);

    if (rf == rr && strcmp(fast, ref) == 0 && strcmp(text, ref) == 0 && len == strlen(ref))
        return 0;
    print_error("%a at %d places: as_fmt_display \"%s\" (%d), the definition \"%s\" (%d), "
                "the text alone \"%s\" (%zu bytes)\n",
                v, digits, fast, rf, ref, rr, text, len);
    return 1;
}

static int display_differs(double v, int digits)
{
    return display_differs_ascii(v, digits, 0);
}

/* The masked cells' texts: −∞ (-inf with --ascii), never rounded, whatever the places;
 * and +∞, which no table shows but the function is defined for. */
static void test_display_of_infinities_is_the_definitions(void **state)
{
    char buf[AS_NUM_BUF];
    int d, ascii, bad = 0;

    (void)state;
    for (d = 0; d <= 17; d++)
        for (ascii = 0; ascii <= 1; ascii++)
            bad |= display_differs_ascii(-INFINITY, d, ascii) |
                   display_differs_ascii(INFINITY, d, ascii);
    assert_false(bad);
    assert_int_equal(as_fmt_display(buf, sizeof buf, -INFINITY, 10, 0), 0);
    assert_string_equal(buf, "\xe2\x88\x92\xe2\x88\x9e");
    assert_int_equal(as_fmt_display_text(buf, sizeof buf, -INFINITY, 10, 1, NULL), 4);
    assert_string_equal(buf, "-inf");
}

/* v and -v at every number of places 0..17 display as the definition displays them. */
static int display_differs_any(double v)
{
    int d, bad = 0;

    for (d = 0; d <= 17; d++)
        bad |= display_differs(v, d) | display_differs(-v, d);
    return bad;
}

static void test_display_edge_cases_as_printf_does(void **state)
{
    static const double edge[] = {
        0.5, 1.5, 2.5, 0.125, 0.375, 0.25, 0.75, 0.0625, 1e-5, 5e-11, 4.5e-10, 0.05,
        0.45, 0.95, 0.995, 0.9999999999, 0.99999999995, 0.999999999949999, 9.99999999995,
        99999999999999.5, 999999999999999.9, 999999999999999.4, 0.1, 0.2, 0.3, 0.7,
        1.0 / 3, 2.0 / 3, 0.30000000000000004, 0.7071067811865476, 1e-300, 4.9e-324,
        2.2250738585072014e-308, 2.225073858507201e-308, 123456.789, 0.1 + 0.2, 1e-17,
        5e-18, 1.5e-17, 0.5e-17, 3.0517578125e-05, 0.00048828125, 1234567.0000001};
    size_t i;
    int e, bad = 0;

    (void)state;
    for (i = 0; i < sizeof edge / sizeof edge[0]; i++)
        bad |= display_differs_any(edge[i]);
    for (e = -1074; e < 50; e++) /* every power of two below 1e15, and halfway marks */
        bad |= display_differs_any(ldexp(1, e)) | display_differs_any(ldexp(3, e)) |
               display_differs_any(nextafter(ldexp(1, e), 0)) |
               display_differs_any(nextafter(ldexp(1, e), 1e300));
    if (bad)
        fail_msg("as_fmt_display differs from its definition");
}

static void test_display_random_doubles_as_printf_does(void **state)
{
    as_prng g;
    unsigned long long i, n = fuzz_n / 4, bad = 0;
    double v;

    (void)state;
    as_prng_seed(&g, 20261201);
    for (i = 0; i < n; i++) {
        v = random_double(&g, (int)(i % 4));
        if (!isfinite(v))
            continue;
        if (display_differs(v, (int)as_prng_range(&g, 0, 17)) && ++bad >= 10)
            break;
        /* a decimal of few places, written as a user writes it: ties and exact texts */
        v = (double)as_prng_range(&g, 0, 2000000) / (double)(1u << as_prng_range(&g, 0, 12));
        if (display_differs(v, (int)as_prng_range(&g, 0, 17)) && ++bad >= 10)
            break;
    }
    if (bad > 0)
        fail_msg("%llu of %llu random doubles display differently", bad, i);
    printf("[ fuzz     ] %llu random doubles display as the definition displays them\n", 2 * n);
}

/* A value that rounds to a whole number but is not one keeps one decimal (SPEC §4 with
 * §6: a number shown without a decimal point reads back as exact): -0.0039 at 2 places
 * is "0.0", not "0"; 0.99999 is "1.0". A rounding residue within AS_EXACT_MARGIN of a
 * whole number, and anything at 0 places, still shows as the whole number. The fast
 * text and the definition agree. */
static void test_an_inexact_value_never_shows_as_a_whole_number(void **state)
{
    static const struct {
        double v;
        int digits;
        const char *text;
    } want[] = {{-0.0039, 2, "0.0"}, {0.0039, 2, "0.0"},   {0.99999, 2, "1.0"},
                {-1.00001, 3, "-1.0"}, {2.5e-16, 10, "0"}, {1 + 1e-12, 10, "1"},
                {-0.0039, 0, "0"},   {0.5, 0, "0"},        {0.25, 2, "0.25"},
                {0.2, 2, "0.2"},     {-0.04, 1, "0.0"}};
    char fast[AS_NUM_BUF], slow[AS_NUM_BUF];
    size_t k;

    (void)state;
    for (k = 0; k < sizeof want / sizeof want[0]; k++) {
        const int r = as_fmt_display(fast, sizeof fast, want[k].v, want[k].digits, 0);
        const int rs = as_fmt_display_printf(slow, sizeof slow, want[k].v, want[k].digits, 0);
        assert_string_equal(fast, want[k].text);
        assert_string_equal(slow, want[k].text);
        assert_int_equal(r, rs);
    }
}

int main(void)
{
    const char *n = getenv("ATTNSTEP_FUZZ_N");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values_print_their_known_texts),
        cmocka_unit_test(test_a_short_buffer_is_cut_as_snprintf_cuts),
        cmocka_unit_test(test_edge_cases_print_as_printf_does),
        cmocka_unit_test(test_every_binary_exponent_prints_as_printf_does),
        cmocka_unit_test(test_random_doubles_print_as_printf_does),
        cmocka_unit_test(test_a_million_doubles_print_as_the_definition_prints),
        cmocka_unit_test(test_display_says_rounded_exactly_when_the_text_is_not_the_value),
        cmocka_unit_test(test_a_large_rounded_value_never_shows_as_exact),
        cmocka_unit_test(test_display_edge_cases_as_printf_does),
        cmocka_unit_test(test_display_of_infinities_is_the_definitions),
        cmocka_unit_test(test_display_random_doubles_as_printf_does),
        cmocka_unit_test(test_an_inexact_value_never_shows_as_a_whole_number),
    };

    if (n != NULL && *n != '\0')
        fuzz_n = strtoull(n, NULL, 10);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
