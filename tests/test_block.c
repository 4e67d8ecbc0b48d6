/* test_block.c - the transformer block of SPEC §15 (block.h, and its settings and tables
 * in the reader and the model): whole blocks against PyTorch, every table to 1e-12 --
 * a re-implementation of nanoGPT's Block (pre-LN, GELU tanh), a LLaMA block (RMSNorm,
 * SwiGLU, RoPE half, grouped-query attention), post-LN blocks (torch and annotated
 * LayerNorm, ReLU and exact GELU), post RMSNorm and pre LayerNorm without FFN -- computed once in
 * float64 by tests/data/block/make_block.py (Debian's python3-torch); no Python here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "attnstep/block.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"
#include "attnstep/session.h"
#include "attnstep/render.h"
#include "sections.h"
#include "test_util.h"

#define DIR "tests/data/block/cases/"

/* The table of b a section of an .expected file names: N1 … Y, or normK.mean/var/div/xhat. */
static const as_matrix *table_named(const as_block_trace *b, const char *name)
{
    static const char *const names[] = {"N1", "H1", "N2", "U", "G", "F", "D", "H2", "Y"};
    const as_matrix *tables[] = {&b->N1, &b->H1, &b->N2, &b->U, &b->G, &b->F, &b->D, &b->H2, &b->Y};
    static const char *const parts[] = {"mean", "var", "div", "xhat"};
    const as_norm_trace *nt = NULL;
    size_t k;

    for (k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(name, names[k]) == 0)
            return tables[k];
    if (strncmp(name, "norm1.", 6) == 0)
        nt = &b->norm1;
    else if (strncmp(name, "norm2.", 6) == 0)
        nt = &b->norm2;
    for (k = 0; nt != NULL && k < 4; k++)
        if (strcmp(name + 6, parts[k]) == 0)
            return k == 0 ? &nt->mean : k == 1 ? &nt->var : k == 2 ? &nt->div : &nt->xhat;
    return NULL;
}

/* Runs the block of DIR name.txt and compares every table its .expected names; returns
 * how many tables were compared. */
