/* test_block_oracle.c - every convention mistake of SPEC §15, injected into random block
 * problems by a generator independent of the grading code, is named by `check` once, on
 * the table where it was made, and the tables worked from it are carried, not counted
 * wrong again (issue 31's "done when", SPEC §6 and §15). The problems and the students'
 * answers are drawn here; what each table must be judged comes from tests/block_oracle.h,
 * whose forward pass, mistakes and rules are its own. The bulk is graded in the process
 * (the library's as_check_grade, what `check` calls); one case per configuration goes
 * through `check --format json` too. On a failure the seed is printed and the problem and
 * the answers are left in build/tests/block_oracle_fail.{txt,ans}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/block_oracle.out"
#define CLI_ERR "build/tests/block_oracle.err"
#include "attnstep/check.h"
#include "attnstep/diagnose.h"
#include "attnstep/session.h"
#include "block_oracle.h"
#include "cli_util.h"
#include "gen_input.h"

#define BASE_SEED 0x31b10c00000ull
#define PER_CASE 30       /* students per configuration, table and mistake, at least */
#define MAX_PROBLEMS 400  /* per configuration: where a mistake shows too rarely */
#define POOL 6            /* students drawn per problem */

static const char *const norm_word[] = {"layer", "layer", "rms"};
static const char *const ffn_word[] = {"relu", "gelu", "gelu_tanh", "swiglu", "none"};

/* ---- the problems ---- */

/* A number of hundredths in [lo, hi] / 100, exact as "%.2f" writes it. */
static double hundredths(as_prng *r, long lo, long hi)
{
    return (double)as_prng_range(r, lo, hi) / 100.0;
}

static void fill(as_prng *r, double *v, int cells, long lo, long hi)
{
    int i;

    for (i = 0; i < cells; i++)
        v[i] = hundredths(r, lo, hi);
}

/* Writes v [rows, cols] as table name, or (torch) its transpose, as PyTorch's
 * [out, in] weights are laid out (layout: torch); one row ([a, b]: a bias, γ, β) bare. */
static void put_laid(gen *g, const char *name, const double *v, int rows, int cols, int torch)
{
    const int r = torch ? cols : rows, c = torch ? rows : cols, rowed = rows > 1;
    int i, j;

    put(g, "%s = [", name);
    for (i = 0; i < r; i++) {
        put(g, "%s%s", i ? ",\n     " : "", rowed ? "[" : "");
        for (j = 0; j < c; j++)
            put(g, "%s%.2f", j ? ", " : "", torch ? v[j * cols + i] : v[i * cols + j]);
        put(g, "%s", rowed ? "]" : "");
    }
    put(g, "]\n");
}

static void put_table(gen *g, const char *name, const double *v, int rows, int cols)
{
    put_laid(g, name, v, rows, cols, 0);
}

/* Norm `which`'s γ and β: given (and written) or not (γ 1, β 0). */
static void draw_affine(gen *g, as_prng *r, bprob *p, int which)
{
    static const char *const prefix[] = {"ln1", "ln2", "lnf"};
    char name[16];
    int j;

    for (j = 0; j < p->dm; j++)
        p->g[which][j] = 1, p->b[which][j] = 0;
    if (as_prng_range(r, 0, 3) > 0 || which == 2) {
        fill(r, p->g[which], p->dm, -200, 200);
        snprintf(name, sizeof name, "%s_g", prefix[which]);
        put_table(g, name, p->g[which], 1, p->dm);
    }
    if (p->norm != BN_RMS && as_prng_range(r, 0, 3) > 0) {
        fill(r, p->b[which], p->dm, -100, 100);
        snprintf(name, sizeof name, "%s_b", prefix[which]);
        put_table(g, name, p->b[which], 1, p->dm);
    }
}

