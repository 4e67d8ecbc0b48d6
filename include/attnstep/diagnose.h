/* diagnose.h - one graded table, and naming the known mistake (SPEC §6) that a wrong
 * table matches as a whole. The mistaken variants are computed with the chapter's own
 * step functions, never re-implemented. */
#ifndef ATTNSTEP_DIAGNOSE_H
#define ATTNSTEP_DIAGNOSE_H

#include <stddef.h>
#include "attnstep/answers.h"
#include "attnstep/attention.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"

/* The known mistakes of SPEC §6. */
typedef enum as_diag {
    AS_DIAG_NONE = 0,
    AS_DIAG_CARRIED_ERROR,    /* the step done right on the student's own wrong earlier table */
    AS_DIAG_NO_SCALE,         /* the scores not divided by sqrt(d_k) */
    AS_DIAG_SCALE_MULTIPLIED, /* multiplied by sqrt(d_k) instead */
    AS_DIAG_NO_MASK,          /* the mask left out */
    AS_DIAG_SOFTMAX_COLUMNS,  /* softmax down the columns */
    AS_DIAG_TRANSPOSED,       /* the transpose of the right table */
    AS_DIAG_COUNT
} as_diag;

/* The code of a diagnosis as SPEC §6 spells it ("no_scale" ...); NULL for none. */
const char *as_diag_code(as_diag d);

/* One graded table. */
typedef struct as_table_grade {
    char name[32];             /* canonical, as JSON prints it: "QKT", "S", "S_h1" */
    as_answer_kind kind;
    long head;                 /* the head whose table it is, -1 for a whole-layer table */
    const as_answer *given;    /* borrowed from the answers */
    const as_matrix *expected; /* borrowed from the trace */
    int shape_ok;              /* 0 when the given shape differs from the expected one */
    int correct;
    size_t *wrong;             /* nwrong flat indices into expected of the wrong cells
                                * (every cell when the shape differs) */
    size_t nwrong;
    as_diag diagnosis;         /* AS_DIAG_NONE when right or when no known mistake fits */
    char carried_from[64];     /* with carried_error: the student's earlier tables, "S" */
} as_table_grade;

/* The table of a kind in head h's trace (Q, K, V are the head's slices; NULL for C). */
const as_matrix *as_head_table(const as_head_trace *h, as_answer_kind kind);

/* Names the first known mistake the wrong table g matches as a whole (a carried error
 * first: it says the step itself was right), setting g->diagnosis (and carried_from).
 * graded[0..ngraded) are the tables graded before g, in the book's order: a carried
 * error starts from the student's own wrong ones. tol as for as_check_grade(). Returns
 * 0 (g->diagnosis stays AS_DIAG_NONE when no mistake fits), -1 when memory ran out. */
int as_diagnose(as_table_grade *g, const as_table_grade *graded, size_t ngraded,
                const as_problem *p, const as_trace *t, double tol);

#endif
