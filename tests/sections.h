/* sections.h - reads the `NAME rows cols` sections of numbers that the reference
 * scripts under tests/data/ write (each followed by rows*cols numbers), and compares a
 * table with one to 1e-12 relative (absolute below 1). For the cmocka tests. */
#ifndef ATTNSTEP_TEST_SECTIONS_H
#define ATTNSTEP_TEST_SECTIONS_H

#include <math.h>
#include <stdio.h>

#define SECTION_CAP 8192

typedef struct section {
    char name[32];
    size_t rows, cols;
    double v[SECTION_CAP];
} section;

/* The next section of f into s: 1, or 0 at the end of the file. Fails the test on a
 * section cut short or too large. Skips `#` comment lines before the section. */
static inline int read_section(FILE *f, section *s)
{
    size_t i;
    int ch;

    while ((ch = fgetc(f)) == '#' || ch == '\n')
        if (ch == '#')
            while ((ch = fgetc(f)) != '\n' && ch != EOF)
                ;
    if (ch == EOF)
        return 0;
    ungetc(ch, f);
    if (fscanf(f, "%31s %zu %zu", s->name, &s->rows, &s->cols) != 3)
        return 0;
    assert_true(s->rows * s->cols <= SECTION_CAP);
    for (i = 0; i < s->rows * s->cols; i++)
        assert_int_equal(fscanf(f, "%lf", &s->v[i]), 1);
    return 1;
}

/* got[count] against the reference want[count], to 1e-12 relative (absolute for values
 * below 1); what and name say where a mismatch is. */
static inline void assert_cells_close(const double *got, const double *want, size_t count,
                                      const char *what, const char *name)
{
    size_t i;

    for (i = 0; i < count; i++)
        if (!(fabs(got[i] - want[i]) <= 1e-12 * fmax(1.0, fabs(want[i])))) {
            print_error("%s: %s cell %zu = %.17g, reference %.17g\n", what, name, i, got[i],
                        want[i]);
            fail();
        }
}

#endif
