/* textblock.c - lines of text composed the way the book lays out its tables. */
#include "attnstep/textblock.h"
#include "attnstep/numfmt.h"
#include "attnstep/threads.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- display width ---- */

/* Wide (two-column) code points: CJK, Hangul, full-width forms. */
static int is_wide(uint32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
           (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
           (c >= 0x20000 && c <= 0x3FFFD);
}

size_t as_display_width(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t w = 0;

    while (*p != 0 && *p < 0x80 && *p != 0x1b) /* plain ASCII, every table cell: one each */
        p++, w++;
    while (*p) {
        uint32_t c;
        int len;
        if (*p == 0x1b) { /* ANSI escape: ESC [ ... letter */
            p++;
            if (*p == '[')
                for (p++; *p && !(*p >= '@' && *p <= '~'); p++)
                    ;
            if (*p)
                p++;
            continue;
        }
        len = *p < 0x80 ? 1 : *p < 0xE0 ? 2 : *p < 0xF0 ? 3 : 4;
        c = len == 1 ? *p : (uint32_t)(*p & (0x3F >> (len - 1)));
        for (int k = 1; k < len && p[k]; k++)
            c = (c << 6) | (p[k] & 0x3F);
        w += is_wide(c) ? 2 : (c >= 0x300 && c <= 0x36F) ? 0 : 1; /* a combining mark (the
                                        hat of x̂) sits on the character before it */
        for (int k = 0; k < len && *p; k++)
            p++;
    }
    return w;
}

/* ---- lines ---- */

/* Writes line (trailing spaces trimmed) and a newline. */
static void print_line(FILE *out, const char *line)
{
    size_t len = strlen(line);

    while (len > 0 && line[len - 1] == ' ')
        len--;
    fwrite(line, 1, len, out);
    fputc('\n', out);
}

as_block as_block_stream(FILE *f)
{
    as_block b = {0};

    b.sink = f;
    return b;
}

int as_block_is_empty(const as_block *b)
{
    return b->count == 0 && b->written == 0;
}

int as_block_ends_blank(const as_block *b)
{
    return b->count > 0 ? b->line[b->count - 1][0] == '\0' : b->blank;
}

static void push(as_block *b, char *line);

void as_block_gap(as_block *b)
{
    if (!as_block_is_empty(b) && !as_block_ends_blank(b))
        b->gap = 1;
}

static void push(as_block *b, char *line)
{
    if (line == NULL) {
        b->failed = 1;
        return;
    }
    if (b->gap) {
        char *blank = line[0] != '\0' ? calloc(1, 1) : NULL;
        b->gap = 0;
        if (blank != NULL)
            push(b, blank);
        else if (line[0] != '\0')
            b->failed = 1;
    }
    if (b->sink != NULL) {
        print_line(b->sink, line);
        b->blank = line[0] == '\0';
        b->written++;
        b->failed |= ferror(b->sink) != 0;
        free(line);
        return;
    }
    if (b->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 8;
        char **grown = realloc(b->line, cap * sizeof *grown);
        if (grown == NULL) {
            free(line);
            b->failed = 1;
            return;
        }
        b->line = grown;
        b->cap = cap;
    }
    b->line[b->count++] = line;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    int len;
    char *s;

    va_copy(copy, ap);
    len = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (len < 0 || (s = malloc((size_t)len + 1)) == NULL)
        return NULL;
    vsnprintf(s, (size_t)len + 1, fmt, ap);
    return s;
}

void as_block_add(as_block *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    push(b, vformat(fmt, ap));
    va_end(ap);
}

/* a then b in a new string (NULL when memory says no): lines of a big table are long,
 * and printf's "%s" copies them a byte at a time. */
static char *joined(const char *a, const char *b)
{
    const size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 1);

    if (s != NULL) {
        memcpy(s, a, na);
        memcpy(s + na, b, nb + 1);
    }
    return s;
}

void as_block_append(as_block *dst, const as_block *src)
{
    size_t i;

    for (i = 0; i < src->count; i++)
        push(dst, joined(src->line[i], ""));
    dst->failed |= src->failed;
}

/* s followed by spaces up to display width w. */
static char *padded(const char *s, size_t w)
{
    const size_t have = as_display_width(s), len = strlen(s);
    const size_t pad = have < w ? w - have : 0;
    char *out = malloc(len + pad + 1);

    if (out == NULL)
        return NULL;
    memcpy(out, s, len);
    memset(out + len, ' ', pad);
    out[len + pad] = '\0';
    return out;
}

