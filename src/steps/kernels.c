/* kernels.c - the matrix products of steps.c, fast: the GotoBLAS blocking (panels
 * of a and b packed so that a tile of the output stays in registers while the panels
 * stream from the caches), tiles in plain C for the baseline, in AVX2 with FMA and in
 * AVX-512 (6 x 32: four panels of b at once), picked at run time, and two POSIX threads
 * for large products.
 *
 * Every output cell is a single running sum over t = 0, 1, ..., k-1 in that order,
 * starting from +0, each term added by one fused multiply-add (one rounding), exactly
 * as as_matmul() computes it with C's fma(): the blocking and the vector width change
 * which cells are worked on when, never the order of one cell's terms, so the results
 * are the reference's bit for bit on every path. */
#include "attnstep/kernels.h"
#include "attnstep/matrix.h"
#include "attnstep/steps.h"
#include "attnstep/threads.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MR 6    /* rows of the register tile */
#define NR AS_GEMM_NR /* columns of a packed panel of b, and of the narrow tiles: 8 */
#define WIDE 4  /* panels of b that one AVX-512 tile reads side by side (6 x 32) */
#define KC 256  /* depth of a packed panel: a KC x NR panel of b stays in L1 */
#define MC 120  /* rows of a per packed block (a multiple of MR): MC x KC of a stays in L2 */
#define NC 768  /* columns of b per packed block: KC x NC of b stays in L2/L3 */

#define PACK_B_ROWS 8 /* rows of b packed together */
#define SMALL_WORK 4096.0 /* below this many multiply-adds the plain loop is faster */

/* ------------------------------------------------------------------------------ */
/* The register tiles                                                               */
/* ------------------------------------------------------------------------------ */

/* Packed a is interleaved: step t of a panel holds its MR rows' values side by side,
 * ap[t * MR + r]. Each tile adds, at each step t, one product to each of its sums:
 * s[r][j] = fma(a[r][t], b[t][j], s[r][j]), as in as_matmul(). */

/* The baseline tile (SSE2 on x86-64, which has no fused multiply-add) in plain C, three
 * rows at a time: 24 sums named as scalars, kept in registers. fma() is C's, exact on
 * every machine (glibc picks the instruction where the processor has it). */
#define TILE_LOAD(r, c)                                                                    \
    double s##r##0 = first ? 0.0 : (c)[0], s##r##1 = first ? 0.0 : (c)[1],                \
           s##r##2 = first ? 0.0 : (c)[2], s##r##3 = first ? 0.0 : (c)[3],                \
           s##r##4 = first ? 0.0 : (c)[4], s##r##5 = first ? 0.0 : (c)[5],                \
           s##r##6 = first ? 0.0 : (c)[6], s##r##7 = first ? 0.0 : (c)[7]
