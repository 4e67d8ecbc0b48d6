/* render_decode.c - `decode` as text (the walk-through, step by step) and as JSON. It
 * reads the decode record (decode.c) and never computes the maths: every number printed
 * is one the decode recorded, the work counts too. */
#include "attnstep/render_decode.h"
#include "attnstep/expand.h"
#include "attnstep/html.h"
#include "attnstep/render.h"
#include "attnstep/tables.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cache is drawn in full up to this many rows; longer, only its size is said. */
#define CACHE_SHOWN 8

/* A page's row of scores or shares of up to this many positions gives each cell the
 * walk's line for the row as its tooltip; a longer row's cells say what they are, so
 * that the page grows with the cells it shows (n² over the steps), not n³ (issue 30). */
#define ROW_TIP_SHOWN 16

typedef struct dwalk {
    const as_problem *p;
    const as_decode *d;
    const as_render_opts *o;
    as_expand_style st;
    as_block *b;
    as_decode_row r; /* the step's scores and shares, made again (as_decode_scores) */
} dwalk;


/* count values from v, contiguous. */
static as_view span(const double *v, size_t count)
{
    const as_view s = {v, 1, NULL, count};
    return s;
}

/* "q₂" (head < 0), or "o₂_h1": a row answer's name as check reads it back (SPEC §6). */
static void row_name(as_text *t, const dwalk *w, const char *name, size_t step, long head)
{
    as_expand_sub(t, name, step, &w->st);
    if (head >= 0)
        as_text_addf(t, "_h%ld", head);
}

/* "q₂ = [..]" (≈ when a shown value is rounded), into t. */
static void row_text(as_text *t, const dwalk *w, const char *name, size_t step, long head,
                     as_view v)
{
    as_text res = {0};
    const int rounded = as_expand_vector_whole(&res, &v, &w->st); /* check reads it back */

    row_name(t, w, name, step, head);
    as_text_addf(t, " %s %s", rounded ? as_sym_text(w->o->ascii, AS_SYM_APPROX) : "=",
                 as_text_str(&res));
    t->failed |= res.failed;
    as_text_free(&res);
}

/* Adds the line "q₂ = [..]", then note when given (a message with one %zu). */
static void row_line(dwalk *w, const char *name, size_t step, long head, as_view v,
                     as_msg note, size_t count)
{
    as_text t = {0};

    row_text(&t, w, name, step, head, v);
    if (note != AS_MSG_COUNT)
        as_text_addf(&t, as_say(w->o, note), count);
    as_block_add(w->b, "%s", as_text_str(&t));
    w->b->failed |= t.failed;
    as_text_free(&t);
}

/* Nonzero when the cached Queries and Keys are turned by RoPE: their rows are then
 * run's Qr and Kr (named qr_t, kr_t, Kr). */
static int turned(const as_problem *p)
{
    return p->positions == AS_POSITIONS_ROPE;
}

/* Row t of groups K/V groups side by side (the layer's K or V row when they are all),
 * into row[]. Layout, not arithmetic: the values are the cache's. */
static void groups_row(double *row, const as_matrix *c, size_t groups, size_t t)
{
    size_t g;

    for (g = 0; g < groups; g++)
        memcpy(row + g * c[g].cols, &AS_AT(c[g], t, 0), c[g].cols * sizeof *row);
}

/* The first head that reads K/V group g: run's tables of that head are the group's. */
static size_t group_head(const as_problem *p, size_t g)
{
    return g * (p->heads / p->kv_heads);
}

/* RoPE turns each head's Queries and Keys apart, and run keeps the turned ones only per
 * head (Qr₀, Kr₀ ...): with several heads the turned rows are named per head, "qr₂_h1",
 * each K/V group's after the first head that reads it. */
static int per_head(const as_problem *p)
{
    return turned(p) && p->heads > 1;
}

/* "只算新一行的投影：" then q_t, k_t, v_t: the layer's rows, every head (K/V group)
 * side by side, as run's Q, K, V hold them -- so that check reads them back. */
