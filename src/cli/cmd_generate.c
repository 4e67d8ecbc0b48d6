/* cmd_generate.c - `attnstep generate FILE N` (SPEC §19): N new tokens, each drawn by
 * the output head from the newest row and appended, with the KV cache; text or JSON. */
#include "attnstep/cli.h"
#include "attnstep/generate.h"
#include "attnstep/render_generate.h"

/* N: a positive whole number (its limit with the prompt is the run's to say). */
static int count_of(const char *arg, size_t *n, as_error *err)
{
    const char *p = arg;
    size_t v = 0;

    for (; *p >= '0' && *p <= '9' && v <= AS_MAX_DIM; p++)
        v = v * 10 + (size_t)(*p - '0');
    if (*p != '\0' || p == arg || v == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_GENERATE_COUNT, arg);
        as_error_hint_msg(err, AS_MSG_HINT_USE_GENERATE_COUNT);
        return -1;
    }
    *n = v;
    return 0;
}

int as_cmd_generate(FILE *out, const as_cli *cli, as_error *err)
{
    as_input in;
    as_generate g;
    size_t n;
    int rc = AS_EXIT_USAGE;

    if (count_of(cli->arg[1], &n, err) != 0)
        return AS_EXIT_USAGE;
    if (as_parse_file(&in, cli->arg[0], err) != 0)
        return AS_EXIT_USAGE;
    if (as_generate_run(&g, &in, n, cli->mask, cli->offset, err) != 0)
        goto free_input;
    if ((cli->format == AS_FMT_JSON ? as_render_generate_json : as_render_generate_text)(
            out, &g, &cli->render) != 0) {
        as_cli_write_failed(out, cli, err);
        goto free_all;
    }
    rc = AS_EXIT_OK;
free_all:
    as_generate_free(&g);
free_input:
    as_input_free(&in);
    return rc;
}
