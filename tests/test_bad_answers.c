/* test_bad_answers.c - bad ANSWERS files, read by the one matrix grammar (issue 11).
 *
 * The corpus tests/bad-answers/ has the form of tests/bad/: each NAME there with its
 * NAME.zh.expect and NAME.en.expect is one case, run as `attnstep check
 * examples/f11.txt tests/bad-answers/NAME` (and with --lang en), which must refuse it
 * with exit status 2, exactly that message (`attnstep: FILE:LINE:COL: 错误：...` and
 * the hint), and nothing on standard output. The expectations were written by running
 * the binary once and checking each message and its position by hand.
 *
 * And one bad matrix gives the same error, at the same line and column with the same
 * message and hint, in an input file and in an ANSWERS file: there is one grammar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/answers.h"
#include "attnstep/parse.h"
#define CLI_OUT "build/tests/bad_answers.out" /* its own: make valgrind runs tests side by side */
#define CLI_ERR "build/tests/bad_answers.err"
#include "cli_util.h"

#define CORPUS "tests/bad-answers"

/* Each case of the corpus in both languages; returns how many cases ran. */
static size_t run_corpus(void)
{
    static const char *const lang[2][2] = {{"zh", ""}, {"en", "--lang en "}};
    char args[1024], expect[1024];
    DIR *d = opendir(CORPUS);
    struct dirent *e;
    size_t cases = 0, l;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".expect") != NULL)
            continue;
        for (l = 0; l < 2; l++) {
            char *want, *got, *out;
            snprintf(args, sizeof args, "check %sexamples/f11.txt " CORPUS "/%s", lang[l][1],
                     e->d_name);
            snprintf(expect, sizeof expect, CORPUS "/%s.%s.expect", e->d_name, lang[l][0]);
            assert_int_equal(run(args), 2);
            want = slurp(expect);
            got = slurp(CLI_ERR);
            out = slurp(CLI_OUT);
            assert_non_null(want);
            assert_non_null(got);
            if (strcmp(want, got) != 0)
                fail_msg("attnstep %s\nwanted: %sgot:    %s", args, want, got);
            assert_string_equal(out, "");
            free(want);
            free(got);
            free(out);
        }
        cases++;
    }
    closedir(d);
    return cases;
}

static void test_every_bad_answers_file_is_refused_with_its_message(void **state)
{
    (void)state;
    assert_true(run_corpus() >= 12);
}

/* The error of one text read as an input file and as an ANSWERS file. */
static void both_errors(const char *text, as_error *in_err, as_error *ans_err)
{
    as_input in;
    as_answers a;

    as_error_clear(in_err);
    as_error_clear(ans_err);
    assert_int_equal(as_parse_text(&in, text, strlen(text), "in.txt", in_err), -1);
    assert_int_equal(as_answers_parse(&a, text, strlen(text), "answers.txt", ans_err), -1);
}

static void test_one_bad_matrix_gets_one_message_in_inputs_and_answers(void **state)
{
    /* M: a name both files take (the input's mask, an answer's name kept as written);
     * each error comes before either file's own checks */
    static const char *const bad[] = {
        "M = [[,0,1],[1,0,]]\n", /* check's old reader accepted this one */
        "M = [[1, 2], [3]]\n",
        "M = [[1, 2],\n     [3, 4, 5]]\n",
        "M = [[1, 2], []]\n",
        "M = []\n",
        "M = [[1, x]]\n",
        "M = [[1, 2]\n",
        "M = [[1, 2],\n",
        "M = [[[1]]]\n",
        "M = [[1,, 2]]\n",
        "M = [[1e999]]\n",
        "M = [[1/0]]\n",
        "M = [[nan]]\n",
        "M = [[1, 2]] [[3, 4]]\n",
        "M = [[0, -inf], [0, 0]] # caf\xe9\n",
    };
    as_error a, b;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        both_errors(bad[i], &a, &b);
        if (a.line != b.line || a.col != b.col || strcmp(a.msg, b.msg) != 0 ||
            strcmp(a.hint, b.hint) != 0)
            fail_msg("%s  input:   %d:%d %s (%s)\n  answers: %d:%d %s (%s)", bad[i], a.line,
                     a.col, a.msg, a.hint, b.line, b.col, b.msg, b.hint);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bad_answers_file_is_refused_with_its_message),
        cmocka_unit_test(test_one_bad_matrix_gets_one_message_in_inputs_and_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
