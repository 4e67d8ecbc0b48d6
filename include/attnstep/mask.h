/* mask.h - the additive mask M [n, m] a run applies (SPEC §1, §11): built by the run
 * from the mask the problem describes (model.c only checks that description). */
#ifndef ATTNSTEP_MASK_H
#define ATTNSTEP_MASK_H

#include "attnstep/matrix.h"
#include "attnstep/model.h"

/* Builds M [n, m] for p into a new matrix: the file's M (AS_MASK_CUSTOM), the causal or
 * the sliding-window mask (0 where a row may read, -inf where it may not), or all zeros
 * (AS_MASK_NONE). Returns 0 (free M with as_matrix_free()); or -1 (out of memory, M
 * empty). */
int as_mask_build(as_matrix *M, const as_problem *p);

/* out[m]: row i of that M, the same cells (for a run that makes one row at a time). */
void as_mask_row(double *out, const as_problem *p, size_t i);

#endif
