/* prng.c - splitmix64 and unbiased whole numbers from it. */
#include "attnstep/prng.h"

void as_prng_seed(as_prng *g, uint64_t seed)
{
    g->state = seed;
}

uint64_t as_prng_next(as_prng *g)
{
    uint64_t z = (g->state += UINT64_C(0x9E3779B97F4A7C15));

    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

long as_prng_range(as_prng *g, long lo, long hi)
{
    const uint64_t span = (uint64_t)(hi - lo) + 1;
    /* the largest multiple of span that fits: draws at or above it are thrown away */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;

    do
        x = as_prng_next(g);
    while (x >= limit);
    return lo + (long)(x % span);
}
