/* verify.c - checking a book (SPEC §18): the chapter's given tables make the problem, the
 * run recomputes it, and every printed number is judged by check's cell rule, with the
 * author as the student; a wrong one is tried against check's named mistakes (the own
 * chain of ownchain.h, each mistake's variant, laid over no answers). A wrong number
 * that its step gives from the chapter's own printed blocks, one of them wrong, is
 * carried: the same chain with the printed blocks laid over it as a student's answers,
 * so that a mistake is reported once, where it is made; the walk-through's softmax
 * sub-steps and the block's tables are carried the same way, each step done again by
 * the steps layer on the numbers the chapter printed before it. */
#include "attnstep/verify.h"
#include "attnstep/answers.h"
#include "attnstep/block.h"
#include "attnstep/check.h"
#include "attnstep/ffn.h"
#include "attnstep/i18n.h"
#include "attnstep/mistake_steps.h"
#include "attnstep/norm.h"
#include "attnstep/ownchain.h"
#include "attnstep/parse.h"
#include "attnstep/positions.h"
#include "attnstep/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The problem the chapter gives, run, and the mistakes' chains made when first asked. */
typedef struct work {
    as_input in;
    as_problem p;         /* the chapter's problem */
    as_problem q;         /* what its attention reads: p, or with block: pre p on N1 */
    as_block_trace b;     /* the block's tables (empty without block) */
    as_trace t;
    as_trace alt;         /* RoPE: the run with the pairs taken the other way, when asked */
    int alt_made;
    int *norm_of;         /* per item: the norm (0 norm1, 1 norm2, 2 normf) of a sub-step */
    as_chain_cache cache;
    int cached;
    as_answer *given;     /* nans: the chapter's printed blocks as a student's answers */
    as_table_grade *ans;
    size_t *ans_item;     /* the item each answer is */
    size_t nans;
    as_chain_cache own;   /* the chain on them */
    int own_made;
    long *origin;         /* per item: the item where its mistake was made, -1: none */
    int oom;              /* memory ran out in a value done again: the report would lie */
} work;

/* ------------------------------------------------------------------ the problem ---- */

/* The chapter's given tables (X, Wq, Wk, Wv, M …) as an input; the last printing of
 * each counts. 0, or -1 with err set. */
static int given_input(as_input *in, const as_chapter *ch, as_error *err)
{
    static const as_mat_id needed[] = {AS_X, AS_WQ, AS_WK, AS_WV};
    size_t i;

    memset(in, 0, sizeof *in);
    if (ch->settings != NULL) {
        if (as_parse_text(in, ch->settings, ch->settings_len, ch->path, err) != 0)
            return -1; /* the one settings reader says what is wrong, at its place */
    } else if ((in->path = malloc(strlen(ch->path) + 1)) == NULL)
        goto memory;
    else
        strcpy(in->path, ch->path);
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        as_named *nm = &in->mat[it->input];
        if (it->what != AS_PR_INPUT)
            continue;
        as_matrix_free(&nm->m);
        if (as_matrix_copy(&nm->m, &it->value) != 0)
            goto memory;
        nm->given = 1;
        nm->pos = it->pos;
        if (it->input == AS_M)
            in->mask = AS_MASK_CUSTOM;
    }
    for (i = 0; i < ch->count; i++) {
        const as_printed_what what = ch->item[i].what;
        if (what == AS_PR_PE)
            in->positions = AS_POSITIONS_SINUSOIDAL; /* Q = (X + PE) @ Wq */
        if ((what == AS_PR_QR || what == AS_PR_KR) && in->positions == AS_POSITIONS_NONE)
            in->positions = AS_POSITIONS_ROPE;
        if (what == AS_PR_B && in->positions == AS_POSITIONS_NONE)
            in->positions = AS_POSITIONS_ALIBI;
        if (what >= AS_PR_BLOCK && in->block == AS_BLOCK_NONE)
            in->block = AS_BLOCK_PRE; /* N1, H1 … printed: a block, GPT-2's order */
        if (ch->item[i].head >= 0 && (size_t)ch->item[i].head >= in->heads)
            in->heads = (size_t)ch->item[i].head + 1; /* S₁ printed: at least two heads */
    }
    for (i = 0; i < sizeof needed / sizeof needed[0]; i++)
        if (!in->mat[needed[i]].given) {
            as_error_msg(err, ch->path, 1, 1, AS_MSG_VF_NOT_GIVEN, as_mat_name(needed[i]));
            as_error_hint_msg(err, AS_MSG_VF_NOT_GIVEN_HINT);
            return -1;
        }
    return 0;
memory:
    as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
    return -1;
}

/* ------------------------------------------------------------------ the values ---- */

/* The answer kind a printed item is checked as in a chain, and its head: the layer's
 * Q, K, V, O unless named with a head's subscript (Q₀, O₁); the scores' tables of the
 * head named, or of head 0. */
static as_answer_kind chain_kind(const as_printed *it, long *head)
{
    const long named = it->head;

    *head = named < 0 ? 0 : named;
    switch (it->what) {
    case AS_PR_Q: *head = named; return AS_ANS_Q;
    case AS_PR_K: *head = named; return AS_ANS_K;
    case AS_PR_V: *head = named; return AS_ANS_V;
    case AS_PR_QKT: return AS_ANS_QKT;
    case AS_PR_A: return AS_ANS_A;
    case AS_PR_O: *head = named; return AS_ANS_O;
    case AS_PR_C: *head = -1; return AS_ANS_C;
    default: return AS_ANS_S; /* the scaled scores, their shift, exps and sum come from S */
    }
}

/* The norm whose outputs are table tab in a block of kind block (0 norm1, 1 norm2, 2
 * normf), or -1 when tab is no norm's output. */
static int norm_output(int tab, as_block_kind block, int final_norm)
{
    if (tab == AS_TAB_Y)
        return final_norm ? 2 : -1;
    if (block == AS_BLOCK_PRE)
        return tab == AS_TAB_N1 ? 0 : tab == AS_TAB_N2 ? 1 : -1;
    return tab == AS_TAB_H1 ? 0 : tab == AS_TAB_H2 ? 1 : -1;
}

/* Each norm sub-step's norm: the one whose output the chapter prints next after it,
 * else last before it, else norm1. */
static void resolve_norms(work *w, const as_chapter *ch)
{
    size_t i, j;

    for (i = 0; i < ch->count; i++) {
        const as_printed_what what = ch->item[i].what;
        int k = -1;
        w->norm_of[i] = -1;
        if (what < AS_PR_MEAN || what > AS_PR_XHAT)
            continue;
        for (j = i + 1; j < ch->count && k < 0; j++)
            if (ch->item[j].what == AS_PR_BLOCK)
                k = norm_output(ch->item[j].tab, w->p.block, w->p.final_norm);
        for (j = i; j-- > 0 && k < 0;)
            if (ch->item[j].what == AS_PR_BLOCK)
                k = norm_output(ch->item[j].tab, w->p.block, w->p.final_norm);
        w->norm_of[i] = k < 0 ? 0 : k;
    }
}

/* The recorded sub-steps of norm k of the block. */
static const as_norm_trace *norm_trace(const work *w, int k)
{
    return k == 0 ? &w->b.norm1 : k == 1 ? &w->b.norm2 : &w->b.normf;
}

/* The table of the run that holds item idx of ch (a head's when it names one, else the
 * layer's Q, K, V, O and head 0's scores; the block's and its norms'); NULL when the run
 * has none. The problem has every head the chapter names (given_input()). */
