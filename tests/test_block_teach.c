/* test_block_teach.c - the whole block of SPEC §15 in the commands that teach (issue 31):
 * `run`'s text, `trace`'s walk through each norm, the residual and the FFN, `check`'s
 * grading and named convention mistakes, `practice`, and the commands that do not follow
 * the block yet refusing it in words (never the lone layer's numbers passed off as the
 * block's). Expected numbers are worked by hand in the comments, or are PyTorch's
 * float64 references (tests/data/block/, made by make_block.py; no Python here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/block_teach.out"
#define CLI_ERR "build/tests/block_teach.err"
#include "cli_util.h"
#include "test_util.h"
#include "sections.h"

#define PRE "examples/block-pre-gelu.txt"
#define POST "examples/block-f11-post-rms.txt"

/* ---- what does not follow the block yet says so ---- */

/* grad through the block (issue 31): F11 with block: post, norm: rms, ffn: none, loss: sum
 * — Y = rms(X + O); dX by PyTorch autograd in float64 (computed once, by hand, with the
 * script's block of tests/data/grad/block/make_block_grad.py): [[1.1475646730494447,
 * -1.3888571795683657], [0.09250626248648994, 0.07641071802294837]], L = 3.5121404442397. */
static void test_grad_takes_the_gradient_through_the_block(void **state)
{
    (void)state;
    write_text("build/tests/block_teach_grad.txt", "loss: sum\nblock: post\nnorm: rms\nffn: none\n"
               "X = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n"
               "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n");
    assert_int_equal(run("grad --lang en build/tests/block_teach_grad.txt"), 0);
    assert_file_contains(OUT, "loss: L = the sum of Y's cells \xe2\x89\x88 3.5121404442, so every "
                              "cell of dY is 1");
    assert_file_contains(OUT, "dO = norm1\xe1\xb5\x80(dH1)");
    assert_file_contains(OUT, "RMSNorm backwards, row by row");
    assert_file_contains(OUT, " + dO \xe2\x89\x88 [[ 1.147564673, -1.3888571796],");
    assert_file_contains(OUT, "[0.0925062625,   0.076410718]]");
    assert_int_equal(run("grad --format json build/tests/block_teach_grad.txt"), 0);
    assert_file_contains(OUT, "\"dY\": [[1,1],[1,1]]");
    assert_file_contains(OUT, "\"dH1\": [[1,1],[1,1]]");
}

/* With a block the loss is on Y: a dO (or target) of O's shape that is not Y's is named
 * against Y (post, ffn: none on F11 has Y [2,2]; a [1,3] dO is neither). */
static void test_grad_of_a_block_names_a_do_not_of_ys_shape(void **state)
{
    (void)state;
    write_text("build/tests/block_teach_grad_do.txt", "block: post\nnorm: rms\nffn: none\n"
               "dO = [[1, 2, 3]]\nX = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n"
               "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n");
    assert_int_equal(run("grad --lang en build/tests/block_teach_grad_do.txt"), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, "block_teach_grad_do.txt:4:1: error: dO is [1,3], but the "
                              "block's output Y is [2,2]");
    assert_file_contains(ERR, "so dO has Y's shape");
}

/* ---- run's text: each norm's sub-steps beside x̂, the tables in the order computed ---- */

static void test_run_prints_the_block_as_golden(void **state)
{
    (void)state;
    assert_int_equal(run(PRE), 0);
    assert_golden("tests/golden/block-pre-gelu.run.zh.txt");
    assert_int_equal(run("run --lang en " POST), 0);
    assert_golden("tests/golden/block-f11-post-rms.run.en.txt");
}

static void test_run_gives_each_rows_mean_variance_and_divisor(void **state)
{
    (void)state;
    /* row 0 of X is [1,0,0,0]: μ = 1/4, σ² = (0.75² + 3·0.25²)/4 = 3/16, √(3/16 + 1e-5)
     * = 0.43302424874 (float64 by hand), x̂₀ = 0.75/0.4330242487 = 1.7320046214 (SPEC) */
    assert_int_equal(run(PRE), 0);
    assert_file_contains(OUT, "第0行：μ = 0.25，σ² = 0.1875，√(σ²+ε) ≈ 0.4330242487");
    assert_file_contains(OUT, "x̂ = (X−μ)/√(σ²+ε) ≈ [[ 1.7320046214, -0.5773348738,");
    assert_file_contains(OUT, "Q = N1 @ Wq ≈");     /* the attention reads N1, and says so */
    assert_file_contains(OUT, "X = [[1,0,0,0],");    /* the file's X, not N1 */
    /* post RMSNorm of X₀ + O₀ = [11, 1]: Σx²/2 = 61, √61.000001 = 7.8102497399 */
    assert_int_equal(run("run --lang en " POST), 0);
    assert_file_contains(OUT, "row 0: Σx²/d = 61, √(Σx²/d+ε) ≈ 7.8102497399");
    assert_file_contains(OUT, "H1 = γ⊙x̂ ≈ [[1.4084056677, 0.1280368789],");
}

