/* render_md.c - `run --format md`: a Markdown table per table, for notes. Also home of
 * what the document formats (md, latex, csv) share: the walk over a run's tables in the
 * book's order, the ≈/= rule and the comment line that names a table's labels. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void walk_head(walk *w, const as_problem *p, const as_head_trace *h, size_t hd)
{
    const int many = p->heads > 1, final = p->heads == 1 && p->Wo == NULL;
    const char *const *tk = p->tokens, *const *kv = p->kv_tokens;

    if (many) {
        show(w, (as_table_view){AS_T_Q, "Q", 1, hd, &h->Q, tk, NULL});
        show(w, (as_table_view){AS_T_K, "K", 1, hd, &h->K, kv, NULL});
        show(w, (as_table_view){AS_T_V, "V", 1, hd, &h->V, kv, NULL});
    }
    show(w, (as_table_view){AS_T_QKT, "QKT", many, hd, &h->QKT, tk, kv});
    if (hd == 0)
        show(w, (as_table_view){AS_T_M, "M", 0, 0, &p->M, tk, kv});
    show(w, (as_table_view){AS_T_S, "S", many, hd, &h->S, tk, kv});
    show(w, (as_table_view){AS_T_A, "A", many, hd, &h->A, tk, kv});
    show(w, (as_table_view){final ? AS_T_O : AS_T_C, "O", many, hd, &h->O, tk, NULL});
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
        walk_head(&w, p, &t->head[h], h);
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

/* labels[i], or i itself (in buf) when the axis is numbered. */
static const char *label(char *buf, size_t size, const char *const *labels, size_t i)
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
        fprintf(out, "%s%s", i ? " " : "", label(num, sizeof num, labels, i));
}

void as_view_comment(FILE *out, const char *mark, const as_table_view *v,
                     const as_render_opts *o)
{
    fprintf(out, "%s %s", mark, v->name);
    if (v->per_head) {
        fputs(" (", out);
        fprintf(out, as_msg_text(o->lang, MSG_FMT_HEAD), v->head);
        fputc(')', out);
    }
    fputs("; ", out);
    fputs(as_msg_text(o->lang, MSG_FMT_ROWS), out);
    label_list(out, v->rows, v->m->rows);
    fputs("; ", out);
    fputs(as_msg_text(o->lang, MSG_FMT_COLS), out);
    label_list(out, v->cols, v->m->cols);
    fputc('\n', out);
}

/* ---- Markdown ---- */

typedef struct md_doc {
    FILE *out;
    const as_render_opts *o;
} md_doc;

/* Characters Markdown would read as table or emphasis syntax. */
static int md_special(char c)
{
    return c != '\0' && strchr("|\\*_`", c) != NULL;
}

/* Writes s with its Markdown syntax characters escaped. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (md_special(*s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* Display width of s as md_text writes it. */
static size_t md_width(const char *s)
{
    size_t w = as_display_width(s);

    for (; *s; s++)
        w += md_special(*s) != 0;
    return w;
}

/* "A", "A₀" or "Q₀K₀ᵀ" (QKT with the head's subscript), "A[0]" with --ascii. */
static void md_name(char *buf, size_t size, const as_table_view *v, const as_render_opts *o)
{
    char sub[32] = "";

    if (v->per_head)
        as_subscript(sub, sizeof sub, v->head, o->ascii);
    if (strcmp(v->name, "QKT") == 0)
        snprintf(buf, size, "Q%sK%s%s", sub, sub, as_sym_text(o->ascii, SYM_T));
    else
        snprintf(buf, size, "%s%s", v->name, sub);
}

enum { MD_ESCAPE = 1, MD_LEFT = 2 };

/* One cell "| text " in width w: right-aligned unless MD_LEFT, escaped with MD_ESCAPE. */
static void md_cell(FILE *out, const char *s, size_t w, int how)
{
    const size_t have = how & MD_ESCAPE ? md_width(s) : as_display_width(s);
    const int pad = (int)(w > have ? w - have : 0);

    fprintf(out, "| %*s", how & MD_LEFT ? 0 : pad, "");
    if (how & MD_ESCAPE)
        md_text(out, s);
    else
        fputs(s, out);
    fprintf(out, "%*s ", how & MD_LEFT ? pad : 0, "");
}

/* Widths: [0] the row labels, [1 + j] column j (its label and its cells). */
static void md_widths(size_t *w, const as_table_view *v, const as_render_opts *o)
{
    char buf[AS_NUM_BUF];
    size_t i, j;

    w[0] = 3; /* room for the rule "---" */
    for (i = 0; i < v->m->rows; i++) {
        const char *s = label(buf, sizeof buf, v->rows, i);
        if (md_width(s) > w[0])
            w[0] = md_width(s);
    }
    for (j = 0; j < v->m->cols; j++) {
        w[1 + j] = md_width(label(buf, sizeof buf, v->cols, j));
        for (i = 0; i < v->m->rows; i++) {
            as_fmt_display(buf, sizeof buf, AS_AT(*v->m, i, j), o->digits, o->ascii);
            if (as_display_width(buf) > w[1 + j])
                w[1 + j] = as_display_width(buf);
        }
        if (w[1 + j] < 3)
            w[1 + j] = 3; /* room for the rule "--:" */
    }
}

/* The header (column labels) and the rule that right-aligns the number columns. */
static void md_header(FILE *out, const as_table_view *v, const size_t *w)
{
    char buf[32];
    size_t j, k;

    md_cell(out, "", w[0], MD_LEFT);
    for (j = 0; j < v->m->cols; j++)
        md_cell(out, label(buf, sizeof buf, v->cols, j), w[1 + j], MD_ESCAPE);
    fputs("|\n", out);
    for (j = 0; j <= v->m->cols; j++) {
        fputs("| ", out);
        for (k = 1; k < w[j]; k++)
            fputc('-', out);
        fputs(j > 0 ? ": " : "- ", out); /* the number columns align right */
    }
    fputs("|\n", out);
}

static int md_table(void *ctx, const as_table_view *v)
{
    const md_doc *d = ctx;
    size_t *w = calloc(v->m->cols + 1, sizeof *w), i, j;
    char name[128], buf[AS_NUM_BUF];

    if (w == NULL)
        return -1;
    md_widths(w, v, d->o);
    md_name(name, sizeof name, v, d->o);
    fprintf(d->out, "**%s** %s\n\n", name,
            as_matrix_rounded(v->m, d->o->digits) ? as_sym_text(d->o->ascii, SYM_APPROX) : "=");
    md_header(d->out, v, w);
    for (i = 0; i < v->m->rows; i++) {
        md_cell(d->out, label(buf, sizeof buf, v->rows, i), w[0], MD_ESCAPE | MD_LEFT);
        for (j = 0; j < v->m->cols; j++) {
            as_fmt_display(buf, sizeof buf, AS_AT(*v->m, i, j), d->o->digits, d->o->ascii);
            md_cell(d->out, buf, w[1 + j], 0);
        }
        fputs("|\n", d->out);
    }
    fputc('\n', d->out);
    free(w);
    return 0;
}

int as_render_md(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    md_doc d = {out, o};

    if (p->in->title != NULL) {
        fputs("# ", out);
        md_text(out, p->in->title);
        fputs("\n\n", out);
    }
    if (as_each_table(p, t, o, md_table, &d) != 0)
        return -1;
    return ferror(out) ? -1 : 0;
}
