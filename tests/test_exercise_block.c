/* test_exercise_block.c - exercises of the whole block (SPEC §7 and §15, issue 31):
 * `exercise --block pre|post` with --norm and --ffn, and the drills --step
 * norm|residual|ffn. The promises are checked by this file's own arithmetic on the real
 * run of each exercise (σ² of the rows of X worked here in long double, GELU's tanh
 * form and SiLU written out from their definitions), never by the generator's checks;
 * check, sheet, practice and Moodle are run as a user runs them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/exercise_block.out"
#define CLI_ERR "build/tests/exercise_block.err"
#include "attnstep/block.h"
#include "attnstep/exercise.h"
#include "cli_util.h"
#include "exercise_util.h"
#include "test_util.h"

#define PROMISE_SEEDS 200 /* as the layer's promises: 200 seeds */
#define KIND_SEEDS 30     /* each other kind of block */

/* ---- helpers ---- */

static char *make_block(const as_exercise_opts *want, unsigned long seed, as_exercise_opts *o,
                        size_t *len)
{
    as_error err;
    char *text;

    *o = *want;
    o->seed = seed;
    as_error_init(&err, AS_LANG_EN);
    if (as_exercise_settle(o, &err) != 0) {
        print_error("settle: %s\n", err.msg);
        fail();
    }
    if (as_exercise_make(&text, len, o, &err) != 0) {
        print_error("seed %lu: %s\n", seed, err.msg);
        fail();
    }
    return text;
}

/* No row of m reads all 0 at 4 places. */
static void assert_no_zero_row_at_4(const as_matrix *m, const char *name)
{
    size_t i, j;

    for (i = 0; i < m->rows; i++) {
        for (j = 0; j < m->cols && fabs(AS_AT(*m, i, j)) < 5e-5; j++)
            ;
        if (j == m->cols) {
            print_error("%s has a zero row %zu\n", name, i);
            fail();
        }
    }
}

/* Row i of the file's X: its σ² (LayerNorm, ÷d) or mean square (RMSNorm), in long
 * double from the numbers as written; the divisor √(v + ε) at 4 places must read as a
 * multiple of 1/2 (the promise), and the run's divisor agrees with this one. */
static void assert_readable_root(const as_matrix *x, size_t i, as_norm_kind norm, double eps,
                                 const as_norm_trace *nt)
{
    long double mean = 0, v = 0, div;
    char printed[32], half[32];
    size_t j, d = x->cols;

    for (j = 0; j < d; j++)
        mean += AS_AT(*x, i, j);
    mean = norm == AS_NORM_LAYER ? mean / d : 0;
    for (j = 0; j < d; j++)
        v += (AS_AT(*x, i, j) - mean) * (AS_AT(*x, i, j) - mean);
    v /= d;
    div = sqrtl(v + eps);
    snprintf(printed, sizeof printed, "%.4f", (double)div);
    snprintf(half, sizeof half, "%.4f", (double)(roundl(2 * div) / 2));
    if (strcmp(printed, half) != 0 || v < 0.25L) {
        print_error("row %zu: σ² %Lg, divisor %s is no readable half\n", i, v, printed);
        fail();
    }
    assert_close(nt->div.v[i], (double)div, 1e-12);
}

static void assert_block_promises(const as_session *s, const char *text, const as_exercise_opts *o)
{
    const as_block_trace *b = s->t.block;
    const as_matrix *x = &s->p.in->mat[AS_X].m; /* the file's X (pre: the session's is N1) */
    static const as_tab tabs[] = {AS_TAB_N1, AS_TAB_H1, AS_TAB_N2, AS_TAB_U,
                                  AS_TAB_G,  AS_TAB_F,  AS_TAB_D,  AS_TAB_H2};
    size_t i;

    assert_non_null(b);
    assert_true(x->cols >= (o->norm == AS_NORM_LAYER ? 4u : 3u)); /* width ≥ 3 (SPEC), 4 for LayerNorm */
    assert_int_equal(s->t.O.cols, x->cols);                      /* O added back to X */
    /* pre: ε = 0 written in the file, so that the roots are exact (a "-2" written is right) */
    if (o->block == AS_BLOCK_PRE)
        assert_non_null(strstr(text, "\nnorm_eps: 0\n"));
    assert_no_zero_row_at_4(&s->t.Q, "Q");
    assert_no_zero_row_at_4(&s->t.K, "K");
    assert_no_zero_row_at_4(&s->t.V, "V");
    for (i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
        const as_matrix *m = as_block_table(b, tabs[i]);
        if (m != NULL)
            assert_no_zero_row_at_4(m, as_tab_get(tabs[i])->name);
    }
    for (i = 0; o->block == AS_BLOCK_PRE && i < x->rows; i++)
        assert_readable_root(x, i, o->norm, s->p.norm_eps, &b->norm1);
    for (i = 0; i < b->norm2.var.rows; i++) /* no flat row for the second norm either */
        assert_true(b->norm2.var.v[i] >= 0.25);
}

