/* test_kernels.c - the fast products against the plain reference functions of
 * steps.c (as_matmul, as_scores), which test_attention.c checks against the
 * chapter and mpmath: bit for bit (the fast ones add the same products in the same
 * order, each by one fused multiply-add), and so certainly within the 1e-12 relative
 * error asked of them. Shapes: 1x1, odd sizes, sizes that are no multiple of the 6 x 8
 * and 6 x 32 tiles or the 120/256/768 blocks, and products large enough to be split
 * over two threads; each on the baseline, AVX2 and AVX-512 tiles, where there.
 * Then the lean run (`--only O`) against the full run, bit for bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/attention.h"
#include "attnstep/fused.h"
#include "attnstep/kernels.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/render.h"
#include "test_util.h"

/* ------------------------------------------------------------------------------ */
/* Helpers                                                                           */
/* ------------------------------------------------------------------------------ */

/* splitmix64: the same numbers on every run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* count values in [-1, 1), with some exact zeros and negative zeros mixed in. */
static double *random_values(size_t count, uint64_t *seed)
{
    double *v = malloc((count ? count : 1) * sizeof *v);
    size_t i;

    assert_non_null(v);
    for (i = 0; i < count; i++) {
        const uint64_t r = next_random(seed);
        v[i] = (r & 63) == 0 ? ((r >> 6 & 1) ? -0.0 : 0.0) : (double)(int64_t)r * 0x1p-63;
    }
    return v;
}

/* Bit for bit, and (saying so when not) within 1e-12 relative to the larger size. */
static void assert_same_cells(const double *got, const double *want, size_t count,
                              const char *what, size_t n, size_t k, size_t p)
{
    size_t i;

    for (i = 0; i < count; i++) {
        if (memcmp(&got[i], &want[i], sizeof got[i]) == 0)
            continue;
        print_error("%s %zux%zux%zu, simd %d: cell %zu is %.17g, reference %.17g (%s)\n", what,
                    n, k, p, as_kernels_simd(-1), i, got[i], want[i],
                    fabs(got[i] - want[i]) <= 1e-12 * fabs(want[i]) ? "within 1e-12"
                                                                     : "beyond 1e-12");
        fail();
    }
}

/* Shapes n x k x p: tiny, odd, block edges (MR 6, NR 8, MC 120, KC 256, NC 768) and
 * large enough for two threads (n*k*p >= 1e7). */
