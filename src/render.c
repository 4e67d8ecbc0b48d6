/* render.c - what every renderer shares: the table names and the --only choice. */
#include "attnstep/render.h"

#include <string.h>
#include <strings.h>

static const char *const names[AS_T_COUNT] = {
    [AS_T_X] = "X", [AS_T_W] = "W", [AS_T_Q] = "Q", [AS_T_K] = "K", [AS_T_V] = "V",
    [AS_T_QKT] = "QKT", [AS_T_M] = "M", [AS_T_S] = "S", [AS_T_A] = "A", [AS_T_O] = "O",
    [AS_T_C] = "C",
};

const char *as_table_name(as_table t)
{
    return names[t];
}

/* The table named by s[0..len), accepting QKᵀ and QK^T for QKT; -1 when none. */
static int table_lookup(const char *s, size_t len)
{
    size_t t;

    if ((len == 5 && strncmp(s, "QK\xe1\xb5\x80", 5) == 0) || (len == 4 && strncasecmp(s, "QK^T", 4) == 0))
        return AS_T_QKT;
    for (t = 0; t < AS_T_COUNT; t++)
        if (strlen(names[t]) == len && strncasecmp(s, names[t], len) == 0)
            return (int)t;
    return -1;
}

int as_only_parse(const char *list, unsigned *only, const char **bad)
{
    const char *s = list;

    *only = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int t = table_lookup(s, len);
        if (t < 0) {
            *bad = s;
            return -1;
        }
        *only |= 1u << t;
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
}

int as_shows(const as_render_opts *o, as_table t)
{
    return o->only == 0 || (o->only & (1u << t)) != 0;
}
