/* schemes.c: the properties of the positional schemes that
 * `ropelab check` holds the core to, each measured, not asserted:
 * the sinusoids' relative dot product and fixed rotation, the shape of
 * the T5 and DeBERTa buckets, the ALiBi slopes, the Toeplitz structure
 * of every scheme flagged relative (and its absence in the others),
 * rope2d's dependence on the two offsets only, and RoPE's survival inside
 * linear attention where an additive bias cannot be factorised.
 * Tolerances: a dot product of d terms of size <= 1 carries at most
 * about d DBL_EPSILON of rounding (Higham, Accuracy and Stability, 3.1);
 * the checks allow a small multiple of that, stated at each. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "check_impl.h"

#define NTOE 64 /* size of the measured positional matrices */

static void gauss(gsl_rng *r, double *v, size_t n)
{
  for (size_t k = 0; k < n; k++)
    v[k] = gsl_ran_gaussian(r, 1.0);
}

static rl_scheme_cfg cfg_of(const rl_check_params *p)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = p->sched.dim;
  c.rope = p->sched;
  c.seed = p->seed;
  c.heads = 4;
  return c;
}

/* p_i . p_j = sum_k cos((i - j) theta_k) (Vaswani sec. 3.5: a function of
 * i - j only).  Both sides are sums of d/2 terms <= 1 from accurate
 * angles: tolerance 4 d eps. */
static rl_status sin_relative(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  rl_scheme *s;
  rl_status st = rl_scheme_alloc("sinusoidal", &c, &s, NULL);
  if (st)
    return st;
  rl_schedule *f;
  st = rl_schedule_rope(p->sched.dim, p->sched.dim, p->sched.base, &f);
  double *a = malloc(2 * p->sched.dim * sizeof *a);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  double err = 0;
  if (!st && (!a || !r))
    st = RL_ENOMEM;
  if (!st) {
    gsl_rng_set(r, p->seed);
    for (size_t t = 0; t < p->trials && !st; t++) {
      double i = floor(gsl_rng_uniform(r) * 1e6), j = floor(gsl_rng_uniform(r) * 1e6);
      st = rl_scheme_encoding(s, i, a);
      if (!st)
        st = rl_scheme_encoding(s, j, a + p->sched.dim);
      double dot = 0, want = 0;
      for (size_t k = 0; k < p->sched.dim; k++)
        dot += a[k] * a[p->sched.dim + k];
      for (size_t k = 0; k < f->n && !st; k++) {
        double cs, sn;
        st = rl_schedule_sincos(f, k, i - j, &cs, &sn);
        want += cs;
      }
      if (fabs(dot - want) > err)
        err = fabs(dot - want);
    }
  }
  if (!st) {
    rl_check_set(res, err, 4.0 * (double)p->sched.dim * DBL_EPSILON);
    snprintf(res->detail, sizeof res->detail,
             "max |p_i.p_j - sum cos((i-j) theta)| over %zu pairs, i, j < 1e6", p->trials);
  }
  rl_schedule_free(f);
  free(a);
  gsl_rng_free(r);
  rl_scheme_free(s);
  return st;
}

/* PE(pos + k) = M_k PE(pos), M_k the rotation by k theta of each
 * (sin, cos) pair: a linear map independent of pos (Vaswani sec. 3.5).
 * Each entry: two products of values <= 1 plus three accurate angles:
 * tolerance 8 eps. */
static rl_status sin_rotation(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  rl_scheme *s;
  rl_status st = rl_scheme_alloc("sinusoidal", &c, &s, NULL);
  if (st)
    return st;
  rl_schedule *f = NULL;
  st = rl_schedule_rope(p->sched.dim, p->sched.dim, p->sched.base, &f);
  size_t d = p->sched.dim;
  double *a = malloc(2 * d * sizeof *a), err = 0;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!st && (!a || !r))
    st = RL_ENOMEM;
  if (!st)
    gsl_rng_set(r, p->seed);
  for (size_t t = 0; !st && t < p->trials; t++) {
    double pos = floor(gsl_rng_uniform(r) * 1e6), k = floor(gsl_rng_uniform(r) * 1000);
    st = rl_scheme_encoding(s, pos, a);
    if (!st)
      st = rl_scheme_encoding(s, pos + k, a + d);
    for (size_t m = 0; !st && m < f->n; m++) {
      double ck, sk;
      st = rl_schedule_sincos(f, m, k, &ck, &sk);
      double sn = a[2 * m], cs = a[2 * m + 1];
      double e1 = fabs(a[d + 2 * m] - (sn * ck + cs * sk));
      double e2 = fabs(a[d + 2 * m + 1] - (cs * ck - sn * sk));
      err = fmax(err, fmax(e1, e2));
    }
  }
  if (!st) {
    rl_check_set(res, err, 8.0 * DBL_EPSILON);
    snprintf(res->detail, sizeof res->detail,
             "max |PE(pos+k) - M_k PE(pos)| over %zu (pos < 1e6, k < 1000)", p->trials);
  }
  rl_schedule_free(f);
  free(a);
  gsl_rng_free(r);
  rl_scheme_free(s);
  return st;
}

