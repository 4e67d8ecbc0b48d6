/* sheet_text.h - inside the worksheet renderer (sheet_doc.c, sheet_tables.c,
 * sheet_key.c): the page being written, its words and numbers in the page's syntax
 * (LaTeX or Markdown), and the parts each file sets. Not part of the library's API. */
#ifndef ATTNSTEP_SHEET_TEXT_H
#define ATTNSTEP_SHEET_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/i18n.h"
#include "attnstep/render.h"
#include "attnstep/sheet.h"

#define AS_SHEET_MAX_ITEMS 64 /* tables on one page: far more than any sheet holds */

/* The page being written: one sheet of a problem, in o's format and language. */
typedef struct as_sheet_page {
    FILE *out;
    const as_sheet_opts *o;
    const as_sheet *s;
    int numbered;    /* nonzero: the tokens cannot be typeset (non-ASCII labels in an
                        English LaTeX sheet, which pdflatex alone cannot set): the
                        positions are labelled by their numbers */
    int xetex;       /* nonzero: a LaTeX document set by xelatex (Chinese, or English with
                        a name pdflatex cannot set), which prints every name */
} as_sheet_page;

/* One table of a page, and the tables of a page in the book's order. */
typedef struct as_sheet_item {
    as_table_view v;
    int empty;       /* nonzero: a grid to fill */
} as_sheet_item;

typedef struct as_sheet_items {
    as_sheet_item it[AS_SHEET_MAX_ITEMS];
    size_t count;
} as_sheet_items;

/* ---- words and numbers (sheet_text.c) ---- */

/* Message m in the page's language. */
const char *as_sheet_msg(const as_sheet_page *pg, as_msg m);

/* A symbol in Markdown: Unicode, or its ASCII spelling with --ascii. */
const char *as_sheet_sym(const as_sheet_page *pg, as_sym s);

/* Writes s as text of the page: LaTeX's special characters escaped (curly quotes as ``
 * '' for pdflatex), Markdown's table and emphasis characters escaped. */
void as_sheet_put_text(const as_sheet_page *pg, const char *s);

/* Writes a name from outside (a roster's) as text nothing in it can act on: LaTeX as
 * as_sheet_put_text(); Markdown with < > & as entities (no raw HTML) and every other
 * character Markdown takes specially escaped with a backslash. */
void as_sheet_put_name(const as_sheet_page *pg, const char *s);

/* Writes message m with its %s conversions filled by raw[0..nraw) (text already in the
 * page's syntax: mathematics, lists of names), the message's own words escaped. */
void as_sheet_say(const as_sheet_page *pg, as_msg m, const char *const *raw, size_t nraw);

/* Position i's label as the page can set it (its number when pg->numbered), in buf. */
const char *as_sheet_label(const as_sheet_page *pg, char *buf, size_t size,
                           const char *const *labels, size_t i);

/* v for mathematics at places decimals (LaTeX in both formats: Markdown's $$ blocks take
 * it), -\infty for -inf. Returns 1 when the value is shown rounded. */
int as_sheet_mnum(char *buf, size_t size, double v, int places);

/* ---- the tables (sheet_tables.c) ---- */

/* Fills l with the tables of want (bits 1u << as_table), in the book's order, as grids
 * to fill (empty) or with their numbers. */
void as_sheet_gather(as_sheet_items *l, const as_sheet_page *pg, unsigned want, int empty);

/* Writes l's tables: side by side in LaTeX as far as the line holds, one after another
 * in Markdown. */
void as_sheet_show_items(const as_sheet_page *pg, const as_sheet_items *l);

/* Writes the table of e^x: the shifted scores (s minus the row's max) of every readable
 * cell, each once, with their exps from the trace. Returns 0, or -1 when memory ran
 * out. */
int as_sheet_exp_table(const as_sheet_page *pg);

/* ---- the key's walk-through row, as mathematics (sheet_key.c) ---- */

/* Writes the walk-through of the last row, through the steps the sheet asks, as
 * aligned equations. */
void as_sheet_key_walk(const as_sheet_page *pg);

#endif
