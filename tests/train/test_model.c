/* test_model.c: the whole decoder (ropelab/train.h) per positional
 * scheme: the gradient of the mean loss against central finite
 * differences over every parameter (tolerance: fd.h), plus AdamW's
 * first step, the learning-rate schedule, the tasks and determinism,
 * each against a hand-worked value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "fd.h"
#include "tap.h"

enum { V = 6, D = 8, H = 2, L = 2, B = 2, T = 8 };

struct ctx { rl_train_model *m; int inp[B * T], tgt[B * T]; };

static double loss_f(void *c)
{
  struct ctx *s = c;
  return rl_train_forward(s->m, s->inp, s->tgt, B, T);
}

/* threads and micro-batches of the models tiny() builds */
static size_t g_threads = 1, g_chunks = 4;

static rl_train_model *tiny(rl_train_pos pos, uint64_t seed)
{
  rl_train_cfg cfg;
  rl_train_cfg_default(&cfg);
  cfg.threads = g_threads, cfg.chunks = g_chunks;
  cfg.dtype = RL_TDTYPE_FLOAT64; /* the gradient checks' dtype (train's default is float32) */
  cfg.vocab = V, cfg.d_model = D, cfg.heads = H, cfg.layers = L, cfg.batch = B, cfg.max_T = T;
  cfg.pos = pos, cfg.num_buckets = 6, cfg.max_distance = 7, cfg.seed = seed;
  rl_train_model *m;
  char err[RL_ERR_MAX] = "";
  if (rl_train_new(&cfg, &m, err)) {
    printf("# cannot build the model: %s\n", err);
    exit(1);
  }
  return m;
}

static rl_schedule *sched(const char *method, size_t rot, int half)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.dim = D / H, p.rot = rot, p.base = 100;
  p.layout = half ? RL_LAYOUT_HALF : RL_LAYOUT_INTERLEAVED;
  p.method = rl_schedule_type_find(method);
  if (strcmp(method, "rope")) {
    p.factor = 2, p.train_len = 4;
    rl_schedule_param_mark(&p, rl_schedule_param_find("factor"));
    rl_schedule_param_mark(&p, rl_schedule_param_find("train-len"));
  }
  rl_schedule *f;
  char err[RL_ERR_MAX] = "";
  if (!p.method || rl_schedule_new(&p, &f, err)) {
    printf("# cannot build %s: %s\n", method, err);
    exit(1);
  }
  return f;
}

/* Every parameter: O(1) random values (the N(0, 0.02^2) initialisation
 * would leave most of the gradient below differencing's noise). */
static void check_scheme(rl_train_pos pos, const char *method, size_t rot, int half)
{
  rl_train_model *m = tiny(pos, 7);
  rl_schedule *f = NULL;
  if (pos == rl_train_pos_find("rope")) {
    f = sched(method, rot, half);
    char err[RL_ERR_MAX];
    if (rl_train_set_rope(m, f, err)) {
      printf("# %s\n", err);
      exit(1);
    }
  }
  rl_train_rng r;
  rl_train_rng_seed(&r, 99);
  double *p = rl_train_params(m);
  size_t n = rl_train_nparams(m);
  for (size_t i = 0; i < n; i++)
    p[i] = 0.5 * rl_train_rng_normal(&r);
  struct ctx s = {m, {0}, {0}};
  for (size_t i = 0; i < B * T; i++) {
    s.inp[i] = (int)rl_train_rng_below(&r, V);
    s.tgt[i] = i % 4 == 1 ? -1 : (int)rl_train_rng_below(&r, V);
  }
  for (size_t t = 5; t < T; t++) /* the second row ends early: chunks of two lengths */
    s.tgt[T + t] = -1;
  rl_train_zero_grad(m);
  loss_f(&s);
  rl_train_backward(m);
  double *g = malloc(n * sizeof *g);
  memcpy(g, rl_train_grads(m), n * sizeof *g);
  const char *name = rl_train_pos_names()[pos];
  if (pos == rl_train_pos_find("rope"))
    tap_le(fd_rel_err(loss_f, &s, p, n, g), FD_TOL,
           "model %s %s rot=%zu %s, %zu threads: d loss/d params (%zu)", name, method, rot,
           half ? "half" : "interleaved", g_threads, n);
  else
    tap_le(fd_rel_err(loss_f, &s, p, n, g), FD_TOL, "model %s, %zu threads: d loss/d params (%zu)",
           name, g_threads, n);
  /* backward accumulates: a second pass adds the same gradient.  Each
   * entry is a sum of a few contributions (tied embedding, residual
   * paths, batch rows), regrouped by the second pass: a few ulps of the
   * largest entry, not bit-equal */
  loss_f(&s);
  rl_train_backward(m);
  double worst = 0, gmax = 0;
  for (size_t i = 0; i < n; i++) {
    worst = fmax(worst, fabs(rl_train_grads(m)[i] - 2 * g[i]));
    gmax = fmax(gmax, fabs(g[i]));
  }
  tap_le(worst / gmax, 16 * DBL_EPSILON, "model %s: backward accumulates (2 passes = 2 g)", name);
  free(g);
  rl_schedule_free(f);
  rl_train_free(m);
}

