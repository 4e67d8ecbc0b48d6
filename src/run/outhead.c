/* outhead.c - the output head's steps in order (SPEC §19): logits, temperature, top-k,
 * softmax, top-p, renormalisation, the draw. */
#include "attnstep/outhead.h"
#include "attnstep/prng.h"
#include "attnstep/sample.h"
#include "attnstep/steps.h"

#include <stdlib.h>
#include <string.h>

/* logits[v] = Σ_t h[t]·E[v][t] (tied) or Σ_t h[t]·Wout[t][v], each a running sum from +0
 * in t's order by fma, as every product of the calculator. */
static void logits_of(double *out, const double *h, size_t d, const as_matrix *w, int tied)
{
    size_t v;

    if (!tied) {
        as_matmul(out, h, w->v, 1, d, w->cols);
        return;
    }
    for (v = 0; v < w->rows; v++) /* a row of E is a column of Eᵀ: the same sum */
        as_matmul(&out[v], h, &AS_AT(*w, v, 0), 1, d, 1);
}

/* Each of n tables [1, vocab], or -1. */
static int make(size_t vocab, as_matrix *const *m, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (as_matrix_init(m[i], 1, vocab) != 0)
            return -1;
    return 0;
}

/* top-p over o->probs: the kept tokens' logits, their renormalised probabilities (the
 * crossing token dropped for the named mistake). */
static int top_p(as_out_head *o, const double *from, double p, size_t *order, as_head_way way)
{
    size_t i;

    if (make(o->vocab, (as_matrix *[]){&o->order, &o->cum, &o->kept_logits}, 3) != 0)
        return -1;
    o->kept = (way == AS_HEAD_DROP_CROSSING ? as_top_p_drop_crossing : as_top_p)(
        o->kept_logits.v, order, o->cum.v, from, o->probs.v, o->vocab, p);
    for (i = 0; i < o->vocab; i++)
        o->order.v[i] = (double)order[i];
    as_softmax_rows(o->final.v, NULL, NULL, NULL, NULL, o->kept_logits.v, 1, o->vocab);
    return 0;
}

/* topk_before_temperature: the logits the cuts kept, divided by T now, and their
 * softmax as the probabilities drawn from. */
static void temper_kept(as_out_head *o, double t)
{
    const as_matrix *kept = o->kept_logits.v ? &o->kept_logits : o->topk.v ? &o->topk : &o->scaled;

    as_temperature(kept->v, kept->v, o->vocab, t);
    as_softmax_rows(o->final.v, NULL, NULL, NULL, NULL, kept->v, 1, o->vocab);
}

int as_out_head_run(as_out_head *o, const double *h, size_t d, const as_matrix *w, int tied,
                    const as_head_opts *opts)
{
    const size_t vocab = tied ? w->rows : w->cols;
    size_t *order = NULL;
    const double *from;

    memset(o, 0, sizeof *o);
    o->vocab = vocab;
    if (make(vocab, (as_matrix *[]){&o->logits, &o->scaled, &o->probs, &o->final}, 4) != 0 ||
        (order = malloc(2 * (vocab ? vocab : 1) * sizeof *order)) == NULL)
        goto nomem;
    logits_of(o->logits.v, h, d, w, tied);
    /* temperature_after_softmax: ÷T on probabilities renormalised is no ÷T at all;
     * topk_before_temperature: the cuts see the logits, T comes after them */
    as_temperature(o->scaled.v, o->logits.v, vocab,
                   opts->way == AS_HEAD_T_AFTER_SOFTMAX || opts->way == AS_HEAD_CUT_BEFORE_T
                       ? 1.0
                       : opts->temperature);
    from = o->scaled.v;
    if (opts->top_k > 0) {
        if (make(vocab, (as_matrix *[]){&o->topk}, 1) != 0)
            goto nomem;
        as_top_k(o->topk.v, o->scaled.v, vocab, opts->top_k, order);
        from = o->topk.v;
    }
    as_softmax_rows(o->probs.v, NULL, NULL, NULL, NULL, from, 1, vocab);
    if (opts->top_p > 0) {
        if (top_p(o, from, opts->top_p, order, opts->way) != 0)
            goto nomem;
    } else {
        memcpy(o->final.v, o->probs.v, vocab * sizeof *o->final.v);
    }
    if (opts->way == AS_HEAD_CUT_BEFORE_T) /* the kept logits ÷T only now */
        temper_kept(o, opts->temperature);
    free(order);
    order = NULL; /* the draw's table may still fail: nomem frees order again */
    if (!opts->seeded) {
        o->token = as_greedy(o->final.v, vocab);
        return 0;
    }
    if (make(vocab, (as_matrix *[]){&o->draw_cum}, 1) != 0)
        goto nomem;
    if (opts->rng != NULL) {
        o->u = as_uniform(opts->rng);
    } else {
        as_prng g;
        as_prng_seed(&g, opts->seed);
        o->u = as_uniform(&g);
    }
    o->token = as_draw(o->draw_cum.v, o->final.v, vocab, o->u);
    return 0;
nomem:
    free(order);
    as_out_head_free(o);
    return -1;
}

void as_out_head_free(as_out_head *o)
{
    as_matrix *all[] = {&o->logits, &o->scaled,      &o->topk,  &o->probs,   &o->order,
                        &o->cum,    &o->kept_logits, &o->final, &o->draw_cum};
    size_t i;

    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        as_matrix_free(all[i]);
    memset(o, 0, sizeof *o);
}

const as_matrix *as_out_head_table(const as_out_head *o, as_tab id)
{
    const as_matrix *m;

    switch (id) {
    case AS_TAB_LOGITS: m = &o->logits; break;
    case AS_TAB_SCALED: m = &o->scaled; break;
    case AS_TAB_TOPK: m = &o->topk; break;
    case AS_TAB_SOFTMAX: m = &o->probs; break;
    case AS_TAB_CUM: m = &o->cum; break;
    case AS_TAB_KEPT: /* the logits the cuts leave: top-p's, else top-k's, else all */
        m = o->kept_logits.v ? &o->kept_logits : o->topk.v ? &o->topk : &o->scaled;
        break;
    case AS_TAB_PROBS: m = &o->final; break;
    case AS_TAB_CDF: m = &o->draw_cum; break;
    default: return NULL;
    }
    return m->v != NULL ? m : NULL;
}
