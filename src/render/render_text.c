/* render_text.c - `run` as text: every table in the chapter's order and format. */
#include "attnstep/render.h"
#include "attnstep/block.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"
#include "attnstep/render_head.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CAPTION_GAP 6 /* spaces between a table and its captions, as the book prints */
#define SIDE_BY_SIDE_MAX 100 /* widest line for printing Wq, Wk, Wv side by side */

static const char *sym(const as_render_opts *o, as_sym s)
{
    return as_sym_text(o->ascii, s);
}

/* Nonzero when the one head's AV is the layer's output (no Wo, one head). */
static int is_final_output(const as_problem *p)
{
    return p->heads == 1 && p->Wo == NULL;
}

/* A blank line between groups of tables (never two, never first). */
static void gap(as_block *out)
{
    as_block_gap(out);
}

/* "Q" or, with several heads, "Q₀" (base followed by the head's subscript). */
static void head_name(char *buf, size_t size, const char *base, const as_problem *p, size_t h,
                      const as_render_opts *o)
{
    char sub[32] = "";

    if (p->heads > 1)
        as_subscript(sub, sizeof sub, h, o->ascii);
    snprintf(buf, size, "%s%s", base, sub);
}

/* A table laid out and labelled, not yet written. */
typedef struct laid_table {
    as_rows rows;
    as_table_layout lay;
    as_text label;
    as_cell_style st;
} laid_table;

/* Lays out a table given row by row: "EXPR = " (or "≈" when a shown value is rounded)
 * and its columns. Each row is read twice (to lay the table out, then to write it) and
 * never kept: a table of a rows trace is written without being held whole. */
static void lay_table(laid_table *t, const char *expr, const as_rows *m,
                      const as_render_opts *o)
{
    const as_cell_style st = {o->digits, o->ascii, o->color ? "\x1b[2m" : NULL, "\x1b[0m"};

    t->rows = *m;
    t->st = st;
    memset(&t->label, 0, sizeof t->label);
    as_table_measure(&t->lay, m, &st);
    as_text_addf(&t->label, "%s%s%s %s ", o->color ? "\x1b[1m" : "", expr,
                 o->color ? "\x1b[0m" : "", t->lay.rounded ? sym(o, AS_SYM_APPROX) : "=");
}

/* The columns every line of t takes (0 for a table of no cells). */
static size_t table_width(const laid_table *t)
{
    size_t j, w = as_display_width(as_text_str(&t->label)) + 4; /* "[[" ... "]]" */

    if (t->rows.rows == 0 || t->rows.cols == 0 || t->lay.colw == NULL)
        return 0;
    for (j = 0; j < t->rows.cols; j++)
        w += t->lay.colw[j] + (j > 0 ? (t->lay.whole ? 1 : 2) : 0); /* ", " or "," before */
    return w;
}

/* Frees t unwritten. */
static void drop_table(laid_table *t)
{
    as_text_free(&t->label);
    as_table_layout_free(&t->lay);
}

/* Writes t with captions beside, and frees it. */
static void put_table(as_block *out, laid_table *t, const as_block *captions)
{
    out->failed |= t->label.failed;
    as_table_write(out, &t->lay, &t->rows, as_text_str(&t->label), captions, CAPTION_GAP,
                   &t->st);
    drop_table(t);
}

/* A table given row by row: "EXPR = " (or "≈"), the matrix, captions beside. */
static void table_rows(as_block *out, const char *expr, const as_rows *m,
                       const as_block *captions, const as_render_opts *o)
{
    laid_table t;

    lay_table(&t, expr, m, o);
    put_table(out, &t, captions);
}

/* Nonzero when any of the tables t[0..count) is to be shown. */
static int shows_any(const as_render_opts *o, const as_table *t, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        if (as_shows(o, t[i]))
            return 1;
    return 0;
}

/* A table: "EXPR = " (or "≈"), the matrix, captions beside. */
static void table(as_block *out, const char *expr, const as_matrix *m, const as_block *captions,
                  const as_render_opts *o)
{
    const as_rows rows = as_rows_of(m);

    table_rows(out, expr, &rows, captions, o);
}

/* ---- one head's n x m tables, a row at a time from the trace ---- */

/* Table which of head hd: "EXPR = " and its rows, captions beside. A full trace's table
 * is a matrix (laid out and written on two threads when large), a rows trace's is made
 * again row by row; the same rows either way (as_head_rows). */
static void head_table_of(as_block *out, const char *expr, const as_problem *p,
                          const as_trace *t, size_t hd, as_table which,
                          const as_block *captions, const as_render_opts *o)
{
    as_head_rows h;
    const as_rows rows = as_head_rows_open(&h, p, t, hd, which);

    table_rows(out, expr, &rows, captions, o);
    as_head_rows_close(&h);
}

/* The heat map of head hd's A, its rows and the mask's as as_head_rows gives them. */
static void heatmap(as_block *out, const as_problem *p, const as_trace *t, size_t hd,
                    const as_render_opts *o)
{
    as_head_rows hm, ha;
    const as_rows M = as_head_rows_open(&hm, p, t, 0, AS_T_M);
    const as_rows A = as_head_rows_open(&ha, p, t, hd, AS_T_A);

    as_heatmap(out, p, &M, &A, o);
    as_head_rows_close(&hm);
    as_head_rows_close(&ha);
}

