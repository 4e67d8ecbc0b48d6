/* chapter.h - a chapter's text as the book prints it (SPEC §18), read on the one matrix
 * grammar (reader.h): its blocks (X, Wq, Wk, Wv, M as given; Q, K, V, QKᵀ, S, A, O as
 * computed, with their captions and formula heads; PE, the sinusoidal encoding) and
 * the walk-through's lines
 * (`q₀ = x₀Wq = […] = [0,1]`, `q₁·k₀ = 1×1+0×0 = 1`, `缩放分数：…`, `减最大值：…`,
 * `取指数：…`, `指数之和：…`, `除以总和：…`, `输出第0格 = … ≈ …`, `o₁ ≈ […]`, `√2≈1.414214`);
 * the positions' tables (Qr, Kr, B) and the block's (N1 … Y, each norm's μ, σ², divisor
 * and x̂), and the lines that are settings (`block: pre`); every other line is prose
 * and skipped. Each printed number keeps its value, the unit
 * of its last written digit and its place. Pure: no I/O beyond the text handed in. */
#ifndef ATTNSTEP_CHAPTER_H
#define ATTNSTEP_CHAPTER_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/matrix.h"
#include "attnstep/reader.h"

/* What a printed block or line holds. */
typedef enum as_printed_what {
    AS_PR_INPUT = 0, /* a table the chapter gives (X, Wq …, M): input names its as_mat_id */
    AS_PR_Q, AS_PR_K, AS_PR_V,
    AS_PR_QKT,       /* raw scores: the block QKᵀ, a row (原始分数：), a cell (q₁·k₀ = … = 1) */
    AS_PR_SCALED,    /* a row of the scaled scores, before the mask (缩放分数：) */
    AS_PR_S,         /* the block S = QKᵀ/√d_k + M */
    AS_PR_SHIFTED,   /* a row less its max (减最大值：) */
    AS_PR_EXPS,      /* its exps (取指数：) */
    AS_PR_SUM,       /* their sum, one number (指数之和：) */
    AS_PR_A, AS_PR_O,
    AS_PR_C,         /* the heads' outputs side by side, C = [O₀|O₁] */
    AS_PR_PE,        /* a sinusoidal table PE [positions, d_model], positions from 0 */
    AS_PR_SQRT,      /* √N ≈ v: one number; arg is N */
    AS_PR_QR, AS_PR_KR, /* RoPE: Q and K turned pair by pair (Qr, Kr; a head's: Qr₀) */
    AS_PR_B,         /* ALiBi: the bias −slope·(i−j) a head adds to its scores */
    AS_PR_BLOCK,     /* a table of the whole block (N1, H1, N2, U, G, F, D, H2, Y): tab */
    AS_PR_MEAN,      /* a norm's sub-steps, one number per token (μ, σ², the divisor) */
    AS_PR_VAR,       /* or per cell (x̂): the norm whose output (N1, N2, Y; post: H1, H2) */
    AS_PR_DIV,       /* is printed next after them, else last before them */
    AS_PR_XHAT,
    AS_PR_KINDS
} as_printed_what;

/* One printed block, row or number. */
typedef struct as_printed {
    as_printed_what what;
    int input;        /* AS_PR_INPUT: the as_mat_id */
    long row, col;    /* the table's row and column its first cell is: -1 for all rows
                       * (a block), all columns (a row) */
    long head;        /* a block named with a head's subscript (Q₀, Q₀K₀ᵀ, S₁): that head;
                       * -1 otherwise (the layer's Q, K, V, O; the one head's QKᵀ, S, A) */
    double arg;       /* AS_PR_SQRT: the N of √N */
    int tab;          /* AS_PR_BLOCK: the registry's as_tab (AS_TAB_N1 … AS_TAB_Y) */
    as_matrix value;  /* [r, c] as printed (-inf where the book prints −∞) */
    as_matrix unit;   /* [r, c] the unit of each number's last written digit, 0 if exact */
    as_pos *at;       /* r * c places, one per number */
    as_pos pos;       /* where its name (or its line's key) stands */
    char name[48];    /* as the book writes it: "S", "q₁", "q₁·k₀", "指数之和" */
} as_printed;

typedef struct as_chapter {
    char *path;       /* the file name, for errors and reports */
    as_printed *item; /* count, in the order printed */
    size_t count;
    char *settings;   /* the lines that are settings of the input syntax (block: pre,
                       * norm_eps: 0.01, positions: rope …, SPEC §2), each on its own line
                       * number and every other line empty, for the one settings reader;
                       * NULL when the chapter has none */
    size_t settings_len;
} as_chapter;

/* Reads len bytes of chapter text (need not be NUL-terminated). Returns 0 and fills ch
 * (free with as_chapter_free()); or -1 with err set at the offending place (a block that
 * does not close, a number that cannot be read, a shape line that differs), ch empty. */
int as_chapter_parse(as_chapter *ch, const char *text, size_t len, const char *path,
                     as_error *err);

/* Frees everything in ch and leaves it empty. */
void as_chapter_free(as_chapter *ch);

#endif
