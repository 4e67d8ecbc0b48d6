/* reader.c - the matrix grammar of SPEC §2, once, for every file the program reads (see
 * reader.h): rows and brackets, numbers in them, matrices side by side, plain rows, and
 * the messages about them. */
#include "attnstep/reader.h"
#include "attnstep/fastfloat.h"
#include "attnstep/i18n.h"
#include "attnstep/number.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEP_START, SEP_ITEM, SEP_COMMA };          /* what came last inside brackets */
enum { SHAPE_UNKNOWN, SHAPE_ROW, SHAPE_ROWS };    /* [1, 2] or [[1, 2], ...] */

/* ------------------------------------------------------------------ errors ---- */

void as_reader_init(as_reader *r, const char *path, as_error *err, const as_reader_hooks *hooks,
                    void *ctx)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->err = err;
    r->hooks = hooks;
    r->ctx = ctx;
}

as_pos as_reader_pos(as_reader *r, const char *q)
{
    as_pos at;

    at.line = r->c.line;
    at.col = as_cursor_col(&r->c, q);
    return at;
}

static int err_va(as_reader *r, const char *path, as_pos at, as_msg hint, as_msg msg,
                  va_list ap)
{
    as_error_vmsg(r->err, path != NULL ? path : r->path, at.line, at.col, msg, ap);
    if (hint != AS_RD_NO_HINT)
        as_error_hint_msg(r->err, hint);
    return -1;
}

int as_reader_err_pos(as_reader *r, const char *path, as_pos at, as_msg hint, as_msg msg, ...)
{
    va_list ap;
    int rc;

    va_start(ap, msg);
    rc = err_va(r, path, at, hint, msg, ap);
    va_end(ap);
    return rc;
}

int as_reader_err_at(as_reader *r, const char *q, as_msg hint, as_msg msg, ...)
{
    va_list ap;
    int rc;

    va_start(ap, msg);
    rc = err_va(r, NULL, as_reader_pos(r, q), hint, msg, ap);
    va_end(ap);
    return rc;
}

int as_reader_fail_memory(as_reader *r, const char *q)
{
    return as_reader_err_at(r, q, AS_MSG_RD_OUT_OF_MEMORY_HINT, AS_MSG_RD_OUT_OF_MEMORY);
}

void as_reader_quote(char out[64], const char *p, const char *end)
{
    size_t run = as_lex_run(p, end);

    if (run == 0)
        run = as_lex_char_len(p, end);
    as_lex_quote(out, 64, p, run);
}

int as_reader_number_error(as_reader *r, const char *p, size_t run, const char *why)
{
    char q[64];

    as_lex_quote(q, sizeof q, p, run);
    if (why == as_why_too_large)
        return as_reader_err_at(r, p, AS_MSG_RD_NUMBER_TOO_LARGE_HINT, AS_MSG_RD_NUMBER_TOO_LARGE, q);
    return as_reader_err_at(r, p, AS_MSG_RD_DIVIDES_BY_ZERO_HINT, AS_MSG_RD_DIVIDES_BY_ZERO, q);
}

/* ------------------------------------------------------------------ matrix values ---- */

static int too_large(as_reader *r, const as_rd_matrix *b, const char *at, as_msg what,
                     unsigned limit)
{
    return as_reader_err_at(r, at, AS_MSG_RD_TOO_LARGE_HINT, what, b->name, limit);
}

/* Makes room for need values in b (need is within the limits, checked before); -1 when
 * memory says no. */
static int grow(as_rd_matrix *b, size_t need)
{
    size_t cap = b->cap < 16 ? 16 : b->cap;
    double *v;

    if (need <= b->cap)
        return 0;
    if (b->flags & AS_RD_FIXED)
        return -1;
    while (cap < need)
        cap *= 2; /* geometric: reading n numbers costs O(n) copying in all */
    if (cap > AS_MAX_CELLS)
        cap = need;
    v = realloc(b->v, cap * sizeof *v);
    if (v == NULL)
        return -1;
    b->v = v;
    if (b->flags & AS_RD_UNITS) {
        v = realloc(b->u, cap * sizeof *v);
        if (v == NULL)
            return -1;
        b->u = v;
    }
    if (b->flags & AS_RD_PLACES) {
        as_pos *at = realloc(b->at, cap * sizeof *at);
        if (at == NULL)
            return -1;
        b->at = at;
    }
    b->cap = cap;
    return 0;
}

/* grow(), with the error at byte at when memory says no. */
static int reserve(as_reader *r, as_rd_matrix *b, size_t need, const char *at)
{
    return grow(b, need) != 0 ? as_reader_fail_memory(r, at) : 0;
}