/* ---- captions ---- */

/* “label” for each row: 第0行对应“我”. */
static as_block row_captions(const char *const *labels, size_t rows, const as_render_opts *o)
{
    as_block c = {0};
    size_t i;

    for (i = 0; i < rows; i++)
        as_block_add(&c, as_say(o, AS_MSG_ROW_IS), i, labels[i]);
    return c;
}

/* Which keys row i (its mask row M [m]) may read: 第0行只能读“我”, 第1行能读“我”和“爱”. */
static void mask_caption(as_block *c, const as_problem *p, const double *M, size_t i,
                         const as_render_opts *o)
{
    as_text list = {0};
    size_t j, count = 0, last = 0;

    for (j = 0; j < p->m; j++)
        if (M[j] != -INFINITY)
            count++, last = j;
    if (count > 6) {
        as_block_add(c, as_say(o, AS_MSG_MASK_READS_N), i, count);
        return;
    }
    for (j = 0; j < p->m; j++) {
        if (M[j] == -INFINITY)
            continue;
        as_text_addf(&list, "%s“%s”",
                     list.len == 0 ? ""
                     : j == last   ? as_say(o, AS_MSG_LIST_AND)
                                   : as_say(o, AS_MSG_LIST_SEP),
                     p->kv_tokens[j]);
    }
    c->failed |= list.failed;
    as_block_add(c, as_say(o, count == 1 ? AS_MSG_MASK_ONLY : AS_MSG_MASK_READS), i,
                 as_text_str(&list));
    as_text_free(&list);
}


/* ---- the whole block (SPEC §15), in the order it is computed: with pre, N1 before the
 * attention (what it reads); after O, the residuals, the other norms and the FFN. Each
 * norm shows x̂ with every row's μ, σ² (or mean square) and divisor beside it. ---- */

/* Which of the block's three norms: its γ/β in p->ln_g/ln_b. */
enum { NORM1, NORM2, NORMF };

/* "= 0.25" or "≈ 0.4330242" for a value shown beside a table. */
static const char *eq(char *buf, size_t size, double v, const as_render_opts *o)
{
    char num[AS_NUM_BUF];
    const int rounded = as_fmt_display(num, sizeof num, v, o->digits, o->ascii);

    snprintf(buf, size, "%s %s", rounded ? sym(o, AS_SYM_APPROX) : "=", num);
    return buf;
}

/* expr in ASCII with --ascii (x̂, μ, σ² … as the output filter will spell them), so that
 * the table is laid out under the label as it will be printed. */
static void fold(char *expr, size_t size, const as_render_opts *o)
{
    char wide[3 * 160];
    size_t n;

    if (!o->ascii)
        return;
    n = as_ascii_letters(wide, expr, strnlen(expr, 160));
    snprintf(expr, size, "%.*s", (int)n, wide);
}

/* Each row's μ, σ² and divisor as written beside x̂: 第0行：μ = 0.25，σ² = 0.1875，… */
static as_block norm_captions(const as_norm_trace *nt, const as_problem *p,
                              const as_render_opts *o)
{
    as_block c = {0};
    char a[AS_NUM_BUF + 8], b[AS_NUM_BUF + 8], d[AS_NUM_BUF + 8];
    size_t i;

    for (i = 0; i < nt->div.rows; i++) {
        eq(b, sizeof b, nt->var.v[i], o);
        eq(d, sizeof d, nt->div.v[i], o);
        if (p->norm == AS_NORM_RMS) {
            as_block_add(&c, as_say(o, AS_MSG_BLK_ROW_RMS), i, b, d);
            continue;
        }
        eq(a, sizeof a, nt->mean.v[i], o);
        as_block_add(&c, as_say(o, p->norm_style == AS_NORM_ANNOTATED ? AS_MSG_BLK_ROW_ANNOT
                                                                       : AS_MSG_BLK_ROW_LAYER),
                     i, a, b, d);
    }
    return c;
}

/* γ and β of norm `which` as the file gives them (none of them for defaults). */
static void norm_weights(as_block *out, const as_problem *p, int which, const as_render_opts *o)
{
    static const char *const g[] = {"ln1_g", "ln2_g", "lnf_g"}, *const b[] = {"ln1_b", "ln2_b", "lnf_b"};

    if (!as_shows(o, AS_T_W))
        return;
    if (p->ln_g[which] != NULL)
        table(out, g[which], p->ln_g[which], NULL, o);
    if (p->ln_b[which] != NULL && p->norm != AS_NORM_RMS)
        table(out, b[which], p->ln_b[which], NULL, o);
}

