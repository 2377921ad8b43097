/* test_angle_rows.c: rl_angle_sincos_rows (the double-double recurrence
 * of src/core/base/angle_rows.c) against MPFR at 200 bits: every entry
 * within 0.55 ulp of cos and sin of m (theta + theta_lo), the bound
 * angle_rows.c proves and rl_angle_sincos2 documents.  Rows run past a
 * reseed (4096 rows) at positions from 0 and up to 2^31 (the last row
 * exactly 2^31), forward and backward steps, steps of 1, 3 and 2^20, and
 * frequencies 1, 0.5, RoPE's at d = 128 (base 10^4 and 5e5) with their
 * double-double lows, and tiny ones down to 2^-40; also every entry
 * equal to rl_angle_sincos2's or within one ulp of it (both near-correct
 * roundings), and out-of-range positions refused.  Then a sample of
 * 16 random runs (8 random frequencies, positions and steps) and 4 runs
 * whose frequencies put an angle within ~1e-10 of a multiple of pi/2 at
 * one row, late after a seed (positions 10^5 to 2^31), 0.6 million
 * entries, all within 0.55 ulp of MPFR.  Without MPFR only the
 * comparison with rl_angle_sincos2 runs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"
#ifdef RL_HAVE_MPFR
#include <mpfr.h>
#endif

typedef struct run {
  double m0, step;
  size_t count;
} run;

#ifdef RL_HAVE_MPFR
/* The worst error in ulps against MPFR (200 bits) of rows c, s (count x
 * n) at m0 + j step; *above counts the entries more than half an ulp off
 * (not correctly rounded). */
static double vs_mpfr(const double *theta, const double *lo, size_t n, const run *r,
                      const double *c, const double *s, size_t *above)
{
  mpfr_t a, t, x;
  mpfr_inits2(200, a, t, x, (mpfr_ptr)0);
  double wr = 0;
  for (size_t j = 0; j < r->count; j++) {
    double m = r->m0 + (double)j * r->step;
    for (size_t i = 0; i < n; i++) {
      mpfr_set_d(a, theta[i], MPFR_RNDN);
      mpfr_add_d(a, a, lo[i], MPFR_RNDN);
      mpfr_mul_d(a, a, m, MPFR_RNDN);
      for (int k = 0; k < 2; k++) {
        double got = k ? s[j * n + i] : c[j * n + i];
        if (k)
          mpfr_sin(x, a, MPFR_RNDN);
        else
          mpfr_cos(x, a, MPFR_RNDN);
        double ex = mpfr_get_d(x, MPFR_RNDN);
        mpfr_sub_d(t, x, got, MPFR_RNDN);
        double e = fabs(mpfr_get_d(t, MPFR_RNDN)) / tap_ulp(ex);
        *above += e > 0.5;
        wr = fmax(wr, e);
      }
    }
  }
  mpfr_clears(a, t, x, (mpfr_ptr)0);
  return wr;
}

static uint64_t rng = 0x2545f4914f6cdd1du;
static double uniform(void) /* in [0, 1) (xorshift64*) */
{
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return (double)((rng * 0x2545f4914f6cdd1du) >> 11) * 0x1p-53;
}

/* A sample of runs: random frequencies (10^-8 to 1, with random
 * double-double lows) at random positions up to 2^31 and random steps,
 * each run past a reseed; and the worst places for a relative bound,
 * entries next to zero 4000 rows after a seed (below). */
static void sample(void)
{
  enum { N = 8, ROWS = 4200, RUNS = 16 };
  double theta[N], lo[N], *c = malloc(ROWS * N * sizeof *c), *s = malloc(ROWS * N * sizeof *s);
  double worst = 0;
  size_t above = 0, total = 0;
  for (int q = 0; q < RUNS; q++) {
    for (size_t i = 0; i < N; i++) {
      theta[i] = pow(10.0, -8.0 * uniform());
      lo[i] = (uniform() - 0.5) * 0x1p-53 * theta[i];
    }
    double step = q % 4 == 0 ? 1 : floor(1 + uniform() * (q % 4 == 1 ? 10 : 100000));
    double span = step * (ROWS - 1);
    run r = {floor((uniform() * 2 - 1) * (2147483648.0 - span)), q % 3 ? step : -step, ROWS};
    if (q == 0)
      r.m0 = 2147483648.0 - span; /* the last row at 2^31 */
    tap_bool(rl_angle_sincos_rows(theta, lo, N, r.m0, r.step, r.count, c, s) == RL_OK,
             "random run %d accepted", q);
    worst = fmax(worst, vs_mpfr(theta, lo, N, &r, c, s, &above));
    total += 2 * N * ROWS;
  }
  /* the worst places for a relative bound: frequencies theta_i =
   * RN(k_i (pi/2) / M), so that at row M the angle M theta_i lies within
   * about k_i 2^-53 of a multiple of pi/2 and one of cos, sin is about
   * 10^-10 (below the recompute threshold), placed 4000 rows after the
   * run's seed, where the recurrence's error is largest */
  const double Ms[4] = {100003, 10000019, 1000000007, 2147483000};
  for (int q = 0; q < 4; q++) {
    double M = Ms[q];
    for (size_t i = 0; i < N; i++) {
      long double k = floorl(M / 1.5707963267948966L * (0.9L - 0.1L * (long double)i)) - (long double)i;
      theta[i] = (double)(k * 1.5707963267948966192313216916397514L / M), lo[i] = 0;
    }
    run r = {M - 4000, 1, ROWS};
    if (r.m0 + ROWS - 1 > 2147483648.0)
      r.m0 = 2147483648.0 - (ROWS - 1);
    tap_bool(rl_angle_sincos_rows(theta, lo, N, r.m0, r.step, r.count, c, s) == RL_OK,
             "angles next to multiples of pi/2 at row %.0f accepted", M);
    worst = fmax(worst, vs_mpfr(theta, lo, N, &r, c, s, &above));
    total += 2 * N * ROWS;
  }
  tap_report(worst <= 0.55, worst, 0.55,
             "%zu sampled entries (random runs, and angles near multiples of pi/2) within "
             "0.55 ulp of MPFR (worst %.6f); %zu of them above 0.5 ulp",
             total, worst, above);
  free(c);
  free(s);
}
#endif

