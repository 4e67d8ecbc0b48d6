/* test_html.c - `--format html` (render_html.c, SPEC §17) without a browser: the page's
 * structure (one step per table in the chapter's order, one focusable cell per number),
 * each cell's tooltip is the chapter's own line for it (F11, quoted from the chapter),
 * the heat classes follow the shares, --predict marks only the worked-out cells, nothing
 * links outside the file, and a token that is HTML comes out escaped. The browser half
 * is `make check-html` (tests/html/check.mjs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gen_input.h"
#include "test_util.h"

#define CLI_OUT "build/tests/html.out"
#define CLI_ERR "build/tests/html.err"
#include "cli_util.h"

/* How many times needle occurs in hay. */
static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (hay = strstr(hay, needle); hay != NULL; hay = strstr(hay + 1, needle))
        n++;
    return n;
}

/* The page `ARGS` writes, in a new buffer the caller frees. */
static char *page(const char *args)
{
    char *s;

    assert_int_equal(run(args), 0);
    s = slurp(CLI_OUT);
    assert_non_null(s);
    return s;
}

/* The cell whose title is want: its whole <td ...>...</td>, or fails. */
static void assert_cell(const char *s, const char *cls, const char *want, const char *value)
{
    char td[1024];

    snprintf(td, sizeof td, "<td class=\"c%s\" tabindex=\"0\" data-src=\"trace\" title=\"%s\">"
             "<span class=\"v\">%s</span></td>", cls, want, value);
    if (strstr(s, td) == NULL)
        fail_msg("no cell %s", td);
}

static void test_each_table_is_a_step_in_the_chapters_order(void **state)
{
    static const char *const names[] = {"> X <", "> Wq <", "> Wk <", "> Wv <", "> Q <", "> K <",
                                        "> V <", "> QK\xe1\xb5\x80 <", "> M <", "> S <", "> A <",
                                        "> O <"};
    char *s = page("run examples/f11.txt --format html");
    const char *at = s;
    size_t k;

    (void)state;
    assert_int_equal(count(s, "<section class=\"step\""), 12);
    for (k = 0; k < sizeof names / sizeof names[0]; k++) { /* "<h2><span class="n">1</span> X <small>" */
        at = strstr(at, names[k]);
        if (at == NULL)
            fail_msg("step %s missing or out of order", names[k]);
    }
    /* F11's twelve tables are all 2 x 2: 48 numbers, each a focusable cell */
    assert_int_equal(count(s, "<td class=\"c"), 48);
    assert_int_equal(count(s, "tabindex=\"0\""), 48);
    assert_non_null(strstr(s, "<html lang=\"zh-CN\">"));
    free(s);
}

static void test_a_cells_tooltip_is_the_chapters_line(void **state)
{
    char *s = page("run examples/f11.txt --format html");

    (void)state;
    /* the chapter, verbatim: "q₀ = x₀Wq = [1×0.5+1×(-0.5), 1×0.5+1×0.5] = [0,1]" */
    assert_cell(s, "", "q₀ = x₀Wq = [1×0.5+1×(-0.5), 1×0.5+1×0.5] = [0,1]", "0");
    /* "对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1" */
    assert_cell(s, "", "对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1", "1");
    /* "输出第0格 = 0.6697615493×10 + 0.3302384507×0 ≈ 6.6976154933" (the chapter breaks
     * it over two lines) */
    assert_cell(s, "", "输出第0格 = 0.6697615493×10 + 0.3302384507×0 ≈ 6.6976154933",
                "6.6976154933");
    free(s);
}

static void test_the_shares_shade_a_and_s_and_the_mask_is_marked(void **state)
{
    char *s = page("run examples/f11.txt --format html");

    (void)state;
    /* A row 1 is [0.6697615493, 0.3302384507] (the chapter): quarters 3 and 2; S row 1
     * takes its cells' shares; row 0 reads only itself (share 1); its future is masked */
    /* trace's four softmax lines for row 1 (the chapter's lines 96-99), one tooltip */
    assert_cell(s, " h3", "减最大值： [0, -0.7071067812]（最大值是0.7071067812）&#10;"
                "取指数：   [1, 0.4930686914]&#10;指数之和： 1.4930686914&#10;"
                "除以总和： [0.6697615493, 0.3302384507]", "0.6697615493");
    assert_cell(s, " h3", "缩放分数：[1/√2, 0/√2] ≈ [0.7071067812, 0]", "0.7071067812");
    assert_cell(s, " x", "不可读位置1：爱（因果掩码：它在当前位置之后，属于未来）", "−∞");
    assert_int_equal(count(s, "<td class=\"c x\""), 2); /* S[0,1] and A[0,1] */
    free(s);
}

