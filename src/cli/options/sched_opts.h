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

/* The schedule options are the core's declarations
 * (rl_schedule_param_list): option k of that list has the getopt value
 * RL_SCHOPT_FIRST + k, above the commands' own values and below the
 * scheme options' (0x300). */
enum { RL_SCHOPT_FIRST = 0x280, RL_SCHOPT_LAST = 0x2ff };
/* --config FILE (a model's config.json or GGUF header, ropelab/model.h):
 * the last value of the range, which the declarations never reach. */
enum { RL_SCHOPT_CONFIG = RL_SCHOPT_LAST, RL_SCHOPT_LAYER_TYPE = RL_SCHOPT_LAST - 1 };

/* own (ended by a zero entry) followed by every schedule option: a table
 * valid until the next call (commands run one at a time). */
const struct option *rl_sched_longopts(const struct option *own);
/* The getopt value of schedule option key ("train-len"), or -1. */
int rl_sched_optval(const char *key);

typedef struct rl_sched_opts {
  rl_schedule_params p;  /* the core's defaults, then what was given */
  const char *rot_arg;   /* as given, for messages */
  int any_dim;           /* scheme commands: odd --dim allowed (some schemes take it) */
} rl_sched_opts;

void rl_sched_opts_init(rl_sched_opts *o, int any_dim);
/* RL_OPT_TAKEN if c was a schedule option (recorded), RL_OPT_NOT_MINE if
 * not, RL_OPT_FAILED(exit code) after a printed error (opt.h). */
int rl_sched_opt(rl_sched_opts *o, const char *cmd, int c, const char *arg);
/* rl_sched_opt, else rl_opt_default: 0 when handled, an exit code after
 * a message. */
int rl_sched_opt_default(rl_sched_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                         const struct option *longopts);
/* After the options: --config's settings applied where no option gave
 * one, then --rot resolved against --dim. */
int rl_sched_opts_finish(rl_sched_opts *o, const char *cmd);
/* The end of a schedule command's option loop: rl_opt_end (--help:
 * RL_OPT_DONE; stray arguments) then rl_sched_opts_finish. */
int rl_sched_opts_end(rl_sched_opts *o, const rl_common *co, const char *cmd, int argc,
                      char **argv, void (*help)(FILE *fp));
/* --config's settings applied to o->p where no option gave one (the
 * settings the final method does not take are left out); 0 or an exit
 * code after a message.  rl_sched_opts_finish calls it; the scheme
 * commands, which resolve --rot themselves, call it directly. */
int rl_sched_config_apply(rl_sched_opts *o, const char *cmd);
/* 1 when this command's options gave --config. */
int rl_sched_config_given(void);
/* Build the schedule: 0, or an exit code after the core's message (2 for
 * bad values and malformed files, 3 for unreadable files and memory). */
int rl_sched_build(const rl_schedule_params *p, const char *cmd, rl_schedule **f);
/* Every effective schedule setting, and what the built schedule derived
 * (attention factor, logit multiplier, effective base, description). */
void rl_sched_meta(const rl_schedule_params *p, const rl_schedule *f, rl_out *out);
/* Their help lines, generated from the declarations: each option, what
 * it is, which methods take it and its default. */
void rl_sched_opts_help(FILE *fp);
/* The same without the options named in skip ("dim rot"): those a command
 * refuses or declares itself (train's --train-len, evaluate's --base). */
void rl_sched_opts_help_except(FILE *fp, const char *skip);

#endif
