/* test_rotate.c: the three implementations of y = R(m) x and the
 * properties RoFormer derives for R (section 3.2, eq. 13-16).
 *
 * Error unit: the exact rotation of a pair is (x_a c - x_b s, x_a s + x_b c);
 * with c, s within 1 ulp and two products and a sum rounded, a computed
 * component is within 3u (|x_a| + |x_b|) <= 3u sqrt2 |pair| of it,
 * u = DBL_EPSILON/2.  So per component "a few ulps" below means a bound
 * of a small multiple of DBL_EPSILON times the norm of the pair. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

#define DMAX 128
static const double EPS = DBL_EPSILON;

struct cfg {
  size_t dim, rot;
  double base;
};
static const struct cfg cfgs[] = {
  {2, 2, 10000}, {8, 8, 10000}, {128, 128, 10000}, {128, 128, 500000},
  {64, 32, 10000}, /* partial rotary, as GPT-NeoX rotary_pct = 0.5 */
  {6, 4, 100},
};
#define NCFG (sizeof cfgs / sizeof *cfgs)

static double position(gsl_rng *rng, int kind)
{
  double u = gsl_rng_uniform(rng);
  switch (kind % 3) {
  case 0: return floor(u * RL_POS_MAX);
  case 1: return -floor(u * 4096);
  default: return (2 * u - 1) * 1e6; /* non-integer */
  }
}

static void random_vec(gsl_rng *rng, size_t d, double *x)
{
  for (size_t j = 0; j < d; j++)
    x[j] = 2 * gsl_rng_uniform(rng) - 1;
}

/* max over pairs of |y1 - y2| / |pair of x|, in units of DBL_EPSILON;
 * tail dimensions must match exactly (inf otherwise). */
static double pair_err(const rl_schedule *f, rl_layout L, const double *x, const double *y1,
                       const double *y2)
{
  double worst = 0;
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(L, f->rot, i, &a, &b);
    double nx = hypot(x[a], x[b]);
    double e = fmax(fabs(y1[a] - y2[a]), fabs(y1[b] - y2[b]));
    worst = fmax(worst, nx > 0 ? e / nx / EPS : (e > 0 ? HUGE_VAL : 0));
  }
  for (size_t j = f->rot; j < f->dim; j++)
    if (y1[j] != y2[j])
      worst = HUGE_VAL;
  return worst;
}

/* An independent reference for small positions: m = k/8 with |k| <= 512
 * has 10 bits, so m*theta is exact in long double (64 bits), and cosl,
 * sinl of an argument below 64 are far more accurate than a double ulp.
 * The rotated pair is then formed in long double.  Bound: 3u sqrt2 |pair|
 * (see the top) = 2.13 eps |pair|. */
static double ref_err(const rl_schedule *f, rl_layout L, double m, const double *x,
                      const double *y)
{
  double worst = 0;
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(L, f->rot, i, &a, &b);
    long double ang = (long double)m * ((long double)f->theta[i] + f->theta_lo[i]), c = cosl(ang), s = sinl(ang);
    long double ya = x[a] * c - x[b] * s, yb = x[a] * s + x[b] * c;
    double nx = hypot(x[a], x[b]);
    double e = (double)fmaxl(fabsl(y[a] - ya), fabsl(y[b] - yb));
    worst = fmax(worst, nx > 0 ? e / nx / EPS : 0);
  }
  return worst;
}

static void test_reference(gsl_rng *rng)
{
  double x[DMAX], y[DMAX];
  for (size_t k = 0; k < NCFG; k++) {
    rl_schedule *f;
    if (rl_schedule_rope(cfgs[k].dim, cfgs[k].rot, cfgs[k].base, &f))
      continue;
    for (int L = 0; L < 2; L++) {
      double worst = 0;
      for (int t = 0; t < 200; t++) {
        double m = floor(gsl_rng_uniform(rng) * 1025 - 512) / 8;
        random_vec(rng, f->dim, x);
        rl_rope_apply_elementwise(f, (rl_layout)L, m, x, y);
        worst = fmax(worst, ref_err(f, (rl_layout)L, m, x, y));
      }
      tap_le(worst, 2.13, "d=%zu r=%zu layout %d: vs long double cosl/sinl, |m| <= 64 "
             "(eps * |pair|)", f->dim, f->rot, L);
    }
    rl_schedule_free(f);
  }
}

