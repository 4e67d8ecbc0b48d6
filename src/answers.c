/* answers.c - reading a student's ANSWERS file (SPEC §6): `NAME = [[...]]` statements in
 * the input syntax, the precision each number was written to, the names a table may
 * have, and whether a written cell stands for a true value. */
#include "attnstep/answers.h"
#include "attnstep/i18n.h"
#include "attnstep/lex.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------ */
/* Reading ANSWERS: `NAME = [[...]]` statements, side by side as the book prints    */
/* ------------------------------------------------------------------------------ */

#define MAX_OPEN 16 /* matrices open at once, side by side */

/* A matrix being read: its cells so far and how deep its brackets are. */
typedef struct reading {
    size_t item;        /* its index in the answers */
    int depth;          /* 0 before "[", 1 inside the matrix, 2 inside a row */
    int flat;           /* numbers stood at depth 1: a one-row matrix written [a, b] */
    size_t rows, cols;  /* rows finished; cells per row (set by the first row) */
    size_t cells;       /* cells of the current row (or of the flat row) */
    double *v, *u;      /* values and units, row-major */
    size_t len, cap;
} reading;

typedef struct reader {
    as_cursor c;
    as_answers *a;
    as_error *err;
    reading open[MAX_OPEN]; /* matrices still open, left to right */
    size_t nopen;
} reader;

/* Records an error at byte q of the current line. Returns -1. */
static int fail_at(reader *r, const char *q, const char *fmt, const char *what)
{
    as_error_set(r->err, r->a->path, r->c.line, as_cursor_col(&r->c, q), fmt, what);
    return -1;
}

static int push_cell(reader *r, reading *m, double v, double u)
{
    if (m->len >= AS_MAX_CELLS)
        return fail_at(r, r->c.p, "%s", "the table has more cells than the limit (2^26)");
    if (m->len == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        double *nv = realloc(m->v, cap * sizeof *nv), *nu;
        if (nv == NULL)
            return fail_at(r, r->c.p, "%s", "out of memory");
        m->v = nv;
        if ((nu = realloc(m->u, cap * sizeof *nu)) == NULL)
            return fail_at(r, r->c.p, "%s", "out of memory");
        m->u = nu;
        m->cap = cap;
    }
    m->v[m->len] = v;
    m->u[m->len++] = u;
    m->cells++;
    return 0;
}

/* A row's "]": every row as long as the first. */
static int end_row(reader *r, reading *m)
{
    if (m->cells == 0)
        return fail_at(r, r->c.p, "%s", "an empty row: a row needs at least one number");
    if (m->rows > 0 && m->cells != m->cols) {
        char what[64];
        snprintf(what, sizeof what, "this one has %zu, the first %zu", m->cells, m->cols);
        return fail_at(r, r->c.p, "the rows differ in length: %s", what);
    }
    m->cols = m->cells;
    m->rows++;
    m->cells = 0;
    return 0;
}

/* The matrix's last "]": its cells become the answer's value and unit tables. */
static int close_matrix(reader *r, reading *m)
{
    as_answer *ans = &r->a->item[m->item];

    if (m->flat && m->cells > 0) { /* [a, b]: one row */
        m->cols = m->cells;
        m->rows = 1;
    }
    if (m->rows == 0)
        return fail_at(r, r->c.p, "%s", "an empty matrix: write its rows, [[a, b], [c, d]]");
    if (!as_shape_ok(m->rows, m->cols))
        return fail_at(r, r->c.p, "%s", "the table has more rows or columns than the limit (16384)");
    if (as_matrix_init(&ans->value, m->rows, m->cols) != 0 ||
        as_matrix_init(&ans->unit, m->rows, m->cols) != 0)
        return fail_at(r, r->c.p, "%s", "out of memory");
    memcpy(ans->value.v, m->v, m->len * sizeof *m->v);
    memcpy(ans->unit.v, m->u, m->len * sizeof *m->u);
    return 0;
}

/* Bytes of a name at p: an ASCII letter, then anything up to a blank, "=", ":", "[",
 * "#" or the line's end ("QKᵀ", "QK^T", "S_h0"). 0 when p holds no name. */
