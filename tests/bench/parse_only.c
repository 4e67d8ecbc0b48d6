/* parse_only.c - times the stages of `attnstep run --only O --format json` one by one,
 * for tests/bench/bench.sh (which times the whole command as a user runs it).
 *
 *     parse_only numbers FILE...   as_strtod_fast alone over numpy.savetxt text (best of 5)
 *     parse_only stages FILE       parse, check shapes, lean run, JSON of O
 *     parse_only parse FILE        parse alone (for profiles of the reading)
 *     parse_only same FILE         lean and full runs agree bit for bit on C and O
 *     parse_only kernels           the products of the layer's shapes: reference,
 *                                  fast on one thread, fast on two (GFLOP/s, best of 5)
 *
 * Prints "key value" lines: bytes, seconds per stage and the floating-point operations
 * of the layer (two per multiply-add of the six matrix products). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnstep/attention.h"
#include "attnstep/fastfloat.h"
#include "attnstep/kernels.h"
#include "attnstep/lex.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/render.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every number of text[0..len) read with as_strtod_fast, added to *sum; the gaps between
 * them (blanks and line ends) are stepped over as the quick reader steps over them, not
 * offered to it. Returns the count, or -1 at a byte that starts no number. */
static long convert_all(const char *text, size_t len, double *sum)
{
    const char *p = text, *end = text + len, *next;
    long count = 0;
    double x;

    while (p < end) {
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        if ((next = as_strtod_fast(p, end, &x)) == NULL) {
            fprintf(stderr, "parse_only: no number at byte %td\n", p - text);
            return -1;
        }
        *sum += x;
        count++;
        p = next;
    }
    return count;
}

#define NUMBER_ROUNDS 5

/* The numbers of the files, NUMBER_ROUNDS times over (the text already in memory):
 * seconds is the fastest round, so that a busy machine disturbs it less. */
static int numbers(int nfiles, char **files)
{
    char **text = calloc((size_t)nfiles, sizeof *text);
    size_t *len = calloc((size_t)nfiles, sizeof *len), bytes = 0;
    double best = 1e300, sum = 0, t0;
    long count = 0, got;
    int i, round, rc = 2;

    for (i = 0; text != NULL && len != NULL && i < nfiles; i++) {
        if (as_lex_read_file(files[i], 0, &text[i], &len[i]) != 0) {
            fprintf(stderr, "parse_only: cannot read %s\n", files[i]);
            goto fail;
        }
        bytes += len[i];
    }
    for (round = 0; text != NULL && len != NULL && round < NUMBER_ROUNDS; round++) {
        sum = 0;
        count = 0;
        t0 = now();
        for (i = 0; i < nfiles; i++) {
            if ((got = convert_all(text[i], len[i], &sum)) < 0)
                goto fail;
            count += got;
        }
        t0 = now() - t0;
        best = t0 < best ? t0 : best;
    }
    printf("bytes %zu\nnumbers %ld\nseconds %.6f\nchecksum %.17g\n", bytes, count, best, sum);
    rc = 0;
fail:
    for (i = 0; text != NULL && i < nfiles; i++)
        free(text[i]);
    free(text);
    free(len);
    return rc;
}

/* Multiply-adds of the layer, times two. */
static double layer_flops(const as_problem *p)
{
    const double n = (double)p->n, m = (double)p->m, h = (double)p->heads;
    const double dk = (double)p->d_k, dv = (double)p->d_v;
    double madds = n * (double)p->d_model * h * dk + m * (double)p->d_kv_model * h * (dk + dv) +
                   h * n * m * (dk + dv);

    if (p->Wo != NULL)
        madds += n * h * dv * (double)p->d_out;
    return 2 * madds;
}

static int fail(const as_error *err)
{
    as_error_print(err, stderr);
    return 2;
}

static int stages(const char *path)
{
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;
    as_render_opts o = {0};
    FILE *devnull = fopen("/dev/null", "w");
    double t0, t1, t2, t3, t4;

    as_error_clear(&err);
    t0 = now();
    if (as_parse_file(&in, path, &err) != 0)
        return fail(&err);
    t1 = now();
    if (as_problem_build_lean(&p, &in, AS_MASK_DEFAULT, &err) != 0) /* as run --only O */
        return fail(&err);
    t2 = now();
    if (as_attention_run_lean(&t, &p, &err) != 0)
        return fail(&err);
    t3 = now();
    o.digits = 10;
    o.only = 1u << AS_T_O;
    if (devnull == NULL || as_render_json(devnull, &p, &t, &o) != 0)
        return 2;
    t4 = now();
    printf("parse_s %.6f\nbuild_s %.6f\nlean_s %.6f\njson_s %.6f\nflops %.0f\n", t1 - t0,
           t2 - t1, t3 - t2, t4 - t3, layer_flops(&p));
    fclose(devnull);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
    return 0;
}

