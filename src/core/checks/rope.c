/* rope.c: the RoPE properties a user's CI can hold ropelab to.
 *
 * Every check draws seeded random vectors and positions, measures the
 * largest violation, and compares it with a tolerance derived from the
 * rounding of the computation (DBL_EPSILON multiples) or, for Monte
 * Carlo, from the standard error. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "check_impl.h"

#define POS_MAX_CHECKED 1e6 /* the issue: m, n up to 10^6 */

typedef struct ctx {
  rl_schedule *f;
  gsl_rng *rng;
  double *q, *k, *a, *b, *c;
  double *ws;   /* d x d for the matrix form, allocated on first use */
  size_t dense; /* trials that run the matrix form (dense_trials) */
} ctx;

static void ctx_free(ctx *x)
{
  rl_schedule_free(x->f);
  gsl_rng_free(x->rng);
  free(x->q);
  free(x->ws);
}

/* Trials of implementations_agree that also run the matrix form: every
 * trial up to d = 128 (the default), beyond it trials * 128 / d (at least
 * one per layout), so that its O(d^2) product costs about what the O(d)
 * forms cost.  This keeps the check's power: the matrix form takes the
 * same cos/sin (rl_schedule_sincos) as the elementwise form, which every
 * trial still compares with the complex form at its own position; what
 * is the matrix form's own (where rl_rope_matrix puts c, -s, s, c for
 * each pair in each layout, the identity on pass-through dimensions, the
 * BLAS product) does not depend on the position and is exercised in full,
 * every entry of every row, by each call with a Gaussian x (no zero
 * component), so a fault in it shows in the first trial of its layout. */
static size_t dense_trials(const rl_check_params *p)
{
  size_t d = p->sched.dim, t = p->trials;
  if (d <= 128)
    return t;
  size_t n = (size_t)((double)t * 128.0 / (double)d);
  return n < 2 ? (t < 2 ? t : 2) : n;
}

static rl_status ctx_init(ctx *x, const rl_check_params *p)
{
  *x = (ctx){0};
  rl_status st = rl_schedule_new(&p->sched, &x->f, NULL);
  if (st)
    return st;
  size_t d = p->sched.dim;
  x->rng = gsl_rng_alloc(gsl_rng_mt19937);
  x->q = malloc(5 * d * sizeof *x->q);
  if (!x->rng || !x->q) {
    ctx_free(x);
    return RL_ENOMEM;
  }
  gsl_rng_set(x->rng, p->seed);
  x->dense = dense_trials(p);
  x->k = x->q + d;
  x->a = x->k + d;
  x->b = x->a + d;
  x->c = x->b + d;
  return RL_OK;
}

static void gauss(gsl_rng *r, double *v, size_t d)
{
  for (size_t i = 0; i < d; i++)
    v[i] = gsl_ran_gaussian(r, 1.0);
}

static double dot(const double *u, const double *v, size_t d)
{
  double s = 0;
  for (size_t i = 0; i < d; i++)
    s += u[i] * v[i];
  return s;
}

static double norm(const double *v, size_t d)
{
  return sqrt(dot(v, v, d));
}

/* a position in [0, 10^6]: half integers, half not, so both are exercised */
static double position(gsl_rng *r, size_t t)
{
  double m = gsl_rng_uniform(r) * POS_MAX_CHECKED;
  return t % 2 ? floor(m) : m;
}

/* Under a framework precision pipeline the rotation properties
 * (relative position, norm, composition) are measured in its arithmetic:
 * the vectors rounded to its activation dtype, each rotation by
 * rl_rope_apply_pipeline (no attention factor).  The tolerances stay the
 * exact computation's, so such a run reports how far the framework's
 * RoPE is from the properties (float32 angles at m ~ 1e6 are off by
 * ~0.06 rad): failing them is the expected finding, not a bug. */
static void act(const rl_schedule *f, double *v, size_t d)
{
  for (size_t i = 0; !f->prec->exact && i < d; i++)
    v[i] = rl_dtype_round(f->prec->act_dtype, v[i]);
}

static rl_status turn(const rl_schedule *f, double m, const double *x, double *y)
{
  return f->prec->exact ? rl_rope_apply_elementwise(f, RL_LAYOUT_INTERLEAVED, m, x, y)
                        : rl_rope_apply_pipeline(f, RL_LAYOUT_INTERLEAVED, m, 0, x, y);
}

/* One random trial of a vector property: fills x's vectors as it needs and
 * returns the violation it measured (scaled as its check documents). */
