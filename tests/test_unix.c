/* test_unix.c - attnstep as a well-mannered Unix tool (issue 7): --help and --version,
 * the man page (its examples run, groff finds nothing to warn about), make install and
 * uninstall, colour only where it belongs, -o that never clobbers, and the document
 * formats (csv parsed here as numbers, md, latex, svg checked for well-formed XML).
 * The numbers expected are the chapter's printed ones (F11: A row 1 = 0.6697615493,
 * 0.3302384507; O row 1 = 6.6976154933, 6.6047690135). Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/unix.out"
#define CLI_ERR "build/tests/unix.err"
#include "cli_util.h"
#include "test_util.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define F11 "examples/f11.txt"

/* ---- helpers ---- */

/* rel made absolute (from the current folder) in buf of PATH_MAX bytes. */
static void abs_path(char *buf, const char *rel)
{
    char cwd[PATH_MAX / 2];

    if (rel[0] == '/') {
        snprintf(buf, PATH_MAX, "%s", rel);
        return;
    }
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(buf, PATH_MAX, "%s/%s", cwd, rel);
}

/* A fresh folder under build/tests (absolute path in dir); removed by rm_dir(). */
static void make_dir(char *dir)
{
    char tmpl[] = "build/tests/unix-XXXXXX", *made = mkdtemp(tmpl);

    assert_non_null(made);
    abs_path(dir, made);
}

