/* test_textblock.c - the book's bracketed table of a large matrix reads as that of a
 * small one: a 100 x 100 matrix whose upper half repeats row 0 of a 2 x 100 one and whose
 * lower half repeats its row 1 has the same column widths, separators and "rounded"
 * (each decided by both halves: row 0 is whole and exact, row 1 has the widest and the
 * rounded cells), so each of its lines is the small one's line of that row but for the
 * brackets of the first and last rows. A large table is laid out on two threads and its
 * cells kept between measuring and writing (in 24 bytes: a longer text, or a column
 * wider than 24, is formatted again), a small one formatted twice on one: checked in
 * colour (dimmed -inf), plain, in ASCII, and at 17 places with cells of 25 characters.
 * The cells themselves are checked against printf by test_numfmt.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/matrix.h"
#include "attnstep/prng.h"
#include "attnstep/textblock.h"

#define COLS 100
#define BIG_ROWS 100

/* Fills the 2 x COLS matrix: row 0 whole numbers and -inf, row 1 wider decimals (up to
 * scale / 2 in magnitude), most of them rounded at 10 places. */
static void fill_small(as_matrix *small, as_prng *g, double scale)
{
    size_t k;

    for (k = 0; k < COLS; k++) {
        const double u = (double)(as_prng_next(g) >> 11) * 0x1p-53;
        small->v[k] = k % 11 == 0 ? -INFINITY : floor(u * 1000);
        small->v[COLS + k] = (u - 0.5) * scale;
    }
}

/* The line of row i without its brackets: "[[", " [" before, "]]", "]," after. */
static void assert_same_inside(const char *big, const char *small)
{
    const size_t nb = strlen(big), ns = strlen(small);

    assert_int_equal(nb, ns);
    assert_memory_equal(big + 2, small + 2, ns - 4);
}

/* The large table's lines against the small one's, in style st. */
static void assert_large_as_small(const as_cell_style *st, double scale)
{
    as_matrix small, big;
    as_block bs, bb;
    as_prng g;
    int rs, rb;
    size_t i;

    as_prng_seed(&g, 19);
    assert_int_equal(as_matrix_init(&small, 2, COLS), 0);
    assert_int_equal(as_matrix_init(&big, BIG_ROWS, COLS), 0);
    fill_small(&small, &g, scale);
    for (i = 0; i < BIG_ROWS; i++)
        memcpy(big.v + i * COLS, small.v + (i >= BIG_ROWS / 2) * COLS, COLS * sizeof *big.v);
    bs = as_block_matrix(&small, st, &rs);
    bb = as_block_matrix(&big, st, &rb);
    assert_false(bs.failed || bb.failed);
    assert_int_equal(bs.count, 2);
    assert_int_equal(bb.count, BIG_ROWS);
    assert_int_equal(rs, 1);
    assert_int_equal(rb, rs);
    assert_memory_equal(bb.line[0], "[[", 2);
    assert_memory_equal(bb.line[BIG_ROWS - 1] + strlen(bb.line[BIG_ROWS - 1]) - 2, "]]", 2);
    for (i = 0; i < BIG_ROWS; i++)
        assert_same_inside(bb.line[i], bs.line[i >= BIG_ROWS / 2]);
    as_block_free(&bs);
    as_block_free(&bb);
    as_matrix_free(&small);
    as_matrix_free(&big);
}

static void test_a_large_table_lays_out_as_a_small_one(void **state)
{
    const as_cell_style colour = {10, 0, "\x1b[2m", "\x1b[0m"}, plain = {10, 0, NULL, NULL};
    const as_cell_style ascii = {10, 1, NULL, NULL}, long17 = {17, 0, NULL, NULL};

    (void)state;
    assert_large_as_small(&colour, 100);
    assert_large_as_small(&plain, 100);
    assert_large_as_small(&ascii, 100);
    assert_large_as_small(&long17, 100);
    assert_large_as_small(&long17, 1e6); /* -123456.78901234567...: 25 bytes */
}

/* A cell of 25 characters is there to be checked: the kept cells hold 22 bytes. */
static void test_seventeen_places_make_cells_too_long_to_keep(void **state)
{
    const as_cell_style long17 = {17, 0, NULL, NULL};
    as_matrix m;
    as_block b;
    int rounded;

    (void)state;
    assert_int_equal(as_matrix_init(&m, 1, 1), 0);
    m.v[0] = -123456.78901234567;
    b = as_block_matrix(&m, &long17, &rounded);
    assert_int_equal(b.count, 1);
    assert_int_equal(strlen(b.line[0]), strlen("[[]]") + 25);
    as_block_free(&b);
    as_matrix_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_large_table_lays_out_as_a_small_one),
        cmocka_unit_test(test_seventeen_places_make_cells_too_long_to_keep),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
