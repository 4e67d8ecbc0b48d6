/* render_trace.c - `trace`: the chapter's hand calculation, line by line, for any input
 * (SPEC §5). It reads the problem and its trace and never computes the maths: every
 * number printed is a value the trace recorded (attention.c); the written-out sums and
 * the exact forms such as "1/√2" are only the formatting of those values (expand.c).
 *
 * Order, as the chapter walks it: the input and its shape; each projection row by row;
 * then, for each receiving row (and each head), its readable positions and the four
 * steps; then the whole-matrix form and the formula, as `run` prints them. */
#include "attnstep/render.h"
#include "attnstep/expand.h"
#include "attnstep/layers.h"
#include "attnstep/numfmt.h"
#include "attnstep/positions.h"
#include "attnstep/render_head.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQRT_DK_DIGITS 6 /* "√2≈1.414214", as the chapter gives the divisor */

/* The walk-through being written. */
typedef struct walk {
    const as_problem *p;
    const as_trace *t;
    const as_render_opts *o;
    as_expand_style st;
    as_block *b;   /* the lines not yet written */
    FILE *out;     /* where they go, a part at a time (after the inputs, each row, ...) */
    int written;   /* nonzero once any line was written */
    int blank;     /* whether the last line written was blank */
    int failed;    /* memory ran out, or out refuses to be written (a reader that went) */
    size_t *idx;   /* [m] the positions the current row may read */
    size_t nread;  /* how many */
    as_row_trace r; /* the current row of the current head, as the run made it */
    as_trace_line_fn cell; /* as_trace_lines_*(): told which cells each line makes (out NULL) */
    void *cell_ctx;
    size_t hd, row; /* the head and the receiving row being walked */
} walk;

static const char *sym(const walk *w, as_sym s)
{
    return as_sym_text(w->o->ascii, s);
}

/* "=" between a value and its exact written-out form; "≈" when a shown value is rounded
 * (the display rule of SPEC §4). */
static const char *rel(const walk *w, int rounded)
{
    return rounded ? sym(w, AS_SYM_APPROX) : "=";
}

/* A blank line between groups (never two, never first). */
static void gap(walk *w)
{
    const int last_blank = w->b->count > 0 ? w->b->line[w->b->count - 1][0] == '\0' : w->blank;

    if ((w->b->count > 0 || w->written) && !last_blank)
        as_block_add(w->b, "%s", "");
}

/* Writes the lines so far and forgets them: memory holds one part of the walk at a
 * time, and `| head` sees the first lines at once. Returns nonzero once anything failed
 * (then the walk stops: nobody reads the rest). */
static int flush(walk *w)
{
    if (w->b->count > 0) {
        w->blank = w->b->line[w->b->count - 1][0] == '\0';
        w->written = 1;
        if (w->out != NULL)
            as_block_print(w->out, w->b);
    }
    w->failed |= w->b->failed || (w->out != NULL && ferror(w->out));
    as_block_free(w->b);
    return w->failed;
}

/* Notes a text that ran out of memory and frees it. */
static void done(walk *w, as_text *t)
{
    w->b->failed |= t->failed;
    as_text_free(t);
}

/* Appends " = res" or " ≈ res" (rounded: whether any shown number was rounded) and
 * frees res. */
static void equals(walk *w, as_text *t, int rounded, as_text *res)
{
    as_text_addf(t, " %s %s", rel(w, rounded), as_text_str(res));
    done(w, res);
}

/* Adds t as one line and frees it. */
static void emit(walk *w, as_text *t)
{
    as_block_add(w->b, "%s", as_text_str(t));
    done(w, t);
}

/* Tells the cell sink, when there is one, that the line just added makes cell (row, col)
 * of table t of the current head (col -1: every cell of the row). */
static void note(walk *w, as_table t, size_t row, long col)
{
    if (w->cell != NULL && w->b->count > 0)
        w->cell(w->cell_ctx, t, w->hd, row, col, w->b->line[w->b->count - 1]);
}

/* ---- views into the trace's tables ---- */

/* Row i of m, every column. */
static as_view row_of(const as_matrix *m, size_t i)
{
    const as_view v = {&AS_AT(*m, i, 0), 1, NULL, m->cols};
    return v;
}

/* The current row of one of the head's tables (a row of w->r), at its readable
 * positions. */
static as_view readable_of(const walk *w, const double *row)
{
    const as_view v = {row, 1, w->idx, w->nread};
    return v;
}

/* Column j of m at rows idx (or all rows when idx is NULL). */
static as_view column_of(const as_matrix *m, size_t j, const size_t *idx, size_t count)
{
    const as_view v = {&AS_AT(*m, 0, j), m->cols, idx, count};
    return v;
}

/* Appends "name₁=[1,0]". */
static void named_row(as_text *t, const char *name, size_t i, const as_matrix *m,
                      const as_expand_style *st)
{
    const as_view v = row_of(m, i);

    as_expand_sub(t, name, i, st);
    as_text_addf(t, "=");
    as_expand_vector(t, &v, st);
}

/* ---- tables as `run` prints them ---- */

/* The tables in only (and the formula when asked), as `run` writes them (Q, K and V
 * side by side, when asked, as the chapter's whole-matrix part prints them), written
 * straight to the output after the lines so far. */
static int run_tables(walk *w, const as_trace *t, unsigned only, int formula, int qkv_beside)
{
    as_render_opts o = *w->o;

    if (flush(w) != 0)
        return -1;
    if (w->out == NULL)
        return 0; /* the cell sink: the tables make no lines of their own */
    o.only = only;
    o.formula = formula;
    o.qkv_beside = qkv_beside;
    w->written = 1;
    w->blank = 0; /* as_render_text() ends with a table or the formula, never a blank */
    return as_render_text(w->out, w->p, t, &o);
}

