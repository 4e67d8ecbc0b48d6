/* render_grad.h - `grad` (SPEC §13): the gradient tables as text in the book's format
 * and as JSON, and the walk-through of one row's softmax backward. They read the
 * problem, its forward trace and its gradient trace (grad.h), and never compute maths. */
#ifndef ATTNSTEP_RENDER_GRAD_H
#define ATTNSTEP_RENDER_GRAD_H

#include <stdio.h>
#include "attnstep/grad.h"
#include "attnstep/render.h"

/* `grad --only` picks the registry's gradient tables (tables.h: as_grad_table); for
 * grad, as_render_opts.only holds their bits (1u << as_grad_table), not as_table's. */

/* Parses a comma-separated grad --only list (dO, dWo, dbo, dC, dV, dA, dS, dQKT (also
 * dQKᵀ, d(QKT), d(QKᵀ)), dQ, dK, dWq, dWk, dWv, dbq, dbk, dbv, dX, dXkv; any case).
 * Returns 0 and sets *only; or -1 and points *bad at the offending name. */
int as_grad_only_parse(const char *list, unsigned *only, const char **bad);

/* `grad` as text: every gradient table in the order it is computed, in the book's
 * format and o->lang. Returns 0, or -1 when writing failed. */
int as_render_grad_text(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o);

/* `grad --format json` (SPEC §13): {"loss", "dO", "dWo", "dbo", "dC", "heads": [{"dV",
 * "dA", "dS", "dQKT", "dQ", "dK"}], "dQ", "dK", "dV", "dWq", ..., "dX", "dXkv"}, a key
 * absent when its table does not exist or --only leaves it out. */
int as_render_grad_json(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o);

/* `grad --row I`: the softmax backward of receiving row o->row (-1: the last; -2: every
 * row), head by head, as the chapter would write it out: dA of the row, Σ dA⊙A, each
 * cell of dS, the scaling, then the flow into dQ and dK. It reads a row at a time (of a
 * rows run, each made again: SPEC §10), of d(QKᵀ)'s columns only the rows dk's sums
 * show. Returns 0, or -1 when o->row is no row of p or writing failed.
 * (render_grad_walk.c) */
int as_render_grad_walk(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o);

/* The lines of as_render_grad_walk, into b (start it empty; free it with
 * as_block_free). Returns 0; or -1 when o->row is no row of p or memory ran out. */
struct as_block;
int as_grad_walk_lines(struct as_block *b, const as_problem *p, const as_trace *t,
                       const as_grad *g, const as_render_opts *o);

/* `grad --format html` (SPEC §17): one page, each gradient table a step in the order
 * the backward pass computes it, named by the expression that made it, the notes the
 * text says before it above it; then the softmax backward of the rows o->row names
 * written out (as_render_grad_walk's lines); grad's JSON embedded. Returns 0, or -1 when writing
 * failed or memory ran out. */
int as_render_grad_html(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o);

#endif
