/* precision_opts.h: --precision NAME (every command with RoPE in it, via
 * sched_opts) and the pipeline list of the help texts. */
#ifndef RL_CLI_PRECISION_OPTS_H
#define RL_CLI_PRECISION_OPTS_H
#include <stdio.h>
#include "ropelab.h"

/* 0 and *out set, or an exit code after a one-line message. */
int rl_precision_opt(const char *cmd, const char *arg, const rl_precision **out);
/* One line per pipeline: name, summary, then its dtypes and the code it
 * follows, indented. */
void rl_precision_list(FILE *fp);
#endif
