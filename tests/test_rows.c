/* test_rows.c - the rows run (as_attention_run_rows, issue 20): `trace` keeps no n x m
 * table and makes each row of the scores again when the walk or a whole table reads it.
 * Its output must be the full run's, byte for byte, and its errors the full run's. The
 * reference here is the full trace (as_attention_run, which `run` uses and the goldens
 * check against the chapter and PyTorch): for every example, inputs generated with every
 * setting (heads, shared K/V heads, windows, custom masks with finite biases, the three
 * position encodings, biases, Wo) and cross-attention written here, both traces are
 * rendered by the same renderers -- the walk-through of every row, each --step, --ascii,
 * both languages, and run's text tables -- and compared byte for byte; every row of every
 * head is compared bit for bit; and every input of the hostile corpus (tests/bad/) must
 * be refused by both runs with the same message at the same place.
 *
 * Then memory: `trace --row all` at 4096 tokens of width 1 under an address-space limit
 * of 300 MB (the full trace needed 2.2 GB): it must finish, exit 0 and print every line
 * (counted, no clock involved); and `| head -1` must see the first line and end. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "attnstep/render.h"
#include "attnstep/session.h"
#include "gen_input.h"

#define TDIR "build/tests/rows"

/* Renders s with o (trace, or run's text when text is set) into a new string. */
static char *rendered(const as_session *s, const as_render_opts *o, int text, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);

    assert_non_null(f);
    assert_int_equal(text ? as_render_text(f, &s->p, &s->t, o) : as_render_trace(f, &s->p, &s->t, o),
                     0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void assert_same_render(const as_session *full, const as_session *rows,
                               const as_render_opts *o, int text, const char *name)
{
    size_t la, lb;
    char *a = rendered(full, o, text, &la), *b = rendered(rows, o, text, &lb);

    if (la != lb || memcmp(a, b, la) != 0) {
        size_t k = 0;
        while (k < la && k < lb && a[k] == b[k])
            k++;
        print_error("%s (%s, step %d, ascii %d, lang %d): the rows run differs at byte %zu of "
                    "%zu/%zu:\n  full: %.80s\n  rows: %.80s\n",
                    name, text ? "run" : "trace", o->step, o->ascii, (int)o->lang, k, la, lb,
                    a + k, b + k);
        fail();
    }
    free(a);
    free(b);
}

static void assert_same_bits(const double *a, const double *b, size_t count, const char *what,
                             size_t hd, size_t i)
{
    if (count > 0 && memcmp(a, b, count * sizeof *a) != 0) {
        print_error("%s of head %zu, row %zu: the rows run made other bits\n", what, hd, i);
        fail();
    }
}

/* Every row of every head, and every table both keep, bit for bit. */
static void assert_same_numbers(const as_session *full, const as_session *rows)
{
    const size_t m = full->p.m;
    as_row_trace a = {0}, b = {0};
    size_t hd, i;

    assert_true(rows->t.rows);
    assert_false(full->t.rows);
    for (hd = 0; hd < full->t.heads; hd++) {
        assert_same_bits(full->t.head[hd].O.v, rows->t.head[hd].O.v,
                         full->p.n * full->p.d_v, "O", hd, 0);
        for (i = 0; i < full->p.n; i++) {
            assert_int_equal(as_trace_row(&a, &full->t, &full->p, hd, i), 0);
            assert_int_equal(as_trace_row(&b, &rows->t, &rows->p, hd, i), 0);
            assert_same_bits(a.M, b.M, m, "M", hd, i);
            assert_same_bits(a.QKT, b.QKT, m, "QKT", hd, i);
            assert_same_bits(a.scaled, b.scaled, m, "scaled", hd, i);
            assert_true((a.B == NULL) == (b.B == NULL));
            if (a.B != NULL)
                assert_same_bits(a.B, b.B, m, "B", hd, i);
            assert_same_bits(a.S, b.S, m, "S", hd, i);
            assert_same_bits(&a.row_max, &b.row_max, 1, "row max", hd, i);
            assert_same_bits(&a.sum, &b.sum, 1, "sum", hd, i);
            assert_same_bits(a.shifted, b.shifted, m, "shifted", hd, i);
            assert_same_bits(a.exps, b.exps, m, "exps", hd, i);
            assert_same_bits(a.A, b.A, m, "A", hd, i);
        }
    }
    assert_same_bits(full->t.C.v, rows->t.C.v, full->t.C.rows * full->t.C.cols, "C", 0, 0);
    assert_same_bits(full->t.O.v, rows->t.O.v, full->t.O.rows * full->t.O.cols, "the output", 0, 0);
    as_row_trace_free(&a);
    as_row_trace_free(&b);
}

/* Both runs of text[0..len): the same rows, and the same text in every way it is shown. */
static void assert_rows_run_is_the_full_run(const char *text, size_t len, const char *name)
{
    static const as_session_opts rows_opts = {.rows = 1};
    as_session full, rows;
    as_error e1, e2;
    as_render_opts o;
    int step;

    as_error_init(&e1, AS_LANG_EN);
    as_error_init(&e2, AS_LANG_EN);
    if (as_session_open_text(&full, text, len, name, NULL, &e1) != 0) {
        print_error("%s: %s\n", name, e1.msg);
        fail();
    }
    assert_int_equal(as_session_open_text(&rows, text, len, name, &rows_opts, &e2), 0);
    assert_same_numbers(&full, &rows);
    memset(&o, 0, sizeof o);
    o.digits = 10;
    o.row = -2; /* every row */
    for (step = 0; step <= 4; step++) {
        o.step = step;
        o.lang = step % 2 ? AS_LANG_EN : AS_LANG_ZH;
        o.ascii = step == 3;
        assert_same_render(&full, &rows, &o, 0, name);
    }
    o.step = 0;
    o.digits = 4;
    assert_same_render(&full, &rows, &o, 1, name); /* run's text: QKT, M, S, A by rows */
    o.color = 1;
    assert_same_render(&full, &rows, &o, 1, name);
    as_session_free(&full);
    as_session_free(&rows);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    *len = (size_t)ftell(f);
    rewind(f);
    buf = malloc(*len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    buf[*len] = '\0';
    return buf;
}

static void test_every_example_walks_the_same_by_rows(void **state)
{
    static const char *const ex[] = {
        "examples/f11.txt",      "examples/alibi.txt",       "examples/cross-translation.txt",
        "examples/gqa.txt",      "examples/padding-mask.txt", "examples/rope.txt",
        "examples/sinusoidal.txt", "examples/two-heads.txt", "examples/window.txt",
        "examples/tiles.txt",    "examples/f11-change-wq.txt",
    };
    size_t i, len;

    (void)state;
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char *text = slurp(ex[i], &len);
        assert_rows_run_is_the_full_run(text, len, ex[i]);
        free(text);
    }
}

static void test_generated_inputs_walk_the_same_by_rows(void **state)
{
    gen g = {0};
    uint64_t which;

    (void)state;
    for (which = 0; which < (under_valgrind() ? 12u : 80u); which++) {
        char name[32];
        generate(&g, which, 1 + (size_t)(which % 13));
        snprintf(name, sizeof name, "generated-%u", (unsigned)which);
        assert_rows_run_is_the_full_run(g.buf, g.len, name);
    }
    free(g.buf);
}

/* Cross-attention (n != m), with and without a custom mask and positions. */
static void test_cross_attention_walks_the_same_by_rows(void **state)
{
    static const char *const text[] = {
        ("X = [[1, 0], [0, 1], [1, 1]]\nXkv = [[1, 2], [3, -1], [0.5, 0.25], [2, 2], [-1, 1]]\n"
         "Wq = [[1, 0.5], [0, 1]]\nWk = [[0.5, 1], [1, 0]]\nWv = [[1, 2, 3], [4, 5, 6]]\n"),
        ("heads: 2\nX = [[1, 0], [0, 1]]\nXkv = [[1, 2], [3, -1], [0.5, 0.25]]\n"
         "Wq = [[1, 0.5], [0, 1]]\nWk = [[0.5, 1], [1, 0]]\nWv = [[1, 2], [4, 5]]\n"
         "M = [[0, -inf, -1], [-inf, 0.5, 0]]\n"),
        ("positions: alibi\nheads: 2\nX = [[1, 0], [0, 1]]\nXkv = [[1, 2], [3, -1], [0.5, 0.25]]\n"
         "Wq = [[1, 0.5], [0, 1]]\nWk = [[0.5, 1], [1, 0]]\nWv = [[1, 2], [4, 5]]\n"),
        ("positions: sinusoidal\nX = [[1, 0], [0, 1]]\nXkv = [[1, 2], [3, -1], [0.5, 0.25]]\n"
         "Wq = [[1, 0.5], [0, 1]]\nWk = [[0.5, 1], [1, 0]]\nWv = [[1, 2], [4, 5]]\n"),
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof text / sizeof text[0]; i++)
        assert_rows_run_is_the_full_run(text[i], strlen(text[i]), "cross");
}

/* Both runs of text refuse it alike (or both accept it). */
static void assert_same_refusal(const char *text, size_t len, const char *name)
{
    static const as_session_opts rows_opts = {.rows = 1};
    as_session full, rows;
    as_error e1, e2;
    int r1, r2;

    as_error_init(&e1, AS_LANG_EN);
    as_error_init(&e2, AS_LANG_EN);
    r1 = as_session_open_text(&full, text, len, name, NULL, &e1);
    r2 = as_session_open_text(&rows, text, len, name, &rows_opts, &e2);
    if (r1 != r2 || strcmp(e1.msg, e2.msg) != 0 || strcmp(e1.hint, e2.hint) != 0 ||
        e1.line != e2.line || e1.col != e2.col) {
        print_error("%s: full run %d \"%s\" at %d:%d; rows run %d \"%s\" at %d:%d\n", name, r1,
                    e1.msg, e1.line, e1.col, r2, e2.msg, e2.line, e2.col);
        fail();
    }
    if (r1 == 0) {
        as_session_free(&full);
        as_session_free(&rows);
    }
}

/* The runs check the same cells in the same order: the first table that fails is named,
 * even when a later table fails in an earlier row (QKᵀ overflows in row 1 only; scaled
 * by 10, S would already overflow in row 0). */
static void test_the_rows_run_names_the_first_table_that_fails(void **state)
{
    static const char *const text[] = {
        "mask: none\nscale: 10\nX = [[1e154], [1e155]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n",
        "mask: none\nscale: 10\nX = [[1e154], [1e10]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n",
        "mask: none\nX = [[1e150], [1]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1e300]]\n",
        "X = [[1], [2]]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\nM = [[0, 0], [-inf, -inf]]\n",
        ("positions: alibi\nheads: 2\nX = [[1e307, 1], [1, 1]]\nWq = [[1, 1], [0, 0]]\n"
         "Wk = [[1, 1], [0, 0]]\nWv = [[1, 1], [1, 1]]\n"),
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof text / sizeof text[0]; i++) {
        as_session s;
        as_error e;
        as_error_init(&e, AS_LANG_EN);
        assert_int_equal(as_session_open_text(&s, text[i], strlen(text[i]), "f", NULL, &e), -1);
        assert_same_refusal(text[i], strlen(text[i]), "f");
    }
}

/* Both runs of text make the same numbers (their text is compared on smaller inputs). */
static void assert_same_rows(const char *text, size_t len)
{
    static const as_session_opts rows_opts = {.rows = 1};
    as_session full, rows;
    as_error e;

    as_error_init(&e, AS_LANG_EN);
    assert_int_equal(as_session_open_text(&full, text, len, "f", NULL, &e), 0);
    assert_int_equal(as_session_open_text(&rows, text, len, "f", &rows_opts, &e), 0);
    assert_same_numbers(&full, &rows);
    as_session_free(&full);
    as_session_free(&rows);
}

/* The full run refuses text with a message that holds says. */
static void assert_refused_at(const char *text, size_t len, const char *says)
{
    as_session s;
    as_error e;

    as_error_init(&e, AS_LANG_EN);
    assert_int_equal(as_session_open_text(&s, text, len, "f", NULL, &e), -1);
    if (strstr(e.msg, says) == NULL) {
        print_error("\"%s\" lacks \"%s\"\n", e.msg, says);
        fail();
    }
}

/* 400 tokens of width 1 with d_k = d_v = 32 (weights of ones, Wk times kscale): enough
 * work that the rows run splits each head's rows over two threads. big[] rows of X are
 * 1e300 (0 ends the list). */
static void wide_heads(gen *g, double kscale, const int *big)
{
    size_t i, k;

    g->len = 0;
    put(g, "X = [");
    for (i = 0; i < 400; i++) {
        int b = 0;
        for (k = 0; big[k] != 0; k++)
            b |= big[k] == (int)i;
        if (b)
            put(g, "%s[1e300]", i ? "," : "");
        else
            put(g, "%s[%d]", i ? "," : "", (int)(i % 7) - 3);
    }
    put(g, "]\n");
    put(g, "Wq = [[");
    for (i = 0; i < 32; i++)
        put(g, "%s%.17g", i ? ", " : "", 1.0 + (double)i / 64);
    put(g, "]]\nWk = [[");
    for (i = 0; i < 32; i++)
        put(g, "%s%.17g", i ? ", " : "", kscale * (1.0 - (double)i / 64));
    put(g, "]]\nWv = [[");
    for (i = 0; i < 32; i++)
        put(g, "%s%d", i ? ", " : "", (int)i - 16);
    put(g, "]]\n");
}

/* The rows on two threads: the same numbers, and the error of the first row that fails
 * whichever half it is in (QKᵀ overflows only where a row of 1e300 meets its own key
 * of 1e305). */
static void test_the_rows_of_two_threads_are_the_rows_of_one(void **state)
{
    static const int none[] = {0}, late[] = {300, 0}, both[] = {100, 300, 0};
    gen g = {0};

    (void)state;
    wide_heads(&g, 0.5, none);
    assert_same_rows(g.buf, g.len);
    wide_heads(&g, 1e5, late);
    assert_refused_at(g.buf, g.len, "QKT[300][300]");
    assert_same_refusal(g.buf, g.len, "late");
    wide_heads(&g, 1e5, both);
    assert_refused_at(g.buf, g.len, "QKT[100][100]");
    assert_same_refusal(g.buf, g.len, "both");
    free(g.buf);
}

/* Every file of the hostile corpus: refused by both alike. (too-many-heads-of-scores is
 * the one the rows run accepts: it keeps no scores, so it has no limit on them.) */
static void test_the_hostile_corpus_is_refused_alike(void **state)
{
    DIR *d = opendir("tests/bad");
    struct dirent *e;
    char path[512];
    size_t len, count = 0;

    (void)state;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        const size_t n = strlen(e->d_name);
        char *text;
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0 ||
            strcmp(e->d_name, "too-many-heads-of-scores.txt") == 0)
            continue;
        snprintf(path, sizeof path, "tests/bad/%s", e->d_name);
        text = slurp(path, &len);
        assert_same_refusal(text, len, path);
        free(text);
        count++;
    }
    closedir(d);
    assert_true(count > 100);
}

