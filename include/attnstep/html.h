/* html.h - the one page skeleton every `--format html` page is written with (SPEC §17):
 * run and trace, decode, grad, --tiles, the block and check's class report. It writes
 * the head (inline style, the words of the keys), the steps, the grids of numbers
 * (each cell focusable, its tooltip the lines that made it), the embedded JSON and the
 * small inline script that reveals the steps and moves between cells. It computes
 * nothing: each page hands it numbers, lines and words. (render_html.c) */
#ifndef ATTNSTEP_HTML_H
#define ATTNSTEP_HTML_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/i18n.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

/* A page being written. */
typedef struct as_html {
    FILE *out;
    const as_render_opts *o;
    size_t step; /* steps written so far */
} as_html;

/* At most this many cells make one page (SPEC §10, §17): a page of more (hundreds of
 * megabytes of HTML) is one no browser opens, so it is refused before any output. */
#define AS_HTML_MAX_CELLS ((size_t)1 << 22)

/* At most this many lines make one cell's tooltip. */
#define AS_HTML_TIP_MAX 16

/* One table of numbers as a grid of focusable cells. */
typedef struct as_html_grid {
    const char *name;         /* as the tooltip and the page name it ("A", "dS₀", "k") */
    const char *json;         /* where its rows are in the embedded JSON ("heads.0.A";
                                 a plain row is one row), or "" when they are not there */
    as_rows r;                /* its numbers */
    const char *const *rows;  /* the rows' labels, or NULL: numbered from 0 */
    const char *const *cols;  /* the columns' labels, or NULL: numbered from 0 */
    const char *caption;      /* a line above the grid, or NULL */
    const char *corner;       /* its name in the grid's top-left corner, or NULL */
    int worked;               /* nonzero: --predict hides its values until guessed */
    int marks;                /* nonzero: rows mark_first..mark_last are marked as walked */
    size_t mark_first, mark_last;
    /* The lines that made cell (i, j), into lines (at most AS_HTML_TIP_MAX), and how
     * many; 0: the page says what the cell is. NULL: none for any cell. */
    size_t (*tip)(void *ctx, size_t i, size_t j, const char **lines);
    /* The heat class of cell (i, j): " h0" … " h4" (its share's quarter), " x" (the mask
     * forbids it), or "". NULL: no heat. */
    const char *(*heat)(void *ctx, size_t i, size_t j);
    void *ctx;
} as_html_grid;

/* Writes the page's head, its title and how to move through it (keys: the words that
 * say so), and opens its main. */
void as_html_begin(as_html *h, FILE *out, const char *title, as_msg keys,
                   const as_render_opts *o);

/* The heading of a page of kind (its words) for an input titled title (NULL: none):
 * "TITLE · KIND", or KIND; into buf, which it returns. */
const char *as_html_title(char *buf, size_t size, const char *title, const char *kind);

/* Opens the next step: its number, name and (words, or NULL) what it is. */
void as_html_step(as_html *h, const char *name, const char *words);

/* Closes the step opened last. */
void as_html_step_end(as_html *h);

/* Writes g in the open step. Returns 0, or -1 when a row could not be had. */
int as_html_grid_write(as_html *h, const as_html_grid *g);

/* The legend of a heatmap of shares (scores: shaded by the share each becomes). */
void as_html_legend(as_html *h, int scores);

/* A list of the lines that made what the step shows, under heading (or the words
 * "cell by cell" when NULL): begin, each line, end. */
void as_html_lines_begin(as_html *h, const char *heading);
void as_html_line(as_html *h, const char *line);
void as_html_lines_end(as_html *h);

/* The lines of a walk (as the text renderer made them), as they are, their columns
 * aligned, under heading (NULL: "cell by cell"). */
void as_html_walk(as_html *h, const char *heading, const as_block *walk);

/* Writes s escaped for the page. */
void as_html_text(as_html *h, const char *s);

/* Closes main, writes the live region, the tooltip, the words and the JSON json(out,
 * ctx) writes (NULL: "{}") for the script, the script and the end. Returns 0, or -1
 * when json failed, memory ran out or writing failed. */
int as_html_end(as_html *h, int (*json)(FILE *out, void *ctx), void *ctx);

#endif
