/* opt.h: strict option parsing and the one-line error messages of the CLI.
 * Every parser prints its own message ("ropelab CMD: invalid --x '...':
 * expected ...") and returns RL_EXIT_USAGE, or returns 0 on success. */
#ifndef RL_CLI_OPT_H
#define RL_CLI_OPT_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include "ropelab.h"

#include "msg.h"

/* A finite double, read in the C locale whatever LC_NUMERIC says; the
 * whole argument must be consumed. */
int rl_opt_double(const char *cmd, const char *opt, const char *arg, double *out);
/* Unsigned decimal digits only (no sign, no blanks), in [lo, hi]. */
int rl_opt_uint(const char *cmd, const char *opt, const char *arg,
                unsigned long long lo, unsigned long long hi, unsigned long long *out);
/* --seed: 1 .. 2^32 - 1.  GSL's mt19937 keeps only the low 32 bits and
 * turns 0 into 4357, so any other seed would silently equal another. */
int rl_opt_seed(const char *cmd, const char *arg, unsigned long long *seed);
/* --dim: an even integer >= 2. */
int rl_opt_dim(const char *cmd, const char *arg, size_t *dim);
/* --rot: "dim" (stored as 0, resolved later) or an even integer >= 2. */
int rl_opt_rot(const char *cmd, const char *arg, size_t *rot);
/* After all options: rot = dim when unset, and rot <= dim. */
int rl_opt_rot_resolve(const char *cmd, const char *arg, size_t dim, size_t *rot);
/* --step of a grid: a finite number > 0. */
int rl_opt_step(const char *cmd, const char *arg, double *step);
/* --base: a finite number > 1. */
int rl_opt_base(const char *cmd, const char *arg, double *base);

/* One of names (table-driven enumerated options): *out = its index, or a
 * usage error naming the value, the closest name or all of them. */
int rl_opt_enum(const char *cmd, const char *opt, const char *arg, const char *const *names,
                size_t n, int *out);
/* A comma-separated list of names into idx[] (at most max, no repeats):
 * *count entries.  Errors as rl_opt_enum, naming the bad item. */
int rl_opt_enum_list(const char *cmd, const char *opt, const char *arg,
                     const char *const *names, size_t n, int *idx, size_t max, size_t *count);
/* A list or range of numbers, the sweep syntax of rl_values_parse
 * ("a,b,c", "START:STOP:STEP", "START:STOP:xK"): *vals (caller frees)
 * holds *n <= max values.  Each value still needs its option's own
 * domain check. */
int rl_opt_values(const char *cmd, const char *opt, const char *arg, size_t max, double **vals,
                  size_t *n);
/* "expected a, b or c" for messages, into buf. */
void rl_opt_alternatives(const char *const *names, size_t n, char *buf, size_t size);

/* Report what getopt_long returned for '?' or ':' (optstring must start
 * with ':' and opterr be 0) in our own words; returns RL_EXIT_USAGE. */
int rl_opt_bad(const char *cmd, int c, char **argv, const struct option *longopts);
/* Stray positional arguments after the options are a usage error. */
int rl_opt_no_args(const char *cmd, int argc, char **argv);

/* base (ended by a zero entry) copied into all, at most cap - 1 entries:
 * the count, to which rl_longopts_declared appends. */
size_t rl_longopts_base(struct option *all, const struct option *base, size_t cap);
/* all[0..n) followed by the declarations of list (not the metadata-only
 * ones), declaration k with the getopt value first + k (at most last),
 * a flag without an argument; ended by a zero entry within cap.  Returns
 * the new count. */
size_t rl_longopts_declared(struct option *all, size_t n, size_t cap,
                            const rl_param *const *list, int first, int last);
/* One help line of a declared option: "      --key METAVAR  text",
 * wrapped to RL_HELP_WIDTH with the text's column at 21. */
void rl_help_param(FILE *fp, const rl_param *d, const char *text);
/* The same with the text at column col (a command whose rows align elsewhere). */
void rl_help_param_at(FILE *fp, const rl_param *d, const char *text, int col);

/* 1 when name[0..len) is a word of the space-separated list (NULL: none). */
int rl_opt_in_list(const char *list, const char *name, size_t len);
/* The space-separated names of list (an rl_param.only) as a message
 * says them, "a, b, c", into buf of n bytes. */
void rl_opt_list_words(const char *list, char *buf, size_t n);

