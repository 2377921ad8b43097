/* run.c: the training procedure (train_run.h, rl_train_run_steps; issue
 * 34: the core owns it, `ropelab train` parses, calls and writes): the
 * batches drawn from their own stream, the lr schedule per step, the
 * stop on divergence with its message, the curve's cadence and the
 * checkpoints' cadence.  What is written, shown and caught (the curve,
 * progress, the checkpoint file, signals) is the caller's, by callbacks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "ropelab.h"

void rl_train_steps_data(rl_train_rng *data, uint64_t seed)
{
  rl_train_rng_seed(data, seed ^ RL_TRAIN_DATA_STREAM);
}

/* The stopping message of a diverged step (1-based, as the curve counts):
 * the first non-finite activation, else the first non-finite gradient. */
static rl_status diverged(const rl_train_steps *s, size_t step, double loss, double gn,
                          int after_update, char *err)
{
  char where[128];
  if (!after_update) {
    if (rl_train_find_nonfinite(s->m, where, sizeof where))
      snprintf(err, RL_ERR_MAX,
               "training diverged at step %zu: loss %g, first non-finite value in %s", step,
               loss, where);
    else
      snprintf(err, RL_ERR_MAX,
               "training diverged at step %zu: loss %g above --max-loss %g (every activation "
               "finite)", step, loss, s->max_loss);
  } else if (rl_train_find_nonfinite_params(s->m, 1, where, sizeof where)) {
    snprintf(err, RL_ERR_MAX,
             "training diverged at step %zu: loss %g, gradient norm %g, first non-finite "
             "gradient in %s", step, loss, gn, where);
  } else {
    snprintf(err, RL_ERR_MAX, "training diverged at step %zu: loss %g, gradient norm %g", step,
             loss, gn);
  }
  return RL_ERANGE;
}

rl_status rl_train_run_steps(rl_train_steps *s, int *cb_rc, char *err)
{
  size_t B = s->batch, T = s->train_T, N = B * T, since = 0;
  size_t stop_at = s->stop_after ? s->start + s->stop_after : SIZE_MAX;
  double sum = 0;
  int saved = 1; /* the checkpoint on disk holds the state of `step` */
  *cb_rc = 0;
  int *inp = malloc(N * sizeof *inp), *tgt = malloc(N * sizeof *tgt);
  if (!inp || !tgt) {
    free(inp), free(tgt);
    return RL_ENOMEM;
  }
  rl_status st = RL_OK;
  for (; s->step < s->steps && !(s->stop && s->stop(s->ctx)) && s->step < stop_at; s->step++) {
    size_t step = s->step;
    if (step + 1 == s->poison_at && s->poison_i < rl_train_nparams(s->m))
      rl_train_params(s->m)[s->poison_i] = NAN;
    for (size_t b = 0; b < B; b++)
      rl_task_example(s->task, &s->data, 1 + rl_train_rng_below(&s->data, s->train_len), T,
                      inp + b * T, tgt + b * T);
    double lr = rl_train_lr(step, s->steps, s->warmup, s->lr, s->min_lr);
    rl_train_zero_grad(s->m);
    double loss = s->loss = rl_train_forward(s->m, inp, tgt, B, T), gn = 0;
    int bad = !isfinite(loss) || loss > s->max_loss, after = 0;
    if (!bad) {
      rl_train_backward(s->m);
      gn = rl_train_update(s->m, &s->opt, lr);
      bad = after = !isfinite(gn);
    }
    if (bad) {
      st = diverged(s, step + 1, loss, gn, after, err);
      break;
    }
    saved = 0;
    s->tokens += N, sum += loss, since++;
    if (s->row && (since == s->log_every || step + 1 == s->steps)) {
      rl_train_step_row row = {step + 1, lr, sum / (double)since, gn, s->tokens};
      s->row(s->ctx, &row);
      sum = 0, since = 0;
    }
    if (!s->row && since == s->log_every)
      sum = 0, since = 0;
    if (s->progress)
      s->progress(s->ctx, step + 1, loss);
    if (s->save && ((step + 1) % s->checkpoint_every == 0 || step + 1 == s->steps)) {
      if ((*cb_rc = s->save(s->ctx, &s->data)))
        break;
      saved = 1;
    }
  }
  free(inp), free(tgt);
  if (!st && !*cb_rc && s->save && !saved)
    *cb_rc = s->save(s->ctx, &s->data);
  return st;
}
