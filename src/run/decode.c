/* decode.c - generation with a KV cache (SPEC §11): the run of `attnstep decode`.
 *
 * Step t, as a decoder runs it:
 *   1. project only row t of X: q_t = x_t Wq + bq, k_t = x_t Wk + bk, v_t = x_t Wv + bv;
 *   2. append k_t and v_t to the cache of their K/V head;
 *   3. for each head: score q_t against the cached Keys it may read, scale, add M's
 *      cell, softmax, and mix the cached Values by the shares;
 *   4. the heads side by side, then Wo: row t of O.
 * Each sum runs over the same terms in the same order as the whole-matrix run in
 * attention.c (whose kernels are bit for bit the plain products), so each row is the
 * run's row bit for bit; where the run adds a forbidden cell's exact 0 (a share of 0,
 * an exp of 0), this loop skips it, which changes no bit: x + 0 = x, and no sum here
 * starts below +0 or can become -0.
 * With block: step t is wrapped in the block's own row steps (block.c): before it, for
 * pre, N1's row t (what the attention reads); after it, the rest of the block on row t. */
#include "attnstep/decode.h"
#include "attnstep/expvec.h"
#include "attnstep/kernels.h"
#include "attnstep/mask.h"
#include "attnstep/positions.h"
#include "attnstep/steps.h"
#include "attnstep/steps_gen.h"
#include "attnstep/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

/* What decode cannot do: read another sequence, or read a position before it exists.
 * mrow: room for a row of the mask [m], made one row at a time. */
static int check_decodable(double *mrow, const as_problem *p, as_error *err)
{
    const as_pos xkv = p->in->mat[AS_XKV].pos, m = p->in->mat[AS_M].pos;
    size_t i, j;

    if (p->cross) {
        as_error_msg(err, p->in->path, xkv.line, xkv.col, AS_MSG_DECODE_CROSS);
        as_error_hint_msg(err, AS_MSG_HINT_DECODE_CROSS);
        return -1;
    }
    for (i = 0; i < p->n; i++) {
        as_mask_row(mrow, p, i);
        for (j = i + 1; j < p->m; j++)
            if (mrow[j] != -INFINITY) {
                as_error_msg(err, p->in->path, m.line, m.col, AS_MSG_DECODE_FUTURE, i, j, i);
                as_error_hint_msg(err, AS_MSG_HINT_DECODE_FUTURE);
                return -1;
            }
    }
    return 0;
}

/* ---- the tables ---- */

static as_matrix *tables(size_t count)
{
    return calloc(count, sizeof(as_matrix));
}

static void free_tables(as_matrix *m, size_t count)
{
    size_t i;

    for (i = 0; m != NULL && i < count; i++)
        as_matrix_free(&m[i]);
    free(m);
}

/* Nonzero when keeping S and A for every head would pass the limit the full run has
 * (SPEC §10): heads x n x n numbers. */
static int keep_too_large(const as_problem *p, as_error *err)
{
    if (p->heads <= AS_MAX_CELLS / (p->n * p->n))
        return 0;
    as_error_msg(err, p->in->path, p->in->heads_pos.line, p->in->heads_pos.col,
                 AS_MSG_RUN_HEADS_CELLS, p->heads, p->n, p->n, AS_MAX_CELLS);
    as_error_hint_msg(err, AS_MSG_HINT_DECODE_CELLS);
    return -1;
}