static const as_matrix *run_table(const work *w, const as_chapter *ch, size_t idx)
{
    const as_printed *it = &ch->item[idx];
    const as_trace *t = &w->t;
    const as_head_trace *h = &t->head[it->head < 0 ? 0 : it->head];
    const int layer = it->head < 0;
    const as_matrix *m;

    switch (it->what) {
    case AS_PR_Q: return layer ? &t->Q : &h->Q;
    case AS_PR_K: return layer ? &t->K : &h->K;
    case AS_PR_V: return layer ? &t->V : &h->V;
    case AS_PR_QKT: return &h->QKT;
    case AS_PR_SCALED: return &h->scaled;
    case AS_PR_S: return &h->S;
    case AS_PR_SHIFTED: return &h->shifted;
    case AS_PR_EXPS: return &h->exps;
    case AS_PR_SUM: return &h->sums;
    case AS_PR_A: return &h->A;
    case AS_PR_C: return &t->C;
    case AS_PR_QR: m = &h->Qr; break;
    case AS_PR_KR: m = &h->Kr; break;
    case AS_PR_B: m = &h->B; break;
    case AS_PR_BLOCK: return as_block_table(&w->b, (as_tab)it->tab);
    case AS_PR_MEAN: m = &norm_trace(w, w->norm_of[idx])->mean; break;
    case AS_PR_VAR: m = &norm_trace(w, w->norm_of[idx])->var; break;
    case AS_PR_DIV: m = &norm_trace(w, w->norm_of[idx])->div; break;
    case AS_PR_XHAT: m = &norm_trace(w, w->norm_of[idx])->xhat; break;
    default: return layer ? &t->O : &h->O;
    }
    return m->v != NULL ? m : NULL;
}

/* Cell (i, j) of a softmax sub-step (what: shifted, exps or sum) of row i of scores s
 * [rows, m]; NAN when the row reads nothing, or when memory ran out (*oom set). */
static double softmax_step(const as_matrix *s, as_printed_what what, size_t i, size_t j,
                           int *oom)
{
    double *room = malloc(3 * s->cols * sizeof *room), mx, sum, x;

    if (room == NULL) {
        *oom = 1;
        return NAN;
    }
    if (as_softmax_rows(room, &mx, room + s->cols, room + 2 * s->cols, &sum,
                        s->v + i * s->cols, 1, s->cols) >= 0)
        x = NAN;
    else
        x = what == AS_PR_SUM ? sum : room[(what == AS_PR_SHIFTED ? 1 : 2) * s->cols + j];
    free(room);
    return x;
}

/* Cell (i, j) of item it in the chain of mistake variant k; NAN where that chain has
 * none (or says nothing different of a masked cell). */
static double variant_value(work *w, size_t k, const as_printed *it, size_t i, size_t j)
{
    const as_printed_what what = it->what;
    const as_chain *c;
    const as_chain_slot *s;
    as_table_grade g;

    if (!w->cached) {
        as_chain_cache_init(&w->cache, &w->q, &w->t.M, NULL, 0);
        w->cached = 1;
    }
    if ((c = as_chain_get(&w->cache, k)) == NULL) {
        w->oom = 1;
        return NAN;
    }
    memset(&g, 0, sizeof g);
    g.kind = chain_kind(it, &g.head);
    s = as_chain_slot_of(c, &w->q, &g);
    if (!s->ok || i >= s->calc.rows || (what != AS_PR_SUM && j >= s->calc.cols))
        return NAN;
    if (what == AS_PR_SCALED)
        return w->t.M.v[i * w->t.M.cols + j] == 0 ? s->calc.v[i * s->calc.cols + j] : NAN;
    if (what == AS_PR_SHIFTED || what == AS_PR_EXPS || what == AS_PR_SUM)
        return softmax_step(&s->calc, what, i, j, &w->oom);
    return s->calc.v[i * s->calc.cols + j];
}

/* ------------------------------------------------------------------ judging ---- */

/* check's cell rule: each printed number to half a unit of its last printed place. */
static const as_check_opts cell_rule = {.tol = -1.0};

/* The verdict on printed w (unit u) for the right value x. */
static as_vverdict judge(double w, double u, double x)
{
    if (as_cell_judge(w, u, x, &cell_rule) == AS_CELL_RIGHT)
        return AS_VF_AGREES;
    if (u > 0 && isfinite(x) && isfinite(w)) {
        if (fabs(w / u - trunc(x / u)) < 1e-3) /* in units: w - trunc(x/u)*u is off by
                                                  * an ulp of w, more than 1e-6 units */
            return AS_VF_TRUNCATED;
        if (fabs(w - x) < u)
            return AS_VF_ROUNDED;
    }
    return AS_VF_WRONG;
}

/* The first named mistake whose chain gives the wrong printed number of n (and differs
 * there from the right value). */
static as_fit find_variant(work *w, const as_vnumber *n)
{
    as_fit none = {AS_DIAG_NONE, 0};
    size_t k;
    double x;

    if (n->item->what == AS_PR_SQRT)
        return none;
    for (k = 1; k < AS_CHAIN_VARIANTS; k++) {
        x = variant_value(w, k, n->item, (size_t)n->row, (size_t)n->col);
        if (!isnan(x) && as_cell_judge(x, 0, n->right, &cell_rule) != AS_CELL_RIGHT &&
            as_cell_judge(n->printed, n->unit, x, &cell_rule) == AS_CELL_RIGHT)
            return as_chain_variant(k);
    }
    return none;
}

/* ------------------------------------------------------------------ PE tables ---- */

/* Cell (r, c) of the sinusoidal table [n, d] of variant k (AS_VV_NONE: the right one);
 * NAN where the variant has no such cell (swapped, the last column of an odd d). */
static double pe_value(const double *right, const double *base100, size_t d, as_vvariant k,
                       size_t r, size_t c)
{
    switch (k) {
    case AS_VV_PE_BASE_100: return base100[r * d + c];
    case AS_VV_PE_SWAPPED: return (c ^ 1) < d ? right[r * d + (c ^ 1)] : NAN;
    default: return right[r * d + c];
    }
}

/* Checks the printed PE table it (its positions 0 .. rows-1, d_model its columns) into v,
 * each wrong number tried against base 100 and sin/cos swapped. 0, or -1 with err set. */
