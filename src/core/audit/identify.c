/* identify.c: which schedule a user's table is (rl_audit_identify).
 *
 * Found by fitting, then refined over a few rounded values:
 *  1. the layout, from which columns duplicate each other (Hugging Face
 *     concatenates freqs with itself: dims i and i + r/2 equal; a
 *     repeat_interleave table has dims 2i and 2i + 1 equal);
 *  2. per pair, theta_i as the least-squares slope of the unwrapped phase
 *     atan2(sin, cos) against position, and the attention factor as the
 *     median of sqrt(cos^2 + sin^2);
 *  3. the base from the log-linear fit ln theta_i = ln theta_0 - (i/n) ln
 *     base (RoFormer eq. 15), over all pairs (rope, linear, where NTK is a
 *     rope of larger base) and over the leading quarter (methods that
 *     keep the high frequencies: yarn, llama3);
 *  4. the factor s from the last pair (theta_{n-1} = RoPE's / s), the
 *     share g_i = (theta_i / RoPE_i - 1/s) / (1 - 1/s) that each pair
 *     keeps, and from its pattern the method's range: YaRN's code ramps
 *     g linearly in the pair index between its correction dims
 *     d(beta) = r ln(L / (2 pi beta)) / (2 ln base) (HF
 *     _compute_yarn_parameters; Peng et al. 2023 eq. 17-18), the paper's
 *     and Llama 3's linearly in L / lambda = L theta / (2 pi) (Llama 3:
 *     (L/lambda - low) / (high - low)), which gives the training length
 *     L for the default betas (32, 1) and frequency factors (1, 4);
 *  5. every candidate, with each rounding of its fitted numbers (the
 *     value, 3 and 2 significant digits, the nearest power of two) and
 *     each variant, built by rl_schedule_new and measured against the
 *     whole table by rl_audit_compare; ranked by the largest error. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

#define PI 3.14159265358979323846
#define MAX_CAND 4096
#define RL_AUDIT_QUICK 400 /* candidates measured on a sample of rows */
#define RL_AUDIT_KEEP 48   /* of those, measured against the whole table */
#define RL_AUDIT_SAMPLE 48 /* rows in the sample */
#define RL_AUDIT_PIPES 16  /* of the exact ones, tried as every pipeline */

/* The candidate methods come from the schedule registry, each found by
 * what its declaration says it is (its RL_ST_* facts, the parameters it
 * takes), not by name: the first registered type whose flags include
 * `flags`, whose uses include `uses` and that declares the parameter
 * `own` (NULL: none asked).  NULL when none is registered. */
static const rl_schedule_type *type_with(unsigned flags, unsigned uses, const char *own)
{
  const rl_param *d = own ? rl_schedule_param_find(own) : NULL;
  if (own && !d)
    return NULL;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++)
    if (((*t)->flags & flags) == flags && ((*t)->uses & uses) == uses &&
        (!d || rl_schedule_param_applies(d, *t)))
      return *t;
  return NULL;
}

/* the plain method: the registry's default (rl_schedule_params_default) */
static const rl_schedule_type *plain_type(void)
{
  rl_schedule_params d;
  rl_schedule_params_default(&d);
  return d.method;
}

/* Mark the shared parameters whose bits are in bits as given, through
 * their declarations (rl_schedule_param_mark), the other shared ones not;
 * a method's own parameters (no bit: fraction, short-factors, ramp, ...)
 * keep their marks, so that a candidate tried again under a pipeline
 * keeps them. */
static void given(rl_schedule_params *p, unsigned bits)
{
  p->set = 0;
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if ((*d)->bit & bits)
      rl_schedule_param_mark(p, *d);
}

/* and one more, keeping the others */
static void given_too(rl_schedule_params *p, unsigned bits)
{
  given(p, p->set | bits);
}

void rl_audit_fit_free(rl_audit_fit *f)
{
  if (!f)
    return;
  free(f->theta);
  free(f->cand);
  free(f->factors);
  memset(f, 0, sizeof *f);
}

/* The layout the table shows: the one under which most pairs' two
 * columns are equal at every position (all but an eighth of them, so
 * that one broken column does not hide it). */
static int layout_of(const rl_audit_input *in)
{
  size_t c = in->ncols, h = c / 2;
  if (c % 2 || !h)
    return RL_AUDIT_LAYOUT_PAIRS;
  size_t nh = 0, ni = 0;
  for (size_t k = 0; k < h; k++) {
    int half = 1, inter = 1;
    for (size_t r = 0; r < in->npos && (half || inter); r++) {
      const double *cr = in->cos + r * c, *sr = in->sin + r * c;
      half = half && cr[k] == cr[k + h] && sr[k] == sr[k + h];
      inter = inter && cr[2 * k] == cr[2 * k + 1] && sr[2 * k] == sr[2 * k + 1];
    }
    nh += (size_t)half;
    ni += (size_t)inter;
  }
  size_t need = h - h / 8;
  if (nh >= need && nh >= ni)
    return RL_AUDIT_LAYOUT_HALF;
  return ni >= need ? RL_AUDIT_LAYOUT_INTERLEAVED : RL_AUDIT_LAYOUT_PAIRS;
}

