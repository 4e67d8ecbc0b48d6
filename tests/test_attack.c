/* test_attack.c - what an outside attack found (issue 20), each as a test that failed
 * before its fix: a label buffer overrun with many heads, a grader fooled by the way a
 * number is written, -o over devices and FIFOs, a racy no-clobber, long -o names, the
 * umask, a temporary file left by a signal, a caption cut inside a UTF-8 character,
 * --help to a full device, lenient option values and options that mean nothing to a
 * command. Inputs are made at run time in build/tests/attack-*; every expected value is
 * written here from the input (36 heads of ones give C = [O₀|…|O₃₅] of ones; the F11
 * answers are the chapter's). */
#define _GNU_SOURCE /* mknod(), S_IFCHR, fopencookie() */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#define CLI_OUT "build/tests/test_attack.out"
#define CLI_ERR "build/tests/test_attack.err"
#include "attnstep/check.h"
#include "attnstep/output.h"
#include "attnstep/render.h"
#include "attnstep/session.h"
#include "cli_util.h"
#include "gen_input.h"
#include "test_util.h"

#define F11 "examples/f11.txt"
#define ADIR "build/tests/attack"
#define ODIR ADIR "/o" /* -o's files only: what else is there is a leftover */

/* ---- helpers ---- */

static void write_file(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "w");
    va_list ap;

    assert_non_null(f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    mkdir("build/tests", 0777);
    return system("rm -rf " ADIR " && mkdir -p " ODIR) == 0 ? 0 : -1;
}

/* A layer of `heads` heads over one token of width 1: Wq, Wk, Wv one row of ones. */
static void many_heads(const char *path, int heads)
{
    char row[4096];
    int i, used = 0;

    for (i = 0; i < heads; i++)
        used += snprintf(row + used, sizeof row - (size_t)used, "%s1", i ? ", " : "");
    write_file(path, "heads: %d\nX = [[1]]\nWq = [[%s]]\nWk = [[%s]]\nWv = [[%s]]\n", heads,
               row, row, row);
}

