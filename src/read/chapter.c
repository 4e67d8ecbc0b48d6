/* chapter.c - a chapter's text as the book prints it (SPEC §18), on the one matrix
 * reader (reader.h): the blocks are the reader's matrices, the walk-through's rows are
 * its one-row matrices, and the lines of prose around them are skipped. The words the
 * walk-through's lines start with (缩放分数：, 减最大值：, 输出第0格 = …) are the ones the
 * tool's own walk-through prints: read from the message table, in either language. */
#include "attnstep/chapter.h"
#include "attnstep/i18n.h"
#include "attnstep/lex.h"
#include "attnstep/number.h"
#include "attnstep/parse.h"
#include "attnstep/tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUB_T "\xE1\xB5\x80"   /* ᵀ */
#define APPROX "\xE2\x89\x88"  /* ≈ */
#define ROOT "\xE2\x88\x9A"    /* √ */
#define MIDDOT "\xC2\xB7"      /* · of q₁·k₀ */

/* Every number of a printed table keeps its unit and its place. */
#define PRINTED_FLAGS (AS_RD_UNITS | AS_RD_PLACES)

typedef struct ctx {
    as_chapter *ch;
    long row;          /* the walk-through's row: that of the last q named (q₁·k₀, q₁=[…]) */
    long cell;         /* 输出第c格 = … waiting for the "≈ v" of its next line; -1: none */
    as_pos cell_pos;   /* where its key stands, and the key */
    char cell_name[48];
} ctx;

/* The reader's names of what a matrix is (kept alive for its messages). */
static const char *const kind_name[AS_PR_KINDS] = {
    "X", "Q", "K", "V", "QK\xE1\xB5\x80", "s", "S", "s - max", "exp", "sum", "A", "O", "C",
    "PE", ROOT, "Qr", "Kr", "B", "block", "\xCE\xBC", "\xCF\x83\xC2\xB2", "div",
    "x\xCC\x82",
};

/* ------------------------------------------------------------------ small readers ---- */

/* Bytes of blanks at p. */
static const char *blanks(const char *p, const char *end)
{
    size_t k;

    while ((k = as_lex_blank(p, end)) > 0)
        p += k;
    return p;
}

/* After "=", "≈" or "~=" at p (blanks before and after): the byte that follows; NULL
 * when p holds none of them. */
static const char *equals(const char *p, const char *end)
{
    p = blanks(p, end);
    if (p < end && *p == '=')
        return blanks(p + 1, end);
    if (end - p >= 3 && memcmp(p, APPROX, 3) == 0)
        return blanks(p + 3, end);
    if (end - p >= 2 && memcmp(p, "~=", 2) == 0)
        return blanks(p + 2, end);
    return NULL;
}

/* Bytes of a row number at p, written in subscript digits (₀ … ₉) or ASCII ones; *n gets
 * it. 0 when p holds no digit. */
static size_t row_digits(const char *p, const char *end, long *n)
{
    const char *q = p;

    for (*n = 0; q < end && *n < 100000;) {
        if (end - q >= 3 && memcmp(q, "\xE2\x82", 2) == 0 && (unsigned char)q[2] >= 0x80 &&
            (unsigned char)q[2] <= 0x89)
            *n = *n * 10 + ((unsigned char)q[2] - 0x80), q += 3;
        else if (*q >= '0' && *q <= '9')
            *n = *n * 10 + (*q++ - '0');
        else
            break;
    }
    return (size_t)(q - p);
}

/* Bytes of a walk-through row's name at p ("q₁", "k0", "o₁"): one of q k v s a o, then
 * its row; *what and *row get them. 0 when p holds none. */
static size_t row_name(const char *p, const char *end, as_printed_what *what, long *row)
{
    static const char letters[] = "qkvsao";
    static const as_printed_what kinds[] = {AS_PR_Q, AS_PR_K, AS_PR_V,
                                            AS_PR_SCALED, AS_PR_A, AS_PR_O};
    const char *l = p < end && *p != '\0' ? strchr(letters, *p) : NULL;
    size_t n;

    if (l == NULL || (n = row_digits(p + 1, end, row)) == 0)
        return 0;
    if (p + 1 + n < end && as_lex_ident_len(p + 1 + n, end) > 0)
        return 0; /* "a1b": a word, no row */
    *what = kinds[l - letters];
    return 1 + n;
}

