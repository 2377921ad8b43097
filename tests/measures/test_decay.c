/* test_decay.c: RoFormer's long-term decay bound and the similarity B_r
 * (src/core/measures/decay.c), the reference against closed forms and published
 * numbers, the streaming evaluator against the reference. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* the reference                                                       */

static void test_ref_r0(void)
{
  /* r = 0: every S_j = j, so the bound is (1/n) n(n+1)/2 = (n+1)/2, and
   * B_0 = n; the sums are of small integers, so exact. */
  size_t dims[][2] = {{2, 2}, {4, 4}, {64, 32}, {128, 128}, {256, 256}};
  for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
    rl_schedule *f = tap_rope(dims[i][0], dims[i][1], 10000);
    double n = (double)f->n;
    tap_abs_close(rl_decay_bound_ref(f, 0), (n + 1) / 2, 0.0, "ref bound(0) = (n+1)/2, d=%zu rot=%zu",
                  f->dim, f->rot);
    tap_abs_close(rl_decay_similarity_ref(f, 0), n, 0.0, "ref B_0 = n, d=%zu rot=%zu", f->dim, f->rot);
    rl_schedule_free(f);
  }
}

static void test_ref_roformer(void)
{
  /* RoFormer (Su et al. 2021), Fig. 2, d = 128, base 10000: the values
   * are those of the curve, as printed to 6 decimals by the direct numpy
   * evaluation of RoFormer's formula (experiments/bench_decay_numpy.py),
   * so half a unit of the 6th decimal is the tolerance. */
  static const struct {
    double r, bound;
  } pub[] = {{10, 17.954137}, {50, 12.629452}, {100, 10.227330}, {250, 6.548179}};
  rl_schedule *f = tap_rope(128, 128, 10000);
  for (size_t i = 0; i < sizeof pub / sizeof *pub; i++)
    tap_abs_close(rl_decay_bound_ref(f, pub[i].r), pub[i].bound, 5e-7,
                  "ref bound(%g) = RoFormer Fig. 2 value %.6f", pub[i].r, pub[i].bound);
  rl_schedule_free(f);
}

static void test_ref_small(void)
{
  static const double rs[] = {0.5, 1, 3, 10, 100, 1000, 12345, 1e6, 2147483647.0};
  /* d = 2: theta_0 = 1, S_1 = e^{ir}, so bound = 1 and B_r = cos r.
   * glibc's cos reduces any double exactly and is within 1 ulp, an
   * independent evaluation; the reference's sincos is within 1 ulp too,
   * and |S_1| = sqrt(c^2 + s^2) adds at most 2 ulp: tolerances 2 and
   * 4 DBL_EPSILON absolute (values are at most 1). */
  rl_schedule *f = tap_rope(2, 2, 10000);
  for (size_t i = 0; i < sizeof rs / sizeof *rs; i++) {
    tap_abs_close(rl_decay_bound_ref(f, rs[i]), 1.0, 4 * DBL_EPSILON, "d=2: bound(%.17g) = 1", rs[i]);
    tap_abs_close(rl_decay_similarity_ref(f, rs[i]), cos(rs[i]), 2 * DBL_EPSILON,
                  "d=2: B_%.17g = cos r", rs[i]);
  }
  rl_schedule_free(f);

  /* d = 4: theta = (1, t), t = 10000^(-1/2) = 0.01 (as the double the
   * schedule holds).  S_1 = e^{ir}, S_2 = e^{ir} + e^{irt}, so
   *   bound = (1 + |1 + e^{i r (t - 1)}|)/2 = (1 + 2 |cos(r (1 - t)/2)|)/2
   *   B_r   = cos r + cos(r t).
   * The hand formula runs in long double: r (1 - t)/2 is within 2^-64
   * relative, so its error at r <= 12345 is below 1e-15 absolute;
   * tolerance 16 DBL_EPSILON (3.6e-15) on values at most 2. */
  f = tap_rope(4, 4, 10000);
  long double t = f->theta[1];
  for (size_t i = 0; i < sizeof rs / sizeof *rs && rs[i] <= 12345; i++) {
    long double r = rs[i];
    double want = (double)((1 + 2 * fabsl(cosl(r * (1 - t) / 2))) / 2);
    tap_abs_close(rl_decay_bound_ref(f, rs[i]), want, 16 * DBL_EPSILON,
                  "d=4: bound(%g) = (1 + 2|cos(r(1-t)/2)|)/2", rs[i]);
    double bw = (double)(cosl(r) + cosl(r * t));
    tap_abs_close(rl_decay_similarity_ref(f, rs[i]), bw, 16 * DBL_EPSILON,
                  "d=4: B_%g = cos r + cos rt", rs[i]);
  }
  rl_schedule_free(f);

  /* symmetric in r: |S_j(-r)| = |conj S_j(r)|, B is even */
  f = tap_rope(128, 128, 10000);
  tap_ok(rl_decay_bound_ref(f, -777.25) == rl_decay_bound_ref(f, 777.25), "bound(-r) == bound(r)");
  tap_ok(rl_decay_similarity_ref(f, -777.25) == rl_decay_similarity_ref(f, 777.25), "B_-r == B_r");
  /* past the accurate range there is no answer: NaN, not a wrong digit */
  tap_ok(isnan(rl_decay_bound_ref(f, 3e9)), "ref bound past RL_POS_MAX is NaN");
  tap_ok(isnan(rl_decay_similarity_ref(f, NAN)), "ref similarity at NaN is NaN");
  rl_schedule_free(f);
}

