/* test_cli.c - the command line, end to end: golden output files (each checked by hand
 * once against the chapter, see tests/golden/README), exit codes, and errors. Runs the
 * binary named by $ATTNSTEP_BIN (the Makefile sets it). A failing golden test prints
 * the diff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "cli_util.h" /* run(), slurp(), assert_golden() ...; OUT and ERR */

/* ---- run: the chapter's example, golden files checked by hand (tests/golden/README.md) */

static void test_run_prints_the_chapters_tables_in_chinese(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.run.zh.txt");
}

static void test_a_file_alone_means_run(void **state)
{
    (void)state;
    assert_int_equal(run("examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.run.zh.txt");
}

static void test_run_speaks_english_with_lang_en_or_the_environment(void **state)
{
    (void)state;
    assert_int_equal(run("run --lang en examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.run.en.txt");
    assert_int_equal(run("run examples/f11.txt --lang=en"), 0);
    assert_golden("tests/golden/f11.run.en.txt");
    setenv("ATTNSTEP_LANG", "en", 1);
    assert_int_equal(run("run examples/f11.txt"), 0);
    unsetenv("ATTNSTEP_LANG");
    assert_golden("tests/golden/f11.run.en.txt");
}

static void test_ascii_spells_every_symbol_in_ascii(void **state)
{
    (void)state;
    assert_int_equal(run("run --ascii --lang en examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.run.ascii.txt");
    assert_file_contains(OUT, "-inf");
    assert_file_contains(OUT, "sqrt(2)");
    assert_file_contains(OUT, "QK^T");
    /* the token labels (我, 爱) stay as written; the symbols and the quotes around the
     * labels are ASCII (issue 12: tests/test_ascii.c checks every byte) */
    assert_file_contains(OUT, "row 0 is \"我\"");
    assert_file_lacks(OUT, "\xe2\x88\x92\xe2\x88\x9e"); /* −∞ */
    assert_file_lacks(OUT, "√");
    assert_file_lacks(OUT, "ᵀ");
    assert_file_lacks(OUT, "≈");
}

static void test_json_follows_the_spec_to_the_key(void **state)
{
    (void)state;
    assert_int_equal(run("run --format json examples/f11.txt"), 0);
    assert_golden("tests/golden/f11.run.json");
}

static void test_every_way_of_writing_the_example_gives_the_same_numbers(void **state)
{
    static const char *const variants[] = {
        "tests/data/cli/f11-numpy.txt", "tests/data/cli/f11-fractions.txt",
        "tests/data/cli/f11-bom-crlf.txt"};
    char args[256];
    size_t i;

    (void)state;
    for (i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "run --format json %s", variants[i]);
        assert_int_equal(run(args), 0);
        assert_golden("tests/golden/f11.run.json");
    }
}

static void test_standard_input_is_read_from_a_dash(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    char cmd[512];

    (void)state;
    snprintf(cmd, sizeof cmd, "%s run --format json - <examples/f11.txt >" OUT,
             bin ? bin : "build/attnstep");
    assert_int_equal(system(cmd), 0);
    assert_golden("tests/golden/f11.run.json");
}

static void test_digits_and_only_shape_the_output(void **state)
{
    (void)state;
    assert_int_equal(run("run --digits 3 --only A,O examples/f11.txt"), 0);
    assert_file_contains(OUT, "0.67");
    assert_file_contains(OUT, "6.605");
    assert_file_lacks(OUT, "Q = X @ Wq");
    assert_file_lacks(OUT, "S = ");
}

static void test_mask_none_lets_every_row_read_everything(void **state)
{
    (void)state;
    assert_int_equal(run("run --mask none --format json examples/f11.txt"), 0);
    assert_file_contains(OUT, "\"mask\": \"none\"");
    assert_file_contains(OUT, "\"M\": [[0,0],[0,0]]");
}

/* The line of the top-level "O" in the JSON output of the last run (caller frees). */
static char *top_o_line(void)
{
    char *all = slurp(OUT), *start, *end, *line;

    assert_non_null(all);
    start = strstr(all, "\n  \"O\": ");
    assert_non_null(start);
    end = strchr(start + 1, '\n');
    line = strndup(start, end ? (size_t)(end - start) : strlen(start));
    free(all);
    return line;
}

static void test_only_o_prints_the_same_output_as_the_full_run(void **state)
{
    char *full, *lean;

    (void)state;
    /* --only O keeps only the output (a lean run); its O must be the full run's, bit for
     * bit, and with several heads the per-head tables are left out */
    assert_int_equal(run("run --format json examples/two-heads.txt"), 0);
    full = top_o_line();
    assert_int_equal(run("run --only O --format json examples/two-heads.txt"), 0);
    assert_file_contains(OUT, "\"heads\": [\n    {},\n    {}\n  ]");
    lean = top_o_line();
    assert_string_equal(lean, full);
    free(full);
    free(lean);
}

/* SPEC §2: run's own text output reads back as ANSWERS and check marks every table
 * right. With layout: torch, run shows the W tables transposed to the book's [in, out]
 * (and says so); check once compared them with the file's [out, in] and called the
 * answers "to another problem" (found by fuzz_roundtrip). The file's own layout is
 * accepted too: a student may copy W as the problem gives it. */
static void test_a_torch_layout_run_reads_back_as_right_answers(void **state)
{
    static const char problem[] =
        "layout: torch\nheads: 2\nX = [[1, 2, 3, 4], [0, 1, 0, 1]]\n"
        "Wq = [[1, 0, 0, 0], [0, 1, 0, 0]]\nWk = [[1, 0, 0, 0], [0, 1, 0, 0]]\n"
        "Wv = [[1, 1, 1, 1], [0, 0, 0, 1]]\nWo = [[1, 2], [3, 4]]\n";
    FILE *f = fopen("build/tests/torch.txt", "w");

    (void)state;
    assert_non_null(f);
    fputs(problem, f);
    fclose(f);
    assert_int_equal(run("run build/tests/torch.txt --lang en"), 0);
    assert_int_equal(system("cp " OUT " build/tests/torch-answers.txt"), 0);
    assert_int_equal(run("check build/tests/torch.txt build/tests/torch-answers.txt --lang en"), 0);
    assert_file_lacks(ERR, "another problem");
    f = fopen("build/tests/torch-answers.txt", "w"); /* W as the file gives it, [out, in] */
    assert_non_null(f);
    fputs("Wq = [[1, 0, 0, 0], [0, 1, 0, 0]]\nQ = [[1, 2], [0, 1]]\n", f);
    fclose(f);
    assert_int_equal(run("check build/tests/torch.txt build/tests/torch-answers.txt --lang en"), 0);
    unlink("build/tests/torch.txt");
    unlink("build/tests/torch-answers.txt");
}

static void test_every_bundled_example_runs(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    char cmd[512];

    (void)state;
    snprintf(cmd, sizeof cmd, "for f in examples/*.txt; do case \"$f\" in *-answers.txt) continue;; esac; "
             "%s run \"$f\" >/dev/null || exit 1; done",
             bin ? bin : "build/attnstep");
    assert_int_equal(system(cmd), 0);
}

/* ---- errors: FILE:LINE:COL, a hint, exit 2, nothing on stdout ---- */

static void expect_input_error(const char *file, const char *where)
{
    char args[256];

    snprintf(args, sizeof args, "run --lang en %s", file);
    assert_int_equal(run(args), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, where);
    assert_file_contains(ERR, "  hint: ");
    snprintf(args, sizeof args, "run %s", file); /* Chinese, the default */
    assert_int_equal(run(args), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, ": 错误：");
    assert_file_contains(ERR, "  提示：");
}

static void test_a_ragged_row_is_reported_at_its_line(void **state)
{
    (void)state;
    expect_input_error("tests/data/cli/ragged.txt", "attnstep: tests/data/cli/ragged.txt:2:6: error: ");
}

static void test_a_word_inside_a_matrix_is_reported_at_its_column(void **state)
{
    (void)state;
    expect_input_error("tests/data/cli/word.txt", "attnstep: tests/data/cli/word.txt:2:10: error: ");
}

static void test_a_matrix_given_twice_is_reported_at_the_second(void **state)
{
    (void)state;
    expect_input_error("tests/data/cli/twice.txt", "attnstep: tests/data/cli/twice.txt:6:1: error: ");
}

static void test_every_shape_mismatch_names_both_sides_and_why(void **state)
{
    static const char *const cases[][2] = {
        {"shape-keys", "shape-keys.txt:3:1: error: Wk makes Keys of width 3, but Wq makes Queries of width 2"},
        {"shape-wq-rows", "shape-wq-rows.txt:2:1: error: Wq has 3 rows, but X has 2 columns"},
        {"causal-cross", "causal-cross.txt:3:1: error: a causal mask needs as many queries as keys"},
        {"masked-row", "masked-row.txt:5:1: error: row 1 (\"1\") has no readable position"},
        {"heads-divide", "heads-divide.txt:1:1: error: heads: 3 does not divide"},
        {"bias-width", "bias-width.txt:5:1: error: bq has 3 numbers, but Wq makes 2 columns"},
        {"wo-rows", "wo-rows.txt:5:1: error: Wo has 3 rows, but the heads side by side (C) have 2"},
        {"tokens-count", "tokens-count.txt:1:1: error: tokens has 3 labels, but X has 2 rows"},
    };
    char file[128];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(file, sizeof file, "tests/data/cli/%s.txt", cases[i][0]);
        expect_input_error(file, cases[i][1]);
    }
    /* the reason two widths must agree, for a learner */
    expect_input_error("tests/data/cli/shape-keys.txt",
                       "hint: a Query and a Key are compared by a dot product, so both need d_k numbers");
}

static const char *const usage_mistakes[] = {
    "--digits 99 examples/f11.txt", "--lang fr examples/f11.txt", "--frobnicate examples/f11.txt",
    "frobnicate", "run", "--only Z examples/f11.txt", "--format", "--mask casual examples/f11.txt",
    "compare examples/f11.txt"};

static void test_usage_errors_exit_2_with_a_usage_line(void **state)
{
    char args[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof usage_mistakes / sizeof usage_mistakes[0]; i++) {
        snprintf(args, sizeof args, "--lang en %s", usage_mistakes[i]);
        if (strncmp(usage_mistakes[i], "--lang", 6) == 0)
            snprintf(args, sizeof args, "%s --lang en", usage_mistakes[i]);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(ERR, "attnstep: error: ");
        assert_file_contains(ERR, "usage: attnstep");
    }
}

/* Each command writes only the formats of its row in the command table; any other is
 * a clear error before any work, in the user's language (run --format gift once called
 * a renderer that run does not have, and crashed). The formats are listed from the
 * SPEC's section 3, by hand. */
static void test_a_format_a_command_does_not_write_is_refused_before_any_work(void **state)
{
    static const struct { const char *args, *en, *zh; } cases[] = {
        {"run examples/f11.txt --format gift",
         "run writes only --format text, json, md, latex, csv, svg or html",
         "run只能输出--format text、json、md、latex、csv、svg或html"},
        {"run examples/f11.txt --format moodle", "run writes only --format", "run只能输出"},
        {"trace examples/f11.txt --format json", "trace writes only --format text or html",
         "trace只能输出--format text或html"},
        {"grad examples/f11.txt --format md", "grad writes only --format text, json or html",
         "grad只能输出--format text、json或html"},
        {"sheet examples/f11.txt --format text", "sheet writes only --format md, latex, gift or moodle",
         "sheet只能输出--format md、latex、gift或moodle"},
        {"run examples/f11.txt --tiles 1 --format md", "--tiles writes only --format text, json or html",
         "--tiles只能输出--format text、json或html"},
    };
    char args[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "%s --lang en", cases[i].args);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(ERR, cases[i].en);
        snprintf(args, sizeof args, "%s --lang zh", cases[i].args);
        assert_int_equal(run(args), 2);
        assert_stdout_empty();
        assert_file_contains(ERR, cases[i].zh);
    }
}