/* ids: the first step (SPEC §16, F05), row by row:
 * "“40”：取第40行，x₀ = E[40] + P[0] = [..] + [..] ≈ [..]" (without P: "x₀ = E[40] = [..]"). */
static void embedding(walk *w)
{
    const as_input *in = w->p->in;
    const as_embedding *emb = &in->emb;
    const int pos = emb->context > 0;
    /* the sum made from the ids: X₀ when layers before the walked one read it */
    const as_matrix *x = w->t->layers != NULL ? &w->t->layers->X0 : &in->mat[AS_X].m;
    size_t i;

    if (emb->ids == NULL)
        return;
    as_block_add(w->b, "%s", as_say(w->o, pos ? AS_MSG_EMB_TR_INTRO_P : AS_MSG_EMB_TR_INTRO));
    for (i = 0; i < emb->count; i++) {
        const as_view e = row_of(&in->mat[AS_E].m, i), xv = row_of(x, i);
        as_text t = {0}, res = {0};
        int rounded;

        as_expand_sub(&t, "x", i, &w->st);
        as_text_addf(&t, " = E[%zu]", emb->ids[i]);
        if (pos)
            as_text_addf(&t, " + P[%zu]", i);
        as_text_addf(&t, " = ");
        rounded = as_expand_vector(&t, &e, &w->st);
        if (pos) {
            const as_view pv = row_of(&in->mat[AS_P].m, i);
            as_text_addf(&t, " + ");
            rounded |= as_expand_vector(&t, &pv, &w->st);
            equals(w, &t, rounded | as_expand_vector(&res, &xv, &w->st), &res);
        }
        as_block_add(w->b, as_say(w->o, AS_MSG_EMB_TR_ROW), w->p->tokens[i], emb->ids[i],
                     as_text_str(&t));
        done(w, &t);
    }
    gap(w);
}

/* The title, X (and Xkv) with their shapes, and the W tables. */
static int inputs(walk *w)
{
    return run_tables(w, w->t, (1u << AS_T_X) | (1u << AS_T_W), 0, 0);
}

/* ---- the projections, row by row ---- */

/* One projection: out = in @ W (+ b), as "q₀ = x₀Wq + bq". */
typedef struct projection {
    const char *out, *in, *w, *b;    /* row names and table names */
    const as_matrix *x, *wm, *bias;  /* the input rows, the table, the bias or NULL */
    const as_matrix *res;            /* the result the trace recorded */
    as_table kind;                   /* the table it makes */
} projection;

struct proj_cell_ctx {
    const projection *pr;
    size_t i;
    const as_expand_style *st;
};

/* Cell j of row i: "1×0.5+1×(-0.5)", and "+0.1" when there is a bias. */
static int proj_cell(as_text *t, size_t j, void *ctx)
{
    const struct proj_cell_ctx *c = ctx;
    const as_view a = row_of(c->pr->x, c->i);
    const as_view b = column_of(c->pr->wm, j, NULL, c->pr->wm->rows);
    int rounded = as_expand_products(t, &a, &b, "+", c->st);

    if (c->pr->bias != NULL) {
        as_text_addf(t, "+");
        rounded |= as_expand_factor(t, AS_AT(*c->pr->bias, 0, j), c->st);
    }
    return rounded;
}

/* "q₀ = x₀Wq = [1×0.5+1×(-0.5), 1×0.5+1×0.5] = [0,1]" */
static void proj_line(walk *w, const projection *pr, size_t i)
{
    struct proj_cell_ctx c = {pr, i, &w->st};
    const as_view row = row_of(pr->res, i);
    as_text t = {0}, res = {0};
    int rounded;

    as_expand_sub(&t, pr->out, i, &w->st);
    as_text_addf(&t, " = ");
    as_expand_sub(&t, pr->in, i, &w->st);
    as_text_addf(&t, "%s%s%s = [", pr->w, pr->bias ? " + " : "", pr->bias ? pr->b : "");
    rounded = as_expand_join(&t, pr->wm->cols, ", ", proj_cell, &c, &w->st);
    as_text_addf(&t, "]");
    rounded |= as_expand_vector(&res, &row, &w->st);
    equals(w, &t, rounded, &res);
    emit(w, &t);
    note(w, pr->kind, i, -1);
}

/* "取“我”的输入x₀=[1,1]：" */
static void input_line(walk *w, as_msg m, const char *token, const char *name,
                       const as_matrix *x, size_t i)
{
    as_text t = {0};

    named_row(&t, name, i, x, &w->st);
    as_block_add(w->b, as_say(w->o, m), token, as_text_str(&t));
    note(w, AS_T_X, i, -1);
    done(w, &t);
}

/* positions: sinusoidal: "其中PE₁ = [sin(1/10000^(0/2)), cos(1/10000^(0/2))] ≈ [..]" and
 * "加上位置编码：xp₁ = x₁ + PE₁ = [1,-1] + [..] ≈ [..]". */
struct pe_ctx {
    size_t pos, d;
};

static int pe_item(as_text *t, size_t c, void *ctx)
{
    const struct pe_ctx *e = ctx;

    as_text_addf(t, "%s(%zu/10000^(%zu/%zu))", c % 2 == 0 ? "sin" : "cos", e->pos, c - c % 2, e->d);
    return 0;
}

