/* render_grad_walk.c - `grad --row I`: one receiving row's softmax backward written out
 * as the chapter writes the forward steps (SPEC §13), head by head: the row's dA, the
 * sum Σ dA⊙A, each cell of dS, the scaling, then the flow into dQ and dK. Every number
 * is a value the gradient trace (grad.c) or the forward trace recorded; the written-out
 * sums are only their formatting (expand.h). */
#include "attnstep/render_grad.h"
#include "attnstep/expand.h"
#include "attnstep/positions.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
    const as_problem *p;
    const as_trace *t;
    const as_grad *g;
    const as_render_opts *o;
    as_expand_style st;
    as_block *b;
    size_t *idx;   /* [m] the positions the current row may read */
    size_t nread;
    /* the current row of the current head, [m] each: of a full run views into its
     * tables; of a rows run (SPEC §10) made again (as_trace_row, as_grad_rows) */
    const double *M, *A, *dA, *dS, *dQKT;
    /* d(QKᵀ) at the receiving rows dk's sums show, for step_dK: receiving row r is row
     * dcol_at[r] of dcol (m columns); dcol_at NULL: dcol is the whole table */
    const double *dcol;
    const size_t *dcol_at;
} walk;

static const char *sym(const walk *w, as_sym s)
{
    return as_sym_text(w->o->ascii, s);
}


static void done(walk *w, as_text *t)
{
    w->b->failed |= t->failed;
    as_text_free(t);
}

/* Appends " = res" or " ≈ res" and frees res. */
static void equals(walk *w, as_text *t, int rounded, as_text *res)
{
    as_text_addf(t, " %s %s", rounded ? sym(w, AS_SYM_APPROX) : "=", as_text_str(res));
    done(w, res);
}

/* Row i of m; row i at the current row's readable positions; column j at rows idx. */
static as_view row_of(const as_matrix *m, size_t i)
{
    return as_view_row(m->v, m->cols, i);
}

/* The current row (w->A, w->dA, ...: m numbers) at its readable positions. */
static as_view readable_of(const walk *w, const double *row)
{
    return as_view_row_at(row, w->p->m, 0, w->idx, w->nread);
}

static as_view column_of(const as_matrix *m, size_t j, const size_t *idx, size_t count)
{
    return as_view_column(m->v, m->cols, j, idx, count);
}

/* "name₁=[1,0]" (name with subscript i, then v: row i of a table). */
static void named_row_of(walk *w, as_text *t, const char *name, size_t i, as_view v)
{
    as_expand_sub(t, name, i, &w->st);
    as_text_addf(t, "=");
    as_expand_vector(t, &v, &w->st);
}

/* The same for row i of m. */
static void named_row(walk *w, as_text *t, const char *name, size_t i, const as_matrix *m)
{
    named_row_of(w, t, name, i, row_of(m, i));
}

/* "name₁ ≈ [readable cells of row, the current row i of a table]" */
static void named_readable(walk *w, as_text *t, const char *name, size_t i, const double *row)
{
    const as_view v = readable_of(w, row);
    as_text res = {0};
    const int rounded = as_expand_vector(&res, &v, &w->st);

    as_expand_sub(t, name, i, &w->st);
    equals(w, t, rounded, &res);
}

/* Adds t as one line made from message m with t as its one %s, then frees t. */
static void line1(walk *w, as_msg m, as_text *t)
{
    as_block_add(w->b, as_say(w->o, m), as_text_str(t));
    done(w, t);
}

/* ---- the steps ---- */