/* Problem number `seed` of a configuration into p, its input text into g. */
static void draw_problem(bprob *p, gen *g, uint64_t seed, int pre, int norm, int ffn)
{
    static const double eps[] = {1e-5, 1e-3, 0.01, 0.1, 0.25, 0.5};
    as_prng r;
    long e;
    int torch;

    as_prng_seed(&r, seed);
    memset(p, 0, sizeof *p);
    p->pre = pre, p->norm = norm, p->ffn = ffn;
    p->n = (int)as_prng_range(&r, 2, 4);
    p->dm = (int)as_prng_range(&r, 3, 6);
    p->dk = (int)as_prng_range(&r, 1, 3);
    p->dff = (int)as_prng_range(&r, 2, 5);
    p->causal = (int)as_prng_range(&r, 0, 1);
    p->lnf = pre && as_prng_range(&r, 0, 2) == 0;
    e = as_prng_range(&r, 0, 6);
    p->eps = e > 0 ? eps[e - 1] : norm == BN_TORCH ? 1e-5 : 1e-6; /* SPEC §15's defaults */
    g->len = 0;
    put(g, "block: %s\nnorm: %s\n", pre ? "pre" : "post", norm_word[norm]);
    if (norm == BN_ANNOTATED)
        put(g, "norm_style: annotated\n");
    if (e > 0)
        put(g, "norm_eps: %.17g\n", p->eps);
    put(g, "ffn: %s\nmask: %s\n", ffn_word[ffn], p->causal ? "causal" : "none");
    if ((torch = as_prng_range(&r, 0, 3) == 0) != 0)
        put(g, "layout: torch\n"); /* every W as [out, in]: the same problem */
    fill(&r, p->X, p->n * p->dm, -500, 500);
    fill(&r, p->Wq, p->dm * p->dk, -100, 100);
    fill(&r, p->Wk, p->dm * p->dk, -100, 100);
    fill(&r, p->Wv, p->dm * p->dm, -100, 100);
    put_table(g, "X", p->X, p->n, p->dm);
    put_laid(g, "Wq", p->Wq, p->dm, p->dk, torch);
    put_laid(g, "Wk", p->Wk, p->dm, p->dk, torch);
    put_laid(g, "Wv", p->Wv, p->dm, p->dm, torch);
    if (ffn != BF_NONE) {
        fill(&r, p->Wup, p->dm * p->dff, -100, 100);
        fill(&r, p->Wdown, p->dff * p->dm, -100, 100);
        put_laid(g, "Wup", p->Wup, p->dm, p->dff, torch);
        put_laid(g, "Wdown", p->Wdown, p->dff, p->dm, torch);
        if (ffn == BF_SWIGLU) {
            fill(&r, p->Wgate, p->dm * p->dff, -100, 100);
            put_laid(g, "Wgate", p->Wgate, p->dm, p->dff, torch);
        }
        if (as_prng_range(&r, 0, 1)) {
            fill(&r, p->bup, p->dff, -50, 50);
            put_table(g, "bup", p->bup, 1, p->dff);
        }
        if (as_prng_range(&r, 0, 1)) {
            fill(&r, p->bdown, p->dm, -50, 50);
            put_table(g, "bdown", p->bdown, 1, p->dm);
        }
    }
    draw_affine(g, &r, p, 0);
    if (ffn != BF_NONE)
        draw_affine(g, &r, p, 1);
    if (p->lnf)
        draw_affine(g, &r, p, 2);
}

/* ---- grading a student in the process, as `check` does ---- */

/* The answers text of s into *text (the caller frees it), captions as b_put(); its length. */
static size_t answers_text(char **text, const bprob *p, const bstudent *s, int captions)
{
    size_t len = 0;
    FILE *f = open_memstream(text, &len);

    assert_non_null(f);
    b_put(f, p, s, captions);
    assert_int_equal(fclose(f), 0);
    return len;
}

static const as_table_grade *table_named(const as_grade *g, const char *name)
{
    size_t i;

    for (i = 0; i < g->count; i++)
        if (g->table[i].row < 0 && strcmp(g->table[i].name, name) == 0)
            return &g->table[i];
    return NULL;
}

/* What went wrong with the grade of s, into why ("" when nothing): every table asked is
 * marked as block_oracle.h's b_mark says, the mistake named there and nowhere else, the
 * score the tables asked less the one wrong. */
static void compare(char *why, size_t size, const as_grade *g, const bprob *p, const bstudent *s)
{
    const unsigned asked = b_asked(p);
    bverdict v[B_KINDS];
    int k, count = 0;
    size_t len = 0;

    why[0] = '\0';
    b_mark(v, p, s);
    for (k = 0; k < B_KINDS; k++) {
        const as_table_grade *e;
        const char *code, *want = v[k] == B_WRONG ? b_code[s->m]
                                  : v[k] == B_CARRIED ? "carried_error" : NULL;
        if (!(asked >> k & 1))
            continue;
        count++;
        if ((e = table_named(g, b_name[k])) == NULL) {
            len += (size_t)snprintf(why + len, size - len, " %s not graded;", b_name[k]);
            continue;
        }
        code = as_diag_code(e->diagnosis);
        if ((v[k] == B_RIGHT) != (e->correct != 0) || (v[k] == B_WRONG) != (e->credit == 0) ||
            (want == NULL ? code != NULL : code == NULL || strcmp(code, want) != 0))
            len += (size_t)snprintf(why + len, size - len, " %s: %s%s, expected %s;", b_name[k],
                                    e->correct ? "right" : e->credit ? "credit " : "wrong ",
                                    e->correct ? "" : code ? code : "(none)",
                                    want ? want : "right");
        if (len >= size)
            return;
    }
    if ((int)g->count != count || (int)g->nmarks != count ||
        fabs(g->score - (count - (s->m != BM_NONE))) > 1e-9)
        snprintf(why + len, size - len, " %zu tables graded, %g/%zu, expected %d/%d;", g->count,
                 g->score, g->nmarks, count - (s->m != BM_NONE), count);
}

