/* train_run.h: (installed as ropelab/train_run.h, included by ropelab.h)
 * a training run's persistence and robustness: the checkpoint file
 * (format below and in src/core/train/checkpoint.md), and the scan that names the
 * first non-finite activation of a forward pass.
 *
 * Checkpoint format, version 3 (RL_CKPT_VERSION; version 2, the same
 * without NAME's dtype, is read as float64; version 1, the same layout,
 * marked models trained without BOS and is refused).  Every
 * integer is unsigned little-endian, every real an IEEE 754 binary64
 * stored little-endian:
 *   offset 0   8 bytes  magic 89 52 4C 43 4B 50 54 0A ("\x89RLCKPT\n")
 *          8   u32      format version (3)
 *         12   u32      endianness marker 0x0A0B0C0D (bytes 0D 0C 0B 0A)
 *         16   u64      the file's length in bytes, trailer included
 *         24   sections, in this order, each a u32 tag (four ASCII
 *              letters), a u32 0, a u64 payload length and the payload:
 *              NAME  text: scheme=S, task=T, dtype=D (names, not enum
 *                    values; D float64 or float32, the forward's arithmetic:
 *                    the tensors below are float64 in both)
 *              CONF  27 x 8 bytes: the model, task, optimiser and run
 *                    settings (RL_CKPT_CONF_FIELDS, in rl_ckpt_conf_keys'
 *                    order: u64 unless the key says f64)
 *              ROPE  text: the training schedule (key=value lines of
 *                    rl_schedule_param_list's keys), empty unless rope
 *              EVAL  text: the scoring schedule train was given
 *              PROV  text: provenance (version, date, started, seed,
 *                    threads, blas, blas_core, resumed_at_step, command)
 *              STAT  3 x u64: steps done, the batches' RNG state, the
 *                    parameter count P
 *              PARM, MOM1, MOM2  P x f64: parameters, AdamW's first and
 *                    second moments (the layout of rl_train_params)
 *       end-4  u32      CRC-32 (ISO-HDLC, zlib's crc32) of every byte
 *                       before it
 * Texts are "key=value\n" lines, no NUL, at most RL_CKPT_TEXT_MAX - 1
 * bytes.  What a reader refuses, and in which order (header, small
 * sections with every CONF field checked as train checks its option,
 * sizes, then the tensors' values): rl_ckpt_read below and
 * src/core/train/checkpoint.md. */
#ifndef ROPELAB_TRAIN_RUN_H
#define ROPELAB_TRAIN_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"
#include "train.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2: every example opens with BOS (task.c); a version-1 model read no BOS.
 * 3: NAME has dtype= (float64, float32); a version-2 file is read as
 * float64 */
#define RL_CKPT_VERSION 3u
#define RL_CKPT_TEXT_MAX 4096

/* The run's settings besides the model's configuration. */
typedef struct rl_train_run {
  rl_task task;
  rl_adamw opt;
  uint64_t steps, warmup, train_len, eval_len, eval_samples, log_every, checkpoint_every,
      threads;
  double lr, min_lr;
} rl_train_run;
/* The defaults of rl_train_settings_default, resolved (settings.c). */
void rl_train_run_default(rl_train_run *r);

/* ---- a run's settings, declared once (src/core/train/settings.c) -------
 * Every setting of `ropelab train` is an rl_param of rl_train_param_list
 * (key = the long option, default, bounds, help): the CLI builds its
 * options, parsing, help rows, metadata and messages from them, and the
 * defaults live only in those declarations.  A default that depends on
 * another setting (eval-len 2L, min-lr lr/10, ...) is filled in by
 * rl_train_settings_resolve unless its bit is in set. */
