/* render_html.c - `run --format html` and `trace --format html` (SPEC §17), written with
 * the one page skeleton (html_page.c): the tables in the chapter's order as steps, then
 * the block's (N1 … Y, with each norm's sub-steps) when block settings are on. Every
 * cell's tooltip is the very line `trace` writes for it (as_trace_lines_row), never
 * recomputed here; A and S are heatmaps with their numbers; the run's JSON is embedded
 * for the script (--predict judges a guess against it). trace's page lists under each
 * table the lines that made it, for the rows --row walks and the step --step names. No
 * n x n table is kept: every table is written a row at a time (SPEC §10).
 * Words come from the message table. */
#include "attnstep/block.h"
#include "attnstep/html.h"
#include "attnstep/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the lines trace writes, by the cell they make ---- */

typedef struct tip {
    as_table kind;
    size_t head, row, seq;
    long col;         /* -1: every cell of the row */
    char *line;
} tip;

typedef struct tips {
    tip *v;
    size_t count, cap;
    int failed;
} tips;

static void keep_tip(void *ctx, as_table t, size_t head, size_t row, long col, const char *line)
{
    tips *ts = ctx;
    size_t len = strlen(line);

    if (ts->count == ts->cap) {
        size_t cap = ts->cap ? ts->cap * 2 : 256;
        tip *v = realloc(ts->v, cap * sizeof *v);
        if (v == NULL) {
            ts->failed = 1;
            return;
        }
        ts->v = v;
        ts->cap = cap;
    }
    while (len > 0 && line[len - 1] == ' ')
        len--; /* trace writes its lines with trailing spaces trimmed */
    if ((ts->v[ts->count].line = malloc(len + 1)) == NULL) {
        ts->failed = 1;
        return;
    }
    memcpy(ts->v[ts->count].line, line, len);
    ts->v[ts->count].line[len] = '\0';
    ts->v[ts->count] = (tip){t, head, row, ts->count, col, ts->v[ts->count].line};
    ts->count++;
}

/* Orders tips by table, head, row, column, then trace's order. */
static int tip_cmp(const void *a, const void *b)
{
    const tip *x = a, *y = b;

    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->head != y->head)
        return x->head < y->head ? -1 : 1;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The first tip for (kind, head, row, col) and how many there are (*count). */
