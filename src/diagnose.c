/* diagnose.c - naming a known mistake (SPEC §6): each mistake is a variant of the
 * chapter's chain, computed with its own step functions (steps.h), and a wrong table
 * is named by the first variant it matches as a whole. */
#include "attnstep/diagnose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *as_diag_code(as_diag d)
{
    static const char *const code[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = "carried_error", [AS_DIAG_NO_SCALE] = "no_scale",
        [AS_DIAG_SCALE_MULTIPLIED] = "scale_multiplied", [AS_DIAG_NO_MASK] = "no_mask",
        [AS_DIAG_SOFTMAX_COLUMNS] = "softmax_columns", [AS_DIAG_TRANSPOSED] = "transposed",
    };

    return d > AS_DIAG_NONE && d < AS_DIAG_COUNT ? code[d] : NULL;
}

const as_matrix *as_head_table(const as_head_trace *h, as_answer_kind kind)
{
    const as_matrix *m[] = {&h->Q, &h->K, &h->V, &h->QKT, &h->S, &h->A, &h->O, NULL};

    return m[kind];
}

/* Nonzero when every cell of the answer stands for the cell of want, each within its
 * slack (slack may be an empty matrix: none). */
static int table_matches(const as_answer *ans, const as_matrix *want, const as_matrix *slack,
                         double tol)
{
    size_t i;

    if (ans->value.rows != want->rows || ans->value.cols != want->cols)
        return 0;
    for (i = 0; i < want->rows * want->cols; i++)
        if (!as_answer_cell_ok(ans->value.v[i], ans->unit.v[i], want->v[i], tol,
                     slack->v != NULL ? slack->v[i] : 0))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------ */
/* Known mistakes: each a variant of the chain, computed by the chapter's steps     */
/* ------------------------------------------------------------------------------ */

/* A table an earlier step gave: the student's own (with the units of the digits they
 * wrote) or the true one (u NULL: nothing was rounded). */
typedef struct held {
    const as_matrix *v, *u;
} held;

typedef struct checker {
    const as_problem *p;
    const as_trace *t;
    const as_table_grade *graded; /* the tables graded before this one */
    size_t ngraded;
    double tol;
    as_matrix slice[3][2];  /* a head's columns of the student's whole Q, K or V (values,
                             * units) */
    char from[64];          /* the student's wrong tables a carried error came from */
} checker;

/* A head's columns of a whole table, into out. */
static int head_columns(as_matrix *out, const as_matrix *whole, const as_matrix *truth, long h)
{
    if (as_matrix_init(out, truth->rows, truth->cols) != 0)
        return -1;
    as_take_columns(out->v, whole->v, truth->rows, whole->cols, (size_t)h * truth->cols,
                    truth->cols);
    return 0;
}

/* The table of an earlier step, for head h: the student's when given in the right shape
 * and wrong (its name joins k->from, and *wrong is set), else the truth. Returns 0, or
 * -1 when memory ran out. */
static int earlier(checker *k, as_answer_kind kind, long h, held *out, int *wrong)
{
    const as_matrix *truth = h >= 0 ? as_head_table(&k->t->head[h], kind) : &k->t->C;
    size_t i;

    out->v = truth;
    out->u = NULL;
    for (i = 0; i < k->ngraded; i++) {
        const as_table_grade *e = &k->graded[i];
        if (e->kind != kind || !e->shape_ok || (e->head != h && !(e->head < 0 && kind <= AS_ANS_V)))
            continue;
        if (e->correct)
            return 0;
        *wrong = 1;
        snprintf(k->from + strlen(k->from), sizeof k->from - strlen(k->from), "%s%s",
                 k->from[0] ? ", " : "", e->name);
        out->v = &e->given->value;
        out->u = &e->given->unit;
        if (e->head == h)
            return 0;
        /* the whole Q (K, V) of several heads: this head's columns of it */
        out->v = &k->slice[kind][0];
        out->u = &k->slice[kind][1];
        return head_columns(&k->slice[kind][0], &e->given->value, truth, h) |
               head_columns(&k->slice[kind][1], &e->given->unit, truth, h);
    }
    return 0;
}

/* ---- the right chain and its variants ---- */

/* From the scores of one head to its shares and output, with one step done another way. */
typedef struct chain {
    const as_matrix *qkt, *s, *a, *v; /* where to start: s and a NULL to compute them */
    double scale;
    int mask;                         /* add M */
    int columns;                      /* softmax down the columns */
} chain;

/* a = softmax of each row of s (or of each column). Returns 1, 0 when a row (column)
 * has nothing readable, -1 when memory ran out. */
static int softmax_of(as_matrix *a, const as_matrix *s, int columns)
{
    as_matrix st = {0};
    const as_matrix *src = s;
    int rc = -1;

    if (columns && (as_matrix_copy(&st, s) != 0 || as_matrix_transpose(&st) != 0))
        goto done;
    if (columns)
        src = &st;
    if (as_matrix_init(a, src->rows, src->cols) != 0)
        goto done;
    rc = as_softmax_rows(a->v, NULL, NULL, NULL, NULL, src->v, src->rows, src->cols) < 0;
    if (rc == 1 && columns && as_matrix_transpose(a) != 0)
        rc = -1;
done:
    as_matrix_free(&st);
    return rc;
}

/* Runs ch up to the table of kind want (S, A or O) into out: 1, 0 (undefined) or -1. */
static int run_chain(as_matrix *out, const chain *ch, const as_problem *p, as_answer_kind want)
{
    as_matrix s = {0}, a = {0};
    const as_matrix *S = ch->s, *A = ch->a;
    const size_t nm = ch->qkt->rows * ch->qkt->cols;
    int rc = -1;

    if (S == NULL && A == NULL) {
        if (as_matrix_init(&s, ch->qkt->rows, ch->qkt->cols) != 0)
            goto done;
        as_scale(s.v, ch->qkt->v, nm, ch->scale);
        if (ch->mask)
            as_add_mask(s.v, s.v, p->M.v, nm);
        S = &s;
    }
    if (A == NULL && want != AS_ANS_S) {
        if ((rc = softmax_of(&a, S, ch->columns)) != 1)
            goto done;
        A = &a;
    }
    if (want == AS_ANS_S || want == AS_ANS_A) {
        rc = as_matrix_copy(out, want == AS_ANS_S ? S : A) != 0 ? -1 : 1;
    } else if (as_matrix_init(out, A->rows, ch->v->cols) == 0) {
        as_mix(out->v, A->v, ch->v->v, A->rows, A->cols, ch->v->cols);
        rc = 1;
    }
done:
    as_matrix_free(&s);
    as_matrix_free(&a);
    return rc;
}

/* The right chain of head h. */
static chain right_chain(const checker *k, long h)
{
    const as_head_trace *ht = &k->t->head[h];
    chain ch = {&ht->QKT, NULL, NULL, &ht->V, k->p->scale, 1, 0};

    return ch;
}

/* ---- carried errors: the right step on the student's own earlier tables ---- */

/* out = |m| * f in the shape of like (zeros when m is NULL: nothing rounded). */
static int magnitude(as_matrix *out, const as_matrix *m, const as_matrix *like, double f)
{
    size_t i;

    if (as_matrix_init(out, like->rows, like->cols) != 0)
        return -1;
    for (i = 0; m != NULL && i < m->rows * m->cols; i++)
        out->v[i] = isinf(m->v[i]) ? 0 : fabs(m->v[i]) * f;
    return 0;
}

/* How far the rounding of a and b can move each cell of their product a·b (a·bᵀ with
 * scores): (half a unit of a)·|b| + |a|·(half a unit of b), to first order. */
static int product_slack(as_matrix *slack, const held *a, const held *b, int scores)
{
    as_matrix m[5] = {{0}}; /* rounding of a, |a|, rounding of b, |b|, the second term */
    const size_t n = a->v->rows, kk = a->v->cols, p = scores ? b->v->rows : b->v->cols;
    size_t i;
    int rc = -1;

    if (magnitude(&m[0], a->u, a->v, 0.5) || magnitude(&m[1], a->v, a->v, 1) ||
        magnitude(&m[2], b->u, b->v, 0.5) || magnitude(&m[3], b->v, b->v, 1) ||
        as_matrix_init(&m[4], n, p) || as_matrix_init(slack, n, p))
        goto done;
    if (scores) {
        as_scores(slack->v, m[0].v, m[3].v, n, p, kk);
        as_scores(m[4].v, m[1].v, m[2].v, n, p, kk);
    } else {
        as_matmul(slack->v, m[0].v, m[3].v, n, kk, p);
        as_matmul(m[4].v, m[1].v, m[2].v, n, kk, p);
    }
    for (i = 0; i < n * p; i++)
        slack->v[i] += m[4].v[i];
    rc = 0;
done:
    for (i = 0; i < 5; i++)
        as_matrix_free(&m[i]);
    return rc;
}

/* The layer's O from the student's own C (through Wo when there is one). */
static int carried_output(as_matrix *out, as_matrix *slack, checker *k)
{
    const as_problem *p = k->p;
    const held wo = {p->Wo, NULL};
    held c;
    int wrong = 0;

    if (earlier(k, AS_ANS_C, -1, &c, &wrong) != 0)
        return -1;
    if (!wrong)
        return 0;
    if (p->Wo == NULL)
        return as_matrix_copy(out, c.v) != 0 || magnitude(slack, c.u, c.v, 0.5) != 0 ? -1 : 1;
    if (as_matrix_init(out, c.v->rows, p->Wo->cols) != 0 || product_slack(slack, &c, &wo, 0) != 0)
        return -1;
    as_matmul(out->v, c.v->v, p->Wo->v, c.v->rows, c.v->cols, p->Wo->cols);
    if (p->bo != NULL)
        as_add_bias(out->v, p->bo->v, out->rows, out->cols);
    return 1;
}

/* QKᵀ of head h from the student's own Q and K. */
static int carried_scores(as_matrix *out, as_matrix *slack, checker *k, long h)
{
    held q, kk;
    int wrong = 0;

    if (earlier(k, AS_ANS_Q, h, &q, &wrong) != 0 || earlier(k, AS_ANS_K, h, &kk, &wrong) != 0)
        return -1;
    if (!wrong)
        return 0;
    if (as_matrix_init(out, q.v->rows, kk.v->rows) != 0 || product_slack(slack, &q, &kk, 1) != 0)
        return -1;
    as_scores(out->v, q.v->v, kk.v->v, q.v->rows, kk.v->rows, q.v->cols);
    return 1;
}

/* The shares from the student's own S: a change of at most d in a row of scores moves
 * each share by at most 2d (first order), d half the largest unit in the row. */
static int shares_slack(as_matrix *slack, const held *s)
{
    size_t i, j;
    double d;

    if (magnitude(slack, s->u, s->v, 0.5) != 0)
        return -1;
    for (i = 0; i < slack->rows; i++) {
        for (d = 0, j = 0; j < slack->cols; j++)
            d = fmax(d, AS_AT(*slack, i, j));
        for (j = 0; j < slack->cols; j++)
            AS_AT(*slack, i, j) = 2 * d;
    }
    return 0;
}

/* S, A or O of head h from the student's own QKᵀ, S, or A and V. */
static int carried_step(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g)
{
    chain ch = right_chain(k, g->head);
    held x, v = {ch.v, NULL};
    int wrong = 0, rc;

    if (earlier(k, g->kind == AS_ANS_S ? AS_ANS_QKT : g->kind == AS_ANS_A ? AS_ANS_S : AS_ANS_A,
                g->head, &x, &wrong) != 0 ||
        (g->kind == AS_ANS_O && earlier(k, AS_ANS_V, g->head, &v, &wrong) != 0))
        return -1;
    if (!wrong)
        return 0;
    if (g->kind == AS_ANS_S) {
        ch.qkt = x.v;
        rc = magnitude(slack, x.u, x.v, 0.5 * fabs(ch.scale));
    } else if (g->kind == AS_ANS_A) {
        ch.s = x.v;
        rc = shares_slack(slack, &x);
    } else {
        ch.a = x.v;
        ch.v = v.v;
        rc = product_slack(slack, &x, &v, 0);
    }
    return rc != 0 ? -1 : run_chain(out, &ch, k->p, g->kind);
}

/* The right step applied to the student's own earlier tables (at least one wrong);
 * slack gets how far their rounding can move each cell. */
static int carried(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g)
{
    k->from[0] = '\0';
    if (g->head < 0)
        return g->kind == AS_ANS_O ? carried_output(out, slack, k) : 0;
    if (g->kind == AS_ANS_QKT)
        return carried_scores(out, slack, k, g->head);
    if (g->kind >= AS_ANS_S && g->kind <= AS_ANS_O)
        return carried_step(out, slack, k, g);
    return 0;
}

/* ---- naming the mistake ---- */

/* The table mistake d would give in place of g's (with slack for a carried error): 1
 * when out holds it, 0 when d does not apply to this table, -1 when memory ran out. */
static int mistaken(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g,
                    as_diag d)
{
    chain ch;

    if (d == AS_DIAG_TRANSPOSED)
        return as_matrix_copy(out, g->expected) != 0 || as_matrix_transpose(out) != 0 ? -1 : 1;
    if (d == AS_DIAG_CARRIED_ERROR)
        return carried(out, slack, k, g);
    if (g->head < 0 || g->kind < AS_ANS_S || g->kind > AS_ANS_O)
        return 0; /* the other mistakes are in the steps from the scores on */
    ch = right_chain(k, g->head);
    if (d == AS_DIAG_NO_SCALE)
        ch.scale = 1;
    else if (d == AS_DIAG_SCALE_MULTIPLIED && k->p->scale_auto)
        ch.scale = sqrt((double)k->p->d_k);
    else if (d == AS_DIAG_NO_MASK)
        ch.mask = 0;
    else if (d == AS_DIAG_SOFTMAX_COLUMNS)
        ch.columns = 1;
    else
        return 0;
    return run_chain(out, &ch, k->p, g->kind);
}

int as_diagnose(as_table_grade *g, const as_table_grade *graded, size_t ngraded,
                const as_problem *p, const as_trace *t, double tol)
{
    static const as_diag order[] = {AS_DIAG_CARRIED_ERROR, AS_DIAG_NO_SCALE,
                                    AS_DIAG_SCALE_MULTIPLIED, AS_DIAG_NO_MASK,
                                    AS_DIAG_SOFTMAX_COLUMNS, AS_DIAG_TRANSPOSED};
    checker k0, *k = &k0;
    size_t i, j;
    int rc = 0;

    memset(k, 0, sizeof *k);
    k->p = p, k->t = t, k->graded = graded, k->ngraded = ngraded, k->tol = tol;
    for (i = 0; i < sizeof order / sizeof order[0] && rc >= 0 && !g->diagnosis; i++) {
        as_matrix cand = {0}, slack = {0};
        rc = mistaken(&cand, &slack, k, g, order[i]);
        if (rc == 1 && table_matches(g->given, &cand, &slack, k->tol)) {
            g->diagnosis = order[i];
            if (order[i] == AS_DIAG_CARRIED_ERROR)
                snprintf(g->carried_from, sizeof g->carried_from, "%s", k->from);
        }
        as_matrix_free(&cand);
        as_matrix_free(&slack);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++)
            as_matrix_free(&k->slice[i][j]);
    return rc < 0 ? -1 : 0;
}
