/* test_expvec.c - as_exp_many() against libm's exp(), bit for bit: the softmax loops
 * exponentiate through it, and the stored golden outputs were made with exp(). Over
 * ten million inputs (random over [-745, 1], over [-50, 0] where softmax lives, dense
 * near 0, results in the subnormal range), every power of two of either sign, zeros,
 * infinities, NaN, the edges of glibc's main range (2^-54, 512) and of its results
 * (overflow, underflow, subnormals), counts that are no multiple of four, unaligned
 * and in place; each on both paths: four lanes (AVX2 + FMA) and exp() per element. */
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

#include "attnstep/expvec.h"

/* splitmix64: the same numbers on every run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* a double uniform in [0, 1) */
static double unit(uint64_t *state)
{
    return (double)(next_random(state) >> 11) * 0x1p-53;
}

/* as_exp_many(in[count]) against exp() of each, bit for bit, naming the first miss */
static void assert_exp_bits(const double *in, size_t count)
{
    double *out = malloc((count ? count : 1) * sizeof *out);
    size_t i;

    assert_non_null(out);
    as_exp_many(out, in, count);
    for (i = 0; i < count; i++) {
        const double want = exp(in[i]);
        if (memcmp(&out[i], &want, sizeof want) != 0) {
            print_error("exp(%a) = %a on path %d, libm gives %a\n", in[i], out[i],
                        as_exp_simd(-1), want);
            free(out);
            fail();
        }
    }
    free(out);
}

/* The check on both paths: four lanes where the machine has them, then exp() alone. */
static void assert_exp_bits_both(const double *in, size_t count)
{
    as_exp_simd(1);
    assert_exp_bits(in, count);
    as_exp_simd(0);
    assert_exp_bits(in, count);
    as_exp_simd(1);
}

typedef double draw_fn(uint64_t *state);

static double wide(uint64_t *s) { return -745.0 + 746.0 * unit(s); }
static double softmax_range(uint64_t *s) { return -50.0 * unit(s); }
static double subnormal_results(uint64_t *s) { return -745.2 + 37.2 * unit(s); }

/* |x| from 2^-60 to 2: the exponent uniform, then the digits, either sign */
static double near_zero(uint64_t *s)
{
    const uint64_t r = next_random(s);
    const double x = ldexp(1.0 + unit(s), -60 + (int)(r % 62));
    return (r >> 32 & 1) ? -x : x;
}

/* count inputs drawn by draw, in chunks of 2^16 */
static void check_drawn(draw_fn *draw, size_t count, uint64_t seed)
{
    const size_t chunk = 1u << 16;
    double *in = malloc(chunk * sizeof *in);
    size_t done, i;

    assert_non_null(in);
    for (done = 0; done < count; done += chunk) {
        for (i = 0; i < chunk; i++)
            in[i] = draw(&seed);
        assert_exp_bits_both(in, chunk);
    }
    free(in);
}

/* count, or the number in ATTNSTEP_EXP_INPUTS when set: the long check by hand,
 * ATTNSTEP_EXP_INPUTS=1000000000 build/tests/test_expvec (each random range that many) */
static size_t inputs(size_t count)
{
    const char *env = getenv("ATTNSTEP_EXP_INPUTS");

    return env != NULL && *env != '\0' ? (size_t)strtoull(env, NULL, 10) : count;
}

static void test_random_over_the_whole_range(void **state)
{
    (void)state;
    check_drawn(wide, inputs(4u << 20), 1);
}

static void test_random_over_the_softmax_range(void **state)
{
    (void)state;
    check_drawn(softmax_range, inputs(3u << 20), 2);
}

static void test_random_near_zero(void **state)
{
    (void)state;
    check_drawn(near_zero, inputs(2u << 20), 3);
}

static void test_random_subnormal_results(void **state)
{
    (void)state;
    check_drawn(subnormal_results, inputs(1u << 20), 4);
}

static void test_every_power_of_two(void **state)
{
    double *in = malloc(2 * 2098 * sizeof *in);
    size_t count = 0;
    int e;

    (void)state;
    assert_non_null(in);
    for (e = -1074; e <= 1023; e++) {
        in[count++] = ldexp(1.0, e);
        in[count++] = -ldexp(1.0, e);
    }
    assert_exp_bits_both(in, count);
    free(in);
}

/* zeros, infinities, NaN, the largest and smallest doubles, and the two sides of each
 * edge: glibc's main range (2^-54 <= |x| < 512, 1024), overflow, the first subnormal
 * result, underflow to 0 */
static void test_special_values_and_edges(void **state)
{
    static const double edge[] = {0x1p-54, 512.0, 1024.0, 0x1.62e42fefa39efp9,
                                  -0x1.6232bdd7abcd2p9, -0x1.74910d52d3051p9,
                                  -0x1.74385446d71c3p9, 709.0, -708.0, -745.0, -1.0, 1.0};
    double in[8 + 6 * sizeof edge / sizeof edge[0]];
    size_t count = 0, i;

    (void)state;
    in[count++] = 0.0, in[count++] = -0.0, in[count++] = INFINITY, in[count++] = -INFINITY;
    in[count++] = NAN, in[count++] = -NAN, in[count++] = DBL_MAX, in[count++] = DBL_TRUE_MIN;
    for (i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        const double x = edge[i];
        in[count++] = x, in[count++] = nextafter(x, -INFINITY), in[count++] = nextafter(x, INFINITY);
        in[count++] = -x, in[count++] = nextafter(-x, -INFINITY), in[count++] = nextafter(-x, INFINITY);
    }
    assert_exp_bits_both(in, count);
}

/* counts 0 to 13 at each start 0 to 3 (no multiple of four, unaligned), the softmax
 * row's own mix of a 0, -inf and negatives; then in place */
static void test_short_unaligned_and_in_place_rows(void **state)
{
    double row[17], out[17], want[17];
    uint64_t seed = 5;
    size_t start, count, i;

    (void)state;
    for (i = 0; i < 17; i++)
        row[i] = i % 5 == 3 ? -INFINITY : i % 7 == 0 ? 0.0 : -30.0 * unit(&seed);
    for (start = 0; start < 4; start++)
        for (count = 0; count <= 13; count++)
            assert_exp_bits_both(row + start, count);
    for (i = 0; i < 17; i++)
        want[i] = exp(row[i]);
    memcpy(out, row, sizeof row);
    as_exp_many(out + 1, out + 1, 15);
    assert_memory_equal(out + 1, want + 1, 15 * sizeof(double));
    assert_memory_equal(out, row, sizeof(double));   /* nothing written outside */
    assert_memory_equal(out + 16, row + 16, sizeof(double));
}

/* On x86-64 with glibc, a processor with AVX2 and FMA takes the four-lane path: were its
 * check against exp() at start-up to fail, the path would be turned off unseen. */
static void test_the_four_lane_path_is_taken_where_it_can_be(void **state)
{
    (void)state;
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        assert_int_equal(as_exp_simd(1), 1);
#endif
    assert_int_equal(as_exp_simd(0), 0);
    as_exp_simd(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_over_the_whole_range),
        cmocka_unit_test(test_random_over_the_softmax_range),
        cmocka_unit_test(test_random_near_zero),
        cmocka_unit_test(test_random_subnormal_results),
        cmocka_unit_test(test_every_power_of_two),
        cmocka_unit_test(test_special_values_and_edges),
        cmocka_unit_test(test_short_unaligned_and_in_place_rows),
        cmocka_unit_test(test_the_four_lane_path_is_taken_where_it_can_be),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
