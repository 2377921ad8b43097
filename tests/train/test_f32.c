/* test_f32.c: float32 training (--dtype float32, rl_train_cfg.dtype)
 * against float64, the dtype whose gradient test_model.c checks against
 * finite differences:
 *  - per scheme, the float32 gradient against the float64 analytic one at
 *    the same weights (the float32 model's own: the master weights rounded
 *    to float first, so both compute at the same point);
 *  - a training run's loss curve in float32 against float64's, same seed
 *    and batches, within a stated distance, and a second seed's float64
 *    curve outside it (the bound can tell runs apart);
 *  - float32 runs deterministic for a seed and a thread count;
 *  - a float32 checkpoint restores its dtype, a version-2 file reads as
 *    float64. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ropelab.h"
#include "tap.h"

enum { V = 6, D = 8, H = 2, L = 2, B = 2, T = 8 };
/* t5's and deberta's buckets (test_model.c's); the checkpoint's reader
 * wants the trainer's 32 and 128 */
static size_t g_buckets = 6, g_maxd = 7;

static rl_train_model *model(rl_train_pos pos, int dtype, size_t threads, size_t vocab,
                             size_t d, size_t layers, size_t batch, size_t maxT, uint64_t seed)
{
  rl_train_cfg cfg;
  rl_train_cfg_default(&cfg);
  cfg.threads = threads, cfg.chunks = 4, cfg.dtype = dtype;
  cfg.vocab = vocab, cfg.d_model = d, cfg.heads = H, cfg.layers = layers, cfg.batch = batch;
  cfg.max_T = maxT, cfg.pos = pos, cfg.num_buckets = g_buckets, cfg.max_distance = g_maxd, cfg.seed = seed;
  rl_train_model *m;
  char err[RL_ERR_MAX] = "";
  if (rl_train_new(&cfg, &m, err)) {
    printf("# cannot build the model: %s\n", err);
    exit(1);
  }
  if (pos == rl_train_pos_find("rope")) {
    rl_schedule_params p;
    rl_schedule_params_default(&p);
    p.dim = d / H, p.rot = d / H, p.base = 100;
    rl_schedule *f;
    if (rl_schedule_new(&p, &f, err) || rl_train_set_rope(m, f, err)) {
      printf("# %s\n", err);
      exit(1);
    }
    rl_schedule_free(f);
  }
  return m;
}

/* The float32 gradient against float64's at the same weights: the worst
 * entry's error over the largest entry (test_model.c's measure against
 * finite differences).
 *
 * The bound, 2e-6 = 2^-19 (~34 u, u = 2^-24 float32's unit roundoff), is
 * the measured error with a factor, said as such: measured worst over
 * the nine schemes (O(1) weights, 0.5 N(0,1) as test_model.c draws them)
 * 3.4e-7 = 5.6 u (rope; 1.3e-7 to 3.4e-7 for all), the bound 6 times
 * that.  A priori each entry is a chain of ~10 layers of sums of K <= 4D
 * = 32 terms, each at most K u relative in the worst case (~sqrt(K) u
 * typically), so a few u to a few tens of u; a different CBLAS kernel's
 * order of sums moves it by a few u.  It fails a wrong float term:
 * GELU's 0.044715 changed to 0.0447 in the float build only gave 5.5e-6
 * to 1.2e-5 for every scheme. */
#define GRAD_TOL 2e-6

static void check_grad(rl_train_pos pos, size_t threads)
{
  rl_train_model *m[2] = {model(pos, RL_TDTYPE_FLOAT64, threads, V, D, L, B, T, 7),
                          model(pos, RL_TDTYPE_FLOAT32, threads, V, D, L, B, T, 7)};
  rl_train_rng r;
  rl_train_rng_seed(&r, 99);
  size_t n = rl_train_nparams(m[0]);
  for (size_t i = 0; i < n; i++) {
    double w = (float)(0.5 * rl_train_rng_normal(&r)); /* a float: both at one point */
    rl_train_params(m[0])[i] = rl_train_params(m[1])[i] = w;
  }
  int inp[B * T], tgt[B * T];
  for (size_t i = 0; i < B * T; i++) {
    inp[i] = (int)rl_train_rng_below(&r, V);
    tgt[i] = i % 4 == 1 ? -1 : (int)rl_train_rng_below(&r, V);
  }
  for (size_t t = 5; t < T; t++)
    tgt[T + t] = -1;
  double loss[2];
  for (int k = 0; k < 2; k++) {
    rl_train_zero_grad(m[k]);
    loss[k] = rl_train_forward(m[k], inp, tgt, B, T);
    rl_train_backward(m[k]);
  }
  const double *g64 = rl_train_grads(m[0]), *g32 = rl_train_grads(m[1]);
  double worst = 0, gmax = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs(g32[i] - g64[i]);
    worst = isnan(d) || d > worst ? (isnan(d) ? HUGE_VAL : d) : worst;
    gmax = fmax(gmax, fabs(g64[i]));
  }
  const char *name = rl_train_pos_names()[pos];
  tap_le(worst / gmax, GRAD_TOL, "%s, %zu threads: float32 gradient vs float64 (%zu entries)",
         name, threads, n);
  /* the loss: one float32 forward, relative */
  tap_le(fabs(loss[1] - loss[0]) / loss[0], GRAD_TOL, "%s: float32 loss %.9g vs float64 %.9g",
         name, loss[1], loss[0]);
  rl_train_free(m[0]), rl_train_free(m[1]);
}

