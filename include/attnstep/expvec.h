/* expvec.h - e^x over an array, four at a time, giving the bits libm's exp() gives.
 * Steps layer: arrays plus sizes, no I/O. The softmax loops (steps.c, fused.c,
 * steps_gen.c, decode.c) exponentiate whole rows through it; their results, and every
 * stored golden output made with glibc's exp(), stay bit for bit what they were. */
#ifndef ATTNSTEP_EXPVEC_H
#define ATTNSTEP_EXPVEC_H

#include <stddef.h>

/* out[i] = exp(in[i]) for i < count: the same bits as libm's exp() on this machine, for
 * every input (out may be in: in place is fine). Where the processor has AVX2 and FMA
 * -- the case in which glibc (2.28 and later, x86-64) itself runs its FMA build of
 * exp(), the algorithm of ARM's optimized-routines -- four inputs at a time take that
 * algorithm step for step: the same table, constants, multiply-adds and order. Inputs
 * outside its main range (|x| < 2^-54 or >= 512, NaN, infinities) are handled as glibc
 * handles them: -inf gives +0, tiny x gives 1 + x, the rest go to exp() itself. Without
 * AVX2 and FMA every input goes to exp(). Call it only in the default rounding mode. */
void as_exp_many(double *out, const double *in, size_t count);

/* Which path as_exp_many() takes: 1 the four-at-a-time one, 0 exp() per element.
 * level 0 forces exp() per element, 1 turns the vector path back on where the processor
 * has it, -1 only asks. The results are the same bits either way: for tests and
 * benchmarks. Not to be called while as_exp_many() runs on another thread. */
int as_exp_simd(int level);

#endif
