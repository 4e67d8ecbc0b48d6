/* render_head.c - the output head and the draw (SPEC §19): the tables run prints, the
 * walk-through trace and generate print (the cut and the inverse-CDF walk written out),
 * and JSON's "head". Formatting only: every number is one the head recorded. */
#include "attnstep/render_head.h"
#include "attnstep/block.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOGIT_LINES 8  /* the walk writes out the dot products of this many tokens */
#define LIST_MAX 12    /* the longest list of tokens the walk writes out in full */

as_head_source as_head_source_of(const as_problem *p, const as_trace *t)
{
    const as_matrix *last = t->block != NULL ? as_block_table(t->block, AS_TAB_Y) : &t->O;
    as_head_source s = {t->block != NULL ? "Y" : "O", 0, NULL, 0, 0};

    (void)p;
    if (last != NULL && last->rows > 0) {
        s.row = last->rows - 1;
        s.h = &AS_AT(*last, s.row, 0);
        s.d = last->cols;
    }
    return s;
}

/* A table with one caption beside it, as run prints a table: "EXPR = " (or "≈" when a
 * shown value is rounded) and the bracketed matrix (made here from the base layer's
 * blocks: run's text renderer calls this one). */
static void captioned(as_block *out, const char *expr, const as_matrix *m, const char *caption,
                      const as_render_opts *o)
{
    const as_cell_style st = {o->digits, o->ascii, NULL, NULL};
    as_block table, cap = {0}, both;
    char label[96];
    int rounded = 0;

    if (m == NULL || m->v == NULL)
        return;
    table = as_block_matrix(m, &st, &rounded);
    snprintf(label, sizeof label, "%s %s ", expr, rounded ? as_sym_text(o->ascii, AS_SYM_APPROX) : "=");
    as_block_label(&table, label);
    if (caption != NULL) {
        as_block_add(&cap, "%s", caption);
        both = as_block_beside(&table, &cap, 6); /* the gap run leaves before captions */
        as_block_append(out, &both);
        as_block_free(&both);
    } else {
        as_block_append(out, &table);
    }
    out->failed |= table.failed | cap.failed;
    as_block_free(&table);
    as_block_free(&cap);
}

/* v as the display rule writes it, into buf. */
static const char *num(char *buf, size_t size, double v, const as_render_opts *o)
{
    as_fmt_display(buf, size, v, o->digits, o->ascii);
    return buf;
}

/* The lower end of token k's interval of the draw: the running sum before it. */
static double interval_low(const as_out_head *hd, size_t k)
{
    return k == 0 ? 0 : hd->draw_cum.v[k - 1];
}

/* The line that names the token chosen: the draw's interval, or the greedy choice. */
static void chosen(as_block *out, const as_out_head *hd, const as_render_opts *o)
{
    char a[AS_NUM_BUF], b[AS_NUM_BUF], c[AS_NUM_BUF];

    if (hd->draw_cum.v == NULL) {
        as_block_add(out, as_say(o, AS_MSG_HD_GREEDY), hd->token,
                     num(a, sizeof a, hd->final.v[hd->token], o));
        return;
    }
    as_block_add(out, as_say(o, AS_MSG_HD_DRAWN), num(a, sizeof a, hd->u, o), hd->token,
                 num(b, sizeof b, interval_low(hd, hd->token), o),
                 num(c, sizeof c, hd->draw_cum.v[hd->token], o), hd->token);
}

/* "h = [[…]]", the row of the layer's final table the head reads. */
static void h_table(as_block *out, const as_head_source *src, const as_render_opts *o)
{
    const as_matrix h = {1, src->d, (double *)src->h};
    char cap[128];

    snprintf(cap, sizeof cap, as_say(o, AS_MSG_HD_H_CAP), src->table, src->row);
    captioned(out, "h", &h, cap, o);
}

