/* blockcheck.c - grading the whole block's tables (SPEC §15 with §6); see blockcheck.h.
 * Every step of the block works row by row, so what the rounding of a table read can
 * move a cell is found row by row: exactly for the sums and projections (Σ |∂| × half a
 * unit), and for the norms and activations by moving each written cell half a unit
 * either way (first order, as the attention's own chain does). */
#include "attnstep/blockcheck.h"
#include "attnstep/block.h"
#include "attnstep/ffn.h"
#include "attnstep/steps.h"
#include "attnstep/mistake_steps.h"
#include "attnstep/norm.h"
#include "attnstep/ownchain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Which of the block's three norms: its γ/β in p->ln_g/ln_b. */
enum { NORM1, NORM2, NORMF };

/* A norm done right, or the way a named mistake does it. */
typedef enum nvar { NV_RIGHT, NV_UNBIASED, NV_EPS_OUT, NV_NO_AFFINE, NV_WITH_MEAN } nvar;

int as_block_answer(as_answer_kind k)
{
    return k >= AS_ANS_N1 && k <= AS_ANS_Y;
}

/* A table a step reads: the student's own as written (half: half the unit of each cell)
 * or the run's (half 0); bits: the answer it is, or 0. */
typedef struct own {
    as_matrix v, half;
    uint64_t bits;
} own;

static void own_free(own *o)
{
    as_matrix_free(&o->v);
    as_matrix_free(&o->half);
}

/* The grading of one table: its answer, the slack of its right step, the fits so far. */
typedef struct judging {
    as_table_grade *g;
    const as_table_grade *ans;
    size_t n;
    const as_problem *p;
    const as_block_trace *b;
    const as_matrix *O;
    double tol;
    as_matrix err;  /* how far the rounding of the tables read can move each cell */
    int nomem;
    /* what is done with a mistake's table: compared with g (check), or its cell (i, j)
     * kept (practice) */
    void (*found)(struct judging *j, as_diag d, as_matrix *alt, as_matrix *alt_err, int rc);
    size_t ci, cj, nvals, max;
    as_fit *fits;
    double *vals;
} judging;

/* Nonzero when answer a is of kind k for the layer (O: the layer's output, not one
 * head's before Wo), of truth's width, and whole (row -1) or one row. */
static int own_answer(const judging *j, const as_table_grade *a, as_answer_kind k,
                      const as_matrix *truth, long row)
{
    return a->kind == k && (row < 0 ? a->row < 0 : a->row >= 0) && a->shape_ok && a->own == NULL &&
           a->expected.rows == (row < 0 ? truth->rows : 1) && a->expected.cols == truth->cols &&
           (row < 0 || (size_t)a->row < truth->rows) &&
           !(k == AS_ANS_O && a->head >= 0 && (j->p->heads > 1 || j->p->Wo != NULL));
}

/* o = the student's whole answer of kind k; else the run's table truth with the rows
 * they answered (decode's N1[0], o₀ …) in place of its own. */
static int own_of(own *o, const judging *j, as_answer_kind k, const as_matrix *truth)
{
    size_t i, c;

    memset(o, 0, sizeof *o);
    for (i = 0; i < j->n; i++) {
        const as_table_grade *a = &j->ans[i];
        if (!own_answer(j, a, k, truth, -1))
            continue;
        if (as_matrix_copy(&o->v, &a->given->value) != 0 ||
            as_matrix_copy(&o->half, &a->given->unit) != 0)
            return -1;
        for (c = 0; c < o->half.rows * o->half.cols; c++)
            o->half.v[c] /= 2;
        o->bits = AS_CHAIN_BIT(a->index);
        return 0;
    }
    if (as_matrix_copy(&o->v, truth) != 0 || as_matrix_init(&o->half, truth->rows, truth->cols) != 0)
        return -1;
    for (i = 0; i < j->n; i++) {
        const as_table_grade *a = &j->ans[i];
        if (!own_answer(j, a, k, truth, 0))
            continue;
        for (c = 0; c < truth->cols; c++) {
            AS_AT(o->v, a->row, c) = a->given->value.v[c];
            AS_AT(o->half, a->row, c) = a->given->unit.v[c] / 2;
        }
        o->bits |= AS_CHAIN_BIT(a->index);
    }
    return 0;
}

