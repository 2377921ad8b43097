/* test_schemes.c: the schemes against closed forms and independent
 * recomputations: sinusoidal values at pos 1, xl's sines-then-cosines
 * order and its four terms recomputed directly from R_{i-j}, rope against
 * rl_rope_apply_complex, rope2d against hand rotations, the learned
 * table's past-length policies, tupe's [CLS] untying, deberta's span
 * clamp, alibi's bias, parameter counts by closed form and the term
 * bookkeeping of every scheme. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h" /* xl's W_r, u, v for the direct recomputation */
#include "tap.h"

static rl_scheme *mk(const char *name, rl_scheme_cfg *c)
{
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  rl_status st = rl_scheme_alloc(name, c, &s, err);
  if (st)
    printf("# alloc %s: %s\n", name, err);
  return s;
}

static void fill(double *v, size_t n, unsigned seed)
{
  /* a fixed, irregular content vector: no generator needed */
  for (size_t k = 0; k < n; k++)
    v[k] = sin(1.7 * (double)(k + 1) + 0.3 * seed) + 0.25 * cos(0.37 * (double)(k * k + seed));
}

static void test_sinusoidal(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  rl_scheme *s = mk("sinusoidal", &c), *x = mk("xl", &c);
  double e[8], r[8];
  rl_scheme_encoding(s, 1.0, e);
  rl_scheme_encoding(x, 1.0, r);
  /* base 10000, d 8: theta_k = 10000^(-2k/8) = 10^-k, k = 0..3 */
  const double th[4] = {1.0, 0.1, 0.01, 0.001};
  for (int k = 0; k < 4; k++) {
    /* libm sin/cos of the nearest double to 10^-k: within 1 ulp of
     * rl_angle_sincos, which is within 1 ulp of exact */
    tap_ulp_close(e[2 * k], sin(th[k]), 2, "sinusoidal PE(1, %d) = sin(10^-%d)", 2 * k, k);
    tap_ulp_close(e[2 * k + 1], cos(th[k]), 2, "sinusoidal PE(1, %d) = cos(10^-%d)", 2 * k + 1, k);
    /* Transformer-XL PositionalEmbedding: all sines, then all cosines */
    tap_ulp_close(r[k], sin(th[k]), 2, "xl R_1[%d] = sin(10^-%d) (sines first)", k, k);
    tap_ulp_close(r[4 + k], cos(th[k]), 2, "xl R_1[%d] = cos(10^-%d) (cosines after)", 4 + k, k);
  }
  rl_scheme_encoding(s, 0.0, e);
  tap_ok(e[0] == 0 && e[1] == 1 && e[6] == 0 && e[7] == 1, "sinusoidal PE(0) = (0, 1, ...)");
  rl_scheme_free(s);
  rl_scheme_free(x);
}

/* sinusoidal over a run of positions 0..2999, as extrapolate asks for
 * its keys (src/core/schemes/abs.c then serves them from a per-thread run
 * computed by rl_angle_sincos_rows, proven within 0.55 ulp and checked
 * against MPFR in tests/base/test_angle_rows.c): every value within one
 * ulp of rl_angle_sincos2 at the same position and frequency (both within
 * 0.55 ulp of the exact value), and two schemes of different bases asked
 * in alternation each get their own values (the run is keyed by the
 * frequencies, not by the scheme's address). */
static void test_sinusoidal_run(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 128;
  rl_scheme *a = mk("sinusoidal", &c);
  c.rope.base = 500000;
  rl_scheme *b = mk("sinusoidal", &c);
  const rl_schedule *fa = rl_scheme_get_schedule(a), *fb = rl_scheme_get_schedule(b);
  double e[128], worst = 0;
  size_t differ = 0;
  for (double pos = 0; pos < 3000; pos++)
    for (int which = 0; which < 2; which++) {
      const rl_schedule *f = which ? fb : fa;
      rl_scheme_encoding(which ? b : a, pos, e);
      for (size_t k = 0; k < 64; k++) {
        double cw, sw;
        rl_angle_sincos2(pos, f->theta[k], f->theta_lo[k], &cw, &sw);
        double u = fmax(tap_ulps(e[2 * k], sw), tap_ulps(e[2 * k + 1], cw));
        worst = fmax(worst, u);
        differ += u != 0;
      }
    }
  tap_report(worst <= 1, worst, 1,
             "sinusoidal at positions 0..2999, two bases in alternation: within 1 ulp of "
             "rl_angle_sincos2 (%zu of 384000 values differ)", differ);
  rl_scheme_free(a);
  rl_scheme_free(b);
}

