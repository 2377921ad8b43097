/* driver.h: the one driver of every declared command (cmd.h): parsing
 * into the core's settings, the help, and what the command's compute()
 * gets.  git's parse-options.h one step further: the option table is
 * the command's declaration plus the core's parameter declarations, and
 * no command has a getopt loop of its own. */
#ifndef RL_CLI_DRIVER_H
#define RL_CLI_DRIVER_H

#include "cmd.h"
#include "decl_opts.h"
#include "grid_opts.h"
#include "opt.h"
#include "sched_opts.h"
#include "scheme_opts.h"
#include "sink.h"

struct rl_cmd_run {
  const struct rl_cmd *cmd;
  const char *name;          /* cmd->name, for messages */
  rl_common co;              /* output options */
  rl_sched_opts sched;       /* RL_TAKES_SCHEDULE: the schedule's settings */
  rl_scheme_opts scheme;     /* RL_TAKES_SCHEME: the schemes' (and its .sched) */
  rl_grid_opts grid;         /* RL_TAKES_GRID */
  rl_grid g;                 /* the grid, checked */
  unsigned long long threads; /* RL_TAKES_THREADS: --threads, or the online CPUs */
  int threads_given;
  void *settings;            /* the command's own settings (decl->settings_size) */
  rl_decl_opts own[RL_CMD_GROUPS_MAX];
  char **args;               /* the positional arguments */
  size_t nargs;
  /* the schedule options given (RL_TAKES_SCHEDULE, RL_TAKES_SCHEME), by
   * getopt value from RL_SCHOPT_FIRST, and the last one's name */
  unsigned char sched_given[RL_SCHOPT_LAST - RL_SCHOPT_FIRST + 1];
  const char *sched_last;
  int choice;                /* decl->choices: the index of the first argument's */
  int meta_json;             /* RL_TAKES_FORMAT_ONLY: --meta json (the driver sets
                                rl_out_set_json around compute) */
  const char *own_arg[RL_CMD_GROUPS_MAX][RL_DECL_MAX]; /* the own options' text as given */
};

/* The settings of group k (decl->groups[k]) within r->settings. */
static inline void *rl_cmd_group_obj(const rl_cmd_run *r, size_t k)
{
  return (char *)r->settings + r->cmd->decl->groups[k].offset;
}
/* Whether option key of the command's own groups was given. */
int rl_cmd_given(const rl_cmd_run *r, const char *key);
/* The first of own[0..n-1] given, else "scheme" (--scheme), the last
 * schedule option, "scheme option" (any of the scheme group's), or NULL:
 * what a message names when an input (a checkpoint) fixes the model. */
const char *rl_cmd_model_option_given(const rl_cmd_run *r, const char *const *own, size_t n);
/* The text option key of the command's own groups was given as (its
 * messages quote it as typed), or NULL. */
const char *rl_cmd_arg(const rl_cmd_run *r, const char *key);
/* Whether schedule option key ("layout", "config") was given. */
int rl_cmd_sched_given(const rl_cmd_run *r, const char *key);
/* The sink of the command's table and (with --plot) its figure,
 * decl->plot's script: rl_sink_open. */
int rl_cmd_sink_open(rl_cmd_run *r, rl_sink *s);
/* The metadata lines of the command's own settings (every group). */
void rl_cmd_meta(const rl_cmd_run *r, rl_out *out);

#endif