enum {
  RL_TS_EVAL_LEN = 1u << 0,
  RL_TS_MIN_LR = 1u << 1,
  RL_TS_WARMUP = 1u << 2,
  RL_TS_LOG_EVERY = 1u << 3,
  RL_TS_CHECKPOINT_EVERY = 1u << 4,
  RL_TS_LAYERS = 1u << 5, /* layers, steps, lr: the scheme's recipe unless given */
  RL_TS_STEPS = 1u << 6,
  RL_TS_LR = 1u << 7
};
typedef struct rl_train_settings {
  int scheme, task; /* rl_train_pos, rl_task_kind */
  size_t symbols, train_len, eval_len, steps, batch, warmup, seed, d_model, heads, layers,
      threads, chunks, eval_samples, log_every, checkpoint_every, stop_after;
  double lr, min_lr, max_loss, peak_seconds;
  const char *checkpoint, *eval_output; /* file names, or NULL */
  int resume;
  unsigned set; /* RL_TS_* bits of the settings given (rl_param.bit) */
  int dtype;    /* rl_train_dtype */
} rl_train_settings;
const rl_param *const *rl_train_param_list(void); /* NULL-terminated */
/* Every declared setting at its default (derived ones resolved). */
void rl_train_settings_default(rl_train_settings *s);
/* The derived defaults of the settings not in s->set, then the checks
 * between settings (d-model a multiple of heads, a task's longest
 * length, --resume without --checkpoint ...): RL_OK, or RL_EINVAL with
 * err (one line naming the options). */
rl_status rl_train_settings_resolve(rl_train_settings *s, char *err, size_t n);
/* The model configuration and the run of resolved settings (max_T, vocab
 * from the task; base from the caller's schedule). */
void rl_train_settings_cfg(const rl_train_settings *s, rl_train_cfg *cfg);
void rl_train_settings_run(const rl_train_settings *s, rl_train_run *run);

/* ---- each scheme's training defaults (src/core/train/recipe.c) --------
 * What `ropelab train --scheme S` trains with where --layers, --steps,
 * --lr, --min-lr are not given: measured to learn the default task (see
 * recipe.c), as a schedule declares its own defaults. */
typedef struct rl_train_recipe {
  size_t layers, steps;
  double lr, min_lr_div; /* peak; the last step's is lr / min_lr_div (0: 0) */
  size_t warmup_div;     /* warmup steps = steps / warmup_div (0: 20) */
} rl_train_recipe;
/* scheme's (an rl_train_pos), or NULL out of range. */
const rl_train_recipe *rl_train_scheme_recipe(int scheme);
/* "--layers 4 --lr 0.005 --min-lr 0 --steps 2000 --warmup K/20": as snprintf. */
int rl_train_recipe_text(int scheme, char *buf, size_t n);
/* The recipe's values into the settings not in s->set (min-lr as lr
 * over the recipe's divisor, lr given or not; warmup as the steps over
 * the recipe's divisor, steps given or not, K/20 for a scheme without
 * a recipe); rl_train_settings_resolve calls it. */
void rl_train_recipe_apply(rl_train_settings *s);

typedef struct rl_ckpt {
  rl_train_cfg cfg;   /* read: the model's (write takes the model's own) */
  rl_train_run run;
  uint64_t step;      /* optimiser steps done (read: also the model's) */
  uint64_t data_rng;  /* the training batches' RNG state after them */
  char rope[RL_CKPT_TEXT_MAX];  /* training schedule, "" unless rope */
  char eval[RL_CKPT_TEXT_MAX];  /* scoring schedule given to train */
  char prov[RL_CKPT_TEXT_MAX];  /* provenance */
  /* write only, for tests: after this many bytes of the temporary file,
   * raise SIGKILL (0 = never) */
  uint64_t test_kill_after;
} rl_ckpt;