/* Two threads and one micro-batch per row against one thread and one
 * micro-batch: the same loss and gradient up to the regrouping of the
 * sums over rows (the one-thread gradient is the one checked against
 * finite differences above): a few ulps of the largest entry. */
static void check_threads(rl_train_pos pos)
{
  double loss[2], *g[2];
  size_t n = 0;
  rl_schedule *f = pos == rl_train_pos_find("rope") ? sched("rope", D / H, 0) : NULL;
  for (int k = 0; k < 2; k++) {
    g_threads = k ? 2 : 1, g_chunks = k ? 2 : 1;
    rl_train_model *m = tiny(pos, 5);
    char err[RL_ERR_MAX];
    if (f && rl_train_set_rope(m, f, err))
      exit(1);
    rl_train_rng r;
    rl_train_rng_seed(&r, 21);
    n = rl_train_nparams(m);
    double *p = rl_train_params(m);
    for (size_t i = 0; i < n; i++)
      p[i] = 0.5 * rl_train_rng_normal(&r);
    int inp[B * T], tgt[B * T];
    for (size_t i = 0; i < B * T; i++) {
      inp[i] = (int)rl_train_rng_below(&r, V);
      tgt[i] = i % 3 ? (int)rl_train_rng_below(&r, V) : -1;
    }
    for (size_t t = 3; t < T; t++)
      tgt[t] = -1; /* the first row uses 3 positions, the second 8 */
    rl_train_zero_grad(m);
    loss[k] = rl_train_forward(m, inp, tgt, B, T);
    rl_train_backward(m);
    g[k] = malloc(n * sizeof *g[k]);
    memcpy(g[k], rl_train_grads(m), n * sizeof *g[k]);
    rl_train_free(m);
  }
  g_threads = 1, g_chunks = 4;
  double worst = 0, gmax = 0;
  for (size_t i = 0; i < n; i++) {
    worst = fmax(worst, fabs(g[0][i] - g[1][i]));
    gmax = fmax(gmax, fabs(g[0][i]));
  }
  const char *name = rl_train_pos_names()[pos];
  tap_le(fabs(loss[0] - loss[1]) / loss[0], 16 * DBL_EPSILON, "%s: 2 threads, 2 chunks: same loss",
         name);
  tap_le(worst / gmax, 64 * DBL_EPSILON, "%s: 2 threads, 2 chunks: same gradient", name);
  free(g[0]), free(g[1]);
  rl_schedule_free(f);
}

