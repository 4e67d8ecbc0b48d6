/* render_grad.c - `grad` as text and JSON (SPEC §13): every gradient table in the order
 * the backward pass computes it, read from the gradient trace (grad.h). No maths here. */
#include "attnstep/render_grad.h"
#include "attnstep/html.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int as_grad_only_parse(const char *list, unsigned *only, const char **bad)
{
    return as_names_parse(list, as_grad_lookup, only, bad);
}

/* ------------------------------------------------------------------------------ */
/* Text                                                                             */
/* ------------------------------------------------------------------------------ */

/* Told of each table as the text puts it: its kind, the expression that names it, its
 * rows (a head's n x m tables made again row by row after a rows run), the head it is
 * one head's of (-1: none), and the lines said before it since the last table (notes,
 * the head's title). name is the table's own (t's, or for a γ/β gradient of the block,
 * which comes with the table t of its norm's step, "dln1_g" …). A nonzero return fails
 * the walk. */
typedef int (*grad_visit)(void *ctx, as_grad_table t, const char *name, const char *expr,
                          const as_rows *r, long hd, const as_block *before);

typedef struct out_text {
    as_block *b;
    const as_problem *p;
    const as_trace *t;
    const as_grad *g;
    const as_render_opts *o;
    grad_visit visit; /* the page: told of each table instead of printing it (NULL: text) */
    void *ctx;
    long hd;          /* the head whose tables are being put, -1 outside one */
    const char *name; /* the table being put's own name when not its row's (put_named) */
} out_text;

static int shows(const out_text *w, as_grad_table t)
{
    return w->o->only == 0 || (w->o->only & (1u << t)) != 0;
}

static const char *sym(const out_text *w, as_sym s)
{
    return as_sym_text(w->o->ascii, s);
}


/* "A" or, with several heads, "A₀": base and head hd's subscript. */
static const char *hn(char *buf, size_t size, const out_text *w, const char *base, size_t hd)
{
    char sub[32] = "";

    if (w->p->heads > 1)
        as_subscript(sub, sizeof sub, hd, w->o->ascii);
    snprintf(buf, size, "%s%s", base, sub);
    return buf;
}

/* One table, when it exists and --only shows it (captions that ran out of memory make
 * the whole text fail, never a table without them). */
/* The page's put: tells the visitor of the table, with the lines said before it (and
 * its captions), which then start afresh. */
static void visit(out_text *w, as_grad_table t, const char *expr, const as_rows *r,
                  const as_block *captions)
{
    int failed;

    if (captions != NULL)
        as_block_append(w->b, captions);
    failed = w->b->failed |
             (w->visit(w->ctx, t, w->name ? w->name : as_grad_name(t), expr, r, w->hd, w->b) != 0);
    as_block_free(w->b);
    w->b->failed = failed;
}

static void put(out_text *w, as_grad_table t, const char *expr, const as_matrix *m,
                const as_block *captions)
{
    if (m->rows > 0 && shows(w, t) && w->visit != NULL) {
        const as_rows r = as_rows_of(m);
        visit(w, t, expr, &r, captions);
    } else if (m->rows > 0 && shows(w, t))
        as_text_table(w->b, expr, m, captions, w->o);
    if (captions != NULL)
        w->b->failed |= captions->failed;
}

/* put() of a table with no row of its own (a norm's γ/β gradient, RoPE's dQr and dKr),
 * shown with t's. */
static void put_named(out_text *w, as_grad_table t, const char *name, const char *expr,
                      const as_matrix *m, const as_block *captions)
{
    w->name = name;
    put(w, t, expr, m, captions);
    w->name = NULL;
}

/* Which of a head's n x m tables the registry's t is. */
static as_grad_square square_of(as_grad_table t)
{
    return t == AS_G_DA ? AS_GRAD_DA : t == AS_G_DS ? AS_GRAD_DS : AS_GRAD_DQKT;
}

/* put() for head hd's dA, dS or d(QKᵀ): written row by row as as_grad_rows gives them
 * (after a rows run, made again: no n x m table is kept). */
static void put_square(out_text *w, as_grad_table t, size_t hd, const char *expr,
                       const as_block *captions)
{
    as_grad_rows h;
    as_rows r;

    if (shows(w, t)) {
        r = as_grad_rows_open(&h, w->g, w->p, w->t, hd, square_of(t));
        if (w->visit != NULL)
            visit(w, t, expr, &r, captions);
        else
            as_text_table_rows(w->b, expr, &r, captions, w->o);
        as_grad_rows_close(&h);
    }
    if (captions != NULL)
        w->b->failed |= captions->failed;
}

