/* test_grad_cli.c - `attnstep grad` end to end (SPEC §13): golden files for the F11
 * example with loss: sum (checked by hand, tests/golden/README.md), the walk-through,
 * --only and JSON, and every input error: exit 2, nothing on stdout, FILE:LINE:COL, a
 * hint, in the language asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#define CLI_OUT "build/tests/grad_cli.out"
#define CLI_ERR "build/tests/grad_cli.err"
#include "cli_util.h"

#define EX "examples/grad-f11.txt"
#define BAD "tests/data/grad/bad/"
#define ROPE "tests/data/grad/rope-f11.txt"
#define SINUSOIDAL "tests/data/grad/sinusoidal-f11.txt"

static void test_f11_gradients_in_chinese_match_the_hand_calculation(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX), 0);
    assert_golden("tests/golden/f11.grad.zh.txt");
}

static void test_f11_gradients_in_english(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --lang en"), 0);
    assert_golden("tests/golden/f11.grad.en.txt");
}

static void test_f11_gradients_as_json(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --format json"), 0);
    assert_golden("tests/golden/f11.grad.json");
}

static void test_the_walk_through_of_row_1(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --row 1"), 0);
    assert_golden("tests/golden/f11.grad.row1.zh.txt");
    assert_int_equal(run("grad " EX " --row 1 --lang en"), 0);
    assert_golden("tests/golden/f11.grad.row1.en.txt");
}

static void test_only_picks_gradient_tables(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --only dX,dWq --lang en"), 0);
    assert_file_contains(OUT, "dWq = X");
    assert_file_contains(OUT, "dX = dQ");
    assert_file_lacks(OUT, "dS");
    assert_file_lacks(OUT, "loss");
    assert_int_equal(run("grad " EX " --only 'd(QKT)' --format json"), 0);
    assert_file_contains(OUT, "\"dQKT\": [[0,0],[-1.563985965451104,1.5639859654511044]]");
    assert_file_lacks(OUT, "\"dX\"");
    assert_file_contains(OUT, "\"loss\": 23.30238450673343");
}

static void test_json_keys_are_absent_when_the_table_does_not_exist(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --format json"), 0);
    assert_file_lacks(OUT, "\"dWo\"");
    assert_file_lacks(OUT, "\"dXkv\"");
    assert_file_lacks(OUT, "\"dbq\"");
    assert_int_equal(run("grad tests/data/grad/cross_wo_mse.txt --format json"), 0);
    assert_file_contains(OUT, "\"dWo\"");
    assert_file_contains(OUT, "\"dbo\"");
    assert_file_contains(OUT, "\"dXkv\"");
    assert_file_lacks(OUT, "\"dbq\"");
    assert_int_equal(run("grad tests/data/grad/cross_two_heads_dO.txt --format json"), 0);
    assert_file_contains(OUT, "\"loss\": null");
}

static void test_layout_torch_says_the_gradients_are_in_book_layout(void **state)
{
    (void)state;
    assert_int_equal(run("grad tests/data/grad/torch_layout_heads.txt --lang en"), 0);
    assert_file_contains(OUT, "the W gradients are shown in the book's [in, out] layout");
    assert_int_equal(run("grad tests/data/grad/torch_layout_heads.txt"), 0);
    assert_file_contains(OUT, "PyTorch的weight.grad是它的转置");
}

/* --ascii --lang en on ASCII tokens: every byte of the tables and the walk is ASCII. */
static void test_ascii_english_output_is_pure_ascii(void **state)
{
    static const char *const args[] = {
        "grad tests/data/grad/self_heads_wo_mse.txt --ascii --lang en",
        "grad tests/data/grad/self_heads_wo_mse.txt --ascii --lang en --row all",
        "grad tests/data/grad/cross_wo_mse.txt --ascii --lang en --row 0"};
    size_t i, k;

    (void)state;
    for (i = 0; i < sizeof args / sizeof args[0]; i++) {
        char *text;
        assert_int_equal(run(args[i]), 0);
        assert_non_null(text = slurp(OUT));
        for (k = 0; text[k] != '\0'; k++)
            if ((unsigned char)text[k] > 0x7f) {
                print_error("%s: byte %zu is not ASCII: %.40s\n", args[i], k, text + k);
                fail();
            }
        free(text);
    }
}

/* One bad input: exit 2, nothing on stdout, the message at its place, with a hint. */
static void refused(const char *args, const char *where_and_what)
{
    if (run(args) != 2) {
        print_error("attnstep %s did not exit 2\n", args);
        fail();
    }
    assert_stdout_empty();
    assert_file_contains(ERR, where_and_what);
    assert_file_contains(ERR, strstr(args, "--lang en") != NULL ? "  hint: " : "  提示：");
}

