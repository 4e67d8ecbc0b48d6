/* grad_expected.h - reading the gradients PyTorch autograd stored for a case (the
 * make_*.py scripts under tests/data/grad/: for each table a line "name rows cols", then
 * its rows) and comparing each cell with the run's, for test_grad.c and
 * test_grad_block.c. Include after cmocka.h and matrix.h. */
#ifndef ATTNSTEP_TEST_GRAD_EXPECTED_H
#define ATTNSTEP_TEST_GRAD_EXPECTED_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 1e-12 relative, or 1e-13 absolute for values near 0 (torch and attnstep add in
 * different orders: an exact 0 may come out as 2e-16 in one of them). */
static inline int grad_agrees(double got, double want)
{
    return fabs(got - want) <= 1e-12 * fabs(want) + 1e-13;
}

/* The run's table the stored name names (loss: a 1 x 1 matrix made in *loss), or NULL. */
typedef const as_matrix *(*grad_table_fn)(const void *run, const char *name, as_matrix *loss);

/* Each stored table of f, up to its end or a line "end", against the run's (what and k
 * name the case in a failure); returns how many tables were compared. */
static inline size_t grad_compare_tables(FILE *f, grad_table_fn table, const void *run,
                                         const char *what, unsigned k)
{
    char name[64];
    size_t rows, cols, i, tables = 0;
    as_matrix loss;

    while (fscanf(f, " %63s", name) == 1 && strcmp(name, "end") != 0) {
        const as_matrix *m = table(run, name, &loss);
        assert_int_equal(fscanf(f, "%zu %zu", &rows, &cols), 2);
        if (m == NULL || m->rows != rows || m->cols != cols) {
            print_error("%s case %u: table %s is %s, PyTorch has [%zu,%zu]\n", what, k, name,
                        m ? "of another shape" : "missing", rows, cols);
            fail();
        }
        for (i = 0; i < rows * cols; i++) {
            double want;
            assert_int_equal(fscanf(f, "%lf", &want), 1);
            if (!grad_agrees(m->v[i], want)) {
                print_error("%s case %u: %s[%zu][%zu] = %.17g, PyTorch %.17g\n", what, k, name,
                            i / cols, i % cols, m->v[i], want);
                fail();
            }
        }
        tables++;
    }
    return tables;
}

#endif