/* xl: the four terms straight from Dai et al. eq. (a)-(d) with R_{i-j}
 * evaluated at the difference, against the angle-addition fast path. */
static void test_xl(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.heads = 2;
  rl_scheme *s = mk("xl", &c);
  size_t d = 16, h = 1;
  double xq[16], xk[16], q[16], k[16], R[16], WR[16];
  fill(xq, d, 1);
  fill(xk, d, 2);
  const double pos[][2] = {{5, 2}, {2, 5}, {1000, 3}, {123456, 123000}};
  for (size_t t = 0; t < 4; t++) {
    double i = pos[t][0], j = pos[t][1];
    rl_logit_terms lt;
    rl_scheme_logit(s, h, i, j, xq, xk, &lt);
    rl_sch_matvec(rl_sch_wq(s, h), xq, q, d);
    rl_sch_matvec(rl_sch_wk(s, h), xk, k, d);
    rl_scheme_encoding(s, i - j, R);
    rl_sch_matvec(s->hd[h].m, R, WR, d); /* W_r of head h (built by the logit) */
    double sc = 1.0 / 4.0; /* 1/sqrt(16) */
    double a = rl_sch_dot(q, k, d) * sc, b = rl_sch_dot(q, WR, d) * sc;
    double cc = rl_sch_dot(s->v1 + h * d, k, d) * sc, dd = rl_sch_dot(s->v2 + h * d, WR, d) * sc;
    /* both paths: O(d) products of O(1) terms, angles within 1 ulp; the
     * angle addition adds a few eps per component: 64 d eps absolute */
    double tol = 64.0 * (double)d * DBL_EPSILON;
    tap_abs_close(lt.cc, a, tol, "xl (a) q.k at (%g, %g)", i, j);
    tap_abs_close(lt.cp, b, tol, "xl (b) q.W_r R_{i-j} at (%g, %g)", i, j);
    tap_abs_close(lt.pc, cc, tol, "xl (c) u.k at (%g, %g)", i, j);
    tap_abs_close(lt.pp, dd, tol, "xl (d) v.W_r R_{i-j} at (%g, %g)", i, j);
  }
  rl_scheme_free(s);
}

/* rope vs rl_rope_apply_complex (a different rotation code path) with
 * W = I: total = (R_i x_q).(R_j x_k) / sqrt(d). */
static void test_rope(void)
{
  for (int lay = 0; lay < 2; lay++) {
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = 16;
    c.identity = 1;
    c.rope.layout = (rl_layout)lay;
    rl_scheme *s = mk("rope", &c);
    rl_schedule *f;
    rl_schedule_rope(16, 16, 10000.0, &f);
    double xq[16], xk[16], a[16], b[16];
    fill(xq, 16, 3);
    fill(xk, 16, 4);
    const double pos[][2] = {{7, 3}, {0, 0}, {1e6, 17.5}, {2e9, 1e9}};
    for (int t = 0; t < 4; t++) {
      rl_logit_terms lt;
      rl_scheme_logit(s, 0, pos[t][0], pos[t][1], xq, xk, &lt);
      rl_rope_apply_complex(f, (rl_layout)lay, pos[t][0], xq, a);
      rl_rope_apply_complex(f, (rl_layout)lay, pos[t][1], xk, b);
      double want = rl_sch_dot(a, b, 16) / 4.0, want_cc = rl_sch_dot(xq, xk, 16) / 4.0;
      double tol = 16.0 * 16.0 * DBL_EPSILON; /* d terms, rotations of a few eps each */
      tap_abs_close(lt.total, want, tol, "rope %s total at (%g, %g)",
                    lay ? "half" : "interleaved", pos[t][0], pos[t][1]);
      tap_abs_close(lt.cc, want_cc, tol, "rope cc is the unrotated logit");
      tap_abs_close(lt.mix, lt.total - lt.cc, 0, "rope mix = total - cc");
    }
    rl_schedule_free(f);
    rl_scheme_free(s);
  }
}

/* rope2d, d 8, base 10000, width 5: pairs (0,1), (2,3) turn with the
 * column by theta = 1, 0.01 (10000^(-2k/4)); (4,5), (6,7) with the row. */
static void rot(double *v, double ang)
{
  double c = cos(ang), s = sin(ang), a = v[0], b = v[1];
  v[0] = a * c - b * s;
  v[1] = a * s + b * c;
}