/* ---- memory ---- */

/* The number in path (what wc -l wrote there). */
static long number_in(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = -1;

    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld", &n), 1);
    fclose(f);
    return n;
}

/* Nonzero in the `make sanitize` build (the binary under test is built alike). */
static int sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#else
    return 0;
#endif
#else
    return 0;
#endif
}

/* Runs `attnstep ARGS` on a column of n tokens under an address-space limit of limit_kb
 * (0: none), its standard output piped into tail; returns the exit status of attnstep
 * (written to a file from inside the pipe: sh has no pipefail). */
static int command_column(const char *command, int n, const char *args, long limit_kb,
                          const char *tail);

static int trace_column(int n, const char *args, long limit_kb, const char *tail)
{
    return command_column("trace", n, args, limit_kb, tail);
}

/* The same for any command: `attnstep COMMAND ARGS COLUMN | TAIL`. */
static int command_column(const char *command, int n, const char *args, long limit_kb,
                          const char *tail)
{
    const char *bin = getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep";
    char cmd[1024], path[64];

    snprintf(path, sizeof path, TDIR "-%d.txt", n);
    (strcmp(command, "grad") == 0 ? long_column_grad : long_column)(path, n);
    snprintf(cmd, sizeof cmd,
             "(%s%.0ld%s %s %s %s %s 2>" TDIR ".err; echo $? > " TDIR ".rc) | %s",
             limit_kb ? "ulimit -v " : "", limit_kb, limit_kb ? ";" : "", bin, command, args,
             path, tail);
    assert_int_equal(system(cmd), 0);
    unlink(path);
    return (int)number_in(TDIR ".rc");
}

