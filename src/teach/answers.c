/* answers.c - reading a student's ANSWERS file (SPEC §6): `NAME = [[...]]` statements in
 * the input syntax, the precision each number was written to, the names a table may
 * have, and whether a written cell stands for a true value. */
#include "attnstep/answers.h"
#include "attnstep/numfmt.h"
#include "attnstep/i18n.h"
#include "attnstep/lex.h"
#include "attnstep/parse.h"
#include "attnstep/reader.h"
#include "attnstep/suggest.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* ------------------------------------------------------------------------------ */
/* Reading ANSWERS on the one matrix reader (reader.h): only the statements are here  */
/* ------------------------------------------------------------------------------ */

/* Every answer may be one row ([1, 0]), hold -inf (masked cells of S), and keeps the
 * unit of each number's last written digit. */
#define ANSWER_FLAGS (AS_RD_ONE_ROW | AS_RD_NEG_INF | AS_RD_UNITS)

#define ELL "\xE2\x84\x93" /* ℓ, the online softmax's running sum (SPEC §11) */

/* Bytes of a head written after a table's letters at p: "[12]" (--ascii), else 0. */
static size_t bracket_head(const char *p, const char *end, long *head)
{
    const char *q = p + 1;

    if (p >= end || *p != '[' || q >= end || *q < '0' || *q > '9')
        return 0;
    for (*head = 0; q < end && *q >= '0' && *q <= '9' && *head < 100000; q++)
        *head = *head * 10 + (*q - '0');
    return q < end && *q == ']' ? (size_t)(q + 1 - p) : 0;
}

/* Bytes of a name at p: an ASCII letter (or ℓ), then anything up to a blank, "=", ":",
 * "[", "#" or the line's end ("QKᵀ", "QK^T", "S_h0", "Q₀", "ℓ₁"). 0 when p holds no
 * name. */
