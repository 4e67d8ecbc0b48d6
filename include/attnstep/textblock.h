/* textblock.h - blocks of text lines for the terminal renderers: a table printed the
 * book's way, labels before it, captions beside it, blocks side by side. Widths are
 * display columns (CJK characters count 2, ANSI colour codes 0). */
#ifndef ATTNSTEP_TEXTBLOCK_H
#define ATTNSTEP_TEXTBLOCK_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/matrix.h"

typedef struct as_block {
    char **line;
    size_t count, cap;
    int failed; /* set when memory ran out (or the sink refused a line): incomplete */
    FILE *sink; /* a streaming block (as_block_stream): lines are written, not kept */
    size_t written; /* lines a streaming block wrote */
    int blank;      /* whether the last line it wrote was empty */
    int gap;        /* a blank line is due before the next line (as_block_gap) */
} as_block;

/* A block that writes each line to f as it is added (trailing spaces trimmed) instead
 * of keeping it: a renderer's output streams, memory holds one table at a time. */
as_block as_block_stream(FILE *f);

/* Nonzero when no line was added to b (kept or written). */
int as_block_is_empty(const as_block *b);

/* Nonzero when the last line added to b was empty. */
int as_block_ends_blank(const as_block *b);

/* A blank line between groups: never first, never two in a row, and never last (it is
 * written only when another line follows). */
void as_block_gap(as_block *b);

/* Display width of a UTF-8 string: wide East Asian characters count 2, ANSI escape
 * sequences 0, other characters 1. */
size_t as_display_width(const char *s);

/* Appends a printf-formatted line (which must not hold a newline). */
void as_block_add(as_block *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends every line of src to dst. */
void as_block_append(as_block *dst, const as_block *src);

/* Returns a new block: a's lines padded to a's widest line plus gap, then b's lines
 * beside them (the shorter block padded with empty lines). The caller frees it. */
as_block as_block_beside(const as_block *a, const as_block *b, size_t gap);

/* Prefixes the first line with label and indents the others to line up beneath. */
void as_block_label(as_block *b, const char *label);

/* Writes every line (trailing spaces trimmed) and a newline after each. */
void as_block_print(FILE *out, const as_block *b);

/* Frees the lines and leaves b empty. */
void as_block_free(as_block *b);

/* Options for how a matrix's cells look. */
typedef struct as_cell_style {
    int digits;        /* decimal places */
    int ascii;         /* -inf instead of −∞ */
    const char *on;    /* escape sequence before a dimmed cell (masked), or NULL */
    const char *off;   /* escape sequence after it */
} as_cell_style;

/* A table given one row at a time: row(ctx, i) returns the cols numbers of row i, which
 * hold until the next call, or NULL when memory ran out. A table too large to keep
 * whole (a long trace's scores) is written from its rows, made again when asked. */
typedef struct as_rows {
    size_t rows, cols;
    const double *(*row)(void *ctx, size_t i);
    void *ctx;
    int shared; /* nonzero when rows stay put and two threads may ask at once (a matrix):
                 * a large table is then measured and written half the rows on each */
} as_rows;

/* The rows of m (shared). */
as_rows as_rows_of(const as_matrix *m);

/* How the book lays out a table: each column's width, whether every cell is whole, and
 * whether any is shown rounded. */
typedef struct as_table_layout {
    size_t *colw;
    int whole, rounded;
    int failed; /* memory ran out, or a row could not be had */
    void *cells; /* a large shared table's cells as measured, written without formatting
                  * them again (NULL: formatted again row by row) */
} as_table_layout;

/* Reads every row of m once to lay it out: fills lay (free it with
 * as_table_layout_free()). Returns 0, or -1 (lay->failed set) when memory ran out. */
int as_table_measure(as_table_layout *lay, const as_rows *m, const as_cell_style *st);

/* Frees what lay holds and leaves it zeroed. */
void as_table_layout_free(as_table_layout *lay);

/* Appends the book's bracketed form of m laid out by lay, reading each row again one at
 * a time: label before the first line, the others indented beneath it, and when
 * captions has lines, each caption beside its line, gap columns after the table (as
 * as_block_matrix(), as_block_label() and as_block_beside() make it, without keeping
 * the table). */
void as_table_write(as_block *out, const as_table_layout *lay, const as_rows *m,
                    const char *label, const as_block *captions, size_t gap,
                    const as_cell_style *st);

/* The book's bracketed form of m: [[a,b],\n [c,d]] with right-aligned columns ("," between
 * whole numbers, ", " when any cell has decimals). Sets *rounded to 1 when any cell is
 * shown rounded (the caller then writes ≈ instead of =). */
as_block as_block_matrix(const as_matrix *m, const as_cell_style *st, int *rounded);

#endif
