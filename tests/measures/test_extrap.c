/* test_extrap.c: the measures past the training length
 * (src/core/measures: entropy, retrieval, shift, unseen, window, extrap)
 * against closed forms, hand counts, and a direct re-computation of the
 * sampled measures from the documented content protocol. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

static void closed_forms(void)
{
  /* uniform: H = ln n; descending and ascending orders exercise the
   * rescaling of the online sums */
  double l[1000];
  for (int k = 0; k < 1000; k++)
    l[k] = 3.25;
  tap_abs_close(rl_entropy_logits(l, 1000), log(1000.0), 4 * DBL_EPSILON * log(1000.0),
                "entropy of 1000 equal logits = ln 1000");
  /* logits 0, ln 3: p = 1/4, 3/4: H = ln 4 - (3/4) ln 3 */
  double two[2] = {0, log(3.0)}, owt[2] = {log(3.0), 0};
  double h = log(4.0) - 0.75 * log(3.0);
  tap_abs_close(rl_entropy_logits(two, 2), h, 8 * DBL_EPSILON, "H(1/4, 3/4), ascending");
  tap_abs_close(rl_entropy_logits(owt, 2), h, 8 * DBL_EPSILON, "H(1/4, 3/4), descending");
  /* retrieval: keys a, b, c; b replaced by a planted x: e^x / (e^a + e^x + e^c);
   * the stream split at b: segments {a}, {c} */
  double a = 0.5, b = 2.0, c = -1.0, x = 1.5;
  rl_softmax_acc sg[2], rest[1];
  rl_softmax_acc_init(&sg[0]);
  rl_softmax_acc_init(&sg[1]);
  rl_softmax_acc_add(&sg[0], a);
  rl_softmax_acc_add(&sg[1], c);
  rl_retrieval_rests(sg, &b, 1, rest);
  double want = exp(x) / (exp(a) + exp(x) + exp(c));
  tap_abs_close(rl_retrieval_prob(rest, x), want, 8 * DBL_EPSILON, "planted x replacing b");
  /* a planted logit 800 above the rest: p = 1 without overflow */
  tap_abs_close(rl_retrieval_prob(rest, 800), 1.0, DBL_EPSILON, "p -> 1, no overflow");
  tap_le(rl_retrieval_prob(rest, -800), 1e-300, "p -> 0, no overflow");
  rl_softmax_acc none;
  rl_softmax_acc_init(&none);
  tap_abs_close(rl_retrieval_prob(&none, -3), 1.0, 0, "the planted key alone: p = 1");
  tap_ok(isnan(rl_retrieval_prob(rest, HUGE_VAL)), "an overflowed planted logit: NaN");
  /* KS and W1: {0, 1, 2} vs {0.5, 1.5, 2.5}: sup |F - G| = 1/3 (at
   * x in [0, 0.5)); integral |F - G| = 6 intervals of width 1/2 at
   * height 1/3 = 1/2 (the shift of every point by 1/2) */
  double p1[3] = {0, 1, 2}, p2[3] = {0.5, 1.5, 2.5};
  tap_abs_close(rl_ks_distance(p1, 3, p2, 3), 1.0 / 3, DBL_EPSILON, "KS of interleaved thirds");
  tap_abs_close(rl_w1_distance(p1, 3, p2, 3), 0.5, 4 * DBL_EPSILON, "W1 = shift 1/2");
  /* uniform grids k/128 and k/128 + 1/2 (exact doubles, so the ties are
   * exact): W1 = 1/2, KS = 64/128 = 1/2 */
  double u[128], v[128];
  for (int k = 0; k < 128; k++)
    u[k] = (k + 1) / 128.0, v[k] = u[k] + 0.5;
  rl_shift sh;
  rl_shift_eval(u, 128, v, 128, &sh);
  tap_abs_close(sh.ks, 0.5, 0, "KS of U and U + 1/2 on a 1/128 grid: 1/2");
  tap_abs_close(sh.w1, 0.5, 64 * DBL_EPSILON, "W1 of U and U + 1/2: 1/2");
  tap_abs_close(sh.mean_past - sh.mean_within, 0.5, 8 * DBL_EPSILON, "means apart by 1/2");
  /* identical samples: 0 and 0 */
  tap_le(rl_ks_distance(u, 128, u, 128) + rl_w1_distance(u, 128, u, 128), 0.0,
         "KS = W1 = 0 for one sample against itself");
  double w4[4] = {4, 1, 3, 2}, w2[2] = {0, 0};
  rl_shift_eval(w4, 4, w2, 2, &sh);
  tap_abs_close(sh.sd_within, sqrt(5.0 / 3), 4 * DBL_EPSILON, "sd of 1..4 = sqrt(5/3)");
  tap_abs_close(sh.ks, 1.0, 0, "disjoint samples: KS = 1");
}

