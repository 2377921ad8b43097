/* threads.h: the worker pool of matrix and profile: a round of jobs
 * runs on up to RL_THREADS_MAX threads, the caller's thread included. */
#ifndef RL_CLI_THREADS_H
#define RL_CLI_THREADS_H

#include <stddef.h>

#define RL_THREADS_MAX 64

/* Online processors in [1, max]: the default of --threads. */
int rl_online_cpus(int max);
/* fn on each of n jobs (an array of n elements of size bytes), n <=
 * RL_THREADS_MAX: jobs 1..n-1 on new threads, job 0 on this one; a job
 * whose thread could not be created runs here afterwards.  Returns when
 * all n are done. */
void rl_threads_run(void *(*fn)(void *), void *jobs, size_t size, size_t n);

#endif
