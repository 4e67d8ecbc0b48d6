/* ownchain.c - the student's own chain (SPEC §6); see ownchain.h. Every step is the
 * chapter's (attention.h) or a mistaken one (mistake_steps.h); this file only decides
 * what each step starts from: the student's table where they gave it. */
#include "attnstep/ownchain.h"
#include "attnstep/steps.h"
#include "attnstep/mistake_steps.h"
#include "attnstep/positions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The variants tried on a wrong table: the right chain first, then each mistake. */
static const as_fit variants[AS_CHAIN_VARIANTS] = {
    {AS_DIAG_NONE, 0},
    {AS_DIAG_NO_SCALE, 0},        {AS_DIAG_SCALE_MULTIPLIED, 0}, {AS_DIAG_SCALE_BY_DK, 0},
    {AS_DIAG_NO_MASK, 0},         {AS_DIAG_MASKED_ZERO, 0},      {AS_DIAG_INVERTED_MASK, 0},
    {AS_DIAG_MASK_AFTER_SOFTMAX, 0}, {AS_DIAG_NO_NORMALIZE, 0},  {AS_DIAG_NO_NORMALIZE, 1},
    {AS_DIAG_SOFTMAX_COLUMNS, 0}, {AS_DIAG_KEYS_FOR_VALUES, 0},
    {AS_DIAG_WRONG_WEIGHTS, 1},   {AS_DIAG_WRONG_WEIGHTS, 2},    {AS_DIAG_WRONG_WEIGHTS, 3},
    {AS_DIAG_WRONG_WEIGHTS, 5},   {AS_DIAG_WRONG_WEIGHTS, 6},    {AS_DIAG_WRONG_WEIGHTS, 7},
    {AS_DIAG_TORCH_LAYOUT, 0},    {AS_DIAG_TORCH_LAYOUT, 1},     {AS_DIAG_TORCH_LAYOUT, 2},
};

as_fit as_chain_variant(size_t i)
{
    return variants[i < AS_CHAIN_VARIANTS ? i : 0];
}

/* ---- slots ---- */

enum { HEAD_SLOTS = 7 }; /* a head's Q, K, V, QKT, S, A, O: the kinds' own order */
/* the slots follow the registry's order of answer kinds (tables.def): a row put among
 * these seven must be given a slot here, and the build says so */
_Static_assert(AS_ANS_Q == 0 && AS_ANS_K == 1 && AS_ANS_V == 2 && AS_ANS_QKT == 3 &&
                   AS_ANS_S == 4 && AS_ANS_A == 5 && AS_ANS_O == 6 && AS_ANS_C == 7,
               "ownchain.c: the chain's slots are Q, K, V, QKT, S, A, O, then C");

static size_t slot_c(const as_problem *p)
{
    return 3 + HEAD_SLOTS * p->heads;
}

static size_t slot_index(const as_problem *p, as_answer_kind kind, long head)
{
    if (head >= 0 && kind <= AS_ANS_O)
        return 3 + HEAD_SLOTS * (size_t)head + (size_t)kind;
    if (kind <= AS_ANS_V)
        return (size_t)kind;
    return slot_c(p) + (kind == AS_ANS_O);
}

const as_chain_slot *as_chain_slot_of(const as_chain *c, const as_problem *p,
                                      const as_table_grade *g)
{
    return &c->slot[slot_index(p, g->kind, g->head)];
}

/* Makes calc rows x cols with its taint and its error (0); ok set. Returns 0 or -1. */
static int make(as_chain_slot *s, size_t rows, size_t cols)
{
    if (as_matrix_init(&s->calc, rows, cols) != 0 || as_matrix_init(&s->cerr, rows, cols) != 0 ||
        (s->ctaint = calloc(rows ? rows : 1, sizeof *s->ctaint)) == NULL)
        return -1;
    s->ok = 1;
    return 0;
}

/* ---- laying the student's answers over a step's result ---- */

typedef struct ctx {
    const as_problem *p;
    const as_matrix *M; /* the mask the run applied */
    const as_table_grade *ans;
    size_t n;
    as_fit v;
    int from;     /* the kind of the step the mistake changes: the student's tables of
                   * that kind and after are not laid over (the mistake's own tables are
                   * computed), except Q, K and V: a projection written is the one the
                   * student went on with; AS_ANS_KINDS for the right chain */
    as_chain *c;
} ctx;