/* T5 buckets (default 32 buckets, max distance 128, both directions):
 * never decrease with distance on either side, exact below max_exact,
 * and equal the last bucket of their side from max_distance on (the
 * formula's log ratio reaches 1 there).  error = number of violations. */
static rl_status t5_shape(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  long viol = 0;
  for (int bidir = 0; bidir <= 1; bidir++) {
    long nb = bidir ? 16 : 32, me = nb / 2;
    for (int side = -1; side <= (bidir ? 1 : -1); side += 2) {
      long off = bidir && side > 0 ? nb : 0, prev = -1;
      /* rel = 0 belongs to the lower half (the reference tests rel > 0) */
      for (long n = off ? 1 : 0; n <= 4096; n++) {
        long b = rl_t5_bucket(side * n, bidir, 32, 128);
        if (b < prev || b < off || b > off + nb - 1)
          viol++;
        if (n < me && b != off + n)
          viol++;
        if (n >= 128 && b != off + nb - 1)
          viol++;
        prev = b;
      }
    }
  }
  rl_check_set(res, (double)viol, 0.0);
  snprintf(res->detail, sizeof res->detail,
           "violations of monotone/exact/saturated T5 buckets, |rel| <= 4096, both modes");
  return RL_OK;
}

/* DeBERTa buckets (256 buckets, max position 512): odd, rel itself up to
 * mid = 128, monotone in |rel|, exactly 255 at |rel| = 511 (the log ratio
 * is 1), and the span clamp index saturates at 2k - 1 = 511 beyond. */
static rl_status deberta_shape(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  long viol = 0, prev = -1;
  for (long r = 0; r <= 8192; r++) {
    long b = rl_deberta_bucket(r, 256, 512), bn = rl_deberta_bucket(-r, 256, 512);
    if (bn != -b || b < prev || (r <= 128 && b != r))
      viol++;
    if (r == 511 && b != 255)
      viol++;
    long idx = b + 256 > 511 ? 511 : b + 256;
    if (r >= 511 && idx != 511)
      viol++;
    prev = b;
  }
  rl_check_set(res, (double)viol, 0.0);
  snprintf(res->detail, sizeof res->detail,
           "violations of odd/monotone/identity/saturated DeBERTa buckets, |rel| <= 8192");
  return RL_OK;
}

/* ALiBi slopes: 8 heads 2^-1..2^-8 exactly (exp2 of an integer is
 * exact); 12 heads the 8 above then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
 * (every other slope of 16 heads), hand-listed from get_slopes; the
 * half-integer powers are M_SQRT1_2 / 2^k, within 1 ulp.  error in ulps. */
static rl_status alibi_slopes(const rl_check_params *p, rl_check_result *res)
{
  (void)p;
  double s8[8], s12[12], err = 0;
  const double r = 0.70710678118654752440; /* 2^-1/2 */
  const double want12[12] = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125,
                             0.00390625, r, r / 2, r / 4, r / 8};
  rl_scheme_alibi_slopes(8, s8);
  rl_scheme_alibi_slopes(12, s12);
  for (int h = 0; h < 8; h++)
    err = fmax(err, s8[h] == ldexp(1.0, -(h + 1)) ? 0.0 : HUGE_VAL);
  for (int h = 0; h < 12; h++)
    err = fmax(err, fabs(s12[h] - want12[h]) / (DBL_EPSILON * want12[h]));
  rl_check_set(res, err, 1.0);
  snprintf(res->detail, sizeof res->detail,
           "ulps from 2^-1..2^-8 (8 heads) and the 12-head interleaving rule");
  return RL_OK;
}

