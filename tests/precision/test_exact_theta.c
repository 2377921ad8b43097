/* test_exact_theta.c: the exact pipeline's frequencies against MPFR.
 *
 * The reference evaluates each method's formula here, independently of
 * the core (which uses libquadmath), in 256-bit MPFR arithmetic:
 *   rope    theta_i = b^(-2i/r)                      (RoFormer eq. 15)
 *   linear  theta_i / s                              (Chen et al. 2023)
 *   ntk     theta_i s^(-2i/(r-2))                    (b' = b s^(r/(r-2)))
 *   yarn    theta_i ((1 - g_i) + g_i / s), g_i the ramp over the pair index
 *           between floor(cd(32)) and ceil(cd(1)), cd(b) = r ln(L/(2 pi b)) /
 *           (2 ln base)                              (HF _compute_yarn_parameters)
 *   llama3  kept below wavelength L/4, theta/s above L/1, between
 *           (1 - g) theta/s + g theta, g = (L/lambda - 1)/3
 * and checks, at r = 2^31 - 1 (the promise, |r| <= 2^31):
 *   |r (theta + theta_lo) - r theta_exact| <= 1e-12 rad for every pair;
 *   B_r and RoFormer's bound (rl_decay_similarity_ref / bound_ref) within
 *   1e-9 absolute of the MPFR sums (cos, sin of the MPFR angle).
 * The fp64 pipeline (the double nearest theta) must miss the 1e-12 (it is
 * off by up to 2^31 ulp(theta)/2 ~ 1e-7): the test can fail.  Prints the
 * achieved worst errors (quoted in experiments/precision/README.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

#ifndef RL_HAVE_MPFR
int main(void)
{
  tap_skip("MPFR not found (Debian: libmpfr-dev)");
  return tap_done();
}
#else
#include <mpfr.h>
#define PREC 256

typedef struct { const char *method; double base, factor, L; } cfg;

/* theta_i of c, exactly (to 2^-250), into t */
static void exact_theta(const cfg *c, size_t r, size_t i, mpfr_t t)
{
  mpfr_t a, b, pi, lam;
  mpfr_inits2(PREC, a, b, pi, lam, (mpfr_ptr)0);
  mpfr_const_pi(pi, MPFR_RNDN);
  /* b^(-2i/r) */
  mpfr_set_d(a, c->base, MPFR_RNDN);
  mpfr_set_si(b, -(long)(2 * i), MPFR_RNDN);
  mpfr_div_ui(b, b, (unsigned long)r, MPFR_RNDN);
  mpfr_pow(t, a, b, MPFR_RNDN);
  if (!strcmp(c->method, "linear")) {
    mpfr_div_d(t, t, c->factor, MPFR_RNDN);
  } else if (!strcmp(c->method, "ntk")) {
    mpfr_set_d(a, c->factor, MPFR_RNDN);
    mpfr_set_si(b, -(long)(2 * i), MPFR_RNDN);
    mpfr_div_ui(b, b, (unsigned long)(r - 2), MPFR_RNDN);
    mpfr_pow(a, a, b, MPFR_RNDN);
    mpfr_mul(t, t, a, MPFR_RNDN);
  } else if (!strcmp(c->method, "yarn")) {
    double cd[2], beta[2] = {32, 1};
    for (int k = 0; k < 2; k++) { /* cd(beta) = r ln(L / (2 pi beta)) / (2 ln base) */
      mpfr_mul_d(a, pi, 2 * beta[k], MPFR_RNDN);
      mpfr_d_div(a, c->L, a, MPFR_RNDN);
      mpfr_log(a, a, MPFR_RNDN);
      mpfr_mul_ui(a, a, (unsigned long)r, MPFR_RNDN);
      mpfr_set_d(b, c->base, MPFR_RNDN);
      mpfr_log(b, b, MPFR_RNDN);
      mpfr_mul_ui(b, b, 2, MPFR_RNDN);
      mpfr_div(a, a, b, MPFR_RNDN);
      cd[k] = k == 0 ? floor(mpfr_get_d(a, MPFR_RNDD)) : ceil(mpfr_get_d(a, MPFR_RNDU));
    }
    double lo = fmax(cd[0], 0), hi = fmin(cd[1], (double)r - 1);
    double g = ((double)i - lo) / (hi - lo); /* small integers: exact enough? no: */
    /* the ramp (i - lo)/(hi - lo) in MPFR */
    mpfr_set_d(a, (double)i - lo, MPFR_RNDN);
    mpfr_div_d(a, a, hi - lo, MPFR_RNDN);
    if (g <= 0)
      mpfr_set_ui(a, 0, MPFR_RNDN);
    if (g >= 1)
      mpfr_set_ui(a, 1, MPFR_RNDN);
    /* keep = 1 - g; theta (keep + (1 - keep)/s) = theta ((1 - g) + g/s) */
    mpfr_div_d(b, a, c->factor, MPFR_RNDN);
    mpfr_ui_sub(a, 1, a, MPFR_RNDN);
    mpfr_add(a, a, b, MPFR_RNDN);
    mpfr_mul(t, t, a, MPFR_RNDN);
  } else if (!strcmp(c->method, "llama3")) {
    mpfr_mul_ui(lam, pi, 2, MPFR_RNDN);
    mpfr_div(lam, lam, t, MPFR_RNDN); /* wavelength */
    if (mpfr_cmp_d(lam, c->L / 4) < 0) {
      /* kept */
    } else if (mpfr_cmp_d(lam, c->L) > 0) {
      mpfr_div_d(t, t, c->factor, MPFR_RNDN);
    } else {
      mpfr_d_div(a, c->L, lam, MPFR_RNDN);
      mpfr_sub_ui(a, a, 1, MPFR_RNDN);
      mpfr_div_ui(a, a, 3, MPFR_RNDN); /* g */
      mpfr_ui_sub(b, 1, a, MPFR_RNDN);
      mpfr_div_d(b, b, c->factor, MPFR_RNDN);
      mpfr_add(b, b, a, MPFR_RNDN);
      mpfr_mul(t, t, b, MPFR_RNDN);
    }
  }
  mpfr_clears(a, b, pi, lam, (mpfr_ptr)0);
}