static int check_pe(as_verify *v, const as_printed *it, const char *path, as_error *err)
{
    const size_t n = it->value.rows, d = it->value.cols;
    double *right = malloc(2 * n * d * sizeof *right), *base100 = right + n * d;
    size_t r, c, k;

    if (right == NULL) {
        as_error_msg(err, path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    as_sinusoidal(right, n, d, 0);
    as_sinusoidal_base(base100, n, d, 0, 100.0);
    for (r = 0; r < n; r++)
        for (c = 0; c < d; c++) {
            as_vnumber *num = &v->num[v->count++];
            memset(num, 0, sizeof *num);
            num->item = it;
            num->row = (long)r;
            num->col = (long)c;
            num->printed = it->value.v[r * d + c];
            num->unit = it->unit.v[r * d + c];
            num->at = it->at[r * d + c];
            num->right = right[r * d + c];
            num->verdict = judge(num->printed, num->unit, num->right);
            for (k = 1; num->verdict == AS_VF_WRONG && k <= AS_VV_PE_SWAPPED; k++) {
                const double x = pe_value(right, base100, d, (as_vvariant)k, r, c);
                if (!isnan(x) && as_cell_judge(x, 0, num->right, &cell_rule) != AS_CELL_RIGHT &&
                    as_cell_judge(num->printed, num->unit, x, &cell_rule) == AS_CELL_RIGHT) {
                    num->vvariant = (as_vvariant)k;
                    break;
                }
            }
            v->agree += num->verdict == AS_VF_AGREES;
        }
    free(right);
    return 0;
}

/* -1 with err set: item it (cells [r, c]) does not fit the run's table t. */
static int misfit(const as_printed *it, const as_matrix *t, const char *path, as_error *err)
{
    as_error_msg(err, path, it->pos.line, it->pos.col, AS_MSG_VF_MISFIT, it->name,
                 it->value.rows, it->value.cols, t->rows, t->cols);
    as_error_hint_msg(err, AS_MSG_VF_MISFIT_HINT);
    return -1;
}

/* ------------------------------------------------------------------ norms, RoPE ---- */

/* What norm k of the block normalises, as the run made it. */
static const as_matrix *norm_input(const work *w, int k)
{
    const as_matrix *last = w->p.ffn == AS_FFN_NONE ? &w->b.H1 : &w->b.H2;

    if (k == 2)
        return last;
    if (w->p.block == AS_BLOCK_PRE)
        return k == 0 ? w->p.X : &w->b.H1;
    return k == 0 ? &w->b.R1 : &w->b.R2;
}

/* Cell j of one row x[d] through norm k done the LayerNorm way with σ² ÷ (d − ddof) and
 * ε under the root or (outside) added to σ, by the steps of norm.h: its sub-step what
 * (μ, σ², the divisor, x̂) or, for anything else, its output y = γ⊙x̂ + β. NAN when
 * memory ran out or d − ddof is 0. */
static double layer_norm_cell(work *w, int k, const double *x, size_t d, size_t ddof,
                              int outside, as_printed_what what, size_t j)
{
    const as_matrix *g = w->p.ln_g[k], *b = w->p.ln_b[k];
    double mean, var, div, *row = malloc(d * sizeof *row), out;

    if (row == NULL || d <= ddof) {
        w->oom |= row == NULL;
        free(row);
        return NAN;
    }
    as_row_mean(&mean, x, 1, d);
    as_row_var(&var, x, &mean, 1, d, ddof);
    (outside ? as_norm_div_outside : as_norm_div_inside)(&div, &var, 1, w->p.norm_eps);
    as_norm_xhat(row, x, &mean, &div, 1, d);
    if (what != AS_PR_XHAT)
        as_norm_affine(row, row, g ? g->v : NULL, b ? b->v : NULL, 1, d);
    out = what == AS_PR_MEAN ? mean : what == AS_PR_VAR ? var : what == AS_PR_DIV ? div
                                                                                 : row[j];
    free(row);
    return out;
}

/* The norm item idx of ch belongs to (a sub-step, or a table a norm outputs), or -1. */
static int norm_of_item(const work *w, const as_chapter *ch, size_t idx)
{
    const as_printed *it = &ch->item[idx];

    if (it->what >= AS_PR_MEAN && it->what <= AS_PR_XHAT)
        return w->norm_of[idx];
    if (it->what == AS_PR_BLOCK)
        return norm_output(it->tab, w->p.block, w->p.final_norm);
    return -1;
}

/* Cell (i, j) of RoPE's table item it (Qr or Kr) with the pairs taken the other way;
 * NAN when that run cannot be made. */
static double other_pairing(work *w, const as_printed *it, size_t i, size_t j)
{
    const as_head_trace *h;
    const as_matrix *m;

    if (!w->alt_made) {
        as_problem q = w->q;
        as_error err;
        q.rope = q.rope == AS_ROPE_HALF ? AS_ROPE_INTERLEAVED : AS_ROPE_HALF;
        as_error_init(&err, AS_LANG_EN);
        if (as_attention_run(&w->alt, &q, &err) != 0) {
            w->oom = 1; /* the chapter's own problem, which ran: only memory can fail */
            return NAN;
        }
        w->alt_made = 1;
    }
    h = &w->alt.head[it->head < 0 ? 0 : it->head];
    m = it->what == AS_PR_QR ? &h->Qr : &h->Kr;
    return i < m->rows && j < m->cols ? m->v[i * m->cols + j] : NAN;
}

/* The variant of the block's norms or of RoPE that gives wrong number n (of item idx),
 * and differs there from the right value; AS_VV_NONE when none does. The norms'
 * variants are tried where the chapter's norm is torch's LayerNorm. */
static as_vvariant table_variant(work *w, const as_chapter *ch, size_t idx, const as_vnumber *n)
{
    static const struct {
        as_vvariant v;
        size_t ddof;
        int outside;
    } ln[] = {{AS_VV_LN_UNBIASED, 1, 0}, {AS_VV_LN_EPS_OUTSIDE, 0, 1},
              {AS_VV_LN_ANNOTATED, 1, 1}};
    const as_printed *it = &ch->item[idx];
    const int k = norm_of_item(w, ch, idx);
    size_t i;
    double x;

    if (it->what == AS_PR_B) /* +slope·(i−j): the far past rewarded, not penalised */
        return n->right != 0 && as_cell_judge(n->printed, n->unit, -n->right, &cell_rule) ==
                                    AS_CELL_RIGHT ? AS_VV_ALIBI_SIGN : AS_VV_NONE;
    if (it->what == AS_PR_QR || it->what == AS_PR_KR) {
        x = other_pairing(w, it, (size_t)n->row, (size_t)n->col);
        return !isnan(x) && as_cell_judge(x, 0, n->right, &cell_rule) != AS_CELL_RIGHT &&
                       as_cell_judge(n->printed, n->unit, x, &cell_rule) == AS_CELL_RIGHT
                   ? AS_VV_ROPE_PAIRING : AS_VV_NONE;
    }
    if (k < 0 || w->p.norm != AS_NORM_LAYER || w->p.norm_style != AS_NORM_TORCH)
        return AS_VV_NONE;
    for (i = 0; i < sizeof ln / sizeof ln[0]; i++) {
        const as_matrix *in = norm_input(w, k);
        x = layer_norm_cell(w, k, in->v + (size_t)n->row * in->cols, in->cols, ln[i].ddof,
                            ln[i].outside, it->what, (size_t)n->col);
        if (!isnan(x) && as_cell_judge(x, 0, n->right, &cell_rule) != AS_CELL_RIGHT &&
            as_cell_judge(n->printed, n->unit, x, &cell_rule) == AS_CELL_RIGHT)
            return ln[i].v;
    }
    return AS_VV_NONE;
}

/* Checks every number of item idx of ch into v (room made by the caller). 0 or -1. */
static int check_item(as_verify *v, work *w, const as_chapter *ch, size_t idx, as_error *err)
{
    const as_printed *it = &ch->item[idx];
    static const as_matrix none = {0, 0, NULL};
    const as_matrix *t = it->what == AS_PR_SQRT ? NULL : run_table(w, ch, idx);
    /* μ = [0.25, 0.5, 1]: one number per token printed in one row, the run's column */
    const int across = t != NULL && t->cols == 1 && t->rows > 1 && it->value.rows == 1 &&
                       it->value.cols == t->rows && it->row < 0;
    size_t r, c;

    if (it->what != AS_PR_SQRT && t == NULL)
        return misfit(it, &none, ch->path, err);
    if (t != NULL && !across &&
        (it->row >= 0 ? (size_t)it->row >= t->rows || it->value.rows != 1
                      : it->value.rows != t->rows))
        return misfit(it, t, ch->path, err);
    if (t != NULL && !across &&
        (it->col >= 0 ? (size_t)it->col >= t->cols || it->value.cols != 1
                      : it->value.cols != t->cols))
        return misfit(it, t, ch->path, err);
    for (r = 0; r < it->value.rows; r++)
        for (c = 0; c < it->value.cols; c++) {
            as_vnumber *n = &v->num[v->count++];
            const size_t k = r * it->value.cols + c;
            memset(n, 0, sizeof *n);
            n->item = it;
            n->row = across ? (long)c : it->row >= 0 ? it->row : (long)r;
            n->col = across ? 0 : it->col >= 0 ? it->col : (long)c;
            n->printed = it->value.v[k];
            n->unit = it->unit.v[k];
            n->at = it->at[k];
            n->right = t == NULL ? sqrt(it->arg) : t->v[n->row * t->cols + n->col];
            if (t == NULL)
                n->row = n->col = -1;
            n->verdict = judge(n->printed, n->unit, n->right);
            if (n->verdict == AS_VF_WRONG && it->what < AS_PR_PE)
                n->variant = find_variant(w, n);
            else if (n->verdict == AS_VF_WRONG)
                n->vvariant = table_variant(w, ch, idx, n);
            v->agree += n->verdict == AS_VF_AGREES;
        }
    return 0;
}

/* ------------------------------------------------------------------ carried errors ---- */

/* Nonzero for a block the chain can take as an answer (whole Q … O, C). */
static int chain_block(const as_printed *it)
{
    return it->row < 0 && it->col < 0 && it->what >= AS_PR_Q && it->what <= AS_PR_C &&
           it->what != AS_PR_SCALED && it->what != AS_PR_SHIFTED && it->what != AS_PR_EXPS &&
           it->what != AS_PR_SUM;
}

/* The chapter's printed blocks as graded answers, the chain on them started, and every
 * item's origin -1. 0, or -1 with err set. */
static int printed_answers(work *w, const as_chapter *ch, as_error *err)
{
    const size_t n = ch->count ? ch->count : 1;
    size_t i;

    w->given = calloc(n, sizeof *w->given);
    w->ans = calloc(n, sizeof *w->ans);
    w->ans_item = calloc(n, sizeof *w->ans_item);
    w->origin = malloc(n * sizeof *w->origin);
    if (w->given == NULL || w->ans == NULL || w->ans_item == NULL || w->origin == NULL) {
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        as_table_grade *g = &w->ans[w->nans];
        w->origin[i] = -1;
        if (!chain_block(it))
            continue;
        w->given[w->nans].value = it->value; /* borrowed: never freed through the answer */
        w->given[w->nans].unit = it->unit;
        w->given[w->nans].pos = it->pos;
        g->kind = chain_kind(it, &g->head);
        g->row = -1;
        g->index = w->nans;
        g->given = &w->given[w->nans];
        g->shape_ok = 1;
        w->ans_item[w->nans++] = i;
    }
    as_chain_cache_init(&w->own, &w->q, &w->t.M, w->ans, w->nans);
    w->own_made = 1;
    return 0;
}

/* Cell (i, j) of item it in the chain on the printed blocks, with how far their rounding
 * moves it (*slack) and the answers it comes from (*bits); NAN where that chain has
 * none, and for the softmax's sub-steps (their rounding is not followed). */
static double own_value(work *w, const as_printed *it, size_t i, size_t j, double *slack,
                        uint64_t *bits)
{
    const as_printed_what what = it->what;
    const as_chain *c = as_chain_get(&w->own, 0);
    const as_chain_slot *s;
    as_table_grade g;

    if (c == NULL || what == AS_PR_SHIFTED || what == AS_PR_EXPS || what == AS_PR_SUM) {
        w->oom |= c == NULL;
        return NAN;
    }
    memset(&g, 0, sizeof g);
    g.kind = chain_kind(it, &g.head);
    s = as_chain_slot_of(c, &w->q, &g);
    if (!s->ok || i >= s->calc.rows || j >= s->calc.cols ||
        (what == AS_PR_SCALED && w->t.M.v[i * w->t.M.cols + j] != 0))
        return NAN;
    *slack = s->cerr.v[i * s->calc.cols + j];
    *bits = s->ctaint[i];
    return s->calc.v[i * s->calc.cols + j];
}

/* The first printing of what item it holds where a mistake was made (it itself when
 * none is earlier). */
static long first_printing(const work *w, const as_chapter *ch, size_t it)
{
    size_t j;

    for (j = 0; j < it; j++)
        if (ch->item[j].what == ch->item[it].what && ch->item[j].tab == ch->item[it].tab &&
            w->origin[j] == (long)j)
            return (long)j;
    return (long)it;
}

/* The item where the mistake behind wrong number n was made, when n is what its step
 * gives from the printed blocks and one of those is wrong; -1 otherwise. */
static long carried_from(work *w, const as_chapter *ch, const as_vnumber *n)
{
    double slack = 0;
    uint64_t bits = 0;
    size_t k;
    const double x = n->row < 0 ? NAN : own_value(w, n->item, (size_t)n->row,
                                                  (size_t)n->col, &slack, &bits);

    if (isnan(x) || !as_answer_cell_ok(n->printed, n->unit, x, -1.0, slack))
        return -1;
    for (k = 0; k < w->nans; k++)
        if ((bits & AS_CHAIN_BIT(k)) && w->origin[w->ans_item[k]] >= 0)
            return first_printing(w, ch, (size_t)w->origin[w->ans_item[k]]);
    return -1;
}

/* ------------------------------------------------------------------ steps done again ---- */

/* The walk-through's softmax sub-steps and the block's tables, each done again by the
 * steps layer on the numbers the chapter printed before it (SPEC §6's own chain, for
 * what the chain of ownchain.h does not hold): a wrong number that its step gives from
 * a printed number that is itself wrong is carried. */

/* A step done again on printed rows. */
typedef enum lstep {
    L_SCALE,    /* the raw scores' row times the scale (缩放分数 from 原始分数) */
    L_SHIFT,    /* less the row's max (减最大值; from the scaled row, + B + M) */
    L_EXP,      /* the exps of the shifted row (取指数) */
    L_SUM,      /* their sum (指数之和) */
    L_DIVIDE,   /* each exp ÷ the sum (除以总和) */
    L_MIX,      /* the shares times the run's Values (输出第c格) */
    L_RESID,    /* a residual add (H1 = X + O, H2 = H1 + D) */
    L_UP,       /* U = N2·Wup + bup */
    L_DOWN,     /* D = F·Wdown + bdown */
    L_ACT,      /* F = act(U) */
    L_GLU,      /* swiglu: F = G ⊙ U */
    L_GATE,     /* swiglu: G = SiLU(N2·Wgate) */
    L_NORM,     /* a norm (its sub-step part, or its output) of one row */
    L_NORM_SUM, /* post: a norm of the sum of two rows (H1 = norm1(X + O)) */
    L_VAR,      /* σ² of a row from its printed μ */
    L_DIV,      /* the divisor from the printed σ² (or mean square) */
    L_XHAT,     /* x̂ of a row from its printed μ and divisor */
    L_AFFINE,   /* the norm's output γ⊙x̂ + β from the printed x̂ */
    L_COPY,     /* Y = the last table, without lnf */
    L_PROJ,     /* pre: a row of Q, K or V from the printed N1 (the attention's X) */
    L_QK,       /* RoPE: a row of QKᵀ from the printed Qr row and Kr rows */
    L_SBIAS     /* ALiBi: a row of S from the printed QKᵀ row and B row, + M */
} lstep;

#define L_IN 16 /* L_MIX: the shares and up to 15 rows of V */

/* One step done again: its inputs, each an own copy of one row and its units. */
typedef struct lcall {
    lstep step;
    int norm;                  /* L_NORM, L_NORM_SUM: which norm */
    as_printed_what part;      /* what of it: μ, σ², the divisor, x̂, else the output */
    int add_bias;              /* L_SHIFT from the scaled row: B and M added first */
    size_t row, head;
    double *in[L_IN], *unit[L_IN];
    size_t len[L_IN];
    long from[L_IN];           /* the printed item each input comes from, -1: the run */
    size_t at[L_IN];           /* the row of its table each input is */
    size_t nin;
    int oom;                   /* memory ran out doing it */
} lcall;

/* Nonzero for the tables of one head's scores, which the layer's name also means. */
static int score_kind(as_printed_what what)
{
    return (what >= AS_PR_QKT && what <= AS_PR_A) || what == AS_PR_QR || what == AS_PR_KR ||
           what == AS_PR_B;
}

/* The last item before `before` of kind what (tab, for the block's), of head head,
 * that prints row `row` whole; -1 when none. rows_only: only a row of the walk-through. */
static long find_src(const as_chapter *ch, size_t before, as_printed_what what, int tab,
                     long head, size_t row, int rows_only)
{
    size_t j;

    for (j = before; j-- > 0;) {
        const as_printed *it = &ch->item[j];
        const long h = score_kind(what) && it->head < 0 ? 0 : it->head;
        if (it->what != what || (what == AS_PR_BLOCK && it->tab != tab) || h != head ||
            it->col >= 0 || (rows_only && it->row < 0))
            continue;
        if (it->row >= 0 ? (size_t)it->row == row : row < it->value.rows)
            return (long)j;
    }
    return -1;
}

/* Adds len numbers v (units u, NULL: exact) that item from printed (-1: the run's) to
 * c. 0; 1 when c is full; -1 memory. */
static int add_numbers(lcall *c, const double *v, const double *u, size_t len, long from,
                       size_t row)
{
    const size_t k = c->nin;

    if (k == L_IN)
        return 1;
    if ((c->in[k] = malloc(len * sizeof *c->in[k])) == NULL ||
        (c->unit[k] = calloc(len, sizeof *c->unit[k])) == NULL) {
        free(c->in[k]); /* not counted in nin yet: lcall_free() would not see it */
        return -1;
    }
    memcpy(c->in[k], v, len * sizeof *v);
    if (u != NULL)
        memcpy(c->unit[k], u, len * sizeof *u);
    c->len[k] = len;
    c->from[k] = from;
    c->at[k] = row;
    c->nin++;
    return 0;
}

/* Adds to c row `row` of printed item src of ch (len numbers), or when src < 0 of the
 * run's table m (exact). 0; 1 when the widths differ, m is missing or c is full; -1
 * memory. */
static int add_row(lcall *c, const as_chapter *ch, long src, const as_matrix *m, size_t len,
                   size_t row)
{
    const double *v, *u = NULL;
    size_t r;

    if (src >= 0) {
        const as_printed *it = &ch->item[src];
        r = it->row >= 0 ? 0 : row;
        if (it->value.cols != len)
            return 1;
        v = it->value.v + r * len;
        u = it->unit.v + r * len;
    } else {
        if (m == NULL || m->v == NULL || m->cols != len || row >= m->rows)
            return 1;
        v = m->v + row * len;
    }
    return add_numbers(c, v, u, len, src, row);
}

/* add_row() of c's own row. */
static int add_in(lcall *c, const as_chapter *ch, long src, const as_matrix *m, size_t len)
{
    return add_row(c, ch, src, m, len, c->row);
}

static void lcall_free(lcall *c)
{
    size_t k;

    for (k = 0; k < c->nin; k++) {
        free(c->in[k]);
        free(c->unit[k]);
    }
}

/* Cell j of the step c on its inputs as they stand; NAN when memory ran out (c->oom). */
static double leval(const work *w, lcall *c, size_t j)
{
    const as_problem *p = &w->p;
    const size_t n0 = c->len[0], width = n0 > p->d_ff ? n0 : p->d_ff;
    const as_matrix *g = c->norm >= 0 && c->norm < 3 ? p->ln_g[c->norm] : NULL;
    const as_matrix *b = c->norm >= 0 && c->norm < 3 ? p->ln_b[c->norm] : NULL;
    double *room = malloc(6 * (width + 1) * sizeof *room), *a = room, *sh, *ex, x = NAN;
    double mx, sum, mean = 0, var = 0, div = 0;
    size_t k;

    if (room == NULL) {
        c->oom = 1;
        return NAN;
    }
    sh = room + 2 * (width + 1);
    ex = room + 4 * (width + 1);
    switch (c->step) {
    case L_SCALE: x = c->in[0][j] * p->scale; break;
    case L_SHIFT:
        for (k = 0; k < n0; k++) {
            const as_head_trace *h = &w->t.head[c->head];
            a[k] = c->in[0][k];
            if (c->add_bias)
                a[k] += (h->B.v != NULL ? h->B.v[c->row * n0 + k] : 0) +
                        w->t.M.v[c->row * n0 + k];
        }
        x = as_softmax_rows(ex + width + 1, &mx, sh, ex, &sum, a, 1, n0) >= 0 ? NAN : sh[j];
        break;
    case L_EXP: as_exp_all(a, c->in[0], n0); x = a[j]; break;
    case L_SUM:
    case L_DIVIDE:
        for (sum = 0, k = 0; k < n0; k++)
            sum += c->in[0][k];
        x = c->step == L_SUM ? sum : c->in[0][j] / (c->nin > 1 ? c->in[1][0] : sum);
        break;
    case L_MIX: /* Σ_k a_k · v_k[j], each row of V as printed */
        for (x = 0, k = 0; k < n0; k++)
            x += c->in[0][k] * c->in[1 + k][j];
        break;
    case L_RESID: as_residual_add(a, c->in[0], c->in[1], n0); x = a[j]; break;
    case L_UP:
    case L_DOWN:
    case L_GATE: {
        const as_matrix *W = c->step == L_UP ? p->Wup : c->step == L_GATE ? p->Wgate : p->Wdown;
        const as_matrix *bias = c->step == L_UP ? p->bup : c->step == L_GATE ? NULL : p->bdown;
        as_matmul(a, c->in[0], W->v, 1, n0, W->cols);
        if (bias != NULL)
            as_add_bias(a, bias->v, 1, W->cols);
        if (c->step == L_GATE)
            as_silu(a, a, W->cols);
        x = a[j];
        break;
    }
    case L_ACT: as_ffn_activate(a, c->in[0], n0, p->ffn); x = a[j]; break;
    case L_GLU: as_hadamard(a, c->in[0], c->in[1], n0); x = a[j]; break;
    case L_NORM:
    case L_NORM_SUM: {
        as_norm_rec rec = {&mean, &var, &div, sh, NULL};
        if (c->step == L_NORM_SUM)
            as_residual_add(ex, c->in[0], c->in[1], n0);
        else
            memcpy(ex, c->in[0], n0 * sizeof *ex);
        if (as_norm_rows(a, &rec, ex, g ? g->v : NULL, b ? b->v : NULL, 1, n0, p->norm,
                         p->norm_style, p->norm_eps) == 0)
            x = c->part == AS_PR_MEAN ? mean : c->part == AS_PR_VAR ? var
              : c->part == AS_PR_DIV ? div : c->part == AS_PR_XHAT ? sh[j] : a[j];
        break;
    }
    case L_VAR:
        as_row_var(&x, c->in[0], c->in[1], 1, n0, p->norm_style == AS_NORM_ANNOTATED ? 1 : 0);
        break;
    case L_DIV:
        (p->norm == AS_NORM_LAYER && p->norm_style == AS_NORM_ANNOTATED
             ? as_norm_div_outside : as_norm_div_inside)(&x, c->in[0], 1, p->norm_eps);
        break;
    case L_XHAT: /* x, then μ (LayerNorm), then the divisor; the output: γ and β too */
        as_norm_xhat(a, c->in[0], c->nin > 2 ? c->in[1] : NULL, c->in[c->nin - 1], 1, n0);
        if (c->part != AS_PR_XHAT)
            as_norm_affine(a, a, g ? g->v : NULL, b ? b->v : NULL, 1, n0);
        x = a[j];
        break;
    case L_AFFINE: as_norm_affine(a, c->in[0], g ? g->v : NULL, b ? b->v : NULL, 1, n0); x = a[j]; break;
    case L_COPY: x = c->in[0][j]; break;
    case L_QK: /* Σ_k qr_k · kr_j,k: in[0] the Query's row, in[1 + j] Key j's */
        for (x = 0, k = 0; k < n0; k++)
            x += c->in[0][k] * c->in[1 + j][k];
        break;
    case L_SBIAS:
        x = c->in[0][j] * p->scale + c->in[1][j] + w->t.M.v[c->row * n0 + j];
        break;
    case L_PROJ: {
        const as_matrix *W = c->part == AS_PR_Q ? w->q.Wq : c->part == AS_PR_K ? w->q.Wk : w->q.Wv;
        const as_matrix *bias = c->part == AS_PR_Q ? w->q.bq : c->part == AS_PR_K ? w->q.bk
                                                                                : w->q.bv;
        double *out = malloc(W->cols * sizeof *out);
        if (out == NULL || W->v == NULL) {
            c->oom |= out == NULL;
            free(out);
            break;
        }
        as_matmul(out, c->in[0], W->v, 1, n0, W->cols);
        if (bias != NULL)
            as_add_bias(out, bias->v, 1, W->cols);
        x = out[j];
        free(out);
        break;
    }
    }
    free(room);
    return x;
}

/* Cell j of step c with how far the rounding of its printed inputs can move it (first
 * order, SPEC §6: each input moved by half its unit in turn). */
static double leval_slack(const work *w, lcall *c, size_t j, double *slack)
{
    const double x = leval(w, c, j);
    size_t k, e;

    *slack = 0;
    for (k = 0; k < c->nin; k++)
        for (e = 0; e < c->len[k]; e++) {
            const double keep = c->in[k][e], h = c->unit[k][e] / 2;
            double up, down;
            if (!(h > 0) || !isfinite(keep))
                continue;
            c->in[k][e] = keep + h;
            up = leval(w, c, j);
            c->in[k][e] = keep - h;
            down = leval(w, c, j);
            c->in[k][e] = keep;
            *slack += fmax(fabs(up - x), fabs(down - x));
        }
    return x;
}

/* Nonzero for a sub-step with one number per token (μ, σ², the divisor). */
static int one_per_token(const as_printed *it)
{
    return it->what == AS_PR_MEAN || it->what == AS_PR_VAR || it->what == AS_PR_DIV;
}

/* The last sub-step what of norm k printed before item idx that gives token row's
 * number(s); -1 when none. */
static long find_sub(const work *w, const as_chapter *ch, size_t idx, as_printed_what what,
                     int k, size_t row)
{
    size_t j;

    for (j = idx; j-- > 0;) {
        const as_printed *it = &ch->item[j];
        const size_t tokens = one_per_token(it) ? it->value.rows * it->value.cols : it->value.rows;
        if (it->what == what && w->norm_of[j] == k && row < tokens)
            return (long)j;
    }
    return -1;
}

/* Adds to c the number(s) of sub-step item src for c's row: μ, σ² or the divisor (one
 * number, printed as a row or a column), or x̂'s row. 0, 1 or -1 as add_row(). */
static int add_sub(lcall *c, const as_chapter *ch, long src, size_t d)
{
    const as_printed *it = &ch->item[src];

    if (!one_per_token(it))
        return add_row(c, ch, src, NULL, d, c->row);
    return add_numbers(c, it->value.v + c->row, it->unit.v + c->row, 1, src, c->row);
}

/* A sub-step or the output of norm k (pre, or normf: one row in) done from the
 * sub-steps printed before item idx: σ² from μ, the divisor from σ², x̂ from μ and the
 * divisor, the output from x̂. 0 with c made; 1 when they are not printed; -1 memory. */
static int within_norm(lcall *c, const work *w, const as_chapter *ch, size_t idx, int k)
{
    const size_t d = w->p.d_model;
    const int layer = w->p.norm == AS_NORM_LAYER;
    const as_matrix *x = norm_input(w, k);
    const int tab = k == 2 ? (w->p.ffn == AS_FFN_NONE ? AS_TAB_H1 : AS_TAB_H2)
                           : k == 1 ? AS_TAB_H1 : -1;
    const long xs = tab < 0 ? -1 : find_src(ch, idx, AS_PR_BLOCK, tab, -1, c->row, 0);
    const long mu = find_sub(w, ch, idx, AS_PR_MEAN, k, c->row);
    long src;
    int rc;

    switch (c->part) {
    case AS_PR_MEAN: return 1;
    case AS_PR_VAR:
        if (!layer || mu < 0)
            return 1;
        c->step = L_VAR;
        return (rc = add_row(c, ch, xs, x, d, c->row)) != 0 ? rc : add_sub(c, ch, mu, d);
    case AS_PR_DIV:
        if ((src = find_sub(w, ch, idx, AS_PR_VAR, k, c->row)) < 0)
            return 1;
        c->step = L_DIV;
        return add_sub(c, ch, src, d);
    default: /* the norm's output: from x̂, else from μ and the divisor */
        if ((src = find_sub(w, ch, idx, AS_PR_XHAT, k, c->row)) >= 0) {
            c->step = L_AFFINE;
            return add_sub(c, ch, src, d);
        }
        /* fall through */
    case AS_PR_XHAT:
        if ((src = find_sub(w, ch, idx, AS_PR_DIV, k, c->row)) < 0 || (layer && mu < 0))
            return 1;
        c->step = L_XHAT;
        if ((rc = add_row(c, ch, xs, x, d, c->row)) != 0 ||
            (layer && (rc = add_sub(c, ch, mu, d)) != 0))
            return rc;
        return add_sub(c, ch, src, d);
    }
}

/* What norm k of the block reads, as printed before item idx where printed: its
 * inputs into c (pre: H1 for norm2; post: X + O, H1 + D; the last table for normf).
 * 0, 1 when it is the chapter's own X (nothing printed to carry), -1 memory. */
static int norm_inputs(lcall *c, const work *w, const as_chapter *ch, size_t idx, int k)
{
    const as_block_trace *b = &w->b;
    const int pre = w->p.block == AS_BLOCK_PRE;
    const size_t d = w->p.d_model;
    const int last = w->p.ffn == AS_FFN_NONE ? AS_TAB_H1 : AS_TAB_H2;
    int rc;

    c->norm = k;
    c->step = L_NORM;
    if ((pre || k == 2) && (rc = within_norm(c, w, ch, idx, k)) <= 0)
        return rc; /* a sub-step from the printed sub-steps before it */
    if (k == 2)
        return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, last, -1, c->row, 0),
                      as_block_table(b, (as_tab)last), d);
    if (pre && k == 0)
        return 1;
    if (pre)
        return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_H1, -1, c->row, 0), &b->H1, d);
    c->step = L_NORM_SUM;
    if (k == 0)
        return (rc = add_in(c, ch, -1, w->p.X, d)) != 0
                   ? rc : add_in(c, ch, find_src(ch, idx, AS_PR_O, 0, -1, c->row, 0), &w->t.O, d);
    return (rc = add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_H1, -1, c->row, 0), &b->H1, d)) != 0
               ? rc : add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_D, -1, c->row, 0), &b->D, d);
}

