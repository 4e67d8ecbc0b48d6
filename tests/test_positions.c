/* test_positions.c - the position steps (SPEC §12) against hand calculation: each
 * expected value below is worked out in the comment beside it, from the formulas of the
 * papers, not from the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/attention.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/positions.h"
#include "attnstep/prng.h"
#include "test_util.h"

#define DIR "tests/data/positions/"

/* as_rope at positions offset, offset+1, ...: the angles first, then the turn. */
static void rope_at(double *out, const double *x, size_t n, size_t d, double base,
                    as_rope_pairing pairing, size_t offset)
{
    double angle[64], cs[64], sn[64];

    assert_true(n * d / 2 <= 64);
    as_rope_angles(angle, cs, sn, n, d, base, offset);
    as_rope(out, x, n, d, cs, sn, pairing);
}

static void test_sinusoidal_position_zero_is_sin_zero_cos_zero(void **state)
{
    double pe[6];
    size_t c;

    (void)state;
    as_sinusoidal(pe, 1, 6, 0);
    for (c = 0; c < 6; c++)
        assert_close(pe[c], c % 2 == 0 ? 0.0 : 1.0, 0); /* sin 0 = 0, cos 0 = 1 */
}

static void test_sinusoidal_pairs_share_a_frequency(void **state)
{
    double pe[2 * 4];

    (void)state;
    as_sinusoidal(pe, 2, 4, 2); /* positions 2 and 3, d = 4: frequencies 1 and 1/100 */
    assert_close(pe[0], sin(2.0), 1e-15);
    assert_close(pe[1], cos(2.0), 1e-15);
    assert_close(pe[2], sin(0.02), 1e-15); /* 2 / 10000^(2/4) = 2/100 */
    assert_close(pe[3], cos(0.02), 1e-15);
    assert_close(pe[4 + 2], sin(0.03), 1e-15);
}

static void test_sinusoidal_odd_width_ends_on_a_sine(void **state)
{
    double pe[3];

    (void)state;
    as_sinusoidal(pe, 1, 3, 1); /* d = 3: column 2 is sin(1 / 10000^(2/3)) */
    assert_close(pe[2], sin(1.0 / pow(10000.0, 2.0 / 3.0)), 1e-15);
}

static void test_rope_theta_is_base_to_minus_two_i_over_d(void **state)
{
    (void)state;
    assert_close(as_rope_theta(0, 8, 10000), 1.0, 0);
    assert_close(as_rope_theta(1, 4, 10000), 0.01, 1e-18);  /* 10000^(-2/4) */
    assert_close(as_rope_theta(2, 8, 10000), 0.01, 1e-18);  /* 10000^(-4/8) */
    assert_close(as_rope_theta(1, 2 * 3, 8), 0.5, 1e-16);   /* 8^(-2/6) = 1/2 */
}

static void test_rope_turns_the_chapter_query_by_one_radian(void **state)
{
    /* F11's q1 = [1, 0] at position 1, d_k = 2: one pair, θ0 = 1, angle 1 */
    const double q[2] = {1, 0};
    double out[2];

    (void)state;
    rope_at(out, q, 1, 2, 10000, AS_ROPE_HALF, 1);
    assert_close(out[0], cos(1.0), 1e-16);
    assert_close(out[1], sin(1.0), 1e-16);
}

static void test_rope_half_pairs_i_with_i_plus_half(void **state)
{
    const double x[4] = {1, 2, 3, 4};
    double o[4];

    (void)state;
    rope_at(o, x, 1, 4, 10000, AS_ROPE_HALF, 1);
    /* pairs (0,2) at angle 1 and (1,3) at angle 1/100 */
    assert_close(o[0], 1 * cos(1.0) - 3 * sin(1.0), 1e-15);
    assert_close(o[2], 1 * sin(1.0) + 3 * cos(1.0), 1e-15);
    assert_close(o[1], 2 * cos(0.01) - 4 * sin(0.01), 1e-15);
    assert_close(o[3], 2 * sin(0.01) + 4 * cos(0.01), 1e-15);
}

static void test_rope_interleaved_pairs_neighbours(void **state)
{
    const double x[4] = {1, 2, 3, 4};
    double o[4];

    (void)state;
    rope_at(o, x, 1, 4, 10000, AS_ROPE_INTERLEAVED, 1);
    /* pairs (0,1) at angle 1 and (2,3) at angle 1/100 */
    assert_close(o[0], 1 * cos(1.0) - 2 * sin(1.0), 1e-15);
    assert_close(o[1], 1 * sin(1.0) + 2 * cos(1.0), 1e-15);
    assert_close(o[2], 3 * cos(0.01) - 4 * sin(0.01), 1e-15);
    assert_close(o[3], 3 * sin(0.01) + 4 * cos(0.01), 1e-15);
}

