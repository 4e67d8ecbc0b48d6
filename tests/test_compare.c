/* test_compare.c - controlled comparisons (SPEC §8): the chapter's two, against
 * examples/f11.txt. Expected changes are hand calculations from the chapter's numbers:
 * doubling Wv doubles V = [[10,0],[0,20]] and O = [[10,0],[6.6976…,6.6047…]]; the
 * changed Wq gives Q = [[0,2],[1,-1]] and row 1's scores [1,-1]/√2, whose shares
 * 1/(1+e^-√2) = 0.8044296825 were checked with Python's math module. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_compare.out"
#define CLI_ERR "build/tests/test_compare.err"
#include "attnstep/session.h"
#include "attnstep/compare.h"
#include "cli_util.h"
#include "test_util.h"

/* ---- helpers ---- */

/* Opens an input as `run` would, with --mask when mask is not AS_MASK_DEFAULT. */
static void open_with(as_session *s, const char *path, as_mask_kind mask)
{
    as_session_opts o = {.mask = mask};
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_session_open(s, path, &o, &err) != 0)
        fail_msg("%s: %s", path, err.msg);
}

static const as_table_diff *table(const as_comparison *c, const char *name)
{
    size_t i;

    for (i = 0; i < c->count; i++)
        if (strcmp(c->table[i].name, name) == 0)
            return &c->table[i];
    fail_msg("no table %s", name);
    return NULL;
}

/* changed: a string of the tables, in the order Q K V QKT S A O, that must change. */
static void assert_changes(const as_comparison *c, const char *changed)
{
    static const char *const names[] = {"Q", "K", "V", "QKT", "S", "A", "O"};
    size_t i;

    assert_int_equal(c->count, 7);
    for (i = 0; i < 7; i++) {
        const int want = strchr(changed, "QKVTSAO"[i]) != NULL;
        if (table(c, names[i])->changed != want)
            fail_msg("%s: changed is %d, expected %d", names[i], !want, want);
    }
}

static void compare_files(as_comparison *c, as_session *b, as_session *v, const char *variant)
{
    open_with(b, "examples/f11.txt", AS_MASK_DEFAULT);
    open_with(v, variant, AS_MASK_DEFAULT);
    assert_int_equal(as_compare(c, &b->p, &b->t, &v->p, &v->t), 0);
}

/* Compares examples/f11.txt with variant: only input differs, and the tables in changes
 * (see assert_changes) change, for the reason given. */
static void assert_comparison(as_comparison *c, as_session *b, as_session *v,
                              const char *variant, const char *input, const char *changes,
                              as_msg why)
{
    compare_files(c, b, v, variant);
    assert_int_equal(c->ninputs, 1);
    assert_string_equal(c->inputs[0], input);
    assert_changes(c, changes);
    assert_int_equal(c->reason, why);
}

static void done(as_comparison *c, as_session *b, as_session *v)
{
    as_comparison_free(c);
    as_session_free(b);
    as_session_free(v);
}

/* ---- tests ---- */

static void test_changing_only_wv_changes_v_and_o(void **state)
{
    as_session b, v;
    as_comparison c;

    (void)state;
    /* Q, K, QKᵀ, S, A unchanged: the shares stay */
    assert_comparison(&c, &b, &v, "examples/f11-change-wv.txt", "Wv", "VO", AS_MSG_WHY_VALUE);
    assert_close(table(&c, "V")->max_abs_diff, 20, 0);  /* V[1][1]: 20 -> 40 */
    assert_close(table(&c, "O")->max_abs_diff, 10, 0);  /* O[0][0]: 10 -> 20 */
    assert_close(table(&c, "A")->max_abs_diff, 0, 0);
    done(&c, &b, &v);
}

static void test_changing_only_wq_changes_scores_shares_and_output(void **state)
{
    as_session b, v;
    as_comparison c;

    (void)state;
    /* K and V unchanged */
    assert_comparison(&c, &b, &v, "examples/f11-change-wq.txt", "Wq", "QTSAO", AS_MSG_WHY_SCORE);
    assert_close(table(&c, "Q")->max_abs_diff, 1, 0);
    assert_close(table(&c, "S")->max_abs_diff, 0.70710678118654752, 1e-15); /* 0 -> -1/√2 */
    assert_close(table(&c, "A")->max_abs_diff, 0.13466813318030002, 1e-12);
    assert_close(table(&c, "O")->max_abs_diff, 2.6933626636060004, 1e-11);
    done(&c, &b, &v);
}

static void test_a_file_against_itself_changes_nothing(void **state)
{
    as_session b, v;
    as_comparison c;

    (void)state;
    compare_files(&c, &b, &v, "examples/f11.txt");
    assert_int_equal(c.ninputs, 0);
    assert_changes(&c, "");
    assert_int_equal(c.reason, AS_MSG_COUNT);
    done(&c, &b, &v);
}

