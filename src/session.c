/* session.c - what every command does first: parse, check, compute. */
#include "attnstep/cli.h"

#include <string.h>

/* A run that shows only the output (O, C) keeps only that: at most one n x m score
 * table at a time instead of every table of every head (issue 8, --only O). */
static int wants_lean(const as_cli *cli)
{
    const unsigned outputs = (1u << AS_T_O) | (1u << AS_T_C);

    return cli->command != NULL && strcmp(cli->command, "run") == 0 && cli->render.only != 0 &&
           (cli->render.only & ~outputs) == 0 && !cli->render.heatmap && cli->tiles == 0 &&
           cli->format != AS_FMT_SVG;
}

int as_session_open(as_session *s, const char *path, const as_cli *cli, as_error *err)
{
    memset(s, 0, sizeof *s);
    if (as_parse_file(&s->in, path, err) != 0)
        return -1;
    if (as_problem_build(&s->p, &s->in, cli->mask, err) != 0)
        goto fail;
    if ((wants_lean(cli) ? as_attention_run_lean : as_attention_run)(&s->t, &s->p, err) != 0)
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
