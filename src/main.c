/* main.c - thin: check the arguments, run one command into memory, write it whole,
 * map the status to the exit code. */
#include "attnstep/cli.h"
#include "attnstep/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --color auto: only on a terminal, and never when NO_COLOR is set (no-color.org). */
static int want_color(const as_cli *cli)
{
    const char *no = getenv("NO_COLOR");

    if (cli->color != AS_COLOR_AUTO)
        return cli->color == AS_COLOR_ALWAYS;
    return cli->output == NULL && isatty(STDOUT_FILENO) && (no == NULL || no[0] == '\0');
}

static int usage_error(const as_error *err)
{
    as_error_print(err, stderr);
    as_cli_usage(stderr, err->lang);
    return AS_EXIT_USAGE;
}

/* --help or --version to standard output; one that cannot be written (a full disk,
 * /dev/full) says so and exits 2. */
static int help_or_version(const as_cli *cli, as_error *err)
{
    if (cli->help)
        as_cli_help(stdout, cli->render.lang);
    else
        printf("attnstep %s\n", AS_VERSION);
    if (as_write_output(NULL, "", 0, 0, err) == 0)
        return AS_EXIT_OK;
    as_error_print(err, stderr);
    return AS_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    as_cli cli;
    as_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    int rc;

    as_error_clear(&err);
    if (as_cli_parse(&cli, argc, argv, &err) != 0)
        return usage_error(&err);
    if (cli.help || cli.version)
        return help_or_version(&cli, &err);
    cli.render.color = want_color(&cli);
    if ((mem = open_memstream(&buf, &len)) == NULL) {
        as_error_msg(&err, "", 0, 0, AS_MSG_OOM);
        as_error_print(&err, stderr);
        return AS_EXIT_USAGE;
    }
    rc = as_command_find(cli.command)->fn(mem, &cli, &err);
    if (fclose(mem) != 0 && rc != AS_EXIT_USAGE) {
        as_error_msg(&err, "", 0, 0, AS_MSG_OOM_WRITING);
        rc = AS_EXIT_USAGE;
    }
    if (cli.render.ascii && buf != NULL && (cli.format == AS_FMT_TEXT || cli.format == AS_FMT_MD))
        len = as_ascii_punct(buf, len); /* the prose's quotes and dashes too (never inside
                                         * JSON or CSV, whose quotes mean something) */
    if (rc != AS_EXIT_USAGE && as_write_output(cli.output, buf, len, cli.force, &err) != 0)
        rc = AS_EXIT_USAGE;
    free(buf);
    if (rc == AS_EXIT_USAGE)
        as_error_print(&err, stderr);
    return rc == AS_EXIT_PARTIAL ? AS_EXIT_USAGE : rc;
}
