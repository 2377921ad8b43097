/* compare.c: a user's table against a schedule's exact values
 * (rl_audit_compare), errors absolute and in ulps of the table's own
 * number format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

const char *rl_audit_layout_name(int layout)
{
  switch (layout) {
  case RL_AUDIT_LAYOUT_PAIRS: return "pairs";
  case RL_AUDIT_LAYOUT_INTERLEAVED: return "interleaved";
  case RL_AUDIT_LAYOUT_HALF: return "half";
  }
  return "unknown";
}

/* the spacing of format fmt (16 float16, 17 bfloat16, 32, 64) at x:
 * 2^(e - p + 1) for x in [2^e, 2^(e+1)), e clamped at the subnormal end */
static double ulp_in(int fmt, double x)
{
  int p = fmt == 16 ? 11 : fmt == 17 ? 8 : fmt == 32 ? 24 : 53;
  int emin = fmt == 16 ? -14 : fmt == 64 ? -1022 : -126;
  int e = x == 0 ? emin : ilogb(x);
  if (e < emin)
    e = emin;
  return ldexp(1, e - p + 1);
}

/* K of the tolerance model: how many units eps_A of relative error a
 * correct implementation's theta_i may carry (audit.h says where it is
 * used).  theta_i = 1 / base^y, y = 2i/r, computed in format A (float32
 * for frameworks, float64 for a float64 table) by any of: powf correctly
 * rounded (numpy's float32 `**`, torch.pow), exp(y ln base) (XLA's pow,
 * so JAX), exp2f(-y log2f(base)) (C).  With u = eps_A / 2:
 *   y = fl(2i / r)            relative u (exact when r is a power of 2)
 *   L = fl(ln base)           relative 2u (a libm's 1 ulp)
 *   z = fl(y L)               relative u
 * so z is off by at most 4u y ln base = 2 eps_A y ln base, which exp
 * turns into the same relative error of base^-y; exp itself 1 ulp (2u),
 * the reciprocal u, the position m in A (exact to 2^24) and the product
 * m theta_i (u, counted in the ulp term below): 2 ln(base) + 2 eps_A
 * of relative error in theta_i, and 2 more for the scaled methods'
 * extra float32 steps (a division by s, a blend of two frequencies):
 * K = 2 ln(base) + 4 (22.4 at base 10000, 30.2 at 500000). */
static double k_theta(const rl_schedule *sc)
{
  double b = sc->base > 1 && isfinite(sc->base) ? sc->base : 10000;
  return 2 * log(b) + 4;
}

double rl_audit_entry_tol(const rl_audit_input *in, const rl_schedule *sc, size_t i, double m)
{
  int A = in->fmt == 64 ? 64 : 32;
  double th = fabs(sc->theta[i]), am = fabs(m), eA = A == 64 ? 0x1p-52 : 0x1p-23;
  if (in->kind == RL_AUDIT_FREQS) /* theta_i itself: K eps_A relative, and its rounding */
    return k_theta(sc) * eA * th + ulp_in(A, th);
  /* the angle m theta_i off by K eps_A |m theta_i| (the frequency) and an
   * ulp of itself (the product's rounding), which cos and sin carry to
   * the value at slope <= 1, times the amplitude a; then the value's own
   * rounding in the table's format T, a libm ulp and the product with a:
   * 2 eps_T a */
  double a = fabs(sc->attn) > 0 ? fabs(sc->attn) : 1;
  return a * (k_theta(sc) * eA * am * th + ulp_in(A, am * th)) +
         2 * rl_audit_format_eps(in->fmt) * a;
}

typedef struct {
  rl_audit_err *e;
  int fmt;
  double *pa, *pu, *qa, *qu, *pr;
} acc;

