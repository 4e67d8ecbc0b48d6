/* generate.h - `attnstep generate FILE N` (SPEC §19): decode with the KV cache (decode.h)
 * → the output head on the new row (outhead.h) → the token drawn → its row of E (plus P
 * at its position) appended as the next row of X, N times. With block: the block's
 * norms, residuals and FFN run on each new row (decode's block steps, block.h's row
 * steps), row by row as the whole run makes them. No I/O. */
#ifndef ATTNSTEP_GENERATE_H
#define ATTNSTEP_GENERATE_H

#include <stddef.h>
#include "attnstep/decode.h"
#include "attnstep/error.h"
#include "attnstep/model.h"
#include "attnstep/outhead.h"
#include "attnstep/parse.h"

typedef struct as_generate {
    size_t n0;          /* rows of X the file gives (the prompt) */
    size_t count;       /* tokens made */
    size_t *tokens;     /* [count] the token drawn at each step */
    as_out_head *head;  /* [count] step k's head, on row n0-1+k of H */
    as_matrix X;        /* [n0+count, d_model] the prompt's rows, then each token's row */
    as_matrix H;        /* [n0+count-1, d] each row of the layer's final table (O, or Y
                           with a block), made at its own step */
    as_problem p;       /* the problem over the n0+count-1 rows decoded (X's first rows) */
    as_decode d;        /* its KV cache and per-step record */
    const as_matrix *E, *P; /* the rows a token appended is made of: E [vocab, d_model],
                           and P [context, d_model] the learned positions, or NULL */
    /* owned by the run: the input p reads (the file's, with X grown and labels made) */
    as_input in;
    char **labels;      /* [n0+count-1] token labels: the file's, then each token's id */
    as_prng rng;        /* seeded: the draws' stream */
} as_generate;

/* Makes count tokens from the input in (parsed, not changed: g borrows from it, so free
 * in after g). mask_override and offset as the session takes them. Returns 0; or -1 with
 * err set (no head:, no E to append a token by, a mask matrix that cannot grow, P too
 * short, a layer decode refuses, count beyond the limits), g then empty. Free g with
 * as_generate_free(). */
int as_generate_run(as_generate *g, const as_input *in, size_t count, as_mask_kind mask_override,
                    size_t offset, as_error *err);

void as_generate_free(as_generate *g);

#endif
