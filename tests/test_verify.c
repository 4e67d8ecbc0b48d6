/* test_verify.c - checking a book (SPEC §18) on the F11 chapter as printed. The expected
 * count is the hand count of tests/data/verify/F11-count.md; every right value expected
 * is the chapter's own printed number (or 1/√2, by hand); each planted erratum is a copy
 * of the chapter with one printed number changed, made here in memory. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_verify.out"
#define CLI_ERR "build/tests/test_verify.err"
#include "attnstep/session.h"
#include "attnstep/verify.h"
#include "cli_util.h"
#include "test_util.h"

#define CHAPTER "tests/data/verify/F11-attention.zh.txt"
#define F11_NUMBERS 70 /* counted by hand: tests/data/verify/F11-count.md */

/* ---- helpers ---- */

/* The chapter's text with its first `from` replaced by `to` (the whole text if from is
 * NULL), in a new buffer the caller frees. */
static char *planted(const char *from, const char *to)
{
    char *text = slurp(CHAPTER), *at, *out;
    size_t n;

    assert_non_null(text);
    if (from == NULL)
        return text;
    at = strstr(text, from);
    assert_non_null(at);
    n = strlen(text) - strlen(from) + strlen(to);
    out = malloc(n + 1);
    assert_non_null(out);
    memcpy(out, text, (size_t)(at - text));
    strcpy(out + (at - text), to);
    strcat(out, at + strlen(from));
    free(text);
    return out;
}

/* A chapter read and verified: its text, the chapter and the verification. */
typedef struct verified {
    char *text;
    as_chapter ch;
    as_verify v;
} verified;

/* Verifies the chapter with its first from replaced by to (from NULL: as printed). */
static void verify_planted(verified *w, const char *from, const char *to)
{
    as_error err;

    w->text = planted(from, to);
    as_error_init(&err, AS_LANG_EN);
    if (as_chapter_parse(&w->ch, w->text, strlen(w->text), "F11.txt", &err) != 0 ||
        as_verify_chapter(&w->v, &w->ch, &err) != 0) {
        print_error("%d:%d: %s\n", err.line, err.col, err.msg);
        fail();
    }
}

static void verified_free(verified *w)
{
    as_verify_free(&w->v);
    as_chapter_free(&w->ch);
    free(w->text);
}

/* How many numbers of w do not agree. */
static size_t disagreeing(const verified *w)
{
    size_t i, bad = 0;

    for (i = 0; i < w->v.count; i++)
        bad += w->v.num[i].verdict != AS_VF_AGREES;
    return bad;
}

/* The chapter with from replaced by to has exactly one number that does not agree, at
 * line:col, with verdict, right value (within 5e-11: the chapter prints 10 decimals)
 * and named mistake. */
static void assert_one_erratum(const char *from, const char *to, int line, int col,
                               as_vverdict verdict, double right, as_diag variant)
{
    verified w;
    size_t i;

    verify_planted(&w, from, to);
    assert_int_equal(w.v.count, F11_NUMBERS);
    assert_int_equal(w.v.agree, F11_NUMBERS - 1);
    assert_int_equal(disagreeing(&w), 1);
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        assert_int_equal(n->at.line, line);
        assert_int_equal(n->at.col, col);
        assert_int_equal(n->verdict, verdict);
        assert_close(n->right, right, 5e-11);
        assert_int_equal(n->variant.diag, variant);
    }
    verified_free(&w);
}

/* ---- the chapter as printed ---- */

static void test_the_f11_chapter_verifies_clean_number_by_number(void **state)
{
    verified w;

    (void)state;
    verify_planted(&w, NULL, NULL);
    assert_int_equal(w.v.count, F11_NUMBERS);
    assert_int_equal(w.v.agree, F11_NUMBERS);
    verified_free(&w);
}

/* s with every from replaced by to, in a new buffer (s freed). */
static char *replace_all(char *s, const char *from, const char *to)
{
    size_t n = 0, k = strlen(from), len;
    const char *at;
    char *out, *put;

    for (at = s; (at = strstr(at, from)) != NULL; at += k)
        n++;
    len = strlen(s) + n * strlen(to) - n * k;
    assert_non_null(out = malloc(len + 1));
    for (put = out, at = s;;) {
        const char *next = strstr(at, from);
        if (next == NULL)
            break;
        memcpy(put, at, (size_t)(next - at)), put += next - at;
        strcpy(put, to), put += strlen(to);
        at = next + k;
    }
    strcpy(put, at);
    free(s);
    return out;
}

/* The chapter spelt in ASCII as --ascii prints a walk-through (~= for ≈, q1 for q₁, QK^T
 * for QKᵀ) is the same chapter: its 70 numbers, all agreeing; an output cell's "~= v" on
 * the line after its sum is read too (it was skipped, 68 numbers), and a digit changed in
 * it is found there. */
static void test_the_chapter_spelt_in_ascii_verifies_the_same_numbers(void **state)
{
    static const char *const sub[] = {"\xE2\x82\x80", "\xE2\x82\x81"}; /* ₀ ₁ */
    as_error err;
    as_chapter ch;
    as_verify v;
    char *text = replace_all(replace_all(planted(NULL, NULL), "\xE2\x89\x88", "~="), "\xE1\xB5\x80",
                             "^T");
    size_t i, wrong = 0;
    int k;

    (void)state;
    text = replace_all(replace_all(text, sub[0], "0"), sub[1], "1");
    for (k = 0; k < 2; k++) {
        if (k == 1) { /* 输出第0格's "~= 6.6976154933", line 107 */
            char *at = strstr(text, "~= 6.6976154933");
            assert_non_null(at);
            at[strlen("~= 6.697615493")] = '5';
        }
        as_error_init(&err, AS_LANG_EN);
        if (as_chapter_parse(&ch, text, strlen(text), "F11.txt", &err) != 0 ||
            as_verify_chapter(&v, &ch, &err) != 0)
            fail_msg("%d:%d: %s", err.line, err.col, err.msg);
        assert_int_equal(v.count, F11_NUMBERS);
        assert_int_equal(v.agree, F11_NUMBERS - k);
        for (i = 0; i < v.count; i++)
            if (v.num[i].verdict != AS_VF_AGREES) {
                wrong++;
                assert_int_equal(v.num[i].at.line, 107);
                assert_int_equal(v.num[i].at.col, 14);
                assert_close(v.num[i].right, 6.6976154933, 5e-11);
            }
        as_verify_free(&v);
        as_chapter_free(&ch);
    }
    assert_int_equal(wrong, 1);
    free(text);
}

static void test_each_number_is_found_at_its_place(void **state)
{
    verified w;
    size_t i;
    int sum_seen = 0, root_seen = 0;

    (void)state;
    verify_planted(&w, NULL, NULL);
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        if (n->at.line == 98) { /* 指数之和： 1.4930686914, the number at column 7 */
            assert_int_equal(n->at.col, 7);
            assert_close(n->printed, 1.4930686914, 0);
            sum_seen = 1;
        }
        if (n->at.line == 90) { /* √2≈1.414214 */
            assert_int_equal(n->at.col, 44);
            assert_close(n->right, sqrt(2.0), 0);
            root_seen = 1;
        }
    }
    assert_true(sum_seen && root_seen);
    verified_free(&w);
}

