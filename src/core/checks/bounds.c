/* bounds.c: the published bounds (src/core/bounds) against the numbers
 * their papers print.  These checks use the papers' configurations
 * (d = 128, base 10000), not the user's schedule: they guard the bound
 * code itself. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "ropelab.h"
#include "check_impl.h"

/* Liu et al. 2023, eq. 13 and the text after it: d_extra = 92 for
 * LLaMA2 (d 128, T_train 4096, base 10000). */
static rl_status liu_critical_dim(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  rl_liu_result r;
  rl_status st = rl_liu_bounds(128, 10000, 4096, 4096, 10000, &r);
  if (st)
    return st;
  rl_check_set(res, fabs(r.critical_dim - 92), 0);
  snprintf(res->detail, sizeof res->detail, "d 128, L 4096, base 10000: critical_dim %g (paper: 92)",
           r.critical_dim);
  return RL_OK;
}

/* Chen et al. 2023, eq. 7: 32 ln 10000 = 294.73089190323784755... (50
 * digits by Python's decimal); the double nearest is what we want, to 2
 * ulp (one rounding of logl, one of the product to double). */
static rl_status pi_constant(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  const double want = 294.73089190323784755;
  double got = rl_pi_interp_denominator(10000);
  double ulp = want * DBL_EPSILON;
  rl_check_set(res, fabs(got - want) / ulp, 2);
  snprintf(res->detail, sizeof res->detail, "32 ln 10000 = %.17g, %g ulp from 294.730891903237848",
           got, fabs(got - want) / ulp);
  return RL_OK;
}

/* B(0)/d = (1/d) sum_{k=1}^{d/2} k = (d/2 + 1)/4 = 16.25 for d = 128
 * (every A_k(0) = k): exact in doubles. */
static rl_status pi_b0(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  rl_schedule *s;
  rl_status st = rl_schedule_rope(128, 128, 10000, &s);
  if (st)
    return st;
  rl_grid g;
  double sv, v;
  if (!(st = rl_grid_linear(0, 0, 1, &g)))
    st = rl_pi_b_over_d(s, &g, 0, 1, &sv, &v);
  rl_schedule_free(s);
  if (st)
    return st;
  rl_check_set(res, fabs(v - 16.25) / (16.25 * DBL_EPSILON), 4);
  snprintf(res->detail, sizeof res->detail, "d 128: B(0)/d = %.17g (paper: 16.25), %g ulp", v,
           fabs(v - 16.25) / (16.25 * DBL_EPSILON));
  return RL_OK;
}

/* Men et al. 2024 at L = 1024, d = 128: the base found by the staged
 * search is feasible and its previous grid point is not, each re-tested
 * here by the plain feasibility test (a second path: no remembered r);
 * error = number of the two statements that fail. */
static rl_status men_margin(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  rl_men_params mp;
  rl_men_params_default(&mp);
  double L = 1024;
  rl_men_result r;
  rl_status st = rl_men_bases(&mp, &L, 1, 1, NULL, NULL, &r, NULL);
  if (st)
    return st;
  rl_schedule *a, *b;
  if ((st = rl_schedule_rope(128, 128, r.base, &a)))
    return st;
  if ((st = rl_schedule_rope(128, 128, r.previous_base, &b))) {
    rl_schedule_free(a);
    return st;
  }
  double fa, fb;
  if (!(st = rl_men_feasible(a, L, &fa)))
    st = rl_men_feasible(b, L, &fb);
  rl_schedule_free(a);
  rl_schedule_free(b);
  if (st)
    return st;
  int bad = (fa < L) + (fb >= L) + (fb != r.previous_first_fail);
  rl_check_set(res, bad, 0);
  snprintf(res->detail, sizeof res->detail,
           "L 1024: base %.9g feasible (first fail %g = L), previous %.9g fails at r = %g",
           r.base, fa, r.previous_base, fb);
  return RL_OK;
}

const rl_check rl_checks_bounds[] = {
  {"liu_critical_dim", "Liu et al. 2023 eq. 13: critical dimension 92 at d 128, L 4096, base 10000", liu_critical_dim},
  {"pi_interp_constant", "Chen et al. 2023 eq. 7: 32 ln 10000 = 294.7309 to 2 ulp", pi_constant},
  {"pi_b0_over_d", "Chen et al. 2023 Fig. 5: B(0)/d = 16.25 at d 128", pi_b0},
  {"men_base_margin", "Men et al. 2024, L 1024: the base found is feasible, the grid point below is not", men_margin},
  {NULL, NULL, NULL},
};
