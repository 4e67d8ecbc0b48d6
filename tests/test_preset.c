/* test_preset.c - `model: "FILE" layer N` with `preset: gpt2|llama` (SPEC §16, issue 32):
 * a model's layer in four lines. The tables by their Hugging Face names (GPT-2's packed
 * c_attn split into Wq, Wk, Wv), each family's conventions as settings (a setting or a
 * table the file writes wins), config.json beside the file, layers 0 … N−1 run in turn
 * and summarised, layer N walked in full, and every wrong input refused in zh and en.
 *
 * Where the expected values come from: tests/data/models/gen_models.py (run once by hand
 * with numpy and torch) wrote the model files with random values and, in expected.txt,
 * what its own float64 re-implementation of GPT-2's and LLaMA's blocks (written from
 * Hugging Face's GPT2Block and LlamaDecoderLayer, none of attnstep's code) makes of the
 * ids 5 17 3 42: every layer's input X and output Y, as float.hex(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/session.h"
#define CLI_OUT "build/tests/preset.out"
#define CLI_ERR "build/tests/preset.err"
#include "cli_util.h"
#include "test_util.h"

#define DATA "tests/data/models/"

/* ------------------------------------------------------------------ the reference ---- */

/* What expected.txt holds for model's layer and table what ("X" or "Y"): a new array of
 * rows x cols values (the caller frees it). */
static double *expected(const char *model, int layer, const char *what, size_t *rows, size_t *cols)
{
    char line[128], head[64];
    unsigned long long r = 0, c = 0;
    double *v = NULL;
    size_t i;
    FILE *f = fopen(DATA "expected.txt", "r");

    assert_non_null(f);
    snprintf(head, sizeof head, "%s %d %s ", model, layer, what);
    while (v == NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, head, strlen(head)) != 0)
            continue;
        assert_int_equal(sscanf(line + strlen(head), "%llu %llu", &r, &c), 2);
        v = malloc((size_t)(r * c) * sizeof *v);
        assert_non_null(v);
        for (i = 0; i < r * c; i++) {
            assert_non_null(fgets(line, sizeof line, f));
            v[i] = strtod(line, NULL);
        }
    }
    fclose(f);
    if (v == NULL)
        fail_msg("expected.txt has no %s", head);
    *rows = (size_t)r, *cols = (size_t)c;
    return v;
}

/* m agrees with the reference's table to 1e-12 relative error (absolute below 1). */
static void assert_reference(const as_matrix *m, const char *model, int layer, const char *what)
{
    size_t rows, cols, i;
    double *want = expected(model, layer, what, &rows, &cols);

    assert_int_equal(m->rows, rows);
    assert_int_equal(m->cols, cols);
    for (i = 0; i < rows * cols; i++)
        if (!(fabs(m->v[i] - want[i]) <= 1e-12 * fmax(1, fabs(want[i]))))
            fail_msg("%s layer %d %s[%zu][%zu] = %.17g, the reference %.17g", model, layer, what,
                     i / cols, i % cols, m->v[i], want[i]);
    free(want);
}

/* ------------------------------------------------------------------ sessions ---- */

/* Opens a session on text as a file in tests/data/models/, errors in lang. */
static int open_in(as_session *s, as_error *err, as_lang lang, const char *text)
{
    as_error_init(err, lang);
    return as_session_open_text(s, text, strlen(text), DATA "input.txt", NULL, err);
}

/* The four lines for layer of model (a folder of DATA) with preset. */
static const char *four_lines(char *buf, size_t size, const char *model, int layer, const char *preset)
{
    snprintf(buf, size, "model: \"%s/model.safetensors\" layer %d\npreset: %s\nids: 5 17 3 42\n",
             model, layer, preset);
    return buf;
}

/* Layer `layer` of model: its X, its Y, and the layers before it as the reference has them. */
static void layer_equals_the_reference(const char *model, const char *preset, int layer)
{
    char text[256];
    as_session s;
    as_error err;
    int k;

    if (open_in(&s, &err, AS_LANG_EN, four_lines(text, sizeof text, model, layer, preset)) != 0)
        fail_msg("%s layer %d: %s", model, layer, err.msg);
    assert_int_equal(s.layers.count, (size_t)layer);
    assert_reference(&s.in.mat[AS_X].m, model, layer, "X"); /* what layers 0 … N-1 made */
    assert_reference(&s.b.Y, model, layer, "Y");
    for (k = 0; k < layer; k++) /* the summarised layers: layer k's output is k+1's input */
        assert_reference(&s.layers.Y[k], model, k + 1, "X");
    if (layer > 0)
        assert_reference(&s.layers.X0, model, 0, "X");
    assert_int_equal(s.in.mat[AS_E].m.rows, 4); /* of 50: only the rows the ids take */
    as_session_free(&s);
}