/* The kind of the step a mistake changes: where it first shows. */
static int step_of(as_fit v)
{
    switch (v.diag) {
    case AS_DIAG_NONE: return AS_ANS_KINDS;
    case AS_DIAG_NO_NORMALIZE:
    case AS_DIAG_SOFTMAX_COLUMNS: return AS_ANS_A;
    case AS_DIAG_KEYS_FOR_VALUES: return AS_ANS_O;
    case AS_DIAG_WRONG_WEIGHTS: return v.detail / 3;
    case AS_DIAG_TORCH_LAYOUT: return v.detail;
    default: return AS_ANS_S; /* the scale and the mask (also mask_after_softmax) */
    }
}

/* The kind of slot idx (C and the layer's O come after every head's tables). */
static int slot_kind(const as_problem *p, size_t idx)
{
    if (idx < 3)
        return (int)idx;
    if (idx < slot_c(p))
        return (int)((idx - 3) % HEAD_SLOTS);
    return AS_ANS_KINDS;
}

/* own = calc, then the student's whole table (in the right shape) or their rows. */
static int settle(const ctx *x, size_t idx)
{
    as_chain_slot *s = &x->c->slot[idx];
    const size_t rows = s->calc.rows, cols = s->calc.cols;
    size_t i, r;
    int whole = 0;

    if (!s->ok)
        return 0;
    if (as_matrix_copy(&s->own, &s->calc) != 0 || as_matrix_copy(&s->oerr, &s->cerr) != 0 ||
        (s->taint = calloc(rows ? rows : 1, sizeof *s->taint)) == NULL)
        return -1;
    memcpy(s->taint, s->ctaint, rows * sizeof *s->taint);
    if (slot_kind(x->p, idx) >= x->from && slot_kind(x->p, idx) > AS_ANS_V)
        return 0; /* the mistake's own tables; a Q, K or V written stays what was written */
    for (i = 0; i < x->n && !whole; i++) {
        const as_table_grade *g = &x->ans[i];
        if (g->row >= 0 || slot_index(x->p, g->kind, g->head) != idx ||
            g->given->value.rows != rows || g->given->value.cols != cols)
            continue;
        memcpy(s->own.v, g->given->value.v, rows * cols * sizeof *s->own.v);
        for (r = 0; r < rows * cols; r++)
            s->oerr.v[r] = g->given->unit.v[r] / 2; /* known to half a unit, no better */
        for (r = 0; r < rows; r++)
            s->taint[r] = AS_CHAIN_BIT(i);
        whole = 1;
    }
    for (i = 0; i < x->n && !whole; i++) {
        const as_table_grade *g = &x->ans[i];
        if (g->row < 0 || slot_index(x->p, g->kind, g->head) != idx || (size_t)g->row >= rows ||
            g->given->value.rows != 1 || g->given->value.cols != cols)
            continue;
        memcpy(&AS_AT(s->own, g->row, 0), g->given->value.v, cols * sizeof *s->own.v);
        for (r = 0; r < cols; r++)
            AS_AT(s->oerr, g->row, r) = g->given->unit.v[r] / 2;
        s->taint[g->row] = AS_CHAIN_BIT(i);
    }
    return 0;
}

/* The union of every row's taint. */
static uint64_t all_rows(const as_chain_slot *s)
{
    uint64_t t = 0;
    size_t r;

    for (r = 0; r < s->own.rows; r++)
        t |= s->taint[r];
    return t;
}

/* ---- how far the rounding of the written tables moves a step (SPEC §6) ---- */

/* out[i,j] = Σ_c |b| ea + |a| eb + ea eb of the products a[i,c]·b[j,c] (bt: b's rows are
 * the second factor's columns, as in QKᵀ) or a[i,c]·b[c,j] (as in A·V): the most each
 * product moves, |(a ± ea)(b ± eb) − ab| ≤ |b| ea + |a| eb + ea eb, so the bound holds
 * beyond first order. */