static void check_adamw(void)
{
  /* step 1 with bias correction: m/bc1 = g, v/bc2 = g^2, so each
   * parameter moves by -lr (g / (|g| + eps) + wd p [decayed ones]) */
  rl_train_model *m = tiny(rl_train_pos_find("nope"), 3);
  size_t n = rl_train_nparams(m);
  double *p = rl_train_params(m), *g = rl_train_grads(m), *p0 = malloc(n * sizeof *p0);
  for (size_t i = 0; i < n; i++)
    g[i] = (i % 2 ? 1e-3 : -2e-3) * (double)(i % 7 + 1);
  memcpy(p0, p, n * sizeof *p0);
  rl_adamw a;
  rl_adamw_default(&a);
  a.clip = 0;
  double lr = 0.01;
  rl_train_update(m, &a, lr);
  /* the token embedding (first V D entries) is decayed */
  double worst = 0;
  for (size_t i = 0; i < V * D; i++) {
    double want = p0[i] - lr * (g[i] / (fabs(g[i]) + a.eps) + a.weight_decay * p0[i]);
    worst = fmax(worst, fabs(p[i] - want));
  }
  /* bias corrections 1 - 0.9 = 0.1 and 1 - 0.99 = 0.01 are inexact in
   * binary: a few ulps of lr */
  tap_le(worst, 8 * DBL_EPSILON * lr, "adamw first step = -lr (sign g + wd p)");
  /* the final LayerNorm's bias (last D entries) is not decayed: p0 = 0 */
  tap_le(fabs(p[n - 1] - (p0[n - 1] - lr * g[n - 1] / (fabs(g[n - 1]) + a.eps))),
         8 * DBL_EPSILON * lr, "adamw: norm bias not decayed");
  /* clipping: a gradient of norm 2 clipped to 1 gives the same first
   * step (sign) but reports the norm before clipping */
  rl_train_zero_grad(m);
  g[0] = 2.0;
  a.clip = 1.0;
  tap_abs_close(rl_train_update(m, &a, lr), 2.0, 0.0, "adamw returns the unclipped norm");
  free(p0);
  rl_train_free(m);
}

static void check_lr(void)
{
  /* warmup 10 of 110 steps to 1e-3, cosine to 1e-4 at step 109 */
  tap_abs_close(rl_train_lr(0, 110, 10, 1e-3, 1e-4), 1e-4, 1e-19, "lr warmup step 0 = lr/10");
  tap_abs_close(rl_train_lr(9, 110, 10, 1e-3, 1e-4), 1e-3, 1e-19, "lr warmup end = lr");
  tap_abs_close(rl_train_lr(10, 110, 10, 1e-3, 1e-4), 1e-3, 1e-19, "lr cosine start = lr");
  tap_abs_close(rl_train_lr(109, 110, 10, 1e-3, 1e-4), 1e-4, 1e-19, "lr last step = min_lr");
  /* 111 steps: progress (60 - 10) / (110 - 10) = 1/2, cos(pi/2) = 0 */
  tap_abs_close(rl_train_lr(60, 111, 10, 1e-3, 1e-4), 0.55e-3, 1e-18,
                "lr midpoint = (lr + min_lr) / 2");
}

static int same(const int *a, const int *b, size_t n)
{
  return !memcmp(a, b, n * sizeof *a);
}

/* The answers to hand-worked questions (SEP = 10, PLUS = 12 with ten
 * symbols), then the generator against an independent computation. */
