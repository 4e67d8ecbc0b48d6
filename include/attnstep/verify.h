/* verify.h - checking a book (SPEC §18): every number a chapter prints (chapter.h) that
 * the chapter's own X and W tables determine, recomputed by the run and judged as
 * `check` judges a student's cell (the author is the student): agreeing at the printed
 * digits, rounded differently (truncated), or wrong with the right value and, when one
 * of check's named mistakes reproduces the printed number, that mistake. Pure: no I/O. */
#ifndef ATTNSTEP_VERIFY_H
#define ATTNSTEP_VERIFY_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/chapter.h"
#include "attnstep/error.h"
#include "attnstep/graded.h"
#include "attnstep/render.h"

/* A printed number's verdict. */
typedef enum as_vverdict {
    AS_VF_AGREES = 0,  /* within half a unit of its last printed digit */
    AS_VF_TRUNCATED,   /* the right value cut at its last printed digit, not rounded */
    AS_VF_ROUNDED,     /* within one unit, not half: rounded the other way */
    AS_VF_WRONG,
    AS_VF_CARRIED,     /* wrong, but right from the printed tables it is made from, one of
                        * which is wrong: the mistake was made earlier (from) */
    AS_VF_VERDICTS
} as_vverdict;

/* The named variants of the tables check's mistakes do not cover: a sinusoidal table
 * (PE), a LayerNorm's sub-steps and output, a RoPE turn, an ALiBi bias. */
typedef enum as_vvariant {
    AS_VV_NONE = 0,
    AS_VV_PE_BASE_100,     /* PE[p][2i] = sin(p / 100^(2i/d)): base 100 for 10000 */
    AS_VV_PE_SWAPPED,      /* cos in the even columns, sin in the odd ones */
    AS_VV_LN_UNBIASED,     /* σ² ÷ (d−1) where torch divides by d */
    AS_VV_LN_EPS_OUTSIDE,  /* ε added to σ, not under the root: σ + ε */
    AS_VV_LN_ANNOTATED,    /* both: the Annotated Transformer's (σ unbiased) + ε */
    AS_VV_ROPE_PAIRING,    /* RoPE's pairs taken the other way (half for interleaved, or
                            * interleaved for half) */
    AS_VV_ALIBI_SIGN,      /* ALiBi's bias with its sign turned: +slope·(i−j) */
    AS_VV_VARIANTS
} as_vvariant;

/* One printed number, checked. */
typedef struct as_vnumber {
    const as_printed *item; /* borrowed from the chapter */
    long row, col;          /* its cell of the table (-1 for a square root) */
    double printed, unit;   /* as printed, and the unit of its last digit (0: exact) */
    double right;           /* recomputed */
    as_pos at;
    as_vverdict verdict;
    as_fit variant;         /* wrong: the named mistake that gives the printed number
                             * (diag AS_DIAG_NONE when none does) */
    as_vvariant vvariant;   /* a wrong number of a PE, norm or RoPE table: the variant
                             * that gives it (AS_VV_NONE when none does) */
    const as_printed *from;   /* carried: the first printing of the wrong table it comes
                               * from (borrowed from the chapter); else NULL */
} as_vnumber;

typedef struct as_verify {
    as_vnumber *num;        /* count, in the order printed */
    size_t count;
    size_t agree;           /* how many agree */
} as_verify;

/* Recomputes every printed number of ch from the tables it gives (X, Wq, Wk, Wv, and M
 * when printed; a PE table is added to X before the projections, and is itself
 * recomputed from its shape alone, so a chapter of PE tables needs no X), with the
 * settings it states (block: pre …); a printed Qr or Kr means RoPE, a B ALiBi, a table
 * of the block (N1 … Y, μ, σ², x̂) block: pre, unless the chapter says otherwise. Returns 0
 * and fills v (free with as_verify_free(); it borrows ch); or -1 with err set: the
 * chapter gives no X or W table, or prints a table or row the problem does not have
 * (another shape, a row past its last). */
int as_verify_chapter(as_verify *v, const as_chapter *ch, as_error *err);

/* Frees what v owns and leaves it empty. */
void as_verify_free(as_verify *v);

/* ---- The report (renderers only read v) ---- */

/* Text in o->lang: one line per number, FILE:LINE:COL, what it is, as printed, the
 * verdict (with the right value and the named mistake), then the count. */
int as_verify_text(FILE *out, const as_verify *v, const char *path, const as_render_opts *o);

/* Markdown an author pastes into an erratum: a table of the numbers that do not agree,
 * then the count. */
int as_verify_md(FILE *out, const as_verify *v, const char *path, const as_render_opts *o);

/* JSON: {"file", "numbers": [{"place", "line", "col", "name", "cell", "printed",
 * "recomputed", "verdict", "variant"}], "checked", "agree"} (−∞ as null). */
int as_verify_json(FILE *out, const as_verify *v, const char *path);

#endif