static void test_input_errors_name_their_place_in_the_users_language(void **state)
{
    (void)state;
    refused("grad " BAD "no-loss.txt", "no-loss.txt:1:1: 错误：没有给出损失");
    refused("grad " BAD "no-loss.txt --lang en", "no-loss.txt:1:1: error: no loss is given");
    refused("grad " BAD "mse-no-target.txt", "mse-no-target.txt:5:7: 错误：loss: mse需要目标表target");
    refused("grad " BAD "unknown-loss.txt --lang en", "unknown-loss.txt:5:7: error: unknown loss \"sun\"");
    assert_file_contains(ERR, "hint: did you mean loss: sum?");
    refused("grad " BAD "unknown-loss.txt", "unknown-loss.txt:5:7: 错误：未知的损失“sun”");
    assert_file_contains(ERR, "是不是想写loss: sum？");
    refused("grad " BAD "dO-shape.txt --lang en",
            "dO-shape.txt:5:1: error: dO is [2,3], but the output O is [2,2]");
    refused("grad " BAD "dO-shape.txt", "dO-shape.txt:5:1: 错误：dO的形状是[2,3]，但输出O的形状是[2,2]");
    refused("grad " BAD "target-shape.txt --lang en",
            "target-shape.txt:6:1: error: target is [1,2], but the output O is [2,2]");
    refused("grad " BAD "both.txt --lang en", "both.txt:6:1: error: dO and loss (line 5)");
}

/* positions: rope (the F11 example turned, examples/rope.txt with loss: sum): the text says
 * where the turn is taken backwards, in each language; the walk-through turns row 1's
 * dqr back by position 1's angle (1 rad); JSON carries each head's dQr and dKr, and
 * --only dQr picks them with dQ. The numbers are test_grad_positions.c's to check. */
static void test_rope_says_where_the_turn_is_taken_backwards(void **state)
{
    (void)state;
    assert_int_equal(run("grad " ROPE), 0);
    assert_file_contains(OUT, "dQr = d(QKᵀ)·Kr");
    assert_file_contains(OUT, "dQ = Rᵀ·dQr");
    assert_file_contains(OUT, "RoPE反向：把dQr按位置反向旋转");
    assert_file_contains(OUT, "dKr = d(QKᵀ)ᵀ·Qr");
    assert_int_equal(run("grad " ROPE " --lang en"), 0);
    assert_file_contains(OUT, "RoPE backwards: dKr turned back by position");
    assert_int_equal(run("grad " ROPE " --row 1"), 0);
    assert_file_contains(OUT, "第五步：流向dQr。");
    assert_file_contains(OUT, "把dqr₁按位置1反向旋转");
    assert_file_contains(OUT, "第0对（第0、1格），角度1：");
    assert_int_equal(run("grad " ROPE " --format json --only dQr"), 0);
    assert_file_contains(OUT, "\"dQr\": [[0,0],");
    assert_file_contains(OUT, "\"dQ\": [[0,0],");
    assert_file_lacks(OUT, "\"dKr\"");
    assert_int_equal(run("grad " ROPE " --format json"), 0);
    assert_file_contains(OUT, "\"dKr\": [[");
}

/* positions: sinusoidal: the W gradients read X + PE, and dX is said to pass PE by. */
static void test_sinusoidal_says_pe_is_a_constant(void **state)
{
    (void)state;
    assert_int_equal(run("grad " SINUSOIDAL), 0);
    assert_file_contains(OUT, "dWq = (X+PE)ᵀ·dQ");
    assert_file_contains(OUT, "正弦位置编码PE是常数：投影读的是X + PE，对它的梯度原样就是对X的梯度");
    assert_int_equal(run("grad " SINUSOIDAL " --row 1 --lang en --ascii"), 0);
    assert_file_contains(OUT, "dWq = (X+PE)^T*dQ");
}

/* The LLaMA example runs through grad (its numbers: test_grad_positions.c). */
static void test_the_llama_example_runs_backwards(void **state)
{
    (void)state;
    assert_int_equal(run("grad examples/grad-llama.txt --lang en"), 0);
    assert_file_contains(OUT, "dQ₁ = Rᵀ·dQr₁");
    assert_file_contains(OUT, "dK = [dK₀+dK₁]");
    assert_file_contains(OUT, "dX = dH1 + norm1ᵀ(dN1)");
}

/* A row that can read nothing is the error run gives, word for word. */
static void test_a_fully_masked_row_is_the_error_of_run(void **state)
{
    char *run_err;

    (void)state;
    assert_int_equal(run("run " BAD "masked-row.txt --lang en"), 2);
    run_err = slurp(ERR);
    assert_non_null(run_err);
    refused("grad " BAD "masked-row.txt --lang en",
            "masked-row.txt:6:1: error: row 1 (\"1\") has no readable position");
    {
        char *grad_err = slurp(ERR);
        assert_string_equal(grad_err, run_err);
        free(grad_err);
    }
    free(run_err);
}

