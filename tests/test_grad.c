/* test_grad.c - the backward pass (SPEC §13): each backward step against hand
 * calculation; every gradient of every stored case against PyTorch autograd in float64
 * (tests/data/grad/make_cases.py, run once; no Python here); every gradient of the
 * inputs against central finite differences of the forward run alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/attention.h"
#include "attnstep/backward.h"
#include "attnstep/grad.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/session.h"
#include "test_util.h"
#include "gen_input.h"
#include "grad_expected.h"

#define DIR "tests/data/grad/"

/* ---- the steps, by hand ---- */

/* F11, row 1 (hand calculation in tests/golden/README.md): A = [a, b], dA = [10, 20]:
 * Σ dA⊙A = 10a + 20b, dS = [-10ab, 10ab]; row 0 reads only itself: dS = [0, 0]. */
static void test_softmax_backward_matches_the_hand_calculation(void **state)
{
    const double a = 1.0 / (1.0 + exp(-1.0 / sqrt(2.0))), b = 1.0 - a;
    const double A[4] = {1, 0, a, b}, dA[4] = {10, 20, 10, 20};
    double dS[4], dot[2];

    (void)state;
    as_softmax_backward_rows(dS, dot, dA, A, 2, 2);
    assert_close(dot[0], 10.0, 0);
    assert_close(dot[1], 10 * a + 20 * b, 1e-15);
    assert_close(dS[0], 0.0, 0);
    assert_close(dS[2], -10 * a * b, 1e-14);
    assert_close(dS[3], 10 * a * b, 1e-14);
    assert_int_equal(signbit(dS[1]), 0); /* masked: exactly +0, whatever dA says */
}

static void test_masked_cells_get_exactly_zero(void **state)
{
    const double A[3] = {0.25, 0, 0.75}, dA[3] = {-3, -1e300, 2};
    double dS[3];

    (void)state;
    as_softmax_backward_rows(dS, NULL, dA, A, 1, 3);
    assert_true(dS[1] == 0.0 && !signbit(dS[1]));
    /* Σ dA⊙A = -0.75 + 1.5 = 0.75: dS = [0.25×(-3.75), 0, 0.75×1.25] */
    assert_close(dS[0], -0.9375, 0);
    assert_close(dS[2], 0.9375, 0);
}

/* aᵀ·b by hand: a = [[1,2],[3,4],[5,6]] (3x2), b = [[1],[0],[-1]]: [[1-5],[2-6]]. */
static void test_matmul_tn_transposes_the_first_table(void **state)
{
    const double a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {1, 0, -1};
    double out[2];

    (void)state;
    as_matmul_tn(out, a, b, 3, 2, 1);
    assert_close(out[0], -4, 0);
    assert_close(out[1], -4, 0);
}

/* The fast product gives the reference's bits, on shapes that cross the kernels' tiles. */
static void test_matmul_tn_fast_gives_the_same_bits(void **state)
{
    const size_t shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 65}, {130, 70, 9}};
    size_t s, i;

    (void)state;
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t n = shapes[s][0], k = shapes[s][1], p = shapes[s][2];
        double *a = malloc(n * k * sizeof *a), *b = malloc(n * p * sizeof *b);
        double *r = malloc(k * p * sizeof *r), *f = malloc(k * p * sizeof *f);
        assert_true(a && b && r && f);
        for (i = 0; i < n * k; i++)
            a[i] = sin((double)i * 0.7) * 3.1;
        for (i = 0; i < n * p; i++)
            b[i] = cos((double)i * 1.3) / 7.0;
        as_matmul_tn(r, a, b, n, k, p);
        as_matmul_tn_fast(f, a, b, n, k, p);
        assert_memory_equal(r, f, k * p * sizeof *r);
        free(a), free(b), free(r), free(f);
    }
}

static void test_losses_and_column_sums(void **state)
{
    const double O[4] = {1, 2, 3, 4.5}, t[4] = {0, 2, 5, 4};
    double dO[4], sums[2];

    (void)state;
    assert_close(as_loss_sum_backward(dO, O, 4), 10.5, 0);
    assert_close(dO[0] + dO[1] + dO[2] + dO[3], 4, 0);
    /* (1² + 0² + 2² + 0.5²)/2 = 2.625, dO = O - t */
    assert_close(as_loss_mse_backward(dO, O, t, 4), 2.625, 0);
    assert_close(dO[2], -2, 0);
    as_column_sums(sums, O, 2, 2);
    assert_close(sums[0], 4, 0);
    assert_close(sums[1], 6.5, 0);
}

