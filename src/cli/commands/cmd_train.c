/* cmd_train.c: `ropelab train`, a tiny decoder trained with one
 * positional scheme on a synthetic task, then scored at every test
 * length (issue 18; the model is the core's, ropelab/train.h).  Its
 * settings are the core's declarations (src/core/train/settings.c, each
 * scheme's defaults recipe.c), its policy the core's plan (plan.c: what
 * a scheme takes of the schedule, a checkpoint resumed); this file is the
 * declaration (cmd.h) and a compute() that builds the model and calls the
 * steps (train_steps.c) and the table (train_table.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "train_score.h"
#include "train_steps.h"

/* Schedule options for a scheme other than rope, or --dim (which is
 * D/H here), are refused rather than silently ignored. */
static int check_sched_given(const rl_cmd_run *r)
{
  const rl_train_settings *a = r->settings;
  const rl_schedule_params *sp = &r->sched.p;
  const char *scheme = rl_train_pos_names()[a->scheme];
  if (rl_schedule_param_given(sp, rl_schedule_param_find("dim")))
    return rl_usage(r->name, "invalid --dim: the head dimension is --d-model / --heads here");
  if (rl_train_scheme_rope(a->scheme))
    return 0;
  if (rl_sched_config_given())
    return rl_usage(r->name, "invalid --config for --scheme %s: a model file gives a rope "
                    "schedule, and only rope takes one", scheme);
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (rl_schedule_param_given(sp, *d) && !rl_train_sched_applies(a->scheme, (*d)->key))
      return rl_usage(r->name, "invalid --%s for --scheme %s: only rope takes the schedule's "
                      "options", (*d)->key, scheme);
  return 0;
}

/* before the schedule's end: the settings' derived defaults and checks,
 * and the schedule's dimension, the model's head dimension */
static int prepare(rl_cmd_run *r)
{
  rl_train_settings *a = r->settings;
  char err[RL_ERR_MAX];
  a->set = rl_decl_given_bits(&r->own[0]);
  if (rl_train_settings_resolve(a, err, sizeof err))
    return rl_usage(r->name, "%s", err);
  int rc = check_sched_given(r);
  if (!rc)
    r->sched.p.dim = a->d_model / a->heads;
  return rc;
}

/* the model: a new one, or --resume's checkpoint, checked against the
 * options (the core's rule) */
static int model(const rl_cmd_run *r, rl_train_job *j)
{
  const rl_train_settings *a = r->settings;
  const char *cmd = r->name;
  char err[RL_ERR_MAX] = "";
  rl_status st;
  rl_train_cfg cfg;
  rl_train_settings_cfg(a, &cfg);
  cfg.base = r->sched.p.base;
  if (!(j->ck = calloc(1, sizeof *j->ck)))
    return rl_runtime(cmd, "out of memory");
  rl_train_settings_run(a, &j->ck->run);
  if (!a->resume) {
    st = rl_train_new(&cfg, &j->m, err);
    if (st)
      return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory for the model")
                             : rl_usage(cmd, "%s", err);
    return 0;
  }
  if (!(j->old = calloc(1, sizeof *j->old)))
    return rl_runtime(cmd, "out of memory");
  if ((st = rl_ckpt_read(a->checkpoint, 0, j->old, &j->m, err)))
    return st == RL_EFORMAT ? rl_usage(cmd, "%s", err) : rl_runtime(cmd, "%s", err);
  if (rl_train_resume_check(j->old, &cfg, &j->ck->run, err, sizeof err))
    return rl_usage(cmd, "invalid --resume '%s': %s", a->checkpoint, err);
  return 0;
}

/* rope: the training schedule (plain RoPE of the same dim, rot, base and
 * layout) and the scoring one, built (and refused) before any training */
