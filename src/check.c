/* check.c - grading a student's answers (SPEC §6): the ANSWERS reader, the precision a
 * number was written to, and the grading with its diagnoses. The mistaken variants are
 * computed with the chapter's own step functions (attention.h), never re-implemented. */
#include "attnstep/check.h"
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

/* One line: first a row fragment for each matrix still open from earlier lines, left
 * to right, then any new statements. A settings line (`key: value`) is skipped. */
static int line(reader *r)
{
    size_t k = 0, carried = r->nopen, n;
    int closed;

    as_cursor_skip_blanks(&r->c);
    n = name_len(r->c.p, r->c.end);
    if (carried == 0 && n > 0 && r->c.p + n < r->c.end && r->c.p[n] == ':') {
        as_cursor_skip_line(&r->c);
        return 0;
    }
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
    memset(a, 0, sizeof *a);
}

double as_written_unit(const char *s, size_t n)
{
    size_t i;
    int point = 0, frac = 0;
    long e = 0;

    for (i = 0; i < n; i++) {
        if (s[i] == '/')
            return 0; /* a fraction is exact */
        if ((s[i] | 0x20) == 'e') /* "inf" and "infinity" hold no e */
            break;
        if (s[i] == '.')
            point = 1;
        else if (point && s[i] >= '0' && s[i] <= '9')
            frac++;
    }
    if (i < n) /* an exponent: 1.5e-3 was written to 4 places */
        e = strtol(s + i + 1, NULL, 10);
    if (!point && e >= 0)
        return 0; /* a whole number (also 2e3) is exact */
    return pow(10.0, -(double)(frac - e));
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

void as_table_shown_name(char *buf, size_t size, const char *name, int ascii)
{
    if (strncmp(name, "QKT", 3) == 0)
        snprintf(buf, size, "QK%s%s", as_sym_text(ascii, AS_SYM_T), name + 3);
    else
        snprintf(buf, size, "%s", name);
}

const char *as_diag_code(as_diag d)
{
    static const char *const code[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = "carried_error", [AS_DIAG_NO_SCALE] = "no_scale",
        [AS_DIAG_SCALE_MULTIPLIED] = "scale_multiplied", [AS_DIAG_NO_MASK] = "no_mask",
        [AS_DIAG_SOFTMAX_COLUMNS] = "softmax_columns", [AS_DIAG_TRANSPOSED] = "transposed",
    };

    return d > AS_DIAG_NONE && d < AS_DIAG_COUNT ? code[d] : NULL;
}

as_msg as_diag_msg(as_diag d)
{
    static const as_msg why[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = AS_MSG_DIAG_CARRIED, [AS_DIAG_NO_SCALE] = AS_MSG_DIAG_NO_SCALE,
        [AS_DIAG_SCALE_MULTIPLIED] = AS_MSG_DIAG_SCALE_MULT, [AS_DIAG_NO_MASK] = AS_MSG_DIAG_NO_MASK,
        [AS_DIAG_SOFTMAX_COLUMNS] = AS_MSG_DIAG_SOFTMAX_COLUMNS,
        [AS_DIAG_TRANSPOSED] = AS_MSG_DIAG_TRANSPOSED};

    return why[d > AS_DIAG_NONE && d < AS_DIAG_COUNT ? d : AS_DIAG_TRANSPOSED];
}

/* ------------------------------------------------------------------------------ */
/* Cells: right to the precision written                                            */
/* ------------------------------------------------------------------------------ */

#define EXACT_MARGIN 1e-9 /* what an exact number (2, 1/3) may differ by, relative */

/* Nonzero when the written value w, whose last digit has the unit u, stands for x;
 * slack widens the margin by what rounding earlier in the chain may explain. */
static int cell_ok(double w, double u, double x, double tol, double slack)
{
    double allow;

    if (isinf(w) || isinf(x))
        return w == x; /* a masked cell is -inf and nothing else */
    allow = tol >= 0 ? tol : u > 0 ? u / 2 : EXACT_MARGIN * fmax(1.0, fabs(x));
    /* the margins absorb that 0.01 and the true value are binary approximations */
    return fabs(w - x) <= (allow + slack) * (1 + 1e-9) + 4 * DBL_EPSILON * fabs(x);
}

/* Nonzero when every cell of the answer stands for the cell of want, each within its
 * slack (slack may be an empty matrix: none). */
static int table_matches(const as_answer *ans, const as_matrix *want, const as_matrix *slack,
                         double tol)
{
    size_t i;

    if (ans->value.rows != want->rows || ans->value.cols != want->cols)
        return 0;
    for (i = 0; i < want->rows * want->cols; i++)
        if (!cell_ok(ans->value.v[i], ans->unit.v[i], want->v[i], tol,
                     slack->v != NULL ? slack->v[i] : 0))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------ */
/* Which table of the trace an answer names                                        */
/* ------------------------------------------------------------------------------ */

/* The head's table of a kind (Q, K, V are the head's slices). */
static const as_matrix *head_table(const as_head_trace *h, as_answer_kind kind)
{
    const as_matrix *m[] = {&h->Q, &h->K, &h->V, &h->QKT, &h->S, &h->A, &h->O, NULL};

    return m[kind];
}

static int name_error(const as_answers *a, const as_answer *ans, as_error *err, const char *msg,
                      const char *hint)
{
    as_error_set(err, a->path, ans->pos.line, ans->pos.col, "%s: %s", ans->name, msg);
    as_error_hint(err, "%s", hint);
    return -1;
}

/* Sets g's kind, head, name and expected table from the answer's name. The tables of
 * one head need no head name when there is only one; O alone is the layer's output. */
static int resolve(as_table_grade *g, const as_problem *p, const as_trace *t,
                   const as_answers *a, const as_answer *ans, as_error *err)
{
    long named;

    if (as_answer_name(ans->name, &g->kind, &named) != 0)
        return name_error(a, ans, err, "not a table an answer may name",
                          "ANSWERS may hold Q, K, V, QKT (also QK\xe1\xb5\x80, QK^T), S, A, O "
                          "and, with several heads, Q_h0, S_h1 ... and C");
    if (named >= (long)p->heads || (named >= 0 && g->kind == AS_ANS_C))
        return name_error(a, ans, err, "the problem has no such head",
                          "heads are numbered from 0 (S_h0); C, the heads side by side, has none");
    g->head = named;
    if (named < 0 && p->heads == 1 && g->kind != AS_ANS_C &&
        g->kind > AS_ANS_V && (g->kind != AS_ANS_O || p->Wo == NULL))
        g->head = 0;
    if (g->head < 0 && g->kind >= AS_ANS_QKT && g->kind <= AS_ANS_A)
        return name_error(a, ans, err, "with several heads, say whose table this is",
                          "name the head: S_h0, S_h1 ...");
    snprintf(g->name, sizeof g->name, named >= 0 ? "%s_h%ld" : "%s", kind_name[g->kind], named);
    g->given = ans;
    if (g->head >= 0)
        g->expected = head_table(&t->head[g->head], g->kind);
    else
        g->expected = g->kind == AS_ANS_Q   ? &t->Q
                      : g->kind == AS_ANS_K ? &t->K
                      : g->kind == AS_ANS_V ? &t->V
                      : g->kind == AS_ANS_C ? &t->C
                                            : &t->O;
    return 0;
}

/* The book's order: the whole Q, K, V; then each head's tables; then C; then O. */
static long book_order(const as_table_grade *g)
{
    const long group = g->head >= 0 ? 1 : g->kind <= AS_ANS_V ? 0 : g->kind == AS_ANS_C ? 2 : 3;

    return (group * (long)(AS_MAX_DIM + 1) + g->head + 1) * AS_ANS_KINDS + g->kind;
}

static int by_book_order(const void *x, const void *y)
{
    const long a = book_order(x), b = book_order(y);

    return (a > b) - (a < b);
}

/* ------------------------------------------------------------------------------ */
/* Known mistakes: each a variant of the chain, computed by the chapter's steps     */
/* ------------------------------------------------------------------------------ */

/* A table an earlier step gave: the student's own (with the units of the digits they
 * wrote) or the true one (u NULL: nothing was rounded). */
typedef struct held {
    const as_matrix *v, *u;
} held;

typedef struct checker {
    const as_problem *p;
    const as_trace *t;
    const as_grade *g;      /* the grades: entries before done are graded already */
    size_t done;
    double tol;
    as_matrix slice[3][2];  /* a head's columns of the student's whole Q, K or V (values,
                             * units) */
    char from[64];          /* the student's wrong tables a carried error came from */
} checker;

/* A head's columns of a whole table, into out. */
static int head_columns(as_matrix *out, const as_matrix *whole, const as_matrix *truth, long h)
{
    if (as_matrix_init(out, truth->rows, truth->cols) != 0)
        return -1;
    as_take_columns(out->v, whole->v, truth->rows, whole->cols, (size_t)h * truth->cols,
                    truth->cols);
    return 0;
}

/* The table of an earlier step, for head h: the student's when given in the right shape
 * and wrong (its name joins k->from, and *wrong is set), else the truth. Returns 0, or
 * -1 when memory ran out. */
static int earlier(checker *k, as_answer_kind kind, long h, held *out, int *wrong)
{
    const as_matrix *truth = h >= 0 ? head_table(&k->t->head[h], kind) : &k->t->C;
    size_t i;

    out->v = truth;
    out->u = NULL;
    for (i = 0; i < k->done; i++) {
        const as_table_grade *e = &k->g->table[i];
        if (e->kind != kind || !e->shape_ok || (e->head != h && !(e->head < 0 && kind <= AS_ANS_V)))
            continue;
        if (e->correct)
            return 0;
        *wrong = 1;
        snprintf(k->from + strlen(k->from), sizeof k->from - strlen(k->from), "%s%s",
                 k->from[0] ? ", " : "", e->name);
        out->v = &e->given->value;
        out->u = &e->given->unit;
        if (e->head == h)
            return 0;
        /* the whole Q (K, V) of several heads: this head's columns of it */
        out->v = &k->slice[kind][0];
        out->u = &k->slice[kind][1];
        return head_columns(&k->slice[kind][0], &e->given->value, truth, h) |
               head_columns(&k->slice[kind][1], &e->given->unit, truth, h);
    }
    return 0;
}

/* ---- the right chain and its variants ---- */

/* From the scores of one head to its shares and output, with one step done another way. */
typedef struct chain {
    const as_matrix *qkt, *s, *a, *v; /* where to start: s and a NULL to compute them */
    double scale;
    int mask;                         /* add M */
    int columns;                      /* softmax down the columns */
} chain;

/* a = softmax of each row of s (or of each column). Returns 1, 0 when a row (column)
 * has nothing readable, -1 when memory ran out. */
static int softmax_of(as_matrix *a, const as_matrix *s, int columns)
{
    as_matrix st = {0};
    const as_matrix *src = s;
    int rc = -1;

    if (columns && (as_matrix_copy(&st, s) != 0 || as_matrix_transpose(&st) != 0))
        goto done;
    if (columns)
        src = &st;
    if (as_matrix_init(a, src->rows, src->cols) != 0)
        goto done;
    rc = as_softmax_rows(a->v, NULL, NULL, NULL, NULL, src->v, src->rows, src->cols) < 0;
    if (rc == 1 && columns && as_matrix_transpose(a) != 0)
        rc = -1;
done:
    as_matrix_free(&st);
    return rc;
}

/* Runs ch up to the table of kind want (S, A or O) into out: 1, 0 (undefined) or -1. */
static int run_chain(as_matrix *out, const chain *ch, const as_problem *p, as_answer_kind want)
{
    as_matrix s = {0}, a = {0};
    const as_matrix *S = ch->s, *A = ch->a;
    const size_t nm = ch->qkt->rows * ch->qkt->cols;
    int rc = -1;

    if (S == NULL && A == NULL) {
        if (as_matrix_init(&s, ch->qkt->rows, ch->qkt->cols) != 0)
            goto done;
        as_scale(s.v, ch->qkt->v, nm, ch->scale);
        if (ch->mask)
            as_add_mask(s.v, s.v, p->M.v, nm);
        S = &s;
    }
    if (A == NULL && want != AS_ANS_S) {
        if ((rc = softmax_of(&a, S, ch->columns)) != 1)
            goto done;
        A = &a;
    }
    if (want == AS_ANS_S || want == AS_ANS_A) {
        rc = as_matrix_copy(out, want == AS_ANS_S ? S : A) != 0 ? -1 : 1;
    } else if (as_matrix_init(out, A->rows, ch->v->cols) == 0) {
        as_mix(out->v, A->v, ch->v->v, A->rows, A->cols, ch->v->cols);
        rc = 1;
    }
done:
    as_matrix_free(&s);
    as_matrix_free(&a);
    return rc;
}

/* The right chain of head h. */
static chain right_chain(const checker *k, long h)
{
    const as_head_trace *ht = &k->t->head[h];
    chain ch = {&ht->QKT, NULL, NULL, &ht->V, k->p->scale, 1, 0};

    return ch;
}

/* ---- carried errors: the right step on the student's own earlier tables ---- */

/* out = |m| * f in the shape of like (zeros when m is NULL: nothing rounded). */
static int magnitude(as_matrix *out, const as_matrix *m, const as_matrix *like, double f)
{
    size_t i;

    if (as_matrix_init(out, like->rows, like->cols) != 0)
        return -1;
    for (i = 0; m != NULL && i < m->rows * m->cols; i++)
        out->v[i] = isinf(m->v[i]) ? 0 : fabs(m->v[i]) * f;
    return 0;
}

/* How far the rounding of a and b can move each cell of their product a·b (a·bᵀ with
 * scores): (half a unit of a)·|b| + |a|·(half a unit of b), to first order. */
static int product_slack(as_matrix *slack, const held *a, const held *b, int scores)
{
    as_matrix m[5] = {{0}}; /* rounding of a, |a|, rounding of b, |b|, the second term */
    const size_t n = a->v->rows, kk = a->v->cols, p = scores ? b->v->rows : b->v->cols;
    size_t i;
    int rc = -1;

    if (magnitude(&m[0], a->u, a->v, 0.5) || magnitude(&m[1], a->v, a->v, 1) ||
        magnitude(&m[2], b->u, b->v, 0.5) || magnitude(&m[3], b->v, b->v, 1) ||
        as_matrix_init(&m[4], n, p) || as_matrix_init(slack, n, p))
        goto done;
    if (scores) {
        as_scores(slack->v, m[0].v, m[3].v, n, p, kk);
        as_scores(m[4].v, m[1].v, m[2].v, n, p, kk);
    } else {
        as_matmul(slack->v, m[0].v, m[3].v, n, kk, p);
        as_matmul(m[4].v, m[1].v, m[2].v, n, kk, p);
    }
    for (i = 0; i < n * p; i++)
        slack->v[i] += m[4].v[i];
    rc = 0;
done:
    for (i = 0; i < 5; i++)
        as_matrix_free(&m[i]);
    return rc;
}

/* The layer's O from the student's own C (through Wo when there is one). */
static int carried_output(as_matrix *out, as_matrix *slack, checker *k)
{
    const as_problem *p = k->p;
    const held wo = {p->Wo, NULL};
    held c;
    int wrong = 0;

    if (earlier(k, AS_ANS_C, -1, &c, &wrong) != 0)
        return -1;
    if (!wrong)
        return 0;
    if (p->Wo == NULL)
        return as_matrix_copy(out, c.v) != 0 || magnitude(slack, c.u, c.v, 0.5) != 0 ? -1 : 1;
    if (as_matrix_init(out, c.v->rows, p->Wo->cols) != 0 || product_slack(slack, &c, &wo, 0) != 0)
        return -1;
    as_matmul(out->v, c.v->v, p->Wo->v, c.v->rows, c.v->cols, p->Wo->cols);
    if (p->bo != NULL)
        as_add_bias(out->v, p->bo->v, out->rows, out->cols);
    return 1;
}

/* QKᵀ of head h from the student's own Q and K. */
static int carried_scores(as_matrix *out, as_matrix *slack, checker *k, long h)
{
    held q, kk;
    int wrong = 0;

    if (earlier(k, AS_ANS_Q, h, &q, &wrong) != 0 || earlier(k, AS_ANS_K, h, &kk, &wrong) != 0)
        return -1;
    if (!wrong)
        return 0;
    if (as_matrix_init(out, q.v->rows, kk.v->rows) != 0 || product_slack(slack, &q, &kk, 1) != 0)
        return -1;
    as_scores(out->v, q.v->v, kk.v->v, q.v->rows, kk.v->rows, q.v->cols);
    return 1;
}

/* The shares from the student's own S: a change of at most d in a row of scores moves
 * each share by at most 2d (first order), d half the largest unit in the row. */
static int shares_slack(as_matrix *slack, const held *s)
{
    size_t i, j;
    double d;

    if (magnitude(slack, s->u, s->v, 0.5) != 0)
        return -1;
    for (i = 0; i < slack->rows; i++) {
        for (d = 0, j = 0; j < slack->cols; j++)
            d = fmax(d, AS_AT(*slack, i, j));
        for (j = 0; j < slack->cols; j++)
            AS_AT(*slack, i, j) = 2 * d;
    }
    return 0;
}

/* S, A or O of head h from the student's own QKᵀ, S, or A and V. */
static int carried_step(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g)
{
    chain ch = right_chain(k, g->head);
    held x, v = {ch.v, NULL};
    int wrong = 0, rc;

    if (earlier(k, g->kind == AS_ANS_S ? AS_ANS_QKT : g->kind == AS_ANS_A ? AS_ANS_S : AS_ANS_A,
                g->head, &x, &wrong) != 0 ||
        (g->kind == AS_ANS_O && earlier(k, AS_ANS_V, g->head, &v, &wrong) != 0))
        return -1;
    if (!wrong)
        return 0;
    if (g->kind == AS_ANS_S) {
        ch.qkt = x.v;
        rc = magnitude(slack, x.u, x.v, 0.5 * fabs(ch.scale));
    } else if (g->kind == AS_ANS_A) {
        ch.s = x.v;
        rc = shares_slack(slack, &x);
    } else {
        ch.a = x.v;
        ch.v = v.v;
        rc = product_slack(slack, &x, &v, 0);
    }
    return rc != 0 ? -1 : run_chain(out, &ch, k->p, g->kind);
}

/* The right step applied to the student's own earlier tables (at least one wrong);
 * slack gets how far their rounding can move each cell. */
static int carried(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g)
{
    k->from[0] = '\0';
    if (g->head < 0)
        return g->kind == AS_ANS_O ? carried_output(out, slack, k) : 0;
    if (g->kind == AS_ANS_QKT)
        return carried_scores(out, slack, k, g->head);
    if (g->kind >= AS_ANS_S && g->kind <= AS_ANS_O)
        return carried_step(out, slack, k, g);
    return 0;
}

/* ---- naming the mistake ---- */

/* The table mistake d would give in place of g's (with slack for a carried error): 1
 * when out holds it, 0 when d does not apply to this table, -1 when memory ran out. */
static int mistaken(as_matrix *out, as_matrix *slack, checker *k, const as_table_grade *g,
                    as_diag d)
{
    chain ch;

    if (d == AS_DIAG_TRANSPOSED)
        return as_matrix_copy(out, g->expected) != 0 || as_matrix_transpose(out) != 0 ? -1 : 1;
    if (d == AS_DIAG_CARRIED_ERROR)
        return carried(out, slack, k, g);
    if (g->head < 0 || g->kind < AS_ANS_S || g->kind > AS_ANS_O)
        return 0; /* the other mistakes are in the steps from the scores on */
    ch = right_chain(k, g->head);
    if (d == AS_DIAG_NO_SCALE)
        ch.scale = 1;
    else if (d == AS_DIAG_SCALE_MULTIPLIED && k->p->scale_auto)
        ch.scale = sqrt((double)k->p->d_k);
    else if (d == AS_DIAG_NO_MASK)
        ch.mask = 0;
    else if (d == AS_DIAG_SOFTMAX_COLUMNS)
        ch.columns = 1;
    else
        return 0;
    return run_chain(out, &ch, k->p, g->kind);
}

/* Names the first known mistake the wrong table matches as a whole. A carried error
 * comes first: it says the step itself was right. */
static int diagnose(as_table_grade *g, checker *k)
{
    static const as_diag order[] = {AS_DIAG_CARRIED_ERROR, AS_DIAG_NO_SCALE,
                                    AS_DIAG_SCALE_MULTIPLIED, AS_DIAG_NO_MASK,
                                    AS_DIAG_SOFTMAX_COLUMNS, AS_DIAG_TRANSPOSED};
    size_t i, j;
    int rc = 0;

    for (i = 0; i < sizeof order / sizeof order[0] && rc >= 0 && !g->diagnosis; i++) {
        as_matrix cand = {0}, slack = {0};
        rc = mistaken(&cand, &slack, k, g, order[i]);
        if (rc == 1 && table_matches(g->given, &cand, &slack, k->tol)) {
            g->diagnosis = order[i];
            if (order[i] == AS_DIAG_CARRIED_ERROR)
                snprintf(g->carried_from, sizeof g->carried_from, "%s", k->from);
        }
        as_matrix_free(&cand);
        as_matrix_free(&slack);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++)
            as_matrix_free(&k->slice[i][j]);
    return rc < 0 ? -1 : 0;
}

/* What mistake d gives in place of the right table (kind, head), with nothing of the
 * student's: the Moodle export offers it as a wrong answer (SPEC §7). */
int as_mistake_table(as_matrix *out, const as_problem *p, const as_trace *t,
                     as_answer_kind kind, long head, as_diag d)
{
    const as_matrix *whole[] = {&t->Q, &t->K, &t->V, NULL, NULL, NULL, &t->O, &t->C};
    checker k;
    as_table_grade g;
    as_matrix slack = {0};
    size_t i, j;
    int rc;

    memset(&k, 0, sizeof k);
    memset(&g, 0, sizeof g);
    memset(out, 0, sizeof *out);
    k.p = p;
    k.t = t;
    k.tol = -1;
    g.kind = kind;
    g.head = head;
    g.expected = head >= 0 ? head_table(&t->head[head], kind) : whole[kind];
    if (d == AS_DIAG_CARRIED_ERROR || g.expected == NULL)
        return 0; /* a carried error needs the student's own earlier tables */
    rc = mistaken(out, &slack, &k, &g, d);
    as_matrix_free(&slack);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++)
            as_matrix_free(&k.slice[i][j]);
    if (rc != 1)
        as_matrix_free(out);
    return rc;
}

/* ------------------------------------------------------------------------------ */
/* Grading                                                                          */
/* ------------------------------------------------------------------------------ */

/* Finds the wrong cells of one table (all of them when the shape differs). */
static int grade_cells(as_table_grade *g, double tol)
{
    const as_matrix *e = g->expected, *w = &g->given->value;
    const size_t cells = e->rows * e->cols;
    size_t i;

    g->shape_ok = e->rows == w->rows && e->cols == w->cols;
    if ((g->wrong = malloc((cells ? cells : 1) * sizeof *g->wrong)) == NULL)
        return -1;
    for (i = 0; i < cells; i++)
        if (!g->shape_ok || !cell_ok(w->v[i], g->given->unit.v[i], e->v[i], tol, 0))
            g->wrong[g->nwrong++] = i;
    g->correct = g->nwrong == 0;
    return 0;
}

/* Resolves every answer's name, refusing a table given twice. */
static int resolve_all(as_grade *g, const as_problem *p, const as_trace *t,
                       const as_answers *a, as_error *err)
{
    size_t i, j;

    for (i = 0; i < a->count; i++, g->count++) {
        if (resolve(&g->table[i], p, t, a, &a->item[i], err) != 0)
            return -1;
        for (j = 0; j < i; j++)
            if (g->table[j].expected == g->table[i].expected)
                return name_error(a, &a->item[i], err, "this table is given twice",
                                  "keep one answer for each table");
    }
    return 0;
}

int as_check_grade(as_grade *g, const as_problem *p, const as_trace *t, const as_answers *a,
                   double tol, as_error *err)
{
    checker k;

    memset(g, 0, sizeof *g);
    memset(&k, 0, sizeof k);
    k.p = p, k.t = t, k.g = g, k.tol = tol;
    if (a->count == 0) {
        as_error_set(err, a->path, 0, 0, "ANSWERS holds no table to check");
        as_error_hint(err, "write the tables as the input does, e.g. S = [[0, -inf], [0.7071, 0]]");
        return -1;
    }
    if ((g->table = calloc(a->count, sizeof *g->table)) == NULL)
        goto nomem;
    if (resolve_all(g, p, t, a, err) != 0)
        goto fail;
    qsort(g->table, g->count, sizeof *g->table, by_book_order);
    g->correct = 1;
    for (k.done = 0; k.done < g->count; k.done++) {
        as_table_grade *e = &g->table[k.done];
        if (grade_cells(e, tol) != 0 || (!e->correct && diagnose(e, &k) != 0))
            goto nomem;
        g->correct &= e->correct;
    }
    return 0;
nomem:
    as_error_set(err, a->path, 0, 0, "out of memory");
fail:
    as_grade_free(g);
    return -1;
}

void as_grade_free(as_grade *g)
{
    size_t i;

    for (i = 0; i < g->count; i++)
        free(g->table[i].wrong);
    free(g->table);
    memset(g, 0, sizeof *g);
}
