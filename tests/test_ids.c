/* test_ids.c - ids: through the embedding table (SPEC §16, F05): X = E[ids] + P[0:n],
 * tokens defaulting to the ids, only the rows the ids take kept, the step shown first by
 * run and trace (text and JSON), and every wrong input refused at its place in zh and en.
 *
 * Where the expected values come from: the small tables are worked out by hand in the
 * comments beside them; the rows of tests/data/npy/gpt2.safetensors are what numpy holds
 * (tests/data/npy/gpt2.safetensors.values, written by tests/data/npy/make.py), added
 * here as the definition X = E[ids] + P[0:n] says. The large file of the memory test is
 * written here, its rows chosen so that each value is known (row r, column c holds
 * r + c/64, exact in float32). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "attnstep/parse.h"
#define CLI_OUT "build/tests/ids.out"
#define CLI_ERR "build/tests/ids.err"
#include "cli_util.h"
#include "test_util.h"

#define DATA "tests/data/npy/"

/* Parses text as a file in tests/data/npy/ (so that load() finds the files there). */
static int parse_in(as_input *in, as_error *err, as_lang lang, const char *text)
{
    as_error_init(err, lang);
    return as_parse_text(in, text, strlen(text), DATA "input.txt", err);
}

/* m holds exactly the rows x cols values want. */
static void assert_matrix(const as_matrix *m, size_t rows, size_t cols, const double *want)
{
    size_t i;

    assert_int_equal(m->rows, rows);
    assert_int_equal(m->cols, cols);
    for (i = 0; i < rows * cols; i++)
        assert_close(m->v[i], want[i], 0);
}

/* E has 4 rows, P 3; ids 3 0 3. By hand: x₀ = E[3] + P[0] = [7,8] + [0.5,0] = [7.5,8],
 * x₁ = E[0] + P[1] = [1,2] + [0,0.5] = [1,2.5], x₂ = E[3] + P[2] = [7,8] + [1,1] = [8,9]. */
static const char *const small =
    "ids: 3 0 3\n"
    "E = [[1, 2], [3, 4], [5, 6], [7, 8]]\n"
    "P = [[0.5, 0], [0, 0.5], [1, 1]]\n"
    "Wq = [[1, 0], [0, 1]]\nWk = [[1, 0], [0, 1]]\nWv = [[1, 0], [0, 1]]\n";

static void test_x_is_the_rows_of_e_the_ids_take_plus_the_first_rows_of_p(void **state)
{
    static const double x[] = {7.5, 8, 1, 2.5, 8, 9}, e[] = {7, 8, 1, 2, 7, 8},
                        p[] = {0.5, 0, 0, 0.5, 1, 1};
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(parse_in(&in, &err, AS_LANG_EN, small), 0);
    assert_true(in.mat[AS_X].given);
    assert_matrix(&in.mat[AS_X].m, 3, 2, x);
    assert_matrix(&in.mat[AS_E].m, 3, 2, e); /* only the rows taken, in the ids' order */
    assert_matrix(&in.mat[AS_P].m, 3, 2, p);
    assert_int_equal(in.emb.count, 3);
    assert_int_equal(in.emb.vocab, 4);
    assert_int_equal(in.emb.context, 3);
    assert_int_equal(in.tokens.count, 3); /* tokens default to the ids */
    assert_string_equal(in.tokens.label[0], "3");
    assert_string_equal(in.tokens.label[1], "0");
    assert_string_equal(in.tokens.label[2], "3");
    as_input_free(&in);
}

static void test_without_p_x_is_e_of_the_ids_and_tokens_written_win(void **state)
{
    static const double x[] = {5, 6, 3, 4}; /* E[2], E[1] */
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(parse_in(&in, &err, AS_LANG_EN,
                              "tokens: 我 爱\nids: 2 1\nE = [[1, 2], [3, 4], [5, 6]]\n"
                              "Wq = [[1, 0], [0, 1]]\nWk = [[1, 0], [0, 1]]\nWv = [[1, 0], [0, 1]]\n"),
                     0);
    assert_matrix(&in.mat[AS_X].m, 2, 2, x);
    assert_false(in.mat[AS_P].given);
    assert_int_equal(in.emb.context, 0);
    assert_string_equal(in.tokens.label[0], "我");
    as_input_free(&in);
}

