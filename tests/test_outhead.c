/* test_outhead.c - the output head's steps in order (SPEC §19): the SPEC's logits
 * [2, 1, 0] through an identity Wout, a tied head against the same sums with Wout = Eᵀ
 * written out (bit for bit), and a random head through temperature 0.7, top_k 5 and
 * top_p 0.8 against numpy float64, computed once with:
 *   rng = np.random.default_rng(35); h = np.round(rng.normal(size=4), 3)
 *   E = np.round(rng.normal(size=(12, 4)), 3); s = (h @ E.T) / 0.7
 *   top-k: the 5 largest of s (stable argsort of -s), the rest -inf; softmax;
 *   top-p: stable argsort of -p, cumsum, keep up to searchsorted(c, 0.8) + 1; softmax
 * which keeps tokens 8 and 9 (running sums 0.7252945797750555, 0.9383018847311759). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/outhead.h"
#include "attnstep/session.h"

static as_matrix table(size_t rows, size_t cols, const double *v)
{
    as_matrix m;

    assert_int_equal(as_matrix_init(&m, rows, cols), 0);
    memcpy(m.v, v, rows * cols * sizeof *v);
    return m;
}

static void test_the_spec_logits_through_every_step(void **state)
{
    const double h[3] = {2, 1, 0}, eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    as_matrix w = table(3, 3, eye);
    as_head_opts opts = {.temperature = 1};
    as_out_head o;

    (void)state;
    assert_int_equal(as_out_head_run(&o, h, 3, &w, 0, &opts), 0);
    assert_true(o.logits.v[0] == 2 && o.logits.v[1] == 1 && o.logits.v[2] == 0);
    assert_true(fabs(o.final.v[0] - 0.6652409558) <= 0.5e-10 && o.token == 0);
    as_out_head_free(&o);
    opts = (as_head_opts){.temperature = 1, .top_k = 2};
    assert_int_equal(as_out_head_run(&o, h, 3, &w, 0, &opts), 0);
    assert_true(fabs(o.final.v[0] - 0.7310585786) <= 0.5e-10 &&
                fabs(o.final.v[1] - 0.2689414214) <= 0.5e-10 && o.final.v[2] == 0);
    as_out_head_free(&o);
    opts = (as_head_opts){.temperature = 1, .top_p = 0.9, .seeded = 1, .seed = 42};
    assert_int_equal(as_out_head_run(&o, h, 3, &w, 0, &opts), 0);
    assert_int_equal(o.kept, 2); /* {0, 1}: 0.665 < 0.9 <= 0.910 */
    assert_true(o.order.v[0] == 0 && o.order.v[1] == 1 && o.final.v[2] == 0);
    assert_true(o.u == 0.7415648787718233); /* splitmix64(42), computed in Python */
    assert_int_equal(o.token, 1);            /* 0.7310585786 <= u */
    as_out_head_free(&o);
    opts = (as_head_opts){.temperature = 0.5, .seeded = 1, .seed = 42};
    assert_int_equal(as_out_head_run(&o, h, 3, &w, 0, &opts), 0);
    assert_true(fabs(o.final.v[0] - 0.8668133322) <= 0.5e-10);
    assert_int_equal(o.token, 0); /* u = 0.7416 < 0.8668 */
    assert_null(o.topk.v);
    as_out_head_free(&o);
    as_matrix_free(&w);
}

static const double H[4] = {-1.138, 0.771, 1.15, 0.735};
static const double E[48] = {
    1.448,  0.003,  -1.423, -0.057, 0.483,  0.415,  -0.601, -2.06,  2.095,  -0.003, 0.466,  -0.638,
    -0.824, 0.644,  0.952,  -0.943, -0.562, -0.702, -1.09,  -0.832, -0.12,  -1.746, 2.144,  -1.434,
    -0.394, 1.781,  -0.422, 0.044,  0.624,  1.698,  -0.9,   1.518,  -1.113, 1.897,  1.142,  0.554,
    -0.307, 1.594,  0.931,  1.283,  -1.295, 0.024,  0.343,  0.613,  -1.633, -1.606, 0.535,  -0.382};