/* s = a + b, its rounding the sum of theirs. */
static int own_sum(own *s, const own *a, const own *b)
{
    size_t i;

    memset(s, 0, sizeof *s);
    if (as_matrix_copy(&s->v, &a->v) != 0 || as_matrix_copy(&s->half, &a->half) != 0)
        return -1;
    for (i = 0; i < s->v.rows * s->v.cols; i++) {
        s->v.v[i] += b->v.v[i];
        s->half.v[i] += b->half.v[i];
    }
    s->bits = a->bits | b->bits;
    return 0;
}

/* ---- the steps, done right or as a mistake ---- */

/* y [n,d] = norm `which` of x [n,d], the variant v's way. Returns 0, or -1 (memory). */
static int norm_as(double *y, const double *x, size_t n, size_t d, int which, nvar v,
                   const as_problem *p)
{
    const double *g = p->ln_g[which] ? p->ln_g[which]->v : NULL;
    const double *b = p->ln_b[which] ? p->ln_b[which]->v : NULL;

    switch (v) {
    case NV_UNBIASED: as_layer_norm_as(y, x, g, b, n, d, 1, 0, p->norm_eps); return 0;
    case NV_EPS_OUT: as_layer_norm_as(y, x, g, b, n, d, 0, 1, p->norm_eps); return 0;
    case NV_WITH_MEAN: as_layer_norm_as(y, x, g, NULL, n, d, 0, 0, p->norm_eps); return 0;
    case NV_NO_AFFINE: g = b = NULL; break;
    default: break;
    }
    return as_norm_rows(y, NULL, x, g, b, n, d, p->norm, p->norm_style, p->norm_eps);
}

/* out = norm `which` of x (variant v); with err, what x's rounding can move each cell:
 * each written cell moved half a unit either way, its row normalised again. */
static int norm_of(as_matrix *out, as_matrix *err, const own *x, int which, nvar v,
                   const as_problem *p)
{
    const size_t n = x->v.rows, d = x->v.cols;
    double *row = NULL, *up, *down;
    size_t i, k, c;
    int rc = -1;

    if (as_matrix_init(out, n, d) != 0 || norm_as(out->v, x->v.v, n, d, which, v, p) != 0)
        return -1;
    if (err == NULL)
        return 0;
    if (as_matrix_init(err, n, d) != 0 || (row = malloc(3 * d * sizeof *row)) == NULL)
        goto done;
    up = row + d, down = row + 2 * d;
    for (i = 0; i < n; i++)
        for (k = 0; k < d; k++) {
            const double h = AS_AT(x->half, i, k);
            if (h == 0)
                continue;
            memcpy(row, &AS_AT(x->v, i, 0), d * sizeof *row);
            row[k] += h;
            if (norm_as(up, row, 1, d, which, v, p) != 0)
                goto done;
            row[k] -= 2 * h;
            if (norm_as(down, row, 1, d, which, v, p) != 0)
                goto done;
            for (c = 0; c < d; c++)
                AS_AT(*err, i, c) += fabs(up[c] - down[c]) / 2;
        }
    rc = 0;
done:
    free(row);
    return rc;
}

/* out = x @ w (+ bias), err = |x's half units| @ |w|. */
static int proj_of(as_matrix *out, as_matrix *err, const own *x, const as_matrix *w,
                   const as_matrix *bias)
{
    size_t i, j, k;

    if (as_matrix_init(out, x->v.rows, w->cols) != 0 || as_matrix_init(err, x->v.rows, w->cols) != 0)
        return -1;
    as_matmul(out->v, x->v.v, w->v, x->v.rows, x->v.cols, w->cols);
    if (bias != NULL)
        as_add_bias(out->v, bias->v, x->v.rows, w->cols);
    for (i = 0; i < x->v.rows; i++)
        for (k = 0; k < x->v.cols; k++)
            for (j = 0; j < w->cols; j++)
                AS_AT(*err, i, j) += AS_AT(x->half, i, k) * fabs(AS_AT(*w, k, j));
    return 0;
}

/* out = the activation `kind` of u, cell by cell; with err, u's rounding through it:
 * the farther of f(u − h) and f(u + h) from f(u). Half their difference (a central
 * difference) is too little where f bends sharply: ReLU at 0 (a U written 0.00 stands
 * for any u in ±0.005, and ReLU of it for anything in [0, 0.005]), GELU at its minimum
 * (its slope 0 there, yet the cell moves by the curve). */
