/* session.c - what every command does first: parse, build the problem, compute. */
#include "attnstep/session.h"

#include <string.h>

as_head_opts as_problem_head_opts(const as_problem *p)
{
    as_head_opts o = {0};

    o.temperature = p->temperature;
    o.top_k = p->top_k;
    o.top_p = p->top_p;
    o.seeded = p->seeded;
    o.seed = p->seed;
    return o;
}

int as_session_head(as_out_head *o, const as_problem *p, const as_matrix *final,
                    const as_head_opts *opts, as_error *err)
{
    const double *h = &AS_AT(*final, final->rows - 1, 0);

    if (as_out_head_run(o, h, final->cols, p->head_w, p->head == AS_HEAD_TIED, opts) == 0)
        return 0;
    as_error_msg(err, p->in->path, 0, 0, AS_MSG_OOM);
    return -1;
}

/* With head: (SPEC §19), the output head on the last row of final, for the trace. */
static int head(as_session *s, const as_matrix *final, as_error *err)
{
    as_head_opts opts;

    if (s->p.head == AS_HEAD_NONE || final->rows == 0)
        return 0;
    opts = as_problem_head_opts(&s->p);
    if (as_session_head(&s->out, &s->p, final, &opts, err) != 0)
        return -1;
    s->t.out = &s->out;
    return 0;
}

/* Builds and runs the parsed input of s: the attention layer, and with block: the
 * block around it (the attention then reads the problem as_block_begin() makes). */
static int build_and_run(as_session *s, const as_session_opts *o, as_error *err)
{
    static const as_session_opts none;
    int (*attention)(as_trace *, const as_problem *, as_error *);
    as_problem q;

    if (o == NULL)
        o = &none;
    if ((o->lean ? as_problem_build_lean : as_problem_build)(&s->p, &s->in, o->mask, err) != 0)
        return -1;
    s->p.offset = o->offset;
    if (o->rows && o->cells_limit && as_attention_too_large(&s->p, err) != 0)
        return -1;
    attention = o->lean ? as_attention_run_lean : o->rows ? as_attention_run_rows : as_attention_run;
    if (s->p.block == AS_BLOCK_NONE) {
        if (attention(&s->t, &s->p, err) != 0)
            return -1;
        return head(s, &s->t.O, err);
    }
    if (as_block_begin(&s->b, &q, &s->p, err) || attention(&s->t, &q, err) ||
        as_block_finish(&s->b, &s->t.O, &s->p, err))
        return -1;
    s->t.block = &s->b;
    if (head(s, &s->b.Y, err) != 0)
        return -1;
    /* what the attention read is, for its tables' renderers and graders, its X: with pre
     * that is N1 (the chapter: the X attention receives may be a normalised one); the
     * file's own X stays the input's table (as_problem_table) */
    s->p.X = q.X;
    s->p.Xkv = q.Xkv;
    return 0;
}

int as_session_open(as_session *s, const char *path, const as_session_opts *o, as_error *err)
{
    memset(s, 0, sizeof *s);
    if (as_parse_file(&s->in, path, err) != 0 || build_and_run(s, o, err) != 0) {
        as_session_free(s);
        return -1;
    }
    return 0;
}

int as_session_open_text(as_session *s, const char *text, size_t len, const char *name,
                         const as_session_opts *o, as_error *err)
{
    memset(s, 0, sizeof *s);
    if (as_parse_text(&s->in, text, len, name, err) != 0 || build_and_run(s, o, err) != 0) {
        as_session_free(s);
        return -1;
    }
    return 0;
}

void as_session_free(as_session *s)
{
    as_out_head_free(&s->out);
    as_block_trace_free(&s->b);
    as_trace_free(&s->t);
    as_problem_free(&s->p);
    as_input_free(&s->in);
}