static void projections(dwalk *w, size_t t)
{
    const as_problem *p = w->p;
    const as_decode *d = w->d;
    const as_msg hn = p->heads > 1 ? AS_MSG_DC_HEAD : AS_MSG_COUNT;
    const as_msg gn = p->kv_heads > 1 ? AS_MSG_DC_GROUP : AS_MSG_COUNT;
    double *row = malloc((p->kv_heads * (p->d_k > p->d_v ? p->d_k : p->d_v) + 1) * sizeof *row);
    size_t h, g;

    as_block_add(w->b, "%s", as_say(w->o, AS_MSG_DC_NEW));
    if (row == NULL) {
        w->b->failed = 1;
        return;
    }
    if (per_head(p)) {
        for (h = 0; h < p->heads; h++)
            row_line(w, "qr", t, (long)h, span(&AS_AT(d->Q, t, h * p->d_k), p->d_k), AS_MSG_COUNT, 0);
        for (g = 0; g < p->kv_heads; g++)
            row_line(w, "kr", t, (long)group_head(p, g), span(&AS_AT(d->K[g], t, 0), p->d_k),
                     AS_MSG_COUNT, 0);
    } else {
        row_line(w, turned(p) ? "qr" : "q", t, -1, span(&AS_AT(d->Q, t, 0), d->Q.cols), hn,
                 p->heads);
        groups_row(row, d->K, p->kv_heads, t);
        row_line(w, turned(p) ? "kr" : "k", t, -1, span(row, p->kv_heads * p->d_k), gn,
                 p->kv_heads);
    }
    groups_row(row, d->V, p->kv_heads, t);
    row_line(w, "v", t, -1, span(row, p->kv_heads * p->d_v), gn, p->kv_heads);
    free(row);
}

/* One table of the cache, "K = [[..]]": its first rows rows of groups groups from c,
 * side by side; with head >= 0 named for that head ("Kr₂"). */
static as_block cache_table(const dwalk *w, const char *name, long head, const as_matrix *c,
                            size_t groups, size_t rows)
{
    const as_cell_style cs = {w->o->digits, w->o->ascii, NULL, NULL};
    as_matrix view = {rows, groups * c[0].cols, NULL};
    as_text label = {0};
    int rounded = 0;
    as_block b = {0};
    size_t t;

    if ((view.v = malloc((rows * view.cols + 1) * sizeof *view.v)) == NULL) {
        b.failed = 1;
        return b;
    }
    for (t = 0; t < rows; t++)
        groups_row(view.v + t * view.cols, c, groups, t);
    b = as_block_matrix(&view, &cs, &rounded);
    if (head >= 0)
        as_expand_sub(&label, name, (size_t)head, &w->st);
    else
        as_text_addf(&label, "%s", name);
    as_text_addf(&label, " %s ", rounded ? as_sym_text(w->o->ascii, AS_SYM_APPROX) : "=");
    as_block_label(&b, as_text_str(&label));
    b.failed |= label.failed;
    as_text_free(&label);
    free(view.v);
    return b;
}

/* K and V of the cache side by side, groups groups from group g on (head: as cache_table). */
static void cache_pair(dwalk *w, long head, size_t g, size_t groups, size_t rows)
{
    as_block k = cache_table(w, turned(w->p) ? "Kr" : "K", head, w->d->K + g, groups, rows);
    as_block v = cache_table(w, "V", head, w->d->V + g, groups, rows);
    as_block both = as_block_beside(&k, &v, 4);

    as_block_append(w->b, &both);
    w->b->failed |= k.failed | v.failed | both.failed;
    as_block_free(&k);
    as_block_free(&v);
    as_block_free(&both);
}

/* "缓存（到目前为止的3行）：" and K, V side by side while short: the first t+1 rows of
 * run's K and V (every K/V group side by side; with RoPE and several heads each group
 * apart, per_head()). */
static void cache(dwalk *w, size_t t)
{
    const as_problem *p = w->p;
    size_t g;

    as_block_add(w->b, as_say(w->o, AS_MSG_DC_CACHE), t + 1);
    if (p->mask == AS_MASK_WINDOW && p->window < p->n)
        as_block_add(w->b, as_say(w->o, AS_MSG_DC_WINDOW), p->window);
    if (t + 1 > CACHE_SHOWN)
        return;
    if (!per_head(p)) {
        cache_pair(w, -1, 0, p->kv_heads, t + 1);
        return;
    }
    for (g = 0; g < p->kv_heads; g++)
        cache_pair(w, (long)group_head(p, g), g, 1, t + 1);
}

/* Which cache rows step t reads: "读取缓存中的：[我,爱]". */
static void reads_line(dwalk *w, size_t t)
{
    as_text words = {0};
    size_t idx_first = w->d->first[t];

    as_expand_words(&words, w->p->kv_tokens + idx_first, NULL, t + 1 - idx_first, &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_DC_READS), as_text_str(&words));
    w->b->failed |= words.failed;
    as_text_free(&words);
}

/* A named row under a message with one %s: "缩放分数：s₂ = [..]" (the scores or the
 * shares over the positions the step reads, as check reads them back). */
static void vector_line(dwalk *w, as_msg m, const char *name, size_t t, long head,
                        const double *v, size_t count)
{
    as_text line = {0};

    row_text(&line, w, name, t, head, span(v, count));
    as_block_add(w->b, as_say(w->o, m), as_text_str(&line));
    w->b->failed |= line.failed;
    as_text_free(&line);
}