static void test_rope2d(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  c.identity = 1;
  c.width = 5;
  rl_scheme *s = mk("rope2d", &c);
  double xq[8], xk[8];
  fill(xq, 8, 5);
  fill(xk, 8, 6);
  rl_logit_terms a, b;
  rl_scheme_logit(s, 0, 13, 7, xq, xk, &a); /* 13 = (2, 3), 7 = (1, 2) */
  rl_scheme_logit2d(s, 0, 2, 3, 1, 2, xq, xk, &b);
  tap_ok(a.total == b.total, "rope2d: 1-D 13, 7 is 2-D (2, 3), (1, 2) with width 5");
  double q[8], k[8];
  memcpy(q, xq, sizeof q);
  memcpy(k, xk, sizeof k);
  const double th[2] = {1.0, 0.01};
  for (int p = 0; p < 2; p++) {
    rot(q + 2 * p, 3 * th[p]);     /* column of the query */
    rot(k + 2 * p, 2 * th[p]);
    rot(q + 4 + 2 * p, 2 * th[p]); /* row */
    rot(k + 4 + 2 * p, 1 * th[p]);
  }
  double want = rl_sch_dot(q, k, 8) / sqrt(8.0);
  tap_abs_close(a.total, want, 64 * DBL_EPSILON, "rope2d against hand rotations");
  tap_ok(rl_scheme_logit(s, 0, 1.5, 0, xq, xk, &a) == RL_EINVAL, "rope2d 1-D needs integers");
  rl_scheme_free(s);
}

static void test_learned(void)
{
  const char *pol[] = {"error", "clamp", "wrap"};
  for (int k = 0; k < 3; k++) {
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = 4;
    c.max_len = 4;
    tap_ok(rl_past_policy_parse(pol[k], &c.past) == RL_OK, "policy '%s' parses", pol[k]);
    rl_scheme *s = mk("learned", &c);
    double e[4], r[4];
    rl_status st = rl_scheme_encoding(s, 4, e);
    if (k == 0) {
      tap_ok(st == RL_ERANGE, "learned error: position 4 of 4 is RL_ERANGE");
      tap_ok(rl_scheme_encoding(s, -1, e) == RL_ERANGE, "learned error: -1 is RL_ERANGE");
      double x[4] = {1, 2, 3, 4};
      rl_logit_terms t;
      tap_ok(rl_scheme_logit(s, 0, 0, 4, x, x, &t) == RL_ERANGE, "learned error: logit too");
    } else if (k == 1) {
      rl_scheme_encoding(s, 3, r);
      tap_ok(!st && !memcmp(e, r, sizeof e), "learned clamp: 4 -> row 3");
      rl_scheme_encoding(s, -7, e);
      rl_scheme_encoding(s, 0, r);
      tap_ok(!memcmp(e, r, sizeof e), "learned clamp: -7 -> row 0");
    } else {
      rl_scheme_encoding(s, 5, e);
      rl_scheme_encoding(s, 1, r);
      tap_ok(!memcmp(e, r, sizeof e), "learned wrap: 5 -> row 1");
      rl_scheme_encoding(s, -1, e);
      rl_scheme_encoding(s, 3, r);
      tap_ok(!memcmp(e, r, sizeof e), "learned wrap: -1 -> row 3");
    }
    tap_ok(rl_scheme_encoding(s, 1.5, e) == RL_EINVAL, "learned %s: 1.5 is RL_EINVAL", pol[k]);
    rl_scheme_free(s);
  }
  rl_past_policy p;
  tap_ok(rl_past_policy_parse("silent", &p) == RL_EINVAL, "unknown policy 'silent' refused");
}

