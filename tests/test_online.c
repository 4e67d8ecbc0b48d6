/* test_online.c - the online softmax (SPEC §11, --tiles B): its update step against
 * the chapter's numbers and a hand calculation, the cached-row kernels against the
 * plain steps, and the tiled run against the ordinary one on generated inputs, for
 * every block size. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/online.out"
#define CLI_ERR "build/tests/online.err"
#include "cli_util.h"
#include "gen_input.h"
#include "test_util.h"

#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/steps.h"
#include "attnstep/kernels.h"
#include "attnstep/steps_gen.h"
#include "attnstep/tiles.h"

/* ---- the update step ---- */

/* F11, row 1, blocks of 1: the scaled scores [1/√2, 0] and the Values [10,0], [0,20].
 * The chapter prints ℓ = 1.4930686914 and shares [0.6697615493, 0.3302384507]; to 40
 * digits (Python decimal) ℓ = 1 + e^(-1/√2) = 1.4930686913952397878..., the shares
 * 0.66976154932665692561... and 0.33023845067334307438..., the output
 * [6.6976154932665692561..., 6.6047690134668614876...]. */
static void test_f11_row_1_in_blocks_of_one_gives_the_chapters_sum_and_shares(void **state)
{
    const double s[2] = {0.70710678118654752440, 0.0} /* 1/√2, the double nearest */, v[2][2] = {{10, 0}, {0, 20}};
    double acc[2], lo[2], f, e, a[2], o[2];
    as_online st;

    (void)state;
    as_online_start(&st, acc, lo, 2);
    as_online_update(&st, &f, &e, &s[0], v[0], 1);
    assert_close(st.m, 0.70710678118654752440, 0);
    assert_close(st.l, 1, 0);
    assert_close(f, 0, 0); /* nothing summed before the first block */
    assert_close(st.acc[0], 10, 0);
    as_online_update(&st, &f, &e, &s[1], v[1], 1);
    assert_close(f, 1, 0); /* the max did not rise */
    assert_close(e, 0.49306869139523979, 1e-16);
    assert_close(st.l, 1.4930686913952398, 2e-16);
    as_online_shares(a, s, st.m, st.l, 2);
    assert_close(a[0], 0.66976154932665693, 2e-16);
    assert_close(a[1], 0.33023845067334307, 2e-16);
    as_online_output(o, &st);
    assert_close(o[0], 6.6976154932665693, 2e-15);
    assert_close(o[1], 6.6047690134668615, 2e-15);
}

/* Scores [0, 2], Values [1], [3], blocks of 1, by hand: block 0 gives m = 0, ℓ = 1,
 * acc = 1; block 1 raises the max to 2, so ℓ and acc are first rescaled by
 * e^(0-2) = 0.1353352832366127 (e^-2), then e^0 = 1 is added: ℓ = 1.1353352832366127,
 * acc = 0.1353352832366127 + 3. */
static void test_a_block_that_raises_the_max_rescales_the_sum_and_the_output(void **state)
{
    const double s[2] = {0, 2}, v[2] = {1, 3};
    double acc, lo, f, e[2];
    as_online st;

    (void)state;
    as_online_start(&st, &acc, &lo, 1);
    as_online_update(&st, &f, e, &s[0], &v[0], 1);
    as_online_update(&st, &f, e, &s[1], &v[1], 1);
    assert_close(st.m, 2, 0);
    assert_close(f, 0.1353352832366127, 1e-16);
    assert_close(st.l, 1.1353352832366127, 3e-16); /* f rounded, then 1 added: 1 ulp */
    assert_close(st.acc[0], 3.1353352832366127, 5e-16);
}

/* The sums are carried in two doubles: 1 + 2^-60 + 2^-60 ... is not lost. Scores all 0
 * (so each exp is exactly 1) and Values 1, 2^-60, 2^-60, -1 (each summed exactly): a
 * plain running sum rounds 1 + 2^-60 back to 1 twice and gives 0; the state keeps the
 * 2^-59, and the output is 2^-59 / 4 = 2^-61, exactly. */