/* 4096 tokens of width 1: the full trace kept six [4096,4096] tables (and M), 2.2 GB for
 * `--row all`; the rows trace keeps rows. Under 300 MB of address space, the walk of
 * step 1 (Q, K and QKᵀ whole, then row 0 reading its 4096 positions) must finish: its
 * lines grow as 4 n + c (c counted at 100 tokens), so every row of every table is
 * there. And `--row all | head -1` prints the first line at once (the whole walk takes
 * minutes and 2.3 GB of text): under the same limit, it ends. No clock involved. */
static void test_a_trace_of_4096_tokens_fits_in_300_mb(void **state)
{
    long c;

    (void)state;
    if (sanitized() || (getenv("ATTNSTEP_WRAP") != NULL && getenv("ATTNSTEP_WRAP")[0] != '\0'))
        skip(); /* AddressSanitizer and valgrind need address space (and time) of their own */
    assert_int_equal(trace_column(100, "--row 0 --step 1 --digits 0", 0, "wc -l > " TDIR ".n"), 0);
    c = number_in(TDIR ".n") - 4 * 100;
    assert_in_range(c, 1, 40);
    assert_int_equal(trace_column(4096, "--row 0 --step 1 --digits 0", 300000, "wc -l > " TDIR ".n"),
                     0);
    assert_int_equal(number_in(TDIR ".n"), 4 * 4096 + c);
    trace_column(4096, "--row all", 300000, "head -1 > " TDIR ".n");
    {
        FILE *f = fopen(TDIR ".n", "r");
        char line[64] = "";
        assert_non_null(f);
        assert_non_null(fgets(line, sizeof line, f));
        fclose(f);
        assert_true(strncmp(line, "X = [[-3], ", 11) == 0);
        assert_non_null(strstr(line, "第0行对应“0”"));
    }
    unlink(TDIR ".n");
    unlink(TDIR ".rc");
    unlink(TDIR ".err");
}

