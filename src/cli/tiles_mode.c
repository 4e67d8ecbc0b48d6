/* tiles_mode.c - `run --tiles B` and `trace --tiles B` (SPEC §11): the ordinary output
 * first, then the online softmax redone from the same run (tiles.c): its tables (run),
 * or its blocks walked for the rows trace walks. */
#include "attnstep/cli.h"
#include "attnstep/render_tiles.h"
#include "attnstep/tiles.h"

/* JSON: the run's object with "tiles" added as its last member, written as it is made. */
static int json_with_tiles(FILE *out, const as_session *s, const as_tiles *tl, const as_cli *cli)
{
    if (as_render_json_members(out, &s->p, &s->t, &cli->render) != 0)
        return -1;
    fputs(",\n", out);
    if (as_render_tiles_json(out, &s->p, tl) != 0)
        return -1;
    fputs("\n}\n", out);
    return ferror(out) ? -1 : 0;
}

/* The cells of the tiles' page (render_tiles.c): for each walked row and head its blocks
 * [m, ℓ, f, the output] and its shares; the output; and in its JSON the run's tables and
 * the tiles' shares. Known before the blocks are read. */
static size_t tiles_page_cells(const as_session *s, const as_cli *cli, int walk)
{
    const as_problem *p = &s->p;
    const size_t B = (size_t)cli->tiles, blocks = (p->m + B - 1) / B;
    const size_t walked = walk && cli->render.row != AS_ROW_ALL ? 1 : p->n;
    as_render_opts all = cli->render;

    all.only = 0;
    return as_numbers_estimate(p, &s->t, &all, 0) + p->heads * p->n * p->m + p->n * p->d_v +
           walked * p->heads * (blocks * (3 + p->d_v) + p->m);
}

int as_cli_with_tiles(FILE *out, const as_cli *cli, int walk, as_error *err)
{
    as_session_opts so = as_cli_session(cli);
    as_session s;
    as_tiles tl;
    int rc;

    /* a rows run: the tiles read each row's S again (as_trace_row) and walk each row
     * as it is written, so no n x m table is kept (SPEC §10); the limit on all heads'
     * scores together stays what it was when the full run kept them */
    so.rows = 1;
    so.cells_limit = 1;
    if (as_cli_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_cli_page_fits(cli, tiles_page_cells(&s, cli, walk), AS_MSG_HINT_PAGE_TOO_BIG_TILES,
                         err) != 0 ||
        as_tiles_run(&tl, &s.p, &s.t, (size_t)cli->tiles, 1, 0, err) != 0) {
        as_session_free(&s);
        return AS_EXIT_USAGE;
    }
    if (cli->format == AS_FMT_HTML)
        rc = as_render_tiles_html(out, &s.p, &s.t, &tl, &cli->render, walk);
    else if (walk)
        rc = as_render_trace(out, &s.p, &s.t, &cli->render) ||
             as_render_tiles_walk(out, &s.p, &tl, &cli->render);
    else if (cli->format == AS_FMT_JSON)
        rc = json_with_tiles(out, &s, &tl, cli);
    else
        rc = as_render_text(out, &s.p, &s.t, &cli->render) ||
             as_render_tiles_text(out, &s.p, &tl, &cli->render);
    as_tiles_free(&tl);
    as_session_free(&s);
    if (rc != 0) {
        as_cli_write_failed(out, cli, err);
        return AS_EXIT_USAGE;
    }
    return AS_EXIT_OK;
}