static int act_of(as_matrix *out, as_matrix *err, const as_matrix *u, const as_matrix *half,
                  as_ffn_kind kind)
{
    const size_t cells = u->rows * u->cols;
    size_t i;

    if (as_matrix_init(out, u->rows, u->cols) != 0)
        return -1;
    if (kind == AS_FFN_SWIGLU)
        as_silu(out->v, u->v, cells);
    else
        as_ffn_activate(out->v, u->v, cells, kind);
    if (err == NULL)
        return 0;
    if (as_matrix_init(err, u->rows, u->cols) != 0)
        return -1;
    for (i = 0; i < cells; i++) {
        double in[2] = {u->v[i] + half->v[i], u->v[i] - half->v[i]}, y[2];
        if (kind == AS_FFN_SWIGLU)
            as_silu(y, in, 2);
        else
            as_ffn_activate(y, in, 2, kind);
        err->v[i] = fmax(fabs(y[0] - out->v[i]), fabs(y[1] - out->v[i]));
    }
    return 0;
}

/* ---- comparing the student's table with a step ---- */

/* Nonzero when every cell g wrote stands for the cell of want, widened by j->err; a row
 * answer (decode's N1[0]) for that row of want. */
static int gives(const judging *j, const as_matrix *want)
{
    const as_matrix *w = j->g->given ? &j->g->given->value : NULL;
    const as_matrix *u = j->g->given ? &j->g->given->unit : NULL;
    const long row = j->g->row;
    size_t i, at;

    if (j->g->given == NULL || want->v == NULL || w->cols != want->cols ||
        (row < 0 ? w->rows != want->rows : w->rows != 1 || (size_t)row >= want->rows))
        return 0;
    at = row < 0 ? 0 : (size_t)row * want->cols;
    for (i = 0; i < w->rows * w->cols; i++)
        if (!as_answer_cell_ok(w->v[i], u->v[i], want->v[at + i], j->tol,
                               j->tol < 0 && j->err.v != NULL ? j->err.v[at + i] : 0))
            return 0;
    return 1;
}

/* Adds mistake d to g's fits when alt gives the student's table, within what the
 * rounding of the tables read can move alt itself (alt_err; when empty, the right
 * step's); frees both. */
static void compare_mistake(judging *j, as_diag d, as_matrix *alt, as_matrix *alt_err, int rc)
{
    as_table_grade *g = j->g;
    as_matrix right = j->err;

    j->nomem |= rc != 0;
    if (alt_err->v != NULL)
        j->err = *alt_err;
    if (rc == 0 && gives(j, alt) && g->nfits < AS_MAX_FITS)
        g->fits[g->nfits++] = (as_fit){d, 0};
    j->err = right;
    as_matrix_free(alt);
    as_matrix_free(alt_err);
}

/* Keeps the cell (ci, cj) of mistake d's table alt; frees alt and alt_err. */
static void keep_cell(judging *j, as_diag d, as_matrix *alt, as_matrix *alt_err, int rc)
{
    j->nomem |= rc != 0;
    if (rc == 0 && j->ci < alt->rows && j->cj < alt->cols && j->nvals < j->max) {
        j->fits[j->nvals] = (as_fit){d, 0};
        j->vals[j->nvals++] = AS_AT(*alt, j->ci, j->cj);
    }
    as_matrix_free(alt);
    as_matrix_free(alt_err);
}

static void try_mistake(judging *j, as_diag d, as_matrix *alt, as_matrix *alt_err, int rc)
{
    j->found(j, d, alt, alt_err, rc);
}

/* The convention mistakes of a norm of x (ln_unbiased, ln_eps_outside, ln_no_affine,
 * rms_with_mean), those the problem's norm can show. */