static void check_new_tasks(void)
{
  enum { S = 10, P = 12 };
  int y[8];
  rl_task t = {RL_TASK_SORT, S};
  /* Kazemnejad et al. 2023, Table 1: "3 1 4 1 5" sorted is "1 1 3 4 5" */
  rl_task_answer(&t, 5, (const int[]){3, 1, 4, 1, 5, S}, y);
  tap_ok(same(y, (const int[]){1, 1, 3, 4, 5}, 5) && rl_task_answer_len(&t, 5) == 5 &&
             rl_task_len(&t, 5) == 11, "sort: 3 1 4 1 5 -> 1 1 3 4 5");
  t.kind = RL_TASK_REVERSE;
  rl_task_answer(&t, 3, (const int[]){3, 1, 4, S}, y);
  tap_ok(same(y, (const int[]){4, 1, 3}, 3), "reverse: 3 1 4 -> 4 1 3");
  /* their addition example 53726 + 1917 = 55643, b written 01917 (n = 5
   * digits each), the sum in 6 digits */
  t.kind = RL_TASK_ADD;
  const int q1[] = {5, 3, 7, 2, 6, P, 0, 1, 9, 1, 7, S};
  rl_task_answer(&t, 5, q1, y);
  tap_ok(same(y, (const int[]){0, 5, 5, 6, 4, 3}, 6) && rl_task_answer_len(&t, 5) == 6 &&
             rl_task_len(&t, 5) == 18 && rl_task_vocab(&t) == 13,
         "add: 53726 + 01917 -> 0 5 5 6 4 3");
  t.kind = RL_TASK_ADD_REV;
  rl_task_answer(&t, 5, q1, y);
  tap_ok(same(y, (const int[]){3, 4, 6, 5, 5, 0}, 6), "add-rev: 53726 + 01917 -> 3 4 6 5 5 0");
  /* a carry through every digit: 999 + 001 = 1000 */
  rl_task_answer(&t, 3, (const int[]){9, 9, 9, P, 0, 0, 1, S}, y);
  tap_ok(same(y, (const int[]){0, 0, 0, 1}, 4), "add-rev: 999 + 001 -> 0 0 0 1");
  t.kind = RL_TASK_ADD;
  rl_task_answer(&t, 3, (const int[]){9, 9, 9, P, 0, 0, 1, S}, y);
  tap_ok(same(y, (const int[]){1, 0, 0, 0}, 4), "add: 999 + 001 -> 1 0 0 0");
  /* base 2 (PLUS = 4): 11 + 01 = 3 + 1 = 100 */
  rl_task t2 = {RL_TASK_ADD, 2};
  rl_task_answer(&t2, 2, (const int[]){1, 1, 4, 0, 1, 2}, y);
  tap_ok(same(y, (const int[]){1, 0, 0}, 3), "add base 2: 11 + 01 -> 1 0 0");
  t.kind = RL_TASK_COUNTING;
  rl_task_answer(&t, 3, (const int[]){7, 7, 7, S}, y);
  tap_ok(same(y, (const int[]){7, 7, 7, S}, 4) && rl_task_len(&t, 3) == 8,
         "count: 7 7 7 -> 7 7 7 SEP");
  t.kind = RL_TASK_RECALL;
  rl_task_answer(&t, 3, (const int[]){1, 5, 2, 6, 3, 7, S, 2}, y);
  tap_ok(y[0] == 6, "recall: 1 5 2 6 3 7 SEP 2 -> 6");

  /* generated examples: layout, and the answer by another route */
  rl_train_rng r;
  rl_train_rng_seed(&r, 17);
  /* every example opens with BOS (= PAD, S + 1) and no target; inp and
   * tgt view the 40 positions after it */
  int bi[41], bt[41], *inp = bi + 1, *tgt = bt + 1, ok = 1;
  for (int rep = 0; rep < 200; rep++) {
    size_t n = 1 + rl_train_rng_below(&r, 9);
    /* add: the operands and the sum as native integers (n <= 9 digits) */
    t.kind = rep % 2 ? RL_TASK_ADD : RL_TASK_ADD_REV;
    rl_task_example(&t, &r, n, 41, bi, bt);
    ok &= bi[0] == S + 1 && bt[0] == -1;
    unsigned long long a = 0, b = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
      a = 10 * a + (unsigned)inp[i];
      b = 10 * b + (unsigned)inp[n + 1 + i];
    }
    for (size_t k = 0; k <= n; k++) { /* answer digit k of n + 1 */
      int d = tgt[2 * n + 1 + k];
      ok &= d >= 0 && d < 10;
      sum = t.kind == RL_TASK_ADD ? 10 * sum + (unsigned)d : sum;
      if (t.kind == RL_TASK_ADD_REV) {
        unsigned long long pw = 1;
        for (size_t j = 0; j < k; j++)
          pw *= 10;
        sum += (unsigned long long)d * pw;
      }
    }
    ok &= inp[n] == P && inp[2 * n + 1] == S && sum == a + b && inp[3 * n + 2] == S + 1;
    for (size_t i = 0; i < 40; i++)
      ok &= (tgt[i] >= 0) == (i >= 2 * n + 1 && i <= 3 * n + 1);
    for (size_t i = 2 * n + 2; i <= 3 * n + 1; i++) /* teacher forcing */
      ok &= inp[i] == tgt[i - 1];
    /* sort: non-decreasing, and the same multiset (histograms) */
    t.kind = RL_TASK_SORT;
    rl_task_example(&t, &r, n, 41, bi, bt);
    ok &= bi[0] == S + 1 && bt[0] == -1;
    int hx[S] = {0}, hy[S] = {0};
    for (size_t i = 0; i < n; i++) {
      hx[inp[i]]++, hy[tgt[n + i]]++;
      ok &= i == 0 || tgt[n + i] >= tgt[n + i - 1];
    }
    ok &= same(hx, hy, S) && inp[n] == S && tgt[n - 1] == -1 && tgt[2 * n] == -1;
    /* count: one symbol n times, the answer it n times then SEP */
    t.kind = RL_TASK_COUNTING;
    rl_task_example(&t, &r, n, 41, bi, bt);
    ok &= bi[0] == S + 1 && bt[0] == -1;
    for (size_t i = 0; i < n; i++)
      ok &= inp[i] == inp[0] && tgt[n + i] == inp[0];
    ok &= inp[n] == S && tgt[2 * n] == S && tgt[n - 1] == -1 && tgt[2 * n + 1] == -1 &&
          inp[2 * n] == inp[0] && inp[2 * n + 1] == S + 1;
  }
  tap_ok(ok, "add, add-rev, sort, count examples: layout and answers by native arithmetic, "
             "histograms, repetition");
}

