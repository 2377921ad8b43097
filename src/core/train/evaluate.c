/* evaluate.c: what `ropelab evaluate CHECKPOINT` is asked, declared once
 * (train_run.h, "evaluate's request and plan"), and its plan: the test
 * lengths, the examples per length, the positions the model is built for
 * and the scoring schedule, from the request and the checkpoint.  The
 * defaults are the checkpoint's where the user gives none; the schedule's
 * length parameters follow the one rule of rl_extrap_length_params. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

#define F(f) offsetof(rl_eval_settings, f)

/* --eval-len: the text as given, read by rl_eval_lengths after parsing
 * (its messages come after the options', as they always did) */
static rl_status keep_text(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)err, (void)n;
  *(const char **)((char *)obj + d->offset) = arg;
  return RL_OK;
}
static int format_text(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const char *t = *(const char *const *)((const char *)obj + d->offset);
  return snprintf(buf, n, "%s", t ? t : "");
}
static void reset_text(const rl_param *d, void *obj)
{
  *(const char **)((char *)obj + d->offset) = NULL;
}

/* --config and --layer-type: a model file's RoPE would replace the
 * model's own (its base, dim, layout); the scoring method is --method's */
static rl_status refuse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)obj;
  return rl_errf(RL_EINVAL, err, n,
                 "invalid --%s '%s': the checkpoint's rope schedule is the model's; give the "
                 "scoring method with --method and its options", d->key, arg);
}

static const rl_param p_eval_len = {
    .key = "eval-len", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_BORROWED,
    .offset = F(eval_len), .metavar = "N[,..]", .symbol = "N", .unit = "tokens",
    .dflt_text = "the checkpoint's --eval-len",
    .help = "one length: every length 1..N (train's rows); several (a list or "
            "START:STOP:STEP): those",
    .expect = "whole numbers from 1 to 1024",
    .parse = keep_text, .format = format_text, .reset = reset_text};
static const rl_param p_threads = {
    .key = "threads", .kind = RL_PK_SIZE, .flags = RL_PF_NO_SWEEP, .offset = F(threads),
    .lo = 1, .hi = 64, .dflt = 0, .metavar = "T", .dflt_text = "online processors",
    .help = "threads of the forward passes; the same bytes for every T"};
static const rl_param p_no_baseline = {
    .key = "no-baseline", .kind = RL_PK_FLAG, .offset = F(no_baseline), .set_to = 1,
    .help = "no rope rows before another method's: train's table holds them (the same "
            "model, examples and bits), so a second method need not score them again"};
static const rl_param p_config = {
    .key = "config", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = F(refused), .metavar = "FILE", .help = "refused: the model's rope is its own",
    .parse = refuse, .format = format_text, .reset = reset_text};
static const rl_param p_layer_type = {
    .key = "layer-type", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = F(refused), .metavar = "T", .help = "refused: the model's rope is its own",
    .parse = refuse, .format = format_text, .reset = reset_text};

static const rl_param *const eval_params[] = {&p_eval_len, &p_threads, &p_no_baseline, NULL};
static const rl_param *const refused_params[] = {&p_config, &p_layer_type, NULL};

const rl_param *const *rl_eval_param_list(void) { return eval_params; }

const rl_param *const *rl_eval_help_param_list(void)
{
  /* train's --eval-samples as declared, its default evaluate's own (the
   * checkpoint's), among evaluate's rows in the order of the help */
  static rl_param samples;
  static const rl_param *list[] = {&p_eval_len, &samples, &p_threads, &p_no_baseline, NULL};
  samples = *rl_train_eval_param_list()[0];
  samples.dflt_text = "the checkpoint's";
  return list;
}
const rl_param *const *rl_eval_refused_param_list(void) { return refused_params; }

void rl_eval_settings_default(rl_eval_settings *s)
{
  memset(s, 0, sizeof *s);
  for (const rl_param *const *d = eval_params; *d; d++)
    rl_param_set_default(*d, s);
  /* train's --eval-samples: 0 until given, then the checkpoint's */
  s->train.eval_samples = 0;
}