/* Nonzero when s is valid UTF-8 (no cut or stray byte). */
static int valid_utf8(const unsigned char *s)
{
    while (*s) {
        int n = *s < 0x80 ? 0 : (*s & 0xE0) == 0xC0 ? 1 : (*s & 0xF0) == 0xE0 ? 2
              : (*s & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0)
            return 0;
        for (s++; n > 0; n--, s++)
            if ((*s & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

static void assert_stdout_is_utf8(void)
{
    char *got = slurp(CLI_OUT);

    assert_non_null(got);
    if (!valid_utf8((const unsigned char *)got)) {
        print_error("standard output is not valid UTF-8\n");
        fail();
    }
    free(got);
}

/* ---- 1. labels of any length: C = [O₀|O₁|…] with 36 and 48 heads ---- */

static void test_the_label_of_c_names_every_head_whatever_their_number(void **state)
{
    (void)state;
    many_heads(ADIR "/h36.txt", 36);
    assert_int_equal(run("run " ADIR "/h36.txt --only C"), 0);
    assert_file_contains(CLI_OUT, "C = [O₀|O₁|O₂|");
    assert_file_contains(CLI_OUT, "|O₃₄|O₃₅] = [[1,1,1,"); /* the whole label, then C */
    assert_stdout_is_utf8();
    many_heads(ADIR "/h48.txt", 48);
    assert_int_equal(run("run " ADIR "/h48.txt --only C --ascii"), 0);
    assert_file_contains(CLI_OUT, "|O[46]|O[47]] = [[1,1,1,");
    assert_int_equal(run("trace " ADIR "/h48.txt --ascii"), 0);
    assert_file_contains(CLI_OUT, "O[47]");
}

/* compare lists every table that changed, with many heads: no cut list, valid UTF-8. */
static void test_compare_lists_every_table_of_many_heads_whole(void **state)
{
    (void)state;
    many_heads(ADIR "/c36.txt", 36);
    write_file(ADIR "/c36b.txt", "heads: 36\nX = [[2]]\nWq = [[%s]]\nWk = [[%s]]\nWv = [[%s]]\n",
               "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
               "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
               "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1");
    assert_int_equal(run("compare " ADIR "/c36.txt " ADIR "/c36b.txt --lang en"), 0);
    assert_stdout_is_utf8();
    /* the ends of both lists: 36 heads of QKᵀ, S, O changed, their A (all 1) did not */
    assert_file_contains(CLI_OUT, "S_h35, O_h35, C and O changed with it");
    assert_file_contains(CLI_OUT, "A_h34 and A_h35 stayed the same");
}

/* ---- 2. a grader that only a right answer passes ---- */

static void test_the_written_unit_comes_from_the_digits_written_and_is_bounded(void **state)
{
    (void)state;
    /* a zero with an exponent has the unit of its last digit, as any number (SPEC §6:
     * 0.00e0 is 0.00), but 0×10⁹ is still 0: the exponent never widens a zero's unit
     * (0.0e9 is 0.0); a whole mantissa with no negative exponent is exact */
    assert_close(as_written_unit("0.0e9", 5), 0.1, 1e-17);
    assert_true(as_written_unit("0e5", 3) == 0);
    assert_close(as_written_unit("-0.000e-2", 9), 1e-5, 1e-20);
    assert_true(as_written_unit("1e-99999999999999999999", 23) == 0); /* no place: exact */
    assert_true(as_written_unit("1.5e99999999999999999999", 24) == 0);
    assert_true(as_written_unit("1.5e-99999999999999999999", 25) == 0);
    assert_close(as_written_unit("0.00", 4), 0.01, 1e-18); /* no exponent: places count */
    assert_close(as_written_unit("2.5e2", 5), 10, 1e-12);
    assert_close(as_written_unit("0.010e1", 7), 1e-2, 1e-18);
}

static void test_check_is_not_fooled_by_a_zero_with_an_exponent_or_a_huge_one(void **state)
{
    static const char *const wrong[] = {"0.0e9", "0e99", "1e-99999999999999999999",
                                        "0.0000e-99999999999999999999"};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        write_file(ADIR "/ans.txt", "A = [[1, 0], [%s, 0.3302]]\n", wrong[i]);
        assert_int_equal(run("check " F11 " " ADIR "/ans.txt --lang en"), 1);
        assert_file_contains(CLI_OUT, "A: wrong");
    }
    write_file(ADIR "/ans.txt", "A = [[1, 0], [6.698e-1, 0.3302]]\n"); /* right, 4 places */
    assert_int_equal(run("check " F11 " " ADIR "/ans.txt --lang en"), 0);
}

/* ---- 6. ANSWERS are read by the input's own grammar: no stray commas, no blank cells ---- */

/* (A comma before "]" is allowed by that grammar, in inputs and answers alike, as Python
 * allows [1, 2,]: it leaves no cell blank.) */
static void test_answers_with_stray_commas_or_blank_cells_are_refused(void **state)
{
    static const struct {
        const char *text, *where;
    } cases[] = {
        {"A = [[,0,1],[1,0,]]\n", "ans.txt:1:7: error: unexpected \",\" in matrix A"},
        {"A = [[1,0],,[0.6698,0.3302]]\n", "ans.txt:1:12: error: unexpected \",\" in matrix A"},
        {"A = [[1,,0],[0.6698,0.3302]]\n", "ans.txt:1:9: error: unexpected \",\" in matrix A"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_file(ADIR "/ans.txt", "%s", cases[i].text);
        assert_int_equal(run("check " F11 " " ADIR "/ans.txt --lang en"), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, cases[i].where);
    }
}

/* ---- 3, 4, 9. -o ---- */

/* The targets are made in the test's own folder, never the system's: a binary that
 * regressed would replace them (as root, a /dev/null of its own would be lost). The
 * device is a copy of /dev/null's node, made where mknod is allowed (as root). */
static void test_o_force_refuses_anything_but_a_regular_file(void **state)
{
    static const char *const target[] = {ADIR "/fifo", ADIR, ADIR "/stdout", ADIR "/null"};
    char args[256];
    struct stat st;
    size_t i, count = 3;

    (void)state;
    assert_int_equal(mkfifo(ADIR "/fifo", 0600), 0);
    assert_int_equal(symlink("/dev/stdout", ADIR "/stdout"), 0);
    count += mknod(ADIR "/null", S_IFCHR | 0666, makedev(1, 3)) == 0;
    for (i = 0; i < count; i++) {
        snprintf(args, sizeof args, "run " F11 " --lang en -o %s --force", target[i]);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, "-o writes only regular files");
    }
    assert_int_equal(lstat(ADIR "/fifo", &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(ADIR "/stdout", &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    if (count == 4) {
        assert_int_equal(lstat(ADIR "/null", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
    unlink(ADIR "/fifo");
    unlink(ADIR "/stdout");
    unlink(ADIR "/null");
}

/* Two writers of the same new file: the first to finish wins, the second is told. The
 * old lstat-then-rename let both "succeed" and lost one output. */
static void test_two_writers_of_one_new_file_never_both_succeed(void **state)
{
    as_output a, b;
    as_error err;
    int quiet;
    char *kept;

    (void)state;
    unlink(ODIR "/race.txt");
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_output_open(&a, ODIR "/race.txt", 0, &err), 0);
    assert_int_equal(as_output_open(&b, ODIR "/race.txt", 0, &err), 0); /* neither exists */
    fputs("first\n", a.f);
    fputs("second\n", b.f);
    assert_int_equal(as_output_commit(&a, &quiet, &err), 0);
    assert_int_equal(as_output_commit(&b, &quiet, &err), -1);
    assert_string_equal(err.msg, "the file exists; nothing was written");
    kept = slurp(ODIR "/race.txt");
    assert_string_equal(kept, "first\n");
    free(kept);
    assert_int_equal(dir_entries(ODIR, ""), 1); /* no temporary file left */
    unlink(ODIR "/race.txt");
}

static void test_o_takes_a_name_of_250_bytes_and_keeps_the_umask(void **state)
{
    char name[300], args[400];
    struct stat st;
    mode_t old;

    (void)state;
    snprintf(name, sizeof name, ODIR "/%0250d", 0);
    snprintf(args, sizeof args, "run " F11 " -o %s", name);
    old = umask(027);
    assert_int_equal(run(args), 0);
    umask(old);
    assert_file_contains(name, "0.6697615493");
    assert_int_equal(stat(name, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    unlink(name);
    assert_int_equal(dir_entries(ODIR, ""), 0);
}

/* A signal that ends the program while -o's temporary file exists removes it. */
static void test_a_signal_leaves_no_temporary_file(void **state)
{
    static const int sig[] = {SIGTERM, SIGINT, SIGHUP};
    size_t i;
    int st;

    (void)state;
    for (i = 0; i < sizeof sig / sizeof sig[0]; i++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            as_output o;
            as_error err;
            /* a shell starts a background job with SIGINT ignored, and the library rightly
             * leaves an ignored signal ignored: the test gives the child the default */
            signal(sig[i], SIG_DFL);
            as_error_init(&err, AS_LANG_EN);
            if (as_output_open(&o, ODIR "/killed.txt", 0, &err) != 0)
                _exit(3);
            fputs("half", o.f);
            fflush(o.f);
            raise(sig[i]);
            _exit(4);
        }
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), sig[i]); /* it still dies of the signal */
        assert_int_equal(dir_entries(ODIR, ""), 0);
    }
}

/* ---- 7. a caption of long CJK labels stays valid UTF-8 ---- */

static void test_a_mask_caption_of_long_cjk_labels_is_never_cut(void **state)
{
    char label[700];
    int i, used = 0;

    (void)state;
    for (i = 0; i < 170; i++)
        used += snprintf(label + used, sizeof label - (size_t)used, "一");
    write_file(ADIR "/cjk.txt", "tokens: %s 二\nX = [[1], [2]]\nWq = [[1]]\nWk = [[1]]\n"
               "Wv = [[1]]\n", label);
    assert_int_equal(run("run " ADIR "/cjk.txt --lang en --only M"), 0);
    assert_stdout_is_utf8();
    assert_file_contains(CLI_OUT, "一一一” and “二”"); /* the whole list, both labels */
    unlink(ADIR "/cjk.txt");
}

/* ---- 8. --help and --version to a full device ---- */

static void test_help_and_version_to_a_full_device_say_so(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    char cmd[512];
    int i, st;

    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    for (i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s %s --lang en >/dev/full 2>" CLI_ERR,
                 bin ? bin : "build/attnstep", i ? "--version" : "--help");
        st = system(cmd);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 2);
        assert_file_contains(CLI_ERR, "standard output: error: cannot write: ");
    }
}

/* ---- 11. strict option values; options that mean nothing to the command ---- */

static void test_option_values_are_as_strict_as_the_input(void **state)
{
    static const char *const refused[] = {
        "run " F11 " --digits ' 5'",  "run " F11 " --digits +5",
        "run " F11 " --digits 5x",    "exercise --seed ' 1'",
        "exercise --tokens +2",       "check " F11 " examples/f11-answers.txt --tol 0x1p-3",
        "check " F11 " examples/f11-answers.txt --tol ' 0.1'",
        "check " F11 " examples/f11-answers.txt --tol -0.1",
        "check " F11 " examples/f11-answers.txt --tol inf",
        "trace " F11 " --row +1",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        if (run(refused[i]) != 2) {
            print_error("accepted: %s\n", refused[i]);
            fail();
        }
        assert_stdout_empty();
    }
    /* 1e-400 is a number to the input (it is 0): so it is to --tol */
    assert_int_equal(run("check " F11 " examples/f11-answers.txt --tol 1e-400 --lang en"), 1);
    assert_int_equal(run("check " F11 " examples/f11-answers.txt --tol 1/20 --lang en"), 0);
}

static void test_an_option_that_means_nothing_to_the_command_is_an_error(void **state)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"run " F11 " --seed 3", "--seed means nothing to run: it is an option of exercise"},
        {"trace " F11 " --tol 0.1", "--tol means nothing to trace: it is an option of check"},
        {"run " F11 " --row 1", "--row means nothing to run: it is an option of trace"},
        {"trace " F11 " --heatmap", "--heatmap means nothing to trace"},
        {"check " F11 " examples/f11-answers.txt --answers", "--answers means nothing to check"},
        {"exercise --tol 1", "--tol means nothing to exercise"},
        {"compare " F11 " " F11 " --level 2", "--level means nothing to compare"},
        {F11 " --dk 2", "--dk means nothing to run"},
    };
    size_t i;
    char args[256];

    (void)state;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "%s --lang en", cases[i].args);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, cases[i].says);
    }
    assert_int_equal(run(cases[0].args), 2); /* and in Chinese, the default */
    assert_file_contains(CLI_ERR, "--seed对run没有意义：它是exercise或practice的选项");
}