static void norm_mistakes(judging *j, const own *x, int which)
{
    const as_problem *p = j->p;
    as_matrix alt = {0}, ae = {0};

    if (p->norm == AS_NORM_LAYER && p->norm_style == AS_NORM_TORCH && x->v.cols > 1) {
        try_mistake(j, AS_DIAG_LN_UNBIASED, &alt, &ae, norm_of(&alt, &ae, x, which, NV_UNBIASED, p));
        try_mistake(j, AS_DIAG_LN_EPS_OUTSIDE, &alt, &ae, norm_of(&alt, &ae, x, which, NV_EPS_OUT, p));
    }
    if (p->norm == AS_NORM_RMS)
        try_mistake(j, AS_DIAG_RMS_WITH_MEAN, &alt, &ae, norm_of(&alt, &ae, x, which, NV_WITH_MEAN, p));
    if (p->norm != AS_NORM_NONE &&
        (p->ln_g[which] != NULL || (p->ln_b[which] != NULL && p->norm != AS_NORM_RMS)))
        try_mistake(j, AS_DIAG_LN_NO_AFFINE, &alt, &ae, norm_of(&alt, &ae, x, which, NV_NO_AFFINE, p));
}

/* The activation mistakes of F = act(U): the other GELU, ReLU for either. */
static void act_mistakes(judging *j, const own *u)
{
    const as_ffn_kind k = j->p->ffn;
    as_matrix alt = {0}, ae = {0};

    if (k == AS_FFN_GELU)
        try_mistake(j, AS_DIAG_GELU_TANH_FOR_ERF, &alt, &ae, act_of(&alt, &ae, &u->v, &u->half, AS_FFN_GELU_TANH));
    if (k == AS_FFN_GELU_TANH)
        try_mistake(j, AS_DIAG_GELU_ERF_FOR_TANH, &alt, &ae, act_of(&alt, &ae, &u->v, &u->half, AS_FFN_GELU));
    if (k == AS_FFN_GELU || k == AS_FFN_GELU_TANH)
        try_mistake(j, AS_DIAG_RELU_FOR_GELU, &alt, &ae, act_of(&alt, &ae, &u->v, &u->half, AS_FFN_RELU));
}

/* The residual mistakes of pre's H = X + S (X the sublayer's input before its norm N,
 * S its output): S alone, N + S, norm(X + S). */
static void residual_mistakes(judging *j, const own *x, const own *normed, const own *s,
                              int which)
{
    as_matrix alt = {0}, ae = {0};
    own sum;

    try_mistake(j, AS_DIAG_NO_RESIDUAL, &alt, &ae, as_matrix_copy(&alt, &s->v) || as_matrix_copy(&ae, &s->half));
    /* a sum short of memory is told as such (nomem), never a mistake silently not tried */
    try_mistake(j, AS_DIAG_RESIDUAL_FROM_NORMED, &alt, &ae,
                own_sum(&sum, normed, s) || as_matrix_copy(&alt, &sum.v) ||
                    as_matrix_copy(&ae, &sum.half));
    own_free(&sum);
    try_mistake(j, AS_DIAG_POST_FOR_PRE, &alt, &ae,
                own_sum(&sum, x, s) || norm_of(&alt, &ae, &sum, which, NV_RIGHT, j->p));
    own_free(&sum);
}

/* ---- each table's right step, and the mistakes tried on it ---- */

/* A norm step: calc = norm `which` of x, and its mistakes. */
static int norm_step(judging *j, as_matrix *calc, const own *x, int which)
{
    if (norm_of(calc, &j->err, x, which, NV_RIGHT, j->p) != 0)
        return -1;
    if (!gives(j, calc))
        norm_mistakes(j, x, which);
    return 0;
}

/* pre: H = A + S (A before its norm, N the norm's output, S the sublayer's). */
static int pre_residual(judging *j, as_matrix *calc, uint64_t *bits, as_answer_kind a,
                        const as_matrix *at, as_answer_kind nk, const as_matrix *nt,
                        as_answer_kind sk, const as_matrix *st, int which)
{
    own x, normed, s, sum;
    int rc = -1;

    memset(&normed, 0, sizeof normed), memset(&s, 0, sizeof s), memset(&sum, 0, sizeof sum);
    if (own_of(&x, j, a, at) != 0 || own_of(&normed, j, nk, nt) != 0 || own_of(&s, j, sk, st) != 0 ||
        own_sum(&sum, &x, &s) != 0)
        goto done;
    *bits = sum.bits;
    if (as_matrix_copy(calc, &sum.v) != 0 || as_matrix_copy(&j->err, &sum.half) != 0)
        goto done;
    if (!gives(j, calc))
        residual_mistakes(j, &x, &normed, &s, which);
    rc = 0;
done:
    own_free(&x), own_free(&normed), own_free(&s), own_free(&sum);
    return rc;
}