/* Leaves the failing problem and answers in build/tests/block_oracle_fail.{txt,ans}. */
static void keep_failure(const gen *problem, const char *answers, size_t len)
{
    static int nth;
    char path[96];
    FILE *f;

    snprintf(path, sizeof path, "build/tests/block_oracle_fail%d.txt", nth);
    if ((f = fopen(path, "w")) != NULL)
        fwrite(problem->buf, 1, problem->len, f), fclose(f);
    snprintf(path, sizeof path, "build/tests/block_oracle_fail%d.ans", nth++);
    if ((f = fopen(path, "w")) != NULL)
        fwrite(answers, 1, len, f), fclose(f);
}

/* Grades s on session ss; returns 1 when the grade is what the oracle says, else prints
 * why with the seed and keeps the files. */
static int graded_as_the_oracle_says(const as_session *ss, const gen *problem, const bprob *p,
                                     const bstudent *s, uint64_t seed, int captions)
{
    const as_check_opts opts = {-1, 0, NULL, 0};
    char *text = NULL, why[1024];
    size_t len = answers_text(&text, p, s, captions);
    as_answers a;
    as_grade g;
    as_error err;

    as_error_clear(&err);
    if (as_answers_parse(&a, text, len, "answers", &err) != 0 ||
        as_check_grade(&g, &ss->p, &ss->t, &a, &opts, &err) != 0) {
        snprintf(why, sizeof why, " not graded: %d:%d: %s", err.line, err.col, err.msg);
        memset(&g, 0, sizeof g);
    } else {
        compare(why, sizeof why, &g, p, s);
        as_grade_free(&g);
    }
    as_answers_free(&a);
    if (why[0] != '\0') {
        print_error("seed 0x%llx, %s %s %s, %d places%s%s, %s at %s:%s\n", (unsigned long long)seed,
                    p->pre ? "pre" : "post", p->norm == BN_ANNOTATED ? "annotated" : norm_word[p->norm],
                    ffn_word[p->ffn], s->places[B_KINDS - 1], s->places[0] != s->places[B_KINDS - 1] ||
                    s->places[1] != s->places[B_KINDS - 1] ? " (mixed)" : "",
                    s->full ? ", full precision" : "", s->m ? b_code[s->m] : "no mistake",
                    s->at >= 0 ? b_name[s->at] : "-", why);
        keep_failure(problem, text, len);
    }
    free(text);
    return why[0] == '\0';
}

/* ---- through the command line, once per configuration ---- */

/* Nonzero when the JSON of one student gives table `table` the diagnosis `code` (quoted,
 * or null), and code occurs `times` times in all. */
static int json_diagnosis(const char *json, const char *table, const char *code, int times)
{
    char key[64], want[64];
    const char *at, *next, *d;
    int n = 0;

    snprintf(want, sizeof want, "\"diagnosis\": %s", code);
    for (at = json; (at = strstr(at, code)) != NULL; at += strlen(code))
        n++;
    snprintf(key, sizeof key, "{\"name\": \"%s\",", table);
    if ((at = strstr(json, key)) == NULL || (d = strstr(at, want)) == NULL)
        return 0;
    next = strstr(at + 1, "{\"name\": ");
    return (next == NULL || d < next) && (times < 0 || n == times);
}

/* Runs `check --format json` on the problem and s's answers; returns 1 when the mistake
 * is the diagnosis of its table and is named nowhere else. */
