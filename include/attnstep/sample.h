/* sample.h - from the last row to the next token (SPEC §19), each step its own pure
 * function over one row of logits: temperature, top-k, top-p, the draw. Outputs first,
 * arrays plus explicit sizes; -inf marks a token cut away. The softmax between them is
 * the chapter's (as_softmax_rows, steps.h). */
#ifndef ATTNSTEP_SAMPLE_H
#define ATTNSTEP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "attnstep/prng.h"

/* out[i] = logits[i] / t for n logits (t > 0): the temperature. -inf stays -inf. */
void as_temperature(double *out, const double *logits, size_t n, double t);

/* out[i] = x[i] for the k largest of x[n], -inf for the others (k >= n keeps all): top-k.
 * Among equal values the lower index is kept first. order[2n] is scratch; its first n
 * hold the tokens from the largest down after the call. */
void as_top_k(double *out, const double *x, size_t n, size_t k, size_t *order);

/* Top-p on the probabilities probs[n]: order[2n] (scratch) gets in its first n the
 * tokens from the most likely down (equal ones by index), cum[n] the running sums in that order; the smallest
 * prefix whose sum reaches p is kept, the token that crosses p with it. out[i] = x[i]
 * (the logits the probabilities came from) for a kept token, -inf for the others.
 * Returns how many are kept (at least 1 when any token has a probability). */
size_t as_top_p(double *out, size_t *order, double *cum, const double *x, const double *probs,
                size_t n, double p);

/* The named mistake topp_drops_crossing (SPEC §19): as as_top_p(), but the token that
 * crosses p is dropped with the rest (only the tokens whose running sum stays below p
 * are kept). Returns how many are kept (0 when the first token already reaches p). */
size_t as_top_p_drop_crossing(double *out, size_t *order, double *cum, const double *x,
                              const double *probs, size_t n, double p);

/* The index of the first largest of x[n] (the greedy choice); 0 when n is 0. */
size_t as_greedy(const double *x, size_t n);

/* One uniform number in [0, 1) from g: the top 53 bits of the next draw, times 2^-53. */
double as_uniform(as_prng *g);

/* The inverse-CDF walk: cum[n] gets the running sums of probs in index order; the token
 * is the first whose running sum exceeds u (a token of probability 0 is never drawn;
 * when rounding leaves u at or above the last sum, the last token that has a
 * probability). */
size_t as_draw(double *cum, const double *probs, size_t n, double u);

#endif
