/* test_positions.c - the position steps (SPEC §12) against hand calculation: each
 * expected value below is worked out in the comment beside it, from the formulas of the
 * papers, not from the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "attnstep/positions.h"
#include "test_util.h"

static void test_sinusoidal_position_zero_is_sin_zero_cos_zero(void **state)
{
    double pe[6];
    size_t c;

    (void)state;
    as_sinusoidal(pe, 1, 6, 0);
    for (c = 0; c < 6; c++)
        assert_close(pe[c], c % 2 == 0 ? 0.0 : 1.0, 0); /* sin 0 = 0, cos 0 = 1 */
}

static void test_sinusoidal_pairs_share_a_frequency(void **state)
{
    double pe[2 * 4];

    (void)state;
    as_sinusoidal(pe, 2, 4, 2); /* positions 2 and 3, d = 4: frequencies 1 and 1/100 */
    assert_close(pe[0], sin(2.0), 1e-15);
    assert_close(pe[1], cos(2.0), 1e-15);
    assert_close(pe[2], sin(0.02), 1e-15); /* 2 / 10000^(2/4) = 2/100 */
    assert_close(pe[3], cos(0.02), 1e-15);
    assert_close(pe[4 + 2], sin(0.03), 1e-15);
}

static void test_sinusoidal_odd_width_ends_on_a_sine(void **state)
{
    double pe[3];

    (void)state;
    as_sinusoidal(pe, 1, 3, 1); /* d = 3: column 2 is sin(1 / 10000^(2/3)) */
    assert_close(pe[2], sin(1.0 / pow(10000.0, 2.0 / 3.0)), 1e-15);
}

static void test_rope_theta_is_base_to_minus_two_i_over_d(void **state)
{
    (void)state;
    assert_close(as_rope_theta(0, 8, 10000), 1.0, 0);
    assert_close(as_rope_theta(1, 4, 10000), 0.01, 1e-18);  /* 10000^(-2/4) */
    assert_close(as_rope_theta(2, 8, 10000), 0.01, 1e-18);  /* 10000^(-4/8) */
    assert_close(as_rope_theta(1, 2 * 3, 8), 0.5, 1e-16);   /* 8^(-2/6) = 1/2 */
}

static void test_rope_turns_the_chapter_query_by_one_radian(void **state)
{
    /* F11's q1 = [1, 0] at position 1, d_k = 2: one pair, θ0 = 1, angle 1 */
    const double q[2] = {1, 0};
    double out[2];

    (void)state;
    as_rope(out, q, 1, 2, 10000, AS_ROPE_HALF, 1);
    assert_close(out[0], cos(1.0), 1e-16);
    assert_close(out[1], sin(1.0), 1e-16);
}

static void test_rope_half_pairs_i_with_i_plus_half(void **state)
{
    const double x[4] = {1, 2, 3, 4};
    double o[4];

    (void)state;
    as_rope(o, x, 1, 4, 10000, AS_ROPE_HALF, 1);
    /* pairs (0,2) at angle 1 and (1,3) at angle 1/100 */
    assert_close(o[0], 1 * cos(1.0) - 3 * sin(1.0), 1e-15);
    assert_close(o[2], 1 * sin(1.0) + 3 * cos(1.0), 1e-15);
    assert_close(o[1], 2 * cos(0.01) - 4 * sin(0.01), 1e-15);
    assert_close(o[3], 2 * sin(0.01) + 4 * cos(0.01), 1e-15);
}

static void test_rope_interleaved_pairs_neighbours(void **state)
{
    const double x[4] = {1, 2, 3, 4};
    double o[4];

    (void)state;
    as_rope(o, x, 1, 4, 10000, AS_ROPE_INTERLEAVED, 1);
    /* pairs (0,1) at angle 1 and (2,3) at angle 1/100 */
    assert_close(o[0], 1 * cos(1.0) - 2 * sin(1.0), 1e-15);
    assert_close(o[1], 1 * sin(1.0) + 2 * cos(1.0), 1e-15);
    assert_close(o[2], 3 * cos(0.01) - 4 * sin(0.01), 1e-15);
    assert_close(o[3], 3 * sin(0.01) + 4 * cos(0.01), 1e-15);
}

static void test_rope_position_zero_changes_nothing(void **state)
{
    const double x[6] = {0.5, -1, 2, 3, -4, 0.25};
    double o[6];
    size_t i;

    (void)state;
    as_rope(o, x, 1, 6, 10000, AS_ROPE_INTERLEAVED, 0);
    for (i = 0; i < 6; i++)
        assert_close(o[i], x[i], 0);
}

