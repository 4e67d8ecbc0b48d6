/* parse.c - the input file (SPEC §2): settings, named matrices written inline (also side
 * by side, as the book prints them) and matrices loaded from numpy.savetxt files.
 *
 * The text is read line by line, left to right, with no recursion. A matrix that does
 * not close on the line that opens it stays "open"; each later line hands its row pieces
 * to the matrices still open, in the order they were opened (left to right in the book's
 * layout). With one matrix open the whole line is its; with several, each gets one piece:
 * the rest of a row, or one row, with the "]" and "," that follow it. A line that starts
 * with a statement is no row line: a matrix still open there lacks its "]]".
 * Errors stop the parse at the first one; everything allocated is freed. */
#include "attnstep/parse.h"
#include "attnstep/lex.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ------------------------------------------------------------------ names ---- */

static char ascii_lower(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

static int is_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static const char *const mat_names[AS_NMAT] = {"X",  "Xkv", "Wq", "Wk", "Wv", "Wo",
                                               "bq", "bk",  "bv", "bo", "M"};

static const char names_hint[] =
    "the matrices are X, Xkv, Wq, Wk, Wv, Wo, bq, bk, bv, bo and M (W_q, WQ, X_kv and the "
    "like are the same names)";

const char *as_mat_name(as_mat_id id)
{
    return (unsigned)id < AS_NMAT ? mat_names[id] : "?";
}

/* The id for a letter (x, w, b or m, any case) and a suffix (lowercase), or -1. */
static int mat_from_parts(char base, const char *suf)
{
    static const char qkvo[] = "qkvo";
    const char *hit;

    if (base == 'x')
        return suf[0] == '\0' ? AS_X : strcmp(suf, "kv") == 0 ? AS_XKV : -1;
    if (base == 'm')
        return suf[0] == '\0' ? AS_M : -1;
    if ((base != 'w' && base != 'b') || suf[0] == '\0' || suf[1] != '\0')
        return -1;
    hit = strchr(qkvo, suf[0]);
    if (hit == NULL)
        return -1;
    return (base == 'w' ? AS_WQ : AS_BQ) + (int)(hit - qkvo);
}

int as_mat_lookup(const char *name, size_t len)
{
    char suf[3];
    size_t i = 1, n = 0;

    if (name == NULL || len == 0 || len > 4)
        return -1;
    if (len > 1 && name[1] == '_') {
        i = 2; /* W_q, X_kv: the underscore must lead somewhere */
        if (len == 2)
            return -1;
    }
    for (; i < len; i++) {
        char ch = name[i];
        if (n == 2 || !is_letter(ch))
            return -1;
        suf[n++] = ascii_lower(ch);
    }
    suf[n] = '\0';
    if (!is_letter(name[0]))
        return -1;
    return mat_from_parts(ascii_lower(name[0]), suf);
}

static int is_bias(as_mat_id id)
{
    return id == AS_BQ || id == AS_BK || id == AS_BV || id == AS_BO;
}

/* ------------------------------------------------------------------ settings table ---- */

enum { SET_TITLE, SET_TOKENS, SET_KV_TOKENS, SET_MASK, SET_HEADS, SET_LAYOUT, SET_SCALE, NSET };

static const char *const set_names[NSET] = {"title", "tokens", "kv_tokens", "mask",
                                            "heads", "layout", "scale"};

static const char settings_hint[] =
    "the settings are title, tokens, kv_tokens, mask, heads, layout and scale";

/* Nonzero when s[0..n) equals the lowercase word w, ignoring ASCII case. */
static int word_is(const char *s, size_t n, const char *w)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (w[i] == '\0' || ascii_lower(s[i]) != w[i])
            return 0;
    return w[n] == '\0';
}

static int setting_lookup(const char *s, size_t n)
{
    int i;

    for (i = 0; i < NSET; i++)
        if (word_is(s, n, set_names[i]))
            return i;
    return -1;
}

/* ------------------------------------------------------------------ parser state ---- */

enum { SEP_START, SEP_ITEM, SEP_COMMA };          /* what came last inside brackets */
enum { SHAPE_UNKNOWN, SHAPE_ROW, SHAPE_ROWS };    /* [1, 2] or [[1, 2], ...] */

/* A matrix being read. */
typedef struct builder {
    as_mat_id id;
    as_pos open;    /* its first "[": an unclosed matrix is reported there */
    int depth;      /* 1 between rows, 2 inside a row */
    int shape;      /* SHAPE_*: decided by what follows the first "[" */
    int sep;        /* SEP_*: a comma needs an item before it */
    size_t rows;    /* complete rows */
    size_t cols;    /* numbers in row 1, known once row 1 closes */
    size_t in_row;  /* numbers read in the current row (a too long one is counted only) */
    as_pos row_pos; /* where the current row starts: a ragged row is reported there */
    double *v;      /* [rows, cols] values, room for cap */
    size_t cap;
} builder;

/* A text being read and the name its errors carry. */
typedef struct source {
    const char *path;
    as_cursor c;
} source;

typedef struct parser {
    source main;
    as_input *in;
    as_error *err;
    builder open[AS_NMAT]; /* matrices open, in the order they were opened */
    size_t nopen;
    int set_line[NSET];    /* line of each setting given, 0 while not given */
    size_t statements;
    int closed_here;       /* id of the matrix that closed last on this line, or -1 */
} parser;

static const as_pos no_pos = {0, 0};

static as_pos pos_at(source *src, const char *q)
{
    as_pos at;

    at.line = src->c.line;
    at.col = as_cursor_col(&src->c, q);
    return at;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);

    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ------------------------------------------------------------------ errors ---- */

/* Records an error at a position of file path, with a hint (or NULL). Returns -1 so that
 * a caller can `return fail_pos(...)`. */
static int fail_pos(parser *ps, const char *path, as_pos at, const char *hint, const char *fmt,
                    ...) PRINTF_LIKE(5, 6);
static int fail_pos(parser *ps, const char *path, as_pos at, const char *hint, const char *fmt,
                    ...)
{
    char msg[AS_ERR_MSG];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    as_error_set(ps->err, path, at.line, at.col, "%s", msg);
    if (hint != NULL)
        as_error_hint(ps->err, "%s", hint);
    return -1;
}

/* As fail_pos, at byte q of the current line of src. */
static int fail_at(parser *ps, source *src, const char *q, const char *hint, const char *fmt,
                   ...) PRINTF_LIKE(5, 6);