/* ---- 5. output that streams ---- */

static ssize_t refuse(void *cookie, const char *buf, size_t size)
{
    (void)buf;
    (void)size;
    ++*(int *)cookie;
    errno = EPIPE;
    return -1;
}

/* A reader that goes away stops the walk at once: the renderer writes as it goes and
 * stops at the first write that fails, instead of making the whole output first (the
 * old trace built 143 MB for these 1024 rows, then offered it 4 KiB at a time). */
static void test_a_trace_stops_at_the_first_write_that_fails(void **state)
{
    static const cookie_io_functions_t io = {NULL, refuse, NULL, NULL};
    as_session s;
    as_error err;
    as_render_opts o;
    int calls = 0;
    FILE *f;

    (void)state;
    long_column(ADIR "/long.txt", 1024);
    as_error_clear(&err);
    assert_int_equal(as_session_open(&s, ADIR "/long.txt", NULL, &err), 0);
    memset(&o, 0, sizeof o);
    o.digits = 10;
    o.row = -2; /* --row all */
    f = fopencookie(&calls, "w", io);
    assert_non_null(f);
    assert_int_equal(as_render_trace(f, &s.p, &s.t, &o), -1);
    fclose(f);
    /* the inputs and the 1024 projection lines go before the first check (about 27
     * writes of 4 KiB); the whole walk would take some 35 000 */
    assert_in_range(calls, 1, 100);
    as_session_free(&s);
}