static void run(const cfg *c, size_t dim, int fp64, double *worst_ang, double *worst_b)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find(c->method);
  p.dim = dim;
  p.base = c->base;
  if (strcmp(c->method, "rope")) {
    p.factor = c->factor;
    p.set |= RL_SP_FACTOR;
  }
  if (c->L > 0) {
    p.train_len = c->L;
    p.set |= RL_SP_TRAIN_LEN;
  }
  if (fp64)
    p.precision = rl_precision_fp64();
  rl_schedule *s;
  char err[RL_ERR_MAX];
  if (rl_schedule_new(&p, &s, err)) {
    tap_ok(0, "build %s: %s", c->method, err);
    return;
  }
  const double R = 2147483647.0; /* 2^31 - 1 */
  mpfr_t t, got, ang, cs, sn, sr, si, acc, bsum, tmp;
  mpfr_inits2(PREC, t, got, ang, cs, sn, sr, si, acc, bsum, tmp, (mpfr_ptr)0);
  mpfr_set_ui(sr, 0, MPFR_RNDN);
  mpfr_set_ui(si, 0, MPFR_RNDN);
  mpfr_set_ui(acc, 0, MPFR_RNDN);
  mpfr_set_ui(bsum, 0, MPFR_RNDN);
  double wa = 0;
  for (size_t i = 0; i < s->n; i++) {
    exact_theta(c, s->rot, i, t);
    mpfr_set_d(got, s->theta[i], MPFR_RNDN);
    mpfr_add_d(got, got, s->theta_lo[i], MPFR_RNDN); /* exact at 256 bits */
    mpfr_sub(got, got, t, MPFR_RNDN);
    mpfr_mul_d(got, got, R, MPFR_RNDN);
    wa = fmax(wa, fabs(mpfr_get_d(got, MPFR_RNDN)));
    mpfr_mul_d(ang, t, R, MPFR_RNDN);
    mpfr_sin_cos(sn, cs, ang, MPFR_RNDN);
    mpfr_add(bsum, bsum, cs, MPFR_RNDN);
    mpfr_add(sr, sr, cs, MPFR_RNDN);
    mpfr_add(si, si, sn, MPFR_RNDN);
    mpfr_hypot(tmp, sr, si, MPFR_RNDN);
    mpfr_add(acc, acc, tmp, MPFR_RNDN);
  }
  mpfr_div_ui(acc, acc, (unsigned long)s->n, MPFR_RNDN);
  double mult = s->logit_mult;
  double eb = fabs(rl_decay_similarity_ref(s, R) - mpfr_get_d(bsum, MPFR_RNDN) * mult);
  double ebound = fabs(rl_decay_bound_ref(s, R) - mpfr_get_d(acc, MPFR_RNDN) * mult);
  *worst_ang = wa;
  *worst_b = fmax(eb, ebound);
  mpfr_clears(t, got, ang, cs, sn, sr, si, acc, bsum, tmp, (mpfr_ptr)0);
  rl_schedule_free(s);
}

int main(void)
{
  static const cfg cfgs[] = {
      {"rope", 10000, 1, 0},      {"rope", 500000, 1, 0},     {"linear", 10000, 3, 0},
      {"ntk", 10000, 5, 0},       {"yarn", 10000, 8, 4096},   {"llama3", 500000, 8, 8192},
  };
  double all_a = 0, all_b = 0;
  for (size_t k = 0; k < sizeof cfgs / sizeof *cfgs; k++)
    for (size_t dim = 64; dim <= 128; dim += 64) {
      double wa, wb, fa, fb;
      run(&cfgs[k], dim, 0, &wa, &wb);
      tap_le(wa, 1e-12, "exact %s d=%zu base %g: max_i |r (theta + theta_lo) - r theta| at "
             "r = 2^31-1 (rad)", cfgs[k].method, dim, cfgs[k].base);
      tap_le(wb, 1e-9, "exact %s d=%zu base %g: B_r and bound at r = 2^31-1 vs MPFR",
             cfgs[k].method, dim, cfgs[k].base);
      all_a = fmax(all_a, wa);
      all_b = fmax(all_b, wb);
      run(&cfgs[k], dim, 1, &fa, &fb);
      tap_ok(fa > 1e-12, "fp64 %s d=%zu misses 1e-12 rad (%.3g): the test can fail",
             cfgs[k].method, dim, fa);
    }
  printf("# achieved: angle error <= %.3g rad, B_r/bound error <= %.3g at r = 2^31-1\n", all_a,
         all_b);
  return tap_done();
}
#endif
