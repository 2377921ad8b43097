/* angle_seed.c: e^{i m Theta} as two double-doubles, the seeds of the
 * recurrence in angle_rows.c, in ~0.1 us where binary128's sincosq takes
 * ~1 us (the seeds were half the cost of a table of 1024 rows).
 *
 * How.  rl_angle_reduce_pio2 gives m Theta = q pi/2 + x, x = hi + lo
 * (long doubles), |x| <= pi/4 + 2^-19 (its k is rounded from a double
 * estimate of m Theta without m theta_lo, each within 2^-21 or so).
 * x becomes a double-double X = xh + xl; x = K + T with K = k/128 (k the
 * integer nearest 128 xh, |k| <= 101), T = (xh - K) + xl, |T| <= tau =
 * 2^-8 (1 + 2^-44); cos and sin of T are Taylor polynomials in
 * double-double (Horner in y = T^2); cos and sin of K come from a table
 * made once with libquadmath; then cos(K + T), sin(K + T) by the
 * addition formulas in double-double, and the quadrant's signs.
 *
 * Error bound, per component (u = 2^-53, u^2 = 2^-106).  Double-doubles
 * (h, l) here always have |l| <= u |h| (they come out of TwoSum or
 * FastTwoSum).  The operations' absolute errors (round to nearest):
 *  - mul(a, b): ah bh = p + e exactly (fma); ah bl, al bh rounded within
 *    u^2 |ah bh| each, their sum within 2u^2 (1 + u) |ah bh|, e plus that
 *    sum within u (u + 2u) (1 + u) |ah bh| (|e| <= u |p|), al bl omitted
 *    (<= u^2 |ah bh|), FastTwoSum exact (|e + ...| < |p|):
 *    <= 8u^2 (1 + 3u) |ah bh| <= 8.1u^2 |a| |b|.
 *  - add(a, b): TwoSum of the highs exact; al + bl within
 *    u^2 (|ah| + |bh|); its sum with the TwoSum's low (<= u |ah + bh|)
 *    within u (u |ah + bh| + u (1 + u)(|ah| + |bh|)); the final TwoSum
 *    exact (TwoSum, not FastTwoSum: the sum of sin K cos T and
 *    cos K sin T cancels when K + T is near 0): <= 3.1u^2 (|a| + |b|).
 *  - Input: x within |m| 2^-115 + 2^-110 of the exact reduced angle
 *    (angle_impl.h); xh = RN(hi), xl = RN((hi - xh) + lo), where hi - xh
 *    is exact and the long double sum is within 2^-54 2^-64: X within
 *    2^-107 + 2^-118 of x.  k = rint(128 xh), so |xh - K| <= 2^-8 <= |xh|
 *    unless K = 0: xh - K is exact (a multiple of ulp(xh) no larger than
 *    xh; with floor(128 xh + 0.5) the sum rounds, k can be one too far
 *    and the difference needs 54 bits), and T its TwoSum with xl, exact.  cos and sin are 1-Lipschitz: the input costs
 *    |m| 2^-115 + 2^-106.8 in each component.
 *  - Truncation: the sine's first omitted term is tau^11/11! < 2^-113,
 *    the cosine's tau^12/12! < 2^-124.
 *  - Polynomials: y = mul(T, T) within 8.1u^2 tau^2.  The constants 1/n!
 *    as h = RN(1/n!), l = RN((1 - n! h)/n!) (the residual exact by fma)
 *    are within u^2 of 1/n! relative.  Horner from the innermost
 *    coefficient: each inner stage's error is multiplied by |y| <= 2^-16
 *    on the way out, so only the outer two operations count: the sine is
 *    add(T, mul(T, mul(y, H))), |H| <= 1/6, H within 3.1u^2 (1/6 + 2^-22)
 *    + u^2/6 + 2^-16 (...) < 0.75u^2, mul(y, H) within 2^-16 (8.1u^2/6 +
 *    0.75u^2 + 8.1u^2/6) < 2^-13 u^2, its product with T within 2^-20 u^2,
 *    the last add within 3.1u^2 2^-8 (1 + 2^-18): sin T within 0.013u^2
 *    + 2^-113 < 0.03u^2.  The cosine is add(1, mul(y, H')), |H'| <= 1/2,
 *    H' within 3.1u^2 (1/2 + 2^-20) + u^2/2 < 2.1u^2, mul(y, H') within
 *    2^-16 (4.1u^2 + 2.1u^2 + 4.1u^2) < 2^-12 u^2, the add within
 *    3.1u^2 (1 + 2^-17): cos T within 3.2u^2.  |cos T| <= 1,
 *    |sin T| <= 2^-8 (1 + 2^-40).
 *  - Table: sincosq within 2^-111 (glibc's ldbl-128 sin and cos, which
 *    libquadmath carries: 1-2 ulps of binary128, an ulp below 1 being at
 *    most 2^-112), split into h = RN(q) and l = RN(q - h) within 2^-107:
 *    cos K, sin K within 0.54u^2 each, |cos K| <= 1, |sin K| <= 0.72.
 *  - Addition formulas: cos(K + T) = add(mul(cK, cT), -mul(sK, sT)):
 *    mul(cK, cT) within 8.1u^2 + 0.54u^2 + 3.2u^2 = 11.84u^2;
 *    mul(sK, sT) within 2^-8 (8.1u^2 0.72 + 0.54u^2) + 0.72 0.03u^2
 *    < 0.05u^2; the add within 3.1u^2 (1 + 2^-8 + ...) < 3.2u^2:
 *    15.1u^2 in all.  sin(K + T) = add(mul(sK, cT), mul(cK, sT)):
 *    8.1u^2 0.72 + 0.54u^2 + 0.72 3.2u^2 + 0.05u^2 + 3.1u^2 (0.73) < 11u^2.
 *    Negating for the quadrant is exact.
 * So each component is within |m| 2^-115 + 2^-106.8 + 15.1u^2 <
 * |m| 2^-115 + 15.7u^2 < |m| 2^-115 + 2^-102 of cos(m Theta), sin(m Theta)
 * (the test measures 0.22 of this bound at most): angle_rows.c takes
 * |m| 2^-115 + 2^-101.  Measured against MPFR by tests/base/test_angle_rows.c
 * (rl_angle_seed_dd at 10^5 angles, k/128 boundaries, 0 and pi/4). */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include "ropelab.h"