/* ---- planted errata: one number changed each ---- */

static void test_a_wrong_digit_is_found_with_its_right_value(void **state)
{
    (void)state;
    assert_one_erratum("指数之和： 1.4930686914", "指数之和： 1.4930686941", 98, 7,
                       AS_VF_WRONG, 1.4930686914, AS_DIAG_NONE);
}

static void test_a_truncated_number_is_reported_as_truncated(void **state)
{
    (void)state; /* e^(−1/√2) = 0.49306869139…: printed 0.4930686914, cut 0.4930686913 */
    assert_one_erratum("[1, 0.4930686914]", "[1, 0.4930686913]", 97, 12, AS_VF_TRUNCATED,
                       0.4930686914, AS_DIAG_NONE);
}

static void test_a_number_rounded_the_other_way_is_reported(void **state)
{
    (void)state; /* a₁₀ = 0.66976154932…: rounded up, not down, to 10 places */
    assert_one_erratum("除以总和： [0.6697615493", "除以总和： [0.6697615494", 99, 8,
                       AS_VF_ROUNDED, 0.6697615493, AS_DIAG_NONE);
}

static void test_an_unscaled_score_is_named_no_scale(void **state)
{
    (void)state; /* S[1][0] printed as q₁·k₀ = 1, not 1/√2 */
    assert_one_erratum("                   [0.7071067812,0]]", "                   [1,0]]",
                       133, 21, AS_VF_WRONG, 0.7071067812, AS_DIAG_NO_SCALE);
}

static void test_a_score_divided_by_dk_is_named_scale_by_dk(void **state)
{
    (void)state; /* 1/2 instead of 1/√2 */
    assert_one_erratum("≈ [0.7071067812,0]", "≈ [0.5,0]", 92, 22, AS_VF_WRONG,
                       1 / sqrt(2.0), AS_DIAG_SCALE_BY_DK);
}

static void test_an_output_mixed_from_the_keys_is_named(void **state)
{
    verified w;
    size_t i;

    (void)state; /* O row 1 = a₁·K = [0.6697615493, 0.3302384507]: both cells */
    verify_planted(&w, "          [6.6976154933,6.6047690135]]",
                   "          [0.6697615493,0.3302384507]]");
    assert_int_equal(disagreeing(&w), 2);
    for (i = 0; i < w.v.count; i++)
        if (w.v.num[i].verdict != AS_VF_AGREES) {
            assert_int_equal(w.v.num[i].at.line, 137);
            assert_int_equal(w.v.num[i].variant.diag, AS_DIAG_KEYS_FOR_VALUES);
        }
    verified_free(&w);
}

/* ---- generated chapters: exercise draws a problem, trace prints it as the chapter
 * does (its blocks and its walk-through); the right values expected are the numbers
 * trace printed before one was changed ---- */

#define GEN "build/tests/verify-gen"

/* Draws exercise `seed` at `level` (with extra options) into GEN.in, prints its trace
 * (with trace_opts) and returns that text (the caller frees it). */
static char *generated(unsigned seed, int level, const char *extra, const char *trace_opts)
{
    const char *bin = getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep";
    char cmd[1024];
    char *text;

    snprintf(cmd, sizeof cmd,
             "%s exercise --seed %u --level %d %s > " GEN ".in && %s trace " GEN ".in %s > "
             GEN ".txt",
             bin, seed, level, extra, bin, trace_opts);
    assert_int_equal(system(cmd), 0);
    text = slurp(GEN ".txt");
    assert_non_null(text);
    return text;
}