/* The positional matrix P(i, j) = total - cc of one scheme over n = 64
 * positions from start, the same content at every position, and its
 * largest deviation from Toeplitz |P(i+1, j+1) - P(i, j)|, relative to
 * max(1, max |P|, max |cc|). */
static rl_status toeplitz_dev(rl_scheme *s, const rl_check_params *p, double start, double *dev)
{
  rl_status st = RL_OK;
  size_t d = p->sched.dim, L = rl_scheme_prep_len(s);
  double *buf = malloc((2 * d + 2 * (NTOE + 1) * L + (NTOE + 1) * (NTOE + 1)) * sizeof *buf);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!buf || !r) {
    st = RL_ENOMEM;
    goto done;
  }
  gsl_rng_set(r, p->seed);
  double *xq = buf, *xk = xq + d, *pq = xk + d, *pk = pq + (NTOE + 1) * L;
  double *P = pk + (NTOE + 1) * L, big = 1, worst = 0;
  gauss(r, xq, d);
  gauss(r, xk, d);
  for (size_t i = 0; i <= NTOE && !st; i++) {
    st = rl_scheme_prepare(s, 0, RL_ROLE_QUERY, start + (double)i, xq, pq + i * L);
    if (!st)
      st = rl_scheme_prepare(s, 0, RL_ROLE_KEY, start + (double)i, xk, pk + i * L);
  }
  for (size_t i = 0; i <= NTOE && !st; i++)
    for (size_t j = 0; j <= NTOE && !st; j++) {
      rl_logit_terms t;
      st = rl_scheme_pair(s, 0, start + (double)i, start + (double)j, pq + i * L, pk + j * L, &t);
      P[i * (NTOE + 1) + j] = t.total - t.cc;
      big = fmax(big, fmax(fabs(t.total - t.cc), fabs(t.cc)));
    }
  for (size_t i = 0; i < NTOE && !st; i++)
    for (size_t j = 0; j < NTOE; j++)
      worst = fmax(worst, fabs(P[(i + 1) * (NTOE + 1) + j + 1] - P[i * (NTOE + 1) + j]));
  *dev = worst / big;
done:
  free(buf);
  gsl_rng_free(r);
  return st;
}

/* The deviations of scheme name at the nstart starts given, from one
 * scheme (its d x d projections are drawn once, not once per start). */
static rl_status toeplitz_devs(const char *name, const rl_check_params *p, const double *start,
                               size_t nstart, double *dev)
{
  rl_scheme_cfg c = cfg_of(p);
  rl_scheme *s;
  rl_status st = rl_scheme_alloc(name, &c, &s, NULL);
  for (size_t k = 0; k < nstart && !st; k++)
    st = toeplitz_dev(s, p, start[k], &dev[k]);
  rl_scheme_free(s);
  return st;
}

/* relative to the largest term: rounding of O(d)-term dot products and
 * of the rotation (a few eps per component): 32 d eps */
static double toeplitz_tol(const rl_check_params *p)
{
  return 32.0 * (double)p->sched.dim * DBL_EPSILON;
}

/* Every scheme flagged RL_SCHEME_RELATIVE (1-D) has a Toeplitz
 * positional matrix, at start 1 and at start 10^5. */
static rl_status relative_toeplitz(const rl_check_params *p, rl_check_result *res)
{
  double err = 0;
  char worst[16] = "-";
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
    if (!(i->flags & RL_SCHEME_RELATIVE) || i->flags & RL_SCHEME_2D)
      continue;
    static const double start[2] = {1.0, 1e5};
    double dev[2];
    rl_status st = toeplitz_devs(i->name, p, start, 2, dev);
    if (st)
      return st;
    for (int k = 0; k < 2; k++)
      if (dev[k] >= err) {
        err = dev[k];
        snprintf(worst, sizeof worst, "%s", i->name);
      }
  }
  rl_check_set(res, err, toeplitz_tol(p));
  snprintf(res->detail, sizeof res->detail,
           "max relative deviation from Toeplitz of the positional matrix, n=%d, "
           "relative schemes (worst: %s)", NTOE, worst);
  return RL_OK;
}

