/* test_attn.c: the measures of a trained model on task inputs
 * (ropelab/train.h: rl_train_attention, rl_train_pair_norms,
 * rl_train_logit_dist) on models
 * whose query and key weights are set by hand, against values worked
 * independently of the model's code:
 *   - every query and key weight and bias 0 (nope and rope): every logit
 *     0, attention uniform, so the entropy of query t is ln(t + 1) and
 *     the mean over the T positions is ln(T!) / T; the weight at
 *     distance r is the mean of 1/(t + 1) over t = r..T-1; the examples
 *     all give the same values, so the standard errors are 0 exactly;
 *   - rope, layer 0 head 0 with q = (5, 0, 0, 0) and k = (1, 0, 0, 0)
 *     at every position (the biases alone): dimension 0 is in rotation
 *     pair 0 in either layout, whose frequency is base^0 = 1, so the
 *     logit of query t on key t - d is 5 cos(d) / sqrt(hd) = 2.5 cos(d)
 *     (a rotation by t, one by t - d: their dot product depends on d
 *     only); softmax, entropy and the weights by distance computed here
 *     from that closed form; pair norms 5 and 1 on pair 0 of head 0,
 *     0 elsewhere (Barbero et al. 2024's measure, worked by hand); the
 *     logit by distance 2.5 cos(d), 2.5 without the rotation, 0 in the
 *     other heads, standard errors 0.
 * The parameters are placed by the layout src/core/train/checkpoint.md
 * documents (token embedding, then ln1 weight and bias, then the qkv
 * weight L x 3D x D and bias L x 3D), not through the model's code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

enum { D = 8, H = 2, HD = D / H, L = 2, B = 4, N = 6 };

static rl_task copy = {RL_TASK_COPY, 10};

static rl_train_model *model(rl_train_pos pos, size_t T)
{
  rl_train_cfg cfg;
  rl_train_cfg_default(&cfg);
  cfg.vocab = rl_task_vocab(&copy), cfg.d_model = D, cfg.heads = H, cfg.layers = L;
  cfg.batch = B, cfg.max_T = T, cfg.pos = pos, cfg.seed = 7;
  cfg.dtype = RL_TDTYPE_FLOAT64; /* the exact expectations (train's default is float32) */
  rl_train_model *m;
  char err[RL_ERR_MAX] = "";
  if (rl_train_new(&cfg, &m, err)) {
    printf("# cannot build the model: %s\n", err);
    exit(1);
  }
  if (pos == rl_train_pos_find("rope")) {
    rl_schedule *f = NULL;
    if (rl_schedule_rope(HD, HD, 10000, &f) || rl_train_set_rope(m, f, err)) {
      printf("# cannot set the rope table: %s\n", err);
      exit(1);
    }
    rl_schedule_free(f);
  }
  return m;
}

/* every query and key weight and bias of every layer 0 (the rows 0..2D-1
 * of each layer's qkv weight, entries 0..2D-1 of its bias) */
static double *zero_qk(rl_train_model *m)
{
  size_t V = rl_task_vocab(&copy);
  double *p = rl_train_params(m);
  double *w = p + V * D + 2 * L * D, *b = w + L * 3 * D * D;
  for (size_t l = 0; l < L; l++) {
    memset(w + l * 3 * D * D, 0, 2 * D * D * sizeof *w);
    memset(b + l * 3 * D, 0, 2 * D * sizeof *b);
  }
  return b;
}

static double rel(double got, double want)
{
  return fabs(got - want) / (fabs(want) > 1e-300 ? fabs(want) : 1.0);
}

struct got {
  rl_train_attn a;
  double ent[L * H], ent_se[L * H], *dist, *dist_se;
};

static rl_status measure(rl_train_model *m, struct got *g, size_t samples)
{
  size_t T = rl_task_len(&copy, N);
  g->dist = calloc(L * H * T, sizeof *g->dist), g->dist_se = calloc(L * H * T, sizeof *g->dist);
  g->a = (rl_train_attn){0, 0, 0, 0, g->ent, g->ent_se, g->dist, g->dist_se};
  char err[RL_ERR_MAX];
  return rl_train_attention(m, &copy, N, samples, 0x5eed, &g->a, err);
}

