/* tiles.c - `--tiles B`: steps 3-4 of a run redone as FlashAttention does them, one
 * block of Keys at a time (as_online_update() in steps_gen.c), recording each block of
 * the rows the walk-through shows. */
#include "attnstep/tiles.h"
#include "attnstep/steps.h"
#include "attnstep/steps_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void free_walk(as_tile_walk *w)
{
    free(w->pos);
    free(w->exps);
    free(w->m_old);
    free(w->m);
    free(w->l);
    free(w->factor);
    free(w->acc);
}

static int alloc_walk(as_tile_walk *w, size_t count, size_t B, size_t d_v)
{
    const size_t nb = (count + B - 1) / B, one = nb ? nb : 1;

    w->count = count;
    w->blocks = nb;
    w->pos = calloc(count ? count : 1, sizeof *w->pos);
    w->exps = calloc(count ? count : 1, sizeof *w->exps);
    w->m_old = calloc(one, sizeof *w->m_old);
    w->m = calloc(one, sizeof *w->m);
    w->l = calloc(one, sizeof *w->l);
    w->factor = calloc(one, sizeof *w->factor);
    w->acc = calloc(one * (d_v ? d_v : 1), sizeof *w->acc);
    return w->pos && w->exps && w->m_old && w->m && w->l && w->factor && w->acc ? 0 : -1;
}

/* Scratch of one row: its readable positions, their scores and Values gathered, and
 * the run's row (as_trace_row). */
typedef struct row_scratch {
    size_t *pos;         /* [m] */
    double *s, *a;       /* [m] */
    double *v;           /* [B, d_v] */
    double *e;           /* [B] */
    double *acc, *acc_lo;/* [d_v] each: the running output, in two halves (as_online) */
    as_row_trace run;    /* the run's row i */
} row_scratch;

/* What one row ends with: its running max and sum, and its output [d_v]. */
typedef struct row_end {
    double *m, *l, *o;
} row_end;

/* One row of one head, block by block, its end into e; its walk recorded into w when w
 * is not NULL. The walk records the running values as read (rounded to doubles), as
 * shown. Returns the number of readable positions (whose shares are r->a), or -1 when
 * the run's row could not be had. */
static long tile_row(size_t B, const as_problem *p, const as_trace *t, size_t hd, size_t i,
                     row_scratch *r, as_tile_walk *w, row_end e)
{
    const as_head_trace *h = &t->head[hd];
    const size_t dv = p->d_v;
    as_online st;
    double f;
    size_t j, count = 0, b0, k;

    if (as_trace_row(&r->run, t, p, hd, i) != 0)
        return -1;
    for (j = 0; j < p->m; j++)
        if (r->run.M[j] != -INFINITY) {
            r->pos[count] = j;
            r->s[count++] = r->run.S[j];
        }
    as_online_start(&st, r->acc, r->acc_lo, dv);
    for (b0 = 0; b0 < count; b0 += B) {
        const size_t cnt = count - b0 < B ? count - b0 : B;
        const double m_old = st.m;
        for (k = 0; k < cnt; k++)
            memcpy(r->v + k * dv, &AS_AT(h->V, r->pos[b0 + k], 0), dv * sizeof *r->v);
        as_online_update(&st, &f, r->e, r->s + b0, r->v, cnt);
        if (w != NULL) {
            const size_t b = b0 / B;
            memcpy(w->exps + b0, r->e, cnt * sizeof *r->e);
            w->m_old[b] = m_old, w->m[b] = st.m, w->l[b] = st.l, w->factor[b] = f;
            memcpy(w->acc + b * dv, st.acc, dv * sizeof *st.acc);
        }
    }
    if (w != NULL)
        memcpy(w->pos, r->pos, count * sizeof *r->pos);
    *e.m = st.m;
    *e.l = st.l;
    as_online_output(e.o, &st);
    as_online_shares(r->a, r->s, st.m, st.l, count);
    return (long)count;
}

/* How many positions row i reads under the mask. */
static size_t readable(const as_problem *p, const as_trace *t, size_t i)
{
    as_row_trace r = {0};
    size_t j, count = 0;

    if (as_trace_row(&r, t, p, 0, i) == 0)
        for (j = 0; j < p->m; j++)
            count += r.M[j] != -INFINITY;
    as_row_trace_free(&r);
    return count;
}