static void products_error(as_matrix *out, const as_matrix *a, const as_matrix *ea,
                           const as_matrix *b, const as_matrix *eb, int bt)
{
    size_t i, j, c;

    for (i = 0; i < out->rows; i++)
        for (j = 0; j < out->cols; j++) {
            double e = 0;
            for (c = 0; c < a->cols; c++) {
                const double bv = bt ? AS_AT(*b, j, c) : AS_AT(*b, c, j);
                const double be = bt ? AS_AT(*eb, j, c) : AS_AT(*eb, c, j);
                const double ae = AS_AT(*ea, i, c);
                if (isfinite(bv) && isfinite(AS_AT(*a, i, c)))
                    e += fabs(bv) * ae + fabs(AS_AT(*a, i, c)) * be + ae * be;
            }
            AS_AT(*out, i, j) = e;
        }
}

/* out = e @ |W|: the error of C through the output projection. */
static void weighted_error(as_matrix *out, const as_matrix *e, const as_matrix *W)
{
    size_t i, j, k;

    for (i = 0; i < out->rows; i++)
        for (j = 0; j < out->cols; j++) {
            double sum = 0;
            for (k = 0; k < W->rows; k++)
                sum += AS_AT(*e, i, k) * fabs(AS_AT(*W, k, j));
            AS_AT(*out, i, j) = sum;
        }
}

/* The error of the shares a made from the scores s known to es. The row softmax, by
 * interval arithmetic (exact, where first order falls short when several scores sit on
 * a half unit: a share of 0.7405 moved 0.00192 by four scores rounded at 2 places, its
 * first-order bound 0.00191): a_ij is at most 1 / (1 + Σ_k≠j e^(s_ik − es_ik − s_ij −
 * es_ij)) and at least the same with the signs turned; the sums are taken once per row,
 * shifted by the row's largest score. A share set to 0 after the softmax (the mask after
 * it) is exact. Another way (a mistake's: columns, exps not divided) is bounded as
 * a_ij · 2 · the largest es of the table. A masked score (-inf) is exact. */
static void shares_error(as_matrix *out, const as_matrix *a, const as_matrix *es,
                         const as_matrix *s, int rows)
{
    size_t i, j, k, all = a->rows * a->cols;
    double most = 0;

    for (k = 0; k < all; k++)
        if (isfinite(s->v[k]) && es->v[k] > most)
            most = es->v[k];
    for (i = 0; i < a->rows; i++) {
        double top = -INFINITY, up = 0, down = 0; /* Σ e^(s ± es − top) */
        for (k = 0; rows && k < a->cols; k++)
            if (isfinite(AS_AT(*s, i, k)) && AS_AT(*s, i, k) > top)
                top = AS_AT(*s, i, k);
        for (k = 0; rows && k < a->cols; k++)
            if (isfinite(AS_AT(*s, i, k))) {
                up += exp(AS_AT(*s, i, k) + AS_AT(*es, i, k) - top);
                down += exp(AS_AT(*s, i, k) - AS_AT(*es, i, k) - top);
            }
        for (j = 0; j < a->cols; j++) {
            const double aij = AS_AT(*a, i, j), sij = AS_AT(*s, i, j), eij = AS_AT(*es, i, j);
            double hi_own, lo_own, hi, lo;
            if (!rows || !isfinite(aij)) {
                AS_AT(*out, i, j) = isfinite(aij) ? fabs(aij) * 2 * most : 0;
                continue;
            }
            if (!isfinite(sij) || aij == 0) {
                AS_AT(*out, i, j) = 0;
                continue;
            }
            hi_own = exp(sij + eij - top), lo_own = exp(sij - eij - top);
            /* the others at their lowest (down less this one's lowest) for the highest share */
            hi = hi_own / (hi_own + fmax(down - lo_own, 0));
            lo = lo_own / (lo_own + fmax(up - hi_own, 0));
            AS_AT(*out, i, j) = fmax(hi - aij, aij - lo) * (1 + 1e-9);
        }
    }
}

/* ---- the steps ---- */

/* ---- positions (SPEC §12): the same steps as the run, so the same bits ---- */

/* positions: sinusoidal: xp = x + its encoding, what the projections read. */
static int encoded(as_matrix *xp, const as_matrix *x, size_t offset)
{
    if (as_matrix_init(xp, x->rows, x->cols) != 0)
        return -1;
    as_sinusoidal(xp->v, x->rows, x->cols, offset);
    as_add_mask(xp->v, x->v, xp->v, x->rows * x->cols);
    return 0;
}

