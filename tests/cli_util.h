/* cli_util.h - running the attnstep binary from a cmocka test: its exit status, its
 * output against a golden file (the diff printed when they differ), its messages.
 * Include after <cmocka.h>. The binary is $ATTNSTEP_BIN (the Makefile sets it), else
 * build/attnstep. Define CLI_OUT and CLI_ERR before including to give a test program
 * files of its own. */
#ifndef ATTNSTEP_CLI_UTIL_H
#define ATTNSTEP_CLI_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>

#ifndef CLI_OUT
#define CLI_OUT "build/tests/cli.out"
#endif
#ifndef CLI_ERR
#define CLI_ERR "build/tests/cli.err"
#endif
/* what older tests call them */
#define OUT CLI_OUT
#define ERR CLI_ERR

/* Runs `attnstep ARGS` (a shell fragment) with stdout and stderr to files; returns the
 * exit status. $ATTNSTEP_WRAP, when set, goes before the binary (`make valgrind` puts
 * valgrind there). */
static inline int run(const char *args)
{
    const char *bin = getenv("ATTNSTEP_BIN"), *wrap = getenv("ATTNSTEP_WRAP");
    char cmd[2048];
    int st;

    snprintf(cmd, sizeof cmd, "%s %s %s >" CLI_OUT " 2>" CLI_ERR " </dev/null",
             wrap ? wrap : "", bin ? bin : "build/attnstep", args);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs a shell command made from fmt (up to 8 KiB); returns its exit status. */
static inline int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    int st;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* How many entries of dir (. and .. aside) begin with prefix ("": all of them). */
static inline int dir_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
             strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* Writes text to the file at path, failing the test when it cannot. */
static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The whole file at path in a new NUL-terminated buffer the caller frees; NULL when it
 * cannot be read. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long len;

    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    buf = malloc((size_t)len + 1);
    if (buf != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len)
        buf[len] = '\0';
    fclose(f);
    return buf;
}

/* stdout of the last run equals the golden file; prints the diff when not. */
static inline void assert_golden(const char *golden)
{
    char *want = slurp(golden), *got = slurp(CLI_OUT), cmd[512];

    assert_non_null(want);
    assert_non_null(got);
    if (strcmp(want, got) != 0) {
        snprintf(cmd, sizeof cmd, "diff -u %s " CLI_OUT " >&2", golden);
        if (system(cmd) == -1)
            print_error("diff could not run\n");
        print_error("output differs from %s (to accept a deliberate change, check the new "
                    "output by hand against the chapter, then copy it over)\n", golden);
        fail();
    }
    free(want);
    free(got);
}

static inline void assert_file_contains(const char *path, const char *want)
{
    char *got = slurp(path);

    assert_non_null(got);
    if (strstr(got, want) == NULL) {
        print_error("%s lacks \"%s\"; it holds:\n%s\n", path, want, got);
        fail();
    }
    free(got);
}

static inline void assert_file_lacks(const char *path, const char *unwanted)
{
    char *got = slurp(path);

    assert_non_null(got);
    if (strstr(got, unwanted) != NULL) {
        print_error("%s holds \"%s\":\n%s\n", path, unwanted, got);
        fail();
    }
    free(got);
}

static inline void assert_stdout_empty(void)
{
    char *got = slurp(CLI_OUT);

    assert_non_null(got);
    assert_string_equal(got, "");
    free(got);
}

#endif
