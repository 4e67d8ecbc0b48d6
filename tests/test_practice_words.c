/* test_practice_words.c - the tutor speaks to a student in sentences (issue 29): a
 * scripted `practice` session on every example it takes, once per mistake of SPEC §6,
 * each cell answered first with that mistake's value of the cell (the mistakes' chains,
 * ownchain.h, or the transposed cell), then `?`, in Chinese and in English. No hint may
 * show a mistake's code (no_scale, inverted_mask …): the codes are for teachers' reports
 * and JSON. And the session must really have met the mistake: each one is explained at
 * least once, so that a test that never reaches a hint cannot pass. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/diagnose.h"
#include "attnstep/ownchain.h"
#include "attnstep/practice.h"
#include "attnstep/session.h"

#define MAX_EXAMPLES 64

/* Besides the examples: an input whose three W tables are none of them symmetric, so
 * that a transposed W (PyTorch's layout) gives other numbers for Q, K and V alike
 * (f11's Wk is symmetric). */
static const char own_input[] =
    "mask: causal\n"
    "X = [[1, 2], [0, 1], [2, 1]]\n"
    "Wq = [[1, 2], [0, 1]]\nWk = [[0, 1], [2, 1]]\nWv = [[3, 1], [1, 0]]\n";

/* Variant v's value of cell c, NAN when its chain gives none (the transpose's when v is
 * AS_CHAIN_VARIANTS). */
static double variant_value(const as_session *s, as_chain_cache *cache, size_t v,
                            const as_practice_cell *c)
{
    const as_matrix *m = as_practice_truth(&s->t, c->tb, c->head);
    const as_chain *ch;
    const as_chain_slot *sl;
    as_table_grade g;

    if (v == AS_CHAIN_VARIANTS)
        return c->j < m->rows && c->i < m->cols ? AS_AT(*m, c->j, c->i) : NAN;
    if (as_practice_kind(c->tb) == AS_ANS_KINDS)
        return NAN;
    assert_non_null(ch = as_chain_get(cache, v));
    memset(&g, 0, sizeof g);
    g.kind = as_practice_kind(c->tb);
    g.head = c->head;
    g.row = -1;
    sl = as_chain_slot_of(ch, &s->p, &g);
    if (!sl->ok || sl->calc.rows != m->rows || sl->calc.cols != m->cols)
        return NAN;
    return AS_AT(sl->calc, c->i, c->j);
}

/* The answers of a session where every cell practice asks (in its order) gets first
 * the value of variant v when that is a wrong answer, then `?`. */
static char *script(const as_session *s, as_chain_cache *cache, size_t v, const as_practice_opts *o)
{
    char *buf = NULL;
    size_t len = 0, k, n;
    FILE *f = open_memstream(&buf, &len);
    const as_check_opts judge = {-1, 0, NULL, 0};
    as_practice_cell *cells;

    assert_non_null(f);
    n = as_practice_cells(&cells, &s->p, &s->t, o);
    assert_true(n != (size_t)-1);
    for (k = 0; k < n; k++) {
        const as_practice_cell *c = &cells[k];
        const double x = variant_value(s, cache, v, c);
        const as_matrix *m = as_practice_truth(&s->t, c->tb, c->head);
        if (isfinite(x) && as_cell_judge(x, 0, AS_AT(*m, c->i, c->j), &judge) != AS_CELL_RIGHT)
            fprintf(f, "%.17g\n", x);
        fputs("?\n", f);
    }
    free(cells);
    fclose(f);
    return buf;
}

/* The options of a session in lang (--ascii when ascii). */
static as_practice_opts options(as_lang lang, int ascii)
{
    as_practice_opts o;

    memset(&o, 0, sizeof o);
    o.ro.lang = lang;
    o.ro.digits = 10;
    o.ro.ascii = ascii;
    o.row = -1;
    o.judge.tol = -1;
    o.echo = 1;
    o.head = -1;
    return o;
}