#include "angle_impl.h"
#ifdef RL_HAVE_FLOAT128
#include <quadmath.h>

__extension__ typedef __float128 quad;

typedef struct dd {
  double h, l;
} dd;

static inline dd two_sum(double a, double b)
{
  double s = a + b, bb = s - a;
  return (dd){s, (a - (s - bb)) + (b - bb)};
}

static inline dd fast_two_sum(double a, double b)
{
  double s = a + b;
  return (dd){s, b - (s - a)};
}

static inline dd mul(dd a, dd b)
{
  double p = a.h * b.h, e = fma(a.h, b.h, -p);
  e += a.h * b.l + a.l * b.h;
  return fast_two_sum(p, e);
}

static inline dd add(dd a, dd b)
{
  dd s = two_sum(a.h, b.h);
  return two_sum(s.h, s.l + (a.l + b.l));
}

static inline dd neg(dd a)
{
  return (dd){-a.h, -a.l};
}

enum { KMAX = 104 }; /* k/128 for |k| <= 101 (|x| <= pi/4 + 2^-19), and a margin */

static dd tab_c[KMAX], tab_s[KMAX]; /* cos, sin of k/128 */
static dd sin_c[4], cos_c[5];       /* -1/3!, 1/5!, -1/7!, 1/9!; -1/2!, 1/4!, ... -1/10! */

static dd quad_dd(quad q)
{
  double h = (double)q;
  return (dd){h, (double)(q - (quad)h)};
}

/* 1/n! as h + l: the residual 1 - n! h is exact (fma), n! exact in double */
static dd inv(double nf, double sign)
{
  double h = 1.0 / nf, l = fma(-h, nf, 1.0) / nf;
  return (dd){sign * h, sign * l};
}

static void init(void)
{
  for (int k = 0; k < KMAX; k++) {
    quad s, c;
    sincosq((quad)k / 128, &s, &c);
    tab_c[k] = quad_dd(c);
    tab_s[k] = quad_dd(s);
  }
  double f = 1.0;
  for (int n = 1; n <= 10; n++) {
    f *= n;
    double sign = (n / 2) % 2 ? -1.0 : 1.0; /* -1 for 2, 3, 6, 7, 10 */
    if (n >= 3 && n % 2)
      sin_c[(n - 3) / 2] = inv(f, sign);
    else if (n >= 2 && !(n % 2))
      cos_c[(n - 2) / 2] = inv(f, sign);
  }
}

int rl_angle_seed_dd(double m, double theta, double theta_lo, double out[4])
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init);
  long double hi, lo;
  int q = rl_angle_reduce_pio2(m, theta, theta_lo, &hi, &lo);
  double xh = (double)hi, xl = (double)((hi - (long double)xh) + lo);
  double kd = rint(xh * 128); /* exact: floor(x + 0.5) can round x + 0.5 up */
  int k = (int)kd, ka = k < 0 ? -k : k;
  if (ka >= KMAX) /* not reached (|x| <= pi/4 + 2^-19): the caller seeds in binary128 */
    return -1;
  dd T = two_sum(xh - kd / 128, xl);
  dd y = mul(T, T);
  dd hs = sin_c[3], hc = cos_c[4];
  for (int j = 2; j >= 0; j--)
    hs = add(sin_c[j], mul(y, hs));
  for (int j = 3; j >= 0; j--)
    hc = add(cos_c[j], mul(y, hc));
  dd st = add(T, mul(T, mul(y, hs)));
  dd ct = add((dd){1.0, 0.0}, mul(y, hc));
  dd ck = tab_c[ka], sk = k < 0 ? neg(tab_s[ka]) : tab_s[ka];
  dd c = add(mul(ck, ct), neg(mul(sk, st)));
  dd s = add(mul(sk, ct), mul(ck, st));
  dd cr, sr;
  switch (q) {
  case 0: cr = c; sr = s; break;
  case 1: cr = neg(s); sr = c; break;
  case 2: cr = neg(c); sr = neg(s); break;
  default: cr = s; sr = neg(c); break;
  }
  out[0] = cr.h, out[1] = cr.l, out[2] = sr.h, out[3] = sr.l;
  return 0;
}

int rl_angle_seed_quad(double m, double theta, double theta_lo, double out[4])
{
  long double hi, lo;
  int q = rl_angle_reduce_pio2(m, theta, theta_lo, &hi, &lo);
  quad x = (quad)hi + (quad)lo, sq, cq, cr, sr;
  sincosq(x, &sq, &cq);
  switch (q) {
  case 0: cr = cq; sr = sq; break;
  case 1: cr = -sq; sr = cq; break;
  case 2: cr = -cq; sr = -sq; break;
  default: cr = sq; sr = -cq; break;
  }
  dd c = quad_dd(cr), s = quad_dd(sr);
  out[0] = c.h, out[1] = c.l, out[2] = s.h, out[3] = s.l;
  return 0;
}
#endif