static void test_tupe(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  c.heads = 2;
  c.max_len = 16;
  rl_scheme *s = mk("tupe", &c);
  double x[8];
  fill(x, 8, 7);
  rl_logit_terms a, b, t;
  rl_scheme_logit(s, 1, 0, 3, x, x, &a);
  rl_scheme_logit(s, 1, 0, 11, x, x, &b);
  rl_scheme_logit(s, 1, 0, 0, x, x, &t);
  tap_ok(a.pp == b.pp && a.pp == t.pp && a.bias == b.bias && a.bias == t.bias,
         "tupe [CLS] row: one theta_cls->others and one bias for every key, (0,0) included");
  rl_scheme_logit(s, 1, 3, 0, x, x, &a);
  rl_scheme_logit(s, 1, 9, 0, x, x, &b);
  tap_ok(a.pp == b.pp && a.bias == b.bias && a.pp != t.pp,
         "tupe [CLS] column: theta_others->cls, distinct from the row's");
  rl_scheme_logit(s, 1, 3, 5, x, x, &a);
  rl_scheme_logit(s, 1, 4, 6, x, x, &b);
  tap_ok(a.pp != b.pp && a.bias == b.bias, "tupe: absolute pp, relative bias off [CLS]");
  /* content term / sqrt(2d): the nope logit of the same seed / sqrt 2 */
  rl_scheme *n = mk("nope", &c);
  rl_scheme_logit(n, 1, 3, 5, x, x, &t);
  tap_abs_close(a.cc, t.cc / sqrt(2.0), 4 * DBL_EPSILON * fabs(t.cc),
                "tupe cc = nope cc / sqrt(2) (scale 1/sqrt(2d))");
  rl_scheme_free(n);
  rl_scheme_free(s);
}

static void test_deberta_alibi(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  rl_scheme *s = mk("deberta", &c), *n = mk("nope", &c), *al = mk("alibi", &c);
  double xq[8], xk[8];
  fill(xq, 8, 8);
  fill(xk, 8, 9);
  rl_logit_terms a, b, t;
  /* buckets 270 and 417 both exceed k - 1 = 255: index 2k - 1 */
  rl_scheme_logit(s, 2, 600, 0, xq, xk, &a);
  rl_scheme_logit(s, 2, 5000, 0, xq, xk, &b);
  tap_ok(a.cp == b.cp && a.pc == b.pc, "deberta span clamp: rel 600 and 5000 share row 2k-1");
  rl_scheme_logit(s, 2, 3, 1, xq, xk, &a);
  rl_scheme_logit(s, 2, 1, 3, xq, xk, &b);
  tap_ok(a.cp != b.cp, "deberta: rel +2 and -2 use different rows");
  rl_scheme_logit(n, 2, 3, 1, xq, xk, &t);
  tap_abs_close(a.cc, t.cc / sqrt(3.0), 4 * DBL_EPSILON * fabs(t.cc),
                "deberta cc = nope cc / sqrt(3) (scale 1/sqrt(3d))");
  /* alibi, 8 heads: head 0 slope 1/2, head 7 slope 1/256 */
  rl_scheme_logit(al, 0, 3, 10, xq, xk, &a);
  rl_scheme_logit(n, 0, 3, 10, xq, xk, &t);
  tap_ok(a.bias == -3.5 && a.cc == t.cc, "alibi head 0: -1/2 |3 - 10| = -3.5, cc = nope's");
  rl_scheme_logit(al, 7, 10, 3, xq, xk, &a);
  tap_ok(a.bias == -7.0 / 256, "alibi head 7: -7/256");
  rl_scheme_free(s);
  rl_scheme_free(n);
  rl_scheme_free(al);
}

/* total = sum of the terms for every scheme; positional = total - cc;
 * the fast path (prepare + pair) is the same numbers as logit. */
static void test_bookkeeping(void)
{
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = 16;
    c.heads = 3;
    rl_scheme *s = mk(i->name, &c);
    if (!s) {
      tap_ok(0, "%s allocates with defaults", i->name);
      continue;
    }
    double xq[16], xk[16], v, *pq = malloc(2 * rl_scheme_prep_len(s) * sizeof *pq);
    double *pk = pq + rl_scheme_prep_len(s);
    fill(xq, 16, 10);
    fill(xk, 16, 11);
    rl_logit_terms t, u;
    rl_status st = rl_scheme_logit(s, 2, 9, 4, xq, xk, &t);
    double sum = t.cc + t.cp + t.pc + t.pp + t.bias + t.mix;
    tap_abs_close(t.total, sum, 8 * DBL_EPSILON * fmax(1, fabs(t.total)),
                  "%s: total = cc + cp + pc + pp + bias + mix (status %d)", i->name, st);
    rl_scheme_positional(s, 2, 9, 4, xq, xk, &v);
    tap_ok(v == t.total - t.cc, "%s: positional = total - cc", i->name);
    rl_scheme_prepare(s, 2, RL_ROLE_QUERY, 9, xq, pq);
    rl_scheme_prepare(s, 2, RL_ROLE_KEY, 4, xk, pk);
    rl_scheme_pair(s, 2, 9, 4, pq, pk, &u);
    tap_ok(!memcmp(&t, &u, sizeof t), "%s: prepare + pair = logit", i->name);
    tap_ok(isfinite(t.total), "%s: finite logit %g", i->name, t.total);
    tap_ok(rl_scheme_logit(s, 0, 3e9, 0, xq, xk, &t) == RL_ERANGE,
           "%s: position 3e9 past RL_POS_MAX is RL_ERANGE", i->name);
    tap_ok(rl_scheme_logit(s, 0, NAN, 0, xq, xk, &t) == RL_ERANGE, "%s: NaN is RL_ERANGE",
           i->name);
    tap_ok(rl_scheme_logit(s, 3, 0, 0, xq, xk, &t) == RL_EINVAL, "%s: head 3 of 3 refused",
           i->name);
    if (!strcmp(i->name, "nope"))
      tap_ok(v == 0, "nope: positional is 0");
    free(pq);
    rl_scheme_free(s);
  }
}

