/* matrix.h - a dense row-major table of doubles with its shape. */
#ifndef ATTNSTEP_MATRIX_H
#define ATTNSTEP_MATRIX_H

#include <stddef.h>

/* Limits (SPEC §10): checked before any allocation. */
#define AS_MAX_DIM 16384u             /* rows or columns of one table */
#define AS_MAX_CELLS (1u << 26)       /* cells of one table */

typedef struct as_matrix {
    size_t rows, cols;
    double *v; /* rows*cols values, row-major; NULL when empty */
} as_matrix;

#define AS_AT(m, i, j) ((m).v[(size_t)(i) * (m).cols + (size_t)(j)])

/* Nonzero when rows x cols stays within AS_MAX_DIM and AS_MAX_CELLS. */
int as_shape_ok(size_t rows, size_t cols);

/* Allocates a zero-filled rows x cols matrix into m. Returns 0, or -1 when the shape
 * is over the limits or memory runs out (m is then empty). Free with as_matrix_free(). */
int as_matrix_init(as_matrix *m, size_t rows, size_t cols);

/* Frees m's values and leaves it empty; safe on an empty matrix. */
void as_matrix_free(as_matrix *m);

/* Copies src into a new matrix dst. Returns 0 or -1 (out of memory). */
int as_matrix_copy(as_matrix *dst, const as_matrix *src);

/* A new matrix dst = srcᵀ, in one pass (no copy first). Returns 0 or -1 (out of
 * memory). */
int as_matrix_transposed(as_matrix *dst, const as_matrix *src);

/* Replaces m by its transpose. Returns 0 or -1 (out of memory; m unchanged). */
int as_matrix_transpose(as_matrix *m);

/* out[cols, rows] = in[rows, cols]ᵀ (out and in apart), in square blocks so that both
 * sides stay in the cache. */
void as_transpose(double *out, const double *in, size_t rows, size_t cols);


#endif
