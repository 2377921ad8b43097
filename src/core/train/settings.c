/* settings.c: the settings of a training run, declared once (train_run.h,
 * "a run's settings"): each one's option key, bounds, default and help
 * line, from which `ropelab train` builds its options, help, metadata and
 * messages; the defaults that depend on other settings; and the model
 * configuration and run they give.  The defaults are written here only,
 * in the .dflt of each declaration (dav1d's library-owned defaults). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

#define F(f) offsetof(rl_train_settings, f)
#define BIG 1e8 /* a typo guard for counts of steps and samples */

static const rl_param p_scheme = {
    .key = "scheme", .kind = RL_PK_ENUM, .offset = F(scheme), .dflt = RL_TRAIN_POS_IDX_rope,
    .names_fn = rl_train_pos_names, .metavar = "S",
    .help = "the positional scheme; --base sets sinusoidal's and xl's frequencies"};
static const rl_param p_task = {
    .key = "task", .kind = RL_PK_ENUM, .offset = F(task), .dflt = RL_TASK_COPY,
    .names_fn = rl_task_names, .metavar = "T",
    .help = "the synthetic task; recall needs lengths <= --symbols"};
static const rl_param p_symbols = {
    .key = "symbols", .kind = RL_PK_SIZE, .offset = F(symbols), .lo = 2, .hi = 1e6, .dflt = 10,
    .metavar = "V", .help = "alphabet size"};
static const rl_param p_train_len = {
    .key = "train-len", .kind = RL_PK_SIZE, .offset = F(train_len), .lo = 1, .hi = 1024,
    .dflt = 20, .metavar = "L", .symbol = "L",
    .help = "longest training example; with rope the schedule's original context is the "
            "positions this gives (yarn, linear, ... use it)"};
static const rl_param p_eval_len = {
    .key = "eval-len", .kind = RL_PK_SIZE, .offset = F(eval_len), .bit = RL_TS_EVAL_LEN,
    .lo = 1, .hi = 1024, .metavar = "N", .dflt_text = "2L", .help = "longest test length"};
static const rl_param p_steps = {
    .key = "steps", .kind = RL_PK_SIZE, .offset = F(steps), .bit = RL_TS_STEPS, .lo = 1,
    .hi = BIG, .dflt = 1000, .dflt_text = "per scheme", .metavar = "K",
    .help = "optimiser steps"};
static const rl_param p_batch = {
    .key = "batch", .kind = RL_PK_SIZE, .offset = F(batch), .lo = 1, .hi = 4096, .dflt = 32,
    .metavar = "B", .help = "examples per step"};
static const rl_param p_lr = {
    .key = "lr", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .offset = F(lr), .lo = 0, .hi = 1,
    .bit = RL_TS_LR, .dflt = 1e-3, .dflt_text = "per scheme", .metavar = "X",
    .expect = "a number in (0, 1]",
    .help = "peak learning rate"};
static const rl_param p_min_lr = {
    .key = "min-lr", .kind = RL_PK_REAL, .offset = F(min_lr), .bit = RL_TS_MIN_LR, .lo = 0,
    .hi = 1, .metavar = "X", .expect = "a number in [0, 1]", .dflt_text = "per scheme",
    .help = "learning rate at the last step"};
static const rl_param p_warmup = {
    .key = "warmup", .kind = RL_PK_SIZE, .offset = F(warmup), .bit = RL_TS_WARMUP, .lo = 0,
    .hi = BIG, .metavar = "W", .dflt_text = "per scheme",
    .help = "linear warmup steps before the cosine"};
static const rl_param p_seed = {
    .key = "seed", .kind = RL_PK_SIZE, .offset = F(seed), .lo = 1, .hi = 4294967295.0,
    .dflt = 1, .metavar = "S", .help = "initial weights and training batches"};
static const rl_param p_d_model = {
    .key = "d-model", .kind = RL_PK_SIZE, .offset = F(d_model), .lo = 1, .hi = 4096, .dflt = 64,
    .metavar = "D", .help = "width, a multiple of --heads"};
static const rl_param p_heads = {
    .key = "heads", .kind = RL_PK_SIZE, .offset = F(heads), .lo = 1, .hi = 4096, .dflt = 4,
    .metavar = "H", .help = "attention heads"};
static const rl_param p_layers = {
    .key = "layers", .kind = RL_PK_SIZE, .offset = F(layers), .bit = RL_TS_LAYERS, .lo = 1,
    .hi = 64, .dflt = 2, .dflt_text = "per scheme", .metavar = "N",
    .help = "transformer blocks"};
/* threads and chunks change the order of the gradient sums, so they are
 * settings of the run (and of its checkpoint), not only of its speed */
