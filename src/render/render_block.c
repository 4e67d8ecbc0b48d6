/* render_block.c - trace's walk through the whole block of SPEC §15 for its rows: each
 * norm's μ, x−μ, σ², divisor, x̂ and γ/β written out with the row's numbers, each
 * residual cell by cell, the FFN's row before and after its activation. Only reads the
 * trace (t->block); run's text of the block is in render_text.c. */
#include "attnstep/block.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <stdio.h>
#include <string.h>

/* Which of the block's three norms: its γ/β in p->ln_g/ln_b. */
enum { NORM1, NORM2, NORMF };

static const char *sym(const as_render_opts *o, as_sym s)
{
    return as_sym_text(o->ascii, s);
}

const char *as_block_norm_name(const as_problem *p)
{
    return p->norm == AS_NORM_RMS ? "RMSNorm" : "LayerNorm";
}

const char *as_block_act_name(const as_problem *p)
{
    switch (p->ffn) {
    case AS_FFN_GELU: return "GELU";
    case AS_FFN_GELU_TANH: return "GELU_tanh";
    case AS_FFN_RELU: return "ReLU";
    case AS_FFN_SWIGLU: return "SwiGLU";
    default: return "";
    }
}

/* ------------------------------------------------------------------------------ */
/* trace: the block walked for one row, every sub-step written out with its numbers   */
/* ------------------------------------------------------------------------------ */

/* What one item of a written-out row does with the numbers a[k] and b[k] (b may be a
 * single number, stride 0). */
typedef enum item_op { OP_NUM, OP_SUB, OP_SQ, OP_DIV, OP_AFFINE, OP_ADD, OP_FN, OP_MUL } item_op;

typedef struct items {
    item_op op;
    as_view a, b, c;      /* c: β of OP_AFFINE (count 0: none) */
    const char *fn;       /* OP_FN: the function's name */
    const as_expand_style *st;
} items;

static int item(as_text *t, size_t k, void *ctx)
{
    const items *it = ctx;
    const double a = as_view_at(&it->a, k);
    int r = 0;

    switch (it->op) {
    case OP_NUM:
        return as_expand_factor(t, a, it->st);
    case OP_SUB:
        r = as_expand_number(t, a, it->st);
        as_text_addf(t, "%s", as_sym_text(it->st->ascii, AS_SYM_MINUS));
        return r | as_expand_factor(t, as_view_at(&it->b, k), it->st);
    case OP_SQ:
        r = as_expand_factor(t, a, it->st);
        as_text_addf(t, "%s", it->st->ascii ? "^2" : "\xc2\xb2");
        return r;
    case OP_DIV:
        r = as_expand_factor(t, a, it->st);
        as_text_addf(t, "/");
        return r | as_expand_number(t, as_view_at(&it->b, k), it->st);
    case OP_AFFINE:
    case OP_MUL:
        r = as_expand_factor(t, as_view_at(&it->b, k), it->st);
        as_text_addf(t, "%s", as_sym_text(it->st->ascii, AS_SYM_TIMES));
        r |= as_expand_factor(t, a, it->st);
        if (it->op == OP_AFFINE && it->c.count > 0) {
            as_text_addf(t, "+");
            r |= as_expand_factor(t, as_view_at(&it->c, k), it->st);
        }
        return r;
    case OP_ADD:
        r = as_expand_number(t, a, it->st);
        as_text_addf(t, "+");
        return r | as_expand_factor(t, as_view_at(&it->b, k), it->st);
    default:
        as_text_addf(t, "%s(", it->fn);
        r = as_expand_number(t, a, it->st);
        as_text_addf(t, ")");
        return r;
    }
}

/* Appends "[item, item, …]" for count items; returns 1 when a shown number was rounded. */
static int item_row(as_text *t, items *it, size_t count)
{
    int r;

    as_text_addf(t, "[");
    r = as_expand_join(t, count, ", ", item, it, it->st);
    as_text_addf(t, "]");
    return r;
}