static void rm_dir(const char *dir)
{
    char cmd[PATH_MAX + 16];

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The binary's absolute path, for commands run in another folder. */
static void bin_path(char *buf)
{
    const char *bin = getenv("ATTNSTEP_BIN");

    abs_path(buf, bin ? bin : "build/attnstep");
}

static int have(const char *tool)
{
    return sh("command -v %s >/dev/null 2>&1", tool) == 0;
}

static int file_exists(const char *dir, const char *rel)
{
    char path[PATH_MAX * 2];

    snprintf(path, sizeof path, "%s%s", dir, rel);
    return access(path, F_OK) == 0;
}

static void assert_no_escape_codes(const char *path)
{
    assert_file_lacks(path, "\x1b");
}

/* ---- --help and --version ---- */

static void test_help_lists_commands_options_input_and_examples_on_stdout(void **state)
{
    static const char *const want[] = {
        "Usage: attnstep", "run", "trace", "check", "exercise", "compare", "--lang",
        "--format", "--digits", "--mask", "--only", "--ascii", "--color", "--heatmap",
        "--row", "-o, --output", "--force", "--tol", "--seed", "--tokens", "--width", "--dk",
        "--dv", "--level", "--answers", "--help", "--version", "Input format", "Examples:",
        "man attnstep"};
    size_t i;

    (void)state;
    assert_int_equal(run("--help --lang en"), 0);
    for (i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_file_contains(CLI_OUT, want[i]);
    assert_int_equal(sh("test ! -s " CLI_ERR), 0);
    assert_int_equal(run("-h --lang en"), 0);
    assert_file_contains(CLI_OUT, "Usage: attnstep");
    /* the Chinese help (the default) names every option too */
    assert_int_equal(run("--help"), 0);
    for (i = 1; i < sizeof want / sizeof want[0] - 3; i++)
        assert_file_contains(CLI_OUT, want[i]);
    assert_file_contains(CLI_OUT, "用法：attnstep");
    assert_file_contains(CLI_OUT, "输入格式");
    assert_file_contains(CLI_OUT, "示例：");
    assert_file_contains(CLI_OUT, "man attnstep");
}

static void test_version_names_the_program_and_version_on_the_first_line(void **state)
{
    char *out;
    unsigned a, b, c;
    char tail;

    (void)state;
    assert_int_equal(run("--version"), 0);
    out = slurp(CLI_OUT);
    assert_non_null(out);
    assert_int_equal(sscanf(out, "attnstep %u.%u.%u%c", &a, &b, &c, &tail), 4);
    assert_int_equal(tail, '\n');
    free(out);
}

static void test_unknown_option_is_a_usage_error_that_points_to_help(void **state)
{
    (void)state;
    assert_int_equal(run("--frobnicate " F11), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "attnstep --help");
}

/* ---- the man page ---- */

static void test_man_page_has_every_section(void **state)
{
    static const char *const section[] = {
        ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH OPTIONS",
        ".SH INPUT FORMAT", ".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH FILES",
        ".SH EXAMPLES", ".SH SEE ALSO"};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof section / sizeof section[0]; i++)
        assert_file_contains("doc/attnstep.1", section[i]);
}

static void test_groff_renders_the_man_page_without_a_warning(void **state)
{
    (void)state;
    if (!have("groff"))
        skip();
    assert_int_equal(sh("groff -man -ww -z doc/attnstep.1 >" CLI_ERR " 2>&1"), 0);
    assert_int_equal(sh("test ! -s " CLI_ERR), 0); /* not a word printed */
    assert_int_equal(sh("preconv doc/attnstep.1 | groff -man -ww -z -Tutf8 >" CLI_ERR " 2>&1"), 0);
    assert_int_equal(sh("test ! -s " CLI_ERR), 0);
}

/* The Chinese page, as man shows it on a terminal (-Tutf8: the PostScript device has no
 * Chinese glyphs): no line that cannot break, nothing else to warn about. */
static void test_groff_renders_the_chinese_man_page_without_a_warning(void **state)
{
    (void)state;
    if (!have("groff") || !have("preconv"))
        skip();
    assert_int_equal(sh("preconv doc/attnstep.zh_CN.1 | groff -man -ww -z -Tutf8 >" CLI_ERR
                        " 2>&1"), 0);
    assert_int_equal(sh("test ! -s " CLI_ERR), 0);
    assert_file_contains("doc/attnstep.zh_CN.1", ".SH 名称");
    assert_file_contains("doc/attnstep.zh_CN.1", ".SH 错误和提示");
}

/* Copies the man page's example line (after "attnstep") with roff's \- as -. */
static void unroff(char *dst, size_t size, const char *src)
{
    size_t n = 0;

    for (; *src && *src != '\n' && n + 1 < size; src++) {
        if (src[0] == '\\' && src[1] == '-')
            src++;
        dst[n++] = *src;
    }
    dst[n] = '\0';
}

/* Runs every line of the EXAMPLES section that starts with "attnstep", in order, in
 * a folder holding a copy of the chapter's example; returns how many ran. */
static int run_man_examples(const char *page, const char *dir, const char *bin)
{
    const char *p = strstr(page, "\n.SH EXAMPLES"), *end;
    char args[1024];
    int count = 0;

    assert_non_null(p);
    end = strstr(p + 1, "\n.SH ");
    for (p = strchr(p + 1, '\n'); p != NULL && (end == NULL || p < end); p = strchr(p + 1, '\n')) {
        if (strncmp(p + 1, "attnstep ", 9) != 0)
            continue;
        unroff(args, sizeof args, p + 10);
        if (sh("cd '%s' && '%s' %s >/dev/null 2>example.err", dir, bin, args) != 0) {
            sh("cat '%s/example.err' >&2", dir);
            print_error("the man page's example failed: attnstep %s\n", args);
            fail();
        }
        count++;
    }
    return count;
}

static void test_man_page_examples_run(void **state)
{
    char dir[PATH_MAX], bin[PATH_MAX];
    char *page = slurp("doc/attnstep.1");

    (void)state;
    assert_non_null(page);
    make_dir(dir);
    bin_path(bin);
    assert_int_equal(sh("cp " F11 " '%s/f11.txt'", dir), 0);
    assert_true(run_man_examples(page, dir, bin) >= 5);
    assert_true(file_exists(dir, "/f11.svg") && file_exists(dir, "/a.csv"));
    rm_dir(dir);
    free(page);
}

/* ---- make install / uninstall ---- */

static const char *const installed[] = {
    "/usr/bin/attnstep", "/usr/share/man/man1/attnstep.1",
    "/usr/share/man/zh_CN/man1/attnstep.1",
    "/usr/share/bash-completion/completions/attnstep", "/usr/share/attnstep/examples/f11.txt"};

/* The build folder of the binary under test (build, or build/cov under `make coverage`):
 * make install is pointed there, so it installs that binary and builds nothing; the
 * default folder would be rebuilt with the flags of the make that runs the tests
 * (--coverage, -fsanitize), which the environment hands on to a make of its own. */
static void build_dir(char *buf, size_t size)
{
    const char *bin = getenv("ATTNSTEP_BIN"), *slash;

    bin = bin ? bin : "build/attnstep";
    slash = strrchr(bin, '/');
    snprintf(buf, size, "%.*s", slash ? (int)(slash - bin) : 1, slash ? bin : ".");
}

static void test_install_and_uninstall_honour_destdir_and_prefix(void **state)
{
    char dir[PATH_MAX], build[PATH_MAX];
    size_t i;

    (void)state;
    make_dir(dir);
    build_dir(build, sizeof build);
    /* a make of its own: not the jobserver of the make that runs the tests */
    assert_int_equal(sh("env -u MAKEFLAGS -u MFLAGS make -s install BUILD='%s' DESTDIR='%s' "
                        "PREFIX=/usr >" CLI_OUT " 2>&1", build, dir), 0);
    for (i = 0; i < sizeof installed / sizeof installed[0]; i++)
        if (!file_exists(dir, installed[i])) {
            print_error("make install did not install %s\n", installed[i]);
            fail();
        }
    assert_int_equal(sh("test -x '%s/usr/bin/attnstep'", dir), 0);
    assert_int_equal(sh("env -u MAKEFLAGS -u MFLAGS make -s uninstall BUILD='%s' DESTDIR='%s' "
                        "PREFIX=/usr >" CLI_OUT " 2>&1", build, dir), 0);
    for (i = 0; i < sizeof installed / sizeof installed[0]; i++)
        assert_false(file_exists(dir, installed[i]));
    assert_int_equal(sh("test -z \"$(find '%s' -type f)\"", dir), 0); /* nothing left */
    rm_dir(dir);
}

/* The commands are asked of the program being completed (its --help, made from the one
 * command table), so the first word is the binary under test. */
static void test_bash_completion_offers_commands_and_option_values(void **state)
{
    char bin[PATH_MAX];

    (void)state;
    if (!have("bash"))
        skip();
    bin_path(bin);
    assert_int_equal(
        sh("bash -c '. doc/attnstep.bash; "
           "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _attnstep; "
           "echo \"${COMPREPLY[*]}\"; }; "
           "t \"$1\" tr; t \"$1\" c; t attnstep --format \"\"; t attnstep run --lang \"\"; "
           "t attnstep --mask \"\"; t attnstep --color \"\"; t attnstep --hea' _ '%s' >" CLI_OUT,
           bin),
        0);
    assert_file_contains(CLI_OUT, "trace\n");
    assert_file_contains(CLI_OUT, "check compare\n");
    assert_file_contains(CLI_OUT, "text json md latex csv svg html\n");
    assert_file_contains(CLI_OUT, "zh en\n");
    assert_file_contains(CLI_OUT, "causal none\n");
    assert_file_contains(CLI_OUT, "auto always never\n");
    assert_file_contains(CLI_OUT, "--heatmap --head\n");
}

/* Issue 29: the front door cannot drift from the program. Every long option of the
 * parser's table (src/cli/args.c) is offered by the completion, every command of the
 * command table (src/cli/commands.c) is offered as the first word (asked of the
 * program under a Chinese ATTNSTEP_LANG too) and named in both man pages' synopses. */
static void test_completion_and_man_synopses_list_every_option_and_command(void **state)
{
    char bin[PATH_MAX];

    (void)state;
    if (!have("bash"))
        skip();
    bin_path(bin);
    assert_int_equal(sh("sed -n 's/^ *{\"\\([a-z-]*\\)\", *\\(required\\|no\\)_argument.*/--\\1/p' "
                        "src/cli/args.c > build/tests/options && test -s build/tests/options"), 0);
    assert_int_equal(sh("bash -c '. doc/attnstep.bash; COMP_WORDS=(attnstep --); COMP_CWORD=1; "
                        "_attnstep; printf \"%%s\\n\" \"${COMPREPLY[@]}\"' | sort > build/tests/offered && "
                        "sort -u build/tests/options | comm -23 - build/tests/offered > " CLI_OUT), 0);
    assert_stdout_empty(); /* no option of the table left out */
    assert_int_equal(sh("sed -n 's/^ *{\"\\([a-z]*\\)\", [0-9], AS_MSG_CMD_ARGS.*/\\1/p' "
                        "src/cli/commands.c > build/tests/commands && test $(wc -l < build/tests/commands) -ge 9"), 0);
    assert_int_equal(sh("ATTNSTEP_LANG=zh bash -c '. doc/attnstep.bash; COMP_WORDS=(\"$1\" \"\"); COMP_CWORD=1; "
                        "_attnstep; printf \"%%s\\n\" \"${COMPREPLY[@]}\"' _ '%s' | sort > build/tests/offered && "
                        "sort build/tests/commands | comm -23 - build/tests/offered > " CLI_OUT, bin), 0);
    assert_stdout_empty();
    assert_int_equal(sh("for c in $(cat build/tests/commands); do for m in doc/attnstep.1 doc/attnstep.zh_CN.1; do "
                        "sed -n '/^\\.SH \\(SYNOPSIS\\|概要\\)/,/^\\.SH/p' $m | "
                        "grep -q -e \"^\\.B attnstep $c\\$\" -e \"^\\.RB \\[ $c \\]\" || echo \"$m: $c\"; "
                        "done; done > " CLI_OUT), 0);
    assert_stdout_empty();
}

/* ---- colour ---- */

static void test_piped_output_has_no_escape_codes(void **state)
{
    (void)state;
    assert_int_equal(run("run " F11 " --heatmap"), 0);
    assert_no_escape_codes(CLI_OUT);
    assert_int_equal(run("trace " F11), 0);
    assert_no_escape_codes(CLI_OUT);
}

static void test_color_always_colours_even_in_a_pipe(void **state)
{
    (void)state;
    assert_int_equal(run("run " F11 " --color always --heatmap"), 0);
    assert_file_contains(CLI_OUT, "\x1b[");
}

/* On a terminal (a pseudo-terminal from script(1)), auto colours unless NO_COLOR. */
static void test_no_color_turns_auto_off_even_on_a_terminal(void **state)
{
    char bin[PATH_MAX];
    const char *fmt = "%sscript -q -e -c \"'%s' run " F11 " --color auto\" /dev/null "
                      "</dev/null >" CLI_OUT " 2>" CLI_ERR;

    (void)state;
    if (!have("script"))
        skip();
    bin_path(bin);
    assert_int_equal(sh(fmt, "env -u NO_COLOR ", bin), 0);
    assert_file_contains(CLI_OUT, "\x1b["); /* the terminal is seen as one */
    assert_int_equal(sh(fmt, "NO_COLOR=1 ", bin), 0);
    assert_file_contains(CLI_OUT, "0.6697615493");
    assert_no_escape_codes(CLI_OUT);
}

/* ---- the formats ---- */

/* Parses the CSV at path as numbers the way numpy.loadtxt(delimiter=",") does: `#`
 * lines skipped, every field a whole number text. Returns the rows read into v[rows][2]. */
static size_t parse_csv_2cols(const char *path, double v[][2], size_t max_rows)
{
    char *text = slurp(path), *line, *save = NULL;
    size_t rows = 0;

    assert_non_null(text);
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = line, *end;
        int j;
        if (line[0] == '#')
            continue;
        assert_true(rows < max_rows);
        for (j = 0; j < 2; j++) {
            v[rows][j] = strtod(p, &end);
            assert_true(end != p);
            assert_int_equal(*end, j == 0 ? ',' : '\0');
            p = end + 1;
        }
        rows++;
    }
    free(text);
    return rows;
}