/* Each head's scores, shares and output over the cache rows read; named s_t, a_t, o_t,
 * with _hN when there are several heads (o_t also when Wo follows). */
static void heads(dwalk *w, size_t t)
{
    const as_problem *p = w->p;
    const as_decode *d = w->d;
    const size_t f = d->first[t], count = t + 1 - f;
    size_t h;

    for (h = 0; h < p->heads; h++) {
        const long hd = p->heads > 1 ? (long)h : -1;
        if (p->heads > 1)
            as_block_add(w->b, as_say(w->o, AS_MSG_HEAD_TITLE), h);
        if (as_decode_scores(&w->r, d, p, h, t) != 0) {
            w->b->failed = 1;
            return;
        }
        vector_line(w, AS_MSG_TR_SCALED, "s", t, hd, w->r.S + f, count);
        vector_line(w, AS_MSG_DC_SHARES, "a", t, hd, w->r.A + f, count);
        if (p->heads > 1 || p->Wo != NULL)
            row_line(w, "o", t, (long)h, span(&AS_AT(d->Oh[h], t, 0), p->d_v), AS_MSG_COUNT, 0);
    }
}

/* The output row, whether it is the run's bit for bit, and the work done. */
static void output(dwalk *w, size_t t)
{
    const as_decode *d = w->d;
    as_text line = {0};

    row_text(&line, w, "o", t, -1, span(&AS_AT(d->O, t, 0), d->O.cols));
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_OUT_ROW), w->p->tokens[t], as_text_str(&line));
    w->b->failed |= line.failed;
    as_text_free(&line);
    if (d->same != NULL && w->p->block == AS_BLOCK_NONE) /* with a block: after its rows */
        as_block_add(w->b, as_say(w->o, d->same[t] ? AS_MSG_DC_SAME : AS_MSG_DC_DIFFERS), t);
    as_block_add(w->b, as_say(w->o, AS_MSG_DC_WORK), d->reads[t] * w->p->heads, t + 1, t + 1,
                 d->full[t]);
}

/* "H1[2] = [..]", row t of the block's table m (registry row id), trace's name for a
 * row of a block table, into t. */
static void block_row_text(as_text *line, const dwalk *w, as_tab id, const as_matrix *m,
                           size_t t)
{
    const as_view v = span(&AS_AT(*m, t, 0), m->cols);
    as_text res = {0};
    const int rounded = as_expand_vector_whole(&res, &v, &w->st);

    as_text_addf(line, "%s[%zu] %s %s", as_tab_shown(id, w->o->ascii), t,
                 rounded ? as_sym_text(w->o->ascii, AS_SYM_APPROX) : "=", as_text_str(&res));
    line->failed |= res.failed;
    as_text_free(&res);
}

/* With a block, its tables from first to last that it makes: each one's row t (the
 * step made them row by row, block.h's row steps). */
static void block_rows(dwalk *w, size_t t, as_tab first, as_tab last)
{
    as_tab id;

    for (id = first; id <= last; id++) {
        const as_matrix *m = as_block_table(&w->d->blk, id);
        as_text line = {0};
        if (m == NULL)
            continue;
        block_row_text(&line, w, id, m, t);
        as_block_add(w->b, "%s", as_text_str(&line));
        w->b->failed |= line.failed;
        as_text_free(&line);
    }
}

static void step(dwalk *w, size_t t)
{
    const as_problem *p = w->p;

    as_block_gap(w->b);
    as_block_add(w->b, as_say(w->o, AS_MSG_DC_STEP), t, p->tokens[t]);
    if (p->block == AS_BLOCK_PRE) { /* step 1 of the block: what the attention reads */
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_DC_BLOCK_NORM));
        block_rows(w, t, AS_TAB_N1, AS_TAB_N1);
    }
    projections(w, t);
    cache(w, t);
    reads_line(w, t);
    heads(w, t);
    output(w, t);
    if (p->block != AS_BLOCK_NONE) { /* the rest of the block on the row */
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_DC_BLOCK_REST));
        block_rows(w, t, AS_TAB_H1, AS_TAB_Y);
        if (w->d->same != NULL)
            as_block_add(w->b, as_say(w->o, w->d->same[t] ? AS_MSG_DC_SAME_BLOCK
                                                          : AS_MSG_DC_DIFFERS_BLOCK), t);
    }
}

