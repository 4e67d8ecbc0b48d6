/* practice.h - a tutor in the terminal (SPEC §14): the student computes the cells of Q,
 * K, V, QKᵀ, S, A and O one by one; each answer is judged as `check` judges a cell
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
} as_practice_opts;

/* The session's outcome. */
typedef struct as_practice_score {
    size_t cells;        /* the cells there were to answer */
    size_t right;        /* answered right (at the first try or a later one) */
    size_t missed;       /* shown after three wrong tries or `?` */
    int stopped;         /* nonzero when `q` or the end of input ended it early */
} as_practice_score;

/* Nonzero when practice can ask problem p: one head (K and V too), no Wo, no positions. */
int as_practice_fits(const as_problem *p);

/* -1 when the --only bits name none but Q, K, V, QKT, S, A and O (what practice asks);
 * else the first other table's bit number (an as_table). */
int as_practice_only_bad(unsigned only);

/* Runs the session on problem p (as_practice_fits) and its run t: prompts to out (and
 * the transcript of prompts and answers to log, unless NULL), flushed before each read;
 * one answer a line from in. A line "?" shows the answer, "q" (or the end of input)
 * stops. Fills *sc. Returns 0 when every cell was answered right, 1 otherwise, -1 when
 * memory ran out or out could not be written. */
int as_practice_run(FILE *in, FILE *out, FILE *log, const as_problem *p, const as_trace *t,
                    const as_practice_opts *o, as_practice_score *sc);

#endif
