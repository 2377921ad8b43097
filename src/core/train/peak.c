/* peak.c: the trainer's yardstick (ropelab/train.h): the FLOP rate of
 * this build's CBLAS dgemm (sgemm for float32) on square matrices, on one or more threads at
 * once, so that a training run's achieved FLOP/s can be stated against
 * what the same library reaches on the same machine under the same load. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "layers.h"
#include "ropelab.h"
#include "../base/internal.h"

/* The kernels differ in their order of the sums, so a seed's run is the
 * same bits only under the same core type (OPENBLAS_CORETYPE). */
const char *rl_train_blas_core(void) { return rl_blas_core(); }
const char *rl_train_blas_name(void) { return rl_blas_name(); }

struct peak_job {
  size_t n;
  int f32;
  double seconds, flops;
  int ok;
};

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *peak_run(void *arg)
{
  struct peak_job *j = arg;
  size_t n = j->n;
  double *a = j->f32 ? NULL : malloc(3 * n * n * sizeof *a);
  float *s = j->f32 ? malloc(3 * n * n * sizeof *s) : NULL;
  if (!a && !s)
    return NULL;
  for (size_t i = 0; i < 3 * n * n; i++) {
    /* exact, bounded: no overflow however often */
    if (a)
      a[i] = (double)(i % 7) * 0.125 - 0.375;
    else
      s[i] = (float)(i % 7) * 0.125f - 0.375f;
  }
  double t0 = mono(), per = 2.0 * (double)n * (double)n * (double)n;
  do {
    if (a)
      rl_blas_dgemm(CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n,
                    a + n * n, (int)n, 0.0, a + 2 * n * n, (int)n);
    else
      rl_blas_sgemm(CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, s, (int)n,
                    s + n * n, (int)n, 0.0f, s + 2 * n * n, (int)n);
    j->flops += per;
  } while (mono() - t0 < j->seconds);
  free(a), free(s);
  j->ok = 1;
  return NULL;
}

double rl_train_peak_flops(size_t n, size_t threads, double seconds)
{
  return rl_train_peak_flops_dtype(n, threads, seconds, RL_TDTYPE_FLOAT64);
}

double rl_train_peak_flops_dtype(size_t n, size_t threads, double seconds, int dtype)
{
  struct peak_job jobs[64];
  pthread_t tid[64];
  int started[64] = {0};
  if (!n || !threads || threads > 64)
    return 0.0;
  rl_blas_load(); /* before the threads start (base/internal.h, base/blas.c) */
  double t0 = mono();
  for (size_t t = 0; t < threads; t++)
    jobs[t] = (struct peak_job){n, dtype == RL_TDTYPE_FLOAT32, seconds, 0.0, 0};
  for (size_t t = 1; t < threads; t++)
    started[t] = !pthread_create(&tid[t], NULL, peak_run, &jobs[t]);
  peak_run(&jobs[0]);
  double total = 0;
  for (size_t t = 0; t < threads; t++) {
    if (t && started[t])
      pthread_join(tid[t], NULL);
    total += jobs[t].ok ? jobs[t].flops : 0.0;
  }
  double wall = mono() - t0;
  return wall > 0 ? total / wall : 0.0;
}