static void encoding_lines(walk *w, const char *x, const as_matrix *xm, const as_matrix *pe,
                           const as_matrix *sum, size_t i)
{
    const as_view xv = row_of(xm, i), pv = row_of(pe, i), sv = row_of(sum, i);
    struct pe_ctx e = {w->p->offset + i, pe->cols};
    as_text t = {0}, res = {0};
    char xp[8];
    int rounded;

    as_expand_sub(&t, "PE", i, &w->st);
    as_text_addf(&t, " = [");
    as_expand_join(&t, pe->cols, ", ", pe_item, &e, &w->st);
    as_text_addf(&t, "]");
    equals(w, &t, as_expand_vector(&res, &pv, &w->st), &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_PE_ROW), as_text_str(&t));
    done(w, &t);
    snprintf(xp, sizeof xp, "%sp", x);
    as_expand_sub(&t, xp, i, &w->st);
    as_text_addf(&t, " = ");
    as_expand_sub(&t, x, i, &w->st);
    as_text_addf(&t, " + ");
    as_expand_sub(&t, "PE", i, &w->st);
    as_text_addf(&t, " = ");
    rounded = as_expand_vector(&t, &xv, &w->st);
    as_text_addf(&t, " + ");
    rounded |= as_expand_vector(&t, &pv, &w->st);
    equals(w, &t, rounded | as_expand_vector(&res, &sv, &w->st), &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_PE), as_text_str(&t));
    done(w, &t);
}

static void projections(walk *w)
{
    const as_problem *p = w->p;
    const as_trace *tr = w->t;
    const int pe = tr->PE.v != NULL;
    const char *kv = p->cross ? "xkv" : "x", *kvp = p->cross ? "xkvp" : "xp";
    const as_matrix *x = pe ? &tr->Xp : p->X, *xkv = pe ? (p->cross ? &tr->Xkvp : &tr->Xp) : p->Xkv;
    const projection q = {"q", pe ? "xp" : "x", "Wq", "bq", x, p->Wq, p->bq, &tr->Q, AS_T_Q};
    const projection k = {"k", pe ? kvp : kv, "Wk", "bk", xkv, p->Wk, p->bk, &tr->K, AS_T_K};
    const projection v = {"v", pe ? kvp : kv, "Wv", "bv", xkv, p->Wv, p->bv, &tr->V, AS_T_V};
    size_t i;

    gap(w);
    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_PROJ_INTRO));
    for (i = 0; i < p->n; i++) {
        gap(w);
        input_line(w, AS_MSG_TR_INPUT, p->tokens[i], "x", p->X, i);
        if (pe)
            encoding_lines(w, "x", p->X, &tr->PE, &tr->Xp, i);
        proj_line(w, &q, i);
        if (!p->cross) {
            proj_line(w, &k, i);
            proj_line(w, &v, i);
        }
    }
    for (i = 0; p->cross && i < p->m; i++) {
        gap(w);
        input_line(w, AS_MSG_TR_INPUT_KV, p->kv_tokens[i], kv, p->Xkv, i);
        if (pe)
            encoding_lines(w, kv, p->Xkv, &tr->PEkv, &tr->Xkvp, i);
        proj_line(w, &k, i);
        proj_line(w, &v, i);
    }
}

/* ---- one receiving row: who it reads ---- */

static void find_readable(walk *w)
{
    size_t j;

    w->nread = 0;
    for (j = 0; j < w->p->m; j++)
        if (w->r.M[j] != -INFINITY)
            w->idx[w->nread++] = j;
}

/* The receiver, then each position: readable with its k and v, or why not. */
static void positions(walk *w, const as_head_trace *h, size_t i)
{
    const as_problem *p = w->p;
    as_text q = {0}, k = {0}, v = {0};
    size_t j;

    named_row(&q, "q", i, &h->Q, &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_RECEIVER), p->tokens[i], as_text_str(&q));
    for (j = 0; j < p->m; j++) {
        if (w->r.M[j] == -INFINITY && p->mask == AS_MASK_WINDOW && j < i) {
            as_block_add(w->b, as_say(w->o, AS_MSG_TR_OUTSIDE), j, p->kv_tokens[j], p->window);
        } else if (w->r.M[j] == -INFINITY &&
                   (p->mask == AS_MASK_CAUSAL || p->mask == AS_MASK_WINDOW)) {
            as_block_add(w->b, as_say(w->o, AS_MSG_TR_FUTURE), j, p->kv_tokens[j]);
        } else if (w->r.M[j] == -INFINITY) {
            as_block_add(w->b, as_say(w->o, AS_MSG_TR_MASKED), j, p->kv_tokens[j], i, j,
                         sym(w, AS_SYM_NEG_INF));
        } else {
            named_row(&k, "k", j, &h->K, &w->st);
            named_row(&v, "v", j, &h->V, &w->st);
            as_block_add(w->b, as_say(w->o, AS_MSG_TR_READABLE), j, p->kv_tokens[j], as_text_str(&k),
                         as_text_str(&v));
            done(w, &k);
            done(w, &v);
        }
        note(w, AS_T_M, i, (long)j);
    }
    done(w, &q);
}

/* ---- positions: rope: the receiver and the keys it reads, turned ---- */

/* "[1×0.5403023059−0×0.8414709848, 1×0.8414709848+0×0.5403023059]": pair (a, b) of row
 * x turned by (c, s), as the two numbers it gives. */