static void test_agree(gsl_rng *rng)
{
  double x[DMAX], y1[DMAX], y2[DMAX], y3[DMAX], y4[DMAX], ws[DMAX * DMAX];
  for (size_t k = 0; k < NCFG; k++) {
    rl_schedule *f;
    if (rl_schedule_rope(cfgs[k].dim, cfgs[k].rot, cfgs[k].base, &f)) {
      tap_ok(0, "rl_schedule_rope(%zu, %zu, %g)", cfgs[k].dim, cfgs[k].rot, cfgs[k].base);
      continue;
    }
    for (int L = 0; L < 2; L++) {
      double emat = 0, ecx = 0, ealias = 0, etail = 0;
      int bad = 0;
      for (int t = 0; t < 300; t++) {
        double m = position(rng, t);
        random_vec(rng, f->dim, x);
        bad |= rl_rope_apply_matrix(f, (rl_layout)L, m, x, y1, ws);
        bad |= rl_rope_apply_elementwise(f, (rl_layout)L, m, x, y2);
        bad |= rl_rope_apply_complex(f, (rl_layout)L, m, x, y3);
        emat = fmax(emat, pair_err(f, (rl_layout)L, x, y1, y2));
        ecx = fmax(ecx, pair_err(f, (rl_layout)L, x, y3, y2));
        /* in place (x and y alias) gives the same numbers */
        memcpy(y4, x, f->dim * sizeof *x);
        bad |= rl_rope_apply_elementwise(f, (rl_layout)L, m, y4, y4);
        ealias = fmax(ealias, pair_err(f, (rl_layout)L, x, y4, y2));
        memcpy(y4, x, f->dim * sizeof *x);
        bad |= rl_rope_apply_complex(f, (rl_layout)L, m, y4, y4);
        ealias = fmax(ealias, pair_err(f, (rl_layout)L, x, y4, y3));
        for (size_t j = f->rot; j < f->dim; j++)
          etail = fmax(etail, fmax(fabs(y1[j] - x[j]), fabs(y2[j] - x[j])));
      }
      const char *ln = L ? "half" : "interleaved";
      tap_ok(!bad, "d=%zu r=%zu %s: all positions accepted", f->dim, f->rot, ln);
      /* same c, s and the same two products: at most 2 * 3u sqrt2 apart */
      tap_le(emat, 4.0, "d=%zu r=%zu %s: matrix vs elementwise (eps * |pair|)", f->dim,
             f->rot, ln);
      tap_le(ecx, 4.0, "d=%zu r=%zu %s: complex vs elementwise (eps * |pair|)", f->dim,
             f->rot, ln);
      tap_le(ealias, 0.0, "d=%zu r=%zu %s: in place == out of place", f->dim, f->rot, ln);
      tap_le(etail, 0.0, "d=%zu r=%zu %s: pass-through dims unchanged", f->dim, f->rot, ln);
    }
    rl_schedule_free(f);
  }
}

/* d = 2, theta = 1: R(m) (1, 0) = (cos m, sin m), R(m) (0, 1) = (-sin m, cos m).
 * Values of cos and sin at 1 and 2 from Abramowitz & Stegun table 4.6
 * (20 digits), the double nearest each within 0.5 ulp; 1 ulp allowed. */
