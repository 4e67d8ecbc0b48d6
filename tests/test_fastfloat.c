/* test_fastfloat.c - as_strtod_fast against the C library's strtod, bit for bit: the
 * oracle is glibc's correctly rounded strtod, plus a few values whose bits come from
 * the IEEE 754 definition (hexadecimal literals). The table of powers of five is
 * re-checked entry by entry with exact integer arithmetic.
 *
 * ATTNSTEP_FUZZ_N sets how many random strings the fuzz test draws (200000 by
 * default; `make parser-stress` asks for 10000000). */
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

#include "attnstep/fastfloat.h"
#include "../src/base/fastfloat_pow5.h"
#include "test_util.h"

static unsigned long long fuzz_n = 200000;

/* ------------------------------------------------------------------------------ */
/* Helpers                                                                           */
/* ------------------------------------------------------------------------------ */

/* splitmix64 (Steele, Lea, Flood 2014): a fixed seed gives the same strings each run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t bits_of(double x)
{
    uint64_t b;

    memcpy(&b, &x, sizeof b);
    return b;
}

static double double_of(uint64_t b)
{
    double x;

    memcpy(&x, &b, sizeof x);
    return x;
}

/* Parses the NUL-terminated text both ways, as_strtod_fast given text[0..len); nonzero
 * (after printing why) when the double or the end of the number differ. */
static int differs_in(const char *text, size_t len)
{
    char *lib_end;
    double lib = strtod(text, &lib_end), ours = 0;
    const char *our_end = as_strtod_fast(text, text + len, &ours);

    if (our_end == lib_end && bits_of(ours) == bits_of(lib))
        return 0;
    print_error("\"%.120s%s\" (%zu chars): strtod %a (end %td), as_strtod_fast %a (end %td)\n", text,
                len > 120 ? "..." : "", len, lib, lib_end - text, ours,
                our_end ? our_end - text : (ptrdiff_t)-1);
    return 1;
}

/* What follows a number in the padded texts: more numbers, as in a file. Longer than
 * the 33 bytes the straight path of as_strtod_fast needs after the start of a number. */
static const char padding[] = " 9.876543210987654321e-01 -1.000000000000000000e+00 0\n";

/* s alone (the text ends with it: the general path), and s followed by after and the
 * padding (the straight path, for the numbers it takes): both ways as strtod. */
static int differs_from_strtod_after(const char *s, const char *after)
{
    const size_t len = strlen(s);
    char *text;
    int bad;

    if (differs_in(s, len))
        return 1;
    text = malloc(len + strlen(after) + sizeof padding);
    assert_non_null(text);
    strcpy(text, s);
    strcat(text, after);
    strcat(text, padding);
    bad = differs_in(text, strlen(text));
    free(text);
    return bad;
}

static int differs_from_strtod(const char *s)
{
    return differs_from_strtod_after(s, "");
}

static void assert_same_as_strtod(const char *s)
{
    if (differs_from_strtod(s))
        fail();
}

/* Reads s whole, alone and followed by a blank and more numbers, and checks the bits of
 * the result. */
static void assert_reads_as(const char *s, double want)
{
    char text[1200];
    double got = 0, got_in_text = 0;
    const char *end = as_strtod_fast(s, s + strlen(s), &got), *end_in_text;

    assert_non_null(end);
    assert_int_equal(end - s, strlen(s));
    assert_true(strlen(s) + sizeof padding <= sizeof text);
    strcpy(text, s);
    strcat(text, padding);
    end_in_text = as_strtod_fast(text, text + strlen(text), &got_in_text);
    assert_ptr_equal(end_in_text, text + strlen(s));
    if (bits_of(got) != bits_of(want) || bits_of(got_in_text) != bits_of(want)) {
        print_error("\"%s\" read as %a (and %a in a text), expected %a\n", s, got, got_in_text,
                    want);
        fail();
    }
}

/* ------------------------------------------------------------------------------ */
/* The table of powers of five, checked by multiplication alone                     */
/* ------------------------------------------------------------------------------ */

#define BIG_LIMBS 72 /* 32-bit limbs: room for (2^128 * 2^s) * 5^342 */

typedef struct big {
    uint32_t d[BIG_LIMBS];
} big;

static void big_small(big *a, uint32_t v)
{
    memset(a, 0, sizeof *a);
    a->d[0] = v;
}