static int turned_pair(as_text *t, double a, double b, double c, double s, const as_expand_style *st)
{
    int rounded = as_expand_factor(t, a, st);

    as_text_addf(t, "%s", st->ascii ? "x" : "×");
    rounded |= as_expand_factor(t, c, st);
    as_text_addf(t, "%s", st->ascii ? "-" : "−");
    rounded |= as_expand_factor(t, b, st);
    as_text_addf(t, "%s", st->ascii ? "x" : "×");
    rounded |= as_expand_factor(t, s, st);
    as_text_addf(t, ", ");
    rounded |= as_expand_factor(t, a, st);
    as_text_addf(t, "%s", st->ascii ? "x" : "×");
    rounded |= as_expand_factor(t, s, st);
    as_text_addf(t, "+");
    rounded |= as_expand_factor(t, b, st);
    as_text_addf(t, "%s", st->ascii ? "x" : "×");
    return rounded | as_expand_factor(t, c, st);
}

/* Each pair of q_i: its angle p·θ, cos and sin, and the two numbers it turns into. */
static void turn_pairs(walk *w, const as_head_trace *h, size_t i)
{
    const as_trace *tr = w->t;
    const size_t pairs = w->p->d_k / 2, shown = pairs > AS_EXPAND_MAX ? AS_EXPAND_HEAD : pairs;
    as_text name = {0}, ang = {0}, c = {0}, s = {0}, t = {0}, res = {0};
    size_t k, a, b;
    int rounded;

    as_expand_sub(&name, "q", i, &w->st);
    for (k = 0; k < shown; k++) {
        const double cs = AS_AT(tr->rope_cos, i, k), sn = AS_AT(tr->rope_sin, i, k);
        as_rope_pair(&a, &b, k, w->p->d_k, w->p->rope);
        as_text_addf(&ang, "%zu%s", w->p->offset + i, w->o->ascii ? "x" : "×");
        rounded = as_expand_number(&ang, AS_AT(tr->rope_theta, 0, k), &w->st);
        as_text_addf(&ang, " %s ", rel(w, rounded));
        as_expand_number(&ang, AS_AT(tr->rope_angle, i, k), &w->st);
        as_text_addf(&c, "%s ", rel(w, as_expand_number(&res, cs, &w->st)));
        as_text_addf(&c, "%s", as_text_str(&res));
        done(w, &res);
        as_text_addf(&s, "%s ", rel(w, as_expand_number(&res, sn, &w->st)));
        as_text_addf(&s, "%s", as_text_str(&res));
        done(w, &res);
        as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_PAIR), as_text_str(&name), k, a, b,
                     as_text_str(&ang), as_text_str(&c), as_text_str(&s));
        as_text_addf(&t, "[");
        rounded = as_expand_factor(&t, AS_AT(h->Q, i, a), &w->st);
        as_text_addf(&t, ", ");
        rounded |= as_expand_factor(&t, AS_AT(h->Q, i, b), &w->st);
        as_text_addf(&t, "] %s [", w->o->ascii ? "->" : "→");
        rounded |= turned_pair(&t, AS_AT(h->Q, i, a), AS_AT(h->Q, i, b), cs, sn, &w->st);
        as_text_addf(&t, "]");
        as_text_addf(&res, "[");
        rounded |= as_expand_number(&res, AS_AT(h->Qr, i, a), &w->st);
        as_text_addf(&res, ", ");
        rounded |= as_expand_number(&res, AS_AT(h->Qr, i, b), &w->st);
        as_text_addf(&res, "]");
        equals(w, &t, rounded, &res);
        as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_TURNED), as_text_str(&t));
        done(w, &t);
        done(w, &ang);
        done(w, &c);
        done(w, &s);
    }
    if (shown < pairs)
        as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_TURNED), sym(w, AS_SYM_ELLIPSIS));
    done(w, &name);
}

/* The turning of the receiver q_i, pair by pair, then each readable key, turned. */
static void turning(walk *w, const as_head_trace *h, size_t i)
{
    as_text k = {0}, kr = {0}, q = {0}, name = {0};
    char angle[64], theta[64];
    size_t n;

    if (h->Qr.v == NULL)
        return;
    as_expand_sub(&name, "q", i, &w->st);
    as_rope_formula(angle, theta, sizeof angle, w->p->rope_base, w->p->d_k, w->o->ascii);
    as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_ROPE), angle, theta);
    turn_pairs(w, h, i);
    named_row(&q, "qr", i, &h->Qr, &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_KEY), as_text_str(&name), w->p->offset + i,
                 as_text_str(&q));
    done(w, &q);
    done(w, &name);
    for (n = 0; n < w->nread; n++) {
        const size_t j = w->idx[n];
        as_expand_sub(&k, "k", j, &w->st);
        named_row(&kr, "kr", j, &h->Kr, &w->st);
        as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_KEY), as_text_str(&k), w->p->offset + j,
                     as_text_str(&kr));
        done(w, &k);
        done(w, &kr);
    }
}

/* ---- step 1: the raw scores ---- */

/* "q₁·k₀ = 1×1+0×0 = 1" */
static void dot_line(walk *w, const as_head_trace *h, size_t i, size_t j)
{
    const int rope = h->Qr.v != NULL; /* positions: rope: the turned rows meet */
    const as_view qv = row_of(rope ? &h->Qr : &h->Q, i), kv = row_of(rope ? &h->Kr : &h->K, j);
    as_text t = {0}, res = {0};
    int rounded;

    as_expand_sub(&t, rope ? "qr" : "q", i, &w->st);
    as_text_addf(&t, "%s", sym(w, AS_SYM_DOT));
    as_expand_sub(&t, rope ? "kr" : "k", j, &w->st);
    as_text_addf(&t, " = ");
    rounded = as_expand_products(&t, &qv, &kv, "+", &w->st);
    rounded |= as_expand_number(&res, w->r.QKT[j], &w->st);
    equals(w, &t, rounded, &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_RAW_ONE), w->p->kv_tokens[j], as_text_str(&t));
    note(w, AS_T_QKT, i, (long)j);
    done(w, &t);
}

