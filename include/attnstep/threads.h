/* threads.h - the one way the program works on two threads: two jobs at once, joined
 * before returning. Every parallel part (the products, the heads of a lean run, load(),
 * JSON output) uses it, so there is one fallback when no thread can be had. */
#ifndef ATTNSTEP_THREADS_H
#define ATTNSTEP_THREADS_H

#include <stddef.h>

typedef void as_job_fn(void *arg);

/* Runs here(here_arg) on this thread and there(there_arg) on a second thread at once,
 * and returns when both are done. When no second thread can be had, both run on this
 * thread, there first: a job must not wait for the other. */
void as_two_threads(as_job_fn *here, void *here_arg, as_job_fn *there, void *there_arg);

/* Runs fn(arg, i, thread) once for every i in [0, count): this thread (thread 0) and a
 * second one (thread 1) each take the next i as they come free, so a thread on a slower
 * core takes fewer (this machine's two cores often run at different speeds). Returns
 * when all are done. Without a second thread they all run here, one after another.
 * Two calls of fn with the same thread index never overlap. */
typedef void as_each_fn(void *arg, size_t i, int thread);
void as_two_threads_each(size_t count, as_each_fn *fn, void *arg);

#endif