/* The difference of each output cell of row i of head hd from the ordinary run's, in
 * units in the last place of the sum of its terms' sizes, sum_j a_j |v_jc| (A the run's
 * row): the scale of the rounding both ways of summing make (a cell near 0 by
 * cancellation has a tiny ulp of its own, which the terms' rounding dwarfs). Kept: the
 * largest, in tl->max_ulp. */
static void row_ulps(as_tiles *tl, const as_problem *p, const as_head_trace *h, size_t hd,
                     size_t i, const double *A)
{
    size_t j, c;

    for (c = 0; c < p->d_v; c++) {
        double size = 0.0, diff, ulp;
        for (j = 0; j < p->m; j++)
            size += A[j] * fabs(AS_AT(h->V, j, c));
        ulp = nextafter(size, INFINITY) - size;
        diff = fabs(AS_AT(tl->O[hd], i, c) - AS_AT(h->O, i, c)) / ulp;
        if (diff > tl->max_ulp)
            tl->max_ulp = diff;
    }
}

static int alloc_tiles(as_tiles *tl, const as_problem *p, const as_trace *t)
{
    const size_t rows = tl->first <= tl->last ? tl->last - tl->first + 1 : 0;
    size_t h, i;
    int bad = 0;

    tl->m = calloc(p->heads, sizeof *tl->m);
    tl->l = calloc(p->heads, sizeof *tl->l);
    tl->O = calloc(p->heads, sizeof *tl->O);
    tl->walk = calloc(p->heads * rows + 1, sizeof *tl->walk);
    if (!tl->m || !tl->l || !tl->O || !tl->walk)
        return -1;
    for (h = 0; h < p->heads; h++) {
        bad |= as_matrix_init(&tl->m[h], p->n, 1) | as_matrix_init(&tl->l[h], p->n, 1) |
               as_matrix_init(&tl->O[h], p->n, p->d_v);
        for (i = 0; bad == 0 && i < rows; i++)
            bad |= alloc_walk(&tl->walk[h * rows + i], readable(p, t, tl->first + i), tl->B,
                              p->d_v);
    }
    return bad | as_matrix_init(&tl->C, p->n, p->heads * p->d_v);
}

/* One row's scratch, and the walk and shares as_tiles_row() makes again in it. */
struct as_tiles_room {
    row_scratch r;
    as_tile_walk w;
    double *A;   /* [m] */
    double *o;   /* [d_v] the row's output, made again */
};

static int alloc_scratch(row_scratch *r, const as_problem *p, size_t B)
{
    const size_t m = p->m ? p->m : 1, dv = p->d_v ? p->d_v : 1;

    memset(r, 0, sizeof *r);
    r->pos = malloc(m * sizeof *r->pos);
    r->s = malloc(m * sizeof *r->s);
    r->a = malloc(m * sizeof *r->a);
    r->v = malloc(B * dv * sizeof *r->v);
    r->e = malloc(B * sizeof *r->e);
    r->acc = malloc(dv * sizeof *r->acc);
    r->acc_lo = malloc(dv * sizeof *r->acc_lo);
    return r->pos && r->s && r->a && r->v && r->e && r->acc && r->acc_lo ? 0 : -1;
}

static void free_scratch(row_scratch *r)
{
    free(r->pos), free(r->s), free(r->a), free(r->v), free(r->e), free(r->acc), free(r->acc_lo);
    as_row_trace_free(&r->run);
}

static void free_room(struct as_tiles_room *room)
{
    if (room == NULL)
        return;
    free_scratch(&room->r);
    free_walk(&room->w);
    free(room->A);
    free(room->o);
    free(room);
}

/* Room for as_tiles_row(): the walk of a row that reads every position. */
static struct as_tiles_room *new_room(const as_problem *p, size_t B)
{
    struct as_tiles_room *room = calloc(1, sizeof *room);

    if (room == NULL)
        return NULL;
    if (alloc_scratch(&room->r, p, B) != 0 || alloc_walk(&room->w, p->m, B, p->d_v) != 0 ||
        (room->A = calloc(p->m ? p->m : 1, sizeof *room->A)) == NULL ||
        (room->o = malloc((p->d_v ? p->d_v : 1) * sizeof *room->o)) == NULL) {
        free_room(room);
        return NULL;
    }
    return room;
}