/* The line of text that holds key (a new string the caller frees), or NULL. */
static char *line_with(const char *text, const char *key)
{
    const char *at = strstr(text, key), *start, *end;
    char *line;

    if (at == NULL)
        return NULL;
    for (start = at; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(at, '\n');
    end = end != NULL ? end : at + strlen(at);
    line = malloc((size_t)(end - start) + 1);
    assert_non_null(line);
    memcpy(line, start, (size_t)(end - start));
    line[end - start] = '\0';
    return line;
}

/* text with its first `from` replaced by `to` (a new string the caller frees). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    char *out;

    assert_non_null(at);
    out = malloc(strlen(text) - strlen(from) + strlen(to) + 1);
    assert_non_null(out);
    memcpy(out, text, (size_t)(at - text));
    strcpy(out + (at - text), to);
    strcat(out, at + strlen(from));
    return out;
}

/* Verifies text (the caller frees it) into w. */
static void verify_generated(verified *w, char *text)
{
    as_error err;

    w->text = text;
    as_error_init(&err, AS_LANG_EN);
    if (as_chapter_parse(&w->ch, text, strlen(text), GEN ".txt", &err) != 0 ||
        as_verify_chapter(&w->v, &w->ch, &err) != 0) {
        print_error("%d:%d: %s\n%s", err.line, err.col, err.msg, text);
        fail();
    }
}

/* The line number (from 1) of the line of text that holds key. */
static int line_number(const char *text, const char *key)
{
    const char *at = strstr(text, key), *p;
    int line = 1;

    assert_non_null(at);
    for (p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Every number of w that does not agree is on line `line` with verdict `verdict`
 * (and, for a wrong one, mistake `variant`); there are some. */
static void assert_errata_on_line(const verified *w, int line, as_vverdict verdict,
                                  as_diag variant)
{
    size_t i;

    assert_true(disagreeing(w) > 0);
    for (i = 0; i < w->v.count; i++) {
        const as_vnumber *n = &w->v.num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        if (n->at.line != line || n->verdict != verdict || n->variant.diag != variant)
            print_error("%s %d:%d verdict %d variant %d\n", n->item->name, n->at.line,
                        n->at.col, (int)n->verdict, (int)n->variant.diag);
        assert_int_equal(n->at.line, line);
        assert_int_equal(n->verdict, verdict);
        assert_int_equal(n->variant.diag, variant);
    }
}

/* The one number of w that does not agree. */
static const as_vnumber *wrong_one(const verified *w)
{
    size_t i;

    for (i = 0; i < w->v.count && w->v.num[i].verdict == AS_VF_AGREES; i++)
        ;
    assert_true(i < w->v.count);
    return &w->v.num[i];
}

static void test_200_generated_chapters_verify_clean(void **state)
{
    unsigned seed;

    (void)state;
    for (seed = 1; seed <= 200; seed++) {
        verified w;
        verify_generated(&w, generated(seed, 1 + (int)seed % 3, "", ""));
        assert_true(w.v.count >= 60); /* 2 tokens print 70 numbers, 3 tokens more */
        if (w.v.agree != w.v.count)
            print_error("seed %u: %zu of %zu agree\n", seed, w.v.agree, w.v.count);
        assert_int_equal(w.v.agree, w.v.count);
        verified_free(&w);
    }
}

/* The sum of the exps trace printed (the number after 指数之和：), in a new string. */
static char *printed_sum(const char *text)
{
    char *line = line_with(text, "指数之和："), *num;

    assert_non_null(line);
    num = strdup(line + strlen("指数之和：") + 1);
    free(line);
    return num;
}

static void test_a_wrong_digit_in_generated_chapters_is_found_with_its_right_value(void **state)
{
    unsigned seed, planted_n = 0;

    (void)state;
    for (seed = 1; planted_n < 8 && seed < 100; seed++) {
        char *text = generated(seed, 1 + (int)seed % 3, "", ""), *sum = printed_sum(text);
        char *dot = strchr(sum, '.'), *bad, from[80], to[80];
        verified w;

        if (dot == NULL || strlen(dot) < 4) { /* an exact sum: no third decimal to change */
            free(text), free(sum);
            continue;
        }
        snprintf(from, sizeof from, "指数之和： %s", sum);
        dot[3] = (char)('0' + (dot[3] - '0' + 5) % 10); /* the third decimal, 5 off */
        snprintf(to, sizeof to, "指数之和： %s", sum);
        bad = replaced(text, from, to);
        verify_generated(&w, bad);
        assert_int_equal(disagreeing(&w), 1);
        assert_errata_on_line(&w, line_number(bad, "指数之和："), AS_VF_WRONG, AS_DIAG_NONE);
        assert_close(wrong_one(&w)->right, strtod(from + strlen("指数之和： "), NULL), 5e-11);
        free(text), free(sum);
        verified_free(&w);
        planted_n++;
    }
    assert_int_equal(planted_n, 8);
}

static void test_a_truncated_sum_in_generated_chapters_is_reported_as_truncated(void **state)
{
    unsigned seed, planted_n = 0;

    (void)state;
    for (seed = 1; planted_n < 6 && seed < 100; seed++) {
        char *text = generated(seed, 1 + (int)seed % 3, "", ""), *sum = printed_sum(text);
        char *longer = generated(seed, 1 + (int)seed % 3, "", "--digits 14");
        char *full = printed_sum(longer), *dot = strchr(full, '.'), from[80], to[80];
        verified w;

        if (dot == NULL || strlen(dot) < 12 || strncmp(full, sum, (size_t)(dot - full) + 11) == 0) {
            free(text), free(sum), free(longer), free(full); /* cut = rounded here */
            continue;
        }
        dot[11] = '\0'; /* cut at the tenth decimal, as the chapter prints 10 */
        snprintf(from, sizeof from, "指数之和： %s", sum);
        snprintf(to, sizeof to, "指数之和： %s", full);
        verify_generated(&w, replaced(text, from, to));
        assert_int_equal(disagreeing(&w), 1);
        assert_errata_on_line(&w, line_number(text, "指数之和："), AS_VF_TRUNCATED, AS_DIAG_NONE);
        free(text), free(sum), free(longer), free(full);
        verified_free(&w);
        planted_n++;
    }
    assert_int_equal(planted_n, 6);
}

static void test_scores_divided_by_dk_in_generated_chapters_are_named(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep";
    unsigned seed, planted_n = 0;
    char cmd[256];

    (void)state; /* the scaled-scores line taken from the trace of the same problem with
                  * scale: 0.5, 1/d_k for d_k = 2 */
    snprintf(cmd, sizeof cmd, "echo 'scale: 0.5' >> " GEN ".in && %s trace " GEN ".in > " GEN ".txt",
             bin);
    for (seed = 1; planted_n < 6 && seed < 100; seed++) {
        char *text = generated(seed, 2, "--dk 2 --dv 2", ""); /* level 1 takes d_k 1 or 4 */
        char *right = line_with(text, "缩放分数："), *variant_text, *variant;
        verified w;

        assert_int_equal(system(cmd), 0);
        variant_text = slurp(GEN ".txt");
        variant = line_with(variant_text, "缩放分数：");
        verify_generated(&w, replaced(text, right, variant));
        if (disagreeing(&w) > 0) { /* all scores 0: nothing to tell apart */
            assert_errata_on_line(&w, line_number(text, "缩放分数："), AS_VF_WRONG,
                                  AS_DIAG_SCALE_BY_DK);
            planted_n++;
        }
        free(text), free(right), free(variant_text), free(variant);
        verified_free(&w);
    }
    assert_int_equal(planted_n, 6);
}

/* The output line of the walk-through (its last row, as trace walks it) with that row
 * mixed from the Keys, A·K, worked out here from the run's A and K of GEN.in. */
static char *output_from_keys(const char *line)
{
    as_session s;
    as_error err;
    const char *approx = strstr(line, "≈ [");
    char *out = malloc(strlen(line) + 128);
    size_t r, c, j, used;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_session_open(&s, GEN ".in", NULL, &err), 0);
    assert_non_null(approx);
    assert_non_null(out);
    r = s.p.n - 1;
    used = (size_t)(approx - line) + strlen("≈ [");
    memcpy(out, line, used);
    for (c = 0; c < s.t.K.cols; c++) {
        double o = 0;
        for (j = 0; j < s.p.m; j++)
            o += s.t.head[0].A.v[r * s.p.m + j] * s.t.K.v[j * s.t.K.cols + c];
        used += (size_t)sprintf(out + used, "%s%.10f", c ? ", " : "", o);
    }
    strcpy(out + used, "]");
    as_session_free(&s);
    return out;
}

static void test_outputs_mixed_from_the_keys_in_generated_chapters_are_named(void **state)
{
    unsigned seed, planted_n = 0;

    (void)state;
    for (seed = 1; planted_n < 6 && seed < 100; seed++) {
        char *text = generated(seed, 2, "--dk 2 --dv 2", "");
        char *right = line_with(text, "位置的注意力输出 o"), *wrong = output_from_keys(right);
        verified w;

        verify_generated(&w, replaced(text, right, wrong));
        if (disagreeing(&w) > 0) { /* A·K = A·V here: nothing to tell apart */
            assert_errata_on_line(&w, line_number(text, "位置的注意力输出 o"), AS_VF_WRONG,
                                  AS_DIAG_KEYS_FOR_VALUES);
            planted_n++;
        }
        free(text), free(right), free(wrong);
        verified_free(&w);
    }
    assert_int_equal(planted_n, 6);
}

/* ---- bad input ---- */

static void test_a_chapter_without_x_is_refused_with_its_place(void **state)
{
    const char *text = "Wq = [[1]]\nWk = [[1]]\nWv = [[1]]\nQ = [[1]]\n";
    as_chapter ch;
    as_verify v;
    as_error err;

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_chapter_parse(&ch, text, strlen(text), "c.txt", &err), 0);
    assert_int_equal(as_verify_chapter(&v, &ch, &err), -1);
    assert_non_null(strstr(err.msg, "no X"));
    as_chapter_free(&ch);
}

/* The chapter text (freed here) reads, and verify refuses it at line:col with msg (any
 * message when msg is NULL). */
static void assert_refused_at(char *text, int line, int col, const char *msg)
{
    as_chapter ch;
    as_verify v;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_chapter_parse(&ch, text, strlen(text), "c.txt", &err), 0);
    assert_int_equal(as_verify_chapter(&v, &ch, &err), -1);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    if (msg != NULL)
        assert_string_equal(err.msg, msg);
    as_chapter_free(&ch);
    free(text);
}

static void test_a_row_past_the_table_is_refused_at_its_place(void **state)
{
    (void)state;
    assert_refused_at(planted("当前接收者：爱，q₁=[1,0]", "当前接收者：爱，q₅=[1,0]"), 80, 9, NULL);
}

