/* render_csv.c - `run --format csv --only T`: one table as comma-separated numbers for
 * numpy.loadtxt(FILE, delimiter=",") or pandas.read_csv(FILE, comment="#", header=None).
 * One `#` comment line names the table and its labels; numbers read back to the same
 * double; a masked cell is -inf, which both read as negative infinity. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>

int as_csv_check(unsigned only, as_error *err)
{
    as_msg why;

    if (only == 0)
        why = AS_MSG_CSV_NO_ONLY;
    else if ((only & (only - 1)) != 0)
        why = AS_MSG_CSV_MANY;
    else if (only == 1u << AS_T_W)
        why = AS_MSG_CSV_W;
    else
        return 0;
    as_error_msg(err, "", 0, 0, why);
    return -1;
}

/* Keeps the first whole-layer table shown, else the first per-head one (head 0). */
static int pick(void *ctx, const as_table_view *v)
{
    as_table_view *chosen = ctx;

    if (chosen->m == NULL || (chosen->per_head && !v->per_head))
        *chosen = *v;
    return !v->per_head; /* a whole-layer table is final: stop */
}

static void csv_number(FILE *out, double v)
{
    char buf[AS_NUM_BUF];

    if (isinf(v)) {
        fputs(v < 0 ? "-inf" : "inf", out);
        return;
    }
    as_fmt_roundtrip(buf, sizeof buf, v);
    fputs(buf, out);
}

int as_render_csv(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    as_table_view v = {0};
    size_t i, j;

    as_each_table(p, t, o, pick, &v);
    if (v.m == NULL)
        return -1; /* as_csv_check() lets no such choice through */
    as_view_comment(out, "#", &v, o);
    for (i = 0; i < v.m->rows; i++) {
        for (j = 0; j < v.m->cols; j++) {
            if (j)
                fputc(',', out);
            csv_number(out, AS_AT(*v.m, i, j));
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