static int fail_at(parser *ps, source *src, const char *q, const char *hint, const char *fmt,
                   ...)
{
    char msg[AS_ERR_MSG];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail_pos(ps, src->path, pos_at(src, q), hint, "%s", msg);
}

static int fail_memory(parser *ps, source *src, const char *q)
{
    return fail_at(ps, src, q, "the input is larger than the memory this program may use",
                   "out of memory");
}

/* Quotes the token at p (at least one character) into out[64]. */
static void quote_token(char out[64], const char *p, const char *end)
{
    size_t run = as_lex_run(p, end);

    if (run == 0)
        run = as_lex_char_len(p, end);
    as_lex_quote(out, 64, p, run);
}

/* A number that is a number but cannot be used: 1e999, 1/0. */
static int number_error(parser *ps, source *src, const char *p, size_t run, const char *why)
{
    char q[64];

    as_lex_quote(q, sizeof q, p, run);
    if (why == as_why_too_large)
        return fail_at(ps, src, p, "a double holds numbers up to about 1.8e308",
                       "the number \"%s\" is too large", q);
    if (why == as_why_zero_denominator)
        return fail_at(ps, src, p, "the number below the fraction bar must not be 0",
                       "the fraction \"%s\" divides by zero", q);
    return fail_memory(ps, src, p);
}

/* ------------------------------------------------------------------ matrix values ---- */

static int too_large(parser *ps, source *src, const builder *b, const char *at, const char *what,
                     unsigned limit)
{
    return fail_at(ps, src, at,
                   "one table holds at most 16384 rows, 16384 columns and 67108864 numbers",
                   "matrix %s is too large: more than %u %s", as_mat_name(b->id), limit, what);
}

/* Makes room for need values in b (need is within the limits, checked before). */
static int reserve(parser *ps, source *src, builder *b, size_t need, const char *at)
{
    size_t cap = b->cap < 16 ? 16 : b->cap;
    double *v;

    if (need <= b->cap)
        return 0;
    while (cap < need)
        cap *= 2; /* geometric: reading n numbers costs O(n) copying in all */
    if (cap > AS_MAX_CELLS)
        cap = need;
    v = realloc(b->v, cap * sizeof *v);
    if (v == NULL)
        return fail_memory(ps, src, at);
    b->v = v;
    b->cap = cap;
    return 0;
}

/* Starts a row of b at byte at, checking the limits before making room for it. */
static int open_row(parser *ps, source *src, builder *b, const char *at)
{
    if (b->rows > 0) {
        if (b->rows + 1 > AS_MAX_DIM)
            return too_large(ps, src, b, at, "rows", AS_MAX_DIM);
        if (!as_shape_ok(b->rows + 1, b->cols))
            return too_large(ps, src, b, at, "numbers", AS_MAX_CELLS);
        if (reserve(ps, src, b, (b->rows + 1) * b->cols, at) != 0)
            return -1;
    }
    b->row_pos = pos_at(src, at);
    b->in_row = 0;
    b->depth = 2;
    b->sep = SEP_START;
    return 0;
}

/* Adds x to the row being read. Row 1 grows as it goes; a later row has its room. */
static int put_number(parser *ps, source *src, builder *b, double x, const char *at)
{
    if (b->rows == 0) {
        if (b->in_row >= AS_MAX_DIM)
            return too_large(ps, src, b, at, "columns", AS_MAX_DIM);
        if (reserve(ps, src, b, b->in_row + 1, at) != 0)
            return -1;
        b->v[b->in_row] = x;
    } else if (b->in_row < b->cols) {
        b->v[b->rows * b->cols + b->in_row] = x;
    }
    b->in_row++; /* a too long row is counted, not stored: close_row reports it */
    return 0;
}

/* Ends the row being read: row 1 fixes the width, every later row must match it. */
static int close_row(parser *ps, source *src, builder *b)
{
    const char *name = as_mat_name(b->id);

    if (b->in_row == 0)
        return fail_pos(ps, src->path, b->row_pos,
                        "write the numbers of the row between its brackets, e.g. [1, 2]",
                        "row %zu of %s is empty", b->rows + 1, name);
    if (b->rows == 0)
        b->cols = b->in_row;
    else if (b->in_row != b->cols)
        return fail_pos(ps, src->path, b->row_pos,
                        "every row of a matrix has the same number of columns",
                        "row %zu of %s has %zu number%s, but row 1 has %zu", b->rows + 1, name,
                        b->in_row, b->in_row == 1 ? "" : "s", b->cols);
    b->rows++;
    b->depth = 1;
    b->sep = SEP_ITEM;
    return 0;
}

/* A token inside a row that is not a usable number. */
static int cell_error(parser *ps, source *src, const builder *b, const char *p, size_t run,
                      const char *why)
{
    char q[64];
    const char *name = as_mat_name(b->id);
    unsigned char first = (unsigned char)*p;

    if (why != NULL)
        return number_error(ps, src, p, run, why);
    quote_token(q, p, src->c.end);
    if (run == 0)
        return fail_at(ps, src, p,
                       src != &ps->main ? "load() reads plain rows of numbers, as "
                                          "numpy.savetxt writes them"
                                        : "a matrix holds numbers separated by commas or spaces",
                       "unexpected \"%s\" in matrix %s", q, name);
    if (word_is(p, run, "nan"))
        return fail_at(ps, src, p, "every value must be a number; only the mask M may hold −∞",
                       "\"%s\" is not allowed in matrix %s", q, name);
    if (!as_lex_number_start(p, src->c.end) &&
        (is_letter((char)first) || first == '_' || first >= 0x80))
        return fail_at(ps, src, p,
                       "a matrix holds only numbers; to write a note beside it, start the "
                       "note with \"#\"",
                       "unexpected word \"%s\" inside matrix %s", q, name);
    return fail_at(ps, src, p,
                   "numbers look like 3, -0.5, .5, 1e-3, 1/2 or −1/4, with a comma or a space "
                   "between two of them",
                   "\"%s\" is not a number", q);
}

/* Reads the number at the cursor into the row being read. The hot path of load(): one
 * pass over the number, then one look at the byte after it (the token's whole extent is
 * measured only for an error message). */
