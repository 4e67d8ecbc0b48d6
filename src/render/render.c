/* render.c - what every renderer shares: the table names, the --only choice, and what
 * the document formats (md, latex, csv) share: the walk over a run's tables in the
 * book's order, the ≈/= rule and the comment line that names a table's labels. */
#include "attnstep/render.h"
#include "attnstep/block.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>

#include <string.h>
#include <strings.h>

const char *as_table_name(as_table t)
{
    return as_tab_get(as_tab_of_table(t))->name;
}

/* The --only table named by s[0..len), in any case, or one of its spellings; -1 when
 * none. A name spelt exactly as a table's comes first: "F" is the block's F, though
 * "f" (the online softmax's rescale factor, no --only table) comes before it in any case. */
static int table_lookup(const char *s, size_t len)
{
    int t = as_tab_lookup(s, len, 0);

    if (t >= 0 && as_tab_table((as_tab)t) >= 0)
        return as_tab_table((as_tab)t);
    t = as_tab_lookup(s, len, 1);
    return t < 0 ? -1 : as_tab_table((as_tab)t);
}

int as_only_parse(const char *list, unsigned *only, const char **bad)
{
    return as_names_parse(list, table_lookup, only, bad);
}

int as_row_span(long row, size_t n, size_t *first, size_t *last)
{
    if (row < AS_ROW_ALL || n == 0 || (row >= 0 && (size_t)row >= n))
        return -1;
    *first = row == AS_ROW_ALL ? 0 : row == AS_ROW_LAST ? n - 1 : (size_t)row;
    *last = row == AS_ROW_ALL ? n - 1 : *first;
    return 0;
}

const char *as_say(const as_render_opts *o, as_msg m)
{
    return as_msg_text(o->lang, m);
}

int as_shows(const as_render_opts *o, as_table t)
{
    return o->only == 0 || (o->only & (1u << t)) != 0;
}

/* ---- the tables of a run, in the book's order ---- */

typedef struct walk {
    const as_render_opts *o;
    as_table_visit visit;
    void *ctx;
    int rc; /* nonzero once a visit asked to stop */
} walk;

static void show(walk *w, as_table_view v)
{
    if (w->rc == 0 && v.m != NULL && as_shows(w->o, v.kind)) {
        v.r = as_rows_of(v.m);
        w->rc = w->visit(w->ctx, &v);
    }
}

/* One of head hd's n x m tables: its rows as as_head_rows gives them (made again, one
 * at a time, for a rows trace). */
static void show_scores(walk *w, as_table_view v, const as_problem *p, const as_trace *t,
                        size_t hd)
{
    as_head_rows h;

    if (w->rc != 0 || !as_shows(w->o, v.kind))
        return;
    v.r = as_head_rows_open(&h, p, t, hd, v.kind);
    w->rc = w->visit(w->ctx, &v);
    as_head_rows_close(&h);
}

/* The block's weights and γ/β, as the file gives them (SPEC §15). */
static void walk_block_weights(walk *w, const as_problem *p)
{
    const as_matrix *m[] = {p->ln_g[0], p->ln_b[0], p->ln_g[1], p->ln_b[1], p->ln_g[2], p->ln_b[2],
                            p->Wup, p->bup, p->Wgate, p->Wdown, p->bdown};
    static const char *const name[] = {"ln1_g", "ln1_b", "ln2_g", "ln2_b", "lnf_g", "lnf_b",
                                       "Wup", "bup", "Wgate", "Wdown", "bdown"};
    size_t i;

    for (i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!(p->norm == AS_NORM_RMS && i < 6 && i % 2 == 1)) /* RMSNorm has no β */
            show(w, (as_table_view){AS_T_W, name[i], 0, 0, m[i], {0}, NULL, NULL});
}

/* X (and Xkv), then the weights and biases given; with block: pre the file's X, then
 * N1 (what the attention reads, p->X). */