static int cli_names_it_once(const gen *problem, const bprob *p, const bstudent *s)
{
    char *text = NULL, *json, code[48];
    size_t len = answers_text(&text, p, s, 1);
    int ok;
    FILE *f = fopen("build/tests/block_oracle_p.txt", "w");

    assert_non_null(f);
    fwrite(problem->buf, 1, problem->len, f);
    fclose(f);
    assert_non_null(f = fopen("build/tests/block_oracle_a.txt", "w"));
    fwrite(text, 1, len, f);
    fclose(f);
    free(text);
    assert_int_equal(run("check --format json build/tests/block_oracle_p.txt "
                         "build/tests/block_oracle_a.txt"), 1);
    assert_non_null(json = slurp(CLI_OUT));
    snprintf(code, sizeof code, "\"%s\"", b_code[s->m]);
    if (!(ok = json_diagnosis(json, b_name[s->at], code, 1)))
        print_error("check --format json: %s not named once, on %s alone:\n%s\n", code,
                    b_name[s->at], json);
    free(json);
    return ok;
}

/* ---- what the generator found ---- */

#define FOUND "tests/data/block/oracle/"

/* ReLU at its kink: a U written 0.00 stands for any u in [−0.005, 0.005], and ReLU(u)
 * then for anything in [0, 0.005]; a student who kept full precision (u = 0.0035) and
 * wrote F = 0.0035 did the step right. check took half of ReLU(0.005) − ReLU(−0.005),
 * 0.0025, as what U's rounding can move F, marked F wrong and named nothing: once
 * where it should be carried_error (after no_residual at H1), once where the mistake
 * made at F itself went unnamed (relu_for_gelu: F[1][3] = ReLU(0.0028) from a U[1][3]
 * written 0.00). The generator's cases, kept as they came. */
static void test_relu_at_its_kink_is_judged_by_the_whole_interval(void **state)
{
    char *json;

    (void)state;
    assert_int_equal(run("check --format json " FOUND "relu_kink.txt " FOUND "relu_kink.ans"), 1);
    assert_non_null(json = slurp(CLI_OUT));
    assert_non_null(strstr(json, "\"score\": 11, \"max\": 12"));
    assert_true(json_diagnosis(json, "H1", "\"no_residual\"", 1));
    assert_true(json_diagnosis(json, "F", "\"carried_error\"", -1));
    free(json);
    assert_int_equal(run("check --format json " FOUND "relu_for_gelu_kink.txt "
                         FOUND "relu_for_gelu_kink.ans"), 1);
    assert_non_null(json = slurp(CLI_OUT));
    assert_true(json_diagnosis(json, "F", "\"relu_for_gelu\"", 1));
    assert_true(json_diagnosis(json, "D", "\"carried_error\"", -1));
    free(json);
}

/* ---- the test ---- */

typedef struct tally {
    int tested[B_KINDS][BM_COUNT], invisible[B_KINDS][BM_COUNT], unsure[B_KINDS][BM_COUNT];
    int problems, failures, right_left_out;
} tally;

/* Nonzero while some mistake that applies to p's configuration has fewer than PER_CASE
 * students tested. */
static int wanting(const tally *t, const bprob *p)
{
    bprob any = *p;
    unsigned asked;
    bmis m[BM_COUNT];
    int k, i, n;

    any.lnf = p->pre; /* the final norm's Y comes with some problems of pre */
    asked = b_asked(&any);
    for (k = 0; k < B_KINDS; k++)
        for (i = 0, n = (asked >> k & 1) ? b_mistakes_at(&any, k, m) : 0; i < n; i++)
            if (t->tested[k][m[i]] < PER_CASE)
                return 1;
    return 0;
}

/* A student of p who makes no mistake: every table at one number of decimals (2 … 6) or
 * each at its own, working from the written numbers or (one in three) keeping full
 * precision between steps. */
static void draw_student(bstudent *s, const bprob *p, as_prng *r)
{
    const int mixed = (int)as_prng_range(r, 0, 1);
    int places[B_KINDS], k;

    places[0] = (int)as_prng_range(r, 2, 6);
    for (k = 1; k < B_KINDS; k++)
        places[k] = mixed ? (int)as_prng_range(r, 2, 6) : places[0];
    b_student(s, p, places, as_prng_range(r, 0, 2) == 0);
}

/* One problem: the right answers, then each mistake that still wants students, each
 * made by one of a pool of students. */
