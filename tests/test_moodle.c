/* test_moodle.c - the Moodle export (SPEC §7): GIFT that keeps the GIFT grammar (checked
 * by a small parser of the test's own, after Moodle's documentation of the format), and
 * Moodle XML that is well-formed (xmllint, when it is installed) with one Cloze question
 * per exercise and one NUMERICAL blank per cell to fill. The numbers of F11 come from the
 * chapter (A's last row 0.6697615493, 0.3302384507; O's 6.6976154933); the mistakes'
 * values by hand: no_scale leaves S[1][0] = QKᵀ[1][0] = 1, and softmax([1, 0]) gives
 * e/(e+1) = 0.7310585786; scale_multiplied gives S[1][0] = √2 = 1.4142135624. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_moodle.out"
#define CLI_ERR "build/tests/test_moodle.err"
#include "cli_util.h"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;

    for (; (s = strstr(s, what)) != NULL; s++)
        n++;
    return n;
}

/* ---- a GIFT reader after Moodle's documentation ---- */

/* Moves past the text up to the first unescaped character of stops; returns it, or
 * '\0' at the end. A backslash escapes the next character. */
static char skip_to(const char **p, const char *stops)
{
    for (; **p; (*p)++) {
        if (**p == '\\' && (*p)[1] != '\0') {
            (*p)++;
            continue;
        }
        if (strchr(stops, **p) != NULL)
            return **p;
    }
    return '\0';
}

/* A number as GIFT writes it: optional minus, digits, optional fraction and exponent. */
static int number(const char **p)
{
    char *end;

    strtod(*p, &end);
    if (end == *p)
        return 0;
    *p = end;
    return 1;
}

/* "#" then answers "=[%n%]value:tolerance[#feedback]" until "}"; the first without a
 * percentage (full credit), the others %0%. Returns the number of answers, -1 when the
 * grammar is broken. */
static int numerical(const char **p)
{
    int n = 0;

    if (**p != '#')
        return -1;
    (*p)++;
    while (**p == ' ' || **p == '\n')
        (*p)++;
    while (**p == '=') {
        (*p)++;
        if (n > 0 && strncmp(*p, "%0%", 3) != 0)
            return -1;
        if (n > 0)
            *p += 3;
        if (!number(p) || **p != ':' || (++*p, !number(p)))
            return -1;
        if (**p == '#') {
            (*p)++;
            if (skip_to(p, "=}~{") != '=' && **p != '}')
                return -1;
        }
        while (**p == ' ')
            (*p)++;
        n++;
    }
    return **p == '}' ? n : -1;
}

/* One question: "::title::[html]text{answers}". Returns its answers (0: a description),
 * -1 when broken. */
static int question(const char *q)
{
    const char *p = q;
    int n;

    if (strncmp(p, "::", 2) != 0)
        return -1;
    p += 2;
    if (skip_to(&p, ":") != ':' || p[1] != ':')
        return -1;
    p += 2;
    if (strncmp(p, "[html]", 6) != 0)
        return -1;
    p += 6;
    if (skip_to(&p, "{}~=#:") != '{')
        return -1; /* every special character of the text is escaped */
    p++;
    n = *p == '}' ? 0 : numerical(&p);
    if (n < 0)
        return -1;
    p++;
    while (*p == ' ' || *p == '\n')
        p++;
    return *p == '\0' ? n : -1;
}

/* Checks the whole GIFT text: comments, categories, and questions apart by blank lines.
 * Returns the numerical questions; *described counts the descriptions. */
static size_t gift_questions(char *text, size_t *described)
{
    size_t numeric = 0;
    char *q = text, *end;

    *described = 0;
    while (*q) {
        end = strstr(q, "\n\n");
        if (end != NULL)
            *end = '\0';
        if (strncmp(q, "//", 2) != 0 && strncmp(q, "$CATEGORY:", 10) != 0 && *q != '\0') {
            const int n = question(q);
            if (n < 0) {
                print_error("not GIFT: %.200s\n", q);
                fail();
            }
            if (n == 0)
                (*described)++;
            else
                numeric++;
        } else if (strncmp(q, "//", 2) == 0 && strchr(q, '\n') != NULL) {
            /* a comment line and a category after it */
            assert_int_equal(strncmp(strchr(q, '\n') + 1, "$CATEGORY: ", 11), 0);
        }
        if (end == NULL)
            break;
        q = end + 2;
    }
    return numeric;
}

/* ---- tests ---- */

/* F11 asks 4 cells each of Q, K, V, QKᵀ and O, and 3 each of S and A (one is masked). */
#define F11_CELLS (5 * 4 + 2 * 3)

static void test_gift_keeps_the_grammar_and_asks_every_cell(void **state)
{
    char *out;
    size_t described;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --format gift"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_non_null(strstr(out, "=0.6697615493266569:0.005#正确。"));
    assert_non_null(strstr(out, " =%0%0.7310585786300049:0.005#不对（no_scale）"));
    assert_int_equal(gift_questions(out, &described), F11_CELLS);
    assert_int_equal(described, 1);
    free(out);
}

