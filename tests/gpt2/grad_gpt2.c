/* grad_gpt2.c - `make test-gpt2`: the backward pass on the GPT-2-sized layer of `make
 * bench` (512 tokens, d_model 768, 12 heads, causal, torch layout, Wo and every bias;
 * tests/bench/gen_layer.c writes it, the same bytes every time) with loss: sum, against
 * PyTorch autograd in float64: tests/data/grad/gpt2.expected holds the checksums of dWq
 * (sum, sum of |x|, sum of x²) and 256 of its cells, and 64 cells of dX, computed once
 * by tests/data/grad/make_cases.py (see there). The backward pass is run twice: on the
 * full forward trace, and row by row on a rows trace (what `grad --only dX` runs, with
 * no n x m table kept); both are compared with PyTorch, and every table the rows run
 * keeps must be the full run's bit for bit. Too slow for `make test` under valgrind,
 * so it has its own target (CI runs it).
 *
 *     grad_gpt2 DIR      (DIR holds gen_layer's files; the loss line is added here) */
#include "attnstep/grad.h"
#include "attnstep/session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECTED "tests/data/grad/gpt2.expected"

static int failures;

/* 1e-12 relative, or 1e-13 absolute near 0, as for the small cases (tests/test_grad.c). */
static void agree(const char *what, double got, double want, double scale)
{
    if (fabs(got - want) <= 1e-12 * scale + 1e-13)
        return;
    fprintf(stderr, "grad_gpt2: %s = %.17g, PyTorch %.17g\n", what, got, want);
    failures++;
}

/* The three checksums of m, summed in long double so that 590 000 terms lose nothing
 * that matters at 1e-12. */
static void checksums(const as_matrix *m, double out[3])
{
    long double s = 0, a = 0, q = 0;
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++) {
        s += m->v[i];
        a += fabsl((long double)m->v[i]);
        q += (long double)m->v[i] * m->v[i];
    }
    out[0] = (double)s, out[1] = (double)a, out[2] = (double)q;
}

static int compare(const as_grad *g)
{
    FILE *f = fopen(EXPECTED, "r");
    char line[256], name[32];
    double sums[3], want;
    size_t r, c, cells = 0;

    if (f == NULL) {
        perror(EXPECTED);
        return -1;
    }
    failures = 0;
    checksums(&g->dWq, sums);
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "dWq_sum %lf", &want) == 1)
            agree("sum of dWq", sums[0], want, sums[1]);
        else if (sscanf(line, "dWq_abs %lf", &want) == 1)
            agree("sum of |dWq|", sums[1], want, fabs(want));
        else if (sscanf(line, "dWq_sq %lf", &want) == 1)
            agree("sum of dWq²", sums[2], want, fabs(want));
        else if (sscanf(line, "%31s %zu %zu %lf", name, &r, &c, &want) == 4) {
            const as_matrix *m = strcmp(name, "dWq") == 0 ? &g->dWq : &g->dX;
            char what[64];
            snprintf(what, sizeof what, "%s[%zu][%zu]", name, r, c);
            agree(what, AS_AT(*m, r, c), want, fabs(want));
            cells++;
        }
    }
    fclose(f);
    printf("grad_gpt2: 3 checksums of dWq and %zu cells of dWq and dX compared with "
           "PyTorch: %d differ\n", cells, failures);
    return cells == 320 && failures == 0 ? 0 : -1;
}

/* The forward run of path (rows: a rows trace) and the backward pass into g; -1 after
 * printing the error. Free s and g either way. */
static int backward(as_session *s, as_grad *g, const char *path, int rows)
{
    as_session_opts o;
    as_error err;

    memset(&o, 0, sizeof o);
    o.rows = rows;
    as_error_clear(&err);
    if (as_session_open(s, path, &o, &err) != 0) {
        memset(s, 0, sizeof *s);
        as_error_print(&err, stderr);
        return -1;
    }
    if (as_grad_loss(g, &s->p, &s->t, AS_LANG_EN, &err) == 0 &&
        as_grad_run(g, &s->p, &s->t, &err) == 0)
        return 0;
    as_error_print(&err, stderr);
    return -1;
}

/* Nonzero when two tables differ in shape or in any bit. */
static int differ(const as_matrix *a, const as_matrix *b)
{
    return a->rows != b->rows || a->cols != b->cols ||
           (a->rows * a->cols > 0 && memcmp(a->v, b->v, a->rows * a->cols * sizeof *a->v) != 0);
}

/* Every table the rows run keeps against the full run's: the same bits. */
static int same_bits(const as_grad *full, const as_grad *rows)
{
    const as_matrix *f[] = {&full->dO, &full->dWo, &full->dbo, &full->dC, &full->dQ,
                            &full->dK, &full->dV, &full->dWq, &full->dWk, &full->dWv,
                            &full->dbq, &full->dbk, &full->dbv, &full->dX};
    const as_matrix *r[] = {&rows->dO, &rows->dWo, &rows->dbo, &rows->dC, &rows->dQ,
                            &rows->dK, &rows->dV, &rows->dWq, &rows->dWk, &rows->dWv,
                            &rows->dbq, &rows->dbk, &rows->dbv, &rows->dX};
    size_t k, hd, bad = 0;

    for (k = 0; k < sizeof f / sizeof f[0]; k++)
        bad += differ(f[k], r[k]) != 0;
    for (hd = 0; hd < full->heads && hd < rows->heads; hd++) {
        const as_grad_head *a = &full->head[hd], *b = &rows->head[hd];
        bad += differ(&a->dO, &b->dO) + differ(&a->dV, &b->dV) + differ(&a->rowdot, &b->rowdot) +
               differ(&a->dQ, &b->dQ) + differ(&a->dK, &b->dK);
        bad += b->dA.rows + b->dS.rows + b->dQKT.rows != 0; /* no n x m table kept */
    }
    printf("grad_gpt2: the row-by-row backward pass against the full one: %zu tables "
           "differ\n", bad);
    return bad == 0 && full->heads == rows->heads ? 0 : -1;
}

int main(int argc, char **argv)
{
    char path[4096];
    as_session s, sr;
    as_grad g = {0}, gr = {0};
    FILE *f;
    int rc = 1;

    if (argc != 2) {
        fputs("usage: grad_gpt2 DIR\n", stderr);
        return 2;
    }
    /* the bench layer with loss: sum, beside its files (load() paths are relative) */
    snprintf(path, sizeof path, "%s/grad_layer.txt", argv[1]);
    if ((f = fopen(path, "w")) == NULL || fprintf(f, "loss: sum\n") < 0 || fclose(f) != 0) {
        perror(path);
        return 2;
    }
    snprintf(path, sizeof path, "cat %s/layer.txt >> %s/grad_layer.txt", argv[1], argv[1]);
    if (system(path) != 0)
        return 2;
    snprintf(path, sizeof path, "%s/grad_layer.txt", argv[1]);
    memset(&s, 0, sizeof s);
    memset(&sr, 0, sizeof sr);
    if (backward(&s, &g, path, 0) == 0 && backward(&sr, &gr, path, 1) == 0) {
        const int full_ok = compare(&g) == 0, rows_ok = compare(&gr) == 0;
        rc = full_ok && rows_ok && same_bits(&g, &gr) == 0 ? 0 : 1;
    }
    as_grad_free(&g);
    as_grad_free(&gr);
    as_session_free(&s);
    as_session_free(&sr);
    return rc;
}