static int agree(const char *name)
{
    static section s;
    char path[256];
    as_input in;
    as_problem p;
    as_trace t;
    as_block_trace b;
    as_error err;
    int tables = 0;
    FILE *f;

    as_error_init(&err, AS_LANG_EN);
    snprintf(path, sizeof path, DIR "%s.txt", name);
    if (as_parse_file(&in, path, &err) != 0 || as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0 ||
        as_block_run(&b, &t, &p, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
    snprintf(path, sizeof path, DIR "%s.expected", name);
    f = fopen(path, "r");
    assert_non_null(f);
    while (read_section(f, &s)) {
        const as_matrix *m = table_named(&b, s.name);
        /* the script writes a row's statistic (μ, σ², the divisor) as one row of n */
        const int stat = m != NULL && m->cols == 1 && s.rows == 1 && m->rows == s.cols;
        if (m == NULL || ((m->rows != s.rows || m->cols != s.cols) && !stat)) {
            print_error("%s: table %s [%zu,%zu] missing or of another shape\n", path, s.name,
                        s.rows, s.cols);
            fail();
        }
        assert_cells_close(m->v, s.v, s.rows * s.cols, path, s.name);
        tables++;
    }
    fclose(f);
    as_block_trace_free(&b);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
    return tables;
}

/* Every case NAME_00 … NAME_(count-1), each comparing at least min_tables tables. */
static void agree_all(const char *name, int count, int min_tables)
{
    char one[64];
    int k;

    for (k = 0; k < count; k++) {
        snprintf(one, sizeof one, "%s_%02d", name, k);
        assert_true(agree(one) >= min_tables);
    }
}

static void test_nanogpt_blocks_agree_with_torch(void **state)
{
    (void)state;
    agree_all("gpt", 30, 15); /* N1 H1 N2 U F D H2 Y and norm1/norm2's four each */
}

static void test_llama_blocks_agree_with_torch(void **state)
{
    (void)state;
    agree_all("llama", 30, 12); /* N1 H1 N2 U G F D H2 Y and norm1's var, div, xhat */
}

static void test_post_ln_blocks_agree_with_torch(void **state)
{
    (void)state;
    agree_all("post", 10, 14);
}

static void test_post_rms_blocks_without_ffn_agree_with_torch(void **state)
{
    (void)state;
    agree_all("none", 10, 5);
}

/* A pre block without FFN ends at H1 = X + O (Y = H1, or ln_f of it): 4 cases. */
static void test_pre_ln_blocks_without_ffn_agree_with_torch(void **state)
{
    (void)state;
    agree_all("prenone", 4, 7); /* N1 H1 Y and norm1's four */
}

/* ---- the settings and tables as read ---- */

/* Parses and builds text; the problem into p (free it and in). */
static void build(as_input *in, as_problem *p, const char *text)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_parse_text(in, text, strlen(text), "t.txt", &err) != 0 ||
        as_problem_build(p, in, AS_MASK_DEFAULT, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
}

#define F11 "X = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n" \
            "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n"

static void test_without_block_nothing_of_the_block_is_set(void **state)
{
    as_input in;
    as_problem p;

    (void)state;
    build(&in, &p, F11);
    assert_int_equal(p.block, AS_BLOCK_NONE);
    assert_null(p.Wup);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_block_settings_are_read_with_their_defaults(void **state)
{
    as_input in;
    as_problem p;

    (void)state;
    build(&in, &p, "block: post\nffn: none\n" F11);
    assert_int_equal(p.block, AS_BLOCK_POST);
    assert_int_equal(p.norm, AS_NORM_LAYER);       /* SPEC §15: norm defaults to layer */
    assert_int_equal(p.norm_style, AS_NORM_TORCH);
    assert_close(p.norm_eps, 1e-5, 0);             /* torch.nn.LayerNorm's */
    assert_int_equal(p.ffn, AS_FFN_NONE);
    as_problem_free(&p);
    as_input_free(&in);
    build(&in, &p, "block: pre\nnorm: rms\nffn: none\n" F11);
    assert_close(p.norm_eps, 1e-6, 0);             /* RMSNorm's */
    as_problem_free(&p);
    as_input_free(&in);
    build(&in, &p, "block: pre\nnorm_style: annotated\nnorm_eps: 1/8\nffn: none\n" F11);
    assert_int_equal(p.norm_style, AS_NORM_ANNOTATED);
    assert_close(p.norm_eps, 0.125, 0);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_ffn_tables_take_their_spellings_and_torch_layout_turns_them(void **state)
{
    as_input in;
    as_problem p;

    (void)state;
    build(&in, &p, "layout: torch\nblock: pre\nffn: swiglu\n" F11
                   "W_up = [[1, 2], [3, 4], [5, 6]]\nWgate = [[1, 0], [0, 1], [1, 1]]\n"
                   "W_down = [[1, 2, 3], [4, 5, 6]]\nb_down = [7, 8]\n");
    assert_int_equal(p.d_ff, 3);
    assert_int_equal(p.Wup->rows, 2);             /* [out, in] = [3, 2] turned to [2, 3] */
    assert_close(AS_AT(*p.Wup, 1, 0), 2, 0);
    assert_close(AS_AT(*p.Wdown, 2, 1), 6, 0);
    assert_close(AS_AT(*p.Wgate, 0, 2), 1, 0);
    assert_close(p.bdown->v[1], 8, 0);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_layer_norm_spec_value_comes_out_of_a_whole_block(void **state)
{
    /* SPEC §15: LayerNorm of [1,0,0,0] → 1.7320046214…: X's row 0 is [1,0,0,0] and the
     * attention adds nothing (Wv = 0), so H1 = X and N2's row 0 is that LayerNorm */
    as_input in;
    as_problem p;
    as_trace t;
    as_block_trace b;
    as_error err;

    (void)state;
    build(&in, &p, "block: pre\nffn: relu\nX = [[1, 0, 0, 0], [0, 1, 0, 0]]\n"
                   "Wq = [[1], [0], [0], [0]]\nWk = [[1], [0], [0], [0]]\n"
                   "Wv = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]\n"
                   "Wup = [[1], [0], [0], [0]]\nWdown = [[1, 0, 0, 0]]\n");
    as_error_init(&err, AS_LANG_EN);
    assert_int_equal(as_block_run(&b, &t, &p, &err), 0);
    assert_close(AS_AT(b.N1, 0, 0), 1.7320046214, 1e-10);
    assert_close(AS_AT(b.N2, 0, 0), 1.7320046214, 1e-10);
    assert_close(AS_AT(b.U, 0, 0), AS_AT(b.N2, 0, 0), 0);     /* Wup takes column 0 */
    assert_close(AS_AT(b.H2, 0, 0), 1 + AS_AT(b.N2, 0, 0), 1e-15); /* ReLU keeps it, Wdown puts it back */
    assert_close(AS_AT(b.H2, 1, 0), 0, 0); /* row 1: N2 is −0.577…, ReLU makes 0, H1 is 0 */
    assert_close(AS_AT(b.norm1.mean, 0, 0), 0.25, 0);
    assert_close(AS_AT(b.norm1.var, 0, 0), 0.1875, 0);
    as_block_trace_free(&b);
    as_trace_free(&t);
    as_problem_free(&p);
    as_input_free(&in);
}

static void test_a_session_runs_the_block_the_same_in_every_mode(void **state)
{
    /* the lean (--only O) and rows runs make the attention's O bit for bit, so the block
     * after them is the same too; the full session's Y is the block run's */
    static const char *const modes[] = {"full", "lean", "rows"};
    as_session s[3];
    as_session_opts o[3];
    as_error err;
    size_t k;

    (void)state;
    memset(o, 0, sizeof o);
    o[1].lean = 1;
    o[2].rows = 1;
    as_error_init(&err, AS_LANG_EN);
    for (k = 0; k < 3; k++) {
        if (as_session_open(&s[k], DIR "llama_05.txt", &o[k], &err) != 0) {
            as_error_print(&err, stderr);
            fail_msg("mode %s", modes[k]);
        }
        assert_int_equal(s[k].b.Y.rows, 2); /* llama_05: 2 tokens */
        assert_memory_equal(s[k].b.Y.v, s[0].b.Y.v, s[0].b.Y.rows * s[0].b.Y.cols * sizeof(double));
    }
    assert_true(s[0].b.N1.v != NULL && s[0].b.G.v != NULL);
    for (k = 0; k < 3; k++)
        as_session_free(&s[k]);
}

/* An example of examples/ run through a session into s. */
static void open_example(as_session *s, const char *path)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_session_open(s, path, NULL, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
}

static void test_the_f11_example_on_the_next_page_adds_and_rms_normalises(void **state)
{
    /* by hand: X₀ + O₀ = [1,1] + [10,0] = [11,1] (O from the chapter), Σx²/2 = 61,
     * rms = √(61 + 1e-6); row 1: O₁ = [6.6976154933, 6.6047690135] (the chapter's) */
    const double rms0 = sqrt(61 + 1e-6);
    const double r1[2] = {1 + 6.6976154933, -1 + 6.6047690135};
    const double rms1 = sqrt((r1[0] * r1[0] + r1[1] * r1[1]) / 2 + 1e-6);
    as_session s;

    (void)state;
    open_example(&s, "examples/block-f11-post-rms.txt");
    assert_null(s.b.N1.v);                 /* post: no N1, no N2, D or H2 with ffn: none */
    assert_null(s.b.H2.v);
    assert_close(AS_AT(s.b.R1, 0, 0), 11, 1e-12);
    assert_close(AS_AT(s.b.norm1.var, 0, 0), 61, 1e-12);
    assert_close(AS_AT(s.b.H1, 0, 0), 11 / rms0, 1e-12);
    assert_close(AS_AT(s.b.H1, 0, 1), 1 / rms0, 1e-12);
    assert_close(AS_AT(s.b.H1, 1, 0), r1[0] / rms1, 1e-9);  /* the chapter's O to 10 places */
    assert_close(AS_AT(s.b.Y, 1, 1), r1[1] / rms1, 1e-9);
    as_session_free(&s);
}

static void test_the_pre_gelu_example_starts_from_the_spec_layer_norm(void **state)
{
    /* row 0 of X is [1,0,0,0]: N1₀ = [0.75, −0.25, −0.25, −0.25]/√(3/16 + 1e-5) */
    as_session s;
    const double div = sqrt(0.1875 + 1e-5);

    (void)state;
    open_example(&s, "examples/block-pre-gelu.txt");
    assert_close(AS_AT(s.b.N1, 0, 0), 1.7320046214, 1e-10);
    assert_close(AS_AT(s.b.N1, 0, 3), -0.25 / div, 1e-15);
    assert_close(AS_AT(s.b.H1, 0, 0), 1 + AS_AT(s.t.O, 0, 0), 0);
    assert_int_equal(s.b.U.cols, 3);
    assert_close(AS_AT(s.b.F, 0, 0),             /* GELU(u) = u·Φ(u), Φ by erfc */
                 AS_AT(s.b.U, 0, 0) * 0.5 * erfc(-AS_AT(s.b.U, 0, 0) / sqrt(2.0)), 1e-15);
    assert_close(AS_AT(s.b.Y, 2, 3), AS_AT(s.b.H1, 2, 3) + AS_AT(s.b.D, 2, 3), 0);
    as_session_free(&s);
}

/* The JSON of example path with --only list (NULL: every table), as a string the caller
 * frees. */
static char *json_of(const char *path, const char *list)
{
    as_session s;
    as_render_opts o;
    const char *bad;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    memset(&o, 0, sizeof o);
    assert_non_null(f);
    if (list != NULL)
        assert_int_equal(as_only_parse(list, &o.only, &bad), 0);
    open_example(&s, path);
    assert_int_equal(as_render_json(f, &s.p, &s.t, &o), 0);
    fclose(f);
    as_session_free(&s);
    return text;
}

static void test_json_holds_the_block_with_each_norms_sub_steps(void **state)
{
    char *pre = json_of("examples/block-pre-gelu.txt", NULL);
    char *post = json_of("examples/block-f11-post-rms.txt", NULL);
    char *only = json_of("examples/block-pre-gelu.txt", "N1");

    (void)state;
    /* SPEC §15: LayerNorm of [1,0,0,0] is 1.7320046214…, μ = 1/4, σ² = 3/16 */
    assert_non_null(strstr(pre, "\"block\": {\n    \"N1\": [[1.7320046213947808,"));
    assert_non_null(strstr(pre, "\"norm1\": {\"mean\": [[0.25],[0.5],[1]], \"var\": [[0.1875],"));
    assert_non_null(strstr(pre, "\"norm2\": {\"mean\""));
    assert_non_null(strstr(pre, "\"U\": ") && strstr(pre, "\"H2\": ") && strstr(pre, "\"Y\": "));
    assert_null(strstr(pre, "\"G\": "));            /* no gate without swiglu */
    /* post: norm1 after H1, which it makes; RMSNorm has no mean; X₀ + O₀ = [11, 1] */
    assert_non_null(strstr(post, "\"H1\": [[1.408405667717547,0.12803687888341336],"));
    assert_non_null(strstr(post, "\"norm1\": {\"var\": [[61],"));
    assert_true(strstr(post, "\"H1\"") < strstr(post, "\"norm1\""));
    assert_null(strstr(post, "\"N1\""));
    assert_non_null(strstr(only, "\"N1\": "));         /* --only N1: that table and its norm */
    assert_null(strstr(only, "\"Y\": "));
    free(pre);
    free(post);
    free(only);
}

static void test_a_file_without_block_has_no_block_in_its_json(void **state)
{
    char *f11 = json_of("examples/f11.txt", NULL);

    (void)state;
    assert_null(strstr(f11, "\"block\""));
    free(f11);
}

static void test_a_pre_block_walks_the_attention_on_n1_what_it_reads(void **state)
{
    /* the walk-through's arithmetic is the run's: q₀ = x₀Wq with x₀ the row of N1 the
     * attention read (LayerNorm of [1,0,0,0]), not the file's [1,0,0,0] */
    as_session s;
    as_render_opts o;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    (void)state;
    memset(&o, 0, sizeof o);
    o.digits = 10;
    o.lang = AS_LANG_ZH;
    open_example(&s, "examples/block-pre-gelu.txt");
    assert_ptr_equal(s.p.X, &s.b.N1);
    assert_ptr_equal(as_problem_table(&s.p, AS_X), &s.b.N1);
    assert_int_equal(as_render_trace(f, &s.p, &s.t, &o), 0);
    fclose(f);
    assert_non_null(strstr(text, "x\xe2\x82\x80=[1.7320046214, -0.5773348738"));
    assert_close(AS_AT(s.b.H1, 0, 0), 1 + AS_AT(s.t.O, 0, 0), 0); /* the residual: the file's X */
    free(text);
    as_session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nanogpt_blocks_agree_with_torch),
        cmocka_unit_test(test_llama_blocks_agree_with_torch),
        cmocka_unit_test(test_post_ln_blocks_agree_with_torch),
        cmocka_unit_test(test_post_rms_blocks_without_ffn_agree_with_torch),
        cmocka_unit_test(test_pre_ln_blocks_without_ffn_agree_with_torch),
        cmocka_unit_test(test_without_block_nothing_of_the_block_is_set),
        cmocka_unit_test(test_block_settings_are_read_with_their_defaults),
        cmocka_unit_test(test_ffn_tables_take_their_spellings_and_torch_layout_turns_them),
        cmocka_unit_test(test_layer_norm_spec_value_comes_out_of_a_whole_block),
        cmocka_unit_test(test_a_session_runs_the_block_the_same_in_every_mode),
        cmocka_unit_test(test_the_f11_example_on_the_next_page_adds_and_rms_normalises),
        cmocka_unit_test(test_the_pre_gelu_example_starts_from_the_spec_layer_norm),
        cmocka_unit_test(test_json_holds_the_block_with_each_norms_sub_steps),
        cmocka_unit_test(test_a_file_without_block_has_no_block_in_its_json),
        cmocka_unit_test(test_a_pre_block_walks_the_attention_on_n1_what_it_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