/* ---- a case: its input run forwards and backwards ---- */

typedef struct run {
    as_input in;
    as_problem p;
    as_trace t;
    as_grad g;
} run;

static void open_case(run *r, const char *name)
{
    char path[256];
    as_error err;

    as_error_clear(&err);
    memset(r, 0, sizeof *r);
    snprintf(path, sizeof path, DIR "%s.txt", name);
    if (as_parse_file(&r->in, path, &err) != 0 ||
        as_problem_build(&r->p, &r->in, AS_MASK_DEFAULT, &err) != 0 ||
        as_attention_run(&r->t, &r->p, &err) != 0 ||
        as_grad_loss(&r->g, &r->p, &r->t, AS_LANG_EN, &err) != 0 ||
        as_grad_run(&r->g, &r->p, &r->t, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
}

static void close_case(run *r)
{
    as_grad_free(&r->g);
    as_trace_free(&r->t);
    as_problem_free(&r->p);
    as_input_free(&r->in);
}

/* The gradient table named as make_cases.py names it ("dWq", "head1.dS", "loss"). */
static const as_matrix *table(const run *r, const char *name, as_matrix *loss)
{
    const as_grad *g = &r->g;
    const as_grad_head *h;
    unsigned hd;
    char sub[16];

    if (strcmp(name, "loss") == 0) {
        *loss = (as_matrix){1, 1, (double *)&g->loss};
        return loss;
    }
    if (sscanf(name, "head%u.%15s", &hd, sub) == 2) {
        assert_true(hd < g->heads);
        h = &g->head[hd];
        return strcmp(sub, "dV") == 0 ? &h->dV : strcmp(sub, "dA") == 0 ? &h->dA
             : strcmp(sub, "dS") == 0 ? &h->dS : strcmp(sub, "dQKT") == 0 ? &h->dQKT
             : strcmp(sub, "dQ") == 0 ? &h->dQ : strcmp(sub, "dK") == 0 ? &h->dK : NULL;
    }
    {
        const struct { const char *n; const as_matrix *m; } all[] = {
            {"dO", &g->dO}, {"dWo", &g->dWo}, {"dbo", &g->dbo}, {"dC", &g->dC},
            {"dQ", &g->dQ}, {"dK", &g->dK}, {"dV", &g->dV}, {"dWq", &g->dWq},
            {"dWk", &g->dWk}, {"dWv", &g->dWv}, {"dbq", &g->dbq}, {"dbk", &g->dbk},
            {"dbv", &g->dbv}, {"dX", &g->dX}, {"dXkv", &g->dXkv}};
        size_t i;
        for (i = 0; i < sizeof all / sizeof all[0]; i++)
            if (strcmp(all[i].n, name) == 0)
                return all[i].m;
    }
    return NULL;
}

/* table() as grad_expected.h reads it. */
static const as_matrix *run_table(const void *r, const char *name, as_matrix *loss)
{
    return table(r, name, loss);
}

/* Every table of NAME.expected against the same table of the run; returns how many. */
static size_t agree_with_torch(const char *name)
{
    char path[256];
    size_t tables;
    FILE *f;
    run r;

    open_case(&r, name);
    snprintf(path, sizeof path, DIR "%s.expected", name);
    assert_non_null(f = fopen(path, "r"));
    tables = grad_compare_tables(f, run_table, &r, name, 0);
    fclose(f);
    close_case(&r);
    return tables;
}

static void test_f11_with_loss_sum_agrees_with_torch(void **state)
{
    (void)state;
    assert_int_equal(agree_with_torch("f11_sum"), 15); /* loss, dO, 6 of the head, 7 more */
}

static void test_heads_wo_biases_and_mse_agree_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("self_heads_wo_mse") >= 30);
}

static void test_cross_attention_with_a_given_dO_agrees_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("cross_two_heads_dO") >= 20);
    assert_true(agree_with_torch("cross_wo_mse") >= 20);
}