static void big_mul(big *r, const big *a, const big *b) /* r = a * b, no overflow */
{
    big t;
    int i, j;

    big_small(&t, 0);
    for (i = 0; i < BIG_LIMBS; i++) {
        uint64_t carry = 0;
        if (a->d[i] == 0)
            continue;
        for (j = 0; i + j < BIG_LIMBS; j++) {
            const uint64_t x = (uint64_t)a->d[i] * b->d[j] + t.d[i + j] + carry;
            t.d[i + j] = (uint32_t)x;
            carry = x >> 32;
        }
    }
    *r = t;
}

static void big_pow5(big *a, int k)
{
    big five;

    big_small(a, 1);
    big_small(&five, 5);
    while (k-- > 0)
        big_mul(a, a, &five);
}

static void big_pow2(big *a, int k)
{
    big_small(a, 0);
    a->d[k / 32] = (uint32_t)1 << (k % 32);
}

static void big_from128(big *a, uint64_t hi, uint64_t lo)
{
    big_small(a, 0);
    a->d[0] = (uint32_t)lo, a->d[1] = (uint32_t)(lo >> 32);
    a->d[2] = (uint32_t)hi, a->d[3] = (uint32_t)(hi >> 32);
}

static void big_add_signed(big *a, int v) /* a += v, v in {-1, +1}, no wrap */
{
    int i;

    for (i = 0; i < BIG_LIMBS; i++) {
        const uint32_t old = a->d[i];
        a->d[i] = old + (uint32_t)v;
        if ((v > 0 && a->d[i] != 0) || (v < 0 && old != 0))
            break;
    }
}