/* Appends " = v" or " ≈ v" for a rounded side r (or a rounded v), v a vector. */
static void equals_vector(as_text *t, int r, const as_view *v, const as_expand_style *st,
                          const as_render_opts *o)
{
    as_text res = {0};

    r |= as_expand_vector(&res, v, st);
    as_text_addf(t, " %s %s", r ? sym(o, AS_SYM_APPROX) : "=", as_text_str(&res));
    t->failed |= res.failed;
    as_text_free(&res);
}

static void equals_number(as_text *t, int r, double v, const as_expand_style *st,
                          const as_render_opts *o)
{
    char num[AS_NUM_BUF];

    r |= as_fmt_display(num, sizeof num, v, st->digits, st->ascii);
    as_text_addf(t, " %s %s", r ? sym(o, AS_SYM_APPROX) : "=", num);
}

/* The line m of the walk with the text t, then t freed. */
static void line(as_block *b, const as_render_opts *o, as_msg m, as_text *t)
{
    b->failed |= t->failed;
    as_block_add(b, as_say(o, m), as_text_str(t));
    as_text_free(t);
}

/* "N1[2]" (the row of a block table), or "x₂" for a row of X or O. */
static void row_name(as_text *t, const char *name, size_t i, const as_expand_style *st)
{
    if (name[0] >= 'a' && name[0] <= 'z')
        as_expand_sub(t, name, i, st);
    else
        as_text_addf(t, "%s[%zu]", name, i);
}

typedef struct bwalk {
    as_block *b;
    const as_problem *p;
    const as_render_opts *o;
    as_expand_style st;
    size_t i;
} bwalk;

