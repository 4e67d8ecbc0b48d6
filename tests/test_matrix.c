/* test_matrix.c - the matrix type's own operations. The expected transposes are written
 * by hand (small cases) or follow from the definition cell by cell, out[j][i] = in[i][j],
 * for shapes that cross the 32 x 32 blocks the functions work in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/matrix.h"

/* A rows x cols matrix whose cell (i, j) holds 1000 i + j: every cell tells where it
 * came from. */
static void numbered(as_matrix *m, size_t rows, size_t cols)
{
    size_t i, j;

    assert_int_equal(as_matrix_init(m, rows, cols), 0);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            AS_AT(*m, i, j) = 1000.0 * (double)i + (double)j;
}

/* m is the transpose of numbered(rows, cols). */
static void assert_transposed(const as_matrix *m, size_t rows, size_t cols)
{
    size_t i, j;

    assert_int_equal(m->rows, cols);
    assert_int_equal(m->cols, rows);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            if (AS_AT(*m, j, i) != 1000.0 * (double)i + (double)j)
                fail_msg("cell [%zu][%zu] holds %g", j, i, AS_AT(*m, j, i));
}

static void test_a_small_matrix_transposes_as_written_by_hand(void **state)
{
    static const double want[] = {1, 4, 2, 5, 3, 6}; /* [[1,2,3],[4,5,6]]ᵀ */
    as_matrix m;

    (void)state;
    assert_int_equal(as_matrix_init(&m, 2, 3), 0);
    memcpy(m.v, (const double[]){1, 2, 3, 4, 5, 6}, sizeof want);
    assert_int_equal(as_matrix_transpose(&m), 0);
    assert_int_equal(m.rows, 3);
    assert_int_equal(m.cols, 2);
    assert_memory_equal(m.v, want, sizeof want);
    as_matrix_free(&m);
}

/* A square matrix is transposed where it stands: the same memory afterwards. */
static void test_a_square_matrix_transposes_in_place(void **state)
{
    static const size_t sizes[] = {1, 2, 31, 32, 33, 100};
    size_t k;

    (void)state;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        as_matrix m;
        double *before;
        numbered(&m, sizes[k], sizes[k]);
        before = m.v;
        assert_int_equal(as_matrix_transpose(&m), 0);
        assert_ptr_equal(m.v, before);
        assert_transposed(&m, sizes[k], sizes[k]);
        as_matrix_free(&m);
    }
}

static void test_rectangles_across_the_blocks_transpose_cell_by_cell(void **state)
{
    static const size_t shapes[][2] = {{1, 70}, {70, 1}, {33, 65}, {64, 31}, {100, 7}};
    size_t k;

    (void)state;
    for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        as_matrix m;
        numbered(&m, shapes[k][0], shapes[k][1]);
        assert_int_equal(as_matrix_transpose(&m), 0);
        assert_transposed(&m, shapes[k][0], shapes[k][1]);
        as_matrix_free(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_small_matrix_transposes_as_written_by_hand),
        cmocka_unit_test(test_a_square_matrix_transposes_in_place),
        cmocka_unit_test(test_rectangles_across_the_blocks_transpose_cell_by_cell),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