/* The rows of tensor name of DATA gpt2.safetensors.values, as numpy holds them (cols set). */
static double *numpy_rows(const char *name, size_t *cols)
{
    char line[256], got[200];
    unsigned long long r, c;
    double *v = NULL;
    size_t i;
    FILE *f = fopen(DATA "gpt2.safetensors.values", "r");

    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f) != NULL) {
        /* "name rows cols" heads a tensor's values, one a line */
        if (sscanf(line, "%199s %llu %llu", got, &r, &c) == 3 && strcmp(got, name) == 0) {
            v = malloc((size_t)(r * c) * sizeof *v);
            assert_non_null(v);
            for (i = 0; i < r * c; i++) {
                assert_non_null(fgets(line, sizeof line, f));
                v[i] = strtod(line, NULL);
            }
            *cols = (size_t)c;
            break;
        }
    }
    fclose(f);
    assert_non_null(v);
    return v;
}

static void test_ids_through_gpt2s_wte_and_wpe_give_numpys_rows_added(void **state)
{
    static const size_t ids[] = {40, 3, 49, 3};
    size_t cols, pcols, i, j;
    double *wte = numpy_rows("wte.weight", &cols), *wpe = numpy_rows("wpe.weight", &pcols);
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(pcols, cols);
    if (parse_in(&in, &err, AS_LANG_EN,
                 "ids: 40 3 49 3\n"
                 "E = load(\"gpt2.safetensors\", \"wte.weight\")\n"
                 "P = load(\"gpt2.safetensors\", \"wpe.weight\")\n") != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(in.mat[AS_E].m.rows, 4); /* of 50: only the rows the ids take */
    assert_int_equal(in.mat[AS_P].m.rows, 4); /* of 16 */
    assert_int_equal(in.emb.vocab, 50);
    assert_int_equal(in.emb.context, 16);
    for (i = 0; i < 4; i++)
        for (j = 0; j < cols; j++) {
            assert_close(in.mat[AS_E].m.v[i * cols + j], wte[ids[i] * cols + j], 0);
            assert_close(in.mat[AS_X].m.v[i * cols + j], wte[ids[i] * cols + j] + wpe[i * cols + j], 0);
        }
    as_input_free(&in);
    free(wte);
    free(wpe);
}

/* ------------------------------------------------------------------ memory follows the work ---- */

static double peak_mb(void)
{
    struct rusage u;

    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024;
}

/* A [rows, cols] F32 embedding table whose row r, column c holds r + c/64 (exact in
 * float32: below 2^16 with 6 bits of fraction), as dir/big.safetensors; returns its path. */
static const char *big_table(char *dir, size_t rows, size_t cols)
{
    static char path[96];
    char json[160];
    size_t len, i, r, c;
    float *row = malloc(cols * sizeof *row);
    unsigned char head[8];
    FILE *f;

    assert_non_null(row);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big.safetensors", dir);
    snprintf(json, sizeof json,
             "{\"wte.weight\":{\"dtype\":\"F32\",\"shape\":[%zu,%zu],\"data_offsets\":[0,%zu]}}",
             rows, cols, rows * cols * 4);
    len = strlen(json);
    for (i = 0; i < 8; i++)
        head[i] = (unsigned char)(len >> (8 * i));
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(head, 1, 8, f);
    fwrite(json, 1, len, f);
    for (r = 0; r < rows; r++) { /* little-endian float32: the machines we build on */
        for (c = 0; c < cols; c++)
            row[c] = (float)r + (float)c / 64.0f;
        assert_int_equal(fwrite(row, sizeof *row, cols, f), cols);
    }
    assert_int_equal(fclose(f), 0);
    free(row);
    return path;
}

static void test_a_large_e_is_read_only_where_the_ids_point(void **state)
{
    enum { ROWS = 40000, COLS = 256 }; /* 41 MB of float32, 82 MB as doubles */
    char dir[] = "/tmp/attnstep-ids-XXXXXX", text[256], cmd[64];
    const char *path = big_table(dir, ROWS, COLS);
    const double before = peak_mb();
    as_input in;
    as_error err;
    size_t c;

    (void)state;
    snprintf(text, sizeof text, "ids: 39999 7 20000\nE = load(\"%s\", \"wte.weight\")\n", path);
    if (parse_in(&in, &err, AS_LANG_EN, text) != 0)
        fail_msg("%s", err.msg);
    assert_true(peak_mb() - before < 16); /* the whole table would be 82 MB */
    assert_int_equal(in.mat[AS_E].m.rows, 3);
    assert_int_equal(in.emb.vocab, ROWS);
    for (c = 0; c < COLS; c++) {
        assert_close(in.mat[AS_X].m.v[c], 39999 + (double)c / 64, 0);
        assert_close(in.mat[AS_X].m.v[COLS + c], 7 + (double)c / 64, 0);
        assert_close(in.mat[AS_X].m.v[2 * COLS + c], 20000 + (double)c / 64, 0);
    }
    as_input_free(&in);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* ------------------------------------------------------------------ errors ---- */

/* text is refused in lang at line:col with a message holding msg and a hint holding hint. */
static void refused(as_lang lang, const char *text, int line, int col, const char *msg,
                    const char *hint)
{
    as_input in;
    as_error err;

    if (parse_in(&in, &err, lang, text) == 0) {
        as_input_free(&in);
        fail_msg("%s was read", text);
    }
    if (strstr(err.msg, msg) == NULL)
        fail_msg("the message \"%s\" lacks \"%s\"", err.msg, msg);
    if (strstr(err.hint, hint) == NULL)
        fail_msg("the hint \"%s\" lacks \"%s\"", err.hint, hint);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
}

#define E4 "E = [[1, 2], [3, 4], [5, 6], [7, 8]]\n"

static void test_an_id_outside_e_is_refused_at_the_id(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 3 4 0\n" E4, 1, 8, "id 4 is outside E: E has 4 rows (rows 0 to 3)",
            "counted from 0");
    refused(AS_LANG_ZH, "ids: 3 4 0\n" E4, 1, 8, "id 4超出了E的范围：E只有4行（第0行到第3行）",
            "从0数起");
}

static void test_more_ids_than_p_has_rows_is_refused_at_the_first_beyond(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 0 1 2\n" E4 "P = [[0, 0], [1, 1]]\n", 1, 10,
            "there are 3 ids but P has only 2 rows (positions 0 to 1)", "context length");
    refused(AS_LANG_ZH, "ids: 0 1 2\n" E4 "P = [[0, 0], [1, 1]]\n", 1, 10,
            "ids有3个，但P只有2行（位置0到1）", "上下文长度");
}

