/* cmd_practice.c - `attnstep practice FILE` or `practice --seed N --level L`: the tutor
 * (SPEC §14) on standard input and output; -o FILE keeps the transcript. */
#include "attnstep/cli.h"
#include "attnstep/exercise.h"
#include "attnstep/practice.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What practice cannot honour is a usage error before any work. */
static int check_options(const as_cli *cli, as_error *err)
{
    int bad;

    if ((cli->nargs == 0) == !cli->seed_set) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_PRACTICE_SOURCE);
        return -1;
    }
    if (cli->nargs == 1 && strcmp(cli->arg[0], "-") == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_PRACTICE_STDIN);
        return -1;
    }
    if ((bad = as_practice_only_bad(cli->render.only)) >= 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_PRACTICE_ONLY, as_table_name((as_table)bad));
        return -1;
    }
    return 0;
}

/* The session: the file's, or a fresh exercise's (--seed, --level and the sizes). */
static int open_session(as_session *s, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    as_exercise_opts eo;
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (cli->nargs == 1)
        return as_cli_open(s, cli->arg[0], &so, err);
    memset(&eo, 0, sizeof eo);
    eo.seed = cli->seed;
    eo.level = (int)cli->level;
    eo.tokens = (size_t)cli->tokens;
    eo.width = (size_t)cli->width;
    eo.dk = (size_t)cli->dk;
    eo.dv = (size_t)cli->dv;
    eo.mask = cli->mask;
    eo.lang = cli->render.lang;
    eo.step = AS_STEP_ALL;
    if (as_exercise_settle(&eo, err) != 0 || as_exercise_make(&text, &len, &eo, err) != 0)
        return -1;
    rc = as_exercise_open(s, text, len, err);
    free(text);
    return rc;
}

/* The tutor's options from the command line, for session s. */
static as_practice_opts practice_opts(const as_cli *cli, const as_session *s)
{
    as_practice_opts o;

    memset(&o, 0, sizeof o);
    o.ro = cli->render;
    o.tables = cli->render.only;
    o.row = -1;
    if (cli->row_given && cli->render.row != AS_ROW_ALL)
        o.row = cli->render.row == AS_ROW_LAST ? (long)s->p.n - 1 : cli->render.row;
    o.judge.tol = cli->tol;
    o.judge.require_digits = 0;
    o.echo = !isatty(STDIN_FILENO);
    o.head = cli->head;
    return o;
}

int as_cmd_practice(FILE *out, const as_cli *cli, as_error *err)
{
    as_session s;
    as_practice_opts o;
    as_practice_score sc;
    int rc;

    if (check_options(cli, err) != 0 || open_session(&s, cli, err) != 0)
        return AS_EXIT_USAGE;
    if (cli->head >= 0 && (size_t)cli->head >= s.p.heads)
        as_error_msg(err, "", 0, 0, AS_MSG_USE_PRACTICE_HEAD, cli->head, s.p.heads, s.p.heads - 1);
    if ((cli->head >= 0 && (size_t)cli->head >= s.p.heads) ||
        (cli->row_given && as_cli_check_row(&s, cli, err) != 0)) {
        as_session_free(&s);
        return AS_EXIT_USAGE;
    }
    o = practice_opts(cli, &s);
    /* -o FILE: the prompts still go to the terminal, the transcript to FILE */
    rc = as_practice_run(stdin, cli->output != NULL ? stdout : out,
                         cli->output != NULL ? out : NULL, &s.p, &s.t, &o, &sc);
    as_session_free(&s);
    if (rc < 0) {
        as_cli_write_failed(out, cli, err);
        return AS_EXIT_USAGE;
    }
    return rc == 0 ? AS_EXIT_OK : AS_EXIT_WRONG;
}
