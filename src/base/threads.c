/* threads.c - two jobs at once on POSIX threads (see threads.h).
 *
 * The second job goes to one worker thread, started at the first call and kept for the
 * life of the program. After each job the worker stays awake for a few milliseconds,
 * looking for the next one, before it sleeps: the program's two-thread jobs come one
 * after another (the files of a load, the projections, the heads, the JSON), and a
 * thread started for each of them found the second core asleep. Measured on the 2-core
 * virtual machine of `make bench`: one 512 x 768 x 768 product on two threads ran at
 * 35-48 GFLOP/s with a new thread each time, and at 70-74 with the other core kept
 * awake. A call made while the worker is taken (a job that itself splits in two, or a
 * second caller) starts a thread of its own, as every call did before. At exit the
 * worker is told to end and joined, so that it leaves nothing behind (valgrind). */
#include "attnstep/threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define AWAKE_NS 5000000L /* how long the worker (and a waiting caller) looks before sleeping */

enum { IDLE = 1, POSTED = 2, DONE = 4, QUIT = 8 }; /* the worker's states, as bits */

typedef struct worker {
    pthread_mutex_t lock;
    pthread_cond_t posted, done; /* state became POSTED / DONE */
    atomic_int state;
    atomic_flag taken; /* a caller has the worker */
    as_job_fn *fn;
    void *arg;
    int started;
    pthread_t thread;
} worker;

static worker the_worker = {.lock = PTHREAD_MUTEX_INITIALIZER,
                            .posted = PTHREAD_COND_INITIALIZER,
                            .done = PTHREAD_COND_INITIALIZER,
                            .state = IDLE,
                            .taken = ATOMIC_FLAG_INIT};
static pthread_once_t worker_once = PTHREAD_ONCE_INIT;

static void relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)(t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/* Waits until w->state is one of the states in want (bits): looking for AWAKE_NS, then
 * asleep on cv. Returns the state. */
static int wait_for(worker *w, int want, pthread_cond_t *cv)
{
    struct timespec t0;
    unsigned i;
    int s;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 1;; i++) {
        if ((s = atomic_load_explicit(&w->state, memory_order_acquire)) & want)
            return s;
        if (i % 1024 == 0 && elapsed_ns(&t0) > AWAKE_NS)
            break;
        relax();
    }
    pthread_mutex_lock(&w->lock);
    while (!((s = atomic_load_explicit(&w->state, memory_order_acquire)) & want))
        pthread_cond_wait(cv, &w->lock);
    pthread_mutex_unlock(&w->lock);
    return s;
}

/* Sets w->state to s and wakes whoever sleeps on cv. */
static void announce(worker *w, int s, pthread_cond_t *cv)
{
    atomic_store_explicit(&w->state, s, memory_order_release);
    pthread_mutex_lock(&w->lock);
    pthread_cond_broadcast(cv);
    pthread_mutex_unlock(&w->lock);
}

static void *work(void *arg)
{
    worker *w = arg;

    while (wait_for(w, POSTED | QUIT, &w->posted) == POSTED) {
        w->fn(w->arg);
        announce(w, DONE, &w->done);
    }
    return NULL;
}

/* At exit: the worker ends and is joined, unless a job of it is still under way (a
 * thread that calls exit() while another waits for the worker): then it is left. */
static void stop_worker(void)
{
    worker *w = &the_worker;

    if (atomic_flag_test_and_set(&w->taken))
        return;
    announce(w, QUIT, &w->posted);
    pthread_join(w->thread, NULL);
}

static void start_worker(void)
{
    the_worker.started = pthread_create(&the_worker.thread, NULL, work, &the_worker) == 0;
    if (the_worker.started)
        atexit(stop_worker);
}

/* there(there_arg) on the worker while here(here_arg) runs here; 0, or -1 when the
 * worker is taken or could not be started (nothing has run then). */
static int on_worker(as_job_fn *here, void *here_arg, as_job_fn *there, void *there_arg)
{
    worker *w = &the_worker;

    if (atomic_flag_test_and_set(&w->taken))
        return -1;
    pthread_once(&worker_once, start_worker);
    if (!w->started) {
        atomic_flag_clear(&w->taken);
        return -1;
    }
    w->fn = there;
    w->arg = there_arg;
    announce(w, POSTED, &w->posted);
    here(here_arg);
    wait_for(w, DONE, &w->done);
    atomic_store_explicit(&w->state, IDLE, memory_order_relaxed);
    atomic_flag_clear(&w->taken);
    return 0;
}

typedef struct job {
    as_job_fn *fn;
    void *arg;
} job;

static void *run_job(void *arg)
{
    const job *j = arg;

    j->fn(j->arg);
    return NULL;
}

void as_two_threads(as_job_fn *here, void *here_arg, as_job_fn *there, void *there_arg)
{
    job second = {there, there_arg};
    pthread_t helper;

    if (on_worker(here, here_arg, there, there_arg) == 0)
        return;
    if (pthread_create(&helper, NULL, run_job, &second) != 0) {
        there(there_arg); /* no thread to be had: both here */
        here(here_arg);
        return;
    }
    here(here_arg);
    pthread_join(helper, NULL);
}

/* as_two_threads_each(): the shared counter and the job, and which thread this is. */
typedef struct each {
    atomic_size_t *next;
    size_t count;
    as_each_fn *fn;
    void *arg;
    int thread;
} each;

static void run_each(void *arg)
{
    const each *e = arg;
    size_t i;

    while ((i = atomic_fetch_add(e->next, 1)) < e->count)
        e->fn(e->arg, i, e->thread);
}

void as_two_threads_each(size_t count, as_each_fn *fn, void *arg)
{
    atomic_size_t next = 0;
    each here = {&next, count, fn, arg, 0}, there = {&next, count, fn, arg, 1};

    as_two_threads(run_each, &here, run_each, &there);
}
