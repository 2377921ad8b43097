/* mc.c: Monte Carlo over random queries and keys.
 *
 * For q, k ~ N(0, sigma^2 I_d) drawn from one seed at every r (common
 * random numbers: every distance sees the same samples, so curves over r
 * are smooth and differences between r are not sampling noise):
 *   - q^T R_r k (independent q, k): mean 0;
 *   - q^T R_r q: mean 2 sigma^2 B_r + sigma^2 (d - rot), since
 *     E[q_a^2 + q_b^2] = 2 sigma^2 for each rotated pair, weighted by
 *     cos(r theta_i), and the pass-through dimensions add sigma^2 each
 *     (Men et al. 2024, eq. 9, with the pass-through term added);
 *   - the ratio of |q^T R_r k| (rotated part) to RoFormer's Abel bound
 *     max_i |h_{i+1} - h_i| * sum_{j=1..n} |S_j|, h_i = q_i conj(k_i) for
 *     pair i as complex numbers, h_n = 0 (RoFormer eqs. 35-37): <= 1.
 *
 * The layout is interleaved; any layout gives the same distribution since
 * it only permutes i.i.d. coordinates. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"

#define MC_FIELD(f) offsetof(rl_mc_settings, f)
static const rl_param p_samples = {
    .key = "samples", .kind = RL_PK_SIZE, .offset = MC_FIELD(samples), .lo = 2, .hi = 1e9,
    .dflt = 1000, .metavar = "N",
    .help = "Monte Carlo samples per distance, >= 2"};
/* GSL's mt19937 keeps only the low 32 bits of a seed and turns 0 into
 * 4357: any other seed would silently equal another */
static const rl_param p_seed = {
    .key = "seed", .kind = RL_PK_SIZE, .offset = MC_FIELD(seed), .lo = 1, .hi = 4294967295.0,
    .dflt = 1, .metavar = "S", .help = "Monte Carlo seed, 1..2^32-1"};
static const rl_param p_sigma = {
    .key = "sigma", .kind = RL_PK_REAL, .offset = MC_FIELD(sigma), .lo = RL_MC_SIGMA_MIN,
    .hi = RL_MC_SIGMA_MAX, .dflt = 1, .metavar = "X", .symbol = "sigma",
    .help = "standard deviation of q and k entries; every column but abel_max scales "
            "as sigma^2"};
static const rl_param *const mc_params[] = {&p_samples, &p_seed, &p_sigma, NULL};

const rl_param *const *rl_mc_param_list(void) { return mc_params; }

void rl_mc_settings_default(rl_mc_settings *s)
{
  for (const rl_param *const *d = mc_params; *d; d++)
    rl_param_set_default(*d, s);
}

struct rl_mc_ws {
  const rl_schedule *f; /* the caller's: position map, amplitudes, scales */
  size_t dim, rot, n, samples;
  double sigma;
  unsigned long seed;
  double *theta;  /* n, a copy */
  double *q, *k;  /* dim: one sample */
  gsl_rng *rng;
};

void rl_mc_free(rl_mc_ws *w)
{
  if (!w)
    return;
  gsl_rng_free(w->rng);
  free(w->theta);
  free(w->q);
  free(w->k);
  free(w);
}

rl_status rl_mc_alloc(const rl_schedule *f, size_t samples, double sigma, unsigned long seed,
                      rl_mc_ws **out)
{
  *out = NULL;
  if (!f || !f->theta || f->n < 1 || f->rot != 2 * f->n || f->dim < f->rot)
    return RL_EINVAL;
  if (samples < 2 || !(sigma >= RL_MC_SIGMA_MIN && sigma <= RL_MC_SIGMA_MAX))
    return RL_EINVAL;
  rl_mc_ws *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  w->f = f;
  w->dim = f->dim;
  w->rot = f->rot;
  w->n = f->n;
  w->samples = samples;
  w->sigma = sigma;
  w->seed = seed;
  w->theta = malloc(w->n * sizeof *w->theta);
  w->q = malloc(w->dim * sizeof *w->q);
  w->k = malloc(w->dim * sizeof *w->k);
  w->rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!w->theta || !w->q || !w->k || !w->rng) {
    rl_mc_free(w);
    return RL_ENOMEM;
  }
  for (size_t i = 0; i < w->n; i++)
    w->theta[i] = f->theta[i];
  *out = w;
  return RL_OK;
}

