/* test_grad_block.c - `grad` through the whole block (SPEC §13 and §15, issue 31): the
 * backward steps of the norms and activations against hand calculation, and every
 * gradient of 40 configurations x 30 random inputs (block pre|post, norm
 * layer|annotated|rms|none, ffn relu|gelu|gelu_tanh|swiglu|none; 1 and 2 heads, with and
 * without biases and γ/β, with and without lnf, each loss; and 30 with cross-attention,
 * shared K/V heads and layout: torch) against PyTorch autograd in float64 (tests/data/grad/block/make_block_grad.py, run once; no Python here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/block_backward.h"
#include "attnstep/grad.h"
#include "attnstep/session.h"
#include "test_util.h"
#include "grad_expected.h"

#define DIR "tests/data/grad/block/"

/* ---- the steps, by hand ---- */

/* LayerNorm (torch) of a row with dy = γ-free ones: the gradient of Σy is 0, since the
 * row's mean is subtracted (Σ x̂ = 0 whatever x); RMSNorm of [3, 4] (rms = √12.5 with
 * ε = 0, x̂ = [0.6√2, 0.8√2]) with dy = [1, 0]: dx = (1 − x̂₀·x̂₀/2)/rms, −x̂₀x̂₁/2/rms
 * = (1 − 0.36)/√12.5, −0.48/√12.5 by hand. */
static void test_norm_backward_matches_the_hand_calculation(void **state)
{
    const double xhat[] = {-1.224744871391589, 0, 1.224744871391589};
    const double ones[] = {1, 1, 1}, div[] = {0.816496580927726};
    const double r = sqrt(12.5), rxhat[] = {3 / r, 4 / r}, rdy[] = {1, 0};
    double dx[3], dg[3], db[3];

    (void)state;
    as_norm_backward_rows(dx, dg, db, ones, xhat, NULL, NULL, div, NULL, 1, 3, AS_NORM_LAYER,
                          AS_NORM_TORCH);
    assert_close(dx[0], 0, 1e-15);
    assert_close(dx[1], 0, 1e-15);
    assert_close(dx[2], 0, 1e-15);
    assert_close(dg[2], xhat[2], 0);
    assert_close(db[1], 1, 0);
    as_norm_backward_rows(dx, NULL, NULL, rdy, rxhat, NULL, NULL, &r, NULL, 1, 2, AS_NORM_RMS,
                          AS_NORM_TORCH);
    assert_close(dx[0], 0.64 / r, 1e-15);
    assert_close(dx[1], -0.48 / r, 1e-15);
}

/* ReLU passes the gradient where x > 0 only (0 at 0, as torch); GELU's derivative at 0
 * is Φ(0) = 1/2 (both forms); SiLU's at 0 is σ(0) = 1/2. */
static void test_activation_backward_at_hand_points(void **state)
{
    const double x[] = {-1, 0, 2}, dy[] = {5, 5, 5};
    double dx[3];

    (void)state;
    as_activation_backward(dx, dy, x, 3, AS_FFN_RELU);
    assert_close(dx[0], 0, 0);
    assert_close(dx[1], 0, 0);
    assert_close(dx[2], 5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_GELU);
    assert_close(dx[0], 2.5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_GELU_TANH);
    assert_close(dx[0], 2.5, 0);
    as_activation_backward(dx, dy + 1, x + 1, 1, AS_FFN_SWIGLU);
    assert_close(dx[0], 2.5, 0);
}

/* ---- the stored cases ---- */

/* The gradient table make_block_grad.py names name, or NULL. */
static const as_matrix *table(const as_grad *g, const char *name, as_matrix *loss)
{
    const struct { const char *n; const as_matrix *m; } all[] = {
        {"dY", &g->dY}, {"dH2", &g->dH2}, {"dR2", &g->dR2}, {"dD", &g->dD}, {"dF", &g->dF},
        {"dG", &g->dG}, {"dZ", &g->dZ}, {"dU", &g->dU}, {"dN2", &g->dN2}, {"dH1", &g->dH1},
        {"dR1", &g->dR1}, {"dO", &g->dO}, {"dN1", &g->dN1}, {"dX", &g->dX},
        {"dXkv", &g->dXkv},
        {"dWq", &g->dWq}, {"dWk", &g->dWk}, {"dWv", &g->dWv}, {"dWo", &g->dWo},
        {"dbq", &g->dbq}, {"dbk", &g->dbk}, {"dbv", &g->dbv}, {"dbo", &g->dbo},
        {"dWup", &g->dWup}, {"dbup", &g->dbup}, {"dWdown", &g->dWdown},
        {"dbdown", &g->dbdown}, {"dWgate", &g->dWgate},
        {"dln1_g", &g->dln_g[0]}, {"dln2_g", &g->dln_g[1]}, {"dlnf_g", &g->dln_g[2]},
        {"dln1_b", &g->dln_b[0]}, {"dln2_b", &g->dln_b[1]}, {"dlnf_b", &g->dln_b[2]}};
    size_t i;

    if (strcmp(name, "loss") == 0) {
        *loss = (as_matrix){1, 1, (double *)&g->loss};
        return loss;
    }
    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i].n, name) == 0)
            return all[i].m->v != NULL ? all[i].m : NULL;
    return NULL;
}

