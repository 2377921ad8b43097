/* threads.c: see threads.h. */
#include <pthread.h>
#include <unistd.h>
#include "threads.h"

int rl_online_cpus(int max)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > max ? max : (int)n;
}

void rl_threads_run(void *(*fn)(void *), void *jobs, size_t size, size_t n)
{
  char *job = jobs;
  pthread_t tid[RL_THREADS_MAX];
  size_t started = 0;
  for (size_t t = 1; t < n; t++, started++)
    if (pthread_create(&tid[t], NULL, fn, job + t * size))
      break;
  fn(job);
  for (size_t t = 1; t <= started; t++)
    pthread_join(tid[t], NULL);
  for (size_t t = started + 1; t < n; t++) /* threads that did not start */
    fn(job + t * size);
}
