/* check.h - grading a student's answers (SPEC §6): deciding which tables, rows and cells
 * are right to the precision the student wrote, judging each table step by step from
 * the student's own earlier tables (ownchain.h), and scoring (the answers are read by
 * answers.h, a wrong table's mistake is named by diagnose.h). Pure: no I/O. */
#ifndef ATTNSTEP_CHECK_H
#define ATTNSTEP_CHECK_H

#include <stddef.h>
#include "attnstep/answers.h"
#include "attnstep/attention.h"
#include "attnstep/diagnose.h"
#include "attnstep/error.h"
#include "attnstep/model.h"
#include "attnstep/tiles.h"

/* How cells are judged. */
typedef struct as_check_opts {
    double tol;          /* < 0: each cell to half a unit of its last written place;
                          * else every cell within tol (--tol) */
    int require_digits;  /* a non-integer written with fewer decimals is wrong (0: off) */
    const char *expect;  /* --expect: the tables asked ("Q K V S"), over the input's ask:
                          * setting; NULL: that setting, or all the chapter's tables */
    int given_other;     /* nonzero: a given table (X, W …) that is another problem's is
                          * left out, not refused, so that a class's answers copied whole
                          * from another variant can be graded and named (copied_variant) */
} as_check_opts;

/* One cell's verdict. */
typedef enum as_cell_verdict {
    AS_CELL_RIGHT = 0,
    AS_CELL_WRONG,      /* too far from the true value */
    AS_CELL_TOO_FEW     /* written with fewer decimals than require_digits asks */
} as_cell_verdict;

/* Judges one cell (SPEC §6): the written value w whose last digit has the unit u (0 when
 * exact as written, as_written_unit()) against the true value x. -inf stands only for
 * -inf. The tutor (`practice`) judges its cells with this too. */
as_cell_verdict as_cell_judge(double w, double u, double x, const as_check_opts *o);

/* One mark of the score (SPEC §6, "Score, out of what was asked"): a table the problem
 * asks, and what the student's answers earned of it. */
typedef struct as_mark {
    char name[32];             /* canonical, as JSON prints it: "S", "S_h1", "C" */
    as_answer_kind kind;
    long head;                 /* as as_table_grade's head */
    size_t rows;               /* the table's rows: a row answer earns 1/rows of the mark */
    double earned;             /* 0 .. 1: the whole table's credit, else its rows' shares */
    int answered;              /* 0 when no answer gave any of it: missing */
} as_mark;

typedef struct as_grade {
    as_table_grade *table;     /* count entries, in the book's order */
    size_t count;
    size_t tiles_B;            /* the block size of the online softmax's rows m1, ℓ1, f1
                                * (0: each row in one block) */
    as_tiles *tiles;           /* the online softmax in blocks of tiles_B, run when an
                                * answer asks for its blocks; owned, else NULL */
    int correct;               /* nonzero when every given table is right */
    as_mark *mark;             /* nmarks: the tables asked, in the book's order */
    size_t nmarks;             /* the maximum, the same for every student of a problem */
    double score;              /* marks earned (right or carried): a table answered whole
                                * counts as its credit, else its rows as shares */
    const char **ignored;      /* nignored names of no table of the chapter ("E", the eˣ
                                * table a sheet invites), borrowed from the answers */
    size_t nignored;
} as_grade;

/* Grades the answers against the run t of problem p. A table not right against the
 * true values is recomputed by its right step from the student's own earlier tables:
 * agreeing with that, it is right when those tables were right (only rounded), else
 * carried_error (credit earned). Otherwise its mistake is named (diagnose.h). The score
 * is out of the tables p asks (Q, K, V, QKT, S, A, O; each head's QKT, S, A and C with
 * Wo for several heads); a name of no table is ignored (g->ignored), and a file with no
 * table scores 0. Returns 0 and fills g (free with as_grade_free()); or -1 with err set
 * for an answers file that cannot be graded: a head or row the problem lacks, a table
 * named twice, or memory running out. */
int as_check_grade(as_grade *g, const as_problem *p, const as_trace *t, const as_answers *a,
                   const as_check_opts *o, as_error *err);

/* As as_check_grade(), with the online softmax read in blocks of B (SPEC §11, check
 * --tiles B; 0: each row in one block): the rows m1, ℓ1 (l1), f1 an answer may give are
 * row 1's running max, running sum and rescale factor after each block. */
int as_check_grade_tiles(as_grade *g, const as_problem *p, const as_trace *t,
                         const as_answers *a, const as_check_opts *o, size_t B, as_error *err);

/* copied_variant (SPEC §6): the student's tables equal another variant's right ones, so
 * only the tables right for their own problem count: every carried_error loses its
 * credit and its diagnosis, and the score is added up again. Returns 0, or -1 when
 * memory ran out. */
int as_grade_uncarry(as_grade *g);

/* Checks the names of the tables p asks (SPEC §6) as grading reads them: expect (the
 * --expect list; NULL: none), else p's ask: setting (a lean run keeps not every table:
 * only the names). Returns 0, or -1 with err set at the word that names no table of p
 * (or when memory ran out), so that a bad list is told once, before any answer is read. */
int as_check_ask(const as_problem *p, const char *expect, as_error *err);

/* Frees what g owns and leaves it empty. */
void as_grade_free(as_grade *g);

/* A key that sorts graded tables (and rows) into the book's order: the whole Q, K, V,
 * then each head's tables, then C, then the layer's O; a row after its table. */
long as_grade_order(const as_table_grade *g);

/* ---- A class: a count of students per named mistake, and the mean ---- */

/* The item analysis of one table asked (SPEC §6): how many students had it right,
 * carried, wrong (and with which mistakes), missing. */
typedef struct as_item {
    char name[32];                    /* the mark's name: "S", "S_h1" */
    size_t right, carried, wrong, missing;
    size_t made[AS_DIAG_COUNT];       /* the wrong ones per named mistake; made[NONE]:
                                       * none named (or several fit) */
} as_item;

#define AS_MAX_ITEMS 64
#define AS_CHECK_MAX_FILES 100000 /* answers files graded in one run, folders' *.txt included */

typedef struct as_class_summary {
    size_t students;                  /* graded (unreadable files are not counted) */
    double mean_score;                /* mean of the marks earned */
    double mean_max;                  /* mean of the marks there were to earn */
    size_t made[AS_DIAG_COUNT];       /* students who made each named mistake (carried
                                       * errors are not mistakes: made[CARRIED] is 0) */
    as_item item[AS_MAX_ITEMS];       /* per table asked, in the book's order */
    size_t nitems;
} as_class_summary;

/* Sums up n graded students (grades[i] NULL for one whose file could not be graded). */
void as_class_summarize(as_class_summary *s, const as_grade *const *grades, size_t n);

#endif