/* Merging the softmaxes of the parts of a stream = the softmax of the
 * whole: 1000 equal logits in parts of 0, 1, 499, 500 keys have
 * H = ln 1000; H(1/4, 3/4) from {ln 3} merged into {0} and the reverse. */
static void merges(void)
{
  rl_softmax_acc p[4], m;
  for (int k = 0; k < 4; k++)
    rl_softmax_acc_init(&p[k]);
  rl_softmax_acc_add(&p[1], 3.25);
  for (int k = 0; k < 499; k++)
    rl_softmax_acc_add(&p[2], 3.25);
  for (int k = 0; k < 500; k++)
    rl_softmax_acc_add(&p[3], 3.25);
  rl_softmax_acc_init(&m);
  for (int k = 0; k < 4; k++)
    rl_softmax_acc_merge(&m, &p[k]);
  rl_softmax_acc_merge(&m, &p[0]);
  tap_abs_close(rl_entropy_acc(&m), log(1000.0), 4 * DBL_EPSILON * log(1000.0),
                "merged parts of 1000 equal logits: H = ln 1000");
  double h = log(4.0) - 0.75 * log(3.0);
  for (int rev = 0; rev < 2; rev++) {
    rl_softmax_acc u, v;
    rl_softmax_acc_init(&u);
    rl_softmax_acc_init(&v);
    rl_softmax_acc_add(&u, rev ? log(3.0) : 0);
    rl_softmax_acc_add(&v, rev ? 0 : log(3.0));
    rl_softmax_acc_merge(&u, &v);
    tap_abs_close(rl_entropy_acc(&u), h, 8 * DBL_EPSILON, "H(1/4, 3/4) merged (%s max first)",
                  rev ? "larger" : "smaller");
  }
}

/* The replaced key dominating every other by D nats.  Stream (9 keys):
 * three 0s, cut 0 of logit D, two 0s, cut 1 of logit 0, two 0s; the
 * planted key x = 2.  Every key but cut 0: eight 0s, so
 * p0 = 1 / (1 + 8 e^-2) whatever D (0.48015005283164173903..., Python
 * decimal, 50 digits); every key but cut 1: seven 0s and D, so
 * p1 = 1 / (1 + 7 e^-2 + e^{D - 2}) (D = 40: 3.1391327920480294368e-17,
 * 200: 1.0225689071173034109e-86, 700: 7.2853703099151608912e-304).
 * Expected values in long double from these closed forms.  The terms of
 * rest are exact (e^0 = 1) or one expl: p within half an ulp of its
 * rounding plus a few 2^-64: 1 DBL_EPSILON relative.  The subtraction
 * this replaced (rest = s - e^{D - M}, retrieval.c) was off in p0 by
 * 3.8e-12 relative at D = 20, 7.9e-4 at 40, 0.38 at 45, gave p0 = 1 at
 * 200 and 700 and NaN past ~1.1e4.
 * Then unequal logits, against a direct long double sum
 * 1 / (1 + sum_{j != cut} e^{l_j - x}) (no running max, no merge); terms
 * exp'd in double (1 ulp each): 2 DBL_EPSILON relative. */
