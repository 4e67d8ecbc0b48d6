/* diagnose.c - naming a known mistake (SPEC §6): each mistake is a variant of the
 * student's own chain (ownchain.c), and a wrong table is named by the one variant it
 * matches as a whole; when several match equally none is named and all are listed. */
#include "attnstep/diagnose.h"
#include "attnstep/ownchain.h"

#include <string.h>

const char *as_diag_code(as_diag d)
{
    static const char *const code[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = "carried_error",
        [AS_DIAG_NO_SCALE] = "no_scale",
        [AS_DIAG_SCALE_MULTIPLIED] = "scale_multiplied",
        [AS_DIAG_SCALE_BY_DK] = "scale_by_dk",
        [AS_DIAG_NO_MASK] = "no_mask",
        [AS_DIAG_MASKED_ZERO] = "masked_zero",
        [AS_DIAG_INVERTED_MASK] = "inverted_mask",
        [AS_DIAG_MASK_AFTER_SOFTMAX] = "mask_after_softmax",
        [AS_DIAG_NO_NORMALIZE] = "no_normalize",
        [AS_DIAG_SOFTMAX_COLUMNS] = "softmax_columns",
        [AS_DIAG_TRANSPOSED] = "transposed",
        [AS_DIAG_KEYS_FOR_VALUES] = "keys_for_values",
        [AS_DIAG_WRONG_WEIGHTS] = "wrong_weights",
        [AS_DIAG_TORCH_LAYOUT] = "torch_layout",
        [AS_DIAG_TEMPERATURE_AFTER_SOFTMAX] = "temperature_after_softmax",
        [AS_DIAG_TOPP_DROPS_CROSSING] = "topp_drops_crossing",
        [AS_DIAG_TOPK_BEFORE_TEMPERATURE] = "topk_before_temperature",
        [AS_DIAG_LN_UNBIASED] = "ln_unbiased",
        [AS_DIAG_LN_EPS_OUTSIDE] = "ln_eps_outside",
        [AS_DIAG_LN_NO_AFFINE] = "ln_no_affine",
        [AS_DIAG_RMS_WITH_MEAN] = "rms_with_mean",
        [AS_DIAG_GELU_TANH_FOR_ERF] = "gelu_tanh_for_erf",
        [AS_DIAG_GELU_ERF_FOR_TANH] = "gelu_erf_for_tanh",
        [AS_DIAG_RELU_FOR_GELU] = "relu_for_gelu",
        [AS_DIAG_NO_RESIDUAL] = "no_residual",
        [AS_DIAG_RESIDUAL_FROM_NORMED] = "residual_from_normed",
        [AS_DIAG_POST_FOR_PRE] = "post_for_pre",
    };

    return d > AS_DIAG_NONE && d < AS_DIAG_COUNT ? code[d] : NULL;
}

const as_matrix *as_head_table(const as_head_trace *h, as_answer_kind kind)
{
    return as_trace_head_table(h, as_tab_of_answer(kind));
}

/* Nonzero when every cell the student wrote stands for the cell of want (row of want,
 * for a row answer), within its own precision or tol, widened by err (what the rounding
 * of the tables written before can move it, SPEC §6; NULL for none, and none with tol). */
static int matches(const as_table_grade *g, const as_matrix *want, const as_matrix *err,
                   double tol)
{
    const as_matrix *w = &g->given->value, *u = &g->given->unit;
    size_t i, at = 0;

    if (g->row >= 0) {
        if ((size_t)g->row >= want->rows || w->rows != 1 || w->cols != want->cols)
            return 0;
        at = (size_t)g->row * want->cols;
    } else if (w->rows != want->rows || w->cols != want->cols) {
        return 0;
    }
    for (i = 0; i < w->rows * w->cols; i++)
        if (!as_answer_cell_ok(w->v[i], u->v[i], want->v[at + i], tol,
                               err != NULL && tol < 0 ? err->v[at + i] : 0))
            return 0;
    return 1;
}

/* Nonzero when g is the transpose of the table its right step gives. */
static int transposed(const as_table_grade *g, const as_chain_slot *right, double tol, int *nomem)
{
    as_matrix t = {0};
    int yes;

    if (g->row >= 0 || !right->ok)
        return 0;
    if (as_matrix_copy(&t, &right->calc) != 0 || as_matrix_transpose(&t) != 0) {
        as_matrix_free(&t);
        *nomem = 1;
        return 0;
    }
    yes = matches(g, &t, NULL, tol);
    as_matrix_free(&t);
    return yes;
}

/* A mistake first shows in the table of its step; mask_after_softmax leaves S without
 * the mask, which is no_mask's S: it is named from A on. */
static int shows_in(as_fit f, const as_table_grade *g)
{
    return f.diag != AS_DIAG_MASK_AFTER_SOFTMAX || g->kind >= AS_ANS_A;
}

/* Adds f to g's fits unless one like it is there (no_normalize's two ways are one). */
static void add_fit(as_table_grade *g, as_fit f)
{
    const int detailed = f.diag == AS_DIAG_WRONG_WEIGHTS || f.diag == AS_DIAG_TORCH_LAYOUT;
    size_t i;

    for (i = 0; i < g->nfits; i++)
        if (g->fits[i].diag == f.diag && (!detailed || g->fits[i].detail == f.detail))
            return;
    if (g->nfits < AS_MAX_FITS)
        g->fits[g->nfits++] = f;
}

int as_diagnose(as_table_grade *g, as_chain_cache *cache, double tol)
{
    const as_chain *right = as_chain_get(cache, 0);
    size_t i;
    int nomem = 0;

    g->nfits = 0;
    if (right == NULL)
        return -1;
    for (i = 1; i < AS_CHAIN_VARIANTS; i++) {
        const as_fit f = as_chain_variant(i);
        const as_chain *c;
        const as_chain_slot *s;
        if (!shows_in(f, g))
            continue;
        if ((c = as_chain_get(cache, i)) == NULL)
            return -1;
        s = as_chain_slot_of(c, cache->p, g);
        if (s->ok && matches(g, &s->calc, &s->cerr, tol))
            add_fit(g, f);
    }
    if (transposed(g, as_chain_slot_of(right, cache->p, g), tol, &nomem))
        add_fit(g, (as_fit){AS_DIAG_TRANSPOSED, 0});
    if (g->nfits == 1) {
        g->diagnosis = g->fits[0].diag;
        g->detail = g->fits[0].detail;
        g->nfits = 0;
    }
    return nomem ? -1 : 0;
}