static void test_csv_of_A_loads_as_numbers(void **state)
{
    double a[4][2];

    (void)state;
    assert_int_equal(run("run " F11 " --format csv --only A"), 0);
    assert_int_equal(parse_csv_2cols(CLI_OUT, a, 4), 2);
    assert_close(a[0][0], 1, 0);
    assert_close(a[0][1], 0, 0); /* masked: exactly 0 */
    assert_close(a[1][0], 0.6697615493, 5e-11);
    assert_close(a[1][1], 0.3302384507, 5e-11);
    assert_close(a[1][0] + a[1][1], 1, 1e-15);
    assert_int_equal(run("run " F11 " --format csv --only S"), 0);
    assert_int_equal(parse_csv_2cols(CLI_OUT, a, 4), 2);
    assert_true(isinf(a[0][1]) && a[0][1] < 0); /* −∞ as -inf */
    assert_close(a[1][0], 0.7071067812, 5e-11);
}

static void test_csv_needs_exactly_one_table(void **state)
{
    (void)state;
    assert_int_equal(run("run " F11 " --format csv"), 2);
    assert_stdout_empty();
    assert_file_contains(CLI_ERR, "--only");
    assert_int_equal(run("run " F11 " --format csv --only A,O"), 2);
    assert_stdout_empty();
    assert_int_equal(run("run " F11 " --format csv --only W"), 2);
    assert_stdout_empty();
}