static int read_cell(parser *ps, source *src, builder *b)
{
    as_cursor *c = &src->c;
    const char *p = c->p, *why;
    size_t run, n;
    double x;
    char q[64];

    n = as_parse_number(p, (size_t)(c->end - p), 1, &x, &why);
    if (n == 0 || !as_lex_at_delim(p + n, c->end))
        return cell_error(ps, src, b, p, as_lex_run(p, c->end), why);
    run = n;
    if (isinf(x) && b->id != AS_M) {
        as_lex_quote(q, sizeof q, p, run);
        return fail_at(ps, src, p,
                       "−∞ marks a position the mask forbids; every other matrix needs finite "
                       "numbers",
                       "\"%s\" is only allowed in the mask M", q);
    }
    if (isinf(x) && x > 0) {
        as_lex_quote(q, sizeof q, p, run);
        return fail_at(ps, src, p,
                       "in M, −∞ (write -inf or −∞) forbids a position and 0 allows it; +∞ "
                       "would leave the softmax undefined",
                       "\"%s\" in the mask M must be negative", q);
    }
    if (put_number(ps, src, b, x, p) != 0)
        return -1;
    b->sep = SEP_ITEM;
    c->p = p + n;
    return 0;
}

/* Moves the values of b into the input as a rows x cols matrix (b gives them up). */
static void store_matrix(parser *ps, builder *b)
{
    as_named *nm = &ps->in->mat[b->id];
    double *v = realloc(b->v, b->rows * b->cols * sizeof *v); /* give back the spare room */

    nm->m.rows = b->rows;
    nm->m.cols = b->cols;
    nm->m.v = v != NULL ? v : b->v;
    b->v = NULL;
    b->cap = 0;
    if (b->id == AS_M && ps->in->mask == AS_MASK_DEFAULT) {
        ps->in->mask = AS_MASK_CUSTOM; /* a setting mask: wins here; model.c reports both */
        ps->in->mask_pos = nm->pos;
    }
}

/* Stores the finished matrix b and takes it off the open list (b is gone afterwards). */
static void close_matrix(parser *ps, builder *b)
{
    size_t i = (size_t)(b - ps->open);

    store_matrix(ps, b);
    ps->closed_here = (int)b->id;
    memmove(&ps->open[i], &ps->open[i + 1], (ps->nopen - i - 1) * sizeof *b);
    ps->nopen--;
}

/* ------------------------------------------------------------------ words ---- */

static int ident_start(const char *p, const char *end)
{
    return p < end && (is_letter(*p) || *p == '_');
}

static size_t ident_len(const char *p, const char *end)
{
    const char *s = p;

    while (s < end && (ident_start(s, end) || (*s >= '0' && *s <= '9')))
        s++;
    return (size_t)(s - p);
}

/* Bytes of a colon at p: ":" or the full-width "：" (U+FF1A); else 0. */
static size_t colon_len(const char *p, const char *end)
{
    if (p < end && *p == ':')
        return 1;
    if (end - p >= 3 && memcmp(p, "\xEF\xBC\x9A", 3) == 0)
        return 3;
    return 0;
}

/* The first byte after the word at p and the blanks that follow it. */
static const char *after_word(const char *p, const char *end)
{
    size_t k;

    p += ident_len(p, end);
    while ((k = as_lex_blank(p, end)) > 0)
        p += k;
    return p;
}

/* Nonzero when the cursor stands at "NAME =" (a matrix side by side) or, when first
 * on its line, at "key:" (a setting). */
static int at_statement(const as_cursor *c, int first)
{
    const char *q;

    if (!ident_start(c->p, c->end))
        return 0;
    q = after_word(c->p, c->end);
    return (q < c->end && *q == '=') || (first && colon_len(q, c->end) > 0);
}

/* Nonzero when the cursor stands at something a row piece may start with. */
static int at_piece(const as_cursor *c)
{
    return *c->p == '[' || *c->p == ']' || as_lex_comma(c->p, c->end) > 0 ||
           as_lex_number_start(c->p, c->end);
}

/* ------------------------------------------------------------------ matrix bodies ---- */

/* One step inside a row of b (depth 2). Returns 0 to go on, 1 when the row closed, 2
 * when b closed (and is gone from the open list), -1 on error. */
static int step_in_row(parser *ps, builder *b)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    const char *p = c->p;
    size_t k;

    if (*p == ']') {
        if (close_row(ps, src, b) != 0)
            return -1;
        c->p++;
        if (b->shape != SHAPE_ROW)
            return 1;
        close_matrix(ps, b); /* [1, 2]: the row's "]" closes the bias too */
        return 2;
    }
    if (*p == '[')
        return fail_at(ps, src, p, "a matrix is a list of rows: X = [[1, 2], [3, 4]]",
                       "too many \"[\" in matrix %s: brackets nest two deep at most",
                       as_mat_name(b->id));
    if ((k = as_lex_comma(p, c->end)) > 0) {
        if (b->sep != SEP_ITEM)
            return fail_at(ps, src, p, "a comma stands between two numbers",
                           "unexpected \",\" in matrix %s", as_mat_name(b->id));
        b->sep = SEP_COMMA;
        c->p += k;
        return 0;
    }
    return read_cell(ps, src, b);
}

/* A number between the rows of b: only a bias may be a single row [1, 2]. */
static int number_between_rows(parser *ps, builder *b)
{
    source *src = &ps->main;

    if (b->shape == SHAPE_UNKNOWN && is_bias(b->id)) {
        b->shape = SHAPE_ROW;
        b->depth = 2;
        b->row_pos = b->open;
        b->in_row = 0;
        b->sep = SEP_START;
        return 0;
    }
    return fail_at(ps, src, src->c.p,
                   b->shape == SHAPE_UNKNOWN
                       ? "only a bias (bq, bk, bv, bo) may be one row in single brackets; "
                         "write e.g. X = [[1, 2], [3, 4]]"
                       : "each row is written in its own brackets: [[1, 2], [3, 4]]; is a "
                         "\"[\" missing?",
                   "a number outside a row of matrix %s", as_mat_name(b->id));
}

/* One step of b between its rows (depth 1). rows_read counts the rows this piece has
 * closed. Returns 0 to go on, 1 when this piece of b ends here, 2 when b closed (and is
 * gone from the open list), -1 on error. */