/* The values a reader accepts in PARM, MOM1 and MOM2.
 *
 * Parameters: finite and |w| <= RL_CKPT_PARAM_MAX = 1e6.  Why that bound:
 * with every |w| <= B (B >= 1) and the largest model rl_train_new takes
 * (D = 4096, 64 layers), a LayerNorm's output is at most 2 B sqrt(D), a
 * q, k or v entry 3 D^1.5 B^2, an attention logit 9 D^4 B^4, and each
 * layer adds at most 17 D^2.5 B^3 to the residual stream, whose squares
 * LayerNorm sums: at B = 1e6 these are below 3e39 and the sum of squares
 * below 1e64, so neither the forward pass nor the backward's products of
 * two such numbers (below 1e128) can overflow a double, whatever the
 * shape (a model at 1e300 gave NaN in every loss cell: issue 33).  A
 * trained model's weights are O(1) (GPT-2's initialisation at 0.02,
 * AdamW's decay): 1e6 refuses only damage or forgery.
 * Moments: AdamW's first moment is an average of clipped gradients,
 * whose every entry is at most the clip (the whole vector's norm is), so
 * |m1| <= clip and 0 <= m2 <= clip^2, up to rounding: 1e-6 relative
 * covers two roundings a step over the 1e8 steps --steps allows. */
#define RL_CKPT_PARAM_MAX 1e6
#define RL_CKPT_MOMENT_SLACK (1 + 1e-6)

/* The CONF section's keys, RL_CKPT_CONF_FIELDS of them ("f64 " marks a
 * real); documentation and the format test read them. */
#define RL_CKPT_CONF_FIELDS 27
const char *const *rl_ckpt_conf_keys(void);

/* Write ck and m's parameters, moments and step to path atomically: a
 * temporary file in path's directory, fsync, rename over path, fsync of
 * the directory, so that an interrupted write leaves the previous file
 * as it was.  RL_EIO (err: one line naming the path), RL_ENOMEM. */
rl_status rl_ckpt_write(const char *path, const rl_ckpt *ck, rl_train_model *m, char *err);
/* Read path into ck and a new model (its parameters, moments and step
 * restored; rope: no schedule set yet).  max_T > 0 builds the model for
 * that many positions instead of the checkpoint's (longer evaluation;
 * not for learned positions, whose table has the checkpoint's rows).
 * The header is read first, then the small sections, each CONF field
 * checked as `ropelab train` checks its option (the declarations'
 * bounds, then the checks between settings, then the derived and fixed
 * fields equal to the trainer's), from which the file's exact length
 * follows; only then the model is allocated and its tensors read, and
 * their values judged (RL_CKPT_PARAM_MAX) once the checksum holds.
 * RL_EFORMAT "invalid checkpoint 'PATH': FIELD VALUE, expected ..."
 * (not a valid checkpoint), RL_EIO (cannot read), RL_EINVAL (max_T
 * refused), RL_ENOMEM (ck->max_bytes, or the allocation); err one line. */
rl_status rl_ckpt_read(const char *path, size_t max_T, rl_ckpt *ck, rl_train_model **m,
                       char *err);
/* rl_ckpt_read with more to say about the model built: */
typedef struct rl_ckpt_read_opts {
  size_t max_T;       /* as rl_ckpt_read's (0: the checkpoint's) */
  /* build the model for this many threads (1..64; 0 = the checkpoint's).
   * Scoring only: a forward pass's chunks are the same on any thread,
   * while a resumed run's gradient sums need the checkpoint's;
   * ck->cfg.threads stays the checkpoint's */
  size_t threads;
  /* a model needing more bytes than this (rl_train_cfg_bytes) is refused
   * with RL_ENOMEM before its memory is asked for (0 = the machine's
   * physical memory, rl_ckpt_read's limit) */
  uint64_t max_bytes;
} rl_ckpt_read_opts;
rl_status rl_ckpt_read_with(const char *path, const rl_ckpt_read_opts *o, rl_ckpt *ck,
                            rl_train_model **m, char *err);
/* The value of key in a "key=value\n" text into val (n bytes): 1, or 0
 * when absent or too long. */
