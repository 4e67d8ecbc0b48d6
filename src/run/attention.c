/* attention.c - the run: every step of the chapter (steps.c, or its fast kernels for
 * large tables) in the book's order, each table recorded into the trace. No I/O:
 * renderers read the trace. */
#include "attnstep/attention.h"
#include "attnstep/fused.h"
#include "attnstep/kernels.h"
#include "attnstep/mask.h"
#include "attnstep/positions.h"
#include "attnstep/steps_gen.h"
#include "attnstep/threads.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------ */
/* The run: every step in the chapter's order, recorded into the trace             */
/* ------------------------------------------------------------------------------ */

/* Checks that t holds only finite values (mask not NULL: t is S [n,m], where -inf is
 * allowed in the cells the mask forbids; elsewhere it is a sum that overflowed).
 * Names the table and the first bad cell in err. */
static void range_error(const as_problem *p, as_tab table, double x, size_t row, size_t col,
                        as_error *err)
{
    as_error_msg(err, p->in->path, 0, 0, isnan(x) ? AS_MSG_RUN_NAN : AS_MSG_RUN_OVERFLOW,
                 as_tab_get(table)->name, row, col);
    as_error_hint_msg(err, AS_MSG_HINT_RUN_RANGE);
}

static int check_range(const as_matrix *t, as_tab name, const as_matrix *mask,
                       const as_problem *p, as_error *err)
{
    const size_t cells = t->rows * t->cols;
    uint64_t bad = 0, bits;
    size_t i;

    /* first a pass without a branch (vectorised): a NaN or an infinity has every
     * exponent bit set, so adding one unit to its exponent carries into the top bit */
    for (i = 0; i < cells; i++) {
        memcpy(&bits, &t->v[i], sizeof bits);
        bad |= (bits & UINT64_C(0x7ff0000000000000)) + UINT64_C(0x0010000000000000);
    }
    if ((bad >> 63) == 0)
        return 0; /* every cell finite: the usual case */
    for (i = 0; i < cells; i++) {
        const double x = t->v[i];
        if (isfinite(x) || (mask != NULL && x == -INFINITY && mask->v[i] == -INFINITY))
            continue;
        range_error(p, name, x, i / t->cols, i % t->cols, err);
        return -1;
    }
    return 0;
}

/* The checks each head's steps make, in the chapter's order, for the three runs (full,
 * lean and rows) alike: the table each names, and whether -inf may stand where the mask
 * forbids reading (S after the mask). The softmax's check is that a row reads something. */
typedef enum run_check {
    CHECK_QKT, CHECK_SCALED, CHECK_ALIBI, CHECK_MASKED, CHECK_SOFTMAX, CHECK_O, CHECKS
} run_check;

static const struct {
    as_tab table;
    int masked;
} checks[CHECKS] = {{AS_TAB_QKT, 0}, {AS_TAB_S, 0}, {AS_TAB_S, 0},
                    {AS_TAB_S, 1},   {AS_TAB_A, 0}, {AS_TAB_O, 0}};

/* Check k of a whole table t (mask: the run's mask, read only where check k allows -inf). */
static int check_step(run_check k, const as_matrix *t, const as_matrix *mask,
                      const as_problem *p, as_error *err)
{
    return check_range(t, checks[k].table, checks[k].masked ? mask : NULL, p, err);
}

/* out = x @ w (+ b when given): one projection (the fast product: same bits). w is
 * weight i of p (Wq, Wk, Wv, Wo); when a lean build left its values unmade, the file's
 * torch-layout table is read as stored. */
static int project(as_matrix *out, const as_matrix *x, const as_problem *p, int i,
                   const as_matrix *b)
{
    const as_matrix *w = (const as_matrix *[]){p->Wq, p->Wk, p->Wv, p->Wo}[i];
    const int stored = w->v == NULL && p->Wt[i] != NULL;

    if (as_matrix_init(out, x->rows, w->cols) != 0)
        return -1;
    as_project_fast(out->v, x->v, stored ? p->Wt[i]->v : w->v, stored, b ? b->v : NULL, x->rows,
                    x->cols, w->cols);
    return 0;
}

