/* test_angle.c: rl_angle_sincos against a 113-bit reference.
 *
 * Reference (libquadmath): m and theta are doubles, so their product p
 * has at most 106 significant bits and is exact in __float128.  2*pi is
 * taken as P1 + P2, two 113-bit pieces computed from Machin's formula
 * (pi = 16 atan(1/5) - 4 atan(1/239)) in Python integers to 400 bits;
 * their sum is within 2^-226 of 2*pi.  p - k*P1 is exact in one fmaq
 * (both lie on a 2^-110 grid for the theta used here and the difference
 * is below 4), so the reduced angle is off by |k| * 2^-226 + 2^-195,
 * which is far below an ulp even of the tiny cos and sin near multiples
 * of pi/2 that the hard cases produce (>= 2^-60 here).  cosq and sinq are
 * then within a quad ulp.  Without libquadmath the angle-addition
 * identity stands in. */
#include <math.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

#ifdef RL_HAVE_QUADMATH
/* __float128 and its Q-suffixed constants are GNU extensions. */
#pragma GCC diagnostic ignored "-Wpedantic"
#include <quadmath.h>
typedef __float128 quad;

static const quad P1 = 0x1.921fb54442d18469898cc51701b8p+2Q;
static const quad P2 = 0x1.cd129024e088a67cc74020bbea64p-113Q;

static quad reduce_q(double m, double theta)
{
  quad p = (quad)m * (quad)theta, k = roundq(p / P1);
  return fmaq(-k, P1, p) - k * P2;
}

/* |got - ref| in ulps of the double nearest ref. */
static double ulps_q(double got, quad ref)
{
  return (double)(fabsq((quad)got - ref) / (quad)tap_ulp((double)ref));
}

struct worst {
  double ulps, m, theta;
};

static void measure(double m, double theta, struct worst *wc, struct worst *ws,
                    struct worst *wr, int *bad)
{
  double c, s;
  if (rl_angle_sincos(m, theta, &c, &s) != RL_OK) {
    (*bad)++;
    return;
  }
  quad a = reduce_q(m, theta);
  double ec = ulps_q(c, cosq(a)), es = ulps_q(s, sinq(a));
  /* rl_angle_reduce may return a value 2*pi away from the reference when
   * the angle is within rounding of +-pi: compare modulo 2*pi. */
  quad r = (quad)rl_angle_reduce(m, theta), d = r - a;
  if (d > M_PIq)
    d -= 2 * M_PIq;
  else if (d < -M_PIq)
    d += 2 * M_PIq;
  double er = (double)fabsq(d);
  if (!(ec <= wc->ulps))
    *wc = (struct worst){ec, m, theta};
  if (!(es <= ws->ulps))
    *ws = (struct worst){es, m, theta};
  if (!(er <= wr->ulps))
    *wr = (struct worst){er, m, theta};
}

static void test_against_quad(const double *th, size_t nth, gsl_rng *rng)
{
  struct worst wc = {0, 0, 0}, ws = {0, 0, 0}, wr = {0, 0, 0};
  int bad = 0;
  long count = 0;
  static const double fixed[] = {
    0, 1, -1, 2, 3, 7, 100, 4096, 65535, 1e6, 123456789, 0x1p30,
    2147483647.0, -2147483647.0, RL_POS_MAX, -RL_POS_MAX, 0.5, -0.25, 1e-9,
    2147483647.5, 1234.5678, -99999.125,
  };
  for (size_t t = 0; t < nth; t++) {
    for (size_t j = 0; j < sizeof fixed / sizeof *fixed; j++, count++)
      measure(fixed[j], th[t], &wc, &ws, &wr, &bad);
    for (int j = 0; j < 600; j++, count++) {
      double u = gsl_rng_uniform(rng), m;
      switch (j % 4) {
      case 0: /* integer positions over the whole range */
        m = floor(u * RL_POS_MAX);
        break;
      case 1: /* negative integers (relative distances n - m) */
        m = -floor(u * RL_POS_MAX);
        break;
      case 2: /* non-integer, 53 significant bits */
        m = (2 * u - 1) * RL_POS_MAX;
        break;
      default: /* small positions, where most tokens are */
        m = floor(u * 65536);
        break;
      }
      measure(m, th[t], &wc, &ws, &wr, &bad);
    }
  }
  /* The hard cases: theta = fl(k*pi/(2m)) puts m*theta within about
   * m*ulp(theta) of a multiple of pi/2, where cos or sin is tiny and a
   * reduction with absolute error 2^-60 would be wrong by many ulps. */
  static const double hard_m[] = {3, 12345, 1000000007, 2147483647.0, RL_POS_MAX, -1234567891};
  for (size_t j = 0; j < sizeof hard_m / sizeof *hard_m; j++)
    for (int k = 1; k <= 4000; k++, count++) {
      double theta = (double)k * (double)(M_PIq / 2) / fabs(hard_m[j]);
      if (theta <= 1.0)
        measure(hard_m[j], theta, &wc, &ws, &wr, &bad);
    }
  tap_ok(bad == 0, "sincos accepted all %ld in-range arguments", count);
  /* The header's promise: each within 1 ulp of the exact value. */
  tap_le(wc.ulps, 1.0, "cos vs cosq over %ld (m, theta), worst at m=%.17g theta=%.17g",
         count, wc.m, wc.theta);
  tap_le(ws.ulps, 1.0, "sin vs sinq over %ld (m, theta), worst at m=%.17g theta=%.17g",
         count, ws.m, ws.theta);
  /* The header's promise for the reduction: absolute error below 2^-55. */
  tap_le(wr.ulps, 0x1p-55, "reduce vs 2^-226-accurate reduction, worst at m=%.17g theta=%.17g",
         wr.m, wr.theta);
}
#endif

