/* sheet_tables.c - the tables of a worksheet: the given ones with their numbers, an
 * empty grid labelled with the tokens for each table to fill, laid out side by side in
 * LaTeX as far as the line holds (or one after another in Markdown), and the table of
 * e^x. Every number comes from the trace. */
#include "sheet_text.h"
#include "attnstep/numfmt.h"
#include "attnstep/outhead.h"
#include "attnstep/steps.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_EM 44.0      /* the LaTeX text width (17 cm at 11 pt) in em */
#define GAP_EM 2.2        /* between two tables on a line (\qquad and a little) */
#define GRID_CELL_EM 3.4  /* an empty cell (2.8em) with its padding (\arraycolsep 3pt) */
#define EXP_PER_LINE 7    /* values in one line of the table of e^x */

/* A cell as the page shows it at places decimals: −∞ (md), -\infty (LaTeX). Returns
 * 1 when the value is shown rounded. */
static int num(const as_sheet_page *pg, char *buf, size_t size, double v, int places)
{
    int r;

    if (isinf(v)) {
        snprintf(buf, size, "%s", pg->o->latex ? (v < 0 ? "-\\infty" : "\\infty")
                                               : as_sheet_sym(pg, AS_SYM_NEG_INF));
        return 0;
    }
    r = as_fmt_display(buf, size, v, places, 1);
    return r;
}

/* ------------------------------------------------------------------------------ */
/* The tables of a page                                                             */
/* ------------------------------------------------------------------------------ */



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

/* The output head's tables a drill gives or asks (SPEC §19: logits, probs), after the
 * layer's: one row over the vocabulary, its columns the tokens' numbers. */
static void head_tables(gathering *g, unsigned want)
{
    static const as_table kind[] = {AS_T_LOGITS, AS_T_PROBS};
    size_t k;

    for (k = 0; g->s->t->out != NULL && k < 2; k++) {
        const as_matrix *m = as_out_head_table(g->s->t->out, as_tab_of_table(kind[k]));
        if ((want & (1u << kind[k])) && m != NULL && g->count < g->max)
            g->out[g->count++] = (as_table_view){kind[k], as_table_name(kind[k]), 0, 0, m,
                                                 as_rows_of(m), g->s->p->tokens, NULL};
    }
}

size_t as_sheet_tables(const as_sheet *s, unsigned want, as_table_view *out, size_t max)
{
    gathering g = {s, out, 0, max};
    as_render_opts ro;

    memset(&ro, 0, sizeof ro);
    ro.digits = 10;
    ro.ascii = 1;
    ro.only = want;
    ro.row = AS_ROW_LAST;
    as_each_table(s->p, s->t, &ro, collect, &g);
    head_tables(&g, want);
    return g.count;
}

/* The tables of want, in the book's order, as grids (empty) or with their numbers. */
void as_sheet_gather(as_sheet_items *l, const as_sheet_page *pg, unsigned want, int empty)
{
    as_table_view v[AS_SHEET_MAX_ITEMS];
    size_t k;

    l->count = as_sheet_tables(pg->s, want, v, AS_SHEET_MAX_ITEMS);
    for (k = 0; k < l->count; k++)
        l->it[k] = (as_sheet_item){v[k], empty};
}

/* The subscript of a head's table: "_{0}" (LaTeX) or "₀" (Markdown); "" for none. */
static void head_sub(const as_sheet_page *pg, char *buf, size_t size, const as_table_view *v)
{
    buf[0] = '\0';
    if (!v->per_head)
        return;
    if (pg->o->latex)
        snprintf(buf, size, "_{%zu}", v->head);
    else
        as_subscript(buf, size, v->head, pg->o->ascii);
}

/* The formula of a block table to fill (SPEC §15): "N1 = LayerNorm(X), ε = 0.00001",
 * "H1 = X + O", "U = N2·Wup + bup", "F = GELU(U)" …; 0 when v is none of the block's. */
