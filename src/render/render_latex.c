/* render_latex.c - `run --format latex`: each table as a bmatrix in display maths, a
 * fragment to paste into slides (needs only amsmath). Labels go in % comments, so the
 * fragment compiles without a CJK package. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BMATRIX_COLS 10 /* amsmath's default MaxMatrixCols */

typedef struct tex_doc {
    FILE *out;
    const as_render_opts *o;
} tex_doc;

/* The maths name: X_{kv}, W_q, b_o, QK^{\top}; with a head: A_{0}, Q_{0}K_{0}^{\top}. */
static void tex_name(char *buf, size_t size, const as_table_view *v)
{
    char sub[32] = "";
    const char *n = v->name;

    if (v->per_head)
        snprintf(sub, sizeof sub, "_{%zu}", v->head);
    if (v->kind == AS_T_QKT)
        snprintf(buf, size, "Q%sK%s^{\\top}", sub, sub);
    else if (strcmp(n, "Xkv") == 0)
        snprintf(buf, size, "X_{kv}");
    else if (strlen(n) == 2 && (n[0] == 'W' || n[0] == 'b'))
        snprintf(buf, size, "%c_%c", n[0], n[1]);
    else
        snprintf(buf, size, "%s%s", n, sub);
}

/* One cell: the display number, or -\infty for a masked one. */
static void tex_cell(FILE *out, double v, int digits)
{
    char buf[AS_NUM_BUF];

    if (isinf(v)) {
        fputs(v < 0 ? "-\\infty" : "\\infty", out);
        return;
    }
    as_fmt_display(buf, sizeof buf, v, digits, 1);
    fputs(buf, out);
}

static int tex_table(void *ctx, const as_table_view *v)
{
    const tex_doc *d = ctx;
    const int rounded = as_rows_rounded(&v->r, d->o->digits);
    char name[128];
    size_t i, j;

    if (rounded < 0)
        return -1;
    tex_name(name, sizeof name, v);
    as_view_comment(d->out, "%", v, d->o);
    if (v->r.cols > BMATRIX_COLS)
        fprintf(d->out, "\\setcounter{MaxMatrixCols}{%zu}\n", v->r.cols);
    fprintf(d->out, "\\[\n%s %s \\begin{bmatrix}\n", name, rounded ? "\\approx" : "=");
    for (i = 0; i < v->r.rows; i++) {
        const double *row = v->r.row(v->r.ctx, i);
        if (row == NULL)
            return -1;
        for (j = 0; j < v->r.cols; j++) {
            fputs(j ? " & " : "  ", d->out);
            tex_cell(d->out, row[j], d->o->digits);
        }
        fputs(i + 1 < v->r.rows ? " \\\\\n" : "\n", d->out);
    }
    fputs("\\end{bmatrix}\n\\]\n\n", d->out);
    return 0;
}

int as_render_latex(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    tex_doc d = {out, o};

    if (p->in->title != NULL)
        fprintf(out, "%% %s\n\n", p->in->title);
    if (as_each_table(p, t, o, tex_table, &d) != 0)
        return -1;
    return ferror(out) ? -1 : 0;
}