static void test_lifting_the_mask_changes_s_a_o_but_not_the_scores(void **state)
{
    as_session b, v;
    as_comparison c;

    (void)state;
    open_with(&b, "examples/f11.txt", AS_MASK_DEFAULT);
    open_with(&v, "examples/f11.txt", AS_MASK_NONE); /* as --mask none */
    assert_int_equal(as_compare(&c, &b.p, &b.t, &v.p, &v.t), 0);
    assert_int_equal(c.ninputs, 1);
    assert_string_equal(c.inputs[0], "mask");
    assert_changes(&c, "SAO");
    /* S[0][1] goes from −∞ to 1/√2: no finite difference */
    assert_true(isinf(table(&c, "S")->max_abs_diff));
    /* its own reason: a mask decides what is readable, never the raw scores */
    assert_int_equal(c.reason, AS_MSG_WHY_MASK);
    done(&c, &b, &v);
}

static void test_changing_only_the_scale_changes_s_but_not_the_scores(void **state)
{
    as_session b, v;
    as_comparison c;

    (void)state;
    /* scale 1: row 1's scores stay [1,0] undivided, so A's row 1 is softmax([1,0]) =
     * [e/(e+1), 1/(e+1)] = [0.7310585786, 0.2689414214] (by hand) instead of the chapter's
     * [0.6697615493, 0.3302384507]: A moves by 0.0612970293 */
    assert_comparison(&c, &b, &v, "tests/data/compare/f11-scale-1.txt", "scale", "SAO",
                      AS_MSG_WHY_SCALE);
    assert_close(table(&c, "S")->max_abs_diff, 1 - 0.70710678118654752, 1e-15);
    assert_close(table(&c, "A")->max_abs_diff, 0.7310585786300049 - 0.6697615493266569, 1e-12);
    assert_close(table(&c, "QKT")->max_abs_diff, 0, 0);
    done(&c, &b, &v);
}

/* Offset of want in the last output (failing when it is not there). */
static long offset_of(const char *want)
{
    char *out = slurp(CLI_OUT), *hit;
    long at;

    assert_non_null(out);
    hit = strstr(out, want);
    if (hit == NULL)
        fail_msg("the output lacks \"%s\"; it holds:\n%s", want, out);
    at = hit - out;
    free(out);
    return at;
}

static void test_each_kind_of_change_gets_its_own_sentence_and_its_tables(void **state)
{
    (void)state;
    /* the mask: not "the scores changed" (QKᵀ did not), but what a mask does */
    assert_int_equal(run("compare examples/f11.txt tests/data/compare/f11-mask-none.txt"), 0);
    assert_file_contains(CLI_OUT, "mask变了：S、A和O随之改变，Q、K、V和QKᵀ不变——掩码在缩放之后加到分数上");
    assert_file_lacks(CLI_OUT, "打分变了");
    /* before and after side by side, the shares A first: row 0 now reads the future,
     * [1,0] becomes [1/(1+e^(1/√2)), …] = [0.3302384507, 0.6697615493] (by hand) */
    assert_file_contains(CLI_OUT, "改变前：                                改变后：\n"
                                  "A ≈ [[           1,            0],      "
                                  "A ≈ [[0.3302384507, 0.6697615493],\n");
    assert_true(offset_of("A ≈ [[") < offset_of("S ≈ [["));
    assert_true(offset_of("S ≈ [[") < offset_of("O ≈ [["));
    assert_file_lacks(CLI_OUT, "QKᵀ = [["); /* unchanged tables are not printed */
    /* the scale: it changes S, never QKᵀ */
    assert_int_equal(run("compare --lang en examples/f11.txt tests/data/compare/f11-scale-1.txt"), 0);
    assert_file_contains(CLI_OUT, "scale changed: S, A and O changed with it, while Q, K, V and "
                                  "QKᵀ stayed the same — the scale multiplies the raw scores QKᵀ "
                                  "once they are made: it changes S, never QKᵀ.");
    assert_file_contains(CLI_OUT, "before:                                 after:\n"
                                  "A ≈ [[           1,            0],      "
                                  "A ≈ [[           1,            0],\n");
    assert_file_contains(CLI_OUT, "[0.7310585786, 0.2689414214]]");
    /* Wv: V and O before and after; the shares stay, so no A */
    assert_int_equal(run("compare --lang en examples/f11.txt examples/f11-change-wv.txt"), 0);
    assert_file_contains(CLI_OUT, "V = [[10, 0],      V = [[20, 0],\n");
    assert_file_lacks(CLI_OUT, "A ≈ [[");
    assert_true(offset_of("V = [[") < offset_of("O ≈ [["));
}

