/* moodle.h - exercises as questions for the Moodle learning platform (SPEC §7): GIFT
 * text, or Moodle XML with one Cloze question per exercise. Each cell to fill is a
 * numerical answer right within one unit of the last decimal place asked (o->places),
 * and the value each named mistake of SPEC §6 gives there, where it differs from the
 * right one, is a 0% answer whose feedback names the mistake in o->lang. */
#ifndef ATTNSTEP_MOODLE_H
#define ATTNSTEP_MOODLE_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/sheet.h"

/* GIFT: per exercise a description (the given tables) and one numerical question per
 * cell to fill, each naming its table and cell and repeating the given tables, so that
 * it stands alone in a question bank; the questions of an exercise share a category.
 * Uses o->lang, o->step and o->places. Returns 0, or -1 when writing failed. */
int as_quiz_gift(FILE *out, const as_sheet *q, size_t count, const as_sheet_opts *o);

/* Moodle XML (<quiz>): a category, then per exercise one Cloze ("Embedded answers")
 * question: the given tables and, for each table to fill, a table of NUMERICAL blanks
 * labelled with the tokens (masked cells shown as −∞ in S and 0 in A, not asked).
 * Returns 0, or -1 when writing failed. */
int as_quiz_moodle(FILE *out, const as_sheet *q, size_t count, const as_sheet_opts *o);

#endif