/* positions: rope: out = rows[n, d] turned by the angles of positions offset, offset+1, ... */
static int turned(as_matrix *out, const as_matrix *rows, const as_problem *p)
{
    const size_t pairs = rows->cols / 2;
    as_matrix angle = {0}, cs = {0}, sn = {0};
    int rc = -1;

    if (as_matrix_init(out, rows->rows, rows->cols) | as_matrix_init(&angle, rows->rows, pairs) |
        as_matrix_init(&cs, rows->rows, pairs) | as_matrix_init(&sn, rows->rows, pairs))
        goto done;
    as_rope_angles(angle.v, cs.v, sn.v, rows->rows, rows->cols, p->rope_base, p->offset);
    as_rope(out->v, rows->v, rows->rows, rows->cols, cs.v, sn.v, p->rope);
    rc = 0;
done:
    as_matrix_free(&angle);
    as_matrix_free(&cs);
    as_matrix_free(&sn);
    return rc;
}

/* positions: alibi: head h's slope. */
static double slope_of(const as_problem *p, size_t h)
{
    double *all = malloc(p->heads * sizeof *all), m = 0;

    if (all != NULL) {
        as_alibi_slopes(all, p->heads);
        m = all[h];
    }
    free(all);
    return m;
}

/* With block: pre the chain may start from the student's own N1 (check.c gives it as
 * the problem's X): then the projection comes from that answer (its taint), and its
 * rounding moves each cell by Σ_k half a unit of in[i][k] × |w[k][j]|. */
static void written_input(const ctx *x, as_chain_slot *s, const as_matrix *in, const as_matrix *w)
{
    size_t a, i, j, k;

    for (a = 0; a < x->n; a++) {
        const as_table_grade *g = &x->ans[a];
        if (g->kind != AS_ANS_N1 || g->given == NULL || g->given->value.v != in->v)
            continue;
        for (i = 0; i < in->rows; i++) {
            s->ctaint[i] |= AS_CHAIN_BIT(a);
            for (k = 0; k < in->cols; k++)
                for (j = 0; j < w->cols; j++)
                    AS_AT(s->cerr, i, j) += AS_AT(g->given->unit, i, k) / 2 * fabs(AS_AT(*w, k, j));
        }
        return;
    }
}

/* Q, K or V (letter 0, 1, 2) of the whole layer: X@W + b, or a mistaken projection. */
static int project(const ctx *x, int letter)
{
    const as_problem *p = x->p;
    const as_matrix *W[3] = {p->Wq, p->Wk, p->Wv}, *B[3] = {p->bq, p->bk, p->bv};
    const as_matrix *in = letter == 0 ? p->X : p->Xkv, *w = W[letter], *b = B[letter];
    as_chain_slot *s = &x->c->slot[letter];
    as_matrix wt = {0}, xp = {0};
    int rc = -1;

    if (x->v.diag == AS_DIAG_WRONG_WEIGHTS && x->v.detail / 3 == letter)
        w = W[x->v.detail % 3], b = B[x->v.detail % 3];
    if (x->v.diag == AS_DIAG_TORCH_LAYOUT && x->v.detail == letter) {
        if (as_matrix_copy(&wt, w) != 0 || as_matrix_transpose(&wt) != 0)
            goto done;
        w = &wt;
    }
    rc = 0;
    if (w->rows != in->cols || w->cols != W[letter]->cols)
        goto done; /* this mistake cannot give a table of this shape */
    if (p->positions == AS_POSITIONS_SINUSOIDAL && (rc = encoded(&xp, in, p->offset)) != 0)
        goto done;
    if ((rc = make(s, in->rows, w->cols)) != 0)
        goto done;
    as_matmul(s->calc.v, xp.v ? xp.v : in->v, w->v, in->rows, in->cols, w->cols);
    if (b != NULL && b->cols == w->cols)
        as_add_bias(s->calc.v, b->v, in->rows, w->cols);
    written_input(x, s, in, w);
done:
    as_matrix_free(&wt);
    as_matrix_free(&xp);
    return rc;
}

/* A head's Q, K or V: its columns of the own whole table. */
static int head_slice(const ctx *x, size_t h, int letter)
{
    const as_chain_slot *whole = &x->c->slot[letter];
    as_chain_slot *s = &x->c->slot[slot_index(x->p, (as_answer_kind)letter, (long)h)];
    const size_t w = letter == 2 ? x->p->d_v : x->p->d_k;
    const size_t from = letter == 0 ? h : as_kv_head(x->p, h); /* shared K/V heads (§11) */

    if (!whole->ok)
        return 0;
    if (make(s, whole->own.rows, w) != 0)
        return -1;
    as_take_columns(s->calc.v, whole->own.v, whole->own.rows, whole->own.cols, from * w, w);
    as_take_columns(s->cerr.v, whole->oerr.v, whole->own.rows, whole->own.cols, from * w, w);
    memcpy(s->ctaint, whole->taint, whole->own.rows * sizeof *s->ctaint);
    return 0;
}