int rl_audit_layout_of(const rl_audit_input *in)
{
  return in->kind == RL_AUDIT_TABLE ? layout_of(in) : RL_AUDIT_LAYOUT_PAIRS;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* the table's column holding pair i */
static size_t col_of(int layout, size_t i)
{
  return layout == RL_AUDIT_LAYOUT_INTERLEAVED ? 2 * i : i;
}

/* The slope of pair i's phase against position, unwrapped around the
 * predicted frequency pred: the residual phase a - pred m is wrapped to
 * (-pi, pi] and unwrapped step by step, so that positions far apart
 * (every 7th, a batch's position_ids) alias only when the prediction is
 * off by pi / gap.  Returns the slope, *rss its residual sum of squares. */
static double slope_around(const rl_audit_input *in, const size_t *ord, size_t k, double pred,
                           double *ph, double *rss)
{
  size_t P = in->npos, C = in->ncols;
  double mx = 0, my = 0, sxx = 0, sxy = 0, prev = 0;
  for (size_t j = 0; j < P; j++) {
    size_t r = ord[j];
    double m = in->pos[r];
    double a = atan2(in->sin[r * C + k], in->cos[r * C + k]) - pred * m;
    a -= 2 * PI * nearbyint(a / (2 * PI));
    double w = a;
    if (j) { /* the residual's step to the next position is below pi */
      double d = a - prev;
      d -= 2 * PI * nearbyint(d / (2 * PI));
      w = ph[j - 1] + d;
    }
    prev = a;
    ph[j] = w;
    mx += m;
    my += w;
  }
  mx /= (double)P, my /= (double)P;
  for (size_t j = 0; j < P; j++) {
    double dx = in->pos[ord[j]] - mx;
    sxx += dx * dx;
    sxy += dx * (ph[j] - my);
  }
  double b = sxx > 0 ? sxy / sxx : 0, e2 = 0;
  for (size_t j = 0; j < P; j++) {
    double res = ph[j] - my - b * (in->pos[ord[j]] - mx);
    e2 += res * res;
  }
  *rss = e2;
  return pred + b;
}

static rl_status fit_table(const rl_audit_input *in, rl_audit_fit *f, char *err, size_t n)
{
  size_t P = in->npos, C = in->ncols;
  size_t *ord = malloc(P * sizeof *ord);
  double *ph = malloc(P * sizeof *ph), *amp = malloc(P * C * sizeof *amp);
  if (!ord || !ph || !amp) {
    free(ord), free(ph), free(amp);
    return RL_ENOMEM;
  }
  /* positions in increasing order (insertion sort: tables are sorted) */
  for (size_t r = 0; r < P; r++) {
    size_t j = r;
    while (j && in->pos[ord[j - 1]] > in->pos[r]) {
      ord[j] = ord[j - 1];
      j--;
    }
    ord[j] = r;
  }
  /* from the slowest pair up: each pair's frequency predicted from the
   * ratio of the two fitted below it (RoPE's constant ratio base^(2/r)),
   * so that fast pairs that alias at the table's spacing are unwrapped
   * around their prediction and checked modulo 2 pi */
  for (size_t q = f->n; q-- > 0;) {
    size_t k = col_of(f->layout, q);
    double pred = 0;
    if (q + 2 < f->n && f->theta[q + 1] > 0 && f->theta[q + 2] > 0)
      pred = f->theta[q + 1] * fmin(f->theta[q + 1] / f->theta[q + 2], 10);
    else if (q + 1 < f->n)
      pred = f->theta[q + 1];
    /* plain unwrapping, around +pred and around -pred (a negated sin):
     * of the slopes that fit (residual within twice the least), the one
     * nearest the prediction, since at a spacing g the slopes theta and
     * theta - 2 pi / g fit equally well */
    double t[3], rs[3], best = HUGE_VAL, t1 = 0;
    t[0] = slope_around(in, ord, k, 0, ph, &rs[0]);
    t[1] = slope_around(in, ord, k, pred, ph, &rs[1]);
    t[2] = slope_around(in, ord, k, -pred, ph, &rs[2]);
    double rmin = fmin(rs[0], fmin(rs[1], rs[2]));
    for (int h = 0; h < 3; h++)
      if (rs[h] <= 2 * rmin + 1e-12 * (double)P && fabs(fabs(t[h]) - pred) < best)
        best = fabs(fabs(t[h]) - pred), t1 = t[h];
    f->theta[q] = fabs(t1);
  }
  for (size_t k = 0; k < P * C; k++)
    amp[k] = hypot(in->cos[k], in->sin[k]);
  qsort(amp, P * C, sizeof *amp, cmp_double);
  f->attn = amp[P * C / 2];
  free(ord), free(ph), free(amp);
  (void)err, (void)n;
  return RL_OK;
}

/* ln theta_i against i over pairs [0, m): base = exp(-slope n) */
static double base_fit(const double *th, size_t n, size_t m)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    if (!(th[i] > 0))
      continue;
    double x = (double)i, y = log(th[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y, k++;
  }
  double den = (double)k * sxx - sx * sx;
  if (k < 2 || !(den > 0))
    return NAN;
  double slope = ((double)k * sxy - sx * sy) / den;
  return exp(-slope * (double)n);
}

/* a base and its roundings (roundings below), and the square roots of
 * the roundings of its square: a table made with base^(-i/d) for
 * base^(-2i/d) is a rope of base sqrt(base) exactly (rl_audit_explain),
 * and sqrt(500000) has no round digits of its own; up to 10 values */
static size_t roundings(double x, double lo, double *out);
static size_t base_roundings(double b, double *out)
{
  size_t k = roundings(b, 1.000001, out);
  double sq[5];
  size_t m = roundings(b * b, 1.000001, sq);
  for (size_t j = 0; j < m; j++) {
    double r = sqrt(sq[j]);
    int dup = !(r > 1.000001);
    for (size_t q = 0; q < k && !dup; q++)
      dup = fabs(out[q] - r) <= 1e-12 * r;
    if (!dup)
      out[k++] = r;
  }
  return k;
}

/* x and its roundings: 3 and 2 significant digits, an integer, the
 * nearest power of two; up to 5 distinct values >= lo */
static size_t roundings(double x, double lo, double *out)
{
  size_t k = 0;
  if (!isfinite(x) || !(x > 0))
    return 0;
  double e = floor(log10(x));
  double c[5] = {x, round(x / pow(10, e - 2)) * pow(10, e - 2),
                 round(x / pow(10, e - 1)) * pow(10, e - 1), round(x), exp2(round(log2(x)))};
  for (int j = 0; j < 5; j++) {
    int dup = !(c[j] >= lo);
    for (size_t q = 0; q < k && !dup; q++)
      dup = out[q] == c[j];
    if (!dup)
      out[k++] = c[j];
  }
  return k;
}

typedef struct {
  const rl_audit_input *in;
  rl_audit_fit *f;
  size_t cap;
  rl_status st;
} ctx;

/* a candidate, scored first by how far its frequencies and attention
 * factor are from the fitted ones (cheap: n values); the best of these
 * are then measured against the whole table (full_eval) */
static void try_one(ctx *c, const rl_schedule_params *p)
{
  if (c->st || c->f->ncand >= c->cap)
    return;
  rl_schedule *sc = NULL;
  if (rl_schedule_new(p, &sc, NULL) != RL_OK)
    return;
  /* the worst pair after an eighth of them is set aside: one broken
   * pair must not hide the schedule the rest follow */
  double dev[512], score = fabs(sc->attn - c->f->attn) / c->f->attn, worst = 0;
  size_t m = sc->n < c->f->n ? sc->n : c->f->n, nd = 0;
  for (size_t i = 0; i < m; i++) {
    double d = fabs(sc->theta[i] - c->f->theta[i]) / fmax(c->f->theta[i], 1e-300);
    if (nd < sizeof dev / sizeof *dev)
      dev[nd++] = d;
    worst = fmax(worst, d);
  }
  if (nd == m && nd) {
    qsort(dev, nd, sizeof *dev, cmp_double);
    worst = dev[nd - 1 - nd / 8];
  }
  score = fmax(score, worst);
  rl_schedule_free(sc);
  rl_audit_candidate *k = &c->f->cand[c->f->ncand++];
  k->p = *p;
  k->layout = c->f->layout;
  k->max_abs_err = score; /* the quick score until full_eval */
  k->max_ulp = HUGE_VAL;
  k->fits = 0;
}

static rl_status full_eval(const rl_audit_input *in, rl_audit_candidate *k, double tol)
{
  rl_schedule *sc = NULL;
  rl_status st = rl_schedule_new(&k->p, &sc, NULL);
  if (st)
    return st;
  rl_audit_err e;
  st = rl_audit_compare(in, k->layout, sc, &e, NULL, NULL, NULL, NULL);
  rl_schedule_free(sc);
  k->max_abs_err = e.max_abs;
  k->max_ulp = e.max_ulp;
  k->max_ratio = e.max_ratio;
  k->nexact = e.nexact;
  k->nentries = e.nentries;
  k->bad_pairs = e.bad_pairs;
  k->hash = e.hash;
  k->same_as = -1;
  k->err = e;
  k->fits = e.max_ratio <= 1;
  (void)tol;
  return st;
}

/* each variant a method distinguishes */
static void try_variants(ctx *c, rl_schedule_params p)
{
  if (!(p.method->uses & RL_SP_VARIANT)) {
    try_one(c, &p);
    return;
  }
  for (int v = 0; v < RL_VARIANT_COUNT; v++) {
    p.variant = (rl_variant)v;
    if (v)
      rl_schedule_set(&p, "variant", v);
    else
      rl_schedule_unset(&p, "variant");
    try_one(c, &p);
  }
}

/* how many decimal digits x needs (a power of two counts as one): on
 * equal errors the rounder number is the likelier one written in a
 * config (base 500000, not 500000.435; L = 4096 before 3580) */
static int digits(double x)
{
  if (x > 0 && x == exp2(round(log2(x))))
    return 1;
  char b[RL_NUMFMT_MAX];
  rl_numfmt(x, b);
  int k = 0, started = 0, zeros = 0; /* trailing zeros are not significant */
  for (const char *c = b; *c && *c != 'e'; c++)
    if (*c >= '0' && *c <= '9') {
      started |= *c != '0';
      k += started;
      zeros = *c == '0' ? zeros + started : 0;
    }
  return k - zeros > 0 ? k - zeros : 1;
}

/* A base B that is B0^(r/(r-2)) for a round B0 (3 significant digits):
 * theta_i = B0^(-2i/(r-2)), the exponent's denominator r - 2 instead of
 * r (a common bug); B0, or 0. */
static double d2_base(const rl_schedule_params *p)
{
  double r = (double)(p->rot ? p->rot : p->dim);
  if (!(r > 2) || !(p->base > 1))
    return 0;
  double b0 = pow(p->base, (r - 2) / r), e = floor(log10(b0));
  double rb = round(b0 / pow(10, e - 2)) * pow(10, e - 2);
  return fabs(rb - b0) <= 1e-9 * b0 && digits(p->base) > 3 ? rb : 0;
}

static int complexity(const rl_schedule_params *p)
{
  double b0 = d2_base(p);
  int c = b0 > 0 ? digits(b0) + 1 : digits(p->base);
  if (p->method->uses & RL_SP_FACTOR)
    c += digits(p->factor);
  if ((p->method->uses & RL_SP_TRAIN_LEN) && p->train_len > 0)
    c += digits(p->train_len);
  if (p->set & RL_SP_ATTN)
    c += digits(p->attention_factor);
  if (rl_schedule_param_given(p, rl_schedule_param_find("fraction")))
    c += digits(rl_schedule_get(p, "fraction"));
  if (rl_schedule_get_list(p, "short-factors")) /* one free number per pair: only when nothing simpler fits */
    c += 1000;
  return c;
}

/* e to two significant digits: errors that close are equal evidence */
static double coarse(double e)
{
  if (!(e > 0) || !isfinite(e))
    return e;
  double q = pow(10, floor(log10(e)) - 1);
  return round(e / q) * q;
}

/* Fitting candidates first (every entry within its tolerance), among
 * them the one that reproduces the most entries bit for bit (the true
 * pipeline is exact where a neighbour is only close), then the one
 * needing the fewest digits (base 500000, not 500000.435), then by
 * error.  The others: the fewest pairs beyond tolerance (one broken
 * pair leaves the rest exact), the most exact entries, the error to two
 * digits, then the fewest digits. */
static int by_error(const void *a, const void *b)
{
  const rl_audit_candidate *x = a, *y = b;
  if (x->fits != y->fits)
    return y->fits - x->fits;
  int cx = complexity(&x->p), cy = complexity(&y->p);
  if (!x->fits && x->bad_pairs != y->bad_pairs)
    return (x->bad_pairs > y->bad_pairs) - (x->bad_pairs < y->bad_pairs);
  /* exact entries decide when they differ by more than 1% of the table
   * (a pipeline's bits against a neighbour's); closer counts are the
   * chance agreement of two double computations */
  size_t gap = x->nentries / 100;
  int pipe = x->p.precision || y->p.precision; /* exact values agree with a
                                                  table's bits only by chance */
  if (pipe && (x->nexact > y->nexact + gap || y->nexact > x->nexact + gap))
    return (x->nexact < y->nexact) - (x->nexact > y->nexact);
  if (!x->fits) {
    double ex = coarse(x->max_ratio), ey = coarse(y->max_ratio);
    if (ex != ey)
      return (ex > ey) - (ex < ey);
  }
  if (cx != cy)
    return (cx > cy) - (cx < cy);
  if (x->nexact != y->nexact)
    return (x->nexact < y->nexact) - (x->nexact > y->nexact);
  if (x->max_ratio != y->max_ratio)
    return (x->max_ratio > y->max_ratio) - (x->max_ratio < y->max_ratio);
  return (x->max_abs_err > y->max_abs_err) - (x->max_abs_err < y->max_abs_err);
}

/* the quick score alone (before any candidate is measured) */
static int by_score(const void *a, const void *b)
{
  const rl_audit_candidate *x = a, *y = b;
  if (x->max_abs_err != y->max_abs_err)
    return (x->max_abs_err > y->max_abs_err) - (x->max_abs_err < y->max_abs_err);
  int cx = complexity(&x->p), cy = complexity(&y->p);
  return (cx > cy) - (cx < cy);
}

/* a stable sort by error (ties keep the order tried: simpler first):
 * a merge sort, since qsort is not stable */
static void sort(rl_audit_candidate *a, size_t n, int (*by)(const void *, const void *))
{
  if (n < 2)
    return;
  rl_audit_candidate *t = malloc(n * sizeof *t);
  if (!t) { /* insertion sort in place */
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j && by(&a[j - 1], &a[j]) > 0; j--) {
        rl_audit_candidate x = a[j];
        a[j] = a[j - 1];
        a[j - 1] = x;
      }
    return;
  }
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        t[k++] = by(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
      while (i < mid)
        t[k++] = a[i++];
      while (j < hi)
        t[k++] = a[j++];
    }
    memcpy(a, t, n * sizeof *t);
  }
  free(t);
}

