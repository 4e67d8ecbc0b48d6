/* test_head_cli.c - the output head and the draw as run, trace and JSON print them
 * (SPEC §19), through the binary, on examples/head.txt (a one-token layer whose output
 * row is F09's logits [2, 1, 0], Wout the identity) and variants of it written here.
 * Expected values: the SPEC's printed numbers (T = 1 and T = 0.5, top_k 2); top-p 0.9
 * keeping {0, 1} by hand (0.6652409558 < 0.9 <= 0.6652409558 + 0.2447284711); the
 * float64 values in JSON from Python once (math.exp(1) / (1 + math.exp(1)) =
 * 0.7310585786300049; splitmix64(42) >> 11 times 2^-53 = 0.7415648787718233, as
 * test_sample.c has it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/head_cli.out"
#define CLI_ERR "build/tests/head_cli.err"
#include "cli_util.h"

#define HEAD_FILE "build/tests/head_cli_input.txt"

/* examples/head.txt's layer with the head's settings given by settings. */
static void write_head(const char *settings)
{
    char text[1024];

    snprintf(text, sizeof text,
             "tokens: 我\nX = [[2, 1, 0]]\n"
             "Wq = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\nWk = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
             "Wv = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
             "head: Wout\nWout = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n%s\n",
             settings);
    write_text(HEAD_FILE, text);
}

static void test_run_prints_the_cut_and_the_draw(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/head.txt"), 0);
    assert_file_contains(CLI_OUT, "logits = h @ Wout = [[2,1,0]]");
    assert_file_contains(CLI_OUT, "softmax ≈ [[0.6652409558, 0.2447284711, 0.0900305732]]");
    assert_file_contains(CLI_OUT, "kept = [[2,1,−∞]]      top-p：累计概率达到P = 0.9的最少几个词，留下2个");
    assert_file_contains(CLI_OUT, "probs ≈ [[0.7310585786, 0.2689414214, 0]]");
    /* u = 0.7416 lies in token 1's interval [0.7311, 1) */
    assert_file_contains(CLI_OUT, "抽样：u = 0.7415648788落在词1的区间[0.7310585786, 1)里，下一个词是1");
    assert_int_equal(run("run --lang en examples/head.txt"), 0);
    assert_file_contains(CLI_OUT, "draw: u = 0.7415648788 lies in token 1's interval [0.7310585786, 1): the next token is 1");
    /* run's own text reads back as answers that check marks all right (SPEC §2) */
    assert_int_equal(sh("${ATTNSTEP_BIN:-build/attnstep} run examples/head.txt > build/tests/head_cli_back.txt"), 0);
    assert_int_equal(run("check --lang en examples/head.txt build/tests/head_cli_back.txt"), 0);
    assert_file_contains(CLI_OUT, "probs: right");
    assert_file_contains(CLI_OUT, "all right: 8 tables");
}

