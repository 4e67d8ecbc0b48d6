/* test_bad.c - the hostile corpus (tests/bad/, issue 5): every input there is run through
 * the binary, which must refuse it with exit status 2, exactly the message in its
 * NAME.expect sidecar (`attnstep: FILE:LINE:COL: error: ...` or `attnstep: FILE:
 * error: ...`, and the hint where one helps), nothing on standard output, and within a
 * second: a child still running then is killed and counts as a hang.
 *
 * The corpus: each NAME.zh.expect and NAME.en.expect pair is one case, run as `attnstep
 * tests/bad/NAME` (Chinese, the default language: `错误：` and `提示：`) and as `attnstep
 * --lang en tests/bad/NAME`; NAME may be a file of any content, a directory, or missing
 * altogether (missing-file.*.expect). tests/bad/loaded/ holds the files that the cases
 * load(). The expectations were written by running the binary once and checking each
 * message, its language and its position by hand. Rows and columns named in a message
 * count from 0, as the chapter does; FILE:LINE:COL counts from 1, as editors do.
 *
 * Beyond the corpus: the lean run of `--only O` must refuse the same runs the same way;
 * and inputs made at run time in a scratch folder: standard input that never ends
 * (/dev/zero), a FIFO given to load(), -o with a refused input, scores of +-1000, and
 * loaded files of 1 MiB and more (read in two halves on two threads) that
 * end inside a number or a character, or hold an error in their second half.
 *
 * $ATTNSTEP_BIN is the binary (build/attnstep when unset); $ATTNSTEP_WRAP, when set, is
 * put before it (valgrind); $ATTNSTEP_TIMEOUT_MS replaces the one-second limit (for
 * valgrind, which runs programs tens of times slower). Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CORPUS "tests/bad"
#define MAX_CASES 512
#define MAX_KEPT 65536

/* ---- running the binary with a deadline ---- */

/* What one run of the binary wrote on one stream: the first MAX_KEPT - 1 bytes, kept
 * NUL-terminated, and how many there were in all. */
typedef struct stream {
    char text[MAX_KEPT];
    size_t bytes;
} stream;

/* What one run of the binary did. */
typedef struct outcome {
    int status; /* exit status, or -1 when it did not exit normally */
    int hung;   /* nonzero when it was killed at the deadline */
    stream out, err;
    double seconds;
} outcome;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int deadline_ms(void)
{
    const char *s = getenv("ATTNSTEP_TIMEOUT_MS");

    return s != NULL && atoi(s) > 0 ? atoi(s) : 1000;
}

/* argv for the child: the words of $ATTNSTEP_WRAP, the binary, then args (NULL-ended).
 * Words are split at spaces in words, which is modified. */
static int child_argv(char **argv, int cap, char *words, const char *const *args)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    int n = 0;
    char *w;

    for (w = strtok(words, " "); w != NULL && n < cap - 8; w = strtok(NULL, " "))
        argv[n++] = w;
    argv[n++] = (char *)(bin != NULL ? bin : "build/attnstep");
    while (*args != NULL && n < cap - 1)
        argv[n++] = (char *)*args++;
    argv[n] = NULL;
    return n;
}

