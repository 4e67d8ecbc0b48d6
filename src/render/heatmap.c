/* heatmap.c - `run --heatmap`: after each head's A, the reading shares as a shaded grid
 * (░▒▓█, or background colours with --color), receiving tokens down the left and the
 * tokens read across the top, so where each row looks can be seen at a glance. Widths
 * are display columns, so Chinese labels (two columns each) line up. */
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LEVELS 5 /* 0, then the quarters (0,0.25] (0.25,0.5] (0.5,0.75] (0.75,1] */

static const char *const glyph[2][LEVELS] = {
    {"\xc2\xb7", "\xe2\x96\x91", "\xe2\x96\x92", "\xe2\x96\x93", "\xe2\x96\x88"}, /* ·░▒▓█ */
    {".", ":", "+", "*", "#"},                                                   /* --ascii */
};
static const int palette[LEVELS] = {0, 61, 30, 77, 220}; /* 256-colour, viridis-like; [0] unused */
static const char *const range[LEVELS] = {"0", "(0,0.25]", "(0.25,0.5]", "(0.5,0.75]",
                                          "(0.75,1]"};

const char *as_share_range(int lv)
{
    return range[lv >= 0 && lv < LEVELS ? lv : 0];
}

int as_share_level(double v)
{
    const double q = ceil(v * 4);

    return v <= 0 ? 0 : q >= 4 ? 4 : (int)q;
}

/* One cell, w columns wide: blank when masked, "·" for 0, else the shade (or colour). */
static void shade(FILE *f, int lv, int masked, size_t w, const as_render_opts *o)
{
    size_t k;

    if (masked || lv == 0) {
        fprintf(f, "%s%*s", masked ? " " : glyph[o->ascii != 0][0], (int)w - 1, "");
        return;
    }
    if (o->color) {
        fprintf(f, "\x1b[48;5;%dm%*s\x1b[0m", palette[lv], (int)w, "");
        return;
    }
    for (k = 0; k < w; k++)
        fputs(glyph[o->ascii != 0][lv], f);
}

/* s padded with spaces to display width w. */
static void pad(FILE *f, const char *s, size_t w)
{
    const size_t have = as_display_width(s);

    fprintf(f, "%s%*s", s, (int)(w > have ? w - have : 0), "");
}

static size_t widest(const char *const *labels, size_t count, size_t least)
{
    size_t i, w = least;

    for (i = 0; i < count; i++)
        if (as_display_width(labels[i]) > w)
            w = as_display_width(labels[i]);
    return w;
}

/* A memory stream for one line, or NULL (out marked failed) when memory runs out. */
static FILE *line_start(as_block *out, char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);

    if (f == NULL)
        out->failed = 1;
    return f;
}

/* Adds the line written to the memory stream f (closing it) to out. */
static void add_line(as_block *out, FILE *f, char **buf)
{
    if (fclose(f) != 0)
        out->failed = 1;
    else
        as_block_add(out, "%s", *buf);
    free(*buf);
}

/* The legend: each shade and the shares it stands for; blank cells are masked. */
static void legend(as_block *out, const as_rows *M, size_t indent, const as_render_opts *o)
{
    char *buf = NULL;
    size_t len, i, j;
    FILE *f = line_start(out, &buf, &len);
    int lv, any_masked = 0;

    if (f == NULL)
        return;
    fprintf(f, "%*s", (int)indent, "");
    for (lv = 0; lv < LEVELS; lv++) {
        shade(f, lv, 0, lv == 0 ? 1 : 2, o);
        fprintf(f, " %s  ", range[lv]);
    }
    for (i = 0; i < M->rows && !any_masked; i++) {
        const double *row = M->row(M->ctx, i);
        if (row == NULL) {
            out->failed = 1;
            break;
        }
        for (j = 0; j < M->cols; j++)
            any_masked |= isinf(row[j]);
    }
    if (any_masked)
        fputs(as_msg_text(o->lang, AS_MSG_FMT_BLANK), f);
    add_line(out, f, &buf);
}

void as_heatmap(as_block *out, const as_problem *p, const as_rows *M, const as_rows *A,
                const as_render_opts *o)
{
    const size_t rw = widest(p->tokens, p->n, 1), cw = widest(p->kv_tokens, p->m, 2);
    char *buf = NULL;
    size_t len, i, j;
    FILE *f;

    as_block_add(out, "%s", "");
    if ((f = line_start(out, &buf, &len)) == NULL)
        return;
    fprintf(f, "%*s", (int)rw + 2, "");
    for (j = 0; j < p->m; j++) {
        pad(f, p->kv_tokens[j], cw);
        fputc(' ', f);
    }
    add_line(out, f, &buf);
    for (i = 0; i < A->rows; i++) {
        const double *a = A->row(A->ctx, i), *mask = M->row(M->ctx, i);
        if (a == NULL || mask == NULL) {
            out->failed = 1;
            return;
        }
        if ((f = line_start(out, &buf, &len)) == NULL)
            return;
        pad(f, p->tokens[i], rw + 2);
        for (j = 0; j < A->cols; j++) {
            shade(f, as_share_level(a[j]), isinf(mask[j]), cw, o);
            fputc(' ', f);
        }
        add_line(out, f, &buf);
    }
    legend(out, M, rw + 2, o);
    as_block_add(out, "%s", "");
}