as_block as_block_beside(const as_block *a, const as_block *b, size_t gap)
{
    as_block out = {0};
    size_t i, w = 0, rows = a->count > b->count ? a->count : b->count;

    for (i = 0; i < a->count; i++)
        if (as_display_width(a->line[i]) > w)
            w = as_display_width(a->line[i]);
    for (i = 0; i < rows; i++) {
        char *left = padded(i < a->count ? a->line[i] : "", w + gap);
        if (left == NULL) {
            out.failed = 1;
            break;
        }
        push(&out, joined(left, i < b->count ? b->line[i] : ""));
        free(left);
    }
    out.failed |= a->failed | b->failed;
    return out;
}

void as_block_label(as_block *b, const char *label)
{
    const size_t w = as_display_width(label);
    size_t i;

    for (i = 0; i < b->count; i++) {
        char *old = b->line[i], *indent = padded("", w), *line = NULL;
        if (indent != NULL)
            line = joined(i == 0 ? label : indent, old);
        free(indent);
        if (line == NULL) {
            b->failed = 1;
            return;
        }
        b->line[i] = line;
        free(old);
    }
}

void as_block_print(FILE *out, const as_block *b)
{
    size_t i;

    for (i = 0; i < b->count; i++)
        print_line(out, b->line[i]);
}

void as_block_free(as_block *b)
{
    size_t i;

    for (i = 0; i < b->count; i++)
        free(b->line[i]);
    free(b->line);
    memset(b, 0, sizeof *b);
}

/* ---- a matrix, the book's way ---- */

/* Row i of m (a row source over a matrix). */
static const double *matrix_row(void *ctx, size_t i)
{
    const as_matrix *m = ctx;

    return &AS_AT(*m, i, 0);
}

as_rows as_rows_of(const as_matrix *m)
{
    const as_rows r = {m->rows, m->cols, matrix_row, (void *)m, 1};
    return r;
}

/* A formatted cell: its text, its bytes and its display width (both under 64). */
typedef struct cell {
    char text[AS_NUM_BUF - 2];
    unsigned char len, width;
} cell;

/* A cell as a large table keeps it between measuring and writing: 24 bytes, not 64 (the
 * table's cells are read back from memory, not from the caches). len 0: its text was
 * longer than KEPT_TEXT, to be formatted again. */
#define KEPT_TEXT 22
typedef struct kept_cell {
    char text[KEPT_TEXT];
    unsigned char len, width;
} kept_cell;

/* Formats v into c; sets *rounded when it is shown rounded, unless rounded is NULL (the
 * table is known to be rounded already, or it is being written). The text of a finite
 * number is ASCII: as many columns as bytes. A masked cell (-inf) is a copy of masked,
 * when given: that text made once (half of a causal layer's scores are masked). */
static void format_cell(cell *c, double v, const as_cell_style *st, int *rounded,
                        const cell *masked)
{
    size_t len;

    if (masked != NULL && v == -INFINITY) {
        *c = *masked;
        return;
    }
    len = as_fmt_display_text(c->text, sizeof c->text, v, st->digits, st->ascii, rounded);
    c->len = (unsigned char)len;
    c->width = (unsigned char)(isfinite(v) ? len : as_display_width(c->text));
}

/* The cell of a masked position (-inf) in style st. */
static cell masked_cell(const as_cell_style *st)
{
    cell c;

    format_cell(&c, -INFINITY, st, NULL, NULL);
    return c;
}

/* Keeps c in k (its whole text array: a copy of fixed size, which a compiler inlines). */
static void keep_cell(kept_cell *k, const cell *c)
{
    memcpy(k->text, c->text, KEPT_TEXT);
    k->len = c->len <= KEPT_TEXT ? c->len : 0;
    k->width = c->width;
}

/* A table of at least this many cells, with shared rows, is measured and written on
 * two threads, half the rows each (the cells' text is most of the time it takes). */
#define CELLS_SPLIT 4096

static int split_table(const as_rows *m)
{
    return m->shared && m->rows >= 2 && m->rows * m->cols >= CELLS_SPLIT;
}

/* Rows [from, to) of m measured into lay (colw zeroed by the caller). */
typedef struct measure_job {
    as_table_layout *lay;
    const as_rows *m;
    const as_cell_style *st;
    size_t from, to;
    kept_cell *keep; /* where to keep the cells, or NULL */
} measure_job;