/* ---- a misprint carried downstream ---- */

/* F11 with Wv printed [[5, 10], [5, -9]]: the chapter's V (computed from the true
 * [5, -10]) is then wrong in column 1 at each of its printings, and the output's column
 * 1, made from those printed values, is carried from the first of them (v₀, 64:1). */
#define WV_FROM "[5,-10]]"
#define WV_TO "[5, -9]]"

static void test_a_misprint_carried_downstream_is_reported_once_where_it_starts(void **state)
{
    verified w;
    size_t i, wrong = 0, carried = 0;

    (void)state;
    verify_planted(&w, WV_FROM, WV_TO);
    assert_int_equal(w.v.count, F11_NUMBERS);
    assert_int_equal(w.v.agree, F11_NUMBERS - 10);
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        assert_int_equal(n->col, 1);
        if (n->item->what == AS_PR_V) { /* v₀, v₁ twice each, the V block: made here */
            assert_int_equal(n->verdict, AS_VF_WRONG);
            assert_null(n->from);
            wrong++;
        } else { /* 输出第1格, o₁'s, the O block's column 1: from the printed V */
            assert_int_equal(n->item->what, AS_PR_O);
            assert_int_equal(n->verdict, AS_VF_CARRIED);
            assert_non_null(n->from);
            assert_int_equal(n->from->pos.line, 64);
            assert_int_equal(n->variant.diag, AS_DIAG_NONE);
            /* the true value: A₁₀·1 + A₁₁·19 with the chapter's A (row 0: 1·1) */
            assert_close(n->right, n->row == 0 ? 1.0 : 0.6697615493 + 0.3302384507 * 19, 1e-9);
            carried++;
        }
    }
    assert_int_equal(wrong, 6);
    assert_int_equal(carried, 4);
    verified_free(&w);
}

static void test_a_new_mistake_after_a_carried_one_is_still_wrong(void **state)
{
    char *text = planted(WV_FROM, WV_TO);
    verified w;
    size_t i, carried = 0;

    (void)state;
    memset(&w, 0, sizeof w);
    /* the O block's last number off in its ninth decimal: not what the printed V gives */
    verify_generated(&w, replaced(text, "  [6.6976154933,6.6047690135]]",
                                  "  [6.6976154933,6.6047690153]]"));
    free(text);
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        carried += n->verdict == AS_VF_CARRIED;
        if (n->item->what == AS_PR_O && n->row == 1 && n->col == 1 && n->item->row < 0) {
            assert_int_equal(n->verdict, AS_VF_WRONG);
            assert_null(n->from);
        }
    }
    assert_int_equal(carried, 3);
    verified_free(&w);
}

static void test_a_carried_number_is_told_with_where_the_mistake_was_made(void **state)
{
    char *text = planted(WV_FROM, WV_TO);
    FILE *f = fopen("build/tests/verify-carried.txt", "wb");

    (void)state;
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    assert_int_equal(run("verify --lang en build/tests/verify-carried.txt"), 1);
    assert_file_contains(OUT, "verify-carried.txt:137:25: O row 1, column 1 = 6.6047690135  "
                              "carried from the misprint in v₀ (64:1): right from the printed "
                              "numbers; the true value is 6.9442921121");
    assert_int_equal(run("verify --format json build/tests/verify-carried.txt"), 1);
    assert_file_contains(OUT, "\"verdict\": \"carried\", \"variant\": null, \"from\": \"64:1\"}");
}

/* ---- the positional-encoding chapter (F12 style, tests/data/verify/pe-chapter.py) ---- */

#define PE_CHAPTER "tests/data/verify/F12-positions.zh.txt"

/* The chapter at path, read and verified. */
static void verify_file(verified *w, const char *path)
{
    char *text = slurp(path);

    assert_non_null(text);
    memset(w, 0, sizeof *w);
    verify_generated(w, text);
}

/* The PE chapter with its first from replaced by to, read and verified. */
static void verify_pe_planted(verified *w, const char *from, const char *to)
{
    char *text = slurp(PE_CHAPTER);

    assert_non_null(text);
    memset(w, 0, sizeof *w);
    verify_generated(w, replaced(text, from, to));
    free(text);
}

static void test_the_positions_chapter_verifies_clean_cell_by_cell(void **state)
{
    verified w;
    size_t i;

    (void)state;
    verify_file(&w, PE_CHAPTER);
    assert_int_equal(w.v.count, 16); /* PE [4, 4], its only printed numbers */
    assert_int_equal(w.v.agree, 16);
    for (i = 0; i < w.v.count; i++) {
        assert_int_equal(w.v.num[i].row, (long)(i / 4));
        assert_int_equal(w.v.num[i].col, (long)(i % 4));
        assert_int_equal(w.v.num[i].at.line, 8 + (int)(i / 4));
    }
    /* numpy: cos(1/10000^(2/4)) = cos(0.01), sin(3) */
    assert_close(w.v.num[7].right, 0.9999500004166653, 1e-15);
    assert_close(w.v.num[12].right, 0.1411200080598672, 1e-15);
    verified_free(&w);
}

static void test_a_pe_table_made_with_base_100_is_named_base_100(void **state)
{
    verified w;
    size_t i;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-base100.zh.txt");
    assert_int_equal(w.v.count, 16);
    assert_int_equal(w.v.agree, 10); /* columns 0 and 1 have frequency 1 in either base */
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        const int changed = n->row > 0 && n->col >= 2;
        assert_int_equal(n->verdict, changed ? AS_VF_WRONG : AS_VF_AGREES);
        assert_int_equal(n->vvariant, changed ? AS_VV_PE_BASE_100 : AS_VV_NONE);
    }
    /* printed sin(1/10) = 0.0998; numpy sin(1/100) */
    assert_close(w.v.num[6].printed, 0.0998, 0);
    assert_close(w.v.num[6].right, 0.009999833334166664, 1e-15);
    verified_free(&w);
}

static void test_a_pe_table_with_sin_and_cos_swapped_is_named_swapped(void **state)
{
    verified w;
    size_t i;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-swapped.zh.txt");
    assert_int_equal(w.v.count, 16);
    assert_int_equal(w.v.agree, 0);
    for (i = 0; i < w.v.count; i++) {
        assert_int_equal(w.v.num[i].verdict, AS_VF_WRONG);
        assert_int_equal(w.v.num[i].vvariant, AS_VV_PE_SWAPPED);
    }
    verified_free(&w);
}

static void test_a_wrong_and_a_truncated_pe_number_are_found_at_their_places(void **state)
{
    verified w;

    (void)state;
    verify_pe_planted(&w, "0.9093", "0.9039"); /* sin 2, two digits swapped */
    assert_int_equal(w.v.agree, 15);
    assert_int_equal(w.v.num[8].verdict, AS_VF_WRONG);
    assert_int_equal(w.v.num[8].at.line, 10);
    assert_int_equal(w.v.num[8].at.col, 9);
    assert_close(w.v.num[8].right, 0.9092974268256817, 1e-15);
    assert_int_equal(w.v.num[8].vvariant, AS_VV_NONE);
    assert_int_equal(w.v.num[8].variant.diag, AS_DIAG_NONE);
    verified_free(&w);
    verify_pe_planted(&w, "0.8415", "0.8414"); /* sin 1 = 0.841470…, cut, not rounded */
    assert_int_equal(w.v.agree, 15);
    assert_int_equal(w.v.num[4].verdict, AS_VF_TRUNCATED);
    assert_int_equal(w.v.num[4].at.line, 9);
    verified_free(&w);
}

