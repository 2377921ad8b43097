/* train_table.c: what `ropelab train` writes of a run (train_steps.h):
 * its metadata, and once the steps are done the scored table, a row per
 * scoring method and test length (train_score.c), after the training's
 * timing. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "msg.h"
#include "train_score.h"
#include "train_steps.h"

void rl_train_job_meta(rl_out *o, const rl_train_job *j)
{
  rl_out_meta_begin(o);
  rl_cmd_meta(j->r, o);
  rl_out_meta(o, "optimizer", "adamw beta1=0.9 beta2=0.99 eps=1e-8 weight_decay=0.1 clip=1");
  /* what --dtype (dtype= above) keeps in float64 (train.h) */
  rl_out_meta(o, "master_weights", "float64");
  rl_out_meta(o, "adamw_moments", "float64");
  rl_out_meta_uint(o, "parameters", rl_train_nparams(j->m));
  rl_out_meta_uint(o, "memory_bytes", rl_train_bytes(j->m));
  rl_out_meta_uint(o, "eval_seed", RL_TRAIN_EVAL_SEED);
  rl_out_meta(o, "blas", rl_train_blas_name());
  rl_out_meta(o, "blas_core", rl_train_blas_core());
  if (j->train_f) /* rope: the scoring schedule */
    rl_train_sched_meta(o, &j->r->sched.p, j->eval_f, j->train_T);
}

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the training's time, speed and end in the table's metadata */
static void timing_meta(rl_out *tab, const rl_train_job *j)
{
  const rl_train_settings *a = j->a;
  double wall = j->wall, flops = j->flops;
  if (j->start)
    rl_out_meta_uint(tab, "resumed_at_step", j->start);
  rl_out_meta_num(tab, "train_wall_s", wall);
  rl_out_meta_num(tab, "train_cpu_s", j->cpu);
  rl_out_meta_num(tab, "train_tokens", (double)j->tokens);
  rl_out_meta_num(tab, "train_tokens_per_s", wall > 0 ? (double)j->tokens / wall : 0.0);
  rl_out_meta_num(tab, "train_flops", flops);
  rl_out_meta_num(tab, "train_flop_per_s", wall > 0 ? flops / wall : 0.0);
  if (a->peak_seconds > 0) {
    /* the same build's dgemm (float32: sgemm; n = 256) on as many
     * threads, now, under the same load as the run */
    double peak = rl_train_peak_flops_dtype(256, a->threads, a->peak_seconds, a->dtype);
    rl_out_meta_num(tab, a->dtype == RL_TDTYPE_FLOAT32 ? "peak_sgemm_flop_per_s"
                                                        : "peak_dgemm_flop_per_s", peak);
    rl_out_meta_num(tab, "train_flop_fraction_of_peak",
                    peak > 0 && wall > 0 ? flops / wall / peak : 0.0);
  }
  if (j->step > j->start) /* a resume of a finished run took no step */
    rl_out_meta_num(tab, "final_loss", j->loss);
}

int rl_train_table(rl_train_job *j)
{
  const rl_train_settings *a = j->a;
  const char *cmd = j->r->name;
  rl_out tab = {0};
  int rc = rl_out_open(&tab, cmd, a->eval_output, j->r->co.meta, j->r->co.header);
  if (rc)
    return rc;
  rl_train_job_meta(&tab, j);
  timing_meta(&tab, j);
  double e0 = mono();
  size_t *lens = malloc(a->eval_len * sizeof *lens);
  if (!lens) {
    rl_out_abort(&tab);
    return rl_runtime(cmd, "out of memory");
  }
  /* every test length 1..--eval-len */
  for (size_t n = 1; n <= a->eval_len; n++)
    lens[n - 1] = n;
  rl_train_score sc = {&j->task, (size_t)a->train_len, lens, (size_t)a->eval_len,
                       (size_t)a->eval_samples, j->train_f,
                       j->train_f ? &j->score_p : NULL, 0, j->show};
  rc = rl_train_score_rows(cmd, &tab, j->m, &sc);
  free(lens);
  if (rc) {
    rl_out_abort(&tab);
    return rc;
  }
  rc = rl_out_close(&tab);
  if (j->show && !rc)
    fprintf(stderr,
            "ropelab train: %zu steps in %.1f s wall, %.1f s CPU, %.0f tokens/s, %.3g FLOP/s; "
            "scoring %.1f s\n",
            a->steps - j->start, j->wall, j->cpu, j->wall > 0 ? (double)j->tokens / j->wall : 0.0,
            j->wall > 0 ? j->flops / j->wall : 0.0, mono() - e0);
  return rc;
}
