/* schedules.c: properties of the frequency schedules (ropelab.h,
 * "frequency schedules") that follow from the methods' definitions, each
 * measured against a stated tolerance.
 *
 * Every check takes the user's dim, rot, base and layout from p->sched
 * and varies the method itself (with the other parameters at their
 * defaults and the values the check names), so the family runs on any
 * `ropelab check` configuration.  Quantities the check compares with are
 * recomputed here from the published formulas, not read back from the
 * schedule.  Ulp distances are measured at the expected value. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "check_impl.h"

#define PI_L 3.141592653589793238462643383279502884L
#define POS_MAX_CHECKED 1e6

/* |got - want| in units of the spacing of doubles at want (inf for NaN) */
static double ulps(double got, double want)
{
  if (got == want)
    return 0;
  if (isnan(got) || isnan(want))
    return HUGE_VAL;
  double a = fabs(want);
  double u = a < DBL_MIN ? DBL_TRUE_MIN : ldexp(DBL_EPSILON, ilogb(a));
  return fabs(got - want) / u;
}

/* The user's shape (dim, rot, base, layout) with everything else at the
 * defaults, for method t. */
static void shape(const rl_check_params *p, const rl_schedule_type *t, rl_schedule_params *q)
{
  rl_schedule_params_default(q);
  q->method = t;
  q->dim = p->sched.dim;
  q->rot = p->sched.rot;
  q->base = p->sched.base;
  q->layout = p->sched.layout;
}

static size_t rot_of(const rl_check_params *p)
{
  return p->sched.rot ? p->sched.rot : p->sched.dim;
}

static rl_status plain(const rl_check_params *p, rl_schedule **out)
{
  rl_schedule_params q;
  shape(p, rl_schedule_type_find("rope"), &q);
  return rl_schedule_new(&q, out, NULL);
}

/* Build method `name` on the user's shape with factor s and original
 * length L (each only when nonzero). */
static rl_status scaled(const rl_check_params *p, const char *name, double s, double L,
                        rl_schedule **out)
{
  rl_schedule_params q;
  shape(p, rl_schedule_type_find(name), &q);
  if (s > 0)
    rl_schedule_set(&q, "factor", s);
  if (L > 0)
    rl_schedule_set(&q, "train-len", L);
  if (L > 0 && (q.method->uses & RL_SP_SEQ_LEN)) /* at N = L (dynamic: hf needs it) */
    rl_schedule_set(&q, "seq-len", L);
  return rl_schedule_new(&q, out, NULL);
}

/* ------------------------------------------------------------------ */

static rl_status methods_reduce_to_rope(const rl_check_params *p, rl_check_result *res)
{
  static const char *const names[] = {"linear", "ntk", "dynamic", "yarn", "llama3"};
  rl_schedule *ref;
  rl_status st = plain(p, &ref);
  if (st)
    return st;
  double differ = 0, worst_ulp = 0;
  size_t built = 0;
  for (size_t k = 0; k < sizeof names / sizeof *names && !st; k++) {
    /* ntk and dynamic are defined for r > 2 only (s^(r/(r-2))) */
    if (rot_of(p) / 2 < rl_schedule_type_find(names[k])->min_pairs)
      continue;
    rl_schedule *s;
    if ((st = scaled(p, names[k], 1.0, 4096, &s)))
      break;
    built++;
    for (size_t i = 0; i < s->n; i++)
      if (s->theta[i] != ref->theta[i]) {
        differ++;
        worst_ulp = fmax(worst_ulp, ulps(s->theta[i], ref->theta[i]));
      }
    if (s->attn != 1.0 || s->logit_mult != 1.0)
      differ++;
    rl_schedule_free(s);
  }
  rl_schedule_free(ref);
  /* factor 1 is the identity of every scaling: the same real numbers as
   * RoFormer's, so the same doubles (each rounded once from the method's
   * formula) and attention factor exactly 1 */
  rl_check_set(res, differ + worst_ulp, 0.0);
  snprintf(res->detail, sizeof res->detail,
           "%zu methods at factor 1 (L 4096): %g pairs or attention factors differ from rope, "
           "max %g ulp", built, differ, worst_ulp);
  return st;
}