/* Starts a row of b at byte at, checking the limits before making room for it. */
static int open_row(as_reader *r, as_rd_matrix *b, const char *at)
{
    if (b->rows > 0) {
        if (b->rows + 1 > AS_MAX_DIM)
            return too_large(r, b, at, AS_MSG_RD_TOO_MANY_ROWS, AS_MAX_DIM);
        if (!as_shape_ok(b->rows + 1, b->cols))
            return too_large(r, b, at, AS_MSG_RD_TOO_MANY_NUMBERS, AS_MAX_CELLS);
        if (reserve(r, b, (b->rows + 1) * b->cols, at) != 0)
            return -1;
    }
    b->row_pos = as_reader_pos(r, at);
    b->in_row = 0;
    b->depth = 2;
    b->sep = SEP_START;
    return 0;
}

/* Adds x (written as s[0..n)) to the row being read. Row 1 grows as it goes; a later
 * row has its room. */
static int put_number(as_reader *r, as_rd_matrix *b, double x, const char *s, size_t n)
{
    size_t at;

    if (b->rows == 0) {
        if (b->in_row >= AS_MAX_DIM)
            return too_large(r, b, s, AS_MSG_RD_TOO_MANY_COLUMNS, AS_MAX_DIM);
        if (reserve(r, b, b->in_row + 1, s) != 0)
            return -1;
        at = b->in_row;
    } else if (b->in_row < b->cols) {
        at = b->rows * b->cols + b->in_row;
    } else {
        b->in_row++; /* a too long row is counted, not stored: close_row reports it */
        return 0;
    }
    b->v[at] = x;
    if (b->flags & AS_RD_UNITS)
        b->u[at] = as_written_unit(s, n);
    if (b->flags & AS_RD_PLACES)
        b->at[at] = as_reader_pos(r, s);
    b->in_row++;
    return 0;
}

/* Ends the row being read: the first row fixes the width, every later row must match it. */
static int close_row(as_reader *r, as_rd_matrix *b)
{
    if (b->in_row == 0)
        return as_reader_err_pos(r, NULL, b->row_pos, AS_MSG_RD_EMPTY_ROW_HINT,
                                 AS_MSG_RD_EMPTY_ROW, b->rows, b->name);
    if (b->rows == 0)
        b->cols = b->in_row;
    else if (b->in_row != b->cols)
        return as_reader_err_pos(r, NULL, b->row_pos, AS_MSG_RD_ROW_WIDTH_HINT,
                                 b->in_row == 1 ? AS_MSG_RD_ROW_WIDTH_ONE : AS_MSG_RD_ROW_WIDTH,
                                 b->rows, b->name, b->in_row, b->cols);
    b->rows++;
    b->depth = 1;
    b->sep = SEP_ITEM;
    return 0;
}

/* A token inside a row that is not a usable number. */
static int cell_error(as_reader *r, const as_rd_matrix *b, const char *p, size_t run,
                      const char *why)
{
    char q[64];
    unsigned char first = (unsigned char)*p;

    if (why != NULL)
        return as_reader_number_error(r, p, run, why);
    as_reader_quote(q, p, r->c.end);
    if (run == 0)
        return as_reader_err_at(r, p,
                                r->hooks == NULL ? AS_MSG_RD_PLAIN_ROWS_HINT : AS_MSG_RD_SEPARATED_HINT,
                                AS_MSG_RD_UNEXPECTED_IN, q, b->name);
    if (as_lex_word_is(p, run, "nan"))
        return as_reader_err_at(r, p, AS_MSG_RD_NAN_HINT, AS_MSG_RD_NOT_ALLOWED_IN, q, b->name);
    if (!as_lex_number_start(p, r->c.end) &&
        (as_lex_ident_len(p, r->c.end) > 0 || first >= 0x80))
        return as_reader_err_at(r, p, AS_MSG_RD_NOTE_HINT, AS_MSG_RD_WORD_INSIDE, q, b->name);
    if (strstr(q, "\xE3\x80\x82") != NULL) { /* 。: the Chinese full stop for the point */
        char fixed[64];
        size_t i = 0, k = 0;
        while (q[i] != '\0' && k + 1 < sizeof fixed) {
            if (strncmp(q + i, "\xE3\x80\x82", 3) == 0) {
                fixed[k++] = '.';
                i += 3;
            } else {
                fixed[k++] = q[i++];
            }
        }
        fixed[k] = '\0';
        as_reader_err_at(r, p, AS_RD_NO_HINT, AS_MSG_RD_FULL_STOP_NUMBER, q);
        as_error_hint_msg(r->err, AS_MSG_RD_FULL_STOP_HINT, fixed);
        return -1;
    }
    return as_reader_err_at(r, p, AS_MSG_RD_NUMBER_FORM_HINT, AS_MSG_RD_NOT_A_NUMBER, q);
}

