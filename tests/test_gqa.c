/* test_gqa.c - shared Keys and Values (kv_heads) and sliding windows (mask: window W),
 * SPEC §11. Outputs against PyTorch in float64 (K/V heads repeated, the window built as
 * a band by torch: tests/data/gqa/make_cases.py, run once); the window mask against an
 * independent construction; the errors a learner meets. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/gqa.out"
#define CLI_ERR "build/tests/gqa.err"
#include "cli_util.h"

#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/steps_gen.h"

#define DIR "tests/data/gqa/"
#define MAX_CELLS 4096

/* Parses text (or the file path when text is NULL), builds and runs it. */
static int open_run(as_input *in, as_problem *p, as_trace *t, const char *path,
                    const char *text, as_error *err)
{
    as_error_clear(err);
    if ((text ? as_parse_text(in, text, strlen(text), path, err) : as_parse_file(in, path, err)) != 0)
        return -1;
    if (as_problem_build(p, in, AS_MASK_DEFAULT, err) != 0) {
        as_input_free(in);
        return -1;
    }
    if (as_attention_run(t, p, err) != 0) {
        as_problem_free(p);
        as_input_free(in);
        return -1;
    }
    return 0;
}

static void close_run(as_input *in, as_problem *p, as_trace *t)
{
    as_trace_free(t);
    as_problem_free(p);
    as_input_free(in);
}

/* The case's final O against PyTorch's to 1e-12 relative (plus 1e-14 absolute). */
static void agree_with_torch(const char *name)
{
    static double want[MAX_CELLS];
    char path[256];
    size_t count = 0, i;
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;
    FILE *f;

    snprintf(path, sizeof path, DIR "%s.txt", name);
    if (open_run(&in, &p, &t, path, NULL, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    snprintf(path, sizeof path, DIR "%s.expected", name);
    f = fopen(path, "r");
    assert_non_null(f);
    while (count < MAX_CELLS && fscanf(f, "%lf", &want[count]) == 1)
        count++;
    fclose(f);
    assert_int_equal(count, t.O.rows * t.O.cols);
    for (i = 0; i < count; i++)
        if (!(fabs(t.O.v[i] - want[i]) <= 1e-12 * fabs(want[i]) + 1e-14)) {
            print_error("%s: O cell %zu = %.17g, PyTorch %.17g\n", name, i, t.O.v[i], want[i]);
            fail();
        }
    close_run(&in, &p, &t);
}

static void test_grouped_query_heads_agree_with_torch(void **state)
{
    (void)state;
    agree_with_torch("gqa_4h_2kv_causal");
}

static void test_multi_query_heads_agree_with_torch(void **state)
{
    (void)state;
    agree_with_torch("mqa_3h_1kv_none");
}

static void test_kv_heads_equal_to_heads_agree_with_torch(void **state)
{
    (void)state;
    agree_with_torch("gqa_equal_is_mha");
}

static void test_a_window_of_two_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("window_2_1head");
}

static void test_a_window_with_shared_heads_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("window_3_gqa");
}

static void test_a_window_wider_than_the_sequence_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("window_wider_than_n");
}

/* The reference: position i reads j when j is one of i, i-1, ..., i-(w-1) that exist,
 * listed one by one -- a construction of its own, not the formula of as_window_mask(). */
static void reference_window(double *out, size_t n, size_t w)
{
    size_t i, back;

    for (i = 0; i < n * n; i++)
        out[i] = -INFINITY;
    for (i = 0; i < n; i++)
        for (back = 0; back < w && back <= i; back++)
            out[i * n + (i - back)] = 0.0;
}

static void test_the_window_mask_equals_a_reference_for_every_width(void **state)
{
    static double got[64 * 64], want[64 * 64];
    size_t n, w, i;

    (void)state;
    for (n = 1; n <= 64; n += 7)
        for (w = 1; w <= n + 2; w++) {
            as_window_mask(got, n, w);
            reference_window(want, n, w);
            for (i = 0; i < n * n; i++)
                if (got[i] != want[i]) {
                    print_error("n %zu, window %zu: cell [%zu][%zu] = %g, want %g\n", n, w,
                                i / n, i % n, got[i], want[i]);
                    fail();
                }
        }
}

static const char base[] = "X = [[1, 1], [1, -1], [2, 0], [0, 3]]\n"
                           "Wq = [[0.5, 0.5], [-0.5, 0.5]]\n"
                           "Wk = [[0.5, 0.5], [0.5, -0.5]]\n"
                           "Wv = [[5, 10], [5, -10]]\n";