static const rl_param p_threads = {
    .key = "threads", .kind = RL_PK_SIZE, .flags = RL_PF_NO_SWEEP, .offset = F(threads),
    .lo = 1, .hi = 64, .dflt = 2, .metavar = "N",
    .help = "threads of each step (OpenBLAS runs one thread in each unless "
            "OPENBLAS_NUM_THREADS is set)"};
/* 8: at batch 32 groups of 4 rows, whose padding is 8% of the positions
 * computed for lengths uniform in 1..20 (19% in groups of 8), for 6% less
 * CPU a step on experiments/copy_all.sh's model (2026-12-05); more
 * chunks shrink the matrix products more than the padding */
static const rl_param p_chunks = {
    .key = "chunks", .kind = RL_PK_SIZE, .offset = F(chunks), .lo = 1, .hi = 4096, .dflt = 8,
    .metavar = "K",
    .help = "micro-batches per step: rows sorted by the positions they use, each group run "
            "at its own length (padding past a row's answer is skipped)"};
static const rl_param p_eval_samples = {
    .key = "eval-samples", .kind = RL_PK_SIZE, .offset = F(eval_samples), .lo = 1, .hi = BIG,
    .dflt = 256, .metavar = "M", .help = "test examples per length"};
static const rl_param p_log_every = {
    .key = "log-every", .kind = RL_PK_SIZE, .offset = F(log_every), .bit = RL_TS_LOG_EVERY,
    .lo = 1, .hi = BIG, .metavar = "S", .dflt_text = "K/100, at least 1",
    .help = "steps per curve row"};
static const rl_param p_max_loss = {
    .key = "max-loss", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .offset = F(max_loss),
    .lo = 0, .hi = INFINITY, .dflt = 100, .metavar = "X",
    .help = "a step's loss above X nats counts as divergence"};
static int have_checkpoint(const void *obj)
{
  return ((const rl_train_settings *)obj)->checkpoint != NULL;
}
static const rl_param p_checkpoint = {
    .key = "checkpoint", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_SWEEP,
    .offset = F(checkpoint), .metavar = "F", .meta_if = have_checkpoint,
    .help = "write the run's state to F every --checkpoint-every steps, at the end and when "
            "interrupted; atomically (the last complete checkpoint survives a crash "
            "mid-write); format: src/core/train/checkpoint.md"};
static const rl_param p_checkpoint_every = {
    .key = "checkpoint-every", .kind = RL_PK_SIZE, .offset = F(checkpoint_every),
    .bit = RL_TS_CHECKPOINT_EVERY, .lo = 1, .hi = BIG, .metavar = "C",
    .dflt_text = "K/10, at least 1", .meta_if = have_checkpoint,
    .help = "steps between checkpoints"};
static const rl_param p_resume = {
    .key = "resume", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = F(resume),
    .set_to = 1,
    .help = "continue from --checkpoint F: its weights, AdamW moments, step and batch "
            "stream, bit for bit as if never stopped; the model and training options must "
            "be F's"};
static const rl_param p_stop_after = {
    .key = "stop-after", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META | RL_PF_NO_SWEEP,
    .offset = F(stop_after), .lo = 1, .hi = BIG, .dflt = 0, .dflt_text = "", .metavar = "S",
    .help = "stop after S steps of this run, as an interrupt would: checkpoint, no table, "
            "exit 0"};
static const rl_param p_eval_output = {
    .key = "eval-output", .kind = RL_PK_TEXT,
    .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_NO_META, .offset = F(eval_output),
    .metavar = "F", .help = "the table to F instead of standard output"};
static const rl_param p_peak_seconds = {
    .key = "peak-seconds", .kind = RL_PK_REAL, .flags = RL_PF_NO_META | RL_PF_NO_SWEEP,
    .offset = F(peak_seconds), .lo = 0, .hi = 60, .dflt = 0.3, .metavar = "S",
    .help = "time spent measuring this build's dgemm peak (sgemm with --dtype float32) on N "
            "threads for the metadata "
            "(0 = not measured)"};

/* float32 keeps float64 master weights and AdamW moments (train.h,
 * rl_train_dtype): the update and the checkpoint are float64 in both */
static const rl_param p_dtype = {
    .key = "dtype", .kind = RL_PK_ENUM, .offset = F(dtype), .dflt = RL_TDTYPE_FLOAT32,
    .names_fn = rl_train_dtype_names, .metavar = "T",
    .help = "arithmetic of the forward and backward: float64, or float32 (float32 weights, "
            "activations and gradients, sgemm; float64 master weights and AdamW moments, the "
            "float32 weights rounded from them each step)"};

