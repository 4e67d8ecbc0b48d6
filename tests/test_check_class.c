/* test_check_class.c - `check --class DIR ANSWERS...` (SPEC §6 "A whole class in one
 * command"): what `exercise --class ROSTER -o DIR` wrote is graded student by student,
 * each against their own variant, in one summary; answers are matched by name:, by
 * variant:, or by file name; a file that matches nobody, or a second file for one
 * student, is reported and the rest graded; a key copied from another variant is named
 * copied_variant and earns no carried credit. The keys come from `exercise --answers`
 * (what is tested here is which problem each file is graded against, not the numbers:
 * tests/test_class.c tests those against a forward pass of its own). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/test_check_class.out"
#define CLI_ERR "build/tests/test_check_class.err"
#include "cli_util.h"

#define DIR "build/tests/check-class"
#define ROSTER "tests/data/sheet/roster-hard.txt" /* 8 names, 䶮 𠮷 O'Neil among them */
#define STUDENTS 8

static char *key[STUDENTS]; /* each student's key, in roster order */

/* Writes text into DIR/answers/name, after a first line head (or none). */
static void put(const char *name, const char *head, const char *text)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof path, DIR "/answers/%s", name);
    f = fopen(path, "w");
    assert_non_null(f);
    if (head != NULL)
        fprintf(f, "%s\n", head);
    fputs(text, f);
    fclose(f);
}

/* The class and its keys: exercise --class -o DIR, and the keys at 4 places cut into
 * one text per student (each starts with its "# attnstep" comment). */
static int setup(void **state)
{
    char *all, *p;
    size_t k;

    (void)state;
    if (system("rm -rf " DIR " && mkdir -p " DIR) != 0 ||
        run("exercise --seed 31 --class " ROSTER " -o " DIR) != 0 ||
        run("exercise --seed 31 --class " ROSTER " --answers --digits 4") != 0 ||
        (all = slurp(CLI_OUT)) == NULL)
        return -1;
    for (p = all, k = 0; k < STUDENTS; k++) {
        char *next = strstr(p + 1, "\n# attnstep");
        if (next != NULL && k + 1 < STUDENTS)
            *next++ = '\0';
        key[k] = strdup(p);
        p = next;
        if (p == NULL && k + 1 < STUDENTS)
            return -1;
    }
    free(all);
    return system("mkdir -p " DIR "/answers");
}

static int teardown(void **state)
{
    size_t k;

    (void)state;
    for (k = 0; k < STUDENTS; k++)
        free(key[k]);
    return 0;
}

/* Every student's own key, matched by name:, variant:, roster number or name as the
 * file name: all right, one summary of 8, exit 0. The same keys graded against one
 * problem (plain check) are all but one wrong: the variants differ. */
static void test_each_student_is_graded_against_their_own_variant(void **state)
{
    char line[64];
    char *out;

    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    put("a.txt", "name: 张三", key[0]);
    put("02-高䶮.txt", NULL, key[1]);
    put("03.txt", NULL, key[2]);
    put("萧峯.txt", NULL, key[3]);
    put("e.txt", "name: 龚燊", key[4]);
    put("f.txt", "name: 𠮷田花", key[5]);
    put("g.txt", NULL, key[6]);
    assert_int_equal(system("sed -i '1i variant: '$(awk -F'\t' '$1==7{print $3}' " DIR
                            "/teacher/class.tsv) " DIR "/answers/g.txt"), 0);
    put("h.txt", "name: María José", key[7]);
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(strstr(out, "全班汇总（8名学生）"));
    assert_non_null(strstr(out, "学生：高䶮　得分：7/7"));
    assert_non_null(strstr(out, "学生：𠮷田花　得分：7/7"));
    assert_non_null(strstr(out, "学生：O'Neil　得分：7/7"));
    snprintf(line, sizeof line, "平均分：7/7");
    assert_non_null(strstr(out, line));
    free(out);
    assert_int_equal(run("check " DIR "/teacher/01-张三.txt " DIR "/answers"), 1);
    assert_file_contains(CLI_OUT, "学生：张三　得分：7/7");
    out = slurp(CLI_OUT);
    assert_non_null(strstr(out, "学生：02-高䶮　得分："));
    assert_null(strstr(out, "学生：02-高䶮　得分：7/7"));
    free(out);
}

/* A key of another variant: copied_variant, naming that variant, in every format; only
 * the tables right for the student's own problem count (no carried credit). */
