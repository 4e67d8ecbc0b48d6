/* positions.c - sinusoidal encodings, rotary encodings and ALiBi biases (SPEC §12).
 * Each is written as the papers write it, one function per step. */
#include "attnstep/positions.h"

#include <math.h>

void as_sinusoidal(double *pe, size_t n, size_t d, size_t offset)
{
    as_sinusoidal_base(pe, n, d, offset, 10000.0);
}

void as_sinusoidal_base(double *pe, size_t n, size_t d, size_t offset, double base)
{
    size_t r, c;

    for (r = 0; r < n; r++) {
        const double p = (double)(offset + r);
        for (c = 0; c < d; c++) {
            /* columns 2i and 2i+1 share the frequency 1 / base^(2i/d) */
            const double angle = p / pow(base, (double)(c - c % 2) / (double)d);
            pe[r * d + c] = c % 2 == 0 ? sin(angle) : cos(angle);
        }
    }
}

double as_rope_theta(size_t i, size_t d, double base)
{
    /* written 1 / base^(2i/d), as the reference code computes its inverse frequencies */
    return 1.0 / pow(base, (double)(2 * i) / (double)d);
}

void as_rope_pair(size_t *a, size_t *b, size_t i, size_t d, as_rope_pairing pairing)
{
    *a = pairing == AS_ROPE_HALF ? i : 2 * i;
    *b = pairing == AS_ROPE_HALF ? i + d / 2 : 2 * i + 1;
}

void as_rope_angles(double *angle, double *cs, double *sn, size_t rows, size_t d, double base,
                    size_t offset)
{
    const size_t pairs = d / 2;
    size_t r, i;

    for (r = 0; r < rows; r++)
        for (i = 0; i < pairs; i++) {
            const double a = (double)(offset + r) * as_rope_theta(i, d, base);
            angle[r * pairs + i] = a;
            cs[r * pairs + i] = cos(a);
            sn[r * pairs + i] = sin(a);
        }
}

/* Each row's pairs turned by its angles (sign 1) or back by them (sign −1, the sine
 * negated: exact, so the turn forwards keeps its bits). */
static void turn(double *out, const double *x, size_t n, size_t d, const double *cs,
                 const double *sn, as_rope_pairing pairing, double sign)
{
    const size_t pairs = d / 2;
    size_t r, i, a, b;

    for (r = 0; r < n; r++) {
        const double *row = x + r * d;
        double *o = out + r * d;
        for (i = 0; i < pairs; i++) {
            const double c = cs[r * pairs + i], s = sign * sn[r * pairs + i];
            as_rope_pair(&a, &b, i, d, pairing);
            o[a] = row[a] * c - row[b] * s;
            o[b] = row[a] * s + row[b] * c;
        }
    }
}

void as_rope(double *out, const double *x, size_t n, size_t d, const double *cs,
             const double *sn, as_rope_pairing pairing)
{
    turn(out, x, n, d, cs, sn, pairing, 1.0);
}

void as_rope_backward(double *dx, const double *dy, size_t n, size_t d, const double *cs,
                      const double *sn, as_rope_pairing pairing)
{
    /* the turn is orthogonal: its backward pass is its transpose, the turn by −angle */
    turn(dx, dy, n, d, cs, sn, pairing, -1.0);
}

/* The slopes of a power of two h: start^1, start^2, ... with start = 2^(−8/h). */
static void power_of_two_slopes(double *slopes, size_t h, size_t step, size_t count)
{
    size_t k;

    for (k = 0; k < count; k++)
        slopes[k] = exp2(-8.0 * (double)(1 + k * step) / (double)h);
}

void as_alibi_slopes(double *slopes, size_t heads)
{
    size_t c = 1;

    while (c * 2 <= heads)
        c *= 2;
    power_of_two_slopes(slopes, c, 1, c);
    /* the rest: slopes 0, 2, 4, ... of the power of two above (the paper's get_slopes) */
    if (heads > c)
        power_of_two_slopes(slopes + c, 2 * c, 2, heads - c);
}

void as_alibi_bias(double *b, size_t n, size_t m, double slope)
{
    size_t i;

    for (i = 0; i < n; i++)
        as_alibi_bias_row(b + i * m, i, m, slope);
}

void as_alibi_bias_row(double *b, size_t i, size_t m, double slope)
{
    size_t j;

    for (j = 0; j < m; j++)
        b[j] = -slope * ((double)i - (double)j);
}

void as_add_alibi(double *s, size_t n, size_t m, double slope)
{
    size_t i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            s[i * m + j] += -slope * ((double)i - (double)j);
}
