/* headcheck.c - the named mistakes of the output head (SPEC §19): the student's
 * probabilities against the head's steps done in each wrong order. */
#include "attnstep/headcheck.h"
#include "attnstep/answers.h"
#include "attnstep/outhead.h"

/* Nonzero when the numbers w[n], each written to its unit[j], are right for x[n] (as
 * check judges a cell: half a unit of its last place, or tol when tol >= 0). */
static int fits(const double *w, const double *x, const double *unit, double tol, size_t n)
{
    size_t j;

    for (j = 0; j < n; j++)
        if (!as_answer_cell_ok(w[j], unit[j], x[j], tol, 0))
            return 0;
    return 1;
}

const as_diag as_head_mistakes[AS_HEAD_MISTAKES] = {
    AS_DIAG_TEMPERATURE_AFTER_SOFTMAX, AS_DIAG_TOPP_DROPS_CROSSING, AS_DIAG_TOPK_BEFORE_TEMPERATURE};

/* The head's way of each of as_head_mistakes. */
static as_head_way way_of(as_diag diag)
{
    return diag == AS_DIAG_TEMPERATURE_AFTER_SOFTMAX ? AS_HEAD_T_AFTER_SOFTMAX
           : diag == AS_DIAG_TOPP_DROPS_CROSSING    ? AS_HEAD_DROP_CROSSING
                                                    : AS_HEAD_CUT_BEFORE_T;
}

int as_head_variant(as_out_head *v, const as_problem *p, const double *h, size_t d, as_diag diag)
{
    as_head_opts opts = {p->temperature, p->top_k, p->top_p, 0, 0, AS_HEAD_RIGHT, NULL};

    opts.way = way_of(diag);
    if (as_out_head_run(v, h, d, p->head_w, p->head == AS_HEAD_TIED, &opts) != 0)
        return -1;
    if (v->kept_logits.v != NULL && v->kept == 0) {
        as_out_head_free(v);
        return 0;
    }
    return 1;
}

int as_head_diagnose(as_diag *diag, const as_problem *p, const double *h, size_t d,
                     const double *written, const double *unit, double tol)
{
    as_head_opts opts = {p->temperature, p->top_k, p->top_p, 0, 0, AS_HEAD_RIGHT, NULL};
    as_out_head right, v;
    size_t k, named = 0;
    int rc;

    *diag = AS_DIAG_NONE;
    if (as_out_head_run(&right, h, d, p->head_w, p->head == AS_HEAD_TIED, &opts) != 0)
        return -1;
    for (k = 0; k < AS_HEAD_MISTAKES; k++) {
        if ((rc = as_head_variant(&v, p, h, d, as_head_mistakes[k])) < 0) {
            as_out_head_free(&right);
            return -1;
        }
        if (rc == 0)
            continue;
        /* the same numbers as the right ones are no mistake */
        if (!fits(right.final.v, v.final.v, unit, tol, right.vocab) &&
            fits(written, v.final.v, unit, tol, right.vocab)) {
            *diag = as_head_mistakes[k];
            named++;
        }
        as_out_head_free(&v);
    }
    as_out_head_free(&right);
    if (named != 1)
        *diag = AS_DIAG_NONE;
    return 0;
}
