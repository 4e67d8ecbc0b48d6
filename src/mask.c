/* mask.c - the run builds the mask the problem describes. */
#include "attnstep/mask.h"
#include "attnstep/steps.h"
#include "attnstep/steps_gen.h"

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
