/* fuzz_cli.c - libFuzzer entry point for the command line as a whole: the arguments,
 * every command of the command table, every option, and the files they read.
 *
 * An input is ARGS, then up to three files, each after a line "%file%":
 *     trace\na.txt\n--row\nall  (one argument a line: attnstep trace a.txt --row all)
 *     %file%
 *     X = [[1, 1]] ...              (the file a.txt; also "-")   
 *     %file%
 *     Q = [[0, 1]] ...              (the file b.txt: ANSWERS, or compare's VARIANT)
 * and, as for the other fuzzers, "%load%" and what load() reads. Nothing touches the
 * disk: -o is parsed but never written (as_output is tested by test_attack.c).
 *
 * What must hold, or the fuzzer aborts: a refused command line says why; a command ends
 * in 0, 1 (check only), 2 or 3 (partial: reported as it went), with an error exactly
 * when 2; what a command prints is
 * valid UTF-8 (a caption cut inside a character was issue 20's finding 7). */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/cli.h"
#include "attnstep/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOST_ARGS 24

/* The arguments: one a line, each a new NUL-terminated copy in words (argv[0] first). */
static int split_args(char *args, size_t len, char **argv)
{
    int argc = 0;
    size_t i, start = 0;

    argv[argc++] = (char *)"attnstep";
    for (i = 0; i <= len && argc < MOST_ARGS; i++)
        if (i == len || args[i] == '\n') {
            args[i] = '\0';
            argv[argc++] = args + start;
            start = i + 1;
        }
    return len == 0 ? 1 : argc;
}

/* Runs the command cli names into memory and checks what it did. */
static void run_command(as_cli *cli)
{
    const as_command *c = as_command_find(cli->command);
    as_error err;
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    int rc;

    if (c == NULL)
        abort(); /* the parser accepted a command the table does not have */
    if (mem == NULL)
        return;
    as_error_clear(&err);
    if (as_cli_format_fits(cli, &err) != 0) { /* as main.c: refused before any work */
        fclose(mem);
        free(out);
        return;
    }
    cli->render.color = cli->color == AS_COLOR_ALWAYS;
    rc = c->fn(mem, cli, &err);
    fclose(mem);
    if (rc != AS_EXIT_OK && rc != AS_EXIT_WRONG && rc != AS_EXIT_USAGE && rc != AS_EXIT_PARTIAL)
        abort();
    if (rc == AS_EXIT_WRONG && strcmp(cli->command, "check") != 0)
        abort(); /* only check finds a wrong answer */
    if ((rc == AS_EXIT_USAGE) != (err.set && err.msg[0] != '\0'))
        abort(); /* an error exactly when the exit status says so */
    if (rc != AS_EXIT_USAGE && !valid_utf8((const unsigned char *)out, len))
        abort();
    if (cli->render.ascii && out != NULL)
        as_ascii_punct(out, len);
    if (getenv("FUZZ_VERBOSE") != NULL) /* for reading a replay: what each input did */
        fprintf(stderr, "%s: exit %d, %zu bytes%s%s\n", cli->command, rc, len,
                err.set ? ": " : "", err.set ? err.msg : "");
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MOST_ARGS + 1], *args;
    const char *file, *next;
    size_t main_len, args_len, file_len, next_len;
    as_cli cli;
    as_error err;
    int argc;

    vfs_split(data, size, &main_len);
    args_len = fuzz_cut((const char *)data, main_len, &file, &file_len);
    if ((args = malloc(args_len + 1)) == NULL)
        return 0;
    memcpy(args, data, args_len);
    argc = split_args(args, args_len, argv);
    argv[argc] = NULL;
    if (file != NULL) { /* a.txt, b.txt, c.txt in turn; "-" is a.txt */
        static const char *const names[] = {"a.txt", "b.txt", "c.txt"};
        size_t i;
        for (i = 0; i < 3 && file != NULL; i++, file = next, file_len = next_len) {
            const size_t n = fuzz_cut(file, file_len, &next, &next_len);
            vfs_name(names[i], (const uint8_t *)file, n);
            if (i == 0)
                vfs_name("-", (const uint8_t *)file, n);
        }
    }
    as_error_clear(&err);
    if (as_cli_parse(&cli, argc, argv, &err) != 0) {
        if (!err.set || err.msg[0] == '\0')
            abort(); /* a refused command line says why */
        if (getenv("FUZZ_VERBOSE") != NULL)
            fprintf(stderr, "usage: %s\n", err.msg);
    } else if (!cli.help && !cli.version) {
        run_command(&cli);
    }
    vfs_forget();
    free(args);
    return 0;
}
