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

#endif