int rl_ckpt_text_get(const char *text, const char *key, char *val, size_t n);
/* Schedule parameters as "key=value\n" lines (the method, then every
 * parameter given or always in the metadata), and back: RL_EINVAL with
 * err for a key or value the schedule layer refuses.  The text must
 * outlive p (file names point into it). */
rl_status rl_ckpt_sched_text(const rl_schedule_params *p, char *buf, size_t n);
rl_status rl_ckpt_sched_parse(char *text, rl_schedule_params *p, char *err);

/* ---- a run's plan (src/core/train/plan.c) -------------------------------
 * The policy of `ropelab train` around the model. */
/* Whether scheme (an rl_train_pos) is turned by a rope schedule
 * (rl_train_set_rope), which --method then replaces at scoring. */
int rl_train_scheme_rope(int scheme);
/* Whether the scheme's model reads a position table of the max_T rows
 * it was trained with (learned), so no longer lengths. */
int rl_train_scheme_fixed_rows(int scheme);
/* What rl_train_pos_bias gives for the scheme (for the metadata), or
 * NULL for a scheme with no bias per distance. */
const char *rl_train_scheme_bias_measure(int scheme);
/* Whether the trained scheme takes the schedule option key: rope every
 * one; sinusoidal and xl --base (their frequencies); the others none. */
int rl_train_sched_applies(int scheme, const char *key);
/* A resumed run's settings (cfg, run) against its checkpoint's: every
 * one that shapes the model or the steps must be ck's.  RL_OK, or
 * RL_EINVAL with err "the checkpoint was trained with --KEY 'HAVE', this
 * run has 'WANT': expected --KEY HAVE (or no --resume)" (the first that
 * differs; reals in the shortest form that reads back). */
rl_status rl_train_resume_check(const rl_ckpt *ck, const rl_train_cfg *cfg,
                                const rl_train_run *run, char *err, size_t n);
/* The help's section of each scheme's recipe (rl_train_recipe_text), a
 * heading and a line per scheme: as snprintf. */
int rl_train_recipes_help(char *buf, size_t n);

/* The model's AdamW state, for the checkpoint: moments (P doubles each,
 * the layout of rl_train_params) and the step count of bias correction. */
double *rl_train_moment(rl_train_model *m, int which); /* which 1 or 2 */
uint64_t rl_train_get_step(const rl_train_model *m);
void rl_train_set_step(rl_train_model *m, uint64_t step);
/* The first non-finite value of the last forward pass, in the order the
 * forward computes them (embedding, then layer 0's tensors, ..., the
 * final norm, logits, probabilities): 1 and where = "layer 1 qkv" (the
 * layer and the tensor), or 0 when all are finite. */
int rl_train_find_nonfinite(const rl_train_model *m, char *where, size_t n);
/* The same for the parameters and for their gradients (which = 0, 1): the
 * tensor ("layer 0 fc weight"), or 0. */
int rl_train_find_nonfinite_params(const rl_train_model *m, int which, char *where, size_t n);
/* The tensor that entry i of the parameter array belongs to ("layer 1
 * qkv weight", "token embedding"), into where. */
void rl_train_param_name(const rl_train_model *m, size_t i, char *where, size_t n);


/* ---- the training procedure (run.c) ----
 * rl_train_run_steps runs the optimiser steps from s->step to s->steps
 * (or s->stop_after steps, or until s->stop says so): each step's batch
 * drawn from s->data (lengths 1..train_len, positions train_T), the lr of
 * rl_train_lr, the AdamW update; a loss that is not finite or above
 * max_loss, or a gradient that is not, stops it (RL_ERANGE, err naming
 * the step and the first non-finite value).  The callbacks (NULL: none)
 * get the curve's rows every log_every steps and at the last, the
 * progress after each step, and the checkpoint's turn every
 * checkpoint_every steps, at the last and at the end when the last
 * state is not saved; a nonzero save ends the run with *cb_rc set. */
