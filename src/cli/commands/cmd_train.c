/* cmd_train.c: `ropelab train`, a tiny decoder trained with one
 * positional scheme on a synthetic task, then scored at every test
 * length (issue 18; the model is the core's, ropelab/train.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rl_config.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"

static const char *const cmd = "train";
/* The test examples' seed: one set of examples for every model and
 * training seed, so tables of different runs compare like for like. */
#define EVAL_SEED 0x5eedu
/* The training batches' stream, apart from the initial weights' (--seed). */
#define DATA_STREAM 0x9e3779b97f4a7c15u

static void help(FILE *fp)
{
  fputs("usage: ropelab train [OPTIONS]\n"
        "\n"
        "Train a tiny decoder-only transformer (token embedding tied to the output,\n"
        "pre-LayerNorm causal attention, GELU MLP; double precision, CBLAS products)\n"
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
        "build's dgemm peak and memory are in the table's metadata.\n"
        "\n"
        "      --scheme S        nope, sinusoidal, learned, t5, alibi, rope, xl,\n"
        "                        deberta or tupe (rope); --base sets sinusoidal's\n"
        "                        and xl's frequencies\n"
        "      --task T          copy, reverse, recall, sort, add, add-rev or count\n"
        "                        (copy); recall needs lengths <= --symbols\n"
        "      --train-len L     longest training example (20); with rope the\n"
        "                        schedule's original context is the 2L positions\n"
        "                        this gives (yarn, linear, ... use it)\n"
        "      --eval-len N      longest test length (2L)\n"
        "      --steps K         optimiser steps (1000)\n"
        "      --batch B         examples per step (32)\n"
        "      --lr X            peak learning rate (1e-3)\n"
        "      --min-lr X        learning rate at the last step (lr/10)\n"
        "      --warmup W        linear warmup steps before the cosine (K/20)\n"
        "      --seed X          initial weights and training batches (1)\n"
        "      --d-model D       width (64)\n"
        "      --heads H         attention heads (4)\n"
        "      --layers L        transformer blocks (2)\n"
        "      --symbols V       alphabet size (10)\n"
        "      --eval-samples M  test examples per length (256)\n"
        "      --eval-output F   the table to F instead of standard output\n"
        "      --log-every S     steps per curve row (K/100, at least 1)\n"
        "      --threads N       threads of each step (1); with N > 1 OpenBLAS runs\n"
        "                        one thread in each unless OPENBLAS_NUM_THREADS is set\n"
        "      --chunks K        micro-batches per step (4): rows sorted by the\n"
        "                        positions they use, each group run at its own\n"
        "                        length (padding past a row's answer is skipped)\n"
        "      --peak-seconds S  time spent measuring this build's dgemm peak on N\n"
        "                        threads for the metadata (0.3; 0 = not measured)\n"
        "\n"
        "rope's schedule options (the head dimension is D/H, not --dim; --method\n"
        "applies at scoring only: training is plain RoPE):\n", fp);
  rl_sched_opts_help(fp);
  fputc('\n', fp);
  rl_common_help_noplot(fp);
}

enum {
  O_SCHEME = RL_OPT_FIRST_CMD, O_TASK, O_TRAIN_LEN, O_EVAL_LEN, O_STEPS, O_BATCH, O_LR,
  O_MIN_LR, O_WARMUP, O_SEED, O_DMODEL, O_HEADS, O_LAYERS, O_SYMBOLS, O_SAMPLES, O_EVAL_OUT,
  O_LOG_EVERY, O_THREADS, O_CHUNKS, O_PEAK
};

typedef struct targs {
  int scheme, task;
  unsigned long long train_len, eval_len, steps, batch, warmup, seed, d_model, heads, layers,
      symbols, samples, log_every, threads, chunks;
  double lr, min_lr, peak_s;
  int have_eval_len, have_warmup, have_min_lr, have_log_every;
  const char *eval_out;
} targs;