/* The step of one of the block's tables (item idx, tab) with its inputs into c. 0, 1
 * when none is done again here, -1 memory. */
static int block_inputs(lcall *c, const work *w, const as_chapter *ch, size_t idx, int tab)
{
    const as_block_trace *b = &w->b;
    const int pre = w->p.block == AS_BLOCK_PRE, k = norm_output(tab, w->p.block, w->p.final_norm);
    const size_t d = w->p.d_model, f = w->p.d_ff;
    const int fed = pre ? AS_TAB_N2 : AS_TAB_H1;
    int rc;

    if (k >= 0)
        return norm_inputs(c, w, ch, idx, k);
    switch (tab) {
    case AS_TAB_H1: /* pre */
    case AS_TAB_H2:
        c->step = L_RESID;
        if (tab == AS_TAB_H1)
            return (rc = add_in(c, ch, -1, w->p.X, d)) != 0
                       ? rc : add_in(c, ch, find_src(ch, idx, AS_PR_O, 0, -1, c->row, 0), &w->t.O, d);
        return (rc = add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_H1, -1, c->row, 0), &b->H1, d)) != 0
                   ? rc : add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_D, -1, c->row, 0), &b->D, d);
    case AS_TAB_U:
    case AS_TAB_G:
        c->step = tab == AS_TAB_U ? L_UP : L_GATE;
        return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, fed, -1, c->row, 0),
                      as_block_table(b, (as_tab)fed), d);
    case AS_TAB_F:
        if (w->p.ffn != AS_FFN_SWIGLU) {
            c->step = L_ACT;
            return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_U, -1, c->row, 0), &b->U, f);
        }
        c->step = L_GLU;
        return (rc = add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_G, -1, c->row, 0), &b->G, f)) != 0
                   ? rc : add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_U, -1, c->row, 0), &b->U, f);
    case AS_TAB_D:
        c->step = L_DOWN;
        return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_F, -1, c->row, 0), &b->F, f);
    case AS_TAB_Y: { /* without lnf: a copy of the last table */
        const int last = w->p.ffn == AS_FFN_NONE ? AS_TAB_H1 : AS_TAB_H2;
        c->step = L_COPY;
        return add_in(c, ch, find_src(ch, idx, AS_PR_BLOCK, last, -1, c->row, 0),
                      as_block_table(b, (as_tab)last), d);
    }
    default: return 1; /* N1 reads the chapter's X */
    }
}