static void test_gpt2_layers_equal_a_reimplementation_of_gpt2s_block(void **state)
{
    (void)state;
    layer_equals_the_reference("gpt2", "gpt2", 0);
    layer_equals_the_reference("gpt2", "gpt2", 1);
    layer_equals_the_reference("gpt2", "gpt2", 2); /* the last: ln_f as lnf */
}

static void test_llama_layers_equal_a_reimplementation_of_llamas_block(void **state)
{
    (void)state;
    layer_equals_the_reference("llama", "llama", 0);
    layer_equals_the_reference("llama", "llama", 1);
    layer_equals_the_reference("llama", "llama", 2); /* the last: model.norm as lnf */
}

static void test_gpt2_without_config_has_twelve_heads(void **state)
{
    char text[256];
    as_session s;
    as_error err;

    (void)state;
    layer_equals_the_reference("gpt2-bare", "gpt2", 0);
    assert_int_equal(open_in(&s, &err, AS_LANG_EN, four_lines(text, sizeof text, "gpt2-bare", 0, "gpt2")), 0);
    assert_int_equal(s.p.heads, 12);
    assert_int_equal(s.p.d_k, 2);
    as_session_free(&s);
}

static void test_each_preset_brings_its_conventions(void **state)
{
    char text[256];
    as_session s;
    as_error err;

    (void)state;
    assert_int_equal(open_in(&s, &err, AS_LANG_EN, four_lines(text, sizeof text, "gpt2", 0, "gpt2")), 0);
    assert_int_equal(s.p.block, AS_BLOCK_PRE);
    assert_int_equal(s.p.norm, AS_NORM_LAYER);
    assert_true(s.p.norm_eps == 1e-5);
    assert_int_equal(s.p.ffn, AS_FFN_GELU_TANH);
    assert_int_equal(s.in.layout, AS_LAYOUT_BOOK); /* Conv1D keeps [in, out] */
    assert_int_equal(s.p.heads, 2);                 /* n_head of config.json */
    assert_int_equal(s.p.positions, AS_POSITIONS_NONE); /* learned: wpe as P */
    assert_int_equal(s.in.emb.context, 16);
    assert_non_null(s.p.bq);
    assert_false(s.p.final_norm); /* ln_f only after the last layer */
    as_session_free(&s);
    assert_int_equal(open_in(&s, &err, AS_LANG_EN, four_lines(text, sizeof text, "llama", 1, "llama")), 0);
    assert_int_equal(s.p.norm, AS_NORM_RMS);
    assert_true(s.p.norm_eps == 1e-6);
    assert_int_equal(s.p.ffn, AS_FFN_SWIGLU);
    assert_int_equal(s.in.layout, AS_LAYOUT_TORCH);
    assert_int_equal(s.p.positions, AS_POSITIONS_ROPE);
    assert_int_equal(s.p.rope, AS_ROPE_HALF);
    assert_true(s.p.rope_base == 10000);
    assert_int_equal(s.p.heads, 2);
    assert_int_equal(s.p.kv_heads, 1); /* num_key_value_heads */
    assert_null(s.p.bq);
    assert_false(s.in.mat[AS_P].given);
    as_session_free(&s);
}

static void test_settings_and_tables_the_file_writes_win(void **state)
{
    static const char *const text =
        "model: 'gpt2/model.safetensors' layer 2\npreset: gpt2\nids: 5 17 3\n"
        "heads: 4\nnorm_eps: 0.001\nbo = [[0, 0, 0, 0, 0, 0, 0, 0]]\n";
    as_session s;
    as_error err;
    size_t j;

    (void)state;
    if (open_in(&s, &err, AS_LANG_EN, text) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s.p.heads, 4);
    assert_true(s.p.norm_eps == 0.001);
    for (j = 0; j < 8; j++)
        assert_true(s.p.bo->v[j] == 0);
    assert_true(s.p.final_norm); /* layer 2 of 3 */
    assert_int_equal(s.p.n, 3);
    as_session_free(&s);
}