static void test_a_custom_mask_and_scale_agree_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("custom_mask_scale") >= 15);
}

static void test_shared_keys_and_a_window_agree_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("gqa_window") >= 30);
}

static void test_layout_torch_agrees_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("torch_layout_heads") >= 25);
}

/* ---- central finite differences of the forward run ---- */

/* L of the forward run alone, as the case's loss defines it (computed here, not by
 * grad.c): Σ O, Σ (O - target)²/2, or Σ O·dO for a given dO. */
static double forward_loss(run *r)
{
    as_trace t;
    as_error err;
    double L = 0;
    size_t i;

    as_error_clear(&err);
    assert_int_equal(as_attention_run(&t, &r->p, &err), 0);
    for (i = 0; i < t.O.rows * t.O.cols; i++) {
        const double o = t.O.v[i];
        if (r->g.loss_kind == AS_LOSS_SUM)
            L += o;
        else if (r->g.loss_kind == AS_LOSS_MSE)
            L += (o - r->in.mat[AS_TARGET].m.v[i]) * (o - r->in.mat[AS_TARGET].m.v[i]) / 2;
        else
            L += o * r->in.mat[AS_DO].m.v[i];
    }
    as_trace_free(&t);
    return L;
}

/* Each cell of each input the file gives, nudged by ±h: (L+ - L-)/2h against the
 * gradient grad.c computed for it. Returns the number of cells compared. */
static size_t agree_with_differences(const char *name)
{
    static const struct { as_mat_id id; size_t off; } map[] = {
        {AS_X, offsetof(as_grad, dX)}, {AS_XKV, offsetof(as_grad, dXkv)},
        {AS_WQ, offsetof(as_grad, dWq)}, {AS_WK, offsetof(as_grad, dWk)},
        {AS_WV, offsetof(as_grad, dWv)}, {AS_WO, offsetof(as_grad, dWo)},
        {AS_BQ, offsetof(as_grad, dbq)}, {AS_BK, offsetof(as_grad, dbk)},
        {AS_BV, offsetof(as_grad, dbv)}, {AS_BO, offsetof(as_grad, dbo)}};
    const double h = 1e-5;
    size_t k, i, cells = 0;
    run r;

    open_case(&r, name);
    for (k = 0; k < sizeof map / sizeof map[0]; k++) {
        /* the problem reads these very cells (with layout: torch, its own transposes) */
        as_matrix *in = (as_matrix *)as_problem_table(&r.p, map[k].id);
        const as_matrix *g = (const as_matrix *)((const char *)&r.g + map[k].off);
        if (in == NULL)
            continue;
        assert_int_equal(g->rows * g->cols, in->rows * in->cols);
        for (i = 0; i < in->rows * in->cols; i++) {
            const double x = in->v[i];
            double up, down, fd;
            in->v[i] = x + h;
            up = forward_loss(&r);
            in->v[i] = x - h;
            down = forward_loss(&r);
            in->v[i] = x;
            fd = (up - down) / (2 * h);
            if (!(fabs(fd - g->v[i]) <= 1e-6 * fabs(g->v[i]) + 1e-7)) {
                print_error("%s: d%s cell %zu: backward %.17g, differences %.17g\n", name,
                            as_mat_name(map[k].id), i, g->v[i], fd);
                fail();
            }
            cells++;
        }
    }
    close_case(&r);
    return cells;
}

static void test_every_input_gradient_matches_finite_differences(void **state)
{
    static const char *const cases[] = {"f11_sum", "self_heads_wo_mse", "cross_two_heads_dO",
                                        "custom_mask_scale", "torch_layout_heads",
                                        "cross_wo_mse", "gqa_window", "alibi_fd"};
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++)
        assert_true(agree_with_differences(cases[c]) > 10);
}

/* ---- the backward pass row by row (SPEC §10) ---- */

/* as_matmul_tn_acc() over the rows 0-2 and then 3-6 of a: each cell the running fma sum
 * over all seven rows in order, from +0 (written out here with C's fma), bit for bit. */
