/* generate.c - `attnstep generate FILE N` (SPEC §19). Step t, for t = 0 … n0+N-2:
 *   1-3. the decode's step t (decode.c): with block: pre, N1's row t = norm1(x_t);
 *      q_t, k_t, v_t, the cache, row t of O; with a block, the rest of it on row t: H1,
 *      N2, the FFN, H2, Y (block.c's row steps, which decode calls);
 *   4. from the last prompt row on, the head on that row (h = row t of O or Y): the
 *      logits, the temperature, the cuts, the draw (outhead.c); the token's row of E,
 *      plus P's row of its position, becomes row t+1 of X.
 * Every row is made by the same steps, in the same order, as the whole run makes it, so
 * the rows are the run's on the finished sequence, bit for bit. */
#include "attnstep/generate.h"
#include "attnstep/block.h"
#include "attnstep/session.h"
#include "attnstep/steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oom(const as_input *in, as_error *err)
{
    as_error_msg(err, in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* The embedding table a token's row comes from (E), and P's learned positions (or
 * NULL). */
static const as_matrix *embedding(const as_problem *p, const as_matrix **P)
{
    const as_embedding *emb = &p->in->emb;

    *P = emb->positions.v != NULL ? &emb->positions : NULL;
    return emb->table.v != NULL ? &emb->table : NULL;
}

/* What generate needs beyond the run: a head, an E as wide as X to append a token by, a
 * mask that grows with the sequence. */
static int check_input(const as_input *in, as_error *err)
{
    if (in->out.head == AS_HEAD_NONE) {
        as_error_msg(err, in->path, 0, 0, AS_MSG_GEN_NO_HEAD);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_NO_HEAD);
        return -1;
    }
    if (in->model.path != NULL && in->model.layer > 0) { /* a new row would have to pass the
                                                           layers before first (layers.c) */
        as_error_msg(err, in->path, in->model.pos.line, in->model.pos.col, AS_MSG_GEN_MODEL_LAYER,
                     in->model.layer, in->model.layer);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_MODEL_LAYER, in->model.layer);
        return -1;
    }
    if (in->mat[AS_M].given) {
        as_error_msg(err, in->path, in->mat[AS_M].pos.line, in->mat[AS_M].pos.col,
                     AS_MSG_GEN_MASK_MATRIX);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_MASK_MATRIX);
        return -1;
    }
    return 0;
}

static int check_problem(const as_generate *g, const as_problem *p, as_error *err)
{
    const as_matrix *P, *E = embedding(p, &P);
    const as_pos at = p->in->out.head_pos;
    const size_t last = g->n0 + g->count - 1; /* the last row's P row (ids: took P[0:n]) */

    if (E == NULL) {
        as_error_msg(err, p->in->path, at.line, at.col, AS_MSG_GEN_NO_E);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_NO_E);
        return -1;
    }
    if (E->cols != p->d_model) {
        as_error_msg(err, p->in->path, at.line, at.col, AS_MSG_GEN_E_WIDTH, E->cols, p->d_model);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_E_WIDTH);
        return -1;
    }
    if (E->rows != p->vocab) {
        as_error_msg(err, p->in->path, at.line, at.col, AS_MSG_GEN_VOCAB, p->vocab, E->rows);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_VOCAB);
        return -1;
    }
    if (P != NULL && last >= P->rows) {
        as_error_msg(err, p->in->path, at.line, at.col, AS_MSG_GEN_P_SHORT, last, P->rows);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_P_SHORT);
        return -1;
    }
    return 0;
}

/* The input the run reads: the file's, with X the grown table's first n rows and a label
 * for each row (the file's, or the row's number; a token's id once it is drawn). */
static int grow(as_generate *g, const as_input *in, size_t n, as_error *err)
{
    const as_matrix *x = &in->mat[AS_X].m;
    size_t i;

    g->in = *in;
    if (as_matrix_init(&g->X, n + 1, x->cols) != 0 ||
        (g->labels = calloc(n, sizeof *g->labels)) == NULL)
        return oom(in, err);
    memcpy(g->X.v, x->v, x->rows * x->cols * sizeof *x->v);
    for (i = 0; i < n; i++) {
        const char *given = i < in->tokens.count ? in->tokens.label[i] : NULL;
        const size_t len = given ? strlen(given) : 0;
        if ((g->labels[i] = malloc(len + 24)) == NULL)
            return oom(in, err);
        if (given != NULL)
            memcpy(g->labels[i], given, len + 1);
        else
            snprintf(g->labels[i], 24, "%zu", i);
    }
    g->in.mat[AS_X].m = (as_matrix){n, x->cols, g->X.v};
    g->in.tokens.label = g->labels;
    g->in.tokens.count = n;
    return 0;
}