/* --lang is read before anything else: a mistake anywhere on the command line, even
 * before --lang, is reported in the language it chooses; Chinese by default. */
static void test_usage_errors_speak_the_language_chosen_even_before_lang(void **state)
{
    char args[256];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof usage_mistakes / sizeof usage_mistakes[0]; i++) {
        assert_int_equal(run(usage_mistakes[i]), 2);
        assert_stdout_empty();
        assert_file_contains(ERR, "attnstep: 错误：");
        assert_file_contains(ERR, "用法：attnstep");
        assert_file_lacks(ERR, "usage");
    }
    snprintf(args, sizeof args, "--digits 99 --lang=en examples/f11.txt");
    assert_int_equal(run(args), 2);
    assert_file_contains(ERR, "attnstep: error: --digits takes a whole number from 0 to 17");
    setenv("ATTNSTEP_LANG", "en", 1);
    assert_int_equal(run("--frobnicate examples/f11.txt"), 2);
    assert_file_contains(ERR, "attnstep: error: unknown option \"--frobnicate\"");
    assert_int_equal(run("--frobnicate --lang zh examples/f11.txt"), 2);
    assert_file_contains(ERR, "attnstep: 错误：没有“--frobnicate”这个选项");
    setenv("ATTNSTEP_LANG", "fr", 1);
    assert_int_equal(run("examples/f11.txt"), 2);
    assert_file_contains(ERR, "attnstep: 错误：环境变量ATTNSTEP_LANG是“fr”，应设为zh或en");
    assert_int_equal(run("--lang en examples/f11.txt"), 0); /* --lang wins */
    unsetenv("ATTNSTEP_LANG");
}

