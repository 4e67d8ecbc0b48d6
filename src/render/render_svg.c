/* render_svg.c - `run --format svg`: each head's reading shares A as a heatmap, the
 * receiving tokens (Query) down the left, the read tokens (Key) across the top, a colour
 * scale beside. One self-contained file: no scripts, no links, fonts by name only.
 * Cells show at most 4 decimals; hovering a cell shows it at --digits. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FONT 14        /* px */
#define COL_W 8.0      /* px per display column of text at FONT (CJK counts two) */
#define CELL_H 36.0
#define CELL_MIN_W 56.0
#define CELL_PAD 10.0
#define MARGIN 24.0
#define TITLE_H 32.0   /* the document's title line */
#define HEAD_TOP 80.0  /* from a panel's top to its grid: title, axis caption, labels */
#define HEAD_BOTTOM 44.0
#define SCALE_GAP 40.0
#define SCALE_W 16.0
#define SCALE_MIN_H 120.0
#define CELL_DIGITS 4  /* decimals shown inside a cell */

/* ColorBrewer "Blues": 0 (white) to 1 (dark blue), evenly spaced. */
static const unsigned blues[] = {0xf7fbff, 0xdeebf7, 0xc6dbef, 0x9ecae1, 0x6baed6,
                                 0x4292c6, 0x2171b5, 0x08519c, 0x08306b};
#define NBLUES (sizeof blues / sizeof blues[0])

typedef struct svg_layout {
    double label_w;       /* the row labels' column */
    double cell_w;
    double grid_x, top;   /* left of every grid; top of the first panel */
    double panel_h;
    double width, height;
    int digits;           /* decimals inside a cell */
} svg_layout;

/* ---- text ---- */

/* <text x y ATTRS>s</text> */
static void text_at(FILE *out, double x, double y, const char *attrs, const char *s)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"%s>", x, y, attrs);
    as_xml_text(out, s);
    fputs("</text>\n", out);
}

static double text_w(const char *s)
{
    return (double)as_display_width(s) * COL_W;
}

/* The colour of share v in [0, 1] as "#rrggbb", linear between the Blues stops. */
static void share_color(char *buf, size_t size, double v)
{
    const double x = (v < 0 ? 0 : v > 1 ? 1 : v) * (NBLUES - 1);
    const size_t k = x >= NBLUES - 1 ? NBLUES - 2 : (size_t)x;
    const double f = x - (double)k;
    unsigned rgb = 0;
    int shift;

    for (shift = 16; shift >= 0; shift -= 8) {
        const double a = (blues[k] >> shift) & 0xff, b = (blues[k + 1] >> shift) & 0xff;
        rgb |= (unsigned)lround(a + (b - a) * f) << shift;
    }
    snprintf(buf, size, "#%06x", rgb);
}

/* ---- layout ---- */

static double widest_label(const char *const *labels, size_t count)
{
    double w = 0;
    size_t i;

    for (i = 0; i < count; i++)
        if (text_w(labels[i]) > w)
            w = text_w(labels[i]);
    return w;
}

/* Widths of the captions right of the grid: the scale's caption, ticks and legend. */
static double scale_side_w(const as_render_opts *o)
{
    double w = text_w(as_msg_text(o->lang, AS_MSG_FMT_SCALE));

    if (text_w(as_msg_text(o->lang, AS_MSG_FMT_MASKED)) + 22 > w)
        w = text_w(as_msg_text(o->lang, AS_MSG_FMT_MASKED)) + 22;
    return SCALE_GAP + (w > SCALE_W + 40 ? w : SCALE_W + 40);
}

