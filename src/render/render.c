/* render.c - what every renderer shares: the table names, the --only choice, and what
 * the document formats (md, latex, csv) share: the walk over a run's tables in the
 * book's order, the ≈/= rule and the comment line that names a table's labels. */
#include "attnstep/render.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"

#include <stdio.h>

#include <string.h>
#include <strings.h>

static const char *const names[AS_T_COUNT] = {
    [AS_T_X] = "X", [AS_T_W] = "W", [AS_T_Q] = "Q", [AS_T_K] = "K", [AS_T_V] = "V",
    [AS_T_QKT] = "QKT", [AS_T_M] = "M", [AS_T_S] = "S", [AS_T_A] = "A", [AS_T_O] = "O",
    [AS_T_C] = "C", [AS_T_PE] = "PE", [AS_T_QR] = "Qr", [AS_T_KR] = "Kr", [AS_T_B] = "B",
};

const char *as_table_name(as_table t)
{
    return names[t];
}

/* The table named by s[0..len), accepting QKᵀ and QK^T for QKT; -1 when none. */
static int table_lookup(const char *s, size_t len)
{
    size_t t;

    if ((len == 5 && strncmp(s, "QK\xe1\xb5\x80", 5) == 0) || (len == 4 && strncasecmp(s, "QK^T", 4) == 0))
        return AS_T_QKT;
    for (t = 0; t < AS_T_COUNT; t++)
        if (strlen(names[t]) == len && strncasecmp(s, names[t], len) == 0)
            return (int)t;
    return -1;
}

int as_only_parse(const char *list, unsigned *only, const char **bad)
{
    const char *s = list;

    *only = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int t = table_lookup(s, len);
        if (t < 0) {
            *bad = s;
            return -1;
        }
        *only |= 1u << t;
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
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
    if (w->rc == 0 && v.m != NULL && as_shows(w->o, v.kind))
        w->rc = w->visit(w->ctx, &v);
}

/* X (and Xkv), then the weights and biases given. */
static void walk_inputs(walk *w, const as_problem *p)
{
    const as_matrix *m[] = {p->Wq, p->Wk, p->Wv, p->bq, p->bk, p->bv, p->Wo, p->bo};
    static const char *const name[] = {"Wq", "Wk", "Wv", "bq", "bk", "bv", "Wo", "bo"};
    size_t i;

    show(w, (as_table_view){AS_T_X, "X", 0, 0, p->X, p->tokens, NULL});
    if (p->cross)
        show(w, (as_table_view){AS_T_X, "Xkv", 0, 0, p->Xkv, p->kv_tokens, NULL});
    for (i = 0; i < sizeof m / sizeof m[0]; i++)
        show(w, (as_table_view){AS_T_W, name[i], 0, 0, m[i], NULL, NULL});
}

/* One head: its Q, K, V slices (with several heads), QKT, M (once), S, A, O. */
static void walk_head(walk *w, const as_problem *p, const as_trace *t, size_t hd)
{
    const int many = p->heads > 1, final = p->heads == 1 && p->Wo == NULL;
    const char *const *tk = p->tokens, *const *kv = p->kv_tokens;
    const as_head_trace *h = &t->head[hd];

    if (many) {
        show(w, (as_table_view){AS_T_Q, "Q", 1, hd, &h->Q, tk, NULL});
        show(w, (as_table_view){AS_T_K, "K", 1, hd, &h->K, kv, NULL});
        show(w, (as_table_view){AS_T_V, "V", 1, hd, &h->V, kv, NULL});
    }
    show(w, (as_table_view){AS_T_QKT, "QKT", many, hd, &h->QKT, tk, kv});
    if (hd == 0)
        show(w, (as_table_view){AS_T_M, "M", 0, 0, &t->M, tk, kv});
    show(w, (as_table_view){AS_T_S, "S", many, hd, &h->S, tk, kv});
    show(w, (as_table_view){AS_T_A, "A", many, hd, &h->A, tk, kv});
    /* one head and Wo: the head's AV is C, the table Wo is applied to (O = C @ Wo) */
    show(w, (as_table_view){final ? AS_T_O : AS_T_C, many || final ? "O" : "C", many, hd, &h->O, tk,
                            NULL});
}

int as_each_table(const as_problem *p, const as_trace *t, const as_render_opts *o,
                  as_table_visit visit, void *ctx)
{
    walk w = {o, visit, ctx, 0};
    size_t h;

    walk_inputs(&w, p);
    show(&w, (as_table_view){AS_T_Q, "Q", 0, 0, &t->Q, p->tokens, NULL});
    show(&w, (as_table_view){AS_T_K, "K", 0, 0, &t->K, p->kv_tokens, NULL});
    show(&w, (as_table_view){AS_T_V, "V", 0, 0, &t->V, p->kv_tokens, NULL});
    for (h = 0; h < t->heads; h++)
        walk_head(&w, p, t, h);
    if (p->heads > 1 || p->Wo != NULL) { /* else the head's O was the output */
        if (p->heads > 1)
            show(&w, (as_table_view){AS_T_C, "C", 0, 0, &t->C, p->tokens, NULL});
        show(&w, (as_table_view){AS_T_O, "O", 0, 0, &t->O, p->tokens, NULL});
    }
    return w.rc;
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
    label_list(out, v->rows, v->m->rows);
    fputs("; ", out);
    fputs(as_msg_text(o->lang, AS_MSG_FMT_COLS), out);
    label_list(out, v->cols, v->m->cols);
    fputc('\n', out);
}

/* ---- how long an output will be ---- */

struct count {
    const as_problem *p;
    const as_trace *t;
    size_t n;
};

/* Adds v's cells; a rows trace keeps no n x m table, but prints each [n,m]. */
static int count_cells(void *ctx, const as_table_view *v)
{
    struct count *c = ctx;
    const int scores = v->kind == AS_T_QKT || v->kind == AS_T_M || v->kind == AS_T_S ||
                       v->kind == AS_T_A;

    c->n += scores && c->t->rows ? c->p->n * c->p->m : v->m->rows * v->m->cols;
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
