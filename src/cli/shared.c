/* shared.c - what the commands share: how a session is opened from the command line,
 * the --row check once the file is read, and the note before a very long output. Below
 * every command; calls none. */
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "attnstep/html.h"
#include "attnstep/output.h"

#include <errno.h>

#include <stdio.h>
#include <string.h>

as_session_opts as_cli_session(const as_cli *cli)
{
    as_session_opts o;

    memset(&o, 0, sizeof o);
    o.mask = cli->mask;
    o.offset = cli->offset;
    return o;
}

int as_cli_open(as_session *s, const char *path, const as_session_opts *so, as_error *err)
{
    if (as_session_open(s, path, so, err) != 0)
        return -1;
    if (as_check_ask(&s->p, NULL, err) == 0)
        return 0;
    as_session_free(s);
    return -1;
}

int as_cli_page_fits(const as_cli *cli, size_t cells, as_msg hint, as_error *err)
{
    if (cli->format != AS_FMT_HTML || cells <= AS_HTML_MAX_CELLS)
        return 0;
    as_error_msg(err, "", 0, 0, AS_MSG_USE_PAGE_TOO_BIG, cells, AS_HTML_MAX_CELLS);
    as_error_hint_msg(err, hint);
    return -1;
}

int as_cli_check_row(const as_session *s, const as_cli *cli, as_error *err)
{
    if (cli->render.row < 0 || (size_t)cli->render.row < s->p.n)
        return 0;
    as_error_msg(err, "", 0, 0, AS_MSG_USE_ROW_RANGE, cli->render.row, cli->arg[0], s->p.n,
                 s->p.n - 1);
    as_error_hint_msg(err, AS_MSG_HINT_ROW_RANGE);
    return -1;
}

void as_note_alibi_unmasked(const as_session *s, const as_cli *cli)
{
    if (s->p.positions != AS_POSITIONS_ALIBI || s->p.mask != AS_MASK_NONE)
        return;
    fputs("attnstep: ", stderr);
    fputs(as_msg_text(cli->render.lang, AS_MSG_NOTE_ALIBI_UNMASKED), stderr);
    fputc('\n', stderr);
}

void as_note_long_output(const as_session *s, const as_cli *cli, size_t walked_rows)
{
    const size_t n = as_numbers_estimate(&s->p, &s->t, &cli->render, walked_rows);

    if (n <= AS_HUGE_OUTPUT)
        return;
    fputs("attnstep: ", stderr);
    fprintf(stderr, as_msg_text(cli->render.lang, AS_MSG_HUGE_OUTPUT), n);
    fputc('\n', stderr);
}

void as_cli_write_failed(FILE *out, const as_cli *cli, as_error *err)
{
    const int e = errno; /* the failed write's, before anything else can change it */

    if (ferror(out) && e != 0 && e != ENOMEM)
        as_output_write_error(err, cli->output, e);
    else
        as_error_msg(err, "", 0, 0, AS_MSG_OOM_WRITING);
}