static void assert_holds_the_f11_numbers(void)
{
    assert_file_contains(CLI_OUT, "0.6697615493");
    assert_file_contains(CLI_OUT, "0.3302384507");
    assert_file_contains(CLI_OUT, "0.7071067812");
    assert_file_contains(CLI_OUT, "6.6976154933");
    assert_file_contains(CLI_OUT, "6.6047690135");
}

static void test_markdown_holds_the_f11_numbers_in_tables(void **state)
{
    (void)state;
    assert_int_equal(run("run " F11 " --format md"), 0);
    assert_holds_the_f11_numbers();
    assert_file_contains(CLI_OUT, "**A** ≈");
    assert_file_contains(CLI_OUT, "|     |           我 |           爱 |\n");
    assert_file_contains(CLI_OUT, "| 爱  | 0.6697615493 | 0.3302384507 |\n");
    assert_file_contains(CLI_OUT, "−∞");
    assert_golden("tests/golden/f11.run.md"); /* the whole of it, checked by hand */
}

static void test_latex_holds_the_f11_numbers_in_bmatrices(void **state)
{
    char *tex;
    const char *p;
    int begins = 0, ends = 0;

    (void)state;
    assert_int_equal(run("run " F11 " --format latex"), 0);
    assert_holds_the_f11_numbers();
    assert_file_contains(CLI_OUT, "A \\approx \\begin{bmatrix}");
    assert_file_contains(CLI_OUT, "0 & -\\infty \\\\");
    assert_file_contains(CLI_OUT, "0.6697615493 & 0.3302384507\n");
    tex = slurp(CLI_OUT);
    for (p = tex; (p = strstr(p, "\\begin{bmatrix}")) != NULL; p++)
        begins++;
    for (p = tex; (p = strstr(p, "\\end{bmatrix}")) != NULL; p++)
        ends++;
    assert_int_equal(begins, ends);
    assert_true(begins >= 10);
    free(tex);
    assert_golden("tests/golden/f11.run.tex");
}

