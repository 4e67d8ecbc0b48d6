/* test_block_teach.c - the whole block of SPEC §15 in the commands that teach (issue 31):
 * `run`'s text, `trace`'s walk through each norm, the residual and the FFN, `check`'s
 * grading and named convention mistakes, `practice`, and the commands that do not follow
 * the block yet refusing it in words (never the lone layer's numbers passed off as the
 * block's). Expected numbers are worked by hand in the comments, or are PyTorch's
 * float64 references (tests/data/block/, made by make_block.py; no Python here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define CLI_OUT "build/tests/block_teach.out"
#define CLI_ERR "build/tests/block_teach.err"
#include "cli_util.h"
#include "test_util.h"

#define PRE "examples/block-pre-gelu.txt"
#define POST "examples/block-f11-post-rms.txt"

/* ---- what does not follow the block yet says so ---- */

static void test_decode_refuses_a_block_at_its_setting(void **state)
{
    (void)state;
    assert_int_equal(run("decode " PRE), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, "block-pre-gelu.txt:12:1: 错误：decode还不能逐个生成整个块");
    assert_file_contains(ERR, "  提示：");
    assert_int_equal(run("decode --lang en " POST), 2);
    assert_file_contains(ERR, "error: decode does not yet generate through a whole block");
}

static void test_grad_refuses_a_block_rather_than_the_lone_layers_gradient(void **state)
{
    (void)state;
    write_text("build/tests/block_teach_grad.txt", "loss: sum\nblock: post\nnorm: rms\nffn: none\n"
               "X = [[1, 1], [1, -1]]\nWq = [[0.5, 0.5], [-0.5, 0.5]]\n"
               "Wk = [[0.5, 0.5], [0.5, -0.5]]\nWv = [[5, 10], [5, -10]]\n");
    assert_int_equal(run("grad --lang en build/tests/block_teach_grad.txt"), 2);
    assert_stdout_empty();
    assert_file_contains(ERR, "block_teach_grad.txt:2:1: error: grad does not yet take the "
                              "gradient through a whole block");
    assert_file_contains(ERR, "  hint: leave the block: line out");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_refuses_a_block_at_its_setting),
        cmocka_unit_test(test_grad_refuses_a_block_rather_than_the_lone_layers_gradient),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
