/* test_model.c - the shape checks and defaults of a problem, and one whole run, on
 * inputs built by hand (no parser involved). Expected values: the chapter's numbers and
 * hand calculation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/attention.h"
#include "attnstep/mask.h"
#include "attnstep/model.h"
#include "test_util.h"

/* Gives the input matrix id (replacing any earlier one), as written at line. */
static void give(as_input *in, as_mat_id id, size_t r, size_t c, const double *v, int line)
{
    as_matrix_free(&in->mat[id].m);
    assert_int_equal(as_matrix_init(&in->mat[id].m, r, c), 0);
    memcpy(in->mat[id].m.v, v, r * c * sizeof *v);
    in->mat[id].given = 1;
    in->mat[id].pos = (as_pos){line, 1};
}

/* The chapter's example, as the parser would give it. */
static void f11(as_input *in)
{
    static const double X[] = {1, 1, 1, -1}, Wq[] = {0.5, 0.5, -0.5, 0.5};
    static const double Wk[] = {0.5, 0.5, 0.5, -0.5}, Wv[] = {5, 10, 5, -10};

    memset(in, 0, sizeof *in);
    in->path = strdup("f11.txt");
    give(in, AS_X, 2, 2, X, 1);
    give(in, AS_WQ, 2, 2, Wq, 4);
    give(in, AS_WK, 2, 2, Wk, 4);
    give(in, AS_WV, 2, 2, Wv, 4);
}

static void test_the_chapters_example_builds_with_causal_mask_and_default_labels(void **state)
{
    as_input in;
    as_problem p;
    as_matrix M;
    as_error err;

    (void)state;
    f11(&in);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    assert_int_equal(p.mask, AS_MASK_CAUSAL);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.d_k, 2);
    assert_int_equal(p.heads, 1);
    assert_close(p.scale, 0.70710678118654752440, 1e-16); /* 1/√2, mpmath */
    assert_string_equal(p.tokens[1], "1");
    assert_int_equal(as_mask_build(&M, &p), 0);
    assert_true(AS_AT(M, 0, 1) == -INFINITY && AS_AT(M, 1, 0) == 0);
    as_matrix_free(&M);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_a_whole_run_prints_the_chapters_tables(void **state)
{
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;

    (void)state;
    f11(&in);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    assert_int_equal(as_attention_run(&t, &p, &err), 0);
    /* chapter: S ≈ [[0,−∞],[0.7071067812,0]], A ≈ [[1,0],[0.6697615493,0.3302384507]],
     * O ≈ [[10,0],[6.6976154933,6.6047690135]] */
    assert_close(AS_AT(t.head[0].S, 1, 0), 0.7071067812, 5e-11);
    assert_close(AS_AT(t.head[0].A, 1, 0), 0.6697615493, 5e-11);
    assert_close(AS_AT(t.head[0].A, 1, 1), 0.3302384507, 5e-11);
    assert_close(AS_AT(t.O, 0, 0), 10, 0);
    assert_close(AS_AT(t.O, 1, 0), 6.6976154933, 5e-11);
    assert_close(AS_AT(t.O, 1, 1), 6.6047690135, 5e-11);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

/* Builds a problem expected to fail; checks the message holds want and a hint exists. */
static void expect_error(as_input *in, const char *want, int line)
{
    as_problem p;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, in, AS_MASK_DEFAULT, &err), -1);
    if (strstr(err.msg, want) == NULL) {
        print_error("message \"%s\" lacks \"%s\"\n", err.msg, want);
        fail();
    }
    assert_int_equal(err.line, line);
    assert_true(err.hint[0] != '\0');
    as_input_free(in);
}

static void test_keys_of_another_width_than_queries_are_refused(void **state)
{
    static const double wk3[] = {1, 0, 0, 0, 1, 0};
    as_input in;

    (void)state;
    f11(&in);
    give(&in, AS_WK, 2, 3, wk3, 7);
    expect_error(&in, "Wk makes Keys of width 3, but Wq makes Queries of width 2", 7);
}

