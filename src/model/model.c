/* model.c - from the parsed input to a checked attention problem: required tables,
 * layouts, shapes (with the reason two widths must agree), tokens and the mask. */
#include "attnstep/model.h"
#include "attnstep/threads.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cells of Wq from which the torch-layout weights are transposed on two threads. */
#define TRANSPOSE_SPLIT 65536

/* The later of two matrices' positions: a mismatch is reported where it shows up. */
static as_pos later(const as_named *a, const as_named *b)
{
    if (a->pos.line > b->pos.line || (a->pos.line == b->pos.line && a->pos.col > b->pos.col))
        return a->pos;
    return b->pos;
}

/* The text of message id in the language of err (English counts are made singular
 * where they are 1 by the error record). */
#define T(id) as_msg_text(err->lang, id)

/* An error at a statement: msg is text of the table, in err's language, formatted with
 * the arguments that follow; hint too (or NULL). */
static int fail_at(as_error *err, const as_problem *p, as_pos at, const char *hint,
                   const char *msg, ...)
{
    char text[AS_ERR_MSG];
    va_list ap;

    va_start(ap, msg);
    vsnprintf(text, sizeof text, msg, ap);
    va_end(ap);
    as_error_set(err, p->in->path, at.line, at.col, "%s", text);
    if (hint != NULL)
        as_error_hint(err, "%s", hint);
    return -1;
}

/* ---- required tables and layout ---- */

static int check_required(const as_problem *p, as_error *err)
{
    static const as_mat_id need[] = {AS_X, AS_WQ, AS_WK, AS_WV};
    size_t i;
    char msg[96];

    for (i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (p->in->mat[need[i]].given)
            continue;
        snprintf(msg, sizeof msg, T(AS_MSG_MD_MISSING), as_mat_name(need[i]));
        return fail_at(err, p, (as_pos){0, 0}, T(AS_MSG_HINT_MD_MISSING), msg);
    }
    return 0;
}

/* Two of the torch-layout weights to transpose (NULL where there is none). */
typedef struct transpose_job {
    as_matrix *to[2];
    const as_matrix *from[2];
} transpose_job;

static void transpose_two(void *arg)
{
    const transpose_job *j = arg;
    size_t k;

    for (k = 0; k < 2; k++)
        if (j->from[k] != NULL)
            as_transpose(j->to[k]->v, j->from[k]->v, j->from[k]->rows, j->from[k]->cols);
}

/* The W tables in book layout ([in, out], right-multiplied): the input's own, or with
 * layout: torch ([out, in], as torch.nn.Linear.weight) their transposes, made into the
 * problem's own matrices (the input is never changed): all four made first, then
 * transposed two on each thread (at 512 tokens they are 19 MB of fresh pages). Unless
 * make: then the problem's own have their shapes only, and Wt the input's tables. */
static int take_weights(as_problem *p, int make, as_error *err)
{
    static const as_mat_id w[] = {AS_WQ, AS_WK, AS_WV, AS_WO};
    const as_matrix **to[] = {&p->Wq, &p->Wk, &p->Wv, &p->Wo};
    const as_input *in = p->in;
    transpose_job half[2] = {{{NULL, NULL}, {NULL, NULL}}, {{NULL, NULL}, {NULL, NULL}}};
    size_t i;

    for (i = 0; i < sizeof w / sizeof w[0]; i++) {
        *to[i] = in->mat[w[i]].given ? &in->mat[w[i]].m : NULL;
        if (*to[i] == NULL || in->layout != AS_LAYOUT_TORCH)
            continue;
        p->Wt[i] = *to[i];
        if (!make) {
            p->own_w[i] = (as_matrix){(*to[i])->cols, (*to[i])->rows, NULL};
            *to[i] = &p->own_w[i];
            continue;
        }
        if (as_matrix_init(&p->own_w[i], (*to[i])->cols, (*to[i])->rows) != 0) {
            as_error_msg(err, in->path, 0, 0, AS_MSG_OOM);
            return -1;
        }
        half[i % 2].to[i / 2] = &p->own_w[i];
        half[i % 2].from[i / 2] = *to[i];
        *to[i] = &p->own_w[i];
    }
    if (!make)
        return 0;
    if (p->own_w[0].rows * p->own_w[0].cols >= TRANSPOSE_SPLIT)
        as_two_threads(transpose_two, &half[0], transpose_two, &half[1]);
    else
        transpose_two(&half[0]), transpose_two(&half[1]);
    return 0;
}

/* ---- shapes ---- */

/* When got != want: an error at `at` with the message msg, which the caller has made
 * for this case. */
static int agree(const as_problem *p, as_error *err, size_t got, size_t want, as_pos at,
                 const char *msg, const char *hint)
{
    return got == want ? 0 : fail_at(err, p, at, hint, msg);
}

#define NAMED(id) (&p->in->mat[id])

