/* test_exercise.c - the exercise generator (SPEC §7) and its worksheets. The promises
 * are checked here by loops of the test's own on the real run of each exercise, not by
 * the generator's checks; the PRNG's numbers come from the published splitmix64
 * reference (Vigna's splitmix64.c), recomputed with an independent Python transcription. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_exercise.out"
#define CLI_ERR "build/tests/test_exercise.err"
#include "attnstep/check.h"
#include "attnstep/exercise.h"
#include "attnstep/prng.h"
#include "cli_util.h"
#include "exercise_util.h"
#include "test_util.h"

#define SEEDS 20
#define PROMISE_SEEDS 200 /* SPEC §7: "over 200 seeds at each level" */

/* ---- helpers ---- */

static char *make_in(unsigned long seed, int level, as_lang lang, as_exercise_opts *o,
                     size_t *len)
{
    as_error err;
    char *text;

    memset(o, 0, sizeof *o);
    as_error_init(&err, AS_LANG_EN);
    o->seed = seed;
    o->level = level;
    o->lang = lang;
    assert_int_equal(as_exercise_settle(o, &err), 0);
    if (as_exercise_make(&text, len, o, &err) != 0) {
        print_error("seed %lu level %d: %s\n", seed, level, err.msg);
        fail();
    }
    return text;
}

static char *make(unsigned long seed, int level, as_exercise_opts *o, size_t *len)
{
    return make_in(seed, level, AS_LANG_ZH, o, len);
}

static int whole(const as_matrix *m)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (m->v[i] != floor(m->v[i]))
            return 0;
    return 1;
}

/* Nonzero when every entry is a multiple of 1/den. */
static int multiples_of(const as_matrix *m, double den)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (m->v[i] * den != floor(m->v[i] * den))
            return 0;
    return 1;
}

static void assert_no_zero_row(const as_matrix *m)
{
    size_t i, j, nonzero;

    for (i = 0; i < m->rows; i++) {
        for (nonzero = 0, j = 0; j < m->cols; j++)
            nonzero += AS_AT(*m, i, j) != 0;
        assert_true(nonzero > 0);
    }
}

/* The last row (the walk-through's) reads at least two positions with different scores. */
static void assert_distinct_scores(const as_matrix *S)
{
    const size_t i = S->rows - 1;
    size_t j, readable = 0;
    double lo = INFINITY, hi = -INFINITY;

    for (j = 0; j < S->cols; j++) {
        const double s = AS_AT(*S, i, j);
        if (s == -INFINITY)
            continue;
        readable++;
        lo = fmin(lo, s);
        hi = fmax(hi, s);
    }
    assert_true(readable >= 2);
    assert_true(hi > lo);
}

/* No two rows of X proportional (a zero row counts as proportional to every row). */
static void assert_no_proportional_rows(const as_matrix *x)
{
    size_t i, k, a, b;

    for (i = 0; i < x->rows; i++)
        for (k = i + 1; k < x->rows; k++) {
            int differ = 0;
            for (a = 0; a < x->cols; a++)
                for (b = 0; b < x->cols; b++)
                    differ |= fabs(AS_AT(*x, i, a) * AS_AT(*x, k, b) -
                                   AS_AT(*x, i, b) * AS_AT(*x, k, a)) > 1e-12;
            assert_true(differ);
        }
}

/* Every readable share of the walk-through (last) row is at least 0.05. */
static void assert_no_near_one_hot(const as_matrix *S, const as_matrix *A)
{
    const size_t i = S->rows - 1;
    size_t j;

    for (j = 0; j < S->cols; j++)
        if (AS_AT(*S, i, j) != -INFINITY && AS_AT(*A, i, j) < 0.05) {
            print_error("share %zu of the walk-through row is %g\n", j, AS_AT(*A, i, j));
            fail();
        }
}

/* Every entry written with at most 2 decimal places. */
static void assert_two_places(const as_matrix *m)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (fabs(m->v[i] * 100 - nearbyint(m->v[i] * 100)) > 1e-9) {
            print_error("%.17g has more than 2 decimal places\n", m->v[i]);
            fail();
        }
}

static void assert_small_scores(const as_matrix *qkt)
{
    size_t i;

    for (i = 0; i < qkt->rows * qkt->cols; i++)
        assert_true(fabs(qkt->v[i]) <= 10);
}

