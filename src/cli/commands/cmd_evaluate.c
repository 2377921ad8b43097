/* cmd_evaluate.c: `ropelab evaluate CHECKPOINT`, a model `train` wrote
 * scored again, for rope under another context-extension method or
 * factor, without retraining (issue 18). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rl_config.h"
#include "ropelab.h"
#include "sched_opts.h"
#include "threads.h"
#include "train_score.h"

static const char *const cmd = "evaluate";

static void help(FILE *fp)
{
  fputs("usage: ropelab evaluate CHECKPOINT [OPTIONS]\n"
        "\n"
        "Score the model of a checkpoint written by 'ropelab train --checkpoint'\n"
        "at test lengths, in train's table (method, len, in_dist, exact,\n"
        "token_acc, loss, samples; the same test examples).  A rope model is\n"
        "scored with its training schedule (method rope), then under --method M\n"
        "(any method train accepts, with its options: --factor, --beta-fast, ...)\n"
        "applied after training; without schedule options, under the method\n"
        "train was given.  In a sweep each point scores its own method only:\n"
        "list rope among the methods for the baseline (one set of rows, its\n"
        "factor empty).  Other schemes are scored as trained.  The\n"
        "checkpoint's rope schedule (base, rot, layout) is the model's and\n"
        "cannot be changed here.  A truncated or corrupt checkpoint, or one of\n"
        "another format version, is refused (exit 2).\n"
        "\n"
        "      --eval-len N[,..]  one length: every length 1..N (train's rows);\n"
        "                         several (a list or START:STOP:STEP): those\n"
        "                         (the checkpoint's --eval-len)\n"
        "      --eval-samples M   test examples per length (the checkpoint's)\n"
        "      --threads T        threads of the forward passes (default: online\n"
        "                         processors); the same bytes for every T\n"
        "      --no-baseline      no rope rows before another method's: train's\n"
        "                         table holds them (the same model, examples and\n"
        "                         bits), so a second method need not score them again\n"
        "\n"
        "--config and --layer-type are refused: the checkpoint's rope schedule is the\n"
        "model's; give the scoring method with --method and its options.  Scoring\n"
        "shows its progress and an estimate of the time left on a terminal (or with\n"
        "--progress).\n"
        "\n"
        "rope's schedule options (scoring only; --dim, --rot, --base and --layout\n"
        "are the checkpoint's):\n", fp);
  rl_sched_opts_help(fp); /* listed: they are refused by name */
  fputc('\n', fp);
  rl_common_help_noplot(fp);
}

enum { O_EVAL_LEN = RL_OPT_FIRST_CMD, O_SAMPLES, O_THREADS, O_NO_BASELINE };

static int any_given(const rl_schedule_params *p)
{
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (rl_schedule_param_given(p, *d))
      return 1;
  return 0;
}

