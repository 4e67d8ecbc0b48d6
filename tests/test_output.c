/* test_output.c - -o FILE on file systems that lack what no-clobber creation usually
 * uses (issue 30): vfat, exFAT, SMB and many FUSE mounts have no hard links (link()
 * fails with EPERM) and some have no rename that cannot replace (renameat2 with
 * RENAME_NOREPLACE fails with EINVAL). The Makefile links this test with
 * -Wl,--wrap=link,--wrap=renameat2: the library's calls come here and fail as such a
 * file system makes them fail, when the test says so. What is expected is the file
 * system's own word: the file's bytes, whether it exists, what is left in the folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attnstep/output.h"

#define CLI_OUT "build/tests/output.out"
#define CLI_ERR "build/tests/output.err"
#include "cli_util.h"

/* ---- the wrapped calls ---- */

int __real_link(const char *from, const char *to);
int __wrap_link(const char *from, const char *to);
int __real_renameat2(int ofd, const char *from, int nfd, const char *to, unsigned flags);
int __wrap_renameat2(int ofd, const char *from, int nfd, const char *to, unsigned flags);

static int link_fails, rename2_fails; /* the errno to fail with, or 0: the real call */
static int link_calls, rename2_calls;

int __wrap_link(const char *from, const char *to)
{
    link_calls++;
    if (link_fails) {
        errno = link_fails;
        return -1;
    }
    return __real_link(from, to);
}

int __wrap_renameat2(int ofd, const char *from, int nfd, const char *to, unsigned flags)
{
    rename2_calls++;
    if (rename2_fails) {
        errno = rename2_fails;
        return -1;
    }
    return __real_renameat2(ofd, from, nfd, to, flags);
}

/* ---- helpers ---- */

static char dir[64];
static char path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "build/tests/output-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(path, sizeof path, "%s/out.txt", dir);
    link_fails = rename2_fails = link_calls = rename2_calls = 0;
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The bytes of path, as a string (at most 63 bytes). */
static const char *contents(void)
{
    static char buf[64];
    FILE *f = fopen(path, "r");
    size_t n;

    assert_non_null(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Writes text to path without --force, then tries again: the first write makes the
 * file, the second is refused as "exists" and leaves it as it was; nothing else stays
 * in the folder. */
static void assert_no_clobber_works(void)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_write_output(path, "first\n", 6, 0, &err), 0);
    assert_string_equal(contents(), "first\n");
    assert_int_equal(as_write_output(path, "second\n", 7, 0, &err), -1);
    assert_true(err.set);
    assert_non_null(strstr(err.msg, "exists"));
    assert_string_equal(contents(), "first\n");
    assert_int_equal(dir_entries(dir, ""), 1);
}

/* ---- the tests ---- */

static void test_no_clobber_uses_a_rename_that_cannot_replace(void **state)
{
    (void)state;
    assert_no_clobber_works();
    assert_true(rename2_calls > 0);
    assert_int_equal(link_calls, 0);
}

/* Without RENAME_NOREPLACE (EINVAL), link() does it. */
static void test_no_clobber_falls_back_to_link(void **state)
{
    (void)state;
    rename2_fails = EINVAL;
    assert_no_clobber_works();
    assert_true(link_calls > 0);
}

/* Neither (a vfat USB stick under an old kernel, or a FUSE mount): the file is still
 * written and still never clobbers; on main this said "permission denied". */
static void test_no_clobber_works_without_hard_links(void **state)
{
    (void)state;
    rename2_fails = EINVAL;
    link_fails = EPERM;
    assert_no_clobber_works();
    link_fails = EOPNOTSUPP;
    rename2_fails = ENOSYS;
    assert_int_equal(unlink(path), 0);
    assert_no_clobber_works();
}

/* A real error of link() is still that error, not a fallback. */
static void test_a_real_link_error_is_reported(void **state)
{
    as_error err;

    (void)state;
    rename2_fails = EINVAL;
    link_fails = EACCES;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_write_output(path, "x\n", 2, 0, &err), -1);
    assert_non_null(strstr(err.msg, "permission denied"));
    assert_int_equal(dir_entries(dir, ""), 0);
}

/* --force keeps the mode of the file it replaces (on main a 0600 file became 0644). */
static void test_force_keeps_the_mode_of_the_replaced_file(void **state)
{
    as_error err;
    struct stat st;

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_write_output(path, "old\n", 4, 0, &err), 0);
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(as_write_output(path, "new\n", 4, 1, &err), 0);
    assert_string_equal(contents(), "new\n");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(chmod(path, 0640), 0);
    assert_int_equal(as_write_output(path, "newer\n", 6, 1, &err), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(dir_entries(dir, ""), 1);
}

/* Standard output into a pipe whose reader has gone, SIGPIPE ignored (as a parent may
 * leave it): the write fails with EPIPE and says so, not "out of memory". */
static void test_a_closed_pipe_is_reported_as_a_closed_pipe(void **state)
{
    static char data[1 << 17];
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    int p[2], saved = dup(STDOUT_FILENO);
    as_error err;

    (void)state;
    memset(data, 'x', sizeof data);
    assert_int_equal(pipe(p), 0);
    close(p[0]);
    fflush(stdout);
    assert_true(dup2(p[1], STDOUT_FILENO) >= 0);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_write_output(NULL, data, sizeof data, 0, &err), -1);
    fflush(stdout);
    clearerr(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(p[1]);
    signal(SIGPIPE, was);
    assert_non_null(strstr(err.msg, "cannot write: the reader of the output closed the pipe"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_no_clobber_uses_a_rename_that_cannot_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_clobber_falls_back_to_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_clobber_works_without_hard_links, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_real_link_error_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_force_keeps_the_mode_of_the_replaced_file, setup, teardown),
        cmocka_unit_test(test_a_closed_pipe_is_reported_as_a_closed_pipe),
    };
    umask(022);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