/* The level's promises (SPEC §7) on the real run of one exercise. */
static void assert_level_promises(const as_session *s, int level)
{
    const as_head_trace *h = &s->t.head[0];

    assert_no_zero_row(&s->t.Q);
    assert_no_zero_row(&s->t.K);
    assert_no_zero_row(&s->t.V);
    assert_no_proportional_rows(s->p.X);
    assert_distinct_scores(&h->S);
    assert_no_near_one_hot(&h->S, &h->A);
    if (level <= 2) {
        assert_true(whole(&s->t.Q) && whole(&s->t.K) && whole(&s->t.V) && whole(&h->QKT));
        assert_small_scores(&h->QKT);
    }
    if (level == 1) {
        assert_true(s->p.d_k == 1 || s->p.d_k == 4);
        assert_true(whole(s->p.X) && whole(s->p.Wq) && whole(s->p.Wk) && whole(s->p.Wv));
    } else if (level == 2) {
        assert_int_equal(s->p.d_k, 2);
        assert_true(multiples_of(s->p.Wq, 2) && multiples_of(s->p.Wk, 2));
        assert_false(whole(s->p.Wq) && whole(s->p.Wk)); /* halves, as in F11 */
    } else {
        assert_true(s->p.n <= 5);
        assert_true(s->p.d_v != s->p.d_k);
        assert_two_places(&s->t.Q);
        assert_two_places(&s->t.K);
        assert_two_places(&s->t.V);
        assert_two_places(&h->QKT);
        assert_false(whole(s->p.X) && whole(s->p.Wq) && whole(s->p.Wk) && whole(s->p.Wv));
    }
}

/* ---- tests ---- */

static void test_prng_matches_the_splitmix64_reference(void **state)
{
    as_prng g;

    (void)state;
    as_prng_seed(&g, 0);
    assert_true(as_prng_next(&g) == UINT64_C(0xe220a8397b1dcdaf));
    assert_true(as_prng_next(&g) == UINT64_C(0x6e789e6aa1b965f4));
    as_prng_seed(&g, 1234567);
    assert_true(as_prng_next(&g) == UINT64_C(6457827717110365317));
    assert_true(as_prng_next(&g) == UINT64_C(3203168211198807973));
}

static void test_prng_range_stays_inside_and_reaches_both_ends(void **state)
{
    as_prng g;
    int seen[5] = {0}, i;

    (void)state;
    as_prng_seed(&g, 42);
    for (i = 0; i < 1000; i++) {
        long v = as_prng_range(&g, -2, 2);
        assert_true(v >= -2 && v <= 2);
        seen[v + 2] = 1;
    }
    for (i = 0; i < 5; i++)
        assert_true(seen[i]);
}

/* Calls fn for every level and the seeds 1 to SEEDS. */
static void each_exercise(void (*fn)(unsigned long seed, int level))
{
    unsigned long seed;
    int level;

    for (level = 1; level <= 3; level++)
        for (seed = 1; seed <= SEEDS; seed++)
            fn(seed, level);
}

/* Over 200 seeds at each level, in the level's default sizes and in a larger one (level
 * 1 with d_k 1, level 2 with 3 tokens, level 3 with 5 tokens and d_v 2), every promise
 * of SPEC §7 holds on the real run (parse, build, run) of the text the generator wrote. */
static void test_200_seeds_at_each_level_keep_every_promise(void **state)
{
    static const struct {
        int level;
        size_t tokens, dk, dv;
    } kind[] = {{1, 0, 0, 0}, {1, 3, 1, 2}, {2, 0, 0, 0}, {2, 3, 0, 0}, {3, 0, 0, 0}, {3, 5, 2, 3},
                {3, 4, 3, 2}};
    as_exercise_opts o;
    as_session s;
    as_error err;
    unsigned long seed;
    size_t i, len;
    char *text;

    (void)state;
    for (i = 0; i < sizeof kind / sizeof kind[0]; i++)
        for (seed = 1000; seed < 1000 + PROMISE_SEEDS; seed++) {
            memset(&o, 0, sizeof o);
            as_error_clear(&err);
            o.seed = seed;
            o.level = kind[i].level;
            o.tokens = kind[i].tokens;
            o.dk = kind[i].dk;
            o.dv = kind[i].dv;
            assert_int_equal(as_exercise_settle(&o, &err), 0);
            if (as_exercise_make(&text, &len, &o, &err) != 0) {
                print_error("level %d seed %lu: %s\n", o.level, seed, err.msg);
                fail();
            }
            open_exercise(&s, text, len);
            assert_level_promises(&s, o.level);
            as_session_free(&s);
            free(text);
        }
}