/* run as text writes every table from its rows, as trace does (SPEC §10): the full
 * trace kept QKᵀ, M, S and A of [4096,4096], 537 MB. Under 300 MB of address space,
 * `run --only S` of 4096 tokens must finish and print every row: its lines are
 * n + c, c counted at 100 tokens. No clock involved. */
static void test_a_run_of_4096_tokens_as_text_fits_in_300_mb(void **state)
{
    long c;

    (void)state;
    if (sanitized() || (getenv("ATTNSTEP_WRAP") != NULL && getenv("ATTNSTEP_WRAP")[0] != '\0'))
        skip(); /* AddressSanitizer and valgrind need address space (and time) of their own */
    assert_int_equal(command_column("run", 100, "--only S --digits 0", 0, "wc -l > " TDIR ".n"), 0);
    c = number_in(TDIR ".n") - 100;
    assert_in_range(c, 0, 10);
    assert_int_equal(command_column("run", 4096, "--only S --digits 0", 300000,
                                    "wc -l > " TDIR ".n"), 0);
    assert_int_equal(number_in(TDIR ".n"), 4096 + c);
    unlink(TDIR ".n");
    unlink(TDIR ".rc");
    unlink(TDIR ".err");
}

/* Runs `attnstep COMMAND ARGS` on a column of 100 tokens (no limit), then of 4096 under
 * 300 MB of address space, each piped into tail (which writes a count to TDIR.n): the
 * 4096-token run must exit 0 and its count must be per_token x 4096 + c, c counted at
 * 100 tokens -- every row of every table printed, no clock involved. */
