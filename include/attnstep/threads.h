/* threads.h - the one way the program works on two threads: two jobs at once, joined
 * before returning. Every parallel part (the products, the heads of a lean run, load(),
 * JSON output) uses it, so there is one fallback when no thread can be had. */
#ifndef ATTNSTEP_THREADS_H
#define ATTNSTEP_THREADS_H

typedef void as_job_fn(void *arg);

/* Runs here(here_arg) on this thread and there(there_arg) on a second thread at once,
 * and returns when both are done. When no second thread can be had, both run on this
 * thread, there first: a job must not wait for the other. */
void as_two_threads(as_job_fn *here, void *here_arg, as_job_fn *there, void *there_arg);

#endif