static void test_e_and_p_of_different_widths_are_refused_at_p(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 0\n" E4 "P = [[0, 0, 0]]\n", 3, 1,
            "E's rows hold 2 numbers but P's rows hold 3", "d_model");
    refused(AS_LANG_ZH, "ids: 0\n" E4 "P = [[0, 0, 0]]\n", 3, 1, "E每行有2个数，P每行却有3个数",
            "逐格相加");
}

static void test_ids_and_x_together_are_refused_at_x(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 0\n" E4 "X = [[1, 1]]\n", 3, 1, "ids and X cannot both be given",
            "drop X, or drop ids");
    refused(AS_LANG_ZH, "ids: 0\n" E4 "X = [[1, 1]]\n", 3, 1, "ids和X不能同时给出", "删去X");
}

static void test_ids_without_e_and_e_or_p_without_ids_are_refused(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 0 1\nX = [[1]]\n", 1, 1, "ids are given but no embedding table E",
            "wte.weight");
    refused(AS_LANG_ZH, "ids: 0 1\nWq = [[1]]\n", 1, 1, "给了ids，却没有嵌入表E", "取E的一行");
    refused(AS_LANG_EN, "X = [[1, 1]]\n" E4, 2, 1, "E is given but no ids", "ids: 0 1 2");
    refused(AS_LANG_ZH, "X = [[1, 1]]\nP = [[1, 1]]\n", 2, 1, "给了P，却没有ids", "ids: 0 1 2");
}

static void test_an_id_that_is_no_row_number_is_refused_where_it_stands(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 1 -1\n" E4, 1, 8, "“-1” in ids is no row number", "ids: 40 1842 345");
    refused(AS_LANG_ZH, "ids: 1 2.5\n" E4, 1, 8, "ids里的“2.5”不是行号", "从0数起");
}

static void test_a_binary_e_too_small_for_an_id_names_its_rows(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "ids: 12 50\nE = load(\"gpt2.safetensors\", \"wte.weight\")\n", 1, 9,
            "id 50 is outside E: E has 50 rows (rows 0 to 49)", "vocabulary");
}

/* ------------------------------------------------------------------ run and trace ---- */

/* The small input in a file of its own; its path. */
static const char *small_file(void)
{
    FILE *f = fopen("build/tests/ids-small.txt", "w");

    assert_non_null(f);
    fputs(small, f);
    assert_int_equal(fclose(f), 0);
    return "build/tests/ids-small.txt";
}

/* Runs `attnstep COMMAND FILE AFTER` on the small input's file; it must succeed. */
static void run_small(const char *command, const char *after)
{
    char args[192];

    snprintf(args, sizeof args, "%s %s %s", command, small_file(), after);
    assert_int_equal(run(args), 0);
}

/* stdout of the last run holds want. */
static void out_has(const char *want)
{
    char *got = slurp(OUT);

    assert_non_null(got);
    if (strstr(got, want) == NULL)
        fail_msg("the output lacks \"%s\":\n%s", want, got);
    free(got);
}

