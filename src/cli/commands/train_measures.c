/* train_measures.c: `profile --checkpoint F` (train_measures.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "out.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "train_measures.h"
#include "train_score.h"

int rl_profile_checkpoint(const char *cmd, const char *path, const rl_common *co,
                          size_t samples)
{
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_train_model *m = NULL;
  rl_schedule *f = NULL;
  double *q = NULL, *k = NULL;
  char err[RL_ERR_MAX] = "";
  if (!ck)
    return rl_runtime(cmd, "out of memory");
  int r = 0;
  rl_status st = rl_ckpt_read(path, 0, ck, &m, err);
  if (st) {
    r = st == RL_EFORMAT || st == RL_EINVAL ? rl_usage(cmd, "%s", err) : rl_runtime(cmd, "%s", err);
    goto done;
  }
  const rl_train_cfg *c = &ck->cfg;
  int bias = c->pos == RL_TPOS_T5 || c->pos == RL_TPOS_ALIBI, rope = c->pos == RL_TPOS_ROPE;
  if (!bias && !rope) {
    r = rl_usage(cmd, "invalid --checkpoint '%s': a %s model has no positional logit this "
                 "measures (t5, alibi: the bias per distance; rope: the query and key norms "
                 "per frequency)", path, rl_train_pos_names()[c->pos]);
    goto done;
  }
  if (!samples)
    samples = (size_t)ck->run.eval_samples;
  size_t H = c->heads, np = c->d_model / c->heads / 2, cells = c->layers * H * np;
  if (rope) {
    rl_schedule_params tp;
    char text[RL_CKPT_TEXT_MAX];
    memcpy(text, ck->rope, sizeof text);
    if (rl_ckpt_sched_parse(text, &tp, err)) {
      r = rl_usage(cmd, "invalid checkpoint '%s': its rope schedule: %s", path, err);
      goto done;
    }
    if ((r = rl_sched_build(&tp, cmd, &f)) || (r = rl_train_use_rope(cmd, m, f)))
      goto done;
    q = malloc(cells * sizeof *q), k = malloc(cells * sizeof *k);
    if (!q || !k) {
      r = rl_runtime(cmd, "out of memory");
      goto done;
    }
    st = rl_train_pair_norms(m, &ck->run.task, (size_t)ck->run.train_len, samples,
                             RL_TRAIN_EVAL_SEED, q, k, err);
    if (st) {
      r = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : rl_usage(cmd, "%s", err);
      goto done;
    }
  }
  rl_out tab = {0};
  if ((r = rl_out_open(&tab, cmd, co->output, co->meta, co->header)))
    goto done;
  rl_out_meta_begin(&tab);
  rl_out_meta(&tab, "checkpoint", path);
  rl_out_meta_uint(&tab, "checkpoint_step", ck->step);
  rl_out_meta(&tab, "scheme", rl_train_pos_names()[c->pos]);
  rl_out_meta(&tab, "task", rl_task_names()[ck->run.task.kind]);
  rl_out_meta_uint(&tab, "train_len", ck->run.train_len);
  rl_out_meta_uint(&tab, "heads", H);
  rl_out_meta_uint(&tab, "layers", c->layers);
  if (bias) {
    rl_out_meta(&tab, "measure", c->pos == RL_TPOS_T5
                                     ? "the learned bias of the key's bucket, shared by the layers"
                                     : "alibi's fixed -slope * distance, shared by the layers");
    rl_out_header(&tab, "head,distance,logit");
    for (size_t h = 0; h < H; h++)
      for (size_t d = 0; d < c->max_T; d++) {
        double v = 0;
        rl_train_pos_bias(m, h, d, &v);
        double row[3] = {(double)h, (double)d, v};
        rl_out_row(&tab, row, 3);
      }
  } else {
    rl_out_meta(&tab, "measure", "mean norm of each query and key rotation pair before the "
                                 "rotation, over the positions of the examples (Barbero et al. 2024)");
    rl_out_meta_uint(&tab, "samples", samples);
    rl_out_meta_uint(&tab, "eval_seed", RL_TRAIN_EVAL_SEED);
    rl_out_header(&tab, "layer,head,pair,theta,q_norm,k_norm");
    for (size_t l = 0; l < c->layers; l++)
      for (size_t h = 0; h < H; h++)
        for (size_t i = 0; i < np; i++) {
          size_t at = (l * H + h) * np + i;
          double row[6] = {(double)l, (double)h, (double)i, i < f->n ? f->theta[i] : 0.0, q[at],
                           k[at]};
          rl_out_row(&tab, row, 6);
        }
  }
  r = rl_out_close(&tab);
done:
  free(q), free(k), free(ck);
  rl_schedule_free(f);
  rl_train_free(m);
  return r;
}