/* closed forms of the header's table, d = 16, H = 3, len = 100 */
static void test_counts(void)
{
  const size_t d = 16, H = 3, len = 100;
  struct { const char *name; size_t want; } w[] = {
      {"nope", 0}, {"sinusoidal", 0}, {"rope", 0}, {"rope2d", 0}, {"alibi", 0},
      {"integer", 0}, {"binary", 0},
      {"learned", len * d},
      {"t5", 32 * H},
      {"deberta", 2 * 256 * d},
      {"xl", H * (d * d + 2 * d)},
      {"tupe", (len + 1) * d + 2 * H * d * d + 33 * H},
  };
  for (size_t k = 0; k < sizeof w / sizeof *w; k++) {
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = d;
    c.heads = H;
    rl_scheme *s = mk(w[k].name, &c);
    size_t got = s ? rl_scheme_param_count(s, len) : (size_t)-1;
    tap_ok(got == w[k].want, "param count %s = %zu (got %zu)", w[k].name, w[k].want, got);
    rl_scheme_free(s);
  }
}

static void test_errors(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  tap_ok(rl_scheme_alloc("ropee", &c, &s, err) == RL_EINVAL && strstr(err, "'ropee'") && !s,
         "unknown scheme: RL_EINVAL, name quoted: %s", err);
  c.dim = 7;
  tap_ok(rl_scheme_alloc("sinusoidal", &c, &s, err) == RL_EINVAL, "odd dim: %s", err);
  c.dim = 6;
  tap_ok(rl_scheme_alloc("rope2d", &c, &s, err) == RL_EINVAL, "rope2d dim 6: %s", err);
  c.dim = 8;
  c.rope.base = 1.0;
  tap_ok(rl_scheme_alloc("rope", &c, &s, err) == RL_EINVAL, "base 1: %s", err);
  rl_scheme_cfg_default(&c);
  c.num_buckets = 2;
  tap_ok(rl_scheme_alloc("t5", &c, &s, err) == RL_EINVAL, "t5 2 buckets: %s", err);
  rl_scheme_cfg_default(&c);
  s = mk("t5", &c);
  double x[64] = {0};
  rl_logit_terms t;
  tap_ok(rl_scheme_logit(s, 0, 1.5, 0, x, x, &t) == RL_EINVAL, "t5 needs integer positions");
  rl_scheme_free(s);
  rl_scheme_free(NULL);
  tap_ok(rl_scheme_find("t5") && !rl_scheme_find("T5"), "rl_scheme_find is exact");
  size_t n = 0;
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++, n++)
    tap_ok(i->summary && i->paper && i->code && i->relpos && *i->paper,
           "%s has summary, citation, code and sign convention", i->name);
  tap_ok(n == 12, "12 schemes listed");
}

/* deberta's c2p and p2c straight from eq. (4)-(5) as the HF code has
 * them, (W_q x_i).(W_k P_delta) and (W_k x_j).(W_q P_delta) with delta =
 * clamp(bucket(i - j) + k, 0, 2k - 1), each matrix product done here,
 * against the fast path's transposed form (W_k^T q).P_delta.  Both are
 * sums of d products of O(1) terms reassociated: 16 d eps absolute. */