static void walk_inputs(walk *w, const as_problem *p, const as_trace *t)
{
    const as_matrix *m[] = {p->Wq, p->Wk, p->Wv, p->bq, p->bk, p->bv, p->Wo, p->bo};
    static const char *const name[] = {"Wq", "Wk", "Wv", "bq", "bk", "bv", "Wo", "bo"};
    const int pre = t->block != NULL && p->block == AS_BLOCK_PRE;
    size_t i;

    show(w, (as_table_view){AS_T_X, "X", 0, 0, pre ? &p->in->mat[AS_X].m : p->X, {0}, p->tokens,
                            NULL});
    if (pre)
        show(w, (as_table_view){AS_T_N1, "N1", 0, 0, p->X, {0}, p->tokens, NULL});
    if (p->cross)
        show(w, (as_table_view){AS_T_X, "Xkv", 0, 0, p->Xkv, {0}, p->kv_tokens, NULL});
    for (i = 0; i < sizeof m / sizeof m[0]; i++)
        show(w, (as_table_view){AS_T_W, name[i], 0, 0, m[i], {0}, NULL, NULL});
    if (t->block != NULL)
        walk_block_weights(w, p);
}

/* One head: its Q, K, V slices (with several heads), QKT, M (once), S, A, O. */
static void walk_head(walk *w, const as_problem *p, const as_trace *t, size_t hd)
{
    const int many = p->heads > 1, final = p->heads == 1 && p->Wo == NULL;
    const char *const *tk = p->tokens, *const *kv = p->kv_tokens;
    const as_head_trace *h = &t->head[hd];

    if (many) {
        show(w, (as_table_view){AS_T_Q, as_table_name(AS_T_Q), 1, hd, &h->Q, {0}, tk, NULL});
        show(w, (as_table_view){AS_T_K, as_table_name(AS_T_K), 1, hd, &h->K, {0}, kv, NULL});
        show(w, (as_table_view){AS_T_V, as_table_name(AS_T_V), 1, hd, &h->V, {0}, kv, NULL});
    }
    show_scores(w, (as_table_view){AS_T_QKT, as_table_name(AS_T_QKT), many, hd, &h->QKT, {0}, tk, kv}, p, t, hd);
    if (hd == 0)
        show_scores(w, (as_table_view){AS_T_M, as_table_name(AS_T_M), 0, 0, &t->M, {0}, tk, kv}, p, t, 0);
    show_scores(w, (as_table_view){AS_T_S, as_table_name(AS_T_S), many, hd, &h->S, {0}, tk, kv}, p, t, hd);
    show_scores(w, (as_table_view){AS_T_A, as_table_name(AS_T_A), many, hd, &h->A, {0}, tk, kv}, p, t, hd);
    /* one head and Wo: the head's AV is C, the table Wo is applied to (O = C @ Wo) */
    show(w, (as_table_view){final ? AS_T_O : AS_T_C, as_table_name(many || final ? AS_T_O : AS_T_C),
                            many, hd, &h->O, {0}, tk, NULL});
}

/* The block's tables after the attention (SPEC §15): H1 N2 U G F D H2, and Y when lnf
 * makes it a table of its own; the ones the run made. */
static void walk_block(walk *w, const as_problem *p, const as_trace *t)
{
    size_t k;

    for (k = AS_T_H1; t->block != NULL && k <= AS_T_Y; k++) {
        const as_matrix *m = as_block_table(t->block, as_tab_of_table((as_table)k));
        if (m != NULL && (k != AS_T_Y || p->final_norm))
            show(w, (as_table_view){(as_table)k, as_table_name((as_table)k), 0, 0, m, {0},
                                    p->tokens, NULL});
    }
}