static double now(clockid_t id)
{
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int parse(targs *a, rl_sched_opts *so, rl_common *co, int argc, char **argv)
{
  static const struct option own[] = {
      {"scheme", required_argument, NULL, O_SCHEME},
      {"task", required_argument, NULL, O_TASK},
      /* before the schedule's --train-len: getopt takes the first match */
      {"train-len", required_argument, NULL, O_TRAIN_LEN},
      {"eval-len", required_argument, NULL, O_EVAL_LEN},
      {"steps", required_argument, NULL, O_STEPS},
      {"batch", required_argument, NULL, O_BATCH},
      {"lr", required_argument, NULL, O_LR},
      {"min-lr", required_argument, NULL, O_MIN_LR},
      {"warmup", required_argument, NULL, O_WARMUP},
      {"seed", required_argument, NULL, O_SEED},
      {"d-model", required_argument, NULL, O_DMODEL},
      {"heads", required_argument, NULL, O_HEADS},
      {"layers", required_argument, NULL, O_LAYERS},
      {"symbols", required_argument, NULL, O_SYMBOLS},
      {"eval-samples", required_argument, NULL, O_SAMPLES},
      {"eval-output", required_argument, NULL, O_EVAL_OUT},
      {"log-every", required_argument, NULL, O_LOG_EVERY},
      {"threads", required_argument, NULL, O_THREADS},
      {"chunks", required_argument, NULL, O_CHUNKS},
      {"peak-seconds", required_argument, NULL, O_PEAK},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const struct option *opts = rl_sched_longopts(own);
  int c, r = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case O_SCHEME:
      r = rl_opt_enum(cmd, "--scheme", optarg, rl_train_pos_names(), RL_TPOS_COUNT, &a->scheme);
      break;
    case O_TASK:
      r = rl_opt_enum(cmd, "--task", optarg, rl_task_names(), RL_TASK_COUNT, &a->task);
      break;
    case O_TRAIN_LEN: r = rl_opt_uint(cmd, "--train-len", optarg, 1, 1024, &a->train_len); break;
    case O_EVAL_LEN:
      r = rl_opt_uint(cmd, "--eval-len", optarg, 1, 1024, &a->eval_len);
      a->have_eval_len = 1;
      break;
    case O_STEPS: r = rl_opt_uint(cmd, "--steps", optarg, 1, 100000000, &a->steps); break;
    case O_BATCH: r = rl_opt_uint(cmd, "--batch", optarg, 1, 4096, &a->batch); break;
    case O_WARMUP:
      r = rl_opt_uint(cmd, "--warmup", optarg, 0, 100000000, &a->warmup);
      a->have_warmup = 1;
      break;
    case O_SEED: r = rl_opt_seed(cmd, optarg, &a->seed); break;
    case O_DMODEL: r = rl_opt_uint(cmd, "--d-model", optarg, 1, 4096, &a->d_model); break;
    case O_HEADS: r = rl_opt_uint(cmd, "--heads", optarg, 1, 4096, &a->heads); break;
    case O_LAYERS: r = rl_opt_uint(cmd, "--layers", optarg, 1, 64, &a->layers); break;
    case O_SYMBOLS: r = rl_opt_uint(cmd, "--symbols", optarg, 2, 1000000, &a->symbols); break;
    case O_SAMPLES: r = rl_opt_uint(cmd, "--eval-samples", optarg, 1, 100000000, &a->samples); break;
    case O_LOG_EVERY:
      r = rl_opt_uint(cmd, "--log-every", optarg, 1, 100000000, &a->log_every);
      a->have_log_every = 1;
      break;
    case O_EVAL_OUT: a->eval_out = optarg; break;
    case O_THREADS: r = rl_opt_uint(cmd, "--threads", optarg, 1, 64, &a->threads); break;
    case O_CHUNKS: r = rl_opt_uint(cmd, "--chunks", optarg, 1, 4096, &a->chunks); break;
    case O_PEAK:
      if ((r = rl_opt_double(cmd, "--peak-seconds", optarg, &a->peak_s)))
        break;
      if (!(a->peak_s >= 0) || a->peak_s > 60)
        r = rl_usage(cmd, "invalid --peak-seconds '%s': expected a number in [0, 60]", optarg);
      break;
    case O_LR:
    case O_MIN_LR: {
      double *x = c == O_LR ? &a->lr : &a->min_lr;
      const char *name = c == O_LR ? "--lr" : "--min-lr";
      if ((r = rl_opt_double(cmd, name, optarg, x)))
        break;
      if (!(*x >= 0) || *x > 1 || (c == O_LR && *x == 0))
        r = rl_usage(cmd, "invalid %s '%s': expected a number in %s1]", name, optarg,
                     c == O_LR ? "(0, " : "[0, ");
      a->have_min_lr |= c == O_MIN_LR;
      break;
    }
    default:
      r = rl_sched_opt_default(so, co, cmd, c, argv, opts);
    }
    if (r)
      return r;
  }
  if ((r = rl_opt_end(co, cmd, argc, argv, help)))
    return r;
  if (co->plot)
    return rl_usage(cmd, "invalid --plot '%s': train draws no figure", co->plot);
  return 0;
}

/* Schedule options for a scheme other than rope, or --dim (which is
 * D/H here), are refused rather than silently ignored. */
