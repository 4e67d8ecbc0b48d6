/* test_book.c - the book pastes as printed (SPEC §2): the chapter's own blocks, copied
 * byte for byte into tests/data/book/ (see its README: cut from F11-attention.zh.txt with
 * sed, never edited), read unchanged from input files, with their captions, the 形状：
 * line, formula heads and numbers written with √. The expected numbers are the chapter's
 * (and tests/golden/f11.run.zh.txt, checked by hand against the chapter). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/book.out"
#define CLI_ERR "build/tests/book.err"
#include "attnstep/parse.h"
#include "cli_util.h"
#include "test_util.h"

#define BOOK "tests/data/book/"
#define INPUT "build/tests/book-input.txt"

/* Writes INPUT: head, then the named block files one after another, unchanged. */
static void paste(const char *head, const char *const *blocks, size_t count)
{
    FILE *f = fopen(INPUT, "wb");
    size_t i;

    assert_non_null(f);
    fputs(head, f);
    for (i = 0; i < count; i++) {
        char path[256], *text;
        snprintf(path, sizeof path, BOOK "%s", blocks[i]);
        text = slurp(path);
        assert_non_null(text);
        fputs(text, f);
        free(text);
    }
    assert_int_equal(fclose(f), 0);
}

/* Parses text as an input file; returns 0 or -1 with err. */
static int parse(as_input *in, const char *text, as_error *err)
{
    as_error_init(err, AS_LANG_EN); /* the messages below are the English ones */
    return as_parse_text(in, text, strlen(text), "book.txt", err);
}

/* ---- the chapter's input blocks ---- */

static void test_the_chapters_x_w_and_m_blocks_paste_into_an_input_unchanged(void **state)
{
    static const char *const blocks[] = {"x.txt", "w.txt", "m.txt"};

    (void)state;
    paste("title: F11 我爱\ntokens: 我 爱\n", blocks, 3);
    assert_int_equal(run("run " INPUT), 0);
    /* every table the chapter prints, as the hand-checked golden file has them */
    assert_golden("tests/golden/f11.run.zh.txt");
}

static void test_captions_after_a_row_and_after_a_matrix_are_comments(void **state)
{
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(parse(&in, "X = [[1, 1],       第0行对应“我”\n"
                                "     [1,-1]]       第1行对应“爱”\n"
                                "Wq = [[1, 0],  rows: positions receiving information\n"
                                "      [0, 1]]  columns: positions providing it\n"
                                "Wk = [[1, 0], [0, 1]] the keys\nWv = [[1, 0], [0, 1]]\n",
                           &err),
                     0);
    assert_int_equal(in.mat[AS_X].m.rows, 2);
    assert_close(in.mat[AS_X].m.v[3], -1, 0);
    assert_int_equal(in.mat[AS_WQ].m.rows, 2);
    as_input_free(&in);
}

static void test_the_shape_line_is_checked_against_its_matrix(void **state)
{
    as_input in;
    as_error err;

    (void)state;
    /* the chapter's line, and its English form, after the matrix they describe */
    assert_int_equal(parse(&in, "X = [[1, 1], [1,-1]]\n形状：[2,2] = [Token位置数, 每个位置的特征数]\n"
                                "Wq = [[1, 0, 0], [0, 1, 0]]\nshape: [2,3] = [in, out]\n"
                                "Wk = [[1, 0], [0, 1]]\nWv = [[1, 0], [0, 1]]\n",
                           &err),
                     0);
    as_input_free(&in);
    /* a mismatch names both shapes */
    assert_int_equal(parse(&in, "X = [[1, 1], [1,-1]]\n形状：[3,2] = [Token位置数, 每个位置的特征数]\n",
                           &err),
                     -1);
    assert_string_equal(err.msg, "the shape says [3,2], but matrix X is [2,2]");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 1);
    assert_int_equal(parse(&in, "shape: [2,2]\nX = [[1]]\n", &err), -1);
    assert_string_equal(err.msg, "a shape line with no matrix before it");
    assert_int_equal(parse(&in, "X = [[1]]\n形状：[1;1]\n", &err), -1);
    assert_string_equal(err.msg, "a shape line is written \"shape: [rows,cols]\"");
}

static void test_a_formula_between_the_name_and_the_table_is_the_books(void **state)
{
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(parse(&in, "X = 输入表示 = [[1, 1], [1,-1]]\n"
                                "Wq = W_Q ≈ [[0.5, 0.5], [-0.5, 0.5]]\n"
                                "Wk = [[0.5, 0.5], [0.5,-0.5]]   # = [[9]] in a note is a note\n"
                                "Wv = [[5, 10], [5,-10]]\n"
                                "M = 因果掩码（[i ≥ j]） = [[0,−∞],\n     [0, 0]]\n",
                           &err),
                     0);
    assert_close(in.mat[AS_X].m.v[3], -1, 0);
    assert_close(in.mat[AS_WQ].m.v[2], -0.5, 0);
    assert_true(isinf(in.mat[AS_M].m.v[1]));
    as_input_free(&in);
}