static void dominant(void)
{
  static const double spreads[] = {40, 200, 700};
  for (size_t k = 0; k < sizeof spreads / sizeof *spreads; k++) {
    double D = spreads[k], cut[2] = {D, 0}, x = 2;
    rl_softmax_acc sg[3], rest[2];
    for (int i = 0; i < 3; i++)
      rl_softmax_acc_init(&sg[i]);
    for (int i = 0; i < 3; i++)
      rl_softmax_acc_add(&sg[0], 0);
    for (int i = 0; i < 2; i++)
      rl_softmax_acc_add(&sg[1], 0), rl_softmax_acc_add(&sg[2], 0);
    rl_retrieval_rests(sg, cut, 2, rest);
    long double w0 = 1 / (1 + 8 * expl(-2.0L)), w1 = 1 / (1 + 7 * expl(-2.0L) + expl(D - 2.0L));
    double p0 = rl_retrieval_prob(&rest[0], x), p1 = rl_retrieval_prob(&rest[1], x);
    tap_abs_close(p0, (double)w0, DBL_EPSILON * (double)w0,
                  "replaced key %g nats above the rest: p = 1/(1 + 8 e^-2)", D);
    tap_abs_close(p1, (double)w1, DBL_EPSILON * (double)w1,
                  "that key among the rest: p = 1/(1 + 7 e^-2 + e^(%g - 2))", D);
    /* unequal logits, the two cuts in the middle of the stream */
    double l[9] = {-1.5, 0.25, 3, D, 1, -2, 0.5, 2.5, -0.75};
    size_t at[2] = {3, 6};
    for (int i = 0; i < 3; i++)
      rl_softmax_acc_init(&sg[i]);
    for (size_t j = 0, seg = 0; j < 9; j++) {
      if (seg < 2 && j == at[seg])
        cut[seg++] = l[j];
      else
        rl_softmax_acc_add(&sg[seg], l[j]);
    }
    rl_retrieval_rests(sg, cut, 2, rest);
    for (int cc = 0; cc < 2; cc++) {
      long double z = 0;
      for (size_t j = 0; j < 9; j++)
        if (j != at[cc])
          z += expl((long double)l[j] - x);
      double want = (double)(1 / (1 + z)), got = rl_retrieval_prob(&rest[cc], x);
      tap_abs_close(got, want, 2 * DBL_EPSILON * want,
                    "unequal logits, key %g nats above the rest, cut %d: direct sum", D, cc);
    }
  }
}

static rl_scheme *scheme(const char *name, const char *method, size_t dim, size_t width)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = dim;
  c.rope.dim = dim;
  c.width = width;
  c.rope.method = rl_schedule_type_find(method);
  if (method && strcmp(method, "rope"))
    rl_extrap_method_params(&c.rope, 64, 256);
  c.identity = 1;
  rl_scheme *s = NULL;
  if (rl_scheme_alloc(name, &c, &s, NULL))
    return NULL;
  return s;
}

static double unseen(const char *name, size_t dim, size_t width, size_t L, size_t n,
                     const rl_window *w, double *pp)
{
  rl_scheme *s = scheme(name, "rope", dim, width);
  rl_schedule *tr = NULL;
  double tot = -1;
  if (!s)
    return -1;
  if (rl_unseen_input(s) == RL_INPUT_ANGLE)
    rl_unseen_train_schedule(rl_scheme_get_schedule(s), L, &tr);
  rl_unseen_eval(s, tr, L, n, w, &tot, pp);
  rl_schedule_free(tr);
  rl_scheme_free(s);
  return tot;
}

