/* test_check.c - grading answers (SPEC §6) on the F11 example. Every expected value is
 * the chapter's (Q, K, V, QKᵀ, S, A, O as printed) or a hand calculation written next
 * to it, in the test or in the answers file under tests/data/check/. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_check.out"
#define CLI_ERR "build/tests/test_check.err"
#include "attnstep/check.h"
#include "attnstep/session.h"
#include "cli_util.h"
#include "test_util.h"

#define DATA "tests/data/check/"

/* ---- helpers ---- */

static void open_file(as_session *s, const char *path)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_session_open(s, path, NULL, &err) != 0) {
        print_error("%s: %s\n", path, err.msg);
        fail();
    }
}

static void parse(as_answers *a, const char *text)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_answers_parse(a, text, strlen(text), "answers", &err) != 0) {
        print_error("answers: %d:%d: %s\n", err.line, err.col, err.msg);
        fail();
    }
}

/* Grades the answers text against the input, with the options o. */
static void grade_with(as_grade *g, as_session *s, as_answers *a, const char *input,
                       const char *text, const as_check_opts *o)
{
    as_error err;

    open_file(s, input);
    parse(a, text);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_check_grade(g, &s->p, &s->t, a, o, &err), 0);
}

/* Grades the answers text against examples/f11.txt (or another input). */
static void grade_text(as_grade *g, as_session *s, as_answers *a, const char *input,
                       const char *text, double tol)
{
    const as_check_opts o = {tol, 0, NULL, 0};

    grade_with(g, s, a, input, text, &o);
}

/* The answers text graded against the input is refused: err says why. */
static void refused(const char *input, const char *text, as_error *err)
{
    const as_check_opts o = {-1, 0, NULL, 0};
    as_grade g;
    as_session s;
    as_answers a;

    open_file(&s, input);
    parse(&a, text);
    as_error_init(err, AS_LANG_EN);
    assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &o, err), -1);
    as_answers_free(&a);
    as_session_free(&s);
}

static void done(as_grade *g, as_session *s, as_answers *a)
{
    as_grade_free(g);
    as_answers_free(a);
    as_session_free(s);
}

/* The file's answers graded on F11: all right or not, and the diagnosis of the last
 * table (the one each mistake file is about). */
static void assert_file_grades(const char *input, const char *file, int correct, as_diag last)
{
    as_session s;
    as_answers a;
    as_grade g;
    char *text = slurp(file);

    assert_non_null(text);
    grade_text(&g, &s, &a, input, text, -1);
    assert_int_equal(g.correct, correct);
    assert_int_equal(g.table[g.count - 1].diagnosis, last);
    done(&g, &s, &a);
    free(text);
}

/* Grades one answers text on F11: right or not, how many cells are wrong and the first
 * of them (flat index), and the diagnosis of the first table. */
static void assert_grades(const char *text, double tol, int correct, size_t nwrong,
                          size_t first_wrong, as_diag diag)
{
    as_session s;
    as_answers a;
    as_grade g;

    grade_text(&g, &s, &a, "examples/f11.txt", text, tol);
    assert_int_equal(g.correct, correct);
    assert_int_equal(g.table[0].nwrong, nwrong);
    if (nwrong > 0)
        assert_int_equal(g.table[0].wrong[0].cell, first_wrong);
    assert_int_equal(g.table[0].diagnosis, diag);
    done(&g, &s, &a);
}

/* The answers text, graded on F11, holds count answers and every one is right. */
static void assert_all_right(const char *text, size_t count)
{
    as_session s;
    as_answers a;
    as_grade g;

    grade_text(&g, &s, &a, "examples/f11.txt", text, -1);
    assert_int_equal(a.count, count);
    assert_true(g.correct);
    done(&g, &s, &a);
}

/* ---- the precision a number was written to ---- */

static void test_written_unit_is_the_last_decimal_place(void **state)
{
    (void)state;
    assert_close(as_written_unit("0.67", 4), 0.01, 1e-18);
    assert_close(as_written_unit("-0.5", 4), 0.1, 1e-17);
    assert_close(as_written_unit("6.6976", 6), 1e-4, 1e-19);
    /* SPEC §6: "1." and "1" are exact; "1.00" and "1.00e0" mean ±0.005; "0.00e0" is "0.00" */
    assert_close(as_written_unit("3.", 2), 0, 0);
    assert_close(as_written_unit("1.", 2), 0, 0);
    assert_close(as_written_unit("1.00", 4), 0.01, 1e-18);
    assert_close(as_written_unit("1.00e0", 6), 0.01, 1e-18);
    assert_close(as_written_unit("0.00e0", 6), 0.01, 1e-18);
    assert_close(as_written_unit("0.00", 4), 0.01, 1e-18);
    assert_close(as_written_unit("1e-3", 4), 1e-3, 1e-18);
    assert_close(as_written_unit("1.5e-3", 6), 1e-4, 1e-19);
    /* exact as written: whole numbers, fractions, infinities */
    assert_close(as_written_unit("2", 1), 0, 0);
    assert_close(as_written_unit("2e3", 3), 0, 0);
    assert_close(as_written_unit("1/3", 3), 0, 0);
    assert_close(as_written_unit("-0.5/3", 6), 0, 0);
    assert_close(as_written_unit("\xe2\x88\x92\xe2\x88\x9e", 6), 0, 0);
    assert_close(as_written_unit("-inf", 4), 0, 0);
}

/* Issue 28: "1." is exact (SPEC §6), so [[1., 0.], [1., 0.]] is wrong for F11's A =
 * [[1, 0], [0.6698, 0.3302]] in both cells of row 1 (by hand: |1 - 0.6698| and
 * |0 - 0.3302| are far from 0); row 0 is exactly [1, 0] (the mask leaves one share). */
static void test_a_trailing_point_is_exact_and_earns_nothing_by_its_width(void **state)
{
    as_session s;
    as_answers a;
    as_grade g;

    (void)state;
    grade_text(&g, &s, &a, "examples/f11.txt", "A = [[1., 0.], [1., 0.]]\n", -1);
    assert_false(g.correct);
    assert_int_equal(g.table[0].nwrong, 2);
    assert_int_equal(g.table[0].wrong[0].cell, 2);
    assert_int_equal(g.table[0].wrong[1].cell, 3);
    assert_int_equal(g.table[0].credit, 0);
    done(&g, &s, &a);
    /* numpy's own print of the right A at 0 places is still right where it is exact */
    grade_text(&g, &s, &a, "examples/f11.txt", "A = [[1., 0.], [0.67, 0.33]]\n", -1);
    assert_true(g.correct);
    done(&g, &s, &a);
}

/* "0.00e0" is judged as "0.00" (±0.005): right for 0.003, as "0.00" is; "1.00e0" as
 * "1.00": right for 0.996, wrong for 0.994 (by hand: |1 - 0.994| = 0.006 > 0.005). */
static void test_an_exponent_keeps_the_unit_of_the_digits_written(void **state)
{
    const as_check_opts o = {-1, 0, NULL, 0};

    (void)state;
    assert_int_equal(as_cell_judge(0, as_written_unit("0.00e0", 6), 0.003, &o), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(0, as_written_unit("0.00", 4), 0.003, &o), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(1, as_written_unit("1.00e0", 6), 0.996, &o), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(1, as_written_unit("1.00e0", 6), 0.994, &o), AS_CELL_WRONG);
    assert_int_equal(as_cell_judge(1, as_written_unit("1.", 2), 0.67, &o), AS_CELL_WRONG);
}

static void test_answer_names_follow_the_book(void **state)
{
    static const char *const good[] = {"Q", "K", "V", "QKT", "QK\xe1\xb5\x80", "QK^T", "S",
                                       "A", "O", "C", "S_h0", "QKT_h12"};
    static const char *const bad[] = {"X", "Wq", "M", "q", "QKT_", "S_h", "S_hx", "S_h1x", "QKt"};
    as_answer_kind kind;
    long head;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(as_answer_name(good[i], &kind, &head), 0);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(as_answer_name(bad[i], &kind, &head), -1);
    as_answer_name("QK^T_h3", &kind, &head);
    assert_int_equal(kind, AS_ANS_QKT);
    assert_int_equal(head, 3);
}

/* Rows as the walk-through names them (SPEC §6): q1, q₁ (subscript digits), q[1] (as
 * --ascii writes them), a head after them (s1_h0); a head or row past the largest table
 * (AS_MAX_DIM = 16384 rows) and anything else after the letter is no row. */
static void test_row_names_follow_the_walk_through(void **state)
{
    static const struct {
        const char *name;
        as_answer_kind kind;
        long row, head;
    } good[] = {
        {"q1", AS_ANS_Q, 1, -1},
        {"q\xe2\x82\x81", AS_ANS_Q, 1, -1},                 /* q₁ */
        {"k\xe2\x82\x81\xe2\x82\x82", AS_ANS_K, 12, -1},    /* k₁₂ */
        {"v[3]", AS_ANS_V, 3, -1},
        {"s1_h0", AS_ANS_S, 1, 0},
        {"a[2]_h1", AS_ANS_A, 2, 1},
        {"o16383", AS_ANS_O, 16383, -1},
        {"a0_h16383", AS_ANS_A, 0, 16383},
    };
    static const char *const bad[] = {
        "q16384", "a0_h16384", "q[1", "q[1x]", "q1_", "q1_h", "q1_hx", "q1_x", "q1_h2x",
        "q\xe2\x82\x8a",  /* ₊, after ₉ */
        "q\xe2\x81\xb9",  /* ⁹, a superscript */
        "qx", "S_h16384",
    };
    as_answer_kind kind;
    long head, row;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (as_answer_row(good[i].name, &kind, &head, &row) != 0)
            fail_msg("%s is no row", good[i].name);
        assert_int_equal(kind, good[i].kind);
        assert_int_equal(row, good[i].row);
        assert_int_equal(head, good[i].head);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (as_answer_row(bad[i], &kind, &head, &row) == 0 ||
            as_answer_name(bad[i], &kind, &head) == 0)
            fail_msg("%s was read as a row or a table", bad[i]);
    assert_string_equal(as_answer_row_letter(AS_ANS_S), "s");
    assert_string_equal(as_answer_kind_name(AS_ANS_QKT), "QKT");
    assert_string_equal(as_answer_row_letter((as_answer_kind)AS_ANS_KINDS), "");
    assert_string_equal(as_answer_kind_name((as_answer_kind)AS_ANS_KINDS), "?");
}