static int big_cmp(const big *a, const big *b)
{
    int i;

    for (i = BIG_LIMBS - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static int big_bitlen(const big *a)
{
    int i, b;

    for (i = BIG_LIMBS - 1; i >= 0; i--)
        if (a->d[i] != 0) {
            for (b = 31; !(a->d[i] >> b & 1); b--)
                ;
            return 32 * i + b + 1;
        }
    return 0;
}

/* q >= 0: the entry is 5^q cut to its top 128 bits, so entry * 2^s <= 5^q < (entry + 1)
 * * 2^s with s = bitlen(5^q) - 128 (or entry = 5^q * 2^-s exactly when s < 0). */
static int positive_entry_ok(int q, const big *c)
{
    big p, lo, hi, two_s;
    int s;

    big_pow5(&p, q);
    s = big_bitlen(&p) - 128;
    if (s <= 0) {
        big_pow2(&two_s, -s);
        big_mul(&lo, &p, &two_s);
        return big_cmp(&lo, c) == 0;
    }
    big_pow2(&two_s, s);
    big_mul(&lo, c, &two_s);
    hi = *c;
    big_add_signed(&hi, 1);
    big_mul(&hi, &hi, &two_s);
    return big_cmp(&lo, &p) <= 0 && big_cmp(&p, &hi) < 0;
}

/* q < 0, p = 5^-q with z bits: the entry c is floor((floor(2^b / p) + 1) / 2^s) with
 * b = z + 127 (-q <= 27) or 2z + 128 and s = b - z + 1 - 128 (0 when negative). With
 * integers, floor(x) >= a iff x >= a, so that is:
 *     (c * 2^s - 1) * p <= 2^b < ((c + 1) * 2^s - 1) * p. */
static int negative_entry_ok(int q, const big *c)
{
    big p, two_b, two_s, lo, hi;
    int z, b, s;

    big_pow5(&p, -q);
    z = big_bitlen(&p);
    b = -q <= 27 ? z + 127 : 2 * z + 128;
    s = b - z + 1 - 128 > 0 ? b - z + 1 - 128 : 0;
    big_pow2(&two_b, b);
    big_pow2(&two_s, s);
    big_mul(&lo, c, &two_s);
    big_add_signed(&lo, -1);
    big_mul(&lo, &lo, &p);
    hi = *c;
    big_add_signed(&hi, 1);
    big_mul(&hi, &hi, &two_s);
    big_add_signed(&hi, -1);
    big_mul(&hi, &hi, &p);
    return big_cmp(&lo, &two_b) <= 0 && big_cmp(&two_b, &hi) < 0;
}

static void test_every_power_of_five_in_the_table_is_exact(void **state)
{
    int q;

    (void)state;
    for (q = POW5_MIN_Q; q <= POW5_MAX_Q; q++) {
        const uint64_t *e = pow5_128[q - POW5_MIN_Q];
        big c;
        big_from128(&c, e[0], e[1]);
        if (!(e[0] >> 63) || !(q >= 0 ? positive_entry_ok(q, &c) : negative_entry_ok(q, &c))) {
            print_error("table entry for 5^%d is wrong: %016llx %016llx\n", q,
                        (unsigned long long)e[0], (unsigned long long)e[1]);
            fail();
        }
    }
}

/* ------------------------------------------------------------------------------ */
/* Edge cases                                                                        */
/* ------------------------------------------------------------------------------ */

static void test_values_with_known_bits_are_read_exactly(void **state)
{
    (void)state;
    /* IEEE 754 binary64 by definition */
    assert_reads_as("4.9e-324", 0x1p-1074);                  /* least subnormal */
    assert_reads_as("2.4703282292062328e-324", 0x1p-1074);   /* just above its half */
    assert_reads_as("2.4703282292062327e-324", 0.0);         /* just below: 0 */
    assert_reads_as("2.2250738585072014e-308", 0x1p-1022);   /* least normal */
    assert_reads_as("1.7976931348623157e308", DBL_MAX);
    assert_reads_as("1.7976931348623159e308", INFINITY);     /* past the tie: inf */
    assert_reads_as("9007199254740993", 0x1p53);             /* tie 2^53 + 1: to even */
    assert_reads_as("9007199254740995", 0x1p53 + 4);         /* tie: to even, upwards */
    assert_reads_as("1e23", 0x1.52d02c7e14af6p+76);          /* 99999999999999991611392 */
    assert_reads_as("0.1", 0x1.999999999999ap-4);
    assert_reads_as("-0.0", -0.0);
    assert_reads_as("1.", 1.0);
    assert_reads_as(".5", 0.5);
    assert_reads_as("+.5e1", 5.0);
    assert_reads_as("-1e-400", -0.0);
    assert_reads_as("1e400", INFINITY);
    assert_reads_as("-1e99999999999999999999999", -INFINITY);
    assert_reads_as("0e99999999999999999999999", 0.0);
}

static void test_edge_cases_agree_with_strtod(void **state)
{
    static const char *const cases[] = {
        "4.9e-324", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1.797693134862315807937289714053e308", "1.797693134862315708145274237317e308",
        "0.1", "0.2", "0.3", "9007199254740993", "9007199254740992.5", "9007199254740993.0000001",
        "1e23", "8.98846567431158e307", "8.988465674311579538646525953945e307",
        "1", "0", "-0", "-0.0", "+0", "0.", ".0", "1.", ".5", "-.5", "+1.e-3", "00000001",
        "0.000000000000000000000000000000000000000000000001", "123456789012345678",
        "1234567890123456789", "12345678901234567890", "18446744073709551615",
        "18446744073709551616", "7.2057594037927933e16", "1e22", "1e-22", "4e22", "1e308",
        "1e309", "1e-324", "1e-323", "3e-324", "2.5e-324", "7.4109846876186982e-324",
        "4.4501477170144023e-308", "4.4501477170144018e-308", "6.631236846766476e-316",
        "3.4028234663852886e38", "1.4012984643248171e-45", "9.999999999999999e22",
        "1e-5", "2e-5", "179769313486231580793728971405303415079934132710037826936173778980"
        "444968292764750946649017977587207096330286416692887910946555547851940402630657488671"
        "505820681908902000708383676273854845817711531764475730270069855571366959622842914819"
        "860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
        "1e", "1e+", "1e-", "1.5e+3x", "12abc", "1.2.3", "5E5", "5e-0", "-5e+00",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_same_as_strtod(cases[i]);
}

/* Prints the exact decimal of the point halfway between x and the next double up. */
static int halfway_text(char *buf, size_t size, double x, int digits)
{
#if LDBL_MANT_DIG >= 64 /* x87 extended: 64 bits hold any midpoint of two doubles */
    const long double up = isinf(nextafter(x, INFINITY)) ? ldexpl(1, 1024)
                                                          : (long double)nextafter(x, INFINITY);
    volatile long double one = 1;

    if (one + 0x1p-60L == one)
        return -1; /* long double arithmetic done in double (valgrind emulates x87 so) */
    return snprintf(buf, size, "%.*Le", digits, ((long double)x + up) / 2);
#else
    (void)buf, (void)size, (void)x, (void)digits;
    return -1;
#endif
}

/* Inserts digits at the end of the mantissa of buf ("1.5e3" -> "1.5DIGITSe3"). */
static void insert_before_exponent(char *buf, size_t size, const char *digits)
{
    const size_t at = strcspn(buf, "eE"), n = strlen(digits), len = strlen(buf);

    assert_true(len + n < size);
    memmove(buf + at + n, buf + at, len - at + 1);
    memcpy(buf + at, digits, n);
}

static void test_exact_halfway_points_round_to_even(void **state)
{
    static const double at[] = {0x1p-1074, 0x1p-1073, 0x1.8p-1073, 0x1p-1022, 0x1.fffffffffffffp-1023,
                                1.0, 0x1p53, 1e23, 8.98846567431158e307, DBL_MAX};
    char buf[1200];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof at / sizeof at[0]; i++) {
        if (halfway_text(buf, sizeof buf, at[i], 780) < 0)
            skip();
        assert_same_as_strtod(buf);
        /* a nonzero digit far past the 769 a tie can need still breaks it upwards */
        insert_before_exponent(buf, sizeof buf, "000000000000000000000000000000000000001");
        assert_same_as_strtod(buf);
        buf[0] = '-'; /* the same tie, but negative */
        halfway_text(buf + 1, sizeof buf - 1, at[i], 780);
        assert_same_as_strtod(buf);
    }
    /* the tie below the least subnormal rounds to 0 (even), just above it to 2^-1074 */
    halfway_text(buf, sizeof buf, 0.0, 780);
    assert_reads_as(buf, 0.0);
    insert_before_exponent(buf, sizeof buf, "000001");
    assert_reads_as(buf, 0x1p-1074);
}

static void test_eight_hundred_digit_mantissas_agree_with_strtod(void **state)
{
    uint64_t seed = 800;
    char buf[900];
    int round, i;

    (void)state;
    for (round = 0; round < 200; round++) {
        buf[0] = (char)('1' + next_random(&seed) % 9);
        buf[1] = '.';
        for (i = 2; i < 802; i++)
            buf[i] = (char)('0' + next_random(&seed) % 10);
        if (round % 4 == 0) /* a long run of zeros or nines behind a short prefix */
            memset(buf + 20, round % 8 ? '9' : '0', 780);
        snprintf(buf + 802, sizeof buf - 802, "e%d", (int)(next_random(&seed) % 700) - 350);
        assert_same_as_strtod(buf);
    }
}

static void test_text_without_a_number_gives_null(void **state)
{
    static const char *const none[] = {"", ".", "+", "-", "+.", "e5", ".e1", "-.e1", " 1",
                                       "inf", "nan", "-inf", ("\xe2\x88\x92" "1"), "x1"};
    char text[100];
    double x = 42;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof none / sizeof none[0]; i++) {
        assert_null(as_strtod_fast(none[i], none[i] + strlen(none[i]), &x));
        snprintf(text, sizeof text, "%s%s", none[i], padding); /* with text after it */
        assert_null(as_strtod_fast(text, text + strlen(text), &x));
    }
    assert_true(x == 42); /* untouched */
    assert_null(as_strtod_fast(NULL, NULL, &x));
}

static void test_hexadecimal_text_reads_only_its_leading_zero(void **state)
{
    const char *s = "0x1p3";
    double x = 1;

    (void)state;
    assert_ptr_equal(as_strtod_fast(s, s + 5, &x), s + 1);
    assert_true(x == 0.0);
}

static void test_reading_stops_at_the_given_end(void **state)
{
    /* the bytes after end are digits and an exponent: they must not be read */
    const char text[] = "12345.678e9";
    double x = 0;

    (void)state;
    assert_ptr_equal(as_strtod_fast(text, text + 3, &x), text + 3);
    assert_true(x == 123.0);
    assert_ptr_equal(as_strtod_fast(text, text + 8, &x), text + 8);
    assert_true(x == 12345.67);
    assert_ptr_equal(as_strtod_fast(text, text + 10, &x), text + 9); /* "e" without digits */
    assert_true(x == 12345.678);
}

/* ------------------------------------------------------------------------------ */
/* Random strings of several shapes                                                  */
/* ------------------------------------------------------------------------------ */

static double random_finite(uint64_t *seed)
{
    double x;

    do
        x = double_of(next_random(seed));
    while (!isfinite(x));
    return x;
}

/* Random digits: sign, up to 24 integer and 24 fraction digits, maybe an exponent. */
static void random_digits(char *buf, size_t size, uint64_t *seed)
{
    const uint64_t r = next_random(seed);
    size_t n = 0, i, ni = r % 25, nf = (r >> 8) % 25;

    if (r >> 16 & 1)
        buf[n++] = (r >> 17 & 1) ? '-' : '+';
    if (ni + nf == 0)
        ni = 1;
    for (i = 0; i < ni; i++)
        buf[n++] = (char)('0' + next_random(seed) % 10);
    if (nf > 0 || (r >> 18 & 1))
        buf[n++] = '.';
    for (i = 0; i < nf; i++)
        buf[n++] = (char)('0' + next_random(seed) % 10);
    buf[n] = '\0';
    if (r >> 19 & 1)
        snprintf(buf + n, size - n, "%c%d", (r >> 20 & 1) ? 'e' : 'E',
                 (int)((r >> 24) % 700) - 350);
}

/* Near a tie: the exact midpoint, or the long doubles either side of it, cut to a
 * random number of digits (or not at all). */
static void random_near_tie(char *buf, size_t size, uint64_t *seed)
{
    const uint64_t r = next_random(seed);
    double x = random_finite(seed);
    static const int digits[] = {15, 16, 17, 18, 19, 20, 22, 25, 30, 40};
    const int d = (r & 63) == 0 ? 780 : digits[(r >> 6) % 10];
#if LDBL_MANT_DIG >= 64
    long double up, mid;

    if (r >> 10 & 1) /* subnormals half of the time */
        x = double_of(next_random(seed) & 0x800FFFFFFFFFFFFFu);
    up = isinf(nextafter(x, INFINITY)) ? ldexpl(1, 1024) : (long double)nextafter(x, INFINITY);
    mid = ((long double)x + up) / 2;
    if (r >> 11 & 1)
        mid = nextafterl(mid, (r >> 12 & 1) ? 0.0L : (long double)INFINITY);
    snprintf(buf, size, "%.*Le", d, mid);
#else
    snprintf(buf, size, "%.*e", d, x);
#endif
}

/* One random string of the shape picked by k. */
static void random_string(char *buf, size_t size, unsigned k, uint64_t *seed)
{
    switch (k) {
    case 0: /* what numpy.savetxt writes */
        snprintf(buf, size, "%.18e", random_finite(seed));
        break;
    case 1: /* shortest-ish round trips and fewer digits */
        snprintf(buf, size, "%.*g", (int)(next_random(seed) % 17) + 1, random_finite(seed));
        break;
    case 2:
        random_digits(buf, size, seed);
        break;
    case 3:
        random_near_tie(buf, size, seed);
        break;
    case 4: /* subnormals, to a random number of digits */
        snprintf(buf, size, "%.*e", (int)(next_random(seed) % 25),
                 double_of(next_random(seed) & 0x800FFFFFFFFFFFFFu));
        break;
    case 5: /* ordinary magnitudes, as weights and activations are */
        snprintf(buf, size, "%.*f", (int)(next_random(seed) % 20),
                 (double)(int64_t)next_random(seed) / 9.3e15);
        break;
    default: /* integers around 2^53 .. 2^64 */
        snprintf(buf, size, "%llu", (unsigned long long)(next_random(seed) >> (next_random(seed) % 12)));
        break;
    }
}

/* What may follow a number in a text: delimiters, and bytes that go on with it or
 * cut it short ("1.5" + "e" + " ": the number is "1.5"; + "5": it goes on). */
static const char *random_after(uint64_t *seed)
{
    static const char *const after[] = {"", ",", "\n", "\r\n", "\t", "#", "]", "/", ";",
                                        "e", "E", ".", "+", "-", "e+", "e-;", "e12", "E-7",
                                        "5", "0", ".5", "0000000000000000000001", "e0000009"};

    return after[next_random(seed) % (sizeof after / sizeof after[0])];
}

static void test_random_strings_agree_with_strtod(void **state)
{
    uint64_t seed = 20240611;
    unsigned long long i, bad = 0;
    char buf[1200];

    (void)state;
    for (i = 0; i < fuzz_n; i++) {
        random_string(buf, sizeof buf, (unsigned)(i % 7), &seed);
        if (differs_from_strtod_after(buf, random_after(&seed)) && ++bad >= 10)
            break;
    }
    if (bad > 0)
        fail_msg("%llu of %llu strings differ from strtod", bad, i);
    printf("[ fuzz     ] %llu random strings agree with strtod bit for bit\n", fuzz_n);
}

/* Rows of random numbers split by random gaps: as_strtod_fast_spaced reads the numbers up to
 * the first gap that is not spaces alone (or up to most of them), each the double strtod
 * gives, and stops just past the last one read. */
static void test_spaced_numbers_stop_at_the_first_other_gap(void **state)
{
    static const char *const gaps[] = {" ", " ", " ", "   ", " ,", "\t", "\n", " \n", ", "};
    uint64_t seed = 77;
    char text[4096], number[1200];
    double got[40], want[40];
    size_t starts[40], ends[40], len, n, i, k, expect, most;
    const char *stop;
    int round;

    (void)state;
    for (round = 0; round < 3000; round++) {
        n = 1 + next_random(&seed) % 30;
        len = 0;
        expect = 0;
        for (i = 0; i < n; i++) {
            const char *gap = gaps[next_random(&seed) % (sizeof gaps / sizeof gaps[0])];
            random_string(number, sizeof number, (unsigned)(next_random(&seed) % 7), &seed);
            if (len + strlen(number) + 4 >= sizeof text - sizeof padding)
                break;
            starts[i] = len;
            want[i] = strtod(number, NULL);
            memcpy(text + len, number, strlen(number));
            len += strlen(number);
            ends[i] = len;
            if (expect == 0 && strspn(gap, " ") != strlen(gap))
                expect = i + 1; /* the first gap that is not spaces alone */
            memcpy(text + len, gap, strlen(gap));
            len += strlen(gap);
        }
        n = i;
        memcpy(text + len, padding + 1, sizeof padding - 1); /* ends in "\n" and a NUL */
        if (expect == 0 || expect > n) /* spaces alone: it would go on into the padding */
            most = expect = n;
        else /* room for more: the gap must stop it */
            most = sizeof got / sizeof got[0];
        if (next_random(&seed) % 4 == 0 && expect > 1)
            most = expect = expect - 1; /* stopped by most */
        k = as_strtod_fast_spaced(text, text + len + sizeof padding - 2, got, most, &stop);
        if (k != expect || stop != text + ends[expect - 1]) {
            print_error("round %d: read %zu of %zu, stopped at %td, not %zu: \"%.200s\"\n", round,
                        k, expect, stop - text, ends[expect - 1], text);
            fail();
        }
        for (i = 0; i < k; i++)
            if (bits_of(got[i]) != bits_of(want[i])) {
                print_error("number %zu at %zu: %a, strtod %a\n", i, starts[i], got[i], want[i]);
                fail();
            }
    }
}

/* ------------------------------------------------------------------------------ */
/* Hard products, read by every path                                                */
/* ------------------------------------------------------------------------------ */

/* The numbers as_strtod_fast_spaced should read from text, found with strtod alone:
 * each number, then one or more spaces and another number, up to most of them; *stop
 * just past the last. */
static size_t spaced_by_strtod(const char *text, double *want, size_t most, const char **stop)
{
    const char *p = text;
    size_t n = 0;
    char *e;

    *stop = text;
    while (n < most && *p != '\0' && *p != ' ') {
        want[n] = strtod(p, &e);
        if (e == p)
            break;
        n++;
        *stop = p = e;
        if (*p != ' ')
            break;
        p += strspn(p, " ");
    }
    return n;
}

/* text read as a row by as_strtod_fast_spaced: as many numbers, the same doubles bit for
 * bit and the same stop as strtod gives, and at least `least` numbers. */
static void assert_row_as_strtod(const char *text, size_t least)
{
    double got[8], want[8];
    const char *stop, *want_stop;
    const size_t len = strlen(text), k = as_strtod_fast_spaced(text, text + len, got, 8, &stop),
                 n = spaced_by_strtod(text, want, 8, &want_stop);
    size_t i;

    if (k != n || stop != want_stop || n < least) {
        print_error("\"%s\": read %zu numbers up to %td, strtod %zu up to %td\n", text, k,
                    stop - text, n, want_stop - text);
        fail();
    }
    for (i = 0; i < n; i++)
        if (bits_of(got[i]) != bits_of(want[i])) {
            print_error("\"%s\": number %zu is %a, strtod %a\n", text, i, got[i], want[i]);
            fail();
        }
}

/* w * 10^q written every way a file may hold it, each read as strtod reads it: as a
 * bare integer with an exponent (the general path), as %.Ne writes it in a text and in
 * a row of numbers (the straight paths), and with a nonzero digit after its 19 digits
 * (more than 19: the first 19 are w, or w - 1 with w the one above). */
static void assert_every_path_agrees(uint64_t w, int q)
{
    char digits[24], one[40], buf[200];
    const int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)w);

    snprintf(buf, sizeof buf, "%se%d", digits, q);
    assert_same_as_strtod(buf);
    snprintf(one, sizeof one, "%c%s%se%d", digits[0], n > 1 ? "." : "", digits + 1, q + n - 1);
    assert_same_as_strtod(one);
    snprintf(buf, sizeof buf, "%s %s   -%s 1", one, one, one);
    assert_row_as_strtod(buf, 4);
    if (n == 19) {
        snprintf(buf, sizeof buf, "%s1e%d", digits, q - 1);
        assert_same_as_strtod(buf);
        snprintf(buf, sizeof buf, "%llu7e%d", (unsigned long long)(w - 1), q - 1);
        assert_same_as_strtod(buf);
    }
}