/* ------------------------------------------------------------------ */
/* the streaming evaluator                                             */

/* Max relative error of the evaluator's bound against the reference
 * over rows j0.. of the grid, every `stride`-th row; the similarity is
 * compared in absolute terms relative to n (B_r crosses zero, and n is
 * the size of its terms' sum of magnitudes). */
typedef struct cmp {
  double bound_rel, sim_rel;
  int r_ok;
} cmp;

static cmp compare_ref(const rl_schedule *f, const rl_grid *g, const double *r, const double *b,
                       const double *s, size_t j0, size_t count, size_t stride)
{
  cmp c = {0, 0, 1};
  for (size_t k = 0; k < count; k += stride) {
    double x = rl_grid_at(g, j0 + k);
    if (r[k] != x)
      c.r_ok = 0;
    double want = rl_decay_bound_ref(f, x);
    double eb = fabs(b[k] - want) / want;
    double es = fabs(s[k] - rl_decay_similarity_ref(f, x)) / (double)f->n;
    if (!(eb <= c.bound_rel))
      c.bound_rel = isnan(eb) ? HUGE_VAL : eb;
    if (!(es <= c.sim_rel))
      c.sim_rel = isnan(es) ? HUGE_VAL : es;
  }
  return c;
}

/* The evaluator over a whole grid in chunks of `chunk` rows; returns
 * malloc'd r, bound, sim. */
static void eval_all(rl_decay_ws *w, size_t rows, size_t chunk, double **r, double **b, double **s)
{
  *r = malloc(rows * sizeof **r);
  *b = malloc(rows * sizeof **b);
  *s = malloc(rows * sizeof **s);
  if (!*r || !*b || !*s)
    exit(1);
  for (size_t j = 0; j < rows; j += chunk) {
    size_t m = rows - j < chunk ? rows - j : chunk;
    if (rl_decay_eval(w, j, m, *r + j, *b + j, *s + j)) {
      printf("# rl_decay_eval failed at row %zu\n", j);
      exit(1);
    }
  }
}

/* The header's promise for the streaming evaluator: relative 1e-12.
 * The fast path's phases are at most six complex products (2 ulp each)
 * from accurate values, so |S_j| is within 12 j ulp and the bound (above
 * 1 on these grids, at d = 128) within 6 (n+1) ulp = 9e-14 at n = 64, worst case:
 * 1e-12 leaves a margin of 10.  (Measured: ~1.5e-15.  A recurrence that
 * never re-seeds still stays near 2e-14 over 1e5 rows; the bitwise
 * order tests below are what catch a re-seed in the wrong place.) */
#define FAST_TOL 1e-12

static void check_grid(const char *what, const rl_schedule *f, const rl_grid *g, size_t stride)
{
  rl_decay_ws *w;
  if (rl_decay_alloc(f, g, &w)) {
    tap_ok(0, "%s: alloc", what);
    return;
  }
  double *r, *b, *s;
  eval_all(w, g->points, 10007, &r, &b, &s);
  cmp c = compare_ref(f, g, r, b, s, 0, g->points, stride);
  tap_ok(c.r_ok, "%s: r column equals rl_grid_at", what);
  tap_le(c.bound_rel, FAST_TOL, "%s: bound vs reference, relative", what);
  tap_le(c.sim_rel, FAST_TOL, "%s: similarity vs reference, relative to n", what);
  free(r);
  free(b);
  free(s);
  rl_decay_free(w);
}

