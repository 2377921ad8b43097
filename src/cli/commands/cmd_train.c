/* cmd_train.c: `ropelab train`, a tiny decoder trained with one
 * positional scheme on a synthetic task, then scored at every test
 * length (issue 18; the model is the core's, ropelab/train.h). */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "decl_opts.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rl_config.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "train_score.h"

static const char *const cmd = "train";
#define EVAL_SEED RL_TRAIN_EVAL_SEED
/* The training batches' stream, apart from the initial weights' (--seed). */
#define DATA_STREAM 0x9e3779b97f4a7c15u

static void help(FILE *fp)
{
  fputs("usage: ropelab train [OPTIONS]\n"
        "\n"
        "Train a tiny decoder-only transformer (token embedding tied to the output,\n"
        "pre-LayerNorm causal attention, GELU MLP; CBLAS products; double precision, or\n"
        "--dtype float32 with float64 master weights and AdamW moments)\n"
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
        "models between machines and 'ropelab merge' joins their tables.\n"
        "\n", fp);
  rl_decl_help_at(fp, rl_train_param_list(), 24);
  /* the names from the declarations' registries */
  char names[512], head[64];
  for (const rl_param *const *d = rl_train_param_list(); *d; d++)
    if ((*d)->kind == RL_PK_ENUM) {
      rl_names_alternatives(rl_param_names(*d), rl_param_count_names(*d), names, sizeof names);
      snprintf(head, sizeof head, "  --%s: ", (*d)->key);
      rl_help_wrap(fp, head, 4, names);
    }
  /* each scheme's recipe, declared in the core (recipe.c) */
  fputs("\nEach scheme's defaults (where these options are not given; measured to\n"
        "learn the default task: experiments/train_defaults/README.md):\n", fp);
  const char *const *pos = rl_train_pos_names();
  for (int k = 0; k < RL_TPOS_COUNT; k++) {
    char text[160];
    rl_train_recipe_text(k, text, sizeof text);
    fprintf(fp, "  %-11s %s\n", pos[k], text);
  }
  fputc('\n', fp);
  fputs("SIGINT and SIGTERM end the run after the step under way: with\n"
        "--checkpoint, its state is written first; exit 130 (SIGINT) or 143\n"
        "(SIGTERM).  A loss or gradient that is not finite, or a loss above\n"
        "--max-loss, stops the run (exit 3) naming the step, the loss and the\n"
        "first layer with a non-finite value; the last checkpoint is kept.\n"
        "\n"
        "rope's schedule options (the head dimension is D/H, not --dim; the\n"
        "original context L is the positions --train-len gives; --method applies\n"
        "at scoring only: training is plain RoPE):\n", fp);
  rl_sched_opts_help_except(fp, "dim train-len");
  fputc('\n', fp);
  rl_common_help_noplot(fp);
}

/* the settings declared in the core (rl_train_param_list), from here on */
enum { O_DECL = RL_OPT_FIRST_CMD };