static int check_sched_given(const targs *a, const rl_sched_opts *so)
{
  if (rl_schedule_param_given(&so->p, rl_schedule_param_find("dim")))
    return rl_usage(cmd, "invalid --dim: the head dimension is --d-model / --heads here");
  if (a->scheme == RL_TPOS_ROPE)
    return 0;
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (rl_schedule_param_given(&so->p, *d) &&
        !((a->scheme == RL_TPOS_SINUSOIDAL || a->scheme == RL_TPOS_XL) &&
          !strcmp((*d)->key, "base")))
      return rl_usage(cmd, "invalid --%s for --scheme %s: only rope takes the schedule's options",
                      (*d)->key, rl_train_pos_names()[a->scheme]);
  return 0;
}

/* The scoring schedule: method M with the training context as its
 * original length (when M takes one) and, for methods that depend on the
 * current length, seq_len = the test length's positions. */
static int eval_schedule(const rl_sched_opts *so, size_t train_T, size_t T, rl_schedule **f)
{
  rl_schedule_params p = so->p;
  const rl_schedule_type *t = p.method;
  if (t->uses & RL_SP_TRAIN_LEN) {
    p.train_len = (double)train_T;
    rl_schedule_param_mark(&p, rl_schedule_param_find("train-len"));
  }
  if ((t->uses & RL_SP_SEQ_LEN) && !rl_schedule_param_given(&so->p, rl_schedule_param_find("seq-len"))) {
    p.seq_len = (double)(T > train_T ? T : train_T);
    rl_schedule_param_mark(&p, rl_schedule_param_find("seq-len"));
  }
  return rl_sched_build(&p, cmd, f);
}