static void test_rope_position_zero_changes_nothing(void **state)
{
    const double x[6] = {0.5, -1, 2, 3, -4, 0.25};
    double o[6];
    size_t i;

    (void)state;
    rope_at(o, x, 1, 6, 10000, AS_ROPE_INTERLEAVED, 0);
    for (i = 0; i < 6; i++)
        assert_close(o[i], x[i], 0);
}

/* RoPE's backward pass: the turn of F11's q1 by 1 radian, (a, b) → (a cos − b sin,
 * a sin + b cos), has the Jacobian [[cos, −sin], [sin, cos]]; its transpose sends the
 * gradient [1, 0] of the turned pair to [cos 1, −sin 1] (the chain rule by hand:
 * ∂L/∂a = 1·cos, ∂L/∂b = 1·(−sin)). The half pairing pairs (0,2) and (1,3): dy = e₁
 * (column 1) goes back to [0, cos 0.01, 0, −sin 0.01]. */
static void test_rope_backward_is_the_transposed_turn(void **state)
{
    const double dy[2] = {1, 0}, e1[4] = {0, 1, 0, 0};
    double angle[2], cs[2], sn[2], dx[4];

    (void)state;
    as_rope_angles(angle, cs, sn, 1, 2, 10000, 1);
    as_rope_backward(dx, dy, 1, 2, cs, sn, AS_ROPE_HALF);
    assert_close(dx[0], cos(1.0), 1e-16);
    assert_close(dx[1], -sin(1.0), 1e-16);
    as_rope_angles(angle, cs, sn, 1, 4, 10000, 1);
    as_rope_backward(dx, e1, 1, 4, cs, sn, AS_ROPE_HALF);
    assert_close(dx[0], 0, 0);
    assert_close(dx[1], cos(0.01), 1e-16);
    assert_close(dx[2], 0, 0);
    assert_close(dx[3], -sin(0.01), 1e-16);
    /* interleaved pairs (2,3): e₃ goes back to [0, 0, sin 0.01, cos 0.01] */
    as_rope_backward(dx, (const double[4]){0, 0, 0, 1}, 1, 4, cs, sn, AS_ROPE_INTERLEAVED);
    assert_close(dx[2], sin(0.01), 1e-16);
    assert_close(dx[3], cos(0.01), 1e-16);
}

/* q at position p and k at position p - 3: their dot product after the rotation depends
 * only on the distance 3 (a rotation by pθ and one by (p−3)θ leave an angle of 3θ). */
static void test_rope_dot_product_depends_only_on_the_distance(void **state)
{
    const double q[4] = {0.3, -1.2, 2.5, 0.7}, k[4] = {-0.8, 0.4, 1.1, -2.0};
    double first = 0, qr[4], kr[4];
    size_t p, i;

    (void)state;
    for (p = 3; p < 200; p += 37) {
        double dot = 0;
        rope_at(qr, q, 1, 4, 10000, AS_ROPE_HALF, p);
        rope_at(kr, k, 1, 4, 10000, AS_ROPE_HALF, p - 3);
        for (i = 0; i < 4; i++)
            dot += qr[i] * kr[i];
        if (p == 3)
            first = dot;
        assert_close(dot, first, 1e-12);
    }
}

static void test_alibi_slopes_of_eight_heads_are_halvings(void **state)
{
    double s[8];
    size_t h;

    (void)state;
    as_alibi_slopes(s, 8); /* 2^(-8/8) = 1/2, then 1/4, ..., 1/256 */
    for (h = 0; h < 8; h++)
        assert_close(s[h], ldexp(1.0, -(int)(h + 1)), 0);
}

static void test_alibi_slopes_of_three_heads_follow_the_paper(void **state)
{
    double s[3];

    (void)state;
    /* get_slopes(3): power of two 2 gives 2^-4, 2^-8; get_slopes(4)[0::2][:1] = 2^-2 */
    as_alibi_slopes(s, 3);
    assert_close(s[0], 0.0625, 0);
    assert_close(s[1], 0.00390625, 0);
    assert_close(s[2], 0.25, 0);
}

static void test_alibi_slopes_of_six_heads_follow_the_paper(void **state)
{
    const double want[6] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
    double s[6];
    size_t h;

    (void)state;
    /* get_slopes(4) = 2^-2, 2^-4, 2^-6, 2^-8; then get_slopes(8)[0::2][:2] = 2^-1, 2^-3 */
    as_alibi_slopes(s, 6);
    for (h = 0; h < 6; h++)
        assert_close(s[h], want[h], 0);
}

static void test_alibi_slope_of_one_head_is_two_to_minus_eight(void **state)
{
    double s[1];

    (void)state;
    as_alibi_slopes(s, 1);
    assert_close(s[0], 1.0 / 256, 0);
}