static rl_status pi_angles_in_range(const rl_check_params *p, rl_check_result *res)
{
  const double s = 8, L = 4096;
  rl_schedule *ref, *lin;
  rl_status st = plain(p, &ref);
  if (st)
    return st;
  if ((st = scaled(p, "linear", s, L, &lin))) {
    rl_schedule_free(ref);
    return st;
  }
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) {
    rl_schedule_free(ref);
    rl_schedule_free(lin);
    return RL_ENOMEM;
  }
  gsl_rng_set(rng, p->seed);
  /* m theta^linear grows with m: m = s L is the worst case; random m
   * below it as well */
  double worst = 0;
  for (size_t t = 0; t <= p->trials; t++) {
    double m = t == 0 ? s * L : floor(gsl_rng_uniform(rng) * (s * L + 1));
    for (size_t i = 0; i < lin->n; i++) {
      double e = m * lin->theta[i] / (L * ref->theta[i]) - 1;
      if (!(e <= worst))
        worst = e;
    }
  }
  gsl_rng_free(rng);
  rl_schedule_free(ref);
  rl_schedule_free(lin);
  /* theta/s and theta each rounded once (1/2 ulp each), two products and
   * a quotient (1/2 ulp each): below 4 eps */
  rl_check_set(res, worst, 4.0 * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail,
           "max (m theta_lin)/(L theta_rope) - 1 over m <= s L, s 8, L 4096, %zu positions",
           p->trials + 1);
  return RL_OK;
}

/* YaRN's correction dimension (HF find_correction_dim), in double here */
static double corr_dim(double r, double L, double base, double b)
{
  return r * log(L / (2 * 3.14159265358979323846 * b)) / (2 * log(base));
}

static rl_status yarn_ramp_ends(const rl_check_params *p, rl_check_result *res)
{
  const double s = 8, L = 4096;
  rl_schedule *ref, *y;
  rl_status st = plain(p, &ref);
  if (st)
    return st;
  if ((st = scaled(p, "yarn", s, L, &y))) {
    rl_schedule_free(ref);
    return st;
  }
  double r = (double)y->rot;
  double low = floor(corr_dim(r, L, p->sched.base, 32));
  double high = ceil(corr_dim(r, L, p->sched.base, 1));
  low = fmax(low, 0);
  high = fmin(high, r - 1);
  /* the ramp is 0 at i <= low and 1 at i >= high: the first pairs keep
   * theta exactly (no arithmetic on it), the last are theta/s, within
   * 1 ulp (theta/s rounded once from the long-double product; dividing
   * the rounded theta by s = 8 is exact) */
  double wrong = 0, worst = 0;
  size_t nlow = 0, nhigh = 0;
  for (size_t i = 0; i < y->n; i++) {
    if ((double)i <= low) {
      nlow++;
      if (y->theta[i] != ref->theta[i])
        wrong++;
    } else if ((double)i >= high) {
      nhigh++;
      worst = fmax(worst, ulps(y->theta[i], ref->theta[i] / s));
    }
  }
  rl_schedule_free(ref);
  rl_schedule_free(y);
  /* error: the largest ulp distance of the interpolated end, plus 2 for
   * every pair of the extrapolated end that is not bitwise equal */
  rl_check_set(res, worst + 2 * wrong, 1.0);
  snprintf(res->detail, sizeof res->detail,
           "yarn s 8 L 4096: %zu pairs <= low %g kept (%g differ), %zu pairs >= high %g at "
           "theta/s (max %g ulp)", nlow, low, wrong, nhigh, high, worst);
  return RL_OK;
}

