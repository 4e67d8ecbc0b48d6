/* check.c - grading a student's answers (SPEC §6): which table (or row) of the trace each
 * answer names, which of its cells are right to the precision the student wrote, and
 * the step-by-step judgement from the student's own earlier tables (ownchain.c). A wrong
 * table's mistake is named by diagnose.c. */
#include "attnstep/check.h"
#include "attnstep/block.h"
#include "attnstep/blockcheck.h"
#include "attnstep/headcheck.h"
#include "attnstep/i18n.h"
#include "attnstep/lex.h"
#include "attnstep/ownchain.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------ */
/* One cell                                                                         */
/* ------------------------------------------------------------------------------ */

/* Nonzero when the true value x takes decimals to write: finite and no whole number, to
 * the margin of its computation (a sum of shares that is 1 - 1e-16 is 1). -inf, a
 * masked cell, takes none: no number of decimals makes a written 0.0 right there. */
static int needs_decimals(double x)
{
    return isfinite(x) && fabs(x - nearbyint(x)) > 1e-9 * fmax(1.0, fabs(x));
}

as_cell_verdict as_cell_judge(double w, double u, double x, const as_check_opts *o)
{
    /* --require-digits asks of the true value (SPEC §6): "1.00" for 0.9965 has too few
     * decimals however whole it looks */
    if (o->require_digits > 0 && u > 0 && !isinf(w) && needs_decimals(x) &&
        u > pow(10.0, -o->require_digits) * 1.5)
        return AS_CELL_TOO_FEW;
    return as_answer_cell_ok(w, u, x, o->tol, 0) ? AS_CELL_RIGHT : AS_CELL_WRONG;
}

/* ------------------------------------------------------------------------------ */
/* Which table of the trace an answer names                                        */
/* ------------------------------------------------------------------------------ */

/* The answer's name, then what is wrong with it (msg), with hint. Returns -1. */
static int name_error(const as_answers *a, const as_answer *ans, as_error *err, as_msg msg,
                      as_msg hint)
{
    as_error_msg(err, a->path, ans->pos.line, ans->pos.col, AS_MSG_CHK_NAMED, ans->name,
                 as_msg_text(err->lang, msg));
    as_error_hint_msg(err, hint);
    return -1;
}

/* The layer's table of a kind that names no head. */
/* Nonzero when each head has its own table of kind (the registry's HEAD): with several
 * heads an answer of that kind must name its head, and the problem asks each head's. */
static int per_head(as_answer_kind kind)
{
    return as_tab_get(as_tab_of_answer(kind))->per_head;
}

static const as_matrix *layer_table(const as_trace *t, as_answer_kind kind)
{
    static const as_matrix none; /* a table the run did not make */
    const as_matrix *m;

    if (!as_block_answer(kind))
        return as_trace_table(t, as_tab_of_answer(kind));
    m = t->block != NULL ? as_block_table(t->block, as_tab_of_answer(kind)) : NULL;
    return m != NULL ? m : &none;
}

/* Where a row of S or A written with fewer cells than the row begins, or -1 when it is
 * no such row: decode's span, the cache positions r+1-c .. r of step r (everything
 * outside it unreadable: a window, or the future); else the c positions it reads. */
static long written_from(const as_matrix *S, size_t r, size_t c, size_t *reads)
{
    size_t j, outside = 0;

    *reads = 0;
    for (j = 0; j < S->cols; j++) {
        const int read = AS_AT(*S, r, j) != -INFINITY;
        *reads += (size_t)read;
        outside += (size_t)(read && (j > r || j + c < r + 1));
    }
    if (c >= S->cols || c == 0)
        return -1;
    if (r < S->cols && c <= r + 1 && outside == 0)
        return (long)(r + 1 - c);
    return c == *reads ? (long)S->cols : -1; /* S->cols: the readable positions */
}

/* A row of S or A (row r of head table whole, S its scores) written over only the
 * positions the step reads, as decode and the walk-through print it: made whole into
 * g->own, the cells not written exactly -inf (S) or 0 (A). Returns 0 (also when the row
 * is no such row: given unchanged), or -1 when memory ran out. */
static int widen_row(as_table_grade *g, const as_matrix *whole, const as_matrix *S, size_t r)
{
    const as_answer *ans = g->given;
    const size_t c = ans->value.cols;
    size_t j, k = 0, reads;
    const long from = ans->value.rows == 1 ? written_from(S, r, c, &reads) : -1;
    as_answer *own;

    if (from < 0)
        return 0;
    if ((own = calloc(1, sizeof *own)) == NULL)
        return -1;
    g->own = own;
    if (as_matrix_init(&own->value, 1, whole->cols) != 0 ||
        as_matrix_init(&own->unit, 1, whole->cols) != 0)
        return -1;
    own->name = ans->name, own->pos = ans->pos;
    for (j = 0; j < whole->cols; j++) {
        const int written = (size_t)from == S->cols ? AS_AT(*S, r, j) != -INFINITY
                                                    : j >= (size_t)from && j <= r;
        own->value.v[j] = written ? ans->value.v[k] : g->kind == AS_ANS_S ? -INFINITY : 0.0;
        own->unit.v[j] = written ? ans->unit.v[k++] : 0.0;
    }
    g->given = own;
    g->written = c;
    return 0;
}