static void test_matmul_tn_acc_over_blocks_gives_one_running_sum(void **state)
{
    double a[7 * 3], b[7 * 2], out[3 * 2] = {0}, want;
    size_t i, r, j;

    (void)state;
    for (i = 0; i < 7 * 3; i++)
        a[i] = 1.0 / (double)(i + 3) - 0.2;
    for (i = 0; i < 7 * 2; i++)
        b[i] = 0.1 * (double)i - 0.55;
    as_matmul_tn_acc(out, a, b, 3, 3, 2);
    as_matmul_tn_acc(out, a + 3 * 3, b + 3 * 2, 4, 3, 2);
    for (r = 0; r < 3; r++)
        for (j = 0; j < 2; j++) {
            want = 0.0;
            for (i = 0; i < 7; i++)
                want = fma(a[i * 3 + r], b[i * 2 + j], want);
            assert_memory_equal(&out[r * 2 + j], &want, sizeof want);
        }
}

/* The backward pass of text[0..len) on its session's full trace (rows 0) or rows trace
 * (rows 1); 0, or -1 when the input is refused (the message is in err). */
static int grad_of(as_session *s, as_grad *g, const char *text, size_t len, int rows,
                   as_error *err)
{
    as_session_opts o;

    memset(&o, 0, sizeof o);
    memset(g, 0, sizeof *g);
    o.rows = rows;
    as_error_clear(err);
    if (as_session_open_text(s, text, len, "generated", &o, err) != 0) {
        memset(s, 0, sizeof *s);
        return -1;
    }
    return as_grad_loss(g, &s->p, &s->t, AS_LANG_EN, err) != 0 ||
                   as_grad_run(g, &s->p, &s->t, err) != 0
               ? -1
               : 0;
}

static void assert_same_bits(const as_matrix *a, const as_matrix *b, const char *what)
{
    if (a->rows != b->rows || a->cols != b->cols) {
        print_error("%s: [%zu,%zu] against [%zu,%zu]\n", what, a->rows, a->cols, b->rows,
                    b->cols);
        fail();
    }
    if (a->rows * a->cols > 0)
        assert_memory_equal(a->v, b->v, a->rows * a->cols * sizeof *a->v);
}

/* Every row of head hd's dA, dS and d(QKᵀ) made again after the rows run (as the
 * renderers read them) is that row of the full run's table (full), bit for bit. */
static void assert_rows_are_the_tables(const as_grad *g, const as_session *s, size_t hd,
                                       const as_grad_head *full)
{
    const as_matrix *want[] = {&full->dA, &full->dS, &full->dQKT};
    size_t k, i;

    for (k = 0; k < 3; k++) {
        as_grad_rows h;
        const as_rows r = as_grad_rows_open(&h, g, &s->p, &s->t, hd, (as_grad_square)k);
        assert_int_equal(r.rows, want[k]->rows);
        assert_int_equal(r.cols, want[k]->cols);
        for (i = 0; i < r.rows; i++) {
            const double *row = r.row(r.ctx, i);
            assert_non_null(row);
            assert_memory_equal(row, want[k]->v + i * r.cols, r.cols * sizeof *row);
        }
        as_grad_rows_close(&h);
    }
}

/* The backward pass of text on a rows trace keeps no n x m table and every other table
 * bit for bit as on the full trace (which the cases above hold against torch), its rows
 * of dA, dS and d(QKᵀ) made again are the full run's, and an input refused is refused
 * with the same message. */