static void test_the_page_asks_for_nothing_outside_it(void **state)
{
    char *s = page("trace examples/two-heads.txt --format html --lang en");

    (void)state;
    assert_non_null(strstr(s, "<html lang=\"en\">"));
    assert_non_null(strstr(s, ">Next step<"));
    assert_null(strstr(s, "http:"));
    assert_null(strstr(s, "https:"));
    assert_null(strstr(s, " src="));
    assert_null(strstr(s, " href="));
    assert_null(strstr(s, "url("));
    assert_null(strstr(s, "@import"));
    assert_non_null(strstr(s, "<script type=\"application/json\" id=\"as-json\">{"));
    free(s);
}

static void test_trace_lists_the_lines_that_made_each_table(void **state)
{
    char *s = page("trace examples/f11.txt --format html");

    (void)state;
    assert_non_null(strstr(s, "<li>对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1</li>"));
    assert_non_null(strstr(s, "<li>q₁ = x₁Wq = [1×0.5+(-1)×(-0.5), 1×0.5+(-1)×0.5] = [1,0]</li>"));
    /* Q, K, V, QKᵀ, M, S, A, O and X (its input lines) have lines; the three W none */
    assert_int_equal(count(s, "<ol class=\"lines\">"), 9);
    free(s);
    s = page("run examples/f11.txt --format html");
    assert_null(strstr(s, "<ol class=\"lines\">"));
    assert_null(strstr(s, "<tr class=\"walk\">"));
    free(s);
}

static void test_predict_marks_only_the_worked_out_cells(void **state)
{
    char *s = page("run examples/f11.txt --format html --predict");

    (void)state;
    /* Q K V QKᵀ S A O: 7 tables of 4 cells; X, the W and M are given */
    assert_int_equal(count(s, " p\" tabindex"), 28);
    free(s);
    s = page("run examples/f11.txt --format html");
    assert_int_equal(count(s, " p\" tabindex"), 0);
    free(s);
    assert_int_equal(run("run examples/f11.txt --predict"), 2);
    assert_file_contains(CLI_ERR, "--predict只用于网页");
    assert_file_contains(CLI_ERR, "--format html");
}

static void test_a_token_that_is_html_is_escaped(void **state)
{
    FILE *f = fopen("build/tests/html-attack.txt", "w");
    char *s;

    (void)state;
    assert_non_null(f);
    fputs("tokens: <script> &amp\nX = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n"
          "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n", f);
    fclose(f);
    s = page("trace build/tests/html-attack.txt --format html");
    /* the page's own three: the words, the JSON, the script */
    assert_int_equal(count(s, "<script"), 3);
    assert_int_equal(count(s, "</script"), 3);
    assert_non_null(strstr(s, "<th scope=\"row\">&lt;script&gt;</th>"));
    assert_non_null(strstr(s, "<th scope=\"row\">&amp;amp</th>"));
    assert_non_null(strstr(s, "\"tokens\": [\"\\u003cscript>\",\"&amp\"]"));
    free(s);
}

