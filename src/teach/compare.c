/* compare.c - a controlled comparison (SPEC §8): the inputs that differ, and for each
 * table of the run whether it changed and by how much at most. */
#include "attnstep/compare.h"
#include "attnstep/outhead.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the inputs ---- */

/* Nonzero when a and b have the same shape and values (-inf equal to -inf). */
static int same_matrix(const as_matrix *a, const as_matrix *b)
{
    size_t i;

    if (a->rows != b->rows || a->cols != b->cols)
        return 0;
    for (i = 0; i < a->rows * a->cols; i++)
        if (a->v[i] != b->v[i])
            return 0;
    return 1;
}

static int same_labels(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    size_t i;

    if (na != nb)
        return 0;
    for (i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return 0;
    return 1;
}

static void add_input(as_comparison *c, const char *name)
{
    if (c->ninputs < AS_COMPARE_MAX_INPUTS)
        c->inputs[c->ninputs++] = name;
}

/* Which category of input changed, as a bit: what decides the reason. Each step of
 * the chapter that an input enters has its own: the Queries and Keys (the raw scores),
 * the scaling, the mask, the Values, the output projection. */
enum { IN_X = 1, IN_SCORE = 2, IN_VALUE = 4, IN_OUT = 8, IN_OTHER = 16, IN_MASK = 32,
       IN_SCALE = 64, IN_HEAD = 128 };

static unsigned category(as_mat_id id)
{
    static const unsigned cat[AS_NMAT] = {
        [AS_X] = IN_X, [AS_XKV] = IN_X, [AS_WQ] = IN_SCORE, [AS_WK] = IN_SCORE,
        [AS_BQ] = IN_SCORE, [AS_BK] = IN_SCORE, [AS_M] = IN_MASK, [AS_WV] = IN_VALUE,
        [AS_BV] = IN_VALUE, [AS_WO] = IN_OUT, [AS_BO] = IN_OUT};

    return cat[id];
}

/* The output head's settings that differ (SPEC §19): they change no table of the layer,
 * only what comes after it; returns IN_HEAD when any does. */
static unsigned compare_head(as_comparison *c, const as_problem *pb, const as_problem *pv)
{
    const as_head_settings *a = &pb->in->out, *b = &pv->in->out;
    unsigned cats = 0;

    if (pb->head != pv->head)
        add_input(c, "head"), cats = IN_HEAD;
    if (pb->temperature != pv->temperature)
        add_input(c, "temperature"), cats = IN_HEAD;
    if (pb->top_k != pv->top_k)
        add_input(c, "top_k"), cats = IN_HEAD;
    if (pb->top_p != pv->top_p)
        add_input(c, "top_p"), cats = IN_HEAD;
    if (a->sample_set != b->sample_set || pb->seeded != pv->seeded || pb->seed != pv->seed)
        add_input(c, "sample"), cats = IN_HEAD;
    return cats;
}

/* The matrices and settings that differ; returns their categories. */
static unsigned compare_inputs(as_comparison *c, const as_problem *pb, const as_trace *tb,
                               const as_problem *pv, const as_trace *tv)
{
    unsigned cats = 0;
    int id;

    for (id = 0; id < AS_NMAT; id++) {
        const as_named *a = &pb->in->mat[id], *b = &pv->in->mat[id];
        if (a->given == b->given && (!a->given || same_matrix(&a->m, &b->m)))
            continue;
        add_input(c, as_mat_name((as_mat_id)id));
        cats |= category((as_mat_id)id);
    }
    /* the mask as the run applies it: a setting, a window or --mask (a matrix M that
     * differs is named above) */
    if (!(cats & IN_MASK) && !same_matrix(&tb->M, &tv->M) && pb->n == pv->n && pb->m == pv->m) {
        add_input(c, "mask");
        cats |= IN_MASK;
    }
    /* a scale the input sets; 1/√d_k follows d_k, which the W tables decide */
    if (pb->scale != pv->scale && !(pb->scale_auto && pv->scale_auto)) {
        add_input(c, "scale");
        cats |= IN_SCALE;
    }
    if (pb->heads != pv->heads) {
        add_input(c, "heads");
        cats |= IN_OTHER;
    }
    cats |= compare_head(c, pb, pv);
    if (!same_labels(pb->tokens, pb->n, pv->tokens, pv->n))
        add_input(c, "tokens");
    if (pb->cross && !same_labels(pb->kv_tokens, pb->m, pv->kv_tokens, pv->m))
        add_input(c, "kv_tokens");
    return cats;
}

/* The reason for a set of changed categories: X changes everything; one path its own. */
static as_msg reason(unsigned cats)
{
    if (cats & IN_X)
        return AS_MSG_WHY_X;
    switch (cats) {
    case 0: return AS_MSG_COUNT;
    case IN_SCORE: return AS_MSG_WHY_SCORE;
    case IN_MASK: return AS_MSG_WHY_MASK;
    case IN_SCALE: return AS_MSG_WHY_SCALE;
    case IN_VALUE: return AS_MSG_WHY_VALUE;
    case IN_OUT: return AS_MSG_WHY_OUT;
    case IN_HEAD: return AS_MSG_WHY_HEAD;
    default: return AS_MSG_WHY_MIXED;
    }
}

/* ---- the tables ---- */

static void diff(as_table_diff *d, const char *name, const as_matrix *b, const as_matrix *v)
{
    size_t i;

    snprintf(d->name, sizeof d->name, "%s", name);
    d->base = b;
    d->variant = v;
    d->comparable = v != NULL && b->rows == v->rows && b->cols == v->cols;
    d->changed = !d->comparable || !same_matrix(b, v);
    d->max_abs_diff = 0;
    for (i = 0; d->comparable && i < b->rows * b->cols; i++) {
        const double x = b->v[i], y = v->v[i];
        const double delta = x == y ? 0 : isinf(x) || isinf(y) ? INFINITY : fabs(x - y);
        if (delta > d->max_abs_diff)
            d->max_abs_diff = delta;
    }
}

/* One head's tables: QKT, S, A (and its O when the head's O is not the output). */
static void head_tables(as_comparison *c, const as_problem *pb, const as_trace *tb,
                        const as_trace *tv, size_t h)
{
    static const as_tab base[] = {AS_TAB_QKT, AS_TAB_S, AS_TAB_A, AS_TAB_O};
    const as_head_trace *hb = &tb->head[h], *hv = h < tv->heads ? &tv->head[h] : NULL;
    const as_matrix *mb[] = {&hb->QKT, &hb->S, &hb->A, &hb->O};
    const as_matrix *mv[] = {hv ? &hv->QKT : NULL, hv ? &hv->S : NULL, hv ? &hv->A : NULL,
                             hv ? &hv->O : NULL};
    const size_t kinds = pb->heads > 1 ? 4 : 3;
    char name[32];
    size_t k;

    for (k = 0; k < kinds; k++) {
        snprintf(name, sizeof name, pb->heads > 1 ? "%s_h%zu" : "%s", as_tab_get(base[k])->name, h);
        diff(&c->table[c->count++], name, mb[k], mv[k]);
    }
}

int as_compare(as_comparison *c, const as_problem *pb, const as_trace *tb, const as_problem *pv,
               const as_trace *tv)
{
    size_t h;

    memset(c, 0, sizeof *c);
    c->reason = reason(compare_inputs(c, pb, tb, pv, tv));
    /* Q, K, V; each head's QKT, S, A (O); C; O */
    if ((c->table = calloc(7 + 4 * tb->heads, sizeof *c->table)) == NULL)
        return -1;
    diff(&c->table[c->count++], "Q", &tb->Q, &tv->Q);
    diff(&c->table[c->count++], "K", &tb->K, &tv->K);
    diff(&c->table[c->count++], "V", &tb->V, &tv->V);
    for (h = 0; h < tb->heads; h++)
        head_tables(c, pb, tb, tv, h);
    if (pb->heads > 1 || pb->Wo != NULL)
        diff(&c->table[c->count++], "C", &tb->C, &tv->C);
    diff(&c->table[c->count++], "O", &tb->O, &tv->O);
    if (tb->out != NULL && tv->out != NULL) { /* SPEC §19: the head after the layer */
        diff(&c->table[c->count++], "logits", &tb->out->logits, &tv->out->logits);
        diff(&c->table[c->count++], "probs", &tb->out->final, &tv->out->final);
    }
    return 0;
}

void as_comparison_free(as_comparison *c)
{
    free(c->table);
    memset(c, 0, sizeof *c);
}