/* An infinity where b allows none, or +∞ where it allows -∞. */
static int infinity_error(as_reader *r, const as_rd_matrix *b, const char *p, size_t run)
{
    char q[64];

    as_lex_quote(q, sizeof q, p, run);
    if (!(b->flags & AS_RD_NEG_INF))
        return as_reader_err_at(r, p, AS_MSG_RD_INF_ONLY_IN_MASK_HINT, AS_MSG_RD_INF_ONLY_IN_MASK,
                                q);
    return as_reader_err_at(r, p, AS_MSG_RD_INF_MUST_BE_NEGATIVE_HINT,
                            AS_MSG_RD_INF_MUST_BE_NEGATIVE, q);
}

/* Reads the number at the cursor into the row being read. The hot path of load(): one
 * pass over the number, then one look at the byte after it (the token's whole extent is
 * measured only for an error message). */
static int read_cell(as_reader *r, as_rd_matrix *b)
{
    as_cursor *c = &r->c;
    const char *p = c->p, *why;
    size_t n;
    double x;

    n = as_parse_number(p, (size_t)(c->end - p), 1, &x, &why);
    if (n == 0 || !as_lex_at_delim(p + n, c->end))
        return cell_error(r, b, p, as_lex_run(p, c->end), why);
    if (isinf(x) && (!(b->flags & AS_RD_NEG_INF) || x > 0))
        return infinity_error(r, b, p, n);
    if (put_number(r, b, x, p, n) != 0)
        return -1;
    b->sep = SEP_ITEM;
    c->p = p + n;
    return 0;
}

/* Hands the finished matrix b to the file's store hook and takes it off the open list
 * (b is gone afterwards). */
static int close_matrix(as_reader *r, as_rd_matrix *b)
{
    size_t i = (size_t)(b - r->open);
    double *v = realloc(b->v, b->rows * b->cols * sizeof *v); /* give back the spare room */
    int rc;

    if (v != NULL)
        b->v = v;
    r->closed_here = b->name;
    r->last_name = b->name;
    r->last_rows = b->rows;
    r->last_cols = b->cols;
    rc = r->hooks->store(r, b);
    free(b->v);
    free(b->u);
    free(b->at);
    memmove(&r->open[i], &r->open[i + 1], (r->nopen - i - 1) * sizeof *b);
    r->nopen--;
    return rc;
}

/* ------------------------------------------------------------------ matrix bodies ---- */

/* Nonzero when the cursor stands at something a row piece may start with. */
static int at_piece(const as_cursor *c)
{
    return *c->p == '[' || *c->p == ']' || as_lex_comma(c->p, c->end) > 0 ||
           as_lex_number_start(c->p, c->end);
}

/* One step inside a row of b (depth 2). Returns 0 to go on, 1 when the row closed, 2
 * when b closed (and is gone from the open list), -1 on error. */
static int step_in_row(as_reader *r, as_rd_matrix *b)
{
    as_cursor *c = &r->c;
    const char *p = c->p;
    size_t k;

    if (*p == ']') {
        if (close_row(r, b) != 0)
            return -1;
        c->p++;
        if (b->shape != SHAPE_ROW)
            return 1;
        return close_matrix(r, b) != 0 ? -1 : 2; /* [1, 2]: the row's "]" closes it too */
    }
    if (*p == '[')
        return as_reader_err_at(r, p, AS_MSG_RD_LIST_OF_ROWS_HINT, AS_MSG_RD_TOO_DEEP, b->name);
    if ((k = as_lex_comma(p, c->end)) > 0) {
        if (b->sep != SEP_ITEM)
            return as_reader_err_at(r, p, AS_MSG_RD_COMMA_NUMBERS_HINT, AS_MSG_RD_UNEXPECTED_COMMA,
                                    b->name);
        b->sep = SEP_COMMA;
        c->p += k;
        return 0;
    }
    return read_cell(r, b);
}

/* A number between the rows of b: only a matrix that may be one row, [1, 2]. */
static int number_between_rows(as_reader *r, as_rd_matrix *b)
{
    if (b->shape == SHAPE_UNKNOWN && (b->flags & AS_RD_ONE_ROW)) {
        b->shape = SHAPE_ROW;
        b->depth = 2;
        b->row_pos = b->open;
        b->in_row = 0;
        b->sep = SEP_START;
        return 0;
    }
    return as_reader_err_at(r, r->c.p,
                            b->shape == SHAPE_UNKNOWN ? AS_MSG_RD_ONE_ROW_HINT
                                                      : AS_MSG_RD_OWN_BRACKETS_HINT,
                            AS_MSG_RD_NUMBER_OUTSIDE_ROW, b->name);
}

/* Something between the rows of b that is neither a bracket, a comma nor a number. */
static int word_between_rows(as_reader *r, const as_rd_matrix *b)
{
    const char *p = r->c.p;
    char q[64];

    as_reader_quote(q, p, r->c.end);
    return as_reader_err_at(r, p, AS_MSG_RD_NOTE_HINT,
                            as_lex_ident_len(p, r->c.end) > 0 || (unsigned char)*p >= 0x80
                                ? AS_MSG_RD_WORD_INSIDE
                                : AS_MSG_RD_UNEXPECTED_INSIDE,
                            q, b->name);
}