static void check_tasks(void)
{
  rl_task t = {RL_TASK_COPY, 10};
  rl_train_rng r;
  rl_train_rng_seed(&r, 5);
  /* bi, bt: BOS (PAD, 11) then the 12 positions inp, tgt view */
  int bi[13], bt[13], *inp = bi + 1, *tgt = bt + 1;
  rl_task_example(&t, &r, 4, 13, bi, bt);
  /* BOS x0 x1 x2 x3 SEP x0 x1 x2 PAD PAD PAD PAD; targets at 4..7 of
   * the view = x */
  int ok = bi[0] == 11 && bt[0] == -1 && inp[4] == 10 && inp[8] == 11 && inp[11] == 11;
  for (int i = 0; i < 4; i++)
    ok &= inp[i] >= 0 && inp[i] < 10 && tgt[i] == -1 && tgt[4 + i] == inp[i] && tgt[8 + i] == -1;
  for (int i = 0; i < 3; i++)
    ok &= inp[5 + i] == inp[i];
  tap_ok(ok, "copy example: x SEP x[0..n-1) padded, targets x");
  t.kind = RL_TASK_REVERSE;
  rl_task_example(&t, &r, 4, 9, bi, bt);
  ok = bi[0] == 11 && bt[0] == -1 && inp[4] == 10;
  for (int i = 0; i < 4; i++)
    ok &= tgt[4 + i] == inp[3 - i];
  for (int i = 0; i < 3; i++)
    ok &= inp[5 + i] == inp[3 - i];
  tap_ok(ok, "reverse example: targets x backwards");
  t.kind = RL_TASK_RECALL;
  ok = rl_task_len(&t, 4) == 11 && rl_task_max_n(&t) == 10;
  for (int rep = 0; rep < 50; rep++) {
    rl_task_example(&t, &r, 4, 12, bi, bt);
    /* BOS k v k v k v k v SEP q PAD; one target at 9 of the view: the
     * value after q */
    int q = inp[9], found = 0;
    ok &= bi[0] == 11 && bt[0] == -1 && inp[8] == 10 && inp[10] == 11;
    for (int i = 0; i < 11; i++)
      ok &= (i == 9) == (tgt[i] >= 0);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < i; j++)
        ok &= inp[2 * i] != inp[2 * j];
      if (inp[2 * i] == q)
        found++, ok &= tgt[9] == inp[2 * i + 1];
    }
    ok &= found == 1;
  }
  tap_ok(ok, "recall examples: distinct keys, the query's value as the one target");
  check_new_tasks();
  /* SplitMix64's first output for seed 0 (Vigna's splitmix64.c reference
   * value, 0xe220a8397b1dcdaf) */
  rl_train_rng_seed(&r, 0);
  tap_ok(rl_train_rng_u64(&r) == 0xe220a8397b1dcdafu, "splitmix64 seed 0 first value");
}

