/* test_exercise_sample.c - `exercise --step sample`, the output head's drill (SPEC §19,
 * issue 35). The generated numbers are checked against the test's own computation:
 * logits ÷ T, top-k or top-p, the softmax with exp() and the renormalisation written out
 * here, and the draw from the published splitmix64 (Vigna's splitmix64.c constants) with
 * u = the top 53 bits × 2^-53, none of it the library's. The key goes back through
 * check; a student who applies T after the softmax is named; the sheets in both
 * languages say the chapter's words; Moodle offers the mistake's numbers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_exercise_sample.out"
#define CLI_ERR "build/tests/test_exercise_sample.err"
#include "attnstep/exercise.h"
#include "cli_util.h"
#include "test_util.h"

#define SEEDS 200
#define MAXV 8
#define TMP "build/tests/test_exercise_sample"

/* ---- the test's own head ---- */

typedef struct hand {
    size_t vocab, kept, token;
    double probs[MAXV]; /* after the cut, renormalised */
    double u;
} hand;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Softmax of x[n] over the finite entries (-inf: 0), by exp() and a sum. */
static void softmax(double *p, const double *x, size_t n)
{
    double max = -INFINITY, sum = 0;
    size_t i;

    for (i = 0; i < n; i++)
        if (x[i] > max)
            max = x[i];
    for (i = 0; i < n; i++)
        sum += p[i] = isinf(x[i]) ? 0 : exp(x[i] - max);
    for (i = 0; i < n; i++)
        p[i] /= sum;
}

/* Index of the r-th largest of x[n] (distinct values). */
static size_t rank_of(const double *x, size_t n, size_t r)
{
    size_t i, j, above;

    for (i = 0; i < n; i++) {
        for (above = 0, j = 0; j < n; j++)
            above += x[j] > x[i];
        if (above == r)
            return i;
    }
    fail_msg("no rank %zu", r);
    return 0;
}

/* The head by hand: ÷T (t_first) or not, top-k, softmax, top-p, renormalised. */
static void by_hand(hand *h, const double *logit, size_t n, double t, size_t k, double p,
                    int seeded, unsigned long seed)
{
    double x[MAXV] = {0}, q[MAXV] = {0}, cum = 0, sum = 0;
    size_t i, r;

    assert_true(n <= MAXV);
    h->vocab = n;
    for (i = 0; i < n; i++)
        x[i] = logit[i] / t;
    if (k > 0)
        for (r = k; r < n; r++)
            x[rank_of(logit, n, r)] = -INFINITY; /* ÷T keeps the order */
    softmax(q, x, n);
    if (p > 0) { /* the fewest from the top whose sum reaches p, the crossing one kept */
        int keep[MAXV] = {0};
        for (r = 0; r < n && cum < p; r++) {
            keep[rank_of(logit, n, r)] = 1;
            cum += q[rank_of(logit, n, r)];
        }
        for (i = 0; i < n; i++)
            if (!keep[i])
                x[i] = -INFINITY;
        softmax(q, x, n);
    }
    for (h->kept = 0, i = 0; i < n; i++) {
        h->probs[i] = q[i];
        h->kept += q[i] > 0;
    }
    h->token = 0;
    h->u = 0;
    if (!seeded) {
        for (i = 1; i < n; i++)
            if (q[i] > q[h->token])
                h->token = i;
        return;
    }
    {
        uint64_t st = seed;
        h->u = (double)(splitmix64(&st) >> 11) / 9007199254740992.0;
    }
    for (i = 0; i < n; i++) {
        sum += q[i];
        if (q[i] > 0 && sum > h->u) {
            h->token = i;
            return;
        }
    }
    fail_msg("u = %g beyond the sums", h->u);
}

/* ---- helpers ---- */

static char *make(unsigned long seed, as_lang lang, size_t *len)
{
    as_exercise_opts o;
    as_error err;
    char *text;

    memset(&o, 0, sizeof o);
    as_error_init(&err, AS_LANG_EN);
    o.seed = seed;
    o.lang = lang;
    o.step = AS_STEP_SAMPLE;
    assert_int_equal(as_exercise_settle(&o, &err), 0);
    if (as_exercise_make(&text, len, &o, &err) != 0) {
        print_error("seed %lu: %s\n", seed, err.msg);
        fail();
    }
    return text;
}

static void open_text(as_session *s, const char *text, size_t len)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_exercise_open(s, text, len, &err) != 0) {
        print_error("the drill does not run: %s\n%s\n", err.msg, text);
        fail();
    }
}

/* The test's own head on the drill's written numbers. */
static void hand_of(hand *h, const as_session *s)
{
    const as_problem *p = &s->p;

    assert_int_equal(p->X->rows, 1);
    by_hand(h, p->X->v, p->X->cols, p->temperature, p->top_k, p->top_p, p->seeded,
            (unsigned long)p->seed);
}