static void test_a_w_with_the_wrong_number_of_rows_is_refused(void **state)
{
    static const double wq3[] = {1, 0, 0, 1, 1, 1};
    as_input in;

    (void)state;
    f11(&in);
    give(&in, AS_WQ, 3, 2, wq3, 5);
    expect_error(&in, "Wq has 3 rows, but X has 2 columns", 5);
}

static void test_heads_must_divide_the_widths(void **state)
{
    as_input in;
    as_problem p;
    as_error err;

    (void)state;
    f11(&in);
    in.heads = 3;
    in.heads_pos = (as_pos){2, 1};
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), -1);
    assert_non_null(strstr(err.msg, "heads: 3 does not divide"));
    assert_int_equal(err.line, 2);
    as_input_free(&in);
}

static void test_causal_mask_needs_as_many_queries_as_keys(void **state)
{
    static const double xkv[] = {1, 0, 0, 1, 1, 1};
    as_input in;

    (void)state;
    f11(&in);
    give(&in, AS_XKV, 3, 2, xkv, 3);
    in.mask = AS_MASK_CAUSAL;
    in.mask_pos = (as_pos){2, 1};
    expect_error(&in, "a causal mask needs as many queries as keys", 2);
}

static void test_cross_attention_defaults_to_no_mask(void **state)
{
    static const double xkv[] = {1, 0, 0, 1, 1, 1};
    as_input in;
    as_problem p;
    as_matrix M;
    as_error err;

    (void)state;
    f11(&in);
    give(&in, AS_XKV, 3, 2, xkv, 3);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    assert_int_equal(p.mask, AS_MASK_NONE);
    assert_int_equal(p.m, 3);
    assert_int_equal(as_mask_build(&M, &p), 0);
    assert_true(M.rows == 2 && M.cols == 3 && AS_AT(M, 0, 2) == 0);
    as_matrix_free(&M);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_a_fully_masked_row_is_an_input_error_not_nan(void **state)
{
    static const double m[] = {-INFINITY, -INFINITY, 0, 0};
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;

    (void)state;
    f11(&in);
    give(&in, AS_M, 2, 2, m, 9);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    assert_int_equal(as_attention_run(&t, &p, &err), -1);
    assert_non_null(strstr(err.msg, "row 0"));
    assert_non_null(strstr(err.msg, "no readable position"));
    assert_int_equal(err.line, 9);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_missing_tables_are_named(void **state)
{
    as_input in;

    (void)state;
    f11(&in);
    as_matrix_free(&in.mat[AS_WV].m);
    in.mat[AS_WV].given = 0;
    expect_error(&in, "no matrix Wv is given", 0);
}

static void test_torch_layout_transposes_the_weights(void **state)
{
    as_input in;
    as_problem p;
    as_error err;

    (void)state;
    f11(&in);
    in.layout = AS_LAYOUT_TORCH;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    /* Wq [[0.5,0.5],[-0.5,0.5]] read as [out,in] is the book's [[0.5,-0.5],[0.5,0.5]] */
    assert_close(AS_AT(*p.Wq, 0, 1), -0.5, 0);
    assert_close(AS_AT(*p.Wq, 1, 0), 0.5, 0);
    as_problem_free(&p);
    as_input_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_chapters_example_builds_with_causal_mask_and_default_labels),
        cmocka_unit_test(test_a_whole_run_prints_the_chapters_tables),
        cmocka_unit_test(test_keys_of_another_width_than_queries_are_refused),
        cmocka_unit_test(test_a_w_with_the_wrong_number_of_rows_is_refused),
        cmocka_unit_test(test_heads_must_divide_the_widths),
        cmocka_unit_test(test_causal_mask_needs_as_many_queries_as_keys),
        cmocka_unit_test(test_cross_attention_defaults_to_no_mask),
        cmocka_unit_test(test_a_fully_masked_row_is_an_input_error_not_nan),
        cmocka_unit_test(test_missing_tables_are_named),
        cmocka_unit_test(test_torch_layout_transposes_the_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