static int set_rope(rl_train_model *m, const rl_schedule *f)
{
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_train_set_rope(m, f, err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory");
  return st ? rl_usage(cmd, "%s", err) : 0;
}

static void progress(int on, size_t step, size_t steps, double loss, double t0, double *last)
{
  double t = now(CLOCK_MONOTONIC);
  if (!on || (step < steps && t - *last < 0.25))
    return;
  *last = t;
  double el = t - t0, eta = step ? el * (double)(steps - step) / (double)step : 0;
  fprintf(stderr, "\rropelab train: step %zu/%zu (%3d%%) loss %.4f, %.0f s, ETA %.0f s   ", step,
          steps, (int)(100.0 * (double)step / (double)steps), loss, el, eta);
  if (step == steps)
    fputc('\n', stderr);
  fflush(stderr);
}

static void meta_run(rl_out *o, const targs *a, const rl_sched_opts *so, const rl_schedule *f,
                     const rl_train_model *m)
{
  rl_out_meta_begin(o);
  rl_out_meta(o, "scheme", rl_train_pos_names()[a->scheme]);
  rl_out_meta(o, "task", rl_task_names()[a->task]);
  rl_out_meta_uint(o, "symbols", a->symbols);
  rl_out_meta_uint(o, "train_len", a->train_len);
  rl_out_meta_uint(o, "eval_len", a->eval_len);
  rl_out_meta_uint(o, "steps", a->steps);
  rl_out_meta_uint(o, "batch", a->batch);
  rl_out_meta_num(o, "lr", a->lr);
  rl_out_meta_num(o, "min_lr", a->min_lr);
  rl_out_meta_uint(o, "warmup", a->warmup);
  rl_out_meta(o, "optimizer", "adamw beta1=0.9 beta2=0.99 eps=1e-8 weight_decay=0.1 clip=1");
  rl_out_meta_uint(o, "seed", a->seed);
  rl_out_meta_uint(o, "d_model", a->d_model);
  rl_out_meta_uint(o, "heads", a->heads);
  rl_out_meta_uint(o, "layers", a->layers);
  rl_out_meta_uint(o, "threads", a->threads);
  rl_out_meta_uint(o, "chunks", a->chunks);
  rl_out_meta_uint(o, "parameters", rl_train_nparams(m));
  rl_out_meta_uint(o, "memory_bytes", rl_train_bytes(m));
  rl_out_meta_uint(o, "eval_samples", a->samples);
  rl_out_meta_uint(o, "eval_seed", EVAL_SEED);
  rl_out_meta(o, "blas", RL_BLAS);
  if (a->scheme == RL_TPOS_ROPE)
    rl_sched_meta(&so->p, f, o);
}

static int run(int argc, char **argv)
{
  targs a = {.scheme = RL_TPOS_ROPE, .task = RL_TASK_COPY, .train_len = 20, .steps = 1000,
             .batch = 32, .seed = 1, .d_model = 64, .heads = 4, .layers = 2, .symbols = 10,
             .samples = 256, .lr = 1e-3, .threads = 1, .chunks = 4, .peak_s = 0.3};
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  rl_common co;
  rl_common_init(&co);
  int r = parse(&a, &so, &co, argc, argv);
  if (r == RL_OPT_DONE)
    return RL_EXIT_OK;
  if (r || (r = check_sched_given(&a, &so)))
    return r;
  if (!a.have_eval_len)
    a.eval_len = 2 * a.train_len;
  if (!a.have_min_lr)
    a.min_lr = a.lr / 10;
  if (!a.have_warmup)
    a.warmup = a.steps / 20;
  if (!a.have_log_every)
    a.log_every = a.steps >= 100 ? a.steps / 100 : 1;
  if (a.d_model % a.heads)
    return rl_usage(cmd, "invalid --d-model '%llu': expected a multiple of --heads %llu",
                    a.d_model, a.heads);
  size_t hd = (size_t)(a.d_model / a.heads);
  if (a.scheme == RL_TPOS_ROPE && hd % 2)
    return rl_usage(cmd, "invalid --d-model '%llu': rope needs an even head dimension (d-model/heads = %zu)",
                    a.d_model, hd);
  so.p.dim = hd;
  if ((r = rl_sched_opts_finish(&so, cmd)))
    return r;
  rl_task task = {(rl_task_kind)a.task, (size_t)a.symbols};
  if (a.train_len > rl_task_max_n(&task) || a.eval_len > rl_task_max_n(&task))
    return rl_usage(cmd, "invalid --%s '%llu' for --task %s: expected at most --symbols %llu (distinct keys)",
                    a.train_len > rl_task_max_n(&task) ? "train-len" : "eval-len",
                    a.train_len > rl_task_max_n(&task) ? a.train_len : a.eval_len,
                    rl_task_names()[a.task], a.symbols);
  size_t train_T = rl_task_len(&task, a.train_len), eval_T = rl_task_len(&task, a.eval_len);
  size_t maxT = train_T > eval_T ? train_T : eval_T;
  rl_train_cfg cfg;
  rl_train_cfg_default(&cfg);
  cfg.vocab = rl_task_vocab(&task), cfg.d_model = a.d_model, cfg.heads = a.heads;
  cfg.layers = a.layers, cfg.batch = a.batch, cfg.max_T = maxT, cfg.pos = (rl_train_pos)a.scheme;
  cfg.seed = a.seed, cfg.base = so.p.base, cfg.threads = a.threads, cfg.chunks = a.chunks;
  rl_train_model *m = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_train_new(&cfg, &m, err);
  if (st)
    return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory for the model") : rl_usage(cmd, "%s", err);
  rl_schedule *train_f = NULL, *eval_f = NULL;
  int plain = 1;
  if (a.scheme == RL_TPOS_ROPE) {
    /* training: plain RoPE of the same dim, rot, base and layout */
    rl_schedule_params tp;
    rl_schedule_params_default(&tp);
    tp.dim = so.p.dim, tp.rot = so.p.rot, tp.base = so.p.base, tp.layout = so.p.layout;
    if ((r = rl_sched_build(&tp, cmd, &train_f)) || (r = set_rope(m, train_f)) ||
        (r = eval_schedule(&so, train_T, eval_T, &eval_f)) || (r = set_rope(m, eval_f)) ||
        (r = set_rope(m, train_f)))
      goto done;
    plain = so.p.method == rl_schedule_type_find("rope");
  }
  rl_out curve = {0}, tab = {0};
  int curve_open = 0, show = co.progress == RL_PROGRESS_FORCE ||
                             (co.progress == RL_PROGRESS_AUTO && isatty(2));
  if (co.output) {
    if ((r = rl_out_open(&curve, cmd, co.output, co.meta, co.header)))
      goto done;
    curve_open = 1;
    meta_run(&curve, &a, &so, eval_f, m);
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
  rl_adamw opt;
  rl_adamw_default(&opt);
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID), last = 0, sum = 0;
  size_t tokens = 0, since = 0;
  double loss = 0;
  for (size_t step = 0; step < a.steps; step++) {
    for (size_t b = 0; b < B; b++)
      rl_task_example(&task, &data, 1 + rl_train_rng_below(&data, a.train_len), train_T,
                      inp + b * train_T, tgt + b * train_T);
    double lr = rl_train_lr(step, a.steps, a.warmup, a.lr, a.min_lr);
    rl_train_zero_grad(m);
    loss = rl_train_forward(m, inp, tgt, B, train_T);
    rl_train_backward(m);
    double gn = rl_train_update(m, &opt, lr);
    if (!isfinite(loss) || !isfinite(gn)) {
      free(inp), free(tgt);
      if (show)
        fputc('\n', stderr);
      r = rl_runtime(cmd, "training diverged at step %zu: loss %g, gradient norm %g", step, loss, gn);
      goto fail_curve;
    }
    tokens += N, sum += loss, since++;
    if (curve_open && (since == a.log_every || step + 1 == a.steps)) {
      double row[6] = {(double)(step + 1), lr, sum / (double)since, gn, (double)tokens,
                       now(CLOCK_MONOTONIC) - w0};
      rl_out_row(&curve, row, 6);
      sum = 0, since = 0;
    }
    if (!curve_open && since == a.log_every)
      sum = 0, since = 0;
    progress(show, step + 1, a.steps, loss, w0, &last);
  }
  free(inp), free(tgt);
  double wall = now(CLOCK_MONOTONIC) - w0, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  double flops = rl_train_flops(m);
  if (curve_open && (r = rl_out_close(&curve)))
    goto done;
  curve_open = 0;
  /* scoring: plain RoPE (the training schedule), then the method */
  if ((r = rl_out_open(&tab, cmd, a.eval_out, co.meta, co.header)))
    goto done;
  meta_run(&tab, &a, &so, eval_f, m);
  rl_out_meta_num(&tab, "train_wall_s", wall);
  rl_out_meta_num(&tab, "train_cpu_s", cpu);
  rl_out_meta_num(&tab, "train_tokens", (double)tokens);
  rl_out_meta_num(&tab, "train_tokens_per_s", (double)tokens / wall);
  rl_out_meta_num(&tab, "train_flops", flops);
  rl_out_meta_num(&tab, "train_flop_per_s", flops / wall);
  if (a.peak_s > 0) {
    /* the same build's dgemm (n = 256) on as many threads, now, under
     * the same load as the run */
    double peak = rl_train_peak_flops(256, a.threads, a.peak_s);
    rl_out_meta_num(&tab, "peak_dgemm_flop_per_s", peak);
    rl_out_meta_num(&tab, "train_flop_fraction_of_peak", peak > 0 ? flops / wall / peak : 0.0);
  }
  rl_out_meta_num(&tab, "final_loss", loss);
  rl_out_header(&tab, "method,len,in_dist,exact,token_acc,loss,samples");
  double e0 = now(CLOCK_MONOTONIC);
  for (int pass = 0; pass < (plain ? 1 : 2) && !r; pass++) {
    const char *mname = a.scheme != RL_TPOS_ROPE ? "-" : pass ? so.p.method->name : "rope";
    if (pass && (r = set_rope(m, eval_f)))
      break;
    for (size_t n = 1; n <= a.eval_len && !r; n++) {
      if (pass && (so.p.method->uses & RL_SP_SEQ_LEN)) {
        /* the current length changes the schedule (dynamic, longrope) */
        rl_schedule_free(eval_f);
        eval_f = NULL;
        if ((r = eval_schedule(&so, train_T, rl_task_len(&task, n), &eval_f)) ||
            (r = set_rope(m, eval_f)))
          break;
      }
      rl_train_eval ev;
      if ((st = rl_train_evaluate(m, &task, n, a.samples, EVAL_SEED, &ev, err))) {
        r = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : rl_usage(cmd, "%s", err);
        break;
      }
      char b[6][RL_NUMFMT_MAX];
      snprintf(b[0], sizeof b[0], "%zu", n);
      rl_numfmt(ev.exact, b[1]);
      rl_numfmt(ev.token_acc, b[2]);
      rl_numfmt(ev.loss, b[3]);
      snprintf(b[4], sizeof b[4], "%zu", ev.samples);
      const char *fld[7] = {mname, b[0], n <= a.train_len ? "1" : "0", b[1], b[2], b[3], b[4]};
      rl_out_fields(&tab, fld, 7);
    }
  }
  if (r) {
    rl_out_abort(&tab);
    goto done;
  }
  r = rl_out_close(&tab);
  if (show && !r)
    fprintf(stderr, "ropelab train: %llu steps in %.1f s wall, %.1f s CPU, %.0f tokens/s, %.3g FLOP/s; scoring %.1f s\n",
            a.steps, wall, cpu, (double)tokens / wall, flops / wall, now(CLOCK_MONOTONIC) - e0);
  goto done;
fail_curve:
  if (curve_open)
    rl_out_abort(&curve);
done:
  rl_schedule_free(train_f);
  rl_schedule_free(eval_f);
  rl_train_free(m);
  return r;
}

const struct rl_cmd rl_cmd_train = {"train", run,
                                    "train a tiny decoder; score it past its training length",
                                    help};
