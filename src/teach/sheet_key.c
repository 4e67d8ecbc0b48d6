/* sheet_key.c - the key's walk-through row, set as mathematics: for the walked row, each
 * step written out (the projections, the scores, the scaling and the mask, the softmax,
 * the mix) with the numbers of the trace. */
#include "sheet_text.h"
#include "attnstep/block.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TERMS_PER_LINE 3  /* terms of a written-out sum on one line of the key */

/* Before term k of a written-out sum: " + ", or after every TERMS_PER_LINE terms a new
 * line of the aligned block, indented, so that no line runs past the margin. */
static void plus(FILE *out, size_t k)
{
    if (k == 0)
        fputc(' ', out);
    else if (k % TERMS_PER_LINE == 0)
        fputs(" \\\\\n&\\qquad + ", out);
    else
        fputs(" + ", out);
}

/* A factor of a product: negative ones in parentheses, as the chapter writes them. */
static void factor(FILE *out, double v, int places)
{
    char buf[AS_NUM_BUF];

    as_sheet_mnum(buf, sizeof buf, v, places);
    fprintf(out, v < 0 ? "(%s)" : "%s", buf);
}

/* ------------------------------------------------------------------------------ */
/* The walk-through row, as mathematics                                             */
/* ------------------------------------------------------------------------------ */

/* A block of aligned equations: align* in LaTeX, an aligned block in $$ in Markdown
 * (LaTeX mathematics either way). lines counts what is written so far. */
typedef struct eqs {
    const as_sheet_page *pg;
    int lines;
} eqs;

static eqs math_begin(const as_sheet_page *pg)
{
    fputs(pg->o->latex ? "\\begin{align*}\n" : "$$\n\\begin{aligned}\n", pg->out);
    return (eqs){pg, 0};
}

/* Starts the next equation (its left side follows). */
static FILE *eq(eqs *e)
{
    if (e->lines++ > 0)
        fputs(" \\\\\n", e->pg->out);
    return e->pg->out;
}

static void math_end(eqs *e)
{
    fputs(e->pg->o->latex ? "\n\\end{align*}\n" : "\n\\end{aligned}\n$$\n\n", e->pg->out);
}

