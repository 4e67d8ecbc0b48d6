/* layers.c - model: "FILE" layer N (SPEC §16): layers 0 … N−1 run in turn before the
 * walked one, each as a whole block (block.c) on its own tables, read from the model
 * one layer at a time (memory holds one layer's weights, not the model's). */
#include "attnstep/layers.h"
#include "attnstep/block.h"
#include "attnstep/model.h"
#include "attnstep/preset.h"

#include <stdlib.h>
#include <string.h>

/* Layer k of in's model on x into *y (its output Y, taken from the block's trace). */
static int one_layer(as_matrix *y, const as_input *in, size_t k, const as_matrix *x,
                     as_mask_kind mask, as_error *err)
{
    as_input li;
    as_problem p;
    as_block_trace b;
    as_trace t;
    int rc;

    if (as_preset_layer(&li, in, k, err) != 0)
        return -1;
    li.mat[AS_X].m = *x; /* borrowed: the layer's input */
    memset(&b, 0, sizeof b);
    memset(&t, 0, sizeof t);
    rc = as_problem_build(&p, &li, mask, err);
    if (rc == 0 && (rc = as_block_run(&b, &t, &p, err)) == 0) {
        *y = b.Y; /* the block's output, kept */
        memset(&b.Y, 0, sizeof b.Y);
    }
    as_trace_free(&t); /* each safe when empty (a build that failed left p empty) */
    as_block_trace_free(&b);
    as_problem_free(&p);
    as_preset_layer_free(&li);
    return rc;
}

int as_layers_run(as_layers_trace *l, as_input *in, as_mask_kind mask, as_error *err)
{
    const size_t count = in->model.path != NULL ? in->model.layer : 0;
    as_matrix last;
    size_t k;

    memset(l, 0, sizeof *l);
    if (count == 0)
        return 0;
    if ((l->Y = calloc(count, sizeof *l->Y)) == NULL) {
        as_error_msg(err, in->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    l->count = count;
    for (k = 0; k < count; k++)
        if (one_layer(&l->Y[k], in, k, k == 0 ? &in->mat[AS_X].m : &l->Y[k - 1], mask, err) != 0)
            goto fail;
    if (as_matrix_copy(&last, &l->Y[count - 1]) != 0) {
        as_error_msg(err, in->path, 0, 0, AS_MSG_OOM);
        goto fail;
    }
    l->X0 = in->mat[AS_X].m; /* what layer 0 read; the walked layer reads the last output */
    in->mat[AS_X].m = last;
    return 0;
fail:
    as_layers_trace_free(l);
    return -1;
}

void as_layers_trace_free(as_layers_trace *l)
{
    size_t k;

    for (k = 0; l->Y != NULL && k < l->count; k++)
        as_matrix_free(&l->Y[k]);
    free(l->Y);
    as_matrix_free(&l->X0);
    memset(l, 0, sizeof *l);
}
