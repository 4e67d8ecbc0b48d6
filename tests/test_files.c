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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_long_class_folder_gives_each_student_a_file),
        cmocka_unit_test(test_a_folder_name_the_system_cannot_take_is_refused_before_writing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