static rl_status llama3_bands(const rl_check_params *p, rl_check_result *res)
{
  const double s = 8, L = 8192, lo = 1, hi = 4;
  rl_schedule *ref, *y;
  rl_status st = plain(p, &ref);
  if (st)
    return st;
  if ((st = scaled(p, "llama3", s, L, &y))) {
    rl_schedule_free(ref);
    return st;
  }
  size_t count[3] = {0, 0, 0};
  double wrong = 0, worst = 0;
  for (size_t i = 0; i < y->n; i++) {
    /* the exact wavelength 2 pi base^(2i/r), in long double */
    long double wl = 2 * PI_L * powl((long double)p->sched.base,
                                     (long double)(2 * i) / (long double)y->rot);
    int band = wl < (long double)(L / hi)   ? RL_BAND_EXTRAPOLATED
               : wl > (long double)(L / lo) ? RL_BAND_INTERPOLATED
                                            : RL_BAND_BETWEEN;
    count[band]++;
    if (y->band[i] != band)
      wrong++;
    else if (band == RL_BAND_EXTRAPOLATED)
      wrong += y->theta[i] != ref->theta[i];
    else if (band == RL_BAND_INTERPOLATED)
      worst = fmax(worst, ulps(y->theta[i], ref->theta[i] / s));
    else
      wrong += !(y->theta[i] > ref->theta[i] / s && y->theta[i] < ref->theta[i]);
  }
  rl_schedule_free(ref);
  rl_schedule_free(y);
  /* error: the largest ulp distance of an interpolated pair from
   * theta/s (rounded once: 1 ulp), plus 2 for every pair in the wrong
   * band, extrapolated but not bitwise equal, or between but outside
   * (theta/s, theta) */
  rl_check_set(res, worst + 2 * wrong, 1.0);
  snprintf(res->detail, sizeof res->detail,
           "llama3 s 8 L 8192: %zu/%zu/%zu pairs extrapolated/between/interpolated, %g wrong, "
           "max %g ulp", count[0], count[2], count[1], wrong, worst);
  return RL_OK;
}

static rl_status ntk_lowest_frequency(const rl_check_params *p, rl_check_result *res)
{
  if (rot_of(p) <= 2) { /* one pair: ntk is not defined (r/(r-2)) */
    rl_check_set(res, 0, 1.0);
    snprintf(res->detail, sizeof res->detail, "r = 2: ntk needs r > 2, nothing to check");
    return RL_OK;
  }
  static const double fs[] = {2, 8};
  rl_schedule *ref;
  rl_status st = plain(p, &ref);
  if (st)
    return st;
  double worst = 0;
  for (size_t k = 0; k < 2 && !st; k++) {
    rl_schedule *s;
    if ((st = scaled(p, "ntk", fs[k], 0, &s)))
      break;
    size_t j = s->n - 1;
    /* (base s^(r/(r-2)))^(-(r-2)/r) = base^(-(r-2)/r) / s exactly; the
     * rounded plain theta divided by a power of two is exact, so the one
     * rounding of the ntk theta leaves 1 ulp */
    worst = fmax(worst, ulps(s->theta[j], ref->theta[j] / fs[k]));
    rl_schedule_free(s);
  }
  rl_schedule_free(ref);
  rl_check_set(res, worst, 1.0);
  snprintf(res->detail, sizeof res->detail,
           "max ulps of theta_{n-1}^ntk from theta_{n-1}^rope / s, s in {2, 8}");
  return st;
}

/* ---- the relative-position property for every method ---- */

static double dot(const double *u, const double *v, size_t d)
{
  double s = 0;
  for (size_t i = 0; i < d; i++)
    s += u[i] * v[i];
  return s;
}

/* A LongRoPE factors file (2 short, 4 long per pair) in $TMPDIR; its name
 * into path (removed by the caller). */
static rl_status factors_file(size_t n, char *path, size_t size)
{
  const char *dir = getenv("TMPDIR");
  snprintf(path, size, "%s/ropelab-check-XXXXXX", dir && dir[0] ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0)
    return RL_EIO;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(path);
    return RL_EIO;
  }
  fprintf(f, "pair,short,long\n");
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%zu,2,4\n", i);
  if (fclose(f)) {
    unlink(path);
    return RL_EIO;
  }
  return RL_OK;
}

