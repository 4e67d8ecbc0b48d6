/* test_practice.c - `attnstep practice` (SPEC §14) driven from a pipe and from a real
 * terminal (a pty). The right answers are the chapter's F11 numbers as the chapter
 * prints them (Q, K, V, QKᵀ, S = [[0,−∞],[1/√2,0]], A = [[1,0],[0.6697615493,
 * 0.3302384507]], O = [[10,0],[6.6976154933,6.6047690135]]), typed to the precision a
 * student would write; the wrong answers are the named mistakes of SPEC §6 worked out
 * by hand on those numbers. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/practice.out"
#define CLI_ERR "build/tests/practice.err"
#include "cli_util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#define EX "examples/f11.txt"
#define IN "build/tests/practice.in"

/* Every cell of F11 in the order practice asks (masked S[0][1] and A[0][1] are given). */
static const char *const f11_answers[] = {
    "0", "1", "1", "0",               /* Q = XWq */
    "1", "0", "0", "1",               /* K = XWk */
    "10", "0", "0", "20",             /* V = XWv */
    "0", "1", "1", "0",               /* QKᵀ */
    "0", "1/√2", "0",                 /* S: 0, (−∞), 1/√2, 0 */
    "1", "0.67", "0.33",              /* A: 1, (0), 0.6697…, 0.3302… */
    "10", "0", "6.70", "6.60",        /* O */
};
#define F11_CELLS (sizeof f11_answers / sizeof f11_answers[0])

/* Runs `attnstep practice ARGS` with the text input on its standard input (a file, so
 * a pipe-like non-terminal). Returns the exit status. */
