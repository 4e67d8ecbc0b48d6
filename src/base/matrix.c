/* matrix.c - allocation and shape checks for as_matrix. */
#include "attnstep/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int as_shape_ok(size_t rows, size_t cols)
{
    if (rows > AS_MAX_DIM || cols > AS_MAX_DIM)
        return 0;
    /* both factors are at most 2^14, so the product cannot overflow size_t */
    return rows * cols <= AS_MAX_CELLS;
}

int as_matrix_init(as_matrix *m, size_t rows, size_t cols)
{
    m->rows = m->cols = 0;
    m->v = NULL;
    if (!as_shape_ok(rows, cols))
        return -1;
    if (rows * cols > 0) {
        m->v = calloc(rows * cols, sizeof *m->v);
        if (m->v == NULL)
            return -1;
    }
    m->rows = rows;
    m->cols = cols;
    return 0;
}

void as_matrix_free(as_matrix *m)
{
    free(m->v);
    m->v = NULL;
    m->rows = m->cols = 0;
}

int as_matrix_copy(as_matrix *dst, const as_matrix *src)
{
    if (as_matrix_init(dst, src->rows, src->cols) != 0)
        return -1;
    if (src->rows * src->cols > 0)
        memcpy(dst->v, src->v, src->rows * src->cols * sizeof *dst->v);
    return 0;
}

void as_transpose(double *out, const double *in, size_t rows, size_t cols)
{
    size_t i0, j0, i, j;

    for (i0 = 0; i0 < rows; i0 += 32)
        for (j0 = 0; j0 < cols; j0 += 32)
            for (i = i0; i < i0 + 32 && i < rows; i++)
                for (j = j0; j < j0 + 32 && j < cols; j++)
                    out[j * rows + i] = in[i * cols + j];
}

/* A square m transposed where it stands (no new memory to fault in): the cells above the
 * diagonal swapped with their mirror images, in blocks as above. */
static void transpose_square(as_matrix *m)
{
    const size_t n = m->rows;
    size_t i0, j0, i, j;

    for (i0 = 0; i0 < n; i0 += 32)
        for (j0 = i0; j0 < n; j0 += 32)
            for (i = i0; i < i0 + 32 && i < n; i++)
                for (j = j0 > i ? j0 : i + 1; j < j0 + 32 && j < n; j++) {
                    const double x = m->v[i * n + j];
                    m->v[i * n + j] = m->v[j * n + i];
                    m->v[j * n + i] = x;
                }
}

int as_matrix_transposed(as_matrix *dst, const as_matrix *src)
{
    if (as_matrix_init(dst, src->cols, src->rows) != 0)
        return -1;
    as_transpose(dst->v, src->v, src->rows, src->cols);
    return 0;
}

int as_matrix_transpose(as_matrix *m)
{
    as_matrix t;

    if (m->rows == m->cols) {
        transpose_square(m);
        return 0;
    }
    if (as_matrix_transposed(&t, m) != 0)
        return -1;
    as_matrix_free(m);
    *m = t;
    return 0;
}