/* ---- reading ANSWERS ---- */

static void test_answers_read_side_by_side_as_the_book_prints(void **state)
{
    /* the chapter's block of Q, K and V, pasted as printed */
    static const char text[] = "title: ignored\n"
                               "Q = [[0,1],        K = [[1,0],        V = [[10,0],\n"
                               "     [1,0]]             [0,1]]             [0,20]]\n"
                               "S = [[0, \xe2\x88\x92\xe2\x88\x9e],   # comment\n"
                               "     [0.7071, 0]]\n"
                               "A = [1, 0]\n";
    as_answers a;

    (void)state;
    parse(&a, text);
    assert_int_equal(a.count, 5);
    assert_string_equal(a.item[1].name, "K");
    assert_int_equal(a.item[2].value.rows, 2);
    assert_close(AS_AT(a.item[2].value, 1, 1), 20, 0);
    assert_close(AS_AT(a.item[0].value, 1, 0), 1, 0);
    assert_true(AS_AT(a.item[3].value, 0, 1) == -INFINITY);
    assert_close(AS_AT(a.item[3].unit, 1, 0), 1e-4, 1e-19);
    assert_int_equal(a.item[3].pos.line, 4);
    assert_int_equal(a.item[4].value.rows, 1); /* a single row written [1, 0] */
    as_answers_free(&a);
}

static void test_answers_errors_name_the_place(void **state)
{
    static const struct {
        const char *text;
        int line, col;
    } bad[] = {
        /* the positions the one matrix reader gives in an input file too */
        {"S = [[1, 2],\n     [3]]\n", 2, 6},   /* a short row: at its start */
        {"S = [[1, x]]\n", 1, 10},              /* not a number */
        {"S = [[1, 2]\n", 1, 5},                /* never closed: at its first "[" */
        {"[[1, 2]]\n", 1, 1},                   /* no name */
        {"S [[1]]\n", 1, 3},                    /* no "=" */
    };
    as_answers a;
    as_error err;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        as_error_init(&err, AS_LANG_EN);
        assert_int_equal(as_answers_parse(&a, bad[i].text, strlen(bad[i].text), "f", &err), -1);
        assert_int_equal(err.line, bad[i].line);
        assert_int_equal(err.col, bad[i].col);
        assert_int_equal(a.count, 0);
    }
}

/* The names a head is written with, as SPEC §6 lists them: a subscript (Q₀, as `run`
 * prints several heads) or brackets (A[1], as --ascii writes them) become the grading's
 * "_h" name; a name whose heads disagree (Q₀K₁ᵀ) is no head's table and is kept as
 * written, so the grading ignores it rather than guess. ℓ₁ (the online softmax's
 * running sum) is a name, and `variant:` is read as `name:` is. */
static void test_a_heads_subscript_or_brackets_become_its_grading_name(void **state)
{
    static const char text[] = "name: Ann   # the student\n"
                               "variant: K7QM\t \n"
                               "Q\xe2\x82\x80 = [[0, 1]]\n"                       /* Q₀ */
                               "A[1] = [[1, 0]]\n"
                               "Q[0]K[0]^T = [[0, 1]]\n"
                               "S\xe2\x82\x81\xe2\x82\x82 = [[0, 1]]\n"           /* S₁₂ */
                               "Q\xe2\x82\x80K\xe2\x82\x81\xe1\xb5\x80 = [[0, 1]]\n" /* Q₀K₁ᵀ */
                               "\xe2\x84\x93\xe2\x82\x81 = [[2]]\n";               /* ℓ₁ */
    static const char *const want[] = {"Q_h0", "A_h1", "QKT_h0", "S_h12",
                                       "Q\xe2\x82\x80K\xe2\x82\x81\xe1\xb5\x80",
                                       "\xe2\x84\x93\xe2\x82\x81"};
    as_answers a;
    size_t i;

    (void)state;
    parse(&a, text);
    assert_string_equal(a.student, "Ann");
    assert_string_equal(a.variant, "K7QM");
    assert_int_equal(a.count, sizeof want / sizeof want[0]);
    for (i = 0; i < a.count; i++)
        assert_string_equal(a.item[i].name, want[i]);
    as_answers_free(&a);
}

/* What a student may paste, read as written: a name: with blanks and a comment after it;
 * a caption before a row with "≈" or "~=", at the very end of the file; a note line
 * "-- " as the last line; a table opened on its name's line with a comment after the
 * "["; U[0], a row of the block's U in brackets, kept as written; and a name cut at the
 * end of the file, refused just after it. */
static void test_pasted_answers_are_read_to_the_last_byte(void **state)
{
    as_answers a;
    as_error err;
    const char *cut = "A[1";

    (void)state;
    parse(&a, "name: Ann \t# the student\nscores: a0 \xe2\x89\x88 [1, 0]\nx: s0 ~= [0, -inf]");
    assert_string_equal(a.student, "Ann");
    assert_int_equal(a.count, 2);
    assert_string_equal(a.item[0].name, "a0");
    assert_string_equal(a.item[1].name, "s0");
    assert_true(AS_AT(a.item[1].value, 0, 1) == -INFINITY);
    as_answers_free(&a);
    parse(&a, "A = [1, 0]\n-- ");
    assert_int_equal(a.count, 1);
    as_answers_free(&a);
    parse(&a, "A = [ # the shares\n [1, 0], [0.67, 0.33]]");
    assert_int_equal(a.count, 1);
    assert_int_equal(a.item[0].value.rows, 2);
    assert_close(AS_AT(a.item[0].value, 1, 1), 0.33, 0);
    as_answers_free(&a);
    parse(&a, "U[0] = [1]\n");
    assert_string_equal(a.item[0].name, "U[0]");
    as_answers_free(&a);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_answers_parse(&a, cut, strlen(cut), "f", &err), -1);
    assert_string_equal(err.msg, "expected \"=\" after the name A");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 2);
}

/* `run`'s and `decode`'s own text pasted back (SPEC §6: the tool's output is valid
 * ANSWERS): headings "── 第0个头 ──" / "-- head 0 --", notes in parentheses, captions
 * that end in a colon or a blank before "s₁ ≈ [...]", and "≈" / "~=" for rounded
 * tables, are all read. Every value is the chapter's F11 number (Q, K, V, S, A, O as
 * printed; s₀ = [0, -∞], s₁ = [1/√2, 0] by hand), so every table is right. */
static void test_the_tools_own_output_pasted_back_grades_right(void **state)
{
    static const char text[] =
        "\xe2\x94\x80\xe2\x94\x80 \xe7\xac\xac" "0\xe4\xb8\xaa\xe5\xa4\xb4 \xe2\x94\x80\xe2\x94\x80\n"
        "-- head 0 --\n"
        "\xef\xbc\x88\xe6\xb3\xa8\xe6\x84\x8f\xef\xbc\x9a\xe4\xb8\x80\xe4\xb8\xaa\xe5\xa4\xb4\xef\xbc\x89\n"
        "(note: one head)\n"
        "Q = [[0, 1], [1, 0]]\n"
        "K ~= [[1, 0], [0, 1]]\n"
        "V \xe2\x89\x88 [[10, 0], [0, 20]]\n"
        "QKT = [[0, 1], [1, 0]]\n"
        "S = [[0, -inf], [0.7071, 0]]\n"
        "\xe7\xbc\xa9\xe6\x94\xbe\xe5\x88\x86\xe6\x95\xb0\xef\xbc\x9a" "s\xe2\x82\x81 \xe2\x89\x88 [0.7071067812, 0]\n"
        "scaled scores s0 ~= [0, -inf]\n"
        "A = [[1, 0], [0.6698, 0.3302]]\n"
        "attention output of row 0: o0 = [10, 0]\n"
        "O = [[10, 0], [6.698, 6.605]]\n";
    as_answers a;

    (void)state;
    parse(&a, text);
    assert_string_equal(a.item[5].name, "s\xe2\x82\x81");
    assert_string_equal(a.item[6].name, "s0");
    assert_string_equal(a.item[8].name, "o0");
    as_answers_free(&a);
    assert_all_right(text, 10);
}

/* SPEC §6: the tables the problem gives (X, the W tables, M), pasted from `run` before
 * the answers, are the problem's own and earn no mark; E, without ids: no input, is a
 * worksheet's eˣ table and is named as not graded. Only Q (the chapter's [[0,1],[1,0]])
 * is graded: 1 of 7, exit 0. */
static void test_given_tables_pasted_with_the_answers_earn_nothing_and_stop_nothing(void **state)
{
    (void)state;
    assert_int_equal(run("check --lang en examples/f11.txt " DATA "given-tables-pasted.txt"), 0);
    assert_file_contains(CLI_OUT, "score: 1/7\nQ: right\n");
    assert_file_contains(CLI_OUT, "not graded: E (no table the chapter asks)\n");
}

/* One grammar (STYLE): a table whose "[" ends its name's line, its rows below, as an
 * input file may write it (X = [\n [1,1], [1,-1]]), is read in ANSWERS too. It was
 * taken for a formula and skipped, so the next row was "unexpected [" (3:3). S is the
 * chapter's. */
static void test_a_table_opened_at_the_end_of_its_names_line_is_read(void **state)
{
    static const char text[] = "S = [   # as Python prints it\n"
                               "  [0, -inf],\n"
                               "  [0.7071, 0]]\n";

    (void)state;
    assert_all_right(text, 1);
}

/* A file that ends inside a statement, with no line end after it (each text is given
 * with its exact length, no NUL after it, so valgrind would see a read past the end):
 * refused where the "=" or the table should be, counted by hand. */
static void test_answers_that_end_inside_a_statement_are_refused_where_it_stops(void **state)
{
    static const struct {
        const char *text;
        int col;
    } bad[] = {{"S", 2}, {"A[1", 2}, {"k[1]", 5}, {"S ~", 3}, {"S =", 4}, {"S ~=", 5}};
    as_answers a;
    as_error err;
    size_t i, n;
    char *exact;

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = strlen(bad[i].text);
        exact = malloc(n);
        assert_non_null(exact);
        memcpy(exact, bad[i].text, n);
        as_error_init(&err, AS_LANG_EN);
        assert_int_equal(as_answers_parse(&a, exact, n, "f", &err), -1);
        assert_int_equal(err.line, 1);
        assert_int_equal(err.col, bad[i].col);
        free(exact);
    }
}