/* One row of a table as a table of its own (borrowed). */
static as_matrix row_of(const as_matrix *m, size_t t)
{
    return (as_matrix){1, m->cols, &AS_AT(*m, t, 0)};
}

/* Steps 1-3 were decode's (the block's row steps around the attention's): row t of
 * the layer's final table, Y with a block, else O, into H's row t. */
static void final_row(as_generate *g, size_t t)
{
    const as_matrix *last = g->p.block != AS_BLOCK_NONE ? &g->d.blk.Y : &g->d.O;

    memcpy(&AS_AT(g->H, t, 0), &AS_AT(*last, t, 0), g->H.cols * sizeof *g->H.v);
}

/* Step 4: the head on H's row t; the token's row of E (+ P) becomes X's row t+1. */
static int draw(as_generate *g, size_t k, size_t t, as_error *err)
{
    as_head_opts opts = as_problem_head_opts(&g->p);
    const as_matrix *E = g->E, *P = g->P;
    const as_matrix h = row_of(&g->H, t);
    double *x = &AS_AT(g->X, t + 1, 0);
    size_t tok;

    opts.rng = &g->rng;
    if (as_session_head(&g->head[k], &g->p, &h, &opts, err) != 0)
        return -1;
    tok = g->tokens[k] = g->head[k].token;
    memcpy(x, &AS_AT(*E, tok, 0), E->cols * sizeof *x);
    if (P != NULL)
        as_residual_add(x, x, &AS_AT(*P, t + 1, 0), E->cols); /* P[0:n] as ids: took it */
    if (t + 1 < g->p.n)
        snprintf(g->labels[t + 1], 24, "%zu", tok);
    return 0;
}

/* Steps 1-4 for every row. */
static int steps(as_generate *g, as_error *err)
{
    size_t t;

    for (t = 0; t < g->p.n; t++) {
        if (as_decode_step(&g->d, &g->p, t, err) != 0)
            return -1;
        final_row(g, t);
        if (t + 1 >= g->n0 && draw(g, t + 1 - g->n0, t, err) != 0)
            return -1;
    }
    return 0;
}

int as_generate_run(as_generate *g, const as_input *in, size_t count, as_mask_kind mask_override,
                    size_t offset, as_error *err)
{
    const size_t n0 = in->mat[AS_X].m.rows;

    memset(g, 0, sizeof *g);
    g->n0 = n0;
    g->count = count;
    if (check_input(in, err) != 0)
        return -1;
    if (count == 0 || n0 == 0 || count > AS_MAX_DIM || n0 + count - 1 > AS_MAX_DIM) {
        as_error_msg(err, in->path, 0, 0, AS_MSG_GEN_TOO_LONG, n0, count, (size_t)AS_MAX_DIM);
        as_error_hint_msg(err, AS_MSG_HINT_GEN_TOO_LONG);
        return -1;
    }
    if (grow(g, in, n0 + count - 1, err) != 0 ||
        as_problem_build(&g->p, &g->in, mask_override, err) != 0)
        goto fail;
    g->p.offset = offset;
    if (check_problem(g, &g->p, err) != 0)
        goto fail;
    g->E = embedding(&g->p, &g->P);
    if ((g->tokens = calloc(count, sizeof *g->tokens)) == NULL ||
        (g->head = calloc(count, sizeof *g->head)) == NULL ||
        as_matrix_init(&g->H, g->p.n, g->p.block != AS_BLOCK_NONE ? g->p.d_model : g->p.d_out) != 0) {
        oom(in, err);
        goto fail;
    }
    as_prng_seed(&g->rng, g->p.seed);
    if (as_decode_begin(&g->d, &g->p, err) != 0 || steps(g, err) != 0)
        goto fail;
    return 0;
fail:
    as_generate_free(g);
    return -1;
}

void as_generate_free(as_generate *g)
{
    size_t i;

    for (i = 0; g->head != NULL && i < g->count; i++)
        as_out_head_free(&g->head[i]);
    free(g->head);
    free(g->tokens);
    as_decode_free(&g->d);
    as_problem_free(&g->p);
    for (i = 0; g->labels != NULL && i < g->n0 + g->count - 1; i++)
        free(g->labels[i]);
    free(g->labels);
    as_matrix_free(&g->X);
    as_matrix_free(&g->H);
    memset(g, 0, sizeof *g);
}