static void hand_counts(void)
{
  rl_window none = {0, 0}, w84 = {8, 4}, w42 = {4, 2};
  /* L = 8, n = 16: 136 causal pairs; queries 8..15 hold 9 + .. + 16 =
   * 100 pairs; distances 8..15 occur 8 + 7 + .. + 1 = 36 times */
  tap_abs_close(unseen("nope", 8, 32, 8, 16, &none, NULL), 0, 0, "nope: nothing unseen");
  tap_abs_close(unseen("sinusoidal", 8, 32, 8, 16, &none, NULL), 100.0 / 136, 1e-15,
                "absolute: 100/136");
  tap_abs_close(unseen("alibi", 8, 32, 8, 16, &none, NULL), 36.0 / 136, 1e-15,
                "distance: 36/136");
  /* t5 (bidirectional, 32 buckets, max distance 128): distances >= 8
   * leave the exact range, so L = 8 never saw them: 36/136 */
  tap_abs_close(unseen("t5", 8, 32, 8, 16, &none, NULL), 36.0 / 136, 1e-15, "t5, L = 8: 36/136");
  /* L = 20 saw buckets up to 8 + floor(8 ln(19/8)/ln 16) = 10, which
   * reaches m = 22 (8 ln(22/8)/ln 16 = 2.92); m = 23..39 in n = 40 are
   * unseen: 17 + 16 + .. + 1 = 153 of 820 pairs */
  tap_abs_close(unseen("t5", 8, 32, 20, 40, &none, NULL), 153.0 / 820, 1e-15,
                "t5, L = 20, n = 40: 153/820");
  /* rope d = 8, base 10000: theta = 1, 0.1, 0.01, 0.001; pair 0 swept
   * 7 rad > 2 pi in training; pairs 1..3 swept 7 theta < 2 pi and every
   * distance 8..15 turns them past it (m theta < 2 pi): 36/136 each */
  double pp[4];
  tap_abs_close(unseen("rope", 8, 32, 8, 16, &none, pp), 36.0 / 136, 1e-15, "rope: 36/136");
  tap_abs_close(pp[0], 0, 0, "rope pair 0 (wavelength 6.28 < L): 0");
  tap_abs_close(pp[1], 36.0 / 136, 1e-15, "rope pair 1: 36/136");
  tap_abs_close(pp[3], 36.0 / 136, 1e-15, "rope pair 3: 36/136");
  /* rope2d, width 4: L = 8 is rows 0..1; n = 12 adds row 2, whose pairs
   * with row 0 (4 x 4) have the unseen row offset 2: 16 of 78 */
  tap_abs_close(unseen("rope2d", 8, 4, 8, 12, &none, NULL), 16.0 / 78, 1e-15,
                "rope2d offsets: 16/78");
  /* window 8 + 4 sinks, n = 16: A = 12 kept; causal pairs among 12 (78)
   * plus 4 queries x 12 keys (48) = 126; distances 8..11 occur
   * (12 - m) + 4 times: 8 + 7 + 6 + 5 = 26; queries >= 8: 9 + 10 + 11 +
   * 12 + 48 = 90 */
  tap_abs_close(unseen("alibi", 8, 32, 8, 16, &w84, NULL), 26.0 / 126, 1e-15,
                "window 8+4: distance 26/126");
  tap_abs_close(unseen("sinusoidal", 8, 32, 8, 16, &w84, NULL), 90.0 / 126, 1e-15,
                "window 8+4: absolute 90/126");
  tap_abs_close(unseen("rope", 8, 32, 8, 16, &w42, NULL), 0, 0, "window 4+2 <= L: nothing unseen");
  /* slots: n = 10, window 4, 2 sinks: A = 6; r = 0..3 keep distance
   * (slots 5..2), r = 9, 8 are the sinks 0, 1, r = 4..7 evicted */
  tap_ok(rl_window_slot(&w42, 10, 0) == 5 && rl_window_slot(&w42, 10, 3) == 2 &&
             rl_window_slot(&w42, 10, 9) == 0 && rl_window_slot(&w42, 10, 8) == 1 &&
             rl_window_slot(&w42, 10, 5) == -1 && rl_window_slot(&w42, 10, 10) == -1,
         "window slots by hand");
}

/* The sampled measures recomputed directly: the content protocol of
 * rl_extrap_run (sub-seeds from a master mt19937, query then key slots
 * from ziggurat normals), logits from rl_scheme_logit, softmax in long
 * double.  Means over samples agree to 1e-12 relative (sums of a few
 * terms, logits computed in another order: BLAS against rl_sch_dot).
 * params: a table file (deberta: 2 rows, no log buckets), or NULL.
 * The reference shifts the retrieval sum by the largest of its own
 * logits (the planted one included), so that spreads of any size stay
 * finite in it. */
