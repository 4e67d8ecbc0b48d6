/* test_parse.c - the input file (SPEC §2).
 *
 * Every expected value here is written by hand from the input text of its test: the
 * numbers as the text spells them (1/2 = 0.5, −1/4 = -0.25, ...), and every error
 * position as the line and character column counted by hand in that text. None is
 * taken from the parser's own output. Run from the repository root (make does): the
 * file tests read examples/ and tests/data/parse/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attnstep/lex.h"
#include "attnstep/parse.h"
#include "test_util.h"

#define DATA "tests/data/parse/"

/* ------------------------------------------------------------------ helpers ---- */

static void parse_ok(const char *text, as_input *in)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_parse_text(in, text, strlen(text), "test.txt", &err) != 0) {
        print_error("unexpected error %d:%d: %s (hint: %s)\n", err.line, err.col, err.msg,
                    err.hint);
        fail();
    }
}

static void parse_file_ok(const char *path, as_input *in)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_parse_file(in, path, &err) != 0) {
        print_error("unexpected error %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
        fail();
    }
}

/* Matrix nm is given, rows x cols, with exactly the values want (row-major). */
static void assert_matrix(const as_named *nm, size_t rows, size_t cols, const double *want)
{
    size_t i;

    assert_true(nm->given);
    assert_int_equal(nm->m.rows, rows);
    assert_int_equal(nm->m.cols, cols);
    for (i = 0; i < rows * cols; i++)
        assert_close(nm->m.v[i], want[i], 0);
}

static int input_is_empty(const as_input *in)
{
    as_input zero;

    memset(&zero, 0, sizeof zero);
    return memcmp(in, &zero, sizeof zero) == 0;
}

/* The error as_parse_text gives for text[0..len): exactly msg, at line:col of
 * test.txt, with a hint, and the input left empty. */
static void expect_error_n(const char *text, size_t len, int line, int col, const char *msg)
{
    as_input in;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_text(&in, text, len, "test.txt", &err), -1);
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.file, "test.txt");
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    assert_true(err.hint[0] != '\0');
    assert_true(input_is_empty(&in));
}

static void expect_error(const char *text, int line, int col, const char *msg)
{
    expect_error_n(text, strlen(text), line, col, msg);
}

/* One input expect_errors refuses: at line 1, column col, with exactly msg. */
typedef struct error_case {
    const char *text;
    int col;
    const char *msg;
} error_case;

static void expect_errors(const error_case *cases, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        expect_error(cases[i].text, 1, cases[i].col, cases[i].msg);
}

/* The error as_parse_file gives for path. */
static void expect_file_error(const char *path, const char *file, int line, int col,
                              const char *msg)
{
    as_input in;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_file(&in, path, &err), -1);
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.file, file);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    assert_true(input_is_empty(&in));
}

/* as_parse_number on a whole C string. */
static size_t number(const char *s, int allow_inf, double *x, const char **why)
{
    return as_parse_number(s, strlen(s), allow_inf, x, why);
}

static void expect_number(const char *s, int allow_inf, size_t used, double want)
{
    double x = 12345;
    const char *why = "unset";

    assert_int_equal(number(s, allow_inf, &x, &why), used);
    assert_null(why);
    assert_close(x, want, 0);
}

/* ------------------------------------------------------------------ the book ---- */

/* examples/f11.txt: the chapter's input, values copied from the chapter. */
static void test_f11_example_gives_the_chapter_input(void **state)
{
    static const double X[] = {1, 1, 1, -1}, Wq[] = {0.5, 0.5, -0.5, 0.5},
                        Wk[] = {0.5, 0.5, 0.5, -0.5}, Wv[] = {5, 10, 5, -10};
    as_input in;
    int i;

    (void)state;
    parse_file_ok("examples/f11.txt", &in);
    assert_string_equal(in.path, "examples/f11.txt");
    assert_string_equal(in.title, "F11 我爱");
    assert_int_equal(in.tokens.count, 2);
    assert_string_equal(in.tokens.label[0], "我");
    assert_string_equal(in.tokens.label[1], "爱");
    assert_int_equal(in.tokens.pos.line, 6);
    assert_int_equal(in.kv_tokens.count, 0);
    assert_int_equal(in.mask, AS_MASK_CAUSAL);
    assert_int_equal(in.mask_pos.line, 7);
    assert_matrix(&in.mat[AS_X], 2, 2, X);
    assert_matrix(&in.mat[AS_WQ], 2, 2, Wq);
    assert_matrix(&in.mat[AS_WK], 2, 2, Wk);
    assert_matrix(&in.mat[AS_WV], 2, 2, Wv);
    assert_int_equal(in.mat[AS_X].pos.line, 9);
    assert_int_equal(in.mat[AS_WQ].pos.line, 13);
    assert_int_equal(in.mat[AS_WQ].pos.col, 1);
    assert_int_equal(in.mat[AS_WK].pos.col, 23);
    assert_int_equal(in.mat[AS_WV].pos.col, 44);
    for (i = 0; i < AS_NMAT; i++)
        if (i != AS_X && i != AS_WQ && i != AS_WK && i != AS_WV)
            assert_false(in.mat[i].given);
    assert_int_equal(in.heads, 0);
    assert_int_equal(in.layout, AS_LAYOUT_BOOK);
    assert_false(in.scale_set);
    as_input_free(&in);
    assert_true(input_is_empty(&in));
}

/* The chapter's block, pasted as printed (with a note after "#" on its second line). */
static void test_chapter_block_pasted_verbatim_is_read_side_by_side(void **state)
{
    static const double Wq[] = {0.5, 0.5, -0.5, 0.5}, Wk[] = {0.5, 0.5, 0.5, -0.5},
                        Wv[] = {5, 10, 5, -10};
    as_input in;

    (void)state;
    parse_ok("Wq = [[ 0.5, 0.5],    Wk = [[0.5, 0.5],    Wv = [[5, 10],\n"
             "      [-0.5, 0.5]]          [0.5,-0.5]]          [5,-10]]   # 本节\n",
             &in);
    assert_matrix(&in.mat[AS_WQ], 2, 2, Wq);
    assert_matrix(&in.mat[AS_WK], 2, 2, Wk);
    assert_matrix(&in.mat[AS_WV], 2, 2, Wv);
    as_input_free(&in);
}

