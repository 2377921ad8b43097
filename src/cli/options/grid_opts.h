/* grid_opts.h: --from, --to, --step (and decay's --log, --points) of the
 * commands that evaluate over a grid of positions or distances (angles,
 * decay, profile, bound pi).  They parse straight into the core's
 * rl_grid; the defaults are the core's (rl_grid_default), printed, never
 * restated.  One message for a value past the accurate range, before
 * the run and from a worker mid-run.  Parsing follows rl_sched_opt: a
 * command hands its grid options to rl_grid_opt. */
#ifndef RL_CLI_GRID_OPTS_H
#define RL_CLI_GRID_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "opt.h"
#include "out.h"
#include "ropelab.h"

/* Above the scheme options' values (0x300 ...). */
enum { RL_GOPT_FROM = 0x380, RL_GOPT_TO, RL_GOPT_STEP, RL_GOPT_LOG, RL_GOPT_POINTS };

#define RL_GRID_LONGOPTS                                 \
  {"from", required_argument, NULL, RL_GOPT_FROM},       \
  {"to", required_argument, NULL, RL_GOPT_TO},           \
  {"step", required_argument, NULL, RL_GOPT_STEP}
/* With RL_GRID_LOG: log-spaced grids too. */
#define RL_GRID_LOG_LONGOPTS                             \
  {"points", required_argument, NULL, RL_GOPT_POINTS},   \
  {"log", no_argument, NULL, RL_GOPT_LOG}

enum {
  RL_GRID_LOG = 1,      /* --log and --points (rl_grid_log) */
  RL_GRID_HELP_MAX = 2  /* the help's --to row states |B| <= RL_POS_MAX */
};

/* What a command's grid is: its default and its words in the help and
 * the messages. */
typedef struct rl_grid_kind {
  const rl_grid_default *dflt; /* the core's */
  const char *noun, *nouns;    /* "distance", "distances" */
  const char *spacing;         /* the --step row before its default; NULL:
                                  "[linear ]spacing, > 0" */
  const char *step_note;       /* after the --step default, or NULL */
  int width;                   /* help: the option column, "--from A" padded */
  unsigned flags;              /* RL_GRID_* */
} rl_grid_kind;

typedef struct rl_grid_opts {
  const rl_grid_kind *k;
  double from, to, step;          /* the core's defaults, then what was given */
  unsigned long long points;      /* log grid */
  const char *from_arg, *to_arg, *step_arg; /* as given (or the default's text), for messages */
  int from_set, step_set, points_set, log;
  char text[3][RL_NUMFMT_MAX];    /* the defaults' text: from, to, step */
} rl_grid_opts;

void rl_grid_opts_init(rl_grid_opts *o, const rl_grid_kind *k);
/* 1 if c was a grid option (recorded), 0 if not, 0x100 + exit code after
 * a printed error (as rl_sched_opt). */
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
