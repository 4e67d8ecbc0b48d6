/* render_tiles.h - `--tiles B` (SPEC §11): the online softmax as text and JSON. The
 * renderers read the tiles record (tiles.c) and never compute maths. */
#ifndef ATTNSTEP_RENDER_TILES_H
#define ATTNSTEP_RENDER_TILES_H

#include <stdio.h>
#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/render.h"
#include "attnstep/tiles.h"

/* trace --tiles B: for each row o->row names (-1 the last, -2 all) and head, the blocks
 * as they are read (m, ℓ, the rescale factor, the running output), then the final ℓ
 * beside the ordinary sum, the shares and the output, and the largest difference in
 * ulp. Each row is made again (as_tiles_row) and written as it is made. */
int as_render_tiles_walk(FILE *out, const as_problem *p, const as_tiles *tl,
                         const as_render_opts *o);

/* run --tiles B as text: each head's final m and ℓ per row and its output, then the
 * layer's output and the largest difference in ulp. */
int as_render_tiles_text(FILE *out, const as_problem *p, const as_tiles *tl,
                         const as_render_opts *o);

/* run --tiles B --format json: the members
 * "tiles": {"B", "heads": [{"m", "l", "A", "O"}], "O", "max_ulp"} (no braces around). */
int as_render_tiles_json(FILE *out, const as_problem *p, const as_tiles *tl);

/* run --tiles B --format html (walked 0: every row) and trace --tiles B --format html
 * (walked 1: the rows o->row names), SPEC §17: per row and head one step, its blocks
 * as a grid of m, ℓ, the rescale factor f and the running output (each block's tooltip
 * the walk's lines for it), its shares as a heatmap and the walk's text; then the
 * output. The run's JSON with "tiles" and the blocks ("walk") embedded. t is the run
 * tl was made from. Returns 0, or -1 when writing failed or memory ran out. */
int as_render_tiles_html(FILE *out, const as_problem *p, const as_trace *t, const as_tiles *tl,
                         const as_render_opts *o, int walked);

#endif
