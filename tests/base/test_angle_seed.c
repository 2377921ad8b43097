/* test_angle_seed.c: the recurrence's seeds (src/core/base/angle_seed.c,
 * private angle_impl.h) against MPFR at 256 bits: rl_angle_seed_dd's
 * double-double cos and sin of m (theta + theta_lo) within the bound its
 * comment proves, |m| 2^-115 + 2^-102 per component, and the binary128
 * seed (rl_angle_seed_quad, the path before) within |m| 2^-115 + 2^-106.
 * Angles: 10^5 random (m up to 2^31, theta in (0, 1], random lows), the
 * reduced angle at each table boundary (k + 1/2)/128 and next to it, at
 * 0, at +-pi/4 (the reduction's quadrant edge), multiples of pi/2 (m
 * times the double nearest pi/(2p)), and m = +-2^31.  The largest error
 * measured is printed in units of 2^-106. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "ropelab.h"
#include "tap.h"
#include "angle_impl.h"
#if defined RL_HAVE_MPFR && defined RL_HAVE_FLOAT128
#define SEED_TEST 1
#include <mpfr.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(void) /* in [0, 1), 53 bits (xorshift64*) */
{
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return (double)((rng * 0x2545f4914f6cdd1du) >> 11) * 0x1p-53;
}

static mpfr_t a, x, t;
static double worst_dd, worst_q; /* error / (bound), largest */
static double worst_abs_dd;      /* the evaluation's part: error - |m| 2^-115, in 2^-106 */
static size_t count;
static double worst_m, worst_th; /* where worst_dd was */

/* |h + l - v| for the 256-bit value v */
static double err_dd(double h, double l, mpfr_t v)
{
  mpfr_sub_d(t, v, h, MPFR_RNDN);
  mpfr_sub_d(t, t, l, MPFR_RNDN);
  return fabs(mpfr_get_d(t, MPFR_RNDN));
}

static void check(double m, double theta, double lo)
{
  double z[4], q[4];
  if (rl_angle_seed_dd(m, theta, lo, z))
    z[0] = z[1] = z[2] = z[3] = NAN;
  (void)rl_angle_seed_quad(m, theta, lo, q);
  mpfr_set_d(a, theta, MPFR_RNDN);
  mpfr_add_d(a, a, lo, MPFR_RNDN); /* exact at 256 bits */
  mpfr_mul_d(a, a, m, MPFR_RNDN);  /* exact */
  double mt = fabs(m) * 0x1p-115;
  for (int k = 0; k < 2; k++) {
    if (k)
      mpfr_sin(x, a, MPFR_RNDN);
    else
      mpfr_cos(x, a, MPFR_RNDN);
    double e = err_dd(z[2 * k], z[2 * k + 1], x), eq = err_dd(q[2 * k], q[2 * k + 1], x);
    if (isnan(z[2 * k]))
      e = HUGE_VAL;
    if (!(e / (mt + 0x1p-102) <= worst_dd))
      worst_dd = e / (mt + 0x1p-102), worst_m = m, worst_th = theta;
    worst_q = fmax(worst_q, eq / (mt + 0x1p-106));
    worst_abs_dd = fmax(worst_abs_dd, (e - mt) * 0x1p106);
  }
  count++;
}
#endif

int main(void)
{
#ifndef SEED_TEST
  tap_skip("MPFR (Debian: libmpfr-dev) or binary128 missing: the seeds are not checked");
  return tap_done();
#else
  mpfr_inits2(256, a, x, t, (mpfr_ptr)0);
  rl_schedule *f = tap_rope(128, 128, 10000);
  for (size_t i = 0; i < f->n; i++)
    for (int s = -1; s <= 1; s += 2) {
      check(s * 2147483648.0, f->theta[i], f->theta_lo[i]);
      check(s * 2147483647.0, f->theta[i], f->theta_lo[i]);
      check(1, f->theta[i], f->theta_lo[i]);
    }
  for (int j = 0; j < 100000; j++) {
    double m = floor(uniform() * 2147483648.0), th = 1.0 - uniform();
    double lo = (uniform() - 0.5) * 0x1p-52 * th; /* a low part below half an ulp */
    check(j % 2 ? -m : m, th, j % 3 ? lo : 0.0);
  }
  /* the reduced angle at the table's boundaries (k + 1/2)/128, one ulp
   * either side, and at the quadrant edge pi/4 */
  for (int k = -101; k <= 101; k++) {
    double b = (k + 0.5) / 128;
    if (fabs(b) > 0.7853981633974483)
      b = copysign(0.7853981633974483, b);
    for (int d = -2; d <= 2; d++) {
      double th = nextafter(b, d < 0 ? -1 : 1);
      for (int r = 0; r < abs(d); r++)
        th = nextafter(th, d < 0 ? -1 : 1);
      check(1, fabs(th), 0);
      check(th < 0 ? -1 : 1, fabs(th), 0x1p-60);
    }
  }
  check(0, 0.5, 0);
  check(1, 0x1p-40, 0);
  check(1, 0x1p-1000, 0);
  /* near multiples of pi/2: cos (or sin) of the reduced angle tiny */
  const double p2 = 1.5707963267948966; /* RN(pi/2) */
  for (double p = 1; p < 3e9; p = p * 3 + 1) {
    double th = p2 / p; /* within 2^-52 relative of pi/(2p) */
    if (th > 1)
      continue;
    for (double m = p; m <= 2147483648.0; m = m * 7 + p)
      check(m, th, 0), check(-m, th, 0);
  }
  tap_report(worst_dd <= 1.0, worst_dd, 1.0,
             "double-double seeds within |m| 2^-115 + 2^-102 of MPFR, %zu angles (cos and "
             "sin; the evaluation's part at most %.3g 2^-106; worst at m %.17g theta %.17g)",
             count, worst_abs_dd, worst_m, worst_th);
  tap_report(worst_q <= 1.0, worst_q, 1.0,
             "binary128 seeds within |m| 2^-115 + 2^-106 of MPFR, the same angles");
  rl_schedule_free(f);
  mpfr_clears(a, x, t, (mpfr_ptr)0);
  mpfr_free_cache();
  return tap_done();
#endif
}