/* NTK-aware scaling.  vLLM's form, theta_i = s^(-(2i+2)/r) (base s)^(-2i/r),
 * starts below 1: s = theta_0^(-r/2), and the slope of the log-linear fit
 * gives base * s.  Hugging Face's, theta_i = (base s^(r/(r-2)))^(-2i/r),
 * is a rope of a larger base and nothing else: a table fixes only that
 * product, so the (base, s) that give it are listed when base comes out
 * round (3 significant digits) for an integer s, the rope first when its
 * base is as round. */
static void try_ntk(ctx *c, const rl_schedule_params *p0, double b_all)
{
  rl_audit_fit *f = c->f;
  double r = (double)p0->rot, bases[5], facs[5];
  if (!(b_all > 1) || !(r > 2))
    return;
  rl_schedule_params p = *p0;
  p.method = type_with(RL_ST_LARGER_BASE, RL_SP_FACTOR, NULL);
  if (!p.method)
    return;
  if (f->theta[0] < 1 - 1e-9 && f->theta[0] > 0) {
    double s = pow(f->theta[0], -r / 2);
    size_t nf = roundings(s, 1, facs);
    for (size_t q = 0; q < nf; q++) {
      size_t nb = roundings(b_all / facs[q], 1.000001, bases);
      for (size_t j = 0; j < nb; j++) {
        p.base = bases[j];
        p.factor = facs[q];
        p.variant = RL_VARIANT_VLLM;
        given(&p, RL_SP_FACTOR | RL_SP_VARIANT);
        try_one(c, &p);
      }
    }
  }
  for (int si = 2; si <= 64; si++) {
    double b = b_all / pow((double)si, r / (r - 2));
    double e = floor(log10(b)), rb = round(b / pow(10, e - 2)) * pow(10, e - 2);
    if (!(rb > 1) || fabs(rb - b) > 1e-5 * b)
      continue;
    p.base = rb;
    p.factor = si;
    p.variant = RL_VARIANT_HF;
    given(&p, RL_SP_FACTOR);
    try_one(c, &p);
  }
}