/* A training run: copy at lengths 1..5 on the trainer's small model
 * (D = 16, 2 layers, batch 16, lr 3e-3, 300 steps), its loss per step. */
enum { RV = 12, RD = 16, RB = 16, RL = 5, RT = 2 * RL + 1, RSTEPS = 300 };

static void run_curve(int dtype, size_t threads, uint64_t seed, double *curve, double **w,
                      size_t *np)
{
  rl_train_model *m = model(rl_train_pos_find("rope"), dtype, threads, RV, RD, 2, RB, RT, seed);
  rl_task t = {RL_TASK_COPY, RV - 2};
  rl_train_rng r;
  rl_train_rng_seed(&r, seed ^ 0x9e3779b97f4a7c15u);
  rl_adamw a;
  rl_adamw_default(&a);
  int inp[RB * RT], tgt[RB * RT];
  for (size_t step = 0; step < RSTEPS; step++) {
    for (size_t b = 0; b < RB; b++)
      rl_task_example(&t, &r, 1 + rl_train_rng_below(&r, RL), RT, inp + b * RT, tgt + b * RT);
    rl_train_zero_grad(m);
    curve[step] = rl_train_forward(m, inp, tgt, RB, RT);
    rl_train_backward(m);
    rl_train_update(m, &a, rl_train_lr(step, RSTEPS, 15, 1e-2, 1e-3));
  }
  if (w) {
    *np = rl_train_nparams(m);
    *w = malloc(*np * sizeof **w);
    memcpy(*w, rl_train_params(m), *np * sizeof **w);
  }
  rl_train_free(m);
}

/* The curves' distance: the largest |loss32 - loss64| over the steps.
 *
 * The bound, 0.02 nats, is empirical, said as such: training is a
 * chaotic map, so float32's rounding (u = 6e-8 relative, each step)
 * grows along the run rather than staying at a multiple of u, and no
 * a-priori bound in steps and condition is tight enough to test.
 * Measured (seed 1 on 1 thread, seed 2 on 2, rope, this run): 1.6e-3 and
 * 4.9e-3 nats at worst over the 300 steps (2.3e-3 and 2.4e-3 before the
 * float attention went through sgemm: another order of sums, another
 * trajectory), while the loss falls from 2.5 to 0.8-1.0; the bound is 4
 * times the largest.  A second seed's float64 curve
 * is 0.6 and 1.1 nats away at its worst, and the test asks it to be
 * more than 5 times the bound away: the bound separates "the same run
 * in another precision" from "another run". */
#define CURVE_TOL 0.02

static double curve_dist(const double *a, const double *b)
{
  double worst = 0;
  for (size_t i = 0; i < RSTEPS; i++) {
    double d = fabs(a[i] - b[i]);
    worst = isnan(d) || d > worst ? (isnan(d) ? HUGE_VAL : d) : worst;
  }
  return worst;
}

static void check_curve(uint64_t seed, size_t threads)
{
  static double c64[RSTEPS], c32[RSTEPS], c32b[RSTEPS], other[RSTEPS];
  double *w[2];
  size_t np;
  run_curve(RL_TDTYPE_FLOAT64, threads, seed, c64, NULL, NULL);
  run_curve(RL_TDTYPE_FLOAT32, threads, seed, c32, &w[0], &np);
  tap_le(curve_dist(c32, c64), CURVE_TOL,
         "seed %llu, %zu threads: float32 loss curve within %g nats of float64's over %d steps "
         "(first %.4f, last %.4f vs %.4f)", (unsigned long long)seed, threads, CURVE_TOL,
         RSTEPS, c64[0], c32[RSTEPS - 1], c64[RSTEPS - 1]);
  tap_ok(c64[RSTEPS - 1] < 0.5 * c64[0], "seed %llu: the run learns (loss %.3f -> %.3f)",
         (unsigned long long)seed, c64[0], c64[RSTEPS - 1]);
  run_curve(RL_TDTYPE_FLOAT64, threads, seed + 10, other, NULL, NULL);
  tap_ok(curve_dist(other, c64) > 5 * CURVE_TOL,
         "another seed's float64 curve is farther (%.3f nats) than 5x the bound",
         curve_dist(other, c64));
  /* deterministic: the same float32 run again, the same bits */
  run_curve(RL_TDTYPE_FLOAT32, threads, seed, c32b, &w[1], &np);
  tap_ok(!memcmp(c32, c32b, sizeof c32) && !memcmp(w[0], w[1], np * sizeof *w[0]),
         "seed %llu, %zu threads: float32 run repeated, identical losses and weights",
         (unsigned long long)seed, threads);
  free(w[0]), free(w[1]);
}

