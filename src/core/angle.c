/* angle.c: accurate m*theta mod 2*pi for positions up to 2^31.
 *
 * In double, m*theta at m = 2^31 has an ulp of 2^-22 rad (2.4e-7), so a
 * plain cos(m*theta) is wrong from the seventh digit.  Here the product of
 * the two doubles is formed without error as four partial products in
 * long double (Veltkamp splitting into 26- and 27-bit halves: each partial
 * product has at most 54 bits), and 2*pi is subtracted as four pieces
 * (Cody-Waite), the first three of 33 bits so that k*C is exact for
 * k < 2^31.  glibc's fmal and nearbyintl on x87 long double cost ~300 ns
 * and ~90 ns, which is why neither is used. */
#define _GNU_SOURCE
#include <math.h>
#include "ropelab.h"

/* 2*pi = C1 + C2 + C3 + C4 to 2^-150 (pieces of 2*pi truncated to 33 bits;
 * checked against 80 digits of pi from Machin's formula). */
static const double C1 = 0x1.921fb544p+2;
static const double C2 = 0x1.0b4611a6p-32;
static const double C3 = 0x1.3198a2ep-67;
static const double C4 = 0x1.b839a252049c1p-102;
static const double INV_2PI = 0x1.45f306dc9c883p-3;

/* Veltkamp: x = hi + lo exactly, hi with 26 significant bits. */
static void split(double x, double *hi, double *lo)
{
  double c = 134217729.0 * x; /* 2^27 + 1 */
  *hi = c - (c - x);
  *lo = x - *hi;
}

long double rl_angle_reduce(double m, double theta)
{
  double mh, ml, th, tl;
  split(m, &mh, &ml);
  split(theta, &th, &tl);
  long double hh = (long double)mh * th, hl = (long double)mh * tl;
  long double lh = (long double)ml * th, ll = (long double)ml * tl;
  /* k = nearest integer to m*theta/(2 pi); a k off by one from rounding
   * only widens the result to [-pi-eps, pi+eps], still exact enough. */
  double k = floor((double)(hh + (hl + lh)) * INV_2PI + 0.5);
  if (k == 0.0)
    return ((ll + lh) + hl) + hh;
  long double kl = k;
  /* hh - k*C1 is exact (same binade grid, small difference); later terms
   * are added smallest-last so that each rounding is below ulp(40) = 2^-58. */
  long double r = hh - kl * C1;
  r -= kl * C2;
  r += hl + lh;
  r -= kl * C3;
  r += ll;
  r -= kl * C4;
  return r;
}

rl_status rl_angle_sincos(double m, double theta, double *c, double *s)
{
  if (!isfinite(m) || fabs(m) > RL_POS_MAX || !isfinite(theta) || fabs(theta) > 1.0)
    return RL_ERANGE;
  long double a = rl_angle_reduce(m, theta), sl, cl;
  sincosl(a, &sl, &cl);
  *c = (double)cl;
  *s = (double)sl;
  return RL_OK;
}
