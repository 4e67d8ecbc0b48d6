/* test_load.c - load("file") of a large numpy.savetxt file, which load.c reads the quick
 * way in chunks, in two parts on two threads above 1 MiB (as_reader_quick_rows, checked
 * here against the full grammar on every form it reads):
 * the same values, and the same errors at the same line and column, as a file read in
 * one piece; and the short path that such numbers take through as_parse_number.
 *
 * Every file here is written by the test itself: the values are doubles drawn from the
 * project's PRNG and written as numpy.savetxt writes them ("%.18e", which strtod reads
 * back to the same double), so the expected matrix is the one drawn; every error is put
 * at a line and column the test chose, and the expected message is the one SPEC §2 gives
 * (the same texts test_parse.c checks on small files). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attnstep/lex.h"
#include "attnstep/parse.h"
#include "attnstep/prng.h"
#include "attnstep/reader.h"

#define COLS 100 /* a row of 100 numbers is 2500 bytes: 420 rows pass the 1 MiB mark */

/* ------------------------------------------------------------------ the files ---- */

/* A text being written, and the values its rows hold. */
typedef struct text {
    char *s;
    size_t len, cap;
    double *v;   /* the values written, row-major */
    size_t rows; /* rows written */
} text;

static void put(text *t, const char *s)
{
    const size_t n = strlen(s);

    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

/* Appends rows rows of cols drawn values written with digits digits after the point
 * ("%.*e"), with line end eol; the values kept are what strtod reads from the text (with
 * 18 digits, as numpy.savetxt writes, the values drawn). */
static void put_rows_digits(text *t, as_prng *g, size_t rows, size_t cols, const char *eol,
                            int digits)
{
    size_t i, j;
    char num[40];

    t->v = realloc(t->v, (t->rows + rows) * cols * sizeof *t->v);
    assert_non_null(t->v);
    for (i = 0; i < rows; i++, t->rows++) {
        for (j = 0; j < cols; j++) {
            snprintf(num, sizeof num, "%s%.*e", j ? " " : "", digits,
                     (double)(int64_t)as_prng_next(g) * 0x1p-66);
            t->v[t->rows * cols + j] = strtod(num, NULL);
            put(t, num);
        }
        put(t, eol);
    }
}

/* Appends rows rows of cols drawn values as numpy.savetxt writes them, with line end eol. */
static void put_rows(text *t, as_prng *g, size_t rows, size_t cols, const char *eol)
{
    put_rows_digits(t, g, rows, cols, eol, 18);
}

static void text_free(text *t)
{
    free(t->s);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* The 1-based line of byte at of t, counting "\n" (every file here ends lines in "\n"
 * or "\r\n"). */
static int line_of(const text *t, size_t at)
{
    int line = 1;
    size_t i;

    for (i = 0; i < at; i++)
        line += t->s[i] == '\n';
    return line;
}

/* The first line start past the middle of t: where the second half begins. */
static size_t middle_line(const text *t)
{
    const char *nl = strchr(t->s + t->len / 2, '\n');

    assert_non_null(nl);
    return (size_t)(nl + 1 - t->s);
}

/* A folder with layer.txt, which loads w.txt into Wq, and w.txt holding t. */
typedef struct folder {
    char dir[64], layer[96], w[96];
} folder;

static void write_file(const char *path, const char *s, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void folder_make(folder *d, const text *t)
{
    static const char layer[] = "Wq = load(\"w.txt\")\n";

    strcpy(d->dir, "/tmp/attnstep-test-load-XXXXXX");
    assert_non_null(mkdtemp(d->dir));
    snprintf(d->layer, sizeof d->layer, "%s/layer.txt", d->dir);
    snprintf(d->w, sizeof d->w, "%s/w.txt", d->dir);
    write_file(d->layer, layer, sizeof layer - 1);
    write_file(d->w, t->s, t->len);
}

static void folder_remove(const folder *d)
{
    unlink(d->layer);
    unlink(d->w);
    rmdir(d->dir);
}

/* ------------------------------------------------------------------ checks ---- */

/* t loads as Wq, a t->rows x cols matrix of exactly the values written. */
static void expect_values(const text *t, size_t cols)
{
    folder d;
    as_input in;
    as_error err;
    size_t i;

    assert_true(t->len > ((size_t)1 << 20)); /* large enough for two halves */
    folder_make(&d, t);
    as_error_init(&err, AS_LANG_EN);
    if (as_parse_file(&in, d.layer, &err) != 0)
        fail_msg("unexpected error %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    folder_remove(&d);
    assert_int_equal(in.mat[AS_WQ].m.rows, t->rows);
    assert_int_equal(in.mat[AS_WQ].m.cols, cols);
    for (i = 0; i < t->rows * cols; i++)
        if (in.mat[AS_WQ].m.v[i] != t->v[i])
            fail_msg("value %zu is %.17g, written %.17g", i, in.mat[AS_WQ].m.v[i], t->v[i]);
    as_input_free(&in);
}

/* Loading t fails with exactly msg at line:col of w.txt. */
static void expect_error(const text *t, int line, int col, const char *msg)
{
    folder d;
    as_input in;
    as_error err;

    folder_make(&d, t);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_parse_file(&in, d.layer, &err), -1);
    folder_remove(&d);
    assert_string_equal(err.file, d.w);
    assert_string_equal(err.msg, msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
}

/* The byte where line (1-based) of t starts. */
static size_t line_start(const text *t, int line)
{
    size_t at = 0;

    while (--line > 0)
        at = (size_t)(strchr(t->s + at, '\n') + 1 - t->s);
    return at;
}

/* Writes s over number j (0-based) of line, blanks over the rest of it (the numbers
 * after it keep their places); returns its column. */
static int replace_number(text *t, int line, int j, const char *s)
{
    const size_t start = line_start(t, line);
    size_t at = start, n;

    while (j-- > 0)
        at = (size_t)(strchr(t->s + at, ' ') + 1 - t->s);
    n = strcspn(t->s + at, " \r\n");
    assert_true(strlen(s) <= n);
    memset(t->s + at, ' ', n);
    memcpy(t->s + at, s, strlen(s));
    return (int)(at - start) + 1;
}

/* Puts s before byte at of t. */
static void insert_at(text *t, size_t at, const char *s)
{
    char *tail = malloc(t->len - at + 1);

    assert_non_null(tail);
    memcpy(tail, t->s + at, t->len - at + 1);
    t->len = at;
    put(t, s);
    put(t, tail);
    free(tail);
}

/* ------------------------------------------------------------------ values ---- */

static void test_a_large_file_gives_every_value_written(void **state)
{
    as_prng g;
    text t = {0};

    (void)state;
    as_prng_seed(&g, 1);
    put(&t, "# numpy.savetxt header\n");
    put_rows(&t, &g, 600, COLS, "\n");
    expect_values(&t, COLS);
    text_free(&t);
}

/* CRLF line ends, and comments and blank lines on both sides of the middle. */
static void test_crlf_comments_and_blank_lines_around_the_middle_change_nothing(void **state)
{
    as_prng g;
    text t = {0};
    int i;

    (void)state;
    as_prng_seed(&g, 2);
    for (i = 0; i < 600; i++) {
        put_rows(&t, &g, 1, COLS, "\r\n");
        if (i >= 290 && i < 310)
            put(&t, i % 2 ? "# a note\r\n" : "\r\n");
    }
    expect_values(&t, COLS);
    text_free(&t);
}

/* The second half holds only notes: the rows are all in the first. */
static void test_a_second_half_of_notes_gives_the_first_half_rows(void **state)
{
    as_prng g;
    text t = {0};
    int i;

    (void)state;
    as_prng_seed(&g, 3);
    put_rows(&t, &g, 450, COLS, "\n");
    for (i = 0; i < 20000; i++)
        put(&t, "# a long trailing note, line after line of it\n");
    expect_values(&t, COLS);
    text_free(&t);
}

/* Long rows first, then many more short ones than their length foretells: the room
 * guessed from the first rows for each half runs out, and the file is read again. */
static void test_rows_shorter_than_the_first_give_every_value(void **state)
{
    as_prng g;
    text t = {0};

    (void)state;
    as_prng_seed(&g, 11);
    put_rows(&t, &g, 60, COLS, "\n");
    put_rows_digits(&t, &g, 3000, COLS, "\n", 2); /* 9 or 10 bytes a number */
    expect_values(&t, COLS);
    text_free(&t);
}

/* Rows of 12000 numbers (300 KB a line): longer than the buffer the file is read in. */
static void test_lines_longer_than_a_chunk_give_every_value(void **state)
{
    as_prng g;
    text t = {0};

    (void)state;
    as_prng_seed(&g, 4);
    put_rows(&t, &g, 5, 12000, "\n");
    expect_values(&t, 12000);
    text_free(&t);
}

/* The last row without a line end, and a last line that is a comment without one. */
static void test_a_file_ending_without_a_line_end_gives_its_last_row(void **state)
{
    as_prng g;
    text t = {0};

    (void)state;
    as_prng_seed(&g, 5);
    put_rows(&t, &g, 500, COLS, "\n");
    put_rows(&t, &g, 1, COLS, "");
    expect_values(&t, COLS);
    put(&t, "\n# the end, no line end after it");
    expect_values(&t, COLS);
    text_free(&t);
}

/* ------------------------------------------------------------------ the quick way ---- */

/* Reads text with as_reader_quick_rows; when it reads it, the full grammar
 * (as_reader_plain_rows) must give the same rows, bit for bit. Returns the quick rc. */
static int quick_as_full(const char *src)
{
    as_rd_matrix quick = {0}, full = {0};
    as_reader r;
    as_error err;
    int rc = as_reader_quick_rows(&quick, src, strlen(src));

    if (rc == 0) {
        as_error_init(&err, AS_LANG_EN);
        as_reader_init(&r, "t.txt", &err, NULL, NULL);
        assert_int_equal(as_reader_start(&r, src, strlen(src)), 0);
        if (as_reader_plain_rows(&r, &full) != 0)
            fail_msg("quick read \"%s\", the full grammar refused it: %s", src, err.msg);
        assert_int_equal(quick.rows, full.rows);
        assert_int_equal(quick.cols, full.cols);
        if (quick.rows > 0 && memcmp(quick.v, full.v, quick.rows * quick.cols * sizeof(double)))
            fail_msg("quick and full values of \"%s\" differ", src);
    }
    free(quick.v);
    free(full.v);
    return rc;
}

/* What numpy.savetxt and people write in plain rows is read the quick way, to the same
 * values as the full grammar gives; everything else is left to the full grammar. */
static void test_the_quick_way_reads_plain_rows_as_the_full_grammar_does(void **state)
{
    static const char *const read[] = {
        "1 2\n3 4\n", "1,2\r\n3,4\r\n", "  1 ,\t2 ,\n3, 4,\n", "# head \xE4\xBD\xA0\n1 2 # note\n",
        "-0 +1.5\n.5 -.25\n", "1e5 1E-5\n2.5e+3 -7e0\n", "\n\n1\n\n2\n", "1 2\r3 4",
        "4.9e-324 1e-400\n", "1.7976931348623157e308 0.1\n", "1\v2\f3\n",
        "2.652035377800842753e+00 -4.371635151961624222e-01\n", "12345678901234567890123 1\n"};
    static const char *const left[] = {
        "1/2 3\n", "\xE2\x88\x92" "1 2\n", "1,,2\n", "1 2\n3\n", "1\n2 3\n", "-inf 1\n", "1e999 1\n",
        "\xEF\xBB\xBF" "1 2\n", "[1 2]\n", "1 2 # \xFF\n", "1\xEF\xBC\x8C" "2\n", "1e 2\n", "nan\n",
        "1\xE3\x80\x80" "2\n", ", 1\n", "1 x\n", "- 1\n", "1.5.5\n"};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof read / sizeof read[0]; i++)
        if (quick_as_full(read[i]) != 0)
            fail_msg("the quick way did not read \"%s\"", read[i]);
    for (i = 0; i < sizeof left / sizeof left[0]; i++)
        if (quick_as_full(left[i]) == 0)
            fail_msg("the quick way read \"%s\", which is the full grammar's", left[i]);
}

/* ------------------------------------------------------------------ errors ---- */

static void large_file(text *t, uint64_t seed)
{
    as_prng g;

    as_prng_seed(&g, seed);
    put_rows(t, &g, 600, COLS, "\n");
}

static void test_a_bad_number_in_the_second_half_is_reported_at_its_line(void **state)
{
    text t = {0};
    int col;

    (void)state;
    large_file(&t, 4);
    col = replace_number(&t, 500, 7, "abc");
    expect_error(&t, 500, col, "unexpected word \"abc\" inside matrix Wq");
    text_free(&t);
}

static void test_the_first_error_in_file_order_wins(void **state)
{
    text t = {0};
    int col;

    (void)state;
    large_file(&t, 5);
    replace_number(&t, 550, 0, "abc");
    col = replace_number(&t, 12, 3, "1e999");
    expect_error(&t, 12, col, "the number \"1e999\" is too large");
    text_free(&t);
}

/* The first row of the second half is one number short: its row number counts the
 * rows of the first half. */
static void test_a_short_row_just_after_the_middle_names_its_row(void **state)
{
    text t = {0};
    int line;
    char msg[96];

    (void)state;
    large_file(&t, 6);
    line = line_of(&t, middle_line(&t));
    replace_number(&t, line, COLS - 1, "");
    snprintf(msg, sizeof msg, "row %d of Wq has %d numbers, but row 0 has %d", line - 1, COLS - 1,
             COLS);
    expect_error(&t, line, 1, msg);
    text_free(&t);
}

/* Every row of the second half is one number short: each half is even on its own, the
 * whole is not. */
static void test_a_narrower_second_half_is_refused_at_its_first_row(void **state)
{
    text t = {0};
    int line, last = 600;
    char msg[96];

    (void)state;
    large_file(&t, 10);
    line = line_of(&t, middle_line(&t));
    while (last >= line)
        replace_number(&t, last--, COLS - 1, "");
    snprintf(msg, sizeof msg, "row %d of Wq has %d numbers, but row 0 has %d", line - 1, COLS - 1,
             COLS);
    expect_error(&t, line, 1, msg);
    text_free(&t);
}

/* In a note, where no number would stop at it. */
static void test_invalid_utf8_in_the_second_half_is_reported_at_its_byte(void **state)
{
    text t = {0};

    (void)state;
    large_file(&t, 7);
    insert_at(&t, line_start(&t, 580), "# caf\xff\n");
    expect_error(&t, 580, 6, "invalid UTF-8 (byte 0xff)");
    text_free(&t);
}

/* Either half alone is within 16384 rows; the whole is not. */
static void test_rows_over_the_limit_across_both_halves_are_refused_at_the_first(void **state)
{
    as_prng g;
    text t = {0};

    (void)state;
    as_prng_seed(&g, 8);
    put_rows(&t, &g, 20000, 3, "\n");
    expect_error(&t, 16385, 1, "matrix Wq is too large: more than 16384 rows");
    text_free(&t);
}

/* A byte order mark starting the line after the middle is a character of that line (the
 * start of an unknown word), not the mark of a file. */
static void test_a_bom_after_the_middle_is_a_character_of_its_line(void **state)
{
    text t = {0};
    size_t at;
    char msg[96];

    (void)state;
    large_file(&t, 9);
    at = middle_line(&t);
    insert_at(&t, at, "\xEF\xBB\xBF");
    snprintf(msg, sizeof msg, "unexpected word \"%.*s\" inside matrix Wq",
             (int)strcspn(t.s + at, " "), t.s + at);
    expect_error(&t, line_of(&t, at), 1, msg);
    text_free(&t);
}

/* ------------------------------------------------------------------ numbers ---- */

/* A number as numpy.savetxt writes it takes a shorter path through as_parse_number; what
 * may follow it or stand in it still means what SPEC §2 says (values by hand). */
static void test_plain_numbers_keep_the_meaning_of_what_follows_them(void **state)
{
    const char *why;
    double x;

    (void)state;
    assert_int_equal(as_parse_number("-0", 2, 1, &x, &why), 2);
    assert_true(x == 0 && signbit(x)); /* -0 keeps its sign */
    assert_int_equal(as_parse_number("-1.5e-03/2", 10, 1, &x, &why), 10);
    assert_true(x == -0.00075); /* a fraction, not the number before the bar */
    assert_int_equal(as_parse_number("-1e999", 6, 1, &x, &why), 0);
    assert_ptr_equal(why, as_why_too_large);
    assert_int_equal(as_parse_number("4/0", 3, 1, &x, &why), 0);
    assert_ptr_equal(why, as_why_zero_denominator);
    assert_int_equal(as_parse_number("12abc", 5, 1, &x, &why), 2);
    assert_true(x == 12);
    assert_int_equal(as_parse_number("-inf", 4, 1, &x, &why), 4);
    assert_true(isinf(x) && x < 0);
}

/* ------------------------------------------------------------------ load() statements ---- */

/* The folder of the statements' tests: m.txt, a 3 x 3 matrix of 1 ... 9; row.txt, one row
 * of 1 ... 4 (a 1-D array to numpy.loadtxt); col.txt, 1, 2, 3 one a line (a 1-D bias as
 * numpy.savetxt writes it). */
static char sdir[64];

static int statements_setup(void **state)
{
    static const char *const files[][2] = {
        {"m.txt", "1 2 3\n4 5 6\n7 8 9\n"}, {"row.txt", "1 2 3 4\n"}, {"col.txt", "1\n2\n3\n"},
    };
    char path[128];
    size_t i;

    (void)state;
    strcpy(sdir, "/tmp/attnstep-test-load-XXXXXX");
    if (mkdtemp(sdir) == NULL)
        return -1;
    for (i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", sdir, files[i][0]);
        write_file(path, files[i][1], strlen(files[i][1]));
    }
    return 0;
}

static int statements_teardown(void **state)
{
    static const char *const files[] = {"m.txt", "row.txt", "col.txt"};
    char path[128];
    size_t i;

    (void)state;
    for (i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", sdir, files[i]);
        unlink(path);
    }
    return rmdir(sdir);
}

/* Parses input as the file sdir/input.txt (load() finds the folder's files), in English. */
static int parse_statements(as_input *in, as_error *err, const char *input)
{
    char path[128];

    snprintf(path, sizeof path, "%s/input.txt", sdir);
    as_error_init(err, AS_LANG_EN);
    return as_parse_text(in, input, strlen(input), path, err);
}

/* input loads matrix k as rows x cols of exactly want (row-major). */
static void loads_as(const char *input, int k, size_t rows, size_t cols, const double *want)
{
    as_input in;
    as_error err;
    size_t i;

    if (parse_statements(&in, &err, input) != 0)
        fail_msg("%s: %d:%d: %s", input, err.line, err.col, err.msg);
    assert_int_equal(in.mat[k].m.rows, rows);
    assert_int_equal(in.mat[k].m.cols, cols);
    for (i = 0; i < rows * cols; i++)
        if (in.mat[k].m.v[i] != want[i])
            fail_msg("%s: cell %zu is %g, not %g", input, i, in.mat[k].m.v[i], want[i]);
    as_input_free(&in);
}

/* input is refused at line 1, column col of the input with exactly msg and hint. */
static void statement_refused(const char *input, int col, const char *msg, const char *hint)
{
    as_input in;
    as_error err;

    if (parse_statements(&in, &err, input) == 0) {
        as_input_free(&in);
        fail_msg("%s was read", input);
    }
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.hint, hint);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, col);
}

/* The cells are numpy's m[1:3, 0:2], m[1:], m[:, 2:] of m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
 * worked out by hand. */
static void test_a_slice_of_a_text_file_takes_the_cells_numpy_takes(void **state)
{
    static const double m12[] = {4, 5, 7, 8}, m1[] = {4, 5, 6, 7, 8, 9}, m2[] = {3, 6, 9};
    static const double r13[] = {2, 3}, c02[] = {1, 2};

    (void)state;
    loads_as("X = load(\"m.txt\")[1:3, 0:2]\n", AS_X, 2, 2, m12);
    loads_as("X = load(\"m.txt\")[1:]\n", AS_X, 2, 3, m1);
    loads_as("X = load('m.txt')[ : , 2 : ]\n", AS_X, 3, 1, m2);
    loads_as("X = load(\"row.txt\")[1:3]\n", AS_X, 1, 2, r13); /* one row: 1-D, as numpy */
    loads_as("bq = load(\"col.txt\")[0:2]\n", AS_BQ, 1, 2, c02); /* a bias one number a line */
}

static void test_a_slice_outside_a_text_file_or_of_two_dims_of_a_row_is_refused(void **state)
{
    static const char outside[] = "a slice is never cut short: a:b needs a < b ≤ the length of its "
                                  "dimension";
    static const char syntax[] = "a:b takes a up to but not including b (counted from 0) and “:” "
                                 "takes all: [:, 0:768] is the first 768 columns";

    (void)state;
    /* the slice's "[" is at column 18 of X = load("m.txt")[ */
    statement_refused("X = load(\"m.txt\")[0:4]\n", 18, "slice [0:4] lies outside the shape (3, 3)",
                      outside);
    statement_refused("X = load(\"m.txt\")[:, 2:2]\n", 18,
                      "slice [:, 2:2] lies outside the shape (3, 3)", outside);
    statement_refused("X = load(\"row.txt\")[0:1, 0:1]\n", 20, "the 1-D shape (4,) takes one slice",
                      syntax);
}

/* Each statement cut short or mis-written is refused where it stops, with the hint that
 * shows how it is written. */
static void test_a_load_statement_cut_short_is_refused_where_it_stops(void **state)
{
    static const char write[] = "write X = load(\"file.txt\")";
    static const char syntax[] = "a:b takes a up to but not including b (counted from 0) and “:” "
                                 "takes all: [:, 0:768] is the first 768 columns";

    (void)state;
    statement_refused("X = load", 9, "expected \"(\" after load", write); /* the input's end */
    statement_refused("X = load(", 10, "expected a file name in quotes after load(", write);
    statement_refused("X = load(\"m.txt", 10, "the file name has no closing quote", write);
    statement_refused("X = load(\"m.txt\nWq = [[1]]\n", 10, "the file name has no closing quote",
                      write);
    statement_refused("X = load('m.txt\r\n", 10, "the file name has no closing quote", write);
    statement_refused("X = load(\"m.txt\",", 18, "expected a file name in quotes after load(",
                      write);
    statement_refused("X = load(\"m.txt\", \"a\"", 22, "expected \")\" after the file name",
                      write);
    /* slices: at what cannot be read, quoted (at most 20 characters) */
    statement_refused("X = load(\"m.txt\")[1:2", 22,
                      "the slice is not finished: the line ends before its \"]\"", syntax);
    statement_refused("X = load(\"m.txt\")[0:1, 0:1, 0:1]\n", 28, "a slice is written [a:b] or "
                      "[a:b, c:d]; here is “ 0:1]”", syntax);
    /* 10^18 - 1 after 18 nines is more than 2^62 / 10: the index is refused whole, at its
     * start (it was once refused at its 19th digit as a slice not written [a:b]) */
    statement_refused("X = load(\"m.txt\")[99999999999999999999:]\n", 19, "the slice's index "
                      "\"99999999999999999999\" is past the last row or column of any table", syntax);
    statement_refused("X = load(\"m.txt\")[0:99999999999999999999]\n", 21, "the slice's index "
                      "\"99999999999999999999\" is past the last row or column of any table", syntax);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_large_file_gives_every_value_written),
        cmocka_unit_test(test_rows_shorter_than_the_first_give_every_value),
        cmocka_unit_test(test_crlf_comments_and_blank_lines_around_the_middle_change_nothing),
        cmocka_unit_test(test_a_second_half_of_notes_gives_the_first_half_rows),
        cmocka_unit_test(test_lines_longer_than_a_chunk_give_every_value),
        cmocka_unit_test(test_a_file_ending_without_a_line_end_gives_its_last_row),
        cmocka_unit_test(test_the_quick_way_reads_plain_rows_as_the_full_grammar_does),
        cmocka_unit_test(test_a_bad_number_in_the_second_half_is_reported_at_its_line),
        cmocka_unit_test(test_the_first_error_in_file_order_wins),
        cmocka_unit_test(test_a_short_row_just_after_the_middle_names_its_row),
        cmocka_unit_test(test_a_narrower_second_half_is_refused_at_its_first_row),
        cmocka_unit_test(test_invalid_utf8_in_the_second_half_is_reported_at_its_byte),
        cmocka_unit_test(test_rows_over_the_limit_across_both_halves_are_refused_at_the_first),
        cmocka_unit_test(test_a_bom_after_the_middle_is_a_character_of_its_line),
        cmocka_unit_test(test_plain_numbers_keep_the_meaning_of_what_follows_them),
    };

    const struct CMUnitTest statements[] = {
        cmocka_unit_test(test_a_slice_of_a_text_file_takes_the_cells_numpy_takes),
        cmocka_unit_test(test_a_slice_outside_a_text_file_or_of_two_dims_of_a_row_is_refused),
        cmocka_unit_test(test_a_load_statement_cut_short_is_refused_where_it_stops),
    };

    return cmocka_run_group_tests(tests, NULL, NULL) |
           cmocka_run_group_tests(statements, statements_setup, statements_teardown);
}
