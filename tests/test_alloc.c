/* test_alloc.c - running out of memory, SQLite's way: fail the Nth allocation, for every
 * N from 1 until a run needs fewer than N, and check that each run either fails with
 * "out of memory" (a renderer: with its failure status) or succeeds with exactly the
 * output of a run that had all the memory it wanted; never a crash, and nothing leaks.
 *
 * The Makefile links this test with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
 * --wrap=strdup,--wrap=free: the library's calls come here, are counted, may be made to
 * fail, and every block handed out is remembered until it is freed, so a leak shows as a
 * block still live after the run. (Blocks that libc makes for itself, such as an
 * open_memstream buffer, never pass here and are not counted.) Each N is tried in two
 * modes: only the Nth allocation fails (the program may recover), and the Nth and every
 * later one fail (the error path itself has no memory). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attnstep/attention.h"
#include "attnstep/cli.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/render.h"
#include "attnstep/render_grad.h"

/* ---- the wrapped allocator ---- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void __wrap_free(void *p);

enum { ONE_SHOT, PERSISTENT };

static size_t calls;    /* allocations asked for since reset_counts() */
static size_t fail_at;  /* the allocation that fails (1-based); 0: none */
static int mode;        /* ONE_SHOT or PERSISTENT */
static int injected;    /* nonzero once a failure was injected */

/* The blocks handed out and not yet freed: an open-addressing set of pointers. */
#define LIVE_SLOTS (1u << 16)
static void *live[LIVE_SLOTS];
static size_t nlive;
static void *const tombstone = &nlive;

static size_t slot_of(const void *p)
{
    return (size_t)(((uintptr_t)p >> 4) * 2654435761u) & (LIVE_SLOTS - 1);
}

static void remember(void *p)
{
    size_t i = slot_of(p);

    if (p == NULL)
        return;
    while (live[i] != NULL && live[i] != tombstone)
        i = (i + 1) & (LIVE_SLOTS - 1);
    live[i] = p;
    nlive++;
}

/* Forgets p; a block that was never handed out here (libc's own) is ignored. */
static void forget(void *p)
{
    size_t i = slot_of(p), probes;

    for (probes = 0; p != NULL && live[i] != NULL && probes < LIVE_SLOTS; probes++) {
        if (live[i] == p) {
            live[i] = tombstone;
            nlive--;
            return;
        }
        i = (i + 1) & (LIVE_SLOTS - 1);
    }
}

/* Nonzero when this allocation is to fail. */
static int fails_now(void)
{
    calls++;
    if (fail_at == 0 || calls < fail_at || (mode == ONE_SHOT && calls > fail_at))
        return 0;
    injected = 1;
    errno = ENOMEM; /* as malloc does when it fails (POSIX): what a caller may report */
    return 1;
}

/* The library may allocate on two threads (load() of a large file): one lock keeps the
 * counts and the set whole. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *__wrap_malloc(size_t n)
{
    void *p;

    pthread_mutex_lock(&lock);
    p = fails_now() ? NULL : __real_malloc(n);
    remember(p);
    pthread_mutex_unlock(&lock);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p;

    pthread_mutex_lock(&lock);
    p = fails_now() ? NULL : __real_calloc(n, size);
    remember(p);
    pthread_mutex_unlock(&lock);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    void *q = NULL;

    pthread_mutex_lock(&lock);
    if (!fails_now()) { /* a failure leaves p as it was, as realloc does */
        q = __real_realloc(p, n);
        if (q != NULL) {
            forget(p);
            remember(q);
        }
    }
    pthread_mutex_unlock(&lock);
    return q;
}

char *__wrap_strdup(const char *s)
{
    char *d;

    pthread_mutex_lock(&lock);
    d = fails_now() ? NULL : __real_strdup(s);
    remember(d);
    pthread_mutex_unlock(&lock);
    return d;
}

