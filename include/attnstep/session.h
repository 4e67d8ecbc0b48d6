/* session.h - what every command does first, as a library call: read an input, build
 * its problem, run it into a trace. Knows nothing of the command line. */
#ifndef ATTNSTEP_SESSION_H
#define ATTNSTEP_SESSION_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/block.h"
#include "attnstep/error.h"
#include "attnstep/model.h"
#include "attnstep/outhead.h"
#include "attnstep/parse.h"

/* How to open an input. All zero: the file's own mask, every table kept. */
typedef struct as_session_opts {
    as_mask_kind mask; /* AS_MASK_DEFAULT keeps the file's; else overrides it (--mask) */
    int lean;          /* nonzero: keep only C, O and each head's O (as_attention_run_lean) */
    int rows;          /* nonzero: keep no n x m table, make rows again when asked
                          (as_attention_run_rows) */
    int cells_limit;   /* with rows: refuse what the full run refuses for holding too many
                          scores over all heads (as_attention_too_large) */
    size_t offset;     /* the position of row 0 (--offset P, SPEC §12) */
} as_session_opts;

typedef struct as_session {
    as_input in;
    as_problem p;      /* with block: pre, p.X (and p.Xkv for self-attention) is N1, what
                          the attention reads; the file's X is p.in's */
    as_trace t;        /* the attention layer (with block: pre, run on N1) */
    as_block_trace b;  /* the block around it (SPEC §15); all empty without block: */
    as_out_head out;   /* the output head on the last row (SPEC §19); empty without head: */
} as_session;

/* Parses the input at path ("-" is standard input), builds its problem and runs it.
 * o may be NULL (all zero). Returns 0 (free s with as_session_free()); or -1 with err
 * set, s empty. */
int as_session_open(as_session *s, const char *path, const as_session_opts *o, as_error *err);

/* As as_session_open(), on the input text[0..len), called name in errors. */
int as_session_open_text(as_session *s, const char *text, size_t len, const char *name,
                         const as_session_opts *o, as_error *err);

/* The head's settings of p as the run takes them (SPEC §19). */
as_head_opts as_problem_head_opts(const as_problem *p);

/* The output head of p on h, the last row of final [n, d] (Y with a block, else O), into
 * o (free with as_out_head_free()). Returns 0; or -1 with err set (memory). */
int as_session_head(as_out_head *o, const as_problem *p, const as_matrix *final,
                    const as_head_opts *opts, as_error *err);

/* Frees everything in s; safe on an empty (zeroed) session. */
void as_session_free(as_session *s);

#endif
