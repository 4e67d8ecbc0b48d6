/* test_class.c - grading a generated class (issue 13, SPEC §6): 54 students written by
 * tests/class_gen.h, each graded by check exactly as the generator says (score, and per
 * table or row: right, credit, the named mistake or the mistakes that fit equally). The
 * generator's expectations come from its own forward pass and the rules of SPEC §6 as it
 * states them; it never calls the grading code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_class.out"
#define CLI_ERR "build/tests/test_class.err"
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "class_roster.h"
#include "cli_util.h"

#define DIR "build/tests/class"
#define PROBLEM "build/tests/class-problem.txt"

static int write_class(void **state)
{
    FILE *f;
    size_t i;

    (void)state;
    if (system("rm -rf " DIR " && mkdir -p " DIR) != 0 || (f = fopen(PROBLEM, "w")) == NULL)
        return -1;
    fputs(gproblem_text, f);
    fclose(f);
    for (i = 0; i < GROSTER; i++)
        if (g_write(DIR, &groster[i], (int)i) != 0)
            return -1;
    return 0;
}

/* "no_mask|inverted_mask" for the mistakes that fit g equally. */
static void fits_of(char *buf, size_t size, const as_table_grade *g)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < g->nfits; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "|" : "",
                                as_diag_code(g->fits[i].diag));
}

/* One student graded by the library against what the generator says. */
static void assert_student(const as_session *s, const gstudent *st)
{
    gexpect e[32];
    as_answers a;
    as_grade g;
    as_error err;
    const as_check_opts o = {-1, 0, NULL, 0};
    char path[256], fits[128], *text;
    double score;
    int n, i;

    snprintf(path, sizeof path, DIR "/%s.txt", st->file);
    text = slurp(path);
    assert_non_null(text);
    as_error_clear(&err);
    assert_int_equal(as_answers_parse(&a, text, strlen(text), path, &err), 0);
    assert_int_equal(as_check_grade(&g, &s->p, &s->t, &a, &o, &err), 0);
    n = g_expect(st, e, &score);
    if ((int)g.count != n || fabs(g.score - score) > 1e-9)
        print_error("%s: %zu answers scored %g, the generator says %d scored %g\n", st->file,
                    g.count, g.score, n, score);
    assert_int_equal(g.count, n);
    for (i = 0; i < n; i++) {
        const as_table_grade *t = &g.table[i];
        const char *code = as_diag_code(t->diagnosis);
        fits_of(fits, sizeof fits, t);
        if (strcmp(t->name, e[i].name) != 0 || t->correct != e[i].correct ||
            t->credit != e[i].credit || (code == NULL) != (e[i].code == NULL) ||
            (code && strcmp(code, e[i].code) != 0) ||
            strcmp(fits, e[i].fits ? e[i].fits : "") != 0) {
            print_error("%s %s: check says correct %d credit %d %s [%s]; the generator says "
                        "%s correct %d credit %d %s [%s]\n", st->file, t->name, t->correct,
                        t->credit, code ? code : "-", fits, e[i].name, e[i].correct,
                        e[i].credit, e[i].code ? e[i].code : "-", e[i].fits ? e[i].fits : "");
            fail();
        }
    }
    assert_true(fabs(g.score - score) <= 1e-9);
    assert_int_equal(g.nmarks, GKINDS); /* the same maximum for every student */
    as_grade_free(&g);
    as_answers_free(&a);
    free(text);
}

static void test_every_student_is_graded_as_the_generator_says(void **state)
{
    as_session s;
    as_error err;
    size_t i;

    (void)state;
    as_error_clear(&err);
    assert_int_equal(as_session_open(&s, PROBLEM, &(as_session_opts){0}, &err), 0);
    assert_true(GROSTER >= 40);
    for (i = 0; i < GROSTER; i++)
        if (!groster[i].unreadable)
            assert_student(&s, &groster[i]);
    as_session_free(&s);
}