static int alloc_decode(as_decode *d, const as_problem *p, int keep)
{
    size_t g, h;
    int bad = 0;

    d->n = p->n;
    d->heads = p->heads;
    d->kv_heads = p->kv_heads;
    d->keep = keep;
    d->K = tables(p->kv_heads);
    d->KT = calloc(p->kv_heads, sizeof *d->KT);
    d->V = tables(p->kv_heads);
    d->reads = calloc(p->n, sizeof *d->reads);
    d->first = calloc(p->n, sizeof *d->first);
    d->full = calloc(p->n, sizeof *d->full);
    if (d->K == NULL || d->KT == NULL || d->V == NULL || d->reads == NULL || d->first == NULL || d->full == NULL)
        return -1;
    bad |= as_matrix_init(&d->Q, p->n, p->heads * p->d_k) |
           as_matrix_init(&d->C, p->n, p->heads * p->d_v) | as_matrix_init(&d->O, p->n, p->d_out);
    for (g = 0; g < p->kv_heads; g++)
        bad |= as_matrix_init(&d->K[g], p->n, p->d_k) |
               as_matrix_init(&d->V[g], p->n, p->d_v) |
               ((d->KT[g] = calloc(AS_PANEL_SIZE(p->n, p->d_k) + 1, sizeof(double))) == NULL);
    if (!keep)
        return bad;
    if ((d->Oh = tables(p->heads)) == NULL)
        return -1;
    for (h = 0; h < p->heads; h++)
        bad |= as_matrix_init(&d->Oh[h], p->n, p->d_v);
    return bad;
}

/* ---- one step ---- */