static void test_run_shows_the_rows_taken_first_in_zh_and_en(void **state)
{
    char *got;

    (void)state;
    run_small("run", "");
    out_has("E = E[ids] = [[7,8],      第0行：取E的第3行\n"
            "              [1,2],      第1行：取E的第0行\n"
            "              [7,8]]      第2行：取E的第3行\n"
            "（嵌入表E共4行、每行2个数，只取ids选中的3行）\n");
    out_has("P = P[0:3] = [[0.5,   0],      第0行：位置0\n");
    out_has("X = E[ids] + P[0:3] = [[7.5,   8],      第0行对应“3”\n");
    got = slurp(OUT);
    assert_true(strstr(got, "E = E[ids]") < strstr(got, "X = E[ids]")); /* the first step */
    free(got);
    run_small("run --lang en", "");
    out_has("row 0: row 3 of E\n");
    out_has("(the embedding table E has 4 rows of 2 numbers; only the 3 rows the ids pick are kept)");
    out_has("row 2: position 2\n");
}

static void test_run_json_gives_the_embedding_step(void **state)
{

    (void)state;
    run_small("run --format json", "");
    out_has("\"embedding\": {\"ids\": [3, 0, 3], \"vocab\": 4, \"E\": [[7,8],[1,2],[7,8]], "
            "\"context\": 3, \"P\": [[0.5,0],[0,0.5],[1,1]]}");
    out_has("\"inputs\": {\"X\": [[7.5,8],[1,2.5],[8,9]], ");
    out_has("\"tokens\": [\"3\",\"0\",\"3\"]");
}

static void test_trace_walks_each_row_of_the_embedding_first(void **state)
{
    char *got;

    (void)state;
    run_small("trace", "");
    got = slurp(OUT);
    assert_non_null(got);
    if (strstr(got, "先由ids得到输入：每个id取嵌入表E的一行，再加上它所在位置的那一行P。\n"
                    "“3”：取第3行，x₀ = E[3] + P[0] = [7,8] + [0.5, 0] = [7.5, 8]\n"
                    "“0”：取第0行，x₁ = E[0] + P[1] = [1,2] + [0, 0.5] = [1, 2.5]\n") != got)
        fail_msg("the walk does not begin with the embedding:\n%s", got);
    free(got);
    run_small("trace --lang en", "");
    out_has("“3”: row 3 of E, x₂ = E[3] + P[2] = [7,8] + [1,1] = [8,9]\n");
}

static void test_run_output_reads_back_as_answers_all_right(void **state)
{

    (void)state;
    run_small("run", "");
    assert_int_equal(sh("cp " OUT " build/tests/ids-answers.txt"), 0);
    run_small("check", "build/tests/ids-answers.txt");
}

static void test_only_e_shows_the_embedding_alone(void **state)
{
    char *got;

    (void)state;
    run_small("run --only E", "");
    got = slurp(OUT);
    assert_non_null(got);
    assert_non_null(strstr(got, "E = E[ids]"));
    assert_null(strstr(got, "P = P[0:3]"));
    assert_null(strstr(got, "Q = "));
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x_is_the_rows_of_e_the_ids_take_plus_the_first_rows_of_p),
        cmocka_unit_test(test_without_p_x_is_e_of_the_ids_and_tokens_written_win),
        cmocka_unit_test(test_ids_through_gpt2s_wte_and_wpe_give_numpys_rows_added),
        cmocka_unit_test(test_a_large_e_is_read_only_where_the_ids_point),
        cmocka_unit_test(test_an_id_outside_e_is_refused_at_the_id),
        cmocka_unit_test(test_more_ids_than_p_has_rows_is_refused_at_the_first_beyond),
        cmocka_unit_test(test_e_and_p_of_different_widths_are_refused_at_p),
        cmocka_unit_test(test_ids_and_x_together_are_refused_at_x),
        cmocka_unit_test(test_ids_without_e_and_e_or_p_without_ids_are_refused),
        cmocka_unit_test(test_an_id_that_is_no_row_number_is_refused_where_it_stands),
        cmocka_unit_test(test_a_binary_e_too_small_for_an_id_names_its_rows),
        cmocka_unit_test(test_run_shows_the_rows_taken_first_in_zh_and_en),
        cmocka_unit_test(test_run_json_gives_the_embedding_step),
        cmocka_unit_test(test_trace_walks_each_row_of_the_embedding_first),
        cmocka_unit_test(test_run_output_reads_back_as_answers_all_right),
        cmocka_unit_test(test_only_e_shows_the_embedding_alone),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