static void test_moodle_xml_is_one_cloze_question_with_a_blank_per_cell(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --format moodle --lang en"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_int_equal(strncmp(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39), 0);
    assert_int_equal(count(out, "<question type=\"cloze\">"), 1);
    assert_int_equal(count(out, "{1:NUMERICAL:="), F11_CELLS);
    /* S[1][0]: 1/√2, with no_scale's 1 and scale_multiplied's √2 as 0% answers */
    assert_non_null(strstr(out, "{1:NUMERICAL:=0.7071067811865476:0.005#Right.~%0%1:0.005#Not right "
                                "(no_scale)"));
    assert_non_null(strstr(out, "~%0%1.4142135623730951:0.005#Not right (scale_multiplied)"));
    /* A[1][0] and O[1][0] as the chapter prints them */
    assert_non_null(strstr(out, "{1:NUMERICAL:=0.6697615493266569:0.005#Right.~%0%0.7310585786300049:"
                                "0.005#Not right (no_scale)"));
    assert_non_null(strstr(out, "=6.697615493266569:0.005#Right."));
    /* the masked cells are shown, not asked */
    assert_non_null(strstr(out, "<td>\xe2\x88\x92\xe2\x88\x9e</td>"));
    free(out);
    if (system("command -v xmllint >/dev/null 2>&1") == 0)
        assert_int_equal(system("xmllint --noout " CLI_OUT), 0);
}

static void test_tolerance_follows_digits(void **state)
{
    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --format moodle --digits 3"), 0);
    assert_file_contains(CLI_OUT, "=0.6697615493266569:0.0005#");
}

static void test_a_class_exports_a_question_per_student(void **state)
{
    char *out;
    size_t described;

    (void)state;
    assert_int_equal(run("exercise --seed 9 --class tests/data/sheet/roster.txt --format moodle"),
                     0);
    out = slurp(CLI_OUT);
    assert_int_equal(count(out, "<question type=\"cloze\">"), 4);
    assert_non_null(strstr(out, "张三"));
    free(out);
    if (system("command -v xmllint >/dev/null 2>&1") == 0)
        assert_int_equal(system("xmllint --noout " CLI_OUT), 0);
    assert_int_equal(run("exercise --seed 9 --level 3 --tokens 4 --format gift --step softmax"), 0);
    out = slurp(CLI_OUT);
    assert_int_equal(gift_questions(out, &described), 4 * 4 - 6); /* A's 10 readable cells */
    free(out);
}

/* The window rule is stated with its width (examples/window.txt: mask: window 2, so a
 * position reads itself and one before it), and a title is text, escaped as XML
 * escapes &, <, > and " (XML 1.0 §2.4), so the file stays well-formed. */
static void test_the_window_rule_is_said_and_a_title_is_escaped(void **state)
{
    (void)state;
    assert_int_equal(run("sheet examples/window.txt --format moodle --lang en"), 0);
    assert_file_contains(CLI_OUT, "A sliding window of 2 applies: a position reads itself and the "
                                  "positions up to 1 before it, and nothing earlier.");
    assert_int_equal(run("sheet examples/window.txt --format moodle"), 0);
    assert_file_contains(CLI_OUT, "本例使用滑动窗口读取规则（窗口宽2）：当前位置能读自己和它前面的1个"
                                  "位置，更早的位置读不到。");
    assert_int_equal(run("sheet tests/data/cli/markup.txt --format moodle --lang en"), 0);
    assert_file_contains(CLI_OUT, "<name><text>attnstep Q &amp; A &lt;1&gt; &quot;quoted&quot; "
                                  "back\\slash | *star*</text></name>");
    if (system("command -v xmllint >/dev/null 2>&1") == 0)
        assert_int_equal(system("xmllint --noout " CLI_OUT), 0);
}

/* The head's drill (SPEC §19) on examples/head.txt: h = [2, 1, 0] (one token, identity
 * weights), logits [2, 1, 0], softmax 0.6652, 0.2447, 0.0900 (SPEC §19's numbers); top-p
 * 0.9 keeps tokens 0 and 1 (0.6652 < 0.9 <= 0.9100), renormalised e/(e+1) =
 * 0.7310585786 and 0.2689414214; without the crossing token (topp_drops_crossing) token
 * 0 alone, 1. The draw's u = 0.7416 is past 0.7311: token 1. With top_k: 2 and no
 * sample the same two are kept and the greedy choice is token 0. */