/* A misspelt command, option or value names the one that was meant. */
static void test_usage_errors_say_which_word_was_meant(void **state)
{
    static const char *const cases[][2] = {
        {"--lang en --mask casual examples/f11.txt", "  hint: did you mean \"causal\"?\n"},
        {"--lang en --foramt json examples/f11.txt", "  hint: did you mean \"--format\"?\n"},
        {"--lang en --format jsno examples/f11.txt", "  hint: did you mean \"json\"?\n"},
        {"--lang en trcae examples/f11.txt", "  hint: did you mean \"trace\"?\n"},
        {"--mask casual examples/f11.txt", "  提示：是不是想写“causal”？\n"},
        {"--colour nevr examples/f11.txt", "  提示：是不是想写“never”？\n"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(run(cases[i][0]), 2);
        assert_file_contains(ERR, cases[i][1]);
    }
    assert_int_equal(run("--lang en --mask zzzzzz examples/f11.txt"), 2);
    assert_file_lacks(ERR, "did you mean");
}

/* --help in the language chosen: the Chinese one is Chinese from its first word. */
static void test_help_speaks_the_language_chosen(void **state)
{
    (void)state;
    assert_int_equal(run("--help"), 0);
    assert_file_contains(OUT, "用法：attnstep [run] 文件 [选项]");
    assert_file_contains(OUT, "  --lang zh|en          ");
    assert_int_equal(run("--help --lang en"), 0);
    assert_file_contains(OUT, "Usage: attnstep [run] FILE [options]");
    setenv("ATTNSTEP_LANG", "en", 1);
    assert_int_equal(run("-h"), 0);
    unsetenv("ATTNSTEP_LANG");
    assert_file_contains(OUT, "Usage: attnstep");
}

/* ＝ ［ ］ ， － （ ） typed by a Chinese input method read as = [ ] , - ( ), in an input and
 * in ANSWERS alike; a title keeps its own full-width punctuation. */
static void test_full_width_punctuation_reads_as_ascii(void **state)
{
    FILE *f;

    (void)state;
    f = fopen("build/tests/fullwidth.txt", "w");
    assert_non_null(f);
    fputs("title：第一课（全角），试试\ntokens: 我 爱\nmask: causal\n"
          "X ＝ ［［1，1］，［1，－1］］\n"
          "Wq ＝ [[0.5, 0.5], [－0.5, 0.5]]\nWk = ［[0.5, 0.5], [0.5, -0.5]］\n"
          "Wv = [[5, 10], [5, －10]]  # 注释里的（全角）不动\n", f);
    fclose(f);
    f = fopen("build/tests/fullwidth-answers.txt", "w");
    assert_non_null(f);
    fputs("O ＝ ［［10，0］，［6.6976154933，6.6047690135］］\n", f);
    fclose(f);
    assert_int_equal(run("run --lang en --only O examples/f11.txt"), 0);
    {
        char *want = slurp(OUT);
        assert_int_equal(run("run --lang en --only O build/tests/fullwidth.txt"), 0);
        assert_file_contains(OUT, want);
        free(want);
    }
    assert_int_equal(run("run build/tests/fullwidth.txt --only X"), 0);
    assert_file_contains(OUT, "标题：第一课（全角），试试");
    assert_int_equal(run("check --lang en build/tests/fullwidth.txt build/tests/fullwidth-answers.txt"), 0);
}

static void test_a_missing_file_is_a_clear_error(void **state)
{
    (void)state;
    assert_int_equal(run("run --lang en no/such/file.txt"), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, "attnstep: no/such/file.txt: error: ");
    assert_int_equal(run("run no/such/file.txt"), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, "attnstep: no/such/file.txt: 错误：");
}

/* A table of 65536 numbers or more is written in two halves at once (render_json.c);
 * the text is one table all the same. X is 512 rows of 128 numbers, row r holding
 * 128r … 128r + 127: the JSON must be exactly those rows, in order. */
static void test_json_of_a_large_table_is_every_row_in_order(void **state)
{
    const size_t rows = 512, cols = 128;
    FILE *x = fopen("build/tests/cli-big-x.txt", "w"), *w = fopen("build/tests/cli-big-w.txt", "w");
    FILE *in = fopen("build/tests/cli-big.txt", "w");
    char *want = malloc(rows * cols * 8 + 16), *got;
    size_t r, c, n = 0;

    (void)state;
    assert_non_null(x);
    assert_non_null(w);
    assert_non_null(in);
    assert_non_null(want);
    n += (size_t)sprintf(want + n, "\"X\": [");
    for (r = 0; r < rows; r++) {
        n += (size_t)sprintf(want + n, "%s[", r ? "," : "");
        for (c = 0; c < cols; c++) {
            fprintf(x, "%zu%c", r * cols + c, c + 1 < cols ? ' ' : '\n');
            n += (size_t)sprintf(want + n, "%s%zu", c ? "," : "", r * cols + c);
        }
        n += (size_t)sprintf(want + n, "]");
    }
    sprintf(want + n, "], \"Wq\": [[0],");
    for (r = 0; r < cols; r++)
        fputs("0\n", w);
    fputs("X = load(\"cli-big-x.txt\")\nWq = load(\"cli-big-w.txt\")\n"
          "Wk = load(\"cli-big-w.txt\")\nWv = load(\"cli-big-w.txt\")\n", in);
    fclose(x);
    fclose(w);
    fclose(in);
    assert_int_equal(run("run build/tests/cli-big.txt --only X --format json"), 0);
    got = slurp(OUT);
    assert_non_null(got);
    assert_non_null(strstr(got, want));
    free(got);
    free(want);
}

/* The line of text (0, 1, ...) that begins with start, or -1. */
static long line_starting(const char *text, const char *start)
{
    const char *p = text;
    long n = 0;

    for (; p != NULL && *p != '\0'; n++) {
        if (strncmp(p, start, strlen(start)) == 0)
            return n;
        p = strchr(p, '\n');
        p = p != NULL ? p + 1 : NULL;
    }
    return -1;
}

/* Wq, Wk and Wv one below the other, each line of each beginning a line of the output,
 * when those named in wide (4 x cols, at 10 places: 12 columns make one 76 wide, 24 make
 * it 136) do not fit side by side in 100 columns; the others are 4 x 2. */
static void assert_weights_below_each_other(const char *wide, int cols)
{
    static const char narrow[] = "[[0.5, 1], [1, 0.5], [0, 1], [1, 0]]";
    static const char *const name[] = {"Wq", "Wk", "Wv"};
    FILE *in = fopen("build/tests/cli-wide.txt", "w");
    char *got;
    long at;
    int k, r, c;

    assert_non_null(in);
    fputs("X = [[1, 0, 0, 0], [0, 1, 0, 0]]\n", in);
    for (k = 0; k < 3; k++) {
        if (strstr(wide, name[k]) == NULL) {
            fprintf(in, "%s = %s\n", name[k], narrow);
            continue;
        }
        fprintf(in, "%s = [", name[k]);
        for (r = 0; r < 4; r++)
            for (c = 0; c < cols; c++)
                fprintf(in, "%s%s%d.%s", c ? ", " : r ? "], [" : "[", r == 3 ? "-" : "", c,
                        c == 0 ? "1234567891" : "5");
        fputs("]]\n", in);
    }
    fclose(in);
    assert_int_equal(run("run build/tests/cli-wide.txt --only W --lang en"), 0);
    got = slurp(OUT);
    assert_non_null(got);
    at = line_starting(got, "Wq ");
    assert_true(at >= 0);
    assert_int_equal(line_starting(got, "Wk "), at + 4);
    assert_int_equal(line_starting(got, "Wv "), at + 8);
    assert_null(strstr(got, "    Wk ")); /* nothing beside anything */
    assert_null(strstr(got, "    Wv "));
    free(got);
}

static void test_weights_too_wide_to_sit_side_by_side_are_printed_one_below_another(void **state)
{
    (void)state;
    assert_weights_below_each_other("Wq Wk", 24); /* the first alone too wide */
    assert_weights_below_each_other("Wv", 24);    /* the first two would fit */
    assert_weights_below_each_other("Wv", 12);    /* each fits, the three do not */
}

/* Each option value out of its range is named with the range, before any work. */
static void refused_with(const char *args, const char *want)
{
    assert_int_equal(run(args), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, want);
}

static void test_option_values_and_arguments_out_of_range_are_named(void **state)
{
    (void)state;
    refused_with("exercise --count 0 --lang en",
                 "attnstep: error: --count takes a whole number from 1 to 1000, not \"0\"\n");
    refused_with("exercise --count 1001 --lang en", "from 1 to 1000, not \"1001\"\n");
    refused_with("exercise --level 4 --lang en",
                 "attnstep: error: --level takes 1, 2 or 3, not \"4\"\n");
    refused_with("exercise --step foo --lang en",
                 "attnstep: error: --step takes project, scores, softmax, mix, sample, norm, residual or ffn, not \"foo\"\n");
    refused_with("sheet examples/f11.txt --format json --lang en",
                 "attnstep: error: sheet writes only --format md, latex, gift or moodle\n"
                 "  hint: md is the default; latex compiles with pdflatex (en) or xelatex (zh)\n");
    refused_with("check examples/f11.txt - - --lang en",
                 "attnstep: error: only one of FILE and ANSWERS can be standard input\n");
    assert_int_equal(system("mkdir -p build/tests/cli-no-answers && "
                            "rm -f build/tests/cli-no-answers/*"), 0);
    refused_with("check examples/f11.txt build/tests/cli-no-answers --lang en",
                 "attnstep: build/tests/cli-no-answers: error: the directory "
                 "build/tests/cli-no-answers holds no *.txt answers file\n");
}

/* The exact words of an option's mistake (exit 2, nothing on stdout): --tol is a number
 * as the input writes one, 0 or more and at most 1e300 (empty, hexadecimal, nan, -1 and
 * 1e301 refused); --row a row number that fits (20 digits do not); --norm and --ffn
 * words far from every choice get what each choice means; a long option longer than
 * any gets no guess. */
static void test_option_mistakes_are_told_in_exact_words(void **state)
{
    static const struct {
        const char *args, *err;
    } cases[] = {
        {"check examples/f11.txt examples/class --tol '' --lang en",
         "attnstep: error: --tol takes a tolerance of 0 or more, not \"\"\n"},
        {"check examples/f11.txt examples/class --tol 0x10 --lang en",
         "attnstep: error: --tol takes a tolerance of 0 or more, not \"0x10\"\n"},
        {"check examples/f11.txt examples/class --tol nan --lang en",
         "attnstep: error: --tol takes a tolerance of 0 or more, not \"nan\"\n"},
        {"check examples/f11.txt examples/class --tol -1 --lang en",
         "attnstep: error: --tol takes a tolerance of 0 or more, not \"-1\"\n"},
        {"check examples/f11.txt examples/class --tol 1e301 --lang en",
         "attnstep: error: --tol takes a tolerance of 0 or more, not \"1e301\"\n"},
        {"run examples/f11.txt --row 99999999999999999999 --lang en",
         "attnstep: error: --row takes a row number, \"last\" or \"all\", not "
         "\"99999999999999999999\"\n"},
        {"exercise --norm xyz --lang en",
         "attnstep: error: --norm takes layer or rms, not \"xyz\"\n  hint: layer: LayerNorm, the "
         "mean taken off and divided by \xe2\x88\x9a(\xcf\x83\xc2\xb2+\xce\xb5); rms: RMSNorm, "
         "divided by \xe2\x88\x9a(\xce\xa3x\xc2\xb2/d+\xce\xb5) alone\n"},
        {"exercise --ffn xyz --lang en",
         "attnstep: error: --ffn takes gelu_tanh, gelu, relu, swiglu or none, not \"xyz\"\n"
         "  hint: relu, gelu (the exact erf form), gelu_tanh (GPT-2's tanh form), swiglu "
         "(LLaMA); none: the block ends at H1, with no FFN\n"},
        {"exercise --ffn gelu2 --lang en",
         "attnstep: error: --ffn takes gelu_tanh, gelu, relu, swiglu or none, not \"gelu2\"\n"
         "  hint: did you mean \"gelu\"?\n"},
        {"--lang= examples/f11.txt --lang en", "attnstep: error: --lang takes zh or en, not \"\"\n"},
        {"--xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxformat=json --lang en",
         "attnstep: error: unknown option "
         "\"--xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxformat=json\"\n"
         "usage: attnstep"},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        refused_with(cases[i].args, cases[i].err);
        assert_file_lacks(ERR, "did you mean \"--");
    }
}

/* The language of a message: --lang=en as --lang en; an empty ATTNSTEP_LANG is no
 * choice (Chinese); after "--" every word is a file, "--lang en" too, so the language
 * stays Chinese and "--lang" is one word too many; a --lang with no value at the end. */
static void test_the_language_is_chosen_from_the_words_before_a_double_dash(void **state)
{
    (void)state;
    setenv("ATTNSTEP_LANG", "", 1);
    refused_with("--lang=en --digits 99 examples/f11.txt",
                 "attnstep: error: --digits takes a whole number from 0 to 17, not \"99\"\n");
    refused_with("--digits 99 examples/f11.txt",
                 "attnstep: 错误：--digits要给0到17之间的整数，不能是“99”\n");
    unsetenv("ATTNSTEP_LANG");
    refused_with("-- examples/f11.txt --lang en", "attnstep: 错误：多出了参数“--lang”\n");
    refused_with("examples/f11.txt --lang", "attnstep: 错误：选项“--lang”后面要跟一个值\n");
}

/* Issue 29: --help says which numbers count from 1 (an error's FILE:LINE:COL, as an
 * editor counts) and which from 0 (a table's rows and columns, as the book counts). */
static void test_help_says_what_counts_from_1_and_what_from_0(void **state)
{
    (void)state;
    assert_int_equal(run("--help"), 0);
    assert_file_contains(OUT, "错误开头的“文件:行:列”从1开始数，\n和编辑器一样；表的行和列（如A[1][0]、"
                              "--row 1）从0开始数，和书中一样。");
    assert_file_contains(OUT, "  --head H              practice：只练第H个头（从0数起）\n");
    assert_int_equal(run("--help --lang en"), 0);
    assert_file_contains(OUT, "An error's FILE:LINE:COL counts from 1, as editors\ndo; a table's "
                              "rows and columns (A[1][0], --row 1) count from 0, as the book does.");
}

/* The round trip's findings (tests/fuzz/corpus/roundtrip-*): with one head and Wo the
 * head's AV is C and the output O = C @ Wo, so run names no table twice and its text
 * reads back as answers that check marks all right; an ask: naming no table is the same
 * error for run as for check. */
static void test_run_and_check_agree_on_one_head_with_wo_and_on_ask(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("run tests/fuzz/corpus/roundtrip-one-head-wo.txt --lang en"), 0);
    out = slurp(OUT);
    assert_non_null(strstr(out, "\nC = AV ≈ [["));
    assert_non_null(strstr(out, "\nO = C @ Wo ≈ [["));
    assert_null(strstr(out, "O = AV"));
    free(out);
    assert_int_equal(system("cp " OUT " build/tests/one-head-wo-answers.txt"), 0);
    assert_int_equal(run("check tests/fuzz/corpus/roundtrip-one-head-wo.txt "
                         "build/tests/one-head-wo-answers.txt --lang en"), 0);
    assert_int_equal(run("run tests/fuzz/corpus/roundtrip-ask-causal.txt --lang en"), 2);
    assert_file_contains(ERR, "roundtrip-ask-causal.txt:8:6: error: ask: causal is no table");
    assert_int_equal(run("trace tests/fuzz/corpus/roundtrip-ask-causal.txt"), 2);
}