static void note(acc *x, double expected, double found, double pos, size_t pair, size_t col,
                 int is_sin, double tol, size_t row)
{
  rl_audit_err *e = x->e;
  double d = fabs(found - expected), u = d / ulp_in(x->fmt, expected);
  if (!(d == d)) /* NaN found: worse than anything */
    d = u = HUGE_VAL;
  e->nentries++;
  e->nexact += found == expected;
  union {
    double v;
    unsigned long long b;
  } h = {expected};
  e->hash = (e->hash ^ h.b) * 1099511628211ull;
  if (d > e->max_abs || isnan(e->expected)) {
    e->max_abs = d;
    e->worst_pos = pos;
    e->worst_pair = pair;
    e->worst_col = col;
    e->worst_sin = is_sin;
    e->expected = expected;
    e->found = found;
  }
  double r = tol > 0 ? d / tol : d > 0 ? HUGE_VAL : 0;
  if (r > e->max_ratio || e->r_tol == 0) {
    e->max_ratio = r;
    e->r_pos = pos;
    e->r_pair = pair;
    e->r_col = col;
    e->r_sin = is_sin;
    e->r_expected = expected;
    e->r_found = found;
    e->r_tol = tol;
  }
  if (u > e->max_ulp)
    e->max_ulp = u;
  if (x->pa && d > x->pa[pair])
    x->pa[pair] = d;
  if (x->pu && u > x->pu[pair])
    x->pu[pair] = u;
  if (x->pr && r > x->pr[pair])
    x->pr[pair] = r;
  if (x->qa && d > x->qa[row])
    x->qa[row] = d;
  if (x->qu && u > x->qu[row])
    x->qu[row] = u;
}

rl_status rl_audit_compare(const rl_audit_input *in, int layout, const rl_schedule *sc,
                           rl_audit_err *e, double *pair_abs, double *pair_ulp,
                           double *pos_abs, double *pos_ulp)
{
  return rl_audit_compare_ratio(in, layout, sc, e, pair_abs, pair_ulp, NULL, pos_abs, pos_ulp);
}

rl_status rl_audit_compare_ratio(const rl_audit_input *in, int layout, const rl_schedule *sc,
                                 rl_audit_err *e, double *pair_abs, double *pair_ulp,
                                 double *pair_ratio, double *pos_abs, double *pos_ulp)
{
  size_t n = sc->n;
  memset(e, 0, sizeof *e);
  e->worst_pos = -1;
  e->hash = 14695981039346656037ull;
  acc x = {e, in->fmt, pair_abs, pair_ulp, pos_abs, pos_ulp, pair_ratio};
  double *pr = pair_ratio;
  if (pair_abs)
    memset(pair_abs, 0, n * sizeof *pair_abs);
  if (pair_ulp)
    memset(pair_ulp, 0, n * sizeof *pair_ulp);
  double *own = NULL;
  if (!pr) { /* bad_pairs needs the per-pair ratios */
    own = calloc(n ? n : 1, sizeof *own);
    if (!own)
      return RL_ENOMEM;
    x.pr = pr = own;
  } else {
    memset(pr, 0, n * sizeof *pr);
  }
  rl_status st = RL_OK;
  if (in->kind == RL_AUDIT_FREQS) {
    if (in->ncols != n) {
      free(own);
      return RL_EINVAL;
    }
    e->expected = NAN;
    for (size_t i = 0; i < n; i++)
      note(&x, sc->theta[i], in->freq[i], -1, i, i, 0, rl_audit_entry_tol(in, sc, i, 0), 0);
  } else {
    size_t want = layout == RL_AUDIT_LAYOUT_PAIRS ? n : 2 * n;
    if (in->ncols != want) {
      free(own);
      return RL_EINVAL;
    }
    if (pos_abs)
      memset(pos_abs, 0, in->npos * sizeof *pos_abs);
    if (pos_ulp)
      memset(pos_ulp, 0, in->npos * sizeof *pos_ulp);
    double *c = malloc(3 * n * sizeof *c);
    if (!c) {
      free(own);
      return RL_ENOMEM;
    }
    double *s = c + n, *tl = c + 2 * n;
    e->expected = NAN;
    for (size_t r = 0; r < in->npos && !st; r++) {
      st = rl_schedule_cossin(sc, in->pos[r], c, s);
      for (size_t i = 0; i < n; i++)
        tl[i] = rl_audit_entry_tol(in, sc, i, in->pos[r]);
      for (size_t k = 0; k < want && !st; k++) {
        size_t i = layout == RL_AUDIT_LAYOUT_PAIRS ? k
                   : layout == RL_AUDIT_LAYOUT_INTERLEAVED ? k / 2
                                                           : k % n;
        note(&x, c[i], in->cos[r * want + k], in->pos[r], i, k, 0, tl[i], r);
        note(&x, s[i], in->sin[r * want + k], in->pos[r], i, k, 1, tl[i], r);
      }
    }
    free(c);
  }
  for (size_t i = 0; i < n; i++)
    e->bad_pairs += !(pr[i] <= 1);
  free(own);
  if (isnan(e->expected)) { /* every entry exact: name the first */
    if (in->kind == RL_AUDIT_FREQS) {
      e->expected = e->found = in->freq[0];
    } else {
      e->worst_pos = in->pos[0];
      e->expected = e->found = in->cos[0];
    }
  }
  return st;
}