static rl_status relative_all_methods(const rl_check_params *p, rl_check_result *res)
{
  static const char *const names[] = {"rope",   "linear", "ntk",  "dynamic", "yarn",  "llama3",
                                      "longrope", "p-rope", "xpos", "log-n",   "mrope"};
  size_t d = p->sched.dim, n = rot_of(p) / 2;
  char path[4096];
  rl_status st = factors_file(n, path, sizeof path);
  if (st)
    return st;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  double *q = malloc(5 * d * sizeof *q);
  if (!rng || !q) {
    gsl_rng_free(rng);
    free(q);
    unlink(path);
    return RL_ENOMEM;
  }
  gsl_rng_set(rng, p->seed);
  double *k = q + d, *a = k + d, *b = a + d, *c = b + d, worst = 0;
  size_t built = 0;
  for (size_t j = 0; j < sizeof names / sizeof *names && !st; j++) {
    const rl_schedule_type *t = rl_schedule_type_find(names[j]);
    if (n < t->min_pairs)
      continue; /* ntk, dynamic need r > 2; mrope three nonempty sections */
    rl_schedule_params sp;
    shape(p, t, &sp);
    /* each setting where the method takes it */
    char sec[96];
    snprintf(sec, sizeof sec, "%zu,%zu,%zu", n / 3, n / 3, n - 2 * (n / 3));
    static const struct {
      const char *key;
      double x;
    } nums[] = {{"factor", 8}, {"train-len", 4096}, {"seq-len", 8192}, {"fraction", 0.5}};
    for (size_t u = 0; u < sizeof nums / sizeof *nums; u++)
      if (rl_schedule_param_applies(rl_schedule_param_find(nums[u].key), t))
        rl_schedule_set(&sp, nums[u].key, nums[u].x);
    const char *texts[][2] = {{"factors", path}, {"sections", sec}};
    for (size_t u = 0; u < 2; u++)
      if (rl_schedule_param_applies(rl_schedule_param_find(texts[u][0]), t))
        rl_schedule_set_text(&sp, texts[u][0], texts[u][1], NULL, 0);
    rl_schedule *f;
    if ((st = rl_schedule_new(&sp, &f, NULL)))
      break;
    built++;
    /* p->trials pairs of positions in all, spread over the methods */
    size_t trials = p->trials / (sizeof names / sizeof *names);
    if (trials < 2)
      trials = 2;
    for (size_t tr = 0; tr < trials && !st; tr++) {
      for (size_t i = 0; i < d; i++) {
        q[i] = gsl_ran_gaussian(rng, 1.0);
        k[i] = gsl_ran_gaussian(rng, 1.0);
      }
      double m = gsl_rng_uniform(rng) * POS_MAX_CHECKED;
      double nn = gsl_rng_uniform(rng) * POS_MAX_CHECKED;
      if (tr % 2) { /* integers half the time */
        m = floor(m);
        nn = floor(nn);
      }
      st = rl_rope_apply_elementwise(f, sp.layout, m, q, a);
      if (!st)
        st = rl_rope_apply_elementwise(f, sp.layout, nn, k, b);
      if (!st)
        st = rl_rope_apply_elementwise(f, sp.layout, nn - m, k, c);
      double e = fabs(dot(a, b, d) - dot(q, c, d)) / sqrt(dot(q, q, d) * dot(k, k, d));
      if (!(e <= worst))
        worst = e;
    }
    rl_schedule_free(f);
  }
  unlink(path);
  gsl_rng_free(rng);
  free(q);
  /* as checks/rope.c relative_position: ~2 ulp per rotated component and
   * a d-term dot product (gamma_d), twice; n - m exact below 2^20 */
  rl_check_set(res, worst, 2.0 * (double)(d + 2) * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail,
           "max |<R_m q,R_n k> - <q,R_{n-m} k>|/(|q||k|) over %zu methods, m,n <= 1e6", built);
  return st;
}