/* ---- grading the F11 example ---- */

static void test_right_answers_to_4_places_are_all_right(void **state)
{
    (void)state;
    assert_file_grades("examples/f11.txt", DATA "f11-right-4-places.txt", 1, AS_DIAG_NONE);
    assert_file_grades("examples/f11.txt", "examples/f11-answers.txt", 1, AS_DIAG_NONE);
}

static void test_two_places_are_right_for_0_6698(void **state)
{
    (void)state;
    /* chapter: A[1] = [0.6697615493, 0.3302384507]; 0.67 and 0.33 are within 0.005 */
    assert_file_grades("examples/f11.txt", DATA "f11-two-places.txt", 1, AS_DIAG_NONE);
}

static void test_a_wrong_last_digit_is_wrong(void **state)
{
    (void)state;
    /* 0.6699 is 0.00014 from 0.6697615, more than half of 0.0001: cell [1][0] */
    assert_grades("A = [[1, 0], [0.6699, 0.3302]]", -1, 0, 1, 2, AS_DIAG_NONE);
}

static void test_tol_overrides_the_written_precision(void **state)
{
    (void)state;
    /* 0.75 is 0.043 from 1/√2: right within --tol 0.05, wrong to two places */
    assert_grades("S = [[0, -inf], [0.75, 0]]", 0.05, 1, 0, 0, AS_DIAG_NONE);
    assert_grades("S = [[0, -inf], [0.75, 0]]", -1, 0, 1, 2, AS_DIAG_NONE);
}

static void test_masked_cells_of_s_must_be_minus_infinity(void **state)
{
    (void)state;
    /* a huge negative number is not −∞: cell [0][1] */
    assert_grades("S = [[0, -1e300], [0.7071, 0]]", -1, 0, 1, 1, AS_DIAG_NONE);
}

static void test_s_without_scaling_is_diagnosed_no_scale(void **state)
{
    (void)state;
    assert_file_grades("examples/f11.txt", DATA "f11-no-scale.txt", 0, AS_DIAG_NO_SCALE);
    /* the wrong cell is [1][0]: 1 written, 1/√2 expected (chapter) */
    assert_grades("S = [[0, -inf], [1, 0]]", -1, 0, 1, 2, AS_DIAG_NO_SCALE);
    assert_string_equal(as_diag_code(AS_DIAG_NO_SCALE), "no_scale");
}

static void test_s_multiplied_by_the_root_is_scale_multiplied(void **state)
{
    (void)state;
    assert_file_grades("examples/f11.txt", DATA "f11-scale-multiplied.txt", 0,
                       AS_DIAG_SCALE_MULTIPLIED);
}

static void test_a_without_the_mask_is_diagnosed_no_mask(void **state)
{
    (void)state;
    assert_file_grades("examples/f11.txt", DATA "f11-no-mask.txt", 0, AS_DIAG_NO_MASK);
}

static void test_column_softmax_is_diagnosed_softmax_columns(void **state)
{
    (void)state;
    assert_file_grades("examples/f11.txt", DATA "f11-softmax-columns.txt", 0,
                       AS_DIAG_SOFTMAX_COLUMNS);
}

static void test_transposed_tables_are_diagnosed_transposed(void **state)
{
    (void)state;
    /* F11's QKᵀ = [[0,1],[1,0]] is its own transpose, so the transposed A stands in;
     * the Wq comparison's QKᵀ = [[0,2],[1,-1]] is not symmetric */
    assert_file_grades("examples/f11.txt", DATA "f11-transposed.txt", 0, AS_DIAG_TRANSPOSED);
    assert_file_grades("examples/f11-change-wq.txt", DATA "f11-change-wq-transposed.txt", 0,
                       AS_DIAG_TRANSPOSED);
}

static void test_o_from_a_wrong_a_is_a_carried_error(void **state)
{
    as_session s;
    as_answers a;
    as_grade g;
    char *text = slurp(DATA "f11-carried-error.txt");

    (void)state;
    assert_non_null(text);
    grade_text(&g, &s, &a, "examples/f11.txt", text, -1);
    assert_int_equal(g.table[0].diagnosis, AS_DIAG_NO_SCALE); /* A: the scaling left out */
    assert_int_equal(g.table[1].diagnosis, AS_DIAG_CARRIED_ERROR);
    assert_string_equal(g.table[1].carried_from, "A");
    done(&g, &s, &a);
    free(text);
    /* O computed from the unrounded wrong A: SPEC §6's interval rule (issue 28) allows
     * for the rounding of the A written. By hand: O₁₀ = 10·A₁₀, and A₁₀ = 0.7311 is known
     * to ±0.00005, so 7.311 ± 0.0005, plus O's own half unit 0.00005: 7.3106 (0.0004
     * off) is that step done right; O₁₁ = 20·0.2689 = 5.378 ± 0.001 (+0.00005) holds
     * 5.3788. So carried_error: the scaling is named once, in A. */
    assert_file_grades("examples/f11.txt", DATA "f11-carried-full-precision.txt", 0,
                       AS_DIAG_CARRIED_ERROR);
}

static void test_a_wrong_table_that_fits_no_mistake_has_no_diagnosis(void **state)
{
    (void)state;
    assert_grades("O = [[10, 0], [6, 6]]", -1, 0, 2, 2, AS_DIAG_NONE);
}

static void test_answers_that_cannot_be_graded_are_refused(void **state)
{
    const as_check_opts opts = {-1, 0, NULL, 0};
    static const char *const bad[] = {"S_h1 = [[0]]", "O = [[1]]\nO_h0 = [[1]]"};
    as_session s;
    as_answers a;
    as_grade g;
    as_error err;
    size_t i;

    (void)state;
    open_file(&s, "examples/f11.txt");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse(&a, bad[i]);
        as_error_init(&err, AS_LANG_EN);
        assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &opts, &err), -1);
        assert_true(err.set);
        as_answers_free(&a);
    }
    as_session_free(&s);
}

static void test_tables_are_reported_in_the_books_order(void **state)
{
    as_session s;
    as_answers a;
    as_grade g;

    (void)state;
    grade_text(&g, &s, &a, "examples/f11.txt", "O = [[10,0],[6.6976,6.6048]]\nQ = [[0,1],[1,0]]\n"
               "QK^T = [[0,1],[1,0]]", -1);
    assert_string_equal(g.table[0].name, "Q");
    assert_string_equal(g.table[1].name, "QKT");
    assert_string_equal(g.table[2].name, "O");
    done(&g, &s, &a);
}

/* ---- the command ---- */

/* The closing line counts the tables in words that agree with their number: "1 table"
 * and "1 of 3 tables is wrong", not "1 tables" and "1 of 3 tables are wrong". */
static void test_the_summary_line_says_one_table_in_the_singular(void **state)
{
    (void)state;
    write_text("build/tests/check_one.txt", "Q = [[0, 1], [1, 0]]\n");
    assert_int_equal(run("check --lang en examples/f11.txt build/tests/check_one.txt"), 0);
    assert_file_contains(CLI_OUT, "\nall right: 1 table\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check_one.txt"), 0);
    assert_file_contains(CLI_OUT, "\n全部正确：共1张表\n");
    write_text("build/tests/check_one.txt", "Q = [[0, 1], [1, 1]]\n");
    assert_int_equal(run("check --lang en examples/f11.txt build/tests/check_one.txt"), 1);
    assert_file_contains(CLI_OUT, "\nthe 1 table given is wrong\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check_one.txt"), 1);
    assert_file_contains(CLI_OUT, "\n这1张表不对\n");
    write_text("build/tests/check_one.txt", "Q = [[0, 1], [1, 1]]\nK = [[1, 0], [0, 1]]\n"
               "V = [[10, 0], [0, 20]]\n");
    assert_int_equal(run("check --lang en examples/f11.txt build/tests/check_one.txt"), 1);
    assert_file_contains(CLI_OUT, "\n1 of 3 tables is wrong\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check_one.txt"), 1);
    assert_file_contains(CLI_OUT, "\n有1张表不对，共3张\n");
    write_text("build/tests/check_one.txt", "Q = [[0, 1], [1, 1]]\nK = [[1, 1], [0, 1]]\n"
               "V = [[10, 0], [0, 20]]\n");
    assert_int_equal(run("check --lang en examples/f11.txt build/tests/check_one.txt"), 1);
    assert_file_contains(CLI_OUT, "\n2 of 3 tables are wrong\n");
    assert_int_equal(run("check --lang en examples/f11.txt examples/f11-answers.txt"), 0);
    assert_file_contains(CLI_OUT, "\nall right: 7 tables\n");
}

static void test_check_command_exits_0_1_2(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "f11-right-4-places.txt"), 0);
    assert_int_equal(run("check examples/f11.txt examples/f11-answers.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "all right: 7 tables");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-no-scale.txt"), 1);
    assert_file_contains(CLI_OUT, "no_scale");
    /* an input as ANSWERS: only the problem's own tables (X, W), nothing answered:
     * graded 0 of 7 (SPEC §6, a file with no table scores 0), not refused */
    assert_int_equal(run("check examples/f11.txt examples/f11.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "student: f11  score: 0/7\n");
    assert_int_equal(run("check examples/f11.txt " DATA "missing.txt"), 2);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-no-scale.txt --format md"), 1);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-no-scale.txt --format svg"), 2);
}

