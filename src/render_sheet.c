/* render_sheet.c - worksheets (SPEC §7), Markdown or a standalone LaTeX document, in the
 * chosen language: a name line, the instructions, the given tables laid out compactly,
 * an empty grid labelled with the tokens for each table to fill, and on a new page the
 * key: every table, and the walk-through row set as mathematics. Every number comes
 * from the trace; every word from the message table. */
#include "attnstep/sheet.h"
#include "attnstep/numfmt.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_BIT(t) (1u << (t))
#define MAX_ITEMS 64      /* tables on one page: far more than any sheet holds */
#define LINE_EM 44.0      /* the LaTeX text width (17 cm at 11 pt) in em */
#define GAP_EM 2.2        /* between two tables on a line (\qquad and a little) */
#define GRID_CELL_EM 3.4  /* an empty cell (2.8em) with its padding (\arraycolsep 3pt) */
#define EXP_PER_LINE 7    /* values in one line of the table of e^x */
#define TERMS_PER_LINE 3  /* terms of a written-out sum on one line of the key */

/* ------------------------------------------------------------------------------ */
/* Steps                                                                            */
/* ------------------------------------------------------------------------------ */

static const char *const step_names[AS_STEP_COUNT] = {"all", "project", "scores", "softmax",
                                                      "mix"};

int as_step_parse(const char *s, as_step *step)
{
    int i;

    for (i = 0; i < AS_STEP_COUNT; i++)
        if (strcmp(s, step_names[i]) == 0) {
            *step = (as_step)i;
            return 0;
        }
    return -1;
}

const char *as_step_name(as_step step)
{
    return step_names[step];
}

unsigned as_step_given(as_step step)
{
    static const unsigned given[AS_STEP_COUNT] = {
        T_BIT(AS_T_X) | T_BIT(AS_T_W) | T_BIT(AS_T_M), T_BIT(AS_T_X) | T_BIT(AS_T_W),
        T_BIT(AS_T_Q) | T_BIT(AS_T_K) | T_BIT(AS_T_M), T_BIT(AS_T_S),
        T_BIT(AS_T_A) | T_BIT(AS_T_V)};

    return given[step];
}

unsigned as_step_asked(as_step step)
{
    static const unsigned asked[AS_STEP_COUNT] = {
        T_BIT(AS_T_Q) | T_BIT(AS_T_K) | T_BIT(AS_T_V) | T_BIT(AS_T_QKT) | T_BIT(AS_T_S) |
            T_BIT(AS_T_A) | T_BIT(AS_T_O) | T_BIT(AS_T_C),
        T_BIT(AS_T_Q) | T_BIT(AS_T_K) | T_BIT(AS_T_V), T_BIT(AS_T_QKT) | T_BIT(AS_T_S),
        T_BIT(AS_T_A), T_BIT(AS_T_O) | T_BIT(AS_T_C)};

    return asked[step];
}

/* ------------------------------------------------------------------------------ */
/* Words                                                                            */
/* ------------------------------------------------------------------------------ */

typedef struct page {
    FILE *out;
    const as_sheet_opts *o;
    const as_sheet *s;
    int numbered;    /* nonzero: the tokens cannot be typeset (non-ASCII labels in an
                        English LaTeX sheet, which pdflatex alone cannot set): the
                        positions are labelled by their numbers */
} page;

static const char *msg(const page *pg, as_msg m)
{
    return as_msg_text(pg->o->lang, m);
}

/* A symbol in Markdown: Unicode, or its ASCII spelling with --ascii. */
static const char *sym(const page *pg, as_sym s)
{
    return as_sym_text(pg->o->ascii, s);
}

