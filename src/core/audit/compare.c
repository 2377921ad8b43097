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

static void note(rl_audit_err *e, double expected, double found, double pos, size_t pair,
                 size_t col, int is_sin, int fmt, double *pa, double *pu, double *qa, double *qu,
                 size_t row)
{
  double d = fabs(found - expected), u = d / ulp_in(fmt, expected);
  if (d > e->max_abs || isnan(e->expected)) {
    e->max_abs = d;
    e->worst_pos = pos;
    e->worst_pair = pair;
    e->worst_col = col;
    e->worst_sin = is_sin;
    e->expected = expected;
    e->found = found;
  }
  if (u > e->max_ulp)
    e->max_ulp = u;
  if (pa && d > pa[pair])
    pa[pair] = d;
  if (pu && u > pu[pair])
    pu[pair] = u;
  if (qa && d > qa[row])
    qa[row] = d;
  if (qu && u > qu[row])
    qu[row] = u;
}

rl_status rl_audit_compare(const rl_audit_input *in, int layout, const rl_schedule *sc,
                           rl_audit_err *e, double *pair_abs, double *pair_ulp,
                           double *pos_abs, double *pos_ulp)
{
  size_t n = sc->n;
  memset(e, 0, sizeof *e);
  e->worst_pos = -1;
  if (pair_abs)
    memset(pair_abs, 0, n * sizeof *pair_abs);
  if (pair_ulp)
    memset(pair_ulp, 0, n * sizeof *pair_ulp);
  if (in->kind == RL_AUDIT_FREQS) {
    if (in->ncols != n)
      return RL_EINVAL;
    e->expected = sc->theta[0];
    e->found = in->freq[0];
    for (size_t i = 0; i < n; i++)
      note(e, sc->theta[i], in->freq[i], -1, i, i, 0, in->fmt, pair_abs, pair_ulp, NULL, NULL,
           0);
    return RL_OK;
  }
  size_t want = layout == RL_AUDIT_LAYOUT_PAIRS ? n : 2 * n;
  if (in->ncols != want)
    return RL_EINVAL;
  if (pos_abs)
    memset(pos_abs, 0, in->npos * sizeof *pos_abs);
  if (pos_ulp)
    memset(pos_ulp, 0, in->npos * sizeof *pos_ulp);
  double *c = malloc(2 * n * sizeof *c);
  if (!c)
    return RL_ENOMEM;
  double *s = c + n;
  e->expected = NAN;
  rl_status st = RL_OK;
  for (size_t r = 0; r < in->npos && !st; r++) {
    st = rl_schedule_cossin(sc, in->pos[r], c, s);
    for (size_t k = 0; k < want && !st; k++) {
      size_t i = layout == RL_AUDIT_LAYOUT_PAIRS ? k
                 : layout == RL_AUDIT_LAYOUT_INTERLEAVED ? k / 2
                                                         : k % n;
      note(e, c[i], in->cos[r * want + k], in->pos[r], i, k, 0, in->fmt, pair_abs, pair_ulp,
           pos_abs, pos_ulp, r);
      note(e, s[i], in->sin[r * want + k], in->pos[r], i, k, 1, in->fmt, pair_abs, pair_ulp,
           pos_abs, pos_ulp, r);
    }
  }
  free(c);
  if (isnan(e->expected)) { /* every entry exact: name the first */
    e->worst_pos = in->pos[0];
    e->expected = e->found = in->cos[0];
  }
  return st;
}