static void test_fast_vs_ref(void)
{
  rl_schedule *f = tap_rope(128, 128, 10000);
  rl_grid g;
  /* every row of 0..10^5 (the fast path: exact grid) */
  rl_grid_linear(0, 1e5, 1, &g);
  tap_ok(rl_grid_is_exact(&g), "0:1:1e5 is an exact grid");
  check_grid("0:1:1e5, every row", f, &g, 1);
  /* dyadic step: exact, fast path; negative r too */
  rl_grid_linear(-1000, 20000, 0.125, &g);
  tap_ok(rl_grid_is_exact(&g), "-1000:0.125:20000 is an exact grid");
  check_grid("-1000:0.125:20000, every 3rd row", f, &g, 3);
  /* near the end of the accurate range, where naive m*theta in double
   * would be wrong from the 7th digit */
  rl_grid_linear(RL_POS_MAX - 5000, RL_POS_MAX, 1, &g);
  check_grid("2^31-5000:1:2^31", f, &g, 1);
  /* a large integer step */
  rl_grid_linear(0, 1e9, 997, &g);
  check_grid("0:997:1e9, every 13th row", f, &g, 13);
  /* partial rotary and another base */
  rl_schedule *p = tap_rope(96, 64, 500000);
  rl_grid_linear(0, 3e4, 1, &g);
  check_grid("d=96 rot=64 base=5e5 0:1:3e4", p, &g, 1);
  rl_schedule_free(p);
  /* tiny schedules (no 8-frequency kernel pass) */
  p = tap_rope(2, 2, 10000);
  rl_grid_linear(0, 5000, 1, &g);
  check_grid("d=2 0:1:5000", p, &g, 1);
  rl_schedule_free(p);
  p = tap_rope(22, 22, 10000);
  check_grid("d=22 0:1:5000", p, &g, 1);
  rl_schedule_free(p);
  /* a grid shorter than one block, and one with a huge exact step */
  rl_grid_linear(0, 5, 0.5, &g);
  check_grid("0:0.5:5 (11 rows)", f, &g, 1);
  rl_grid_linear(-RL_POS_MAX, RL_POS_MAX, 0x1p28, &g);
  check_grid("-2^31:2^28:2^31 (17 rows)", f, &g, 1);
  /* r = 0 on the fast path: T[k][0] = 1 exactly, sums of integers */
  rl_decay_ws *w;
  rl_grid_linear(0, 10, 1, &g);
  rl_decay_alloc(f, &g, &w);
  double b0 = -1, s0 = -1;
  rl_decay_eval(w, 0, 1, NULL, &b0, &s0);
  tap_abs_close(b0, 32.5, 0.0, "fast bound(0) = (n+1)/2 = 32.5 exactly (n = 64)");
  tap_abs_close(s0, 64.0, 0.0, "fast B_0 = n exactly");
  rl_decay_free(w);
  rl_schedule_free(f);
}