/* The same X and bq written five ways. */
static void test_crlf_bom_numpy_print_and_fractions_give_identical_matrices(void **state)
{
    static const char *const texts[] = {
        "X = [[1, 1],\n     [1, -1]]\nbq = [0.5, -0.5]\n",
        "X = [[1, 1],\r\n     [1, -1]]\r\nbq = [0.5, -0.5]\r\n",
        "\xEF\xBB\xBFX = [[1, 1],\n     [1, -1]]\nbq = [0.5, -0.5]\n",
        "X = [[ 1.  1.]\n [ 1. -1.]]\nbq = [ 0.5 -0.5]\n",
        "X = [[2/2, 1],\n [1, −1]]\nbq = [1/2, −1/2]\n",
        "X = [[1,1],[1,-1]]\tbq = [+.5,-5e-1]",
        "X = [[1，1]，\xC2\xA0[1，-1]]\nbq = [0.5\xE3\x80\x80-0.5]\n", /* ， NBSP U+3000 */
    };
    static const double X[] = {1, 1, 1, -1}, bq[] = {0.5, -0.5};
    as_input in;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        parse_ok(texts[i], &in);
        assert_matrix(&in.mat[AS_X], 2, 2, X);
        assert_matrix(&in.mat[AS_BQ], 1, 2, bq);
        assert_int_equal(in.mat[AS_X].pos.line, 1);
        assert_int_equal(in.mat[AS_X].pos.col, 1); /* the BOM is no column */
        as_input_free(&in);
    }
}

/* ------------------------------------------------------------------ numbers ---- */

static void test_every_number_form_is_read(void **state)
{
    (void)state;
    expect_number("3", 0, 1, 3);
    expect_number("-7", 0, 2, -7);
    expect_number("+2", 0, 2, 2);
    expect_number("007", 0, 3, 7);
    expect_number("1.", 0, 2, 1);
    expect_number(".5", 0, 2, 0.5);
    expect_number("-.25", 0, 4, -0.25);
    expect_number("1e-3", 0, 4, 0.001);
    expect_number("2E+5", 0, 4, 200000);
    expect_number("1.5e2", 0, 5, 150);
    expect_number("\xE2\x88\x92" "1", 0, 4, -1); /* −1 with U+2212 */
    expect_number("1/2", 0, 3, 0.5);
    expect_number("-0.5/3", 0, 6, -0.5 / 3);
    expect_number("\xE2\x88\x92" "1/4", 0, 6, -0.25);
    expect_number("1/-4", 0, 4, -0.25);
    expect_number("3/1.5e1", 0, 7, 0.2);
    expect_number("0.1", 0, 3, 0.1);
    expect_number("1.000000000000000000e+00", 0, 24, 1);
    expect_number("-1.250000000000000000e-01", 0, 25, -0.125);
    expect_number("1.7976931348623157e308", 0, 22, DBL_MAX);
    expect_number("4.9e-324", 0, 8, 4.9e-324); /* a subnormal is fine */
    expect_number("1e-400", 0, 6, 0);          /* and so is underflow to 0 */
    /* longer than the converter's 63-byte copy: 0.1 followed by 70 digits */
    expect_number("0.1000000000000000000000000000000000000000000000000000000000000000000001",
                  0, 72, 0.1);
    /* 62 digits, then an exponent cut by the 63-byte copy: 10^61 * 10^-61 */
    expect_number("10000000000000000000000000000000000000000000000000000000000000e-61", 0, 66,
                  1);
}

static void test_number_prefixes_stop_where_the_number_ends(void **state)
{
    double x;
    const char *why;

    (void)state;
    expect_number("1e5x", 0, 3, 100000);
    expect_number("1.2.3", 0, 3, 1.2);
    expect_number("1/", 0, 1, 1);
    expect_number("1/x", 0, 1, 1);
    expect_number("1e", 0, 1, 1);
    expect_number("1e+", 0, 1, 1);
    expect_number("0x10", 0, 1, 0);
    expect_number("2 3", 0, 1, 2);
    expect_number("5,", 0, 1, 5);
    assert_int_equal(as_parse_number("123", 2, 0, &x, &why), 2); /* len is respected */
    assert_close(x, 12, 0);
    assert_int_equal(number("", 0, &x, &why), 0);
    assert_int_equal(number(".", 0, &x, &why), 0);
    assert_int_equal(number("-", 0, &x, &why), 0);
    assert_int_equal(number("abc", 0, &x, &why), 0);
    assert_int_equal(number("nan", 1, &x, &why), 0);
    assert_null(why);
    assert_int_equal(number("NaN", 1, &x, &why), 0);
    assert_int_equal(number("inf", 0, &x, &why), 0); /* infinities only when allowed */
    assert_null(why);
    assert_int_equal(number("-\xE2\x88\x9E", 0, &x, &why), 0);
}

/* Roots as the chapter writes them (√2, U+221A) and in ASCII (sqrt(2)): the correctly
 * rounded root, 1.4142135623730951 for 2; a sign before, a fraction bar on either side;
 * "sqrt(2" without its ")" and a √ or sqrt( with no decimal under it are no number. */
static void test_square_roots_are_read_in_both_spellings(void **state)
{
    double x;
    const char *why;

    (void)state;
    expect_number("\xE2\x88\x9A" "2", 0, 4, 1.4142135623730951);
    expect_number("sqrt(2)", 0, 7, 1.4142135623730951);
    expect_number("sqrt(2)x", 0, 7, 1.4142135623730951);
    expect_number("-\xE2\x88\x9A" "4", 0, 5, -2);
    expect_number("1/\xE2\x88\x9A" "4", 0, 6, 0.5);
    expect_number("\xE2\x88\x9A" "4/2", 0, 6, 1);
    assert_int_equal(number("sqrt(2", 0, &x, &why), 0);
    assert_int_equal(number("sqrt(", 0, &x, &why), 0);
    assert_int_equal(number("sqrt(x)", 0, &x, &why), 0);
    assert_int_equal(number("\xE2\x88\x9A", 0, &x, &why), 0);
    assert_null(why);
}

/* The unit of a printed number is the place of its last digit, scaled by its exponent:
 * 1.25e+1 has two places after the point and e+1, so 10^(1-2); 1.5E-2 10^(-2-1); a bare
 * "e" adds nothing; fractions, roots, infinities and whole numbers are exact (0). */
static void test_a_printed_numbers_unit_is_the_place_of_its_last_digit(void **state)
{
    (void)state;
    assert_close(as_written_unit("1.25e+1", 7), 0.1, 1e-17);
    assert_close(as_written_unit("1.5E-2", 6), 0.001, 1e-19);
    assert_close(as_written_unit("1.5e", 4), 0.1, 1e-17);
    assert_close(as_written_unit("3.0e1", 5), 1, 1e-15);
    assert_true(as_written_unit("2/3", 3) == 0);
    assert_true(as_written_unit("\xE2\x88\x9A" "2", 4) == 0);
    assert_true(as_written_unit("sqrt(2)", 7) == 0);
    assert_true(as_written_unit("inf", 3) == 0);
    assert_true(as_written_unit("1.", 2) == 0);
}