/* Several heads: each head's table carries its number as a subscript (head 1 of
 * examples/two-heads.txt by hand: X·Wq columns 2–3 = [[0,1],[1,0],[1,1]], and
 * Q₁K₁ᵀ = [[1,0,1],[0,1,1],[1,1,2]]). A table wider than amsmath's bmatrix default of
 * 10 columns raises MaxMatrixCols first, or LaTeX stops with an error. */
static void test_latex_names_heads_and_makes_room_for_wide_tables(void **state)
{
    (void)state;
    assert_int_equal(run("run examples/two-heads.txt --format latex"), 0);
    assert_file_contains(CLI_OUT, "Q_{1} = \\begin{bmatrix}\n  0 & 1 \\\\\n  1 & 0 \\\\\n"
                                  "  1 & 1\n\\end{bmatrix}\n");
    assert_file_contains(CLI_OUT, "Q_{1}K_{1}^{\\top} = \\begin{bmatrix}\n  1 & 0 & 1 \\\\\n"
                                  "  0 & 1 & 1 \\\\\n  1 & 1 & 2\n\\end{bmatrix}\n");
    assert_int_equal(run("run tests/data/cli/twelve-columns.txt --format latex --only X"), 0);
    assert_file_contains(CLI_OUT, "\\setcounter{MaxMatrixCols}{12}\n\\[\nX = \\begin{bmatrix}\n"
                                  "  0 & 1 & 2 & 3 & 4 & 5 & 6 & 7 & 8 & 9 & 10 & 11\n");
    assert_int_equal(run("run " F11 " --format latex"), 0);
    assert_file_lacks(CLI_OUT, "MaxMatrixCols");
}