static void direct_params(const char *name, const char *method, const rl_window *win,
                          const char *params)
{
  enum { d = 8, S = 3, NL = 2, ND = 3 };
  size_t lens[NL] = {5, 9}, dists[ND] = {0, 2, 6};
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = d;
  c.rope.dim = d;
  c.rope.method = rl_schedule_type_find(method);
  rl_extrap_method_params(&c.rope, 4, 9);
  c.identity = 1;
  c.max_len = 4;
  c.past = RL_PAST_CLAMP;
  c.param_file = params;
  if (params && !strcmp(name, "deberta"))
    c.position_buckets = 0, c.max_relative_positions = 1;
  rl_extrap_params p;
  rl_extrap_params_default(&p);
  p.train_len = 4;
  p.lens = lens, p.nlens = NL, p.dists = dists, p.ndists = ND;
  p.samples = S;
  p.seed = 7;
  p.threads = 2;
  p.win = *win;
  p.draw_contents = 1; /* the content protocol recomputed below */
  rl_extrap_result res;
  rl_extrap_result_alloc(&p, &res);
  rl_status st = rl_extrap_run(name, &c, &p, &res, NULL, NULL, NULL);
  tap_ok(!st, "%s/%s: runs (%s)", name, method, rl_strerror(st));
  int per_len = rl_extrap_per_length(name, &c);
  rl_scheme *s = NULL;
  gsl_rng *m = gsl_rng_alloc(gsl_rng_mt19937), *g = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(m, 7);
  double ent[NL][S], ret[NL][ND][S];
  for (int smp = 0; smp < S; smp++) {
    unsigned long sub = gsl_rng_get(m);
    gsl_rng_set(g, sub ? sub : 1);
    double x[d], y[9][d];
    for (int k = 0; k < d; k++)
      x[k] = gsl_ran_gaussian_ziggurat(g, 1.0);
    for (int j = 0; j < 9; j++)
      for (int k = 0; k < d; k++)
        y[j][k] = gsl_ran_gaussian_ziggurat(g, 1.0);
    for (int l = 0; l < NL; l++) {
      size_t A = rl_window_keys(win, lens[l]);
      double lg[9];
      rl_scheme_cfg cl = c; /* dynamic, log-n: the schedule at the current length */
      if (per_len)
        cl.rope.seq_len = (double)lens[l], cl.rope.set |= RL_SP_SEQ_LEN;
      rl_scheme_free(s);
      rl_scheme_alloc(name, &cl, &s, NULL);
      rl_logit_terms t;
      for (size_t j = 0; j < A; j++) {
        rl_scheme_logit(s, 0, (double)(A - 1), (double)j, x, y[j], &t);
        lg[j] = t.total;
      }
      long double z = 0, mx = -1e300, hs = 0;
      for (size_t j = 0; j < A; j++)
        mx = fmaxl(mx, lg[j]);
      for (size_t j = 0; j < A; j++)
        z += expl(lg[j] - mx);
      for (size_t j = 0; j < A; j++) {
        long double pj = expl(lg[j] - mx) / z;
        if (pj > 0) /* p ln p -> 0 */
          hs -= pj * logl(pj);
      }
      ent[l][smp] = (double)hs;
      for (int r = 0; r < ND; r++) {
        long slot = rl_window_slot(win, lens[l], dists[r]);
        if (slot < 0) {
          ret[l][r][smp] = 0;
          continue;
        }
        rl_scheme_logit(s, 0, (double)(A - 1), (double)slot, x, x, &t);
        long double zr = 0, mr = t.total;
        for (size_t j = 0; j < A; j++)
          if (j != (size_t)slot)
            mr = fmaxl(mr, lg[j]);
        for (size_t j = 0; j < A; j++)
          zr += expl((long double)(j == (size_t)slot ? t.total : lg[j]) - mr);
        ret[l][r][smp] = (double)(expl(t.total - mr) / zr);
      }
    }
  }
  double worst = 0;
  for (int l = 0; l < NL; l++) {
    double me = (ent[l][0] + ent[l][1] + ent[l][2]) / 3;
    worst = fmax(worst, fabs(res.ent_mean[l] - me) / fmax(me, 1e-300));
    for (int r = 0; r < ND; r++) {
      if (dists[r] >= lens[l]) {
        tap_ok(!res.ret_ok[l * ND + r], "%s: r = %zu >= n = %zu has no value", name, dists[r],
               lens[l]);
        continue;
      }
      double mr = (ret[l][r][0] + ret[l][r][1] + ret[l][r][2]) / 3;
      worst = fmax(worst, fabs(res.ret_mean[l * ND + r] - mr) / fmax(mr, 1e-300));
    }
  }
  tap_le(worst, 1e-12, "%s/%s (window %zu+%zu%s): retrieval and entropy = direct computation",
         name, method, win->window, win->sinks, params ? ", a table" : "");
  rl_scheme_free(s);
  gsl_rng_free(m);
  gsl_rng_free(g);
  rl_extrap_result_free(&res);
}

