/* slots.c - where a trace keeps each table of the registry (tables.def: TRACE and
 * HEADSLOT), so that a renderer or a grader finds a table by its row, not by a switch
 * of its own. */
#include "attnstep/attention.h"
#include "attnstep/outhead.h"

#include <stddef.h>
#include <stdint.h>

#define NOSLOT SIZE_MAX

static const size_t whole[AS_TAB_COUNT] = {
#define SLOT(member) offsetof(as_trace, member)
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) TRACE,
#include "attnstep/tables.def"
#undef AS_TABLE
#undef SLOT
};

static const size_t per_head[AS_TAB_COUNT] = {
#define SLOT(member) offsetof(as_head_trace, member)
#define AS_TABLE(ID, NAME, BOOK, ASCII, ALSO, ONLY, ANS, ROW, HEAD, TRACE, HEADSLOT, STEP) HEADSLOT,
#include "attnstep/tables.def"
#undef AS_TABLE
#undef SLOT
};

const as_matrix *as_trace_table(const as_trace *t, as_tab id)
{
    if (whole[id] == NOSLOT) /* the output head's tables are its own record's (SPEC §19) */
        return t->out != NULL ? as_out_head_table(t->out, id) : NULL;
    return (const as_matrix *)((const char *)t + whole[id]);
}

const as_matrix *as_trace_head_table(const as_head_trace *h, as_tab id)
{
    return per_head[id] == NOSLOT ? NULL : (const as_matrix *)((const char *)h + per_head[id]);
}
