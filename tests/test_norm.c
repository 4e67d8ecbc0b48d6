/* test_norm.c - the block's steps (norm.h, ffn.h): the chapter-style hand values of SPEC
 * §15, and agreement with torch.nn.LayerNorm, the Annotated Transformer's LayerNorm,
 * LLaMA's RMSNorm, torch.nn.GELU(approximate='none'|'tanh'), F.silu and F.relu on
 * random inputs computed once in float64 by tests/data/block/make_block.py. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/ffn.h"
#include "attnstep/norm.h"
#include "sections.h"
#include "test_util.h"

#define DIR "tests/data/block/steps/"

/* ---- by hand ---- */

static void test_layer_norm_of_one_hot_row_is_the_spec_value(void **state)
{
    /* SPEC §15: μ = 1/4, σ² = (9/16 + 3·1/16)/4 = 3/16, x̂₀ = (3/4)/√(3/16 + 1e-5) */
    const double x[4] = {1, 0, 0, 0};
    double y[4], mean, var, div, centred[4];
    const as_norm_rec rec = {&mean, &var, &div, NULL, centred};

    (void)state;
    assert_int_equal(as_norm_rows(y, &rec, x, NULL, NULL, 1, 4, AS_NORM_LAYER, AS_NORM_TORCH,
                                  1e-5), 0);
    assert_close(mean, 0.25, 0);
    assert_close(centred[0], 0.75, 0);  /* x − μ, what the walk-through writes out */
    assert_close(centred[3], -0.25, 0);
    assert_close(var, 0.1875, 0);
    assert_close(div, sqrt(0.1875 + 1e-5), 0);
    assert_close(y[0], 1.7320046214, 1e-10);
    assert_close(y[1], -0.25 / sqrt(0.1875 + 1e-5), 1e-15);
}

static void test_rms_norm_of_one_two_three_is_the_spec_value(void **state)
{
    /* SPEC §15: Σx²/3 = 14/3, rms = √(14/3 + 1e-6), y₀ = 1/rms */
    const double x[3] = {1, 2, 3};
    double y[3], ms, div;
    const as_norm_rec rec = {NULL, &ms, &div, NULL, NULL};

    (void)state;
    assert_int_equal(as_norm_rows(y, &rec, x, NULL, NULL, 1, 3, AS_NORM_RMS, AS_NORM_TORCH,
                                  1e-6), 0);
    assert_close(ms, 14.0 / 3.0, 1e-15);
    assert_close(y[0], 0.4629100003, 1e-10);
    assert_close(y[2], 3 * y[0], 1e-15);
}

static void test_width_two_layer_norm_gives_plus_and_minus_one(void **state)
{
    /* SPEC §15: at width 2, x − μ = ±(a−b)/2 and σ = |a−b|/2; ε = 0 makes it exact */
    const double x[2] = {3, -5}, g[2] = {2, 3}, b[2] = {1, 1};
    double y[2];

    (void)state;
    assert_int_equal(as_norm_rows(y, NULL, x, g, b, 1, 2, AS_NORM_LAYER, AS_NORM_TORCH, 0), 0);
    assert_close(y[0], 2 * 1 + 1, 0);
    assert_close(y[1], 3 * -1 + 1, 0);
}

static void test_annotated_divides_by_d_minus_one_and_adds_eps_outside(void **state)
{
    /* x = [1, 2, 3]: μ = 2, Σ(x−μ)² = 2, unbiased σ² = 1, divisor σ + ε = 1.5 with ε = 0.5 */
    const double x[3] = {1, 2, 3};
    double y[3], mean, var, div;
    const as_norm_rec rec = {&mean, &var, &div, NULL, NULL};

    (void)state;
    as_norm_rows(y, &rec, x, NULL, NULL, 1, 3, AS_NORM_LAYER, AS_NORM_ANNOTATED, 0.5);
    assert_close(var, 1, 0);
    assert_close(div, 1.5, 0);
    assert_close(y[0], -1 / 1.5, 1e-16);
}

static void test_default_eps_follow_each_convention(void **state)
{
    (void)state;
    assert_close(as_norm_default_eps(AS_NORM_LAYER, AS_NORM_TORCH), 1e-5, 0);
    assert_close(as_norm_default_eps(AS_NORM_LAYER, AS_NORM_ANNOTATED), 1e-6, 0);
    assert_close(as_norm_default_eps(AS_NORM_RMS, AS_NORM_TORCH), 1e-6, 0);
}