static int schedules(const rl_cmd_run *r, rl_train_job *j)
{
  const rl_train_settings *a = r->settings;
  const rl_schedule_params *sp = &r->sched.p;
  const char *cmd = r->name;
  int rc;
  if (!rl_train_scheme_rope(a->scheme))
    return 0;
  j->score_p = *sp;
  rl_schedule_unset(&j->score_p, "train-len");
  rl_schedule_params tp;
  rl_schedule_params_default(&tp);
  tp.dim = sp->dim, tp.rot = sp->rot, tp.base = sp->base, tp.layout = sp->layout;
  if ((rc = rl_sched_build(&tp, cmd, &j->train_f)) ||
      (rc = rl_train_use_rope(cmd, j->m, j->train_f)) ||
      (rc = rl_train_eval_schedule(cmd, &j->score_p, j->train_T, j->eval_T, &j->eval_f)) ||
      (rc = rl_train_use_rope(cmd, j->m, j->eval_f)) ||
      (rc = rl_train_use_rope(cmd, j->m, j->train_f)))
    return rc;
  if (rl_ckpt_sched_text(&tp, j->ck->rope, sizeof j->ck->rope) ||
      rl_ckpt_sched_text(sp, j->ck->eval, sizeof j->ck->eval))
    return rl_usage(cmd, "invalid schedule options: too long for the checkpoint");
  if (j->old && strcmp(j->old->rope, j->ck->rope))
    return rl_usage(cmd, "invalid --resume '%s': the checkpoint's rope schedule is another "
                    "(base, rot or layout)", a->checkpoint);
  return 0;
}

/* A sweep's point: one model of several, so one checkpoint file cannot
 * hold them; the sweep's first pass (capture) reads the metadata and the
 * header only, so nothing is trained twice.  1 when the point ends here
 * (*rc its exit code), else 0. */
static int sweep_point(const rl_cmd_run *r, const rl_train_job *j, int *rc)
{
  const rl_train_settings *a = r->settings;
  if (!rl_out_hooked())
    return 0;
  if (a->checkpoint) {
    *rc = rl_usage(r->name, "--checkpoint '%s' names one file, and a sweep trains a model per "
                            "point: train the points one by one, each with its checkpoint",
                   a->checkpoint);
    return 1;
  }
  if (!rl_out_capturing())
    return 0;
  rl_out tab = {0};
  if (!(*rc = rl_out_open(&tab, r->name, a->eval_output, r->co.meta, r->co.header))) {
    rl_train_job_meta(&tab, j);
    rl_out_header(&tab, RL_TRAIN_SCORE_HEADER);
    *rc = rl_out_close(&tab);
  }
  return 1;
}

static int compute(rl_cmd_run *r)
{
  const rl_train_settings *a = r->settings;
  rl_train_job j = {.r = r, .a = a, .task = {(rl_task_kind)a->task, a->symbols}};
  j.train_T = rl_task_len(&j.task, a->train_len);
  j.eval_T = rl_task_len(&j.task, a->eval_len);
  int rc = model(r, &j);
  if (!rc)
    rc = schedules(r, &j);
  /* the steps, then (unless interrupted or --stop-after) the table */
  if (!rc && !sweep_point(r, &j, &rc) && !(rc = rl_train_steps_run(&j)) && j.step == a->steps)
    rc = rl_train_table(&j);
  rl_schedule_free(j.train_f);
  rl_schedule_free(j.eval_f);
  rl_train_free(j.m);
  free(j.ck), free(j.old);
  return rc;
}

/* the help's own part: the settings' rows, the names of the enumerated
 * ones, each scheme's recipe, the signals, and the schedule's heading */