/* "dO₁·v₀ = 1×10+1×0 = 10" for each readable position, then the row of dA. */
static void step_dA(walk *w, const as_grad_head *gh, const as_head_trace *h, size_t i)
{
    const as_view o = row_of(&gh->dO, i);
    as_text t = {0}, res = {0};
    size_t k;

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GW_STEP1));
    for (k = 0; k < w->nread; k++) {
        const size_t j = w->idx[k];
        const as_view v = row_of(&h->V, j);
        int rounded;
        as_expand_sub(&t, "dO", i, &w->st);
        as_text_addf(&t, "%s", sym(w, AS_SYM_DOT));
        as_expand_sub(&t, "v", j, &w->st);
        as_text_addf(&t, " = ");
        rounded = as_expand_products(&t, &o, &v, "+", &w->st);
        rounded |= as_expand_number(&res, w->dA[j], &w->st);
        equals(w, &t, rounded, &res);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_DA_ONE), w->p->kv_tokens[j], as_text_str(&t));
        done(w, &t);
    }
    named_readable(w, &t, "dA", i, w->dA);
    line1(w, AS_MSG_GW_DA_ALL, &t);
}

/* "Σ dA⊙A = 10×0.6697615493 + 20×0.3302384507 ≈ 13.3023845067" */
static void step_rowdot(walk *w, const as_grad_head *gh, size_t i)
{
    const as_view da = readable_of(w, w->dA), a = readable_of(w, w->A);
    as_text t = {0}, res = {0};
    int rounded = as_expand_products(&t, &da, &a, " + ", &w->st);

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GW_STEP2));
    rounded |= as_expand_number(&res, AS_AT(gh->rowdot, i, 0), &w->st);
    equals(w, &t, rounded, &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_ROWDOT),
                 w->o->ascii ? "sum(dA(.)A)" : "\xce\xa3 dA\xe2\x8a\x99" "A", as_text_str(&t));
    done(w, &t);
}

/* "dS₁₀ = 0.6697615493×(10−13.3023845067) ≈ -2.2118101637" for every position of the
 * row: a masked one is 0 (its share is 0). */
static void step_dS(walk *w, const as_grad_head *gh, size_t i)
{
    as_text sum = {0}, t = {0}, res = {0};
    size_t j;

    as_expand_number(&sum, AS_AT(gh->rowdot, i, 0), &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_STEP3), as_text_str(&sum));
    for (j = 0; j < w->p->m; j++) {
        int rounded;
        as_expand_sub(&t, "dS", i, &w->st);
        as_expand_sub(&t, "", j, &w->st);
        if (w->M[j] == -INFINITY) {
            as_block_add(w->b, as_say(w->o, AS_MSG_GW_DS_MASKED), w->p->kv_tokens[j], as_text_str(&t));
            done(w, &t);
            continue;
        }
        as_text_addf(&t, " = ");
        rounded = as_expand_number(&t, w->A[j], &w->st);
        as_text_addf(&t, "%s(", sym(w, AS_SYM_TIMES));
        rounded |= as_expand_number(&t, w->dA[j], &w->st);
        as_text_addf(&t, "%s", sym(w, AS_SYM_MINUS));
        rounded |= as_expand_factor(&t, AS_AT(gh->rowdot, i, 0), &w->st);
        as_text_addf(&t, ")");
        rounded |= as_expand_number(&res, w->dS[j], &w->st);
        equals(w, &t, rounded, &res);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_DS_ONE), w->p->kv_tokens[j], as_text_str(&t));
        done(w, &t);
    }
    done(w, &sum);
    as_expand_sub(&t, "dS", i, &w->st);
    {
        const as_view all = as_view_row(w->dS, w->p->m, 0);
        const int rounded = as_expand_vector(&res, &all, &w->st);
        equals(w, &t, rounded, &res);
    }
    line1(w, AS_MSG_GW_DS_ALL, &t);
}

struct scale_ctx {
    const walk *w;
    const as_view *ds;
};

static int over_sqrt(as_text *t, size_t k, void *ctx)
{
    const struct scale_ctx *c = ctx;

    return as_expand_over_sqrt(t, as_view_at(c->ds, k), c->w->p->d_k, &c->w->st);
}

