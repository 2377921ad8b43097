/* train_measures.c: `profile --checkpoint F` and `extrapolate
 * --checkpoint F` (train_measures.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "driver.h"
#include "progress.h"
#include "out.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "train_measures.h"
#include "train_score.h"

/* a rope model's training schedule, read from its checkpoint and set */
static int use_rope(const char *cmd, const char *path, const rl_ckpt *ck, rl_train_model *m,
                    rl_schedule **f)
{
  rl_schedule_params tp;
  char text[RL_CKPT_TEXT_MAX], err[RL_ERR_MAX] = "";
  memcpy(text, ck->rope, sizeof text);
  if (rl_ckpt_sched_parse(text, &tp, err))
    return rl_usage(cmd, "invalid checkpoint '%s': its rope schedule: %s", path, err);
  int rc = rl_sched_build(&tp, cmd, f);
  return rc ? rc : rl_train_use_rope(cmd, m, *f);
}

/* the measure's arrays, *per values each: pair-norms q, k (a value per
 * layer, head and pair); logit the logit, its se, and rope's without
 * the rotation and its se (a value per layer, head and distance) */
static double *pc_alloc(const rl_train_cfg *c, const rl_profile_ckpt_plan *p, size_t *per)
{
  size_t H = c->heads, np = c->d_model / c->heads / 2;
  if (p->measure == RL_PROFILE_CK_PAIR_NORMS)
    *per = c->layers * H * np;
  else if (p->measure == RL_PROFILE_CK_LOGIT)
    *per = c->layers * H * c->max_T;
  else
    return *per = 0, NULL;
  return malloc((p->measure == RL_PROFILE_CK_LOGIT ? 4 : 2) * *per * sizeof(double));
}

static void pc_rows(rl_out *tab, const rl_train_model *m, const rl_schedule *f,
                    const rl_profile_ckpt_plan *p, const double *v, size_t per,
                    const rl_train_logit *lg)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t H = c->heads, np = c->d_model / c->heads / 2;
  if (p->measure == RL_PROFILE_CK_BIAS) {
    rl_out_header(tab, "head,distance,logit");
    for (size_t h = 0; h < H; h++)
      for (size_t d = 0; d < c->max_T; d++) {
        double b = 0;
        rl_train_pos_bias(m, h, d, &b);
        double row[3] = {(double)h, (double)d, b};
        rl_out_row(tab, row, 3);
      }
  } else if (p->measure == RL_PROFILE_CK_PAIR_NORMS) {
    rl_out_header(tab, "layer,head,pair,theta,q_norm,k_norm");
    for (size_t l = 0; l < c->layers; l++)
      for (size_t h = 0; h < H; h++)
        for (size_t i = 0; i < np; i++) {
          size_t at = (l * H + h) * np + i;
          double row[6] = {(double)l, (double)h, (double)i, i < f->n ? f->theta[i] : 0.0, v[at],
                           v[per + at]};
          rl_out_row(tab, row, 6);
        }
  } else {
    rl_out_header(tab, p->norot ? "layer,head,distance,logit,logit_se,logit_norot,logit_norot_se"
                                : "layer,head,distance,logit,logit_se");
    for (size_t l = 0; l < c->layers; l++)
      for (size_t h = 0; h < H; h++)
        for (size_t d = 0; d < lg->T; d++) {
          size_t at = (l * H + h) * lg->T + d;
          double row[7] = {(double)l, (double)h, (double)d, lg->logit[at], lg->logit_se[at],
                           p->norot ? lg->norot[at] : 0.0, p->norot ? lg->norot_se[at] : 0.0};
          rl_out_row(tab, row, p->norot ? 7 : 5);
        }
  }
}