static void assert_4096_tokens_fit_in_300_mb(const char *command, const char *args,
                                             const char *tail, long per_token)
{
    long c;

    assert_int_equal(command_column(command, 100, args, 0, tail), 0);
    c = number_in(TDIR ".n") - per_token * 100;
    assert_in_range(c, 0, 100);
    assert_int_equal(command_column(command, 4096, args, 300000, tail), 0);
    assert_int_equal(number_in(TDIR ".n"), per_token * 4096 + c);
    unlink(TDIR ".n");
    unlink(TDIR ".rc");
    unlink(TDIR ".err");
}

/* Every format is written from rows (SPEC §10): JSON, csv, md, latex, svg and the heat map
 * read each head's tables through as_head_rows, so a run in any format keeps no n x m
 * table. Before, every format but text kept the full trace: at 4096 tokens about 800 MB,
 * out of memory under 300 MB. JSON's A has one '[' a row (and c more around it); csv's
 * S one line a row. */
static void test_a_run_of_4096_tokens_in_json_or_csv_fits_in_300_mb(void **state)
{
    (void)state;
    if (sanitized() || under_valgrind())
        skip(); /* AddressSanitizer and valgrind need address space (and time) of their own */
    assert_4096_tokens_fit_in_300_mb("run", "--format json --only A --digits 0",
                                     "tr -cd '[' | wc -c > " TDIR ".n", 1);
    assert_4096_tokens_fit_in_300_mb("run", "--format csv --only S", "wc -l > " TDIR ".n", 1);
}

