/* registry.c: the registry of properties `ropelab check` runs.  Each family
 * of checks lives in its own file and exports a NULL-terminated array;
 * this file only concatenates them, so adding a family is one line. */
#include <pthread.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "check_impl.h"
#include "../base/internal.h"

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
/* --only's names are refused where they stand, as the other options'
 * values are (the completion's generator asks with an unknown option
 * after it): the checks' names, or the table's properties' */
static rl_status only_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)d;
  rl_check_settings *s = obj, t = *s;
  t.only = arg;
  const rl_check *list = rl_check_list();
  size_t k = 0;
  while (list[k].name)
    k++;
  const char **names = malloc((k ? k : 1) * sizeof *names);
  char *sel = malloc(k > RL_CHECK_TABLE_N ? k : RL_CHECK_TABLE_N);
  rl_status st = RL_ENOMEM;
  if (names && sel) {
    for (size_t i = 0; i < k; i++)
      names[i] = list[i].name;
    st = s->table_form ? rl_check_select(&t, rl_check_table_names, RL_CHECK_TABLE_N, sel, err, n)
                       : rl_check_select(&t, names, k, sel, err, n);
  }
  free(names);
  free(sel);
  if (!st)
    s->only = arg;
  return st;
}
static int only_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  const char *o = ((const rl_check_settings *)obj)->only;
  return snprintf(buf, n, "%s", o ? o : "");
}
static void only_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_check_settings *)obj)->only = NULL;
}
static const rl_param p_only = {
    .key = "only", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP, .offset = CHECK_FIELD(only),
    .parse = only_parse, .format = only_format, .reset = only_reset,
    .metavar = "LIST", .expect = "a comma-separated list of check names",
    .help = "run only these checks (comma-separated names)"};
static const rl_param p_tol_scale = {
    .key = "tolerance-scale", .kind = RL_PK_REAL, .offset = CHECK_FIELD(tolerance_scale),
    .lo = 0, .hi = INFINITY, .dflt = 1, .metavar = "S",
    .help = "multiply every tolerance by S >= 0, to guard more tightly (S < 1) or to see "
            "the margins; 0 demands exact results"};
static const rl_param *const check_params[] = {&p_seed, &p_trials, &p_only, &p_tol_scale, NULL};

const rl_param *const *rl_check_param_list(void) { return check_params; }

/* --shard K/N: the K-th of N contiguous parts (as a sweep's --shard) */
#define SHARD_MAX 1000000
static rl_status shard_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)d;
  rl_check_settings *s = obj;
  if (s->shard) /* the last one would have won, silently */
    return rl_errf(RL_EINVAL, err, n, "--shard given twice ('%s'): give it once", arg);
  const char *slash = strchr(arg, '/');
  char kb[32];
  if (slash && (size_t)(slash - arg) < sizeof kb) {
    memcpy(kb, arg, (size_t)(slash - arg));
    kb[slash - arg] = 0;
    const char *p = kb, *q = slash + 1;
    while (*p >= '0' && *p <= '9')
      p++;
    while (*q >= '0' && *q <= '9')
      q++;
    if (p != kb && !*p && q != slash + 1 && !*q) {
      unsigned long long k = strtoull(kb, NULL, 10), m = strtoull(slash + 1, NULL, 10);
      if (k >= 1 && k <= m && m <= SHARD_MAX) {
        s->shard_k = (size_t)k, s->shard_n = (size_t)m, s->shard = arg;
        return RL_OK;
      }
    }
  }
  return rl_errf(RL_EINVAL, err, n, "invalid --shard '%s': expected K/N with 1 <= K <= N <= %d",
                 arg, SHARD_MAX);
}
static int shard_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  const rl_check_settings *s = obj;
  return snprintf(buf, n, "%zu/%zu", s->shard_k, s->shard_n);
}
static void shard_reset(const rl_param *d, void *obj)
{
  (void)d;
  rl_check_settings *s = obj;
  s->shard_k = s->shard_n = 1, s->shard = NULL;
}
static const rl_param p_shard = {
    .key = "shard", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .parse = shard_parse, .format = shard_format, .reset = shard_reset, .metavar = "K/N",
    .help = "run the K-th of N contiguous parts of the selected checks (a CI matrix: the N "
            "parts run each check once)"};
static const rl_param p_list = {
    .key = "list", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = CHECK_FIELD(list),
    .set_to = 1, .help = "list the checks and exit"};
static const rl_param p_tap = {
    .key = "tap", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = CHECK_FIELD(tap),
    .set_to = 1, .help = "TAP output (1..N, ok/not ok lines) for CI harnesses"};
static const rl_param *const run_params[] = {&p_shard, &p_list, &p_tap, NULL};

const rl_param *const *rl_check_run_param_list(void) { return run_params; }

static const rl_param p_table = {
    .key = "table", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_META,
    .offset = CHECK_FIELD(table), .metavar = "FILE",
    .help = "check FILE instead of ropelab's own implementation"};
static const rl_param p_sin = {
    .key = "sin", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_META,
    .offset = CHECK_FIELD(sin), .metavar = "FILE2", .help = "the sin table of a cos table FILE"};
static const rl_param p_positions = {
    .key = "positions", .kind = RL_PK_TEXT, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = CHECK_FIELD(positions), .metavar = "LIST",
    .expect = "a list of positions",
    .help = "the position of each row, when not 0, 1, 2, ..."};
static const rl_param p_expect = {
    .key = "expect", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = CHECK_FIELD(expect),
    .set_to = 1,
    .help = "verify layout and values against the schedule options (without it, schedule "
            "options are an error)"};
static const rl_param *const table_params[] = {&p_table, &p_sin, &p_positions, &p_expect, &p_tap,
                                               NULL};

const rl_param *const *rl_check_table_param_list(void) { return table_params; }

const char *const rl_check_table_names[] = {"table_relative", "table_norm", "table_layout",
                                            "table_values", NULL};

void rl_check_settings_default(rl_check_settings *s, int table_form)
{
  memset(s, 0, sizeof *s);
  const rl_param *const *lists[] = {check_params, run_params, table_params};
  for (size_t k = 0; k < 3; k++)
    for (const rl_param *const *d = lists[k]; *d; d++)
      rl_param_set_default(*d, s);
  s->table_form = table_form;
}

rl_status rl_check_select(const rl_check_settings *s, const char *const *names, size_t n,
                          char *sel, char *err, size_t nerr)
{
  memset(sel, !s->only, n);
  if (!s->only)
    return RL_OK;
  int *idx = malloc((n ? n : 1) * sizeof *idx);
  size_t count = 0;
  if (!idx)
    return rl_errf(RL_ENOMEM, err, nerr, "%s", rl_strerror(RL_ENOMEM));
  /* n distinct names at most: a longer list repeats one */
  rl_status st = rl_names_list("--only", s->only, names, n, idx, n, &count, err, nerr);
  for (size_t k = 0; k < count && !st; k++)
    sel[idx[k]] = 1;
  free(idx);
  return st;
}

size_t rl_check_shard(const rl_check_settings *s, char *sel, size_t n)
{
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += sel[i] != 0;
  if (s->shard_n <= 1)
    return total;
  /* contiguous parts in order, as a sweep's shards (sizes differ by at
   * most one, the first parts the larger) */
  size_t lo = (size_t)((unsigned long long)total * (s->shard_k - 1) / s->shard_n);
  size_t hi = (size_t)((unsigned long long)total * s->shard_k / s->shard_n);
  for (size_t i = 0, j = 0; i < n; i++)
    if (sel[i])
      sel[i] = j >= lo && j < hi, j++;
  return hi - lo;
}