static void test_the_running_output_keeps_what_a_plain_sum_would_round_away(void **state)
{
    const double s[4] = {0, 0, 0, 0}, v[4] = {1, 0x1p-60, 0x1p-60, -1};
    double acc, lo, f, o;
    as_online st;

    (void)state;
    as_online_start(&st, &acc, &lo, 1);
    as_online_update(&st, &f, NULL, s, v, 2);
    as_online_update(&st, &f, NULL, s + 2, v + 2, 2);
    assert_close(st.l, 4, 0);
    as_online_output(&o, &st);
    assert_close(o, 0x1p-61, 0);
}

static void test_a_block_of_forbidden_cells_changes_nothing(void **state)
{
    const double s[2] = {-INFINITY, -INFINITY}, v[2] = {5, 7};
    double acc, lo, f, e[2] = {9, 9};
    as_online st;

    (void)state;
    as_online_start(&st, &acc, &lo, 1);
    as_online_update(&st, &f, e, s, v, 2);
    assert_true(st.m == -INFINITY);
    assert_close(st.l, 0, 0);
    assert_close(st.acc[0], 0, 0);
    assert_close(f, 1, 0);
    assert_close(e[0], 0, 0);
}

/* ---- the cached-row kernels give the plain steps' bits ---- */

static void test_the_cached_row_kernels_equal_the_plain_steps_bit_for_bit(void **state)
{
    enum { N = 77, D = 13, DV = 75 }; /* DV: 64 + 8 + 3, each width of the mixing kernels */
    static double k[N * D], kt[((N + 7) / 8) * 8 * D], v[N * DV], q[D], a[N];
    double want[N], got[N], mixw[DV], mixg[DV];
    as_prng r;
    size_t i, j, first, last;
    int level;

    (void)state;
    as_prng_seed(&r, 1515);
    for (i = 0; i < N * D; i++)
        k[i] = draw(&r);
    for (i = 0; i < N * DV; i++)
        v[i] = draw(&r);
    for (i = 0; i < D; i++)
        q[i] = draw(&r);
    for (j = 0; j < N; j++) {
        a[j] = draw(&r);
        for (i = 0; i < D; i++)
            kt[AS_PANEL_AT(j, i, D)] = k[j * D + i];
    }
    for (level = 0; level <= AS_SIMD_BEST; level++) { /* baseline, AVX2, AVX-512 where there */
        if (as_kernels_simd(level) < level)
            break; /* past what this processor has: already run */
        for (first = 0; first < N; first += 5)
            for (last = first; last < N; last += 3) {
                as_scores(want, q, k + first * D, 1, last + 1 - first, D);
                as_scores_cached(got, q, kt, D, first, last);
                assert_memory_equal(want, got + first, (last + 1 - first) * sizeof *want);
                as_mix(mixw, a + first, v + first * DV, 1, last + 1 - first, DV);
                as_mix_cached(mixg, a, v, DV, first, last);
                assert_memory_equal(mixw, mixg, sizeof mixw);
            }
    }
    as_kernels_simd(AS_SIMD_BEST);
}

/* ---- the tiled run against a reference and against the ordinary run ---- */

/* The reference, computed again here in long double (a 64-bit significand on x86-64,
 * 113 on aarch64: 11 or more bits beyond a double), independently of the code under
 * test: for row i of head h, ℓ = Σ e^(s_j − m) with each shift taken exactly, the
 * shares e^(s_j − m) / ℓ from the run's shifted scores s_j − m (the doubles both the
 * ordinary and the online softmax exponentiate), and each output cell Σ a_j v_jc with
 * its size Σ a_j |v_jc|. */
typedef struct reference {
    long double l;
    long double o[8], size[8]; /* [d_v]; generated inputs have d_v <= 5 */
} reference;

