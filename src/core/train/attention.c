/* attention.c: the attention a trained model pays on its task's inputs,
 * by layer, head and distance (rl_train_attention, ropelab/train.h), and
 * the logits it computes before the softmax (rl_train_logit_dist): the
 * model's own forward run on examples, its attention weights or logits
 * read back (rl_train_attn_rows, rl_train_logit_rows, model_chunk.h) and
 * averaged over the examples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

/* Welford's update of a running mean and sum of squared deviations by
 * x, the k-th value (k >= 1): equal values leave m2 exactly 0 */
static void welford(double *mean, double *m2, double x, size_t k)
{
  double d = x - *mean;
  *mean += d / (double)k;
  *m2 += d * (x - *mean);
}

/* the length n and the samples checked against the model and the task */
static rl_status check_len(const rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                           char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n);
  if (!samples) {
    if (err)
      snprintf(err, RL_ERR_MAX, "invalid samples '0': expected at least 1");
    return RL_EINVAL;
  }
  if (!n || n > rl_task_max_n(t) || T > c->max_T) {
    /* the longest the task (its distinct keys) and the model's positions take */
    size_t most = rl_task_max_n(t) < c->max_T ? rl_task_max_n(t) : c->max_T; /* len(n) > n */
    while (most && rl_task_len(t, most) > c->max_T)
      most--;
    if (err)
      snprintf(err, RL_ERR_MAX, "invalid length '%zu' for %s: expected 1 to %zu (the task's "
               "distinct keys and the model's %zu positions)", n, rl_task_names()[t->kind],
               most, c->max_T);
    return RL_EINVAL;
  }
  return RL_OK;
}

/* m2 into the standard error of the mean of k values */
static void to_se(double *m2, size_t cells, size_t k)
{
  for (size_t i = 0; i < cells; i++)
    m2[i] = k > 1 ? sqrt(m2[i] / (double)(k - 1) / (double)k) : 0.0;
}

/* what rl_train_attention and rl_train_logit_dist read back per example:
 * two arrays of w[0] and w[1] cells (w[1] = 0: none), from the rows
 * function 'rows' after the model's forward */
typedef int (*rows_fn)(const rl_train_model *m, double *a, double *b);

/* the model's forward on 'samples' examples of length n drawn from 'seed',
 * in batches of the model's batch size; each example's rows folded into
 * running means (mean[j]) and standard errors (se[j]) of w[j] cells, in
 * the examples' order; *k the examples read */
static rl_status sample_rows(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                             uint64_t seed, rows_fn rows, const size_t w[2], double *mean[2],
                             double *se[2], size_t *k, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), Bmax = c->batch;
  rl_status st = check_len(m, t, n, samples, err);
  if (st)
    return st;
  int *inp = malloc(Bmax * T * sizeof *inp), *tgt = malloc(Bmax * T * sizeof *tgt);
  double *row[2] = {malloc(Bmax * w[0] * sizeof(double)),
                    w[1] ? malloc(Bmax * w[1] * sizeof(double)) : NULL};
  if (!inp || !tgt || !row[0] || (w[1] && !row[1])) {
    free(inp), free(tgt), free(row[0]), free(row[1]);
    return RL_ENOMEM;
  }
  for (int j = 0; j < 2; j++)
    if (w[j]) {
      memset(mean[j], 0, w[j] * sizeof *mean[j]);
      memset(se[j], 0, w[j] * sizeof *se[j]);
    }
  rl_train_rng r;
  rl_train_rng_seed(&r, seed);
  *k = 0;
  for (size_t done = 0; done < samples;) {
    size_t B = samples - done < Bmax ? samples - done : Bmax;
    for (size_t b = 0; b < B; b++)
      rl_task_example(t, &r, n, T, inp + b * T, tgt + b * T);
    rl_train_forward(m, inp, tgt, B, T);
    if (rows(m, row[0], row[1])) {
      if (err)
        snprintf(err, RL_ERR_MAX, "task %s at length %zu: an example's last target is before "
                 "its last position", rl_task_names()[t->kind], n);
      st = RL_EINVAL;
      break;
    }
    for (size_t b = 0; b < B; b++) { /* the examples in their order */
      ++*k;
      for (int j = 0; j < 2; j++)
        for (size_t i = 0; i < w[j]; i++)
          welford(&mean[j][i], &se[j][i], row[j][b * w[j] + i], *k);
    }
    done += B;
  }
  free(inp), free(tgt), free(row[0]), free(row[1]);
  if (st)
    return st;
  for (int j = 0; j < 2; j++)
    to_se(se[j], w[j], *k);
  return RL_OK;
}

rl_status rl_train_attention(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                             uint64_t seed, rl_train_attn *out, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), LH = c->layers * c->heads, k;
  size_t w[2] = {LH, LH * T};
  double *mean[2] = {out->ent, out->dist}, *se[2] = {out->ent_se, out->dist_se};
  rl_status st = sample_rows(m, t, n, samples, seed, rl_train_attn_rows, w, mean, se, &k, err);
  if (st)
    return st;
  double lnf = 0; /* sum of ln(t + 1), t < T, the uniform attention's entropies */
  for (size_t i = 1; i <= T; i++)
    lnf += log((double)i);
  out->n = n, out->T = T, out->samples = k;
  out->ent_max = lnf / (double)T;
  return RL_OK;
}

rl_status rl_train_logit_dist(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                              uint64_t seed, rl_train_logit *out, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), LHT = c->layers * c->heads * T, k;
  size_t w[2] = {LHT, out->norot ? LHT : 0};
  double *mean[2] = {out->logit, out->norot}, *se[2] = {out->logit_se, out->norot_se};
  rl_status st = sample_rows(m, t, n, samples, seed, rl_train_logit_rows, w, mean, se, &k, err);
  if (st)
    return st;
  out->n = n, out->T = T, out->samples = k;
  return RL_OK;
}