int as_each_table(const as_problem *p, const as_trace *t, const as_render_opts *o,
                  as_table_visit visit, void *ctx)
{
    walk w = {o, visit, ctx, 0};
    size_t h;

    walk_inputs(&w, p, t);
    show(&w, (as_table_view){AS_T_Q, "Q", 0, 0, &t->Q, {0}, p->tokens, NULL});
    show(&w, (as_table_view){AS_T_K, "K", 0, 0, &t->K, {0}, p->kv_tokens, NULL});
    show(&w, (as_table_view){AS_T_V, "V", 0, 0, &t->V, {0}, p->kv_tokens, NULL});
    for (h = 0; h < t->heads; h++)
        walk_head(&w, p, t, h);
    if (p->heads > 1 || p->Wo != NULL) { /* else the head's O was the output */
        if (p->heads > 1)
            show(&w, (as_table_view){AS_T_C, "C", 0, 0, &t->C, {0}, p->tokens, NULL});
        show(&w, (as_table_view){AS_T_O, "O", 0, 0, &t->O, {0}, p->tokens, NULL});
    }
    walk_block(&w, p, t);
    return w.rc;
}

int as_rows_rounded(const as_rows *r, int digits)
{
    char buf[AS_NUM_BUF];
    size_t i, j;

    for (i = 0; i < r->rows; i++) {
        const double *row = r->row(r->ctx, i);
        if (row == NULL)
            return -1;
        for (j = 0; j < r->cols; j++)
            if (as_fmt_display(buf, sizeof buf, row[j], digits, 1))
                return 1;
    }
    return 0;
}

/* ---- one head's n x m tables, a row at a time ---- */

static const double *head_row(void *ctx, size_t i)
{
    as_head_rows *h = ctx;

    if (as_trace_row(&h->r, h->t, h->p, h->hd, i) != 0)
        return NULL;
    switch (h->which) {
    case AS_T_QKT:
        return h->r.QKT;
    case AS_T_M:
        return h->r.M;
    case AS_T_B:
        return h->r.B;
    case AS_T_S:
        return h->r.S;
    default:
        return h->r.A;
    }
}

/* Table which of head hd as a full trace keeps it. */
static const as_matrix *head_matrix(const as_trace *t, size_t hd, as_table which)
{
    const as_head_trace *h = &t->head[hd];

    switch (which) {
    case AS_T_QKT:
        return &h->QKT;
    case AS_T_M:
        return &t->M;
    case AS_T_B:
        return &h->B;
    case AS_T_S:
        return &h->S;
    default:
        return &h->A;
    }
}

as_rows as_head_rows_open(as_head_rows *h, const as_problem *p, const as_trace *t, size_t hd,
                          as_table which)
{
    const as_rows none = {p->n, p->m, NULL, NULL, 0};

    *h = (as_head_rows){p, t, hd, which, {0}};
    if (!t->rows) {
        const as_matrix *m = head_matrix(t, hd, which);
        return m->v != NULL ? as_rows_of(m) : none;
    }
    if (which == AS_T_B && p->positions != AS_POSITIONS_ALIBI)
        return none;
    return (as_rows){p->n, p->m, head_row, h, 0};
}

void as_head_rows_close(as_head_rows *h)
{
    as_row_trace_free(&h->r);
}

int as_any_masked(const as_problem *p, const as_trace *t)
{
    as_head_rows hm;
    const as_rows M = as_head_rows_open(&hm, p, t, 0, AS_T_M);
    size_t i, j;
    int any = 0;

    for (i = 0; i < M.rows && !any; i++) {
        const double *row = M.row(M.ctx, i);
        if (row == NULL) {
            any = -1;
            break;
        }
        for (j = 0; j < M.cols; j++)
            any |= isinf(row[j]) != 0;
    }
    as_head_rows_close(&hm);
    return any;
}

int as_matrix_rounded(const as_matrix *m, int digits)
{
    char buf[AS_NUM_BUF];
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (as_fmt_display(buf, sizeof buf, m->v[i], digits, 1))
            return 1;
    return 0;
}

const char *as_axis_label(char *buf, size_t size, const char *const *labels, size_t i)
{
    if (labels != NULL)
        return labels[i];
    snprintf(buf, size, "%zu", i);
    return buf;
}