static int parse(const char *path)
{
    as_input in;
    as_error err;
    double t0 = now();

    as_error_clear(&err);
    if (as_parse_file(&in, path, &err) != 0)
        return fail(&err);
    printf("parse_s %.6f\n", now() - t0);
    as_input_free(&in);
    return 0;
}

static int same_table(const as_matrix *a, const as_matrix *b, const char *name)
{
    if (a->rows == b->rows && a->cols == b->cols &&
        memcmp(a->v, b->v, a->rows * a->cols * sizeof *a->v) == 0)
        return 1;
    printf("%s differs between the lean and the full run\n", name);
    return 0;
}

static int same(const char *path)
{
    as_input in;
    as_problem p;
    as_trace lean, full;
    as_error err;
    double t0, t1, t2;
    int ok;

    as_error_clear(&err);
    if (as_parse_file(&in, path, &err) != 0 || as_problem_build(&p, &in, AS_MASK_DEFAULT, &err))
        return fail(&err);
    t0 = now();
    if (as_attention_run_lean(&lean, &p, &err) != 0)
        return fail(&err);
    t1 = now();
    if (as_attention_run(&full, &p, &err) != 0)
        return fail(&err);
    t2 = now();
    ok = same_table(&lean.C, &full.C, "C") & same_table(&lean.O, &full.O, "O");
    printf("lean_s %.6f\nfull_s %.6f\nsame %s\n", t1 - t0, t2 - t1, ok ? "yes" : "no");
    as_trace_free(&lean);
    as_trace_free(&full);
    as_problem_free(&p);
    as_input_free(&in);
    return ok ? 0 : 1;
}

typedef void product_fn(double *, const double *, const double *, size_t, size_t, size_t);

/* Best of five runs of one product, in GFLOP/s. */
static double best_rate(product_fn *f, double *out, const double *a, const double *b, size_t n,
                        size_t k, size_t p)
{
    double best = 1e300, t0;
    int r;

    for (r = 0; r < 5; r++) {
        t0 = now();
        f(out, a, b, n, k, p);
        t0 = now() - t0;
        if (t0 < best)
            best = t0;
    }
    return 2.0 * (double)n * (double)k * (double)p / best / 1e9;
}

/* One shape through the reference and the fast kernels (AVX-512 or AVX2+FMA where the
 * processor has them). */
static void kernel_rates(const char *name, product_fn *ref, product_fn *fast1, product_fn *fast,
                         size_t n, size_t k, size_t p)
{
    double *a = malloc(n * k * sizeof *a), *b = malloc(k * p * sizeof *b);
    double *out = malloc(n * p * sizeof *out);
    size_t i;

    if (a == NULL || b == NULL || out == NULL)
        exit(2);
    for (i = 0; i < n * k; i++)
        a[i] = (double)(i % 1000) * 1e-3 - 0.5;
    for (i = 0; i < k * p; i++)
        b[i] = (double)(i % 997) * 1e-3 - 0.5;
    printf("%s_%zux%zux%zu reference %.1f fast_1_thread %.1f fast_2_threads %.1f simd %d\n",
           name, n, k, p, best_rate(ref, out, a, b, n, k, p), best_rate(fast1, out, a, b, n, k, p),
           best_rate(fast, out, a, b, n, k, p), as_kernels_simd(-1));
    free(a), free(b), free(out);
}

static int kernels(void)
{
    /* a projection (X @ Wq) and one head's scores (Q_h @ K_hᵀ, k as [m, d]) */
    kernel_rates("matmul", as_matmul, as_matmul_fast_1, as_matmul_fast, 512, 768, 768);
    kernel_rates("scores", as_scores, as_scores_fast_1, as_scores_fast, 512, 64, 512);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "numbers") == 0)
        return numbers(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "stages") == 0)
        return stages(argv[2]);
    if (argc == 3 && strcmp(argv[1], "parse") == 0)
        return parse(argv[2]);
    if (argc == 3 && strcmp(argv[1], "same") == 0)
        return same(argv[2]);
    if (argc == 2 && strcmp(argv[1], "kernels") == 0)
        return kernels();
    fprintf(stderr, "usage: parse_only numbers FILE... | stages FILE | parse FILE | same FILE | kernels\n");
    return 2;
}