static int all_finite(const double *v, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* Scratch of the run: a block of k and v rows, one head's scores and shares. */
typedef struct step_scratch {
    size_t ahead;   /* rows projected together: 1, or AS_DECODE_AHEAD without keep */
    double *k, *v;  /* [ahead, kv_heads*d_k], [ahead, kv_heads*d_v] */
    double *s, *a;  /* [n] */
    double *mrow;   /* [n] the mask's row of the step */
    double *xp;     /* positions: sinusoidal: [ahead, d_model] the rows plus their encoding */
    double *turn;   /* positions: rope: [max(d_k, 1)] one turned head row, then [d_k/2]
                       each: the row's angles, their cosines and sines */
} step_scratch;

/* out[rows, w] = x[rows, d] @ W[d, w] (+ b): rows' projections, as the run's product
 * makes them (the fast kernel: each cell the same sum, in the same order). */
static void project_rows(double *out, const double *x, size_t rows, const as_matrix *w,
                         const as_matrix *b)
{
    if (rows == 1)
        as_matmul(out, x, w->v, 1, w->rows, w->cols);
    else
        as_matmul_fast(out, x, w->v, rows, w->rows, w->cols);
    if (b != NULL)
        as_add_bias(out, b->v, rows, w->cols);
}

/* positions: rope: q_t's heads and k_t's K/V heads turned by the angles of position
 * offset + t, each as the run turns that row (as_rope_angles, then as_rope, one row). */
static void turn_row(as_decode *d, const as_problem *p, size_t t, double *k, double *turn)
{
    double *angle = turn + p->d_k, *cs = angle + p->d_k / 2, *sn = cs + p->d_k / 2;
    size_t h;

    as_rope_angles(angle, cs, sn, 1, p->d_k, p->rope_base, p->offset + t);
    for (h = 0; h < p->heads; h++) {
        double *q = &AS_AT(d->Q, t, h * p->d_k);
        as_rope(turn, q, 1, p->d_k, cs, sn, p->rope);
        memcpy(q, turn, p->d_k * sizeof *q);
    }
    for (h = 0; h < p->kv_heads; h++) {
        as_rope(turn, k + h * p->d_k, 1, p->d_k, cs, sn, p->rope);
        memcpy(k + h * p->d_k, turn, p->d_k * sizeof *k);
    }
}

/* What the attention reads: p, or for block: pre p with X the rows of N1 made so far;
 * the block's own steps are around the attention's (block_step). */
static as_problem attending(const as_decode *d, const as_problem *p)
{
    as_problem q = *p;

    if (p->block == AS_BLOCK_PRE)
        q.X = q.Xkv = &d->blk.N1;
    q.block = AS_BLOCK_NONE;
    return q;
}

/* A row step's one-row trace (made when rc is 0) kept as row t of d->blk, then freed. */
static int keep_row(as_decode *d, const as_problem *p, size_t t, as_block_trace *one, int rc,
                    as_error *err)
{
    if (rc != 0)
        return -1;
    rc = as_block_put_row(&d->blk, one, t, p->n);
    as_block_trace_free(one);
    if (rc != 0)
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return rc;
}

/* pre: N1's row t = norm1(x_t), with norm1's sub-steps, into d->blk. */
static int norm_row(as_decode *d, const as_problem *p, size_t t, as_error *err)
{
    as_block_trace one;

    if (p->block != AS_BLOCK_PRE)
        return 0;
    return keep_row(d, p, t, &one, as_block_row_begin(&one, p, t, err), err);
}

/* The rest of the block on row t, from row t of O: H1, N2, the FFN, H2, Y into d->blk. */
static int finish_row(as_decode *d, const as_problem *p, size_t t, as_error *err)
{
    as_block_trace one;

    if (p->block == AS_BLOCK_NONE)
        return 0;
    return keep_row(d, p, t, &one, as_block_row_finish(&one, &AS_AT(d->O, t, 0), p, t, err), err);
}

/* Steps 1-2: q_t, k_t, v_t, and k_t, v_t appended to their heads' caches. With ahead
 * rows to a block (the lean run), the block's rows are projected together when its
 * first step comes: the rows of X are all given, and a projection reads the whole
 * weight table, so once per block instead of once per row. */
static int project_step(as_decode *d, const as_problem *p, size_t t, step_scratch *w)
{
    const size_t r = t % w->ahead;
    const size_t rows = p->n - t + r < w->ahead ? p->n - t + r : w->ahead;
    double *k = w->k + r * p->Wk->cols;
    const double *v = w->v + r * p->Wv->cols;
    size_t g;

    if (r == 0) {
        const double *x = &AS_AT(*p->X, t, 0);
        if (p->positions == AS_POSITIONS_SINUSOIDAL) { /* x + pe, as the run adds them */
            as_sinusoidal(w->xp, rows, p->d_model, p->offset + t);
            as_add_mask(w->xp, x, w->xp, rows * p->d_model);
            x = w->xp;
        }
        project_rows(&AS_AT(d->Q, t, 0), x, rows, p->Wq, p->bq);
        project_rows(w->k, x, rows, p->Wk, p->bk);
        project_rows(w->v, x, rows, p->Wv, p->bv);
    }
    if (p->positions == AS_POSITIONS_ROPE)
        turn_row(d, p, t, (double *)k, w->turn);
    if (!all_finite(&AS_AT(d->Q, t, 0), d->Q.cols) || !all_finite(k, p->Wk->cols) ||
        !all_finite(v, p->Wv->cols))
        return -1;
    for (g = 0; g < p->kv_heads; g++) {
        size_t i;
        memcpy(&AS_AT(d->K[g], t, 0), k + g * p->d_k, p->d_k * sizeof *k);
        for (i = 0; i < p->d_k; i++)
            d->KT[g][AS_PANEL_AT(t, i, p->d_k)] = k[g * p->d_k + i]; /* the same Key,
                                                                           panelled */
        memcpy(&AS_AT(d->V[g], t, 0), v + g * p->d_v, p->d_v * sizeof *v);
    }
    return 0;
}

/* Step 3 for head hd: scores of q_t against cache rows first..t, softmax, mix into
 * o[d_v]. s, a and the mask's row t, M, are indexed by position (0..t). Returns 0, -1
 * (out of range) or -2 (nothing readable). */
static int head_step(const as_decode *d, const as_problem *p, size_t hd, size_t t,
                     const double *M, double *s, double *a, double *o)
{
    const size_t g = as_kv_head(p, hd), first = d->first[t];
    double max = -INFINITY, total = 0.0;
    size_t j;

    as_scores_cached(s, &AS_AT(d->Q, t, hd * p->d_k), d->KT[g], p->d_k, first, t);
    for (j = first; j <= t; j++) {
        const double scaled = s[j] * p->scale; /* scale, then add M: two roundings, */
        if (!isfinite(s[j]) || !isfinite(scaled))
            return -1;
        s[j] = scaled;                         /* as the run makes them */
        if (p->positions == AS_POSITIONS_ALIBI) /* ALiBi's bias, as as_alibi_bias() */
            s[j] = scaled + -d->slopes[hd] * ((double)t - (double)j);
        s[j] = s[j] + M[j];
        if (s[j] > max)
            max = s[j];
    }
    if (max == -INFINITY)
        return -2;
    for (j = first; j <= t; j++)
        a[j] = s[j] == -INFINITY ? -INFINITY : s[j] - max;
    as_exp_many(a + first, a + first, t + 1 - first); /* exp(-inf) is exactly 0 */
    for (j = first; j <= t; j++)
        total += a[j];
    for (j = first; j <= t; j++)
        a[j] /= total;
    as_mix_cached(o, a, d->V[g].v, p->d_v, first, t);
    return all_finite(o, p->d_v) ? 0 : -1;
}

/* The first position step t may read: 0, or later in a window. */
static size_t first_read(const as_problem *p, size_t t)
{
    return p->mask == AS_MASK_WINDOW && t + 1 > p->window ? t + 1 - p->window : 0;
}

/* The positions step t may read under the mask's row t, M: first..t, and how many. */
static void reading(as_decode *d, const as_problem *p, size_t t, const double *M)
{
    size_t j, count = 0;

    d->first[t] = first_read(p, t);
    for (j = d->first[t]; j <= t; j++)
        count += M[j] != -INFINITY;
    d->reads[t] = count;
    /* the work, counted in dot products of a Query with a Key: this step reads count
     * Keys per head; recomputing rows 0..t from scratch scores every one of them again */
    d->full[t] = (t > 0 ? d->full[t - 1] : 0) + count * p->heads;
    d->dots += count * p->heads;
    d->dots_full += d->full[t];
    d->rows_full += t + 1;
}

static int out_of_range(const as_problem *p, size_t t, as_error *err)
{
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_DECODE_RANGE, t, p->tokens[t]);
    as_error_hint_msg(err, AS_MSG_HINT_RUN_RANGE);
    return -1;
}