static void gives_the_same_bytes_twice(unsigned long seed, int level)
{
    as_exercise_opts o;
    size_t la, lb;
    char *a = make(seed, level, &o, &la), *b = make(seed, level, &o, &lb);

    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    free(a);
    free(b);
}

static void test_same_seed_gives_the_same_bytes(void **state)
{
    (void)state;
    each_exercise(gives_the_same_bytes_twice);
}

/* The numbers after the header: what makes two exercises different. */
static const char *body(const char *text)
{
    const char *x = strstr(text, "\nX = ");

    assert_non_null(x);
    return x;
}

static void test_another_seed_gives_another_exercise(void **state)
{
    as_exercise_opts o;
    char *text[SEEDS];
    size_t len, i, j;
    int level;

    (void)state;
    for (level = 1; level <= 3; level++) {
        for (i = 0; i < SEEDS; i++)
            text[i] = make(i + 1, level, &o, &len);
        for (i = 0; i < SEEDS; i++)
            for (j = 0; j < i; j++)
                assert_string_not_equal(body(text[i]), body(text[j]));
        for (i = 0; i < SEEDS; i++)
            free(text[i]);
    }
}

/* The bytes of one exercise, pinned: the same on every machine. Checked by hand that it
 * keeps the level-2 promises: Q = X Wq = [[3,0],[2,-1]], K = X Wk = [[-1,-1],[-2,-1]],
 * V = X Wv = [[-1,-2],[4,3]], QKᵀ = [[-3,-6],[-1,-3]]: whole numbers, halves in Wq
 * and Wk, the last row's scores -1 and -3 differ. */
static void test_seed_1_level_2_is_pinned_to_these_bytes(void **state)
{
    static const char want[] =
        "# attnstep exercise: level 2, seed 1\n"
        "# the same command makes the same exercise: attnstep exercise --level 2 --seed 1 "
        "--tokens 2 --width 2 --dk 2 --dv 2 --mask causal --lang en\n"
        "# Compute Q, K, V, QK\xe1\xb5\x80, S, A and O by hand, then check with attnstep run.\n"
        "tokens: I like\n"
        "mask: causal\n"
        "ask: Q K V QKT S A O\n" /* what check marks every student out of (SPEC §6) */
        "\n"
        "X = [[-1,-2],      # row 0 is \xe2\x80\x9cI\xe2\x80\x9d\n"
        "     [ 0,-2]]      # row 1 is \xe2\x80\x9clike\xe2\x80\x9d\n"
        "\n"
        "Wq = [[-1,  -1],    Wk = [[-1,   0],    Wv = [[ 5,    5],\n"
        "      [-1, 0.5]]          [ 1, 0.5]]          [-2, -1.5]]\n";
    as_exercise_opts o;
    char *text;
    size_t len;

    (void)state;
    text = make_in(1, 2, AS_LANG_EN, &o, &len);
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(text, want, len);
    free(text);
}

static void test_level_rules_refuse_what_they_cannot_keep(void **state)
{
    static const struct {
        int level;
        size_t tokens, dk, dv;
    } bad[] = {{1, 0, 2, 0}, {2, 0, 3, 0}, {3, 0, 2, 2}, {3, 6, 0, 0}, {2, 1, 0, 0}, {2, 9, 0, 0}};
    as_exercise_opts o;
    as_error err;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&o, 0, sizeof o);
        as_error_init(&err, AS_LANG_EN);
        o.level = bad[i].level;
        o.tokens = bad[i].tokens;
        o.dk = bad[i].dk;
        o.dv = bad[i].dv;
        assert_int_equal(as_exercise_settle(&o, &err), -1);
        assert_true(err.set);
    }
}

