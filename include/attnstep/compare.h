/* compare.h - a controlled comparison of two inputs (SPEC §8): which inputs differ,
 * which tables changed and by how much at most, and which reason explains it. Pure. */
#ifndef ATTNSTEP_COMPARE_H
#define ATTNSTEP_COMPARE_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/i18n.h"
#include "attnstep/model.h"

#define AS_COMPARE_MAX_INPUTS 16

/* One table of the run, in both. */
typedef struct as_table_diff {
    char name[32];             /* as JSON spells it: "Q", "QKT", "S_h1", "C", "O" */
    const as_matrix *base;     /* borrowed from the base's trace */
    const as_matrix *variant;  /* borrowed from the variant's, NULL when it has no such table */
    int comparable;            /* both there with the same shape */
    int changed;
    double max_abs_diff;       /* the largest change of a cell; +inf when a cell became or
                                * stopped being -inf; meaningful only when comparable */
} as_table_diff;

typedef struct as_comparison {
    const char *inputs[AS_COMPARE_MAX_INPUTS]; /* names of the inputs that differ: "Wv",
                                                * "X", ..., "mask", "scale", "tokens" */
    size_t ninputs;
    as_table_diff *table;      /* count entries, in the book's order */
    size_t count;
    as_msg reason;             /* AS_MSG_WHY_*: why these tables changed; AS_MSG_COUNT when
                                * no input differs or only labels do */
} as_comparison;

/* Compares the run tv of problem pv (the variant) with tb of pb (the base). Returns 0 and
 * fills c (free with as_comparison_free()), or -1 when memory ran out. */
int as_compare(as_comparison *c, const as_problem *pb, const as_trace *tb, const as_problem *pv,
               const as_trace *tv);

/* Frees what c owns and leaves it empty. */
void as_comparison_free(as_comparison *c);

#endif
