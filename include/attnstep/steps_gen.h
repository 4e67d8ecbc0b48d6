/* steps_gen.h - the steps a generating decoder adds to the chapter's (SPEC §11): the
 * sliding-window mask and the online softmax (FlashAttention's running max, running
 * sum and running output). Pure: arrays plus explicit sizes, outputs first, no I/O. */
#ifndef ATTNSTEP_STEPS_GEN_H
#define ATTNSTEP_STEPS_GEN_H

#include <stddef.h>

/* out[n,n]: the sliding-window mask of width w >= 1: 0 where i-w < j <= i (position i
 * reads itself and the w-1 positions before it), -inf elsewhere. w >= n is the causal
 * mask. */
void as_window_mask(double *out, size_t n, size_t w);

/* out[m]: row i of that mask, over m positions (the same cells as row i of
 * as_window_mask(), for a run that makes one row at a time). */
void as_window_mask_row(double *out, size_t i, size_t m, size_t w);

/* The running state of the online softmax for one row. ℓ and the running output are
 * each kept as an unevaluated sum of two doubles, hi + lo, lo carrying the rounding
 * error of hi (a "double-double"): the products and sums of every block are added
 * exactly, so that hundreds of blocks do not pile up hundreds of roundings -- the sum
 * is rounded once, when it is read. hi is always hi + lo rounded to a double: the value
 * the walk-through shows, the one a learner computes by hand. */
typedef struct as_online {
    double m;             /* the running max (−∞ before any readable score) */
    double l, l_lo;       /* the running sum ℓ ≈ l + l_lo */
    double *acc, *acc_lo; /* [dv] each: the running output, not yet over ℓ */
    size_t dv;
} as_online;

/* Starts o with m = −∞, ℓ = 0 and the running output 0, over the caller's arrays
 * acc[dv] and acc_lo[dv] (which o uses, never frees). */
void as_online_start(as_online *o, double *acc, double *acc_lo, size_t dv);

/* One block: the state takes in the block's b scores s[b] and their Values v[b,dv]:
 *   m_new = max(m, max_j s_j);  factor = e^(m - m_new)  (0 before the first block,
 *   when m = -inf and there is nothing to rescale; 1 when the max did not rise);
 *   ℓ = ℓ*factor + sum_j e^(s_j - m_new);  acc = acc*factor + sum_j e^(s_j - m_new) v_j,
 * the products and sums carried exactly (as_online says how), in j order. *factor gets
 * the factor; exps[b] (may be NULL) each e^(s_j - m_new). Scores equal to -inf count 0
 * (a block of them leaves the state as it was, factor 1). */
void as_online_update(as_online *o, double *factor, double *exps, const double *s,
                      const double *v, size_t b);

/* After the last block: out[dv] = acc / ℓ, from both halves, rounded once (ℓ > 0: some
 * score was finite). */
void as_online_output(double *out, const as_online *o);

/* The shares the online state gives: a[j] = e^(s_j - m) / l for count scores s (-inf
 * gives exactly 0), l the running sum as read (o->l); a and s do not overlap. */
void as_online_shares(double *a, const double *s, double m, double l, size_t count);

/* ---- one row of attention over a cache (decode) ---- */

/* Where value i of Key j sits in a panelled cache (as_scores_cached): Keys in panels
 * of 8, each panel d rows of 8, so the 8 Keys a step scores together lie in one run
 * of memory. A cache of n Keys needs AS_PANEL_SIZE(n, d) doubles. */
#define AS_PANEL_AT(j, i, d) (((j) / 8) * (d) * 8 + (i) * 8 + (j) % 8)
#define AS_PANEL_SIZE(n, d) ((((n) + 7) / 8) * (d) * 8)

/* s[j] = q[d] . k_j for first <= j <= last, the Keys in panels (AS_PANEL_AT). Each
 * s[j] is summed from 0 over i in order, one fused multiply-add a term, as as_scores()
 * sums it (so the same bits); 8 Keys at a time, or 32 (AVX-512), as kernels.h chooses. */
void as_scores_cached(double *s, const double *q, const double *kt, size_t d, size_t first,
                      size_t last);

/* o[dv] = sum over first <= j <= last of a[j] v[j, dv], each cell summed from 0 in j
 * order, one fused multiply-add a term, as as_mix() sums it (the same bits). */
void as_mix_cached(double *o, const double *a, const double *v, size_t dv, size_t first,
                   size_t last);

#endif
