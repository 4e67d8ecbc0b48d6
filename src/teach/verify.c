/* verify.c - checking a book (SPEC §18): the chapter's given tables make the problem, the
 * run recomputes it, and every printed number is judged by check's cell rule, with the
 * author as the student; a wrong one is tried against check's named mistakes (the own
 * chain of ownchain.h, each mistake's variant, laid over no answers). A wrong number
 * that its step gives from the chapter's own printed blocks, one of them wrong, is
 * carried: the same chain with the printed blocks laid over it as a student's answers,
 * so that a mistake is reported once, where it is made. */
#include "attnstep/verify.h"
#include "attnstep/answers.h"
#include "attnstep/check.h"
#include "attnstep/i18n.h"
#include "attnstep/ownchain.h"
#include "attnstep/parse.h"
#include "attnstep/positions.h"
#include "attnstep/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The problem the chapter gives, run, and the mistakes' chains made when first asked. */
typedef struct work {
    as_input in;
    as_problem p;
    as_trace t;
    as_chain_cache cache;
    int cached;
    as_answer *given;     /* nans: the chapter's printed blocks as a student's answers */
    as_table_grade *ans;
    size_t *ans_item;     /* the item each answer is */
    size_t nans;
    as_chain_cache own;   /* the chain on them */
    int own_made;
    long *origin;         /* per item: the item where its mistake was made, -1: none */
} work;

/* ------------------------------------------------------------------ the problem ---- */

/* The chapter's given tables (X, Wq, Wk, Wv, M …) as an input; the last printing of
 * each counts. 0, or -1 with err set. */
static int given_input(as_input *in, const as_chapter *ch, as_error *err)
{
    static const as_mat_id needed[] = {AS_X, AS_WQ, AS_WK, AS_WV};
    size_t i;

    memset(in, 0, sizeof *in);
    if ((in->path = malloc(strlen(ch->path) + 1)) == NULL)
        goto memory;
    strcpy(in->path, ch->path);
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        as_named *nm = &in->mat[it->input];
        if (it->what != AS_PR_INPUT)
            continue;
        as_matrix_free(&nm->m);
        if (as_matrix_copy(&nm->m, &it->value) != 0)
            goto memory;
        nm->given = 1;
        nm->pos = it->pos;
        if (it->input == AS_M)
            in->mask = AS_MASK_CUSTOM;
    }
    for (i = 0; i < ch->count; i++) {
        if (ch->item[i].what == AS_PR_PE)
            in->positions = AS_POSITIONS_SINUSOIDAL; /* Q = (X + PE) @ Wq */
        if (ch->item[i].head >= 0 && (size_t)ch->item[i].head >= in->heads)
            in->heads = (size_t)ch->item[i].head + 1; /* S₁ printed: at least two heads */
    }
    for (i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!in->mat[needed[i]].given) {
            as_error_msg(err, ch->path, 1, 1, AS_MSG_VF_NOT_GIVEN, as_mat_name(needed[i]));
            as_error_hint_msg(err, AS_MSG_VF_NOT_GIVEN_HINT);
            return -1;
        }
    return 0;
memory:
    as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
    return -1;
}

/* ------------------------------------------------------------------ the values ---- */

/* The answer kind a printed item is checked as in a chain, and its head: the layer's
 * Q, K, V, O unless named with a head's subscript (Q₀, O₁); the scores' tables of the
 * head named, or of head 0. */
static as_answer_kind chain_kind(const as_printed *it, long *head)
{
    const long named = it->head;

    *head = named < 0 ? 0 : named;
    switch (it->what) {
    case AS_PR_Q: *head = named; return AS_ANS_Q;
    case AS_PR_K: *head = named; return AS_ANS_K;
    case AS_PR_V: *head = named; return AS_ANS_V;
    case AS_PR_QKT: return AS_ANS_QKT;
    case AS_PR_A: return AS_ANS_A;
    case AS_PR_O: *head = named; return AS_ANS_O;
    case AS_PR_C: *head = -1; return AS_ANS_C;
    default: return AS_ANS_S; /* the scaled scores, their shift, exps and sum come from S */
    }
}

