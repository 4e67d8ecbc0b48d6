/* test_threads.c - as_two_threads(): both jobs run, exactly once each, and are done when
 * it returns -- one call after another (the kept worker and its waking), a job that
 * itself splits in two (the worker is taken: a thread of its own), and two callers at
 * once; as_two_threads_each(): every index exactly once, the two thread indices never
 * twice at once. The expected counts are the number of calls made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "attnstep/threads.h"

/* A job that adds 1 to its own counter (each counter is only ever written by one job at
 * a time: the caller reads it after as_two_threads() returns). */
static void count(void *arg)
{
    long *n = arg;

    ++*n;
}

static void test_each_job_runs_once_per_call_many_times_in_a_row(void **state)
{
    long here = 0, there = 0;
    int i;

    (void)state;
    for (i = 0; i < 3000; i++) {
        as_two_threads(count, &here, count, &there);
        assert_int_equal(here, i + 1);
        assert_int_equal(there, i + 1);
    }
}

/* Calls after the worker has gone to sleep (it stays awake a few milliseconds). */
static void test_a_call_after_a_pause_still_runs_both_jobs(void **state)
{
    const struct timespec pause = {0, 20000000}; /* 20 ms */
    long here = 0, there = 0;
    int i;

    (void)state;
    for (i = 0; i < 5; i++) {
        nanosleep(&pause, NULL);
        as_two_threads(count, &here, count, &there);
    }
    assert_int_equal(here, 5);
    assert_int_equal(there, 5);
}

/* An outer job that splits its own work in two. */
typedef struct pair {
    long a, b;
} pair;

static void split(void *arg)
{
    pair *p = arg;

    as_two_threads(count, &p->a, count, &p->b);
}

static void test_a_job_may_split_in_two_itself(void **state)
{
    pair left = {0, 0}, right = {0, 0};
    int i;

    (void)state;
    for (i = 0; i < 500; i++)
        as_two_threads(split, &left, split, &right);
    assert_int_equal(left.a, 500);
    assert_int_equal(left.b, 500);
    assert_int_equal(right.a, 500);
    assert_int_equal(right.b, 500);
}

/* Two threads of the caller's own, each calling as_two_threads() at once. */
static void *caller(void *arg)
{
    pair *p = arg;
    int i;

    for (i = 0; i < 1000; i++)
        as_two_threads(count, &p->a, count, &p->b);
    return NULL;
}

static void test_two_callers_at_once_each_get_both_jobs_done(void **state)
{
    pair one = {0, 0}, two = {0, 0};
    pthread_t t;

    (void)state;
    assert_int_equal(pthread_create(&t, NULL, caller, &one), 0);
    caller(&two);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(one.a, 1000);
    assert_int_equal(one.b, 1000);
    assert_int_equal(two.a, 1000);
    assert_int_equal(two.b, 1000);
}

/* as_two_threads_each: per index, how often it ran; per thread index, whether a call of
 * it is under way (two at once would be an error). */
typedef struct tally {
    atomic_int ran[1000];
    atomic_int busy[2], overlaps, by_thread[2];
} tally;

static void mark(void *arg, size_t i, int thread)
{
    tally *t = arg;

    if (atomic_fetch_add(&t->busy[thread], 1) != 0)
        atomic_fetch_add(&t->overlaps, 1);
    atomic_fetch_add(&t->ran[i], 1);
    atomic_fetch_add(&t->by_thread[thread], 1);
    atomic_fetch_sub(&t->busy[thread], 1);
}

static void test_each_index_runs_exactly_once_and_a_thread_index_never_overlaps(void **state)
{
    static tally t;
    size_t count, i;

    (void)state;
    for (count = 0; count <= 1000; count += 333) {
        memset(&t, 0, sizeof t);
        as_two_threads_each(count, mark, &t);
        for (i = 0; i < count; i++)
            assert_int_equal(atomic_load(&t.ran[i]), 1);
        assert_int_equal(atomic_load(&t.overlaps), 0);
        assert_int_equal(atomic_load(&t.by_thread[0]) + atomic_load(&t.by_thread[1]), (int)count);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_job_runs_once_per_call_many_times_in_a_row),
        cmocka_unit_test(test_a_call_after_a_pause_still_runs_both_jobs),
        cmocka_unit_test(test_a_job_may_split_in_two_itself),
        cmocka_unit_test(test_two_callers_at_once_each_get_both_jobs_done),
        cmocka_unit_test(test_each_index_runs_exactly_once_and_a_thread_index_never_overlaps),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
