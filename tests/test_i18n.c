/* test_i18n.c - the message table (issue 12): every message exists in Chinese and in
 * English with the same printf conversions in the same order (a call site passes one
 * list of arguments to both); the error record writes in the language it was given and
 * prints `错误：`/`提示：` in Chinese; "did you mean" finds the word a slip of the finger
 * changed; lists, plurals and the reasons a file cannot be read, in both languages; and
 * no error site in src/ spells a word of its own (the table is the only home of words). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attnstep/error.h"
#include "attnstep/i18n.h"
#include "attnstep/suggest.h"

/* ---- the table ---- */

/* The conversions of a printf format, "%zu %s" -> "zu s", into out; "%%" is no
 * conversion. Flags, width and precision are kept: they must agree too. */
static void conversions(const char *fmt, char *out, size_t size)
{
    size_t used = 0;

    out[0] = '\0';
    for (; *fmt != '\0'; fmt++) {
        size_t n;
        if (*fmt != '%')
            continue;
        if (fmt[1] == '%') {
            fmt++;
            continue;
        }
        n = strspn(fmt + 1, "-+ #0123456789.*hljztL") + 1; /* up to the conversion letter */
        if (used + n + 2 < size) {
            memcpy(out + used, fmt + 1, n);
            used += n;
            out[used++] = ' ';
            out[used] = '\0';
        }
        fmt += n;
    }
}

static void test_every_message_exists_in_both_languages(void **state)
{
    int m, missing = 0;

    (void)state;
    for (m = 0; m < AS_MSG_COUNT; m++) {
        const char *zh = as_msg_text(AS_LANG_ZH, (as_msg)m);
        const char *en = as_msg_text(AS_LANG_EN, (as_msg)m);
        if (!as_msg_defined(AS_LANG_ZH, (as_msg)m) || !as_msg_defined(AS_LANG_EN, (as_msg)m) ||
            zh[0] == '\0' || en[0] == '\0') {
            print_error("message %d has no %s text\n", m,
                        !as_msg_defined(AS_LANG_ZH, (as_msg)m) || zh[0] == '\0' ? "Chinese"
                                                                                 : "English");
            missing++;
        }
    }
    assert_int_equal(missing, 0);
}

static void test_both_languages_take_the_same_conversions_in_the_same_order(void **state)
{
    char a[128], b[128];
    int m, differ = 0;

    (void)state;
    for (m = 0; m < AS_MSG_COUNT; m++) {
        const char *zh = as_msg_text(AS_LANG_ZH, (as_msg)m);
        const char *en = as_msg_text(AS_LANG_EN, (as_msg)m);
        if (zh == NULL || en == NULL)
            continue; /* reported above */
        conversions(zh, a, sizeof a);
        conversions(en, b, sizeof b);
        if (strcmp(a, b) != 0) {
            print_error("message %d: Chinese takes \"%s\", English \"%s\"\n  %s\n  %s\n", m, a, b,
                        zh, en);
            differ++;
        }
    }
    assert_int_equal(differ, 0);
}

/* The conversion reader itself, on formats whose conversions are known by hand. */
static void test_conversions_are_read_as_printf_reads_them(void **state)
{
    char out[64];

    (void)state;
    conversions("第%zu行有%zu个数，100%%", out, sizeof out);
    assert_string_equal(out, "zu zu ");
    conversions("%s[%zu][%zu] (%02x) %ld %lu %u %d", out, sizeof out);
    assert_string_equal(out, "s zu zu 02x ld lu u d ");
}

/* Chinese messages use Chinese punctuation: no ASCII "? " or "; " between words. The
 * ASCII colon and comma appear in examples of the input format (`mask: causal`, `[1, 2]`)
 * and are allowed. */
