/* props.c: the properties `ropelab check --table` holds a user's cos/sin
 * table to (rl_audit_check_*): relative position, norm, layout, values.
 *
 * Every tolerance is a stated multiple of the table's own format epsilon
 * (in->fmt: the narrowest of bfloat16, float16, float32, float64 holding
 * every entry), since a float32 table cannot be asked for float64
 * accuracy; --tolerance-scale tightens them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"

double rl_audit_format_eps(int fmt)
{
  return fmt == 16 ? 0x1p-10 : fmt == 17 ? 0x1p-7 : fmt == 32 ? 0x1p-23 : 0x1p-52;
}

static const char *fmt_name(int fmt)
{
  return fmt == 16 ? "float16" : fmt == 17 ? "bfloat16" : fmt == 32 ? "float32" : "float64";
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double rl_audit_amplitude(const rl_audit_input *in)
{
  size_t n = in->npos * in->ncols;
  if (in->kind != RL_AUDIT_TABLE || !n)
    return 1;
  double *a = malloc(n * sizeof *a);
  if (!a) /* no memory for the median: the first entry's */
    return hypot(in->cos[0], in->sin[0]);
  for (size_t k = 0; k < n; k++)
    a[k] = hypot(in->cos[k], in->sin[k]);
  qsort(a, n, sizeof *a, cmp_double);
  double m = a[n / 2];
  free(a);
  return m;
}

/* the report's text, cut to its buffer (vsnprintf: a long number only
 * shortens the detail) */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void detail(rl_check_result *res, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->detail, sizeof res->detail, fmt, ap);
  va_end(ap);
}

static void set(rl_check_result *res, double error, double tol)
{
  res->error = error;
  res->tolerance = tol;
  res->pass = error <= tol;
}

/* A row's index for each position, sorted by position: rows whose
 * positions differ by r are then found by binary search. */
typedef struct {
  double pos;
  size_t row;
} prow;

static int cmp_prow(const void *a, const void *b)
{
  return cmp_double(&((const prow *)a)->pos, &((const prow *)b)->pos);
}

static long find_pos(const prow *s, size_t n, double x)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s[mid].pos < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && s[lo].pos == x ? (long)lo : -1;
}

/* <R_m q, R_{m+r} k> with the table's rows a (position m) and b (m + r):
 * column k of the cos and sin tables is one 2-D rotation, whatever the
 * layout (a dims table counts each pair twice, which changes no
 * property). */
static double logit(const rl_audit_input *in, size_t a, size_t b, const double *q,
                    const double *k)
{
  size_t C = in->ncols;
  const double *ca = in->cos + a * C, *sa = in->sin + a * C;
  const double *cb = in->cos + b * C, *sb = in->sin + b * C;
  double s = 0;
  for (size_t j = 0; j < C; j++) {
    double q0 = q[2 * j] * ca[j] - q[2 * j + 1] * sa[j];
    double q1 = q[2 * j] * sa[j] + q[2 * j + 1] * ca[j];
    double k0 = k[2 * j] * cb[j] - k[2 * j + 1] * sb[j];
    double k1 = k[2 * j] * sb[j] + k[2 * j + 1] * cb[j];
    s += q0 * k0 + q1 * k1;
  }
  return s;
}