int as_render_decode_text(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o)
{
    as_block b = as_block_stream(out); /* each step is written as it is made */
    dwalk w = {p, d, o, {o->digits, o->ascii}, &b, {0}};
    size_t t;
    int rc;

    if (!d->keep || as_decode_row_init(&w.r, p) != 0)
        return -1;
    as_block_add(&b, "%s", as_say(w.o, AS_MSG_DC_INTRO));
    for (t = 0; t < d->n; t++)
        step(&w, t);
    as_block_gap(w.b);
    as_block_add(&b, as_say(w.o, AS_MSG_DC_TOTAL), d->n, d->dots, d->rows_full, d->dots_full);
    as_block_print(out, &b);
    rc = b.failed || ferror(out) ? -1 : 0;
    as_block_free(&b);
    as_decode_row_free(&w.r);
    return rc;
}

/* ---- JSON ---- */

static void json_row(FILE *out, const double *v, size_t count)
{
    size_t j;

    fputc('[', out);
    for (j = 0; j < count; j++) {
        if (j)
            fputc(',', out);
        as_json_number(out, v[j]); /* shortest round-trip text; -inf as null */
    }
    fputc(']', out);
}

/* rows rows of width count, at v with stride: one plain row when there is one (SPEC
 * §11: one head gives plain rows), else an array of rows. */
static void json_rows(FILE *out, const double *v, size_t stride, size_t rows, size_t count)
{
    size_t r;

    if (rows == 1) {
        json_row(out, v, count);
        return;
    }
    fputc('[', out);
    for (r = 0; r < rows; r++) {
        if (r)
            fputc(',', out);
        json_row(out, v + r * stride, count);
    }
    fputc(']', out);
}

/* The K/V rows of step t, one per K/V head. */
static void json_cache_row(FILE *out, const as_matrix *c, size_t groups, size_t t)
{
    size_t g;

    if (groups == 1) {
        json_row(out, &AS_AT(c[0], t, 0), c[0].cols);
        return;
    }
    fputc('[', out);
    for (g = 0; g < groups; g++) {
        if (g)
            fputc(',', out);
        json_row(out, &AS_AT(c[g], t, 0), c[g].cols);
    }
    fputc(']', out);
}

/* Each head's row t of the scores (shares: the shares) over the positions 0..t, made
 * again into r. Returns 0, or -1 when a step could not be made. */
static int json_head_rows(FILE *out, const as_problem *p, const as_decode *d, size_t t,
                          int shares, as_decode_row *r)
{
    size_t h;

    if (p->heads > 1)
        fputc('[', out);
    for (h = 0; h < p->heads; h++) {
        if (as_decode_scores(r, d, p, h, t) != 0)
            return -1;
        if (h)
            fputc(',', out);
        json_row(out, shares ? r->A : r->S, t + 1);
    }
    if (p->heads > 1)
        fputc(']', out);
    return 0;
}

/* With a block: ", "block": {"N1": [..], "H1": [..], …}", row t of each of the block's
 * tables that it makes, named as run's JSON names them. */
static void json_block_rows(FILE *out, const as_problem *p, const as_decode *d, size_t t)
{
    as_tab id;
    int any = 0;

    if (p->block == AS_BLOCK_NONE)
        return;
    fputs(", \"block\": {", out);
    for (id = AS_TAB_N1; id <= AS_TAB_Y; id++) {
        const as_matrix *m = as_block_table(&d->blk, id);
        if (m == NULL)
            continue;
        fprintf(out, "%s\"%s\": ", any ? ", " : "", as_tab_get(id)->name);
        json_row(out, &AS_AT(*m, t, 0), m->cols);
        any = 1;
    }
    fputc('}', out);
}

static int json_step(FILE *out, const as_problem *p, const as_decode *d, size_t t,
                     as_decode_row *r)
{
    fprintf(out, "    {\"t\": %zu, \"q\": ", t);
    json_rows(out, &AS_AT(d->Q, t, 0), p->d_k, p->heads, p->d_k);
    fputs(", \"k\": ", out);
    json_cache_row(out, d->K, p->kv_heads, t);
    fputs(", \"v\": ", out);
    json_cache_row(out, d->V, p->kv_heads, t);
    fputs(", \"scores\": ", out);
    if (json_head_rows(out, p, d, t, 0, r) != 0)
        return -1;
    fputs(", \"A\": ", out);
    if (json_head_rows(out, p, d, t, 1, r) != 0)
        return -1;
    fputs(", \"o\": ", out);
    json_row(out, &AS_AT(d->O, t, 0), d->O.cols);
    json_block_rows(out, p, d, t);
    fputc('}', out);
    return 0;
}

