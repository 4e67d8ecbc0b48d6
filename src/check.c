/* check.c - grading a student's answers (SPEC §6): which table of the trace each answer
 * names, and which of its cells are right to the precision the student wrote. A wrong
 * table's mistake is named by diagnose.c. */
#include "attnstep/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------ */
/* Which table of the trace an answer names                                        */
/* ------------------------------------------------------------------------------ */

static int name_error(const as_answers *a, const as_answer *ans, as_error *err, const char *msg,
                      const char *hint)
{
    as_error_set(err, a->path, ans->pos.line, ans->pos.col, "%s: %s", ans->name, msg);
    as_error_hint(err, "%s", hint);
    return -1;
}

/* Sets g's kind, head, name and expected table from the answer's name. The tables of
 * one head need no head name when there is only one; O alone is the layer's output. */
static int resolve(as_table_grade *g, const as_problem *p, const as_trace *t,
                   const as_answers *a, const as_answer *ans, as_error *err)
{
    long named;

    if (as_answer_name(ans->name, &g->kind, &named) != 0)
        return name_error(a, ans, err, "not a table an answer may name",
                          "ANSWERS may hold Q, K, V, QKT (also QK\xe1\xb5\x80, QK^T), S, A, O "
                          "and, with several heads, Q_h0, S_h1 ... and C");
    if (named >= (long)p->heads || (named >= 0 && g->kind == AS_ANS_C))
        return name_error(a, ans, err, "the problem has no such head",
                          "heads are numbered from 0 (S_h0); C, the heads side by side, has none");
    g->head = named;
    if (named < 0 && p->heads == 1 && g->kind != AS_ANS_C &&
        g->kind > AS_ANS_V && (g->kind != AS_ANS_O || p->Wo == NULL))
        g->head = 0;
    if (g->head < 0 && g->kind >= AS_ANS_QKT && g->kind <= AS_ANS_A)
        return name_error(a, ans, err, "with several heads, say whose table this is",
                          "name the head: S_h0, S_h1 ...");
    snprintf(g->name, sizeof g->name, named >= 0 ? "%s_h%ld" : "%s", as_answer_kind_name(g->kind), named);
    g->given = ans;
    if (g->head >= 0)
        g->expected = as_head_table(&t->head[g->head], g->kind);
    else
        g->expected = g->kind == AS_ANS_Q   ? &t->Q
                      : g->kind == AS_ANS_K ? &t->K
                      : g->kind == AS_ANS_V ? &t->V
                      : g->kind == AS_ANS_C ? &t->C
                                            : &t->O;
    return 0;
}

/* The book's order: the whole Q, K, V; then each head's tables; then C; then O. */
static long book_order(const as_table_grade *g)
{
    const long group = g->head >= 0 ? 1 : g->kind <= AS_ANS_V ? 0 : g->kind == AS_ANS_C ? 2 : 3;

    return (group * (long)(AS_MAX_DIM + 1) + g->head + 1) * AS_ANS_KINDS + g->kind;
}

static int by_book_order(const void *x, const void *y)
{
    const long a = book_order(x), b = book_order(y);

    return (a > b) - (a < b);
}

/* ------------------------------------------------------------------------------ */
/* Grading                                                                          */
/* ------------------------------------------------------------------------------ */

/* Finds the wrong cells of one table (all of them when the shape differs). */
static int grade_cells(as_table_grade *g, double tol)
{
    const as_matrix *e = g->expected, *w = &g->given->value;
    const size_t cells = e->rows * e->cols;
    size_t i;

    g->shape_ok = e->rows == w->rows && e->cols == w->cols;
    if ((g->wrong = malloc((cells ? cells : 1) * sizeof *g->wrong)) == NULL)
        return -1;
    for (i = 0; i < cells; i++)
        if (!g->shape_ok || !as_answer_cell_ok(w->v[i], g->given->unit.v[i], e->v[i], tol, 0))
            g->wrong[g->nwrong++] = i;
    g->correct = g->nwrong == 0;
    return 0;
}

/* Resolves every answer's name, refusing a table given twice. */
static int resolve_all(as_grade *g, const as_problem *p, const as_trace *t,
                       const as_answers *a, as_error *err)
{
    size_t i, j;

    for (i = 0; i < a->count; i++, g->count++) {
        if (resolve(&g->table[i], p, t, a, &a->item[i], err) != 0)
            return -1;
        for (j = 0; j < i; j++)
            if (g->table[j].expected == g->table[i].expected)
                return name_error(a, &a->item[i], err, "this table is given twice",
                                  "keep one answer for each table");
    }
    return 0;
}

int as_check_grade(as_grade *g, const as_problem *p, const as_trace *t, const as_answers *a,
                   double tol, as_error *err)
{
    size_t i;

    memset(g, 0, sizeof *g);
    if (a->count == 0) {
        as_error_set(err, a->path, 0, 0, "ANSWERS holds no table to check");
        as_error_hint(err, "write the tables as the input does, e.g. S = [[0, -inf], [0.7071, 0]]");
        return -1;
    }
    if ((g->table = calloc(a->count, sizeof *g->table)) == NULL)
        goto nomem;
    if (resolve_all(g, p, t, a, err) != 0)
        goto fail;
    qsort(g->table, g->count, sizeof *g->table, by_book_order);
    g->correct = 1;
    for (i = 0; i < g->count; i++) {
        as_table_grade *e = &g->table[i];
        if (grade_cells(e, tol) != 0 ||
            (!e->correct && as_diagnose(e, g->table, i, p, t, tol) != 0))
            goto nomem;
        g->correct &= e->correct;
    }
    return 0;
nomem:
    as_error_set(err, a->path, 0, 0, "out of memory");
fail:
    as_grade_free(g);
    return -1;
}

void as_grade_free(as_grade *g)
{
    size_t i;

    for (i = 0; i < g->count; i++)
        free(g->table[i].wrong);
    free(g->table);
    memset(g, 0, sizeof *g);
}