/* μ, x−μ, σ², the divisor, x̂ and γ⊙x̂+β of row w->i: OUT = Norm(IN). */
static void walk_norm(bwalk *w, const char *out, const char *in, const as_matrix *x,
                      const as_matrix *res, const as_norm_trace *nt, int which)
{
    const as_problem *p = w->p;
    const as_render_opts *o = w->o;
    const size_t i = w->i, d = x->cols;
    const as_view xi = as_view_row(x->v, d, i), one = {&nt->div.v[i], 0, NULL, d};
    const as_matrix *g = p->ln_g[which], *be = p->ln_b[which];
    const int rms = p->norm == AS_NORM_RMS, annotated = p->norm_style == AS_NORM_ANNOTATED;
    const char *root = sym(o, AS_SYM_SQRT);
    char eps[AS_NUM_BUF];
    as_text t = {0};
    items it = {OP_SQ, xi, xi, {0}, NULL, &w->st};
    int r;

    if (p->norm == AS_NORM_NONE || nt->div.v == NULL)
        return;
    as_fmt_display(eps, sizeof eps, p->norm_eps, 17, o->ascii);
    as_block_gap(w->b);
    row_name(&t, in[0] == 'X' ? "x" : in, i, &w->st);
    as_text_addf(&t, " = ");
    as_expand_vector(&t, &xi, &w->st);
    w->b->failed |= t.failed;
    as_block_add(w->b, as_say(o, AS_MSG_BT_NORM_ROW), out, as_block_norm_name(p), in, as_text_str(&t));
    as_text_free(&t);
    if (rms) { /* Σx²/d, √(Σx²/d+ε) */
        as_text_addf(&t, "%sx%s/d = (", "\xce\xa3", o->ascii ? "^2" : "\xc2\xb2");
        r = as_expand_join(&t, d, "+", item, &it, &w->st);
        as_text_addf(&t, ")/%zu", d);
        equals_number(&t, r, nt->var.v[i], &w->st, o);
        line(w->b, o, AS_MSG_BT_MS, &t);
        as_text_addf(&t, "%s(%sx%s/d+%s) = %s(", root, "\xce\xa3", o->ascii ? "^2" : "\xc2\xb2",
                     "\xce\xb5", root);
    } else { /* μ, x−μ, σ², the divisor */
        const as_view ci = as_view_row(nt->centred.v, d, i), mu = {&nt->mean.v[i], 0, NULL, d};
        it.op = OP_NUM;
        as_text_addf(&t, "\xce\xbc = (");
        r = as_expand_join(&t, d, "+", item, &it, &w->st);
        as_text_addf(&t, ")/%zu", d);
        equals_number(&t, r, nt->mean.v[i], &w->st, o);
        line(w->b, o, AS_MSG_BT_MEAN, &t);
        it = (items){OP_SUB, xi, mu, {0}, NULL, &w->st};
        as_text_addf(&t, "x%s\xce\xbc = ", sym(o, AS_SYM_MINUS));
        r = item_row(&t, &it, d);
        equals_vector(&t, r, &ci, &w->st, o);
        line(w->b, o, AS_MSG_BT_CENTRE, &t);
        it = (items){OP_SQ, ci, ci, {0}, NULL, &w->st};
        as_text_addf(&t, "\xcf\x83\xc2\xb2 = (");
        r = as_expand_join(&t, d, "+", item, &it, &w->st);
        as_text_addf(&t, ")/%zu", annotated ? d - 1 : d);
        equals_number(&t, r, nt->var.v[i], &w->st, o);
        w->b->failed |= t.failed;
        as_block_add(w->b, as_say(o, annotated ? AS_MSG_BT_VAR_ANNOT : AS_MSG_BT_VAR),
                     annotated ? d - 1 : d, as_text_str(&t));
        as_text_free(&t);
        if (annotated)
            as_text_addf(&t, "\xcf\x83+\xce\xb5 = %s(", root);
        else
            as_text_addf(&t, "%s(\xcf\x83\xc2\xb2+\xce\xb5) = %s(", root, root);
    }
    r = as_expand_number(&t, nt->var.v[i], &w->st);
    as_text_addf(&t, annotated && !rms ? ")+%s" : "+%s)", eps);
    equals_number(&t, r, nt->div.v[i], &w->st, o);
    line(w->b, o, rms ? AS_MSG_BT_RMS_DIV : annotated ? AS_MSG_BT_DIV_OUTSIDE : AS_MSG_BT_DIV_INSIDE, &t);
    /* x̂, then γ and β */
    it = (items){OP_DIV, rms ? xi : as_view_row(nt->centred.v, d, i), one, {0}, NULL, &w->st};
    as_text_addf(&t, "x\xcc\x82 = ");
    r = item_row(&t, &it, d);
    {
        const as_view xh = as_view_row(nt->xhat.v, d, i);
        equals_vector(&t, r, &xh, &w->st, o);
        line(w->b, o, AS_MSG_BT_XHAT, &t);
        if (!rms && p->norm == AS_NORM_LAYER && d == 2 && !annotated)
            as_block_add(w->b, "%s", as_say(o, AS_MSG_BLK_WIDTH2));
        if (g == NULL && (be == NULL || rms)) {
            as_block_add(w->b, as_say(o, AS_MSG_BT_NO_AFFINE), out);
            return;
        }
        {
            const double unit = 1.0, zero = 0.0;
            const as_view gv = g ? as_view_row(g->v, d, 0) : (as_view){&unit, 0, NULL, d};
            const as_view bv = rms ? (as_view){NULL, 0, NULL, 0}
                               : be ? as_view_row(be->v, d, 0) : (as_view){&zero, 0, NULL, d};
            const as_view yi = as_view_row(res->v, d, i);
            it = (items){OP_AFFINE, xh, gv, bv, NULL, &w->st};
            row_name(&t, out, i, &w->st);
            as_text_addf(&t, " = ");
            r = item_row(&t, &it, d);
            equals_vector(&t, r, &yi, &w->st, o);
            line(w->b, o, rms ? AS_MSG_BT_AFFINE_RMS : AS_MSG_BT_AFFINE, &t);
        }
    }
}

