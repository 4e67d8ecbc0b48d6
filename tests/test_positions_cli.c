/* test_positions_cli.c - positions from the command line (SPEC §12): the examples'
 * run, trace and JSON against golden files checked by hand (tests/golden/README.md),
 * --offset, --only for the added tables, and the errors of bad settings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/positions.out"
#define CLI_ERR "build/tests/positions.err"
#include "cli_util.h"

static void test_rope_run_prints_the_turned_queries_and_keys(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/rope.txt"), 0);
    assert_golden("tests/golden/rope.run.zh.txt");
    assert_int_equal(run("run examples/rope.txt --format json"), 0);
    assert_golden("tests/golden/rope.run.json");
}

static void test_rope_trace_turns_each_pair_by_its_angle(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/rope.txt"), 0);
    assert_golden("tests/golden/rope.trace.zh.txt");
}

/* --offset 5: other angles, the same raw scores, line for line (SPEC §12). */
static void test_rope_trace_with_an_offset_shows_the_same_scores(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/rope.txt --offset 5 --lang en"), 0);
    assert_golden("tests/golden/rope.trace.offset5.en.txt");
    assert_file_contains(CLI_OUT, "pair 0 (numbers 0 and 1): angle = 6×1 = 6");
    assert_file_contains(CLI_OUT, "raw scores: [0.5403023059, 0]");
    assert_int_equal(run("trace examples/rope.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "raw scores: [0.5403023059, 0]");
}

static void test_alibi_adds_each_heads_bias_to_the_scores(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/alibi.txt --lang en"), 0);
    assert_golden("tests/golden/alibi.run.en.txt");
    assert_int_equal(run("trace examples/alibi.txt"), 0);
    assert_golden("tests/golden/alibi.trace.zh.txt");
}

static void test_sinusoidal_encoding_is_added_before_the_projections(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/sinusoidal.txt --format json"), 0);
    assert_golden("tests/golden/sinusoidal.run.json");
    assert_int_equal(run("trace examples/sinusoidal.txt --lang en"), 0);
    assert_golden("tests/golden/sinusoidal.trace.en.txt");
}

static void test_only_picks_the_tables_positions_add(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/rope.txt --only Qr,Kr --lang en"), 0);
    assert_file_contains(CLI_OUT, "Qr = RoPE(Q)");
    assert_file_contains(CLI_OUT, "Kr = RoPE(K)");
    assert_file_lacks(CLI_OUT, "QKᵀ");
    assert_int_equal(run("run examples/alibi.txt --only B --format json"), 0);
    assert_file_contains(CLI_OUT, "\"B\": [[0,0.0625,0.125],[-0.0625,0,0.0625],[-0.125,-0.0625,0]]");
    assert_file_contains(CLI_OUT, "\"slopes\": [0.0625,0.00390625]");
}

static void test_a_bad_offset_is_a_usage_error(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/rope.txt --offset -3 --lang en"), 2);
    assert_file_contains(CLI_ERR, "--offset takes the position of row 0");
    assert_int_equal(run("run examples/rope.txt --offset 1000000001 --lang en"), 2);
    assert_int_equal(run("run examples/rope.txt --offset 12x --lang en"), 2);
}

/* check judges answers to a positions problem by the run's own steps: the turn and the
 * bias count, and forgetting them is wrong, not "carried" (SPEC §6, §12). */
static void test_check_counts_the_turn_and_the_bias(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/rope.txt tests/data/positions/answers/rope-right.txt "
                         "--lang en"), 0);
    assert_file_contains(CLI_OUT, "score: 7/7");
    assert_int_equal(run("check examples/rope.txt tests/data/positions/answers/rope-not-turned.txt "
                         "--lang en"), 1);
    assert_file_contains(CLI_OUT, "QK\xe1\xb5\x80[1][0]: written 1, expected 0.5403023059");
    assert_int_equal(run("check tests/data/positions/f11-alibi.txt "
                         "tests/data/positions/answers/alibi-no-bias.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "S[1][0]: written 0.7071067812, expected 0.7032005312");
    /* sinusoidal: Q is made from X + PE (worked by hand in the answers files) */
    assert_int_equal(run("check examples/sinusoidal.txt "
                         "tests/data/positions/answers/sinusoidal-right.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "Q: right");
    assert_int_equal(run("check examples/sinusoidal.txt "
                         "tests/data/positions/answers/sinusoidal-without-pe.txt --lang en"), 1);
    assert_file_contains(CLI_OUT, "  Q[0][0]: written 0, expected -0.5\n"
                                  "  Q[0][1]: written 1, expected 1.5\n"
                                  "  Q[1][0]: written 1, expected 1.1505843395\n");
}

/* The tables positions add are answers too (SPEC §12): PE, Qr, Kr, B (_hN with heads). */
static void test_check_grades_the_tables_positions_add(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/rope.txt tests/data/positions/answers/rope-turned.txt "
                         "--lang en"), 1);
    assert_file_contains(CLI_OUT, "Qr: right");
    assert_file_contains(CLI_OUT, "Kr[1][1]: written 0.55, expected 0.5403023059");
    assert_int_equal(run("check examples/alibi.txt tests/data/positions/answers/alibi-bias.txt "
                         "--lang en"), 0);
    /* B is graded but not a table the problem asks (SPEC §6): 0 of alibi.txt's 10 marks
     * (Q, K, V, each head's QKT, S, A, and O) */
    assert_file_contains(CLI_OUT, "B_h1: right");
    assert_file_contains(CLI_OUT, "score: 0/10");
    assert_int_equal(run("check examples/f11.txt tests/data/positions/answers/rope-turned.txt "
                         "--lang en"), 2);
    assert_file_contains(CLI_ERR, "rope-turned.txt:2:1: error: Qr: the problem has no such table");
}

/* JSON names the offset and gives the keys' codes (PEkv) apart from the queries'. The
 * expected numbers are Python's math.sin and math.cos of the positions, shortest
 * round-trip text: [sin 3, cos 3] and [sin 4, cos 4] for examples/sinusoidal.txt with
 * --offset 3; [sin 1, cos 1] and [sin 2, cos 2] for the keys of cross-sinusoidal.txt. */
static void test_json_gives_the_offset_and_the_keys_own_codes(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/sinusoidal.txt --offset 3 --format json"), 0);
    assert_file_contains(CLI_OUT, "\"positions\": \"sinusoidal\", \"offset\": 3,\n"
                                  "  \"PE\": [[0.1411200080598672,-0.9899924966004454],"
                                  "[-0.7568024953079282,-0.6536436208636119]],\n");
    assert_int_equal(run("run tests/data/positions/cross-sinusoidal.txt --offset 1 --format json"), 0);
    assert_file_contains(CLI_OUT, "  \"PE\": [[0.8414709848078965,0.5403023058681398]],\n"
                                  "  \"PEkv\": [[0.8414709848078965,0.5403023058681398],"
                                  "[0.9092974268256817,-0.4161468365471424]],\n");
    assert_int_equal(run("run examples/sinusoidal.txt --format json"), 0);
    assert_file_lacks(CLI_OUT, "\"offset\"");
}

/* Issue 29: ALiBi's bias −slope·(i−j) is positive past the diagonal (j > i), so without
 * a mask it raises the scores of far later tokens: run and trace say so, in the user's
 * language, and with the causal mask of alibi.txt say nothing. */
static void test_alibi_without_a_mask_is_warned_about(void **state)
{
    static const struct {
        const char *args, *says;
    } note[] = {
        {"run --mask none examples/alibi.txt", "attnstep: 注意：ALiBi加的偏置−slope·(i−j)在j>i时是"
         "正的，mask: none时位置越靠后、离得越远的Token反而得分越高"},
        {"trace --lang en --mask none examples/alibi.txt", "attnstep: note: ALiBi's bias −slope·(i−j) "
         "is positive for j > i, so with mask: none the farther a later token, the higher its score"},
    };
    size_t k;

    (void)state;
    for (k = 0; k < sizeof note / sizeof note[0]; k++) {
        assert_int_equal(run(note[k].args), 0);
        assert_file_contains(CLI_ERR, note[k].says);
    }
    assert_int_equal(run("run examples/alibi.txt"), 0); /* causal: nothing to say */
    assert_file_lacks(CLI_ERR, "ALiBi");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rope_run_prints_the_turned_queries_and_keys),
        cmocka_unit_test(test_rope_trace_turns_each_pair_by_its_angle),
        cmocka_unit_test(test_rope_trace_with_an_offset_shows_the_same_scores),
        cmocka_unit_test(test_alibi_adds_each_heads_bias_to_the_scores),
        cmocka_unit_test(test_sinusoidal_encoding_is_added_before_the_projections),
        cmocka_unit_test(test_only_picks_the_tables_positions_add),
        cmocka_unit_test(test_a_bad_offset_is_a_usage_error),
        cmocka_unit_test(test_json_gives_the_offset_and_the_keys_own_codes),
        cmocka_unit_test(test_check_counts_the_turn_and_the_bias),
        cmocka_unit_test(test_check_grades_the_tables_positions_add),
        cmocka_unit_test(test_alibi_without_a_mask_is_warned_about),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