static void measure_rows(void *arg)
{
    const measure_job *jb = arg;
    const size_t cols = jb->m->cols;
    size_t *const colw = jb->lay->colw; /* locals: the stores of the cells' text may not */
    int whole = jb->lay->whole, rounded = jb->lay->rounded; /* alias them */
    const cell masked = masked_cell(jb->st);
    size_t i, j;
    cell c;

    for (i = jb->from; i < jb->to; i++) {
        const double *row = jb->m->row(jb->m->ctx, i);
        kept_cell *const k = jb->keep != NULL ? jb->keep + i * cols : NULL;
        if (row == NULL) {
            jb->lay->failed = -1;
            break;
        }
        for (j = 0; j < cols; j++) {
            format_cell(&c, row[j], jb->st, rounded ? NULL : &rounded, &masked);
            if (k != NULL)
                keep_cell(&k[j], &c);
            if (whole && strpbrk(c.text, ".e") != NULL)
                whole = 0;
            if (c.width > colw[j])
                colw[j] = c.width;
        }
    }
    jb->lay->whole = whole;
    jb->lay->rounded = rounded;
}

int as_table_measure(as_table_layout *lay, const as_rows *m, const as_cell_style *st)
{
    as_table_layout low = {NULL, 1, 0, 0, NULL};
    measure_job top = {lay, m, st, 0, m->rows, NULL}, bottom;
    size_t j;

    memset(lay, 0, sizeof *lay);
    lay->whole = 1;
    if ((lay->colw = calloc(m->cols + 1, sizeof *lay->colw)) == NULL)
        return lay->failed = -1;
    if (!split_table(m) || (low.colw = calloc(m->cols + 1, sizeof *low.colw)) == NULL) {
        measure_rows(&top);
        return lay->failed;
    }
    lay->cells = top.keep = malloc(m->rows * m->cols * sizeof(kept_cell)); /* NULL: not kept */
    bottom = top;
    top.to = bottom.from = m->rows / 2;
    bottom.lay = &low;
    as_two_threads(measure_rows, &top, measure_rows, &bottom);
    for (j = 0; j < m->cols; j++)
        if (low.colw[j] > lay->colw[j])
            lay->colw[j] = low.colw[j];
    lay->whole &= low.whole;
    lay->rounded |= low.rounded;
    lay->failed |= low.failed;
    free(low.colw);
    return lay->failed;
}

void as_table_layout_free(as_table_layout *lay)
{
    free(lay->colw);
    free(lay->cells);
    memset(lay, 0, sizeof *lay);
}

/* Appends s[0..n) at *p. */
static void put(char **p, const char *s, size_t n)
{
    memcpy(*p, s, n);
    *p += n;
}

/* A kept cell in a column at most PAD_ROOM wide is written with two stores of fixed
 * size, which a compiler makes a few instructions: PAD_ROOM spaces, then the cell's whole
 * text array placed to end at the column's edge. The bytes beyond the text are
 * overwritten by the next cell's separator and spaces, or lie past the line's end ("]]"
 * and the NUL): a line has AS_NUM_BUF bytes of room for each cell. */
#define PAD_ROOM 24

/* Cell k right-aligned in a column colw wide at p; returns the end of its text. */
static char *put_kept(char *p, const kept_cell *k, size_t colw)
{
    memset(p, ' ', PAD_ROOM);
    memcpy(p + colw - k->width, k->text, KEPT_TEXT);
    return p + colw - k->width + k->len;
}

/* Row i (its numbers row): lead, "[[" or " [", the right-aligned cells, then "]]" or
 * "],". Returns the line (free it), or NULL when memory ran out. */
static char *matrix_line(const char *lead, const double *row, size_t i, const as_rows *m,
                         const as_table_layout *lay, const as_cell_style *st)
{
    const size_t seplen = lay->whole ? 1 : 2, on = st->on ? strlen(st->on) : 0,
                 off = st->off ? strlen(st->off) : 0, leadlen = strlen(lead);
    size_t j, len = leadlen + 8;
    char *line, *p;
    const kept_cell *kept =
        lay->cells != NULL ? (const kept_cell *)lay->cells + i * m->cols : NULL;
    const cell masked = masked_cell(st);
    cell one;

    for (j = 0; j < m->cols; j++)
        len += lay->colw[j] + AS_NUM_BUF + seplen + on + off;
    if ((line = p = malloc(len)) == NULL)
        return NULL;
    put(&p, lead, leadlen);
    put(&p, i == 0 ? "[[" : " [", 2);
    for (j = 0; j < m->cols; j++) {
        const int dim = st->on != NULL && isinf(row[j]) && row[j] < 0;
        if (j > 0) { /* ", " or ",": then its space is overwritten by what follows */
            memcpy(p, ", ", 2);
            p += seplen;
        }
        if (kept != NULL && kept[j].len != 0 && !dim && lay->colw[j] <= PAD_ROOM) {
            p = put_kept(p, &kept[j], lay->colw[j]);
            continue;
        }
        format_cell(&one, row[j], st, NULL, &masked);
        memset(p, ' ', lay->colw[j] - one.width);
        p += lay->colw[j] - one.width;
        if (dim)
            put(&p, st->on, on);
        put(&p, one.text, one.len);
        if (dim)
            put(&p, st->off, off);
    }
    put(&p, i + 1 == m->rows ? "]]" : "],", 3); /* with the NUL */
    return line;
}

