/* angle_rows.c: cos and sin of m (theta_i + theta_lo_i) over an
 * arithmetic progression of positions m = m0 + j step, for whole tables
 * (`angles`), at a few ns an entry where rl_angle_sincos2 takes ~160 ns.
 *
 * How.  Per pair, the phase z_j = e^{i (m0 + j step) Theta} (Theta =
 * theta + theta_lo) is a complex double-double; z_{j+1} = z_j w with
 * w = e^{i step Theta}.  Every RESEED rows, and at the start, z is seeded
 * from the exact angle: rl_angle_reduce_pio2 (angle.c) reduces it by
 * pi/2 without error but for the long double product m theta_lo, and
 * rl_angle_seed_dd (angle_seed.c) evaluates cos and sin of the reduced
 * angle in double-double.  w is computed the same way at m = step.  The
 * output is the high double of each component, i.e. the double nearest
 * the double-double value.
 *
 * Error bound (u = 2^-53; every magnitude below is at most 1 + 2^-60).
 *  - Seed at m (one component), proven in angle_seed.c:
 *      e_seed(m) <= |m| 2^-115 + 2^-101
 *    (the sincosq seed used before was within |m| 2^-115 + 2^-106).
 *  - One step, real part a c - b d (a = ah + al, c = ch + cl, ...; the
 *    lows at most 2^-52): ah ch and bh dh exactly as a product and its
 *    fma remainder, their difference exactly by TwoSum; the four cross
 *    products (each <= 2^-52, rounded within 2^-105) summed by three
 *    additions of magnitude <= 2^-50 (within 2^-103 each): 2^-101; the
 *    remainders, the TwoSum's low part and that sum, three additions of
 *    magnitude <= 2^-49 (2^-102 each): 2^-100.4; al cl and bl dl omitted:
 *    2^-103; the final TwoSum exact.  So eta <= 2^-99.5 per component,
 *    2^-99 for the complex value; the imaginary part a d + b c the same.
 *  - Propagation: with z_j = z*_j + D_j and w = w* + W (|z*| = |w*| = 1),
 *    |D_{j+1}| <= |D_j| (1 + |W|) + |W| + eta, so after J steps from a
 *    seed at m_s, |D_J| <= (sqrt2 e_seed(m_s) + J (sqrt2 e_seed(step) +
 *    2^-99)) (1 + |W|)^J < 1.001 (...) =: E for J <= 2^20 (|W| < 2^-80).
 *  - Rounding: hi = RN(v) with |v - x| <= E for the exact value x, so
 *    |hi - x| <= ulp(x)/2 + E (a binade edge between v and x makes hi
 *    that edge, within E of x).  ulp(x) >= 2^-53 |x| >= 2^-54 |hi| when
 *    E is this small, so E <= 0.05 2^-54 |hi| keeps 0.55 ulp, as
 *    rl_angle_sincos2 (angle.c).  An entry whose |hi| is below
 *    20 2^54 E (~2^-25 at m = 2^31; a fraction ~2^-24 of the entries)
 *    is recomputed by rl_angle_sincos2, cos and sin both.
 * Tested against MPFR at positions up to 2^31 and frequencies from 1
 * down to 2^-40 (tests/base/test_angle_rows.c). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"
#include "angle_impl.h"

enum { RESEED = 4096 }; /* rows per seed at most (a seed costs ~0.1 us) */

static int is_int(double x)
{
  return isfinite(x) && x == floor(x);
}

static rl_status rows_slow(const double *theta, const double *theta_lo, size_t n, double m0,
                           double step, size_t count, double *c, double *s)
{
  for (size_t j = 0; j < count; j++)
    for (size_t i = 0; i < n; i++) {
      rl_status st = rl_angle_sincos2(m0 + (double)j * step, theta[i],
                                      theta_lo ? theta_lo[i] : 0.0, &c[j * n + i],
                                      &s[j * n + i]);
      if (st)
        return st;
    }
  return RL_OK;
}

#ifdef RL_HAVE_FLOAT128
/* e^{i m Theta} as two double-doubles (the seed above): angle_seed.c's
 * double-double evaluation, or sincosq if its table cannot take the
 * angle (not reached) */
static void seed(double m, double theta, double theta_lo, double *ch, double *cl, double *sh,
                 double *sl)
{
  double z[4];
  if (rl_angle_seed_dd(m, theta, theta_lo, z))
    (void)rl_angle_seed_quad(m, theta, theta_lo, z);
  *ch = z[0], *cl = z[1], *sh = z[2], *sl = z[3];
}

/* The loop is vectorised with FMA where the CPU has AVX2 and FMA (chosen
 * once at run time; target_clones' "arch=haswell" tests the CPU model,
 * not its features), else plain (libm's fma, exact, slower). */
#if defined(__x86_64__) && defined(__GNUC__)
#define RL_ROWS_DISPATCH 1
#endif

/* One row: c, s = the high parts of z, z *= w; returns nonzero if an
 * entry of the row is below thr in magnitude (then recomputed), a flag
 * or-ed in the same vector loop. */