void as_render_head_tables(as_block *out, const as_problem *p, const as_out_head *hd,
                           const as_head_source *src, const as_render_opts *o)
{
    char cap[160], t[AS_NUM_BUF], expr[64];
    const int all = o->only == 0;

    as_block_gap(out);
    if (all) {
        as_block_add(out, "%s", as_say(o, AS_MSG_HD_TITLE));
        h_table(out, src, o);
    }
    snprintf(expr, sizeof expr, "logits = h @ %s", p->head == AS_HEAD_TIED ? "E\xe1\xb5\x80" : "Wout");
    if (p->head == AS_HEAD_TIED && o->ascii)
        snprintf(expr, sizeof expr, "logits = h @ E^T");
    if (as_shows(o, AS_T_LOGITS))
        captioned(out, expr, &hd->logits, as_say(o, AS_MSG_HD_LOGITS_CAP), o);
    if (all) {
        snprintf(cap, sizeof cap, as_say(o, AS_MSG_HD_TEMP_CAP), num(t, sizeof t, p->temperature, o));
        captioned(out, "logits/T", &hd->scaled, cap, o);
        snprintf(cap, sizeof cap, as_say(o, AS_MSG_HD_TOPK_CAP), p->top_k);
        captioned(out, "top-k", &hd->topk, cap, o);
        captioned(out, "softmax", &hd->probs, as_say(o, AS_MSG_HD_SOFTMAX_CAP), o);
    }
    if (as_shows(o, AS_T_KEPT) && hd->kept_logits.v != NULL) {
        snprintf(cap, sizeof cap, as_say(o, AS_MSG_HD_TOPP_CAP), num(t, sizeof t, p->top_p, o),
                 hd->kept);
        captioned(out, "kept", &hd->kept_logits, cap, o);
    }
    if (as_shows(o, AS_T_PROBS))
        captioned(out, "probs", &hd->final, /* the name an ANSWERS file gives it: run reads back */
                  hd->kept_logits.v || hd->topk.v ? as_say(o, AS_MSG_HD_PROBS_CAP) : NULL, o);
    if (all)
        chosen(out, hd, o);
}

/* ---- the walk-through ---- */

/* "[词0, 词1]": the tokens idx[0..count) by their numbers, elided like every list. */
static void token_list(as_text *t, const size_t *idx, size_t count, const as_render_opts *o)
{
    size_t k;

    as_text_addf(t, "[");
    for (k = 0; k < count; k++) {
        if (count > LIST_MAX && k == LIST_MAX - 2) {
            as_text_addf(t, ", %s", as_sym_text(o->ascii, AS_SYM_ELLIPSIS));
            k = count - 1;
        }
        as_text_addf(t, "%s%zu", k ? ", " : "", idx[k]);
    }
    as_text_addf(t, "]");
}

/* "logit of token v = 2×1+1×0+0×0 = 2" for the first LOGIT_LINES tokens. */
static void logit_lines(as_block *out, const as_problem *p, const as_out_head *hd,
                        const as_head_source *src, const as_render_opts *o)
{
    const as_expand_style st = {o->digits, o->ascii};
    const as_view h = as_view_row(src->h, src->d, 0);
    size_t v;

    for (v = 0; v < hd->vocab && v < LOGIT_LINES; v++) {
        const as_view w = p->head == AS_HEAD_TIED
                              ? as_view_row(p->head_w->v, p->head_w->cols, v)
                              : as_view_column(p->head_w->v, p->head_w->cols, v, NULL, src->d);
        as_text t = {0}, res = {0};
        int rounded;

        as_text_addf(&t, as_say(o, AS_MSG_HD_W_LOGIT), v);
        as_text_addf(&t, " = ");
        rounded = src->d > 0 ? as_expand_products(&t, &h, &w, "+", &st) : 0;
        rounded |= as_expand_number(&res, hd->logits.v[v], &st);
        as_text_addf(&t, " %s %s", rounded ? as_sym_text(o->ascii, AS_SYM_APPROX) : "=",
                     as_text_str(&res));
        as_block_add(out, "%s", as_text_str(&t));
        out->failed |= t.failed | res.failed;
        as_text_free(&t);
        as_text_free(&res);
    }
    if (hd->vocab > LOGIT_LINES)
        as_block_add(out, "%s", as_sym_text(o->ascii, AS_SYM_ELLIPSIS));
}