static void test_a_key_of_another_variant_is_named_copied_variant(void **state)
{
    char *tsv, *id, *json;

    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    put("01.txt", NULL, key[0]);
    put("02.txt", "name: 高䶮", key[0]); /* 张三's key */
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 1);
    tsv = slurp(DIR "/teacher/class.tsv");
    assert_non_null(tsv);
    id = strstr(tsv, "\n1\t张三\t");
    assert_non_null(id);
    id += strlen("\n1\t张三\t");
    id[4] = '\0'; /* the 4-letter variant id */
    assert_file_contains(CLI_OUT, "诊断：copied_variant——这些表对本人的题不对，却与版本");
    assert_file_contains(CLI_OUT, "（张三）的正确答案一致");
    assert_file_contains(CLI_OUT, "错误带过来0");
    assert_file_contains(CLI_OUT, "  copied_variant：1人");
    assert_int_equal(run("check --class " DIR " " DIR "/answers --format json"), 1);
    json = slurp(CLI_OUT);
    assert_non_null(strstr(json, "\"copied_variant\": \""));
    assert_non_null(strstr(json, id));
    assert_non_null(strstr(json, "\"mistakes\": {\"copied_variant\": 1"));
    assert_null(strstr(json, "carried_error"));
    free(json);
    assert_int_equal(run("check --class " DIR " " DIR "/answers --format csv"), 1);
    assert_file_contains(CLI_OUT, ",copied_variant:");
    /* a bad --expect: told once, at the first problem, before any answer is read */
    assert_int_equal(run("check --class " DIR " " DIR "/answers --expect 'O Z' --lang en"), 2);
    assert_stdout_empty();
    json = slurp(CLI_ERR);
    assert_non_null(json);
    assert_string_equal(json, "attnstep: error: --expect: Z is no table an answer may give\n"
                              "  hint: --expect lists the tables asked, separated by blanks: "
                              "--expect 'Q K V QKT S A O'\n");
    free(json);
    free(tsv);
}

/* A whole printout of another student's problem copied, its X and W tables with it
 * (`run` on 张三's file handed in by 高䶮): not refused as "another problem" but graded
 * against 高䶮's own and named copied_variant; a file whose X is no variant's at all is
 * still refused, at its line, with the hint. */
static void test_a_copied_printout_with_its_given_tables_is_named_copied_variant(void **state)
{
    char *printout;

    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    assert_int_equal(run("run " DIR "/teacher/01-张三.txt"), 0);
    printout = slurp(CLI_OUT);
    assert_non_null(printout);
    assert_non_null(strstr(printout, "X = [["));
    put("01.txt", NULL, key[0]);
    put("02.txt", "name: 高䶮", printout);
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 1);
    assert_file_contains(CLI_OUT, "学生：高䶮　得分：");
    assert_file_contains(CLI_OUT, "诊断：copied_variant——这些表对本人的题不对，却与版本");
    assert_file_contains(CLI_OUT, "（张三）的正确答案一致");
    assert_file_contains(CLI_OUT, "  copied_variant：1人");
    free(printout);
    put("02.txt", "name: 高䶮", "X = [[9, 9], [9, 9]]\nQ = [[1, 1], [1, 1]]\n");
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 2);
    assert_file_contains(CLI_ERR, DIR "/answers/02.txt:2:1:");
    assert_file_contains(CLI_ERR, "这份答案属于另一道题");
}

/* A file that matches no student, and a second file for one student: each reported
 * with its file name and a hint, the rest graded, exit 2. A student who handed in
 * nothing is named in a note. */
static void test_unmatched_and_doubled_files_are_reported_and_the_rest_graded(void **state)
{
    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    put("01.txt", NULL, key[0]);
    put("01-again.txt", NULL, key[0]);
    put("nobody.txt", NULL, key[1]);
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 2);
    assert_file_contains(CLI_OUT, "学生：张三　得分：7/7");
    assert_file_contains(CLI_ERR, DIR "/answers/01.txt: 错误：这位学生已经有一份答案：" DIR
                                  "/answers/01-again.txt；这一份没有评分");
    assert_file_contains(CLI_ERR, "nobody.txt: 错误：这份答案对不上全班名单里的任何学生");
    assert_file_contains(CLI_ERR, "提示：在答案文件开头写上“name: 姓名”");
    assert_file_contains(CLI_ERR, "没有交答案：高䶮、林喆");
    /* a folder written with its slash names its files as the student sees them */
    assert_int_equal(run("check --class " DIR " " DIR "/answers/"), 2);
    assert_file_contains(CLI_ERR, DIR "/answers/nobody.txt: 错误：");
    assert_file_lacks(CLI_ERR, "//");
    assert_int_equal(run("check --class build/tests/no-such-class " DIR "/answers"), 2);
    assert_file_contains(CLI_ERR, "无法读取全班名单teacher/class.tsv");
}

