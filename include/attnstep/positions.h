/* positions.h - the steps that give attention a sense of order (SPEC §12): sinusoidal
 * encodings added to the input, rotary encodings (RoPE) applied to each head's Queries
 * and Keys, and the linear biases of ALiBi added to the scores. Pure: arrays plus
 * explicit sizes, outputs first, row-major, no allocation. */
#ifndef ATTNSTEP_POSITIONS_H
#define ATTNSTEP_POSITIONS_H

#include <stddef.h>

/* How RoPE pairs the numbers of a row: `half` pairs element i with i + d/2 (GPT-NeoX,
 * LLaMA); `interleaved` pairs 2i with 2i+1 (RoFormer, GPT-J). */
typedef enum as_rope_pairing { AS_ROPE_HALF = 0, AS_ROPE_INTERLEAVED } as_rope_pairing;

/* pe[n, d]: the original Transformer's encoding of positions offset .. offset+n-1:
 * pe[p][2i] = sin(p / 10000^(2i/d)), pe[p][2i+1] = cos(p / 10000^(2i/d)). */
void as_sinusoidal(double *pe, size_t n, size_t d, size_t offset);

/* The same with another base than 10000 (a book's base 100 is checked with it). */
void as_sinusoidal_base(double *pe, size_t n, size_t d, size_t offset, double base);

/* θ_i = base^(−2i/d): the angle per position of RoPE's pair i in a row of d numbers. */
double as_rope_theta(size_t i, size_t d, double base);

/* The two columns of row-of-d numbers that RoPE turns together as its pair i (i < d/2). */
void as_rope_pair(size_t *a, size_t *b, size_t i, size_t d, as_rope_pairing pairing);

/* angle[rows, d/2] = (offset + r)·θ_i, with cs and sn its cosine and sine: the turn of
 * each pair of a row at position offset + r. */
void as_rope_angles(double *angle, double *cs, double *sn, size_t rows, size_t d, double base,
                    size_t offset);

/* out[n, d] = x[n, d] with row r's pair i turned by the angle whose cosine and sine are
 * cs[r][i] and sn[r][i] ([n, d/2], from as_rope_angles):
 * (a, b) → (a·cos − b·sin, a·sin + b·cos). d is even. out and x may not overlap. */
void as_rope(double *out, const double *x, size_t n, size_t d, const double *cs,
             const double *sn, as_rope_pairing pairing);

/* dx[n, d] = Rᵀ·dy[n, d] for each row: as_rope()'s backward pass, from the gradient dy
 * of the turned rows to that of the rows before the turn. A turn is orthogonal, so its
 * transpose turns each pair back by the same angle:
 * (a, b) → (a·cos + b·sin, b·cos − a·sin). dx and dy may not overlap. */
void as_rope_backward(double *dx, const double *dy, size_t n, size_t d, const double *cs,
                      const double *sn, as_rope_pairing pairing);

/* slopes[heads]: ALiBi's slope of each head, as the paper computes them: for a power of
 * two H, the geometric sequence 2^(−8/H), 2^(−16/H), …; otherwise the slopes of the
 * nearest smaller power of two c, then every other slope of 2c. */
void as_alibi_slopes(double *slopes, size_t heads);

/* b[n, m]: ALiBi's bias −slope·(i − j) on the score of row i, column j. */
void as_alibi_bias(double *b, size_t n, size_t m, double slope);

/* b[m]: row i of that bias (the same bits as row i of as_alibi_bias()). */
void as_alibi_bias_row(double *b, size_t i, size_t m, double slope);

/* s[n, m] += −slope·(i − j): as_alibi_bias() added in place, with the same bits as adding
 * its table (for the lean run, which keeps no table of biases). */
void as_add_alibi(double *s, size_t n, size_t m, double slope);

#endif