/* The backward pass of text[0..len) on its session (rows: its rows trace), or fail(). */
static void grad_of(as_session *s, as_grad *g, const char *text, size_t len, int rows,
                    const char *what)
{
    as_session_opts o;
    as_error err;

    memset(&o, 0, sizeof o);
    memset(g, 0, sizeof *g);
    o.rows = rows;
    as_error_clear(&err);
    if (as_session_open_text(s, text, len, what, &o, &err) != 0 ||
        as_grad_loss(g, &s->p, &s->t, AS_LANG_EN, &err) != 0 ||
        as_grad_run(g, &s->p, &s->t, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
}

/* Reads the input of one case ("case K LINES" then LINES lines) into text; 0 at the end. */
static int read_case(FILE *f, char *text, size_t size, size_t *len)
{
    unsigned k, lines, i;

    if (fscanf(f, " case %u %u\n", &k, &lines) != 2)
        return 0;
    *len = 0;
    for (i = 0; i < lines; i++) {
        assert_non_null(fgets(text + *len, (int)(size - *len), f));
        *len += strlen(text + *len);
    }
    return 1;
}

/* table() as grad_expected.h reads it. */
static const as_matrix *grad_table(const void *g, const char *name, as_matrix *loss)
{
    return table(g, name, loss);
}

/* The tables a gradient of the block has in both runs, the same bits. */
static void assert_same_bits(const as_grad *a, const as_grad *b)
{
    const char *const names[] = {"dY", "dH2", "dD", "dF", "dG", "dU", "dN2", "dH1", "dO",
                                 "dN1", "dX", "dWq", "dWk", "dWv", "dWup", "dWdown", "dWgate",
                                 "dln1_g", "dln2_g"};
    as_matrix l1, l2;
    size_t i;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const as_matrix *x = table(a, names[i], &l1), *y = table(b, names[i], &l2);
        assert_true((x == NULL) == (y == NULL));
        if (x != NULL && x->rows * x->cols > 0)
            assert_memory_equal(x->v, y->v, x->rows * x->cols * sizeof *x->v);
    }
}

/* Each case of one configuration, full run against torch and the rows run against the
 * full run bit for bit; returns the tables compared. */
static size_t agree_with_torch(const char *config)
{
    static char text[1 << 16];
    char path[256];
    size_t len, tables = 0, cases = 0;
    FILE *f;

    snprintf(path, sizeof path, DIR "%s.cases", config);
    assert_non_null(f = fopen(path, "r"));
    while (read_case(f, text, sizeof text, &len)) {
        as_session s, r;
        as_grad g, gr;
        grad_of(&s, &g, text, len, 0, config);
        tables += grad_compare_tables(f, grad_table, &g, config, (unsigned)cases);
        grad_of(&r, &gr, text, len, 1, config);
        assert_same_bits(&g, &gr);
        as_grad_free(&gr);
        as_session_free(&r);
        as_grad_free(&g);
        as_session_free(&s);
        cases++;
    }
    fclose(f);
    assert_int_equal(cases, 30);
    return tables;
}

/* Every configuration: the block's kinds against each other. */
static void test_every_block_configuration_agrees_with_torch(void **state)
{
    static const char *const blocks[] = {"pre", "post"};
    static const char *const norms[] = {"layer", "annotated", "rms", "none"};
    static const char *const ffns[] = {"relu", "gelu", "gelu_tanh", "swiglu", "none"};
    size_t b, n, k, tables = 0;
    char config[64];

    (void)state;
    for (b = 0; b < 2; b++)
        for (n = 0; n < 4; n++)
            for (k = 0; k < 5; k++) {
                snprintf(config, sizeof config, "%s_%s_%s", blocks[b], norms[n], ffns[k]);
                tables += agree_with_torch(config);
            }
    assert_true(tables > 40 * 30 * 15);
}

/* Cross-attention (Xkv read as it is, the norm on X only), shared K/V heads and layout:
 * torch, around the block. */
static void test_cross_attention_shared_heads_and_torch_layout_agree_with_torch(void **state)
{
    (void)state;
    assert_true(agree_with_torch("variants") > 30 * 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_norm_backward_matches_the_hand_calculation),
        cmocka_unit_test(test_activation_backward_at_hand_points),
        cmocka_unit_test(test_every_block_configuration_agrees_with_torch),
        cmocka_unit_test(test_cross_attention_shared_heads_and_torch_layout_agree_with_torch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
