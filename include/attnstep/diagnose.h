/* diagnose.h - one graded table, and naming the known mistake (SPEC §6) that a wrong
 * table matches as a whole. Each mistake is a variant of the student's own chain
 * (ownchain.h): the chapter's steps with one step done another way. */
#ifndef ATTNSTEP_DIAGNOSE_H
#define ATTNSTEP_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>
#include "attnstep/answers.h"
#include "attnstep/attention.h"
#include "attnstep/graded.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"

/* The code of a diagnosis as SPEC §6 spells it ("no_scale" ...); NULL for none. */
const char *as_diag_code(as_diag d);

/* The table of a kind in head h's trace (Q, K, V are the head's slices; NULL for C). */
const as_matrix *as_head_table(const as_head_trace *h, as_answer_kind kind);

/* Names the mistake the wrong table g matches as a whole: every mistake's variant of the
 * student's own chain (cached in cache) is compared with g, within the precision each
 * cell was written to (or tol). Exactly one fitting mistake sets g->diagnosis and
 * g->detail; several that fit equally are listed in g->fits and none is named; none
 * leaves both empty. Returns 0, or -1 when memory ran out. */
int as_diagnose(as_table_grade *g, as_chain_cache *cache, double tol);

#endif
