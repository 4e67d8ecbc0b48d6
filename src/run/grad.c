/* grad.c - the backward pass of one run (SPEC §13): the loss and its dO, then each
 * backward step (backward.h) in the order the chain rule visits the layer, recorded
 * into an as_grad. It reads the forward trace and never recomputes it. */
#include "attnstep/grad.h"
#include "attnstep/backward.h"
#include "attnstep/block.h"
#include "attnstep/block_backward.h"
#include "attnstep/kernels.h"
#include "attnstep/positions.h"
#include "attnstep/steps.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------ */
/* The loss and dO                                                                  */
/* ------------------------------------------------------------------------------ */

/* An error at a statement of the input (at.line 0: the file as a whole). */
static int fail(as_error *err, const as_problem *p, as_pos at, as_lang lang, as_msg hint,
                as_msg what, ...)
{
    char text[AS_ERR_MSG];
    va_list ap;

    va_start(ap, what);
    vsnprintf(text, sizeof text, as_msg_text(lang, what), ap);
    va_end(ap);
    as_error_set(err, p->in->path, at.line, at.col, "%s", text);
    as_error_hint(err, "%s", as_msg_text(lang, hint));
    return -1;
}

/* The table the loss is on: the block's Y with a block (SPEC §15), else O. */
static const as_matrix *output(const as_trace *t)
{
    return t->block != NULL ? &t->block->Y : &t->O;
}

/* dO or target must have the output's shape: one number per cell of the output. */
static int same_shape_as_o(const as_named *nm, as_mat_id id, const as_trace *t,
                           const as_problem *p, as_lang lang, as_error *err)
{
    const as_matrix *o = output(t);
    const int y = t->block != NULL;

    if (nm->m.rows == o->rows && nm->m.cols == o->cols)
        return 0;
    return fail(err, p, nm->pos, lang,
                id == AS_DO ? (y ? AS_MSG_GRAD_HINT_DO_SHAPE_Y : AS_MSG_GRAD_HINT_DO_SHAPE)
                            : (y ? AS_MSG_GRAD_HINT_TARGET_SHAPE_Y : AS_MSG_GRAD_HINT_TARGET_SHAPE),
                y ? AS_MSG_GRAD_SHAPE_Y : AS_MSG_GRAD_SHAPE, as_mat_name(id),
                nm->m.rows, nm->m.cols, o->rows, o->cols);
}

/* Nonzero when w is at most one edit (a letter changed, added or dropped, ignoring
 * case) from the word t: "sun", "sums", "ms" are near a loss's name. Levenshtein's
 * distance, one row at a time, for words of up to 15 letters. */
static int one_edit_from(const char *w, const char *t)
{
    size_t row[16], i, j, n = strlen(w), m = strlen(t);

    if (n > 15 || m > 15)
        return 0;
    for (j = 0; j <= m; j++)
        row[j] = j;
    for (i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (j = 1; j <= m; j++) {
            const size_t up = row[j];
            const size_t swap = diag + ((w[i - 1] | 0x20) != (t[j - 1] | 0x20));
            row[j] = swap < up + 1 ? swap : up + 1;
            if (row[j - 1] + 1 < row[j])
                row[j] = row[j - 1] + 1;
            diag = up;
        }
    }
    return row[m] <= 1;
}

/* The loss named in the file: sum, mse, or -1 after an error (naming the loss it is one
 * letter from, when there is one). */
static int loss_word(const as_problem *p, as_lang lang, as_error *err)
{
    const char *w = p->in->loss;
    char hint[AS_ERR_MSG];

    if (strcasecmp(w, "sum") == 0)
        return AS_LOSS_SUM;
    if (strcasecmp(w, "mse") == 0)
        return AS_LOSS_MSE;
    fail(err, p, p->in->loss_pos, lang, AS_MSG_GRAD_HINT_LOSS, AS_MSG_GRAD_LOSS_UNKNOWN, w);
    if (one_edit_from(w, "sum") || one_edit_from(w, "mse")) {
        snprintf(hint, sizeof hint, as_msg_text(lang, AS_MSG_GRAD_HINT_LOSS_MEAN),
                 one_edit_from(w, "sum") ? "sum" : "mse");
        as_error_hint(err, "%s", hint);
    }
    return -1;
}