/* QKᵀ of head h from the own Q and K. */
static int scores(const ctx *x, const as_chain_slot *q, const as_chain_slot *k, as_chain_slot *s)
{
    const uint64_t kt = all_rows(k);
    size_t r;

    as_matrix qr = {0}, kr = {0};
    int rc = -1;

    if (!q->ok || !k->ok)
        return 0;
    if (make(s, q->own.rows, k->own.rows) != 0)
        return -1;
    if (x->p->positions == AS_POSITIONS_ROPE && q->own.cols % 2 == 0 &&
        (turned(&qr, &q->own, x->p) != 0 || turned(&kr, &k->own, x->p) != 0))
        goto done;
    as_scores(s->calc.v, qr.v ? qr.v : q->own.v, kr.v ? kr.v : k->own.v, q->own.rows,
              k->own.rows, q->own.cols);
    products_error(&s->cerr, qr.v ? &qr : &q->own, &q->oerr, kr.v ? &kr : &k->own, &k->oerr, 1);
    for (r = 0; r < q->own.rows; r++)
        s->ctaint[r] = q->taint[r] | kt;
    rc = 0;
done:
    as_matrix_free(&qr);
    as_matrix_free(&kr);
    return rc;
}

/* S from the own QKᵀ: scaled, then the mask added (each as the variant does it). */
static int scaled(const ctx *x, size_t h, const as_chain_slot *qkt, as_chain_slot *s)
{
    const as_problem *p = x->p;
    const size_t cells = qkt->own.rows * qkt->own.cols;
    double f = p->scale;
    as_matrix mt = {0};

    if (!qkt->ok)
        return 0;
    if (x->v.diag == AS_DIAG_NO_SCALE)
        f = 1;
    else if (x->v.diag == AS_DIAG_SCALE_MULTIPLIED && p->scale_auto)
        f = sqrt((double)p->d_k);
    else if (x->v.diag == AS_DIAG_SCALE_BY_DK && p->scale_auto)
        f = 1 / (double)p->d_k;
    if (x->v.diag == AS_DIAG_INVERTED_MASK && p->n != p->m)
        return 0;
    if (make(s, qkt->own.rows, qkt->own.cols) != 0)
        return -1;
    memcpy(s->ctaint, qkt->taint, qkt->own.rows * sizeof *s->ctaint);
    as_scale(s->calc.v, qkt->own.v, cells, f);
    as_scale(s->cerr.v, qkt->oerr.v, cells, fabs(f));
    if (p->positions == AS_POSITIONS_ALIBI) /* ALiBi's bias comes before the mask */
        as_add_alibi(s->calc.v, qkt->own.rows, qkt->own.cols, slope_of(p, h));
    if (x->v.diag == AS_DIAG_MASKED_ZERO) {
        as_mask_as_zero(s->calc.v, s->calc.v, x->M->v, cells);
    } else if (x->v.diag == AS_DIAG_INVERTED_MASK) {
        if (as_matrix_copy(&mt, x->M) != 0 || as_matrix_transpose(&mt) != 0) {
            as_matrix_free(&mt);
            return -1;
        }
        as_add_mask(s->calc.v, s->calc.v, mt.v, cells);
        as_matrix_free(&mt);
    } else if (x->v.diag != AS_DIAG_NO_MASK && x->v.diag != AS_DIAG_MASK_AFTER_SOFTMAX) {
        as_add_mask(s->calc.v, s->calc.v, x->M->v, cells);
    }
    return 0;
}

/* The shares down the columns: the softmax of each row of Sᵀ, turned back. Returns 1,
 * 0 when a column has nothing readable, -1 when memory ran out. */
