/* render_csv.c - `run --format csv --only T`: one table as comma-separated numbers for
 * numpy.loadtxt(FILE, delimiter=",") or pandas.read_csv(FILE, comment="#", header=None).
 * One `#` comment line names the table and its labels; numbers read back to the same
 * double; a masked cell is -inf, which both read as negative infinity. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdint.h>
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

/* The table csv writes: the first whole-layer table shown, else the first per-head one
 * (head 0). The walk is made twice: once to find it (its place in the walk), once to
 * write it while its rows can be had (a rows trace makes them during the visit). */
typedef struct csv_pick {
    FILE *out;
    const as_render_opts *o;
    size_t seen, chosen; /* tables visited; the one to write (SIZE_MAX: none yet) */
    int per_head;        /* the chosen one is a head's */
    int written;
} csv_pick;

static int pick(void *ctx, const as_table_view *v)
{
    csv_pick *c = ctx;

    if (c->chosen == SIZE_MAX || (c->per_head && !v->per_head)) {
        c->chosen = c->seen;
        c->per_head = v->per_head;
    }
    c->seen++;
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

/* Writes the chosen table when the walk reaches it; then stops the walk (1), or -1 when
 * a row could not be had. */
static int write_chosen(void *ctx, const as_table_view *v)
{
    csv_pick *c = ctx;
    size_t i, j;

    if (c->seen++ != c->chosen)
        return 0;
    as_view_comment(c->out, "#", v, c->o);
    for (i = 0; i < v->r.rows; i++) {
        const double *row = v->r.row(v->r.ctx, i);
        if (row == NULL)
            return -1;
        for (j = 0; j < v->r.cols; j++) {
            if (j)
                fputc(',', c->out);
            csv_number(c->out, row[j]);
        }
        fputc('\n', c->out);
    }
    c->written = 1;
    return 1;
}

int as_render_csv(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    csv_pick c = {out, o, 0, SIZE_MAX, 0, 0};

    as_each_table(p, t, o, pick, &c);
    if (c.chosen == SIZE_MAX)
        return -1; /* as_csv_check() lets no such choice through */
    c.seen = 0;
    as_each_table(p, t, o, write_chosen, &c);
    if (!c.written)
        return -1;
    return ferror(out) ? -1 : 0;
}