static void test_numbers_with_a_square_root_read_as_the_chapter_writes_them(void **state)
{
    as_input in;
    as_error err;
    const double *v;

    (void)state;
    assert_int_equal(parse(&in, "X = [[1/√2, √2/2, -3/√8, √0.5],\n"
                                "     [sqrt(2), 1/sqrt(2), −√2, sqrt(0.25)]]\n"
                                "Wq = [[1],[1],[1],[1]]\nWk = [[1],[1],[1],[1]]\nWv = [[1],[1],[1],[1]]\n",
                           &err),
                     0);
    v = in.mat[AS_X].m.v;
    /* by hand: 1/√2 = √2/2 = √0.5 = 0.70710678118654752…, 3/√8 = 3/(2√2) = 1.06066017…,
     * √0.25 = 0.5 */
    assert_close(v[0], 0.70710678118654752, 1e-15);
    assert_close(v[1], 0.70710678118654752, 1e-15);
    assert_close(v[2], -1.0606601717798212, 1e-15);
    assert_close(v[3], 0.70710678118654752, 1e-15);
    assert_close(v[4], 1.4142135623730951, 1e-15);
    assert_close(v[5], 0.70710678118654752, 1e-15);
    assert_close(v[6], -1.4142135623730951, 1e-15);
    assert_close(v[7], 0.5, 0);
    as_input_free(&in);
    /* a root of something that is no number is not a number */
    assert_int_equal(parse(&in, "X = [[√x]]\n", &err), -1);
    assert_int_equal(parse(&in, "X = [[sqrt(2]]\n", &err), -1);
}

/* ---- the chapter's result blocks as ANSWERS ---- */

#define ANSWERS "build/tests/book-answers.txt"

static void test_the_chapters_result_blocks_paste_into_answers_and_are_all_right(void **state)
{
    /* every block the chapter prints, given tables first, exactly as printed */
    static const char *const blocks[] = {"x.txt", "w.txt", "qkv.txt", "qkt.txt",
                                         "m.txt", "s.txt", "a.txt", "o.txt"};

    (void)state;
    paste("name: 书\n", blocks, sizeof blocks / sizeof blocks[0]);
    assert_int_equal(rename(INPUT, ANSWERS), 0);
    /* the chapter's numbers are right against the chapter's problem: Q, K, V, QKᵀ, S, A,
     * O, seven tables (X, the W tables and M are the problem's own, not marked) */
    assert_int_equal(run("check --lang en examples/f11.txt " ANSWERS), 0);
    assert_file_contains(CLI_OUT, "score: 7/7");
    assert_file_contains(CLI_OUT, "all right: 7 tables");
}

/* ---- round trip: the tool's own output read back as ANSWERS ---- */

#define RUN_OUT "build/tests/book-run.txt"

/* `run LANG ASCII` of example e, then `check e` on it: every table right. */
static void assert_reads_back(const char *e, const char *lang, const char *ascii)
{
    char cmd[512];

    snprintf(cmd, sizeof cmd, "run --lang %s %s %s -o " RUN_OUT " --force", lang, ascii, e);
    assert_int_equal(run(cmd), 0);
    snprintf(cmd, sizeof cmd, "check --lang en %s " RUN_OUT, e);
    if (run(cmd) != 0) {
        char *err = slurp(CLI_ERR), *out = slurp(CLI_OUT);
        print_error("%s (run --lang %s %s) does not read back as all right:\n%s%s\n", e, lang,
                    ascii, out ? out : "", err ? err : "");
        free(err);
        free(out);
        fail();
    }
    assert_file_contains(CLI_OUT, "all right: ");
}

static void test_run_output_of_every_example_reads_back_as_answers_all_right(void **state)
{
    FILE *ls = popen("ls examples/*.txt", "r");
    char line[512];
    size_t n = 0;

    (void)state;
    assert_non_null(ls);
    while (fgets(line, sizeof line, ls) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strstr(line, "answers") != NULL)
            continue; /* an ANSWERS file, not a problem */
        assert_reads_back(line, "zh", "");
        assert_reads_back(line, "en", "");
        assert_reads_back(line, "en", "--ascii");
        assert_reads_back(line, "zh", "--ascii");
        n++;
    }
    assert_int_equal(pclose(ls), 0);
    assert_true(n >= 6); /* the examples were there */
}

static void test_answers_to_another_problem_are_reported_as_such(void **state)
{
    (void)state;
    /* f11's output names f11's Wq; examples/f11-change-wq.txt has another Wq */
    assert_int_equal(run("run examples/f11.txt -o " RUN_OUT " --force"), 0);
    assert_int_equal(run("check --lang en examples/f11-change-wq.txt " RUN_OUT), 2);
    assert_file_contains(CLI_ERR, RUN_OUT ":6:1: error: Wq: these answers are to another "
                                  "problem");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_chapters_x_w_and_m_blocks_paste_into_an_input_unchanged),
        cmocka_unit_test(test_captions_after_a_row_and_after_a_matrix_are_comments),
        cmocka_unit_test(test_the_shape_line_is_checked_against_its_matrix),
        cmocka_unit_test(test_a_formula_between_the_name_and_the_table_is_the_books),
        cmocka_unit_test(test_numbers_with_a_square_root_read_as_the_chapter_writes_them),
        cmocka_unit_test(test_the_chapters_result_blocks_paste_into_answers_and_are_all_right),
        cmocka_unit_test(test_run_output_of_every_example_reads_back_as_answers_all_right),
        cmocka_unit_test(test_answers_to_another_problem_are_reported_as_such),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