static void test_a_very_long_output_is_announced_with_how_to_shorten_it(void **state)
{
    int st;

    (void)state;
    long_column(ADIR "/long.txt", 1024); /* trace --row all: about 1.4e7 numbers */
    st = system("ATTNSTEP_LANG=en ${ATTNSTEP_BIN:-build/attnstep} trace " ADIR "/long.txt "
                "--row all 2>" CLI_ERR " | head -c 10 >" CLI_OUT);
    assert_true(WIFEXITED(st));
    assert_file_contains(CLI_ERR, "note: this prints about 13636611 numbers (more than ten "
                                  "million); to see part of it, use --only");
    assert_file_contains(CLI_OUT, "X = [[-3],");
    assert_int_equal(run("trace " ADIR "/long.txt --row 5 --lang en"), 0); /* 1.3e6: quiet */
    assert_file_lacks(CLI_ERR, "note:");
    assert_int_equal(run("run " ADIR "/long.txt --only O --lang en"), 0);
    assert_file_lacks(CLI_ERR, "note:");
    unlink(ADIR "/long.txt");
}

/* --ascii converts the prose's quotes and dashes as the output streams by, also where a
 * 3-byte character is cut between two writes: a long English trace is pure ASCII, on
 * standard output and through -o alike. */
static void assert_ascii_only(const char *path)
{
    char *got = slurp(path);
    size_t i;

    assert_non_null(got);
    assert_true(strlen(got) > 100000);
    for (i = 0; got[i] != '\0'; i++)
        if ((unsigned char)got[i] >= 0x80) {
            print_error("%s: a byte 0x%02x at %zu\n", path, (unsigned char)got[i], i);
            fail();
        }
    free(got);
}