/* How a file is matched when its name: or variant: line is empty (as if not there):
 * by its file name, the roster number with anything after a dash ("03-林喆-v2": 林喆,
 * number 3); a number with letters after it ("3x") is no student's, and is reported. A
 * class list whose last line has no line end is read whole. */
static void test_empty_name_and_variant_lines_match_by_the_file_name(void **state)
{
    char *tsv;
    size_t n;

    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    put("03-林喆-v2.txt", "name:\nvariant:", key[2]);
    put("3x.txt", "name: \nvariant:  ", key[3]);
    assert_int_equal(run("check --class " DIR " " DIR "/answers"), 2);
    assert_file_contains(CLI_OUT, "学生：林喆　得分：7/7");
    assert_file_lacks(CLI_OUT, "学生：萧峯");
    assert_file_contains(CLI_ERR, DIR "/answers/3x.txt: 错误：这份答案对不上全班名单里的任何学生");
    assert_int_equal(system("rm -rf " DIR "-nl && cp -r " DIR " " DIR "-nl"), 0);
    assert_non_null(tsv = slurp(DIR "/teacher/class.tsv"));
    n = strlen(tsv);
    assert_true(n > 0 && tsv[n - 1] == '\n');
    tsv[n - 1] = '\0';
    write_text(DIR "-nl/teacher/class.tsv", tsv);
    free(tsv);
    assert_int_equal(system("rm -f " DIR "-nl/answers/* && cp " DIR "/answers/03-林喆-v2.txt " DIR
                            "-nl/answers/08.txt"), 0);
    assert_int_equal(system("sed -i 's/^name:$/name: Mar\xc3\xad" "a Jos\xc3\xa9/' " DIR
                            "-nl/answers/08.txt"), 0);
    assert_int_equal(run("check --class " DIR "-nl " DIR "-nl/answers"), 1);
    assert_file_contains(CLI_OUT, "学生：María José　得分：");
    assert_file_lacks(CLI_OUT, "得分：7/7"); /* 林喆's key on the last student's variant */
    assert_int_equal(system("rm -rf " DIR "-nl"), 0);
}

/* The note of who handed in nothing holds as many names as its line does, then says how
 * many more (it stopped without a word). By hand: 40 students of 60-byte names, one
 * handed in; a name is listed while the list is under 2048 - 80 bytes long: 60 bytes,
 * then 63 with the "、", so 32 names (S02 .. S33, 2013 bytes), and 7 more. */