/* Nonzero when the cursor, after a row or a matrix, stands at a caption the book prints
 * beside it: words (a letter or a non-ASCII character first, no number, no bracket) that
 * are no statement of the file. */
static int at_caption(as_reader *r)
{
    const unsigned char b = (unsigned char)*r->c.p;

    if (b < 0x80 && !((b | 0x20) >= 'a' && (b | 0x20) <= 'z'))
        return 0;
    return !at_piece(&r->c) && !r->hooks->at_statement(&r->c, AS_RD_AFTER_MATRIX);
}

/* One step of b between its rows (depth 1). rows_read counts the rows this piece has
 * closed. Returns 0 to go on, 1 when this piece of b ends here, 2 when b closed (and is
 * gone from the open list), -1 on error. */
static int step_between_rows(as_reader *r, as_rd_matrix *b, int one_row, int rows_read)
{
    as_cursor *c = &r->c;
    const char *p = c->p;
    size_t k;

    if (*p == '[') {
        if (one_row && rows_read > 0)
            return 1; /* the next piece on this line belongs to the next open matrix */
        b->shape = SHAPE_ROWS;
        if (open_row(r, b, p) != 0)
            return -1;
        c->p++;
        return 0;
    }
    if (*p == ']') {
        if (b->shape == SHAPE_UNKNOWN)
            return as_reader_err_pos(r, NULL, b->open, AS_MSG_RD_EMPTY_MATRIX_HINT,
                                     AS_MSG_RD_EMPTY_MATRIX, b->name);
        c->p++;
        return close_matrix(r, b) != 0 ? -1 : 2;
    }
    if ((k = as_lex_comma(p, c->end)) > 0) {
        if (b->sep != SEP_ITEM)
            return as_reader_err_at(r, p, AS_MSG_RD_COMMA_ROWS_HINT, AS_MSG_RD_UNEXPECTED_COMMA,
                                    b->name);
        b->sep = SEP_COMMA;
        c->p += k;
        return 0;
    }
    if (as_lex_number_start(p, c->end))
        return number_between_rows(r, b);
    if (r->hooks->at_statement(c, 0))
        return 1; /* "NAME =": a matrix side by side with this one */
    if (b->rows > 0 && b->sep == SEP_COMMA && at_caption(r)) {
        as_cursor_skip_line(c); /* a caption after a row: X = [[1, 1],   第0行对应“我” */
        return 0;
    }
    return word_between_rows(r, b);
}

/* Reads the body of b from the current line: all of it, or with one_row one row piece
 * (the rest of a row, or one row, with the "]" and "," after it). Stops early at a
 * statement "NAME =" between rows. Returns 0 while b is open, 1 when it closed (b is
 * gone), -1 on error. */
static int feed(as_reader *r, as_rd_matrix *b, int one_row)
{
    as_cursor *c = &r->c;
    int rows_read = 0, rc;

    for (;;) {
        as_cursor_skip_blanks(c);
        if (as_cursor_at_stop(c))
            return 0;
        if (b->depth == 2) {
            rc = step_in_row(r, b);
            rows_read += rc == 1;
        } else {
            rc = step_between_rows(r, b, one_row, rows_read);
            if (rc == 1)
                return 0;
        }
        if (rc < 0)
            return -1;
        if (rc == 2)
            return 1;
    }
}

int as_reader_open(as_reader *r, int id, const char *name, unsigned flags)
{
    as_rd_matrix *b;

    if (r->nopen == AS_READ_MAX_OPEN)
        return as_reader_err_at(r, r->c.p, AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE_HINT,
                                AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE);
    b = &r->open[r->nopen++];
    memset(b, 0, sizeof *b);
    b->id = id;
    b->name = name;
    b->flags = flags;
    b->open = as_reader_pos(r, r->c.p);
    b->depth = 1;
    b->shape = SHAPE_UNKNOWN;
    b->sep = SEP_START;
    r->c.p++;
    return feed(r, b, 0) < 0 ? -1 : 0;
}

/* b is still open at the end of the file, or (line > 0) when a statement starts line. */
static int unclosed(as_reader *r, const as_rd_matrix *b, int line)
{
    const char *close = b->shape == SHAPE_ROW ? "]" : "]]";

    if (line > 0)
        return as_reader_err_pos(r, NULL, b->open, AS_MSG_RD_UNCLOSED_HINT,
                                 AS_MSG_RD_UNCLOSED_AT_LINE, b->name, close, line);
    return as_reader_err_pos(r, NULL, b->open, AS_MSG_RD_UNCLOSED_HINT, AS_MSG_RD_UNCLOSED_AT_END,
                             b->name, close);
}

void as_reader_drop(as_reader *r)
{
    size_t i;

    for (i = 0; i < r->nopen; i++) {
        free(r->open[i].v);
        free(r->open[i].u);
        free(r->open[i].at);
    }
    r->nopen = 0;
}