int as_render_decode_json(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o)
{
    as_decode_row r = {0};
    size_t t;

    (void)o;
    if (d->keep && as_decode_row_init(&r, p) != 0)
        return -1;
    fputs("{\n", out);
    if (d->keep) {
        fputs("  \"steps\": [\n", out);
        for (t = 0; t < d->n; t++) {
            if (json_step(out, p, d, t, &r) != 0) {
                as_decode_row_free(&r);
                return -1;
            }
            fputs(t + 1 < d->n ? ",\n" : "\n", out);
        }
        fputs("  ],\n", out);
    }
    as_decode_row_free(&r);
    fputs("  \"O\": ", out);
    as_json_matrix(out, &d->O); /* as run writes it: the same text, on two threads */
    fputs("\n}\n", out);
    return ferror(out) ? -1 : 0;
}

/* ---- the page (--format html, SPEC §17) ---- */

/* One grid of the page: its rows' tooltips (one line a row, made with the walk's own
 * row_text, so that each is the line the walk writes), and its rows at stride. */
typedef struct dgrid {
    const double *v;        /* rows x cols, row r at v + r * stride (or at rows[r]) */
    size_t stride;
    const double *const *rowp; /* or each row apart (a K/V group's row): NULL */
    char **tip;             /* [rows] its line, or NULL */
    const double *A, *S;    /* heat: the shares and scores of the row (one row), or NULL */
} dgrid;

static const double *dgrid_row(void *ctx, size_t i)
{
    const dgrid *g = ctx;

    return g->rowp != NULL ? g->rowp[i] : g->v + i * g->stride;
}

static size_t dgrid_tip(void *ctx, size_t i, size_t j, const char **lines)
{
    const dgrid *g = ctx;

    (void)j;
    if (g->tip == NULL || g->tip[i] == NULL)
        return 0;
    lines[0] = g->tip[i];
    return 1;
}

static const char *dgrid_heat(void *ctx, size_t i, size_t j)
{
    static const char *const level[] = {" h0", " h1", " h2", " h3", " h4"};
    const dgrid *g = ctx;

    (void)i;
    return g->A == NULL ? "" : g->S[j] == -INFINITY ? " x" : level[as_share_level(g->A[j])];
}

/* The text of as_block_add(fmt, arg) into a new string (NULL when memory ran out, here
 * or making t). */
static char *line_of(const as_text *t, const char *fmt)
{
    as_block b = {0};
    char *s = NULL;

    if (t->failed)
        return NULL;
    if (fmt != NULL)
        as_block_add(&b, fmt, as_text_str(t));
    else
        as_block_add(&b, "%s", as_text_str(t));
    if (!b.failed && b.count == 1)
        s = strdup(b.line[0]);
    as_block_free(&b);
    return s;
}

typedef struct dpage {
    dwalk w;
    as_html h;
    const char *const *labels; /* the tokens */
} dpage;

/* Writes one grid of rows x cols from g, named name, its numbers at JSON path (or ""),
 * the columns labelled cols (NULL: numbered), each row rows[i]. -1 when a row's tip (the
 * walk's line, made by the caller) is missing: memory ran out making it, and a page
 * without it would not be the page asked for. */
static int dgrid_write(dpage *pg, const char *name, const char *path, dgrid *g, size_t rows,
                       size_t cols, const char *const *rlabels, const char *const *clabels,
                       const char *caption)
{
    size_t i;

    for (i = 0; g->tip != NULL && i < rows; i++)
        if (g->tip[i] == NULL)
            return -1;
    return as_html_grid_write(&pg->h, &(as_html_grid){
        .name = name, .json = path, .r = (as_rows){rows, cols, dgrid_row, g, 0}, .rows = rlabels,
        .cols = clabels, .caption = caption, .corner = name, .worked = 1, .tip = dgrid_tip,
        .heat = g->A != NULL ? dgrid_heat : NULL, .ctx = g});
}

static void tips_free(char **tip, size_t n)
{
    size_t i;

    for (i = 0; tip != NULL && i < n; i++)
        free(tip[i]);
    free(tip);
}

/* The line row_line adds for (name, step, head, v, note, count), as the walk writes it,
 * in a new string (NULL when memory ran out). */
static char *walk_line(const dpage *pg, const char *name, size_t step, long head, as_view v,
                       as_msg note, size_t count)
{
    as_block b = {0};
    dwalk w = pg->w;
    char *s = NULL;

    w.b = &b;
    row_line(&w, name, step, head, v, note, count);
    if (!b.failed && b.count == 1)
        s = strdup(b.line[0]);
    as_block_free(&b);
    return s;
}

/* Row r's line for K (kind 0) or V of K/V group g, as the walk wrote it at step r: the
 * groups side by side ("k₂ = [..] for the 2 groups"), or with RoPE and several heads
 * each group's turned Keys apart ("kr₂_h1"). row is scratch for a row of every group. */