/* The table of the run that holds item it (a head's when it names one, else the layer's
 * Q, K, V, O and head 0's scores); the problem has every head the chapter names
 * (given_input()). */
static const as_matrix *run_table(const as_trace *t, const as_printed *it)
{
    const as_head_trace *h = &t->head[it->head < 0 ? 0 : it->head];
    const int layer = it->head < 0;

    switch (it->what) {
    case AS_PR_Q: return layer ? &t->Q : &h->Q;
    case AS_PR_K: return layer ? &t->K : &h->K;
    case AS_PR_V: return layer ? &t->V : &h->V;
    case AS_PR_QKT: return &h->QKT;
    case AS_PR_SCALED: return &h->scaled;
    case AS_PR_S: return &h->S;
    case AS_PR_SHIFTED: return &h->shifted;
    case AS_PR_EXPS: return &h->exps;
    case AS_PR_SUM: return &h->sums;
    case AS_PR_A: return &h->A;
    case AS_PR_C: return &t->C;
    default: return layer ? &t->O : &h->O;
    }
}

/* Cell (i, j) of a softmax sub-step (what: shifted, exps or sum) of row i of scores s
 * [rows, m]; NAN when the row reads nothing or memory ran out. */
static double softmax_step(const as_matrix *s, as_printed_what what, size_t i, size_t j)
{
    double *room = malloc(3 * s->cols * sizeof *room), mx, sum, x;

    if (room == NULL)
        return NAN;
    if (as_softmax_rows(room, &mx, room + s->cols, room + 2 * s->cols, &sum,
                        s->v + i * s->cols, 1, s->cols) >= 0)
        x = NAN;
    else
        x = what == AS_PR_SUM ? sum : room[(what == AS_PR_SHIFTED ? 1 : 2) * s->cols + j];
    free(room);
    return x;
}

/* Cell (i, j) of item it in the chain of mistake variant k; NAN where that chain has
 * none (or says nothing different of a masked cell). */
static double variant_value(work *w, size_t k, const as_printed *it, size_t i, size_t j)
{
    const as_printed_what what = it->what;
    const as_chain *c;
    const as_chain_slot *s;
    as_table_grade g;

    if (!w->cached) {
        as_chain_cache_init(&w->cache, &w->p, &w->t.M, NULL, 0);
        w->cached = 1;
    }
    if ((c = as_chain_get(&w->cache, k)) == NULL)
        return NAN;
    memset(&g, 0, sizeof g);
    g.kind = chain_kind(it, &g.head);
    s = as_chain_slot_of(c, &w->p, &g);
    if (!s->ok || i >= s->calc.rows || (what != AS_PR_SUM && j >= s->calc.cols))
        return NAN;
    if (what == AS_PR_SCALED)
        return w->t.M.v[i * w->t.M.cols + j] == 0 ? s->calc.v[i * s->calc.cols + j] : NAN;
    if (what == AS_PR_SHIFTED || what == AS_PR_EXPS || what == AS_PR_SUM)
        return softmax_step(&s->calc, what, i, j);
    return s->calc.v[i * s->calc.cols + j];
}

/* ------------------------------------------------------------------ judging ---- */

/* check's cell rule: each printed number to half a unit of its last printed place. */
static const as_check_opts cell_rule = {.tol = -1.0};

/* The verdict on printed w (unit u) for the right value x. */
static as_vverdict judge(double w, double u, double x)
{
    if (as_cell_judge(w, u, x, &cell_rule) == AS_CELL_RIGHT)
        return AS_VF_AGREES;
    if (u > 0 && isfinite(x) && isfinite(w)) {
        if (fabs(w / u - trunc(x / u)) < 1e-3) /* in units: w - trunc(x/u)*u is off by
                                                  * an ulp of w, more than 1e-6 units */
            return AS_VF_TRUNCATED;
        if (fabs(w - x) < u)
            return AS_VF_ROUNDED;
    }
    return AS_VF_WRONG;
}

/* The first named mistake whose chain gives the wrong printed number of n (and differs
 * there from the right value). */