static void test_run_only_picks_a_block_table_with_its_norm(void **state)
{
    (void)state;
    assert_int_equal(run("run --only N2 " PRE), 0);
    assert_file_contains(OUT, "N2 = LayerNorm(H1)");
    assert_file_contains(OUT, "第0行：μ ≈ 0.5386674369");
    assert_file_lacks(OUT, "N1 = ");
    assert_file_lacks(OUT, "U = ");
    assert_file_lacks(OUT, "QKᵀ");
    /* a final norm's Y alone: its norm, and no word of the FFN whose tables are not shown */
    assert_int_equal(run("run --only Y tests/data/block/cases/gpt_03.txt"), 0);
    assert_file_contains(OUT, "Y = LayerNorm(H2)");
    assert_file_lacks(OUT, "前馈网络");
}

static void test_run_says_width_two_layer_norm_is_always_plus_minus_one(void **state)
{
    (void)state;
    write_text("build/tests/block_teach_w2.txt", "block: post\nffn: none\n"
               "X = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n"
               "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n");
    assert_int_equal(run("run build/tests/block_teach_w2.txt"), 0);
    assert_file_contains(OUT, "每行只有2个数时，LayerNorm总把它变成[1,−1]或[−1,1]");
    assert_int_equal(run("trace --lang en build/tests/block_teach_w2.txt"), 0);
    assert_file_contains(OUT, "with 2 numbers a row, LayerNorm always gives [1,−1] or [−1,1]");
}

static void test_ascii_spells_the_norms_letters_and_keeps_the_table_aligned(void **state)
{
    (void)state;
    assert_int_equal(run("run --ascii --lang en " PRE), 0);
    assert_file_contains(OUT, "row 0: mu = 0.25, sigma^2 = 0.1875, sqrt(sigma^2+eps) ~= 0.4330242487");
    /* the rows under the label start where the first one does, as the ASCII label is long */
    assert_file_contains(OUT, "xhat = (X-mu)/sqrt(sigma^2+eps) ~= [[ 1.7320046214,");
    assert_file_contains(OUT, "\n                                    [-0.9999800006,");
    assert_file_contains(OUT, "N1 = gamma(.)xhat + beta ~= [[");
}

/* ---- trace: the block walked for the row, every sub-step with its numbers ---- */

static void test_trace_walks_the_block_as_golden(void **state)
{
    (void)state;
    assert_int_equal(run("trace --row 0 " PRE), 0);
    assert_golden("tests/golden/block-pre-gelu.trace.row0.zh.txt");
    assert_int_equal(run("trace --lang en " POST), 0);
    assert_golden("tests/golden/block-f11-post-rms.trace.en.txt");
}

static void test_trace_writes_out_the_layer_norm_of_a_row(void **state)
{
    (void)state;
    /* row 2 of X is [2,0,1,1]: μ = 4/4 = 1, x−μ = [1,-1,0,0], σ² = 2/4 = 0.5,
     * √(0.5 + 0.00001) = 0.70711385222 (by hand, float64) */
    assert_int_equal(run("trace --row 2 " PRE), 0);
    assert_file_contains(OUT, "N1 = LayerNorm(X)，这一行：x₂ = [2,0,1,1]");
    assert_file_contains(OUT, "求均值：μ = (2+0+1+1)/4 = 1");
    assert_file_contains(OUT, "减去均值：x−μ = [2−1, 0−1, 1−1, 1−1] = [1,-1,0,0]");
    assert_file_contains(OUT, "方差（平方的平均，除以d=4）：σ² = (1²+(-1)²+0²+0²)/4 = 0.5");
    assert_file_contains(OUT, "ε加在根号里面，再开方：√(σ²+ε) = √(0.5+0.00001) ≈ 0.7071138522");
    assert_file_contains(OUT, "每格除以它：x̂ = [1/0.7071138522, (-1)/0.7071138522, 0/0.7071138522,");
    assert_file_contains(OUT, "（Pre-LN：注意力读的是N1，下面的x就是N1的行）");
    assert_file_contains(OUT, "残差，逐格相加：H1[2] = x₂ + o₂ = [2+0.7655230117,");
    assert_file_contains(OUT, "激活，逐格：F[2] = GELU(U[2]) = [GELU(");
    assert_file_contains(OUT, "其中GELU(u) = u·Φ(u) = u/2·(1 + erf(u/√2))");
    assert_file_contains(OUT, "残差，逐格相加：H2[2] = H1[2] + D[2] = [");
}

