/* sample.c - temperature, top-k, top-p and the draw (SPEC §19). */
#include "attnstep/sample.h"

#include <math.h>

void as_temperature(double *out, const double *logits, size_t n, double t)
{
    size_t i;

    for (i = 0; i < n; i++)
        out[i] = logits[i] / t;
}

/* Nonzero when token a comes before token b from the largest down (equal: index). */
static int before(const double *x, size_t a, size_t b)
{
    return x[a] > x[b] || (x[a] == x[b] && a < b);
}

/* order[n] = 0 .. n-1 sorted from the largest x down, equal values by index: a stable
 * merge sort through tmp[n], so that a vocabulary of 50 000 sorts in n log n. */
static void sort_down(size_t *order, size_t *tmp, const double *x, size_t n)
{
    size_t i, w;

    for (i = 0; i < n; i++)
        order[i] = i;
    for (w = 1; w < n; w *= 2) {
        for (i = 0; i < n; i += 2 * w) {
            size_t a = i, b = i + w < n ? i + w : n, k = i;
            const size_t amid = b, bend = i + 2 * w < n ? i + 2 * w : n;
            while (a < amid || b < bend)
                tmp[k++] = b >= bend || (a < amid && before(x, order[a], order[b])) ? order[a++]
                                                                                    : order[b++];
        }
        for (i = 0; i < n; i++)
            order[i] = tmp[i];
    }
}

void as_top_k(double *out, const double *x, size_t n, size_t k, size_t *order)
{
    size_t i;

    for (i = 0; i < n; i++)
        out[i] = -INFINITY;
    sort_down(order, order + n, x, n);
    for (i = 0; i < n && i < k; i++)
        out[order[i]] = x[order[i]];
}

/* top-p's first half: order[n] the tokens from the most likely down (order[2n] scratch),
 * cum[n] the running sums in that order, out[n] all -inf. */
static void sorted_sums(double *out, size_t *order, double *cum, const double *probs, size_t n)
{
    size_t i;
    double sum = 0;

    sort_down(order, order + n, probs, n);
    for (i = 0; i < n; i++) {
        sum += probs[order[i]];
        cum[i] = sum;
        out[i] = -INFINITY;
    }
}

size_t as_top_p(double *out, size_t *order, double *cum, const double *x, const double *probs,
                size_t n, double p)
{
    size_t i, kept = 0;

    sorted_sums(out, order, cum, probs, n);
    for (i = 0; i < n && probs[order[i]] > 0; i++) {
        out[order[i]] = x[order[i]];
        kept++;
        if (cum[i] >= p) /* the token that crosses p is kept */
            break;
    }
    return kept;
}

size_t as_top_p_drop_crossing(double *out, size_t *order, double *cum, const double *x,
                              const double *probs, size_t n, double p)
{
    size_t i, kept = 0;

    sorted_sums(out, order, cum, probs, n);
    for (i = 0; i < n && probs[order[i]] > 0 && cum[i] < p; i++) {
        out[order[i]] = x[order[i]];
        kept++;
    }
    return kept;
}

size_t as_greedy(const double *x, size_t n)
{
    size_t i, best = 0;

    for (i = 1; i < n; i++)
        if (x[i] > x[best])
            best = i;
    return best;
}

double as_uniform(as_prng *g)
{
    return (double)(as_prng_next(g) >> 11) * 0x1p-53;
}

size_t as_draw(double *cum, const double *probs, size_t n, double u)
{
    size_t i, last = 0;
    double sum = 0;

    for (i = 0; i < n; i++) {
        sum += probs[i];
        cum[i] = sum;
    }
    for (i = 0; i < n; i++) {
        if (probs[i] <= 0)
            continue;
        if (u < cum[i])
            return i;
        last = i;
    }
    return last;
}