static void test_slow_vs_ref(void)
{
  rl_schedule *f = tap_rope(128, 128, 10000);
  rl_grid g;
  /* 0.1 is not a dyadic: the rows are not exact doubles */
  rl_grid_linear(0, 500, 0.1, &g);
  tap_ok(!rl_grid_is_exact(&g), "0:0.1:500 is not an exact grid");
  check_grid("0:0.1:500", f, &g, 1);
  /* Other grids whose rows are rounded: the recurrence runs on the exact
   * progression from + j step and turns each row by (r_j - that) theta
   * (decay.c).  Near 2^31 the rounding is up to 2^-22, which untouched
   * would be a relative error ~1e-7 in the phases: FAST_TOL catches a
   * missing or wrong turn.  Negative, non-dyadic starts; steps 1/3, 0.7. */
  rl_grid_linear(0, 1e5, 0.1, &g);
  check_grid("0:0.1:1e5, every 7th row", f, &g, 7);
  rl_grid_linear(RL_POS_MAX - 3000, RL_POS_MAX, 0.1, &g);
  check_grid("2^31-3000:0.1:2^31", f, &g, 1);
  rl_grid_linear(-1000.3, 30000, 0.7, &g);
  check_grid("-1000.3:0.7:30000, every 3rd row", f, &g, 3);
  rl_grid_linear(1.0 / 3.0, 2e4, 1.0 / 3.0, &g);
  check_grid("1/3:1/3:2e4", f, &g, 1);
  rl_grid_linear(1e9 + 0.1, 1e9 + 1e4, 0.3, &g);
  check_grid("1e9+0.1:0.3:1e9+1e4", f, &g, 1);
  rl_schedule *p = tap_rope(22, 22, 500000);
  rl_grid_linear(-50.05, 5000, 0.01, &g);
  check_grid("d=22 base=5e5 -50.05:0.01:5000, every 5th row", p, &g, 5);
  rl_schedule_free(p);
  rl_grid_log(1, 1e9, 300, &g);
  check_grid("log 1..1e9, 300 points", f, &g, 1);
  /* a last row clamped to `to` by the grid's 1e-12 slack: the grid is
   * exact but that row is off the progression, so it must come out at
   * r = to, not at from + j*step */
  rl_grid_linear(0, 1 - 1e-13, 0.125, &g);
  if (g.points == 9 && rl_grid_at(&g, 8) == 1 - 1e-13 && rl_grid_is_exact(&g)) {
    check_grid("0:0.125:1-1e-13 (clamped last row)", f, &g, 1);
    /* bound(1) and bound(1 - 1e-13) differ by ~1e-13 relative, inside
     * FAST_TOL: the row must be the reference's own, bit for bit */
    rl_decay_ws *w;
    double b = 0;
    rl_decay_alloc(f, &g, &w);
    rl_decay_eval(w, 0, 9, NULL, NULL, NULL);
    rl_decay_eval(w, 8, 1, NULL, &b, NULL);
    tap_ok(b == rl_decay_bound_ref(f, 1 - 1e-13) && b != rl_decay_bound_ref(f, 1),
           "clamped last row is bound(to), not bound(from + 8 step)");
    rl_decay_free(w);
  } else
    tap_skip("grid slack does not clamp 0:0.125:1-1e-13 here");
  rl_schedule_free(f);
}

/* bitwise equality of two evaluations of the same rows */
static int same(const double *a, const double *b, size_t count)
{
  return memcmp(a, b, count * sizeof *a) == 0;
}

static void test_order_rounded(void);

static void test_order(void)
{
  test_order_rounded();
  rl_schedule *f = tap_rope(128, 128, 10000);
  rl_grid g;
  rl_grid_linear(0, 65535, 0.125, &g); /* 524281 rows */
  size_t rows = g.points;
  rl_decay_ws *w;
  rl_decay_alloc(f, &g, &w);
  /* one call (split across threads) vs chunks of 1000 (single thread,
   * re-seeds at arbitrary places) */
  double *r1, *b1, *s1, *r2, *b2, *s2;
  eval_all(w, rows, rows, &r1, &b1, &s1);
  eval_all(w, rows, 1000, &r2, &b2, &s2);
  tap_ok(same(b1, b2, rows) && same(s1, s2, rows) && same(r1, r2, rows),
         "one call == chunks of 1000, bitwise (%zu rows)", rows);
  /* random access: random chunks in random order, each compared to the
   * sequential result */
  srand(12345);
  int ok = 1;
  double bb[700], ss[700], rr[700];
  for (int t = 0; t < 400; t++) {
    size_t j0 = (size_t)rand() % rows, m = 1 + (size_t)rand() % 700;
    if (m > rows - j0)
      m = rows - j0;
    if (rl_decay_eval(w, j0, m, rr, bb, ss) || !same(bb, b1 + j0, m) || !same(ss, s1 + j0, m) ||
        !same(rr, r1 + j0, m))
      ok = 0;
  }
  tap_ok(ok, "400 random chunks in random order == sequential, bitwise");
  /* backwards one row at a time, over a stretch with re-seeds */
  ok = 1;
  for (size_t j = 3000; j-- > 1000;) {
    double b = 0, s = 0;
    if (rl_decay_eval(w, j, 1, NULL, &b, &s) || b != b1[j] || s != s1[j])
      ok = 0;
  }
  tap_ok(ok, "rows 2999..1000 backwards one by one == sequential, bitwise");
  /* outputs may be NULL */
  tap_ok(rl_decay_eval(w, 5, 10, NULL, NULL, NULL) == RL_OK, "all outputs NULL is fine");
  /* and the reference agrees on a sample of this grid */
  cmp c = compare_ref(f, &g, r1, b1, s1, 0, rows, 4099);
  tap_le(c.bound_rel, FAST_TOL, "0:0.125:65535 sample vs reference, relative");
  free(r1);
  free(b1);
  free(s1);
  free(r2);
  free(b2);
  free(s2);
  rl_decay_free(w);
  rl_schedule_free(f);
}

