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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
