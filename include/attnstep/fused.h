/* fused.h - one head of attention (steps 1-4 of the chapter) in one pass over blocks of
 * its score rows, for the lean run (`--only O`): no n x m table is kept or swept
 * whole, and the columns the mask forbids to a whole block of rows are never computed.
 *
 * Bit for bit what the steps give one by one (as_scores, as_scale, as_add_alibi,
 * as_add_mask, as_softmax_rows, as_matmul): every cell that is computed is computed by
 * the same operations in the same order; a cell that is skipped is one the mask sets
 * to -inf, whose share is exactly 0, and adding the product 0 * v (+0 or -0) to a
 * running sum that starts at +0 never changes it. The skipped cells are never checked
 * for overflow, so the caller first asks as_fused_fits() and otherwise runs the steps
 * one by one (which name the cell that overflowed). */
#ifndef ATTNSTEP_FUSED_H
#define ATTNSTEP_FUSED_H

#include <stddef.h>

#include "attnstep/kernels.h"

/* Rows of scores worked on at a time: a block of [AS_FUSED_ROWS, m] stays in the
 * caches while it goes from raw scores to shares to the mixed Values. A multiple of
 * the products' 6-row tile (no cut tiles); 48 rather than 60 or 96 skips more of the
 * causal mask's future (callgrind on the bench's layer: 313, 318 and 328 million
 * instructions in the heads). */
#define AS_FUSED_ROWS 48

/* One head's inputs. */
typedef struct as_fused_head {
    const double *q;    /* [n, d]: the head's (turned) Queries, row i at q + i * ldq */
    const double *k;    /* [m, d]: its (turned) Keys, row j at k + j * ldk */
    const double *v;    /* [m, dv]: its Values, row j at v + j * ldv (so a head's columns
                           of the tables of all heads are read in place) */
    size_t ldq, ldk, ldv;
    const double *mask; /* [n, m]: added to the scaled scores: 0, -inf or finite; or NULL: */
    size_t window;      /* with mask NULL: the window mask of as_window_mask_row() (a
                           causal mask is a window of n), or none at all (all 0) when 0 */
    size_t n, m, d, dv;
    double scale;
    int alibi;    /* nonzero: -slope * (i - j) is added after scaling, as as_add_alibi() */
    double slope;
} as_fused_head;

/* What the mask lets each row read, shared by every head. */
typedef struct as_mask_reach {
    size_t *lo, *hi; /* row i reads nothing left of column lo[i] or from hi[i] on */
    double largest;  /* the largest |value| among the finite cells of the mask */
    int every_row;   /* 1 when every row reads at least one cell */
} as_mask_reach;

/* Fills r for the mask h describes (h->mask or h->window; its n and m); 0, or -1 when
 * out of memory (r empty). */
int as_mask_reach_init(as_mask_reach *r, const as_fused_head *h);

void as_mask_reach_free(as_mask_reach *r);

/* 1 when no score of h can leave the range of doubles (a bound from the largest |q|,
 * |k|, the scale, the ALiBi slope and the mask) and every row reads a cell: then
 * as_fused_run() gives the steps' result; else 0. */
int as_fused_fits(const as_fused_head *h, const as_mask_reach *r);

/* Work space for as_fused_run() on one thread. */
typedef struct as_fused_scratch {
    as_packed_b kt;    /* the head's Keys transposed, [d, m], packed once for every block */
    as_packed_b v;     /* its Values, [m, dv], packed once */
    double *s;         /* [AS_FUSED_ROWS, m]: one block of scores, then shares */
    as_gemm_scratch g; /* the products' packing space */
} as_fused_scratch;

/* Room for heads of up to m keys, Keys d wide and Values dv wide; 0, or -1 when out of
 * memory (s empty). */
int as_fused_scratch_init(as_fused_scratch *s, size_t m, size_t d, size_t dv);

void as_fused_scratch_free(as_fused_scratch *s);

/* out [n, dv] = softmax(q kᵀ * scale (+ ALiBi) + mask) v, row block by row block, on
 * the calling thread. Only when as_fused_fits(h, r). */
void as_fused_run(double *out, const as_fused_head *h, const as_mask_reach *r,
                  as_fused_scratch *s);

#endif