int as_reader_read_file(const char *path, as_error *err, char **text, size_t *len)
{
    static const as_pos no_pos = {0, 0};
    as_reader r; /* only for its errors */
    char why[128];
    int e;

    as_reader_init(&r, path, err, NULL, NULL);
    e = as_lex_read_file(path, 1, text, len);
    if (e == EISDIR)
        return as_reader_err_pos(&r, NULL, no_pos, AS_MSG_PS_A_DIRECTORY_HINT, AS_MSG_PS_A_DIRECTORY);
    if (e != 0)
        return as_reader_err_pos(&r, NULL, no_pos,
                                 e == ENOENT   ? AS_MSG_PS_CHECK_PATH_HINT
                                 : e == ENODEV ? AS_MSG_PS_NOT_REGULAR_HINT
                                               : AS_RD_NO_HINT,
                                 AS_MSG_PS_CANNOT_READ, as_msg_errno(why, sizeof why, err->lang, e));
    return 0;
}

/* ------------------------------------------------------------------ lines ---- */

int as_reader_stray(as_reader *r, size_t open_at_start)
{
    const char *p = r->c.p;
    char q[64];

    as_reader_quote(q, p, r->c.end);
    if (*p == '[' && open_at_start > 1)
        return as_reader_err_at(r, p, AS_MSG_RD_MORE_PIECES_HINT, AS_MSG_RD_MORE_PIECES);
    if (r->closed_here != NULL)
        return as_reader_err_at(r, p, AS_MSG_RD_TEXT_AFTER_HINT, AS_MSG_RD_TEXT_AFTER, q,
                                r->closed_here);
    if (at_piece(&r->c))
        return as_reader_err_at(r, p, AS_MSG_RD_NAME_FIRST_HINT, AS_MSG_RD_OUTSIDE, q);
    return as_reader_err_at(r, p, AS_MSG_RD_LINE_KINDS_HINT, AS_MSG_RD_UNEXPECTED_TEXT, q);
}

static as_rd_matrix *find_open(as_reader *r, int id)
{
    size_t i;

    for (i = 0; i < r->nopen; i++)
        if (r->open[i].id == id)
            return &r->open[i];
    return NULL;
}

/* ------------------------------------------------------------------ the book's lines ---- */

/* Nonzero when the "[" at p opens a table: a "[" or a number follows it (blanks between). */
static int opens_table(const char *p, const char *end)
{
    size_t k;

    if (p >= end || *p != '[')
        return 0;
    for (p++; (k = as_lex_blank(p, end)) > 0;)
        p += k;
    return p < end && (*p == '[' || as_lex_number_start(p, end));
}

const char *as_reader_formula_table(const as_cursor *c)
{
    const char *p = c->p, *q;
    size_t k;

    if (opens_table(p, c->end))
        return p; /* no formula: the table itself */
    for (; p < c->end && *p != '#' && as_lex_eol(p, c->end) == 0; p++) {
        if (*p == '=')
            q = p + 1;
        else if (c->end - p >= 3 && memcmp(p, "\xE2\x89\x88", 3) == 0) /* ≈ */
            q = p + 3;
        else
            continue;
        while ((k = as_lex_blank(q, c->end)) > 0)
            q += k;
        if (opens_table(q, c->end))
            return q;
    }
    return NULL;
}

/* Bytes of "形状：" or "shape:" (ASCII or full-width colon, blanks before it) at p. */
static size_t shape_key(const char *p, const char *end)
{
    const char *q = p;
    size_t k;

    if (end - q >= 6 && memcmp(q, "\xE5\xBD\xA2\xE7\x8A\xB6", 6) == 0)
        q += 6;
    else if (end - q >= 5 && as_lex_word_is(q, 5, "shape") && as_lex_ident_len(q, end) == 5)
        q += 5;
    else
        return 0;
    while ((k = as_lex_blank(q, end)) > 0)
        q += k;
    k = as_lex_colon(q, end);
    return k > 0 ? (size_t)(q + k - p) : 0;
}

/* A shape line that cannot be read (what: the message), at byte at. Returns -1. */
static int shape_error(as_reader *r, const char *at, as_msg what)
{
    return as_reader_err_at(r, at, AS_MSG_RD_SHAPE_HINT, what);
}

/* One whole number of a shape at the cursor, then blanks. 0 or -1. */
static int shape_number(as_reader *r, size_t *out)
{
    as_cursor *c = &r->c;
    const char *start = c->p;
    size_t n = 0;

    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && n < AS_MAX_CELLS)
        n = n * 10 + (size_t)(*c->p++ - '0');
    if (c->p == start)
        return shape_error(r, start, AS_MSG_RD_SHAPE_FORM);
    if (c->p < c->end && *c->p >= '0' && *c->p <= '9') { /* beyond any table: quoted whole */
        char q[64];

        while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
            c->p++;
        as_lex_quote(q, sizeof q, start, (size_t)(c->p - start));
        return as_reader_err_at(r, start, AS_MSG_RD_SHAPE_HINT_ROWS, AS_MSG_RD_SHAPE_TOO_LARGE, q,
                                r->last_name, r->last_rows, r->last_cols);
    }
    *out = n;
    as_cursor_skip_blanks(c);
    return 0;
}