/* Each walk line of row `row` of table name (a line holding "NAME[row] = ") ends with
 * torch's row: the numbers of its last [...] against want[cols] to the ten decimals
 * printed; returns how many such lines there were. */
static int walk_rows_agree(const char *text, const char *name, size_t row, const double *want,
                           size_t cols, const char *what)
{
    char key[64];
    const char *p = text;
    int lines = 0;

    snprintf(key, sizeof key, "%s[%zu] = ", name, row);
    while ((p = strstr(p, key)) != NULL) {
        const char *eol = strchr(p, '\n'), *b = NULL, *q;
        size_t k;
        if (p > text + 1 && p[-1] != '\n' && !(p[-2] == ':' && p[-1] == ' ')) {
            p++; /* not where a line gives the row: "… = H1[1] + D[1] = …" */
            continue;
        }
        for (q = p; q < eol; q++)
            if (*q == '[')
                b = q;
        assert_non_null(b);
        for (q = b; q < eol && strncmp(q, "…", strlen("…")) != 0 &&
                    strncmp(q, "...", 3) != 0; q++)
            ;
        if (q < eol) { /* a long row shown cut short: its cells are not all there */
            p = eol;
            continue;
        }
        for (q = b + 1, k = 0; k < cols; k++) {
            char *e;
            const double v = strtod(q, &e);
            if (e == q || !(fabs(v - want[k]) <= 6e-11 * fmax(1.0, fabs(want[k]))))
                fail_msg("%s: %s[%zu] cell %zu printed %.40s, torch %.12g", what, name, row, k,
                         q, want[k]);
            q = e + strspn(e, ", ");
        }
        assert_true(*q == ']');
        lines++;
        p = eol;
    }
    return lines;
}

/* trace --row 1 through blocks of each kind (PyTorch's cases of make_block.py: post-LN
 * with ReLU, GPT's GELU_tanh with a final norm, LLaMA's SwiGLU gate with RMSNorm, no FFN
 * with and without the final norm), in English and in ASCII: each line that gives row 1
 * of a table ends with torch's row, and the FFN's rule is named. */
static void test_trace_walks_each_kind_of_block_row_as_torch(void **state)
{
    static const struct { const char *name, *rule; int lines; } cases[] = {
        {"post_00", "ReLU(u) = max(0, u)", 5}, {"gpt_19", "GELU_tanh(u) = u/2", 7},
        {"llama_00", "SiLU(u) = u/(1 + e^", 6}, {"prenone_01", NULL, 3},
        {"none_00", NULL, 1}};
    static const char *const args[] = {"--lang en", "--lang en --ascii"};
    static section s;
    size_t c, a;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (a = 0; a < 2; a++) {
            char cmd[256], path[128], *text;
            int lines = 0;
            FILE *f;
            snprintf(cmd, sizeof cmd, "trace tests/data/block/cases/%s.txt --row 1 %s",
                     cases[c].name, args[a]);
            assert_int_equal(run(cmd), 0);
            assert_non_null(text = slurp(OUT));
            if (cases[c].rule != NULL)
                assert_file_contains(OUT, cases[c].rule);
            snprintf(path, sizeof path, "tests/data/block/cases/%s.expected", cases[c].name);
            assert_non_null(f = fopen(path, "r"));
            while (read_section(f, &s))
                if (strchr(s.name, '.') == NULL && s.rows > 1)
                    lines += walk_rows_agree(text, s.name, 1, s.v + s.cols, s.cols, cmd);
            fclose(f);
            if (lines < cases[c].lines)
                fail_msg("%s: %d lines of row 1 checked, wanted %d", cmd, lines, cases[c].lines);
            free(text);
        }
}

static void test_trace_writes_the_annotated_convention_as_it_is(void **state)
{
    (void)state;
    /* post_01 is a PyTorch case with norm_style: annotated: σ ÷ (d−1), then σ + ε */
    assert_int_equal(run("trace --row 0 --digits 3 tests/data/block/cases/post_01.txt"), 0);
    assert_file_contains(OUT, "无偏方差（平方和除以d−1=4）：σ² = (");
    assert_file_contains(OUT, "先开方得标准差σ，再加ε：σ+ε = √(16.985)+0.000001 ≈ 4.121");
}

/* ---- check: the block's tables by the same cell rule, and its named mistakes ---- */

#define MISTAKES "tests/data/block/mistakes/"

/* The "diagnosis" JSON gives table `table` in the last check's output: its code, "null",
 * or "" when the table is not there; into buf. */