/* A small well-formedness check: tags balance, one <svg> root, no stray '<' or '&'. */
static int xml_balanced(const char *s)
{
    const char *stack[64];
    size_t depth = 0, roots = 0;

    for (; (s = strpbrk(s, "<&")) != NULL; s++) {
        const char *close;
        if (*s == '&') {
            if (strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) && strncmp(s, "&gt;", 4) &&
                strncmp(s, "&quot;", 6))
                return 0;
            continue;
        }
        if ((close = strchr(s, '>')) == NULL)
            return 0;
        if (s[1] == '?' || s[1] == '!') {
            s = close;
            continue;
        }
        if (s[1] == '/') {
            const size_t n = strcspn(s + 2, ">");
            if (depth == 0 || strncmp(stack[depth - 1], s + 2, n) != 0 ||
                strchr(" >/", stack[depth - 1][n]) == NULL)
                return 0;
            depth--;
        } else if (close[-1] != '/') {
            if (depth == 64)
                return 0;
            roots += depth == 0;
            stack[depth++] = s + 1;
        }
        s = close;
    }
    return depth == 0 && roots == 1;
}

static void test_svg_is_well_formed_with_the_tokens_on_its_axes(void **state)
{
    char *svg;

    (void)state;
    assert_int_equal(run("run " F11 " --format svg"), 0);
    svg = slurp(CLI_OUT);
    assert_non_null(svg);
    assert_true(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    assert_true(xml_balanced(svg));
    assert_non_null(strstr(svg, ">我</text>"));
    assert_non_null(strstr(svg, ">爱</text>"));
    assert_non_null(strstr(svg, ">0.6698</text>")); /* A[1][0], shown to 4 places */
    assert_null(strstr(svg, "href"));                /* self-contained */
    free(svg);
    assert_golden("tests/golden/f11.run.svg");
    if (have("xmllint"))
        assert_int_equal(sh("xmllint --noout " CLI_OUT), 0);
}

/* A title and labels are text, never markup: each format escapes what would be read as
 * its own syntax (XML 1.0 §2.4 for SVG, RFC 8259 §7 for JSON, CommonMark's backslash
 * escapes and GFM's escaped bar in a table for Markdown). */
static void test_titles_and_labels_are_escaped_for_each_format(void **state)
{
    char *svg;

    (void)state;
    assert_int_equal(run("run tests/data/cli/markup.txt --format svg --only A"), 0);
    svg = slurp(CLI_OUT);
    assert_non_null(svg);
    assert_true(xml_balanced(svg));
    assert_non_null(strstr(svg, ">Q &amp; A &lt;1&gt; &quot;quoted&quot; back\\slash | *star*</text>"));
    free(svg);
    if (have("xmllint"))
        assert_int_equal(sh("xmllint --noout " CLI_OUT), 0);
    assert_int_equal(run("run tests/data/cli/markup.txt --format json --only A"), 0);
    assert_file_contains(CLI_OUT, "\"title\": \"Q & A <1> \\\"quoted\\\" back\\\\slash | *star*\",\n"
                                  "  \"tokens\": [\"a|b\",\"_c_\"],\n");
    assert_int_equal(run("run tests/data/cli/markup.txt --format md --only A"), 0);
    assert_file_contains(CLI_OUT, "# Q & A <1> \"quoted\" back\\\\slash \\| \\*star\\*\n");
    assert_file_contains(CLI_OUT, "| a\\|b  |            1 |            0 |\n");
    assert_file_contains(CLI_OUT, "| \\_c\\_ | 0.1955703175 | 0.8044296825 |\n");
}

static void test_heatmap_lines_up_chinese_labels(void **state)
{
    (void)state;
    assert_int_equal(run("run " F11 " --heatmap --only A --color never"), 0);
    /* 我 and 爱 are two columns wide: each cell is two columns under its label */
    assert_file_contains(CLI_OUT, "\n    我 爱\n我  ██\n爱  ▓▓ ▒▒\n");
    assert_int_equal(run("run " F11 " --heatmap --only A --ascii"), 0);
    assert_file_contains(CLI_OUT, "\n    我 爱\n我  ##\n爱  ** ++\n");
}

/* An emoji and a CJK character beyond the BMP take two columns, a Devanagari letter
 * one: the cells stay under their labels. Shares by hand: row 1 softmax([0, 1/√2]) =
 * [0.33, 0.67], row 2 softmax([1, 1, 2]/√2) = [0.25, 0.25, 0.50]. */
static void test_heatmap_lines_up_emoji_and_narrow_letters(void **state)
{
    (void)state;
    assert_int_equal(run("run tests/data/cli/wide-and-narrow.txt --heatmap --only A --color never"), 0);
    assert_file_contains(CLI_OUT, "\n    😀 अ  𠀀\n😀  ██\nअ   ▒▒ ▓▓\n𠀀  ░░ ░░ ▓▓\n");
}

/* ---- -o ---- */

/* The files in dir whose names start with prefix; *bytes (when not NULL) their size. */
static int files_starting(const char *dir, const char *prefix, long *bytes)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct stat st;
    char path[2 * PATH_MAX];
    int n = 0;

    assert_non_null(d);
    if (bytes != NULL)
        *bytes = 0;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (bytes != NULL && stat(path, &st) == 0)
                *bytes += (long)st.st_size;
            n++;
        }
    closedir(d);
    return n;
}