static void test_usage_errors_of_grad(void **state)
{
    (void)state;
    assert_int_equal(run("grad " EX " --only dZ --lang en"), 2);
    assert_file_contains(ERR, "\"dZ\" is not one");
    assert_int_equal(run("grad " EX " --only dZ"), 2);
    assert_file_contains(ERR, "“dZ”不是梯度名");
    assert_int_equal(run("grad " EX " --format md"), 2);
    assert_int_equal(run("grad " EX " --row 2 --lang en"), 2);
    assert_file_contains(ERR, "--row 2 is out of range");
    assert_int_equal(run("grad " EX " --row 1 --format json"), 2);
    /* run keeps its own names */
    assert_int_equal(run("run " EX " --only dX"), 2);
}

/* ---- the whole block, printed: each table against PyTorch ---- */

#define BLK "tests/data/grad/block/"
#define BLK_IN "build/tests/grad_cli_block.txt"

/* The torch tables of one case: names, shapes and values as make_block_grad.py wrote. */
typedef struct {
    char name[40][16];
    size_t rows[40], cols[40];
    double v[40][64];
    int n;
} torch_tables;

/* Reads case k of DIR config.cases: its input into BLK_IN, its tables into *t. */
static void read_block_case(const char *config, unsigned k, torch_tables *t)
{
    char path[256], line[512];
    unsigned kk, lines, i;
    FILE *f, *in;

    snprintf(path, sizeof path, BLK "%s.cases", config);
    assert_non_null(f = fopen(path, "r"));
    for (;;) {
        assert_int_equal(fscanf(f, " case %u %u\n", &kk, &lines), 2);
        if (kk == k)
            break;
        while (fgets(line, sizeof line, f) != NULL && strcmp(line, "end\n") != 0)
            ;
    }
    assert_non_null(in = fopen(BLK_IN, "w"));
    for (i = 0; i < lines; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        fputs(line, in);
    }
    assert_int_equal(fclose(in), 0);
    for (t->n = 0; t->n < 40 && fscanf(f, " %15s", t->name[t->n]) == 1 &&
                   strcmp(t->name[t->n], "end") != 0; t->n++) {
        assert_int_equal(fscanf(f, "%zu %zu", &t->rows[t->n], &t->cols[t->n]), 2);
        assert_true(t->rows[t->n] * t->cols[t->n] <= 64);
        for (i = 0; i < t->rows[t->n] * t->cols[t->n]; i++)
            assert_int_equal(fscanf(f, "%lf", &t->v[t->n][i]), 1);
    }
    fclose(f);
}

/* The numbers of the matrix printed after key (a line's start in text, "\"name\": " in
 * JSON) into v, row by row ("[[a, b],\n [c, d]]", notes right of a row skipped); returns
 * how many were read, -1 when key is not in text. */
static int printed_matrix(const char *text, const char *key, int json, double *v, int most)
{
    const char *p = text;
    int n = 0;

    if (strncmp(key, "data-name", 9) == 0) { /* an HTML grid: its cells in order */
        const char *end;
        if ((p = strstr(text, key)) == NULL)
            return -1;
        end = strstr(p, "</table>");
        while (n < most && (p = strstr(p, "<span class=\"v\">")) != NULL && p < end)
            v[n++] = strtod(p + strlen("<span class=\"v\">"), NULL), p++;
        return n;
    }

    for (;;) {
        if ((p = strstr(p, key)) == NULL)
            return -1;
        if (json || p == text || p[-1] == '\n')
            break;
        p++;
    }
    if ((p = strstr(p, "[[")) == NULL)
        return -1;
    p += 2;
    for (;;) {
        char *e;
        while (n < most && (v[n] = strtod(p, &e), e != p)) {
            n++;
            p = e;
            while (*p == ',' || *p == ' ')
                p++;
        }
        if (*p != ']' || p[1] == ']')
            return n;
        p += 1 + (p[1] == ',');
        p += strspn(p, " \n");
        if (*p != '[' && ((p = strchr(p, '\n')) == NULL || (p = strchr(p, '[')) == NULL))
            return n; /* past a note right of the row, the next row's '[' */
        p++;
    }
}

/* Every torch table among names that attnstep printed for case k of config (grad with
 * args, text, JSON or HTML) agrees to the ten decimals printed; returns how many were found. */