static const size_t shapes[][3] = {
    {1, 1, 1},     {1, 7, 1},     {2, 3, 2},     {3, 5, 7},     {4, 8, 8},     {5, 9, 17},
    {7, 1, 13},    {13, 300, 9},  {17, 33, 65},  {129, 257, 31}, {31, 513, 769}, {64, 64, 64},
    {257, 300, 140}, {300, 77, 450}, {0, 3, 3},  {3, 0, 3},     {3, 3, 0},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void for_each_simd_level(void (*check)(size_t, size_t, size_t, uint64_t *))
{
    uint64_t seed = 12345;
    int level;
    size_t s;

    for (level = 0; level <= AS_SIMD_BEST; level++) {
        if (as_kernels_simd(level) < level)
            break; /* past what this processor has: already run */
        for (s = 0; s < NSHAPES; s++)
            check(shapes[s][0], shapes[s][1], shapes[s][2], &seed);
    }
    as_kernels_simd(AS_SIMD_BEST);
}

/* ------------------------------------------------------------------------------ */
/* Products                                                                          */
/* ------------------------------------------------------------------------------ */

static void check_matmul(size_t n, size_t k, size_t p, uint64_t *seed)
{
    double *a = random_values(n * k, seed), *b = random_values(k * p, seed);
    double *want = malloc((n * p + 1) * sizeof *want), *got = malloc((n * p + 1) * sizeof *got);

    as_matmul(want, a, b, n, k, p);
    memset(got, 0xff, (n * p + 1) * sizeof *got); /* NaNs: every cell must be written */
    as_matmul_fast(got, a, b, n, k, p);
    assert_same_cells(got, want, n * p, "as_matmul_fast", n, k, p);
    memset(got, 0xff, (n * p + 1) * sizeof *got);
    as_matmul_fast_1(got, a, b, n, k, p);
    assert_same_cells(got, want, n * p, "as_matmul_fast_1", n, k, p);
    free(a), free(b), free(want), free(got);
}

static void check_scores(size_t n, size_t d, size_t m, uint64_t *seed)
{
    double *q = random_values(n * d, seed), *k = random_values(m * d, seed);
    double *want = malloc((n * m + 1) * sizeof *want), *got = malloc((n * m + 1) * sizeof *got);

    as_scores(want, q, k, n, m, d);
    memset(got, 0xff, (n * m + 1) * sizeof *got);
    as_scores_fast(got, q, k, n, m, d);
    assert_same_cells(got, want, n * m, "as_scores_fast", n, d, m);
    memset(got, 0xff, (n * m + 1) * sizeof *got);
    as_scores_fast_1(got, q, k, n, m, d);
    assert_same_cells(got, want, n * m, "as_scores_fast_1", n, d, m);
    free(q), free(k), free(want), free(got);
}

/* as_project_fast with W as given and as its transpose (PyTorch's [out, in]), with and
 * without a bias: as_matmul() then as_add_bias() on W, bit for bit. */
static void check_project(size_t n, size_t k, size_t p, uint64_t *seed)
{
    double *x = random_values(n * k, seed), *w = random_values(k * p, seed);
    double *bias = random_values(p, seed), *wt = malloc((k * p + 1) * sizeof *wt);
    double *want = malloc((n * p + 1) * sizeof *want), *got = malloc((n * p + 1) * sizeof *got);
    int transposed, with_bias;
    size_t i, j;

    for (i = 0; i < k; i++)
        for (j = 0; j < p; j++)
            wt[j * k + i] = w[i * p + j];
    for (with_bias = 0; with_bias <= 1; with_bias++) {
        as_matmul(want, x, w, n, k, p);
        if (with_bias)
            as_add_bias(want, bias, n, p);
        for (transposed = 0; transposed <= 1; transposed++) {
            memset(got, 0xff, (n * p + 1) * sizeof *got);
            as_project_fast(got, x, transposed ? wt : w, transposed, with_bias ? bias : NULL, n,
                            k, p);
            assert_same_cells(got, want, n * p, transposed ? "as_project_fast (Wᵀ)" : "as_project_fast",
                              n, k, p);
        }
    }
    free(x), free(w), free(bias), free(wt), free(want), free(got);
}

/* as_gemm_1 on blocks inside larger tables (3 more columns each, a block 2 columns in):
 * the cells of the block are as_matmul's of the block copied out; the cells around it
 * are left alone. */
static void check_gemm_strided(size_t n, size_t k, size_t p, uint64_t *seed)
{
    const size_t lda = k + 3, ldb = p + 3, ldo = p + 3;
    double *a = random_values(n * lda, seed), *b = random_values(k * ldb, seed);
    double *sa = malloc((n * k + 1) * sizeof *sa), *sb = malloc((k * p + 1) * sizeof *sb);
    double *want = malloc((n * p + 1) * sizeof *want), *got = malloc((n * ldo + 1) * sizeof *got);
    as_gemm_scratch g;
    size_t i, j;

    assert_int_equal(as_gemm_scratch_init(&g), 0);
    for (i = 0; i < n; i++)
        memcpy(sa + i * k, a + i * lda + 2, k * sizeof *sa);
    for (i = 0; i < k; i++)
        memcpy(sb + i * p, b + i * ldb + 2, p * sizeof *sb);
    as_matmul(want, sa, sb, n, k, p);
    for (i = 0; i < n * ldo + 1; i++)
        got[i] = 7.0;
    as_gemm_1(got + 2, ldo, a + 2, lda, b + 2, ldb, n, k, p, &g);
    for (i = 0; i < n; i++) {
        assert_same_cells(got + i * ldo + 2, want + i * p, p, "as_gemm_1", n, k, p);
        for (j = 0; j < ldo; j++)
            if (j < 2 || j >= p + 2)
                assert_true(got[i * ldo + j] == 7.0);
    }
    as_gemm_scratch_free(&g);
    free(a), free(b), free(sa), free(sb), free(want), free(got);
}

/* as_gemm_packed_1 over a slice of a packed table B [k + 5, p + 13] (rows 3 .. k + 2,
 * columns 8 .. p + 7, so neither starts at the table's edge and the last panel is cut),
 * packed from B and from Bᵀ: the cells are as_matmul's of the slice copied out, and
 * the cells of out around them (row stride p + 2) are left alone. */
static void check_gemm_packed(size_t n, size_t k, size_t p, uint64_t *seed)
{
    const size_t rows = k + 5, cols = p + 13, t0 = 3, j0 = AS_GEMM_NR, ldo = p + 2;
    double *a = random_values(n * k, seed), *b = random_values(rows * cols, seed);
    double *bt = malloc(rows * cols * sizeof *bt), *sb = malloc((k * p + 1) * sizeof *sb);
    double *want = malloc((n * p + 1) * sizeof *want), *got = malloc((n * ldo + 1) * sizeof *got);
    as_packed_b pb;
    as_gemm_scratch g;
    size_t i, j;
    int transposed;

    assert_int_equal(as_gemm_scratch_init(&g), 0);
    assert_int_equal(as_packed_b_init(&pb, rows, cols), 0);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            bt[j * rows + i] = b[i * cols + j];
    for (i = 0; i < k; i++)
        memcpy(sb + i * p, b + (t0 + i) * cols + j0, p * sizeof *sb);
    as_matmul(want, a, sb, n, k, p);
    for (transposed = 0; transposed <= 1; transposed++) {
        if (transposed)
            as_pack_b(&pb, bt, rows, rows, cols, 1);
        else
            as_pack_b(&pb, b, cols, rows, cols, 0);
        for (i = 0; i < n * ldo + 1; i++)
            got[i] = 7.0;
        as_gemm_packed_1(got, ldo, a, k, &pb, t0, j0, n, k, p, &g);
        for (i = 0; i < n; i++) {
            assert_same_cells(got + i * ldo, want + i * p, p, "as_gemm_packed_1", n, k, p);
            assert_true(got[i * ldo + p] == 7.0 && got[i * ldo + p + 1] == 7.0);
        }
    }
    as_packed_b_free(&pb);
    as_gemm_scratch_free(&g);
    free(a), free(b), free(bt), free(sb), free(want), free(got);
}

static void test_fast_product_of_a_small_example_is_the_hand_result(void **state)
{
    /* by hand: [1,2,3] @ [[1,0],[0,1],[1,1]] = [4,5]; [0,1,-1] @ ... = [-1,0] */
    static const double a[] = {1, 2, 3, 0, 1, -1}, b[] = {1, 0, 0, 1, 1, 1};
    double out[4];
    int level;

    (void)state;
    for (level = 0; level <= AS_SIMD_BEST; level++) {
        if (as_kernels_simd(level) < level)
            break; /* past what this processor has: already run */
        as_matmul_fast(out, a, b, 2, 3, 2);
        assert_close(out[0], 4, 0);
        assert_close(out[1], 5, 0);
        assert_close(out[2], -1, 0);
        assert_close(out[3], 0, 0);
    }
    as_kernels_simd(AS_SIMD_BEST);
}

/* Each term of a sum is added by one fused multiply-add, the product not rounded on its
 * own. By hand: every cell is 1 x -(1 + 2^-29) + (1 + 2^-30)^2 = -(1 + 2^-29) + 1 + 2^-29
 * + 2^-60 = 2^-60, which a double holds exactly; a product rounded before its add would
 * lose the 2^-60 (below half an ulp of 1) and give 0. The rest of the depth is zeros.
 * 12 x 64 x 40 runs through the tiles: a 32-column one and an 8-column one a row band;
 * then the plain loops, and the scores (the same table read as kᵀ). */
static void assert_all_are(const double *v, size_t count, double want)
{
    size_t i;

    for (i = 0; i < count; i++)
        assert_true(v[i] == want);
}

static void test_each_term_is_added_with_one_rounding(void **state)
{
    enum { N = 12, K = 64, P = 40 };
    static double a[N * K], b[K * P], bt[P * K], out[N * P];
    const double x = 1 + 0x1p-30, y = -(1 + 0x1p-29);
    size_t i, j;
    int level;

    (void)state;
    for (i = 0; i < N; i++)
        a[i * K] = 1, a[i * K + 1] = x;
    for (j = 0; j < P; j++)
        b[j] = bt[j * K] = y, b[P + j] = bt[j * K + 1] = x;
    for (level = 0; level <= AS_SIMD_BEST; level++) {
        if (as_kernels_simd(level) < level)
            break; /* past what this processor has: already run */
        as_matmul_fast(out, a, b, N, K, P);
        assert_all_are(out, N * P, 0x1p-60);
        as_scores_fast(out, a, bt, N, P, K);
        assert_all_are(out, N * P, 0x1p-60);
    }
    as_kernels_simd(AS_SIMD_BEST);
    as_matmul(out, a, b, N, K, P);
    assert_all_are(out, N * P, 0x1p-60);
    as_scores(out, a, bt, N, P, K);
    assert_all_are(out, N * P, 0x1p-60);
}

static void test_fast_product_equals_the_reference_on_every_shape(void **state)
{
    (void)state;
    for_each_simd_level(check_matmul);
}

static void test_fast_scores_equal_the_reference_on_every_shape(void **state)
{
    (void)state;
    for_each_simd_level(check_scores);
}

static void test_projection_from_either_layout_equals_the_reference_on_every_shape(void **state)
{
    (void)state;
    for_each_simd_level(check_project);
}

static void test_strided_product_equals_the_reference_on_every_shape(void **state)
{
    (void)state;
    for_each_simd_level(check_gemm_strided);
}

static void test_product_over_a_packed_table_equals_the_reference_on_every_shape(void **state)
{
    (void)state;
    for_each_simd_level(check_gemm_packed);
}

static void test_fast_product_keeps_a_large_sum_in_order(void **state)
{
    /* every cell is 1e16 + 1 + 1 + ... (999 ones): in order each 1 is lost to rounding
     * (half an ulp of 1e16, a tie, to even) and the sum stays 1e16; any other order of
     * the additions would keep some of them. 4 x 1000 x 8 runs through the tiles and
     * across the KC = 256 blocks. */
    enum { N = 4, K = 1000, P = 8 };
    static double a[N * K], b[K * P], out[N * P];
    size_t i;

    (void)state;
    for (i = 0; i < N * K; i++)
        a[i] = 1.0;
    for (i = 0; i < K * P; i++)
        b[i] = i < P ? 1e16 : 1.0;
    as_matmul_fast(out, a, b, N, K, P);
    for (i = 0; i < N * P; i++)
        assert_true(out[i] == 1e16);
}

/* ------------------------------------------------------------------------------ */
/* The lean run against the full run                                                 */
/* ------------------------------------------------------------------------------ */

/* Appends NAME = [[...], ...] of rows x cols random values (scaled) to the text. */
static void put_matrix(char **text, size_t *len, size_t *cap, const char *name, size_t rows,
                       size_t cols, double scale, uint64_t *seed)
{
    size_t i, j;

    for (i = 0; i < rows * cols + 1; i++) {
        if (*cap - *len < 64) {
            *cap = *cap * 2 + 4096;
            *text = realloc(*text, *cap);
            assert_non_null(*text);
        }
        if (i == 0) {
            *len += (size_t)snprintf(*text + *len, *cap - *len, "%s = [[", name);
            continue;
        }
        j = (i - 1) % cols;
        *len += (size_t)snprintf(*text + *len, *cap - *len, "%.17g%s",
                                 scale * (double)(int64_t)next_random(seed) * 0x1p-63,
                                 j + 1 < cols ? ", " : (i == rows * cols ? "]]\n" : "], ["));
    }
}

/* Parses text (settings last) into in and p, failing the test on an error. */
static void build_layer(as_input *in, as_problem *p, const char *text, size_t len)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_parse_text(in, text, len, "layer.txt", &err) != 0 ||
        as_problem_build(p, in, AS_MASK_DEFAULT, &err) != 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

/* A self-attention layer of n tokens, width d, with Wo and biases, parsed and built. */
static void make_layer(as_input *in, as_problem *p, size_t n, size_t d, size_t heads,
                       const char *extra)
{
    static const char *const names[] = {"Wq", "Wk", "Wv", "Wo"};
    char *text = NULL;
    size_t len = 0, cap = 0, i;
    uint64_t seed = n * 1000 + d;

    put_matrix(&text, &len, &cap, "X", n, d, 1.0, &seed);
    for (i = 0; i < 4; i++)
        put_matrix(&text, &len, &cap, names[i], d, d, 0.5, &seed);
    put_matrix(&text, &len, &cap, "bq", 1, d, 0.1, &seed);
    put_matrix(&text, &len, &cap, "bo", 1, d, 0.1, &seed);
    text = realloc(text, len + strlen(extra) + 64);
    assert_non_null(text);
    len += (size_t)sprintf(text + len, "heads: %zu\n%s", heads, extra);
    build_layer(in, p, text, len);
    free(text);
}

static void assert_same_table(const as_matrix *got, const as_matrix *want, const char *name)
{
    assert_int_equal(got->rows, want->rows);
    assert_int_equal(got->cols, want->cols);
    if (memcmp(got->v, want->v, got->rows * got->cols * sizeof *got->v) != 0) {
        print_error("%s differs between the lean and the full run\n", name);
        fail();
    }
}

static int empty(const as_matrix *m)
{
    return m->rows == 0 && m->cols == 0 && m->v == NULL;
}

/* Runs p both ways and compares O, C and every head's O; checks the lean contract;
 * frees p and in. */
static void check_runs_agree(as_input *in, as_problem *p, size_t heads)
{
    as_trace full, lean;
    as_error err;
    size_t h;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_attention_run(&full, p, &err), 0);
    assert_int_equal(as_attention_run_lean(&lean, p, &err), 0);
    assert_true(lean.lean && !full.lean);
    assert_same_table(&lean.O, &full.O, "O");
    assert_same_table(&lean.C, &full.C, "C");
    assert_true(empty(&lean.M) && empty(&lean.Q) && empty(&lean.K) && empty(&lean.V));
    assert_int_equal(lean.heads, heads);
    for (h = 0; h < heads; h++) {
        const as_head_trace *l = &lean.head[h];
        assert_same_table(&l->O, &full.head[h].O, "a head's O");
        assert_true(empty(&l->Q) && empty(&l->K) && empty(&l->V) && empty(&l->QKT) &&
                    empty(&l->scaled) && empty(&l->S) && empty(&l->row_max) &&
                    empty(&l->shifted) && empty(&l->exps) && empty(&l->sums) && empty(&l->A));
    }
    as_trace_free(&full);
    as_trace_free(&lean);
    as_problem_free(p);
    as_input_free(in);
}