static void assert_string_equal_prefix(const char *got, const char *want)
{
    if (strncmp(got, want, strlen(want)) != 0) {
        print_error("got %.*s\nwant %s\n", (int)strlen(want), got, want);
        fail();
    }
}

/* The gradebook row of a student: "name,score,max,". */
static void assert_gradebook_row(const char *csv, const gstudent *st)
{
    gexpect e[32];
    char row[256], mark[32];
    double score;
    size_t len;

    (void)g_expect(st, e, &score);
    snprintf(mark, sizeof mark, "%.2f", score); /* at most 2 decimals, no trailing zeros */
    for (len = strlen(mark); mark[len - 1] == '0'; len--)
        mark[len - 1] = '\0';
    if (mark[len - 1] == '.')
        mark[len - 1] = '\0';
    if (st->unreadable)
        snprintf(row, sizeof row, "\r\n%s,,,", st->file);
    else
        snprintf(row, sizeof row, "\r\n%s,%s,%d,", st->name ? st->name : st->file, mark, GKINDS);
    if (strstr(csv, row) == NULL) {
        print_error("the gradebook has no row starting %s\n", row + 2);
        fail();
    }
}

static void test_the_class_directory_gives_a_gradebook_and_names_the_unreadable_file(void **state)
{
    char *csv, *err;
    size_t i;

    (void)state;
    assert_int_equal(run("check " PROBLEM " " DIR " --format csv"), 2);
    csv = slurp(CLI_OUT);
    err = slurp(CLI_ERR);
    assert_non_null(csv);
    assert_non_null(err);
    /* a BOM, then the columns: the tables the problem asks, in the book's order (rows
     * are shares of their table's column) */
    assert_string_equal_prefix(csv, "\xef\xbb\xbfstudent,score,max,Q,K,V,QKT,S,A,O,mistakes\r\n");
    for (i = 0; i < GROSTER; i++)
        assert_gradebook_row(csv, &groster[i]);
    /* the cut-off file: its last line holds an O that is never closed (at its first "[") */
    assert_non_null(strstr(err, DIR "/s46_unreadable.txt:23:5:"));
    free(csv);
    free(err);
}

/* The JSON summary counts each named mistake once per student who made it. */
static void test_the_summary_counts_students_per_mistake(void **state)
{
    static const char *const codes[] = {"no_scale", "scale_multiplied", "scale_by_dk", "no_mask",
                                        "masked_zero", "inverted_mask", "mask_after_softmax",
                                        "no_normalize", "softmax_columns", "transposed",
                                        "keys_for_values", "wrong_weights", "torch_layout"};
    char *json, want[64];
    size_t i, j, c;

    (void)state;
    assert_int_equal(run("check " PROBLEM " " DIR " --format json"), 2);
    json = slurp(CLI_OUT);
    assert_non_null(json);
    for (c = 0; c < sizeof codes / sizeof codes[0]; c++) {
        int made = 0;
        for (i = 0; i < GROSTER; i++) {
            gexpect e[32];
            double score;
            int n = groster[i].unreadable ? 0 : g_expect(&groster[i], e, &score), hit = 0;
            for (j = 0; j < (size_t)n; j++)
                hit |= e[j].code != NULL && strcmp(e[j].code, codes[c]) == 0;
            made += hit;
        }
        snprintf(want, sizeof want, "\"%s\": %d", codes[c], made);
        if (made > 0 && strstr(strstr(json, "\"summary\""), want) == NULL) {
            print_error("the summary lacks %s\n", want);
            fail();
        }
    }
    assert_non_null(strstr(json, "\"summary\": {\"students\": 53,"));
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_student_is_graded_as_the_generator_says),
        cmocka_unit_test(test_the_class_directory_gives_a_gradebook_and_names_the_unreadable_file),
        cmocka_unit_test(test_the_summary_counts_students_per_mistake),
    };

    return cmocka_run_group_tests(tests, write_class, NULL);
}
