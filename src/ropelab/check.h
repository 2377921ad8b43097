/* check.h: property checks (what `ropelab check` runs).
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_CHECK_H
#define ROPELAB_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_check_params {
  rl_schedule_params sched; /* the schedule the RoPE checks run on */
  unsigned long seed;
  size_t trials;  /* random vectors / positions per property */
} rl_check_params;

typedef struct rl_check_result {
  double error;     /* the measured error */
  double tolerance; /* the bound it must stay within */
  int pass;
  char detail[160]; /* what was measured, for the report */
} rl_check_result;

typedef struct rl_check {
  const char *name;
  const char *summary;
  rl_status (*run)(const rl_check_params *p, rl_check_result *res);
} rl_check;

/* check's own settings, declared once (param.h): --seed, --trials,
 * --only and --tolerance-scale, the same for the built-in checks and for
 * `check --table`.  --only is the list as given: its names are checked
 * against the checks of the run (rl_check_list's or the table's). */
typedef struct rl_check_settings {
  size_t seed, trials;
  const char *only;       /* comma-separated check names; NULL: every check */
  double tolerance_scale; /* every tolerance times this (verdicts re-judged) */
  /* the run (rl_check_run_param_list): --list, --tap, --shard K/N (1/1:
   * every check; shard the text given, or NULL) */
  int list, tap;
  size_t shard_k, shard_n;
  const char *shard;
  /* `check --table FILE` (rl_check_table_param_list): a user's cos/sin
   * table, its sin table, the positions of its rows (a list as given),
   * and --expect: verified against the schedule options */
  const char *table, *sin, *positions;
  int expect;
  int table_form; /* --only names the table's properties (rl_check_table_names) */
} rl_check_settings;
/* --seed, --trials, --only, --tolerance-scale; NULL-terminated */
const rl_param *const *rl_check_param_list(void);
/* --shard, --list, --tap (the built-in checks) */
const rl_param *const *rl_check_run_param_list(void);
/* --table, --sin, --positions, --expect, --tap (a user's table) */
const rl_param *const *rl_check_table_param_list(void);
/* Every field of s at its declaration's default; table_form: the
 * settings of `check --table` (--only names its properties). */
void rl_check_settings_default(rl_check_settings *s, int table_form);
/* The properties `check --table` measures, NULL-terminated. */
extern const char *const rl_check_table_names[];
#define RL_CHECK_TABLE_N 4
/* The names s->only lists, of the n names, as sel[i] = 1 (every one
 * when s->only is NULL); RL_EINVAL with the message for an unknown or
 * repeated name. */
rl_status rl_check_select(const rl_check_settings *s, const char *const *names, size_t n,
                          char *sel, char *err, size_t nerr);
/* Keep shard s->shard_k of s->shard_n of the selected sel[0..n): the
 * count of the checks left. */
size_t rl_check_shard(const rl_check_settings *s, char *sel, size_t n);

/* The registered checks, terminated by an entry with name == NULL. */
const rl_check *rl_check_list(void);

/* Samples the Monte Carlo mean checks (mc_independent_mean, mc_self_mean)
 * need.  Their tolerance, 4 standard errors, is a false alarm of
 * 2 Phi(-4) = 6.3e-5 per distance for a normal mean of known standard
 * error; the error is estimated from the N samples, so the ratio is
 * Student's t with N - 1 degrees of freedom, whose tail P(|t| > 4) is
 * 3.1e-3 at N = 10 (49 times the normal rate), 7.7e-4 at 20 and 1.2e-4
 * at 100: N >= 100 keeps it within twice the rate the tolerance was set
 * for (2 checks x 10 distances: <= 0.25% of seeds fail a correct core). */
#define RL_CHECK_MC_MIN_TRIALS 100
/* The fewest trials check c can be judged with (1 for most checks). */
size_t rl_check_min_trials(const rl_check *c);

#ifdef __cplusplus
}
#endif
#endif