static void test_check_json_is_exactly_the_specs_shape(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "f11-no-scale.txt --format json"), 1);
    out = slurp(CLI_OUT);
    /* SPEC §6: the student's object; S[1][0] written 1, expected 1/√2; out of the 7
     * tables F11 asks, the 6 not answered listed as missing, no name ignored */
    assert_string_equal(out, "{\"name\": \"f11-no-scale\", \"score\": 0, \"max\": 7, \"correct\": "
                             "false, \"tables\": [{\"name\": \"S\", \"correct\": false, \"credit\": 0, "
                             "\"wrong_cells\": [{\"cell\": [1, 0], \"written\": 1, \"expected\": "
                             "0.7071067811865476}], \"diagnosis\": \"no_scale\"}], \"missing\": "
                             "[\"Q\", \"K\", \"V\", \"QKT\", \"A\", \"O\"], \"ignored\": []}\n");
    free(out);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt --format json"), 0);
    out = slurp(CLI_OUT);
    assert_string_equal(out, "{\"name\": \"f11-two-places\", \"score\": 1, \"max\": 7, "
                             "\"correct\": true, \"tables\": [{\"name\": \"A\", \"correct\": true, "
                             "\"credit\": 1, \"wrong_cells\": [], \"diagnosis\": null}], \"missing\": "
                             "[\"Q\", \"K\", \"V\", \"QKT\", \"S\", \"O\"], \"ignored\": []}\n");
    free(out);
}

static void test_check_text_names_the_cell_and_the_expected_value(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "f11-no-scale.txt"), 1);
    assert_file_contains(CLI_OUT, "S[1][0]：写的是1，应为0.7071067812");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-carried-error.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "O: this step itself was done right; the error comes from "
                                  "your own A (carried_error: the mark is earned)");
}


/* ---- issue 13: one cell, rows, names, --require-digits, the formats ---- */

static void test_one_cell_is_judged_to_its_written_place_or_the_required_digits(void **state)
{
    const as_check_opts plain = {-1, 0, NULL, 0}, three = {-1, 3, NULL, 0}, tol = {0.05, 0, NULL, 0};

    (void)state;
    /* 0.67 stands for 0.6697615493 (the chapter's share): within 0.005 */
    assert_int_equal(as_cell_judge(0.67, 0.01, 0.6697615493, &plain), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(0.66, 0.01, 0.6697615493, &plain), AS_CELL_WRONG);
    /* --require-digits 3: 0.67 has two decimals; 10.0 and 0 are whole, and so exempt */
    assert_int_equal(as_cell_judge(0.67, 0.01, 0.6697615493, &three), AS_CELL_TOO_FEW);
    assert_int_equal(as_cell_judge(0.670, 0.001, 0.6697615493, &three), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(10.0, 0.1, 10, &three), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(0.75, 0.01, 0.7071067812, &tol), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(-INFINITY, 0, -INFINITY, &plain), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(0, 0, -INFINITY, &plain), AS_CELL_WRONG);
}

static void test_rows_are_named_as_the_walk_through_names_them(void **state)
{
    static const char *const good[] = {"q1", "k0", "v0", "s1", "a1", "o1", "q\xe2\x82\x81",
                                       "s12", "a1_h0"};
    static const long rows[] = {1, 0, 0, 1, 1, 1, 1, 12, 1};
    static const char *const bad[] = {"x1", "q", "qkt1", "s1x", "s_h0", "Q1", "o1_h"};
    as_answer_kind kind;
    long head, row;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(as_answer_row(good[i], &kind, &head, &row), 0);
        assert_int_equal(row, rows[i]);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(as_answer_row(bad[i], &kind, &head, &row), -1);
}

static void test_the_chapters_row_1_is_checked_against_row_1(void **state)
{
    as_session s;
    as_answers a;
    as_grade g;

    (void)state;
    /* the chapter's walk-through of “爱”: q₁ = [1,0], k₀ = [1,0], v₀ = [10,0], the scaled
     * scores [1/√2, 0], the shares [0.6698, 0.3302], o₁ = [6.6976, 6.6048] */
    grade_text(&g, &s, &a, "examples/f11.txt",
               "q\xe2\x82\x81 = [1, 0]\nk0 = [1, 0]\nv0 = [10, 0]\ns1 = [0.7071, 0]\n"
               "a1 = [0.6698, 0.3302]\no1 = [6.6976, 6.6048]\n", -1);
    assert_true(g.correct);
    assert_int_equal(g.count, 6);
    /* SPEC §6: a row of a 2-row table earns half its mark: Q, K, V, S, A, O a half each,
     * QKᵀ missing: 3 of 7 */
    assert_close(g.score, 3, 1e-12);
    assert_int_equal(g.nmarks, 7);
    done(&g, &s, &a);
    /* s1 without the scaling: [1, 0] */
    grade_text(&g, &s, &a, "examples/f11.txt", "s1 = [1, 0]\n", -1);
    assert_false(g.correct);
    assert_string_equal(g.table[0].name, "s1");
    assert_int_equal(g.table[0].diagnosis, AS_DIAG_NO_SCALE);
    done(&g, &s, &a);
}

/* Issue 28, SPEC §6 "Score, out of what was asked": F11 asks 7 tables; K has 2 rows, so
 * by hand a one-row K (the cache K[:1]) or the row k0 earns 1/2 of K's mark, each row of
 * K counts once however often it is given, and a table answered whole counts as the
 * whole table (its rows then earn nothing more). */
static void test_rows_of_a_table_earn_their_share_of_its_mark_once(void **state)
{
    static const struct {
        const char *text;
        double score;
    } cases[] = {
        {"K = [[1, 0]]\n", 0.5},                                  /* K[:1]: one row of two */
        {"K = [[1, 0]]\nk0 = [1, 0]\n", 0.5},                    /* the same row twice */
        {"K = [[1, 0], [0, 1]]\nK = [[1, 0]]\n", 1},              /* whole and K[:1]: once */
        {"k0 = [1, 0]\nk1 = [0, 1]\n", 1},                       /* both rows: all of K */
        {"K = [[1, 0], [1, 1]]\nk0 = [1, 0]\n", 0},              /* the whole table counts */
        {"q1 = [1, 0]\nk0 = [1, 0]\na1 = [0.6698, 0.3302]\n", 1.5}, /* three halves */
    };
    as_session s;
    as_answers a;
    as_grade g;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        grade_text(&g, &s, &a, "examples/f11.txt", cases[i].text, -1);
        if (fabs(g.score - cases[i].score) > 1e-12)
            fail_msg("%s: scored %g, by hand %g", cases[i].text, g.score, cases[i].score);
        assert_int_equal(g.nmarks, 7);
        done(&g, &s, &a);
    }
}

/* Issue 29: a misspelt table name is still ignored with the note of issue 28, and the
 * note says which table it is near (edit distance: AA and SS one letter more than A
 * and S, QKY one letter changed from QKT); E, a table of its own, gets no guess. */
static void test_a_misspelt_table_is_ignored_with_a_did_you_mean(void **state)
{
    (void)state;
    write_text("build/tests/check-misspelt.txt", "S = [[0, -inf], [0.71, 0]]\n"
               "AA = [[1, 0], [0.67, 0.33]]\nE = [[1]]\nQKY = [[0, 1], [1, 0]]\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check-misspelt.txt"), 0);
    assert_file_contains(CLI_OUT, "S：正确\n");
    assert_file_contains(CLI_OUT, "没有批改：AA、E、QKY（不是本章要答的表；AA是不是想写A？"
                                  "QKY是不是想写QKT？）\n");
    assert_int_equal(run("check --lang en --format md examples/f11.txt build/tests/check-misspelt.txt"), 0);
    assert_file_contains(CLI_OUT, "not graded: AA, E, QKY (no table the chapter asks; AA: did you "
                                  "mean A? QKY: did you mean QKT?)\n");
}

/* Issue 28: a file with only a name scores 0 of 7 and is in every report and the mean
 * (by hand: (7 + 0) / 2 = 3.5 of 7); an eˣ table E, which a worksheet invites, is
 * ignored with a note, and the file is graded (A right: 1 of 7). */
static void test_a_blank_file_scores_0_and_an_unknown_table_is_ignored(void **state)
{
    FILE *f;

    (void)state;
    assert_non_null(f = fopen("build/tests/check-blank.txt", "w"));
    fputs("name: \xe7\xa9\xba\xe7\x99\xbd\n", f); /* 空白 */
    fclose(f);
    assert_non_null(f = fopen("build/tests/check-exp-table.txt", "w"));
    fputs("name: E\nE = [[1, 2.0281], [1, 1]]\nA = [[1, 0], [0.67, 0.33]]\n", f);
    fclose(f);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-right-4-places.txt "
                         "build/tests/check-blank.txt build/tests/check-exp-table.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "student: \xe7\xa9\xba\xe7\x99\xbd  score: 0/7\n"
                                  "missing: Q, K, V, QKT, S, A, O (0 marks each)\n");
    assert_file_contains(CLI_OUT, "student: E  score: 1/7\nA: right\n");
    assert_file_contains(CLI_OUT, "not graded: E (no table the chapter asks)\n");
    assert_file_contains(CLI_OUT, "mean score: 2.67/7");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-right-4-places.txt "
                         "build/tests/check-blank.txt --format json"), 1);
    assert_file_contains(CLI_OUT, "{\"name\": \"\xe7\xa9\xba\xe7\x99\xbd\", \"score\": 0, \"max\": 7, "
                                  "\"correct\": false, \"tables\": [], \"missing\": [\"Q\", \"K\", "
                                  "\"V\", \"QKT\", \"S\", \"A\", \"O\"], \"ignored\": []}");
    assert_file_contains(CLI_OUT, "\"summary\": {\"students\": 2, \"mean_score\": 3.5, \"mean_max\": 7,");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-right-4-places.txt "
                         "build/tests/check-blank.txt --format csv"), 1);
    assert_file_contains(CLI_OUT, "\r\n\xe7\xa9\xba\xe7\x99\xbd,0,7,,,,,,,,\r\n");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-right-4-places.txt "
                         "build/tests/check-blank.txt --format md --lang en"), 1);
    assert_file_contains(CLI_OUT, "| \xe7\xa9\xba\xe7\x99\xbd | 0/7 |  |\n");
    assert_file_contains(CLI_OUT, "mean score: 3.5/7");
}

/* Issue 28, SPEC §6 the interval rule: a step recomputed from the student's own written
 * tables is an interval, as wide as the rounding of those tables can move it
 * (tests/data/check/f11-carried-rounded-inputs.txt works it by hand): S is the one
 * mistake (scale_multiplied), A and O are carried_error, and the mistake is named once. */
