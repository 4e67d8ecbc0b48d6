/* test_util.h - shared helpers for the cmocka tests. */
#ifndef ATTNSTEP_TEST_UTIL_H
#define ATTNSTEP_TEST_UTIL_H

#include <math.h>
#include <stdio.h>

/* cmocka 1.1.5 has no assert_double_equal and its assert_float_equal casts to float:
 * this compares doubles within an absolute tolerance and reports both values. */
#define assert_close(actual, expected, tol)                                            \
    do {                                                                               \
        double ac_a_ = (actual), ac_e_ = (expected), ac_t_ = (tol);                    \
        if (!(ac_a_ == ac_e_ || fabs(ac_a_ - ac_e_) <= ac_t_)) {                       \
            print_error("%s = %.17g, expected %.17g (tolerance %g)\n", #actual, ac_a_, \
                        ac_e_, ac_t_);                                                 \
            fail();                                                                    \
        }                                                                              \
    } while (0)

/* err holds an error at line:col whose message holds msg and whose hint holds hint
 * (include after <cmocka.h>, with attnstep/error.h). */
#define assert_error_is(err, line_, col_, msg_, hint_)                                   \
    do {                                                                               \
        const as_error *ae_e_ = (err);                                                 \
        if (strstr(ae_e_->msg, (msg_)) == NULL)                                        \
            fail_msg("the message \"%s\" lacks \"%s\"", ae_e_->msg, (msg_));           \
        if (strstr(ae_e_->hint, (hint_)) == NULL)                                      \
            fail_msg("the hint \"%s\" lacks \"%s\"", ae_e_->hint, (hint_));             \
        assert_int_equal(ae_e_->line, (line_));                                        \
        assert_int_equal(ae_e_->col, (col_));                                          \
    } while (0)

#endif
