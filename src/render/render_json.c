/* render_json.c - `run --format json` (SPEC §9): one object, round-trip numbers,
 * -inf as null. */
#include "attnstep/render.h"
#include "attnstep/layers.h"
#include "attnstep/render_head.h"
#include "attnstep/block.h"
#include "attnstep/threads.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The stream a page is embedding JSON in (as_json_embed), or NULL. */
static FILE *page_stream;

void as_json_embed(FILE *out)
{
    page_stream = out;
}

/* A JSON string: quotes, backslashes and control characters escaped; UTF-8 as is; in
 * a page's embedded JSON "<" as \u003c. */
void as_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '<' && out == page_stream)
            fputs("\\u003c", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* JSON text gathered in a 4 KiB staging buffer and passed on in large pieces: one
 * fwrite per 4 KiB rather than two stdio calls per number (a layer's output holds 400
 * 000 of them), or (out NULL) appended to a piece of memory that grows as needed. */
typedef struct text_buf {
    FILE *out;
    char *mem;              /* out NULL: the piece, len bytes written of room */
    size_t len, room;
    int ok;                 /* 0 once memory for the piece ran out */
    size_t used;
    char text[4096];
} text_buf;

static void tb_flush(text_buf *b)
{
    if (b->out != NULL) {
        fwrite(b->text, 1, b->used, b->out);
    } else if (b->ok) {
        if (b->room - b->len < b->used) {
            const size_t room = 2 * b->room + b->used;
            char *mem = realloc(b->mem, room);
            b->ok = mem != NULL;
            if (mem != NULL)
                b->mem = mem, b->room = room;
        }
        if (b->ok)
            memcpy(b->mem + b->len, b->text, b->used), b->len += b->used;
    }
    b->used = 0;
}

static void tb_char(text_buf *b, char c)
{
    if (b->used == sizeof b->text)
        tb_flush(b);
    b->text[b->used++] = c;
}

static void tb_number(text_buf *b, double v)
{
    if (sizeof b->text - b->used < AS_NUM_BUF)
        tb_flush(b);
    if (!isfinite(v)) { /* only -inf reaches here (masked cells): JSON has no infinity */
        memcpy(b->text + b->used, "null", 4);
        b->used += 4;
    } else {
        b->used += as_fmt_roundtrip(b->text + b->used, AS_NUM_BUF, v);
    }
}

static void json_number(FILE *out, double v)
{
    text_buf b;

    b.out = out;
    b.used = 0;
    tb_number(&b, v);
    tb_flush(&b);
}

/* Rows [first, last) of r into b, each "[a,b,...]", with a comma before every row but
 * row 0. Returns 0, or -1 when a row could not be had. */
static int json_rows_into(text_buf *b, const as_rows *r, size_t first, size_t last)
{
    size_t i, j;

    for (i = first; i < last; i++) {
        const double *row = r->row(r->ctx, i);
        if (row == NULL) {
            tb_flush(b);
            return -1;
        }
        if (i)
            tb_char(b, ',');
        tb_char(b, '[');
        for (j = 0; j < r->cols; j++) {
            if (j)
                tb_char(b, ',');
            tb_number(b, row[j]);
        }
        tb_char(b, ']');
    }
    tb_flush(b);
    return 0;
}

static int json_rows(FILE *out, const as_rows *r, size_t first, size_t last)
{
    text_buf b;

    b.out = out;
    b.used = 0;
    return json_rows_into(&b, r, first, last);
}

/* A table this large is written in pieces of rows, two at a time on two threads. */
#define SPLIT_CELLS 65536
#define PIECE_CELLS 8192 /* about 150 KB of text: the pieces' memory is reused, not fresh */

/* One piece: rows [first, last) of r as text in b's memory (kept between pieces). */
typedef struct piece {
    const as_rows *r;
    size_t first, last;
    text_buf b;
} piece;

static void piece_text(void *arg)
{
    piece *pc = arg;

    pc->b.len = 0;
    pc->b.used = 0;
    json_rows_into(&pc->b, pc->r, pc->first, pc->last); /* shared rows: always had */
}

/* Rows of r (shared) from `first` on, a piece for each of pc[0] and pc[1], made at once
 * and written in order; a piece the memory of which ran out is written here instead.
 * Returns the next row. */
static size_t two_pieces(FILE *out, const as_rows *r, size_t first, size_t rows, piece pc[2])
{
    int k;

    for (k = 0; k < 2; k++) {
        pc[k].first = first < r->rows ? first : r->rows;
        first = pc[k].last = first + rows < r->rows ? first + rows : r->rows;
    }
    as_two_threads(piece_text, &pc[0], piece_text, &pc[1]);
    for (k = 0; k < 2; k++) {
        if (pc[k].b.ok)
            fwrite(pc[k].b.mem, 1, pc[k].b.len, out);
        else
            json_rows(out, r, pc[k].first, pc[k].last);
    }
    return first;
}

/* r as JSON rows of numbers. A large shared r (a matrix) in pieces of rows, two at a
 * time on two threads, written in order; rows made again (a rows trace's) one by one.
 * Returns 0, or -1 when a row could not be had. */
static int json_table(FILE *out, const as_rows *r)
{
    const size_t rows = r->cols > 0 && PIECE_CELLS / r->cols > 0 ? PIECE_CELLS / r->cols : 1;
    piece pc[2];
    size_t first = 0;
    int k;

    fputc('[', out);
    if (!r->shared || r->rows < 2 || r->rows * r->cols < SPLIT_CELLS) {
        if (json_rows(out, r, 0, r->rows) != 0)
            return -1;
    } else {
        for (k = 0; k < 2; k++)
            pc[k] = (piece){.r = r, .b = {.out = NULL, .ok = 1}};
        while (first < r->rows)
            first = two_pieces(out, r, first, rows, pc);
        free(pc[0].b.mem);
        free(pc[1].b.mem);
    }
    fputc(']', out);
    return 0;
}

static void json_matrix(FILE *out, const as_matrix *m)
{
    const as_rows r = as_rows_of(m);

    json_table(out, &r);
}

static void json_labels(FILE *out, const char *const *label, size_t count)
{
    size_t i;

    fputc('[', out);
    for (i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        as_json_string(out, label[i]);
    }
    fputc(']', out);
}

/* "key": value pairs, with the comma before all but the first. */
static void key(FILE *out, int *first, const char *name)
{
    fprintf(out, "%s\n  \"%s\": ", *first ? "" : ",", name);
    *first = 0;
}

static void inputs(FILE *out, const as_problem *p)
{
    size_t id;
    int first = 1;

    fputc('{', out);
    for (id = 0; id < AS_NMAT; id++) {
        const as_matrix *m = id == AS_X && p->block == AS_BLOCK_PRE
                                 ? &p->in->mat[AS_X].m /* the file's X, not N1 */
                                 : as_problem_table(p, (as_mat_id)id); /* W in book layout */
        if (m == NULL || id == AS_E || id == AS_P) /* the rows ids take: "embedding" */
            continue;
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", as_mat_name((as_mat_id)id));
        json_matrix(out, m);
        first = 0;
    }
    fputc('}', out);
}

/* One head's tables as a rows trace or a full one gives them: the n x m ones (QKT, B, S,
 * A) through as_head_rows, made again row by row for a rows trace. Returns 0, or -1
 * when a row could not be had. */
static int scores_table(FILE *out, const as_problem *p, const as_trace *t, size_t hd,
                        as_table which, int *first)
{
    as_head_rows hr;
    const as_rows r = as_head_rows_open(&hr, p, t, hd, which);
    int rc = 0;

    if (r.row != NULL) { /* B exists only with alibi */
        fprintf(out, "%s\"%s\": ", *first ? "" : ", ", as_table_name(which));
        rc = json_table(out, &r);
        *first = 0;
    }
    as_head_rows_close(&hr);
    return rc;
}

static int head(FILE *out, const as_problem *p, const as_trace *t, size_t hd, const as_render_opts *o)
{
    const as_head_trace *h = &t->head[hd];
    const int final = p->heads == 1 && p->Wo == NULL;
    const as_matrix *m[] = {&h->Q, &h->K, &h->V, &h->Qr, &h->Kr, NULL, NULL, NULL, NULL, &h->O};
    static const as_table tb[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QR, AS_T_KR, AS_T_QKT, AS_T_B,
                                  AS_T_S, AS_T_A, AS_T_O};
    size_t i;
    int first = 1;

    fputc('{', out);
    for (i = 0; i < sizeof tb / sizeof tb[0]; i++) {
        if (!as_shows(o, tb[i] == AS_T_O && !final ? AS_T_C : tb[i]))
            continue; /* a head's O is the output only with one head and no Wo, else part of C */
        if (m[i] == NULL) {
            if (scores_table(out, p, t, hd, tb[i], &first) != 0)
                return -1;
            continue;
        }
        if (m[i]->v == NULL)
            continue; /* Qr and Kr exist only with rope */
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", as_table_name(tb[i]));
        json_matrix(out, m[i]);
        first = 0;
    }
    fputc('}', out);
    return 0;
}

static const char *mask_name(as_mask_kind k)
{
    return k == AS_MASK_CAUSAL   ? "causal"
           : k == AS_MASK_NONE   ? "none"
           : k == AS_MASK_WINDOW ? "window"
                                 : "custom";
}

static const char *positions_name(as_positions k)
{
    static const char *const names[] = {"none", "sinusoidal", "rope", "alibi"};

    return names[k];
}

/* ids: the first step (SPEC §16, F05): {"ids", "vocab", "E": the rows the ids take,
 * "context", "P": P[0:n]} ("context" and "P" only with P); X is the inputs' X. */
static void embedding(FILE *out, int *first, const as_problem *p, const as_render_opts *o)
{
    const as_embedding *emb = &p->in->emb;
    size_t k;

    if (emb->ids == NULL || !(as_shows(o, AS_T_E) || as_shows(o, AS_T_P)))
        return;
    key(out, first, "embedding");
    fputs("{\"ids\": [", out);
    for (k = 0; k < emb->count; k++)
        fprintf(out, "%s%zu", k ? ", " : "", emb->ids[k]);
    fprintf(out, "], \"vocab\": %zu", emb->vocab);
    if (as_shows(o, AS_T_E)) {
        fputs(", \"E\": ", out);
        json_matrix(out, &p->in->mat[AS_E].m);
    }
    if (emb->context > 0) {
        fprintf(out, ", \"context\": %zu", emb->context);
        if (as_shows(o, AS_T_P)) {
            fputs(", \"P\": ", out);
            json_matrix(out, &p->in->mat[AS_P].m);
        }
    }
    fputc('}', out);
}

/* model: "FILE" layer N with N > 0 (SPEC §16): "layers": {"X0": what layer 0 read,
 * "Y": [each earlier layer's output]}, the last being the walked layer's X. */
static void layers(FILE *out, int *first, const as_trace *t)
{
    size_t k;

    if (t->layers == NULL)
        return;
    key(out, first, "layers");
    fputs("{\"X0\": ", out);
    json_matrix(out, &t->layers->X0);
    fputs(", \"Y\": [", out);
    for (k = 0; k < t->layers->count; k++) {
        fputs(k ? ", " : "", out);
        json_matrix(out, &t->layers->Y[k]);
    }
    fputs("]}", out);
}

/* What positions add (SPEC §12): the kind and its settings, PE (and PEkv). */
static void positions(FILE *out, int *first, const as_problem *p, const as_trace *t,
                      const as_render_opts *o)
{
    if (p->positions == AS_POSITIONS_NONE)
        return;
    key(out, first, "positions");
    as_json_string(out, positions_name(p->positions));
    if (p->offset != 0)
        fprintf(out, ", \"offset\": %zu", p->offset);
    if (p->positions == AS_POSITIONS_ROPE) {
        fprintf(out, ", \"rope\": \"%s\", \"rope_base\": ",
                p->rope == AS_ROPE_HALF ? "half" : "interleaved");
        json_number(out, p->rope_base);
    }
    if (p->positions == AS_POSITIONS_ALIBI) {
        key(out, first, "slopes");
        const as_rows slopes = as_rows_of(&t->slopes);
        json_rows(out, &slopes, 0, 1);
    }
    if (t->PE.v != NULL && as_shows(o, AS_T_PE)) {
        key(out, first, "PE");
        json_matrix(out, &t->PE);
        if (t->PEkv.v != NULL) {
            key(out, first, "PEkv");
            json_matrix(out, &t->PEkv);
        }
    }
}

/* One norm's sub-steps as {"mean", "var", "div", "xhat"} (those it has). */
static void norm_steps(FILE *out, const as_norm_trace *nt)
{
    const as_matrix *m[] = {&nt->mean, &nt->var, &nt->div, &nt->xhat};
    static const char *const name[] = {"mean", "var", "div", "xhat"};
    size_t k;
    int first = 1;

    fputc('{', out);
    for (k = 0; k < 4; k++) {
        if (m[k]->v == NULL)
            continue;
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", name[k]);
        json_matrix(out, m[k]);
        first = 0;
    }
    fputc('}', out);
}

/* The norm whose output is the block's table k of as_block_table's order (N1 H1 N2 U G
 * F D H2 Y), with its JSON name; NULL when none: pre's norms make N1, N2 and Y, post's H1,
 * H2 and Y. */
static const as_norm_trace *norm_after(const as_block_trace *b, size_t k, const char **name)
{
    const int pre = b->N1.v != NULL;

    *name = k == 8 ? "normf" : (k == 0 || k == 1) ? "norm1" : "norm2";
    if (k == 8)
        return &b->normf;
    if (k == (pre ? 0u : 1u))
        return &b->norm1;
    return k == (pre ? 2u : 7u) ? &b->norm2 : NULL;
}

/* The block around the layer (SPEC §15): "block": {"N1": …, "norm1": {…}, …, "Y": …},
 * the tables it made in the registry's order, each norm's sub-steps after its output. */
static void block(FILE *out, int *first, const as_trace *t, const as_render_opts *o)
{
    static const as_table shown[] = {AS_T_N1, AS_T_H1, AS_T_N2, AS_T_U, AS_T_G,
                                     AS_T_F,  AS_T_D,  AS_T_H2, AS_T_Y};
    size_t k;
    int inner = 1;

    key(out, first, "block");
    fputc('{', out);
    for (k = 0; k < sizeof shown / sizeof shown[0]; k++) {
        const as_tab id = as_tab_of_table(shown[k]);
        const as_matrix *m = as_block_table(t->block, id);
        const char *name;
        const as_norm_trace *nt = norm_after(t->block, k, &name);
        if (m == NULL || !as_shows(o, shown[k]))
            continue;
        fprintf(out, "%s\n    \"%s\": ", inner ? "" : ",", as_tab_get(id)->name);
        json_matrix(out, m);
        inner = 0;
        if (nt != NULL && nt->div.v != NULL) {
            fprintf(out, ",\n    \"%s\": ", name);
            norm_steps(out, nt);
        }
    }
    fputs("\n  }", out);
}

/* "M": the mask, its rows as as_head_rows gives them. Returns 0, or -1 when a row could
 * not be had. */
static int mask(FILE *out, int *first, const as_problem *p, const as_trace *t)
{
    as_head_rows hm;
    const as_rows M = as_head_rows_open(&hm, p, t, 0, AS_T_M);
    int rc;

    key(out, first, "M");
    rc = json_table(out, &M);
    as_head_rows_close(&hm);
    return rc;
}

int as_render_json_members(FILE *out, const as_problem *p, const as_trace *t,
                           const as_render_opts *o)
{
    int first = 1;
    size_t h;

    fputc('{', out);
    key(out, &first, "title");
    if (p->in->title)
        as_json_string(out, p->in->title);
    else
        fputs("null", out);
    key(out, &first, "tokens");
    json_labels(out, p->tokens, p->n);
    key(out, &first, "kv_tokens");
    json_labels(out, p->kv_tokens, p->m);
    key(out, &first, "mask");
    as_json_string(out, mask_name(p->mask));
    if (p->mask == AS_MASK_WINDOW)
        fprintf(out, ", \"window\": %zu", p->window);
    fprintf(out, ",\n  \"num_heads\": %zu, \"d_k\": %zu, \"d_v\": %zu", p->heads, p->d_k, p->d_v);
    if (p->kv_heads != p->heads)
        fprintf(out, ", \"num_kv_heads\": %zu", p->kv_heads);
    key(out, &first, "scale");
    json_number(out, p->scale);
    embedding(out, &first, p, o);
    if (as_shows(o, AS_T_X))
        layers(out, &first, t);
    positions(out, &first, p, t, o);
    if (as_shows(o, AS_T_X) || as_shows(o, AS_T_W)) {
        key(out, &first, "inputs");
        inputs(out, p);
    }
    if (as_shows(o, AS_T_M) && mask(out, &first, p, t) != 0)
        return -1;
    key(out, &first, "heads");
    fputc('[', out);
    for (h = 0; h < t->heads; h++) {
        fputs(h ? ",\n    " : "\n    ", out);
        if (head(out, p, t, h, o) != 0)
            return -1;
    }
    fputs("\n  ]", out);
    if (p->heads > 1 && as_shows(o, AS_T_C)) {
        key(out, &first, "C");
        json_matrix(out, &t->C);
    }
    if (as_shows(o, AS_T_O)) {
        key(out, &first, "O");
        json_matrix(out, &t->O);
    }
    if (t->block != NULL)
        block(out, &first, t, o);
    if (t->out != NULL && (o->only == 0 || as_shows(o, AS_T_LOGITS) || as_shows(o, AS_T_KEPT) ||
                           as_shows(o, AS_T_PROBS))) {
        key(out, &first, "head"); /* SPEC §19 */
        as_render_head_json(out, t->out);
    }
    return ferror(out) ? -1 : 0;
}

int as_render_json(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    if (as_render_json_members(out, p, t, o) != 0)
        return -1;
    fputs("\n}\n", out);
    return ferror(out) ? -1 : 0;
}

void as_json_matrix(FILE *out, const as_matrix *m)
{
    json_matrix(out, m);
}

int as_json_rows(FILE *out, const as_rows *r)
{
    return json_table(out, r);
}

void as_json_number(FILE *out, double v)
{
    json_number(out, v);
}

