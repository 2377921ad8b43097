/* findings.c: whole-table bugs and the attention factor's cast order
 * (ropelab/audit_findings.h says which and why). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

enum { T_EXCHANGE, T_NEGSIN, T_COUNT };

static const char *const t_what[T_COUNT] = {
    "cos and sin are exchanged throughout (the table given as cos holds sin(m theta) and the "
    "one given as sin cos(m theta): the two tables, or the two halves of vLLM's "
    "cos_sin_cache = cat(cos, sin), taken the wrong way round); read the other way round it is",
    "every sin has the wrong sign: the table turns by -m theta (rotate_half with its halves "
    "exchanged, cat(x2, -x1) for cat(-x2, x1)); with the sign undone it is"};

/* in with bug t undone, into out (which owns its arrays) */
static rl_status undo(const rl_audit_input *in, int t, rl_audit_input *out)
{
  size_t cnt = in->npos * in->ncols;
  *out = *in;
  out->pos = malloc(in->npos * sizeof *out->pos);
  out->cos = malloc(cnt * sizeof *out->cos);
  out->sin = malloc(cnt * sizeof *out->sin);
  out->freq = NULL;
  if (!out->pos || !out->cos || !out->sin) {
    rl_audit_input_free(out);
    return RL_ENOMEM;
  }
  memcpy(out->pos, in->pos, in->npos * sizeof *out->pos);
  for (size_t k = 0; k < cnt; k++) {
    out->cos[k] = t == T_EXCHANGE ? in->sin[k] : in->cos[k];
    out->sin[k] = t == T_EXCHANGE ? in->cos[k] : -in->sin[k];
  }
  return RL_OK;
}

/* Which reading the phases follow: atan2(sin, cos) against the fitted
 * |theta_i| (the fit keeps magnitudes) is m theta for a right table,
 * -m theta with every sin negated, pi/2 - m theta with cos and sin
 * exchanged.  The largest sum of cos(phase - prediction) over every
 * entry (the offset matters: the two bugs differ by pi/2) picks one, in
 * O(entries), so that only its retry is run; -1: the table reads right,
 * and neither bug explains its misfit. */
static int likely_bug(const rl_audit_input *in, const rl_audit_fit *fit)
{
  double re[3] = {0, 0, 0};
  size_t C = in->ncols;
  for (size_t r = 0; r < in->npos; r++)
    for (size_t i = 0; i < fit->n; i++) {
      size_t k = fit->layout == RL_AUDIT_LAYOUT_INTERLEAVED ? 2 * i : i;
      double a = atan2(in->sin[r * C + k], in->cos[r * C + k]), mt = in->pos[r] * fit->theta[i];
      double d[3] = {a - mt, a - (1.5707963267948966 - mt), a + mt};
      for (int h = 0; h < 3; h++)
        re[h] += cos(d[h]);
    }
  int best = 0;
  for (int h = 1; h < 3; h++)
    if (re[h] > re[best])
      best = h;
  return best == 1 ? T_EXCHANGE : best == 2 ? T_NEGSIN : -1;
}

static rl_status whole_table(const rl_audit_input *in, size_t dim_hint, double base_hint,
                             rl_audit_fit *fit, char *finding, size_t n)
{
  int t = likely_bug(in, fit);
  if (t >= 0) {
    rl_audit_input u;
    rl_status st = undo(in, t, &u);
    if (st)
      return st;
    rl_audit_fit g;
    char err[RL_ERR_MAX];
    st = rl_audit_identify_hint(&u, dim_hint, base_hint, &g, err, sizeof err);
    rl_audit_input_free(&u);
    if (st == RL_ENOMEM)
      return st;
    if (st)
      return RL_OK;
    if (g.identified || g.broken[0]) {
      rl_audit_fit_free(fit);
      *fit = g;
      const rl_audit_candidate *c = &g.cand[0];
      char bb[RL_NUMFMT_MAX], fb[RL_NUMFMT_MAX];
      rl_numfmt(c->p.base, bb);
      rl_numfmt(c->p.factor, fb);
      int fac = (c->p.method->uses & RL_SP_FACTOR) != 0;
      snprintf(finding, n, "%s %s base %s%s%s, %s layout (%s)", t_what[t], c->p.method->name, bb,
               fac ? " factor " : "", fac ? fb : "", rl_audit_layout_name(c->layout),
               c->p.precision ? c->p.precision->name : "exact");
      return RL_OK;
    }
    rl_audit_fit_free(&g);
  }
  return RL_OK;
}