/* "d(QKᵀ)₁ = [-2.2118101637/√2, 2.2118101637/√2] ≈ [-1.5639859655, 1.5639859655]" */
static void step_scale(walk *w, size_t i)
{
    const as_view ds = as_view_row(w->dS, w->p->m, 0), out = as_view_row(w->dQKT, w->p->m, 0);
    const as_view scale = {&w->p->scale, 0, NULL, ds.count};
    struct scale_ctx c = {w, &ds};
    as_text head = {0}, t = {0}, res = {0};
    int rounded;

    if (w->p->scale_auto)
        as_text_addf(&head, w->o->ascii ? "/%s(%zu)" : "/%s%zu", sym(w, AS_SYM_SQRT), w->p->d_k);
    else
        as_expand_number(&head, w->p->scale, &w->st), as_text_addf(&head, "%s", "");
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_STEP4), as_text_str(&head));
    done(w, &head);
    as_text_addf(&t, "d(QK%s)", sym(w, AS_SYM_T));
    as_expand_sub(&t, "", i, &w->st);
    as_text_addf(&t, " = [");
    rounded = w->p->scale_auto ? as_expand_join(&t, ds.count, ", ", over_sqrt, &c, &w->st)
                               : as_expand_products(&t, &ds, &scale, ", ", &w->st);
    as_text_addf(&t, "]");
    rounded |= as_expand_vector(&res, &out, &w->st);
    equals(w, &t, rounded, &res);
    line1(w, AS_MSG_GW_SCALED, &t);
}

/* "name₁ ≈ [row i of m]" */
static void named_whole(walk *w, as_text *t, const char *name, size_t i, const as_matrix *m)
{
    const as_view row = row_of(m, i);

    as_expand_named_row(t, name, i, &row, &w->st);
}

/* positions: rope: row r of the turned gradient dr turned back into row r of d, pair by
 * pair, at position p (offset + r): "第0对（第0、1格），角度1：[a×cos + b×sin, b×cos −
 * a×sin] ≈ [..]" (as_rope_backward()'s arithmetic written out; pairs as the forward's). */
static void turn_back_pairs(walk *w, const as_matrix *dr, const as_matrix *d, size_t r)
{
    const as_trace *tr = w->t;
    const size_t pairs = w->p->d_k / 2, shown = pairs > AS_EXPAND_MAX ? AS_EXPAND_HEAD : pairs;
    const char *x = sym(w, AS_SYM_TIMES);
    as_text ang = {0}, t = {0}, res = {0};
    size_t k, a, b;

    for (k = 0; k < shown; k++) {
        const double c = AS_AT(tr->rope_cos, r, k), sn = AS_AT(tr->rope_sin, r, k);
        int rounded;
        as_rope_pair(&a, &b, k, w->p->d_k, w->p->rope);
        as_expand_number(&ang, AS_AT(tr->rope_angle, r, k), &w->st);
        as_text_addf(&t, "[");
        rounded = as_expand_factor(&t, AS_AT(*dr, r, a), &w->st);
        as_text_addf(&t, "%s", x);
        rounded |= as_expand_factor(&t, c, &w->st);
        as_text_addf(&t, "+");
        rounded |= as_expand_factor(&t, AS_AT(*dr, r, b), &w->st);
        as_text_addf(&t, "%s", x);
        rounded |= as_expand_factor(&t, sn, &w->st);
        as_text_addf(&t, ", ");
        rounded |= as_expand_factor(&t, AS_AT(*dr, r, b), &w->st);
        as_text_addf(&t, "%s", x);
        rounded |= as_expand_factor(&t, c, &w->st);
        as_text_addf(&t, "%s", sym(w, AS_SYM_MINUS));
        rounded |= as_expand_factor(&t, AS_AT(*dr, r, a), &w->st);
        as_text_addf(&t, "%s", x);
        rounded |= as_expand_factor(&t, sn, &w->st);
        as_text_addf(&t, "]");
        as_text_addf(&res, "[");
        rounded |= as_expand_number(&res, AS_AT(*d, r, a), &w->st);
        as_text_addf(&res, ", ");
        rounded |= as_expand_number(&res, AS_AT(*d, r, b), &w->st);
        as_text_addf(&res, "]");
        equals(w, &t, rounded, &res);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_TURN_PAIR), k, a, b, as_text_str(&ang),
                     as_text_str(&t));
        done(w, &t);
        done(w, &ang);
    }
    if (shown < pairs)
        as_block_add(w->b, "%s", sym(w, AS_SYM_ELLIPSIS));
}

