/* mul128.h - the 64 x 64 -> 128-bit product that the number conversions (fastfloat.c,
 * numfmt.c) are built on: one instruction where the compiler has a 128-bit type,
 * four 32-bit products elsewhere. Private to src/. */
#ifndef ATTNSTEP_MUL128_H
#define ATTNSTEP_MUL128_H

#include <stdint.h>

/* *hi:*lo = a * b. */
#if defined(__SIZEOF_INT128__)
static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    __extension__ typedef unsigned __int128 u128;
    const u128 r = (u128)a * b;

    *hi = (uint64_t)(r >> 64);
    *lo = (uint64_t)r;
}
#else
static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    const uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);

    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#endif

#endif