/* The walk-through's softmax sub-steps (item idx) with their inputs into c. 0, 1 when
 * none is done again here (the own chain judges it), -1 memory. */
static int softmax_inputs(lcall *c, const work *w, const as_chapter *ch, size_t idx, size_t m)
{
    const as_printed *it = &ch->item[idx];
    const long h = (long)c->head;
    long src, sum;

    switch (it->what) {
    case AS_PR_QKT: { /* RoPE: from the turned rows as printed */
        const as_matrix *Kr = &w->t.head[c->head].Kr;
        size_t k;
        int rc;
        if (Kr->v == NULL || (src = find_src(ch, idx, AS_PR_QR, 0, h, c->row, 0)) < 0)
            return 1;
        c->step = L_QK;
        if ((rc = add_row(c, ch, src, NULL, Kr->cols, c->row)) != 0)
            return rc;
        for (k = 0; k < m; k++)
            if ((rc = add_row(c, ch, find_src(ch, idx, AS_PR_KR, 0, h, k, 0), Kr, Kr->cols, k)) != 0)
                return rc;
        return 0;
    }
    case AS_PR_S: { /* ALiBi: from the printed scores and bias */
        const as_matrix *B = &w->t.head[c->head].B;
        const long qkt = find_src(ch, idx, AS_PR_QKT, 0, h, c->row, 0);
        int rc;
        if (B->v == NULL || (src = find_src(ch, idx, AS_PR_B, 0, h, c->row, 0)) < 0)
            return 1;
        c->step = L_SBIAS;
        if ((rc = add_row(c, ch, qkt, &w->t.head[c->head].QKT, m, c->row)) != 0)
            return rc;
        return add_row(c, ch, src, NULL, m, c->row);
    }
    case AS_PR_SCALED:
        if ((src = find_src(ch, idx, AS_PR_QKT, 0, h, c->row, 1)) < 0)
            return 1;
        c->step = L_SCALE;
        return add_in(c, ch, src, NULL, m);
    case AS_PR_SHIFTED: {
        const long scaled = find_src(ch, idx, AS_PR_SCALED, 0, h, c->row, 1);
        const long s = find_src(ch, idx, AS_PR_S, 0, h, c->row, 0);
        if ((src = scaled > s ? scaled : s) < 0)
            return 1;
        c->step = L_SHIFT;
        c->add_bias = src == scaled;
        return add_in(c, ch, src, NULL, m);
    }
    case AS_PR_EXPS:
    case AS_PR_SUM:
        src = find_src(ch, idx, it->what == AS_PR_EXPS ? AS_PR_SHIFTED : AS_PR_EXPS, 0, h,
                       c->row, 1);
        if (src < 0)
            return 1;
        c->step = it->what == AS_PR_EXPS ? L_EXP : L_SUM;
        return add_in(c, ch, src, NULL, m);
    case AS_PR_A:
        if (it->row < 0 || (src = find_src(ch, idx, AS_PR_EXPS, 0, h, c->row, 1)) < 0)
            return 1;
        c->step = L_DIVIDE;
        sum = find_src(ch, idx, AS_PR_SUM, 0, h, c->row, 1);
        if (add_in(c, ch, src, NULL, m) != 0)
            return -1;
        return sum > src ? add_in(c, ch, sum, NULL, 1) : 0;
    case AS_PR_O: {
        const as_matrix *V = &w->t.head[c->head].V;
        size_t k;
        int rc;
        if (it->row < 0 || (src = find_src(ch, idx, AS_PR_A, 0, h, c->row, 1)) < 0)
            return 1;
        c->step = L_MIX;
        if ((rc = add_in(c, ch, src, NULL, m)) != 0)
            return rc;
        for (k = 0; k < m; k++) /* v_k as printed last (v₀ = …, the V block), else the run's */
            if ((rc = add_row(c, ch, find_src(ch, idx, AS_PR_V, 0, -1, k, 0), V, V->cols, k)) != 0)
                return rc;
        return 0;
    }
    default: return 1;
    }
}

