/* answers.h - a student's ANSWERS file (SPEC §6): reading it, the precision each number
 * was written to, the names a table may have, and whether one written cell stands for a
 * true value. Pure: no I/O beyond the text handed in. */
#ifndef ATTNSTEP_ANSWERS_H
#define ATTNSTEP_ANSWERS_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/parse.h"
#include "attnstep/tables.h"

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
    char *student;    /* the `name:` setting, or NULL when the file has none */
    char *variant;    /* the `variant:` setting (a class's variant id), or NULL */
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

/* Nonzero when the written value w, whose last digit has the unit u (0: exact as
 * written), stands for the true value x: within tol when tol >= 0, else within half a
 * unit (a tiny relative margin for an exact number); slack widens the margin by what
 * rounding earlier in a chain may explain. -inf stands only for -inf. */
int as_answer_cell_ok(double w, double u, double x, double tol, double slack);

/* ---- The tables an answer may name ---- */

/* as_answer_kind, from the registry (tables.h): the rows with ANSWER Y, in the chapter's
 * order (Q ... C, then what positions add: PE, Qr, Kr, B, judged against the run, never
 * by the own chain; then the online softmax's m, l (each row's max and sum of exps) and
 * the rows m1, l1, f1 of SPEC §11, --tiles). */

/* Reads an answer's name: Q, K, V, QKT (also QKᵀ, QK^T), S, A, O, C, PE, Qr, Kr, B, m, l (also
 * ℓ), each optionally
 * followed by a head, "_h0", "_h1" ... Sets *kind and *head (-1 when no head is named).
 * Returns 0, or -1 when the name is none of these. */
int as_answer_name(const char *name, as_answer_kind *kind, long *head);

/* Reads a row answer's name as the walk-through writes it (SPEC §6): q, k, v, s (the
 * scaled scores), a (the shares), o, qr, kr (rows turned by RoPE, as decode prints
 * them), or m, l (also ℓ), f (the online softmax's values after each block), then the row in ASCII or subscript digits or in brackets ("q1", "q₁", "q[1]"),
 * optionally "_hN" for a head's row. Sets *kind, *row and *head (-1 when no
 * head is named). Returns 0, or -1 when the name is no row answer. */
int as_answer_row(const char *name, as_answer_kind *kind, long *head, long *row);

/* The letter(s) of a row answer of a kind, as the walk-through names rows: "q", "s",
 * "qr" (a Query row turned by RoPE); "" for a kind that has no rows to answer. */
const char *as_answer_row_letter(as_answer_kind kind);

/* The canonical name of a kind, as JSON prints it: "Q" ... "QKT" ... "C". */
const char *as_answer_kind_name(as_answer_kind kind);

/* Writes a table's JSON name ("QKT_h1") as the book shows it ("QKᵀ_h1", or "QK^T_h1"
 * with ascii) into buf. */
void as_table_shown_name(char *buf, size_t size, const char *name, int ascii);

#endif