static void help_own(FILE *fp)
{
  rl_decl_help_at(fp, rl_train_param_list(), 24);
  /* the names from the declarations' registries */
  char names[512], head[64], recipes[2048];
  for (const rl_param *const *d = rl_train_param_list(); *d; d++)
    if ((*d)->kind == RL_PK_ENUM) {
      rl_names_alternatives(rl_param_names(*d), rl_param_count_names(*d), names, sizeof names);
      snprintf(head, sizeof head, "  --%s: ", (*d)->key);
      rl_help_wrap(fp, head, 4, names);
    }
  rl_train_recipes_help(recipes, sizeof recipes);
  fprintf(fp, "\n%s\n", recipes);
  fputs("SIGINT and SIGTERM end the run after the step under way: with\n"
        "--checkpoint, its state is written first; exit 130 (SIGINT) or 143\n"
        "(SIGTERM).  A loss or gradient that is not finite, or a loss above\n"
        "--max-loss, stops the run (exit 3) naming the step, the loss and the\n"
        "first layer with a non-finite value; the last checkpoint is kept.\n"
        "\n"
        "rope's schedule options (the head dimension is D/H, not --dim; the\n"
        "original context L is the positions --train-len gives; --method applies\n"
        "at scoring only: training is plain RoPE):\n", fp);
}

static void defaults(void *settings) { rl_train_settings_default(settings); }

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
        "Train a tiny decoder-only transformer (token embedding tied to the output,\n"
        "pre-LayerNorm causal attention, GELU MLP; CBLAS products; float32 with float64\n"
        "master weights and AdamW moments, or --dtype float64 throughout)\n"
        "on a synthetic task with one positional scheme, then score it at every test\n"
        "length 1..--eval-len.  An example of length n is a question, a separator\n"
        "and the answer (Kazemnejad et al. 2023's tasks): copy: n random symbols,\n"
        "then them; reverse: them backwards; sort: them ascending; recall: n\n"
        "key-value pairs with distinct keys, the separator, a key, and its value;\n"
        "add: two n-digit numbers in base --symbols (a + b), the sum in n + 1\n"
        "digits most significant first; add-rev: the sum least significant first;\n"
        "count: one symbol n times, then it n times and the separator as the end.\n"
        "Training lengths are uniform in 1..--train-len, the loss is on the answer\n"
        "only.\n"
        "\n"
        "The table (standard output, or --eval-output): one row per method and length:\n"
        "  method     the rope schedule the model was scored under: rope, and with\n"
        "             --method M also M applied after training (rope only; '-' for\n"
        "             other schemes)\n"
        "  len        the test length n; in_dist 1 when n <= --train-len\n"
        "  exact      fraction of examples whose whole answer is the argmax (greedy\n"
        "             decoding reproduces it exactly)\n"
        "  token_acc  fraction of answer tokens that are the argmax\n"
        "  loss       cross-entropy per answer token, nats\n"
        "The training curve (-o FILE): step (steps done), lr, loss (mean over the\n"
        "steps since the previous row), grad_norm (before clipping), tokens\n"
        "(positions of the padded batches), wall_s.  Wall and CPU time, tokens/s,\n"
        "FLOP/s (matrix products and attention, positions computed), the same\n"
        "build's dgemm (float32: sgemm) peak and memory are in the table's metadata.\n"
        "\n"
        "Swept (--scheme nope,t5,rope --task copy,reverse --seed 1,2,3 ...), each\n"
        "point trains its own model and the tables join into one (-o FILE is then\n"
        "that table), the swept values in front; the training curves, the timing\n"
        "metadata and --checkpoint are for single runs; --shard K/N splits the\n"
        "models between machines and 'ropelab merge' joins their tables.\n",
    /* the schedule's options set the scoring schedule (rope) or --base */
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE | RL_TAKES_LONG_POINTS,
    .settings_size = sizeof(rl_train_settings),
    .defaults = defaults,
    /* train's own --train-len before the schedule's: getopt takes the
     * first match; the rows are help_own's (their own column) */
    .groups = {{NULL, rl_train_param_list, 0, 1}},
    /* its settings (scheme, task, seed, sizes, steps, ...) and the
     * scoring schedule's options; one model per point */
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "",
    .plot_x = "len", .plot_y = "exact", .plot_units = "len=tokens;exact=fraction",
    /* the head dimension is --d-model / --heads, and --train-len is its own */
    .except = "dim train-len",
    .prepare = prepare,
    .compute = compute,
    .own_first = 1,
    .help_own = help_own,
};

const struct rl_cmd rl_cmd_train = {
    "train", NULL, "train a tiny decoder; score it past its training length", NULL, &decl};