/* In the child: stdin from in_path, stdout and stderr to the pipes, then exec. */
static void exec_child(char **argv, const char *in_path, int out_fd, int err_fd)
{
    int in = open(in_path, O_RDONLY);

    if (in < 0 || dup2(in, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        _exit(127);
    execvp(argv[0], argv);
    _exit(127);
}

/* Reads what is ready on fd into s. Returns 0 at the end of the stream. */
static int drain(int fd, stream *s)
{
    char buf[4096];
    ssize_t got = read(fd, buf, sizeof buf);
    size_t keep;

    if (got < 0 && errno == EINTR)
        return 1;
    if (got <= 0)
        return 0;
    keep = s->bytes < MAX_KEPT - 1 ? MAX_KEPT - 1 - s->bytes : 0;
    if (keep > (size_t)got)
        keep = (size_t)got;
    memcpy(s->text + (s->bytes < MAX_KEPT - 1 ? s->bytes : MAX_KEPT - 1), buf, keep);
    s->bytes += (size_t)got;
    s->text[s->bytes < MAX_KEPT - 1 ? s->bytes : MAX_KEPT - 1] = '\0';
    return 1;
}

/* Reads the child's two pipes until both close or the deadline passes. Returns nonzero
 * when the deadline passed first. */
static int collect(int out_fd, int err_fd, outcome *o, double start)
{
    struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    stream *to[2] = {&o->out, &o->err};
    int open_fds = 2, i;

    while (open_fds > 0) {
        const int left = deadline_ms() - (int)((now() - start) * 1000);
        if (left <= 0 || poll(fds, 2, left) == 0)
            return 1;
        for (i = 0; i < 2; i++)
            if (fds[i].fd >= 0 && fds[i].revents != 0 && !drain(fds[i].fd, to[i])) {
                fds[i].fd = -1;
                open_fds--;
            }
    }
    return 0;
}

/* Runs the binary on args (NULL-ended) with standard input from in_path, into o. */
static void run_bounded(outcome *o, const char *const *args, const char *in_path)
{
    const char *wrap = getenv("ATTNSTEP_WRAP");
    char words[1024], *argv[64];
    int out_pipe[2], err_pipe[2], st;
    pid_t pid;
    double start = now();

    memset(o, 0, sizeof *o);
    snprintf(words, sizeof words, "%s", wrap != NULL ? wrap : "");
    child_argv(argv, 64, words, args);
    assert_int_equal(pipe(out_pipe), 0);
    assert_int_equal(pipe(err_pipe), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        exec_child(argv, in_path, out_pipe[1], err_pipe[1]);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    o->hung = collect(out_pipe[0], err_pipe[0], o, start);
    if (o->hung)
        kill(pid, SIGKILL);
    close(out_pipe[0]);
    close(err_pipe[0]);
    waitpid(pid, &st, 0);
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    o->seconds = now() - start;
}

/* ---- the corpus ---- */

typedef struct bad_case {
    char name[256];   /* NAME, without .en.expect */
    char *expect;     /* the whole of NAME.en.expect */
    char *expect_zh;  /* the whole of NAME.zh.expect */
    outcome got;      /* run with --lang en */
    outcome got_zh;   /* run in the default language */
} bad_case;

static bad_case cases[MAX_CASES];
static size_t ncases;

/* A folder for inputs that tests make (a FIFO, large files): made by the group setup,
 * removed with all it holds by the teardown. */
static char scratch[] = "/tmp/attnstep-bad-XXXXXX";

static char *slurp_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)len + 1)) != NULL) {
        if (fread(buf, 1, (size_t)len, f) == (size_t)len) {
            buf[len] = '\0';
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const bad_case *)a)->name, ((const bad_case *)b)->name);
}

#define EXPECT_EN ".en.expect"
#define EXPECT_ZH ".zh.expect"

/* Finds every NAME.en.expect, reads it and NAME.zh.expect, and runs `attnstep
 * tests/bad/NAME` once in each language. The tests after the corpus run in English. */
static int run_corpus(void **state)
{
    const size_t suffix = sizeof EXPECT_EN - 1;
    DIR *dir;
    struct dirent *e;
    char path[600];
    size_t i;

    (void)state;
    if (mkdtemp(scratch) == NULL || (dir = opendir(CORPUS)) == NULL)
        return -1;
    while ((e = readdir(dir)) != NULL && ncases < MAX_CASES) {
        size_t len = strlen(e->d_name);
        if (len <= suffix || len >= sizeof cases[0].name + suffix ||
            strcmp(e->d_name + len - suffix, EXPECT_EN) != 0)
            continue;
        memcpy(cases[ncases].name, e->d_name, len - suffix);
        cases[ncases].name[len - suffix] = '\0';
        ncases++;
    }
    closedir(dir);
    qsort(cases, ncases, sizeof cases[0], by_name);
    unsetenv("ATTNSTEP_LANG");
    for (i = 0; i < ncases; i++) {
        const char *en[] = {"--lang", "en", path, NULL}, *zh[] = {path, NULL};
        snprintf(path, sizeof path, CORPUS "/%.255s" EXPECT_EN, cases[i].name);
        if ((cases[i].expect = slurp_file(path)) == NULL)
            return -1;
        snprintf(path, sizeof path, CORPUS "/%.255s" EXPECT_ZH, cases[i].name);
        if ((cases[i].expect_zh = slurp_file(path)) == NULL)
            return -1;
        snprintf(path, sizeof path, CORPUS "/%.255s", cases[i].name);
        run_bounded(&cases[i].got, en, "/dev/null");
        run_bounded(&cases[i].got_zh, zh, "/dev/null");
    }
    setenv("ATTNSTEP_LANG", "en", 1);
    return 0;
}