static int step_between_rows(parser *ps, builder *b, int one_row, int rows_read)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    const char *p = c->p;
    size_t k;
    char q[64];

    if (*p == '[') {
        if (one_row && rows_read > 0)
            return 1; /* the next piece on this line belongs to the next open matrix */
        b->shape = SHAPE_ROWS;
        if (open_row(ps, src, b, p) != 0)
            return -1;
        c->p++;
        return 0;
    }
    if (*p == ']') {
        if (b->shape == SHAPE_UNKNOWN)
            return fail_pos(ps, src->path, b->open, "write its rows, e.g. X = [[1, 2], [3, 4]]",
                            "matrix %s is empty", as_mat_name(b->id));
        c->p++;
        close_matrix(ps, b);
        return 2;
    }
    if ((k = as_lex_comma(p, c->end)) > 0) {
        if (b->sep != SEP_ITEM)
            return fail_at(ps, src, p, "a comma stands between two rows",
                           "unexpected \",\" in matrix %s", as_mat_name(b->id));
        b->sep = SEP_COMMA;
        c->p += k;
        return 0;
    }
    if (as_lex_number_start(p, c->end))
        return number_between_rows(ps, b);
    if (at_statement(c, 0))
        return 1; /* "NAME =": a matrix side by side with this one */
    quote_token(q, p, c->end);
    return fail_at(ps, src, p,
                   "a matrix holds only numbers; to write a note beside it, start the note "
                   "with \"#\"",
                   "unexpected %s\"%s\" inside matrix %s",
                   ident_start(p, c->end) || (unsigned char)*p >= 0x80 ? "word " : "", q,
                   as_mat_name(b->id));
}

/* Reads the body of b from the current line: all of it, or with one_row one row piece
 * (the rest of a row, or one row, with the "]" and "," after it). Stops early at a
 * statement "NAME =" between rows. Returns 0 while b is open, 1 when it closed (b is
 * gone), -1 on error. */
static int feed(parser *ps, builder *b, int one_row)
{
    as_cursor *c = &ps->main.c;
    int rows_read = 0, rc;

    for (;;) {
        as_cursor_skip_blanks(c);
        if (as_cursor_at_stop(c))
            return 0;
        if (b->depth == 2) {
            rc = step_in_row(ps, b);
            rows_read += rc == 1;
        } else {
            rc = step_between_rows(ps, b, one_row, rows_read);
            if (rc == 1)
                return 0;
        }
        if (rc < 0)
            return -1;
        if (rc == 2)
            return 1;
    }
}

/* "NAME = [": opens a matrix at the cursor and reads what this line gives it. */
static int open_matrix(parser *ps, as_mat_id id)
{
    source *src = &ps->main;
    builder *b = &ps->open[ps->nopen++]; /* each name once: never more than AS_NMAT */

    memset(b, 0, sizeof *b);
    b->id = id;
    b->open = pos_at(src, src->c.p);
    b->depth = 1;
    b->shape = SHAPE_UNKNOWN;
    b->sep = SEP_START;
    src->c.p++;
    return feed(ps, b, 0) < 0 ? -1 : 0;
}

/* b is still open at the end of the file, or (line > 0) when a statement starts line. */
static int unclosed(parser *ps, const builder *b, int line)
{
    char where[64] = "the end of the file";

    if (line > 0)
        snprintf(where, sizeof where, "line %d", line);
    return fail_pos(ps, ps->main.path, b->open,
                    "every row ends with \"]\", and the matrix with one more \"]\"",
                    "unclosed matrix %s: expected \"%s\" before %s", as_mat_name(b->id),
                    b->shape == SHAPE_ROW ? "]" : "]]", where);
}

/* ------------------------------------------------------------------ files ---- */

/* Checks a whole text for NUL bytes and invalid UTF-8, reporting the first one. */
static int check_text(parser *ps, const char *path, const char *text, size_t len)
{
    const char *bad = as_lex_bad_byte(text, len);
    as_pos at;

    if (bad == NULL)
        return 0;
    as_lex_locate(text, len, bad, &at.line, &at.col);
    if (*bad == '\0')
        return fail_pos(ps, path, at, "an input is plain UTF-8 text; is this a binary file?",
                        "the file holds a NUL byte");
    return fail_pos(ps, path, at, "save the file as UTF-8 text",
                    "invalid UTF-8 (byte 0x%02x)", (unsigned)(unsigned char)*bad);
}

/* Why a file could not be read, in words. */
static const char *read_reason(int e)
{
    switch (e) {
    case ENOENT:
        return "no such file";
    case EISDIR:
        return "it is a directory, not a file";
    case EACCES:
        return "permission denied";
    case ENOMEM:
        return "out of memory";
    case EFBIG:
        return "it is larger than 2 GiB, the most one input file may hold";
    case ENODEV:
        return "not a regular file"; /* load() takes files, not devices or pipes */
    default:
        return strerror(e);
    }
}

/* The path of load("name") from an input at input_path: relative to its folder. */
static char *resolve(const char *input_path, const char *name, size_t n)
{
    const char *slash = strrchr(input_path, '/');
    size_t dir = 0;
    char *out;

    if (name[0] != '/' && strcmp(input_path, "-") != 0 && slash != NULL)
        dir = (size_t)(slash - input_path) + 1; /* keep the "/" */
    out = malloc(dir + n + 1);
    if (out != NULL) {
        memcpy(out, input_path, dir);
        memcpy(out + dir, name, n);
        out[dir + n] = '\0';
    }
    return out;
}

/* ------------------------------------------------------------------ load() ---- */

/* After row 1 of a loaded matrix: guesses the rows from the bytes left and makes room
 * for them at once. Only a guess: when memory says no, growth goes on geometrically. */
static void presize(builder *b, const as_cursor *c, const char *row_start)
{
    size_t row_bytes = (size_t)(c->p - row_start) + 1;
    size_t rows = (size_t)(c->end - c->p) / row_bytes + 2;
    size_t most = AS_MAX_CELLS / b->cols;
    double *v;

    if (most > AS_MAX_DIM)
        most = AS_MAX_DIM;
    if (rows > most)
        rows = most;
    if (rows * b->cols <= b->cap)
        return;
    v = realloc(b->v, rows * b->cols * sizeof *v);
    if (v != NULL) {
        b->v = v;
        b->cap = rows * b->cols;
    }
}

/* Reads one line of a loaded file as one row: numbers split by blanks or commas. */
static int load_row(parser *ps, source *src, builder *b)
{
    as_cursor *c = &src->c;
    const char *start = c->p;
    size_t k;

    if (open_row(ps, src, b, start) != 0)
        return -1;
    for (;;) {
        if (read_cell(ps, src, b) != 0)
            return -1;
        as_cursor_skip_blanks(c);
        if ((k = as_lex_comma(c->p, c->end)) > 0) {
            c->p += k;
            as_cursor_skip_blanks(c);
            if (as_lex_comma(c->p, c->end) > 0)
                return fail_at(ps, src, c->p, "a comma stands between two numbers",
                               "two commas with no number between them");
        }
        if (as_cursor_at_stop(c))
            break; /* a comma at the end of a line is forgiven */
    }
    if (close_row(ps, src, b) != 0)
        return -1;
    if (b->rows == 1)
        presize(b, c, start);
    return 0;
}

