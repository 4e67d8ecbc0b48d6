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

/* Other ways a file system says it has no hard links (too many links, another device,
 * no such call): the same fallback, the file written once and never clobbered. */
static void test_every_no_hard_links_errno_falls_back(void **state)
{
    static const int no_links[] = {EMLINK, EXDEV, ENOSYS};
    size_t i;

    (void)state;
    rename2_fails = EINVAL;
    for (i = 0; i < sizeof no_links / sizeof no_links[0]; i++) {
        link_fails = no_links[i];
        assert_no_clobber_works();
        assert_int_equal(unlink(path), 0);
    }
}

/* A real error of the rename that cannot replace (not "no such call" or "no such flag")
 * is that error: no fallback, nothing left behind. */
static void test_a_real_rename_error_is_reported(void **state)
{
    as_error err;

    (void)state;
    rename2_fails = EACCES;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_write_output(path, "x\n", 2, 0, &err), -1);
    assert_non_null(strstr(err.msg, "permission denied"));
    assert_int_equal(link_calls, 0);
    assert_int_equal(dir_entries(dir, ""), 0);
}

/* The lengths the system takes (Linux: NAME_MAX 255 a part, PATH_MAX 4096 with the NUL):
 * a last part of 256 bytes, a path of 4096 bytes, and a folder so long that the
 * temporary file beside FILE (".attnstep-XXXXXX", 16 bytes) would not fit, are refused
 * with the reason and the hint; a folder 1 byte shorter, and a name with no folder, are
 * taken. */
static void test_paths_too_long_for_the_system_are_refused_by_their_length(void **state)
{
    static char p[5000];
    as_error err;
    size_t k, len = 0;

    (void)state;
    memset(p, 'f', 256);
    p[256] = '\0';
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_output_path_check(p, &err), -1);
    assert_string_equal(err.msg, "cannot write: the file name is too long");
    assert_string_equal(err.hint, "the system takes no path this long (255 bytes a part, under "
                                  "4096 in all); choose a shorter folder or file name; nothing "
                                  "has been written");
    p[255] = '\0';
    assert_int_equal(as_output_path_check(p, &err), 0);
    for (k = 0; k < 15; k++) { /* 15 parts of 254 bytes and their slashes: 3825 bytes */
        memset(p + len, 'd', 254);
        len += 254;
        p[len++] = '/';
    }
    memset(p + len, 'd', 253); /* a folder of 3825 + 253 + 1 = 4079 bytes: 4079 + 17 = 4096 */
    strcpy(p + len + 253, "/f");
    assert_int_equal(as_output_path_check(p, &err), 0);
    memset(p + len, 'd', 254); /* 4080: its temporary file would not fit */
    strcpy(p + len + 254, "/f");
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_output_path_check(p, &err), -1);
    assert_string_equal(err.msg, "cannot write: the file name is too long");
    memset(p + len, 'd', 254);
    p[len + 254] = '/';
    memset(p + len + 255, 'f', 4096 - (len + 255)); /* the whole path 4096 bytes */
    p[4096] = '\0';
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_output_path_check(p, &err), -1);
    assert_string_equal(err.msg, "cannot write: the file name is too long");
}

/* --ascii's filter sees the output in pieces that may end inside a character: “ cut
 * after its first byte and after its second, σ after its first (and a last write of one
 * byte, no character's start). Each comes out whole, spelt as as_ascii_punct() and
 * as_ascii_letters() document: “ ” -> ", — -> --, σ -> sigma. */
static void test_the_ascii_filter_mends_characters_cut_between_writes(void **state)
{
    static const char *const pieces[] = {"say \xe2", "\x80\x9chi\xe2\x80", "\x9d \xcf",
                                         "\x83=1 \xe2\x80\x94 end", "\n"};
    as_output o;
    as_error err;
    size_t i;
    int quiet;

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_output_open(&o, path, 0, &err), 0);
    assert_int_equal(as_output_ascii(&o), 0);
    assert_int_equal(setvbuf(o.f, NULL, _IONBF, 0), 0); /* each piece is one write */
    for (i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
        assert_int_equal(fwrite(pieces[i], 1, strlen(pieces[i]), o.f), strlen(pieces[i]));
    assert_int_equal(as_output_commit(&o, &quiet, &err), 0);
    assert_string_equal(contents(), "say \"hi\" sigma=1 -- end\n");
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
        cmocka_unit_test_setup_teardown(test_every_no_hard_links_errno_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_real_rename_error_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paths_too_long_for_the_system_are_refused_by_their_length,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_ascii_filter_mends_characters_cut_between_writes,
                                        setup, teardown),
    };
    umask(022);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