static void test_errors(void)
{
  rl_schedule *f = tap_rope(128, 128, 10000);
  rl_grid g;
  rl_grid_linear(0, 99, 1, &g);
  rl_decay_ws *w = (rl_decay_ws *)1;
  tap_ok(rl_decay_alloc(NULL, &g, &w) == RL_EINVAL && w == NULL, "alloc without a schedule: EINVAL");
  tap_ok(rl_decay_alloc(f, NULL, &w) == RL_EINVAL, "alloc without a grid: EINVAL");
  rl_schedule *bad;
  rl_schedule_alloc(4, 4, &bad);
  bad->theta[0] = 2.0; /* past rl_angle_sincos's |theta| <= 1 */
  bad->theta[1] = 0.5;
  tap_ok(rl_decay_alloc(bad, &g, &w) == RL_ERANGE, "alloc with theta > 1: ERANGE");
  bad->theta[0] = NAN;
  tap_ok(rl_decay_alloc(bad, &g, &w) == RL_ERANGE, "alloc with NaN theta: ERANGE");
  rl_schedule_free(bad);
  rl_decay_alloc(f, &g, &w);
  double b[200];
  tap_ok(rl_decay_eval(w, 0, 101, NULL, b, NULL) == RL_EINVAL, "rows past the grid: EINVAL");
  tap_ok(rl_decay_eval(w, 100, 1, NULL, b, NULL) == RL_EINVAL, "j0 past the grid: EINVAL");
  tap_ok(rl_decay_eval(w, 100, 0, NULL, b, NULL) == RL_OK, "zero rows at the end: OK");
  tap_ok(rl_decay_eval(w, 1, SIZE_MAX, NULL, b, NULL) == RL_EINVAL, "count overflowing: EINVAL");
  tap_ok(rl_decay_eval(NULL, 0, 1, NULL, b, NULL) == RL_EINVAL, "no workspace: EINVAL");
  tap_ok(rl_decay_eval(w, 0, 100, NULL, b, NULL) == RL_OK, "all 100 rows: OK");
  rl_decay_free(w);
  rl_decay_free(NULL);
  tap_ok(1, "rl_decay_free(NULL) is a no-op");
  rl_schedule_free(f);
}

/* On a grid of rounded rows (step 0.1): one call (two threads), chunks
 * of 1000 and random chunks give the same bits: each row's turn depends
 * on its index alone. */
static void test_order_rounded(void)
{
  rl_schedule *f = tap_rope(64, 64, 10000);
  rl_grid g;
  rl_grid_linear(-3.3, 20000, 0.1, &g);
  size_t rows = g.points;
  rl_decay_ws *w;
  rl_decay_alloc(f, &g, &w);
  double *r1, *b1, *s1, *r2, *b2, *s2;
  eval_all(w, rows, rows, &r1, &b1, &s1);
  eval_all(w, rows, 1000, &r2, &b2, &s2);
  srand(777);
  int ok = 1;
  double bb[700], ss[700], rr[700];
  for (int t = 0; t < 200; t++) {
    size_t j0 = (size_t)rand() % rows, m = 1 + (size_t)rand() % 700;
    if (m > rows - j0)
      m = rows - j0;
    if (rl_decay_eval(w, j0, m, rr, bb, ss) || !same(bb, b1 + j0, m) || !same(ss, s1 + j0, m) ||
        !same(rr, r1 + j0, m))
      ok = 0;
  }
  tap_ok(same(b1, b2, rows) && same(s1, s2, rows) && same(r1, r2, rows) && ok,
         "-3.3:0.1:20000: one call == chunks of 1000 == 200 random chunks, bitwise");
  free(r1);
  free(b1);
  free(s1);
  free(r2);
  free(b2);
  free(s2);
  rl_decay_free(w);
  rl_schedule_free(f);
}

int main(void)
{
  test_ref_r0();
  test_ref_roformer();
  test_ref_small();
  test_fast_vs_ref();
  test_slow_vs_ref();
  test_order();
  test_errors();
  return tap_done();
}
