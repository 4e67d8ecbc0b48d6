/* layers.h - model: "FILE" layer N (SPEC §16): the layers before the walked one. Layer N
 * reads what it reads inside the model: the embeddings passed through layers 0 … N−1,
 * each a block of its own with its own tables (as_preset_layer), each summarised by its
 * output. */
#ifndef ATTNSTEP_LAYERS_H
#define ATTNSTEP_LAYERS_H

#include <stddef.h>

#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/parse.h"

typedef struct as_layers_trace {
    size_t count;  /* N: the layers run before the walked one (0: none) */
    as_matrix X0;  /* [n, d_model] what layer 0 read: E[ids] + P[0:n], or the file's X */
    as_matrix *Y;  /* [count] each layer's output [n, d_model]: Y[k] is what layer k+1
                      reads, Y[count-1] the walked layer's X */
} as_layers_trace;

/* Runs layers 0 … in->model.layer−1 of in's model on in's X, in turn, with mask (as
 * as_problem_build() takes it), and makes the last one's output in's X (X0 keeps what
 * layer 0 read). Nothing to do without model: or at layer 0 (count 0). Returns 0; or -1
 * with err set (l then empty, in unchanged). Free l with as_layers_trace_free(). */
int as_layers_run(as_layers_trace *l, as_input *in, as_mask_kind mask, as_error *err);

/* Frees every table of l and leaves it zeroed; safe on a zeroed l. */
void as_layers_trace_free(as_layers_trace *l);

#endif
