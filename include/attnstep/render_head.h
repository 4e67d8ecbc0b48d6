/* render_head.h - the output head and the draw (SPEC §19) as run, trace and generate
 * print them, and as JSON. Every number comes from the head's record (outhead.h). */
#ifndef ATTNSTEP_RENDER_HEAD_H
#define ATTNSTEP_RENDER_HEAD_H

#include <stdio.h>
#include "attnstep/model.h"
#include "attnstep/outhead.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

/* Where the head's h came from: the table ("O" or "Y"), its row, and the row itself. */
typedef struct as_head_source {
    const char *table;
    size_t row;
    const double *h; /* [d] */
    size_t d;
    size_t draw;     /* seeded: which number of the seed's stream u is (0 for run) */
} as_head_source;

/* The source of a run's head: the last row of Y (with a block) or of O, draw 0. */
as_head_source as_head_source_of(const as_problem *p, const as_trace *t);

/* The head's tables, as run prints them: h, logits, logits/T, top-k, softmax, kept,
 * p, then the token chosen (o->only picks logits, kept and probs). */
void as_render_head_tables(as_block *out, const as_problem *p, const as_out_head *hd,
                           const as_head_source *src, const as_render_opts *o);

/* The walk-through: each logit's dot product (the first few), the temperature, the cut
 * written out (top-k's tokens; top-p's sorted probabilities, running sums and where P is
 * crossed), the renormalised probabilities, and the draw: u and the inverse-CDF walk
 * over the tokens' intervals (or the greedy choice). */
void as_render_head_walk(as_block *out, const as_problem *p, const as_out_head *hd,
                         const as_head_source *src, const as_render_opts *o);

/* JSON's "head" object: {"logits", "scaled", "kept", "probs", "u", "token"} (u null for
 * the greedy choice). */
void as_render_head_json(FILE *out, const as_out_head *hd);

/* v[n] as a flat JSON array of round-trip numbers (-inf as null). */
void as_render_head_row_json(FILE *out, const double *v, size_t n);

#endif
