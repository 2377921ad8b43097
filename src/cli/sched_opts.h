/* sched_opts.h: the frequency-schedule options of every command with
 * RoPE in it (freqs, angles, decay, check, and through scheme_opts.h the
 * rope and rope2d schemes of profile, params, matrix, compare).  They
 * parse straight into the core's rl_schedule_params, whose defaults
 * rl_schedule_params_default owns; nothing here restates a default.
 * Parsing follows rl_common_opt: a command hands every option it does
 * not know to rl_sched_opt_default. */
#ifndef RL_CLI_SCHED_OPTS_H
#define RL_CLI_SCHED_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "opt.h"
#include "out.h"
#include "ropelab.h"

/* Above the commands' own values and below the scheme options' (0x300). */
enum {
  RL_SCHOPT_DIM = 0x280, RL_SCHOPT_BASE, RL_SCHOPT_ROT, RL_SCHOPT_LAYOUT, RL_SCHOPT_METHOD,
  RL_SCHOPT_VARIANT, RL_SCHOPT_FACTOR, RL_SCHOPT_TRAIN_LEN, RL_SCHOPT_SEQ_LEN,
  RL_SCHOPT_BETA_FAST, RL_SCHOPT_BETA_SLOW, RL_SCHOPT_TRUNCATE, RL_SCHOPT_MSCALE,
  RL_SCHOPT_MSCALE_ALL, RL_SCHOPT_RAMP, RL_SCHOPT_ATTN, RL_SCHOPT_LOW, RL_SCHOPT_HIGH,
  RL_SCHOPT_FACTORS, RL_SCHOPT_FRACTION, RL_SCHOPT_SCALE_BASE, RL_SCHOPT_WINDOW,
  RL_SCHOPT_LEAK, RL_SCHOPT_SECTIONS, RL_SCHOPT_FREQS_FILE,
  RL_SCHOPT_PRECISION
};

#define RL_SCHED_LONGOPTS                                                \
  {"dim", required_argument, NULL, RL_SCHOPT_DIM},                       \
  {"base", required_argument, NULL, RL_SCHOPT_BASE},                     \
  {"rot", required_argument, NULL, RL_SCHOPT_ROT},                       \
  {"layout", required_argument, NULL, RL_SCHOPT_LAYOUT},                 \
  {"method", required_argument, NULL, RL_SCHOPT_METHOD},                 \
  {"variant", required_argument, NULL, RL_SCHOPT_VARIANT},               \
  {"factor", required_argument, NULL, RL_SCHOPT_FACTOR},                 \
  {"train-len", required_argument, NULL, RL_SCHOPT_TRAIN_LEN},           \
  {"seq-len", required_argument, NULL, RL_SCHOPT_SEQ_LEN},               \
  {"beta-fast", required_argument, NULL, RL_SCHOPT_BETA_FAST},           \
  {"beta-slow", required_argument, NULL, RL_SCHOPT_BETA_SLOW},           \
  {"truncate", required_argument, NULL, RL_SCHOPT_TRUNCATE},             \
  {"mscale", required_argument, NULL, RL_SCHOPT_MSCALE},                 \
  {"mscale-all-dim", required_argument, NULL, RL_SCHOPT_MSCALE_ALL},     \
  {"ramp", required_argument, NULL, RL_SCHOPT_RAMP},                     \
  {"attention-factor", required_argument, NULL, RL_SCHOPT_ATTN},         \
  {"low-freq-factor", required_argument, NULL, RL_SCHOPT_LOW},           \
  {"high-freq-factor", required_argument, NULL, RL_SCHOPT_HIGH},         \
  {"factors", required_argument, NULL, RL_SCHOPT_FACTORS},               \
  {"fraction", required_argument, NULL, RL_SCHOPT_FRACTION},             \
  {"scale-base", required_argument, NULL, RL_SCHOPT_SCALE_BASE},         \
  {"window", required_argument, NULL, RL_SCHOPT_WINDOW},                 \
  {"leak", required_argument, NULL, RL_SCHOPT_LEAK},                     \
  {"sections", required_argument, NULL, RL_SCHOPT_SECTIONS},             \
  {"freqs-file", required_argument, NULL, RL_SCHOPT_FREQS_FILE},         \
  {"precision", required_argument, NULL, RL_SCHOPT_PRECISION}

typedef struct rl_sched_opts {
  rl_schedule_params p;  /* the core's defaults, then what was given */
  const char *rot_arg;   /* as given, for messages */
  int any_dim;           /* scheme commands: odd --dim allowed (some schemes take it) */
} rl_sched_opts;

void rl_sched_opts_init(rl_sched_opts *o, int any_dim);
/* 1 if c was a schedule option (recorded), 0 if not, 0x100 + exit code
 * after a printed error (as rl_common_opt). */
int rl_sched_opt(rl_sched_opts *o, const char *cmd, int c, const char *arg);
/* rl_sched_opt, else rl_opt_default: 0 when handled, an exit code after
 * a message. */
int rl_sched_opt_default(rl_sched_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                         const struct option *longopts);
/* After the options: --rot resolved against --dim. */
int rl_sched_opts_finish(rl_sched_opts *o, const char *cmd);
/* Build the schedule: 0, or an exit code after the core's message (2 for
 * bad values and malformed files, 3 for unreadable files and memory). */
int rl_sched_build(const rl_schedule_params *p, const char *cmd, rl_schedule **f);
/* Every effective schedule setting, and what the built schedule derived
 * (attention factor, logit multiplier, effective base, description). */
void rl_sched_meta(const rl_schedule_params *p, const rl_schedule *f, rl_out *out);
/* Their help lines. */
void rl_sched_opts_help(FILE *fp);

#endif