/* Reads every row of a loaded file into b; "#" lines (numpy's header=) are comments. */
static int load_rows(parser *ps, source *src, builder *b)
{
    as_cursor *c = &src->c;

    while (c->p < c->end) {
        as_cursor_skip_blanks(c);
        if (c->p < c->end && *c->p == '#')
            as_cursor_skip_line(c);
        if (c->p >= c->end)
            break;
        if (as_lex_eol(c->p, c->end) > 0)
            as_cursor_newline(c);
        else if (load_row(ps, src, b) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ load() on two threads ---- */

/* A loaded file of at least this many bytes is read in two halves at once, split at the
 * start of a line: no row, comment or UTF-8 character spans the split, so each half
 * reads as a file of its own. Only a clean read is kept: an error in either half, or
 * halves that do not fit together (widths, limits), and the file is read again in one
 * piece, which reports the first error in file order at its exact line and column. */
#define SPLIT_MIN ((size_t)1 << 20)

/* One half: a parser of its own (the same settings, its own error record, never
 * shown) and the rows it read. */
typedef struct half {
    parser ps;
    as_error err;
    source src;
    builder b;
    const char *text;
    size_t len;
    int rc;
} half;

static void half_init(half *h, const parser *ps, const source *src, as_mat_id id,
                      const char *text, size_t len)
{
    h->ps = *ps;
    h->ps.err = &h->err;
    as_error_init(&h->err, ps->err->lang);
    h->src.path = src->path;
    memset(&h->b, 0, sizeof h->b);
    h->b.id = id;
    h->text = text;
    h->len = len;
    h->rc = -1;
}

/* The thread body: the rows of one half, when all of its bytes are valid text. */
static void *read_half(void *arg)
{
    half *h = arg;

    if (as_lex_bad_byte(h->text, h->len) == NULL) {
        as_cursor_init(&h->src.c, h->text, h->len);
        h->rc = load_rows(&h->ps, &h->src, &h->b);
    }
    return NULL;
}

/* Where the second half starts: just after the first "\n" past the middle; 0 when there
 * is none, or when a BOM stands there (it would be skipped as the file's mark). */
static size_t split_point(const char *text, size_t len)
{
    const char *nl = memchr(text + len / 2, '\n', len - len / 2);
    size_t at = nl != NULL ? (size_t)(nl + 1 - text) : 0;

    if (at >= len || (len - at >= 3 && memcmp(text + at, "\xEF\xBB\xBF", 3) == 0))
        return 0;
    return at;
}

/* Appends the rows of tail to head; -1 when their widths differ or the whole is over the
 * limits (which the reading in one piece then reports where it happens). */
static int join_halves(builder *head, builder *tail)
{
    size_t rows = head->rows + tail->rows, cols = head->rows > 0 ? head->cols : tail->cols;
    double *v;

    if (tail->rows == 0)
        return 0; /* notes and blank lines only */
    if (head->rows > 0 && tail->cols != head->cols)
        return -1;
    if (rows > AS_MAX_DIM || !as_shape_ok(rows, cols))
        return -1;
    v = realloc(head->v, rows * cols * sizeof *v);
    if (v == NULL)
        return -1;
    memcpy(v + head->rows * cols, tail->v, tail->rows * cols * sizeof *v);
    head->v = v;
    head->cap = rows * cols;
    head->rows = rows;
    head->cols = cols;
    return 0;
}

/* Reads text[0..len) into b (fresh) on two threads; 0 when that gave the whole matrix,
 * -1 when the file is small, has no split point, or did not read cleanly in halves. */
static int load_in_halves(const parser *ps, const source *src, builder *b, const char *text,
                          size_t len)
{
    half h[2];
    pthread_t second;
    size_t at = len >= SPLIT_MIN ? split_point(text, len) : 0;
    int rc = -1;

    if (at == 0)
        return -1;
    half_init(&h[0], ps, src, b->id, text, at);
    half_init(&h[1], ps, src, b->id, text + at, len - at);
    if (pthread_create(&second, NULL, read_half, &h[1]) != 0)
        return -1;
    read_half(&h[0]);
    pthread_join(second, NULL);
    if (h[0].rc == 0 && h[1].rc == 0 && join_halves(&h[0].b, &h[1].b) == 0) {
        *b = h[0].b; /* b gets the values; h[0] gives them up */
        h[0].b.v = NULL;
        rc = 0;
    }
    free(h[0].b.v);
    free(h[1].b.v);
    return rc;
}

/* Reads the matrix of a loaded file (already read into text) into b: in two halves at
 * once when it is large and clean, else in one piece. */
static int load_text(parser *ps, source *src, builder *b, const char *text, size_t len)
{
    static const char hint[] = "load() reads rows of numbers, as numpy.savetxt writes them";

    if (load_in_halves(ps, src, b, text, len) != 0) {
        if (check_text(ps, src->path, text, len) != 0)
            return -1;
        as_cursor_init(&src->c, text, len);
        if (src->c.p == src->c.end)
            return fail_pos(ps, src->path, no_pos, hint, "the file is empty");
        if (load_rows(ps, src, b) != 0)
            return -1;
    }
    if (b->rows == 0)
        return fail_pos(ps, src->path, no_pos, hint, "the file holds no numbers");
    if (is_bias(b->id) && b->cols == 1) {
        b->cols = b->rows; /* numpy.savetxt writes a 1-D bias one number per line */
        b->rows = 1;
    }
    return 0;
}

/* 0 when path may be opened for load(), else ENODEV: a device or a pipe named by an
 * input (/dev/zero, a FIFO) could block at open or never end, so only regular files
 * (and directories and missing files, which reading reports) get that far. */
static int loadable(const char *path)
{
    struct stat st;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return ENODEV;
    return 0;
}

/* NAME = load("name"): at is where the name stands in the input, for errors about the
 * file as a whole; errors inside it are reported at its own lines. */
static int load_matrix(parser *ps, as_mat_id id, const char *name, size_t n, as_pos at)
{
    source src;
    builder b;
    char *path, *text = NULL;
    size_t len = 0;
    int e, rc = -1;

    memset(&b, 0, sizeof b);
    b.id = id;
    path = resolve(ps->in->path, name, n);
    if (path == NULL) {
        fail_pos(ps, ps->main.path, at, NULL, "out of memory");
        goto fail;
    }
    src.path = path;
    e = loadable(path);
    if (e == 0) /* read, not mapped: a file cut short under a mapping would kill us (SIGBUS) */
        e = as_lex_read_file(path, 0, &text, &len);
    if (e != 0) {
        fail_pos(ps, ps->main.path, at,
                 "load() paths are taken relative to the folder of the input file",
                 "cannot load \"%s\": %s", path, read_reason(e));
        goto fail;
    }
    if (load_text(ps, &src, &b, text, len) != 0)
        goto fail;
    store_matrix(ps, &b);
    rc = 0;
fail:
    free(b.v);
    free(path);
    free(text);
    return rc;
}

/* "load" at the cursor: load("file.txt") or load('file.txt'). */
static int load_statement(parser *ps, as_mat_id id)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    const char *name, *open_quote;
    char quote, hint[96];
    size_t n;
    as_pos at;

    snprintf(hint, sizeof hint, "write %s = load(\"file.txt\")", as_mat_name(id));
    c->p += 4;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != '(')
        return fail_at(ps, src, c->p, hint, "expected \"(\" after load");
    c->p++;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
        return fail_at(ps, src, c->p, hint, "expected a file name in quotes after load(");
    open_quote = c->p;
    quote = *c->p++;
    name = c->p;
    while (c->p < c->end && *c->p != quote && *c->p != '\n' && *c->p != '\r')
        c->p++;
    if (c->p >= c->end || *c->p != quote)
        return fail_at(ps, src, open_quote, hint, "the file name has no closing quote");
    if (c->p == name)
        return fail_at(ps, src, open_quote, hint, "the file name is empty");
    at = pos_at(src, name);
    n = (size_t)(c->p - name);
    c->p++;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != ')')
        return fail_at(ps, src, c->p, hint, "expected \")\" after the file name");
    c->p++;
    if (load_matrix(ps, id, name, n, at) != 0)
        return -1;
    ps->closed_here = (int)id;
    return 0;
}

