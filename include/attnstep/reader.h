/* reader.h - THE matrix grammar of SPEC §2, for every file the program reads (the
 * input, the files load() reads, ANSWERS): brackets, rows, numbers, matrices written
 * side by side as the book prints them, plain rows as numpy.savetxt writes them, and
 * every message about them. A file's own statements (settings, names, load()) are its
 * reader's business, handed in as hooks; everything between "[" and "]]" is here.
 *
 * The text is read line by line, left to right, with no recursion. A matrix that does
 * not close on the line that opens it stays "open"; each later line hands its row pieces
 * to the matrices still open, in the order they were opened (left to right in the book's
 * layout). With one matrix open the whole line is its; with several, each gets one piece:
 * the rest of a row, or one row, with the "]" and "," that follow it. A line that starts
 * with a statement is no row line: a matrix still open there lacks its "]]".
 *
 * The book pastes as printed (SPEC §2): the rest of a line after a row's closing "]" and
 * its comma, or after a matrix's "]]", is a caption (a comment) unless another matrix or
 * row piece starts there; a line "形状：[2,2] = […]" or "shape: [2,2] = […]" is checked
 * against the matrix that closed last. Errors stop the reading at the first one. */
#ifndef ATTNSTEP_READER_H
#define ATTNSTEP_READER_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/lex.h"
#include "attnstep/matrix.h"

#define AS_READ_MAX_OPEN 16 /* matrices open at once, side by side */

/* What a matrix may hold, beyond rows of finite numbers. */
enum {
    AS_RD_ONE_ROW = 1, /* may be one row in single brackets, [1, 2] (a bias, an answer) */
    AS_RD_NEG_INF = 2, /* may hold -inf (the mask M; the masked cells of an answer's S) */
    AS_RD_UNITS = 4,   /* record the unit of each number's last written digit in u */
    AS_RD_FIXED = 8,   /* v is a window of room cap in a larger array: never moved or grown */
    AS_RD_PLACES = 16  /* record where each number stands in at (a chapter's numbers are
                          reported at their place, SPEC §18) */
};

/* A position in a text: 1-based line, character column. */
typedef struct as_pos { int line, col; } as_pos;

/* A matrix being read. */
typedef struct as_rd_matrix {
    int id;           /* the caller's: which matrix it is (an as_mat_id, an answer's index) */
    const char *name; /* as messages name it ("X", "S"); the caller keeps it alive */
    unsigned flags;   /* AS_RD_* */
    as_pos open;      /* its first "[": an unclosed matrix is reported there */
    int depth;        /* 1 between rows, 2 inside a row */
    int shape;        /* decided by what follows the first "[" */
    int sep;          /* what came last inside brackets: a comma needs an item before it */
    size_t rows;      /* complete rows */
    size_t cols;      /* numbers in row 1, known once row 1 closes */
    size_t in_row;    /* numbers read in the current row (a too long one is counted only) */
    as_pos row_pos;   /* where the current row starts: a ragged row is reported there */
    double *v, *u;    /* [rows, cols] values and (AS_RD_UNITS) units, room for cap */
    as_pos *at;       /* [rows, cols] (AS_RD_PLACES) where each number stands, room for cap */
    size_t cap;
} as_rd_matrix;

typedef struct as_reader as_reader;

/* The "first" of at_statement after a matrix or a row on the same line, where the book
 * prints captions: only what would be a misplaced statement counts ("NAME =", or a
 * setting the file knows followed by ":"), not a caption such as "rows: …". */
#define AS_RD_AFTER_MATRIX 2

/* What a file adds to the grammar: its statements. */
typedef struct as_reader_hooks {
    /* Nonzero when the cursor stands at a statement: "NAME =" anywhere (a matrix side
     * by side), or anything else the file allows first on a line (first 1; see also
     * AS_RD_AFTER_MATRIX). */
    int (*at_statement)(const as_cursor *c, int first);
    /* Reads the statement at the cursor (an identifier stands there); it may open a
     * matrix with as_reader_open(). 0, or -1 with the error set. */
    int (*statement)(as_reader *r, int first);
    /* A matrix closed: the hook takes its values (v, u, at, rows, cols) and sets m->v,
     * m->u and m->at to NULL for what it keeps. 0, or -1 with the error set. */
    int (*store)(as_reader *r, as_rd_matrix *m);
} as_reader_hooks;

struct as_reader {
    const char *path;             /* the file name in errors */
    as_cursor c;
    as_error *err;
    const as_reader_hooks *hooks; /* NULL for plain rows */
    void *ctx;                    /* the hooks' own state */
    as_rd_matrix open[AS_READ_MAX_OPEN]; /* matrices open, in the order they were opened */
    size_t nopen;
    const char *closed_here;      /* name of the matrix that closed last on this line */
    const char *last_name;        /* the matrix that closed last in the file, and its */
    size_t last_rows, last_cols;  /* shape: what a 形状：/shape: line is checked against */
};