static void test_alibi_bias_grows_with_the_distance_into_the_past(void **state)
{
    double b[3 * 3];

    (void)state;
    as_alibi_bias(b, 3, 3, 0.5);
    assert_close(b[0], 0, 0);          /* i = j: no bias */
    assert_close(b[1 * 3 + 0], -0.5, 0); /* one step back: -slope */
    assert_close(b[2 * 3 + 0], -1.0, 0); /* two steps back */
    assert_close(b[0 * 3 + 2], 1.0, 0);  /* −slope·(0 − 2): the future, which a causal mask hides */
}

/* ---- the whole layer against the references of make_cases.py ---- */

/* The table a section of an .expected file names: PE, PEkv, QKTh, Qrh, Krh, Bh or O. */
static const as_matrix *table_named(const as_trace *t, const char *name)
{
    static const char *const per_head[] = {"QKT", "Qr", "Kr", "B"};
    size_t k, len;

    if (strcmp(name, "PE") == 0)
        return &t->PE;
    if (strcmp(name, "PEkv") == 0)
        return &t->PEkv;
    if (strcmp(name, "O") == 0)
        return &t->O;
    for (k = 0; k < 4; k++) {
        len = strlen(per_head[k]);
        if (strncmp(name, per_head[k], len) == 0 && name[len] >= '0' && name[len] <= '9') {
            const as_head_trace *h = &t->head[strtoul(name + len, NULL, 10)];
            return k == 0 ? &h->QKT : k == 1 ? &h->Qr : k == 2 ? &h->Kr : &h->B;
        }
    }
    return NULL;
}

/* Compares every section of the expected file with the run's table, to 1e-12 relative
 * (absolute for values below 1). Returns the number of tables compared. */
static int compare_sections(FILE *f, const as_trace *t, const char *what)
{
    char name[32];
    size_t rows, cols, i;
    int tables = 0;

    while (fscanf(f, "%31s %zu %zu", name, &rows, &cols) == 3) {
        const as_matrix *m = table_named(t, name);
        if (m == NULL || m->rows != rows || m->cols != cols) {
            print_error("%s: table %s [%zu,%zu] missing or of another shape\n", what, name, rows, cols);
            fail();
        }
        for (i = 0; i < rows * cols; i++) {
            double want;
            assert_int_equal(fscanf(f, "%lf", &want), 1);
            if (!(fabs(m->v[i] - want) <= 1e-12 * fmax(1.0, fabs(want)))) {
                print_error("%s: %s cell %zu = %.17g, reference %.17g\n", what, name, i, m->v[i], want);
                fail();
            }
        }
        tables++;
    }
    return tables;
}

