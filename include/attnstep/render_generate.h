/* render_generate.h - `attnstep generate` (SPEC §19) as text (each step: the row, its
 * head, the token and where it goes) and as JSON {"tokens": […], "steps": […]}. */
#ifndef ATTNSTEP_RENDER_GENERATE_H
#define ATTNSTEP_RENDER_GENERATE_H

#include <stdio.h>
#include "attnstep/generate.h"
#include "attnstep/render.h"

/* Returns 0, or -1 when writing failed. */
int as_render_generate_text(FILE *out, const as_generate *g, const as_render_opts *o);
int as_render_generate_json(FILE *out, const as_generate *g, const as_render_opts *o);

#endif
