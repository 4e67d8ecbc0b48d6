/* render_generate.c - `attnstep generate` (SPEC §19): the prompt put into the cache,
 * then for each step its position, h, the logits, the probabilities drawn from, the
 * draw (u and the token's interval, or the greedy choice) and the row appended. JSON:
 * {"tokens": […], "steps": [{"t", "h", "head": {…}}, …]}. Formatting only. */
#include "attnstep/render_generate.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"
#include "attnstep/render_head.h"
#include "attnstep/textblock.h"

#include <stdio.h>

/* "NAME = [a, b]" (or "≈"), one line. */
static void vector_line(as_block *out, const char *name, const double *v, size_t n,
                        const as_render_opts *o)
{
    const as_expand_style st = {o->digits, o->ascii};
    const as_view view = {v, 1, NULL, n};
    as_text t = {0}, vec = {0};
    const int rounded = as_expand_vector(&vec, &view, &st);

    as_text_addf(&t, "%s %s %s", name, rounded ? as_sym_text(o->ascii, AS_SYM_APPROX) : "=",
                 as_text_str(&vec));
    as_block_add(out, "%s", as_text_str(&t));
    out->failed |= t.failed | vec.failed;
    as_text_free(&t);
    as_text_free(&vec);
}

/* Step k: the row t the head read, its head, the token and the row it becomes. */
static void step(as_block *out, const as_generate *g, size_t k, const as_render_opts *o)
{
    const size_t t = g->n0 - 1 + k, tok = g->tokens[k];
    const as_out_head *hd = &g->head[k];
    char a[AS_NUM_BUF], b[AS_NUM_BUF], c[AS_NUM_BUF];

    as_block_gap(out);
    as_block_add(out, as_say(o, AS_MSG_GEN_STEP), k, g->p.offset + t, g->d.reads[t]);
    vector_line(out, "h", &AS_AT(g->H, t, 0), g->H.cols, o);
    vector_line(out, "logits", hd->logits.v, hd->vocab, o);
    vector_line(out, "p", hd->final.v, hd->vocab, o);
    if (hd->draw_cum.v != NULL) {
        as_fmt_display(a, sizeof a, hd->u, o->digits, o->ascii);
        as_fmt_display(b, sizeof b, tok ? hd->draw_cum.v[tok - 1] : 0, o->digits, o->ascii);
        as_fmt_display(c, sizeof c, hd->draw_cum.v[tok], o->digits, o->ascii);
        as_block_add(out, as_say(o, AS_MSG_HD_DRAWN), a, tok, b, c, tok);
    } else {
        as_fmt_display(a, sizeof a, hd->final.v[tok], o->digits, o->ascii);
        as_block_add(out, as_say(o, AS_MSG_HD_GREEDY), tok, a);
    }
    if (g->P != NULL)
        as_block_add(out, as_say(o, AS_MSG_GEN_APPEND_P), tok, t + 1, tok, t + 1);
    else
        as_block_add(out, as_say(o, AS_MSG_GEN_APPEND), tok, t + 1, tok);
}

int as_render_generate_text(FILE *out, const as_generate *g, const as_render_opts *o)
{
    as_block b = as_block_stream(out);
    as_text t = {0};
    size_t k;
    int failed;

    as_block_add(&b, "%s", as_say(o, AS_MSG_HD_TITLE));
    as_block_add(&b, "%s", as_say(o, AS_MSG_GEN_TITLE));
    as_block_add(&b, as_say(o, AS_MSG_GEN_PROMPT), g->n0, g->p.offset + g->n0 - 1);
    for (k = 0; k < g->count; k++)
        step(&b, g, k, o);
    as_block_gap(&b);
    as_text_addf(&t, "%s[", as_say(o, AS_MSG_GEN_TOKENS));
    for (k = 0; k < g->count; k++)
        as_text_addf(&t, "%s%zu", k ? ", " : "", g->tokens[k]);
    as_text_addf(&t, "]");
    as_block_add(&b, "%s", as_text_str(&t));
    b.failed |= t.failed;
    as_text_free(&t);
    failed = b.failed;
    as_block_free(&b);
    return failed || ferror(out) ? -1 : 0;
}

int as_render_generate_json(FILE *out, const as_generate *g, const as_render_opts *o)
{
    size_t k;

    (void)o;
    fputs("{\n  \"tokens\": [", out);
    for (k = 0; k < g->count; k++)
        fprintf(out, "%s%zu", k ? ", " : "", g->tokens[k]);
    fputs("],\n  \"steps\": [", out);
    for (k = 0; k < g->count; k++) {
        const size_t t = g->n0 - 1 + k;
        fprintf(out, "%s\n    {\"t\": %zu, \"h\": ", k ? "," : "", g->p.offset + t);
        as_render_head_row_json(out, &AS_AT(g->H, t, 0), g->H.cols);
        fputs(", \"head\": ", out);
        as_render_head_json(out, &g->head[k]);
        fputc('}', out);
    }
    fputs("\n  ]\n}\n", out);
    return ferror(out) ? -1 : 0;
}
