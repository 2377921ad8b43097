/* grid_opts.h: --from, --to, --step (and decay's --log, --points) of the
 * commands that evaluate over a grid of positions or distances (angles,
 * decay, profile, bound pi).  The options are the core's declarations
 * (rl_grid_default's params: keys, bounds, defaults, help), parsed
 * through decl_opts into rl_grid_settings; nothing about them is
 * restated here.  One message for a value past the accurate range,
 * before the run and from a worker mid-run.  Parsing follows
 * rl_sched_opt: a command hands its grid options to rl_grid_opt. */
#ifndef RL_CLI_GRID_OPTS_H
#define RL_CLI_GRID_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "decl_opts.h"
#include "opt.h"
#include "out.h"
#include "ropelab.h"

/* Above the scheme options' values (0x300 ...): the declarations' getopt
 * values, RL_GOPT_FROM + their index (--from, --to, --step, --log,
 * --points). */
enum { RL_GOPT_FROM = 0x380, RL_GOPT_LAST = RL_GOPT_FROM + 8 };

/* What a command's grid is: the core's declarations and defaults, its
 * noun in the messages and its help column. */
typedef struct rl_grid_kind {
  const rl_grid_default *dflt; /* the core's */
  const char *nouns;           /* "distances": "NOUNS beyond 2^31 ..." */
  int col;                     /* help: the column of the text */
} rl_grid_kind;

typedef struct rl_grid_opts {
  const rl_grid_kind *k;
  rl_decl_opts d;
  rl_grid_settings s;             /* the core's defaults, then what was given */
  const char *from_arg, *to_arg, *step_arg; /* as given (or the default's text), for messages */
  char text[3][RL_NUMFMT_MAX];    /* the defaults' text: from, to, step */
} rl_grid_opts;

void rl_grid_opts_init(rl_grid_opts *o, const rl_grid_kind *k);
/* all[0..n) followed by the grid's long options. */
size_t rl_grid_longopts(const rl_grid_opts *o, struct option *all, size_t n, size_t cap);
/* RL_OPT_TAKEN if c was a grid option (recorded), RL_OPT_NOT_MINE if not,
 * RL_OPT_FAILED(exit code) after a printed error (opt.h). */
int rl_grid_opt(rl_grid_opts *o, const char *cmd, int c, const char *arg);
/* After the options: the checks of the range (the log grid's included)
 * and *g, or a printed usage error. */
int rl_grid_opts_finish(rl_grid_opts *o, const char *cmd, rl_grid *g);
/* "invalid --to 'B': NOUNS beyond 2^31 are outside the accurate range",
 * for a grid value the core refused mid-run (RL_ERANGE): into msg (a
 * worker's message buffer, rowpipe.h), or printed as a usage error. */
void rl_grid_range_msg(const rl_grid_opts *o, char *msg, size_t size);
int rl_grid_out_of_range(const rl_grid_opts *o, const char *cmd);
/* Metadata: grid (log grids only), from, to, step or points. */
void rl_grid_opts_meta(const rl_grid_opts *o, rl_out *out);
/* The option rows of the help. */
void rl_grid_opts_help(FILE *fp, const rl_grid_kind *k);

#endif
