/* block.c - the transformer block of SPEC §15 around the attention layer, in its order:
 *   pre:  N1 = norm1(X); O = attention(N1); H1 = X + O;
 *         N2 = norm2(H1); D = ffn(N2); H2 = H1 + D; Y = normf(H2) when lnf is given
 *   post: O = attention(X); H1 = norm1(X + O); D = ffn(H1); H2 = norm2(H1 + D); Y = H2
 * with ffn: none ending at H1. Every table and each norm's sub-steps are recorded. */
#include "attnstep/block.h"
#include "attnstep/ffn.h"
#include "attnstep/kernels.h"
#include "attnstep/norm.h"

#include <math.h>
#include <string.h>

/* Which of the block's three norms: its γ/β in p->ln_g/ln_b and its record in b. */
enum { NORM1, NORM2, NORMF };

static int out_of_memory(const as_problem *p, as_error *err)
{
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* Every cell of m finite, else err names table name and the first bad cell. */
static int finite(const as_matrix *m, const char *name, const as_problem *p, as_error *err)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (!isfinite(m->v[i])) {
            as_error_msg(err, p->in->path, 0, 0,
                         isnan(m->v[i]) ? AS_MSG_RUN_NAN : AS_MSG_RUN_OVERFLOW, name,
                         i / m->cols, i % m->cols);
            as_error_hint_msg(err, AS_MSG_HINT_RUN_RANGE);
            return -1;
        }
    return 0;
}

/* y = norm `which` of x [n, d_model], its sub-steps into nt (none with norm: none). */
static int normalise(as_matrix *y, as_norm_trace *nt, const as_matrix *x, int which,
                     const char *name, const as_problem *p, as_error *err)
{
    const size_t n = x->rows, d = x->cols;
    const as_matrix *g = p->ln_g[which], *b = p->ln_b[which];
    as_norm_rec rec = {NULL, NULL, NULL, NULL, NULL};

    if (as_matrix_init(y, n, d) != 0)
        return out_of_memory(p, err);
    if (p->norm != AS_NORM_NONE) {
        if ((p->norm == AS_NORM_LAYER && (as_matrix_init(&nt->mean, n, 1) != 0 ||
                                          as_matrix_init(&nt->centred, n, d) != 0)) ||
            as_matrix_init(&nt->var, n, 1) != 0 || as_matrix_init(&nt->div, n, 1) != 0 ||
            as_matrix_init(&nt->xhat, n, d) != 0)
            return out_of_memory(p, err);
        rec = (as_norm_rec){nt->mean.v, nt->var.v, nt->div.v, nt->xhat.v, nt->centred.v};
    }
    if (as_norm_rows(y->v, &rec, x->v, g ? g->v : NULL, b ? b->v : NULL, n, d, p->norm,
                     p->norm_style, p->norm_eps) != 0)
        return out_of_memory(p, err);
    /* a row whose squares overflow has an infinite divisor, and x / inf is a finite 0: the
     * norm of [1.5e308, 1.5e308] would print as zeros (it is [1, 1]); its row is named */
    return finite(y, name, p, err) || (p->norm != AS_NORM_NONE && finite(&nt->div, name, p, err));
}

/* out = a + b, cell by cell: a residual. */
static int residual(as_matrix *out, const as_matrix *a, const as_matrix *b, const char *name,
                    const as_problem *p, as_error *err)
{
    if (as_matrix_init(out, a->rows, a->cols) != 0)
        return out_of_memory(p, err);
    as_residual_add(out->v, a->v, b->v, a->rows * a->cols);
    return finite(out, name, p, err);
}

/* out = x @ W (+ bias), W the FFN's Wup, Wgate or Wdown (which 0, 1, 2): one of its
 * projections, by the fast kernel (as_matmul() then as_add_bias(), bit for bit: one row,
 * as decode makes it, or all, as run does; GPT-2's FFN is two thirds of its block's
 * products). */
static int project(as_matrix *out, const as_matrix *x, int which, const as_matrix *bias,
                   const char *name, const as_problem *p, as_error *err)
{
    const as_matrix *w = which == 0 ? p->Wup : which == 1 ? p->Wgate : p->Wdown;
    const as_matrix *wt = p->Wffn_t[which]; /* lean, torch layout: read as the file has it */

    if (as_matrix_init(out, x->rows, w->cols) != 0)
        return out_of_memory(p, err);
    as_project_fast(out->v, x->v, wt != NULL ? wt->v : w->v, wt != NULL,
                    bias != NULL ? bias->v : NULL, x->rows, x->cols, w->cols);
    return finite(out, name, p, err);
}