/* p-RoPE: the trailing pairs do not rotate (theta = 0 exactly: sin 0,
 * cos the amplitude at every position); the kept fraction p = keep / n
 * and the base from the rotating pairs. */
static void try_prope(ctx *c, const rl_schedule_params *p0)
{
  rl_audit_fit *f = c->f;
  size_t nn = f->n, keep = nn;
  while (keep > 0 && f->theta[keep - 1] == 0)
    keep--;
  if (keep == nn || keep < 2)
    return;
  rl_schedule_params p = *p0;
  p.method = type_with(0, 0, "fraction");
  if (!p.method)
    return;
  double bases[5], fr[2] = {(double)keep / (double)nn, 0};
  fr[1] = round(fr[0] * 100) / 100; /* as a config writes it: 0.75 */
  size_t nb = roundings(base_fit(f->theta, nn, keep), 1.000001, bases);
  for (int k = 0; k < 2; k++) {
    if (k && (fr[1] == fr[0] || (size_t)floor(fr[1] * (double)nn + 1e-9) != keep))
      continue;
    for (size_t j = 0; j < nb; j++) {
      p.base = bases[j];
      given(&p, 0);
      rl_schedule_set(&p, "fraction", fr[k]);
      try_one(c, &p);
    }
  }
}

/* LongRoPE: theta_i = base^(-2i/r) / f_i with free per-pair factors f_i
 * (Ding et al. 2024, sec. 3.2: searched, and constrained non-decreasing
 * in i).  Such factors fit any table whose frequencies fall no faster
 * than rope's, so they are fitted only when no method with few
 * parameters fits: at the base given (--base), or else at the largest
 * base that keeps the factors non-decreasing when it is round (see
 * below), f_i from the fitted theta_i, accepted when f_i >= 1 and
 * non-decreasing (within 1e-5, the fit's noise on a float32 table).
 * The attention factor is the fitted one when it is not 1. */
static rl_status try_longrope(const rl_audit_input *in, rl_audit_fit *f,
                              const rl_schedule_params *p0, double base_hint,
                              rl_audit_candidate *out, size_t *nout, size_t cap)
{
  size_t nn = f->n;
  double bases[7] = {0}, r = (double)p0->rot, bmax = HUGE_VAL;
  /* base and factors trade off (f_i base^(2i/r) is what the table
   * fixes): every base up to bmax = min_i min((theta_{i-1} / theta_i)^(r/2),
   * theta_i^(-r/(2i))) keeps the factors non-decreasing and >= 1; the
   * largest, the most rope-like, is taken, rounded down and to the
   * usual roundings */
  for (size_t i = 1; i < nn; i++)
    if (f->theta[i] > 0)
      bmax = fmin(bmax, fmin(pow(f->theta[i - 1] / f->theta[i], r / 2),
                             pow(f->theta[i], -r / (2.0 * (double)i))));
  size_t nb = 0;
  if (base_hint > 1) {
    bases[nb++] = base_hint;
  } else if (bmax > 1 && isfinite(bmax)) {
    /* bmax is the base itself where two neighbouring factors are equal
     * (LongRoPE's lists repeat values); otherwise it is only a bound, and
     * any larger base would also give non-decreasing factors: without
     * --base, a bound that is not a round number names no base */
    double e = floor(log10(bmax)), rb = round(bmax / pow(10, e - 2)) * pow(10, e - 2);
    if (fabs(rb - bmax) <= 1e-5 * bmax)
      bases[nb++] = rb;
  }
  rl_schedule_params p = *p0;
  p.method = type_with(0, 0, "short-factors");
  if (!p.method || !nb)
    return RL_OK;
  f->factors = malloc(4 * nn * sizeof *f->factors);
  if (!f->factors)
    return RL_ENOMEM;
  size_t used = 0;
  for (size_t j = 0; j < nb && used < 4; j++) {
    double *fa = f->factors + used * nn;
    int ok = 1, any = 0;
    for (size_t i = 0; i < nn && ok; i++) {
      double th = pow(bases[j], -2.0 * (double)i / r);
      fa[i] = f->theta[i] > 0 ? th / f->theta[i] : 0;
      ok = fa[i] >= 1 - 1e-5 && (!i || fa[i] >= fa[i - 1] * (1 - 1e-5));
      if (ok && fa[i] < 1)
        fa[i] = 1;
      any |= fa[i] > 1 + 1e-6;
    }
    if (!ok || !any || *nout >= cap)
      continue;
    used++;
    p.base = bases[j];
    p.factor = 1;
    p.train_len = 1;
    given(&p, RL_SP_FACTOR | RL_SP_TRAIN_LEN);
    rl_schedule_set_list(&p, "short-factors", fa);
    if (fabs(f->attn - 1) > 1e-6) {
      p.attention_factor = f->attn;
      given_too(&p, RL_SP_ATTN);
    }
    /* as exact values and as each framework pipeline computes them */
    for (const rl_precision *const *pp = rl_precisions(); *pp && *nout < cap; pp++) {
      if (*pp == rl_precision_fp64())
        continue;
      rl_audit_candidate k;
      memset(&k, 0, sizeof k);
      k.p = p;
      k.layout = f->layout;
      k.p.precision = *pp == rl_precision_exact() ? NULL : *pp;
      rl_status st = full_eval(in, &k, f->fit_tol);
      if (st == RL_ENOMEM)
        return st;
      /* only a fit is kept: free factors that miss say nothing about
       * which named method is closest */
      if (!st && k.fits)
        out[(*nout)++] = k;
    }
  }
  return RL_OK;
}

