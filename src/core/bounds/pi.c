/* pi.c: the two bounds Chen et al. 2023 compare ("Extending Context
 * Window of Large Language Models via Positional Interpolation",
 * arXiv:2306.15595): the interpolation bound of Theorem 2.1 (eq. 5-7),
 * d max|h_j| / (32 ln c), and the extrapolation bound of RoFormer sec.
 * 3.4.3 as their eq. 8 writes it, 2 max|h_j| B(s) with
 * B(s) = sum_{k=0}^{d/2-1} |A_{k+1}(s)|, A_k(s) = sum_{j<k} e^{i s theta_j},
 * which their Appendix B plots as B(s)/d (Figure 5: d = 128, c = 10000,
 * s = 0..4095).  B(s) is RoFormer's sum of partial sums, which
 * src/core/measures/decay.c streams: its bound is (1/n) B(s) (times the
 * logit multiplier), so B(s)/d = bound / 2 with n = d/2.
 *
 * Their interpolation constant holds for RoPE's own frequencies only: the
 * proof bounds |a''| by max|h| sum_j theta_j^2 and the Lagrange remainder
 * at mid-interval by max|h| sum_j theta_j^2 / 8, then uses
 * sum_j c^(-4j/d) ~ d / (4 ln c).  Another schedule (linear: theta / s)
 * changes that sum (by 1/s^2 for linear), so for it the ratio takes the
 * sum itself: 2 B / (sum theta^2 / 8) = 16 rot (B/d) / sum theta^2. */
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"

double rl_pi_interp_denominator(double base)
{
  return (double)(32.0L * logl((long double)base));
}

double rl_pi_ratio(double b_over_d, double base)
{
  /* (2 max|h| B) / (d max|h| / (32 ln c)) = 2 (B/d) 32 ln c */
  return (double)(2.0L * (long double)b_over_d * 32.0L * logl((long double)base));
}

double rl_pi_sum_theta_sq(const rl_schedule *s)
{
  /* the exact frequency theta + theta_lo, squared and summed in long
   * double: n <= 2^31 terms of one sign, relative error below n ulp(ld) */
  long double sum = 0;
  for (size_t i = 0; i < s->n; i++) {
    long double t = (long double)s->theta[i] + (long double)s->theta_lo[i];
    sum += t * t;
  }
  return (double)sum;
}

double rl_pi_ratio_theta(double b_over_d, size_t rot, double sum_theta_sq)
{
  return (double)(16.0L * (long double)rot * (long double)b_over_d /
                  (long double)sum_theta_sq);
}

rl_status rl_pi_b_over_d(const rl_schedule *s, const rl_grid *g, size_t j0, size_t count,
                         double *sv, double *b_over_d)
{
  if (!rl_schedule_is_plain(s) || !(s->logit_mult > 0))
    return RL_EINVAL;
  rl_decay_ws *w;
  rl_status st = rl_decay_alloc(s, g, &w);
  if (st)
    return st;
  st = rl_decay_eval(w, j0, count, sv, b_over_d, NULL);
  rl_decay_free(w);
  if (st)
    return st;
  for (size_t i = 0; i < count; i++)
    b_over_d[i] = b_over_d[i] / s->logit_mult / 2.0;
  return RL_OK;
}