static double now(clockid_t id)
{
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int parse(rl_train_settings *a, rl_decl_opts *g, rl_sched_opts *so, rl_common *co,
                 int argc, char **argv)
{
  static const struct option base[] = {RL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
  /* train's own --train-len before the schedule's: getopt takes the
   * first match */
  static struct option own[64];
  rl_decl_longopts(g, own, rl_longopts_base(own, base, 64), 64);
  const struct option *opts = rl_sched_longopts(own);
  int c, r = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    if (rl_opt_failed(r = rl_decl_opt(g, cmd, c, optarg)))
      return rl_opt_exit_code(r);
    if (!r && (r = rl_sched_opt_default(so, co, cmd, c, argv, opts)))
      return r;
  }
  a->set = rl_decl_given_bits(g);
  if ((r = rl_opt_end(co, cmd, argc, argv, help)))
    return r;
  if (co->plot)
    return rl_usage(cmd, "invalid --plot '%s': train draws no figure", co->plot);
  char err[RL_ERR_MAX];
  if (rl_train_settings_resolve(a, err, sizeof err))
    return rl_usage(cmd, "%s", err);
  return 0;
}

/* Schedule options for a scheme other than rope, or --dim (which is
 * D/H here), are refused rather than silently ignored. */
static int check_sched_given(const rl_train_settings *a, const rl_sched_opts *so)
{
  if (rl_schedule_param_given(&so->p, rl_schedule_param_find("dim")))
    return rl_usage(cmd, "invalid --dim: the head dimension is --d-model / --heads here");
  if (a->scheme == RL_TPOS_ROPE)
    return 0;
  if (rl_sched_config_given())
    return rl_usage(cmd, "invalid --config for --scheme %s: a model file gives a rope schedule, "
                    "and only rope takes one", rl_train_pos_names()[a->scheme]);
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (rl_schedule_param_given(&so->p, *d) &&
        !((a->scheme == RL_TPOS_SINUSOIDAL || a->scheme == RL_TPOS_XL) &&
          !strcmp((*d)->key, "base")))
      return rl_usage(cmd, "invalid --%s for --scheme %s: only rope takes the schedule's options",
                      (*d)->key, rl_train_pos_names()[a->scheme]);
  return 0;
}

/* start: the step this process began at (a resumed run's ETA counts the
 * steps it ran itself) */
static void progress(int on, size_t step, size_t steps, size_t start, double loss, double t0,
                     double *last)
{
  double t = now(CLOCK_MONOTONIC);
  if (!on || (step < steps && t - *last < 0.25))
    return;
  *last = t;
  size_t done = step - start;
  double el = t - t0, eta = done ? el * (double)(steps - step) / (double)done : 0;
  fprintf(stderr, "\rropelab train: step %zu/%zu (%3d%%) loss %.4f, %.0f s, ETA %.0f s   ", step,
          steps, (int)(100.0 * (double)step / (double)steps), loss, el, eta);
  if (step == steps)
    fputc('\n', stderr);
  fflush(stderr);
}

static void meta_run(rl_out *o, const rl_decl_opts *g, const rl_train_settings *a,
                     const rl_sched_opts *so, const rl_schedule *f, const rl_train_model *m)
{
  rl_out_meta_begin(o);
  rl_decl_meta(g, o);
  rl_out_meta(o, "optimizer", "adamw beta1=0.9 beta2=0.99 eps=1e-8 weight_decay=0.1 clip=1");
  /* what --dtype (dtype= above) keeps in float64 (train.h) */
  rl_out_meta(o, "master_weights", "float64");
  rl_out_meta(o, "adamw_moments", "float64");
  rl_out_meta_uint(o, "parameters", rl_train_nparams(m));
  rl_out_meta_uint(o, "memory_bytes", rl_train_bytes(m));
  rl_out_meta_uint(o, "eval_seed", EVAL_SEED);
  rl_out_meta(o, "blas", rl_train_blas_name());
  rl_out_meta(o, "blas_core", rl_train_blas_core());
  if (a->scheme == RL_TPOS_ROPE) {
    rl_task task = {(rl_task_kind)a->task, a->symbols};
    rl_train_sched_meta(o, &so->p, f, rl_task_len(&task, a->train_len));
  }
}

/* ---- interruption ------------------------------------------------------ */

/* While the steps run, SIGINT and SIGTERM only note the signal; the loop
 * ends after the step under way (a step is never half applied). */
static volatile sig_atomic_t got_signal;
static void on_stop(int sig) { got_signal = sig; }
static const int stop_sigs[2] = {SIGINT, SIGTERM};

static void catch_stop(struct sigaction old[2])
{
  for (int i = 0; i < 2; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(stop_sigs[i], NULL, &old[i]);
    /* a signal ignored by the parent (nohup, a background job) stays so */
    if (old[i].sa_handler != SIG_IGN)
      sigaction(stop_sigs[i], &sa, NULL);
  }
}

static void release_stop(const struct sigaction old[2])
{
  for (int i = 0; i < 2; i++)
    sigaction(stop_sigs[i], &old[i], NULL);
}

/* ---- checkpoints ------------------------------------------------------- */

static int save(const char *path, rl_ckpt *ck, rl_train_model *m, const rl_train_rng *data)
{
  char err[RL_ERR_MAX] = "";
  ck->data_rng = data->s;
  const char *kill_after = getenv("ROPELAB_TEST_CKPT_KILL_AFTER");
  ck->test_kill_after = kill_after ? strtoull(kill_after, NULL, 10) : 0;
  rl_status st = rl_ckpt_write(path, ck, m, err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory for the checkpoint");
  return st ? rl_runtime(cmd, "%s", err) : 0;
}

/* The options of a resumed run against its checkpoint's: everything that
 * shapes the model or the steps must be the same. */
static int check_resume(const char *path, const rl_ckpt *ck, const rl_train_cfg *cfg,
                        const rl_train_run *run)
{
  char want[32][48], have[32][48];
  const char *name[32];
  int n = 0;
#define CMP_U(opt, x, y)                                                      \
  name[n] = opt, snprintf(have[n], 48, "%llu", (unsigned long long)(x)),      \
  snprintf(want[n], 48, "%llu", (unsigned long long)(y)), n++
#define CMP_D(opt, x, y)                                                      \
  name[n] = opt, snprintf(have[n], 48, "%.17g", (double)(x)),                  \
  snprintf(want[n], 48, "%.17g", (double)(y)), n++
  name[n] = "scheme", snprintf(have[n], 48, "%s", rl_train_pos_names()[ck->cfg.pos]);
  snprintf(want[n], 48, "%s", rl_train_pos_names()[cfg->pos]), n++;
  name[n] = "task", snprintf(have[n], 48, "%s", rl_task_names()[ck->run.task.kind]);
  snprintf(want[n], 48, "%s", rl_task_names()[run->task.kind]), n++;
  CMP_U("symbols", ck->run.task.symbols, run->task.symbols);
  CMP_U("train-len", ck->run.train_len, run->train_len);
  CMP_U("eval-len", ck->run.eval_len, run->eval_len);
  CMP_U("d-model", ck->cfg.d_model, cfg->d_model);
  CMP_U("heads", ck->cfg.heads, cfg->heads);
  CMP_U("layers", ck->cfg.layers, cfg->layers);
  CMP_U("batch", ck->cfg.batch, cfg->batch);
  CMP_U("seed", ck->cfg.seed, cfg->seed);
  CMP_U("steps", ck->run.steps, run->steps);
  CMP_U("warmup", ck->run.warmup, run->warmup);
  CMP_D("lr", ck->run.lr, run->lr);
  CMP_D("min-lr", ck->run.min_lr, run->min_lr);
  CMP_D("base", ck->cfg.base, cfg->base);
  CMP_U("threads", ck->run.threads, run->threads);
  CMP_U("chunks", ck->cfg.chunks, cfg->chunks);
  /* refused, not converted: a run resumed in another dtype would be
   * neither run's bits */
  name[n] = "dtype", snprintf(have[n], 48, "%s", rl_train_dtype_names()[ck->cfg.dtype]);
  snprintf(want[n], 48, "%s", rl_train_dtype_names()[cfg->dtype]), n++;
#undef CMP_U
#undef CMP_D
  for (int i = 0; i < n; i++)
    if (strcmp(have[i], want[i]))
      return rl_usage(cmd, "invalid --resume '%s': the checkpoint has --%s %s, expected %s",
                      path, name[i], have[i], want[i]);
  return 0;
}

static void provenance(rl_ckpt *ck, const rl_train_settings *a, const char *started, uint64_t resumed_at)
{
  char date[32], *line = rl_out_command_line();
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  int k = snprintf(ck->prov, sizeof ck->prov,
                   "version=%s\ndate=%s\nstarted=%s\nseed=%llu\nthreads=%llu\nblas=%s\n"
                   "blas_core=%s\n",
                   RL_VERSION, date, started ? started : date, (unsigned long long)a->seed,
                   (unsigned long long)ck->run.threads, rl_train_blas_name(), rl_train_blas_core());
  if (resumed_at && k > 0 && (size_t)k < sizeof ck->prov)
    k += snprintf(ck->prov + k, sizeof ck->prov - (size_t)k, "resumed_at_step=%llu\n",
                  (unsigned long long)resumed_at);
  /* the command line last: cut to fit, one line */
  if (k > 0 && (size_t)k < sizeof ck->prov && line) {
    for (char *c = line; *c; c++)
      if (*c == '\n')
        *c = ' ';
    snprintf(ck->prov + k, sizeof ck->prov - (size_t)k, "command=%.*s\n",
             (int)(sizeof ck->prov - (size_t)k - 10), line);
  }
  free(line);
}

/* The stopping message of a diverged step (1-based, as the curve counts):
 * the first non-finite activation, else the first non-finite gradient. */
static int diverged(const rl_train_settings *a, rl_train_model *m, size_t step, double loss, double gn,
                    int after_update)
{
  char where[128];
  if (!after_update) {
    if (rl_train_find_nonfinite(m, where, sizeof where))
      return rl_runtime(cmd, "training diverged at step %zu: loss %g, first non-finite value in %s",
                        step, loss, where);
    return rl_runtime(cmd, "training diverged at step %zu: loss %g above --max-loss %g (every activation finite)",
                      step, loss, a->max_loss);
  }
  if (rl_train_find_nonfinite_params(m, 1, where, sizeof where))
    return rl_runtime(cmd, "training diverged at step %zu: loss %g, gradient norm %g, first non-finite gradient in %s",
                      step, loss, gn, where);
  return rl_runtime(cmd, "training diverged at step %zu: loss %g, gradient norm %g", step, loss, gn);
}

static int run(int argc, char **argv)
{
  rl_train_settings a;
  rl_decl_opts g;
  rl_decl_opts_init(&g, rl_train_param_list(), &a, O_DECL);
  rl_train_settings_default(&a);
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  rl_common co;
  rl_common_init(&co);
  int r = parse(&a, &g, &so, &co, argc, argv);
  if (r == RL_OPT_DONE)
    return RL_EXIT_OK;
  if (r || (r = check_sched_given(&a, &so)))
    return r;
  so.p.dim = a.d_model / a.heads;
  if ((r = rl_sched_opts_finish(&so, cmd)))
    return r;
  /* scoring's original context is train's own (its --train-len shadows
   * the schedule's): a --config's is another model's, in the metadata
   * only; the core's rule (rl_extrap_length_params) gives train_T */
  rl_schedule_params score_p = so.p;
  rl_schedule_unset(&score_p, "train-len");
  rl_task task = {(rl_task_kind)a.task, a.symbols};
  size_t train_T = rl_task_len(&task, a.train_len), eval_T = rl_task_len(&task, a.eval_len);
  rl_train_cfg cfg;
  rl_train_settings_cfg(&a, &cfg);
  cfg.base = so.p.base;
  rl_ckpt *ck = calloc(1, sizeof *ck), *old = NULL;
  if (!ck)
    return rl_runtime(cmd, "out of memory");
  rl_train_settings_run(&a, &ck->run);
  rl_train_model *m = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st;
  rl_schedule *train_f = NULL, *eval_f = NULL;
  if (a.resume) {
    if (!(old = calloc(1, sizeof *old))) {
      r = rl_runtime(cmd, "out of memory");
      goto done;
    }
    st = rl_ckpt_read(a.checkpoint, 0, old, &m, err);
    if (st) {
      r = st == RL_EFORMAT ? rl_usage(cmd, "%s", err) : rl_runtime(cmd, "%s", err);
      goto done;
    }
    if ((r = check_resume(a.checkpoint, old, &cfg, &ck->run)))
      goto done;
  } else if ((st = rl_train_new(&cfg, &m, err))) {
    r = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory for the model") : rl_usage(cmd, "%s", err);
    goto done;
  }
  if (a.scheme == RL_TPOS_ROPE) {
    /* training: plain RoPE of the same dim, rot, base and layout */
    rl_schedule_params tp;
    rl_schedule_params_default(&tp);
    tp.dim = so.p.dim, tp.rot = so.p.rot, tp.base = so.p.base, tp.layout = so.p.layout;
    /* the scoring schedule is built (and refused) before any training */
    if ((r = rl_sched_build(&tp, cmd, &train_f)) || (r = rl_train_use_rope(cmd, m, train_f)) ||
        (r = rl_train_eval_schedule(cmd, &score_p, train_T, eval_T, &eval_f)) ||
        (r = rl_train_use_rope(cmd, m, eval_f)) || (r = rl_train_use_rope(cmd, m, train_f)))
      goto done;
    if (rl_ckpt_sched_text(&tp, ck->rope, sizeof ck->rope) ||
        rl_ckpt_sched_text(&so.p, ck->eval, sizeof ck->eval)) {
      r = rl_usage(cmd, "invalid schedule options: too long for the checkpoint");
      goto done;
    }
    if (old && strcmp(old->rope, ck->rope)) {
      r = rl_usage(cmd, "invalid --resume '%s': the checkpoint's rope schedule is another "
                   "(base, rot or layout)", a.checkpoint);
      goto done;
    }
  }
  if (rl_out_hooked()) {
    /* a sweep's point: one model of several, so one checkpoint file
     * cannot hold them; the sweep's first pass (capture) reads the
     * metadata and the header only, so nothing is trained twice */
    if (a.checkpoint) {
      r = rl_usage(cmd, "--checkpoint '%s' names one file, and a sweep trains a model per "
                        "point: train the points one by one, each with its checkpoint",
                   a.checkpoint);
      goto done;
    }
    if (rl_out_capturing()) {
      rl_out tab = {0};
      if (!(r = rl_out_open(&tab, cmd, a.eval_output, co.meta, co.header))) {
        meta_run(&tab, &g, &a, &so, eval_f, m);
        rl_out_header(&tab, RL_TRAIN_SCORE_HEADER);
        r = rl_out_close(&tab);
      }
      goto done;
    }
  }
  size_t start = 0;
  char started[64] = "";
  if (old) {
    start = (size_t)old->step;
    rl_ckpt_text_get(old->prov, "started", started, sizeof started);
  }
  provenance(ck, &a, started[0] ? started : NULL, start);
  rl_out curve = {0}, tab = {0};
  int curve_open = 0, show = co.progress == RL_PROGRESS_FORCE ||
                             (co.progress == RL_PROGRESS_AUTO && isatty(2));
  /* under a sweep -o is the sweep's table, and no curve is written */
  if (co.output && !rl_out_hooked()) {
    if ((r = rl_out_open(&curve, cmd, co.output, co.meta, co.header)))
      goto done;
    curve_open = 1;
    meta_run(&curve, &g, &a, &so, eval_f, m);
    if (start)
      rl_out_meta_uint(&curve, "resumed_at_step", start);
    rl_out_header(&curve, "step,lr,loss,grad_norm,tokens,wall_s");
  }
  /* training */
  size_t B = (size_t)a.batch, N = B * train_T;
  int *inp = malloc(N * sizeof *inp), *tgt = malloc(N * sizeof *tgt);
  if (!inp || !tgt) {
    free(inp), free(tgt);
    r = rl_runtime(cmd, "out of memory for the batches");
    goto fail_curve;
  }
  rl_train_rng data;
  rl_train_rng_seed(&data, a.seed ^ DATA_STREAM);
  if (old)
    data.s = old->data_rng;
  rl_adamw opt = ck->run.opt;
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID), last = 0, sum = 0;
  size_t tokens = 0, since = 0, stop_at = a.stop_after ? start + a.stop_after : SIZE_MAX;
  double loss = 0;
  struct sigaction old_sa[2];
  got_signal = 0;
  catch_stop(old_sa);
  size_t step = start;
  int saved = 1; /* the checkpoint on disk holds the state of `step` */
  /* test hook: parameter ROPELAB_TEST_NAN_PARAM of the one array (the
   * last by default) made NaN before step K (1-based) */
  const char *poison = getenv("ROPELAB_TEST_NAN_AT_STEP"), *pidx = getenv("ROPELAB_TEST_NAN_PARAM");
  size_t poison_at = poison ? (size_t)strtoull(poison, NULL, 10) : 0;
  size_t poison_i = pidx ? (size_t)strtoull(pidx, NULL, 10) : rl_train_nparams(m) - 1;
  for (; step < a.steps && !got_signal && step < stop_at; step++) {
    if (step + 1 == poison_at && poison_i < rl_train_nparams(m))
      rl_train_params(m)[poison_i] = NAN;
    for (size_t b = 0; b < B; b++)
      rl_task_example(&task, &data, 1 + rl_train_rng_below(&data, a.train_len), train_T,
                      inp + b * train_T, tgt + b * train_T);
    double lr = rl_train_lr(step, a.steps, a.warmup, a.lr, a.min_lr);
    rl_train_zero_grad(m);
    loss = rl_train_forward(m, inp, tgt, B, train_T);
    double gn = 0;
    int bad = !isfinite(loss) || loss > a.max_loss, after = 0;
    if (!bad) {
      rl_train_backward(m);
      gn = rl_train_update(m, &opt, lr);
      bad = after = !isfinite(gn);
    }
    if (bad) {
      free(inp), free(tgt);
      release_stop(old_sa);
      if (show)
        fputc('\n', stderr);
      r = diverged(&a, m, step + 1, loss, gn, after);
      goto fail_curve;
    }
    saved = 0;
    tokens += N, sum += loss, since++;
    if (curve_open && (since == a.log_every || step + 1 == a.steps)) {
      double row[6] = {(double)(step + 1), lr, sum / (double)since, gn, (double)tokens,
                       now(CLOCK_MONOTONIC) - w0};
      rl_out_row(&curve, row, 6);
      sum = 0, since = 0;
    }
    if (!curve_open && since == a.log_every)
      sum = 0, since = 0;
    progress(show, step + 1, a.steps, start, loss, w0, &last);
    if (a.checkpoint && ((step + 1) % a.checkpoint_every == 0 || step + 1 == a.steps)) {
      if ((r = save(a.checkpoint, ck, m, &data))) {
        free(inp), free(tgt);
        release_stop(old_sa);
        goto fail_curve;
      }
      saved = 1;
    }
  }
  free(inp), free(tgt);
  if (a.checkpoint && !saved && (r = save(a.checkpoint, ck, m, &data))) {
    release_stop(old_sa);
    goto fail_curve;
  }
  release_stop(old_sa);
  double wall = now(CLOCK_MONOTONIC) - w0, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  double flops = rl_train_flops(m);
  if (curve_open && (r = rl_out_close(&curve)))
    goto done;
  curve_open = 0;
  if (step < a.steps) {
    /* interrupted, or --stop-after: the checkpoint holds `step` steps */
    if (show)
      fputc('\n', stderr);
    if (got_signal) {
      fprintf(stderr, "ropelab train: interrupted by %s after step %zu%s%s%s\n",
              got_signal == SIGINT ? "SIGINT" : "SIGTERM", step,
              a.checkpoint ? "; checkpoint '" : "", a.checkpoint ? a.checkpoint : "",
              a.checkpoint ? "' holds it (resume with --resume)" : "");
      r = 128 + (int)got_signal;
    } else if (co.progress != RL_PROGRESS_QUIET) {
      fprintf(stderr, "ropelab train: stopped after step %zu (--stop-after); checkpoint '%s' holds it\n",
              step, a.checkpoint);
    }
    goto done;
  }
  /* scoring: plain RoPE (the training schedule), then the method */
  if ((r = rl_out_open(&tab, cmd, a.eval_output, co.meta, co.header)))
    goto done;
  meta_run(&tab, &g, &a, &so, eval_f, m);
  if (start)
    rl_out_meta_uint(&tab, "resumed_at_step", start);
  rl_out_meta_num(&tab, "train_wall_s", wall);
  rl_out_meta_num(&tab, "train_cpu_s", cpu);
  rl_out_meta_num(&tab, "train_tokens", (double)tokens);
  rl_out_meta_num(&tab, "train_tokens_per_s", wall > 0 ? (double)tokens / wall : 0.0);
  rl_out_meta_num(&tab, "train_flops", flops);
  rl_out_meta_num(&tab, "train_flop_per_s", wall > 0 ? flops / wall : 0.0);
  if (a.peak_seconds > 0) {
    /* the same build's dgemm (float32: sgemm; n = 256) on as many
     * threads, now, under the same load as the run */
    double peak = rl_train_peak_flops_dtype(256, a.threads, a.peak_seconds, a.dtype);
    rl_out_meta_num(&tab, a.dtype == RL_TDTYPE_FLOAT32 ? "peak_sgemm_flop_per_s"
                                                       : "peak_dgemm_flop_per_s", peak);
    rl_out_meta_num(&tab, "train_flop_fraction_of_peak",
                    peak > 0 && wall > 0 ? flops / wall / peak : 0.0);
  }
  if (step > start) /* a resume of a finished run took no step */
    rl_out_meta_num(&tab, "final_loss", loss);
  double e0 = now(CLOCK_MONOTONIC);
  size_t *lens = malloc(a.eval_len * sizeof *lens);
  if (!lens) {
    rl_out_abort(&tab);
    r = rl_runtime(cmd, "out of memory");
    goto done;
  }
  for (size_t n = 1; n <= a.eval_len; n++)
    lens[n - 1] = n;
  rl_train_score sc = {&task, (size_t)a.train_len, lens, (size_t)a.eval_len, (size_t)a.eval_samples,
                       train_f, a.scheme == RL_TPOS_ROPE ? &score_p : NULL, 0, show};
  r = rl_train_score_rows(cmd, &tab, m, &sc);
  free(lens);
  if (r) {
    rl_out_abort(&tab);
    goto done;
  }
  r = rl_out_close(&tab);
  if (show && !r)
    fprintf(stderr,
            "ropelab train: %zu steps in %.1f s wall, %.1f s CPU, %.0f tokens/s, %.3g FLOP/s; "
            "scoring %.1f s\n",
            a.steps - start, wall, cpu, wall > 0 ? (double)tokens / wall : 0.0,
            wall > 0 ? flops / wall : 0.0, now(CLOCK_MONOTONIC) - e0);
  goto done;
fail_curve:
  if (curve_open)
    rl_out_abort(&curve);
done:
  rl_schedule_free(train_f);
  rl_schedule_free(eval_f);
  rl_train_free(m);
  free(ck), free(old);
  return r;
}

const struct rl_cmd rl_cmd_train = {"train", run,
                                    "train a tiny decoder; score it past its training length",
                                    help, NULL};
