/* test_closed.c: the closed-form bounds against the numbers their papers
 * print and against formulas recomputed here in long double.
 *   Liu et al. 2023: d_extra = 92 for d 128, T 4096, base 10000 (text after
 *     eq. 13); the small-base thresholds for T 4096 quoted in the
 *     authors' README, 2608 and 652 (beta1 = 2T/pi, beta3 = T/(2 pi),
 *     rounded to integers there).
 *   Chen et al. 2023: 32 ln 10000 ~ 294.73 (eq. 7, two decimals printed);
 *     B(0)/d = 16.25 (Figure 5; (d/2)(d/2+1)/2 / d); "B(s) at least d":
 *     min over s = 0..4095 of B(s)/d >= 1, so the ratio >= 2 * 294.73.
 *   YaRN: the correction range at d 128, base 10000, L 4096, betas 32, 1
 *     from cd(b) = d ln(L / (2 pi b)) / (2 ln base), recomputed here; HF
 *     rounds it to 20 .. 46. */
#include <math.h>
#include <stdio.h>
#include "ropelab.h"
#include "tap.h"

#define PI_L 3.141592653589793238462643383279502884L

int main(void)
{
  rl_liu_result r;
  rl_status st = rl_liu_bounds(128, 10000, 4096, 4096, 10000, &r);
  tap_report(!st && r.critical_dim == 92, fabs(r.critical_dim - 92), 0, "liu d_extra 92");
  tap_report(round(r.beta1) == 2608, fabs(round(r.beta1) - 2608), 0, "liu beta1 %g", r.beta1);
  tap_report(round(r.beta3) == 652, fabs(round(r.beta3) - 652), 0, "liu beta3 %g", r.beta3);
  /* critical base for T_tune = 16384: 10000^(ln(16384/2pi)/ln(4096/2pi)) */
  st = rl_liu_bounds(128, 10000, 4096, 16384, 1e6, &r);
  long double b0 = powl(10000.0L, logl(16384 / (2 * PI_L)) / logl(4096 / (2 * PI_L)));
  tap_report(!st && tap_ulps(r.critical_base, (double)b0) <= 8, tap_ulps(r.critical_base, (double)b0),
             8, "liu critical base T_tune 16K: %.10g", r.critical_base);
  /* base 1e6 > b0: limit 2 pi 1e6^(92/128) */
  long double lim = 2 * PI_L * powl(1e6L, 92.0L / 128);
  tap_report(tap_ulps(r.extrapolation_limit, (double)lim) <= 8,
             tap_ulps(r.extrapolation_limit, (double)lim), 8, "liu limit base 1e6: %.10g",
             r.extrapolation_limit);
  tap_bool(rl_liu_bounds(128, 10000, 4096, 2048, 10000, &r) == RL_EINVAL, "T_tune < T refused");
  tap_bool(rl_liu_bounds(128, 10000, 6, 6, 10000, &r) == RL_EINVAL, "T <= 2 pi refused");

  double den = rl_pi_interp_denominator(10000);
  tap_report(fabs(den - 294.73) < 0.005, fabs(den - 294.73), 0.005, "32 ln 10000 = %.10g", den);
  rl_schedule *s = tap_rope(128, 128, 10000);
  rl_grid g;
  rl_grid_linear(0, 4095, 1, &g);
  static double sv[4096], bv[4096];
  st = rl_pi_b_over_d(s, &g, 0, g.points, sv, bv);
  tap_report(!st && bv[0] == 16.25, fabs(bv[0] - 16.25), 0, "B(0)/d = %.17g", bv[0]);
  double mn = HUGE_VAL;
  for (size_t j = 0; j < g.points; j++)
    mn = fmin(mn, bv[j]);
  tap_bool(mn >= 1, "min B(s)/d over 0..4095 = %.6g >= 1 (paper: B(s) at least d)", mn);
  tap_bool(rl_pi_ratio(mn, 10000) >= 2 * 294.73, "min ratio %.6g >= 2 * 294.73",
           rl_pi_ratio(mn, 10000));
  /* B(1)/d by direct summation in long double */
  long double sr = 0, si = 0, acc = 0;
  for (size_t k = 0; k < s->n; k++) {
    sr += cosl((long double)s->theta[k]);
    si += sinl((long double)s->theta[k]);
    acc += sqrtl(sr * sr + si * si);
  }
  tap_report(tap_ulps(bv[1], (double)(acc / 128)) <= 64, tap_ulps(bv[1], (double)(acc / 128)),
             64, "B(1)/d = %.17g against a direct sum", bv[1]);
  rl_schedule_free(s);

  double le, he, lo, hi;
  st = rl_yarn_correction_range(128, 10000, 4096, 32, 1, 1, &le, &he, &lo, &hi);
  long double l = 128 * logl(4096 / (2 * PI_L * 32)) / (2 * logl(10000.0L));
  long double h = 128 * logl(4096 / (2 * PI_L * 1)) / (2 * logl(10000.0L));
  tap_report(!st && tap_ulps(le, (double)l) <= 2 && tap_ulps(he, (double)h) <= 2,
             fmax(tap_ulps(le, (double)l), tap_ulps(he, (double)h)), 2,
             "yarn range %.17g .. %.17g", le, he);
  tap_report(lo == 20 && hi == 46, fabs(lo - 20) + fabs(hi - 46), 0, "yarn rounded 20 .. 46");
  tap_report(fabs(rl_yarn_attention_factor(16) - (0.1 * log(16) + 1)) < 4e-16, 0, 0,
             "yarn attention factor s 16");
  return tap_done();
}