static void test_trace_lists_the_lines_of_the_row_and_step_asked(void **state)
{
    /* the chapter walks row 1 (爱) by default: its score for 我 is q₁·k₀ = 1 */
    char *s = page("trace examples/f11.txt --format html");

    (void)state;
    assert_non_null(strstr(s, "<li>对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1</li>"));
    assert_null(strstr(s, "<li>对“我”的原始分数：q₀·k₀"));
    free(s);
    /* --row 0: row 0 reads only 我 (q₀ = [0,1], k₀ = [1,0]: 0×1+1×0 = 0, by hand) */
    s = page("trace examples/f11.txt --format html --row 0");
    assert_non_null(strstr(s, "<li>对“我”的原始分数：q₀·k₀ = 0×1+1×0 = 0</li>"));
    assert_null(strstr(s, "<li>对“我”的原始分数：q₁·k₀"));
    /* the walked row is marked in the tables walked a row at a time (QKᵀ M S A O), not
     * in the inputs and projections */
    assert_int_equal(count(s, "<tr class=\"walk\"><th scope=\"row\">我</th>"), 5);
    assert_int_equal(count(s, "<tr class=\"walk\">"), 5);
    /* the projections are walked for every row, as trace's text walks them */
    assert_non_null(strstr(s, "<li>q₁ = x₁Wq = [1×0.5+(-1)×(-0.5), 1×0.5+(-1)×0.5] = [1,0]</li>"));
    free(s);
    s = page("trace examples/f11.txt --format html --row all");
    assert_non_null(strstr(s, "q₀·k₀ = 0×1+1×0 = 0"));
    assert_non_null(strstr(s, "q₁·k₀ = 1×1+0×0 = 1"));
    free(s);
    /* --step 3 (the softmax): the tables it starts from and makes, S and A, and only
     * the softmax's lines (the chapter's 1.4930686914 for row 1) */
    s = page("trace examples/f11.txt --format html --step 3");
    assert_int_equal(count(s, "<section class=\"step\""), 2);
    assert_non_null(strstr(s, "> S <"));
    assert_non_null(strstr(s, "> A <"));
    assert_non_null(strstr(s, "<li>指数之和： 1.4930686914</li>"));
    assert_null(strstr(s, "<li>缩放分数"));
    free(s);
}

static void test_the_block_page_adds_its_tables_and_norm_steps(void **state)
{
    static const char *const names[] = {"> N1 <", "> H1 <", "> N2 <", "> U <", "> F <", "> D <",
                                        "> H2 <"};
    char *s = page("run examples/block-pre-gelu.txt --format html --lang en");
    const char *at = s;
    size_t k;

    (void)state;
    /* the attention's 12 tables and the block's 7 given ones (ln1_g ln1_b ln2_g ln2_b Wup
     * bup Wdown), then pre's N1 H1 N2 U F D H2 (GELU: no G; without lnf the block's
     * output Y is H2, said once, as run's text says it), each once */
    assert_int_equal(count(s, "<section class=\"step\""), 12 + 7 + 7);
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        at = strstr(at, names[k]);
        if (at == NULL)
            fail_msg("block step %s missing or out of order", names[k]);
    }
    assert_non_null(strstr(s, "data-j=\"block.N1\""));
    /* each of norm1 and norm2 with its four sub-steps (μ, σ², divisor, x̂) */
    assert_int_equal(count(s, "data-j=\"block.norm1."), 4);
    assert_int_equal(count(s, "data-j=\"block.norm2."), 4);
    assert_non_null(strstr(s, "This norm: each row's mean μ"));
    free(s);
}

static void test_the_decode_page_grows_the_cache_step_by_step(void **state)
{
    char *s = page("decode examples/f11.txt --format html");

    (void)state;
    /* F11's two tokens: a step each, then O */
    assert_int_equal(count(s, "<section class=\"step\""), 3);
    assert_non_null(strstr(s, "── 第1步：“爱” ──"));
    /* the cache: one row of K at step 0, two at step 1 */
    assert_non_null(strstr(s, "缓存：到这一步为止的1行K和V"));
    assert_non_null(strstr(s, "缓存：到这一步为止的2行K和V"));
    /* step 1's shares are the chapter's A row 1, shaded, each cell's tooltip the
     * walk's line for the row */
    assert_cell(s, " h3", "读取份额：a₁ ≈ [0.6697615493, 0.3302384507]", "0.6697615493");
    assert_cell(s, " h2", "读取份额：a₁ ≈ [0.6697615493, 0.3302384507]", "0.3302384507");
    assert_non_null(strstr(s, "data-j=\"steps.1.A\""));
    assert_non_null(strstr(s, "<script type=\"application/json\" id=\"as-json\">{\n  \"steps\": ["));
    free(s);
}

/* decode with block: pre (SPEC §11, §15): each step shows N1's row before the projections
 * and the rest of the block's rows after the output, each a grid whose numbers are the
 * step's JSON and whose tooltip is the walk's line. Row 0 of N1 is the SPEC's LayerNorm
 * of [1,0,0,0]: 1.7320046214, -0.5773348738 (ε = 1e-5). */