void __wrap_free(void *p)
{
    pthread_mutex_lock(&lock);
    forget(p);
    pthread_mutex_unlock(&lock);
    __real_free(p);
}

static void reset_counts(size_t n, int how)
{
    calls = 0;
    fail_at = n;
    mode = how;
    injected = 0;
}

/* ---- one run: parse -> model -> run -> render text, json and trace ---- */

enum { R_TEXT, R_JSON, R_TRACE, NRENDER };

typedef int (*renderer)(FILE *, const as_problem *, const as_trace *, const as_render_opts *);
static const renderer renderers[NRENDER] = {as_render_text, as_render_json, as_render_trace};

/* What one run gave: the stage that failed (or -1), its error, and each rendering
 * (NULL when that renderer failed). */
typedef struct result {
    int failed_stage; /* 0 parse, 1 model, 2 run, 3 a renderer; -1 none */
    as_error err;
    char *out[NRENDER];
    size_t len[NRENDER];
} result;

/* Renders r into res->out[r] (in libc's memory: freed with __real_free). Returns the
 * renderer's status. */
static int render(result *res, int r, const as_problem *p, const as_trace *t)
{
    as_render_opts o;
    FILE *mem = open_memstream(&res->out[r], &res->len[r]);
    int rc;

    assert_non_null(mem);
    memset(&o, 0, sizeof o);
    o.lang = AS_LANG_ZH;
    o.digits = 10;
    o.row = -2; /* trace: every receiving row */
    rc = renderers[r](mem, p, t, &o);
    fclose(mem);
    if (rc != 0) {
        __real_free(res->out[r]);
        res->out[r] = NULL;
    }
    return rc;
}

static void run_once(result *res, const char *path)
{
    as_input in;
    as_problem p;
    as_trace t;
    int r;

    memset(res, 0, sizeof *res);
    res->failed_stage = -1;
    as_error_init(&res->err, AS_LANG_EN); /* the messages this test reads */
    if (as_parse_file(&in, path, &res->err) != 0) {
        res->failed_stage = 0;
        return;
    }
    if (as_problem_build(&p, &in, AS_MASK_DEFAULT, &res->err) != 0) {
        res->failed_stage = 1;
        as_input_free(&in);
        return;
    }
    if (as_attention_run(&t, &p, &res->err) != 0) {
        res->failed_stage = 2;
    } else {
        for (r = 0; r < NRENDER; r++)
            if (render(res, r, &p, &t) != 0)
                res->failed_stage = 3;
        as_trace_free(&t);
    }
    as_problem_free(&p);
    as_input_free(&in);
}

static void free_result(result *res)
{
    int r;

    for (r = 0; r < NRENDER; r++)
        __real_free(res->out[r]);
}

static size_t refusals; /* runs that ended in an error, counted by run_failing() */

/* Runs path failing allocation n (mode how) and checks the outcome against want, the
 * run with all memory. Returns nonzero when allocation n was reached at all. */
static int run_failing(const char *path, size_t n, int how, const result *want)
{
    static const char *const stage[] = {"parse", "model", "run", "render"};
    result got;
    size_t asked;
    int r;

    reset_counts(n, how);
    run_once(&got, path);
    asked = calls;
    reset_counts(0, ONE_SHOT);
    if (nlive != 0) {
        print_error("%s, allocation %zu failing (%s): %zu blocks leaked\n", path, n,
                    how == ONE_SHOT ? "once" : "from then on", nlive);
        fail();
    }
    if (got.failed_stage >= 0 && got.failed_stage < 3 &&
        strstr(got.err.msg, "out of memory") == NULL) {
        print_error("%s, allocation %zu failing: %s says \"%s\", not out of memory\n", path, n,
                    stage[got.failed_stage], got.err.msg);
        fail();
    }
    for (r = 0; got.failed_stage < 0 && r < NRENDER; r++)
        if (got.len[r] != want->len[r] || memcmp(got.out[r], want->out[r], got.len[r]) != 0) {
            print_error("%s, allocation %zu failing: no error, but renderer %d wrote other "
                        "output:\n%s\n", path, n, r, got.out[r]);
            fail();
        }
    refusals += got.failed_stage >= 0;
    free_result(&got);
    return asked >= n;
}