static void test_rounding_carried_in_from_a_wrong_table_costs_nothing_more(void **state)
{
    as_session s;
    as_answers a;
    as_grade g;
    char *text = slurp(DATA "f11-carried-rounded-inputs.txt");

    (void)state;
    assert_non_null(text);
    grade_text(&g, &s, &a, "examples/f11.txt", text, -1);
    assert_int_equal(g.count, 3);
    assert_string_equal(g.table[0].name, "S");
    assert_int_equal(g.table[0].diagnosis, AS_DIAG_SCALE_MULTIPLIED);
    assert_string_equal(g.table[1].name, "A");
    assert_int_equal(g.table[1].diagnosis, AS_DIAG_CARRIED_ERROR);
    assert_string_equal(g.table[2].name, "O");
    assert_int_equal(g.table[2].diagnosis, AS_DIAG_CARRIED_ERROR);
    assert_string_equal(g.table[1].carried_from, "S");
    assert_string_equal(g.table[2].carried_from, "S"); /* where the mistake was made, not
                                                          * the A that only carried it */
    assert_close(g.score, 2, 0); /* A and O of the 7 asked */
    done(&g, &s, &a);
    free(text);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-carried-rounded-inputs.txt "
                         DATA "f11-right-4-places.txt --format csv"), 1);
    assert_file_contains(CLI_OUT, ",2,7,,,,,0,1,1,S:scale_multiplied\r\n");
}

/* Issue 28, SPEC §6: an exercise file's ask: setting is the maximum. F11 with "ask: A"
 * marks a file with a right A 1 of 1; with "ask: S A" 1 of 2, S missing; a word of ask:
 * that names no table is the input's error, at its place. */
static void test_the_ask_setting_is_what_every_student_is_marked_out_of(void **state)
{
    static const char *const ask[] = {"ask: A\n", "ask: S A\n", "ask: A E\n"};
    char *f11 = slurp("examples/f11.txt");
    size_t i;
    FILE *f;

    (void)state;
    assert_non_null(f11);
    for (i = 0; i < 3; i++) {
        assert_non_null(f = fopen("build/tests/f11-ask.txt", "w"));
        fprintf(f, "%s%s", ask[i], f11);
        fclose(f);
        if (i == 0) {
            assert_int_equal(run("check build/tests/f11-ask.txt " DATA "f11-two-places.txt "
                                 "--lang en"), 0);
            assert_file_contains(CLI_OUT, "score: 1/1\nA: right\n");
        } else if (i == 1) {
            assert_int_equal(run("check build/tests/f11-ask.txt " DATA "f11-two-places.txt "
                                 "--lang en"), 0);
            assert_file_contains(CLI_OUT, "score: 1/2\nA: right\nmissing: S (0 marks each)\n");
        } else {
            assert_int_equal(run("check build/tests/f11-ask.txt " DATA "f11-two-places.txt "
                                 "--lang en"), 2);
            assert_file_contains(CLI_ERR, "f11-ask.txt:1:8: error: ask: E is no table an "
                                          "answer may give\n");
        }
    }
    /* SPEC §6: C, PE and the block's tables belong to no head, so a head's name on them
     * (_h0, though F11 has a head 0) names no table either: refused at the word, col 8 */
    for (i = 0; i < 3; i++) {
        static const char *const headed[] = {"C_h0", "PE_h0", "N1_h0"};
        assert_non_null(f = fopen("build/tests/f11-ask.txt", "w"));
        fprintf(f, "ask: A %s\n%s", headed[i], f11);
        fclose(f);
        assert_int_equal(run(i == 0 ? "check build/tests/f11-ask.txt " DATA "f11-two-places.txt"
                                    : "check build/tests/f11-ask.txt " DATA "f11-two-places.txt "
                                      "--lang en"), 2);
        assert_file_contains(CLI_ERR, i == 0 ? "f11-ask.txt:1:8: 错误：ask：C_h0不是答案可以写的表"
                                             : "f11-ask.txt:1:8: error: ask:");
        assert_file_contains(CLI_ERR, headed[i]);
        assert_stdout_empty();
    }
    free(f11);
}

static void test_a_name_setting_names_the_student(void **state)
{
    as_answers a;

    (void)state;
    parse(&a, "name: \xe5\xbc\xa0\xe4\xb8\x89  # the student\nS = [[0, -inf], [0.7071, 0]]\n");
    assert_string_equal(a.student, "\xe5\xbc\xa0\xe4\xb8\x89");
    as_answers_free(&a);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt --format csv"), 0);
    assert_file_contains(CLI_OUT, "\xef\xbb\xbfstudent,score,max,Q,K,V,QKT,S,A,O,mistakes\r\n"
                                  "f11-two-places,1,7,,,,,,1,,\r\n");
}

static void test_require_digits_makes_two_places_too_few(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt --require-digits 3 --lang en"), 1);
    assert_file_contains(CLI_OUT, "A[1][0]: written 0.67, expected 0.6697615493 (too few decimals: at least 3 asked)");
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt --require-digits 2"), 0);
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt --require-digits x"), 2);
}

/* Issue 28: --require-digits looks at the true value (SPEC §6). By hand: 0.9965 is not
 * whole, "1.00" has 2 decimals < 4: too few, although |1 - 0.9965| < 0.005. A true value
 * that is whole (F11's A[0][0] = 1, A[0][1] = 0 under the mask) may be written "1.00". */
static void test_require_digits_judges_the_true_value_not_the_written_one(void **state)
{
    const as_check_opts four = {-1, 4, NULL, 0};
    as_session s;
    as_answers a;
    as_grade g;
    as_error err;

    (void)state;
    assert_int_equal(as_cell_judge(1, 0.01, 0.9965, &four), AS_CELL_TOO_FEW);
    assert_int_equal(as_cell_judge(0.9965, 1e-4, 0.9965, &four), AS_CELL_RIGHT);
    assert_int_equal(as_cell_judge(1, 0.01, 1, &four), AS_CELL_RIGHT);
    open_file(&s, "examples/f11.txt");
    parse(&a, "A = [[1.00, 0.00], [0.6698, 0.3302]]\n");
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &four, &err), 0);
    assert_true(g.correct);
    done(&g, &s, &a);
    open_file(&s, "examples/f11.txt");
    parse(&a, "A = [[1.00, 0.00], [0.67, 0.33]]\n");
    assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &four, &err), 0);
    assert_false(g.correct);
    assert_int_equal(g.table[0].nwrong, 2); /* row 1, both too few */
    assert_true(g.table[0].wrong[0].too_few);
    done(&g, &s, &a);
}

/* A masked cell's true value is -inf: no number of decimals makes a written 0.0 right
 * there, so --require-digits does not call it "too few decimals" (a hint to write more
 * of them); it is wrong, and the table is the masked_zero mistake, as with 0.00. */
static void test_require_digits_asks_no_decimals_of_a_masked_cell(void **state)
{
    const as_check_opts two = {-1, 2, NULL, 0};
    as_session s;
    as_answers a;
    as_grade g;

    (void)state;
    assert_int_equal(as_cell_judge(0, 0.1, -INFINITY, &two), AS_CELL_WRONG);
    assert_int_equal(as_cell_judge(0.5, 0.1, 0.4512, &two), AS_CELL_TOO_FEW);
    grade_with(&g, &s, &a, "examples/f11.txt", "S = [[0, 0.0], [0.71, 0]]\n", &two);
    assert_int_equal(g.table[0].nwrong, 1);
    assert_int_equal(g.table[0].wrong[0].cell, 1);
    assert_false(g.table[0].wrong[0].too_few);
    assert_int_equal(g.table[0].diagnosis, AS_DIAG_MASKED_ZERO);
    done(&g, &s, &a);
    write_text("build/tests/check-masked-0.0.txt", "S = [[0, 0.0], [0.71, 0]]\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check-masked-0.0.txt --require-digits 2"), 1);
    assert_file_contains(CLI_OUT, "  S[0][1]：写的是0，应为−∞\n  诊断：masked_zero——");
}

/* Answers a student may write that are graded as a teacher would (by hand on F11, where
 * row 0 reads position 0 and row 1 reads both, and on the padding example, whose row 2
 * reads positions 0 and 1 but not 2): a row of S or A written over just the positions it
 * reads is that row (the others -inf or 0); a row cut short otherwise is the wrong
 * shape; K or V with fewer rows is the cache K[:n] (1/2 of a two-row table); a K with
 * too few columns or too many rows is the wrong shape. */
static void test_short_rows_and_caches_are_graded_as_written(void **state)
{
    static const struct {
        const char *input, *text;
        double score;
        int correct;
        const char *names; /* the tables graded, in the book's order */
    } cases[] = {
        {"examples/padding-mask.txt", "s2 = [0, 0]\na2 = [0.5, 0.5]\n", 2.0 / 3, 1, "s2 a2"},
        {"examples/padding-mask.txt", "a2 = [0.5, 0.5, 0]\n", 1.0 / 3, 1, "a2"},
        {"examples/padding-mask.txt", "a1 = [0.85]\n", 0, 0, "a1"}, /* reads two positions */
        {"examples/f11.txt", "a0 = [1]\n", 0.5, 1, "a0"},
        {"examples/f11.txt", "s1 = [0.7071]\n", 0, 0, "s1"},
        {"examples/f11.txt", "V = [[10, 0]]\n", 0.5, 1, "V[:1]"},
        {"examples/f11.txt", "K = [[1]]\n", 0, 0, "K"},
        {"examples/f11.txt", "K = [[1, 0], [0, 1], [0, 0]]\n", 0, 0, "K"},
    };
    char names[64];
    as_session s;
    as_answers a;
    as_grade g;
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        grade_text(&g, &s, &a, cases[i].input, cases[i].text, -1);
        names[0] = '\0';
        for (k = 0; k < g.count; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
                     g.table[k].name);
        if (fabs(g.score - cases[i].score) > 1e-12 || g.correct != cases[i].correct ||
            strcmp(names, cases[i].names) != 0)
            fail_msg("%s on %s: %s scored %g (correct %d), by hand %s %g (%d)", cases[i].text,
                     cases[i].input, names, g.score, g.correct, cases[i].names, cases[i].score,
                     cases[i].correct);
        if (!cases[i].correct)
            assert_false(g.table[0].shape_ok);
        done(&g, &s, &a);
    }
}

/* Answers that cannot be graded are refused at the answer's place, with what to do: a
 * table given twice, though written alike but for its precision, its rows or its
 * columns; a given table of another shape (another problem's); a head C has none of; a
 * table the problem lacks (probs only come with an output head). */