/* Every setting a LLaMA preset brings, written by the file, is the file's (the values
 * the file gives, not the preset's 1e-6, half, 10000 and config.json's 2 and 1 heads). */
static void test_a_llama_file_writes_every_setting_of_its_own(void **state)
{
    static const char *const text =
        "model: 'llama/model.safetensors' layer 0\npreset: llama\nids: 5 17\n"
        "block: pre\nnorm: rms\nnorm_eps: 0.01\nffn: swiglu\nlayout: torch\nheads: 4\n"
        "kv_heads: 2\npositions: rope\nrope: interleaved\nrope_base: 500000\n";
    as_session s;
    as_error err;

    (void)state;
    if (open_in(&s, &err, AS_LANG_EN, text) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s.p.block, AS_BLOCK_PRE);
    assert_int_equal(s.p.norm, AS_NORM_RMS);
    assert_true(s.p.norm_eps == 0.01);
    assert_int_equal(s.p.ffn, AS_FFN_SWIGLU);
    assert_int_equal(s.in.layout, AS_LAYOUT_TORCH);
    assert_int_equal(s.p.heads, 4);
    assert_int_equal(s.p.kv_heads, 2);
    assert_int_equal(s.p.d_k, 2);
    assert_int_equal(s.p.positions, AS_POSITIONS_ROPE);
    assert_int_equal(s.p.rope, AS_ROPE_INTERLEAVED);
    assert_true(s.p.rope_base == 500000);
    as_session_free(&s);
}

/* ------------------------------------------------------------------ errors ---- */

/* text is refused in lang at line:col, the message holding msg and the hint hint. */
static void refused(as_lang lang, const char *text, int line, int col, const char *msg,
                    const char *hint)
{
    as_session s;
    as_error err;

    if (open_in(&s, &err, lang, text) == 0) {
        as_session_free(&s);
        fail_msg("%s was run", text);
    }
    assert_error_is(&err, line, col, msg, hint);
}

static void test_a_layer_beyond_the_model_names_its_layers(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\" layer 3\npreset: gpt2\nids: 1\n", 1, 9,
            "there is no layer 3: the model has 3 layers (0 to 2)", "counted from 0");
    refused(AS_LANG_ZH, "model: \"gpt2/model.safetensors\" layer 3\npreset: gpt2\nids: 1\n", 1, 9,
            "没有第3层：这个模型只有3层（第0层到第2层）", "层从0数起");
    /* no config.json: the layers are counted in the file */
    refused(AS_LANG_EN, "model: \"gpt2-bare/model.safetensors\" layer 1\npreset: gpt2\nids: 1\n", 1,
            9, "the model has 1 layers (0 to 0)", "the layers the file holds");
}

static void test_model_and_preset_need_each_other(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\"\nids: 1\n", 1, 9,
            "model is given but no preset", "preset: gpt2");
    refused(AS_LANG_ZH, "preset: llama\nids: 1\n", 1, 1, "给了preset，却没有model", "layer N");
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\"\npreset: gtp2\n", 2, 9,
            "there is no preset “gtp2”", "did you mean \"gpt2\"?");
}

static void test_a_preset_that_does_not_fit_the_file_says_to_look_inside(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\"\npreset: llama\nids: 1\n", 1, 9,
            "there is no layer by the names of preset llama (such as “model.layers.0.input_layernorm.weight”)",
            "attnstep weights");
    refused(AS_LANG_ZH, "model: \"llama/model.safetensors\"\npreset: gpt2\nids: 1\n", 1, 9,
            "没有preset gpt2要找的层（例如“h.0.ln_1.weight”）", "attnstep weights");
}

