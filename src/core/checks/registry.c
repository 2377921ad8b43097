/* registry.c: the registry of properties `ropelab check` runs.  Each family
 * of checks lives in its own file and exports a NULL-terminated array;
 * this file only concatenates them, so adding a family is one line. */
#include <pthread.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"
#include "check_impl.h"

/* Built once (pthread_once: two threads asking at once get one table)
 * and sized to what the families hold, so no check is ever dropped. */
static rl_check *all;
static rl_check none[1];

static void build(void)
{
  const rl_check *families[] = {rl_checks_rope, rl_checks_schemes, rl_checks_schedules,
                                rl_checks_bounds, rl_checks_extrapolate};
  size_t n = 0, k = 0;
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    for (const rl_check *c = families[f]; c->name; c++)
      n++;
  all = malloc((n + 1) * sizeof *all);
  if (!all)
    return; /* rl_check_list then returns an empty list */
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    for (const rl_check *c = families[f]; c->name; c++)
      all[k++] = *c;
  all[k] = (rl_check){NULL, NULL, NULL};
}

const rl_check *rl_check_list(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build);
  return all ? all : none;
}

/* check's settings (check.h) */
#define CHECK_FIELD(f) offsetof(rl_check_settings, f)
/* GSL's mt19937 keeps only the low 32 bits of a seed (as decay's --seed) */
static const rl_param p_seed = {
    .key = "seed", .kind = RL_PK_SIZE, .offset = CHECK_FIELD(seed), .lo = 1,
    .hi = 4294967295.0, .dflt = 1, .metavar = "S",
    .help = "seed of random vectors and positions, 1..2^32-1"};
static const rl_param p_trials = {
    .key = "trials", .kind = RL_PK_SIZE, .offset = CHECK_FIELD(trials), .lo = 1, .hi = 1e9,
    .dflt = 1000, .metavar = "N",
    .help = "random vectors / positions per check, >= 1; the Monte Carlo mean checks "
            "(mc_independent_mean, mc_self_mean) need at least 100: their 4-standard-error "
            "tolerance fails correct code often with fewer samples"};
static const rl_param p_only = {
    .key = "only", .kind = RL_PK_TEXT, .flags = RL_PF_NO_SWEEP, .offset = CHECK_FIELD(only),
    .metavar = "LIST", .expect = "a comma-separated list of check names",
    .help = "run only these checks (comma-separated names)"};
static const rl_param p_tol_scale = {
    .key = "tolerance-scale", .kind = RL_PK_REAL, .offset = CHECK_FIELD(tolerance_scale),
    .lo = 0, .hi = INFINITY, .dflt = 1, .metavar = "S",
    .help = "multiply every tolerance by S >= 0, to guard more tightly (S < 1) or to see "
            "the margins; 0 demands exact results"};
static const rl_param *const check_params[] = {&p_seed, &p_trials, &p_only, &p_tol_scale, NULL};

const rl_param *const *rl_check_param_list(void) { return check_params; }