/* Runs case name at --offset offset, full and lean, against NAME[.offsetP].expected. */
static void agree_with_reference(const char *name, size_t offset)
{
    char path[256];
    as_input in;
    as_problem p;
    as_trace t, lean;
    as_error err;
    FILE *f;
    size_t i;

    as_error_clear(&err);
    snprintf(path, sizeof path, DIR "%s.txt", name);
    if (as_parse_file(&in, path, &err) != 0 || as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    p.offset = offset;
    if (as_attention_run(&t, &p, &err) != 0 || as_attention_run_lean(&lean, &p, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    if (offset)
        snprintf(path, sizeof path, DIR "%s.offset%zu.expected", name, offset);
    else
        snprintf(path, sizeof path, DIR "%s.expected", name);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_true(compare_sections(f, &t, path) >= 2);
    fclose(f);
    for (i = 0; i < t.O.rows * t.O.cols; i++) /* the lean run: the same bits */
        assert_memory_equal(&lean.O.v[i], &t.O.v[i], sizeof(double));
    as_trace_free(&t);
    as_trace_free(&lean);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_rope_half_agrees_with_the_llama_rotate_half_reference(void **state)
{
    (void)state;
    agree_with_reference("rope_half_2heads", 0);
    agree_with_reference("rope_half_2heads", 7);
    agree_with_reference("rope_half_2heads", 1000);
    agree_with_reference("rope_half_cross", 0);
}

static void test_rope_interleaved_agrees_with_the_roformer_reference(void **state)
{
    (void)state;
    agree_with_reference("rope_interleaved_bias", 0);
    agree_with_reference("rope_interleaved_bias", 3);
}

static void test_alibi_agrees_with_the_paper_for_several_head_counts(void **state)
{
    (void)state;
    agree_with_reference("alibi_1head", 0);
    agree_with_reference("alibi_3heads", 0);
    agree_with_reference("alibi_6heads_nomask", 0);
    agree_with_reference("alibi_8heads", 0);
}

static void test_sinusoidal_agrees_with_the_annotated_transformer(void **state)
{
    (void)state;
    agree_with_reference("sinusoidal_even", 0);
    agree_with_reference("sinusoidal_even", 5);
    agree_with_reference("sinusoidal_odd", 0);
    agree_with_reference("sinusoidal_cross", 0);
}

/* Every head's QKT of case name run with its positions starting at offset. */
static void scores_at(as_matrix *qkt, const char *name, size_t offset)
{
    char path[256];
    as_input in;
    as_problem p;
    as_trace t;
    as_error err;
    size_t hd;

    as_error_clear(&err);
    snprintf(path, sizeof path, DIR "%s.txt", name);
    assert_int_equal(as_parse_file(&in, path, &err), 0);
    assert_int_equal(as_problem_build(&p, &in, AS_MASK_DEFAULT, &err), 0);
    p.offset = offset;
    assert_int_equal(as_attention_run(&t, &p, &err), 0);
    for (hd = 0; hd < t.heads; hd++)
        assert_int_equal(as_matrix_copy(&qkt[hd], &t.head[hd].QKT), 0);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

/* The largest difference between the scores at offset 0 and at offset, over 2 heads. */
static double offset_change(const char *name, size_t offset)
{
    as_matrix base[2] = {{0}}, moved[2] = {{0}};
    double most = 0;
    size_t hd, i;

    scores_at(base, name, 0);
    scores_at(moved, name, offset);
    for (hd = 0; hd < 2 && base[hd].v != NULL; hd++) {
        for (i = 0; i < base[hd].rows * base[hd].cols; i++)
            most = fmax(most, fabs(moved[hd].v[i] - base[hd].v[i]) / fmax(1.0, fabs(base[hd].v[i])));
        as_matrix_free(&base[hd]);
        as_matrix_free(&moved[hd]);
    }
    return most;
}

/* RoPE is a relative position: moving every position by P turns every q and k by the
 * same extra angles, which cancel in each dot product (SPEC §12, `--offset P`). */
static void test_rope_scores_do_not_change_when_every_position_moves(void **state)
{
    as_prng g;
    int k;

    (void)state;
    as_prng_seed(&g, 16);
    for (k = 0; k < 20; k++) {
        const size_t offset = (size_t)as_prng_range(&g, 1, 2000);
        const double rope = offset_change("rope_half_2heads", offset);
        const double inter = offset_change("rope_interleaved_bias", offset);
        if (!(rope <= 1e-12 && inter <= 1e-12)) {
            print_error("offset %zu changed the scores by %g and %g\n", offset, rope, inter);
            fail();
        }
    }
}

/* A sinusoidal encoding is added to X: moving the positions changes what is projected,
 * and so the scores. */
static void test_sinusoidal_scores_change_when_every_position_moves(void **state)
{
    as_prng g;
    int k;

    (void)state;
    as_prng_seed(&g, 17);
    for (k = 0; k < 20; k++)
        assert_true(offset_change("sinusoidal_even", (size_t)as_prng_range(&g, 1, 2000)) > 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sinusoidal_position_zero_is_sin_zero_cos_zero),
        cmocka_unit_test(test_sinusoidal_pairs_share_a_frequency),
        cmocka_unit_test(test_sinusoidal_odd_width_ends_on_a_sine),
        cmocka_unit_test(test_rope_theta_is_base_to_minus_two_i_over_d),
        cmocka_unit_test(test_rope_turns_the_chapter_query_by_one_radian),
        cmocka_unit_test(test_rope_half_pairs_i_with_i_plus_half),
        cmocka_unit_test(test_rope_interleaved_pairs_neighbours),
        cmocka_unit_test(test_rope_position_zero_changes_nothing),
        cmocka_unit_test(test_rope_dot_product_depends_only_on_the_distance),
        cmocka_unit_test(test_rope_backward_is_the_transposed_turn),
        cmocka_unit_test(test_alibi_slopes_of_eight_heads_are_halvings),
        cmocka_unit_test(test_alibi_slopes_of_three_heads_follow_the_paper),
        cmocka_unit_test(test_alibi_slopes_of_six_heads_follow_the_paper),
        cmocka_unit_test(test_alibi_slope_of_one_head_is_two_to_minus_eight),
        cmocka_unit_test(test_alibi_bias_grows_with_the_distance_into_the_past),
        cmocka_unit_test(test_rope_half_agrees_with_the_llama_rotate_half_reference),
        cmocka_unit_test(test_rope_interleaved_agrees_with_the_roformer_reference),
        cmocka_unit_test(test_alibi_agrees_with_the_paper_for_several_head_counts),
        cmocka_unit_test(test_sinusoidal_agrees_with_the_annotated_transformer),
        cmocka_unit_test(test_rope_scores_do_not_change_when_every_position_moves),
        cmocka_unit_test(test_sinusoidal_scores_change_when_every_position_moves),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
