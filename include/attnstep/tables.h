/* tables.h - the chapter's tables as one registry (tables.def): their enums, names,
 * spellings and facts, for every layer. Pure data and string lookups (base layer). */
#ifndef ATTNSTEP_TABLES_H
#define ATTNSTEP_TABLES_H

#include <stddef.h>

#define AS_TAB_IF_Y(...) __VA_ARGS__
#define AS_TAB_IF_N(...)

/* Every table of the registry, in the chapter's order. */
typedef enum as_tab {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) AS_TAB_##ID,
#include "attnstep/tables.def"
#undef AS_TABLE
    AS_TAB_COUNT
} as_tab;

/* The tables a user can pick with --only (rows with ONLY Y), in the same order. */
typedef enum as_table {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) \
    AS_TAB_IF_##ONLY(AS_T_##ID,)
#include "attnstep/tables.def"
#undef AS_TABLE
    AS_T_COUNT
} as_table;

/* --only keeps its tables as the bits of an unsigned: a new --only table needs a bit */
_Static_assert(AS_T_COUNT <= 32, "more --only tables than the bits of an unsigned");

/* The tables an ANSWERS file may hold (rows with ANSWER Y), in the same order. */
typedef enum as_answer_kind {
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) \
    AS_TAB_IF_##ANS(AS_ANS_##ID,)
#include "attnstep/tables.def"
#undef AS_TABLE
    AS_ANS_KINDS
} as_answer_kind;

/* The backward pass's tables (`grad`: the AS_GRAD_TABLE rows), in the order it computes
 * them. */
typedef enum as_grad_table {
#define AS_GRAD_TABLE(ID, NAME) AS_G_##ID,
#include "attnstep/tables.def"
#undef AS_GRAD_TABLE
    AS_G_COUNT
} as_grad_table;
_Static_assert(AS_G_COUNT <= 32, "more grad --only tables than the bits of an unsigned");

/* One row of the registry. */
typedef struct as_tab_info {
    const char *name;  /* as --only, JSON and ANSWERS spell it: "QKT" */
    const char *book;  /* as the book prints it: "QKᵀ" */
    const char *ascii; /* as --ascii prints it: "QK^T" */
    const char *also;  /* other accepted spellings, '|' between them, or "" */
    const char *row;   /* the letters of its rows in the walk-through ("q"), or "" */
    int only;          /* --only picks it */
    int answer;        /* an ANSWERS file may hold it */
    int per_head;      /* each head has its own: with several heads it needs a head */
    int step;          /* the step of the chapter's walk that makes it (as_step), or 0 */
} as_tab_info;

/* The row of table t. */
const as_tab_info *as_tab_get(as_tab t);

/* The registry row of an --only table, of an answer kind; and back (-1 when the row is
 * none of that kind). */
as_tab as_tab_of_table(as_table t);
as_tab as_tab_of_answer(as_answer_kind k);
int as_tab_table(as_tab t);
int as_tab_answer(as_tab t);

/* The row whose NAME or one of whose spellings is s[0..len) (the letters in any case
 * when fold is nonzero); -1 when none. */
int as_tab_lookup(const char *s, size_t len, int fold);

/* The book's name of table t, or the ASCII one. */
const char *as_tab_shown(as_tab t, int ascii);

/* The name of gradient table g ("dQKT"); and the gradient table s[0..len) names, in
 * any case, "d" followed by any spelling of a table's name also ("dQKᵀ", "d(QK^T)");
 * -1 when none. */
const char *as_grad_name(as_grad_table g);
int as_grad_lookup(const char *s, size_t len);

/* Reads a comma-separated list of names with lookup (which gives each name's bit number
 * or -1) into *bits. Returns 0; or -1 and points *bad at the offending name. The one
 * parser of --only lists. */
typedef int (*as_name_lookup)(const char *s, size_t len);
int as_names_parse(const char *list, as_name_lookup lookup, unsigned *bits, const char **bad);

#endif
