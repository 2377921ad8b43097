/* explain.c: which bug makes a table miss a schedule (rl_audit_explain,
 * ropelab/audit_findings.h): each bug people make, undone or redone in
 * closed form and the table measured again against the schedule with the
 * tolerance model (rl_audit_entry_tol), in one pass over the entries
 * each.  A bug is named when undoing it makes the table fit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

#define TWO_PI 6.283185307179586476925

/* the column of pair i in a layout, and its twin */
static size_t col(int layout, size_t n, size_t i, int twin)
{
  if (layout == RL_AUDIT_LAYOUT_INTERLEAVED)
    return 2 * i + (size_t)twin;
  return layout == RL_AUDIT_LAYOUT_HALF ? i + (twin ? n : 0) : i;
}

static int fits(const rl_audit_input *in, int layout, const rl_schedule *sc, rl_status *st)
{
  rl_audit_err e;
  *st = rl_audit_compare(in, layout, sc, &e, NULL, NULL, NULL, NULL);
  return !*st && e.max_ratio <= 1;
}

/* a copy of in whose arrays are its own */
static rl_status copy(const rl_audit_input *in, rl_audit_input *o)
{
  size_t cnt = in->npos * in->ncols;
  *o = *in;
  o->freq = NULL;
  o->pos = malloc((in->npos ? in->npos : 1) * sizeof *o->pos);
  o->cos = malloc((cnt ? cnt : 1) * sizeof *o->cos);
  o->sin = malloc((cnt ? cnt : 1) * sizeof *o->sin);
  if (!o->pos || !o->cos || !o->sin) {
    rl_audit_input_free(o);
    return RL_ENOMEM;
  }
  memcpy(o->pos, in->pos, in->npos * sizeof *o->pos);
  memcpy(o->cos, in->cos, cnt * sizeof *o->cos);
  memcpy(o->sin, in->sin, cnt * sizeof *o->sin);
  return RL_OK;
}

/* wrap to (-pi, pi] */
static double wrap(double a)
{
  return a - TWO_PI * nearbyint(a / TWO_PI);
}

/* The offset c for which the table's phases are theta_i (m + c): per
 * pair the circular mean psi_i of phase - theta_i m is theta_i c modulo
 * 2 pi; the slowest pair gives c while |theta c| < pi, each faster one
 * refines it (psi_i unwrapped around theta_i c).  NAN when the pairs
 * disagree (a residual above 0.01 rad: not an offset). */
static double offset_of(const rl_audit_input *in, int layout, const rl_schedule *sc)
{
  size_t n = sc->n, C = in->ncols;
  double c = 0;
  int started = 0;
  for (size_t q = n; q-- > 0;) {
    double th = sc->theta[q];
    if (!(th > 0))
      continue;
    size_t k = col(layout, n, q, 0);
    double sx = 0, sy = 0;
    for (size_t r = 0; r < in->npos; r++) {
      double a = atan2(in->sin[r * C + k], in->cos[r * C + k]) - th * in->pos[r];
      sx += cos(a), sy += sin(a);
    }
    double psi = atan2(sy, sx);
    c = started ? (psi + TWO_PI * nearbyint((th * c - psi) / TWO_PI)) / th : psi / th;
    started = 1;
  }
  if (!started)
    return NAN;
  for (size_t q = 0; q < n; q++) { /* every pair agrees with theta_q c */
    size_t k = col(layout, n, q, 0);
    for (size_t r = 0; r < in->npos; r += 1 + in->npos / 64) {
      double a = atan2(in->sin[r * C + k], in->cos[r * C + k]);
      if (fabs(wrap(a - sc->theta[q] * (in->pos[r] + c))) > 0.01)
        return NAN;
    }
  }
  return c;
}

/* The factor k for which the table's phases are theta_i k m: the slope
 * of the slowest rotating pair's unwrapped phase against position (rows
 * in order of position), over its theta. */