#define RL_TRAIN_DATA_STREAM 0x9e3779b97f4a7c15u /* the batches' stream, apart from --seed's */
typedef struct rl_train_step_row {
  size_t step;                /* 1-based */
  double lr, loss, grad_norm; /* loss: the mean since the last row */
  size_t tokens;              /* positions of the batches run */
} rl_train_step_row;
typedef struct rl_train_steps {
  rl_train_model *m;
  const rl_task *task;
  size_t train_len, train_T, batch, steps, warmup, log_every, checkpoint_every, stop_after;
  double lr, min_lr, max_loss;
  rl_adamw opt;
  rl_train_rng data;             /* rl_train_steps_data, or a resumed run's */
  size_t start, step;            /* the step this process began at; steps done */
  size_t tokens;                 /* out: positions run */
  double loss;                   /* out: the last step's loss */
  size_t poison_at, poison_i;    /* test hook: parameter poison_i NaN before step poison_at */
  void *ctx;
  void (*row)(void *ctx, const rl_train_step_row *r);
  void (*progress)(void *ctx, size_t step, double loss);
  int (*save)(void *ctx, const rl_train_rng *data);
  int (*stop)(void *ctx);
} rl_train_steps;
void rl_train_steps_data(rl_train_rng *data, uint64_t seed);
rl_status rl_train_run_steps(rl_train_steps *s, int *cb_rc, char *err);

/* ---- evaluate's request and plan (src/core/train/evaluate.c) ----------
 * What `ropelab evaluate CHECKPOINT` is asked: its own settings, declared
 * by rl_eval_param_list (--eval-len, --threads, --no-baseline), train's
 * --eval-samples reused (rl_train_eval_param_list, into train), and the
 * schedule options it refuses by declaration (rl_eval_refused_param_list:
 * --config, --layer-type); and what the plan makes of them with the
 * checkpoint.  Every default is the checkpoint's, used only where the
 * option is not given. */
#define RL_EVAL_LENS_MAX 1024 /* --eval-len: lengths and values at most */
typedef struct rl_eval_settings {
  rl_train_settings train; /* eval_samples (train's declaration); 0: the checkpoint's */
  const char *eval_len;    /* --eval-len as given, or NULL: the checkpoint's */
  size_t threads;          /* 0: the online processors */
  int no_baseline;
  const char *refused;     /* never set: --config and --layer-type are refused */
  size_t want[RL_EVAL_LENS_MAX], nwant; /* --eval-len's values (rl_eval_lengths) */
} rl_eval_settings;
const rl_param *const *rl_eval_param_list(void);
const rl_param *const *rl_eval_refused_param_list(void);
/* The help's rows: evaluate's own and train's --eval-samples (its default
 * the checkpoint's), in the help's order. */
const rl_param *const *rl_eval_help_param_list(void);
/* train's declarations that evaluate takes as they are (--eval-samples),
 * over rl_train_settings. */
const rl_param *const *rl_train_eval_param_list(void);
void rl_eval_settings_default(rl_eval_settings *s);
/* --eval-len's values into want: whole numbers 1..1024.  RL_EINVAL with
 * err saying what is wrong (the text itself not quoted), RL_ENOMEM. */
rl_status rl_eval_lengths(rl_eval_settings *s, char *err, size_t n);
typedef struct rl_eval_plan {
  size_t *lens, n, maxn; /* the test lengths (one length N: 1..N; several: those) */
  size_t samples;        /* test examples per length */
  size_t max_T;          /* the positions of the longest test example */
  size_t train_T;        /* the positions of train's longest example: the scoring
                            schedule's original context L unless --train-len */
  int rope;              /* a rope model: scored under tp, then sp */
  rl_schedule_params tp, sp; /* the training schedule, the scoring one (its metadata) */
  /* sp as scored: without schedule options, its train-len (a --config's
   * original context, train's metadata) left to the rule as train left it */
  rl_schedule_params score;
  char rope_text[RL_CKPT_TEXT_MAX], eval_text[RL_CKPT_TEXT_MAX]; /* tp's and sp's files */
} rl_eval_plan;
/* The lengths and samples of s for the checkpoint ck (its header read):
 * RL_EINVAL (err) for a length past the task's distinct keys or past a
 * learned position table; RL_ENOMEM.  A p->max_T past ck->cfg.max_T asks
 * for the model to be built again for it. */
