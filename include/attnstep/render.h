/* render.h - the renderers: each reads a problem and its trace and writes one format.
 * They never compute maths. */
#ifndef ATTNSTEP_RENDER_H
#define ATTNSTEP_RENDER_H

#include <stdio.h>
#include "attnstep/attention.h"
#include "attnstep/i18n.h"
#include "attnstep/model.h"
#include "attnstep/tables.h"
#include "attnstep/textblock.h"

/* The tables a user can pick with --only: as_table, from the registry (tables.h). */

typedef struct as_render_opts {
    as_lang lang;
    int digits;     /* decimal places shown, 0-17 */
    int ascii;      /* plain ASCII symbols */
    int color;      /* nonzero: ANSI colours */
    unsigned only;  /* bit (1u << as_table) per table to show; 0 shows all */
    long row;       /* trace: the receiving row, AS_ROW_LAST or AS_ROW_ALL */
    int step;       /* trace: 0 walks every step; 1 to 4 only that step of the chapter's
                       walk (scores, scaling, softmax, mixing), after the tables it
                       starts from and makes (--step N) */
    int heatmap;    /* run: a shaded grid of A after each A */
    int predict;    /* html: the worked-out values hidden until a guess is right */
    int formula;    /* text: the closing formula even when only is set */
    int qkv_beside; /* text: Q, K and V plainly named, side by side as the chapter's
                       whole-matrix part prints them (trace), not as "Q = X @ Wq = ..." */
} as_render_opts;

/* Parses a comma-separated --only list (X, W, Q, K, V, QKT/QKᵀ/QK^T, M, S, A, O, C; any
 * case for the letters). Returns 0 and sets *only; or -1 and points *bad at the
 * offending name (within list). */
int as_only_parse(const char *list, unsigned *only, const char **bad);

/* --row's two words: the last row, every row. */
enum { AS_ROW_LAST = -1, AS_ROW_ALL = -2 };

/* The rows [*first, *last] that row (a row, AS_ROW_LAST or AS_ROW_ALL) names among n.
 * Returns 0, or -1 when it names none of them. */
int as_row_span(long row, size_t n, size_t *first, size_t *last);

/* The words m in o's language: the one helper every renderer and report says its words
 * with. */
const char *as_say(const as_render_opts *o, as_msg m);

/* Nonzero when table t is to be shown under o. */
int as_shows(const as_render_opts *o, as_table t);

/* The name of table t as --only and JSON spell it ("QKT" for QKᵀ). */
const char *as_table_name(as_table t);