/* The flag is what the numbers show: a scheme is measured relative when
 * its deviation is within the tolerance.  error = schemes whose flag
 * disagrees (absolute schemes deviate by O(1e-3) or more). */
static rl_status relative_flags(const rl_check_params *p, rl_check_result *res)
{
  int bad = 0;
  size_t at = 0;
  res->detail[0] = '\0';
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
    if (i->flags & RL_SCHEME_2D)
      continue;
    double dev, one = 1.0;
    rl_status st = toeplitz_devs(i->name, p, &one, 1, &dev);
    if (st)
      return st;
    int rel = dev <= toeplitz_tol(p), flag = !!(i->flags & RL_SCHEME_RELATIVE);
    if (rel != flag) {
      bad++;
      if (at < sizeof res->detail - 24)
        at += (size_t)snprintf(res->detail + at, sizeof res->detail - at, "%s=%.1e ",
                               i->name, dev);
    }
  }
  rl_check_set(res, (double)bad, 0.0);
  if (!bad)
    snprintf(res->detail, sizeof res->detail,
             "every scheme's RL_SCHEME_RELATIVE flag matches its measured Toeplitz deviation");
  return RL_OK;
}

/* rope2d: the logit of (ri, ci) and (rj, cj) equals that of the pair
 * shifted by any (dr, dc): it depends on the two offsets only.  Relative
 * to max(1, |cc|): 32 d eps as for the 1-D rotation.
 * The contents enter unprojected (cfg.identity, W_q = W_k = I): the
 * property is the rotation's, and rope2d projects before it turns, with
 * no position in the product, so random W would only swap one random
 * vector for another (N(0, W W^T) for N(0, I)) at 4 d^2 per trial: 2 s
 * of 2.1 at d = 1024, a minute at d = 4096.  The logits keep their size
 * (cc ~ N(0, 1) either way), so the tolerance means the same. */
static rl_status rope2d_offsets(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  c.dim = p->sched.dim - p->sched.dim % 4;
  if (c.dim < 4)
    c.dim = 4;
  c.identity = 1;
  rl_scheme *s;
  rl_status st = rl_scheme_alloc("rope2d", &c, &s, NULL);
  if (st)
    return st;
  size_t d = c.dim;
  double *x = malloc(2 * d * sizeof *x), err = 0;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!x || !r)
    st = RL_ENOMEM;
  else
    gsl_rng_set(r, p->seed);
  for (size_t t = 0; !st && t < p->trials; t++) {
    double v[6];
    for (int k = 0; k < 6; k++)
      v[k] = floor(gsl_rng_uniform(r) * 1e4);
    gauss(r, x, 2 * d);
    rl_logit_terms a, b;
    st = rl_scheme_logit2d(s, 0, v[0], v[1], v[2], v[3], x, x + d, &a);
    if (!st)
      st = rl_scheme_logit2d(s, 0, v[0] + v[4], v[1] + v[5], v[2] + v[4], v[3] + v[5], x,
                             x + d, &b);
    double scale = fmax(1.0, fabs(a.cc));
    err = fmax(err, fabs(a.total - b.total) / scale);
  }
  if (!st) {
    rl_check_set(res, err, 32.0 * (double)d * DBL_EPSILON);
    snprintf(res->detail, sizeof res->detail,
             "max |logit(i, j) - logit(i + s, j + s)|, 2-D positions < 2e4, %zu trials",
             p->trials);
  }
  free(x);
  gsl_rng_free(r);
  rl_scheme_free(s);
  return st;
}

/* RoFormer sec. 3.3, eq. 19: in linear attention the rotation is applied
 * after the feature map, numerator_i = sum_j (R_i phi(q))^T (R_j phi(k_j))
 * v_j = (R_i phi(q))^T S, S = sum_j R_j phi(k_j) v_j, computed in O(n d).
 * Shifting every position by t leaves it unchanged (relative), and it
 * equals the quadratic sum.  phi = elu + 1.  Relative to
 * sum_j |phi(q)||phi(k_j)||v_j|; n terms each within ~d eps: 8 (n + d) eps. */
static double phi(double x)
{
  return x > 0 ? x + 1 : exp(x);
}

/* y = R(m) x from a row of cos/sin that rl_schedule_sincos gave for m:
 * the products and sums of rl_rope_apply_elementwise (interleaved), so
 * the result is its, bitwise. */