/* A level outside 1 to 3, given to the library directly (the command line refuses it
 * first), is refused by the same rule, with the hint that level 2 is the chapter's. */
static void test_a_level_outside_1_to_3_is_refused(void **state)
{
    as_exercise_opts o;
    as_error err;

    (void)state;
    memset(&o, 0, sizeof o);
    as_error_init(&err, AS_LANG_EN);
    o.level = 4;
    assert_int_equal(as_exercise_settle(&o, &err), -1);
    assert_string_equal(err.msg, "--level takes 1, 2 or 3");
    assert_string_equal(err.hint, "level 2 is like the chapter");
    o.level = -1;
    as_error_init(&err, AS_LANG_ZH);
    assert_int_equal(as_exercise_settle(&o, &err), -1);
    assert_string_equal(err.msg, "--level只能取1、2或3");
    assert_string_equal(err.hint, "第2级和书中的例子一样");
}

/* --width 1: X has one column, any two rows are proportional (two tokens ask the same
 * question), so no draw could keep that promise: refused before any draw, at every
 * level, saying why and what to do (it used to draw 20,000 times, 0.8 s, then say "no
 * exercise of these sizes"). */
static void test_width_one_is_refused_before_drawing(void **state)
{
    as_exercise_opts o;
    as_error err;
    int level;

    (void)state;
    for (level = 1; level <= 3; level++) {
        memset(&o, 0, sizeof o);
        as_error_init(&err, AS_LANG_EN);
        o.level = level;
        o.width = 1;
        assert_int_equal(as_exercise_settle(&o, &err), -1);
        assert_non_null(strstr(err.msg, "with --width 1, X has one column"));
        assert_string_equal(err.hint, "use --width 2 or more");
    }
    as_error_init(&err, AS_LANG_ZH);
    assert_int_equal(as_exercise_settle(&o, &err), -1);
    assert_non_null(strstr(err.msg, "任意两行都成比例"));
    o.width = 2; /* the smallest width that works */
    o.tokens = 0;
    assert_int_equal(as_exercise_settle(&o, &err), 0);
}

/* Sizes that are hard to fit (8 tokens at level 2: their X must use every direction of
 * [-2, 2]² and its Q, K, V no zero row) give up with the message of sizes, and the
 * exercises of sizes that fit are the ones they were (the drafts a run would refuse are
 * no longer written out and run, but drawn all the same). */
static void test_sizes_hard_to_fit_give_up_with_their_message(void **state)
{
    as_exercise_opts o;
    as_error err;
    char *text = NULL;
    size_t len;

    (void)state;
    memset(&o, 0, sizeof o);
    o.level = 2;
    o.tokens = 8;
    o.seed = 1;
    o.lang = AS_LANG_EN;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_exercise_settle(&o, &err), 0);
    assert_int_equal(as_exercise_make(&text, &len, &o, &err), -1);
    assert_null(text);
    assert_string_equal(err.msg, "no exercise of these sizes keeps every promise of level 2");
}

/* The key, read back by check, is right for its own exercise. */
static void key_checks_as_right(unsigned long seed, int level)
{
    as_render_opts ro = {.lang = AS_LANG_ZH, .digits = 10, .row = -1};
    as_exercise_opts o;
    as_session s;
    as_answers a;
    as_grade g;
    as_error err;
    char *key, *text;
    size_t len, klen;
    FILE *mem = open_memstream(&key, &klen);

    text = make(seed, level, &o, &len);
    open_exercise(&s, text, len);
    assert_int_equal(as_exercise_key(mem, &s.t, &o, &ro), 0);
    fclose(mem);
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_answers_parse(&a, key, klen, "key", &err), 0);
    assert_int_equal(as_check_grade(&g, &s.p, &s.t, &a, &(as_check_opts){-1, 0, NULL, 0}, &err), 0);
    assert_true(g.correct);
    assert_int_equal(g.count, 7);
    as_grade_free(&g);
    as_answers_free(&a);
    as_session_free(&s);
    free(text);
    free(key);
}

static void test_answer_key_checks_as_right(void **state)
{
    (void)state;
    each_exercise(key_checks_as_right);
}