static void test_a_model_written_wrong_shows_how_to_write_it(void **state)
{
    (void)state;
    refused(AS_LANG_EN, "model: gpt2/model.safetensors layer 0\npreset: gpt2\n", 1, 8,
            "model takes a quoted file name, then optionally layer N", "layer 0");
    refused(AS_LANG_ZH, "model: 'gpt2/model.safetensors' level 0\npreset: gpt2\n", 1, 33,
            "model后面应当是加引号的文件名", "层从0数起");
    refused(AS_LANG_EN, "model: 'gpt2/model.safetensors' layer x\npreset: gpt2\n", 1, 39,
            "not “x”", "layer 0");
    refused(AS_LANG_EN, "model: 'none.safetensors' layer 0\npreset: gpt2\nids: 1\n", 1, 9,
            "none.safetensors", "relative to the folder of the input file");
    /* a quote left open, an empty name, "layer" cut short or without its number, a
     * number with a letter after it: each is pointed at, the name's place counted by hand */
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\npreset: gpt2\n", 1, 8,
            "model takes a quoted file name", "layer 0");
    refused(AS_LANG_ZH, "model: \"\"\npreset: gpt2\n", 1, 9, "这里却是“\"”", "层从0数起");
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\" lay\npreset: gpt2\n", 1, 33,
            "not “lay”", "layer 0");
    refused(AS_LANG_EN, "model: \"gpt2/model.safetensors\" layer\npreset: gpt2\n", 1, 8,
            "then optionally layer N", "layer 0");
    refused(AS_LANG_ZH, "model: \"gpt2/model.safetensors\" layer 1x\npreset: gpt2\n", 1, 40,
            "这里却是“x”", "层从0数起");
}

static void test_too_many_ids_for_gpt2s_positions_are_refused(void **state)
{
    (void)state; /* wpe has 16 rows: the 17th id is one too many */
    refused(AS_LANG_EN,
            "model: 'gpt2/model.safetensors' layer 0\npreset: gpt2\n"
            "ids: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
            3, 45, "there are 17 ids but P has only 16 rows (positions 0 to 15)", "context length");
}

/* ------------------------------------------------------------------ config.json ---- */

/* Opens "model: 'cfg/model.safetensors' layer 0" with preset (and the lines more) in
 * build/tests/, the model of family (gpt2 or llama) copied there beside a config.json that
 * holds config (none when NULL). 0, or -1 with err set. */
static int open_with_config(as_session *s, as_error *err, const char *family, const char *preset,
                            const char *config, const char *more)
{
    char text[512], cmd[256];

    snprintf(cmd, sizeof cmd,
             "rm -rf build/tests/cfg && mkdir -p build/tests/cfg && cp " DATA
             "%s/model.safetensors build/tests/cfg/",
             family);
    assert_int_equal(system(cmd), 0);
    if (config != NULL)
        write_text("build/tests/cfg/config.json", config);
    snprintf(text, sizeof text, "model: 'cfg/model.safetensors' layer 0\npreset: %s\nids: 5 17\n%s",
             preset, more);
    as_error_init(err, AS_LANG_EN);
    return as_session_open_text(s, text, strlen(text), "build/tests/input.txt", NULL, err);
}

/* Only config.json's top level counts: an n_head inside an object or an array, or in a
 * key that holds an escaped quote, is some other thing's; the second name of a key
 * (num_attention_heads) is read when the first is missing. */
static void test_config_json_is_read_at_its_top_level_only(void **state)
{
    as_session s;
    as_error err;

    (void)state;
    if (open_with_config(&s, &err, "gpt2", "gpt2",
                         "{\"task\": {\"n_head\": 7}, \"list\": [{\"n_head\": 3}],\n"
                         " \"a\\\"n_head\": 5, \"n_head\" : 4, \"n_layer\": 3}\n",
                         "") != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s.p.heads, 4);
    as_session_free(&s);
    if (open_with_config(&s, &err, "gpt2", "gpt2", "{\"num_attention_heads\": 8}", "") != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s.p.heads, 8);
    assert_true(s.p.norm_eps == 1e-5); /* no layer_norm_epsilon: GPT-2's own */
    as_session_free(&s);
}

/* A LLaMA whose config.json gives nothing: the preset's own ε 1e-6, RoPE base 10000 and
 * 32 heads (too many for a width of 8, so the file says heads: 2 and kv_heads: 1 here). */
static void test_a_llama_config_without_numbers_brings_the_presets_own(void **state)
{
    as_session s;
    as_error err;

    (void)state;
    if (open_with_config(&s, &err, "llama", "llama", "{}", "heads: 2\nkv_heads: 1\n") != 0)
        fail_msg("%s", err.msg);
    assert_true(s.p.norm_eps == 1e-6);
    assert_true(s.p.rope_base == 10000);
    assert_int_equal(s.p.heads, 2);
    assert_int_equal(s.p.kv_heads, 1);
    as_session_free(&s);
    assert_int_not_equal(open_with_config(&s, &err, "llama", "llama", "{}", "kv_heads: 1\n"), 0);
    assert_error_is(&err, 1, 9, "heads: 32 and kv_heads: 1 do not divide the widths of Q (8) and V (4)",
                    "equal block of the columns");
}