/* "H1[0] = x₀ + o₀ = [1+0.87, …] ≈ […]": SUM = A + B for row w->i. */
static void walk_residual(bwalk *w, const char *sum, const char *a, const as_matrix *am,
                          const char *b, const as_matrix *bm, const as_matrix *res)
{
    const size_t d = res->cols, i = w->i;
    items it = {OP_ADD, as_view_row(am->v, d, i), as_view_row(bm->v, d, i), {0}, NULL, &w->st};
    const as_view ri = as_view_row(res->v, d, i);
    as_text t = {0};
    int r;

    as_block_gap(w->b);
    row_name(&t, sum, i, &w->st);
    as_text_addf(&t, " = ");
    row_name(&t, a, i, &w->st);
    as_text_addf(&t, " + ");
    row_name(&t, b, i, &w->st);
    as_text_addf(&t, " = ");
    r = item_row(&t, &it, d);
    equals_vector(&t, r, &ri, &w->st, w->o);
    line(w->b, w->o, AS_MSG_BT_RESIDUAL, &t);
}

struct proj_ctx {
    const as_matrix *x, *wm, *bias;
    size_t i;
    const as_expand_style *st;
};

/* Cell j of row i of x @ wm (+ bias): "1×0.5+1×(-0.5)+0.5". */
static int proj_cell(as_text *t, size_t j, void *ctx)
{
    const struct proj_ctx *c = ctx;
    const as_view a = as_view_row(c->x->v, c->x->cols, c->i);
    const as_view b = as_view_column(c->wm->v, c->wm->cols, j, NULL, c->wm->rows);
    int r = as_expand_products(t, &a, &b, "+", c->st);

    if (c->bias != NULL) {
        as_text_addf(t, "+");
        r |= as_expand_factor(t, c->bias->v[j], c->st);
    }
    return r;
}

/* "U[0] = N2[0]Wup + bup = [ … ] ≈ […]" */
static void walk_proj(bwalk *w, as_msg m, const char *out, const char *in, const as_matrix *x,
                      const char *wn, const as_matrix *wm, const char *bn,
                      const as_matrix *bias, const as_matrix *res)
{
    struct proj_ctx c = {x, wm, bias, w->i, &w->st};
    const as_view ri = as_view_row(res->v, res->cols, w->i);
    as_text t = {0};
    int r;

    row_name(&t, out, w->i, &w->st);
    as_text_addf(&t, " = ");
    row_name(&t, in, w->i, &w->st);
    as_text_addf(&t, "%s%s%s = [", wn, bias ? " + " : "", bias ? bn : "");
    r = as_expand_join(&t, wm->cols, ", ", proj_cell, &c, &w->st);
    as_text_addf(&t, "]");
    equals_vector(&t, r, &ri, &w->st, w->o);
    line(w->b, w->o, m, &t);
}

/* The activation's rule, as the walk-through gives it after the activated row. */
static const char *act_rule(const as_problem *p, int ascii)
{
    switch (p->ffn) {
    case AS_FFN_GELU:
        return ascii ? "GELU(u) = u/2*(1 + erf(u/sqrt(2)))" : "GELU(u) = u·Φ(u) = u/2·(1 + erf(u/√2))";
    case AS_FFN_GELU_TANH:
        return ascii ? "GELU_tanh(u) = u/2*(1 + tanh(sqrt(2/pi)*(u + 0.044715u^3)))"
                     : "GELU_tanh(u) = u/2·(1 + tanh(√(2/π)·(u + 0.044715u³)))";
    case AS_FFN_RELU:
        return "ReLU(u) = max(0, u)";
    default:
        return ascii ? "SiLU(u) = u/(1 + e^(-u))" : "SiLU(u) = u/(1 + e^(−u))";
    }
}