/* Line (or "" below the table), line_width columns wide, padded to width columns, then
 * caption i (or ""). */
static void beside_line(as_block *out, const char *line, size_t line_width,
                        const as_block *captions, size_t i, size_t width)
{
    const char *caption = i < captions->count ? captions->line[i] : "";
    const size_t len = strlen(line), pad = line_width < width ? width - line_width : 0,
                 clen = strlen(caption);
    char *s = malloc(len + pad + clen + 1);

    if (s != NULL) {
        memcpy(s, line, len);
        memset(s + len, ' ', pad);
        memcpy(s + len + pad, caption, clen + 1);
    }
    push(out, s);
}

/* Lines [from, to) of a table made ahead (NULL where memory or a row was missing). */
typedef struct lines_job {
    char **made;
    const char *label, *indent;
    const as_rows *m;
    const as_table_layout *lay;
    const as_cell_style *st;
    size_t from, to;
} lines_job;

/* Line i of m: label before row 0, indent before the others; NULL when memory ran out. */
static char *table_line(const lines_job *jb, size_t i)
{
    const double *row = jb->m->row(jb->m->ctx, i);

    return row != NULL ? matrix_line(i == 0 ? jb->label : jb->indent, row, i, jb->m, jb->lay,
                                     jb->st)
                       : NULL;
}

static void make_lines(void *arg)
{
    const lines_job *jb = arg;
    size_t i;

    for (i = jb->from; i < jb->to; i++)
        jb->made[i] = table_line(jb, i);
}

/* Every line of a large shared table made at once, half on each thread; NULL (the lines
 * are then made one at a time) for any other table, or when memory says no. */
static char **lines_ahead(const lines_job *like)
{
    lines_job top = *like, bottom;

    if (!split_table(like->m) || (top.made = calloc(like->m->rows, sizeof *top.made)) == NULL)
        return NULL;
    bottom = top;
    top.to = bottom.from = like->m->rows / 2;
    as_two_threads(make_lines, &top, make_lines, &bottom);
    return top.made;
}

void as_table_write(as_block *out, const as_table_layout *lay, const as_rows *m,
                    const char *label, const as_block *captions, size_t gap,
                    const as_cell_style *st)
{
    const size_t caps = captions != NULL ? captions->count : 0;
    const size_t lines = m->rows > caps ? m->rows : caps;
    char *indent = padded("", as_display_width(label)), *line = NULL, **made = NULL;
    size_t i, w = 0;
    lines_job jb = {NULL, label, indent, m, lay, st, 0, m->rows};

    out->failed |= lay->failed != 0 || indent == NULL || (captions != NULL && captions->failed);
    if (!out->failed)
        made = lines_ahead(&jb);
    for (i = 0; i < lines && !out->failed; i++) {
        if (i < m->rows) {
            line = made != NULL ? made[i] : table_line(&jb, i);
            if (made != NULL)
                made[i] = NULL; /* taken */
            if (line == NULL) {
                out->failed = 1;
                break;
            }
        }
        if (i == 0)
            w = line != NULL ? as_display_width(line) : 0; /* every line is as wide */
        if (i < caps || (caps > 0 && out->sink == NULL)) {
            beside_line(out, line != NULL ? line : "", line != NULL ? w : 0, captions, i,
                        w + gap);
            free(line);
        } else { /* no caption: a streaming block trims the padding it would have */
            push(out, line); /* out owns it now */
        }
        line = NULL;
    }
    for (i = 0; made != NULL && i < m->rows; i++)
        free(made[i]); /* those not taken when a line failed */
    free(made);
    free(indent);
}

as_block as_block_matrix(const as_matrix *m, const as_cell_style *st, int *rounded)
{
    const as_rows rows = as_rows_of(m);
    as_table_layout lay;
    as_block b = {0};

    as_table_measure(&lay, &rows, st);
    *rounded = lay.rounded;
    as_table_write(&b, &lay, &rows, "", NULL, 0, st);
    as_table_layout_free(&lay);
    return b;
}