/* OUT = Norm(IN): the rule in words, x̂ with each row's sub-steps beside it, then OUT. */
static void norm_table(as_block *out, const char *name, const char *in, const as_matrix *res,
                       const as_norm_trace *nt, int which, const as_problem *p,
                       const as_render_opts *o)
{
    char eps[AS_NUM_BUF], expr[160];
    as_block cap;
    const char *root = sym(o, AS_SYM_SQRT);

    as_block_gap(out);
    if (p->norm == AS_NORM_NONE || nt->div.v == NULL) {
        snprintf(expr, sizeof expr, "%s = %s", name, in);
        as_block_add(out, as_say(o, AS_MSG_BLK_NORM_NONE), name, in);
        table(out, expr, res, NULL, o);
        return;
    }
    as_fmt_display(eps, sizeof eps, p->norm_eps, 17, o->ascii);
    as_block_add(out, as_say(o, p->norm == AS_NORM_RMS              ? AS_MSG_BLK_NORM_RMS
                                : p->norm_style == AS_NORM_ANNOTATED ? AS_MSG_BLK_NORM_ANNOT
                                                                     : AS_MSG_BLK_NORM_LAYER),
                 name, in, eps);
    norm_weights(out, p, which, o);
    if (p->norm == AS_NORM_RMS)
        snprintf(expr, sizeof expr, "x\xcc\x82 = %s/%s(%s%s/d+%s)", in, root, "\xce\xa3x",
                 "\xc2\xb2", "\xce\xb5");
    else if (p->norm_style == AS_NORM_ANNOTATED)
        snprintf(expr, sizeof expr, "x\xcc\x82 = (%s%s\xce\xbc)/(\xcf\x83+\xce\xb5)", in,
                 sym(o, AS_SYM_MINUS));
    else
        snprintf(expr, sizeof expr, "x\xcc\x82 = (%s%s\xce\xbc)/%s(\xcf\x83\xc2\xb2+\xce\xb5)",
                 in, sym(o, AS_SYM_MINUS), root);
    cap = norm_captions(nt, p, o);
    fold(expr, sizeof expr, o);
    table(out, expr, &nt->xhat, &cap, o);
    as_block_free(&cap);
    if (p->norm == AS_NORM_LAYER && p->norm_style == AS_NORM_TORCH && res->cols == 2)
        as_block_add(out, "%s", as_say(o, AS_MSG_BLK_WIDTH2));
    snprintf(expr, sizeof expr, p->norm == AS_NORM_RMS ? "%s = \xce\xb3%sx\xcc\x82"
                                                       : "%s = \xce\xb3%sx\xcc\x82 + \xce\xb2",
             name, sym(o, AS_SYM_HADAMARD));
    fold(expr, sizeof expr, o);
    table(out, expr, res, NULL, o);
}

/* SUM = A + B, the residual, with its words. */
static void block_residual(as_block *out, const char *sum, const char *a, const char *b,
                     const as_matrix *m, as_table shown, const as_render_opts *o)
{
    char expr[64];

    if (!as_shows(o, shown))
        return;
    as_block_gap(out);
    as_block_add(out, as_say(o, AS_MSG_BLK_RESIDUAL), sum, a, b);
    snprintf(expr, sizeof expr, "%s = %s + %s", sum, a, b);
    table(out, expr, m, NULL, o);
}

/* The FFN on table `in`: its weights, U, (G,) F, D. */
static void block_ffn(as_block *out, const char *in, const as_block_trace *b, const as_problem *p,
                const as_render_opts *o)
{
    const char *act = as_block_act_name(p), *dot = sym(o, AS_SYM_HADAMARD);
    char expr[96];

    static const as_table t[] = {AS_T_U, AS_T_G, AS_T_F, AS_T_D};

    if (!shows_any(o, t, sizeof t / sizeof t[0]))
        return;
    as_block_gap(out);
    as_block_add(out, as_say(o, AS_MSG_BLK_FFN), in, p->d_ff, act);
    if (as_shows(o, AS_T_W)) {
        table(out, "Wup", p->Wup, NULL, o);
        if (p->bup != NULL)
            table(out, "bup", p->bup, NULL, o);
        if (p->Wgate != NULL)
            table(out, "Wgate", p->Wgate, NULL, o);
        table(out, "Wdown", p->Wdown, NULL, o);
        if (p->bdown != NULL)
            table(out, "bdown", p->bdown, NULL, o);
    }
    snprintf(expr, sizeof expr, "U = %s @ Wup%s", in, p->bup ? " + bup" : "");
    if (as_shows(o, AS_T_U))
        table(out, expr, &b->U, NULL, o);
    snprintf(expr, sizeof expr, "G = SiLU(%s @ Wgate)", in);
    if (b->G.v != NULL && as_shows(o, AS_T_G))
        table(out, expr, &b->G, NULL, o);
    if (p->ffn == AS_FFN_SWIGLU)
        snprintf(expr, sizeof expr, "F = G %s U", dot);
    else
        snprintf(expr, sizeof expr, "F = %s(U)", act);
    if (as_shows(o, AS_T_F))
        table(out, expr, &b->F, NULL, o);
    snprintf(expr, sizeof expr, "D = F @ Wdown%s", p->bdown ? " + bdown" : "");
    if (as_shows(o, AS_T_D))
        table(out, expr, &b->D, NULL, o);
}

static void block_begin(as_block *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o)
{
    const as_block_trace *b = t->block;

    if (b == NULL || p->block != AS_BLOCK_PRE || !as_shows(o, AS_T_N1))
        return;
    norm_table(out, "N1", "X", &b->N1, &b->norm1, NORM1, p, o);
}

