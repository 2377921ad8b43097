/* task.c: the trainer's random numbers, synthetic tasks and their
 * scoring by test length (ropelab/train.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

void rl_train_rng_seed(rl_train_rng *r, uint64_t seed) { r->s = seed; }

/* SplitMix64: Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014 (the constants of its mix function). */
uint64_t rl_train_rng_u64(rl_train_rng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

double rl_train_rng_uniform(rl_train_rng *r)
{
  return (double)(rl_train_rng_u64(r) >> 11) * 0x1p-53;
}

size_t rl_train_rng_below(rl_train_rng *r, size_t n)
{
  /* rejection of the top partial block keeps every value equally likely */
  uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
  do
    x = rl_train_rng_u64(r);
  while (x >= lim);
  return (size_t)(x % n);
}

double rl_train_rng_normal(rl_train_rng *r)
{
  double u = 1.0 - rl_train_rng_uniform(r), v = rl_train_rng_uniform(r); /* u in (0, 1] */
  return sqrt(-2.0 * log(u)) * cos(6.28318530717958647692 * v);
}

/* NULL-terminated: the --task declaration (settings.c) reads them */
static const char *const task_names[RL_TASK_COUNT + 1] = {
    "copy", "reverse", "recall", "sort", "add", "add-rev", "count", NULL};
const char *const *rl_task_names(void) { return task_names; }

size_t rl_task_vocab(const rl_task *t)
{
  return t->kind == RL_TASK_ADD || t->kind == RL_TASK_ADD_REV ? t->symbols + 3 : t->symbols + 2;
}

size_t rl_task_answer_len(const rl_task *t, size_t n)
{
  switch (t->kind) {
  case RL_TASK_RECALL: return 1;
  case RL_TASK_ADD:
  case RL_TASK_ADD_REV:
  case RL_TASK_COUNTING: return n + 1;
  default: return n;
  }
}

size_t rl_task_len(const rl_task *t, size_t n)
{
  /* 1 + : the BOS token that opens every example (rl_task_example) */
  switch (t->kind) {
  case RL_TASK_RECALL: return 1 + 2 * n + 2;
  case RL_TASK_ADD:
  case RL_TASK_ADD_REV: return 1 + 3 * n + 2;
  case RL_TASK_COUNTING: return 1 + 2 * n + 1;
  default: return 1 + 2 * n;
  }
}

size_t rl_task_max_n(const rl_task *t)
{
  return t->kind == RL_TASK_RECALL ? t->symbols : SIZE_MAX;
}

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

void rl_task_answer(const rl_task *t, size_t n, const int *q, int *y)
{
  int sep = (int)t->symbols;
  switch (t->kind) {
  case RL_TASK_RECALL: /* the value after the one key equal to q's last */
    y[0] = -1;
    for (size_t i = 0; i < n; i++)
      if (q[2 * i] == q[2 * n + 1])
        y[0] = q[2 * i + 1];
    return;
  case RL_TASK_ADD:
  case RL_TASK_ADD_REV: {
    /* schoolbook addition from the least significant digit: a is
     * q[0..n), b q[n+1..2n+1), most significant first */
    int base = (int)t->symbols, carry = 0, rev = t->kind == RL_TASK_ADD_REV;
    for (size_t k = 0; k < n; k++) {
      int sum = q[n - 1 - k] + q[2 * n - k] + carry;
      carry = sum >= base;
      y[rev ? k : n - k] = carry ? sum - base : sum;
    }
    y[rev ? n : 0] = carry;
    return;
  }
  case RL_TASK_COUNTING:
    for (size_t i = 0; i < n; i++)
      y[i] = q[i];
    y[n] = sep;
    return;
  default:
    for (size_t i = 0; i < n; i++)
      y[i] = t->kind == RL_TASK_REVERSE ? q[n - 1 - i] : q[i];
    if (t->kind == RL_TASK_SORT)
      qsort(y, n, sizeof *y, cmp_int);
  }
}

/* The question: rl_task_len - rl_task_answer_len tokens (BOS not counted) into q. */
static void question(const rl_task *t, rl_train_rng *r, size_t n, int *q)
{
  int sep = (int)t->symbols;
  switch (t->kind) {
  case RL_TASK_RECALL:
    /* k1 v1 .. kn vn SEP k: keys uniform, redrawn until distinct from
     * the earlier ones (O(n^2), n <= symbols), values uniform, the query
     * uniform among the keys */
    for (size_t i = 0; i < n; i++) {
      int k, dup;
      do {
        k = (int)rl_train_rng_below(r, t->symbols);
        dup = 0;
        for (size_t j = 0; j < i && !dup; j++)
          dup = q[2 * j] == k;
      } while (dup);
      q[2 * i] = k;
      q[2 * i + 1] = (int)rl_train_rng_below(r, t->symbols);
    }
    q[2 * n] = sep;
    q[2 * n + 1] = q[2 * rl_train_rng_below(r, n)];
    return;
  case RL_TASK_ADD:
  case RL_TASK_ADD_REV: /* a PLUS b SEP, digits uniform */
    for (size_t i = 0; i < 2 * n + 1; i++)
      q[i] = i == n ? sep + 2 : (int)rl_train_rng_below(r, t->symbols);
    q[2 * n + 1] = sep;
    return;
  case RL_TASK_COUNTING: { /* x^n SEP, x uniform */
    int x = (int)rl_train_rng_below(r, t->symbols);
    for (size_t i = 0; i < n; i++)
      q[i] = x;
    q[n] = sep;
    return;
  }
  default: /* x SEP, x uniform */
    for (size_t i = 0; i < n; i++)
      q[i] = (int)rl_train_rng_below(r, t->symbols);
    q[n] = sep;
  }
}

void rl_task_example(const rl_task *t, rl_train_rng *r, size_t n, size_t T, int *inp, int *tgt)
{
  int pad = (int)t->symbols + 1;
  for (size_t i = 0; i < T; i++)
    inp[i] = pad, tgt[i] = -1;
  size_t len = rl_task_len(t, n);
  /* s = BOS, question, answer: len + 1 tokens.  BOS (the PAD symbol, as
   * GPT-2's <|endoftext|> opens and closes) is the fixed first token that
   * lets a causal model without positions count them: uniform attention
   * gives it weight 1/(t+1) at position t (Kazemnejad et al. 2023,
   * Theorem 1's construction, whose first token is [BOS]) */
  int *s = n && n <= rl_task_max_n(t) && len <= T ? malloc((len + 1) * sizeof *s) : NULL;
  if (!s)
    return; /* outside the task (callers check) or no memory: no loss */
  size_t a0 = len + 1 - rl_task_answer_len(t, n);
  s[0] = pad;
  question(t, r, n, s + 1);
  rl_task_answer(t, n, s + 1, s + a0);
  /* the model reads s without its last token; tgt[i] = s[i + 1] on the
   * answer (its first token is predicted at the position before it) */
  memcpy(inp, s, len * sizeof *s);
  for (size_t i = a0 - 1; i < len; i++)
    tgt[i] = s[i + 1];
  free(s);
}

rl_status rl_train_evaluate(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                            uint64_t seed, rl_train_eval *res, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), Bmax = c->batch, V = c->vocab;
  if (!n || T > c->max_T || n > rl_task_max_n(t)) {
    if (err)
      snprintf(err, RL_ERR_MAX, "invalid test length '%zu' for %s: too long for the model or the task",
               n, task_names[t->kind]);
    return RL_EINVAL;
  }
  int *inp = malloc(Bmax * T * sizeof *inp), *tgt = malloc(Bmax * T * sizeof *tgt);
  if (!inp || !tgt) {
    free(inp), free(tgt);
    return RL_ENOMEM;
  }
  rl_train_rng r;
  rl_train_rng_seed(&r, seed);
  size_t exact = 0, right = 0, tokens = 0;
  double loss = 0;
  for (size_t done = 0; done < samples;) {
    size_t B = samples - done < Bmax ? samples - done : Bmax;
    for (size_t b = 0; b < B; b++)
      rl_task_example(t, &r, n, T, inp + b * T, tgt + b * T);
    rl_train_forward(m, inp, tgt, B, T);
    const double *p = rl_train_probs(m), *ls = rl_train_losses(m);
    for (size_t b = 0; b < B; b++) {
      int all = 1;
      for (size_t i = 0; i < T; i++) {
        int y = tgt[b * T + i];
        if (y < 0)
          continue;
        const double *pr = p + (b * T + i) * V;
        size_t best = 0;
        for (size_t v = 1; v < V; v++)
          if (pr[v] > pr[best])
            best = v;
        right += best == (size_t)y;
        all &= best == (size_t)y;
        loss += ls[b * T + i];
        tokens++;
      }
      exact += (size_t)all;
    }
    done += B;
  }
  free(inp), free(tgt);
  res->len = n, res->samples = samples;
  res->exact = samples ? (double)exact / (double)samples : 0.0;
  res->token_acc = tokens ? (double)right / (double)tokens : 0.0;
  res->loss = tokens ? loss / (double)tokens : 0.0;
  return RL_OK;
}

