/* test_attention.c - each step of the chapter against values from outside the code:
 * the chapter's printed numbers (F11, 10 decimal places) and a 40-digit mpmath
 * computation of the same formulas (noted "mpmath" below). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/attention.h"
#include "test_util.h"

/* The chapter's inputs. */
static const double X[] = {1, 1, 1, -1};
static const double Wq[] = {0.5, 0.5, -0.5, 0.5};
static const double Wk[] = {0.5, 0.5, 0.5, -0.5};
static const double Wv[] = {5, 10, 5, -10};

/* mpmath, 40 digits: 1/sqrt(2), exp(-1/sqrt(2)), the shares and outputs of row 1. */
#define HP_SCALE 0.7071067811865475244008443621048490392848
#define HP_EXP 0.4930686913952397878459573806151774752358
#define HP_SUM 1.493068691395239787845957380615177475236
#define HP_A0 0.6697615493266569256167949458341441077793
#define HP_A1 0.3302384506733430743832050541658558922207
#define HP_O0 6.697615493266569256167949458341441077793
#define HP_O1 6.604769013466861487664101083317117844414

static void assert_cells(const double *got, const double *want, size_t count, double tol)
{
    size_t i;

    for (i = 0; i < count; i++)
        assert_close(got[i], want[i], tol);
}

static void test_projection_gives_the_chapters_q_k_v(void **state)
{
    /* chapter: Q = [[0,1],[1,0]], K = [[1,0],[0,1]], V = [[10,0],[0,20]] */
    static const double q[] = {0, 1, 1, 0}, k[] = {1, 0, 0, 1}, v[] = {10, 0, 0, 20};
    double out[4];

    (void)state;
    as_matmul(out, X, Wq, 2, 2, 2);
    assert_cells(out, q, 4, 0);
    as_matmul(out, X, Wk, 2, 2, 2);
    assert_cells(out, k, 4, 0);
    as_matmul(out, X, Wv, 2, 2, 2);
    assert_cells(out, v, 4, 0);
}

static void test_matmul_handles_non_square_shapes(void **state)
{
    /* by hand: [1,2,3] @ [[1,0],[0,1],[1,1]] = [4,5]; [0,1,-1] @ ... = [-1,0] */
    static const double a[] = {1, 2, 3, 0, 1, -1}, b[] = {1, 0, 0, 1, 1, 1};
    static const double want[] = {4, 5, -1, 0};
    double out[4];

    (void)state;
    as_matmul(out, a, b, 2, 3, 2);
    assert_cells(out, want, 4, 0);
}

static void test_bias_adds_to_every_row(void **state)
{
    double out[] = {0, 1, 1, 0};
    static const double bias[] = {0.5, -1}, want[] = {0.5, 0, 1.5, -1};

    (void)state;
    as_add_bias(out, bias, 2, 2);
    assert_cells(out, want, 4, 0);
}

static void test_scores_are_the_chapters_qkt(void **state)
{
    /* chapter: QKᵀ = [[0,1],[1,0]]; q₁·k₀ = 1, q₁·k₁ = 0 */
    static const double q[] = {0, 1, 1, 0}, k[] = {1, 0, 0, 1}, want[] = {0, 1, 1, 0};
    double out[4];

    (void)state;
    as_scores(out, q, k, 2, 2, 2);
    assert_cells(out, want, 4, 0);
}

static void test_scores_of_three_queries_and_two_keys(void **state)
{
    /* by hand: q=[[1,2],[0,1],[3,0]], k=[[1,1],[2,-1]]: rows [3,0],[1,-1],[3,6] */
    static const double q[] = {1, 2, 0, 1, 3, 0}, k[] = {1, 1, 2, -1};
    static const double want[] = {3, 0, 1, -1, 3, 6};
    double out[6];

    (void)state;
    as_scores(out, q, k, 3, 2, 2);
    assert_cells(out, want, 6, 0);
}

static void test_scaling_by_one_over_sqrt_two(void **state)
{
    static const double in[] = {1, 0};
    double out[2];

    (void)state;
    as_scale(out, in, 2, sqrt(0.5));
    assert_close(out[0], 0.7071067812, 5e-11); /* chapter */
    assert_close(out[0], HP_SCALE, 1e-16);     /* mpmath */
    assert_close(out[1], 0, 0);
}

static void test_causal_mask_forbids_the_future(void **state)
{
    double m[9];
    size_t i, j;

    (void)state;
    as_causal_mask(m, 3);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (j <= i)
                assert_true(m[i * 3 + j] == 0.0);
            else
                assert_true(isinf(m[i * 3 + j]) && m[i * 3 + j] < 0);
}

static void test_mask_is_added_cell_by_cell(void **state)
{
    static const double in[] = {0, 1, 0.5, 0}, mask[] = {0, -INFINITY, 0, -2};
    double out[4];

    (void)state;
    as_add_mask(out, in, mask, 4);
    assert_close(out[0], 0, 0);
    assert_true(isinf(out[1]) && out[1] < 0);
    assert_close(out[2], 0.5, 0);
    assert_close(out[3], -2, 0);
}