static size_t name_len(const char *p, const char *end)
{
    size_t n = 0, k;
    long head;

    if (end - p >= 3 && memcmp(p, ELL, 3) == 0)
        n = 3; /* ℓ, ℓ₁: the online softmax's running sum */
    else if (p >= end || !((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))
        return 0;
    while (p + n < end && !strchr(" \t=:#\r\n", p[n]) && as_lex_blank(p + n, end) == 0 &&
           as_lex_colon(p + n, end) == 0) {
        if (p[n] != '[')
            n++;
        else if ((k = bracket_head(p + n, end, &head)) > 0)
            n += k; /* "A[1]": a head, as --ascii writes it */
        else
            break; /* "S=[[": the table */
    }
    return n;
}

/* Bytes of a settings key at p ("name", "title", "标题"), or of a caption of the tool's
 * own output that ends in a colon ("the cache (rows so far: 2):", "reads from the cache:
 * [我]"): anything up to ":" or "：" with no "=", "[" or "#" before it, the colon
 * included; 0 when p starts no such line. */
static size_t key_len(const char *p, const char *end)
{
    const char *q = p;
    size_t k;

    while (q < end && as_lex_eol(q, end) == 0 && *q != '=' && *q != '[' && *q != '#') {
        if ((k = as_lex_colon(q, end)) > 0)
            return q > p ? (size_t)(q + k - p) : 0;
        q += as_lex_char_len(q, end);
    }
    return 0;
}

/* Nonzero at a line of the tool's own text output that holds no table: a heading
 * "── 第0个头 ──" ("-- head 0 --" with --ascii) or a note in parentheses
 * "（交叉注意力：…）", "(cross-attention: …)". */
static int at_note(const char *p, const char *end)
{
    if ((end - p >= 9 && memcmp(p, "\xE6\xA0\x87\xE9\xA2\x98\xEF\xBC\x9A", 9) == 0) ||
        (end - p >= 7 && memcmp(p, "title: ", 7) == 0))
        return 1; /* run's "标题：…" / "title: …": the input's own words, never a table */
    return (end - p >= 3 && (memcmp(p, "\xE2\x94\x80", 3) == 0 || /* ─ */
                             memcmp(p, "\xEF\xBC\x88", 3) == 0 || /* （ */
                             memcmp(p, "-- ", 3) == 0)) ||
           (p < end && *p == '(');
}

static char *grading_name(const char *p, size_t n);

/* Nonzero when the n bytes at p name a table or row an answer may give. */
static int answer_name_at(const char *p, size_t n)
{
    as_answer_kind kind;
    long head, row;
    char *name = n > 0 && n < 64 ? grading_name(p, n) : NULL;
    int ok = name != NULL && (as_answer_name(name, &kind, &head) == 0 ||
                              as_answer_row(name, &kind, &head, &row) == 0);

    free(name);
    return ok;
}

/* Bytes from p to an answer that follows a caption on this line, as `decode` writes its
 * rows: "缩放分数：s₁ ≈ [0.7071067812, 0]", "attention output of position “我”: o₀ =
 * [10,0]" -- the caption ends in a blank or a colon, then a name an answer may have,
 * "=" (or "≈", "~="), and a table. 0 when the line is no such line. */
static size_t caption_len(const char *p, const char *end)
{
    const char *q, *r;
    size_t k, n;

    for (r = p + name_len(p, end); r > p && (k = as_lex_blank(r, end)) > 0;)
        r += k;
    if (r > p && r < end && (*r == '=' || *r == '~' || (unsigned char)*r == 0xE2))
        return 0; /* "NAME = …", "NAME ≈ …": a statement of its own */
    for (q = p; q < end && as_lex_eol(q, end) == 0 && *q != '#'; q += as_lex_char_len(q, end)) {
        if (q == p || !(q[-1] == ' ' || q[-1] == '\t' || q[-1] == ':' ||
                        (q - p >= 3 && memcmp(q - 3, "\xEF\xBC\x9A", 3) == 0))) /* ： */
            continue;
        if ((n = name_len(q, end)) == 0 || !answer_name_at(q, n))
            continue;
        for (r = q + n; (k = as_lex_blank(r, end)) > 0;)
            r += k;
        if (end - r >= 3 && memcmp(r, "\xE2\x89\x88", 3) == 0)
            r += 3; /* ≈ */
        else if (end - r >= 2 && memcmp(r, "~=", 2) == 0)
            r += 2;
        else if (r < end && *r == '=')
            r++;
        else
            continue;
        while ((k = as_lex_blank(r, end)) > 0)
            r += k;
        if (r < end && *r == '[')
            return (size_t)(q - p);
    }
    return 0;
}

/* The reader's hook: "NAME =" anywhere; first on a line also "key: value", and a
 * heading or note of the tool's own output. */
static int at_statement(const as_cursor *c, int first)
{
    const size_t n = name_len(c->p, c->end);
    const char *q = c->p + n;
    size_t k;

    if (first == 1 && (key_len(c->p, c->end) > 0 || at_note(c->p, c->end) ||
                       caption_len(c->p, c->end) > 0))
        return 1;
    if (n == 0)
        return 0;
    while ((k = as_lex_blank(q, c->end)) > 0)
        q += k;
    return q < c->end && (*q == '=' || (c->end - q >= 3 && memcmp(q, "\xE2\x89\x88", 3) == 0) ||
                          (c->end - q >= 2 && memcmp(q, "~=", 2) == 0)); /* ≈: run's rounded tables */
}

/* -1 with an error when the key of key bytes at the cursor is one word that is no
 * setting but near one (`maks:` for `mask:`, `nmae:` for `name:`): a slip that would
 * else be ignored. Other keys (the tool's captions, 标题：) are no slips: 0. */
static int misspelt_setting(as_reader *r, size_t key)
{
    const char *p = r->c.p;
    const size_t w = as_lex_ident_len(p, r->c.end);
    const char *names[32], *const *set;
    size_t n, i;
    const char *near;
    char q[64];

    if (w == 0 || w + 1 != key || p[w] != ':')
        return 0;
    set = as_setting_names(&n);
    for (i = 0; i < n && i < 30; i++) {
        if (as_lex_word_is(p, w, set[i]))
            return 0;
        names[i] = set[i];
    }
    names[i++] = "name";
    names[i++] = "variant";
    if (as_lex_word_is(p, w, "name") || as_lex_word_is(p, w, "variant") || (near = as_suggest(p, w, names, i)) == NULL)
        return 0;
    as_lex_quote(q, sizeof q, p, w);
    as_reader_err_pos(r, NULL, as_reader_pos(r, p), AS_RD_NO_HINT, AS_MSG_RD_UNKNOWN_SETTING, q);
    as_error_hint_msg(r->err, AS_MSG_DID_YOU_MEAN, near);
    return -1;
}

/* The value of a `key: value` line at the cursor (after the key of key bytes), up to a
 * comment, blanks trimmed, as a new string in *out (any earlier one freed). */
static int setting_value(as_reader *r, size_t key, char **out)
{
    as_cursor *c = &r->c;
    const char *v, *e;

    c->p += key;
    as_cursor_skip_blanks(c);
    v = c->p;
    as_cursor_skip_line(c);
    for (e = v; e < c->p && *e != '#'; e++)
        ;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    free(*out);
    if ((*out = malloc((size_t)(e - v) + 1)) == NULL)
        return as_reader_fail_memory(r, v);
    memcpy(*out, v, (size_t)(e - v));
    (*out)[e - v] = '\0';
    return 0;
}

/* `name: 张三` names the student, `variant: K7QM` the variant of the class on the sheet
 * (SPEC §6); other settings (title, tokens, the tool's 标题：) are the input's and mean
 * nothing here, but a misspelt one is named. The cursor is at the key. */
static int setting(as_reader *r, size_t key)
{
    as_answers *a = r->ctx;
    as_cursor *c = &r->c;

    if (misspelt_setting(r, key) != 0)
        return -1;
    if (key == 5 && memcmp(c->p, "name", 4) == 0)
        return setting_value(r, key, &a->student);
    if (key == 8 && memcmp(c->p, "variant", 7) == 0)
        return setting_value(r, key, &a->variant);
    as_cursor_skip_line(c);
    return 0;
}

/* The digit of a subscript ₀ … ₉ at p, or -1. */
static int subscript_digit(const char *p, const char *end)
{
    if (end - p < 3 || memcmp(p, "\xE2\x82", 2) != 0 || (unsigned char)p[2] < 0x80 ||
        (unsigned char)p[2] > 0x89)
        return -1;
    return (unsigned char)p[2] - 0x80;
}

/* Nonzero when the rows of table t go by its own capital name in brackets ("N1[0]",
 * "U[2]": the block's, one table for the layer, no head's) -- so "U[0]" is U's row 0,
 * where "A[1]" is head 1's A (--ascii). */
static int own_rows(const as_tab_info *t)
{
    return t->row[0] >= 'A' && t->row[0] <= 'Z' && strcmp(t->row, t->name) == 0 && !t->per_head;
}

/* The name as the grading knows it: a head written as a subscript, as `run` prints
 * several heads ("Q₀", "S₀", "Q₀K₀ᵀ", or "A[1]", "Q[0]K[0]^T" with --ascii), becomes
 * "_h0" after the table's letters ("Q_h0", "S_h0", "QKT_h0", "A_h1"). Any other name is
 * kept as written. The caller frees the result; NULL when memory ran out. */
static char *grading_name(const char *p, size_t n)
{
    const char *const start = p, *end = p + n;
    char base[16], *out = malloc(n + 24);
    size_t used = 0, k;
    long head = -1, group = -1, b;
    int d, plain = 0, bracket = 0, t;

    if (out == NULL)
        return NULL;
    while (p < end && !plain) {
        if ((d = subscript_digit(p, end)) >= 0) {
            group = (group < 0 ? 0 : group * 10) + d;
            p += 3;
            continue;
        }
        if ((k = bracket_head(p, end, &b)) > 0)
            group = b, p += k, bracket = 1;
        if (group >= 0) { /* a head just ended: every head in a name is the same one */
            plain |= head >= 0 && head != group;
            head = group;
            group = -1;
            continue;
        }
        if (end - p >= 3 && memcmp(p, "\xE1\xB5\x80", 3) == 0) /* ᵀ */
            base[used++] = 'T', p += 3;
        else if (*p == '^')
            p++;
        else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
            base[used++] = *p++;
        else
            plain = 1;
        plain |= used + 1 >= sizeof base;
    }
    if (group >= 0) {
        plain |= head >= 0 && head != group;
        head = group;
    }
    base[used] = '\0';
    if (bracket && (t = as_tab_lookup(base, used, 0)) >= 0 && own_rows(as_tab_get((as_tab)t)))
        plain = 1; /* "U[0]": U's row 0 (decode's), kept for as_answer_row */
    if (!plain && head >= 0 && base[0] >= 'A' && base[0] <= 'Z')
        snprintf(out, n + 24, "%s_h%ld", base, head);
    else
        snprintf(out, n + 24, "%.*s", (int)n, start);
    return out;
}

/* Nonzero when p opens brackets that hold no words ("[]", "[,0", "[1", or "[" that ends
 * the line, its rows below it as an input file may write them): a table the reader
 * reads or reports on, not a formula such as "[head₀|head₁] Wo". */
static int bracketed(const char *p, const char *end)
{
    size_t k;

    if (p >= end || *p != '[')
        return 0;
    for (p++; (k = as_lex_blank(p, end)) > 0;)
        p += k;
    return p >= end || as_lex_eol(p, end) > 0 || *p == '#' || *p == '[' || *p == ']' ||
           as_lex_comma(p, end) > 0 || as_lex_number_start(p, end);
}

/* "NAME = [[...": a new answer, opened on the reader; "NAME = formula" with no table on
 * the line (the closing formula of `run`, O = softmax(QKᵀ/√d_k + M)V) is skipped. */
static int answer(as_reader *r, size_t n, as_pos at)
{
    as_answers *a = r->ctx;
    as_cursor *c = &r->c;
    const char *name = c->p, *table;
    as_answer *grown, *ans;

    c->p += n;
    as_cursor_skip_blanks(c);
    if (c->end - c->p >= 3 && memcmp(c->p, "\xE2\x89\x88", 3) == 0)
        c->p += 2; /* "PE ≈ [[": how run prints a table of rounded values, name and ≈ */
    else if (c->end - c->p >= 2 && memcmp(c->p, "~=", 2) == 0)
        c->p += 1; /* the same with --ascii */
    else if (c->p >= c->end || *c->p != '=')
        return as_reader_err_at(r, c->p, AS_MSG_ANS_NO_EQUALS_HINT, AS_MSG_ANS_NO_EQUALS, (int)n,
                                name);
    c->p++;
    as_cursor_skip_blanks(c);
    if (as_lex_word_is(c->p, as_lex_ident_len(c->p, c->end), "tensor")) {
        char q[64]; /* S = tensor([[…]]): PyTorch's print, no formula to skip */
        as_lex_quote(q, sizeof q, name, n);
        as_reader_err_at(r, c->p, AS_RD_NO_HINT, AS_MSG_ANS_NO_TABLE, (int)n, name);
        as_error_hint_msg(r->err, AS_MSG_PS_PASTE_TENSOR_HINT, q);
        return -1;
    }
    if ((table = as_reader_formula_table(c)) != NULL) {
        c->p = table; /* S = QKᵀ/√2 + M = [[…: the formula is the book's */
    } else if (!as_cursor_at_stop(c) && !bracketed(c->p, c->end)) {
        as_cursor_skip_line(c); /* a formula and no table: O = softmax(QKᵀ/√d_k + M)V */
        return 0;
    }
    if (c->p >= c->end || *c->p != '[')
        return as_reader_err_at(r, c->p, AS_MSG_ANS_SAME_LINE_HINT, AS_MSG_ANS_NO_TABLE, (int)n,
                                name);
    if ((grown = realloc(a->item, (a->count + 1) * sizeof *grown)) == NULL)
        return as_reader_fail_memory(r, c->p);
    a->item = grown;
    ans = memset(&a->item[a->count], 0, sizeof *ans);
    ans->pos = at;
    if ((ans->name = grading_name(name, n)) == NULL)
        return as_reader_fail_memory(r, name);
    a->count++;
    return as_reader_open(r, (int)(a->count - 1), ans->name, ANSWER_FLAGS);
}

/* The reader's hook: a statement at the cursor. */
static int statement(as_reader *r, int first)
{
    as_cursor *c = &r->c;
    const int note = first && at_note(c->p, c->end); /* before a caption: a title may
                                                       * hold "… D = [[" in its words */
    const size_t caption = first && !note ? caption_len(c->p, c->end) : 0;
    const size_t key = first && !note && caption == 0 ? key_len(c->p, c->end) : 0;

    if (caption > 0)
        c->p += caption; /* the caption is the tool's words: the answer follows */
    if (key > 0)
        return setting(r, key);
    if (note) {
        as_cursor_skip_line(c);
        return 0;
    }
    return answer(r, name_len(c->p, c->end), as_reader_pos(r, c->p));
}

/* The reader's hook: a table closed; its values and units become the answer's. */
static int store(as_reader *r, as_rd_matrix *b)
{
    as_answer *ans = &((as_answers *)r->ctx)->item[b->id];

    ans->value.rows = ans->unit.rows = b->rows;
    ans->value.cols = ans->unit.cols = b->cols;
    ans->value.v = b->v;
    ans->unit.v = b->u;
    b->v = b->u = NULL;
    return 0;
}

static const as_reader_hooks hooks = {at_statement, statement, store};

int as_answers_parse(as_answers *a, const char *text, size_t len, const char *path,
                     as_error *err)
{
    int rc;

    memset(a, 0, sizeof *a);
    if ((a->path = malloc(strlen(path) + 1)) == NULL) {
        as_error_msg(err, path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    strcpy(a->path, path);
    rc = as_reader_read_text(a->path, err, &hooks, a, text, len);
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
    free(a->variant);
    memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------------------------ */
/* Cells: right to the precision written                                            */
/* ------------------------------------------------------------------------------ */


int as_answer_cell_ok(double w, double u, double x, double tol, double slack)
{
    double allow;

    if (isinf(w) || isinf(x))
        return w == x; /* a masked cell is -inf and nothing else */
    allow = tol >= 0 ? tol : u > 0 ? u / 2 : AS_EXACT_MARGIN * fmax(1.0, fabs(x));
    /* the margins absorb that 0.01 and the true value are binary approximations */
    return fabs(w - x) <= (allow + slack) * (1 + 1e-9) + 4 * DBL_EPSILON * fabs(x);
}

/* ------------------------------------------------------------------------------ */
/* Names                                                                            */
/* ------------------------------------------------------------------------------ */

/* The answer kind of registry row t, or -1 when an ANSWERS file may not hold it. */
static int kind_of(int t)
{
    return t < 0 ? -1 : as_tab_answer((as_tab)t);
}

int as_answer_name(const char *name, as_answer_kind *kind, long *head)
{
    const size_t n = strcspn(name, "_");
    const char *rest = name + n;
    char *end;
    const int k = kind_of(as_tab_lookup(name, n, 0));

    if (k < 0)
        return -1;
    *kind = (as_answer_kind)k;
    *head = -1;
    if (*rest == '\0')
        return 0;
    if (strncmp(rest, "_h", 2) == 0 && rest[2] >= '0' && rest[2] <= '9') {
        *head = strtol(rest + 2, &end, 10);
        if (*end == '\0' && *head < (long)AS_MAX_DIM)
            return 0;
    }
    return -1;
}

/* The row number after a row answer's letter: ASCII digits or subscript digits (₀ is
 * E2 82 80 ... ₉ E2 82 89), or digits in brackets as --ascii writes them ("q[1]"), then
 * optionally "_hN". -1 when it is not one. */
static long row_number(const char *s, long *head)
{
    long row = -1;
    char *end;
    int bracket = *s == '[';

    s += bracket;
    while (*s != '\0' && *s != '_' && !(bracket && *s == ']')) {
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
    if (bracket && *s++ != ']')
        return -1;
    *head = -1;
    if (*s == '\0')
        return row;
    if (strncmp(s, "_h", 2) != 0 || s[2] < '0' || s[2] > '9')
        return -1;
    *head = strtol(s + 2, &end, 10);
    return *end == '\0' && *head < (long)AS_MAX_DIM ? row : -1;
}

/* Nonzero when name starts with letters (or, for a table whose rows are named by its
 * own name, one of its spellings) and a row number follows; sets *row and *head. */
static int row_named(const char *name, const as_tab_info *t, long *head, long *row)
{
    const char *also = t->also;
    size_t n = strlen(t->row);

    if (strncmp(name, t->row, n) == 0 && (!own_rows(t) || name[n] == '[') &&
        (*row = row_number(name + n, head)) >= 0)
        return 1; /* N1[0]: the block's rows only in brackets, as decode prints them */
    if (strcmp(t->row, t->name) != 0)
        return 0;
    for (; *also != '\0'; also += n + (also[n] == '|')) { /* ℓ1 for l1 */
        n = strcspn(also, "|");
        if (strncmp(name, also, n) == 0 && (*row = row_number(name + n, head)) >= 0)
            return 1;
    }
    return 0;
}

int as_answer_row(const char *name, as_answer_kind *kind, long *head, long *row)
{
    size_t k;

    for (k = 0; k < AS_ANS_KINDS; k++) {
        const as_tab_info *t = as_tab_get(as_tab_of_answer((as_answer_kind)k));
        if (t->row[0] != '\0' && row_named(name, t, head, row)) {
            *kind = (as_answer_kind)k;
            return 0;
        }
    }
    return -1;
}

const char *as_answer_row_letter(as_answer_kind kind)
{
    return (unsigned)kind < AS_ANS_KINDS ? as_tab_get(as_tab_of_answer(kind))->row : "";
}

const char *as_answer_kind_name(as_answer_kind kind)
{
    return (unsigned)kind < AS_ANS_KINDS ? as_tab_get(as_tab_of_answer(kind))->name : "?";
}

void as_table_shown_name(char *buf, size_t size, const char *name, int ascii)
{
    size_t t, best = 0, at = AS_TAB_COUNT;

    for (t = 0; t < AS_TAB_COUNT; t++) { /* the longest table name that name starts with */
        const char *n = as_tab_get((as_tab)t)->name;
        const size_t len = strlen(n);
        if (len > best && strncmp(name, n, len) == 0 && !isalpha((unsigned char)name[len]))
            best = len, at = t;
    }
    if (at == AS_TAB_COUNT)
        snprintf(buf, size, "%s", name);
    else /* QKT_h1 as QKᵀ_h1, l1_h0 as ℓ1_h0: as the book writes them */
        snprintf(buf, size, "%s%s", as_tab_shown((as_tab)at, ascii), name + best);
}