/* The loss and dO: where the backward pass starts. */
static void start(out_text *w, const as_trace *t)
{
    const as_grad *g = w->g;
    char num[AS_NUM_BUF], rel[AS_NUM_BUF + 8], expr[64];
    const int block = t->block != NULL;
    int rounded;

    if (w->o->only == 0) {
        if (w->p->in->title != NULL && w->visit == NULL) /* a page has it as its heading */
            as_block_add(w->b, as_say(w->o, AS_MSG_TITLE), w->p->in->title);
        as_block_add(w->b, "%s", as_say(w->o, block ? AS_MSG_GRAD_BLOCK_INTRO : AS_MSG_GRAD_INTRO));
        rounded = as_fmt_display(num, sizeof num, g->loss, w->o->digits, w->o->ascii);
        snprintf(rel, sizeof rel, "%s %s", rounded ? sym(w, AS_SYM_APPROX) : "=", num);
        if (g->loss_kind == AS_LOSS_SUM)
            as_block_add(w->b, as_say(w->o, block ? AS_MSG_GRAD_LOSS_SUM_Y : AS_MSG_GRAD_LOSS_SUM),
                         rel);
        else if (g->loss_kind == AS_LOSS_MSE)
            as_block_add(w->b, as_say(w->o, block ? AS_MSG_GRAD_LOSS_MSE_Y : AS_MSG_GRAD_LOSS_MSE),
                         rel);
        else
            as_block_add(w->b, "%s", as_say(w->o, block ? AS_MSG_GRAD_LOSS_GIVEN_Y
                                                        : AS_MSG_GRAD_LOSS_GIVEN));
    }
    snprintf(expr, sizeof expr, "%s%s", block ? "dY" : "dO",
             g->loss_kind != AS_LOSS_MSE ? ""
             : block ? (w->o->ascii ? " = Y - target" : " = Y − target")
                     : (w->o->ascii ? " = O - target" : " = O − target"));
    put(w, block ? AS_G_DY : AS_G_DO, expr, block ? &g->dY : &g->dO, NULL);
}

/* O = C·Wo + bo, backwards. */
static void output_projection(out_text *w)
{
    const as_grad *g = w->g;
    char expr[128];

    if (w->p->Wo == NULL)
        return;
    as_block_gap(w->b);
    snprintf(expr, sizeof expr, "dWo = C%s%sdO", sym(w, AS_SYM_T), sym(w, AS_SYM_DOT));
    put(w, AS_G_DWO, expr, &g->dWo, NULL);
    snprintf(expr, sizeof expr, "dbo = ");
    snprintf(expr + 6, sizeof expr - 6, as_say(w->o, AS_MSG_GRAD_COLSUM), "dO");
    put(w, AS_G_DBO, expr, &g->dbo, NULL);
    snprintf(expr, sizeof expr, "dC = dO%sWo%s", sym(w, AS_SYM_DOT), sym(w, AS_SYM_T));
    put(w, AS_G_DC, expr, &g->dC, NULL);
}


/* "dS/√2" or "dS×0.5": the scaling of d(QKᵀ). */
static void scaled(char *buf, size_t size, const out_text *w, const char *ds)
{
    char num[AS_NUM_BUF];

    if (w->p->scale_auto) {
        snprintf(buf, size, w->o->ascii ? "%s/%s(%zu)" : "%s/%s%zu", ds, sym(w, AS_SYM_SQRT),
                 w->p->d_k);
        return;
    }
    as_fmt_display(num, sizeof num, w->p->scale, w->o->digits, w->o->ascii);
    snprintf(buf, size, "%s%s%s", ds, sym(w, AS_SYM_TIMES), num);
}

/* Head hd's slice of dC (of dO without Wo), when there are several heads. */
static void head_slice(out_text *w, const as_grad_head *gh, size_t hd)
{
    char name[32], expr[160];
    const char *src = w->p->Wo != NULL ? "dC" : "dO";
    const int n = snprintf(expr, sizeof expr, "%s = ", hn(name, sizeof name, w, "dO", hd));

    if (w->p->heads == 1)
        return;
    snprintf(expr + n, sizeof expr - (size_t)n, as_say(w->o, AS_MSG_GRAD_HEAD_SLICE), src,
             hd * w->p->d_v, (hd + 1) * w->p->d_v - 1);
    put(w, w->p->Wo != NULL ? AS_G_DC : AS_G_DO, expr, &gh->dO, NULL);
}

/* positions: rope: the scores read the turned Qr and Kr, so step 1 backwards gives their
 * gradients dQr = d(QKᵀ)·Kr and dKr = d(QKᵀ)ᵀ·Qr, and the turn backwards (Rᵀ, each row's
 * pairs turned back by its position's angles) gives dQ and dK. dq is "d(QKᵀ)₀". */
