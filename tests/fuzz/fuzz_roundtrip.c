/* fuzz_roundtrip.c - a differential libFuzzer target: any input that `run` accepts is
 * run, its text output (either language, with or without --ascii, at a drawn --digits)
 * is read back as an ANSWERS file, and `check` must mark every table right (SPEC §2:
 * "the tool's own run text output reads back as an ANSWERS file, and check marks every
 * table right"). The oracle is the renderer against the grader: every number run
 * prints is correctly rounded to the digits it shows, so a fair grader passes it; a
 * grader that fails it, or a renderer that prints what the reader cannot read, aborts.
 *
 * --digits is drawn from 1 to 17: a value that rounds to a whole number but is not one
 * keeps one decimal (SPEC §4 as numfmt.h says: -0.0039 at --digits 2 is "0.0"), so that
 * nothing run shows reads back as exact when it is not. At --digits 0 no decimal is
 * left to keep (0.5 shows as "0"): that is the user asking for whole numbers.
 */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options of one round trip, drawn from h. */
static void options(as_cli *cli, uint32_t h)
{
    memset(cli, 0, sizeof *cli);
    cli->render.lang = (h & 1) ? AS_LANG_EN : AS_LANG_ZH;
    cli->render.ascii = (h >> 1) & 1;
    cli->render.digits = 1 + (int)((h >> 2) % 17);
    cli->render.row = -1;
    cli->format = AS_FMT_TEXT;
    cli->tol = -1;
}

/* `attnstep run in` into a new buffer (*out, *len); returns its status. */
static int run(uint32_t h, char **out, size_t *len)
{
    static char *files[] = {(char *)"in"};
    as_cli cli;
    as_error err;
    FILE *mem = open_memstream(out, len);
    int rc;

    if (mem == NULL)
        return -1;
    options(&cli, h);
    cli.command = "run";
    cli.arg[0] = files[0];
    cli.nargs = 1;
    cli.files = files;
    cli.nfiles = 1;
    as_error_clear(&err);
    rc = as_cmd_run(mem, &cli, &err);
    fclose(mem);
    return rc;
}

/* `attnstep check in ans` (the report thrown away); returns its status. */
static int check(uint32_t h)
{
    static char *files[] = {(char *)"in", (char *)"ans"};
    as_cli cli;
    as_error err;
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    int rc;

    if (mem == NULL)
        return -1;
    options(&cli, h);
    cli.command = "check";
    cli.arg[0] = files[0];
    cli.arg[1] = files[1];
    cli.nargs = 2;
    cli.files = files;
    cli.nfiles = 2;
    as_error_clear(&err);
    rc = as_cmd_check(mem, &cli, &err);
    fclose(mem);
    if (rc != AS_EXIT_OK && getenv("FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "check %d: %s\n%.*s", rc, err.msg, (int)len, out);
    free(out);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint32_t h = fnv1a(data, size);
    char *text = NULL;
    size_t main_len, len = 0;
    int rc;

    vfs_split(data, size, &main_len);
    vfs_name("in", data, main_len);
    rc = run(h, &text, &len);
    if (rc == AS_EXIT_OK && text != NULL && len < (1u << 20)) {
        vfs_name("ans", (const uint8_t *)text, len);
        if (check(h) != AS_EXIT_OK)
            abort(); /* run's own output, read back, is not all right */
    }
    free(text);
    vfs_forget();
    return 0;
}
