/* fma_clones.h - the products' running sums are chains of C's fma(): each term added
 * with one rounding, the same bits on every machine. Where the compiler may not assume
 * the instruction (x86-64's baseline has none), a loop is built twice: FMA_BUILD(body,
 * (params), (args)) makes body_fma, the same static inline body built for processors
 * with AVX2 and FMA (fma() then one instruction), and FMA_RUN(body, (args)) runs it
 * there, or else the body as built for the baseline (glibc's fma(), exact in software).
 * Elsewhere (aarch64 has the instruction) FMA_RUN runs the body. */
#ifndef ATTNSTEP_FMA_CLONES_H
#define ATTNSTEP_FMA_CLONES_H

#if defined(__GNUC__)
#define FMA_INLINE static inline __attribute__((always_inline))
#else
#define FMA_INLINE static inline
#endif

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__FMA__)
#define FMA_BUILD(body, params, args)                                                      \
    __attribute__((target("avx2,fma"))) static void body##_fma params                     \
    {                                                                                      \
        body args;                                                                         \
    }
#define FMA_RUN(body, args)                                                                \
    do {                                                                                   \
        if (__builtin_cpu_supports("fma"))                                                 \
            body##_fma args;                                                               \
        else                                                                               \
            body args;                                                                     \
    } while (0)
#else
#define FMA_BUILD(body, params, args)
#define FMA_RUN(body, args) body args
#endif

#endif
