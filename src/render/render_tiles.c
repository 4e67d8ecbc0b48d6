/* render_tiles.c - the online softmax (`--tiles B`) as the walk-through, as tables and
 * as JSON. Every number is one tiles.c or the run recorded. */
#include "attnstep/render_tiles.h"
#include "attnstep/expand.h"
#include "attnstep/html.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct twalk {
    const as_problem *p;
    const as_render_opts *o;
    as_expand_style st;
    as_block *b;
} twalk;


/* Formats of the pieces of a line: a number, a vector, the tokens at positions. */
typedef struct piece {
    as_text t;
    int rounded;
} piece;

static piece number(const twalk *w, double v)
{
    piece x = {{0}, 0};

    if (v == -INFINITY)
        as_text_addf(&x.t, "%s", as_sym_text(w->o->ascii, AS_SYM_NEG_INF));
    else
        x.rounded = as_expand_number(&x.t, v, &w->st);
    return x;
}

static piece vector(const twalk *w, const double *v, size_t stride, const size_t *idx,
                    size_t count)
{
    piece x = {{0}, 0};
    const as_view view = {v, stride, idx, count};

    x.rounded = as_expand_vector(&x.t, &view, &w->st);
    return x;
}

static void drop(twalk *w, piece *x)
{
    w->b->failed |= x->t.failed;
    as_text_free(&x->t);
}

/* "第1块：读位置[爱]，缩放分数[0]" and what the block did to m, ℓ and the output. */
static void block(twalk *w, const as_tile_walk *tw, const double *srow, size_t B, size_t b)
{
    const size_t b0 = b * B, cnt = tw->count - b0 < B ? tw->count - b0 : B;
    as_text words = {0};
    piece s = vector(w, srow, 1, tw->pos + b0, cnt), mo = number(w, tw->m_old[b]),
          mn = number(w, tw->m[b]), f = number(w, tw->factor[b]), l = number(w, tw->l[b]),
          e = vector(w, tw->exps + b0, 1, NULL, cnt),
          acc = vector(w, tw->acc + b * w->p->d_v, 1, NULL, w->p->d_v);

    as_expand_words(&words, w->p->kv_tokens, tw->pos + b0, cnt, &w->st);
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_BLOCK), b, as_text_str(&words), as_text_str(&s.t));
    if (b == 0)
        as_block_add(w->b, as_say(w->o, AS_MSG_TL_FIRST), as_text_str(&mn.t));
    else if (tw->m[b] > tw->m_old[b])
        as_block_add(w->b, as_say(w->o, AS_MSG_TL_RISE), as_text_str(&mo.t), as_text_str(&mn.t),
                     as_text_str(&f.t));
    else
        as_block_add(w->b, as_say(w->o, AS_MSG_TL_SAME), as_text_str(&mn.t));
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_EXPS), as_text_str(&e.t));
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_STATE), as_text_str(&mn.t), as_text_str(&l.t),
                 as_text_str(&acc.t));
    w->b->failed |= words.failed;
    as_text_free(&words);
    drop(w, &s), drop(w, &mo), drop(w, &mn), drop(w, &f), drop(w, &l), drop(w, &e), drop(w, &acc);
}

/* Row i of head h: the start, every block, and the end, against the ordinary softmax. */
static void walk_row(twalk *w, const as_tiles *tl, size_t h, size_t i)
{
    const as_tile_walk *tw = as_tiles_row(tl, h, i);
    const size_t dv = w->p->d_v;
    const double zero = 0.0;
    piece z = vector(w, &zero, 0, NULL, dv), l, sum, a, o;
    as_text eq = {0};
    size_t b;

    if (tw == NULL) {
        w->b->failed = 1;
        drop(w, &z);
        return;
    }
    as_block_gap(w->b);
    as_block_add(w->b, as_say(w->o, AS_MSG_TR_ROW_TITLE), w->p->tokens[i], i);
    if (w->p->heads > 1)
        as_block_add(w->b, as_say(w->o, AS_MSG_HEAD_TITLE), h);
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_START), as_sym_text(w->o->ascii, AS_SYM_NEG_INF),
                 as_text_str(&z.t));
    for (b = 0; b < tw->blocks; b++)
        block(w, tw, tw->S, tl->B, b);
    l = number(w, AS_AT(tl->l[h], i, 0));
    sum = number(w, tw->run_sum);
    a = vector(w, tw->A, 1, tw->pos, tw->count);
    o = vector(w, &AS_AT(tl->O[h], i, 0), 1, NULL, dv);
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_FINAL), as_text_str(&l.t), as_text_str(&sum.t));
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_SHARES), as_text_str(&a.t));
    as_text_addf(&eq, "%s %s", o.rounded ? as_sym_text(w->o->ascii, AS_SYM_APPROX) : "=",
                 as_text_str(&o.t));
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_OUTPUT), as_text_str(&eq));
    w->b->failed |= eq.failed;
    as_text_free(&eq);
    drop(w, &z), drop(w, &l), drop(w, &sum), drop(w, &a), drop(w, &o);
}

