/* threads.c - two jobs at once on POSIX threads (see threads.h). */
#include "attnstep/threads.h"

#include <pthread.h>

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

    if (pthread_create(&helper, NULL, run_job, &second) != 0) {
        there(there_arg); /* no thread to be had: both here */
        here(here_arg);
        return;
    }
    here(here_arg);
    pthread_join(helper, NULL);
}
