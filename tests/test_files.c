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
#include <sys/types.h>
#include <sys/wait.h>
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
    snprintf(f, sizeof f, "%s/teacher/01-张三.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/teacher/02-李四.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/teacher/03-Ada.txt", out);
    assert_file_contains(f, "X");
    snprintf(f, sizeof f, "%s/teacher/key.txt", out);
    assert_file_contains(f, "A");
    snprintf(f, sizeof f, "%s/sheets/03-Ada.md", out);
    assert_file_contains(f, "Ada");
    assert_file_contains(CLI_OUT, "03-Ada.txt");
    /* and check --class reads that folder back, its paths not cut either: Ada's key,
     * handed in as her answers, is marked against her own problem */
    snprintf(args, sizeof args, "check --class '%s' '%s/teacher/03-Ada.txt' --lang en", out, out);
    run(args);
    assert_file_lacks(CLI_ERR, "cannot read the class list");
    assert_file_lacks(CLI_ERR, "too long");
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
    assert_int_equal(dir_entries(dir, "xxx"), 0);
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

/* ---- 5. signals while writing ---- */

/* An input of n tokens of width 1 whose `trace --row all` prints for a while. */
static void long_input(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    int i;

    assert_non_null(f);
    fputs("X = [", f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s[%d]", i ? ", " : "", i % 7);
    fputs("]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n", f);
    assert_int_equal(fclose(f), 0);
}

/* A fresh folder (dir) holding an input of n tokens (input) and the name of an output
 * not yet there (out). */
static void long_case(char *dir, char *input, char *out, int n)
{
    make_dir(dir);
    snprintf(input, 128, "%s/long.txt", dir);
    snprintf(out, 128, "%s/out.txt", dir);
    long_input(input, n);
}

/* Bytes in the temporary files of dir (-1: there is none). */
static long temp_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    char path[512];
    struct stat st;
    long bytes = -1;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, ".attnstep-", 10) == 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            bytes = stat(path, &st) == 0 ? (long)st.st_size : 0;
        }
    closedir(d);
    return bytes;
}

/* Starts `attnstep trace --row all INPUT -o OUT` and waits until its output has begun
 * (bytes in its temporary file). Returns its process id. */
static pid_t start_writing(const char *dir, const char *input, const char *out)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    struct timespec tick = {0, 1000000}; /* 1 ms */
    char cmd[512];
    pid_t pid;
    int i;

    snprintf(cmd, sizeof cmd, "exec %s trace --row all '%s' -o '%s' 2>/dev/null",
             bin ? bin : "build/attnstep", input, out);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* a test run in the background (`make coverage &`) inherits SIGINT and SIGQUIT
         * ignored, which the program rightly keeps ignored: each signal as by default */
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (i = 0; i < 60000 && temp_bytes(dir) <= 0; i++)
        nanosleep(&tick, NULL);
    assert_true(temp_bytes(dir) > 0);
    return pid;
}

/* Each catchable signal that ends a program, sent while -o FILE is being written: the
 * program ends by that signal and leaves neither FILE nor its temporary file (on main
 * SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM and SIGPROF left the temporary file). */
static void test_every_terminating_signal_removes_the_temporary_file(void **state)
{
    static const int sig[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM,   SIGPIPE, SIGALRM,
                              SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF};
    char dir[64], input[128], out[128];
    size_t k;
    int st;

    (void)state;
    long_case(dir, input, out, 600);
    for (k = 0; k < sizeof sig / sizeof sig[0]; k++) {
        const pid_t pid = start_writing(dir, input, out);
        assert_int_equal(kill(pid, sig[k]), 0);
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (!WIFSIGNALED(st) || WTERMSIG(st) != sig[k])
            fail_msg("signal %d: the program did not end by it (status %#x)", sig[k], st);
        if (temp_bytes(dir) >= 0)
            fail_msg("signal %d left the temporary file", sig[k]);
        assert_int_equal(access(out, F_OK), -1);
    }
    rm_dir(dir);
}

/* SIGXFSZ is what a file size limit sends: ignored while writing, so that the limit is
 * reported (below); sent on its own it changes nothing, and SIGTERM still cleans up. */
static void test_sigxfsz_while_writing_is_ignored_and_cleanup_still_works(void **state)
{
    struct timespec pause = {0, 200000000}; /* 0.2 s */
    char dir[64], input[128], out[128];
    pid_t pid;
    int st;

    (void)state;
    long_case(dir, input, out, 600);
    pid = start_writing(dir, input, out);
    assert_int_equal(kill(pid, SIGXFSZ), 0);
    nanosleep(&pause, NULL);
    assert_int_equal(waitpid(pid, &st, WNOHANG), 0); /* still writing */
    assert_int_equal(kill(pid, SIGTERM), 0);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    assert_true(temp_bytes(dir) < 0);
    rm_dir(dir);
}

/* ---- 6. a failed write says what happened ---- */

