/* ckpt_mutate.h: field-aware mutations of a checkpoint file, shared by
 * tests/train/test_ckpt_fields.c (every mutation, under the suites'
 * sanitizers) and tests/fuzz/fuzz_checkpoint.c (chosen by the fuzzer):
 * a CONF field set to its declared bounds, one past them, 0, -1, 2^31,
 * 2^40, NaN, infinity; a tensor entry set to +-1e300, inf, NaN, the
 * accepted bound and one ulp past it.  The layout (offsets, CONF keys) is
 * found by walking the sections as src/core/train/checkpoint.md says;
 * the CRC-32 made right again so that the reader judges the values.
 * The oracle of an accepted file: every CONF field within its train
 * option's bounds, every value within train_run.h's, and a forward pass
 * of the model finite. */
#ifndef RL_CKPT_MUTATE_H
#define RL_CKPT_MUTATE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

static uint64_t ckm_le(const unsigned char *p, int k)
{
  uint64_t v = 0;
  for (int i = k - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void ckm_put(unsigned char *p, uint64_t v, int k)
{
  for (int i = 0; i < k; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* zlib's CRC-32, bit by bit */
static uint32_t ckm_crc(const unsigned char *p, size_t n)
{
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

static void ckm_fix_crc(unsigned char *b, size_t n)
{
  ckm_put(b + n - 4, ckm_crc(b, n - 4), 4);
}

/* Where the sections' payloads start: CONF, PARM, MOM1, MOM2 (0 when
 * the walk fails) and the parameter count. */
typedef struct ckm_layout {
  size_t conf, tensor[3], np;
} ckm_layout;

static int ckm_walk(const unsigned char *b, size_t n, ckm_layout *l)
{
  memset(l, 0, sizeof *l);
  size_t at = 24;
  while (at + 16 <= n - 4) {
    uint64_t len = ckm_le(b + at + 8, 8);
    if (len > n - 4 - at - 16)
      return -1;
    if (!memcmp(b + at, "CONF", 4))
      l->conf = at + 16;
    for (int i = 0; i < 3; i++)
      if (!memcmp(b + at, i == 0 ? "PARM" : i == 1 ? "MOM1" : "MOM2", 4))
        l->tensor[i] = at + 16, l->np = (size_t)(len / 8);
    at += 16 + (size_t)len;
  }
  return l->conf && l->tensor[2] ? 0 : -1;
}

/* CONF field k's key without the "f64 " mark, and whether it is real */
static const char *ckm_key(int k, int *real)
{
  const char *s = rl_ckpt_conf_keys()[k];
  *real = !strncmp(s, "f64 ", 4);
  return *real ? s + 4 : s;
}

/* train's declaration that bounds CONF field k (as checkpoint.c maps
 * them; the test restates the mapping from checkpoint.md's field names:
 * the option is the key with '-' for '_'), or NULL for a derived field */
static const rl_param *ckm_decl(int k)
{
  int real;
  const char *key = ckm_key(k, &real);
  if (!strcmp(key, "base"))
    return rl_schedule_param_find("base");
  char opt[64];
  snprintf(opt, sizeof opt, "%s", key);
  for (char *c = opt; *c; c++)
    if (*c == '_')
      *c = '-';
  for (const rl_param *const *d = rl_train_param_list(); *d; d++)
    if (!strcmp((*d)->key, opt))
      return *d;
  return NULL;
}

/* The values tried for CONF field k, as 64-bit patterns: NV of them. */
enum { CKM_NV = 12 };
static uint64_t ckm_value(int k, int v)
{
  int real;
  ckm_key(k, &real);
  const rl_param *d = ckm_decl(k);
  double lo = d ? d->lo : 0, hi = d && isfinite(d->hi) ? d->hi : 1e300;
  double x;
  uint64_t u;
  switch (v) {
  case 0: x = lo; break;
  case 1: x = hi; break;
  case 2: x = lo - 1; break;
  case 3: x = real ? hi * 2 : hi + 1; break;
  case 4: x = 0; break;
  case 5: return UINT64_MAX; /* -1 as an integer; a NaN pattern as a real */
  case 6: x = 2147483648.0; break;
  case 7: x = 1099511627776.0; break;
  case 8: x = NAN; break;
  case 9: x = INFINITY; break;
  case 10: x = real ? -lo : 1; break;
  default: x = real ? 1e-300 : 3; break;
  }
  if (real) {
    memcpy(&u, &x, 8);
    return u;
  }
  if (!(x >= 0) || x >= 18446744073709551615.0)
    return UINT64_MAX;
  return (uint64_t)x;
}

/* The values tried for a tensor entry: NT of them (tag 0 PARM, 1 MOM1,
 * 2 MOM2), and whether train_run.h's bounds accept each. */
enum { CKM_NT = 8 };
static double ckm_tensor_value(int tag, int v, int *ok)
{
  double cap = tag == 0 ? RL_CKPT_PARAM_MAX : tag == 1 ? RL_CKPT_MOMENT_SLACK : RL_CKPT_MOMENT_SLACK;
  static const double big = 1e300;
  double vals[CKM_NT] = {big, -big, INFINITY, NAN, cap, nextafter(cap, INFINITY), -cap, -0.0};
  int oks[CKM_NT] = {0, 0, 0, 0, 1, 0, tag != 2, 1};
  *ok = oks[v];
  return vals[v];
}

/* 0 when an accepted checkpoint keeps every promise of the reader. */
static int ckm_oracle(const rl_ckpt *ck, rl_train_model *m, char *why, size_t wn)
{
  const rl_train_cfg *c = &ck->cfg;
  const rl_train_run *r = &ck->run;
  double f[RL_CKPT_CONF_FIELDS] = {
    (double)c->vocab, (double)c->d_model, (double)c->heads, (double)c->layers, (double)c->batch,
    (double)c->max_T, (double)c->num_buckets, (double)c->max_distance, c->base, (double)c->seed,
    (double)r->task.symbols, r->opt.beta1, r->opt.beta2, r->opt.eps, r->opt.weight_decay,
    r->opt.clip, (double)r->steps, (double)r->warmup, (double)r->train_len, (double)r->eval_len,
    (double)r->eval_samples, (double)r->log_every, (double)r->checkpoint_every,
    (double)r->threads, r->lr, r->min_lr, (double)c->chunks};
  for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
    const rl_param *d = ckm_decl(k);
    if (d && !rl_param_in_bounds(d, f[k])) {
      int real;
      snprintf(why, wn, "%s %g accepted outside --%s's bounds", ckm_key(k, &real), f[k], d->key);
      return 1;
    }
  }
  if (c->max_T < rl_task_len(&r->task, (size_t)r->train_len) ||
      c->max_T < rl_task_len(&r->task, (size_t)r->eval_len)) {
    snprintf(why, wn, "max_T %zu accepted, shorter than the task's lengths", c->max_T);
    return 1;
  }
  size_t np = rl_train_nparams(m);
  const double *p = rl_train_params(m), *m1 = rl_train_moment(m, 1), *m2 = rl_train_moment(m, 2);
  for (size_t i = 0; i < np; i++)
    if (!(fabs(p[i]) <= RL_CKPT_PARAM_MAX) || !(fabs(m1[i]) <= r->opt.clip * RL_CKPT_MOMENT_SLACK) ||
        !(m2[i] >= 0 && m2[i] <= r->opt.clip * r->opt.clip * RL_CKPT_MOMENT_SLACK)) {
      snprintf(why, wn, "value %zu accepted out of bounds", i);
      return 1;
    }
  if (ck->step > r->steps) {
    snprintf(why, wn, "step past steps accepted");
    return 1;
  }
  /* one batch of the training length: finite loss (a rope model needs
   * its schedule first) */
  if (c->pos == rl_train_pos_find("rope")) {
    rl_schedule *s = NULL;
    char err[RL_ERR_MAX];
    if (rl_schedule_rope(c->d_model / c->heads, c->d_model / c->heads, 10000, &s) ||
        rl_train_set_rope(m, s, err)) {
      rl_schedule_free(s);
      snprintf(why, wn, "cannot set the rope table: %.100s", err);
      return 1;
    }
    rl_schedule_free(s);
  }
  size_t T = rl_task_len(&r->task, (size_t)r->train_len), B = c->batch < 4 ? c->batch : 4;
  int *inp = malloc(B * T * sizeof *inp), *tgt = malloc(B * T * sizeof *tgt);
  if (!inp || !tgt) {
    free(inp), free(tgt);
    return 0;
  }
  rl_train_rng g;
  rl_train_rng_seed(&g, 7);
  for (size_t b = 0; b < B; b++)
    rl_task_example(&r->task, &g, (size_t)r->train_len, T, inp + b * T, tgt + b * T);
  double loss = rl_train_forward(m, inp, tgt, B, T);
  free(inp), free(tgt);
  if (!isfinite(loss)) {
    snprintf(why, wn, "accepted model gives loss %g", loss);
    return 1;
  }
  return 0;
}

/* A checkpoint of `scheme` as train writes it (settings resolved, model
 * configuration and run from them, two AdamW steps) at path. */
static int ckm_write_tiny(int scheme, const char *path)
{
  rl_train_settings s;
  rl_train_settings_default(&s);
  s.scheme = scheme, s.task = RL_TASK_COPY, s.symbols = 4, s.train_len = 2, s.eval_len = 3;
  s.set = RL_TS_EVAL_LEN | RL_TS_STEPS | RL_TS_LAYERS;
  s.steps = 10, s.batch = 2, s.d_model = 8, s.heads = 2, s.layers = 1, s.eval_samples = 5;
  char err[RL_ERR_MAX] = "";
  if (rl_train_settings_resolve(&s, err, sizeof err))
    return printf("# settings: %s\n", err), -1;
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_train_cfg cfg;
  rl_train_settings_cfg(&s, &cfg);
  rl_train_settings_run(&s, &ck->run);
  rl_train_model *m = NULL;
  if (rl_train_new(&cfg, &m, err))
    return printf("# model: %s\n", err), free(ck), -1;
  rl_schedule *f = NULL;
  if (scheme == rl_train_pos_find("rope")) {
    rl_schedule_params p;
    rl_schedule_params_default(&p);
    p.dim = 4;
    if (rl_schedule_new(&p, &f, err) || rl_train_set_rope(m, f, err) ||
        rl_ckpt_sched_text(&p, ck->rope, sizeof ck->rope) ||
        rl_ckpt_sched_text(&p, ck->eval, sizeof ck->eval))
      return printf("# rope: %s\n", err), -1;
  }
  rl_task task = {RL_TASK_COPY, 4};
  size_t T = rl_task_len(&task, 2);
  int inp[2 * 5], tgt[2 * 5];
  rl_train_rng g;
  rl_train_rng_seed(&g, 1);
  rl_adamw opt;
  rl_adamw_default(&opt);
  for (int k = 0; k < 2; k++) {
    for (int b = 0; b < 2; b++)
      rl_task_example(&task, &g, 2, T, inp + b * T, tgt + b * T);
    rl_train_zero_grad(m);
    rl_train_forward(m, inp, tgt, 2, T);
    rl_train_backward(m);
    rl_train_update(m, &opt, 1e-2);
  }
  snprintf(ck->prov, sizeof ck->prov, "version=test\n");
  int r = rl_ckpt_write(path, ck, m, err) ? -1 : 0;
  if (r)
    printf("# write: %s\n", err);
  rl_schedule_free(f);
  rl_train_free(m);
  free(ck);
  return r;
}

#endif
