/* test_mc.c: Monte Carlo over random queries and keys (src/core/measures/mc.c)
 * against closed-form expectations.
 *
 * Means are tested within 4 standard errors: for a correct mean that
 * fails with probability 6e-5 per assertion (normal tails; each mean is
 * over >= 4000 samples).  The seeds are fixed, so a run is reproducible;
 * a wrong formula (a sign, a missing factor 2, the pass-through term)
 * moves a mean by many standard errors. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

/* The Abel bound is <= 1 exactly; its floating evaluation (sums of n
 * terms on both sides of the ratio, each within n ulp) may exceed 1 by
 * rounding only: 1 + 1e-13 covers n <= 256 with a margin of 8. */
#define ABEL_MAX (1 + 1e-13)

static const double RS[] = {0, 1, 7.5, 100, 1000, 123456, 2e9};
enum { NR = sizeof RS / sizeof *RS };

static void test_means(size_t dim, size_t rot, double sigma, size_t samples)
{
  rl_schedule *f = tap_rope(dim, rot, 10000);
  rl_mc_ws *w;
  if (rl_mc_alloc(f, samples, sigma, 42, &w)) {
    tap_ok(0, "mc alloc d=%zu rot=%zu", dim, rot);
    return;
  }
  for (size_t i = 0; i < NR; i++) {
    rl_mc_result m;
    if (rl_mc_eval(w, RS[i], &m)) {
      tap_ok(0, "mc eval at r=%g", RS[i]);
      continue;
    }
    /* closed form, from the reference B_r (tests/measures/test_decay.c
     * checks it): 2 sigma^2 B_r + sigma^2 (d - rot) */
    double s2 = sigma * sigma;
    double want = 2 * s2 * rl_decay_similarity_ref(f, RS[i]) + s2 * (double)(dim - rot);
    tap_abs_close(m.self_expect, want, 1e-12 * s2 * (double)dim,
                  "d=%zu rot=%zu r=%g: self_expect = 2 s^2 B_r + s^2 (d-rot)", dim, rot, RS[i]);
    tap_le(fabs(m.ind_mean) / m.ind_se, 4.0,
           "d=%zu rot=%zu r=%g: E[q^T R k] = 0 (in standard errors)", dim, rot, RS[i]);
    tap_le(fabs(m.self_mean - m.self_expect) / m.self_se, 4.0,
           "d=%zu rot=%zu r=%g: E[q^T R q] = self_expect (in standard errors)", dim, rot, RS[i]);
    /* Var(q^T R k) = sigma^4 d for independent Gaussians (each of the d
     * terms of the rotated dot product is a product of two independent
     * N(0, s^2) with variance s^4, and R is orthogonal): se ~ s^2
     * sqrt(d/N), within 10% for N >= 4000 (the sample sd's relative
     * error is about 1/sqrt(2N) = 1.1%, 10% is 9 of those). */
    double se_want = s2 * sqrt((double)dim / (double)samples);
    tap_le(fabs(m.ind_se / se_want - 1), 0.1, "d=%zu rot=%zu r=%g: ind_se = s^2 sqrt(d/N) within 10%%",
           dim, rot, RS[i]);
    tap_le(m.abel_max, ABEL_MAX, "d=%zu rot=%zu r=%g: |q^T R k| <= Abel bound for every sample", dim, rot,
           RS[i]);
  }
  rl_mc_free(w);
  rl_schedule_free(f);
}

