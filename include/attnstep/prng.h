/* prng.h - the project's own pseudo-random numbers (splitmix64): the same seed gives the
 * same numbers on every machine, with integer arithmetic only (never rand()). */
#ifndef ATTNSTEP_PRNG_H
#define ATTNSTEP_PRNG_H

#include <stdint.h>

typedef struct as_prng {
    uint64_t state;
} as_prng;

/* Starts g from seed. */
void as_prng_seed(as_prng *g, uint64_t seed);

/* The next 64 random bits (splitmix64, Steele, Lea and Flood 2014). */
uint64_t as_prng_next(as_prng *g);

/* A whole number in [lo, hi] (lo <= hi, a small range), every value equally likely: draws that would
 * favour the low values are rejected, so no modulo bias. */
long as_prng_range(as_prng *g, long lo, long hi);

#endif