/* Step 4: once the last row of a block is done (every row when ahead is 1), its rows
 * of C through Wo (or copied): rows of O. */
static int output_rows(as_decode *d, const as_problem *p, size_t t, size_t ahead,
                       as_error *err)
{
    const size_t first = t - t % ahead, rows = t + 1 - first;

    if (t + 1 < p->n && (t + 1) % ahead != 0)
        return 0; /* the block is not complete yet */
    if (p->Wo != NULL)
        project_rows(&AS_AT(d->O, first, 0), &AS_AT(d->C, first, 0), rows, p->Wo, p->bo);
    else
        memcpy(&AS_AT(d->O, first, 0), &AS_AT(d->C, first, 0), rows * d->C.cols * sizeof(double));
    return all_finite(&AS_AT(d->O, first, 0), rows * d->O.cols) ? 0 : out_of_range(p, t, err);
}

/* A head step that failed: rc -2, no readable position; else out of range. */
static int head_failed(const as_problem *p, size_t t, int rc, as_error *err)
{
    if (rc != -2)
        return out_of_range(p, t, err);
    as_error_msg(err, p->in->path, p->in->mat[AS_M].pos.line, p->in->mat[AS_M].pos.col,
                 AS_MSG_RUN_NO_READABLE, (long)t, p->tokens[t]);
    as_error_hint_msg(err, AS_MSG_HINT_NO_READABLE);
    return -1;
}

/* Steps 3-4 of step t: every head from the cache, then the heads side by side and Wo. */
static int attend_step(as_decode *d, const as_problem *p, size_t t, step_scratch *w,
                       as_error *err)
{
    double *c = &AS_AT(d->C, t, 0);
    size_t hd;
    int rc;

    for (hd = 0; hd < p->heads; hd++) {
        rc = head_step(d, p, hd, t, w->mrow, w->s, w->a, c + hd * p->d_v);
        if (rc != 0)
            return head_failed(p, t, rc, err);
        if (d->keep)
            memcpy(&AS_AT(d->Oh[hd], t, 0), c + hd * p->d_v, p->d_v * sizeof *c);
    }
    return output_rows(d, p, t, w->ahead, err);
}