static void test_activations_by_hand(void **state)
{
    const double x[3] = {-1, 0, 2};
    double y[3];
    const double u[3] = {2, 3, -1}, g[3] = {0.5, 2, 4};

    (void)state;
    as_relu(y, x, 3);
    assert_close(y[0], 0, 0);
    assert_close(y[2], 2, 0);
    as_silu(y, x, 3);
    assert_close(y[2], 2 / (1 + exp(-2.0)), 1e-16);
    as_gelu_erf(y, x, 3);
    assert_close(y[1], 0, 0);
    assert_close(y[2], 1.9544997361036416, 1e-15); /* 2·Φ(2) */
    as_hadamard(y, g, u, 3);
    assert_close(y[0], 1, 0);
    assert_close(y[2], -4, 0);
    as_residual_add(y, g, u, 3);
    assert_close(y[1], 5, 0);
}

/* ---- against torch ---- */

/* Each case of DIR name.txt (x, g, b and torch's mean, var, div, xhat, y) through
 * as_norm_rows() of kind/style; returns the number of cases. */
static int agree_norms(const char *name, as_norm_kind kind, as_norm_style style)
{
    static section x, g, b, s;
    static double mean[64], var[64], div[64], xhat[SECTION_CAP], y[SECTION_CAP];
    const as_norm_rec rec = {mean, var, div, xhat, NULL};
    char path[128], word[16];
    const double *got[] = {mean, var, div, xhat, y};
    static const char *const want[] = {"mean", "var", "div", "xhat", "y"};
    size_t k, n, d;
    double eps;
    int cases = 0, id;
    FILE *f;

    snprintf(path, sizeof path, DIR "%s.txt", name);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(path, sizeof path, f)); /* the comment line that opens the file */
    while (fscanf(f, "%15s %d %zu %zu %lf", word, &id, &n, &d, &eps) == 5) {
        assert_string_equal(word, "case");
        assert_true(read_section(f, &x) && read_section(f, &g) && read_section(f, &b));
        assert_int_equal(as_norm_rows(y, &rec, x.v, g.v, b.v, n, d, kind, style, eps), 0);
        for (k = 0; k < 5; k++) {
            assert_true(read_section(f, &s));
            assert_string_equal(s.name, want[k]);
            if (kind != AS_NORM_RMS || k != 0)
                assert_cells_close(got[k], s.v, s.rows * s.cols, path, s.name);
        }
        cases++;
    }
    fclose(f);
    return cases;
}

static void test_layer_norm_agrees_with_torch_layer_norm(void **state)
{
    (void)state;
    assert_true(agree_norms("layer_torch", AS_NORM_LAYER, AS_NORM_TORCH) >= 30);
}

static void test_annotated_layer_norm_agrees_with_the_annotated_transformer(void **state)
{
    (void)state;
    assert_true(agree_norms("layer_annotated", AS_NORM_LAYER, AS_NORM_ANNOTATED) >= 30);
}

static void test_rms_norm_agrees_with_llama_rms_norm(void **state)
{
    (void)state;
    assert_true(agree_norms("rms", AS_NORM_RMS, AS_NORM_TORCH) >= 30);
}

static void test_activations_agree_with_torch(void **state)
{
    static section in, want;
    static double got[SECTION_CAP];
    static const char *const names[] = {"gelu", "gelu_tanh", "silu", "relu"};
    static const as_ffn_kind kinds[] = {AS_FFN_GELU, AS_FFN_GELU_TANH, AS_FFN_SWIGLU, AS_FFN_RELU};
    FILE *f = fopen(DIR "activations.txt", "r");
    size_t k;

    (void)state;
    assert_non_null(f);
    assert_true(read_section(f, &in));
    assert_true(in.cols >= 200);
    for (k = 0; k < 4; k++) {
        assert_true(read_section(f, &want));
        assert_string_equal(want.name, names[k]);
        as_ffn_activate(got, in.v, in.cols, kinds[k]);
        assert_cells_close(got, want.v, in.cols, "activations", names[k]);
    }
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layer_norm_of_one_hot_row_is_the_spec_value),
        cmocka_unit_test(test_rms_norm_of_one_two_three_is_the_spec_value),
        cmocka_unit_test(test_width_two_layer_norm_gives_plus_and_minus_one),
        cmocka_unit_test(test_annotated_divides_by_d_minus_one_and_adds_eps_outside),
        cmocka_unit_test(test_default_eps_follow_each_convention),
        cmocka_unit_test(test_activations_by_hand),
        cmocka_unit_test(test_layer_norm_agrees_with_torch_layer_norm),
        cmocka_unit_test(test_annotated_layer_norm_agrees_with_the_annotated_transformer),
        cmocka_unit_test(test_rms_norm_agrees_with_llama_rms_norm),
        cmocka_unit_test(test_activations_agree_with_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
