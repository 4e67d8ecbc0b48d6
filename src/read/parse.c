/* parse.c - the input file (SPEC §2): its statements, settings and matrix names. The
 * matrices themselves are read by reader.c, the files load() names by load.c. Errors
 * stop the parse at the first one; everything allocated is freed. */
#include "attnstep/parse.h"
#include "attnstep/lex.h"
#include "attnstep/load.h"
#include "attnstep/preset.h"
#include "attnstep/reader.h"
#include "attnstep/suggest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ names ---- */

static char ascii_lower(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

static int is_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static const char *const mat_names[AS_NMAT] = {
    "X", "Xkv", "Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv", "bo", "M", "dO", "target", "E", "P",
    "ln1_g", "ln1_b", "ln2_g", "ln2_b", "lnf_g", "lnf_b", "Wup", "bup", "Wdown", "bdown", "Wgate",
    "Wout"};

/* The text of message id in the language of the parser's error record. */
#define T(ps, id) as_msg_text((ps)->r.err->lang, id)

const char *as_mat_name(as_mat_id id)
{
    return (unsigned)id < AS_NMAT ? mat_names[id] : "?";
}

/* The id for a letter (x, w, b or m, any case) and a suffix (lowercase), or -1. */
static int mat_from_parts(char base, const char *suf)
{
    static const char qkvo[] = "qkvo";
    const char *hit;

    if (base == 'x')
        return suf[0] == '\0' ? AS_X : strcmp(suf, "kv") == 0 ? AS_XKV : -1;
    if (base == 'm')
        return suf[0] == '\0' ? AS_M : -1;
    if ((base != 'w' && base != 'b') || suf[0] == '\0' || suf[1] != '\0')
        return -1;
    hit = strchr(qkvo, suf[0]);
    if (hit == NULL)
        return -1;
    return (base == 'w' ? AS_WQ : AS_BQ) + (int)(hit - qkvo);
}

/* The block's tables (SPEC §15), as written or with an underscore after their W or b
 * (W_up, b_down), as the attention's W_q: the id, or -1. */
static int block_name(const char *name, size_t len)
{
    int id;

    for (id = AS_LN1_G; id <= AS_WOUT; id++) {
        const char *s = mat_names[id];
        const size_t n = strlen(s);
        if (len == n && strncmp(name, s, n) == 0)
            return id;
        if (len == n + 1 && (s[0] == 'W' || s[0] == 'b') && name[0] == s[0] && name[1] == '_' &&
            strncmp(name + 2, s + 1, n - 1) == 0)
            return id;
    }
    return -1;
}

int as_mat_lookup(const char *name, size_t len)
{
    char suf[3];
    size_t i = 1, n = 0;
    int block;

    if (name != NULL && ((len == 2 && strncmp(name, "dO", 2) == 0) ||
                         (len == 3 && strncmp(name, "d_O", 3) == 0)))
        return AS_DO; /* the gradient of O: case matters, do is no name */
    if (name != NULL && len == 6 && strncmp(name, "target", 6) == 0)
        return AS_TARGET;
    if (name != NULL && len == 1 && (name[0] == 'E' || name[0] == 'P'))
        return name[0] == 'E' ? AS_E : AS_P; /* the embedding's tables: case matters */
    if (name != NULL && (block = block_name(name, len)) >= 0)
        return block;
    if (name == NULL || len == 0 || len > 4)
        return -1;
    if (len > 1 && name[1] == '_') {
        i = 2; /* W_q, X_kv: the underscore must lead somewhere */
        if (len == 2)
            return -1;
    }
    for (; i < len; i++) {
        char ch = name[i];
        if (n == 2 || !is_letter(ch))
            return -1;
        suf[n++] = ascii_lower(ch);
    }
    suf[n] = '\0';
    if (!is_letter(name[0]))
        return -1;
    return mat_from_parts(ascii_lower(name[0]), suf);
}

/* What the grammar allows in matrix id: one row for a bias, -inf in the mask. */
static unsigned flags_of(as_mat_id id)
{
    if (id == AS_BQ || id == AS_BK || id == AS_BV || id == AS_BO ||
        (id >= AS_LN1_G && id <= AS_LNF_B) || id == AS_BUP || id == AS_BDOWN)
        return AS_RD_ONE_ROW;
    return id == AS_M ? AS_RD_NEG_INF : 0;
}

/* ------------------------------------------------------------------ settings table ---- */

enum { SET_TITLE, SET_TOKENS, SET_KV_TOKENS, SET_MASK, SET_HEADS, SET_LAYOUT, SET_SCALE,
       SET_KV_HEADS, SET_LOSS, SET_ASK, SET_POSITIONS, SET_ROPE_BASE, SET_ROPE, SET_BLOCK,
       SET_NORM, SET_NORM_EPS, SET_NORM_STYLE, SET_FFN, SET_IDS,
       SET_HEAD, SET_TEMPERATURE, SET_TOP_K, SET_TOP_P, SET_SAMPLE, SET_MODEL, SET_PRESET, NSET };

static const char *const set_names[NSET] = {"title", "tokens", "kv_tokens", "mask",
                                            "heads", "layout", "scale", "kv_heads", "loss",
                                            "ask", "positions", "rope_base", "rope", "block",
                                            "norm", "norm_eps", "norm_style", "ffn", "ids",
                                            "head", "temperature", "top_k", "top_p",
                                            "sample", "model", "preset"};

/* A value of each setting, for the hint when the value is missing. */
static const char *const set_examples[NSET] = {"F11", "我 爱", "我 爱", "causal", "1", "book",
                                               "auto", "1", "sum", "Q K V QKT S A O", "rope",
                                               "10000", "half", "pre", "layer", "1e-5",
                                               "torch", "gelu_tanh", "40 1842 345", "tied",
                                               "0.7", "40", "0.9", "greedy",
                                               "'gpt2/model.safetensors' layer 0", "gpt2"};

/* The hint for an unknown word: "did you mean X?" when one of names is near it, else
 * the hint `otherwise`, into hint[size]. */
/* An unknown word[0..n) at at (msg names it): the hint is the one of names it is near,
 * else otherwise. Returns -1. */
static int unknown_word(as_reader *r, as_pos at, as_msg msg, const char *word, size_t n,
                        const char *const *names, size_t count, as_msg otherwise)
{
    const char *near = as_suggest(word, n, names, count);
    char q[64];

    as_lex_quote(q, sizeof q, word, n);
    as_reader_err_pos(r, NULL, at, AS_RD_NO_HINT, msg, q);
    if (near != NULL)
        as_error_hint_msg(r->err, AS_MSG_DID_YOU_MEAN, near);
    else
        as_error_hint_msg(r->err, otherwise);
    return -1;
}

const char *const *as_setting_names(size_t *n)
{
    *n = NSET;
    return set_names;
}

static int setting_lookup(const char *s, size_t n)
{
    int i;

    for (i = 0; i < NSET; i++)
        if (as_lex_word_is(s, n, set_names[i]))
            return i;
    return -1;
}

/* ------------------------------------------------------------------ parser state ---- */

typedef struct parser {
    as_reader r;           /* the input's text and the matrices open in it */
    as_input *in;
    as_load_ref ref[2];    /* E and P when load() named a binary file: read after the
                              parse, only the rows ids take (embed) */
    int set_line[NSET];    /* line of each setting given, 0 while not given */
    size_t statements;
} parser;

static const as_pos no_pos = {0, 0};

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ------------------------------------------------------------------ settings ---- */

/* The end of the value v..: trailing blanks dropped. */
static const char *trim_end(const char *v, const char *e)
{
    for (;;) {
        if (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\v' || e[-1] == '\f'))
            e--;
        else if (e - v >= 2 && as_lex_blank(e - 2, e) == 2)
            e -= 2;
        else if (e - v >= 3 && as_lex_blank(e - 3, e) == 3)
            e -= 3;
        else
            return e;
    }
}

/* The end of the label at p: the next blank. */
static const char *label_end(const char *p, const char *end)
{
    while (p < end && as_lex_blank(p, end) == 0)
        p++;
    return p;
}

/* tokens: / kv_tokens: whitespace-separated labels, counted before anything is made. */
static int set_labels(parser *ps, as_tokens *t, const char *v, const char *e, as_pos key)
{
    const char *p = v;
    size_t count = 0, i = 0, k;

    while (p < e) {
        if ((k = as_lex_blank(p, e)) > 0) {
            p += k;
            continue;
        }
        if (count == AS_MAX_DIM)
            return as_reader_err_at(&ps->r, p, AS_MSG_PS_TOO_MANY_LABELS_HINT,
                                    AS_MSG_PS_TOO_MANY_LABELS, AS_MAX_DIM);
        count++;
        p = label_end(p, e);
    }
    t->label = calloc(count, sizeof *t->label);
    if (t->label == NULL)
        return as_reader_fail_memory(&ps->r, v);
    t->count = count; /* calloc'd: as_input_free() copes with a half-filled list */
    t->pos = key;
    for (p = v; p < e; p = label_end(p, e)) {
        while ((k = as_lex_blank(p, e)) > 0)
            p += k;
        t->label[i] = dup_n(p, (size_t)(label_end(p, e) - p));
        if (t->label[i++] == NULL)
            return as_reader_fail_memory(&ps->r, p);
    }
    return 0;
}

/* ids: whitespace-separated row numbers of E, each with its place, counted first. */
static int set_ids(parser *ps, const char *v, const char *e, as_pos key)
{
    as_embedding *emb = &ps->in->emb;
    const char *p = v, *w;
    size_t count = 0, k;
    char q[64];

    for (p = v; p < e; p = label_end(p, e)) {
        while ((k = as_lex_blank(p, e)) > 0)
            p += k;
        if (p < e && count++ == AS_MAX_DIM)
            return as_reader_err_at(&ps->r, p, AS_MSG_EMB_ID_HINT, AS_MSG_EMB_TOO_MANY,
                                    AS_MAX_DIM);
    }
    emb->ids = calloc(count, sizeof *emb->ids);
    emb->at = calloc(count, sizeof *emb->at);
    if (emb->ids == NULL || emb->at == NULL)
        return as_reader_fail_memory(&ps->r, v);
    emb->pos = key;
    for (p = v; p < e; p = label_end(p, e)) {
        while ((k = as_lex_blank(p, e)) > 0)
            p += k;
        if (p == e)
            break;
        emb->at[emb->count] = as_reader_pos(&ps->r, p);
        for (w = p; w < label_end(p, e); w++) {
            if (*w < '0' || *w > '9') {
                as_lex_quote(q, sizeof q, p, (size_t)(label_end(p, e) - p));
                return as_reader_err_at(&ps->r, p, AS_MSG_EMB_ID_HINT, AS_MSG_EMB_NOT_ID, q);
            }
            if (emb->ids[emb->count] < ((size_t)1 << 40)) /* past any E: stops growing */
                emb->ids[emb->count] = emb->ids[emb->count] * 10 + (size_t)(*w - '0');
        }
        if (emb->ids[emb->count] >= ((size_t)1 << 40)) { /* quoted as written, not as kept */
            as_lex_quote(q, sizeof q, p, (size_t)(label_end(p, e) - p));
            return as_reader_err_at(&ps->r, p, AS_MSG_EMB_ID_OUTSIDE_HINT, AS_MSG_EMB_ID_HUGE, q);
        }
        emb->count++;
    }
    return 0;
}

/* model: "FILE" layer N (SPEC §16): the file, relative to the input, and the layer
 * walked (0 when "layer N" is left out). */
static int set_model(parser *ps, const char *v, const char *e)
{
    as_model_ref *m = &ps->in->model;
    const char *p = v, *s;
    char q[64];
    size_t k;

    if (*p != '"' && *p != '\'')
        goto bad;
    for (s = ++p; p < e && *p != s[-1];)
        p++;
    if (p >= e || p == s)
        goto bad;
    m->pos = as_reader_pos(&ps->r, s);
    if ((m->path = as_load_resolve(ps->r.path, s, (size_t)(p - s))) == NULL)
        return as_reader_fail_memory(&ps->r, s);
    for (p++; (k = as_lex_blank(p, e)) > 0;)
        p += k;
    if (p == e)
        return 0;
    if (e - p < 5 || !as_lex_word_is(p, 5, "layer"))
        goto bad;
    for (p += 5; (k = as_lex_blank(p, e)) > 0;)
        p += k;
    if (p == e)
        goto bad;
    for (; p < e && *p >= '0' && *p <= '9'; p++)
        if (m->layer <= AS_MAX_DIM)
            m->layer = m->layer * 10 + (size_t)(*p - '0'); /* past any model: stops growing */
    if (p == e)
        return 0;
bad:
    as_lex_quote(q, sizeof q, p, (size_t)(e - p));
    return as_reader_err_at(&ps->r, p < e ? p : v, AS_MSG_PRE_MODEL_HINT, AS_MSG_PRE_MODEL_SYNTAX,
                            q);
}

/* preset: gpt2 | llama. */
static int set_preset(parser *ps, const char *v, const char *e, as_pos key)
{
    static const char *const words[] = {"gpt2", "llama"};
    const size_t len = (size_t)(e - v);
    size_t k;

    for (k = 0; k < 2; k++)
        if (as_lex_word_is(v, len, words[k])) {
            ps->in->model.preset = (as_preset)(AS_PRESET_GPT2 + (int)k);
            ps->in->model.preset_pos = key;
            return 0;
        }
    return unknown_word(&ps->r, as_reader_pos(&ps->r, v), AS_MSG_PRE_UNKNOWN, v, len, words, 2,
                        AS_MSG_PRE_UNKNOWN_HINT);
}

/* A positive whole number up to AS_MAX_DIM in v..e (heads, kv_heads, a window's width):
 * 0 and *out set, or an error naming what, with hint (or big_hint when too large). */
static int positive_whole(parser *ps, const char *v, const char *e, size_t *out,
                          as_msg what_id, as_msg hint, as_msg big_hint)
{
    const char *what = T(ps, what_id);
    size_t h = 0;
    const char *p;
    char q[64];

    as_lex_quote(q, sizeof q, v, (size_t)(e - v));
    for (p = v; p < e; p++) {
        if (*p < '0' || *p > '9')
            return as_reader_err_at(&ps->r, v, hint, AS_MSG_PS_NOT_POSITIVE_WHOLE, what, q);
        if (h <= AS_MAX_DIM)
            h = h * 10 + (size_t)(*p - '0'); /* stops growing past the limit: no overflow */
    }
    if (h == 0)
        return as_reader_err_at(&ps->r, v, hint, AS_MSG_PS_NOT_POSITIVE_WHOLE, what, q);
    if (h > AS_MAX_DIM)
        return as_reader_err_at(&ps->r, v, big_hint, AS_MSG_PS_WHOLE_TOO_LARGE, what, AS_MAX_DIM);
    *out = h;
    return 0;
}

/* heads and kv_heads: positive whole numbers. */
static int set_heads(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    if (which == SET_KV_HEADS) {
        ps->in->kv_heads_pos = key;
        return positive_whole(ps, v, e, &ps->in->kv_heads, AS_MSG_PS_WHAT_KV_HEADS,
                              AS_MSG_PS_KV_HEADS_HINT, AS_MSG_PS_KV_HEADS_BIG_HINT);
    }
    ps->in->heads_pos = key;
    return positive_whole(ps, v, e, &ps->in->heads, AS_MSG_PS_WHAT_HEADS, AS_MSG_PS_HEADS_HINT,
                          AS_MSG_PS_HEADS_BIG_HINT);
}

/* mask: window W -- causal, and each position reads itself and the W-1 before it. */
static int set_window(parser *ps, const char *v, const char *e, as_pos key)
{
    const char *w = v + 6;

    while (w < e && (*w == ' ' || *w == '\t'))
        w++;
    ps->in->mask = AS_MASK_WINDOW;
    ps->in->mask_pos = key;
    return positive_whole(ps, w, e, &ps->in->window, AS_MSG_PS_WHAT_WINDOW, AS_MSG_PS_WINDOW_HINT,
                          AS_MSG_PS_WINDOW_BIG_HINT);
}

/* A setting's value v..e read whole as one number into *x: 0; 1 when it is not one
 * number; -1 when the number itself is bad (overflow, a zero denominator), err set. */
static int value_number(parser *ps, const char *v, const char *e, int allow_inf, double *x)
{
    const size_t len = (size_t)(e - v);
    const char *why;
    const size_t n = as_parse_number(v, len, allow_inf, x, &why);

    if (n == 0 && why != NULL)
        return as_reader_number_error(&ps->r, v, len, why);
    return n == 0 || n != len;
}

/* scale: auto (1/√d_k) or a finite number. */
static int set_scale(parser *ps, const char *v, const char *e, as_pos key)
{
    const size_t len = (size_t)(e - v);
    char q[64];
    double x;
    int rc;

    ps->in->scale_pos = key;
    if (as_lex_word_is(v, len, "auto"))
        return 0;
    if ((rc = value_number(ps, v, e, 1, &x)) < 0)
        return -1;
    as_lex_quote(q, sizeof q, v, len);
    if (rc > 0)
        return as_reader_err_at(&ps->r, v, AS_MSG_PS_SCALE_HINT, AS_MSG_PS_SCALE_NOT_NUMBER, q);
    if (isinf(x))
        return as_reader_err_at(&ps->r, v, AS_MSG_PS_SCALE_HINT, AS_MSG_PS_SCALE_NOT_FINITE, q);
    ps->in->scale = x;
    ps->in->scale_set = 1;
    return 0;
}

/* A setting's value v..e read whole as one finite number into *x, above low (or equal to
 * it, when low_ok): 0; else -1 with the error bad (quoting the value) and hint. */
static int bounded_number(parser *ps, const char *v, const char *e, double low, int low_ok,
                          as_msg bad, as_msg hint, double *x)
{
    char q[64];
    const int rc = value_number(ps, v, e, 0, x);

    if (rc < 0)
        return -1;
    if (rc > 0 || !(*x > low || (low_ok && *x == low)) || isinf(*x)) {
        as_lex_quote(q, sizeof q, v, (size_t)(e - v));
        return as_reader_err_at(&ps->r, v, hint, bad, q);
    }
    return 0;
}

/* rope_base: a finite number above 1 (the θ_i = base^(−2i/d_k) of RoPE). */
static int set_rope_base(parser *ps, const char *v, const char *e, as_pos key)
{
    double x;

    if (bounded_number(ps, v, e, 1, 0, AS_MSG_PS_ROPE_BASE_BAD, AS_MSG_PS_ROPE_BASE_HINT, &x) != 0)
        return -1;
    ps->in->rope_base = x;
    ps->in->rope_base_set = 1;
    ps->in->rope_base_pos = key;
    return 0;
}

/* positions: none | sinusoidal | rope | alibi, rope: half | interleaved. */
static int set_positions(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    static const char *const kinds[] = {"none", "sinusoidal", "rope", "alibi"};
    size_t len = (size_t)(e - v), k;
    char q[64];

    if (which == SET_ROPE && (as_lex_word_is(v, len, "half") || as_lex_word_is(v, len, "interleaved"))) {
        ps->in->rope = as_lex_word_is(v, len, "half") ? AS_ROPE_HALF : AS_ROPE_INTERLEAVED;
        ps->in->rope_set = 1;
        ps->in->rope_pos = key;
        return 0;
    }
    for (k = 0; which == SET_POSITIONS && k < sizeof kinds / sizeof kinds[0]; k++)
        if (as_lex_word_is(v, len, kinds[k])) {
            ps->in->positions = (as_positions)k;
            ps->in->positions_pos = key;
            return 0;
        }
    as_lex_quote(q, sizeof q, v, len);
    if (which == SET_ROPE)
        return as_reader_err_at(&ps->r, v, AS_MSG_PS_ROPE_PAIRING_HINT,
                                AS_MSG_PS_ROPE_PAIRING_UNKNOWN, q);
    return as_reader_err_at(&ps->r, v, AS_MSG_PS_POSITIONS_HINT, AS_MSG_PS_POSITIONS_UNKNOWN, q);
}

/* ---- the block (SPEC §15) ---- */

/* The words each of block, norm, norm_style and ffn may take, in the order of their
 * enums (block's from AS_BLOCK_PRE), with the message and hint for any other word. */
typedef struct choice {
    int which;
    const char *const *words;
    size_t count;
    int first;
    as_msg unknown, hint;
} choice;

static const char *const block_words[] = {"pre", "post"};
static const char *const norm_words[] = {"layer", "rms", "none"};
static const char *const style_words[] = {"torch", "annotated"};
static const char *const ffn_words[] = {"gelu_tanh", "gelu", "relu", "swiglu", "none"};
static const choice choices[] = {
    {SET_BLOCK, block_words, 2, AS_BLOCK_PRE, AS_MSG_PS_BLOCK_UNKNOWN, AS_MSG_PS_BLOCK_HINT},
    {SET_NORM, norm_words, 3, AS_NORM_LAYER, AS_MSG_PS_NORM_UNKNOWN, AS_MSG_PS_NORM_HINT},
    {SET_NORM_STYLE, style_words, 2, AS_NORM_TORCH, AS_MSG_PS_NORM_STYLE_UNKNOWN,
     AS_MSG_PS_NORM_STYLE_HINT},
    {SET_FFN, ffn_words, 5, AS_FFN_GELU_TANH, AS_MSG_PS_FFN_UNKNOWN, AS_MSG_PS_FFN_HINT},
};

const char *as_ffn_name(as_ffn_kind kind)
{
    return (unsigned)kind < sizeof ffn_words / sizeof ffn_words[0] ? ffn_words[kind] : "?";
}

/* Gives the setting which (of choices) the value its word stands for, read at key. */
static void store_choice(as_input *in, int which, int value, as_pos key)
{
    switch (which) {
    case SET_BLOCK: in->block = (as_block_kind)value, in->block_pos = key; return;
    case SET_NORM: in->norm = (as_norm_kind)value, in->norm_pos = key; return;
    case SET_NORM_STYLE: in->norm_style = (as_norm_style)value, in->norm_style_pos = key; return;
    default: in->ffn = (as_ffn_kind)value, in->ffn_pos = key; return;
    }
}

/* block, norm, norm_style, ffn: one word of their list. */
static int set_choice(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    const size_t len = (size_t)(e - v);
    const choice *c = &choices[0];
    size_t k;

    while (c->which != which)
        c++;
    for (k = 0; k < c->count; k++)
        if (as_lex_word_is(v, len, c->words[k])) {
            store_choice(ps->in, which, c->first + (int)k, key);
            return 0;
        }
    return unknown_word(&ps->r, as_reader_pos(&ps->r, v), c->unknown, v, len, c->words, c->count,
                        c->hint);
}

/* norm_eps: a finite number ≥ 0, the ε that keeps the divisor of a norm away from 0. */
static int set_norm_eps(parser *ps, const char *v, const char *e, as_pos key)
{
    double x;

    if (bounded_number(ps, v, e, 0, 1, AS_MSG_PS_NORM_EPS_BAD, AS_MSG_PS_NORM_EPS_HINT, &x) != 0)
        return -1;
    ps->in->norm_eps = x;
    ps->in->norm_eps_set = 1;
    ps->in->norm_eps_pos = key;
    return 0;
}

/* ---- the output head and the draw (SPEC §19) ---- */

/* head: tied (the embedding table E) | Wout (a table of its own). */
static int set_head(parser *ps, const char *v, const char *e, as_pos key)
{
    static const char *const words[] = {"tied", "Wout"};
    const size_t len = (size_t)(e - v);

    if (as_lex_word_is(v, len, "tied") || as_lex_word_is(v, len, "wout") ||
        as_lex_word_is(v, len, "w_out")) {
        ps->in->out.head = as_lex_word_is(v, len, "tied") ? AS_HEAD_TIED : AS_HEAD_WOUT;
        ps->in->out.head_pos = key;
        return 0;
    }
    return unknown_word(&ps->r, as_reader_pos(&ps->r, v), AS_MSG_PS_HEAD_UNKNOWN, v, len, words, 2,
                        AS_MSG_PS_HEAD_HINT);
}

/* temperature: T > 0, top_p: P in (0, 1]. */
static int set_head_number(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    as_head_settings *o = &ps->in->out;
    double x;

    if (which == SET_TEMPERATURE) {
        if (bounded_number(ps, v, e, 0, 0, AS_MSG_PS_TEMPERATURE_BAD, AS_MSG_PS_TEMPERATURE_HINT,
                           &x) != 0)
            return -1;
        o->temperature = x, o->temperature_set = 1, o->temperature_pos = key;
        return 0;
    }
    if (bounded_number(ps, v, e, 0, 0, AS_MSG_PS_TOP_P_BAD, AS_MSG_PS_TOP_P_HINT, &x) != 0)
        return -1;
    if (x > 1) {
        char q[64];
        as_lex_quote(q, sizeof q, v, (size_t)(e - v));
        return as_reader_err_at(&ps->r, v, AS_MSG_PS_TOP_P_HINT, AS_MSG_PS_TOP_P_BAD, q);
    }
    o->top_p = x, o->top_p_pos = key;
    return 0;
}

/* top_k: K >= 1 (whether K fits the vocabulary, model.c checks). */
static int set_top_k(parser *ps, const char *v, const char *e, as_pos key)
{
    ps->in->out.top_k_pos = key;
    return positive_whole(ps, v, e, &ps->in->out.top_k, AS_MSG_PS_WHAT_TOP_K, AS_MSG_PS_TOP_K_HINT,
                          AS_MSG_PS_TOP_K_HINT);
}

/* sample: greedy | SEED, a whole number 0 .. 2^64-1 that seeds the project's PRNG. */
static int set_sample(parser *ps, const char *v, const char *e, as_pos key)
{
    as_head_settings *o = &ps->in->out;
    unsigned long long seed = 0;
    const char *p;
    char q[64];

    o->sample_set = 1;
    o->sample_pos = key;
    if (as_lex_word_is(v, (size_t)(e - v), "greedy"))
        return 0;
    as_lex_quote(q, sizeof q, v, (size_t)(e - v));
    for (p = v; p < e; p++) {
        const unsigned digit = (unsigned)(*p - '0');
        if (*p < '0' || *p > '9' || seed > (18446744073709551615ull - digit) / 10)
            return as_reader_err_at(&ps->r, v, AS_MSG_PS_SAMPLE_HINT, AS_MSG_PS_SAMPLE_BAD, q);
        seed = seed * 10 + digit;
    }
    o->seeded = 1;
    o->seed = seed;
    return 0;
}

/* mask: causal | none | window W, layout: book | torch. */
static int set_word(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    size_t len = (size_t)(e - v);
    as_input *in = ps->in;

    if (which == SET_MASK && (as_lex_word_is(v, len, "causal") || as_lex_word_is(v, len, "none"))) {
        in->mask = as_lex_word_is(v, len, "causal") ? AS_MASK_CAUSAL : AS_MASK_NONE;
        in->mask_pos = key;
        return 0;
    }
    if (which == SET_MASK && len >= 6 && as_lex_word_is(v, 6, "window") &&
        (len == 6 || v[6] == ' ' || v[6] == '\t'))
        return set_window(ps, v, e, key);
    if (which == SET_LAYOUT && (as_lex_word_is(v, len, "book") || as_lex_word_is(v, len, "torch"))) {
        in->layout = as_lex_word_is(v, len, "book") ? AS_LAYOUT_BOOK : AS_LAYOUT_TORCH;
        return 0;
    }
    static const char *const masks[] = {"causal", "none", "window"};
    static const char *const layouts[] = {"book", "torch"};
    const as_pos at = as_reader_pos(&ps->r, v);

    if (which == SET_MASK)
        return unknown_word(&ps->r, at, AS_MSG_RD_UNKNOWN_MASK, v, len, masks, 3,
                            AS_MSG_HINT_RD_MASKS);
    return unknown_word(&ps->r, at, AS_MSG_RD_UNKNOWN_LAYOUT, v, len, layouts, 2,
                        AS_MSG_HINT_RD_LAYOUTS);
}

/* A title or label holding a terminal control character (ESC, BEL, ...) is refused:
 * printed, it could drive the user's terminal; so is a direction control (U+202E ...),
 * which would reorder what the reader sees. Returns 0, or -1 with the error set. */
static int plain_text(parser *ps, const char *v, const char *e)
{
    const char *bad = as_lex_control(v, e);
    char q[64];

    if (bad == NULL && (bad = as_lex_bidi_in(v, e)) != NULL)
        return as_reader_err_at(&ps->r, bad, AS_MSG_PS_BIDI_HINT, AS_MSG_PS_BIDI,
                                as_lex_bidi(bad, e)); /* named, never shown: it would act */
    if (bad == NULL)
        return 0;
    as_lex_quote(q, sizeof q, bad, as_lex_char_len(bad, e));
    return as_reader_err_at(&ps->r, bad, AS_MSG_PS_CONTROL_CHAR_HINT, AS_MSG_PS_CONTROL_CHAR, q);
}

/* Gives the value v..e (trimmed, not empty) to the setting which. */
static int set_value(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    if ((which == SET_TITLE || which == SET_TOKENS || which == SET_KV_TOKENS ||
         which == SET_ASK) &&
        plain_text(ps, v, e) != 0)
        return -1;
    switch (which) {
    case SET_TITLE:
        ps->in->title = dup_n(v, (size_t)(e - v));
        return ps->in->title == NULL ? as_reader_fail_memory(&ps->r, v) : 0;
    case SET_LOSS: /* sum or mse: grad checks the word, and says so in the user's language */
        ps->in->loss = dup_n(v, (size_t)(e - v));
        ps->in->loss_pos = as_reader_pos(&ps->r, v);
        return ps->in->loss == NULL ? as_reader_fail_memory(&ps->r, v) : 0;
    case SET_ASK: /* the tables check marks (SPEC §6): check reads the names */
        ps->in->ask = dup_n(v, (size_t)(e - v));
        ps->in->ask_pos = as_reader_pos(&ps->r, v);
        return ps->in->ask == NULL ? as_reader_fail_memory(&ps->r, v) : 0;
    case SET_TOKENS:
        return set_labels(ps, &ps->in->tokens, v, e, key);
    case SET_KV_TOKENS:
        return set_labels(ps, &ps->in->kv_tokens, v, e, key);
    case SET_HEADS:
    case SET_KV_HEADS:
        return set_heads(ps, which, v, e, key);
    case SET_SCALE:
        return set_scale(ps, v, e, key);
    case SET_ROPE_BASE:
        return set_rope_base(ps, v, e, key);
    case SET_POSITIONS:
    case SET_ROPE:
        return set_positions(ps, which, v, e, key);
    case SET_BLOCK:
    case SET_NORM:
    case SET_NORM_STYLE:
    case SET_FFN:
        return set_choice(ps, which, v, e, key);
    case SET_NORM_EPS:
        return set_norm_eps(ps, v, e, key);
    case SET_IDS:
        return set_ids(ps, v, e, key);
    case SET_HEAD:
        return set_head(ps, v, e, key);
    case SET_TEMPERATURE:
    case SET_TOP_P:
        return set_head_number(ps, which, v, e, key);
    case SET_TOP_K:
        return set_top_k(ps, v, e, key);
    case SET_SAMPLE:
        return set_sample(ps, v, e, key);
    case SET_MODEL:
        return set_model(ps, v, e);
    case SET_PRESET:
        return set_preset(ps, v, e, key);
    default:
        return set_word(ps, which, v, e, key);
    }
}

/* "key:" has been read (key at kpos); the value runs to the comment or the line end. */
static int setting(parser *ps, const char *key, size_t klen, as_pos kpos)
{
    as_cursor *c = &ps->r.c;
    int which = setting_lookup(key, klen);
    const char *v, *e;
    char q[64];

    as_lex_quote(q, sizeof q, key, klen);
    if (which < 0) {
        int id = as_mat_lookup(key, klen);

        if (id < 0)
            return unknown_word(&ps->r, kpos, AS_MSG_RD_UNKNOWN_SETTING, key, klen, set_names,
                                NSET, AS_MSG_HINT_RD_SETTINGS);
        as_reader_err_pos(&ps->r, NULL, kpos, AS_RD_NO_HINT, AS_MSG_RD_UNKNOWN_SETTING, q);
        as_error_hint_msg(ps->r.err, AS_MSG_HINT_RD_MATRIX_EQUALS, as_mat_name((as_mat_id)id));
        return -1;
    }
    if (ps->set_line[which] != 0)
        return as_reader_err_pos(&ps->r, NULL, kpos, AS_MSG_PS_SETTING_TWICE_HINT,
                                 AS_MSG_PS_SETTING_TWICE, set_names[which], ps->set_line[which]);
    ps->set_line[which] = kpos.line;
    ps->statements++;
    as_cursor_skip_blanks(c);
    v = c->p;
    while (c->p < c->end && *c->p != '#' && *c->p != '\n' && *c->p != '\r')
        c->p++;
    e = trim_end(v, c->p);
    if (v == e) {
        as_reader_err_at(&ps->r, v, AS_RD_NO_HINT, AS_MSG_PS_NO_VALUE, set_names[which]);
        as_error_hint_msg(ps->r.err, AS_MSG_PS_NO_VALUE_HINT, set_names[which], set_examples[which]);
        return -1;
    }
    return set_value(ps, which, v, e, kpos);
}

/* ------------------------------------------------------------------ matrices ---- */

/* A matrix has closed: its values become the input's rows x cols matrix. */
static int store(as_reader *r, as_rd_matrix *b)
{
    parser *ps = r->ctx;
    as_named *nm = &ps->in->mat[b->id];

    nm->m.rows = b->rows;
    nm->m.cols = b->cols;
    nm->m.v = b->v;
    b->v = NULL;
    if (b->id == AS_M && ps->in->mask == AS_MASK_DEFAULT) {
        ps->in->mask = AS_MASK_CUSTOM; /* a setting mask: wins here; model.c reports both */
        ps->in->mask_pos = nm->pos;
    }
    return 0;
}

/* "NAME = load": the matrix read from the file. */
static int load_into(parser *ps, as_mat_id id)
{
    as_rd_matrix m;

    memset(&m, 0, sizeof m);
    m.id = (int)id;
    m.name = as_mat_name(id);
    m.flags = flags_of(id);
    if ((id == AS_E || id == AS_P ? as_load_statement_ref(&ps->r, &m, &ps->ref[id - AS_E])
                                  : as_load_statement(&ps->r, &m)) != 0) {
        free(m.v);
        return -1;
    }
    return store(&ps->r, &m);
}

/* ------------------------------------------------------------------ statements ---- */

/* A word followed by neither "=" nor ":". */
static int no_operator(parser *ps, const char *name, size_t n)
{
    int id = as_mat_lookup(name, n), which = setting_lookup(name, n);

    if (id >= 0)
        return as_reader_err_at(&ps->r, ps->r.c.p, AS_MSG_PS_MATRIX_FORM_HINT, AS_MSG_PS_NO_EQUALS,
                                as_mat_name((as_mat_id)id));
    if (which >= 0)
        return as_reader_err_at(&ps->r, ps->r.c.p, AS_MSG_PS_SETTING_FORM_HINT, AS_MSG_PS_NO_COLON,
                                set_names[which]);
    ps->r.c.p = name;
    return as_reader_stray(&ps->r, 0);
}

/* "NAME =" has been read (name at at); the value is a matrix or load("file"). */
static int assignment(parser *ps, const char *name, size_t n, as_pos at)
{
    as_cursor *c = &ps->r.c;
    int id = as_mat_lookup(name, n);
    char q[64];
    const char *table;
    size_t w;

    as_lex_quote(q, sizeof q, name, n);
    if (id < 0 && setting_lookup(name, n) >= 0)
        return as_reader_err_pos(&ps->r, NULL, at, AS_MSG_HINT_RD_SETTING_COLON,
                                 AS_MSG_RD_UNKNOWN_NAME, q);
    if (id < 0)
        return unknown_word(&ps->r, at, AS_MSG_RD_UNKNOWN_NAME, name, n, mat_names, AS_NMAT,
                            AS_MSG_HINT_RD_NAMES);
    if (ps->in->mat[id].given)
        return as_reader_err_pos(&ps->r, NULL, at, AS_MSG_PS_MATRIX_TWICE_HINT,
                                 AS_MSG_PS_MATRIX_TWICE, as_mat_name((as_mat_id)id),
                                 ps->in->mat[id].pos.line);
    ps->in->mat[id].given = 1;
    ps->in->mat[id].pos = at;
    ps->statements++;
    as_cursor_skip_blanks(c);
    if ((table = as_reader_formula_table(c)) != NULL)
        c->p = table; /* "Q = X @ Wq = [[…": the formula between name and table is the book's */
    w = as_lex_ident_len(c->p, c->end);
    if (c->p < c->end && *c->p == '[')
        return as_reader_open(&ps->r, id, as_mat_name((as_mat_id)id), flags_of((as_mat_id)id));
    if (as_lex_word_is(c->p, w, "load"))
        return load_into(ps, (as_mat_id)id);
    as_reader_err_at(&ps->r, c->p, AS_RD_NO_HINT, AS_MSG_PS_NO_TABLE, as_mat_name((as_mat_id)id));
    as_error_hint_msg(ps->r.err,
                      as_lex_word_is(c->p, w, "tensor") || as_lex_word_is(c->p, w, "torch")
                          ? AS_MSG_PS_PASTE_TENSOR_HINT
                      : as_lex_word_is(c->p, w, "array") || as_lex_word_is(c->p, w, "np")
                          ? AS_MSG_PS_PASTE_NUMBERS_HINT
                          : AS_MSG_PS_SAME_LINE_HINT,
                      as_mat_name((as_mat_id)id));
    return -1;
}

/* A statement at the cursor (a word): "NAME = ..." or, first on its line, "key: value". */
static int statement(parser *ps, int first)
{
    as_cursor *c = &ps->r.c;
    const char *name = c->p;
    size_t n = as_lex_ident_len(name, c->end), k;
    as_pos at = as_reader_pos(&ps->r, name);

    c->p += n;
    as_cursor_skip_blanks(c);
    if (c->p < c->end && *c->p == '=') {
        c->p++;
        return assignment(ps, name, n, at);
    }
    if ((k = as_lex_colon(c->p, c->end)) > 0) {
        if (!first)
            return as_reader_err_pos(&ps->r, NULL, at, AS_MSG_PS_SETTING_NOT_FIRST_HINT,
                                     AS_MSG_PS_SETTING_NOT_FIRST);
        c->p += k;
        return setting(ps, name, n, at);
    }
    return no_operator(ps, name, n);
}

/* ------------------------------------------------------------------ the reader's hooks ---- */

/* Nonzero when the cursor stands at "NAME =" (a matrix side by side) or, when first
 * on its line, at "key:" (a setting). */
static int at_statement(const as_cursor *c, int first)
{
    size_t n = as_lex_ident_len(c->p, c->end), k;
    const char *q = c->p + n;

    if (n == 0)
        return 0;
    while ((k = as_lex_blank(q, c->end)) > 0)
        q += k;
    if (first == AS_RD_AFTER_MATRIX) /* "rows: …" is a caption, "mask: none" a setting */
        return (q < c->end && *q == '=') ||
               (as_lex_colon(q, c->end) > 0 && setting_lookup(c->p, n) >= 0);
    return (q < c->end && *q == '=') || (first && as_lex_colon(q, c->end) > 0);
}

static int statement_hook(as_reader *r, int first)
{
    return statement(r->ctx, first);
}

static const as_reader_hooks hooks = {at_statement, statement_hook, store};

/* ------------------------------------------------------------------ model: and preset: ---- */

/* The preset's conventions (SPEC §16), for each setting the file did not write (the
 * file's own win), recorded at the model's place: GPT-2 pre, LayerNorm ε 1e-5, GELU
 * tanh, book layout ([in, out]: its Conv1D), n_head from config.json else 12; LLaMA pre,
 * RMSNorm ε 1e-6, SwiGLU, torch layout, RoPE half with base 10000, 32 heads (LLaMA-7B's),
 * config.json's numbers first. */
static void preset_settings(parser *ps, const as_model_config *c)
{
    as_input *in = ps->in;
    const int llama = in->model.preset == AS_PRESET_LLAMA;
    const as_pos at = in->model.pos;

#define FREE(which) (ps->set_line[which] == 0)
    if (FREE(SET_BLOCK))
        in->block = AS_BLOCK_PRE, in->block_pos = at;
    if (FREE(SET_NORM))
        in->norm = llama ? AS_NORM_RMS : AS_NORM_LAYER, in->norm_pos = at;
    if (FREE(SET_NORM_EPS)) {
        in->norm_eps = c->eps_set ? c->eps : llama ? 1e-6 : 1e-5;
        in->norm_eps_set = 1, in->norm_eps_pos = at;
    }
    if (FREE(SET_FFN))
        in->ffn = llama ? AS_FFN_SWIGLU : AS_FFN_GELU_TANH, in->ffn_pos = at;
    if (FREE(SET_LAYOUT))
        in->layout = llama ? AS_LAYOUT_TORCH : AS_LAYOUT_BOOK;
    if (FREE(SET_HEADS))
        in->heads = c->heads_set ? c->heads : llama ? 32 : 12, in->heads_pos = at;
    if (FREE(SET_KV_HEADS) && c->kv_heads_set)
        in->kv_heads = c->kv_heads, in->kv_heads_pos = at;
    if (!llama)
        return;
    if (FREE(SET_POSITIONS))
        in->positions = AS_POSITIONS_ROPE, in->positions_pos = at;
    if (FREE(SET_ROPE))
        in->rope = AS_ROPE_HALF, in->rope_set = 1, in->rope_pos = at;
    if (FREE(SET_ROPE_BASE)) {
        in->rope_base = c->rope_base_set ? c->rope_base : 10000;
        in->rope_base_set = 1, in->rope_base_pos = at;
    }
#undef FREE
}

/* model: "FILE" layer N with preset: its layer's tables by the preset's names (a table
 * the file writes wins), E and P (only indexed: embed() reads the rows ids take) when
 * the file gives ids and no X, and the preset's settings. 0, or -1 with the error set. */
static int apply_model(parser *ps)
{
    as_input *in = ps->in;
    as_model_ref *m = &in->model;
    const as_tensor_where where = {ps->r.err, ps->r.path, m->pos.line, m->pos.col};
    as_model_config c;
    int given[AS_NMAT], id;

    if (m->path == NULL && m->preset == AS_PRESET_NONE)
        return 0;
    if (m->path == NULL)
        return as_reader_err_pos(&ps->r, NULL, m->preset_pos, AS_MSG_PRE_NEED_MODEL_HINT,
                                 AS_MSG_PRE_NEED_MODEL);
    if (m->preset == AS_PRESET_NONE)
        return as_reader_err_pos(&ps->r, NULL, m->pos, AS_MSG_PRE_NEED_PRESET_HINT,
                                 AS_MSG_PRE_NEED_PRESET);
    if (as_preset_config(&c, m->path, where) != 0)
        return -1;
    if (as_preset_layers(in, &c, &m->layers, ps->r.err) != 0) {
        if (ps->r.err->hint[0] == '\0') /* the file could not be opened: where it was looked for */
            as_error_hint_msg(ps->r.err, AS_MSG_PRE_PATH_HINT);
        return -1;
    }
    if (m->layer >= m->layers)
        return as_reader_err_pos(&ps->r, NULL, m->pos, AS_MSG_PRE_LAYER_HINT, AS_MSG_PRE_LAYER_BEYOND,
                                 m->layer, m->layers, m->layers - 1);
    preset_settings(ps, &c);
    for (id = 0; id < AS_NMAT; id++)
        given[id] = in->mat[id].given;
    return as_preset_load(in, m->layer, m->layer + 1 == m->layers, given,
                          in->emb.ids != NULL && !in->mat[AS_X].given, ps->ref, ps->r.err);
}

/* ------------------------------------------------------------------ ids: X = E[ids] + P[0:n] ---- */

/* rows[0..n) of the matrix nm (read whole, or when ref names a binary file only those
 * rows, read now) in place of nm's own values: [n, cols]. 0, or -1 with the error set. */
static int keep_rows(parser *ps, as_named *nm, const as_load_ref *ref, const size_t *rows,
                     size_t n)
{
    const size_t cols = nm->m.cols;
    as_matrix kept;
    size_t k;

    if (as_matrix_init(&kept, n, cols) != 0)
        return as_reader_err_pos(&ps->r, NULL, nm->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    if (ref->path != NULL) {
        if (as_load_ref_rows(ref, ps->r.path, ps->r.err, rows, n, kept.v) != 0) {
            as_matrix_free(&kept);
            return -1;
        }
    } else {
        for (k = 0; k < n; k++)
            memcpy(kept.v + k * cols, nm->m.v + rows[k] * cols, cols * sizeof *kept.v);
    }
    as_matrix_free(&nm->m);
    nm->m = kept;
    return 0;
}

/* With head: (SPEC §19), every row of nm (read now when ref names a binary file) into
 * whole: a tied head's logits read all of E, generate appends any row of E and P. 0 (also
 * when nm is not given), or -1 with the error set. */
static int keep_whole(parser *ps, const as_named *nm, const as_load_ref *ref, as_matrix *whole)
{
    size_t *rows, k;
    int rc;

    if (!nm->given)
        return 0;
    if (!as_shape_ok(nm->m.rows, nm->m.cols)) /* GPT-2's E: 50257 rows */
        return as_reader_err_pos(&ps->r, NULL, nm->pos, AS_MSG_PS_HEAD_TABLE_BIG_HINT,
                                 AS_MSG_PS_HEAD_TABLE_BIG, nm == &ps->in->mat[AS_E] ? "E" : "P",
                                 nm->m.rows, nm->m.cols, (size_t)AS_MAX_DIM, (size_t)AS_MAX_CELLS);
    if (ref->path == NULL)
        return as_matrix_copy(whole, &nm->m) == 0
                   ? 0
                   : as_reader_err_pos(&ps->r, NULL, nm->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    if (as_matrix_init(whole, nm->m.rows, nm->m.cols) != 0 ||
        (rows = malloc((nm->m.rows ? nm->m.rows : 1) * sizeof *rows)) == NULL) {
        as_matrix_free(whole);
        return as_reader_err_pos(&ps->r, NULL, nm->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    }
    for (k = 0; k < nm->m.rows; k++)
        rows[k] = k;
    rc = as_load_ref_rows(ref, ps->r.path, ps->r.err, rows, nm->m.rows, whole->v);
    free(rows);
    return rc;
}

/* The checks of ids against E and P (SPEC §16): 0, or -1 with the error at the place
 * that is wrong. */
static int embed_check(parser *ps)
{
    const as_input *in = ps->in;
    const as_named *E = &in->mat[AS_E], *P = &in->mat[AS_P], *X = &in->mat[AS_X];
    const as_embedding *emb = &in->emb;
    size_t k;

    if (emb->ids == NULL && in->out.head != AS_HEAD_NONE && E->given && !P->given)
        return 0; /* E for the output head alone (SPEC §19): its rows are the vocabulary */
    if (emb->ids == NULL && (E->given || P->given)) {
        const char *name = E->given ? "E" : "P";
        as_reader_err_pos(&ps->r, NULL, E->given ? E->pos : P->pos, AS_RD_NO_HINT,
                          AS_MSG_EMB_NO_IDS, name);
        as_error_hint_msg(ps->r.err, AS_MSG_EMB_NO_IDS_HINT, name);
        return -1;
    }
    if (emb->ids == NULL)
        return 0;
    if (!E->given)
        return as_reader_err_pos(&ps->r, NULL, emb->pos, AS_MSG_EMB_NO_E_HINT, AS_MSG_EMB_NO_E);
    if (X->given)
        return as_reader_err_pos(&ps->r, NULL, X->pos, AS_MSG_EMB_WITH_X_HINT, AS_MSG_EMB_WITH_X);
    if (P->given && P->m.cols != E->m.cols)
        return as_reader_err_pos(&ps->r, NULL, P->pos, AS_MSG_EMB_WIDTHS_HINT, AS_MSG_EMB_WIDTHS,
                                 E->m.cols, P->m.cols);
    for (k = 0; k < emb->count; k++)
        if (emb->ids[k] >= E->m.rows)
            return as_reader_err_pos(&ps->r, NULL, emb->at[k], AS_MSG_EMB_ID_OUTSIDE_HINT,
                                     AS_MSG_EMB_ID_OUTSIDE, emb->ids[k], E->m.rows, E->m.rows - 1);
    if (P->given && emb->count > P->m.rows)
        return as_reader_err_pos(&ps->r, NULL, emb->at[P->m.rows], AS_MSG_EMB_TOO_LONG_HINT,
                                 AS_MSG_EMB_TOO_LONG, emb->count, P->m.rows, P->m.rows - 1);
    return 0;
}

/* tokens: default to the ids, as written. */
static int ids_as_tokens(parser *ps)
{
    as_tokens *t = &ps->in->tokens;
    const as_embedding *emb = &ps->in->emb;
    char num[24];
    size_t k;

    if (t->count > 0)
        return 0;
    if ((t->label = calloc(emb->count, sizeof *t->label)) == NULL)
        return as_reader_err_pos(&ps->r, NULL, emb->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    t->count = emb->count; /* calloc'd: as_input_free() copes with a half-filled list */
    t->pos = emb->pos;
    for (k = 0; k < emb->count; k++) {
        snprintf(num, sizeof num, "%zu", emb->ids[k]);
        if ((t->label[k] = dup_n(num, strlen(num))) == NULL)
            return as_reader_err_pos(&ps->r, NULL, emb->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    }
    return 0;
}

/* ids: with E (and P): only the rows taken are kept, and X = E[ids] + P[0:n] is the
 * input's X (the first step of the walk; SPEC §16, F05). 0, or -1 with the error set. */
static int embed(parser *ps)
{
    as_input *in = ps->in;
    as_named *E = &in->mat[AS_E], *P = &in->mat[AS_P], *X = &in->mat[AS_X];
    as_embedding *emb = &in->emb;
    const size_t n = emb->count;
    size_t *first = NULL, k;
    int rc = -1;

    if (embed_check(ps) != 0)
        return -1;
    if (in->out.head != AS_HEAD_NONE &&
        (keep_whole(ps, E, &ps->ref[0], &emb->table) != 0 ||
         keep_whole(ps, P, &ps->ref[1], &emb->positions) != 0))
        return -1;
    if (emb->ids == NULL)
        return 0;
    emb->vocab = E->m.rows;
    emb->context = P->given ? P->m.rows : 0;
    if (keep_rows(ps, E, &ps->ref[0], emb->ids, n) != 0)
        return -1;
    if (P->given) {
        if ((first = malloc(n * sizeof *first)) == NULL)
            return as_reader_err_pos(&ps->r, NULL, P->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
        for (k = 0; k < n; k++)
            first[k] = k;
        if (keep_rows(ps, P, &ps->ref[1], first, n) != 0)
            goto done;
    }
    if (as_matrix_init(&X->m, n, E->m.cols) != 0) {
        as_reader_err_pos(&ps->r, NULL, emb->pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
        goto done;
    }
    if (P->given)
        as_residual_add(X->m.v, E->m.v, P->m.v, n * E->m.cols);
    else
        memcpy(X->m.v, E->m.v, n * E->m.cols * sizeof *X->m.v);
    X->given = 1;
    X->pos = emb->pos;
    rc = ids_as_tokens(ps);
done:
    free(first);
    return rc;
}

/* ------------------------------------------------------------------ entry points ---- */

static int parse_all(parser *ps, const char *text, size_t len)
{
    if (as_reader_start(&ps->r, text, len) != 0)
        return -1;
    if (ps->r.c.p == ps->r.c.end)
        return as_reader_err_pos(&ps->r, NULL, no_pos, AS_MSG_PS_NEED_HINT, AS_MSG_LD_FILE_EMPTY);
    if (as_reader_lines(&ps->r) != 0)
        return -1;
    if (ps->statements == 0)
        return as_reader_err_pos(&ps->r, NULL, no_pos, AS_MSG_PS_NEED_HINT, AS_MSG_PS_NO_STATEMENTS);
    return apply_model(ps) == 0 ? embed(ps) : -1;
}

int as_parse_text(as_input *in, const char *text, size_t len, const char *path, as_error *err)
{
    parser ps;

    memset(in, 0, sizeof *in);
    memset(&ps, 0, sizeof ps);
    if (path == NULL)
        path = "-";
    if (text == NULL) {
        text = "";
        len = 0;
    }
    ps.in = in;
    as_reader_init(&ps.r, path, err, &hooks, &ps);
    in->path = dup_n(path, strlen(path));
    if (in->path == NULL) {
        as_reader_err_pos(&ps.r, path, no_pos, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
        goto fail;
    }
    if (parse_all(&ps, text, len) != 0)
        goto fail;
    as_load_ref_free(&ps.ref[0]);
    as_load_ref_free(&ps.ref[1]);
    return 0;
fail:
    as_reader_drop(&ps.r);
    as_load_ref_free(&ps.ref[0]);
    as_load_ref_free(&ps.ref[1]);
    as_input_free(in);
    return -1;
}

int as_parse_file(as_input *in, const char *path, as_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    memset(in, 0, sizeof *in);
    if (as_reader_read_file(path, err, &text, &len) != 0)
        return -1;
    rc = as_parse_text(in, text, len, path, err);
    free(text);
    return rc;
}

void as_input_free(as_input *in)
{
    size_t i;

    if (in == NULL)
        return;
    free(in->path);
    free(in->title);
    free(in->loss);
    free(in->ask);
    for (i = 0; in->tokens.label != NULL && i < in->tokens.count; i++)
        free(in->tokens.label[i]);
    free(in->tokens.label);
    free(in->emb.ids);
    free(in->model.path);
    free(in->emb.at);
    as_matrix_free(&in->emb.table);
    as_matrix_free(&in->emb.positions);
    for (i = 0; in->kv_tokens.label != NULL && i < in->kv_tokens.count; i++)
        free(in->kv_tokens.label[i]);
    free(in->kv_tokens.label);
    for (i = 0; i < AS_NMAT; i++)
        as_matrix_free(&in->mat[i].m);
    memset(in, 0, sizeof *in);
}