int rl_profile_checkpoint(const char *cmd, const rl_profile_settings *s, const rl_common *co)
{
  const char *path = s->checkpoint;
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_train_model *m = NULL;
  rl_schedule *f = NULL;
  double *v = NULL;
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
  rl_profile_ckpt_plan p;
  if (rl_profile_checkpoint_plan(s, ck, path, &p, err, sizeof err)) {
    r = rl_usage(cmd, "%s", err);
    goto done;
  }
  if (rl_train_scheme_rope(c->pos) && (r = use_rope(cmd, path, ck, m, &f)))
    goto done;
  size_t per = 0;
  rl_train_logit lg = {0};
  if (p.measure != RL_PROFILE_CK_BIAS) {
    if (!(v = pc_alloc(c, &p, &per))) {
      r = rl_runtime(cmd, "out of memory");
      goto done;
    }
    if (p.measure == RL_PROFILE_CK_PAIR_NORMS)
      st = rl_train_pair_norms(m, &ck->run.task, p.n, p.samples, RL_TRAIN_EVAL_SEED, v,
                               v + per, err);
    else {
      lg.logit = v, lg.logit_se = v + per;
      if (p.norot)
        lg.norot = v + 2 * per, lg.norot_se = v + 3 * per;
      st = rl_train_logit_dist(m, &ck->run.task, p.n, p.samples, RL_TRAIN_EVAL_SEED, &lg, err);
    }
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
  rl_out_meta_uint(&tab, "heads", c->heads);
  rl_out_meta_uint(&tab, "layers", c->layers);
  rl_out_meta(&tab, "measure", p.what);
  if (p.measure != RL_PROFILE_CK_BIAS) {
    rl_out_meta_uint(&tab, "samples", p.samples);
    rl_out_meta_uint(&tab, "eval_seed", RL_TRAIN_EVAL_SEED);
  }
  if (p.measure == RL_PROFILE_CK_LOGIT) {
    rl_out_meta_uint(&tab, "positions", lg.T);
    rl_out_meta(&tab, "examples", "samples examples of length train_len of the checkpoint's "
                                  "task drawn from eval_seed (train's test examples, the ones "
                                  "pair-norms reads), each of positions tokens; every position "
                                  "a query over the keys up to it");
    rl_out_meta(&tab, "versus", "profile without --checkpoint: the positional part alone "
                                "(total - cc) over random N(0, I) contents; here the whole "
                                "logit over the trained model's own queries and keys");
  }
  pc_rows(&tab, m, f, &p, v, per, &lg);
  r = rl_out_close(&tab);
done:
  free(v), free(ck);
  rl_schedule_free(f);
  rl_train_free(m);
  return r;
}

/* ---- extrapolate --checkpoint F ------------------------------------- */

/* the checkpoint read, the core's plan (rl_extrap_checkpoint_plan: the
 * lengths, the samples, the positions), the model read again for the
 * longest length's positions where it needs more, its rope table set; an
 * exit code */
static int ex_model(rl_cmd_run *r, const char *path, rl_ckpt *ck, rl_extrap_ckpt_plan *pl,
                    rl_train_model **m, rl_schedule **f)
{
  rl_extrap_settings *s = r->settings;
  const char *cmd = r->name;
  char err[RL_ERR_MAX] = "";
  rl_ckpt_read_opts ro = {0, (size_t)r->threads, 0};
  rl_status st = rl_ckpt_read_with(path, &ro, ck, m, err);
  if (!st) {
    pl->samples = rl_cmd_given(r, "samples") ? s->ex.samples : 0;
    if (rl_extrap_checkpoint_plan(s, ck, path, pl, err, sizeof err))
      return rl_usage(cmd, "%s", err);
    if (pl->max_T > ck->cfg.max_T) {
      rl_train_free(*m);
      *m = NULL;
      ro.max_T = pl->max_T;
      st = rl_ckpt_read_with(path, &ro, ck, m, err);
    }
  }
  if (st)
    return st == RL_EFORMAT || st == RL_EINVAL ? rl_usage(cmd, "%s", err)
                                               : rl_runtime(cmd, "%s", err);
  if (!rl_train_scheme_rope(ck->cfg.pos))
    return 0;
  rl_schedule_params tp;
  char text[RL_CKPT_TEXT_MAX];
  memcpy(text, ck->rope, sizeof text);
  if (rl_ckpt_sched_parse(text, &tp, err))
    return rl_usage(cmd, "invalid checkpoint '%s': its rope schedule: %s", path, err);
  int rc = rl_sched_build(&tp, cmd, f);
  return rc ? rc : rl_train_use_rope(cmd, *m, *f);
}

static void ex_meta(const rl_cmd_run *r, const char *path, const rl_ckpt *ck, size_t samples,
                    rl_out *out)
{
  const rl_extrap_settings *s = r->settings;
  const rl_train_cfg *c = &ck->cfg;
  rl_out_meta_begin(out);
  rl_out_meta(out, "checkpoint", path);
  rl_out_meta_uint(out, "checkpoint_step", ck->step);
  rl_out_meta(out, "scheme", rl_train_pos_names()[c->pos]);
  rl_out_meta(out, "task", rl_task_names()[ck->run.task.kind]);
  rl_out_meta_uint(out, "train_len", s->train_len);
  rl_out_meta_uint(out, "eval_len", s->eval_len);
  if (s->lens_note[0])
    rl_out_meta(out, "default_lengths", s->lens_note);
  rl_out_meta_uint(out, "layers", c->layers);
  rl_out_meta_uint(out, "heads", c->heads);
  rl_out_meta_uint(out, "samples", samples);
  rl_out_meta_uint(out, "eval_seed", RL_TRAIN_EVAL_SEED);
  if (rl_train_scheme_rope(c->pos))
    rl_out_meta(out, "rope", "the training schedule at every length (its table extended)");
  rl_out_meta(out, "examples", "samples examples of length len of the checkpoint's task "
                               "drawn from eval_seed (train's test examples), tokens positions "
                               "each; every position a query over the keys up to it");
  rl_out_meta(out, "entropy", "nats: -sum a ln a of a query's attention, mean over the tokens "
                              "positions of an example, then over the examples (se); max = the "
                              "same mean of ln(keys), the uniform attention's");
  rl_out_meta(out, "attention", "weight: the attention weight at distance r = query - key, "
                                "mean over the queries at or past r of an example, then over "
                                "the examples (se)");
  rl_out_header(out, "scheme,layer,head,measure,stat,len,tokens,r,value,se");
}

/* one row; se NULL for none */
static void ex_row(rl_out *out, const char *scheme, size_t l, size_t h, const char *measure,
                   const char *stat, const rl_train_attn *a, const char *rb, double v,
                   const double *se)
{
  char lb[32], hb[32], nb[32], tb[32], vb[RL_NUMFMT_MAX], sb[RL_NUMFMT_MAX] = "";
  snprintf(lb, sizeof lb, "%zu", l), snprintf(hb, sizeof hb, "%zu", h);
  snprintf(nb, sizeof nb, "%zu", a->n), snprintf(tb, sizeof tb, "%zu", a->T);
  rl_numfmt(v + 0.0, vb);
  if (se)
    rl_numfmt(*se + 0.0, sb);
  const char *f[] = {scheme, lb, hb, measure, stat, nb, tb, rb, vb, sb};
  rl_out_fields(out, f, sizeof f / sizeof *f);
}

static void ex_rows(rl_out *out, const rl_train_cfg *c, const rl_train_attn *a)
{
  const char *scheme = rl_train_pos_names()[c->pos];
  for (size_t l = 0; l < c->layers; l++)
    for (size_t h = 0; h < c->heads; h++) {
      size_t i = l * c->heads + h;
      ex_row(out, scheme, l, h, "entropy", "nats", a, "", a->ent[i], &a->ent_se[i]);
      ex_row(out, scheme, l, h, "entropy", "max", a, "", a->ent_max, NULL);
      for (size_t d = 0; d < a->T; d++) {
        char rb[32];
        snprintf(rb, sizeof rb, "%zu", d);
        ex_row(out, scheme, l, h, "attention", "weight", a, rb, a->dist[i * a->T + d],
               &a->dist_se[i * a->T + d]);
      }
    }
}

int rl_extrapolate_checkpoint(rl_cmd_run *r)
{
  rl_extrap_settings *s = r->settings;
  const char *cmd = r->name, *path = s->checkpoint;
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_train_model *m = NULL;
  rl_schedule *f = NULL;
  rl_sink sink = {0};
  rl_train_attn a = {0};
  rl_extrap_ckpt_plan pl = {0};
  rl_progress prog;
  char err[RL_ERR_MAX] = "";
  if (!ck)
    return rl_runtime(cmd, "out of memory");
  int rc = ex_model(r, path, ck, &pl, &m, &f);
  if (rc)
    goto done;
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t LH = c->layers * c->heads, T = pl.max_T, samples = pl.samples;
  a.ent = malloc(LH * sizeof *a.ent), a.ent_se = malloc(LH * sizeof *a.ent_se);
  a.dist = malloc(LH * T * sizeof *a.dist), a.dist_se = malloc(LH * T * sizeof *a.dist_se);
  if (!a.ent || !a.ent_se || !a.dist || !a.dist_se) {
    rc = rl_runtime(cmd, "out of memory");
    goto done;
  }
  if ((rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  ex_meta(r, path, ck, samples, &sink.out);
  /* attention pairs x layers x examples x d_model: shown past 1e9 */
  double work = 0;
  for (size_t k = 0; k < s->nlens; k++) {
    double t = (double)rl_task_len(&ck->run.task, s->lens[k]);
    work += t * t * (double)c->layers * (double)samples * (double)c->d_model;
  }
  rl_progress_init(&prog, cmd, r->co.progress, s->nlens, work > 1e9);
  for (size_t k = 0; k < s->nlens && !sink.out.err; k++) {
    rl_status st = rl_train_attention(m, &ck->run.task, s->lens[k], samples, RL_TRAIN_EVAL_SEED,
                                      &a, err);
    if (st) {
      /* the line ended before the error; a length the model or the
       * task cannot take is the input's (exit 2) */
      rl_progress_stop(&prog);
      rc = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : rl_usage(cmd, "%s", err);
      goto done;
    }
    ex_rows(&sink.out, c, &a);
    rl_progress_update(&prog, k + 1);
  }
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  free(a.ent), free(a.ent_se), free(a.dist), free(a.dist_se);
  free(ck);
  rl_schedule_free(f);
  rl_train_free(m);
  return rc;
}