/* Every head's rows block by block, each checked against the run's (row_ulps), the
 * heads side by side, then Wo. */
static int tile_heads(as_tiles *tl, const as_problem *p, const as_trace *t)
{
    row_scratch r;
    size_t h, i;
    int rc = -1;

    if (alloc_scratch(&r, p, tl->B) == 0) {
        rc = 0;
        for (h = 0; h < p->heads && rc == 0; h++) {
            for (i = 0; i < p->n && rc == 0; i++) {
                const int walked = tl->first <= i && i <= tl->last;
                const row_end e = {&AS_AT(tl->m[h], i, 0), &AS_AT(tl->l[h], i, 0),
                                   &AS_AT(tl->O[h], i, 0)};
                if (tile_row(tl->B, p, t, h, i, &r,
                             walked ? (as_tile_walk *)as_tiles_walk(tl, h, i) : NULL, e) < 0)
                    rc = -1;
                else
                    row_ulps(tl, p, &t->head[h], h, i, r.run.A);
            }
            as_put_columns(tl->C.v, tl->O[h].v, p->n, tl->C.cols, h * p->d_v, p->d_v);
        }
    }
    free_scratch(&r);
    return rc;
}

const as_tile_walk *as_tiles_row(const as_tiles *tl, size_t h, size_t i)
{
    struct as_tiles_room *room = tl->room;
    double m, l;
    const row_end e = {&m, &l, room->o};
    long count = tile_row(tl->B, tl->p, tl->t, h, i, &room->r, &room->w, e), k;

    if (count < 0)
        return NULL;
    room->w.count = (size_t)count;
    room->w.blocks = ((size_t)count + tl->B - 1) / tl->B;
    room->w.S = room->r.run.S;
    room->w.run_sum = room->r.run.sum;
    memset(room->A, 0, tl->p->m * sizeof *room->A);
    for (k = 0; k < count; k++)
        room->A[room->r.pos[k]] = room->r.a[k];
    room->w.A = room->A;
    return &room->w;
}

int as_tiles_run(as_tiles *tl, const as_problem *p, const as_trace *t, size_t B, size_t first,
                 size_t last, as_error *err)
{
    memset(tl, 0, sizeof *tl);
    tl->B = B, tl->heads = p->heads, tl->n = p->n, tl->d_v = p->d_v;
    tl->first = first, tl->last = last;
    tl->p = p, tl->t = t;
    if (alloc_tiles(tl, p, t) != 0 || (tl->room = new_room(p, B)) == NULL ||
        tile_heads(tl, p, t) != 0)
        goto nomem;
    if (as_matrix_init(&tl->Out, p->n, p->d_out) != 0)
        goto nomem;
    if (p->Wo != NULL) {
        as_matmul(tl->Out.v, tl->C.v, p->Wo->v, p->n, p->Wo->rows, p->Wo->cols);
        if (p->bo != NULL)
            as_add_bias(tl->Out.v, p->bo->v, p->n, p->Wo->cols);
    } else {
        memcpy(tl->Out.v, tl->C.v, p->n * tl->C.cols * sizeof *tl->C.v);
    }
    return 0;
nomem:
    as_tiles_free(tl);
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

const as_tile_walk *as_tiles_walk(const as_tiles *tl, size_t h, size_t i)
{
    return &tl->walk[h * (tl->last - tl->first + 1) + (i - tl->first)];
}

static void free_each(as_matrix *m, size_t count)
{
    size_t i;

    for (i = 0; m != NULL && i < count; i++)
        as_matrix_free(&m[i]);
    free(m);
}

void as_tiles_free(as_tiles *tl)
{
    const size_t rows = tl->first <= tl->last ? tl->last - tl->first + 1 : 0;
    size_t i;

    free_each(tl->m, tl->heads);
    free_each(tl->l, tl->heads);
    free_each(tl->O, tl->heads);
    for (i = 0; tl->walk != NULL && i < tl->heads * rows; i++)
        free_walk(&tl->walk[i]);
    free(tl->walk);
    free_room(tl->room);
    as_matrix_free(&tl->C);
    as_matrix_free(&tl->Out);
    memset(tl, 0, sizeof *tl);
}