/* A config.json whose count is too large, or not a count, or whose ε is a word, or whose
 * text is cut inside a key: refused at the model's file name, naming the key. */
static void test_a_config_count_out_of_range_is_refused(void **state)
{
    as_session s;
    as_error err;

    (void)state;
    assert_int_not_equal(open_with_config(&s, &err, "llama", "llama",
                                          "{\"num_key_value_heads\": 0}", ""), 0);
    assert_error_is(&err, 1, 9,
                    "in “build/tests/cfg/config.json”, the value of “num_key_value_heads” is no "
                    "number that fits", "the config.json beside the model gives the heads");
    assert_int_not_equal(open_with_config(&s, &err, "gpt2", "gpt2", "{\"n_head\": 16385}", ""), 0);
    assert_error_is(&err, 1, 9, "the value of “n_head” is no number that fits", "config.json");
    assert_int_not_equal(open_with_config(&s, &err, "gpt2", "gpt2", "{\"n_layer\": -1}", ""), 0);
    assert_error_is(&err, 1, 9, "the value of “n_layer” is no number that fits", "config.json");
    assert_int_not_equal(
        open_with_config(&s, &err, "gpt2", "gpt2", "{\"layer_norm_epsilon\": \"small\"}", ""), 0);
    assert_error_is(&err, 1, 9, "the value of “layer_norm_epsilon” is no number that fits",
                    "config.json");
    if (open_with_config(&s, &err, "gpt2", "gpt2", "{\"n_head\": 2, \"n_emb", "") != 0)
        fail_msg("%s", err.msg); /* cut: what was read before the cut is kept */
    assert_int_equal(s.p.heads, 2);
    as_session_free(&s);
}

/* ------------------------------------------------------------------ run and trace ---- */

/* Runs `attnstep ARGS` on the four lines of gpt2 layer 2 in a file of their own
 * (build/tests/, the model named relative to it). */
static void run_gpt2_layer2(const char *args)
{
    char text[256], cmd[256];
    FILE *f = fopen("build/tests/gpt2-layer2.txt", "w");

    assert_non_null(f);
    fputs(four_lines(text, sizeof text, "../../" DATA "gpt2", 2, "gpt2"), f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "%s build/tests/gpt2-layer2.txt", args);
    assert_int_equal(run(cmd), 0);
}

static void test_run_summarises_each_layer_before_in_one_line(void **state)
{
    (void)state;
    run_gpt2_layer2("run --digits 3");
    assert_file_contains(OUT, "X₀ = E[ids] + P[0:4] ≈ [[");
    assert_file_contains(OUT, "（X₀依次经过第2层之前的各层，每层一行：）\n"
            "（第0层，h.0.*：已算出，输出[4,8]，最后一行≈ [");
    assert_file_contains(OUT, "\n（第1层，h.1.*：已算出，输出[4,8]，最后一行≈ [");
    assert_file_contains(OUT, "（X是第2层的输入，也就是第0层到第1层依次算出的结果；下面完整地走一遍第2层）\n");
    assert_file_contains(OUT, "\nN1 = γ⊙x̂ + β ≈ [[");
    run_gpt2_layer2("run --lang en --digits 3");
    assert_file_contains(OUT, "(layer 1, h.1.*: computed, output [4,8], last row ≈ [");
    assert_file_contains(OUT, "(X is the input of layer 2, what layers 0 to 1 made in turn; layer 2 is walked in full below)");
}

static void test_json_gives_the_layers_before_and_trace_starts_from_the_ids(void **state)
{
    (void)state;
    run_gpt2_layer2("run --format json");
    assert_file_contains(OUT, "\"layers\": {\"X0\": [[");
    assert_file_contains(OUT, "\"embedding\": {\"ids\": [5, 17, 3, 42], \"vocab\": 50, \"E\": [[");
    run_gpt2_layer2("trace --digits 3");
    assert_file_contains(OUT, "“5”：取第5行，x₀ = E[5] + P[0] = [");
}

