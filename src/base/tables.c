/* tables.c - the registry of the chapter's tables (tables.def) as data, and the lookups
 * of their names and spellings. */
#include "attnstep/tables.h"

#include <string.h>
#include <strings.h>

#define AS_TAB_FLAG_Y 1
#define AS_TAB_FLAG_N 0

static const as_tab_info rows[AS_TAB_COUNT] = {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) \
    {NAME, BOOK, ASCII, ALSO, ROW, AS_TAB_FLAG_##ONLY, AS_TAB_FLAG_##ANS, AS_TAB_FLAG_##HEAD, STEP},
#include "attnstep/tables.def"
#undef AS_TABLE
};

static const as_tab of_table[AS_T_COUNT] = {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) \
    AS_TAB_IF_##ONLY(AS_TAB_##ID,)
#include "attnstep/tables.def"
#undef AS_TABLE
};

static const as_tab of_answer[AS_ANS_KINDS] = {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) \
    AS_TAB_IF_##ANS(AS_TAB_##ID,)
#include "attnstep/tables.def"
#undef AS_TABLE
};

static const char *const grad_names[AS_G_COUNT] = {
#define AS_GRAD_TABLE(ID, NAME) NAME,
#include "attnstep/tables.def"
#undef AS_GRAD_TABLE
};

const as_tab_info *as_tab_get(as_tab t)
{
    return &rows[t];
}

as_tab as_tab_of_table(as_table t)
{
    return of_table[t];
}

as_tab as_tab_of_answer(as_answer_kind k)
{
    return of_answer[k];
}

/* The index of t in of[0..n), or -1. */
static int index_of(const as_tab *of, size_t n, as_tab t)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (of[i] == t)
            return (int)i;
    return -1;
}

int as_tab_table(as_tab t)
{
    return index_of(of_table, AS_T_COUNT, t);
}

int as_tab_answer(as_tab t)
{
    return index_of(of_answer, AS_ANS_KINDS, t);
}

/* Nonzero when s[0..len) is word[0..n) (the letters in any case with fold). */
static int same(const char *s, size_t len, const char *word, size_t n, int fold)
{
    return n == len && (fold ? strncasecmp(s, word, n) : strncmp(s, word, n)) == 0;
}

/* Nonzero when s[0..len) is one of the '|'-separated spellings in also. */
static int spelt_as(const char *s, size_t len, const char *also, int fold)
{
    while (*also != '\0') {
        const size_t n = strcspn(also, "|");
        if (same(s, len, also, n, fold))
            return 1;
        also += n + (also[n] == '|');
    }
    return 0;
}

int as_tab_lookup(const char *s, size_t len, int fold)
{
    size_t t;

    for (t = 0; t < AS_TAB_COUNT; t++)
        if (same(s, len, rows[t].name, strlen(rows[t].name), fold) ||
            spelt_as(s, len, rows[t].also, fold))
            return (int)t;
    return -1;
}

const char *as_tab_shown(as_tab t, int ascii)
{
    return ascii ? rows[t].ascii : rows[t].book;
}

int as_names_parse(const char *list, as_name_lookup lookup, unsigned *bits, const char **bad)
{
    const char *s = list;

    *bits = 0;
    for (;;) {
        const size_t len = strcspn(s, ",");
        const int t = lookup(s, len);
        if (t < 0) {
            *bad = s;
            return -1;
        }
        *bits |= 1u << t;
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
}

const char *as_grad_name(as_grad_table g)
{
    return grad_names[g];
}

int as_grad_lookup(const char *s, size_t len)
{
    const int paren = len > 3 && s[1] == '(' && s[len - 1] == ')';
    int t;

    for (t = 0; t < (int)AS_G_COUNT; t++)
        if (same(s, len, grad_names[t], strlen(grad_names[t]), 1))
            return t;
    /* RoPE's dQr and dKr have no row of their own: they come with dQ and dK (tables.def) */
    if (same(s, len, "dQr", 3, 1) || same(s, len, "dKr", 3, 1))
        return s[1] == 'Q' || s[1] == 'q' ? AS_G_DQ : AS_G_DK;
    if (len > 1 && (s[0] == 'd' || s[0] == 'D')) {
        const int of = as_tab_lookup(s + 1 + paren, len - 1 - 2 * (size_t)paren, 1);
        for (t = 0; of >= 0 && t < (int)AS_G_COUNT; t++)
            if (strcmp(grad_names[t] + 1, as_tab_get((as_tab)of)->name) == 0)
                return t;
    }
    return -1;
}
