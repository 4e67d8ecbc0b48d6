/* test_error.c - the error record: the first error wins, with its own hint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "attnstep/error.h"

static void test_the_first_error_keeps_its_message_and_its_hint(void **state)
{
    as_error e;

    (void)state;
    as_error_clear(&e);
    as_error_set(&e, "a.txt", 3, 7, "first %s", "problem");
    as_error_hint(&e, "the first hint");
    as_error_set(&e, "b.txt", 9, 1, "second problem");
    as_error_hint(&e, "the second hint"); /* belongs to the dropped error */
    assert_string_equal(e.file, "a.txt");
    assert_int_equal(e.line, 3);
    assert_int_equal(e.col, 7);
    assert_string_equal(e.msg, "first problem");
    assert_string_equal(e.hint, "the first hint");
}

static void test_a_first_error_without_hint_gets_none_from_a_later_one(void **state)
{
    as_error e;

    (void)state;
    as_error_clear(&e);
    as_error_set(&e, "a.txt", 1, 1, "first");
    as_error_set(&e, "a.txt", 2, 1, "second");
    as_error_hint(&e, "a hint for the second");
    assert_string_equal(e.msg, "first");
    assert_string_equal(e.hint, "");
}

static void test_a_cleared_record_takes_a_new_error_and_hint(void **state)
{
    as_error e;

    (void)state;
    as_error_clear(&e);
    as_error_set(&e, "a.txt", 1, 1, "first");
    as_error_set(&e, "a.txt", 2, 1, "second");
    as_error_clear(&e);
    as_error_set(&e, "c.txt", 5, 2, "third");
    as_error_hint(&e, "its hint");
    assert_string_equal(e.msg, "third");
    assert_string_equal(e.hint, "its hint");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_first_error_keeps_its_message_and_its_hint),
        cmocka_unit_test(test_a_first_error_without_hint_gets_none_from_a_later_one),
        cmocka_unit_test(test_a_cleared_record_takes_a_new_error_and_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