/* Where the mistake behind row `row` of printed item src was made, by its numbers'
 * verdicts (already given: src is printed before what reads it): the item itself for
 * a wrong number, the item a carried one comes from; -1 when the row is right. */
static long row_origin(const as_verify *v, const work *w, const as_chapter *ch, long src,
                       size_t row)
{
    size_t i;

    for (i = 0; i < v->count; i++) {
        const as_vnumber *n = &v->num[i];
        if (n->item != &ch->item[src] || n->row != (long)row)
            continue;
        if (n->verdict == AS_VF_WRONG)
            return first_printing(w, ch, (size_t)src);
        if (n->verdict == AS_VF_CARRIED && n->from != NULL)
            return (long)(n->from - ch->item);
    }
    return -1;
}

/* Whether wrong number n is carried by a step done again on the printed numbers before
 * it: the item where its mistake was made (>= 0); -1 when its step, done again, does
 * not give it or gives it from right numbers; -2 when no step is done again for it. */
static long carried_locally(const as_verify *v, work *w, const as_chapter *ch,
                            const as_vnumber *n)
{
    const size_t idx = (size_t)(n->item - ch->item);
    const as_printed *it = n->item;
    lcall c;
    double x, slack;
    long from = -1;
    size_t k;
    int rc;

    if (n->row < 0 || n->col < 0 || w->t.head == NULL)
        return -2;
    memset(&c, 0, sizeof c);
    c.row = (size_t)n->row;
    c.head = it->head < 0 ? 0 : (size_t)it->head;
    c.norm = -1;
    c.part = it->what;
    if (it->what == AS_PR_BLOCK)
        rc = block_inputs(&c, w, ch, idx, it->tab);
    else if (it->what >= AS_PR_MEAN && it->what <= AS_PR_XHAT)
        rc = norm_inputs(&c, w, ch, idx, w->norm_of[idx]);
    else if (it->what >= AS_PR_Q && it->what <= AS_PR_V && it->head < 0 &&
             w->p.block == AS_BLOCK_PRE && w->p.positions == AS_POSITIONS_NONE && !w->p.cross) {
        c.step = L_PROJ; /* Q = N1 @ Wq, as the chapter printed N1 */
        rc = add_in(&c, ch, find_src(ch, idx, AS_PR_BLOCK, AS_TAB_N1, -1, c.row, 0), &w->b.N1,
                    w->p.d_model);
    } else if (score_kind(it->what) || it->what == AS_PR_O)
        rc = it->head >= 0 && it->what == AS_PR_O ? 1 : softmax_inputs(&c, w, ch, idx, w->q.m);
    else
        rc = 1;
    for (k = 0; k < c.nin; k++)
        if (c.from[k] >= 0)
            break;
    if (rc != 0 || k == c.nin) { /* nothing printed to do it again on */
        w->oom |= rc < 0;
        lcall_free(&c);
        return -2;
    }
    x = leval_slack(w, &c, (size_t)n->col, &slack);
    w->oom |= c.oom;
    if (!isnan(x) && as_answer_cell_ok(n->printed, n->unit, x, -1.0, slack)) {
        /* the input whose own row is wrong: a table may hold two mistakes */
        for (k = 0; k < c.nin && from < 0; k++)
            if (c.from[k] >= 0)
                from = row_origin(v, w, ch, c.from[k], c.at[k]);
        for (k = 0; k < c.nin && from < 0; k++)
            if (c.from[k] >= 0 && w->origin[c.from[k]] >= 0)
                from = first_printing(w, ch, (size_t)w->origin[c.from[k]]);
    }
    lcall_free(&c);
    return from;
}

