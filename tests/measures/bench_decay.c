/* bench_decay.c: time rl_decay_eval over ROWS rows r = 0, STEP, ..,
 * (ROWS-1) STEP (d = 128, base 10000, STEP 1 unless told otherwise) and
 * verify a few rows against the reference.
 *
 * usage: bench_decay [ROWS [DIM [BASE [OUT [STEP]]]]]   (OUT "-": none)
 * Prints "seconds" (wall), "cpu_seconds" (both threads), "rows_per_s",
 * "checked" lines on stdout; with OUT
 * also writes the bound of every row as raw doubles (native byte order)
 * for experiments/bench_decay.sh to compare with numpy.  Memory stays
 * O(chunk + n) however many rows: rows are evaluated in chunks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ropelab.h"

enum { CHUNK = 1 << 16 };

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  size_t rows = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
  size_t dim = argc > 2 ? strtoul(argv[2], NULL, 10) : 128;
  double base = argc > 3 ? strtod(argv[3], NULL) : 10000.0;
  const char *outpath = argc > 4 && strcmp(argv[4], "-") ? argv[4] : NULL;
  double step = argc > 5 ? strtod(argv[5], NULL) : 1.0;
  if (rows < 1) {
    fprintf(stderr, "bench_decay: row count must be positive: '%s'\n", argv[1]);
    return 2;
  }
  rl_schedule *f;
  rl_grid g;
  rl_decay_ws *w;
  rl_status st = rl_schedule_rope(dim, dim, base, &f);
  if (!st)
    st = rl_grid_linear(0, (double)(rows - 1) * step, step, &g);
  if (!st && g.points != rows)
    st = RL_EINVAL;
  if (!st)
    st = rl_decay_alloc(f, &g, &w);
  if (st) {
    fprintf(stderr, "bench_decay: setup failed: %s\n", rl_strerror(st));
    return 2;
  }
  double *bound = malloc(CHUNK * sizeof *bound), *sim = malloc(CHUNK * sizeof *sim);
  FILE *out = outpath ? fopen(outpath, "wb") : NULL;
  if (!bound || !sim || (outpath && !out)) {
    fprintf(stderr, "bench_decay: cannot allocate or open '%s'\n", outpath ? outpath : "");
    return 2;
  }
  /* rows to verify: the first, a few spread out, the last */
  size_t probe[] = {0, 1, 63, 64, 255, 256, 12345, rows / 2 + 7, rows - 1};
  size_t nprobe = sizeof probe / sizeof *probe;
  double probed[sizeof probe / sizeof *probe];
  double elapsed = 0;
  clock_t c0 = clock();
  for (size_t j0 = 0; j0 < rows; j0 += CHUNK) {
    size_t m = rows - j0 < CHUNK ? rows - j0 : CHUNK;
    double t0 = now();
    st = rl_decay_eval(w, j0, m, NULL, bound, sim);
    elapsed += now() - t0;
    if (st) {
      fprintf(stderr, "bench_decay: evaluation failed: %s\n", rl_strerror(st));
      return 2;
    }
    for (size_t p = 0; p < nprobe; p++)
      if (probe[p] >= j0 && probe[p] < j0 + m)
        probed[p] = bound[probe[p] - j0];
    if (out && fwrite(bound, sizeof *bound, m, out) != m) {
      fprintf(stderr, "bench_decay: cannot write '%s'\n", outpath);
      return 2;
    }
  }
  if (out && fclose(out)) {
    fprintf(stderr, "bench_decay: cannot write '%s'\n", outpath);
    return 2;
  }
  /* the header's promise for the fast path: relative 1e-12 */
  int bad = 0;
  for (size_t p = 0; p < nprobe; p++) {
    if (probe[p] >= rows)
      continue;
    double ref = rl_decay_bound_ref(f, rl_grid_at(&g, probe[p]));
    double rel = fabs(probed[p] - ref) / ref;
    if (!(rel <= 1e-12)) {
      fprintf(stderr, "bench_decay: row %zu off by %.3g relative\n", probe[p], rel);
      bad = 1;
    }
  }
  double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  printf("rows %zu\nseconds %.6f\ncpu_seconds %.6f\nrows_per_s %.4g\nchecked %s\n", rows,
         elapsed, cpu, (double)rows / elapsed, bad ? "FAIL" : "ok");
  free(bound);
  free(sim);
  rl_decay_free(w);
  rl_schedule_free(f);
  return bad;
}
