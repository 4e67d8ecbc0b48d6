/* test_grad_cli.c - `attnstep grad` end to end (SPEC §13): golden files for the F11
 * example with loss: sum (checked by hand, tests/golden/README.md), the walk-through,
 * --only and JSON, and every input error: exit 2, nothing on stdout, FILE:LINE:COL, a
 * hint, in the language asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