/* A heading in the key: bold, a paragraph of its own. */
static void key_heading(const as_sheet_page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\par\\textbf{" : "**", pg->out);
    as_sheet_say(pg, m, raw, nraw);
    fputs(pg->o->latex ? "}\n" : "**\n\n", pg->out); /* LaTeX: no empty paragraph above
                                                          the equations */
}

/* "= v" or "\approx v", v at the key's places. */
static void equals(FILE *out, double v, int places)
{
    char buf[AS_NUM_BUF];
    const int r = as_sheet_mnum(buf, sizeof buf, v, places);

    fprintf(out, " %s %s", r ? "\\approx" : "=", buf);
}

/* " = " when every cell of row i of m shows exactly at places decimals, else " \\approx ". */
static const char *row_sign(const as_matrix *m, size_t i, int places)
{
    char buf[AS_NUM_BUF];
    size_t j;

    for (j = 0; j < m->cols; j++)
        if (as_sheet_mnum(buf, sizeof buf, AS_AT(*m, i, j), places))
            return " \\approx ";
    return " = ";
}

/* A row of m as [a,\ b,\ c] at places decimals. */
static void vec(FILE *out, const as_matrix *m, size_t i, int places)
{
    char buf[AS_NUM_BUF];
    size_t j;

    fputs("\\left[", out);
    for (j = 0; j < m->cols; j++) {
        as_sheet_mnum(buf, sizeof buf, AS_AT(*m, i, j), places);
        fprintf(out, "%s%s", j ? ",\\ " : "", buf);
    }
    fputs("\\right]", out);
}

/* The projections of row i: each cell of q, k and v a row of the input dotted with a
 * column of the W table (and its bias). */
static void walk_project(const as_sheet_page *pg, size_t i)
{
    const as_problem *p = pg->s->p;
    const as_trace *t = pg->s->t;
    const as_matrix *w[] = {p->Wq, p->Wk, p->Wv}, *b[] = {p->bq, p->bk, p->bv};
    const as_matrix *res[] = {&t->Q, &t->K, &t->V};
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t k, c, r;

    for (k = 0; k < 3; k++) {
        const as_matrix *x = k == 0 ? p->X : p->Xkv;
        if (i >= res[k]->rows)
            continue; /* cross-attention: fewer rows read */
        for (c = 0; c < res[k]->cols; c++) {
            FILE *out = eq(&e);
            fprintf(out, "%c_{%zu,%zu} &=", "qkv"[k], i, c);
            for (r = 0; r < x->cols; r++) {
                plus(out, r);
                factor(out, AS_AT(*x, i, r), pl);
                fputs("\\times ", out);
                factor(out, AS_AT(*w[k], r, c), pl);
            }
            if (b[k] != NULL) {
                plus(out, x->cols);
                factor(out, b[k]->v[c], pl);
            }
            equals(out, AS_AT(*res[k], i, c), pl);
        }
    }
    math_end(&e);
}

/* Step 1: the Query of row i dotted with each readable Key. */
static void walk_scores(const as_sheet_page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t j, c;

    for (j = 0; j < h->S.cols; j++) {
        FILE *out;
        if (isinf(AS_AT(h->S, i, j)))
            continue;
        out = eq(&e);
        fprintf(out, "q_{%zu}\\cdot k_{%zu} &=", i, j);
        for (c = 0; c < h->Q.cols; c++) {
            plus(out, c);
            factor(out, AS_AT(h->Q, i, c), pl);
            fputs("\\times ", out);
            factor(out, AS_AT(h->K, j, c), pl);
        }
        equals(out, AS_AT(h->QKT, i, j), pl);
    }
    math_end(&e);
}

/* Step 2: the scores scaled (and the mask added). */
static void walk_scale(const as_sheet_page *pg, const as_head_trace *h, size_t i)
{
    const as_problem *p = pg->s->p;
    const int pl = pg->o->key_places;
    char buf[AS_NUM_BUF];
    eqs e = math_begin(pg);
    FILE *out = eq(&e);
    size_t j;

    fprintf(out, "s_{%zu} &= \\left[", i);
    for (j = 0; j < h->S.cols; j++) {
        fputs(j ? ",\\ " : "", out);
        if (isinf(AS_AT(h->S, i, j))) {
            fputs("-\\infty", out);
            continue;
        }
        as_sheet_mnum(buf, sizeof buf, AS_AT(h->QKT, i, j), pl);
        if (p->scale_auto) {
            fprintf(out, "\\tfrac{%s}{\\sqrt{%zu}}", buf, p->d_k);
        } else {
            factor(out, AS_AT(h->QKT, i, j), pl);
            fprintf(out, "\\cdot %.6g", p->scale);
        }
        if (p->mask == AS_MASK_CUSTOM && AS_AT(pg->s->t->M, i, j) != 0) {
            fputs(" + ", out);
            factor(out, AS_AT(pg->s->t->M, i, j), pl);
        }
    }
    fputs("\\right]", out);
    fputs(row_sign(&h->S, i, pl), out);
    vec(out, &h->S, i, pl);
    math_end(&e);
}

/* Step 3: softmax of the row, in the chapter's four sub-steps. */
static void walk_softmax(const as_sheet_page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    FILE *out;

    out = eq(&e);
    fprintf(out, "\\max_j s_{%zu,j} &", i);
    equals(out, AS_AT(h->row_max, i, 0), pl);
    fprintf(eq(&e), "s_{%zu} - \\max &%s", i, row_sign(&h->shifted, i, pl) + 1);
    vec(e.pg->out, &h->shifted, i, pl);
    fprintf(eq(&e), "e^{s_{%zu} - \\max} &%s", i, row_sign(&h->exps, i, pl) + 1);
    vec(e.pg->out, &h->exps, i, pl);
    out = eq(&e);
    fprintf(out, "\\textstyle\\sum_j e^{s_{%zu,j} - \\max} &", i);
    equals(out, AS_AT(h->sums, i, 0), pl);
    fprintf(eq(&e), "a_{%zu} = e^{s_{%zu} - \\max} \\big/ \\textstyle\\sum &%s", i, i,
            row_sign(&h->A, i, pl) + 1);
    vec(e.pg->out, &h->A, i, pl);
    math_end(&e);
}

/* Step 4: each output cell, the shares times the matching cells of the Values. */
static void walk_mix(const as_sheet_page *pg, const as_head_trace *h, size_t i)
{
    const int pl = pg->o->key_places;
    eqs e = math_begin(pg);
    size_t j, c;

    for (c = 0; c < h->O.cols; c++) {
        FILE *out = eq(&e);
        size_t terms = 0;
        fprintf(out, "o_{%zu,%zu} &=", i, c);
        for (j = 0; j < h->A.cols; j++) {
            if (isinf(AS_AT(h->S, i, j)))
                continue; /* a masked share is 0 */
            plus(out, terms++);
            factor(out, AS_AT(h->A, i, j), pl);
            fputs("\\times ", out);
            factor(out, AS_AT(h->V, j, c), pl);
        }
        equals(out, AS_AT(h->O, i, c), pl);
    }
    math_end(&e);
}

/* "Step by step: row I (LABEL)", the label escaped as text of the page (a token such
 * as "_c_" is text, not LaTeX's subscript or Markdown's emphasis). */
static void walk_heading(const as_sheet_page *pg, size_t i)
{
    char buf[32], row[32], *text = NULL;
    const char *raw[2] = {row, ""};
    size_t len = 0;
    as_sheet_page tp = *pg;

    snprintf(row, sizeof row, "%zu", i);
    if ((tp.out = open_memstream(&text, &len)) != NULL) {
        as_sheet_put_text(&tp, as_sheet_label(pg, buf, sizeof buf, pg->s->p->tokens, i));
        if (fclose(tp.out) == 0)
            raw[1] = text;
    }
    key_heading(pg, AS_MSG_SHEET_WALK, raw, 2);
    free(text);
}

/* ---- the block's drills (SPEC §15): the walked row through the drilled step ---- */

/* "name_{i} &\approx [a, b, …]": row i of m, a line of the aligned block. */
static void row_line(eqs *e, const char *name, const as_matrix *m, size_t i, int places)
{
    FILE *out = eq(e);

    fprintf(out, "%s_{%zu} &%s", name, i, row_sign(m, i, places) + 1);
    vec(out, m, i, places);
}

/* One norm of row i: μ (LayerNorm), σ² or the mean square, the divisor, x̂, and the
 * norm's table out = γ⊙x̂ (+ β), each from the trace. */
static void walk_norm(const as_sheet_page *pg, const as_norm_trace *nt, const as_matrix *out,
                      const char *name, size_t i)
{
    const int pl = pg->o->key_places, layer = nt->mean.v != NULL;
    const char *raw[] = {name};
    eqs e;

    if (nt->div.v == NULL || out == NULL)
        return;
    key_heading(pg, AS_MSG_SHEET_NORM_WALK, raw, 1);
    e = math_begin(pg);
    if (layer) {
        fputs("\\mu &", eq(&e));
        equals(e.pg->out, nt->mean.v[i], pl);
    }
    fputs(layer ? "\\sigma^2 &" : "\\tfrac{1}{d}\\textstyle\\sum_j x_j^2 &", eq(&e));
    equals(e.pg->out, nt->var.v[i], pl);
    fputs(layer ? "\\sqrt{\\sigma^2+\\varepsilon} &" : "\\sqrt{\\tfrac{1}{d}\\textstyle\\sum_j x_j^2+\\varepsilon} &",
          eq(&e));
    equals(e.pg->out, nt->div.v[i], pl);
    row_line(&e, "\\hat{x}", &nt->xhat, i, pl);
    row_line(&e, name, out, i, pl);
    math_end(&e);
}

/* The walked row of the block's step the sheet drills: each norm's sub-steps, the
 * residual sums, or the FFN row before and after its activation. */
static void walk_block_step(const as_sheet_page *pg, size_t i)
{
    const as_block_trace *b = pg->s->t->block;
    const int pl = pg->o->key_places, pre = pg->s->p->block == AS_BLOCK_PRE;
    const as_tab ffn[] = {AS_TAB_U, AS_TAB_G, AS_TAB_F, AS_TAB_D};
    const as_tab residual[] = {AS_TAB_H1, AS_TAB_H2};
    size_t k;
    eqs e;

    if (b == NULL)
        return;
    if (pg->o->step == AS_STEP_NORM) {
        walk_norm(pg, &b->norm1, as_block_table(b, pre ? AS_TAB_N1 : AS_TAB_H1), pre ? "N1" : "H1", i);
        walk_norm(pg, &b->norm2, as_block_table(b, pre ? AS_TAB_N2 : AS_TAB_H2), pre ? "N2" : "H2", i);
        return;
    }
    e = math_begin(pg);
    for (k = 0; k < (pg->o->step == AS_STEP_FFN ? 4u : 2u); k++) {
        const as_tab id = pg->o->step == AS_STEP_FFN ? ffn[k] : residual[k];
        const as_matrix *m = as_block_table(b, id);
        if (m != NULL)
            row_line(&e, as_tab_get(id)->name, m, i, pl);
    }
    math_end(&e);
}

/* The walk-through of the last row, through the steps the sheet asks. */
void as_sheet_key_walk(const as_sheet_page *pg)
{
    static const as_msg steps[] = {AS_MSG_TR_STEP1, AS_MSG_SHEET_STEP2, AS_MSG_TR_STEP3,
                                   AS_MSG_TR_STEP4};
    const as_problem *p = pg->s->p;
    const as_step st = pg->o->step;
    const size_t i = p->n - 1;
    char buf[32], sq[32], dk[32];
    const char *raw[2];
    size_t h, k;

    walk_heading(pg, i);
    if (as_step_of_block(st)) {
        walk_block_step(pg, i);
        return;
    }
    if (st == AS_STEP_PROJECT) {
        walk_project(pg, i);
        return;
    }
    snprintf(sq, sizeof sq, "%s%s", pg->o->latex ? "$\\sqrt{d_k}$" : as_sheet_sym(pg, AS_SYM_SQRT),
             pg->o->latex ? "" : "d\\_k");
    snprintf(dk, sizeof dk, pg->o->latex ? "$d_k=%zu$" : "d\\_k=%zu", p->d_k);
    for (h = 0; h < pg->s->t->heads; h++) {
        const as_head_trace *ht = &pg->s->t->head[h];
        if (pg->s->t->heads > 1) {
            snprintf(buf, sizeof buf, "%zu", h);
            raw[0] = buf;
            key_heading(pg, AS_MSG_SHEET_HEAD, raw, 1);
        }
        for (k = 0; k < 4; k++) {
            if ((st == AS_STEP_SCORES && k > 1) || (st == AS_STEP_SOFTMAX && k != 2) ||
                (st == AS_STEP_MIX && k != 3))
                continue;
            raw[0] = sq;
            raw[1] = dk;
            key_heading(pg, k == 1 && !p->scale_auto ? AS_MSG_SHEET_STEP2_SCALE : steps[k],
                        raw, 2);
            if (k == 0)
                walk_scores(pg, ht, i);
            else if (k == 1)
                walk_scale(pg, ht, i);
            else if (k == 2)
                walk_softmax(pg, ht, i);
            else
                walk_mix(pg, ht, i);
        }
    }
}

