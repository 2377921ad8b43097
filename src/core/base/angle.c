/* angle.c: accurate m*theta mod 2*pi for positions up to 2^31.
 *
 * In double, m*theta at m = 2^31 has an ulp of 2^-22 rad (2.4e-7), so a
 * plain cos(m*theta) is wrong from the seventh digit.  Here the product of
 * the two doubles is formed without error as four partial products in
 * long double (Veltkamp splitting into 26- and 27-bit halves: each partial
 * product has at most 54 bits), and 2*pi is subtracted as four pieces
 * (Cody-Waite), the first three of 33 bits so that k*C is exact for
 * k < 2^31.  rl_angle_sincos reduces by pi/2 instead, with the same
 * pieces, and sums the terms error-free (see reduce_pio2).  glibc's fmal
 * and nearbyintl on x87 long double cost ~300 ns and ~90 ns, which is
 * why neither is used. */
#define _GNU_SOURCE
#include <math.h>
#include "ropelab.h"
#include "angle_impl.h"

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

/* Knuth's TwoSum: s + e == a + b exactly (long double, round to nearest). */
static void two_sum(long double a, long double b, long double *s, long double *e)
{
  long double t = a + b, bb = t - a;
  *e = (a - (t - bb)) + (b - bb);
  *s = t;
}

/* m*theta = k*pi/2 + (hi + lo), |hi + lo| <= pi/4 (+ rounding of k),
 * returns k mod 4.  Same exact partial products and 2*pi pieces as
 * rl_angle_reduce (a quarter of each piece is exact, so k*C/4 is exact for
 * the first three while |k| < 2^31), but the terms are accumulated with
 * TwoSum: the rounding errors of a plain long double sum (~2^-60 absolute
 * with terms up to 2^5) would be hundreds of ulps of a sin or cos near
 * zero.  Reducing by pi/2 keeps the kernel's argument where sinl and cosl
 * are accurate relative to their (possibly tiny) result. */
int rl_angle_reduce_pio2(double m, double theta, double theta_lo, long double *hi, long double *lo)
{
  double mh, ml, th, tl;
  split(m, &mh, &ml);
  split(theta, &th, &tl);
  long double hh = (long double)mh * th, hl = (long double)mh * tl;
  long double lh = (long double)ml * th, ll = (long double)ml * tl;
  double k = floor((double)(hh + (hl + lh)) * (4 * INV_2PI) + 0.5);
  long double kl = k;
  /* hh - k*C1/4 is exact: when k != 0, |hh| > 1/2, so hh (52 bits) and
   * k*C1/4 (lsb 2^-32) are both multiples of 2^-53, and their difference
   * is below 2^6: at most 59 bits. */
  /* m*theta_lo (double-double frequencies): |m theta_lo| < 2^31 ulp(theta)/2
   * <= 2^-22, so its long double rounding is below 2^-86 */
  long double terms[7] = {
    -kl * (C2 / 4), hl, lh, -kl * (C3 / 4), ll, (long double)m * theta_lo, -kl * (C4 / 4),
  };
  long double sum = hh - kl * (C1 / 4), err = 0, e;
  for (int j = 0; j < 7; j++) {
    two_sum(sum, terms[j], &sum, &e);
    err += e;
  }
  two_sum(sum, err, hi, lo);
  return (int)((long long)k & 3);
}

rl_status rl_angle_sincos(double m, double theta, double *c, double *s)
{
  return rl_angle_sincos2(m, theta, 0.0, c, s);
}

rl_status rl_angle_sincos2(double m, double theta, double theta_lo, double *c, double *s)
{
  if (!isfinite(m) || fabs(m) > RL_POS_MAX || !isfinite(theta) || fabs(theta) > 1.0 ||
      !isfinite(theta_lo) || fabs(theta_lo) > 0x1p-52)
    return RL_ERANGE;
  long double hi, lo, sx, cx;
  int q = rl_angle_reduce_pio2(m, theta, theta_lo, &hi, &lo);
  sincosl(hi, &sx, &cx);
  /* sin(hi + lo) = sin hi + lo cos hi (lo^2 is below 2^-120) */
  long double sr = sx + lo * cx, cr = cx - lo * sx;
  switch (q) {
  case 0: *c = (double)cr; *s = (double)sr; break;
  case 1: *c = (double)-sr; *s = (double)cr; break;
  case 2: *c = (double)-cr; *s = (double)-sr; break;
  default: *c = (double)sr; *s = (double)-cr; break;
  }
  return RL_OK;
}