/* The hint for a W whose rows do not match the width of what it multiplies: when its
 * transpose truly fits, it looks like PyTorch's [out, in] layout; else the reason.
 * layout: torch turns every W round, so it is the cure only when each of Wq, Wk and Wv
 * has as many columns as what it multiplies has and Wq and Wk then give rows as wide;
 * when only this W is turned, the hint says to write it transposed. A W with too few
 * rows beside square ones (which fit either way) reads as a row left out. */
static const char *torch_hint(const as_problem *p, as_error *err, const as_matrix *w,
                              size_t width, const char *reason)
{
    const as_matrix *ws[3] = {p->Wq, p->Wk, p->Wv};
    const int gqa = p->in->kv_heads != 0;
    const int all_turned = p->Wq->cols == p->X->cols && p->Wk->cols == p->Xkv->cols &&
                           p->Wv->cols == p->Xkv->cols && (gqa || p->Wq->rows == p->Wk->rows);
    const int key_fits = gqa || (w == p->Wq ? w->rows == p->Wk->cols
                                 : w == p->Wk ? w->rows == p->Wq->cols : 1);
    int other_turned = 0, k;

    for (k = 0; k < 3; k++)
        other_turned |= ws[k] != w && ws[k]->rows != ws[k]->cols;
    if (w->cols != width || w->rows == width || p->in->layout == AS_LAYOUT_TORCH ||
        (w->rows < width && !other_turned))
        return reason;
    if (all_turned)
        return T(AS_MSG_HINT_MD_TORCH);
    return key_fits ? T(AS_MSG_HINT_MD_TORCH_ONE) : reason;
}

/* The projections: each W needs one row per feature of the rows it multiplies. */
static int check_projections(const as_problem *p, as_error *err)
{
    const char *xkv = p->cross ? "Xkv" : "X";
    char fq[128], fk[128], fv[128], fw[128];

    snprintf(fq, sizeof fq, T(AS_MSG_MD_W_ROWS), "Wq", p->Wq->rows, "X", p->X->cols);
    snprintf(fk, sizeof fk, T(AS_MSG_MD_W_ROWS), "Wk", p->Wk->rows, xkv, p->Xkv->cols);
    snprintf(fv, sizeof fv, T(AS_MSG_MD_W_ROWS), "Wv", p->Wv->rows, xkv, p->Xkv->cols);
    snprintf(fw, sizeof fw, T(AS_MSG_MD_KEY_WIDTH), p->Wk->cols, p->Wq->cols);
    return agree(p, err, p->Wq->rows, p->X->cols, later(NAMED(AS_X), NAMED(AS_WQ)), fq,
                 torch_hint(p, err, p->Wq, p->X->cols, T(AS_MSG_HINT_MD_WQ_ROWS))) ||
           agree(p, err, p->Wk->rows, p->Xkv->cols,
                 later(NAMED(p->cross ? AS_XKV : AS_X), NAMED(AS_WK)), fk,
                 torch_hint(p, err, p->Wk, p->Xkv->cols, T(AS_MSG_HINT_MD_WK_ROWS))) ||
           agree(p, err, p->Wv->rows, p->Xkv->cols,
                 later(NAMED(p->cross ? AS_XKV : AS_X), NAMED(AS_WV)), fv,
                 torch_hint(p, err, p->Wv, p->Xkv->cols, T(AS_MSG_HINT_MD_WV_ROWS))) ||
           (p->in->kv_heads == 0 &&
            agree(p, err, p->Wk->cols, p->Wq->cols, later(NAMED(AS_WQ), NAMED(AS_WK)), fw,
                  T(AS_MSG_HINT_MD_KEY_WIDTH)));
}

/* A bias is one row that adds a number to each column of its projection. */
static int check_bias(const as_problem *p, as_error *err, as_mat_id b, as_mat_id w,
                      const as_matrix *wm)
{
    const as_named *nb = NAMED(b);
    char msg[128];

    if (!nb->given)
        return 0;
    snprintf(msg, sizeof msg, T(AS_MSG_MD_BIAS_ROWS), as_mat_name(b), nb->m.rows);
    if (agree(p, err, nb->m.rows, 1, nb->pos, msg, T(AS_MSG_HINT_MD_BIAS_ROWS)))
        return -1;
    snprintf(msg, sizeof msg, T(AS_MSG_MD_BIAS_WIDTH), as_mat_name(b), nb->m.cols,
             as_mat_name(w), wm->cols);
    return agree(p, err, nb->m.cols, wm->cols, later(NAMED(w), nb), msg,
                 T(AS_MSG_HINT_MD_BIAS_WIDTH));
}

/* kv_heads: G Key/Value heads, each shared by heads/G query heads (SPEC §11): Wk then
 * makes G blocks of d_k columns. */
