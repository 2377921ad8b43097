/* men_scan.c: the sign of Men et al.'s similarity B_r over r = 0..L-1,
 * fast and decided correctly (see bounds_impl.h).
 *
 * Cost.  A feasibility test is O(L n) cosines; for L = 2^20 and n = 64
 * that is 6.7e7 per candidate base, far too many for libm.  As
 * src/core/measures/decay.c does, the rows go in blocks of BLOCK, the
 * phases z[k][b] = e^{i (r0 + b) theta_k} of a block advance to the next
 * by one complex product with w_k = e^{i BLOCK theta_k}, and every PERIOD
 * blocks they are re-seeded, z = C_k T[k][b], from exact angles
 * (rl_angle_sincos): C_k = e^{i r0 theta_k}, T[k][b] = e^{i b theta_k}.
 * The loop over the rows of a block is the vectorised one.
 *
 * Error bound.  With u = 2^-53: an exact value is within 0.55 ulp per
 * component, so |e^ - e| <= 1.1 u; a complex product in ISO C (no FMA
 * contraction) adds at most sqrt(5) u |x||y| (Brent, Percival, Zimmermann
 * 2007).  The seeded phase C T is within 1.1u + 1.1u + sqrt(5)u < 4.5u of
 * the true one, each later product adds < 3.4u (its own rounding plus
 * w's error), so after the at most PERIOD - 1 = 15 products of a period
 * every phase is within 4.5u + 15 * 3.4u < 60u.  Summing n terms of
 * magnitude <= 1 onto c0 adds at most n (c0 + n) u.  So
 *   |B_r(fast) - B_r| <= E = (60 n + n (c0 + n)) u,
 * and we use 2E.  A row with |B_r(fast)| <= 2E is recomputed from exact
 * angles (rl_bscan_exact: error <= 1.1 n u, summed in long double); the
 * tests measure the fast values against that sum
 * (tests/bounds/test_men.c).
 *
 * B_r is the similarity of the schedule's double frequencies theta_k,
 * i.e. of the table every framework stores at best; for r near 2^20 a
 * change of theta_k by one rounding (relative 2^-53) moves r theta_k by
 * about 1e-10, which is below the margins the search reports but not
 * below every margin: the answer is exact for these doubles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bounds_impl.h"

enum { BLOCK = RL_BSCAN_BLOCK, PERIOD = RL_BSCAN_PERIOD };

#define U_HALF 0x1p-53

struct rl_bscan {
  size_t nmax;
  double *tr, *ti;   /* nmax x BLOCK: e^{i b theta_k} */
  double *wr, *wi;   /* nmax: e^{i BLOCK theta_k} */
  double *zr, *zi;   /* nmax x BLOCK: phases of the current block */
  double *acc;       /* BLOCK: B_r of the current block */
  double *cr, *ci;   /* nmax: seed factors e^{i r0 theta_k} */
};

static double *dalloc(size_t count)
{
  size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
  return aligned_alloc(64, bytes ? bytes : 64);
}

void rl_bscan_free(rl_bscan *w)
{
  if (!w)
    return;
  free(w->tr);
  free(w->ti);
  free(w->wr);
  free(w->wi);
  free(w->zr);
  free(w->zi);
  free(w->acc);
  free(w->cr);
  free(w->ci);
  free(w);
}

rl_status rl_bscan_alloc(size_t nmax, rl_bscan **out)
{
  *out = NULL;
  rl_bscan *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  size_t m = nmax ? nmax : 1;
  w->nmax = nmax;
  w->tr = dalloc(m * BLOCK);
  w->ti = dalloc(m * BLOCK);
  w->wr = dalloc(m);
  w->wi = dalloc(m);
  w->zr = dalloc(m * BLOCK);
  w->zi = dalloc(m * BLOCK);
  w->acc = dalloc(BLOCK);
  w->cr = dalloc(m);
  w->ci = dalloc(m);
  if (!w->tr || !w->ti || !w->wr || !w->wi || !w->zr || !w->zi || !w->acc || !w->cr || !w->ci) {
    rl_bscan_free(w);
    return RL_ENOMEM;
  }
  *out = w;
  return RL_OK;
}

double rl_bscan_exact(const double *theta, size_t n, double c0, double r, double *err)
{
  long double s = c0;
  for (size_t k = 0; k < n; k++) {
    double c, sn;
    (void)rl_angle_sincos(r, theta[k], &c, &sn); /* r, theta checked by the callers */
    s += c;
  }
  if (err) /* 0.55 ulp <= 1.1 u per cosine; the long double sum adds ~n^2 2^-64 */
    *err = 1.1 * (double)n * U_HALF + (double)n * ((double)n + c0) * 0x1p-64;
  return (double)s;
}