static int alloc_head(as_head_trace *h, const as_problem *p)
{
    const size_t n = p->n, m = p->m;

    return as_matrix_init(&h->Q, n, p->d_k) | as_matrix_init(&h->K, m, p->d_k) |
           as_matrix_init(&h->V, m, p->d_v) | as_matrix_init(&h->QKT, n, m) |
           as_matrix_init(&h->scaled, n, m) | as_matrix_init(&h->S, n, m) |
           as_matrix_init(&h->row_max, n, 1) | as_matrix_init(&h->shifted, n, m) |
           as_matrix_init(&h->exps, n, m) | as_matrix_init(&h->sums, n, 1) |
           as_matrix_init(&h->A, n, m) | as_matrix_init(&h->O, n, p->d_v);
}

static void free_head(as_head_trace *h)
{
    as_matrix *all[] = {&h->Q, &h->K, &h->V, &h->Qr, &h->Kr, &h->QKT, &h->scaled, &h->B,
                        &h->S, &h->row_max, &h->shifted, &h->exps, &h->sums, &h->A, &h->O};
    size_t i;

    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        as_matrix_free(all[i]);
}

static void no_readable_row(const as_problem *p, long row, as_error *err)
{
    const as_pos at = p->mask == AS_MASK_CUSTOM ? p->in->mat[AS_M].pos : (as_pos){0, 0};

    as_error_msg(err, p->in->path, at.line, at.col, AS_MSG_RUN_NO_READABLE, row, p->tokens[row]);
    as_error_hint_msg(err, AS_MSG_HINT_NO_READABLE);
}

/* positions: rope: the head's Queries and Keys turned pair by pair (SPEC §12). */
static int turn_head(as_head_trace *h, const as_trace *t, const as_problem *p)
{
    if (as_matrix_init(&h->Qr, h->Q.rows, h->Q.cols) | as_matrix_init(&h->Kr, h->K.rows, h->K.cols))
        return -1;
    as_rope(h->Qr.v, h->Q.v, h->Q.rows, p->d_k, t->rope_cos.v, t->rope_sin.v, p->rope);
    as_rope(h->Kr.v, h->K.v, h->K.rows, p->d_k, t->rope_cos.v, t->rope_sin.v, p->rope);
    return 0;
}

/* The head's slices of Q, K and V (h's allocated): K and V the head's own, or the ones
 * its group shares (kv_heads, SPEC §11); with rope, Q and K turned too. Returns 0, or -1
 * when memory ran out. The head's ALiBi slope, when it has one. */
static int head_slices(as_head_trace *h, size_t hd, const as_trace *t, const as_problem *p)
{
    as_take_columns(h->Q.v, t->Q.v, p->n, t->Q.cols, hd * p->d_k, p->d_k);
    as_take_columns(h->K.v, t->K.v, p->m, t->K.cols, as_kv_head(p, hd) * p->d_k, p->d_k);
    as_take_columns(h->V.v, t->V.v, p->m, t->V.cols, as_kv_head(p, hd) * p->d_v, p->d_v);
    if (p->positions == AS_POSITIONS_ALIBI)
        h->slope = t->slopes.v[hd];
    return p->positions == AS_POSITIONS_ROPE ? turn_head(h, t, p) : 0;
}