static int check_kv_heads(const as_problem *p, as_error *err)
{
    char msg[200];

    snprintf(msg, sizeof msg, T(AS_MSG_MD_KV_WIDTH), p->Wk->cols, p->kv_heads, p->d_k,
             p->Wq->cols, p->heads, p->kv_heads * p->d_k);
    if (p->Wk->cols != p->kv_heads * p->d_k)
        return fail_at(err, p, later(NAMED(AS_WQ), NAMED(AS_WK)), T(AS_MSG_HINT_MD_KV_WIDTH),
                       msg);
    return 0;
}

/* heads: the columns of Q/K and of V split into equal blocks, one per head. */
static int check_heads(as_problem *p, as_error *err)
{
    const as_pos at = p->in->heads_pos;
    char msg[160];

    p->heads = p->in->heads ? p->in->heads : 1;
    p->kv_heads = p->in->kv_heads ? p->in->kv_heads : p->heads;
    if (p->heads % p->kv_heads != 0) {
        snprintf(msg, sizeof msg, T(AS_MSG_MD_KV_DIVIDE), p->kv_heads, p->heads);
        return fail_at(err, p, p->in->kv_heads_pos, T(AS_MSG_HINT_MD_KV_DIVIDE), msg);
    }
    if (p->Wq->cols % p->heads != 0 || p->Wv->cols % p->kv_heads != 0) {
        snprintf(msg, sizeof msg, T(AS_MSG_MD_HEADS_DIVIDE), p->heads, p->Wq->cols, p->Wv->cols);
        if (p->kv_heads != p->heads)
            snprintf(msg, sizeof msg, T(AS_MSG_MD_HEADS_KV_DIVIDE), p->heads, p->kv_heads,
                     p->Wq->cols, p->Wv->cols);
        return fail_at(err, p, at, T(AS_MSG_HINT_MD_HEADS_DIVIDE), msg);
    }
    p->d_k = p->Wq->cols / p->heads;
    p->d_v = p->Wv->cols / p->kv_heads;
    if (p->d_k == 0 || p->d_v == 0)
        return fail_at(err, p, NAMED(AS_WQ)->pos, T(AS_MSG_HINT_MD_NO_COLUMN),
                       T(AS_MSG_MD_NO_COLUMN));
    return check_kv_heads(p, err);
}

static int check_output(const as_problem *p, as_error *err)
{
    char msg[128];

    if (NAMED(AS_BO)->given && !NAMED(AS_WO)->given)
        return fail_at(err, p, NAMED(AS_BO)->pos, T(AS_MSG_HINT_MD_BO), T(AS_MSG_MD_BO));
    if (!NAMED(AS_WO)->given)
        return 0;
    snprintf(msg, sizeof msg, T(AS_MSG_MD_WO_ROWS), p->Wo->rows, p->heads * p->d_v);
    return agree(p, err, p->Wo->rows, p->heads * p->d_v, NAMED(AS_WO)->pos, msg,
                 T(AS_MSG_HINT_MD_WO_ROWS)) ||
           check_bias(p, err, AS_BO, AS_WO, p->Wo);
}

/* ---- limits ---- */

/* Each table the run makes stays within the limits of one table (SPEC §10), checked
 * before anything is allocated: a layer too large is an input error that names the
 * table, not "out of memory". Every factor is one matrix's dimension (at most
 * AS_MAX_DIM; heads x d_v is Wv's width), so as_shape_ok() sees no overflow. */
static int check_sizes(const as_problem *p, as_error *err)
{
    const as_mat_id kv = p->cross ? AS_XKV : AS_X;
    const struct {
        const char *name;
        size_t rows, cols;
        as_mat_id a, b; /* reported at the later of the two */
    } t[] = {
        {"Q", p->n, p->Wq->cols, AS_X, AS_WQ},
        {"K", p->m, p->Wk->cols, kv, AS_WK},
        {"V", p->m, p->Wv->cols, kv, AS_WV},
        {"QK\xe1\xb5\x80", p->n, p->m, AS_X, kv},
        {"C", p->n, p->heads * p->d_v, AS_X, AS_WV},
        {"O", p->n, p->Wo ? p->Wo->cols : p->heads * p->d_v, AS_X, p->Wo ? AS_WO : AS_WV},
    };
    size_t i;
    char msg[160];

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (as_shape_ok(t[i].rows, t[i].cols))
            continue;
        snprintf(msg, sizeof msg, T(AS_MSG_MD_TOO_LARGE), t[i].name, t[i].rows, t[i].cols,
                 AS_MAX_CELLS);
        return fail_at(err, p, later(NAMED(t[i].a), NAMED(t[i].b)), T(AS_MSG_HINT_MD_TOO_LARGE),
                       msg);
    }
    return 0;
}

/* ---- token labels ---- */

/* Labels for count rows: the file's (their number must match), or "0", "1", ... made in
 * own. */