/* The item where the mistake behind wrong number n was made, when n is carried: by a
 * step done again on the printed numbers before it, else by the own chain on the
 * printed blocks; -1 otherwise. */
static long carried(const as_verify *v, work *w, const as_chapter *ch, const as_vnumber *n)
{
    const long f = carried_locally(v, w, ch, n);

    if (f != -2)
        return f;
    return n->item->what < AS_PR_PE ? carried_from(w, ch, n) : -1;
}

/* Every item with a wrong number is where a mistake was made; then, in the order
 * printed, each wrong number its step gives from the printed blocks is carried, and an
 * item whose wrong numbers are all carried takes the origin of what it was made from. */
static void carry(as_verify *v, work *w, const as_chapter *ch)
{
    size_t i, start;

    for (i = 0; i < v->count; i++)
        if (v->num[i].verdict == AS_VF_WRONG)
            w->origin[v->num[i].item - ch->item] = v->num[i].item - ch->item;
    for (start = 0; start < v->count; start = i) {
        const size_t it = (size_t)(v->num[start].item - ch->item);
        long from = -1;
        int left = 0;
        for (i = start; i < v->count && v->num[i].item == v->num[start].item; i++) {
            as_vnumber *n = &v->num[i];
            const long f = n->verdict == AS_VF_WRONG ? carried(v, w, ch, n) : -1;
            if (f < 0) {
                left |= n->verdict == AS_VF_WRONG;
                continue;
            }
            from = f;
            n->verdict = AS_VF_CARRIED;
            n->from = &ch->item[f];
            n->variant.diag = AS_DIAG_NONE;
            n->variant.detail = 0;
            n->vvariant = AS_VV_NONE; /* named once, where the mistake was made */
        }
        if (!left && from >= 0)
            w->origin[it] = w->origin[from];
    }
}