/* Every N, in both modes, until a run needs fewer than N allocations. */
static void every_allocation_may_fail(const char *path)
{
    result want;
    size_t n;

    reset_counts(0, ONE_SHOT);
    run_once(&want, path);
    assert_int_equal(want.failed_stage, -1);
    assert_int_equal(nlive, 0);
    refusals = 0;
    for (n = 1; run_failing(path, n, ONE_SHOT, &want); n++)
        run_failing(path, n, PERSISTENT, &want);
    print_message("%s: %zu allocations, each made to fail once and from then on; %zu of "
                  "those runs said out of memory\n", path, n - 1, refusals);
    assert_true(n > 10);     /* the run did allocate: the wrappers are in place */
    assert_true(refusals > 0); /* and failing them was noticed */
    free_result(&want);
}

/* ---- tests ---- */

static void test_the_wrappers_see_the_librarys_allocations_and_frees(void **state)
{
    result want;

    (void)state;
    reset_counts(0, ONE_SHOT);
    run_once(&want, "examples/f11.txt");
    assert_int_equal(want.failed_stage, -1);
    assert_true(calls > 10);
    assert_int_equal(nlive, 0);
    free_result(&want);
}

static void test_every_allocation_of_the_f11_run_may_fail_without_a_crash_or_a_leak(void **state)
{
    (void)state;
    every_allocation_may_fail("examples/f11.txt");
}