/* The feed-forward sublayer on x: U, (G,) F and D into b. */
static int ffn(as_block_trace *b, const as_matrix *x, const as_problem *p, as_error *err)
{
    const size_t cells = x->rows * p->d_ff;

    if (project(&b->U, x, 0, p->bup, "U", p, err) != 0)
        return -1;
    if (as_matrix_init(&b->F, x->rows, p->d_ff) != 0)
        return out_of_memory(p, err);
    if (p->ffn == AS_FFN_SWIGLU) {
        if (project(&b->Z, x, 1, NULL, "G", p, err) != 0)
            return -1;
        if (as_matrix_init(&b->G, x->rows, p->d_ff) != 0)
            return out_of_memory(p, err);
        as_silu(b->G.v, b->Z.v, cells); /* Z kept: the sheet's table of SiLU reads it */
        as_hadamard(b->F.v, b->G.v, b->U.v, cells);
    } else {
        as_ffn_activate(b->F.v, b->U.v, cells, p->ffn);
    }
    if (finite(&b->G, "G", p, err) != 0 || finite(&b->F, "F", p, err) != 0)
        return -1;
    return project(&b->D, &b->F, 2, p->bdown, "D", p, err);
}

int as_block_begin(as_block_trace *b, as_problem *q, const as_problem *p, as_error *err)
{
    memset(b, 0, sizeof *b);
    *q = *p;
    if (p->block != AS_BLOCK_PRE)
        return 0;
    if (normalise(&b->N1, &b->norm1, p->X, NORM1, "N1", p, err) != 0) {
        as_block_trace_free(b);
        return -1;
    }
    q->X = &b->N1;
    if (!p->cross)
        q->Xkv = &b->N1;
    return 0;
}

/* pre: H1 = X + O, then N2 = norm2(H1), D = ffn(N2), H2 = H1 + D. */
static int pre(as_block_trace *b, const as_matrix *O, const as_problem *p, as_error *err)
{
    if (residual(&b->H1, p->X, O, "H1", p, err) != 0)
        return -1;
    if (p->ffn == AS_FFN_NONE)
        return 0;
    return normalise(&b->N2, &b->norm2, &b->H1, NORM2, "N2", p, err) ||
           ffn(b, &b->N2, p, err) || residual(&b->H2, &b->H1, &b->D, "H2", p, err);
}

/* post: H1 = norm1(X + O), then D = ffn(H1), H2 = norm2(H1 + D). */
static int post(as_block_trace *b, const as_matrix *O, const as_problem *p, as_error *err)
{
    if (residual(&b->R1, p->X, O, "H1", p, err) != 0 ||
        normalise(&b->H1, &b->norm1, &b->R1, NORM1, "H1", p, err) != 0)
        return -1;
    if (p->ffn == AS_FFN_NONE)
        return 0;
    return ffn(b, &b->H1, p, err) || residual(&b->R2, &b->H1, &b->D, "H2", p, err) ||
           normalise(&b->H2, &b->norm2, &b->R2, NORM2, "H2", p, err);
}

int as_block_finish(as_block_trace *b, const as_matrix *O, const as_problem *p, as_error *err)
{
    const as_matrix *last;

    if ((p->block == AS_BLOCK_PRE ? pre : post)(b, O, p, err) != 0)
        goto fail;
    last = p->ffn == AS_FFN_NONE ? &b->H1 : &b->H2;
    if (p->final_norm) {
        if (normalise(&b->Y, &b->normf, last, NORMF, "Y", p, err) != 0)
            goto fail;
    } else if (as_matrix_copy(&b->Y, last) != 0) {
        out_of_memory(p, err);
        goto fail;
    }
    return 0;
fail:
    as_block_trace_free(b);
    return -1;
}

int as_block_run(as_block_trace *b, as_trace *t, const as_problem *p, as_error *err)
{
    as_problem q;

    memset(t, 0, sizeof *t);
    if (as_block_begin(b, &q, p, err) != 0)
        return -1;
    if (as_attention_run(t, &q, err) != 0) {
        as_block_trace_free(b);
        return -1;
    }
    if (as_block_finish(b, &t->O, p, err) != 0) {
        as_trace_free(t);
        return -1;
    }
    return 0;
}