/* ------------------------------------------------------------------ settings ---- */

/* The end of the value v..: trailing blanks dropped. */
static const char *trim_end(const char *v, const char *e)
{
    for (;;) {
        if (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\v' || e[-1] == '\f'))
            e--;
        else if (e - v >= 2 && as_lex_blank(e - 2, e) == 2)
            e -= 2;
        else if (e - v >= 3 && as_lex_blank(e - 3, e) == 3)
            e -= 3;
        else
            return e;
    }
}

/* The end of the label at p: the next blank. */
static const char *label_end(const char *p, const char *end)
{
    while (p < end && as_lex_blank(p, end) == 0)
        p++;
    return p;
}

/* tokens: / kv_tokens: whitespace-separated labels, counted before anything is made. */
static int set_labels(parser *ps, as_tokens *t, const char *v, const char *e, as_pos key)
{
    source *src = &ps->main;
    const char *p = v;
    size_t count = 0, i = 0, k;

    while (p < e) {
        if ((k = as_lex_blank(p, e)) > 0) {
            p += k;
            continue;
        }
        if (count == AS_MAX_DIM)
            return fail_at(ps, src, p, "one table has at most 16384 rows, one label each",
                           "too many tokens: more than %u labels", AS_MAX_DIM);
        count++;
        p = label_end(p, e);
    }
    t->label = calloc(count, sizeof *t->label);
    if (t->label == NULL)
        return fail_memory(ps, src, v);
    t->count = count; /* calloc'd: as_input_free() copes with a half-filled list */
    t->pos = key;
    for (p = v; p < e; p = label_end(p, e)) {
        while ((k = as_lex_blank(p, e)) > 0)
            p += k;
        t->label[i] = dup_n(p, (size_t)(label_end(p, e) - p));
        if (t->label[i++] == NULL)
            return fail_memory(ps, src, p);
    }
    return 0;
}

/* heads: a positive whole number. */
static int set_heads(parser *ps, const char *v, const char *e, as_pos key)
{
    source *src = &ps->main;
    size_t h = 0;
    const char *p;
    char q[64];

    as_lex_quote(q, sizeof q, v, (size_t)(e - v));
    for (p = v; p < e; p++) {
        if (*p < '0' || *p > '9')
            return fail_at(ps, src, v, "heads is the number of attention heads, e.g. heads: 2",
                           "heads must be a positive whole number, not \"%s\"", q);
        if (h <= AS_MAX_DIM)
            h = h * 10 + (size_t)(*p - '0'); /* stops growing past the limit: no overflow */
    }
    if (h == 0)
        return fail_at(ps, src, v, "heads is the number of attention heads, e.g. heads: 2",
                       "heads must be a positive whole number, not \"%s\"", q);
    if (h > AS_MAX_DIM)
        return fail_at(ps, src, v, "the heads split the columns of Q, K and V among them",
                       "heads is too large: at most %u", AS_MAX_DIM);
    ps->in->heads = h;
    ps->in->heads_pos = key;
    return 0;
}

/* scale: auto (1/√d_k) or a finite number. */
static int set_scale(parser *ps, const char *v, const char *e, as_pos key)
{
    source *src = &ps->main;
    static const char hint[] = "write scale: auto (1/√d_k), or a number such as 1 to see what "
                               "the scaling does";
    size_t len = (size_t)(e - v), n;
    const char *why;
    double x;
    char q[64];

    ps->in->scale_pos = key;
    if (word_is(v, len, "auto"))
        return 0;
    as_lex_quote(q, sizeof q, v, len);
    n = as_parse_number(v, len, 1, &x, &why);
    if (n == 0 && why != NULL)
        return number_error(ps, src, v, len, why);
    if (n == 0 || n != len)
        return fail_at(ps, src, v, hint, "scale must be auto or a number, not \"%s\"", q);
    if (isinf(x))
        return fail_at(ps, src, v, hint, "scale must be a finite number, not \"%s\"", q);
    ps->in->scale = x;
    ps->in->scale_set = 1;
    return 0;
}

/* mask: causal | none, layout: book | torch. */
static int set_word(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    source *src = &ps->main;
    size_t len = (size_t)(e - v);
    as_input *in = ps->in;
    char q[64];

    if (which == SET_MASK && (word_is(v, len, "causal") || word_is(v, len, "none"))) {
        in->mask = word_is(v, len, "causal") ? AS_MASK_CAUSAL : AS_MASK_NONE;
        in->mask_pos = key;
        return 0;
    }
    if (which == SET_LAYOUT && (word_is(v, len, "book") || word_is(v, len, "torch"))) {
        in->layout = word_is(v, len, "book") ? AS_LAYOUT_BOOK : AS_LAYOUT_TORCH;
        return 0;
    }
    as_lex_quote(q, sizeof q, v, len);
    if (which == SET_MASK)
        return fail_at(ps, src, v,
                       "mask is causal or none; a mask of your own is a matrix M = [[...]]",
                       "unknown mask \"%s\"", q);
    return fail_at(ps, src, v,
                   "layout is book ([in, out], Q = X @ Wq as in F11) or torch ([out, in], like "
                   "torch.nn.Linear.weight)",
                   "unknown layout \"%s\"", q);
}

/* Gives the value v..e (trimmed, not empty) to the setting which. */
static int set_value(parser *ps, int which, const char *v, const char *e, as_pos key)
{
    switch (which) {
    case SET_TITLE:
        ps->in->title = dup_n(v, (size_t)(e - v));
        return ps->in->title == NULL ? fail_memory(ps, &ps->main, v) : 0;
    case SET_TOKENS:
        return set_labels(ps, &ps->in->tokens, v, e, key);
    case SET_KV_TOKENS:
        return set_labels(ps, &ps->in->kv_tokens, v, e, key);
    case SET_HEADS:
        return set_heads(ps, v, e, key);
    case SET_SCALE:
        return set_scale(ps, v, e, key);
    default:
        return set_word(ps, which, v, e, key);
    }
}

/* "key:" has been read (key at kpos); the value runs to the comment or the line end. */
static int setting(parser *ps, const char *key, size_t klen, as_pos kpos)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    int which = setting_lookup(key, klen);
    const char *v, *e;
    char q[64], hint[128];

    as_lex_quote(q, sizeof q, key, klen);
    if (which < 0) {
        int id = as_mat_lookup(key, klen);

        if (id >= 0)
            snprintf(hint, sizeof hint, "a matrix is written with \"=\": %s = [[1, 2], [3, 4]]",
                     as_mat_name((as_mat_id)id));
        return fail_pos(ps, src->path, kpos, id >= 0 ? hint : settings_hint,
                        "unknown setting \"%s\"", q);
    }
    if (ps->set_line[which] != 0)
        return fail_pos(ps, src->path, kpos, "keep one of the two lines",
                        "the setting %s is given twice (first at line %d)", set_names[which],
                        ps->set_line[which]);
    ps->set_line[which] = kpos.line;
    ps->statements++;
    as_cursor_skip_blanks(c);
    v = c->p;
    while (c->p < c->end && *c->p != '#' && *c->p != '\n' && *c->p != '\r')
        c->p++;
    e = trim_end(v, c->p);
    if (v == e) {
        snprintf(hint, sizeof hint, "write a value after the colon, e.g. %s",
                 which == SET_MASK ? "mask: causal" : which == SET_HEADS ? "heads: 1"
                 : which == SET_LAYOUT ? "layout: book" : which == SET_SCALE ? "scale: auto"
                 : which == SET_TITLE ? "title: F11" : "tokens: 我 爱");
        return fail_at(ps, src, v, hint, "the setting %s has no value", set_names[which]);
    }
    return set_value(ps, which, v, e, kpos);
}