static void test_ascii_holds_across_every_write_of_a_long_output(void **state)
{
    (void)state;
    long_column(ADIR "/long.txt", 100);
    assert_int_equal(run("trace " ADIR "/long.txt --row all --ascii --lang en"), 0);
    assert_ascii_only(CLI_OUT);
    assert_file_contains(CLI_OUT, "\""); /* the quotes were there, as ASCII */
    assert_int_equal(run("trace " ADIR "/long.txt --row all --ascii --lang en -o " ODIR "/t.txt"),
                     0);
    assert_ascii_only(ODIR "/t.txt");
    unlink(ODIR "/t.txt");
    unlink(ADIR "/long.txt");
}

/* A reader that goes away ends the program quietly, even when the parent shell ignores
 * SIGPIPE (then every write would fail with EPIPE): no "cannot write" on standard error. */
static void test_a_closed_pipe_ends_the_output_quietly(void **state)
{
    int st;

    (void)state;
    long_column(ADIR "/long.txt", 300);
    st = system("trap '' PIPE; ATTNSTEP_LANG=en ${ATTNSTEP_BIN:-build/attnstep} trace "
                ADIR "/long.txt --row all 2>" CLI_ERR " | head -c 10 >" CLI_OUT);
    assert_true(WIFEXITED(st));
    assert_file_contains(CLI_OUT, "X = [[-3],");
    assert_file_lacks(CLI_ERR, "cannot write");
    assert_file_lacks(CLI_ERR, "out of memory");
    unlink(ADIR "/long.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_label_of_c_names_every_head_whatever_their_number),
        cmocka_unit_test(test_compare_lists_every_table_of_many_heads_whole),
        cmocka_unit_test(test_the_written_unit_comes_from_the_digits_written_and_is_bounded),
        cmocka_unit_test(test_check_is_not_fooled_by_a_zero_with_an_exponent_or_a_huge_one),
        cmocka_unit_test(test_answers_with_stray_commas_or_blank_cells_are_refused),
        cmocka_unit_test(test_o_force_refuses_anything_but_a_regular_file),
        cmocka_unit_test(test_two_writers_of_one_new_file_never_both_succeed),
        cmocka_unit_test(test_o_takes_a_name_of_250_bytes_and_keeps_the_umask),
        cmocka_unit_test(test_a_signal_leaves_no_temporary_file),
        cmocka_unit_test(test_a_mask_caption_of_long_cjk_labels_is_never_cut),
        cmocka_unit_test(test_help_and_version_to_a_full_device_say_so),
        cmocka_unit_test(test_option_values_are_as_strict_as_the_input),
        cmocka_unit_test(test_an_option_that_means_nothing_to_the_command_is_an_error),
        cmocka_unit_test(test_a_trace_stops_at_the_first_write_that_fails),
        cmocka_unit_test(test_a_very_long_output_is_announced_with_how_to_shorten_it),
        cmocka_unit_test(test_ascii_holds_across_every_write_of_a_long_output),
        cmocka_unit_test(test_a_closed_pipe_ends_the_output_quietly),
    };

    return cmocka_run_group_tests(tests, setup, NULL);
}