static rl_status file_roundtrip(const rl_check_params *p, rl_check_result *res)
{
  rl_schedule *y, *g = NULL;
  rl_status st = scaled(p, "yarn", 8, 4096, &y);
  if (st)
    return st;
  const char *dir = getenv("TMPDIR");
  char path[4096], num[RL_NUMFMT_MAX];
  snprintf(path, sizeof path, "%s/ropelab-check-XXXXXX", dir && dir[0] ? dir : "/tmp");
  int fd = mkstemp(path);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f) {
    if (fd >= 0) {
      close(fd);
      unlink(path);
    }
    rl_schedule_free(y);
    return RL_EIO;
  }
  rl_numfmt(y->attn, num);
  fprintf(f, "# attention_factor=%s\npair,theta\n", num);
  for (size_t i = 0; i < y->n; i++) {
    rl_numfmt(y->theta[i], num);
    fprintf(f, "%zu,%s\n", i, num);
  }
  if (fclose(f))
    st = RL_EIO;
  if (!st) {
    rl_schedule_params q;
    shape(p, rl_schedule_type_find("file"), &q);
    rl_schedule_set_text(&q, "freqs-file", path, NULL, 0);
    st = rl_schedule_new(&q, &g, NULL);
  }
  unlink(path);
  double differ = 0;
  if (!st) {
    for (size_t i = 0; i < y->n; i++)
      differ += g->theta[i] != y->theta[i];
    differ += g->attn != y->attn;
    differ += g->logit_mult != y->logit_mult;
  }
  rl_schedule_free(y);
  rl_schedule_free(g);
  /* rl_numfmt's shortest decimal reads back as exactly the double */
  rl_check_set(res, differ, 0.0);
  snprintf(res->detail, sizeof res->detail,
           "yarn s 8 L 4096 written with rl_numfmt and read as method file: %g of %zu values "
           "differ", differ, rot_of(p) / 2 + 2);
  return st;
}

static rl_status yarn_attention_factor(const rl_check_params *p, rl_check_result *res)
{
  rl_schedule *y;
  rl_status st = scaled(p, "yarn", 8, 4096, &y);
  if (st)
    return st;
  /* 0.1 ln 8 + 1 = 1.20794415416798359..., the double nearest; YaRN's
   * paper and HF get_mscale give 1.2079442 */
  const double want = 1.2079441541679836;
  double attn = y->attn;
  double ea = ulps(attn, want), el = ulps(y->logit_mult, attn * attn);
  rl_schedule_free(y);
  /* attn rounded once from long double (1/2 ulp) against a 17-digit
   * constant (1/2 ulp): 2 ulp; logit_mult = attn^2 rounded once: 1 ulp.
   * error in units of these: max(ea / 2, el / 1) */
  rl_check_set(res, fmax(ea / 2, el), 1.0);
  snprintf(res->detail, sizeof res->detail,
           "yarn s 8: attn %.17g is %g ulp from 0.1 ln 8 + 1 (tol 2), logit_mult %g ulp from "
           "attn^2 (tol 1)", attn, ea, el);
  return RL_OK;
}

const rl_check rl_checks_schedules[] = {
  {"methods_reduce_to_rope", "linear, ntk, dynamic, yarn, llama3 at factor 1 give rope's theta bitwise and attention factor 1", methods_reduce_to_rope},
  {"pi_angles_in_range", "position interpolation s 8: m theta^linear <= L theta^rope for m <= s L", pi_angles_in_range},
  {"yarn_ramp_ends", "yarn s 8 L 4096: pairs <= low keep theta, pairs >= high get theta/s", yarn_ramp_ends},
  {"llama3_bands", "llama3 s 8 L 8192: each pair in the band its wavelength says, with ratio 1 or 1/s", llama3_bands},
  {"ntk_lowest_frequency", "ntk s 2, 8: the lowest frequency is rope's divided by s", ntk_lowest_frequency},
  {"relative_all_methods", "<R_m q, R_n k> = <q, R_{n-m} k> for every method with per-pair frequencies", relative_all_methods},
  {"file_roundtrip", "a yarn schedule written as CSV and read as method file is the same bitwise", file_roundtrip},
  {"yarn_attention_factor", "yarn s 8: attention factor 0.1 ln 8 + 1 = 1.2079442, logit multiplier its square", yarn_attention_factor},
  {NULL, NULL, NULL},
};