static int labels(const as_problem *p, const as_tokens *given, const char *key, size_t count,
                  const char *what, const char ***out, as_label_store *own, as_error *err)
{
    size_t i;
    char msg[160], *s;

    if (given->count > 0) {
        snprintf(msg, sizeof msg, T(AS_MSG_MD_LABELS), key, given->count, what, count);
        if (given->count != count)
            return fail_at(err, p, given->pos, T(AS_MSG_HINT_MD_LABELS), msg);
        *out = (const char **)given->label;
        return 0;
    }
    own->ptr = calloc(count ? count : 1, sizeof *own->ptr);
    own->chars = malloc(count * 8 + 1); /* at most 5 digits and a NUL per label */
    if (own->ptr == NULL || own->chars == NULL)
        return fail_at(err, p, (as_pos){0, 0}, NULL, T(AS_MSG_OOM));
    for (i = 0, s = own->chars; i < count; i++) {
        own->ptr[i] = s;
        s += sprintf(s, "%zu", i) + 1;
    }
    *out = own->ptr;
    return 0;
}

static int check_tokens(as_problem *p, as_error *err)
{
    if (labels(p, &p->in->tokens, "tokens", p->n, "X", &p->tokens, &p->own_tokens, err) != 0)
        return -1;
    if (!p->cross && p->in->kv_tokens.count == 0) {
        p->kv_tokens = p->tokens;
        return 0;
    }
    return labels(p, &p->in->kv_tokens, "kv_tokens", p->m, p->cross ? "Xkv" : "X",
                  &p->kv_tokens, &p->own_kv_tokens, err);
}

/* ---- the mask ---- */

static int custom_mask(as_problem *p, as_error *err)
{
    const as_named *nm = NAMED(AS_M);
    size_t i;
    char msg[160];

    snprintf(msg, sizeof msg, T(AS_MSG_MD_M_SHAPE), nm->m.rows, nm->m.cols, p->n, p->m);
    if (nm->m.rows != p->n || nm->m.cols != p->m)
        return fail_at(err, p, nm->pos, T(AS_MSG_HINT_MD_M_SHAPE), msg);
    for (i = 0; i < nm->m.rows * nm->m.cols; i++)
        if (isnan(nm->m.v[i]) || nm->m.v[i] == INFINITY)
            return fail_at(err, p, nm->pos, T(AS_MSG_HINT_MD_M_INF), T(AS_MSG_MD_M_INF));
    return 0;
}

/* Decides the mask (command line, then file, then the default) and checks that it fits
 * [n, m]; the run builds M (mask.h). */
static int decide_mask(as_problem *p, as_mask_kind override, as_error *err)
{
    const as_input *in = p->in;
    char msg[160];

    if (in->mask != AS_MASK_DEFAULT && in->mask != AS_MASK_CUSTOM && NAMED(AS_M)->given)
        return fail_at(err, p, NAMED(AS_M)->pos, T(AS_MSG_HINT_MD_MASK_BOTH),
                       T(AS_MSG_MD_MASK_BOTH));
    p->mask = override != AS_MASK_DEFAULT ? override
              : NAMED(AS_M)->given        ? AS_MASK_CUSTOM
              : in->mask != AS_MASK_DEFAULT ? in->mask
              : p->cross                   ? AS_MASK_NONE
                                           : AS_MASK_CAUSAL;
    if (p->mask == AS_MASK_CUSTOM)
        return custom_mask(p, err);
    if (p->mask == AS_MASK_NONE)
        return 0;
    p->window = p->mask == AS_MASK_WINDOW ? in->window : p->n;
    snprintf(msg, sizeof msg, T(AS_MSG_MD_MASK_SQUARE),
             p->mask == AS_MASK_WINDOW ? "window" : "causal", p->n, p->m);
    if (p->n != p->m)
        return fail_at(err, p, in->mask_pos.line ? in->mask_pos : NAMED(AS_XKV)->pos,
                       T(AS_MSG_HINT_MD_MASK_SQUARE), msg);
    return 0;
}

/* ---- the block (SPEC §15) ---- */

/* The first of the block's own settings and tables given, which mean nothing without
 * block: (its position into *at), or NULL. */
static const char *block_only_given(const as_problem *p, as_pos *at)
{
    static const char *const set[] = {"norm", "norm_eps", "norm_style", "ffn"};
    const as_input *in = p->in;
    const as_pos pos[] = {in->norm_pos, in->norm_eps_pos, in->norm_style_pos, in->ffn_pos};
    size_t k;
    int id;

    for (k = 0; k < sizeof set / sizeof set[0]; k++)
        if (pos[k].line != 0) {
            *at = pos[k];
            return set[k];
        }
    for (id = AS_LN1_G; id <= AS_WGATE; id++)
        if (NAMED(id)->given) {
            *at = NAMED(id)->pos;
            return as_mat_name((as_mat_id)id);
        }
    return NULL;
}