static void step1(walk *w, const as_head_trace *h, size_t i)
{
    const as_view raw = readable_of(w, w->r.QKT);
    as_text scores = {0}, order = {0};
    size_t k;

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_STEP1));
    for (k = 0; k < w->nread; k++)
        dot_line(w, h, i, w->idx[k]);
    as_expand_vector(&scores, &raw, &w->st);
    as_expand_words(&order, w->p->kv_tokens, w->idx, w->nread, &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_RAW_ALL), as_text_str(&scores), as_text_str(&order));
    done(w, &scores);
    done(w, &order);
}

/* ---- step 2: the scaling (and the finite cells of a custom M) ---- */

struct raw_ctx {
    const walk *w;
    const as_view *raw;
};

/* One exact scaled score: "1/√2", "3/2". */
static int exact_item(as_text *t, size_t k, void *ctx)
{
    const struct raw_ctx *c = ctx;

    return as_expand_over_sqrt(t, as_view_at(c->raw, k), c->w->p->d_k, &c->w->st);
}

/* "[1/√2, 0/√2]" (dividing by √d_k), or "[1×0.5, 0×0.5]" for a scale the input sets.
 * Returns 1 when a shown number was rounded. */
static int exact_scaled(const walk *w, as_text *t, const as_view *raw)
{
    const as_view scale = {&w->p->scale, 0, NULL, raw->count};
    struct raw_ctx c = {w, raw};
    int rounded;

    as_text_addf(t, "[");
    rounded = w->p->scale_auto ? as_expand_join(t, raw->count, ", ", exact_item, &c, &w->st)
                               : as_expand_products(t, raw, &scale, ", ", &w->st);
    as_text_addf(t, "]");
    return rounded;
}

/* Nonzero when a and b differ in spaces only ("[2, 0]" and "[2,0]"). */
static int same_but_spaces(const char *a, const char *b)
{
    for (;; a++, b++) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if (*a != *b)
            return 0;
        if (*a == '\0')
            return 1;
    }
}

/* "√2≈1.414214": the divisor itself, to 6 places as the chapter gives it (fewer when
 * --digits asks for fewer), "√4=2" when it is whole. */
static void sqrt_dk(const walk *w, as_text *t)
{
    const int digits = w->st.digits < SQRT_DK_DIGITS ? w->st.digits : SQRT_DK_DIGITS;
    char num[AS_NUM_BUF];
    const int rounded = as_fmt_display(num, sizeof num, w->p->sqrt_dk, digits, w->st.ascii);

    as_text_addf(t, w->o->ascii ? "%s(%zu)%s%s" : "%s%zu%s%s", sym(w, AS_SYM_SQRT), w->p->d_k,
                 rel(w, rounded), num);
}

static void step2_heading(walk *w)
{
    as_text t = {0}, root = {0};

    if (w->p->scale_auto) {
        as_text_addf(&t, w->o->ascii ? "%s(d_k)" : "%sd_k", sym(w, AS_SYM_SQRT));
        sqrt_dk(w, &root);
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_STEP2), as_text_str(&t), w->p->d_k,
                     as_text_str(&root));
        done(w, &root);
    } else {
        as_expand_number(&t, w->p->scale, &w->st);
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_STEP2_SCALE), as_text_str(&t));
    }
    done(w, &t);
}

struct mask_ctx {
    const walk *w;
};

/* One readable cell of S: "0.7071067812+(-1)". */
static int mask_item(as_text *t, size_t k, void *ctx)
{
    const struct mask_ctx *c = ctx;
    const size_t j = c->w->idx[k];
    const int rounded = as_expand_number(t, c->w->r.scaled[j], &c->w->st);

    as_text_addf(t, "+");
    return rounded | as_expand_factor(t, c->w->r.M[j], &c->w->st);
}

/* A custom M may add finite numbers to readable cells: show that sum when it does. */
static void add_mask(walk *w)
{
    const as_view s = readable_of(w, w->r.S);
    struct mask_ctx c = {w};
    as_text t = {0}, res = {0};
    size_t k = 0;
    int rounded;

    while (k < w->nread && w->r.M[w->idx[k]] == 0)
        k++;
    if (k == w->nread)
        return; /* M adds nothing to this row's readable cells */
    as_text_addf(&t, "[");
    rounded = as_expand_join(&t, w->nread, ", ", mask_item, &c, &w->st);
    as_text_addf(&t, "]");
    rounded |= as_expand_vector(&res, &s, &w->st);
    equals(w, &t, rounded, &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_ADD_M), as_text_str(&t));
    note(w, AS_T_S, w->row, -1);
    done(w, &t);
}

/* positions: alibi: one readable cell, "0.7071067812+(-0.00390625)" (and + M when the
 * mask adds a finite number there). */
static int alibi_item(as_text *t, size_t k, void *ctx)
{
    const struct mask_ctx *c = ctx;
    const size_t j = c->w->idx[k];
    const double m = c->w->r.M[j];
    int rounded = as_expand_number(t, c->w->r.scaled[j], &c->w->st);

    as_text_addf(t, "+");
    rounded |= as_expand_factor(t, c->w->r.B[j], &c->w->st);
    if (m != 0) {
        as_text_addf(t, "+");
        rounded |= as_expand_factor(t, m, &c->w->st);
    }
    return rounded;
}

