/* cmd_check.c: `ropelab check`, the property checks of rl_check_list()
 * with their measured errors and tolerances; exit 1 when any fails: a
 * declared command (cmd.h) with a second form, `check --table FILE`
 * (check_table.c).  Its settings are the core's (rl_check_settings in
 * ropelab/check.h); this file runs the selected checks and prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_table.h"
#include "driver.h"
#include "msg.h"

static size_t count_checks(const rl_check *list)
{
  size_t n = 0;
  while (list[n].name)
    n++;
  return n;
}

static int list_checks(const rl_check *list, size_t n, int width)
{
  for (size_t i = 0; i < n; i++)
    printf("%-*s  %s\n", width, list[i].name, list[i].summary);
  return fflush(stdout) == 0 ? RL_EXIT_OK : rl_runtime("check", "cannot write to standard output");
}

/* one check run and printed: 1 when it failed */
static int run_one(const rl_check *c, const rl_check_params *p, const rl_check_settings *s,
                   size_t k, int width)
{
  rl_check_result res;
  memset(&res, 0, sizeof res);
  rl_status st = c->run(p, &res);
  res.detail[sizeof res.detail - 1] = 0;
  if (st) { /* a check that could not run has not passed */
    res.pass = 0;
    snprintf(res.detail, sizeof res.detail, "could not run: %s", rl_strerror(st));
  }
  if (s->tolerance_scale != 1.0) { /* the verdict is re-judged on the scaled tolerance */
    res.tolerance *= s->tolerance_scale;
    res.pass = res.error <= res.tolerance;
  }
  int pass = res.pass && res.error == res.error; /* a NaN error never passes */
  if (s->tap)
    printf("%sok %zu - %s # error=%.2g tolerance=%.2g%s%s\n", pass ? "" : "not ", k, c->name,
           res.error, res.tolerance, res.detail[0] ? " " : "", res.detail);
  else
    printf("%s %-*s  error=%-8.2g  tolerance=%-8.2g%s%s%s\n", pass ? "PASS" : "FAIL", width,
           c->name, res.error, res.tolerance, res.detail[0] ? "  (" : "", res.detail,
           res.detail[0] ? ")" : "");
  fflush(stdout);
  return !pass;
}

static int compute(rl_cmd_run *r)
{
  const rl_check_settings *s = r->settings;
  const rl_check *list = rl_check_list();
  size_t n = count_checks(list), width = 0;
  /* a schedule the checks cannot build is a usage error before any check */
  rl_schedule *probe;
  int rc = rl_sched_build(&r->sched.p, r->name, &probe);
  if (rc)
    return rc;
  rl_schedule_free(probe);
  rl_check_params p = {r->sched.p, (unsigned long)s->seed, s->trials};
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i].name) > width)
      width = strlen(list[i].name);
  if (s->list && s->shard)
    return rl_usage(r->name, "--shard '%s' does not apply to --list (it lists every check)",
                    s->shard);
  if (s->list)
    return list_checks(list, n, (int)width);
  const char **names = malloc((n ? n : 1) * sizeof *names);
  char *sel = calloc(n ? n : 1, 1), err[RL_ERR_MAX];
  if (!names || !sel) {
    free(names), free(sel);
    return rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  }
  for (size_t i = 0; i < n; i++)
    names[i] = list[i].name;
  rl_status st = rl_check_select(s, names, n, sel, err, sizeof err);
  free(names);
  if (st) {
    free(sel);
    return rl_usage(r->name, "%s", err);
  }
  size_t total = rl_check_shard(s, sel, n), failed = 0, k = 0;
  for (size_t i = 0; i < n; i++) /* the checks this run makes (a shard's own) */
    if (sel[i] && s->trials < rl_check_min_trials(&list[i])) {
      free(sel);
      return rl_usage(r->name, "invalid --trials '%zu': check '%s' needs at least %zu (Student's "
                      "t of fewer samples breaks its 4-standard-error tolerance); leave it out "
                      "with --only", s->trials, list[i].name, rl_check_min_trials(&list[i]));
    }
  if (s->tap)
    printf("1..%zu\n", total);
  for (size_t i = 0; i < n; i++)
    if (sel[i])
      failed += (size_t)run_one(&list[i], &p, s, ++k, (int)width);
  free(sel);
  if (!s->tap && s->shard_n > 1)
    printf("%zu of %zu checks passed (shard %zu/%zu)\n", total - failed, total, s->shard_k,
           s->shard_n);
  else if (!s->tap)
    printf("%zu of %zu checks passed\n", total - failed, total);
  if (fflush(stdout) != 0 || ferror(stdout))
    return rl_runtime(r->name, "cannot write to standard output");
  return failed ? RL_EXIT_FAIL : RL_EXIT_OK;
}

static void defaults(void *s) { rl_check_settings_default(s, 0); }

/* --table FILE: the second form; its options alone: an error */
static int form(int argc, char **argv, const struct rl_cmd **f)
{
  if (rl_check_table_wanted(argc, argv)) {
    *f = &rl_check_table_cmd;
    return 0;
  }
  const char *stray = rl_check_table_stray(argc, argv);
  if (stray)
    return rl_usage("check", "%s needs --table FILE (see 'ropelab help check')", stray);
  return 0;
}

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
        "Run the property checks of RoPE (relative position, norm preservation,\n"
        "agreement of the implementations, ...) and of the other positional\n"
        "schemes (Toeplitz structure, buckets, slopes, ...), and report each\n"
        "measured error against its tolerance. Exit status 0 when all pass, 1\n"
        "when any fails; 'check --list' names them all.\n",
    .footer = RL_CHECK_TABLE_HELP,
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_NO_OUTPUT,
    .settings_size = sizeof(rl_check_settings),
    .defaults = defaults,
    .groups = {{NULL, rl_check_param_list, 0}, {NULL, rl_check_run_param_list, 0}},
    /* no sweep; --positions (of --table) and --only take lists of their own */
    .sweep_lists = "positions only",
    .compute = compute,
    .form = form,
};

const struct rl_cmd rl_cmd_check = {
    "check", NULL, "verify RoPE's and other schemes' properties against tolerances", NULL,
    &decl};