static void test_the_tools_own_sinusoidal_run_verifies_clean_with_pe_added_to_x(void **state)
{
    (void)state;
    /* Q = (X + PE) @ Wq …: the run adds the printed PE's encoding before the projections */
    assert_int_equal(run("run examples/sinusoidal.txt --force -o build/tests/verify-sinusoidal.txt"), 0);
    assert_int_equal(run("verify build/tests/verify-sinusoidal.txt"), 0);
    assert_file_contains(OUT, "共核对32个数：全部一致。");
    assert_int_equal(run("verify --lang en --format json tests/data/verify/F12-base100.zh.txt"), 1);
    assert_file_contains(OUT, "\"verdict\": \"wrong\", \"variant\": \"pe_base_100\"}");
    assert_int_equal(run("verify --lang en tests/data/verify/F12-swapped.zh.txt"), 1);
    assert_file_contains(OUT, "F12-swapped.zh.txt:8:14: PE row 0, column 0 = 1  wrong: it is 0 "
                              "(exactly what this gives: sin and cos swapped");
}

/* ---- several heads ---- */

/* `run examples/two-heads.txt` as a chapter: per-head blocks named Q₀ … O₁, Q₀K₀ᵀ, S₁.
 * Counted by hand: Q, K, V [3, 4] (36), each head's Q, K, V [3, 2], QKᵀ, S, A [3, 3],
 * O [3, 2] (2 × 51), C [3, 4] (12), O [3, 3] (9): 159. */
#define TWO_HEADS "build/tests/verify-two-heads.txt"
#define TWO_HEADS_NUMBERS 159

static void test_a_chapter_of_two_heads_verifies_clean_head_by_head(void **state)
{
    verified w;
    size_t i, per_head[2] = {0, 0};

    (void)state;
    assert_int_equal(run("run examples/two-heads.txt --force -o " TWO_HEADS), 0);
    assert_int_equal(run("verify " TWO_HEADS), 0);
    assert_file_contains(OUT, "共核对159个数：全部一致。");
    verify_file(&w, TWO_HEADS);
    assert_int_equal(w.v.count, TWO_HEADS_NUMBERS);
    assert_int_equal(w.v.agree, TWO_HEADS_NUMBERS);
    for (i = 0; i < w.v.count; i++)
        if (w.v.num[i].item->head >= 0)
            per_head[w.v.num[i].item->head]++;
    assert_int_equal(per_head[0], 51);
    assert_int_equal(per_head[1], 51);
    verified_free(&w);
}

static void test_a_misprint_in_head_1_is_found_in_head_1(void **state)
{
    char *text;
    verified w;
    size_t i;

    (void)state;
    assert_int_equal(run("run examples/two-heads.txt --force -o " TWO_HEADS), 0);
    text = slurp(TWO_HEADS);
    assert_non_null(text);
    memset(&w, 0, sizeof w);
    /* S₁[0][0] = 1/√2, two digits swapped */
    verify_generated(&w, replaced(text, "[[0.7071067812,", "[[0.7071067821,"));
    free(text);
    assert_int_equal(w.v.agree, TWO_HEADS_NUMBERS - 1);
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        assert_int_equal(n->verdict, AS_VF_WRONG);
        assert_int_equal(n->item->what, AS_PR_S);
        assert_int_equal(n->item->head, 1);
        assert_int_equal(n->at.line, 69);
        assert_close(n->right, sqrt(0.5), 1e-15);
    }
    verified_free(&w);
}

/* ---- the command ---- */

/* ---- the softmax's sub-steps carried (the walk-through of F11) ---- */

/* The F11 walk-through with its shifted row misprinted (0.7171… for 0.7071…) and every
 * number after it in the walk-through made from that row, as an author carries a
 * mistake: the numbers below computed once with /usr/bin/python3 from -0.7171067812
 * (e = exp(s), sum 1 + e, shares 1/sum and e/sum, outputs ×10 and ×20). The blocks
 * printed later (S, A, O) stay right. */
static void test_a_misprinted_shift_is_carried_through_the_softmax_sub_steps(void **state)
{
    static const char *const from_to[][2] = {
        {"减最大值： [0, -0.7071067812]", "减最大值： [0, -0.7171067812]"},
        {"取指数：   [1, 0.4930686914]", "取指数：   [1, 0.4881625759]"},
        {"指数之和： 1.4930686914", "指数之和： 1.4881625759"},
        {"除以总和： [0.6697615493, 0.3302384507]", "除以总和： [0.6719695927, 0.3280304073]"},
        {"≈ 6.6976154933\n", "≈ 6.7196959268\n"},
        {"≈ 6.6047690135\n", "≈ 6.5606081463\n"},
        {"o₁ ≈ [6.6976154933,6.6047690135]", "o₁ ≈ [6.7196959268,6.5606081463]"},
    };
    char *text = planted(NULL, NULL), *next;
    verified w;
    size_t i, k, wrong = 0, carried = 0;

    (void)state;
    for (k = 0; k < sizeof from_to / sizeof from_to[0]; k++) {
        next = replaced(text, from_to[k][0], from_to[k][1]);
        free(text);
        text = next;
    }
    memset(&w, 0, sizeof w);
    verify_generated(&w, text);
    assert_int_equal(w.v.count, F11_NUMBERS);
    assert_int_equal(w.v.agree, F11_NUMBERS - 9); /* exps' 1 still agrees */
    for (i = 0; i < w.v.count; i++) {
        const as_vnumber *n = &w.v.num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        if (n->at.line == 96) { /* the misprint itself, once, with its right value */
            assert_int_equal(n->verdict, AS_VF_WRONG);
            assert_close(n->right, -0.7071067812, 5e-11);
            wrong++;
            continue;
        }
        assert_int_equal(n->verdict, AS_VF_CARRIED); /* 97, 98, 99, 107, 109, 111 */
        assert_non_null(n->from);
        assert_int_equal(n->from->pos.line, 96);
        carried++;
    }
    assert_int_equal(wrong, 1);
    assert_int_equal(carried, 8); /* exps 1, sum 1, shares 2, output cells 2, o₁ 2 */
    verified_free(&w);
}

/* ---- the whole block (tests/data/verify/block-chapter.py, counted in F15-F12-count.md) ---- */

/* How many numbers of w have verdict vd on line `line`, each with variant vv (and, when
 * carried, from line `from`). */
static size_t on_line(const verified *w, int line, as_vverdict vd, as_vvariant vv, int from)
{
    size_t i, k = 0;

    for (i = 0; i < w->v.count; i++) {
        const as_vnumber *n = &w->v.num[i];
        if (n->at.line != line || n->verdict != vd)
            continue;
        assert_int_equal(n->vvariant, vv);
        if (vd == AS_VF_CARRIED)
            assert_int_equal(n->from->pos.line, from);
        k++;
    }
    return k;
}