/* What is wrong with column k (pair i) of a table against schedule sc:
 * the common bugs, each checked entry by entry against the tolerance
 * model; NULL when none of them explains it. */
static const char *kind_of(const rl_audit_input *in, const rl_schedule *sc, size_t i, size_t k,
                           const double *c, const double *sn, size_t stride)
{
  static const char *const what[] = {
      "its sin has the wrong sign", "its cos has the wrong sign",
      "its cos and sin are negated (angle + pi)", "its cos and sin are swapped",
      "its frequency is zero (cos a, sin 0 at every position)"};
  int ok[5] = {1, 1, 1, 1, 1};
  size_t C = in->ncols;
  double a = sc->attn;
  for (size_t r = 0; r < in->npos; r++) {
    double x = in->cos[r * C + k], y = in->sin[r * C + k], ec = c[r * stride + i],
           es = sn[r * stride + i], t = rl_audit_entry_tol(in, sc, i, in->pos[r]);
    ok[0] = ok[0] && fabs(x - ec) <= t && fabs(y + es) <= t;
    ok[1] = ok[1] && fabs(x + ec) <= t && fabs(y - es) <= t;
    ok[2] = ok[2] && fabs(x + ec) <= t && fabs(y + es) <= t;
    ok[3] = ok[3] && fabs(x - es) <= t && fabs(y - ec) <= t;
    ok[4] = ok[4] && fabs(x - a) <= t && fabs(y) <= t;
  }
  for (int h = 0; h < 5; h++)
    if (ok[h])
      return what[h];
  return NULL;
}

/* Why the best candidate is rejected, and, when it misses on a few
 * pairs only (at most an eighth), what is wrong with each of them: the
 * rest of the table is then identified and the broken pairs named. */
static rl_status diagnose(const rl_audit_input *in, rl_audit_fit *f)
{
  rl_audit_candidate *b = &f->cand[0];
  f->why[0] = f->broken[0] = 0;
  f->good_pairs = f->n;
  if (b->fits)
    return RL_OK;
  const rl_audit_err *e = &b->err;
  char ex[RL_NUMFMT_MAX], fo[RL_NUMFMT_MAX], er[RL_NUMFMT_MAX], tl[RL_NUMFMT_MAX];
  rl_numfmt(e->r_expected, ex);
  rl_numfmt(e->r_found, fo);
  rl_numfmt(fabs(e->r_found - e->r_expected), er);
  rl_numfmt(e->r_tol, tl);
  if (in->kind == RL_AUDIT_FREQS)
    snprintf(f->why, sizeof f->why, "pair %zu: expected %s, found %s: off by %s > %s (K eps theta + 1 ulp)",
             e->r_pair, ex, fo, er, tl);
  else
    snprintf(f->why, sizeof f->why, "position %.17g, pair %zu (%s, column %zu): expected %s, "
             "found %s: off by %s > %s (a correct float32 frequency's error carried to m, the angle's "
             "and the value's rounding, a libm ulp)", e->r_pos, e->r_pair,
             e->r_sin ? "sin" : "cos", e->r_col, ex, fo, er, tl);
  size_t nn = f->n;
  if (!b->bad_pairs || b->bad_pairs > (nn / 8 > 1 ? nn / 8 : 1) || b->bad_pairs >= nn)
    return RL_OK;
  rl_schedule *sc = NULL;
  rl_status st = rl_schedule_new(&b->p, &sc, NULL);
  if (st)
    return st == RL_ENOMEM ? st : RL_OK;
  double *pr = malloc(nn * sizeof *pr);
  size_t P = in->kind == RL_AUDIT_TABLE ? in->npos : 0;
  double *cs = P ? malloc(2 * P * nn * sizeof *cs) : NULL;
  rl_audit_err e2;
  if (!pr || (P && !cs)) {
    free(pr), free(cs), rl_schedule_free(sc);
    return RL_ENOMEM;
  }
  st = rl_audit_compare_ratio(in, b->layout, sc, &e2, NULL, NULL, pr, NULL, NULL);
  for (size_t r = 0; r < P && !st; r++)
    st = rl_schedule_cossin(sc, in->pos[r], cs + r * nn, cs + P * nn + r * nn);
  if (st) {
    free(pr), free(cs), rl_schedule_free(sc);
    return st == RL_ENOMEM ? st : RL_OK;
  }
  f->good_pairs = nn - e2.bad_pairs;
  size_t l = 0, shown = 0;
  char *o = f->broken;
  size_t cap = sizeof f->broken;
#define ADD(...) (l += (size_t)snprintf(o + l, l < cap ? cap - l : 0, __VA_ARGS__))
  for (size_t i = 0; i < nn; i++) {
    if (pr[i] <= 1)
      continue;
    if (shown++ == 4) {
      ADD("; ...");
      break;
    }
    ADD("%spair %zu is off: ", shown > 1 ? "; " : "", i);
    if (!P) {
      char v[RL_NUMFMT_MAX], w[RL_NUMFMT_MAX];
      rl_numfmt(in->freq[i], v);
      rl_numfmt(sc->theta[i], w);
      char q[RL_NUMFMT_MAX];
      rl_numfmt(sc->theta[i] > 0 ? in->freq[i] / sc->theta[i] : HUGE_VAL, q);
      ADD("found %s, expected %s (%s)", v, w, in->freq[i] == 0 ? "zeroed" : q);
      continue;
    }
    size_t k1 = col_of(b->layout, i), k2 = b->layout == RL_AUDIT_LAYOUT_HALF ? i + nn
                                            : b->layout == RL_AUDIT_LAYOUT_INTERLEAVED ? 2 * i + 1
                                                                                       : k1;
    const char *w1 = kind_of(in, sc, i, k1, cs, cs + P * nn, nn);
    const char *w2 = k2 != k1 ? kind_of(in, sc, i, k2, cs, cs + P * nn, nn) : w1;
    /* a column that is right: the other one alone is broken */
    int right1 = 1, right2 = 1;
    size_t off = 0, first = 0;
    for (size_t r = 0; r < P; r++) {
      double t = rl_audit_entry_tol(in, sc, i, in->pos[r]);
      double ec = cs[r * nn + i], es = cs[P * nn + r * nn + i];
      const double *cr = in->cos + r * in->ncols, *sr = in->sin + r * in->ncols;
      int ok1 = fabs(cr[k1] - ec) <= t && fabs(sr[k1] - es) <= t;
      int ok2 = fabs(cr[k2] - ec) <= t && fabs(sr[k2] - es) <= t;
      right1 = right1 && ok1;
      right2 = right2 && ok2;
      if (!(ok1 && ok2) && !off++)
        first = r;
    }
    if (k2 != k1 && (right1 || right2)) {
      size_t kb = right1 ? k2 : k1;
      const char *wb = right1 ? w2 : w1;
      ADD("column %zu alone (its twin column %zu is right): %s", kb, right1 ? k1 : k2,
          wb ? wb : "other values");
    } else if (w1 && w1 == w2) {
      ADD("%s", w1);
    } else if (2 * off < P) { /* a few rows: not the pair's frequency */
      ADD("at %zu of %zu positions (the first at position %.17g)", off, P, in->pos[first]);
    } else {
      /* its own frequency, fitted from the table */
      char v[RL_NUMFMT_MAX], w[RL_NUMFMT_MAX], q[RL_NUMFMT_MAX];
      rl_numfmt(f->theta[i], v);
      rl_numfmt(sc->theta[i], w);
      rl_numfmt(sc->theta[i] > 0 ? f->theta[i] / sc->theta[i] : HUGE_VAL, q);
      ADD("its frequency fits %s, expected %s (ratio %s)", v, w, q);
    }
  }
#undef ADD
  free(pr), free(cs), rl_schedule_free(sc);
  return RL_OK;
}