static void rope_back(out_text *w, const as_grad_head *gh, size_t hd, const char *dq)
{
    static const char *const kind[] = {"Q", "K"};
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT);
    const as_matrix *turned[] = {&gh->dQr, &gh->dKr}, *back[] = {&gh->dQ, &gh->dK};
    static const as_grad_table tt[] = {AS_G_DQ, AS_G_DK};
    char dr[32], d[32], other[32], base[8], expr[256];
    as_block cap = {0};
    size_t k;

    for (k = 0; k < 2; k++) {
        snprintf(base, sizeof base, "d%sr", kind[k]);
        hn(dr, sizeof dr, w, base, hd);
        hn(d, sizeof d, w, k ? "dK" : "dQ", hd);
        hn(other, sizeof other, w, k ? "Qr" : "Kr", hd);
        snprintf(expr, sizeof expr, "%s = %s%s%s%s", dr, dq, k ? T : "", dot, other);
        put_named(w, tt[k], base, expr, turned[k], NULL);
        if (shows(w, tt[k]))
            as_block_add(&cap, as_say(w->o, AS_MSG_GRAD_ROPE), dr, d);
        snprintf(expr, sizeof expr, "%s = R%s%s%s", d, T, dot, dr);
        put(w, tt[k], expr, back[k], &cap);
        as_block_free(&cap);
    }
}

/* One head: dV, dA, dS, d(QKᵀ), dQ, dK, each with the formula that made it. */
static void head(out_text *w, size_t hd)
{
    const as_grad_head *gh = &w->g->head[hd];
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT), *had = sym(w, AS_SYM_HADAMARD);
    char a[32], v[32], q[32], k[32], o[32], da[32], ds[32], dq[32], sc[96], expr[256];
    as_block cap = {0};

    hn(a, sizeof a, w, "A", hd), hn(v, sizeof v, w, "V", hd), hn(q, sizeof q, w, "Q", hd);
    hn(k, sizeof k, w, "K", hd), hn(o, sizeof o, w, "dO", hd), hn(da, sizeof da, w, "dA", hd);
    hn(ds, sizeof ds, w, "dS", hd), hn(dq, sizeof dq, w, "d(QK", hd);
    w->hd = (long)hd;
    as_block_gap(w->b);
    if (w->p->heads > 1)
        as_block_add(w->b, as_say(w->o, AS_MSG_HEAD_TITLE), hd);
    head_slice(w, gh, hd);
    snprintf(expr, sizeof expr, "%s = %s%s%s%s", hn(sc, sizeof sc, w, "dV", hd), a, T, dot, o);
    put(w, AS_G_DV, expr, &gh->dV, NULL);
    as_block_add(&cap, "%s", as_say(w->o, AS_MSG_QKT_ROWS));
    as_block_add(&cap, "%s", as_say(w->o, AS_MSG_QKT_COLS));
    snprintf(expr, sizeof expr, "%s = %s%s%s%s", da, o, dot, v, T);
    put_square(w, AS_G_DA, hd, expr, &cap);
    as_block_free(&cap);
    if (shows(w, AS_G_DS)) {
        const int masked = as_any_masked(w->p, w->t); /* dS: its zeros are exact */
        w->b->failed |= masked < 0;
        if (masked > 0)
            as_block_add(&cap, "%s", as_say(w->o, AS_MSG_GRAD_MASKED_ZERO));
    }
    snprintf(expr, sizeof expr, "%s = %s%s(%s %s rowsum(%s%s%s))", ds, a, had, da,
             sym(w, AS_SYM_MINUS), da, had, a);
    put_square(w, AS_G_DS, hd, expr, &cap);
    as_block_free(&cap);
    /* d(QKᵀ)₀: the subscript goes after the closing parenthesis */
    snprintf(dq, sizeof dq, "d(QK%s)", T);
    if (w->p->heads > 1) {
        char sub[16];
        as_subscript(sub, sizeof sub, hd, w->o->ascii);
        strncat(dq, sub, sizeof dq - strlen(dq) - 1);
    }
    scaled(sc, sizeof sc, w, ds);
    snprintf(expr, sizeof expr, "%s = %s", dq, sc);
    put_square(w, AS_G_DQKT, hd, expr, NULL);
    if (gh->dQr.rows > 0) {
        rope_back(w, gh, hd, dq);
    } else {
        snprintf(expr, sizeof expr, "%s = %s%s%s", hn(sc, sizeof sc, w, "dQ", hd), dq, dot, k);
        put(w, AS_G_DQ, expr, &gh->dQ, NULL);
        snprintf(expr, sizeof expr, "%s = %s%s%s%s", hn(sc, sizeof sc, w, "dK", hd), dq, T, dot, q);
        put(w, AS_G_DK, expr, &gh->dK, NULL);
    }
    w->hd = -1;
}