static void test_abel_tight(void)
{
  /* d = 2: n = 1, h_1 = 0, so the bound is |h_0| * |S_1| = |h_0| and the
   * ratio is |cos| of the angle of h_0 e^{-ir}, uniform for Gaussian q,
   * k: the max over 4000 samples exceeds 0.99 unless no angle falls
   * within 0.14 rad of 0 or pi, probability (1-0.09)^4000 ~ 1e-160.
   * So the test would catch a bound that is loose by a factor 1.01. */
  rl_schedule *f = tap_rope(2, 2, 10000);
  rl_mc_ws *w;
  rl_mc_alloc(f, 4000, 1.0, 7, &w);
  for (size_t i = 0; i < NR; i++) {
    rl_mc_result m;
    rl_mc_eval(w, RS[i], &m);
    tap_ok(m.abel_max <= ABEL_MAX && m.abel_max > 0.99, "d=2 r=%g: Abel ratio max %.6f in (0.99, 1]", RS[i],
           m.abel_max);
  }
  rl_mc_free(w);
  rl_schedule_free(f);
  /* d = 4: samples with |h_1| small next to |h_0| reduce to the d = 2
   * case over a denominator |h_0| (1 + |S_2|) <= 3 |h_0|, so the max
   * ratio is near 1/3 at least (4000 samples hold many with |h_1| <
   * |h_0|/20 and |cos| > 0.95): > 0.1 shows the bound is not vacuous. */
  f = tap_rope(4, 4, 10000);
  rl_mc_alloc(f, 4000, 1.0, 7, &w);
  for (size_t i = 0; i < NR; i++) {
    rl_mc_result m;
    rl_mc_eval(w, RS[i], &m);
    tap_ok(m.abel_max <= ABEL_MAX && m.abel_max > 0.1, "d=4 r=%g: Abel ratio max %.4f in (0.1, 1]",
           RS[i], m.abel_max);
  }
  rl_mc_free(w);
  rl_schedule_free(f);
  /* d = 128 at r = 0: S_j = j, sum |S_j| = n(n+1)/2 = 2080, and the
   * bound is far from tight; still positive and <= 1 */
  f = tap_rope(128, 128, 10000);
  rl_mc_alloc(f, 4000, 1.0, 7, &w);
  for (size_t i = 0; i < NR; i++) {
    rl_mc_result m;
    rl_mc_eval(w, RS[i], &m);
    tap_ok(m.abel_max > 0 && m.abel_max <= ABEL_MAX, "d=128 r=%g: Abel ratio max %.4f in (0, 1]", RS[i],
           m.abel_max);
  }
  rl_mc_free(w);
  rl_schedule_free(f);
}

static void test_structure(void)
{
  rl_schedule *f = tap_rope(64, 64, 10000);
  rl_mc_ws *w1, *w2;
  rl_mc_alloc(f, 2000, 1.0, 99, &w1);
  rl_mc_alloc(f, 2000, 2.0, 99, &w2);
  rl_mc_result a, b, c;
  /* common random numbers: the same r twice gives the same numbers,
   * whatever was evaluated in between */
  rl_mc_eval(w1, 300, &a);
  rl_mc_eval(w1, 17, &c);
  rl_mc_eval(w1, 300, &b);
  tap_ok(a.ind_mean == b.ind_mean && a.self_mean == b.self_mean && a.abel_max == b.abel_max,
         "re-evaluating r=300 gives identical results");
  /* gsl_ran_gaussian(rng, sigma) = sigma * unit draw: with sigma = 2
   * every q, k doubles exactly, every product quadruples exactly (powers
   * of two), so the means are 4x bitwise and the ratio is unchanged */
  rl_mc_eval(w2, 300, &c);
  tap_ok(c.ind_mean == 4 * a.ind_mean && c.self_mean == 4 * a.self_mean &&
             c.self_expect == 4 * a.self_expect && c.abel_max == a.abel_max,
         "sigma=2 scales the means by exactly 4, Abel ratio unchanged");
  /* r = 0: q^T q, expectation sigma^2 d */
  rl_mc_eval(w1, 0, &a);
  tap_abs_close(a.self_expect, 64.0, 0.0, "r=0: self_expect = sigma^2 d");
  /* a different seed gives different samples */
  rl_mc_ws *w3;
  rl_mc_alloc(f, 2000, 1.0, 100, &w3);
  rl_mc_eval(w3, 0, &b);
  tap_ok(a.self_mean != b.self_mean, "seed 100 differs from seed 99");
  rl_mc_free(w1);
  rl_mc_free(w2);
  rl_mc_free(w3);
  rl_schedule_free(f);
}