/* Table id given though this block has no use for it: the error msg (naming it), hint. */
static int unused(const as_problem *p, as_error *err, int id, as_msg msg, as_msg hint)
{
    if (!NAMED(id)->given)
        return 0;
    return fail_at(err, p, NAMED(id)->pos, T(hint), T(msg), as_mat_name((as_mat_id)id));
}

/* γ or β id: one row of d_model numbers, one per feature of the rows normalised. */
static int norm_row(const as_problem *p, as_error *err, int id)
{
    const as_named *nm = NAMED(id);

    if (!nm->given || (nm->m.rows == 1 && nm->m.cols == p->d_model))
        return 0;
    return fail_at(err, p, nm->pos, T(AS_MSG_HINT_MD_NORM_WIDTH), T(AS_MSG_MD_NORM_WIDTH),
                   as_mat_name((as_mat_id)id), nm->m.rows * nm->m.cols, p->d_model);
}

/* norm, norm_style and the γ/β tables: each used by the norm chosen, as wide as X. */
static int check_norms(const as_problem *p, as_error *err)
{
    const as_input *in = p->in;
    int id;

    for (id = AS_LN1_G; id <= AS_LNF_B; id++) {
        const int beta = (id - AS_LN1_G) % 2 == 1, second = id == AS_LN2_G || id == AS_LN2_B;
        if ((p->norm == AS_NORM_NONE &&
             unused(p, err, id, AS_MSG_MD_NORM_NONE_TABLE, AS_MSG_HINT_MD_NORM_NONE_TABLE)) ||
            (p->norm == AS_NORM_RMS && beta &&
             unused(p, err, id, AS_MSG_MD_RMS_NO_BETA, AS_MSG_HINT_MD_RMS_NO_BETA)) ||
            (p->ffn == AS_FFN_NONE && second &&
             unused(p, err, id, AS_MSG_MD_FFN_NONE_TABLE, AS_MSG_HINT_MD_FFN_NONE_TABLE)) ||
            norm_row(p, err, id))
            return -1;
    }
    if (in->norm_style_pos.line != 0 && p->norm != AS_NORM_LAYER)
        return fail_at(err, p, in->norm_style_pos, T(AS_MSG_HINT_MD_STYLE_LAYER_ONLY),
                       T(AS_MSG_MD_STYLE_LAYER_ONLY));
    if (p->norm == AS_NORM_LAYER && p->norm_style == AS_NORM_ANNOTATED && p->d_model < 2)
        return fail_at(err, p, in->norm_style_pos, T(AS_MSG_HINT_MD_ANNOTATED_WIDTH),
                       T(AS_MSG_MD_ANNOTATED_WIDTH));
    return 0;
}

/* The FFN's W tables in book layout ([in, out]): the input's, or with layout: torch
 * their transposes made into the problem's own -- unless make is 0 (the lean build, as
 * take_weights): then the own have their shapes only, and Wffn_t the input's tables. */
static int take_ffn_weights(as_problem *p, int make, as_error *err)
{
    static const as_mat_id w[] = {AS_WUP, AS_WGATE, AS_WDOWN};
    const as_matrix **to[] = {&p->Wup, &p->Wgate, &p->Wdown};
    size_t k;

    for (k = 0; k < 3; k++) {
        *to[k] = NAMED(w[k])->given ? &NAMED(w[k])->m : NULL;
        if (*to[k] == NULL || p->in->layout != AS_LAYOUT_TORCH)
            continue;
        if (!make) {
            p->Wffn_t[k] = *to[k];
            p->own_ffn[k] = (as_matrix){(*to[k])->cols, (*to[k])->rows, NULL};
            *to[k] = &p->own_ffn[k];
            continue;
        }
        if (as_matrix_transposed(&p->own_ffn[k], *to[k]) != 0)
            return fail_at(err, p, (as_pos){0, 0}, NULL, T(AS_MSG_OOM));
        *to[k] = &p->own_ffn[k];
    }
    p->bup = NAMED(AS_BUP)->given ? &NAMED(AS_BUP)->m : NULL;
    p->bdown = NAMED(AS_BDOWN)->given ? &NAMED(AS_BDOWN)->m : NULL;
    return 0;
}

/* With an FFN, the tables its activation needs, none it does not. */
static int ffn_tables(const as_problem *p, as_error *err)
{
    const as_pos at = p->in->ffn_pos.line ? p->in->ffn_pos : p->in->block_pos;
    const as_mat_id need[] = {AS_WUP, AS_WDOWN, AS_WGATE};
    size_t k;
    int id;

    if (p->ffn == AS_FFN_NONE) {
        for (id = AS_WUP; id <= AS_WGATE; id++)
            if (unused(p, err, id, AS_MSG_MD_FFN_NONE_TABLE, AS_MSG_HINT_MD_FFN_NONE_TABLE))
                return -1;
        return 0;
    }
    for (k = 0; k < (p->ffn == AS_FFN_SWIGLU ? 3u : 2u); k++)
        if (!NAMED(need[k])->given)
            return fail_at(err, p, at, T(AS_MSG_HINT_MD_FFN_MISSING), T(AS_MSG_MD_FFN_MISSING),
                           as_ffn_name(p->ffn), as_mat_name(need[k]));
    if (p->ffn != AS_FFN_SWIGLU)
        return unused(p, err, AS_WGATE, AS_MSG_MD_WGATE_ONLY, AS_MSG_HINT_MD_WGATE_ONLY);
    return 0;
}

