/* main.c - thin: check the arguments, run one command straight into its output
 * (standard output as it is made, or -o FILE through its temporary file), map the
 * status to the exit code. */
#include "attnstep/cli.h"
#include "attnstep/output.h"

#include <signal.h>
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

/* Runs the command into o, as it goes; returns its status. */
static int run_command(const as_cli *cli, as_output *o, as_error *err)
{
    int rc, quiet;

    if (cli->render.ascii && (cli->format == AS_FMT_TEXT || cli->format == AS_FMT_MD) &&
        as_output_ascii(o) != 0) { /* the prose's quotes and dashes too (never inside JSON
                                    * or CSV, whose quotes mean something) */
        as_error_msg(err, "", 0, 0, AS_MSG_OOM);
        as_output_abort(o);
        return AS_EXIT_USAGE;
    }
    rc = as_command_find(cli->command)->fn(o->f, cli, err);
    if (rc == AS_EXIT_USAGE) {
        as_output_abort(o); /* -o: FILE as it was; standard output: nothing was written */
        return rc;
    }
    if (as_output_commit(o, &quiet, err) != 0)
        return quiet ? -AS_EXIT_USAGE : AS_EXIT_USAGE; /* a reader that went: say nothing */
    return rc;
}

int main(int argc, char **argv)
{
    as_cli cli;
    as_error err;
    as_output o;
    int rc;

    /* a reader that goes (`| head`) ends the program at once and quietly, even when the
     * parent ignored SIGPIPE (the output streams: there is no more work worth doing) */
    signal(SIGPIPE, SIG_DFL);
    as_error_clear(&err);
    if (as_cli_parse(&cli, argc, argv, &err) != 0)
        return usage_error(&err);
    if (cli.help || cli.version)
        return help_or_version(&cli, &err);
    if (as_cli_format_fits(&cli, &err) != 0) {
        as_error_print(&err, stderr);
        return AS_EXIT_USAGE;
    }
    cli.render.color = want_color(&cli);
    if (as_output_open(&o, cli.output, cli.force, &err) != 0) {
        as_error_print(&err, stderr);
        return AS_EXIT_USAGE;
    }
    rc = run_command(&cli, &o, &err);
    if (rc == -AS_EXIT_USAGE)
        return AS_EXIT_USAGE;
    if (rc == AS_EXIT_USAGE)
        as_error_print(&err, stderr);
    return rc == AS_EXIT_PARTIAL ? AS_EXIT_USAGE : rc;
}