static as_fit find_variant(work *w, const as_vnumber *n)
{
    as_fit none = {AS_DIAG_NONE, 0};
    size_t k;
    double x;

    if (n->item->what == AS_PR_SQRT)
        return none;
    for (k = 1; k < AS_CHAIN_VARIANTS; k++) {
        x = variant_value(w, k, n->item, (size_t)n->row, (size_t)n->col);
        if (!isnan(x) && as_cell_judge(x, 0, n->right, &cell_rule) != AS_CELL_RIGHT &&
            as_cell_judge(n->printed, n->unit, x, &cell_rule) == AS_CELL_RIGHT)
            return as_chain_variant(k);
    }
    return none;
}

/* ------------------------------------------------------------------ PE tables ---- */

/* Cell (r, c) of the sinusoidal table [n, d] of variant k (AS_PE_NONE: the right one);
 * NAN where the variant has no such cell (swapped, the last column of an odd d). */
static double pe_value(const double *right, const double *base100, size_t d, as_pe_variant k,
                       size_t r, size_t c)
{
    switch (k) {
    case AS_PE_BASE_100: return base100[r * d + c];
    case AS_PE_SIN_COS_SWAPPED: return (c ^ 1) < d ? right[r * d + (c ^ 1)] : NAN;
    default: return right[r * d + c];
    }
}

/* Checks the printed PE table it (its positions 0 .. rows-1, d_model its columns) into v,
 * each wrong number tried against base 100 and sin/cos swapped. 0, or -1 with err set. */
