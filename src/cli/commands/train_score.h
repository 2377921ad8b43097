/* train_score.h: the length-generalisation table of `train` and
 * `evaluate` (train_score.c): one row per scoring schedule and test
 * length, the same columns for both commands. */
#ifndef RL_CLI_TRAIN_SCORE_H
#define RL_CLI_TRAIN_SCORE_H

#include <stddef.h>
#include "out.h"
#include "ropelab.h"

#define RL_TRAIN_SCORE_HEADER "method,len,in_dist,exact,token_acc,loss,samples"
/* The test examples' seed: one set of examples for every model and
 * training seed, so tables of different runs compare like for like. */
#define RL_TRAIN_EVAL_SEED 0x5eedu

/* The scoring schedule: sp's method with the core's length rule
 * (rl_extrap_length_params): the training context train_T as its original
 * length and, for methods that depend on the current length, seq_len =
 * max(T, train_T) positions, each unless given (a --train-len given to
 * evaluate wins); the method's own factor unless given.  An exit code. */
int rl_train_eval_schedule(const char *cmd, const rl_schedule_params *sp, size_t train_T,
                           size_t T, rl_schedule **f);
/* rl_train_set_rope with the CLI's messages: an exit code. */
int rl_train_use_rope(const char *cmd, rl_train_model *m, const rl_schedule *f);

typedef struct rl_train_score {
  const rl_task *task;
  size_t train_len;        /* in_dist = len <= train_len */
  const size_t *lens;      /* the test lengths, n of them */
  size_t n, samples;
  /* rope: the training schedule (pass "rope") and the scoring method's
   * parameters (a second pass unless plain rope); NULL otherwise */
  const rl_schedule *train_f;
  const rl_schedule_params *sp;
  /* no "rope" pass before another method's: evaluate's sweep points,
   * which score one model again and again (the baseline is the point
   * whose --method is rope, once) */
  int no_baseline;
  /* progress and an estimate of the time left on stderr while scoring */
  int show;
} rl_train_score;
/* Whether scoring shows its progress: --progress, or a terminal on
 * stderr unless --quiet (progress is co.progress). */
int rl_train_score_show(int progress);
/* The scoring schedule's metadata (rl_sched_meta), and for a method
 * other than plain rope the original context it was built with where it
 * takes one:
 * schedule_train_len = the original context f was built with: train_T,
 * the positions of train's longest example (the task's train_len counts
 * symbols, not positions), unless evaluate was given --train-len, and for
 * a method that follows the current length, schedule_seq_len = "the
 * test example's positions". */
void rl_train_sched_meta(rl_out *tab, const rl_schedule_params *sp, const rl_schedule *f,
                         size_t train_T);
/* Header and rows into tab (opened, metadata written): an exit code.  The
 * model is left with the training schedule. */
int rl_train_score_rows(const char *cmd, rl_out *tab, rl_train_model *m, const rl_train_score *s);

#endif
