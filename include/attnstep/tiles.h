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
    const double *S;   /* as_tiles_row() only: [m] the run's scores of the row */
    double run_sum;    /* as_tiles_row() only: the ordinary softmax's sum of the row */
    const double *A;   /* as_tiles_row() only: [m] the shares e^(s − m)/ℓ, 0 where masked */
} as_tile_walk;

struct as_tiles_room;

typedef struct as_tiles {
    size_t B, heads, n, d_v;
    as_matrix *m, *l;  /* heads tables [n, 1]: each row's final running max and sum */
    as_matrix *O;      /* heads tables [n, d_v]: the running output over ℓ */
    as_matrix C, Out;  /* the heads side by side; then through Wo (else a copy) */
    double max_ulp;    /* the largest difference of a head's output cell from the
                          ordinary run's, in units in the last place of the size of its
                          terms, sum_j a_j |v_jc| (tiles.c says why) */
    size_t first, last;/* the rows whose blocks are recorded (walk), first > last: none */
    as_tile_walk *walk;/* [heads * (last - first + 1)]: head h, row i at
                          h * (last - first + 1) + (i - first) */
    const as_problem *p;
    const as_trace *t; /* the run redone, whose rows as_tiles_row() makes again */
    struct as_tiles_room *room; /* one row's scratch for as_tiles_row() */
} as_tiles;

/* Redoes steps 3-4 of the run t (a full or rows trace, not lean: its rows are read with
 * as_trace_row(), so a rows trace keeps no n x m table here either) in blocks of B, and the heads
 * and Wo after them, into tl; records the blocks of rows first..last (first > last: no
 * row). Returns 0, or -1 with err set (out of memory; tl then empty). Free with
 * as_tiles_free(). */
int as_tiles_run(as_tiles *tl, const as_problem *p, const as_trace *t, size_t B, size_t first,
                 size_t last, as_error *err);

/* The recorded blocks of row i, head h (i within first..last). */
const as_tile_walk *as_tiles_walk(const as_tiles *tl, size_t h, size_t i);

/* Row i of head h made again, block by block, as as_tiles_run() made it, with its
 * scores, the ordinary sum and its shares (S, run_sum, A): any row, nothing recorded,
 * so a walk of every row needs the memory of one. It holds until the next call.
 * (tl and the run it was made from must still be there.) */
const as_tile_walk *as_tiles_row(const as_tiles *tl, size_t h, size_t i);

void as_tiles_free(as_tiles *tl);

#endif