static const char *diagnosis_of(char *buf, size_t size, const char *table)
{
    char *json = slurp(OUT), key[64];
    const char *at, *d;

    buf[0] = '\0';
    assert_non_null(json);
    snprintf(key, sizeof key, "{\"name\": \"%s\",", table);
    if ((at = strstr(json, key)) != NULL && (d = strstr(at, "\"diagnosis\": ")) != NULL) {
        d += strlen("\"diagnosis\": ");
        snprintf(buf, size, "%.*s", (int)strcspn(d, ",}"), d);
    }
    free(json);
    return buf;
}

static void test_check_marks_the_blocks_own_run_output_right(void **state)
{
    (void)state;
    /* every table run prints reads back as an answer and is right: 7 of the attention,
     * N1 H1 N2 U F D H2 of the block (Y = H2 is no table of its own without lnf) */
    assert_int_equal(run(PRE), 0);
    assert_int_equal(sh("cp " OUT " build/tests/block_teach_run.txt"), 0);
    assert_int_equal(run("check " PRE " build/tests/block_teach_run.txt"), 0);
    assert_file_contains(OUT, "得分：14/14");
    assert_file_contains(OUT, "N1：正确");
    assert_file_contains(OUT, "H2：正确");
    assert_int_equal(run("run --digits 3 --lang en " POST), 0);
    assert_int_equal(sh("cp " OUT " build/tests/block_teach_run.txt"), 0);
    assert_int_equal(run("check --lang en " POST " build/tests/block_teach_run.txt"), 0);
    assert_file_contains(OUT, "score: 8/8");
}

static void test_check_grades_torch_references_of_a_block_right(void **state)
{
    (void)state;
    /* the tables PyTorch computed (make_mistakes.py: torch.nn.LayerNorm, GELU, RMSNorm),
     * written to 6 decimals, are right; the final norm's Y too */
    assert_int_equal(run("check --format json " MISTAKES "block_a.txt " MISTAKES "a_right.txt"), 0);
    assert_file_contains(OUT, "\"score\": 9, \"max\": 15");
    assert_int_equal(run("check " MISTAKES "block_b.txt " MISTAKES "b_right.txt"), 0);
    assert_int_equal(run("check " MISTAKES "block_c.txt " MISTAKES "c_right.txt"), 0);
}

/* Each answers file of make_mistakes.py holds one convention mistake at one table and
 * the next table done right from it: the mistake is named there, once, and the next
 * table is carried_error. */
static void test_check_names_each_convention_mistake_once_where_it_is_made(void **state)
{
    static const struct {
        const char *problem, *answers, *table, *code, *next;
    } c[] = {
        {"block_a", "a_ln_unbiased", "N2", "\"ln_unbiased\"", "U"},
        {"block_a", "a_ln_eps_outside", "N2", "\"ln_eps_outside\"", "U"},
        {"block_a", "a_ln_no_affine", "N2", "\"ln_no_affine\"", "U"},
        {"block_a", "a_n1_unbiased", "N1", "\"ln_unbiased\"", NULL},
        {"block_a", "a_gelu_tanh_for_erf", "F", "\"gelu_tanh_for_erf\"", "D"},
        {"block_a", "a_relu_for_gelu", "F", "\"relu_for_gelu\"", "D"},
        {"block_a", "a_no_residual", "H1", "\"no_residual\"", "N2"},
        {"block_a", "a_residual_from_normed", "H1", "\"residual_from_normed\"", NULL},
        {"block_a", "a_post_for_pre", "H1", "\"post_for_pre\"", "N2"},
        {"block_a", "a_h2_no_residual", "H2", "\"no_residual\"", NULL},
        {"block_b", "b_rms_with_mean", "N2", "\"rms_with_mean\"", NULL},
        {"block_b", "b_gelu_erf_for_tanh", "F", "\"gelu_erf_for_tanh\"", NULL},
        {"block_c", "c_no_residual", "H1", "\"no_residual\"", NULL},
    };
    char cmd[512], buf[64];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        snprintf(cmd, sizeof cmd, "check --format json " MISTAKES "%s.txt " MISTAKES "%s.txt",
                 c[i].problem, c[i].answers);
        assert_int_equal(run(cmd), 1);
        if (strcmp(diagnosis_of(buf, sizeof buf, c[i].table), c[i].code) != 0) {
            print_error("%s: %s diagnosed %s, expected %s\n", c[i].answers, c[i].table, buf, c[i].code);
            fail();
        }
        if (c[i].next != NULL)
            assert_string_equal(diagnosis_of(buf, sizeof buf, c[i].next), "\"carried_error\"");
    }
}

