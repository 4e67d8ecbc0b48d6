/* fuzz_oracle.c - a differential libFuzzer target for the grader (issue 28): the input's
 * bytes draw a problem (2-5 tokens, widths 1-4, halves or quarters from -2 to 2, causal
 * or no mask), a student (one of tests/oracle.h's 23 profiles of one problem: right,
 * full precision, each named mistake, slips, blank, only Q/K/V, only rows, an extra E)
 * and the places they write (1-4 or 12 per table); `check` grades their answers and
 * must give the mark tests/oracle.h gives, a careful teacher's by SPEC §6, computed
 * without the grading code. What must hold, or the fuzzer aborts:
 *  - every table's credit and the score are the oracle's;
 *  - a correctly rounded set (or one that rounds from its own rounded numbers) is all
 *    right; a set with one wrong cell (a slip) is never all right;
 *  - the mistake made in a table is named there (or listed among the mistakes that fit
 *    equally), and a mistake is named at most once (carried_error aside).
 * A student whose mistake changes a table by less than rounding clearly moves it
 * (o_borderline) is left out: there the mark is a teacher's judgement, not a rule.
 * FUZZ_VERBOSE=1 prints the problem, the answers and both marks. */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/check.h"
#include "attnstep/session.h"
#include "../oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input's bytes, one at a time (0 after the end). */
typedef struct bytes {
    const uint8_t *p;
    size_t n, at;
} bytes;

static unsigned next(bytes *b)
{
    return b->at < b->n ? b->p[b->at++] : 0;
}

static void draw_problem(oprob *p, bytes *b)
{
    const unsigned shape = next(b);
    int i, k;

    memset(p, 0, sizeof *p);
    p->n = 2 + (int)(shape % 4);
    p->dm = 1 + (int)(shape >> 2 & 3);
    p->dk = 1 + (int)(shape >> 4 & 3);
    p->dv = 1 + (int)(shape >> 6 & 3);
    const unsigned how = next(b);
    const int quarters = how & 16; /* level 3's fractions: quarters from -2 to 2 */

    p->causal = !(how & 8);
    for (i = 0; i < p->n * p->dm; i++)
        p->X[i] = quarters ? ((int)(next(b) % 17) - 8) / 4.0 : ((int)(next(b) % 9) - 4) / 2.0;
    for (k = 0; k < 3; k++)
        for (i = 0; i < p->dm * o_wcols(p, k); i++)
            p->W[k][i] = quarters ? ((int)(next(b) % 17) - 8) / 4.0
                                  : ((int)(next(b) % 9) - 4) / 2.0;
}

static void put_matrix(FILE *f, const char *name, const double *v, int r, int c)
{
    int i, j;

    fprintf(f, "%s = [", name);
    for (i = 0; i < r; i++) {
        fputs(i ? ", [" : "[", f);
        for (j = 0; j < c; j++)
            fprintf(f, "%s%g", j ? ", " : "", v[i * c + j]);
        fputc(']', f);
    }
    fputs("]\n", f);
}

static void put_problem(FILE *f, const oprob *p)
{
    static const char *const w[3] = {"Wq", "Wk", "Wv"};
    int i, k;

    fputs("tokens:", f);
    for (i = 0; i < p->n; i++)
        fprintf(f, " t%d", i);
    fprintf(f, "\nmask: %s\n", p->causal ? "causal" : "none");
    put_matrix(f, "X", p->X, p->n, p->dm);
    for (k = 0; k < 3; k++)
        put_matrix(f, w[k], p->W[k], p->dm, o_wcols(p, k));
}

static void draw_student(ostudent *s, const oprob *p, bytes *b)
{
    static const int places[] = {1, 2, 3, 4, 12, 4, 2, 4};
    const unsigned how = next(b), prec = next(b);
    int k;

    o_profile(s, (int)(how % (O_PROFILES - 1)), p, NULL); /* no copied key: one problem */
    if (prec & 1) /* else the profile's own places */
        for (k = 0; k < O_KINDS; k++)
            s->places[k] = places[(prec >> 1 ^ (unsigned)k * 5) % 8];
    s->full |= (prec >> 4 & 1) && s->row < 0;
    if (s->slip_kind >= 0) {
        s->slip_kind = (int)(next(b) % O_KINDS);
        s->slip_cell = (int)next(b);
        s->slip = next(b) & 1 ? -1 : 1;
        if (!(s->writes >> s->slip_kind & 1))
            s->slip_kind = -1;
        o_clear_slip(p, s);
    }
}

/* The text of f (a memstream) as a malloc'd string; *len its length. */
static char *text_of(void (*put)(FILE *, const void *, const void *), const void *a,
                     const void *c, size_t *len)
{
    char *out = NULL;
    FILE *mem = open_memstream(&out, len);

    if (mem == NULL)
        return NULL;
    put(mem, a, c);
    fclose(mem);
    return out;
}