/* The ALiBi bias added to the row's readable scaled scores. */
static void add_alibi(walk *w, const as_head_trace *h, size_t i)
{
    const as_view s = readable_of(w, w->r.S);
    struct mask_ctx c = {w};
    as_text t = {0}, res = {0}, slope = {0};
    char rule[32];
    int rounded;

    as_text_addf(&t, "[");
    rounded = as_expand_join(&t, w->nread, ", ", alibi_item, &c, &w->st);
    as_text_addf(&t, "]");
    rounded |= as_expand_vector(&res, &s, &w->st);
    equals(w, &t, rounded, &res);
    as_expand_number(&slope, h->slope, &w->st);
    as_alibi_formula(rule, sizeof rule, (long)i, w->o->ascii);
    as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_ALIBI), as_text_str(&slope), rule, as_text_str(&t));
    note(w, AS_T_S, i, -1);
    done(w, &slope);
    done(w, &t);
}

static void step2(walk *w, const as_head_trace *h, size_t i)
{
    const as_view raw = readable_of(w, w->r.QKT), scaled = readable_of(w, w->r.scaled);
    as_text exact = {0}, dec = {0};
    int exact_rounded, dec_rounded;

    step2_heading(w);
    exact_rounded = exact_scaled(w, &exact, &raw);
    dec_rounded = as_expand_vector(&dec, &scaled, &w->st);
    /* the written-out division (or product) where it says more than the decimals do */
    if (same_but_spaces(as_text_str(&exact), as_text_str(&dec))) {
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_SCALED), as_text_str(&dec));
        done(w, &dec);
    } else {
        equals(w, &exact, exact_rounded | dec_rounded, &dec);
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_SCALED), as_text_str(&exact));
    }
    note(w, AS_T_S, i, -1);
    done(w, &exact);
    if (w->r.B != NULL)
        add_alibi(w, h, i);
    else
        add_mask(w);
}

/* ---- step 3: the softmax sub-steps ---- */

static const as_msg softmax_label[] = {AS_MSG_TR_SHIFT, AS_MSG_TR_EXP, AS_MSG_TR_SUM, AS_MSG_TR_DIVIDE};

/* Columns before the values of step 3: the widest label and a space, so that the values
 * line up as the chapter prints them. */
static size_t softmax_indent(const walk *w)
{
    size_t k, width = 0;

    for (k = 0; k < sizeof softmax_label / sizeof softmax_label[0]; k++)
        if (as_display_width(as_say(w->o, softmax_label[k])) > width)
            width = as_display_width(as_say(w->o, softmax_label[k]));
    return width + 1;
}

/* Starts t with the label of sub-step k, padded to indent columns. */
static void softmax_line(const walk *w, as_text *t, size_t k, size_t indent)
{
    const char *label = as_say(w->o, softmax_label[k]);

    as_text_addf(t, "%s%*s", label, (int)(indent - as_display_width(label)), "");
}

/* "来自“我”的份额   来自“爱”的份额" under the shares, from the bracket on. */
static void share_captions(walk *w, size_t indent)
{
    as_text t = {0};
    size_t k;

    if (as_expand_elides(w->nread))
        return; /* the order was said in step 1 */
    as_text_addf(&t, "%*s", (int)indent + 1, "");
    for (k = 0; k < w->nread; k++) {
        if (k > 0)
            as_text_addf(&t, "   ");
        as_text_addf(&t, as_say(w->o, AS_MSG_TR_SHARE_FROM), w->p->kv_tokens[w->idx[k]]);
    }
    emit(w, &t);
}

static void step3(walk *w)
{
    const as_view shifted = readable_of(w, w->r.shifted), exps = readable_of(w, w->r.exps);
    const as_view a = readable_of(w, w->r.A);
    const size_t indent = softmax_indent(w);
    as_text t = {0}, max = {0};

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_STEP3));
    softmax_line(w, &t, 0, indent);
    as_expand_vector(&t, &shifted, &w->st);
    as_expand_number(&max, w->r.row_max, &w->st);
    as_text_addf(&t, as_say(w->o, AS_MSG_TR_MAX_IS), as_text_str(&max));
    done(w, &max);
    emit(w, &t);
    note(w, AS_T_A, w->row, -1);
    softmax_line(w, &t, 1, indent);
    as_expand_vector(&t, &exps, &w->st);
    emit(w, &t);
    note(w, AS_T_A, w->row, -1);
    softmax_line(w, &t, 2, indent);
    as_expand_number(&t, w->r.sum, &w->st);
    emit(w, &t);
    note(w, AS_T_A, w->row, -1);
    softmax_line(w, &t, 3, indent);
    as_expand_vector(&t, &a, &w->st);
    emit(w, &t);
    note(w, AS_T_A, w->row, -1);
    share_captions(w, indent);
}

/* ---- step 4: mixing the Values ---- */

/* Nonzero when the one head's output is the layer's output (one head, no Wo). */
static int is_final_output(const as_problem *p)
{
    return p->heads == 1 && p->Wo == NULL;
}

/* "输出第0格 = 0.6697615493×10 + 0.3302384507×0 ≈ 6.6976154933" */
static void out_cell(walk *w, const as_head_trace *h, size_t i, size_t j)
{
    const as_view a = readable_of(w, w->r.A), v = column_of(&h->V, j, w->idx, w->nread);
    as_text t = {0}, res = {0};
    int rounded = as_expand_products(&t, &a, &v, " + ", &w->st);

    rounded |= as_expand_number(&res, AS_AT(h->O, i, j), &w->st);
    equals(w, &t, rounded, &res);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_OUT_CELL), j, as_text_str(&t));
    note(w, is_final_output(w->p) ? AS_T_O : AS_T_C, i, (long)j);
    done(w, &t);
}

