/* test_trace.c - the walk-through: the expansion writer (expand.c) on values worked out
 * by hand, then `attnstep trace` end to end: golden files (checked line by line against
 * the chapter, see tests/golden/README.md), the chapter's arithmetic lines verbatim, the
 * options, and agreement with `run --format json` on inputs generated here that nobody
 * wrote by hand. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/expand.h"
#include "test_util.h"

#define CLI_OUT "build/tests/trace.out"
#define CLI_ERR "build/tests/trace.err"
#include "cli_util.h"

static const as_expand_style plain = {10, 0}, ascii = {10, 1};

/* ---- the expansion writer ---- */

/* The text t holds equals want; frees t. */
static void assert_text(as_text *t, const char *want)
{
    assert_false(t->failed);
    assert_string_equal(as_text_str(t), want);
    as_text_free(t);
}

static void test_negative_factors_are_written_in_parentheses(void **state)
{
    /* the chapter: q₀ = [1×0.5+1×(-0.5), ...], q₁ = [1×0.5+(-1)×(-0.5), ...] */
    static const double x0[] = {1, 1}, x1[] = {1, -1}, wq_col0[] = {0.5, -0.5};
    const as_view a0 = {x0, 1, NULL, 2}, a1 = {x1, 1, NULL, 2}, b = {wq_col0, 1, NULL, 2};
    as_text t = {0};

    (void)state;
    assert_int_equal(as_expand_products(&t, &a0, &b, "+", &plain), 0);
    assert_text(&t, "1×0.5+1×(-0.5)");
    as_expand_products(&t, &a1, &b, "+", &plain);
    assert_text(&t, "1×0.5+(-1)×(-0.5)");
    as_expand_products(&t, &a1, &b, "+", &ascii);
    assert_text(&t, "1x0.5+(-1)x(-0.5)");
    as_expand_factor(&t, -0.0, &plain); /* -0 shows as 0, with nothing to bracket */
    assert_text(&t, "0");
}

static void test_a_column_is_read_through_its_stride(void **state)
{
    /* Wv = [[5, 10], [5, -10]]: column 1 is 10, -10; x₀ = [1,1] gives 1×10+1×(-10) */
    static const double x0[] = {1, 1}, wv[] = {5, 10, 5, -10};
    const as_view a = {x0, 1, NULL, 2}, col1 = {wv + 1, 2, NULL, 2};
    as_text t = {0};

    (void)state;
    as_expand_products(&t, &a, &col1, "+", &plain);
    assert_text(&t, "1×10+1×(-10)");
}

static void test_a_weighted_sum_reads_only_the_listed_positions(void **state)
{
    /* shares of row 1 of the chapter, V = [[10,0],[0,20]]: column 0 through idx {0,1};
     * and a row that may read positions 0 and 2 only */
    static const double a[] = {0.6697615493266569, 0.33023845067334306}, v[] = {10, 0, 0, 20};
    static const double w3[] = {0.25, 0, 0.75}, v3[] = {4, 100, 8};
    static const size_t idx[] = {0, 1}, some[] = {0, 2};
    const as_view av = {a, 1, idx, 2}, vv = {v, 2, idx, 2};
    const as_view wv = {w3, 1, some, 2}, v3v = {v3, 1, some, 2};
    as_text t = {0};

    (void)state;
    assert_int_equal(as_expand_products(&t, &av, &vv, " + ", &plain), 1); /* shares rounded */
    assert_text(&t, "0.6697615493×10 + 0.3302384507×0");
    assert_int_equal(as_expand_products(&t, &wv, &v3v, " + ", &plain), 0);
    assert_text(&t, "0.25×4 + 0.75×8");
}

