/* gen_input.h - generated attention inputs for the tests of issue 15 (decode, --tiles):
 * input number `which` of n tokens, its shape drawn from the project's PRNG -- several
 * heads, shared K/V heads, windows, biases, Wo and custom lower-triangular masks come
 * up often. Include after <cmocka.h>. */
#ifndef ATTNSTEP_GEN_INPUT_H
#define ATTNSTEP_GEN_INPUT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "attnstep/prng.h"

typedef struct gen {
    char *buf;
    size_t len, cap;
} gen;

static inline void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        assert_true(n >= 0);
        if ((size_t)n < g->cap - g->len)
            break;
        g->cap = g->cap * 2 + (size_t)n + 64;
        g->buf = realloc(g->buf, g->cap);
        assert_non_null(g->buf);
    }
    g->len += (size_t)n;
}

/* A double in [-2, 2) with 53 random bits, written so that it reads back exactly. */
static inline double draw(as_prng *r)
{
    return ((double)(as_prng_next(r) >> 11) * 0x1p-53) * 4.0 - 2.0;
}

static inline void matrix(gen *g, as_prng *r, const char *name, size_t rows, size_t cols)
{
    size_t i, j;

    put(g, "%s = [", name);
    for (i = 0; i < rows; i++) {
        put(g, "%s[", i ? ",\n  " : "");
        for (j = 0; j < cols; j++)
            put(g, "%s%.17g", j ? ", " : "", draw(r));
        put(g, "]");
    }
    put(g, "]\n");
}

/* A lower-triangular mask with finite biases and some forbidden past cells (the
 * diagonal always readable): a custom mask decode may follow. */
static inline void custom_mask(gen *g, as_prng *r, size_t n)
{
    size_t i, j;

    put(g, "M = [");
    for (i = 0; i < n; i++) {
        put(g, "%s[", i ? ",\n  " : "");
        for (j = 0; j < n; j++) {
            const long k = as_prng_range(r, 0, 3);
            put(g, "%s", j ? ", " : "");
            if (j > i || (j < i && k == 0))
                put(g, "-inf");
            else
                put(g, "%ld", k - 1);
        }
        put(g, "]");
    }
    put(g, "]\n");
}

/* Input number `which`: its shape drawn from the PRNG; several heads, shared K/V
 * heads, windows and long sequences come up often. */
static inline void generate(gen *g, uint64_t which, size_t n)
{
    as_prng r;
    size_t heads, groups, dk, dv, dm;
    long mask, positions;

    as_prng_seed(&r, 0x15dec0de00ull + which);
    heads = (size_t)as_prng_range(&r, 1, 4);
    groups = heads % 2 == 0 && as_prng_range(&r, 0, 1) ? heads / 2 : heads;
    if (as_prng_range(&r, 0, 3) == 0)
        groups = 1;
    dk = (size_t)as_prng_range(&r, 1, 6);
    dv = (size_t)as_prng_range(&r, 1, 5);
    dm = (size_t)as_prng_range(&r, 1, 8);
    mask = n <= 40 ? as_prng_range(&r, 0, 2) : as_prng_range(&r, 0, 1);
    positions = as_prng_range(&r, 0, 5); /* none half of the time */
    if (positions == 2)
        dk = 2 * (size_t)as_prng_range(&r, 1, 3); /* RoPE turns pairs */
    g->len = 0;
    put(g, "heads: %zu\nkv_heads: %zu\n", heads, groups);
    if (positions >= 1 && positions <= 3)
        put(g, "positions: %s\n", positions == 1 ? "sinusoidal" : positions == 2 ? "rope" : "alibi");
    if (positions == 2 && as_prng_range(&r, 0, 1))
        put(g, "rope: interleaved\nrope_base: 500\n");
    if (mask == 1)
        put(g, "mask: window %ld\n", as_prng_range(&r, 1, (long)n + 1));
    matrix(g, &r, "X", n, dm);
    matrix(g, &r, "Wq", dm, heads * dk);
    matrix(g, &r, "Wk", dm, groups * dk);
    matrix(g, &r, "Wv", dm, groups * dv);
    if (as_prng_range(&r, 0, 1)) {
        matrix(g, &r, "bq", 1, heads * dk);
        matrix(g, &r, "bk", 1, groups * dk);
        matrix(g, &r, "bv", 1, groups * dv);
    }
    if (as_prng_range(&r, 0, 1)) {
        const size_t out = (size_t)as_prng_range(&r, 1, 6);
        matrix(g, &r, "Wo", heads * dv, out);
        matrix(g, &r, "bo", 1, out);
    }
    if (mask == 2)
        custom_mask(g, &r, n);
}

/* Writes to path X: one column of n tokens (width 1), the weights 1x1: n x n scores,
 * the long trace of issue 20. */
static inline void long_column(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    int i;

    assert_non_null(f);
    fputs("X = [", f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s[%d]", i ? "," : "", i % 7 - 3);
    fputs("]\nWq = [[0.5]]\nWk = [[1]]\nWv = [[2]]\n", f);
    assert_int_equal(fclose(f), 0);
}

/* long_column() with `loss: sum`: an input for grad. */
static inline void long_column_grad(const char *path, int n)
{
    FILE *f;

    long_column(path, n);
    assert_non_null(f = fopen(path, "a"));
    fputs("loss: sum\n", f);
    assert_int_equal(fclose(f), 0);
}

/* Nonzero under `make valgrind` (which sets ATTNSTEP_WRAP): the long inputs, there only
 * to find memory errors, are then fewer -- their arithmetic is checked by make test. */
static inline int under_valgrind(void)
{
    const char *w = getenv("ATTNSTEP_WRAP");

    return w != NULL && w[0] != '\0';
}

#endif
