/* test_oracle.c - a class of 48 over the 3 levels marked by `check --class` exactly as a
 * careful teacher marks it (issue 28's "done when"): `exercise --class ROSTER -o DIR`
 * at levels 1, 2 and 3 (16 students each), every student handing in the answers of one
 * of issue 28's 24 profiles (right at 2 and 4 places, full precision written at 4 and 12
 * places, each named mistake, slips that propagate, blank, only Q/K/V, only rows, an
 * extra E, a copied key), each profile at two levels. The marks expected come from
 * tests/oracle.h, whose forward pass and rules are its own; only the problem's numbers
 * are read with the library's reader (the numbers are the input, not the expectation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_oracle.out"
#define CLI_ERR "build/tests/test_oracle.err"
#include "attnstep/session.h"
#include "cli_util.h"
#include "oracle.h"

#define DIR "build/tests/oracle"
#define PER_CLASS 16

typedef struct pupil {
    char name[64];
    oprob p;
    ostudent s;
    omark m;
} pupil;

/* Problem file path into an oprob, read with the library's reader. */
static void read_problem(oprob *o, const char *path)
{
    as_session s;
    as_error err;
    const as_matrix *w[3];
    size_t i, k;

    as_error_clear(&err);
    assert_int_equal(as_session_open(&s, path, &(as_session_opts){0}, &err), 0);
    w[0] = s.p.Wq, w[1] = s.p.Wk, w[2] = s.p.Wv;
    memset(o, 0, sizeof *o);
    o->n = (int)s.p.X->rows, o->dm = (int)s.p.X->cols;
    o->dk = (int)w[0]->cols, o->dv = (int)w[2]->cols;
    o->causal = s.p.mask == AS_MASK_CAUSAL;
    assert_true(s.p.mask == AS_MASK_CAUSAL || s.p.mask == AS_MASK_NONE);
    assert_true(o->n <= O_MAXN && o->dm <= O_MAXD && o->dk <= O_MAXD && o->dv <= O_MAXD);
    for (i = 0; i < s.p.X->rows * s.p.X->cols; i++)
        o->X[i] = s.p.X->v[i];
    for (k = 0; k < 3; k++)
        for (i = 0; i < w[k]->rows * w[k]->cols; i++)
            o->W[k][i] = w[k]->v[i];
    as_session_free(&s);
}

/* One class: the sheets at `level`, the students' answers, and what the oracle says
 * each earns. first: the class's first student in the whole class of 48. */
static void make_class(pupil *pp, int level, int first)
{
    char cmd[1024], path[512], line[512];
    FILE *f;
    int i;

    snprintf(cmd, sizeof cmd, "rm -rf " DIR "/L%d && mkdir -p " DIR "/L%d/answers", level, level);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, DIR "/L%d/roster.txt", level);
    f = fopen(path, "w");
    assert_non_null(f);
    for (i = 0; i < PER_CLASS; i++)
        fprintf(f, "%s%d\n", i % 2 ? "学生" : "student ", first + i);
    fclose(f);
    snprintf(cmd, sizeof cmd, "exercise --seed %d --level %d --tokens %d --class %s -o " DIR
             "/L%d", 70 + level, level, level + 2, path, level); /* 3, 4 and 5 tokens */
    assert_int_equal(run(cmd), 0);
    snprintf(path, sizeof path, DIR "/L%d/teacher/class.tsv", level);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f)); /* the header */
    for (i = 0; i < PER_CLASS; i++) {
        char *name, *file;
        assert_non_null(fgets(line, sizeof line, f));
        line[strcspn(line, "\n")] = '\0';
        name = strchr(line, '\t') + 1;
        file = strrchr(line, '\t') + 1;
        *strchr(name, '\t') = '\0';
        snprintf(pp[i].name, sizeof pp[i].name, "%s", name);
        snprintf(path, sizeof path, DIR "/L%d/teacher/%s", level, file);
        read_problem(&pp[i].p, path);
    }
    fclose(f);
    for (i = 0; i < PER_CLASS; i++) {
        FILE *a;
        const int profile = (first + i + 8) % O_PROFILES; /* 14 (A·K) at level 2 */
        o_profile(&pp[i].s, profile, &pp[i].p, &pp[(i + 1) % PER_CLASS].p);
        pp[i].s.name = pp[i].name;
        if (o_borderline(&pp[i].p, &pp[i].s))
            print_error("%s (profile %d): a mistake too small to mark by rule\n", pp[i].name,
                        profile);
        assert_false(o_borderline(&pp[i].p, &pp[i].s));
        o_mark(&pp[i].p, &pp[i].s, &pp[i].m);
        snprintf(path, sizeof path, DIR "/L%d/answers/%02d.txt", level, i + 1);
        a = fopen(path, "w");
        assert_non_null(a);
        o_put(a, &pp[i].p, &pp[i].s);
        fclose(a);
    }
}