/* Nonzero when a printed item of ch needs the run (a PE table or √N does not). */
static int needs_run(const as_chapter *ch)
{
    size_t i;

    for (i = 0; i < ch->count; i++)
        if (ch->item[i].what != AS_PR_INPUT && ch->item[i].what != AS_PR_PE &&
            ch->item[i].what != AS_PR_SQRT)
            return 1;
    return 0;
}

/* The chapter's problem built and run into w: the attention layer, and the block around
 * it when there is one (its attention reading N1 for pre). 0, or -1 with err set. */
static int run(work *w, const as_chapter *ch, as_error *err)
{
    if (given_input(&w->in, ch, err) != 0 ||
        as_problem_build(&w->p, &w->in, AS_MASK_DEFAULT, err) != 0)
        return -1;
    w->q = w->p;
    if (w->p.block == AS_BLOCK_NONE)
        return as_attention_run(&w->t, &w->p, err);
    if (as_block_begin(&w->b, &w->q, &w->p, err) != 0)
        return -1;
    if (as_attention_run(&w->t, &w->q, err) != 0 ||
        as_block_finish(&w->b, &w->t.O, &w->p, err) != 0)
        return -1;
    resolve_norms(w, ch);
    return 0;
}

int as_verify_chapter(as_verify *v, const as_chapter *ch, as_error *err)
{
    work w;
    size_t i, total = 0;
    int rc = -1;

    memset(v, 0, sizeof *v);
    memset(&w, 0, sizeof w);
    if ((w.norm_of = calloc(ch->count ? ch->count : 1, sizeof *w.norm_of)) == NULL) {
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        goto done;
    }
    if (needs_run(ch) && run(&w, ch, err) != 0)
        goto done;
    for (i = 0; i < ch->count; i++)
        if (ch->item[i].what != AS_PR_INPUT)
            total += ch->item[i].value.rows * ch->item[i].value.cols;
    if (total > 0 && (v->num = calloc(total, sizeof *v->num)) == NULL) {
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        goto done;
    }
    for (i = 0; i < ch->count; i++) {
        const as_printed *it = &ch->item[i];
        if (it->what != AS_PR_INPUT &&
            (it->what == AS_PR_PE ? check_pe(v, it, ch->path, err)
                                  : check_item(v, &w, ch, i, err)) != 0)
            goto done;
    }
    if (v->agree < v->count && needs_run(ch)) {
        if (printed_answers(&w, ch, err) != 0)
            goto done;
        carry(v, &w, ch);
    }
    if (w.oom) { /* a value done again is missing: the verdicts would be wrong */
        as_error_msg(err, ch->path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        goto done;
    }
    rc = 0;
done:
    if (w.own_made)
        as_chain_cache_free(&w.own);
    free(w.given);
    free(w.ans);
    free(w.ans_item);
    free(w.origin);
    if (w.cached)
        as_chain_cache_free(&w.cache);
    if (w.alt_made)
        as_trace_free(&w.alt);
    free(w.norm_of);
    as_trace_free(&w.t);
    as_block_trace_free(&w.b);
    as_problem_free(&w.p);
    as_input_free(&w.in);
    if (rc != 0)
        as_verify_free(v);
    return rc;
}

void as_verify_free(as_verify *v)
{
    free(v->num);
    memset(v, 0, sizeof *v);
}
