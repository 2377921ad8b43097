/* check_table.c: `ropelab check --table FILE`, the relative-position,
 * norm, layout and value properties on a user's own cos/sin table (read
 * as `audit` reads it, rl_audit_load), measured in the core
 * (src/core/audit/props.c) and reported as `check` reports its own. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_table.h"
#include "cmd.h"
#include "decl_opts.h"
#include "opt.h"
#include "ropelab.h"
#include "sched_opts.h"

enum { OPT_TABLE = 0x200, OPT_SIN, OPT_POSITIONS, OPT_EXPECT, OPT_TAP };

static const char *const names[] = {"table_relative", "table_norm", "table_layout",
                                    "table_values"};
#define NPROPS 4

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

void rl_check_table_help(FILE *fp)
{
  fputs("Your own table (check --table FILE): the properties of the cos/sin table\n"
        "in FILE, read as 'ropelab audit' reads it (CSV or .npy; --sin FILE2,\n"
        "--positions LIST as there), each error against a tolerance in the\n"
        "table's own format epsilon eps (2^-23 for float32, ...):\n"
        "  table_relative  max over seeded q, k and distances r between its rows of\n"
        "                  the spread over m of <R_m q,R_{m+r} k>, / (a^2|q||k|);\n"
        "                  tolerance 8 eps + 2 eps_angle max|m| (angles formed in\n"
        "                  float32, or float64 for a float64 table)\n"
        "  table_norm      max |cos^2+sin^2 - a^2|/a^2, tolerance 4 eps (a: the\n"
        "                  table's median amplitude, or with --expect the schedule's\n"
        "                  attention factor)\n"
        "  table_layout    with --expect: the two dims of each pair equal in the\n"
        "                  --layout given (interleaved 2i,2i+1; half i,i+r/2), or\n"
        "                  else the one the table shows, /a; tolerance 2 eps\n"
        "  table_values    with --expect: every |entry - expected| for the schedule\n"
        "                  options and --precision given within its own tolerance\n"
        "                  a(K eps|m theta_i| + ulp(|m| theta_i)) + 2 eps a, K =\n"
        "                  2 ln(base) + 4 (as audit --expect; the\n"
        "                  angle's ulps in float64 for a float64 table, else\n"
        "                  float32); shown at the entry worst against it\n"
        "      --table FILE   check FILE instead of ropelab's own implementation\n"
        "      --sin FILE2    the sin table of a cos table FILE\n"
        "      --positions LIST  the position of each row, when not 0, 1, 2, ...\n"
        "      --expect       verify layout and values against the schedule options\n"
        "                     (without it, schedule options are an error)\n", fp);
}

/* Mark the properties named in arg. */
static int parse_only(const char *cmd, const char *arg, char *sel)
{
  int idx[NPROPS];
  size_t cnt;
  int r = rl_opt_enum_list(cmd, "--only", arg, names, NPROPS, idx, NPROPS, &cnt);
  if (r)
    return r;
  memset(sel, 0, NPROPS);
  for (size_t i = 0; i < cnt; i++)
    sel[idx[i]] = 1;
  return 0;
}

