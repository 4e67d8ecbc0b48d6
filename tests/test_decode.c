/* test_decode.c - `decode` (SPEC §11): generation with a KV cache gives every row bit for
 * bit as the whole-matrix run does, compared as the shortest round-trip text JSON
 * prints, on generated inputs (the project's PRNG) of up to 512 tokens with several
 * heads, shared K/V heads, windows, biases, custom lower-triangular masks and Wo. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>

#define CLI_OUT "build/tests/decode.out"
#define CLI_ERR "build/tests/decode.err"
#include "cli_util.h"

#include "attnstep/attention.h"
#include "attnstep/decode.h"
#include "attnstep/model.h"
#include "attnstep/numfmt.h"
#include "attnstep/parse.h"
#include "attnstep/prng.h"

#include "gen_input.h" /* generate(): the inputs, from the project's PRNG */

/* ---- bit for bit, as JSON text ---- */

/* Nonzero when a and b print as the same shortest round-trip text. */
static int same_text(double a, double b)
{
    char x[40], y[40];

    as_fmt_roundtrip(x, sizeof x, a);
    as_fmt_roundtrip(y, sizeof y, b);
    return strcmp(x, y) == 0;
}

static void rows_agree(const char *what, uint64_t which, const as_matrix *got,
                       const as_matrix *want, size_t cols)
{
    size_t i, j;

    for (i = 0; i < got->rows; i++)
        for (j = 0; j < cols; j++)
            if (!same_text(AS_AT(*got, i, j), AS_AT(*want, i, j))) {
                print_error("input %llu: %s[%zu][%zu]: decode %.17g, run %.17g\n",
                            (unsigned long long)which, what, i, j, AS_AT(*got, i, j),
                            AS_AT(*want, i, j));
                fail();
            }
}

/* Each step's scores and shares of head h, made again (as_decode_scores), against the
 * run's rows: positions 0..t as decode shows them, and the run's cells past t are the
 * -inf and 0 of positions the cache does not hold yet. */
static void steps_agree(uint64_t which, const as_decode *d, const as_problem *p,
                        const as_trace *t, size_t h)
{
    as_decode_row r = {0};
    as_matrix S, A;
    size_t i, j;

    assert_int_equal(as_decode_row_init(&r, p), 0);
    assert_int_equal(as_matrix_init(&S, p->n, p->n), 0);
    assert_int_equal(as_matrix_init(&A, p->n, p->n), 0);
    for (i = 0; i < p->n; i++) {
        assert_int_equal(as_decode_scores(&r, d, p, h, i), 0);
        for (j = 0; j < p->n; j++) {
            AS_AT(S, i, j) = j <= i ? r.S[j] : -INFINITY;
            AS_AT(A, i, j) = j <= i ? r.A[j] : 0.0;
        }
    }
    rows_agree("S", which, &S, &t->head[h].S, p->n);
    rows_agree("A", which, &A, &t->head[h].A, p->n);
    as_matrix_free(&S);
    as_matrix_free(&A);
    as_decode_row_free(&r);
}

