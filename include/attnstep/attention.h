/* attention.h - the trace that records every table of one run, and the run itself.
 * The steps it is made of are in steps.h. No I/O here. */
#ifndef ATTNSTEP_ATTENTION_H
#define ATTNSTEP_ATTENTION_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"
#include "attnstep/tables.h"
#include "attnstep/steps.h"

/* ---- The trace: one run, every table recorded. ---- */

typedef struct as_head_trace {
    as_matrix Q, K, V;        /* this head's slices: [n,d_k], [m,d_k], [m,d_v] */
    as_matrix Qr, Kr;         /* positions: rope: Q and K turned, [n,d_k], [m,d_k]; else empty */
    as_matrix QKT;            /* [n,m] raw scores (Qr·Krᵀ with rope) */
    as_matrix scaled;         /* [n,m] QKT * scale (before the mask) */
    as_matrix B;              /* positions: alibi: [n,m] the bias −slope·(i−j); else empty */
    double slope;             /* positions: alibi: this head's slope; else 0 */
    as_matrix S;              /* [n,m] scaled (+ B) + M */
    as_matrix row_max;        /* [n,1] */
    as_matrix shifted, exps;  /* [n,m] */
    as_matrix sums;           /* [n,1] */
    as_matrix A;              /* [n,m] reading shares */
    as_matrix O;              /* [n,d_v] */
} as_head_trace;

struct as_block_trace;
struct as_out_head;

typedef struct as_trace {
    const struct as_block_trace *block; /* with block: (SPEC §15), the session's block
                                 around this layer (block.h); else NULL */
    const struct as_out_head *out; /* with head: (SPEC §19), the session's output head on
                                 the last row of the layer's final table (outhead.h); else NULL */
    as_matrix M;              /* [n,m] the additive mask the run applied (mask.h): 0 where a
                                 row may read, -inf where it may not; filled but in a
                                 rows trace (as_trace_row() gives its rows) */
    as_matrix PE, PEkv;       /* positions: sinusoidal: [n,d_model], [m,d_kv_model] (PEkv
                                 only for cross-attention); else empty */
    as_matrix Xp, Xkvp;       /* X + PE and Xkv + PEkv, what the projections read */
    as_matrix slopes;         /* positions: alibi: [1,heads] each head's slope; else empty */
    as_matrix rope_theta;     /* positions: rope: [1, d_k/2] θ_i of each pair; else empty */
    as_matrix rope_angle, rope_cos, rope_sin; /* positions: rope: [max(n,m), d_k/2] the turn
                                  of each pair at each position, its cosine and sine; else empty */
    as_matrix Q, K, V;        /* all heads: [n,heads*d_k], [m,kv_heads*d_k], [m,kv_heads*d_v] */
    size_t heads;
    as_head_trace *head;      /* heads entries */
    as_matrix C;              /* [n,heads*d_v] the heads side by side */
    as_matrix O;              /* final output: C @ Wo + bo, or a copy of C without Wo */
    int lean;                 /* nonzero when made by as_attention_run_lean(): then only
                                 C, O and each head's O are filled; every other table
                                 (M, Q, K, V and each head's Q ... A) is empty, 0 x 0 */
    int rows;                 /* nonzero when made by as_attention_run_rows(): then every
                                 table is filled but M and each head's n x m ones (QKT,
                                 scaled, B, S, shifted, exps, A; row_max, sums), which
                                 as_trace_row() makes one row at a time */
} as_trace;

/* The whole table id of t (its TRACE slot in tables.def; the output head's tables from
 * t->out), or NULL when t keeps none. */
const as_matrix *as_trace_table(const as_trace *t, as_tab id);

/* One head's table id (its HEADSLOT in tables.def), or NULL when a head keeps none. */
const as_matrix *as_trace_head_table(const as_head_trace *h, as_tab id);

/* One receiving row i of one head: that row of each of the head's n x m tables (and of
 * the mask), as the run made them. Read it with as_trace_row(). */
typedef struct as_row_trace {
    const double *M;                   /* [m] row i of the mask M */
    const double *QKT, *scaled;        /* [m] */
    const double *B;                   /* positions: alibi: [m] the bias; else NULL */
    const double *S;                   /* [m] scaled (+ B) + M */
    double row_max, sum;               /* the softmax's max and sum of exps */
    const double *shifted, *exps, *A;  /* [m] */
    double *room;                      /* the rows a rows trace was made in, or NULL */
} as_row_trace;

/* Runs the whole layer on p, recording every table in t (free with as_trace_free()).
 * Returns 0; or -1 with err set: a row with no readable position, or a value that left
 * the double range (naming the table and cell). t is then empty. */
int as_attention_run(as_trace *t, const as_problem *p, as_error *err);

/* Nonzero (err set) when the full trace would keep more than AS_MAX_CELLS score cells
 * over all heads: it keeps six n x m tables a head, so this bounds its memory for any
 * file within the limits of one table (which model.c checked: n x m fits).
 * as_attention_run() checks it first; a rows run checks it when asked (as_session_opts
 * cells_limit: the formats that once kept the tables keep their limit). */
int as_attention_too_large(const as_problem *p, as_error *err);

/* As as_attention_run(), for `--only O` (or C) at model sizes: the same C, O and
 * per-head O, bit for bit, and the same errors, but no other table is kept (t->lean is
 * set; see as_trace), so it has no limit on all heads' tables together. Each head's
 * n x m scores live in one scratch table, reused from step to step and from head to
 * head (one per thread; the heads run on two threads when the layer is large), so
 * memory stays near the size of the inputs. Free t with as_trace_free(). */
int as_attention_run_lean(as_trace *t, const as_problem *p, as_error *err);

/* As as_attention_run(), with the same numbers, bit for bit, and the same errors, but
 * keeping no n x m table (t->rows is set): each head's scores are made and checked one
 * row at a time, so memory stays near the size of the inputs and the outputs, and there
 * is no limit on all heads' tables together. as_trace_row() makes any row again. */
int as_attention_run_rows(as_trace *t, const as_problem *p, as_error *err);

/* Row i of head hd of t, into r (start r zeroed; free it with as_row_trace_free()): for
 * a full trace, views into its tables; for a rows trace (t->rows), that row made again
 * as the run made it. r holds until the next call. Returns 0; or -1 when memory ran out
 * (or t is lean: it has no such row). */
int as_trace_row(as_row_trace *r, const as_trace *t, const as_problem *p, size_t hd, size_t i);

/* Frees what r holds and leaves it zeroed. */
void as_row_trace_free(as_row_trace *r);

/* Frees every table of t. */
void as_trace_free(as_trace *t);

#endif