/* A float32 model's checkpoint comes back float32, computing the same
 * loss; the same file rewritten as version 2 (NAME without dtype=)
 * comes back float64. */
static void check_checkpoint(void)
{
  enum { CT = 7 }; /* copy's positions at length 3 */
  g_buckets = 32, g_maxd = 128;
  rl_train_model *m = model(rl_train_pos_find("nope"), RL_TDTYPE_FLOAT32, 1, V, D, L, B, CT, 3);
  int inp[B * CT], tgt[B * CT];
  for (size_t i = 0; i < B * CT; i++)
    inp[i] = (int)(i % V), tgt[i] = (int)((i + 1) % V);
  rl_ckpt *ck = calloc(1, sizeof *ck), *back = calloc(1, sizeof *back);
  rl_train_run_default(&ck->run);
  ck->run.task = (rl_task){RL_TASK_COPY, V - 2};
  ck->run.train_len = 3, ck->run.eval_len = 3, ck->run.threads = 1;
  snprintf(ck->prov, sizeof ck->prov, "version=test\n");
  char dir[] = "/tmp/rl_f32_XXXXXX", path[64], path2[64], err[RL_ERR_MAX] = "";
  if (!mkdtemp(dir))
    exit(1);
  snprintf(path, sizeof path, "%s/a.ck", dir);
  snprintf(path2, sizeof path2, "%s/b.ck", dir);
  rl_status st = rl_ckpt_write(path, ck, m, err);
  rl_train_model *m2 = NULL;
  if (!st)
    st = rl_ckpt_read(path, 0, back, &m2, err);
  tap_ok(!st && back->cfg.dtype == RL_TDTYPE_FLOAT32, "float32 checkpoint read back float32 (%s)",
         err);
  double l1 = rl_train_forward(m, inp, tgt, B, CT);
  double l2 = m2 ? rl_train_forward(m2, inp, tgt, B, CT) : 0;
  tap_ok(l1 == l2, "the restored float32 model's loss equals the original's (%.9g)", l1);
  rl_train_free(m2);
  /* version 2: NAME without its dtype line, the length and CRC redone
   * (CRC-32 ISO-HDLC, bitwise) */
  FILE *fp = fopen(path, "rb");
  unsigned char *b = malloc(1 << 20), *c = malloc(1 << 20);
  size_t n = fp ? fread(b, 1, 1 << 20, fp) : 0;
  if (fp)
    fclose(fp);
  const char *line = "dtype=float32\n";
  size_t nl = 0;
  for (int i = 0; i < 8; i++)
    nl |= (size_t)b[24 + 8 + i] << (8 * i);
  size_t at = 24 + 16 + nl - strlen(line);
  int had = !memcmp(b + at, line, strlen(line));
  memcpy(c, b, at);
  memcpy(c + at, b + at + strlen(line), n - at - strlen(line));
  size_t n2 = n - strlen(line);
  c[8] = 2;
  for (int i = 0; i < 8; i++) {
    c[16 + i] = (unsigned char)(n2 >> (8 * i));
    c[24 + 8 + i] = (unsigned char)((nl - strlen(line)) >> (8 * i));
  }
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n2 - 4; i++) {
    crc ^= c[i];
    for (int k = 0; k < 8; k++)
      crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  crc ^= 0xFFFFFFFFu;
  for (int i = 0; i < 4; i++)
    c[n2 - 4 + (size_t)i] = (unsigned char)(crc >> (8 * i));
  fp = fopen(path2, "wb");
  if (fp)
    fwrite(c, 1, n2, fp), fclose(fp);
  m2 = NULL;
  st = rl_ckpt_read(path2, 0, back, &m2, err);
  tap_ok(had && !st && back->cfg.dtype == RL_TDTYPE_FLOAT64,
         "a version-2 file (no dtype in NAME) reads as float64 (%s)", err);
  rl_train_free(m2);
  /* an unknown dtype in a version-3 NAME is refused */
  memcpy(b + at, "dtype=float16\n", strlen(line));
  crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n - 4; i++) {
    crc ^= b[i];
    for (int k = 0; k < 8; k++)
      crc = crc & 1 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  crc ^= 0xFFFFFFFFu;
  for (int i = 0; i < 4; i++)
    b[n - 4 + (size_t)i] = (unsigned char)(crc >> (8 * i));
  fp = fopen(path2, "wb");
  if (fp)
    fwrite(b, 1, n, fp), fclose(fp);
  m2 = NULL;
  st = rl_ckpt_read(path2, 0, back, &m2, err);
  tap_ok(st == RL_EFORMAT && !m2 && strstr(err, "unknown dtype"), "dtype=float16 refused: %s",
         err);
  rl_train_free(m2);
  unlink(path), unlink(path2), rmdir(dir);
  free(b), free(c), free(ck), free(back);
  rl_train_free(m);
}

int main(void)
{
  for (int p = 0; p < (int)rl_train_pos_count(); p++)
    check_grad((rl_train_pos)p, 1);
  check_grad(rl_train_pos_find("t5"), 2);
  check_curve(1, 1);
  check_curve(2, 2);
  check_checkpoint();
  return tap_done();
}