/* Y: normf of the last table when lnf is given, else that table itself. */
static void block_output(as_block *out, const char *last, const as_block_trace *b,
                   const as_problem *p, const as_render_opts *o)
{
    if (!as_shows(o, AS_T_Y))
        return;
    if (p->final_norm) {
        norm_table(out, "Y", last, &b->Y, &b->normf, NORMF, p, o);
        return;
    }
    as_block_gap(out);
    as_block_add(out, as_say(o, AS_MSG_BLK_OUTPUT), last);
}

/* Nonzero when any of the block's tables after the attention is to be shown. */
static int shows_block(const as_render_opts *o)
{
    static const as_table t[] = {AS_T_H1, AS_T_N2, AS_T_U, AS_T_G, AS_T_F, AS_T_D, AS_T_H2, AS_T_Y};

    return shows_any(o, t, sizeof t / sizeof t[0]);
}

static void block_rest(as_block *out, const as_problem *p, const as_trace *t,
                        const as_render_opts *o)
{
    const as_block_trace *b = t->block;
    const int none = p->ffn == AS_FFN_NONE;

    if (b == NULL || !shows_block(o))
        return;
    as_block_gap(out);
    as_block_add(out, "%s", as_say(o, p->block == AS_BLOCK_PRE ? AS_MSG_BLK_TITLE_PRE
                                                                : AS_MSG_BLK_TITLE_POST));
    if (p->block == AS_BLOCK_PRE) {
        block_residual(out, "H1", "X", "O", &b->H1, AS_T_H1, o);
        if (!none) {
            if (as_shows(o, AS_T_N2))
                norm_table(out, "N2", "H1", &b->N2, &b->norm2, NORM2, p, o);
            block_ffn(out, "N2", b, p, o);
            block_residual(out, "H2", "H1", "D", &b->H2, AS_T_H2, o);
        }
    } else {
        block_residual(out, "R1", "X", "O", &b->R1, AS_T_H1, o);
        if (as_shows(o, AS_T_H1))
            norm_table(out, "H1", "R1", &b->H1, &b->norm1, NORM1, p, o);
        if (!none) {
            block_ffn(out, "H1", b, p, o);
            block_residual(out, "R2", "H1", "D", &b->R2, AS_T_H2, o);
            if (as_shows(o, AS_T_H2))
                norm_table(out, "H2", "R2", &b->H2, &b->norm2, NORM2, p, o);
        }
    }
    block_output(out, none ? "H1" : "H2", b, p, o);
}

static void block_formula(as_block *out, const as_problem *p, const as_render_opts *o)
{
    const char *norm = p->norm == AS_NORM_NONE ? "" : as_block_norm_name(p);
    const char *l = p->norm == AS_NORM_NONE ? "" : "(", *r = p->norm == AS_NORM_NONE ? "" : ")";
    char up[96];

    if (p->block == AS_BLOCK_NONE)
        return;
    if (p->ffn == AS_FFN_SWIGLU)
        snprintf(up, sizeof up, "(SiLU(%sWgate) %s %sWup)Wdown", p->block == AS_BLOCK_PRE ? "N2" : "H1",
                 sym(o, AS_SYM_HADAMARD), p->block == AS_BLOCK_PRE ? "N2" : "H1");
    else
        snprintf(up, sizeof up, "%s(%sWup%s)Wdown%s", as_block_act_name(p),
                 p->block == AS_BLOCK_PRE ? "N2" : "H1", p->bup ? " + bup" : "",
                 p->bdown ? " + bdown" : "");
    if (p->block == AS_BLOCK_PRE) {
        as_block_add(out, "N1 = %s%sX%s, H1 = X + O", norm, l, r);
        if (p->ffn != AS_FFN_NONE)
            as_block_add(out, "N2 = %s%sH1%s, D = %s, H2 = H1 + D", norm, l, r, up);
    } else {
        as_block_add(out, "H1 = %s%sX + O%s", norm, l, r);
        if (p->ffn != AS_FFN_NONE)
            as_block_add(out, "D = %s, H2 = %s%sH1 + D%s", up, norm, l, r);
    }
    if (p->final_norm)
        as_block_add(out, "Y = %s(%s)", norm, p->ffn == AS_FFN_NONE ? "H1" : "H2");
}

/* ---- sections, in the chapter's order ---- */

/* "X = E[ids] + P[0:3]" (or "X = E[ids]") with ids:, else "X". */
static const char *x_expr(char *buf, size_t size, const as_problem *p)
{
    const as_embedding *emb = &p->in->emb;

    if (emb->ids == NULL)
        return "X";
    if (emb->context == 0)
        return "X = E[ids]";
    snprintf(buf, size, "X = E[ids] + P[0:%zu]", emb->count);
    return buf;
}

/* ids: the first step (SPEC §16, F05): the rows of E the ids take ("第0行：取E的第40行")
 * and the rows of P, with what E and P hold whole; their sum is X, shown next. */