#define TILE_ROW(r, x)                                                                     \
    (s##r##0 = fma((x), b0, s##r##0), s##r##1 = fma((x), b1, s##r##1),                    \
     s##r##2 = fma((x), b2, s##r##2), s##r##3 = fma((x), b3, s##r##3),                    \
     s##r##4 = fma((x), b4, s##r##4), s##r##5 = fma((x), b5, s##r##5),                    \
     s##r##6 = fma((x), b6, s##r##6), s##r##7 = fma((x), b7, s##r##7))
#define TILE_STORE(r, c)                                                                   \
    ((c)[0] = s##r##0, (c)[1] = s##r##1, (c)[2] = s##r##2, (c)[3] = s##r##3,             \
     (c)[4] = s##r##4, (c)[5] = s##r##5, (c)[6] = s##r##6, (c)[7] = s##r##7)

/* Rows 0-2 of a tile (ap: the panel's first row; call again with c + 3 ldc, ap + 3
 * for rows 3-5). first: the sums start at +0, as in as_matmul(), and c is only
 * written; else they go on from the values in c. */
static void tile_3_rows(double *restrict c, size_t ldc, const double *restrict ap,
                        const double *restrict bp, size_t kc, int first)
{
    double *c0 = c, *c1 = c + ldc, *c2 = c + 2 * ldc;
    size_t t;
    TILE_LOAD(0, c0);
    TILE_LOAD(1, c1);
    TILE_LOAD(2, c2);

    for (t = 0; t < kc; t++, ap += MR, bp += NR) {
        const double b0 = bp[0], b1 = bp[1], b2 = bp[2], b3 = bp[3];
        const double b4 = bp[4], b5 = bp[5], b6 = bp[6], b7 = bp[7];
        TILE_ROW(0, ap[0]);
        TILE_ROW(1, ap[1]);
        TILE_ROW(2, ap[2]);
    }
    TILE_STORE(0, c0);
    TILE_STORE(1, c1);
    TILE_STORE(2, c2);
}

static void tile(double *c, size_t ldc, const double *ap, const double *bp, size_t kc, int first)
{
    tile_3_rows(c, ldc, ap, bp, kc, first);
    tile_3_rows(c + 3 * ldc, ldc, ap + 3, bp, kc, first);
}

/* x86-64 promises only SSE2; most of its processors have AVX2 and FMA (16 registers of
 * four doubles), chosen at run time: all six rows at once, twelve sums of four, a row
 * of b in two loads and each value of a broadcast from memory. One step per turn of
 * the loop: unrolled by two, gcc -O2 hoists the second step's loads and spills sums to
 * the stack. Newer ones have AVX-512 (32 registers of eight): six rows of four panels,
 * 24 sums of eight, 4 loads of b and 6 broadcasts for 24 multiply-adds a step. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_SIMD_TILES 1
#define AVX_LOAD(r)                                                                        \
    __m256d s##r##0 = first ? _mm256_setzero_pd() : _mm256_loadu_pd(c + (r)*ldc),         \
            s##r##1 = first ? _mm256_setzero_pd() : _mm256_loadu_pd(c + (r)*ldc + 4)
#define AVX_ROW(r)                                                                         \
    do {                                                                                   \
        const __m256d x = _mm256_broadcast_sd(ap + (r));                                   \
        s##r##0 = _mm256_fmadd_pd(x, b0, s##r##0);                                         \
        s##r##1 = _mm256_fmadd_pd(x, b1, s##r##1);                                         \
    } while (0)
#define AVX_STORE(r)                                                                       \
    (_mm256_storeu_pd(c + (r)*ldc, s##r##0), _mm256_storeu_pd(c + (r)*ldc + 4, s##r##1))

__attribute__((target("avx2,fma"))) static void tile_avx2(double *c, size_t ldc,
                                                          const double *ap, const double *bp,
                                                          size_t kc, int first)
{
    size_t t;
    AVX_LOAD(0);
    AVX_LOAD(1);
    AVX_LOAD(2);
    AVX_LOAD(3);
    AVX_LOAD(4);
    AVX_LOAD(5);

    for (t = 0; t < kc; t++, ap += MR, bp += NR) {
        const __m256d b0 = _mm256_loadu_pd(bp), b1 = _mm256_loadu_pd(bp + 4);
        AVX_ROW(0);
        AVX_ROW(1);
        AVX_ROW(2);
        AVX_ROW(3);
        AVX_ROW(4);
        AVX_ROW(5);
    }
    AVX_STORE(0);
    AVX_STORE(1);
    AVX_STORE(2);
    AVX_STORE(3);
    AVX_STORE(4);
    AVX_STORE(5);
}

#define Z_LOAD(r)                                                                          \
    __m512d z##r##0 = first ? _mm512_setzero_pd() : _mm512_loadu_pd(c + (r)*ldc),         \
            z##r##1 = first ? _mm512_setzero_pd() : _mm512_loadu_pd(c + (r)*ldc + 8),     \
            z##r##2 = first ? _mm512_setzero_pd() : _mm512_loadu_pd(c + (r)*ldc + 16),    \
            z##r##3 = first ? _mm512_setzero_pd() : _mm512_loadu_pd(c + (r)*ldc + 24)
#define Z_ROW(r)                                                                           \
    do {                                                                                   \
        const __m512d x = _mm512_set1_pd(ap[r]);                                           \
        z##r##0 = _mm512_fmadd_pd(x, b0, z##r##0);                                         \
        z##r##1 = _mm512_fmadd_pd(x, b1, z##r##1);                                         \
        z##r##2 = _mm512_fmadd_pd(x, b2, z##r##2);                                         \
        z##r##3 = _mm512_fmadd_pd(x, b3, z##r##3);                                         \
    } while (0)
#define Z_STORE(r)                                                                         \
    (_mm512_storeu_pd(c + (r)*ldc, z##r##0), _mm512_storeu_pd(c + (r)*ldc + 8, z##r##1),  \
     _mm512_storeu_pd(c + (r)*ldc + 16, z##r##2), _mm512_storeu_pd(c + (r)*ldc + 24, z##r##3))

/* A 6 x 32 tile: the four panels of b at bp, bp + bstride, bp + 2 bstride, ... */
__attribute__((target("avx512f"))) static void tile_avx512(double *c, size_t ldc,
                                                           const double *ap, const double *bp,
                                                           size_t bstride, size_t kc, int first)
{
    const double *p1 = bp + bstride, *p2 = bp + 2 * bstride, *p3 = bp + 3 * bstride;
    size_t t;
    Z_LOAD(0);
    Z_LOAD(1);
    Z_LOAD(2);
    Z_LOAD(3);
    Z_LOAD(4);
    Z_LOAD(5);

    for (t = 0; t < kc; t++, ap += MR) {
        const __m512d b0 = _mm512_loadu_pd(bp + t * NR), b1 = _mm512_loadu_pd(p1 + t * NR);
        const __m512d b2 = _mm512_loadu_pd(p2 + t * NR), b3 = _mm512_loadu_pd(p3 + t * NR);
        Z_ROW(0);
        Z_ROW(1);
        Z_ROW(2);
        Z_ROW(3);
        Z_ROW(4);
        Z_ROW(5);
    }
    Z_STORE(0);
    Z_STORE(1);
    Z_STORE(2);
    Z_STORE(3);
    Z_STORE(4);
    Z_STORE(5);
}
#else
#define HAVE_SIMD_TILES 0
#endif

/* 2 when tiles run as tile_avx512() (and tile_avx2() at the edges), 1 for tile_avx2(),
 * 0 for tile(); decided once (pthread_once) before any product reads it, so threads
 * never race on it. */
static int simd_level, simd_best;
static pthread_once_t simd_once = PTHREAD_ONCE_INIT;

static void detect_simd(void)
{
#if HAVE_SIMD_TILES
    simd_best = !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") ? 0
                : __builtin_cpu_supports("avx512f")                               ? 2
                                                                                  : 1;
#endif
    simd_level = simd_best;
}

int as_kernels_simd(int level)
{
    pthread_once(&simd_once, detect_simd);
    if (level >= 0)
        simd_level = level < simd_best ? level : simd_best;
    return simd_level;
}

static void full_tile(double *c, size_t ldc, const double *ap, const double *bp, size_t kc,
                      int first)
{
#if HAVE_SIMD_TILES
    if (simd_level)
        tile_avx2(c, ldc, ap, bp, kc, first);
    else
#endif
        tile(c, ldc, ap, bp, kc, first);
}

/* A tile cut by the edge of the output: worked on in a full-size copy. */
static void edge_tile(double *c, size_t ldc, const double *ap, const double *bp, size_t kc,
                      int first, size_t rows, size_t cols)
{
    double tmp[MR * NR] = {0};
    size_t r;

    for (r = 0; !first && r < rows; r++)
        memcpy(tmp + r * NR, c + r * ldc, cols * sizeof *c);
    full_tile(tmp, NR, ap, bp, kc, first);
    for (r = 0; r < rows; r++)
        memcpy(c + r * ldc, tmp + r * NR, cols * sizeof *c);
}

/* ------------------------------------------------------------------------------ */
/* Packing                                                                           */
/* ------------------------------------------------------------------------------ */

static size_t min_size(size_t x, size_t y)
{
    return x < y ? x : y;
}

static size_t round_up(size_t x, size_t unit)
{
    return (x + unit - 1) / unit * unit;
}

/* count rows of src (row stride ld), depth values each, into panels of width rows,
 * interleaved: dst[panel][t][r] = src[(panel * width + r) * ld + t]; rows past the end
 * are zeros (their results are never stored). */
static inline void pack_interleaved(double *dst, const double *src, size_t ld, size_t count,
                                    size_t depth, size_t width)
{
    size_t i0, r, t;

    for (i0 = 0; i0 < count; i0 += width, dst += width * depth)
        for (r = 0; r < width; r++) {
            const double *row = src + (i0 + r) * ld;
            if (i0 + r < count)
                for (t = 0; t < depth; t++)
                    dst[t * width + r] = row[t];
            else
                for (t = 0; t < depth; t++)
                    dst[t * width + r] = 0.0;
        }
}

/* a[rows, kc] (row stride lda) into panels of MR rows, interleaved: ap[panel][t][r]. */
static void pack_a(double *ap, const double *a, size_t lda, size_t rows, size_t kc)
{
    pack_interleaved(ap, a, lda, rows, kc, MR);
}

/* Rows t0 .. t0 + rows - 1 of b[kc, cols] (row stride ldb) into their places in the
 * panels of NR columns: bp[panel][t][j], columns past the end zeros. */
static void pack_b_rows(double *bp, const double *b, size_t ldb, size_t t0, size_t rows,
                        size_t kc, size_t cols)
{
    size_t j0, t, j;

    for (j0 = 0; j0 < cols; j0 += NR, bp += NR * kc)
        for (t = t0; t < t0 + rows; t++) {
            const double *row = b + t * ldb + j0;
            double *dst = bp + t * NR;
            if (cols - j0 >= NR) {
                memcpy(dst, row, NR * sizeof *dst);
                continue;
            }
            for (j = 0; j < cols - j0; j++)
                dst[j] = row[j];
            for (; j < NR; j++)
                dst[j] = 0.0;
        }
}

/* b[kc, cols] (row stride ldb) into panels of NR columns, row by row: bp[panel][t][j].
 * A few rows at a time, so that b is read in order (a panel's rows are ldb apart: one
 * row per page, which the prefetchers do not follow) and each panel written in runs. */
static void pack_b(double *bp, const double *b, size_t ldb, size_t kc, size_t cols)
{
    size_t t0;

    for (t0 = 0; t0 < kc; t0 += PACK_B_ROWS)
        pack_b_rows(bp, b, ldb, t0, min_size(PACK_B_ROWS, kc - t0), kc, cols);
}

/* ------------------------------------------------------------------------------ */
/* The blocked product on one thread                                                 */
/* ------------------------------------------------------------------------------ */

/* out[mc, nc] (stride ldc) += the packed blocks (first: = them, the sums starting at
 * +0): every tile of the block. The panels of b are bstride apart. */
static void block(double *out, size_t ldc, const double *ap, const double *bp, size_t bstride,
                  size_t mc, size_t nc, size_t kc, int first)
{
    size_t i0, j0, step;

    for (j0 = 0; j0 < nc; j0 += step) {
        const double *b_panel = bp + j0 / NR * bstride;
        step = simd_level == 2 && nc - j0 >= WIDE * NR ? WIDE * NR : NR;
        for (i0 = 0; i0 < mc; i0 += MR) {
            double *c = out + i0 * ldc + j0;
            const double *a_panel = ap + i0 * kc;
            size_t q;
#if HAVE_SIMD_TILES
            if (step > NR && mc - i0 >= MR) {
                tile_avx512(c, ldc, a_panel, b_panel, bstride, kc, first);
                continue;
            }
#endif
            for (q = 0; q < step; q += NR) /* one panel at a time */
                if (mc - i0 >= MR && nc - j0 - q >= NR)
                    full_tile(c + q, ldc, a_panel, b_panel + q / NR * bstride, kc, first);
                else
                    edge_tile(c + q, ldc, a_panel, b_panel + q / NR * bstride, kc, first,
                              min_size(MR, mc - i0), min_size(NR, nc - j0 - q));
        }
    }
}

/* One depth slice of kc terms: out[n, nc] (stride ldo) += a[n, kc] (stride lda) @ the
 * packed panels bp (bstride apart), a packed MC rows at a time into ap; first: the
 * slice is the first, whose sums start at +0. */
static void slice(double *out, size_t ldo, const double *a, size_t lda, const double *bp,
                  size_t bstride, size_t n, size_t kc, size_t nc, double *ap, int first)
{
    size_t ic;

    for (ic = 0; ic < n; ic += MC) {
        const size_t mc = min_size(MC, n - ic);
        pack_a(ap, a + ic * lda, lda, mc, kc);
        block(out + ic * ldo, ldo, ap, bp, bstride, mc, nc, kc, first);
    }
}

/* A product of no terms: every sum is its start, +0. */
static void zeros(double *out, size_t ldo, size_t n, size_t p)
{
    size_t i;

    for (i = 0; i < n; i++)
        memset(out + i * ldo, 0, p * sizeof *out);
}

/* The right-hand table of a product: b[k,p] with row stride ld, or (transposed) given as
 * its transpose bt[p,k] with row stride ld, as PyTorch stores a weight ([out, in]). */
typedef struct right {
    const double *v;
    size_t ld;
    int transposed;
} right;

/* Rows pc .. pc + kc - 1 and columns jc .. jc + nc - 1 of b into the panels bp. */
static void pack_right(double *bp, const right *b, size_t pc, size_t kc, size_t jc, size_t nc)
{
    if (b->transposed)
        pack_interleaved(bp, b->v + jc * b->ld + pc, b->ld, nc, kc, NR);
    else
        pack_b(bp, b->v + pc * b->ld + jc, b->ld, kc, nc);
}

/* out[n,p] (row stride ldo) = a[n,k] (stride lda) @ b with scratch ap (MC x KC) and bp
 * (KC x NC, rounded up). Every sum starts at +0, as in as_matmul(). */
static void blocked(double *out, size_t ldo, const double *a, size_t lda, const right *b,
                    size_t n, size_t k, size_t p, double *ap, double *bp)
{
    size_t jc, pc;

    if (k == 0)
        zeros(out, ldo, n, p);
    for (jc = 0; jc < p; jc += NC) {
        const size_t nc = min_size(NC, p - jc);
        /* one depth slice of KC terms at a time; each cell's running sum waits in out
         * between slices (the first starts it at +0 in the registers) */
        for (pc = 0; pc < k; pc += KC) {
            const size_t kc = min_size(KC, k - pc);
            pack_right(bp, b, pc, kc, jc, nc);
            slice(out + jc, ldo, a + pc, lda, bp, NR * kc, n, kc, nc, ap, pc == 0);
        }
    }
}

/* ------------------------------------------------------------------------------ */
/* Packing space kept between products                                              */
/* ------------------------------------------------------------------------------ */

/* Two sets of packing space (one for each thread of a product), kept for the life of
 * the program: a new 1.5 MB block for every product was fresh pages every time (a
 * quarter of the page faults of a run at 512 tokens). A product takes a free set, or
 * allocates its own when both are taken (a third caller). */
static struct kept {
    atomic_flag taken;
    as_gemm_scratch s;
} kept[2] = {{ATOMIC_FLAG_INIT, {NULL, NULL}}, {ATOMIC_FLAG_INIT, {NULL, NULL}}};

/* Packing space for one product: a kept set (*k its index) or, when none is free or
 * it cannot be made, a new one (*k = -1). 0, or -1 when out of memory. */
static int scratch_take(as_gemm_scratch *s, int *k)
{
    int i;

    for (i = 0; i < 2; i++) {
        if (atomic_flag_test_and_set(&kept[i].taken))
            continue;
        if (kept[i].s.ap != NULL || as_gemm_scratch_init(&kept[i].s) == 0) {
            *s = kept[i].s;
            *k = i;
            return 0;
        }
        atomic_flag_clear(&kept[i].taken);
        break;
    }
    *k = -1;
    return as_gemm_scratch_init(s);
}

static void scratch_give(as_gemm_scratch *s, int k)
{
    if (k >= 0)
        atomic_flag_clear(&kept[k].taken);
    else
        as_gemm_scratch_free(s);
}

/* ------------------------------------------------------------------------------ */
/* Products over a table packed once                                                 */
/* ------------------------------------------------------------------------------ */

int as_packed_b_init(as_packed_b *pb, size_t rows, size_t cols)
{
    const size_t cells = rows * round_up(cols, NR);

    pthread_once(&simd_once, detect_simd);
    pb->v = malloc((cells > 0 ? cells : 1) * sizeof *pb->v);
    pb->rows = pb->cols = 0;
    pb->room = pb->v != NULL ? cells : 0;
    return pb->v != NULL ? 0 : -1;
}

void as_packed_b_free(as_packed_b *pb)
{
    free(pb->v);
    *pb = (as_packed_b){NULL, 0, 0, 0};
}

/* bt[cols, rows] (row stride ldb) into panels of NR columns of its transpose, each
 * rows deep: bp[panel][t][j] = bt[panel * NR + j][t]; columns past the end zeros. */
static void pack_bt(double *bp, const double *bt, size_t ldb, size_t rows, size_t cols)
{
    pack_interleaved(bp, bt, ldb, cols, rows, NR);
}

void as_pack_b(as_packed_b *pb, const double *b, size_t ldb, size_t rows, size_t cols,
               int transposed)
{
    if (transposed)
        pack_bt(pb->v, b, ldb, rows, cols);
    else
        pack_b(pb->v, b, ldb, rows, cols);
    pb->rows = rows;
    pb->cols = cols;
}

void as_gemm_packed_1(double *out, size_t ldo, const double *a, size_t lda, const as_packed_b *pb,
                      size_t t0, size_t j0, size_t n, size_t k, size_t p, as_gemm_scratch *s)
{
    const double *panels = pb->v + j0 * pb->rows + t0 * NR; /* j0 / NR panels in, row t0 */
    size_t pc;

    if (k == 0)
        zeros(out, ldo, n, p);
    for (pc = 0; pc < k; pc += KC)
        slice(out, ldo, a + pc, lda, panels + pc * NR, NR * pb->rows, n, min_size(KC, k - pc),
              p, s->ap, pc == 0);
}

int as_gemm_scratch_init(as_gemm_scratch *s)
{
    pthread_once(&simd_once, detect_simd);
    s->ap = malloc((size_t)MC * KC * sizeof *s->ap);
    s->bp = malloc((size_t)KC * NC * sizeof *s->bp);
    if (s->ap != NULL && s->bp != NULL)
        return 0;
    as_gemm_scratch_free(s);
    return -1;
}

void as_gemm_scratch_free(as_gemm_scratch *s)
{
    free(s->ap);
    free(s->bp);
    s->ap = s->bp = NULL;
}

void as_gemm_1(double *out, size_t ldo, const double *a, size_t lda, const double *b, size_t ldb,
               size_t n, size_t k, size_t p, as_gemm_scratch *s)
{
    const right r = {b, ldb, 0};

    blocked(out, ldo, a, lda, &r, n, k, p, s->ap, s->bp);
}

/* out[n,p] = a[n,k] @ b on this thread, then + bias (when given) row by row. */
static void product_1(double *out, const double *a, const right *b, const double *bias,
                      size_t n, size_t k, size_t p)
{
    as_gemm_scratch s;
    int kept_at;

    pthread_once(&simd_once, detect_simd);
    if ((double)n * (double)k * (double)p < SMALL_WORK || scratch_take(&s, &kept_at) != 0) {
        /* the plain loops: the same sums, no scratch needed (a @ btᵀ is as_scores()) */
        if (b->transposed)
            as_scores(out, a, b->v, n, p, k);
        else
            as_matmul(out, a, b->v, n, k, p);
    } else {
        blocked(out, p, a, k, b, n, k, p, s.ap, s.bp);
        scratch_give(&s, kept_at);
    }
    if (bias != NULL)
        as_add_bias(out, bias, n, p);
}

void as_matmul_fast_1(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    const right r = {b, p, 0};

    product_1(out, a, &r, NULL, n, k, p);
}

/* ------------------------------------------------------------------------------ */
/* Two threads: each takes a band of rows                                            */
/* ------------------------------------------------------------------------------ */

typedef struct band {
    double *out;
    const double *a, *bias;
    const right *b;
    size_t n, k, p;
} band;

static void run_band(void *arg)
{
    const band *w = arg;

    product_1(w->out, w->a, w->b, w->bias, w->n, w->k, w->p);
}

/* ------------------------------------------------------------------------------ */
/* Two threads over one packed table                                                 */
/* ------------------------------------------------------------------------------ */

/* A product on two threads packs b once, the two threads taking groups of panels in
 * turn, and then works through a in blocks of rows, each thread taking the next block
 * as it comes free: this machine's two cores often run at different speeds, and halves
 * fixed in advance left the faster one waiting (a 256-row half took 8 ms on one core and
 * 13 on the other). The packed table is kept for the next product, up to SHARED_CELLS
 * cells; a larger b, or a second product at the same time, goes by halves of the rows,
 * each thread packing b for itself. */
#define SHARED_CELLS ((size_t)1 << 21) /* 16 MB */
#define ROW_BLOCKS 8 /* blocks of rows at least (for the threads to even out), of MR to MC */
#define PANEL_GROUP 8                  /* panels of b packed in a piece of work */

static struct {
    atomic_flag taken;
    as_packed_b pb;
} shared_b = {ATOMIC_FLAG_INIT, {NULL, 0, 0, 0}};

typedef struct shared_job {
    double *out;
    const double *a, *bias;
    const right *b;
    size_t n, k, p;
    size_t rows; /* of a block of work */
    as_packed_b *pb;
    as_gemm_scratch s[2]; /* each thread's packing space for a */
} shared_job;

/* Panels g * PANEL_GROUP .. of b into the shared table, each all k rows deep. */
static void pack_group(void *arg, size_t g, int thread)
{
    const shared_job *j = arg;
    const size_t j0 = g * PANEL_GROUP * NR, cols = min_size(PANEL_GROUP * NR, j->p - j0);
    double *dst = j->pb->v + j0 * j->k; /* panel j0 / NR, NR x k cells each */

    (void)thread;
    if (j->b->transposed)
        pack_interleaved(dst, j->b->v + j0 * j->b->ld, j->b->ld, cols, j->k, NR);
    else
        pack_b(dst, j->b->v + j0, j->b->ld, j->k, cols);
}

/* Rows blk * ROW_BLOCK .. of out: a's rows times the packed table, then + bias. */
static void row_block(void *arg, size_t blk, int thread)
{
    shared_job *j = arg;
    const size_t i0 = blk * j->rows, rows = min_size(j->rows, j->n - i0);

    as_gemm_packed_1(j->out + i0 * j->p, j->p, j->a + i0 * j->k, j->k, j->pb, 0, 0, rows, j->k,
                     j->p, &j->s[thread]);
    if (j->bias != NULL)
        as_add_bias(j->out + i0 * j->p, j->bias, rows, j->p);
}

/* out = a @ b (+ bias) on two threads over the shared packed table; -1 (nothing done)
 * when it is taken, b is too large for it, or memory runs short. */
static int shared_product(double *out, const double *a, const right *b, const double *bias,
                          size_t n, size_t k, size_t p)
{
    const size_t cells = k * round_up(p, NR), panels = (p + NR - 1) / NR;
    const size_t rows = min_size(MC, round_up((n + ROW_BLOCKS - 1) / ROW_BLOCKS, MR));
    shared_job j = {out, a, bias, b, n, k, p, rows, &shared_b.pb, {{NULL, NULL}, {NULL, NULL}}};
    int kept_at[2] = {-1, -1}, rc = -1;

    if (cells > SHARED_CELLS || atomic_flag_test_and_set(&shared_b.taken))
        return -1;
    if (shared_b.pb.room < cells) {
        as_packed_b_free(&shared_b.pb);
        if (as_packed_b_init(&shared_b.pb, k, p) != 0)
            goto done;
    }
    if (scratch_take(&j.s[0], &kept_at[0]) != 0)
        goto done;
    if (scratch_take(&j.s[1], &kept_at[1]) != 0) {
        scratch_give(&j.s[0], kept_at[0]);
        goto done;
    }
    shared_b.pb.rows = k;
    shared_b.pb.cols = p;
    as_two_threads_each((panels + PANEL_GROUP - 1) / PANEL_GROUP, pack_group, &j);
    as_two_threads_each((n + rows - 1) / rows, row_block, &j);
    scratch_give(&j.s[0], kept_at[0]);
    scratch_give(&j.s[1], kept_at[1]);
    rc = 0;
done:
    atomic_flag_clear(&shared_b.taken);
    return rc;
}

/* out = a @ b (+ bias), on two threads when there is enough work. */
static void product(double *out, const double *a, const right *b, const double *bias, size_t n,
                    size_t k, size_t p)
{
    band top, bottom;
    size_t half;

    if ((double)n * (double)k * (double)p < AS_THREAD_MIN_WORK || n < 2 * MR) {
        product_1(out, a, b, bias, n, k, p);
        return;
    }
    if (shared_product(out, a, b, bias, n, k, p) == 0)
        return;
    half = round_up(n / 2, MR);
    top = (band){out, a, bias, b, half, k, p};
    bottom = (band){out + half * p, a + half * k, bias, b, n - half, k, p};
    as_two_threads(run_band, &top, run_band, &bottom);
}

void as_matmul_fast(double *out, const double *a, const double *b, size_t n, size_t k, size_t p)
{
    const right r = {b, p, 0};

    product(out, a, &r, NULL, n, k, p);
}

void as_project_fast(double *out, const double *x, const double *w, int transposed,
                     const double *bias, size_t n, size_t k, size_t p)
{
    const right r = {w, transposed ? k : p, transposed};

    product(out, x, &r, bias, n, k, p);
}

/* ------------------------------------------------------------------------------ */
/* Scores                                                                            */
/* ------------------------------------------------------------------------------ */

/* q @ kᵀ: k[m,d] is the transpose of the right-hand table, packed straight from where
 * it is stored; each cell the same sum over t in the same order as as_scores(). */
void as_scores_fast(double *out, const double *q, const double *k, size_t n, size_t m, size_t d)
{
    const right r = {k, d, 1};

    product(out, q, &r, NULL, n, d, m);
}

void as_scores_fast_1(double *out, const double *q, const double *k, size_t n, size_t m,
                      size_t d)
{
    const right r = {k, d, 1};

    product_1(out, q, &r, NULL, n, d, m);
}