/* A vector of the head, "[a, b, c]", after a label, as one line; with a name, "NAME = "
 * (or "≈" when a shown value is rounded) before it. */
static void vector_line(as_block *out, const char *label, const char *name, const as_view *v,
                        const as_render_opts *o)
{
    const as_expand_style st = {o->digits, o->ascii};
    as_text t = {0}, vec = {0};
    const int rounded = as_expand_vector(&vec, v, &st);

    as_text_addf(&t, "%s", label);
    if (name != NULL)
        as_text_addf(&t, "%s %s ", name, rounded ? as_sym_text(o->ascii, AS_SYM_APPROX) : "=");
    as_text_addf(&t, "%s", as_text_str(&vec));
    as_block_add(out, "%s", as_text_str(&t));
    out->failed |= t.failed | vec.failed;
    as_text_free(&t);
    as_text_free(&vec);
}

/* top-k: which tokens it keeps, by their numbers. */
static void topk_line(as_block *out, const as_problem *p, const as_out_head *hd,
                      const as_render_opts *o)
{
    size_t *idx = malloc((hd->vocab ? hd->vocab : 1) * sizeof *idx), v, n = 0;
    as_text t = {0};

    if (idx == NULL) {
        out->failed = 1;
        return;
    }
    for (v = 0; v < hd->vocab; v++)
        if (hd->topk.v[v] != -INFINITY)
            idx[n++] = v;
    token_list(&t, idx, n, o);
    as_block_add(out, as_say(o, AS_MSG_HD_W_TOPK), p->top_k, as_text_str(&t));
    out->failed |= t.failed;
    as_text_free(&t);
    free(idx);
}

/* top-p written out: the tokens from the most likely down, their probabilities, the
 * running sums, and where the sum first reaches P. */
static void topp_lines(as_block *out, const as_problem *p, const as_out_head *hd,
                       const as_render_opts *o)
{
    const size_t shown = hd->kept + 1 < hd->vocab ? hd->kept + 1 : hd->vocab; /* one past */
    size_t *idx = malloc((hd->vocab ? hd->vocab : 1) * sizeof *idx), k;
    char a[AS_NUM_BUF], b[AS_NUM_BUF];
    as_text t = {0};
    as_view v;

    if (idx == NULL) {
        out->failed = 1;
        return;
    }
    for (k = 0; k < hd->vocab; k++)
        idx[k] = (size_t)hd->order.v[k];
    as_block_add(out, as_say(o, AS_MSG_HD_W_TOPP), num(a, sizeof a, p->top_p, o));
    as_text_addf(&t, "%s", as_say(o, AS_MSG_HD_W_SORTED));
    token_list(&t, idx, shown, o);
    if (shown < hd->vocab)
        as_text_addf(&t, " %s", as_sym_text(o->ascii, AS_SYM_ELLIPSIS));
    as_block_add(out, "%s", as_text_str(&t));
    out->failed |= t.failed;
    as_text_free(&t);
    v = (as_view){hd->probs.v, 1, idx, shown};
    vector_line(out, as_say(o, AS_MSG_HD_W_PSORT), NULL, &v, o);
    v = (as_view){hd->cum.v, 1, NULL, shown};
    vector_line(out, as_say(o, AS_MSG_HD_W_CUM), NULL, &v, o);
    if (hd->kept > 0)
        as_block_add(out, as_say(o, AS_MSG_HD_W_CROSS), idx[hd->kept - 1],
                     num(a, sizeof a, hd->cum.v[hd->kept - 1], o), num(b, sizeof b, p->top_p, o),
                     hd->kept);
    free(idx);
}

/* The draw: u, each possible token's interval of the running sums (in token order), and
 * the one u lies in. */