static void direct(const char *name, const char *method, const rl_window *win)
{
  direct_params(name, method, win, NULL);
}

/* A deberta table of 2 rows of d = 8 entries +-v (signs as
 * tests/cli/cases/params_limit_kinds.sh): its content-to-position terms
 * are ~v |x| / sqrt(d), so v sets the spread of the logits, and the
 * random key at a planted slot may dominate the rest.  The subtraction
 * retrieval.c replaced was off by 3.8e-11 relative at v = 100, by 1
 * (every digit) at 300, and gave NaN (an overflow error) at 1e100. */
static void direct_deberta(double v)
{
  char dir[] = "/tmp/rl_test_extrap_XXXXXX", path[64];
  if (!mkdtemp(dir)) {
    tap_ok(0, "mkdtemp");
    return;
  }
  snprintf(path, sizeof path, "%s/deberta.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    tap_ok(0, "writes %s", path);
    return;
  }
  fprintf(f, "bucket,v0,v1,v2,v3,v4,v5,v6,v7\n");
  fprintf(f, "0,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", v, -v, -v, v, v, -v, v, -v);
  fprintf(f, "1,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", -v, v, v, v, -v, -v, v, v);
  fclose(f);
  rl_window none = {0, 0};
  direct_params("deberta", "rope", &none, path);
  remove(path);
  rmdir(dir);
}

/* The logits drawn from their Gaussian law (the default where the logit
 * is affine in the key's content) against drawing every key's content
 * (draw_contents): the same expectations, so each mean of one run lies
 * within 4.5 combined standard errors of the other's (the two share each
 * sample's query, which correlates them positively and only makes the
 * difference smaller; 4.5 sigma over the ~15 values a scheme is tested on
 * fails by chance with probability ~1e-4).  Where the positional logit
 * total - cc does not depend on the content (nope, t5, alibi, tupe), the
 * shift's means and sds are the same numbers both ways (1e-9 relative:
 * sums of 2^20 logits in another order). */
/* |diff| in standard errors; a zero spread asks for equal values */
static double in_se(double diff, double se)
{
  return diff == 0 ? 0 : fabs(diff) / se;
}