static int softmax_columns(as_matrix *a, const as_matrix *s)
{
    as_matrix st = {0}, at = {0};
    int rc = -1;

    if (as_matrix_init(&st, s->cols, s->rows) != 0 || as_matrix_init(&at, s->cols, s->rows) != 0)
        goto done;
    as_transpose(st.v, s->v, s->rows, s->cols);
    rc = as_softmax_rows(at.v, NULL, NULL, NULL, NULL, st.v, st.rows, st.cols) < 0;
    as_transpose(a->v, at.v, at.rows, at.cols);
done:
    as_matrix_free(&st);
    as_matrix_free(&at);
    return rc;
}

/* A from the own S: the softmax of each row (or the variant's way). */
static int shares(const ctx *x, const as_chain_slot *S, as_chain_slot *s)
{
    const size_t n = S->own.rows, m = S->own.cols;
    as_matrix tmp = {0};
    int rc = -1, defined = 1;

    if (!S->ok)
        return 0;
    if (make(s, n, m) != 0 || as_matrix_init(&tmp, n, m) != 0)
        goto done;
    memcpy(s->ctaint, S->taint, n * sizeof *s->ctaint);
    if (x->v.diag == AS_DIAG_SOFTMAX_COLUMNS)
        defined = softmax_columns(&s->calc, &S->own);
    else if (x->v.diag == AS_DIAG_NO_NORMALIZE && x->v.detail == 1)
        as_exp_all(s->calc.v, S->own.v, n * m);
    else if (x->v.diag == AS_DIAG_NO_NORMALIZE)
        defined = as_softmax_rows(tmp.v, NULL, NULL, s->calc.v, NULL, S->own.v, n, m) < 0;
    else
        defined = as_softmax_rows(s->calc.v, NULL, NULL, NULL, NULL, S->own.v, n, m) < 0;
    if (defined < 0)
        goto done;
    if (x->v.diag == AS_DIAG_MASK_AFTER_SOFTMAX)
        as_zero_masked(s->calc.v, x->M->v, n * m);
    /* the row softmax's own bound for every variant that takes it (a mistake made after
     * A, or before it, still makes A as the right chain does: its A must be judged as
     * tightly, or a wrong A fits keys_for_values through a looser bound) */
    shares_error(&s->cerr, &s->calc, &S->oerr, &S->own,
                 x->v.diag != AS_DIAG_SOFTMAX_COLUMNS && x->v.diag != AS_DIAG_NO_NORMALIZE);
    s->ok = defined;
    rc = 0;
done:
    as_matrix_free(&tmp);
    return rc;
}

/* O of a head from the own A and V (the Keys, for keys_for_values). */
static int mixed(const ctx *x, const as_chain_slot *A, const as_chain_slot *V,
                 const as_chain_slot *K, as_chain_slot *s)
{
    const as_chain_slot *from = x->v.diag == AS_DIAG_KEYS_FOR_VALUES ? K : V;
    uint64_t vt;
    size_t r;

    if (!A->ok || !from->ok || from->own.cols != V->calc.cols || from->own.rows != A->own.cols)
        return 0;
    if (make(s, A->own.rows, from->own.cols) != 0)
        return -1;
    as_mix(s->calc.v, A->own.v, from->own.v, A->own.rows, A->own.cols, from->own.cols);
    products_error(&s->cerr, &A->own, &A->oerr, &from->own, &from->oerr, 0);
    vt = all_rows(from);
    for (r = 0; r < A->own.rows; r++)
        s->ctaint[r] = A->taint[r] | vt;
    return 0;
}

/* One head: its slices, then QKᵀ, S, A, O, each settled with the student's answers. */
static int head(const ctx *x, size_t h)
{
    as_chain_slot *hs = &x->c->slot[slot_index(x->p, AS_ANS_Q, (long)h)];
    int letter;

    for (letter = 0; letter < 3; letter++)
        if (head_slice(x, h, letter) != 0 || settle(x, (size_t)(&hs[letter] - x->c->slot)) != 0)
            return -1;
    if (scores(x, &hs[AS_ANS_Q], &hs[AS_ANS_K], &hs[AS_ANS_QKT]) != 0 ||
        settle(x, (size_t)(&hs[AS_ANS_QKT] - x->c->slot)) != 0 ||
        scaled(x, h, &hs[AS_ANS_QKT], &hs[AS_ANS_S]) != 0 ||
        settle(x, (size_t)(&hs[AS_ANS_S] - x->c->slot)) != 0 ||
        shares(x, &hs[AS_ANS_S], &hs[AS_ANS_A]) != 0 ||
        settle(x, (size_t)(&hs[AS_ANS_A] - x->c->slot)) != 0 ||
        mixed(x, &hs[AS_ANS_A], &hs[AS_ANS_V], &hs[AS_ANS_K], &hs[AS_ANS_O]) != 0)
        return -1;
    return settle(x, (size_t)(&hs[AS_ANS_O] - x->c->slot));
}

