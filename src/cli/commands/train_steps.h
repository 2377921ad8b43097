/* train_steps.h: `ropelab train`'s run once its model is built: the
 * optimiser steps with their curve, progress, checkpoints, divergence
 * and interruption (train_steps.c), and the scored table with its
 * metadata (train_table.c).  cmd_train.c builds the job and calls them. */
#ifndef RL_CLI_TRAIN_STEPS_H
#define RL_CLI_TRAIN_STEPS_H

#include <stddef.h>
#include "driver.h"
#include "out.h"
#include "ropelab.h"

typedef struct rl_train_job {
  const rl_cmd_run *r;           /* the command's parsed options (r->sched: the scoring schedule) */
  const rl_train_settings *a;    /* r->settings */
  rl_task task;
  size_t train_T, eval_T;        /* positions of the longest training and test examples */
  rl_train_model *m;
  rl_ckpt *ck, *old;             /* the checkpoint written; the one resumed (or NULL) */
  rl_schedule *train_f, *eval_f; /* rope: training and scoring schedules (else NULL) */
  /* the scoring schedule's options: r->sched.p without its train-len.
   * Scoring's original context is train's own (its --train-len shadows
   * the schedule's): a --config's is another model's, in the metadata
   * only; the core's rule (rl_extrap_length_params) gives train_T */
  rl_schedule_params score_p;
  int show;                      /* progress on stderr */
  size_t start, step;            /* the step this process began at; steps done */
  size_t tokens;                 /* positions of the batches run */
  double loss, wall, cpu, flops; /* the last step's loss; this process's training time */
} rl_train_job;

/* The steps from j->start to --steps (or the interruption, or
 * --stop-after), the curve to -o, checkpoints to --checkpoint: an exit
 * code (messages printed; 128 + the signal when interrupted); j->step is
 * the steps done. */
int rl_train_steps_run(rl_train_job *j);

/* The metadata of a run (the settings, the optimiser, the model's size,
 * the scoring schedule) into o: its first lines. */
void rl_train_job_meta(rl_out *o, const rl_train_job *j);
/* The scored table of a finished run (--eval-output, or standard
 * output): its metadata with the training's timing, then a row per
 * scoring method and test length 1..--eval-len; an exit code. */
int rl_train_table(rl_train_job *j);

#endif