static void test_softmax_records_the_chapters_substeps(void **state)
{
    /* the chapter's S = [[0,−∞],[0.7071067812,0]] */
    const double s[] = {0, -INFINITY, HP_SCALE, 0};
    double a[4], mx[2], sh[4], ex[4], sum[2];

    (void)state;
    assert_int_equal(as_softmax_rows(a, mx, sh, ex, sum, s, 2, 2), -1);
    /* row 1, chapter: 减最大值 [0, -0.7071067812], 取指数 [1, 0.4930686914],
     * 指数之和 1.4930686914, 除以总和 [0.6697615493, 0.3302384507] */
    assert_close(mx[1], 0.7071067812, 5e-11);
    assert_close(sh[2], 0, 0);
    assert_close(sh[3], -0.7071067812, 5e-11);
    assert_close(ex[2], 1, 0);
    assert_close(ex[3], 0.4930686914, 5e-11);
    assert_close(sum[1], 1.4930686914, 5e-11);
    assert_close(a[2], 0.6697615493, 5e-11);
    assert_close(a[3], 0.3302384507, 5e-11);
    /* the same to double precision (mpmath) */
    assert_close(ex[3], HP_EXP, 1e-16);
    assert_close(sum[1], HP_SUM, 4e-16);
    assert_close(a[2], HP_A0, 2e-16);
    assert_close(a[3], HP_A1, 2e-16);
}

static void test_softmax_ignores_masked_cells(void **state)
{
    /* row 0 reads only itself: share 1, and exactly 0 for the future */
    const double s[] = {0, -INFINITY};
    double a[2], mx, sh[2], ex[2], sum;

    (void)state;
    assert_int_equal(as_softmax_rows(a, &mx, sh, ex, &sum, s, 1, 2), -1);
    assert_true(a[0] == 1.0 && a[1] == 0.0);
    assert_true(ex[1] == 0.0 && isinf(sh[1]) && sh[1] < 0);
    assert_true(mx == 0.0 && sum == 1.0);
}

static void test_softmax_max_is_over_readable_cells_only(void **state)
{
    /* readable cells -5000 and -5001: a max started at a finite sentinel such as 0
     * would make every exp underflow to 0 and the shares 0/0 */
    const double s[] = {-5000, -INFINITY, -5001};
    double a[3], mx;

    (void)state;
    assert_int_equal(as_softmax_rows(a, &mx, NULL, NULL, NULL, s, 1, 3), -1);
    assert_close(mx, -5000, 0);
    assert_close(a[0], 0.7310585786300048792511592418218362743651, 2e-16); /* mpmath 1/(1+e^-1) */
    assert_true(a[1] == 0.0);
}

static void test_softmax_is_stable_for_large_scores(void **state)
{
    const double s[] = {1000, 999, 1000, -1000};
    double a[4];

    (void)state;
    assert_int_equal(as_softmax_rows(a, NULL, NULL, NULL, NULL, s, 2, 2), -1);
    assert_close(a[0], 0.7310585786300048792511592418218362743651, 2e-16); /* mpmath */
    assert_close(a[1], 0.2689414213699951207488407581781637256349, 2e-16); /* mpmath */
    assert_close(a[2], 1, 0);
    assert_close(a[3], 0, 1e-300); /* exp(-2000) underflows to 0 */
}

static void test_softmax_reports_a_row_with_nothing_to_read(void **state)
{
    const double s[] = {0, 1, -INFINITY, -INFINITY};
    double a[4];

    (void)state;
    assert_int_equal(as_softmax_rows(a, NULL, NULL, NULL, NULL, s, 2, 2), 1);
    assert_true(a[2] == 0.0 && a[3] == 0.0); /* zeros, never NaN */
}

static void test_mixing_values_gives_the_chapters_output(void **state)
{
    const double a[] = {1, 0, HP_A0, HP_A1}, v[] = {10, 0, 0, 20};
    double o[4];

    (void)state;
    as_mix(o, a, v, 2, 2, 2);
    /* chapter: O ≈ [[10,0],[6.6976154933,6.6047690135]] */
    assert_close(o[0], 10, 0);
    assert_close(o[1], 0, 0);
    assert_close(o[2], 6.6976154933, 5e-11);
    assert_close(o[3], 6.6047690135, 5e-11);
    assert_close(o[2], HP_O0, 2e-15); /* mpmath */
    assert_close(o[3], HP_O1, 2e-15);
}

static void test_columns_are_taken_and_put_back_per_head(void **state)
{
    static const double src[] = {1, 2, 3, 4, 5, 6, 7, 8};
    double part[4], back[8] = {0};
    static const double right[] = {3, 4, 7, 8};

    (void)state;
    as_take_columns(part, src, 2, 4, 2, 2);
    assert_cells(part, right, 4, 0);
    as_put_columns(back, part, 2, 4, 2, 2);
    assert_close(back[2], 3, 0);
    assert_close(back[7], 8, 0);
    assert_close(back[0], 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_gives_the_chapters_q_k_v),
        cmocka_unit_test(test_matmul_handles_non_square_shapes),
        cmocka_unit_test(test_bias_adds_to_every_row),
        cmocka_unit_test(test_scores_are_the_chapters_qkt),
        cmocka_unit_test(test_scores_of_three_queries_and_two_keys),
        cmocka_unit_test(test_scaling_by_one_over_sqrt_two),
        cmocka_unit_test(test_causal_mask_forbids_the_future),
        cmocka_unit_test(test_mask_is_added_cell_by_cell),
        cmocka_unit_test(test_softmax_records_the_chapters_substeps),
        cmocka_unit_test(test_softmax_ignores_masked_cells),
        cmocka_unit_test(test_softmax_max_is_over_readable_cells_only),
        cmocka_unit_test(test_softmax_is_stable_for_large_scores),
        cmocka_unit_test(test_softmax_reports_a_row_with_nothing_to_read),
        cmocka_unit_test(test_mixing_values_gives_the_chapters_output),
        cmocka_unit_test(test_columns_are_taken_and_put_back_per_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