static int ascii_only(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* 1 when s starts with an opening curly quote “, 2 with a closing one ”, else 0. */
static int curly_quote(const char *s)
{
    if (strncmp(s, "\xe2\x80", 2) != 0)
        return 0;
    return s[2] == '\x9c' ? 1 : s[2] == '\x9d' ? 2 : 0;
}

/* Writes s as text of the page: LaTeX's special characters escaped (curly quotes as ``
 * '' for pdflatex), Markdown's table and emphasis characters escaped. */
static void put_text(const page *pg, const char *s)
{
    if (!pg->o->latex) {
        as_md_text(pg->out, s);
        return;
    }
    for (; *s; s++) {
        if (pg->o->lang == AS_LANG_EN && curly_quote(s)) {
            fputs(curly_quote(s) == 1 ? "``" : "''", pg->out);
            s += 2;
        } else if (strchr("&%$#_{}", *s) != NULL) {
            fprintf(pg->out, "\\%c", *s);
        } else if (strchr("~^\\", *s) != NULL) {
            fprintf(pg->out, "\\char%d{}", *s);
        } else {
            fputc(*s, pg->out);
        }
    }
}

/* Writes message m with its %s conversions filled by raw[] (text already in the page's
 * syntax: mathematics, lists of names), the message's own words escaped. */
static void say_raw(const page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    static const char *const mark[] = {"\x01", "\x02", "\x03"};
    char buf[1024], *p, *q;
    size_t k;

    snprintf(buf, sizeof buf, msg(pg, m), nraw > 0 ? mark[0] : "", nraw > 1 ? mark[1] : "",
             nraw > 2 ? mark[2] : "");
    for (p = buf; *p; p = q) {
        char c;
        for (q = p; *q && (unsigned char)*q > 3; q++)
            ;
        c = *q;
        *q = '\0';
        put_text(pg, p);
        *q = c;
        if (*q) {
            k = (size_t)(unsigned char)*q - 1;
            if (k < nraw)
                fputs(raw[k], pg->out);
            q++;
        }
    }
}

/* A position's label as the page can set it. */
static const char *label(const page *pg, char *buf, size_t size, const char *const *labels,
                         size_t i)
{
    return as_axis_label(buf, size, pg->numbered ? NULL : labels, i);
}

/* ------------------------------------------------------------------------------ */
/* Numbers                                                                          */
/* ------------------------------------------------------------------------------ */

/* A cell as the page shows it at places decimals: −∞ (md), -\infty (LaTeX). Returns
 * 1 when the value is shown rounded. */
static int num(const page *pg, char *buf, size_t size, double v, int places)
{
    int r;

    if (isinf(v)) {
        snprintf(buf, size, "%s", pg->o->latex ? (v < 0 ? "-\\infty" : "\\infty")
                                               : sym(pg, AS_SYM_NEG_INF));
        return 0;
    }
    r = as_fmt_display(buf, size, v, places, 1);
    return r;
}

/* The same, for mathematics (LaTeX in both formats: Markdown's $$ blocks take it). */
static int mnum(char *buf, size_t size, double v, int places)
{
    if (isinf(v)) {
        snprintf(buf, size, "%s", v < 0 ? "-\\infty" : "\\infty");
        return 0;
    }
    return as_fmt_display(buf, size, v, places, 1);
}

/* Before term k of a written-out sum: " + ", or after every TERMS_PER_LINE terms a new
 * line of the aligned block, indented, so that no line runs past the margin. */
static void plus(FILE *out, size_t k)
{
    if (k == 0)
        fputc(' ', out);
    else if (k % TERMS_PER_LINE == 0)
        fputs(" \\\\\n&\\qquad + ", out);
    else
        fputs(" + ", out);
}

/* A factor of a product: negative ones in parentheses, as the chapter writes them. */
static void factor(FILE *out, double v, int places)
{
    char buf[AS_NUM_BUF];

    mnum(buf, sizeof buf, v, places);
    fprintf(out, v < 0 ? "(%s)" : "%s", buf);
}

/* ------------------------------------------------------------------------------ */
/* The tables of a page                                                             */
/* ------------------------------------------------------------------------------ */

typedef struct item {
    as_table_view v;
    int empty;       /* nonzero: a grid to fill */
} item;

typedef struct items {
    item it[MAX_ITEMS];
    size_t count;
} items;

typedef struct gathering {
    const as_sheet *s;
    as_table_view *out;
    size_t count, max;
} gathering;

static int collect(void *ctx, const as_table_view *v)
{
    gathering *g = ctx;

    if (v->per_head && v->kind >= AS_T_Q && v->kind <= AS_T_V)
        return 0; /* several heads: the whole Q, K and V stand for their slices */
    if (v->kind == AS_T_M && g->s->p->mask == AS_MASK_NONE)
        return 0; /* a mask of zeros tells nothing */
    if (g->count < g->max)
        g->out[g->count++] = *v;
    return 0;
}

size_t as_sheet_tables(const as_sheet *s, unsigned want, as_table_view *out, size_t max)
{
    gathering g = {s, out, 0, max};
    as_render_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.digits = 10;
    ro.ascii = 1;
    ro.only = want;
    ro.row = -1;
    as_each_table(s->p, s->t, &ro, collect, &g);
    return g.count;
}

/* The tables of want, in the book's order, as grids (empty) or with their numbers. */
static void gather(items *l, const page *pg, unsigned want, int empty)
{
    as_table_view v[MAX_ITEMS];
    size_t k;

    l->count = as_sheet_tables(pg->s, want, v, MAX_ITEMS);
    for (k = 0; k < l->count; k++)
        l->it[k] = (item){v[k], empty};
}

/* The subscript of a head's table: "_{0}" (LaTeX) or "₀" (Markdown); "" for none. */
static void head_sub(const page *pg, char *buf, size_t size, const as_table_view *v)
{
    buf[0] = '\0';
    if (!v->per_head)
        return;
    if (pg->o->latex)
        snprintf(buf, size, "_{%zu}", v->head);
    else
        as_subscript(buf, size, v->head, pg->o->ascii);
}

/* The table's name (given tables and the key) or its formula (a grid to fill), in the
 * page's syntax: LaTeX mathematics, or Markdown text. */
static void item_name(const page *pg, char *buf, size_t size, const item *it)
{
    const as_problem *p = pg->s->p;
    const as_table_view *v = &it->v;
    const int tex = pg->o->latex;
    char h[32], sc[64];

    head_sub(pg, h, sizeof h, v);
    if (strcmp(v->name, "QKT") == 0 || (it->empty && v->kind == AS_T_S)) {
        char base[64];
        if (tex)
            snprintf(base, sizeof base, "Q%sK%s^{\\top}", h, h);
        else
            snprintf(base, sizeof base, "Q%sK%s%s", h, h, sym(pg, AS_SYM_T));
        if (v->kind != AS_T_S) {
            snprintf(buf, size, "%s", base);
            return;
        }
        if (p->scale_auto)
            snprintf(sc, sizeof sc, "/%s%zu%s",
                     tex ? "\\sqrt{" : pg->o->ascii ? "sqrt(" : sym(pg, AS_SYM_SQRT), p->d_k,
                     tex ? "}" : pg->o->ascii ? ")" : "");
        else
            snprintf(sc, sizeof sc, "%s%.6g", tex ? "\\cdot " : sym(pg, AS_SYM_DOT), p->scale);
        snprintf(buf, size, "S%s = %s%s%s", h, base, sc, p->mask == AS_MASK_NONE ? "" : " + M");
        return;
    }
    if (!it->empty || v->kind == AS_T_X || v->kind == AS_T_W || v->kind == AS_T_M) {
        if (tex && strlen(v->name) == 2 && (v->name[0] == 'W' || v->name[0] == 'b'))
            snprintf(buf, size, "%c_%c", v->name[0], v->name[1]);
        else if (tex && strcmp(v->name, "Xkv") == 0)
            snprintf(buf, size, "X_{kv}");
        else
            snprintf(buf, size, "%s%s", v->name, h);
        return;
    }
    switch (v->kind) {
    case AS_T_Q: case AS_T_K: case AS_T_V: {
        const char x = v->name[0], w = (char)(x - 'A' + 'a');
        const char *src = p->cross && x != 'Q' ? (tex ? "X_{kv}" : "Xkv") : "X";
        if (tex)
            snprintf(buf, size, "%c = %sW_%c", x, src, w);
        else
            snprintf(buf, size, "%c = %s%sW%c", x, src, sym(pg, AS_SYM_DOT), w);
        return;
    }
    case AS_T_A:
        if (v->per_head || tex)
            snprintf(buf, size, tex ? "A%s = \\operatorname{softmax}(S%s)" : "A%s = softmax(S%s)",
                     h, h);
        else
            snprintf(buf, size, "A = %s", msg(pg, AS_MSG_SOFTMAX_ROWS));
        return;
    default: /* O of a head, C, or the final O */
        if (strcmp(v->name, "C") == 0)
            snprintf(buf, size, tex ? "C = [O_{0}\\,|\\,\\cdots]" : "C = [O0|%s]",
                     sym(pg, AS_SYM_ELLIPSIS));
        else if (v->kind == AS_T_O && (p->heads > 1 || p->Wo != NULL))
            snprintf(buf, size, tex ? "O = CW_o" : "O = C%sWo", tex ? "" : sym(pg, AS_SYM_DOT));
        else
            snprintf(buf, size, "O%s = A%sV%s", h, h, h);
        return;
    }
}

/* ---- one table in LaTeX: its name above, then the table ---- */

/* Text in \text{} (a label): escaped. */
static void tex_label(const page *pg, const char *s)
{
    fputs("\\text{", pg->out);
    put_text(pg, s);
    fputc('}', pg->out);
}

/* The header row of column labels, over an empty corner. */
static void tex_header(const page *pg, const as_table_view *v, int grid)
{
    char buf[32];
    size_t j;

    fputs(grid ? "\\multicolumn{1}{c}{}" : "", pg->out);
    for (j = 0; j < v->m->cols; j++) {
        fputs(grid ? " & \\multicolumn{1}{c}{" : " & ", pg->out);
        tex_label(pg, label(pg, buf, sizeof buf, v->cols, j));
        fputs(grid ? "}" : "", pg->out);
    }
    fprintf(pg->out, grid ? " \\\\ \\cline{2-%zu}\n" : " \\\\ \\hline\n", v->m->cols + 1);
}

/* An empty grid: boxed cells wide and tall enough to write a number in. */
static void tex_grid(const page *pg, const as_table_view *v)
{
    char buf[32];
    size_t i, j;

    fputs("\\begin{array}{r|", pg->out);
    for (j = 0; j < v->m->cols; j++)
        fputs("c|", pg->out);
    fputs("}\n", pg->out);
    tex_header(pg, v, 1);
    for (i = 0; i < v->m->rows; i++) {
        tex_label(pg, label(pg, buf, sizeof buf, v->rows, i));
        for (j = 0; j < v->m->cols; j++)
            fputs(" & \\hspace{2.8em}", pg->out);
        fprintf(pg->out, "\\rule[-1.6ex]{0pt}{5ex} \\\\ \\cline{2-%zu}\n", v->m->cols + 1);
    }
    fputs("\\end{array}", pg->out);
}

/* Nonzero when a table of numbers shows its column numbers: a table of the run (Q ...
 * O) always does, as its grid did; the input X does not (its columns are features). */
static int it_has_header(const as_table_view *v)
{
    return v->kind != AS_T_X;
}

/* A table of numbers: a bmatrix, or with token labels an array with them on its edges. */
static void tex_values(const page *pg, const as_table_view *v)
{
    const int rows = v->rows != NULL, cols = v->cols != NULL;
    char buf[AS_NUM_BUF];
    size_t i, j;

    if (!rows && !cols) {
        fputs("\\begin{bmatrix}\n", pg->out);
    } else {
        fprintf(pg->out, "\\begin{array}{%s", rows ? "r|" : "");
        for (j = 0; j < v->m->cols; j++)
            fputc('r', pg->out);
        fputs("}\n", pg->out);
        if (cols || it_has_header(v))
            tex_header(pg, v, 0);
    }
    for (i = 0; i < v->m->rows; i++) {
        if (rows)
            tex_label(pg, label(pg, buf, sizeof buf, v->rows, i));
        for (j = 0; j < v->m->cols; j++) {
            num(pg, buf, sizeof buf, AS_AT(*v->m, i, j), pg->o->key_places);
            fprintf(pg->out, "%s%s", j || rows ? " & " : "", buf);
        }
        fputs(i + 1 < v->m->rows ? " \\\\\n" : "\n", pg->out);
    }
    fputs(!rows && !cols ? "\\end{bmatrix}" : "\\end{array}", pg->out);
}

static void tex_item(const page *pg, const item *it)
{
    char name[160];

    item_name(pg, name, sizeof name, it);
    fprintf(pg->out, "\\begin{array}[t]{@{}c@{}}\n%s%s \\\\[3pt]\n", name,
            it->empty ? "" : as_matrix_rounded(it->v.m, pg->o->key_places) ? " \\approx" : " =");
    if (it->empty)
        tex_grid(pg, &it->v);
    else
        tex_values(pg, &it->v);
    fputs("\n\\end{array}", pg->out);
}

/* About how wide the item is set, in em: what decides how many share a line. */
static double item_em(const page *pg, const item *it)
{
    const as_table_view *v = &it->v;
    char buf[AS_NUM_BUF];
    double lab = 0, cell = 0, w;
    size_t i;

    for (i = 0; v->rows != NULL && i < v->m->rows; i++) {
        double e = 0.5 * (double)as_display_width(label(pg, buf, sizeof buf, v->rows, i)) + 0.6;
        lab = e > lab ? e : lab;
    }
    for (i = 0; i < v->m->cols && v->cols != NULL; i++) {
        double e = 0.5 * (double)as_display_width(label(pg, buf, sizeof buf, v->cols, i)) + 0.6;
        cell = e > cell ? e : cell;
    }
    if (it->empty) {
        cell = cell > GRID_CELL_EM ? cell : GRID_CELL_EM;
    } else {
        for (i = 0; i < v->m->rows * v->m->cols; i++) {
            double e;
            num(pg, buf, sizeof buf, v->m->v[i], pg->o->key_places);
            e = 0.5 * (double)strlen(buf) + 0.6;
            cell = e > cell ? e : cell;
        }
    }
    w = lab + cell * (double)v->m->cols + 0.5;
    return w < 6 ? 6 : w; /* the name above sets a minimum */
}

/* The items, as many to a line as fit the text width. */
static void tex_items(const page *pg, const item *it, size_t count)
{
    size_t i = 0, j;

    while (i < count) {
        double used = item_em(pg, &it[i]);
        for (j = i + 1; j < count && used + GAP_EM + item_em(pg, &it[j]) <= LINE_EM; j++)
            used += GAP_EM + item_em(pg, &it[j]);
        fputs("\\[\n", pg->out);
        for (; i < j; i++) {
            tex_item(pg, &it[i]);
            fputs(i + 1 < j ? "\n\\qquad\n" : "\n", pg->out);
        }
        fputs("\\]\n", pg->out);
    }
}

/* ---- one table in Markdown ---- */

static void md_item(const page *pg, const item *it)
{
    const as_table_view *v = &it->v;
    char name[160], buf[AS_NUM_BUF];
    size_t i, j;

    char approx[16];

    snprintf(approx, sizeof approx, " %s", sym(pg, AS_SYM_APPROX));
    item_name(pg, name, sizeof name, it);
    fprintf(pg->out, "**%s**%s\n\n|    |", name,
            it->empty ? "" : as_matrix_rounded(v->m, pg->o->key_places) ? approx : " =");
    for (j = 0; j < v->m->cols; j++) {
        fputc(' ', pg->out);
        put_text(pg, label(pg, buf, sizeof buf, v->cols, j));
        fputs(" |", pg->out);
    }
    fputs("\n| -- |", pg->out);
    for (j = 0; j < v->m->cols; j++)
        fputs(" --: |", pg->out);
    for (i = 0; i < v->m->rows; i++) {
        fputs("\n| ", pg->out);
        put_text(pg, label(pg, buf, sizeof buf, v->rows, i));
        fputs(" |", pg->out);
        for (j = 0; j < v->m->cols; j++) {
            if (it->empty)
                buf[0] = '\0';
            else
                num(pg, buf, sizeof buf, AS_AT(*v->m, i, j), pg->o->key_places);
            fprintf(pg->out, " %s%*s |", buf,
                    (int)(as_display_width(buf) < 8 ? 8 - as_display_width(buf) : 0), "");
        }
    }
    fputs("\n\n", pg->out);
}

static void show_items(const page *pg, const items *l)
{
    size_t i;

    if (pg->o->latex) {
        tex_items(pg, l->it, l->count);
        return;
    }
    for (i = 0; i < l->count; i++)
        md_item(pg, &l->it[i]);
}

/* ------------------------------------------------------------------------------ */
/* The table of e^x                                                                 */
/* ------------------------------------------------------------------------------ */

typedef struct power {
    double x, ex;
} power;

static int by_x_descending(const void *a, const void *b)
{
    const double x = ((const power *)a)->x, y = ((const power *)b)->x;

    return (x < y) - (x > y);
}

/* The shifted scores (s minus the row's max) of every readable cell but the max itself,
 * each once as shown, with their exps from the trace. Returns how many, or -1. */
static long powers(const page *pg, power **out)
{
    const as_trace *t = pg->s->t;
    size_t h, i, n = 0, k, cap = 0;
    power *pw = NULL;

    for (h = 0; h < t->heads; h++)
        cap += t->head[h].S.rows * t->head[h].S.cols;
    if ((pw = malloc((cap ? cap : 1) * sizeof *pw)) == NULL)
        return -1;
    for (h = 0; h < t->heads; h++) {
        const as_head_trace *ht = &t->head[h];
        for (i = 0; i < ht->S.rows * ht->S.cols; i++) {
            char a[AS_NUM_BUF], b[AS_NUM_BUF];
            if (isinf(ht->shifted.v[i]) || ht->shifted.v[i] == 0)
                continue;
            as_fmt_display(a, sizeof a, ht->shifted.v[i], pg->o->key_places, 1);
            for (k = 0; k < n; k++) {
                as_fmt_display(b, sizeof b, pw[k].x, pg->o->key_places, 1);
                if (strcmp(a, b) == 0)
                    break;
            }
            if (k == n)
                pw[n++] = (power){ht->shifted.v[i], ht->exps.v[i]};
        }
    }
    qsort(pw, n, sizeof *pw, by_x_descending);
    *out = pw;
    return (long)n;
}

static void exp_row(const page *pg, const power *pw, size_t n, int ex)
{
    char buf[AS_NUM_BUF];
    size_t k;

    fputs(pg->o->latex ? (ex ? "e^{x}" : "x")
                       : (ex ? (pg->o->ascii ? "| e^x |" : "| e\xcb\xa3 |") : "| x |"),
          pg->out);
    for (k = 0; k < n; k++) {
        mnum(buf, sizeof buf, ex ? pw[k].ex : pw[k].x, pg->o->key_places);
        if (!pg->o->latex && pw[k].x < 0 && !ex) /* Markdown shows the book's minus sign */
            fprintf(pg->out, " %s%s |", sym(pg, AS_SYM_MINUS), buf + 1);
        else
            fprintf(pg->out, pg->o->latex ? " & %s" : " %s |", buf);
    }
    fputs(pg->o->latex ? (ex ? "\n" : " \\\\ \\hline\n") : "\n", pg->out);
}

static int exp_table(const page *pg)
{
    power *pw;
    long n = powers(pg, &pw);
    size_t i, k, m;

    if (n < 0)
        return -1;
    if (n > 0) {
        say_raw(pg, AS_MSG_SHEET_EXP, NULL, 0);
        fputs(pg->o->latex ? "\n" : "\n\n", pg->out);
    }
    for (i = 0; i < (size_t)n; i += m) {
        m = (size_t)n - i < EXP_PER_LINE ? (size_t)n - i : EXP_PER_LINE;
        if (pg->o->latex) {
            fputs("\\[\n\\begin{array}{c|", pg->out);
            for (k = 0; k < m; k++)
                fputc('c', pg->out);
            fputs("}\n", pg->out);
        }
        exp_row(pg, pw + i, m, 0);
        if (!pg->o->latex) {
            fputs("| -- |", pg->out);
            for (k = 0; k < m; k++)
                fputs(" --: |", pg->out);
            fputc('\n', pg->out);
        }
        exp_row(pg, pw + i, m, 1);
        fputs(pg->o->latex ? "\\end{array}\n\\]\n" : "\n", pg->out);
    }
    free(pw);
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The walk-through row, as mathematics                                             */
/* ------------------------------------------------------------------------------ */

/* A block of aligned equations: align* in LaTeX, an aligned block in $$ in Markdown
 * (LaTeX mathematics either way). lines counts what is written so far. */
typedef struct eqs {
    const page *pg;
    int lines;
} eqs;

static eqs math_begin(const page *pg)
{
    fputs(pg->o->latex ? "\\begin{align*}\n" : "$$\n\\begin{aligned}\n", pg->out);
    return (eqs){pg, 0};
}

/* Starts the next equation (its left side follows). */
static FILE *eq(eqs *e)
{
    if (e->lines++ > 0)
        fputs(" \\\\\n", e->pg->out);
    return e->pg->out;
}

static void math_end(eqs *e)
{
    fputs(e->pg->o->latex ? "\n\\end{align*}\n" : "\n\\end{aligned}\n$$\n\n", e->pg->out);
}

/* A heading in the key: bold, a paragraph of its own. */
static void key_heading(const page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\par\\textbf{" : "**", pg->out);
    say_raw(pg, m, raw, nraw);
    fputs(pg->o->latex ? "}\n" : "**\n\n", pg->out); /* LaTeX: no empty paragraph above
                                                          the equations */
}

/* "= v" or "\approx v", v at the key's places. */
static void equals(FILE *out, double v, int places)
{
    char buf[AS_NUM_BUF];
    const int r = mnum(buf, sizeof buf, v, places);

    fprintf(out, " %s %s", r ? "\\approx" : "=", buf);
}

/* " = " when every cell of row i of m shows exactly at places decimals, else " \\approx ". */
static const char *row_sign(const as_matrix *m, size_t i, int places)
{
    char buf[AS_NUM_BUF];
    size_t j;

    for (j = 0; j < m->cols; j++)
        if (mnum(buf, sizeof buf, AS_AT(*m, i, j), places))
            return " \\approx ";
    return " = ";
}

/* A row of m as [a,\ b,\ c] at places decimals. */
static void vec(FILE *out, const as_matrix *m, size_t i, int places)
{
    char buf[AS_NUM_BUF];
    size_t j;

    fputs("\\left[", out);
    for (j = 0; j < m->cols; j++) {
        mnum(buf, sizeof buf, AS_AT(*m, i, j), places);
        fprintf(out, "%s%s", j ? ",\\ " : "", buf);
    }
    fputs("\\right]", out);
}

/* The projections of row i: each cell of q, k and v a row of the input dotted with a
 * column of the W table (and its bias). */
static void walk_project(const page *pg, size_t i)
{
    const as_problem *p = pg->s->p;
    const as_trace *t = pg->s->t;
    const as_matrix *w[] = {p->Wq, p->Wk, p->Wv}, *b[] = {p->bq, p->bk, p->bv};
    const as_matrix *res[] = {&t->Q, &t->K, &t->V};
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t k, c, r;

    for (k = 0; k < 3; k++) {
        const as_matrix *x = k == 0 ? p->X : p->Xkv;
        if (i >= res[k]->rows)
            continue; /* cross-attention: fewer rows read */
        for (c = 0; c < res[k]->cols; c++) {
            FILE *out = eq(&e);
            fprintf(out, "%c_{%zu,%zu} &=", "qkv"[k], i, c);
            for (r = 0; r < x->cols; r++) {
                plus(out, r);
                factor(out, AS_AT(*x, i, r), pl);
                fputs("\\times ", out);
                factor(out, AS_AT(*w[k], r, c), pl);
            }
            if (b[k] != NULL) {
                plus(out, x->cols);
                factor(out, b[k]->v[c], pl);
            }
            equals(out, AS_AT(*res[k], i, c), pl);
        }
    }
    math_end(&e);
}

/* Step 1: the Query of row i dotted with each readable Key. */
static void walk_scores(const page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t j, c;

    for (j = 0; j < h->S.cols; j++) {
        FILE *out;
        if (isinf(AS_AT(h->S, i, j)))
            continue;
        out = eq(&e);
        fprintf(out, "q_{%zu}\\cdot k_{%zu} &=", i, j);
        for (c = 0; c < h->Q.cols; c++) {
            plus(out, c);
            factor(out, AS_AT(h->Q, i, c), pl);
            fputs("\\times ", out);
            factor(out, AS_AT(h->K, j, c), pl);
        }
        equals(out, AS_AT(h->QKT, i, j), pl);
    }
    math_end(&e);
}

/* Step 2: the scores scaled (and the mask added). */
static void walk_scale(const page *pg, const as_head_trace *h, size_t i)
{
    const as_problem *p = pg->s->p;
    const int pl = pg->o->key_places;
    char buf[AS_NUM_BUF];
    eqs e = math_begin(pg);
    FILE *out = eq(&e);
    size_t j;

    fprintf(out, "s_{%zu} &= \\left[", i);
    for (j = 0; j < h->S.cols; j++) {
        fputs(j ? ",\\ " : "", out);
        if (isinf(AS_AT(h->S, i, j))) {
            fputs("-\\infty", out);
            continue;
        }
        mnum(buf, sizeof buf, AS_AT(h->QKT, i, j), pl);
        if (p->scale_auto) {
            fprintf(out, "\\tfrac{%s}{\\sqrt{%zu}}", buf, p->d_k);
        } else {
            factor(out, AS_AT(h->QKT, i, j), pl);
            fprintf(out, "\\cdot %.6g", p->scale);
        }
        if (p->mask == AS_MASK_CUSTOM && AS_AT(pg->s->t->M, i, j) != 0) {
            fputs(" + ", out);
            factor(out, AS_AT(pg->s->t->M, i, j), pl);
        }
    }
    fputs("\\right]", out);
    fputs(row_sign(&h->S, i, pl), out);
    vec(out, &h->S, i, pl);
    math_end(&e);
}

/* Step 3: softmax of the row, in the chapter's four sub-steps. */
static void walk_softmax(const page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    FILE *out;

    out = eq(&e);
    fprintf(out, "\\max_j s_{%zu,j} &", i);
    equals(out, AS_AT(h->row_max, i, 0), pl);
    fprintf(eq(&e), "s_{%zu} - \\max &%s", i, row_sign(&h->shifted, i, pl) + 1);
    vec(e.pg->out, &h->shifted, i, pl);
    fprintf(eq(&e), "e^{s_{%zu} - \\max} &%s", i, row_sign(&h->exps, i, pl) + 1);
    vec(e.pg->out, &h->exps, i, pl);
    out = eq(&e);
    fprintf(out, "\\textstyle\\sum_j e^{s_{%zu,j} - \\max} &", i);
    equals(out, AS_AT(h->sums, i, 0), pl);
    fprintf(eq(&e), "a_{%zu} = e^{s_{%zu} - \\max} \\big/ \\textstyle\\sum &%s", i, i,
            row_sign(&h->A, i, pl) + 1);
    vec(e.pg->out, &h->A, i, pl);
    math_end(&e);
}

/* Step 4: each output cell, the shares times the matching cells of the Values. */
static void walk_mix(const page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t j, c;

    for (c = 0; c < h->O.cols; c++) {
        FILE *out = eq(&e);
        size_t terms = 0;
        fprintf(out, "o_{%zu,%zu} &=", i, c);
        for (j = 0; j < h->A.cols; j++) {
            if (isinf(AS_AT(h->S, i, j)))
                continue; /* a masked share is 0 */
            plus(out, terms++);
            factor(out, AS_AT(h->A, i, j), pl);
            fputs("\\times ", out);
            factor(out, AS_AT(h->V, j, c), pl);
        }
        equals(out, AS_AT(h->O, i, c), pl);
    }
    math_end(&e);
}

/* The walk-through of the last row, through the steps the sheet asks. */
static void walk(const page *pg)
{
    static const as_msg steps[] = {AS_MSG_TR_STEP1, AS_MSG_SHEET_STEP2, AS_MSG_TR_STEP3,
                                   AS_MSG_TR_STEP4};
    const as_problem *p = pg->s->p;
    const as_step st = pg->o->step;
    const size_t i = p->n - 1;
    char buf[32], sq[32], dk[32];
    const char *raw[2];
    size_t h, k;

    raw[0] = label(pg, buf, sizeof buf, p->tokens, i);
    snprintf(sq, sizeof sq, "%zu", i);
    {
        const char *r2[2] = {sq, raw[0]};
        key_heading(pg, AS_MSG_SHEET_WALK, r2, 2);
    }
    if (st == AS_STEP_PROJECT) {
        walk_project(pg, i);
        return;
    }
    snprintf(sq, sizeof sq, "%s%s", pg->o->latex ? "$\\sqrt{d_k}$" : sym(pg, AS_SYM_SQRT),
             pg->o->latex ? "" : "d\\_k");
    snprintf(dk, sizeof dk, pg->o->latex ? "$d_k=%zu$" : "d\\_k=%zu", p->d_k);
    for (h = 0; h < pg->s->t->heads; h++) {
        const as_head_trace *ht = &pg->s->t->head[h];
        if (pg->s->t->heads > 1) {
            snprintf(buf, sizeof buf, "%zu", h);
            raw[0] = buf;
            key_heading(pg, AS_MSG_SHEET_HEAD, raw, 1);
        }
        for (k = 0; k < 4; k++) {
            if ((st == AS_STEP_SCORES && k > 1) || (st == AS_STEP_SOFTMAX && k != 2) ||
                (st == AS_STEP_MIX && k != 3))
                continue;
            raw[0] = sq;
            raw[1] = dk;
            key_heading(pg, k == 1 && !p->scale_auto ? AS_MSG_SHEET_STEP2_SCALE : steps[k],
                        raw, 2);
            if (k == 0)
                walk_scores(pg, ht, i);
            else if (k == 1)
                walk_scale(pg, ht, i);
            else if (k == 2)
                walk_softmax(pg, ht, i);
            else
                walk_mix(pg, ht, i);
        }
    }
}

/* ------------------------------------------------------------------------------ */
/* The page around the tables                                                       */
/* ------------------------------------------------------------------------------ */

/* A4 with 2 cm margins set by hand: amsmath (and ctex for Chinese) is all it needs. */
static void preamble(FILE *out, const as_sheet_opts *o)
{
    fprintf(out, "%% attnstep worksheet: %s\n",
            o->lang == AS_LANG_ZH ? "xelatex (ctex)" : "pdflatex (amsmath)");
    fprintf(out, "\\documentclass[a4paper,11pt]{%s}\n\\usepackage{amsmath}\n",
            o->lang == AS_LANG_ZH ? "ctexart" : "article");
    fputs("\\setlength{\\textwidth}{17cm}\\setlength{\\oddsidemargin}{-0.54cm}\n"
          "\\setlength{\\evensidemargin}{-0.54cm}\\setlength{\\textheight}{25.2cm}\n"
          "\\setlength{\\topmargin}{-1.04cm}\\setlength{\\headheight}{0pt}"
          "\\setlength{\\headsep}{0pt}\n"
          "\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{4pt}\n"
          "\\setlength{\\arraycolsep}{3pt}\n"
          "\\pagestyle{empty}\n\\begin{document}\n",
          out);
}

static void new_page(const page *pg)
{
    fputs(pg->o->latex ? "\n\\newpage\n" : "\n<div style=\"page-break-before: always\"></div>\n\n",
          pg->out);
}

/* A section heading of the page. */
static void heading(const page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\par\\medskip{\\large\\bfseries " : "## ", pg->out);
    say_raw(pg, m, raw, nraw);
    fputs(pg->o->latex ? "}\\par\n" : "\n\n", pg->out);
}

/* The line under the title: what the sheet is (its detail, the drill) and its variant. */
static void detail(const page *pg)
{
    const char *sep = msg(pg, AS_MSG_LIST_SEP);
    int any = 0;

    if (pg->s->detail != NULL && (!pg->o->latex || pg->o->lang == AS_LANG_ZH ||
                                  ascii_only(pg->s->detail))) {
        put_text(pg, pg->s->detail);
        any = 1;
    }
    if (pg->o->step != AS_STEP_ALL) {
        const char *raw[] = {msg(pg, (as_msg)(AS_MSG_SHEET_STEP_PROJECT + pg->o->step - 1))};
        fputs(any ? sep : "", pg->out);
        say_raw(pg, AS_MSG_SHEET_DRILL, raw, 1);
        any = 1;
    }
    if (pg->s->variant != NULL) {
        const char *raw[] = {pg->s->variant};
        fputs(any ? sep : "", pg->out);
        say_raw(pg, AS_MSG_SHEET_VARIANT, raw, 1);
    }
}

/* Name, class and date, to be filled in (the name already there for a class's sheet). */
static void name_line(const page *pg)
{
    static const as_msg field[] = {AS_MSG_SHEET_NAME, AS_MSG_SHEET_CLASS, AS_MSG_SHEET_DATE};
    static const char *const width[] = {"5cm", "3.5cm", "3.5cm"};
    size_t k;

    for (k = 0; k < 3; k++) {
        const char *who = k == 0 ? pg->s->student : NULL;
        say_raw(pg, field[k], NULL, 0);
        if (pg->o->latex) {
            fprintf(pg->out, "\\underline{\\makebox[%s][l]{", width[k]);
            if (who != NULL && (pg->o->lang == AS_LANG_ZH || ascii_only(who)))
                put_text(pg, who);
            fputs(k < 2 ? "}}\\hfill\n" : "}}\\par\n", pg->out);
        } else {
            if (who != NULL)
                fprintf(pg->out, " %s ", who);
            else
                fputs("\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_", pg->out);
            fputs(k == 2 ? "\n\n" : pg->o->lang == AS_LANG_ZH ? "\xe3\x80\x80" : "    ", pg->out);
        }
    }
}

static void title(const page *pg, int key)
{
    if (pg->o->latex)
        fputs("\\begin{center}{\\Large\\bfseries ", pg->out);
    else
        fputs("# ", pg->out);
    say_raw(pg, key ? AS_MSG_SHEET_KEY : AS_MSG_SHEET_TITLE, NULL, 0);
    fputs(pg->o->latex ? "}\\\\[3pt]\n" : "\n\n", pg->out);
    detail(pg);
    if (key && pg->s->student != NULL) {
        fputs(msg(pg, AS_MSG_LIST_SEP), pg->out);
        put_text(pg, pg->o->latex && pg->o->lang == AS_LANG_EN && !ascii_only(pg->s->student)
                         ? "" : pg->s->student);
    }
    fputs(pg->o->latex ? "\n\\end{center}\n" : "\n\n", pg->out);
    if (!key)
        name_line(pg);
}

/* "Q, K, V, QKᵀ, S, A and O": the names of the asked tables the problem has. */
static void asked_list(const page *pg, char *buf, size_t size)
{
    static const as_table order[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_S, AS_T_A, AS_T_C,
                                     AS_T_O};
    const unsigned asked = as_step_asked(pg->o->step);
    const char *names[8];
    size_t k, n = 0, used = 0;

    for (k = 0; k < 8; k++) {
        const as_table t = order[k];
        if (!(asked & T_BIT(t)) || (t == AS_T_C && pg->s->p->heads == 1))
            continue;
        if (t == AS_T_QKT)
            names[n++] = pg->o->latex ? "$QK^{\\top}$" : pg->o->ascii ? "QK^T" : "QK\xe1\xb5\x80";
        else
            names[n++] = pg->o->latex ? (const char *[]){"", "", "$Q$", "$K$", "$V$", "", "",
                                                         "$S$", "$A$", "$O$", "$C$"}[t]
                                      : as_table_name(t);
    }
    buf[0] = '\0';
    for (k = 0; k < n && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 k == 0 ? "" : k + 1 == n ? msg(pg, AS_MSG_LIST_AND)
                                                          : msg(pg, AS_MSG_LIST_SEP),
                                 names[k]);
}

void as_sheet_table_name(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o,
                         const as_table_view *v, int empty)
{
    const page pg = {NULL, o, s, 0};
    const item it = {*v, empty};

    item_name(&pg, buf, size, &it);
}

void as_sheet_asked_list(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o)
{
    const page pg = {NULL, o, s, 0};

    asked_list(&pg, buf, size);
}

static void instruction(const page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\item " : "- ", pg->out);
    say_raw(pg, m, raw, nraw);
    fputc('\n', pg->out);
}

static void instructions(const page *pg)
{
    const unsigned asked = as_step_asked(pg->o->step);
    const int tex = pg->o->latex;
    char list[256], places[16];
    const char *lp = list, *pp = places;

    asked_list(pg, list, sizeof list);
    snprintf(places, sizeof places, "%d", pg->o->places);
    fputs(pg->o->latex ? "\\begin{itemize}\\setlength{\\itemsep}{0pt}\n" : "", pg->out);
    instruction(pg, AS_MSG_SHEET_DO, &lp, 1);
    instruction(pg, AS_MSG_SHEET_PLACES, &pp, 1);
    if (asked & T_BIT(AS_T_A)) {
        const char *as[] = {tex ? "$A$" : "A", tex ? "$S$" : "S"};
        instruction(pg, AS_MSG_SHEET_SOFTMAX, as, 2);
    }
    if ((asked & (T_BIT(AS_T_S) | T_BIT(AS_T_A))) && pg->s->p->mask != AS_MASK_NONE) {
        const char *sia[] = {tex ? "$S$" : "S", tex ? "$-\\infty$" : sym(pg, AS_SYM_NEG_INF),
                             tex ? "$A$" : "A"};
        instruction(pg, AS_MSG_SHEET_MASKED, sia, 3);
    }
    fputs(pg->o->latex ? "\\end{itemize}\n" : "\n", pg->out);
}

/* The reading rule, under the given tables. */
static void rule(const page *pg)
{
    const as_mask_kind m = pg->s->p->mask;
    const char *inf = pg->o->latex ? "$-\\infty$" : sym(pg, AS_SYM_NEG_INF);

    char buf[512];

    if (m == AS_MASK_WINDOW) { /* its numbers are not text to escape */
        snprintf(buf, sizeof buf, msg(pg, AS_MSG_TR_RULE_WINDOW), pg->s->p->window,
                 pg->s->p->window - 1);
        put_text(pg, buf);
    } else {
        say_raw(pg, m == AS_MASK_NONE ? AS_MSG_TR_RULE_NONE : m == AS_MASK_CUSTOM
                                                                ? AS_MSG_TR_RULE_CUSTOM
                                                                : AS_MSG_TR_RULE_CAUSAL,
                &inf, 1);
    }
    fputs("\n\n", pg->out);
}

static int sheet_page(const page *pg)
{
    items *l = malloc(sizeof *l);
    int rc = 0;

    if (l == NULL)
        return -1;
    title(pg, 0);
    instructions(pg);
    heading(pg, AS_MSG_SHEET_GIVEN, NULL, 0);
    gather(l, pg, as_step_given(pg->o->step), 0);
    show_items(pg, l);
    if (as_step_given(pg->o->step) & T_BIT(AS_T_M) || pg->o->step == AS_STEP_ALL)
        rule(pg);
    heading(pg, AS_MSG_SHEET_FILL, NULL, 0);
    gather(l, pg, as_step_asked(pg->o->step), 1);
    show_items(pg, l);
    if (pg->o->exp_table && (pg->o->step == AS_STEP_ALL || pg->o->step == AS_STEP_SOFTMAX))
        rc = exp_table(pg);
    heading(pg, AS_MSG_SHEET_WORK, NULL, 0);
    fputs(pg->o->latex ? "\\vfill\n" : "\n\n\n\n", pg->out);
    free(l);
    return rc;
}

static int key_page(const page *pg)
{
    items *l = malloc(sizeof *l);

    if (l == NULL)
        return -1;
    title(pg, 1);
    gather(l, pg, as_step_asked(AS_STEP_ALL), 0);
    show_items(pg, l);
    walk(pg);
    free(l);
    return 0;
}

/* Nonzero when some token of p cannot be set by pdflatex alone. */
static int needs_numbers(const as_problem *p, const as_sheet_opts *o)
{
    size_t i;

    if (!o->latex || o->lang != AS_LANG_EN)
        return 0;
    for (i = 0; i < p->n; i++)
        if (!ascii_only(p->tokens[i]))
            return 1;
    for (i = 0; i < p->m; i++)
        if (!ascii_only(p->kv_tokens[i]))
            return 1;
    return 0;
}

int as_sheet_write(FILE *out, const as_sheet *sheets, size_t count, const as_sheet_opts *o)
{
    size_t k;
    int rc = 0;

    if (o->latex)
        preamble(out, o);
    for (k = 0; !o->key_only && k < count; k++) {
        const page pg = {out, o, &sheets[k], needs_numbers(sheets[k].p, o)};
        if (k > 0)
            new_page(&pg);
        rc |= sheet_page(&pg);
    }
    for (k = 0; o->answers && k < count; k++) {
        const page pg = {out, o, &sheets[k], needs_numbers(sheets[k].p, o)};
        if (k > 0 || !o->key_only)
            new_page(&pg);
        rc |= key_page(&pg);
    }
    if (o->latex)
        fputs("\\end{document}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}