/* ---- the numbers ---- */

static void test_sample_drill_numbers_match_a_hand_computation(void **state)
{
    unsigned long seed;
    int topk = 0, topp = 0, drawn = 0, greedy = 0;

    (void)state;
    for (seed = 1; seed <= SEEDS; seed++) {
        size_t len, i;
        char *text = make(seed, AS_LANG_EN, &len);
        as_session s;
        hand h;

        open_text(&s, text, len);
        hand_of(&h, &s);
        /* hand-friendly: 3-5 tokens, T 0.5 or 2, logits/T whole, one cut */
        assert_true(h.vocab >= 3 && h.vocab <= 5);
        assert_true(s.p.temperature == 0.5 || s.p.temperature == 2);
        for (i = 0; i < h.vocab; i++) {
            const double x = s.p.X->v[i] / s.p.temperature;
            assert_true(x == floor(x) && fabs(x) <= 2);
        }
        assert_true((s.p.top_k > 0) != (s.p.top_p > 0));
        topk += s.p.top_k > 0;
        topp += s.p.top_p > 0;
        drawn += s.p.seeded != 0;
        greedy += !s.p.seeded;
        /* at least two kept, at least one cut away */
        assert_true(h.kept >= 2 && h.kept < h.vocab);
        for (i = 0; i < h.vocab; i++)
            assert_close(s.out.final.v[i], h.probs[i], 1e-12);
        assert_int_equal(s.out.token, h.token);
        if (s.p.seeded)
            assert_true(s.out.u == h.u);
        as_session_free(&s);
        free(text);
    }
    /* the seed varies the cut and the draw */
    assert_true(topk > 20 && topp > 20 && drawn > 20 && greedy > 20);
}

/* The same seed, the same bytes; the comment remakes it with --step sample. */
static void test_sample_drill_is_the_same_for_the_same_seed(void **state)
{
    size_t a, b;
    char *x = make(17, AS_LANG_ZH, &a), *y = make(17, AS_LANG_ZH, &b);

    (void)state;
    assert_int_equal(a, b);
    assert_memory_equal(x, y, a);
    assert_non_null(strstr(x, "--step sample"));
    assert_non_null(strstr(x, "ask: probs"));
    free(x);
    free(y);
}

/* ---- check ---- */

/* Writes the drill of seed to TMP.in.txt; returns its session's hand head in h. */
static void drill_file(unsigned long seed, hand *h)
{
    size_t len;
    char *text = make(seed, AS_LANG_EN, &len);
    as_session s;

    write_text(TMP ".in.txt", text);
    open_text(&s, text, len);
    hand_of(h, &s);
    as_session_free(&s);
    free(text);
}

static void test_sample_key_read_back_through_check_is_all_right(void **state)
{
    unsigned long seed;

    (void)state;
    for (seed = 1; seed <= 10; seed++) {
        char args[128];
        snprintf(args, sizeof args, "exercise --step sample --seed %lu --lang en --answers", seed);
        assert_int_equal(run(args), 0);
        assert_int_equal(sh("cp " CLI_OUT " " TMP ".key.txt"), 0);
        snprintf(args, sizeof args, "exercise --step sample --seed %lu --lang en", seed);
        assert_int_equal(run(args), 0);
        assert_int_equal(sh("cp " CLI_OUT " " TMP ".in.txt"), 0);
        assert_int_equal(run("check --lang en " TMP ".in.txt " TMP ".key.txt"), 0);
        assert_file_contains(CLI_OUT, "all right: 1 table\n");
    }
}