static void check_lean_equals_full(size_t n, size_t d, size_t heads, const char *extra)
{
    as_input in;
    as_problem p;

    make_layer(&in, &p, n, d, heads, extra);
    check_runs_agree(&in, &p, heads);
}

/* Cross attention (Keys and Values from Xkv, m rows) with kv_heads groups of heads
 * sharing them (SPEC §11): Wk and Wv are [d, kv_heads * d / heads]. */
static void check_lean_equals_full_kv(size_t n, size_t m, size_t d, size_t heads, size_t kv)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    uint64_t seed = n * 7 + m;
    as_input in;
    as_problem p;

    put_matrix(&text, &len, &cap, "X", n, d, 1.0, &seed);
    put_matrix(&text, &len, &cap, "Xkv", m, d, 1.0, &seed);
    put_matrix(&text, &len, &cap, "Wq", d, d, 0.5, &seed);
    put_matrix(&text, &len, &cap, "Wk", d, d / heads * kv, 0.5, &seed);
    put_matrix(&text, &len, &cap, "Wv", d, d / heads * kv, 0.5, &seed);
    put_matrix(&text, &len, &cap, "Wo", d, d, 0.5, &seed);
    text = realloc(text, len + 64);
    assert_non_null(text);
    len += (size_t)sprintf(text + len, "heads: %zu\nkv_heads: %zu\nmask: none\n", heads, kv);
    build_layer(&in, &p, text, len);
    free(text);
    check_runs_agree(&in, &p, heads);
}