static void test_infinities_are_read_only_when_allowed(void **state)
{
    (void)state;
    expect_number("inf", 1, 3, INFINITY);
    expect_number("-inf", 1, 4, -INFINITY);
    expect_number("+inf", 1, 4, INFINITY);
    expect_number("-INF", 1, 4, -INFINITY);
    expect_number("Infinity", 1, 8, INFINITY);
    expect_number("\xE2\x88\x9E", 1, 3, INFINITY);                  /* ∞ */
    expect_number("\xE2\x88\x92\xE2\x88\x9E", 1, 6, -INFINITY);     /* −∞ */
    expect_number("-\xE2\x88\x9E", 1, 4, -INFINITY);                /* -∞ */
    expect_number("-inf/2", 1, 4, -INFINITY);                       /* no fraction bar after ∞ */
}

static void test_overflow_and_zero_denominators_are_refused(void **state)
{
    double x;
    const char *why;

    (void)state;
    assert_int_equal(number("1e999", 0, &x, &why), 0);
    assert_ptr_equal(why, as_why_too_large);
    assert_int_equal(number("-1e999", 1, &x, &why), 0);
    assert_ptr_equal(why, as_why_too_large);
    assert_int_equal(number("1e300/1e-300", 0, &x, &why), 0);
    assert_ptr_equal(why, as_why_too_large);
    assert_int_equal(number("1/0", 0, &x, &why), 0);
    assert_ptr_equal(why, as_why_zero_denominator);
    assert_int_equal(number("0/0.0", 0, &x, &why), 0);
    assert_ptr_equal(why, as_why_zero_denominator);
    assert_int_equal(number("1/-0", 0, &x, &why), 0);
    assert_ptr_equal(why, as_why_zero_denominator);
}

static void test_every_number_form_is_read_inside_a_matrix(void **state)
{
    static const double X[] = {3, -7, 2, 1, 0.5, 0.001, 200000, -1, 0.5, -0.5 / 3, -0.25, 0};
    as_input in;

    (void)state;
    parse_ok("X = [[3, -7, +2, 1., .5, 1e-3, 2E+5, −1, 1/2, -0.5/3, −1/4, -0]]", &in);
    assert_matrix(&in.mat[AS_X], 1, 12, X);
    assert_true(signbit(in.mat[AS_X].m.v[11])); /* -0 is kept as written */
    as_input_free(&in);
}

/* ------------------------------------------------------------------ settings ---- */

static void test_every_setting_is_read(void **state)
{
    as_input in;

    (void)state;
    parse_ok("title:  Hello world   # not part of the title\n"
             "tokens: 我 爱\t你\n"
             "kv_tokens: a b\n"
             "mask: none\n"
             "heads: 2\n"
             "layout: torch\n"
             "scale: 1/2\n"
             "X = [[1]]\n",
             &in);
    assert_string_equal(in.title, "Hello world");
    assert_int_equal(in.tokens.count, 3);
    assert_string_equal(in.tokens.label[0], "我");
    assert_string_equal(in.tokens.label[1], "爱");
    assert_string_equal(in.tokens.label[2], "你");
    assert_int_equal(in.tokens.pos.line, 2);
    assert_int_equal(in.tokens.pos.col, 1);
    assert_int_equal(in.kv_tokens.count, 2);
    assert_string_equal(in.kv_tokens.label[1], "b");
    assert_int_equal(in.kv_tokens.pos.line, 3);
    assert_int_equal(in.mask, AS_MASK_NONE);
    assert_int_equal(in.mask_pos.line, 4);
    assert_int_equal(in.heads, 2);
    assert_int_equal(in.heads_pos.line, 5);
    assert_int_equal(in.layout, AS_LAYOUT_TORCH);
    assert_true(in.scale_set);
    assert_close(in.scale, 0.5, 0);
    assert_int_equal(in.scale_pos.line, 7);
    as_input_free(&in);
}

static void test_other_setting_values_are_read(void **state)
{
    as_input in;

    (void)state;
    parse_ok("mask: causal\nlayout: book\nscale: auto\nheads: 16\n", &in);
    assert_int_equal(in.mask, AS_MASK_CAUSAL);
    assert_int_equal(in.layout, AS_LAYOUT_BOOK);
    assert_false(in.scale_set);
    assert_int_equal(in.heads, 16);
    as_input_free(&in);
    parse_ok("scale: 0\n", &in); /* finite is all that is asked */
    assert_true(in.scale_set);
    assert_close(in.scale, 0, 0);
    as_input_free(&in);
    parse_ok("scale: −1e-2\n", &in);
    assert_close(in.scale, -0.01, 0);
    as_input_free(&in);
}

static void test_the_output_head_settings_are_read(void **state)
{
    as_input in;

    (void)state;
    parse_ok("head: Wout\ntemperature: 1/2\ntop_k: 40\ntop_p: 0.9\nsample: 18446744073709551615\n",
             &in);
    assert_int_equal(in.out.head, AS_HEAD_WOUT);
    assert_true(in.out.temperature_set && in.out.temperature == 0.5);
    assert_int_equal(in.out.top_k, 40);
    assert_true(in.out.top_p == 0.9);
    assert_true(in.out.sample_set && in.out.seeded);
    assert_true(in.out.seed == 18446744073709551615ull); /* 2^64 - 1, the largest seed */
    assert_int_equal(in.out.head_pos.line, 1);
    assert_int_equal(in.out.sample_pos.line, 5);
    as_input_free(&in);
    parse_ok("head: tied\nsample: greedy\ntop_p: 1\n", &in);
    assert_int_equal(in.out.head, AS_HEAD_TIED);
    assert_true(in.out.sample_set && !in.out.seeded);
    assert_true(in.out.top_p == 1 && !in.out.temperature_set);
    as_input_free(&in);
    expect_error("sample: 18446744073709551616\n", 1, 9,
                 "sample is greedy or a whole-number seed from 0 to 18446744073709551615 (2^64 - 1), "
                 "not \"18446744073709551616\"");
    expect_error("top_p: 1.0000001\n", 1, 8,
                 "top_p must be a number above 0 and at most 1, not \"1.0000001\"");
    expect_error("temperature: -0.5\n", 1, 14, "temperature must be a number above 0, not \"-0.5\"");
}

static void test_full_width_colon_and_ideographic_space_are_accepted(void **state)
{
    as_input in;

    (void)state;
    parse_ok("title：标题\ntokens：我\xE3\x80\x80爱\n", &in); /* U+3000 between the labels */
    assert_string_equal(in.title, "标题");
    assert_int_equal(in.tokens.count, 2);
    assert_string_equal(in.tokens.label[0], "我");
    assert_string_equal(in.tokens.label[1], "爱");
    as_input_free(&in);
    /* blanks after a value are no part of it: U+3000, NBSP, \v and \f as well as spaces */
    parse_ok("title：标题\xE3\x80\x80\nmask: none\xC2\xA0\v\f \xE3\x80\x80\n", &in);
    assert_string_equal(in.title, "标题");
    assert_int_equal(in.mask, AS_MASK_NONE);
    as_input_free(&in);
}

/* ------------------------------------------------------------------ names ---- */