static void test_compare_command_text_and_json(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("compare examples/f11.txt examples/f11-change-wv.txt --format json"), 0);
    out = slurp(CLI_OUT);
    assert_string_equal(out, "{\"inputs_changed\": [\"Wv\"], \"tables\": {"
                             "\"Q\": {\"changed\": false, \"max_abs_diff\": 0}, "
                             "\"K\": {\"changed\": false, \"max_abs_diff\": 0}, "
                             "\"V\": {\"changed\": true, \"max_abs_diff\": 20}, "
                             "\"QKT\": {\"changed\": false, \"max_abs_diff\": 0}, "
                             "\"S\": {\"changed\": false, \"max_abs_diff\": 0}, "
                             "\"A\": {\"changed\": false, \"max_abs_diff\": 0}, "
                             "\"O\": {\"changed\": true, \"max_abs_diff\": 10}}}\n");
    free(out);
    assert_int_equal(run("compare examples/f11.txt examples/f11-change-wv.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "inputs changed: Wv");
    assert_file_contains(CLI_OUT, "V and O changed with it, while Q, K, QKᵀ, S and A stayed "
                                  "the same");
    assert_int_equal(run("compare examples/f11.txt examples/f11-change-wq.txt"), 0);
    assert_file_contains(CLI_OUT, "Wq变了：Q、QKᵀ、S、A和O随之改变，K和V不变");
    assert_int_equal(run("compare examples/f11.txt"), 2);
    assert_int_equal(run("compare examples/f11.txt examples/f11-change-wq.txt --format md"), 2);
}

/* A head the variant lacks is named as missing, not as a table of shape [0,0]; Wo
 * alone changes O alone; labels alone change no number. Hand calculations in the
 * variants' comments. */
static void test_heads_wo_and_labels_each_get_their_sentence(void **state)
{
    (void)state;
    assert_int_equal(run("compare --lang en examples/two-heads.txt "
                         "tests/data/compare/two-heads-one-head.txt"), 0);
    assert_file_contains(CLI_OUT, "inputs changed: heads\n");
    assert_file_contains(CLI_OUT, "QKᵀ_h0: changed, by at most 2\nS_h0: changed, by at most 0.5\n");
    assert_file_contains(CLI_OUT, "QKᵀ_h1: not in the variant (it has fewer heads)\n");
    assert_file_contains(CLI_OUT, "O_h1: not in the variant (it has fewer heads)\n");
    assert_file_lacks(CLI_OUT, "[0,0]");
    assert_int_equal(run("compare examples/two-heads.txt tests/data/compare/two-heads-one-head.txt"), 0);
    assert_file_contains(CLI_OUT, "QKᵀ_h1：变体里没有这张表（变体的头更少）\n");
    assert_int_equal(run("compare --lang en examples/two-heads.txt "
                         "tests/data/compare/two-heads-wo.txt"), 0);
    assert_file_contains(CLI_OUT, "C: unchanged\nO: changed, by at most 0.3758724609\n");
    assert_file_contains(CLI_OUT, "Wo changed: O changed with it, while Q, K, V, QKᵀ_h0, S_h0, "
                                  "A_h0, O_h0, QKᵀ_h1, S_h1, A_h1, O_h1 and C stayed the same — "
                                  "the output projection Wo is used only after the heads' "
                                  "outputs are put side by side.");
    assert_int_equal(run("compare --lang en examples/cross-translation.txt "
                         "tests/data/compare/cross-kv-tokens.txt"), 0);
    assert_file_contains(CLI_OUT, "inputs changed: kv_tokens\n");
    assert_file_contains(CLI_OUT, "kv_tokens changed, but no number changed with it.");
    assert_int_equal(run("compare --lang en examples/f11.txt examples/f11.txt"), 0);
    assert_file_contains(CLI_OUT, "The two inputs are the same, so every table is the same.");
}

/* Standard input can be read once: compare - - is a usage error, before any work. */
static void test_both_inputs_from_standard_input_is_refused(void **state)
{
    (void)state;
    assert_int_equal(run("compare - - --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "standard input");
    assert_int_equal(run("compare build/tests/no-such-base.txt examples/f11.txt --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "no-such-base.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_changing_only_wv_changes_v_and_o),
        cmocka_unit_test(test_changing_only_wq_changes_scores_shares_and_output),
        cmocka_unit_test(test_a_file_against_itself_changes_nothing),
        cmocka_unit_test(test_lifting_the_mask_changes_s_a_o_but_not_the_scores),
        cmocka_unit_test(test_compare_command_text_and_json),
        cmocka_unit_test(test_changing_only_the_scale_changes_s_but_not_the_scores),
        cmocka_unit_test(test_each_kind_of_change_gets_its_own_sentence_and_its_tables),
        cmocka_unit_test(test_heads_wo_and_labels_each_get_their_sentence),
        cmocka_unit_test(test_both_inputs_from_standard_input_is_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
