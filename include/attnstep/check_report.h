/* check_report.h - the reports of `check` (SPEC §6): per student every table right or
 * wrong with its diagnosis and wrong cells, the score, and with several students the
 * class summary; as text, Markdown, a CSV gradebook or JSON. Renderers only read the
 * grades: nothing here grades or computes. */
#ifndef ATTNSTEP_CHECK_REPORT_H
#define ATTNSTEP_CHECK_REPORT_H

#include <stdio.h>
#include "attnstep/check.h"
#include "attnstep/render.h"

/* One student of the class. */
typedef struct as_student {
    char *name;          /* the `name:` setting, else the file name without its extension */
    char *path;          /* the answers file */
    as_answers answers;
    as_grade grade;
    int graded;          /* 0 when the file could not be read or graded (reported apart) */
    char copied_variant[16]; /* check --class: the variant whose right answers these are
                              * (copied_variant, SPEC §6), else "" */
    char copied_name[72];    /* and that variant's student */
} as_student;

typedef struct as_class {
    as_student *student; /* count entries, in the order the files were named */
    size_t count;
    as_class_summary summary;
    int require_digits;  /* --require-digits, for the note on a cell with too few decimals */
} as_class;

/* Writes into buf the one teaching sentence that explains g's diagnosis (and detail) in
 * o->lang ("" for none): also what the Moodle export says of a named mistake. */
void as_diag_explain(char *buf, size_t size, const as_table_grade *g, const as_render_opts *o);

/* Text in o->lang: each student's tables, then (several students) the class summary. */
int as_check_text(FILE *out, const as_class *c, const as_render_opts *o);

/* Markdown: each student's tables as a table, then the class summary as tables. */
int as_check_md(FILE *out, const as_class *c, const as_render_opts *o);

/* A gradebook for spreadsheets: UTF-8 with a BOM; `student,score,max,` then one column
 * per table or row any student gave (in the book's order: the credit, 1 or 0, empty when
 * not given), then `mistakes` ("S:no_scale; O:?"). */
int as_check_csv(FILE *out, const as_class *c);

/* JSON as SPEC §6 gives it: one student's object, or {"students": [...], "summary"}. */
int as_check_json(FILE *out, const as_class *c);

/* A page (SPEC §17): with several students the gradebook and the item analysis as bar
 * charts (inline SVG), then each student's wrong cells and mistakes; the JSON of
 * as_check_json embedded. For the teacher to project or print (A4). */
int as_check_html(FILE *out, const as_class *c, const as_render_opts *o);

/* Frees every student and the class. */
void as_class_free(as_class *c);

#endif