rl_status rl_audit_check_relative(const rl_audit_input *in, unsigned long seed, size_t trials,
                                  rl_check_result *res)
{
  memset(res, 0, sizeof *res);
  size_t P = in->npos, C = in->ncols;
  prow *s = malloc(P * sizeof *s);
  double *q = malloc(4 * C * sizeof *q);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!s || !q || !rng) {
    free(s), free(q), gsl_rng_free(rng);
    return RL_ENOMEM;
  }
  double *k = q + 2 * C, pmax = 1, a = rl_audit_amplitude(in);
  gsl_rng_set(rng, seed);
  for (size_t r = 0; r < P; r++) {
    s[r] = (prow){in->pos[r], r};
    pmax = fmax(pmax, fabs(in->pos[r]));
  }
  qsort(s, P, sizeof *s, cmp_prow);
  double worst = 0, wr = 0, wm1 = 0, wm2 = 0;
  size_t measured = 0;
  for (size_t t = 0; t < trials && P >= 2; t++) {
    for (size_t j = 0; j < 2 * C; j++) {
      q[j] = gsl_ran_gaussian(rng, 1.0);
      k[j] = gsl_ran_gaussian(rng, 1.0);
    }
    double nq = 0, nk = 0;
    for (size_t j = 0; j < 2 * C; j++)
      nq += q[j] * q[j], nk += k[j] * k[j];
    /* r: the distance between two of the table's rows, drawn at random */
    size_t i1 = gsl_rng_uniform_int(rng, P), i2 = gsl_rng_uniform_int(rng, P);
    double r = fabs(s[i2].pos - s[i1].pos);
    if (r == 0)
      continue;
    double lo = HUGE_VAL, hi = -HUGE_VAL, mlo = 0, mhi = 0;
    size_t cnt = 0;
    for (size_t j = 0; j < P; j++) {
      long b = find_pos(s, P, s[j].pos + r);
      if (b < 0)
        continue;
      double L = logit(in, s[j].row, s[(size_t)b].row, q, k);
      if (L < lo)
        lo = L, mlo = s[j].pos;
      if (L > hi)
        hi = L, mhi = s[j].pos;
      cnt++;
    }
    if (cnt < 2)
      continue;
    measured++;
    double e = (hi - lo) / (a * a * sqrt(nq * nk));
    if (!(e <= worst)) {
      worst = e, wr = r;
      wm1 = fmin(mlo, mhi), wm2 = fmax(mlo, mhi);
    }
  }
  free(s), free(q), gsl_rng_free(rng);
  /* Each entry carries up to ~2 roundings (cos or sin, times the
   * attention factor: 2 u relative, u = eps / 2), the angle m theta the
   * rounding of a product in the format the angle was formed in (float32
   * for 16- and 32-bit tables, as frameworks form it before the cast;
   * float64 for float64 tables): |error| <= u_A |m| theta <= u_A max|m|,
   * since theta <= 1 for every RoPE schedule (theta_0 = base^0).  A logit
   * uses two rows and the deviation two logits: 4 entries' rounding per
   * rotated component (8 eps over the two rotations of each logit, bounded
   * by a^2|q||k| after Cauchy-Schwarz), 4 angles (2 eps_A max|m|). */
  double eps = rl_audit_format_eps(in->fmt), epsA = in->fmt == 64 ? 0x1p-52 : 0x1p-23;
  set(res, worst, 8 * eps + 2 * epsA * pmax);
  if (!measured) {
    res->pass = 0;
    detail(res, "no distance r occurs twice among the %zu "
                                               "positions: nothing to compare", P);
  } else {
    detail(res, "max spread over m of <R_m q,R_{m+r} k>/(a^2|q||k|), "
             "%zu trials; worst r=%.17g, m=%.17g vs %.17g", measured, wr, wm1, wm2);
  }
  return RL_OK;
}

rl_status rl_audit_check_norm(const rl_audit_input *in, double attn, rl_check_result *res)
{
  memset(res, 0, sizeof *res);
  size_t n = in->npos * in->ncols, worst_k = 0;
  double a2 = attn * attn, worst = 0;
  for (size_t k = 0; k < n; k++) {
    /* exact in double for 16- and 32-bit entries; a few ulps for 64 */
    double e = fabs(in->cos[k] * in->cos[k] + in->sin[k] * in->sin[k] - a2) / a2;
    if (!(e <= worst))
      worst = e, worst_k = k;
  }
  /* cos and sin each within 3 u of a cos, a sin (cos or sin rounded, times
   * the factor, the product rounded; u = eps / 2): their squares sum
   * within 6 u = 3 eps of a^2, and the factor itself rounded to float32
   * or the format: one eps more */
  double eps = rl_audit_format_eps(in->fmt);
  set(res, worst, 4 * eps);
  detail(res,
           "max |cos^2+sin^2-a^2|/a^2, a=%.9g; worst at position %.17g, column %zu; %s table",
           attn, in->pos[worst_k / in->ncols], worst_k % in->ncols, fmt_name(in->fmt));
  return RL_OK;
}

rl_status rl_audit_check_layout(const rl_audit_input *in, int layout, size_t n, double attn,
                                rl_check_result *res)
{
  memset(res, 0, sizeof *res);
  size_t C = in->ncols;
  if (C != n && C != 2 * n) {
    set(res, HUGE_VAL, 0);
    detail(res, "%zu columns: expected %zu (one per pair) or %zu "
                                               "(one per rotated dimension)", C, n, 2 * n);
    return RL_OK;
  }
  double eps = rl_audit_format_eps(in->fmt), worst = 0;
  size_t wk = 0, wr = 0;
  if (C == 2 * n && layout != RL_AUDIT_LAYOUT_PAIRS) {
    /* the two dims of pair i hold the same cos and sin: 2i, 2i+1
     * (interleaved) or i, i + n (half, Hugging Face's cat(freqs, freqs)) */
    for (size_t r = 0; r < in->npos; r++)
      for (size_t i = 0; i < n; i++) {
        size_t a = layout == RL_AUDIT_LAYOUT_HALF ? i : 2 * i;
        size_t b = layout == RL_AUDIT_LAYOUT_HALF ? i + n : 2 * i + 1;
        const double *c = in->cos + r * C, *s = in->sin + r * C;
        double e = fmax(fabs(c[a] - c[b]), fabs(s[a] - s[b]));
        if (!(e <= worst))
          worst = e, wk = a, wr = r;
      }
    worst /= attn;
  }
  /* the same value written twice: equal, but a kernel that computes each
   * dim on its own may round differently: two ulps at the amplitude */
  set(res, worst, 2 * eps);
  if (C == n)
    detail(res, "one column per pair: nothing to pair");
  else
    detail(res, "max |dim - its pair's other dim|/a, %s; worst "
             "at position %.17g, columns %zu and %zu", rl_audit_layout_name(layout), in->pos[wr],
             wk, layout == RL_AUDIT_LAYOUT_HALF ? wk + n : wk + 1);
  return RL_OK;
}

