/* fuzz_run.c - libFuzzer entry point for the whole run: parse -> as_problem_build ->
 * as_attention_run -> every renderer into memory. Any bytes must end in output or an
 * error, never a crash, a hang, a leak or a sanitizer report; and a run that succeeds
 * must hold what the maths promises (shares in [0, 1] summing to 1 along each row, 0
 * where the mask forbids, no NaN or inf outside the masked cells of S), or the fuzzer
 * aborts; so it does when the lean run of --only O disagrees with the full one. Inputs
 * whose tables are large are skipped after parsing, to keep each run fast: the limits
 * themselves are tested by tests/bad/. The render options (language,
 * digits, ascii, colour, the trace row, the document formats) come from a hash of the
 * input, so that they vary with it and replay the same. */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOST_CELLS 1024  /* in any one input table */
#define MOST_SCORES 1024 /* heads x n x m */

static int small_enough(const as_input *in)
{
    size_t i;

    for (i = 0; i < AS_NMAT; i++)
        if (in->mat[i].m.rows * in->mat[i].m.cols > MOST_CELLS)
            return 0;
    return 1;
}

static void check_finite(const as_matrix *m)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (!isfinite(m->v[i]))
            abort();
}

/* What the maths promises of one head, given the mask M. */
static void check_head(const as_head_trace *h, const as_matrix *M)
{
    size_t i, j;

    check_finite(&h->Q);
    check_finite(&h->K);
    check_finite(&h->V);
    check_finite(&h->QKT);
    check_finite(&h->O);
    for (i = 0; i < h->A.rows; i++) {
        double sum = 0;
        for (j = 0; j < h->A.cols; j++) {
            const double a = AS_AT(h->A, i, j), s = AS_AT(h->S, i, j);
            if (!(a >= 0 && a <= 1) || (s == -INFINITY) != (AS_AT(*M, i, j) == -INFINITY) ||
                (isnan(s) || s == INFINITY) || (s == -INFINITY && a != 0))
                abort();
            sum += a;
        }
        if (fabs(sum - 1) > 1e-9)
            abort();
    }
}

/* The lean run of --only O must give the full run's O bit for bit (full), or refuse
 * what the full run refused (full NULL) with the same message (full_err). */
static void check_lean(const as_problem *p, const as_trace *full, const as_error *full_err)
{
    as_trace lean;
    as_error err;
    int ok;

    as_error_clear(&err);
    ok = as_attention_run_lean(&lean, p, &err) == 0;

    if (ok != (full != NULL) || (!ok && strcmp(err.msg, full_err->msg) != 0))
        abort();
    if (!ok)
        return;
    if (lean.O.rows != full->O.rows || lean.O.cols != full->O.cols ||
        memcmp(lean.O.v, full->O.v, full->O.rows * full->O.cols * sizeof *full->O.v) != 0)
        abort();
    as_trace_free(&lean);
}

/* Runs one renderer into memory; its output is dropped. */
static void render(int (*fn)(FILE *, const as_problem *, const as_trace *, const as_render_opts *),
                   const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);

    if (mem == NULL)
        return;
    fn(mem, p, t, o);
    fclose(mem);
    free(buf);
}

static void render_all(const as_problem *p, const as_trace *t, uint32_t h)
{
    as_render_opts o = {0};

    o.lang = (h & 1) ? AS_LANG_EN : AS_LANG_ZH;
    o.ascii = (h >> 1) & 1;
    o.color = (h >> 2) & 1;
    o.heatmap = (h >> 3) & 1;
    o.digits = (int)((h >> 4) % 18);
    o.row = (h >> 9) & 1 ? -2 : (h >> 10) & 1 ? -1 : (long)((h >> 11) % p->n);
    render(as_render_text, p, t, &o);
    render(as_render_json, p, t, &o);
    render(as_render_trace, p, t, &o);
    switch ((h >> 20) & 3) { /* one document format per run, in turn */
    case 0:
        render(as_render_md, p, t, &o);
        break;
    case 1:
        render(as_render_latex, p, t, &o);
        break;
    case 2:
        render(as_render_svg, p, t, &o);
        break;
    default:
        o.only = 1u << (AS_T_Q + (h >> 22) % (AS_T_COUNT - AS_T_Q)); /* csv: one table */
        render(as_render_csv, p, t, &o);
        break;
    }
    o.only = (h >> 24) & 0x7ff; /* --only: any set of tables */
    render(as_render_text, p, t, &o);
    render(as_render_json, p, t, &o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;
    size_t main_len, hd;
    const uint32_t h = fnv1a(data, size);

    vfs_split(data, size, &main_len);
    as_error_clear(&err);
    if (as_parse_text(&in, (const char *)data, main_len, "fuzz/input.txt", &err) != 0)
        return 0;
    if (!small_enough(&in) || as_problem_build(&p, &in, (h >> 30) == 1 ? AS_MASK_NONE
                                                        : (h >> 30) == 2 ? AS_MASK_CAUSAL
                                                                         : AS_MASK_DEFAULT,
                                               &err) != 0) {
        as_input_free(&in);
        return 0;
    }
    if (p.heads * p.n * p.m <= MOST_SCORES && as_attention_run(&t, &p, &err) == 0) {
        for (hd = 0; hd < t.heads; hd++)
            check_head(&t.head[hd], &t.M);
        check_finite(&t.C);
        check_finite(&t.O);
        check_lean(&p, &t, &err);
        render_all(&p, &t, h);
        as_trace_free(&t);
    } else if (p.heads * p.n * p.m <= MOST_SCORES) {
        if (!err.set || err.msg[0] == '\0')
            abort(); /* a refused run says why */
        check_lean(&p, NULL, &err);
    }
    as_problem_free(&p);
    as_input_free(&in);
    return 0;
}
