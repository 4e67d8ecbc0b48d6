/* ownchain.h - the student's own chain (SPEC §6): every table of the layer recomputed by
 * the chapter's steps from the student's own earlier tables (QKᵀ from their Q and K, S
 * from their QKᵀ, A from their S, O from their A and V), where they gave them, and from
 * the true steps where they did not; optionally with one step done another way (a named
 * mistake). A table that agrees with its step done on the student's own tables was done
 * right; which of the student's answers fed it says whether the error was carried. */
#ifndef ATTNSTEP_OWNCHAIN_H
#define ATTNSTEP_OWNCHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "attnstep/graded.h"
#include "attnstep/model.h"

/* One table of the chain. */
typedef struct as_chain_slot {
    as_matrix calc;   /* the step done on the own tables before it */
    as_matrix own;    /* calc with the student's answer (or rows) for this table laid over
                       * it: what the later steps start from */
    uint64_t *ctaint; /* per row of calc: the answers it comes from (bit i: graded answer
                       * i; answers past 63 share bit 63) */
    uint64_t *taint;  /* per row of own */
    as_matrix cerr;   /* [as calc]: how far the rounding of the written tables the step
                       * read can move each cell of calc (first order: Σ |∂cell/∂input| ×
                       * the input's half unit; SPEC §6, the interval rule) */
    as_matrix oerr;   /* [as own]: cerr, or half the unit of a cell the student wrote */
    int ok;           /* 0 when the step is undefined here (nothing readable in a row, a
                       * width the mistake cannot give): calc and own are then empty */
} as_chain_slot;

typedef struct as_chain {
    as_chain_slot *slot; /* the whole Q, K, V; then each head's Q, K, V, QKT, S, A, O;
                          * then C and the layer's O */
    size_t nslots;
} as_chain;

/* The bit of graded answer i in a taint. */
#define AS_CHAIN_BIT(i) ((uint64_t)1 << ((i) < 63 ? (i) : 63))

/* Runs the chain of problem p (M: the mask its run applied, the trace's M) with the
 * student's graded answers ans[0..n) (in the
 * book's order, each with its kind, head, row and given value) laid over it, with the
 * step of mistake v done that mistake's way (AS_DIAG_NONE: every step right). Returns
 * 0 and fills c (free with as_chain_free()), or -1 when memory ran out. */
int as_chain_run(as_chain *c, const as_problem *p, const as_matrix *M,
                 const as_table_grade *ans, size_t n, as_fit v);

/* Frees what c owns and leaves it empty. */
void as_chain_free(as_chain *c);

/* The slot of c that answer g is checked against. */
const as_chain_slot *as_chain_slot_of(const as_chain *c, const as_problem *p,
                                      const as_table_grade *g);

/* The mistakes tried on a wrong table, as chain variants: as_chain_variant(0) is the
 * right chain, then one per mistake (and per detail). */
#define AS_CHAIN_VARIANTS 21
as_fit as_chain_variant(size_t i);

/* One student's chains, each made when first asked for. */
struct as_chain_cache {
    const as_problem *p;
    const as_matrix *M;
    const as_table_grade *ans;
    size_t n;
    as_chain chain[AS_CHAIN_VARIANTS];
    int made[AS_CHAIN_VARIANTS];
};

/* Starts an empty cache for the answers ans[0..n) of problem p, whose run applied the
 * mask M. */
void as_chain_cache_init(as_chain_cache *c, const as_problem *p, const as_matrix *M,
                         const as_table_grade *ans, size_t n);

/* The chain of variant i, made on first use. Returns it, or NULL when memory ran out. */
const as_chain *as_chain_get(as_chain_cache *c, size_t i);

/* Frees every chain made. */
void as_chain_cache_free(as_chain_cache *c);

#endif
