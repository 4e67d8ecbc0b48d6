/* test_generate.c - `attnstep generate` (SPEC §19, issue 35) against a numpy
 * re-implementation in float64 that recomputes the whole sequence at every step (no
 * cache): tests/data/generate/make_generate.py wrote each case's input (random weights,
 * ids through E and P) and its NAME.expected (the 20 tokens, each step's logits, and for
 * the seeded case each step's uniform number from splitmix64). The tokens must be the
 * same; the logits agree to 1e-12 (relative, or absolute below 1); the seeded draw is
 * reproducible, u is numpy's bit for bit and lies in the chosen token's interval. And
 * every row generate makes is, bit for bit, the row the whole run makes on the finished
 * sequence (the cache saves work, it changes nothing). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/generate.out"
#define CLI_ERR "build/tests/generate.err"
#include "cli_util.h"

#include "attnstep/attention.h"
#include "attnstep/block.h"
#include "attnstep/generate.h"

#define STEPS 20
#define MAX_VOCAB 64
#define DATA "tests/data/generate/"

typedef struct expected {
    size_t tokens[STEPS];
    double logits[STEPS][MAX_VOCAB];
    size_t vocab;
    double u[STEPS];
    int seeded;
} expected;

/* Reads NAME.expected (make_generate.py's sections: tokens, logits k …, u k x). */
static void read_expected(const char *name, expected *e)
{
    char path[256], word[16];
    FILE *f;
    size_t k, v;

    memset(e, 0, sizeof *e);
    snprintf(path, sizeof path, DATA "%s.expected", name);
    assert_non_null(f = fopen(path, "r"));
    assert_int_equal(fscanf(f, "%15s", word), 1);
    assert_string_equal(word, "tokens");
    for (k = 0; k < STEPS; k++)
        assert_int_equal(fscanf(f, "%zu", &e->tokens[k]), 1);
    while (fscanf(f, "%15s %zu", word, &k) == 2) {
        assert_true(k < STEPS);
        if (strcmp(word, "u") == 0) {
            assert_int_equal(fscanf(f, "%lf", &e->u[k]), 1);
            e->seeded = 1;
            continue;
        }
        assert_string_equal(word, "logits");
        for (v = 0; v < MAX_VOCAB && fscanf(f, "%lf", &e->logits[k][v]) == 1; v++)
            ;
        e->vocab = v;
    }
    fclose(f);
}

/* generate on case name's input, 20 tokens; in and g to free. */
static void generate(const char *name, as_input *in, as_generate *g)
{
    char path[256];
    as_error err;

    snprintf(path, sizeof path, DATA "%s.txt", name);
    as_error_init(&err, AS_LANG_EN);
    if (as_parse_file(in, path, &err) != 0 ||
        as_generate_run(g, in, STEPS, AS_MASK_DEFAULT, 0, &err) != 0)
        fail_msg("%s:%d:%d: %s (%s)", err.file, err.line, err.col, err.msg, err.hint);
}

/* Every row of g->H is the run's row on g's finished sequence, bit for bit. */
static void assert_rows_are_the_runs(const as_generate *g)
{
    as_block_trace b;
    as_trace t;
    as_error err;
    const as_matrix *last;

    as_error_init(&err, AS_LANG_EN);
    if (g->p.block != AS_BLOCK_NONE)
        assert_int_equal(as_block_run(&b, &t, &g->p, &err), 0);
    else
        assert_int_equal(as_attention_run(&t, &g->p, &err), 0);
    last = g->p.block != AS_BLOCK_NONE ? &b.Y : &t.O;
    assert_int_equal(last->rows, g->H.rows);
    assert_int_equal(last->cols, g->H.cols);
    assert_memory_equal(last->v, g->H.v, g->H.rows * g->H.cols * sizeof *g->H.v);
    if (g->p.block != AS_BLOCK_NONE)
        as_block_trace_free(&b);
    as_trace_free(&t);
}

