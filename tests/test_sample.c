/* test_sample.c - the steps from the last row to the next token (SPEC §19) against the
 * SPEC's printed numbers, hand calculation, and brute force: temperature, top-k (ties in
 * index order), top-p (the crossing token kept), greedy, the uniform number (splitmix64
 * computed independently in Python once: seed 42 gives 0.7415648787718233) and the
 * inverse-CDF draw. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "attnstep/sample.h"
#include "attnstep/steps.h"

/* softmax of one row of n, through the chapter's step */
static void softmax(double *a, const double *s, size_t n)
{
    assert_int_equal(as_softmax_rows(a, NULL, NULL, NULL, NULL, s, 1, n), -1);
}

/* each of got[n] within half a unit of the 10th place of the printed want[n] */
static void assert_printed(const double *got, const double *want, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= 0.5e-10))
            fail_msg("cell %zu: %.12f, printed %.10f", i, got[i], want[i]);
}

static void test_temperature_one_and_a_half_give_the_spec_numbers(void **state)
{
    const double logits[3] = {2, 1, 0};
    const double t1[3] = {0.6652409558, 0.2447284711, 0.0900305732};
    const double t05[3] = {0.8668133322, 0.1173104278, 0.0158762400};
    double scaled[3], a[3];

    (void)state;
    as_temperature(scaled, logits, 3, 1);
    softmax(a, scaled, 3);
    assert_printed(a, t1, 3);
    as_temperature(scaled, logits, 3, 0.5);
    assert_true(scaled[0] == 4 && scaled[1] == 2 && scaled[2] == 0);
    softmax(a, scaled, 3);
    assert_printed(a, t05, 3);
}

static void test_top_k_two_keeps_the_two_largest(void **state)
{
    const double logits[3] = {2, 1, 0};
    const double want[3] = {0.7310585786, 0.2689414214, 0};
    double kept[3], a[3];
    size_t order[6];

    (void)state;
    as_top_k(kept, logits, 3, 2, order);
    assert_true(kept[0] == 2 && kept[1] == 1 && kept[2] == -INFINITY);
    softmax(a, kept, 3);
    assert_printed(a, want, 3);
    assert_true(a[2] == 0);
}

static void test_top_k_keeps_ties_in_index_order(void **state)
{
    const double x[5] = {0, 1, 1, 1, -2};
    double kept[5];
    size_t order[10];

    (void)state;
    as_top_k(kept, x, 5, 2, order);
    assert_true(kept[0] == -INFINITY && kept[1] == 1 && kept[2] == 1 && kept[3] == -INFINITY &&
                kept[4] == -INFINITY);
    as_top_k(kept, x, 5, 9, order); /* k beyond n keeps every token */
    assert_true(kept[0] == 0 && kept[4] == -2);
}

static void test_top_p_keeps_the_token_that_crosses_p(void **state)
{
    const double logits[3] = {2, 1, 0};
    double a[3], kept[3], cum[3];
    size_t order[6];

    (void)state;
    softmax(a, logits, 3);
    assert_int_equal(as_top_p(kept, order, cum, logits, a, 3, 0.9), 2); /* {0, 1} */
    assert_true(order[0] == 0 && order[1] == 1 && order[2] == 2);
    assert_true(fabs(cum[1] - (0.6652409558 + 0.2447284711)) < 1e-9 && cum[0] < 0.9 &&
                cum[1] >= 0.9);
    assert_true(kept[0] == 2 && kept[1] == 1 && kept[2] == -INFINITY);
    assert_int_equal(as_top_p(kept, order, cum, logits, a, 3, 0.5), 1); /* the first crosses */
    assert_true(kept[1] == -INFINITY);
    /* the named mistake topp_drops_crossing: 0.665 < 0.9 kept, 0.910 >= 0.9 dropped */
    assert_int_equal(as_top_p_drop_crossing(kept, order, cum, logits, a, 3, 0.9), 1);
    assert_true(kept[0] == 2 && kept[1] == -INFINITY && kept[2] == -INFINITY);
    assert_int_equal(as_top_p_drop_crossing(kept, order, cum, logits, a, 3, 0.5), 0);
}