static void test_the_note_of_absent_students_says_how_many_it_leaves_out(void **state)
{
    char name[128], *tsv = malloc(8192), *e;
    size_t k, len;

    (void)state;
    assert_non_null(tsv);
    assert_int_equal(system("rm -rf " DIR "-many && mkdir -p " DIR "-many/teacher " DIR
                            "-many/answers && cp " DIR "/teacher/01-张三.txt " DIR "-many/teacher/"), 0);
    len = (size_t)sprintf(tsv, "number\tname\tvariant\tseed\tfile\n");
    for (k = 1; k <= 40; k++)
        len += (size_t)sprintf(tsv + len, "%zu\tS%02zu%s\tV%03zu\t1\t01-张三.txt\n", k, k,
                               "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", k);
    write_text(DIR "-many/teacher/class.tsv", tsv);
    write_text(DIR "-many/answers/01.txt", key[0]);
    assert_int_equal(run("check --class " DIR "-many " DIR "-many/answers"), 0);
    assert_non_null(e = slurp(CLI_ERR));
    assert_non_null(strstr(e, "attnstep: 没有交答案：S02xxx"));
    snprintf(name, sizeof name, "、S33%s……还有7人\n", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    assert_non_null(strstr(e, name));
    assert_null(strstr(e, "S34"));
    free(e);
    assert_int_equal(run("check --class " DIR "-many " DIR "-many/answers --lang en"), 0);
    assert_file_contains(CLI_ERR, "xxx ... and 7 more\n");
    assert_int_equal(system("rm -rf " DIR "-many"), 0);
    free(tsv);
}

/* --expect overrides what is asked: the same maximum for every student. */
static void test_expect_sets_the_maximum(void **state)
{
    (void)state;
    assert_int_equal(system("rm -f " DIR "/answers/*"), 0);
    put("01.txt", NULL, key[0]);
    assert_int_equal(run("check --class " DIR " " DIR "/answers --expect 'Q K V S'"), 0);
    assert_file_contains(CLI_OUT, "学生：张三　得分：4/4");
    assert_int_equal(run("check " DIR "/teacher/01-张三.txt " DIR "/answers/01.txt --expect 'S E'"), 2);
    assert_file_contains(CLI_ERR, "错误：--expect：E不是答案可以写的表\n"
                                  "  提示：--expect列出要答的表");
}

/* An ANSWERS directory without a *.txt file is refused with its name, and the program
 * ends there (the list of answers files was freed twice: fuzz_class's first finding). */
static void test_an_answers_folder_without_answers_is_refused(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf " DIR "/answers/* " DIR "/empty && mkdir " DIR "/empty"), 0);
    assert_int_equal(run("check --class " DIR " " DIR "/empty"), 2);
    assert_file_contains(CLI_ERR, "错误：目录" DIR "/empty里没有*.txt答案文件");
    assert_int_equal(run("check --lang en --class " DIR " " DIR "/teacher/01-张三.txt " DIR
                         "/empty"), 2);
    assert_file_contains(CLI_ERR, "error: the directory " DIR
                                  "/empty holds no *.txt answers file");
    assert_int_equal(rmdir(DIR "/empty"), 0);
}

/* A line of the class list (DIR/teacher/class.tsv) that is not 5 tab-separated fields,
 * whose number is not a positive whole number, or whose file names a folder: refused at
 * its line, before any answer is read: exit 2, nothing on stdout, in the language asked. */
static void test_a_bad_line_of_the_class_list_is_refused_at_its_line(void **state)
{
    static const char *const bad[] = {"3\t王五\tV62F\t812\n", "0\t王五\tV62F\t812\t03-王五.txt\n",
                                      "3\t王五\tV62F\t812\t../03-王五.txt\n",
                                      "3x\t王五\tV62F\t812\t03-王五.txt\n", /* no whole number */
                                      "3\t王五\tV62F\t812\t\n",             /* no file */
                                      "3\t王五\tV62F\t812\t03-王五.txt\tx\n"}; /* 6 fields */
    size_t k;

    (void)state;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *tsv;
        FILE *f;
        assert_int_equal(system("rm -rf " DIR "-bad && cp -r " DIR " " DIR "-bad"), 0);
        assert_non_null(tsv = slurp(DIR "/teacher/class.tsv"));
        *strchr(strchr(tsv, '\n') + 1, '\n') = '\0'; /* the header and student 1 */
        assert_non_null(f = fopen(DIR "-bad/teacher/class.tsv", "w"));
        fprintf(f, "%s\n%s", tsv, bad[k]);
        assert_int_equal(fclose(f), 0);
        free(tsv);
        assert_int_equal(run("check --class " DIR "-bad " DIR "-bad/answers --lang en"), 2);
        assert_stdout_empty();
        assert_file_contains(CLI_ERR, DIR "-bad/teacher/class.tsv:3:1: error: this line wants 5 "
                                      "fields separated by tabs: number, name, variant, seed, file");
    }
    assert_int_equal(run("check --class " DIR "-bad " DIR "-bad/answers"), 2);
    assert_file_contains(CLI_ERR, "class.tsv:3:1: 错误：这一行应当有5项，用制表符隔开：序号、姓名、版本、种子、文件");
    assert_int_equal(system("rm -rf " DIR "-bad"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_student_is_graded_against_their_own_variant),
        cmocka_unit_test(test_a_key_of_another_variant_is_named_copied_variant),
        cmocka_unit_test(test_a_copied_printout_with_its_given_tables_is_named_copied_variant),
        cmocka_unit_test(test_unmatched_and_doubled_files_are_reported_and_the_rest_graded),
        cmocka_unit_test(test_expect_sets_the_maximum),
        cmocka_unit_test(test_empty_name_and_variant_lines_match_by_the_file_name),
        cmocka_unit_test(test_the_note_of_absent_students_says_how_many_it_leaves_out),
        cmocka_unit_test(test_an_answers_folder_without_answers_is_refused),
        cmocka_unit_test(test_a_bad_line_of_the_class_list_is_refused_at_its_line),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