/* `run` as text in the book's format (SPEC §4). Returns 0, or -1 when writing failed. */
int as_render_text(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* `run --format json` (SPEC §9). Returns 0, or -1 when writing failed. */
int as_render_json(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* The same object without its closing "\n}\n", for a caller that adds members (run
 * --tiles). */
int as_render_json_members(FILE *out, const as_problem *p, const as_trace *t,
                           const as_render_opts *o);

/* `trace`: the hand calculation as the chapter walks it (SPEC §5), for the receiving row
 * o->row (AS_ROW_LAST, AS_ROW_ALL or a row); ignores o->only. Every number comes from t.
 * Returns 0; or -1 when o->row is no row of p, or writing failed. */
int as_render_trace(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* The tables trace --step s (1 to 4) starts from and makes, as bits (1u << as_table):
 * Q, K → QKᵀ; QKᵀ, M → S; S → A; A, V → O (0 for another s). */
unsigned as_trace_step_tables(int s);

/* Told, for a line of trace's walk, which cell it makes: (row, col) of table t of head
 * (col -1: every cell of the row; head 0 for a table no head owns). line is the line as
 * trace writes it (it may be told for several lines of one cell, in trace's order) and
 * holds only during the call. */
typedef void (*as_trace_line_fn)(void *ctx, as_table t, size_t head, size_t row, long col,
                                 const char *line);

/* Walks trace's lines of the projections (each row's input and its q, k and v; for
 * cross-attention each key's too), writing nothing, and tells fn of each line that makes
 * a cell. Returns 0, or -1 when memory ran out. */
int as_trace_lines_inputs(const as_problem *p, const as_trace *t, const as_render_opts *o,
                          as_trace_line_fn fn, void *ctx);

/* The same for receiving row i: who it reads (M's lines), then every head's steps and
 * the closing (the heads side by side, Wo) with s 0, or step s only (1 to 4: QKᵀ, S, A,
 * the head's output) -- one row's lines, as trace walks them (a rows trace makes the row
 * again), so a caller can go through the rows keeping one at a time. Returns 0, or -1
 * when memory ran out or i is no row. */
int as_trace_lines_row(const as_problem *p, const as_trace *t, const as_render_opts *o, size_t i,
                       int s, as_trace_line_fn fn, void *ctx);

/* ---- what other renderers (grad) share with run's text and JSON ---- */

/* Appends to out the table m the way run's text prints one: "EXPR = " (or "≈" when a
 * shown value is rounded), the bracketed matrix, and the lines of captions (or NULL)
 * beside it. (render_text.c) */
struct as_block;
void as_text_table(struct as_block *out, const char *expr, const as_matrix *m,
                   const struct as_block *captions, const as_render_opts *o);

/* As as_text_table(), for a table given row by row (each row read twice: to lay the
 * columns out, then to write them). */
void as_text_table_rows(struct as_block *out, const char *expr, const as_rows *r,
                        const struct as_block *captions, const as_render_opts *o);
/* ---- the whole block (SPEC §15): trace's walk of it (render_block.c) ---- */

/* trace: with pre, the walk of norm1 for rows first..last (after the inputs, before the
 * projections, which read N1); then, after the attention's rows, the rest of the block
 * for those rows: each residual cell by cell, each norm's μ, x−μ, σ², divisor, x̂ and
 * γ/β, the FFN's row before and after its activation. Nothing without a block. */
void as_trace_block_begin(struct as_block *out, const as_problem *p, const as_trace *t,
                          const as_render_opts *o, size_t first, size_t last);
void as_trace_block_rest(struct as_block *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o, size_t first, size_t last);

/* "LayerNorm" or "RMSNorm"; "GELU", "GELU_tanh", "ReLU" or "SwiGLU" (the ffn:'s). */
const char *as_block_norm_name(const as_problem *p);
const char *as_block_act_name(const as_problem *p);

/* Writes m as JSON rows of round-trip numbers, -inf as null. (render_json.c) */
void as_json_matrix(FILE *out, const as_matrix *m);

/* Writes s as a JSON string: quotes, backslashes and control characters escaped; UTF-8
 * as is; "<" as \u003c when out is the stream as_json_embed() named. (render_json.c) */
void as_json_string(FILE *out, const char *s);

/* Names out (NULL: none) as the stream a page embeds JSON in as it is written: until
 * the next call every JSON string written to out spells "<" as \u003c (it reads back the
 * same), and JSON has a "<" only inside a string, so no "</script>" can end the
 * element early (html_page.c). Strings are written from one thread. */
void as_json_embed(FILE *out);
/* The same for the rows of r (a matrix's on two threads when large). Returns 0, or -1
 * when a row could not be had. */
int as_json_rows(FILE *out, const as_rows *r);

/* Writes v as the shortest JSON number that reads back to it. (render_json.c) */
void as_json_number(FILE *out, double v);

/* ---- formats for documents: md, latex, csv, svg ---- */

/* One table of a run as the document formats show it. */
typedef struct as_table_view {
    as_table kind;            /* the --only name that selects it (Wq, bq, Wo... are W) */
    const char *name;         /* "X", "Xkv", "Wq", "bq", "Q", "QKT", "M", "S", "A", "O", "C" */
    int per_head;             /* nonzero when it is one head's table (name takes a subscript) */
    size_t head;              /* that head */
    const as_matrix *m;       /* the table as a full trace keeps it; for a rows trace's n x m
                                 tables an empty one: read r */
    as_rows r;                /* its rows (r.rows x r.cols), made again for a rows trace's
                                 n x m tables: valid only during the visit */
    const char *const *rows;  /* the rows' token labels, or NULL: numbered 0, 1, ... */
    const char *const *cols;  /* the columns' token labels, or NULL: numbered */
} as_table_view;

/* Called for each table; a nonzero return stops the walk. */
typedef int (*as_table_visit)(void *ctx, const as_table_view *v);

/* Visits every table that o shows, in the order `run` prints them (X, W, Q, K, V, each
 * head's QKT, M, S, A, O, then C and O). Returns 0, or what a visit returned to stop.
 * (Defined in render.c; md, latex, csv and the worksheet share it.) */
int as_each_table(const as_problem *p, const as_trace *t, const as_render_opts *o,
                  as_table_visit visit, void *ctx);

/* About how many numbers `run` (walked_rows 0) or `trace` walking walked_rows rows (each
 * a few numbers per readable position and head, before the whole-matrix form) prints
 * with o: for the note before a very long output. */
size_t as_numbers_estimate(const as_problem *p, const as_trace *t, const as_render_opts *o,
                           size_t walked_rows);

/* The output is long: more numbers than AS_HUGE_OUTPUT. */
#define AS_HUGE_OUTPUT 10000000u

/* labels[i], or i itself written into buf when the axis is numbered (labels NULL). */
const char *as_axis_label(char *buf, size_t size, const char *const *labels, size_t i);

/* positions: RoPE's formulas as text, in symbols or (ascii) plain: angle gets "p·θᵢ"
 * ("p*theta_i") and theta "θᵢ = 10000^(−2i/2)" for base and d_k. */
void as_rope_formula(char *angle, char *theta, size_t size, double base, size_t d_k, int ascii);

/* positions: ALiBi's bias as text, "−m·(i−j)", or for row >= 0 "−m·(1−j)" ("-m*(1-j)"). */
void as_alibi_formula(char *buf, size_t size, long row, int ascii);

/* Nonzero when any cell of m shows rounded at digits places (then ≈, else =). */
int as_matrix_rounded(const as_matrix *m, int digits);

/* The same for the rows of r: 1 or 0; or -1 when a row could not be had. */
int as_rows_rounded(const as_rows *r, int digits);

/* One of head hd's n x m tables (which: AS_T_QKT, AS_T_M, AS_T_B, AS_T_S or AS_T_A) a
 * row at a time: a full trace's matrix, or for a rows trace each row made again
 * (as_trace_row), so no n x m table is kept (SPEC §10). Open it with as_head_rows_open,
 * read it through the as_rows it returns (its row is NULL when the table does not exist:
 * B without alibi), close it with as_head_rows_close. */
typedef struct as_head_rows {
    const as_problem *p;
    const as_trace *t;
    size_t hd;
    as_table which;
    as_row_trace r;
} as_head_rows;

as_rows as_head_rows_open(as_head_rows *h, const as_problem *p, const as_trace *t, size_t hd,
                          as_table which);
void as_head_rows_close(as_head_rows *h);

/* 1 when the mask forbids any cell (read a row at a time, as as_head_rows gives it: a
 * rows trace keeps no mask), else 0; -1 when a row could not be had. */
int as_any_masked(const as_problem *p, const as_trace *t);

/* Writes the comment line naming v and its labels: "MARK A (head 0); rows: 我 爱;
 * columns: 我 爱" (csv with "#", latex with "%"). */
void as_view_comment(FILE *out, const char *mark, const as_table_view *v,
                     const as_render_opts *o);

/* The name of v as a heading writes it: "A", "A₀" or "Q₀K₀ᵀ" (QKT with the head's
 * subscript), "A[0]" with --ascii. (md, html) */
void as_view_name(char *buf, size_t size, const as_table_view *v, const as_render_opts *o);

/* Writes s with XML's (and HTML's) special characters escaped (& < > "); control
 * characters become '?'. (svg, html) */
void as_xml_text(FILE *out, const char *s);

/* The shade of share v as the heatmaps draw it: 0 for nothing, else its quarter 1..4
 * (0,0.25] (0.25,0.5] (0.5,0.75] (0.75,1]; as_share_range() names the quarter. */
int as_share_level(double v);
const char *as_share_range(int level);

/* Writes s with its Markdown syntax characters (| \\ * _ `) escaped. */
void as_md_text(FILE *out, const char *s);

/* `run --format md`: a Markdown table per table, token labels on the headers. */
int as_render_md(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* `run --format latex`: a bmatrix per table in \[ \], a fragment for slides (amsmath). */
int as_render_latex(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* Checks that only names exactly one table that csv can write alone (not W). Returns 0,
 * or -1 with a usage message in err. */
int as_csv_check(unsigned only, as_error *err);

/* `run --format csv --only T`: that one table, round-trip numbers, -inf as -inf, after
 * one `#` comment line (numpy.loadtxt skips it). A per-head table is head 0's. */
int as_render_csv(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* `run --format html` (SPEC §17): one self-contained page, each table a step, every
 * cell focusable with the line `trace` writes for it as its tooltip, A and S as
 * heatmaps, the run's JSON embedded for the script. Returns 0, or -1 when writing
 * failed or memory ran out. (render_html.c) */
int as_render_html(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* `trace --format html`: the page of as_render_html with, under each table, the lines of
 * trace that made it (every row). */
int as_render_html_trace(FILE *out, const as_problem *p, const as_trace *t,
                         const as_render_opts *o);

/* `run --format svg`: a self-contained SVG drawing each head's A as a heatmap with the
 * token labels on both axes and a colour scale. */
int as_render_svg(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o);

/* Appends to out the terminal heatmap of A [n,m]: a shaded grid (░▒▓█, or colours when
 * o->color) with p's tokens on both axes, the cells the mask M [n,m] forbids blank, and
 * its legend. */
struct as_block;
void as_heatmap(struct as_block *out, const as_problem *p, const as_rows *M, const as_rows *A,
                const as_render_opts *o);

#endif