/* The round trip's finding tests/fuzz/corpus/roundtrip-scale-1e300-*: S[0][0] is
 * 1e300 x -1 + -1e308 = -1.00000001e308, which run showed as "-1e+308" at --digits 1 to
 * 7, read back by check as exact and wrong. Rounded, it shows as "-1.0e+308": run's
 * text reads back as answers check marks all right, at every --digits the fuzzer draws. */
static void test_run_text_near_the_largest_double_reads_back_as_right(void **state)
{
    static const char *const digits[] = {"1", "2", "5", "7", "8", "17"};
    char cmd[512];
    size_t k;

    (void)state;
    for (k = 0; k < sizeof digits / sizeof digits[0]; k++) {
        snprintf(cmd, sizeof cmd, "run tests/fuzz/corpus/roundtrip-scale-1e300-mask-near-the-"
                                  "largest-double.txt --lang en --digits %s", digits[k]);
        assert_int_equal(run(cmd), 0);
        if (atoi(digits[k]) <= 7)
            assert_file_contains(OUT, "[[-1.0e+308, -1e+300],");
        assert_int_equal(system("cp " OUT " build/tests/near-largest-answers.txt"), 0);
        snprintf(cmd, sizeof cmd, "check tests/fuzz/corpus/roundtrip-scale-1e300-mask-near-"
                                  "the-largest-double.txt build/tests/near-largest-answers.txt "
                                  "--lang en --digits %s", digits[k]);
        assert_int_equal(run(cmd), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_prints_the_chapters_tables_in_chinese),
        cmocka_unit_test(test_a_file_alone_means_run),
        cmocka_unit_test(test_run_speaks_english_with_lang_en_or_the_environment),
        cmocka_unit_test(test_ascii_spells_every_symbol_in_ascii),
        cmocka_unit_test(test_json_follows_the_spec_to_the_key),
        cmocka_unit_test(test_json_of_a_large_table_is_every_row_in_order),
        cmocka_unit_test(test_weights_too_wide_to_sit_side_by_side_are_printed_one_below_another),
        cmocka_unit_test(test_every_way_of_writing_the_example_gives_the_same_numbers),
        cmocka_unit_test(test_standard_input_is_read_from_a_dash),
        cmocka_unit_test(test_digits_and_only_shape_the_output),
        cmocka_unit_test(test_mask_none_lets_every_row_read_everything),
        cmocka_unit_test(test_only_o_prints_the_same_output_as_the_full_run),
        cmocka_unit_test(test_every_bundled_example_runs),
        cmocka_unit_test(test_a_torch_layout_run_reads_back_as_right_answers),
        cmocka_unit_test(test_a_ragged_row_is_reported_at_its_line),
        cmocka_unit_test(test_a_word_inside_a_matrix_is_reported_at_its_column),
        cmocka_unit_test(test_a_matrix_given_twice_is_reported_at_the_second),
        cmocka_unit_test(test_every_shape_mismatch_names_both_sides_and_why),
        cmocka_unit_test(test_usage_errors_exit_2_with_a_usage_line),
        cmocka_unit_test(test_a_format_a_command_does_not_write_is_refused_before_any_work),
        cmocka_unit_test(test_option_values_and_arguments_out_of_range_are_named),
        cmocka_unit_test(test_option_mistakes_are_told_in_exact_words),
        cmocka_unit_test(test_the_language_is_chosen_from_the_words_before_a_double_dash),
        cmocka_unit_test(test_usage_errors_speak_the_language_chosen_even_before_lang),
        cmocka_unit_test(test_usage_errors_say_which_word_was_meant),
        cmocka_unit_test(test_help_speaks_the_language_chosen),
        cmocka_unit_test(test_help_says_what_counts_from_1_and_what_from_0),
        cmocka_unit_test(test_full_width_punctuation_reads_as_ascii),
        cmocka_unit_test(test_a_missing_file_is_a_clear_error),
        cmocka_unit_test(test_run_and_check_agree_on_one_head_with_wo_and_on_ask),
        cmocka_unit_test(test_run_text_near_the_largest_double_reads_back_as_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