static svg_layout layout(const as_problem *p, const as_render_opts *o)
{
    svg_layout L;
    double side, captions;

    L.digits = o->digits < CELL_DIGITS ? o->digits : CELL_DIGITS;
    L.label_w = widest_label(p->tokens, p->n) + CELL_PAD;
    L.cell_w = widest_label(p->kv_tokens, p->m) + 2 * CELL_PAD;
    if (L.cell_w < (L.digits + 2) * COL_W + 2 * CELL_PAD)
        L.cell_w = (L.digits + 2) * COL_W + 2 * CELL_PAD;
    if (L.cell_w < CELL_MIN_W)
        L.cell_w = CELL_MIN_W;
    L.grid_x = MARGIN + L.label_w;
    L.top = MARGIN + (p->in->title != NULL ? TITLE_H : 0);
    L.panel_h = HEAD_TOP + (double)p->n * CELL_H + HEAD_BOTTOM;
    side = scale_side_w(o);
    captions = MARGIN + text_w(as_msg_text(o->lang, AS_MSG_QKT_ROWS));
    if (p->in->title != NULL && MARGIN + text_w(p->in->title) * 1.3 > captions)
        captions = MARGIN + text_w(p->in->title) * 1.3; /* the title is larger */
    L.width = L.grid_x + (double)p->m * L.cell_w + side + MARGIN;
    if (captions + MARGIN > L.width)
        L.width = captions + MARGIN;
    L.height = L.top + (double)p->heads * L.panel_h + MARGIN;
    if (L.height < L.top + HEAD_TOP + SCALE_MIN_H + 60 + MARGIN)
        L.height = L.top + HEAD_TOP + SCALE_MIN_H + 60 + MARGIN;
    return L;
}

/* ---- drawing ---- */

/* The colour scale's gradient and the hatching of masked cells. */
static void defs(FILE *out)
{
    char c[16];
    size_t k;

    fputs("<defs>\n<linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n", out);
    for (k = 0; k < NBLUES; k++) {
        share_color(c, sizeof c, (double)k / (NBLUES - 1));
        fprintf(out, "<stop offset=\"%.3f\" stop-color=\"%s\"/>\n", (double)k / (NBLUES - 1), c);
    }
    fputs("</linearGradient>\n<pattern id=\"masked\" width=\"8\" height=\"8\" "
          "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\n"
          "<rect width=\"8\" height=\"8\" fill=\"#f2f2f2\"/>\n"
          "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#bdbdbd\" stroke-width=\"3\"/>\n"
          "</pattern>\n</defs>\n", out);
}

/* One cell of A, v, at (x, y): its colour, its value, and a tooltip at --digits; hatched
 * when the mask forbids it. */
static void cell(FILE *out, const svg_layout *L, const as_problem *p, double v, int masked,
                 size_t i, size_t j, double x, double y, const as_render_opts *o)
{
    char fill[16] = "url(#masked)", num[AS_NUM_BUF];

    fputs("<g><title>", out);
    as_xml_text(out, p->tokens[i]);
    fputs(" \xe2\x86\x92 ", out); /* → */
    as_xml_text(out, p->kv_tokens[j]);
    fputs(": ", out);
    if (masked) {
        as_xml_text(out, as_msg_text(o->lang, AS_MSG_FMT_MASKED));
        fprintf(out, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                     "fill=\"%s\" stroke=\"#ffffff\"/></g>\n", x, y, L->cell_w, CELL_H, fill);
        return;
    }
    as_fmt_display(num, sizeof num, v, o->digits, o->ascii);
    fprintf(out, "%s</title>", num);
    share_color(fill, sizeof fill, v);
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                 "stroke=\"#ffffff\"/>", x, y, L->cell_w, CELL_H, fill);
    as_fmt_display(num, sizeof num, v, L->digits, o->ascii);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text></g>\n",
            x + L->cell_w / 2, y + CELL_H / 2 + FONT * 0.35, v > 0.5 ? "#ffffff" : "#1a1a1a", num);
}

/* The panel's heading: "A = 每行softmax(S)", or "第1个头：A₁" with several heads. */
static void panel_title(FILE *out, double y, const as_problem *p, size_t h,
                        const as_render_opts *o)
{
    char buf[256], head[64], sub[32];

    if (p->heads == 1) {
        snprintf(buf, sizeof buf, "A = %s", as_msg_text(o->lang, AS_MSG_SOFTMAX_ROWS));
    } else {
        snprintf(head, sizeof head, as_msg_text(o->lang, AS_MSG_FMT_HEAD), h);
        as_subscript(sub, sizeof sub, h, o->ascii);
        snprintf(buf, sizeof buf, "%s: A%s = softmax(S%s)", head, sub, sub);
    }
    text_at(out, MARGIN, y, " font-weight=\"bold\" font-size=\"16\"", buf);
}

/* One head: heading, the Key axis caption and labels, the grid (A's rows and the mask's
 * as as_head_rows gives them), the Query caption. Returns 0, or -1 when a row could not
 * be had. */
