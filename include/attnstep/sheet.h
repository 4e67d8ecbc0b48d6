/* sheet.h - worksheets for hand calculation (SPEC §7): for an exercise or any input,
 * in Markdown or LaTeX, in the chosen language; the tables given, an empty labelled
 * grid for each table to fill, and on a new page the key with the walk-through row set
 * as mathematics. A renderer: it reads problems and their traces, never computes. */
#ifndef ATTNSTEP_SHEET_H
#define ATTNSTEP_SHEET_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/attention.h"
#include "attnstep/i18n.h"
#include "attnstep/model.h"
#include "attnstep/render.h"

/* What a sheet asks: the whole layer, or one step of it (a drill). */
typedef enum as_step {
    AS_STEP_ALL = 0, AS_STEP_PROJECT, AS_STEP_SCORES, AS_STEP_SOFTMAX, AS_STEP_MIX,
    AS_STEP_SAMPLE, /* the output head and the draw (SPEC §19): logits given, probs asked */
    AS_STEP_NORM, AS_STEP_RESIDUAL, AS_STEP_FFN, /* the whole block's steps (SPEC §15) */
    AS_STEP_COUNT
} as_step;

/* Reads "project", "scores", "softmax", "mix", "sample", "norm", "residual" or "ffn"
 * (also "all"). Returns 0, or -1. */
int as_step_parse(const char *s, as_step *step);

/* The step's name as --step spells it ("all" for AS_STEP_ALL). */
const char *as_step_name(as_step step);

/* The tables (bits 1u << as_table) a step gives, and those it asks: all: X, W and M
 * given, Q ... O asked; project: X, W given, Q, K, V asked; scores: Q, K, M given, QKᵀ
 * and S asked; softmax: S given, A asked; mix: A and V given, O (and C) asked; sample:
 * the logits given, the probabilities after the cut (probs) asked; the block's (SPEC
 * §15): norm: X, H1 and γ/β given, N1, N2 (and Y) asked; residual: X, O and D given, H1
 * and H2 asked; ffn: N2 (post: H1) and the FFN's weights given, U, G, F and D asked.
 * as_step_given_to() is as_step_given() for problem p (post's FFN reads H1). */
unsigned as_step_given(as_step step);
unsigned as_step_given_to(as_step step, const as_problem *p);
unsigned as_step_asked(as_step step);

/* Nonzero when step is one of the block's (norm, residual, ffn). */
int as_step_of_block(as_step step);

/* Nonzero when weight table name (ln1_g, Wup, Wq …) is one the step reads: a block's
 * drill gives only its own step's weights; every other step every weight. */
int as_step_reads_weight(as_step step, const char *name);

/* One sheet: a problem with its run, and what the page says about it. */
typedef struct as_sheet {
    const as_problem *p;
    const as_trace *t;
    const char *detail;   /* under the title: "第2级 · 种子7", a file's title; or NULL */
    const char *student;  /* the student's name, or NULL */
    const char *variant;  /* the short variant id, or NULL */
} as_sheet;

#define AS_SHEET_PLACES 2 /* decimal places asked when --digits is not given */

typedef struct as_sheet_opts {
    as_lang lang;
    int latex;       /* nonzero: a standalone LaTeX document (en: pdflatex + amsmath;
                        zh: xelatex + ctex); else Markdown */
    int answers;     /* nonzero: the keys after the sheets, each on a new page */
    int key_only;    /* nonzero: only the keys (with answers) */
    int exp_table;   /* nonzero: a table of e^x for the values the softmax needs */
    int ascii;       /* Markdown: the ASCII spellings of the symbols (--ascii) */
    as_step step;
    int places;      /* decimal places asked of the student (0-17) */
    int key_places;  /* decimal places shown in the key (0-17) */
} as_sheet_opts;

/* The tables of s that want (bits 1u << as_table) selects, in the book's order, into
 * out (at most max; several heads: the whole Q, K and V, not their slices; no M when
 * there is no mask). Returns how many. */
size_t as_sheet_tables(const as_sheet *s, unsigned want, as_table_view *out, size_t max);

/* The name of table v of s as a sheet writes it (o->latex: LaTeX mathematics, else
 * Unicode text): for a table to fill (empty) its formula, "S = QKᵀ/√2 + M". */
void as_sheet_table_name(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o,
                         const as_table_view *v, int empty);

/* "Q, K, V, QKᵀ, S, A and O": the tables o->step asks, as the instructions list them. */
void as_sheet_asked_list(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o);

/* Writes one document: a page per sheet (count >= 1) unless o->key_only, then with
 * o->answers the key of each. Returns 0, or -1 when writing failed. */
int as_sheet_write(FILE *out, const as_sheet *sheets, size_t count, const as_sheet_opts *o);

#endif