static double stride_of(const rl_audit_input *in, int layout, const rl_schedule *sc)
{
  size_t n = sc->n, C = in->ncols, P = in->npos, q = n;
  while (q > 0 && !(sc->theta[q - 1] > 0))
    q--;
  if (!q || P < 2)
    return NAN;
  size_t k = col(layout, n, q - 1, 0);
  double sx = 0, sy = 0, sxx = 0, sxy = 0, prev = 0, w = 0, lastm = 0;
  /* the rows as given: tables are in order of position (others: NAN) */
  for (size_t r = 0; r < P; r++) {
    double m = in->pos[r], a = atan2(in->sin[r * C + k], in->cos[r * C + k]);
    if (r && !(m > lastm))
      return NAN;
    w = r ? w + wrap(a - prev) : a;
    prev = a, lastm = m;
    sx += m, sy += w, sxx += m * m, sxy += m * w;
  }
  double den = (double)P * sxx - sx * sx;
  if (!(den > 0))
    return (double)NAN;
  return ((double)P * sxy - sx * sy) / den / sc->theta[q - 1];
}

/* How many entries the table shares (within tolerance) with sc computed
 * with one dtype rounding added: what = 0 the angle m theta_i rounded to
 * dt, 1 the position m, 2 the frequency theta_i (each after a float32
 * step, as torch computes them: float32 theta, then .to(dt)); what = -1
 * none (float32 throughout). */
static size_t matches(const rl_audit_input *in, int layout, const rl_schedule *sc, int what,
                      rl_dtype dt, size_t *total)
{
  size_t n = sc->n, C = in->ncols, hit = 0, cnt = 0;
  for (size_t r = 0; r < in->npos; r++) {
    double m = in->pos[r];
    for (size_t i = 0; i < n; i++) {
      float th = (float)sc->theta[i], mf = (float)m;
      if (what == 2)
        th = (float)rl_dtype_round(dt, th);
      if (what == 1)
        mf = (float)rl_dtype_round(dt, mf);
      float ang = mf * th;
      if (what == 0)
        ang = (float)rl_dtype_round(dt, ang);
      double ec = sc->attn * cos((double)ang), es = sc->attn * sin((double)ang);
      double t = rl_audit_entry_tol(in, sc, i, m);
      for (int tw = 0; tw < (layout == RL_AUDIT_LAYOUT_PAIRS ? 1 : 2); tw++) {
        size_t k = col(layout, n, i, tw);
        hit += fabs(in->cos[r * C + k] - ec) <= t && fabs(in->sin[r * C + k] - es) <= t;
        cnt++;
      }
    }
  }
  *total = cnt;
  return hit;
}

/* sc with its base replaced (the same method and parameters), or NULL */
static rl_schedule *with_base(const rl_schedule *sc, double base)
{
  rl_schedule_params p = sc->p;
  p.base = base;
  rl_schedule *o = NULL;
  if (!(base > 1) || !isfinite(base) || rl_schedule_new(&p, &o, NULL) != RL_OK)
    return NULL;
  return o;
}

static double median_amp(const rl_audit_input *in)
{
  return rl_audit_amplitude(in);
}