/* "o₁ ≈ [6.6976154933, 6.6047690135]": row i of m, named. */
static void named_result(walk *w, as_text *t, const char *name, size_t i, const as_matrix *m)
{
    const as_view row = row_of(m, i);

    as_expand_named_row(t, name, i, &row, &w->st);
}

/* "“爱”位置的注意力输出 o₁ ≈ [6.6976154933, 6.6047690135]" */
static void out_row(walk *w, size_t i, const as_matrix *o)
{
    as_text t = {0};

    named_result(w, &t, "o", i, o);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_OUT_ROW), w->p->tokens[i], as_text_str(&t));
    done(w, &t);
}

static void step4(walk *w, const as_head_trace *h, size_t i, size_t hd)
{
    const as_view row = row_of(&h->O, i);
    as_text t = {0}, res = {0};
    size_t j;

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_STEP4));
    for (j = 0; j < h->O.cols; j++)
        out_cell(w, h, i, j);
    if (is_final_output(w->p)) {
        out_row(w, i, &h->O);
        return;
    }
    /* one head of several, or one before Wo: its row is not yet the layer's output */
    as_text_addf(&t, "%s ", rel(w, as_expand_vector(&res, &row, &w->st)));
    as_text_addf(&t, "%s", as_text_str(&res));
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_HEAD_OUT), hd, w->p->tokens[i], as_text_str(&t));
    done(w, &res);
    done(w, &t);
}

/* The heads side by side, the output projection when there is one, the output row. */
static void closing(walk *w, size_t i)
{
    const as_problem *p = w->p;
    const projection o = {"o", "c", "Wo", "bo", &w->t->C, p->Wo, p->bo, &w->t->O, AS_T_O};

    as_text t = {0};

    gap(w);
    if (p->heads > 1) {
        named_result(w, &t, "c", i, &w->t->C);
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_CONCAT_ROW), as_text_str(&t));
        done(w, &t);
    }
    if (p->Wo != NULL) {
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_WO));
        w->hd = 0; /* the layer's O is no head's */
        proj_line(w, &o, i);
    }
    out_row(w, i, &w->t->O);
}

/* ---- the walk ---- */

/* "── 第1个头：q、k取第2至3列，v取第2至3列 ──", naming the shared K/V group with
 * kv_heads (SPEC §11). */
static void head_line(walk *w, size_t hd)
{
    const as_problem *p = w->p;
    const size_t g = as_kv_head(p, hd);

    gap(w);
    if (p->kv_heads == p->heads)
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_HEAD), hd, hd * p->d_k, (hd + 1) * p->d_k - 1,
                     hd * p->d_v, (hd + 1) * p->d_v - 1);
    else
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_HEAD_GQA), hd, hd * p->d_k, (hd + 1) * p->d_k - 1,
                     g, g * p->d_k, (g + 1) * p->d_k - 1, g * p->d_v, (g + 1) * p->d_v - 1);
}

/* The steps of one head for row i: all four (s 0), or only step s. */
static void steps(walk *w, const as_head_trace *h, size_t i, size_t hd, int s)
{
    if (s == 0 || s == 1) {
        turning(w, h, i);
        gap(w);
        step1(w, h, i);
    }
    if (s == 0)
        gap(w);
    if (s == 0 || s == 2)
        step2(w, h, i);
    if (s == 0)
        gap(w);
    if (s == 0 || s == 3)
        step3(w);
    if (s == 0)
        gap(w);
    if (s == 0 || s == 4)
        step4(w, h, i, hd);
}

/* The receiving row i: who it reads, then the four steps (or only step s, trace --step),
 * head by head. */
static void walk_row(walk *w, size_t i, int s)
{
    const as_problem *p = w->p;
    size_t hd;

    gap(w);
    w->row = i;
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_ROW_TITLE), p->tokens[i], i);
    for (hd = 0; hd < w->t->heads; hd++) {
        const as_head_trace *h = &w->t->head[hd];
        if (as_trace_row(&w->r, w->t, p, hd, i) != 0) {
            w->b->failed = 1;
            return;
        }
        if (hd == 0)
            find_readable(w); /* the mask is the same for every head */
        w->hd = hd;
        if (w->t->heads > 1)
            head_line(w, hd);
        positions(w, h, i);
        gap(w);
        steps(w, h, i, hd, s);
    }
    if (s == 0 && !is_final_output(p))
        closing(w, i);
}

/* The tables step s (1 to 4) starts from and makes: Q, K → QKᵀ; QKᵀ, M → S; S → A;
 * A, V → O (with what positions add, and C with several heads). */
unsigned as_trace_step_tables(int s)
{
    static const unsigned t[5] = {
        0,
        (1u << AS_T_Q) | (1u << AS_T_K) | (1u << AS_T_QR) | (1u << AS_T_KR) | (1u << AS_T_QKT),
        (1u << AS_T_QKT) | (1u << AS_T_B) | (1u << AS_T_M) | (1u << AS_T_S),
        (1u << AS_T_S) | (1u << AS_T_A),
        (1u << AS_T_A) | (1u << AS_T_V) | (1u << AS_T_O) | (1u << AS_T_C),
    };
    return t[s >= 1 && s <= 4 ? s : 0];
}