/* "[dQ₀|dQ₁|…]", or for K and V shared by groups of heads "[dK₀+dK₁|dK₂+dK₃]". */
static void side_by_side(char *buf, size_t size, const out_text *w, const char *base, int shared)
{
    const as_problem *p = w->p;
    size_t hd, used = (size_t)snprintf(buf, size, "%s = [", base);
    char name[32];

    for (hd = 0; hd < p->heads && used < size; hd++) {
        const int first_of_group = !shared || hd % (p->heads / p->kv_heads) == 0;
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 hd == 0 ? "" : first_of_group ? "|" : "+",
                                 hn(name, sizeof name, w, base, hd));
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

/* The heads' dQ, dK, dV side by side (several heads only: with one they were shown). */
static void all_heads(out_text *w)
{
    char expr[512];

    if (w->p->heads == 1)
        return;
    as_block_gap(w->b);
    side_by_side(expr, sizeof expr, w, "dQ", 0);
    put(w, AS_G_DQ, expr, &w->g->dQ, NULL);
    side_by_side(expr, sizeof expr, w, "dK", 1);
    put(w, AS_G_DK, expr, &w->g->dK, NULL);
    side_by_side(expr, sizeof expr, w, "dV", 1);
    put(w, AS_G_DV, expr, &w->g->dV, NULL);
}

/* ---- the block around the layer (SPEC §15), backwards ---- */

/* Which of the block's three norms (as the gradient trace numbers dln_g, dln_b). */
enum { NORM1, NORM2, NORMF };

/* The rule of the block's norm backward step, said as its table's caption. */
static as_msg norm_rule(const as_problem *p)
{
    if (p->norm == AS_NORM_NONE)
        return AS_MSG_GRAD_NORM_NONE;
    if (p->norm == AS_NORM_RMS)
        return AS_MSG_GRAD_NORM_RMS;
    return p->norm_style == AS_NORM_ANNOTATED ? AS_MSG_GRAD_NORM_ANNOTATED : AS_MSG_GRAD_NORM_LAYER;
}

/* The table (of registry row t) whose step takes norm k's backward pass: its γ's and β's
 * gradients come with it (they have no row of their own, tables.def). */
static as_grad_table norm_owner(const as_problem *p, int k)
{
    const int pre = p->block == AS_BLOCK_PRE;

    if (k == NORMF)
        return p->ffn != AS_FFN_NONE ? AS_G_DH2 : AS_G_DH1;
    if (k == NORM2)
        return pre ? AS_G_DH1 : AS_G_DD;
    return pre ? AS_G_DX : AS_G_DO;
}

/* Norm k's backward step: dx, made by expr, with the rule as its caption, then γ's and
 * β's gradients, column sums of dy⊙x̂ and of dy (dy named dyname). */
static void norm_step(out_text *w, as_grad_table t, const char *expr, const as_matrix *dx,
                      int k, const char *dyname)
{
    static const char *const tag[] = {"1", "2", "f"};
    as_block cap = {0};
    char name[16], what[64], e[160];
    int n;

    if (shows(w, t))
        as_block_add(&cap, "%s", as_say(w->o, norm_rule(w->p)));
    put(w, t, expr, dx, &cap);
    as_block_free(&cap);
    snprintf(name, sizeof name, "dln%s_g", tag[k]);
    snprintf(what, sizeof what, "%s%s%s", dyname, sym(w, AS_SYM_HADAMARD),
             w->o->ascii ? "xhat" : "x\xcc\x82");
    n = snprintf(e, sizeof e, "%s = ", name);
    snprintf(e + n, sizeof e - (size_t)n, as_say(w->o, AS_MSG_GRAD_COLSUM), what);
    put_named(w, t, name, e, &w->g->dln_g[k], NULL);
    snprintf(name, sizeof name, "dln%s_b", tag[k]);
    n = snprintf(e, sizeof e, "%s = ", name);
    snprintf(e + n, sizeof e - (size_t)n, as_say(w->o, AS_MSG_GRAD_COLSUM), dyname);
    put_named(w, t, name, e, &w->g->dln_b[k], NULL);
}

/* "dbup = column sums of dU" into expr. */
static void colsum_expr(char *expr, size_t size, const out_text *w, const char *name,
                        const char *of)
{
    const int n = snprintf(expr, size, "%s = ", name);

    snprintf(expr + n, size - (size_t)n, as_say(w->o, AS_MSG_GRAD_COLSUM), of);
}

/* The FFN on `in` (N2 for pre, H1 for post) backwards, from dD to dU (and dG). */
static void ffn_text(out_text *w, const char *in)
{
    const as_problem *p = w->p;
    const as_grad *g = w->g;
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT), *had = sym(w, AS_SYM_HADAMARD);
    const char *prime = w->o->ascii ? "'" : "\xe2\x80\xb2";
    const char *act = p->ffn == AS_FFN_RELU ? "relu" : p->ffn == AS_FFN_GELU ? "gelu" : "gelu_tanh";
    char expr[256];

    snprintf(expr, sizeof expr, "dWdown = F%s%sdD", T, dot);
    put(w, AS_G_DWDOWN, expr, &g->dWdown, NULL);
    colsum_expr(expr, sizeof expr, w, "dbdown", "dD");
    put(w, AS_G_DBDOWN, expr, &g->dbdown, NULL);
    snprintf(expr, sizeof expr, "dF = dD%sWdown%s", dot, T);
    put(w, AS_G_DF, expr, &g->dF, NULL);
    if (p->ffn == AS_FFN_SWIGLU) {
        snprintf(expr, sizeof expr, "dU = dF%sG", had);
        put(w, AS_G_DU, expr, &g->dU, NULL);
        snprintf(expr, sizeof expr, "dG = dF%sU", had);
        put(w, AS_G_DG, expr, &g->dG, NULL);
        snprintf(expr, sizeof expr, "dWgate = %s%s%s(dG%ssilu%s(%s%sWgate))", in, T, dot, had,
                 prime, in, dot);
        put(w, AS_G_DWGATE, expr, &g->dWgate, NULL);
    } else {
        snprintf(expr, sizeof expr, "dU = dF%s%s%s(U)", had, act, prime);
        put(w, AS_G_DU, expr, &g->dU, NULL);
    }
    snprintf(expr, sizeof expr, "dWup = %s%s%sdU", in, T, dot);
    put(w, AS_G_DWUP, expr, &g->dWup, NULL);
    colsum_expr(expr, sizeof expr, w, "dbup", "dU");
    put(w, AS_G_DBUP, expr, &g->dbup, NULL);
}