static void test_check_carries_a_wrong_n1_through_the_attention_it_feeds(void **state)
{
    static const char *const later[] = {"Q", "K", "V", "QKT", "S", "A", "O", "H1"};
    char buf[64];
    size_t i;

    (void)state;
    /* pre: the attention reads N1, so a student's unbiased N1 with every attention table
     * done right on it (torch, make_mistakes.py) is named once, on N1 */
    assert_int_equal(run("check --format json " MISTAKES "block_a.txt " MISTAKES "a_n1_unbiased_on.txt"), 1);
    assert_string_equal(diagnosis_of(buf, sizeof buf, "N1"), "\"ln_unbiased\"");
    for (i = 0; i < sizeof later / sizeof later[0]; i++)
        if (strcmp(diagnosis_of(buf, sizeof buf, later[i]), "\"carried_error\"") != 0) {
            print_error("%s: %s, expected carried_error\n", later[i], buf);
            fail();
        }
}

static void test_check_teaches_the_mistake_in_words(void **state)
{
    (void)state;
    assert_int_equal(run("check " MISTAKES "block_a.txt " MISTAKES "a_ln_unbiased.txt"), 1);
    assert_file_contains(OUT, "诊断：ln_unbiased");
    assert_file_contains(OUT, "torch的LayerNorm求σ²时除以d：σ² = Σ(x−μ)²/d");
    assert_file_contains(OUT, "U：");
    assert_int_equal(run("check --lang en " MISTAKES "block_a.txt " MISTAKES "a_ln_eps_outside.txt"), 1);
    assert_file_contains(OUT, "torch's LayerNorm adds it under the root: divide by √(σ²+ε)");
    /* a class: the mistakes counted once per student */
    assert_int_equal(run("check --lang en " MISTAKES "block_a.txt " MISTAKES "a_ln_unbiased.txt "
                         MISTAKES "a_post_for_pre.txt " MISTAKES "a_right.txt"), 1);
    assert_file_contains(OUT, "ln_unbiased");
    assert_file_contains(OUT, "post_for_pre");
    /* the gradebook: a column per table asked, N1 first (the attention reads it) */
    assert_int_equal(run("check --format csv " MISTAKES "block_a.txt " MISTAKES "a_right.txt "
                         MISTAKES "a_ln_unbiased.txt"), 1);
    assert_file_contains(OUT, "student,score,max,N1,Q,K,V,QKT,S,A,O,H1,N2,U,F,D,H2,Y,mistakes");
    assert_file_contains(OUT, "a_ln_unbiased,2,15,,,,,,,,,1,0,1,,,,,N2:ln_unbiased");
}

static void test_check_refuses_a_head_on_a_block_table(void **state)
{
    (void)state;
    write_text("build/tests/block_teach_ans.txt", "N1_h0 = [[1, 0, 0, 0]]\n");
    assert_int_equal(run("check --lang en " PRE " build/tests/block_teach_ans.txt"), 2);
    assert_file_contains(ERR, "block_teach_ans.txt:1:1: error:");
    write_text("build/tests/block_teach_ans.txt", "N2 = [[1, 0]]\n");
    assert_int_equal(run("check --lang en " POST " build/tests/block_teach_ans.txt"), 2);
    assert_file_contains(ERR, "block_teach_ans.txt:1:1: error:"); /* post has no N2 */
    assert_file_contains(ERR, "hint: N1 and N2 are the tables of block: pre");
}

/* ---- practice: the block's tables asked too, their mistakes named ---- */

/* Runs `attnstep practice ARGS` with the lines of input on its standard input (run()
 * gives it /dev/null); returns its exit status. */
static int practice(const char *args, const char *input)
{
    const char *bin = getenv("ATTNSTEP_BIN"), *wrap = getenv("ATTNSTEP_WRAP");

    write_text("build/tests/block_teach_in.txt", input);
    return sh("%s %s practice %s <build/tests/block_teach_in.txt >" CLI_OUT " 2>" CLI_ERR,
              wrap ? wrap : "", bin ? bin : "build/attnstep", args);
}

static void test_practice_asks_the_blocks_tables_in_its_order(void **state)
{
    (void)state;
    /* every cell: the attention's (QKT, S, A, O: 3 + 3 + 3 + 12 asked) after N1, then
     * H1 N2 U F D H2 (Y = H2 without lnf is not asked again) */
    assert_int_equal(practice(PRE, "q\n"), 1);
    assert_file_contains(OUT, "── N1 ──");
    assert_file_contains(OUT, "用到：X[0][0] = 1、μ = 0.25、√(σ²+ε) ≈ 0.4330242487、γ[0] = 1、β[0] = 0");
    assert_int_equal(practice("--only N1,H1,U,F,D,H2,Y --lang en " PRE, "q\n"), 1);
    assert_file_contains(OUT, "── N1 ──");
    /* N1 12, H1 12, U 9, F 9, D 12, H2 12 cells: Y is the last table again */
    assert_file_contains(OUT, "Stopped: 66 cells not done.");
}