/* A full disk mid-stream (/dev/full): "no space left", never "out of memory" (which main
 * said for any output that failed after its first buffer). */
static void test_a_full_disk_is_reported_as_a_full_disk(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    char dir[64], input[128], out[128];

    (void)state;
    long_case(dir, input, out, 300);
    assert_int_equal(sh("%s trace --row all '%s' --lang en >/dev/full 2>" CLI_ERR,
                        bin ? bin : "build/attnstep", input), 2);
    assert_file_contains(CLI_ERR, "standard output: error: cannot write: no space left on the device");
    assert_file_lacks(CLI_ERR, "memory");
    assert_int_equal(sh("%s trace --row all '%s' >/dev/full 2>" CLI_ERR,
                        bin ? bin : "build/attnstep", input), 2);
    assert_file_contains(CLI_ERR, "磁盘没有空间了");
    rm_dir(dir);
}

/* A file size limit (ulimit -f 64: 64 KiB) reached while -o FILE is written: the limit is
 * named, no FILE, no temporary file (main was killed by SIGXFSZ and left its temporary
 * file behind). */
static void test_a_file_size_limit_is_reported_and_leaves_nothing(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    char dir[64], input[128], out[128];

    (void)state;
    long_case(dir, input, out, 300);
    assert_int_equal(sh("ulimit -f 64 && %s trace --row all '%s' -o '%s' --lang en 2>" CLI_ERR,
                        bin ? bin : "build/attnstep", input, out), 2);
    assert_file_contains(CLI_ERR, "out.txt: error: cannot write: the file has reached the largest size allowed");
    assert_file_contains(CLI_ERR, "ulimit -f unlimited");
    assert_int_equal(access(out, F_OK), -1);
    assert_true(temp_bytes(dir) < 0);
    rm_dir(dir);
}

/* ---- 7. limits of a roster, read in linear time ---- */

/* A roster of n names "student 0" ... and, when again, "student 0" once more at its end. */
static void roster_of(const char *path, int n, int again)
{
    FILE *f = fopen(path, "w");
    int i;

    assert_non_null(f);
    for (i = 0; i < n; i++)
        fprintf(f, "student %d\n", i);
    if (again)
        fputs("student 0\n", f);
    assert_int_equal(fclose(f), 0);
}

/* 99 999 names, the first again on the last line: found at once (main compared every
 * name with every earlier one and ran for minutes; here 10 s is the limit). */
static void test_a_name_given_twice_is_found_in_a_long_roster_at_once(void **state)
{
    char dir[64], roster[128], args[256];

    (void)state;
    make_dir(dir);
    snprintf(roster, sizeof roster, "%s/r.txt", dir);
    roster_of(roster, 99999, 1);
    snprintf(args, sizeof args, "exercise --class '%s' --seed 1 --lang en", roster);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "r.txt:100000:1: error: “student 0” is already on line 1");
    rm_dir(dir);
}

/* The documented limit of 100 000 names: the next one is an error at its line. */
static void test_a_roster_of_more_than_100000_names_is_refused(void **state)
{
    char dir[64], roster[128], args[256];

    (void)state;
    make_dir(dir);
    snprintf(roster, sizeof roster, "%s/r.txt", dir);
    roster_of(roster, 100001, 0);
    snprintf(args, sizeof args, "exercise --class '%s' --seed 1 --lang en", roster);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "r.txt:100001:1: error: too many names: a roster holds at most 100000");
    assert_stdout_empty();
    rm_dir(dir);
}

/* Runs `exercise --class DIR/r.txt --seed 1 OPTS --lang en` for a roster of the text
 * given, in dir (made if empty). Returns the exit status. */
static int run_class(char *dir, const char *roster_text, const char *opts)
{
    char roster[128], args[512];

    if (dir[0] == '\0')
        make_dir(dir);
    snprintf(roster, sizeof roster, "%s/r.txt", dir);
    put(roster, roster_text);
    snprintf(args, sizeof args, "exercise --class '%s' --seed 1 %s --lang en", roster, opts);
    return run(args);
}

/* A class folder of 100 001 answers files, one more than the documented limit: refused
 * while the folder is listed, before any file is read. */
static void test_more_than_100000_answers_files_are_refused_before_reading(void **state)
{
    char dir[64], args[256];

    (void)state;
    make_dir(dir);
    assert_int_equal(sh("cd '%s' && seq 1 100001 | sed 's/$/.txt/' | xargs touch", dir), 0);
    snprintf(args, sizeof args, "check " F11 " '%s' --lang en", dir);
    assert_int_equal(run_timed(args), 2);
    assert_file_contains(CLI_ERR, "error: too many answers files: at most 100000 in one run");
    assert_file_contains(CLI_ERR, "split the answers into several folders");
    assert_file_lacks(CLI_ERR, "1.txt");
    rm_dir(dir);
}

/* ---- 8. untrusted text: direction controls ---- */

/* U+202E (RIGHT-TO-LEFT OVERRIDE) in a roster name and in a token label: refused at its
 * place, named by its code point, never printed (on main both passed into the output). */