#if defined(__SIZEOF_INT128__)
/* The 19-digit w (2^63 <= w < 10^19, so not shifted) whose product with the table's
 * entry for 5^q, with its correction from the entry's low word, has a low word of all
 * ones, as the Eisel-Lemire method computes it: w * high = -1 (mod 2^64), w the inverse
 * of an odd high word, negated. 0 when there is none. */
static uint64_t all_ones_below(int q)
{
    __extension__ typedef unsigned __int128 u128;
    const uint64_t *p5 = pow5_128[q - POW5_MIN_Q];
    uint64_t inv = p5[0], w, hi, lo, hi2;
    int i;

    if ((p5[0] & 1) == 0)
        return 0;
    for (i = 0; i < 6; i++) /* Newton: each step doubles the bits of the inverse */
        inv *= 2 - p5[0] * inv;
    w = -inv;
    if (w < (uint64_t)1 << 63 || w >= 10000000000000000000u)
        return 0;
    hi = (uint64_t)(((u128)w * p5[0]) >> 64);
    lo = (uint64_t)((u128)w * p5[0]);
    hi2 = (hi & 0x1FF) == 0x1FF ? (uint64_t)(((u128)w * p5[1]) >> 64) : 0;
    return lo + hi2 == UINT64_MAX && hi2 <= lo ? w : 0;
}
#endif

