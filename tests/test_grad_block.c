/* test_grad_block.c - `grad` through the whole block (SPEC §13 and §15, issue 31): the
 * backward steps of the norms and activations against hand calculation, and every
 * gradient of 40 configurations x 30 random inputs (block pre|post, norm
 * layer|annotated|rms|none, ffn relu|gelu|gelu_tanh|swiglu|none; 1 and 2 heads, with and
 * without biases and γ/β, with and without lnf, each loss; and 30 with cross-attention,
 * shared K/V heads and layout: torch) against PyTorch autograd in float64 (tests/data/grad/block/make_block_grad.py, run once; no Python here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/block_backward.h"
#include "attnstep/grad.h"
#include "attnstep/session.h"
#include "test_util.h"
#include "grad_expected.h"
#include "grad_cases.h"

#define DIR "tests/data/grad/block/"

/* ---- the steps, by hand ---- */

/* LayerNorm (torch) of a row with dy = γ-free ones: the gradient of Σy is 0, since the
 * row's mean is subtracted (Σ x̂ = 0 whatever x); RMSNorm of [3, 4] (rms = √12.5 with
 * ε = 0, x̂ = [0.6√2, 0.8√2]) with dy = [1, 0]: dx = (1 − x̂₀·x̂₀/2)/rms, −x̂₀x̂₁/2/rms
 * = (1 − 0.36)/√12.5, −0.48/√12.5 by hand. */
static void test_norm_backward_matches_the_hand_calculation(void **state)
{
    const double xhat[] = {-1.224744871391589, 0, 1.224744871391589};
    const double ones[] = {1, 1, 1}, div[] = {0.816496580927726};
    const double r = sqrt(12.5), rxhat[] = {3 / r, 4 / r}, rdy[] = {1, 0};
    double dx[3], dg[3], db[3];

    (void)state;
    as_norm_backward_rows(dx, dg, db, ones, xhat, NULL, NULL, div, NULL, 1, 3, AS_NORM_LAYER,
                          AS_NORM_TORCH);
    assert_close(dx[0], 0, 1e-15);
    assert_close(dx[1], 0, 1e-15);
    assert_close(dx[2], 0, 1e-15);
    assert_close(dg[2], xhat[2], 0);
    assert_close(db[1], 1, 0);
    as_norm_backward_rows(dx, NULL, NULL, rdy, rxhat, NULL, NULL, &r, NULL, 1, 2, AS_NORM_RMS,
                          AS_NORM_TORCH);
    assert_close(dx[0], 0.64 / r, 1e-15);
    assert_close(dx[1], -0.48 / r, 1e-15);
}

/* ReLU passes the gradient where x > 0 only (0 at 0, as torch); GELU's derivative at 0
 * is Φ(0) = 1/2 (both forms); SiLU's at 0 is σ(0) = 1/2. */
static void test_activation_backward_at_hand_points(void **state)
{
    const double x[] = {-1, 0, 2}, dy[] = {5, 5, 5};
    double dx[3];

    (void)state;
    as_activation_backward(dx, dy, x, 3, AS_FFN_RELU);
    assert_close(dx[0], 0, 0);
    assert_close(dx[1], 0, 0);
    assert_close(dx[2], 5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_GELU);
    assert_close(dx[0], 2.5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_GELU_TANH);
    assert_close(dx[0], 2.5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_SWIGLU);
    assert_close(dx[0], 2.5, 0);
}

/* ---- the stored cases ---- */

/* Each case of one configuration (grad_cases.h); returns the tables compared. */
static size_t agree_with_torch(const char *config)
{
    char path[256];

    snprintf(path, sizeof path, DIR "%s.cases", config);
    return case_agree_with_torch(path, config, 30);
}

/* Every configuration: the block's kinds against each other. */
static void test_every_block_configuration_agrees_with_torch(void **state)
{
    static const char *const blocks[] = {"pre", "post"};
    static const char *const norms[] = {"layer", "annotated", "rms", "none"};
    static const char *const ffns[] = {"relu", "gelu", "gelu_tanh", "swiglu", "none"};
    size_t b, n, k, tables = 0;
    char config[64];

    (void)state;
    for (b = 0; b < 2; b++)
        for (n = 0; n < 4; n++)
            for (k = 0; k < 5; k++) {
                snprintf(config, sizeof config, "%s_%s_%s", blocks[b], norms[n], ffns[k]);
                tables += agree_with_torch(config);
            }
    assert_true(tables > 40 * 30 * 15);
}

/* Cross-attention (Xkv read as it is, the norm on X only), shared K/V heads and layout:
 * torch, around the block. */
static void test_cross_attention_shared_heads_and_torch_layout_agree_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("variants") > 30 * 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_norm_backward_matches_the_hand_calculation),
        cmocka_unit_test(test_activation_backward_at_hand_points),
        cmocka_unit_test(test_every_block_configuration_agrees_with_torch),
        cmocka_unit_test(test_cross_attention_shared_heads_and_torch_layout_agree_with_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