/* Bytes of a head's number at p in subscript digits ("₁" of S₁); *h gets it. 0 when p
 * holds none. */
static size_t head_digits(const char *p, const char *end, long *h)
{
    const char *q = p;

    for (*h = 0; end - q >= 3 && memcmp(q, "\xE2\x82", 2) == 0 && (unsigned char)q[2] >= 0x80 &&
                 (unsigned char)q[2] <= 0x89 && *h < 100000;
         q += 3)
        *h = *h * 10 + ((unsigned char)q[2] - 0x80);
    return (size_t)(q - p);
}

/* Bytes of a block's name at p: ASCII letters, digits, "_", "^" and ᵀ ("QKᵀ", "W_Q"),
 * with a head's subscript after a letter as the multi-head chapter names its tables
 * (Q₀, Q₀K₀ᵀ, S₁: one head throughout). *it gets what the block is (and its head); 0
 * when the name is no table of the chapter. */
static size_t block_name(const char *p, const char *end, as_printed *it)
{
    /* the registry's tables a chapter prints as blocks (their names and spellings are
     * the registry's: QKT, QKᵀ, QK^T) */
    static const struct {
        as_tab tab;
        as_printed_what what;
    } out[] = {{AS_TAB_Q, AS_PR_Q},   {AS_TAB_K, AS_PR_K},   {AS_TAB_V, AS_PR_V},
               {AS_TAB_QKT, AS_PR_QKT}, {AS_TAB_S, AS_PR_S}, {AS_TAB_A, AS_PR_A},
               {AS_TAB_O, AS_PR_O},   {AS_TAB_C, AS_PR_C},   {AS_TAB_PE, AS_PR_PE},
               {AS_TAB_QR, AS_PR_QR}, {AS_TAB_KR, AS_PR_KR}, {AS_TAB_B, AS_PR_B}};
    /* the block's tables (SPEC §15) */
    static const as_tab block_tabs[] = {AS_TAB_N1, AS_TAB_H1, AS_TAB_N2, AS_TAB_U, AS_TAB_G,
                                        AS_TAB_F, AS_TAB_D, AS_TAB_H2, AS_TAB_Y};
    char plain[16];
    size_t n = 0, used = 0, i, k;
    long head = -1, h;
    int id, mixed = 0;

    while (p + n < end && used + 1 < sizeof plain) {
        if (end - p - n >= 3 && memcmp(p + n, SUB_T, 3) == 0)
            plain[used++] = 'T', n += 3;
        else if (used > 0 && (k = head_digits(p + n, end, &h)) > 0) {
            mixed |= head >= 0 && h != head; /* Q₀K₁ᵀ: two heads */
            head = h;
            n += k;
        } else if (as_lex_ident_len(p + n, end) > 0 || p[n] == '^' ||
                 (n > 0 && p[n] >= '0' && p[n] <= '9'))
            plain[used++] = p[n++];
        else
            break;
    }
    plain[used] = '\0';
    if (used == 0 || (p + n < end && (unsigned char)p[n] >= 0x80 && equals(p + n, end) == NULL))
        return 0;
    if (mixed)
        return 0;
    if ((id = as_mat_lookup(plain, used)) >= 0) {
        if (head >= 0)
            return 0; /* a given table has no head's subscript */
        it->what = AS_PR_INPUT;
        it->input = id;
        return n;
    }
    if ((id = as_tab_lookup(plain, used, 0)) < 0)
        return 0;
    for (i = 0; i < sizeof out / sizeof out[0]; i++)
        if (out[i].tab == (as_tab)id &&
            (head < 0 || out[i].what < AS_PR_C || out[i].what >= AS_PR_QR)) {
            it->what = out[i].what;
            it->head = head;
            return n;
        }
    for (i = 0; head < 0 && i < sizeof block_tabs / sizeof block_tabs[0]; i++)
        if (block_tabs[i] == (as_tab)id) {
            it->what = AS_PR_BLOCK;
            it->tab = (int)block_tabs[i];
            return n;
        }
    return 0;
}

/* Bytes of the name of a norm's sub-step at p, as the book writes it (μ, σ², x̂, the
 * divisor √(σ²+ε), σ+ε or rms) or in ASCII (mu, var, div, xhat), when "=" or "≈"
 * follows; *what gets which. 0 when p holds none. */