static void test_answers_that_name_no_gradable_table_are_refused_where_written(void **state)
{
    static const struct {
        const char *input, *text;
        int line;
        const char *msg, *hint;
    } cases[] = {
        {"examples/f11.txt", "A = [[1, 0], [0.67, 0.33]]\nA = [[1, 0], [0.670, 0.330]]\n", 2,
         "A: this table is given twice", "keep one answer for each table"},
        {"examples/f11.txt", "A = [[1, 0], [0.67, 0.33]]\nA = [[1, 0]]\n", 2,
         "A: this table is given twice", "keep one answer for each table"},
        {"examples/f11.txt", "A = [[1, 0], [0.67, 0.33]]\n\nA = [[1, 0, 0], [0.67, 0.33, 0]]\n", 3,
         "A: this table is given twice", "keep one answer for each table"},
        {"examples/f11.txt", "A = [[1, 0], [0.67, 0.33]]\nX = [[1, 1]]\n", 2,
         "X: these answers are to another problem: this table is not the one the problem gives",
         "the given tables in ANSWERS (X, the W tables, M) must be the problem file's; grade "
         "the answers against their own problem"},
        {"examples/two-heads.txt", "C_h0 = [[1]]\n", 1, "C_h0: the problem has no such head",
         "heads are numbered from 0 (S_h0); C, the heads side by side, has none"},
        {"examples/f11.txt", "Qr = [[1]]\n", 1, "Qr: the problem has no such table",
         "PE comes with positions: sinusoidal, Qr and Kr with positions: rope, B with "
         "positions: alibi"},
        {"examples/f11.txt", "probs = [[1, 0]]\n", 1, "probs: the problem has no such table",
         "probs, the output head's probabilities, come only with an output head (head: tied "
         "or head: Wout)"},
    };
    as_error err;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        refused(cases[i].input, cases[i].text, &err);
        assert_string_equal(err.msg, cases[i].msg);
        assert_string_equal(err.hint, cases[i].hint);
        assert_int_equal(err.line, cases[i].line);
        assert_int_equal(err.col, 1);
    }
    /* the hint for probs, as the chapter would say it */
    write_text("build/tests/check-probs.txt", "probs = [[1, 0]]\n");
    assert_int_equal(run("check examples/f11.txt build/tests/check-probs.txt"), 2);
    assert_file_contains(CLI_ERR, "check-probs.txt:1:1: 错误：probs：题目里没有这张表\n"
                                  "  提示：probs是输出头给出的概率，只有题目里有输出头（head: tied或"
                                  "head: Wout）时才有\n");
}

static void test_markdown_summary_of_two_students(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "f11-two-places.txt " DATA
                         "f11-no-scale.txt --format md --lang en"), 1);
    assert_file_contains(CLI_OUT, "| student | score | mistakes |\n|---|---|---|\n"
                                  "| f11-two-places | 1/7 |  |\n| f11-no-scale | 0/7 | S:no_scale |\n");
    assert_file_contains(CLI_OUT, "| `no_scale` | 1 |\n");
}

/* The bundled class (examples/class/, one file per student, each worked out by hand in
 * its comment): the gradebook and the English report, checked by hand once. */
static void test_the_bundled_class_gives_its_gradebook_and_report(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt examples/class --format csv"), 1);
    assert_golden("tests/golden/check-class.csv");
    assert_int_equal(run("check examples/f11.txt examples/class --lang en"), 1);
    assert_golden("tests/golden/check-class-en.txt");
}

/* --expect 'A O' (SPEC §6: it overrides what the problem asks): each student is marked out
 * of 2; 王五 gave only row 1 of A and of O, so half of each mark (1/n for n = 2 rows);
 * 李四's A and O carry his unscaled S and earn their marks; 孙八's O mixed from the
 * Keys does not. The other tables given come after the marks, in the book's order. */
static void test_expect_marks_only_the_tables_it_lists(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt examples/class --format csv --expect 'A O'"), 1);
    assert_file_contains(CLI_OUT, "student,score,max,A,O,Q,q1,K,k0,k1,V,v0,v1,QKT,S,s1,mistakes\r\n");
    assert_file_contains(CLI_OUT, "张三,2,2,1,1,");
    assert_file_contains(CLI_OUT, "李四,2,2,1,1,");
    assert_file_contains(CLI_OUT, "王五,1,2,0.5,0.5,");
    assert_file_contains(CLI_OUT, "孙八,1,2,1,0,");
}

/* A word of --expect that names no table: said once (it was said again for every
 * student's file), before any answer is read: exit 2, nothing on stdout. */
static void test_a_bad_expect_is_told_once_before_any_answer(void **state)
{
    char *e;

    (void)state;
    assert_int_equal(run("check examples/f11.txt examples/class --expect 'A Z' --lang en"), 2);
    assert_stdout_empty();
    assert_non_null(e = slurp(CLI_ERR));
    assert_string_equal(e, "attnstep: error: --expect: Z is no table an answer may give\n"
                           "  hint: --expect lists the tables asked, separated by blanks: "
                           "--expect 'Q K V QKT S A O'\n");
    free(e);
    assert_int_equal(run("check examples/f11.txt examples/class/01-zhang.txt --expect A,O"), 2);
    assert_stdout_empty();
    assert_non_null(e = slurp(CLI_ERR));
    assert_string_equal(e, "attnstep: 错误：--expect：A,O不是答案可以写的表\n"
                           "  提示：--expect列出要答的表，用空格隔开，如：--expect 'Q K V QKT S A O'\n");
    free(e);
}

/* --expect (SPEC §6) names tables of this problem: F11 has one head and no Wo, so its O
 * is head 0's; words are split at blanks and tabs, however many. Two heads give S as
 * each head's S. A name the problem has no table for is refused, with the word as the
 * teacher wrote it. */
static void test_expect_marks_the_tables_of_this_problem(void **state)
{
    static const struct {
        const char *input, *expect, *marks;
    } fine[] = {
        {"examples/f11.txt", "O", "O"},
        {"examples/f11.txt", "Q\tK  V ", "Q K V"},
        {"examples/f11.txt", " A\t\tS", "A S"},
        {"examples/two-heads.txt", "S", "S_h0 S_h1"},
        {"examples/two-heads.txt", "A_h1 C O", "A_h1 C O"},
    };
    static const struct {
        const char *input, *expect, *word;
    } refused[] = {
        {"examples/f11.txt", "A S_h1", "S_h1"},  /* F11 has head 0 only */
        {"examples/f11.txt", "m", "m"},          /* the online softmax's max: a row, no table */
        {"examples/f11.txt", "A probs", "probs"}, /* no output head: no probabilities */
        {"examples/f11.txt", "N1", "N1"},        /* no block: no norm */
        {"examples/f11.txt", "Qr", "Qr"},        /* no RoPE: no rotated Q */
        {"examples/two-heads.txt", "S_h2", "S_h2"},
    };
    const as_check_opts base = {-1, 0, NULL, 0};
    char names[128], want[160];
    as_session s;
    as_answers a;
    as_grade g;
    as_error err;
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        as_check_opts o = base;
        o.expect = fine[i].expect;
        open_file(&s, fine[i].input);
        parse(&a, "name: T\n"); /* no table: each mark missing */
        as_error_init(&err, AS_LANG_EN);
        assert_int_equal(as_check_ask(&s.p, o.expect, &err), 0);
        assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &o, &err), 0);
        names[0] = '\0';
        for (k = 0; k < g.nmarks; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
                     g.mark[k].name);
        assert_string_equal(names, fine[i].marks);
        done(&g, &s, &a);
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        as_check_opts o = base;
        o.expect = refused[i].expect;
        open_file(&s, refused[i].input);
        parse(&a, "name: T\n");
        as_error_init(&err, AS_LANG_EN);
        assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &o, &err), -1);
        snprintf(want, sizeof want, "--expect: %s is no table an answer may give", refused[i].word);
        assert_string_equal(err.msg, want);
        assert_string_equal(err.hint, "--expect lists the tables asked, separated by blanks: "
                                      "--expect 'Q K V QKT S A O'");
        as_answers_free(&a);
        as_session_free(&s);
    }
}

/* One head with Wo (tests/fuzz/corpus/roundtrip-one-head-wo.txt): the head's O, before
 * Wo, is O_h0, the layer's O after it; --expect O_h0 marks the head's and says so (the
 * report said "missing: O" beside "O: right"). By hand, row 0 reads only itself: o0_h0
 * = v0 = [1, 0, 1] Wv = [1, 1, 1, 0], and o0 = o0_h0 Wo = [1, 1, 1]; each earns 1/3 of
 * its own table's mark, never of the other's. */
static void test_one_heads_o_before_wo_is_marked_by_its_own_name(void **state)
{
    static const char input[] = "tests/fuzz/corpus/roundtrip-one-head-wo.txt";
    as_check_opts o = {-1, 0, "O_h0", 0};
    as_session s;
    as_answers a;
    as_grade g;

    (void)state;
    grade_with(&g, &s, &a, input, "o0 = [1, 1, 1]\n", &o);
    assert_int_equal(g.nmarks, 1);
    assert_string_equal(g.mark[0].name, "O_h0");
    assert_true(g.correct);
    assert_close(g.score, 0, 0);
    done(&g, &s, &a);
    grade_with(&g, &s, &a, input, "o0_h0 = [1, 1, 1, 0]\n", &o);
    assert_close(g.score, 1.0 / 3, 1e-12);
    done(&g, &s, &a);
    o.expect = "O";
    grade_with(&g, &s, &a, input, "o0 = [1, 1, 1]\no0_h0 = [1, 1, 1, 0]\n", &o);
    assert_string_equal(g.mark[0].name, "O");
    assert_close(g.score, 1.0 / 3, 1e-12);
    done(&g, &s, &a);
    write_text("build/tests/check-o-h0.txt", "o0 = [1, 1, 1]\n");
    assert_int_equal(run("check tests/fuzz/corpus/roundtrip-one-head-wo.txt build/tests/check-o-h0.txt "
                         "--expect O_h0 --lang en"), 0);
    assert_file_contains(CLI_OUT, "score: 0/1\no0: right\nmissing: O_h0 (0 marks each)\n");
}