static void assert_rows_backward_is_the_full_one(const char *text, size_t len)
{
    as_session sf, sr;
    as_grad gf, gr;
    as_error ef, er;
    const int rf = grad_of(&sf, &gf, text, len, 0, &ef), rr = grad_of(&sr, &gr, text, len, 1, &er);
    size_t hd;

    assert_int_equal(rf, rr);
    if (rf != 0)
        assert_string_equal(ef.msg, er.msg);
    else {
        const as_matrix *f[] = {&gf.dO, &gf.dWo, &gf.dbo, &gf.dC, &gf.dQ, &gf.dK, &gf.dV,
                                &gf.dWq, &gf.dWk, &gf.dWv, &gf.dbq, &gf.dbk, &gf.dbv,
                                &gf.dX, &gf.dXkv};
        const as_matrix *r[] = {&gr.dO, &gr.dWo, &gr.dbo, &gr.dC, &gr.dQ, &gr.dK, &gr.dV,
                                &gr.dWq, &gr.dWk, &gr.dWv, &gr.dbq, &gr.dbk, &gr.dbv,
                                &gr.dX, &gr.dXkv};
        size_t k;
        assert_memory_equal(&gf.loss, &gr.loss, sizeof gf.loss);
        for (k = 0; k < sizeof f / sizeof f[0]; k++)
            assert_same_bits(f[k], r[k], "a gradient of the whole layer");
        assert_int_equal(gf.heads, gr.heads);
        for (hd = 0; hd < gf.heads; hd++) {
            const as_grad_head *a = &gf.head[hd], *b = &gr.head[hd];
            assert_same_bits(&a->dO, &b->dO, "dO of a head");
            assert_same_bits(&a->dV, &b->dV, "dV of a head");
            assert_same_bits(&a->rowdot, &b->rowdot, "rowdot of a head");
            assert_same_bits(&a->dQ, &b->dQ, "dQ of a head");
            assert_same_bits(&a->dK, &b->dK, "dK of a head");
            assert_same_bits(&a->dQr, &b->dQr, "dQr of a head (rope)");
            assert_same_bits(&a->dKr, &b->dKr, "dKr of a head (rope)");
            assert_int_equal(b->dA.rows + b->dS.rows + b->dQKT.rows, 0);
            assert_true(a->dS.rows == sf.p.n); /* the full run keeps them */
            assert_rows_are_the_tables(&gr, &sr, hd, a);
        }
    }
    as_grad_free(&gf);
    as_grad_free(&gr);
    as_session_free(&sf);
    as_session_free(&sr);
}

/* Every torch case, and generated inputs of 1 to 99 tokens (more than one block of
 * GRAD_BLOCK_ROWS rows: the sums of dV and dK go on from block to block; several heads,
 * shared K/V heads, windows, custom masks, biases, Wo, and every kind of positions:
 * sinusoidal, RoPE with both pairings, ALiBi). */
static void test_the_backward_pass_row_by_row_gives_the_full_ones_bits(void **state)
{
    static const char *const cases[] = {"f11_sum", "self_heads_wo_mse", "cross_two_heads_dO",
                                        "custom_mask_scale", "torch_layout_heads",
                                        "cross_wo_mse", "gqa_window", "alibi_fd"};
    gen g = {0};
    uint64_t which;
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[256];
        FILE *f;
        g.len = 0;
        snprintf(path, sizeof path, DIR "%s.txt", cases[c]);
        assert_non_null(f = fopen(path, "rb"));
        put(&g, "%s", "");
        for (;;) {
            char chunk[4096];
            const size_t got = fread(chunk, 1, sizeof chunk, f);
            if (got == 0)
                break;
            put(&g, "%.*s", (int)got, chunk);
        }
        fclose(f);
        assert_rows_backward_is_the_full_one(g.buf, g.len);
    }
    for (which = 0; which < (under_valgrind() ? 6u : 40u); which++) {
        generate(&g, which, 1 + (size_t)(which * 37 % 99));
        put(&g, "loss: sum\n");
        assert_rows_backward_is_the_full_one(g.buf, g.len);
    }
    free(g.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softmax_backward_matches_the_hand_calculation),
        cmocka_unit_test(test_masked_cells_get_exactly_zero),
        cmocka_unit_test(test_matmul_tn_transposes_the_first_table),
        cmocka_unit_test(test_matmul_tn_fast_gives_the_same_bits),
        cmocka_unit_test(test_losses_and_column_sums),
        cmocka_unit_test(test_f11_with_loss_sum_agrees_with_torch),
        cmocka_unit_test(test_heads_wo_biases_and_mse_agree_with_torch),
        cmocka_unit_test(test_cross_attention_with_a_given_dO_agrees_with_torch),
        cmocka_unit_test(test_a_custom_mask_and_scale_agree_with_torch),
        cmocka_unit_test(test_layout_torch_agrees_with_torch),
        cmocka_unit_test(test_shared_keys_and_a_window_agree_with_torch),
        cmocka_unit_test(test_every_input_gradient_matches_finite_differences),
        cmocka_unit_test(test_matmul_tn_acc_over_blocks_gives_one_running_sum),
        cmocka_unit_test(test_the_backward_pass_row_by_row_gives_the_full_ones_bits),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