/* "形状：[2,2] = [Token位置数, 每个位置的特征数]" after a matrix: its "[rows,cols]" must be
 * the shape of the matrix that closed last; the words after it are the book's. */
static int shape_line(as_reader *r, size_t key)
{
    as_cursor *c = &r->c;
    const char *at = c->p;
    size_t rows, cols, k;

    c->p += key;
    as_cursor_skip_blanks(c);
    if (r->last_name == NULL)
        return shape_error(r, at, AS_MSG_RD_SHAPE_FIRST);
    if (c->p >= c->end || *c->p != '[')
        return shape_error(r, c->p, AS_MSG_RD_SHAPE_FORM);
    c->p++;
    as_cursor_skip_blanks(c);
    if (shape_number(r, &rows) != 0)
        return -1;
    if ((k = as_lex_comma(c->p, c->end)) == 0)
        return shape_error(r, c->p, AS_MSG_RD_SHAPE_FORM);
    c->p += k;
    as_cursor_skip_blanks(c);
    if (shape_number(r, &cols) != 0)
        return -1;
    if (c->p >= c->end || *c->p != ']')
        return shape_error(r, c->p, AS_MSG_RD_SHAPE_FORM);
    if (rows != r->last_rows || cols != r->last_cols)
        return as_reader_err_at(r, at, AS_MSG_RD_SHAPE_HINT_ROWS, AS_MSG_RD_SHAPE_DIFFERS, rows, cols,
                                r->last_name, r->last_rows, r->last_cols);
    as_cursor_skip_line(c); /* " = [Token位置数, 每个位置的特征数]": the book's words */
    return 0;
}

/* Reads one physical line: row pieces for the matrices open when it starts (in order),
 * statements, and a comment; then steps over the line end. */
static int read_line(as_reader *r)
{
    as_cursor *c = &r->c;
    int queue[AS_READ_MAX_OPEN];
    size_t k = r->nopen, next = 0, i, key;
    int first = 1;
    as_rd_matrix *b;

    for (i = 0; i < k; i++)
        queue[i] = r->open[i].id;
    r->closed_here = NULL;
    for (;; first = 0) {
        as_cursor_skip_blanks(c);
        if (as_cursor_at_stop(c))
            break;
        while (next < k && find_open(r, queue[next]) == NULL)
            next++; /* closed earlier on this line */
        b = next < k ? find_open(r, queue[next]) : NULL;
        if (first && k == 0 && (key = shape_key(c->p, c->end)) > 0) {
            if (shape_line(r, key) != 0)
                return -1;
            continue;
        }
        if (first && k > 0 && r->hooks->at_statement(c, 1))
            return unclosed(r, &r->open[0], c->line); /* a row line never starts so */
        if (b != NULL && (b->depth == 2 || !r->hooks->at_statement(c, first))) {
            if (feed(r, b, k > 1) < 0)
                return -1;
            next++;
        } else if (r->closed_here != NULL && at_caption(r)) {
            as_cursor_skip_line(c); /* a caption after a matrix: [1,-1]]   第1行对应“爱” */
        } else if (as_lex_ident_len(c->p, c->end) > 0 || r->hooks->at_statement(c, first)) {
            if (r->hooks->statement(r, first) != 0)
                return -1;
        } else {
            return as_reader_stray(r, k);
        }
    }
    as_cursor_skip_line(c); /* the comment, if any */
    if (c->p < c->end)
        as_cursor_newline(c);
    return 0;
}

/* Nonzero when text looks like UTF-16: a byte order mark, or its first characters ASCII
 * each beside a NUL byte (every other byte NUL, the others printable, tabs or line ends). */
static int looks_utf16(const unsigned char *t, size_t len)
{
    size_t i, n = (len < 32 ? len : 32) & ~(size_t)1;
    int odd, even;

    if (len >= 2 && ((t[0] == 0xFF && t[1] == 0xFE) || (t[0] == 0xFE && t[1] == 0xFF)))
        return 1;
    for (odd = even = n >= 8, i = 0; i < n; i += 2) {
        odd &= t[i + 1] == 0 && (t[i] >= 0x20 || t[i] == '\n' || t[i] == '\r' || t[i] == '\t') &&
               t[i] < 0x7F;
        even &= t[i] == 0 &&
                (t[i + 1] >= 0x20 || t[i + 1] == '\n' || t[i + 1] == '\r' || t[i + 1] == '\t') &&
                t[i + 1] < 0x7F;
    }
    return odd || even;
}