/* C, the heads side by side, and the layer's O (through Wo when there is one). */
static int output(const ctx *x)
{
    const as_problem *p = x->p;
    as_chain_slot *c = &x->c->slot[slot_c(p)], *o = c + 1;
    size_t h, r;

    for (h = 0; h < p->heads; h++)
        if (!x->c->slot[slot_index(p, AS_ANS_O, (long)h)].ok)
            return 0;
    if (make(c, p->n, p->heads * p->d_v) != 0)
        return -1;
    for (h = 0; h < p->heads; h++) {
        const as_chain_slot *ho = &x->c->slot[slot_index(p, AS_ANS_O, (long)h)];
        as_put_columns(c->calc.v, ho->own.v, p->n, c->calc.cols, h * p->d_v, p->d_v);
        as_put_columns(c->cerr.v, ho->oerr.v, p->n, c->calc.cols, h * p->d_v, p->d_v);
        for (r = 0; r < p->n; r++)
            c->ctaint[r] |= ho->taint[r];
    }
    if (settle(x, slot_c(p)) != 0 || make(o, p->n, p->d_out) != 0)
        return -1;
    if (p->Wo == NULL) {
        memcpy(o->calc.v, c->own.v, p->n * p->d_out * sizeof *o->calc.v);
        memcpy(o->cerr.v, c->oerr.v, p->n * p->d_out * sizeof *o->cerr.v);
    } else {
        weighted_error(&o->cerr, &c->oerr, p->Wo);
        as_matmul(o->calc.v, c->own.v, p->Wo->v, p->n, c->own.cols, p->d_out);
        if (p->bo != NULL)
            as_add_bias(o->calc.v, p->bo->v, p->n, p->d_out);
    }
    memcpy(o->ctaint, c->taint, p->n * sizeof *o->ctaint);
    return settle(x, slot_c(p) + 1);
}

int as_chain_run(as_chain *c, const as_problem *p, const as_matrix *M,
                 const as_table_grade *ans, size_t n, as_fit v)
{
    ctx x = {p, M, ans, n, v, step_of(v), c};
    size_t h;
    int letter;

    c->nslots = slot_c(p) + 2;
    if ((c->slot = calloc(c->nslots, sizeof *c->slot)) == NULL)
        return -1;
    for (letter = 0; letter < 3; letter++)
        if (project(&x, letter) != 0 || settle(&x, (size_t)letter) != 0)
            goto fail;
    for (h = 0; h < p->heads; h++)
        if (head(&x, h) != 0)
            goto fail;
    if (output(&x) == 0)
        return 0;
fail:
    as_chain_free(c);
    return -1;
}

void as_chain_free(as_chain *c)
{
    size_t i;

    for (i = 0; i < c->nslots && c->slot != NULL; i++) {
        as_matrix_free(&c->slot[i].calc);
        as_matrix_free(&c->slot[i].own);
        as_matrix_free(&c->slot[i].cerr);
        as_matrix_free(&c->slot[i].oerr);
        free(c->slot[i].ctaint);
        free(c->slot[i].taint);
    }
    free(c->slot);
    memset(c, 0, sizeof *c);
}

/* ---- the cache ---- */

void as_chain_cache_init(as_chain_cache *c, const as_problem *p, const as_matrix *M,
                         const as_table_grade *ans, size_t n)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->M = M;
    c->ans = ans;
    c->n = n;
}

const as_chain *as_chain_get(as_chain_cache *c, size_t i)
{
    if (i >= AS_CHAIN_VARIANTS)
        return NULL;
    if (!c->made[i]) {
        if (as_chain_run(&c->chain[i], c->p, c->M, c->ans, c->n, variants[i]) != 0)
            return NULL;
        c->made[i] = 1;
    }
    return &c->chain[i];
}

void as_chain_cache_free(as_chain_cache *c)
{
    size_t i;

    for (i = 0; i < AS_CHAIN_VARIANTS; i++)
        if (c->made[i])
            as_chain_free(&c->chain[i]);
    memset(c, 0, sizeof *c);
}