/* uniform attention on every layer and head */
static void uniform(rl_train_pos pos, const char *name)
{
  size_t T = rl_task_len(&copy, N);
  rl_train_model *m = model(pos, T);
  zero_qk(m);
  struct got g;
  tap_ok(measure(m, &g, 9) == RL_OK && g.a.T == T && g.a.samples == 9,
         "%s, zero q and k: 9 examples of copy at n = %d, T = %zu positions", name, N, T);
  double lnf = lgamma((double)T + 1) / (double)T, worst = 0, se = 0;
  for (size_t i = 0; i < L * H; i++) {
    worst = fmax(worst, rel(g.ent[i], lnf));
    se = fmax(se, g.ent_se[i]);
    for (size_t r = 0; r < T; r++) {
      double want = 0;
      for (size_t t = r; t < T; t++)
        want += 1.0 / (double)(t + 1) / (double)(T - r);
      worst = fmax(worst, rel(g.dist[i * T + r], want));
      se = fmax(se, g.dist_se[i * T + r]);
    }
  }
  /* lgamma and the sums here against the model's sum of -a ln a: a few
   * ulps each over T = 13 terms */
  tap_report(worst <= 1e-14, worst, 1e-14,
             "%s, zero q and k: entropy ln(T!)/T = %.17g and weight by distance mean of "
             "1/(t+1), every layer and head (largest relative error)", name, lnf);
  tap_report(rel(g.a.ent_max, lnf) <= 1e-14, rel(g.a.ent_max, lnf), 1e-14,
             "%s: ent_max = ln(T!)/T", name);
  tap_ok(se == 0, "%s: the examples all give the same attention: standard errors 0 (%g)", name,
         se);
  free(g.dist), free(g.dist_se);
  rl_train_free(m);
}

