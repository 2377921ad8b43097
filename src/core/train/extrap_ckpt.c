/* extrap_ckpt.c: the plan of `ropelab extrapolate --checkpoint F`
 * (train_run.h; issue 34: the core owns it, the command parses, calls and
 * writes): L and N the checkpoint's (N: --eval-len where given), at most
 * 1024 and the task's distinct keys, the lengths by extrapolate's own
 * plan, the samples, and the positions the model is built for by
 * evaluate's rule (rl_eval_plan_positions: a learned table has only its
 * rows). */
#include <stdio.h>
#include "ropelab.h"
#include "../base/internal.h"

rl_status rl_extrap_checkpoint_plan(rl_extrap_settings *s, const rl_ckpt *ck, const char *path,
                                    rl_extrap_ckpt_plan *p, char *err, size_t n)
{
  const rl_task *task = &ck->run.task;
  size_t keys = rl_task_max_n(task);
  size_t most = keys < RL_EVAL_LENS_MAX ? keys : RL_EVAL_LENS_MAX;
  s->train_len = (size_t)ck->run.train_len;
  int own = !s->eval_len; /* N the checkpoint's, not the user's */
  if (own)
    s->eval_len = (size_t)ck->run.eval_len;
  if (s->eval_len > most) {
    if (own)
      return rl_errf(RL_EINVAL, err, n,
                     "invalid --checkpoint '%s': its eval_len '%zu' is past what task %s "
                     "measures here: expected --eval-len at most %zu",
                     path, s->eval_len, rl_task_names()[task->kind], most);
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --eval-len '%zu' for task %s: expected at most %zu with "
                   "--checkpoint", s->eval_len, rl_task_names()[task->kind], most);
  }
  for (size_t k = 0; (s->given & RL_EXG_LENS) && k < s->nlens; k++)
    if (s->lens[k] > s->eval_len)
      return rl_errf(RL_EINVAL, err, n,
                     "invalid --lengths '%s': length %zu is past the longest, %zu (%s)",
                     s->lens_arg, s->lens[k], s->eval_len,
                     own ? "the checkpoint's eval_len" : "--eval-len");
  int bad_scale;
  size_t bad_len;
  rl_extrap_plan(s, NULL, &bad_scale, &bad_len); /* no scale: nothing to refuse */
  p->maxn = s->lens[s->nlens - 1];
  if (!p->samples)
    p->samples = (size_t)ck->run.eval_samples;
  return rl_eval_plan_positions(ck, p->maxn, &p->max_T, err, n);
}