static void test_fractions_and_decimals_follow_the_display_rule(void **state)
{
    /* 1/3 to 10 places is 0.3333333333 (rounded); 0.5 and 2 are exact; --digits 3 */
    const as_expand_style three = {3, 0};
    as_text t = {0};

    (void)state;
    assert_int_equal(as_expand_number(&t, 1.0 / 3, &plain), 1);
    assert_text(&t, "0.3333333333");
    assert_int_equal(as_expand_number(&t, 0.5, &plain), 0);
    assert_text(&t, "0.5");
    assert_int_equal(as_expand_factor(&t, -2.0 / 3, &three), 1);
    assert_text(&t, "(-0.667)");
    assert_int_equal(as_expand_number(&t, 2, &plain), 0);
    assert_text(&t, "2");
}

static void test_a_vector_is_printed_like_a_table_row(void **state)
{
    /* the chapter: [0,1] between whole numbers, [0, -0.7071067812] with decimals */
    static const double whole[] = {0, 1}, dec[] = {0, -0.70710678118654757};
    const as_view w = {whole, 1, NULL, 2}, d = {dec, 1, NULL, 2};
    as_text t = {0};

    (void)state;
    assert_int_equal(as_expand_vector(&t, &w, &plain), 0);
    assert_text(&t, "[0,1]");
    assert_int_equal(as_expand_vector(&t, &d, &plain), 1);
    assert_text(&t, "[0, -0.7071067812]");
}

