/* cmd.h: one ropelab subcommand (the kmod/git pattern): each command lives
 * in its own cmd_<name>.c exporting `const struct rl_cmd rl_cmd_<name>`,
 * listed once in commands/registry.c.
 *
 * A command is a declaration (issue 34): what it takes (the option
 * groups: schedule, scheme, grid, output, threads; its own settings,
 * declared as rl_param lists in the core), its positional arguments, its
 * figure, its sweep axes, and a compute function that calls the core and
 * writes.  One driver (driver.c) builds the parsing, the help, the sweep
 * axes and through the help the completion and the man page of every
 * declared command.  Commands not yet declared keep a run() and a help()
 * of their own (decl NULL). */
#ifndef RL_CLI_CMD_H
#define RL_CLI_CMD_H

#include <stddef.h>
#include <stdio.h>
#include "ropelab.h"

/* Exit codes, documented in `ropelab --help`. */
enum {
  RL_EXIT_OK = 0,      /* success */
  RL_EXIT_FAIL = 1,    /* a checked property failed (check) */
  RL_EXIT_USAGE = 2,   /* bad option, value or command */
  RL_EXIT_RUNTIME = 3  /* I/O, memory, gnuplot failure */
};

typedef struct rl_cmd_run rl_cmd_run; /* driver.h */
struct rl_cmd;

/* What a declared command takes besides its own settings. */
enum {
  RL_TAKES_SCHEDULE = 1u << 0, /* the schedule options (--config, --dim, --method, ...) */
  RL_TAKES_SCHEME = 1u << 1,   /* the scheme options (--scheme, --heads, ...) and the schedule's */
  RL_TAKES_GRID = 1u << 2,     /* --from, --to, --step (decl->grid) */
  RL_TAKES_THREADS = 1u << 3,  /* --threads T */
  RL_TAKES_TABLE = 1u << 4,    /* -o, --output-format, --no-meta, --no-header (else -o only) */
  RL_TAKES_NO_OUTPUT = 1u << 5, /* writes to standard output only: no output options but -h */
  RL_TAKES_LONG_POINTS = 1u << 6, /* a sweep's point can run for minutes: each shows its progress */
  RL_TAKES_OUTPUT_ONLY = 1u << 7, /* -o (output_arg) and -h alone, their help rows straight
                                     after its own options (plot: -o IMAGE) */
  /* a table joined from files as they are (merge: the files' metadata and
   * header): -o FILE, --output-format, --meta comments|json and -h alone
   * (no --no-meta, --no-header, --plot or progress), their help rows
   * straight after its own options; -o's row is output_arg's where given */
  RL_TAKES_FORMAT_ONLY = 1u << 8
};

/* A group of the command's own settings: the core's declarations over
 * a struct at offset within the command's settings. */
typedef struct rl_cmd_group {
  const char *title;                     /* help heading ("measures:"), or NULL */
  const rl_param *const *(*list)(void);  /* NULL ends the groups */
  size_t offset;
  /* its help rows are the command's own text (bound's --len, whose
   * meaning each choice words differently): none generated */
  int help_in_text;
} rl_cmd_group;

/* The help of one choice of the first argument (bound men|liu|pi|yarn):
 * head, the rows of the own declarations whose rl_param.only names it
 * (and the grid's, where grid_only does), then tail. */
typedef struct rl_cmd_choice_help {
  const char *head, *tail;
} rl_cmd_choice_help;

#define RL_CMD_GROUPS_MAX 4

