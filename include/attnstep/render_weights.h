/* render_weights.h - `attnstep weights FILE`: what a binary weight file holds, one tensor
 * a line (name, dtype, shape, bytes), as text in the user's language or as JSON. */
#ifndef ATTNSTEP_RENDER_WEIGHTS_H
#define ATTNSTEP_RENDER_WEIGHTS_H

#include <stdio.h>

#include "attnstep/i18n.h"
#include "attnstep/tensorfile.h"

/* Writes the tensors of f as aligned columns under a heading, then a line of the
 * format, the count and the bytes, in lang. Returns 0, or -1 when writing failed. */
int as_render_weights_text(FILE *out, const as_tensor_file *f, as_lang lang);

/* Writes {"file", "format", "tensors": [{"name", "dtype", "shape", "offset", "bytes"}]}.
 * Returns 0, or -1 when writing failed. */
int as_render_weights_json(FILE *out, const as_tensor_file *f);

#endif