/* layout: torch, built lean (as run --only O builds it): the weights' transposes are
 * not made and the products read them as stored; O and C are the bits of the full run
 * on the problem built the usual way (its weights transposed into book layout). */
static void check_lean_build_of_torch_layout(size_t n, size_t d, size_t heads, const char *extra)
{
    static const char *const names[] = {"Wq", "Wk", "Wv", "Wo"};
    char *text = NULL;
    size_t len = 0, cap = 0, i;
    uint64_t seed = n * 31 + d;
    as_input in;
    as_problem full_p, lean_p;
    as_trace full, lean;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    put_matrix(&text, &len, &cap, "X", n, d, 1.0, &seed);
    for (i = 0; i < 4; i++) /* [out, in]: rows d / 2 * 3 wide outputs for Wq, Wk, Wv */
        put_matrix(&text, &len, &cap, names[i], i < 3 ? d / 2 * 3 : d, i < 3 ? d : d / 2 * 3,
                   0.5, &seed);
    put_matrix(&text, &len, &cap, "bk", 1, d / 2 * 3, 0.1, &seed);
    put_matrix(&text, &len, &cap, "bo", 1, d, 0.1, &seed);
    text = realloc(text, len + strlen(extra) + 64);
    assert_non_null(text);
    len += (size_t)sprintf(text + len, "layout: torch\nheads: %zu\n%s", heads, extra);
    assert_int_equal(as_parse_text(&in, text, len, "layer.txt", &err), 0);
    free(text);
    assert_int_equal(as_problem_build(&full_p, &in, AS_MASK_DEFAULT, &err), 0);
    assert_int_equal(as_problem_build_lean(&lean_p, &in, AS_MASK_DEFAULT, &err), 0);
    for (i = 0; i < 4; i++) {
        assert_null(lean_p.own_w[i].v);
        assert_int_equal(lean_p.own_w[i].rows, full_p.own_w[i].rows);
        assert_int_equal(lean_p.own_w[i].cols, full_p.own_w[i].cols);
        assert_ptr_equal(lean_p.Wt[i], &in.mat[AS_WQ + (as_mat_id)i].m);
    }
    assert_int_equal(as_attention_run(&full, &full_p, &err), 0);
    assert_int_equal(as_attention_run_lean(&lean, &lean_p, &err), 0);
    assert_same_table(&lean.O, &full.O, "O");
    assert_same_table(&lean.C, &full.C, "C");
    as_trace_free(&full);
    as_trace_free(&lean);
    as_problem_free(&full_p);
    as_problem_free(&lean_p);
    as_input_free(&in);
}

