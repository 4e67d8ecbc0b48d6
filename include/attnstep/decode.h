/* decode.h - generation token by token with a KV cache (SPEC §11): step t takes row t
 * of X, computes only q_t, k_t and v_t, appends k_t and v_t to the cache, and computes
 * row t of the output from the cache. Every row is bit for bit the row that
 * as_attention_run() computes: the same products, sums and divisions in the same order
 * (a cell the mask forbids adds an exact 0 in the run, and is skipped here). With
 * block: each step is the block's on that row (its norm before the attention for pre,
 * the residuals, norms and FFN after), so the block's rows are the run's too. */
#ifndef ATTNSTEP_DECODE_H
#define ATTNSTEP_DECODE_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/block.h"
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"

typedef struct as_decode {
    size_t n, heads, kv_heads;
    int keep;          /* nonzero: each head's O was kept for every step, and each step
                          projected at its own time (as_decode_scores() makes any step's
                          scores and shares again: no [n, n] table is kept, SPEC §10) */
    as_matrix Q;       /* [n, heads*d_k]: row t is q_t, every head (positions: rope:
                          turned, as the scores use it) */
    as_matrix *K, *V;  /* kv_heads caches, [n, d_k] and [n, d_v]: row t appended at step t
                          (rope: K's rows turned, as a decoder caches them) */
    double **KT;       /* kv_heads: K's cache in panels of 8 Keys (AS_PANEL_AT in
                          steps_gen.h), which the scores read */
    as_matrix *Oh;     /* keep: heads tables [n, d_v], each head's output rows */
    as_matrix C;       /* [n, heads*d_v] the heads side by side */
    as_matrix O;       /* [n, d_out] the output rows */
    size_t *reads;     /* [n] positions step t reads (per head) */
    size_t *first;     /* [n] the first position step t reads */
    size_t *full;      /* [n] score dot products that recomputing rows 0..t from scratch
                          takes (every head): the sum of reads[0..t] x heads */
    size_t dots, dots_full; /* in all: score dot products with the cache (every head),
                               and recomputing from scratch at every step */
    size_t rows_full;  /* rows projected recomputing at every step: 1 + 2 + ... + n */
    double *slopes;    /* [heads] positions: alibi: each head's slope (else zeros) */
    int *same;         /* [n] after as_decode_compare(): 1 when row t of O is bit for bit
                          the run's, else 0; NULL before */
    as_block_trace blk; /* block: (SPEC §15) the block's tables and sub-steps, row t made at
                           step t around the attention's step (block.h's row steps: for
                           pre N1's row, which the attention reads, then the rest from
                           row t of O); without keep only pre's N1. Else zeroed */
    struct step_scratch *scratch; /* as_decode_begin(): the steps' scratch; else NULL */
} as_decode;

/* Rows projected together by the lean decode (without keep). */
#define AS_DECODE_AHEAD 256

/* Generates p's rows one by one into d (free with as_decode_free()). keep: record each
 * step's head outputs (for the walk-through and JSON, which make each step's scores and
 * shares again with as_decode_scores()), and project
 * each row at its own step, as a decoder must when the next token is not known yet.
 * Without keep only C and O are kept, and -- every row of X being given -- the rows are
 * projected AS_DECODE_AHEAD at a time when the first of them comes (and their output
 * projection made when the last is done): each weight table is read once per block,
 * not once per row. The bits are the same either way. Refuses a block (block:, whose
 * norms and FFN decode does not walk yet: generate runs the block around
 * as_decode_begin/as_decode_step itself), cross-attention (a decoder reads its own
 * sequence) and a mask that lets a row read a later position (the cache does not hold
 * it yet). Returns
 * 0; or -1 with err set, d empty. */
int as_decode_run(as_decode *d, const as_problem *p, int keep, as_error *err);

/* Generation (SPEC §19), where row t of X is known only once step t-1 has drawn it:
 * as_decode_begin() checks p and makes d's tables for p's n rows (as keep: every step
 * projected at its own time, each head's O kept); as_decode_step() then runs step t
 * (t = 0, 1, … in order), reading row t of *p->X as it is at the call. The bits are
 * those as_decode_run() makes. Both return 0; or -1 with err set (begin: d then empty;
 * step: free d with as_decode_free()). */
int as_decode_begin(as_decode *d, const as_problem *p, as_error *err);
int as_decode_step(as_decode *d, const as_problem *p, size_t t, as_error *err);

/* One step's row of one head, made again: its scaled (and masked) scores S and shares
 * A over the positions 0..t (-inf and 0 where the step reads nothing), and scratch. */
typedef struct as_decode_row {
    double *S, *A;     /* [n] */
    double *M, *o;     /* [n] the mask's row, [d_v] the head's output row (scratch) */
} as_decode_row;

/* Room for any step of p's decode. Returns 0, or -1 when memory ran out (r empty). */
int as_decode_row_init(as_decode_row *r, const as_problem *p);
void as_decode_row_free(as_decode_row *r);

/* Step t of head hd of the decode d of p made again into r, bit for bit as the run made
 * it (the same cache rows, the same sums): r->S[0..t] and r->A[0..t]. Returns 0 (-1
 * only if the step failed, which as_decode_run() would have reported). */
int as_decode_scores(as_decode_row *r, const as_decode *d, const as_problem *p, size_t hd,
                     size_t t);

/* Compares each row of d->O with t->O, and with a block (b not NULL, d made with keep)
 * each row of every table of d->blk with b's, bit for bit (as the shortest round-trip
 * text would: memcmp of the doubles), filling d->same. Returns the number of rows that
 * differ, or -1 when out of memory. */
long as_decode_compare(as_decode *d, const as_trace *t, const as_block_trace *b);

/* Frees everything d holds. */
void as_decode_free(as_decode *d);

#endif