/* Nonzero when text reads as GBK/GB18030: every byte above 0x80 starts a pair whose second
 * byte is in 0x40..0xFE (not 0x7F), and there are at least two pairs (one Chinese word). */
static int looks_gbk(const unsigned char *t, size_t len)
{
    size_t i, pairs = 0;

    for (i = 0; i < len; i++) {
        if (t[i] < 0x80)
            continue;
        if (t[i] == 0x80 || t[i] == 0xFF || i + 1 >= len || t[i + 1] < 0x40 ||
            t[i + 1] == 0x7F || t[i + 1] == 0xFF)
            return 0;
        i++;
        pairs++;
    }
    return pairs >= 2; /* one pair could be any stray byte */
}

/* A file that is not UTF-8 text: UTF-16 and GBK are named, with how to re-save them. */
static int not_utf8(as_reader *r, const char *text, size_t len, const char *bad, as_pos at)
{
    const unsigned char *t = (const unsigned char *)text;

    if (looks_utf16(t, len))
        return as_reader_err_pos(r, NULL, at, AS_MSG_HINT_RD_UTF16, AS_MSG_RD_UTF16);
    if (*bad == '\0')
        return as_reader_err_pos(r, NULL, at, AS_MSG_HINT_RD_NUL, AS_MSG_RD_NUL);
    if (looks_gbk(t, len))
        return as_reader_err_pos(r, NULL, at, AS_MSG_HINT_RD_GBK, AS_MSG_RD_GBK,
                                 (unsigned)(unsigned char)*bad);
    return as_reader_err_pos(r, NULL, at, AS_MSG_HINT_RD_UTF8, AS_MSG_RD_UTF8,
                             (unsigned)(unsigned char)*bad);
}

int as_reader_start(as_reader *r, const char *text, size_t len)
{
    const char *bad = as_lex_bad_byte(text, len);
    as_pos at;

    if (bad != NULL) {
        as_lex_locate(text, len, bad, &at.line, &at.col);
        return not_utf8(r, text, len, bad, at);
    }
    as_cursor_init(&r->c, text, len);
    return 0;
}

int as_reader_read_text(const char *path, as_error *err, const as_reader_hooks *hooks, void *ctx,
                        const char *text, size_t len)
{
    as_reader r;
    int rc;

    as_reader_init(&r, path, err, hooks, ctx);
    rc = as_reader_start(&r, text, len);
    if (rc == 0)
        rc = as_reader_lines(&r);
    as_reader_drop(&r);
    return rc;
}

int as_reader_lines(as_reader *r)
{
    while (r->c.p < r->c.end)
        if (read_line(r) != 0)
            return -1;
    if (r->nopen > 0)
        return unclosed(r, &r->open[0], 0);
    return 0;
}

/* ------------------------------------------------------------------ plain rows ---- */

/* After row 1 of a loaded matrix: guesses the rows from the bytes left and makes room
 * for them at once. Only a guess: when memory says no, growth goes on geometrically. */
static void presize(as_rd_matrix *b, const as_cursor *c, const char *row_start)
{
    size_t row_bytes = (size_t)(c->p - row_start) + 1;
    size_t rows = (size_t)(c->end - c->p) / row_bytes + 2;
    size_t most = AS_MAX_CELLS / b->cols;
    double *v;

    if (most > AS_MAX_DIM)
        most = AS_MAX_DIM;
    if (rows > most)
        rows = most;
    if (rows * b->cols <= b->cap || (b->flags & (AS_RD_UNITS | AS_RD_PLACES | AS_RD_FIXED)))
        return;
    v = realloc(b->v, rows * b->cols * sizeof *v);
    if (v != NULL) {
        b->v = v;
        b->cap = rows * b->cols;
    }
}

/* Reads one line of a loaded file as one row: numbers split by blanks or commas. */
static int plain_row(as_reader *r, as_rd_matrix *b)
{
    as_cursor *c = &r->c;
    const char *start = c->p;
    size_t k;

    if (open_row(r, b, start) != 0)
        return -1;
    for (;;) {
        if (read_cell(r, b) != 0)
            return -1;
        as_cursor_skip_blanks(c);
        if ((k = as_lex_comma(c->p, c->end)) > 0) {
            c->p += k;
            as_cursor_skip_blanks(c);
            if (as_lex_comma(c->p, c->end) > 0)
                return as_reader_err_at(r, c->p, AS_MSG_RD_COMMA_NUMBERS_HINT, AS_MSG_RD_TWO_COMMAS);
        }
        if (as_cursor_at_stop(c))
            break; /* a comma at the end of a line is forgiven */
    }
    if (close_row(r, b) != 0)
        return -1;
    if (b->rows == 1)
        presize(b, c, start);
    return 0;
}

