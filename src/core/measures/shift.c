/* shift.c: how far the positional logits at distances past L lie from
 * those within L: each side's mean and standard deviation, and two
 * distances between the empirical distributions F (within) and G (past):
 *   Kolmogorov-Smirnov  D = sup_x |F(x) - G(x)| (Kolmogorov 1933;
 *                       Smirnov 1948, Ann. Math. Statist. 19, 279), in
 *                       [0, 1], scale-free;
 *   Wasserstein-1       W1 = integral |F(x) - G(x)| dx, which in one
 *                       dimension equals the optimal transport cost
 *                       (Vallender 1973, Theory Probab. Appl. 18, 784), in
 *                       the units of the logit: how far mass must move.
 * Both walk the two sorted samples once. */
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double rl_ks_distance(const double *a, size_t na, const double *b, size_t nb)
{
  size_t i = 0, j = 0;
  double d = 0;
  while (i < na && j < nb) {
    double x = a[i] < b[j] ? a[i] : b[j];
    while (i < na && a[i] == x)
      i++;
    while (j < nb && b[j] == x)
      j++;
    double g = fabs((double)i / (double)na - (double)j / (double)nb);
    if (g > d)
      d = g;
  }
  return d;
}

double rl_w1_distance(const double *a, size_t na, const double *b, size_t nb)
{
  size_t i = 0, j = 0;
  long double w = 0;
  double x = a[0] < b[0] ? a[0] : b[0];
  while (i < na || j < nb) {
    /* F, G are constant on [x, next) */
    double next = i < na && (j >= nb || a[i] <= b[j]) ? a[i] : b[j];
    w += fabsl((long double)i / na - (long double)j / nb) * ((long double)next - x);
    x = next;
    while (i < na && a[i] == x)
      i++;
    while (j < nb && b[j] == x)
      j++;
  }
  return (double)w;
}

static void moments(const double *v, size_t n, double *mean, double *sd)
{
  double m = 0, m2 = 0;
  for (size_t k = 0; k < n; k++) { /* Welford */
    double d = v[k] - m;
    m += d / (double)(k + 1);
    m2 += d * (v[k] - m);
  }
  *mean = m + 0.0;
  *sd = sqrt(m2 / (double)(n - 1));
}

rl_status rl_shift_eval(double *within, size_t nw, double *past, size_t np, rl_shift *out)
{
  if (nw < 2 || np < 2)
    return RL_EINVAL;
  qsort(within, nw, sizeof *within, cmp_double);
  qsort(past, np, sizeof *past, cmp_double);
  moments(within, nw, &out->mean_within, &out->sd_within);
  moments(past, np, &out->mean_past, &out->sd_past);
  out->ks = rl_ks_distance(within, nw, past, np);
  out->w1 = rl_w1_distance(within, nw, past, np);
  int ok = isfinite(out->mean_within) && isfinite(out->sd_within) && isfinite(out->mean_past) &&
           isfinite(out->sd_past) && isfinite(out->w1);
  return ok ? RL_OK : RL_EOVERFLOW;
}