/* Which of dO, loss: sum and loss: mse the file gives; -1 after an error. */
static int loss_kind(const as_problem *p, const as_trace *t, as_lang lang, as_error *err)
{
    const as_named *dO = &p->in->mat[AS_DO], *target = &p->in->mat[AS_TARGET];
    int kind;

    if (p->in->loss == NULL && !dO->given)
        return fail(err, p, (as_pos){1, 1}, lang, AS_MSG_GRAD_HINT_NO_LOSS,
                    AS_MSG_GRAD_NO_LOSS);
    if (p->in->loss != NULL && dO->given)
        return fail(err, p, dO->pos, lang, AS_MSG_GRAD_HINT_BOTH, AS_MSG_GRAD_BOTH,
                    p->in->loss_pos.line);
    kind = dO->given ? AS_LOSS_GIVEN : loss_word(p, lang, err);
    if (kind == AS_LOSS_MSE && !target->given)
        return fail(err, p, p->in->loss_pos, lang, AS_MSG_GRAD_HINT_TARGET_SHAPE,
                    AS_MSG_GRAD_NO_TARGET);
    if (kind >= 0 && kind != AS_LOSS_MSE && target->given)
        return fail(err, p, target->pos, lang, AS_MSG_GRAD_HINT_TARGET_ONLY,
                    AS_MSG_GRAD_TARGET_UNUSED);
    if (kind == AS_LOSS_GIVEN && same_shape_as_o(dO, AS_DO, t, p, lang, err) != 0)
        return -1;
    if (kind == AS_LOSS_MSE && same_shape_as_o(target, AS_TARGET, t, p, lang, err) != 0)
        return -1;
    return kind;
}

/* A block needs its forward record (the session's, t->block): without it the lone
 * attention layer's gradient would be given as the block's. */
static int block_supported(const as_problem *p, const as_trace *t, as_lang lang, as_error *err)
{
    if (p->block == AS_BLOCK_NONE || t->block != NULL)
        return 0;
    return fail(err, p, p->in->block_pos, lang, AS_MSG_GRAD_HINT_BLOCK, AS_MSG_GRAD_BLOCK);
}

