/* tiles.h - the online softmax of FlashAttention (SPEC §11, `--tiles B`): each row's
 * readable Keys are read in blocks of B, keeping a running max m, a running sum ℓ and
 * a running output, rescaled by e^(m_old − m_new) when a block raises the max. It takes
 * the scaled, masked scores S and the Values V of an ordinary run (steps 1-2 are the
 * same) and redoes steps 3-4 block by block with as_online_update(), recording what the
 * walk-through shows. */
#ifndef ATTNSTEP_TILES_H
#define ATTNSTEP_TILES_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/error.h"
#include "attnstep/model.h"

/* The blocks of one row of one head, as they were read. */
typedef struct as_tile_walk {
    size_t count;      /* readable positions of the row */
    size_t *pos;       /* [count] them, in order */
    double *exps;      /* [count] e^(s_j − m) against the max of the block's update */
    size_t blocks;     /* ceil(count / B) */
    double *m_old;     /* [blocks] the running max before the block (−∞ before the first) */
    double *m, *l;     /* [blocks] the running max and sum after it */
    double *factor;    /* [blocks] the rescale factor e^(m_old − m_new) (0 for the first) */
    double *acc;       /* [blocks, d_v] the running output after it (not yet over ℓ) */
} as_tile_walk;

typedef struct as_tiles {
    size_t B, heads, n, d_v;
    as_matrix *m, *l;  /* heads tables [n, 1]: each row's final running max and sum */
    as_matrix *A;      /* heads tables [n, m]: the shares e^(s − m)/ℓ */
    as_matrix *O;      /* heads tables [n, d_v]: the running output over ℓ */
    as_matrix C, Out;  /* the heads side by side; then through Wo (else a copy) */
    double max_ulp;    /* the largest difference of a head's output cell from the
                          ordinary run's, in units in the last place of the size of its
                          terms, sum_j a_j |v_jc| (tiles.c says why) */
    size_t first, last;/* the rows whose blocks are recorded (walk), first > last: none */
    as_tile_walk *walk;/* [heads * (last - first + 1)]: head h, row i at
                          h * (last - first + 1) + (i - first) */
} as_tiles;

/* Redoes steps 3-4 of the run t (a full trace, not lean) in blocks of B, and the heads
 * and Wo after them, into tl; records the blocks of rows first..last (first > last: no
 * row). Returns 0, or -1 with err set (out of memory; tl then empty). Free with
 * as_tiles_free(). */
int as_tiles_run(as_tiles *tl, const as_problem *p, const as_trace *t, size_t B, size_t first,
                 size_t last, as_error *err);

/* The recorded blocks of row i, head h (i within first..last). */
const as_tile_walk *as_tiles_walk(const as_tiles *tl, size_t h, size_t i);

void as_tiles_free(as_tiles *tl);

#endif