/* post: H = norm(A + S), or the mistakes (norm's, and no_residual: norm(S)). */
static int post_residual(judging *j, as_matrix *calc, uint64_t *bits, as_answer_kind a,
                         const as_matrix *at, as_answer_kind sk, const as_matrix *st, int which)
{
    own x, s, sum;
    as_matrix alt = {0}, ae = {0};
    int rc = -1;

    memset(&s, 0, sizeof s), memset(&sum, 0, sizeof sum);
    if (own_of(&x, j, a, at) != 0 || own_of(&s, j, sk, st) != 0 || own_sum(&sum, &x, &s) != 0 ||
        norm_step(j, calc, &sum, which) != 0)
        goto done;
    *bits = sum.bits;
    if (!gives(j, calc))
        try_mistake(j, AS_DIAG_NO_RESIDUAL, &alt, &ae, norm_of(&alt, &ae, &s, which, NV_RIGHT, j->p));
    rc = 0;
done:
    own_free(&x), own_free(&s), own_free(&sum);
    return rc;
}

/* F from the student's U (and G): the activation, or swiglu's G ⊙ U. */
static int ffn_f(judging *j, as_matrix *calc, uint64_t *bits)
{
    const as_block_trace *b = j->b;
    own u, g;
    size_t i;
    int rc = -1;

    memset(&g, 0, sizeof g);
    if (own_of(&u, j, AS_ANS_U, &b->U) != 0)
        goto done;
    *bits = u.bits;
    if (j->p->ffn != AS_FFN_SWIGLU) {
        rc = act_of(calc, &j->err, &u.v, &u.half, j->p->ffn);
        if (rc == 0 && !gives(j, calc))
            act_mistakes(j, &u);
        goto done;
    }
    if (own_of(&g, j, AS_ANS_G, &b->G) != 0 || as_matrix_copy(calc, &g.v) != 0 ||
        as_matrix_init(&j->err, g.v.rows, g.v.cols) != 0)
        goto done;
    *bits |= g.bits;
    for (i = 0; i < g.v.rows * g.v.cols; i++) {
        calc->v[i] = g.v.v[i] * u.v.v[i];
        j->err.v[i] = fabs(u.v.v[i]) * g.half.v[i] + fabs(g.v.v[i]) * u.half.v[i];
    }
    rc = 0;
done:
    own_free(&u), own_free(&g);
    return rc;
}

/* A projection from the student's table k: U, D, or swiglu's G = silu(N2·Wgate). */
static int ffn_proj(judging *j, as_matrix *calc, uint64_t *bits, as_answer_kind k,
                    const as_matrix *truth, const as_matrix *w, const as_matrix *bias, int gate)
{
    own x;
    as_matrix z = {0}, ez = {0};
    int rc = -1;

    if (own_of(&x, j, k, truth) != 0)
        goto done;
    *bits = x.bits;
    if (!gate) {
        rc = proj_of(calc, &j->err, &x, w, bias);
        goto done;
    }
    rc = proj_of(&z, &ez, &x, w, NULL) != 0 || act_of(calc, &j->err, &z, &ez, AS_FFN_SWIGLU) != 0;
done:
    own_free(&x);
    as_matrix_free(&z), as_matrix_free(&ez);
    return rc ? -1 : 0;
}

/* Y: normf of the last table when lnf is given, else that table. */
static int block_y(judging *j, as_matrix *calc, uint64_t *bits)
{
    const int none = j->p->ffn == AS_FFN_NONE;
    own last;
    int rc = -1;

    if (own_of(&last, j, none ? AS_ANS_H1 : AS_ANS_H2, none ? &j->b->H1 : &j->b->H2) != 0)
        goto done;
    *bits = last.bits;
    if (j->p->final_norm)
        rc = norm_step(j, calc, &last, NORMF);
    else
        rc = as_matrix_copy(calc, &last.v) != 0 || as_matrix_copy(&j->err, &last.half) != 0;
done:
    own_free(&last);
    return rc ? -1 : 0;
}

