/* practice.h - a tutor in the terminal (SPEC §14): the student computes the cells of Q,
 * K, V, QKᵀ, S, A and O one by one (each head's; with RoPE its turned Qr and Kr too;
 * with Wo the layer's O made from the heads side by side); each answer is judged as `check` judges a cell
 * (as_cell_judge), and a wrong one gets a hint that teaches: the named mistake it
 * equals (the chains of ownchain.h, or the transposed cell), else the cell's arithmetic
 * with the student's number beside the right one. Every number comes from the trace;
 * nothing here computes the attention maths. The loop only reads a FILE * and writes a
 * FILE *, so that a terminal, a pipe and the tests drive it alike. */
#ifndef ATTNSTEP_PRACTICE_H
#define ATTNSTEP_PRACTICE_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/attention.h"
#include "attnstep/check.h"
#include "attnstep/model.h"
#include "attnstep/render.h"

/* What is asked, and how. */
typedef struct as_practice_opts {
    as_render_opts ro;   /* lang, digits and ascii of every number and word shown */
    unsigned tables;     /* bit (1u << as_table) per table asked, among AS_T_Q, AS_T_K,
                          * AS_T_V, AS_T_QKT, AS_T_S, AS_T_A, AS_T_O; 0: see row */
    long row;            /* -1: every row of every table; else only this row of QKᵀ, S,
                          * A and O (and tables 0 then asks just those four, Q, K and V
                          * being given as the walk-through gives them) */
    as_check_opts judge; /* as `check` judges a cell: tol < 0 is half a unit of the last
                          * written place */
    int echo;            /* nonzero: each answer read is written after its prompt (the
                          * input is no terminal, so nothing else shows it) */
    long head;           /* -1: every head; else only head `head` (< heads): its columns
                          * of Q, K and V, its tables, and the layer's O when Wo is given */
} as_practice_opts;

/* One cell asked: row i, column j of table tb of head `head` (-1: the layer's Q, K, V
 * or, with Wo, its O). */
typedef struct as_practice_cell {
    as_table tb;
    long head;
    size_t i, j;
} as_practice_cell;

/* The session's outcome. */
typedef struct as_practice_score {
    size_t cells;        /* the cells there were to answer */
    size_t right;        /* answered right (at the first try or a later one) */
    size_t missed;       /* shown after three wrong tries or `?` */
    int stopped;         /* nonzero when `q` or the end of input ended it early */
} as_practice_score;

/* The true table tb of head hd (-1: the layer's) in trace t, as practice asks it:
 * AS_T_Q, AS_T_K, AS_T_V, AS_T_O with hd -1; AS_T_QR, AS_T_KR, AS_T_QKT, AS_T_S, AS_T_A,
 * AS_T_O with a head. Borrowed from t. */
const as_matrix *as_practice_truth(const as_trace *t, as_table tb, long hd);

/* The answer kind (answers.h) of table tb as practice asks it, whose mistakes' chains
 * (ownchain.h) it tries; AS_ANS_KINDS for RoPE's Qr and Kr, which no chain gives. */
as_answer_kind as_practice_kind(as_table tb);

/* The cells a session with o on problem p (run t) asks, in its order (not the cells
 * the mask fixes), into *cells (the caller frees it with free()). Returns how many, or
 * (size_t)-1 when memory ran out. */
size_t as_practice_cells(as_practice_cell **cells, const as_problem *p, const as_trace *t,
                         const as_practice_opts *o);

/* -1 when the --only bits name none but Q, K, V, QKT, S, A and O (what practice asks);
 * else the first other table's bit number (an as_table). */
int as_practice_only_bad(unsigned only);

/* Runs the session on problem p and its run t: prompts to out (and
 * the transcript of prompts and answers to log, unless NULL), flushed before each read;
 * one answer a line from in. A line "?" shows the answer, "q" (or the end of input)
 * stops. Fills *sc. Returns 0 when every cell was answered right, 1 otherwise, -1 when
 * memory ran out or out could not be written. */
int as_practice_run(FILE *in, FILE *out, FILE *log, const as_problem *p, const as_trace *t,
                    const as_practice_opts *o, as_practice_score *sc);

#endif