/* ---- the lean decode of a large layer: a block's heads on two threads ---- */

/* One thread's heads (first, first + 2, ...) over the steps t0 .. t0 + rows - 1 of a
 * block whose rows are all in the cache already: each step still reads only the cache
 * rows up to its own. */
typedef struct head_job {
    as_decode *d;
    const as_problem *p;
    size_t first, t0, rows;
    double *s, *a, *M; /* [n] scratch */
    size_t bad_t;      /* the first step that failed, with its rc */
    int rc;
} head_job;

static void head_job_run(void *arg)
{
    head_job *j = arg;
    size_t hd, t;
    int rc;

    for (hd = j->first; hd < j->p->heads; hd += 2)
        for (t = j->t0; t < j->t0 + j->rows; t++) {
            as_mask_row(j->M, j->p, t);
            rc = head_step(j->d, j->p, hd, t, j->M, j->s, j->a, &AS_AT(j->d->C, t, hd * j->p->d_v));
            if (rc != 0 && (j->rc == 0 || t < j->bad_t)) {
                j->rc = rc, j->bad_t = t;
                break;
            }
        }
}

/* Nonzero when the heads of a lean decode are worth two threads. */
static int two_threads(const as_decode *d, const as_problem *p)
{
    return !d->keep && p->heads >= 2 &&
           (double)p->heads * (double)p->n * (double)p->n * (double)(p->d_k + p->d_v) >=
               AS_THREAD_MIN_WORK;
}

/* Steps 1-4 of the block of rows from t0: every row projected and cached (as each step
 * would), then the heads, on two threads, then the block's output rows. */
static int block_two_threads(as_decode *d, const as_problem *p, size_t t0, step_scratch *w,
                             double *s2, double *a2, double *m2, as_error *err)
{
    const size_t rows = p->n - t0 < w->ahead ? p->n - t0 : w->ahead;
    head_job j[2] = {{d, p, 0, t0, rows, w->s, w->a, w->mrow, 0, 0},
                     {d, p, 1, t0, rows, s2, a2, m2, 0, 0}};
    size_t t;

    for (t = t0; t < t0 + rows; t++) {
        as_mask_row(w->mrow, p, t);
        reading(d, p, t, w->mrow);
        if (project_step(d, p, t, w) != 0)
            return out_of_range(p, t, err);
    }
    as_two_threads(head_job_run, &j[0], head_job_run, &j[1]);
    if (j[0].rc != 0 || j[1].rc != 0) {
        const head_job *f = j[1].rc != 0 && (j[0].rc == 0 || j[1].bad_t < j[0].bad_t) ? &j[1] : &j[0];
        return head_failed(p, f->bad_t, f->rc, err);
    }
    return output_rows(d, p, t0 + rows - 1, w->ahead, err);
}

/* Every step, one after the other; or, for a large lean decode, a block at a time. */
static int steps(as_decode *d, const as_problem *p, step_scratch *w, as_error *err)
{
    double *s2 = NULL, *a2 = NULL, *m2 = NULL;
    size_t t;
    int rc = 0;

    if (two_threads(d, p)) {
        s2 = malloc(p->n * sizeof *s2);
        a2 = malloc(p->n * sizeof *a2);
        m2 = malloc(p->n * sizeof *m2);
        for (t = 0; rc == 0 && s2 != NULL && a2 != NULL && m2 != NULL && t < p->n; t += w->ahead)
            rc = block_two_threads(d, p, t, w, s2, a2, m2, err);
        free(s2), free(a2), free(m2);
        if (s2 != NULL && a2 != NULL && m2 != NULL)
            return rc;
        /* no memory for a second scratch: one thread, step by step */
    }
    for (t = 0; t < p->n; t++) {
        as_mask_row(w->mrow, p, t);
        reading(d, p, t, w->mrow);
        if (project_step(d, p, t, w) != 0)
            return out_of_range(p, t, err);
        if (attend_step(d, p, t, w, err) != 0)
            return -1;
    }
    return 0;
}

