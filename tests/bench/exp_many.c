/* exp_many.c - `make bench-exp`: nanoseconds per exponential, libm's exp() called per
 * element against as_exp_many() on its four-lane path (and on its exp() path), over
 * rows of 4096 inputs in [-50, 0] as the softmax rows give them. The fastest of 9
 * rounds of 2^24 exponentials each (the machine may be shared: the minimum is the
 * least disturbed). Prints also whether the bits agreed. */
#include "attnstep/expvec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROW 4096
#define ROWS 4096
#define ROUNDS 9

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void per_element(double *out, const double *in, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        out[i] = exp(in[i]);
}

/* the fastest round of fn over the row, ROWS times, in ns per exponential */
static double ns_per_exp(void (*fn)(double *, const double *, size_t), double *out,
                         const double *in)
{
    double best = INFINITY, sink = 0.0;
    int round, r;

    for (round = 0; round < ROUNDS; round++) {
        const double t0 = now();
        for (r = 0; r < ROWS; r++) {
            fn(out, in, ROW);
            sink += out[r % ROW];
        }
        const double t = (now() - t0) / ((double)ROW * ROWS) * 1e9;
        best = t < best ? t : best;
    }
    if (sink == 42.0) /* keeps the work from being optimised away */
        puts("");
    return best;
}

int main(void)
{
    static double in[ROW], want[ROW], got[ROW];
    uint64_t s = 88172645463325252u;
    double libm, lanes, plain;
    int i;

    for (i = 0; i < ROW; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        in[i] = -50.0 * (double)(s >> 11) * 0x1p-53;
    }
    libm = ns_per_exp(per_element, want, in);
    printf("four-lane path available: %s\n", as_exp_simd(1) ? "yes" : "no");
    lanes = ns_per_exp(as_exp_many, got, in);
    printf("exp() per element:           %.2f ns per exp\n", libm);
    printf("as_exp_many(), four lanes:   %.2f ns per exp (%.2fx)\n", lanes, libm / lanes);
    as_exp_simd(0);
    plain = ns_per_exp(as_exp_many, got, in);
    printf("as_exp_many(), exp() path:   %.2f ns per exp\n", plain);
    as_exp_simd(1);
    as_exp_many(got, in, ROW);
    printf("bits equal to exp(): %s\n", memcmp(got, want, sizeof got) == 0 ? "yes" : "NO");
    return memcmp(got, want, sizeof got) != 0;
}