/* cos((m1+m2)t) = cos(m1 t)cos(m2 t) - sin(m1 t)sin(m2 t), and likewise
 * for sin, with integer m1, m2 whose sum is exact.  Each factor is within
 * 1 ulp (<= 2^-53 for |v| <= 1), the products and the sum round three
 * times more: |error| <= 2*2^-53 + 2*2^-53 + 3*2^-54 < 6*2^-53 in the
 * product formula plus 1 ulp on the left: 7*2^-53 in all. */
static void test_addition(const double *th, size_t nth, gsl_rng *rng)
{
  double worst = 0;
  int bad = 0;
  for (size_t t = 0; t < nth; t++) {
    for (int j = 0; j < 200; j++) {
      double m1 = floor(gsl_rng_uniform(rng) * 0x1p30);
      double m2 = floor(gsl_rng_uniform(rng) * 0x1p30) - 0x1p29;
      double c1, s1, c2, s2, c, s;
      if (rl_angle_sincos(m1, th[t], &c1, &s1) || rl_angle_sincos(m2, th[t], &c2, &s2) ||
          rl_angle_sincos(m1 + m2, th[t], &c, &s)) {
        bad++;
        continue;
      }
      double ec = fabs(c - (c1 * c2 - s1 * s2)), es = fabs(s - (s1 * c2 + c1 * s2));
      worst = fmax(worst, fmax(ec, es));
    }
  }
  tap_ok(bad == 0, "addition: all positions accepted");
  tap_le(worst, 7 * 0x1p-53, "angle addition identity, m1 + m2 up to 2^30");
}

/* Why the reduction exists: at m = 2^31 - 1 the double product m*theta
 * is rounded to ulp(2^30)/2 = 2^-23 ~ 1.2e-7 rad, and cos of it inherits
 * that error times |sin|.  Over the 64 theta of d=128 the worst naive
 * error must exceed 1e-8 (the accurate one is validated above). */
static void test_naive(const double *th, size_t nth)
{
  double m = 2147483647.0, worst = 0, worst_rnd = 0;
  for (size_t t = 0; t < nth; t++) {
    double c, s;
    if (rl_angle_sincos(m, th[t], &c, &s))
      continue;
    worst = fmax(worst, fabs(cos(m * th[t]) - c));
    /* the exact rounding error of the product (fma is exact here) */
    worst_rnd = fmax(worst_rnd, fabs(fma(m, th[t], -(m * th[t]))));
  }
  tap_report(worst > 1e-8, worst, 1e-8,
             "naive cos(m*theta) at m=2^31-1 is off by more than tol (product rounding %.3g)",
             worst_rnd);
}

static void test_errors(void)
{
  struct {
    double m, theta;
    const char *what;
  } cases[] = {
    {2147483649.0, 0.5, "m = 2^31+1"},
    {-2147483649.0, 0.5, "m = -(2^31+1)"},
    {NAN, 0.5, "m = nan"},
    {INFINITY, 0.5, "m = inf"},
    {-INFINITY, 0.5, "m = -inf"},
    {1.0, NAN, "theta = nan"},
    {1.0, INFINITY, "theta = inf"},
    {1.0, 1.5, "theta = 1.5"},
  };
  for (size_t j = 0; j < sizeof cases / sizeof *cases; j++) {
    double c = 42, s = 43;
    rl_status st = rl_angle_sincos(cases[j].m, cases[j].theta, &c, &s);
    tap_ok(st == RL_ERANGE && c == 42 && s == 43, "%s -> RL_ERANGE, outputs untouched",
           cases[j].what);
  }
  double c, s;
  tap_ok(rl_angle_sincos(RL_POS_MAX, 1.0, &c, &s) == RL_OK &&
             rl_angle_sincos(-RL_POS_MAX, 1.0, &c, &s) == RL_OK,
         "m = +-2^31, theta = 1 accepted");
}

int main(void)
{
  double th[2 * 64 + 3];
  size_t nth = 0;
  const double bases[] = {10000.0, 500000.0};
  for (int b = 0; b < 2; b++) {
    rl_schedule *f;
    if (rl_schedule_rope(128, 128, bases[b], &f) != RL_OK) {
      tap_ok(0, "rl_schedule_rope(128, 128, %g)", bases[b]);
      return tap_done();
    }
    for (size_t i = 0; i < f->n; i++)
      th[nth++] = f->theta[i];
    rl_schedule_free(f);
  }
  th[nth++] = 1.0;
  th[nth++] = 0.1;
  th[nth++] = 0x1.fffffffffffffp-1;

  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20240607);
#ifdef RL_HAVE_QUADMATH
  /* the reference's 2*pi is the one libquadmath rounds, plus more bits */
  tap_ok(P1 == 2 * M_PIq, "reference P1 == 2*M_PIq");
  test_against_quad(th, nth, rng);
#else
  tap_skip("libquadmath not available: no 113-bit comparison");
#endif
  test_addition(th, nth, rng);
  test_naive(th, 64);
  test_errors();
  gsl_rng_free(rng);
  return tap_done();
}