static void test_the_decode_page_of_a_block_shows_each_steps_block_rows(void **state)
{
    static const char *const names[] = {"N1", "H1", "N2", "U", "F", "D", "H2", "Y"};
    char *s = page("decode examples/block-pre-gelu.txt --format html --lang en");
    char want[64];
    size_t k, t;

    (void)state;
    assert_int_equal(count(s, "<section class=\"step\""), 4); /* three steps, then O */
    for (t = 0; t < 3; t++)
        for (k = 0; k < sizeof names / sizeof names[0]; k++) {
            snprintf(want, sizeof want, "data-j=\"steps.%zu.block.%s\"", t, names[k]);
            if (strstr(s, want) == NULL)
                fail_msg("no grid %s", want);
        }
    assert_non_null(strstr(s, "the whole block (pre-LN): the attention reads this row normalised, N1:"));
    assert_non_null(strstr(s, "title=\"N1[0] ≈ [1.7320046214, -0.5773348738, -0.5773348738, -0.5773348738]\""));
    assert_non_null(strstr(s, "\"block\": {\"N1\": [1.7320046213947808,"));
    free(s);
}

/* decode with 4 query heads sharing 2 K/V heads (SPEC §11): each step shows each head's
 * scores and shares and each group's cache, named as the walk names them, and the page's
 * O is torch's (tests/data/gqa/make_cases.py, float64) to the ten decimals printed. */
static void test_the_decode_page_of_grouped_heads_shows_each_head_and_group(void **state)
{
    static const char *const names[] = {"s_h0", "s_h3", "a_h0", "a_h3", "K_g0", "K_g1",
                                        "V_g0", "V_g1"};
    char *s = page("decode tests/data/gqa/gqa_4h_2kv_causal.txt --format html --lang en");
    char want[64];
    const char *p;
    FILE *f;
    size_t k;

    (void)state;
    assert_int_equal(count(s, "<section class=\"step\""), 7); /* six steps, then O */
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        snprintf(want, sizeof want, "data-name=\"%s\"", names[k]);
        assert_int_equal(count(s, want), 6);
    }
    assert_non_null(p = strstr(s, "data-j=\"O\""));
    assert_non_null(f = fopen("tests/data/gqa/gqa_4h_2kv_causal.expected", "r"));
    for (k = 0; k < 6 * 5; k++) {
        double torch, shown;
        assert_int_equal(fscanf(f, "%lf", &torch), 1);
        assert_non_null(p = strstr(p, "<span class=\"v\">"));
        p += strlen("<span class=\"v\">");
        shown = strtod(p, NULL);
        if (!(fabs(shown - torch) <= 6e-11))
            fail_msg("O cell %zu: the page shows %.12g, torch %.12g", k, shown, torch);
    }
    fclose(f);
    free(s);
}

static void test_the_grad_page_names_each_table_by_its_formula(void **state)
{
    static const char *const names[] = {"> dO<", "> dV = Aᵀ·dO<", "> dA = dO·Vᵀ<",
                                        "> dS = A⊙(dA − rowsum(dA⊙A))<", "> d(QKᵀ) = dS/√2<",
                                        "> dQ = d(QKᵀ)·K<", "> dK = d(QKᵀ)ᵀ·Q<", "> dWq = Xᵀ·dQ<"};
    char *s = page("grad examples/grad-f11.txt --format html");
    const char *at = s;
    size_t k;

    (void)state;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        at = strstr(at, names[k]);
        if (at == NULL)
            fail_msg("grad step %s missing or out of order", names[k]);
    }
    assert_non_null(strstr(s, "data-j=\"heads.0.dS\""));
    assert_non_null(strstr(s, "data-j=\"dWq\""));
    /* the last step: grad --row's walk, here of row 1 (the default, the last) */
    assert_non_null(strstr(s, "逐步写出：softmax的反向传播"));
    assert_non_null(strstr(s, "反向：对“爱”这个位置（第1行）"));
    free(s);
    /* --row 0: row 0 reads only 我, v₀ = [10,0] and dO₀ = [1,1] (loss: sum): 1×10+1×0 */
    s = page("grad examples/grad-f11.txt --format html --row 0");
    assert_non_null(strstr(s, "对“我”的份额：dO₀·v₀ = 1×10+1×0 = 10"));
    free(s);
}

