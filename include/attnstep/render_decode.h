/* render_decode.h - the renderers of `decode` (SPEC §11): they read a problem and its
 * decode record and never compute maths. */
#ifndef ATTNSTEP_RENDER_DECODE_H
#define ATTNSTEP_RENDER_DECODE_H

#include <stdio.h>
#include "attnstep/decode.h"
#include "attnstep/model.h"
#include "attnstep/render.h"

/* The walk-through: per step the new row's projections, the cache, the scores, shares
 * and output of that row, whether it is the run's row bit for bit (when d->same is
 * set), and the work done against recomputing from scratch; then the totals. Needs d
 * made with keep. Returns 0, or -1 when writing failed. */
int as_render_decode_text(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o);

/* {"steps": [{"t", "token", "q", "k", "v", "scores", "A", "o"}, ...], "O": [...]}: per
 * step the new row's values (one head: plain rows; several: one row per head; k and v
 * one row per K/V head), the scores and shares over the cache (-inf as null), and the
 * output row; O the whole output. With o->only set to O alone (d made without keep),
 * only "O". Numbers in the shortest text that reads back to the same double. */
int as_render_decode_json(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o);

/* decode --format html (SPEC §17): one page, a step per token (the new row's q, k, v,
 * the cache growing, the row's scores, shares as a heatmap and output, each row's
 * tooltip the walk's line for it, and the walk's lines under it), then O and the work
 * done; the JSON of as_render_decode_json embedded. Needs d made with keep. Returns 0,
 * or -1 when writing failed or memory ran out. */
int as_render_decode_html(FILE *out, const as_problem *p, const as_decode *d,
                          const as_render_opts *o);

#endif