static void turn_row(const rl_schedule *f, const double *c, const double *sn, const double *x,
                     double *y)
{
  for (size_t p = 0; p < f->n; p++) {
    size_t a, b;
    rl_layout_pair(RL_LAYOUT_INTERLEAVED, f->rot, p, &a, &b);
    double xa = x[a], xb = x[b];
    y[a] = xa * c[p] - xb * sn[p];
    y[b] = xb * c[p] + xa * sn[p];
  }
  memcpy(y + f->rot, x + f->rot, (f->dim - f->rot) * sizeof *y);
}

static rl_status linear_rope(const rl_check_params *p, rl_check_result *res)
{
  rl_schedule *f;
  rl_status st = rl_schedule_new(&p->sched, &f, NULL);
  if (st)
    return st;
  size_t d = p->sched.dim, n = NTOE, np = f->n;
  /* q, k (n d), v (n), S, a, b; kr: the keys turned to 0..n-1 (n d);
   * tc, ts: cos, sin at positions 0..n-1 (n np each).  Those positions
   * are the same in every trial, so their angles are formed once; the
   * shifted positions, new in every trial, are turned by the core's
   * rl_rope_apply_elementwise as before. */
  double *q = malloc((d * (2 * n + 4) + n + 2 * n * np) * sizeof *q), err = 0;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!q || !r) {
    st = RL_ENOMEM;
    goto done;
  }
  gsl_rng_set(r, p->seed);
  double *k = q + d, *v = k + n * d, *S = v + n, *a = S + d, *b = a + d, *kr = b + d;
  double *tc = kr + n * d, *ts = tc + n * np;
  for (size_t j = 0; j < n && !st; j++)
    for (size_t m = 0; m < np && !st; m++)
      st = rl_schedule_sincos(f, m, (double)j, tc + j * np + m, ts + j * np + m);
  for (size_t t = 0; t < p->trials && !st; t++) {
    /* n d + d + n normal draws per trial (65600 at d = 1024): Marsaglia
     * and Tsang's ziggurat (gsl_ran_gaussian_ziggurat), a third of the
     * cost of the polar method of gsl_ran_gaussian, the same N(0, 1) */
    for (size_t m = 0; m < d * (n + 1) + n; m++)
      q[m] = gsl_ran_gaussian_ziggurat(r, 1.0);
    for (size_t m = 0; m < d; m++)
      q[m] = phi(q[m]);
    for (size_t m = 0; m < n * d; m++)
      k[m] = phi(k[m]);
    size_t i = n - 1;
    double shift = floor(gsl_rng_uniform(r) * 1e5), num[2], mag = 0;
    double quad = 0;
    for (int sh = 0; sh < 2 && !st; sh++) {
      double off = sh ? shift : 0;
      memset(S, 0, d * sizeof *S);
      for (size_t j = 0; j < n && !st; j++) {
        double *y = sh ? b : kr + j * d;
        if (sh)
          st = rl_rope_apply_elementwise(f, RL_LAYOUT_INTERLEAVED, off + (double)j, k + j * d, y);
        else
          turn_row(f, tc + j * np, ts + j * np, k + j * d, y);
        for (size_t m = 0; m < d; m++)
          S[m] += y[m] * v[j];
      }
      if (!st && sh)
        st = rl_rope_apply_elementwise(f, RL_LAYOUT_INTERLEAVED, off + (double)i, q, a);
      else if (!st)
        turn_row(f, tc + i * np, ts + i * np, q, a);
      num[sh] = 0;
      for (size_t m = 0; m < d; m++)
        num[sh] += a[m] * S[m];
      if (sh == 0)
        for (size_t j = 0; j < n && !st; j++) { /* the quadratic form */
          double dot = 0, nq = 0, nk = 0;
          for (size_t m = 0; m < d; m++) {
            dot += a[m] * kr[j * d + m];
            nq += q[m] * q[m];
            nk += k[j * d + m] * k[j * d + m];
          }
          quad += dot * v[j];
          mag += sqrt(nq * nk) * fabs(v[j]);
        }
    }
    err = fmax(err, fmax(fabs(num[0] - num[1]), fabs(num[0] - quad)) / mag);
  }
  if (!st) {
    rl_check_set(res, err, 8.0 * (double)(n + d) * DBL_EPSILON);
    snprintf(res->detail, sizeof res->detail,
             "linear-attention numerator: factorised vs quadratic vs shifted, n=%zu", n);
  }