static void check_determinism(size_t threads)
{
  /* same seed, same batches, same threads: bit-identical parameters
   * after 5 steps */
  g_threads = threads;
  rl_task t = {RL_TASK_COPY, V - 2};
  double *w[2];
  size_t n = 0;
  for (int k = 0; k < 2; k++) {
    rl_train_model *m = tiny(rl_train_pos_find("t5"), 11);
    rl_train_rng r;
    rl_train_rng_seed(&r, 4);
    rl_adamw a;
    rl_adamw_default(&a);
    int inp[B * T], tgt[B * T];
    for (int step = 0; step < 5; step++) {
      for (size_t b = 0; b < B; b++)
        rl_task_example(&t, &r, 1 + rl_train_rng_below(&r, (T - 1) / 2), T, inp + b * T,
                        tgt + b * T);
      rl_train_zero_grad(m);
      rl_train_forward(m, inp, tgt, B, T);
      rl_train_backward(m);
      rl_train_update(m, &a, 1e-2);
    }
    n = rl_train_nparams(m);
    w[k] = malloc(n * sizeof *w[k]);
    memcpy(w[k], rl_train_params(m), n * sizeof *w[k]);
    rl_train_free(m);
  }
  g_threads = 1;
  tap_ok(!memcmp(w[0], w[1], n * sizeof *w[0]),
         "same seed, %zu threads: identical weights after 5 steps", threads);
  free(w[0]), free(w[1]);
}

int main(void)
{
  for (int pos = 0; pos < (int)rl_train_pos_count(); pos++)
    if (pos != rl_train_pos_find("rope"))
      check_scheme((rl_train_pos)pos, NULL, 0, 0);
  check_scheme(rl_train_pos_find("rope"), "rope", D / H, 0);
  check_scheme(rl_train_pos_find("rope"), "rope", D / H, 1);
  check_scheme(rl_train_pos_find("rope"), "rope", 2, 1);
  check_scheme(rl_train_pos_find("rope"), "yarn", D / H, 1);
  check_scheme(rl_train_pos_find("rope"), "linear", D / H, 0);
  check_adamw();
  check_lr();
  check_tasks();
  for (int pos = 0; pos < (int)rl_train_pos_count(); pos++)
    check_threads((rl_train_pos)pos);
  g_threads = 2;
  check_scheme(rl_train_pos_find("t5"), NULL, 0, 0); /* per-thread bias gradients */
  check_scheme(rl_train_pos_find("learned"), NULL, 0, 0);
  g_threads = 1;
  check_determinism(1);
  check_determinism(2);
  return tap_done();
}