static void test_generate_refuses_a_layer_after_the_first(void **state)
{
    char text[256], cmd[160];
    FILE *f = fopen("build/tests/gpt2-head.txt", "w");

    (void)state;
    assert_non_null(f);
    fputs(four_lines(text, sizeof text, "../../" DATA "gpt2", 1, "gpt2"), f);
    fputs("head: tied\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(cmd, sizeof cmd, "generate --lang en build/tests/gpt2-head.txt 2");
    assert_int_equal(run(cmd), 2); /* its new rows would skip layer 0 */
    assert_file_contains(ERR, "build/tests/gpt2-head.txt:1:9: error: generate walks one layer: "
                              "layer 1 of model: has 1 layers before it");
    assert_int_equal(run("generate build/tests/gpt2-head.txt 2"), 2);
    assert_file_contains(ERR, "错误：generate只走一层：model:的第1层前面还有1层");
}

/* A config.json beside the model whose heads are a word or not whole, or whose ε is a
 * word: refused at the model line's file name (1:9), saying which file and which key,
 * with the hint; exit 2 and nothing on stdout, in both languages. */
static void test_a_config_value_that_is_no_number_is_refused_at_the_model_line(void **state)
{
    static const char *const bad[] = {"\"n_head\": \"two\"", "\"n_head\": 2.5", "\"n_head\": 0"};
    char *config, *at;
    size_t k;

    (void)state;
    assert_int_equal(system("mkdir -p build/tests/preset-bad && cp " DATA "gpt2/model.safetensors "
                            "build/tests/preset-bad/"), 0);
    write_text("build/tests/preset-in.txt", "model: \"preset-bad/model.safetensors\" layer 0\n"
                                            "preset: gpt2\nids: 5 17 3 42\n");
    assert_non_null(config = slurp(DATA "gpt2/config.json"));
    assert_non_null(at = strstr(config, "\"n_head\": 2,"));
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        FILE *f = fopen("build/tests/preset-bad/config.json", "w");
        assert_non_null(f);
        fprintf(f, "%.*s%s%s", (int)(at - config), config, bad[k], at + strlen("\"n_head\": 2"));
        assert_int_equal(fclose(f), 0);
        assert_int_equal(run("run build/tests/preset-in.txt --lang en"), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, "preset-in.txt:1:9: error: in “build/tests/preset-bad/"
                                      "config.json”, the value of “n_head” is no number that fits");
        assert_file_contains(CLI_ERR, "  hint: the config.json beside the model gives the heads");
    }
    assert_int_equal(run("run build/tests/preset-in.txt"), 2);
    assert_file_contains(CLI_ERR, "preset-in.txt:1:9: 错误：“build/tests/preset-bad/config.json”"
                                  "里“n_head”的值不是可用的数");
    free(config);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpt2_layers_equal_a_reimplementation_of_gpt2s_block),
        cmocka_unit_test(test_llama_layers_equal_a_reimplementation_of_llamas_block),
        cmocka_unit_test(test_gpt2_without_config_has_twelve_heads),
        cmocka_unit_test(test_each_preset_brings_its_conventions),
        cmocka_unit_test(test_settings_and_tables_the_file_writes_win),
        cmocka_unit_test(test_a_llama_file_writes_every_setting_of_its_own),
        cmocka_unit_test(test_config_json_is_read_at_its_top_level_only),
        cmocka_unit_test(test_a_llama_config_without_numbers_brings_the_presets_own),
        cmocka_unit_test(test_a_config_count_out_of_range_is_refused),
        cmocka_unit_test(test_a_layer_beyond_the_model_names_its_layers),
        cmocka_unit_test(test_model_and_preset_need_each_other),
        cmocka_unit_test(test_a_preset_that_does_not_fit_the_file_says_to_look_inside),
        cmocka_unit_test(test_a_model_written_wrong_shows_how_to_write_it),
        cmocka_unit_test(test_too_many_ids_for_gpt2s_positions_are_refused),
        cmocka_unit_test(test_run_summarises_each_layer_before_in_one_line),
        cmocka_unit_test(test_json_gives_the_layers_before_and_trace_starts_from_the_ids),
        cmocka_unit_test(test_generate_refuses_a_layer_after_the_first),
        cmocka_unit_test(test_a_config_value_that_is_no_number_is_refused_at_the_model_line),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
