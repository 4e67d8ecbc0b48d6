/* outhead.h - the output head and the draw (SPEC §19): from h, the last row of the
 * layer's final table, to the logits over the vocabulary and the next token, every step
 * kept as a table of its own for the renderers. */
#ifndef ATTNSTEP_OUTHEAD_H
#define ATTNSTEP_OUTHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "attnstep/matrix.h"
#include "attnstep/prng.h"
#include "attnstep/tables.h"

/* The order of the head's steps: the chapter's, or one of the named mistakes of SPEC
 * §19 (check and practice compare a student's probabilities with each). */
typedef enum as_head_way {
    AS_HEAD_RIGHT = 0,
    AS_HEAD_T_AFTER_SOFTMAX, /* temperature_after_softmax: T divides the probabilities,
                                which the renormalisation undoes: the steps with T = 1 */
    AS_HEAD_DROP_CROSSING,   /* topp_drops_crossing: top-p keeps only the tokens below P */
    AS_HEAD_CUT_BEFORE_T     /* topk_before_temperature: top-k and top-p cut the logits
                                before ÷T (top-p on softmax(logits)), then ÷T */
} as_head_way;

/* What the input asks of the head (SPEC §19's settings). */
typedef struct as_head_opts {
    double temperature; /* T > 0; 1 when not set */
    size_t top_k;       /* 0: no top-k */
    double top_p;       /* 0: no top-p; else 0 < P <= 1 */
    int seeded;         /* nonzero: sample: SEED (a draw); else the greedy choice */
    uint64_t seed;
    as_head_way way;    /* AS_HEAD_RIGHT but for a named mistake's variant */
    as_prng *rng;       /* seeded: when not NULL, u is the next number of this stream (a
                           generation's steps draw one after the other); else a stream
                           seeded with seed, whose first number u is */
} as_head_opts;

/* Every table of the head's steps, each [1, vocab] unless said. */
typedef struct as_out_head {
    size_t vocab;
    as_matrix logits;   /* h·Eᵀ (tied) or h·Wout */
    as_matrix scaled;   /* logits / T */
    as_matrix topk;     /* top-k: scaled with all but the k largest at -inf; else empty */
    as_matrix probs;    /* the softmax of topk (or of scaled) */
    as_matrix order;    /* top-p: the tokens from the most likely down (as numbers); else empty */
    as_matrix cum;      /* top-p: the running sums of probs in that order; else empty */
    size_t kept;        /* top-p: how many tokens are kept (the one crossing P with them) */
    as_matrix kept_logits; /* top-p: the logits of the kept tokens, -inf for the others */
    as_matrix final;    /* the probabilities drawn from: probs renormalised over the kept */
    as_matrix draw_cum; /* seeded: the running sums of final in index order; else empty */
    double u;           /* seeded: the uniform number drawn; else 0 */
    size_t token;       /* the token chosen */
} as_out_head;

/* Runs the head on h[d]: tied nonzero means w is the embedding table E [vocab, d] (the
 * logits are h·Eᵀ), else w is Wout [d, vocab]. Returns 0, or -1 when memory ran out
 * (o is then empty). Free with as_out_head_free(). */
int as_out_head_run(as_out_head *o, const double *h, size_t d, const as_matrix *w, int tied,
                    const as_head_opts *opts);

/* The table of o that registry row id names (AS_TAB_LOGITS …), or NULL when id is none
 * of the head's or o has not made it (empty). */
const as_matrix *as_out_head_table(const as_out_head *o, as_tab id);

void as_out_head_free(as_out_head *o);

#endif