/* "dU·Wupᵀ" and, for swiglu, the gate's path: the FFN's gradient into its input. */
static void ffn_input_expr(char *buf, size_t size, const out_text *w, const char *in)
{
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT), *had = sym(w, AS_SYM_HADAMARD);
    const int n = snprintf(buf, size, "dU%sWup%s", dot, T);

    if (w->p->ffn == AS_FFN_SWIGLU)
        snprintf(buf + n, size - (size_t)n, " + (dG%ssilu%s(%s%sWgate))%sWgate%s", had,
                 w->o->ascii ? "'" : "\xe2\x80\xb2", in, dot, dot, T);
}

/* The block after the attention, from dY back to the attention's dO. */
static void block_top(out_text *w)
{
    const as_problem *p = w->p;
    const as_grad *g = w->g;
    const int pre = p->block == AS_BLOCK_PRE, has_ffn = p->ffn != AS_FFN_NONE;
    const char *T = sym(w, AS_SYM_T), *last = has_ffn ? "dH2" : "dH1";
    const as_matrix *dlast = has_ffn ? &g->dH2 : &g->dH1;
    char expr[256], path[192];

    as_block_gap(w->b);
    snprintf(expr, sizeof expr, p->final_norm ? "%s = normf%s(dY)" : "%s = dY", last, T);
    if (p->final_norm)
        norm_step(w, has_ffn ? AS_G_DH2 : AS_G_DH1, expr, dlast, NORMF, "dY");
    else
        put(w, has_ffn ? AS_G_DH2 : AS_G_DH1, expr, dlast, NULL);
    if (has_ffn) {
        const char *in = pre ? "N2" : "H1";
        as_block_gap(w->b);
        if (w->o->only == 0)
            as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GRAD_RESIDUAL));
        if (pre) {
            put(w, AS_G_DD, "dD = dH2", &g->dD, NULL);
        } else {
            snprintf(expr, sizeof expr, "dD = norm2%s(dH2)", T);
            norm_step(w, AS_G_DD, expr, &g->dD, NORM2, "dH2");
        }
        ffn_text(w, in);
        ffn_input_expr(path, sizeof path, w, in);
        if (pre) {
            snprintf(expr, sizeof expr, "dN2 = %s", path);
            put(w, AS_G_DN2, expr, &g->dN2, NULL);
            snprintf(expr, sizeof expr, "dH1 = dH2 + norm2%s(dN2)", T);
            norm_step(w, AS_G_DH1, expr, &g->dH1, NORM2, "dN2");
        } else {
            snprintf(expr, sizeof expr, "dH1 = dD + %s", path);
            put(w, AS_G_DH1, expr, &g->dH1, NULL);
        }
    }
    as_block_gap(w->b);
    if (pre) {
        put(w, AS_G_DO, "dO = dH1", &g->dO, NULL);
    } else {
        snprintf(expr, sizeof expr, "dO = norm1%s(dH1)", T);
        norm_step(w, AS_G_DO, expr, &g->dO, NORM1, "dH1");
    }
}