/* ---- determinism ---- */

static void test_same_seed_gives_the_same_bytes_for_every_kind_of_block(void **state)
{
    static const as_exercise_opts kind[] = {
        {.level = 2, .block = AS_BLOCK_PRE},
        {.level = 1, .block = AS_BLOCK_POST, .ffn = AS_FFN_RELU},
        {.level = 3, .block = AS_BLOCK_PRE, .norm = AS_NORM_RMS, .ffn = AS_FFN_SWIGLU},
        {.level = 2, .step = AS_STEP_FFN, .ffn = AS_FFN_GELU, .lang = AS_LANG_EN},
    };
    as_exercise_opts o;
    size_t k, la, lb;

    (void)state;
    for (k = 0; k < sizeof kind / sizeof kind[0]; k++) {
        char *a = make_block(&kind[k], 77, &o, &la), *b = make_block(&kind[k], 77, &o, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        free(a);
        free(b);
    }
    /* and from two processes, with the seed and the command in the comment */
    assert_int_equal(run("exercise --block pre --seed 31 -o build/tests/exb_a.txt --force"), 0);
    assert_int_equal(run("exercise --block pre --seed 31 -o build/tests/exb_b.txt --force"), 0);
    assert_int_equal(sh("cmp -s build/tests/exb_a.txt build/tests/exb_b.txt"), 0);
    assert_file_contains("build/tests/exb_a.txt", "# attnstep练习：第2级，种子31\n");
    assert_file_contains("build/tests/exb_a.txt", "attnstep exercise --level 2 --seed 31 --tokens 2 "
                                                  "--width 4 --dk 2 --dv 4 --mask causal --block pre "
                                                  "--norm layer --ffn gelu_tanh\n");
    /* the command in the comment makes the same bytes again */
    assert_int_equal(run("exercise --level 2 --seed 31 --tokens 2 --width 4 --dk 2 --dv 4 --mask "
                         "causal --block pre --norm layer --ffn gelu_tanh -o build/tests/exb_b.txt "
                         "--force"), 0);
    assert_int_equal(sh("cmp -s build/tests/exb_a.txt build/tests/exb_b.txt"), 0);
}

/* ---- the promises, over many seeds ---- */

static void test_200_seeds_of_a_pre_block_keep_every_promise(void **state)
{
    const as_exercise_opts want = {.level = 2, .block = AS_BLOCK_PRE};
    as_exercise_opts o;
    unsigned long seed;

    (void)state;
    for (seed = 1; seed <= PROMISE_SEEDS; seed++) {
        as_session s;
        size_t len;
        char *text = make_block(&want, seed, &o, &len);
        open_exercise(&s, text, len);
        assert_block_promises(&s, text, &o);
        as_session_free(&s);
        free(text);
    }
}

static void test_other_kinds_of_block_keep_their_promises(void **state)
{
    static const as_exercise_opts kind[] = {
        {.level = 2, .block = AS_BLOCK_PRE, .norm = AS_NORM_RMS},
        {.level = 2, .block = AS_BLOCK_PRE, .norm = AS_NORM_RMS, .width = 3},
        {.level = 2, .block = AS_BLOCK_POST},
        {.level = 2, .block = AS_BLOCK_PRE, .ffn = AS_FFN_SWIGLU},
        {.level = 2, .block = AS_BLOCK_PRE, .ffn = AS_FFN_RELU},
        {.level = 2, .block = AS_BLOCK_PRE, .ffn = AS_FFN_NONE},
        {.level = 3, .block = AS_BLOCK_PRE, .tokens = 3},
        {.level = 2, .block = AS_BLOCK_PRE, .width = 6},
        {.level = 1, .block = AS_BLOCK_PRE}, /* the slowest to draw (d_k 4, whole Q and K): last, fewer seeds */
    };
    as_exercise_opts o;
    unsigned long seed;
    size_t k;

    (void)state;
    for (k = 0; k < sizeof kind / sizeof kind[0]; k++)
        for (seed = 500; seed < 500 + (kind[k].level == 1 || kind[k].width > 4 ? KIND_SEEDS / 5 : KIND_SEEDS); seed++) {
            as_session s;
            size_t len;
            char *text = make_block(&kind[k], seed, &o, &len);
            open_exercise(&s, text, len);
            assert_block_promises(&s, text, &o);
            if (o.ffn != AS_FFN_NONE) { /* the activation bends: U on both sides of 0 */
                const as_matrix *u = &s.t.block->U;
                double lo = 0, hi = 0;
                size_t i;
                for (i = 0; i < u->rows * u->cols; i++) {
                    lo = u->v[i] < lo ? u->v[i] : lo;
                    hi = u->v[i] > hi ? u->v[i] : hi;
                }
                assert_true(lo < -0.1 && hi > 0.1 && lo >= -4 && hi <= 4);
            }
            as_session_free(&s);
            free(text);
        }
}

/* ---- run and check on them ---- */

static void test_run_output_of_a_block_exercise_checks_full_marks(void **state)
{
    (void)state;
    /* every table of the block: N1 Q K V QKT S A O H1 N2 U F D H2 */
    assert_int_equal(run("exercise --block pre --seed 12 --lang en -o build/tests/exb.txt --force"), 0);
    assert_file_contains("build/tests/exb.txt", "ask: N1 Q K V QKT S A O H1 N2 U F D H2\n");
    assert_int_equal(run("run --digits 4 build/tests/exb.txt -o build/tests/exb_run.txt --force"), 0);
    assert_int_equal(run("check --lang en build/tests/exb.txt build/tests/exb_run.txt"), 0);
    assert_file_contains(OUT, "score: 14/14");
    /* the key --answers writes is right too, post and swiglu alike */
    assert_int_equal(run("exercise --block post --ffn swiglu --seed 12 -o build/tests/exb.txt --force"), 0);
    assert_file_contains("build/tests/exb.txt", "ask: Q K V QKT S A O H1 U G F D H2\n");
    assert_int_equal(run("exercise --block post --ffn swiglu --seed 12 --answers -o "
                         "build/tests/exb_key.txt --force"), 0);
    assert_int_equal(run("check --lang en build/tests/exb.txt build/tests/exb_key.txt"), 0);
    assert_file_contains(OUT, "score: 13/13");
}

/* The drills ask their step's tables alone, and a right answer of them scores full. */
static void test_each_drill_asks_only_its_steps_tables(void **state)
{
    static const struct {
        const char *args, *ask, *score;
    } d[] = {
        {"--step norm", "ask: N1 N2\n", "score: 2/2"},
        {"--step residual", "ask: H1 H2\n", "score: 2/2"},
        {"--step ffn", "ask: U F D\n", "score: 3/3"},
        {"--step ffn --ffn swiglu", "ask: U G F D\n", "score: 4/4"},
        {"--step ffn --block post", "ask: U F D\n", "score: 3/3"},
        {"--step residual --ffn none", "ask: H1\n", "score: 1/1"},
    };
    char cmd[256];
    size_t k;

    (void)state;
    for (k = 0; k < sizeof d / sizeof d[0]; k++) {
        snprintf(cmd, sizeof cmd, "exercise %s --seed 3 -o build/tests/exb_d.txt --force", d[k].args);
        assert_int_equal(run(cmd), 0);
        assert_file_contains("build/tests/exb_d.txt", d[k].ask);
        assert_int_equal(run("run --digits 4 build/tests/exb_d.txt -o build/tests/exb_d_run.txt --force"), 0);
        assert_int_equal(run("check --lang en build/tests/exb_d.txt build/tests/exb_d_run.txt"), 0);
        assert_file_contains(OUT, d[k].score);
    }
}

/* The norm drill's sheet gives X, H1 and the γ/β (no attention weight) and asks N1 and
 * N2; its key walks the last row's norm. */
static void test_the_norm_drills_sheet_gives_what_the_norm_reads(void **state)
{
    char *md, *fill;

    (void)state;
    assert_int_equal(run("exercise --step norm --seed 3 --format md --answers"), 0);
    md = slurp(OUT);
    assert_non_null(md);
    fill = strstr(md, "## 请填写");
    assert_non_null(fill);
    *fill = '\0'; /* md: what is given; fill + 1: the grids and the key */
    assert_non_null(strstr(md, "**X** ="));
    assert_non_null(strstr(md, "**H1** ≈"));
    assert_non_null(strstr(md, "**ln1_g** ="));
    assert_non_null(strstr(md, "**ln2_b** ="));
    assert_null(strstr(md, "**Wq**"));
    assert_null(strstr(md, "**Wup**"));
    assert_non_null(strstr(fill + 1, "**N1 = LayerNorm(X), ε = 0**"));
    assert_non_null(strstr(fill + 1, "**N2 = LayerNorm(H1), ε = 0**"));
    assert_null(strstr(fill + 1, "**U = "));
    assert_non_null(strstr(fill + 1, "\\sqrt{\\sigma^2+\\varepsilon}"));
    assert_null(strstr(fill + 1, "第一步：Query和每一个Key打分")); /* no attention walk */
    free(md);
    /* residual: X, O and D given */
    assert_int_equal(run("exercise --step residual --seed 3 --format md --lang en"), 0);
    assert_file_contains(OUT, "**O** ≈");
    assert_file_contains(OUT, "**D** ≈");
    assert_file_contains(OUT, "**H1 = X + O**");
    assert_file_contains(OUT, "**H2 = H1 + D**");
    assert_file_lacks(OUT, "**Wq**");
}

static double gelu_tanh(double x) /* 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))), SPEC §15 */
{
    return 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}

static double silu(double x)
{
    return x / (1 + exp(-x));
}

/* Reads a Markdown row "| NAME | a | b | … |" after the line starting with head into v;
 * the book's minus sign − read as -. Returns how many. */
static size_t md_row(const char *md, const char *head, double *v, size_t max)
{
    const char *p = strstr(md, head), *end;
    size_t n = 0;

    if (p == NULL)
        return 0;
    end = strchr(p, '\n');
    p = strchr(p + 1, '|'); /* after the name's cell */
    while (p != NULL && p < end && n < max) {
        char cell[32];
        size_t k = 0;
        const char *q = p + 1;
        while (q < end && *q != '|' && k + 1 < sizeof cell) {
            if ((unsigned char)q[0] == 0xe2 && (unsigned char)q[1] == 0x88 && (unsigned char)q[2] == 0x92) {
                cell[k++] = '-';
                q += 3;
            } else
                cell[k++] = *q++;
        }
        cell[k] = '\0';
        if (q >= end)
            break;
        v[n++] = strtod(cell, NULL);
        p = q;
    }
    return n;
}

/* --exp-table: each value of U with its GELU, each of N2·Wgate with its SiLU, as the
 * definitions give them from the x printed (4 places: within half a unit of x times the
 * slope, below 1.1, plus half a unit of f). */
static void test_the_exp_table_gives_the_activations_values(void **state)
{
    double x[64], f[64];
    size_t n, k;
    char *md;

    (void)state;
    assert_int_equal(run("exercise --step ffn --seed 8 --format md --exp-table --lang en"), 0);
    assert_file_contains(OUT, "Values of GELU_tanh you may need (x is a cell of U):");
    md = slurp(OUT);
    assert_non_null(md);
    n = md_row(md, "| x |", x, 64);
    assert_true(n >= 3);
    assert_int_equal(md_row(md, "| GELU_tanh(x) |", f, 64), n);
    for (k = 0; k < n; k++)
        assert_close(f[k], gelu_tanh(x[k]), 1.2e-4);
    free(md);
    assert_int_equal(run("exercise --block pre --ffn swiglu --seed 8 --format md --exp-table"), 0);
    assert_file_contains(OUT, "可能用到的SiLU值（x是N2·Wgate的格子）：");
    assert_file_contains(OUT, "可能用到的e的幂"); /* the whole block: the softmax's too */
    md = slurp(OUT);
    assert_non_null(md);
    n = md_row(md, "| x |", x, 64); /* the first | x | row is the e^x table's */
    n = md_row(strstr(md, "可能用到的SiLU值"), "| x |", x, 64);
    assert_true(n >= 2);
    assert_int_equal(md_row(strstr(md, "可能用到的SiLU值"), "| SiLU(x) |", f, 64), n);
    for (k = 0; k < n; k++)
        assert_close(f[k], silu(x[k]), 1.2e-4);
    free(md);
    /* LaTeX sets GELU's tanh form with a subscript, never GELU_tanh's bare underscore */
    assert_int_equal(run("exercise --step ffn --seed 8 --format latex --exp-table --lang en"), 0);
    assert_file_contains(OUT, "\\operatorname{GELU}_{\\tanh}(x)");
    assert_file_lacks(OUT, "GELU_tanh");
}

/* N1 = LayerNorm(X) as a student works it from the file's X, γ, β and ε, with σ²
 * divided by d (or by d − 1 when unbiased), each cell printed with fmt. */
static void write_n1(FILE *f, const as_session *s, int unbiased, const char *fmt)
{
    const as_matrix *x = &s->p.in->mat[AS_X].m;
    const size_t d = x->cols;
    size_t i, j;

    fputs("N1 = [", f);
    for (i = 0; i < s->p.n; i++) {
        double mean = 0, v = 0;
        for (j = 0; j < d; j++)
            mean += AS_AT(*x, i, j) / d;
        for (j = 0; j < d; j++)
            v += (AS_AT(*x, i, j) - mean) * (AS_AT(*x, i, j) - mean) / (d - (unbiased ? 1 : 0));
        fputs(i ? ", [" : "[", f);
        for (j = 0; j < d; j++) {
            fputs(j ? ", " : "", f);
            fprintf(f, fmt, s->p.ln_g[0]->v[j] * (AS_AT(*x, i, j) - mean) / sqrt(v + s->p.norm_eps) +
                                s->p.ln_b[0]->v[j]);
        }
        fputc(']', f);
    }
    fputs("]\n", f);
}

/* A convention mistake in a student's answers is named (SPEC §15): N1 with the unbiased
 * σ² (÷(d−1)), worked here from the file's X, γ, β and ε. */
static void test_a_named_mistake_in_a_drill_is_named(void **state)
{
    const as_exercise_opts want = {.level = 2, .step = AS_STEP_NORM};
    as_exercise_opts o;
    as_session s;
    size_t len;
    char *text = make_block(&want, 21, &o, &len);
    FILE *f;

    (void)state;
    open_exercise(&s, text, len);
    write_text("build/tests/exb_m.txt", text);
    f = fopen("build/tests/exb_m_ans.txt", "w");
    assert_non_null(f);
    fputs("name: unbiased\n", f);
    write_n1(f, &s, 1, "%.4f");
    fclose(f);
    assert_int_equal(run("check --format json build/tests/exb_m.txt build/tests/exb_m_ans.txt"), 1);
    assert_file_contains(OUT, "\"diagnosis\": \"ln_unbiased\"");
    assert_file_contains(OUT, "\"max\": 2");
    assert_int_equal(run("check --lang en build/tests/exb_m.txt build/tests/exb_m_ans.txt"), 1);
    assert_file_contains(OUT, "ln_unbiased");
    as_session_free(&s);
    free(text);
}

/* A student who works N1 by hand writes its whole and half numbers as they come out
 * ("-2", "1.5"): a number written without a decimal point must be exact (SPEC §6), so
 * the exercise takes ε = 0 and N1 is exact. Worked here from the file's X, γ and β,
 * with σ² ÷ d; over 20 seeds every such N1 is right (with torch's ε it was not). */
static void test_n1_written_by_hand_as_whole_numbers_is_right(void **state)
{
    const as_exercise_opts want = {.level = 2, .step = AS_STEP_NORM};
    unsigned long seed;

    (void)state;
    for (seed = 1; seed <= 20; seed++) {
        as_exercise_opts o;
        as_session s;
        size_t len;
        char *text = make_block(&want, seed, &o, &len);
        FILE *f;

        open_exercise(&s, text, len);
        write_text("build/tests/exb_w.txt", text);
        f = fopen("build/tests/exb_w_ans.txt", "w");
        assert_non_null(f);
        write_n1(f, &s, 0, "%g"); /* %g: -2, 1.5, 0.25 as a student writes them */
        fclose(f);
        run("check --format json build/tests/exb_w.txt build/tests/exb_w_ans.txt");
        assert_file_contains(OUT, "{\"name\": \"N1\", \"correct\": true");
        as_session_free(&s);
        free(text);
    }
}

/* The residual drill: H1 written as O alone (the residual left out: the student's
 * mistake, made here from the run's O) is named no_residual, and H2 done right from that
 * H1 (the student's H1 plus D) is carried_error. */
static void test_a_residual_left_out_is_named(void **state)
{
    const as_exercise_opts want = {.level = 2, .step = AS_STEP_RESIDUAL};
    as_exercise_opts o;
    as_session s;
    size_t len, i, j, k;
    char *text = make_block(&want, 22, &o, &len);
    FILE *f;

    (void)state;
    open_exercise(&s, text, len);
    write_text("build/tests/exb_r.txt", text);
    f = fopen("build/tests/exb_r_ans.txt", "w");
    assert_non_null(f);
    fputs("name: forgot\n", f);
    for (k = 0; k < 2; k++) { /* H1 = O; H2 = O + D */
        fprintf(f, "%s = [", k ? "H2" : "H1");
        for (i = 0; i < s.t.O.rows; i++) {
            fputs(i ? ", [" : "[", f);
            for (j = 0; j < s.t.O.cols; j++)
                fprintf(f, "%s%.4f", j ? ", " : "",
                        AS_AT(s.t.O, i, j) + (k ? AS_AT(s.t.block->D, i, j) : 0));
            fputc(']', f);
        }
        fputs("]\n", f);
    }
    fclose(f);
    assert_int_equal(run("check --format json build/tests/exb_r.txt build/tests/exb_r_ans.txt"), 1);
    assert_file_contains(OUT, "\"name\": \"H1\"");
    assert_file_contains(OUT, "\"diagnosis\": \"no_residual\"");
    assert_file_contains(OUT, "\"diagnosis\": \"carried_error\"");
    assert_file_contains(OUT, "\"score\": 1, \"max\": 2");
    as_session_free(&s);
    free(text);
}

/* practice on a block exercise asks the block's cells, N1's first (the attention reads it). */
static void test_practice_asks_a_block_exercises_cells(void **state)
{
    (void)state;
    assert_int_equal(run("exercise --block pre --seed 4 -o build/tests/exb_p.txt --force"), 0);
    assert_int_equal(sh("%s practice --only N1,H1 --lang en build/tests/exb_p.txt "
                        "</dev/null >" CLI_OUT " 2>" CLI_ERR,
                        getenv("ATTNSTEP_BIN") ? getenv("ATTNSTEP_BIN") : "build/attnstep"), 1);
    assert_file_contains(OUT, "── N1 ──");
    assert_file_contains(OUT, "N1[0][0]");
}

/* Moodle and a class: the drill's tables are the blanks; each student's sheet and the
 * teacher's files written. */
static void test_moodle_and_a_class_follow_the_drill(void **state)
{
    (void)state;
    assert_int_equal(run("exercise --step ffn --seed 6 --format moodle"), 0);
    assert_file_contains(OUT, "U = N2·Wup + bup");
    assert_file_contains(OUT, "{1:NUMERICAL:");
    assert_file_lacks(OUT, "N1 = LayerNorm(X)");
    /* GIFT: a question per cell of U, F and D, the FFN's weights given, no attention's */
    assert_int_equal(run("exercise --step ffn --seed 6 --format gift --lang en"), 0);
    assert_file_contains(OUT, "seed 6 U[0][0]::");
    assert_file_contains(OUT, "seed 6 D[1][3]::");
    assert_file_lacks(OUT, " N1[0][0]::");
    assert_file_lacks(OUT, "<p><b>Wq</b>");
    assert_file_contains(OUT, "<p><b>Wup</b>");
    write_text("build/tests/exb_roster.txt", "张三\nLi Lei\n");
    assert_int_equal(sh("rm -rf build/tests/exb_class"), 0);
    assert_int_equal(run("exercise --step norm --class build/tests/exb_roster.txt --format latex "
                         "-o build/tests/exb_class"), 0);
    assert_int_equal(dir_entries("build/tests/exb_class/sheets", ""), 2);
    assert_file_contains("build/tests/exb_class/sheets/01-张三.tex", "N1 = \\operatorname{LayerNorm}(X)");
    assert_file_lacks("build/tests/exb_class/sheets/01-张三.tex", "种子");
    assert_file_contains("build/tests/exb_class/teacher/01-张三.txt", "ask: N1 N2\n");
    assert_file_contains("build/tests/exb_class/teacher/key.txt", "N2 = [[");
}

/* ---- bad options, in words ---- */

static void test_bad_block_options_are_refused_with_a_hint(void **state)
{
    (void)state;
    assert_int_equal(run("exercise --block sideways --lang en"), 2);
    assert_file_contains(ERR, "error: --block takes pre or post, not \"sideways\"");
    assert_file_contains(ERR, "hint: pre: normalise before each sublayer");
    assert_int_equal(run("exercise --block sideways"), 2);
    assert_file_contains(ERR, "错误：--block只能取pre或post，不能是“sideways”");
    assert_int_equal(run("exercise --ffn swiglo --lang en"), 2);
    assert_file_contains(ERR, "hint: did you mean \"swiglu\"?");
    assert_int_equal(run("exercise --norm batch --lang en"), 2);
    assert_file_contains(ERR, "--norm takes layer or rms, not \"batch\"");
    assert_int_equal(run("exercise --block post --step residual --seed 1 --lang en"), 2);
    assert_file_contains(ERR, "--step residual drills a table of a Pre-LN block");
    assert_file_contains(ERR, "hint: in a Post-LN block the norm follows the residual add");
    assert_int_equal(run("exercise --step ffn --ffn none --seed 1"), 2);
    assert_file_contains(ERR, "--step ffn练的是前馈网络");
    assert_int_equal(run("exercise --block pre --width 3 --seed 1 --lang en"), 2);
    assert_file_contains(ERR, "a normalisation exercise of width 3 has no hand-friendly rows");
    assert_int_equal(run("exercise --block pre --norm rms --width 2 --seed 1 --lang en"), 2);
    assert_file_contains(ERR, "RMSNorm takes at least 3");
    assert_int_equal(run("exercise --block pre --dv 2 --seed 1"), 2);
    assert_file_contains(ERR, "提示：去掉--dv");
    /* a block has no output head: the sample drill is an exercise of its own */
    assert_int_equal(run("exercise --block pre --step sample --seed 1 --lang en"), 2);
    assert_file_contains(ERR, "error: --step sample drills the output head, and a block exercise "
                              "has none");
    assert_file_contains(ERR, "hint: leave out --block: exercise --step sample makes");
    assert_file_lacks(ERR, "this input");
    assert_stdout_empty();
    assert_int_equal(run("exercise --block post --step sample --seed 1"), 2);
    assert_file_contains(ERR, "错误：--step sample练的是输出头，可块的练习没有输出头");
    assert_file_contains(ERR, "提示：去掉--block");
    assert_stdout_empty();
    assert_int_equal(run("exercise --block post --step norm --seed 1"), 2);
    assert_file_contains(ERR, "错误：--step norm练的是Pre-LN块的表");
    assert_stdout_empty();
    assert_int_equal(run("run --block pre examples/f11.txt --lang en"), 2);
    assert_file_contains(ERR, "--block");
    assert_int_equal(run("sheet examples/f11.txt --step norm --lang en"), 2);
    assert_file_contains(ERR, "--step norm drills a step of the whole block, and this input has none");
    assert_stdout_empty();
    /* a drill of the block's steps means a block: pre unless told */
    assert_int_equal(run("exercise --step norm --seed 1 --lang en"), 0);
    assert_file_contains(OUT, "block: pre\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_gives_the_same_bytes_for_every_kind_of_block),
        cmocka_unit_test(test_200_seeds_of_a_pre_block_keep_every_promise),
        cmocka_unit_test(test_other_kinds_of_block_keep_their_promises),
        cmocka_unit_test(test_run_output_of_a_block_exercise_checks_full_marks),
        cmocka_unit_test(test_each_drill_asks_only_its_steps_tables),
        cmocka_unit_test(test_the_norm_drills_sheet_gives_what_the_norm_reads),
        cmocka_unit_test(test_the_exp_table_gives_the_activations_values),
        cmocka_unit_test(test_a_named_mistake_in_a_drill_is_named),
        cmocka_unit_test(test_n1_written_by_hand_as_whole_numbers_is_right),
        cmocka_unit_test(test_a_residual_left_out_is_named),
        cmocka_unit_test(test_practice_asks_a_block_exercises_cells),
        cmocka_unit_test(test_moodle_and_a_class_follow_the_drill),
        cmocka_unit_test(test_bad_block_options_are_refused_with_a_hint),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