/* How many numbers of w are carried, every one from line `from`. */
static size_t carried_from_line(const verified *w, int from)
{
    size_t i, k = 0;

    for (i = 0; i < w->v.count; i++)
        if (w->v.num[i].verdict == AS_VF_CARRIED) {
            assert_int_equal(w->v.num[i].from->pos.line, from);
            k++;
        }
    return k;
}

static void test_the_block_chapter_verifies_clean_norm_by_norm(void **state)
{
    verified w;
    size_t i;
    int mean_seen = 0;

    (void)state;
    verify_file(&w, "tests/data/verify/F15-block.zh.txt");
    assert_int_equal(w.v.count, 88);
    assert_int_equal(w.v.agree, 88);
    for (i = 0; i < w.v.count; i++)
        if (w.v.num[i].at.line == 24 && w.v.num[i].row == 1) {
            assert_int_equal(w.v.num[i].item->what, AS_PR_MEAN);
            assert_close(w.v.num[i].right, 2.0 / 3.0, 1e-15); /* μ of [0, 1, 1], by hand */
            mean_seen = 1;
        }
    assert_true(mean_seen);
    verified_free(&w);
}

static void test_the_block_errata_are_found_each_once_where_made(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F15-block-errata.zh.txt");
    assert_int_equal(w.v.count, 88);
    assert_int_equal(w.v.agree, 60);
    assert_int_equal(on_line(&w, 26, AS_VF_WRONG, AS_VV_LN_EPS_OUTSIDE, 0), 2);
    assert_int_equal(on_line(&w, 52, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 56, AS_VF_TRUNCATED, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 66, AS_VF_WRONG, AS_VV_LN_UNBIASED, 0), 2);
    assert_int_equal(on_line(&w, 67, AS_VF_CARRIED, AS_VV_NONE, 66), 2);
    assert_int_equal(on_line(&w, 69, AS_VF_CARRIED, AS_VV_NONE, 66) +
                     on_line(&w, 70, AS_VF_CARRIED, AS_VV_NONE, 66), 6);
    assert_int_equal(carried_from_line(&w, 66), 22);
    verified_free(&w);
}

static void test_a_norm_with_the_unbiased_sigma_and_eps_outside_is_named_in_words(void **state)
{
    (void)state;
    assert_int_equal(run("verify --format md tests/data/verify/F15-block-errata.zh.txt"), 1);
    assert_file_contains(OUT, "| 66:7 | σ²第0行 | 1.4999925001 | 错误：应为0.9999950001"
                              "（正好是这样算出的：方差除以了d−1（无偏估计），LayerNorm除以的是d） |");
    assert_file_contains(OUT, "ε加在了标准差σ上，没有放进根号里");
    assert_file_lacks(OUT, "ln_unbiased");
    assert_int_equal(run("verify --format json tests/data/verify/F15-block-errata.zh.txt"), 1);
    assert_file_contains(OUT, "\"verdict\": \"wrong\", \"variant\": \"ln_unbiased\"");
    assert_file_contains(OUT, "\"verdict\": \"wrong\", \"variant\": \"ln_eps_outside\"");
}

static void test_a_post_block_and_an_rms_block_verify_clean(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F15-post.zh.txt");
    assert_int_equal(w.v.count, 70);
    assert_int_equal(w.v.agree, 70);
    verified_free(&w);
    verify_file(&w, "tests/data/verify/F15-rms.zh.txt");
    assert_int_equal(w.v.count, 80);
    assert_int_equal(w.v.agree, 80);
    verified_free(&w);
}

static void test_a_misprinted_o_is_carried_through_a_post_blocks_norms(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F15-post-errata.zh.txt");
    assert_int_equal(w.v.count, 70);
    assert_int_equal(w.v.agree, 52);
    assert_int_equal(on_line(&w, 38, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 46, AS_VF_CARRIED, AS_VV_NONE, 37), 3); /* H1's row 1 */
    assert_int_equal(carried_from_line(&w, 37), 17);
    verified_free(&w);
}

/* How many numbers of w are carried from the mistake printed at line from. */
static size_t carried_count(const verified *w, int from)
{
    size_t i, k = 0;

    for (i = 0; i < w->v.count; i++)
        k += w->v.num[i].verdict == AS_VF_CARRIED && w->v.num[i].from->pos.line == from;
    return k;
}

/* LLaMA's gated FFN in a pre-LN block (block-chapter.py swiglu: G = SiLU(N2·Wgate),
 * F = G ⊙ U, Y printed as H2 again), clean, then with three errata (swiglu-errata):
 * N1[1][0] misprinted with Q, K, V made from it - row 1 of everything below carries it
 * (by hand: Q[1][0], K[1][1], V[1][0] through Wq, Wk, Wv's row 0; QKᵀ[1][1] (k₀ is 0),
 * S[1][1], A[1] 2, O[1] 3, H1[1] 3, μ σ² and the divisor of row 1, N2[1] 3, U[1] 2,
 * G[1] 2, F[1] 2, D[1] 3, H2[1] 3, Y[1] 2: 33 numbers, G's redone from the printed N2);
 * U[0][1] misprinted and F made from it - F[0][1], D[0][1] and D[0][2] (Wdown's row 1 is
 * [0, 1, -1]), H2[0] and Y[0]'s same two: 7, told as U's although U's row 1 carries
 * N1's (each number by the row it was made from, not by its table); Y[1][2] alone. */