int as_reader_plain_rows(as_reader *r, as_rd_matrix *b)
{
    as_cursor *c = &r->c;

    while (c->p < c->end) {
        as_cursor_skip_blanks(c);
        if (c->p < c->end && *c->p == '#')
            as_cursor_skip_line(c);
        if (c->p >= c->end)
            break;
        if (as_lex_eol(c->p, c->end) > 0)
            as_cursor_newline(c);
        else if (plain_row(r, b) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ quick rows ---- */

/* Sets of ASCII bytes below 64, one bit per byte: the blanks of as_lex_blank (the others
 * are for the full read), and what ends a row (a line end or a comment). One test each,
 * as they are asked after every number. */
#define BYTE_BIT(c) ((uint64_t)1 << (c))
#define QUICK_BLANKS (BYTE_BIT(' ') | BYTE_BIT('\t') | BYTE_BIT('\v') | BYTE_BIT('\f'))
#define QUICK_ROW_ENDS (BYTE_BIT('\n') | BYTE_BIT('\r') | BYTE_BIT('#'))

static int quick_in(char c, uint64_t set)
{
    return (unsigned char)c < 64 && (set >> (unsigned char)c & 1);
}

/* Past the blanks at p. */
static const char *quick_blanks(const char *p, const char *end)
{
    while (p < end && quick_in(*p, QUICK_BLANKS))
        p++;
    return p;
}

/* Past the gap after a number that ends at p: blanks, at most one comma, blanks. NULL when
 * the number does not end there (the ASCII delimiters of as_lex_at_delim but "[" and
 * "]": a blank, a comma, a line end, a comment or the end), or at a second comma. */
static const char *quick_gap(const char *p, const char *end)
{
    const char *q = quick_blanks(p, end);

    if (q < end && *q == ',') {
        q = quick_blanks(q + 1, end);
        if (q < end && *q == ',')
            return NULL; /* two commas: the full read names them */
    } else if (q == p && q < end && !quick_in(*q, QUICK_ROW_ENDS))
        return NULL; /* "1/2", "1x": the full read decides */
    return q;
}

/* Room for the numbers of the row being read after its first n: the rest of row 1's
 * width for a later row; for row 1, what the array holds (grown first when full), within
 * the limit. Returns where they go, or NULL when no more fit. */
static double *quick_room(as_rd_matrix *b, size_t n, size_t *room)
{
    if (b->rows > 0) {
        *room = b->cols - n;
        return b->v + b->rows * b->cols + n;
    }
    if (n >= AS_MAX_DIM || grow(b, n + 1) != 0)
        return NULL;
    *room = (b->cap < AS_MAX_DIM ? b->cap : AS_MAX_DIM) - n;
    return b->v + n;
}

/* One row at p (its first number): numbers split by blanks or commas, up to the line's
 * end or comment; the runs split by spaces alone are read by as_strtod_fast_spaced. Returns
 * where it stops, or NULL when the row is not one quick_rows reads: a number that is not
 * a finite plain decimal followed by a delimiter, or one that does not fit (a longer row
 * than row 1, the limits, memory). */
static const char *quick_row(as_rd_matrix *b, const char *p, const char *end)
{
    size_t n = 0, k, room = 0, i;
    const char *e;
    double *v;

    if (b->rows > 0 && (b->rows + 1 > AS_MAX_DIM || !as_shape_ok(b->rows + 1, b->cols) ||
                        grow(b, (b->rows + 1) * b->cols) != 0))
        return NULL;
    do {
        if ((v = quick_room(b, n, &room)) == NULL)
            return NULL;
        k = as_strtod_fast_spaced(p, end, v, room, &e); /* what as_parse_number gives */
        for (i = 0; i < k; i++)
            if (isinf(v[i]))
                return NULL; /* "1e999": the full read decides */
        if (k == 0 || (p = quick_gap(e, end)) == NULL)
            return NULL;
        n += k;
    } while (!(p >= end || quick_in(*p, QUICK_ROW_ENDS)));
    if (b->rows == 0)
        b->cols = n;
    else if (n != b->cols)
        return NULL;
    b->rows++;
    return p;
}

int as_reader_quick_rows(as_rd_matrix *b, const char *text, size_t len)
{
    const char *p = text, *end = text + len, *q;

    if (b->flags & AS_RD_UNITS)
        return -1;
    while (p < end) {
        p = quick_blanks(p, end);
        if (p < end && (*p == '-' || *p == '+' || *p == '.' || (unsigned)(*p - '0') < 10) &&
            (p = quick_row(b, p, end)) == NULL)
            return -1;
        if (p < end && *p == '#') { /* a comment: any valid UTF-8 text, to the line end */
            for (q = p; q < end && *q != '\n' && *q != '\r'; q++)
                ;
            if (as_lex_bad_byte(p, (size_t)(q - p)) != NULL)
                return -1;
            p = q;
        }
        if (p < end && *p != '\n' && *p != '\r')
            return -1; /* anything else is for the full read */
        p += as_lex_eol(p, end);
    }
    return 0;
}