/* exact re-check of a row whose fast value was within its bound of 0:
 * 1 when B_r < 0 */
static int exact_negative(const double *theta, size_t n, double c0, double r, double *value,
                          size_t *rechecked, size_t *ambiguous)
{
  double e, v = rl_bscan_exact(theta, n, c0, r, &e);
  ++*rechecked;
  if (fabs(v) <= e)
    ++*ambiguous;
  *value = v;
  return v < 0;
}

int rl_bscan_sign(const double *theta, size_t n, double c0, double r, double *value,
                  size_t *rechecked, size_t *ambiguous)
{
  /* cos(fl(r theta)): the product is within u r theta of r theta, libm's
   * cos within 1 ulp (<= 2u) of its argument's cosine; the sum as above */
  double s = c0, tsum = 0;
  for (size_t k = 0; k < n; k++) {
    s += cos(r * theta[k]);
    tsum += theta[k];
  }
  double e = 2.0 * (r * tsum * 1.01 + 2.0 * (double)n + (double)n * (c0 + (double)n)) * U_HALF;
  if (fabs(s) > e) {
    *value = s;
    return s < 0 ? -1 : 1;
  }
  return exact_negative(theta, n, c0, r, value, rechecked, ambiguous) ? -1 : 1;
}

/* The vectorised loops; on x86-64 with glibc an AVX2 clone is chosen at
 * load time, as in decay.c (same bits: no FMA contraction in ISO C). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef CLONES
#define CLONES
#endif

/* z = C T for every pair (a re-seed) */
CLONES static void seed_block(size_t n, const double *restrict cr, const double *restrict ci,
                              const double *restrict tr, const double *restrict ti,
                              double *restrict zr, double *restrict zi)
{
  for (size_t k = 0; k < n; k++) {
    double c = cr[k], s = ci[k];
    for (size_t b = 0; b < BLOCK; b++) {
      size_t i = k * BLOCK + b;
      zr[i] = c * tr[i] - s * ti[i];
      zi[i] = c * ti[i] + s * tr[i];
    }
  }
}

/* acc[b] = c0 + sum_k Re z[k][b], then z *= w: the phases move on one block */
CLONES static void block_sum(size_t n, double c0, double *restrict zr, double *restrict zi,
                             const double *restrict wr, const double *restrict wi,
                             double *restrict acc)
{
  for (size_t b = 0; b < BLOCK; b++)
    acc[b] = c0;
  for (size_t k = 0; k < n; k++) {
    double c = wr[k], s = wi[k];
    double *restrict xr = zr + k * BLOCK, *restrict xi = zi + k * BLOCK;
    for (size_t b = 0; b < BLOCK; b++) {
      double x = xr[b], y = xi[b];
      acc[b] += x;
      xr[b] = x * c - y * s;
      xi[b] = x * s + y * c;
    }
  }
}

rl_status rl_bscan_run(rl_bscan *w, const double *theta, size_t n, double c0, double len,
                       int stop, rl_bscan_out *out)
{
  memset(out, 0, sizeof *out);
  if (n > w->nmax || !(len >= 1) || len - 1 > RL_POS_MAX || len != floor(len) || !(c0 >= 0))
    return RL_EINVAL;
  for (size_t k = 0; k < n; k++)
    if (!(theta[k] >= 0 && theta[k] <= 1))
      return RL_ERANGE;
  out->first_fail = len;
  out->min = HUGE_VAL;
  /* tables: T (exact), w (exact) */
  for (size_t k = 0; k < n; k++) {
    for (size_t b = 0; b < BLOCK; b++)
      (void)rl_angle_sincos((double)b, theta[k], &w->tr[k * BLOCK + b], &w->ti[k * BLOCK + b]);
    (void)rl_angle_sincos((double)BLOCK, theta[k], &w->wr[k], &w->wi[k]);
  }
  double bound = 2.0 * (60.0 * (double)n + (double)n * (c0 + (double)n)) * U_HALF;
  double *cr = w->cr, *ci = w->ci;
  uint64_t rows = (uint64_t)len;
  for (uint64_t r0 = 0, blk = 0; r0 < rows; r0 += BLOCK, blk++) {
    if (blk % PERIOD == 0) {
      for (size_t k = 0; k < n; k++)
        (void)rl_angle_sincos((double)r0, theta[k], &cr[k], &ci[k]);
      seed_block(n, cr, ci, w->tr, w->ti, w->zr, w->zi);
    }
    block_sum(n, c0, w->zr, w->zi, w->wr, w->wi, w->acc);
    uint64_t m = rows - r0 < BLOCK ? rows - r0 : BLOCK;
    for (uint64_t b = 0; b < m; b++) {
      double v = w->acc[b], r = (double)(r0 + b);
      if (v <= bound) {
        /* within the bound of 0, or clearly negative: decide exactly
         * (negative values are rare: at most one per scan with stop) */
        int neg = exact_negative(theta, n, c0, r, &v, &out->rechecks, &out->ambiguous);
        if (neg && out->first_fail == len) {
          out->first_fail = r;
          out->fail_value = v;
        }
        if (neg && stop)
          return RL_OK;
      }
      if (v < out->min) {
        out->min = v;
        out->argmin = r;
      }
    }
  }
  return RL_OK;
}