/* -o FILE is written through a temporary file beside FILE (.attnstep-XXXXXX); a signal
 * that ends the program on the way (SIGTERM here, as `kill` sends) removes it, and the
 * program still ends by that signal: no FILE, no temporary file left behind. The run is
 * a trace of every row of 1000 tokens, long enough to be caught while it writes. */
static void test_a_signal_while_writing_removes_the_temporary_file(void **state)
{
    char dir[PATH_MAX], bin[PATH_MAX], input[PATH_MAX + 16], out[PATH_MAX + 16], cmd[4 * PATH_MAX];
    const char *wrap = getenv("ATTNSTEP_WRAP");
    struct timespec tick = {0, 1000000}; /* 1 ms */
    FILE *f;
    pid_t pid;
    long bytes;
    int i, st;

    (void)state;
    make_dir(dir);
    bin_path(bin);
    snprintf(input, sizeof input, "%s/long.txt", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    f = fopen(input, "w");
    assert_non_null(f);
    fputs("X = [", f);
    for (i = 0; i < 1000; i++)
        fprintf(f, "%s[%d]", i ? ", " : "", i % 7);
    fputs("]\nWq = [[1]]\nWk = [[1]]\nWv = [[1]]\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "exec %s '%s' trace --row all '%s' -o '%s' 2>/dev/null",
             wrap ? wrap : "", bin, input, out);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* wait until the output has begun (its first bytes reached the temporary file) */
    for (i = 0; i < 60000 && (files_starting(dir, ".attnstep-", &bytes) == 0 || bytes == 0); i++)
        nanosleep(&tick, NULL);
    assert_int_equal(files_starting(dir, ".attnstep-", NULL), 1); /* it is writing */
    assert_int_equal(kill(pid, SIGTERM), 0);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    assert_int_equal(files_starting(dir, ".attnstep-", NULL), 0);
    assert_int_equal(files_starting(dir, "out.txt", NULL), 0);
    rm_dir(dir);
}

static void test_output_file_is_never_overwritten_without_force(void **state)
{
    char dir[] = "build/tests/unix-XXXXXX", file[64], args[256];
    char *kept;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/out.txt", dir);
    assert_int_equal(sh("printf 'old content\\n' > '%s'", file), 0);
    snprintf(args, sizeof args, "run " F11 " -o '%s'", file);
    assert_int_equal(run(args), 2);
    assert_file_contains(CLI_ERR, "--force");
    kept = slurp(file);
    assert_string_equal(kept, "old content\n");
    free(kept);
    snprintf(args, sizeof args, "run " F11 " -o '%s' --force", file);
    assert_int_equal(run(args), 0);
    assert_stdout_empty();
    assert_file_contains(file, "0.6697615493");
    assert_no_escape_codes(file);
    assert_int_equal(sh("test \"$(ls -A '%s')\" = out.txt", dir), 0); /* no temp file */
    rm_dir(dir);
}

/* Standard input is read to its end however it comes: through a pipe (no size known
 * in advance) an input longer than the first 64 KiB read is the same input as the file
 * it came from. (A 100 000-byte comment, then the F11 example.) */
static void test_a_long_input_through_a_pipe_is_read_whole(void **state)
{
    static const char big[] = "build/tests/unix-long-input.txt";
    char bin[PATH_MAX];
    FILE *f = fopen(big, "w"), *ex = fopen("examples/f11.txt", "r");
    int c, i;

    (void)state;
    assert_non_null(f);
    assert_non_null(ex);
    fputs("# ", f);
    for (i = 0; i < 100000; i++)
        fputc('a' + i % 26, f);
    fputc('\n', f);
    while ((c = fgetc(ex)) != EOF)
        fputc(c, f);
    fclose(ex);
    fclose(f);
    bin_path(bin);
    assert_int_equal(sh("cat %s | %s trace - >build/tests/unix-pipe.out 2>&1", big, bin), 0);
    assert_int_equal(sh("%s trace examples/f11.txt >build/tests/unix-file.out 2>&1", bin), 0);
    assert_int_equal(sh("cmp -s build/tests/unix-pipe.out build/tests/unix-file.out"), 0);
    unlink(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_lists_commands_options_input_and_examples_on_stdout),
        cmocka_unit_test(test_version_names_the_program_and_version_on_the_first_line),
        cmocka_unit_test(test_unknown_option_is_a_usage_error_that_points_to_help),
        cmocka_unit_test(test_man_page_has_every_section),
        cmocka_unit_test(test_groff_renders_the_man_page_without_a_warning),
        cmocka_unit_test(test_groff_renders_the_chinese_man_page_without_a_warning),
        cmocka_unit_test(test_man_page_examples_run),
        cmocka_unit_test(test_install_and_uninstall_honour_destdir_and_prefix),
        cmocka_unit_test(test_bash_completion_offers_commands_and_option_values),
        cmocka_unit_test(test_completion_and_man_synopses_list_every_option_and_command),
        cmocka_unit_test(test_piped_output_has_no_escape_codes),
        cmocka_unit_test(test_a_long_input_through_a_pipe_is_read_whole),
        cmocka_unit_test(test_color_always_colours_even_in_a_pipe),
        cmocka_unit_test(test_no_color_turns_auto_off_even_on_a_terminal),
        cmocka_unit_test(test_csv_of_A_loads_as_numbers),
        cmocka_unit_test(test_csv_needs_exactly_one_table),
        cmocka_unit_test(test_markdown_holds_the_f11_numbers_in_tables),
        cmocka_unit_test(test_latex_holds_the_f11_numbers_in_bmatrices),
        cmocka_unit_test(test_latex_names_heads_and_makes_room_for_wide_tables),
        cmocka_unit_test(test_svg_is_well_formed_with_the_tokens_on_its_axes),
        cmocka_unit_test(test_titles_and_labels_are_escaped_for_each_format),
        cmocka_unit_test(test_heatmap_lines_up_chinese_labels),
        cmocka_unit_test(test_heatmap_lines_up_emoji_and_narrow_letters),
        cmocka_unit_test(test_output_file_is_never_overwritten_without_force),
        cmocka_unit_test(test_a_signal_while_writing_removes_the_temporary_file),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
