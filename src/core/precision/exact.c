/* exact.c: the two double pipelines.
 *   exact  the mathematical quantity: each frequency is the method's
 *          formula carried as a double-double (theta + theta_lo, within
 *          ~2^-104 relative), the angle m*theta formed from it without
 *          error and reduced accurately (rl_angle_sincos2), cos and sin
 *          correctly rounded to double in practice (0.55 ulp measured).
 *   fp64   ropelab before the precision parameter: the double nearest each
 *          frequency, m*theta formed exactly from that double.  At
 *          m = 2^31 the frequency's own rounding (half an ulp) moves the
 *          angle by up to 2^31 * 2^-54 = 1.2e-7 rad. */
#include "precision_impl.h"

static rl_status fp64_init(rl_schedule *s, char *err)
{
  (void)err;
  for (size_t i = 0; i < s->n; i++)
    s->theta_lo[i] = 0;
  return RL_OK;
}

static void cossin(const rl_schedule *s, double m, double scale, double *c, double *sn)
{
  for (size_t i = 0; i < s->n; i++) {
    (void)rl_angle_sincos2(m, s->theta[i], s->theta_lo[i], &c[i], &sn[i]);
    if (scale != 1.0) {
      c[i] *= scale;
      sn[i] *= scale;
    }
  }
}

static void sincos1(const rl_schedule *s, size_t i, double m, double scale, double *c,
                    double *sn)
{
  (void)rl_angle_sincos2(m, s->theta[i], s->theta_lo[i], c, sn);
  if (scale != 1.0) {
    *c *= scale;
    *sn *= scale;
  }
}

const rl_precision rl_prec_exact = {
    "exact", "the formula's real value: double-double frequencies, accurate angles (default)",
    "the method's paper (see --method)", -1, 1, RL_DTYPE_F64, RL_DTYPE_F64, RL_DTYPE_F64, 0,
    NULL, cossin, sincos1, 0};

const rl_precision rl_prec_fp64 = {
    "fp64", "the double nearest each frequency, then exact angles (ropelab 0.1)",
    "ropelab 0.1 (theta rounded to double once)", -1, 1, RL_DTYPE_F64, RL_DTYPE_F64,
    RL_DTYPE_F64, 0, fp64_init, cossin, sincos1, 0};