static int block_agrees(const char *config, unsigned k, const char *args)
{
    static const char *const names[] = {
        "dY", "dH2", "dD", "dF", "dG", "dU", "dN2", "dH1", "dO", "dN1", "dX", "dWup", "dbup",
        "dWdown", "dbdown", "dWgate", "dWo", "dbo", "dln1_g", "dln1_b", "dln2_g", "dln2_b",
        "dlnf_g", "dlnf_b"};
    const int json = strstr(args, "json") != NULL, html = strstr(args, "html") != NULL;
    torch_tables t;
    char cmd[256], key[32], *text;
    double got[64];
    size_t i;
    int j, found = 0;

    read_block_case(config, k, &t);
    snprintf(cmd, sizeof cmd, "grad " BLK_IN " %s", args);
    assert_int_equal(run(cmd), 0);
    assert_non_null(text = slurp(OUT));
    for (j = 0; j < t.n; j++) {
        int n, found_name = 0;
        for (i = 0; i < sizeof names / sizeof names[0]; i++)
            found_name |= strcmp(names[i], t.name[j]) == 0;
        if (!found_name)
            continue;
        snprintf(key, sizeof key, json ? "\"%s\": " : html ? "data-name=\"%s\"" : "%s = ",
                 t.name[j]);
        if ((n = printed_matrix(text, key, json, got, 64)) < 0)
            continue;
        if ((size_t)n != t.rows[j] * t.cols[j]) {
            print_error("%s case %u (%s): %s has %d numbers, torch %zu\n", config, k, args,
                        t.name[j], n, t.rows[j] * t.cols[j]);
            fail();
        }
        for (i = 0; i < (size_t)n; i++)
            if (!(fabs(got[i] - t.v[j][i]) <= 6e-11 + 1e-9 * fabs(t.v[j][i]))) {
                print_error("%s case %u (%s): %s[%zu] printed %.12g, torch %.12g\n", config, k,
                            args, t.name[j], i, got[i], t.v[j][i]);
                fail();
            }
        found++;
    }
    free(text);
    return found;
}

/* grad of the whole block, printed in both languages, as JSON and as a page: each gradient table
 * it shows (the residual's, the FFN's, the norms' γ and β) is PyTorch autograd's to the
 * printed digits, in every kind of block, norm and FFN, with and without a final norm
 * (the cases of tests/data/grad/block/make_block_grad.py). */
static void test_block_gradients_as_printed_agree_with_torch(void **state)
{
    static const char *const configs[] = {"pre_layer_swiglu", "post_rms_relu",
                                          "pre_annotated_gelu_tanh", "post_none_gelu",
                                          "pre_rms_none", "post_layer_swiglu"};
    size_t c;
    unsigned k;

    (void)state;
    for (c = 0; c < sizeof configs / sizeof configs[0]; c++)
        for (k = 0; k < 2; k++) {
            /* the FFN's tables, the residual's and a norm's at least */
            const int want = strstr(configs[c], "none") != NULL ? 4 : 8;
            assert_true(block_agrees(configs[c], k, k ? "" : "--lang en") >= want);
            assert_true(block_agrees(configs[c], k, k ? "--format json" : "--format html") >= want);
        }
    /* the FFN's lines by name, in both languages */
    read_block_case("pre_layer_swiglu", 0, &(torch_tables){0});
    assert_int_equal(run("grad " BLK_IN " --lang en"), 0);
    assert_file_contains(OUT, "dU = dF⊙G");
    assert_file_contains(OUT, "dG = dF⊙U");
    assert_file_contains(OUT, "dbdown = column sums of dD");
    assert_int_equal(run("grad " BLK_IN " --lang en --ascii"), 0);
    assert_file_contains(OUT, "dWgate = N2^T*(dG(.)silu'(N2*Wgate))");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f11_gradients_in_chinese_match_the_hand_calculation),
        cmocka_unit_test(test_f11_gradients_in_english),
        cmocka_unit_test(test_f11_gradients_as_json),
        cmocka_unit_test(test_the_walk_through_of_row_1),
        cmocka_unit_test(test_only_picks_gradient_tables),
        cmocka_unit_test(test_json_keys_are_absent_when_the_table_does_not_exist),
        cmocka_unit_test(test_layout_torch_says_the_gradients_are_in_book_layout),
        cmocka_unit_test(test_ascii_english_output_is_pure_ascii),
        cmocka_unit_test(test_input_errors_name_their_place_in_the_users_language),
        cmocka_unit_test(test_rope_says_where_the_turn_is_taken_backwards),
        cmocka_unit_test(test_sinusoidal_says_pe_is_a_constant),
        cmocka_unit_test(test_the_llama_example_runs_backwards),
        cmocka_unit_test(test_a_fully_masked_row_is_the_error_of_run),
        cmocka_unit_test(test_usage_errors_of_grad),
        cmocka_unit_test(test_block_gradients_as_printed_agree_with_torch),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