static void embedding(as_block *out, const as_problem *p, const as_render_opts *o)
{
    const as_input *in = p->in;
    const as_embedding *emb = &in->emb;
    as_block cap = {0};
    char expr[48];
    size_t i;

    if (emb->ids == NULL)
        return;
    if (as_shows(o, AS_T_E)) {
        for (i = 0; i < emb->count; i++)
            as_block_add(&cap, as_say(o, AS_MSG_EMB_ROW), i, emb->ids[i]);
        table(out, "E = E[ids]", &in->mat[AS_E].m, &cap, o);
        as_block_free(&cap);
        as_block_add(out, as_say(o, AS_MSG_EMB_NOTE), emb->vocab, in->mat[AS_E].m.cols, emb->count);
    }
    if (emb->context > 0 && as_shows(o, AS_T_P)) {
        gap(out);
        for (i = 0; i < emb->count; i++)
            as_block_add(&cap, as_say(o, AS_MSG_EMB_POS_ROW), i, i);
        snprintf(expr, sizeof expr, "P = P[0:%zu]", emb->count);
        table(out, expr, &in->mat[AS_P].m, &cap, o);
        as_block_free(&cap);
        as_block_add(out, as_say(o, AS_MSG_EMB_P_NOTE), emb->context);
    }
    if (as_shows(o, AS_T_E) || (emb->context > 0 && as_shows(o, AS_T_P)))
        gap(out);
}

/* Nonzero when the attention reads N1, not X (block: pre). */
static int reads_n1(const as_problem *p, const as_trace *t)
{
    return t->block != NULL && p->block == AS_BLOCK_PRE;
}

static void inputs(as_block *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    as_block cap = row_captions(p->tokens, p->n, o);
    char expr[48];

    if (p->in->title != NULL)
        as_block_add(out, as_say(o, AS_MSG_TITLE), p->in->title);
    embedding(out, p, o);
    /* with pre, p->X is N1 (what the attention reads); the file's X comes first */
    table(out, x_expr(expr, sizeof expr, p), reads_n1(p, t) ? &p->in->mat[AS_X].m : p->X, &cap,
          o);
    as_block_free(&cap);
    as_block_add(out, as_say(o, AS_MSG_SHAPE_X), p->n, p->d_model);
    if (p->cross) {
        gap(out);
        cap = row_captions(p->kv_tokens, p->m, o);
        table(out, "Xkv", p->Xkv, &cap, o);
        as_block_free(&cap);
        as_block_add(out, as_say(o, AS_MSG_SHAPE_XKV), p->m, p->d_kv_model);
        as_block_add(out, "%s", as_say(o, AS_MSG_CROSS_NOTE));
    }
    block_begin(out, p, t, o);
}

/* positions: sinusoidal: PE (and PEkv), added to X (Xkv) before the projections; the
 * sums themselves are written out row by row in the trace. */
static void encodings(as_block *out, const as_problem *p, const as_trace *t,
                      const as_render_opts *o)
{
    const as_matrix *pe[] = {&t->PE, &t->PEkv};
    static const char *const name[] = {"PE", "PEkv"};
    as_block cap = {0};
    size_t k, i;

    for (k = 0; k < 2 && pe[k]->v != NULL && as_shows(o, AS_T_PE); k++) {
        gap(out);
        for (i = 0; i < pe[k]->rows; i++)
            as_block_add(&cap, as_say(o, AS_MSG_POS_PE_ROW), i, p->offset + i);
        table(out, name[k], pe[k], &cap, o);
        as_block_free(&cap);
        if (k == 0)
            as_block_add(out, as_say(o, AS_MSG_POS_PE_NOTE), p->d_model, p->d_model);
    }
}

/* positions: rope: the head's Q and K turned (Qr, Kr), with the rule under them. */
static void turned(as_block *out, const as_problem *p, const as_head_trace *h, size_t hd,
                   const as_render_opts *o)
{
    char qr[32], kr[32], q[32], k[32], expr[96], angle[64], theta[64];

    if (h->Qr.v == NULL || !(as_shows(o, AS_T_QR) || as_shows(o, AS_T_KR)))
        return;
    head_name(qr, sizeof qr, "Qr", p, hd, o);
    head_name(kr, sizeof kr, "Kr", p, hd, o);
    head_name(q, sizeof q, "Q", p, hd, o);
    head_name(k, sizeof k, "K", p, hd, o);
    gap(out);
    snprintf(expr, sizeof expr, "%s = RoPE(%s)", qr, q);
    if (as_shows(o, AS_T_QR))
        table(out, expr, &h->Qr, NULL, o);
    snprintf(expr, sizeof expr, "%s = RoPE(%s)", kr, k);
    if (as_shows(o, AS_T_KR))
        table(out, expr, &h->Kr, NULL, o);
    as_rope_formula(angle, theta, sizeof angle, p->rope_base, p->d_k, o->ascii);
    as_block_add(out, as_say(o, AS_MSG_POS_ROPE_NOTE), angle, theta,
                 as_say(o, p->rope == AS_ROPE_HALF ? AS_MSG_POS_ROPE_HALF : AS_MSG_POS_ROPE_INTER));
    if (p->offset != 0)
        as_block_add(out, as_say(o, AS_MSG_POS_OFFSET), p->offset);
}

/* positions: alibi: the head's bias B with its slope. */
static void alibi(as_block *out, const as_problem *p, const as_trace *t, size_t hd,
                  const as_render_opts *o)
{
    const as_head_trace *h = &t->head[hd];
    char b[32], slope[AS_NUM_BUF], rule[32];
    as_block cap = {0};

    if (p->positions != AS_POSITIONS_ALIBI || !as_shows(o, AS_T_B))
        return;
    head_name(b, sizeof b, "B", p, hd, o);
    gap(out);
    as_fmt_display(slope, sizeof slope, h->slope, 17, o->ascii);
    as_alibi_formula(rule, sizeof rule, -1, o->ascii);
    as_block_add(&cap, as_say(o, AS_MSG_POS_ALIBI_NOTE), rule, slope);
    head_table_of(out, b, p, t, hd, AS_T_B, NULL, o);
    as_block_append(out, &cap);
    as_block_free(&cap);
}

