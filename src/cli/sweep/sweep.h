/* sweep.h: sweeps over lists and ranges of option values, for every
 * table-producing command at once (the shape of hyperfine's
 * --parameter-list and --parameter-scan, one option per parameter).
 *
 * `ropelab decay --base 500,1e4 --dim 64,128` runs the command once per
 * point of the product (options in the order given, the last one
 * fastest) and writes ONE table: a column per swept option in front of
 * the command's columns, one header, the metadata once (sweep_* lines;
 * a setting that differs between points is written per point as
 * 'key[option:value]=...').  The expansion happens on argv, before the
 * command parses it, so a command needs nothing but its row in the table
 * of sweep_table.c.  Also here: --shard K/N (a contiguous 1/N of the
 * points; `ropelab merge` joins the shards), --jobs N (points in N
 * processes, the bytes the same for any N) and --meta comments|json|none.
 */
#ifndef RL_CLI_SWEEP_H
#define RL_CLI_SWEEP_H

#include <stdio.h>
#include "cmd.h"

/* One row of the sweep table: which options of a command take a list.
 * Each field is a space-separated list of long option names (no "--").
 * The options of the core's declarations (the schedule's) are added by
 * rl_sweep_find from their kinds, so a row names only the command's own. */
enum {
  RL_SWEEP_SCHED = 1u << 0, /* the command takes the schedule options */
  RL_SWEEP_SCHEME = 1u << 1, /* and the scheme options */
  /* a point can run for minutes (a model trained or scored): under
   * --progress each running point shows its own progress too */
  RL_SWEEP_LONG_POINTS = 1u << 2
};
typedef struct rl_sweep_spec {
  const char *cmd;
  unsigned groups;     /* RL_SWEEP_* */
  const char *numbers; /* a list or range of numbers (rl_values_parse); NULL:
                        * the command does not sweep (see sweep_table.c) */
  const char *names;   /* a comma-separated list of names */
  const char *lists;   /* values with commas of their own meaning (a list of
                          measures or schemes, a file name): never swept */
  const char *refuse;  /* "option=value ..." under which the output is not a
                          CSV table, so a sweep is refused */
  /* a sweep's --plot: y against x (columns of the command), a colour per
   * value of the first swept option, a panel per value of the second;
   * plot_x NULL: the command's figures draw one run only.  plot_y names
   * what the command measures: every one present in the table is drawn,
   * a row of panels each with its own y axis ("a|b": the first of a and b
   * present; "*_same": every column ending so).  plot_x: the first
   * present */
  const char *plot_x, *plot_y, *plot_log;
  /* the command's own options declared in the core (decl_opts.h), added
   * to numbers or names by their declarations; NULL: none */
  const rl_param *const *(*own)(void);
  /* schedule options the command refuses (train's --dim, evaluate's
   * --base): left out of its sweep axes and help; NULL: none */
  const char *except;
  /* the command's grid options (grid.h), added to numbers; NULL: none */
  const rl_grid_default *grid;
  /* the unit of each column a figure draws, "COL=UNIT;..." ("*_same":
   * every column ending so), for its axis labels; NULL: none */
  const char *plot_units;
  /* a column of the command's own rows that tells series apart
   * (precision's pipeline): part of each curve's colour, or NULL */
  const char *plot_series;
} rl_sweep_spec;

/* The unit units ("COL=UNIT;...", as plot_units) gives column col, into
 * out ("" when it names none). */
void rl_sweep_unit(const char *units, const char *col, char *out, size_t size);

/* --shard K/N: 0, or a usage error naming the value (1 <= K <= N). */
int rl_shard_parse(const char *cmd, const char *arg, unsigned long long *k,
                   unsigned long long *n);
/* Shard K of N of total items, contiguous, in order: items lo..hi-1
 * (the parts of N shards cover every item once). */
void rl_shard_part(size_t total, unsigned long long k, unsigned long long n, size_t *lo,
                   size_t *hi);

/* The table (sweep_table.c), ended by a row with cmd NULL. */
extern const rl_sweep_spec rl_sweep_table[];
/* cmd's row with the declared options of its groups added (a row valid
 * until the next call), or a row with cmd NULL when it has none. */
const rl_sweep_spec *rl_sweep_find(const char *cmd);

/* Run cmd on argv (argv[0] the command name) through the sweep layer:
 * without a list, --shard or the layer's options, exactly cmd->run. */
int rl_sweep_main(const struct rl_cmd *cmd, int argc, char **argv);
/* The "sweeps:" section of a command's help (nothing for a command
 * without a row). */
void rl_sweep_help(FILE *fp, const char *cmd);

#endif