static inline __attribute__((always_inline)) int step_body(size_t n, double *restrict zrh, double *restrict zrl,
                            double *restrict zih, double *restrict zil,
                            const double *restrict wrh, const double *restrict wrl,
                            const double *restrict wih, const double *restrict wil,
                            double *restrict c, double *restrict s, double thr)
{
  int low = 0;
  for (size_t i = 0; i < n; i++) {
    double a = zrh[i], al = zrl[i], b = zih[i], bl = zil[i];
    double ch = wrh[i], cl = wrl[i], dh = wih[i], dl = wil[i];
    c[i] = a;
    s[i] = b;
    low |= !(fabs(a) >= thr) | !(fabs(b) >= thr);
    /* real: a c - b d */
    double p1 = a * ch, e1 = fma(a, ch, -p1), p2 = b * dh, e2 = fma(b, dh, -p2);
    double s1 = p1 - p2, bb = s1 - p1, t1 = (p1 - (s1 - bb)) + (-p2 - bb);
    double g = (a * cl + al * ch) - (b * dl + bl * dh);
    double u = ((t1 + e1) - e2) + g;
    double r = s1 + u, rb = r - s1;
    zrl[i] = (s1 - (r - rb)) + (u - rb);
    zrh[i] = r;
    /* imaginary: a d + b c */
    double p3 = a * dh, e3 = fma(a, dh, -p3), p4 = b * ch, e4 = fma(b, ch, -p4);
    double s2 = p3 + p4, cc = s2 - p3, t2 = (p3 - (s2 - cc)) + (p4 - cc);
    double g2 = (a * dl + al * dh) + (b * cl + bl * ch);
    double u2 = ((t2 + e3) + e4) + g2;
    double y = s2 + u2, yb = y - s2;
    zil[i] = (s2 - (y - yb)) + (u2 - yb);
    zih[i] = y;
  }
  return low;
}

#define STEP_ARGS size_t n, double *restrict zrh, double *restrict zrl, double *restrict zih, \
    double *restrict zil, const double *restrict wrh, const double *restrict wrl,              \
    const double *restrict wih, const double *restrict wil, double *restrict c,                \
    double *restrict s, double thr
#define STEP_PASS n, zrh, zrl, zih, zil, wrh, wrl, wih, wil, c, s, thr

static int step_plain(STEP_ARGS)
{
  return step_body(STEP_PASS);
}

#ifdef RL_ROWS_DISPATCH
__attribute__((target("avx2,fma"))) static int step_fma(STEP_ARGS)
{
  return step_body(STEP_PASS);
}
#endif

typedef int step_fn(STEP_ARGS);

/* step_fma where the CPU has AVX2 and FMA, else step_plain */
static step_fn *step_pick(void)
{
#ifdef RL_ROWS_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return step_fma;
#endif
  return step_plain;
}
#endif

rl_status rl_angle_sincos_rows(const double *theta, const double *theta_lo, size_t n, double m0,
                               double step, size_t count, double *c, double *s)
{
  if (!count || !n)
    return RL_OK;
  double last = m0 + (double)(count - 1) * step;
  if (!is_int(m0) || !is_int(step) || fabs(m0) > RL_POS_MAX || fabs(step) > RL_POS_MAX ||
      !(fabs(last) <= RL_POS_MAX) || (double)(count - 1) > 0x1p40)
    return RL_ERANGE;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(theta[i]) || fabs(theta[i]) > 1.0 ||
        (theta_lo && (!isfinite(theta_lo[i]) || fabs(theta_lo[i]) > 0x1p-52)))
      return RL_ERANGE;
#ifndef RL_HAVE_FLOAT128
  return rows_slow(theta, theta_lo, n, m0, step, count, c, s);
#else
  double *buf = malloc(8 * n * sizeof *buf);
  if (!buf) /* no workspace: the per-entry path needs none */
    return rows_slow(theta, theta_lo, n, m0, step, count, c, s);
  double *zrh = buf, *zrl = buf + n, *zih = buf + 2 * n, *zil = buf + 3 * n;
  double *wrh = buf + 4 * n, *wrl = buf + 5 * n, *wih = buf + 6 * n, *wil = buf + 7 * n;
  for (size_t i = 0; i < n; i++)
    seed(step, theta[i], theta_lo ? theta_lo[i] : 0.0, &wrh[i], &wrl[i], &wih[i], &wil[i]);
  double e_step = M_SQRT2 * (fabs(step) * 0x1p-115 + 0x1p-101) + 0x1p-99;
  step_fn *step_row = step_pick();
  for (size_t j0 = 0; j0 < count; j0 += RESEED) {
    size_t j1 = count - j0 < RESEED ? count : j0 + RESEED;
    double ms = m0 + (double)j0 * step;
    for (size_t i = 0; i < n; i++)
      seed(ms, theta[i], theta_lo ? theta_lo[i] : 0.0, &zrh[i], &zrl[i], &zih[i], &zil[i]);
    /* E at the block's last row, and the |hi| below which an entry is
     * recomputed: 20 2^54 E, with 5% more for the roundings of this
     * arithmetic */
    double E = 1.001 * (M_SQRT2 * (fabs(ms) * 0x1p-115 + 0x1p-101) +
                        (double)(j1 - j0 - 1) * e_step);
    double thr = 21.0 * 0x1p54 * E;
    for (size_t j = j0; j < j1; j++) {
      double *cj = c + j * n, *sj = s + j * n;
      if (step_row(n, zrh, zrl, zih, zil, wrh, wrl, wih, wil, cj, sj, thr))
        for (size_t i = 0; i < n; i++)
          if (!(fabs(cj[i]) >= thr && fabs(sj[i]) >= thr))
            (void)rl_angle_sincos2(m0 + (double)j * step, theta[i],
                                   theta_lo ? theta_lo[i] : 0.0, &cj[i], &sj[i]);
    }
  }
  free(buf);
  return RL_OK;
#endif
}