static int panel(FILE *out, const svg_layout *L, const as_problem *p, const as_rows *A,
                 const as_rows *M, size_t h, const as_render_opts *o)
{
    const double y0 = L->top + (double)h * L->panel_h, gy = y0 + HEAD_TOP;
    const char *axis = " fill=\"#555555\" font-size=\"12\"";
    size_t i, j;

    panel_title(out, y0 + 18, p, h, o);
    text_at(out, L->grid_x, y0 + 44, axis, as_msg_text(o->lang, AS_MSG_QKT_COLS));
    for (j = 0; j < p->m; j++)
        text_at(out, L->grid_x + ((double)j + 0.5) * L->cell_w, gy - 10,
                " text-anchor=\"middle\" font-weight=\"bold\"", p->kv_tokens[j]);
    for (i = 0; i < p->n; i++) {
        const double *a = A->row(A->ctx, i), *mask = M->row(M->ctx, i);
        if (a == NULL || mask == NULL)
            return -1;
        text_at(out, L->grid_x - CELL_PAD, gy + ((double)i + 0.5) * CELL_H + FONT * 0.35,
                " text-anchor=\"end\" font-weight=\"bold\"", p->tokens[i]);
        for (j = 0; j < p->m; j++)
            cell(out, L, p, a[j], isinf(mask[j]), i, j, L->grid_x + (double)j * L->cell_w,
                 gy + (double)i * CELL_H, o);
    }
    text_at(out, MARGIN, gy + (double)p->n * CELL_H + 24, axis, as_msg_text(o->lang, AS_MSG_QKT_ROWS));
    return 0;
}

/* Head h's panel, its rows had from t. */
static int head_panel(FILE *out, const svg_layout *L, const as_problem *p, const as_trace *t,
                      size_t h, const as_render_opts *o)
{
    as_head_rows ha, hm;
    const as_rows A = as_head_rows_open(&ha, p, t, h, AS_T_A);
    const as_rows M = as_head_rows_open(&hm, p, t, 0, AS_T_M);
    const int rc = panel(out, L, p, &A, &M, h, o);

    as_head_rows_close(&ha);
    as_head_rows_close(&hm);
    return rc;
}


/* The colour scale right of the first grid: 0 at the bottom, 1 at the top; below it
 * the legend of the masked cells when there are any. */
static int scale(FILE *out, const svg_layout *L, const as_problem *p, const as_trace *t,
                 const as_render_opts *o)
{
    const double x = L->grid_x + (double)p->m * L->cell_w + SCALE_GAP, y = L->top + HEAD_TOP;
    const double h = (double)p->n * CELL_H > SCALE_MIN_H ? (double)p->n * CELL_H : SCALE_MIN_H;
    static const char *const tick[] = {"0", "0.5", "1"};
    size_t k;
    int any;

    text_at(out, x, y - 10, " font-size=\"12\" fill=\"#555555\"", as_msg_text(o->lang, AS_MSG_FMT_SCALE));
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#scale)\" "
                 "stroke=\"#888888\"/>\n", x, y, SCALE_W, h);
    for (k = 0; k < 3; k++) {
        const double ty = y + h - h * (double)k / 2;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888888\"/>\n",
                x + SCALE_W, ty, x + SCALE_W + 4, ty);
        text_at(out, x + SCALE_W + 7, ty + FONT * 0.35, " font-size=\"12\"", tick[k]);
    }
    if ((any = as_any_masked(p, t)) <= 0)
        return any;
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"url(#masked)\" "
                 "stroke=\"#bdbdbd\"/>\n", x, y + h + 16);
    text_at(out, x + 20, y + h + 27, " font-size=\"12\"", as_msg_text(o->lang, AS_MSG_FMT_MASKED));
    return 0;
}

int as_render_svg(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    const svg_layout L = layout(p, o);
    size_t h;

    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "viewBox=\"0 0 %.0f %.0f\" font-size=\"%d\" font-family=\"'Noto Sans CJK SC', "
                 "'Noto Sans SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', "
                 "sans-serif\">\n",
            ceil(L.width), ceil(L.height), ceil(L.width), ceil(L.height), FONT);
    fputs("<title>", out);
    as_xml_text(out, p->in->title != NULL ? p->in->title : "A");
    fputs("</title>\n", out);
    defs(out);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", out);
    if (p->in->title != NULL)
        text_at(out, MARGIN, MARGIN + 14, " font-size=\"18\" font-weight=\"bold\"", p->in->title);
    for (h = 0; h < t->heads; h++)
        if (head_panel(out, &L, p, t, h, o) != 0)
            return -1;
    if (scale(out, &L, p, t, o) != 0)
        return -1;
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
