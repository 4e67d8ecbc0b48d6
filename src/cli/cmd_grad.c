/* cmd_grad.c - `attnstep grad FILE`: the backward pass by hand (SPEC §13). The forward
 * run (the session) first, then the loss and the backward run (grad.c), then one
 * renderer: the tables (text or JSON), or with --row the walk-through of one row. */
#include "attnstep/cli.h"
#include "attnstep/grad.h"
#include "attnstep/render_grad.h"

/* What grad cannot honour is a usage error before any work. */
static int check_options(const as_cli *cli, as_error *err)
{
    if (cli->row_given && cli->format != AS_FMT_TEXT && cli->format != AS_FMT_HTML) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_GRAD_ROW);
        as_error_hint_msg(err, AS_MSG_HINT_GRAD_ROW);
        return -1;
    }
    return 0;
}

static int render(FILE *out, const as_session *s, const as_grad *g, const as_cli *cli)
{
    if (cli->format == AS_FMT_JSON)
        return as_render_grad_json(out, &s->p, &s->t, g, &cli->render);
    if (cli->format == AS_FMT_HTML)
        return as_render_grad_html(out, &s->p, &s->t, g, &cli->render);
    if (cli->row_given)
        return as_render_grad_walk(out, &s->p, &s->t, g, &cli->render);
    return as_render_grad_text(out, &s->p, &s->t, g, &cli->render);
}

int as_cmd_grad(FILE *out, const as_cli *cli, as_error *err)
{
    as_session_opts so = as_cli_session(cli); /* every table: the backward pass reads them */
    as_session s;
    as_grad g = {0};
    int rc = AS_EXIT_USAGE;

    if (check_options(cli, err) != 0)
        return AS_EXIT_USAGE;
    /* the forward run keeps no n x m table, the backward pass makes A's rows again a
     * block at a time, and the renderers (the tables, the walk of a row, the page) make
     * each row of dA, dS and d(QKᵀ) again as they read it (grad.h), so memory follows
     * the work (SPEC §10: 8192 tokens in megabytes, not gigabytes), with the same
     * numbers; the page draws each head's dA, dS and d(QKᵀ), n x m each */
    so.rows = 1;
    if (as_cli_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_cli_check_row(&s, cli, err) != 0 ||
        as_cli_page_fits(cli, 3 * s.p.heads * s.p.n * s.p.m, AS_MSG_HINT_PAGE_TOO_BIG_WALK, err) != 0 || as_grad_loss(&g, &s.p, &s.t, cli->render.lang, err) != 0 ||
        as_grad_run(&g, &s.p, &s.t, err) != 0)
        goto done;
    if (render(out, &s, &g, cli) != 0) {
        as_cli_write_failed(out, cli, err);
        goto done;
    }
    rc = AS_EXIT_OK;
done:
    as_grad_free(&g);
    as_session_free(&s);
    return rc;
}