int main(void)
{
  enum { N = 12 };
  double theta[N], lo[N];
  /* RoPE d = 128 base 1e4, pairs 0, 1, 17, 63, as double-doubles from
   * the schedule; then fixed extremes */
  rl_schedule *f = tap_rope(128, 128, 10000);
  rl_schedule *g = tap_rope(128, 128, 500000);
  size_t pick[] = {0, 1, 17, 63};
  for (size_t k = 0; k < 4; k++) {
    theta[k] = f->theta[pick[k]];
    lo[k] = f->theta_lo[pick[k]];
    theta[4 + k] = g->theta[pick[k]];
    lo[4 + k] = g->theta_lo[pick[k]];
  }
  theta[8] = 1.0, lo[8] = 0;
  theta[9] = 0.5, lo[9] = 0x1p-60;
  theta[10] = 0x1p-40, lo[10] = -0x1p-95;
  theta[11] = 0.7853981633974483, lo[11] = 0; /* the double nearest pi/4: angles near k pi/2 */
  const run runs[] = {
      {0, 1, 9000},                   /* from 0, past two reseeds */
      {2147483648.0 - 8999, 1, 9000}, /* up to 2^31 exactly */
      {2147483648.0, -1, 5000},       /* backwards from 2^31 */
      {1000003, 3, 6000},
      {-1073741824.0, 1048576, 2049}, /* step 2^20, from -2^30 to 2^31 */
  };
  size_t maxc = 9000;
  double *c = malloc(maxc * N * sizeof *c), *s = malloc(maxc * N * sizeof *s);
  double worst = 0, worst_slow = 0;
  (void)worst;
  size_t mism = 0, total = 0;
#ifdef RL_HAVE_MPFR
  mpfr_t a, t, x;
  mpfr_inits2(200, a, t, x, (mpfr_ptr)0);
#endif
  for (size_t q = 0; q < sizeof runs / sizeof *runs; q++) {
    const run *r = &runs[q];
    rl_status st = rl_angle_sincos_rows(theta, lo, N, r->m0, r->step, r->count, c, s);
    tap_bool(st == RL_OK, "rows from %.17g step %g, %zu rows: status %d", r->m0, r->step,
             r->count, (int)st);
    double wr = 0;
    (void)wr;
    for (size_t j = 0; j < r->count; j++) {
      double m = r->m0 + (double)j * r->step;
      for (size_t i = 0; i < N; i++) {
        double ce, se;
        (void)rl_angle_sincos2(m, theta[i], lo[i], &ce, &se);
        double u = fmax(tap_ulps(c[j * N + i], ce), tap_ulps(s[j * N + i], se));
        worst_slow = fmax(worst_slow, u);
        mism += u != 0;
        total++;
#ifdef RL_HAVE_MPFR
        /* the exact angle: m theta + m lo, both products exact at 200 bits */
        mpfr_set_d(a, theta[i], MPFR_RNDN);
        mpfr_set_d(t, lo[i], MPFR_RNDN);
        mpfr_add(a, a, t, MPFR_RNDN);
        mpfr_mul_d(a, a, m, MPFR_RNDN);
        mpfr_cos(x, a, MPFR_RNDN);
        double ex = mpfr_get_d(x, MPFR_RNDN);
        /* error in ulps of the exact value, from the 200-bit difference */
        mpfr_sub_d(t, x, c[j * N + i], MPFR_RNDN);
        double ec = fabs(mpfr_get_d(t, MPFR_RNDN)) / tap_ulp(ex);
        mpfr_sin(x, a, MPFR_RNDN);
        ex = mpfr_get_d(x, MPFR_RNDN);
        mpfr_sub_d(t, x, s[j * N + i], MPFR_RNDN);
        double es = fabs(mpfr_get_d(t, MPFR_RNDN)) / tap_ulp(ex);
        wr = fmax(wr, fmax(ec, es));
#endif
      }
    }
#ifdef RL_HAVE_MPFR
    tap_report(wr <= 0.55, wr, 0.55, "rows from %.17g step %g: worst error against MPFR in ulps",
               r->m0, r->step);
    worst = fmax(worst, wr);
#endif
  }
  tap_report(worst_slow <= 1.0, worst_slow, 1.0,
             "every entry within 1 ulp of rl_angle_sincos2 (%zu of %zu differ)", mism, total);
#ifndef RL_HAVE_MPFR
  tap_skip("MPFR not found (Debian: libmpfr-dev): the 0.55 ulp bound is not checked");
#else
  mpfr_clears(a, t, x, (mpfr_ptr)0);
  sample();
#endif
  /* refused: past 2^31, not integers */
  double keep = c[0];
  tap_bool(rl_angle_sincos_rows(theta, lo, N, 2147483648.0, 1, 2, c, s) == RL_ERANGE &&
               rl_angle_sincos_rows(theta, lo, N, 0.5, 1, 2, c, s) == RL_ERANGE &&
               rl_angle_sincos_rows(theta, lo, N, 0, 1.5, 2, c, s) == RL_ERANGE && c[0] == keep,
           "positions past 2^31 or not integers: RL_ERANGE, nothing written");
  rl_schedule_free(f);
  rl_schedule_free(g);
  free(c);
  free(s);
  return tap_done();
}