static void test_long_lists_keep_their_ends_around_an_ellipsis(void **state)
{
    static const double one_to_ten[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    static const double ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const char *const words[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    const as_view ten = {one_to_ten, 1, NULL, 10}, eight = {one_to_ten, 1, NULL, 8};
    const as_view nine = {one_to_ten, 1, NULL, 9}, nine_ones = {ones, 1, NULL, 9};
    as_text t = {0};

    (void)state;
    assert_false(as_expand_elides(8));
    assert_true(as_expand_elides(9));
    as_expand_vector(&t, &ten, &plain);
    assert_text(&t, "[1,2,3,…,9,10]");
    as_expand_vector(&t, &eight, &plain); /* eight items: all of them */
    assert_text(&t, "[1,2,3,4,5,6,7,8]");
    as_expand_products(&t, &nine, &nine_ones, "+", &plain);
    assert_text(&t, "1×1+2×1+3×1+…+8×1+9×1");
    as_expand_products(&t, &nine, &nine_ones, "+", &ascii);
    assert_text(&t, "1x1+2x1+3x1+...+8x1+9x1");
    as_expand_words(&t, words, NULL, 9, &plain);
    assert_text(&t, "[a,b,c,…,h,i]");
}

static void test_subscripts_are_unicode_digits_or_brackets(void **state)
{
    as_text t = {0};

    (void)state;
    as_expand_sub(&t, "q", 0, &plain);
    assert_text(&t, "q₀");
    as_expand_sub(&t, "q", 12, &plain);
    assert_text(&t, "q₁₂");
    as_expand_sub(&t, "xkv", 3, &plain);
    assert_text(&t, "xkv₃");
    as_expand_sub(&t, "q", 12, &ascii);
    assert_text(&t, "q[12]");
}

static void test_scaled_scores_keep_their_exact_form(void **state)
{
    /* by hand: 1/√2, 0/√2 (the chapter); with √d_k whole the fraction is reduced:
     * 3/√4 = 3/2, 4/√4 = 2, 6/√16 = 3/2, -3/√4 = -3/2, 2/√9 = 2/3, 0/√4 = 0 */
    static const struct {
        double raw;
        size_t dk;
        const char *want;
    } cases[] = {{1, 2, "1/√2"}, {0, 2, "0/√2"},    {-1, 2, "-1/√2"}, {3, 4, "3/2"},
                 {4, 4, "2"},    {6, 16, "3/2"},    {-3, 4, "-3/2"},  {2, 9, "2/3"},
                 {0, 4, "0"},    {0.5, 4, "0.5/2"}, {5, 1, "5"},      {2.5, 3, "2.5/√3"}};
    as_text t = {0};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(as_expand_over_sqrt(&t, cases[i].raw, cases[i].dk, &plain), 0);
        assert_text(&t, cases[i].want);
    }
    as_expand_over_sqrt(&t, 1, 2, &ascii);
    assert_text(&t, "1/sqrt(2)");
    assert_int_equal(as_expand_over_sqrt(&t, 1.0 / 3, 2, &plain), 1);
    assert_text(&t, "0.3333333333/√2");
}

static void test_a_text_grows_past_its_first_allocation(void **state)
{
    as_text t = {0};
    int i;

    (void)state;
    assert_string_equal(as_text_str(&t), "");
    for (i = 0; i < 100; i++)
        as_text_addf(&t, "%d,", i % 10);
    assert_int_equal(t.len, 200);
    assert_memory_equal(as_text_str(&t) + 190, "5,6,7,8,9,", 10); /* i = 95..99 */
    as_text_free(&t);
}

/* ---- trace, end to end ---- */

/* Writes text to path (an input made by the test). */
static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* s without its spaces, in a new string. */
static char *squeeze(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;

    assert_non_null(out);
    for (; *s; s++)
        if (*s != ' ')
            *o++ = *s;
    *o = '\0';
    return out;
}

/* stdout of the last run holds each line of want, modulo spacing, in that order. */
static void assert_lines_in_order(const char *const *want, size_t count)
{
    char *raw = slurp(CLI_OUT), *got, *at;
    size_t i;

    assert_non_null(raw);
    at = got = squeeze(raw);
    for (i = 0; i < count; i++) {
        char *line = squeeze(want[i]), *hit = strstr(at, line);
        if (hit == NULL) {
            print_error("the output lacks, after the lines before it, \"%s\"; it holds:\n%s\n",
                        want[i], raw);
            fail();
        }
        at = hit + strlen(line);
        free(line);
    }
    free(got);
    free(raw);
}

static void test_trace_prints_the_chapters_walk_through(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.zh.txt");
    assert_int_equal(run("examples/f11.txt trace"), 2); /* the command comes first */
}

static void test_every_arithmetic_line_of_the_chapter_is_there(void **state)
{
    /* copied from the chapter (F11-attention.zh.txt), in its order; the two step-4 sums
     * are printed there over two lines each, joined here as SPEC §5 shows them */
    static const char *const chapter[] = {
        "q₀ = x₀Wq = [1×0.5+1×(-0.5), 1×0.5+1×0.5] = [0,1]",
        "k₀ = x₀Wk = [1×0.5+1×0.5,    1×0.5+1×(-0.5)] = [1,0]",
        "v₀ = x₀Wv = [1×5+1×5,        1×10+1×(-10)] = [10,0]",
        "q₁ = x₁Wq = [1×0.5+(-1)×(-0.5), 1×0.5+(-1)×0.5] = [1,0]",
        "k₁ = x₁Wk = [1×0.5+(-1)×0.5,    1×0.5+(-1)×(-0.5)] = [0,1]",
        "v₁ = x₁Wv = [1×5+(-1)×5,        1×10+(-1)×(-10)] = [0,20]",
        "当前接收者：爱，q₁=[1,0]",
        "可读位置0：我，k₀=[1,0]，v₀=[10,0]",
        "可读位置1：爱，k₁=[0,1]，v₁=[0,20]",
        "第一步：Query和每一个Key打分。",
        "对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1",
        "对“爱”的原始分数：q₁·k₁ = 1×0+0×1 = 0",
        "原始分数：[1,0]，顺序仍是[我,爱]",
        "第二步：",
        "√2≈1.414214", /* the chapter gives the divisor itself */
        "缩放分数：[1/√2, 0/√2] ≈ [0.7071067812,0]",
        "第三步：沿可读位置做softmax，得到读取份额。",
        "减最大值： [0, -0.7071067812]",
        "取指数：   [1, 0.4930686914]",
        "指数之和： 1.4930686914",
        "除以总和： [0.6697615493, 0.3302384507]",
        "来自“我”的份额   来自“爱”的份额",
        "第四步：用份额混合Value的对应格子。",
        "输出第0格 = 0.6697615493×10 + 0.3302384507×0 ≈ 6.6976154933",
        "输出第1格 = 0.6697615493×0  + 0.3302384507×20 ≈ 6.6047690135",
        "“爱”位置的注意力输出 o₁ ≈ [6.6976154933,6.6047690135]",
        /* the chapter's side-by-side block opens the whole-matrix part */
        "Q = [[0,1],        K = [[1,0],        V = [[10,0],",
        "     [1,0]]             [0,1]]             [0,20]]",
        "QKᵀ = [[0,1],",
        "O = softmax(QKᵀ/√d_k + M)V",
    };

    (void)state;
    assert_int_equal(run("trace examples/f11.txt"), 0);
    assert_lines_in_order(chapter, sizeof chapter / sizeof chapter[0]);
    /* SPEC §5's heading of step 2 */
    assert_file_contains(CLI_OUT, "第二步：把分数除以√d_k（d_k=2；√2≈1.414214）。");
}

/* Nonzero when s holds a CJK character (or CJK punctuation) other than 我 and 爱. */
static int has_chinese_beyond_the_tokens(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p; p++) {
        unsigned c;
        if (*p < 0xE0 || *p >= 0xF0)
            continue;
        c = ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        if (c == 0x6211 || c == 0x7231) /* 我 爱: token labels */
            continue;
        if ((c >= 0x3000 && c <= 0x303F) || (c >= 0x4E00 && c <= 0x9FFF) ||
            (c >= 0xFF00 && c <= 0xFFEF))
            return 1;
    }
    return 0;
}