/* Writes the three tables one below the other, returning 1, when one of them alone is
 * wider than SIDE_BY_SIDE_MAX (Wq, Wk, Wv of a real model: they are then laid out once,
 * not once beside and again below); else writes nothing and returns 0. */
static int one_too_wide(as_block *out, const char *const name[3], const as_matrix *const m[3],
                        const as_render_opts *o)
{
    laid_table t[3];
    size_t i, k;

    for (i = 0; i < 3; i++) {
        const as_rows rows = as_rows_of(m[i]);
        lay_table(&t[i], name[i], &rows, o);
        if (table_width(&t[i]) > SIDE_BY_SIDE_MAX)
            break;
    }
    for (k = 0; k < 3 && k <= i; k++) {
        if (i < 3)
            put_table(out, &t[k], NULL);
        else
            drop_table(&t[k]);
    }
    for (k = i + 1; k < 3; k++)
        table(out, name[k], m[k], NULL, o);
    return i < 3;
}

/* Three tables side by side as the book prints Wq, Wk, Wv (and Q, K, V) when they fit,
 * else one below the other; gap spaces between them. */
static void three_beside(as_block *out, const char *const name[3], const as_matrix *const m[3],
                         size_t gap_width, const as_render_opts *o)
{
    as_block row = {0};
    size_t i, widest = 0;

    if (one_too_wide(out, name, m, o))
        return;
    for (i = 0; i < 3; i++) {
        as_block one = {0}, next;
        table(&one, name[i], m[i], NULL, o);
        next = as_block_beside(&row, &one, row.count ? gap_width : 0);
        as_block_free(&one);
        as_block_free(&row);
        row = next;
    }
    for (i = 0; i < row.count; i++)
        if (as_display_width(row.line[i]) > widest)
            widest = as_display_width(row.line[i]);
    if (widest <= SIDE_BY_SIDE_MAX)
        as_block_append(out, &row);
    else
        for (i = 0; i < 3; i++)
            table(out, name[i], m[i], NULL, o);
    as_block_free(&row);
}

/* Wq, Wk, Wv side by side, then the biases and Wo. */
static void weights(as_block *out, const as_problem *p, const as_render_opts *o)
{
    const as_matrix *w[] = {p->Wq, p->Wk, p->Wv, p->bq, p->bk, p->bv, p->Wo, p->bo};
    static const char *const name[] = {"Wq", "Wk", "Wv", "bq", "bk", "bv", "Wo", "bo"};
    size_t i;

    if (p->in->layout == AS_LAYOUT_TORCH)
        as_block_add(out, "%s", as_say(o, AS_MSG_LAYOUT_TORCH));
    three_beside(out, name, w, 4, o);
    for (i = 3; i < 8; i++)
        if (w[i] != NULL)
            table(out, name[i], w[i], NULL, o);
}

/* Q = X @ Wq (+ bq), K and V likewise. */
static void projections(as_block *out, const as_problem *p, const as_trace *t,
                        const as_render_opts *o)
{
    const as_matrix *res[] = {&t->Q, &t->K, &t->V};
    const as_matrix *bias[] = {p->bq, p->bk, p->bv};
    static const char *const what[] = {"Q", "K", "V"}, *const w[] = {"Wq", "Wk", "Wv"};
    static const as_table tab[] = {AS_T_Q, AS_T_K, AS_T_V};
    char expr[64];
    size_t i;

    if (o->qkv_beside && as_shows(o, AS_T_Q) && as_shows(o, AS_T_K) && as_shows(o, AS_T_V)) {
        three_beside(out, what, res, 8, o); /* the chapter's Q = … K = … V = … block */
        return;
    }
    for (i = 0; i < 3; i++) {
        if (!as_shows(o, tab[i]))
            continue;
        snprintf(expr, sizeof expr, "%s = %s @ %s%s%s", what[i],
                 p->positions == AS_POSITIONS_SINUSOIDAL ? (i && p->cross ? "(Xkv + PEkv)" : "(X + PE)")
                 : i && p->cross ? "Xkv" : reads_n1(p, t) ? "N1" : "X", w[i],
                 bias[i] ? " + b" : "", bias[i] ? w[i] + 1 : "");
        table(out, expr, res[i], NULL, o);
    }
}

/* "QKᵀ/√2" (or "QKᵀ×0.5" for a scale set by the input), with head subscripts. */
static void scaled_expr(char *buf, size_t size, const as_problem *p, size_t h,
                        const as_render_opts *o)
{
    char q[32], k[32], num[AS_NUM_BUF];

    head_name(q, sizeof q, "Q", p, h, o);
    head_name(k, sizeof k, "K", p, h, o);
    if (p->scale_auto) {
        snprintf(buf, size, o->ascii ? "%s%s%s/%s(%zu)" : "%s%s%s/%s%zu", q, k, sym(o, AS_SYM_T),
                 sym(o, AS_SYM_SQRT), p->d_k);
    } else {
        as_fmt_display(num, sizeof num, p->scale, o->digits, o->ascii);
        snprintf(buf, size, "%s%s%s%s%s", q, k, sym(o, AS_SYM_T), sym(o, AS_SYM_TIMES), num);
    }
}