/* "dq的第0格 = (-1.5639859655)×1 + 1.5639859655×0 ≈ -1.5639859655", then the row; with
 * rope the same for dqr from the turned kr, then dqr turned back into dq. */
static void step_dQ(walk *w, const as_grad_head *gh, const as_head_trace *h, size_t i)
{
    const int rope = gh->dQr.rows > 0;
    const as_matrix *dq = rope ? &gh->dQr : &gh->dQ, *key = rope ? &h->Kr : &h->K;
    const as_view d = readable_of(w, w->dQKT);
    as_text t = {0}, res = {0}, dqr = {0}, dqn = {0};
    size_t c;

    as_block_add(w->b, "%s", as_say(w->o, rope ? AS_MSG_GW_STEP5_ROPE : AS_MSG_GW_STEP5));
    for (c = 0; c < dq->cols; c++) {
        const as_view k = column_of(key, c, w->idx, w->nread);
        int rounded = as_expand_products(&t, &d, &k, " + ", &w->st);
        rounded |= as_expand_number(&res, AS_AT(*dq, i, c), &w->st);
        equals(w, &t, rounded, &res);
        as_block_add(w->b, as_say(w->o, rope ? AS_MSG_GW_DQR_CELL : AS_MSG_GW_DQ_CELL), c,
                     as_text_str(&t));
        done(w, &t);
    }
    if (rope) {
        named_whole(w, &t, "dqr", i, &gh->dQr);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_DQR_ROW), w->p->tokens[i], as_text_str(&t));
        done(w, &t);
        as_expand_sub(&dqr, "dqr", i, &w->st);
        as_expand_sub(&dqn, "dq", i, &w->st);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_TURN_BACK), as_text_str(&dqr),
                     w->p->offset + i, as_text_str(&dqn));
        done(w, &dqr);
        done(w, &dqn);
        turn_back_pairs(w, &gh->dQr, &gh->dQ, i);
    }
    named_whole(w, &t, "dq", i, &gh->dQ);
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_DQ_ROW), w->p->tokens[i], as_text_str(&t));
    done(w, &t);
}

struct dk_ctx {
    const walk *w;
    const as_grad_head *gh;
    const as_matrix *q; /* Q, or with rope the turned Qr */
    size_t j;
};

/* Cell c of dk_j: "0×0+(-1.5639859655)×1", over every receiving row. */
static int dk_cell(as_text *t, size_t c, void *ctx)
{
    const struct dk_ctx *x = ctx;
    const as_view d = as_view_column(x->w->dcol, x->w->p->m, x->j, x->w->dcol_at, x->w->p->n);
    const as_view q = column_of(x->q, c, NULL, x->q->rows);

    return as_expand_products(t, &d, &q, "+", &x->w->st);
}

/* For each position this row reads: "dk₀ = [0×0+(-1.56)×1, 0×1+(-1.56)×0] ≈ [-1.56,0]";
 * with rope "dkr₀ = […]" from the turned qr, then turned back by position j into dk₀. */
