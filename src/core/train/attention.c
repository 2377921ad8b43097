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

rl_status rl_train_attention(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                             uint64_t seed, rl_train_attn *out, char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t T = rl_task_len(t, n), Bmax = c->batch, LH = c->layers * c->heads;
  rl_status cs = check_len(m, t, n, samples, err);
  if (cs)
    return cs;
  int *inp = malloc(Bmax * T * sizeof *inp), *tgt = malloc(Bmax * T * sizeof *tgt);
  double *ent = malloc(Bmax * LH * sizeof *ent), *dist = malloc(Bmax * LH * T * sizeof *dist);
  if (!inp || !tgt || !ent || !dist) {
    free(inp), free(tgt), free(ent), free(dist);
    return RL_ENOMEM;
  }
  memset(out->ent, 0, LH * sizeof *out->ent);
  memset(out->ent_se, 0, LH * sizeof *out->ent_se);
  memset(out->dist, 0, LH * T * sizeof *out->dist);
  memset(out->dist_se, 0, LH * T * sizeof *out->dist_se);
  rl_train_rng r;
  rl_train_rng_seed(&r, seed);
  rl_status st = RL_OK;
  size_t k = 0;
  for (size_t done = 0; done < samples && !st;) {
    size_t B = samples - done < Bmax ? samples - done : Bmax;
    for (size_t b = 0; b < B; b++)
      rl_task_example(t, &r, n, T, inp + b * T, tgt + b * T);
    rl_train_forward(m, inp, tgt, B, T);
    if (rl_train_attn_rows(m, ent, dist)) {
      if (err)
        snprintf(err, RL_ERR_MAX, "task %s at length %zu: an example's last target is before "
                 "its last position", rl_task_names()[t->kind], n);
      st = RL_EINVAL;
      break;
    }
    for (size_t b = 0; b < B; b++) { /* the examples in their order */
      k++;
      for (size_t i = 0; i < LH; i++)
        welford(&out->ent[i], &out->ent_se[i], ent[b * LH + i], k);
      for (size_t i = 0; i < LH * T; i++)
        welford(&out->dist[i], &out->dist_se[i], dist[b * LH * T + i], k);
    }
    done += B;
  }
  free(inp), free(tgt), free(ent), free(dist);
  if (st)
    return st;
  to_se(out->ent_se, LH, k);
  to_se(out->dist_se, LH * T, k);
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
  size_t T = rl_task_len(t, n), Bmax = c->batch, LHT = c->layers * c->heads * T;
  rl_status st = check_len(m, t, n, samples, err);
  if (st)
    return st;
  int nr = out->norot != NULL;
  int *inp = malloc(Bmax * T * sizeof *inp), *tgt = malloc(Bmax * T * sizeof *tgt);
  double *lg = malloc(Bmax * LHT * sizeof *lg), *no = nr ? malloc(Bmax * LHT * sizeof *no) : NULL;
  if (!inp || !tgt || !lg || (nr && !no)) {
    free(inp), free(tgt), free(lg), free(no);
    return RL_ENOMEM;
  }
  memset(out->logit, 0, LHT * sizeof *out->logit);
  memset(out->logit_se, 0, LHT * sizeof *out->logit_se);
  if (nr) {
    memset(out->norot, 0, LHT * sizeof *out->norot);
    memset(out->norot_se, 0, LHT * sizeof *out->norot_se);
  }
  rl_train_rng r;
  rl_train_rng_seed(&r, seed);
  size_t k = 0;
  for (size_t done = 0; done < samples && !st;) {
    size_t B = samples - done < Bmax ? samples - done : Bmax;
    for (size_t b = 0; b < B; b++)
      rl_task_example(t, &r, n, T, inp + b * T, tgt + b * T);
    rl_train_forward(m, inp, tgt, B, T);
    if (rl_train_logit_rows(m, lg, no)) {
      if (err)
        snprintf(err, RL_ERR_MAX, "task %s at length %zu: an example's last target is before "
                 "its last position", rl_task_names()[t->kind], n);
      st = RL_EINVAL;
      break;
    }
    for (size_t b = 0; b < B; b++) { /* the examples in their order */
      k++;
      for (size_t i = 0; i < LHT; i++) {
        welford(&out->logit[i], &out->logit_se[i], lg[b * LHT + i], k);
        if (nr)
          welford(&out->norot[i], &out->norot_se[i], no[b * LHT + i], k);
      }
    }
    done += B;
  }
  free(inp), free(tgt), free(lg), free(no);
  if (st)
    return st;
  to_se(out->logit_se, LHT, k);
  if (nr)
    to_se(out->norot_se, LHT, k);
  out->n = n, out->T = T, out->samples = k;
  return RL_OK;
}