static void test_hand(void)
{
  static const double cos1 = 0.54030230586813971740, sin1 = 0.84147098480789650665;
  static const double cos2 = -0.41614683654714238700, sin2 = 0.90929742682568169540;
  rl_schedule *f;
  if (rl_schedule_rope(2, 2, 10000, &f)) {
    tap_ok(0, "rl_schedule_rope(2, 2)");
    return;
  }
  double e1[2] = {1, 0}, e2[2] = {0, 1}, y[2], R[4];
  for (int L = 0; L < 2; L++) {
    rl_rope_apply_elementwise(f, (rl_layout)L, 1.0, e1, y);
    tap_le(fmax(tap_ulps(y[0], cos1), tap_ulps(y[1], sin1)), 1.0,
           "d=2 layout %d: R(1) (1,0) = (cos 1, sin 1) in ulps", L);
    rl_rope_apply_complex(f, (rl_layout)L, 1.0, e2, y);
    tap_le(fmax(tap_ulps(y[0], -sin1), tap_ulps(y[1], cos1)), 1.0,
           "d=2 layout %d: R(1) (0,1) = (-sin 1, cos 1) in ulps", L);
    rl_rope_apply_matrix(f, (rl_layout)L, 2.0, e1, y, R);
    tap_le(fmax(tap_ulps(y[0], cos2), tap_ulps(y[1], sin2)), 1.0,
           "d=2 layout %d: R(2) (1,0) = (cos 2, sin 2) in ulps", L);
    rl_rope_matrix(f, (rl_layout)L, 1.0, R);
    tap_le(fmax(fmax(tap_ulps(R[0], cos1), tap_ulps(R[1], -sin1)),
                fmax(tap_ulps(R[2], sin1), tap_ulps(R[3], cos1))),
           1.0, "d=2 layout %d: R(1) = [cos -sin; sin cos] (RoFormer eq. 13)", L);
  }
  double c, s;
  rl_rope_cossin(f, -1.0, &c, &s);
  tap_le(fmax(tap_ulps(c, cos1), tap_ulps(s, -sin1)), 1.0, "cossin(m=-1) = (cos 1, -sin 1)");
  rl_schedule_free(f);
}

static long double dotl(size_t d, const double *a, const double *b)
{
  long double s = 0;
  for (size_t j = 0; j < d; j++)
    s += (long double)a[j] * b[j];
  return s;
}

static void test_properties(gsl_rng *rng)
{
  double q[DMAX], k[DMAX], a[DMAX], b[DMAX], c[DMAX], R[DMAX * DMAX], P[DMAX * DMAX];
  for (size_t ci = 0; ci < NCFG; ci++) {
    rl_schedule *f;
    if (rl_schedule_rope(cfgs[ci].dim, cfgs[ci].rot, cfgs[ci].base, &f))
      continue;
    size_t d = f->dim;
    for (int L = 0; L < 2; L++) {
      double enorm = 0, ecomp = 0, erel = 0, eorth = 0;
      for (int t = 0; t < 200; t++) {
        /* integers below 2^30, so that m + n and n - m are exact */
        double m = floor(gsl_rng_uniform(rng) * 0x1p30) * (t % 2 ? 1 : 1.0 / 0x1p20);
        double n = floor(gsl_rng_uniform(rng) * 0x1p30) * (t % 2 ? 1 : 1.0 / 0x1p20);
        m = t % 2 ? m : floor(m);
        n = t % 2 ? n : floor(n);
        random_vec(rng, d, q);
        random_vec(rng, d, k);
        /* norm preservation (rotation): norms summed in long double, so
         * only the components' 3u sqrt2 each matters: relative <= 3u sqrt2 */
        rl_rope_apply_elementwise(f, (rl_layout)L, m, q, a);
        double r = (double)(sqrtl(dotl(d, a, a)) / sqrtl(dotl(d, q, q)));
        enorm = fmax(enorm, fabs(r - 1) / EPS);
        /* R_m R_n = R_{m+n}: two rotations vs one, 3 errors of 3u sqrt2 |pair| */
        rl_rope_apply_complex(f, (rl_layout)L, n, q, b);
        rl_rope_apply_complex(f, (rl_layout)L, m, b, b);
        rl_rope_apply_complex(f, (rl_layout)L, m + n, q, c);
        ecomp = fmax(ecomp, pair_err(f, (rl_layout)L, q, b, c));
        /* RoFormer eq. 16: <R_m q, R_n k> = <q, R_{n-m} k>.  The dot
         * products are in long double; each side carries the rotated
         * vectors' errors, 3u sqrt2 |pair| per component, so the two
         * differ by at most ~ 2 * 3u sqrt2 * 2 |q| |k|: measured in
         * units of eps |q| |k|. */
        rl_rope_apply_elementwise(f, (rl_layout)L, m, q, a);
        rl_rope_apply_elementwise(f, (rl_layout)L, n, k, b);
        rl_rope_apply_elementwise(f, (rl_layout)L, n - m, k, c);
        double lhs = (double)dotl(d, a, b), rhs = (double)dotl(d, q, c);
        double scale = (double)sqrtl(dotl(d, q, q) * dotl(d, k, k));
        erel = fmax(erel, fabs(lhs - rhs) / scale / EPS);
      }
      /* R^T R = I: entries c^2 + s^2 - 1 and c s - s c; with c, s within
       * 1 ulp and dgemm's rounding, |.| <= 2(2u) + 2u = 6u = 3 eps. */
      for (int t = 0; t < 20; t++) {
        double m = position(rng, t);
        rl_rope_matrix(f, (rl_layout)L, m, R);
        gsl_matrix_view Rv = gsl_matrix_view_array(R, d, d), Pv = gsl_matrix_view_array(P, d, d);
        gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &Rv.matrix, &Rv.matrix, 0.0, &Pv.matrix);
        for (size_t i = 0; i < d; i++)
          for (size_t j = 0; j < d; j++)
            eorth = fmax(eorth, fabs(P[i * d + j] - (i == j)) / EPS);
      }
      const char *ln = L ? "half" : "interleaved";
      tap_le(enorm, 3.0, "d=%zu r=%zu %s: |R x| = |x| (relative, eps)", d, f->rot, ln);
      tap_le(ecomp, 8.0, "d=%zu r=%zu %s: R_m R_n x = R_{m+n} x (eps * |pair|)", d, f->rot, ln);
      tap_le(erel, 12.0, "d=%zu r=%zu %s: <R_m q, R_n k> = <q, R_{n-m} k> (eps |q||k|)", d,
             f->rot, ln);
      tap_le(eorth, 3.0, "d=%zu r=%zu %s: R^T R = I (eps)", d, f->rot, ln);
    }
    rl_schedule_free(f);
  }
}

