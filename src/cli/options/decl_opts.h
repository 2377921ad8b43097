/* decl_opts.h: a command's own options declared in the core, as a list
 * of rl_param over a settings struct (decay's Monte Carlo settings,
 * extrapolate's measure settings): their long options, parsing with the
 * declaration's messages, help rows and metadata, as the schedule and
 * scheme options are built (sched_opts.h, scheme_opts.h).  A setting
 * added to the list in the core reaches the command with nothing
 * written here. */
#ifndef RL_CLI_DECL_OPTS_H
#define RL_CLI_DECL_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "out.h"
#include "ropelab.h"

#define RL_DECL_MAX 32 /* declarations a group holds at most */

typedef struct rl_decl_opts {
  const rl_param *const *list;
  void *obj;         /* the settings the declarations point into */
  int first;         /* the getopt value of list[0]; list[k] has first + k */
  unsigned given;    /* bit k: list[k] was given */
} rl_decl_opts;

/* obj's declared fields set to their defaults. */
void rl_decl_opts_init(rl_decl_opts *g, const rl_param *const *list, void *obj, int first);
/* all[0..n) followed by the group's long options (rl_longopts_declared). */
size_t rl_decl_longopts(const rl_decl_opts *g, struct option *all, size_t n, size_t cap);
/* RL_OPT_TAKEN if c was one of the group's options (parsed into obj),
 * RL_OPT_NOT_MINE if not, RL_OPT_FAILED(exit code) after a printed error
 * (opt.h). */
int rl_decl_opt(rl_decl_opts *g, const char *cmd, int c, const char *arg);
/* Whether any option of the group was given. */
int rl_decl_any_given(const rl_decl_opts *g);
/* The declared "given" bits (rl_param.bit) of the options given: the
 * settings' set field where a default depends on other settings. */
unsigned rl_decl_given_bits(const rl_decl_opts *g);
/* "--samples, --seed and --sigma", the group's options, into buf. */
void rl_decl_names(const rl_param *const *list, char *buf, size_t n);
/* The help rows: each declaration's help, its range where it has one of
 * its own, and its default; a help of several lines (a table of its
 * values) is laid out by its author: its first line one space after the
 * option, the others as they are. */
void rl_decl_help(FILE *fp, const rl_param *const *list);
/* The same with the text at column col (a command whose own rows align
 * elsewhere than rl_help_param's 21). */
void rl_decl_help_at(FILE *fp, const rl_param *const *list, int col);
/* The metadata: one line per declaration, KEY=value (not NO_META ones,
 * nor those whose meta_if says no). */
void rl_decl_meta(const rl_decl_opts *g, rl_out *out);

#endif