static void test_spellings_of_names_are_accepted(void **state)
{
    static const struct {
        const char *name;
        int id;
    } cases[] = {
        {"X", AS_X},     {"x", AS_X},      {"Xkv", AS_XKV},  {"X_kv", AS_XKV},
        {"XKV", AS_XKV}, {"X_KV", AS_XKV}, {"xkv", AS_XKV},  {"Wq", AS_WQ},
        {"W_q", AS_WQ},  {"WQ", AS_WQ},    {"W_Q", AS_WQ},   {"wq", AS_WQ},
        {"Wk", AS_WK},   {"W_K", AS_WK},   {"Wv", AS_WV},    {"wV", AS_WV},
        {"Wo", AS_WO},   {"W_O", AS_WO},   {"bq", AS_BQ},    {"b_q", AS_BQ},
        {"bQ", AS_BQ},   {"B_Q", AS_BQ},   {"bk", AS_BK},    {"bv", AS_BV},
        {"bo", AS_BO},   {"b_O", AS_BO},   {"M", AS_M},      {"m", AS_M},
        {"W", -1},       {"W_", -1},       {"Wz", -1},       {"Wqq", -1},
        {"X_", -1},      {"M_", -1},       {"bz", -1},       {"", -1},
        {"Q", -1},       {"Wq2", -1},      {"W__q", -1},     {"Mk", -1},
        {"Xk", -1},      {"_q", -1},       {"dO", AS_DO},    {"d_O", AS_DO},
        {"target", AS_TARGET}, {"do", -1}, {"DO", -1},       {"Target", -1},
        /* the block (SPEC §15): as written, or with an underscore after W or b */
        {"ln1_g", AS_LN1_G}, {"ln2_b", AS_LN2_B}, {"lnf_g", AS_LNF_G}, {"Wup", AS_WUP},
        {"W_up", AS_WUP}, {"bup", AS_BUP}, {"b_up", AS_BUP}, {"Wdown", AS_WDOWN},
        {"W_down", AS_WDOWN}, {"bdown", AS_BDOWN}, {"Wgate", AS_WGATE}, {"W_gate", AS_WGATE},
        {"ln3_g", -1}, {"ln1g", -1}, {"W_gat", -1}, {"Wup_", -1}, {"l_n1_g", -1},
        /* ids: (SPEC §16): the embedding table and the positions, as written */
        {"E", AS_E}, {"P", AS_P}, {"e", -1}, {"p", -1}, {"E_", -1}, {"PE", -1},
    };
    static const char *const canonical[AS_NMAT] = {"X",  "Xkv", "Wq", "Wk", "Wv", "Wo",
                                                   "bq", "bk",  "bv", "bo", "M",  "dO",
                                                   "target", "E", "P", "ln1_g", "ln1_b", "ln2_g",
                                                   "ln2_b", "lnf_g", "lnf_b", "Wup", "bup",
                                                   "Wdown", "bdown", "Wgate", "Wout"};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (as_mat_lookup(cases[i].name, strlen(cases[i].name)) != cases[i].id) {
            print_error("as_mat_lookup(\"%s\") != %d\n", cases[i].name, cases[i].id);
            fail();
        }
    }
    for (i = 0; i < AS_NMAT; i++)
        assert_string_equal(as_mat_name((as_mat_id)i), canonical[i]);
}

static void test_spelled_names_define_their_matrices(void **state)
{
    static const double one[] = {1}, two[] = {2}, three[] = {3}, four[] = {4};
    as_input in;

    (void)state;
    parse_ok("W_Q = [[1]]\nw_k = [[2]]\nWV = [[3]]\nX_kv = [[4]]\n", &in);
    assert_matrix(&in.mat[AS_WQ], 1, 1, one);
    assert_matrix(&in.mat[AS_WK], 1, 1, two);
    assert_matrix(&in.mat[AS_WV], 1, 1, three);
    assert_matrix(&in.mat[AS_XKV], 1, 1, four);
    assert_int_equal(in.mat[AS_XKV].pos.line, 4);
    as_input_free(&in);
}

/* ------------------------------------------------------------------ matrices ---- */

static void test_a_bias_may_be_one_row(void **state)
{
    static const double b12[] = {1, 2}, b34[] = {3, 4}, b56[] = {5, 6};
    as_input in;

    (void)state;
    parse_ok("bq = [1, 2]\nbk = [[3, 4]]\nbv = [5\n      , 6]\n", &in);
    assert_matrix(&in.mat[AS_BQ], 1, 2, b12);
    assert_matrix(&in.mat[AS_BK], 1, 2, b34);
    assert_matrix(&in.mat[AS_BV], 1, 2, b56);
    as_input_free(&in);
}

static void test_mask_holds_minus_infinity_and_finite_values(void **state)
{
    static const double M[] = {0, -INFINITY, -INFINITY, 0, 0, -INFINITY, 0.5, -1, 0};
    static const double N[] = {0, -INFINITY, 0, 0};
    as_input in;

    (void)state;
    parse_ok("M = [[0, −∞, -inf],\n     [0, 0, -∞],\n     [1/2, -1, 0]]\n", &in);
    assert_matrix(&in.mat[AS_M], 3, 3, M);
    assert_int_equal(in.mask, AS_MASK_CUSTOM);
    assert_int_equal(in.mask_pos.line, 1);
    as_input_free(&in);
    /* the chapter's M, and numpy's print of it */
    parse_ok("M = [[0,−∞],      # 第0行只能读“我”\n     [0, 0]]\n", &in);
    assert_matrix(&in.mat[AS_M], 2, 2, N);
    as_input_free(&in);
    parse_ok("M = [[  0. -inf]\n [  0.   0.]]\n", &in);
    assert_matrix(&in.mat[AS_M], 2, 2, N);
    as_input_free(&in);
}

static void test_a_setting_mask_is_kept_beside_a_matrix_M(void **state)
{
    as_input in;

    (void)state;
    /* the model layer reports the conflict; the parser keeps what was written */
    parse_ok("mask: none\nM = [[0]]\n", &in);
    assert_int_equal(in.mask, AS_MASK_NONE);
    assert_true(in.mat[AS_M].given);
    as_input_free(&in);
}

static void test_side_by_side_matrices_may_have_different_heights(void **state)
{
    static const double bq[] = {1, 2}, Wk[] = {0.5, 0.5, 0.5, -0.5}, Wq[] = {1, 2},
                        Wv[] = {1, 2, 3};
    as_input in;

    (void)state;
    parse_ok("bq = [[1, 2]]    Wk = [[0.5, 0.5],\n"
             "                       [0.5,-0.5]]\n",
             &in);
    assert_matrix(&in.mat[AS_BQ], 1, 2, bq);
    assert_matrix(&in.mat[AS_WK], 2, 2, Wk);
    as_input_free(&in);
    parse_ok("Wq = [[1],   Wv = [[1],\n"
             "      [2]]        [2],\n"
             "                  [3]]\n",
             &in);
    assert_matrix(&in.mat[AS_WQ], 2, 1, Wq);
    assert_matrix(&in.mat[AS_WV], 3, 1, Wv);
    as_input_free(&in);
}