/* K or V (the layer's, or a head's) with fewer rows than the table, whole columns: the
 * cache after step rows-1 as decode prints it, graded against the first rows rows and
 * named so ("K[:2]"). */
static void cache_rows(as_table_grade *g, const as_matrix *whole, const char *head)
{
    const as_matrix *w = &g->given->value;

    if ((g->kind != AS_ANS_K && g->kind != AS_ANS_V && g->kind != AS_ANS_KR) || g->row >= 0 || w->rows == 0 ||
        w->rows >= whole->rows || w->cols != whole->cols)
        return;
    g->expected.rows = w->rows;
    snprintf(g->name, sizeof g->name, "%s%s[:%zu]", as_answer_kind_name(g->kind), head, w->rows);
}

/* A row of the online softmax, m1, ℓ1 or f1 (SPEC §11): the values after each block of
 * that row, from the tiled run in blocks of all->tiles_B (run here the first time an
 * answer asks). Returns 0, or -1 with err set when memory ran out. */
static int blocks_row(as_table_grade *g, as_grade *all, const as_problem *p, const as_trace *t,
                      const char *head, as_error *err)
{
    const as_tile_walk *w;
    const size_t B = all->tiles_B > 0 ? all->tiles_B : (p->m > 0 ? p->m : 1);

    if (all->tiles == NULL) {
        if ((all->tiles = calloc(1, sizeof *all->tiles)) == NULL) {
            as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
            return -1;
        }
        if (as_tiles_run(all->tiles, p, t, B, 0, p->n - 1, err) != 0) {
            free(all->tiles);
            all->tiles = NULL;
            return -1;
        }
    }
    w = as_tiles_walk(all->tiles, (size_t)g->head, (size_t)g->row);
    g->expected.rows = 1;
    g->expected.cols = w->blocks;
    g->expected.v = g->kind == AS_ANS_MAX ? w->m : g->kind == AS_ANS_SUM ? w->l : w->factor;
    snprintf(g->name, sizeof g->name, "%s%ld%s", as_answer_row_letter(g->kind), g->row, head);
    return 0;
}

/* Sets g's head (the tables of one head need no head name when there is only one; O
 * alone is the layer's output), name and expected table (or row). */