/* One head, steps 1-4 of the chapter, into h. */
static int run_head(as_head_trace *h, size_t hd, const as_trace *t, const as_problem *p,
                    as_error *err)
{
    const size_t n = p->n, m = p->m, nm = n * m;
    long bad;

    if (alloc_head(h, p) != 0 || head_slices(h, hd, t, p) != 0)
        goto nomem;
    /* step 1: every Query row dotted with every Key row */
    as_scores_fast(h->QKT.v, h->Qr.v ? h->Qr.v : h->Q.v, h->Kr.v ? h->Kr.v : h->K.v, n, m, p->d_k);
    if (check_step(CHECK_QKT, &h->QKT, NULL, p, err) != 0)
        return -1;
    /* step 2: scale, (ALiBi: add the bias,) then add the mask */
    as_scale(h->scaled.v, h->QKT.v, nm, p->scale);
    if (check_step(CHECK_SCALED, &h->scaled, NULL, p, err) != 0)
        return -1;
    if (p->positions == AS_POSITIONS_ALIBI) {
        if (as_matrix_init(&h->B, n, m) != 0)
            goto nomem;
        as_alibi_bias(h->B.v, n, m, h->slope);
        as_add_mask(h->S.v, h->scaled.v, h->B.v, nm);
        if (check_step(CHECK_ALIBI, &h->S, NULL, p, err) != 0)
            return -1;
    }
    as_add_mask(h->S.v, h->B.v ? h->S.v : h->scaled.v, t->M.v, nm);
    if (check_step(CHECK_MASKED, &h->S, &t->M, p, err) != 0)
        return -1;
    /* step 3: softmax along each row */
    bad = as_softmax_rows(h->A.v, h->row_max.v, h->shifted.v, h->exps.v, h->sums.v, h->S.v, n, m);
    if (bad >= 0) {
        no_readable_row(p, bad, err);
        return -1;
    }
    /* step 4: mix the Values by the shares (as_mix, fast) */
    as_matmul_fast(h->O.v, h->A.v, h->V.v, n, m, p->d_v);
    return check_step(CHECK_O, &h->O, NULL, p, err);
nomem:
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* positions: sinusoidal: pe = the encoding of x's rows, xp = x + pe (SPEC §12). */
static int encode(as_matrix *pe, as_matrix *xp, const as_matrix *x, size_t offset)
{
    if (as_matrix_init(pe, x->rows, x->cols) | as_matrix_init(xp, x->rows, x->cols))
        return -1;
    as_sinusoidal(pe->v, x->rows, x->cols, offset);
    as_add_mask(xp->v, x->v, pe->v, x->rows * x->cols);
    return 0;
}

/* positions: rope: θ_i of each pair, and the turn of each pair at each position. */
static int turns(as_trace *t, const as_problem *p)
{
    const size_t rows = p->n > p->m ? p->n : p->m, pairs = p->d_k / 2;
    size_t i;

    if (as_matrix_init(&t->rope_theta, 1, pairs) | as_matrix_init(&t->rope_angle, rows, pairs) |
        as_matrix_init(&t->rope_cos, rows, pairs) | as_matrix_init(&t->rope_sin, rows, pairs))
        return -1;
    for (i = 0; i < pairs; i++)
        t->rope_theta.v[i] = as_rope_theta(i, p->d_k, p->rope_base);
    as_rope_angles(t->rope_angle.v, t->rope_cos.v, t->rope_sin.v, rows, p->d_k, p->rope_base,
                   p->offset);
    return 0;
}

/* The mask (unless rows: a rows run makes its rows when it needs them), the three
 * projections and room for the heads and C: how every run begins. */
static int begin_run(as_trace *t, const as_problem *p, int rows, as_error *err)
{
    const as_matrix *x = p->X, *xkv = p->Xkv;

    memset(t, 0, sizeof *t);
    if (!rows && as_mask_build(&t->M, p) != 0)
        goto nomem;
    if (p->positions == AS_POSITIONS_SINUSOIDAL) {
        if (encode(&t->PE, &t->Xp, p->X, p->offset) != 0 ||
            (p->cross && encode(&t->PEkv, &t->Xkvp, p->Xkv, p->offset) != 0))
            goto nomem;
        x = &t->Xp;
        xkv = p->cross ? &t->Xkvp : &t->Xp;
    }
    if (p->positions == AS_POSITIONS_ALIBI) {
        if (as_matrix_init(&t->slopes, 1, p->heads) != 0)
            goto nomem;
        as_alibi_slopes(t->slopes.v, p->heads);
    }
    if (p->positions == AS_POSITIONS_ROPE && turns(t, p) != 0)
        goto nomem;
    /* the three projections, each row of X (or Xkv) times the same table */
    if (project(&t->Q, x, p, 0, p->bq) != 0 || project(&t->K, xkv, p, 1, p->bk) != 0 ||
        project(&t->V, xkv, p, 2, p->bv) != 0)
        goto nomem;
    if (check_range(&t->Q, AS_TAB_Q, NULL, p, err) != 0 ||
        check_range(&t->K, AS_TAB_K, NULL, p, err) != 0 ||
        check_range(&t->V, AS_TAB_V, NULL, p, err) != 0)
        return -1;
    t->head = calloc(p->heads, sizeof *t->head);
    if (t->head == NULL)
        goto nomem;
    t->heads = p->heads;
    if (as_matrix_init(&t->C, p->n, p->heads * p->d_v) != 0)
        goto nomem;
    return 0;
nomem:
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* The output projection when there is one, else O = C: how both runs end. */
static int end_run(as_trace *t, const as_problem *p, as_error *err)
{
    if (p->Wo != NULL ? project(&t->O, &t->C, p, 3, p->bo) : as_matrix_copy(&t->O, &t->C)) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    return check_range(&t->O, AS_TAB_O, NULL, p, err);
}

int as_attention_too_large(const as_problem *p, as_error *err)
{
    const size_t per_head = p->n * p->m;

    if (per_head == 0 || p->heads <= AS_MAX_CELLS / per_head)
        return 0;
    as_error_msg(err, p->in->path, p->in->heads_pos.line, p->in->heads_pos.col,
                 AS_MSG_RUN_HEADS_CELLS, p->heads, p->n, p->m, AS_MAX_CELLS);
    as_error_hint_msg(err, AS_MSG_HINT_HEADS_CELLS);
    return -1;
}

int as_attention_run(as_trace *t, const as_problem *p, as_error *err)
{
    size_t hd;

    memset(t, 0, sizeof *t);
    if (as_attention_too_large(p, err) || begin_run(t, p, 0, err) != 0)
        goto fail;
    for (hd = 0; hd < p->heads; hd++) {
        if (run_head(&t->head[hd], hd, t, p, err) != 0)
            goto fail;
        as_put_columns(t->C.v, t->head[hd].O.v, p->n, t->C.cols, hd * p->d_v, p->d_v);
    }
    /* the heads side by side, then the output projection when there is one */
    if (end_run(t, p, err) != 0)
        goto fail;
    return 0;
fail:
    as_trace_free(t);
    return -1;
}

/* ------------------------------------------------------------------------------ */
/* The lean run: the same steps, one n x m scratch table per thread                 */
/* ------------------------------------------------------------------------------ */

typedef void product_fn(double *, const double *, const double *, size_t, size_t, size_t);

/* One worker: the next head not yet taken (from the counter the workers share), again
 * and again, with its own scratch tables: a worker on a slower core takes fewer heads
 * (this machine's two cores often run at different speeds). */
typedef struct lean_worker {
    const as_trace *t;
    const as_problem *p;
    const as_mask_reach *reach; /* what each row of the mask reads, for as_fused_run() */
    atomic_size_t *next;         /* the next head to take */
    product_fn *matmul, *scores; /* one-thread kernels when the heads are on threads */
    as_matrix q, k, v;           /* this head's slices: [n,d_k], [m,d_k], [m,d_v] */
    as_matrix qr, kr;            /* positions: rope: q and k turned; else empty */
    as_fused_scratch fused;      /* the fused head's blocks */
    as_matrix s, M;              /* [n,m] scores and mask, made only for a head that
                                    cannot be fused */
    long failed;                 /* the head that failed, or -1 */
    as_error err;
} lean_worker;

/* Steps 1-4 of head hd into h->O one step at a time, with the checks of run_head() in
 * the same order: for a head some score of which may overflow (then the check names
 * the cell, as the full run does) or whose mask leaves a row nothing to read. */
static int stepwise_head(as_head_trace *h, size_t hd, lean_worker *w)
{
    const as_problem *p = w->p;
    const size_t n = p->n, m = p->m, nm = n * m;
    long bad;

    if ((w->s.v == NULL && as_matrix_init(&w->s, n, m) != 0) ||
        (w->M.v == NULL && as_mask_build(&w->M, p) != 0)) {
        as_error_msg(&w->err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    /* step 1: the raw scores */
    w->scores(w->s.v, w->qr.v ? w->qr.v : w->q.v, w->kr.v ? w->kr.v : w->k.v, n, m, p->d_k);
    if (check_step(CHECK_QKT, &w->s, NULL, p, &w->err) != 0)
        return -1;
    /* step 2: scale, (ALiBi: add the bias,) then add the mask, in place */
    as_scale(w->s.v, w->s.v, nm, p->scale);
    if (check_step(CHECK_SCALED, &w->s, NULL, p, &w->err) != 0)
        return -1;
    if (p->positions == AS_POSITIONS_ALIBI) {
        as_add_alibi(w->s.v, n, m, w->t->slopes.v[hd]);
        if (check_step(CHECK_ALIBI, &w->s, NULL, p, &w->err) != 0)
            return -1;
    }
    as_add_mask(w->s.v, w->s.v, w->M.v, nm);
    if (check_step(CHECK_MASKED, &w->s, &w->M, p, &w->err) != 0)
        return -1;
    /* step 3: softmax in place (each cell is read before it is written) */
    bad = as_softmax_rows(w->s.v, NULL, NULL, NULL, NULL, w->s.v, n, m);
    if (bad >= 0) {
        no_readable_row(p, bad, &w->err);
        return -1;
    }
    /* step 4: mix the Values by the shares (lean_head() checks O) */
    w->matmul(h->O.v, w->s.v, w->v.v, n, m, p->d_v);
    return 0;
}

/* What every head of p shares in the fused form: sizes, scale, ALiBi or not, and the
 * mask as the problem describes it (no n x m table: the fused head makes the cells it
 * needs). */
static as_fused_head fused_head(const as_problem *p)
{
    return (as_fused_head){
        .mask = p->mask == AS_MASK_CUSTOM ? p->in->mat[AS_M].m.v : NULL,
        .window = p->mask == AS_MASK_NONE || p->mask == AS_MASK_CUSTOM ? 0 : p->window,
        .n = p->n, .m = p->m, .d = p->d_k, .dv = p->d_v, .scale = p->scale,
        .alibi = p->positions == AS_POSITIONS_ALIBI};
}

/* Head hd's own copies of its Q, K and V columns in w (with rope: Q and K turned). */
static void head_copies(lean_worker *w, size_t hd)
{
    const as_problem *p = w->p;
    const size_t kv = as_kv_head(p, hd);

    as_take_columns(w->q.v, w->t->Q.v, p->n, w->t->Q.cols, hd * p->d_k, p->d_k);
    as_take_columns(w->k.v, w->t->K.v, p->m, w->t->K.cols, kv * p->d_k, p->d_k);
    as_take_columns(w->v.v, w->t->V.v, p->m, w->t->V.cols, kv * p->d_v, p->d_v);
    if (p->positions == AS_POSITIONS_ROPE) {
        as_rope(w->qr.v, w->q.v, p->n, p->d_k, w->t->rope_cos.v, w->t->rope_sin.v, p->rope);
        as_rope(w->kr.v, w->k.v, p->m, p->d_k, w->t->rope_cos.v, w->t->rope_sin.v, p->rope);
    }
}

/* Head hd in the fused form: its Queries and Keys read in place from Q and K (with
 * rope: the turned copies, which head_copies() made), its Values from V. */
static as_fused_head head_in_place(const lean_worker *w, size_t hd)
{
    const as_problem *p = w->p;
    const as_trace *t = w->t;
    const size_t kv = as_kv_head(p, hd);
    as_fused_head f = fused_head(p);

    if (p->positions == AS_POSITIONS_ROPE) {
        f.q = w->qr.v, f.ldq = p->d_k;
        f.k = w->kr.v, f.ldk = p->d_k;
    } else {
        f.q = t->Q.v + hd * p->d_k, f.ldq = t->Q.cols;
        f.k = t->K.v + kv * p->d_k, f.ldk = t->K.cols;
    }
    f.v = t->V.v + kv * p->d_v, f.ldv = t->V.cols;
    if (f.alibi)
        f.slope = t->slopes.v[hd];
    return f;
}

/* Steps 1-4 of head hd into h->O: fused (fused.h) when no score can overflow, else one
 * step at a time; the same bits either way. */
static int lean_head(as_head_trace *h, size_t hd, lean_worker *w)
{
    const as_problem *p = w->p;
    const int rope = p->positions == AS_POSITIONS_ROPE;
    as_fused_head f;

    if (as_matrix_init(&h->O, p->n, p->d_v) != 0) {
        as_error_msg(&w->err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    if (rope)
        head_copies(w, hd);
    f = head_in_place(w, hd);
    if (as_fused_fits(&f, w->reach)) {
        as_fused_run(h->O.v, &f, w->reach, &w->fused);
    } else {
        if (!rope)
            head_copies(w, hd); /* the steps one by one read their own copies */
        if (stepwise_head(h, hd, w) != 0)
            return -1;
    }
    if (check_step(CHECK_O, &h->O, NULL, p, &w->err) != 0)
        return -1;
    /* the head's columns of C, here on the head's thread (no other head writes them) */
    as_put_columns(w->t->C.v, h->O.v, p->n, w->t->C.cols, hd * p->d_v, p->d_v);
    return 0;
}

static void lean_heads(void *arg)
{
    lean_worker *w = arg;
    const as_problem *p = w->p;
    const int rope = p->positions == AS_POSITIONS_ROPE;
    size_t hd;

    if (as_matrix_init(&w->q, p->n, p->d_k) | as_matrix_init(&w->k, p->m, p->d_k) |
        as_matrix_init(&w->v, p->m, p->d_v) | as_fused_scratch_init(&w->fused, p->m, p->d_k, p->d_v) |
        (rope ? as_matrix_init(&w->qr, p->n, p->d_k) | as_matrix_init(&w->kr, p->m, p->d_k) : 0)) {
        as_error_msg(&w->err, p->in->path, 0, 0, AS_MSG_OOM);
        hd = atomic_fetch_add(w->next, 1);
        w->failed = hd < p->heads ? (long)hd : -1; /* the head it would have made */
    }
    while (w->failed < 0 && (hd = atomic_fetch_add(w->next, 1)) < p->heads)
        if (lean_head(&w->t->head[hd], hd, w) != 0)
            w->failed = (long)hd;
    as_matrix_free(&w->q);
    as_matrix_free(&w->k);
    as_matrix_free(&w->v);
    as_matrix_free(&w->s);
    as_matrix_free(&w->M);
    as_matrix_free(&w->qr);
    as_matrix_free(&w->kr);
    as_fused_scratch_free(&w->fused);
}

/* Every head, on two threads when there is enough work, each taking the next head as
 * it is free. The error reported is that of the first head that failed, as in the
 * serial run. */
static int run_heads_lean(as_trace *t, const as_problem *p, as_error *err)
{
    const double work = (double)p->heads * (double)p->n * (double)p->m * (double)(p->d_k + p->d_v);
    const int two = p->heads >= 2 && work >= AS_THREAD_MIN_WORK;
    const as_fused_head all = fused_head(p);
    as_mask_reach reach;
    lean_worker w[2];
    atomic_size_t next = 0;
    long f0, f1;
    int i;

    if (as_mask_reach_init(&reach, &all) != 0) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    for (i = 0; i < 2; i++) {
        w[i] = (lean_worker){.t = t, .p = p, .reach = &reach, .next = &next,
                             .matmul = two ? as_matmul_fast_1 : as_matmul_fast,
                             .scores = two ? as_scores_fast_1 : as_scores_fast, .failed = -1};
        as_error_init(&w[i].err, err->lang);
    }
    if (two)
        as_two_threads(lean_heads, &w[0], lean_heads, &w[1]);
    else
        lean_heads(&w[0]);
    as_mask_reach_free(&reach);
    f0 = w[0].failed;
    f1 = w[1].failed;
    if (f0 < 0 && f1 < 0)
        return 0;
    *err = f1 >= 0 && (f0 < 0 || f1 < f0) ? w[1].err : w[0].err;
    return -1;
}

int as_attention_run_lean(as_trace *t, const as_problem *p, as_error *err)
{
    /* no M table (as the rows run): the fused heads make the mask's cells as they go,
     * and a head that cannot be fused builds its own */
    if (begin_run(t, p, 1, err) != 0 || run_heads_lean(t, p, err) != 0)
        goto fail;
    /* Q, K and V were needed only for the heads */
    as_matrix_free(&t->Q);
    as_matrix_free(&t->K);
    as_matrix_free(&t->V);
    if (end_run(t, p, err) != 0)
        goto fail;
    t->lean = 1;
    return 0;
fail:
    as_trace_free(t);
    return -1;
}

/* ------------------------------------------------------------------------------ */
/* The rows run: the same steps, one receiving row at a time                        */
/* ------------------------------------------------------------------------------ */

/* The first cell that failed check k over the rows so far (row < 0: none yet). */
typedef struct row_fail {
    long row[CHECKS];
    size_t col[CHECKS];
    double x[CHECKS];
} row_fail;

/* Notes the first cell of v[m] out of range for check k (-inf allowed where mask is
 * -inf, when check k allows it), unless an earlier row already failed it. */
static void note_range(row_fail *f, run_check k, const double *v, const double *mask_row,
                       size_t m, size_t i)
{
    const double *mask = checks[k].masked ? mask_row : NULL;
    size_t j;

    for (j = 0; f->row[k] < 0 && j < m; j++)
        if (!isfinite(v[j]) && !(mask != NULL && v[j] == -INFINITY && mask[j] == -INFINITY)) {
            f->row[k] = (long)i;
            f->col[k] = j;
            f->x[k] = v[j];
        }
}

/* Points r's rows into room [8m]. */
static void row_views(as_row_trace *r, double *room, size_t m, int alibi)
{
    r->M = room;
    r->QKT = room + m;
    r->scaled = room + 2 * m;
    r->B = alibi ? room + 3 * m : NULL;
    r->S = room + 4 * m;
    r->shifted = room + 5 * m;
    r->exps = room + 6 * m;
    r->A = room + 7 * m;
}

/* Steps 1-3 for row i of head hd (its Q, K, V in h) into room [8m] as row_views() lays
 * it out, each value made by the same step on the same numbers as in run_head(); the
 * checks of run_head() noted in f when f is given. */
static void make_row(as_row_trace *r, double *room, const as_head_trace *h, size_t hd,
                     size_t i, const as_trace *t, const as_problem *p, row_fail *f)
{
    const size_t m = p->m;
    const as_matrix *q = h->Qr.v ? &h->Qr : &h->Q, *k = h->Kr.v ? &h->Kr : &h->K;
    double *M = room, *qkt = room + m, *sc = room + 2 * m, *B = room + 3 * m, *S = room + 4 * m;
    const int alibi = p->positions == AS_POSITIONS_ALIBI;

    row_views(r, room, m, alibi);
    as_mask_row(M, p, i);
    as_scores(qkt, &AS_AT(*q, i, 0), k->v, 1, m, p->d_k);
    as_scale(sc, qkt, m, p->scale);
    if (alibi) {
        as_alibi_bias_row(B, i, m, t->slopes.v[hd]);
        as_add_mask(S, sc, B, m);
        if (f != NULL)
            note_range(f, CHECK_ALIBI, S, NULL, m, i);
    }
    as_add_mask(S, alibi ? S : sc, M, m);
    if (as_softmax_rows(room + 7 * m, &r->row_max, room + 5 * m, room + 6 * m, &r->sum, S, 1,
                        m) >= 0 && f != NULL && f->row[CHECK_SOFTMAX] < 0)
        f->row[CHECK_SOFTMAX] = (long)i;
    if (f == NULL)
        return;
    note_range(f, CHECK_QKT, qkt, NULL, m, i);
    note_range(f, CHECK_SCALED, sc, NULL, m, i);
    note_range(f, CHECK_MASKED, S, M, m, i);
}

/* The error of the first check that failed (in run_head()'s order), as run_head()
 * reports it. Returns 0 when none did. */
static int row_error(const row_fail *f, const as_problem *p, as_error *err)
{
    int k;

    for (k = 0; k < CHECKS; k++) {
        if (f->row[k] < 0)
            continue;
        if (k == CHECK_SOFTMAX)
            no_readable_row(p, f->row[k], err);
        else
            range_error(p, checks[k].table, f->x[k], (size_t)f->row[k], f->col[k], err);
        return -1;
    }
    return 0;
}

/* Rows [first, last) of one head, made in room [8m], their checks noted in f. */
typedef struct rows_part {
    as_head_trace *h;
    size_t hd, first, last;
    const as_trace *t;
    const as_problem *p;
    double *room;
    row_fail f;
} rows_part;

static void head_rows(void *arg)
{
    rows_part *w = arg;
    const as_problem *p = w->p;
    as_row_trace r;
    size_t i;

    for (i = w->first; i < w->last; i++) {
        make_row(&r, w->room, w->h, w->hd, i, w->t, p, &w->f);
        /* step 4: mix the Values by the shares (as_mix, as run_head()'s product sums) */
        as_matmul(&AS_AT(w->h->O, i, 0), r.A, w->h->V.v, 1, p->m, p->d_v);
        note_range(&w->f, CHECK_O, &AS_AT(w->h->O, i, 0), NULL, p->d_v, i);
    }
}

/* Head hd: its slices of Q, K, V (turned with rope), then its O row by row, every row
 * checked as run_head() checks its tables; the rows on two threads, each half with its
 * own room (room [16m]), when there is enough work. */
static int rows_head(as_head_trace *h, size_t hd, const as_trace *t, const as_problem *p,
                     double *room, as_error *err)
{
    const size_t n = p->n, m = p->m, half = n / 2;
    const double work = (double)n * (double)m * (double)(p->d_k + p->d_v);
    rows_part part[2];
    row_fail f;
    size_t k, c;

    if (as_matrix_init(&h->Q, n, p->d_k) | as_matrix_init(&h->K, m, p->d_k) |
        as_matrix_init(&h->V, m, p->d_v) | as_matrix_init(&h->O, n, p->d_v) ||
        head_slices(h, hd, t, p) != 0) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    for (k = 0; k < 2; k++) {
        part[k] = (rows_part){.h = h, .hd = hd, .first = k ? half : 0, .last = n, .t = t, .p = p,
                              .room = room + k * 8 * m};
        for (c = 0; c < CHECKS; c++)
            part[k].f.row[c] = -1;
    }
    if (work >= AS_THREAD_MIN_WORK && half > 0) {
        part[0].last = half;
        as_two_threads(head_rows, &part[0], head_rows, &part[1]);
    } else {
        head_rows(&part[0]);
    }
    for (c = 0; c < CHECKS; c++) { /* the first half's rows come first */
        const rows_part *w = part[0].f.row[c] >= 0 ? &part[0] : &part[1];
        f.row[c] = w->f.row[c];
        f.col[c] = w->f.col[c];
        f.x[c] = w->f.x[c];
    }
    return row_error(&f, p, err);
}

int as_attention_run_rows(as_trace *t, const as_problem *p, as_error *err)
{
    double *room = NULL;
    size_t hd;

    if (begin_run(t, p, 1, err) != 0)
        goto fail;
    if ((room = malloc(16 * (p->m ? p->m : 1) * sizeof *room)) == NULL) {
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
        goto fail;
    }
    for (hd = 0; hd < p->heads; hd++) {
        if (rows_head(&t->head[hd], hd, t, p, room, err) != 0)
            goto fail;
        as_put_columns(t->C.v, t->head[hd].O.v, p->n, t->C.cols, hd * p->d_v, p->d_v);
    }
    if (end_run(t, p, err) != 0)
        goto fail;
    free(room);
    t->rows = 1;
    return 0;
fail:
    free(room);
    as_trace_free(t);
    return -1;
}

/* Row i of head hd of a full trace: views into its tables. */
static void full_row(as_row_trace *r, const as_trace *t, const as_head_trace *h, size_t i)
{
    r->M = &AS_AT(t->M, i, 0);
    r->QKT = &AS_AT(h->QKT, i, 0);
    r->scaled = &AS_AT(h->scaled, i, 0);
    r->B = h->B.v != NULL ? &AS_AT(h->B, i, 0) : NULL;
    r->S = &AS_AT(h->S, i, 0);
    r->row_max = AS_AT(h->row_max, i, 0);
    r->sum = AS_AT(h->sums, i, 0);
    r->shifted = &AS_AT(h->shifted, i, 0);
    r->exps = &AS_AT(h->exps, i, 0);
    r->A = &AS_AT(h->A, i, 0);
}

int as_trace_row(as_row_trace *r, const as_trace *t, const as_problem *p, size_t hd, size_t i)
{
    if (t->lean || hd >= t->heads || i >= p->n)
        return -1;
    if (!t->rows) {
        full_row(r, t, &t->head[hd], i);
        return 0;
    }
    if (r->room == NULL && (r->room = malloc(8 * (p->m ? p->m : 1) * sizeof *r->room)) == NULL)
        return -1;
    make_row(r, r->room, &t->head[hd], hd, i, t, p, NULL);
    return 0;
}

void as_row_trace_free(as_row_trace *r)
{
    free(r->room);
    memset(r, 0, sizeof *r);
}

void as_trace_free(as_trace *t)
{
    size_t hd;

    for (hd = 0; hd < t->heads; hd++)
        free_head(&t->head[hd]);
    free(t->head);
    as_matrix_free(&t->M);
    as_matrix_free(&t->Q);
    as_matrix_free(&t->K);
    as_matrix_free(&t->V);
    as_matrix_free(&t->C);
    as_matrix_free(&t->O);
    as_matrix_free(&t->PE);
    as_matrix_free(&t->PEkv);
    as_matrix_free(&t->Xp);
    as_matrix_free(&t->Xkvp);
    as_matrix_free(&t->slopes);
    as_matrix_free(&t->rope_theta);
    as_matrix_free(&t->rope_angle);
    as_matrix_free(&t->rope_cos);
    as_matrix_free(&t->rope_sin);
    memset(t, 0, sizeof *t);
}
