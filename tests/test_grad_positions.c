/* test_grad_positions.c - `grad` through positions (SPEC §12 and §13, issue 31): RoPE's
 * turn backwards (dQ = Rᵀ·dQr, dK = Rᵀ·dKr) for a lone head with each pairing, several
 * heads and shared K/V heads, cross-attention; sinusoidal encodings (dW from X + PE, dX
 * passed through: PE is a constant); a LLaMA block (block: pre, norm: rms, ffn: swiglu,
 * positions: rope half, kv_heads < heads, SPEC §15) and a GPT-2-like pre-LN block with
 * sinusoidal positions. 30 random inputs a configuration, with every gradient grad prints
 * (and each head's dQr, dKr, dQ, dK) against PyTorch autograd in float64
 * (tests/data/grad/positions/make_positions_grad.py, run once; no Python here), each
 * loss (sum, mse, a given dO); and the rows run bit for bit the whole one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/grad.h"
#include "attnstep/session.h"
#include "test_util.h"
#include "grad_expected.h"
#include "grad_cases.h"

#define DIR "tests/data/grad/positions/"

/* The tables of one stored configuration; at least `per_case` tables a case. */
static void agree(const char *config, size_t per_case)
{
    char path[256];

    snprintf(path, sizeof path, DIR "%s.cases", config);
    assert_true(case_agree_with_torch(path, config, 30) >= 30 * per_case);
}

/* A lone head: dO, dQKT, dQr, dKr, dQ, dK, dV, dQ/dK/dV, dX, dWq, dWk, dWv at least. */
static void test_rope_half_agrees_with_torch(void **state)
{
    (void)state;
    agree("rope_half", 13);
}

static void test_rope_interleaved_agrees_with_torch(void **state)
{
    (void)state;
    agree("rope_interleaved", 13);
}

static void test_sinusoidal_positions_agree_with_torch(void **state)
{
    (void)state;
    agree("sinusoidal", 11);
}

static void test_rope_with_several_and_shared_heads_agrees_with_torch(void **state)
{
    (void)state;
    agree("rope_heads_gqa", 20);
}

static void test_the_llama_block_agrees_with_torch(void **state)
{
    (void)state;
    agree("llama", 30);
}

static void test_a_gpt2_block_with_sinusoidal_positions_agrees_with_torch(void **state)
{
    (void)state;
    agree("gpt2_sinusoidal", 25);
}

/* RoPE is a relative position (SPEC §12): moving every position by P (--offset) turns q_i
 * and k_j by (i+P)θ and (j+P)θ, and Rᵀ_(i+P)·R_(j+P) = R_(j−i), so the scores, and every
 * gradient of the tables before the turn (dQ = Σ_j d(QKᵀ)ᵢⱼ·Rᵀ_(i+P)·R_(j+P)·k_j), are
 * the same whatever P; only dQr and dKr move. Each rope_half case at offset 0 and 1000. */
static void test_moving_every_position_leaves_the_gradients_before_the_turn(void **state)
{
    static char text[1 << 16];
    size_t len, i, moved = 0;
    FILE *f;

    (void)state;
    assert_non_null(f = fopen(DIR "rope_half.cases", "r"));
    while (case_read(f, text, sizeof text, &len)) {
        char name[64];
        as_session s[2];
        as_grad g[2];
        as_error err;
        int k;
        for (k = 0; k < 2; k++) {
            as_session_opts o;
            memset(&o, 0, sizeof o);
            memset(&g[k], 0, sizeof g[k]);
            o.offset = k ? 1000 : 0;
            as_error_clear(&err);
            assert_int_equal(as_session_open_text(&s[k], text, len, "offset", &o, &err), 0);
            assert_int_equal(as_grad_loss(&g[k], &s[k].p, &s[k].t, AS_LANG_EN, &err), 0);
            assert_int_equal(as_grad_run(&g[k], &s[k].p, &s[k].t, &err), 0);
        }
        for (i = 0; i < g[0].dX.rows * g[0].dX.cols; i++)
            assert_true(grad_agrees(g[1].dX.v[i], g[0].dX.v[i]));
        for (i = 0; i < g[0].dWq.rows * g[0].dWq.cols; i++)
            assert_true(grad_agrees(g[1].dWq.v[i], g[0].dWq.v[i]));
        for (i = 0; i < g[0].dWk.rows * g[0].dWk.cols; i++)
            assert_true(grad_agrees(g[1].dWk.v[i], g[0].dWk.v[i]));
        for (i = 0; i < g[0].head[0].dQr.rows * g[0].head[0].dQr.cols; i++)
            moved += fabs(g[1].head[0].dQr.v[i] - g[0].head[0].dQr.v[i]) > 1e-6;
        for (k = 0; k < 2; k++) {
            as_grad_free(&g[k]);
            as_session_free(&s[k]);
        }
        while (fscanf(f, " %63s", name) == 1 && strcmp(name, "end") != 0)
            ; /* the stored tables: not this test's */
    }
    fclose(f);
    assert_true(moved > 0); /* the turned tables did move */
}

/* examples/grad-llama.txt, the LLaMA block the guide runs, as it is. */
static void test_the_llama_example_agrees_with_torch(void **state)
{
    (void)state;
    assert_true(case_agree_with_torch(DIR "llama_example.cases", "llama_example", 1) >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rope_half_agrees_with_torch),
        cmocka_unit_test(test_rope_interleaved_agrees_with_torch),
        cmocka_unit_test(test_sinusoidal_positions_agree_with_torch),
        cmocka_unit_test(test_rope_with_several_and_shared_heads_agrees_with_torch),
        cmocka_unit_test(test_the_llama_block_agrees_with_torch),
        cmocka_unit_test(test_a_gpt2_block_with_sinusoidal_positions_agrees_with_torch),
        cmocka_unit_test(test_the_llama_example_agrees_with_torch),
        cmocka_unit_test(test_moving_every_position_leaves_the_gradients_before_the_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