static void test_one_matrix_may_span_many_lines(void **state)
{
    static const double X[] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const double Y[] = {1, 2, 3, 4, 5, 6, 7, 8};
    as_input in;

    (void)state;
    parse_ok("X = [[1, 2], [3, 4],\n     [5, 6],\n\n     # a note\n     [7, 8]]\n", &in);
    assert_matrix(&in.mat[AS_X], 4, 2, X);
    as_input_free(&in);
    /* numpy wraps a long row over two lines */
    parse_ok("X = [[1. 2. 3.\n  4.]\n [5. 6. 7. 8.]]\n", &in);
    assert_matrix(&in.mat[AS_X], 2, 4, Y);
    as_input_free(&in);
    /* Python style: brackets on lines of their own, trailing commas */
    parse_ok("X = [\n  [1, 2, 3, 4,],\n  [5, 6, 7, 8],\n]\n", &in);
    assert_matrix(&in.mat[AS_X], 2, 4, Y);
    as_input_free(&in);
}

static void test_a_long_single_line_is_read(void **state)
{
    size_t n = 16384, i, len = 0;
    char *text = malloc(8 + 3 * n + 4);
    as_input in;
    as_error err;

    (void)state;
    assert_non_null(text);
    len += (size_t)sprintf(text, "X = [[");
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "%d, ", (int)(i % 10));
    len += (size_t)sprintf(text + len, "]]");
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_text(&in, text, len, "test.txt", &err), 0);
    assert_int_equal(in.mat[AS_X].m.cols, n);
    assert_close(in.mat[AS_X].m.v[n - 1], (double)((n - 1) % 10), 0);
    as_input_free(&in);
    free(text);
}

/* ------------------------------------------------------------------ files ---- */

/* tests/data/parse/load_main.txt loads three files from its own folder. */
static void test_load_reads_files_relative_to_the_input(void **state)
{
    static const double Wq[] = {1, -0.5, 0.25, 0, 3, -0.125}, Wk[] = {1, 2, 3, 4},
                        bq[] = {0.5, -1.5, 2}, X[] = {1, 2, 3};
    as_input in;

    (void)state;
    parse_file_ok(DATA "load_main.txt", &in);
    assert_matrix(&in.mat[AS_WQ], 2, 3, Wq);
    assert_matrix(&in.mat[AS_WK], 2, 2, Wk);
    assert_matrix(&in.mat[AS_BQ], 1, 3, bq); /* the one-column file became a row */
    assert_matrix(&in.mat[AS_X], 1, 3, X);
    assert_int_equal(in.mat[AS_WQ].pos.line, 2);
    assert_int_equal(in.mat[AS_WK].pos.line, 3);
    as_input_free(&in);
}

/* From standard input (or text with path "-"), load() paths are taken from the
 * current directory. */
static void test_load_from_standard_input_is_relative_to_the_current_directory(void **state)
{
    static const double Wk[] = {1, 2, 3, 4};
    as_input in;
    as_error err;
    const char *text = "Wk = load(\"" DATA "w_commas.txt\")\n";

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_text(&in, text, strlen(text), "-", &err), 0);
    assert_matrix(&in.mat[AS_WK], 2, 2, Wk);
    as_input_free(&in);
}

