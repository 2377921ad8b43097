/* liu.c: the critical dimension, critical base and extrapolation limit of
 * Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation"
 * (arXiv:2310.05209, ICLR 2024): eq. 13 and Theorem 3, eq. 16a-16d, as
 * the authors restate them in github.com/OpenLMLab/scaling-rope README.
 * Their base 10000 is the pre-training base (`base` here), d the rotated
 * dimensions.  Logarithms in long double; the ceilings then act on
 * values that are not within 1e-15 of an integer for any published
 * configuration (d_extra/2 = 45.03 for d 128, L 4096, base 10000). */
#include <float.h>
#include <math.h>
#include "ropelab.h"

#define TWO_PI_L 6.283185307179586476925286766559005768L

/* 2 ceil((d/2) log_beta(T / 2 pi)), clamped to [0, d] */
static double crit_dim(size_t d, long double beta, long double T)
{
  long double h = (long double)d / 2 * logl(T / TWO_PI_L) / logl(beta);
  long double c = 2 * ceill(h);
  if (c < 0)
    c = 0;
  if (c > (long double)d)
    c = (long double)d;
  return (double)c;
}

rl_status rl_liu_bounds(size_t rot, double base, double train_len, double tune_len,
                        double tune_base, rl_liu_result *out)
{
  if (rot < 2 || rot % 2 || !isfinite(base) || !(base > 1) || !isfinite(tune_base) ||
      !(tune_base > 1) || !isfinite(train_len) || !((long double)train_len > TWO_PI_L) ||
      !isfinite(tune_len) || !(tune_len >= train_len))
    return RL_EINVAL;
  long double T = train_len, Tt = tune_len, b = base, bt = tune_base;
  out->critical_dim = crit_dim(rot, b, T);                              /* eq. 13 */
  long double b0 = powl(b, logl(Tt / TWO_PI_L) / logl(T / TWO_PI_L)); /* eq. 16a */
  out->critical_base = (double)b0;
  if (bt > b0) { /* eq. 16b */
    out->extrapolation_limit =
        (double)(TWO_PI_L * powl(bt, (long double)out->critical_dim / (long double)rot));
    out->critical_dim_tuned = out->critical_dim;
  } else { /* eq. 16c */
    out->extrapolation_limit = tune_len;
    out->critical_dim_tuned = crit_dim(rot, bt, Tt);
  }
  out->beta1 = (double)(2 * Tt / (TWO_PI_L / 2)); /* eq. 16d */
  out->beta2 = (double)(Tt / (TWO_PI_L / 2));
  out->beta3 = (double)(Tt / TWO_PI_L);
  return RL_OK;
}

double rl_liu_tune_len_max(double train_len, double base)
{
  /* 1e300 once gave critical_base = inf with exit 0 */
  long double lim = TWO_PI_L * expl(logl(DBL_MAX) * logl(train_len / TWO_PI_L) / logl(base));
  if (lim > (long double)DBL_MAX * 0.78L) /* pi/4 = 0.785... */
    lim = (long double)DBL_MAX * 0.78L;
  return (double)lim * (1 - 0x1p-40);
}
