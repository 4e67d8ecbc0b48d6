/* cmd_run.c - `attnstep run FILE`: every table, in the format asked for. */
#include "attnstep/cli.h"

typedef int (*renderer)(FILE *, const as_problem *, const as_trace *, const as_render_opts *);

/* One renderer per --format (as_format order). */
static const renderer by_format[] = {
    [AS_FMT_TEXT] = as_render_text, [AS_FMT_JSON] = as_render_json, [AS_FMT_MD] = as_render_md,
    [AS_FMT_LATEX] = as_render_latex, [AS_FMT_CSV] = as_render_csv, [AS_FMT_SVG] = as_render_svg,
    [AS_FMT_HTML] = as_render_html,
};

/* A run that shows only the output (O, C, and a block's Y) keeps only that: at most one
 * n x m score table at a time instead of every table of every head (issue 8, --only O;
 * the block's tables are made from O whole, issue 31). */
static int wants_lean(const as_cli *cli)
{
    const unsigned outputs = (1u << AS_T_O) | (1u << AS_T_C) | (1u << AS_T_Y);

    return cli->render.only != 0 && (cli->render.only & ~outputs) == 0 && !cli->render.heatmap &&
           cli->format != AS_FMT_SVG && cli->format != AS_FMT_HTML;
}

int as_cmd_run(FILE *out, const as_cli *cli, as_error *err)
{
    as_session_opts so = as_cli_session(cli);
    as_session s;
    int rc;

    if (cli->tiles != 0)
        return as_cli_with_tiles(out, cli, 0, err); /* and the online softmax (SPEC §11) */
    if (cli->format == AS_FMT_CSV && as_csv_check(cli->render.only, err) != 0)
        return AS_EXIT_USAGE; /* an argument error: said before any work */
    so.lean = wants_lean(cli);
    /* every table is written from its rows (as_head_rows: a rows trace makes each row
     * again), so no n x m table is kept and memory follows n·d plus the row being
     * printed (SPEC §10); the formats but text keep the limit on all heads' scores
     * together that they had when they kept them. The page (html) too: each cell's
     * arithmetic is walked again a row at a time (render_html.c). */
    so.rows = !so.lean;
    so.cells_limit = cli->format != AS_FMT_TEXT;
    if (as_cli_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_cli_page_fits(cli, as_numbers_estimate(&s.p, &s.t, &cli->render, 0),
                         AS_MSG_HINT_PAGE_TOO_BIG_ONLY, err) != 0) {
        as_session_free(&s);
        return AS_EXIT_USAGE;
    }
    as_note_alibi_unmasked(&s, cli);
    as_note_long_output(&s, cli, 0);
    rc = by_format[cli->format](out, &s.p, &s.t, &cli->render);
    as_session_free(&s);
    if (rc != 0) {
        as_cli_write_failed(out, cli, err);
        return AS_EXIT_USAGE;
    }
    return AS_EXIT_OK;
}