static void test_lean_build_reads_torch_weights_as_stored_and_gives_the_same_bits(void **state)
{
    (void)state;
    check_lean_build_of_torch_layout(5, 4, 2, "");
    check_lean_build_of_torch_layout(70, 32, 4, "positions: rope\n");
    /* 200 x 160 x 240 per projection: above AS_THREAD_MIN_WORK, on two threads */
    check_lean_build_of_torch_layout(200, 160, 4, "");
}

/* The JSON of a table of more than 65 536 cells is written in pieces of rows, made two
 * at a time on two threads: read back with strtod, its last "O" has O's rows in order,
 * every number the double it was made from, bit for bit. */
static void test_json_of_a_large_output_reads_back_to_its_bits(void **state)
{
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;
    as_render_opts o = {0};
    FILE *f = tmpfile();
    char *text, *at, *end;
    long size;
    size_t i, j;

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    make_layer(&in, &p, 181, 400, 4, ""); /* O: 181 x 400 = 72 400 cells */
    assert_int_equal(as_attention_run_lean(&t, &p, &err), 0);
    o.digits = 4;
    o.only = 1u << AS_T_O;
    assert_non_null(f);
    assert_int_equal(as_render_json(f, &p, &t, &o), 0);
    size = ftell(f);
    rewind(f);
    text = malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    at = strstr(text, "\n  \"O\": [");
    assert_non_null(at);
    at += strlen("\n  \"O\": [");
    for (i = 0; i < t.O.rows; i++) {
        assert_true(*at == '[');
        at++;
        for (j = 0; j < t.O.cols; j++) {
            const double v = strtod(at, &end);
            assert_true(end > at);
            assert_memory_equal(&v, &AS_AT(t.O, i, j), sizeof v);
            at = end;
            assert_true(*at == (j + 1 < t.O.cols ? ',' : ']'));
            at++;
        }
        assert_true(*at == (i + 1 < t.O.rows ? ',' : ']'));
        at++;
    }
    assert_string_equal(at, "\n}\n");
    free(text);
    fclose(f);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_lean_run_gives_the_full_runs_output_bit_for_bit(void **state)
{
    (void)state;
    check_lean_equals_full(1, 3, 1, "");
    check_lean_equals_full(9, 12, 3, "mask: none\n");
    check_lean_equals_full(37, 24, 4, "scale: 0.3\n");
}

static void test_lean_run_on_two_threads_gives_the_same_bits(void **state)
{
    /* 4 heads x 200 x 200 x (40 + 40) multiply-adds: above AS_THREAD_MIN_WORK */
    (void)state;
    check_lean_equals_full(200, 160, 4, "");
}

/* The fused head (fused.h) works on blocks of AS_FUSED_ROWS rows and skips the columns
 * the mask forbids to a whole block: sizes that cross the blocks, each mask and each
 * way of adding positions, and Keys from another sequence. */
static void test_fused_lean_run_gives_the_full_runs_bits_across_blocks(void **state)
{
    (void)state;
    check_lean_equals_full(2 * AS_FUSED_ROWS + 13, 24, 3, "");
    check_lean_equals_full(AS_FUSED_ROWS + 1, 16, 2, "mask: none\n");
    check_lean_equals_full(AS_FUSED_ROWS * 2, 16, 2, "mask: window 5\n");
    check_lean_equals_full(150, 24, 3, "positions: alibi\n");
    check_lean_equals_full(150, 24, 3, "positions: alibi\nmask: none\n");
    check_lean_equals_full(150, 24, 3, "positions: rope\n");
    check_lean_equals_full(150, 24, 3, "positions: sinusoidal\nscale: 0.7\n");
    check_lean_equals_full(150, 24, 6, "mask: window 40\n");
    check_lean_equals_full_kv(AS_FUSED_ROWS + 5, 2 * AS_FUSED_ROWS + 3, 24, 4, 2);
    check_lean_equals_full_kv(70, 33, 16, 2, 1);
}

/* A custom mask with finite values, a row that reads one cell far right and rows whose
 * reach has gaps: every computed cell is still the steps' cell. */
static void test_fused_lean_run_follows_a_custom_mask(void **state)
{
    const size_t n = AS_FUSED_ROWS + 9;
    char *extra = malloc(n * n * 8 + 16), *at = extra;
    size_t i, j;

    (void)state;
    assert_non_null(extra);
    at += sprintf(at, "M = [");
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            const char *cell = i == 3 ? (j == n - 1 ? "0" : "-inf")
                               : (j <= i && (i + j) % 5 != 0) ? ((i * j) % 7 ? "0" : "-1.5")
                               : (j == 0 ? "0" : "-inf");
            at += sprintf(at, "%s%s%s", j ? "" : "[", cell, j + 1 < n ? ", " : "]");
            if (j + 1 == n)
                at += sprintf(at, "%s", i + 1 < n ? ", " : "]\n");
        }
    check_lean_equals_full(n, 16, 2, extra);
    free(extra);
}