static void test_a_gated_block_carries_each_mistake_from_the_row_it_was_made_from(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F15-swiglu.zh.txt");
    assert_int_equal(w.v.count, 92);
    assert_int_equal(w.v.agree, 92);
    verified_free(&w);
    verify_file(&w, "tests/data/verify/F15-swiglu-errata.zh.txt");
    assert_int_equal(w.v.count, 92);
    assert_int_equal(w.v.agree, 49);
    assert_int_equal(on_line(&w, 28, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 52, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 63, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    assert_int_equal(on_line(&w, 55, AS_VF_CARRIED, AS_VV_NONE, 27), 2); /* G[1] */
    assert_int_equal(on_line(&w, 56, AS_VF_CARRIED, AS_VV_NONE, 52), 1); /* F[0][1] */
    assert_int_equal(on_line(&w, 57, AS_VF_CARRIED, AS_VV_NONE, 27), 2); /* F[1] */
    assert_int_equal(carried_count(&w, 27), 33);
    assert_int_equal(carried_count(&w, 52), 7);
    verified_free(&w);
}

static void test_scores_divided_by_dk_in_the_block_are_named(void **state)
{
    char *text = slurp("tests/data/verify/F15-block.zh.txt");
    verified w;

    (void)state;
    assert_non_null(text);
    memset(&w, 0, sizeof w);
    /* S[1][1] = QKᵀ[1][1] / d_k = -2.9998650061 / 2: -1.499932503037 by numpy (the
     * chapter's script, its QKᵀ halved); the right value is the chapter's own */
    verify_generated(&w, replaced(text, "[            0, -2.1212248884]]",
                                  "[            0, -1.4999325030]]"));
    free(text);
    assert_int_equal(w.v.agree, 87);
    assert_int_equal(on_line(&w, 52, AS_VF_WRONG, AS_VV_NONE, 0), 1);
    /* μ σ² div x̂ N1 (18), Q K V (14), QKᵀ (4), then S[1][1] its 4th: number 39 */
    assert_int_equal(w.v.num[39].at.line, 52);
    assert_int_equal(w.v.num[39].variant.diag, AS_DIAG_SCALE_BY_DK);
    assert_close(w.v.num[39].right, -2.1212248884, 5e-11);
    verified_free(&w);
}

static void test_a_setting_the_chapter_states_wrongly_is_refused_at_its_place(void **state)
{
    char *text = slurp("tests/data/verify/F15-block.zh.txt");
    verified w;
    as_error err;

    (void)state;
    assert_non_null(text);
    memset(&w, 0, sizeof w);
    w.text = replaced(text, "norm: layer", "norm: lauer");
    free(text);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_chapter_parse(&w.ch, w.text, strlen(w.text), "F15.txt", &err), 0);
    assert_int_equal(as_verify_chapter(&w.v, &w.ch, &err), -1);
    assert_int_equal(err.line, 8); /* the settings reader's own message, at the setting */
    verified_free(&w);
}

/* ---- RoPE and ALiBi (tests/data/verify/rope-alibi-chapter.py) ---- */

static void test_the_rope_chapter_verifies_clean_with_its_turned_tables(void **state)
{
    verified w;
    size_t i;
    int seen = 0;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-rope.zh.txt");
    assert_int_equal(w.v.count, 87);
    assert_int_equal(w.v.agree, 87);
    for (i = 0; i < w.v.count; i++)
        if (w.v.num[i].item->what == AS_PR_QR && w.v.num[i].row == 1 && w.v.num[i].col == 3) {
            assert_close(w.v.num[i].right, sin(0.01) + cos(0.01), 1e-15); /* q₁ = [0,1,0,1] */
            seen = 1;
        }
    assert_true(seen);
    verified_free(&w);
}

static void test_a_kr_with_its_pairs_taken_the_other_way_is_named_and_carried(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-rope-errata.zh.txt");
    assert_int_equal(w.v.count, 87);
    assert_int_equal(w.v.agree, 60);
    assert_int_equal(on_line(&w, 44, AS_VF_WRONG, AS_VV_ROPE_PAIRING, 0) +
                     on_line(&w, 45, AS_VF_WRONG, AS_VV_ROPE_PAIRING, 0), 8);
    assert_int_equal(on_line(&w, 41, AS_VF_TRUNCATED, AS_VV_NONE, 0), 1);
    assert_int_equal(carried_from_line(&w, 43), 18);
    verified_free(&w);
}

static void test_the_alibi_chapter_verifies_clean_with_its_bias(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-alibi.zh.txt");
    assert_int_equal(w.v.count, 60);
    assert_int_equal(w.v.agree, 60);
    verified_free(&w);
}

static void test_an_alibi_bias_with_its_sign_turned_is_named_and_carried(void **state)
{
    verified w;

    (void)state;
    verify_file(&w, "tests/data/verify/F12-alibi-errata.zh.txt");
    assert_int_equal(w.v.count, 60);
    assert_int_equal(w.v.agree, 42);
    assert_int_equal(on_line(&w, 29, AS_VF_WRONG, AS_VV_ALIBI_SIGN, 0) +
                     on_line(&w, 30, AS_VF_WRONG, AS_VV_ALIBI_SIGN, 0) +
                     on_line(&w, 31, AS_VF_WRONG, AS_VV_ALIBI_SIGN, 0), 6);
    assert_int_equal(carried_from_line(&w, 29), 12);
    verified_free(&w);
}

/* A chapter need not state the setting its printed tables imply (SPEC §18): Qr/Kr are
 * only made with rope, B only with ALiBi, N1 … Y only in a block. Each chapter with its
 * setting line taken out verifies as clean as with it, to the same hand count
 * (tests/data/verify/F15-F12-count.md). */
static void test_printed_qr_b_or_n1_imply_their_setting_without_its_line(void **state)
{
    static const struct {
        const char *path, *line;
        size_t count;
    } ch[] = {{"tests/data/verify/F12-rope.zh.txt", "positions: rope\n", 87},
              {"tests/data/verify/F12-alibi.zh.txt", "positions: alibi\n", 60},
              {"tests/data/verify/F15-block.zh.txt", "block: pre\n", 88}};
    verified w;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof ch / sizeof ch[0]; i++) {
        char *text = slurp(ch[i].path);

        assert_non_null(text);
        memset(&w, 0, sizeof w);
        verify_generated(&w, replaced(text, ch[i].line, ""));
        free(text);
        assert_int_equal(w.v.count, ch[i].count);
        assert_int_equal(w.v.agree, ch[i].count);
        verified_free(&w);
    }
}

/* F11 with Q printed a column too wide ([2,3]; X @ Wq is [2,2]): no number of it can be
 * compared, so verify refuses the chapter at Q's name (line 119 of the chapter), with
 * both shapes in its words and exit status 2. */
static void test_a_table_printed_a_column_too_wide_is_refused_with_both_shapes(void **state)
{
    char *a = planted("Q = [[0,1],        K", "Q = [[0,1,0],      K");

    (void)state;
    assert_refused_at(replaced(a, "     [1,0]]             [0,1]]", "     [1,0,0]]           [0,1]]"),
                      119, 1, "\xe2\x80\x9cQ\xe2\x80\x9d is printed as [2,3], but the table the "
                              "chapter's X and W make is [2,2]");
    free(a);
}

/* F11 written as a plain-text editor would: rows named with ASCII digits (q1, k0), "~="
 * for a rounded table or row, English captions beside a block, and three names that are
 * no table of the chapter: a word (a1b), a score of two heads at once (Q₀K₁ᵀ) and a given
 * table with a head (X₀). The numbers are the chapter's own; counted by hand: Q 4, q1
 * and k0 4, q1·k0 1, √2 1, QKT 4, S 4 (its −∞ too), o1 2 = 20, all agreeing, and none
 * from the captions or the last three lines. */
static void test_ascii_row_numbers_and_approx_signs_are_read_and_non_tables_skipped(void **state)
{
    static const char text[] =
        "X = [[1, 1],\n"
        "     [1,-1]]\n"
        "Wq = [[0.5, 0.5], [-0.5, 0.5]]\n"
        "Wk = [[0.5, 0.5], [0.5, -0.5]]\n"
        "Wv = [[5, 10], [5, -10]]\n"
        "mask: causal\n"
        "Q = [[0,1],[1,0]]\n"
        "q1=[1,0], k0 = [1,0]\n"
        "q1\xc2\xb7k0 = 1\xc3\x97" "1+0\xc3\x97" "0 = 1\n"
        "\xe2\x88\x9a" "2\xe2\x89\x88" "1.414214\n"
        "QKT = [[0,1],     rows: who receives (Query)\n"
        "       [1,0]]     cols: who gives (Key)\n"
        "S ~= [[0, \xe2\x88\x92\xe2\x88\x9e], [0.7071067812, 0]]\n"
        "o1 ~= [6.6976154933, 6.6047690135]\n"
        "a1b = [1, 2]\n"
        "Q\xe2\x82\x80K\xe2\x82\x81\xe1\xb5\x80 = [[5, 5]]\n"
        "X\xe2\x82\x80 = [[5, 5]]\n";
    verified w;

    (void)state;
    memset(&w, 0, sizeof w);
    verify_generated(&w, strdup(text));
    assert_int_equal(w.v.count, 20);
    assert_int_equal(w.v.agree, 20);
    assert_int_equal(w.v.num[w.v.count - 1].at.line, 14);
    verified_free(&w);
}