/* "QKᵀ = QrKrᵀ": with RoPE the scores are the turned rows' dot products. */
static void rope_scores_expr(char *buf, size_t size, const as_problem *p, size_t h,
                             const as_render_opts *o)
{
    char q[32], k[32], qr[32], kr[32];

    head_name(q, sizeof q, "Q", p, h, o);
    head_name(k, sizeof k, "K", p, h, o);
    head_name(qr, sizeof qr, "Qr", p, h, o);
    head_name(kr, sizeof kr, "Kr", p, h, o);
    snprintf(buf, size, "%s%s%s = %s%s%s", q, k, sym(o, AS_SYM_T), qr, kr, sym(o, AS_SYM_T));
}

/* Nonzero when any table titled by a head is to be shown. */
static int shows_any_head_table(const as_render_opts *o)
{
    static const as_table t[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_M, AS_T_S, AS_T_A, AS_T_C};

    return shows_any(o, t, sizeof t / sizeof t[0]);
}

/* The mask M with, beside each row, which keys it may read. */
static void mask_table(as_block *out, const as_problem *p, const as_trace *t,
                       const as_render_opts *o)
{
    as_row_trace r = {0};
    as_block cap = {0};
    size_t i;

    for (i = 0; i < p->n; i++) {
        if (as_trace_row(&r, t, p, 0, i) != 0) {
            out->failed = 1;
            break;
        }
        mask_caption(&cap, p, r.M, i, o);
    }
    as_row_trace_free(&r);
    head_table_of(out, "M", p, t, 0, AS_T_M, &cap, o);
    as_block_free(&cap);
}

/* One head: (its Q, K, V slices), QKᵀ, M, S, A, O. */
static void head(as_block *out, const as_problem *p, const as_trace *t, size_t hd,
                 const as_render_opts *o)
{
    const as_head_trace *h = &t->head[hd];
    char q[32], k[32], v[32], a[32], oo[32], s[32], b[32], expr[256], sc[160];
    as_block cap = {0};

    head_name(q, sizeof q, "Q", p, hd, o);
    head_name(k, sizeof k, "K", p, hd, o);
    head_name(v, sizeof v, "V", p, hd, o);
    head_name(a, sizeof a, "A", p, hd, o);
    head_name(s, sizeof s, "S", p, hd, o);
    head_name(oo, sizeof oo, p->heads == 1 && p->Wo != NULL ? "C" : "O", p, hd, o);
    if (p->heads > 1 && shows_any_head_table(o)) {
        gap(out);
        if (p->kv_heads != p->heads)
            as_block_add(out, as_say(o, AS_MSG_HEAD_TITLE_GQA), hd, as_kv_head(p, hd), p->group);
        else
            as_block_add(out, as_say(o, AS_MSG_HEAD_TITLE), hd);
        if (o->qkv_beside) {
            const char *const names[] = {q, k, v};
            const as_matrix *const mats[] = {&h->Q, &h->K, &h->V};
            three_beside(out, names, mats, 8, o);
        }
        if (as_shows(o, AS_T_Q) && !o->qkv_beside)
            table(out, q, &h->Q, NULL, o);
        if (as_shows(o, AS_T_K) && !o->qkv_beside)
            table(out, k, &h->K, NULL, o);
        if (as_shows(o, AS_T_V) && !o->qkv_beside)
            table(out, v, &h->V, NULL, o);
    }
    turned(out, p, h, hd, o);
    if (as_shows(o, AS_T_QKT)) {
        gap(out);
        as_block_add(&cap, "%s", as_say(o, AS_MSG_QKT_ROWS));
        as_block_add(&cap, "%s", as_say(o, AS_MSG_QKT_COLS));
        snprintf(expr, sizeof expr, "%s%s%s", q, k, sym(o, AS_SYM_T));
        if (h->Qr.v != NULL)
            rope_scores_expr(expr, sizeof expr, p, hd, o);
        head_table_of(out, expr, p, t, hd, AS_T_QKT, &cap, o);
        as_block_free(&cap);
    }
    if (as_shows(o, AS_T_M) && hd == 0) {
        gap(out);
        mask_table(out, p, t, o);
    }
    alibi(out, p, t, hd, o);
    gap(out);
    scaled_expr(sc, sizeof sc, p, hd, o);
    head_name(b, sizeof b, " + B", p, hd, o);
    snprintf(expr, sizeof expr, "%s = %s%s + M", s, sc,
             p->positions == AS_POSITIONS_ALIBI ? b : "");
    if (as_shows(o, AS_T_S))
        head_table_of(out, expr, p, t, hd, AS_T_S, NULL, o);
    snprintf(expr, sizeof expr, "%s = %s", a, as_say(o, AS_MSG_SOFTMAX_ROWS));
    if (p->heads > 1)
        snprintf(expr, sizeof expr, "%s = softmax(%s)", a, s);
    if (as_shows(o, AS_T_A)) {
        head_table_of(out, expr, p, t, hd, AS_T_A, NULL, o);
        if (o->heatmap)
            heatmap(out, p, t, hd, o);
    }
    snprintf(expr, sizeof expr, "%s = %s%s", oo, a, v);
    if (as_shows(o, is_final_output(p) ? AS_T_O : AS_T_C))
        table(out, expr, &h->O, NULL, o);
}

