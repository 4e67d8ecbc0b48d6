/* test_sheet.c - worksheets (SPEC §7): the F11 sheet and its key against the chapter's
 * printed numbers, the labelled grids, the instructions in both languages, LaTeX that
 * pdflatex (English, ASCII only) or xelatex + ctex (Chinese) can set, one-step drills,
 * variants for a class (the roster read with its errors at FILE:LINE:COL) and a fresh
 * seed when none is given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_sheet.out"
#define CLI_ERR "build/tests/test_sheet.err"
#include "attnstep/exercise.h"
#include "cli_util.h"

#define ROSTER "tests/data/sheet/roster.txt"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;

    for (; (s = strstr(s, what)) != NULL; s++)
        n++;
    return n;
}

/* The output of the last run, which must hold every string of want. */
static char *output_with(const char *const *want, size_t n)
{
    char *out = slurp(CLI_OUT);
    size_t i;

    assert_non_null(out);
    for (i = 0; i < n; i++)
        if (strstr(out, want[i]) == NULL) {
            print_error("the output lacks \"%s\"\n", want[i]);
            fail();
        }
    return out;
}

/* ---- the F11 sheet ---- */

static void test_f11_sheet_has_a_name_line_instructions_and_labelled_grids(void **state)
{
    static const char *const want[] = {
        "# 注意力手算练习", "姓名：", "班级：", "日期：", "计算Q、K、V、QKᵀ、S、A和O",
        "保留2位小数", "S里写−∞，A里写0", "**S = QKᵀ/√2 + M**\n\n|    | 我 | 爱 |",
        "**Q = X·Wq**\n\n|    | 0 | 1 |", "| 爱 |          |          |",
        "本例使用因果读取规则"};
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    assert_null(strstr(out, "# 答案"));
    assert_int_equal(count(out, "|          |          |"), 7 * 2); /* 7 grids, 2 rows */
    free(out);
}

/* The key of F11 against the chapter's printed numbers: shares 0.6697615493 and
 * 0.3302384507, O's last row 6.6976154933 and 6.6047690135, the exps [1, 0.4930686914]
 * summing to 1.4930686914, the scaled scores [1/√2, 0/√2] ≈ [0.7071067812, 0]; at the
 * key's 4 places. */