/* dWq = Xᵀ·dQ ..., the biases' column sums, then dX (and dXkv). */
static void projections(out_text *w)
{
    const as_grad *g = w->g;
    const int pre = w->p->block == AS_BLOCK_PRE, post = w->p->block == AS_BLOCK_POST;
    const int pe = w->t->PE.rows > 0; /* sinusoidal: the projections read X + PE */
    const char *x0 = pre ? "N1" : "X"; /* what the attention read */
    const char *x = pe ? (pre ? "(N1+PE)" : "(X+PE)") : x0;
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT);
    const char *kv = !w->p->cross ? x : pe ? "(Xkv+PE)" : "Xkv";
    as_block cap = {0}, capkv = {0};
    static const char *const wn[] = {"Wq", "Wk", "Wv"}, *const dn[] = {"dQ", "dK", "dV"};
    static const as_grad_table wt[] = {AS_G_DWQ, AS_G_DWK, AS_G_DWV};
    static const as_grad_table bt[] = {AS_G_DBQ, AS_G_DBK, AS_G_DBV};
    const as_matrix *dw[] = {&g->dWq, &g->dWk, &g->dWv}, *db[] = {&g->dbq, &g->dbk, &g->dbv};
    char expr[256];
    int n;
    size_t i;

    as_block_gap(w->b);
    if (w->p->in->layout == AS_LAYOUT_TORCH && (shows(w, AS_G_DWQ) || shows(w, AS_G_DWK) ||
                                                shows(w, AS_G_DWV) || shows(w, AS_G_DWO)))
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GRAD_LAYOUT_TORCH));
    for (i = 0; i < 3; i++) {
        snprintf(expr, sizeof expr, "d%s = %s%s%s%s", wn[i], i ? kv : x, T, dot, dn[i]);
        put(w, wt[i], expr, dw[i], NULL);
    }
    for (i = 0; i < 3; i++) {
        n = snprintf(expr, sizeof expr, "db%c = ", wn[i][1]);
        snprintf(expr + n, sizeof expr - (size_t)n, as_say(w->o, AS_MSG_GRAD_COLSUM), dn[i]);
        put(w, bt[i], expr, db[i], NULL);
    }
    as_block_gap(w->b);
    if (pe && shows(w, pre ? AS_G_DN1 : AS_G_DX))
        as_block_add(&cap, as_say(w->o, AS_MSG_GRAD_PE), x0, x0);
    if (pe && w->p->cross && shows(w, AS_G_DXKV))
        as_block_add(&capkv, as_say(w->o, AS_MSG_GRAD_PE), "Xkv", "Xkv");
    if (w->p->cross) {
        snprintf(expr, sizeof expr, "d%s = dQ%sWq%s%s", x0, dot, T, post ? " + dO" : "");
        put(w, pre ? AS_G_DN1 : AS_G_DX, expr, pre ? &g->dN1 : &g->dX, &cap);
        snprintf(expr, sizeof expr, "dXkv = dK%sWk%s + dV%sWv%s", dot, T, dot, T);
        put(w, AS_G_DXKV, expr, &g->dXkv, &capkv);
    } else {
        snprintf(expr, sizeof expr, "d%s = dQ%sWq%s + dK%sWk%s + dV%sWv%s%s", x0, dot, T, dot, T,
                 dot, T, post ? " + dO" : "");
        put(w, pre ? AS_G_DN1 : AS_G_DX, expr, pre ? &g->dN1 : &g->dX, &cap);
    }
    as_block_free(&cap);
    as_block_free(&capkv);
}

/* pre: the block's input X gets the residual's path and norm1's. */
static void block_bottom(out_text *w)
{
    char expr[64];

    if (w->p->block != AS_BLOCK_PRE)
        return;
    as_block_gap(w->b);
    snprintf(expr, sizeof expr, "dX = dH1 + norm1%s(dN1)", sym(w, AS_SYM_T));
    norm_step(w, AS_G_DX, expr, &w->g->dX, NORM1, "dN1");
}

/* Every table in the order the backward pass computes it, into w. */
static void walk(out_text *w)
{
    size_t hd;

    start(w, w->t);
    if (w->t->block != NULL)
        block_top(w);
    output_projection(w);
    for (hd = 0; hd < w->g->heads; hd++)
        head(w, hd);
    all_heads(w);
    projections(w);
    if (w->t->block != NULL)
        block_bottom(w);
}