/* one head's attention set by hand through the biases */
static void one_head(void)
{
  size_t T = rl_task_len(&copy, N);
  rl_train_model *m = model(rl_train_pos_find("rope"), T);
  double *b = zero_qk(m);
  b[0] = 5, b[D] = 1; /* layer 0: query dim 0 of head 0, key dim 0 of head 0 */
  struct got g;
  tap_ok(measure(m, &g, 5) == RL_OK, "rope, head 0 of layer 0 set by hand: measured");
  /* the closed form: query t's weights over d = 0..t are softmax(2.5 cos d) */
  double ent = 0, *dist = calloc(T, sizeof *dist);
  for (size_t t = 0; t < T; t++) {
    double z = 0, h = 0;
    for (size_t d = 0; d <= t; d++)
      z += exp(2.5 * cos((double)d));
    for (size_t d = 0; d <= t; d++) {
      double a = exp(2.5 * cos((double)d)) / z;
      h -= a * log(a);
      dist[d] += a / (double)(T - d);
    }
    ent += h / (double)T;
  }
  double worst = rel(g.ent[0], ent);
  for (size_t r = 0; r < T; r++)
    worst = fmax(worst, rel(g.dist[r], dist[r]));
  /* exp and cos of the model (its table of cos/sin by exact angles)
   * against libm's: a few ulps per logit, amplified by 2.5 and the sums */
  tap_report(worst <= 1e-12, worst, 1e-12,
             "rope layer 0 head 0: entropy %.17g (uniform %.17g) and weights by distance from "
             "softmax(2.5 cos d)", ent, g.a.ent_max);
  tap_ok(g.dist[0] > g.dist[3] && g.dist[6] > g.dist[3],
         "rope layer 0 head 0: more weight at distances 0 and 6 (cos near 1) than at 3 (cos -1)");
  tap_report(rel(g.ent[1], g.a.ent_max) <= 1e-14, rel(g.ent[1], g.a.ent_max), 1e-14,
             "rope layer 0 head 1 (zero): uniform");
  free(dist), free(g.dist), free(g.dist_se);

  /* pair norms: before the rotation, per layer, head and pair */
  size_t np = HD / 2;
  double q[L * H * (HD / 2)], k[L * H * (HD / 2)];
  char err[RL_ERR_MAX];
  tap_ok(rl_train_pair_norms(m, &copy, N, 5, 0x5eed, q, k, err) == RL_OK, "pair norms measured");
  int ok = 1;
  for (size_t i = 0; i < L * H * np; i++)
    ok &= q[i] == (i == 0 ? 5.0 : 0.0) && k[i] == (i == 0 ? 1.0 : 0.0);
  tap_ok(ok, "pair norms: q 5 and k 1 on layer 0 head 0 pair 0 (frequency 1), 0 on every other "
             "(q[0] = %.17g, k[0] = %.17g)", q[0], k[0]);

  /* the logit by distance: 2.5 cos(d) for every query, so its mean over
   * the queries too; 5 x 1 / sqrt(4) = 2.5 with the rotation removed;
   * 0 in every other head and layer; the examples all the same: se 0 */
  size_t LHT = L * H * T;
  double *lg = calloc(4 * LHT, sizeof *lg);
  rl_train_logit lo = {0, 0, 0, lg, lg + LHT, lg + 2 * LHT, lg + 3 * LHT};
  tap_ok(rl_train_logit_dist(m, &copy, N, 5, 0x5eed, &lo, err) == RL_OK && lo.T == T &&
             lo.samples == 5, "logit by distance measured");
  double wl = 0;
  int zero = 1, se0 = 1;
  for (size_t r = 0; r < T; r++)
    wl = fmax(wl, fmax(fabs(lg[r] - 2.5 * cos((double)r)), fabs(lg[2 * LHT + r] - 2.5)));
  for (size_t i = T; i < LHT; i++)
    zero &= lg[i] == 0 && lg[2 * LHT + i] == 0;
  for (size_t i = 0; i < LHT; i++)
    se0 &= lg[LHT + i] == 0 && lg[3 * LHT + i] == 0;
  /* the model's rotated dot 5 (cos t cos(t - d) + sin t sin(t - d)) / 2
   * from its cos/sin table against libm's cos d: a few ulps of 2.5 each,
   * summed over at most T = 13 queries: 13 x 4 x 2.5 x 2^-52 < 3e-14 */
  tap_report(wl <= 3e-14, wl, 3e-14,
             "rope layer 0 head 0: logit 2.5 cos d and without the rotation 2.5 at every distance "
             "(largest absolute error)");
  tap_ok(zero, "logit 0 in every other head and layer, with and without the rotation");
  tap_ok(se0, "the examples all give the same logits: standard errors 0");
  free(lg);
  rl_train_free(m);
}

int main(void)
{
  uniform(rl_train_pos_find("nope"), "nope");
  uniform(rl_train_pos_find("rope"), "rope");
  one_head();
  /* a length the model has no room for */
  rl_train_model *m = model(rl_train_pos_find("nope"), rl_task_len(&copy, N));
  struct got g;
  size_t T = rl_task_len(&copy, N);
  g.dist = calloc(L * H * (T + 2), sizeof *g.dist), g.dist_se = calloc(L * H * (T + 2), 8);
  g.a = (rl_train_attn){0, 0, 0, 0, g.ent, g.ent_se, g.dist, g.dist_se};
  char err[RL_ERR_MAX] = "";
  tap_ok(rl_train_attention(m, &copy, N + 1, 2, 1, &g.a, err) == RL_EINVAL && err[0],
         "length %d past the model's %zu positions: refused (%s)", N + 1, T, err);
  /* the message names the longest it takes: copy reads 1 + 2n positions,
   * so 13 hold n = 6 at most (by hand) */
  tap_ok(!strcmp(err, "invalid length '7' for copy: expected 1 to 6 (the task's distinct keys "
                      "and the model's 13 positions)"),
         "the refusal names the longest length the model takes: '%s'", err);
  free(g.dist), free(g.dist_se);
  rl_train_free(m);
  return tap_done();
}
