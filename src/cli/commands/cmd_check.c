/* cmd_check.c: `ropelab check`, the property checks of rl_check_list()
 * with their measured errors and tolerances; exit 1 when any fails. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_table.h"
#include "cmd.h"
#include "decl_opts.h"
#include "opt.h"
#include "sched_opts.h"
#include "sweep.h"
#include "ropelab.h"

enum { OPT_TAP = RL_OPT_FIRST_CMD, OPT_LIST, OPT_SHARD };

static void help(FILE *fp)
{
  fputs("usage: ropelab check [OPTIONS]\n"
        "\n"
        "Run the property checks of RoPE (relative position, norm preservation,\n"
        "agreement of the implementations, ...) and of the other positional\n"
        "schemes (Toeplitz structure, buckets, slopes, ...), and report each\n"
        "measured error against its tolerance. Exit status 0 when all pass, 1\n"
        "when any fails; 'check --list' names them all.\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  rl_decl_help(fp, rl_check_param_list());
  fputs("      --shard K/N    run the K-th of N contiguous parts of the selected\n"
        "                     checks (a CI matrix: the N parts run each check once)\n"
        "      --list         list the checks and exit\n"
        "      --tap          TAP output (1..N, ok/not ok lines) for CI harnesses\n"
        "  -h, --help         this help\n", fp);
  fputc('\n', fp);
  rl_check_table_help(fp);
}

static size_t count_checks(const rl_check *list)
{
  size_t n = 0;
  while (list[n].name)
    n++;
  return n;
}

/* Mark the checks named in arg (the enumerated-list parser every
 * command uses: unknown names get the closest match, repeats refused);
 * sel NULL: only validate. */
static int parse_only(const char *cmd, const char *arg, const rl_check *list, size_t n,
                      char *sel)
{
  const char **names = malloc((n ? n : 1) * sizeof *names);
  int *idx = malloc((n ? n : 1) * sizeof *idx);
  if (!names || !idx) {
    free(names);
    free(idx);
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  }
  for (size_t i = 0; i < n; i++)
    names[i] = list[i].name;
  size_t count = 0;
  int rc = rl_opt_enum_list(cmd, "--only", arg, names, n, idx, n, &count);
  for (size_t k = 0; !rc && sel && k < count; k++)
    sel[idx[k]] = 1;
  free(names);
  free(idx);
  return rc;
}