rl_status rl_audit_check_values(const rl_audit_input *in, int layout, const rl_schedule *sc,
                                rl_check_result *res)
{
  memset(res, 0, sizeof *res);
  rl_audit_err e;
  int lay = in->kind == RL_AUDIT_FREQS || in->ncols == sc->n ? RL_AUDIT_LAYOUT_PAIRS : layout;
  rl_status st = rl_audit_compare(in, lay, sc, &e, NULL, NULL, NULL, NULL);
  if (st == RL_EINVAL) {
    set(res, HUGE_VAL, 0);
    detail(res, "%zu columns: expected %zu (one per pair) or %zu "
                                               "(one per rotated dimension)", in->ncols, sc->n,
             2 * sc->n);
    return RL_OK;
  }
  if (st)
    return st;
  /* each entry within what a framework can legitimately differ by
   * (rl_audit_entry_tol: the frequency 2 ulps off carried to position m
   * and the angle's rounding, in float64 for a float64 table and float32
   * otherwise; the value's rounding, a libm ulp and the attention
   * factor's product, 2 eps a); judged at the entry whose error is the
   * largest share of its own tolerance */
  set(res, fabs(e.r_found - e.r_expected), e.r_tol);
  res->pass = e.max_ratio <= 1;
  if (in->kind == RL_AUDIT_FREQS)
    detail(res, "|theta - expected| worst against its tolerance (4 ulps): pair %zu, "
           "expected %.17g, found %.17g", e.r_pair, e.r_expected, e.r_found);
  else
    detail(res, "|entry - expected| worst against its own tolerance: position %.17g, pair "
           "%zu (%s, column %zu), expected %.17g, found %.17g", e.r_pos, e.r_pair,
           e.r_sin ? "sin" : "cos", e.r_col, e.r_expected, e.r_found);
  return RL_OK;
}

rl_status rl_audit_check_prop(size_t i, const rl_audit_input *in, int layout,
                              const rl_schedule *sc, const rl_check_settings *s,
                              rl_check_result *res, const char **skip)
{
  memset(res, 0, sizeof *res);
  *skip = NULL;
  double attn = sc ? sc->attn : rl_audit_amplitude(in);
  rl_status st = RL_OK;
  if (in->kind != RL_AUDIT_TABLE && i < 3)
    *skip = "inverse frequencies: no cos/sin per position";
  else if (!sc && i >= 2)
    *skip = "no --expect";
  else if (i == 0)
    st = rl_audit_check_relative(in, (unsigned long)s->seed, s->trials, res);
  else if (i == 1)
    st = rl_audit_check_norm(in, attn, res);
  else if (i == 2)
    st = rl_audit_check_layout(in, layout, sc->n, attn, res);
  else
    st = rl_audit_check_values(in, layout, sc, res);
  if (st == RL_ENOMEM || *skip)
    return st;
  if (st) { /* a property that could not be measured has not passed */
    res->pass = 0;
    snprintf(res->detail, sizeof res->detail, "could not run: %s", rl_strerror(st));
  }
  res->detail[sizeof res->detail - 1] = 0;
  if (s->tolerance_scale != 1.0 && isfinite(res->error)) { /* re-judged, scaled tolerance */
    res->tolerance *= s->tolerance_scale;
    res->pass = res->error <= res->tolerance;
  }
  res->pass = res->pass && !isnan(res->error);
  return RL_OK;
}

rl_status rl_audit_check_layout_choice(const rl_audit_input *in, const char *file,
                                       const rl_schedule *sc, int given, int layout, int *out,
                                       char *err, size_t n)
{
  *out = layout == RL_LAYOUT_HALF ? RL_AUDIT_LAYOUT_HALF : RL_AUDIT_LAYOUT_INTERLEAVED;
  /* a dims table in --layout when given, else in the layout it shows;
   * with neither, not guessed */
  if (sc && in->kind == RL_AUDIT_TABLE && !given && in->ncols == 2 * sc->n) {
    int shown = rl_audit_layout_of(in);
    if (shown == RL_AUDIT_LAYOUT_PAIRS) {
      snprintf(err, n, "%s: layout unknown: %zu columns, and neither half nor interleaved "
                       "columns repeat: expected --layout half or --layout interleaved",
               file, 2 * sc->n);
      return RL_EINVAL;
    }
    *out = shown;
  }
  return RL_OK;
}