static void test_exercise_command_writes_what_run_and_check_accept(void **state)
{
    (void)state;
    assert_int_equal(run("exercise --seed 4 --level 3 -o build/tests/ex4.txt --force"), 0);
    assert_int_equal(run("exercise --seed 4 --level 3 --answers -o build/tests/ex4-key.txt "
                         "--force"), 0);
    assert_int_equal(run("run build/tests/ex4.txt"), 0);
    assert_int_equal(run("check build/tests/ex4.txt build/tests/ex4-key.txt"), 0);
    assert_int_equal(run("exercise --seed 4 --format latex --lang en"), 0);
    assert_file_contains(CLI_OUT, "level 2, seed 4");
    assert_int_equal(run("exercise --format json"), 2);
    assert_int_equal(run("exercise --level 2 --dk 3 --lang en"), 2);
    assert_file_contains(CLI_ERR, "level 2 takes --dk 2");
    assert_int_equal(run("exercise --level 2 --dk 3"), 2);
    assert_file_contains(CLI_ERR, "第2级要求--dk为2");
    /* SPEC: an exercise is computed by hand, at most 8 wide in X, in d_k and in d_v; 9 of
     * any is refused before anything is drawn */
    assert_int_equal(run("exercise --width 9 --seed 1 --lang en"), 2);
    assert_file_contains(CLI_ERR, "error: an exercise has at most 8 tokens and widths of at most 8");
    assert_file_contains(CLI_ERR, "hint: it is meant to be computed by hand");
    assert_stdout_empty();
    assert_int_equal(run("exercise --dk 9 --seed 1"), 2);
    assert_file_contains(CLI_ERR, "错误：一道练习最多8个Token，各个宽度最多为8");
    assert_file_contains(CLI_ERR, "提示：练习是要用手算的");
    assert_stdout_empty();
    assert_int_equal(run("exercise --dv 9 --seed 1 --lang en"), 2);
    assert_file_contains(CLI_ERR, "widths of at most 8");
    assert_stdout_empty();
}

/* Nonzero when every 2x2 minor of m is zero: rank at most 1 (the test's own check). */
static int all_minors_zero(const as_matrix *m)
{
    size_t i, k, a, b;

    for (i = 0; i < m->rows; i++)
        for (k = i + 1; k < m->rows; k++)
            for (a = 0; a < m->cols; a++)
                for (b = a + 1; b < m->cols; b++)
                    if (fabs(AS_AT(*m, i, a) * AS_AT(*m, k, b) - AS_AT(*m, i, b) * AS_AT(*m, k, a)) > 1e-12)
                        return 0;
    return 1;
}

/* Level 3 never draws a rank-1 W table (issue 28): one would put every Query (Key,
 * Value) on one line, and the scores say nothing a level-3 student should work for.
 * Before the rule about half of the level-3 seeds drew one. */
static void test_level_3_draws_no_rank_one_w_table(void **state)
{
    unsigned long seed;

    (void)state;
    for (seed = 1; seed <= 60; seed++) {
        as_exercise_opts o;
        as_session s;
        size_t len;
        char *text = make(seed, 3, &o, &len);
        open_exercise(&s, text, len);
        assert_false(all_minors_zero(s.p.Wq));
        assert_false(all_minors_zero(s.p.Wk));
        assert_false(all_minors_zero(s.p.Wv));
        as_session_free(&s);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prng_matches_the_splitmix64_reference),
        cmocka_unit_test(test_prng_range_stays_inside_and_reaches_both_ends),
        cmocka_unit_test(test_200_seeds_at_each_level_keep_every_promise),
        cmocka_unit_test(test_same_seed_gives_the_same_bytes),
        cmocka_unit_test(test_another_seed_gives_another_exercise),
        cmocka_unit_test(test_seed_1_level_2_is_pinned_to_these_bytes),
        cmocka_unit_test(test_level_rules_refuse_what_they_cannot_keep),
        cmocka_unit_test(test_a_level_outside_1_to_3_is_refused),
        cmocka_unit_test(test_width_one_is_refused_before_drawing),
        cmocka_unit_test(test_sizes_hard_to_fit_give_up_with_their_message),
        cmocka_unit_test(test_answer_key_checks_as_right),
        cmocka_unit_test(test_exercise_command_writes_what_run_and_check_accept),
        cmocka_unit_test(test_level_3_draws_no_rank_one_w_table),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