static int block_formula(const as_sheet_page *pg, const as_table_view *v, char *buf, size_t size)
{
    const as_problem *p = pg->s->p;
    const int tex = pg->o->latex, pre = p->block == AS_BLOCK_PRE, none = p->ffn == AS_FFN_NONE;
    const char *dot = tex ? "" : as_sheet_sym(pg, AS_SYM_DOT);
    const char *in = pre ? "N2" : "H1";
    char eps[AS_NUM_BUF], op[40] = "", cl[4] = "", e[64] = "";

    if (p->norm != AS_NORM_NONE) {
        as_fmt_display(eps, sizeof eps, p->norm_eps, 17, 1);
        snprintf(op, sizeof op, tex ? "\\operatorname{%s}(" : "%s(", as_block_norm_name(p));
        snprintf(cl, sizeof cl, ")");
        snprintf(e, sizeof e, tex ? ",\\ \\varepsilon = %s" : ", %s = %s",
                 tex ? eps : pg->o->ascii ? "eps" : "\xce\xb5", eps);
    }
    switch (v->kind) {
    case AS_T_N1: snprintf(buf, size, "N1 = %sX%s%s", op, cl, e); return 1;
    case AS_T_N2: snprintf(buf, size, "N2 = %sH1%s%s", op, cl, e); return 1;
    case AS_T_H1:
    case AS_T_H2: { /* pre: the residual alone; post: its sum normalised */
        const char *sum = v->kind == AS_T_H1 ? "X + O" : "H1 + D";
        if (pre)
            snprintf(buf, size, "%s = %s", v->name, sum);
        else
            snprintf(buf, size, "%s = %s%s%s%s", v->name, op, sum, cl, e);
        return 1;
    }
    case AS_T_Y: snprintf(buf, size, "Y = %s%s%s%s", op, none ? "H1" : "H2", cl, e); return 1;
    case AS_T_U:
        if (tex)
            snprintf(buf, size, "U = %sW_{up}%s", in, p->bup ? " + b_{up}" : "");
        else
            snprintf(buf, size, "U = %s%sWup%s", in, dot, p->bup ? " + bup" : "");
        return 1;
    case AS_T_G:
        if (tex)
            snprintf(buf, size, "G = \\operatorname{SiLU}(%sW_{gate})", in);
        else
            snprintf(buf, size, "G = SiLU(%s%sWgate)", in, dot);
        return 1;
    case AS_T_D:
        if (tex)
            snprintf(buf, size, "D = FW_{down}%s", p->bdown ? " + b_{down}" : "");
        else
            snprintf(buf, size, "D = F%sWdown%s", dot, p->bdown ? " + bdown" : "");
        return 1;
    case AS_T_F:
        if (p->ffn == AS_FFN_SWIGLU)
            snprintf(buf, size, tex ? "F = G \\odot U" : "F = G %s U", as_sheet_sym(pg, AS_SYM_HADAMARD));
        else if (tex && p->ffn == AS_FFN_GELU_TANH) /* a bare _ in mathematics is a subscript */
            snprintf(buf, size, "F = \\operatorname{GELU\\_tanh}(U)");
        else
            snprintf(buf, size, tex ? "F = \\operatorname{%s}(U)" : "F = %s(U)", as_block_act_name(p));
        return 1;
    default: return 0;
    }
}

/* The table's name (given tables and the key) or its formula (a grid to fill), in the
 * page's syntax: LaTeX mathematics, or Markdown text. */