static int free_corpus(void **state)
{
    char cmd[64];
    size_t i;

    (void)state;
    for (i = 0; i < ncases; i++) {
        free(cases[i].expect);
        free(cases[i].expect_zh);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes len bytes of data to scratch/name, whose path goes to path[PATH_BYTES]. */
#define PATH_BYTES 96
static void put_file(char *path, const char *name, const char *data, size_t len)
{
    FILE *f;

    snprintf(path, PATH_BYTES, "%s/%s", scratch, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Nonzero when line (up to its newline) has the GNU form this project promises:
 * `attnstep: PATH:LINE:COL: error: ` or `attnstep: PATH: error: `, PATH in the corpus,
 * the word error in English or in Chinese (`: 错误：`). */
static int gnu_form(const char *line)
{
    static const char lead[] = "attnstep: " CORPUS "/";
    const char *e = strstr(line, ": error: "), *p;

    if (e == NULL)
        e = strstr(line, ": 错误：");
    const char *nl = strchr(line, '\n');
    int colons = 0;

    if (strncmp(line, lead, sizeof lead - 1) != 0 || e == NULL || (nl != NULL && e > nl))
        return 0;
    /* before ": error: ", a position is ":LINE:COL" with LINE and COL at least 1 */
    p = e;
    while (colons < 2) {
        const char *d = p;
        while (d > line && d[-1] >= '0' && d[-1] <= '9')
            d--;
        if (d == p || d[-1] != ':' || *d == '0')
            break;
        colons++;
        p = d - 1;
    }
    return colons == 0 || colons == 2;
}

/* ---- tests ---- */

/* A case added as NAME.expect alone (English only) would never run: each case is a pair. */
static void test_every_case_has_an_expectation_in_each_language(void **state)
{
    DIR *dir = opendir(CORPUS);
    struct dirent *e;
    int lone = 0;

    (void)state;
    assert_non_null(dir);
    while ((e = readdir(dir)) != NULL) {
        const size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".expect") == 0 &&
            (len <= 10 || (strcmp(e->d_name + len - 10, EXPECT_EN) != 0 &&
                           strcmp(e->d_name + len - 10, EXPECT_ZH) != 0))) {
            print_error(CORPUS "/%s: a case is NAME.en.expect and NAME.zh.expect; rename it "
                        "and write the other (sh tests/bad/regen.sh makes both from the "
                        "binary: read them before committing)\n", e->d_name);
            lone++;
        }
    }
    closedir(dir);
    assert_int_equal(lone, 0);
}

static void test_the_corpus_holds_at_least_fifty_hostile_inputs(void **state)
{
    (void)state;
    if (ncases < 50) {
        print_error("only %zu cases in " CORPUS "\n", ncases);
        fail();
    }
}

/* Nonzero when text is one error line in the GNU form, then at most one hint line; the
 * words error and hint in English, or both in Chinese when zh is nonzero. */
static int one_error_and_a_hint(const char *text, int zh)
{
    const char *hint = zh ? "  提示：" : "  hint: ";
    const char *nl = strchr(text, '\n'), *word = strstr(text, zh ? ": 错误：" : ": error: ");
    const char *second = strchr(text, '\n'), *third;

    if (!gnu_form(text) || second == NULL || word == NULL || word > nl)
        return 0;
    second++;
    if (*second == '\0')
        return 1;
    third = strchr(second, '\n');
    return strncmp(second, hint, strlen(hint)) == 0 && third != NULL && third[1] == '\0';
}

/* Nonzero when text holds a letter of the Latin alphabet outside quotes, names, numbers
 * and options: a Chinese message must not fall back to English words. A word of three
 * or more lowercase ASCII letters that is not quoted (“…”) and not a known name is one;
 * letters right after a digit are hex digits or part of a number (0xff, u10ffff), not a word. */
static int english_words_outside_quotes(const char *text)
{
    static const char *const names[] = {"attnstep", "tests", "bad", "txt", "bin", "expect",
                                        "loaded", "heads", "tokens", "kv_tokens", "mask",
                                        "causal", "none", "scale", "auto", "layout", "torch",
                                        "book", "title", "load", "inf", "softmax", "iconv",
                                        "numpy", "savetxt", "window", "positions", "rope",
                                        "alibi", "sinusoidal", "rope_base", "half",
                                        "interleaved", "loss", "sum", "mse", "name", "ask",
                                        "kv_heads", "only", "force", "row", "last", "all",
                                        "lang", "format", "utf", "gbk", "sqrt", "exp",
                                        "max", "dim", "run", "check", "trace", "json",
                                        "GiB", "d_k", "d_v", "grad", "target",
                                        /* the block's settings and words (SPEC §15) */
                                        "block", "pre", "post", "norm", "layer", "rms",
                                        "norm_eps", "norm_style", "annotated", "ffn", "relu",
                                        "gelu", "gelu_tanh", "swiglu", "silu", "act",
                                        "d_model", "d_ff", "bup", "bdown",
                                        /* the output head's (SPEC §19) */
                                        "head", "tied", "temperature", "top_k", "top_p",
                                        "top", "sample", "greedy", "logit", "logits",
                                        "vocab"};
    const char *p = text;
    int quoted = 0;

    while (*p != '\0') {
        size_t n = 0, i;
        if (strncmp(p, "“", 3) == 0 || strncmp(p, "”", 3) == 0) {
            quoted = strncmp(p, "“", 3) == 0;
            p += 3;
            continue;
        }
        while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '_')
            n++;
        if (n >= 3 && !quoted && (p == text || !((p[-1] >= 'A' && p[-1] <= 'Z') ||
                                                 (p[-1] >= '0' && p[-1] <= '9') ||
                                                 p[-1] == '/' || p[-1] == '-' || p[-1] == '.'))) {
            for (i = 0; i < sizeof names / sizeof names[0]; i++)
                if (strlen(names[i]) == n && strncmp(names[i], p, n) == 0)
                    break;
            if (i == sizeof names / sizeof names[0])
                return 1;
        }
        p += n > 0 ? n : 1;
    }
    return 0;
}

/* Each property of a case: nonzero when c has it, else it prints what c did instead. */
typedef int (*property)(const bad_case *c);

/* Checks one property on every case, reporting each case without it, then fails. */
static void assert_every_case(property has)
{
    size_t i, bad = 0;

    for (i = 0; i < ncases; i++)
        bad += !has(&cases[i]);
    assert_int_equal(bad, 0);
}

static int expectation_in_the_gnu_form(const bad_case *c)
{
    if (one_error_and_a_hint(c->expect, 0) && one_error_and_a_hint(c->expect_zh, 1))
        return 1;
    print_error("%s: an expectation is not `attnstep: FILE[:LINE:COL]: error: ...` (`错误：` "
                "in Chinese) and at most one `  hint: ...` (`  提示：`) line:\n%s%s\n", c->name,
                c->expect, c->expect_zh);
    return 0;
}

static int chinese_expectation_in_chinese(const bad_case *c)
{
    if (!english_words_outside_quotes(c->expect_zh))
        return 1;
    print_error("%s" EXPECT_ZH " holds English words:\n%s\n", c->name, c->expect_zh);
    return 0;
}

static int expected(const char *name, const outcome *o, const char *want)
{
    if (!o->hung && o->status == 2 && strcmp(o->err.text, want) == 0)
        return 1;
    print_error("%s: exit %d%s; stderr:\n%s--- expected:\n%s\n", name, o->status,
                o->hung ? " (killed: it hung)" : "", o->err.text, want);
    return 0;
}

static int exit_2_and_the_expected_message(const bad_case *c)
{
    return expected(c->name, &c->got, c->expect) & expected(c->name, &c->got_zh, c->expect_zh);
}

static int nothing_on_stdout(const bad_case *c)
{
    if (c->got.out.bytes == 0 && c->got_zh.out.bytes == 0)
        return 1;
    print_error("%s wrote %zu bytes to stdout\n", c->name, c->got.out.bytes + c->got_zh.out.bytes);
    return 0;
}

static int done_within_the_deadline(const bad_case *c)
{
    if (!c->got.hung && c->got.seconds * 1000 <= deadline_ms() && !c->got_zh.hung &&
        c->got_zh.seconds * 1000 <= deadline_ms())
        return 1;
    print_error("%s took %.3f s\n", c->name, c->got.seconds);
    return 0;
}

static void test_every_expectation_is_one_error_line_in_the_gnu_form_and_a_hint(void **state)
{
    (void)state;
    assert_every_case(expectation_in_the_gnu_form);
}

static void test_every_chinese_expectation_is_in_chinese(void **state)
{
    (void)state;
    assert_every_case(chinese_expectation_in_chinese);
}

static void test_every_hostile_input_exits_2_with_its_expected_message(void **state)
{
    (void)state;
    assert_every_case(exit_2_and_the_expected_message);
}

static void test_no_hostile_input_writes_anything_to_standard_output(void **state)
{
    (void)state;
    assert_every_case(nothing_on_stdout);
}

static void test_every_hostile_input_is_refused_within_a_second(void **state)
{
    (void)state;
    assert_every_case(done_within_the_deadline);
}

/* The lean run that `--only O` makes checks the same ranges in the same order as the
 * full run: the cases the run refuses are refused the same way there. */
static void test_the_lean_run_of_only_o_refuses_the_same_runs_the_same_way(void **state)
{
    static bad_case lean;
    char path[600];
    const char *args[] = {"run", "--lang", "en", "--only", "O", "--format", "json", path, NULL};
    size_t i, checked = 0, bad = 0;

    (void)state;
    for (i = 0; i < ncases; i++) {
        if (strstr(cases[i].expect, "leaves the range of a double") == NULL &&
            strstr(cases[i].expect, "has no readable position") == NULL)
            continue;
        lean = cases[i];
        snprintf(path, sizeof path, CORPUS "/%.255s", lean.name);
        run_bounded(&lean.got, args, "/dev/null");
        bad += !expected(lean.name, &lean.got, lean.expect) || lean.got.out.bytes != 0;
        checked++;
    }
    assert_true(checked >= 10);
    assert_int_equal(bad, 0);
}

/* Checks that o is a refusal: exit 2, nothing on stdout, stderr starting with want. */
static void expect_refusal(const outcome *o, const char *want)
{
    if (o->hung || o->status != 2 || o->out.bytes != 0 ||
        strncmp(o->err.text, want, strlen(want)) != 0) {
        print_error("exit %d%s, %zu bytes on stdout; stderr:\n%s--- expected it to start:\n%s\n",
                    o->status, o->hung ? " (killed: it hung)" : "", o->out.bytes, o->err.text,
                    want);
        fail();
    }
}

/* ---- load() of a large file: read in two halves at once ---- */

/* A loaded file of 1 MiB or more is parsed in two halves on two threads (parse.c); what the halves find must be what one piece would: the same
 * errors at the same lines and columns. These files are made here, not kept in the
 * corpus: rows of four numbers "1.000...", "2.000...", "3.000...", "4.000...", each row
 * row_bytes long with its line end; 8192 rows of 128 bytes are exactly 1 MiB, and the
 * second half starts at line 4098. */
#define BIG_ROWS 8192
#define BIG_ROW 128

typedef struct big_file {
    char *bytes;
    size_t rows, row_bytes, len;
} big_file;

static void big_make(big_file *f, size_t rows, size_t row_bytes)
{
    const size_t w = (row_bytes - 4) / 4; /* a number's width: 4 of them, 3 blanks, "\n" */
    size_t i, k;

    f->rows = rows;
    f->row_bytes = row_bytes;
    f->len = rows * row_bytes;
    f->bytes = malloc(f->len);
    assert_non_null(f->bytes);
    for (i = 0; i < rows; i++)
        for (k = 0; k < 4; k++) {
            char *at = f->bytes + i * row_bytes + k * (w + 1);
            at[0] = (char)('1' + k);
            at[1] = '.';
            memset(at + 2, '0', w - 2);
            at[w] = k < 3 ? ' ' : '\n';
        }
}

/* Overwrites bytes of line `line` (1-based) from column `col` (1-based, = byte here). */
static void big_patch(big_file *f, size_t line, size_t col, const char *with, size_t n)
{
    memcpy(f->bytes + (line - 1) * f->row_bytes + (col - 1), with, n);
}

/* Blanks the 4th number of line: that row has 3 numbers. */
static void big_drop_last_number(big_file *f, size_t line)
{
    const size_t w = (f->row_bytes - 4) / 4;

    memset(f->bytes + (line - 1) * f->row_bytes + 3 * w + 2, ' ', w + 1);
}

/* Loads f as X and checks the whole of standard error against want (with the file's
 * path put for each %s), exit 2 and nothing on standard output. */
static void expect_big_refusal(big_file *f, const char *want_fmt)
{
    static const char input_text[] = "X = load(\"big.txt\")\nWq = [[1], [1], [1], [1]]\n"
                                     "Wk = [[1], [1], [1], [1]]\nWv = [[1], [1], [1], [1]]\n";
    char big[PATH_BYTES], input[PATH_BYTES], want[512];
    const char *args[] = {input, NULL};
    static outcome o;

    put_file(big, "big.txt", f->bytes, f->len);
    put_file(input, "big-input.txt", input_text, sizeof input_text - 1);
    free(f->bytes);
    run_bounded(&o, args, "/dev/null");
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    snprintf(want, sizeof want, want_fmt, big);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    expect_refusal(&o, want);
    assert_string_equal(o.err.text, want);
}

static void test_a_large_loaded_file_that_ends_in_a_number_at_a_page_end_is_read_whole(void **state)
{
    char big[PATH_BYTES], input[PATH_BYTES], *text, *p;
    const char *args[] = {"run", "--only", "O", "--format", "json", input, NULL};
    static outcome o;
    big_file f;
    size_t i;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    f.bytes[f.len - 1] = '0'; /* no line end: the last number runs to the end of the map */
    put_file(big, "big.txt", f.bytes, f.len);
    free(f.bytes);
    /* X is one row of 8192 ones, so that each W is the large file, [8192, 4] */
    text = malloc(256 + 2 * BIG_ROWS);
    assert_non_null(text);
    p = text + sprintf(text, "X = [[");
    for (i = 0; i < BIG_ROWS; i++)
        p += sprintf(p, "1 ");
    p += sprintf(p, "]]\nWq = load(\"big.txt\")\nWk = load(\"big.txt\")\nWv = load(\"big.txt\")\n");
    put_file(input, "big-input.txt", text, (size_t)(p - text));
    free(text);
    run_bounded(&o, args, "/dev/null");
    assert_false(o.hung);
    assert_string_equal(o.err.text, "");
    assert_int_equal(o.status, 0);
    /* one token reads only itself: O = V = X @ Wv = 8192 x (1, 2, 3, 4) */
    if (strstr(o.out.text, "\"O\": [[8192,16384,24576,32768]]") == NULL) {
        print_error("O is not 8192 x (1, 2, 3, 4):\n%s\n", o.out.text);
        fail();
    }
}

static void test_a_large_loaded_file_ending_inside_a_number_is_refused_there(void **state)
{
    big_file f;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    f.bytes[f.len - 1] = 'e'; /* "4.000...e": an exponent with no digits, at the map's end */
    expect_big_refusal(&f, "attnstep: %s:8192:97: error: \"4.00000000000000000000000000000e\" "
                           "is not a number\n  hint: numbers look like 3, -0.5, .5, 1e-3, 1/2 "
                           "or \xe2\x88\x92" "1/4, with a comma or a space between two of them\n");
}

static void test_a_large_loaded_file_ending_inside_a_character_is_refused_there(void **state)
{
    big_file f;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    big_patch(&f, BIG_ROWS, BIG_ROW - 1, "\xe2\x88", 2); /* the first bytes of "−" */
    expect_big_refusal(&f, "attnstep: %s:8192:127: error: invalid UTF-8 (byte 0xe2)\n"
                           "  hint: save the file as UTF-8 text\n");
}

static void test_a_ragged_row_in_the_second_half_is_reported_at_its_line(void **state)
{
    big_file f;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    big_drop_last_number(&f, 6000);
    expect_big_refusal(&f, "attnstep: %s:6000:1: error: row 5999 of X has 3 numbers, but row 0 "
                           "has 4\n  hint: every row of a matrix has the same number of "
                           "columns\n");
}

static void test_a_nul_byte_in_the_second_half_is_reported_at_its_line(void **state)
{
    big_file f;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    big_patch(&f, 7000, 5, "", 1);
    expect_big_refusal(&f, "attnstep: %s:7000:5: error: the file holds a NUL byte\n  hint: an "
                           "input is plain UTF-8 text; is this a binary file?\n");
}

static void test_halves_of_different_widths_are_reported_where_the_width_changes(void **state)
{
    big_file f;
    size_t line;

    (void)state;
    big_make(&f, BIG_ROWS, BIG_ROW);
    for (line = 4098; line <= BIG_ROWS; line++) /* the whole second half, clean on its own */
        big_drop_last_number(&f, line);
    expect_big_refusal(&f, "attnstep: %s:4098:1: error: row 4097 of X has 3 numbers, but row 0 "
                           "has 4\n  hint: every row of a matrix has the same number of "
                           "columns\n");
}

static void test_halves_that_together_pass_the_row_limit_are_refused_at_its_row(void **state)
{
    big_file f;

    (void)state;
    big_make(&f, 16385, 64); /* each half within 16384 rows, the whole not */
    expect_big_refusal(&f, "attnstep: %s:16385:1: error: matrix X is too large: more than 16384 "
                           "rows\n  hint: one table holds at most 16384 rows, 16384 columns and "
                           "67108864 numbers\n");
}

/* ---- hostile cases that are no file of the corpus ---- */

static void test_standard_input_that_never_ends_is_refused_at_its_first_nul(void **state)
{
    static const char *const args[] = {"run", "-", NULL};
    static outcome o;

    (void)state;
    run_bounded(&o, args, "/dev/zero");
    expect_refusal(&o, "attnstep: -:1:1: error: the file holds a NUL byte\n");
}

static void test_a_fifo_named_by_load_is_refused_without_waiting_for_a_writer(void **state)
{
    static const char input_text[] = "X = load(\"fifo\")\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n";
    char fifo[PATH_BYTES], input[PATH_BYTES], want[256];
    const char *args[] = {input, NULL};
    static outcome o;

    (void)state;
    snprintf(fifo, sizeof fifo, "%s/fifo", scratch);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    put_file(input, "fifo-input.txt", input_text, sizeof input_text - 1);
    run_bounded(&o, args, "/dev/null");
    snprintf(want, sizeof want, "attnstep: %s:1:11: error: cannot load \"%s\": not a regular file\n",
             input, fifo);
    expect_refusal(&o, want);
}

/* A regular file over the 2 GiB limit is refused from its size, before a byte is read
 * (a sparse file: instant, and it takes no disk). */
static void test_a_file_over_two_gib_is_refused_before_it_is_read(void **state)
{
    char path[PATH_BYTES], want[256];
    const char *args[] = {path, NULL};
    static outcome o;
    int fd;

    (void)state;
    snprintf(path, sizeof path, "%s/sparse.txt", scratch);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)3 << 30), 0);
    close(fd);
    run_bounded(&o, args, "/dev/null");
    snprintf(want, sizeof want, "attnstep: %s: error: cannot read the file: it is larger than "
             "2 GiB, the most one input file may hold\n", path);
    expect_refusal(&o, want);
    assert_true(o.seconds * 1000 < deadline_ms()); /* reading 3 GiB would take longer */
    unlink(path);
}