static size_t norm_name(const char *p, const char *end, as_printed_what *what)
{
    static const struct {
        const char *name;
        as_printed_what what;
    } names[] = {
        {"\xE2\x88\x9A(\xCF\x83\xC2\xB2+\xCE\xB5)", AS_PR_DIV}, /* √(σ²+ε) */
        {"\xCF\x83+\xCE\xB5", AS_PR_DIV},                         /* σ+ε */
        {"\xCF\x83\xC2\xB2", AS_PR_VAR},                          /* σ² */
        {"\xCE\xBC", AS_PR_MEAN},                                 /* μ */
        {"x\xCC\x82", AS_PR_XHAT},                                /* x̂ */
        {"rms", AS_PR_DIV}, {"mu", AS_PR_MEAN}, {"var", AS_PR_VAR}, {"div", AS_PR_DIV},
        {"xhat", AS_PR_XHAT},
    };
    size_t i, n;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        n = strlen(names[i].name);
        if ((size_t)(end - p) >= n && memcmp(p, names[i].name, n) == 0 &&
            equals(p + n, end) != NULL) {
            *what = names[i].what;
            return n;
        }
    }
    return 0;
}

/* Nonzero when the "[" at p opens one row of numbers that closes on its line ("[1, 0]",
 * "[1/√2, 0/√2]"), not an expression ("[1×0.5+1×(-0.5), …]") or words ("[我,爱]"). */
static int number_row(const char *p, const char *end)
{
    const char *why;
    double x;
    size_t k;

    if (p >= end || *p != '[')
        return 0;
    for (p++;;) {
        p = blanks(p, end);
        if (p < end && *p == ']')
            return 1;
        if ((k = as_parse_number(p, (size_t)(end - p), 1, &x, &why)) == 0)
            return 0;
        p = blanks(p + k, end);
        if ((k = as_lex_comma(p, end)) > 0)
            p += k;
        else if (p >= end || *p != ']')
            return 0;
    }
}

/* ------------------------------------------------------------------ the items ---- */

/* Nonzero for a norm's sub-step with one number per token (μ, σ², the divisor), which
 * the book may print as one row. */
static int one_per_token(as_printed_what what)
{
    return what == AS_PR_MEAN || what == AS_PR_VAR || what == AS_PR_DIV;
}

/* Nonzero for a printed item the book may print as one row in single brackets: a norm's
 * numbers per token, a bias or a norm's γ or β (bup = [0, 0.5]), as the input allows. */
static int one_row(const as_printed *it)
{
    const int id = it->input;

    if (it->what != AS_PR_INPUT)
        return one_per_token(it->what);
    return id == AS_BQ || id == AS_BK || id == AS_BV || id == AS_BO ||
           (id >= AS_LN1_G && id <= AS_LNF_B) || id == AS_BUP || id == AS_BDOWN;
}


/* A new item of kind proto (its name as the book writes it: n bytes at name) at place at.
 * Returns its index, or -1 with the error set when memory ran out. */
static long add_item(as_reader *r, const as_printed *proto, const char *name, size_t n)
{
    as_chapter *ch = ((ctx *)r->ctx)->ch;
    as_printed *grown = realloc(ch->item, (ch->count + 1) * sizeof *grown), *it;

    if (grown == NULL)
        return as_reader_fail_memory(r, name);
    ch->item = grown;
    it = &ch->item[ch->count];
    *it = *proto;
    it->pos = as_reader_pos(r, name);
    while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == ':'))
        n--; /* "指数之和：" names its number "指数之和" */
    if (n >= 3 && memcmp(name + n - 3, "\xEF\xBC\x9A", 3) == 0) /* ： */
        n -= 3;
    if (n >= sizeof it->name)
        n = sizeof it->name - 1;
    memcpy(it->name, name, n);
    it->name[n] = '\0';
    return (long)ch->count++;
}

/* Opens the table or row (proto, named by n bytes at name) at the "[" at p on the reader.
 * 0 or -1. */
static int open_item(as_reader *r, const as_printed *proto, const char *name, size_t n,
                     const char *p)
{
    const long i = add_item(r, proto, name, n);
    unsigned flags = PRINTED_FLAGS | (proto->what == AS_PR_INPUT && proto->input != AS_M
                                          ? 0 : AS_RD_NEG_INF);

    if (i < 0)
        return -1;
    if (proto->row >= 0 || proto->col >= 0 || one_row(proto))
        flags |= AS_RD_ONE_ROW;
    r->c.p = p;
    return as_reader_open(r, (int)i, proto->what == AS_PR_INPUT
                                         ? as_mat_name((as_mat_id)proto->input)
                                         : proto->what == AS_PR_BLOCK
                                               ? as_tab_get((as_tab)proto->tab)->name
                                               : kind_name[proto->what], flags);
}