typedef struct rl_cmd_decl {
  const char *usage;     /* after "usage: ropelab NAME ": "CONFIG [OPTIONS]" */
  const char *about;     /* the help's paragraphs, before the options */
  const char *footer;    /* help after the options, or NULL */
  unsigned takes;        /* RL_TAKES_* */
  const void *grid;      /* with RL_TAKES_GRID: its rl_grid_kind (grid_opts.h) */
  size_t settings_size;  /* the command's own settings (zeroed, then defaults) */
  void (*defaults)(void *settings); /* the core's defaults where not the declarations' */
  rl_cmd_group groups[RL_CMD_GROUPS_MAX + 1];
  size_t min_args, max_args; /* positional arguments (help's usage names them) */
  const char *args_name, *args_expect; /* "CONFIG", "a model's config.json or GGUF file" */
  const char *plot;      /* plots/<script> of --plot, or NULL: --plot refused */
  /* a sweep: the command's own options taking a list of numbers, of
   * names, or lists of their own meaning, as rl_sweep_spec (sweep.h);
   * numbers NULL: the command does not sweep */
  const char *sweep_numbers, *sweep_names, *sweep_lists, *sweep_refuse;
  /* the own declarations a sweep takes by their kinds (numbers, names),
   * where not groups[0]'s: rl_cmd_sweeps_none for none (a --format that
   * changes the columns), or another group's list; NULL: groups[0]'s */
  const rl_param *const *(*sweep_own)(void);
  const char *plot_x, *plot_y, *plot_log;
  const char *plot_units; /* "COL=UNIT;..." as rl_sweep_spec's, or NULL */
  const char *except;    /* schedule options it refuses: out of help and sweeps */
  /* schedule options its input fixes (evaluate: the checkpoint's dim,
   * rot, base and layout): listed in the help (even where in except),
   * parsed, then refused by name after the arguments and --plot, before
   * the schedule is finished: "invalid --KEY: fixed_why", the first given
   * in this order.  NULL: none */
  const char *fixed, *fixed_why;
  size_t schemes_max;    /* RL_TAKES_SCHEME: --scheme names at most */
  const char *schemes_default; /* without --scheme ("all", a name; NULL: required) */
  /* without RL_TAKES_TABLE: what -o names and its help line ("DIR", "the
   * page's folder ..."); NULL: -o is refused */
  const char *output_arg, *output_help;
  /* after parsing, before any output: checks across settings (0 or a
   * printed usage error) */
  int (*check)(rl_cmd_run *r);
  /* the work: call the core, write; an exit code (messages printed) */
  int (*compute)(rl_cmd_run *r);
  /* a command with a second form that its arguments choose (check
   * --table FILE): before parsing, 0 and *form the command to run (its
   * own declaration; *form unchanged: this one), or a printed usage
   * error; NULL: one form.  Help is always this declaration's. */
  int (*form)(int argc, char **argv, const struct rl_cmd **form);
  /* --plot refused (plot NULL): what the message says after "NAME draws
   * no figure" (" (its rows name ...)"), or NULL: nothing */
  const char *plot_refuse;
  /* an argument beyond max_args: what follows "unexpected argument 'A'",
   * or NULL: " (see 'ropelab help NAME')" */
  const char *args_extra;
  /* a first argument that chooses what is computed (bound men|liu|pi|
   * yarn): its names (NULL-terminated, the core's), the noun its messages
   * use ("bound"), each choice's help section (in the names' order) with
   * its own rows at column choice_col, and the choices that take the grid
   * (space-separated; NULL: every one).  An own declaration whose
   * rl_param.only does not name the choice is refused ("--X does not
   * apply to bound 'liu' (it is for 'men')"), and so is the grid where
   * grid_only does not.  r->choice is its index.  NULL: no choice. */
  const char *const *(*choices)(void);
  const char *choice_noun;
  const rl_cmd_choice_help *choice_help;
  int choice_col;
  const char *grid_only;
  /* the help's own part (the choices' sections, or the groups, then
   * help_own) before the schedule's options rather than after */
  int own_first;
  void (*help_own)(FILE *fp); /* help after the groups' rows, or NULL */
  const char *plot_series; /* rl_sweep_spec.plot_series, or NULL */
  /* after parsing, before the schedule's end (--config applied, --rot
   * resolved against --dim): the command's own settings resolved where
   * the schedule takes from them (train's head dimension --d-model /
   * --heads as --dim), with their checks; 0 or a printed usage error.
   * NULL: none (check runs after the schedule's end) */
  int (*prepare)(rl_cmd_run *r);
} rl_cmd_decl;

struct rl_cmd {
  const char *name;
  int (*run)(int argc, char **argv); /* not yet declared: argv[0] is the name */
  const char *summary;               /* one line, for `ropelab --help` */
  void (*help)(FILE *fp);            /* not yet declared: options and defaults */
  const rl_cmd_decl *decl;           /* declared: the driver runs it */
};

/* An empty list of declarations (decl->sweep_own: no own sweep axis). */
const rl_param *const *rl_cmd_sweeps_none(void);

/* The registry (commands/registry.c): every command, NULL-terminated. */
extern const struct rl_cmd *const rl_commands[];
/* The command called name, or NULL. */
const struct rl_cmd *rl_cmd_find(const char *name);
/* Run a command on argv (argv[0] its name) without the sweep layer, and
 * its help: the driver's for a declared command, else its own. */
int rl_cmd_exec(const struct rl_cmd *c, int argc, char **argv);
void rl_cmd_help(const struct rl_cmd *c, FILE *fp);

#endif