/* The gradebook's row of name: its score, each table's credit (-1: left empty, missing)
 * and its mistakes column. */
static int gradebook_row(const char *csv, const char *name, double *score,
                         double credit[O_KINDS], char *mistakes, size_t size)
{
    char want[80], *p;
    const char *end, *last;
    int k;

    snprintf(want, sizeof want, "\n%.63s,", name);
    if ((p = strstr(csv, want)) == NULL)
        return -1;
    p += strlen(want);
    *score = strtod(p, &p);
    p = strchr(p + 1, ','); /* past the max */
    for (k = 0; k < O_KINDS; k++) {
        if (p == NULL)
            return -1;
        credit[k] = p[1] == ',' ? -1 : strtod(p + 1, NULL);
        p = strchr(p + 1, ',');
    }
    end = strchr(p, '\n');
    if (end == NULL)
        end = p + strlen(p);
    for (last = end; last > p && last[-1] != ','; last--)
        ;
    snprintf(mistakes, size, "%.*s", (int)(end - last), last);
    return 0;
}

/* Nonzero when code occurs in the mistakes column more than once. */
static int named_twice(const char *mistakes, const char *code)
{
    const char *p = strstr(mistakes, code);

    return p != NULL && strstr(p + strlen(code), code) != NULL;
}

static void test_a_class_of_48_gets_the_marks_a_careful_teacher_gives(void **state)
{
    static pupil pp[3 * PER_CLASS];
    int level, i, agree = 0;

    (void)state;
    for (level = 1; level <= 3; level++) {
        char cmd[256], *csv;
        pupil *c = pp + (level - 1) * PER_CLASS;
        make_class(c, level, (level - 1) * PER_CLASS);
        snprintf(cmd, sizeof cmd, "check --class " DIR "/L%d " DIR "/L%d/answers --format csv",
                 level, level);
        assert_int_equal(run(cmd), 1);
        csv = slurp(CLI_OUT);
        assert_non_null(csv);
        for (i = 0; i < PER_CLASS; i++) {
            char mistakes[512];
            double score = -1, credit[O_KINDS];
            int k, ok;
            assert_int_equal(gradebook_row(csv, c[i].name, &score, credit, mistakes,
                                           sizeof mistakes), 0);
            ok = fabs(score - c[i].m.score) < 0.006; /* the gradebook's 2 places */
            for (k = 0; k < O_KINDS; k++) {
                const double want = c[i].m.verdict[k] == O_MISSING ? -1 : c[i].m.earned[k];
                if (fabs(credit[k] - want) > 0.006)
                    ok = 0, print_error("%s %s: credit %g, the teacher gives %g\n", c[i].name,
                                        o_kind_name[k], credit[k], want);
                if (c[i].m.code[k] != NULL && strcmp(c[i].m.code[k], "transposed") != 0 &&
                    strstr(mistakes, c[i].m.code[k]) == NULL)
                    ok = 0, print_error("%s: %s not named\n", c[i].name, c[i].m.code[k]);
                if (c[i].m.code[k] != NULL && named_twice(mistakes, c[i].m.code[k]))
                    ok = 0, print_error("%s: %s named twice\n", c[i].name, c[i].m.code[k]);
            }
            if (c[i].s.copied != NULL && strstr(mistakes, "copied_variant") == NULL)
                ok = 0, print_error("%s: copied_variant not named\n", c[i].name);
            if (!ok)
                print_error("L%d %s (profile %d): check gives %g [%s], the teacher %g\n", level,
                            c[i].name, ((level - 1) * PER_CLASS + i + 8) % O_PROFILES, score,
                            mistakes, c[i].m.score);
            agree += ok;
        }
        free(csv);
    }
    print_message("oracle agreement: %d of %d students\n", agree, 3 * PER_CLASS);
    assert_int_equal(agree, 3 * PER_CLASS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_class_of_48_gets_the_marks_a_careful_teacher_gives),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