/* The right step of g's table on the student's own earlier tables into calc (and
 * j->err), trying its mistakes when it does not give g. */
static int step(judging *j, as_matrix *calc, uint64_t *bits)
{
    const as_problem *p = j->p;
    const as_block_trace *b = j->b;
    const as_matrix *X = p->block == AS_BLOCK_PRE ? &p->in->mat[AS_X].m : p->X;
    const int pre = p->block == AS_BLOCK_PRE;
    own x;
    int rc;

    switch (j->g->kind) {
    case AS_ANS_N1:
    case AS_ANS_N2:
        if (own_of(&x, j, j->g->kind == AS_ANS_N1 ? AS_ANS_KINDS : AS_ANS_H1,
                   j->g->kind == AS_ANS_N1 ? X : &b->H1) != 0) {
            own_free(&x);
            return -1;
        }
        *bits = x.bits;
        rc = norm_step(j, calc, &x, j->g->kind == AS_ANS_N1 ? NORM1 : NORM2);
        own_free(&x);
        return rc;
    case AS_ANS_H1:
        return pre ? pre_residual(j, calc, bits, AS_ANS_KINDS, X, AS_ANS_N1, &b->N1, AS_ANS_O, j->O, NORM1)
                   : post_residual(j, calc, bits, AS_ANS_KINDS, X, AS_ANS_O, j->O, NORM1);
    case AS_ANS_H2:
        return pre ? pre_residual(j, calc, bits, AS_ANS_H1, &b->H1, AS_ANS_N2, &b->N2, AS_ANS_D, &b->D, NORM2)
                   : post_residual(j, calc, bits, AS_ANS_H1, &b->H1, AS_ANS_D, &b->D, NORM2);
    case AS_ANS_U:
        return ffn_proj(j, calc, bits, pre ? AS_ANS_N2 : AS_ANS_H1, pre ? &b->N2 : &b->H1, p->Wup,
                        p->bup, 0);
    case AS_ANS_G:
        return ffn_proj(j, calc, bits, pre ? AS_ANS_N2 : AS_ANS_H1, pre ? &b->N2 : &b->H1, p->Wgate,
                        NULL, 1);
    case AS_ANS_F:
        return ffn_f(j, calc, bits);
    case AS_ANS_D:
        return ffn_proj(j, calc, bits, AS_ANS_F, &b->F, p->Wdown, p->bdown, 0);
    default:
        return block_y(j, calc, bits);
    }
}

int as_block_judge(as_table_grade *g, const as_table_grade *ans, size_t n, const as_problem *p,
                   const as_trace *t, double tol, int *agrees, uint64_t *sources)
{
    judging j = {g, ans, n, p, t->block, &t->O, tol, {0}, 0, compare_mistake, 0, 0, 0, 0, NULL, NULL};
    as_matrix calc = {0};
    int rc;

    *agrees = 0;
    *sources = 0;
    g->nfits = 0;
    if (t->block == NULL)
        return 0;
    rc = step(&j, &calc, sources);
    if (rc == 0 && !j.nomem) {
        *agrees = gives(&j, &calc);
        if (*agrees)
            g->nfits = 0;
        else if (g->nfits == 1) {
            g->diagnosis = g->fits[0].diag;
            g->detail = 0;
            g->nfits = 0;
        }
    }
    as_matrix_free(&calc);
    as_matrix_free(&j.err);
    return rc != 0 || j.nomem ? -1 : 0;
}

size_t as_block_mistake_cells(as_fit *fits, double *vals, size_t max, const as_problem *p,
                              const as_trace *t, as_answer_kind k, size_t i, size_t c)
{
    as_table_grade g;
    judging j = {&g, NULL, 0, p, t->block, &t->O, -1, {0}, 0, keep_cell, i, c, 0, max, fits, vals};
    as_matrix calc = {0};
    uint64_t bits;
    int rc;

    if (t->block == NULL || !as_block_answer(k))
        return 0;
    memset(&g, 0, sizeof g);
    g.kind = k;
    g.row = -1;
    rc = step(&j, &calc, &bits); /* no answer given: every mistake of the step is kept */
    as_matrix_free(&calc);
    as_matrix_free(&j.err);
    return rc != 0 || j.nomem ? (size_t)-1 : j.nvals;
}