int as_render_grad_text(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    as_block b = as_block_stream(out); /* each table is written as soon as it is made */
    out_text w = {&b, p, t, g, o, NULL, NULL, -1, NULL};
    int failed;

    walk(&w);
    failed = b.failed;
    as_block_free(&b);
    return failed || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* JSON                                                                             */
/* ------------------------------------------------------------------------------ */

#define IN_HEAD ", "
#define TOP ",\n  "

/* "name": table, when it exists and --only shows it; *sep goes before it, and the
 * separator of the object's level next after it (", " in a head, a new line at the top). */
static void jtable(FILE *out, const char **sep, const char *next, as_grad_table t,
                   const as_matrix *m, const as_render_opts *o)
{
    if (m->rows == 0 || (o->only != 0 && (o->only & (1u << t)) == 0))
        return;
    fprintf(out, "%s\"%s\": ", *sep, as_grad_name(t));
    as_json_matrix(out, m);
    *sep = next;
}

/* jtable() for a table with no row of its own (a norm's γ/β gradient, RoPE's dQr and
 * dKr, named name), shown with row t's; next as jtable()'s. */
static void jnamed(FILE *out, const char **sep, const char *next, as_grad_table t,
                   const char *name, const as_matrix *m, const as_render_opts *o)
{
    if (m->rows == 0 || (o->only != 0 && (o->only & (1u << t)) == 0))
        return;
    fprintf(out, "%s\"%s\": ", *sep, name);
    as_json_matrix(out, m);
    *sep = next;
}

/* Norm k's γ and β gradients, with the table of the step that makes them. */
static void jnorm(FILE *out, const char **sep, const as_problem *p, const as_grad *g, int k,
                  const as_render_opts *o)
{
    static const char *const gn[] = {"dln1_g", "dln2_g", "dlnf_g"};
    static const char *const bn[] = {"dln1_b", "dln2_b", "dlnf_b"};

    jnamed(out, sep, TOP, norm_owner(p, k), gn[k], &g->dln_g[k], o);
    jnamed(out, sep, TOP, norm_owner(p, k), bn[k], &g->dln_b[k], o);
}

/* The block's tables after the attention (SPEC §15), from dY down, in the order made. */
static void jblock_top(FILE *out, const char **sep, const as_problem *p, const as_grad *g,
                       const as_render_opts *o)
{
    const as_matrix *m[] = {&g->dY, &g->dH2, &g->dD, &g->dWdown, &g->dbdown, &g->dF,
                            &g->dU, &g->dG, &g->dWgate, &g->dWup, &g->dbup, &g->dN2, &g->dH1};
    static const as_grad_table tt[] = {AS_G_DY, AS_G_DH2, AS_G_DD, AS_G_DWDOWN, AS_G_DBDOWN,
                                       AS_G_DF, AS_G_DU, AS_G_DG, AS_G_DWGATE, AS_G_DWUP,
                                       AS_G_DBUP, AS_G_DN2, AS_G_DH1};
    size_t i;

    for (i = 0; i < sizeof m / sizeof m[0]; i++)
        jtable(out, sep, TOP, tt[i], m[i], o);
    jnorm(out, sep, p, g, NORMF, o);
    jnorm(out, sep, p, g, NORM2, o);
    if (p->block == AS_BLOCK_POST)
        jnorm(out, sep, p, g, NORM1, o);
}

/* jtable() for head hd's dA, dS or d(QKᵀ), row by row as as_grad_rows gives them; -1
 * when a row could not be had. */
static int jsquare(FILE *out, const char **sep, as_grad_table t,
                   const as_problem *p, const as_trace *tr, const as_grad *g, size_t hd,
                   const as_render_opts *o)
{
    as_grad_rows h;
    as_rows r;
    int rc;

    if (o->only != 0 && (o->only & (1u << t)) == 0)
        return 0;
    fprintf(out, "%s\"%s\": ", *sep, as_grad_name(t));
    r = as_grad_rows_open(&h, g, p, tr, hd, square_of(t));
    rc = as_json_rows(out, &r);
    as_grad_rows_close(&h);
    *sep = IN_HEAD;
    return rc;
}

static int jhead(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                 size_t hd, const as_render_opts *o)
{
    const as_grad_head *gh = &g->head[hd];
    const char *sep = "";
    int rc = 0;

    fputc('{', out);
    jtable(out, &sep, IN_HEAD, AS_G_DV, &gh->dV, o);
    rc |= jsquare(out, &sep, AS_G_DA, p, t, g, hd, o);
    rc |= jsquare(out, &sep, AS_G_DS, p, t, g, hd, o);
    rc |= jsquare(out, &sep, AS_G_DQKT, p, t, g, hd, o);
    jnamed(out, &sep, IN_HEAD, AS_G_DQ, "dQr", &gh->dQr, o); /* rope: before the turn back */
    jnamed(out, &sep, IN_HEAD, AS_G_DK, "dKr", &gh->dKr, o);
    jtable(out, &sep, IN_HEAD, AS_G_DQ, &gh->dQ, o);
    jtable(out, &sep, IN_HEAD, AS_G_DK, &gh->dK, o);
    fputc('}', out);
    return rc;
}

int as_render_grad_json(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    const as_matrix *top[] = {&g->dQ, &g->dK, &g->dV, &g->dWq, &g->dWk, &g->dWv,
                              &g->dbq, &g->dbk, &g->dbv, &g->dX, &g->dXkv};
    static const as_grad_table tt[] = {AS_G_DQ, AS_G_DK, AS_G_DV, AS_G_DWQ, AS_G_DWK, AS_G_DWV,
                                       AS_G_DBQ, AS_G_DBK, AS_G_DBV, AS_G_DX, AS_G_DXKV};
    const char *sep = TOP;
    size_t i;
    int rc = 0;

    fputs("{\n  \"loss\": ", out);
    if (g->loss_kind == AS_LOSS_GIVEN)
        fputs("null", out);
    else
        as_json_number(out, g->loss);
    if (t->block != NULL)
        jblock_top(out, &sep, p, g, o);
    jtable(out, &sep, TOP, AS_G_DO, &g->dO, o);
    jtable(out, &sep, TOP, AS_G_DWO, &g->dWo, o);
    jtable(out, &sep, TOP, AS_G_DBO, &g->dbo, o);
    jtable(out, &sep, TOP, AS_G_DC, &g->dC, o);
    fputs(",\n  \"heads\": [", out);
    for (i = 0; i < g->heads; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        rc |= jhead(out, p, t, g, i, o);
    }
    fputs("\n  ]", out);
    for (i = 0; i < sizeof top / sizeof top[0]; i++)
        jtable(out, &sep, TOP, tt[i], top[i], o);
    jtable(out, &sep, TOP, AS_G_DN1, &g->dN1, o);
    if (p->block == AS_BLOCK_PRE)
        jnorm(out, &sep, p, g, NORM1, o);
    fputs("\n}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* The page (--format html, SPEC §17)                                               */
/* ------------------------------------------------------------------------------ */

typedef struct gpage {
    as_html h;
    const as_problem *p;
    const as_trace *t;
    const as_grad *g;
    const as_render_opts *o;
} gpage;

/* Where table t of head hd is in grad's JSON: "heads.0.dS", "dWq"; "" for a head's
 * slice of dO, which the JSON does not hold. */
static void grad_path(char *buf, size_t size, as_grad_table t, const char *name, long hd)
{
    if (hd < 0)
        snprintf(buf, size, "%s", name);
    else if (t == AS_G_DO || t == AS_G_DC)
        buf[0] = '\0';
    else
        snprintf(buf, size, "heads.%ld.%s", hd, name);
}

/* One gradient table as one step: named by the expression that made it, the lines said
 * before it (the head's title, notes) as captions, its grid. */
static int grad_step(void *ctx, as_grad_table t, const char *name, const char *expr,
                     const as_rows *r, long hd, const as_block *before)
{
    gpage *pg = ctx;
    const as_problem *p = pg->p;
    const int scores = t == AS_G_DA || t == AS_G_DS || t == AS_G_DQKT;
    const int gb = strncmp(name, "dln", 3) == 0; /* a norm's γ/β: one row, no token */
    const int by_token = !gb && (t == AS_G_DO || t == AS_G_DC || t == AS_G_DQ || t == AS_G_DX ||
                                 t == AS_G_DA || t == AS_G_DS || t == AS_G_DQKT || t == AS_G_DY ||
                                 t == AS_G_DH2 || t == AS_G_DD || t == AS_G_DF || t == AS_G_DG ||
                                 t == AS_G_DU || t == AS_G_DN2 || t == AS_G_DH1 || t == AS_G_DN1);
    const int by_kv = t == AS_G_DK || t == AS_G_DV || t == AS_G_DXKV;
    char path[64];
    size_t i;
    int rc;

    grad_path(path, sizeof path, t, name, hd);
    as_html_step(&pg->h, expr, NULL);
    for (i = 0; i < before->count; i++)
        if (before->line[i][0] != '\0') {
            fputs("<p class=\"cap\">", pg->h.out);
            as_html_text(&pg->h, before->line[i]);
            fputs("</p>\n", pg->h.out);
        }
    rc = as_html_grid_write(&pg->h, &(as_html_grid){
        .name = name, .json = path, .r = *r,
        .rows = by_token ? p->tokens : by_kv ? p->kv_tokens : NULL,
        .cols = scores ? p->kv_tokens : NULL, .worked = 1});
    as_html_step_end(&pg->h);
    return rc;
}

static int grad_page_json(FILE *out, void *ctx)
{
    const gpage *pg = ctx;

    return as_render_grad_json(out, pg->p, pg->t, pg->g, pg->o);
}

int as_render_grad_html(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    as_block b = {0};
    gpage pg = {{0}, p, t, g, o};
    out_text w = {&b, p, t, g, o, grad_step, &pg, -1, NULL};
    char title[256];
    int rc;

    as_html_begin(&pg.h, out, as_html_title(title, sizeof title, p->in->title,
                                            as_say(o, AS_MSG_HTML_GRAD_TITLE)),
                  AS_MSG_HTML_KEYS, o);
    walk(&w);
    rc = b.failed ? -1 : 0;
    as_block_free(&b);
    if (rc == 0 && g->heads > 0) { /* the chain rule with the walked row's numbers */
        rc = as_grad_walk_lines(&b, p, t, g, o);
        as_html_step(&pg.h, as_say(o, AS_MSG_HTML_GRAD_WALK), NULL);
        if (rc == 0)
            as_html_walk(&pg.h, NULL, &b);
        as_html_step_end(&pg.h);
        as_block_free(&b);
    }
    rc |= as_html_end(&pg.h, grad_page_json, &pg);
    return rc != 0 || ferror(out) ? -1 : 0;
}