static int practice(const char *args, const char *input)
{
    const char *bin = getenv("ATTNSTEP_BIN"), *wrap = getenv("ATTNSTEP_WRAP");
    char cmd[2048];
    FILE *f = fopen(IN, "wb");
    int st;

    assert_non_null(f);
    fputs(input, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s %s practice %s <" IN " >" CLI_OUT " 2>" CLI_ERR,
             wrap ? wrap : "", bin ? bin : "build/attnstep", args);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The F11 answers from the first, one a line, then extra. */
static void answers(char *buf, size_t size, size_t first, const char *extra)
{
    size_t k, n = 0;

    buf[0] = '\0';
    for (k = first; k < F11_CELLS; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s\n", f11_answers[k]);
    snprintf(buf + n, size - n, "%s", extra);
}

static void assert_out_has(const char *want)
{
    assert_file_contains(CLI_OUT, want);
}

/* Nonzero when, in the output, text a is followed (later) by text b. */
static int followed_by(const char *a, const char *b)
{
    char *out = slurp(CLI_OUT);
    const char *at = out ? strstr(out, a) : NULL;
    const int ok = at != NULL && strstr(at + strlen(a), b) != NULL;

    free(out);
    return ok;
}

static void test_every_cell_right_gives_the_full_score_and_exit_0(void **state)
{
    char in[1024];

    (void)state;
    answers(in, sizeof in, 0, "");
    assert_int_equal(practice(EX, in), 0);
    assert_out_has("得分：26/26");
    assert_out_has("每一格都答对了！");
    assert_out_has("S[0][1] = −∞（掩码固定，已给出）");
    assert_out_has("A[0][1] = 0（掩码固定，已给出）");
    assert_out_has("用到：q₁ = [1,0]，k₀ = [1,0]");          /* QKᵀ[1][0] */
    assert_out_has("用到：QKᵀ[1][0] = 1，√d_k = √2");         /* S[1][0] */
    assert_out_has("用到：第1行的缩放分数 = [0.7071067812, 0]"); /* A[1][0] */
    assert_out_has("V第0列 = [10,0]");                         /* O[1][0] */
}

static void test_in_english(void **state)
{
    char in[1024];

    (void)state;
    answers(in, sizeof in, 0, "");
    assert_int_equal(practice(EX " --lang en", in), 0);
    assert_out_has("score: 26/26");
    assert_out_has("Every cell right!");
    assert_out_has("A[1][0] = ");
    /* a mistake named in English, and --ascii spelling */
    assert_int_equal(practice("--only S --lang en --ascii " EX, "0\n1\nq\n"), 1);
    assert_out_has("made from: QK^T[1][0] = 1, sqrt(d_k) = sqrt2 ~= 1.4142135624");
    assert_out_has("Not right. Your 1 most likely comes from this: the scores were not divided "
                   "by sqrt(d_k).\nThis cell is: 1/sqrt(2) ~= 0.7071067812; you wrote 1.");
    assert_out_has("S[0][1] = -inf (fixed by the mask, given)");
    {
        char *out = slurp(CLI_OUT);
        const unsigned char *u = (const unsigned char *)out;
        while (*u != '\0' && *u < 0x80)
            u++;
        assert_int_equal(*u, 0); /* --ascii --lang en: pure ASCII */
        free(out);
    }
}

static void test_a_wrong_answer_gets_its_arithmetic_and_the_same_cell_again(void **state)
{
    (void)state;
    assert_int_equal(practice(EX, "5\n0\nq\n"), 1);
    assert_true(followed_by("Q[0][0] = 5", "这一格这样算：x₀·Wq第0列 = 1×0.5+1×(-0.5) = 0；你写的是5。"));
    assert_true(followed_by("你写的是5", "Q[0][0] = 0\n对！"));
    assert_out_has("得分：1/26");
}

/* Each mistake made on purpose: the answers before it right, then the wrong value. The
 * hint says the mistake in a sentence, never its code (the codes are for teachers). */
static void assert_named(const char *args, const char *input, const char *sentence,
                         const char *code)
{
    assert_int_equal(practice(args, input), 1);
    if (!followed_by("不对。", sentence)) {
        print_error("no “%s” in the hint for %s\n", sentence, input);
        fail();
    }
    assert_file_lacks(CLI_OUT, code);
}

static void test_each_named_mistake_made_on_purpose_is_named(void **state)
{
    (void)state;
    /* S[1][0] = 1: QKᵀ[1][0] not divided by √2 */
    assert_named("--only S " EX, "0\n1\nq\n", "你写的1，很可能是因为分数没有除以√d_k。\n"
                 "这一格这样算：1/√2 ≈ 0.7071067812；你写的是1。", "no_scale");
    /* A[0][0] = 0.5: S row 0 with 0 for −∞ gives softmax([0,0]) = [0.5,0.5] */
    assert_named("--only A " EX, "0.5\nq\n", "被禁止的位置写成了0", "masked_zero");
    /* A[1][0] = 1: exp(0.7071−0.7071) = 1 not divided by the sum 1.4931 */
    assert_named("--only A " EX, "1\n1\nq\n", "你写的1，很可能是因为只取了指数，没有除以指数之和",
                 "no_normalize");
    /* A[1][1] = 1: exp(S[1][1]) = exp(0) = 1 not divided by the sum (the most likely:
     * a mistake of the softmax step); also the softmax down column 1 of S, [−∞, 0], and
     * the mask turned round (row 1 then reads only position 1): named after it, in words */
    assert_named("--only A " EX, "1\n0.67\n1\nq\n",
                 "你写的1，很可能是因为只取了指数，没有除以指数之和：每行份额加起来应当是1。\n"
                 "也可能是沿列做了softmax或掩码方向反了。\n这一格这样算：", "softmax_columns");
    assert_file_lacks(CLI_OUT, "inverted_mask");
    /* O[0][1] = 6.6976: the value of O[1][0] */
    assert_named("--only O " EX, "10\n6.6976\nq\n",
                 "你写的6.6976是O[1][0]的值：行和列对调了，这一格在第0行、第1列。", "transposed");
    /* O[1][0] = 0.67: a₁·K第0列 = 0.6698×1 + 0.3302×0 */
    assert_named("--only O " EX, "10\n0\n0.67\nq\n", "混合的是Key，应当用份额混合Value",
                 "keys_for_values");
    /* K[0][0] = 0: x₀·Wq第0列, K made with Wq */
    assert_named("--only K " EX, "0\nq\n", "K用Wq算了，应当用Wk", "wrong_weights");
}

static void test_question_mark_shows_the_answer_and_counts_it_missed(void **state)
{
    char in[1024];

    (void)state;
    answers(in, sizeof in, 1, "");
    memmove(in + 2, in, strlen(in) + 1);
    memcpy(in, "?\n", 2);
    assert_int_equal(practice(EX, in), 1);
    assert_out_has("答案：Q[0][0] = 0");
    assert_out_has("得分：25/26");
    assert_out_has("没有答对的格子：Q[0][0]");
}

static void test_three_wrong_tries_show_the_answer_then_the_next_cell(void **state)
{
    (void)state;
    assert_int_equal(practice("--only QKT " EX, "7\n8\n9\n1\nq\n"), 1);
    assert_true(followed_by("还有2次机会", "最后一次机会"));
    assert_true(followed_by("最后一次机会", "答案：QKᵀ[0][0] = 0"));
    assert_true(followed_by("答案：QKᵀ[0][0] = 0", "QKᵀ[0][1] = 1\n对！"));
    assert_out_has("没有答对的格子：QKᵀ[0][0]");
}

static void test_q_stops_and_the_score_counts_what_was_left(void **state)
{
    (void)state;
    assert_int_equal(practice(EX, "0\nq\n0\n"), 1);
    assert_out_has("练习中途结束，还有25格没有做。");
    assert_out_has("得分：1/26");
}

static void test_end_of_input_stops_cleanly(void **state)
{
    (void)state;
    assert_int_equal(practice(EX, ""), 1);
    assert_out_has("Q[0][0] = \n");
    assert_out_has("练习中途结束，还有26格没有做。");
    assert_int_equal(practice(EX, "0\n1"), 1); /* a last line without its newline */
    assert_out_has("得分：2/26");
}

static void test_what_is_not_a_number_is_said_and_not_counted(void **state)
{
    (void)state;
    assert_int_equal(practice("--only Q " EX, "abc\n\n  0  \nnan\n1e999\n1\n1\n0\n"), 0);
    assert_out_has("“abc”不是一个数");
    assert_out_has("“nan”不是一个数");
    assert_out_has("得分：4/4");
}

static void test_row_asks_the_walk_through_row(void **state)
{
    (void)state;
    assert_int_equal(practice("--row 1 " EX, "1\n0\n0.7071\n0\n0.67\n0.33\n6.70\n6.60\n"), 0);
    assert_out_has("得分：8/8");
    assert_true(followed_by("── QKᵀ ──", "QKᵀ[1][0] = "));
}

static void test_tol_judges_as_check_does(void **state)
{
    (void)state;
    /* 0.7 is right to its own place (|0.7071 − 0.7| < 0.05); with --tol 0.001 it is not */
    assert_int_equal(practice("--only S " EX, "0\n0.7\n0\n"), 0);
    assert_int_equal(practice("--only S --tol 0.001 " EX, "0\n0.7\nq\n"), 1);
}

static void test_transcript_keeps_prompts_and_answers(void **state)
{
    (void)state;
    remove("build/tests/practice.log");
    assert_int_equal(practice("--only Q -o build/tests/practice.log " EX, "0\n2\n1\n1\n0\n"), 0);
    assert_file_contains("build/tests/practice.log", "Q[0][1] = 2\n不对。");
    assert_out_has("Q[0][1] = 2\n不对。"); /* the terminal still sees it all */
    remove("build/tests/practice.log");
}

static void test_a_fresh_exercise_by_seed(void **state)
{
    (void)state;
    assert_int_equal(practice("--seed 7 --level 2", "q\n"), 1);
    assert_out_has("Q[0][0] = ");
}

static void test_usage_errors(void **state)
{
    char *out;

    (void)state;
    assert_int_equal(practice("", ""), 2);
    assert_file_contains(CLI_ERR, "practice要给一个输入文件");
    assert_int_equal(practice("--only X " EX, ""), 2);
    assert_int_equal(practice("--row 5 " EX, ""), 2);
    assert_int_equal(practice("--format json " EX, ""), 2);
    assert_int_equal(practice("--head 2 examples/two-heads.txt", ""), 2);
    assert_file_contains(CLI_ERR, "--head 2：这份输入只有2个头，编号从0数起，是0到1");
    assert_int_equal(practice("--lang en --head 1 " EX, ""), 2);
    assert_file_contains(CLI_ERR, "--head 1: this input has 1 head, numbered from 0 to 0");
    assert_int_equal(practice("--head one " EX, ""), 2);
    assert_int_equal(practice("-", ""), 2);
    assert_file_contains(CLI_ERR, "输入文件不能写作 -");
    out = slurp(CLI_OUT);
    assert_string_equal(out, "");
    free(out);
}

/* ---- trace --step N: one step of the walk-through at a time ---- */

static void test_trace_step_prints_just_that_step_with_its_tables(void **state)
{
    static const char *const heading[] = {"第一步", "第二步", "第三步", "第四步"};
    static const char *const says[] = {
        "对“我”的原始分数：q₁·k₀ = 1×1+0×0 = 1",
        "缩放分数：[1/√2, 0/√2] ≈ [0.7071067812, 0]",
        "除以总和： [0.6697615493, 0.3302384507]",
        "“爱”位置的注意力输出 o₁ ≈ [6.6976154933, 6.6047690135]",
    };
    static const char *const table[] = {"QKᵀ = [[0,1],", "S = QKᵀ/√2 + M", "A = 每行softmax(S)",
                                        "O = AV"};
    char args[64];
    int s, k;

    (void)state;
    for (s = 1; s <= 4; s++) {
        snprintf(args, sizeof args, "trace --step %d " EX, s);
        assert_int_equal(run(args), 0);
        assert_file_contains(CLI_OUT, heading[s - 1]);
        assert_file_contains(CLI_OUT, says[s - 1]);
        assert_file_contains(CLI_OUT, table[s - 1]);
        for (k = 0; k < 4; k++) {
            char *out = slurp(CLI_OUT);
            if (k != s - 1 && strstr(out, heading[k]) != NULL) {
                print_error("trace --step %d also prints %s\n", s, heading[k]);
                fail();
            }
            free(out);
        }
    }
    assert_int_equal(run("trace --step 5 " EX), 2);
    assert_file_contains(CLI_ERR, "trace的--step要给1到4");
    assert_int_equal(run("trace --step scores " EX), 2);
    assert_int_equal(run("sheet --step scores " EX), 0); /* the sheet's steps keep their names */
}

/* ---- a real terminal ---- */

/* Reads what the pty shows until want appears (or 5 s pass) into buf. */
static int read_until(int fd, char *buf, size_t size, size_t *len, const char *want)
{
    const time_t end = time(NULL) + 5;
    struct pollfd p = {fd, POLLIN, 0};

    while (time(NULL) < end) {
        ssize_t n;
        buf[*len] = '\0';
        if (strstr(buf, want) != NULL)
            return 1;
        if (poll(&p, 1, 200) <= 0)
            continue;
        if ((n = read(fd, buf + *len, size - 1 - *len)) <= 0)
            return 0;
        *len += (size_t)n;
    }
    return 0;
}

static void test_on_a_terminal_each_prompt_shows_before_the_answer_is_typed(void **state)
{
    const char *bin = getenv("ATTNSTEP_BIN");
    static const char *const cells[] = {"Q[0][0]", "Q[0][1]", "Q[1][0]", "Q[1][1]", "K[0][0]", "K[0][1]",
        "K[1][0]", "K[1][1]", "V[0][0]", "V[0][1]", "V[1][0]", "V[1][1]", "QKᵀ[0][0]", "QKᵀ[0][1]",
        "QKᵀ[1][0]", "QKᵀ[1][1]", "S[0][0]", "S[1][0]", "S[1][1]", "A[0][0]", "A[1][0]", "A[1][1]",
        "O[0][0]", "O[0][1]", "O[1][0]", "O[1][1]"};
    static char buf[1 << 16];
    size_t len = 0, k;
    int fd, st;
    pid_t pid;

    (void)state;
    assert_int_equal(sizeof cells / sizeof cells[0], F11_CELLS);
    fd = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(fd >= 0 && grantpt(fd) == 0 && unlockpt(fd) == 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int s;
        setsid();
        s = open(ptsname(fd), O_RDWR);
        dup2(s, 0);
        dup2(s, 1);
        dup2(s, 2);
        close(fd);
        execl(bin ? bin : "build/attnstep", "attnstep", "practice", EX, (char *)NULL);
        _exit(127);
    }
    for (k = 0; k < F11_CELLS; k++) {
        char prompt[64];
        snprintf(prompt, sizeof prompt, "%s = ", cells[k]);
        /* the prompt is on the screen before anything is typed for it */
        if (!read_until(fd, buf, sizeof buf, &len, prompt)) {
            print_error("no prompt %s; the screen:\n%s\n", prompt, buf);
            fail();
        }
        memset(buf, 0, len); /* the next prompt must come after this answer */
        len = 0;
        assert_true(write(fd, f11_answers[k], strlen(f11_answers[k])) > 0);
        assert_true(write(fd, "\n", 1) == 1);
    }
    assert_true(read_until(fd, buf, sizeof buf, &len, "得分：26/26"));
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    close(fd);
}

/* A bias, a set scale and a custom mask show in what a cell is made of and in its
 * arithmetic; a share shows its exp and sum. tests/data/sheet/walk.txt: x₀ = [1,0],
 * bq = [1,0], scale 0.5, M[2] = [−∞,1,0]; worked by hand in the file's comments
 * (S row 1 = [0.5,0.5,−∞]: exps [1,1,0], sum 2, shares 1/2). */
#define WALK "tests/data/sheet/walk.txt"
static void test_bias_scale_mask_and_shares_are_explained(void **state)
{
    (void)state;
    assert_int_equal(practice("--lang en " WALK, "5\nq\n"), 1);
    assert_out_has("made from: x₀ = [1,0], Wq column 0 = [1,0], bias bq₀ = 1\n");
    assert_out_has("This cell is: x₀·Wq column 0 = 1×1+0×0+1 = 2; you wrote 5.");
    assert_int_equal(practice("--lang en --only S --row 2 " WALK, "0\nq\n"), 1);
    assert_out_has("S[2][0] = −∞ (fixed by the mask, given)\n");
    assert_out_has("made from: QKᵀ[2][1] = 1, the scale = 0.5\n");
    assert_out_has("This cell is: 1×0.5+1 = 1.5; you wrote 0."); /* M[2][1] = 1 added */
    assert_int_equal(practice("--lang en --only A " WALK, "1\n0.7\nq\n"), 1);
    assert_out_has("made from: the scaled scores of row 1 = [0.5, 0.5, −∞]\n");
    assert_out_has("This cell is: exp after subtracting the row's max: exp(0) = 1, the row's "
                   "sum of exps = 2, share = 1/2 = 0.5; you wrote 0.7.");
    assert_int_equal(practice("--only A " WALK, "1\n0.7\nq\n"), 1);
    assert_out_has("这一格这样算：先减去这一行的最大值再取指数，exp(0) = 1；这一行指数之和 = 2，"
                   "份额 = 1/2 = 0.5；你写的是0.7。");
    /* V[0][0] = 1 is x₀·Wk column 0: V made with Wk */
    assert_named("--only V " WALK, "1\nq\n", "V用Wk算了，应当用Wv。", "wrong_weights");
}

/* ---- every input run takes (issue 29): heads, Wo, positions, windows, shared K/V ---- */

/* Every example run takes, practice takes too, in both languages. */
static void test_every_example_is_practised(void **state)
{
    static const char *const file[] = {
        "alibi", "cross-translation", "decode", "f11", "f11-change-wq", "f11-change-wv", "gqa",
        "grad-f11", "padding-mask", "rope", "sinusoidal", "tiles", "two-heads", "window"};
    char args[256];
    size_t k;

    (void)state;
    for (k = 0; k < sizeof file / sizeof file[0]; k++) {
        snprintf(args, sizeof args, "run examples/%s.txt", file[k]);
        assert_int_equal(run(args), 0);
        snprintf(args, sizeof args, "examples/%s.txt", file[k]);
        assert_int_equal(practice(args, "?\nq\n"), 1);
        assert_out_has("答案：Q[0][0] = ");
        snprintf(args, sizeof args, "--lang en examples/%s.txt", file[k]);
        assert_int_equal(practice(args, "?\nq\n"), 1);
        assert_out_has("The answer: Q[0][0] = ");
    }
}

/* two-heads.txt: each head's O (O₀, O₁), then the layer's O = C·Wo. By hand: C's row 0
 * is [O₀ row 0 | O₁ row 0] = [1,1 | 1,0] (both heads' row 0 reads only "我"), Wo's
 * column 0 is [1,0,0,1/2], so O[0][0] = 1. Head 1's Q₁K₁ᵀ[0][0] = [0,1]·[0,1] = 1. */
static void test_two_heads_each_head_then_the_output_projection(void **state)
{
    char in[256] = "";
    int k;

    (void)state;
    for (k = 0; k < 12; k++)
        strcat(in, "?\n");  /* O₀ and O₁: 3 x 2 cells each */
    strcat(in, "2\n1\nq\n");
    assert_int_equal(practice("--only O --lang en examples/two-heads.txt", in), 1);
    assert_true(followed_by("O₀[0][0] = ", "O₁[2][1] = "));
    assert_out_has("made from: c₀ = [1,1,1,0], Wo column 0 = [1, 0, 0, 0.5]\nO[0][0] = 2\n"
                   "Not right. This cell is: c₀·Wo column 0 = 1×1+1×0+1×0+0×0.5 = 1; you wrote 2.");
    assert_true(followed_by("O[0][0] = 1", "Right."));
    assert_int_equal(practice("--only O examples/two-heads.txt", in), 1);
    assert_out_has("用到：c₀ = [1,1,1,0]，Wo第0列 = [1, 0, 0, 0.5]");
    assert_out_has("用到：a₀ = [1,0,0]，V₁第0列 = [1,1,0]");
    /* --head 1: only head 1's tables; the scaling left out is named */
    assert_int_equal(practice("--head 1 --only S examples/two-heads.txt", "1\nq\n"), 1);
    assert_out_has("用到：Q₁K₁ᵀ[0][0] = 1，√d_k = √2 ≈ 1.4142135624\nS₁[0][0] = 1\n"
                   "不对。你写的1，很可能是因为分数没有除以√d_k。");
    assert_int_equal(practice("--lang en --head 1 --only S examples/two-heads.txt", "1\nq\n"), 1);
    assert_out_has("S₁[0][0] = 1\nNot right. Your 1 most likely comes from this: the scores were "
                   "not divided by √d_k.\nThis cell is: 1/√2 ≈ 0.7071067812; you wrote 1.");
}

/* rope.txt: q₁ = x₁·Wq = [1,-1]·[[0.5,0.5],[-0.5,0.5]] = [1,0], turned at position 1 by
 * θ₀ = 1 (d_k = 2): Qr[1][0] = 1·cos 1 − 0·sin 1 = cos 1 = 0.5403023059. */
static void test_rope_asks_the_turned_queries_and_keys(void **state)
{
    (void)state;
    assert_int_equal(practice("--only Qr examples/rope.txt", "0\n1\n0.84\n0.54\nq\n"), 1);
    assert_out_has("用到：q₁ = [1,0]；第0对是第0和第1个数，在位置1转过的角度 = 1×1 = 1，"
                   "cos = 0.5403023059，sin = 0.8414709848\nQr[1][0] = 0.84\n");
    assert_out_has("不对。这一格这样算：q₁[0]×cos − q₁[1]×sin = 1×0.5403023059 − 0×0.8414709848 "
                   "≈ 0.5403023059；你写的是0.84。");
    assert_true(followed_by("Qr[1][0] = 0.54", "对！"));
    assert_int_equal(practice("--lang en examples/rope.txt", "q\n"), 1);
    assert_int_equal(practice("--lang en --only Kr examples/rope.txt", "1\n0\n0.84\nq\n"), 1);
    assert_out_has("made from: k₁ = [0,1]; pair 0 is numbers 0 and 1, turned at position 1 by "
                   "the angle 1×1 = 1, cos = 0.5403023059, sin = 0.8414709848\n");
    assert_out_has("This cell is: k₁[0]×cos − k₁[1]×sin = 0×0.5403023059 − 1×0.8414709848 "
                   "≈ -0.8414709848; you wrote 0.84."); /* the sign of the sine forgotten */
}

/* alibi.txt, head 0 of 2: slope 2^(−8/2) = 1/16; S₀[1][0] = Q₀K₀ᵀ[1][0]/√2 − (1−0)/16 =
 * 1/√2 − 0.0625 = 0.6446067812. */
static void test_alibi_bias_is_in_the_scores(void **state)
{
    (void)state;
    assert_int_equal(practice("--lang en --head 0 --only S examples/alibi.txt", "0\n0.71\nq\n"), 1);
    assert_out_has("made from: Q₀K₀ᵀ[1][0] = 1, √d_k = √2 ≈ 1.4142135624, the ALiBi bias = "
                   "−0.0625×(1−0) = -0.0625\n");
    /* 0.71 is 1/√2 without the bias: that slip is named before the arithmetic */
    assert_out_has("Not right. Your 0.71 leaves out ALiBi's bias: the scaled score still gets "
                   "−slope×(i−j) added, more taken off the farther the Key.\n"
                   "This cell is: 1/√2+(-0.0625) ≈ 0.6446067812; you wrote 0.71.");
    assert_int_equal(practice("--head 0 --only S examples/alibi.txt", "0\n0.645\nq\n"), 1);
    assert_out_has("ALiBi的偏置 = −0.0625×(1−0) = -0.0625");
    assert_true(followed_by("S₀[1][0] = 0.645", "对！"));
}

/* gqa.txt: two query heads share one K/V head, so --head 1 asks Q's columns 2 and 3 and
 * the shared K and V whole; sinusoidal.txt: the projections read x + PE (PE₀ = [sin 0,
 * cos 0] = [0,1], x₀ = [1,1]); window.txt (width 2): row 2 reads positions 1 and 2. */
static void test_shared_keys_positions_and_windows(void **state)
{
    (void)state;
    assert_int_equal(practice("--head 1 --only Q examples/gqa.txt", "q\n"), 1);
    assert_out_has("用到：x₀ = [1,1]，Wq第2列 = [1,0]\nQ[0][2] = ");
    assert_int_equal(practice("--head 1 --only K,V examples/gqa.txt", "q\n"), 1);
    assert_out_has("得分：0/12");
    assert_int_equal(practice("--lang en --head 1 --only K,V examples/gqa.txt", "q\n"), 1);
    assert_out_has("score: 0/12");
    assert_int_equal(practice("examples/sinusoidal.txt", "2\nq\n"), 1);
    assert_out_has("用到：x₀+PE₀ = [1,2]，Wq第0列 = [0.5, -0.5]\n");
    assert_out_has("这一格这样算：x₀+PE₀·Wq第0列 = 1×0.5+2×(-0.5) = -0.5；你写的是2。");
    assert_int_equal(practice("--lang en examples/sinusoidal.txt", "q\n"), 1);
    assert_out_has("made from: x₀+PE₀ = [1,2], Wq column 0 = [0.5, -0.5]\n");
    assert_int_equal(practice("--only S examples/window.txt", "q\n"), 1);
    assert_int_equal(practice("--only S --row 2 examples/window.txt", "q\n"), 1);
    assert_out_has("S[2][0] = −∞（掩码固定，已给出）");
    assert_int_equal(practice("--lang en --only S --row 2 examples/window.txt", "q\n"), 1);
    assert_out_has("S[2][0] = −∞ (fixed by the mask, given)");
}

/* What a Chinese input method types: full-width digits, point and slash (０.６７,
 * １／√２), read as check reads them in an answers file. S of F11 is [[0, −∞], [1/√2, 0]]
 * and A[1][0] is 0.6697615493 (the chapter's numbers). */
static void test_full_width_digits_and_roots_are_read_as_check_reads_them(void **state)
{
    static const struct {
        const char *args, *in, *says;
        int rc;
    } typed[] = {
        {"--only S " EX, "０\n１／√２\n０\n", "S[1][0] = １／√２\n对！", 0},
        {"--only S " EX, "０\n１／√２\n０\n", "得分：3/3", 0},
        {"--lang en --only A " EX, "１\n０．６７\n0.33\n", "A[1][0] = ０．６７\nRight.", 0},
        {"--only A " EX, "１\n０.６\nq\n", "你写的是０.６。", 1}, /* 0.6 is wrong still */
    };
    size_t k;

    (void)state;
    for (k = 0; k < sizeof typed / sizeof typed[0]; k++) {
        assert_int_equal(practice(typed[k].args, typed[k].in), typed[k].rc);
        assert_out_has(typed[k].says);
    }
    write_text("build/tests/practice-fw.txt",
               "S = [[０, -inf], [１／√２, ０]]\nA = [[１, ０], [０.６７, ０.３３]]\n");
    assert_int_equal(run("check " EX " build/tests/practice-fw.txt"), 0);
    assert_file_contains(CLI_OUT, "S：正确\nA：正确\n");
    assert_int_equal(run("check --lang en " EX " build/tests/practice-fw.txt"), 0);
    assert_file_contains(CLI_OUT, "S: right\nA: right\n");
}

/* Rounding too early, which the chapter warns against: F11's a₁ = [0.6697615493,
 * 0.3302384507] rounded to one place is [0.7, 0.3], and by hand 0.7×10 + 0.3×0 = 7, so
 * "7.0" for O[1][0] (true 6.6976154933) is named as rounding A at step three. */
static void test_rounding_too_early_is_named(void **state)
{
    (void)state;
    assert_int_equal(practice("--only O " EX, "10\n0\n7.0\nq\n"), 1);
    assert_out_has("O[1][0] = 7.0\n不对。你写的7.0，正是把A先四舍五入到1位小数再算出来的：你在第三步就把A"
                   "四舍五入了。中间的数要多留几位，到最后再四舍五入。\n这一格这样算：a₁·V第0列 = "
                   "0.6697615493×10+0.3302384507×0 ≈ 6.6976154933；你写的是7.0。");
    assert_int_equal(practice("--lang en --only O " EX, "10\n0\n7.0\nq\n"), 1);
    assert_out_has("Not right. Your 7.0 is what A rounded to 1 decimal place(s) gives: you rounded A at "
                   "step three already.");
    assert_int_equal(practice("--only O " EX, "10\n0\n6.8\nq\n"), 1); /* no rounding gives 6.8 */
    assert_file_lacks(CLI_OUT, "四舍五入");
}

/* Rounding too early in S and A, by hand on F11 (S[1][0] = 1/√2 = 0.70710678…, its
 * row [0.7071, 0], A[1][0] = e^0.7071/(e^0.7071 + 1) = 0.66976…): √2 rounded to 1.4
 * gives 1/1.4 = 0.714 and to 1.41 gives 1/1.41 = 0.7092; the row of S rounded to 1 place,
 * [0.7, 0], gives e^0.7/(e^0.7 + 1) = 2.0138/3.0138 = 0.668; the max-shifted exps
 * [1, e^-0.7071 = 0.4931] rounded to 1 place, [1, 0.5], give 1/1.5 = 0.667. Each is
 * named in both languages; 0.669, which no rounding gives, is not. */
static void test_rounding_too_early_in_s_and_a_is_named(void **state)
{
    static const struct {
        const char *args, *in, *says;
    } typed[] = {
        {"--only S " EX, "0\n0.714\nq\n",
         "S[1][0] = 0.714\n不对。你写的0.714，正是先把√d_k四舍五入成1.4再算出来的：你在第二步就四舍"
         "五入了。中间的数要多留几位，到最后再四舍五入。\n这一格这样算：1/√2 ≈ 0.7071067812；你写的"
         "是0.714。"},
        {"--lang en --only S " EX, "0\n0.7092\nq\n",
         "Not right. Your 0.7092 is what √d_k rounded to 1.41 gives: you rounded at step two "
         "already."},
        {"--only A " EX, "1\n0.668\nq\n",
         "不对。你写的0.668，正是把这一行的S先四舍五入到1位小数再做softmax得出来的：你在第三步之前"
         "就把S四舍五入了。"},
        {"--lang en --only A " EX, "1\n0.668\nq\n",
         "Not right. Your 0.668 is what this row of S rounded to 1 decimal place(s) gives through "
         "the softmax: you rounded S before step three."},
        {"--only A " EX, "1\n0.667\nq\n",
         "不对。你写的0.667，正是把e的乘方先四舍五入到1位小数再除以它们的和得出来的"},
        {"--lang en --only A " EX, "1\n0.667\nq\n",
         "Not right. Your 0.667 is what the exponentials rounded to 1 decimal place(s) give when "
         "divided by their sum"},
    };
    size_t k;

    (void)state;
    for (k = 0; k < sizeof typed / sizeof typed[0]; k++) {
        assert_int_equal(practice(typed[k].args, typed[k].in), 1);
        assert_out_has(typed[k].says);
    }
    assert_int_equal(practice("--only A " EX, "1\n0.669\nq\n"), 1);
    assert_file_lacks(CLI_OUT, "四舍五入");
}

/* RoPE's and ALiBi's own slips, by hand. tests/data/practice/rope4.txt: q1 = [1, 2, 3,
 * 4] turned at position 1, pair 0 by the angle 1 (cos 1 = 0.5403, sin 1 = 0.8415):
 * with rope: half pair 0 is numbers 0 and 2, Qr[1][0] = 1×cos 1 − 3×sin 1 = -1.9841;
 * the interleaved pair (0, 1) gives 1×cos 1 − 2×sin 1 = -1.1426, the turn the other
 * way 1×cos 1 + 3×sin 1 = 3.0647, no turn 1. examples/alibi.txt, head 0: S₀[1][0] =
 * 1/√2 − 0.0625×(1−0) = 0.6446 (the slope 2^(−8/2)); without the slope 0.7071 − 1 =
 * -0.2929, without the bias 0.7071, the sign turned round 0.7071 + 0.0625 = 0.7696. */
static void test_rope_and_alibi_slips_are_named(void **state)
{
    static const struct {
        const char *args, *in, *says;
    } typed[] = {
        {"--only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n-1.1426\nq\n",
         "不对。你写的-1.1426，是按rope: interleaved的配对转出来的；本题用的是rope: half，第0个数和"
         "第2个数才是一对。"},
        {"--lang en --only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n-1.1426\nq\n",
         "Not right. Your -1.1426 is what the pairs of rope: interleaved give; this problem uses "
         "rope: half, where numbers 0 and 2 are a pair."},
        {"--only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n3.0647\nq\n",
         "不对。你写的3.0647是往反方向转出来的，sin前面的正负号弄反了"},
        {"--lang en --only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n3.0647\nq\n",
         "Not right. Your 3.0647 is the pair turned the other way"},
        {"--only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n1\nq\n",
         "不对。你写的1还是转之前的数：RoPE要把每一对数按这个位置的角度转过去。"},
        {"--lang en --only Qr tests/data/practice/rope4.txt", "1\n0\n0\n0\n1\nq\n",
         "Not right. Your 1 is the number before the turn"},
        {"--only S --head 0 examples/alibi.txt", "0\n-0.2929\nq\n",
         "不对。你写的-0.2929，是加上−(i−j)而忘了乘坡度得出来的：ALiBi加的是−坡度×(i−j)，这个头的"
         "坡度是0.0625。"},
        {"--lang en --only S --head 0 examples/alibi.txt", "0\n-0.2929\nq\n",
         "Not right. Your -0.2929 adds −(i−j) without the slope: ALiBi adds −slope×(i−j), and this "
         "head's slope is 0.0625."},
        {"--only S --head 0 examples/alibi.txt", "0\n0.7071\nq\n",
         "不对。你写的0.7071没有加ALiBi的偏置"},
        {"--lang en --only S --head 0 examples/alibi.txt", "0\n0.7071\nq\n",
         "Not right. Your 0.7071 leaves out ALiBi's bias"},
        {"--only S --head 0 examples/alibi.txt", "0\n0.7696\nq\n",
         "不对。你写的0.7696把偏置的正负号弄反了"},
        {"--lang en --only S --head 0 examples/alibi.txt", "0\n0.7696\nq\n",
         "Not right. Your 0.7696 has the bias's sign turned round"},
    };
    size_t k;

    (void)state;
    for (k = 0; k < sizeof typed / sizeof typed[0]; k++) {
        assert_int_equal(practice(typed[k].args, typed[k].in), 1);
        assert_out_has(typed[k].says);
    }
    assert_int_equal(practice("--only S --head 0 examples/alibi.txt", "0\n0.5\nq\n"), 1);
    assert_file_lacks(CLI_OUT, "ALiBi的偏置：");
    assert_file_lacks(CLI_OUT, "坡度是");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cell_right_gives_the_full_score_and_exit_0),
        cmocka_unit_test(test_in_english),
        cmocka_unit_test(test_a_wrong_answer_gets_its_arithmetic_and_the_same_cell_again),
        cmocka_unit_test(test_each_named_mistake_made_on_purpose_is_named),
        cmocka_unit_test(test_question_mark_shows_the_answer_and_counts_it_missed),
        cmocka_unit_test(test_three_wrong_tries_show_the_answer_then_the_next_cell),
        cmocka_unit_test(test_q_stops_and_the_score_counts_what_was_left),
        cmocka_unit_test(test_end_of_input_stops_cleanly),
        cmocka_unit_test(test_what_is_not_a_number_is_said_and_not_counted),
        cmocka_unit_test(test_row_asks_the_walk_through_row),
        cmocka_unit_test(test_tol_judges_as_check_does),
        cmocka_unit_test(test_transcript_keeps_prompts_and_answers),
        cmocka_unit_test(test_a_fresh_exercise_by_seed),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_trace_step_prints_just_that_step_with_its_tables),
        cmocka_unit_test(test_on_a_terminal_each_prompt_shows_before_the_answer_is_typed),
        cmocka_unit_test(test_bias_scale_mask_and_shares_are_explained),
        cmocka_unit_test(test_every_example_is_practised),
        cmocka_unit_test(test_two_heads_each_head_then_the_output_projection),
        cmocka_unit_test(test_rope_asks_the_turned_queries_and_keys),
        cmocka_unit_test(test_alibi_bias_is_in_the_scores),
        cmocka_unit_test(test_shared_keys_positions_and_windows),
        cmocka_unit_test(test_full_width_digits_and_roots_are_read_as_check_reads_them),
        cmocka_unit_test(test_rounding_too_early_is_named),
        cmocka_unit_test(test_rounding_too_early_in_s_and_a_is_named),
        cmocka_unit_test(test_rope_and_alibi_slips_are_named),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