/* A product whose low word is all ones may hide a carry from the bits of 5^q past the
 * table's 128 (where 5^q is not exact: q < -27 or q > 55), so the answer is left to
 * strtod; within that range it is exact and decided. Each path reads these as strtod. */
static void test_products_that_may_hide_a_carry_agree_with_strtod(void **state)
{
#if defined(__SIZEOF_INT128__)
    int q, below = 0, exact = 0, above = 0;

    (void)state;
    for (q = POW5_MIN_Q; q <= POW5_MAX_Q; q++) {
        const uint64_t w = all_ones_below(q);
        if (w == 0)
            continue;
        assert_every_path_agrees(w, q);
        below += q < -27, exact += q >= -27 && q <= 55, above += q > 55;
    }
    /* at least one of each kind, or the test would prove nothing */
    assert_true(below > 0 && exact > 0 && above > 0);
#else
    (void)state;
    skip();
#endif
}

/* Exact ties at a small exponent (the product is exact: a tie is seen and goes to even)
 * and values just above them, as 19-digit integers m * 2^11 + 2^10 + s (a 53-bit
 * mantissa m, its half unit 2^10, and s of the 10 bits below), and the same around
 * 2^63 times powers of ten. */
static void test_ties_and_near_ties_at_small_exponents_agree_with_strtod(void **state)
{
    static const uint64_t below_half[] = {0, 2, 4, 512, 1022, 1023};
    const uint64_t top = 10000000000000000000u;
    uint64_t seed = 63, m;
    double x;
    char one[40], buf[100];
    int round, q;
    size_t i;

    (void)state;
    for (round = 0; round < 40; round++) {
        /* 2^52 <= m < 10^19 / 2^11 - 1: the integer has 64 bits and 19 digits */
        m = ((uint64_t)1 << 52) + next_random(&seed) % (top / 2048 - 1 - ((uint64_t)1 << 52));
        for (i = 0; i < sizeof below_half / sizeof below_half[0]; i++)
            assert_every_path_agrees(m * 2048 + 1024 + below_half[i], 0);
    }
    for (q = -40; q <= 40; q++) { /* 2^63 = 9223372036854775808 as w, and as w + 1 */
        assert_every_path_agrees((uint64_t)1 << 63, q);
        assert_every_path_agrees(((uint64_t)1 << 63) + 1, q);
    }
    /* rounding up carries into the next power of two */
    assert_every_path_agrees(19999999999999999u, -16);
    assert_every_path_agrees(9999999999999999999u, -19);
    assert_every_path_agrees(9999999999999999999u, 290);
    assert_reads_as("1.9999999999999999", 2.0);
    /* the exact midpoints of doubles from 2^49 (4 binary places, 19 digits) to 2^63 */
    for (round = 0; round < 60; round++) {
        x = ldexp(1 + (double)(next_random(&seed) >> 12) * 0x1p-52, 49 + round % 14);
        if (halfway_text(one, sizeof one, x, 18) < 0)
            skip();
        assert_same_as_strtod(one);
        snprintf(buf, sizeof buf, "%s %s 0", one, one);
        assert_row_as_strtod(buf, 3);
    }
}

