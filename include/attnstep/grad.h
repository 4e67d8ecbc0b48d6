/* grad.h - the backward pass of one run (SPEC §13): from the gradient of the loss with
 * respect to the output, dO, back to every table that has a gradient, recorded into a
 * gradient trace in the order they are computed. It reads the forward trace (A, V, Q,
 * K, C of the run) and never runs the forward pass again. No I/O: renderers read it. */
#ifndef ATTNSTEP_GRAD_H
#define ATTNSTEP_GRAD_H

#include <stddef.h>
#include "attnstep/attention.h"
#include "attnstep/error.h"
#include "attnstep/i18n.h"
#include "attnstep/matrix.h"
#include "attnstep/model.h"
#include "attnstep/textblock.h"

/* Where dO comes from. */
typedef enum as_loss_kind {
    AS_LOSS_GIVEN = 0, /* dO = [[...]] in the file: no loss value */
    AS_LOSS_SUM,       /* loss: sum, L = Σ O, dO all ones */
    AS_LOSS_MSE        /* loss: mse, L = Σ (O - target)² / 2, dO = O - target */
} as_loss_kind;

/* One head's part of the backward pass. */
typedef struct as_grad_head {
    as_matrix dO;      /* [n,d_v] this head's columns of dC (of dO without Wo) */
    as_matrix dV;      /* [m,d_v] Aᵀ·dO */
    as_matrix dA;      /* [n,m]  dO·Vᵀ (empty after a rows run, as dS and dQKT) */
    as_matrix rowdot;  /* [n,1]  Σ_j dA⊙A of each row */
    as_matrix dS;      /* [n,m]  A ⊙ (dA - rowdot): 0 in masked cells */
    as_matrix dQKT;    /* [n,m]  dS·scale */
    as_matrix dQr;     /* positions: rope: [n,d_k] d(QKᵀ)·Kr, the turned Qr's; else empty */
    as_matrix dKr;     /* positions: rope: [m,d_k] d(QKᵀ)ᵀ·Qr, the turned Kr's; else empty */
    as_matrix dQ;      /* [n,d_k] d(QKᵀ)·K; with rope dQr turned back (Rᵀ·dQr, positions.h) */
    as_matrix dK;      /* [m,d_k] d(QKᵀ)ᵀ·Q; with rope dKr turned back */
} as_grad_head;

/* Every gradient of one run, in book layout ([in, out] for W tables, also when the
 * input was given in layout: torch). A table that does not exist is empty (0 x 0):
 * dWo and dC without Wo, dbo without bo, dbq/dbk/dbv without their bias, dXkv for
 * self-attention. */
typedef struct as_grad {
    as_loss_kind loss_kind;
    double loss;                 /* L, meaningful unless loss_kind is AS_LOSS_GIVEN */
    as_matrix dO;                /* [n,d_out] */
    as_matrix dWo, dbo, dC;      /* [heads*d_v,d_out], [1,d_out], [n,heads*d_v] */
    size_t heads;
    as_grad_head *head;          /* heads entries */
    as_matrix dQ, dK, dV;        /* all heads side by side */
    as_matrix dWq, dWk, dWv;     /* the shapes of Wq, Wk, Wv */
    as_matrix dbq, dbk, dbv;     /* [1, width] */
    as_matrix dX, dXkv;          /* [n,d_model], [m,d_kv_model]; with a block, dX is the
                                    block's input X's (the attention's own is dN1 for pre) */
    /* the block (SPEC §15), empty without block: or where the block has no such table;
     * with a block, dO is the attention's output's and the loss is on Y (dY) */
    as_matrix dY, dH2, dD, dF, dG, dU; /* [n,d_model] or [n,d_ff]: the tables' gradients */
    as_matrix dZ;                /* swiglu: [n,d_ff] the gate's input N2·Wgate's */
    as_matrix dWdown, dbdown, dWup, dbup, dWgate; /* the FFN's weights' */
    as_matrix dN2, dH1, dN1;     /* dN1 (pre): what the attention read; post: dH1 only */
    as_matrix dR1, dR2;          /* post: the sums X + O and H1 + D that norm1, norm2 read */
    as_matrix dln_g[3], dln_b[3]; /* [1,d_model] γ's and β's of norm1, norm2, normf (each
                                     given or not: the norm's γ = 1 still has a gradient
                                     only when given; β none for RMSNorm) */
} as_grad;

/* The loss the input asks for and its dO: checks that exactly one of dO = [[...]],
 * loss: sum and loss: mse (with target) is given, with O's shape. The run t must be a
 * full or lean run of p (only its O is read). On success fills g->loss_kind, g->loss and
 * g->dO (g must be zeroed or fresh) and returns 0; otherwise -1 with err set in lang,
 * at the offending statement, with a hint. */
int as_grad_loss(as_grad *g, const as_problem *p, const as_trace *t, as_lang lang,
                 as_error *err);

/* The backward pass for the dO that as_grad_loss() put in g, reading the full run t
 * of p, or its rows run (as_attention_run_rows(), not a lean one): then each head's
 * n x m tables dA, dS and dQKT are not kept (left empty, so memory follows n, not n²:
 * SPEC §10), and every other table holds the same numbers bit for bit. Returns 0; or
 * -1 with err set (out of memory, or a gradient that left the double range, named with
 * its cell). Free g with as_grad_free() either way. */
int as_grad_run(as_grad *g, const as_problem *p, const as_trace *t, as_error *err);

/* One of head hd's n x m gradient tables a row at a time, for the renderers (SPEC §10:
 * an n x n table is written row by row as it is made): after a full run its matrix;
 * after a rows run each row made again, with the same bits as head_backward_rows()
 * made it, from that row of A (as_trace_row()), the head's dO, V and rowdot. Open it
 * with as_grad_rows_open(), read it through the as_rows that returns (a row is NULL
 * when memory ran out), close it with as_grad_rows_close(). */
typedef enum as_grad_square { AS_GRAD_DA, AS_GRAD_DS, AS_GRAD_DQKT } as_grad_square;

typedef struct as_grad_rows {
    const as_grad *g;
    const as_problem *p;
    const as_trace *t;
    size_t hd;
    as_grad_square which;
    as_row_trace r;
    double *room; /* [3m]: the row's dA, dS, d(QKᵀ) */
} as_grad_rows;

as_rows as_grad_rows_open(as_grad_rows *h, const as_grad *g, const as_problem *p,
                          const as_trace *t, size_t hd, as_grad_square which);
void as_grad_rows_close(as_grad_rows *h);

/* Frees every table of g and leaves it zeroed. */
void as_grad_free(as_grad *g);

#endif
