/* test_headcheck.c - the output head's named mistakes (SPEC §19) on F09's logits
 * [2, 1, 0] (examples/head.txt's layer: h = [2, 1, 0], Wout the identity), each
 * student's row written to 4 places (so each cell is judged within 0.00005). The
 * expected probabilities by hand:
 *   T = 0.5, P = 0.9: scaled [4, 2, 0], softmax 0.8668, 0.1173, 0.0159 (SPEC); the sum
 *     reaches 0.9 at the second token: {0, 1} kept, softmax([4, 2]) = 1/(1+e^-2) =
 *     0.8808, 0.1192. Dropping the crossing token keeps {0}: [1, 0, 0]. T after the
 *     softmax is T = 1: {0, 1} kept (0.6652 + 0.2447 = 0.9100), 0.7311, 0.2689.
 *   T = 0.5, P = 0.7: right keeps {0} (0.8668 >= 0.7): [1, 0, 0]; the cut before ÷T
 *     sees 0.6652 < 0.7 <= 0.9100, keeps {0, 1}, then ÷T: softmax([4, 2]) = 0.8808,
 *     0.1192 (the crossing token dropped keeps nothing: no way anyone computes).
 *   T = 2, P = 0.9: right keeps all three (0.5065 + 0.3072 < 0.9); the cut before ÷T
 *     and the crossing token dropped both give softmax([1, 0.5]) = 1/(1+e^-0.5) =
 *     0.6225, 0.3775: two fit, none is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/diagnose.h"
#include "attnstep/headcheck.h"
#include "attnstep/session.h"

static const double H[3] = {2, 1, 0}, UNIT[3] = {0.0001, 0.0001, 0.0001}; /* 4 places */

/* The diagnosis of written[3] for head.txt's layer with settings. */
static as_diag diagnose(const char *settings, const double *written)
{
    char text[1024];
    as_session s;
    as_error err;
    as_diag d;

    snprintf(text, sizeof text,
             "X = [[2, 1, 0]]\nWq = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
             "Wk = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\nWv = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
             "head: Wout\nWout = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n%s\n", settings);
    as_error_init(&err, AS_LANG_EN);
    if (as_session_open_text(&s, text, strlen(text), "head.txt", NULL, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(as_head_diagnose(&d, &s.p, H, 3, written, UNIT, -1), 0);
    as_session_free(&s);
    return d;
}

static void test_the_temperature_after_the_softmax_is_named(void **state)
{
    const double w[3] = {0.7311, 0.2689, 0};

    (void)state;
    assert_int_equal(diagnose("temperature: 0.5\ntop_p: 0.9", w), AS_DIAG_TEMPERATURE_AFTER_SOFTMAX);
    assert_string_equal(as_diag_code(AS_DIAG_TEMPERATURE_AFTER_SOFTMAX), "temperature_after_softmax");
    /* with T = 1 the order does not matter: the same numbers are right, no mistake */
    assert_int_equal(diagnose("top_p: 0.9", w), AS_DIAG_NONE);
}

static void test_top_p_without_the_crossing_token_is_named(void **state)
{
    const double w[3] = {1, 0, 0};

    (void)state;
    assert_int_equal(diagnose("temperature: 0.5\ntop_p: 0.9", w), AS_DIAG_TOPP_DROPS_CROSSING);
    assert_string_equal(as_diag_code(AS_DIAG_TOPP_DROPS_CROSSING), "topp_drops_crossing");
}

static void test_the_cut_before_the_temperature_is_named_where_it_matters(void **state)
{
    const double w[3] = {0.8808, 0.1192, 0}, both[3] = {0.6225, 0.3775, 0};

    (void)state;
    assert_int_equal(diagnose("temperature: 0.5\ntop_p: 0.7", w), AS_DIAG_TOPK_BEFORE_TEMPERATURE);
    assert_string_equal(as_diag_code(AS_DIAG_TOPK_BEFORE_TEMPERATURE), "topk_before_temperature");
    /* top-k alone commutes with ÷T (T > 0 keeps the order): nothing to name */
    assert_int_equal(diagnose("temperature: 0.5\ntop_k: 2", (const double[3]){0.8808, 0.1192, 0}),
                     AS_DIAG_NONE);
    /* two mistakes give these numbers: neither is named */
    assert_int_equal(diagnose("temperature: 2\ntop_p: 0.9", both), AS_DIAG_NONE);
}

static void test_the_right_probabilities_name_no_mistake(void **state)
{
    const double w[3] = {0.8808, 0.1192, 0};

    (void)state;
    assert_int_equal(diagnose("temperature: 0.5\ntop_p: 0.9", w), AS_DIAG_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_temperature_after_the_softmax_is_named),
        cmocka_unit_test(test_top_p_without_the_crossing_token_is_named),
        cmocka_unit_test(test_the_cut_before_the_temperature_is_named_where_it_matters),
        cmocka_unit_test(test_the_right_probabilities_name_no_mistake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