static void law_vs_contents_m(const char *name, const char *method, size_t rot,
                              const rl_window *win)
{
  enum { NL = 3, ND = 4 };
  size_t lens[NL] = {24, 64, 200}, dists[ND] = {0, 3, 40, 150};
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.identity = 1;
  c.max_len = 64;
  c.past = RL_PAST_CLAMP;
  c.rope.dim = 16;
  c.rope.rot = rot;
  c.rope.method = rl_schedule_type_find(method);
  rl_extrap_method_params(&c.rope, 32, 200);
  rl_extrap_params p;
  rl_extrap_params_default(&p);
  p.train_len = 32;
  p.lens = lens, p.nlens = NL, p.dists = dists, p.ndists = ND;
  p.samples = 1000;
  p.seed = 11;
  p.threads = 2;
  p.win = *win;
  rl_extrap_result a, b;
  rl_extrap_result_alloc(&p, &a);
  rl_extrap_result_alloc(&p, &b);
  rl_status s1 = rl_extrap_run(name, &c, &p, &a, NULL, NULL, NULL);
  p.draw_contents = 1;
  rl_status s2 = rl_extrap_run(name, &c, &p, &b, NULL, NULL, NULL);
  tap_ok(!s1 && !s2, "%s: both paths run", name);
  double worst = 0; /* in combined standard errors */
  size_t n = 0;
  for (size_t l = 0; l < NL; l++) {
    double se = hypot(a.ent_se[l], b.ent_se[l]);
    worst = fmax(worst, fabs(a.ent_mean[l] - b.ent_mean[l]) / se), n++;
    for (size_t r = 0; r < ND; r++) {
      size_t i = l * ND + r;
      if (!a.ret_ok[i])
        continue;
      se = hypot(a.ret_se[i], b.ret_se[i]);
      worst = fmax(worst, fabs(a.ret_mean[i] - b.ret_mean[i]) / se), n++;
    }
  }
  tap_le(worst, 4.5, "%s/%s rot %zu (window %zu+%zu): law = contents within 4.5 se over %zu "
         "means (entropy, retrieval)", name, method, rot, win->window, win->sinks, n);
  /* the shift's positional logits (total - cc): their means and sds pool
   * S samples' distances; a sample's values share its query, so the S
   * per-sample means are the independent draws and sd / sqrt(S) bounds
   * the standard error of either pooled figure; two runs: sqrt(2) that */
  {
    const rl_shift *x = &a.shift[0], *y = &b.shift[0];
    double sw = fmax(x->sd_within, y->sd_within), sp = fmax(x->sd_past, y->sd_past);
    double se_w = sqrt(2.0 / (double)p.samples) * sw, se_p = sqrt(2.0 / (double)p.samples) * sp;
    double e = fmax(fmax(in_se(x->mean_within - y->mean_within, se_w),
                         in_se(x->mean_past - y->mean_past, se_p)),
                    fmax(in_se(x->sd_within - y->sd_within, se_w),
                         in_se(x->sd_past - y->sd_past, se_p)));
    if (a.shift_ok[0] != b.shift_ok[0])
      e = HUGE_VAL;
    tap_le(a.shift_ok[0] ? e : 0, 4.5, "%s/%s rot %zu: shift's means and sds, law = contents within 4.5 se", name,
           method, rot);
  }
  if (!strcmp(name, "nope") || !strcmp(name, "t5") || !strcmp(name, "alibi") ||
      !strcmp(name, "tupe")) {
    const rl_shift *x = &a.shift[0], *y = &b.shift[0];
    double e = fmax(fmax(fabs(x->mean_within - y->mean_within), fabs(x->mean_past - y->mean_past)),
                    fmax(fabs(x->sd_within - y->sd_within), fabs(x->sd_past - y->sd_past)));
    double mag = fabs(y->mean_within) + fabs(y->mean_past) + y->sd_within + y->sd_past + 1e-300;
    tap_le(e / mag, 1e-9, "%s: shift's means and sds (content-free) the same both ways", name);
  }
  rl_extrap_result_free(&a);
  rl_extrap_result_free(&b);
}

static void law_vs_contents(const char *name, const rl_window *win)
{
  law_vs_contents_m(name, "rope", 0, win);
}

/* A length's numbers do not depend on the other lengths (issue: rope's
 * entropy at n = 20 was 2.595, 2.612 or 2.573 nats with the list): n = 20
 * run alone and inside {5, 20, 40} and {20, 40}, on 1 and 3 threads,
 * gives the same doubles (memcmp) for its entropy and retrieval, on both
 * contents paths; the shift at N = 40 the same in both lists holding 40. */
static void alone_in_lists_m(const char *name, const char *method, int draw)
{
  enum { ND = 2 };
  size_t l1[] = {20}, l2[] = {5, 20, 40}, l3[] = {20, 40}, dists[ND] = {0, 4};
  const size_t *ls[3] = {l1, l2, l3};
  size_t nls[3] = {1, 3, 2}, at[3] = {0, 1, 0};
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.identity = 1;
  c.rope.dim = 16;
  c.rope.method = rl_schedule_type_find(method);
  if (c.rope.method->uses & RL_SP_FACTOR) /* not N / L: the same schedule in every list */
    rl_schedule_set(&c.rope, "factor", 2);
  rl_extrap_method_params(&c.rope, 10, 40);
  double ent[3], ret[3][ND], shift[2][4];
  int ok = 1;
  for (int k = 0; k < 3; k++) {
    rl_extrap_params p;
    rl_extrap_params_default(&p);
    p.train_len = 10;
    p.lens = ls[k], p.nlens = nls[k], p.dists = dists, p.ndists = ND;
    p.samples = 7;
    p.seed = 5;
    p.threads = k == 1 ? 3 : 1;
    p.draw_contents = draw;
    rl_extrap_result r;
    rl_extrap_result_alloc(&p, &r);
    ok &= rl_extrap_run(name, &c, &p, &r, NULL, NULL, NULL) == RL_OK;
    ent[k] = r.ent_mean[at[k]];
    for (int j = 0; j < ND; j++)
      ret[k][j] = r.ret_mean[at[k] * ND + j];
    if (k > 0) {
      const rl_shift *h = &r.shift[0];
      double v[4] = {h->mean_within, h->sd_within, h->ks, h->w1};
      memcpy(shift[k - 1], v, sizeof v);
    }
    rl_extrap_result_free(&r);
  }
  tap_ok(ok && !memcmp(&ent[0], &ent[1], sizeof ent[0]) && !memcmp(&ent[0], &ent[2], sizeof ent[0]) &&
             !memcmp(ret[0], ret[1], sizeof ret[0]) && !memcmp(ret[0], ret[2], sizeof ret[0]) &&
             !memcmp(shift[0], shift[1], sizeof shift[0]),
         "%s/%s (%s): n = 20 alone and in {5, 20, 40}, {20, 40}: the same doubles (entropy %.17g, "
         "%.17g, %.17g)", name, method, draw ? "contents" : "law", ent[0], ent[1], ent[2]);
}