static void test_the_tiles_page_shows_each_block(void **state)
{
    char *s = page("trace examples/f11.txt --tiles 1 --format html");

    (void)state;
    /* row 1, B = 1: two blocks; after the second ℓ = 1.4930686914 (SPEC §11, the
     * chapter's sum of exps), each block's cells saying the walk's lines for it */
    assert_int_equal(count(s, "<section class=\"step\""), 2);
    assert_non_null(strstr(s, "<span class=\"v\">1.4930686914</span>"));
    assert_non_null(strstr(s, "title=\"第1块：读位置[爱]，缩放分数[0]&#10;"
                              "  最大值没有升高（仍是0.7071067812）：缩放系数为1&#10;"));
    assert_cell(s, " h3", "份额 e^(s−m)/ℓ：[0.6697615493, 0.3302384507]", "0.6697615493");
    assert_non_null(strstr(s, "\"walk\": [{\"row\": 1, \"head\": 0, \"blocks\": ["));
    free(s);
}

static void test_the_class_page_has_the_gradebook_bars_and_wrong_cells(void **state)
{
    char *s;

    (void)state;
    /* examples/class: six students of F11 (exit 1: some tables are wrong) */
    assert_int_equal(run("check examples/f11.txt examples/class --format html --lang en"), 1);
    s = slurp(CLI_OUT);
    assert_non_null(s);
    /* the gradebook, the item analysis, then each of the six students */
    assert_int_equal(count(s, "<section class=\"step\""), 2 + 6);
    assert_non_null(strstr(s, "<tr><th>李四</th><td>6/7</td><td>S:no_scale</td></tr>"));
    assert_non_null(strstr(s, "mean score: 5.83/7"));
    /* S: 4 of 6 right, 2 wrong: a bar 6 students wide, its parts 4 and 2 long */
    assert_non_null(strstr(s, "<figcaption>S: right 4, carried 0, wrong 2 (no_scale 1, masked_zero 1), "
                              "missing 0</figcaption><svg viewBox=\"0 0 6 1\""));
    assert_non_null(strstr(s, "<rect class=\"b0\" x=\"0\" y=\"0\" width=\"4\" height=\"1\"/>"
                              "<rect class=\"b2\" x=\"4\" y=\"0\" width=\"2\" height=\"1\"/>"));
    /* 李四 left S unscaled: S[1][0] is 1, the chapter's 1/√2 ≈ 0.7071067812 */
    assert_non_null(strstr(s, "<li>S[1][0]: written 1, expected 0.7071067812</li>"));
    assert_non_null(strstr(s, "<script type=\"application/json\" id=\"as-json\">{\"students\""));
    free(s);
}

static void test_predict_hides_the_decode_pages_worked_cells(void **state)
{
    char *s = page("decode examples/f11.txt --format html --predict");

    (void)state;
    /* per step q, k, v (2 cells each), s and a (t + 1 each) and o (2): 10 at step 0, 12
     * at step 1, and O's 4; the cache (no JSON of its own to judge a guess by) is shown */
    assert_int_equal(count(s, " p\" tabindex"), 10 + 12 + 4);
    free(s);
    assert_int_equal(run("grad examples/grad-f11.txt --format html --predict"), 0);
}

static void test_the_decode_page_draws_the_cache_while_the_walk_does(void **state)
{
    FILE *f = fopen("build/tests/html-ten.txt", "w");
    char *s;

    (void)state;
    assert_non_null(f);
    fputs("tokens: a b c d e f g h i j\nmask: causal\n"
          "X = [[1,0],[0,1],[1,1],[1,0],[0,1],[1,1],[1,0],[0,1],[1,1],[1,0]]\n"
          "Wq = [[1,0],[0,1]]\nWk = [[1,0],[0,1]]\nWv = [[1,0],[0,1]]\n", f);
    fclose(f);
    s = page("decode build/tests/html-ten.txt --format html --lang en");
    /* the walk draws the cache up to 8 rows (steps 0 to 7); at steps 8 and 9 only its
     * size, so that the page grows with n, not n² */
    assert_int_equal(count(s, "data-name=\"K\""), 8);
    assert_non_null(strstr(s, "The cache: the 10 rows of K and V so far"));
    free(s);
}

/* ---- memory that follows the work (issue 30, SPEC §10) ---- */

/* The size of the file at path in bytes. */
static long bytes_of(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    fclose(f);
    return n;
}

