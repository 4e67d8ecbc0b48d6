/* tiles_mode.c - `run --tiles B` and `trace --tiles B` (SPEC §11): the ordinary output
 * first, then the online softmax redone from the same run (tiles.c): its tables (run),
 * or its blocks walked for the rows trace walks. */
#include "attnstep/cli.h"
#include "attnstep/render_tiles.h"
#include "attnstep/tiles.h"

#include <stdlib.h>
#include <string.h>

/* The rows trace walks: --row I, the last (-1) or all (-2). */
static void walked_rows(const as_cli *cli, const as_problem *p, size_t *first, size_t *last)
{
    const long row = cli->render.row;

    *first = row == -2 ? 0 : row == -1 ? p->n - 1 : (size_t)row;
    *last = row == -2 ? p->n - 1 : *first;
}

/* JSON: the run's object with "tiles" added as its last member. */
static int json_with_tiles(FILE *out, const as_session *s, const as_tiles *tl, const as_cli *cli)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc;

    if (mem == NULL)
        return -1;
    rc = as_render_json(mem, &s->p, &s->t, &cli->render);
    rc |= fclose(mem) != 0;
    if (rc == 0 && len >= 3 && strcmp(buf + len - 3, "\n}\n") == 0) {
        fwrite(buf, 1, len - 3, out);
        fputs(",\n", out);
        rc = as_render_tiles_json(out, &s->p, tl);
        fputs("\n}\n", out);
    } else {
        rc = -1;
    }
    free(buf);
    return rc;
}

int as_cli_with_tiles(FILE *out, const as_cli *cli, int walk, as_error *err)
{
    const as_session_opts so = as_cli_session(cli); /* the full run: S and V are needed */
    as_session s;
    as_tiles tl;
    size_t first = 1, last = 0;
    int rc;

    if (as_cli_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (walk)
        walked_rows(cli, &s.p, &first, &last);
    if (as_tiles_run(&tl, &s.p, &s.t, (size_t)cli->tiles, first, last, err) != 0) {
        as_session_free(&s);
        return AS_EXIT_USAGE;
    }
    if (walk)
        rc = as_render_trace(out, &s.p, &s.t, &cli->render) ||
             as_render_tiles_walk(out, &s.p, &s.t, &tl, &cli->render);
    else if (cli->format == AS_FMT_JSON)
        rc = json_with_tiles(out, &s, &tl, cli);
    else
        rc = as_render_text(out, &s.p, &s.t, &cli->render) ||
             as_render_tiles_text(out, &s.p, &tl, &cli->render);
    as_tiles_free(&tl);
    as_session_free(&s);
    if (rc != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM_WRITING);
        return AS_EXIT_USAGE;
    }
    return AS_EXIT_OK;
}