static void test_the_head_drill_asks_probs_and_the_token_drawn(void **state)
{
    char *f;

    (void)state;
    assert_int_equal(run("sheet examples/head.txt --step sample --format moodle --lang en"), 0);
    assert_file_contains(CLI_OUT, "{1:NUMERICAL:=0.7310585786300049:0.005#Right.~%0%1:0.005#Not right "
                                  "(topp_drops_crossing)");
    assert_file_contains(CLI_OUT, "{1:NUMERICAL:=0.2689414213699951:0.005#Right.~%0%0:0.005#Not right "
                                  "(topp_drops_crossing)");
    assert_file_contains(CLI_OUT, "The cut is top-p: sort the probabilities from the largest down and "
                                  "add them up; keep the fewest tokens whose sum reaches 0.9");
    assert_file_contains(CLI_OUT, "the random number is u = 0.7416;");
    assert_file_contains(CLI_OUT, "<p>Token drawn (its number): {1:NUMERICAL:=1:0#Right.}</p>");
    assert_non_null(f = slurp("examples/head.txt"));
    *strstr(f, "top_p: 0.9") = '\0'; /* the cut and the draw left out */
    write_text("build/tests/moodle-head-topk.txt", f);
    free(f);
    assert_int_equal(system("echo 'top_k: 2' >> build/tests/moodle-head-topk.txt"), 0);
    assert_int_equal(run("sheet build/tests/moodle-head-topk.txt --step sample --format gift --lang en"), 0);
    assert_file_contains(CLI_OUT, "The cut is top-k\\: keep the 2 largest, the others get 0. Then "
                                  "choose the next token greedily\\: the most likely one");
    assert_file_contains(CLI_OUT, "probs[0][0]::");
    assert_file_contains(CLI_OUT, "{#=0.7310585786300049:0.005#Right.}");
    assert_file_contains(CLI_OUT, "<p>Token drawn (its number)\\: </p>{#=0:0#Right.}");
}

/* The reading rule a quiz states is the input's: its own mask M (the padding example),
 * or none at all (F11 with mask: none), with no word of masked cells then. */
static void test_a_quiz_states_the_inputs_own_reading_rule(void **state)
{
    (void)state;
    assert_int_equal(run("sheet examples/padding-mask.txt --format moodle --lang en"), 0);
    assert_file_contains(CLI_OUT, " Where the mask forbids reading, S holds \xe2\x88\x92\xe2\x88\x9e and A "
                                  "holds 0. The mask M comes from the input: a cell of M that is "
                                  "\xe2\x88\x92\xe2\x88\x9e may not be read; the others are added to the "
                                  "scaled scores.");
    assert_int_equal(system("sed 's/^mask: causal$/mask: none/' examples/f11.txt > "
                            "build/tests/moodle-no-mask.txt"), 0);
    assert_int_equal(run("sheet build/tests/moodle-no-mask.txt --format moodle --lang en"), 0);
    assert_file_contains(CLI_OUT, "each row adds up to 1. There is no mask: every position reads every "
                                  "position.");
    assert_file_lacks(CLI_OUT, "Where the mask forbids reading");
}

/* Two heads with Wo (examples/two-heads.txt, 3 tokens, causal): the quiz asks every cell
 * once, by hand 111: Q, K, V 3 x 4 each (36); per head QKᵀ 9, the 6 readable cells of S
 * and of A, and the head's O 3 x 2 (27, twice); C 3 x 4 and O 3 x 3 (21). S₀[0][0] by
 * hand: q = k = [2, 0], 4/√2 = 2.8284271247, with no_scale 4, scale_multiplied 4√2,
 * scale_by_dk 4/2 and wrong_weights (Q from Wv: [1, 1] · [2, 0] / √2 = √2) as 0%. */
static void test_a_two_head_quiz_asks_each_heads_cells_once(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/two-heads.txt --format moodle --lang en"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_int_equal(count(out, "{1:NUMERICAL:="), 111);
    assert_non_null(strstr(out, "<p>Compute Q, K, V, QK\xe1\xb5\x80, S, A, C and O and write them"));
    assert_non_null(strstr(out, "{1:NUMERICAL:=2.8284271247461903:0.005#Right.~%0%4:0.005#Not right "
                                "(no_scale)"));
    assert_non_null(strstr(out, "~%0%5.656854249492381:0.005#Not right (scale_multiplied)"));
    assert_non_null(strstr(out, "~%0%2:0.005#Not right (scale_by_dk)"));
    assert_non_null(strstr(out, "~%0%1.4142135623730951:0.005#Not right (wrong_weights)"));
    free(out);
    if (system("command -v xmllint >/dev/null 2>&1") == 0)
        assert_int_equal(system("xmllint --noout " CLI_OUT), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gift_keeps_the_grammar_and_asks_every_cell),
        cmocka_unit_test(test_moodle_xml_is_one_cloze_question_with_a_blank_per_cell),
        cmocka_unit_test(test_tolerance_follows_digits),
        cmocka_unit_test(test_the_head_drill_asks_probs_and_the_token_drawn),
        cmocka_unit_test(test_a_quiz_states_the_inputs_own_reading_rule),
        cmocka_unit_test(test_a_two_head_quiz_asks_each_heads_cells_once),
        cmocka_unit_test(test_a_class_exports_a_question_per_student),
        cmocka_unit_test(test_the_window_rule_is_said_and_a_title_is_escaped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