/* --tiles on a rows run (SPEC §10, §11): the tiles read each row's scores again and keep
 * only n-long tables (m, ℓ, O), and the walk is made and written a row at a time.
 * Before, both read a full run (about 800 MB at 4096 tokens) and the walk of every row
 * was kept whole. `run --tiles 1 --only O` prints O, then m, ℓ and O of the tiles: 4
 * lines a token; `trace --tiles 1 --row 0 --step 1` Q, K and QKᵀ whole, then row 0's
 * 4096 positions: 4 lines a token. */
static void test_tiles_of_4096_tokens_fit_in_300_mb(void **state)
{
    (void)state;
    if (sanitized() || under_valgrind())
        skip();
    assert_4096_tokens_fit_in_300_mb("run", "--tiles 1 --only O", "wc -l > " TDIR ".n", 4);
    assert_4096_tokens_fit_in_300_mb("trace", "--tiles 1 --row 0 --step 1 --digits 0",
                                     "wc -l > " TDIR ".n", 4);
}

/* decode keeps each head's output rows and makes each step's scores and shares again when
 * they are shown (as_decode_scores), and writes each step as it is made (SPEC §10).
 * Before, it kept the mask and every step's S and A, [n,n] each, and the whole text:
 * 1.26 GB at 4096 tokens. Its walk prints 13 lines a step, its JSON one line a step. */
static void test_a_decode_of_4096_tokens_fits_in_300_mb(void **state)
{
    (void)state;
    if (sanitized() || under_valgrind())
        skip();
    assert_4096_tokens_fit_in_300_mb("decode", "--digits 0", "wc -l > " TDIR ".n", 13);
    assert_4096_tokens_fit_in_300_mb("decode", "--format json", "wc -l > " TDIR ".n", 1);
}

/* grad runs forwards on a rows trace and backwards a block of rows at a time, making
 * the rows of A again, and writes dA, dS and d(QKᵀ) a row at a time, each made again
 * (grad.h): it keeps no n x m table. Before, it kept the full forward trace and dA, dS,
 * d(QKᵀ), and the whole text: 1.4 GB at 4096 tokens (5.8 GB at 8192 for --only dX).
 * `grad --only dX` prints dX, `--only dS` dS, one line a token; the JSON of dX and dWq
 * has one '[' a row of dX (and c more). */
