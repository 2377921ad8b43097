/* cmd_evaluate.c: `ropelab evaluate CHECKPOINT`, a model `train` wrote
 * scored again, for rope under another context-extension method or
 * factor, without retraining (issue 18).  Its settings and plan are the
 * core's (src/core/train/evaluate.c: the lengths, the samples, the
 * schedules; the schedule's length parameters by the core's one rule,
 * rl_extrap_length_params, where a value the user gives wins over the
 * checkpoint's); this file is the declaration (cmd.h) and a compute()
 * that reads the checkpoint, calls the plan and the scoring and writes.
 *
 * Sweep columns: as for every command (sweep.h), the swept options go in
 * front in the order given, but for a swept option that is a column of
 * the table itself (method), which stays in its place (bound's dim and
 * base do the same): `--method linear,ntk --factor 2,3` and `--factor
 * 2,3 --method linear,ntk` both write factor,method,len,...; the points
 * run in the order given. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "out.h"
#include "threads.h"
#include "train_score.h"

static int any_given(const rl_schedule_params *p)
{
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (rl_schedule_param_given(p, *d))
      return 1;
  return 0;
}

static int check(rl_cmd_run *r)
{
  rl_eval_settings *s = r->settings;
  char err[RL_ERR_MAX];
  rl_status st = rl_eval_lengths(s, err, sizeof err);
  if (st == RL_ENOMEM)
    return rl_runtime(r->name, "out of memory reading --eval-len");
  if (st)
    return rl_usage(r->name, "invalid --eval-len '%s': %s", s->eval_len, err);
  if (!s->threads)
    s->threads = (size_t)rl_online_cpus(RL_THREADS_MAX);
  return 0;
}

/* the checkpoint, the plan's lengths, and the model again for the
 * longest test length where it needs more positions than it was built for */
static int load(rl_cmd_run *r, rl_ckpt *ck, rl_train_model **m, rl_eval_plan *pl)
{
  const rl_eval_settings *s = r->settings;
  const char *path = r->args[0];
  char err[RL_ERR_MAX] = "";
  rl_ckpt_read_opts ro = {0, s->threads, 0};
  rl_status st = rl_ckpt_read_with(path, &ro, ck, m, err);
  if (!st) {
    rl_status ps = rl_eval_plan_lengths(s, ck, pl, err, sizeof err);
    if (ps)
      return ps == RL_ENOMEM ? rl_runtime(r->name, "out of memory") : rl_usage(r->name, "%s", err);
    if (pl->max_T > ck->cfg.max_T) {
      rl_train_free(*m);
      *m = NULL;
      ro.max_T = pl->max_T;
      st = rl_ckpt_read_with(path, &ro, ck, m, err);
    }
  }
  if (st)
    return st == RL_EFORMAT || st == RL_EINVAL ? rl_usage(r->name, "%s", err)
                                               : rl_runtime(r->name, "%s", err);
  return 0;
}

/* the plan's schedules, each built and tried on the model before any
 * output (a scoring schedule the model cannot take is refused up front) */
static int schedules(rl_cmd_run *r, const rl_ckpt *ck, rl_train_model *m, rl_eval_plan *pl,
                     rl_schedule **train_f, rl_schedule **probe)
{
  char err[RL_ERR_MAX];
  const rl_schedule_params *given = any_given(&r->sched.p) ? &r->sched.p : NULL;
  if (rl_eval_plan_schedules(ck, r->args[0], given, pl, err, sizeof err))
    return rl_usage(r->name, "%s", err);
  int rc = 0;
  if (pl->rope &&
      ((rc = rl_sched_build(&pl->tp, r->name, train_f)) ||
       (rc = rl_train_use_rope(r->name, m, *train_f)) ||
       (rc = rl_train_eval_schedule(r->name, &pl->score, pl->train_T, pl->max_T, probe)) ||
       (rc = rl_train_use_rope(r->name, m, *probe)) ||
       (rc = rl_train_use_rope(r->name, m, *train_f))))
    return rc;
  return 0;
}

static void meta(rl_cmd_run *r, rl_out *tab, const rl_ckpt *ck, const rl_eval_plan *pl,
                 const rl_schedule *probe)
{
  rl_out_meta_begin(tab);
  rl_out_meta(tab, "checkpoint", r->args[0]);
  rl_out_meta_uint(tab, "checkpoint_step", ck->step);
  rl_out_meta(tab, "scheme", rl_train_pos_names()[ck->cfg.pos]);
  rl_out_meta(tab, "task", rl_task_names()[ck->run.task.kind]);
  rl_out_meta_uint(tab, "symbols", ck->run.task.symbols);
  rl_out_meta_uint(tab, "train_len", ck->run.train_len);
  rl_out_meta_uint(tab, "steps", ck->run.steps);
  rl_out_meta_uint(tab, "seed", ck->cfg.seed);
  rl_out_meta_uint(tab, "d_model", ck->cfg.d_model);
  rl_out_meta_uint(tab, "heads", ck->cfg.heads);
  rl_out_meta_uint(tab, "layers", ck->cfg.layers);
  rl_out_meta_uint(tab, "eval_samples", pl->samples);
  rl_out_meta_uint(tab, "eval_seed", RL_TRAIN_EVAL_SEED);
  char v[256];
  if (rl_ckpt_text_get(ck->prov, "version", v, sizeof v))
    rl_out_meta(tab, "trained_by", v);
  if (rl_ckpt_text_get(ck->prov, "started", v, sizeof v))
    rl_out_meta(tab, "trained_started", v);
  rl_out_meta(tab, "blas", rl_train_blas_name());
  rl_out_meta(tab, "blas_core", rl_train_blas_core());
  if (pl->rope)
    rl_train_sched_meta(tab, &pl->sp, probe, pl->train_T);
}