static void draw_lines(as_block *out, const as_problem *p, const as_out_head *hd,
                       const as_head_source *src, const as_render_opts *o)
{
    char a[AS_NUM_BUF], b[AS_NUM_BUF];
    as_text t = {0};
    size_t v, listed = 0;

    as_block_add(out, "%s", as_say(o, AS_MSG_HD_W_DRAW));
    as_block_add(out, as_say(o, AS_MSG_HD_W_U), p->seed, src->draw, num(a, sizeof a, hd->u, o));
    as_text_addf(&t, "%s", as_say(o, AS_MSG_HD_W_INTERVALS));
    for (v = 0; v < hd->vocab; v++) {
        if (hd->final.v[v] <= 0)
            continue; /* a token cut away has an empty interval: never drawn */
        if (listed == LIST_MAX && v != hd->token) {
            as_text_addf(&t, "  %s", as_sym_text(o->ascii, AS_SYM_ELLIPSIS));
            listed++;
            continue;
        }
        if (listed > LIST_MAX && v != hd->token)
            continue;
        as_text_addf(&t, listed ? "  " : "");
        as_text_addf(&t, as_say(o, AS_MSG_HD_W_INTERVAL), v, num(a, sizeof a, interval_low(hd, v), o),
                     num(b, sizeof b, hd->draw_cum.v[v], o));
        listed++;
    }
    as_block_add(out, "%s", as_text_str(&t));
    out->failed |= t.failed;
    as_text_free(&t);
    as_block_add(out, as_say(o, AS_MSG_HD_W_LANDS), num(a, sizeof a, hd->u, o), hd->token, hd->token);
}

void as_render_head_walk(as_block *out, const as_problem *p, const as_out_head *hd,
                         const as_head_source *src, const as_render_opts *o)
{
    char t[AS_NUM_BUF];
    as_view v;

    as_block_gap(out);
    as_block_add(out, "%s", as_say(o, AS_MSG_HD_TITLE));
    h_table(out, src, o);
    as_block_gap(out);
    as_block_add(out, "%s", as_say(o, AS_MSG_HD_W_LOGITS));
    logit_lines(out, p, hd, src, o);
    as_block_gap(out);
    as_block_add(out, as_say(o, AS_MSG_HD_W_TEMP), num(t, sizeof t, p->temperature, o));
    v = (as_view){hd->scaled.v, 1, NULL, hd->vocab};
    vector_line(out, "", "logits/T", &v, o);
    if (hd->topk.v != NULL)
        topk_line(out, p, hd, o);
    as_block_gap(out);
    as_block_add(out, "%s", as_say(o, AS_MSG_HD_W_SOFTMAX));
    v = (as_view){hd->probs.v, 1, NULL, hd->vocab};
    vector_line(out, "", "softmax", &v, o);
    if (hd->kept_logits.v != NULL) {
        topp_lines(out, p, hd, o);
        v = (as_view){hd->final.v, 1, NULL, hd->vocab};
        vector_line(out, as_say(o, AS_MSG_HD_W_RENORM), NULL, &v, o);
    }
    as_block_gap(out);
    if (hd->draw_cum.v == NULL)
        as_block_add(out, as_say(o, AS_MSG_HD_W_GREEDY), hd->token);
    else
        draw_lines(out, p, hd, src, o);
}

/* ---- JSON ---- */

/* A number as JSON (-inf as null). */
static void json_number(FILE *out, double v)
{
    as_fmt_json(out, v);
}

/* A row of the head as a flat JSON array. */
static void json_row(FILE *out, const as_matrix *m)
{
    size_t i;

    fputc('[', out);
    for (i = 0; m != NULL && i < m->cols; i++) {
        if (i > 0)
            fputs(", ", out);
        json_number(out, m->v[i]);
    }
    fputc(']', out);
}

void as_render_head_json(FILE *out, const as_out_head *hd)
{
    fputs("{\"logits\": ", out);
    json_row(out, &hd->logits);
    fputs(", \"scaled\": ", out);
    json_row(out, &hd->scaled);
    fputs(", \"kept\": ", out);
    json_row(out, as_out_head_table(hd, AS_TAB_KEPT));
    fputs(", \"probs\": ", out);
    json_row(out, &hd->final);
    fputs(", \"u\": ", out);
    if (hd->draw_cum.v != NULL)
        json_number(out, hd->u);
    else
        fputs("null", out);
    fprintf(out, ", \"token\": %zu}", hd->token);
}

void as_render_head_row_json(FILE *out, const double *v, size_t n)
{
    const as_matrix m = {1, n, (double *)v};

    json_row(out, &m);
}