static void step_dK(walk *w, const as_grad_head *gh, const as_head_trace *h)
{
    const int rope = gh->dKr.rows > 0;
    const as_matrix *dk = rope ? &gh->dKr : &gh->dK;
    as_text t = {0}, res = {0}, dn = {0};
    size_t k;

    as_block_add(w->b, "%s", as_say(w->o, rope ? AS_MSG_GW_STEP6_ROPE : AS_MSG_GW_STEP6));
    for (k = 0; k < w->nread; k++) {
        struct dk_ctx x = {w, gh, rope ? &h->Qr : &h->Q, w->idx[k]};
        const as_view row = row_of(dk, x.j);
        int rounded;
        as_expand_sub(&t, rope ? "dkr" : "dk", x.j, &w->st);
        as_text_addf(&t, " = [");
        rounded = as_expand_join(&t, dk->cols, ", ", dk_cell, &x, &w->st);
        as_text_addf(&t, "]");
        rounded |= as_expand_vector(&res, &row, &w->st);
        equals(w, &t, rounded, &res);
        if (!rope) {
            as_block_add(w->b, as_say(w->o, AS_MSG_GW_DK_ROW), w->p->kv_tokens[x.j], as_text_str(&t));
            done(w, &t);
            continue;
        }
        as_block_add(w->b, "%s", as_text_str(&t));
        done(w, &t);
        as_expand_sub(&t, "dkr", x.j, &w->st);
        as_expand_sub(&dn, "dk", x.j, &w->st);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_TURN_BACK), as_text_str(&t), w->p->offset + x.j,
                     as_text_str(&dn));
        done(w, &t);
        done(w, &dn);
        turn_back_pairs(w, &gh->dKr, &gh->dK, x.j);
        named_whole(w, &t, "dk", x.j, &gh->dK);
        as_block_add(w->b, as_say(w->o, AS_MSG_GW_DK_ROW), w->p->kv_tokens[x.j], as_text_str(&t));
        done(w, &t);
    }
}

/* ---- the walk ---- */

/* What the walk of one head's row reads of its n x m tables, a row at a time (SPEC
 * §10: a full run's rows are views into its tables, a rows run's are made again). */
typedef struct head_rows {
    as_row_trace r;         /* the row's mask and shares */
    as_grad_rows g[3];      /* its dA, dS, d(QKᵀ) */
    as_grad_rows col;       /* d(QKᵀ)'s rows that dk's sums show */
    double *dcol;           /* [AS_EXPAND_MAX, m] those rows */
    size_t *at;             /* [n] where each receiving row is in dcol */
} head_rows;

/* Row i of head hd's tables into w (w->M ... w->dcol, and w->idx: the positions the row
 * reads, the same for every head). Returns 0, or -1 when memory ran out. */
static int head_rows_of(walk *w, head_rows *hr, size_t hd, size_t i)
{
    static const as_grad_square sq[3] = {AS_GRAD_DA, AS_GRAD_DS, AS_GRAD_DQKT};
    const size_t n = w->p->n, m = w->p->m;
    const size_t shown = as_expand_elides(n) ? AS_EXPAND_HEAD + AS_EXPAND_TAIL : n;
    const double *row[3];
    as_rows r;
    size_t k, j;

    r = as_grad_rows_open(&hr->col, w->g, w->p, w->t, hd, AS_GRAD_DQKT);
    for (k = 0; k < shown; k++) { /* the head and tail of an elided sum, or every row */
        const size_t at = shown == n || k < AS_EXPAND_HEAD ? k : n - shown + k;
        const double *d = r.row(r.ctx, at);
        if (d == NULL)
            break;
        memcpy(hr->dcol + k * m, d, m * sizeof *d);
        hr->at[at] = k;
    }
    as_grad_rows_close(&hr->col);
    if (k < shown || as_trace_row(&hr->r, w->t, w->p, hd, i) != 0)
        return -1;
    for (k = 0; k < 3; k++) {
        r = as_grad_rows_open(&hr->g[k], w->g, w->p, w->t, hd, sq[k]);
        if ((row[k] = r.row(r.ctx, i)) == NULL)
            return -1;
    }
    w->M = hr->r.M, w->A = hr->r.A, w->dA = row[0], w->dS = row[1], w->dQKT = row[2];
    w->dcol = hr->dcol, w->dcol_at = hr->at;
    w->nread = 0;
    for (j = 0; j < m; j++)
        if (w->M[j] != -INFINITY)
            w->idx[w->nread++] = j;
    return 0;
}