/* The M of the file base with the setting line mask added. */
static void mask_of(const char *mask, double *out)
{
    char text[512];
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;

    snprintf(text, sizeof text, "%s\n%s", mask, base);
    if (open_run(&in, &p, &t, "mask.txt", text, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    memcpy(out, t.M.v, 16 * sizeof *out);
    close_run(&in, &p, &t);
}

static void test_causal_is_a_window_as_wide_as_the_sequence(void **state)
{
    double causal[16], window[16], wide[16];

    (void)state;
    mask_of("mask: causal", causal);
    mask_of("mask: window 4", window);
    mask_of("mask: window 100", wide);
    assert_memory_equal(causal, window, sizeof causal);
    assert_memory_equal(causal, wide, sizeof causal);
}

static void test_a_window_of_one_reads_only_itself(void **state)
{
    double m[16], want[16];

    (void)state;
    mask_of("mask: window 1", m);
    reference_window(want, 4, 1);
    assert_memory_equal(m, want, sizeof m);
}

/* The input text is refused with exit 2, an error naming want, and a hint. */
static void refused(const char *text, const char *want)
{
    FILE *f = fopen("build/tests/gqa_bad.txt", "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(run("run build/tests/gqa_bad.txt --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, want);
    assert_file_contains(CLI_ERR, "hint:");
}

static void test_kv_heads_that_do_not_divide_heads_are_refused(void **state)
{
    (void)state;
    refused("heads: 3\nkv_heads: 2\nX = [[1, 2, 3]]\nWq = [[1,2,3],[1,2,3],[1,2,3]]\n"
            "Wk = [[1,2],[1,2],[1,2]]\nWv = [[1,2],[1,2],[1,2]]\n",
            "gqa_bad.txt:2:1: error: kv_heads: 2 does not divide heads: 3");
}

static void test_a_key_table_of_the_wrong_width_for_kv_heads_is_refused(void **state)
{
    (void)state;
    refused("heads: 2\nkv_heads: 1\nX = [[1, 2]]\nWq = [[1,2],[3,4]]\n"
            "Wk = [[1,2],[3,4]]\nWv = [[1],[2]]\n",
            "error: Wk makes Keys of width 2, but kv_heads: 1 Key heads of d_k = 1");
}

static void test_a_window_of_zero_is_refused(void **state)
{
    (void)state;
    refused("mask: window 0\n" "X = [[1]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n",
            "gqa_bad.txt:1:14: error: the window of mask: window W must be a positive whole "
            "number, not \"0\"");
}

static void test_a_window_over_another_sequence_is_refused(void **state)
{
    (void)state;
    refused("mask: window 2\nX = [[1]]\nXkv = [[1], [2]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n",
            "error: a window mask needs as many queries as keys");
}

static void test_run_prints_the_checked_shared_heads(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/gqa.txt --lang en"), 0);
    assert_golden("tests/golden/gqa.run.en.txt");
}

static void test_trace_walks_the_checked_window(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/window.txt"), 0);
    assert_golden("tests/golden/window.trace.zh.txt");
}

/* check grades answers to these inputs (SPEC §6 on a window and on shared heads). */
static void test_check_grades_answers_to_a_window_and_to_shared_heads(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/window.txt " DIR "window-answers.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "S: right");
    assert_file_contains(CLI_OUT, "O: right");
    assert_int_equal(run("check examples/gqa.txt " DIR "gqa-answers.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "A_h1: right");
    assert_file_contains(CLI_OUT, "K: right");
    /* the causal shares where the window forbids 我: wrong, cell by cell */
    assert_int_equal(run("check examples/window.txt " DIR "window-causal-answers.txt --lang en"),
                     1);
    assert_file_contains(CLI_OUT, "A[2][0]: written 0.25, expected 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouped_query_heads_agree_with_torch),
        cmocka_unit_test(test_multi_query_heads_agree_with_torch),
        cmocka_unit_test(test_kv_heads_equal_to_heads_agree_with_torch),
        cmocka_unit_test(test_a_window_of_two_agrees_with_torch),
        cmocka_unit_test(test_a_window_with_shared_heads_agrees_with_torch),
        cmocka_unit_test(test_a_window_wider_than_the_sequence_agrees_with_torch),
        cmocka_unit_test(test_the_window_mask_equals_a_reference_for_every_width),
        cmocka_unit_test(test_causal_is_a_window_as_wide_as_the_sequence),
        cmocka_unit_test(test_a_window_of_one_reads_only_itself),
        cmocka_unit_test(test_kv_heads_that_do_not_divide_heads_are_refused),
        cmocka_unit_test(test_a_key_table_of_the_wrong_width_for_kv_heads_is_refused),
        cmocka_unit_test(test_a_window_of_zero_is_refused),
        cmocka_unit_test(test_a_window_over_another_sequence_is_refused),
        cmocka_unit_test(test_check_grades_answers_to_a_window_and_to_shared_heads),
        cmocka_unit_test(test_run_prints_the_checked_shared_heads),
        cmocka_unit_test(test_trace_walks_the_checked_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
