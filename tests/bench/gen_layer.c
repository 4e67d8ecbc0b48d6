/* gen_layer.c - writes a GPT-2-sized attention layer for `make bench`, the same bytes
 * on every run: the project's own PRNG (prng.h, splitmix64), never rand().
 *
 *     gen_layer DIR [TOKENS D_MODEL HEADS [D_FF]]      (default 512 768 12)
 *
 * DIR gets x.txt (TOKENS x D_MODEL, N(0, 1)), wq.txt wk.txt wv.txt wo.txt (D_MODEL x
 * D_MODEL in torch's [out, in] layout, N(0, 0.02)), bq.txt bk.txt bv.txt bo.txt (one
 * row each, N(0, 0.02)), all as numpy.savetxt writes them ("%.18e" joined by single
 * spaces, one row a line), and layer.txt, the attnstep input that loads them (SPEC §2).
 * With D_FF, also GPT-2's block around that layer (SPEC §15: pre-LN, LayerNorm, FFN
 * with the tanh GELU): ln1_g.txt ln2_g.txt (1 + N(0, 0.02)), ln1_b.txt ln2_b.txt,
 * wup.txt (D_FF x D_MODEL, torch's layout) bup.txt, wdown.txt (D_MODEL x D_FF) bdown.txt,
 * drawn after the layer's (whose bytes stay the same), and block.txt, the input of the
 * whole block. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/prng.h"

/* Uniform in (0, 1): 53 random bits of the project's PRNG, never 0 (log(0) below). */
static double rng_uniform(as_prng *r)
{
    return ((double)(as_prng_next(r) >> 11) + 0.5) * 0x1p-53;
}

/* N(0, sigma^2) by Box-Muller (one of the pair: simpler, and speed does not matter). */
static double rng_normal(as_prng *r, double sigma)
{
    const double u = rng_uniform(r), v = rng_uniform(r);

    return sigma * sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* ---- files ---- */

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(2);
    }
    return f;
}

static void close_file(FILE *f, const char *name)
{
    if (ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "gen_layer: cannot write %s\n", name);
        exit(2);
    }
}

/* rows x cols normal values written as numpy.savetxt(fname, a) writes them. */
static void write_matrix(const char *dir, const char *name, as_prng *r, size_t rows, size_t cols,
                         double sigma)
{
    FILE *f = open_in(dir, name);
    size_t i, j;

    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            fprintf(f, "%.18e%c", rng_normal(r, sigma), j + 1 < cols ? ' ' : '\n');
    close_file(f, name);
}

/* One row of cols values 1 + N(0, sigma^2): a LayerNorm's γ, near GPT-2's. */
static void write_gamma(const char *dir, const char *name, as_prng *r, size_t cols, double sigma)
{
    FILE *f = open_in(dir, name);
    size_t j;

    for (j = 0; j < cols; j++)
        fprintf(f, "%.18e%c", 1.0 + rng_normal(r, sigma), j + 1 < cols ? ' ' : '\n');
    close_file(f, name);
}

/* block.txt: the layer's input and GPT-2's block around it. */
static void write_block_input(const char *dir, size_t n, size_t d, size_t heads, size_t dff)
{
    static const char *const names[] = {"X",  "Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv", "bo",
                                        "ln1_g", "ln1_b", "ln2_g", "ln2_b", "Wup", "bup",
                                        "Wdown", "bdown"};
    static const char *const files[] = {"x.txt",  "wq.txt", "wk.txt", "wv.txt", "wo.txt",
                                        "bq.txt", "bk.txt", "bv.txt", "bo.txt", "ln1_g.txt",
                                        "ln1_b.txt", "ln2_g.txt", "ln2_b.txt", "wup.txt",
                                        "bup.txt", "wdown.txt", "bdown.txt"};
    FILE *f = open_in(dir, "block.txt");
    size_t i;

    fprintf(f, "# A GPT-2-small block for `make bench` (tests/bench/gen_layer.c): %zu tokens,\n"
               "# d_model %zu, %zu heads, FFN %zu with the tanh GELU, pre-LN; torch's layout.\n"
               "title: bench block\nheads: %zu\nmask: causal\nlayout: torch\n"
               "block: pre\nnorm: layer\nffn: gelu_tanh\n",
            n, d, heads, dff, heads);
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        fprintf(f, "%s = load(\"%s\")\n", names[i], files[i]);
    close_file(f, "block.txt");
}

static void write_input(const char *dir, size_t n, size_t d, size_t heads)
{
    static const char *const names[] = {"X", "Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv", "bo"};
    static const char *const files[] = {"x.txt",  "wq.txt", "wk.txt", "wv.txt", "wo.txt",
                                        "bq.txt", "bk.txt", "bv.txt", "bo.txt"};
    FILE *f = open_in(dir, "layer.txt");
    size_t i;

    fprintf(f, "# A GPT-2-sized attention layer for `make bench` (tests/bench/gen_layer.c):\n"
               "# %zu tokens, d_model %zu, %zu heads, weights in torch's [out, in] layout.\n"
               "title: bench layer\nheads: %zu\nmask: causal\nlayout: torch\n",
            n, d, heads, heads);
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        fprintf(f, "%s = load(\"%s\")\n", names[i], files[i]);
    close_file(f, "layer.txt");
}

int main(int argc, char **argv)
{
    static const char *const w[] = {"wq.txt", "wk.txt", "wv.txt", "wo.txt"};
    static const char *const b[] = {"bq.txt", "bk.txt", "bv.txt", "bo.txt"};
    size_t n = 512, d = 768, heads = 12, dff = 0, i;
    as_prng r;

    if (argc != 2 && argc != 5 && argc != 6) {
        fprintf(stderr, "usage: gen_layer DIR [TOKENS D_MODEL HEADS [D_FF]]\n");
        return 2;
    }
    if (argc == 6 && (dff = strtoul(argv[5], NULL, 10)) == 0) {
        fprintf(stderr, "gen_layer: need D_FF > 0\n");
        return 2;
    }
    if (argc >= 5) {
        n = strtoul(argv[2], NULL, 10);
        d = strtoul(argv[3], NULL, 10);
        heads = strtoul(argv[4], NULL, 10);
        if (n == 0 || d == 0 || heads == 0 || d % heads != 0) {
            fprintf(stderr, "gen_layer: need TOKENS, D_MODEL > 0 and HEADS dividing D_MODEL\n");
            return 2;
        }
    }
    as_prng_seed(&r, 20240611);
    write_matrix(argv[1], "x.txt", &r, n, d, 1.0);
    for (i = 0; i < 4; i++)
        write_matrix(argv[1], w[i], &r, d, d, 0.02);
    for (i = 0; i < 4; i++)
        write_matrix(argv[1], b[i], &r, 1, d, 0.02);
    write_input(argv[1], n, d, heads);
    if (dff == 0)
        return 0;
    write_gamma(argv[1], "ln1_g.txt", &r, d, 0.02);
    write_matrix(argv[1], "ln1_b.txt", &r, 1, d, 0.02);
    write_gamma(argv[1], "ln2_g.txt", &r, d, 0.02);
    write_matrix(argv[1], "ln2_b.txt", &r, 1, d, 0.02);
    write_matrix(argv[1], "wup.txt", &r, dff, d, 0.02);
    write_matrix(argv[1], "bup.txt", &r, 1, dff, 0.02);
    write_matrix(argv[1], "wdown.txt", &r, d, dff, 0.02);
    write_matrix(argv[1], "bdown.txt", &r, 1, d, 0.02);
    write_block_input(argv[1], n, d, heads, dff);
    return 0;
}