done:
  free(q);
  gsl_rng_free(r);
  rl_schedule_free(f);
  return st;
}

/* An additive bias b(i - j) enters linear attention only if B_ij =
 * phi(i)^T psi(j) with few features.  ALiBi's B = -m |i - j| (n = 64) is
 * a distance matrix of distinct points on a line, nonsingular
 * (Schoenberg): its numerical rank (singular values above n eps sigma_1)
 * is n, so no factorisation with fewer than n features is exact.
 * error = n - rank; the detail gives the best rank-n/8 relative error
 * (Eckart-Young: sqrt of the tail sum of sigma^2) for ALiBi and T5. */
static rl_status tail_error(rl_scheme *s, size_t n, size_t keep, size_t *rank, double *rel)
{
  gsl_matrix *A = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
  gsl_vector *S = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
  double *x = calloc(rl_scheme_get_cfg(s)->dim, sizeof *x);
  rl_status st = (!A || !V || !S || !w || !x) ? RL_ENOMEM : RL_OK;
  for (size_t i = 0; i < n && !st; i++)
    for (size_t j = 0; j < n && !st; j++) {
      rl_logit_terms t;
      st = rl_scheme_logit(s, 0, (double)i, (double)j, x, x, &t);
      gsl_matrix_set(A, i, j, t.bias);
    }
  if (!st) {
    gsl_linalg_SV_decomp(A, V, S, w);
    double s1 = gsl_vector_get(S, 0), tot = 0, tail = 0;
    *rank = 0;
    for (size_t k = 0; k < n; k++) {
      double sk = gsl_vector_get(S, k);
      if (sk > (double)n * DBL_EPSILON * s1)
        (*rank)++;
      tot += sk * sk;
      if (k >= keep)
        tail += sk * sk;
    }
    *rel = tot > 0 ? sqrt(tail / tot) : 0;
  }
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(w);
  free(x);
  return st;
}

static rl_status bias_rank(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  c.identity = 1; /* the bias is content-free: no d x d projections needed */
  rl_scheme *al = NULL, *t5 = NULL;
  rl_status st = rl_scheme_alloc("alibi", &c, &al, NULL);
  if (!st)
    st = rl_scheme_alloc("t5", &c, &t5, NULL);
  size_t ra = 0, rt = 0, keep = NTOE / 8;
  double ea = 0, et = 0;
  if (!st)
    st = tail_error(al, NTOE, keep, &ra, &ea);
  if (!st)
    st = tail_error(t5, NTOE, keep, &rt, &et);
  if (!st) {
    rl_check_set(res, (double)(NTOE - ra), 0.0);
    snprintf(res->detail, sizeof res->detail,
             "bias rank n=%d: alibi %zu, t5 %zu; best rank-%zu rel. error alibi %.2e, t5 %.2e",
             NTOE, ra, rt, keep, ea, et);
  }
  rl_scheme_free(al);
  rl_scheme_free(t5);
  return st;
}

const rl_check rl_checks_schemes[] = {
    {"sinusoidal_relative", "sinusoidal p_i.p_j depends only on i - j", sin_relative},
    {"sinusoidal_rotation", "PE(pos+k) is a fixed rotation of PE(pos)", sin_rotation},
    {"t5_buckets", "T5 buckets monotone, exact, saturated at max_distance", t5_shape},
    {"deberta_buckets", "DeBERTa log buckets odd, monotone, saturated", deberta_shape},
    {"alibi_slopes", "ALiBi slopes for 8 and 12 heads", alibi_slopes},
    {"relative_toeplitz", "every relative scheme's positional matrix is Toeplitz",
     relative_toeplitz},
    {"relative_flags", "the relative flag of every scheme matches the measurement",
     relative_flags},
    {"rope2d_offsets", "axial RoPE depends only on the two offsets", rope2d_offsets},
    {"linear_rope", "RoPE in linear attention stays relative and factorises",
     linear_rope},
    {"bias_rank", "an additive ALiBi bias has full rank: no linear-attention factorisation",
     bias_rank},
    {NULL, NULL, NULL},
};
