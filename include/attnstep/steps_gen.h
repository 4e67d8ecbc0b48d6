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

/* One block of the online softmax. The running state -- max *m, sum *l, unnormalised
 * output acc[dv] -- takes in the block's b scores s[b] and their Values v[b,dv]:
 *   m_new = max(m, max_j s_j);  factor = e^(m - m_new)  (0 before the first block,
 *   when m = -inf and there is nothing to rescale; 1 when the max did not rise);
 *   l = l*factor + sum_j e^(s_j - m_new);  acc = acc*factor + sum_j e^(s_j - m_new) v_j,
 * the sums taken in j order. exps[b] (may be NULL) gets each e^(s_j - m_new). Scores
 * equal to -inf count 0 (a block of them leaves the state as it was, factor 1). Start
 * with *m = -INFINITY, *l = 0 and acc all 0. */
void as_online_update(double *acc, double *m, double *l, double *factor, double *exps,
                      const double *s, const double *v, size_t b, size_t dv);

/* After the last block: out[dv] = acc[dv] / l (l > 0: some score was finite). */
void as_online_output(double *out, const double *acc, double l, size_t dv);

/* The shares the online state gives: a[j] = e^(s_j - m) / l for count scores s (-inf
 * gives exactly 0). */
void as_online_shares(double *a, const double *s, double m, double l, size_t count);

/* ---- one row of attention over a cache (decode) ---- */

/* Where value i of Key j sits in a panelled cache (as_scores_cached): Keys in panels
 * of 8, each panel d rows of 8, so the 8 Keys a step scores together lie in one run
 * of memory. A cache of n Keys needs AS_PANEL_SIZE(n, d) doubles. */
#define AS_PANEL_AT(j, i, d) (((j) / 8) * (d) * 8 + (i) * 8 + (j) % 8)
#define AS_PANEL_SIZE(n, d) ((((n) + 7) / 8) * (d) * 8)

/* s[j] = q[d] . k_j for first <= j <= last, the Keys in panels (AS_PANEL_AT). Each
 * s[j] is summed from 0 over i in order, one addition at a time, as as_scores() sums
 * it (so the same bits); 8 Keys at a time, so that it vectorises (AVX2 where the
 * processor has it, as kernels.h chooses). */
void as_scores_cached(double *s, const double *q, const double *kt, size_t d, size_t first,
                      size_t last);

/* o[dv] = sum over first <= j <= last of a[j] v[j, dv], each cell summed from 0 in j
 * order, as as_mix() sums it (the same bits). */
void as_mix_cached(double *o, const double *a, const double *v, size_t dv, size_t first,
                   size_t last);

#endif