static void test_dash_reads_standard_input(void **state)
{
    static const double X[] = {1, 1, 1, -1};
    int fd = open("examples/f11.txt", O_RDONLY), saved = dup(0);
    as_input in;
    as_error err;
    int rc;

    (void)state;
    assert_true(fd >= 0 && saved >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    as_error_init(&err, AS_LANG_EN);
    rc = as_parse_file(&in, "-", &err);
    dup2(saved, 0);
    close(saved);
    close(fd);
    assert_int_equal(rc, 0);
    assert_string_equal(in.path, "-");
    assert_matrix(&in.mat[AS_X], 2, 2, X);
    as_input_free(&in);
}

/* ------------------------------------------------------------------ errors ---- */

static void test_a_ragged_row_is_reported_at_its_start(void **state)
{
    (void)state;
    expect_error("X = [[1, 2],\n     [3, 4, 5]]\n", 2, 6,
                 "row 1 of X has 3 numbers, but row 0 has 2");
    expect_error("Wq = [[1, 2], [3]]", 1, 15, "row 1 of Wq has 1 number, but row 0 has 2");
    expect_error("X = [[1, 2],\r\n     [3]]\r\n", 2, 6,
                 "row 1 of X has 1 number, but row 0 has 2");
}

static void test_a_word_inside_a_matrix_is_reported_at_the_word(void **state)
{
    (void)state;
    expect_error("X = [[1, abc]]", 1, 10, "unexpected word \"abc\" inside matrix X");
    /* the chapter's notes beside X are captions (tests/test_book.c); a symbol there is
     * not: columns count characters */
    expect_error("X = [[1, 1], @ [1,-1]]\n", 1, 14, "unexpected \"@\" inside matrix X");
    expect_error("X = [[nan]]", 1, 7, "\"nan\" is not allowed in matrix X");
    expect_error("X = [[1.2.3]]", 1, 7, "\"1.2.3\" is not a number");
    expect_error("X = [[1, 2),]]", 1, 10, "\"2)\" is not a number");
}

static void test_a_matrix_given_twice_is_reported_at_the_second(void **state)
{
    (void)state;
    expect_error("Wq = [[1]]\nX = [[1]]\nW_Q = [[2]]\n", 3, 1,
                 "matrix Wq is given twice (first at line 1)");
}

static void test_unknown_names_and_settings_are_reported(void **state)
{
    (void)state;
    expect_error("Wz = [[1]]", 1, 1, "unknown name \"Wz\"");
    expect_error("title: a\n  colour: red\n", 2, 3, "unknown setting \"colour\"");
    expect_error("mask: causal\nX = [[1]]\nmask: none", 3, 1,
                 "the setting mask is given twice (first at line 1)");
    expect_error("X [[1]]", 1, 3, "expected \"=\" after the name X");
    expect_error("mask causal", 1, 6, "expected \":\" after the setting mask");
    expect_error("X = 5", 1, 5, "expected \"[[\" or load(\"file\") after \"X =\"");
    expect_error("X = [[1]]  mask: none", 1, 12, "a setting must start its line");
}

/* The hint of a setting with no near name names every setting there is, in either
 * language, each as a word of its own (rope beside rope_base, norm beside norm_eps): it
 * once stopped at rope and left out block, norm, ffn, ids, the head's and model:. */
static void test_an_unknown_settings_hint_names_every_setting(void **state)
{
    static const as_lang langs[] = {AS_LANG_EN, AS_LANG_ZH};
    size_t n, i, k;

    (void)state;
    const char *const *names = as_setting_names(&n);
    for (k = 0; k < 2; k++) {
        as_input in;
        as_error err;

        as_error_init(&err, langs[k]);
        assert_int_equal(as_parse_text(&in, "colour: red\n", 12, "test.txt", &err), -1);
        for (i = 0; i < n; i++) {
            const size_t len = strlen(names[i]);
            const char *at = err.hint;
            int word = 0;

            while (!word && (at = strstr(at, names[i])) != NULL) {
                word = (at == err.hint || (at[-1] != '_' && !(at[-1] >= 'a' && at[-1] <= 'z'))) &&
                       at[len] != '_' && !(at[len] >= 'a' && at[len] <= 'z');
                at += len;
            }
            if (!word)
                fail_msg("the hint \"%s\" does not name %s", err.hint, names[i]);
        }
    }
}

/* mask: window W, the width after blanks or a tab; "windows" is no mask of its own; an id
 * that is a word, negative or 2^40 and more (quoted as written) is refused at it. */
static void test_window_masks_and_ids_are_read_or_refused(void **state)
{
    static const error_case refused[] = {
        {"mask: windows 3\n", 7, "unknown mask \"windows 3\""},
        {"ids: 5 x\n", 8,
         "\xe2\x80\x9cx\xe2\x80\x9d in ids is no row number: a whole number, 0 or more, is expected"},
        {"ids: 7 1099511627776\n", 8, /* 2^40, the first id past any table */
         "the id \"1099511627776\" is past the last row of any embedding table"},
        {"ids: 5 -1\n", 8,
         "\xe2\x80\x9c-1\xe2\x80\x9d in ids is no row number: a whole number, 0 or more, is expected"},
        {"mask: window 0\n", 14,
         "the window of mask: window W must be a positive whole number, not \"0\""},
        {"mask: window 16385\n", 14, "the window of mask: window W is too large: at most 16384"},
    };
    as_input in;

    (void)state;
    parse_ok("mask: window\t2\n", &in);
    assert_int_equal(in.mask, AS_MASK_WINDOW);
    assert_int_equal(in.window, 2);
    as_input_free(&in);
    parse_ok("mask: window  16384\n", &in);
    assert_int_equal(in.window, 16384);
    as_input_free(&in);
    expect_errors(refused, sizeof refused / sizeof refused[0]);
}

/* A title holding a direction control is refused at it, the control named by its code
 * point (U+202E, U+2066, U+200F, U+061C; the four ranges of as_lex_bidi), and a C1
 * control (U+0085) as its bytes; an em dash, a euro sign, U+2060, a no-break space and
 * a superscript 0 (U+2070, just past U+2069) beside them are plain text and kept. */
static void test_direction_and_c1_controls_in_a_title_are_refused(void **state)
{
    as_input in;

    (void)state;
    expect_error("title: a\xe2\x80\xae" "b\n", 1, 9,
                 "a direction control U+202E in the title or a label");
    expect_error("title: ab\xe2\x81\xa6\n", 1, 10,
                 "a direction control U+2066 in the title or a label");
    expect_error("title: \xe2\x80\x8f\n", 1, 8, "a direction control U+200F in the title or a label");
    expect_error("title: a\xd8\x9c\n", 1, 9, "a direction control U+061C in the title or a label");
    expect_error("title: a\xc2\x85\n", 1, 9,
                 "a control character (\\xc2\\x85) in a title or label");
    parse_ok("title: a\xe2\x80\x94" "b\xe2\x82\xac\xe2\x81\xa0" "c\xc2\xa0" "d\xe2\x81\xb0\n", &in);
    assert_string_equal(in.title, "a\xe2\x80\x94" "b\xe2\x82\xac\xe2\x81\xa0" "c\xc2\xa0" "d\xe2\x81\xb0");
    as_input_free(&in);
}

/* grad's statements: the loss as written (grad checks the word), dO and target. */
static void test_the_loss_dO_and_target_are_read_for_grad(void **state)
{
    as_input in;

    (void)state;
    parse_ok("X = [[1]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n  loss:  mse  # L\n"
             "target = [[2]]\ndO = [[0.5]]\n", &in);
    assert_string_equal(in.loss, "mse");
    assert_int_equal(in.loss_pos.line, 5);
    assert_int_equal(in.loss_pos.col, 10);
    assert_true(in.mat[AS_TARGET].given && in.mat[AS_DO].given);
    assert_close(in.mat[AS_TARGET].m.v[0], 2, 0);
    assert_close(in.mat[AS_DO].m.v[0], 0.5, 0);
    as_input_free(&in);
}

static void test_bad_setting_values_are_reported_at_the_value(void **state)
{
    (void)state;
    expect_error("mask: upper", 1, 7, "unknown mask \"upper\"");
    expect_error("layout:  numpy", 1, 10, "unknown layout \"numpy\"");
    expect_error("heads: 0", 1, 8, "heads must be a positive whole number, not \"0\"");
    expect_error("heads: two", 1, 8, "heads must be a positive whole number, not \"two\"");
    expect_error("heads: 99999999999999999999", 1, 8, "heads is too large: at most 16384");
    expect_error("scale: inf", 1, 8, "scale must be a finite number, not \"inf\"");
    expect_error("scale: big", 1, 8, "scale must be auto or a number, not \"big\"");
    expect_error("scale: 1e999", 1, 8, "the number \"1e999\" is too large");
    expect_error("title:   # nothing", 1, 10, "the setting title has no value");
}

static void test_infinity_outside_the_mask_is_refused(void **state)
{
    (void)state;
    expect_error("Wq = [[1, -inf]]", 1, 11, "\"-inf\" is only allowed in the mask M");
    expect_error("X = [[−∞]]", 1, 7, "\"−∞\" is only allowed in the mask M");
    expect_error("M = [[−∞, ∞]]", 1, 11, "\"∞\" in the mask M must be negative");
}

static void test_unusable_numbers_are_reported_at_the_number(void **state)
{
    (void)state;
    expect_error("X = [[1e999]]", 1, 7, "the number \"1e999\" is too large");
    expect_error("X = [[1, 1/0]]", 1, 10, "the fraction \"1/0\" divides by zero");
}

static void test_bracket_errors_are_reported(void **state)
{
    (void)state;
    expect_error("title: t\nX = [[1, 2],\n     [3, 4]\n", 2, 5,
                 "unclosed matrix X: expected \"]]\" before the end of the file");
    /* a line that starts a statement is no row line: a missing "]]" shows there */
    expect_error("X = [[1, 2],\n     [3, 4]\nWq = [[0.5, 0.5],\n      [-0.5, 0.5]]\n", 1, 5,
                 "unclosed matrix X: expected \"]]\" before line 3");
    expect_error("bq = [1, 2", 1, 6,
                 "unclosed matrix bq: expected \"]\" before the end of the file");
    expect_error("X = [[[1]]]", 1, 7,
                 "too many \"[\" in matrix X: brackets nest two deep at most");
    expect_error("X = [1, 2]", 1, 6, "a number outside a row of matrix X");
    expect_error("X = [[1], 2]", 1, 11, "a number outside a row of matrix X");
    expect_error("X = [[1], []]", 1, 11, "row 1 of X is empty");
    expect_error("X = []", 1, 5, "matrix X is empty");
    expect_error("X = [[1,, 2]]", 1, 9, "unexpected \",\" in matrix X");
    expect_error("X = [[1]]\n[2]", 2, 1, "unexpected \"[\" outside a matrix");
}

static void test_deep_nesting_on_a_huge_line_fails_at_once(void **state)
{
    size_t n = 1000000;
    char *text = malloc(n + 5);

    (void)state;
    assert_non_null(text);
    memcpy(text, "X = ", 4);
    memset(text + 4, '[', n);
    expect_error_n(text, n + 4, 1, 7,
                   "too many \"[\" in matrix X: brackets nest two deep at most");
    free(text);
}

static void test_text_after_a_matrix_is_reported(void **state)
{
    (void)state;
    /* words after a matrix are a caption (tests/test_book.c); anything else is not */
    expect_error("X = [[1, 2]] @oops", 1, 14, "unexpected text \"@oops\" after matrix X");
    expect_error("\xEF\xBB\xBFX = [[1]] 5\n", 1, 11, "unexpected text \"5\" after matrix X");
    expect_error("X = [[1, 2]] mask: none\n", 1, 14, "a setting must start its line");
    expect_error("Wq = [[1],   Wk = [[2],\n      [3]]         [4]]   [5]]\n", 2, 27,
                 "this line has more row pieces than matrices still open");
    expect_error("hello", 1, 1, "unexpected text \"hello\"");
}

static void test_bad_bytes_are_reported_where_they_stand(void **state)
{
    (void)state;
    expect_error("X = [[1]]\ntitle: 我爱\xff\n", 2, 10, "invalid UTF-8 (byte 0xff)");
    expect_error("title: \xe6\x88", 1, 8, "invalid UTF-8 (byte 0xe6)");  /* cut short */
    expect_error("title: \xc0\xaf", 1, 8, "invalid UTF-8 (byte 0xc0)");  /* overlong */
    expect_error("title: \xed\xa0\x80", 1, 8, "invalid UTF-8 (byte 0xed)"); /* surrogate */
    expect_error_n("X = [[1,\0 2]]", 13, 1, 9, "the file holds a NUL byte");
}

static void test_empty_inputs_are_refused(void **state)
{
    (void)state;
    expect_error("", 0, 0, "the file is empty");
    expect_error("\xEF\xBB\xBF", 0, 0, "the file is empty");
    expect_error("# just a note\n\n   # another\r\n", 0, 0, "the file holds no statements");
}

static void test_unreadable_files_are_refused(void **state)
{
    (void)state;
    expect_file_error("tests/data/parse", "tests/data/parse", 0, 0,
                      "this is a directory, not an input file");
    expect_file_error(DATA "no_such_file.txt", DATA "no_such_file.txt", 0, 0,
                      "cannot read the file: no such file");
}

static void test_load_errors_name_the_right_file_and_place(void **state)
{
    as_input in;
    as_error err;
    const char *missing = "Wq = load(\"nope.txt\")";

    (void)state;
    /* inside the loaded file: its own name, line and column */
    expect_file_error(DATA "load_bad_main.txt", DATA "bad_rows.txt", 4, 3,
                      "row 1 of Wq has 2 numbers, but row 0 has 3");
    /* a file that is not there: the place of its name in the input */
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_text(&in, missing, strlen(missing), DATA "x.txt", &err), -1);
    assert_string_equal(err.file, DATA "x.txt");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 12);
    assert_string_equal(err.msg, "cannot load \"" DATA "nope.txt\": no such file");
    assert_true(input_is_empty(&in));
}