static void test_deberta_terms(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  c.heads = 3;
  c.position_buckets = 4;
  c.max_relative_positions = 16;
  rl_scheme *s = mk("deberta", &c);
  size_t d = 8, k = 4, h = 2;
  double xq[8], xk[8], q[8], kk[8], KP[8], QP[8];
  fill(xq, d, 12);
  fill(xk, d, 13);
  const double pos[][2] = {{5, 2}, {2, 5}, {0, 0}, {40, 1}, {1, 40}};
  for (size_t t = 0; t < 5; t++) {
    double i = pos[t][0], j = pos[t][1];
    rl_logit_terms lt;
    rl_scheme_logit(s, h, i, j, xq, xk, &lt);
    long b = rl_deberta_bucket((long)(i - j), 4, 16), row = b + (long)k;
    row = row < 0 ? 0 : row > 2 * (long)k - 1 ? 2 * (long)k - 1 : row;
    const double *P = s->tab + (size_t)row * d, *Wq = rl_sch_wq(s, h), *Wk = rl_sch_wk(s, h);
    double c2p = 0, p2c = 0;
    for (size_t r = 0; r < d; r++) {
      q[r] = kk[r] = KP[r] = QP[r] = 0;
      for (size_t m = 0; m < d; m++) {
        q[r] += Wq[r * d + m] * xq[m];
        kk[r] += Wk[r * d + m] * xk[m];
        KP[r] += Wk[r * d + m] * P[m];
        QP[r] += Wq[r * d + m] * P[m];
      }
    }
    for (size_t r = 0; r < d; r++) {
      c2p += q[r] * KP[r];
      p2c += kk[r] * QP[r];
    }
    double sc = 1.0 / sqrt(24.0), tol = 16.0 * (double)d * DBL_EPSILON;
    tap_abs_close(lt.cp, c2p * sc, tol, "deberta c2p (W_q x_i).(W_k P_delta) at (%g, %g)", i, j);
    tap_abs_close(lt.pc, p2c * sc, tol, "deberta p2c (W_k x_j).(W_q P_delta) at (%g, %g)", i, j);
  }
  rl_scheme_free(s);
}

/* Heads are built on first use, each from its own stream: allocating
 * builds none, using head 2 builds head 2 alone, and a head's
 * projections are the same numbers whether or not others were built
 * first (so `--head h` of a large model costs d^2, not H d^2). */
static void test_lazy_heads(void)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  c.heads = 4;
  rl_scheme *a = mk("xl", &c), *b = mk("xl", &c);
  double x[8], y[8];
  fill(x, 8, 14);
  int none = 1;
  for (size_t h = 0; h < 4; h++)
    none &= !a->hd[h].wq && !a->hd[h].m;
  tap_ok(none, "xl H=4: no head's W_q, W_k, W_r drawn at allocation");
  rl_scheme_prepare(a, 2, RL_ROLE_QUERY, 3, x, a->scratch);
  tap_ok(a->hd[2].wq && a->hd[2].m && !a->hd[0].wq && !a->hd[1].wq && !a->hd[3].wq,
         "xl: preparing head 2 builds head 2 alone");
  rl_scheme_prepare(b, 0, RL_ROLE_QUERY, 3, x, b->scratch);
  rl_scheme_prepare(b, 1, RL_ROLE_QUERY, 3, x, b->scratch);
  rl_scheme_prepare(b, 2, RL_ROLE_QUERY, 3, x, b->scratch);
  tap_ok(!memcmp(a->hd[2].wq, b->hd[2].wq, 64 * sizeof(double)) &&
         !memcmp(a->hd[2].wk, b->hd[2].wk, 64 * sizeof(double)) &&
         !memcmp(a->hd[2].m, b->hd[2].m, 64 * sizeof(double)),
         "xl: head 2 is the same built alone or after heads 0, 1");
  tap_ok(memcmp(b->hd[1].wq, b->hd[2].wq, 64 * sizeof(double)) != 0,
         "xl: heads 1 and 2 draw different projections");
  /* one seed, every scheme: the same content logit (nope vs alibi cc) */
  rl_scheme *n = mk("nope", &c), *al = mk("alibi", &c);
  rl_logit_terms tn, ta;
  rl_scheme_logit(n, 3, 1, 2, x, y, &tn);
  rl_scheme_logit(al, 3, 1, 2, x, y, &ta);
  tap_ok(tn.cc == ta.cc, "nope and alibi head 3: one seed, the same cc");
  rl_scheme_free(a);
  rl_scheme_free(b);
  rl_scheme_free(n);
  rl_scheme_free(al);
}

int main(void)
{
  test_deberta_terms();
  test_lazy_heads();
  test_sinusoidal();
  test_sinusoidal_run();
  test_xl();
  test_rope();
  test_rope2d();
  test_learned();
  test_tupe();
  test_deberta_alibi();
  test_bookkeeping();
  test_counts();
  test_errors();
  return tap_done();
}