/* A student's probs written to 2 places from the test's own numbers. */
static void write_probs(const double *q, size_t n)
{
    char text[256];
    size_t i, used = 0;

    used += (size_t)snprintf(text, sizeof text, "probs = [[");
    for (i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%.2f", i ? ", " : "", q[i]);
    snprintf(text + used, sizeof text - used, "]]\n");
    write_text(TMP ".student.txt", text);
}

static void test_sample_temperature_after_softmax_is_named(void **state)
{
    unsigned long seed;

    (void)state;
    for (seed = 1; seed <= 10; seed++) {
        as_session s;
        hand right, wrong;
        size_t len;
        char *text = make(seed, AS_LANG_EN, &len);

        write_text(TMP ".in.txt", text);
        open_text(&s, text, len);
        hand_of(&right, &s);
        /* T after the softmax and the renormalisation is no T at all: the head at T = 1 */
        by_hand(&wrong, s.p.X->v, s.p.X->cols, 1.0, s.p.top_k, s.p.top_p, 0, 0);
        write_probs(wrong.probs, wrong.vocab);
        assert_int_equal(run("check --lang en " TMP ".in.txt " TMP ".student.txt"), 1);
        assert_file_contains(CLI_OUT, "temperature_after_softmax");
        assert_int_equal(run("check " TMP ".in.txt " TMP ".student.txt"), 1);
        assert_file_contains(CLI_OUT, "temperature_after_softmax");
        /* the right numbers to 2 places are right */
        write_probs(right.probs, right.vocab);
        assert_int_equal(run("check --lang en " TMP ".in.txt " TMP ".student.txt"), 0);
        as_session_free(&s);
        free(text);
    }
}

/* ---- the sheets ---- */

/* The drill of seed as a session (for what its sheet must say). */
static void drill_session(unsigned long seed, as_session *s)
{
    size_t len;
    char *text = make(seed, AS_LANG_EN, &len);

    open_text(s, text, len);
    free(text);
}

static void test_sample_sheet_says_the_chapter_words_in_chinese(void **state)
{
    as_session s;
    char want[160];

    (void)state;
    drill_session(1, &s);
    assert_int_equal(run("exercise --step sample --seed 1 --format md --exp-table --answers"), 0);
    assert_file_contains(CLI_OUT, "输出头与抽样（求probs和抽到的词）");
    snprintf(want, sizeof want, "先把logits除以温度T = %g，再做softmax，然后按下面的规则裁剪",
             s.p.temperature);
    assert_file_contains(CLI_OUT, want);
    if (s.p.top_k > 0)
        snprintf(want, sizeof want, "裁剪用top-k：只留下最大的%zu个词，其余的词概率为0。", s.p.top_k);
    else
        snprintf(want, sizeof want, "留下累计和刚达到%g的最少几个词", s.p.top_p);
    assert_file_contains(CLI_OUT, want);
    assert_file_contains(CLI_OUT, s.p.seeded ? "然后抽样：随机数u = " : "然后用贪心选出下一个词");
    assert_file_contains(CLI_OUT, "F09演示的随机抽样");
    assert_file_contains(CLI_OUT, "用权重对Value做确定的加权求和。");
    assert_file_contains(CLI_OUT, "抽到的词（编号）：");
    assert_file_contains(CLI_OUT, "**probs** ≈");
    snprintf(want, sizeof want, "抽到的词：%zu", s.out.token);
    assert_file_contains(CLI_OUT, want);
    assert_file_contains(CLI_OUT, "| eˣ |");
    assert_file_lacks(CLI_OUT, "O = AV"); /* the layer's tables are not asked */
    assert_file_lacks(CLI_OUT, "top_p:");  /* no input syntax shown to a student */
    assert_file_lacks(CLI_OUT, "top_k:");
    as_session_free(&s);
}

static void test_sample_sheet_says_the_chapter_words_in_english(void **state)
{
    unsigned long seed;
    int greedy = 0, drawn = 0;

    (void)state;
    for (seed = 1; seed <= 6; seed++) {
        as_session s;
        char want[160], args[96];
        drill_session(seed, &s);
        snprintf(args, sizeof args, "exercise --step sample --seed %lu --format md --lang en", seed);
        assert_int_equal(run(args), 0);
        assert_file_contains(CLI_OUT, "the output head and the draw (probs and the token drawn)");
        snprintf(want, sizeof want, "Divide logits by the temperature T = %g first",
                 s.p.temperature);
        assert_file_contains(CLI_OUT, want);
        if (s.p.top_k > 0)
            snprintf(want, sizeof want, "The cut is top-k: keep the %zu largest", s.p.top_k);
        else
            snprintf(want, sizeof want, "keep the fewest tokens whose sum reaches %g", s.p.top_p);
        assert_file_contains(CLI_OUT, want);
        assert_file_contains(CLI_OUT, s.p.seeded ? "Then draw: the random number is u = "
                                                 : "choose the next token greedily");
        greedy += !s.p.seeded;
        drawn += s.p.seeded != 0;
        assert_file_contains(CLI_OUT, "F09's random draw");
        assert_file_contains(CLI_OUT, "fixed weighted sum of the Values");
        assert_file_contains(CLI_OUT, "Token drawn (its number): ");
        assert_file_lacks(CLI_OUT, "Answer key");
        as_session_free(&s);
    }
    assert_true(greedy > 0 && drawn > 0);
}

/* The seeded draw gives the student u, the PRNG's number, to 4 places. */
static void test_sample_sheet_gives_u_of_a_seeded_draw(void **state)
{
    unsigned long seed;
    hand h;
    char want[64], args[96];

    (void)state;
    for (seed = 1;; seed++) {
        drill_file(seed, &h);
        if (h.u > 0)
            break;
    }
    snprintf(want, sizeof want, "u = %.4f", h.u);
    while (want[strlen(want) - 1] == '0') /* the sheet writes no trailing zeros */
        want[strlen(want) - 1] = '\0';
    snprintf(args, sizeof args, "exercise --step sample --seed %lu --format md --lang en", seed);
    assert_int_equal(run(args), 0);
    assert_file_contains(CLI_OUT, want);
}

static void test_sample_latex_sheets_compile(void **state)
{
    (void)state;
    if (sh("command -v pdflatex >/dev/null && command -v xelatex >/dev/null") != 0) {
        skip();
        return;
    }
    assert_int_equal(sh("mkdir -p " TMP "-tex"), 0);
    assert_int_equal(sh("${ATTNSTEP_BIN:-build/attnstep} exercise --step sample --seed 4 --format latex --answers "
                        "--exp-table --lang en > " TMP "-tex/en.tex"), 0);
    assert_int_equal(sh("${ATTNSTEP_BIN:-build/attnstep} exercise --step sample --seed 4 --format latex --answers "
                        "--exp-table > " TMP "-tex/zh.tex"), 0);
    assert_file_contains(TMP "-tex/en.tex", "\\mathrm{probs}");
    assert_int_equal(sh("cd " TMP "-tex && pdflatex -interaction=nonstopmode -halt-on-error "
                        "en.tex >/dev/null 2>&1"), 0);
    assert_int_equal(sh("cd " TMP "-tex && xelatex -interaction=nonstopmode -halt-on-error "
                        "zh.tex >/dev/null 2>&1"), 0);
    assert_file_lacks(TMP "-tex/zh.log", "Missing character");
}

/* sheet FILE --step sample on an input without a head: said, in both languages. */
static void test_sample_sheet_of_a_file_without_a_head_is_refused(void **state)
{
    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --step sample"), 2);
    assert_file_contains(CLI_ERR, "错误：--step sample练的是输出头，可这个输入没有输出头");
    assert_file_contains(CLI_ERR, "提示：在输入里加上head: Wout（或head: tied）和它的设置");
    assert_stdout_empty();
    assert_int_equal(run("sheet examples/f11.txt --step sample --lang en"), 2);
    assert_file_contains(CLI_ERR, "error: --step sample drills the output head, and this input has none");
    assert_int_equal(run("sheet examples/head.txt --step sample --lang en"), 0);
    assert_file_contains(CLI_OUT, "The cut is top-p");
}

/* ---- Moodle ---- */

static void test_sample_gift_offers_the_mistake_and_the_token(void **state)
{
    hand h, wrong;
    as_session s;
    size_t len, j;
    char *text = make(3, AS_LANG_EN, &len), want[64];

    (void)state;
    open_text(&s, text, len);
    hand_of(&h, &s);
    by_hand(&wrong, s.p.X->v, s.p.X->cols, 1.0, s.p.top_k, s.p.top_p, 0, 0);
    assert_int_equal(run("exercise --step sample --seed 3 --format gift --lang en"), 0);
    assert_file_contains(CLI_OUT, "Not right (temperature_after_softmax)");
    assert_file_lacks(CLI_OUT, "no_scale"); /* the layer's mistakes are not the head's */
    for (j = 0; j < h.vocab; j++) /* a cell where the mistake gives another fraction */
        if (wrong.probs[j] > 0 && wrong.probs[j] < 1 && fabs(wrong.probs[j] - h.probs[j]) > 0.01)
            break;
    assert_true(j < h.vocab);
    snprintf(want, sizeof want, "=%%0%%%.12f", wrong.probs[j]);
    want[strlen("=%0%0.123")] = '\0'; /* the shortest round-trip text begins so */
    assert_file_contains(CLI_OUT, want);
    snprintf(want, sizeof want, "{#=%zu:0#Right.}", h.token);
    assert_file_contains(CLI_OUT, want);
    assert_int_equal(run("exercise --step sample --seed 3 --format moodle"), 0);
    snprintf(want, sizeof want, "抽到的词（编号）：{1:NUMERICAL:=%zu:0#正确。}", h.token);
    assert_file_contains(CLI_OUT, want);
    assert_int_equal(sh("command -v xmllint >/dev/null || exit 0; xmllint --noout " CLI_OUT), 0);
    as_session_free(&s);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_drill_numbers_match_a_hand_computation),
        cmocka_unit_test(test_sample_drill_is_the_same_for_the_same_seed),
        cmocka_unit_test(test_sample_key_read_back_through_check_is_all_right),
        cmocka_unit_test(test_sample_temperature_after_softmax_is_named),
        cmocka_unit_test(test_sample_sheet_says_the_chapter_words_in_chinese),
        cmocka_unit_test(test_sample_sheet_says_the_chapter_words_in_english),
        cmocka_unit_test(test_sample_sheet_gives_u_of_a_seeded_draw),
        cmocka_unit_test(test_sample_latex_sheets_compile),
        cmocka_unit_test(test_sample_sheet_of_a_file_without_a_head_is_refused),
        cmocka_unit_test(test_sample_gift_offers_the_mistake_and_the_token),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