static const tip *tips_find(const tips *ts, as_table kind, size_t head, size_t row, long col,
                            size_t *count)
{
    const tip key = {kind, head, row, 0, col, NULL};
    size_t lo = 0, hi = ts->count, n = 0;

    while (lo < hi) { /* the first not below key */
        const size_t mid = lo + (hi - lo) / 2;
        if (tip_cmp(&ts->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo + n < ts->count && ts->v[lo + n].kind == kind && ts->v[lo + n].head == head &&
           ts->v[lo + n].row == row && ts->v[lo + n].col == col)
        n++;
    *count = n;
    return n > 0 ? &ts->v[lo] : NULL;
}

/* Forgets every tip of ts, keeping its room. */
static void tips_clear(tips *ts)
{
    size_t i;

    for (i = 0; i < ts->count; i++)
        free(ts->v[i].line);
    ts->count = 0;
}

static void tips_free(tips *ts)
{
    tips_clear(ts);
    free(ts->v);
}

/* ---- the page ---- */

/* The page keeps the projections' lines (each row's x, q, k, v: n·d of them) and the
 * lines of one receiving row at a time, walked again for each table that needs them,
 * and one row of the mask and the shares: never an n x m table (SPEC §10). */
typedef struct page {
    as_html h;
    const as_problem *p;
    const as_trace *t;
    const as_render_opts *o;
    const as_render_opts *walk_o; /* what trace's lines are walked with */
    tips proj;           /* the projections' lines, sorted */
    tips row;            /* the lines of receiving row row_at (every head), sorted */
    long row_at;         /* -1: none yet */
    int step_at;         /* the step of row_at walked */
    as_row_trace r;      /* row r_row of head r_hd: its mask and shares, for the heat */
    size_t r_hd;
    long r_row;          /* -1: none yet */
    int failed;          /* memory ran out */
    int lines;           /* trace: each table's lines under it */
    size_t first, last;  /* trace: the rows whose lines are listed (--row) */
    const as_table_view *v; /* the table being written */
} page;

/* The lines of receiving row i, who it reads (M's) and step s (0: every step and the
 * closing), walked when the page's row is another; NULL when memory ran out. */
static const tips *row_tips(page *pg, size_t i, int s)
{
    if (pg->failed)
        return NULL;
    if (pg->row_at != (long)i || pg->step_at != s) {
        tips_clear(&pg->row);
        pg->row_at = -1;
        if (as_trace_lines_row(pg->p, pg->t, pg->walk_o, i, s, keep_tip, &pg->row) != 0 ||
            pg->row.failed) {
            pg->failed = 1;
            return NULL;
        }
        qsort(pg->row.v, pg->row.count, sizeof *pg->row.v, tip_cmp);
        pg->row_at = (long)i;
        pg->step_at = s;
    }
    return &pg->row;
}

/* Where the lines that make the cells of a table of kind in row i are: the
 * projections', that row's walk of the one step that makes them (M's lines come with
 * every step), or none (NULL: the weights, the block's tables, the heads side by side). */
static const tips *tips_of(page *pg, as_table kind, size_t i)
{
    const int final = pg->p->heads == 1 && pg->p->Wo == NULL; /* the head's O is the layer's */

    switch (kind) {
    case AS_T_X: case AS_T_Q: case AS_T_K: case AS_T_V:
        return &pg->proj;
    case AS_T_QKT:
        return row_tips(pg, i, 1);
    case AS_T_S:
        return row_tips(pg, i, 2);
    case AS_T_M: case AS_T_A:
        return row_tips(pg, i, 3);
    case AS_T_C:
        return row_tips(pg, i, 4);
    case AS_T_O: /* the head's (step 4), or the layer's through Wo (the closing) */
        return final ? row_tips(pg, i, 4) : pg->p->Wo != NULL ? row_tips(pg, i, 0) : NULL;
    default:
        return NULL;
    }
}

/* Row i of head hd's mask and shares (r.M, r.A); NULL when memory ran out. */
static const as_row_trace *row_of(page *pg, size_t hd, size_t i)
{
    if (pg->failed)
        return NULL;
    if (pg->r_row != (long)i || pg->r_hd != hd) {
        pg->r_row = -1;
        if (as_trace_row(&pg->r, pg->t, pg->p, hd, i) != 0) {
            pg->failed = 1;
            return NULL;
        }
        pg->r_row = (long)i;
        pg->r_hd = hd;
    }
    return &pg->r;
}

/* What a table is, under its name. */
static as_msg table_words(as_table kind)
{
    static const as_msg words[AS_T_COUNT] = {
        [AS_T_X] = AS_MSG_HTML_T_X, [AS_T_W] = AS_MSG_HTML_T_W, [AS_T_Q] = AS_MSG_HTML_T_Q,
        [AS_T_K] = AS_MSG_HTML_T_K, [AS_T_V] = AS_MSG_HTML_T_V, [AS_T_QKT] = AS_MSG_HTML_T_QKT,
        [AS_T_M] = AS_MSG_HTML_T_M, [AS_T_S] = AS_MSG_HTML_T_S, [AS_T_A] = AS_MSG_HTML_T_A,
        [AS_T_O] = AS_MSG_HTML_T_O, [AS_T_C] = AS_MSG_HTML_T_C, [AS_T_N1] = AS_MSG_HTML_T_N1,
        [AS_T_H1] = AS_MSG_HTML_T_H1, [AS_T_N2] = AS_MSG_HTML_T_N2, [AS_T_U] = AS_MSG_HTML_T_U,
        [AS_T_G] = AS_MSG_HTML_T_G, [AS_T_F] = AS_MSG_HTML_T_F, [AS_T_D] = AS_MSG_HTML_T_D,
        [AS_T_H2] = AS_MSG_HTML_T_H2, [AS_T_Y] = AS_MSG_HTML_T_Y,
    };
    return words[kind] != 0 ? words[kind] : AS_MSG_HTML_T_W;
}

/* Nonzero for a table of the block around the layer (SPEC §15). */
static int block_table(as_table kind)
{
    return kind >= AS_T_N1 && kind <= AS_T_Y;
}

/* Where v's numbers are in the embedded JSON (SPEC §9), "" when it holds no such table
 * (the whole Q, K, V of several heads: the JSON has each head's). */
static void json_path(char *buf, size_t size, const page *pg, const as_table_view *v)
{
    const int one = pg->p->heads == 1;

    if (block_table(v->kind))
        snprintf(buf, size, "block.%s", v->name);
    else if (v->kind == AS_T_X || v->kind == AS_T_W)
        snprintf(buf, size, "inputs.%s", v->name);
    else if (v->kind == AS_T_M || (!v->per_head && (v->kind == AS_T_C || v->kind == AS_T_O)))
        snprintf(buf, size, "%s", v->kind == AS_T_M ? "M" : v->kind == AS_T_C ? "C" : "O");
    else if (v->per_head || one)
        snprintf(buf, size, "heads.%zu.%s", v->head, v->name);
    else
        buf[0] = '\0';
}

/* The heat class of cell (i, j) of the table being written: A by its share, S by the
 * share it becomes (so no number is made here), "x" where the mask forbids; "" for
 * other tables. */
static const char *heat(void *ctx, size_t i, size_t j)
{
    static const char *const level[] = {" h0", " h1", " h2", " h3", " h4"};
    page *pg = ctx;
    const as_table_view *v = pg->v;
    const as_row_trace *r;

    if (v->kind != AS_T_A && v->kind != AS_T_S)
        return "";
    if ((r = row_of(pg, v->head, i)) == NULL)
        return "";
    if (r->M[j] == -INFINITY)
        return " x";
    return r->A != NULL ? level[as_share_level(r->A[j])] : "";
}

/* The tips of cell (i, j): its own lines, else its row's; for a cell of S or A the mask
 * forbids, why it is not readable (M's line). */
static size_t cell_tips(void *ctx, size_t i, size_t j, const char **lines)
{
    page *pg = ctx;
    const as_table_view *v = pg->v;
    const as_row_trace *r;
    const tips *ts;
    const tip *t;
    int forbidden = 0;
    size_t n, k;

    if ((v->kind == AS_T_C && !v->per_head) || block_table(v->kind))
        return 0; /* the heads side by side: no line of trace makes a cell of it alone */
    if (v->kind == AS_T_S || v->kind == AS_T_A) {
        if ((r = row_of(pg, v->head, i)) == NULL)
            return 0;
        forbidden = r->M[j] == -INFINITY;
    }
    if ((ts = tips_of(pg, v->kind, i)) == NULL) /* with M's lines, for a forbidden cell */
        return 0;
    t = tips_find(ts, forbidden ? AS_T_M : v->kind, v->head, i, (long)j, &n);
    if (t == NULL && !forbidden)
        t = tips_find(ts, v->kind, v->head, i, -1, &n);
    n = n < AS_HTML_TIP_MAX ? n : AS_HTML_TIP_MAX;
    for (k = 0; k < n; k++)
        lines[k] = t[k].line;
    return n;
}

/* The tables trace --step s makes, whose lines it lists (s 0: every table's). */
static int lists_lines(const page *pg, as_table kind)
{
    static const unsigned made[5] = {
        0, 1u << AS_T_QKT, (1u << AS_T_S) | (1u << AS_T_B) | (1u << AS_T_M), 1u << AS_T_A,
        (1u << AS_T_O) | (1u << AS_T_C)};
    const int s = pg->o->step;

    return s < 1 || s > 4 || (made[s] & (1u << kind)) != 0;
}

/* Nonzero for a table trace walks a row at a time (--row): not the inputs and
 * projections, which it writes out for every row. */
static int row_walked(as_table kind)
{
    switch (kind) {
    case AS_T_X: case AS_T_W: case AS_T_Q: case AS_T_K: case AS_T_V: case AS_T_PE:
    case AS_T_QR: case AS_T_KR:
        return 0;
    default:
        return !block_table(kind);
    }
}

/* The lines of ts that made v, in trace's order, none twice in a row; *last is the
 * line listed last (a copy the caller frees), *shown how many were. */
static void list_lines(page *pg, const tips *ts, const as_table_view *v, char **last,
                       size_t *shown)
{
    size_t k;

    for (k = 0; k < ts->count && !pg->failed; k++) {
        const tip *t = &ts->v[k];
        char *copy;
        if (t->kind != v->kind || t->head != v->head || strcmp(t->line, *last ? *last : "") == 0)
            continue;
        if ((*shown)++ == 0)
            as_html_lines_begin(&pg->h, NULL);
        as_html_line(&pg->h, t->line);
        if ((copy = realloc(*last, strlen(t->line) + 1)) == NULL) {
            pg->failed = 1;
            return;
        }
        *last = strcpy(copy, t->line);
    }
}

/* The lines of trace that made v, in trace's order, once each (trace's page): the
 * projections' of every row, the other tables' of the rows --row walks, a row at a time. */
static void table_lines(page *pg, const as_table_view *v)
{
    char *last = NULL;
    size_t shown = 0, i;

    if ((v->kind == AS_T_C && !v->per_head) || !lists_lines(pg, v->kind))
        return;
    if (!row_walked(v->kind)) {
        if (tips_of(pg, v->kind, 0) == &pg->proj)
            list_lines(pg, &pg->proj, v, &last, &shown);
    } else if (tips_of(pg, v->kind, pg->first) != NULL) {
        for (i = pg->first; i <= pg->last && !pg->failed; i++) {
            const tips *ts = tips_of(pg, v->kind, i);
            if (ts != NULL)
                list_lines(pg, ts, v, &last, &shown);
        }
    }
    free(last);
    if (shown > 0)
        as_html_lines_end(&pg->h);
}

/* A norm's sub-steps under the table it makes: μ, σ² (or the mean square), the divisor
 * and x̂, each a grid. */
static int norm_steps(page *pg, const as_norm_trace *nt, const char *norm)
{
    const as_matrix *m[] = {&nt->mean, &nt->var, &nt->div, &nt->xhat};
    static const char *const key[] = {"mean", "var", "div", "xhat"};
    static const as_msg words[] = {AS_MSG_HTML_NORM_MEAN, AS_MSG_HTML_NORM_VAR,
                                   AS_MSG_HTML_NORM_DIV, AS_MSG_HTML_NORM_XHAT};
    char path[64], name[64];
    size_t k;
    int rc = 0;

    for (k = 0; k < 4 && rc == 0; k++) {
        if (m[k]->v == NULL)
            continue;
        snprintf(path, sizeof path, "block.%s.%s", norm, key[k]);
        snprintf(name, sizeof name, "%s.%s", norm, key[k]);
        rc = as_html_grid_write(&pg->h, &(as_html_grid){.name = name, .json = path,
                                                        .r = as_rows_of(m[k]), .rows = pg->p->tokens,
                                                        .caption = as_say(pg->o, words[k]),
                                                        .worked = 1});
    }
    return rc;
}

/* The norm whose output is the block's table kind, with its JSON name; NULL when none:
 * pre's norms make N1, N2 and Y, post's H1, H2 and Y. */
static const as_norm_trace *norm_of(const as_block_trace *b, as_table kind, const char **name)
{
    const int pre = b->N1.v != NULL;

    *name = kind == AS_T_Y ? "normf" : (kind == AS_T_N1 || kind == AS_T_H1) ? "norm1" : "norm2";
    if (kind == AS_T_Y)
        return b->normf.div.v != NULL ? &b->normf : NULL;
    if (kind == (pre ? AS_T_N1 : AS_T_H1))
        return &b->norm1;
    return kind == (pre ? AS_T_N2 : AS_T_H2) ? &b->norm2 : NULL;
}

/* One table as one step: its name and what it is, the table, its legend and lines. */
static int step(void *ctx, const as_table_view *v)
{
    page *pg = ctx;
    char name[128], path[64];
    const int worked = v->kind != AS_T_X && v->kind != AS_T_W && v->kind != AS_T_M;
    int rc;

    as_view_name(name, sizeof name, v, pg->o);
    json_path(path, sizeof path, pg, v);
    pg->v = v;
    as_html_step(&pg->h, name, as_say(pg->o, table_words(v->kind)));
    rc = as_html_grid_write(&pg->h, &(as_html_grid){.name = name, .json = path, .r = v->r,
                                                    .rows = v->rows, .cols = v->cols,
                                                    .worked = worked,
                                                    .marks = pg->lines && row_walked(v->kind),
                                                    .mark_first = pg->first,
                                                    .mark_last = pg->last,
                                                    .tip = cell_tips, .heat = heat, .ctx = pg});
    if (v->kind == AS_T_A || v->kind == AS_T_S)
        as_html_legend(&pg->h, v->kind == AS_T_S);
    if (pg->lines)
        table_lines(pg, v);
    if (block_table(v->kind)) {
        const char *norm;
        const as_norm_trace *nt = norm_of(pg->t->block, v->kind, &norm);
        if (nt != NULL && nt->div.v != NULL && rc == 0)
            rc = norm_steps(pg, nt, norm);
    }
    as_html_step_end(&pg->h);
    return rc != 0 || ferror(pg->h.out) ? -1 : 0;
}

static int run_json(FILE *out, void *ctx)
{
    const page *pg = ctx;

    return as_render_json(out, pg->p, pg->t, pg->walk_o); /* every table, whatever --step shows */
}

static int render(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o,
                  int lines)
{
    as_render_opts shown = *o;
    page pg = {.p = p, .t = t, .o = &shown, .walk_o = o, .row_at = -1, .r_row = -1,
               .lines = lines};
    int rc;

    if (lines && o->step != 0) /* trace --step N: the tables it starts from and makes */
        shown.only = as_trace_step_tables(o->step);
    if (lines && as_row_span(o->row, p->n, &pg.first, &pg.last) != 0)
        return -1;
    rc = as_trace_lines_inputs(p, t, o, keep_tip, &pg.proj);
    if (rc == 0 && !pg.proj.failed) {
        const char *title = p->in->title != NULL ? p->in->title : "attnstep";
        qsort(pg.proj.v, pg.proj.count, sizeof *pg.proj.v, tip_cmp);
        as_html_begin(&pg.h, out, title, AS_MSG_HTML_KEYS, &shown);
        rc = as_each_table(p, t, &shown, step, &pg); /* the block's among them */
        rc |= as_html_end(&pg.h, run_json, &pg);
    }
    rc |= pg.proj.failed || pg.failed ? -1 : 0;
    tips_free(&pg.proj);
    tips_free(&pg.row);
    as_row_trace_free(&pg.r);
    return rc != 0 || ferror(out) ? -1 : 0;
}

int as_render_html(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    return render(out, p, t, o, 0);
}

int as_render_html_trace(FILE *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o)
{
    return render(out, p, t, o, 1);
}