static void test_practice_names_a_block_mistake_and_works_the_cell(void **state)
{
    (void)state;
    /* make_mistakes.py: the unbiased N1[0][0] is 1.840990, the right one 1.9508401285:
     * (1 − 0.25)/√(0.1875 + 0.25)×1.5 + 0.25 (ε 0.25, γ 1.5, β 0.25) */
    assert_int_equal(practice("--only N1 " MISTAKES "block_a.txt", "1.84099\n1.9508\nq\n"), 1);
    assert_file_contains(OUT, "很可能是因为方差除以了d−1");
    assert_file_contains(OUT, "这一格这样算：(1−0.25)/0.6614378278×1.5+0.25 ≈ 1.9508401285；你写的是1.84099。");
    assert_file_contains(OUT, "对！");
    /* H1 written as O alone (no_residual), F by GELU's tanh form */
    assert_int_equal(practice("--only H1 --lang en " MISTAKES "block_a.txt", "0.97542\nq\n"), 1);
    assert_file_contains(OUT, "the residual was left out");
    assert_file_contains(OUT, "This cell is: 1+0.9754200643 ≈ 1.9754200643; you wrote 0.97542.");
    assert_int_equal(practice("--only F " MISTAKES "block_a.txt", "-0.158066\nq\n"), 1);
    assert_file_contains(OUT, "很可能是因为用了GELU的tanh近似");
    assert_file_contains(OUT, "这一格这样算：GELU(-0.5306583398) ≈ -0.1580447953");
}

/* practice on the rarer norms, worked by hand: the Annotated Transformer's (σ unbiased,
 * σ + ε), and a final norm after a block without FFN (Y = lnf(H1)). */
static void test_practice_works_the_annotated_norm_and_a_final_norm_without_ffn(void **state)
{
    (void)state;
    /* examples/block-pre-gelu.txt with norm_style: annotated. X₀ = [1,0,0,0]: μ = 1/4,
     * σ² = (9/16 + 3/16)/3 = 1/4, σ = 1/2, ε = 1e-6: N1₀₀ = (3/4)/0.500001 = 1.499997 */
    write_text("build/tests/block_teach_ann.txt",
               "block: pre\nnorm: layer\nnorm_style: annotated\nffn: gelu\nmask: causal\n"
               "X = [[1, 0, 0, 0], [0, 1, 1, 0], [2, 0, 1, 1]]\n"
               "Wq = [[1, 0], [0, 1], [1, 0], [0, 1]]\nWk = [[1, 0], [0, 1], [0, 1], [1, 0]]\n"
               "Wv = [[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, -0.5, 0], [0, 0, 0, -0.5]]\n"
               "Wup = [[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]]\n"
               "Wdown = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]\n");
    assert_int_equal(practice("--only N1 build/tests/block_teach_ann.txt", "1.4\nq\n"), 1);
    assert_file_contains(OUT, "用到：X[0][0] = 1、μ = 0.25、σ+ε = 0.500001、γ[0] = 1、β[0] = 0");
    assert_file_contains(OUT, "这一格这样算：(1−0.25)/0.500001×1+0 ≈ 1.499997；你写的是1.4。");
    /* Wv = 0 gives O = 0 and H1 = X; with ffn: none Y = lnf(H1): X₀ = [1,0,0,0], μ = 1/4,
     * σ² = 3/16, √(3/16 + 1e-5) = 0.4330242487…, Y₀₀ = 2 × (3/4)/0.4330242487 = 3.4640092… */
    write_text("build/tests/block_teach_lnf.txt",
               "block: pre\nnorm: layer\nffn: none\nmask: none\n"
               "X = [[1, 0, 0, 0], [0, 1, 1, 0]]\n"
               "Wq = [[1, 0], [0, 1], [1, 0], [0, 1]]\nWk = [[1, 0], [0, 1], [0, 1], [1, 0]]\n"
               "Wv = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]\n"
               "lnf_g = [2, 2, 2, 2]\n");
    assert_int_equal(practice("--only Y --lang en build/tests/block_teach_lnf.txt", "3.4640092\nq\n"), 1);
    assert_file_contains(OUT, "made from: H1[0][0] = 1, μ = 0.25, √(σ²+ε) ≈ 0.4330242487, γ[0] = 2");
    assert_file_contains(OUT, "Y[0][0] = 3.4640092\nRight.\n");
}

/* practice works a cell of each of the block's rarer steps with PyTorch's number (the
 * cases of make_block.py, their .expected files): LLaMA's gate G = SiLU(N2·Wgate) and
 * F = G ⊙ U, GPT's final norm Y = normf(H2), and post-LN's H1 and H2 = LayerNorm(R). */