/* Welford's running mean and sum of squared deviations (Knuth, TAOCP
 * vol. 2, 4.2.2): stable where sum x^2 - (sum x)^2/N would cancel. */
typedef struct welford {
  double mean, m2;
  size_t count;
} welford;

static void welford_add(welford *a, double x)
{
  a->count++;
  double d = x - a->mean;
  a->mean += d / (double)a->count;
  a->m2 += d * (x - a->mean);
}

/* standard error of the mean: sample standard deviation / sqrt(N) */
static double welford_se(const welford *a)
{
  return sqrt(a->m2 / (double)(a->count - 1) / (double)a->count);
}

/* The part of rl_mc_eval that depends on r only: c, s (n each) the
 * weighted cos, sin of the mapped r theta_i; *sabs = sum_{j=1..n} |S_j|,
 * S_j = sum_{i<j} e^{i r theta_i} (the Abel bound's factor); *csum = sum c. */
static rl_status distance_terms(const rl_mc_ws *w, double r, double *c, double *s,
                                double *sabs, double *csum)
{
  /* the schedule's logit: mapped position, per-pair weight (attention
   * factor squared, xpos amplitude, log-n query scale) on the rotated
   * pairs; the query scale alone on the pass-through dimensions */
  double qs = rl_schedule_qscale(w->f, w->f->p.seq_len), rm = rl_schedule_relpos(w->f, r);
  /* the precision seam; a framework's table carries the attention
   * factor as it rounds it, on the query at r and on the key at 0 (cos
   * there: the factor), whose product replaces the logit multiplier */
  int fw = !w->f->prec->exact;
  if (fw ? rl_schedule_cossin(w->f, rm, c, s) : rl_rope_cossin(w->f, rm, c, s))
    return RL_ERANGE;
  for (size_t i = 0; i < w->n; i++) {
    double c0 = w->f->logit_mult, s0;
    if (fw)
      w->f->prec->sincos1(w->f, i, 0.0, w->f->attn, &c0, &s0);
    double wt = c0 * qs * rl_schedule_amplitude(w->f, i, r);
    c[i] *= wt;
    s[i] *= wt;
  }
  double sa = 0, sr = 0, si = 0, cs = 0;
  for (size_t i = 0; i < w->n; i++) {
    sr += c[i];
    si += s[i];
    sa += sqrt(sr * sr + si * si);
    cs += c[i];
  }
  *sabs = sa;
  *csum = cs;
  return RL_OK;
}

rl_status rl_mc_eval(rl_mc_ws *w, double r, rl_mc_result *res)
{
  return rl_mc_eval_many(w, 1, &r, res);
}

/* Every distance sees the same samples (drawn once here, in the order
 * rl_mc_eval draws them at each r), and each distance's sums are formed
 * in the same order as there: the results are rl_mc_eval's, bitwise. */
