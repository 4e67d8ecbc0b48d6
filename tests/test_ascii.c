/* test_ascii.c - `--ascii` prints plain ASCII: every byte of the text output of every
 * bundled example (run, run --heatmap, run --format md, trace --row all, and check,
 * compare and exercise where they apply) is below 0x80 in English once the tokens and
 * the title are ASCII; in Chinese the only other characters are the Chinese words and
 * their full-width punctuation (no −∞, ×, ·, √, ᵀ, ≈, subscripts, curly quotes or dashes).
 * Every input in examples/ is copied with ASCII labels (w1 w2 ...) by awk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/ascii.out"
#define CLI_ERR "build/tests/ascii.err"
#include "cli_util.h"

#define COPY "build/tests/ascii-input.txt"

/* Copies path to COPY with the title and every token label replaced by w1 w2 ... */
static void ascii_copy(const char *path)
{
    char cmd[1024];

    snprintf(cmd, sizeof cmd,
             "awk '/^(title|tokens|kv_tokens):/ { n = split(substr($0, index($0, \":\") + 1), w, "
             "\" \"); s = $1; for (i = 1; i <= n; i++) s = s \" w\" i; print s; next } "
             "{ print }' %s > " COPY,
             path);
    assert_int_equal(system(cmd), 0);
}

/* The code point of the UTF-8 sequence at s (its length in *n), or -1 when malformed. */
static long decode(const unsigned char *s, size_t *n)
{
    long c;
    size_t k;

    *n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
    if (*n == 1)
        return s[0] < 0x80 ? s[0] : -1;
    c = s[0] & (0x3F >> (*n - 1));
    for (k = 1; k < *n; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return -1;
        c = c << 6 | (s[k] & 0x3F);
    }
    return c;
}

/* Chinese text: CJK ideographs, CJK and full-width punctuation. */
static int is_chinese(long c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3000 && c <= 0x303F) ||
           (c >= 0xFF00 && c <= 0xFFEF);
}

/* Every character of the last output is ASCII (or, when chinese, Chinese text). */
static void assert_plain(const char *what, int chinese)
{
    char *got = slurp(CLI_OUT);
    const unsigned char *s = (const unsigned char *)got;
    size_t line = 1, n;

    assert_non_null(got);
    assert_true(got[0] != '\0');
    for (; *s != '\0'; s += n) {
        const long c = decode(s, &n);
        if (c == '\n')
            line++;
        if (c >= 0 && (c < 0x80 || (chinese && is_chinese(c))))
            continue;
        print_error("%s: line %zu holds U+%04lX, which --ascii must not print\n", what, line, c);
        fail();
    }
    free(got);
}

/* Runs `attnstep ARGS --ascii --lang LANG` and checks what it printed. */
static void check_plain(const char *args, int expect_status, const char *lang)
{
    char cmd[1024];

    snprintf(cmd, sizeof cmd, "%s --ascii --lang %s", args, lang);
    assert_int_equal(run(cmd), expect_status);
    assert_plain(cmd, strcmp(lang, "zh") == 0);
}

static void every_output_of(const char *lang)
{
    static const char *const cmds[] = {"run", "run --heatmap", "run --format md",
                                       "trace --row all"};
    FILE *ls = popen("ls examples/*.txt", "r"); /* every example: the inputs among them */
    char args[512], path[512];
    size_t k, n = 0;

    assert_non_null(ls);
    while (fgets(path, sizeof path, ls) != NULL) {
        path[strcspn(path, "\n")] = '\0';
        if (strstr(path, "answers") != NULL)
            continue; /* an ANSWERS file, not an input */
        ascii_copy(path);
        for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
            snprintf(args, sizeof args, "%s " COPY, cmds[k]);
            check_plain(args, 0, lang);
        }
        n++;
    }
    assert_int_equal(pclose(ls), 0);
    assert_true(n >= 9); /* the examples were there */
    ascii_copy("examples/f11.txt");
    check_plain("check " COPY " examples/f11-answers.txt", 0, lang);
    check_plain("check " COPY " tests/data/paste/wrong-s-answers.txt", 1, lang);
    check_plain("compare " COPY " examples/f11-change-wq.txt", 0, lang);
    check_plain("compare " COPY " examples/f11-change-wv.txt", 0, lang);
    check_plain("exercise --seed 7", 0, lang);
    check_plain("exercise --seed 7 --answers --format md", 0, lang);
}

static void test_ascii_english_output_is_every_byte_ascii(void **state)
{
    (void)state;
    every_output_of("en");
}

static void test_ascii_chinese_output_holds_only_ascii_and_chinese_text(void **state)
{
    (void)state;
    every_output_of("zh");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_english_output_is_every_byte_ascii),
        cmocka_unit_test(test_ascii_chinese_output_holds_only_ascii_and_chinese_text),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