/* q at position p and k at position p - 3: their dot product after the rotation depends
 * only on the distance 3 (a rotation by pθ and one by (p−3)θ leave an angle of 3θ). */
static void test_rope_dot_product_depends_only_on_the_distance(void **state)
{
    const double q[4] = {0.3, -1.2, 2.5, 0.7}, k[4] = {-0.8, 0.4, 1.1, -2.0};
    double first = 0, qr[4], kr[4];
    size_t p, i;

    (void)state;
    for (p = 3; p < 200; p += 37) {
        double dot = 0;
        as_rope(qr, q, 1, 4, 10000, AS_ROPE_HALF, p);
        as_rope(kr, k, 1, 4, 10000, AS_ROPE_HALF, p - 3);
        for (i = 0; i < 4; i++)
            dot += qr[i] * kr[i];
        if (p == 3)
            first = dot;
        assert_close(dot, first, 1e-12);
    }
}

static void test_alibi_slopes_of_eight_heads_are_halvings(void **state)
{
    double s[8];
    size_t h;

    (void)state;
    as_alibi_slopes(s, 8); /* 2^(-8/8) = 1/2, then 1/4, ..., 1/256 */
    for (h = 0; h < 8; h++)
        assert_close(s[h], ldexp(1.0, -(int)(h + 1)), 0);
}

static void test_alibi_slopes_of_three_heads_follow_the_paper(void **state)
{
    double s[3];

    (void)state;
    /* get_slopes(3): power of two 2 gives 2^-4, 2^-8; get_slopes(4)[0::2][:1] = 2^-2 */
    as_alibi_slopes(s, 3);
    assert_close(s[0], 0.0625, 0);
    assert_close(s[1], 0.00390625, 0);
    assert_close(s[2], 0.25, 0);
}

static void test_alibi_slopes_of_six_heads_follow_the_paper(void **state)
{
    const double want[6] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
    double s[6];
    size_t h;

    (void)state;
    /* get_slopes(4) = 2^-2, 2^-4, 2^-6, 2^-8; then get_slopes(8)[0::2][:2] = 2^-1, 2^-3 */
    as_alibi_slopes(s, 6);
    for (h = 0; h < 6; h++)
        assert_close(s[h], want[h], 0);
}

static void test_alibi_slope_of_one_head_is_two_to_minus_eight(void **state)
{
    double s[1];

    (void)state;
    as_alibi_slopes(s, 1);
    assert_close(s[0], 1.0 / 256, 0);
}

static void test_alibi_bias_grows_with_the_distance_into_the_past(void **state)
{
    double b[3 * 3];

    (void)state;
    as_alibi_bias(b, 3, 3, 0.5);
    assert_close(b[0], 0, 0);          /* i = j: no bias */
    assert_close(b[1 * 3 + 0], -0.5, 0); /* one step back: -slope */
    assert_close(b[2 * 3 + 0], -1.0, 0); /* two steps back */
    assert_close(b[0 * 3 + 2], 1.0, 0);  /* −slope·(0 − 2): the future, which a causal mask hides */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sinusoidal_position_zero_is_sin_zero_cos_zero),
        cmocka_unit_test(test_sinusoidal_pairs_share_a_frequency),
        cmocka_unit_test(test_sinusoidal_odd_width_ends_on_a_sine),
        cmocka_unit_test(test_rope_theta_is_base_to_minus_two_i_over_d),
        cmocka_unit_test(test_rope_turns_the_chapter_query_by_one_radian),
        cmocka_unit_test(test_rope_half_pairs_i_with_i_plus_half),
        cmocka_unit_test(test_rope_interleaved_pairs_neighbours),
        cmocka_unit_test(test_rope_position_zero_changes_nothing),
        cmocka_unit_test(test_rope_dot_product_depends_only_on_the_distance),
        cmocka_unit_test(test_alibi_slopes_of_eight_heads_are_halvings),
        cmocka_unit_test(test_alibi_slopes_of_three_heads_follow_the_paper),
        cmocka_unit_test(test_alibi_slopes_of_six_heads_follow_the_paper),
        cmocka_unit_test(test_alibi_slope_of_one_head_is_two_to_minus_eight),
        cmocka_unit_test(test_alibi_bias_grows_with_the_distance_into_the_past),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