/* The FFN's shapes: Wup (and Wgate) [d_model, d_ff], Wdown [d_ff, d_model], the biases
 * one row as wide as their projection. */
static int ffn_shapes(const as_problem *p, as_error *err)
{
    const as_matrix *up = p->Wup, *gate = p->Wgate, *down = p->Wdown;
    char msg[160];

    if (p->ffn == AS_FFN_NONE)
        return 0;
    snprintf(msg, sizeof msg, T(AS_MSG_MD_W_ROWS), "Wup", up->rows,
             p->block == AS_BLOCK_PRE ? "N2" : "H1", p->d_model);
    if (agree(p, err, up->rows, p->d_model, NAMED(AS_WUP)->pos, msg, T(AS_MSG_HINT_MD_WUP_ROWS)))
        return -1;
    if (gate != NULL && (gate->rows != up->rows || gate->cols != up->cols))
        return fail_at(err, p, later(NAMED(AS_WUP), NAMED(AS_WGATE)),
                       T(AS_MSG_HINT_MD_WGATE_SHAPE), T(AS_MSG_MD_WGATE_SHAPE), gate->rows,
                       gate->cols, up->rows, up->cols);
    if (down->rows != up->cols)
        return fail_at(err, p, later(NAMED(AS_WUP), NAMED(AS_WDOWN)),
                       T(AS_MSG_HINT_MD_WDOWN_ROWS), T(AS_MSG_MD_WDOWN_ROWS), down->rows,
                       up->cols);
    if (down->cols != p->d_model)
        return fail_at(err, p, NAMED(AS_WDOWN)->pos, T(AS_MSG_HINT_MD_WDOWN_COLS),
                       T(AS_MSG_MD_WDOWN_COLS), down->cols, p->d_model);
    if (!as_shape_ok(p->n, up->cols)) {
        snprintf(msg, sizeof msg, T(AS_MSG_MD_TOO_LARGE), "U", p->n, up->cols, AS_MAX_CELLS);
        return fail_at(err, p, NAMED(AS_WUP)->pos, T(AS_MSG_HINT_MD_TOO_LARGE), msg);
    }
    return check_bias(p, err, AS_BUP, AS_WUP, up) || check_bias(p, err, AS_BDOWN, AS_WDOWN, down);
}

/* block: and everything that belongs to it; without block:, that nothing of it is
 * given. The residual adds O to X, so O must be as wide as X. */
static int check_block(as_problem *p, int make_w, as_error *err)
{
    const as_input *in = p->in;
    const size_t d_out = p->Wo ? p->Wo->cols : p->heads * p->d_v;
    const char *what;
    as_pos at;
    size_t k;

    p->block = in->block;
    if (p->block == AS_BLOCK_NONE) {
        if ((what = block_only_given(p, &at)) == NULL)
            return 0;
        return fail_at(err, p, at, T(AS_MSG_HINT_MD_BLOCK_ONLY), T(AS_MSG_MD_BLOCK_ONLY), what);
    }
    if (d_out != p->d_model)
        return fail_at(err, p, NAMED(p->Wo ? AS_WO : AS_WV)->pos, T(AS_MSG_HINT_MD_RESIDUAL_WIDTH),
                       T(AS_MSG_MD_RESIDUAL_WIDTH), d_out, p->d_model);
    p->norm = in->norm;
    p->norm_style = in->norm_style;
    p->norm_eps = in->norm_eps_set ? in->norm_eps : as_norm_default_eps(p->norm, p->norm_style);
    p->ffn = in->ffn;
    if (check_norms(p, err) || take_ffn_weights(p, make_w, err) || ffn_tables(p, err) ||
        ffn_shapes(p, err))
        return -1;
    for (k = 0; k < 3; k++) { /* norm1, norm2, normf: their γ and β side by side in the ids */
        p->ln_g[k] = as_problem_table(p, (as_mat_id)(AS_LN1_G + 2 * k));
        p->ln_b[k] = as_problem_table(p, (as_mat_id)(AS_LN1_B + 2 * k));
    }
    p->final_norm = p->ln_g[2] != NULL || p->ln_b[2] != NULL;
    p->d_ff = p->Wup ? p->Wup->cols : 0;
    return 0;
}

/* ---- the output head (SPEC §19) ---- */