static void put_problem_cb(FILE *f, const void *p, const void *unused)
{
    (void)unused;
    put_problem(f, p);
}

static void put_answers_cb(FILE *f, const void *p, const void *s)
{
    o_put(f, p, s);
}

/* Aborts, saying why (with FUZZ_VERBOSE: the problem and the answers). */
static void fail(const char *why, const char *k, double got, double want, const char *problem,
                 const char *answers)
{
    fprintf(stderr, "fuzz_oracle: %s %s: check %g, the oracle %g\n", why, k, got, want);
    if (getenv("FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "%s---\n%s", problem, answers);
    abort();
}

static void compare(const as_grade *g, const omark *m, const ostudent *s, const char *problem,
                    const char *answers)
{
    size_t i, j;
    int k;

    if (g->nmarks != O_KINDS)
        fail("marks", "", (double)g->nmarks, O_KINDS, problem, answers);
    for (k = 0; k < O_KINDS; k++)
        if (fabs(g->mark[k].earned - m->earned[k]) > 1e-9)
            fail("credit of", o_kind_name[k], g->mark[k].earned, m->earned[k], problem, answers);
    if (fabs(g->score - m->score) > 1e-9)
        fail("score", "", g->score, m->score, problem, answers);
    if (s->slip_kind < 0 && s->writes != 0 && m->score == O_KINDS && !g->correct &&
        s->row < 0 && s->writes == (1u << O_KINDS) - 1)
        fail("a right set not all right", "", 0, 1, problem, answers);
    if (s->slip_kind >= 0 && m->verdict[s->slip_kind] == O_WRONG && g->correct)
        fail("a slip all right", o_kind_name[s->slip_kind], 1, 0, problem, answers);
    for (i = 0; i < g->count; i++) /* the mistake made is named, or among those that fit */
        for (k = 0; k < O_KINDS; k++) {
            const as_table_grade *t = &g->table[i];
            int named = 0;
            if (strcmp(t->name, o_kind_name[k]) != 0 || m->code[k] == NULL)
                continue;
            named = as_diag_code(t->diagnosis) != NULL &&
                    strcmp(as_diag_code(t->diagnosis), m->code[k]) == 0;
            for (j = 0; j < t->nfits; j++)
                named |= strcmp(as_diag_code(t->fits[j].diag), m->code[k]) == 0;
            if (!named)
                fail("not named in", t->name, 0, 1, problem, answers);
        }
    for (i = 0; i < g->count; i++)
        for (j = i + 1; j < g->count; j++)
            if (g->table[i].diagnosis != AS_DIAG_NONE &&
                g->table[i].diagnosis != AS_DIAG_CARRIED_ERROR &&
                g->table[i].diagnosis == g->table[j].diagnosis &&
                g->table[i].detail == g->table[j].detail)
                fail("named twice in", g->table[j].name, 2, 1, problem, answers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size, 0};
    const as_check_opts o = {-1, 0, NULL, 0};
    oprob p;
    ostudent s;
    omark m;
    as_session ses;
    as_answers a;
    as_grade g;
    as_error err;
    char *problem, *answers;
    size_t plen, alen;

    draw_problem(&p, &b);
    draw_student(&s, &p, &b);
    if (o_borderline(&p, &s))
        return 0;
    o_mark(&p, &s, &m);
    problem = text_of(put_problem_cb, &p, NULL, &plen);
    answers = text_of(put_answers_cb, &p, &s, &alen);
    if (problem == NULL || answers == NULL)
        abort();
    as_error_clear(&err);
    if (as_session_open_text(&ses, problem, plen, "in", NULL, &err) != 0) {
        fprintf(stderr, "fuzz_oracle: the problem is refused: %s\n%s", err.msg, problem);
        abort();
    }
    if (as_answers_parse(&a, answers, alen, "ans", &err) != 0 ||
        as_check_grade(&g, &ses.p, &ses.t, &a, &o, &err) != 0) {
        fprintf(stderr, "fuzz_oracle: the answers are refused: %s\n%s---\n%s", err.msg, problem,
                answers);
        abort();
    }
    if (getenv("FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "%s---\n%sscore %g, the oracle %g (mistakes %s %s %s %s %s %s %s, slip %d, "
                "full %d, slip %g at %d)\n", problem, answers, g.score, m.score,
                s.mistake[0], s.mistake[1], s.mistake[2], s.mistake[3], s.mistake[4],
                s.mistake[5], s.mistake[6], s.slip_kind, s.full, s.slip, s.slip_cell);
    compare(&g, &m, &s, problem, answers);
    as_grade_free(&g);
    as_answers_free(&a);
    as_session_free(&ses);
    free(problem);
    free(answers);
    return 0;
}