static void scratch_free(step_scratch *w)
{
    free(w->k), free(w->v), free(w->s), free(w->a), free(w->mrow), free(w->xp), free(w->turn);
    memset(w, 0, sizeof *w);
}

/* The decode's tables and the scratch w of its steps, p checked first. Returns 0; or -1
 * with err set, d and w freed. The model checked p: n, m, d_model, heads, d_k and d_v are
 * each at least 1 (no table is empty), so no size asked for here is 0. */
static int setup(as_decode *d, step_scratch *w, const as_problem *p, int keep, as_error *err)
{
    memset(d, 0, sizeof *d);
    memset(w, 0, sizeof *w);
    if ((w->mrow = malloc((p->m > p->n ? p->m : p->n) * sizeof *w->mrow)) == NULL) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    if (check_decodable(w->mrow, p, err) != 0 || (keep && keep_too_large(p, err) != 0))
        goto fail;
    w->ahead = keep || p->n < 2 ? 1 : AS_DECODE_AHEAD;
    w->k = malloc(w->ahead * p->Wk->cols * sizeof *w->k);
    w->v = malloc(w->ahead * p->Wv->cols * sizeof *w->v);
    w->s = malloc(p->n * sizeof *w->s);
    w->a = malloc(p->n * sizeof *w->a);
    w->xp = malloc(w->ahead * p->d_model * sizeof *w->xp);
    w->turn = malloc(p->d_k * 3 * sizeof *w->turn); /* d_k + 3 × d_k/2 */
    d->slopes = calloc(p->heads, sizeof *d->slopes);
    if (d->slopes != NULL && p->positions == AS_POSITIONS_ALIBI)
        as_alibi_slopes(d->slopes, p->heads);
    if (w->k == NULL || w->v == NULL || w->s == NULL || w->a == NULL || w->xp == NULL ||
        w->turn == NULL || d->slopes == NULL || alloc_decode(d, p, keep)) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        goto fail;
    }
    return 0;
fail:
    scratch_free(w);
    as_decode_free(d);
    return -1;
}

/* Step t whole: the block's norm (pre), the attention's steps 1-4, the block's rest. */
static int block_step(as_decode *d, const as_problem *p, size_t t, step_scratch *w,
                      as_error *err)
{
    const as_problem q = attending(d, p);

    if (norm_row(d, p, t, err) != 0)
        return -1;
    as_mask_row(w->mrow, &q, t);
    reading(d, &q, t, w->mrow);
    if (project_step(d, &q, t, w) != 0)
        return out_of_range(&q, t, err);
    if (attend_step(d, &q, t, w, err) != 0)
        return -1;
    return finish_row(d, p, t, err);
}

/* keep: every step at its own time (block_step); else the lean steps on what the
 * attention reads -- for pre N1, every row of it first (the lean steps project rows
 * ahead; a row's norm reads that row alone, so its bits are the same), and of the block
 * nothing after the attention: only O is asked for. */
static int all_steps(as_decode *d, const as_problem *p, step_scratch *w, as_error *err)
{
    as_problem q;
    size_t t;

    for (t = 0; t < p->n; t++)
        if ((d->keep ? block_step(d, p, t, w, err) : norm_row(d, p, t, err)) != 0)
            return -1;
    if (d->keep)
        return 0;
    q = attending(d, p);
    return steps(d, &q, w, err);
}

int as_decode_run(as_decode *d, const as_problem *p, int keep, as_error *err)
{
    step_scratch w;

    if (setup(d, &w, p, keep, err) != 0)
        return -1;
    if (all_steps(d, p, &w, err) != 0) {
        scratch_free(&w);
        as_decode_free(d);
        return -1;
    }
    scratch_free(&w);
    return 0;
}