static void test_matrices_over_the_limits_are_refused(void **state)
{
    size_t n = 16385, i, len = 0;
    char *text = malloc(8 + 5 * n + 4);

    (void)state;
    assert_non_null(text);
    /* 16385 columns: the 16385th number stands at column 7 + 3 * 16384 */
    len += (size_t)sprintf(text, "X = [[");
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "0, ");
    len += (size_t)sprintf(text + len, "]]");
    expect_error_n(text, len, 1, 7 + 3 * 16384, "matrix X is too large: more than 16384 columns");
    /* 16385 rows, one per line: the 16385th row starts line 16385 */
    len = (size_t)sprintf(text, "X = [[0],\n");
    for (i = 1; i < n; i++)
        len += (size_t)sprintf(text + len, "[0],\n");
    expect_error_n(text, len, 16385, 1, "matrix X is too large: more than 16384 rows");
    /* 16385 token labels */
    len = (size_t)sprintf(text, "tokens: ");
    for (i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "a ");
    expect_error_n(text, len, 1, 9 + 2 * 16384, "too many tokens: more than 16384 labels");
    free(text);
}

/* Writes text to path (a scratch file under build/tests/). */
static void put(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A loaded file over the limits is refused in it, at the number or row one too many:
 * 16385 numbers on a line (the 16385th at column 2 * 16384 + 1), 16385 rows of one
 * number, and 16385 rows of two numbers. */
static void test_loaded_files_over_the_limits_are_refused(void **state)
{
    static const char *const row[] = {"0 ", "0\n", "0, 0\n"};
    static const char *const name[] = {"build/tests/limit-cols.txt", "build/tests/limit-rows.txt",
                                       "build/tests/limit-rows2.txt"};
    const size_t n = 16385;
    char *text = malloc(5 * n + 1), in[128];
    size_t i, k, len;

    (void)state;
    assert_non_null(text);
    for (k = 0; k < 3; k++) {
        for (len = 0, i = 0; i < n; i++)
            len += (size_t)sprintf(text + len, "%s", row[k]);
        put(name[k], text, len);
        len = (size_t)snprintf(in, sizeof in, "X = load(\"%s\")\n", name[k] + strlen("build/tests/"));
        put("build/tests/limit-in.txt", in, len);
        if (k == 0)
            expect_file_error("build/tests/limit-in.txt", name[k], 1, 2 * 16384 + 1,
                              "matrix X is too large: more than 16384 columns");
        else
            expect_file_error("build/tests/limit-in.txt", name[k], 16385, 1,
                              "matrix X is too large: more than 16384 rows");
    }
    free(text);
}

/* A file of 2 GiB and one byte (sparse: no disk is used) is refused before a byte of it
 * is read, as the input and as a load(): the load's message has no hint, for where a
 * path is taken from (the hint of a file that is not found) does not help a size. */
static void test_a_file_over_two_gib_is_refused_unread(void **state)
{
    const char *big = "build/tests/over-2gib.txt";
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    as_input in;
    as_error err;

    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)2147483648 + 1), 0);
    assert_int_equal(close(fd), 0);
    expect_file_error(big, big, 0, 0,
                      "cannot read the file: it is larger than 2 GiB, the most one input file may hold");
    put("build/tests/over-2gib-in.txt", "X = load(\"over-2gib.txt\")\n", 26);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_file(&in, "build/tests/over-2gib-in.txt", &err), -1);
    assert_int_equal(unlink(big), 0);
    assert_string_equal(err.msg, "cannot load \"build/tests/over-2gib.txt\": it is larger than 2 GiB, "
                                 "the most one input file may hold");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 11);
    assert_string_equal(err.hint, "");
    expect_file_error("build/tests/over-2gib-in.txt", "build/tests/over-2gib-in.txt", 1, 11,
                      "cannot load \"build/tests/over-2gib.txt\": no such file");
}