static int untouched(const double *y, size_t d)
{
  for (size_t j = 0; j < d; j++)
    if (y[j] != 7.0)
      return 0;
  return 1;
}

static void test_errors(void)
{
  rl_schedule *f;
  if (rl_schedule_rope(8, 8, 10000, &f))
    return;
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[64], ws[64];
  const double bad_m[] = {2147483649.0, -2147483649.0, NAN, INFINITY};
  for (size_t j = 0; j < 4; j++) {
    int ok = 1;
    for (int L = 0; L < 2; L++) {
      for (int v = 0; v < 64; v++)
        y[v] = 7.0;
      ok &= rl_rope_matrix(f, (rl_layout)L, bad_m[j], y) == RL_ERANGE && untouched(y, 64);
      ok &= rl_rope_apply_matrix(f, (rl_layout)L, bad_m[j], x, y, ws) == RL_ERANGE &&
            untouched(y, 8);
      ok &= rl_rope_apply_elementwise(f, (rl_layout)L, bad_m[j], x, y) == RL_ERANGE &&
            untouched(y, 8);
      ok &= rl_rope_apply_complex(f, (rl_layout)L, bad_m[j], x, y) == RL_ERANGE &&
            untouched(y, 8);
      ok &= rl_rope_cossin(f, bad_m[j], y, y + 4) == RL_ERANGE && untouched(y, 8);
    }
    tap_ok(ok, "m = %g: every rotation -> RL_ERANGE, outputs untouched", bad_m[j]);
  }
  /* a schedule from elsewhere with a frequency past the accurate range */
  f->theta[3] = 1.5;
  for (int v = 0; v < 8; v++)
    y[v] = 7.0;
  tap_ok(rl_rope_apply_elementwise(f, RL_LAYOUT_HALF, 1.0, x, y) == RL_ERANGE &&
             untouched(y, 8),
         "theta_3 = 1.5 -> RL_ERANGE before any output is written");
  f->theta[3] = 0.001;
  tap_ok(rl_rope_apply_complex(f, RL_LAYOUT_HALF, RL_POS_MAX, x, y) == RL_OK,
         "m = 2^31 accepted");
  rl_schedule_free(f);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 31337);
  test_hand();
  test_agree(rng);
  test_reference(rng);
  test_properties(rng);
  test_errors();
  gsl_rng_free(rng);
  return tap_done();
}