/* probs on examples/head.txt (SPEC §19): softmax([2, 1, 0]) is 0.6652, 0.2447, 0.0900;
 * top-p 0.9 keeps tokens 0 and 1, so probs = [e/(e+1), 1/(e+1), 0] = [0.7311, 0.2689, 0].
 * Token 0 alone, [1, 0, 0], is topp_drops_crossing; a row of the wrong length is the
 * wrong shape and no mistake is named; [0.73, 0.27, 0] is right. */
/* text graded as probs on examples/head.txt: right or not, its shape, its mistake. */
static void assert_probs_graded(const char *text, int correct, int shape_ok, as_diag diag)
{
    const as_check_opts o = {-1, 0, "probs", 0};
    as_session s;
    as_answers a;
    as_grade g;

    grade_with(&g, &s, &a, "examples/head.txt", text, &o);
    assert_int_equal(g.table[0].correct, correct);
    assert_int_equal(g.table[0].shape_ok, shape_ok);
    assert_int_equal(g.table[0].diagnosis, diag);
    assert_close(g.score, correct, 0);
    done(&g, &s, &a);
}

static void test_probs_are_graded_and_the_heads_mistake_named(void **state)
{
    (void)state;
    assert_probs_graded("probs = [[1, 0, 0]]\n", 0, 1, AS_DIAG_TOPP_DROPS_CROSSING);
    assert_probs_graded("probs = [[1, 0]]\n", 0, 0, AS_DIAG_NONE);
    assert_probs_graded("probs = [[0.73, 0.27, 0]]\n", 1, 1, AS_DIAG_NONE);
}

/* A word of --expect is quoted as written: a long one whole up to 40 bytes and then cut
 * at a character with "..." (it was cut at its 31st byte, in the middle of a Chinese
 * character), and a terminal control shown as \x1b, never sent (issue 20). */
static void test_a_refused_expect_word_is_quoted_as_written(void **state)
{
    char *e;

    (void)state;
    assert_int_equal(run("check examples/f11.txt examples/class/01-zhang.txt --lang en "
                         "--expect ThisIsAVeryLongNameOfATableBeyond32"), 2);
    assert_stdout_empty();
    assert_non_null(e = slurp(CLI_ERR));
    assert_string_equal(e, "attnstep: error: --expect: ThisIsAVeryLongNameOfATableBeyond32 is no "
                           "table an answer may give\n  hint: --expect lists the tables asked, "
                           "separated by blanks: --expect 'Q K V QKT S A O'\n");
    free(e);
    /* 注意力权重表 twice and 注意力 (45 bytes): the first 13 characters (39 bytes), then ... */
    assert_int_equal(run("check examples/f11.txt examples/class/01-zhang.txt --expect "
                         "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b\xe6\x9d\x83\xe9\x87\x8d\xe8\xa1\xa8"
                         "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b\xe6\x9d\x83\xe9\x87\x8d\xe8\xa1\xa8"
                         "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b"), 2);
    assert_stdout_empty();
    assert_non_null(e = slurp(CLI_ERR));
    assert_string_equal(e, "attnstep: 错误：--expect：注意力权重表注意力权重表注...不是答案可以写的表\n"
                           "  提示：--expect列出要答的表，用空格隔开，如：--expect 'Q K V QKT S A O'\n");
    free(e);
    assert_int_equal(run("check examples/f11.txt examples/class/01-zhang.txt --lang en "
                         "--expect \"$(printf 'A \\033[2J')\""), 2);
    assert_non_null(e = slurp(CLI_ERR));
    assert_string_equal(e, "attnstep: error: --expect: \\x1b[2J is no table an answer may give\n"
                           "  hint: --expect lists the tables asked, separated by blanks: "
                           "--expect 'Q K V QKT S A O'\n");
    free(e);
}

/* SPEC §6's item analysis of the bundled class, by hand from each file's comment:
 * 李四 (S no_scale) and 赵六 (S masked_zero) carry into A and O; 钱七's slip in K
 * carries into QKᵀ and is masked away in S; 王五 gave rows only (no QKᵀ); 孙八 mixed O
 * from the Keys. */
static void test_the_item_analysis_counts_each_table_of_the_class(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt examples/class --lang en"), 1);
    assert_file_contains(CLI_OUT, "item analysis (students per table):\n"
                                  "  Q: right 6, carried 0, wrong 0, missing 0\n"
                                  "  K: right 5, carried 0, wrong 1 (? 1), missing 0\n"
                                  "  V: right 6, carried 0, wrong 0, missing 0\n"
                                  "  QK\xe1\xb5\x80: right 4, carried 1, wrong 0, missing 1\n"
                                  "  S: right 4, carried 0, wrong 2 (no_scale 1, masked_zero 1), "
                                  "missing 0\n"
                                  "  A: right 4, carried 2, wrong 0, missing 0\n"
                                  "  O: right 3, carried 2, wrong 1 (keys_for_values 1), missing 0\n");
    assert_int_equal(run("check examples/f11.txt examples/class --format json"), 1);
    assert_file_contains(CLI_OUT, "{\"table\": \"S\", \"right\": 4, \"carried\": 0, \"wrong\": 2, "
                                  "\"missing\": 0, \"mistakes\": {\"no_scale\": 1, \"masked_zero\": 1}}");
    assert_int_equal(run("check examples/f11.txt examples/class --format md --lang en"), 1);
    assert_file_contains(CLI_OUT, "| QK\xe1\xb5\x80 | 4 | 1 | 0 |  | 1 |\n");
}

/* ---- reports: long lists, rows, ambiguity, names that need quoting ---- */