/* Writes count labels separated by spaces. */
static void label_list(FILE *out, const char *const *labels, size_t count)
{
    char num[32];
    size_t i;

    for (i = 0; i < count; i++)
        fprintf(out, "%s%s", i ? " " : "", as_axis_label(num, sizeof num, labels, i));
}

void as_view_comment(FILE *out, const char *mark, const as_table_view *v,
                     const as_render_opts *o)
{
    fprintf(out, "%s %s", mark, v->name);
    if (v->per_head) {
        fputs(" (", out);
        fprintf(out, as_msg_text(o->lang, AS_MSG_FMT_HEAD), v->head);
        fputc(')', out);
    }
    fputs("; ", out);
    fputs(as_msg_text(o->lang, AS_MSG_FMT_ROWS), out);
    label_list(out, v->rows, v->r.rows);
    fputs("; ", out);
    fputs(as_msg_text(o->lang, AS_MSG_FMT_COLS), out);
    label_list(out, v->cols, v->r.cols);
    fputc('\n', out);
}

/* ---- how long an output will be ---- */

struct count {
    const as_problem *p;
    const as_trace *t;
    size_t n;
};

/* Adds v's cells (a rows trace keeps no n x m table, but prints each [n,m]). */
static int count_cells(void *ctx, const as_table_view *v)
{
    struct count *c = ctx;

    c->n += v->r.rows * v->r.cols;
    return 0;
}

size_t as_numbers_estimate(const as_problem *p, const as_trace *t, const as_render_opts *o,
                           size_t walked_rows)
{
    /* a walked row: for each head and readable position its k, v, score, scaled score,
     * shifted score, exp and share, and the sums of its output; long lists are elided */
    const size_t dk = p->d_k < AS_EXPAND_MAX ? p->d_k : AS_EXPAND_MAX;
    const size_t dv = p->d_v < AS_EXPAND_MAX ? p->d_v : AS_EXPAND_MAX;
    struct count c = {p, t, 0};
    as_render_opts all = *o;

    if (walked_rows > 0)
        all.only = 0; /* trace ends with the whole-matrix form of every table */
    as_each_table(p, t, &all, count_cells, &c);
    return c.n + walked_rows * t->heads * p->m * (7 + dk + dv);
}

/* ---- the formulas that positions add (SPEC §12) ---- */

void as_rope_formula(char *angle, char *theta, size_t size, double base, size_t d_k, int ascii)
{
    char b[AS_NUM_BUF];

    as_fmt_display(b, sizeof b, base, 17, ascii);
    snprintf(angle, size, "%s", ascii ? "p*theta_i" : "p·θᵢ");
    snprintf(theta, size, ascii ? "theta_i = %s^(-2i/%zu)" : "θᵢ = %s^(−2i/%zu)", b, d_k);
}

void as_alibi_formula(char *buf, size_t size, long row, int ascii)
{
    char i[24] = "i";

    if (row >= 0)
        snprintf(i, sizeof i, "%ld", row);
    snprintf(buf, size, ascii ? "-m*(%s-j)" : "−m·(%s−j)", i);
}

/* Writes s with XML's special characters escaped; control characters become '?'. */
void as_xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else
            fputc(c < 0x20 ? '?' : c, out);
    }
}

/* "A", "A₀" or "Q₀K₀ᵀ" (QKT with the head's subscript), "A[0]" with --ascii. */
void as_view_name(char *buf, size_t size, const as_table_view *v, const as_render_opts *o)
{
    char sub[32] = "";

    if (v->per_head)
        as_subscript(sub, sizeof sub, v->head, o->ascii);
    if (v->kind == AS_T_QKT)
        snprintf(buf, size, "Q%sK%s%s", sub, sub, as_sym_text(o->ascii, AS_SYM_T));
    else
        snprintf(buf, size, "%s%s", v->name, sub);
}