/* The same two samples redrawn here (mt19937 from the seed, q then k,
 * gsl_ran_gaussian) and pushed through the explicit rotation matrix of
 * rl_rope_matrix (src/core/rope/rotate.c, another engineer's code): checks
 * the sign convention q^T R_r k with R_r rotating by +r theta, the
 * pass-through dimensions and the Abel ratio, computed here with C99
 * complex arithmetic straight from RoFormer eqs. 35-37.  Tolerance:
 * sums of d = 10 products of O(1) numbers, 1e-13 absolute. */
static void test_by_hand(void)
{
  enum { D = 10, ROT = 6, N = ROT / 2 };
  const double sigma = 1.5, r = 37.25;
  const unsigned long seed = 5;
  rl_schedule *f = tap_rope(D, ROT, 100);
  double R[D * D], q[2][D], k[2][D];
  gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(g, seed);
  for (int t = 0; t < 2; t++) {
    for (int j = 0; j < D; j++)
      q[t][j] = gsl_ran_gaussian(g, sigma);
    for (int j = 0; j < D; j++)
      k[t][j] = gsl_ran_gaussian(g, sigma);
  }
  gsl_rng_free(g);
  rl_rope_matrix(f, RL_LAYOUT_INTERLEAVED, r, R);
  double ind = 0, self = 0, abel = 0;
  for (int t = 0; t < 2; t++) {
    double qrk_rot = 0; /* the bound covers the rotated dimensions only */
    for (int a = 0; a < D; a++)
      for (int b = 0; b < D; b++) {
        ind += q[t][a] * R[a * D + b] * k[t][b] / 2;
        self += q[t][a] * R[a * D + b] * q[t][b] / 2;
        if (a < ROT)
          qrk_rot += q[t][a] * R[a * D + b] * k[t][b];
      }
    double complex h[N + 1], S = 0;
    double sabs = 0, dmax = 0;
    for (int i = 0; i < N; i++)
      h[i] = CMPLX(q[t][2 * i], q[t][2 * i + 1]) * conj(CMPLX(k[t][2 * i], k[t][2 * i + 1]));
    h[N] = 0;
    for (int i = 0; i < N; i++) {
      S += cexp(CMPLX(0, r * f->theta[i]));
      sabs += cabs(S);
      dmax = fmax(dmax, cabs(h[i + 1] - h[i]));
    }
    abel = fmax(abel, fabs(qrk_rot) / (dmax * sabs));
  }
  rl_mc_ws *w;
  rl_mc_result m;
  rl_mc_alloc(f, 2, sigma, seed, &w);
  rl_mc_eval(w, r, &m);
  tap_abs_close(m.ind_mean, ind, 1e-13, "2 samples by hand: mean q^T R_r k via rl_rope_matrix");
  tap_abs_close(m.self_mean, self, 1e-13, "2 samples by hand: mean q^T R_r q via rl_rope_matrix");
  tap_abs_close(m.abel_max, abel, 1e-13, "2 samples by hand: Abel ratio, complex arithmetic");
  rl_mc_free(w);
  rl_schedule_free(f);
}