static void test_top_p_reached_exactly_stops_there(void **state)
{
    const double probs[4] = {0.25, 0.5, 0.25, 0}, x[4] = {1, 2, 1, -INFINITY};
    double kept[4], cum[4];
    size_t order[8];

    (void)state;
    /* sorted: 1 (0.5), 0 (0.25), 2 (0.25), 3 (0): 0.5 + 0.25 reaches 0.75 exactly */
    assert_int_equal(as_top_p(kept, order, cum, x, probs, 4, 0.75), 2);
    assert_true(order[0] == 1 && order[1] == 0 && order[2] == 2 && order[3] == 3);
    assert_true(kept[1] == 2 && kept[0] == 1 && kept[2] == -INFINITY);
    assert_int_equal(as_top_p(kept, order, cum, x, probs, 4, 1.5), 3); /* never a 0 */
    assert_true(kept[3] == -INFINITY);
}

/* the k largest of a vocabulary by brute force (equal values by index), against as_top_k */
static void test_top_k_over_a_vocabulary_equals_brute_force(void **state)
{
    enum { N = 50257, K = 40 };
    double *x = malloc(N * sizeof *x), *kept = malloc(N * sizeof *kept);
    size_t *order = malloc(2 * N * sizeof *order), i, j, shown = 0;
    uint64_t s = 7;

    (void)state;
    assert_non_null(x);
    assert_non_null(kept);
    assert_non_null(order);
    for (i = 0; i < N; i++) { /* whole numbers in [0, 999]: many ties */
        s = s * 6364136223846793005u + 1442695040888963407u;
        x[i] = (double)((s >> 33) % 1000);
    }
    as_top_k(kept, x, N, K, order);
    for (i = 0; i < N; i++) {
        size_t ahead = 0;
        for (j = 0; j < N && ahead < K; j++)
            ahead += x[j] > x[i] || (x[j] == x[i] && j < i);
        assert_true(ahead < K ? kept[i] == x[i] : kept[i] == -INFINITY);
        shown += ahead < K;
    }
    assert_int_equal(shown, K);
    free(x);
    free(kept);
    free(order);
}

static void test_greedy_takes_the_first_largest(void **state)
{
    const double x[4] = {1, 3, 3, -INFINITY};

    (void)state;
    assert_int_equal(as_greedy(x, 4), 1);
    assert_int_equal(as_greedy(x, 1), 0);
}

static void test_the_seeded_draw_walks_the_cdf(void **state)
{
    const double logits[3] = {2, 1, 0};
    double a[3], cum[3], u;
    as_prng g;

    (void)state;
    as_prng_seed(&g, 42);
    u = as_uniform(&g);
    assert_true(u == 0.7415648787718233); /* splitmix64(42) >> 11, times 2^-53 (Python) */
    softmax(a, logits, 3);
    assert_int_equal(as_draw(cum, a, 3, u), 1); /* 0.665 <= u < 0.910 */
    assert_true(cum[0] == a[0] && cum[1] == a[0] + a[1]);
    assert_int_equal(as_draw(cum, a, 3, 0), 0);
    assert_int_equal(as_draw(cum, a, 3, 0.6652409557), 0);
    assert_int_equal(as_draw(cum, a, 3, 0.95), 2);
}

static void test_the_draw_never_takes_a_token_cut_away(void **state)
{
    const double probs[4] = {0, 0.5, 0.5, 0};
    double cum[4];

    (void)state;
    assert_int_equal(as_draw(cum, probs, 4, 0), 1);
    assert_int_equal(as_draw(cum, probs, 4, 0.5), 2);
    assert_int_equal(as_draw(cum, probs, 4, 1 - 0x1p-53), 2); /* never the last, cut */
    {
        const double short_sum[2] = {0.5, 0.4999999}; /* rounding left the sum under u */
        assert_int_equal(as_draw(cum, short_sum, 2, 0.99999995), 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_temperature_one_and_a_half_give_the_spec_numbers),
        cmocka_unit_test(test_top_k_two_keeps_the_two_largest),
        cmocka_unit_test(test_top_k_keeps_ties_in_index_order),
        cmocka_unit_test(test_top_p_keeps_the_token_that_crosses_p),
        cmocka_unit_test(test_top_p_reached_exactly_stops_there),
        cmocka_unit_test(test_top_k_over_a_vocabulary_equals_brute_force),
        cmocka_unit_test(test_greedy_takes_the_first_largest),
        cmocka_unit_test(test_the_seeded_draw_walks_the_cdf),
        cmocka_unit_test(test_the_draw_never_takes_a_token_cut_away),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