static void test_f11_key_agrees_with_the_chapter_and_is_mathematics(void **state)
{
    static const char *const want[] = {
        "# 答案", "| 爱 | 0.6698   | 0.3302   |", "| 爱 | 6.6976   | 6.6048   |",
        "\\tfrac{1}{\\sqrt{2}},\\ \\tfrac{0}{\\sqrt{2}}",
        "\\approx \\left[0.7071,\\ 0\\right]", "&\\approx \\left[1,\\ 0.4931\\right]",
        " \\approx 1.4931", "q_{1}\\cdot k_{0} &= 1\\times 1 + 0\\times 0 = 1",
        "o_{1,0} &= 0.6698\\times 10 + 0.3302\\times 0 \\approx 6.6976",
        "$$\n\\begin{aligned}", "逐步计算：第1行（“爱”）"};
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --answers"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    assert_null(strstr(out, "```")); /* not a verbatim dump */
    free(out);
}

static void test_exp_table_gives_the_chapter_exponent(void **state)
{
    static const char *const want[] = {"| x | −0.7071 |", "| eˣ | 0.4931 |"};

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --exp-table"), 0);
    free(output_with(want, 2));
}

static void test_digits_sets_the_places_asked_and_the_key(void **state)
{
    static const char *const want[] = {"保留3位小数", "| 爱 | 0.66976  | 0.33024  |"};

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --answers --digits 3"), 0);
    free(output_with(want, 2));
}

/* ---- LaTeX ---- */

static void test_english_latex_is_ascii_with_amsmath_alone(void **state)
{
    static const char *const want[] = {"\\documentclass[a4paper,11pt]{article}\n\\usepackage{amsmath}\n",
                                       "\\begin{align*}", "\\newpage", "Name: ",
                                       "\\end{document}\n"};
    char *out;
    const unsigned char *c;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --format latex --lang en --answers"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    assert_int_equal(count(out, "\\usepackage"), 1);
    assert_int_equal(count(out, "\\begin{"), count(out, "\\end{"));
    for (c = (const unsigned char *)out; *c; c++)
        assert_true(*c < 0x80); /* 我 and 爱 are set as positions 0 and 1 */
    assert_null(strstr(out, "verbatim"));
    free(out);
}

static void test_chinese_latex_uses_ctex(void **state)
{
    static const char *const want[] = {"\\documentclass[a4paper,11pt]{ctexart}\n\\usepackage{amsmath}\n",
                                       "姓名：", "\\text{我}", "\\hspace{2.8em}"};
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/f11.txt --format latex"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    assert_int_equal(count(out, "\\usepackage"), 1);
    assert_int_equal(count(out, "\\begin{array}{r|c|c|}"), 7); /* the seven grids */
    free(out);
}

/* ---- drills ---- */

/* The table headings of a Markdown sheet before and after "## To fill in". */
static void drill(const char *step, const char *given, const char *asked, size_t nasked)
{
    char cmd[256], *out, *fill;

    snprintf(cmd, sizeof cmd, "exercise --seed 5 --lang en --ascii --format md --step %s", step);
    assert_int_equal(run(cmd), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    fill = strstr(out, "## To fill in");
    assert_non_null(fill);
    *fill = '\0';
    if (strstr(out, given) == NULL) {
        print_error("--step %s does not give %s\n", step, given);
        fail();
    }
    assert_non_null(strstr(fill + 1, asked));
    assert_int_equal(count(fill + 1, "\n**"), nasked);
    assert_non_null(strstr(out, "one-step drill"));
    free(out);
}

static void test_each_drill_gives_the_tables_before_and_asks_its_own(void **state)
{
    (void)state;
    drill("project", "**Wv** =", "**V = X*Wv**", 3);
    drill("scores", "**K** =", "**S = QK^T/sqrt(2) + M**", 2);
    drill("softmax", "**S** ", "**A = softmax of each row of S**", 1);
    drill("mix", "**V** =", "**O = AV**", 1);
}

static void test_a_drill_is_still_an_input_that_runs(void **state)
{
    (void)state;
    assert_int_equal(run("exercise --seed 5 --step mix -o build/tests/drill.txt --force"), 0);
    assert_file_contains("build/tests/drill.txt", "--step mix");
    assert_int_equal(run("run build/tests/drill.txt"), 0);
}

/* ---- variants for a class ---- */

static void test_class_document_has_a_sheet_per_student_then_every_key(void **state)
{
    static const char *const want[] = {"姓名： 张三 ", "姓名： 李四 ", "姓名： 王五 ",
                                       "姓名： María José "};
    char *out, *first_key;

    (void)state;
    assert_int_equal(run("exercise --seed 9 --class " ROSTER " --format md --answers"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    assert_int_equal(count(out, "# 注意力手算练习"), 4);
    assert_int_equal(count(out, "# 答案"), 4);
    first_key = strstr(out, "# 答案");
    assert_true(first_key > strstr(out, "姓名： María José ")); /* the sheets, then the keys */
    assert_int_equal(count(out, "版本"), 8);
    free(out);
}

/* Each student's seed is derived from the base seed and the name: the same command gives
 * the same bytes, and `exercise --seed S` with the seed named in a student's file makes
 * that student's numbers again. */
static void test_class_variants_are_reproducible_from_their_seeds(void **state)
{
    char *a, *b, cmd[128], *x;
    unsigned long seed = as_exercise_variant_seed(9, "李四");
    char id[AS_VARIANT_ID];

    (void)state;
    assert_int_equal(run("exercise --seed 9 --class " ROSTER), 0);
    a = slurp(CLI_OUT);
    assert_int_equal(run("exercise --seed 9 --class " ROSTER), 0);
    b = slurp(CLI_OUT);
    assert_string_equal(a, b);
    as_exercise_variant_id(id, seed);
    snprintf(cmd, sizeof cmd, "学生：李四，版本%s", id);
    assert_non_null(strstr(a, cmd));
    snprintf(cmd, sizeof cmd, "exercise --seed %lu", seed);
    assert_int_equal(run(cmd), 0);
    free(b);
    b = slurp(CLI_OUT);
    x = strstr(b, "\nX = ");
    assert_non_null(x);
    *strstr(x, "\n\n") = '\0';
    assert_non_null(strstr(a, x)); /* 李四's X, as the class run wrote it */
    assert_true(as_exercise_variant_seed(9, "张三") != seed);
    assert_true(as_exercise_variant_seed(10, "李四") != seed);
    free(a);
    free(b);
}

/* -o DIR separates what is handed out from what the teacher keeps (SPEC §7): sheets/ holds
 * one sheet per student and nothing else; teacher/ each student's input file (which run
 * and check read), class.tsv and the key for all, with or without --answers. */
static void test_class_into_a_directory_separates_sheets_from_the_teachers_files(void **state)
{
    char *key, *tsv;

    (void)state;
    assert_int_equal(system("rm -rf build/tests/sheet-class"), 0);
    assert_int_equal(run("exercise --seed 9 --class " ROSTER " --format latex -o build/tests/sheet-class"),
                     0);
    assert_file_contains(CLI_OUT, "build/tests/sheet-class/sheets/01-张三.tex");
    assert_file_contains(CLI_OUT, "build/tests/sheet-class/teacher/01-张三.txt");
    assert_int_equal(run("run build/tests/sheet-class/teacher/02-李四.txt"), 0);
    assert_int_equal(run("run build/tests/sheet-class/teacher/04-María_José.txt"), 0);
    assert_file_contains("build/tests/sheet-class/sheets/03-王五.tex", "\\documentclass");
    assert_int_equal(system("test $(ls build/tests/sheet-class/sheets | wc -l) -eq 4"), 0);
    key = slurp("build/tests/sheet-class/teacher/key.tex");
    assert_non_null(key);
    assert_int_equal(count(key, "\\section") + count(key, "答案"), 4);
    free(key);
    tsv = slurp("build/tests/sheet-class/teacher/class.tsv");
    assert_non_null(tsv);
    assert_non_null(strstr(tsv, "number\tname\tvariant\tseed\tfile\n1\t张三\t"));
    assert_non_null(strstr(tsv, "\t04-María_José.txt\n"));
    free(tsv);
    /* an existing file is never overwritten without --force */
    assert_int_equal(run("exercise --seed 9 --class " ROSTER " --format latex -o build/tests/sheet-class"), 2);
    assert_int_equal(run("exercise --seed 9 --class " ROSTER " -o build/tests/sheet-class --force"), 0);
    assert_file_contains("build/tests/sheet-class/teacher/key.txt", "QKT = ");
    assert_file_contains("build/tests/sheet-class/sheets/01-张三.md", "张三");
}

/* Nothing in sheets/ lets a student rebuild a key: no seed (the teacher's class.tsv has
 * it), no input file, no key, with or without --answers, in every format. */
static void test_a_students_sheet_names_no_seed_and_no_key(void **state)
{
    static const char *const fmt[] = {"latex", "md", "text"};
    char cmd[256], *tsv;
    size_t k;

    (void)state;
    for (k = 0; k < 3; k++) {
        assert_int_equal(system("rm -rf build/tests/sheet-seed"), 0);
        snprintf(cmd, sizeof cmd, "exercise --seed 9 --class " ROSTER " --answers --format %s "
                                  "-o build/tests/sheet-seed", fmt[k]);
        assert_int_equal(run(cmd), 0);
        tsv = slurp("build/tests/sheet-seed/teacher/class.tsv");
        assert_non_null(strstr(tsv, "\t01-张三.txt\n"));
        free(tsv);
        assert_int_equal(system("grep -rl -e 种子 -e seed -e 答案 -e 'QKT =' build/tests/sheet-seed/sheets"),
                         256); /* grep found nothing */
        assert_int_equal(system("test $(ls build/tests/sheet-seed/sheets | wc -l) -eq 4"), 0);
        assert_int_equal(system("grep -q '第2级、版本' build/tests/sheet-seed/sheets/01-张三.*"), 0);
        assert_int_equal(system("grep -q 种子 build/tests/sheet-seed/teacher/01-张三.txt"), 0);
    }
}

/* Every name is printed on every sheet, in every language: an English LaTeX sheet whose
 * names pdflatex cannot set is set by xelatex (its first line says so), with the
 * fallback font for the rare characters, as a Chinese one is. File names leave out what
 * XeTeX or a shell cannot take (𠮷 outside the BMP, the apostrophe of O'Neil). */
static void test_every_name_is_printed_and_file_names_are_safe(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf build/tests/sheet-hard"), 0);
    assert_int_equal(run("exercise --seed 12 --class tests/data/sheet/roster-hard.txt --format latex "
                         "--lang en -o build/tests/sheet-hard"), 0);
    assert_file_contains("build/tests/sheet-hard/sheets/06-田花.tex",
                         "% attnstep worksheet: xelatex (ctex)\n"
                         "\\documentclass[a4paper,11pt,scheme=plain]{ctexart}");
    assert_file_contains("build/tests/sheet-hard/sheets/06-田花.tex", "{𠮷田花}");
    assert_file_contains("build/tests/sheet-hard/sheets/02-高䶮.tex", "{高䶮}");
    assert_file_contains("build/tests/sheet-hard/sheets/06-田花.tex", "HanaMinB");
    assert_file_contains("build/tests/sheet-hard/sheets/07-O_Neil.tex", "{O'Neil}");
    assert_file_contains("build/tests/sheet-hard/sheets/07-O_Neil.tex", "pdflatex (amsmath)");
    assert_file_contains("build/tests/sheet-hard/teacher/class.tsv", "\t𠮷田花\t");
    assert_int_equal(run("exercise --seed 12 --class tests/data/sheet/roster-hard.txt --format latex "
                         "-o build/tests/sheet-hard --force"), 0);
    assert_file_contains("build/tests/sheet-hard/sheets/03-林喆.tex", "HanaMinA");
    assert_file_contains("build/tests/sheet-hard/sheets/03-林喆.tex", "{林喆}");
}

/* A path too long for the system is an error before anything is written, never a
 * silently shortened name. */
static void test_a_path_too_long_is_an_error_before_anything_is_written(void **state)
{
    char cmd[1024], dir[700];

    (void)state;
    memset(dir, 'd', sizeof dir - 1);
    dir[sizeof dir - 1] = '\0';
    memcpy(dir, "build/tests/", 12);
    snprintf(cmd, sizeof cmd, "exercise --seed 9 --class " ROSTER " -o %s", dir);
    assert_int_equal(run(cmd), 2);
    assert_file_contains(CLI_ERR, "文件名太长");
    assert_file_contains(CLI_ERR, "什么都还没有写");
    snprintf(cmd, sizeof cmd, "test -e %s", dir);
    assert_int_not_equal(system(cmd), 0);
}

/* A name becomes part of a file name safely: a leading "-" (an option to every shell
 * command) or "." (a hidden file) and a "/" (another folder) become "_"; a no-break
 * space after a name (a roster copied from a spreadsheet) is trimmed. A quiz format
 * writes one quiz file for the class, with each student's input and the key, all the
 * teacher's. */
static void test_a_class_quiz_into_a_directory_has_safe_names_and_one_quiz(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf build/tests/quiz"), 0);
    assert_int_equal(run("exercise --seed 3 --class tests/data/sheet/roster-unsafe.txt "
                         "--format gift -o build/tests/quiz --lang en"), 0);
    assert_file_contains(CLI_OUT, "wrote build/tests/quiz/teacher/01-_dash.txt\n"
                                  "wrote build/tests/quiz/teacher/02-_dot.txt\n"
                                  "wrote build/tests/quiz/teacher/03-A_B.txt\n"
                                  "wrote build/tests/quiz/teacher/04-Ana.txt\n"
                                  "wrote build/tests/quiz/teacher/quiz.gift\n"
                                  "wrote build/tests/quiz/teacher/key.txt\n"
                                  "wrote build/tests/quiz/teacher/class.tsv\n");
    assert_int_equal(run("run build/tests/quiz/teacher/03-A_B.txt"), 0);
    /* the quiz names the student as written */
    assert_file_contains("build/tests/quiz/teacher/quiz.gift", "$CATEGORY: $course$/top/attnstep level 2, "
                                                       "seed ");
    assert_file_contains("build/tests/quiz/teacher/quiz.gift", ", -dash, variant ");
}

/* A class folder's file names (SPEC §7): the roster number, two digits up to 99
 * students and four from 100, then the safe name; a name of which nothing is left (𠮷,
 * outside the BMP, which XeTeX cannot open) gives the number alone, and class.tsv keeps
 * the name as written. A folder that cannot be made (under a regular file) is refused
 * with the system's reason, exit 2, nothing written. */
static void test_class_file_names_are_numbered_for_the_size_of_the_class(void **state)
{
    char *tsv;

    (void)state;
    assert_int_equal(system("rm -rf build/tests/cls-names build/tests/cls-100 build/tests/cls-file && "
                            "printf '\\360\\240\\256\\267\\n张三\\n' > build/tests/cls-roster.txt"), 0);
    assert_int_equal(run("exercise --seed 5 --class build/tests/cls-roster.txt -o build/tests/cls-names "
                         "--lang en"), 0);
    assert_file_contains(CLI_OUT, "wrote build/tests/cls-names/sheets/01.md\n"
                                  "wrote build/tests/cls-names/teacher/01.txt\n"
                                  "wrote build/tests/cls-names/sheets/02-张三.md\n"
                                  "wrote build/tests/cls-names/teacher/02-张三.txt\n");
    assert_non_null(tsv = slurp("build/tests/cls-names/teacher/class.tsv"));
    assert_true(strncmp(tsv, "number\tname\tvariant\tseed\tfile\n1\t\xf0\xa0\xae\xb7\t", 35) == 0);
    assert_non_null(strstr(tsv, "\t01.txt\n2\t张三\t"));
    free(tsv);
    assert_int_equal(run("exercise --seed 5 --count 100 -o build/tests/cls-100 --lang en"), 0);
    assert_int_equal(dir_entries("build/tests/cls-100/teacher", "0"), 100);
    assert_int_equal(dir_entries("build/tests/cls-100/teacher", "0100-"), 1);
    assert_int_equal(dir_entries("build/tests/cls-100/sheets", "0001-"), 1);
    write_text("build/tests/cls-file", "a file, not a folder\n");
    assert_int_equal(run("exercise --seed 5 --count 2 -o build/tests/cls-file/class --lang en"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "attnstep: build/tests/cls-file/class: error: cannot make the "
                                  "directory: a part of the path is not a directory\n");
    assert_int_equal(system("rm -rf build/tests/cls-names build/tests/cls-100 build/tests/cls-file "
                            "build/tests/cls-roster.txt"), 0);
}

/* A block's formulas on a sheet follow the input's settings (SPEC §15): GELU's tanh form
 * is set in LaTeX as GELU with the subscript tanh; with norm: none nothing is normalised
 * (N1 = X, N2 = H1); a post-LN block without an FFN and with a final norm (lnf_g) ends
 * at Y = RMSNorm(H1), with its ε. */
static void test_block_formulas_follow_the_inputs_settings(void **state)
{
    (void)state;
    assert_int_equal(system("sed 's/^ffn: gelu$/ffn: gelu_tanh/' examples/block-pre-gelu.txt > "
                            "build/tests/sheet-tanh.txt && "
                            "sed '/^ln[12]_[gb]/d; s/^norm: layer$/norm: none/' examples/block-pre-gelu.txt > "
                            "build/tests/sheet-no-norm.txt && "
                            "(cat examples/block-f11-post-rms.txt; echo 'lnf_g = [1, 1]') > "
                            "build/tests/sheet-final-norm.txt"), 0);
    assert_int_equal(run("sheet build/tests/sheet-tanh.txt --format latex --lang en"), 0);
    assert_file_contains(CLI_OUT, "\nF = \\operatorname{GELU}_{\\tanh}(U) \\\\[3pt]\n");
    assert_int_equal(run("sheet build/tests/sheet-no-norm.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "**N1 = X**");
    assert_file_contains(CLI_OUT, "**H1 = X + O**");
    assert_file_contains(CLI_OUT, "**N2 = H1**");
    assert_int_equal(run("sheet build/tests/sheet-final-norm.txt --lang en"), 0);
    assert_file_contains(CLI_OUT, "**H1 = RMSNorm(X + O), \xce\xb5 = 0.000001**");
    assert_file_contains(CLI_OUT, "**Y = RMSNorm(H1), \xce\xb5 = 0.000001**");
    assert_int_equal(run("sheet build/tests/sheet-final-norm.txt --format latex --lang en"), 0);
    assert_file_contains(CLI_OUT, "\nY = \\operatorname{RMSNorm}(H1),\\ \\varepsilon = 0.000001 \\\\[3pt]\n");
}

/* The powers of e a head drill needs (--exp-table, SPEC §19): the logits over T less
 * their max, for the tokens the cut keeps. By hand on examples/head.txt: T = 0.5 gives
 * [4, 2, 0], x = -2 and -4, e^-2 = 0.1353 and e^-4 = 0.0183; T = 1 with top_k: 2 keeps
 * [2, 1], x = -1 alone (the cut token's -2 is not needed), e^-1 = 0.3679, "e^x" with
 * --ascii. */
static void test_a_head_drills_powers_of_e_are_those_of_the_kept_tokens(void **state)
{
    (void)state;
    assert_int_equal(system("sed 's/^temperature: 1$/temperature: 0.5/; /^top_p/d; /^sample/d' "
                            "examples/head.txt > build/tests/sheet-head-t.txt && "
                            "sed 's/^top_p: 0.9$/top_k: 2/; /^sample/d' examples/head.txt > "
                            "build/tests/sheet-head-k.txt"), 0);
    assert_int_equal(run("sheet build/tests/sheet-head-t.txt --step sample --exp-table --lang en"), 0);
    assert_file_contains(CLI_OUT, "\n| x | \xe2\x88\x92" "2 | \xe2\x88\x92" "4 |\n| -- | --: | --: |\n"
                                  "| e\xcb\xa3 | 0.1353 | 0.0183 |\n");
    assert_int_equal(run("sheet build/tests/sheet-head-k.txt --step sample --exp-table --ascii --lang en"), 0);
    assert_file_contains(CLI_OUT, "\n| x | -1 |\n| -- | --: |\n| e^x | 0.3679 |\n");
}

static void test_count_makes_that_many_variants(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("exercise --seed 2 --count 3 --lang en"), 0);
    out = slurp(CLI_OUT);
    assert_int_equal(count(out, "# attnstep exercise: level 2, seed "), 3);
    assert_int_equal(count(out, "tokens: "), 3);
    free(out);
    assert_int_equal(run("exercise --count 2 --class " ROSTER), 2);
    assert_int_equal(run("run examples/f11.txt --count 2"), 2);
}

/* ---- the roster ---- */

static void parse_roster(as_roster *r, const char *text, int ok, int line, int col)
{
    as_error err;

    as_error_clear(&err);
    assert_int_equal(as_roster_parse(r, text, strlen(text), "roster.txt", AS_LANG_EN, &err),
                     ok ? 0 : -1);
    if (!ok) {
        assert_int_equal(err.line, line);
        assert_int_equal(err.col, col);
        assert_string_equal(err.file, "roster.txt");
        assert_true(err.hint[0] != '\0');
    }
}

static void test_roster_takes_utf8_names_comments_and_blank_lines(void **state)
{
    as_roster r;

    (void)state;
    parse_roster(&r, "\xef\xbb\xbf# class 3\r\n\r\n  张三 \r\nLi Wei  # a comment\n\xe3\x80\x80王五\xe3\x80\x80\n",
                 1, 0, 0);
    assert_int_equal(r.count, 3);
    assert_string_equal(r.name[0], "张三");
    assert_string_equal(r.name[1], "Li Wei");
    assert_string_equal(r.name[2], "王五");
    as_roster_free(&r);
}

static void test_roster_errors_name_the_line_and_column(void **state)
{
    as_roster r;

    (void)state;
    parse_roster(&r, "张三\n李四\n  张三\n", 0, 3, 3);        /* a name twice */
    parse_roster(&r, "张三\nab\xff" "c\n", 0, 2, 3);          /* not UTF-8 */
    parse_roster(&r, "张三\nab\x01" "c\n", 0, 2, 3);          /* a control character */
    parse_roster(&r, "# only a comment\n\n", 0, 0, 0);       /* no name */
    parse_roster(&r, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 0, 1, 1);
}

/* A name ends before a tab, a no-break space (U+00A0) or a "#" right after it, and at
 * the end of a file with no line end; DEL is a control character like any other. */
static void test_roster_names_end_where_a_reader_sees_them_end(void **state)
{
    as_roster r;
    as_error err;

    (void)state;
    parse_roster(&r, "张三\t\nLi\xc2\xa0Lei\xc2\xa0\nAnn#no blank before the comment\n王五", 1, 0, 0);
    assert_int_equal(r.count, 4);
    assert_string_equal(r.name[0], "张三");
    assert_string_equal(r.name[1], "Li\xc2\xa0Lei");
    assert_string_equal(r.name[2], "Ann");
    assert_string_equal(r.name[3], "王五");
    as_roster_free(&r);
    as_error_clear(&err);
    assert_int_equal(as_roster_parse(&r, "张三\nab\x7f" "c\n", strlen("张三\nab\x7f" "c\n"), "roster.txt",
                                     AS_LANG_EN, &err),
                     -1);
    assert_string_equal(err.msg, "a control character in a name");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 3);
}

/* A roster file past its limit of 8 MiB (exercise.h) is refused before any line is
 * read, with the limits and the hint to split the class (test_files.c refuses the
 * 100001st name at its line). */
static void test_a_roster_past_8_mib_is_refused_before_any_line(void **state)
{
    const size_t big = ((size_t)8 << 20) + 1;
    char *text = malloc(big + 1);
    as_roster r;
    as_error err;

    (void)state;
    assert_non_null(text);
    memset(text, 'a', big);
    text[big] = '\0';
    as_error_clear(&err);
    assert_int_equal(as_roster_parse(&r, text, big, "roster.txt", AS_LANG_EN, &err), -1);
    assert_string_equal(err.msg, "the roster is too big: at most 100000 names and 8 MiB");
    assert_string_equal(err.hint, "split the class into several rosters and make each on its own");
    assert_int_equal(err.line, 0);
    free(text);
}

static void test_a_bad_roster_is_a_usage_error_with_its_place(void **state)
{
    (void)state;
    assert_int_equal(system("printf '张三\\n李四\\n张三\\n' > build/tests/twice.txt"), 0);
    assert_int_equal(run("exercise --class build/tests/twice.txt"), 2);
    assert_file_contains(CLI_ERR, "build/tests/twice.txt:3:1:");
    assert_file_contains(CLI_ERR, "第1行");
    assert_int_equal(run("exercise --class build/tests/no-such-roster.txt --lang en"), 2);
    assert_file_contains(CLI_ERR, "cannot read the roster");
}

/* ---- the seed ---- */

static void test_without_a_seed_one_is_drawn_and_named(void **state)
{
    char *first, *again, *line, cmd[128];
    unsigned long seed;

    (void)state;
    assert_int_equal(run("exercise --lang en"), 0);
    first = slurp(CLI_OUT);
    assert_file_contains(CLI_ERR, "no --seed given: drew seed ");
    line = strstr(first, "attnstep exercise --level 2 --seed ");
    assert_non_null(line);
    seed = strtoul(line + strlen("attnstep exercise --level 2 --seed "), NULL, 10);
    snprintf(cmd, sizeof cmd, "exercise --lang en --seed %lu", seed);
    assert_int_equal(run(cmd), 0);
    again = slurp(CLI_OUT);
    assert_string_equal(first, again); /* the printed command makes it again */
    free(again);
    assert_int_equal(run("exercise --lang en"), 0);
    again = slurp(CLI_OUT);
    assert_string_not_equal(first, again); /* a fresh seed: 1 in 10^9 to draw the same */
    free(again);
    free(first);
}

/* ---- the key's walk-through ---- */

/* The key of a one-step drill walks the last row through that step; a bias, a scale
 * that is not 1/√d_k and a custom mask each show in the sums. The numbers are worked by
 * hand in the input's comments. */
static void walk_has(const char *step, const char *const *want, size_t n)
{
    char cmd[256];

    snprintf(cmd, sizeof cmd, "sheet tests/data/sheet/walk.txt --lang en --format latex "
             "--answers --step %s", step);
    assert_int_equal(run(cmd), 0);
    free(output_with(want, n));
}

static void test_the_key_walks_the_last_row_with_its_bias_scale_and_mask(void **state)
{
    static const char *const project[] = {
        "q_{2,0} &= 1\\times 1 + 1\\times 0 + 1 = 2 \\\\", /* the bias bq₀ = 1 */
        "q_{2,1} &= 1\\times 0 + 1\\times 1 + 0 = 1 \\\\",
        "k_{2,0} &= 1\\times 1 + 1\\times 0 = 1 \\\\", "v_{2,1} &= 1\\times 0 + 1\\times 2 = 2\n"};
    static const char *const scores[] = {
        "q_{2}\\cdot k_{1} &= 2\\times 0 + 1\\times 1 = 1 \\\\", /* k₀ is masked: no sum */
        "q_{2}\\cdot k_{2} &= 2\\times 1 + 1\\times 1 = 3\n",
        ("s_{2} &= \\left[-\\infty,\\ 1\\cdot 0.5 + 1,\\ 3\\cdot 0.5\\right] = "
         "\\left[-\\infty,\\ 1.5,\\ 1.5\\right]")};
    static const char *const softmax[] = {
        "\\max_j s_{2,j} & = 1.5 \\\\", "s_{2} - \\max &= \\left[-\\infty,\\ 0,\\ 0\\right]",
        "\\textstyle\\sum_j e^{s_{2,j} - \\max} & = 2 \\\\",
        /* exact values are equal, not approximately equal */
        "e^{s_{2} - \\max} &= \\left[0,\\ 1,\\ 1\\right]",
        "a_{2} = e^{s_{2} - \\max} \\big/ \\textstyle\\sum &= \\left[0,\\ 0.5,\\ 0.5\\right]"};
    static const char *const mix[] = {
        "o_{2,0} &= 0.5\\times 0 + 0.5\\times 2 = 1 \\\\", /* the masked share adds nothing */
        "o_{2,1} &= 0.5\\times 2 + 0.5\\times 2 = 2\n"};

    (void)state;
    walk_has("project", project, sizeof project / sizeof project[0]);
    assert_file_lacks(CLI_OUT, "q_{1,0}"); /* only the last row */
    walk_has("scores", scores, sizeof scores / sizeof scores[0]);
    assert_file_lacks(CLI_OUT, "q_{2}\\cdot k_{0}");
    walk_has("softmax", softmax, sizeof softmax / sizeof softmax[0]);
    walk_has("mix", mix, sizeof mix / sizeof mix[0]);
    /* F11's row 1, 0 − 1/√2 ≈ −0.7071, is rounded: approximately equal */
    assert_int_equal(run("sheet examples/f11.txt --format latex --answers --step softmax"), 0);
    assert_file_contains(CLI_OUT, "s_{1} - \\max &\\approx \\left[0,\\ -0.7071\\right]");
}

/* A title and labels are text on the page: in LaTeX each special character is escaped,
 * and those that pdflatex's default font (OT1) does not have (\ < > | print as “ ¡ ¿ —)
 * are written as their text commands; the walk's heading escapes its label too (an
 * unescaped "_" stopped pdflatex with "Missing $ inserted"). */
static void test_titles_and_labels_are_text_in_latex_and_markdown(void **state)
{
    (void)state;
    assert_int_equal(run("sheet tests/data/cli/markup.txt --format latex --lang en --answers"), 0);
    assert_file_contains(CLI_OUT, "\nQ \\& A \\textless{}1\\textgreater{} \"quoted\" "
                                  "back\\textbackslash{}slash \\textbar{} *star*\n");
    assert_file_contains(CLI_OUT, "\\text{a\\textbar{}b} & 1 & 1 \\\\");
    assert_file_contains(CLI_OUT, "\\par\\textbf{Step by step: row 1 (``\\_c\\_'')}\n");
    assert_int_equal(run("sheet tests/data/cli/markup.txt --lang en --answers"), 0);
    assert_file_contains(CLI_OUT, "**Step by step: row 1 (“\\_c\\_”)**\n");
}

/* Several heads: each head's tables carry its number, C names O₀ as the heads' tables
 * do, and the output is C·Wo. The table of powers of e lists each shifted score once,
 * largest first: examples/two-heads.txt has −1/√2 (head 1, rows 1 and 2) and −2√2
 * (head 0, row 2), with e^−0.7071 = 0.4931 and e^−2.8284 = 0.0591 by hand. */
static void test_a_sheet_of_two_heads_names_each_heads_tables(void **state)
{
    static const char *const want[] = {"**S₁ = Q₁K₁ᵀ/√2 + M**", "**O₁ = A₁V₁**",
                                       "**C = [O₀|…]**", "**O = C·Wo**",
                                       ("| x | −0.7071 | −2.8284 |\n| -- | --: | --: |\n"
                                        "| eˣ | 0.4931 | 0.0591 |\n")};
    char *out;

    (void)state;
    assert_int_equal(run("sheet examples/two-heads.txt --exp-table --lang en"), 0);
    out = output_with(want, sizeof want / sizeof want[0]);
    free(out);
    assert_int_equal(run("sheet examples/two-heads.txt --exp-table --lang en --format latex"), 0);
    assert_file_contains(CLI_OUT, "C = [O_{0}\\,|\\,\\cdots] \\\\[3pt]");
    assert_file_contains(CLI_OUT, "O = CW_o \\\\[3pt]");
    assert_file_contains(CLI_OUT, "\\begin{array}{c|cc}\nx & -0.7071 & -2.8284 \\\\ \\hline\n"
                                  "e^{x} & 0.4931 & 0.0591\n\\end{array}\n");
    assert_int_equal(run("sheet examples/cross-translation.txt --lang en --format latex"), 0);
    assert_file_contains(CLI_OUT, "K = X_{kv}W_k \\\\[3pt]");
}

/* Nonzero when a and b are in the same display (\[ … \]) of text, a first. */
static int same_display(const char *text, const char *a, const char *b)
{
    const char *pa = strstr(text, a), *pb = pa ? strstr(pa, b) : NULL, *end;

    end = pa ? strstr(pa, "\\]") : NULL;
    return pb != NULL && end != NULL && pb < end;
}

/* A 3-token sheet keeps O on page 1 (issue 28; make check-latex looks at the PDF): the
 * last grid, O, which would stand on a line of its own, joins Q, K and V (the tables of
 * its shape) on the first line with room; the mask, whose −∞ is set as two characters,
 * stands beside X and the W tables. A 2-token sheet keeps the book's order. */
static void test_a_three_token_sheet_keeps_o_on_the_first_page(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(run("exercise --seed 5 --level 2 --tokens 3 --format latex"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_true(same_display(out, "Q = XW_q", "O = AV"));
    assert_true(same_display(out, "X = ", "M = "));
    assert_false(same_display(out, "QK^{\\top}", "O = AV"));
    free(out);
    assert_int_equal(run("exercise --seed 5 --level 2 --format latex"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_false(same_display(out, "Q = XW_q", "O = AV"));
    assert_true(same_display(out, "S = ", "O = AV"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f11_sheet_has_a_name_line_instructions_and_labelled_grids),
        cmocka_unit_test(test_f11_key_agrees_with_the_chapter_and_is_mathematics),
        cmocka_unit_test(test_exp_table_gives_the_chapter_exponent),
        cmocka_unit_test(test_digits_sets_the_places_asked_and_the_key),
        cmocka_unit_test(test_english_latex_is_ascii_with_amsmath_alone),
        cmocka_unit_test(test_chinese_latex_uses_ctex),
        cmocka_unit_test(test_each_drill_gives_the_tables_before_and_asks_its_own),
        cmocka_unit_test(test_a_drill_is_still_an_input_that_runs),
        cmocka_unit_test(test_class_document_has_a_sheet_per_student_then_every_key),
        cmocka_unit_test(test_class_variants_are_reproducible_from_their_seeds),
        cmocka_unit_test(test_class_into_a_directory_separates_sheets_from_the_teachers_files),
        cmocka_unit_test(test_a_students_sheet_names_no_seed_and_no_key),
        cmocka_unit_test(test_every_name_is_printed_and_file_names_are_safe),
        cmocka_unit_test(test_a_path_too_long_is_an_error_before_anything_is_written),
        cmocka_unit_test(test_a_class_quiz_into_a_directory_has_safe_names_and_one_quiz),
        cmocka_unit_test(test_class_file_names_are_numbered_for_the_size_of_the_class),
        cmocka_unit_test(test_block_formulas_follow_the_inputs_settings),
        cmocka_unit_test(test_a_head_drills_powers_of_e_are_those_of_the_kept_tokens),
        cmocka_unit_test(test_count_makes_that_many_variants),
        cmocka_unit_test(test_roster_takes_utf8_names_comments_and_blank_lines),
        cmocka_unit_test(test_roster_errors_name_the_line_and_column),
        cmocka_unit_test(test_roster_names_end_where_a_reader_sees_them_end),
        cmocka_unit_test(test_a_roster_past_8_mib_is_refused_before_any_line),
        cmocka_unit_test(test_a_bad_roster_is_a_usage_error_with_its_place),
        cmocka_unit_test(test_without_a_seed_one_is_drawn_and_named),
        cmocka_unit_test(test_the_key_walks_the_last_row_with_its_bias_scale_and_mask),
        cmocka_unit_test(test_titles_and_labels_are_text_in_latex_and_markdown),
        cmocka_unit_test(test_a_sheet_of_two_heads_names_each_heads_tables),
        cmocka_unit_test(test_a_three_token_sheet_keeps_o_on_the_first_page),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