/* A chapter's table is read by the one matrix reader (STYLE: one grammar, one message):
 * a row one number short is refused at its "[" (8:6, counted by hand) with the words an
 * input file gets, in either language, exit status 2 and nothing on standard output. */
static void test_a_ragged_table_in_a_chapter_is_refused_as_in_an_input(void **state)
{
    (void)state;
    assert_int_equal(run("verify --lang en tests/data/verify/ragged-q.txt"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "attnstep: tests/data/verify/ragged-q.txt:8:6: error: row 1 of "
                                  "Q has 1 number, but row 0 has 2\n");
    assert_int_equal(run("verify tests/data/verify/ragged-q.txt"), 2);
    assert_file_contains(CLI_ERR, "attnstep: tests/data/verify/ragged-q.txt:8:6: \xe9\x94\x99\xe8\xaf\xaf\xef\xbc\x9a");
}

static void test_the_command_exits_0_clean_1_with_an_erratum_2_for_bad_input(void **state)
{
    char *text = planted("指数之和： 1.4930686914", "指数之和： 1.4930686941");
    FILE *f = fopen("build/tests/verify-erratum.txt", "wb");

    (void)state;
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    assert_int_equal(run("verify " CHAPTER), 0);
    assert_file_contains(OUT, "共核对70个数：全部一致。");
    assert_int_equal(run("verify --lang en build/tests/verify-erratum.txt"), 1);
    assert_file_contains(OUT, "verify-erratum.txt:98:7: 指数之和 = 1.4930686941  wrong: it is 1.4930686914");
    assert_file_contains(OUT, "70 numbers checked: 69 agree, 1 do not.");
    assert_int_equal(run("verify --format md build/tests/verify-erratum.txt"), 1);
    assert_file_contains(OUT, "| 98:7 | 指数之和 | 1.4930686941 | 错误：应为1.4930686914 |");
    assert_int_equal(run("verify --format json build/tests/verify-erratum.txt"), 1);
    assert_file_contains(OUT, "\"printed\": 1.4930686941, \"recomputed\": 1.49306869139");
    assert_file_contains(OUT, "\"verdict\": \"wrong\", \"variant\": null}");
    assert_file_contains(OUT, "\"checked\": 70, \"agree\": 69}");
    assert_int_equal(run("verify tests/data/verify/no-such-chapter.txt"), 2);
    assert_stdout_empty();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_f11_chapter_verifies_clean_number_by_number),
        cmocka_unit_test(test_each_number_is_found_at_its_place),
        cmocka_unit_test(test_the_chapter_spelt_in_ascii_verifies_the_same_numbers),
        cmocka_unit_test(test_a_wrong_digit_is_found_with_its_right_value),
        cmocka_unit_test(test_a_truncated_number_is_reported_as_truncated),
        cmocka_unit_test(test_a_number_rounded_the_other_way_is_reported),
        cmocka_unit_test(test_an_unscaled_score_is_named_no_scale),
        cmocka_unit_test(test_a_score_divided_by_dk_is_named_scale_by_dk),
        cmocka_unit_test(test_an_output_mixed_from_the_keys_is_named),
        cmocka_unit_test(test_200_generated_chapters_verify_clean),
        cmocka_unit_test(test_a_wrong_digit_in_generated_chapters_is_found_with_its_right_value),
        cmocka_unit_test(test_a_truncated_sum_in_generated_chapters_is_reported_as_truncated),
        cmocka_unit_test(test_scores_divided_by_dk_in_generated_chapters_are_named),
        cmocka_unit_test(test_outputs_mixed_from_the_keys_in_generated_chapters_are_named),
        cmocka_unit_test(test_a_chapter_without_x_is_refused_with_its_place),
        cmocka_unit_test(test_a_row_past_the_table_is_refused_at_its_place),
        cmocka_unit_test(test_a_misprint_carried_downstream_is_reported_once_where_it_starts),
        cmocka_unit_test(test_a_new_mistake_after_a_carried_one_is_still_wrong),
        cmocka_unit_test(test_a_carried_number_is_told_with_where_the_mistake_was_made),
        cmocka_unit_test(test_the_positions_chapter_verifies_clean_cell_by_cell),
        cmocka_unit_test(test_a_pe_table_made_with_base_100_is_named_base_100),
        cmocka_unit_test(test_a_pe_table_with_sin_and_cos_swapped_is_named_swapped),
        cmocka_unit_test(test_a_wrong_and_a_truncated_pe_number_are_found_at_their_places),
        cmocka_unit_test(test_the_tools_own_sinusoidal_run_verifies_clean_with_pe_added_to_x),
        cmocka_unit_test(test_a_chapter_of_two_heads_verifies_clean_head_by_head),
        cmocka_unit_test(test_a_misprint_in_head_1_is_found_in_head_1),
        cmocka_unit_test(test_a_misprinted_shift_is_carried_through_the_softmax_sub_steps),
        cmocka_unit_test(test_the_block_chapter_verifies_clean_norm_by_norm),
        cmocka_unit_test(test_the_block_errata_are_found_each_once_where_made),
        cmocka_unit_test(test_a_norm_with_the_unbiased_sigma_and_eps_outside_is_named_in_words),
        cmocka_unit_test(test_a_post_block_and_an_rms_block_verify_clean),
        cmocka_unit_test(test_a_misprinted_o_is_carried_through_a_post_blocks_norms),
        cmocka_unit_test(test_a_gated_block_carries_each_mistake_from_the_row_it_was_made_from),
        cmocka_unit_test(test_scores_divided_by_dk_in_the_block_are_named),
        cmocka_unit_test(test_a_setting_the_chapter_states_wrongly_is_refused_at_its_place),
        cmocka_unit_test(test_the_rope_chapter_verifies_clean_with_its_turned_tables),
        cmocka_unit_test(test_a_kr_with_its_pairs_taken_the_other_way_is_named_and_carried),
        cmocka_unit_test(test_the_alibi_chapter_verifies_clean_with_its_bias),
        cmocka_unit_test(test_an_alibi_bias_with_its_sign_turned_is_named_and_carried),
        cmocka_unit_test(test_printed_qr_b_or_n1_imply_their_setting_without_its_line),
        cmocka_unit_test(test_a_table_printed_a_column_too_wide_is_refused_with_both_shapes),
        cmocka_unit_test(test_ascii_row_numbers_and_approx_signs_are_read_and_non_tables_skipped),
        cmocka_unit_test(test_a_ragged_table_in_a_chapter_is_refused_as_in_an_input),
        cmocka_unit_test(test_the_command_exits_0_clean_1_with_an_erratum_2_for_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