rl_status rl_audit_explain(const rl_audit_input *in, int layout, const rl_schedule *sc,
                           int claimed, char *bug, size_t bn)
{
  bug[0] = 0;
  rl_status st = RL_OK;
  size_t n = sc->n;
  double r = (double)(sc->rot ? sc->rot : 2 * n), b = sc->base;
  char bb[RL_NUMFMT_MAX], xb[RL_NUMFMT_MAX];
  rl_numfmt(b, bb);
  /* the frequencies: arange(0, d/2) for arange(0, d, 2) gives
   * base^(-i/r) = (base^(1/2))^(-2i/r) for every i = 0..r/2-1, a rope of
   * base sqrt(base) exactly (its slowest pair turns at base^(-1/2 + 1/r),
   * not base^(-1 + 2/r)); d - 2 in the exponent's denominator gives
   * base^(-2i/(r-2)) = (base^(r/(r-2)))^(-2i/r) */
  {
    double alt[2] = {sqrt(b), pow(b, r / (r - 2))};
    for (int h = 0; h < 2 && !bug[0]; h++) {
      if (h && !(r > 2))
        continue;
      rl_schedule *s2 = with_base(sc, alt[h]);
      if (!s2)
        continue;
      int ok = fits(in, layout, s2, &st);
      rl_schedule_free(s2);
      if (st == RL_ENOMEM)
        return st;
      if (ok) {
        char fa[RL_NUMFMT_MAX];
        rl_numfmt(alt[h], xb);
        rl_numfmt(pow(b, 1 / r - 0.5), fa); /* base^(-(r/2-1)/r) */
        if (h)
          snprintf(bug, bn, "d - 2 in the exponent (theta_i = base^(-2i/(d-2))): the table is a "
                   "rope of base %s = %s^(d/(d-2))", xb, bb);
        else
          snprintf(bug, bn, "wrong arange: theta_i = base^(-i/d) for base^(-2i/d) (arange(0, d/2) where "
                   "arange(0, d, 2) was meant): base^(-i/d) = (base^(1/2))^(-2i/d) for i = "
                   "0..d/2-1, so the table is exactly a rope of base %s = %s^(1/2), its slowest "
                   "frequency %s instead of base^(2/d - 1)", xb, bb, fa);
        return RL_OK;
      }
    }
  }
  if (in->kind != RL_AUDIT_TABLE) {
    /* inverse frequencies held in a 16-bit format: the buffer cast */
    if (in->fmt == 16 || in->fmt == 17) {
      rl_audit_input w = *in;
      w.fmt = 32; /* judged as the float32 values they should be */
      int ok = fits(&w, layout, sc, &st);
      if (st == RL_ENOMEM)
        return st;
      (void)ok;
      const char *dn = in->fmt == 17 ? "bfloat16" : "float16";
      size_t bad = 0;
      for (size_t i = 0; i < n && i < in->ncols; i++)
        bad += in->freq[i] != rl_dtype_round(in->fmt == 17 ? RL_DTYPE_BF16 : RL_DTYPE_F16,
                                              (double)(float)sc->theta[i]) &&
               fabs(in->freq[i] - sc->theta[i]) > rl_audit_entry_tol(&w, sc, i, 0);
      if (!bad)
        snprintf(bug, bn, "theta in the wrong dtype: every inverse frequency is a %s value "
                 "(theta_i rounded to %s, relative error up to 2^%d): the inv_freq buffer was "
                 "cast with the model (model.to(%s))", dn, dn, in->fmt == 17 ? -9 : -12, dn);
    }
    return RL_OK;
  }
  /* the layout: the table read in the other one fits */
  if (claimed >= 0 && in->ncols == 2 * n && claimed != RL_AUDIT_LAYOUT_PAIRS) {
    int other = claimed == RL_AUDIT_LAYOUT_HALF ? RL_AUDIT_LAYOUT_INTERLEAVED : RL_AUDIT_LAYOUT_HALF;
    if (fits(in, other, sc, &st)) {
      snprintf(bug, bn, "half/interleaved swapped: the table holds pair i on columns %s, the %s "
               "layout, where the %s layout (%s) was expected",
               other == RL_AUDIT_LAYOUT_HALF ? "i and i + d/2" : "2i and 2i + 1",
               rl_audit_layout_name(other), rl_audit_layout_name(claimed),
               claimed == RL_AUDIT_LAYOUT_HALF ? "i and i + d/2" : "2i and 2i + 1");
      return RL_OK;
    }
    if (st == RL_ENOMEM)
      return st;
  }
  rl_audit_input u;
  if ((st = copy(in, &u)))
    return st;
  size_t cnt = in->npos * in->ncols;
  /* whole-table sign and order bugs */
  for (int h = 0; h < 3 && !bug[0]; h++) {
    for (size_t k = 0; k < cnt; k++) {
      double c = in->cos[k], s = in->sin[k];
      u.cos[k] = h == 0 ? s : h == 1 ? c : -c;
      u.sin[k] = h == 0 ? c : h == 1 ? -s : -s;
    }
    if (fits(&u, layout, sc, &st))
      snprintf(bug, bn, "%s", h == 0 ? "cos and sin swapped: the table given as cos holds "
                                       "sin(m theta_i) and the one given as sin cos(m theta_i)"
                              : h == 1 ? "sin sign: every sin is negated, the table turns by "
                                         "-m theta_i (rotate_half as cat(x2, -x1) for cat(-x2, x1))"
                                       : "cos and sin both negated: every angle is m theta_i + pi");
    if (st == RL_ENOMEM)
      break;
  }
  memcpy(u.cos, in->cos, cnt * sizeof *u.cos);
  memcpy(u.sin, in->sin, cnt * sizeof *u.sin);
  /* the positions: offset (row m holds position m + c) or stride (m k) */
  if (!bug[0] && !st) {
    double c = offset_of(in, layout, sc);
    if (isfinite(c) && fabs(c - nearbyint(c)) < 0.01 && nearbyint(c) != 0) {
      double ci = nearbyint(c);
      for (size_t q = 0; q < in->npos; q++)
        u.pos[q] = in->pos[q] + ci;
      if (fits(&u, layout, sc, &st)) {
        char lo[RL_NUMFMT_MAX], hi[RL_NUMFMT_MAX];
        rl_numfmt(u.pos[0], lo);
        rl_numfmt(u.pos[in->npos - 1], hi);
        snprintf(bug, bn, "position offset %+.0f: the row given as position m holds position m "
                 "%s %.0f (the phases of every pair are theta_i (m %s %.0f): from their "
                 "intercepts, c = %.6g); with positions %s..%s it fits", ci, ci > 0 ? "+" : "-",
                 fabs(ci), ci > 0 ? "+" : "-", fabs(ci), c, lo, hi);
      }
    }
  }
  if (!bug[0] && !st) {
    double k = stride_of(in, layout, sc);
    double kr = nearbyint(k);
    if (isfinite(k) && kr >= 2 && fabs(k - kr) < 0.01 * kr) {
      for (size_t q = 0; q < in->npos; q++)
        u.pos[q] = in->pos[q] * kr;
      if (fits(&u, layout, sc, &st))
        snprintf(bug, bn, "position stride %.0f: the row given as position m holds position "
                 "%.0f m (every pair's phase turns %.6g times theta_i per position)", kr, kr, k);
    }
  }
  memcpy(u.pos, in->pos, in->npos * sizeof *u.pos);
  /* the attention factor: dropped (amplitude 1 where a != 1) or applied
   * twice (a^2) */
  if (!bug[0] && !st && fabs(sc->attn - 1) > 1e-3) {
    double amp = median_amp(in), a = sc->attn;
    for (int h = 0; h < 2 && !bug[0]; h++) {
      double want = h ? a * a : 1;
      if (fabs(amp - want) > 1e-2 * want)
        continue;
      double f = a / want;
      for (size_t k = 0; k < cnt; k++)
        u.cos[k] = in->cos[k] * f, u.sin[k] = in->sin[k] * f;
      if (fits(&u, layout, sc, &st) || fabs(amp - want) <= 8 * rl_audit_format_eps(in->fmt))
        snprintf(bug, bn, h ? "attention factor applied twice: the table's amplitude is %.9g = "
                              "a^2, the schedule's a = %.9g"
                            : "attention factor dropped: the table's amplitude is %.9g, the "
                              "schedule's a = %.9g (cos and sin are to be multiplied by it)",
                 amp, a);
    }
  }
  rl_audit_input_free(&u);
  if (bug[0] || st)
    return st == RL_ENOMEM ? st : RL_OK;
  /* a 16-bit dtype inside the float32 computation: the angle, the
   * position or the frequency rounded to it; named when it explains at
   * least 99% of the entries and float32 throughout explains at most
   * half of what it does */
  size_t tot = 0, plain = matches(in, layout, sc, -1, RL_DTYPE_F32, &tot);
  size_t best = 0;
  int bw = -1;
  rl_dtype bd = RL_DTYPE_BF16;
  for (int w = 0; w < 3; w++)
    for (int d = 0; d < 2; d++) {
      rl_dtype dt = d ? RL_DTYPE_F16 : RL_DTYPE_BF16;
      size_t t2 = 0, h = matches(in, layout, sc, w, dt, &t2);
      if (h > best)
        best = h, bw = w, bd = dt;
    }
  if (bw >= 0 && (double)best >= 0.99 * (double)tot && 2 * plain <= best) {
    const char *dn = bd == RL_DTYPE_BF16 ? "bfloat16" : "float16";
    const char *lim = bd == RL_DTYPE_BF16 ? "256" : "2048";
    if (bw == 0)
      snprintf(bug, bn, "angles in %s: m theta_i rounded to %s before cos and sin (freqs = "
               "outer(t, inv_freq) in %s); %zu of %zu entries fit that, %zu float32 throughout",
               dn, dn, dn, best, tot, plain);
    else if (bw == 1)
      snprintf(bug, bn, "positions in %s: m rounded to %s (torch.arange(..., dtype=%s): not "
               "every integer above %s is a %s value); %zu of %zu entries fit that, %zu float32 "
               "throughout", dn, dn, dn, lim, dn, best, tot, plain);
    else
      snprintf(bug, bn, "theta in the wrong dtype: theta_i rounded to %s (the inv_freq buffer "
               "cast to %s with the model); %zu of %zu entries fit that, %zu float32 throughout",
               dn, dn, best, tot, plain);
  }
  return RL_OK;
}
