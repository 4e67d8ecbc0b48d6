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

int as_matrix_transpose(as_matrix *m)
{
    as_matrix t;
    size_t i, j;

    if (as_matrix_init(&t, m->cols, m->rows) != 0)
        return -1;
    for (i = 0; i < m->rows; i++)
        for (j = 0; j < m->cols; j++)
            AS_AT(t, j, i) = AS_AT(*m, i, j);
    as_matrix_free(m);
    *m = t;
    return 0;
}

int as_matrix_all_finite(const as_matrix *m)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (!isfinite(m->v[i]))
            return 0;
    return 1;
}