static void test_temperature_one_half_gives_the_spec_numbers(void **state)
{
    (void)state;
    write_head("temperature: 0.5");
    assert_int_equal(run(HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "logits/T = [[4,2,0]]      温度T = 0.5");
    /* the SPEC's 0.8668133322, 0.1173104278, 0.0158762400, trailing zeros dropped */
    assert_file_contains(CLI_OUT, "probs ≈ [[0.8668133322, 0.1173104278, 0.01587624]]");
    assert_file_contains(CLI_OUT, "贪心：取概率最大的词0（p = 0.8668133322）");
}

static void test_top_k_two_gives_the_issue_numbers(void **state)
{
    (void)state;
    write_head("top_k: 2\nsample: greedy");
    assert_int_equal(run(HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "top-k = [[2,1,−∞]]");
    assert_file_contains(CLI_OUT, "probs ≈ [[0.7310585786, 0.2689414214, 0]]");
    assert_int_equal(run("trace " HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "top-k：分数最大的2个是[0, 1]，其余设为−∞。");
}

static void test_trace_writes_out_the_cut_and_the_inverse_cdf_walk(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/head.txt"), 0);
    assert_file_contains(CLI_OUT, "词1的logit = 2×0+1×1+0×0 = 1");
    assert_file_contains(CLI_OUT, "从大到小的词：[0, 1, 2]");
    /* 0.6652409558 + 0.2447284711: the sum reaches 0.9 at the second token */
    assert_file_contains(CLI_OUT, "累计和：[0.6652409558, 0.9099694268, 1]");
    assert_file_contains(CLI_OUT, "累计和在词1处第一次达到P：0.9099694268 ≥ 0.9，越过P的这个词也留下，共留下2个词。");
    assert_file_contains(CLI_OUT, "种子42的第0个均匀数：u = 0.7415648788（0 ≤ u < 1）");
    assert_file_contains(CLI_OUT, "词0 [0, 0.7310585786)  词1 [0.7310585786, 1)");
    assert_file_contains(CLI_OUT, "u = 0.7415648788落在词1的区间里：下一个词是1。");
    assert_int_equal(run("trace --lang en examples/head.txt"), 0);
    assert_file_contains(CLI_OUT, "running sums: [0.6652409558, 0.9099694268, 1]");
}

static void test_json_has_the_head(void **state)
{
    (void)state;
    assert_int_equal(run("run --format json examples/head.txt"), 0);
    assert_file_contains(CLI_OUT, "\"head\": {\"logits\": [2, 1, 0], \"scaled\": [2, 1, 0], "
                                  "\"kept\": [2, 1, null], \"probs\": [0.7310585786300049, "
                                  "0.2689414213699951, 0], \"u\": 0.7415648787718233, \"token\": 1}");
    write_head("sample: greedy");
    assert_int_equal(run("run --format json " HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "\"u\": null, \"token\": 0}");
    assert_int_equal(run("run --only logits,probs " HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "logits = h @ Wout = [[2,1,0]]");
    assert_file_lacks(CLI_OUT, "O = AV");
}

/* check grades a student's probabilities and names the order they were made in:
 * T = 0.5, P = 0.9 keeps {0, 1}, softmax([4, 2]) = 1/(1+e^-2) = 0.880797078; the
 * same cut without the temperature gives softmax([2, 1]) = 0.7311, 0.2689 */
static void test_check_names_the_temperature_after_the_softmax(void **state)
{
    (void)state;
    write_head("temperature: 0.5\ntop_p: 0.9");
    write_text("build/tests/head_cli_answers.txt", "name: A\nprobs = [[0.7311, 0.2689, 0]]\n");
    assert_int_equal(run("check --lang en --format json " HEAD_FILE " build/tests/head_cli_answers.txt"), 1);
    assert_file_contains(CLI_OUT, "{\"cell\": [0, 0], \"written\": 0.7311, \"expected\": 0.8807970779778823}");
    assert_file_contains(CLI_OUT, "\"diagnosis\": \"temperature_after_softmax\"");
    assert_file_contains(CLI_OUT, "\"max\": 8"); /* Q K V QKT S A O and the probabilities */
    write_text("build/tests/head_cli_answers.txt", "name: B\nprobs = [[1, 0, 0]]\n");
    assert_int_equal(run("check " HEAD_FILE " build/tests/head_cli_answers.txt"), 1);
    assert_file_contains(CLI_OUT, "诊断：topp_drops_crossing——top-p漏掉了越过P的那个词");
    write_text("build/tests/head_cli_answers.txt", "name: C\nprobs = [[0.8808, 0.1192, 0]]\n");
    assert_int_equal(run("check --lang en " HEAD_FILE " build/tests/head_cli_answers.txt"), 0);
    assert_file_contains(CLI_OUT, "probs: right"); /* the tables not answered are missing, not wrong */
}

/* practice asks the head's probabilities after the layer's tables, shows a token the cut
 * took away as given, and names a mistake of order from the one number typed: 0.7311 is
 * token 0's probability with the temperature left out (softmax([2, 1]), by hand) */
static void test_practice_asks_the_probabilities_and_names_the_order(void **state)
{
    (void)state;
    write_head("temperature: 0.5\ntop_p: 0.9");
    assert_int_equal(sh("printf '0.7311\\n0.8808\\n0.1192\\n' | ${ATTNSTEP_BIN:-build/attnstep} practice --lang en "
                        "--only probs " HEAD_FILE " > " CLI_OUT), 0);
    assert_file_contains(CLI_OUT, "the logits kept, divided by T = 0.5: [4,2,−∞]");
    assert_file_contains(CLI_OUT, "most likely comes from this: the temperature was applied after the softmax");
    assert_file_contains(CLI_OUT, "probs[0][2] = 0 (a token the cut took away: probability 0, given)");
    assert_file_contains(CLI_OUT, "score: 2/2");
}

/* compare names a changed temperature, and the only table it changes is probs:
 * 0.880797078 (T = 0.5) against 0.7310585786 (T = 1), by hand as above */
static void test_compare_says_the_temperature_changes_only_the_probabilities(void **state)
{
    (void)state;
    write_head("temperature: 0.5\ntop_p: 0.9\nsample: 42"); /* head.txt's but T */
    assert_int_equal(run("compare --lang en --format json examples/head.txt " HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "\"inputs_changed\": [\"temperature\"]");
    assert_file_contains(CLI_OUT, "\"logits\": {\"changed\": false, \"max_abs_diff\": 0}");
    assert_file_contains(CLI_OUT, "\"probs\": {\"changed\": true");
    assert_int_equal(run("compare examples/head.txt " HEAD_FILE), 0);
    assert_file_contains(CLI_OUT, "输出头的设置只改变层之后的步骤");
}

/* A tied head keeps the whole E: a binary E beyond a table's row limit (16384: GPT-2's
 * has 50257) is refused with its shape and the limits, not "out of memory"; ids alone
 * take their rows of it as before. The .npy is written here (format 1.0, <f8). */
static void test_a_tied_head_over_a_vocabulary_too_large_says_so(void **state)
{
    static const char dict[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (16385, 1), }";
    FILE *f = fopen("build/tests/head_cli_big_e.npy", "wb");
    const size_t len = ((10 + sizeof dict) + 63) / 64 * 64 - 10; /* dict, spaces, '\n' */
    size_t i;

    (void)state;
    assert_non_null(f);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc((int)(len & 0xff), f);
    fputc((int)(len >> 8), f);
    fputs(dict, f);
    for (i = sizeof dict - 1; i + 1 < len; i++)
        fputc(' ', f);
    fputc('\n', f);
    for (i = 0; i < 16385; i++) {
        const double v = (double)(i % 7); /* little-endian, as the machines the tests run on */
        fwrite(&v, sizeof v, 1, f);
    }
    fclose(f);
    write_text(HEAD_FILE, "ids: 1 2\nE = load(\"head_cli_big_e.npy\")\nWq = [[1]]\nWk = [[1]]\n"
                          "Wv = [[1]]\nhead: tied\n");
    assert_int_equal(run("--lang en " HEAD_FILE), 2);
    assert_file_contains(CLI_ERR, "with an output head the whole E is kept, but it is [16385,1], "
                                  "beyond the limits of one table (16384 rows, 67108864 cells)");
    write_text(HEAD_FILE, "ids: 1 2\nE = load(\"head_cli_big_e.npy\")\nWq = [[1]]\nWk = [[1]]\n"
                          "Wv = [[1]]\n");
    assert_int_equal(run(HEAD_FILE), 0); /* ids alone keep their two rows */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_prints_the_cut_and_the_draw),
        cmocka_unit_test(test_temperature_one_half_gives_the_spec_numbers),
        cmocka_unit_test(test_top_k_two_gives_the_issue_numbers),
        cmocka_unit_test(test_trace_writes_out_the_cut_and_the_inverse_cdf_walk),
        cmocka_unit_test(test_json_has_the_head),
        cmocka_unit_test(test_check_names_the_temperature_after_the_softmax),
        cmocka_unit_test(test_practice_asks_the_probabilities_and_names_the_order),
        cmocka_unit_test(test_compare_says_the_temperature_changes_only_the_probabilities),
        cmocka_unit_test(test_a_tied_head_over_a_vocabulary_too_large_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