static void test_errors(void)
{
  rl_schedule *f = tap_rope(16, 16, 10000);
  rl_mc_ws *w = (rl_mc_ws *)1;
  tap_ok(rl_mc_alloc(f, 1, 1.0, 1, &w) == RL_EINVAL && w == NULL, "samples = 1: EINVAL");
  tap_ok(rl_mc_alloc(f, 0, 1.0, 1, &w) == RL_EINVAL, "samples = 0: EINVAL");
  tap_ok(rl_mc_alloc(f, 10, 0.0, 1, &w) == RL_EINVAL, "sigma = 0: EINVAL");
  tap_ok(rl_mc_alloc(f, 10, -1.0, 1, &w) == RL_EINVAL, "sigma < 0: EINVAL");
  tap_ok(rl_mc_alloc(f, 10, NAN, 1, &w) == RL_EINVAL, "sigma NaN: EINVAL");
  tap_ok(rl_mc_alloc(f, 10, INFINITY, 1, &w) == RL_EINVAL, "sigma inf: EINVAL");
  tap_ok(rl_mc_alloc(f, 10, 1.0001e100, 1, &w) == RL_EINVAL &&
             rl_mc_alloc(f, 10, 0.9999e-100, 1, &w) == RL_EINVAL,
         "sigma past RL_MC_SIGMA_MIN..MAX (1e-100..1e100): EINVAL");
  tap_ok(rl_mc_alloc(NULL, 10, 1.0, 1, &w) == RL_EINVAL, "no schedule: EINVAL");
  tap_ok(rl_mc_alloc(f, 2, 1.0, 1, &w) == RL_OK, "samples = 2: OK");
  rl_mc_result m;
  tap_ok(rl_mc_eval(w, 3e9, &m) == RL_ERANGE, "r past RL_POS_MAX: ERANGE");
  tap_ok(rl_mc_eval(w, NAN, &m) == RL_ERANGE, "r NaN: ERANGE");
  tap_ok(rl_mc_eval(w, 5, NULL) == RL_EINVAL, "no result: EINVAL");
  tap_ok(rl_mc_eval(w, 5, &m) == RL_OK && isfinite(m.ind_se) && isfinite(m.self_se),
         "two samples: finite standard errors");
  rl_mc_free(w);
  rl_mc_free(NULL);
  rl_schedule_free(f);
}

/* rl_mc_eval_many draws each sample once for all distances; it must give
 * rl_mc_eval's numbers at every distance bitwise (the same samples, the
 * same sums in the same order): a second evaluation order as the
 * reference.  On plain RoPE with pass-through dimensions, and on xpos,
 * whose per-pair amplitude depends on r. */
static void test_many(void)
{
  rl_schedule_params sp;
  rl_schedule_params_default(&sp);
  sp.dim = 96;
  sp.rot = 64;
  sp.method = rl_schedule_type_find("xpos");
  rl_schedule *fs[2] = {tap_rope(96, 64, 10000), NULL};
  if (!sp.method || rl_schedule_new(&sp, &fs[1], NULL)) {
    tap_ok(0, "xpos schedule for the rl_mc_eval_many test");
    fs[1] = NULL;
  }
  for (int k = 0; k < 2 && fs[k]; k++) {
    rl_mc_ws *w;
    rl_mc_result many[NR], one;
    rl_mc_alloc(fs[k], 300, 1.5, 11, &w);
    rl_status st = rl_mc_eval_many(w, NR, RS, many);
    tap_ok(st == RL_OK, "%s: rl_mc_eval_many over %d distances", k ? "xpos" : "rope", NR);
    for (size_t i = 0; i < NR && !st; i++) {
      rl_mc_eval(w, RS[i], &one);
      tap_ok(many[i].ind_mean == one.ind_mean && many[i].ind_se == one.ind_se &&
                 many[i].self_mean == one.self_mean && many[i].self_se == one.self_se &&
                 many[i].self_expect == one.self_expect && many[i].abel_max == one.abel_max,
             "%s r=%g: rl_mc_eval_many = rl_mc_eval bitwise", k ? "xpos" : "rope", RS[i]);
    }
    tap_ok(rl_mc_eval_many(w, 0, NULL, many) == RL_OK, "no distances: nothing to do");
    rl_mc_free(w);
    rl_schedule_free(fs[k]);
  }
}

int main(void)
{
  test_means(128, 128, 1.0, 4000);
  test_means(64, 32, 0.5, 4000); /* partial rotary: pass-through term */
  test_means(2, 2, 3.0, 4000);
  test_abel_tight();
  test_structure();
  test_by_hand();
  test_errors();
  test_many();
  return tap_done();
}
