/* fuzz_answers.c - libFuzzer entry point for ANSWERS files: any bytes, graded by
 * `attnstep check` against the F11 example (or against the input that follows a line
 * "%file%", when there is one), reported as text or JSON in either language.
 *
 * What must hold, or the fuzzer aborts: the answers are refused with a message (on
 * standard error as they are met: status 3, partial), or graded with exit 0 (all right)
 * or 1 (a wrong answer) and no error; the report is
 * valid UTF-8; and the true answers, written in full, are always right (so a grader
 * that refuses or fails what is right is found, as one that passes anything was: issue
 * 20's finding 2 is in the seed corpus). */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_SEP "\n%file%\n"

static const char f11[] =
    "tokens: 我 爱\nmask: causal\nX = [[1, 1], [1,-1]]\n"
    "Wq = [[0.5, 0.5], [-0.5, 0.5]]\nWk = [[0.5, 0.5], [0.5,-0.5]]\nWv = [[5, 10], [5,-10]]\n";

/* The chapter's answers, as it prints them (4 places): always right. */
static const char f11_right[] =
    "Q = [[0, 1], [1, 0]]\nK = [[1, 0], [0, 1]]\nV = [[10, 0], [0, 20]]\n"
    "QKT = [[0, 1], [1, 0]]\nS = [[0, -inf], [0.7071, 0]]\n"
    "A = [[1, 0], [0.6698, 0.3302]]\nO = [[10, 0], [6.6976, 6.6048]]\n";

/* `attnstep check in ans` with the options of h; returns its exit status. */
static int check(uint32_t h, int *utf8_ok)
{
    as_cli cli;
    as_error err;
    char *out = NULL;
    size_t len = 0;
    FILE *mem;
    int rc;
    static char *files[] = {(char *)"in", (char *)"ans"};

    if ((mem = open_memstream(&out, &len)) == NULL)
        return -1;
    memset(&cli, 0, sizeof cli);
    cli.command = "check";
    cli.arg[0] = files[0];
    cli.arg[1] = files[1];
    cli.nargs = 2;
    cli.files = files;
    cli.nfiles = 2;
    cli.render.lang = (h & 1) ? AS_LANG_EN : AS_LANG_ZH;
    cli.render.ascii = (h >> 1) & 1;
    cli.render.digits = (int)((h >> 2) % 18);
    cli.render.row = -1;
    cli.format = (h >> 7) & 1 ? AS_FMT_JSON : AS_FMT_TEXT;
    cli.tol = (h >> 8) % 4 == 0 ? (double)((h >> 10) % 100) / 1000 : -1;
    as_error_clear(&err);
    rc = as_cmd_check(mem, &cli, &err);
    fclose(mem);
    if ((rc == AS_EXIT_USAGE) != (err.set && err.msg[0] != '\0'))
        abort(); /* an error exactly when the exit status says so */
    *utf8_ok = rc == AS_EXIT_USAGE || valid_utf8((const unsigned char *)out, len);
    free(out);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint32_t h = fnv1a(data, size);
    const char *text = (const char *)data, *input = f11;
    size_t main_len, len, input_len = sizeof f11 - 1, i;
    const size_t k = sizeof FILE_SEP - 1;
    int rc, ok;

    vfs_split(data, size, &main_len);
    len = main_len;
    for (i = 0; i + k <= main_len; i++)
        if (text[i] == '\n' && memcmp(text + i, FILE_SEP, k) == 0) {
            len = i;
            input = text + i + k;
            input_len = main_len - i - k;
            break;
        }
    vfs_name("in", (const uint8_t *)input, input_len);
    vfs_name("ans", data, len);
    rc = check(h, &ok);
    if (rc != AS_EXIT_OK && rc != AS_EXIT_WRONG && rc != AS_EXIT_USAGE && rc != AS_EXIT_PARTIAL)
        abort();
    if (!ok)
        abort(); /* the report is valid UTF-8 */
    if (input == f11) { /* the right answers are right, whatever the options */
        vfs_forget();
        vfs_name("in", (const uint8_t *)f11, sizeof f11 - 1);
        vfs_name("ans", (const uint8_t *)f11_right, sizeof f11_right - 1);
        if (check((h & ~(0x3ffu << 8)) | (1u << 8), &ok) != AS_EXIT_OK || !ok)
            abort();
    }
    vfs_forget();
    return 0;
}
