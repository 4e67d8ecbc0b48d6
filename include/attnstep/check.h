/* check.h - grading a student's answers (SPEC §6): deciding which tables and cells are
 * right to the precision the student wrote (the answers are read by answers.h, a wrong
 * table's mistake is named by diagnose.h). Pure: no I/O. */
#ifndef ATTNSTEP_CHECK_H
#define ATTNSTEP_CHECK_H

#include <stddef.h>
#include "attnstep/answers.h"
#include "attnstep/attention.h"
#include "attnstep/diagnose.h"
#include "attnstep/error.h"
#include "attnstep/model.h"

typedef struct as_grade {
    as_table_grade *table;     /* count entries, in the book's order */
    size_t count;
    int correct;               /* nonzero when every given table is right */
} as_grade;

/* Grades the answers against the run t of problem p. tol < 0 takes each cell's own
 * precision (half a unit of its last written digit; a tiny margin for exact numbers),
 * else every cell is right within tol. Masked cells of S must be -inf. Returns 0 and
 * fills g (free with as_grade_free()); or -1 with err set for an answers file that
 * cannot be graded: an unknown name, a head the problem lacks, a table named twice, no
 * table at all, or memory running out. */
int as_check_grade(as_grade *g, const as_problem *p, const as_trace *t, const as_answers *a,
                   double tol, as_error *err);

/* Frees what g owns and leaves it empty. */
void as_grade_free(as_grade *g);

#endif