/* ------------------------------------------------------------------ */
/* quick refutation (RoPE's own schedule)                              */

/* theta~_k = rho^k with rho = exp(-2 ln(b) / rot): ln and exp within
 * 1 ulp, the quotient and product within 1/2 ulp each, so rho is within
 * (4 |ln rho| + 4) u of b^(-2/rot) and rho^k, k products later, within
 * k (4 |ln rho| + 5) u = 4 |ln theta_k| + 5 k u; the schedule's theta_k
 * is the double nearest the exact value (1/2 ulp).  delta_k =
 * (8 |ln theta_k| + 8 k + 16) u covers both with room. */
void rl_bscan_approx(double base, size_t rot, double *theta, double *d_sum, double *t_sum)
{
  size_t n = rot / 2;
  double lr = -2.0 * log(base) / (double)rot, rho = exp(lr), t = 1, ds = 0, ts = 0;
  for (size_t k = 0; k < n; k++) {
    theta[k] = t;
    double delta = (8.0 * fabs(lr) * (double)k + 8.0 * (double)k + 16.0) * U_HALF;
    ds += delta * t;
    ts += t;
    t *= rho;
  }
  for (size_t k = n; k % 8; k++)
    theta[k] = 0;
  *d_sum = ds;
  *t_sum = ts;
}

/* cos(phi), phi = fl(r theta_k), for 0 <= phi < 2^33 in vector lanes: phi - q pi/2 with pi/2
 * in three parts (fdlibm's pio2_1, pio2_2, pio2_2t: exact products for
 * q < 2^20, within u phi beyond), then Taylor polynomials of cos and sin
 * on |x| <= pi/4 + 1e-9 (first omitted terms below 5e-17).  Absolute
 * error below 4 u phi + 2e-15. */
CLONES static void fast_cos8(double r, const double *restrict theta, double *restrict out)
{
  const double P1 = 1.57079632673412561417e+00, P2 = 6.07710050630396597660e-11,
               P3 = 2.02226624879595063154e-21, TWO_OVER_PI = 6.36619772367581382433e-01;
  for (size_t k = 0; k < 8; k++) { /* a fixed count: vectorised at -O2 too */
    double f = r * theta[k];
    double q = floor(f * TWO_OVER_PI + 0.5);
    double x = ((f - q * P1) - q * P2) - q * P3;
    double z = x * x;
    double c = 1.0 + z * (-1.0 / 2 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
               z * (-1.0 / 3628800 + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 +
               z * (1.0 / 20922789888000.0))))))));
    double s = x * (1.0 + z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
               z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0))))))));
    /* cos(q pi/2 + x) = c, -s, -c, s for q mod 4 = 0..3; arithmetic
     * selects (exact but for c + (s - c) = s to 2u) so the loop vectorises */
    double m = q - 4.0 * floor(q * 0.25);             /* q mod 4, exact */
    double odd = m - 2.0 * floor(m * 0.5);            /* 0 or 1 */
    double neg = floor((m + 1) * 0.5) - 2.0 * floor((m + 1) * 0.25); /* m = 1, 2 */
    out[k] = (c + odd * (s - c)) * (1.0 - 2.0 * neg);
  }
}

double rl_bscan_approx_value(const double *theta, size_t n, double c0, double d_sum,
                             double t_sum, double r, double *tmp, double *bound)
{
  for (size_t k = 0; k < n; k += 8) /* theta, tmp padded to 8 (rl_bscan_approx) */
    fast_cos8(r, theta + k, tmp + k);
  double s = c0;
  for (size_t k = 0; k < n; k++)
    s += tmp[k];
  /* per pair: r delta_k theta_k (frequency), u r theta_k (the product
   * r theta~), 4 u r theta_k + 2e-15 (fast_cos); the sum n (c0 + n) u;
   * doubled for room */
  *bound = 2.0 * (r * d_sum + 5.0 * U_HALF * r * t_sum + 2e-15 * (double)n +
                  (double)n * (c0 + (double)n) * U_HALF);
  return s;
}