/* the table's pair for column k */
static size_t pair_of(int layout, size_t n, size_t k)
{
  return layout == RL_AUDIT_LAYOUT_HALF ? k % n : layout == RL_AUDIT_LAYOUT_INTERLEAVED ? k / 2 : k;
}

/* Entries reproduced bit for bit when the attention factor is applied
 * before the cast (the frameworks' order) and after it. */
static rl_status cast_order(const rl_audit_input *in, const rl_audit_fit *fit, char *finding,
                            size_t n)
{
  const rl_audit_candidate *b = &fit->cand[0];
  const rl_precision *pr = b->p.precision;
  if (!pr || pr->exact || (pr->table_dtype != RL_DTYPE_BF16 && pr->table_dtype != RL_DTYPE_F16))
    return RL_OK;
  /* the same pipeline with its table left in float32, and no attention
   * factor: cos and sin as computed before the last two roundings */
  rl_precision wide = *pr;
  wide.table_dtype = RL_DTYPE_F32;
  rl_schedule_params p = b->p;
  p.precision = &wide;
  rl_schedule *sc = NULL;
  rl_status st = rl_schedule_new(&p, &sc, NULL);
  if (st)
    return st == RL_ENOMEM ? st : RL_OK;
  if (sc->attn == 1.0 || sc->n != fit->n) {
    rl_schedule_free(sc);
    return RL_OK;
  }
  size_t nn = sc->n, C = in->ncols;
  double *c = malloc(2 * nn * sizeof *c);
  if (!c) {
    rl_schedule_free(sc);
    return RL_ENOMEM;
  }
  rl_dtype dt = pr->table_dtype;
  float a = (float)sc->attn; /* a Python float times a float32 tensor: float32 */
  size_t before = 0, after = 0, total = 0;
  for (size_t r = 0; r < in->npos; r++) {
    sc->prec->cossin(sc, in->pos[r], 1.0, c, c + nn);
    for (size_t k = 0; k < C; k++) {
      size_t i = pair_of(b->layout, nn, k);
      for (int q = 0; q < 2; q++) {
        float v = (float)c[q * nn + i];
        double got = q ? in->sin[r * C + k] : in->cos[r * C + k];
        float prod = v * a;
        double bf = rl_dtype_round(dt, (double)prod);
        float lo = (float)rl_dtype_round(dt, (double)v) * a;
        double af = rl_dtype_round(dt, (double)lo);
        before += got == bf;
        after += got == af;
        total++;
      }
    }
  }
  free(c);
  rl_schedule_free(sc);
  const char *dn = dt == RL_DTYPE_BF16 ? "bfloat16" : "float16";
  if (after > before)
    snprintf(finding, n,
             "the attention factor %.9g is applied after the cast to %s: %zu of %zu entries are "
             "%s(%s(cos) a) bit for bit, %zu are %s(cos a), the order of transformers and vLLM "
             "(multiplied in float32, then cast)",
             (double)a, dn, after, total, dn, dn, before, dn);
  return RL_OK;
}

/* The closest candidates' schedules as exact values, what a bug is
 * undone against (rl_audit_explain): the first 12 distinct schedules in
 * rank order (a table with a bug is far from all, so the closest is not
 * always the one it was made from: base 499615 before 500000). */
static rl_status explain_closest(const rl_audit_input *in, rl_audit_fit *fit, int claimed,
                                 char *finding, size_t n)
{
  rl_schedule_params tried[12];
  size_t nt = 0;
  rl_status st = RL_OK;
  for (size_t k = 0; k < fit->ncand && nt < 12 && !finding[0] && !st; k++) {
    rl_schedule_params p = fit->cand[k].p;
    p.precision = NULL;
    int dup = 0;
    for (size_t j = 0; j < nt && !dup; j++)
      dup = !memcmp(&tried[j], &p, sizeof p);
    if (dup)
      continue;
    tried[nt++] = p;
    rl_schedule *sc = NULL;
    if (rl_schedule_new(&p, &sc, NULL) != RL_OK)
      continue;
    st = rl_audit_explain(in, fit->cand[k].layout, sc, claimed, finding, n);
    rl_schedule_free(sc);
    if (!st && finding[0]) { /* what the table is, read with the bug undone */
      char bb[RL_NUMFMT_MAX], fb[RL_NUMFMT_MAX];
      size_t l = strlen(finding);
      rl_numfmt(p.base, bb);
      rl_numfmt(p.factor, fb);
      int fac = (p.method->uses & RL_SP_FACTOR) != 0;
      snprintf(finding + l, l < n ? n - l : 0, "; with it undone: %s base %s%s%s, %s layout",
               p.method->name, bb, fac ? " factor " : "", fac ? fb : "",
               rl_audit_layout_name(fit->cand[k].layout));
    }
  }
  return st;
}