static void check_case(const char *name)
{
    expected e;
    as_input in;
    as_generate g;
    size_t k, v;

    read_expected(name, &e);
    generate(name, &in, &g);
    assert_int_equal(e.vocab, 12); /* make_generate.py's VOCAB: every logit compared */
    assert_int_equal(g.head[0].vocab, e.vocab);
    for (k = 0; k < STEPS; k++) {
        const as_out_head *hd = &g.head[k];
        for (v = 0; v < e.vocab; v++) {
            const double want = e.logits[k][v], got = hd->logits.v[v];
            if (!(fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1)))
                fail_msg("%s step %zu logit %zu: %.17g, numpy %.17g", name, k, v, got, want);
        }
        if (g.tokens[k] != e.tokens[k])
            fail_msg("%s step %zu: token %zu, numpy %zu", name, k, g.tokens[k], e.tokens[k]);
        if (e.seeded) {
            const size_t tok = g.tokens[k];
            assert_true(hd->u == e.u[k]); /* splitmix64, exactly */
            assert_true((tok == 0 ? 0 : hd->draw_cum.v[tok - 1]) <= hd->u &&
                        hd->u < hd->draw_cum.v[tok]);
            assert_true(hd->final.v[tok] > 0);
        }
    }
    /* each token's row of E plus P at its position is the next row of X */
    for (k = 0; k + 1 < STEPS; k++)
        for (v = 0; v < g.X.cols; v++)
            assert_true(AS_AT(g.X, g.n0 + k, v) ==
                        AS_AT(*g.E, g.tokens[k], v) + AS_AT(*g.P, g.n0 + k, v));
    assert_rows_are_the_runs(&g);
    as_generate_free(&g);
    as_input_free(&in);
}

static void test_greedy_without_the_block_equals_numpy(void **state)
{
    (void)state;
    check_case("plain");
}

static void test_greedy_with_the_block_equals_numpy(void **state)
{
    (void)state;
    check_case("block");
}

static void test_greedy_with_wout_and_e_equals_numpy(void **state)
{
    (void)state;
    check_case("wout");
}

static void test_a_seeded_draw_equals_numpy_and_u_lies_in_the_tokens_interval(void **state)
{
    (void)state;
    check_case("seeded");
}

static void test_a_seeded_draw_is_reproducible(void **state)
{
    as_input in1, in2;
    as_generate a, b;

    (void)state;
    generate("seeded", &in1, &a);
    generate("seeded", &in2, &b);
    assert_memory_equal(a.tokens, b.tokens, STEPS * sizeof *a.tokens);
    as_generate_free(&a);
    as_generate_free(&b);
    as_input_free(&in1);
    as_input_free(&in2);
    assert_int_equal(run("generate --format json " DATA "seeded.txt 3"), 0);
    assert_file_contains(CLI_OUT, "\"tokens\": [6, 3, 2]"); /* numpy's first three */
    assert_int_equal(run("generate " DATA "seeded.txt 3"), 0);
    assert_file_contains(CLI_OUT, "生成的词：[6, 3, 2]");
    assert_int_equal(run("generate --lang en " DATA "seeded.txt 3"), 0);
    assert_file_contains(CLI_OUT, "tokens made: [6, 3, 2]");
}

static void test_generate_refuses_what_it_cannot_do(void **state)
{
    (void)state;
    assert_int_equal(run("generate --lang en " DATA "seeded.txt 0"), 2);
    assert_file_contains(CLI_ERR, "N is how many tokens to make: a positive whole number, not \"0\"");
    assert_int_equal(run("generate --lang en examples/f11.txt 2"), 2);
    assert_file_contains(CLI_ERR, "generate needs an output head, and the file has no head:");
    assert_int_equal(run("generate --lang en examples/head.txt 2"), 2); /* Wout, no E */
    assert_file_contains(CLI_ERR, "which takes its row of the embedding table E, and the file gives no E");
    assert_int_equal(run("generate --lang en " DATA "seeded.txt 40"), 2); /* P has 32 rows */
    assert_file_contains(CLI_ERR, "generating reaches position 42, but the position table P has only 32 rows");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_without_the_block_equals_numpy),
        cmocka_unit_test(test_greedy_with_the_block_equals_numpy),
        cmocka_unit_test(test_greedy_with_wout_and_e_equals_numpy),
        cmocka_unit_test(test_a_seeded_draw_equals_numpy_and_u_lies_in_the_tokens_interval),
        cmocka_unit_test(test_a_seeded_draw_is_reproducible),
        cmocka_unit_test(test_generate_refuses_what_it_cannot_do),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