static void reference_row(reference *r, const as_head_trace *h, size_t m, size_t dv, size_t i)
{
    long double a;
    size_t j, c;

    r->l = 0;
    for (j = 0; j < m; j++)
        if (AS_AT(h->S, i, j) != -INFINITY)
            r->l += expl((long double)AS_AT(h->S, i, j) - AS_AT(h->row_max, i, 0));
    for (c = 0; c < dv; c++)
        r->o[c] = r->size[c] = 0;
    for (j = 0; j < m; j++) {
        if (AS_AT(h->S, i, j) == -INFINITY)
            continue;
        a = expl((long double)AS_AT(h->S, i, j) - AS_AT(h->row_max, i, 0)) / r->l;
        for (c = 0; c < dv; c++) {
            r->o[c] += a * AS_AT(h->V, j, c);
            r->size[c] += a * fabsl((long double)AS_AT(h->V, j, c));
        }
    }
}

/* |got − want| in units in the last place of the double nearest `scale`. */
static double ulps(long double got, long double want, long double scale)
{
    const double d = fabs((double)scale), u = nextafter(d, INFINITY) - d;

    return (double)(fabsl(got - want) / u);
}

/* The largest differences seen, in ulp, per length (up to 16 tokens, up to 48, 512). */
typedef struct worst {
    double tiles[3], ordinary[3], apart[3]; /* tiles vs reference, ordinary vs
                                               reference, tiles vs ordinary */
} worst;

static void keep(double *slot, double d)
{
    if (d > *slot)
        *slot = d;
}

/* The tiled row's ℓ, shares and output (given as l, a over the row's m cells, o) against
 * the reference, each within 4 ulp -- ℓ and each share in ulp of themselves, an output
 * cell in ulp of the size of its terms (a cell near 0 by cancellation has a tiny ulp of
 * its own, which no sum of rounded terms reaches) -- and against the ordinary run:
 * apart from it by at most the ordinary run's own distance from the reference plus 4. */
static void row_agrees(const char *what, const as_head_trace *h, const reference *r,
                       size_t m, size_t dv, size_t i, double l, const double *a,
                       const double *o, worst *w, int g)
{
    double d, ord, apart;
    size_t j, c;

    d = ulps(l, r->l, r->l), ord = ulps(AS_AT(h->sums, i, 0), r->l, r->l);
    apart = ulps(l, AS_AT(h->sums, i, 0), r->l);
    keep(&w->tiles[g], d), keep(&w->ordinary[g], ord), keep(&w->apart[g], apart);
    if (!(d <= 4 && apart <= ord + 4)) {
        print_error("%s, row %zu: ℓ %g ulp from the reference, %g from the ordinary run\n",
                    what, i, d, apart);
        fail();
    }
    for (j = 0; j < m; j++) {
        const double want = AS_AT(h->A, i, j) == 0 ? 0 : (double)(expl((long double)AS_AT(h->shifted, i, j)) / r->l);
        d = AS_AT(h->S, i, j) == -INFINITY ? (a[j] == 0 ? 0 : INFINITY) : ulps(a[j], (long double)want, want);
        keep(&w->tiles[g], d);
        if (!(d <= 4)) {
            print_error("%s, row %zu: share %zu is %.17g, %g ulp from %.17g\n", what, i, j, a[j], d, want);
            fail();
        }
    }
    for (c = 0; c < dv; c++) {
        d = ulps(o[c], r->o[c], r->size[c]), ord = ulps(AS_AT(h->O, i, c), r->o[c], r->size[c]);
        apart = ulps(o[c], AS_AT(h->O, i, c), r->size[c]);
        keep(&w->tiles[g], d), keep(&w->ordinary[g], ord), keep(&w->apart[g], apart);
        if (!(d <= 4 && apart <= ord + 4)) {
            print_error("%s, row %zu: output cell %zu %g ulp from the reference, %g from the ordinary run\n",
                        what, i, c, d, apart);
            fail();
        }
    }
}