/* The FFN for row w->i on table `in`: up, (the gate,) the activation, down. */
static void walk_ffn(bwalk *w, const char *in, const as_matrix *x, const as_block_trace *b)
{
    const as_problem *p = w->p;
    const size_t f = p->d_ff, i = w->i;
    const as_view ui = as_view_row(b->U.v, f, i), fi = as_view_row(b->F.v, f, i);
    as_text t = {0};
    items it = {OP_FN, ui, ui, {0}, as_block_act_name(p), &w->st};
    int r;

    as_block_gap(w->b);
    walk_proj(w, AS_MSG_BT_UP, "U", in, x, "Wup", p->Wup, "bup", p->bup, &b->U);
    if (p->ffn == AS_FFN_SWIGLU) {
        const as_view gi = as_view_row(b->G.v, f, i);
        row_name(&t, "G", i, &w->st);
        as_text_addf(&t, " = SiLU(");
        row_name(&t, in, i, &w->st);
        as_text_addf(&t, "Wgate)");
        equals_vector(&t, 1, &gi, &w->st, w->o);
        line(w->b, w->o, AS_MSG_BT_GATE, &t);
        it = (items){OP_MUL, ui, gi, {0}, NULL, &w->st};
        as_text_addf(&t, "F[%zu] = G[%zu] %s U[%zu] = ", i, i, sym(w->o, AS_SYM_HADAMARD), i);
        r = item_row(&t, &it, f);
        equals_vector(&t, r, &fi, &w->st, w->o);
        line(w->b, w->o, AS_MSG_BT_SWIGLU, &t);
    } else {
        as_text_addf(&t, "F[%zu] = %s(U[%zu]) = ", i, as_block_act_name(p), i);
        r = item_row(&t, &it, f);
        equals_vector(&t, p->ffn != AS_FFN_RELU || r, &fi, &w->st, w->o);
        line(w->b, w->o, AS_MSG_BT_ACT, &t);
    }
    as_block_add(w->b, as_say(w->o, AS_MSG_BT_ACT_RULE), act_rule(p, w->o->ascii));
    walk_proj(w, AS_MSG_BT_DOWN, "D", "F", &b->F, "Wdown", p->Wdown, "bdown", p->bdown, &b->D);
}

void as_trace_block_begin(as_block *out, const as_problem *p, const as_trace *t,
                          const as_render_opts *o, size_t first, size_t last)
{
    bwalk w = {out, p, o, {o->digits, o->ascii}, 0};

    if (t->block == NULL || p->block != AS_BLOCK_PRE)
        return;
    as_block_add(out, "%s", ""); /* after the inputs, written before these lines */
    for (w.i = first; w.i <= last; w.i++) {
        as_block_gap(out);
        as_block_add(out, as_say(o, AS_MSG_BT_TITLE), w.i, p->tokens[w.i]);
        walk_norm(&w, "N1", "X", &p->in->mat[AS_X].m, &t->block->N1, &t->block->norm1, NORM1);
    }
    as_block_gap(out);
    as_block_add(out, "%s", as_say(o, AS_MSG_BT_READS_N1));
}

void as_trace_block_rest(as_block *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o, size_t first, size_t last)
{
    const as_block_trace *b = t->block;
    const as_matrix *X = p->block == AS_BLOCK_PRE ? &p->in->mat[AS_X].m : p->X;
    const int none = p->ffn == AS_FFN_NONE;
    bwalk w = {out, p, o, {o->digits, o->ascii}, 0};

    if (b == NULL)
        return;
    as_block_add(out, "%s", ""); /* after the attention's rows, written before these */
    for (w.i = first; w.i <= last; w.i++) {
        as_block_gap(out);
        as_block_add(out, as_say(o, AS_MSG_BT_TITLE), w.i, p->tokens[w.i]);
        if (p->block == AS_BLOCK_PRE) {
            walk_residual(&w, "H1", "x", X, "o", &t->O, &b->H1);
            if (!none) {
                walk_norm(&w, "N2", "H1", &b->H1, &b->N2, &b->norm2, NORM2);
                walk_ffn(&w, "N2", &b->N2, b);
                walk_residual(&w, "H2", "H1", &b->H1, "D", &b->D, &b->H2);
            }
        } else {
            walk_residual(&w, "R1", "x", X, "o", &t->O, &b->R1);
            walk_norm(&w, "H1", "R1", &b->R1, &b->H1, &b->norm1, NORM1);
            if (!none) {
                walk_ffn(&w, "H1", &b->H1, b);
                walk_residual(&w, "R2", "H1", &b->H1, "D", &b->D, &b->R2);
                walk_norm(&w, "H2", "R2", &b->R2, &b->H2, &b->norm2, NORM2);
            }
        }
        if (p->final_norm)
            walk_norm(&w, "Y", none ? "H1" : "H2", none ? &b->H1 : &b->H2, &b->Y, &b->normf, NORMF);
    }
}