rl_status rl_eval_lengths(rl_eval_settings *s, char *err, size_t n)
{
  double *v = NULL;
  size_t nv = 0;
  s->nwant = 0;
  if (!s->eval_len)
    return RL_OK;
  rl_status st = rl_values_parse(s->eval_len, RL_EVAL_LENS_MAX, &v, &nv, err, n);
  if (st)
    return st;
  for (size_t i = 0; i < nv; i++) {
    if (!(v[i] >= 1 && v[i] <= RL_EVAL_LENS_MAX && v[i] == floor(v[i]))) {
      free(v);
      return rl_errf(RL_EINVAL, err, n, "expected %s", p_eval_len.expect);
    }
    s->want[i] = (size_t)v[i];
  }
  s->nwant = nv;
  free(v);
  return RL_OK;
}

rl_status rl_eval_plan_positions(const rl_ckpt *ck, size_t maxn, size_t *max_T, char *err,
                                 size_t n)
{
  /* the model is built for the longest test example */
  *max_T = rl_task_len(&ck->run.task, maxn);
  if (*max_T > ck->cfg.max_T && rl_train_scheme_fixed_rows(ck->cfg.pos))
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --eval-len '%zu': a learned position table has the %zu rows it "
                   "was trained with, length %zu reads %zu positions",
                   maxn, ck->cfg.max_T, maxn, *max_T);
  return RL_OK;
}

rl_status rl_eval_plan_lengths(const rl_eval_settings *s, const rl_ckpt *ck, rl_eval_plan *p,
                               char *err, size_t n)
{
  const rl_task *task = &ck->run.task;
  /* one length N: 1..N, train's rows; several: those; none: the checkpoint's */
  size_t nw = s->nwant;
  p->n = nw > 1 ? nw : nw == 1 ? s->want[0] : (size_t)ck->run.eval_len;
  p->maxn = 0;
  free(p->lens);
  if (!(p->lens = malloc((p->n ? p->n : 1) * sizeof *p->lens)))
    return RL_ENOMEM;
  for (size_t i = 0; i < p->n; i++) {
    p->lens[i] = nw > 1 ? s->want[i] : i + 1;
    if (p->lens[i] > p->maxn)
      p->maxn = p->lens[i];
  }
  if (p->maxn > rl_task_max_n(task))
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --eval-len '%zu' for task %s: expected at most %zu (distinct keys)",
                   p->maxn, rl_task_names()[task->kind], rl_task_max_n(task));
  rl_status st = rl_eval_plan_positions(ck, p->maxn, &p->max_T, err, n);
  if (st)
    return st;
  p->samples = s->train.eval_samples ? s->train.eval_samples : (size_t)ck->run.eval_samples;
  p->train_T = rl_task_len(task, (size_t)ck->run.train_len);
  p->rope = rl_train_scheme_rope(ck->cfg.pos);
  return RL_OK;
}

rl_status rl_eval_plan_schedules(const rl_ckpt *ck, const char *path,
                                 const rl_schedule_params *given, rl_eval_plan *p, char *err,
                                 size_t n)
{
  char e[RL_ERR_MAX] = "";
  if (!p->rope) {
    if (given)
      return rl_errf(RL_EINVAL, err, n,
                     "invalid schedule options for a %s model: only rope takes them",
                     rl_train_pos_names()[ck->cfg.pos]);
    return RL_OK;
  }
  /* the texts outlive the parameters (file names point into them) */
  memcpy(p->rope_text, ck->rope, sizeof p->rope_text);
  memcpy(p->eval_text, ck->eval, sizeof p->eval_text);
  if (rl_ckpt_sched_parse(p->rope_text, &p->tp, e))
    return rl_errf(RL_EINVAL, err, n, "invalid checkpoint '%s': its rope schedule: %s", path, e);
  if (!given) {
    /* no schedule options: the method train was given, at train's own
     * original context (a --config's, in the text, was another model's:
     * train scored at its own, and so does this) */
    if (rl_ckpt_sched_parse(p->eval_text, &p->sp, e))
      return rl_errf(RL_EINVAL, err, n, "invalid checkpoint '%s': its scoring schedule: %s",
                     path, e);
    p->score = p->sp;
    rl_schedule_unset(&p->score, "train-len");
    return RL_OK;
  }
  /* the options given, over the model's own rope (dim, rot, base,
   * layout); the length parameters the user left out come from the
   * checkpoint where the schedule is built (rl_extrap_length_params) */
  p->sp = *given;
  p->sp.dim = p->tp.dim, p->sp.rot = p->tp.rot, p->sp.base = p->tp.base;
  p->sp.layout = p->tp.layout;
  p->score = p->sp;
  return RL_OK;
}

void rl_eval_plan_free(rl_eval_plan *p)
{
  free(p->lens);
  p->lens = NULL;
}