static void test_direction_controls_in_names_and_labels_are_refused(void **state)
{
    char dir[64] = "", path[128], args[256];

    (void)state;
    assert_int_equal(run_class(dir, "Ada\nEv\xe2\x80\xaeil\n", ""), 2);
    assert_file_contains(CLI_ERR, "r.txt:2:3: error: a direction control in a name");
    assert_file_lacks(CLI_ERR, "\xe2\x80\xae");
    snprintf(path, sizeof path, "%s/t.txt", dir);
    put(path, "tokens: a, b\xe2\x81\xa6" "c\nX = [[1], [2]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n");
    snprintf(args, sizeof args, "run '%s' --lang en", path);
    assert_int_equal(run(args), 2);
    assert_file_contains(CLI_ERR, "t.txt:1:13: error: a direction control U+2066 in the title or a label");
    assert_file_lacks(CLI_ERR, "\xe2\x81\xa6");
    assert_stdout_empty();
    rm_dir(dir);
}

/* practice echoes what it read (standard input not a terminal) and quotes what is no
 * number: a surrogate (ED A0 80), an overlong form (E0 80 80) and U+202E are each shown
 * as ?, never sent to the terminal (main echoed the first two raw). */
static void test_practice_never_echoes_invalid_utf8_or_direction_controls(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");

    (void)state;
    assert_int_equal(sh("printf '\\355\\240\\200\\n\\340\\200\\200\\n\\342\\200\\256\\nq\\n' | "
                        "%s practice " F11 " --lang en >" CLI_OUT " 2>" CLI_ERR,
                        bin ? bin : "build/attnstep"), 1); /* stopped before the end */
    assert_file_contains(CLI_OUT, "Q[0][0] = ???\n");
    assert_file_contains(CLI_OUT, "“???” is not a number");
    assert_file_lacks(CLI_OUT, "\xed\xa0\x80");
    assert_file_lacks(CLI_OUT, "\xe0\x80\x80");
    assert_file_lacks(CLI_OUT, "\xe2\x80\xae");
}

/* ---- 8. roster names escaped in documents ---- */

/* A name holding HTML, a Markdown link, LaTeX commands and TeX's special characters:
 * in a Markdown sheet no raw HTML (< > & as entities) and no link or inline maths; in a
 * LaTeX sheet nothing TeX would run (main put the name into Markdown raw). */
static void test_roster_names_are_escaped_in_markdown_and_latex_sheets(void **state)
{
    static const char names[] = "Ada <b>x</b> & [y](z)\n\\input{/etc/passwd} $x$ 100% ^_~\n";
    char dir[64] = "";

    (void)state;
    assert_int_equal(run_class(dir, names, "--format md"), 0);
    assert_file_contains(CLI_OUT, "Ada &lt;b&gt;x&lt;/b&gt; &amp; \\[y\\](z)");
    assert_file_contains(CLI_OUT, "\\\\input{/etc/passwd} \\$x\\$ 100% ^\\_\\~");
    assert_file_lacks(CLI_OUT, "<b>");
    assert_int_equal(run_class(dir, names, "--format latex"), 0);
    assert_file_contains(CLI_OUT, "Ada \\textless{}b\\textgreater{}x\\textless{}/b\\textgreater{} \\& [y](z)");
    assert_file_contains(CLI_OUT, "\\textbackslash{}input\\{/etc/passwd\\} \\$x\\$ 100\\% "
                                  "\\textasciicircum{}\\_\\textasciitilde{}");
    assert_file_lacks(CLI_OUT, "\\input{");
    rm_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_long_class_folder_gives_each_student_a_file),
        cmocka_unit_test(test_a_folder_name_the_system_cannot_take_is_refused_before_writing),
        cmocka_unit_test(test_a_fifo_among_the_answers_is_refused_without_blocking),
        cmocka_unit_test(test_a_fifo_as_input_roster_or_load_is_refused_without_blocking),
        cmocka_unit_test(test_standard_input_may_be_a_pipe),
        cmocka_unit_test(test_every_terminating_signal_removes_the_temporary_file),
        cmocka_unit_test(test_sigxfsz_while_writing_is_ignored_and_cleanup_still_works),
        cmocka_unit_test(test_a_full_disk_is_reported_as_a_full_disk),
        cmocka_unit_test(test_a_file_size_limit_is_reported_and_leaves_nothing),
        cmocka_unit_test(test_a_name_given_twice_is_found_in_a_long_roster_at_once),
        cmocka_unit_test(test_a_roster_of_more_than_100000_names_is_refused),
        cmocka_unit_test(test_more_than_100000_answers_files_are_refused_before_reading),
        cmocka_unit_test(test_direction_controls_in_names_and_labels_are_refused),
        cmocka_unit_test(test_practice_never_echoes_invalid_utf8_or_direction_controls),
        cmocka_unit_test(test_roster_names_are_escaped_in_markdown_and_latex_sheets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