/* The first of the head's settings written without head:, with its position; or NULL. */
static const char *head_only_given(const as_problem *p, as_pos *at)
{
    static const char *const set[] = {"temperature", "top_k", "top_p", "sample"};
    const as_head_settings *o = &p->in->out;
    const as_pos pos[] = {o->temperature_pos, o->top_k_pos, o->top_p_pos, o->sample_pos};
    size_t k;

    for (k = 0; k < sizeof set / sizeof set[0]; k++)
        if (pos[k].line != 0) {
            *at = pos[k];
            return set[k];
        }
    return NULL;
}

/* The table the head reads: the whole E (tied) or Wout in book layout, or NULL (err
 * set) when the file does not give it. */
static const as_matrix *head_table(as_problem *p, as_error *err)
{
    const as_head_settings *o = &p->in->out;

    if (o->head == AS_HEAD_TIED && p->in->emb.table.v == NULL) {
        fail_at(err, p, o->head_pos, T(AS_MSG_HINT_MD_HEAD_NEEDS), T(AS_MSG_MD_HEAD_NEEDS), "tied",
                "E");
        return NULL;
    }
    if (o->head == AS_HEAD_TIED) /* the whole E, not only the rows ids took (parse.h) */
        return &p->in->emb.table;
    if (!NAMED(AS_WOUT)->given) {
        fail_at(err, p, o->head_pos, T(AS_MSG_HINT_MD_HEAD_NEEDS), T(AS_MSG_MD_HEAD_NEEDS), "Wout",
                "Wout");
        return NULL;
    }
    if (p->in->layout != AS_LAYOUT_TORCH)
        return &NAMED(AS_WOUT)->m;
    if (as_matrix_transposed(&p->own_head, &NAMED(AS_WOUT)->m) != 0) {
        fail_at(err, p, NAMED(AS_WOUT)->pos, NULL, "%s", T(AS_MSG_OOM));
        return NULL;
    }
    return &p->own_head;
}

/* head: and the draw's settings: the table is given, as wide as h (the last row of the
 * layer's final table: Y with a block, else O), and top_k fits the vocabulary. */
static int check_head(as_problem *p, as_error *err)
{
    const as_head_settings *o = &p->in->out;
    const size_t d_h = p->block != AS_BLOCK_NONE ? p->d_model : p->d_out;
    const char *what;
    size_t width;
    as_pos at;

    p->head = o->head;
    if (o->head == AS_HEAD_NONE) {
        if (NAMED(AS_WOUT)->given)
            return fail_at(err, p, NAMED(AS_WOUT)->pos, T(AS_MSG_HINT_MD_WOUT_UNUSED), "%s",
                           T(AS_MSG_MD_WOUT_UNUSED));
        if ((what = head_only_given(p, &at)) == NULL)
            return 0;
        return fail_at(err, p, at, T(AS_MSG_HINT_MD_HEAD_ONLY), T(AS_MSG_MD_HEAD_ONLY), what);
    }
    if (o->head == AS_HEAD_TIED && NAMED(AS_WOUT)->given)
        return fail_at(err, p, NAMED(AS_WOUT)->pos, T(AS_MSG_HINT_MD_WOUT_UNUSED), "%s",
                       T(AS_MSG_MD_WOUT_UNUSED));
    if ((p->head_w = head_table(p, err)) == NULL)
        return -1;
    width = o->head == AS_HEAD_TIED ? p->head_w->cols : p->head_w->rows;
    p->vocab = o->head == AS_HEAD_TIED ? p->head_w->rows : p->head_w->cols;
    if (width != d_h)
        return fail_at(err, p, o->head == AS_HEAD_TIED ? o->head_pos : NAMED(AS_WOUT)->pos,
                       T(AS_MSG_HINT_MD_HEAD_WIDTH), T(AS_MSG_MD_HEAD_WIDTH),
                       o->head == AS_HEAD_TIED ? "E" : "Wout", width,
                       p->block != AS_BLOCK_NONE ? "Y" : "O", d_h);
    if (o->top_k > p->vocab)
        return fail_at(err, p, o->top_k_pos, T(AS_MSG_HINT_MD_TOP_K_VOCAB), T(AS_MSG_MD_TOP_K_VOCAB),
                       o->top_k, p->vocab);
    p->temperature = o->temperature_set ? o->temperature : 1.0;
    p->top_k = o->top_k;
    p->top_p = o->top_p;
    p->seeded = o->seeded;
    p->seed = o->seed;
    return 0;
}

/* ---- the whole problem ---- */

/* positions (SPEC §12): RoPE turns numbers in pairs, so each head's d_k must be even; the
 * RoPE settings mean nothing without positions: rope. */