typedef double trial_fn(ctx *x, size_t t, rl_status *st);

/* The largest violation over p->trials trials (NaN wins, so it fails). */
static rl_status worst_trial(const rl_check_params *p, trial_fn *trial, double *worst)
{
  ctx x;
  rl_status st = ctx_init(&x, p);
  *worst = 0;
  for (size_t t = 0; t < p->trials && !st; t++) {
    double e = trial(&x, t, &st);
    if (!(e <= *worst))
      *worst = e;
  }
  ctx_free(&x);
  return st;
}

static double max_abs_diff(const double *u, const double *v, size_t d)
{
  double e = 0;
  for (size_t i = 0; i < d; i++)
    e = fmax(e, fabs(u[i] - v[i]));
  return e;
}

/* <R_m q, R_n k> = <q, R_{n-m} k> (RoFormer eq. 16). */
static double relative_trial(ctx *x, size_t t, rl_status *st)
{
  size_t d = x->f->dim;
  gauss(x->rng, x->q, d);
  gauss(x->rng, x->k, d);
  act(x->f, x->q, d);
  act(x->f, x->k, d);
  double m = position(x->rng, t), n = position(x->rng, t + 1);
  *st = turn(x->f, m, x->q, x->a);
  if (!*st)
    *st = turn(x->f, n, x->k, x->b);
  if (!*st)
    *st = turn(x->f, n - m, x->k, x->c);
  return fabs(dot(x->a, x->b, d) - dot(x->q, x->c, d)) / (norm(x->q, d) * norm(x->k, d));
}

static rl_status relative_position(const rl_check_params *p, rl_check_result *res)
{
  double worst;
  rl_status st = worst_trial(p, relative_trial, &worst);
  /* each rotated component is within ~2 ulp of |pair|; a d-term dot
   * product adds at most d ulp (gamma_d), twice: 2(d+2) eps relative to
   * |q||k|.  n - m is exact (both below 2^20, Sterbenz / integer). */
  rl_check_set(res, worst, 2.0 * (double)(p->sched.dim + 2) * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail,
           "max |<R_m q,R_n k> - <q,R_{n-m} k>|/(|q||k|), %zu pairs, m,n <= 1e6", p->trials);
  return st;
}

/* |R_m x| = |x|. */
static double norm_trial(ctx *x, size_t t, rl_status *st)
{
  size_t d = x->f->dim;
  gauss(x->rng, x->q, d);
  act(x->f, x->q, d);
  double m = position(x->rng, t);
  *st = x->f->prec->exact ? rl_rope_apply_complex(x->f, RL_LAYOUT_INTERLEAVED, m, x->q, x->a)
                          : turn(x->f, m, x->q, x->a);
  double nq = norm(x->q, d);
  return fabs(norm(x->a, d) - nq) / nq;
}

static rl_status norm_preservation(const rl_check_params *p, rl_check_result *res)
{
  double worst;
  rl_status st = worst_trial(p, norm_trial, &worst);
  /* two sums of d squares (gamma_d each) and ~2 ulp per rotated pair */
  rl_check_set(res, worst, (double)(p->sched.dim + 4) * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail, "max ||R_m x| - |x||/|x|, %zu vectors", p->trials);
  return st;
}

/* R_m R_n = R_{m+n}. */
static double composition_trial(ctx *x, size_t t, rl_status *st)
{
  size_t d = x->f->dim;
  gauss(x->rng, x->q, d);
  act(x->f, x->q, d);
  double m = floor(position(x->rng, t)), n = floor(position(x->rng, t + 1));
  *st = turn(x->f, n, x->q, x->a);
  if (!*st)
    *st = turn(x->f, m, x->a, x->b);
  if (!*st)
    *st = turn(x->f, m + n, x->q, x->c);
  return max_abs_diff(x->b, x->c, d) / norm(x->q, d);
}

static rl_status composition(const rl_check_params *p, rl_check_result *res)
{
  double worst;
  rl_status st = worst_trial(p, composition_trial, &worst);
  /* three rotations, each within ~2 ulp of the pair's magnitude (which is
   * at most |x|): 8 eps leaves room for the additions */
  rl_check_set(res, worst, 8.0 * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail,
           "max |R_m R_n x - R_{m+n} x|/|x|, integer m,n <= 1e6, %zu vectors", p->trials);
  return st;
}