/* ------------------------------------------------------------------ statements ---- */

/* Text that is no statement and belongs to no matrix. */
static int stray(parser *ps, size_t open_at_start)
{
    source *src = &ps->main;
    const char *p = src->c.p;
    char q[64];

    quote_token(q, p, src->c.end);
    if (*p == '[' && open_at_start > 1)
        return fail_at(ps, src, p,
                       "side by side, each line gives one row to each matrix still open, "
                       "left to right",
                       "this line has more row pieces than matrices still open");
    if (ps->closed_here >= 0)
        return fail_at(ps, src, p,
                       "a matrix ends at its \"]]\"; to write a note beside it, start the note "
                       "with \"#\"",
                       "unexpected text \"%s\" after matrix %s", q,
                       as_mat_name((as_mat_id)ps->closed_here));
    if (at_piece(&src->c))
        return fail_at(ps, src, p, "a matrix starts with its name: X = [[1, 2], [3, 4]]",
                       "unexpected \"%s\" outside a matrix", q);
    return fail_at(ps, src, p,
                   "a line holds a setting (key: value), a matrix (NAME = [[1, 2], [3, 4]]) or "
                   "a note after \"#\"",
                   "unexpected text \"%s\"", q);
}

/* A word followed by neither "=" nor ":". */
static int no_operator(parser *ps, const char *name, size_t n)
{
    source *src = &ps->main;
    int id = as_mat_lookup(name, n), which = setting_lookup(name, n);

    if (id >= 0)
        return fail_at(ps, src, src->c.p, "a matrix is written NAME = [[1, 2], [3, 4]]",
                       "expected \"=\" after the name %s", as_mat_name((as_mat_id)id));
    if (which >= 0)
        return fail_at(ps, src, src->c.p, "a setting is written key: value, e.g. mask: causal",
                       "expected \":\" after the setting %s", set_names[which]);
    src->c.p = name;
    return stray(ps, 0);
}

/* "NAME =" has been read (name at at); the value is a matrix or load("file"). */
static int assignment(parser *ps, const char *name, size_t n, as_pos at)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    int id = as_mat_lookup(name, n);
    char q[64], hint[128];
    size_t w;

    as_lex_quote(q, sizeof q, name, n);
    if (id < 0)
        return fail_pos(ps, src->path, at,
                        setting_lookup(name, n) >= 0
                            ? "a setting is written with a colon, e.g. mask: causal"
                            : names_hint,
                        "unknown name \"%s\"", q);
    if (ps->in->mat[id].given)
        return fail_pos(ps, src->path, at,
                        "each matrix is given once; W_q, WQ and Wq all name the same matrix",
                        "matrix %s is given twice (first at line %d)", as_mat_name((as_mat_id)id),
                        ps->in->mat[id].pos.line);
    ps->in->mat[id].given = 1;
    ps->in->mat[id].pos = at;
    ps->statements++;
    as_cursor_skip_blanks(c);
    w = ident_len(c->p, c->end);
    if (c->p < c->end && *c->p == '[')
        return open_matrix(ps, (as_mat_id)id);
    if (word_is(c->p, w, "load"))
        return load_statement(ps, (as_mat_id)id);
    if (word_is(c->p, w, "array") || word_is(c->p, w, "np"))
        snprintf(hint, sizeof hint, "paste only the numbers: %s = [[1, 2], [3, 4]]",
                 as_mat_name((as_mat_id)id));
    else
        snprintf(hint, sizeof hint,
                 "start the matrix on the line of its name: %s = [[1, 2], [3, 4]]",
                 as_mat_name((as_mat_id)id));
    return fail_at(ps, src, c->p, hint, "expected \"[[\" or load(\"file\") after \"%s =\"",
                   as_mat_name((as_mat_id)id));
}