int as_grad_loss(as_grad *g, const as_problem *p, const as_trace *t, as_lang lang,
                 as_error *err)
{
    const int kind = block_supported(p, t, lang, err) != 0 ? -1 : loss_kind(p, t, lang, err);
    const as_matrix *o = output(t);
    as_matrix *d = t->block != NULL ? &g->dY : &g->dO; /* the loss's gradient */
    const size_t count = o->rows * o->cols;

    if (kind < 0)
        return -1;
    g->loss_kind = (as_loss_kind)kind;
    if (kind == AS_LOSS_GIVEN ? as_matrix_copy(d, &p->in->mat[AS_DO].m)
                              : as_matrix_init(d, o->rows, o->cols)) {
        as_error_set(err, p->in->path, 0, 0, "%s", as_msg_text(lang, AS_MSG_GRAD_NO_MEMORY));
        return -1;
    }
    if (kind == AS_LOSS_SUM)
        g->loss = as_loss_sum_backward(d->v, o->v, count);
    else if (kind == AS_LOSS_MSE)
        g->loss = as_loss_mse_backward(d->v, o->v, p->in->mat[AS_TARGET].m.v, count);
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The backward run                                                                 */
/* ------------------------------------------------------------------------------ */

/* Allocates every table the run will fill, in the shapes of p; with rows, no n x m
 * table (each head's dA, dS, d(QKᵀ) stay empty). */
static int alloc_all(as_grad *g, const as_problem *p, int rows)
{
    const size_t n = p->n, m = p->m, H = p->heads, dq = H * p->d_k, dv = H * p->d_v;
    const size_t dkv = p->kv_heads * p->d_k, dvv = p->kv_heads * p->d_v; /* K and V widths */
    int bad = 0;
    size_t h;

    if ((g->head = calloc(H, sizeof *g->head)) == NULL)
        return -1;
    g->heads = H;
    for (h = 0; h < H; h++) {
        as_grad_head *gh = &g->head[h];
        bad |= as_matrix_init(&gh->dO, n, p->d_v) | as_matrix_init(&gh->dV, m, p->d_v) |
               as_matrix_init(&gh->rowdot, n, 1) | as_matrix_init(&gh->dQ, n, p->d_k) |
               as_matrix_init(&gh->dK, m, p->d_k);
        if (!rows)
            bad |= as_matrix_init(&gh->dA, n, m) | as_matrix_init(&gh->dS, n, m) |
                   as_matrix_init(&gh->dQKT, n, m);
        if (p->positions == AS_POSITIONS_ROPE)
            bad |= as_matrix_init(&gh->dQr, n, p->d_k) | as_matrix_init(&gh->dKr, m, p->d_k);
    }
    if (p->Wo != NULL)
        bad |= as_matrix_init(&g->dWo, dv, p->d_out) | as_matrix_init(&g->dC, n, dv);
    if (p->bo != NULL)
        bad |= as_matrix_init(&g->dbo, 1, p->d_out);
    bad |= as_matrix_init(&g->dQ, n, dq) | as_matrix_init(&g->dK, m, dkv) |
           as_matrix_init(&g->dV, m, dvv) | as_matrix_init(&g->dWq, p->d_model, dq) |
           as_matrix_init(&g->dWk, p->d_kv_model, dkv) |
           as_matrix_init(&g->dWv, p->d_kv_model, dvv) | as_matrix_init(&g->dX, n, p->d_model);
    bad |= p->bq ? as_matrix_init(&g->dbq, 1, dq) : 0;
    bad |= p->bk ? as_matrix_init(&g->dbk, 1, dkv) : 0;
    bad |= p->bv ? as_matrix_init(&g->dbv, 1, dvv) : 0;
    bad |= p->cross ? as_matrix_init(&g->dXkv, m, p->d_kv_model) : 0;
    return bad ? -1 : 0;
}

/* The output projection O = C·Wo + bo, backwards: dWo = Cᵀ·dO, dbo, dC = dO·Woᵀ. */
static void output_projection(as_grad *g, const as_problem *p, const as_trace *t)
{
    const size_t n = p->n, dv = p->heads * p->d_v;

    as_matmul_tn_fast(g->dWo.v, t->C.v, g->dO.v, n, dv, p->d_out);
    if (p->bo != NULL)
        as_column_sums(g->dbo.v, g->dO.v, n, p->d_out);
    as_scores_fast(g->dC.v, g->dO.v, p->Wo->v, n, dv, p->d_out);
}

/* The scores read Q and K, or with rope their turned copies Qr and Kr: the tables step 1
 * backwards reads (h's) and writes (gh's: dQr and dKr with rope, then turned back). */
typedef struct score_sides {
    const double *q, *k;
    double *dq, *dk;
} score_sides;

static score_sides sides(as_grad_head *gh, const as_head_trace *h)
{
    if (h->Qr.v != NULL)
        return (score_sides){h->Qr.v, h->Kr.v, gh->dQr.v, gh->dKr.v};
    return (score_sides){h->Q.v, h->K.v, gh->dQ.v, gh->dK.v};
}

/* rope: the turn that made Qr and Kr, backwards (positions.h): each row's pairs of dQr
 * and dKr turned back by that row's angles, into dQ and dK. Nothing without rope. */
static void turn_back(as_grad_head *gh, const as_trace *t, const as_problem *p)
{
    if (gh->dQr.v == NULL)
        return;
    as_rope_backward(gh->dQ.v, gh->dQr.v, p->n, p->d_k, t->rope_cos.v, t->rope_sin.v, p->rope);
    as_rope_backward(gh->dK.v, gh->dKr.v, p->m, p->d_k, t->rope_cos.v, t->rope_sin.v, p->rope);
}

/* One head, the chapter's four steps backwards: the mixing (dV, dA), the softmax (dS),
 * the scaling (d(QKᵀ)), the scores (dQ, dK; with rope dQr and dKr, then turned back).
 * dC holds the gradient of the heads' outputs side by side. */
static void head_backward(as_grad_head *gh, const as_trace *t, size_t hd,
                          const as_matrix *dC, const as_problem *p)
{
    const as_head_trace *h = &t->head[hd];
    const size_t n = p->n, m = p->m, dk = p->d_k, dv = p->d_v;
    const score_sides sd = sides(gh, h);

    as_take_columns(gh->dO.v, dC->v, n, dC->cols, hd * dv, dv);
    /* step 4 backwards: O = A·V */
    as_matmul_tn_fast(gh->dV.v, h->A.v, gh->dO.v, n, m, dv);
    as_scores_fast(gh->dA.v, gh->dO.v, h->V.v, n, m, dv);
    /* step 3 backwards: the softmax along each row (masked cells stay 0) */
    as_softmax_backward_rows(gh->dS.v, gh->rowdot.v, gh->dA.v, h->A.v, n, m);
    /* step 2 backwards: the mask adds a constant, the scaling multiplies */
    as_scale(gh->dQKT.v, gh->dS.v, n * m, p->scale);
    /* step 1 backwards: QKᵀ (with rope Qr·Krᵀ, and the turn backwards) */
    as_matmul_fast(sd.dq, gh->dQKT.v, sd.k, n, m, dk);
    as_matmul_tn_fast(sd.dk, gh->dQKT.v, sd.q, n, m, dk);
    turn_back(gh, t, p);
}

/* Rows of a head's n x m tables worked on together by head_backward_rows(): enough for
 * the fast products, few enough that four such blocks stay small beside the inputs
 * (4 x 32 x 16384 doubles at the largest m, 16 MB). */
#define GRAD_BLOCK_ROWS 32

/* head_backward(), with the same numbers bit for bit, for a rows trace (t->rows): no
 * n x m table is kept. The rows i0 .. i0+b-1 of A are made again from Q and K (as
 * as_trace_row() makes them, as flash attention's backward pass does), then the same
 * steps on that block: dA = dO·Vᵀ, the softmax backward, d(QKᵀ), its rows of dQ, and
 * the block's terms of dV = Aᵀ·dO and dK = d(QKᵀ)ᵀ·Q added on in row order (each cell
 * the same running sum as one product over all the rows); with rope dQr and dKr so, and
 * the turn backwards once they are whole. -1 when memory ran out. */
static int head_backward_rows(as_grad_head *gh, const as_trace *t, size_t hd,
                              const as_matrix *dC, const as_problem *p)
{
    const as_head_trace *h = &t->head[hd];
    const size_t n = p->n, m = p->m, dk = p->d_k, dv = p->d_v;
    const size_t cells = GRAD_BLOCK_ROWS * (m ? m : 1);
    const score_sides sd = sides(gh, h);
    double *a = malloc(4 * cells * sizeof *a), *da = a + cells, *ds = da + cells;
    double *dqkt = ds + cells;
    as_row_trace r = {0};
    size_t i0, i;
    int rc = -1;

    if (a == NULL)
        return -1;
    as_take_columns(gh->dO.v, dC->v, n, dC->cols, hd * dv, dv);
    memset(gh->dV.v, 0, m * dv * sizeof *gh->dV.v); /* the running sums start at +0 */
    memset(sd.dk, 0, m * dk * sizeof *sd.dk);
    for (i0 = 0; i0 < n; i0 += GRAD_BLOCK_ROWS) {
        const size_t b = n - i0 < GRAD_BLOCK_ROWS ? n - i0 : GRAD_BLOCK_ROWS;
        const double *dO = gh->dO.v + i0 * dv;
        /* the forward's rows of A, made again */
        for (i = 0; i < b; i++) {
            if (as_trace_row(&r, t, p, hd, i0 + i) != 0)
                goto done;
            memcpy(a + i * m, r.A, m * sizeof *a);
        }
        /* step 4 backwards: O = A·V */
        as_matmul_tn_acc(gh->dV.v, a, dO, b, m, dv);
        as_scores_fast(da, dO, h->V.v, b, m, dv);
        /* step 3 backwards: the softmax along each row (masked cells stay 0) */
        as_softmax_backward_rows(ds, gh->rowdot.v + i0, da, a, b, m);
        /* step 2 backwards: the mask adds a constant, the scaling multiplies */
        as_scale(dqkt, ds, b * m, p->scale);
        /* step 1 backwards: QKᵀ */
        as_matmul_fast(sd.dq + i0 * dk, dqkt, sd.k, b, m, dk);
        as_matmul_tn_acc(sd.dk, dqkt, sd.q + i0 * dk, b, m, dk);
    }
    turn_back(gh, t, p);
    rc = 0;
done:
    as_row_trace_free(&r);
    free(a);
    return rc;
}

/* The projections backwards: dW = inputᵀ·d(result), a bias's gradient the column sums,
 * and each path's dX = d(result)·Wᵀ, added into dX (or dXkv for cross-attention). The
 * input is what the projections read: with sinusoidal positions X + PE (the trace's Xp);
 * PE is a constant, so the gradient of X + PE is X's own and dX needs no step more. */
static int projections(as_grad *g, const as_problem *p, const as_trace *t)
{
    const size_t n = p->n, m = p->m, dq = g->dQ.cols, dk = g->dK.cols, dv = g->dV.cols;
    const as_matrix *x = t->Xp.v != NULL ? &t->Xp : p->X;
    const as_matrix *xkv = !p->cross ? x : t->Xkvp.v != NULL ? &t->Xkvp : p->Xkv;
    as_matrix *dkv = p->cross ? &g->dXkv : &g->dX;
    double *path = malloc(m * p->d_kv_model * sizeof *path + 1);

    if (path == NULL)
        return -1;
    as_matmul_tn_fast(g->dWq.v, x->v, g->dQ.v, n, p->d_model, dq);
    as_matmul_tn_fast(g->dWk.v, xkv->v, g->dK.v, m, p->d_kv_model, dk);
    as_matmul_tn_fast(g->dWv.v, xkv->v, g->dV.v, m, p->d_kv_model, dv);
    if (p->bq != NULL)
        as_column_sums(g->dbq.v, g->dQ.v, n, dq);
    if (p->bk != NULL)
        as_column_sums(g->dbk.v, g->dK.v, m, dk);
    if (p->bv != NULL)
        as_column_sums(g->dbv.v, g->dV.v, m, dv);
    /* dX: the path through Q, then those through K and V */
    as_scores_fast(g->dX.v, g->dQ.v, p->Wq->v, n, p->d_model, dq);
    as_scores_fast(path, g->dK.v, p->Wk->v, m, p->d_kv_model, dk);
    if (p->cross)
        memcpy(dkv->v, path, m * p->d_kv_model * sizeof *path);
    else
        as_accumulate(dkv->v, path, m * p->d_kv_model);
    as_scores_fast(path, g->dV.v, p->Wv->v, m, p->d_kv_model, dv);
    as_accumulate(dkv->v, path, m * p->d_kv_model);
    free(path);
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The block around the layer (SPEC §15), backwards                                 */
/* ------------------------------------------------------------------------------ */

/* Which of the block's three norms (as block.c numbers them in p->ln_g, p->ln_b). */
enum { NORM1, NORM2, NORMF };

/* dx = norm k's backward of dy (what its record nt kept), and γ's and β's gradients
 * when the file gives them (RMSNorm has no β; norm: none neither). */
static int norm_backward(as_grad *g, as_matrix *dx, const as_matrix *dy,
                         const as_norm_trace *nt, int k, const as_problem *p)
{
    const size_t n = dy->rows, d = dy->cols;
    const int has_g = p->ln_g[k] != NULL && p->norm != AS_NORM_NONE;
    const int has_b = p->ln_b[k] != NULL && p->norm == AS_NORM_LAYER;

    if (as_matrix_init(dx, n, d) != 0 || (has_g && as_matrix_init(&g->dln_g[k], 1, d) != 0) ||
        (has_b && as_matrix_init(&g->dln_b[k], 1, d) != 0))
        return -1;
    as_norm_backward_rows(dx->v, has_g ? g->dln_g[k].v : NULL, has_b ? g->dln_b[k].v : NULL,
                          dy->v, nt->xhat.v, nt->centred.v, nt->var.v, nt->div.v,
                          p->ln_g[k] != NULL ? p->ln_g[k]->v : NULL, n, d, p->norm,
                          p->norm_style);
    return 0;
}

/* The FFN on x (N2 for pre, H1 for post) backwards from g->dD: D = F·Wdown + bdown,
 * the activation (swiglu: F = G ⊙ U, G = silu(Z), Z = x·Wgate), U = x·Wup + bup; dx
 * gets the gradient into x (the paths through Wup and Wgate added). */
static int ffn_backward(as_grad *g, as_matrix *dx, const as_matrix *x, const as_block_trace *b,
                        const as_problem *p)
{
    const size_t n = x->rows, dm = x->cols, ff = p->d_ff, cells = n * ff;
    const int glu = p->ffn == AS_FFN_SWIGLU;
    double *z = NULL, *path = NULL;
    int bad = as_matrix_init(&g->dWdown, ff, dm) | as_matrix_init(&g->dF, n, ff) |
              as_matrix_init(&g->dU, n, ff) | as_matrix_init(&g->dWup, dm, ff) |
              as_matrix_init(dx, n, dm);

    bad |= p->bdown ? as_matrix_init(&g->dbdown, 1, dm) : 0;
    bad |= p->bup ? as_matrix_init(&g->dbup, 1, ff) : 0;
    if (glu) {
        bad |= as_matrix_init(&g->dG, n, ff) | as_matrix_init(&g->dZ, n, ff) |
               as_matrix_init(&g->dWgate, dm, ff);
        bad |= (z = malloc(cells * sizeof *z + 1)) == NULL;
        bad |= (path = malloc(n * dm * sizeof *path + 1)) == NULL;
    }
    if (bad)
        goto done;
    /* D = F·Wdown + bdown */
    as_matmul_tn_fast(g->dWdown.v, b->F.v, g->dD.v, n, ff, dm);
    if (p->bdown != NULL)
        as_column_sums(g->dbdown.v, g->dD.v, n, dm);
    as_scores_fast(g->dF.v, g->dD.v, p->Wdown->v, n, ff, dm);
    if (glu) {
        /* F = G ⊙ U; G = silu(Z), Z made again as the forward made it (the trace keeps G) */
        as_hadamard(g->dU.v, g->dF.v, b->G.v, cells);
        as_hadamard(g->dG.v, g->dF.v, b->U.v, cells);
        as_matmul(z, x->v, p->Wgate->v, n, dm, ff);
        as_activation_backward(g->dZ.v, g->dG.v, z, cells, AS_FFN_SWIGLU);
        as_matmul_tn_fast(g->dWgate.v, x->v, g->dZ.v, n, dm, ff);
        as_scores_fast(path, g->dZ.v, p->Wgate->v, n, dm, ff);
    } else {
        /* F = act(U) */
        as_activation_backward(g->dU.v, g->dF.v, b->U.v, cells, p->ffn);
    }
    /* U = x·Wup + bup */
    as_matmul_tn_fast(g->dWup.v, x->v, g->dU.v, n, dm, ff);
    if (p->bup != NULL)
        as_column_sums(g->dbup.v, g->dU.v, n, ff);
    as_scores_fast(dx->v, g->dU.v, p->Wup->v, n, dm, ff);
    if (glu)
        as_accumulate(dx->v, path, n * dm);
done:
    free(z);
    free(path);
    return bad ? -1 : 0;
}

/* The block after the attention, from dY back to g->dO, the attention's output's:
 *   pre:  Y = normf(H2) | H2 = H1 + D | D = ffn(N2) | N2 = norm2(H1) | H1 = X + O
 *   post: Y = normf(H2) | H2 = norm2(R2), R2 = H1 + D | D = ffn(H1) | H1 = norm1(R1),
 *         R1 = X + O
 * (ffn: none: the last table is H1). A residual add passes its gradient to both sides. */
static int block_top(as_grad *g, const as_problem *p, const as_block_trace *b)
{
    const int pre = p->block == AS_BLOCK_PRE, has_ffn = p->ffn != AS_FFN_NONE;
    as_matrix *dlast = has_ffn ? &g->dH2 : &g->dH1;

    if (p->final_norm ? norm_backward(g, dlast, &g->dY, &b->normf, NORMF, p)
                      : as_matrix_copy(dlast, &g->dY))
        return -1;
    if (has_ffn) {
        if (!pre && norm_backward(g, &g->dR2, &g->dH2, &b->norm2, NORM2, p) != 0)
            return -1;
        if (as_matrix_copy(&g->dD, pre ? &g->dH2 : &g->dR2) != 0 ||
            ffn_backward(g, pre ? &g->dN2 : &g->dH1, pre ? &b->N2 : &b->H1, b, p) != 0)
            return -1;
        if (pre && norm_backward(g, &g->dH1, &g->dN2, &b->norm2, NORM2, p) != 0)
            return -1;
        as_accumulate(g->dH1.v, pre ? g->dH2.v : g->dR2.v, g->dH1.rows * g->dH1.cols);
    }
    if (!pre && norm_backward(g, &g->dR1, &g->dH1, &b->norm1, NORM1, p) != 0)
        return -1;
    return as_matrix_copy(&g->dO, pre ? &g->dH1 : &g->dR1);
}

/* After the attention's backward pass: its dX is the gradient of what it read (N1 for
 * pre, kept as dN1), and the file's X gets the residual's path added
 * (pre: dX = norm1's backward of dN1 + dH1; post: dX += dR1). */
static int block_bottom(as_grad *g, const as_problem *p, const as_block_trace *b)
{
    const size_t cells = g->dX.rows * g->dX.cols;

    if (p->block != AS_BLOCK_PRE) {
        as_accumulate(g->dX.v, g->dR1.v, cells);
        return 0;
    }
    g->dN1 = g->dX;
    memset(&g->dX, 0, sizeof g->dX);
    if (norm_backward(g, &g->dX, &g->dN1, &b->norm1, NORM1, p) != 0)
        return -1;
    as_accumulate(g->dX.v, g->dH1.v, cells);
    return 0;
}

/* Names the first cell of a gradient that left the double range. */
static int check_finite(const as_grad *g, const as_problem *p, as_error *err)
{
    const as_matrix *all[] = {&g->dO, &g->dC, &g->dQ, &g->dK, &g->dV, &g->dWq, &g->dWk,
                              &g->dWv, &g->dX, &g->dXkv, &g->dWo, &g->dH2, &g->dF,
                              &g->dU, &g->dG, &g->dN2, &g->dH1, &g->dN1, &g->dWup,
                              &g->dWdown, &g->dWgate};
    static const char *const name[] = {"dO", "dC", "dQ", "dK", "dV", "dWq", "dWk", "dWv",
                                       "dX", "dXkv", "dWo", "dH2", "dF", "dU", "dG", "dN2",
                                       "dH1", "dN1", "dWup", "dWdown", "dWgate"};
    size_t k, i;

    for (k = 0; k < sizeof all / sizeof all[0]; k++)
        for (i = 0; i < all[k]->rows * all[k]->cols; i++)
            if (!isfinite(all[k]->v[i])) {
                as_error_msg(err, p->in->path, 0, 0, AS_MSG_GRAD_RANGE, name[k],
                             i / all[k]->cols, i % all[k]->cols);
                as_error_hint_msg(err, AS_MSG_HINT_GRAD_RANGE);
                return -1;
            }
    return 0;
}

int as_grad_run(as_grad *g, const as_problem *p, const as_trace *t, as_error *err)
{
    const as_matrix *dC = p->Wo != NULL ? &g->dC : &g->dO;
    size_t hd;

    /* with a block, its tables after the attention first: they make the attention's dO */
    if (t->block != NULL && block_top(g, p, t->block) != 0)
        goto nomem;
    if (alloc_all(g, p, t->rows) != 0)
        goto nomem;
    /* the output projection, when there is one: its input C gets dC */
    if (p->Wo != NULL)
        output_projection(g, p, t);
    /* each head, and its pieces placed side by side in dQ; a K/V head shared by a group
     * of query heads (kv_heads) gathers the sum of their dK and dV */
    for (hd = 0; hd < p->heads; hd++) {
        as_grad_head *gh = &g->head[hd];
        const size_t kvh = as_kv_head(p, hd);
        if (!t->rows)
            head_backward(gh, t, hd, dC, p);
        else if (head_backward_rows(gh, t, hd, dC, p) != 0)
            goto nomem;
        as_put_columns(g->dQ.v, gh->dQ.v, p->n, g->dQ.cols, hd * p->d_k, p->d_k);
        as_add_columns(g->dK.v, gh->dK.v, p->m, g->dK.cols, kvh * p->d_k, p->d_k);
        as_add_columns(g->dV.v, gh->dV.v, p->m, g->dV.cols, kvh * p->d_v, p->d_v);
    }
    /* the three projections, back to the weights, the biases and the input */
    if (projections(g, p, t) != 0)
        goto nomem;
    if (t->block != NULL && block_bottom(g, p, t->block) != 0)
        goto nomem;
    return check_finite(g, p, err);
nomem:
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* Row i of the table h reads, made again (see as_grad_rows_open()). */
static const double *grad_row(void *ctx, size_t i)
{
    as_grad_rows *h = ctx;
    const as_problem *p = h->p;
    const as_grad_head *gh = &h->g->head[h->hd];
    const size_t m = p->m, dv = p->d_v;
    double *da, *ds;

    if (h->room == NULL && (h->room = malloc(3 * (m ? m : 1) * sizeof *h->room)) == NULL)
        return NULL;
    if (as_trace_row(&h->r, h->t, p, h->hd, i) != 0)
        return NULL;
    da = h->room, ds = h->room + m;
    /* the steps of head_backward_rows() on one row: each cell the same sum */
    as_scores(da, gh->dO.v + i * dv, h->t->head[h->hd].V.v, 1, m, dv);
    if (h->which == AS_GRAD_DA)
        return da;
    as_softmax_backward_rows(ds, NULL, da, h->r.A, 1, m);
    if (h->which == AS_GRAD_DS)
        return ds;
    as_scale(ds + m, ds, m, p->scale);
    return ds + m;
}

as_rows as_grad_rows_open(as_grad_rows *h, const as_grad *g, const as_problem *p,
                          const as_trace *t, size_t hd, as_grad_square which)
{
    const as_grad_head *gh = &g->head[hd];
    const as_matrix *m = which == AS_GRAD_DA ? &gh->dA : which == AS_GRAD_DS ? &gh->dS : &gh->dQKT;

    *h = (as_grad_rows){g, p, t, hd, which, {0}, NULL};
    if (!t->rows)
        return as_rows_of(m);
    return (as_rows){p->n, p->m, grad_row, h, 0};
}

void as_grad_rows_close(as_grad_rows *h)
{
    as_row_trace_free(&h->r);
    free(h->room);
    h->room = NULL;
}

void as_grad_free(as_grad *g)
{
    as_matrix *top[] = {&g->dO, &g->dWo, &g->dbo, &g->dC, &g->dQ, &g->dK, &g->dV, &g->dWq,
                        &g->dWk, &g->dWv, &g->dbq, &g->dbk, &g->dbv, &g->dX, &g->dXkv,
                        &g->dY, &g->dH2, &g->dD, &g->dF, &g->dG, &g->dU, &g->dZ,
                        &g->dWdown, &g->dbdown, &g->dWup, &g->dbup, &g->dWgate, &g->dN2,
                        &g->dH1, &g->dN1, &g->dR1, &g->dR2, &g->dln_g[0], &g->dln_g[1],
                        &g->dln_g[2], &g->dln_b[0], &g->dln_b[1], &g->dln_b[2]};
    size_t h, k;

    for (h = 0; h < g->heads; h++) {
        as_grad_head *gh = &g->head[h];
        as_matrix *each[] = {&gh->dO, &gh->dV, &gh->dA, &gh->rowdot, &gh->dS, &gh->dQKT,
                             &gh->dQr, &gh->dKr, &gh->dQ, &gh->dK};
        for (k = 0; k < sizeof each / sizeof each[0]; k++)
            as_matrix_free(each[k]);
    }
    free(g->head);
    for (k = 0; k < sizeof top / sizeof top[0]; k++)
        as_matrix_free(top[k]);
    memset(g, 0, sizeof *g);
}