static void one_problem(tally *t, const bprob *p, const gen *problem, uint64_t seed, as_prng *r,
                        int *cli_done)
{
    const unsigned asked = b_asked(p);
    as_session ss;
    as_error err;
    static bstudent s, right[POOL];
    bmis m[BM_COUNT];
    int k, i, n, who;

    as_error_clear(&err);
    if (as_session_open_text(&ss, problem->buf, problem->len, "problem", NULL, &err) != 0) {
        print_error("seed 0x%llx: the problem is refused: %s\n%.*s\n", (unsigned long long)seed,
                    err.msg, (int)problem->len, problem->buf);
        t->failures++;
        return;
    }
    t->problems++;
    for (i = 0; i < POOL; i++)
        draw_student(&right[i], p, r);
    for (i = 0; i < POOL && !b_first_order(p, &right[i]); i++)
        ; /* the right answers (of one whose numbers the first order explains): full marks */
    if (i < POOL)
        t->failures += !graded_as_the_oracle_says(&ss, problem, p, &right[i], seed,
                                                  (int)as_prng_range(r, 0, 2));
    else
        t->right_left_out++;
    for (k = 0; k < B_KINDS; k++)
        for (i = 0, n = (asked >> k & 1) ? b_mistakes_at(p, k, m) : 0; i < n; i++) {
            if (t->tested[k][m[i]] >= PER_CASE)
                continue;
            who = (int)as_prng_range(r, 0, POOL - 1);
            b_mistaken(&s, p, &right[who], k, m[i]);
            switch (b_shows(p, &s, &right[who])) {
            case BS_INVISIBLE: /* the right answers again: full marks */
                t->invisible[k][m[i]]++;
                s.m = BM_NONE, s.at = -1;
                break;
            case BS_UNSURE:
                t->unsure[k][m[i]]++;
                continue;
            default:
                t->tested[k][m[i]]++;
            }
            t->failures += !graded_as_the_oracle_says(&ss, problem, p, &s, seed,
                                                      (int)as_prng_range(r, 0, 2));
            if (s.m != BM_NONE && !*cli_done && !under_valgrind()) {
                *cli_done = 1;
                t->failures += !cli_names_it_once(problem, p, &s);
            }
        }
    as_session_free(&ss);
}

static void test_every_convention_mistake_is_named_once_where_it_is_made(void **state)
{
    gen problem = {0};
    int pre, norm, ffn, total = 0, short_cases = 0, invisible = 0, unsure = 0, problems = 0;

    (void)state;
    for (pre = 0; pre <= 1; pre++)
        for (norm = BN_TORCH; norm <= BN_RMS; norm++)
            for (ffn = BF_RELU; ffn <= BF_NONE; ffn++) {
                tally t;
                as_prng r;
                bprob p;
                int j, k, cli_done = 0, c = (pre * 3 + norm) * 5 + ffn;
                memset(&t, 0, sizeof t);
                as_prng_seed(&r, BASE_SEED ^ (uint64_t)c);
                for (j = 0; j < MAX_PROBLEMS; j++) {
                    const uint64_t seed = BASE_SEED + (uint64_t)c * 100000 + (uint64_t)j;
                    draw_problem(&p, &problem, seed, pre, norm, ffn);
                    if (j > 0 && !wanting(&t, &p))
                        break;
                    one_problem(&t, &p, &problem, seed, &r, &cli_done);
                }
                for (k = 0; k < B_KINDS; k++)
                    for (j = 1; j < BM_COUNT; j++) {
                        total += t.tested[k][j];
                        invisible += t.invisible[k][j], unsure += t.unsure[k][j];
                        if (t.tested[k][j] + t.invisible[k][j] + t.unsure[k][j] == 0 ||
                            t.tested[k][j] >= PER_CASE)
                            continue;
                        short_cases++;
                        print_message("%s %s %s: %s at %s tested %d times (%d invisible, %d unsure) "
                                      "in %d problems\n", pre ? "pre" : "post",
                                      norm == BN_ANNOTATED ? "annotated" : norm_word[norm],
                                      ffn_word[ffn], b_code[j], b_name[k], t.tested[k][j],
                                      t.invisible[k][j], t.unsure[k][j], t.problems);
                    }
                if (t.failures > 0)
                    print_error("%s %s %s: %d failures\n", pre ? "pre" : "post",
                                norm == BN_ANNOTATED ? "annotated" : norm_word[norm], ffn_word[ffn],
                                t.failures);
                assert_int_equal(t.failures, 0);
                problems += t.problems;
                assert_int_equal(t.right_left_out, 0);
            }
    free(problem.buf);
    print_message("%d problems; %d students with a mistake graded as the oracle says (%d more "
                  "whose mistake did not show, %d left out as a teacher's call)\n", problems, total,
                  invisible, unsure);
    assert_int_equal(short_cases, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_convention_mistake_is_named_once_where_it_is_made),
        cmocka_unit_test(test_relu_at_its_kink_is_judged_by_the_whole_interval),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
