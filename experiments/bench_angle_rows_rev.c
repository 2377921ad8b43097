/* bench_angle_rows_rev.c: rl_angle_sincos_rows against an older
 * rl_angle_sincos_rows (old_sincos_rows, the same file at another
 * revision, renamed by bench_angle_rows_rev.sh): CPU time per (cos, sin)
 * entry on one thread, interleaved rounds, positions 0..N-1 and
 * 2^31 - N .. 2^31 - 1 in calls of ROWS rows (as `angles` makes them),
 * RoPE's 64 frequencies at d = 128 (base 10^4); then how many values the
 * two give differently.  argv: N, rounds, rows per call. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ropelab.h"

rl_status old_sincos_rows(const double *theta, const double *theta_lo, size_t n, double m0,
                          double step, size_t count, double *c, double *s);

static double cpu(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef rl_status rows_fn(const double *, const double *, size_t, double, double, size_t,
                          double *, double *);

static double time_rows(rows_fn *fn, const rl_schedule *f, double from, size_t N, size_t B,
                        double *c, double *s, double *sink)
{
  double t0 = cpu();
  for (size_t j = 0; j < N; j += B) {
    size_t k = N - j < B ? N - j : B;
    fn(f->theta, f->theta_lo, f->n, from + (double)j, 1, k, c, s);
    *sink += c[0] + s[k * f->n - 1];
  }
  return 1e9 * (cpu() - t0) / (double)(N * f->n);
}

int main(int argc, char **argv)
{
  size_t N = argc > 1 ? (size_t)atol(argv[1]) : 100000;
  size_t R = argc > 2 ? (size_t)atol(argv[2]) : 3, B = argc > 3 ? (size_t)atol(argv[3]) : 1024;
  rl_schedule *f;
  if (rl_schedule_rope(128, 128, 10000, &f))
    return 1;
  size_t n = f->n, diff = 0, total = 0;
  double *c = malloc(B * n * sizeof *c), *s = malloc(B * n * sizeof *s);
  double *c2 = malloc(B * n * sizeof *c), *s2 = malloc(B * n * sizeof *s), sink = 0;
  if (!c || !s || !c2 || !s2)
    return 1;
  for (size_t r = 0; r < R; r++)
    for (int q = 0; q < 2; q++) {
      double from = q ? 2147483648.0 - (double)N : 0;
      double tn = time_rows(rl_angle_sincos_rows, f, from, N, B, c, s, &sink);
      double to = time_rows(old_sincos_rows, f, from, N, B, c, s, &sink);
      printf("positions from %-10.0f %zu x %zu, calls of %zu rows: new %5.2f ns/entry, old %5.2f "
             "ns/entry\n", from, N, n, B, tn, to);
    }
  for (int q = 0; q < 2; q++)
    for (size_t j = 0; j < N; j += B) {
      double from = q ? 2147483648.0 - (double)N : 0;
      size_t k = N - j < B ? N - j : B;
      rl_angle_sincos_rows(f->theta, f->theta_lo, n, from + (double)j, 1, k, c, s);
      old_sincos_rows(f->theta, f->theta_lo, n, from + (double)j, 1, k, c2, s2);
      for (size_t i = 0; i < k * n; i++)
        diff += (c[i] != c2[i]) + (s[i] != s2[i]);
      total += 2 * k * n;
    }
  printf("values that differ, new against old: %zu of %zu\n", diff, total);
  fprintf(stderr, "%g\n", sink);
  free(c), free(s), free(c2), free(s2);
  rl_schedule_free(f);
  return 0;
}
