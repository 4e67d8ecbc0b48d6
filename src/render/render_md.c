/* render_md.c - `run --format md`: a Markdown table per table, for notes. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void as_md_text(FILE *out, const char *s)
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

enum { MD_ESCAPE = 1, MD_LEFT = 2 };

/* One cell "| text " in width w: right-aligned unless MD_LEFT, escaped with MD_ESCAPE. */
static void md_cell(FILE *out, const char *s, size_t w, int how)
{
    const size_t have = how & MD_ESCAPE ? md_width(s) : as_display_width(s);
    const int pad = (int)(w > have ? w - have : 0);

    fprintf(out, "| %*s", how & MD_LEFT ? 0 : pad, "");
    if (how & MD_ESCAPE)
        as_md_text(out, s);
    else
        fputs(s, out);
    fprintf(out, "%*s ", how & MD_LEFT ? pad : 0, "");
}

/* Widths: [0] the row labels, [1 + j] column j (its label and its cells). Returns 0, or
 * -1 when a row could not be had. */
static int md_widths(size_t *w, const as_table_view *v, const as_render_opts *o)
{
    char buf[AS_NUM_BUF];
    size_t i, j;

    w[0] = 3; /* room for the rule "---" */
    for (i = 0; i < v->r.rows; i++) {
        const char *s = as_axis_label(buf, sizeof buf, v->rows, i);
        if (md_width(s) > w[0])
            w[0] = md_width(s);
    }
    for (j = 0; j < v->r.cols; j++)
        w[1 + j] = md_width(as_axis_label(buf, sizeof buf, v->cols, j));
    for (i = 0; i < v->r.rows; i++) {
        const double *row = v->r.row(v->r.ctx, i);
        if (row == NULL)
            return -1;
        for (j = 0; j < v->r.cols; j++) {
            as_fmt_display(buf, sizeof buf, row[j], o->digits, o->ascii);
            if (as_display_width(buf) > w[1 + j])
                w[1 + j] = as_display_width(buf);
        }
    }
    for (j = 0; j < v->r.cols; j++)
        if (w[1 + j] < 3)
            w[1 + j] = 3; /* room for the rule "--:" */
    return 0;
}

/* The header (column labels) and the rule that right-aligns the number columns. */
static void md_header(FILE *out, const as_table_view *v, const size_t *w)
{
    char buf[32];
    size_t j, k;

    md_cell(out, "", w[0], MD_LEFT);
    for (j = 0; j < v->r.cols; j++)
        md_cell(out, as_axis_label(buf, sizeof buf, v->cols, j), w[1 + j], MD_ESCAPE);
    fputs("|\n", out);
    for (j = 0; j <= v->r.cols; j++) {
        fputs("| ", out);
        for (k = 1; k < w[j]; k++)
            fputc('-', out);
        fputs(j > 0 ? ": " : "- ", out); /* the number columns align right */
    }
    fputs("|\n", out);
}

/* The rows of v under its header. Returns 0, or -1 when a row could not be had. */
static int md_rows(const md_doc *d, const as_table_view *v, const size_t *w)
{
    char buf[AS_NUM_BUF];
    size_t i, j;

    for (i = 0; i < v->r.rows; i++) {
        const double *row = v->r.row(v->r.ctx, i);
        if (row == NULL)
            return -1;
        md_cell(d->out, as_axis_label(buf, sizeof buf, v->rows, i), w[0], MD_ESCAPE | MD_LEFT);
        for (j = 0; j < v->r.cols; j++) {
            as_fmt_display(buf, sizeof buf, row[j], d->o->digits, d->o->ascii);
            md_cell(d->out, buf, w[1 + j], 0);
        }
        fputs("|\n", d->out);
    }
    return 0;
}

static int md_table(void *ctx, const as_table_view *v)
{
    const md_doc *d = ctx;
    size_t *w = calloc(v->r.cols + 1, sizeof *w);
    char name[128];
    int rounded = -1, rc = -1;

    if (w == NULL)
        return -1;
    if (md_widths(w, v, d->o) != 0 || (rounded = as_rows_rounded(&v->r, d->o->digits)) < 0)
        goto done;
    as_view_name(name, sizeof name, v, d->o);
    fprintf(d->out, "**%s** %s\n\n", name,
            rounded ? as_sym_text(d->o->ascii, AS_SYM_APPROX) : "=");
    md_header(d->out, v, w);
    if (md_rows(d, v, w) != 0)
        goto done;
    fputc('\n', d->out);
    rc = 0;
done:
    free(w);
    return rc;
}

int as_render_md(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    md_doc d = {out, o};

    if (p->in->title != NULL) {
        fputs("# ", out);
        as_md_text(out, p->in->title);
        fputs("\n\n", out);
    }
    if (as_each_table(p, t, o, md_table, &d) != 0)
        return -1;
    return ferror(out) ? -1 : 0;
}