/* 0 when `attnstep --version` starts under an address-space limit of kb (1: it does not,
 * as under AddressSanitizer or valgrind, which need address space of their own). */
static int starts_within(long kb)
{
    return sh("ulimit -v %ld; %s %s --version >/dev/null 2>&1",
              kb, getenv("ATTNSTEP_WRAP") ? getenv("ATTNSTEP_WRAP") : "",
              getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep") != 0;
}

/* The page writes its tables a row at a time, each cell's lines walked again for its
 * row: run --only A of 512 tokens (A of 512 x 512, 262 144 cells) within 40 MB of
 * address space, where the page that kept the full trace and every table's lines needed
 * 78 MB resident (and stopped at 40 MB). Every row and cell of A is there, to the end. */
static void test_a_page_of_512_tokens_is_written_a_row_at_a_time(void **state)
{
    char *s;

    (void)state;
    if (starts_within(40000))
        skip();
    long_column("build/tests/html-512.txt", 512);
    assert_int_equal(sh("ulimit -v 40000; %s run build/tests/html-512.txt --format html --only A"
                        " >" CLI_OUT " 2>" CLI_ERR,
                        getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep"), 0);
    s = slurp(CLI_OUT);
    assert_non_null(s);
    assert_int_equal(count(s, "<th scope=\"row\">"), 512);
    assert_int_equal(count(s, "<td class=\"c"), 512 * 512);
    assert_non_null(strstr(s, "</script>\n</body>\n</html>\n"));
    free(s);
    unlink("build/tests/html-512.txt");
}

/* grad's page ends with the walk of a row (grad --row), which read the full tables: the
 * forward run's and dA, dS and d(QKᵀ), 93 MB resident at 1024 tokens. It reads a row at
 * a time (and of d(QKᵀ)'s columns only the rows dk's elided sums show): within 40 MB of
 * address space, with every dk line of the last row (it reads all 1024 positions). */
static void test_the_walk_of_a_row_of_1024_tokens_reads_a_row_at_a_time(void **state)
{
    char *s;

    (void)state;
    if (starts_within(40000))
        skip();
    long_column_grad("build/tests/html-1024.txt", 1024);
    assert_int_equal(sh("ulimit -v 40000; %s grad build/tests/html-1024.txt --row last --lang en"
                        " >" CLI_OUT " 2>" CLI_ERR,
                        getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep"), 0);
    s = slurp(CLI_OUT);
    assert_non_null(s);
    assert_int_equal(count(s, " dk"), 1024);
    free(s);
    unlink("build/tests/html-1024.txt");
}

/* decode's page draws each step's scores and shares over the cache, (t+1) cells at step
 * t: n² cells in all. A row's cells each repeated the row's whole line as its tooltip,
 * so the page grew as n³ (7.9 MB at 100 tokens, 54 MB at 200: 6.9 times); it must grow
 * as n², about 4 times for twice the tokens (the walk's lines grow as n² too). */
static void test_the_decode_page_grows_as_its_cells(void **state)
{
    long size[2];
    int k;

    (void)state;
    for (k = 0; k < 2; k++) {
        long_column("build/tests/html-col.txt", 100 * (k + 1));
        assert_int_equal(run("decode build/tests/html-col.txt --format html"), 0);
        size[k] = bytes_of(CLI_OUT);
    }
    unlink("build/tests/html-col.txt");
    assert_true(size[1] < 9 * size[0] / 2);
}

/* A page of more cells than a browser opens (AS_HTML_MAX_CELLS, 4 194 304) is refused
 * before any output, with what to do instead: run's of 2048 tokens would draw QKᵀ, M,
 * S and A of 2048 x 2048 (16 787 459 cells with X, Q, K, V, O and the weights). */
static void test_a_page_too_large_for_a_browser_is_refused_before_any_output(void **state)
{
    static const char *const cmd[] = {"run", "trace --row 0", "grad", "decode"};
    size_t k;

    (void)state;
    long_column_grad("build/tests/html-2048.txt", 2048);
    assert_int_equal(run("run build/tests/html-2048.txt --format html --lang en"), 2);
    assert_int_equal(bytes_of(CLI_OUT), 0);
    assert_file_contains(CLI_ERR, "this page would draw about 16787459 cells, more than the "
                                  "4194304 a page may hold");
    assert_file_contains(CLI_ERR, "--only");
    for (k = 0; k < sizeof cmd / sizeof cmd[0]; k++) {
        char args[256];
        snprintf(args, sizeof args, "%s build/tests/html-2048.txt --format html -o build/tests/html-big.html", cmd[k]);
        unlink("build/tests/html-big.html");
        assert_int_equal(run(args), 2);
        assert_int_equal(access("build/tests/html-big.html", F_OK), -1); /* nothing written */
        assert_file_contains(CLI_ERR, "这一页要画约");
        assert_file_contains(CLI_ERR, "用更少的Token");
    }
    /* the same tables as JSON are written, row by row */
    assert_int_equal(run("run build/tests/html-2048.txt --format json --only O"), 0);
    unlink("build/tests/html-2048.txt");
}

/* The online softmax's page draws, for each walked row and head, its blocks [m, ℓ, f, the
 * output] and its shares, besides the run's tables in its JSON: it too is refused before
 * any output when it would draw more cells than a page holds (it had no limit: 262 MB at
 * 512 tokens in blocks of 1, a gigabyte at 1024). 700 tokens in blocks of 1 would draw
 * 4 904 203 cells; one walked row of them fits. */
static void test_a_tiles_page_too_large_for_a_browser_is_refused_before_any_output(void **state)
{
    static const char *const cmd[] = {"run --tiles 1", "trace --tiles 1 --row all"};
    size_t k;

    (void)state;
    long_column("build/tests/html-700.txt", 700);
    for (k = 0; k < sizeof cmd / sizeof cmd[0]; k++) {
        char args[256];
        snprintf(args, sizeof args,
                 "%s build/tests/html-700.txt --format html --lang en -o build/tests/html-big.html",
                 cmd[k]);
        unlink("build/tests/html-big.html");
        assert_int_equal(run(args), 2);
        assert_int_equal(access("build/tests/html-big.html", F_OK), -1); /* nothing written */
        assert_file_contains(CLI_ERR, "this page would draw about 4904203 cells, more than the "
                                      "4194304 a page may hold");
        assert_file_contains(CLI_ERR, "use larger blocks");
    }
    assert_int_equal(run("trace --tiles 1 --row 3 build/tests/html-700.txt --format html"), 0);
    assert_file_contains(CLI_OUT, "</html>");
    unlink("build/tests/html-700.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_table_is_a_step_in_the_chapters_order),
        cmocka_unit_test(test_a_cells_tooltip_is_the_chapters_line),
        cmocka_unit_test(test_the_shares_shade_a_and_s_and_the_mask_is_marked),
        cmocka_unit_test(test_the_page_asks_for_nothing_outside_it),
        cmocka_unit_test(test_trace_lists_the_lines_that_made_each_table),
        cmocka_unit_test(test_predict_marks_only_the_worked_out_cells),
        cmocka_unit_test(test_a_token_that_is_html_is_escaped),
        cmocka_unit_test(test_trace_lists_the_lines_of_the_row_and_step_asked),
        cmocka_unit_test(test_the_block_page_adds_its_tables_and_norm_steps),
        cmocka_unit_test(test_the_decode_page_grows_the_cache_step_by_step),
        cmocka_unit_test(test_the_decode_page_of_a_block_shows_each_steps_block_rows),
        cmocka_unit_test(test_the_decode_page_of_grouped_heads_shows_each_head_and_group),
        cmocka_unit_test(test_the_grad_page_names_each_table_by_its_formula),
        cmocka_unit_test(test_the_tiles_page_shows_each_block),
        cmocka_unit_test(test_the_class_page_has_the_gradebook_bars_and_wrong_cells),
        cmocka_unit_test(test_predict_hides_the_decode_pages_worked_cells),
        cmocka_unit_test(test_the_decode_page_draws_the_cache_while_the_walk_does),
        cmocka_unit_test(test_a_page_of_512_tokens_is_written_a_row_at_a_time),
        cmocka_unit_test(test_the_decode_page_grows_as_its_cells),
        cmocka_unit_test(test_the_walk_of_a_row_of_1024_tokens_reads_a_row_at_a_time),
        cmocka_unit_test(test_a_page_too_large_for_a_browser_is_refused_before_any_output),
        cmocka_unit_test(test_a_tiles_page_too_large_for_a_browser_is_refused_before_any_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