/* The closing line -- the largest difference in ulp -- then the block written out. */
static int finish(twalk *w, FILE *out, const as_tiles *tl)
{
    char ulp[32];
    int rc;

    as_block_gap(w->b);
    snprintf(ulp, sizeof ulp, "%.0f", tl->max_ulp);
    as_block_add(w->b, as_say(w->o, AS_MSG_TL_ULP), ulp);
    as_block_print(out, w->b);
    rc = w->b->failed || ferror(out) ? -1 : 0;
    as_block_free(w->b);
    return rc;
}

int as_render_tiles_walk(FILE *out, const as_problem *p, const as_tiles *tl,
                         const as_render_opts *o)
{
    as_block b = as_block_stream(out); /* each row is written as it is made */
    twalk w = {p, o, {o->digits, o->ascii}, &b};
    size_t first, last;
    size_t i, h;

    if (as_row_span(o->row, p->n, &first, &last) != 0)
        first = 1, last = 0; /* no row: the title alone */
    as_block_add(&b, "%s", "");
    as_block_add(&b, as_say(w.o, AS_MSG_TL_TITLE), tl->B);
    for (i = first; i <= last && i < p->n; i++)
        for (h = 0; h < p->heads; h++)
            walk_row(&w, tl, h, i);
    return finish(&w, out, tl);
}

/* ---- run --tiles: tables ---- */

/* "m ≈ [[…]]" with the names check grades (SPEC §6): with several heads a head's O is
 * "O₁", as run prints it, but its m and ℓ are "m_h1", "ℓ_h1" ("m₁" is row 1's blocks). */
static void table(twalk *w, const char *name, size_t h, const as_matrix *m)
{
    const as_cell_style cs = {w->o->digits, w->o->ascii, NULL, NULL};
    as_text label = {0};
    int rounded = 0;
    as_block b = as_block_matrix(m, &cs, &rounded);

    if (w->p->heads > 1 && h != (size_t)-1 && strcmp(name, "O") == 0)
        as_expand_sub(&label, name, h, &w->st);
    else if (w->p->heads > 1 && h != (size_t)-1)
        as_text_addf(&label, "%s_h%zu", name, h);
    else
        as_text_addf(&label, "%s", name);
    as_text_addf(&label, " %s ", rounded ? as_sym_text(w->o->ascii, AS_SYM_APPROX) : "=");
    as_block_label(&b, as_text_str(&label));
    as_block_append(w->b, &b);
    w->b->failed |= b.failed | label.failed;
    as_block_free(&b);
    as_text_free(&label);
}

int as_render_tiles_text(FILE *out, const as_problem *p, const as_tiles *tl,
                         const as_render_opts *o)
{
    as_block b = {0};
    twalk w = {p, o, {o->digits, o->ascii}, &b};
    size_t h;

    as_block_add(&b, "%s", "");
    as_block_add(&b, as_say(w.o, AS_MSG_TL_RUN), tl->B);
    for (h = 0; h < p->heads; h++) {
        as_block_gap(w.b);
        if (p->heads > 1)
            as_block_add(&b, as_say(w.o, AS_MSG_HEAD_TITLE), h);
        table(&w, "m", h, &tl->m[h]);
        table(&w, o->ascii ? "l" : "\xe2\x84\x93", h, &tl->l[h]);
        table(&w, "O", h, &tl->O[h]);
    }
    if (p->heads > 1 || p->Wo != NULL) {
        as_block_gap(w.b);
        table(&w, "O", (size_t)-1, &tl->Out);
    }
    return finish(&w, out, tl);
}

