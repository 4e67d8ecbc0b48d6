/* exercise_util.h - what the exercise tests share (include after <cmocka.h>). */
#ifndef ATTNSTEP_EXERCISE_UTIL_H
#define ATTNSTEP_EXERCISE_UTIL_H

#include "attnstep/exercise.h"

/* Opens the exercise file text (len bytes) into s, or fails the test with why. */
static inline void open_exercise(as_session *s, const char *text, size_t len)
{
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    if (as_exercise_open(s, text, len, &err) != 0) {
        print_error("the exercise does not run: %s\n%s\n", err.msg, text);
        fail();
    }
}

#endif