static char *cache_line(const dpage *pg, int kind, size_t g, size_t r, double *row)
{
    const as_problem *p = pg->w.p;
    const as_decode *d = pg->w.d;
    const as_msg gn = p->kv_heads > 1 ? AS_MSG_DC_GROUP : AS_MSG_COUNT;

    if (kind == 0 && per_head(p))
        return walk_line(pg, "kr", r, (long)group_head(p, g), span(&AS_AT(d->K[g], r, 0), p->d_k),
                         AS_MSG_COUNT, 0);
    groups_row(row, kind == 0 ? d->K : d->V, p->kv_heads, r);
    return walk_line(pg, kind == 0 ? (turned(p) ? "kr" : "k") : "v", r, -1,
                     span(row, p->kv_heads * (kind == 0 ? p->d_k : p->d_v)), gn, p->kv_heads);
}

/* The new row's q (one row per head), its k and v (one per K/V group), each row's
 * tooltip the walk's line for it. */
static int new_rows(dpage *pg, size_t t)
{
    const as_problem *p = pg->w.p;
    const as_decode *d = pg->w.d;
    const size_t H = p->heads, G = p->kv_heads, width = p->d_k > p->d_v ? p->d_k : p->d_v;
    const double **kr = calloc(G, sizeof *kr), **vr = calloc(G, sizeof *vr);
    char **qtip = calloc(H, sizeof *qtip), **ktip = calloc(G, sizeof *ktip),
         **vtip = calloc(G, sizeof *vtip), path[64];
    double *row = malloc((G * width + 1) * sizeof *row);
    size_t h, g;
    int rc = -1;

    if (kr == NULL || vr == NULL || qtip == NULL || ktip == NULL || vtip == NULL || row == NULL)
        goto done;
    for (h = 0; h < H; h++) { /* q: every head side by side, or with RoPE each head apart */
        if (per_head(p))
            qtip[h] = walk_line(pg, "qr", t, (long)h, span(&AS_AT(d->Q, t, h * p->d_k), p->d_k),
                                AS_MSG_COUNT, 0);
        else if (h == 0)
            qtip[h] = walk_line(pg, turned(p) ? "qr" : "q", t, -1,
                                span(&AS_AT(d->Q, t, 0), d->Q.cols),
                                H > 1 ? AS_MSG_DC_HEAD : AS_MSG_COUNT, H);
        else
            qtip[h] = strdup(qtip[0] != NULL ? qtip[0] : "");
    }
    for (g = 0; g < G; g++) {
        kr[g] = &AS_AT(d->K[g], t, 0), vr[g] = &AS_AT(d->V[g], t, 0);
        ktip[g] = cache_line(pg, 0, g, t, row), vtip[g] = cache_line(pg, 1, g, t, row);
    }
    {
        dgrid gq = {&AS_AT(d->Q, t, 0), p->d_k, NULL, qtip, NULL, NULL};
        dgrid gk = {NULL, 0, kr, ktip, NULL, NULL}, gv = {NULL, 0, vr, vtip, NULL, NULL};
        snprintf(path, sizeof path, "steps.%zu.q", t);
        rc = dgrid_write(pg, turned(p) ? "qr" : "q", path, &gq, H, p->d_k,
                         H > 1 ? NULL : pg->labels + t, NULL, as_say(pg->w.o, AS_MSG_HTML_DC_NEW));
        snprintf(path, sizeof path, "steps.%zu.k", t);
        if (rc == 0)
            rc = dgrid_write(pg, turned(p) ? "kr" : "k", path, &gk, G, p->d_k,
                             G > 1 ? NULL : pg->labels + t, NULL, NULL);
        snprintf(path, sizeof path, "steps.%zu.v", t);
        if (rc == 0)
            rc = dgrid_write(pg, "v", path, &gv, G, p->d_v, G > 1 ? NULL : pg->labels + t, NULL, NULL);
    }
done:
    tips_free(qtip, qtip != NULL ? H : 0);
    tips_free(ktip, ktip != NULL ? G : 0);
    tips_free(vtip, vtip != NULL ? G : 0);
    free(kr), free(vr), free(row);
    return rc;
}

/* The cache after step t: each K/V group's K and V, rows 0..t, row r's tooltip the
 * walk's line for k_r (v_r) at step r; longer than the walk draws it (CACHE_SHOWN
 * rows), only its size, as the walk says it, so the page grows with n, not n². */
