/* rope_opts.h: the frequency-schedule options of the RoPE commands (freqs,
 * decay, check): --dim, --base, --rot.  One place to parse, check, build
 * the rl_freqs and record them in the metadata, so that a new schedule
 * option reaches every RoPE command at once.  Parsing follows
 * rl_common_opt: a command hands every option it does not know to
 * rl_rope_opt_default. */
#ifndef RL_CLI_ROPE_OPTS_H
#define RL_CLI_ROPE_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "opt.h"
#include "out.h"
#include "ropelab.h"

/* Above the commands' own values and below the scheme options' (0x300). */
enum { RL_ROPT_DIM = 0x280, RL_ROPT_BASE, RL_ROPT_ROT };

#define RL_ROPE_LONGOPTS                                 \
  {"dim", required_argument, NULL, RL_ROPT_DIM},         \
  {"base", required_argument, NULL, RL_ROPT_BASE},       \
  {"rot", required_argument, NULL, RL_ROPT_ROT}

typedef struct rl_rope_opts {
  size_t dim, rot;     /* rot 0 until rl_rope_opts_finish: "dim" */
  double base;
  const char *rot_arg; /* as given, for messages */
} rl_rope_opts;

/* RoFormer's defaults: d = 128, all dimensions rotated, base 10000. */
void rl_rope_opts_init(rl_rope_opts *o);
/* rl_rope_opt for c if it is one of RL_ROPE_LONGOPTS, else
 * rl_opt_default: 0 when handled, an exit code after a message. */
int rl_rope_opt_default(rl_rope_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                        const struct option *longopts);
/* After the options: --rot resolved against --dim. */
int rl_rope_opts_finish(rl_rope_opts *o, const char *cmd);
/* The schedule; 0, or an exit code after a message. */
int rl_rope_opts_freqs(const rl_rope_opts *o, const char *cmd, rl_freqs **f);
/* dim, rot and base as metadata lines. */
void rl_rope_opts_meta(const rl_rope_opts *o, rl_out *out);
/* Their help lines. */
void rl_rope_opts_help(FILE *fp);

#endif
