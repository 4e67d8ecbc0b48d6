/* session.c - what every command does first: parse, check, compute. */
#include "attnstep/cli.h"

#include <string.h>

int as_session_open(as_session *s, const char *path, const as_cli *cli, as_error *err)
{
    memset(s, 0, sizeof *s);
    if (as_parse_file(&s->in, path, err) != 0)
        return -1;
    if (as_problem_build(&s->p, &s->in, cli->mask, err) != 0)
        goto fail;
    if (as_attention_run(&s->t, &s->p, err) != 0)
        goto fail;
    return 0;
fail:
    as_session_free(s);
    return -1;
}

void as_session_free(as_session *s)
{
    as_trace_free(&s->t);
    as_problem_free(&s->p);
    as_input_free(&s->in);
}