/* the order of the help and of the metadata */
static const rl_param *const train_params[] = {
    &p_scheme, &p_task, &p_symbols, &p_train_len, &p_eval_len, &p_steps, &p_batch, &p_lr,
    &p_min_lr, &p_warmup, &p_seed, &p_d_model, &p_heads, &p_layers, &p_threads, &p_chunks,
    &p_eval_samples, &p_log_every, &p_max_loss, &p_checkpoint, &p_checkpoint_every, &p_resume,
    &p_stop_after, &p_eval_output, &p_peak_seconds, &p_dtype, NULL};

const rl_param *const *rl_train_param_list(void) { return train_params; }

/* evaluate's --eval-samples is train's (the same bounds and meaning; its
 * default there is the checkpoint's) */
static const rl_param *const eval_reused[] = {&p_eval_samples, NULL};
const rl_param *const *rl_train_eval_param_list(void) { return eval_reused; }

void rl_train_settings_default(rl_train_settings *s)
{
  memset(s, 0, sizeof *s);
  for (const rl_param *const *d = train_params; *d; d++)
    rl_param_set_default(*d, s);
  char err[RL_ERR_MAX];
  rl_train_settings_resolve(s, err, sizeof err); /* the defaults pass its checks */
}

rl_status rl_train_settings_resolve(rl_train_settings *s, char *err, size_t n)
{
  if (!(s->set & RL_TS_EVAL_LEN))
    s->eval_len = 2 * s->train_len;
  rl_train_recipe_apply(s); /* layers, steps, lr, min-lr, warmup */
  if (!(s->set & RL_TS_LOG_EVERY))
    s->log_every = s->steps >= 100 ? s->steps / 100 : 1;
  if (!(s->set & RL_TS_CHECKPOINT_EVERY))
    s->checkpoint_every = s->steps >= 10 ? s->steps / 10 : 1;
  if (!s->checkpoint && (s->resume || s->stop_after || (s->set & RL_TS_CHECKPOINT_EVERY)))
    return rl_errf(RL_EINVAL, err, n, "invalid --%s: expected --checkpoint FILE with it",
                   s->resume ? "resume" : s->stop_after ? "stop-after" : "checkpoint-every");
  if (s->d_model % s->heads)
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --d-model '%zu': expected a multiple of --heads %zu", s->d_model,
                   s->heads);
  size_t hd = s->d_model / s->heads;
  if (rl_train_scheme_rope(s->scheme) && hd % 2)
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --d-model '%zu': rope needs an even head dimension "
                   "(d-model/heads = %zu)", s->d_model, hd);
  rl_task task = {(rl_task_kind)s->task, s->symbols};
  size_t most = rl_task_max_n(&task);
  if (s->train_len > most || s->eval_len > most)
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --%s '%zu' for --task %s: expected at most --symbols %zu "
                   "(distinct keys)", s->train_len > most ? "train-len" : "eval-len",
                   s->train_len > most ? s->train_len : s->eval_len,
                   rl_task_names()[s->task], s->symbols);
  return RL_OK;
}

void rl_train_settings_cfg(const rl_train_settings *s, rl_train_cfg *c)
{
  rl_task task = {(rl_task_kind)s->task, s->symbols};
  size_t a = rl_task_len(&task, s->train_len), b = rl_task_len(&task, s->eval_len);
  memset(c, 0, sizeof *c);
  c->vocab = rl_task_vocab(&task), c->d_model = s->d_model, c->heads = s->heads;
  c->layers = s->layers, c->batch = s->batch, c->max_T = a > b ? a : b;
  c->pos = s->scheme, c->seed = s->seed, c->threads = s->threads;
  c->chunks = s->chunks;
  c->dtype = s->dtype;
  /* t5's buckets (Raffel et al. 2020's 32 and 128) and sinusoidal's base
   * are not run settings: the model's own */
  c->num_buckets = 32, c->max_distance = 128, c->base = 10000;
}

void rl_train_settings_run(const rl_train_settings *s, rl_train_run *r)
{
  memset(r, 0, sizeof *r);
  r->task = (rl_task){(rl_task_kind)s->task, s->symbols};
  rl_adamw_default(&r->opt);
  r->steps = s->steps, r->warmup = s->warmup, r->train_len = s->train_len;
  r->eval_len = s->eval_len, r->eval_samples = s->eval_samples, r->log_every = s->log_every;
  r->checkpoint_every = s->checkpoint_every, r->threads = s->threads;
  r->lr = s->lr, r->min_lr = s->min_lr;
}

void rl_train_cfg_default(rl_train_cfg *c)
{
  rl_train_settings s;
  rl_train_settings_default(&s);
  rl_train_settings_cfg(&s, c);
  c->max_T = 64; /* room for every task at the default lengths */
}

void rl_train_run_default(rl_train_run *r)
{
  rl_train_settings s;
  rl_train_settings_default(&s);
  rl_train_settings_run(&s, r);
}
