/* scheme_opts.h: the options shared by the commands that put positional
 * schemes side by side (profile, params, matrix, compare): which schemes,
 * and the rl_scheme_cfg they are built with.  Parsing follows
 * rl_common_opt: a command's getopt loop hands every option it does not
 * know to rl_scheme_opt. */
#ifndef RL_CLI_SCHEME_OPTS_H
#define RL_CLI_SCHEME_OPTS_H

#include <getopt.h>
#include <stdio.h>
#include "opt.h"
#include "out.h"
#include "ropelab.h"
#include "sched_opts.h"

/* --scheme is the commands' own; every other scheme option is one of the
 * core's declarations (rl_scheme_param_list), option k of that list with
 * the getopt value RL_SOPT_FIRST + k. */
enum { RL_SOPT_SCHEME = 0x300, RL_SOPT_FIRST = 0x301, RL_SOPT_LAST = 0x37f };

#define RL_SCHEME_LONGOPTS {"scheme", required_argument, NULL, RL_SOPT_SCHEME}

/* own (ended by a zero entry; with RL_SCHEME_LONGOPTS), then the declared scheme options
 * and the schedule options: a table valid until the next call. */
const struct option *rl_scheme_longopts(const struct option *own);
/* The getopt value of declared scheme option key ("max-len"), or -1. */
int rl_scheme_optval(const char *key);

#define RL_SCHEMES_MAX 32

typedef struct rl_scheme_opts {
  rl_scheme_cfg cfg;
  const char *names[RL_SCHEMES_MAX]; /* the --scheme list, validated */
  size_t nnames;
  char list[512];       /* storage of names */
  rl_sched_opts sched;  /* --dim, --base, --rot, --layout, --method ...: cfg.rope */
  int scheme_set;
  unsigned char given[RL_SOPT_LAST - RL_SOPT_FIRST + 1]; /* declared options given */
} rl_scheme_opts;

/* Defaults of rl_scheme_cfg_default. */
void rl_scheme_opts_init(rl_scheme_opts *o);
/* As rl_common_opt: RL_OPT_TAKEN if opt was a scheme option (recorded),
 * RL_OPT_NOT_MINE if not, or RL_OPT_FAILED(RL_EXIT_USAGE) after a printed error.  --scheme takes a
 * comma-separated list ("all" for every scheme); an unknown name is an
 * error with the closest name suggested. */
int rl_scheme_opt(rl_scheme_opts *o, const char *cmd, int opt, const char *arg);
/* rl_opt_default for the scheme commands: a scheme option first. */
int rl_scheme_opt_default(rl_scheme_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                          const struct option *longopts);
/* After parsing: --rot <= --dim, --head < --heads, at most max names
 * (1 for params and matrix), --params with one scheme only; when no
 * --scheme was given, dflt ("all" or a name) is used, or NULL makes
 * --scheme required.  0 or a printed usage error. */
int rl_scheme_opts_finish(rl_scheme_opts *o, const char *cmd, size_t max, const char *dflt);
/* The end of a scheme command's option loop: rl_opt_end (RL_OPT_DONE
 * after --help), then rl_scheme_opts_finish. */
int rl_scheme_opts_end(rl_scheme_opts *o, const rl_common *co, const char *cmd, int argc,
                       char **argv, void (*help)(FILE *fp), size_t max, const char *dflt);
/* Build scheme name: 0, or a printed error (the core's message):
 * RL_EXIT_USAGE for a configuration the scheme cannot take or a
 * malformed --params file, RL_EXIT_RUNTIME for an unreadable one or
 * memory. */
int rl_scheme_opts_alloc(const rl_scheme_opts *o, const char *cmd, const char *name,
                         rl_scheme **out);
/* Every effective configuration field as metadata. */
void rl_scheme_opts_meta(const rl_scheme_opts *o, rl_out *out);
/* The same with the schedule's lines written by sched(arg, out) in their
 * place (a command that runs several schedules: extrapolate --method). */
void rl_scheme_opts_meta_with(const rl_scheme_opts *o, rl_out *out,
                              void (*sched)(void *arg, rl_out *out), void *arg);
void rl_scheme_opts_help(FILE *fp);

/* Check before any output that scheme s takes position pos (prepare as
 * query and as key with zero content): 0, or a printed usage error that
 * names what: e.g. "position 600 is past --max-len 512 of scheme
 * 'learned' (with --past error)". */
int rl_scheme_probe(const rl_scheme *s, const char *cmd, double pos, const char *what);
/* A usage/runtime error for a failed prepare/pair at position pos
 * (RL_EOVERFLOW as rl_scheme_overflow at that position). */
int rl_scheme_fail(const rl_scheme *s, const char *cmd, rl_status st, double pos,
                   const char *what);
/* A non-finite result (RL_EOVERFLOW) of scheme `name`, `where` saying
 * which (e.g. "logit at query 0, key 3"): bad input, exit 2, when a
 * --params file supplied the values (its limits, checked at load, should
 * prevent it); an internal error, exit 3, otherwise. */
int rl_scheme_overflow(const char *cmd, const char *name, const char *param_file,
                       const char *where);

#endif