/* The heads side by side (C) and the output projection, when there are any. */
static void output(as_block *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    as_text expr = {0};
    char sub[32];
    size_t h;

    if (is_final_output(p))
        return;
    as_text_addf(&expr, "C = [");
    for (h = 0; h < p->heads; h++) {
        head_name(sub, sizeof sub, "O", p, h, o);
        as_text_addf(&expr, "%s%s", h ? "|" : "", sub);
    }
    as_text_addf(&expr, "]");
    out->failed |= expr.failed;
    gap(out);
    if (p->heads > 1 && as_shows(o, AS_T_C))
        table(out, as_text_str(&expr), &t->C, NULL, o);
    as_text_free(&expr);
    if (p->Wo != NULL && as_shows(o, AS_T_O))
        table(out, p->bo ? "O = C @ Wo + bo" : "O = C @ Wo", &t->O, NULL, o);
    else if (as_shows(o, AS_T_O))
        table(out, "O = C", &t->O, NULL, o);
}

/* The chapter's closing formula: Q=XWq, K=XWk, V=XWv; O=softmax(QKᵀ/√d_k + M)V, with
 * what positions change: X + PE, RoPE's Qr and Kr, ALiBi's B. */
static void formula(as_block *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    const int sin_pe = p->positions == AS_POSITIONS_SINUSOIDAL;
    const int rope = p->positions == AS_POSITIONS_ROPE;
    const char *x = sin_pe ? "(X + PE)" : reads_n1(p, t) ? "N1" : "X", *hs = o->ascii ? "_h" : "\xe2\x82\x95";
    const char *src = p->cross ? (sin_pe ? "(Xkv + PEkv)" : "Xkv") : x;
    const char *r = rope ? "r" : "", *b = p->positions == AS_POSITIONS_ALIBI ? " + B" : "";
    char sc[64], num[AS_NUM_BUF];

    gap(out);
    as_fmt_display(num, sizeof num, p->scale, o->digits, o->ascii);
    if (p->scale_auto)
        snprintf(sc, sizeof sc, o->ascii ? "/%s(d_k)" : "/%sd_k", sym(o, AS_SYM_SQRT));
    else
        snprintf(sc, sizeof sc, "%s%s", sym(o, AS_SYM_TIMES), num);
    as_block_add(out, "Q = %sWq%s, K = %sWk%s, V = %sWv%s", x, p->bq ? " + bq" : "", src,
                 p->bk ? " + bk" : "", src, p->bv ? " + bv" : "");
    if (rope)
        as_block_add(out, "Qr = RoPE(Q), Kr = RoPE(K)");
    if (is_final_output(p)) {
        as_block_add(out, "O = softmax(Q%sK%s%s%s%s + M)V", r, r, sym(o, AS_SYM_T), sc, b);
        block_formula(out, p, o);
        return;
    }
    as_block_add(out, "head%s = softmax(Q%s%sK%s%s%s%s%s + M)V%s", hs, r, hs, r, hs,
                 sym(o, AS_SYM_T), sc, b, hs);
    as_block_add(out, "O = [head%s|head%s|%s]%s%s", o->ascii ? "_0" : "\xe2\x82\x80",
                 o->ascii ? "_1" : "\xe2\x82\x81", sym(o, AS_SYM_ELLIPSIS), p->Wo ? "Wo" : "",
                 p->bo ? " + bo" : "");
    block_formula(out, p, o);
}

int as_render_text(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    as_block b = as_block_stream(out); /* each table is written as soon as it is made */
    size_t h;
    int failed;

    if (as_shows(o, AS_T_X))
        inputs(&b, p, t, o); /* the embedding first, then X */
    else {
        embedding(&b, p, o);
        block_begin(&b, p, t, o);
    }
    encodings(&b, p, t, o);
    if (as_shows(o, AS_T_W)) {
        gap(&b);
        weights(&b, p, o);
    }
    gap(&b);
    projections(&b, p, t, o);
    for (h = 0; h < t->heads; h++)
        head(&b, p, t, h, o);
    output(&b, p, t, o);
    block_rest(&b, p, t, o);
    if (o->only == 0 || o->formula)
        formula(&b, p, t, o);
    if (t->out != NULL) { /* SPEC §19: after the layer, the head on its last row */
        const as_head_source src = as_head_source_of(p, t);
        as_render_head_tables(&b, p, t->out, &src, o);
    }
    failed = b.failed;
    as_block_free(&b);
    return failed || ferror(out) ? -1 : 0;
}

void as_text_table(as_block *out, const char *expr, const as_matrix *m, const as_block *captions,
                   const as_render_opts *o)
{
    table(out, expr, m, captions, o);
}

void as_text_table_rows(as_block *out, const char *expr, const as_rows *r,
                        const as_block *captions, const as_render_opts *o)
{
    table_rows(out, expr, r, captions, o);
}