/* A statement at the cursor (a word): "NAME = ..." or, first on its line, "key: value". */
static int statement(parser *ps, int first)
{
    source *src = &ps->main;
    as_cursor *c = &src->c;
    const char *name = c->p;
    size_t n = ident_len(name, c->end), k;
    as_pos at = pos_at(src, name);

    c->p += n;
    as_cursor_skip_blanks(c);
    if (c->p < c->end && *c->p == '=') {
        c->p++;
        return assignment(ps, name, n, at);
    }
    if ((k = colon_len(c->p, c->end)) > 0) {
        if (!first)
            return fail_pos(ps, src->path, at, "write each setting on a line of its own",
                            "a setting must start its line");
        c->p += k;
        return setting(ps, name, n, at);
    }
    return no_operator(ps, name, n);
}

/* ------------------------------------------------------------------ lines ---- */

static builder *find_open(parser *ps, as_mat_id id)
{
    size_t i;

    for (i = 0; i < ps->nopen; i++)
        if (ps->open[i].id == id)
            return &ps->open[i];
    return NULL;
}

/* Reads one physical line: row pieces for the matrices open when it starts (in order),
 * statements, and a comment; then steps over the line end. */
static int parse_line(parser *ps)
{
    as_cursor *c = &ps->main.c;
    as_mat_id queue[AS_NMAT];
    size_t k = ps->nopen, next = 0, i;
    int first = 1;
    builder *b;

    for (i = 0; i < k; i++)
        queue[i] = ps->open[i].id;
    ps->closed_here = -1;
    for (;; first = 0) {
        as_cursor_skip_blanks(c);
        if (as_cursor_at_stop(c))
            break;
        while (next < k && find_open(ps, queue[next]) == NULL)
            next++; /* closed earlier on this line */
        b = next < k ? find_open(ps, queue[next]) : NULL;
        if (first && k > 0 && at_statement(c, 1))
            return unclosed(ps, &ps->open[0], c->line); /* a row line never starts so */
        if (b != NULL && (b->depth == 2 || !at_statement(c, first))) {
            if (feed(ps, b, k > 1) < 0)
                return -1;
            next++;
        } else if (ident_start(c->p, c->end)) {
            if (statement(ps, first) != 0)
                return -1;
        } else {
            return stray(ps, k);
        }
    }
    as_cursor_skip_line(c); /* the comment, if any */
    if (c->p < c->end)
        as_cursor_newline(c);
    return 0;
}

/* ------------------------------------------------------------------ entry points ---- */

static int parse_all(parser *ps, const char *text, size_t len)
{
    static const char need[] = "an input needs at least X, Wq, Wk and Wv, e.g. "
                               "X = [[1, 1], [1, -1]]";

    if (check_text(ps, ps->main.path, text, len) != 0)
        return -1;
    as_cursor_init(&ps->main.c, text, len);
    if (ps->main.c.p == ps->main.c.end)
        return fail_pos(ps, ps->main.path, no_pos, need, "the file is empty");
    while (ps->main.c.p < ps->main.c.end)
        if (parse_line(ps) != 0)
            return -1;
    if (ps->nopen > 0)
        return unclosed(ps, &ps->open[0], 0);
    if (ps->statements == 0)
        return fail_pos(ps, ps->main.path, no_pos, need, "the file holds no statements");
    return 0;
}

int as_parse_text(as_input *in, const char *text, size_t len, const char *path, as_error *err)
{
    parser ps;
    size_t i;

    memset(in, 0, sizeof *in);
    memset(&ps, 0, sizeof ps);
    if (path == NULL)
        path = "-";
    if (text == NULL) {
        text = "";
        len = 0;
    }
    ps.in = in;
    ps.err = err;
    ps.main.path = path;
    ps.closed_here = -1;
    in->path = dup_n(path, strlen(path));
    if (in->path == NULL) {
        fail_pos(&ps, path, no_pos, NULL, "out of memory");
        goto fail;
    }
    if (parse_all(&ps, text, len) != 0)
        goto fail;
    return 0;
fail:
    for (i = 0; i < ps.nopen; i++)
        free(ps.open[i].v);
    as_input_free(in);
    return -1;
}

int as_parse_file(as_input *in, const char *path, as_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int e, rc;
    parser ps; /* only for fail_pos */

    memset(in, 0, sizeof *in);
    memset(&ps, 0, sizeof ps);
    ps.err = err;
    e = as_lex_read_file(path, 1, &text, &len);
    if (e == EISDIR)
        return fail_pos(&ps, path, no_pos, "give the path of an input file, e.g. "
                        "examples/f11.txt", "this is a directory, not an input file");
    if (e != 0)
        return fail_pos(&ps, path, no_pos, e == ENOENT ? "check the path; the book's example "
                        "is examples/f11.txt" : NULL, "cannot read the file: %s",
                        read_reason(e));
    rc = as_parse_text(in, text, len, path, err);
    free(text);
    return rc;
}

void as_input_free(as_input *in)
{
    size_t i;

    if (in == NULL)
        return;
    free(in->path);
    free(in->title);
    for (i = 0; in->tokens.label != NULL && i < in->tokens.count; i++)
        free(in->tokens.label[i]);
    free(in->tokens.label);
    for (i = 0; in->kv_tokens.label != NULL && i < in->kv_tokens.count; i++)
        free(in->kv_tokens.label[i]);
    free(in->kv_tokens.label);
    for (i = 0; i < AS_NMAT; i++)
        as_matrix_free(&in->mat[i].m);
    memset(in, 0, sizeof *in);
}
