/* bench_angle_rows.c: CPU time per (cos, sin) entry of the exact table,
 * one thread: rl_angle_sincos_rows (the double-double recurrence) against
 * rl_angle_sincos2 per entry (the peer: the path before), in interleaved
 * rounds, over positions 0..N-1 (or 2^31 - N .. 2^31 - 1) and RoPE's 64
 * frequencies at d = 128 (base 10^4).  Built and run by
 * bench_angle_rows.sh; argv: positions, rounds, rows per call (as
 * `angles` passes its chunks). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ropelab.h"

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
  size_t N = argc > 1 ? (size_t)atol(argv[1]) : 100000, rounds = argc > 2 ? (size_t)atol(argv[2]) : 3;
  rl_schedule *f;
  if (rl_schedule_rope(128, 128, 10000, &f))
    return 1;
  size_t n = f->n, B = argc > 3 ? (size_t)atol(argv[3]) : 1024;
  double *c = malloc(B * n * sizeof *c), *s = malloc(B * n * sizeof *s), sink = 0;
  const double from[2] = {0, 2147483648.0 - (double)N};
  for (size_t r = 0; r < rounds; r++)
    for (int q = 0; q < 2; q++) {
      double t0 = cpu();
      for (size_t j = 0; j < N; j += B) {
        size_t k = N - j < B ? N - j : B;
        rl_angle_sincos_rows(f->theta, f->theta_lo, n, from[q] + (double)j, 1, k, c, s);
        sink += c[0] + s[n * k - 1];
      }
      double t1 = cpu();
      for (size_t j = 0; j < N; j++)
        for (size_t i = 0; i < n; i++) {
          rl_angle_sincos2(from[q] + (double)j, f->theta[i], f->theta_lo[i], &c[i], &s[i]);
          sink += c[i];
        }
      double t2 = cpu();
      printf("positions from %-10.0f %8zu x %zu: rows (recurrence, blocks of %zu) %6.2f ns/entry"
             "   per entry (rl_angle_sincos2) %7.2f ns/entry\n",
             from[q], N, n, B, 1e9 * (t1 - t0) / (double)(N * n), 1e9 * (t2 - t1) / (double)(N * n));
    }
  fprintf(stderr, "%g\n", sink);
  rl_schedule_free(f);
  return 0;
}