static int check_positions(as_problem *p, as_error *err)
{
    const as_input *in = p->in;
    char msg[160];

    p->positions = in->positions;
    p->rope = in->rope;
    p->rope_base = in->rope_base_set ? in->rope_base : 10000.0;
    if (in->positions != AS_POSITIONS_ROPE && (in->rope_set || in->rope_base_set))
        return fail_at(err, p, in->rope_set ? in->rope_pos : in->rope_base_pos,
                       T(AS_MSG_HINT_MD_ROPE_ONLY), T(AS_MSG_MD_ROPE_ONLY),
                       in->rope_set ? "rope" : "rope_base");
    if (in->positions == AS_POSITIONS_ROPE && p->d_k % 2 != 0) {
        snprintf(msg, sizeof msg, T(AS_MSG_MD_ROPE_ODD), p->d_k);
        return fail_at(err, p, in->positions_pos, T(AS_MSG_HINT_MD_ROPE_ODD), msg);
    }
    return 0;
}

/* as_problem_build(), with the book-layout weights made when make_w. */
static int build(as_problem *p, const as_input *in, as_mask_kind mask_override, int make_w,
                 as_error *err)
{
    memset(p, 0, sizeof *p);
    p->in = in;
    if (check_required(p, err) != 0 || take_weights(p, make_w, err) != 0)
        goto fail;
    p->cross = in->mat[AS_XKV].given;
    p->X = &in->mat[AS_X].m;
    p->Xkv = p->cross ? &in->mat[AS_XKV].m : p->X;
    p->bq = in->mat[AS_BQ].given ? &in->mat[AS_BQ].m : NULL;
    p->bk = in->mat[AS_BK].given ? &in->mat[AS_BK].m : NULL;
    p->bv = in->mat[AS_BV].given ? &in->mat[AS_BV].m : NULL;
    p->bo = in->mat[AS_BO].given ? &in->mat[AS_BO].m : NULL;
    p->n = p->X->rows;
    p->m = p->Xkv->rows;
    p->d_model = p->X->cols;
    p->d_kv_model = p->Xkv->cols;
    if (check_projections(p, err) || check_bias(p, err, AS_BQ, AS_WQ, p->Wq) ||
        check_bias(p, err, AS_BK, AS_WK, p->Wk) || check_bias(p, err, AS_BV, AS_WV, p->Wv) ||
        check_heads(p, err) || check_output(p, err) || check_sizes(p, err) ||
        check_tokens(p, err) || check_positions(p, err) ||
        decide_mask(p, mask_override, err) || check_block(p, make_w, err))
        goto fail;
    p->d_out = p->Wo ? p->Wo->cols : p->heads * p->d_v;
    if (check_head(p, err) != 0)
        goto fail;
    p->d_out = p->Wo ? p->Wo->cols : p->heads * p->d_v;
    p->group = p->heads / p->kv_heads;
    p->scale_auto = !in->scale_set;
    /* sqrt(1/d_k) is correctly rounded whenever 1/d_k is exact (d_k a power of two), so
     * the book's 1/√2 is the double nearest the true value */
    p->scale = in->scale_set ? in->scale : sqrt(1.0 / (double)p->d_k);
    p->sqrt_dk = sqrt((double)p->d_k);
    return 0;
fail:
    as_problem_free(p);
    return -1;
}

int as_problem_build(as_problem *p, const as_input *in, as_mask_kind mask_override,
                     as_error *err)
{
    return build(p, in, mask_override, 1, err);
}

int as_problem_build_lean(as_problem *p, const as_input *in, as_mask_kind mask_override,
                          as_error *err)
{
    return build(p, in, mask_override, 0, err);
}

const as_matrix *as_problem_table(const as_problem *p, as_mat_id id)
{
    switch (id) {
    case AS_WQ: return p->Wq;
    case AS_WK: return p->Wk;
    case AS_WV: return p->Wv;
    case AS_WO: return p->Wo;
    case AS_X: return p->X;     /* the file's, or what the attention reads (session.h) */
    case AS_XKV: return p->cross ? p->Xkv : NULL;
    case AS_WUP: return p->Wup;
    case AS_WGATE: return p->Wgate;
    case AS_WDOWN: return p->Wdown;
    case AS_WOUT: return p->head == AS_HEAD_WOUT ? p->head_w : NULL;
    default: return (unsigned)id < AS_NMAT && p->in->mat[id].given ? &p->in->mat[id].m : NULL;
    }
}

size_t as_kv_head(const as_problem *p, size_t hd)
{
    return hd / p->group;
}

void as_problem_free(as_problem *p)
{
    size_t i;

    for (i = 0; i < 4; i++)
        as_matrix_free(&p->own_w[i]);
    for (i = 0; i < 3; i++)
        as_matrix_free(&p->own_ffn[i]);
    as_matrix_free(&p->own_head);
    free(p->own_tokens.chars);
    free(p->own_tokens.ptr);
    free(p->own_kv_tokens.chars);
    free(p->own_kv_tokens.ptr);
    memset(p, 0, sizeof *p);
}
