/* headcheck.h - naming the mistake a student's probabilities of the output head match
 * (SPEC §19): temperature_after_softmax, topp_drops_crossing, topk_before_temperature,
 * each the head's steps done in another order (outhead.h: as_head_way), named only
 * where that order gives other probabilities than the right one. */
#ifndef ATTNSTEP_HEADCHECK_H
#define ATTNSTEP_HEADCHECK_H

#include <stddef.h>
#include "attnstep/graded.h"
#include "attnstep/model.h"

struct as_out_head;

/* The head's named mistakes, in the order they are tried. */
#define AS_HEAD_MISTAKES 3
extern const as_diag as_head_mistakes[AS_HEAD_MISTAKES];

/* p's head on h[d] done the way of mistake diag (one of as_head_mistakes) into v (free it
 * with as_out_head_free()). Returns 1 when that way gives probabilities (a cut that keeps
 * nothing is no way anyone computes: 0, v empty), or -1 when memory ran out. */
int as_head_variant(struct as_out_head *v, const as_problem *p, const double *h, size_t d,
                    as_diag diag);

/* The mistake the student's probabilities written[vocab] match: each variant of p's head
 * on h[d] (p's temperature, top_k and top_p) is compared cell by cell with written, each
 * cell judged as check judges it (unit[j] the unit of its last written place: half of it
 * either way; or tol when tol >= 0). A variant that equals the right probabilities so
 * judged is no mistake (the order did not matter there); exactly one that fits is
 * named, several or none give AS_DIAG_NONE. *diag is set; returns 0, or -1 when memory
 * ran out. */
int as_head_diagnose(as_diag *diag, const as_problem *p, const double *h, size_t d,
                     const double *written, const double *unit, double tol);

#endif