/* Rows whose numbers the straight path leaves to the general one (an exponent of one
 * digit or of 3 to 8 digits, "e" with no digits, a leading '+'), and rows that end in
 * spaces: read as strtod reads them, stopping just past the last number. */
static void test_rows_of_unusual_numbers_agree_with_strtod(void **state)
{
    static const struct {
        const char *text;
        size_t least;
    } rows[] = {
        {"1.5e5 2.25e-3 3.125e123 -4.5e-00000012 +5.0e00000012 6.0E+7 7", 7},
        {"+1.000000000000000001e-5 +1e+0 -1.23456789012345678901e2 8e0000 9", 5},
        {"1.5e+x 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5", 1},
        {"1.5ex 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5", 1},
        {"1.5e 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5", 1},
        {"1.5e- 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5", 1},
        {"1.25 ", 1},
        {"1.25 2.5    ", 2},
        {"0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0", 8}, /* most = 8 */
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_row_as_strtod(rows[i].text, rows[i].least);
}

int main(void)
{
    const char *n = getenv("ATTNSTEP_FUZZ_N");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_power_of_five_in_the_table_is_exact),
        cmocka_unit_test(test_values_with_known_bits_are_read_exactly),
        cmocka_unit_test(test_edge_cases_agree_with_strtod),
        cmocka_unit_test(test_exact_halfway_points_round_to_even),
        cmocka_unit_test(test_eight_hundred_digit_mantissas_agree_with_strtod),
        cmocka_unit_test(test_text_without_a_number_gives_null),
        cmocka_unit_test(test_hexadecimal_text_reads_only_its_leading_zero),
        cmocka_unit_test(test_reading_stops_at_the_given_end),
        cmocka_unit_test(test_random_strings_agree_with_strtod),
        cmocka_unit_test(test_spaced_numbers_stop_at_the_first_other_gap),
        cmocka_unit_test(test_products_that_may_hide_a_carry_agree_with_strtod),
        cmocka_unit_test(test_ties_and_near_ties_at_small_exponents_agree_with_strtod),
        cmocka_unit_test(test_rows_of_unusual_numbers_agree_with_strtod),
    };

    if (n != NULL && *n != '\0')
        fuzz_n = strtoull(n, NULL, 10);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