/* One number at p, the whole of item proto (named by n bytes at name): 1 when it was
 * read, 0 when p holds no number (nothing is added), -1 with the error set. */
static int number_item(as_reader *r, const as_printed *proto, const char *name, size_t n,
                       const char *p)
{
    const char *why;
    double x;
    size_t k = as_parse_number(p, (size_t)(r->c.end - p), 0, &x, &why);
    as_printed *it;
    long i;

    if (k == 0)
        return 0;
    if ((i = add_item(r, proto, name, n)) < 0)
        return -1;
    it = &((ctx *)r->ctx)->ch->item[i];
    if (as_matrix_init(&it->value, 1, 1) != 0 || as_matrix_init(&it->unit, 1, 1) != 0 ||
        (it->at = malloc(sizeof *it->at)) == NULL)
        return as_reader_fail_memory(r, p);
    it->value.v[0] = x;
    it->unit.v[0] = as_written_unit(p, k);
    it->at[0] = as_reader_pos(r, p);
    return 1;
}

/* ------------------------------------------------------------------ blocks ---- */

/* The table after "NAME =" at p when the name is a block of the chapter: "[[" after the
 * formula, if any (S = QKᵀ/√2 + M = [[…); NULL when p starts no block. *it and *n get
 * what the block is and its name's bytes. */
static const char *block_at(const as_cursor *c, as_printed *it, size_t *n)
{
    as_cursor after = *c;
    const char *q, *table;

    memset(it, 0, sizeof *it);
    it->row = it->col = it->head = -1;
    if ((*n = norm_name(c->p, c->end, &it->what)) == 0 &&
        (*n = block_name(c->p, c->end, it)) == 0)
        return NULL;
    if ((q = equals(c->p + *n, c->end)) == NULL)
        return NULL;
    after.p = q;
    table = as_reader_formula_table(&after);
    if (table != NULL && *blanks(table + 1, c->end) != '[' && one_row(it))
        return table; /* μ = [0.25, 0.5, 1], bup = [0, 0.5]: one row */
    if (table == NULL || *blanks(table + 1, c->end) != '[')
        return NULL; /* Q = X @ Wq     输入表示 × 查询参数表: a formula, no table */
    return table;
}

/* ------------------------------------------------------------------ walk-through lines ---- */

/* The walk-through's keys, as the tool's walk-through prints them. */
static const struct {
    as_msg msg;
    as_printed_what what;
} keys[] = {
    {AS_MSG_TR_RAW_ALL, AS_PR_QKT}, {AS_MSG_TR_SCALED, AS_PR_SCALED},
    {AS_MSG_TR_SHIFT, AS_PR_SHIFTED}, {AS_MSG_TR_EXP, AS_PR_EXPS},
    {AS_MSG_TR_SUM, AS_PR_SUM}, {AS_MSG_TR_DIVIDE, AS_PR_A}, {AS_MSG_TR_OUT_CELL, AS_PR_O},
};

/* Bytes of the key of msg at p in language lang, up to its first "%" (with the cell
 * number of "输出第%zu格" read into *cell); 0 when p does not start with it. */
static size_t key_at(const char *p, const char *end, as_lang lang, as_msg msg, long *cell)
{
    const char *t = as_msg_text(lang, msg), *pc = strchr(t, '%'), *lit;
    size_t pre = pc != NULL ? (size_t)(pc - t) : strlen(t), k, lit_n;

    if ((size_t)(end - p) < pre || pre == 0 || memcmp(p, t, pre) != 0)
        return 0;
    if (pc == NULL || strncmp(pc, "%zu", 3) != 0)
        return pre;
    if ((k = row_digits(p + pre, end, cell)) == 0)
        return 0;
    for (lit = pc + 3, lit_n = 0; lit[lit_n] != '\0' && !strchr(" =%", lit[lit_n]); lit_n++)
        ;
    if ((size_t)(end - p) < pre + k + lit_n || memcmp(p + pre + k, lit, lit_n) != 0)
        return 0;
    return pre + k + lit_n;
}