/* matrix, elementwise and complex forms give the same vector. */
static double implementations_trial(ctx *x, size_t t, rl_status *st)
{
  size_t d = x->f->dim;
  rl_layout lay = t % 2 ? RL_LAYOUT_HALF : RL_LAYOUT_INTERLEAVED;
  double m = position(x->rng, t);
  gauss(x->rng, x->q, d);
  int dense = t < x->dense;
  if (dense && !x->ws && !(x->ws = malloc(d * d * sizeof *x->ws))) {
    *st = RL_ENOMEM;
    return 0;
  }
  *st = rl_rope_apply_elementwise(x->f, lay, m, x->q, x->b);
  if (!*st)
    *st = rl_rope_apply_complex(x->f, lay, m, x->q, x->c);
  if (!*st && dense)
    *st = rl_rope_apply_matrix(x->f, lay, m, x->q, x->a, x->ws);
  double e = max_abs_diff(x->b, x->c, d);
  if (dense)
    e = fmax(max_abs_diff(x->a, x->b, d), e);
  return e / norm(x->q, d);
}

static rl_status implementations(const rl_check_params *p, rl_check_result *res)
{
  double worst;
  rl_status st = worst_trial(p, implementations_trial, &worst);
  /* same cos/sin in all three; each output is a two-term sum (the matrix
   * row's other entries are exact zeros): at most 2 ulp apart each */
  rl_check_set(res, worst, 4.0 * DBL_EPSILON);
  size_t dense = dense_trials(p);
  if (dense == p->trials)
    snprintf(res->detail, sizeof res->detail,
             "max componentwise difference of matrix, elementwise, complex /|x|, both layouts");
  else
    snprintf(res->detail, sizeof res->detail,
             "max componentwise difference of matrix, elementwise, complex /|x|, both layouts "
             "(matrix form in %zu of %zu trials: d > 128)", dense, p->trials);
  return st;
}

/* rotate_half(P x) = P rotate_interleaved(x): the weight converters' claim. */
static double layouts_trial(ctx *x, size_t t, rl_status *st)
{
  size_t d = x->f->dim, rot = x->f->rot;
  double m = position(x->rng, t);
  gauss(x->rng, x->q, d);
  rl_layout_permute(d, rot, 1, x->q, x->a);
  *st = rl_rope_apply_elementwise(x->f, RL_LAYOUT_HALF, m, x->a, x->b);
  if (!*st)
    *st = rl_rope_apply_elementwise(x->f, RL_LAYOUT_INTERLEAVED, m, x->q, x->c);
  rl_layout_permute(d, rot, 1, x->c, x->a);
  return max_abs_diff(x->a, x->b, d) / norm(x->q, d);
}

static rl_status layouts(const rl_check_params *p, rl_check_result *res)
{
  double worst;
  rl_status st = worst_trial(p, layouts_trial, &worst);
  /* the same products in the same order: equal up to fma contraction */
  rl_check_set(res, worst, 2.0 * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail, "max |rot_half(P x) - P rot_interleaved(x)|/|x|");
  return st;
}

/* distances for the Monte Carlo checks: short, medium, long range */
static const double mc_r[] = {0, 1, 3, 10, 50, 256, 1000, 4096, 1e5, 1e6};
#define MC_NR (sizeof mc_r / sizeof *mc_r)

typedef enum mc_kind { MC_ABEL, MC_IND, MC_SELF } mc_kind;