rl_status rl_audit_allclose(const rl_audit_input *in, int layout, const rl_schedule *sc,
                            double atol, double rtol, double maxulp, rl_audit_err *e)
{
  /* max_ratio: the largest share of an entry's allowance, numpy's
   * assert_allclose |found - expected| <= atol + rtol |expected| and
   * assert_array_max_ulp (ulps of the table's format at expected) */
  rl_status st = rl_audit_compare(in, layout, sc, e, NULL, NULL, NULL, NULL);
  if (st)
    return st;
  size_t n = sc->n;
  e->max_ratio = 0;
  e->r_tol = -1;
  double *c = malloc(2 * (n ? n : 1) * sizeof *c);
  if (!c)
    return RL_ENOMEM;
  double *s = c + n;
  size_t rows = in->kind == RL_AUDIT_FREQS ? 1 : in->npos;
  size_t want = in->kind == RL_AUDIT_FREQS ? n : layout == RL_AUDIT_LAYOUT_PAIRS ? n : 2 * n;
  for (size_t r = 0; r < rows && !st; r++) {
    if (in->kind == RL_AUDIT_FREQS)
      memcpy(c, sc->theta, n * sizeof *c);
    else
      st = rl_schedule_cossin(sc, in->pos[r], c, s);
    for (size_t k = 0; k < want && !st; k++) {
      size_t i = in->kind == RL_AUDIT_FREQS || layout == RL_AUDIT_LAYOUT_PAIRS ? k
                 : layout == RL_AUDIT_LAYOUT_INTERLEAVED ? k / 2
                                                         : k % n;
      for (int t = 0; t < (in->kind == RL_AUDIT_FREQS ? 1 : 2); t++) {
        double x = t ? s[i] : c[i];
        double y = in->kind == RL_AUDIT_FREQS ? in->freq[k]
                   : t ? in->sin[r * want + k] : in->cos[r * want + k];
        double d = fabs(y - x), q = 0;
        if (!(d == d))
          q = HUGE_VAL;
        double tol = (atol > 0 ? atol : 0) + (rtol > 0 ? rtol * fabs(x) : 0);
        if (atol >= 0 || rtol >= 0)
          q = fmax(q, tol > 0 ? d / tol : d > 0 ? HUGE_VAL : 0);
        if (maxulp >= 0) {
          double u = d / ulp_in(in->fmt, x);
          q = fmax(q, maxulp > 0 ? u / maxulp : u > 0 ? HUGE_VAL : 0);
        }
        if (q > e->max_ratio || e->r_tol < 0) {
          e->max_ratio = q;
          e->r_pos = in->kind == RL_AUDIT_FREQS ? -1 : in->pos[r];
          e->r_pair = i;
          e->r_col = k;
          e->r_sin = t;
          e->r_expected = x;
          e->r_found = y;
          e->r_tol = tol;
        }
      }
    }
  }
  free(c);
  return st;
}