rl_status rl_audit_identify(const rl_audit_input *in, size_t dim_hint, rl_audit_fit *f,
                            char *err, size_t n)
{
  return rl_audit_identify_hint(in, dim_hint, 0, f, err, n);
}

rl_status rl_audit_identify_hint(const rl_audit_input *in, size_t dim_hint, double base_hint,
                                 rl_audit_fit *f, char *err, size_t n)
{
  return rl_audit_identify_progress(in, dim_hint, base_hint, f, NULL, NULL, err, n);
}

rl_status rl_audit_identify_progress(const rl_audit_input *in, size_t dim_hint, double base_hint,
                                     rl_audit_fit *f,
                                     void (*progress)(void *ctx, size_t done, size_t total),
                                     void *progress_ctx, char *err, size_t n)
{
  memset(f, 0, sizeof *f);
  if (in->kind == RL_AUDIT_TABLE) {
    f->layout = layout_of(in);
    f->n = f->layout == RL_AUDIT_LAYOUT_PAIRS ? in->ncols : in->ncols / 2;
    double lo = in->pos[0], hi = in->pos[0];
    for (size_t r = 1; r < in->npos; r++)
      lo = fmin(lo, in->pos[r]), hi = fmax(hi, in->pos[r]);
    if (in->npos < 2 || hi == lo)
      return rl_errf(RL_EFORMAT, err, n,
                     "table too small to identify: %zu distinct position(s): expected at "
                     "least 2 (better 16 or more)",
                     hi == lo ? (size_t)1 : in->npos);
  } else {
    f->layout = RL_AUDIT_LAYOUT_PAIRS;
    f->n = in->ncols;
  }
  if (f->n < 2)
    return rl_errf(RL_EFORMAT, err, n,
                   "table too small to identify: %zu pair(s): expected at least 2 to fit "
                   "a base",
                   f->n);
  f->theta = malloc(f->n * sizeof *f->theta);
  f->cand = malloc(MAX_CAND * sizeof *f->cand);
  if (!f->theta || !f->cand) {
    rl_audit_fit_free(f);
    return RL_ENOMEM;
  }
  rl_status st = RL_OK;
  if (in->kind == RL_AUDIT_TABLE) {
    st = fit_table(in, f, err, n);
  } else {
    memcpy(f->theta, in->freq, f->n * sizeof *f->theta);
    f->attn = 1;
  }
  if (st) {
    rl_audit_fit_free(f);
    return st;
  }
  /* 4 ulps of the table's format at its amplitude: two roundings (cos or
   * sin, times the attention factor) and a libm's cos one ulp off, with
   * room; frequencies: max_ulp <= 4 (full_eval) */
  f->fit_tol = 4 * rl_audit_format_eps(in->fmt) * (in->kind == RL_AUDIT_TABLE ? f->attn : 1);
  size_t nn = f->n, lead = nn / 4 > 2 ? nn / 4 : 2;
  double b_all = base_fit(f->theta, nn, nn), b_lead = base_fit(f->theta, nn, lead);
  f->base_fit = b_lead;
  ctx c = {in, f, MAX_CAND, RL_OK};
  rl_schedule_params p0;
  rl_schedule_params_default(&p0);
  p0.rot = 2 * nn;
  p0.dim = dim_hint > p0.rot ? dim_hint : p0.rot;
  double bases[10], facs[5], lens[8];

  /* rope (NTK is a rope of a larger base), linear */
  size_t nb = base_roundings(b_all, bases);
  for (size_t j = 0; j < nb; j++) {
    rl_schedule_params p = p0;
    p.base = bases[j];
    try_one(&c, &p);
    double s = 1 / f->theta[0];
    size_t nf = roundings(s, 1, facs);
    for (size_t q = 0; q < nf && s > 1.0001; q++) {
      p.method = type_with(RL_ST_DIVIDED, RL_SP_FACTOR, NULL);
      p.factor = facs[q];
      given(&p, RL_SP_FACTOR);
      try_variants(&c, p);
    }
  }
  /* rope with d - 2 in the exponent: base B0^(r/(r-2)) for the
   * roundings B0 of b_all^((r-2)/r) */
  if (p0.rot > 2 && b_all > 1) {
    double r = (double)p0.rot;
    nb = roundings(pow(b_all, (r - 2) / r), 1.000001, bases);
    for (size_t j = 0; j < nb; j++) {
      rl_schedule_params p = p0;
      p.base = pow(bases[j], r / (r - 2));
      try_one(&c, &p);
    }
  }
  /* the methods that keep the leading pairs */
  nb = base_roundings(b_lead, bases);
  for (size_t j = 0; j < nb; j++) {
    double b = bases[j], r = (double)p0.rot;
    double rope_last = pow(b, -2.0 * (double)(nn - 1) / r);
    double s = rope_last / f->theta[nn - 1];
    if (!(s > 1.0001))
      continue;
    size_t nf = roundings(s, 1, facs);
    for (size_t q = 0; q < nf; q++) {
      double fs = facs[q];
      /* g_i and its fits: against i (yarn code) and against theta (llama3, paper) */
      double si = 0, sg = 0, sii = 0, sig = 0, st_ = 0, stt = 0, stg = 0;
      size_t m = 0, last_keep = 0, first_div = nn;
      for (size_t i = 0; i < nn; i++) {
        double th = pow(b, -2.0 * (double)i / r);
        double g = (f->theta[i] / th - 1 / fs) / (1 - 1 / fs);
        if (g > 0.999)
          last_keep = i;
        if (g < 0.001 && first_div == nn)
          first_div = i;
        if (g > 0.001 && g < 0.999) {
          si += (double)i, sg += g, sii += (double)i * (double)i, sig += (double)i * g;
          st_ += th, stt += th * th, stg += th * g;
          m++;
        }
      }
      size_t nl = 0;
      if (m >= 2) {
        double den = (double)m * sii - si * si, beta = ((double)m * sig - si * sg) / den;
        double alpha = (sg - beta * si) / (double)m;
        double low = (1 - alpha) / beta; /* g = 1 at the low correction dim */
        /* yarn: d(32) = low -> L = 2 pi 32 b^(2 low / r); truncated, low =
         * floor(d), so also the middle of [low, low + 1) */
        lens[nl++] = 2 * PI * 32 * pow(b, 2 * low / r);
        lens[nl++] = 2 * PI * 32 * pow(b, 2 * (floor(low + 0.5) + 0.5) / r);
        double dent = (double)m * stt - st_ * st_, A = ((double)m * stg - st_ * sg) / dent;
        /* llama3: g = (L theta / 2 pi - 1) / (4 - 1); the yarn paper's
         * ramp: (L theta / 2 pi - 1) / (32 - 1) */
        lens[nl++] = 2 * PI * A * 3;
        lens[nl++] = 2 * PI * A * 31;
      } else {
        /* no pair between: llama3's L lies in (4 lambda_keep, lambda_div) */
        double lk = 2 * PI / pow(b, -2.0 * (double)last_keep / r);
        double ld = first_div < nn ? 2 * PI / pow(b, -2.0 * (double)first_div / r) : 8 * lk;
        lens[nl++] = exp2(ceil(log2(4 * lk)));
        lens[nl++] = exp2(floor(log2(ld)));
      }
      for (size_t q2 = 0; q2 < nl; q2++) {
        /* each length with its roundings */
        double ls[5];
        size_t nls = roundings(lens[q2], 1, ls);
        for (size_t u = 0; u < nls; u++) {
          rl_schedule_params p = p0;
          p.base = b;
          p.factor = fs;
          p.train_len = ls[u];
          given(&p, RL_SP_FACTOR | RL_SP_TRAIN_LEN);
          p.method = type_with(0, RL_SP_FACTOR, "low-freq-factor");
          try_variants(&c, p);
          p.method = type_with(0, RL_SP_FACTOR, "beta-fast");
          for (int tr = 1; tr >= 0; tr--) {
            rl_schedule_params y = p;
            if (!tr)
              rl_schedule_set(&y, "truncate", 0);
            try_variants(&c, y);
            double own = 0.1 * log(fs) + 1; /* YaRN eq. 22 */
            if (fabs(f->attn - own) > 1e-6 * own) {
              y.attention_factor = f->attn;
              given_too(&y, RL_SP_ATTN);
              try_variants(&c, y);
            }
          }
          rl_schedule_params y = p;
          rl_schedule_set(&y, "ramp", 1);
          try_variants(&c, y);
        }
      }
    }
  }
  try_ntk(&c, &p0, b_all);
  try_prope(&c, &p0);
  if (c.st) {
    rl_audit_fit_free(f);
    return c.st;
  }
  if (!f->ncand) {
    rl_status fst = rl_errf(RL_EFORMAT, err, n,
                            "no schedule fits: the fitted frequencies (theta_0 = %.6g, "
                            "theta_%zu = %.6g) give no base > 1: expected a RoPE table",
                            f->theta[0], nn - 1, f->theta[nn - 1]);
    rl_audit_fit_free(f); /* after the message, which reads f */
    return fst;
  }
  /* Three rounds.  The quick score (frequencies against the fitted ones)
   * orders every candidate; the best RL_AUDIT_QUICK distinct schedules,
   * each as exact values and as every framework pipeline (the float32 /
   * bfloat16 / float16 order of operations of HF, ggml, vLLM), are
   * measured on RL_AUDIT_SAMPLE rows spread over the table's positions
   * (the largest included); the best RL_AUDIT_KEEP of those against the
   * whole table.  Stable sorts: on equal keys the simpler candidate,
   * tried first, stays first. */
  sort(f->cand, f->ncand, by_score);
  size_t kept = 0, nall = 0, cap = RL_AUDIT_QUICK * 10 + 16;
  /* frequencies: the quick score is already their relative error, the
   * measure itself: its best RL_AUDIT_KEEP suffice */
  size_t quick = in->kind == RL_AUDIT_FREQS ? RL_AUDIT_KEEP : RL_AUDIT_QUICK;
  for (size_t i = 0; i < f->ncand && kept < quick; i++) {
    int dup = 0; /* roundings that coincide */
    for (size_t j = 0; j < kept && !dup; j++)
      dup = !memcmp(&f->cand[j].p, &f->cand[i].p, sizeof f->cand[i].p);
    if (dup)
      continue;
    f->cand[kept++] = f->cand[i];
  }
  rl_audit_candidate *all = malloc(cap * sizeof *all);
  rl_audit_input smp = *in;
  size_t S = in->kind == RL_AUDIT_TABLE && in->npos > RL_AUDIT_SAMPLE ? RL_AUDIT_SAMPLE : 0;
  double *sbuf = S ? malloc(S * (1 + 2 * in->ncols) * sizeof *sbuf) : NULL;
  size_t *sord = S ? malloc(in->npos * sizeof *sord) : NULL;
  if (!all || (S && (!sbuf || !sord))) {
    free(all), free(sbuf), free(sord);
    rl_audit_fit_free(f);
    return RL_ENOMEM;
  }
  if (S) { /* rows at evenly spaced ranks of position */
    size_t P = in->npos, C = in->ncols;
    for (size_t r = 0; r < P; r++) {
      size_t j = r;
      while (j && in->pos[sord[j - 1]] > in->pos[r]) {
        sord[j] = sord[j - 1];
        j--;
      }
      sord[j] = r;
    }
    smp.npos = S;
    smp.pos = sbuf;
    smp.cos = sbuf + S;
    smp.sin = sbuf + S + S * C;
    for (size_t j = 0; j < S; j++) {
      size_t r = sord[(size_t)llround((double)j * (double)(P - 1) / (double)(S - 1))];
      smp.pos[j] = in->pos[r];
      memcpy(smp.cos + j * C, in->cos + r * C, C * sizeof *smp.cos);
      memcpy(smp.sin + j * C, in->sin + r * C, C * sizeof *smp.sin);
    }
  }
  /* Round two in two steps: every kept schedule as exact values, then
   * the framework pipelines of the best RL_AUDIT_PIPES of them only (a
   * pipeline moves a schedule's values by a few float32 ulps, never from
   * one base or method to another): 400 + 16 x 8 schedules built, not
   * 400 x 8 (each build is O(pairs) in 113-bit arithmetic: 13 ms a pair
   * in all for an inverse-frequency table, issue 33) */
  for (size_t i = 0; i < kept && nall < cap; i++) {
    rl_audit_candidate k = f->cand[i];
    k.p.precision = NULL;
    st = full_eval(S ? &smp : in, &k, f->fit_tol);
    if (st == RL_ENOMEM)
      break;
    if (!st)
      all[nall++] = k;
    if (progress)
      progress(progress_ctx, i + 1, kept + RL_AUDIT_PIPES);
  }
  if (st != RL_ENOMEM)
    sort(all, nall, by_error);
  size_t nexact = nall;
  for (size_t i = 0, done = 0; i < nexact && done < RL_AUDIT_PIPES && st != RL_ENOMEM; i++) {
    int seen = 0; /* a schedule whose other variant was done */
    for (size_t j = 0; j < i && !seen; j++)
      seen = !memcmp(&all[j].p, &all[i].p, sizeof all[i].p);
    if (seen)
      continue;
    done++;
    if (progress)
      progress(progress_ctx, kept + done, kept + RL_AUDIT_PIPES);
    for (const rl_precision *const *pp = rl_precisions(); *pp && nall < cap; pp++) {
      rl_audit_candidate k = all[i];
      const rl_precision *pr = *pp;
      if (pr == rl_precision_exact())
        continue; /* done above */
      if (pr == rl_precision_fp64())
        continue; /* within 1e-16 of exact: it would only double the rows */
      k.p.precision = pr == rl_precision_exact() ? NULL : pr;
      if (pr->variant >= 0) {
        k.p.variant = (rl_variant)pr->variant;
        given(&k.p, k.p.set & ~(unsigned)RL_SP_VARIANT);
      }
      int dup = 0;
      for (size_t j = 0; j < nall && !dup; j++)
        dup = !memcmp(&all[j].p, &k.p, sizeof k.p);
      if (dup)
        continue;
      st = full_eval(S ? &smp : in, &k, f->fit_tol);
      if (st == RL_ENOMEM)
        break;
      if (!st)
        all[nall++] = k;
    }
  }
  free(sbuf), free(sord);
  if (st == RL_ENOMEM) {
    free(all);
    rl_audit_fit_free(f);
    return st;
  }
  st = RL_OK;
  sort(all, nall, by_error);
  if (S) { /* the best on the sample, against the whole table */
    size_t m = 0;
    for (size_t i = 0; i < nall && m < RL_AUDIT_KEEP; i++) {
      rl_audit_candidate k = all[i];
      st = full_eval(in, &k, f->fit_tol);
      if (st == RL_ENOMEM) {
        free(all);
        rl_audit_fit_free(f);
        return st;
      }
      if (!st)
        all[m++] = k;
    }
    st = RL_OK;
    nall = m;
    sort(all, nall, by_error);
  }
  free(f->cand);
  f->cand = all;
  f->ncand = nall;
  if (!nall || !all[0].fits) { /* nothing simple fits: free per-pair factors */
    size_t before = nall;
    st = try_longrope(in, f, &p0, base_hint, all, &nall, cap);
    if (st) {
      rl_audit_fit_free(f);
      return st;
    }
    f->ncand = nall;
    if (nall != before)
      sort(f->cand, f->ncand, by_error);
  }
  if (!nall) {
    rl_audit_fit_free(f);
    return rl_errf(RL_EFORMAT, err, n, "no schedule fits the table's width: expected a RoPE table");
  }
  /* one row per table: candidates whose values are the same entry for
   * entry name one schedule several ways (hf and vllm pipelines, L
   * values between the same pairs) */
  for (size_t i = 1; i < nall; i++)
    for (size_t j = 0; j < i && all[i].same_as < 0; j++)
      if (all[j].same_as < 0 && all[j].hash == all[i].hash && all[j].layout == all[i].layout &&
          all[j].nexact == all[i].nexact && all[j].max_abs_err == all[i].max_abs_err)
        all[i].same_as = (long)j;
  st = diagnose(in, f);
  if (st) {
    rl_audit_fit_free(f);
    return st;
  }
  f->identified = f->cand[0].fits;
  const rl_schedule_params *b = &f->cand[0].p;
  double r = (double)b->rot;
  double b0 = d2_base(b);
  if (f->identified && b->method == plain_type() && b0 > 0)
    snprintf(f->note, sizeof f->note, "rope of base %.17g is theta_i = %.17g^(-2i/(r-2)): d - 2 "
             "in the exponent instead of d (a common bug) at base %.17g", b->base, b0, b0);
  else if (f->identified && b->method == plain_type() && r > 2)
    snprintf(f->note, sizeof f->note, "rope of base B is also Hugging Face's ntk of base "
             "B / s^(r/(r-2)) and any factor s: a table cannot tell them apart");
  else if (f->identified && (b->method->flags & RL_ST_LARGER_BASE) && b->variant == RL_VARIANT_HF)
    snprintf(f->note, sizeof f->note, "Hugging Face's ntk is rope of base %.17g (base "
             "s^(r/(r-2))): a table cannot tell them apart; the rounder parameters are shown",
             b->base * pow(b->factor, r / (r - 2)));
  else if (f->identified && (b->method->flags & RL_ST_LARGER_BASE))
    snprintf(f->note, sizeof f->note, "vLLM's ntk of base b and factor s is linear of base b s "
             "and factor s^(2/r) (%.17g): a table cannot tell them apart; the rounder "
             "parameters are shown", pow(b->factor, 2 / r));
  else if (f->identified && rl_schedule_get_list(b, "short-factors"))
    snprintf(f->note, sizeof f->note, "per-pair factors fitted: no method with few "
             "parameters fits within the tolerance");
  return RL_OK;
}