/* Runs practice on s with the answers in, in lang; returns what it printed. */
static char *session(const as_session *s, const char *in, as_lang lang, int ascii)
{
    const as_practice_opts o = options(lang, ascii);
    as_practice_score sc;
    char *out = NULL;
    size_t len = 0;
    FILE *fi = fmemopen((void *)in, strlen(in), "r"), *fo = open_memstream(&out, &len);

    assert_non_null(fi);
    assert_non_null(fo);
    assert_true(as_practice_run(fi, fo, NULL, &s->p, &s->t, &o, &sc) >= 0);
    fclose(fi);
    fclose(fo);
    return out;
}

/* The examples practice takes, as paths, sorted; returns how many. */
static size_t examples(char paths[][256], size_t max)
{
    DIR *d = opendir("examples");
    struct dirent *e;
    size_t n = 0, a, b;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL && n < max) {
        const size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".txt") == 0)
            snprintf(paths[n++], 256, "examples/%s", e->d_name);
    }
    closedir(d);
    for (a = 1; a < n; a++)
        for (b = a; b > 0 && strcmp(paths[b], paths[b - 1]) < 0; b--) {
            char t[256];
            memcpy(t, paths[b], 256);
            memcpy(paths[b], paths[b - 1], 256);
            memcpy(paths[b - 1], t, 256);
        }
    return n;
}

/* Fails, showing the line, when out holds code; "transposed" is checked only in Chinese
 * (in English it is a word of the language: "W transposed"). */
static void assert_no_code(const char *out, const char *code, as_lang lang, const char *what)
{
    const size_t n = strlen(out), c = strlen(code);
    size_t at, from;

    if (strchr(code, '_') == NULL && lang == AS_LANG_EN)
        return;
    for (at = 0; at + c <= n && strncmp(out + at, code, c) != 0; at++)
        ;
    if (at + c > n)
        return;
    for (from = at; from > 0 && out[from - 1] != '\n'; from--)
        ;
    print_error("%s: the code %s reached the student: %.*s\n", what, code,
                (int)strcspn(out + from, "\n"), out + from);
    fail();
}

static void test_no_hint_shows_a_mistake_code_on_any_example(void **state)
{
    static char paths[MAX_EXAMPLES][256];
    const size_t n = examples(paths, MAX_EXAMPLES);
    int met[AS_CHAIN_VARIANTS + 1] = {0};
    size_t e, v, ran = 0;
    int l;

    (void)state;
    for (e = 0; e <= n; e++) {
        as_session s;
        as_error err;
        as_chain_cache cache;
        memset(&err, 0, sizeof err);
        if ((e == n ? as_session_open_text(&s, own_input, strlen(own_input), "own", NULL, &err)
                    : as_session_open(&s, paths[e], NULL, &err)) != 0)
            continue; /* f11-answers.txt is answers, not an input */
        ran++;
        as_chain_cache_init(&cache, &s.p, &s.t.M, NULL, 0);
        for (v = 1; v <= AS_CHAIN_VARIANTS; v++) {
            const as_practice_opts o = options(AS_LANG_ZH, 0);
            char *in = script(&s, &cache, v, &o);
            for (l = 0; l < 3; l++) {
                const as_lang lang = l == 0 ? AS_LANG_ZH : AS_LANG_EN;
                char *out = session(&s, in, lang, l == 2);
                char what[400];
                int d;
                snprintf(what, sizeof what, "%.300s, mistake %zu, %s", e < n ? paths[e] : "own", v,
                         l == 0 ? "zh" : l == 1 ? "en" : "en --ascii");
                for (d = AS_DIAG_NONE + 1; d < AS_DIAG_COUNT; d++)
                    assert_no_code(out, as_diag_code((as_diag)d), lang, what);
                /* the hint that names a mistake, in the message table's words */
                if (strstr(out, lang == AS_LANG_ZH ? "很可能是因为" : "most likely comes from") ||
                    strstr(out, lang == AS_LANG_ZH ? "行和列对调了" : "rows and columns are swapped"))
                    met[v]++;
                free(out);
            }
            free(in);
        }
        as_chain_cache_free(&cache);
        as_session_free(&s);
    }
    assert_true(ran >= n); /* every example but the answers file, and the own input */
    for (v = 1; v <= AS_CHAIN_VARIANTS; v++)
        if (met[v] == 0) {
            print_error("mistake variant %zu was never explained on any example\n", v);
            fail();
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_hint_shows_a_mistake_code_on_any_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