rl_status rl_eval_plan_lengths(const rl_eval_settings *s, const rl_ckpt *ck, rl_eval_plan *p,
                               char *err, size_t n);
/* The one rule of a checkpoint's test positions (evaluate and extrapolate
 * --checkpoint): *max_T the positions of length maxn, which the model is
 * built for where they pass ck->cfg.max_T; RL_EINVAL (err) where a
 * learned position table has fewer rows. */
rl_status rl_eval_plan_positions(const rl_ckpt *ck, size_t maxn, size_t *max_T, char *err,
                                 size_t n);
/* extrapolate --checkpoint's plan (extrap_ckpt.c): the lengths of s
 * (rl_extrap_plan) for the checkpoint ck read from path, L its
 * train_len, N s->eval_len if given else its eval_len, at most 1024 and
 * the task's distinct keys; samples the checkpoint's unless set (> 0) on
 * entry; max_T by rl_eval_plan_positions.  RL_EINVAL with err. */
typedef struct rl_extrap_ckpt_plan {
  size_t maxn;    /* the longest length */
  size_t samples; /* examples per length */
  size_t max_T;   /* the positions of the longest length's examples */
} rl_extrap_ckpt_plan;
struct rl_extrap_settings; /* measures.h */
rl_status rl_extrap_checkpoint_plan(struct rl_extrap_settings *s, const rl_ckpt *ck,
                                    const char *path,
                                    rl_extrap_ckpt_plan *p, char *err, size_t n);
/* profile --checkpoint's plan (profile_ckpt.c): the measure, s->measure
 * where given (RL_PROFILE_SET_MEASURE in s->set) else the scheme's own
 * (bias for t5 and alibi, pair-norms for rope, logit for the others);
 * the examples, s->samples where given (RL_PROFILE_SET_SAMPLES) else the
 * checkpoint's eval_samples, of its train_len, drawn from
 * RL_TRAIN_EVAL_SEED; the metadata's words for the measure.  RL_EINVAL
 * (err, naming path) for a measure the scheme has not. */
typedef struct rl_profile_ckpt_plan {
  int measure;      /* RL_PROFILE_CK_* (measures.h) */
  size_t samples;   /* examples (pair-norms, logit) */
  size_t n;         /* their length, train_len */
  int norot;        /* logit: a rope model's column with the rotation removed */
  const char *what; /* the measure in words */
} rl_profile_ckpt_plan;
struct rl_profile_settings; /* measures.h */
rl_status rl_profile_checkpoint_plan(const struct rl_profile_settings *s, const rl_ckpt *ck,
                                     const char *path, rl_profile_ckpt_plan *p, char *err,
                                     size_t n);
/* The schedules of a rope model: tp the checkpoint's training schedule;
 * sp without schedule options (given NULL) the method train was given
 * (score: the same at train's own original context, as train scored it),
 * else the options given over the model's dim, rot, base and layout
 * (score = sp: a --train-len given wins).
 * A model of another scheme refuses schedule options.  RL_EINVAL (err,
 * naming path for a checkpoint's text that does not parse). */
rl_status rl_eval_plan_schedules(const rl_ckpt *ck, const char *path,
                                 const rl_schedule_params *given, rl_eval_plan *p, char *err,
                                 size_t n);
void rl_eval_plan_free(rl_eval_plan *p);

#ifdef __cplusplus
}
#endif
#endif