static void test_practice_works_the_gate_the_final_norm_and_post_norms_as_torch(void **state)
{
    (void)state;
    /* G = [[-0.12781584979576185, -0.18184951707160432], [0.38951233204579,
     * -0.2517675356170863]] and F[0][0] = -0.05121501744793304 (llama_00) */
    assert_int_equal(practice("--only G,F --lang en tests/data/block/cases/llama_00.txt",
                              "-0.1278\n-0.1818\n0.3895\n-0.2518\n1\nq\n"), 1);
    assert_file_contains(OUT, "G[1][1] = -0.2518\nRight.");
    assert_file_contains(OUT, "── F ──");
    assert_file_contains(OUT, "Wgate column 0 = [");
    assert_file_contains(OUT, "≈ -0.0512150174; you wrote 1.");
    /* Y[0][0] = 1.993134688186459 (gpt_19, with lnf) */
    assert_int_equal(practice("--only Y --lang en tests/data/block/cases/gpt_19.txt", "1\nq\n"), 1);
    assert_file_contains(OUT, "made from: H2[0][0] ≈ -3.9240971354, μ ≈");
    assert_file_contains(OUT, "≈ 1.9931346882; you wrote 1.");
    /* H2[0][0] = 0.8474030138953658, H1[0][0] = 2.3141270876491884 (post_00) */
    assert_int_equal(practice("--only H2 --lang en tests/data/block/cases/post_00.txt", "1\nq\n"), 1);
    assert_file_contains(OUT, "made from: R2[0][0] ≈");
    assert_file_contains(OUT, "≈ 0.8474030139; you wrote 1.");
    assert_int_equal(practice("--only H1 --ascii --lang en tests/data/block/cases/post_00.txt",
                              "1\nq\n"), 1);
    assert_file_contains(OUT, "made from: R1[0][0] ~= ");
    assert_file_contains(OUT, "sqrt(sigma^2+eps) ~= ");
    assert_file_contains(OUT, "~= 2.3141270876; you wrote 1.");
}

/* ---- the document formats and worksheets follow the block ---- */

static void test_markdown_gives_the_file_x_then_n1_and_the_blocks_tables(void **state)
{
    (void)state;
    assert_int_equal(run("run --format md " PRE), 0);
    assert_file_contains(OUT, "**X** =");
    assert_file_contains(OUT, "**N1** ≈");
    assert_file_contains(OUT, "**Wup** =");
    assert_file_contains(OUT, "**H2** ≈");
    assert_file_lacks(OUT, "**Y**"); /* Y is H2 again without lnf */
    /* JSON's inputs are the matrices given: the file's X (N1 is the block's "N1") */
    assert_int_equal(run("run --format json " PRE), 0);
    assert_file_contains(OUT, "\"inputs\": {\"X\": [[1,0,0,0],[0,1,1,0],[2,0,1,1]]");
}

static void test_a_worksheet_asks_the_block_with_its_formulas(void **state)
{
    (void)state;
    assert_int_equal(run("sheet " PRE), 0);
    assert_file_contains(OUT, "计算Q、K、V、QKᵀ、S、A、O、N1、H1、N2、U、F、D和H2");
    assert_file_contains(OUT, "**N1 = LayerNorm(X), ε = 0.00001**");
    assert_file_contains(OUT, "**Q = N1·Wq**"); /* what the attention reads */
    assert_file_contains(OUT, "**F = GELU(U)**");
    assert_file_contains(OUT, "**ln1_g** ="); /* given, so that N1 can be computed */
    assert_int_equal(run("sheet --format latex --lang en " POST), 0);
    assert_file_contains(OUT, "H1 = \\operatorname{RMSNorm}(X + O),\\ \\varepsilon = 0.000001");
}

/* The worksheet's formula of each rarer block table, as SPEC §15 defines them: LLaMA's
 * gate and F = G ⊙ U with RMSNorm, post-LN's normalised sums with bup and bdown, GPT's
 * final norm Y and GELU_tanh, in Markdown and LaTeX (where tanh is GELU's subscript:
 * a bare _ made "tanh" a subscript after its "t"). */