/* Decodes input `which` of n tokens and compares every row with the run's. */
static void decode_equals_run(uint64_t which, size_t n)
{
    static gen g;
    as_input in;
    as_problem p;
    as_trace t;
    as_decode d;
    as_error err;
    size_t h;

    generate(&g, which, n);
    as_error_clear(&err);
    if (as_parse_text(&in, g.buf, g.len, "generated.txt", &err) != 0 ||
        as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0 ||
        as_attention_run(&t, &p, &err) != 0 || as_decode_run(&d, &p, 1, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    rows_agree("O", which, &d.O, &t.O, t.O.cols);
    rows_agree("C", which, &d.C, &t.C, t.C.cols);
    for (h = 0; h < p.heads; h++) {
        steps_agree(which, &d, &p, &t, h);
        rows_agree("O_h", which, &d.Oh[h], &t.head[h].O, p.d_v);
    }
    assert_int_equal(as_decode_compare(&d, &t, NULL), 0);
    as_decode_free(&d);
    /* the lean decode (blocks of rows projected together) gives the same bits */
    if (as_decode_run(&d, &p, 0, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    rows_agree("O (lean)", which, &d.O, &t.O, t.O.cols);
    as_decode_free(&d);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

/* 100 short inputs (1 to 40 tokens) and 12 long ones (up to 512 tokens, four of them
 * exactly 512; one under valgrind). */
static void test_decode_rows_equal_run_rows_bit_for_bit_on_generated_inputs(void **state)
{
    as_prng r;
    uint64_t i;

    (void)state;
    as_prng_seed(&r, 15);
    for (i = 0; i < 100; i++)
        decode_equals_run(i, (size_t)as_prng_range(&r, 1, 40));
    for (i = 100; i < (under_valgrind() ? 101u : 112u); i++)
        decode_equals_run(i, i < 104 ? 512 : (size_t)as_prng_range(&r, 41, 512));
}

/* A layer large enough for the lean decode to run its heads on two threads (4 heads x
 * 512^2 x (d_k + d_v) = 16.8 million multiply-adds, above AS_THREAD_MIN_WORK): its O is
 * still run's, bit for bit. */
static void test_the_lean_decode_on_two_threads_equals_run(void **state)
{
    static gen g;
    as_prng r;
    as_input in;
    as_problem p;
    as_trace t;
    as_decode d;
    as_error err;

    (void)state;
    as_prng_seed(&r, 4512);
    g.len = 0;
    put(&g, "heads: 4\nkv_heads: 2\nmask: window 300\n");
    matrix(&g, &r, "X", 512, 6);
    matrix(&g, &r, "Wq", 6, 32);
    matrix(&g, &r, "Wk", 6, 16);
    matrix(&g, &r, "Wv", 6, 16);
    matrix(&g, &r, "Wo", 32, 3);
    as_error_clear(&err);
    if (as_parse_text(&in, g.buf, g.len, "large.txt", &err) != 0 ||
        as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0 ||
        as_attention_run_lean(&t, &p, &err) != 0 || as_decode_run(&d, &p, 0, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    rows_agree("O (two threads)", 4512, &d.O, &t.O, t.O.cols);
    as_decode_free(&d);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

/* The generated inputs are what they claim: several heads, shared heads and windows. */
static void test_the_generated_inputs_cover_heads_shared_heads_and_windows(void **state)
{
    static gen g;
    int heads = 0, shared = 0, window = 0, custom = 0, wo = 0, pos = 0;
    uint64_t i;

    (void)state;
    for (i = 0; i < 112; i++) {
        generate(&g, i, 30);
        heads += strstr(g.buf, "heads: 1\n") != g.buf;
        shared += strstr(g.buf, "kv_heads: 1\n") != NULL && strstr(g.buf, "heads: 1\n") != g.buf;
        window += strstr(g.buf, "mask: window") != NULL;
        custom += strstr(g.buf, "M = [") != NULL;
        wo += strstr(g.buf, "Wo = [") != NULL;
        pos += strstr(g.buf, "positions: ") != NULL;
    }
    assert_true(heads >= 40 && shared >= 15 && window >= 20 && custom >= 10 && wo >= 30 &&
                pos >= 30);
}

/* ---- the command ---- */

static void test_decode_prints_the_checked_walk_through_in_chinese(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/decode.txt"), 0);
    assert_golden("tests/golden/decode.zh.txt");
}

static void test_decode_prints_the_checked_walk_through_in_english(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/decode.txt --lang en"), 0);
    assert_golden("tests/golden/decode.en.txt");
}

static void test_decode_prints_each_head_and_the_shared_cache(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/gqa.txt --lang en"), 0);
    assert_golden("tests/golden/decode.gqa.en.txt");
}

/* mask: window 2 -- step 2 reads only 爱 and 你 from the cache (checked by hand:
 * tests/golden/README.md). */
static void test_decode_with_a_window_reads_only_the_last_rows_of_the_cache(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/window.txt --lang en"), 0);
    assert_golden("tests/golden/decode.window.en.txt");
}

static void test_decode_json_is_the_checked_steps_and_output(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/decode.txt --format json"), 0);
    assert_golden("tests/golden/decode.json");
}

/* The O line of decode --only O is run's, character for character. */
static void test_decode_only_o_prints_the_same_json_text_as_run(void **state)
{
    char *dec, *ran, *a, *b;

    (void)state;
    assert_int_equal(run("decode --only O --format json tests/data/gqa/window_3_gqa.txt"), 0);
    dec = slurp(CLI_OUT);
    assert_int_equal(run("run --only O --format json tests/data/gqa/window_3_gqa.txt"), 0);
    ran = slurp(CLI_OUT);
    assert_non_null(dec);
    assert_non_null(ran);
    a = strstr(dec, "\n  \"O\": ");
    b = strstr(ran, "\n  \"O\": ");
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    free(dec);
    free(ran);
}

static void test_the_ascii_walk_through_has_no_unicode_symbols(void **state)
{
    static const char *const sym[] = {"≈", "₀", "₁", "−∞"};
    size_t i;

    (void)state;
    assert_int_equal(run("decode examples/window.txt --ascii --lang en"), 0);
    for (i = 0; i < sizeof sym / sizeof sym[0]; i++)
        assert_file_lacks(CLI_OUT, sym[i]);
    assert_file_contains(CLI_OUT, "(sliding window: the cache need keep only the last 2 rows)");
    assert_file_contains(CLI_OUT, "reads from the cache: [爱,你]");
}

/* ---- decode's output read back by check ---- */

#define GEN_IN "build/tests/decode-gen.txt"
#define DEC_OUT "build/tests/decode-answers.txt"

/* `decode OPTS` of input, then `check input` on that output: every table and row right. */
static void assert_decode_reads_back(const char *input, const char *opts)
{
    char cmd[512];

    snprintf(cmd, sizeof cmd, "decode %s %s -o " DEC_OUT " --force", opts, input);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "check --lang en %s " DEC_OUT, input);
    if (run(cmd) != 0) {
        char *err = slurp(CLI_ERR), *out = slurp(CLI_OUT);
        print_error("decode %s %s does not read back as all right:\n%s%s\n", opts, input,
                    out ? out : "", err ? err : "");
        free(err);
        free(out);
        fail();
    }
    assert_file_contains(CLI_OUT, "all right: ");
}

/* SPEC §6, §11: what decode prints -- q_t, k_t, v_t, the cache K, V (the first t+1 rows
 * of run's), each step's s_t and a_t over the positions it reads, each head's o_t and
 * the output row -- reads back as ANSWERS, graded all right, in both languages and with
 * --ascii, for every example decode takes. */
static void test_decode_output_of_every_example_reads_back_as_answers_all_right(void **state)
{
    static const char *const ex[] = {"decode", "f11", "gqa", "window", "tiles", "two-heads",
                                     "alibi", "sinusoidal", "rope", "padding-mask"};
    static const char *const opts[] = {"", "--lang en", "--ascii", "--ascii --lang en"};
    char path[64];
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++)
        for (k = 0; k < sizeof opts / sizeof opts[0]; k++) {
            snprintf(path, sizeof path, "examples/%s.txt", ex[i]);
            assert_decode_reads_back(path, opts[k]);
        }
}

/* With a block (SPEC §15) decode also prints each step's rows of the block's tables,
 * N1[t], H1[t], N2[t], U[t], G[t], F[t], D[t], H2[t], Y[t]: they read back as row answers
 * of those tables too (U[0] is U's row 0, not a head: the block's tables have none),
 * pre and post, RMSNorm and LayerNorm (torch, annotated), GELU and SwiGLU, final norm;
 * a wrong row is judged by its step, from the student's own rows (SPEC §6's chain). */
static void test_decode_output_of_a_block_reads_back_row_by_row(void **state)
{
    static const char *const in[] = {"examples/block-pre-gelu.txt", "examples/block-f11-post-rms.txt",
                                     "tests/data/block/cases/gpt_03.txt",
                                     "tests/data/block/cases/llama_00.txt",
                                     "tests/data/block/cases/post_01.txt"};
    static const char *const opts[] = {"", "--lang en", "--ascii", "--ascii --lang en"};
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof in / sizeof in[0]; i++)
        for (k = 0; k < sizeof opts / sizeof opts[0]; k++)
            assert_decode_reads_back(in[i], opts[k]);
    assert_decode_reads_back("tests/data/block/cases/llama_00.txt", "");
    assert_file_contains(CLI_OUT, "\nG[1]: right\n");
    assert_decode_reads_back("examples/block-pre-gelu.txt", "");
    assert_file_contains(CLI_OUT, "\nN1[0]: right\n");
    assert_file_contains(CLI_OUT, "\nU[2]: right\n");
    assert_file_contains(CLI_OUT, "\nH2[1]: right\n");
    assert_file_contains(CLI_OUT, "score: 13/14\n"); /* all but QKT, which decode never makes */
    /* a row of F by GELU's tanh form where the file asks the exact one: U[1] of the
     * example is [-1.9171169249, 1.9171169249, -2.6604437811], and
     * 0.5u(1 + tanh(√(2/π)(u + 0.044715u³))) of it is [-0.0529075795, 1.8642093454,
     * -0.0099087148] (Python's math, float64) */
    assert_int_equal(sh("sed 's/^F\\[1\\] .*/F[1] = [-0.0529075795, 1.8642093454, -0.0099087148]/' "
                        DEC_OUT " > build/tests/decode-answers-tanh.txt"), 0);
    assert_int_equal(run("check --lang en examples/block-pre-gelu.txt build/tests/decode-answers-tanh.txt"), 1);
    assert_file_contains(CLI_OUT, "\nF[1]: wrong (3 of 3 cells)\n");
    assert_file_contains(CLI_OUT, "diagnosis: gelu_tanh_for_erf");
    assert_file_contains(CLI_OUT, "\nF[2]: right\n");
    /* ... and the rows after it worked from that row are carried, each row from the
     * student's own rows: D[1] = F[1]·Wdown = [F₀/2, F₁/2, F₂/2, F₂/2] ≈ [-0.026454,
     * 0.932105, -0.004954, -0.004954], H2[1] = H1[1] + D[1] with decode's H1[1] =
     * [0.1830061552, 1.1056612817, 0.8943387183, 0.3943287186] ≈ [0.156552, 2.037766,
     * 0.889385, 0.389375] (by hand, 6 places), Y[1] = H2[1] (no final norm) */
    assert_int_equal(sh("sed -i 's/^D\\[1\\] .*/D[1] = [-0.026454, 0.932105, -0.004954, -0.004954]/; "
                        "s/^H2\\[1\\] .*/H2[1] = [0.156552, 2.037766, 0.889385, 0.389375]/; "
                        "s/^Y\\[1\\] .*/Y[1] = [0.156552, 2.037766, 0.889385, 0.389375]/' "
                        "build/tests/decode-answers-tanh.txt"), 0);
    assert_int_equal(run("check --lang en examples/block-pre-gelu.txt build/tests/decode-answers-tanh.txt"), 1);
    assert_file_contains(CLI_OUT, "score: 12.67/14\n"); /* F: 2 rows of 3 */
    assert_file_contains(CLI_OUT, "\nD[1]: this step itself was done right; the error comes from "
                                  "your own F[1] (carried_error: the mark is earned)\n");
    assert_file_contains(CLI_OUT, "\nH2[1]: this step itself was done right; the error comes from "
                                  "your own F[1] (carried_error: the mark is earned)\n");
    assert_file_contains(CLI_OUT, "\nY[1]: this step itself was done right");
    assert_file_contains(CLI_OUT, "\n4 of 48 tables are wrong\n");
}

/* The same for 60 generated inputs of 1 to 8 tokens (the cache is drawn up to 8 rows):
 * several heads, shared K/V heads, windows, custom masks, positions (RoPE with several
 * heads names its turned rows per head), Wo. */
static void test_decode_output_of_generated_inputs_reads_back_all_right(void **state)
{
    static gen g;
    as_prng r;
    uint64_t i;
    FILE *f;

    (void)state;
    as_prng_seed(&r, 1506);
    for (i = 0; i < (under_valgrind() ? 4u : 60u); i++) {
        generate(&g, 600 + i, (size_t)as_prng_range(&r, 1, 8));
        assert_non_null(f = fopen(GEN_IN, "wb"));
        assert_int_equal(fwrite(g.buf, 1, g.len, f), g.len);
        assert_int_equal(fclose(f), 0);
        assert_decode_reads_back(GEN_IN, i % 2 ? "--lang en" : "--ascii");
    }
}

/* A student's decode answers with one wrong cell: that cell is marked, with what was
 * written and what was expected, and the mistake is taught (zh and en). Step 1 of
 * examples/decode.txt (the chapter's row 1): a₁ written [0.6698, 0.3203] -- the second
 * share miscopied (0.3302384507 by the chapter). Step 1 reads two positions, so the
 * student wrote two cells, not the three of the table's row (the third is the future). */
static void test_a_wrong_cell_of_a_decode_step_is_marked_in_both_languages(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/decode.txt tests/data/decode/step1-wrong-share.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "s1: right");
    assert_file_contains(CLI_OUT, "a1: wrong (1 of 2 cells)");
    assert_file_contains(CLI_OUT, "a1[1]: written 0.3203, expected 0.3302384507");
    assert_file_contains(CLI_OUT, "K[:2]: right");
    assert_int_equal(run("check examples/decode.txt tests/data/decode/step1-wrong-share.txt"), 1);
    assert_file_contains(CLI_OUT, "a1：不对（有1个格子不对，共2个）");
    assert_file_contains(CLI_OUT, "a1[1]：写的是0.3203，应为0.3302384507");
}

/* A usage error or an input decode cannot follow: exit 2, nothing on stdout. */
static void refused(const char *args, const char *want)
{
    assert_int_equal(run(args), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, want);
}

static void test_decode_refuses_cross_attention(void **state)
{
    (void)state;
    refused("decode examples/cross-translation.txt --lang en",
            "error: decode needs self-attention, but Xkv is given");
    assert_file_contains(CLI_ERR, "hint:");
}

static void test_decode_refuses_a_mask_that_reads_the_future(void **state)
{
    FILE *f = fopen("build/tests/decode_future.txt", "w");

    (void)state;
    assert_non_null(f);
    fputs("X = [[1], [2]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\nM = [[0, 0], [0, 0]]\n", f);
    fclose(f);
    refused("decode build/tests/decode_future.txt --lang en",
            "decode_future.txt:5:1: error: the mask lets row 0 read position 1, which is not "
            "generated yet when row 0 is");
}

static void test_decode_refuses_formats_and_tables_it_cannot_write(void **state)
{
    (void)state;
    refused("decode examples/decode.txt --format md --lang en",
            "error: decode writes only --format text, json or html");
    refused("decode examples/decode.txt --only A --format json --lang en",
            "error: decode takes only --only O");
    refused("decode examples/decode.txt --only O --lang en",
            "error: decode --only O needs --format json");
    refused("decode examples/decode.txt --tiles 2 --lang en",
            "error: --tiles means nothing to decode");
}

/* SPEC §11: several heads give one row per head, and with several K/V heads the cache
 * rows are per K/V head too. By hand, examples/two-heads.txt at t = 0 (x₀ = [1,0,1]):
 * q and k per head [2,0] and [0,1], v [1,1] and [1,0]; one readable key, so A = 1 and
 * the scores are 2·2/√2 = 2√2 and 1/√2 (1/√2 correctly rounded is …476). examples/gqa.txt
 * at t = 1 (x₁ = [1,−1]): q [1,0] and [1,−1], the one shared k [0,1] and v [0,20];
 * head 1's shares 1/(1+e^−√2) = 0.8044296825069569 (Python's math module). */
static void test_decode_json_has_a_row_per_head_and_per_kv_head(void **state)
{
    (void)state;
    assert_int_equal(run("decode examples/two-heads.txt --format json"), 0);
    assert_file_contains(CLI_OUT, "{\"t\": 0, \"q\": [[2,0],[0,1]], \"k\": [[2,0],[0,1]], "
                                  "\"v\": [[1,1],[1,0]], \"scores\": [[2.8284271247461903],"
                                  "[0.7071067811865476]], \"A\": [[1],[1]], ");
    assert_int_equal(run("decode examples/gqa.txt --format json"), 0);
    assert_file_contains(CLI_OUT, "{\"t\": 1, \"q\": [[1,0],[1,-1]], \"k\": [0,1], \"v\": [0,20], "
                                  "\"scores\": [[0.7071067811865476,0],[0.7071067811865476,"
                                  "-0.7071067811865476]], \"A\": [[0.6697615493266569,"
                                  "0.33023845067334306],[0.8044296825069569,");
}

/* A step that leaves the range of a double, or a row with nothing to read, is refused
 * with the step (by its token) or the row, as run refuses them; nothing on stdout. Row
 * 2's q₂ = 1e300 · 1e10 overflows; rows 0 and 1 are fine. */
static void test_decode_refuses_a_step_that_overflows_or_reads_nothing(void **state)
{
    FILE *f = fopen("build/tests/decode_overflow.txt", "w");

    (void)state;
    assert_non_null(f);
    fputs("tokens: a b c\nX = [[1, 1], [1, -1], [1e300, 1]]\nWq = [[1e10, 0], [0, 1]]\n"
          "Wk = [[1, 0], [0, 1]]\nWv = [[1, 0], [0, 1]]\n", f);
    fclose(f);
    refused("decode build/tests/decode_overflow.txt --lang en",
            "decode_overflow.txt: error: step 2 (\"c\") leaves the range of a double\n"
            "  hint: the inputs are too large to multiply safely; scale them down\n");
    refused("decode build/tests/decode_overflow.txt",
            "decode_overflow.txt: 错误：");
    /* M row 1 is all −∞ (tests/bad/fully-masked-row.txt): the error points at M */
    refused("decode tests/bad/fully-masked-row.txt --lang en",
            "fully-masked-row.txt:5:1: error: row 1 (\"1\") has no readable position: every "
            "entry of its S row is -inf\n");
}

/* The other places a step leaves the range, by hand: step 1's score q1·k1 = 1e200 · 1e200
 * (q and k finite, their product not); step 0's output C0 @ Wo = 1e308 + 1e308. */
static void test_decode_refuses_a_score_or_an_output_row_that_overflows(void **state)
{
    FILE *f = fopen("build/tests/decode_score.txt", "w");

    (void)state;
    assert_non_null(f);
    fputs("tokens: a b\nX = [[1, 1], [1e200, 1]]\nWq = [[1, 0], [0, 1]]\nWk = [[1, 0], [0, 1]]\n"
          "Wv = [[1, 0], [0, 1]]\n", f);
    fclose(f);
    refused("decode build/tests/decode_score.txt --lang en",
            "decode_score.txt: error: step 1 (\"b\") leaves the range of a double\n");
    f = fopen("build/tests/decode_output.txt", "w");
    assert_non_null(f);
    fputs("tokens: a b\nX = [[1, 1], [1, 1]]\nWq = [[1, 0], [0, 1]]\nWk = [[1, 0], [0, 1]]\n"
          "Wv = [[1, 0], [0, 1]]\nWo = [[1e308], [1e308]]\n", f);
    fclose(f);
    refused("decode build/tests/decode_output.txt --lang en",
            "decode_output.txt: error: step 0 (\"a\") leaves the range of a double\n");
}

/* Writes a decode of 1200 tokens and 2 heads (d_model 4, each head's Query and Key of
 * width 2, identity weights) whose rows are [1, 0, 1, 0] but for row a, [1e200, 1, 1, 0]
 * (head 0's score q·q overflows there), and row b, [1, 0, 1e200, 1] (head 1's); -1: none. */
static void write_two_heads(const char *path, long a, long b)
{
    FILE *f = fopen(path, "w");
    long i;

    assert_non_null(f);
    fputs("heads: 2\nX = [", f);
    for (i = 0; i < 1200; i++)
        fprintf(f, "%s[%s]", i ? ",\n     " : "",
                i == a ? "1e200, 1, 1, 0" : i == b ? "1, 0, 1e200, 1" : "1, 0, 1, 0");
    fputs("]\nWq = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n"
          "Wk = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n"
          "Wv = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n", f);
    fclose(f);
}

/* A lean decode (--only O) of 2 heads x 1200² x (2 + 2), past AS_THREAD_MIN_WORK, runs its
 * heads on two threads: the step refused is the first that overflows on either head,
 * as on one thread. */
static void test_a_decode_on_two_threads_refuses_the_first_step_that_overflows(void **state)
{
    static const long rows[][2] = {{-1, 700}, {900, 700}, {700, 900}, {700, -1}};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        write_two_heads("build/tests/decode_threads.txt", rows[i][0], rows[i][1]);
        refused("decode --only O --format json build/tests/decode_threads.txt --lang en",
                "decode_threads.txt: error: step 700 (\"700\") leaves the range of a double\n");
    }
}

/* decode keeps every step's scores and shares to show them: 8192 heads of 100 × 100
 * scores are 81 920 000 numbers, more than the 67 108 864 (2^26) all heads may keep,
 * so it is refused before any work, with the way out the hint names (--only O). */
static void test_decode_refuses_more_scores_than_it_may_keep_and_says_only_o(void **state)
{
    FILE *f = fopen("build/tests/decode_heads.txt", "w");
    size_t i;

    (void)state;
    assert_non_null(f);
    fputs("heads: 8192\nX = [", f);
    for (i = 0; i < 100; i++)
        fprintf(f, "%s[%zu]", i ? ", " : "", i % 3);
    fputs("]\n", f);
    for (i = 0; i < 3; i++) {
        size_t c;
        fprintf(f, "W%c = [[", "qkv"[i]);
        for (c = 0; c < 8192; c++)
            fputs(c ? ", 1" : "1", f);
        fputs("]]\n", f);
    }
    fclose(f);
    refused("decode build/tests/decode_heads.txt --lang en",
            "decode_heads.txt:1:1: error: 8192 heads of [100,100] scores would hold more than "
            "the 67108864 numbers that all heads together may keep\n  hint: every step's scores "
            "and shares are kept to be shown; --only O keeps only the output\n");
}

/* ---- the whole block (SPEC §15), row by row: decode's JSON against run's ---- */

#define BLK_IN "build/tests/decode-block.txt"
#define RUN_JS "build/tests/decode-block-run.json"
#define DEC_JS "build/tests/decode-block-decode.json"
#define LEAN_JS "build/tests/decode-block-lean.json"
#define LEANY_JS "build/tests/decode-block-run-lean.json"

static const char *const block_names[] = {"N1", "H1", "N2", "U", "G", "F", "D", "H2", "Y"};

/* Row t of the table whose JSON starts at key (`"NAME": [[`) in s, from `from` on: *len
 * bytes at *at, the text between the row's brackets. 0 when there is no such row. */
static int json_matrix_row(const char *from, const char *key, size_t t, const char **at,
                           size_t *len)
{
    const char *p = from != NULL ? strstr(from, key) : NULL, *end;
    size_t i;

    if (p == NULL)
        return 0;
    p += strlen(key);
    end = strstr(p, "]]");
    for (i = 0; i < t && p != NULL; i++)
        if ((p = strstr(p, "],[")) != NULL)
            p += 3;
    if (p == NULL || end == NULL || p > end)
        return 0;
    *at = p;
    *len = strcspn(p, "]");
    return 1;
}

/* The row of key (`"NAME": [`) in decode's JSON line of step t (from `from` within it on):
 * as json_matrix_row, 0 when the step has none. */
static int json_step_row(const char *line, const char *from, const char *key, const char **at,
                         size_t *len)
{
    const char *p = from != NULL ? strstr(from, key) : NULL, *nl = strchr(line, '\n');

    if (p == NULL || (nl != NULL && p > nl))
        return 0;
    *at = p + strlen(key);
    *len = strcspn(*at, "]");
    return 1;
}

static void rows_same(const char *file, const char *what, size_t t, const char *a, size_t alen,
                      const char *b, size_t blen)
{
    if (alen != blen || memcmp(a, b, alen) != 0) {
        print_error("%s: step %zu, %s: decode [%.*s], run [%.*s]\n", file, t, what, (int)alen,
                    a, (int)blen, b);
        fail();
    }
}

/* `decode FILE --format json` against `run FILE --format json`: every step's o and each
 * row of the block's tables (all those run makes, and no other) the same text, the
 * shortest that reads back to the same double: bit for bit. And `decode --only O`, the
 * lean decode (N1 made first, rows projected ahead), the same O as run's; and `run
 * --only Y`, the lean run (with layout: torch its FFN reads the file's weights
 * transposed, no copy), the same Y. n: X's rows. */
static void block_decode_equals_run(const char *file, size_t n)
{
    char cmd[512], key[64];
    char *rj, *dj, *lj, *yj;
    const char *rblock, *a, *b;
    size_t t, k, alen, blen;

    snprintf(cmd, sizeof cmd, "run %s --format json -o " RUN_JS " --force", file);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "decode %s --format json -o " DEC_JS " --force", file);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "decode %s --only O --format json -o " LEAN_JS " --force", file);
    assert_int_equal(run(cmd), 0);
    assert_non_null(rj = slurp(RUN_JS));
    assert_non_null(dj = slurp(DEC_JS));
    assert_non_null(lj = slurp(LEAN_JS));
    snprintf(cmd, sizeof cmd, "run %s --only Y --format json -o " LEANY_JS " --force", file);
    assert_int_equal(run(cmd), 0);
    assert_non_null(yj = slurp(LEANY_JS));
    assert_non_null(rblock = strstr(rj, "\n  \"block\": {"));
    for (t = 0; t < n; t++) {
        const char *line, *dblock;
        size_t tables = 0, keys = 0;
        snprintf(key, sizeof key, "    {\"t\": %zu, ", t);
        assert_non_null(line = strstr(dj, key));
        assert_true(json_matrix_row(strstr(rj, "\n  \"O\": [["), "\"O\": [[", t, &b, &blen));
        assert_true(json_step_row(line, line, "\"o\": [", &a, &alen));
        rows_same(file, "o", t, a, alen, b, blen);
        assert_true(json_matrix_row(strstr(lj, "\n  \"O\": [["), "\"O\": [[", t, &a, &alen));
        rows_same(file, "O (--only O)", t, a, alen, b, blen);
        assert_true(json_matrix_row(rblock, "\"Y\": [[", t, &b, &blen));
        assert_true(json_matrix_row(strstr(yj, "\"block\": {"), "\"Y\": [[", t, &a, &alen));
        rows_same(file, "Y (run --only Y)", t, a, alen, b, blen);
        assert_non_null(dblock = strstr(line, "\"block\": {"));
        for (k = 0; k < sizeof block_names / sizeof block_names[0]; k++) {
            snprintf(key, sizeof key, "\"%s\": [[", block_names[k]);
            if (!json_matrix_row(rblock, key, t, &b, &blen))
                continue;
            tables++;
            snprintf(key, sizeof key, "\"%s\": [", block_names[k]);
            if (!json_step_row(line, dblock, key, &a, &alen)) {
                print_error("%s: step %zu has no row of %s\n", file, t, block_names[k]);
                fail();
            }
            rows_same(file, block_names[k], t, a, alen, b, blen);
        }
        for (a = dblock; (a = strstr(a, "\": [")) != NULL && a < strchr(line, '\n'); a++)
            keys++;
        assert_true(tables >= 2); /* H1 and Y at the least */
        assert_int_equal(keys, tables); /* no table run does not make */
    }
    free(rj);
    free(dj);
    free(lj);
    free(yj);
}

/* X's rows in an input file: the rows of its "X = [[" table. */
static size_t x_rows(const char *file)
{
    char *s = slurp(file);
    const char *p, *end;
    size_t n = 1;

    assert_non_null(s);
    assert_non_null(p = strstr(s, "X = [["));
    assert_non_null(end = strstr(p, "]]"));
    for (; (p = strstr(p + 1, "],")) != NULL && p < end; )
        n++;
    free(s);
    return n;
}

/* SPEC §11, §15: the two block examples and every case of tests/data/block/cases (random
 * inputs of the torch references: nanoGPT and LLaMA blocks, post-LN, RMSNorm, without an
 * FFN) -- decode's rows are run's, bit for bit. */
static void test_decode_of_a_block_gives_the_runs_rows_bit_for_bit_on_examples_and_cases(void **state)
{
    const char *dir = "tests/data/block/cases/";
    char path[512];
    struct dirent *e;
    DIR *dp;
    int files = 0;

    (void)state;
    block_decode_equals_run("examples/block-pre-gelu.txt", 3);
    block_decode_equals_run("examples/block-f11-post-rms.txt", 2);
    assert_non_null(dp = opendir(dir));
    while ((e = readdir(dp)) != NULL) {
        const size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        snprintf(path, sizeof path, "%s%s", dir, e->d_name);
        block_decode_equals_run(path, x_rows(path));
        files++;
        if (under_valgrind() && files >= 4)
            break;
    }
    closedir(dp);
    assert_true(files >= (under_valgrind() ? 4 : 84)); /* every case: 84 */
}

/* The walk-through of a block (zh, en): N1's row before each step's projections (row 0
 * the SPEC's LayerNorm of [1,0,0,0], 1.7320046214…), the rest of the block's rows after
 * the output, and each step said to be the run's, O's and the block's rows alike. */
static void test_decode_of_a_block_walks_each_steps_block_rows(void **state)
{
    (void)state;
    assert_int_equal(run("decode --lang en examples/block-pre-gelu.txt"), 0);
    assert_file_contains(OUT, "the whole block (pre-LN): the attention reads this row normalised, N1:\n"
                              "N1[0] ≈ [1.7320046214, -0.5773348738, -0.5773348738, -0.5773348738]\n"
                              "only the new row is projected:");
    assert_file_contains(OUT, "the rest of the block (residuals, norms, FFN), on this row only:\n"
                              "H1[2] ≈ [2.7655230117, -0.5502808174, 1.1072819316, 1.1079602627]\n"
                              "N2[2] ≈ ");
    assert_file_contains(OUT, "(Row 2 of O and of every table of the block: bit for bit the rows "
                              "run computes, the same arithmetic in the same order.)");
    assert_int_equal(run("decode examples/block-f11-post-rms.txt"), 0);
    assert_file_contains(OUT, "块的其余部分（残差、归一化、前馈网络）也只算这一行：\nH1[1] ≈ ");
    assert_file_contains(OUT, "（O和块的每张表的第1行都与run算出的逐位相同：同样的运算，同样的顺序。）");
    assert_int_equal(run("decode --ascii examples/block-pre-gelu.txt"), 0);
    assert_file_contains(OUT, "N1[0] ~= [1.7320046214,");
}

/* A random block input number which of n tokens (the project's PRNG): pre or post,
 * LayerNorm, RMSNorm or none, every FFN, one to three heads, biases, lnf, windows and
 * RoPE drawn. */
static void block_input(gen *g, uint64_t which, size_t n)
{
    static const char *const norms[] = {"layer", "rms", "none"};
    static const char *const ffns[] = {"relu", "gelu", "gelu_tanh", "swiglu", "none"};
    as_prng r;
    size_t d, heads, dk, dv, dff;
    int pre, norm, ffn;

    as_prng_seed(&r, which);
    g->len = 0;
    d = (size_t)as_prng_range(&r, 3, 6);
    heads = (size_t)as_prng_range(&r, 1, 3);
    dk = 2 * (size_t)as_prng_range(&r, 1, 2);
    dv = (size_t)as_prng_range(&r, 1, 3);
    dff = (size_t)as_prng_range(&r, 2, 8);
    pre = as_prng_range(&r, 0, 1) == 0;
    norm = (int)as_prng_range(&r, 0, 2);
    ffn = (int)as_prng_range(&r, 0, 4);
    put(g, "heads: %zu\nblock: %s\nnorm: %s\nffn: %s\n", heads, pre ? "pre" : "post",
        norms[norm], ffns[ffn]);
    if (as_prng_range(&r, 0, 2) == 0)
        put(g, "mask: window %ld\n", as_prng_range(&r, 1, (long)n));
    if (as_prng_range(&r, 0, 2) == 0)
        put(g, "positions: rope\n");
    matrix(g, &r, "X", n, d);
    matrix(g, &r, "Wq", d, heads * dk);
    matrix(g, &r, "Wk", d, heads * dk);
    matrix(g, &r, "Wv", d, heads * dv);
    matrix(g, &r, "Wo", heads * dv, d);
    if (as_prng_range(&r, 0, 1) == 0)
        matrix(g, &r, "bq", 1, heads * dk);
    if (norm != 2) {
        matrix(g, &r, "ln1_g", 1, d);
        if (norm == 0)
            matrix(g, &r, "ln1_b", 1, d);
        if (ffn != 4)
            matrix(g, &r, "ln2_g", 1, d);
        if (ffn != 4 && norm == 0)
            matrix(g, &r, "ln2_b", 1, d);
        if (pre && as_prng_range(&r, 0, 2) == 0)
            matrix(g, &r, "lnf_g", 1, d);
    }
    if (ffn == 4)
        return;
    matrix(g, &r, "Wup", d, dff);
    matrix(g, &r, "Wdown", dff, d);
    if (ffn == 3)
        matrix(g, &r, "Wgate", d, dff);
    if (as_prng_range(&r, 0, 1) == 0)
        matrix(g, &r, "bup", 1, dff);
    if (as_prng_range(&r, 0, 1) == 0)
        matrix(g, &r, "bdown", 1, d);
}

/* The same on 60 random block inputs of 1 to 40 tokens (under valgrind 4). */
static void test_decode_of_a_block_gives_the_runs_rows_bit_for_bit_on_random_blocks(void **state)
{
    static gen g;
    as_prng r;
    uint64_t i;
    FILE *f;

    (void)state;
    as_prng_seed(&r, 3115);
    for (i = 0; i < (under_valgrind() ? 4u : 60u); i++) {
        const size_t n = (size_t)as_prng_range(&r, 1, 40);
        block_input(&g, 3100 + i, n);
        assert_non_null(f = fopen(BLK_IN, "wb"));
        assert_int_equal(fwrite(g.buf, 1, g.len, f), g.len);
        assert_int_equal(fclose(f), 0);
        block_decode_equals_run(BLK_IN, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_prints_the_checked_walk_through_in_chinese),
        cmocka_unit_test(test_decode_prints_the_checked_walk_through_in_english),
        cmocka_unit_test(test_decode_json_is_the_checked_steps_and_output),
        cmocka_unit_test(test_decode_with_a_window_reads_only_the_last_rows_of_the_cache),
        cmocka_unit_test(test_decode_json_has_a_row_per_head_and_per_kv_head),
        cmocka_unit_test(test_decode_prints_each_head_and_the_shared_cache),
        cmocka_unit_test(test_decode_only_o_prints_the_same_json_text_as_run),
        cmocka_unit_test(test_the_ascii_walk_through_has_no_unicode_symbols),
        cmocka_unit_test(test_decode_output_of_every_example_reads_back_as_answers_all_right),
        cmocka_unit_test(test_decode_output_of_a_block_reads_back_row_by_row),
        cmocka_unit_test(test_decode_output_of_generated_inputs_reads_back_all_right),
        cmocka_unit_test(test_a_wrong_cell_of_a_decode_step_is_marked_in_both_languages),
        cmocka_unit_test(test_decode_refuses_cross_attention),
        cmocka_unit_test(test_decode_refuses_a_mask_that_reads_the_future),
        cmocka_unit_test(test_decode_refuses_a_step_that_overflows_or_reads_nothing),
        cmocka_unit_test(test_decode_refuses_a_score_or_an_output_row_that_overflows),
        cmocka_unit_test(test_a_decode_on_two_threads_refuses_the_first_step_that_overflows),
        cmocka_unit_test(test_decode_refuses_more_scores_than_it_may_keep_and_says_only_o),
        cmocka_unit_test(test_decode_refuses_formats_and_tables_it_cannot_write),
        cmocka_unit_test(test_decode_rows_equal_run_rows_bit_for_bit_on_generated_inputs),
        cmocka_unit_test(test_the_generated_inputs_cover_heads_shared_heads_and_windows),
        cmocka_unit_test(test_the_lean_decode_on_two_threads_equals_run),
        cmocka_unit_test(test_decode_of_a_block_walks_each_steps_block_rows),
        cmocka_unit_test(test_decode_of_a_block_gives_the_runs_rows_bit_for_bit_on_examples_and_cases),
        cmocka_unit_test(test_decode_of_a_block_gives_the_runs_rows_bit_for_bit_on_random_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