int rl_check_table_run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"table", required_argument, NULL, OPT_TABLE},
      {"sin", required_argument, NULL, OPT_SIN},
      {"positions", required_argument, NULL, OPT_POSITIONS},
      {"expect", no_argument, NULL, OPT_EXPECT},
      {"tap", no_argument, NULL, OPT_TAP},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static struct option own_opts[16];
  rl_check_settings cs;
  rl_decl_opts d;
  rl_decl_opts_init(&d, rl_check_param_list(), &cs, RL_CHECK_OPT_FIRST);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  rl_decl_longopts(&d, own_opts, nopt, 16);
  const struct option *opts = rl_sched_longopts(own_opts);
  const char *cmd = "check", *file = NULL, *sin_path = NULL, *pos_arg = NULL;
  const char *sched_opt = NULL;
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  int tap = 0, expect = 0, c, r, li, layout_given = 0;
  char sel[NPROPS] = {1, 1, 1, 1};
  while ((c = getopt_long(argc, argv, ":h", opts, &li)) != -1) {
    switch (c) {
    case OPT_TABLE: file = optarg; break;
    case OPT_SIN: sin_path = optarg; break;
    case OPT_POSITIONS: pos_arg = optarg; break;
    case OPT_EXPECT: expect = 1; break;
    case OPT_TAP: tap = 1; break;
    default:
      if (c == '?' || c == ':')
        return rl_opt_bad(cmd, c, argv, opts);
      if (rl_opt_failed(r = rl_decl_opt(&d, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (r) { /* cs.only == optarg: --only was this option */
        if (cs.only == optarg && (r = parse_only(cmd, optarg, sel)))
          return r;
        break;
      }
      if (rl_opt_failed(r = rl_sched_opt(&so, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (!r)
        return rl_opt_bad(cmd, '?', argv, opts);
      sched_opt = opts[li].name;
      layout_given |= c == rl_sched_optval("layout");
      break;
    }
  }
  if ((r = rl_opt_no_args(cmd, argc, argv)) || (r = rl_sched_opts_finish(&so, cmd)))
    return r;
  if (sched_opt && !expect)
    return rl_usage(cmd, "--%s with --table but no --expect: expected --expect to verify the "
                         "table against the schedule options", sched_opt);
  double *pos = NULL;
  size_t npos = 0;
  if (pos_arg && (r = rl_opt_values(cmd, "--positions", pos_arg, RL_ARRAY_MAX_ELEMS, &pos, &npos)))
    return r;
  rl_audit_input in;
  char err[RL_ERR_MAX];
  rl_status st = rl_audit_load(file, sin_path, pos, npos, &in, err, sizeof err);
  free(pos);
  if (st)
    return st == RL_EIO || st == RL_ENOMEM ? rl_runtime(cmd, "%s", st == RL_ENOMEM ? "out of memory"
                                                                                  : err)
                                           : rl_usage(cmd, "%s", err);
  rl_schedule *sc = NULL;
  if (expect && (r = rl_sched_build(&so.p, cmd, &sc))) {
    rl_audit_input_free(&in);
    return r;
  }
  int table = in.kind == RL_AUDIT_TABLE;
  double attn = sc ? sc->attn : rl_audit_amplitude(&in);
  /* a dims table in --layout when given, else in the layout it shows;
   * with neither, not guessed */
  int layout = so.p.layout == RL_LAYOUT_HALF ? RL_AUDIT_LAYOUT_HALF : RL_AUDIT_LAYOUT_INTERLEAVED;
  if (sc && table && !layout_given && in.ncols == 2 * sc->n) {
    int shown = rl_audit_layout_of(&in);
    if (shown == RL_AUDIT_LAYOUT_PAIRS) {
      rl_schedule_free(sc);
      rl_audit_input_free(&in);
      return rl_usage(cmd, "%s: layout unknown: %zu columns, and neither half nor interleaved "
                           "columns repeat: expected --layout half or --layout interleaved",
                      file, 2 * sc->n);
    }
    layout = shown;
  }
  size_t total = 0, failed = 0, skipped = 0, k = 0;
  for (int i = 0; i < NPROPS; i++)
    total += sel[i] != 0;
  if (tap)
    printf("1..%zu\n", total);
  for (int i = 0; i < NPROPS; i++) {
    if (!sel[i])
      continue;
    k++;
    rl_check_result res;
    memset(&res, 0, sizeof res);
    const char *skip = NULL;
    st = RL_OK;
    if (!table && i < 3)
      skip = "inverse frequencies: no cos/sin per position";
    else if (!sc && i >= 2)
      skip = "no --expect";
    else if (i == 0)
      st = rl_audit_check_relative(&in, (unsigned long)cs.seed, cs.trials, &res);
    else if (i == 1)
      st = rl_audit_check_norm(&in, attn, &res);
    else if (i == 2)
      st = rl_audit_check_layout(&in, layout, sc->n, attn, &res);
    else
      st = rl_audit_check_values(&in, layout, sc, &res);
    if (st == RL_ENOMEM) {
      rl_schedule_free(sc);
      rl_audit_input_free(&in);
      return rl_runtime(cmd, "out of memory");
    }
    if (st) { /* a property that could not be measured has not passed */
      res.pass = 0;
      snprintf(res.detail, sizeof res.detail, "could not run: %s", rl_strerror(st));
    }
    res.detail[sizeof res.detail - 1] = 0;
    if (skip) {
      skipped++;
      if (tap)
        printf("ok %zu - %s # SKIP %s\n", k, names[i], skip);
      else
        printf("SKIP %-14s  (%s)\n", names[i], skip);
      continue;
    }
    if (cs.tolerance_scale != 1.0 && isfinite(res.error)) { /* re-judged, scaled tolerance */
      res.tolerance *= cs.tolerance_scale;
      res.pass = res.error <= res.tolerance;
    }
    int pass = res.pass && !isnan(res.error);
    failed += !pass;
    if (tap)
      printf("%sok %zu - %s # error=%.2g tolerance=%.2g%s%s\n", pass ? "" : "not ", k, names[i],
             res.error, res.tolerance, res.detail[0] ? " " : "", res.detail);
    else
      printf("%s %-14s  error=%-8.2g  tolerance=%-8.2g%s%s%s\n", pass ? "PASS" : "FAIL",
             names[i], res.error, res.tolerance, res.detail[0] ? "  (" : "", res.detail,
             res.detail[0] ? ")" : "");
    fflush(stdout);
  }
  rl_schedule_free(sc);
  rl_audit_input_free(&in);
  if (!tap)
    printf("%zu of %zu properties of %s passed (%zu skipped)\n", total - failed - skipped,
           total - skipped, file, skipped);
  if (fflush(stdout) != 0 || ferror(stdout))
    return rl_runtime(cmd, "cannot write to standard output");
  return failed ? RL_EXIT_FAIL : RL_EXIT_OK;
}