static int place(as_table_grade *g, as_grade *all, const as_problem *p, const as_trace *t,
                 const as_answers *a, const as_answer *ans, long named, as_error *err)
{
    const as_matrix *whole;
    char head[24] = "";

    if (named >= (long)p->heads ||
        (named >= 0 && (g->kind == AS_ANS_C || g->kind == AS_ANS_PE || g->kind == AS_ANS_PROBS)))
        return name_error(a, ans, err, AS_MSG_CHK_NO_SUCH_HEAD, AS_MSG_CHK_NO_SUCH_HEAD_HINT);
    if (named >= 0 && as_block_answer(g->kind)) /* the block's tables are the layer's, no head's */
        return name_error(a, ans, err, AS_MSG_CHK_NO_SUCH_HEAD, AS_MSG_CHK_NO_SUCH_HEAD_HINT);
    g->head = named;
    if (named < 0 && p->heads == 1 && g->kind != AS_ANS_C && g->kind != AS_ANS_PE &&
        g->kind != AS_ANS_PROBS && g->kind > AS_ANS_V && !as_block_answer(g->kind) &&
        (g->kind != AS_ANS_O || p->Wo == NULL))
        g->head = 0;
    if (g->head < 0 && per_head(g->kind))
        return name_error(a, ans, err, AS_MSG_CHK_WHOSE_HEAD, AS_MSG_CHK_WHOSE_HEAD_HINT);
    whole = g->head < 0 ? layer_table(t, g->kind)
            : g->kind == AS_ANS_RESCALE ? &t->head[g->head].sums /* f1: as many rows */
                                  : as_head_table(&t->head[g->head], g->kind);
    if (whole == NULL || whole->v == NULL) /* PE, Qr, Kr, B without their positions; probs
                                               without a head; the block's without it */
        return name_error(a, ans, err, AS_MSG_CHK_NO_SUCH_TABLE,
                          as_block_answer(g->kind)    ? AS_MSG_CHK_NO_SUCH_BLOCK_HINT
                          : g->kind == AS_ANS_PROBS ? AS_MSG_CHK_NO_PROBS_HINT
                                                    : AS_MSG_CHK_NO_SUCH_TABLE_HINT);
    if (named >= 0)
        snprintf(head, sizeof head, "_h%ld", named);
    g->expected = *whole;
    if (g->row < 0) {
        snprintf(g->name, sizeof g->name, "%s%s", as_answer_kind_name(g->kind), head);
        cache_rows(g, whole, head);
        return 0;
    }
    if ((size_t)g->row >= whole->rows)
        return name_error(a, ans, err, AS_MSG_CHK_NO_SUCH_ROW, AS_MSG_CHK_NO_SUCH_ROW_HINT);
    if (g->kind >= AS_ANS_MAX && g->kind <= AS_ANS_RESCALE)
        return blocks_row(g, all, p, t, head, err);
    g->expected.rows = 1;
    g->expected.v = whole->v + (size_t)g->row * whole->cols;
    if (as_block_answer(g->kind)) /* N1[0]: the block's rows as decode names them */
        snprintf(g->name, sizeof g->name, "%s[%ld]", as_answer_kind_name(g->kind), g->row);
    else
        snprintf(g->name, sizeof g->name, "%s%ld%s", as_answer_row_letter(g->kind), g->row, head);
    if ((g->kind == AS_ANS_S || g->kind == AS_ANS_A) &&
        widen_row(g, whole, &t->head[g->head].S, (size_t)g->row) != 0) {
        as_error_msg(err, a->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    return 0;
}

/* Sets g's kind, head, row, name and expected table from the answer's name. Returns 0,
 * 1 when the name is no table an answer may name, or -1 with err set. */
static int resolve(as_table_grade *g, as_grade *all, const as_problem *p, const as_trace *t,
                   const as_answers *a, const as_answer *ans, as_error *err)
{
    long named;

    g->given = ans;
    g->row = -1;
    if (as_answer_name(ans->name, &g->kind, &named) != 0 &&
        as_answer_row(ans->name, &g->kind, &named, &g->row) != 0)
        return 1; /* no table of the chapter (E, a note): ignored, never a reason to refuse */
    return place(g, all, p, t, a, ans, named, err);
}

/* The book's order: the whole Q, K, V; then each head's tables; then C; then O. A row
 * comes after its table. */
long as_grade_order(const as_table_grade *g)
{
    /* N1 (pre) comes first: the attention reads it; the block's other tables after O */
    const long group = g->kind == AS_ANS_N1 ? 0
                       : as_block_answer(g->kind) ? 5
                       : g->head >= 0           ? 2
                       : g->kind <= AS_ANS_V    ? 1
                       : g->kind == AS_ANS_C    ? 3
                                                : 4;

    return ((group * (long)(AS_MAX_DIM + 1) + g->head + 1) * AS_ANS_KINDS + g->kind) *
               (long)(AS_MAX_DIM + 1) + g->row + 1;
}

static int by_book_order(const void *x, const void *y)
{
    const long a = as_grade_order(x), b = as_grade_order(y);

    return (a > b) - (a < b);
}

/* Nonzero when the written table w (its units in unit) is the table mine, cell by cell
 * as check judges a cell. */
static int same_table(const as_matrix *w, const as_matrix *unit, const as_matrix *mine)
{
    size_t i;

    if (mine == NULL || w->rows != mine->rows || w->cols != mine->cols)
        return 0;
    for (i = 0; i < w->rows * w->cols; i++)
        if (!as_answer_cell_ok(w->v[i], unit->v[i], mine->v[i], -1, 0))
            return 0;
    return 1;
}

/* A table the problem gives (X, Xkv, Wq ... bo, M), as `run` prints it before the
 * answers (with layout: torch, a W table in the book's [in, out], as run shows it, or
 * as the file gives it): 1 when it is the problem's own (it earns no mark), 0 when the
 * name is no input's, -1 with err when it differs: the answers are to another problem. */
static int given_table(const as_problem *p, const as_trace *t, const as_answers *a,
                       const as_answer *ans, const as_check_opts *o, as_error *err)
{
    const int id = as_mat_lookup(ans->name, strlen(ans->name));
    as_answer_kind kind;
    long head;

    if (id < 0 || (as_answer_name(ans->name, &kind, &head) == 0 && kind == AS_ANS_MAX))
        return 0; /* m, m_h0: the online softmax's running max, not the mask M */
    if ((id == AS_E || id == AS_P) && !p->in->mat[id].given)
        return 0; /* without ids: E is the eˣ table a worksheet invites, no input's */
    if (id == AS_M ? same_table(&ans->value, &ans->unit, &t->M)
                   : p->in->mat[id].given &&
                         (same_table(&ans->value, &ans->unit, as_problem_table(p, (as_mat_id)id)) ||
                          same_table(&ans->value, &ans->unit, &p->in->mat[id].m)))
        return 1;
    if (o->given_other)
        return 1; /* another problem's: left out, and the class looks for whose */
    return name_error(a, ans, err, AS_MSG_CHK_OTHER_PROBLEM, AS_MSG_CHK_OTHER_PROBLEM_HINT);
}

/* Frees g's own answer (a widened row), if any. */
static void free_own(as_table_grade *g)
{
    if (g->own != NULL) {
        as_matrix_free(&g->own->value);
        as_matrix_free(&g->own->unit);
        free(g->own);
        g->own = NULL;
    }
}

/* Nonzero when y repeats x: the same name, written alike (shape, values, precision). */
static int repeated(const as_answer *x, const as_answer *y)
{
    const size_t cells = x->value.rows * x->value.cols;
    size_t i;

    if (strcmp(x->name, y->name) != 0 || x->value.rows != y->value.rows ||
        x->value.cols != y->value.cols)
        return 0;
    for (i = 0; i < cells; i++)
        if (!(x->value.v[i] == y->value.v[i]) || !(x->unit.v[i] == y->unit.v[i]))
            return 0;
    return 1;
}

/* Resolves every answer's name, refusing a table (or row) given twice -- unless repeated
 * under the same name, written alike; the problem's own tables (given_table) are checked
 * and left out. */
static int resolve_all(as_grade *g, const as_problem *p, const as_trace *t,
                       const as_answers *a, const as_check_opts *o, as_error *err)
{
    size_t i, j;
    int given;

    for (i = 0; i < a->count; i++) {
        as_table_grade *now = &g->table[g->count];
        if ((given = given_table(p, t, a, &a->item[i], o, err)) != 0) {
            if (given < 0)
                return -1;
            continue;
        }
        memset(now, 0, sizeof *now);
        if ((given = resolve(now, g, p, t, a, &a->item[i], err)) < 0)
            goto fail;
        if (given > 0) {
            g->ignored[g->nignored++] = a->item[i].name;
            continue;
        }
        for (j = 0; j < g->count; j++)
            if (g->table[j].expected.v == now->expected.v &&
                g->table[j].expected.rows == now->expected.rows &&
                (g->table[j].row < 0) == (now->row < 0)) /* k0 and K[:1] differ */
                break;
        if (j == g->count) {
            g->count++;
            continue;
        }
        if (!repeated(g->table[j].given, now->given)) {
            name_error(a, &a->item[i], err, AS_MSG_CHK_GIVEN_TWICE, AS_MSG_CHK_GIVEN_TWICE_HINT);
            goto fail;
        }
        free_own(now); /* O again, as run --tiles prints it after run's: marked once */
    }
    return 0;
fail:
    free_own(&g->table[g->count]);
    return -1;
}

/* ------------------------------------------------------------------------------ */
/* Grading                                                                          */
/* ------------------------------------------------------------------------------ */

/* Finds the wrong cells of one table against the true values (all of them when the
 * shape differs). Sets *too_few when a cell has too few decimals. */
static int grade_cells(as_table_grade *g, const as_check_opts *o, int *too_few)
{
    const as_matrix *e = &g->expected, *w = &g->given->value;
    const size_t cells = e->rows * e->cols;
    size_t i;

    *too_few = 0;
    if (g->own == NULL)
        g->written = cells;
    g->shape_ok = e->rows == w->rows && e->cols == w->cols;
    if ((g->wrong = malloc((cells ? cells : 1) * sizeof *g->wrong)) == NULL)
        return -1;
    for (i = 0; i < cells; i++) {
        as_cell_verdict v = g->shape_ok ? as_cell_judge(w->v[i], g->given->unit.v[i], e->v[i], o)
                                        : AS_CELL_WRONG;
        if (v == AS_CELL_RIGHT)
            continue;
        g->wrong[g->nwrong].cell = i;
        g->wrong[g->nwrong++].too_few = v == AS_CELL_TOO_FEW;
        *too_few |= v == AS_CELL_TOO_FEW;
    }
    g->correct = g->nwrong == 0;
    return 0;
}

/* Nonzero when every cell agrees with the step done on the student's own tables: the
 * recomputed cell is an interval, as wide as the rounding of the tables written before
 * it can move it (SPEC §6; with --tol, tol alone). */
static int agrees_with(const as_table_grade *g, const as_chain_slot *s, double tol)
{
    const as_matrix *w = &g->given->value;
    const size_t at = g->row >= 0 ? (size_t)g->row * s->calc.cols : 0;
    size_t i;

    if (!s->ok || !g->shape_ok)
        return 0;
    for (i = 0; i < w->rows * w->cols; i++)
        if (!as_answer_cell_ok(w->v[i], g->given->unit.v[i], s->calc.v[at + i], tol,
                               tol < 0 ? s->cerr.v[at + i] : 0))
            return 0;
    return 1;
}

/* The student's answers a table came from: the taint of its rows (or its one row). */
static uint64_t sources(const as_table_grade *g, const as_chain_slot *s)
{
    uint64_t t = 0;
    size_t r;

    if (g->row >= 0)
        return s->ctaint[g->row];
    for (r = 0; r < s->calc.rows; r++)
        t |= s->ctaint[r];
    return t;
}

/* Names the wrong answers among bits into g->carried_from ("K, QKT"). */
static void name_sources(as_table_grade *g, const as_grade *all, uint64_t bits)
{
    size_t i, len = 0;

    g->carried_from[0] = '\0';
    for (i = 0; i < all->count && len < sizeof g->carried_from; i++)
        if (bits & AS_CHAIN_BIT(i))
            len += (size_t)snprintf(g->carried_from + len, sizeof g->carried_from - len, "%s%s",
                                    len ? ", " : "", all->table[i].name);
}

/* The mistakes behind the wrong answers among bits: a carried_error's own origin (the
 * table where the mistake was made), else the answer itself. */
static uint64_t origins(uint64_t bits, const uint64_t *origin, size_t count)
{
    uint64_t out = 0;
    size_t b;

    for (b = 0; b < 63 && b < count; b++)
        if (bits & AS_CHAIN_BIT(b))
            out |= origin[b];
    return out | (bits & AS_CHAIN_BIT(63));
}

/* Judges table i: right against the truth; else right or carried_error when its step,
 * done on the student's own earlier tables, gives it (carried from where the mistake
 * was made, origin[]); else wrong, with its mistake. */
/* A wrong block table (N1 … Y): its step on the student's own tables (blockcheck.c).
 * *agrees and *from as that step says; the convention mistake named when one fits. */
static int judge_block(as_grade *g, size_t i, const as_chain_cache *cache, const as_trace *t,
                       const as_check_opts *o, int *agrees, uint64_t *from)
{
    return as_block_judge(&g->table[i], g->table, i, cache->p, t, o->tol, agrees, from);
}

/* With block: pre the attention reads N1: when the student gave N1 whole, their own
 * chain starts from it (*q is p reading their N1; ownchain.c then counts its rounding and
 * taints the projections with it); else *q is p. */
static void own_n1(as_problem *q, const as_problem *p, const as_trace *t, const as_grade *g)
{
    size_t i;

    *q = *p;
    if (t->block == NULL || p->block != AS_BLOCK_PRE)
        return;
    for (i = 0; i < g->count; i++) {
        const as_table_grade *e = &g->table[i];
        if (e->kind == AS_ANS_N1 && e->row < 0 && e->own == NULL &&
            e->given->value.rows == p->X->rows && e->given->value.cols == p->X->cols) {
            q->X = &e->given->value;
            if (!p->cross)
                q->Xkv = q->X;
            return;
        }
    }
}

static int judge(as_grade *g, size_t i, as_chain_cache *cache, const as_trace *t,
                 uint64_t *wrong_set, uint64_t *origin, const as_check_opts *o)
{
    as_table_grade *e = &g->table[i];
    const as_chain *right;
    uint64_t from = 0;
    int too_few, agrees = 0;

    if (grade_cells(e, o, &too_few) != 0)
        return -1;
    if (!e->correct && !too_few && (e->kind < AS_ANS_PE || as_block_answer(e->kind))) {
        /* positions' tables have no chain; the block's have their own steps */
        if (as_block_answer(e->kind)) {
            if (judge_block(g, i, cache, t, o, &agrees, &from) != 0)
                return -1;
        } else {
            if ((right = as_chain_get(cache, 0)) == NULL)
                return -1;
            agrees = agrees_with(e, as_chain_slot_of(right, cache->p, e), o->tol);
            if (agrees)
                from = sources(e, as_chain_slot_of(right, cache->p, e));
        }
        if (agrees) {
            const uint64_t bad = from & *wrong_set;
            if (bad == 0) {
                e->correct = 1; /* right from the student's own rounded tables */
                e->nwrong = 0;
            } else {
                e->diagnosis = AS_DIAG_CARRIED_ERROR;
                origin[i] = origins(bad, origin, i);
                name_sources(e, g, origin[i]);
            }
        } else if (!as_block_answer(e->kind) && as_diagnose(e, cache, o->tol) != 0) {
            return -1;
        }
    }
    e->credit = e->correct || e->diagnosis == AS_DIAG_CARRIED_ERROR;
    if (!e->correct)
        *wrong_set |= AS_CHAIN_BIT(i);
    if (!e->correct && e->diagnosis != AS_DIAG_CARRIED_ERROR)
        origin[i] = AS_CHAIN_BIT(i); /* the mistake was made here */
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The score, out of what was asked                                                */
/* ------------------------------------------------------------------------------ */

/* Adds the mark of the table of a kind (head -1: the layer's) to g's list, once. */
static void ask(as_grade *g, const as_problem *p, const as_trace *t, as_answer_kind kind, long head)
{
    as_mark *m = &g->mark[g->nmarks];
    const as_matrix *whole = head < 0 ? layer_table(t, kind) : as_head_table(&t->head[head], kind);
    size_t i;

    for (i = 0; i < g->nmarks; i++)
        if (g->mark[i].kind == kind && g->mark[i].head == head)
            return;
    g->nmarks++;
    m->kind = kind;
    m->head = head;
    m->rows = whole->rows;
    /* a head's table says whose when there are several heads, or when it is not the
     * layer's: with one head and Wo, O_h0 is the head's O, before Wo; O is after it */
    if (head >= 0 && (t->heads > 1 || (kind == AS_ANS_O && p->Wo != NULL)))
        snprintf(m->name, sizeof m->name, "%s_h%ld", as_answer_kind_name(kind), head);
    else
        snprintf(m->name, sizeof m->name, "%s", as_answer_kind_name(kind));
}

/* Adds the marks of one name of the input's ask: setting ("S": each head's S; "S_h1";
 * "O": the layer's output); t NULL: only checks the name. Returns 0, or -1 when the name
 * is no table of p. */
static int ask_named(as_grade *g, const as_problem *p, const as_trace *t, const char *name)
{
    as_answer_kind kind;
    long head;
    size_t h;

    if (as_answer_name(name, &kind, &head) != 0 || (kind >= AS_ANS_MAX && kind <= AS_ANS_RESCALE) ||
        (kind == AS_ANS_PROBS && p->head == AS_HEAD_NONE) || head >= (long)p->heads ||
        (head >= 0 && (kind == AS_ANS_C || kind == AS_ANS_PE || as_block_answer(kind))))
        return -1;
    if (t == NULL)
        return 0; /* the name alone: as_check_ask() */
    if (head < 0 && kind == AS_ANS_O && p->heads == 1 && p->Wo == NULL)
        head = 0; /* one head, no Wo: the head's O is the layer's */
    if (head >= 0 || !per_head(kind)) {
        if ((head < 0 ? layer_table(t, kind) : as_head_table(&t->head[head], kind))->v == NULL)
            return -1;
        ask(g, p, t, kind, head);
        return 0;
    }
    for (h = 0; h < p->heads; h++) { /* QKT, S, A, Qr, Kr, B without a head: every head's */
        if (as_head_table(&t->head[h], kind)->v == NULL)
            return -1;
        ask(g, p, t, kind, (long)h);
    }
    return 0;
}

/* The words of a list of tables asked (the input's ask: setting at its place, or
 * --expect with no place), one by one. Returns 0, -1 when memory ran out, or 1 with err
 * set at the word that names no table. */
static int asked_words(as_grade *g, const as_problem *p, const as_trace *t, const char *w,
                       const as_pos *at, as_error *err)
{
    const char *const start = w;
    char name[32];
    size_t n, words = 1;

    for (n = 0; w[n] != '\0'; n++)
        words += w[n] == ' ' || w[n] == '\t';
    if ((g->mark = calloc(words * p->heads + 1, sizeof *g->mark)) == NULL)
        return -1;
    while (*w != '\0') {
        for (; *w == ' ' || *w == '\t'; w++)
            ;
        for (n = 0; w[n] != '\0' && w[n] != ' ' && w[n] != '\t'; n++)
            ;
        if (n == 0)
            break;
        snprintf(name, sizeof name, "%.*s", (int)n, w);
        if (n >= sizeof name || ask_named(g, p, t, name) != 0) {
            char shown[64]; /* the word as written, not name's first 31 bytes: a long word
                             * is cut at a character, with "...", and a control escaped */
            as_lex_quote(shown, sizeof shown, w, n);
            if (at != NULL) {
                as_error_msg(err, p->in->path, at->line, at->col + (int)(w - start),
                             AS_MSG_CHK_ASK_UNKNOWN, shown);
                as_error_hint_msg(err, AS_MSG_CHK_ASK_UNKNOWN_HINT);
            } else {
                as_error_msg(err, "", 0, 0, AS_MSG_CHK_EXPECT_UNKNOWN, shown);
                as_error_hint_msg(err, AS_MSG_CHK_EXPECT_UNKNOWN_HINT);
            }
            return 1;
        }
        w += n;
    }
    return 0;
}

/* The tables p asks (SPEC §6): --expect, else its ask: setting (an exercise file), else Q, K, V, QKT,
 * S, A and O; with several heads each head's QKT, S and A, and C when Wo is given.
 * Returns 0, -1 when memory ran out, or 1 with err set for a bad ask: setting. */
static int asked(as_grade *g, const as_problem *p, const as_trace *t, const char *expect,
                 as_error *err)
{
    as_answer_kind k;
    size_t h;

    if (expect != NULL)
        return asked_words(g, p, t, expect, NULL, err);
    if (p->in->ask != NULL)
        return asked_words(g, p, t, p->in->ask, &p->in->ask_pos, err);
    if ((g->mark = calloc(3 * p->heads + 6 + AS_ANS_Y - AS_ANS_N1 + 1, sizeof *g->mark)) == NULL)
        return -1;
    if (layer_table(t, AS_ANS_N1)->v != NULL) /* pre: N1 first, the attention reads it */
        ask(g, p, t, AS_ANS_N1, -1);
    for (k = AS_ANS_Q; k <= AS_ANS_V; k++)
        ask(g, p, t, k, -1);
    for (h = 0; h < p->heads; h++)
        for (k = AS_ANS_QKT; k <= AS_ANS_A; k++)
            ask(g, p, t, k, (long)h);
    if (p->heads > 1 && p->Wo != NULL)
        ask(g, p, t, AS_ANS_C, -1);
    ask(g, p, t, AS_ANS_O, p->heads == 1 && p->Wo == NULL ? 0 : -1);
    for (k = AS_ANS_H1; t->block != NULL && k <= AS_ANS_Y; k++) /* the block's, as it makes them */
        if (layer_table(t, k)->v != NULL && (k != AS_ANS_Y || p->final_norm))
            ask(g, p, t, k, -1);
    if (t->out != NULL) /* SPEC §19: the probabilities the draw follows */
        ask(g, p, t, AS_ANS_PROBS, -1);
    return 0;
}

/* What the answers earned of mark m: the credit of the whole table when it was answered
 * whole (the rows then count no more), else 1/rows for each row some answer gave right
 * (a row answer "a1", or the first rows "K[:1]"), each row once. */
static int earn(as_mark *m, const as_grade *g)
{
    unsigned char *hit = calloc(m->rows ? m->rows : 1, 1);
    size_t i, r, rows = 0;
    int whole = -1;

    if (hit == NULL)
        return -1;
    for (i = 0; i < g->count; i++) {
        const as_table_grade *e = &g->table[i];
        if (e->kind != m->kind || e->head != m->head)
            continue;
        m->answered = 1;
        if (e->row < 0 && e->expected.rows == m->rows)
            whole = whole > e->credit ? whole : e->credit;
        else if (e->row < 0)
            for (r = 0; r < e->expected.rows && r < m->rows; r++)
                hit[r] |= (unsigned char)e->credit;
        else if ((size_t)e->row < m->rows)
            hit[e->row] |= (unsigned char)e->credit;
    }
    for (r = 0; r < m->rows; r++)
        rows += hit[r];
    free(hit);
    m->earned = whole >= 0 ? whole : m->rows ? (double)rows / (double)m->rows : 0;
    return 0;
}

/* g's marks and score. Returns 0, -1 when memory ran out, or 1 with err set for a bad
 * ask: setting. */
/* g's score from its marks. Returns 0, or -1 when memory ran out. */
static int add_up(as_grade *g)
{
    size_t i;

    g->score = 0;
    for (i = 0; i < g->nmarks; i++) {
        if (earn(&g->mark[i], g) != 0)
            return -1;
        g->score += g->mark[i].earned;
    }
    return 0;
}

static int score(as_grade *g, const as_problem *p, const as_trace *t, const char *expect,
                 as_error *err)
{
    const int rc = asked(g, p, t, expect, err);

    return rc != 0 ? rc : add_up(g);
}

int as_check_ask(const as_problem *p, const char *expect, as_error *err)
{
    as_grade g;
    int rc;

    if (expect == NULL && p->in->ask == NULL)
        return 0;
    memset(&g, 0, sizeof g);
    rc = expect != NULL ? asked_words(&g, p, NULL, expect, NULL, err)
                        : asked_words(&g, p, NULL, p->in->ask, &p->in->ask_pos, err);
    free(g.mark);
    if (rc < 0)
        as_error_msg(err, p->in->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
    return rc == 0 ? 0 : -1;
}

int as_grade_uncarry(as_grade *g)
{
    size_t i;

    for (i = 0; i < g->count; i++)
        if (g->table[i].diagnosis == AS_DIAG_CARRIED_ERROR) {
            g->table[i].diagnosis = AS_DIAG_NONE;
            g->table[i].credit = 0;
            g->table[i].carried_from[0] = '\0';
        }
    return add_up(g);
}

int as_check_grade(as_grade *g, const as_problem *p, const as_trace *t, const as_answers *a,
                   const as_check_opts *o, as_error *err)
{
    return as_check_grade_tiles(g, p, t, a, o, 0, err);
}

/* The output head's probabilities written wrong (SPEC §19): the mistake of order they
 * match, from the head's own h (the last row of O, or Y with a block). Returns 0, or -1
 * when memory ran out. */
static int head_mistakes(as_grade *g, const as_problem *p, const as_trace *t,
                         const as_check_opts *o)
{
    const as_matrix *last = t->block != NULL ? as_block_table(t->block, AS_TAB_Y) : &t->O;
    size_t i;

    for (i = 0; i < g->count; i++) {
        as_table_grade *e = &g->table[i];
        if (e->kind != AS_ANS_PROBS || e->correct || !e->shape_ok || t->out == NULL)
            continue;
        if (as_head_diagnose(&e->diagnosis, p, &AS_AT(*last, last->rows - 1, 0), last->cols,
                             e->given->value.v, e->given->unit.v, o->tol) != 0)
            return -1;
    }
    return 0;
}

int as_check_grade_tiles(as_grade *g, const as_problem *p, const as_trace *t,
                         const as_answers *a, const as_check_opts *o, size_t B, as_error *err)
{
    as_chain_cache cache;
    as_problem q;
    uint64_t wrong_set = 0, *origin = NULL;
    size_t i;
    int rc;

    memset(g, 0, sizeof *g);
    g->tiles_B = B;
    as_chain_cache_init(&cache, p, &t->M, NULL, 0);
    if (a->count > 0 && ((g->table = calloc(a->count, sizeof *g->table)) == NULL ||
                         (g->ignored = calloc(a->count, sizeof *g->ignored)) == NULL))
        goto nomem;
    if (a->count > 0 && resolve_all(g, p, t, a, o, err) != 0)
        goto fail;
    if (g->count > 0) /* none (a blank file, only X, W ...): every table asked is missing */
        qsort(g->table, g->count, sizeof *g->table, by_book_order);
    own_n1(&q, p, t, g);
    as_chain_cache_init(&cache, &q, &t->M, g->table, g->count);
    if ((origin = calloc(g->count ? g->count : 1, sizeof *origin)) == NULL)
        goto nomem;
    g->correct = 1;
    for (i = 0; i < g->count; i++) {
        g->table[i].index = i;
        if (judge(g, i, &cache, t, &wrong_set, origin, o) != 0)
            goto nomem;
        g->correct &= g->table[i].correct;
    }
    g->correct &= g->count > 0; /* a blank file has nothing right */
    if (head_mistakes(g, p, t, o) != 0)
        goto nomem;
    if ((rc = score(g, p, t, o->expect, err)) != 0) {
        if (rc < 0)
            goto nomem;
        goto fail;
    }
    free(origin);
    as_chain_cache_free(&cache);
    return 0;
nomem:
    as_error_msg(err, a->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
fail:
    free(origin);
    as_chain_cache_free(&cache);
    as_grade_free(g);
    return -1;
}

void as_grade_free(as_grade *g)
{
    size_t i;

    for (i = 0; i < g->count; i++) {
        free(g->table[i].wrong);
        free_own(&g->table[i]);
    }
    free(g->table);
    free(g->mark);
    free(g->ignored);
    if (g->tiles != NULL)
        as_tiles_free(g->tiles);
    free(g->tiles);
    memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------------------------------ */
/* A class                                                                          */
/* ------------------------------------------------------------------------------ */

/* The item of mark name in s, added when new; NULL when there is no room. */
static as_item *item_of(as_class_summary *s, const char *name)
{
    size_t i;

    for (i = 0; i < s->nitems; i++)
        if (strcmp(s->item[i].name, name) == 0)
            return &s->item[i];
    if (s->nitems == AS_MAX_ITEMS)
        return NULL;
    snprintf(s->item[s->nitems].name, sizeof s->item[0].name, "%s", name);
    return &s->item[s->nitems++];
}

/* Counts mark m of grade g into its item: missing; else wrong when an answer of it
 * (the whole table when answered whole) earned nothing, carried when one was a
 * carried_error, right otherwise. */
static void count_item(as_item *it, const as_mark *m, const as_grade *g)
{
    size_t i;
    int whole = 0, wrong = 0, carried = 0;
    as_diag diag = AS_DIAG_NONE;

    if (!m->answered) {
        it->missing++;
        return;
    }
    for (i = 0; i < g->count; i++)
        whole |= g->table[i].kind == m->kind && g->table[i].head == m->head &&
                 g->table[i].row < 0 && g->table[i].expected.rows == m->rows;
    for (i = 0; i < g->count; i++) {
        const as_table_grade *e = &g->table[i];
        if (e->kind != m->kind || e->head != m->head ||
            (whole && !(e->row < 0 && e->expected.rows == m->rows)))
            continue;
        if (!e->credit && !wrong)
            wrong = 1, diag = e->diagnosis;
        carried |= e->diagnosis == AS_DIAG_CARRIED_ERROR;
    }
    if (wrong) {
        it->wrong++;
        it->made[diag]++;
    } else if (carried) {
        it->carried++;
    } else {
        it->right++;
    }
}

void as_class_summarize(as_class_summary *s, const as_grade *const *grades, size_t n)
{
    size_t i, j, max = 0;
    double marks = 0;

    memset(s, 0, sizeof *s);
    for (i = 0; i < n; i++) {
        int made[AS_DIAG_COUNT] = {0};
        if (grades[i] == NULL)
            continue;
        s->students++;
        marks += grades[i]->score;
        max += grades[i]->nmarks;
        for (j = 0; j < grades[i]->count; j++)
            made[grades[i]->table[j].diagnosis] = 1;
        for (j = 0; j < grades[i]->nmarks; j++) {
            as_item *it = item_of(s, grades[i]->mark[j].name);
            if (it != NULL)
                count_item(it, &grades[i]->mark[j], grades[i]);
        }
        for (j = AS_DIAG_CARRIED_ERROR + 1; j < AS_DIAG_COUNT; j++)
            s->made[j] += (size_t)made[j];
    }
    if (s->students > 0) {
        s->mean_score = marks / (double)s->students;
        s->mean_max = (double)max / (double)s->students;
    }
}