static void test_a_tied_head_is_h_times_e_transposed_bit_for_bit(void **state)
{
    double et[48];
    as_matrix e = table(12, 4, E), w;
    const as_head_opts opts = {.temperature = 1};
    as_out_head tied, untied;
    size_t i, j;

    (void)state;
    for (i = 0; i < 12; i++)
        for (j = 0; j < 4; j++)
            et[j * 12 + i] = E[i * 4 + j];
    w = table(4, 12, et);
    assert_int_equal(as_out_head_run(&tied, H, 4, &e, 1, &opts), 0);
    assert_int_equal(as_out_head_run(&untied, H, 4, &w, 0, &opts), 0);
    assert_int_equal(tied.vocab, 12);
    for (i = 0; i < 12; i++) {
        double sum = 0; /* the running sum by fma, as the book's products are made */
        for (j = 0; j < 4; j++)
            sum = fma(H[j], E[i * 4 + j], sum);
        assert_memory_equal(&tied.logits.v[i], &untied.logits.v[i], sizeof(double));
        assert_memory_equal(&tied.logits.v[i], &sum, sizeof(double));
    }
    as_out_head_free(&tied);
    as_out_head_free(&untied);
    as_matrix_free(&e);
    as_matrix_free(&w);
}

static void test_temperature_top_k_and_top_p_agree_with_numpy(void **state)
{
    const double final[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0.7729863827171709, 0.2270136172828291,
                              0, 0};
    as_matrix e = table(12, 4, E);
    const as_head_opts opts = {.temperature = 0.7, .top_k = 5, .top_p = 0.8};
    as_out_head o;
    size_t i, cut = 0;

    (void)state;
    assert_int_equal(as_out_head_run(&o, H, 4, &e, 1, &opts), 0);
    for (i = 0; i < 12; i++) {
        cut += o.topk.v[i] == -INFINITY;
        assert_true(fabs(o.final.v[i] - final[i]) <= 1e-15);
    }
    assert_int_equal(cut, 7); /* top_k 5 of 12 */
    assert_int_equal(o.kept, 2);
    assert_true(o.order.v[0] == 8 && o.order.v[1] == 9);
    assert_true(fabs(o.cum.v[0] - 0.7252945797750555) <= 1e-15 &&
                fabs(o.cum.v[1] - 0.9383018847311759) <= 1e-15);
    assert_int_equal(o.token, 8);
    as_out_head_free(&o);
    as_matrix_free(&e);
}

/* ids take two rows of E, but a tied head reads all of them (examples/generate.txt's
 * E [4, 2]): its logits are h·Eᵀ over the whole vocabulary, each the running fma sum of
 * h with E's row, bit for bit */
static void test_a_tied_session_reads_every_row_of_e(void **state)
{
    static const char text[] = "ids: 0 1\nE = [[1, 1], [1, -1], [0, 1], [1, 0]]\n"
                               "Wq = [[0.5, 0.5], [-0.5, 0.5]]\nWk = [[0.5, 0.5], [0.5, -0.5]]\n"
                               "Wv = [[5, 10], [5, -10]]\nhead: tied\n";
    const double e[4][2] = {{1, 1}, {1, -1}, {0, 1}, {1, 0}};
    as_session s;
    as_error err;
    size_t v;

    (void)state;
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_session_open_text(&s, text, strlen(text), "t.txt", NULL, &err), 0);
    assert_non_null(s.t.out);
    assert_int_equal(s.t.out->vocab, 4);
    for (v = 0; v < 4; v++) {
        const double *h = &AS_AT(s.t.O, 1, 0);
        const double want = fma(h[1], e[v][1], fma(h[0], e[v][0], 0.0));
        assert_memory_equal(&s.t.out->logits.v[v], &want, sizeof want);
    }
    /* h = F11's o₁ = [6.6976154933, 6.6047690135] (SPEC §4): token 0 scores their sum */
    assert_true(fabs(s.t.out->logits.v[0] - (6.6976154933 + 6.6047690135)) < 1e-9);
    as_session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_tied_session_reads_every_row_of_e),
        cmocka_unit_test(test_the_spec_logits_through_every_step),
        cmocka_unit_test(test_a_tied_head_is_h_times_e_transposed_bit_for_bit),
        cmocka_unit_test(test_temperature_top_k_and_top_p_agree_with_numpy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
