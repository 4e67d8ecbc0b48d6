/* cmd_trace.c - `attnstep trace FILE`: the hand calculation, step by step (SPEC §5). */
#include "attnstep/cli.h"

/* What trace cannot honour is a usage error before any work: the walk-through walks
 * every step, so it takes no --only (and, prose, it is text only: its table row). */
static int check_options(const as_cli *cli, as_error *err)
{
    if (cli->render.only != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_TRACE_ONLY);
        as_error_hint_msg(err, AS_MSG_HINT_TRACE_ONLY);
        return -1;
    }
    return 0;
}

/* The cells of trace's page: every table, or with --step those the step starts from and
 * makes. */
static size_t page_cells(const as_session *s, const as_cli *cli)
{
    as_render_opts shown = cli->render;

    shown.only = cli->render.step != 0 ? as_trace_step_tables(cli->render.step) : 0;
    return as_numbers_estimate(&s->p, &s->t, &shown, 0);
}

int as_cmd_trace(FILE *out, const as_cli *cli, as_error *err)
{
    as_session_opts so = as_cli_session(cli);
    as_session s;
    int rc;

    if (check_options(cli, err) != 0)
        return AS_EXIT_USAGE;
    /* the walk reads one row at a time: no n x m table is kept whole; the page writes
     * its tables a row at a time too, and keeps the limit on all heads' scores together
     * it had when it kept them */
    so.rows = 1;
    so.cells_limit = cli->format == AS_FMT_HTML;
    if (as_cli_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_cli_check_row(&s, cli, err) != 0 ||
        (cli->tiles == 0 && as_cli_page_fits(cli, page_cells(&s, cli),
                                             AS_MSG_HINT_PAGE_TOO_BIG_TRACE, err) != 0)) {
        as_session_free(&s);
        return AS_EXIT_USAGE;
    }
    if (cli->tiles != 0) { /* and the online softmax (SPEC §11) */
        as_session_free(&s);
        return as_cli_with_tiles(out, cli, 1, err);
    }
    as_note_alibi_unmasked(&s, cli);
    as_note_long_output(&s, cli, cli->render.row == AS_ROW_ALL ? s.p.n : 1);
    rc = cli->format == AS_FMT_HTML ? as_render_html_trace(out, &s.p, &s.t, &cli->render)
                                    : as_render_trace(out, &s.p, &s.t, &cli->render);
    as_session_free(&s);
    if (rc != 0) {
        as_cli_write_failed(out, cli, err);
        return AS_EXIT_USAGE;
    }
    return AS_EXIT_OK;
}
