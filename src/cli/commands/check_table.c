/* check_table.c: `ropelab check --table FILE`, the relative-position,
 * norm, layout and value properties on a user's own cos/sin table (read
 * as `audit` reads it, rl_audit_load), measured in the core
 * (src/core/audit/props.c) and reported as `check` reports its own: the
 * second form of check, a declaration of its own (cmd.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_table.h"
#include "driver.h"
#include "msg.h"

int rl_check_table_wanted(int argc, char **argv)
{
  int t = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--"))
      break;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return 0;
    if (!strcmp(argv[i], "--table") || !strncmp(argv[i], "--table=", 8))
      t = 1;
  }
  return t;
}

const char *rl_check_table_stray(int argc, char **argv)
{
  static const char *const only[] = {"--expect", "--sin", "--positions"};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--"))
      break;
    for (size_t k = 0; k < sizeof only / sizeof *only; k++) {
      size_t n = strlen(only[k]);
      if (!strncmp(argv[i], only[k], n) && (argv[i][n] == 0 || argv[i][n] == '='))
        return only[k];
    }
  }
  return NULL;
}

/* a schedule option without --expect: the last one given */
static const char *sched_given(const rl_cmd_run *r)
{
  if (r->sched_last)
    return r->sched_last;
  return rl_sched_config_given() ? "config" : NULL;
}

/* one property measured and printed; *failed, *skipped counted */
static int prop(rl_cmd_run *r, size_t i, size_t k, const rl_audit_input *in, int layout,
                const rl_schedule *sc, size_t *failed, size_t *skipped)
{
  const rl_check_settings *s = r->settings;
  const char *const *names = rl_check_table_names, *skip;
  rl_check_result res;
  if (rl_audit_check_prop(i, in, layout, sc, s, &res, &skip) == RL_ENOMEM)
    return rl_runtime(r->name, "out of memory");
  if (skip) {
    (*skipped)++;
    if (s->tap)
      printf("ok %zu - %s # SKIP %s\n", k, names[i], skip);
    else
      printf("SKIP %-14s  (%s)\n", names[i], skip);
    return 0;
  }
  *failed += !res.pass;
  if (s->tap)
    printf("%sok %zu - %s # error=%.2g tolerance=%.2g%s%s\n", res.pass ? "" : "not ", k,
           names[i], res.error, res.tolerance, res.detail[0] ? " " : "", res.detail);
  else
    printf("%s %-14s  error=%-8.2g  tolerance=%-8.2g%s%s%s\n", res.pass ? "PASS" : "FAIL",
           names[i], res.error, res.tolerance, res.detail[0] ? "  (" : "", res.detail,
           res.detail[0] ? ")" : "");
  fflush(stdout);
  return 0;
}

/* the table read, and the schedule it is expected to hold */
static int load(rl_cmd_run *r, rl_audit_input *in, rl_schedule **sc)
{
  const rl_check_settings *s = r->settings;
  double *pos = NULL;
  size_t npos = 0;
  int rc;
  if (s->positions && (rc = rl_opt_values(r->name, "--positions", s->positions,
                                          RL_ARRAY_MAX_ELEMS, &pos, &npos)))
    return rc;
  char err[RL_ERR_MAX];
  rl_status st = rl_audit_load(s->table, s->sin, pos, npos, in, err, sizeof err);
  free(pos);
  if (st)
    return st == RL_EIO || st == RL_ENOMEM
               ? rl_runtime(r->name, "%s", st == RL_ENOMEM ? "out of memory" : err)
               : rl_usage(r->name, "%s", err);
  if (s->expect && (rc = rl_sched_build(&r->sched.p, r->name, sc))) {
    rl_audit_input_free(in);
    return rc;
  }
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_check_settings *s = r->settings;
  const char *given = sched_given(r);
  if (given && !s->expect)
    return rl_usage(r->name, "--%s with --table but no --expect: expected --expect to verify the "
                    "table against the schedule options", given);
  rl_audit_input in;
  rl_schedule *sc = NULL;
  char sel[RL_CHECK_TABLE_N], err[RL_ERR_MAX];
  int rc = load(r, &in, &sc), layout;
  if (rc)
    return rc;
  if (rl_audit_check_layout_choice(&in, s->table, sc, rl_cmd_sched_given(r, "layout"),
                                   r->sched.p.layout, &layout, err, sizeof err) ||
      rl_check_select(s, rl_check_table_names, RL_CHECK_TABLE_N, sel, err, sizeof err)) {
    rl_schedule_free(sc);
    rl_audit_input_free(&in);
    return rl_usage(r->name, "%s", err);
  }
  size_t total = 0, failed = 0, skipped = 0, k = 0;
  for (size_t i = 0; i < RL_CHECK_TABLE_N; i++)
    total += sel[i] != 0;
  if (s->tap)
    printf("1..%zu\n", total);
  for (size_t i = 0; i < RL_CHECK_TABLE_N && !rc; i++)
    if (sel[i])
      rc = prop(r, i, ++k, &in, layout, sc, &failed, &skipped);
  rl_schedule_free(sc);
  rl_audit_input_free(&in);
  if (rc)
    return rc;
  if (!s->tap)
    printf("%zu of %zu properties of %s passed (%zu skipped)\n", total - failed - skipped,
           total - skipped, s->table, skipped);
  if (fflush(stdout) != 0 || ferror(stdout))
    return rl_runtime(r->name, "cannot write to standard output");
  return failed ? RL_EXIT_FAIL : RL_EXIT_OK;
}

static void defaults(void *s) { rl_check_settings_default(s, 1); }

static const rl_cmd_decl decl = {
    .usage = "--table FILE [OPTIONS]",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_NO_OUTPUT,
    .settings_size = sizeof(rl_check_settings),
    .defaults = defaults,
    .groups = {{NULL, rl_check_param_list, 0}, {NULL, rl_check_table_param_list, 0}},
    .sweep_lists = "positions only",
    .compute = compute,
};

const struct rl_cmd rl_check_table_cmd = {"check", NULL, NULL, NULL, &decl};