static int compute(rl_cmd_run *r)
{
  const rl_eval_settings *s = r->settings;
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_eval_plan *pl = calloc(1, sizeof *pl);
  rl_train_model *m = NULL;
  rl_schedule *train_f = NULL, *probe = NULL;
  rl_out tab = {0};
  int rc = !ck || !pl ? rl_runtime(r->name, "out of memory") : load(r, ck, &m, pl);
  if (!rc)
    rc = schedules(r, ck, m, pl, &train_f, &probe);
  if (!rc && !(rc = rl_out_open(&tab, r->name, r->co.output, r->co.meta, r->co.header))) {
    meta(r, &tab, ck, pl, probe);
    rl_train_score sc = {&ck->run.task, (size_t)ck->run.train_len, pl->lens, pl->n,
                         pl->samples, pl->rope ? train_f : NULL, pl->rope ? &pl->score : NULL,
                         rl_out_hooked() || s->no_baseline, rl_train_score_show(r->co.progress)};
    rc = rl_train_score_rows(r->name, &tab, m, &sc);
    if (rc)
      rl_out_abort(&tab);
    else
      rc = rl_out_close(&tab);
  }
  if (pl)
    rl_eval_plan_free(pl);
  free(pl), free(ck);
  rl_schedule_free(train_f);
  rl_schedule_free(probe);
  rl_train_free(m);
  return rc;
}

/* the own rows from the declarations (the core's, train's --eval-samples
 * with the checkpoint's default), the refusals, and the heading of the
 * schedule's options */
static void help_own(FILE *fp)
{
  rl_decl_help_at(fp, rl_eval_help_param_list(), 25);
  fputs("\n"
        "--config and --layer-type are refused: the checkpoint's rope schedule is the\n"
        "model's; give the scoring method with --method and its options.  Scoring\n"
        "shows its progress and an estimate of the time left on a terminal (or with\n"
        "--progress).\n"
        "\n"
        "rope's schedule options (scoring only; --dim, --rot, --base and --layout\n"
        "are the checkpoint's):\n", fp);
}

static void defaults(void *settings) { rl_eval_settings_default(settings); }

static const rl_cmd_decl decl = {
    .usage = "CHECKPOINT [OPTIONS]",
    .about =
        "Score the model of a checkpoint written by 'ropelab train --checkpoint'\n"
        "at test lengths, in train's table (method, len, in_dist, exact,\n"
        "token_acc, loss, samples; the same test examples).  A rope model is\n"
        "scored with its training schedule (method rope), then under --method M\n"
        "(any method train accepts, with its options: --factor, --beta-fast, ...)\n"
        "applied after training; without schedule options, under the method\n"
        "train was given.  The method's original context (--train-len) is by\n"
        "default the checkpoint's, the positions of train's longest example, and\n"
        "its current length (--seq-len) each test example's; a value given wins.\n"
        "In a sweep each point scores its own method only: list rope among the\n"
        "methods for the baseline (one set of rows, its factor empty); the swept\n"
        "options' columns go in front in the order given, but method, a column\n"
        "of the table, which stays in its place.  Other schemes are scored as\n"
        "trained.  The checkpoint's rope schedule (base, rot, layout) is the\n"
        "model's and cannot be changed here.  A truncated or corrupt checkpoint,\n"
        "or one of another format version, is refused (exit 2).\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE | RL_TAKES_LONG_POINTS,
    .settings_size = sizeof(rl_eval_settings),
    .defaults = defaults,
    /* evaluate's own, train's reused (--eval-samples), the schedule
     * options refused by declaration (--config, --layer-type: before the
     * schedule's, getopt takes them first) */
    .groups = {{NULL, rl_eval_param_list, 0, 1},
               {NULL, rl_train_eval_param_list, offsetof(rl_eval_settings, train), 1},
               {NULL, rl_eval_refused_param_list, 0, 1}},
    .min_args = 1, .max_args = 1,
    .args_name = "CHECKPOINT", .args_expect = "'ropelab evaluate CHECKPOINT'",
    .args_extra = "",
    /* a sweep: the schedule's options (methods, factors) and
     * --eval-samples; a list of --eval-len is its own (those lengths);
     * --threads changes no number */
    .sweep_numbers = "eval-samples", .sweep_names = "", .sweep_lists = "eval-len",
    .sweep_own = rl_cmd_sweeps_none,
    .plot_x = "len", .plot_y = "exact", .plot_units = "len=tokens;exact=fraction",
    /* the model fixes them: out of the sweeps, listed and refused */
    .except = "dim rot base",
    .fixed = "dim rot base layout",
    .fixed_why = "the checkpoint's model was trained with its own",
    .own_first = 1,
    .help_own = help_own,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_evaluate = {
    "evaluate", NULL, "score a trained checkpoint again, under another rope method", NULL,
    &decl};