/* The end of the cursor's line. */
static const char *line_end(const as_cursor *c)
{
    const char *q = c->p;

    while (q < c->end && as_lex_eol(q, c->end) == 0)
        q++;
    return q;
}

/* The last "=" or "≈" on [p, e), or NULL. */
static const char *last_equals(const char *p, const char *e)
{
    const char *last = NULL;

    for (; p < e; p++)
        if (*p == '=' || (e - p >= 3 && memcmp(p, APPROX, 3) == 0))
            last = p;
    return last;
}

/* Every row of numbers on the rest of the line, each a row of proto ("缩放分数：[1/√2,
 * 0/√2] ≈ [0.7071067812,0]": the same row twice, exact and rounded). 0 or -1. */
static int rows_of_line(as_reader *r, const as_printed *proto, const char *name, size_t n)
{
    const char *e = line_end(&r->c), *p;

    for (p = r->c.p; p < e; p++) {
        if (*p != '[' || !number_row(p, e))
            continue;
        if (open_item(r, proto, name, n, p) != 0)
            return -1;
        p = r->c.p - 1;
    }
    return 0;
}

/* A line that starts with a key of the walk-through (k bytes, what): its rows, sum or
 * output cell. 0 or -1. */
static int key_line(as_reader *r, size_t k, as_printed_what what, long cell)
{
    ctx *x = r->ctx;
    const char *name = r->c.p, *e = line_end(&r->c), *q;
    as_printed it;

    memset(&it, 0, sizeof it);
    it.head = -1;
    it.what = what;
    it.row = x->row >= 0 ? x->row : 0;
    it.col = -1;
    r->c.p += k;
    if (what == AS_PR_SUM)
        return number_item(r, &it, name, k, blanks(r->c.p, e)) < 0 ? -1 : 0;
    if (what != AS_PR_O)
        return rows_of_line(r, &it, name, k);
    it.col = cell; /* 输出第0格 = 0.6697615493×10 + 0.3302384507×0, then ≈ 6.6976154933 */
    /* last_equals gives an = or a whole ≈: not =, it is the ≈ (an = at the very end of
     * the text has no 3 bytes after it to compare) */
    if ((q = last_equals(r->c.p, e)) != NULL && *q != '=')
        return number_item(r, &it, name, k, blanks(q + 3, e)) < 0 ? -1 : 0;
    x->cell = cell;
    x->cell_pos = as_reader_pos(r, name);
    snprintf(x->cell_name, sizeof x->cell_name, "%.*s", (int)k, name);
    return 0;
}

/* A row named inline at p (k bytes, what, row): "q₁=[1,0]", "o₁ ≈ […]", or first on
 * its line with a formula before its row ("q₀ = x₀Wq = […] = [0,1]": the last row of
 * numbers after an "="); "q₁·k₀ = 1×1+0×0 = 1", a raw score. The bytes to go on after
 * (the cursor may have moved past a row read), or -1 with the error set. */
static long named_at(as_reader *r, const char *p, size_t k, as_printed_what what, long row,
                     int first)
{
    ctx *x = r->ctx;
    const char *e = line_end(&r->c), *q, *t;
    as_printed it;
    as_printed_what kw;
    long col;
    size_t kk;

    memset(&it, 0, sizeof it);
    it.head = -1;
    it.what = what;
    it.row = row;
    it.col = -1;
    if (what == AS_PR_Q)
        x->row = row; /* the walk-through follows this Query's row */
    if (what == AS_PR_Q && e - p - (long)k >= 2 && memcmp(p + k, MIDDOT, 2) == 0 &&
        (kk = row_name(p + k + 2, e, &kw, &col)) > 0 && kw == AS_PR_K) {
        it.what = AS_PR_QKT;
        it.col = col;
        if ((q = last_equals(p + k + 2 + kk, e)) == NULL || *q != '=')
            return (long)(k + 2 + kk);
        return number_item(r, &it, p, k + 2 + kk, blanks(q + 1, e)) < 0 ? -1 : e - p;
    }
    if ((q = equals(p + k, e)) == NULL)
        return (long)k;
    if (!number_row(q, e) && first) {
        for (t = q, q = NULL; t < e; t++)
            if (*t == '[' && number_row(t, e) && last_equals(p, t) != NULL)
                q = t; /* the last row of numbers after an "=" */
        if (q == NULL)
            return e - p;
    }
    if (!number_row(q, e))
        return (long)k;
    if (open_item(r, &it, p, k, q) != 0)
        return -1;
    return r->c.p - p;
}