/* The reading rule, once before the rows. */
static void rule(walk *w)
{
    gap(w);
    if (w->p->mask == AS_MASK_CAUSAL)
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_RULE_CAUSAL));
    else if (w->p->mask == AS_MASK_WINDOW)
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_RULE_WINDOW), w->p->window, w->p->window - 1);
    else if (w->p->mask == AS_MASK_NONE)
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_RULE_NONE));
    else
        as_block_add(w->b, as_say(w->o, AS_MSG_TR_RULE_CUSTOM), sym(w, AS_SYM_NEG_INF));
    if (w->p->positions == AS_POSITIONS_ROPE) {
        char qkt[16];
        snprintf(qkt, sizeof qkt, "QK%s", sym(w, AS_SYM_T));
        as_block_add(w->b, as_say(w->o, AS_MSG_POS_TR_RELATIVE), qkt);
    }
}

/* The note that long sums and lists are elided, when any of them will be. */
static void elision_note(walk *w)
{
    const as_problem *p = w->p;
    const size_t longest[] = {p->d_model, p->d_kv_model, p->heads * p->d_k, p->heads * p->d_v,
                              p->m, p->d_out};
    size_t k;

    for (k = 0; k < sizeof longest / sizeof longest[0]; k++)
        if (as_expand_elides(longest[k])) {
            gap(w);
            as_block_add(w->b, as_say(w->o, AS_MSG_TR_ELIDED), AS_EXPAND_MAX, AS_EXPAND_HEAD,
                         AS_EXPAND_TAIL, sym(w, AS_SYM_ELLIPSIS));
            return;
        }
}

/* The whole-matrix form (the chapter's Q = … K = … V = … block, QKᵀ, M, S, A, O; C with
 * several heads) and the formula. */
static int whole(walk *w)
{
    const unsigned only = (1u << AS_T_Q) | (1u << AS_T_K) | (1u << AS_T_V) | (1u << AS_T_QKT) |
                          (1u << AS_T_M) | (1u << AS_T_S) | (1u << AS_T_A) | (1u << AS_T_O) |
                          (1u << AS_T_C) | (1u << AS_T_QR) | (1u << AS_T_KR) | (1u << AS_T_B) |
                          (1u << AS_T_N1) | (1u << AS_T_H1) | (1u << AS_T_N2) | (1u << AS_T_U) |
                          (1u << AS_T_G) | (1u << AS_T_F) | (1u << AS_T_D) | (1u << AS_T_H2) |
                          (1u << AS_T_Y);

    gap(w);
    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_TR_WHOLE));
    return run_tables(w, w->t, only, 1, 1);
}

/* A walk that writes nothing and tells fn of each line that makes a cell: of the
 * projections (row < 0), or of receiving row `row`, every head, its steps (step s
 * only, 1 to 4) and the closing (s 0). */
static int lines_walk(const as_problem *p, const as_trace *t, const as_render_opts *o, long row,
                      int s, as_trace_line_fn fn, void *ctx)
{
    as_block b = {0};
    walk w = {p, t, o, {o->digits, o->ascii}, &b, NULL, 0, 0, 0, NULL, 0, {0}, fn, ctx, 0, 0};

    if ((w.idx = malloc((p->m > 0 ? p->m : 1) * sizeof *w.idx)) == NULL)
        return -1;
    if (row < 0)
        projections(&w);
    else
        walk_row(&w, (size_t)row, s);
    flush(&w);
    free(w.idx);
    as_row_trace_free(&w.r);
    return w.failed ? -1 : 0;
}

int as_trace_lines_inputs(const as_problem *p, const as_trace *t, const as_render_opts *o,
                          as_trace_line_fn fn, void *ctx)
{
    return lines_walk(p, t, o, -1, 0, fn, ctx);
}

int as_trace_lines_row(const as_problem *p, const as_trace *t, const as_render_opts *o, size_t i,
                       int s, as_trace_line_fn fn, void *ctx)
{
    return i < p->n && s >= 0 && s <= 4 ? lines_walk(p, t, o, (long)i, s, fn, ctx) : -1;
}

int as_render_trace(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    as_block b = {0};
    walk w = {p, t, o, {o->digits, o->ascii}, &b, out, 0, 0, 0, NULL, 0, {0}, NULL, NULL, 0, 0};
    size_t first, last;
    size_t i;

    if (as_row_span(o->row, p->n, &first, &last) != 0 || (w.idx = malloc(p->m * sizeof *w.idx)) == NULL)
        return -1;
    if (o->step != 0) { /* one step: the tables it needs, then that step of each row */
        w.failed = run_tables(&w, t, as_trace_step_tables(o->step), 0, 1) != 0;
        for (i = first; i <= last && flush(&w) == 0; i++)
            walk_row(&w, i, o->step);
        flush(&w);
        free(w.idx);
        as_row_trace_free(&w.r);
        return w.failed ? -1 : 0;
    }
    embedding(&w);
    w.failed = inputs(&w) != 0;
    elision_note(&w);
    as_trace_block_begin(w.b, p, t, o, first, last);
    projections(&w);
    rule(&w);
    for (i = first; i <= last && flush(&w) == 0; i++)
        walk_row(&w, i, 0);
    if (flush(&w) == 0)
        as_trace_block_rest(w.b, p, t, o, first, last);
    if (flush(&w) == 0) {
        w.failed |= whole(&w) != 0;
        flush(&w);
    }
    if (!w.failed && t->out != NULL) { /* SPEC §19: the head on the last row, walked */
        const as_head_source src = as_head_source_of(p, t);
        gap(&w);
        as_render_head_walk(w.b, p, t->out, &src, o);
        flush(&w);
    }
    free(w.idx);
    as_row_trace_free(&w.r);
    return w.failed ? -1 : 0;
}