static void build(as_input *in, as_problem *p, as_trace *t, uint64_t which, size_t n)
{
    static gen g;
    as_error err;

    generate(&g, which, n);
    as_error_clear(&err);
    if (as_parse_text(in, g.buf, g.len, "generated.txt", &err) != 0 ||
        as_problem_build(p, in, AS_MASK_DEFAULT, &err) != 0 ||
        as_attention_run(t, p, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    assert_true(p->d_v <= 8);
}

/* Input `which` of n tokens through as_tiles_run(), every block size in sizes (0 ends;
 * NULL: 1 to n), every row of every head against the reference (row_agrees). */
static void tiles_agree(uint64_t which, size_t n, const size_t *sizes, worst *w)
{
    const int g = n <= 16 ? 0 : n < 512 ? 1 : 2;
    as_input in;
    as_problem p;
    as_trace t;
    as_tiles tl;
    as_error err;
    reference *ref;
    size_t B, k, h, i;
    char what[160];

    build(&in, &p, &t, which, n);
    ref = malloc(p.heads * n * sizeof *ref);
    assert_non_null(ref);
    for (h = 0; h < p.heads; h++)
        for (i = 0; i < n; i++)
            reference_row(&ref[h * n + i], &t.head[h], p.m, p.d_v, i);
    for (k = 0; (B = sizes ? sizes[k] : k + 1) != 0 && B <= n; k++) {
        assert_int_equal(as_tiles_run(&tl, &p, &t, B, 1, 0, &err), 0);
        for (h = 0; h < p.heads; h++)
            for (i = 0; i < n; i++) {
                snprintf(what, sizeof what, "input %llu, %zu tokens, blocks of %zu, head %zu",
                         (unsigned long long)which, n, B, h);
                row_agrees(what, &t.head[h], &ref[h * n + i], p.m, p.d_v, i,
                           AS_AT(tl.l[h], i, 0), as_tiles_row(&tl, h, i)->A,
                           &AS_AT(tl.O[h], i, 0), w, g);
            }
        as_tiles_free(&tl);
    }
    free(ref);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

/* The last row of each head of input `which` (n tokens), read through the online steps
 * themselves (as tiles.c reads a row) in blocks of every B from 1 to the row's length.
 * Returns the longest row read. */
static size_t last_rows_agree(uint64_t which, size_t n, worst *w)
{
    static double s[512], v[512 * 8], a[512];
    double acc[8], lo[8], o[8], f;
    size_t pos[512], h, j, count, B, b0, longest = 0;
    const size_t i = n - 1;
    as_input in;
    as_problem p;
    as_trace t;
    as_online st;
    reference r;
    char what[160];

    assert_true(n <= 512);
    build(&in, &p, &t, which, n);
    for (h = 0; h < p.heads; h++) {
        const as_head_trace *ht = &t.head[h];
        reference_row(&r, ht, p.m, p.d_v, i);
        for (j = count = 0; j < p.m; j++)
            if (AS_AT(ht->S, i, j) != -INFINITY) {
                pos[count] = j, s[count] = AS_AT(ht->S, i, j);
                memcpy(v + count++ * p.d_v, &AS_AT(ht->V, j, 0), p.d_v * sizeof *v);
            }
        longest = count > longest ? count : longest;
        for (B = 1; B <= count; B++) {
            double row[512] = {0};
            as_online_start(&st, acc, lo, p.d_v);
            for (b0 = 0; b0 < count; b0 += B)
                as_online_update(&st, &f, NULL, s + b0, v + b0 * p.d_v, count - b0 < B ? count - b0 : B);
            as_online_output(o, &st);
            as_online_shares(a, s, st.m, st.l, count);
            for (j = 0; j < count; j++)
                row[pos[j]] = a[j];
            snprintf(what, sizeof what, "input %llu, %zu tokens, blocks of %zu, head %zu",
                     (unsigned long long)which, n, B, h);
            row_agrees(what, ht, &r, p.m, p.d_v, i, st.l, row, o, w, 2);
        }
    }
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
    return longest;
}

/* Nonzero when long double arithmetic, as it runs, keeps more bits than double: the
 * reference needs them. Checked at run time: valgrind computes x87 arithmetic with 64-bit
 * doubles whatever LDBL_MANT_DIG says. */
static int long_double_is_wider(void)
{
    volatile long double one = 1.0L, tiny = 0x1p-60L;

    return LDBL_MANT_DIG >= 64 && one + tiny != one;
}

/* SPEC §11: the online softmax gives the ordinary softmax's ℓ, shares and output for
 * every block size. Each is within 4 ulp of the reference, for every B: 80 inputs of 1
 * to 16 tokens and 40 of 17 to 48, every B from 1 to n, every row; 4 of 512 tokens
 * through as_tiles_run() with B = 1, 2, 3, 7, 8, 64, 100, 511, 512 (every B for every
 * row would take minutes; under valgrind one input, B = 511 and 512), and the last row
 * of each of their heads -- 512 tokens long in inputs 300 and 302 -- with every B from
 * 1 to 512. The ordinary run's own ℓ and output are up to ~20-30 ulp from the reference
 * at 512 tokens (its sums are plain sums, rounded at every addition), so the tiled
 * run is asked to be apart from it by no more than that distance plus 4. */
static void test_tiles_agree_with_the_softmax_for_every_block_size(void **state)
{
    static const size_t long_sizes[] = {1, 2, 3, 7, 8, 64, 100, 511, 512, 0};
    worst w = {{0}, {0}, {0}};
    as_prng r;
    uint64_t i;
    size_t longest = 0, len;

    (void)state;
    if (!long_double_is_wider()) {
        print_message("long double arithmetic is no wider than double here (valgrind "
                      "computes x87 in 64 bits): no reference to test against\n");
        skip();
    }
    as_prng_seed(&r, 16);
    for (i = 0; i < 80; i++)
        tiles_agree(200 + i, (size_t)as_prng_range(&r, 1, 16), NULL, &w);
    for (i = 0; i < 40; i++)
        tiles_agree(400 + i, (size_t)as_prng_range(&r, 17, 48), NULL, &w);
    for (i = 0; i < (under_valgrind() ? 1u : 4u); i++) {
        tiles_agree(300 + i, 512, under_valgrind() ? long_sizes + 7 : long_sizes, &w);
        len = under_valgrind() ? 0 : last_rows_agree(300 + i, 512, &w);
        longest = len > longest ? len : longest;
    }
    assert_true(under_valgrind() || longest == 512);
    print_message("largest difference in ulp, up to 16 / 48 / 512 tokens: tiles vs reference "
                  "%g / %g / %g; ordinary run vs reference %g / %g / %g; tiles vs ordinary "
                  "%g / %g / %g\n", w.tiles[0], w.tiles[1], w.tiles[2], w.ordinary[0],
                  w.ordinary[1], w.ordinary[2], w.apart[0], w.apart[1], w.apart[2]);
}

/* ---- the command ---- */

static void test_trace_with_tiles_of_one_prints_the_chapters_sum_and_shares(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/f11.txt --tiles 1"), 0);
    assert_golden("tests/golden/f11.trace.tiles1.zh.txt");
    assert_file_contains(CLI_OUT, "读完所有块：ℓ = 1.4930686914（普通softmax的指数之和：1.4930686914）");
    assert_file_contains(CLI_OUT, "份额 e^(s−m)/ℓ：[0.6697615493, 0.3302384507]");
}

static void test_trace_with_tiles_shows_the_rescale_when_the_max_rises(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/tiles.txt --tiles 2 --lang en"), 0);
    assert_golden("tests/golden/tiles.trace.en.txt");
}

static void test_run_with_tiles_adds_the_online_tables(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/tiles.txt --tiles 2"), 0);
    assert_golden("tests/golden/tiles.run.zh.txt");
    assert_int_equal(run("run examples/tiles.txt --tiles 2 --format json"), 0);
    assert_golden("tests/golden/tiles.run.json");
}

static void test_tiles_refuse_what_they_cannot_show(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/f11.txt --tiles 0 --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "--tiles takes a block size, a whole number from 1 to 16384");
    assert_int_equal(run("run examples/f11.txt --tiles 2 --format md --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "--tiles writes only --format text, json or html");
    /* a bad input is refused as without --tiles */
    assert_int_equal(run("trace tests/bad/q-overflows.txt --tiles 2 --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "error: Q[0][0] leaves the range of a double (overflow)\n");
}

/* Each head is read block by block on its own; with Wo the layer's O follows. By hand,
 * examples/two-heads.txt row 2, head 1: scores [1,1,2]/√2, so block 0 gives m = 1/√2,
 * ℓ = 2 and running output v₀ + v₁ = [1,0] + [1,1] = [2,1]; block 1 raises the max to
 * √2: rescale by e^(1/√2 − √2) = e^−0.7071… = 0.4930686914 (the chapter's), then add
 * v₂ = [0,1]: ℓ = 2·0.4930686914 + 1, output [0.9861373828, 1.4930686914]. */
static void test_tiles_walk_each_head_and_then_the_layers_output(void **state)
{
    (void)state;
    assert_int_equal(run("trace examples/two-heads.txt --tiles 2 --row 2 --lang en"), 0);
    assert_file_contains(CLI_OUT, "── head 1 ──\nstart: m = −∞, ℓ = 0, running output = [0,0]\n"
                                  "block 0: positions [我,爱], scaled scores [0.7071067812, "
                                  "0.7071067812]\n");
    assert_file_contains(CLI_OUT, "  m = 0.7071067812, ℓ = 2, running output = [2,1]\n");
    assert_file_contains(CLI_OUT, "rescaled by e^(m_old − m_new) = 0.4930686914\n");
    assert_file_contains(CLI_OUT, "  m = 1.4142135624, ℓ = 1.9861373828, running output = "
                                  "[0.9861373828, 1.4930686914]\n");
    assert_int_equal(run("run examples/two-heads.txt --tiles 2 --lang en"), 0);
    assert_file_contains(CLI_OUT, "ℓ_h1 ≈ [[           1],\n        [1.4930686914],\n"
                                  "        [1.9861373828]]\n");
    assert_file_contains(CLI_OUT, "O₁ ≈ [[           1,            0],\n"
                                  "      [           1, 0.6697615493],\n");
    assert_file_contains(CLI_OUT, "\n\nO ≈ [[           1,            1,            1],\n");
}

/* ---- check grades the online softmax ---- */

#define TILES_OUT "build/tests/online-answers.txt"

/* SPEC §6, §11: run --tiles B prints m, ℓ (and the output read block by block) under
 * names check grades; its output reads back all right, in both languages and ASCII. */
static void test_run_with_tiles_output_reads_back_as_answers_all_right(void **state)
{
    static const char *const ex[] = {"f11", "tiles", "two-heads", "gqa", "alibi", "window", "rope"};
    static const char *const opts[] = {"", "--lang en", "--ascii", "--ascii --lang en"};
    char cmd[256];
    size_t i, k, B;

    (void)state;
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++)
        for (k = 0; k < sizeof opts / sizeof opts[0]; k++)
            for (B = 1; B <= 3; B += 2) {
                snprintf(cmd, sizeof cmd, "run examples/%s.txt --tiles %zu %s -o " TILES_OUT
                         " --force", ex[i], B, opts[k]);
                assert_int_equal(run(cmd), 0);
                snprintf(cmd, sizeof cmd, "check examples/%s.txt " TILES_OUT " --lang en", ex[i]);
                if (run(cmd) != 0) {
                    char *out = slurp(CLI_OUT), *err = slurp(CLI_ERR);
                    print_error("run --tiles %zu %s of %s does not read back:\n%s%s", B, opts[k],
                                ex[i], out ? out : "", err ? err : "");
                    free(out), free(err);
                    fail();
                }
                assert_file_contains(CLI_OUT, "all right: ");
            }
}

/* The chapter's row 1 by hand (tests/data/tiles/f11-tiles1.txt says how): with --tiles 1
 * m₁ = [0.7071067812, 0.7071067812], ℓ₁ = [1, 1.4930686914], f₁ = [0, 1]; with --tiles 2
 * one block: [0.7071067812], [1.4930686914], [0]. Each is wrong under the other B. */
static void test_check_grades_the_chapters_running_max_and_sum_per_block(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/f11.txt tests/data/tiles/f11-tiles1.txt --tiles 1 --lang en"), 0);
    assert_file_contains(CLI_OUT, "ℓ1: right");
    assert_file_contains(CLI_OUT, "m1: right");
    assert_file_contains(CLI_OUT, "f1: right");
    assert_file_contains(CLI_OUT, "ℓ: right");
    /* m, ℓ and the rows m1, ℓ1, f1 are graded, but F11 asks Q, K, V, QKT, S, A, O
     * (SPEC §6, the same maximum for every student): none of those is answered */
    assert_file_contains(CLI_OUT, "score: 0/7");
    assert_file_contains(CLI_OUT, "all right: 5 tables");
    assert_int_equal(run("check examples/f11.txt tests/data/tiles/f11-tiles2.txt --tiles 2 --lang en"), 0);
    assert_file_contains(CLI_OUT, "all right: 3 tables");
    assert_int_equal(run("check examples/f11.txt tests/data/tiles/f11-tiles2.txt --tiles 1 --lang en"), 1);
    assert_file_contains(CLI_OUT, "ℓ1: the shape is [1,1], it should be [1,2]");
    assert_file_contains(CLI_OUT, "Blocks of this row (their size is --tiles): 2;");
    /* without --tiles a row is one block: the --tiles 2 answers hold */
    assert_int_equal(run("check examples/f11.txt tests/data/tiles/f11-tiles2.txt"), 0);
}

/* One wrong cell of the running sum: marked with what was written and what was expected,
 * and the update taught, in both languages (tests/data/tiles/tiles-rescale.txt: the old
 * ℓ added without the rescale, 2.9861373828 for 1.8560586759). */
static void test_a_wrong_running_sum_is_marked_and_taught_in_both_languages(void **state)
{
    (void)state;
    assert_int_equal(run("check examples/tiles.txt tests/data/tiles/tiles-rescale.txt --tiles 2 --lang en"), 1);
    assert_file_contains(CLI_OUT, "m3: right\nℓ3: wrong (1 of 2 cells)\n"
                                  "  ℓ3[1]: written 2.9861373828, expected 1.8560586759\n"
                                  "  ℓ is the running sum: multiply the old ℓ by the rescale factor "
                                  "e^(m_old − m_new), then add e^(s − m_new) for each position of "
                                  "this block;");
    assert_file_contains(CLI_OUT, "f3: right");
    assert_int_equal(run("check examples/tiles.txt tests/data/tiles/tiles-rescale.txt --tiles 2"), 1);
    assert_file_contains(CLI_OUT, "  ℓ3[1]：写的是2.9861373828，应为1.8560586759\n"
                                  "  ℓ是运行总和：先把旧的ℓ乘以缩放系数e^(旧m−新m)，再加上本块每个位置的"
                                  "e^(s−新m)；");
    assert_int_equal(run("check examples/tiles.txt tests/data/tiles/tiles-rescale.txt --tiles 2 --ascii --lang en"), 1);
    assert_file_contains(CLI_OUT, "  l is the running sum: multiply the old l by the rescale factor "
                                  "e^(m_old - m_new)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f11_row_1_in_blocks_of_one_gives_the_chapters_sum_and_shares),
        cmocka_unit_test(test_a_block_that_raises_the_max_rescales_the_sum_and_the_output),
        cmocka_unit_test(test_the_running_output_keeps_what_a_plain_sum_would_round_away),
        cmocka_unit_test(test_a_block_of_forbidden_cells_changes_nothing),
        cmocka_unit_test(test_the_cached_row_kernels_equal_the_plain_steps_bit_for_bit),
        cmocka_unit_test(test_tiles_agree_with_the_softmax_for_every_block_size),
        cmocka_unit_test(test_trace_with_tiles_of_one_prints_the_chapters_sum_and_shares),
        cmocka_unit_test(test_trace_with_tiles_shows_the_rescale_when_the_max_rises),
        cmocka_unit_test(test_run_with_tiles_adds_the_online_tables),
        cmocka_unit_test(test_tiles_refuse_what_they_cannot_show),
        cmocka_unit_test(test_tiles_walk_each_head_and_then_the_layers_output),
        cmocka_unit_test(test_run_with_tiles_output_reads_back_as_answers_all_right),
        cmocka_unit_test(test_check_grades_the_chapters_running_max_and_sum_per_block),
        cmocka_unit_test(test_a_wrong_running_sum_is_marked_and_taught_in_both_languages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
