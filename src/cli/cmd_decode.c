/* cmd_decode.c - `attnstep decode FILE`: generation token by token with a KV cache
 * (SPEC §11), as text (the walk-through), JSON or a page (html). */
#include "attnstep/cli.h"
#include "attnstep/decode.h"
#include "attnstep/layers.h"
#include "attnstep/render_decode.h"

#include <string.h>

/* decode writes text or JSON, and of the tables only O (then nothing else is kept:
 * the way to time it against run --only O). */
static int check_options(const as_cli *cli, as_error *err)
{
    if (cli->render.only != 0 && cli->render.only != (1u << AS_T_O)) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_DECODE_ONLY);
        as_error_hint_msg(err, AS_MSG_HINT_DECODE_ONLY);
        return -1;
    }
    if (cli->render.only != 0 && cli->format != AS_FMT_JSON) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_DECODE_JSON);
        as_error_hint_msg(err, AS_MSG_HINT_DECODE_JSON);
        return -1;
    }
    return 0;
}

/* The text says each row is the run's row bit for bit: so it runs the layer too (a rows
 * run: the same O bit for bit, and no n x n table kept, SPEC §10; refused where the
 * full run it replaces refused), with block: the whole block around it, and compares. */
static int compare_with_run(as_decode *d, const as_problem *p, as_error *err)
{
    as_block_trace b;
    as_problem q;
    as_trace t;
    long rc;

    if (as_attention_too_large(p, err) != 0 || as_block_begin(&b, &q, p, err) != 0)
        return -1;
    if (as_attention_run_rows(&t, &q, err) != 0) { /* with block: the whole block's run */
        as_block_trace_free(&b);
        return -1;
    }
    if (p->block != AS_BLOCK_NONE && as_block_finish(&b, &t.O, p, err) != 0) {
        as_trace_free(&t);
        return -1;
    }
    rc = as_decode_compare(d, &t, p->block != AS_BLOCK_NONE ? &b : NULL);
    as_block_trace_free(&b);
    as_trace_free(&t);
    if (rc < 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM);
        return -1;
    }
    return 0;
}

int as_cmd_decode(FILE *out, const as_cli *cli, as_error *err)
{
    const int keep = cli->render.only == 0;
    as_input in;
    as_layers_trace layers;
    as_problem p;
    as_decode d;
    int rc = AS_EXIT_USAGE;

    if (check_options(cli, err) != 0)
        return AS_EXIT_USAGE;
    if (as_parse_file(&in, cli->arg[0], err) != 0)
        return AS_EXIT_USAGE;
    memset(&layers, 0, sizeof layers);
    /* model: "FILE" layer N: the layer decodes what layers 0 … N−1 made, as run reads it */
    if (as_layers_run(&layers, &in, cli->mask, err) != 0 ||
        as_problem_build(&p, &in, cli->mask, err) != 0)
        goto free_input;
    p.offset = cli->offset; /* --offset: the position of row 0, as the session sets it */
    /* the page draws each step's scores and shares over the cache: n(n+1) a head */
    if (as_cli_page_fits(cli, p.heads * p.n * (p.n + 1), AS_MSG_HINT_PAGE_TOO_BIG_WALK, err) != 0)
        goto free_problem;
    if (as_decode_run(&d, &p, keep, err) != 0)
        goto free_problem;
    if (cli->format != AS_FMT_JSON && compare_with_run(&d, &p, err) != 0)
        goto free_all;
    if ((cli->format == AS_FMT_JSON   ? as_render_decode_json
         : cli->format == AS_FMT_HTML ? as_render_decode_html
                                      : as_render_decode_text)(out, &p, &d, &cli->render) != 0) {
        as_cli_write_failed(out, cli, err);
        goto free_all;
    }
    rc = AS_EXIT_OK;
free_all:
    as_decode_free(&d);
free_problem:
    as_problem_free(&p);
free_input:
    as_layers_trace_free(&layers);
    as_input_free(&in);
    return rc;
}