static void test_chinese_messages_use_chinese_punctuation(void **state)
{
    int m, bad = 0;

    (void)state;
    for (m = AS_MSG_ERR_ERROR; m < AS_MSG_COUNT; m++) {
        const char *zh = as_msg_text(AS_LANG_ZH, (as_msg)m);
        if (m != AS_MSG_HELP && m != AS_MSG_HELP_INPUT &&
            (strstr(zh, "; ") != NULL || strstr(zh, "? ") != NULL || strchr(zh, '"') != NULL)) {
            print_error("message %d is not punctuated in Chinese: %s\n", m, zh);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- the error record ---- */

static void test_an_error_speaks_the_language_it_was_given(void **state)
{
    char buf[1024];
    FILE *f;
    as_error e;

    (void)state;
    as_error_init(&e, AS_LANG_ZH);
    as_error_msg(&e, "in.txt", 3, 7, AS_MSG_USE_EXTRA, "x");
    as_error_hint_msg(&e, AS_MSG_DID_YOU_MEAN, "Wk");
    f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    as_error_print(&e, f);
    fclose(f);
    assert_string_equal(buf, "attnstep: in.txt:3:7: 错误：多出了参数“x”\n"
                             "  提示：是不是想写“Wk”？\n");

    as_error_init(&e, AS_LANG_EN);
    as_error_msg(&e, "", 0, 0, AS_MSG_USE_EXTRA, "x");
    as_error_hint_msg(&e, AS_MSG_DID_YOU_MEAN, "Wk");
    f = fmemopen(buf, sizeof buf, "w");
    as_error_print(&e, f);
    fclose(f);
    assert_string_equal(buf, "attnstep: error: unexpected argument \"x\"\n"
                             "  hint: did you mean \"Wk\"?\n");
}

static void test_the_first_error_wins(void **state)
{
    as_error e;

    (void)state;
    as_error_init(&e, AS_LANG_EN);
    as_error_msg(&e, "a", 1, 1, AS_MSG_OOM);
    as_error_msg(&e, "b", 2, 2, AS_MSG_FILE_EXISTS);
    assert_string_equal(e.file, "a");
    assert_string_equal(e.msg, "out of memory");
}

/* English counts say "1 row", "2 rows" with one format; Chinese needs no such care. */
static void test_english_counts_of_one_are_singular(void **state)
{
    char s[128];

    (void)state;
    snprintf(s, sizeof s, "X has 1 rows and 11 rows, 1 columns, 21 numbers, 1 labels");
    as_msg_singular(s);
    assert_string_equal(s, "X has 1 row and 11 rows, 1 column, 21 numbers, 1 label");
    snprintf(s, sizeof s, "the W-1 positions, d+1 rows, 0.1 tokens, 2^1 cells, (1 heads");
    as_msg_singular(s); /* the 1 of an expression counts nothing: it once read "the W-1 position" */
    assert_string_equal(s, "the W-1 positions, d+1 rows, 0.1 tokens, 2^1 cells, (1 head");
    snprintf(s, sizeof s, "K1 rows, k1 files, a_1 tables, n/1 heads, {1 labels, 1 rowsy");
    as_msg_singular(s);
    assert_string_equal(s, "K1 rows, k1 files, a_1 tables, n/1 heads, {1 label, 1 rowsy");
}

static void test_an_english_error_counting_one_is_singular(void **state)
{
    as_error e;

    (void)state;
    as_error_init(&e, AS_LANG_EN);
    as_error_msg(&e, "", 0, 0, AS_MSG_USE_ROW_RANGE, 5L, "f.txt", (size_t)1, (size_t)0);
    assert_string_equal(e.msg, "--row 5 is out of range: f.txt has 1 row (0 to 0)");
}

static void test_lists_join_with_the_words_of_the_language(void **state)
{
    static const char *const three[] = {"text", "md", "latex"};
    char s[64];

    (void)state;
    as_msg_list(s, sizeof s, AS_LANG_EN, three, 3, AS_MSG_LIST_OR);
    assert_string_equal(s, "text, md or latex");
    as_msg_list(s, sizeof s, AS_LANG_ZH, three, 3, AS_MSG_LIST_OR);
    assert_string_equal(s, "text、md或latex");
    as_msg_list(s, sizeof s, AS_LANG_ZH, three, 1, AS_MSG_LIST_OR);
    assert_string_equal(s, "text");
}

static void test_why_a_file_cannot_be_read_is_said_in_both_languages(void **state)
{
    char s[128];

    (void)state;
    assert_string_equal(as_msg_errno(s, sizeof s, AS_LANG_ZH, ENOENT), "没有这个文件");
    assert_string_equal(as_msg_errno(s, sizeof s, AS_LANG_EN, ENOENT), "no such file");
    assert_string_equal(as_msg_errno(s, sizeof s, AS_LANG_ZH, EISDIR), "这是一个目录，不是文件");
    as_msg_errno(s, sizeof s, AS_LANG_ZH, EXDEV); /* no words of ours: the system's */
    assert_non_null(strstr(s, "系统报告："));
}

/* ---- did you mean ---- */

static void test_edit_distance_counts_a_swap_as_one_step(void **state)
{
    (void)state;
    assert_int_equal(as_edit_distance("casual", 6, "causal", 6), 1);
    assert_int_equal(as_edit_distance("Wkk", 3, "Wk", 2), 1);
    assert_int_equal(as_edit_distance("token", 5, "tokens", 6), 1);
    assert_int_equal(as_edit_distance("kitten", 6, "sitting", 7), 3);
    assert_int_equal(as_edit_distance("", 0, "abc", 3), 3);
    assert_int_equal(as_edit_distance("WQ", 2, "Wq", 2), 0); /* case does not count */
}

static void test_suggest_finds_the_word_that_was_meant(void **state)
{
    static const char *const names[] = {"X", "Xkv", "Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv",
                                        "bo", "M"};
    static const char *const settings[] = {"title", "tokens", "kv_tokens", "mask", "heads",
                                           "layout", "scale"};
    static const char *const masks[] = {"causal", "none", "window"};

    (void)state;
    assert_string_equal(as_suggest("Wkk", 3, names, 11), "Wk");
    assert_string_equal(as_suggest("token", 5, settings, 7), "tokens");
    assert_string_equal(as_suggest("casual", 6, masks, 3), "causal");
    assert_string_equal(as_suggest("haeds", 5, settings, 7), "heads");
    assert_string_equal(as_suggest("Xvk", 3, names, 11), "Xkv");
    /* one letter changed: Wq, Wk, Wv and Wo are each one edit away, but g looks like q,
     * and j sits next to k, b next to v on the keyboard */
    assert_string_equal(as_suggest("Wg", 2, names, 11), "Wq");
    assert_string_equal(as_suggest("Wj", 2, names, 11), "Wk");
    assert_string_equal(as_suggest("Wb", 2, names, 11), "Wv");
    assert_string_equal(as_suggest("maks", 4, settings, 7), "mask");
    assert_null(as_suggest("Wx", 2, names, 11));        /* Wq, Wk, Wv, Wo, X: no one answer */
    assert_null(as_suggest("banana", 6, settings, 7)); /* nothing near */
    assert_null(as_suggest("Z", 1, names, 11));         /* one letter is no slip of X */
}

/* ---- the table is the only home of words ---- */

/* Nonzero when a string literal in the call that starts at p (as_error_set( or
 * as_error_hint(, as_reader_fail_at( or as_reader_fail_pos() is anything but "" or "%s":
 * a word spelt at the error site. */
static int spells_a_word(const char *p)
{
    int depth = 0;

    for (; *p != '\0'; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            return 0;
        else if (*p == '"') {
            const char *end = strchr(p + 1, '"');
            if (end == NULL)
                return 0;
            if (!(end == p + 1 || (end - p == 3 && strncmp(p, "\"%s\"", 4) == 0)))
                return 1;
            p = end;
        }
    }
    return 0;
}

static int file_spells_words(const char *path)
{
    static const char *const calls[] = {"as_error_set(", "as_error_hint(", "as_reader_fail_at(",
                                        "as_reader_fail_pos("};
    FILE *f = fopen(path, "rb");
    char line[4096], call[8192];
    int lineno = 0, bad = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL) {
        size_t i;
        lineno++;
        for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
            const char *at = strstr(line, calls[i]);
            long mark = ftell(f);
            size_t used;
            if (at == NULL || strstr(line, "void as_error") != NULL)
                continue;
            used = (size_t)snprintf(call, sizeof call, "%s", at);
            while (strchr(call, ';') == NULL && used + sizeof line < sizeof call &&
                   fgets(call + used, (int)(sizeof call - used), f) != NULL)
                used = strlen(call);
            fseek(f, mark, SEEK_SET);
            if (spells_a_word(call + strlen(calls[i]) - 1)) {
                print_error("%s:%d: a word spelt at an error site: put it in the message "
                            "table (include/attnstep/i18n.h, src/base/i18n.c) and use "
                            "as_error_msg()/as_error_hint_msg()\n  %s", path, lineno, line);
                bad++;
            }
        }
    }
    fclose(f);
    return bad;
}

/* The .c files of one folder of src/ (one layer), their words counted. */
static int folder_spells_words(const char *folder)
{
    DIR *dir = opendir(folder);
    struct dirent *e;
    char path[1024];
    int bad = 0;

    assert_non_null(dir);
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0 || strcmp(e->d_name, "error.c") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        bad += file_spells_words(path);
    }
    closedir(dir);
    return bad;
}