static void test_every_allocation_of_heads_cross_attention_and_load_may_fail_cleanly(void **state)
{
    static const char *const inputs[] = {
        "examples/two-heads.txt", "examples/cross-translation.txt",
        "tests/data/alloc/every-feature.txt", /* load(), torch layout, biases, Wo, M */
        "tests/data/alloc/binary.txt",        /* load() of .npy, .npz and .safetensors */
        "examples/generate.txt", /* ids, E, a tied head, top-p and a seeded draw */
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        every_allocation_may_fail(inputs[i]);
}

/* Parses path (only) failing allocation n (mode how): an input of 8192 rows, or "out of
 * memory"; nothing leaked. Returns nonzero when allocation n was reached at all. */
static int parse_failing(const char *path, size_t n, int how)
{
    as_input in;
    as_error err;
    int reached;

    reset_counts(n, how);
    as_error_init(&err, AS_LANG_EN);
    if (as_parse_file(&in, path, &err) == 0) {
        assert_int_equal(in.mat[AS_X].m.rows, 8192);
        as_input_free(&in);
    } else {
        assert_non_null(strstr(err.msg, "out of memory"));
        refusals++;
    }
    reached = injected;
    reset_counts(0, ONE_SHOT);
    assert_int_equal(nlive, 0);
    return reached;
}

/* A loaded file of 1 MiB or more is read in two halves on two threads (parse.c); an
 * allocation failing on either thread ends in "out of memory" too, with nothing leaked.
 * Only the parse runs here: the tables of 8192 rows would make each run slow. */
static void test_every_allocation_of_a_large_file_read_on_two_threads_may_fail_cleanly(void **state)
{
    static const char input[] = "X = load(\"big.txt\")\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n";
    char dir[] = "/tmp/attnstep-alloc-XXXXXX", big[64], main_path[64];
    size_t n, rows;
    FILE *f;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(big, sizeof big, "%s/big.txt", dir);
    snprintf(main_path, sizeof main_path, "%s/input.txt", dir);
    f = fopen(big, "w");
    assert_non_null(f);
    for (rows = 0; rows < 8192; rows++) /* 128 bytes a row: exactly 1 MiB */
        fprintf(f, "%-127.18e\n", (double)rows / 3);
    fclose(f);
    f = fopen(main_path, "w");
    assert_non_null(f);
    fputs(input, f);
    fclose(f);
    refusals = 0;
    for (n = 1; parse_failing(main_path, n, ONE_SHOT); n++)
        parse_failing(main_path, n, PERSISTENT);
    print_message("%s: %zu allocations, each made to fail once and from then on; %zu of "
                  "those runs said out of memory\n", big, n - 1, refusals);
    unlink(big);
    unlink(main_path);
    rmdir(dir);
    assert_true(refusals > 0);
}

static void test_an_input_error_after_a_failed_allocation_leaks_nothing(void **state)
{
    result got;
    size_t n;

    (void)state;
    /* a file the model refuses: every allocation before the refusal may fail too */
    for (n = 1;; n++) {
        int hit;
        reset_counts(n, PERSISTENT);
        run_once(&got, "tests/bad/bias-width-differs.txt");
        hit = injected;
        reset_counts(0, ONE_SHOT);
        assert_int_equal(nlive, 0);
        assert_true(got.failed_stage >= 0);
        free_result(&got);
        if (!hit)
            break;
    }
    assert_true(n > 2);
}

/* ---- grad: the backward pass and its three renderings (issue 17) ---- */

/* One grad of path: forward run, loss, backward run, text, JSON and the walk of every
 * row, all into one buffer (libc's memory). Returns 0; or -1 when a stage failed, with
 * its message in err. */
static int grad_once(const char *path, int rows, char **out, size_t *len, as_error *err)
{
    as_render_opts o = {0};
    as_input in;
    as_problem p;
    as_trace t;
    as_grad g = {0};
    FILE *mem = open_memstream(out, len);
    int rc = -1;

    assert_non_null(mem);
    o.lang = AS_LANG_ZH, o.digits = 10, o.row = -2;
    as_error_init(err, AS_LANG_EN);
    if (as_parse_file(&in, path, err) != 0)
        goto closed;
    if (as_problem_build(&p, &in, AS_MASK_DEFAULT, err) == 0) {
        if ((rows ? as_attention_run_rows : as_attention_run)(&t, &p, err) == 0) {
            if (as_grad_loss(&g, &p, &t, AS_LANG_EN, err) == 0 && as_grad_run(&g, &p, &t, err) == 0)
                rc = as_render_grad_text(mem, &p, &t, &g, &o) | as_render_grad_json(mem, &p, &t, &g, &o) |
                     (rows ? 0 : as_render_grad_walk(mem, &p, &t, &g, &o));
            as_grad_free(&g);
            as_trace_free(&t);
        }
        as_problem_free(&p);
    }
    as_input_free(&in);
closed:
    fclose(mem);
    return rc;
}

static void test_every_allocation_of_grad_may_fail_cleanly(void **state)
{
    static const char *const inputs[] = {"examples/grad-f11.txt", /* + heads, cross, biases: */
                                         "tests/data/grad/cross_two_heads_dO.txt"};
    size_t i, n, want_len, len, refused;
    char *want, *got;
    as_error err;

    (void)state;
    for (i = 0; i < 2 * sizeof inputs / sizeof inputs[0]; i++) {
        const int rows = (int)(i % 2); /* the full run, and the rows run `grad` makes */
        reset_counts(0, ONE_SHOT);
        assert_int_equal(grad_once(inputs[i / 2], rows, &want, &want_len, &err), 0);
        for (n = 1, refused = 0;; n++) {
            int how, hit = 0;
            for (how = ONE_SHOT; how <= PERSISTENT; how++) {
                int rc;
                reset_counts(n, how);
                rc = grad_once(inputs[i / 2], rows, &got, &len, &err);
                hit |= injected;
                reset_counts(0, ONE_SHOT);
                assert_int_equal(nlive, 0); /* nothing leaked */
                if (rc != 0 && err.set && strstr(err.msg, "out of memory") == NULL &&
                    strstr(err.msg, "内存不足") == NULL) {
                    print_error("%s, allocation %zu failing: \"%s\"\n", inputs[i / 2], n, err.msg);
                    fail();
                }
                /* a run that did not fail gives the same bytes (a renderer that lost
                 * memory says so with rc != 0 and no error) */
                if (rc == 0 && (len != want_len || memcmp(got, want, len) != 0)) {
                    print_error("%s, allocation %zu failing: other output:\n%.*s\n", inputs[i / 2], n,
                                (int)len, got);
                    fail();
                }
                refused += rc != 0;
                __real_free(got);
            }
            if (!hit)
                break;
        }
        print_message("%s%s: %zu allocations of grad, each made to fail; %zu runs refused\n",
                      inputs[i / 2], rows ? " (rows)" : "", n - 1, refused);
        assert_true(n > 10 && refused > 0);
        __real_free(want);
    }
}

/* ---- the commands, through the one command table (issue 20) ---- */

#define STDERR_FILE "build/tests/alloc.err"

/* What the commands read on standard input (practice: a student's answers), read again
 * from the start on each run; NULL: /dev/null. */
static const char *stdin_file;

/* Runs the command line words (without the program's name) as main.c does, into libc's
 * memory, its standard error into STDERR_FILE; returns the command's status, its error
 * in err. */
static int command_once(const char *const *words, char **out, size_t *len, as_error *err)
{
    char *argv[16];
    as_cli cli;
    FILE *mem = open_memstream(out, len);
    int argc = 1, rc, saved, fd;

    assert_non_null(mem);
    argv[0] = (char *)"attnstep";
    while (words[argc - 1] != NULL && argc < 15) {
        argv[argc] = (char *)words[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    as_error_clear(err);
    assert_int_equal(as_cli_parse(&cli, argc, argv, err), 0);
    fflush(stderr); /* what the command reports on its way (check: a student's file) */
    saved = dup(2);
    fd = open(STDERR_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    assert_non_null(freopen(stdin_file != NULL ? stdin_file : "/dev/null", "r", stdin));
    rc = as_command_find(cli.command)->fn(mem, &cli, err);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(mem);
    return rc;
}

/* Nonzero when the command said "out of memory": in err, or on standard error. */
static int said_out_of_memory(const as_error *err)
{
    FILE *f = fopen(STDERR_FILE, "r");
    char line[512];
    int said = err->set && strstr(err->msg, "out of memory") != NULL;

    while (f != NULL && !said && fgets(line, sizeof line, f) != NULL)
        said = strstr(line, "out of memory") != NULL;
    if (f != NULL)
        fclose(f);
    return said;
}

/* Every allocation of the command may fail, once or from then on: the command then ends
 * with "out of memory" (exit status 2; check may say it of one student's file on standard
 * error and go on), or with the status and the very output it gives with all the memory
 * it wants; nothing leaks either way. */
static void every_allocation_of_the_command_may_fail(const char *const *words)
{
    char *want, *got;
    size_t want_len, len, n, refused = 0;
    as_error err;
    int want_rc, how, hit;

    reset_counts(0, ONE_SHOT);
    want_rc = command_once(words, &want, &want_len, &err);
    assert_true(want_rc == AS_EXIT_OK || want_rc == AS_EXIT_WRONG);
    assert_int_equal(nlive, 0);
    for (n = 1, hit = 1; hit; n++)
        for (how = ONE_SHOT, hit = 0; how <= PERSISTENT; how++) {
            int rc;
            reset_counts(n, how);
            rc = command_once(words, &got, &len, &err);
            hit |= injected;
            reset_counts(0, ONE_SHOT);
            if (nlive != 0) {
                print_error("%s %s, allocation %zu failing (%s): %zu blocks leaked\n", words[0],
                            words[1], n, how == ONE_SHOT ? "once" : "from then on", nlive);
                fail();
            }
            if ((rc == AS_EXIT_USAGE || rc == AS_EXIT_PARTIAL) && said_out_of_memory(&err)) {
                refused++;
            } else if (rc != want_rc || len != want_len || memcmp(got, want, len) != 0) {
                print_error("%s %s, allocation %zu failing: status %d (%s), output:\n%.*s\n",
                            words[0], words[1], n, rc, err.msg, (int)len, got);
                fail();
            }
            __real_free(got);
        }
    print_message("%s %s: %zu allocations, each made to fail; %zu runs said out of memory\n",
                  words[0], words[1], n - 2, refused);
    assert_true(refused > 0);
    __real_free(want);
}

static void test_every_allocation_of_check_compare_sheet_decode_may_fail_cleanly(void **state)
{
    static const char *const check[] = {"check", "examples/f11.txt", "tests/data/check/f11-no-scale.txt",
                                        "--lang", "en", NULL};
    static const char *const compare[] = {"compare", "examples/f11.txt", "examples/f11-change-wq.txt",
                                          "--lang", "en", NULL};
    static const char *const sheet[] = {"sheet", "examples/f11.txt", "--answers", "--format",
                                        "latex", "--lang", "en", NULL};
    static const char *const decode[] = {"decode", "examples/gqa.txt", "--lang", "en", NULL};
    static const char *const generate[] = {"generate", "examples/generate.txt", "3", "--lang",
                                           "en", NULL}; /* the head, E and the cache (SPEC §19) */
    static const char *const trace[] = {"trace", "examples/head.txt", "--lang", "en", NULL};

    (void)state;
    every_allocation_of_the_command_may_fail(generate);
    every_allocation_of_the_command_may_fail(trace);
    every_allocation_of_the_command_may_fail(check);
    every_allocation_of_the_command_may_fail(compare);
    every_allocation_of_the_command_may_fail(sheet);
    every_allocation_of_the_command_may_fail(decode);
}

/* A block (SPEC §15) pre and post, GELU and SwiGLU (tests/data/block/cases: llama_00 is
 * pre RMS SwiGLU), the tiles of the online softmax (SPEC §11) in JSON and walked, the
 * listing of a weights file, the check of a chapter's numbers, three exercises at once and
 * a CSV table: their out-of-memory paths were never taken. */
static void test_every_allocation_of_blocks_tiles_weights_and_verify_may_fail_cleanly(void **state)
{
    static const char *const pre[] = {"run", "examples/block-pre-gelu.txt", "--lang", "en", NULL};
    static const char *const post[] = {"run", "examples/block-f11-post-rms.txt", "--format", "json",
                                       "--lang", "en", NULL};
    static const char *const llama[] = {"run", "tests/data/block/cases/llama_00.txt", "--lang", "en",
                                        NULL};
    static const char *const tiles[] = {"run", "--tiles", "2", "examples/tiles.txt", "--format",
                                        "json", "--lang", "en", NULL};
    static const char *const walk[] = {"trace", "--tiles", "2", "examples/tiles.txt", "--lang", "en",
                                       NULL};
    static const char *const weights[] = {"weights", "tests/data/npy/w.npz", "--lang", "en", NULL};
    static const char *const verify[] = {"verify", "tests/data/verify/F11-attention.zh.txt", "--lang",
                                         "en", NULL};
    static const char *const exercises[] = {"exercise", "--seed", "4", "--count", "3", "--lang", "en",
                                            NULL};
    static const char *const csv[] = {"run", "examples/two-heads.txt", "--format", "csv", "--only",
                                      "A", "--lang", "en", NULL};

    (void)state;
    every_allocation_of_the_command_may_fail(pre);
    every_allocation_of_the_command_may_fail(post);
    every_allocation_of_the_command_may_fail(llama);
    every_allocation_of_the_command_may_fail(tiles);
    every_allocation_of_the_command_may_fail(walk);
    every_allocation_of_the_command_may_fail(weights);
    every_allocation_of_the_command_may_fail(verify);
    every_allocation_of_the_command_may_fail(exercises);
    every_allocation_of_the_command_may_fail(csv);
}

/* The carry of a gated block's errata through verify's steps done again, a decode page,
 * the walk through LLaMA's block, a check report and a trace as pages, a block's
 * worksheet, the check of a block's answers (a residual from the normed table, RMSNorm
 * with the mean) and an exercise of a gated Post-LN block: their out-of-memory paths were
 * never taken (and verify and the decode page,
 * short of memory, gave wrong verdicts and tooltips cut short, with status 0). */
static void test_every_allocation_of_pages_walks_and_errata_may_fail_cleanly(void **state)
{
    static const char *const verify[] = {"verify", "tests/data/verify/F15-swiglu-errata.zh.txt",
                                         "--lang", "en", NULL};
    static const char *const decode[] = {"decode", "examples/f11.txt", "--format", "html",
                                         "--lang", "en", NULL};
    static const char *const walk[] = {"trace", "tests/data/block/cases/llama_00.txt", "--row", "1",
                                       "--lang", "en", NULL};

    static const char *const report[] = {"check", "examples/f11.txt",
                                         "tests/data/check/f11-no-scale.txt", "--format", "html",
                                         "--lang", "en", NULL};
    static const char *const page[] = {"trace", "examples/rope.txt", "--format", "html", "--lang",
                                       "en", NULL};
    static const char *const sheet[] = {"sheet", "tests/data/block/cases/llama_00.txt", "--lang",
                                        "en", NULL};
    static const char *const block_check[] = {"check", "tests/data/block/mistakes/block_a.txt",
                                              "tests/data/block/mistakes/a_residual_from_normed.txt",
                                              "--lang", "en", NULL};
    static const char *const rms_check[] = {"check", "tests/data/block/mistakes/block_b.txt",
                                            "tests/data/block/mistakes/b_rms_with_mean.txt",
                                            "--lang", "en", NULL};
    static const char *const block_exercise[] = {"exercise", "--block", "post", "--ffn", "swiglu",
                                                 "--seed", "12", "--lang", "en", NULL};

    (void)state;
    every_allocation_of_the_command_may_fail(verify);
    every_allocation_of_the_command_may_fail(decode);
    every_allocation_of_the_command_may_fail(walk);
    every_allocation_of_the_command_may_fail(report);
    every_allocation_of_the_command_may_fail(page);
    every_allocation_of_the_command_may_fail(sheet);
    every_allocation_of_the_command_may_fail(block_check);
    every_allocation_of_the_command_may_fail(rms_check);
    every_allocation_of_the_command_may_fail(block_exercise);
}

/* A class graded by its roster (one student's Q wrong), a class report as a page, the
 * online softmax's page, grad's page, Markdown, LaTeX and SVG, and the tutor answered
 * from a file (wrong, right, "?", a fraction, a blank line, not a number, "q") on F11,
 * RoPE and LLaMA's block: their out-of-memory paths were never taken. (And the tutor,
 * short of memory, printed "This cell is: ·Wq column 0" without the row it multiplies,
 * with status 1; check --class printed "attnstep: error: " and nothing more; the tiles'
 * page lost a block's scores, the shares' tooltip and its closing line, with status 0.) */
static void test_every_allocation_of_a_class_the_tutor_and_pages_may_fail_cleanly(void **state)
{
    static const char *const roster_class[] = {"exercise", "--class", "build/tests/alloc-roster.txt",
                                               "-o", "build/tests/alloc-class", "--seed", "5",
                                               "--lang", "en", NULL};
    static const char *const class_check[] = {"check", "--class", "build/tests/alloc-class",
                                              "build/tests/alloc-class/answers", "--lang", "en", NULL};
    static const char *const report[] = {"check", "examples/f11.txt", "tests/data/check/f11-no-scale.txt",
                                         "tests/data/check/f11-carried-error.txt", "--format",
                                         "html", "--lang", "en", NULL};
    static const char *const tiles[] = {"trace", "--tiles", "2", "examples/tiles.txt", "--format",
                                        "html", "--lang", "en", NULL};
    static const char *const grad[] = {"grad", "examples/grad-f11.txt", "--format", "html",
                                       "--lang", "en", NULL};
    static const char *const md[] = {"run", "examples/two-heads.txt", "--format", "md", "--lang",
                                     "en", NULL};
    static const char *const latex[] = {"run", "examples/rope.txt", "--format", "latex", "--lang",
                                        "en", NULL};
    static const char *const svg[] = {"run", "examples/two-heads.txt", "--format", "svg", "--lang",
                                      "en", NULL};
    static const char *const tutor[][5] = {
        {"practice", "examples/f11.txt", "--lang", "en", NULL},
        {"practice", "examples/rope.txt", "--lang", "en", NULL},
        {"practice", "tests/data/block/cases/llama_00.txt", "--lang", "en", NULL}};
    char *out;
    size_t len, k;
    as_error err;

    (void)state;
    assert_int_equal(system("printf '张三\\nMaría\\n' >build/tests/alloc-roster.txt && "
                            "rm -rf build/tests/alloc-class"), 0);
    assert_int_equal(command_once(roster_class, &out, &len, &err), 0);
    __real_free(out);
    /* each student's key as their answers, split at its header; 01's Q[0][0] made wrong */
    assert_int_equal(system("cd build/tests/alloc-class && mkdir answers && awk '/^# attnstep "
                            "exercise/ { n++ } { print > sprintf(\"answers/%02d.txt\", n) }' "
                            "teacher/key.txt && sed -i 's/^Q = \\[\\[-1/Q = [[-2/' answers/01.txt && "
                            "grep -q '^Q = \\[\\[-2' answers/01.txt"), 0);
    every_allocation_of_the_command_may_fail(class_check);
    every_allocation_of_the_command_may_fail(report);
    every_allocation_of_the_command_may_fail(tiles);
    every_allocation_of_the_command_may_fail(grad);
    every_allocation_of_the_command_may_fail(md);
    every_allocation_of_the_command_may_fail(latex);
    every_allocation_of_the_command_may_fail(svg);
    stdin_file = "tests/data/alloc/practice-answers.txt";
    for (k = 0; k < sizeof tutor / sizeof tutor[0]; k++)
        every_allocation_of_the_command_may_fail(tutor[k]);
    stdin_file = NULL;
    assert_int_equal(system("rm -rf build/tests/alloc-class build/tests/alloc-roster.txt"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_wrappers_see_the_librarys_allocations_and_frees),
        cmocka_unit_test(test_every_allocation_of_the_f11_run_may_fail_without_a_crash_or_a_leak),
        cmocka_unit_test(test_every_allocation_of_heads_cross_attention_and_load_may_fail_cleanly),
        cmocka_unit_test(test_every_allocation_of_a_large_file_read_on_two_threads_may_fail_cleanly),
        cmocka_unit_test(test_an_input_error_after_a_failed_allocation_leaks_nothing),
        cmocka_unit_test(test_every_allocation_of_grad_may_fail_cleanly),
        cmocka_unit_test(test_every_allocation_of_check_compare_sheet_decode_may_fail_cleanly),
        cmocka_unit_test(test_every_allocation_of_blocks_tiles_weights_and_verify_may_fail_cleanly),
        cmocka_unit_test(test_every_allocation_of_pages_walks_and_errata_may_fail_cleanly),
        cmocka_unit_test(test_every_allocation_of_a_class_the_tutor_and_pages_may_fail_cleanly),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