static void test_more_than_twelve_wrong_cells_are_counted_after_the_twelfth(void **state)
{
    (void)state;
    assert_int_equal(run("check " DATA "counting.txt " DATA "counting-zeros.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "Q: wrong (16 of 16 cells)\n");
    assert_file_contains(CLI_OUT, "  Q[2][3]: written 0, expected 12\n"
                                  "  ... and 4 more wrong cells\n");
    assert_file_lacks(CLI_OUT, "Q[3][0]");
}

static void test_two_mistakes_that_fit_equally_are_listed_and_neither_named(void **state)
{
    (void)state;
    assert_int_equal(run("check " DATA "identity-causal.txt " DATA
                         "identity-causal-ambiguous.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "A: wrong (2 of 4 cells)\n"
                                  "  A[0][0]: written 0.6698, expected 1\n"
                                  "  A[0][1]: written 0.3302, expected 0\n"
                                  "  diagnosis: several mistakes fit equally (no_mask, "
                                  "masked_zero); none is named\n");
    /* a row is reported by its own cells */
    assert_file_contains(CLI_OUT, "a1: wrong (2 of 2 cells)\n"
                                  "  a1[0]: written 0.5, expected 0.3302384507\n"
                                  "  a1[1]: written 0.5, expected 0.6697615493\n");
    assert_int_equal(run("check " DATA "identity-causal.txt " DATA
                         "identity-causal-ambiguous.txt --format md"), 1);
    assert_file_contains(CLI_OUT, "| A | 不对 | no_mask、masked_zero ? |\n");
    assert_int_equal(run("check " DATA "identity-causal.txt " DATA
                         "identity-causal-ambiguous.txt --format json"), 1);
    assert_file_contains(CLI_OUT, "\"diagnosis\": null, \"fits\": [\"no_mask\", \"masked_zero\"]}");
}

/* O mixed from the Keys (A·K; F11's K is the identity, so by hand O = A) is named
 * keys_for_values with a right V in the file; without V, V made with Wk (V = K) fits as
 * well, and the fit list says which W made which table, each once (issue 28). */
static void test_keys_for_values_is_named_with_a_right_v_and_a_fit_names_its_w(void **state)
{
    static const char head[] = "Q = [[0, 1], [1, 0]]\nK = [[1, 0], [0, 1]]\n";
    static const char tail[] = "QKT = [[0, 1], [1, 0]]\nS = [[0, -inf], [0.7071, 0]]\n"
                               "A = [[1, 0], [0.6698, 0.3302]]\nO = [[1, 0], [0.6698, 0.3302]]\n";
    char text[512];
    FILE *f;

    (void)state;
    f = fopen("build/tests/check-kv.txt", "w");
    assert_non_null(f);
    fprintf(f, "%sV = [[10, 0], [0, 20]]\n%s", head, tail);
    fclose(f);
    assert_int_equal(run("check examples/f11.txt build/tests/check-kv.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "O: wrong (3 of 4 cells)");
    assert_file_contains(CLI_OUT, "  diagnosis: keys_for_values — ");
    assert_file_lacks(CLI_OUT, "wrong_weights");
    snprintf(text, sizeof text, "%s%s", head, tail);
    f = fopen("build/tests/check-kv.txt", "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(run("check examples/f11.txt build/tests/check-kv.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "several mistakes fit equally (keys_for_values, wrong_weights "
                                  "(V made with Wk)); none is named");
    assert_int_equal(run("check examples/f11.txt build/tests/check-kv.txt"), 1);
    assert_file_contains(CLI_OUT, "有几种错误同样对得上（keys_for_values、wrong_weights（V用了Wk））");
    assert_int_equal(run("check examples/f11.txt build/tests/check-kv.txt --format csv"), 1);
    assert_file_contains(CLI_OUT, ",O:keys_for_values|wrong_weights(V=X@Wk)");
    /* JSON keeps the codes, and says beside them which W made which table */
    assert_int_equal(run("check examples/f11.txt build/tests/check-kv.txt --format json"), 1);
    assert_file_contains(CLI_OUT, "\"diagnosis\": null, \"fits\": [\"keys_for_values\", "
                                  "\"wrong_weights\"], \"fits_weights\": [null, {\"table\": \"V\", "
                                  "\"weights\": \"Wk\"}]}");
}

/* The name `Li, "Lei" | 3` quoted as RFC 4180 asks in CSV (lines end
 * in CRLF), its bar escaped in a Markdown
 * table, its quotes escaped in JSON; a file that cannot be read has its line too. */
static void test_a_name_is_quoted_for_each_format(void **state)
{
    static const char args[] = "check " DATA "counting.txt " DATA "counting-zeros.txt "
                               "build/tests/no-such-answers.txt --lang en --format ";
    char cmd[512];

    (void)state;
    snprintf(cmd, sizeof cmd, "%scsv", args);
    assert_int_equal(run(cmd), 2);
    assert_file_contains(CLI_OUT, "\r\n\"Li, \"\"Lei\"\" | 3\",0,7,0,,,,,,,Q:?\r\n"
                                  "no-such-answers,,,,,,,,,,\r\n");
    snprintf(cmd, sizeof cmd, "%smd", args);
    assert_int_equal(run(cmd), 2);
    assert_file_contains(CLI_OUT, "| Li, \"Lei\" \\| 3 | 0/7 | Q:? |\n"
                                  "| no-such-answers | | (file could not be graded) |\n");
    snprintf(cmd, sizeof cmd, "%sjson", args);
    assert_int_equal(run(cmd), 2);
    assert_file_contains(CLI_OUT, "{\"name\": \"Li, \\\"Lei\\\" | 3\", \"score\": 0");
    assert_file_contains(CLI_ERR, "no-such-answers.txt: error: cannot read the answers: no such file");
}

/* An answers file's name is anyone's bytes: in the FILE:LINE:COL of its error, a byte
 * of no UTF-8 character, a terminal control and a direction control are written as
 * \x93, \x1b, \xe2\x80\xae (as messages quote student text), never as themselves --
 * raw, ESC [31m turned the terminal red and U+202E turned the rest of the line round.
 * Both kinds: a file that is not there, and one that is read and stops at its 1:5 (its
 * matrix never closes). */
static void test_an_answers_file_name_is_escaped_in_its_error(void **state)
{
    char *err;

    (void)state;
    assert_int_equal(run("check examples/f11.txt \"$(printf 'build/tests/no\\223such\\033[31m"
                         "\\342\\200\\256.txt')\" --lang en"), 2);
    assert_file_contains(CLI_ERR, "attnstep: build/tests/no\\x93such\\x1b[31m\\xe2\\x80\\xae.txt: "
                                  "error: cannot read the answers: no such file\n");
    assert_int_equal(sh("printf 'Q = [[1, 0' > \"$(printf 'build/tests/st\\223ud\\033.txt')\""), 0);
    assert_int_equal(run("check examples/f11.txt \"$(printf 'build/tests/st\\223ud\\033.txt')\" "
                         "--lang zh"), 2);
    assert_file_contains(CLI_ERR, "attnstep: build/tests/st\\x93ud\\x1b.txt:1:5: 错误：");
    err = slurp(CLI_ERR);
    assert_null(strchr(err, '\033'));
    assert_null(strstr(err, "st\223ud")); /* 0x93 alone: Chinese text holds it too */
    free(err);
    assert_int_equal(sh("rm -f \"$(printf 'build/tests/st\\223ud\\033.txt')\""), 0);
}

/* Issue 28 (SPEC §6, OWASP): a name a spreadsheet would run as a formula is quoted and
 * prefixed with ' in the gradebook -- "=HYPERLINK(…)", "+1", "-1", "@SUM(A1)" -- and a
 * plain name is left as it is. */
static void test_a_name_a_spreadsheet_would_run_is_neutralised_in_the_gradebook(void **state)
{
    static const struct {
        const char *name, *field;
    } cases[] = {
        {"=HYPERLINK(\"http://x.example\",\"y\")",
         "\r\n\"'=HYPERLINK(\"\"http://x.example\"\",\"\"y\"\")\",1,"},
        {"+1", "\r\n\"'+1\",1,"},
        {"-1", "\r\n\"'-1\",1,"},
        {"@SUM(A1)", "\r\n\"'@SUM(A1)\",1,"},
        {"Li Lei", "\r\nLi Lei,1,"},
    };
    size_t i;
    FILE *f;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_non_null(f = fopen("build/tests/check-formula-name.txt", "w"));
        fprintf(f, "name: %s\nA = [[1, 0], [0.67, 0.33]]\n", cases[i].name);
        fclose(f);
        assert_int_equal(run("check examples/f11.txt build/tests/check-formula-name.txt "
                             "--format csv"), 0);
        assert_file_contains(CLI_OUT, cases[i].field);
    }
}

/* With several heads an answer must say whose S it is (SPEC §6: S_h0, S_h1 ...). */
static void test_with_several_heads_an_answer_names_its_head(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/two-heads.txt " DATA "two-heads-s-without-head.txt "
                         "--lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "two-heads-s-without-head.txt:2:1: error: S: with several "
                                  "heads, say whose table this is\n  hint: name the head: S_h0, "
                                  "S_h1 ... (a row: s1_h0)\n");
}

/* A name is printed, never obeyed: ESC and BEL from a name: line show as "?" (issue 20). */
static void test_control_bytes_in_a_name_are_shown_not_sent(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt " DATA "name-with-control-bytes.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "student: Eve?[2J?  score: 1/7\n");
    assert_file_lacks(CLI_OUT, "\x1b");
    assert_file_lacks(CLI_OUT, "\x07");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_unit_is_the_last_decimal_place),
        cmocka_unit_test(test_a_trailing_point_is_exact_and_earns_nothing_by_its_width),
        cmocka_unit_test(test_an_exponent_keeps_the_unit_of_the_digits_written),
        cmocka_unit_test(test_answer_names_follow_the_book),
        cmocka_unit_test(test_row_names_follow_the_walk_through),
        cmocka_unit_test(test_answers_read_side_by_side_as_the_book_prints),
        cmocka_unit_test(test_answers_errors_name_the_place),
        cmocka_unit_test(test_a_heads_subscript_or_brackets_become_its_grading_name),
        cmocka_unit_test(test_pasted_answers_are_read_to_the_last_byte),
        cmocka_unit_test(test_the_tools_own_output_pasted_back_grades_right),
        cmocka_unit_test(test_given_tables_pasted_with_the_answers_earn_nothing_and_stop_nothing),
        cmocka_unit_test(test_a_table_opened_at_the_end_of_its_names_line_is_read),
        cmocka_unit_test(test_answers_that_end_inside_a_statement_are_refused_where_it_stops),
        cmocka_unit_test(test_right_answers_to_4_places_are_all_right),
        cmocka_unit_test(test_two_places_are_right_for_0_6698),
        cmocka_unit_test(test_a_wrong_last_digit_is_wrong),
        cmocka_unit_test(test_tol_overrides_the_written_precision),
        cmocka_unit_test(test_masked_cells_of_s_must_be_minus_infinity),
        cmocka_unit_test(test_s_without_scaling_is_diagnosed_no_scale),
        cmocka_unit_test(test_s_multiplied_by_the_root_is_scale_multiplied),
        cmocka_unit_test(test_a_without_the_mask_is_diagnosed_no_mask),
        cmocka_unit_test(test_column_softmax_is_diagnosed_softmax_columns),
        cmocka_unit_test(test_transposed_tables_are_diagnosed_transposed),
        cmocka_unit_test(test_o_from_a_wrong_a_is_a_carried_error),
        cmocka_unit_test(test_a_wrong_table_that_fits_no_mistake_has_no_diagnosis),
        cmocka_unit_test(test_answers_that_cannot_be_graded_are_refused),
        cmocka_unit_test(test_tables_are_reported_in_the_books_order),
        cmocka_unit_test(test_check_command_exits_0_1_2),
        cmocka_unit_test(test_the_summary_line_says_one_table_in_the_singular),
        cmocka_unit_test(test_check_json_is_exactly_the_specs_shape),
        cmocka_unit_test(test_check_text_names_the_cell_and_the_expected_value),
        cmocka_unit_test(test_one_cell_is_judged_to_its_written_place_or_the_required_digits),
        cmocka_unit_test(test_rows_are_named_as_the_walk_through_names_them),
        cmocka_unit_test(test_the_chapters_row_1_is_checked_against_row_1),
        cmocka_unit_test(test_rows_of_a_table_earn_their_share_of_its_mark_once),
        cmocka_unit_test(test_a_blank_file_scores_0_and_an_unknown_table_is_ignored),
        cmocka_unit_test(test_a_misspelt_table_is_ignored_with_a_did_you_mean),
        cmocka_unit_test(test_rounding_carried_in_from_a_wrong_table_costs_nothing_more),
        cmocka_unit_test(test_the_ask_setting_is_what_every_student_is_marked_out_of),
        cmocka_unit_test(test_a_name_setting_names_the_student),
        cmocka_unit_test(test_require_digits_makes_two_places_too_few),
        cmocka_unit_test(test_require_digits_judges_the_true_value_not_the_written_one),
        cmocka_unit_test(test_require_digits_asks_no_decimals_of_a_masked_cell),
        cmocka_unit_test(test_short_rows_and_caches_are_graded_as_written),
        cmocka_unit_test(test_answers_that_name_no_gradable_table_are_refused_where_written),
        cmocka_unit_test(test_markdown_summary_of_two_students),
        cmocka_unit_test(test_the_bundled_class_gives_its_gradebook_and_report),
        cmocka_unit_test(test_expect_marks_only_the_tables_it_lists),
        cmocka_unit_test(test_a_bad_expect_is_told_once_before_any_answer),
        cmocka_unit_test(test_expect_marks_the_tables_of_this_problem),
        cmocka_unit_test(test_a_refused_expect_word_is_quoted_as_written),
        cmocka_unit_test(test_one_heads_o_before_wo_is_marked_by_its_own_name),
        cmocka_unit_test(test_probs_are_graded_and_the_heads_mistake_named),
        cmocka_unit_test(test_the_item_analysis_counts_each_table_of_the_class),
        cmocka_unit_test(test_more_than_twelve_wrong_cells_are_counted_after_the_twelfth),
        cmocka_unit_test(test_two_mistakes_that_fit_equally_are_listed_and_neither_named),
        cmocka_unit_test(test_keys_for_values_is_named_with_a_right_v_and_a_fit_names_its_w),
        cmocka_unit_test(test_a_name_is_quoted_for_each_format),
        cmocka_unit_test(test_an_answers_file_name_is_escaped_in_its_error),
        cmocka_unit_test(test_a_name_a_spreadsheet_would_run_is_neutralised_in_the_gradebook),
        cmocka_unit_test(test_with_several_heads_an_answer_names_its_head),
        cmocka_unit_test(test_control_bytes_in_a_name_are_shown_not_sent),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