/* An identified table whose parameters are a bug's: yarn's attention
 * factor fitted as 1 where the method's own is not (dropped), or, with
 * the base the user meant (--base), a rope of its square root or of
 * base^(d/(d-2)) (rl_audit_explain says why). */
static rl_status identified_bugs(const rl_audit_input *in, double base_hint, rl_audit_fit *fit,
                                 char *finding, size_t n)
{
  const rl_audit_candidate *c = &fit->cand[0];
  if ((c->p.set & RL_SP_ATTN) && c->p.attention_factor == 1) {
    rl_schedule_params p = c->p;
    unsigned bits = p.set & ~(unsigned)RL_SP_ATTN; /* given again without it */
    p.set = 0;
    memset(p.given, 0, sizeof p.given);
    for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
      if ((*d)->bit & bits)
        rl_schedule_param_mark(&p, *d);
    p.attention_factor = 0;
    p.precision = NULL;
    rl_schedule *sc = NULL;
    if (rl_schedule_new(&p, &sc, NULL) == RL_OK && sc->attn != 1) {
      snprintf(finding, n, "attention factor dropped: the table's amplitude is %.9g, %s's own "
               "a = %.9g (cos and sin are to be multiplied by it)", fit->attn, c->p.method->name,
               sc->attn);
      rl_schedule_free(sc);
      return RL_OK;
    }
    rl_schedule_free(sc);
  }
  /* without --base: a base whose square is round (3 digits) and which is
   * not itself: sqrt(500000) = 707.106..., the exponent's bug */
  if (!(base_hint > 1)) {
    double b2 = c->p.base * c->p.base, e = floor(log10(b2));
    double r2 = round(b2 / pow(10, e - 2)) * pow(10, e - 2);
    double e1 = floor(log10(c->p.base));
    double r1 = round(c->p.base / pow(10, e1 - 2)) * pow(10, e1 - 2);
    if (fabs(r2 - b2) <= 1e-9 * b2 && fabs(r1 - c->p.base) > 1e-9 * c->p.base)
      base_hint = r2;
  }
  if (base_hint > 1 && fabs(c->p.base - base_hint) > 1e-9 * base_hint) {
    rl_schedule_params p = c->p;
    p.base = base_hint;
    p.precision = NULL;
    rl_schedule *sc = NULL;
    if (rl_schedule_new(&p, &sc, NULL) == RL_OK) {
      rl_status st = rl_audit_explain(in, c->layout, sc, -1, finding, n);
      rl_schedule_free(sc);
      return st;
    }
  }
  return RL_OK;
}

rl_status rl_audit_findings(const rl_audit_input *in, size_t dim_hint, double base_hint,
                            rl_audit_fit *fit, char *finding, size_t n)
{
  finding[0] = 0;
  fit->bug = 0;
  if (!fit->ncand)
    return RL_OK;
  rl_status st = RL_OK;
  if (in->kind != RL_AUDIT_TABLE) {
    if (!fit->identified)
      st = explain_closest(in, fit, -1, finding, n);
    else
      st = identified_bugs(in, base_hint, fit, finding, n);
    fit->bug = finding[0] != 0;
    return st;
  }
  if (!fit->identified && !fit->broken[0]) {
    st = whole_table(in, dim_hint, base_hint, fit, finding, n);
    if (!st && !finding[0])
      st = explain_closest(in, fit, -1, finding, n);
    fit->bug = finding[0] != 0;
    return st;
  }
  if (!st && fit->identified)
    st = identified_bugs(in, base_hint, fit, finding, n);
  fit->bug = finding[0] != 0;
  if (!st && fit->identified && !finding[0])
    st = cast_order(in, fit, finding, n); /* an order of roundings: a note, not a bug */
  return st;
}