static void test_no_error_site_spells_a_word_of_its_own(void **state)
{
    DIR *dir = opendir("src");
    struct dirent *e;
    char path[300];
    int bad = 0, folders = 0;

    (void)state;
    assert_non_null(dir);
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "src/%s", e->d_name);
        bad += folder_spells_words(path);
        folders++;
    }
    closedir(dir);
    assert_true(folders >= 8); /* the layers' folders, base … cli */
    assert_int_equal(bad, 0);
}

/* --lang and ATTNSTEP_LANG take zh or en, also as the start of a locale name as LANG
 * spells it (POSIX: language_territory.codeset, "en_US.UTF-8") or a BCP 47 tag
 * ("zh-CN"); anything else is refused, not guessed. */
static void test_a_language_is_zh_or_en_or_a_locale_name_starting_so(void **state)
{
    static const char *const zh[] = {"zh", "zh_CN", "zh_CN.UTF-8", "zh-TW"};
    static const char *const en[] = {"en", "en_US", "en_GB.UTF-8", "en-AU"};
    static const char *const neither[] = {"", "z", "e", "zhx", "english", "fr", "EN", "de_DE"};
    as_lang lang;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof zh / sizeof zh[0]; i++) {
        lang = AS_LANG_EN;
        assert_int_equal(as_lang_parse(zh[i], &lang), 0);
        assert_int_equal(lang, AS_LANG_ZH);
    }
    for (i = 0; i < sizeof en / sizeof en[0]; i++) {
        lang = AS_LANG_ZH;
        assert_int_equal(as_lang_parse(en[i], &lang), 0);
        assert_int_equal(lang, AS_LANG_EN);
    }
    for (i = 0; i < sizeof neither / sizeof neither[0]; i++) {
        lang = AS_LANG_ZH;
        assert_int_equal(as_lang_parse(neither[i], &lang), -1);
        assert_int_equal(lang, AS_LANG_ZH); /* untouched */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_message_exists_in_both_languages),
        cmocka_unit_test(test_both_languages_take_the_same_conversions_in_the_same_order),
        cmocka_unit_test(test_conversions_are_read_as_printf_reads_them),
        cmocka_unit_test(test_chinese_messages_use_chinese_punctuation),
        cmocka_unit_test(test_an_error_speaks_the_language_it_was_given),
        cmocka_unit_test(test_the_first_error_wins),
        cmocka_unit_test(test_english_counts_of_one_are_singular),
        cmocka_unit_test(test_an_english_error_counting_one_is_singular),
        cmocka_unit_test(test_lists_join_with_the_words_of_the_language),
        cmocka_unit_test(test_why_a_file_cannot_be_read_is_said_in_both_languages),
        cmocka_unit_test(test_edit_distance_counts_a_swap_as_one_step),
        cmocka_unit_test(test_suggest_finds_the_word_that_was_meant),
        cmocka_unit_test(test_no_error_site_spells_a_word_of_its_own),
        cmocka_unit_test(test_a_language_is_zh_or_en_or_a_locale_name_starting_so),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
