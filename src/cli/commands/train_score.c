/* train_score.c: the length-generalisation table shared by `train` and
 * `evaluate` (train_score.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "opt.h"
#include "progress.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "train_score.h"

int rl_train_eval_schedule(const char *cmd, const rl_schedule_params *sp, size_t train_T,
                           size_t T, rl_schedule **f)
{
  rl_schedule_params p = *sp;
  /* the core's one rule: train_T and T where not given, the method's own factor */
  rl_extrap_length_params(&p, train_T, 0, T);
  return rl_sched_build(&p, cmd, f);
}

int rl_train_use_rope(const char *cmd, rl_train_model *m, const rl_schedule *f)
{
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_train_set_rope(m, f, err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory");
  return st ? rl_usage(cmd, "%s", err) : 0;
}

int rl_train_score_show(int progress)
{
  return progress == RL_PROGRESS_FORCE || (progress == RL_PROGRESS_AUTO && isatty(2));
}

void rl_train_sched_meta(rl_out *tab, const rl_schedule_params *sp, const rl_schedule *f,
                         size_t train_T)
{
  rl_sched_meta(sp, f, tab);
  rl_schedule_params plain;
  rl_schedule_params_default(&plain);
  if (sp->method == plain.method)
    return; /* plain RoPE's table has no original length */
  /* the original context the schedule was built with: train_T unless
   * evaluate was given --train-len (rl_extrap_length_params) */
  if (sp->method->uses & RL_SP_TRAIN_LEN)
    rl_out_meta_num(tab, "schedule_train_len", f ? f->p.train_len : (double)train_T);
  if ((sp->method->uses & RL_SP_SEQ_LEN) &&
      !rl_schedule_param_given(sp, rl_schedule_param_find("seq-len")))
    rl_out_meta(tab, "schedule_seq_len", "the test example's positions");
}

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Scoring's progress: the work done counted in positions (samples x
 * positions of each length), the estimate from the rate so far; redrawn
 * at most four times a second, and once at the end. */
typedef struct score_progress {
  int on;
  const char *cmd;
  double total, done, t0, last;
} score_progress;

static void score_progress_show(score_progress *p, const char *method, size_t n, int end)
{
  if (!p->on)
    return;
  double t = mono();
  if (!end && t - p->last < 0.25)
    return;
  p->last = t;
  double el = t - p->t0, frac = p->total > 0 ? p->done / p->total : 1;
  fprintf(stderr, "\rropelab %s: scoring %s len %zu (%3d%%), %.0f s, ETA %.0f s   ", p->cmd,
          method, n, (int)(100 * frac), el, frac > 0 ? el * (1 - frac) / frac : 0.0);
  if (end)
    fputc('\n', stderr);
  fflush(stderr);
}

int rl_train_score_rows(const char *cmd, rl_out *tab, rl_train_model *m, const rl_train_score *s)
{
  const rl_task *task = s->task;
  int rope = s->train_f != NULL, r = 0;
  /* one pass when the scoring method is the one the model trained with */
  int plain = !rope || s->sp->method == s->train_f->type;
  size_t train_T = rl_task_len(task, s->train_len), maxn = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->lens[i] > maxn)
      maxn = s->lens[i];
  rl_schedule *eval_f = NULL;
  rl_out_header(tab, RL_TRAIN_SCORE_HEADER);
  if (rl_out_capturing())
    return 0; /* a sweep's first pass takes the header: scoring it would be thrown away */
  int first = !plain && s->no_baseline, passes = plain ? 1 : 2;
  score_progress pr = {s->show, cmd, 0, 0, mono(), 0};
  for (size_t i = 0; i < s->n; i++)
    pr.total += (double)(passes - first) * (double)s->samples * (double)rl_task_len(task, s->lens[i]);
  const char *mname = "-";
  size_t lastn = 0;
  for (int pass = first; pass < passes && !r; pass++) {
    mname = !rope ? "-" : pass ? s->sp->method->name : s->train_f->type->name;
    if (pass && ((r = rl_train_eval_schedule(cmd, s->sp, train_T, rl_task_len(task, maxn), &eval_f)) ||
                 (r = rl_train_use_rope(cmd, m, eval_f))))
      break;
    for (size_t i = 0; i < s->n && !r; i++) {
      size_t n = s->lens[i];
      if (pass && (s->sp->method->uses & RL_SP_SEQ_LEN)) {
        /* the current length changes the schedule (dynamic, longrope) */
        rl_schedule_free(eval_f);
        eval_f = NULL;
        if ((r = rl_train_eval_schedule(cmd, s->sp, train_T, rl_task_len(task, n), &eval_f)) ||
            (r = rl_train_use_rope(cmd, m, eval_f)))
          break;
      }
      score_progress_show(&pr, mname, n, 0);
      rl_train_eval ev;
      char err[RL_ERR_MAX] = "";
      rl_status st = rl_train_evaluate(m, task, n, s->samples, RL_TRAIN_EVAL_SEED, &ev, err);
      if (st) {
        r = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : rl_usage(cmd, "%s", err);
        break;
      }
      char b[6][RL_NUMFMT_MAX];
      snprintf(b[0], sizeof b[0], "%zu", n);
      rl_numfmt(ev.exact, b[1]);
      rl_numfmt(ev.token_acc, b[2]);
      rl_numfmt(ev.loss, b[3]);
      snprintf(b[4], sizeof b[4], "%zu", ev.samples);
      const char *fld[7] = {mname, b[0], n <= s->train_len ? "1" : "0", b[1], b[2], b[3], b[4]};
      rl_out_fields(tab, fld, 7);
      pr.done += (double)s->samples * (double)rl_task_len(task, n);
      lastn = n;
    }
  }
  if (!r)
    score_progress_show(&pr, mname, lastn, 1);
  else if (pr.on && pr.last > 0)
    fputc('\n', stderr);
  rl_schedule_free(eval_f);
  if (!r && rope && !plain)
    r = rl_train_use_rope(cmd, m, s->train_f);
  return r;
}