/* "√2≈1.414214" at p (the √): a square root worked out. The bytes to go on after, or
 * -1 with the error set. */
static long root_at(as_reader *r, const char *p)
{
    const char *e = line_end(&r->c), *q, *why;
    as_printed it;
    double n;
    size_t k = as_parse_number(p + 3, (size_t)(e - p - 3), 0, &n, &why);
    int rc;

    if (k == 0 || (q = equals(p + 3 + k, e)) == NULL || *blanks(p + 3 + k, e) == '=')
        return 3;
    memset(&it, 0, sizeof it);
    it.head = -1;
    it.what = AS_PR_SQRT;
    it.row = it.col = -1;
    it.arg = n;
    if ((rc = number_item(r, &it, p, 3 + k, q)) < 0)
        return -1;
    return rc == 0 ? 3 : q - p + 1;
}

/* A line of prose (or the walk-through): the rows named in it, a raw score q₁·k₀, a
 * square root. 0 or -1. */
static int prose_line(as_reader *r)
{
    const char *start = r->c.p, *p = start, *e = line_end(&r->c);
    as_printed_what what;
    long row, step;
    size_t k;

    while (p < e) {
        /* the byte before p alone: a line of one long word stays linear */
        const int word = p > start && (as_lex_ident_len(p - 1, p) > 0 ||
                                       (p[-1] >= '0' && p[-1] <= '9'));
        int moved = 1; /* a row read may take the cursor to a later line */
        if (!word && (k = row_name(p, e, &what, &row)) > 0)
            step = named_at(r, p, k, what, row, p == start);
        else if (e - p >= 3 && memcmp(p, ROOT, 3) == 0)
            step = root_at(r, p);
        else
            step = (long)as_lex_char_len(p, e), moved = 0;
        if (step < 0)
            return -1;
        p += step;
        if (moved)
            e = line_end(&r->c);
    }
    r->c.p = p > e ? e : p;
    as_cursor_skip_line(&r->c);
    return 0;
}

/* The "≈ 6.6976154933" line (or "~= 6.6976154933", as --ascii prints it) that ends an
 * output cell (输出第0格 = … on the line before). 1 when the line was one, 0 when it is
 * not, -1 with the error set. */
static int cell_end(as_reader *r)
{
    ctx *x = r->ctx;
    const char *p = r->c.p, *e = line_end(&r->c);
    as_printed it;
    size_t k;
    int rc;

    if (x->cell < 0)
        return 0;
    if (e - p >= 3 && memcmp(p, APPROX, 3) == 0)
        k = 3;
    else if (e - p >= 2 && memcmp(p, "~=", 2) == 0)
        k = 2;
    else
        return 0;
    memset(&it, 0, sizeof it);
    it.head = -1;
    it.what = AS_PR_O;
    it.row = x->row >= 0 ? x->row : 0;
    it.col = x->cell;
    x->cell = -1;
    if ((rc = number_item(r, &it, p, k, blanks(p + k, e))) < 0)
        return -1;
    if (rc > 0) {
        as_printed *done = &x->ch->item[x->ch->count - 1];
        done->pos = x->cell_pos;
        memcpy(done->name, x->cell_name, sizeof done->name);
    }
    as_cursor_skip_line(&r->c);
    return 1;
}

/* A line that starts with a walk-through key (in either language), else 0. */
static int walk_line(as_reader *r)
{
    size_t i, k;
    long cell = -1;
    int lang;

    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        for (lang = AS_LANG_ZH; lang <= AS_LANG_EN; lang++)
            if ((k = key_at(r->c.p, r->c.end, (as_lang)lang, keys[i].msg, &cell)) > 0) {
                if (key_line(r, k, keys[i].what, cell) != 0)
                    return -1;
                as_cursor_skip_line(&r->c);
                return 1;
            }
    return 0;
}

/* ------------------------------------------------------------------ settings ---- */

/* The settings a chapter may state, those that change what is computed (SPEC §2). */
static const char *const chapter_settings[] = {
    "mask", "heads", "kv_heads", "layout", "scale", "positions", "rope_base", "rope",
    "block", "norm", "norm_eps", "norm_style", "ffn",
};

/* A line that is a setting ("block: pre"): kept in ch->settings on its own line
 * number, for the one settings reader. 1 when it was one, 0 when not, -1 with the error
 * set. */