rl_status rl_train_pair_norms(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                              uint64_t seed, double *q, double *k, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), Bmax = c->batch;
  size_t cells = c->layers * c->heads * (c->d_model / c->heads / 2);
  if (!n || !samples || T > c->max_T || n > rl_task_max_n(t)) {
    if (err)
      snprintf(err, RL_ERR_MAX, "invalid length '%zu' for %s: too long for the model or the task",
               n, task_names[t->kind]);
    return RL_EINVAL;
  }
  int *inp = malloc(Bmax * T * sizeof *inp), *tgt = malloc(Bmax * T * sizeof *tgt);
  if (!inp || !tgt) {
    free(inp), free(tgt);
    return RL_ENOMEM;
  }
  memset(q, 0, cells * sizeof *q);
  memset(k, 0, cells * sizeof *k);
  rl_train_rng r;
  rl_train_rng_seed(&r, seed);
  size_t count = 0;
  for (size_t done = 0; done < samples;) {
    size_t B = samples - done < Bmax ? samples - done : Bmax;
    for (size_t b = 0; b < B; b++)
      rl_task_example(t, &r, n, T, inp + b * T, tgt + b * T);
    rl_train_forward(m, inp, tgt, B, T);
    rl_train_pair_norm_sums(m, q, k, &count);
    done += B;
  }
  free(inp), free(tgt);
  for (size_t i = 0; i < cells; i++)
    q[i] /= (double)count, k[i] /= (double)count;
  return RL_OK;
}