static void alone_in_lists(void)
{
  const char *names[] = {"rope", "sinusoidal", "learned", "t5", "binary"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    for (int draw = 0; draw < 2; draw++)
      alone_in_lists_m(names[k], "rope", draw);
  alone_in_lists_m("rope", "yarn", 0);
  alone_in_lists_m("rope", "log-n", 0); /* one stream per length */
  alone_in_lists_m("rope2d", "rope", 0);
}

/* rl_extrap_length_params: seq-len defaults to max(n, the schedule's
 * L), the user's --train-len where given (it was the L argument: a
 * review, 2026-12-06); by hand: L = 9, n = 20, a given 100 -> 100 */
static void length_rule(void)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find("dynamic");
  rl_schedule_set(&p, "train-len", 100);
  rl_extrap_length_params(&p, 9, 40, 20);
  tap_ok(p.train_len == 100 && p.seq_len == 100, "dynamic, --train-len 100 given, L 9, n 20: "
         "train_len %g (100), seq_len %g (100)", p.train_len, p.seq_len);
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find("dynamic");
  rl_extrap_length_params(&p, 9, 40, 20);
  tap_ok(p.train_len == 9 && p.seq_len == 20, "dynamic, L 9, n 20: train_len %g (9), seq_len %g "
         "(20)", p.train_len, p.seq_len);
}

int main(void)
{
  length_rule();
  alone_in_lists();
  rl_window none = {0, 0}, w = {3, 1};
  closed_forms();
  merges();
  dominant();
  hand_counts();
  direct("rope", "rope", &none);    /* table + BLAS path */
  direct("rope", "yarn", &none);    /* attention factor through the table */
  direct("rope", "log-n", &none);   /* per-length schemes, query scale */
  direct("rope", "xpos", &none);    /* generic path */
  direct("alibi", "rope", &none);
  direct("alibi", "rope", &w);      /* cache positions */
  direct("sinusoidal", "rope", &none);
  direct("learned", "rope", &none); /* clamped past its 4 rows */
  direct("t5", "rope", &w);
  direct_deberta(100);
  direct_deberta(300);
  direct_deberta(1e100);
  const char *lin[] = {"nope", "t5", "alibi", "tupe", "xl", "sinusoidal", "learned", "integer",
                       "binary"};
  for (size_t k = 0; k < sizeof lin / sizeof lin[0]; k++)
    law_vs_contents(lin[k], &none);
  law_vs_contents("t5", &w);
  law_vs_contents("sinusoidal", &w);
  law_vs_contents("rope", &none);            /* rotation: the fixed covariance */
  law_vs_contents("rope", &w);
  law_vs_contents_m("rope", "yarn", 0, &none); /* attention factor != 1 */
  law_vs_contents_m("rope", "log-n", 0, &none); /* a query scale per length */
  law_vs_contents_m("rope", "rope", 8, &none);  /* half the dimensions pass through */
  law_vs_contents_m("rope", "yarn", 8, &none);
  return tap_done();
}