static int setting_line(as_reader *r)
{
    as_chapter *ch = ((ctx *)r->ctx)->ch;
    const char *p = r->c.p, *e = line_end(&r->c), *q;
    const int line = as_reader_pos(r, p).line;
    size_t i, k, lines = 0, need;
    char *grown;

    for (i = 0; i < sizeof chapter_settings / sizeof chapter_settings[0]; i++) {
        k = strlen(chapter_settings[i]);
        if ((size_t)(e - p) > k && memcmp(p, chapter_settings[i], k) == 0 &&
            (q = blanks(p + k, e)) < e && *q == ':') /* the text may end after the blanks */
            break;
    }
    if (i == sizeof chapter_settings / sizeof chapter_settings[0])
        return 0;
    for (k = 0; k < ch->settings_len; k++)
        lines += ch->settings[k] == '\n';
    need = ch->settings_len + (size_t)(line - 1 > (int)lines ? line - 1 - (int)lines : 0) +
           (size_t)(e - p) + 2;
    if ((grown = realloc(ch->settings, need)) == NULL)
        return as_reader_fail_memory(r, p);
    ch->settings = grown;
    for (; (int)lines < line - 1; lines++)
        ch->settings[ch->settings_len++] = '\n';
    memcpy(ch->settings + ch->settings_len, p, (size_t)(e - p));
    ch->settings_len += (size_t)(e - p);
    ch->settings[ch->settings_len++] = '\n';
    ch->settings[ch->settings_len] = '\0';
    as_cursor_skip_line(&r->c);
    return 1;
}

/* ------------------------------------------------------------------ the hooks ---- */

/* The reader's hook: first on a line, anything but a row piece (a block, a walk-through
 * line, prose); elsewhere a block side by side ("K = [[1,0],"). */
static int at_statement(const as_cursor *c, int first)
{
    as_printed it;
    size_t n;

    if (first == 1)
        return *c->p != '[' && *c->p != ']';
    return block_at(c, &it, &n) != NULL;
}

/* The reader's hook: a block opens, or a line is read for the walk-through's numbers. */
static int statement(as_reader *r, int first)
{
    ctx *x = r->ctx;
    const char *name = r->c.p, *table;
    as_printed it;
    size_t n;
    int rc;

    if ((table = block_at(&r->c, &it, &n)) != NULL) {
        x->cell = -1;
        return open_item(r, &it, name, n, table);
    }
    if (!first) {
        as_cursor_skip_line(&r->c); /* words beside a block: its caption */
        return 0;
    }
    if ((rc = cell_end(r)) != 0)
        return rc < 0 ? -1 : 0;
    x->cell = -1;
    if ((rc = walk_line(r)) != 0 || (rc = setting_line(r)) != 0)
        return rc < 0 ? -1 : 0;
    return prose_line(r);
}

/* The reader's hook: a table or row closed; its values, units and places are kept. */
static int store(as_reader *r, as_rd_matrix *b)
{
    as_printed *it = &((ctx *)r->ctx)->ch->item[b->id];

    it->value.rows = it->unit.rows = b->rows;
    it->value.cols = it->unit.cols = b->cols;
    it->value.v = b->v;
    it->unit.v = b->u;
    it->at = b->at;
    b->v = b->u = NULL;
    b->at = NULL;
    return 0;
}

static const as_reader_hooks hooks = {at_statement, statement, store};

int as_chapter_parse(as_chapter *ch, const char *text, size_t len, const char *path,
                     as_error *err)
{
    ctx x;
    int rc;

    memset(ch, 0, sizeof *ch);
    if ((ch->path = malloc(strlen(path) + 1)) == NULL) {
        as_error_msg(err, path, 0, 0, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    strcpy(ch->path, path);
    x.ch = ch;
    x.row = -1;
    x.cell = -1;
    rc = as_reader_read_text(ch->path, err, &hooks, &x, text, len);
    if (rc != 0)
        as_chapter_free(ch);
    return rc;
}

void as_chapter_free(as_chapter *ch)
{
    size_t i;

    for (i = 0; i < ch->count; i++) {
        as_matrix_free(&ch->item[i].value);
        as_matrix_free(&ch->item[i].unit);
        free(ch->item[i].at);
    }
    free(ch->item);
    free(ch->path);
    free(ch->settings);
    memset(ch, 0, sizeof *ch);
}