static void item_name(const as_sheet_page *pg, char *buf, size_t size, const as_sheet_item *it)
{
    const as_problem *p = pg->s->p;
    const as_table_view *v = &it->v;
    const int tex = pg->o->latex;
    char h[32], sc[64];

    head_sub(pg, h, sizeof h, v);
    if (v->kind == AS_T_LOGITS || v->kind == AS_T_PROBS) { /* words, set upright */
        snprintf(buf, size, tex ? "\\mathrm{%s}" : "%s", v->name);
        return;
    }
    if (v->kind == AS_T_QKT || (it->empty && v->kind == AS_T_S)) {
        char base[64];
        if (tex)
            snprintf(base, sizeof base, "Q%sK%s^{\\top}", h, h);
        else
            snprintf(base, sizeof base, "Q%sK%s%s", h, h, as_sheet_sym(pg, AS_SYM_T));
        if (v->kind != AS_T_S) {
            snprintf(buf, size, "%s", base);
            return;
        }
        if (p->scale_auto)
            snprintf(sc, sizeof sc, "/%s%zu%s",
                     tex ? "\\sqrt{" : pg->o->ascii ? "sqrt(" : as_sheet_sym(pg, AS_SYM_SQRT), p->d_k,
                     tex ? "}" : pg->o->ascii ? ")" : "");
        else
            snprintf(sc, sizeof sc, "%s%.6g", tex ? "\\cdot " : as_sheet_sym(pg, AS_SYM_DOT), p->scale);
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
    if (block_formula(pg, v, buf, size))
        return;
    switch (v->kind) {
    case AS_T_Q: case AS_T_K: case AS_T_V: {
        const char x = v->name[0], w = (char)(x - 'A' + 'a');
        const char *src = p->cross && x != 'Q' ? (tex ? "X_{kv}" : "Xkv")
                          : p->block == AS_BLOCK_PRE ? "N1" : "X"; /* pre: the attention reads N1 */
        if (tex)
            snprintf(buf, size, "%c = %sW_%c", x, src, w);
        else
            snprintf(buf, size, "%c = %s%sW%c", x, src, as_sheet_sym(pg, AS_SYM_DOT), w);
        return;
    }
    case AS_T_A:
        if (v->per_head || tex)
            snprintf(buf, size, tex ? "A%s = \\operatorname{softmax}(S%s)" : "A%s = softmax(S%s)",
                     h, h);
        else
            snprintf(buf, size, "A = %s", as_sheet_msg(pg, AS_MSG_SOFTMAX_ROWS));
        return;
    default: /* O of a head, C, or the final O */
        if (strcmp(v->name, "C") == 0) {
            char o0[16]; /* O₀, as the heads' own tables write it */
            as_subscript(o0, sizeof o0, 0, pg->o->ascii);
            snprintf(buf, size, tex ? "C = [O_{0}\\,|\\,\\cdots]" : "C = [O%s|%s]", o0,
                     as_sheet_sym(pg, AS_SYM_ELLIPSIS));
        } else if (v->kind == AS_T_O && (p->heads > 1 || p->Wo != NULL))
            snprintf(buf, size, tex ? "O = CW_o" : "O = C%sWo", tex ? "" : as_sheet_sym(pg, AS_SYM_DOT));
        else
            snprintf(buf, size, "O%s = A%sV%s", h, h, h);
        return;
    }
}

/* ---- one table in LaTeX: its name above, then the table ---- */

/* Text in \text{} (a label): escaped. */
static void tex_label(const as_sheet_page *pg, const char *s)
{
    fputs("\\text{", pg->out);
    as_sheet_put_text(pg, s);
    fputc('}', pg->out);
}

/* The header row of column labels, over an empty corner. */
static void tex_header(const as_sheet_page *pg, const as_table_view *v, int grid)
{
    char buf[32];
    size_t j;

    fputs(grid ? "\\multicolumn{1}{c}{}" : "", pg->out);
    for (j = 0; j < v->m->cols; j++) {
        fputs(grid ? " & \\multicolumn{1}{c}{" : " & ", pg->out);
        tex_label(pg, as_sheet_label(pg, buf, sizeof buf, v->cols, j));
        fputs(grid ? "}" : "", pg->out);
    }
    fprintf(pg->out, grid ? " \\\\ \\cline{2-%zu}\n" : " \\\\ \\hline\n", v->m->cols + 1);
}

/* An empty grid: boxed cells wide and tall enough to write a number in. */
static void tex_grid(const as_sheet_page *pg, const as_table_view *v)
{
    char buf[32];
    size_t i, j;

    fputs("\\begin{array}{r|", pg->out);
    for (j = 0; j < v->m->cols; j++)
        fputs("c|", pg->out);
    fputs("}\n", pg->out);
    tex_header(pg, v, 1);
    for (i = 0; i < v->m->rows; i++) {
        tex_label(pg, as_sheet_label(pg, buf, sizeof buf, v->rows, i));
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
static void tex_values(const as_sheet_page *pg, const as_table_view *v)
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
            tex_label(pg, as_sheet_label(pg, buf, sizeof buf, v->rows, i));
        for (j = 0; j < v->m->cols; j++) {
            num(pg, buf, sizeof buf, AS_AT(*v->m, i, j), pg->o->key_places);
            fprintf(pg->out, "%s%s", j || rows ? " & " : "", buf);
        }
        fputs(i + 1 < v->m->rows ? " \\\\\n" : "\n", pg->out);
    }
    fputs(!rows && !cols ? "\\end{bmatrix}" : "\\end{array}", pg->out);
}

static void tex_item(const as_sheet_page *pg, const as_sheet_item *it)
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
static double item_em(const as_sheet_page *pg, const as_sheet_item *it)
{
    const as_table_view *v = &it->v;
    char buf[AS_NUM_BUF];
    double lab = 0, cell = 0, w;
    size_t i;

    for (i = 0; v->rows != NULL && i < v->m->rows; i++) {
        double e = 0.5 * (double)as_display_width(as_sheet_label(pg, buf, sizeof buf, v->rows, i)) + 0.6;
        lab = e > lab ? e : lab;
    }
    for (i = 0; i < v->m->cols && v->cols != NULL; i++) {
        double e = 0.5 * (double)as_display_width(as_sheet_label(pg, buf, sizeof buf, v->cols, i)) + 0.6;
        cell = e > cell ? e : cell;
    }
    if (it->empty) {
        cell = cell > GRID_CELL_EM ? cell : GRID_CELL_EM;
    } else {
        for (i = 0; i < v->m->rows * v->m->cols; i++) {
            double e;
            num(pg, buf, sizeof buf, v->m->v[i], pg->o->key_places);
            /* -\infty is set as two characters, not its seven bytes: a mask fits beside X */
            e = 0.5 * (isinf(v->m->v[i]) ? 2.0 : (double)strlen(buf)) + 0.6;
            cell = e > cell ? e : cell;
        }
    }
    w = lab + cell * (double)v->m->cols + 0.5;
    return w < 6 ? 6 : w; /* the name above sets a minimum */
}

/* The items, as many to a line as fit the text width. A last item that would stand on
 * a line of its own joins the first line with room for it (a 3-token sheet's O beside
 * Q, K and V, the tables of its shape), so that it stays on the page. */
static void tex_items(const as_sheet_page *pg, const as_sheet_item *it, size_t count)
{
    size_t i = 0, j, lines = 0, line_end[AS_SHEET_MAX_ITEMS + 1], joins = count;
    double width[AS_SHEET_MAX_ITEMS + 1];

    while (i < count && lines < AS_SHEET_MAX_ITEMS) { /* the lines: [line_end[l-1], line_end[l]) */
        double used = item_em(pg, &it[i]);
        for (j = i + 1; j < count && used + GAP_EM + item_em(pg, &it[j]) <= LINE_EM; j++)
            used += GAP_EM + item_em(pg, &it[j]);
        width[lines] = used;
        line_end[lines++] = i = j;
    }
    if (lines >= 2 && line_end[lines - 2] == count - 1) {
        const double w = item_em(pg, &it[count - 1]);
        for (j = 0; j + 1 < lines && joins == count; j++)
            if (width[j] + GAP_EM + w <= LINE_EM)
                joins = j;
        if (joins < count)
            lines--;
    }
    for (i = 0, j = 0; j < lines; j++) { /* the last line dropped when its item joined one */
        fputs("\\[\n", pg->out);
        for (; i < line_end[j]; i++) {
            tex_item(pg, &it[i]);
            fputs(i + 1 < line_end[j] || joins == j ? "\n\\qquad\n" : "\n", pg->out);
        }
        if (joins == j) {
            tex_item(pg, &it[count - 1]);
            fputc('\n', pg->out);
        }
        fputs("\\]\n", pg->out);
    }
}

/* ---- one table in Markdown ---- */

static void md_item(const as_sheet_page *pg, const as_sheet_item *it)
{
    const as_table_view *v = &it->v;
    char name[160], buf[AS_NUM_BUF];
    size_t i, j;

    char approx[16];

    snprintf(approx, sizeof approx, " %s", as_sheet_sym(pg, AS_SYM_APPROX));
    item_name(pg, name, sizeof name, it);
    fprintf(pg->out, "**%s**%s\n\n|    |", name,
            it->empty ? "" : as_matrix_rounded(v->m, pg->o->key_places) ? approx : " =");
    for (j = 0; j < v->m->cols; j++) {
        fputc(' ', pg->out);
        as_sheet_put_text(pg, as_sheet_label(pg, buf, sizeof buf, v->cols, j));
        fputs(" |", pg->out);
    }
    fputs("\n| -- |", pg->out);
    for (j = 0; j < v->m->cols; j++)
        fputs(" --: |", pg->out);
    for (i = 0; i < v->m->rows; i++) {
        fputs("\n| ", pg->out);
        as_sheet_put_text(pg, as_sheet_label(pg, buf, sizeof buf, v->rows, i));
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

void as_sheet_show_items(const as_sheet_page *pg, const as_sheet_items *l)
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

/* The head drill's (SPEC §19): logits/T (after top-k) minus their max, for every token
 * the softmax reads but the max itself, with their exps, by the chapter's softmax. */
static long head_powers(const as_sheet_page *pg, power **out)
{
    const as_out_head *o = pg->s->t->out;
    const as_matrix *from = o->topk.v != NULL ? &o->topk : &o->scaled;
    const size_t v = o->vocab;
    double *probs = malloc(3 * (v ? v : 1) * sizeof *probs), *shifted, *exps, max, sum;
    power *pw = malloc((v ? v : 1) * sizeof *pw);
    size_t i, n = 0;

    if (probs == NULL || pw == NULL) {
        free(probs);
        free(pw);
        return -1;
    }
    shifted = probs + v;
    exps = probs + 2 * v;
    as_softmax_rows(probs, &max, shifted, exps, &sum, from->v, 1, v);
    for (i = 0; i < v; i++) /* the logits are distinct: each value once */
        if (!isinf(shifted[i]) && shifted[i] != 0)
            pw[n++] = (power){shifted[i], exps[i]};
    free(probs);
    qsort(pw, n, sizeof *pw, by_x_descending);
    *out = pw;
    return (long)n;
}

/* The shifted scores (s minus the row's max) of every readable cell but the max itself,
 * each once as shown, with their exps from the trace. Returns how many, or -1. */
static long powers(const as_sheet_page *pg, power **out)
{
    const as_trace *t = pg->s->t;
    size_t h, i, n = 0, k, cap = 0;
    power *pw = NULL;

    if (pg->o->step == AS_STEP_SAMPLE && t->out != NULL)
        return head_powers(pg, out);
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

static void exp_row(const as_sheet_page *pg, const power *pw, size_t n, int ex)
{
    char buf[AS_NUM_BUF];
    size_t k;

    fputs(pg->o->latex ? (ex ? "e^{x}" : "x")
                       : (ex ? (pg->o->ascii ? "| e^x |" : "| e\xcb\xa3 |") : "| x |"),
          pg->out);
    for (k = 0; k < n; k++) {
        as_sheet_mnum(buf, sizeof buf, ex ? pw[k].ex : pw[k].x, pg->o->key_places);
        if (!pg->o->latex && pw[k].x < 0 && !ex) /* Markdown shows the book's minus sign */
            fprintf(pg->out, " %s%s |", as_sheet_sym(pg, AS_SYM_MINUS), buf + 1);
        else
            fprintf(pg->out, pg->o->latex ? " & %s" : " %s |", buf);
    }
    fputs(pg->o->latex ? (ex ? "\n" : " \\\\ \\hline\n") : "\n", pg->out);
}

int as_sheet_exp_table(const as_sheet_page *pg)
{
    power *pw;
    long n = powers(pg, &pw);
    size_t i, k, m;

    if (n < 0)
        return -1;
    if (n > 0) {
        as_sheet_say(pg, AS_MSG_SHEET_EXP, NULL, 0);
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


void as_sheet_table_name(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o,
                         const as_table_view *v, int empty)
{
    const as_sheet_page pg = {NULL, o, s, 0, 0};
    const as_sheet_item it = {*v, empty};

    item_name(&pg, buf, size, &it);
}