static rl_status mc_check(const rl_check_params *p, rl_check_result *res, mc_kind kind)
{
  rl_schedule *f;
  rl_status st = rl_schedule_new(&p->sched, &f, NULL);
  if (st)
    return st;
  rl_mc_ws *w;
  size_t samples = p->trials < 2 ? 2 : p->trials;
  if (kind != MC_ABEL && samples < RL_CHECK_MC_MIN_TRIALS) {
    rl_schedule_free(f);
    return RL_EINVAL; /* too few samples to judge in standard errors */
  }
  st = rl_mc_alloc(f, samples, 1.0, p->seed, &w);
  /* all distances in one pass over the samples: the numbers of one
   * rl_mc_eval per distance, without drawing every sample ten times */
  rl_mc_result mr[MC_NR];
  if (!st)
    st = rl_mc_eval_many(w, MC_NR, mc_r, mr);
  double worst = 0, at = 0;
  for (size_t i = 0; i < MC_NR && !st; i++) {
    rl_mc_result m = mr[i];
    double e = kind == MC_ABEL  ? m.abel_max
             : kind == MC_IND   ? fabs(m.ind_mean) / m.ind_se
                                : fabs(m.self_mean - m.self_expect) / m.self_se;
    if (!(e <= worst)) { /* also catches NaN */
      worst = e;
      at = mc_r[i];
    }
  }
  rl_mc_free(w);
  rl_schedule_free(f);
  switch (kind) {
  case MC_ABEL:
    /* the bound is an inequality; allow only the rounding of the two
     * d-term sums that form the ratio */
    rl_check_set(res, worst, 1.0 + 4.0 * (double)p->sched.dim * DBL_EPSILON);
    snprintf(res->detail, sizeof res->detail,
             "max |q^T R_r k| / Abel bound over %zu samples, %zu distances to 1e6 (worst r=%g)",
             samples, (size_t)MC_NR, at);
    break;
  case MC_IND:
    rl_check_set(res, worst, 4.0);
    snprintf(res->detail, sizeof res->detail,
             "max |mean q^T R_r k| in standard errors, independent q,k (Barbero et al. 2024: 0), worst r=%g", at);
    break;
  case MC_SELF:
    rl_check_set(res, worst, 4.0);
    snprintf(res->detail, sizeof res->detail,
             "max |mean q^T R_r q - 2 sigma^2 B_r| in standard errors (Men et al. 2024 eq. 9), worst r=%g", at);
    break;
  }
  return st;
}

static rl_status abel_bound(const rl_check_params *p, rl_check_result *res)
{
  return mc_check(p, res, MC_ABEL);
}

static rl_status mc_independent(const rl_check_params *p, rl_check_result *res)
{
  return mc_check(p, res, MC_IND);
}

static rl_status mc_self(const rl_check_params *p, rl_check_result *res)
{
  return mc_check(p, res, MC_SELF);
}

size_t rl_check_min_trials(const rl_check *c)
{
  return c->run == mc_independent || c->run == mc_self ? RL_CHECK_MC_MIN_TRIALS : 1;
}

/* the streaming decay curve against the direct long-double sums */
static rl_status decay_fast_path(const rl_check_params *p, rl_check_result *res)
{
  rl_schedule *f;
  rl_status st = rl_schedule_new(&p->sched, &f, NULL);
  if (st)
    return st;
  rl_grid g;
  rl_decay_ws *w = NULL;
  st = rl_grid_linear(0, 1e4, 1, &g);
  if (!st)
    st = rl_decay_alloc(f, &g, &w);
  enum { CH = 512 };
  double r[CH], bound[CH], sim[CH], worst = 0;
  size_t stride = p->trials >= 1000 ? 1 : 10; /* fewer reference rows when asked for fewer trials */
  for (size_t j0 = 0; j0 < g.points && !st; j0 += CH) {
    size_t cnt = g.points - j0 < CH ? g.points - j0 : CH;
    st = rl_decay_eval(w, j0, cnt, r, bound, sim);
    for (size_t j = 0; j < cnt && !st; j += stride) {
      double rb = rl_decay_bound_ref(f, r[j]);
      double e = fabs(bound[j] - rb) / rb;
      if (!(e <= worst))
        worst = e;
    }
  }
  rl_decay_free(w);
  rl_schedule_free(f);
  /* the accuracy the decay command promises for its recurrences */
  rl_check_set(res, worst, 1e-12);
  snprintf(res->detail, sizeof res->detail,
           "max relative difference of the streamed bound from the long-double reference, r = 0..1e4");
  return st;
}

const rl_check rl_checks_rope[] = {
  {"relative_position", "<R_m q, R_n k> = <q, R_{n-m} k> for random q, k and m, n up to 1e6", relative_position},
  {"norm_preservation", "|R_m x| = |x|", norm_preservation},
  {"composition", "R_m R_n = R_{m+n}", composition},
  {"implementations_agree", "matrix, elementwise (RoFormer eq. 34) and complex forms agree", implementations},
  {"layout_equivalence", "half-split rotation of P x equals P times interleaved rotation of x", layouts},
  {"abel_bound", "|q^T R_r k| never exceeds its Abel-summation bound (RoFormer 3.4.3)", abel_bound},
  {"mc_independent_mean", "E[q^T R_r k] = 0 for independent q, k, within 4 standard errors", mc_independent},
  {"mc_self_mean", "E[q^T R_r q] = 2 sigma^2 B_r (+ pass-through), within 4 standard errors", mc_self},
  {"decay_fast_path", "streamed decay bound within 1e-12 relative of the long-double reference", decay_fast_path},
  {NULL, NULL, NULL},
};