/* Starts r on path (kept, not copied) with err, hooks and ctx. */
void as_reader_init(as_reader *r, const char *path, as_error *err, const as_reader_hooks *hooks,
                    void *ctx);

/* Checks text[0..len) for NUL bytes and invalid UTF-8 (reporting the first one) and
 * sets the cursor at its start, past a BOM. 0 or -1. */
int as_reader_start(as_reader *r, const char *text, size_t len);

/* Reads every line from the cursor to the end (see the top of this file), then reports
 * a matrix still open. 0 or -1. */
int as_reader_lines(as_reader *r);

/* The whole reading of text[0..len) as a file's reader does it: init (path kept, not
 * copied), start, every line, and the matrices still open dropped. 0 or -1. */
int as_reader_read_text(const char *path, as_error *err, const as_reader_hooks *hooks, void *ctx,
                        const char *text, size_t len);

/* Opens a matrix at the "[" under the cursor, "NAME = [" having been read, and reads
 * what this line gives it. 0 or -1. */
int as_reader_open(as_reader *r, int id, const char *name, unsigned flags);

/* Reads the plain rows of a loaded file into m (fresh: id, name and flags set): one row
 * a line, numbers split by blanks or commas, "#" lines are comments. 0 or -1. */
int as_reader_plain_rows(as_reader *r, as_rd_matrix *m);

/* The quick way to read plain rows, for the files numpy.savetxt writes: reads the whole
 * lines text[0..len) into m (which holds the rows read before, possibly none) as
 * as_reader_plain_rows() would, without a cursor and without messages. It reads only
 * what is plain ASCII: finite decimals ([+-]digits[.digits][e[+-]digits]) split by
 * blanks or commas, line ends, and "#" comments of valid UTF-8. Returns 0 when it read
 * all of it, -1 at anything else (another byte or word, a fraction, an uneven or empty
 * row, two commas, a number out of range, the limits, memory, or m wanting units): the
 * caller then reads the text with as_reader_plain_rows(), which says what is wrong and
 * where. text need not be NUL-terminated; a line may end without a line end only where
 * the file does. */
int as_reader_quick_rows(as_rd_matrix *m, const char *text, size_t len);

/* Reads the whole file at path ("-" is standard input) into *text (the caller frees it)
 * and *len, as every reader of a file does (as_lex_read_file()). 0; or -1 with err set
 * (no such file, a directory, too large), nothing to free. */
int as_reader_read_file(const char *path, as_error *err, char **text, size_t *len);

/* Frees the values of every matrix still open. */
void as_reader_drop(as_reader *r);

/* Where byte q of the cursor's current line stands. */
as_pos as_reader_pos(as_reader *r, const char *q);

/* No hint: the hint id of an error that needs none. */
#define AS_RD_NO_HINT AS_MSG_COUNT

/* Records the error msg of the message table (with its arguments, see i18n.h) in the
 * user's language at position at of file path (r->path when NULL), with the hint of id
 * hint (or AS_RD_NO_HINT), and returns -1. */
int as_reader_err_pos(as_reader *r, const char *path, as_pos at, as_msg hint, as_msg msg, ...);

/* As as_reader_err_pos(), at byte q of the current line of r. */
int as_reader_err_at(as_reader *r, const char *q, as_msg hint, as_msg msg, ...);

/* Out of memory, at byte q. Returns -1. */
int as_reader_fail_memory(as_reader *r, const char *q);

/* A number that is a number but cannot be used (1e999, 1/0: why as as_parse_number()
 * set it), s[0..run) at the cursor's line. Returns -1. */
int as_reader_number_error(as_reader *r, const char *s, size_t run, const char *why);

/* Text at the cursor that is no statement and belongs to no matrix; open_at_start is
 * how many matrices were open when the line began. Returns -1. */
int as_reader_stray(as_reader *r, size_t open_at_start);

/* After "NAME =", the table, or a formula between the name and its table as the chapter
 * writes one (S = QKᵀ/√2 + M = [[…, A = 每行softmax(S) ≈ [[…, Q = X @ Wq = [[…, O = AV ≈
 * [[…, C = [O₀|O₁] = [[…): the "[" at the cursor when a "[" or a number follows it, else
 * the first "[" after an "=" or "≈" (blanks between) that a
 * "[" or a number follows, on the cursor's line before any "#"; NULL when there is none. */
const char *as_reader_formula_table(const as_cursor *c);

/* Quotes the token at p (at least one character) into out[64]. */
void as_reader_quote(char out[64], const char *p, const char *end);

#endif