static int run(int argc, char **argv)
{
  static const struct option own[] = {
      {"eval-len", required_argument, NULL, O_EVAL_LEN},
      {"eval-samples", required_argument, NULL, O_SAMPLES},
      {"threads", required_argument, NULL, O_THREADS},
      {"no-baseline", no_argument, NULL, O_NO_BASELINE},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const struct option *opts = rl_sched_longopts(own);
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  rl_common co;
  rl_common_init(&co);
  const char *len_arg = NULL;
  unsigned long long samples = 0, threads = (unsigned long long)rl_online_cpus(RL_THREADS_MAX);
  int c, r = 0, no_baseline = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case O_EVAL_LEN: len_arg = optarg; break;
    case O_SAMPLES: r = rl_opt_uint(cmd, "--eval-samples", optarg, 1, 100000000, &samples); break;
    case O_THREADS: r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads); break;
    case O_NO_BASELINE: no_baseline = 1; break;
    /* a model file's RoPE would replace the model's own (its base, dim,
     * layout); the scoring method is --method's */
    case RL_SCHOPT_CONFIG:
    case RL_SCHOPT_LAYER_TYPE:
      return rl_usage(cmd, "invalid --%s '%s': the checkpoint's rope schedule is the model's; "
                      "give the scoring method with --method and its options",
                      c == RL_SCHOPT_CONFIG ? "config" : "layer-type", optarg);
    default: r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts);
    }
    if (r)
      return r;
  }
  if (co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if (optind >= argc)
    return rl_usage(cmd, "missing CHECKPOINT: expected 'ropelab evaluate CHECKPOINT' (see 'ropelab help evaluate')");
  const char *path = argv[optind++];
  if ((r = rl_opt_no_args(cmd, argc, argv)))
    return r;
  if (co.plot)
    return rl_usage(cmd, "invalid --plot '%s': evaluate draws no figure", co.plot);
  static const char *const fixed[] = {"dim", "rot", "base", "layout"};
  for (size_t i = 0; i < 4; i++)
    if (rl_schedule_param_given(&so.p, rl_schedule_param_find(fixed[i])))
      return rl_usage(cmd, "invalid --%s: the checkpoint's model was trained with its own", fixed[i]);

  /* the lengths first: the model is built for the longest */
  double *vals = NULL;
  size_t nv = 0;
  if (len_arg && (r = rl_opt_values(cmd, "--eval-len", len_arg, 1024, &vals, &nv)))
    return r;
  for (size_t i = 0; i < nv; i++)
    if (!(vals[i] >= 1 && vals[i] <= 1024 && vals[i] == floor(vals[i]))) {
      free(vals);
      return rl_usage(cmd, "invalid --eval-len '%s': expected whole numbers from 1 to 1024", len_arg);
    }
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_train_model *m = NULL;
  rl_schedule *train_f = NULL, *probe = NULL;
  size_t *lens = NULL, n = 0, maxn = 0;
  char err[RL_ERR_MAX] = "";
  if (!ck) {
    free(vals);
    return rl_runtime(cmd, "out of memory");
  }
  /* the header alone first (model as written), then, knowing the task,
   * the model again for the longest test length */
  rl_ckpt_read_opts ro = {0, (size_t)threads, 0};
  rl_status st = rl_ckpt_read_with(path, &ro, ck, &m, err);
  if (!st) {
    const rl_task *task = &ck->run.task;
    n = nv > 1 ? nv : nv == 1 ? (size_t)vals[0] : (size_t)ck->run.eval_len;
    lens = malloc((n ? n : 1) * sizeof *lens);
    if (!lens) {
      r = rl_runtime(cmd, "out of memory");
      goto done;
    }
    for (size_t i = 0; i < n; i++) {
      lens[i] = nv > 1 ? (size_t)vals[i] : i + 1;
      if (lens[i] > maxn)
        maxn = lens[i];
    }
    if (maxn > rl_task_max_n(task)) {
      r = rl_usage(cmd, "invalid --eval-len '%zu' for task %s: expected at most %zu (distinct keys)",
                   maxn, rl_task_names()[task->kind], rl_task_max_n(task));
      goto done;
    }
    size_t T = rl_task_len(task, maxn);
    if (T > ck->cfg.max_T && ck->cfg.pos == RL_TPOS_LEARNED) {
      r = rl_usage(cmd, "invalid --eval-len '%zu': a learned position table has the %zu rows "
                   "it was trained with, length %zu reads %zu positions", maxn, ck->cfg.max_T,
                   maxn, T);
      goto done;
    }
    if (T > ck->cfg.max_T) {
      rl_train_free(m);
      m = NULL;
      ro.max_T = T;
      st = rl_ckpt_read_with(path, &ro, ck, &m, err);
    }
  }
  if (st) {
    r = st == RL_EFORMAT || st == RL_EINVAL ? rl_usage(cmd, "%s", err) : rl_runtime(cmd, "%s", err);
    goto done;
  }
  if (!samples)
    samples = ck->run.eval_samples;
  rl_schedule_params tp, sp;
  char rope_text[RL_CKPT_TEXT_MAX], eval_text[RL_CKPT_TEXT_MAX];
  int rope = ck->cfg.pos == RL_TPOS_ROPE;
  if (!rope && any_given(&so.p)) {
    r = rl_usage(cmd, "invalid schedule options for a %s model: only rope takes them",
                 rl_train_pos_names()[ck->cfg.pos]);
    goto done;
  }
  size_t train_T = rl_task_len(&ck->run.task, (size_t)ck->run.train_len);
  if (rope) {
    memcpy(rope_text, ck->rope, sizeof rope_text);
    memcpy(eval_text, ck->eval, sizeof eval_text);
    if (rl_ckpt_sched_parse(rope_text, &tp, err)) {
      r = rl_usage(cmd, "invalid checkpoint '%s': its rope schedule: %s", path, err);
      goto done;
    }
    if (any_given(&so.p)) {
      so.p.dim = tp.dim;
      if ((r = rl_sched_opts_finish(&so, cmd)))
        goto done;
      sp = so.p;
      sp.dim = tp.dim, sp.rot = tp.rot, sp.base = tp.base, sp.layout = tp.layout;
    } else if (rl_ckpt_sched_parse(eval_text, &sp, err)) {
      r = rl_usage(cmd, "invalid checkpoint '%s': its scoring schedule: %s", path, err);
      goto done;
    }
    /* the scoring schedule is refused before any scoring */
    if ((r = rl_sched_build(&tp, cmd, &train_f)) || (r = rl_train_use_rope(cmd, m, train_f)) ||
        (r = rl_train_eval_schedule(cmd, &sp, train_T, rl_task_len(&ck->run.task, maxn), &probe)) ||
        (r = rl_train_use_rope(cmd, m, probe)) || (r = rl_train_use_rope(cmd, m, train_f)))
      goto done;
  }
  rl_out tab = {0};
  if ((r = rl_out_open(&tab, cmd, co.output, co.meta, co.header)))
    goto done;
  rl_out_meta_begin(&tab);
  rl_out_meta(&tab, "checkpoint", path);
  rl_out_meta_uint(&tab, "checkpoint_step", ck->step);
  rl_out_meta(&tab, "scheme", rl_train_pos_names()[ck->cfg.pos]);
  rl_out_meta(&tab, "task", rl_task_names()[ck->run.task.kind]);
  rl_out_meta_uint(&tab, "symbols", ck->run.task.symbols);
  rl_out_meta_uint(&tab, "train_len", ck->run.train_len);
  rl_out_meta_uint(&tab, "steps", ck->run.steps);
  rl_out_meta_uint(&tab, "seed", ck->cfg.seed);
  rl_out_meta_uint(&tab, "d_model", ck->cfg.d_model);
  rl_out_meta_uint(&tab, "heads", ck->cfg.heads);
  rl_out_meta_uint(&tab, "layers", ck->cfg.layers);
  rl_out_meta_uint(&tab, "eval_samples", samples);
  rl_out_meta_uint(&tab, "eval_seed", RL_TRAIN_EVAL_SEED);
  char v[256];
  if (rl_ckpt_text_get(ck->prov, "version", v, sizeof v))
    rl_out_meta(&tab, "trained_by", v);
  if (rl_ckpt_text_get(ck->prov, "started", v, sizeof v))
    rl_out_meta(&tab, "trained_started", v);
  rl_out_meta(&tab, "blas", RL_BLAS);
  rl_out_meta(&tab, "blas_core", rl_train_blas_core());
  if (rope)
    rl_train_sched_meta(&tab, &sp, probe, train_T);
  rl_train_score s = {&ck->run.task, (size_t)ck->run.train_len, lens, n, (size_t)samples,
                      rope ? train_f : NULL, rope ? &sp : NULL, rl_out_hooked() || no_baseline,
                      rl_train_score_show(co.progress)};
  r = rl_train_score_rows(cmd, &tab, m, &s);
  if (r)
    rl_out_abort(&tab);
  else
    r = rl_out_close(&tab);
done:
  free(vals), free(lens), free(ck);
  rl_schedule_free(train_f);
  rl_schedule_free(probe);
  rl_train_free(m);
  return r;
}

const struct rl_cmd rl_cmd_evaluate = {"evaluate", run,
                                       "score a trained checkpoint again, under another rope method",
                                       help, NULL};