static size_t name_len(const char *p, const char *end)
{
    size_t n = 0;

    if (p >= end || !((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
        return 0;
    while (p + n < end && !strchr(" \t=:[#\r\n", p[n]) && as_lex_blank(p + n, end) == 0)
        n++;
    return n;
}

/* Nonzero when the name of n bytes at p is followed by "=": a new statement. */
static int starts_statement(const char *p, size_t n, const char *end)
{
    as_cursor c;

    as_cursor_init(&c, p + n, (size_t)(end - p - n));
    as_cursor_skip_blanks(&c);
    return n > 0 && c.p < c.end && *c.p == '=';
}

/* A number inside a matrix; *used gets its bytes, 0 when a new statement starts there. */
static int number(reader *r, reading *m, size_t *used)
{
    const char *p = r->c.p;
    const size_t run = as_lex_run(p, r->c.end);
    const char *why = NULL;
    double v;
    char quoted[64];

    *used = as_parse_number(p, run, 1, &v, &why);
    if (*used == 0 && why == NULL && starts_statement(p, name_len(p, r->c.end), r->c.end))
        return 0;
    if (*used != run || why != NULL) {
        as_lex_quote(quoted, sizeof quoted, p, run);
        return fail_at(r, p, why != NULL ? "%s" : "\"%s\" is not a number", why ? why : quoted);
    }
    if (m->depth == 1 && m->rows > 0)
        return fail_at(r, p, "%s", "a number outside a row: write each row in [ ]");
    m->flat |= m->depth == 1;
    return push_cell(r, m, v, as_written_unit(p, run));
}

/* One bracket; *done set when the matrix closed, *row_done when a row did. */
static int bracket(reader *r, reading *m, int *done, int *row_done)
{
    const char ch = *r->c.p;

    *row_done = 0;
    if (ch == '[') {
        if (m->depth == 2 || (m->depth == 1 && m->flat))
            return fail_at(r, r->c.p, "%s", "too many \"[\": a matrix is [[a, b], [c, d]]");
        m->depth++;
    } else {
        if (m->depth == 0)
            return fail_at(r, r->c.p, "%s", "\"]\" before any \"[\"");
        if (m->depth == 2 && end_row(r, m) != 0)
            return -1;
        *row_done = m->depth == 2;
        if (--m->depth == 0 && close_matrix(r, m) != 0)
            return -1;
        *done = m->depth == 0;
    }
    r->c.p++;
    return 0;
}

/* Feeds the tokens at the cursor to matrix m until it closes, the line ends, a new
 * statement starts, or (one_row) one of its rows has ended: then the rest of the line
 * belongs to the matrices to its right. Sets *closed when it closed. */
static int feed(reader *r, reading *m, int one_row, int *closed)
{
    size_t n;
    int row_done = 0;

    *closed = 0;
    for (;;) {
        as_cursor_skip_blanks(&r->c);
        if (as_cursor_at_stop(&r->c))
            return 0;
        if ((n = as_lex_comma(r->c.p, r->c.end)) > 0) {
            r->c.p += n;
            if (row_done && one_row)
                return 0;
            continue;
        }
        if (*r->c.p == ']' || (*r->c.p == '[' && !(row_done && one_row))) {
            if (bracket(r, m, closed, &row_done) != 0)
                return -1;
            if (*closed)
                return 0;
            continue;
        }
        if (row_done && one_row)
            return 0;
        if (m->depth == 0)
            return fail_at(r, r->c.p, "%s", "expected \"[\" to start the matrix");
        if (number(r, m, &n) != 0)
            return -1;
        if (n == 0)
            return 0;
        r->c.p += n;
    }
}

static void drop_open(reader *r, size_t k)
{
    free(r->open[k].v);
    free(r->open[k].u);
    memmove(&r->open[k], &r->open[k + 1], (r->nopen - k - 1) * sizeof r->open[0]);
    r->nopen--;
}

/* `NAME = [` ...: a new answer, read on as far as this line goes. */
static int statement(reader *r, size_t n)
{
    as_answers *a = r->a;
    as_answer *grown, *ans;
    reading *m;
    int closed;

    if (r->nopen == MAX_OPEN)
        return fail_at(r, r->c.p, "%s", "too many matrices side by side");
    if ((grown = realloc(a->item, (a->count + 1) * sizeof *grown)) == NULL)
        return fail_at(r, r->c.p, "%s", "out of memory");
    a->item = grown;
    ans = memset(&a->item[a->count], 0, sizeof *ans);
    ans->pos.line = r->c.line;
    ans->pos.col = as_cursor_col(&r->c, r->c.p);
    if ((ans->name = malloc(n + 1)) == NULL)
        return fail_at(r, r->c.p, "%s", "out of memory");
    memcpy(ans->name, r->c.p, n);
    ans->name[n] = '\0';
    m = memset(&r->open[r->nopen++], 0, sizeof *m);
    m->item = a->count++;
    r->c.p += n;
    as_cursor_skip_blanks(&r->c);
    if (r->c.p >= r->c.end || *r->c.p != '=')
        return fail_at(r, r->c.p, "expected \"=\" after the name %s", ans->name);
    r->c.p++;
    if (feed(r, m, 0, &closed) != 0)
        return -1;
    if (closed)
        drop_open(r, r->nopen - 1);
    return 0;
}

/* A name with no "=" after it. */
static int no_equals(reader *r, size_t n)
{
    const char *q = r->c.p + n;
    char name[64];
    size_t b;

    snprintf(name, sizeof name, "%.*s", (int)n, r->c.p);
    while ((b = as_lex_blank(q, r->c.end)) > 0)
        q += b;
    return fail_at(r, q, "expected \"=\" after the name %s", name);
}

/* A `key: value` line: `name: 张三` names the student (SPEC §6); other settings are
 * the input's and mean nothing here. */
static int setting(reader *r, size_t n)
{
    const char *v = r->c.p + n + 1, *e;

    if (n == 4 && memcmp(r->c.p, "name", 4) == 0) {
        as_cursor c;
        as_cursor_init(&c, v, (size_t)(r->c.end - v));
        as_cursor_skip_blanks(&c);
        for (e = c.p; e < r->c.end && !strchr("#\r\n", *e); e++)
            ;
        while (e > c.p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        free(r->a->student);
        if ((r->a->student = malloc((size_t)(e - c.p) + 1)) == NULL)
            return fail_at(r, r->c.p, "%s", "out of memory");
        memcpy(r->a->student, c.p, (size_t)(e - c.p));
        r->a->student[e - c.p] = '\0';
    }
    as_cursor_skip_line(&r->c);
    return 0;
}

/* One line: first a row fragment for each matrix still open from earlier lines, left
 * to right, then any new statements. A settings line (`key: value`) is skipped. */
static int line(reader *r)
{
    size_t k = 0, carried = r->nopen, n;
    int closed;

    as_cursor_skip_blanks(&r->c);
    n = name_len(r->c.p, r->c.end);
    if (carried == 0 && n > 0 && r->c.p + n < r->c.end && r->c.p[n] == ':')
        return setting(r, n);
    while (as_cursor_skip_blanks(&r->c), !as_cursor_at_stop(&r->c)) {
        n = name_len(r->c.p, r->c.end);
        if (starts_statement(r->c.p, n, r->c.end)) {
            if (statement(r, n) != 0)
                return -1;
            continue;
        }
        if (k >= carried && n > 0)
            return no_equals(r, n);
        if (k >= carried)
            return fail_at(r, r->c.p, "%s", "this belongs to no matrix (is a \"NAME =\" missing?)");
        if (feed(r, &r->open[k], k + 1 < carried, &closed) != 0)
            return -1;
        if (closed) {
            drop_open(r, k);
            carried--;
        } else {
            k++;
        }
    }
    as_cursor_skip_line(&r->c);
    return 0;
}

static int read_all(reader *r)
{
    while (r->c.p < r->c.end) {
        if (line(r) != 0)
            return -1;
        if (as_lex_eol(r->c.p, r->c.end) > 0)
            as_cursor_newline(&r->c);
    }
    if (r->nopen > 0) {
        const as_answer *ans = &r->a->item[r->open[0].item];
        as_error_set(r->err, r->a->path, ans->pos.line, ans->pos.col,
                     "the matrix %s is not closed: a \"]\" is missing", ans->name);
        return -1;
    }
    return 0;
}

int as_answers_parse(as_answers *a, const char *text, size_t len, const char *path,
                     as_error *err)
{
    reader r;
    const char *bad = as_lex_bad_byte(text, len);
    int rc;

    memset(a, 0, sizeof *a);
    memset(&r, 0, sizeof r);
    r.a = a;
    r.err = err;
    if ((a->path = malloc(strlen(path) + 1)) == NULL) {
        as_error_set(err, path, 0, 0, "out of memory");
        return -1;
    }
    strcpy(a->path, path);
    as_cursor_init(&r.c, text, len);
    if (bad != NULL) {
        int line, col;
        as_lex_locate(text, len, bad, &line, &col);
        as_error_set(err, path, line, col, "the file is not UTF-8 text (or holds a NUL byte)");
        rc = -1;
    } else {
        rc = read_all(&r);
    }
    while (r.nopen > 0)
        drop_open(&r, 0);
    if (rc != 0)
        as_answers_free(a);
    return rc;
}

void as_answers_free(as_answers *a)
{
    size_t i;

    for (i = 0; i < a->count; i++) {
        free(a->item[i].name);
        as_matrix_free(&a->item[i].value);
        as_matrix_free(&a->item[i].unit);
    }
    free(a->item);
    free(a->path);
    free(a->student);
    memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------------------------ */
/* Cells: right to the precision written                                            */
/* ------------------------------------------------------------------------------ */

#define EXACT_MARGIN 1e-9 /* what an exact number (2, 1/3) may differ by, relative */

int as_answer_cell_ok(double w, double u, double x, double tol, double slack)
{
    double allow;

    if (isinf(w) || isinf(x))
        return w == x; /* a masked cell is -inf and nothing else */
    allow = tol >= 0 ? tol : u > 0 ? u / 2 : EXACT_MARGIN * fmax(1.0, fabs(x));
    /* the margins absorb that 0.01 and the true value are binary approximations */
    return fabs(w - x) <= (allow + slack) * (1 + 1e-9) + 4 * DBL_EPSILON * fabs(x);
}

/* ------------------------------------------------------------------------------ */
/* Names                                                                            */
/* ------------------------------------------------------------------------------ */

static const char *const kind_name[AS_ANS_KINDS] = {"Q", "K", "V", "QKT", "S", "A", "O", "C"};

int as_answer_name(const char *name, as_answer_kind *kind, long *head)
{
    static const struct {
        const char *text;
        as_answer_kind kind;
    } base[] = {{"QKT", AS_ANS_QKT}, {"QK\xe1\xb5\x80", AS_ANS_QKT}, {"QK^T", AS_ANS_QKT},
                {"Q", AS_ANS_Q},     {"K", AS_ANS_K},                 {"V", AS_ANS_V},
                {"S", AS_ANS_S},     {"A", AS_ANS_A},                 {"O", AS_ANS_O},
                {"C", AS_ANS_C}};
    size_t i, n;
    const char *rest;
    char *end;

    for (i = 0; i < sizeof base / sizeof base[0]; i++) {
        n = strlen(base[i].text);
        if (strncmp(name, base[i].text, n) != 0)
            continue;
        rest = name + n;
        *kind = base[i].kind;
        *head = -1;
        if (*rest == '\0')
            return 0;
        if (strncmp(rest, "_h", 2) == 0 && rest[2] >= '0' && rest[2] <= '9') {
            *head = strtol(rest + 2, &end, 10);
            if (*end == '\0' && *head < (long)AS_MAX_DIM)
                return 0;
        }
    }
    return -1;
}

/* The row number after a row answer's letter: ASCII digits or subscript digits (₀ is
 * E2 82 80 ... ₉ E2 82 89), then optionally "_hN". -1 when it is not one. */
static long row_number(const char *s, long *head)
{
    long row = -1;
    char *end;

    while (*s != '\0' && *s != '_') {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s++ - '0';
        else if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x82 &&
                 (unsigned char)s[2] >= 0x80 && (unsigned char)s[2] <= 0x89)
            d = (unsigned char)s[2] - 0x80, s += 3;
        else
            return -1;
        row = (row < 0 ? 0 : row * 10) + d;
        if (row >= (long)AS_MAX_DIM)
            return -1;
    }
    *head = -1;
    if (*s == '\0')
        return row;
    if (strncmp(s, "_h", 2) != 0 || s[2] < '0' || s[2] > '9')
        return -1;
    *head = strtol(s + 2, &end, 10);
    return *end == '\0' && *head < (long)AS_MAX_DIM ? row : -1;
}

int as_answer_row(const char *name, as_answer_kind *kind, long *head, long *row)
{
    static const char letters[] = "qkvsao";
    static const as_answer_kind kinds[] = {AS_ANS_Q, AS_ANS_K, AS_ANS_V,
                                           AS_ANS_S, AS_ANS_A, AS_ANS_O};
    const char *at = name[0] != '\0' ? strchr(letters, name[0]) : NULL;

    if (at == NULL || (*row = row_number(name + 1, head)) < 0)
        return -1;
    *kind = kinds[at - letters];
    return 0;
}

const char *as_answer_kind_name(as_answer_kind kind)
{
    return (unsigned)kind < AS_ANS_KINDS ? kind_name[kind] : "?";
}

void as_table_shown_name(char *buf, size_t size, const char *name, int ascii)
{
    if (strncmp(name, "QKT", 3) == 0)
        snprintf(buf, size, "QK%s%s", as_sym_text(ascii, AS_SYM_T), name + 3);
    else
        snprintf(buf, size, "%s", name);
}
