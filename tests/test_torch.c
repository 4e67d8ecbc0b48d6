/* test_torch.c - agreement with torch.nn.MultiheadAttention (SPEC §1): random inputs of
 * every kind (cross-attention, masks, several heads, Wo, biases, torch layout, a set
 * scale, d_k != d_v) whose outputs were computed once in float64 by PyTorch (Debian's
 * python3-torch, tests/data/torch/make_cases.py) and saved beside them. No Python here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"

#define DIR "tests/data/torch/"
#define MAX_CELLS 4096

/* Every number of a file of whitespace-separated numbers (what make_cases.py wrote). */
static size_t read_numbers(const char *path, double *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;

    assert_non_null(f);
    while (n < cap && fscanf(f, "%lf", &out[n]) == 1)
        n++;
    fclose(f);
    return n;
}

/* Runs the case and compares the final O with PyTorch's to 1e-12 relative error (plus
 * 1e-14 absolute, for cells whose true value is near 0). */
static void agree_with_torch(const char *name)
{
    char path[256];
    static double want[MAX_CELLS];
    size_t count, i;
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    snprintf(path, sizeof path, DIR "%s.txt", name);
    if (as_parse_file(&in, path, &err) != 0 || as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0 ||
        as_attention_run(&t, &p, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    snprintf(path, sizeof path, DIR "%s.expected", name);
    count = read_numbers(path, want, MAX_CELLS);
    assert_int_equal(count, t.O.rows * t.O.cols);
    for (i = 0; i < count; i++) {
        const double got = t.O.v[i], e = want[i];
        if (!(fabs(got - e) <= 1e-12 * fabs(e) + 1e-14)) {
            print_error("%s: O cell %zu = %.17g, PyTorch %.17g\n", name, i, got, e);
            fail();
        }
    }
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_one_causal_head_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("self_causal_1head");
}

static void test_no_mask_with_biases_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("self_none_bias");
}

static void test_two_heads_with_wo_agree_with_torch(void **state)
{
    (void)state;
    agree_with_torch("two_heads_wo");
}

static void test_cross_attention_of_another_width_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("cross_two_heads");
}

static void test_a_padding_mask_with_finite_biases_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("padding_mask");
}

static void test_dk_unlike_dv_with_a_set_scale_agrees_with_torch(void **state)
{
    (void)state;
    agree_with_torch("dk_ne_dv_scale");
}

static void test_four_causal_heads_agree_with_torch(void **state)
{
    (void)state;
    agree_with_torch("four_heads_causal");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_causal_head_agrees_with_torch),
        cmocka_unit_test(test_no_mask_with_biases_agrees_with_torch),
        cmocka_unit_test(test_two_heads_with_wo_agree_with_torch),
        cmocka_unit_test(test_cross_attention_of_another_width_agrees_with_torch),
        cmocka_unit_test(test_a_padding_mask_with_finite_biases_agrees_with_torch),
        cmocka_unit_test(test_dk_unlike_dv_with_a_set_scale_agrees_with_torch),
        cmocka_unit_test(test_four_causal_heads_agree_with_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