static int run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"tap", no_argument, NULL, OPT_TAP},
      {"list", no_argument, NULL, OPT_LIST},
      {"shard", required_argument, NULL, OPT_SHARD},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static struct option own_opts[16];
  rl_check_settings cs;
  rl_decl_opts d;
  rl_decl_opts_init(&d, rl_check_param_list(), &cs, RL_CHECK_OPT_FIRST);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  rl_decl_longopts(&d, own_opts, nopt, 16);
  const struct option *opts = rl_sched_longopts(own_opts);
  const char *cmd = "check";
  if (rl_check_table_wanted(argc, argv)) /* a user's table: check_table.c */
    return rl_check_table_run(argc, argv);
  const char *stray = rl_check_table_stray(argc, argv);
  if (stray)
    return rl_usage("check", "%s needs --table FILE (see 'ropelab help check')", stray);
  const rl_check *list = rl_check_list();
  size_t n = count_checks(list);
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  int tap = 0, do_list = 0;
  unsigned long long shard_k = 1, shard_n = 1;
  const char *shard_arg = NULL;
  int c, r;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_TAP: tap = 1; break;
    case OPT_LIST: do_list = 1; break;
    case OPT_SHARD:
      if (shard_arg) /* the last one would have won, silently */
        return rl_usage(cmd, "--shard given twice ('%s'): give it once", optarg);
      shard_arg = optarg;
      if ((r = rl_shard_parse(cmd, optarg, &shard_k, &shard_n)))
        return r;
      break;
    case 'h':
      help(stdout);
      return RL_EXIT_OK;
    default: /* check writes no CSV: no common options */
      if (c == '?' || c == ':')
        return rl_opt_bad(cmd, c, argv, opts);
      if (rl_opt_failed(r = rl_decl_opt(&d, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      /* --only's names refused where they stand, as the other options'
       * values are (the completion's generator asks with an unknown
       * option after it) */
      if (r) { /* cs.only == optarg: --only was this option */
        if (cs.only == optarg && (r = parse_only(cmd, optarg, list, n, NULL)))
          return r;
        break;
      }
      if (rl_opt_failed(r = rl_sched_opt(&so, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (!r)
        return rl_opt_bad(cmd, '?', argv, opts);
      break;
    }
  }
  if ((r = rl_opt_no_args(cmd, argc, argv)) ||
      (r = rl_sched_opts_finish(&so, cmd)))
    return r;
  /* a schedule the checks cannot build is a usage error before any check */
  rl_schedule *probe;
  if ((r = rl_sched_build(&so.p, cmd, &probe)))
    return r;
  rl_schedule_free(probe);
  rl_check_params p = {so.p, (unsigned long)cs.seed, cs.trials};

  size_t width = 0;
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i].name) > width)
      width = strlen(list[i].name);
  if (do_list && shard_arg)
    return rl_usage(cmd, "--shard '%s' does not apply to --list (it lists every check)", shard_arg);
  if (do_list) {
    for (size_t i = 0; i < n; i++)
      printf("%-*s  %s\n", (int)width, list[i].name, list[i].summary);
    return fflush(stdout) == 0 ? RL_EXIT_OK : rl_runtime(cmd, "cannot write to standard output");
  }
  char *sel = calloc(n ? n : 1, 1);
  if (!sel)
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  if (cs.only) {
    if ((r = parse_only(cmd, cs.only, list, n, sel))) {
      free(sel);
      return r;
    }
  } else {
    memset(sel, 1, n);
  }
  size_t total = 0, failed = 0;
  for (size_t i = 0; i < n; i++)
    total += sel[i] != 0;
  if (shard_n > 1) { /* keep the shard's part of the selected checks */
    size_t lo, hi, j = 0;
    rl_shard_part(total, shard_k, shard_n, &lo, &hi);
    for (size_t i = 0; i < n; i++)
      if (sel[i])
        sel[i] = j >= lo && j < hi, j++;
    total = hi - lo;
  }
  /* the checks this run makes (a shard's own) */
  for (size_t i = 0; i < n; i++)
    if (sel[i] && cs.trials < rl_check_min_trials(&list[i])) {
      free(sel);
      return rl_usage(cmd, "invalid --trials '%zu': check '%s' needs at least %zu (Student's t "
                           "of fewer samples breaks its 4-standard-error tolerance); leave it "
                           "out with --only", cs.trials, list[i].name,
                      rl_check_min_trials(&list[i]));
    }
  if (tap)
    printf("1..%zu\n", total);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!sel[i])
      continue;
    k++;
    rl_check_result res;
    memset(&res, 0, sizeof res);
    rl_status st = list[i].run(&p, &res);
    res.detail[sizeof res.detail - 1] = 0;
    if (st) { /* a check that could not run has not passed */
      res.pass = 0;
      snprintf(res.detail, sizeof res.detail, "could not run: %s", rl_strerror(st));
    }
    if (cs.tolerance_scale != 1.0) { /* the verdict is re-judged on the scaled tolerance */
      res.tolerance *= cs.tolerance_scale;
      res.pass = res.error <= res.tolerance;
    }
    /* a NaN error never passes, whatever the check said */
    int pass = res.pass && !isnan(res.error);
    failed += !pass;
    if (tap) {
      printf("%sok %zu - %s # error=%.2g tolerance=%.2g%s%s\n", pass ? "" : "not ", k,
             list[i].name, res.error, res.tolerance, res.detail[0] ? " " : "", res.detail);
    } else {
      printf("%s %-*s  error=%-8.2g  tolerance=%-8.2g%s%s%s\n", pass ? "PASS" : "FAIL",
             (int)width, list[i].name, res.error, res.tolerance, res.detail[0] ? "  (" : "",
             res.detail, res.detail[0] ? ")" : "");
    }
    fflush(stdout);
  }
  free(sel);
  if (!tap && shard_n > 1)
    printf("%zu of %zu checks passed (shard %llu/%llu)\n", total - failed, total, shard_k,
           shard_n);
  else if (!tap)
    printf("%zu of %zu checks passed\n", total - failed, total);
  if (fflush(stdout) != 0 || ferror(stdout))
    return rl_runtime(cmd, "cannot write to standard output");
  return failed ? RL_EXIT_FAIL : RL_EXIT_OK;
}

const struct rl_cmd rl_cmd_check = {
    "check", run, "verify RoPE's and other schemes' properties against tolerances",
    help, NULL};