rl_status rl_mc_eval_many(rl_mc_ws *w, size_t nr, const double *r, rl_mc_result *res)
{
  if (!w || !res || (nr && !r))
    return RL_EINVAL;
  if (nr == 0)
    return RL_OK;
  size_t n = w->n;
  /* c, s: nr x n; hr, hi, qq: n (one sample's pair products); then
   * per distance sabs, csum, abel and the two Welford accumulators */
  typedef struct welford2 {
    welford ind, self;
  } welford2;
  double *c = malloc((2 * nr * n + 3 * n + 3 * nr) * sizeof *c);
  welford2 *acc = calloc(nr, sizeof *acc);
  if (!c || !acc) {
    free(c);
    free(acc);
    return RL_ENOMEM;
  }
  double *s = c + nr * n, *hr = s + nr * n, *hi = hr + n, *qq = hi + n;
  double *sabs = qq + n, *csum = sabs + nr, *abel = csum + nr;
  rl_status st = RL_OK;
  for (size_t j = 0; j < nr && !st; j++) {
    st = distance_terms(w, r[j], c + j * n, s + j * n, &sabs[j], &csum[j]);
    abel[j] = 0;
  }
  double qs = rl_schedule_qscale(w->f, w->f->p.seq_len);
  gsl_rng_set(w->rng, w->seed);
  for (size_t t = 0; t < w->samples && !st; t++) {
    /* unit draws (gsl_ran_gaussian(rng, sigma) is sigma times them):
     * every result is homogeneous of degree 2 in sigma and is scaled at
     * the end, so no sigma over- or underflows a square on the way */
    for (size_t j = 0; j < w->dim; j++)
      w->q[j] = gsl_ran_gaussian(w->rng, 1.0);
    for (size_t j = 0; j < w->dim; j++)
      w->k[j] = gsl_ran_gaussian(w->rng, 1.0);
    const double *q = w->q, *k = w->k;
    /* pair i = (q_2i, q_2i+1); R_r rotates it by +r theta_i:
     *   q^T R k = sum_i cos (q_a k_a + q_b k_b) + sin (q_b k_a - q_a k_b)
     *           = sum_i Re(h_i e^{-i r theta_i}),  h_i = q_i conj(k_i). */
    double dmax = 0;
    for (size_t i = 0; i < n; i++) {
      double qa = q[2 * i], qb = q[2 * i + 1], ka = k[2 * i], kb = k[2 * i + 1];
      hr[i] = qa * ka + qb * kb;
      hi[i] = qb * ka - qa * kb;
      qq[i] = qa * qa + qb * qb;
      /* h_{i+1} - h_i, with h_n = 0 */
      double hr1 = 0, hi1 = 0;
      if (i + 1 < n) {
        double pa = q[2 * i + 2], pb = q[2 * i + 3], la = k[2 * i + 2], lb = k[2 * i + 3];
        hr1 = pa * la + pb * lb;
        hi1 = pb * la - pa * lb;
      }
      double dr = hr1 - hr[i], di = hi1 - hi[i], dm = sqrt(dr * dr + di * di);
      if (dm > dmax)
        dmax = dm;
    }
    double pk = 0, pq = 0; /* pass-through dimensions */
    for (size_t j = w->rot; j < w->dim; j++) {
      pk += q[j] * k[j];
      pq += q[j] * q[j];
    }
    for (size_t j = 0; j < nr; j++) {
      const double *cj = c + j * n, *sj = s + j * n;
      double rk = 0, rq = 0;
      for (size_t i = 0; i < n; i++) {
        rk += cj[i] * hr[i] + sj[i] * hi[i];
        rq += cj[i] * qq[i];
      }
      /* the bound covers the rotated part only: pass-through dimensions
       * are not in RoFormer's sum */
      double den = dmax * sabs[j];
      if (den > 0) {
        double ratio = fabs(rk) / den;
        if (ratio > abel[j])
          abel[j] = ratio;
      }
      welford_add(&acc[j].ind, rk + qs * pk);
      welford_add(&acc[j].self, rq + qs * pq);
    }
  }
  double s2 = w->sigma * w->sigma;
  for (size_t j = 0; j < nr && !st; j++) {
    res[j].ind_mean = s2 * acc[j].ind.mean;
    res[j].ind_se = s2 * welford_se(&acc[j].ind);
    res[j].self_mean = s2 * acc[j].self.mean;
    res[j].self_se = s2 * welford_se(&acc[j].self);
    res[j].self_expect = s2 * (2.0 * csum[j] + qs * (double)(w->dim - w->rot));
    res[j].abel_max = abel[j]; /* a ratio of two degree-2 quantities: sigma-free */
  }
  free(c);
  free(acc);
  return st;
}