static void test_a_worksheet_gives_each_kind_of_blocks_formulas(void **state)
{
    (void)state;
    assert_int_equal(run("sheet --lang en tests/data/block/cases/llama_00.txt"), 0);
    assert_file_contains(OUT, "**N1 = RMSNorm(X), ε = 0.00001**");
    assert_file_contains(OUT, "**U = N2·Wup**");
    assert_file_contains(OUT, "**G = SiLU(N2·Wgate)**");
    assert_file_contains(OUT, "**F = G ⊙ U**");
    assert_file_contains(OUT, "**D = F·Wdown**");
    assert_int_equal(run("sheet --format latex --lang en tests/data/block/cases/llama_00.txt"), 0);
    assert_file_contains(OUT, "G = \\operatorname{SiLU}(N2W_{gate})");
    assert_file_contains(OUT, "F = G \\odot U");
    assert_file_contains(OUT, "U = N2W_{up} \\\\");
    assert_int_equal(run("sheet --lang en tests/data/block/cases/post_00.txt"), 0);
    assert_file_contains(OUT, "**H1 = LayerNorm(X + O), ε = 0.00001**");
    assert_file_contains(OUT, "**U = H1·Wup + bup**");
    assert_file_contains(OUT, "**F = ReLU(U)**");
    assert_file_contains(OUT, "**D = F·Wdown + bdown**");
    assert_file_contains(OUT, "**H2 = LayerNorm(H1 + D), ε = 0.00001**");
    assert_int_equal(run("sheet --ascii --lang en tests/data/block/cases/gpt_19.txt"), 0);
    assert_file_contains(OUT, "**Y = LayerNorm(H2), eps = 0.00001**");
    assert_file_contains(OUT, "**F = GELU_tanh(U)**");
    assert_int_equal(run("sheet --format latex --lang en tests/data/block/cases/gpt_19.txt"), 0);
    assert_file_contains(OUT, "Y = \\operatorname{LayerNorm}(H2),\\ \\varepsilon = 0.00001");
    assert_file_contains(OUT, "F = \\operatorname{GELU}_{\\tanh}(U)");
    assert_file_lacks(OUT, "GELU_tanh");
    assert_file_contains(OUT, "D = FW_{down} + b_{down}");
    assert_file_contains(OUT, "U = N2W_{up} + b_{up}");
}

static void test_moodle_offers_the_blocks_own_mistakes_not_the_attentions(void **state)
{
    char *xml, *cell, *end;

    (void)state;
    /* N1[0][0]: right 1.9508401285, unbiased 1.840990257669732 (torch, make_mistakes.py) */
    assert_int_equal(run("sheet --format moodle " MISTAKES "block_a.txt"), 0);
    xml = slurp(OUT);
    assert_non_null(xml);
    cell = strstr(xml, "N1 = LayerNorm(X)");
    assert_non_null(cell);
    cell = strstr(cell, "{1:NUMERICAL:");
    assert_non_null(cell);
    end = strchr(cell, '}');
    assert_non_null(end);
    *end = '\0';
    assert_non_null(strstr(cell, "=1.9508401285415227:0.005#"));
    assert_non_null(strstr(cell, "~%0%1.84099025766973"));
    assert_non_null(strstr(cell, "（ln_unbiased）"));
    assert_null(strstr(cell, "no_scale")); /* no attention mistake is a norm's */
    free(xml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grad_takes_the_gradient_through_the_block),
        cmocka_unit_test(test_grad_of_a_block_names_a_do_not_of_ys_shape),
        cmocka_unit_test(test_run_prints_the_block_as_golden),
        cmocka_unit_test(test_run_gives_each_rows_mean_variance_and_divisor),
        cmocka_unit_test(test_run_only_picks_a_block_table_with_its_norm),
        cmocka_unit_test(test_run_says_width_two_layer_norm_is_always_plus_minus_one),
        cmocka_unit_test(test_ascii_spells_the_norms_letters_and_keeps_the_table_aligned),
        cmocka_unit_test(test_trace_walks_the_block_as_golden),
        cmocka_unit_test(test_trace_writes_out_the_layer_norm_of_a_row),
        cmocka_unit_test(test_trace_writes_the_annotated_convention_as_it_is),
        cmocka_unit_test(test_trace_walks_each_kind_of_block_row_as_torch),
        cmocka_unit_test(test_check_marks_the_blocks_own_run_output_right),
        cmocka_unit_test(test_check_grades_torch_references_of_a_block_right),
        cmocka_unit_test(test_check_names_each_convention_mistake_once_where_it_is_made),
        cmocka_unit_test(test_check_carries_a_wrong_n1_through_the_attention_it_feeds),
        cmocka_unit_test(test_check_teaches_the_mistake_in_words),
        cmocka_unit_test(test_check_refuses_a_head_on_a_block_table),
        cmocka_unit_test(test_practice_asks_the_blocks_tables_in_its_order),
        cmocka_unit_test(test_practice_names_a_block_mistake_and_works_the_cell),
        cmocka_unit_test(test_practice_works_the_gate_the_final_norm_and_post_norms_as_torch),
        cmocka_unit_test(test_practice_works_the_annotated_norm_and_a_final_norm_without_ffn),
        cmocka_unit_test(test_markdown_gives_the_file_x_then_n1_and_the_blocks_tables),
        cmocka_unit_test(test_a_worksheet_asks_the_block_with_its_formulas),
        cmocka_unit_test(test_a_worksheet_gives_each_kind_of_blocks_formulas),
        cmocka_unit_test(test_moodle_offers_the_blocks_own_mistakes_not_the_attentions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