static void test_a_refused_input_leaves_no_output_file(void **state)
{
    static const char out[] = "build/tests/bad-never-written.txt";
    static const char *const args[] = {"run", "-o", out, CORPUS "/qkt-overflows.txt", NULL};
    static outcome o;

    (void)state;
    unlink(out);
    run_bounded(&o, args, "/dev/null");
    expect_refusal(&o, "attnstep: " CORPUS "/qkt-overflows.txt: error: QKT[0][0] leaves the range");
    assert_int_equal(access(out, F_OK), -1);
}

/* Scores of +-1000 overflow a naive softmax (exp(1000) is inf); the stable one, which
 * subtracts the row max first, gives shares of exactly 1 and 0 (exp(-1000) underflows
 * to 0), as by hand. */
static void test_large_finite_scores_give_exact_shares_thanks_to_the_stable_softmax(void **state)
{
    static const char *const args[] = {"run", "--only", "S,A", "--format", "json", "-", NULL};
    static const char input_text[] = "mask: none\nscale: 1\nX = [[1, 0], [0, 1]]\n"
                                     "Wq = [[1000, 0], [0, -1000]]\nWk = [[1, 0], [0, 1]]\n"
                                     "Wv = [[1, 0], [0, 1]]\n";
    char input[PATH_BYTES];
    static outcome o;

    (void)state;
    put_file(input, "scores.txt", input_text, sizeof input_text - 1);
    run_bounded(&o, args, input);
    assert_false(o.hung);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.err.text, "");
    /* QKT = [[1000, 0], [0, -1000]] (scale 1, no mask); A by hand: [[1, 0], [1, 0]] */
    if (strstr(o.out.text, "\"S\": [[1000,0],[0,-1000]]") == NULL ||
        strstr(o.out.text, "\"A\": [[1,0],[1,0]]") == NULL) {
        print_error("S or A is not as computed by hand:\n%s\n", o.out.text);
        fail();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_case_has_an_expectation_in_each_language),
        cmocka_unit_test(test_the_corpus_holds_at_least_fifty_hostile_inputs),
        cmocka_unit_test(test_every_chinese_expectation_is_in_chinese),
        cmocka_unit_test(test_every_expectation_is_one_error_line_in_the_gnu_form_and_a_hint),
        cmocka_unit_test(test_every_hostile_input_exits_2_with_its_expected_message),
        cmocka_unit_test(test_no_hostile_input_writes_anything_to_standard_output),
        cmocka_unit_test(test_every_hostile_input_is_refused_within_a_second),
        cmocka_unit_test(test_the_lean_run_of_only_o_refuses_the_same_runs_the_same_way),
        cmocka_unit_test(test_a_large_loaded_file_that_ends_in_a_number_at_a_page_end_is_read_whole),
        cmocka_unit_test(test_a_large_loaded_file_ending_inside_a_number_is_refused_there),
        cmocka_unit_test(test_a_large_loaded_file_ending_inside_a_character_is_refused_there),
        cmocka_unit_test(test_a_ragged_row_in_the_second_half_is_reported_at_its_line),
        cmocka_unit_test(test_a_nul_byte_in_the_second_half_is_reported_at_its_line),
        cmocka_unit_test(test_halves_of_different_widths_are_reported_where_the_width_changes),
        cmocka_unit_test(test_halves_that_together_pass_the_row_limit_are_refused_at_its_row),
        cmocka_unit_test(test_standard_input_that_never_ends_is_refused_at_its_first_nul),
        cmocka_unit_test(test_a_fifo_named_by_load_is_refused_without_waiting_for_a_writer),
        cmocka_unit_test(test_a_file_over_two_gib_is_refused_before_it_is_read),
        cmocka_unit_test(test_a_refused_input_leaves_no_output_file),
        cmocka_unit_test(test_large_finite_scores_give_exact_shares_thanks_to_the_stable_softmax),
    };

    return cmocka_run_group_tests(tests, run_corpus, free_corpus);
}