static void test_a_grad_of_4096_tokens_fits_in_300_mb(void **state)
{
    (void)state;
    if (sanitized() || under_valgrind())
        skip();
    assert_4096_tokens_fit_in_300_mb("grad", "--only dX --digits 0", "wc -l > " TDIR ".n", 1);
    assert_4096_tokens_fit_in_300_mb("grad", "--format json --only dX,dWq",
                                     "tr -cd '[' | wc -c > " TDIR ".n", 1);
    assert_4096_tokens_fit_in_300_mb("grad", "--only dS --digits 0", "wc -l > " TDIR ".n", 1);
}

/* The limit on all heads' scores is checked before anything is made, where the scores
 * are kept (JSON, and every format but text: text is written from rows and keeps none,
 * as trace does, so it has no such limit): 8 heads of [4096,4096] are refused with their
 * own message, in both languages, under 100 MB of address space (the mask alone,
 * [4096,4096], is 134 MB: made first, it turned this refusal into "out of memory"
 * here). The messages were checked by hand once (they were the corpus's sidecars). */
static void test_too_many_heads_of_scores_are_refused_before_anything_is_made(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep";
    char cmd[512], err[1024] = "";
    FILE *f;

    (void)state;
    if (sanitized() || (getenv("ATTNSTEP_WRAP") != NULL && getenv("ATTNSTEP_WRAP")[0] != '\0'))
        skip();
    static const char *const want[2][2] = {
        {"en", "attnstep: tests/bad/too-many-heads-of-scores.txt:1:1: error: 8 heads of "
               "[4096,4096] scores would hold more than the 67108864 numbers that all heads "
               "together may keep\n"},
        {"zh", "attnstep: tests/bad/too-many-heads-of-scores.txt:1:1: 错误：8个头、每个头"
               "[4096,4096]的分数，合起来超过了所有头一共能保存的67108864个数\n"}};
    size_t k;

    for (k = 0; k < 2; k++) {
        memset(err, 0, sizeof err);
        snprintf(cmd, sizeof cmd,
                 "ulimit -v 100000; %s --lang %s --format json "
                 "tests/bad/too-many-heads-of-scores.txt >" TDIR ".out 2>" TDIR ".err",
                 bin, want[k][0]);
        assert_int_equal(WEXITSTATUS(system(cmd)), 2);
        f = fopen(TDIR ".err", "r");
        assert_non_null(f);
        assert_true(fread(err, 1, sizeof err - 1, f) > 0);
        fclose(f);
        assert_true(strncmp(err, want[k][1], strlen(want[k][1])) == 0);
    }
    unlink(TDIR ".out");
    unlink(TDIR ".err");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_example_walks_the_same_by_rows),
        cmocka_unit_test(test_generated_inputs_walk_the_same_by_rows),
        cmocka_unit_test(test_cross_attention_walks_the_same_by_rows),
        cmocka_unit_test(test_the_rows_run_names_the_first_table_that_fails),
        cmocka_unit_test(test_the_rows_of_two_threads_are_the_rows_of_one),
        cmocka_unit_test(test_the_hostile_corpus_is_refused_alike),
        cmocka_unit_test(test_a_trace_of_4096_tokens_fits_in_300_mb),
        cmocka_unit_test(test_a_run_of_4096_tokens_as_text_fits_in_300_mb),
        cmocka_unit_test(test_a_run_of_4096_tokens_in_json_or_csv_fits_in_300_mb),
        cmocka_unit_test(test_tiles_of_4096_tokens_fit_in_300_mb),
        cmocka_unit_test(test_a_decode_of_4096_tokens_fits_in_300_mb),
        cmocka_unit_test(test_a_grad_of_4096_tokens_fits_in_300_mb),
        cmocka_unit_test(test_too_many_heads_of_scores_are_refused_before_anything_is_made),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
