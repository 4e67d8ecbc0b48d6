/* check.h - grading a student's answers (SPEC §6): reading the ANSWERS file, deciding
 * which cells are right to the precision the student wrote, and naming a known mistake
 * when a wrong table matches one as a whole. Pure: no I/O beyond the text handed in. */
#ifndef ATTNSTEP_CHECK_H
#define ATTNSTEP_CHECK_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/error.h"
#include "attnstep/i18n.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"

/* ---- The ANSWERS file ---- */

/* One table as the student wrote it. */
typedef struct as_answer {
    char *name;       /* as written: "S", "QKᵀ", "Q_h0" ... */
    as_matrix value;  /* [r, c]; -inf allowed (masked cells of S) */
    as_matrix unit;   /* [r, c]: the unit of the last digit written (0.01 for "0.67"), or 0
                       * when the number is exact as written (a whole number, a fraction) */
    as_pos pos;       /* where the name stands */
} as_answer;

typedef struct as_answers {
    char *path;       /* the file name, for errors */
    as_answer *item;
    size_t count;
} as_answers;

/* Reads len bytes of ANSWERS text: `NAME = [[...], ...]` statements in the input syntax
 * (SPEC §2: comments, rows over several lines, matrices side by side, fractions, the
 * Unicode minus, -inf/−∞ anywhere); `key: value` settings lines are skipped. Names are
 * kept as written and checked by as_check_grade(). Returns 0 and fills a (free with
 * as_answers_free()); or -1 with err set at the offending place (a is then empty). */
int as_answers_parse(as_answers *a, const char *text, size_t len, const char *path,
                     as_error *err);

/* Frees everything in a and leaves it empty. */
void as_answers_free(as_answers *a);

/* The unit of the last digit written in the number text s[0..n): 0.01 for "0.67", 1 for
 * "3.", 0.001 for "1e-3"; 0 when the number is exact as written ("2", "1/3", "-inf"). */
double as_written_unit(const char *s, size_t n);

/* ---- The tables an answer may name ---- */

typedef enum as_answer_kind {
    AS_ANS_Q, AS_ANS_K, AS_ANS_V, AS_ANS_QKT, AS_ANS_S, AS_ANS_A, AS_ANS_O, AS_ANS_C,
    AS_ANS_KINDS
} as_answer_kind;

/* Reads an answer's name: Q, K, V, QKT (also QKᵀ, QK^T), S, A, O, C, each optionally
 * followed by a head, "_h0", "_h1" ... Sets *kind and *head (-1 when no head is named).
 * Returns 0, or -1 when the name is none of these. */
int as_answer_name(const char *name, as_answer_kind *kind, long *head);

/* Writes a table's JSON name ("QKT_h1") as the book shows it ("QKᵀ_h1", or "QK^T_h1"
 * with ascii) into buf. */
void as_table_shown_name(char *buf, size_t size, const char *name, int ascii);

/* ---- Grading ---- */

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

/* The message that explains mistake d in one sentence (d not AS_DIAG_NONE). Its one %s
 * is "√d_k" for the scaling mistakes, the student's earlier tables for carried_error. */
as_msg as_diag_msg(as_diag d);

/* The table that mistake d (not carried_error, which needs a student's own tables)
 * makes in place of the right table of kind for head (-1: a whole-layer Q, K, V, O or
 * C) of the run t of p. Returns 1 with out set (free it), 0 when d does not apply to
 * that table (out empty), -1 when memory ran out. */
int as_mistake_table(as_matrix *out, const as_problem *p, const as_trace *t,
                     as_answer_kind kind, long head, as_diag d);

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
