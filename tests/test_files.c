/* test_files.c - files are never lost, never block, never lie (issue 30, SPEC §10): the
 * file names -o DIR makes, files that are not regular files, no-clobber and --force,
 * signals while writing, what a failed write says, the limits of rosters and answer
 * folders, and untrusted text kept from terminals and documents. Every expected value is
 * the system's own (a file exists or not, its mode, its bytes) or the chapter's text.
 * Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/files.out"
#define CLI_ERR "build/tests/files.err"
#include "cli_util.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define F11 "examples/f11.txt"

/* ---- helpers ---- */

/* A fresh folder under build/tests (relative path in dir, 64 bytes). */
static void make_dir(char *dir)
{
    snprintf(dir, 64, "build/tests/files-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void rm_dir(const char *dir)
{
    assert_int_equal(sh("rm -rf '%s'", dir), 0);
}

/* Writes text to path. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* How many entries of dir begin with prefix. */
static int count_starting(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* A name of n letters c. */
static void letters(char *buf, int c, size_t n)
{
    memset(buf, c, n);
    buf[n] = '\0';
}

/* Runs `attnstep ARGS` as run() does, killed after 10 s (exit 124: it blocked). */
static int run_timed(const char *args)
{
    const char *bin = getenv("ATTNSTEP_BIN");

    return sh("timeout 10 %s %s >" CLI_OUT " 2>" CLI_ERR " </dev/null",
              bin ? bin : "build/attnstep", args);
}

/* ---- 1. the file names of -o DIR ---- */

/* A class folder whose path is longer than 512 bytes: each student still gets a file of
 * their own, named after them (on main every name was cut to the same 512 bytes, and
 * each student's file overwrote the last). */
static void test_a_long_class_folder_gives_each_student_a_file(void **state)
{
    char dir[64], a[201], b[201], c[201], out[1024], roster[128], args[1500], f[1200];

    (void)state;
    make_dir(dir);
    letters(a, 'a', 200), letters(b, 'b', 200), letters(c, 'c', 200);
    snprintf(out, sizeof out, "%s/%s/%s/%s", dir, a, b, c);
    assert_true(strlen(out) > 512);
    snprintf(roster, sizeof roster, "%s/roster.txt", dir);
    put(roster, "张三\n李四\nAda\n");
    assert_int_equal(sh("mkdir -p '%s'", out), 0);
    snprintf(args, sizeof args, "exercise --class '%s' --seed 7 -o '%s'", roster, out);
    assert_int_equal(run(args), 0);
    snprintf(f, sizeof f, "%s/01-张三.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/02-李四.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/03-Ada.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/key.txt", out);
    assert_file_contains(f, "A");
    assert_file_contains(CLI_OUT, "03-Ada.txt");
    rm_dir(dir);
}

/* A class folder the system cannot take (a part of 300 bytes): an error saying the name
 * is too long before anything is made, not even the folder. */
static void test_a_folder_name_the_system_cannot_take_is_refused_before_writing(void **state)
{
    char dir[64], part[301], out[512], roster[128], args[1500];
    struct stat st;

    (void)state;
    make_dir(dir);
    letters(part, 'x', 300);
    snprintf(out, sizeof out, "%s/%s", dir, part);
    snprintf(roster, sizeof roster, "%s/roster.txt", dir);
    put(roster, "Ada\nBo\n");
    snprintf(args, sizeof args, "exercise --class '%s' --seed 7 -o '%s' --lang en", roster, out);
    assert_int_equal(run(args), 2);
    assert_file_contains(CLI_ERR, "the file name is too long");
    assert_file_contains(CLI_ERR, "nothing has been written");
    assert_int_equal(count_starting(dir, "xxx"), 0);
    assert_int_not_equal(stat(out, &st), 0);
    assert_stdout_empty();
    rm_dir(dir);
}

/* ---- 2. what is not a regular file is refused, never waited on ---- */

/* A FIFO named like an answers file in the class folder (on main, `check` opened it and
 * waited for a writer for ever): it is reported as no regular file, the real answers are
 * still graded. */
static void test_a_fifo_among_the_answers_is_refused_without_blocking(void **state)
{
    char dir[64], path[128], args[256];

    (void)state;
    make_dir(dir);
    snprintf(path, sizeof path, "%s/a-fifo.txt", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(sh("cp examples/f11-answers.txt '%s/b.txt'", dir), 0);
    snprintf(args, sizeof args, "check " F11 " '%s' --lang en", dir);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "a-fifo.txt: error: cannot read the answers: not a regular file");
    assert_file_contains(CLI_OUT, "b");
    rm_dir(dir);
}

/* A FIFO given as the input, as the roster, or named by load(): each refused at once. */
static void test_a_fifo_as_input_roster_or_load_is_refused_without_blocking(void **state)
{
    char dir[64], fifo[128], input[128], args[512];

    (void)state;
    make_dir(dir);
    snprintf(fifo, sizeof fifo, "%s/pipe.txt", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(args, sizeof args, "run '%s' --lang en", fifo);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "cannot read the file: not a regular file");
    assert_file_contains(CLI_ERR, "give - and pipe into it");
    snprintf(args, sizeof args, "exercise --class '%s' --seed 1 -o '%s/class' --lang en", fifo, dir);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "not a regular file");
    snprintf(input, sizeof input, "%s/in.txt", dir);
    put(input, "X = load(\"pipe.txt\")\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n");
    snprintf(args, sizeof args, "run '%s' --lang en", input);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "in.txt:1:11: error: cannot load");
    assert_file_contains(CLI_ERR, "not a regular file");
    rm_dir(dir);
}

/* Standard input, asked for with -, may still be a pipe. */
static void test_standard_input_may_be_a_pipe(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");

    (void)state;
    assert_int_equal(sh("cat " F11 " | timeout 10 %s run - >" CLI_OUT " 2>" CLI_ERR,
                        bin ? bin : "build/attnstep"), 0);
    assert_file_contains(CLI_OUT, "0.6697615493");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_long_class_folder_gives_each_student_a_file),
        cmocka_unit_test(test_a_folder_name_the_system_cannot_take_is_refused_before_writing),
        cmocka_unit_test(test_a_fifo_among_the_answers_is_refused_without_blocking),
        cmocka_unit_test(test_a_fifo_as_input_roster_or_load_is_refused_without_blocking),
        cmocka_unit_test(test_standard_input_may_be_a_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