int as_decode_begin(as_decode *d, const as_problem *p, as_error *err)
{
    step_scratch *w = malloc(sizeof *w);

    if (w == NULL) {
        memset(d, 0, sizeof *d);
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    if (setup(d, w, p, 1, err) != 0) {
        free(w);
        return -1;
    }
    d->scratch = w;
    return 0;
}

int as_decode_step(as_decode *d, const as_problem *p, size_t t, as_error *err)
{
    return block_step(d, p, t, d->scratch, err);
}

int as_decode_row_init(as_decode_row *r, const as_problem *p)
{
    const size_t n = p->n;

    r->S = malloc(n * sizeof *r->S);
    r->A = malloc(n * sizeof *r->A);
    r->M = malloc(n * sizeof *r->M);
    r->o = malloc(p->d_v * sizeof *r->o);
    if (r->S == NULL || r->A == NULL || r->M == NULL || r->o == NULL) {
        as_decode_row_free(r);
        return -1;
    }
    return 0;
}

void as_decode_row_free(as_decode_row *r)
{
    free(r->S), free(r->A), free(r->M), free(r->o);
    memset(r, 0, sizeof *r);
}

int as_decode_scores(as_decode_row *r, const as_decode *d, const as_problem *p, size_t hd,
                     size_t t)
{
    size_t j;

    for (j = 0; j <= t; j++) /* nothing read before the first position the step reads */
        r->S[j] = -INFINITY, r->A[j] = 0.0;
    as_mask_row(r->M, p, t);
    return head_step(d, p, hd, t, r->M, r->S, r->A, r->o) == 0 ? 0 : -1;
}

/* Nonzero when row i of a and b (both given, of one width) hold the same bits. */
static int same_row(const as_matrix *a, const as_matrix *b, size_t i)
{
    return a != NULL && b != NULL && a->cols == b->cols && i < a->rows && i < b->rows &&
           memcmp(&AS_AT(*a, i, 0), &AS_AT(*b, i, 0), a->cols * sizeof(double)) == 0;
}

/* Nonzero when row i of every table of the block is the run's b (a table only one of
 * them has differs). */
static int block_rows_same(const as_block_trace *mine, const as_block_trace *b, size_t i)
{
    as_tab id;

    for (id = AS_TAB_N1; id <= AS_TAB_Y; id++) {
        const as_matrix *x = as_block_table(mine, id), *y = as_block_table(b, id);
        if ((x == NULL) != (y == NULL) || (x != NULL && !same_row(x, y, i)))
            return 0;
    }
    return 1;
}

long as_decode_compare(as_decode *d, const as_trace *t, const as_block_trace *b)
{
    size_t i;
    long differ = 0;

    free(d->same);
    d->same = calloc(d->n, sizeof *d->same);
    if (d->same == NULL)
        return -1;
    for (i = 0; i < d->n; i++) {
        d->same[i] = t->O.rows == d->n && t->O.cols == d->O.cols &&
                     memcmp(&AS_AT(d->O, i, 0), &AS_AT(t->O, i, 0),
                            d->O.cols * sizeof(double)) == 0 &&
                     (b == NULL || block_rows_same(&d->blk, b, i));
        differ += !d->same[i];
    }
    return differ;
}

void as_decode_free(as_decode *d)
{
    size_t g;

    as_matrix_free(&d->Q);
    free_tables(d->K, d->kv_heads);
    for (g = 0; d->KT != NULL && g < d->kv_heads; g++)
        free(d->KT[g]);
    free(d->KT);
    free_tables(d->V, d->kv_heads);
    free_tables(d->Oh, d->heads);
    as_matrix_free(&d->C);
    as_matrix_free(&d->O);
    free(d->reads);
    free(d->first);
    free(d->full);
    free(d->same);
    free(d->slopes);
    as_block_trace_free(&d->blk);
    if (d->scratch != NULL) {
        scratch_free(d->scratch);
        free(d->scratch);
    }
    memset(d, 0, sizeof *d);
}
