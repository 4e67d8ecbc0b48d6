/* kernels.h - fast versions of the matrix products in steps.h, for real model
 * sizes. Each gives bit for bit what its plain reference gives (as_matmul, as_scores):
 * every output cell is summed over the same terms in the same order, each term added by
 * one fused multiply-add, as the reference does with fma(); only the order in which the
 * cells are visited differs. */
#ifndef ATTNSTEP_KERNELS_H
#define ATTNSTEP_KERNELS_H

#include <stddef.h>

/* Below this many multiply-adds a product runs on one thread: starting a second one
 * would cost more than it saves. */
#define AS_THREAD_MIN_WORK 10000000.0

/* out[n,p] = a[n,k] @ b[k,p], row-major, as as_matmul(): blocked for the caches, tiles
 * the compiler vectorises, and the rows split over two POSIX threads when n*k*p is at
 * least AS_THREAD_MIN_WORK. out must not overlap a or b. Needs scratch memory; when
 * none can be had it falls back to as_matmul() (same result, slower). */
void as_matmul_fast(double *out, const double *a, const double *b, size_t n, size_t k, size_t p);

/* out[n,p] = x[n,k] @ W (+ bias[p] on each row when bias is not NULL), as as_matmul()
 * then as_add_bias(), bit for bit; threads as as_matmul_fast(), each adding the bias to
 * its own rows. W is w[k,p]; or, transposed, w holds Wᵀ [p,k] as PyTorch stores a
 * weight ([out, in]), packed straight from there (no transposed copy is made). */
void as_project_fast(double *out, const double *x, const double *w, int transposed,
                     const double *bias, size_t n, size_t k, size_t p);

/* As as_matmul_fast(), but always on the calling thread (for callers that run several
 * products on threads of their own). */
void as_matmul_fast_1(double *out, const double *a, const double *b, size_t n, size_t k,
                      size_t p);

/* out[n,m] = q[n,d] @ k[m,d]ᵀ, as as_scores(): k is packed for the product straight
 * from where it is stored (no transposed copy). Threads as as_matmul_fast(). */
void as_scores_fast(double *out, const double *q, const double *k, size_t n, size_t m, size_t d);

/* As as_scores_fast(), always on the calling thread. */
void as_scores_fast_1(double *out, const double *q, const double *k, size_t n, size_t m,
                      size_t d);

/* Packing space for as_gemm_1(), kept by a caller that runs many products. */
typedef struct as_gemm_scratch {
    double *ap, *bp;
} as_gemm_scratch;

/* Allocates s (about 1.8 MB); 0, or -1 (s empty) when out of memory. */
int as_gemm_scratch_init(as_gemm_scratch *s);

/* Frees s and leaves it empty (freeing an empty one is fine). */
void as_gemm_scratch_free(as_gemm_scratch *s);

/* out[n,p] = a[n,k] @ b[k,p] as as_matmul_fast_1(), on the calling thread, with row
 * strides: row i of out starts at out + i*ldo, of a at a + i*lda, row t of b at b +
 * t*ldb (so a block of columns of a larger table can be read or written in place).
 * Each cell the same sum in the same order as as_matmul(). out must not overlap a or
 * b; s from as_gemm_scratch_init(). */
void as_gemm_1(double *out, size_t ldo, const double *a, size_t lda, const double *b, size_t ldb,
               size_t n, size_t k, size_t p, as_gemm_scratch *s);

/* Columns of one panel of a packed table: a product over a slice of one starts at a
 * column that is a multiple of this. */
#define AS_GEMM_NR 8

/* A table b[rows, cols] packed once for many products over slices of it (the Keys and
 * Values of one head, read by every block of its rows): panels of AS_GEMM_NR columns,
 * each all rows deep. */
typedef struct as_packed_b {
    double *v;
    size_t rows, cols; /* of the table packed last */
    size_t room;       /* doubles that v holds */
} as_packed_b;

/* Room for tables of up to rows x cols; 0, or -1 when out of memory (pb empty). */
int as_packed_b_init(as_packed_b *pb, size_t rows, size_t cols);

/* Frees pb and leaves it empty (freeing an empty one is fine). */
void as_packed_b_free(as_packed_b *pb);

/* Packs b[rows, cols] (row stride ldb) into pb, which must have room for it; with
 * transposed, b holds the table's transpose, [cols, rows] with row stride ldb (so q @
 * kᵀ reads k as it is stored). */
void as_pack_b(as_packed_b *pb, const double *b, size_t ldb, size_t rows, size_t cols,
               int transposed);

/* out[n,p] (row stride ldo) = a[n,k] (row stride lda) @ B[t0 .. t0+k-1, j0 .. j0+p-1],
 * B the table packed in pb: each cell the same sum in the same order as as_matmul() of
 * those slices. j0 is a multiple of AS_GEMM_NR, t0 + k <= pb->rows, j0 + p <= pb->cols;
 * out must not overlap a or pb; s from as_gemm_scratch_init(). */
void as_gemm_packed_1(double *out, size_t ldo, const double *a, size_t lda, const as_packed_b *pb,
                      size_t t0, size_t j0, size_t n, size_t k, size_t p, as_gemm_scratch *s);

/* The vector instructions the products use: returns 2 when they run on AVX-512 (and
 * AVX2 at the edges), 1 on AVX2 with FMA, 0 on the baseline (SSE2 on x86-64, C's fma());
 * each chosen at run time where the processor has it. level 0..AS_SIMD_BEST uses at most
 * that level (as far as the processor goes), -1 only asks. The results are the same bits
 * on every level; this is for tests and benchmarks. Not to be called while a product
 * runs on another thread. */
#define AS_SIMD_BEST 2
int as_kernels_simd(int level);

#endif
