/* graded.h - what grading says about one table: right or wrong, its wrong cells, and the
 * named mistake (SPEC §6). The types that grading (check.h), diagnosing (diagnose.h) and
 * the student's own chain (ownchain.h) share, below all three. */
#ifndef ATTNSTEP_GRADED_H
#define ATTNSTEP_GRADED_H

#include <stddef.h>
#include "attnstep/answers.h"
#include "attnstep/matrix.h"

/* The named mistakes of SPEC §6. */
typedef enum as_diag {
    AS_DIAG_NONE = 0,
    AS_DIAG_CARRIED_ERROR,      /* the step done right on the student's own wrong earlier table */
    AS_DIAG_NO_SCALE,           /* the scores not divided by sqrt(d_k) */
    AS_DIAG_SCALE_MULTIPLIED,   /* multiplied by sqrt(d_k) instead */
    AS_DIAG_SCALE_BY_DK,        /* divided by d_k instead of sqrt(d_k) */
    AS_DIAG_NO_MASK,            /* the mask left out */
    AS_DIAG_MASKED_ZERO,        /* 0 written where the mask puts -inf */
    AS_DIAG_INVERTED_MASK,      /* the mask turned round: the future readable, the past not */
    AS_DIAG_MASK_AFTER_SOFTMAX, /* softmax without the mask, forbidden shares then set to 0 */
    AS_DIAG_NO_NORMALIZE,       /* the exps not divided by their sum */
    AS_DIAG_SOFTMAX_COLUMNS,    /* softmax down the columns */
    AS_DIAG_TRANSPOSED,         /* the transpose of the right table */
    AS_DIAG_KEYS_FOR_VALUES,    /* O mixed from the Keys (A·K) */
    AS_DIAG_WRONG_WEIGHTS,      /* Q, K or V made with another W table */
    AS_DIAG_TORCH_LAYOUT,       /* a projection made with the transposed W (X@Wᵀ) */
    /* the output head and the draw (SPEC §19): named only where the order matters */
    AS_DIAG_TEMPERATURE_AFTER_SOFTMAX, /* T applied to the probabilities, not the logits */
    AS_DIAG_TOPP_DROPS_CROSSING,       /* top-p without the token that crosses P */
    AS_DIAG_TOPK_BEFORE_TEMPERATURE,   /* the cuts made on the logits before ÷T */
    /* the whole block's conventions (SPEC §15) */
    AS_DIAG_LN_UNBIASED,        /* σ² divided by d−1 where torch divides by d */
    AS_DIAG_LN_EPS_OUTSIDE,     /* ε added to σ instead of under the root */
    AS_DIAG_LN_NO_AFFINE,       /* γ and β forgotten */
    AS_DIAG_RMS_WITH_MEAN,      /* the mean subtracted in RMSNorm */
    AS_DIAG_GELU_TANH_FOR_ERF,  /* GELU's tanh approximation where the exact erf form is asked */
    AS_DIAG_GELU_ERF_FOR_TANH,  /* the exact GELU where the tanh approximation is asked */
    AS_DIAG_RELU_FOR_GELU,      /* ReLU where GELU is asked */
    AS_DIAG_NO_RESIDUAL,        /* the residual left out: the sublayer's output alone */
    AS_DIAG_RESIDUAL_FROM_NORMED, /* the normalised input added back (H1 = N1 + O) */
    AS_DIAG_POST_FOR_PRE,       /* the norm after the add where the block is pre */
    AS_DIAG_COUNT
} as_diag;

/* A mistake with its detail: for wrong_weights 3*made + used (0 Q, 1 K, 2 V: K made
 * with Wq is 3*1 + 0); for torch_layout the projection (0 Q, 1 K, 2 V); for
 * no_normalize 0 with the max subtracted, 1 without; else 0. */
typedef struct as_fit {
    as_diag diag;
    int detail;
} as_fit;

#define AS_MAX_FITS 6

/* One cell the student got wrong: its flat index into the expected table, and whether
 * it is wrong only for having too few decimals (--require-digits). */
typedef struct as_wrong_cell {
    size_t cell;
    int too_few;
} as_wrong_cell;

/* One graded table or row. */
typedef struct as_table_grade {
    char name[32];             /* canonical, as JSON prints it: "QKT", "S_h1", "s1", "o1" */
    as_answer_kind kind;
    long head;                 /* the head whose table it is, -1 for a whole-layer table */
    long row;                  /* the row answered (s1: 1), -1 for a whole table */
    size_t index;              /* its place among the student's graded answers */
    const as_answer *given;    /* borrowed from the answers, or own */
    as_answer *own;            /* a row of S or A written over the positions it reads
                                * ("s₂ = [0.7071, 1.4142]", as decode prints it), made
                                * whole: -inf (S) or 0 (A) where it reads nothing; given
                                * points here. Owned (as_grade_free()); else NULL */
    as_matrix expected;        /* a view into the trace (values borrowed, never freed): the
                                * whole table, or the one row a row answer names */
    size_t written;            /* the cells the student wrote: all of expected's, or only
                                * the positions read when the row was made whole (own) */
    int shape_ok;              /* 0 when the given shape differs from the expected one */
    int correct;               /* right: against the true values, or step by step from the
                                * student's own earlier tables that were only rounded */
    int credit;                /* 1 when right or carried_error, else 0 */
    as_wrong_cell *wrong;      /* nwrong cells (every cell when the shape differs); none
                                * when correct */
    size_t nwrong;
    as_diag diagnosis;         /* AS_DIAG_NONE when right, or when none or several fit */
    int detail;                /* the as_fit detail of the diagnosis */
    as_fit fits[AS_MAX_FITS];  /* when several mistakes fit equally: all of them */
    size_t nfits;
    char carried_from[64];     /* with carried_error: the student's wrong tables, "K, QKT" */
} as_table_grade;


/* Graded answers of one student, in the book's order, for the chains (ownchain.h). */
typedef struct as_chain_cache as_chain_cache;

#endif