/* Text that is not UTF-8 at its first byte: a lone FE, FE or FF before ASCII (no byte
 * order mark: that is FF FE or FE FF), and UTF-16 BE whose first characters hold a DEL
 * (not text, so the NUL is what is named). */
static void test_bytes_that_are_no_utf8_are_named(void **state)
{
    (void)state;
    expect_error_n("\xfe", 1, 1, 1, "invalid UTF-8 (byte 0xfe)");
    expect_error_n("\xfe" "A\nX", 4, 1, 1, "invalid UTF-8 (byte 0xfe)");
    expect_error_n("\xff" "A\nX", 4, 1, 1, "invalid UTF-8 (byte 0xff)");
    expect_error_n("\0#\0 \0\x7f\0\n\0X\0=\0[\0[\0" "1", 17, 1, 1, "the file holds a NUL byte");
    expect_error_n("\0#\0 \0a\0\n\0X\0=\0[\0[\0" "1", 17, 1, 1, "the file is UTF-16 text, not UTF-8");
}

/* A character of three bytes that starts like a number's (E2 88 92 −, E2 88 9E ∞, E2 88 9A
 * √) but is none of them is a word in the matrix, quoted at its column: an em dash
 * (E2 80 94), an n-ary sum (E2 88 91); a √ with nothing under it is no number. */
static void test_signs_that_are_no_numbers_are_quoted_in_a_matrix(void **state)
{
    static const error_case cases[] = {
        {"X = [[1, \xe2\x80\x94]]\n", 10, "unexpected word \"\xe2\x80\x94\" inside matrix X"},
        {"X = [[\xe2\x88\x91]]\n", 7, "unexpected word \"\xe2\x88\x91\" inside matrix X"},
        {"X = [[1 \xe2\x88\x91 2]]\n", 9, "unexpected word \"\xe2\x88\x91\" inside matrix X"},
        {"X = [[\xe2\x88\x9a]]\n", 7, "\"\xe2\x88\x9a\" is not a number"},
    };

    (void)state;
    expect_errors(cases, sizeof cases / sizeof cases[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f11_example_gives_the_chapter_input),
        cmocka_unit_test(test_chapter_block_pasted_verbatim_is_read_side_by_side),
        cmocka_unit_test(test_crlf_bom_numpy_print_and_fractions_give_identical_matrices),
        cmocka_unit_test(test_every_number_form_is_read),
        cmocka_unit_test(test_number_prefixes_stop_where_the_number_ends),
        cmocka_unit_test(test_square_roots_are_read_in_both_spellings),
        cmocka_unit_test(test_a_printed_numbers_unit_is_the_place_of_its_last_digit),
        cmocka_unit_test(test_infinities_are_read_only_when_allowed),
        cmocka_unit_test(test_overflow_and_zero_denominators_are_refused),
        cmocka_unit_test(test_every_number_form_is_read_inside_a_matrix),
        cmocka_unit_test(test_every_setting_is_read),
        cmocka_unit_test(test_other_setting_values_are_read),
        cmocka_unit_test(test_the_output_head_settings_are_read),
        cmocka_unit_test(test_full_width_colon_and_ideographic_space_are_accepted),
        cmocka_unit_test(test_spellings_of_names_are_accepted),
        cmocka_unit_test(test_spelled_names_define_their_matrices),
        cmocka_unit_test(test_a_bias_may_be_one_row),
        cmocka_unit_test(test_mask_holds_minus_infinity_and_finite_values),
        cmocka_unit_test(test_a_setting_mask_is_kept_beside_a_matrix_M),
        cmocka_unit_test(test_side_by_side_matrices_may_have_different_heights),
        cmocka_unit_test(test_one_matrix_may_span_many_lines),
        cmocka_unit_test(test_a_long_single_line_is_read),
        cmocka_unit_test(test_load_reads_files_relative_to_the_input),
        cmocka_unit_test(test_load_from_standard_input_is_relative_to_the_current_directory),
        cmocka_unit_test(test_dash_reads_standard_input),
        cmocka_unit_test(test_a_ragged_row_is_reported_at_its_start),
        cmocka_unit_test(test_a_word_inside_a_matrix_is_reported_at_the_word),
        cmocka_unit_test(test_a_matrix_given_twice_is_reported_at_the_second),
        cmocka_unit_test(test_unknown_names_and_settings_are_reported),
        cmocka_unit_test(test_an_unknown_settings_hint_names_every_setting),
        cmocka_unit_test(test_window_masks_and_ids_are_read_or_refused),
        cmocka_unit_test(test_direction_and_c1_controls_in_a_title_are_refused),
        cmocka_unit_test(test_bad_setting_values_are_reported_at_the_value),
        cmocka_unit_test(test_the_loss_dO_and_target_are_read_for_grad),
        cmocka_unit_test(test_infinity_outside_the_mask_is_refused),
        cmocka_unit_test(test_unusable_numbers_are_reported_at_the_number),
        cmocka_unit_test(test_bracket_errors_are_reported),
        cmocka_unit_test(test_deep_nesting_on_a_huge_line_fails_at_once),
        cmocka_unit_test(test_text_after_a_matrix_is_reported),
        cmocka_unit_test(test_bad_bytes_are_reported_where_they_stand),
        cmocka_unit_test(test_empty_inputs_are_refused),
        cmocka_unit_test(test_unreadable_files_are_refused),
        cmocka_unit_test(test_load_errors_name_the_right_file_and_place),
        cmocka_unit_test(test_matrices_over_the_limits_are_refused),
        cmocka_unit_test(test_loaded_files_over_the_limits_are_refused),
        cmocka_unit_test(test_a_file_over_two_gib_is_refused_unread),
        cmocka_unit_test(test_bytes_that_are_no_utf8_are_named),
        cmocka_unit_test(test_signs_that_are_no_numbers_are_quoted_in_a_matrix),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
