/* blockcheck.h - grading the whole block's tables (SPEC §15 with §6): each of N1 … Y is
 * recomputed by its right step from the student's own earlier tables (the ones given
 * whole, else the run's), within what the rounding of those tables can move it; when
 * that does not give it, the block's convention mistakes (ln_unbiased, ln_eps_outside,
 * ln_no_affine, rms_with_mean, the GELU mix-ups, no_residual, residual_from_normed,
 * post_for_pre) are tried as variants of that one step. Pure: no I/O. */
#ifndef ATTNSTEP_BLOCKCHECK_H
#define ATTNSTEP_BLOCKCHECK_H

#include <stddef.h>
#include <stdint.h>
#include "attnstep/attention.h"
#include "attnstep/graded.h"
#include "attnstep/model.h"

/* Nonzero for the block's answer kinds, N1 … Y. */
int as_block_answer(as_answer_kind k);

/* Judges the block table g, not right against the run, from the student's graded
 * answers ans[0..n) before it (their index fields set) on problem p run into t (t->block
 * set): *agrees is 1 when its right step done on the student's own earlier tables gives
 * it, *sources then the bits (AS_CHAIN_BIT) of the answers that step read; else the one
 * convention mistake whose variant gives it is g->diagnosis (several fitting: g->fits,
 * none named). tol as check's (< 0: each cell to half its written unit, widened by what
 * the rounding of the tables read can move it). Returns 0, or -1 when memory ran out. */
int as_block_judge(as_table_grade *g, const as_table_grade *ans, size_t n, const as_problem *p,
                   const as_trace *t, double tol, int *agrees, uint64_t *sources);

/* The values the block's convention mistakes give cell (i, c) of table k, each step done
 * the mistake's way on the run's own earlier tables (the tutor shows those, right):
 * fits[0..n) and vals[0..n), at most max. Returns n, or (size_t)-1 when memory ran out. */
size_t as_block_mistake_cells(as_fit *fits, double *vals, size_t max, const as_problem *p,
                              const as_trace *t, as_answer_kind k, size_t i, size_t c);

#endif