/* Reset getopt for a fresh argv (glibc: optind = 0 reinitialises). */
void rl_opt_reset(void);

/* What an option parser (rl_common_opt, rl_sched_opt, rl_scheme_opt,
 * rl_decl_opt, rl_grid_opt) returns: c was not one of its options, c was
 * taken (recorded), or c's value was refused, the message printed, and the
 * command exits with code.  The failed values start at RL_OPT_FAIL_BASE,
 * far above both exit codes and getopt values (RL_OPT_NO_META and up), so
 * a result is never mistaken for an option or an exit code. */
#define RL_OPT_NOT_MINE 0
#define RL_OPT_TAKEN 1
#define RL_OPT_FAIL_BASE 0x10000
#define RL_OPT_FAILED(code) (RL_OPT_FAIL_BASE + (code))
static inline int rl_opt_failed(int r) { return r >= RL_OPT_FAIL_BASE; }
static inline int rl_opt_exit_code(int r) { return r - RL_OPT_FAIL_BASE; }

/* The output options every table-producing command shares. */
enum {
  RL_OPT_NO_META = 0x100,
  RL_OPT_NO_HEADER,
  RL_OPT_PLOT,
  RL_OPT_QUIET,
  RL_OPT_PROGRESS,
  RL_OPT_OUTPUT_FORMAT,
  RL_OPT_FIRST_CMD /* first value free for a command's own long options */
};
#define RL_COMMON_LONGOPTS                                  \
  {"output", required_argument, NULL, 'o'},                 \
  {"output-format", required_argument, NULL, RL_OPT_OUTPUT_FORMAT}, \
  {"no-meta", no_argument, NULL, RL_OPT_NO_META},           \
  {"no-header", no_argument, NULL, RL_OPT_NO_HEADER},       \
  {"plot", required_argument, NULL, RL_OPT_PLOT},           \
  {"quiet", no_argument, NULL, RL_OPT_QUIET},               \
  {"progress", no_argument, NULL, RL_OPT_PROGRESS},         \
  {"help", no_argument, NULL, 'h'}

typedef struct rl_common {
  const char *output; /* NULL: stdout */
  const char *plot;   /* NULL: no plot */
  int meta, header;   /* 1 unless --no-meta / --no-header */
  int progress;       /* RL_PROGRESS_QUIET, _AUTO or _FORCE */
  int help;           /* -h was given */
} rl_common;

void rl_common_init(rl_common *c);
/* RL_OPT_TAKEN if opt was one of RL_COMMON_LONGOPTS (and was recorded),
 * RL_OPT_NOT_MINE if not, or RL_OPT_FAILED(RL_EXIT_USAGE) for a bad value
 * (message printed). */
int rl_common_opt(rl_common *c, const char *cmd, int opt, const char *arg);
/* The default: branch of a command's option switch, for c (from
 * getopt_long, with optarg) that is none of the command's own options:
 * records a common option and returns 0, or reports an unknown option,
 * a missing value ('?', ':', see rl_opt_bad) or a bad value and returns
 * RL_EXIT_USAGE. */
int rl_opt_default(rl_common *co, const char *cmd, int c, char **argv,
                   const struct option *longopts);
/* Help lines for the common options. */
void rl_common_help(FILE *fp);
/* The same without --plot, for commands that draw no figure (they still
 * refuse --plot with a message saying so). */
void rl_common_help_noplot(FILE *fp);
/* The --output-format row alone, its formats from the registry. */
void rl_common_help_format(FILE *fp);
/* The end of a command's option loop: with --help, help(stdout) and
 * RL_OPT_DONE (the command then returns RL_EXIT_OK); stray positional
 * arguments a usage error (rl_opt_no_args); else 0. */
#define RL_OPT_DONE (-1)
int rl_opt_end(const rl_common *co, const char *cmd, int argc, char **argv,
               void (*help)(FILE *fp));
/* Help lines fit in RL_HELP_WIDTH columns (tests/cli/cases/help_width). */
#define RL_HELP_WIDTH 80
/* For help text too long for one line, such as the core registries'
 * summaries and citations: head, then the words of text, starting a new
 * line indented by hang blanks before a word that would pass
 * RL_HELP_WIDTH (counted in characters: UTF-8 is one column a letter). */
void rl_help_wrap(FILE *fp, const char *head, int hang, const char *text);

#endif