static int check_pe(as_verify *v, const as_printed *it, const char *path, as_error *err)
{
    const size_t n = it->value.rows, d = it->value.cols;
    double *right = malloc(2 * n * d * sizeof *right), *base100 = right + n * d;
    size_t r, c, k;

    if (right == NULL) {
        as_error_msg(err, path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    as_sinusoidal(right, n, d, 0);
    as_sinusoidal_base(base100, n, d, 0, 100.0);
    for (r = 0; r < n; r++)
        for (c = 0; c < d; c++) {
            as_vnumber *num = &v->num[v->count++];
            memset(num, 0, sizeof *num);
            num->item = it;
            num->row = (long)r;
            num->col = (long)c;
            num->printed = it->value.v[r * d + c];
            num->unit = it->unit.v[r * d + c];
            num->at = it->at[r * d + c];
            num->right = right[r * d + c];
            num->verdict = judge(num->printed, num->unit, num->right);
            for (k = 1; num->verdict == AS_VF_WRONG && k < AS_PE_VARIANTS; k++) {
                const double x = pe_value(right, base100, d, (as_pe_variant)k, r, c);
                if (!isnan(x) && as_cell_judge(x, 0, num->right, &cell_rule) != AS_CELL_RIGHT &&
                    as_cell_judge(num->printed, num->unit, x, &cell_rule) == AS_CELL_RIGHT) {
                    num->pe_variant = (as_pe_variant)k;
                    break;
                }
            }
            v->agree += num->verdict == AS_VF_AGREES;
        }
    free(right);
    return 0;
}

/* -1 with err set: item it (cells [r, c]) does not fit the run's table t. */
static int misfit(const as_printed *it, const as_matrix *t, const char *path, as_error *err)
{
    as_error_msg(err, path, it->pos.line, it->pos.col, AS_MSG_VF_MISFIT, it->name,
                 it->value.rows, it->value.cols, t->rows, t->cols);
    as_error_hint_msg(err, AS_MSG_VF_MISFIT_HINT);
    return -1;
}

/* Checks every number of item it into v (room made by the caller). 0 or -1. */
static int check_item(as_verify *v, work *w, const as_printed *it, const char *path,
                      as_error *err)
{
    const as_matrix *t;
    size_t r, c;

    t = it->what == AS_PR_SQRT ? NULL : run_table(&w->t, it);

    if (t != NULL && (it->row >= 0 ? (size_t)it->row >= t->rows || it->value.rows != 1
                                   : it->value.rows != t->rows))
        return misfit(it, t, path, err);
    if (t != NULL && (it->col >= 0 ? (size_t)it->col >= t->cols || it->value.cols != 1
                                   : it->value.cols != t->cols))
        return misfit(it, t, path, err);
    for (r = 0; r < it->value.rows; r++)
        for (c = 0; c < it->value.cols; c++) {
            as_vnumber *n = &v->num[v->count++];
            const size_t k = r * it->value.cols + c;
            memset(n, 0, sizeof *n);
            n->item = it;
            n->row = it->row >= 0 ? it->row : (long)r;
            n->col = it->col >= 0 ? it->col : (long)c;
            n->printed = it->value.v[k];
            n->unit = it->unit.v[k];
            n->at = it->at[k];
            n->right = t == NULL ? sqrt(it->arg) : t->v[n->row * t->cols + n->col];
            if (t == NULL)
                n->row = n->col = -1;
            n->verdict = judge(n->printed, n->unit, n->right);
            if (n->verdict == AS_VF_WRONG)
                n->variant = find_variant(w, n);
            v->agree += n->verdict == AS_VF_AGREES;
        }
    return 0;
}

/* ------------------------------------------------------------------ carried errors ---- */

/* Nonzero for a block the chain can take as an answer (whole Q … O, C). */
static int chain_block(const as_printed *it)
{
    return it->row < 0 && it->col < 0 && it->what >= AS_PR_Q && it->what <= AS_PR_C &&
           it->what != AS_PR_SCALED && it->what != AS_PR_SHIFTED && it->what != AS_PR_EXPS &&
           it->what != AS_PR_SUM;
}

/* The chapter's printed blocks as graded answers, the chain on them started, and every
 * item's origin -1. 0, or -1 with err set. */
static int printed_answers(work *w, const as_chapter *ch, as_error *err)
{
    const size_t n = ch->count ? ch->count : 1;
    size_t i;

    w->given = calloc(n, sizeof *w->given);
    w->ans = calloc(n, sizeof *w->ans);
    w->ans_item = calloc(n, sizeof *w->ans_item);
    w->origin = malloc(n * sizeof *w->origin);
    if (w->given == NULL || w->ans == NULL || w->ans_item == NULL || w->origin == NULL) {
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        as_table_grade *g = &w->ans[w->nans];
        w->origin[i] = -1;
        if (!chain_block(it))
            continue;
        w->given[w->nans].value = it->value; /* borrowed: never freed through the answer */
        w->given[w->nans].unit = it->unit;
        w->given[w->nans].pos = it->pos;
        g->kind = chain_kind(it, &g->head);
        g->row = -1;
        g->index = w->nans;
        g->given = &w->given[w->nans];
        g->shape_ok = 1;
        w->ans_item[w->nans++] = i;
    }
    as_chain_cache_init(&w->own, &w->p, &w->t.M, w->ans, w->nans);
    w->own_made = 1;
    return 0;
}

/* Cell (i, j) of item it in the chain on the printed blocks, with how far their rounding
 * moves it (*slack) and the answers it comes from (*bits); NAN where that chain has
 * none, and for the softmax's sub-steps (their rounding is not followed). */
static double own_value(work *w, const as_printed *it, size_t i, size_t j, double *slack,
                        uint64_t *bits)
{
    const as_printed_what what = it->what;
    const as_chain *c = as_chain_get(&w->own, 0);
    const as_chain_slot *s;
    as_table_grade g;

    if (c == NULL || what == AS_PR_SHIFTED || what == AS_PR_EXPS || what == AS_PR_SUM)
        return NAN;
    memset(&g, 0, sizeof g);
    g.kind = chain_kind(it, &g.head);
    s = as_chain_slot_of(c, &w->p, &g);
    if (!s->ok || i >= s->calc.rows || j >= s->calc.cols ||
        (what == AS_PR_SCALED && w->t.M.v[i * w->t.M.cols + j] != 0))
        return NAN;
    *slack = s->cerr.v[i * s->calc.cols + j];
    *bits = s->ctaint[i];
    return s->calc.v[i * s->calc.cols + j];
}

/* The first printing of what item it holds where a mistake was made (it itself when
 * none is earlier). */
static long first_printing(const work *w, const as_chapter *ch, size_t it)
{
    size_t j;

    for (j = 0; j < it; j++)
        if (ch->item[j].what == ch->item[it].what && w->origin[j] == (long)j)
            return (long)j;
    return (long)it;
}

/* The item where the mistake behind wrong number n was made, when n is what its step
 * gives from the printed blocks and one of those is wrong; -1 otherwise. */
static long carried_from(work *w, const as_chapter *ch, const as_vnumber *n)
{
    double slack = 0;
    uint64_t bits = 0;
    size_t k;
    const double x = n->row < 0 ? NAN : own_value(w, n->item, (size_t)n->row,
                                                  (size_t)n->col, &slack, &bits);

    if (isnan(x) || !as_answer_cell_ok(n->printed, n->unit, x, -1.0, slack))
        return -1;
    for (k = 0; k < w->nans; k++)
        if ((bits & AS_CHAIN_BIT(k)) && w->origin[w->ans_item[k]] >= 0)
            return first_printing(w, ch, (size_t)w->origin[w->ans_item[k]]);
    return -1;
}

/* Every item with a wrong number is where a mistake was made; then, in the order
 * printed, each wrong number its step gives from the printed blocks is carried, and an
 * item whose wrong numbers are all carried takes the origin of what it was made from. */
static void carry(as_verify *v, work *w, const as_chapter *ch)
{
    size_t i, start;

    for (i = 0; i < v->count; i++)
        if (v->num[i].verdict == AS_VF_WRONG)
            w->origin[v->num[i].item - ch->item] = v->num[i].item - ch->item;
    for (start = 0; start < v->count; start = i) {
        const size_t it = (size_t)(v->num[start].item - ch->item);
        long from = -1;
        int left = 0;
        for (i = start; i < v->count && v->num[i].item == v->num[start].item; i++) {
            as_vnumber *n = &v->num[i];
            const long f = n->verdict == AS_VF_WRONG && n->item->what != AS_PR_PE
                               ? carried_from(w, ch, n) : -1;
            if (f < 0) {
                left |= n->verdict == AS_VF_WRONG;
                continue;
            }
            from = f;
            n->verdict = AS_VF_CARRIED;
            n->from = &ch->item[f];
            n->variant.diag = AS_DIAG_NONE;
            n->variant.detail = 0;
        }
        if (!left && from >= 0)
            w->origin[it] = w->origin[from];
    }
}

/* Nonzero when a printed item of ch needs the run (a PE table or √N does not). */
static int needs_run(const as_chapter *ch)
{
    size_t i;

    for (i = 0; i < ch->count; i++)
        if (ch->item[i].what != AS_PR_INPUT && ch->item[i].what != AS_PR_PE &&
            ch->item[i].what != AS_PR_SQRT)
            return 1;
    return 0;
}

int as_verify_chapter(as_verify *v, const as_chapter *ch, as_error *err)
{
    work w;
    size_t i, total = 0;
    int rc = -1;

    memset(v, 0, sizeof *v);
    memset(&w, 0, sizeof w);
    if (needs_run(ch) && (given_input(&w.in, ch, err) != 0 ||
                          as_problem_build(&w.p, &w.in, AS_MASK_DEFAULT, err) != 0 ||
                          as_attention_run(&w.t, &w.p, err) != 0))
        goto done;
    for (i = 0; i < ch->count; i++)
        if (ch->item[i].what != AS_PR_INPUT)
            total += ch->item[i].value.rows * ch->item[i].value.cols;
    if (total > 0 && (v->num = calloc(total, sizeof *v->num)) == NULL) {
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        goto done;
    }
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        if (it->what != AS_PR_INPUT &&
            (it->what == AS_PR_PE ? check_pe(v, it, ch->path, err)
                                  : check_item(v, &w, it, ch->path, err)) != 0)
            goto done;
    }
    if (v->agree < v->count && needs_run(ch)) {
        if (printed_answers(&w, ch, err) != 0)
            goto done;
        carry(v, &w, ch);
    }
    rc = 0;
done:
    if (w.own_made)
        as_chain_cache_free(&w.own);
    free(w.given);
    free(w.ans);
    free(w.ans_item);
    free(w.origin);
    if (w.cached)
        as_chain_cache_free(&w.cache);
    as_trace_free(&w.t);
    as_problem_free(&w.p);
    as_input_free(&w.in);
    if (rc != 0)
        as_verify_free(v);
    return rc;
}

void as_verify_free(as_verify *v)
{
    free(v->num);
    memset(v, 0, sizeof *v);
}