/* ---- run --tiles --format json ---- */

static void json_matrix(FILE *out, const as_matrix *m)
{
    char buf[40];
    size_t i, j;

    fputc('[', out);
    for (i = 0; i < m->rows; i++) {
        fputs(i ? ",[" : "[", out);
        for (j = 0; j < m->cols; j++) {
            as_fmt_roundtrip(buf, sizeof buf, AS_AT(*m, i, j));
            fprintf(out, "%s%s", j ? "," : "", buf);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

/* Head h's shares, each row made again (as_tiles_row), as json_matrix writes a table.
 * Returns 0, or -1 when a row could not be had. */
static int json_shares(FILE *out, const as_problem *p, const as_tiles *tl, size_t h)
{
    char buf[40];
    size_t i, j;

    fputc('[', out);
    for (i = 0; i < p->n; i++) {
        const as_tile_walk *tw = as_tiles_row(tl, h, i);
        if (tw == NULL)
            return -1;
        fputs(i ? ",[" : "[", out);
        for (j = 0; j < p->m; j++) {
            as_fmt_roundtrip(buf, sizeof buf, tw->A[j]);
            fprintf(out, "%s%s", j ? "," : "", buf);
        }
        fputc(']', out);
    }
    fputc(']', out);
    return 0;
}

int as_render_tiles_json(FILE *out, const as_problem *p, const as_tiles *tl)
{
    size_t h;

    fprintf(out, "  \"tiles\": {\"B\": %zu, \"heads\": [", tl->B);
    for (h = 0; h < p->heads; h++) {
        fputs(h ? ",\n    {\"m\": " : "\n    {\"m\": ", out);
        json_matrix(out, &tl->m[h]);
        fputs(", \"l\": ", out);
        json_matrix(out, &tl->l[h]);
        fputs(", \"A\": ", out);
        if (json_shares(out, p, tl, h) != 0)
            return -1;
        fputs(", \"O\": ", out);
        json_matrix(out, &tl->O[h]);
        fputc('}', out);
    }
    fputs("\n  ], \"O\": ", out);
    json_matrix(out, &tl->Out);
    fprintf(out, ", \"max_ulp\": %.0f}", tl->max_ulp);
    return ferror(out) ? -1 : 0;
}

/* ---- the page (--format html, SPEC §17) ---- */

/* One walked row's blocks as a grid: block b's row is [m, ℓ, f, the running output],
 * its tooltip the walk's lines for that block. */
typedef struct tgrid {
    const as_tile_walk *tw;
    size_t dv;
    double *row;    /* [3 + dv] scratch: block b's numbers side by side (layout only) */
    as_block *said; /* [blocks] the walk's lines of each block */
    const char *share_tip; /* the shares' line (the shares grid) */
} tgrid;

static const double *block_row(void *ctx, size_t b)
{
    const tgrid *g = ctx;

    g->row[0] = g->tw->m[b], g->row[1] = g->tw->l[b], g->row[2] = g->tw->factor[b];
    memcpy(g->row + 3, g->tw->acc + b * g->dv, g->dv * sizeof *g->row);
    return g->row;
}

static size_t block_tip(void *ctx, size_t b, size_t j, const char **lines)
{
    const tgrid *g = ctx;
    size_t k;

    (void)j;
    for (k = 0; k < g->said[b].count && k < AS_HTML_TIP_MAX; k++)
        lines[k] = g->said[b].line[k];
    return k;
}

static const double *share_row(void *ctx, size_t i)
{
    (void)i;
    return ((const tgrid *)ctx)->tw->A;
}

static size_t share_tip(void *ctx, size_t i, size_t j, const char **lines)
{
    (void)i, (void)j;
    lines[0] = ((const tgrid *)ctx)->share_tip;
    return lines[0] != NULL;
}

static const char *share_heat(void *ctx, size_t i, size_t j)
{
    static const char *const level[] = {" h0", " h1", " h2", " h3", " h4"};
    const tgrid *g = ctx;

    (void)i;
    return g->tw->S[j] == -INFINITY ? " x" : level[as_share_level(g->tw->A[j])];
}

typedef struct tpage {
    twalk w;
    as_html h;
    const as_trace *t;
    const as_tiles *tl;
    size_t first, last;
    const char **cols; /* m, ℓ, f, then the output's columns */
    char (*num)[24];
} tpage;

/* The walk's text of row i, head h, under the step. */
static int row_text_pre(tpage *pg, size_t h, size_t i)
{
    as_block b = {0};
    twalk w = pg->w;
    int rc;

    w.b = &b;
    walk_row(&w, pg->tl, h, i);
    rc = b.failed ? -1 : 0;
    if (rc == 0)
        as_html_walk(&pg->h, NULL, &b);
    as_block_free(&b);
    return rc;
}

/* Row i of head h as one step: its blocks, its shares (a heatmap), the walk's lines. The
 * k-th walked row's blocks are walk.k in the JSON. */
static int tile_step(tpage *pg, size_t h, size_t i, size_t k)
{
    const as_problem *p = pg->w.p;
    const as_tile_walk *tw = as_tiles_row(pg->tl, h, i);
    tgrid g = {tw, p->d_v, NULL, NULL, NULL};
    char name[256], path[64];
    as_block sh = {0};
    size_t b;
    int rc = -1;

    if (tw == NULL || (g.row = malloc((3 + p->d_v) * sizeof *g.row)) == NULL ||
        (g.said = calloc(tw->blocks + 1, sizeof *g.said)) == NULL)
        goto done;
    for (b = 0; b < tw->blocks; b++) { /* the walk's own lines of each block */
        twalk w = pg->w;
        w.b = &g.said[b];
        block(&w, tw, tw->S, pg->tl->B, b);
        if (g.said[b].failed) /* a tooltip cut short is no tooltip */
            goto done;
    }
    snprintf(name, sizeof name, as_say(pg->w.o, AS_MSG_HTML_TL_ROW), i, p->tokens[i], h);
    as_html_step(&pg->h, name, NULL);
    snprintf(path, sizeof path, "walk.%zu.blocks", k);
    rc = as_html_grid_write(&pg->h, &(as_html_grid){
        .name = "blocks", .json = path, .r = (as_rows){tw->blocks, 3 + p->d_v, block_row, &g, 0},
        .cols = pg->cols, .caption = as_say(pg->w.o, AS_MSG_HTML_TL_COLS), .worked = 1,
        .tip = block_tip, .ctx = &g});
    if (rc == 0) {
        twalk w = pg->w;
        piece a = vector(&w, tw->A, 1, tw->pos, tw->count);
        w.b = &sh;
        as_block_add(&sh, as_say(pg->w.o, AS_MSG_TL_SHARES), as_text_str(&a.t));
        drop(&w, &a);
        g.share_tip = sh.count == 1 && !sh.failed ? sh.line[0] : NULL;
        snprintf(path, sizeof path, "tiles.heads.%zu.A.%zu", h, i);
        rc = g.share_tip == NULL ? -1 : as_html_grid_write(&pg->h, &(as_html_grid){
            .name = "A", .json = path, .r = (as_rows){1, p->m, share_row, &g, 0},
            .rows = p->tokens + i, .cols = p->kv_tokens, .caption = as_say(pg->w.o, AS_MSG_HTML_TL_END),
            .corner = "A", .worked = 1, .tip = share_tip, .heat = share_heat, .ctx = &g});
        as_html_legend(&pg->h, 0);
    }
    rc |= rc == 0 ? row_text_pre(pg, h, i) : 0;
    as_html_step_end(&pg->h);
done:
    for (b = 0; g.said != NULL && b < tw->blocks; b++)
        as_block_free(&g.said[b]);
    free(g.said);
    free(g.row);
    as_block_free(&sh);
    return rc;
}

/* The run's JSON with "tiles" and the walked rows' blocks, "walk": [{"row", "head",
 * "blocks": [[m, ℓ, f, output...], ...]}, ...], added. */
static int tiles_page_json(FILE *out, void *ctx)
{
    tpage *pg = ctx;
    const as_problem *p = pg->w.p;
    char buf[40];
    size_t i, h, b, j, k = 0;

    if (as_render_json_members(out, p, pg->t, pg->w.o) != 0)
        return -1;
    fputs(",\n", out);
    if (as_render_tiles_json(out, p, pg->tl) != 0)
        return -1;
    fputs(",\n  \"walk\": [", out);
    for (i = pg->first; i <= pg->last; i++)
        for (h = 0; h < p->heads; h++, k++) {
            const as_tile_walk *tw = as_tiles_row(pg->tl, h, i);
            if (tw == NULL)
                return -1;
            fprintf(out, "%s{\"row\": %zu, \"head\": %zu, \"blocks\": [", k ? ", " : "", i, h);
            for (b = 0; b < tw->blocks; b++) {
                const double v[3] = {tw->m[b], tw->l[b], tw->factor[b]};
                fputs(b ? ",[" : "[", out);
                for (j = 0; j < 3 + p->d_v; j++) {
                    as_fmt_roundtrip(buf, sizeof buf, j < 3 ? v[j] : tw->acc[b * p->d_v + j - 3]);
                    fprintf(out, "%s%s", j ? "," : "", buf);
                }
                fputc(']', out);
            }
            fputs("]}", out);
        }
    fputs("]\n}\n", out);
    return ferror(out) ? -1 : 0;
}

int as_render_tiles_html(FILE *out, const as_problem *p, const as_trace *t, const as_tiles *tl,
                         const as_render_opts *o, int walked)
{
    tpage pg = {{p, o, {o->digits, o->ascii}, NULL}, {0}, t, tl, 0, 0, NULL, NULL};
    char title[256];
    size_t i, h, k = 0, j;
    int rc = 0;

    if (walked ? as_row_span(o->row, p->n, &pg.first, &pg.last) != 0
               : as_row_span(AS_ROW_ALL, p->n, &pg.first, &pg.last) != 0)
        return -1;
    pg.cols = malloc((3 + p->d_v) * sizeof *pg.cols);
    pg.num = malloc((p->d_v + 1) * sizeof *pg.num);
    if (pg.cols == NULL || pg.num == NULL) {
        free(pg.cols), free(pg.num);
        return -1;
    }
    pg.cols[0] = "m", pg.cols[1] = o->ascii ? "l" : "\xe2\x84\x93", pg.cols[2] = "f";
    for (j = 0; j < p->d_v; j++) { /* the output's columns, numbered */
        snprintf(pg.num[j], sizeof pg.num[j], "%zu", j);
        pg.cols[3 + j] = pg.num[j];
    }
    snprintf(title, sizeof title, as_say(o, AS_MSG_HTML_TL_TITLE), tl->B);
    {
        char heading[512];
        as_html_begin(&pg.h, out, as_html_title(heading, sizeof heading, p->in->title, title),
                      AS_MSG_HTML_KEYS, o);
    }
    for (i = pg.first; i <= pg.last && rc == 0; i++)
        for (h = 0; h < p->heads && rc == 0; h++)
            rc = tile_step(&pg, h, i, k++);
    if (rc == 0) { /* the output the blocks made, and how near the ordinary run's */
        char ulp[32];
        as_block b = {0};
        as_html_step(&pg.h, "O", title);
        rc = as_html_grid_write(&pg.h, &(as_html_grid){.name = "O", .json = "tiles.O",
                                                       .r = as_rows_of(&tl->Out), .rows = p->tokens,
                                                       .worked = 1});
        snprintf(ulp, sizeof ulp, "%.0f", tl->max_ulp);
        as_block_add(&b, as_say(o, AS_MSG_TL_ULP), ulp);
        rc |= b.count == 1 && !b.failed ? 0 : -1;
        as_html_lines_begin(&pg.h, NULL);
        as_html_line(&pg.h, rc == 0 ? b.line[0] : "");
        as_html_lines_end(&pg.h);
        as_block_free(&b);
        as_html_step_end(&pg.h);
    }
    rc |= as_html_end(&pg.h, tiles_page_json, &pg);
    free(pg.cols), free(pg.num);
    return rc != 0 || ferror(out) ? -1 : 0;
}