/* ---- row by row ---- */

/* p on row t of its X alone (a borrowed one-row table in *x): what a row step reads. */
static as_problem one_row(const as_problem *p, size_t t, as_matrix *x)
{
    as_problem q = *p;

    *x = (as_matrix){1, p->X->cols, &AS_AT(*p->X, t, 0)};
    q.X = x;
    q.Xkv = x;
    q.n = 1;
    q.m = 1;
    return q;
}

int as_block_row_begin(as_block_trace *b, const as_problem *p, size_t t, as_error *err)
{
    as_matrix x;
    const as_problem q = one_row(p, t, &x);
    as_problem attends; /* the attention's problem on the row: unused, decode makes its own */

    return as_block_begin(b, &attends, &q, err);
}

int as_block_row_finish(as_block_trace *b, const double *o, const as_problem *p, size_t t,
                        as_error *err)
{
    as_matrix x;
    const as_problem q = one_row(p, t, &x);
    const as_matrix orow = {1, p->d_model, (double *)o};

    memset(b, 0, sizeof *b);
    return as_block_finish(b, &orow, &q, err);
}

/* Row t of all's m (n rows, made when first needed) = one's single row. */
static int put(as_matrix *all, const as_matrix *one, size_t t, size_t n)
{
    if (one->v == NULL)
        return 0;
    if (all->v == NULL && as_matrix_init(all, n, one->cols) != 0)
        return -1;
    memcpy(&AS_AT(*all, t, 0), one->v, one->cols * sizeof *one->v);
    return 0;
}

static int put_norm(as_norm_trace *all, const as_norm_trace *one, size_t t, size_t n)
{
    return put(&all->mean, &one->mean, t, n) || put(&all->var, &one->var, t, n) ||
           put(&all->div, &one->div, t, n) || put(&all->xhat, &one->xhat, t, n) ||
           put(&all->centred, &one->centred, t, n);
}

int as_block_put_row(as_block_trace *all, const as_block_trace *one, size_t t, size_t n)
{
    as_matrix *a[] = {&all->N1, &all->R1, &all->H1, &all->N2, &all->U, &all->Z, &all->G,
                      &all->F,  &all->D,  &all->R2, &all->H2, &all->Y};
    const as_matrix *o[] = {&one->N1, &one->R1, &one->H1, &one->N2, &one->U, &one->Z, &one->G,
                            &one->F,  &one->D,  &one->R2, &one->H2, &one->Y};
    size_t k;

    for (k = 0; k < sizeof a / sizeof a[0]; k++)
        if (put(a[k], o[k], t, n) != 0)
            return -1;
    return put_norm(&all->norm1, &one->norm1, t, n) || put_norm(&all->norm2, &one->norm2, t, n) ||
                   put_norm(&all->normf, &one->normf, t, n)
               ? -1
               : 0;
}

const as_matrix *as_block_table(const as_block_trace *b, as_tab id)
{
    const as_matrix *m;

    switch (id) {
    case AS_TAB_N1: m = &b->N1; break;
    case AS_TAB_H1: m = &b->H1; break;
    case AS_TAB_N2: m = &b->N2; break;
    case AS_TAB_U: m = &b->U; break;
    case AS_TAB_G: m = &b->G; break;
    case AS_TAB_F: m = &b->F; break;
    case AS_TAB_D: m = &b->D; break;
    case AS_TAB_H2: m = &b->H2; break;
    case AS_TAB_Y: m = &b->Y; break;
    default: return NULL;
    }
    return m->v != NULL ? m : NULL;
}

static void norm_trace_free(as_norm_trace *nt)
{
    as_matrix_free(&nt->mean);
    as_matrix_free(&nt->var);
    as_matrix_free(&nt->div);
    as_matrix_free(&nt->xhat);
    as_matrix_free(&nt->centred);
}

void as_block_trace_free(as_block_trace *b)
{
    as_matrix *m[] = {&b->N1, &b->R1, &b->H1, &b->N2, &b->U, &b->Z, &b->G,
                      &b->F,  &b->D,  &b->R2, &b->H2, &b->Y};
    size_t k;

    for (k = 0; k < sizeof m / sizeof m[0]; k++)
        as_matrix_free(m[k]);
    norm_trace_free(&b->norm1);
    norm_trace_free(&b->norm2);
    norm_trace_free(&b->normf);
    memset(b, 0, sizeof *b);
}