/* Scores that may overflow by the fused bound (|q| |k| d near 1e300) but do not: the
 * lean run then goes step by step, still the full run's bits. */
static void test_lean_run_without_the_fused_bound_gives_the_same_bits(void **state)
{
    (void)state;
    check_lean_equals_full(80, 16, 2, "scale: 1e290\n");
}

static void test_lean_run_reports_the_full_runs_error(void **state)
{
    /* row 1 of the custom mask reads nothing: both runs name row 1 the same way */
    as_input in;
    as_problem p;
    as_trace t;
    as_error full_err, lean_err;

    (void)state;
    make_layer(&in, &p, 3, 4, 2, "M = [[0, -inf, -inf], [-inf, -inf, -inf], [0, 0, 0]]\n");
    as_error_init(&full_err, AS_LANG_EN);
    as_error_init(&lean_err, AS_LANG_EN);
    assert_int_equal(as_attention_run(&t, &p, &full_err), -1);
    assert_int_equal(as_attention_run_lean(&t, &p, &lean_err), -1);
    assert_string_equal(lean_err.msg, full_err.msg);
    assert_string_equal(lean_err.hint, full_err.hint);
    assert_non_null(strstr(lean_err.msg, "row 1"));
    assert_true(t.head == NULL && t.heads == 0); /* t is left empty */
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_lean_run_on_two_threads_reports_the_first_failing_head(void **state)
{
    /* only head 1 (on the helper thread) overflows: Q and K of its columns near 1e201,
     * so QKT leaves the double range; the full run names the same cell */
    as_input in;
    as_problem p;
    as_trace t;
    as_error full_err, lean_err;
    size_t i, j;

    (void)state;
    make_layer(&in, &p, 200, 160, 4, "");
    for (i = 0; i < 160; i++)
        for (j = 40; j < 80; j++) {
            AS_AT(in.mat[AS_WQ].m, i, j) = 1e200;
            AS_AT(in.mat[AS_WK].m, i, j) = 1e200;
        }
    as_error_init(&full_err, AS_LANG_EN);
    as_error_init(&lean_err, AS_LANG_EN);
    assert_int_equal(as_attention_run(&t, &p, &full_err), -1);
    assert_int_equal(as_attention_run_lean(&t, &p, &lean_err), -1);
    assert_non_null(strstr(full_err.msg, "QKT"));
    assert_string_equal(lean_err.msg, full_err.msg);
    as_problem_free(&p);
    as_input_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_product_of_a_small_example_is_the_hand_result),
        cmocka_unit_test(test_each_term_is_added_with_one_rounding),
        cmocka_unit_test(test_fast_product_equals_the_reference_on_every_shape),
        cmocka_unit_test(test_fast_scores_equal_the_reference_on_every_shape),
        cmocka_unit_test(test_projection_from_either_layout_equals_the_reference_on_every_shape),
        cmocka_unit_test(test_strided_product_equals_the_reference_on_every_shape),
        cmocka_unit_test(test_product_over_a_packed_table_equals_the_reference_on_every_shape),
        cmocka_unit_test(test_fast_product_keeps_a_large_sum_in_order),
        cmocka_unit_test(test_lean_run_gives_the_full_runs_output_bit_for_bit),
        cmocka_unit_test(test_lean_run_on_two_threads_gives_the_same_bits),
        cmocka_unit_test(test_lean_build_reads_torch_weights_as_stored_and_gives_the_same_bits),
        cmocka_unit_test(test_json_of_a_large_output_reads_back_to_its_bits),
        cmocka_unit_test(test_fused_lean_run_gives_the_full_runs_bits_across_blocks),
        cmocka_unit_test(test_fused_lean_run_follows_a_custom_mask),
        cmocka_unit_test(test_lean_run_without_the_fused_bound_gives_the_same_bits),
        cmocka_unit_test(test_lean_run_reports_the_full_runs_error),
        cmocka_unit_test(test_lean_run_on_two_threads_reports_the_first_failing_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