static int cache_grids(dpage *pg, size_t t)
{
    const as_problem *p = pg->w.p;
    const as_decode *d = pg->w.d;
    char **tip = calloc(t + 1, sizeof *tip), cap[256];
    double *row = malloc((p->kv_heads * (p->d_k > p->d_v ? p->d_k : p->d_v) + 1) * sizeof *row);
    size_t g, r;
    int kind = 0, rc = tip == NULL || row == NULL ? -1 : 0;

    snprintf(cap, sizeof cap, as_say(pg->w.o, AS_MSG_HTML_DC_CACHE), t + 1);
    if (t + 1 > CACHE_SHOWN) {
        fputs("<p class=\"cap\">", pg->h.out);
        as_html_text(&pg->h, cap);
        fputs("</p>\n", pg->h.out);
        kind = 2; /* no grid */
    }
    for (; kind < 2 && rc == 0; kind++)
        for (g = 0; g < p->kv_heads && rc == 0; g++) {
            const as_matrix *c = kind == 0 ? d->K : d->V;
            const size_t w = kind == 0 ? p->d_k : p->d_v;
            dgrid gc = {c[g].v, w, NULL, tip, NULL, NULL};
            char name[32];
            for (r = 0; r <= t; r++) { /* k_r (v_r) as step r wrote it */
                free(tip[r]);
                tip[r] = cache_line(pg, kind, g, r, row);
            }
            snprintf(name, sizeof name, "%s%s", kind == 0 ? (turned(p) ? "Kr" : "K") : "V",
                     p->kv_heads > 1 ? "_g" : "");
            if (p->kv_heads > 1)
                snprintf(name + strlen(name), sizeof name - strlen(name), "%zu", g);
            rc = dgrid_write(pg, name, "", &gc, t + 1, w, pg->labels, NULL,
                             kind == 0 && g == 0 ? cap : NULL);
        }
    tips_free(tip, tip != NULL ? t + 1 : 0);
    free(row);
    return rc;
}

/* Each head's scores and shares over the cache, and the output row. */
static int row_grids(dpage *pg, size_t t)
{
    const as_problem *p = pg->w.p;
    const as_decode *d = pg->w.d;
    const size_t f = d->first[t], count = t + 1 - f;
    char path[64], *tip[1];
    as_text line = {0};
    size_t h;
    int rc = 0;

    for (h = 0; h < p->heads && rc == 0; h++) {
        const long hd = p->heads > 1 ? (long)h : -1;
        char sfx[24] = "", sname[32] = "s", aname[32] = "a";
        if (p->heads > 1) { /* named as the walk names them: s₁_h0 */
            snprintf(sfx, sizeof sfx, ".%zu", h);
            snprintf(sname, sizeof sname, "s_h%zu", h);
            snprintf(aname, sizeof aname, "a_h%zu", h);
        }
        if (as_decode_scores(&pg->w.r, d, p, h, t) != 0)
            return -1;
        {   /* the walk's lines: "缩放分数：s₂ = [..]", "读取份额：a₂ = [..]" */
            const double *S = pg->w.r.S, *A = pg->w.r.A;
            char **tips = t + 1 <= ROW_TIP_SHOWN ? tip : NULL;
            dgrid gs = {S, 0, NULL, tips, A, S}, ga = {A, 0, NULL, tips, A, S};
            row_text(&line, &pg->w, "s", t, hd, span(pg->w.r.S + f, count));
            tip[0] = line_of(&line, as_say(pg->w.o, AS_MSG_TR_SCALED));
            as_text_free(&line);
            snprintf(path, sizeof path, "steps.%zu.scores%s", t, sfx);
            rc = dgrid_write(pg, sname, path, &gs, 1, t + 1, pg->labels + t, pg->labels,
                             h == 0 ? as_say(pg->w.o, AS_MSG_HTML_DC_ROW) : NULL);
            free(tip[0]);
            row_text(&line, &pg->w, "a", t, hd, span(pg->w.r.A + f, count));
            tip[0] = line_of(&line, as_say(pg->w.o, AS_MSG_DC_SHARES));
            as_text_free(&line);
            snprintf(path, sizeof path, "steps.%zu.A%s", t, sfx);
            if (rc == 0)
                rc = dgrid_write(pg, aname, path, &ga, 1, t + 1, pg->labels + t, pg->labels, NULL);
            free(tip[0]);
            if (h + 1 == p->heads)
                as_html_legend(&pg->h, 0);
        }
    }
    if (rc == 0) {
        dgrid go = {&AS_AT(d->O, t, 0), 0, NULL, tip, NULL, NULL};
        row_text(&line, &pg->w, "o", t, -1, span(&AS_AT(d->O, t, 0), d->O.cols));
        {
            as_block b = {0};
            as_block_add(&b, as_say(pg->w.o, AS_MSG_TR_OUT_ROW), p->tokens[t], as_text_str(&line));
            tip[0] = !b.failed && !line.failed && b.count == 1 ? strdup(b.line[0]) : NULL;
            as_block_free(&b);
        }
        as_text_free(&line);
        snprintf(path, sizeof path, "steps.%zu.o", t);
        rc = dgrid_write(pg, "o", path, &go, 1, d->O.cols, pg->labels + t, NULL, NULL);
        free(tip[0]);
    }
    return rc;
}

