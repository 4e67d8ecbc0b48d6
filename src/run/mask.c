/* mask.c - the run builds the mask the problem describes. */
#include "attnstep/mask.h"
#include "attnstep/steps.h"
#include "attnstep/steps_gen.h"

#include <string.h>

int as_mask_build(as_matrix *M, const as_problem *p)
{
    if (p->mask == AS_MASK_CUSTOM)
        return as_matrix_copy(M, &p->in->mat[AS_M].m);
    if (as_matrix_init(M, p->n, p->m) != 0)
        return -1;
    if (p->mask == AS_MASK_WINDOW)
        as_window_mask(M->v, p->n, p->window);
    else if (p->mask == AS_MASK_CAUSAL)
        as_causal_mask(M->v, p->n);
    return 0;
}

void as_mask_row(double *out, const as_problem *p, size_t i)
{
    if (p->mask == AS_MASK_CUSTOM)
        memcpy(out, &AS_AT(p->in->mat[AS_M].m, i, 0), p->m * sizeof *out);
    else if (p->mask == AS_MASK_NONE)
        memset(out, 0, p->m * sizeof *out);
    else /* causal: a window as wide as the sequence (p->window = n) */
        as_window_mask_row(out, i, p->m, p->window);
}