static void head_rows_close(head_rows *hr)
{
    size_t k;

    for (k = 0; k < 3; k++)
        as_grad_rows_close(&hr->g[k]);
    as_row_trace_free(&hr->r);
}

static void walk_head(walk *w, head_rows *hr, size_t hd, size_t i)
{
    const as_grad_head *gh = &w->g->head[hd];
    const as_head_trace *h = &w->t->head[hd];
    as_text a = {0}, o = {0};

    memset(hr->g, 0, sizeof hr->g);
    if (head_rows_of(w, hr, hd, i) != 0) {
        head_rows_close(hr);
        w->b->failed = 1;
        return;
    }
    if (w->p->heads > 1) {
        as_block_gap(w->b);
        as_block_add(w->b, as_say(w->o, AS_MSG_HEAD_TITLE), hd);
    }
    named_row_of(w, &a, "a", i, as_view_row(w->A, w->p->m, 0));
    named_row(w, &o, "dO", i, &gh->dO);
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_GIVEN), as_text_str(&a), as_text_str(&o));
    done(w, &a);
    done(w, &o);
    as_block_gap(w->b);
    step_dA(w, gh, h, i);
    as_block_gap(w->b);
    step_rowdot(w, gh, i);
    as_block_gap(w->b);
    step_dS(w, gh, i);
    as_block_gap(w->b);
    step_scale(w, i);
    as_block_gap(w->b);
    step_dQ(w, gh, h, i);
    as_block_gap(w->b);
    step_dK(w, gh, h);
    head_rows_close(hr);
}

static void walk_row(walk *w, head_rows *hr, size_t i)
{
    size_t hd;

    as_block_gap(w->b);
    as_block_add(w->b, as_say(w->o, AS_MSG_GW_TITLE), w->p->tokens[i], i);
    for (hd = 0; hd < w->g->heads && !w->b->failed; hd++)
        walk_head(w, hr, hd, i);
}

int as_grad_walk_lines(as_block *b, const as_problem *p, const as_trace *t, const as_grad *g,
                       const as_render_opts *o)
{
    walk w = {p, t, g, o, {o->digits, o->ascii}, b, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL,
              NULL};
    head_rows hr;
    size_t first, last;
    size_t i;

    memset(&hr, 0, sizeof hr);
    if (as_row_span(o->row, p->n, &first, &last) != 0 ||
        (w.idx = malloc(p->m * sizeof *w.idx + 1)) == NULL)
        return -1;
    hr.dcol = malloc((AS_EXPAND_MAX * p->m + 1) * sizeof *hr.dcol);
    hr.at = calloc(p->n + 1, sizeof *hr.at);
    if (hr.dcol == NULL || hr.at == NULL)
        b->failed = 1;
    as_block_add(b, "%s", as_say(w.o, AS_MSG_GRAD_INTRO));
    for (i = first; i <= last && !b->failed; i++)
        walk_row(&w, &hr, i);
    as_block_gap(w.b);
    as_block_add(b, "%s", as_say(w.o, t->PE.rows > 0 ? AS_MSG_GW_NEXT_PE : AS_MSG_GW_NEXT));
    free(w.idx);
    free(hr.dcol);
    free(hr.at);
    return b->failed ? -1 : 0;
}

int as_render_grad_walk(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    as_block b = {0};
    int rc = as_grad_walk_lines(&b, p, t, g, o);

    if (rc == 0)
        as_block_print(out, &b);
    rc = rc != 0 || ferror(out) ? -1 : 0;
    as_block_free(&b);
    return rc;
}