/* With a block: each of its tables' row t (first to last), a grid each, its tooltip the
 * walk's line for it, its numbers at steps.t.block.NAME of the JSON. */
static int block_grids(dpage *pg, size_t t, as_tab first, as_tab last)
{
    as_tab id;
    int rc = 0;

    for (id = first; id <= last && rc == 0; id++) {
        const as_matrix *m = as_block_table(&pg->w.d->blk, id);
        as_text line = {0};
        char path[64], *tip[1];
        dgrid g = {NULL, 0, NULL, tip, NULL, NULL};
        if (m == NULL)
            continue;
        g.v = &AS_AT(*m, t, 0);
        block_row_text(&line, &pg->w, id, m, t);
        tip[0] = line_of(&line, NULL);
        as_text_free(&line);
        snprintf(path, sizeof path, "steps.%zu.block.%s", t, as_tab_get(id)->name);
        rc = dgrid_write(pg, as_tab_get(id)->name, path, &g, 1, m->cols, pg->labels + t, NULL,
                         id == first ? as_say(pg->w.o, id == AS_TAB_N1 ? AS_MSG_DC_BLOCK_NORM
                                                                       : AS_MSG_DC_BLOCK_REST)
                                     : NULL);
        free(tip[0]);
    }
    return rc;
}

/* The lines the walk writes for step t, under it. */
static int step_lines(dpage *pg, size_t t)
{
    as_block b = {0};
    dwalk w = pg->w;
    int rc;

    w.b = &b;
    step(&w, t);
    rc = b.failed ? -1 : 0;
    if (rc == 0)
        as_html_walk(&pg->h, NULL, &b);
    as_block_free(&b);
    return rc;
}

static int page_json(FILE *out, void *ctx)
{
    const dpage *pg = ctx;

    return as_render_decode_json(out, pg->w.p, pg->w.d, pg->w.o);
}

int as_render_decode_html(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o)
{
    dpage pg = {{p, d, o, {o->digits, o->ascii}, NULL, {0}}, {0}, p->tokens};
    char name[256];
    size_t t;
    int rc = 0;

    if (!d->keep || as_decode_row_init(&pg.w.r, p) != 0)
        return -1;
    as_html_begin(&pg.h, out, as_html_title(name, sizeof name, p->in->title,
                                            as_say(o, AS_MSG_HTML_DC_TITLE)),
                  AS_MSG_HTML_KEYS, o);
    for (t = 0; t < d->n && rc == 0; t++) {
        snprintf(name, sizeof name, as_say(o, AS_MSG_DC_STEP), t, p->tokens[t]);
        as_html_step(&pg.h, name, NULL);
        rc = p->block == AS_BLOCK_PRE ? block_grids(&pg, t, AS_TAB_N1, AS_TAB_N1) : 0;
        rc |= rc == 0 ? new_rows(&pg, t) : 0;
        rc |= rc == 0 ? cache_grids(&pg, t) : 0;
        rc |= rc == 0 ? row_grids(&pg, t) : 0;
        rc |= rc == 0 && p->block != AS_BLOCK_NONE ? block_grids(&pg, t, AS_TAB_H1, AS_TAB_Y) : 0;
        rc |= rc == 0 ? step_lines(&pg, t) : 0;
        as_html_step_end(&pg.h);
    }
    if (rc == 0) { /* the output, and the work against recomputing every row */
        as_block b = {0};
        dgrid go = {d->O.v, d->O.cols, NULL, NULL, NULL, NULL};
        as_html_step(&pg.h, "O", as_say(o, AS_MSG_HTML_T_O));
        rc = dgrid_write(&pg, "O", "O", &go, d->n, d->O.cols, p->tokens, NULL, NULL);
        as_block_add(&b, "%s", as_say(o, AS_MSG_DC_INTRO));
        as_block_add(&b, as_say(o, AS_MSG_DC_TOTAL), d->n, d->dots, d->rows_full, d->dots_full);
        as_html_lines_begin(&pg.h, NULL);
        for (t = 0; t < b.count; t++)
            as_html_line(&pg.h, b.line[t]);
        as_html_lines_end(&pg.h);
        rc |= b.failed ? -1 : 0;
        as_block_free(&b);
        as_html_step_end(&pg.h);
    }
    rc |= as_html_end(&pg.h, page_json, &pg);
    as_decode_row_free(&pg.w.r);
    return rc != 0 || ferror(out) ? -1 : 0;
}