static void test_english_gives_the_same_arithmetic_under_english_headings(void **state)
{
    static const char *const lines[] = {
        "q₀ = x₀Wq = [1×0.5+1×(-0.5), 1×0.5+1×0.5] = [0,1]",
        "Step 1:", "q₁·k₀ = 1×1+0×0 = 1", "q₁·k₁ = 1×0+0×1 = 0",
        "Step 2:", "[1/√2, 0/√2] ≈ [0.7071067812, 0]",
        "Step 3:", "[0, -0.7071067812]", "[1, 0.4930686914]", "1.4930686914",
        "[0.6697615493, 0.3302384507]",
        "Step 4:", "0.6697615493×10 + 0.3302384507×0 ≈ 6.6976154933",
        "0.6697615493×0 + 0.3302384507×20 ≈ 6.6047690135",
        "o₁ ≈ [6.6976154933, 6.6047690135]",
    };
    char *out;

    (void)state;
    assert_int_equal(run("trace --lang en examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.en.txt");
    assert_lines_in_order(lines, sizeof lines / sizeof lines[0]);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_false(has_chinese_beyond_the_tokens(out));
    free(out);
}

static void test_row_0_reads_only_itself(void **state)
{
    static const char *const lines[] = {
        "当前接收者：我，q₀=[0,1]",
        "可读位置0：我，k₀=[1,0]，v₀=[10,0]",
        "不可读位置1：爱（因果掩码：它在当前位置之后，属于未来）",
        "对“我”的原始分数：q₀·k₀ = 0×1+1×0 = 0",
        "原始分数：[0]，顺序仍是[我]",
        "除以总和： [1]",
        "“我”位置的注意力输出 o₀ = [10,0]",
    };

    (void)state;
    assert_int_equal(run("trace --row 0 examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.row0.zh.txt");
    assert_lines_in_order(lines, sizeof lines / sizeof lines[0]);
    assert_file_lacks(CLI_OUT, "对“爱”的原始分数"); /* left out of steps 1-4 */
    assert_int_equal(run("trace --row last examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.zh.txt");
}

static void test_row_all_walks_every_row(void **state)
{
    static const char *const lines[] = {
        "Position “我” (row 0)", "o₀ = [10,0]",
        "Position “爱” (row 1)", "o₁ ≈ [6.6976154933, 6.6047690135]",
        "All rows at once",
    };

    (void)state;
    assert_int_equal(run("trace --row all --lang en examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.all.en.txt");
    assert_lines_in_order(lines, sizeof lines / sizeof lines[0]);
}

static void test_ascii_spells_the_walk_through_in_ascii(void **state)
{
    static const char *const lines[] = {
        "q[0] = x[0]Wq = [1x0.5+1x(-0.5), 1x0.5+1x0.5] = [0,1]",
        "q[1]*k[0] = 1x1+0x0 = 1",
        "[1/sqrt(2), 0/sqrt(2)] ~= [0.7071067812, 0]",
        "0.6697615493x10 + 0.3302384507x0 ~= 6.6976154933",
        "o[1] ~= [6.6976154933, 6.6047690135]",
        "M = [[0,-inf],",
    };
    static const char *const unicode[] = {"×", "·", "√", "\xe2\x88\x92\xe2\x88\x9e", "≈", "₀",
                                          "₁", "ᵀ", "…"};
    size_t i;

    (void)state;
    assert_int_equal(run("trace --ascii --lang en examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.trace.ascii.txt");
    assert_lines_in_order(lines, sizeof lines / sizeof lines[0]);
    for (i = 0; i < sizeof unicode / sizeof unicode[0]; i++)
        assert_file_lacks(CLI_OUT, unicode[i]);
}

static void test_digits_apply_to_the_walk_through(void **state)
{
    /* 0.6697615493… to 3 places is 0.67, 6.6976154933… is 6.698, 1/√2 is 0.707 */
    (void)state;
    assert_int_equal(run("trace --digits 3 examples/f11.txt"), 0);
    assert_file_contains(CLI_OUT, "[1/√2, 0/√2] ≈ [0.707, 0]");
    assert_file_contains(CLI_OUT, "输出第0格 = 0.67×10 + 0.33×0 ≈ 6.698");
}

static void test_trace_refuses_what_it_cannot_do(void **state)
{
    static const char *const bad[] = {"trace --row 2 examples/f11.txt",
                                      "trace --format json examples/f11.txt",
                                      "trace --format md examples/f11.txt",
                                      "trace --only A examples/f11.txt",
                                      "trace --row two examples/f11.txt"};
    size_t i;

    char args[256];

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "%s --lang en", bad[i]);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, "attnstep: error: ");
        assert_int_equal(run(bad[i]), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, "attnstep: 错误：");
    }
    assert_int_equal(run("trace --row 2 --lang en examples/f11.txt"), 2);
    assert_file_contains(CLI_ERR, "--row 2 is out of range: examples/f11.txt has 2 rows (0 to 1)");
    assert_int_equal(run(bad[0]), 2);
    assert_file_contains(CLI_ERR, "--row 2超出范围：examples/f11.txt只有2行（第0行到第1行）");
}

/* ---- inputs beyond the chapter ---- */

static void test_a_custom_mask_gives_its_reason_and_its_bias(void **state)
{
    /* by hand: row 1 reads both; q₁·k₀ = 1, q₁·k₁ = 0; scaled 1/√2, 0; M adds 0 and 0.5 */
    (void)state;
    write_file("build/tests/trace-mask.txt",
               "tokens: 我 爱\nX = [[1, 1], [1, -1]]\nM = [[0, -inf], [0, 0.5]]\n"
               "Wq = [[0.5, 0.5], [-0.5, 0.5]]\nWk = [[0.5, 0.5], [0.5, -0.5]]\n"
               "Wv = [[5, 10], [5, -10]]\n");
    assert_int_equal(run("trace --row all build/tests/trace-mask.txt"), 0);
    assert_file_contains(CLI_OUT, "不可读位置1：爱（M[0][1]=−∞：M规定不能读）");
    assert_file_contains(CLI_OUT, "加上M的对应格子：[0.7071067812+0, 0+0.5] ≈ [0.7071067812, 0.5]");
    assert_int_equal(run("trace --lang en --ascii --row 0 build/tests/trace-mask.txt"), 0);
    assert_file_contains(CLI_OUT, "position 1: 爱 is not readable (M[0][1]=-inf: M says so)");
}

static void test_heads_biases_and_wo_are_walked_one_by_one(void **state)
{
    /* by hand, row 1 (x₁ = [0,1]): q₁ = [0,1,1,0] + bq = [0.5,1,1,0]; head 0 reads
     * k₀ = [1,0] and k₁ = [0,1]: scores 0.5 and 1; d_k = 1 so the scaled scores are the
     * same; head 1: q = [1,0], k₀ = [0,1], k₁ = [1,1]: scores 0 and 1 */
    static const char *const lines[] = {
        "q₁ = x₁Wq + bq = [0×1+1×0+0.5, 0×0+1×1+0, 0×0+1×1+0, 0×1+1×0+0] = [0.5,1,1,0]",
        "── head 0: columns 0 to 1 of q and k, 0 to 1 of v ──",
        "q₁·k₀ = 0.5×1+1×0 = 0.5", "q₁·k₁ = 0.5×0+1×1 = 1",
        "── head 1: columns 2 to 3 of q and k, 2 to 3 of v ──",
        "q₁·k₀ = 1×0+0×1 = 0", "q₁·k₁ = 1×1+0×1 = 1",
        "the heads' outputs side by side: c₁", "then the output projection Wo:",
        "o₁ = c₁Wo = [", "attention output of position “b”: o₁",
    };

    (void)state;
    write_file("build/tests/trace-heads.txt",
               "tokens: a b\nheads: 2\nX = [[1, 0], [0, 1]]\n"
               "Wq = [[1, 0, 0, 1], [0, 1, 1, 0]]\nbq = [0.5, 0, 0, 0]\n"
               "Wk = [[1, 0, 0, 1], [0, 1, 1, 1]]\nWv = [[1, 2, 3, 4], [5, 6, 7, 8]]\n"
               "Wo = [[1, 0], [0, 1], [1, 0], [0, 1]]\n");
    assert_int_equal(run("trace --lang en build/tests/trace-heads.txt"), 0);
    assert_lines_in_order(lines, sizeof lines / sizeof lines[0]);
}

static void test_cross_attention_names_the_rows_of_xkv(void **state)
{
    /* by hand: k₀ = xkv₀Wk = [1×1+0×0] = [1]; √d_k = 1 with d_k = 1, so 2/√1 is 2 */
    (void)state;
    write_file("build/tests/trace-cross.txt",
               "X = [[1, 1]]\nXkv = [[1, 0], [0, 1], [2, 2]]\n"
               "Wq = [[1], [1]]\nWk = [[1], [0]]\nWv = [[1], [-1]]\n");
    assert_int_equal(run("trace --lang en build/tests/trace-cross.txt"), 0);
    assert_file_contains(CLI_OUT, "The input of “0” (a row of Xkv): xkv₀=[1,0]");
    assert_file_contains(CLI_OUT, "k₀ = xkv₀Wk = [1×1+0×0] = [1]");
    assert_file_contains(CLI_OUT, "There is no mask");
    assert_file_contains(CLI_OUT, "scaled scores: [2,0,4]");
}

static void test_a_whole_root_of_d_k_gives_plain_fractions(void **state)
{
    /* by hand, d_k = 4: q₁ = [1,1,1,1], k₀ = [1,1,1,0]: 3/√4 = 3/2; k₁ = [1,1,1,1]: 4/2 = 2 */
    (void)state;
    write_file("build/tests/trace-dk4.txt",
               "X = [[1, 1, 1, 0], [1, 1, 1, 1]]\n"
               "Wq = [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]\n"
               "Wk = [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]\nWv = [[1],[1],[1],[1]]\n");
    assert_int_equal(run("trace build/tests/trace-dk4.txt"), 0);
    assert_file_contains(CLI_OUT, "第二步：把分数除以√d_k（d_k=4；√4=2）。");
    assert_file_contains(CLI_OUT, "缩放分数：[3/2, 2] = [1.5, 2]");
}

static void test_a_wide_input_elides_and_says_so(void **state)
{
    char text[4096];
    size_t used = 0, i, j;

    (void)state;
    used += (size_t)snprintf(text + used, sizeof text - used, "X = [");
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%d%s", j ? "" : "[",
                                     (int)((i + j) % 3) - 1, j < 9 ? ", " : i < 9 ? "], " : "]]\n");
    for (i = 0; i < 3; i++) {
        used += (size_t)snprintf(text + used, sizeof text - used, "W%c = [", "qkv"[i]);
        for (j = 0; j < 10; j++)
            used += (size_t)snprintf(text + used, sizeof text - used, "[%d, 1]%s",
                                     (int)(j % 2), j < 9 ? ", " : "]\n");
    }
    write_file("build/tests/trace-wide.txt", text);
    assert_int_equal(run("trace build/tests/trace-wide.txt"), 0);
    assert_file_contains(CLI_OUT, "（超过8项的式子只写出前3项和后2项，中间以…代替。）");
    /* x₀ = [-1,0,1,-1,0,1,-1,0,1,-1] and column 0 of Wq = [0,1,0,1,...,0,1]: the first
     * three and the last two products */
    assert_file_contains(CLI_OUT, "x₀=[-1,0,1,…,1,-1]");
    assert_file_contains(CLI_OUT, "(-1)×0+0×1+1×0+…+1×0+(-1)×1");
}

/* ---- agreement with run on inputs nobody wrote ---- */

/* A small generator of test inputs (a linear congruential one, Knuth's MMIX constants):
 * the same seed always gives the same file. */
static unsigned long long lcg(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A random matrix of hundredths in [-2, 2], in the input syntax. */
static size_t random_matrix(char *out, size_t cap, const char *name, size_t r, size_t c,
                            unsigned long long *s)
{
    size_t used = (size_t)snprintf(out, cap, "%s = [", name), i, j;

    for (i = 0; i < r; i++)
        for (j = 0; j < c; j++)
            used += (size_t)snprintf(out + used, cap - used, "%s%.2f%s", j ? "" : "[",
                                     (double)((long)(lcg(s) % 401) - 200) / 100,
                                     j + 1 < c ? ", " : i + 1 < r ? "], " : "]]\n");
    return used;
}

/* Writes an input with n tokens, no mask and a custom scale, from seed. */
static void random_input(const char *path, unsigned long long seed, size_t *n)
{
    static const char *const scales[] = {"0.3", "1", "0.45", "1.25"};
    char text[8192];
    unsigned long long s = seed;
    size_t d, dk, dv, used, i;

    *n = 3 + lcg(&s) % 3;
    d = 2 + lcg(&s) % 3, dk = 1 + lcg(&s) % 3, dv = 1 + lcg(&s) % 3;
    used = (size_t)snprintf(text, sizeof text, "mask: none\nscale: %s\ntokens:",
                            scales[lcg(&s) % 4]);
    for (i = 0; i < *n; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " t%zu", i);
    used += (size_t)snprintf(text + used, sizeof text - used, "\n");
    used += random_matrix(text + used, sizeof text - used, "X", *n, d, &s);
    used += random_matrix(text + used, sizeof text - used, "Wq", d, dk, &s);
    used += random_matrix(text + used, sizeof text - used, "Wk", d, dk, &s);
    random_matrix(text + used, sizeof text - used, "Wv", d, dv, &s);
    write_file(path, text);
}

/* Reads the numbers of a bracketed list or table at s ("null" as -inf) into v; returns
 * how many, at most cap. */
static size_t numbers(const char *s, double *v, size_t cap)
{
    size_t count = 0;
    int depth = 0;

    do {
        if (*s == '[')
            depth++;
        else if (*s == ']')
            depth--;
        else if (strncmp(s, "null", 4) == 0 && count < cap)
            v[count++] = -INFINITY, s += 3;
        else if ((isdigit((unsigned char)*s) || *s == '-') && count < cap) {
            char *end;
            v[count++] = strtod(s, &end);
            s = end - 1;
        }
        s++;
    } while (depth > 0 && *s);
    return count;
}

/* Collects, from every line of text holding key, the numbers of the last bracketed list
 * on that line ("o[1] ~= [a, b]" gives a and b), in order. */
static size_t lists_after(const char *text, const char *key, double *v, size_t cap)
{
    size_t count = 0;
    const char *at = text;

    while ((at = strstr(at, key)) != NULL) {
        const char *eol = strchr(at, '\n'), *open = eol;
        while (open > at && *open != '[')
            open--;
        count += numbers(open, v + count, cap - count);
        at = eol;
    }
    return count;
}

/* The text after the last occurrence of key in s. */
static const char *after_last(const char *s, const char *key)
{
    const char *hit = NULL, *at = s;

    while ((at = strstr(at, key)) != NULL)
        hit = at++;
    assert_non_null(hit);
    return hit + strlen(key);
}

static void test_trace_agrees_with_run_on_generated_inputs(void **state)
{
    double trace_a[64], trace_o[64], run_a[64], run_o[64];
    unsigned long long seed;

    (void)state;
    for (seed = 1; seed <= 6; seed++) {
        size_t n, na, no, i;
        char *json, *text;
        random_input("build/tests/trace-random.txt", seed, &n);
        assert_int_equal(run("run --format json build/tests/trace-random.txt"), 0);
        json = slurp(CLI_OUT);
        assert_non_null(json);
        na = numbers(after_last(json, "\"A\": "), run_a, 64);
        no = numbers(after_last(json, "\"O\": "), run_o, 64); /* the top O: the output */
        assert_int_equal(na, n * n);
        assert_int_equal(run("trace --row all --lang en --ascii --digits 17 "
                             "build/tests/trace-random.txt"), 0);
        text = slurp(CLI_OUT);
        assert_non_null(text);
        /* mask none: every row reads every position, so each list is a whole row */
        assert_int_equal(lists_after(text, "divide by the sum:", trace_a, 64), na);
        assert_int_equal(lists_after(text, "attention output of position", trace_o, 64), no);
        for (i = 0; i < na; i++)
            assert_close(trace_a[i], run_a[i], 1e-15);
        for (i = 0; i < no; i++)
            assert_close(trace_o[i], run_o[i], 1e-15 * (1 + fabs(run_o[i])));
        free(json);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_factors_are_written_in_parentheses),
        cmocka_unit_test(test_a_column_is_read_through_its_stride),
        cmocka_unit_test(test_a_weighted_sum_reads_only_the_listed_positions),
        cmocka_unit_test(test_fractions_and_decimals_follow_the_display_rule),
        cmocka_unit_test(test_a_vector_is_printed_like_a_table_row),
        cmocka_unit_test(test_long_lists_keep_their_ends_around_an_ellipsis),
        cmocka_unit_test(test_subscripts_are_unicode_digits_or_brackets),
        cmocka_unit_test(test_scaled_scores_keep_their_exact_form),
        cmocka_unit_test(test_a_text_grows_past_its_first_allocation),
        cmocka_unit_test(test_trace_prints_the_chapters_walk_through),
        cmocka_unit_test(test_every_arithmetic_line_of_the_chapter_is_there),
        cmocka_unit_test(test_english_gives_the_same_arithmetic_under_english_headings),
        cmocka_unit_test(test_row_0_reads_only_itself),
        cmocka_unit_test(test_row_all_walks_every_row),
        cmocka_unit_test(test_ascii_spells_the_walk_through_in_ascii),
        cmocka_unit_test(test_digits_apply_to_the_walk_through),
        cmocka_unit_test(test_trace_refuses_what_it_cannot_do),
        cmocka_unit_test(test_a_custom_mask_gives_its_reason_and_its_bias),
        cmocka_unit_test(test_heads_biases_and_wo_are_walked_one_by_one),
        cmocka_unit_test(test_cross_attention_names_the_rows_of_xkv),
        cmocka_unit_test(test_a_whole_root_of_d_k_gives_plain_fractions),
        cmocka_unit_test(test_a_wide_input_elides_and_says_so),
        cmocka_unit_test(test_trace_agrees_with_run_on_generated_inputs),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
