/* cmd_bound.c: `ropelab bound men|liu|pi|yarn`, the published bounds on
 * RoPE's context length recomputed (src/core/bounds).  One row per input,
 * each carrying its inputs as columns, so that sweeps concatenate.  The
 * bounds, their settings and defaults are the core's (rl_bound_names,
 * rl_bound_param_list, rl_bound_plan); this file is the declaration
 * (cmd.h) and a compute() per bound that calls the core and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "threads.h"

/* pi's s (Chen et al.'s relative position) */
static const rl_grid_kind grid_kind = {&rl_grid_pi_fig5, "values of s", 25};

/* the settings: the core's, and the lengths read from them */
typedef struct bound_run {
  rl_bound_settings s; /* first: the groups' offset 0 */
  double *len;
  size_t nlen;
} bound_run;

typedef struct prog_ctx {
  rl_progress *p;
  size_t at; /* steps of the lengths before (men_check) */
} prog_ctx;

static void on_progress(void *ctx, size_t done)
{
  rl_progress_update(((prog_ctx *)ctx)->p, ((prog_ctx *)ctx)->at + done);
}

/* a failed rl_men_* call: its message and exit code */
static int men_fail(const char *cmd, rl_status st, const char *err)
{
  return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory")
         : st == RL_EINVAL || st == RL_ERANGE ? rl_usage(cmd, "%s", err)
                                              : rl_runtime(cmd, "%s", err);
}

/* --base B given: is B enough for each --len (B_r >= 0 for every r < L),
 * or with --largest-len the largest L for which it is: the first r with
 * B_r < 0, scanned up to 2^31 (rl_men_feasible decides signs near 0 from
 * exact angles).  The schedule built and the lengths checked first. */
static int men_check_start(rl_cmd_run *r, rl_schedule **f, double **len, size_t *nlen)
{
  bound_run *b = r->settings;
  static double largest[1] = {RL_POS_MAX + 1};
  if (b->s.set & (RL_BS_SEARCH | RL_BS_FIT))
    return rl_usage(r->name, "--search, --tolerance, --stages, --start-factor and --fit search "
                             "for a base: expected them without --base, or --base B --len L to "
                             "test B");
  if (b->s.largest_len && rl_cmd_given(r, "len"))
    return rl_usage(r->name, "--largest-len finds the length: expected it without --len");
  int rc = rl_sched_build(&r->sched.p, r->name, f);
  if (rc)
    return rc;
  if (!rl_schedule_is_plain(*f) || ((*f)->type->flags & RL_ST_NOT_BASE))
    return rl_usage(r->name, "method '%s' is not taken by bound men: B_r is defined for a plain "
                             "frequency schedule", r->sched.p.method->name);
  *len = b->s.largest_len ? largest : b->len;
  *nlen = b->s.largest_len ? 1 : b->nlen;
  for (size_t i = 0; i < *nlen; i++)
    if (!((*len)[i] >= 1) || (*len)[i] != floor((*len)[i]) || (*len)[i] - 1 > RL_POS_MAX)
      return rl_usage(r->name, "invalid --len '%.17g': expected an integer from 1 to 2147483649 "
                               "(distances up to 2^31)", (*len)[i]);
  return 0;
}

/* one row of the --base check: length L, its first failing r ff */
static void men_check_row(rl_cmd_run *r, const rl_schedule *f, double L, double ff, rl_out *out)
{
  int largest = ((bound_run *)r->settings)->s.largest_len, fails = ff < L;
  char c[7][RL_NUMFMT_MAX];
  const char *fld[7];
  size_t m = 0;
  snprintf(c[0], sizeof c[0], "%zu", f->dim);
  snprintf(c[1], sizeof c[1], "%zu", f->rot);
  rl_numfmt(r->sched.p.base, c[2]);
  rl_numfmt(largest ? ff : L, c[3]);
  fld[m++] = c[0], fld[m++] = c[1], fld[m++] = c[2], fld[m++] = c[3];
  if (!largest)
    fld[m++] = fails ? "no" : "yes";
  if (fails) {
    rl_numfmt(ff, c[4]);
    rl_numfmt(rl_men_similarity(f, ff), c[5]);
    fld[m++] = c[4], fld[m++] = c[5];
  } else {
    fld[m++] = "", fld[m++] = "";
  }
  rl_out_fields(out, fld, m);
}

static int men_check(rl_cmd_run *r)
{
  rl_schedule *f = NULL;
  double *len = NULL;
  size_t nlen = 0;
  rl_sink sink = {0};
  int rc = men_check_start(r, &f, &len, &nlen);
  if (rc || (rc = rl_sink_open(&sink, r->name, &r->co, NULL))) {
    rl_schedule_free(f);
    return rc;
  }
  rl_out *out = &sink.out;
  int largest = ((bound_run *)r->settings)->s.largest_len;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "men: Men et al. 2024, arXiv:2405.14591, eq. 9: is the base "
                            "enough, B_r >= 0 for every r < L");
  rl_sched_meta(&r->sched.p, f, out);
  rl_out_meta(out, "first_fail", "the first r with B_r < 0 (empty: none below L); b_first_fail "
                                 "its B_r from exact angles");
  rl_out_header(out, largest ? "dim,rot,base,largest_len,first_fail,b_first_fail"
                             : "dim,rot,base,len,enough,first_fail,b_first_fail");
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, nlen * RL_MEN_PROGRESS_STEPS, 1);
  prog_ctx pc = {&prog, 0};
  for (size_t i = 0; i < nlen && !out->err; i++) {
    double ff;
    pc.at = i * RL_MEN_PROGRESS_STEPS;
    rl_status st = rl_men_feasible_progress(f, len[i], on_progress, &pc, &ff);
    if (st) {
      rl_schedule_free(f);
      rl_sink_abort(&sink);
      return st == RL_ENOMEM ? rl_runtime(r->name, "out of memory")
                             : rl_runtime(r->name, "%s", rl_strerror(st));
    }
    men_check_row(r, f, len[i], ff, out);
  }
  rl_schedule_free(f);
  return rl_sink_close(&sink, &prog);
}

/* the lengths Men's search takes, and --fit's two of them */
static int men_lengths(rl_cmd_run *r)
{
  const bound_run *b = r->settings;
  for (size_t i = 0; i < b->nlen; i++)
    if (!(b->len[i] >= 1) || b->len[i] != floor(b->len[i]))
      return rl_usage(r->name, "invalid --len '%.17g': expected an integer >= 1", b->len[i]);
    else if (b->len[i] - 1 > RL_POS_MAX)
      return rl_usage(r->name, "--len '%.17g' is past the accurate range: expected at most "
                               "2147483649 (distances up to 2^31)", b->len[i]);
  if (b->s.fit && b->nlen < 2)
    return rl_usage(r->name, "--fit needs at least two --len values");
  return 0;
}

/* --fit: base = a len^k over the results */
static int men_fit(rl_cmd_run *r, const rl_men_result *res, double *fa, double *fk)
{
  const bound_run *b = r->settings;
  double *y = malloc(b->nlen * sizeof *y);
  for (size_t i = 0; y && i < b->nlen; i++)
    y[i] = res[i].base;
  rl_status st = y ? rl_men_fit(b->len, y, b->nlen, fa, fk) : RL_ENOMEM;
  free(y);
  if (st)
    return st == RL_ENOMEM ? rl_runtime(r->name, "out of memory")
                           : rl_usage(r->name, "--fit needs two distinct --len values");
  return 0;
}

static void men_meta(rl_cmd_run *r, const rl_men_params *men, const rl_men_result *res,
                     double fa, double fk, rl_out *out)
{
  const bound_run *b = r->settings;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "men: Men et al. 2024, arXiv:2405.14591, eq. 9");
  rl_sched_meta(&r->sched.p, NULL, out);
  rl_out_meta(out, "search", men->search == RL_MEN_FINE ? "fine" : "staged");
  rl_out_meta_uint(out, "stages", (unsigned long long)men->stages);
  rl_out_meta_num(out, "start_factor", men->start_factor);
  if (men->search == RL_MEN_FINE)
    rl_out_meta_num(out, "tolerance", men->tolerance);
  double cand = 0, full = 0, rech = 0, amb = 0, rows = 0, evals = 0;
  for (size_t i = 0; i < b->nlen; i++) {
    cand += res[i].candidates;
    full += res[i].full_scans;
    rech += res[i].rechecks;
    amb += res[i].ambiguous;
    rows += res[i].rows_scanned;
    evals += res[i].witness_evals;
  }
  rl_out_meta_num(out, "candidates_tested", cand);
  rl_out_meta_num(out, "witness_evals", evals);
  rl_out_meta_num(out, "scans", full);
  rl_out_meta_num(out, "rows_scanned", rows);
  rl_out_meta_num(out, "exact_rechecks", rech);
  rl_out_meta_num(out, "ambiguous_signs", amb);
  if (b->s.fit) {
    rl_out_meta_num(out, "fit_a", fa);
    rl_out_meta_num(out, "fit_k", fk);
    rl_out_meta_num(out, "fit_a_per_1024_tokens", fa * pow(1024.0, fk));
  }
}

static void men_rows(rl_cmd_run *r, const rl_men_result *res, double fa, double fk, rl_out *out)
{
  const bound_run *b = r->settings;
  rl_out_header(out, b->s.fit ? "dim,rot,len,base,min_similarity,argmin,previous_base,"
                                "previous_first_fail,fit_base"
                              : "dim,rot,len,base,min_similarity,argmin,previous_base,"
                                "previous_first_fail");
  size_t rot = r->sched.p.rot ? r->sched.p.rot : r->sched.p.dim;
  for (size_t i = 0; i < b->nlen && !out->err; i++) {
    double ms = rl_men_similarity_known(res[i].min_similarity, res[i].min_similarity_err);
    double row[9] = {(double)r->sched.p.dim, (double)rot, res[i].len, res[i].base,
                     ms, res[i].argmin, res[i].previous_base,
                     res[i].previous_first_fail, fa * pow(res[i].len, fk)};
    rl_out_row(out, row, b->s.fit ? 9 : 8);
  }
}

static int men(rl_cmd_run *r)
{
  const bound_run *b = r->settings;
  if (b->s.largest_len || rl_schedule_param_given(&r->sched.p, rl_schedule_param_find("base")))
    return men_check(r);
  int rc = men_lengths(r);
  if (rc)
    return rc;
  rl_men_params men;
  rl_men_params_default(&men);
  rl_bound_settings_to_men(&b->s, &men);
  men.sched = r->sched.p;
  int threads = b->s.threads ? (int)b->s.threads : rl_online_cpus(RL_THREADS_MAX);
  rl_men_result *res = calloc(b->nlen, sizeof *res);
  if (!res)
    return rl_runtime(r->name, "out of memory");
  rl_sink sink = {0};
  if ((rc = rl_sink_open(&sink, r->name, &r->co, "bound_men.gp"))) {
    free(res);
    return rc;
  }
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, b->nlen * RL_MEN_PROGRESS_STEPS, 1);
  prog_ctx pc = {&prog, 0};
  char err[RL_ERR_MAX];
  double fa = 0, fk = 0;
  rl_status st = rl_men_bases(&men, b->len, b->nlen, threads, on_progress, &pc, res, err);
  if (st)
    rc = men_fail(r->name, st, err);
  else if (!b->s.fit || !(rc = men_fit(r, res, &fa, &fk))) {
    men_meta(r, &men, res, fa, fk, &sink.out);
    men_rows(r, res, fa, fk, &sink.out);
  }
  free(res);
  if (rc) {
    rl_sink_abort(&sink);
    return rc;
  }
  return rl_sink_close(&sink, &prog);
}

/* every --len and --tune-len within what Liu's formulas keep finite */
static int liu_lengths(rl_cmd_run *r)
{
  const bound_run *b = r->settings;
  double base = r->sched.p.base;
  const char *ttl = rl_cmd_arg(r, "tune-len"); /* its messages quote it as typed */
  for (size_t i = 0; i < b->nlen; i++) {
    double T = b->len[i], Tt = b->s.tune_len > 0 ? b->s.tune_len : T;
    if (!(T > 6.283185307179586))
      return rl_usage(r->name, "invalid --len '%.17g': expected a length > 2 pi", T);
    if (Tt < T)
      return rl_usage(r->name, "invalid --tune-len '%s': expected at least every --len (%.17g)",
                      ttl, T);
    double lim = rl_liu_tune_len_max(T, base);
    if (Tt > lim)
      return rl_usage(r->name, "invalid --tune-len '%s': expected at most %.6g at --len %.17g, "
                               "--base %.17g (beyond it critical_base = base^(ln(T_tune/2pi) / "
                               "ln(T_train/2pi)) overflows a double)", ttl, lim, T, base);
  }
  return 0;
}

static int liu(rl_cmd_run *r)
{
  const bound_run *b = r->settings;
  const rl_schedule_params *p = &r->sched.p;
  size_t rot = p->rot ? p->rot : p->dim;
  double tb = b->s.tune_base > 0 ? b->s.tune_base : p->base;
  rl_sink sink = {0};
  int rc = liu_lengths(r);
  if (rc || (rc = rl_sink_open(&sink, r->name, &r->co, "bound_liu.gp")))
    return rc;
  rl_out *out = &sink.out;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "liu: Liu et al. 2023, arXiv:2310.05209, eq. 13, 16a-d");
  rl_sched_meta(p, NULL, out);
  rl_out_header(out, "dim,rot,base,len,tune_len,tune_base,critical_dim,critical_base,"
                     "extrapolation_limit,critical_dim_tuned,beta1,beta2,beta3");
  for (size_t i = 0; i < b->nlen && !out->err; i++) {
    double T = b->len[i], Tt = b->s.tune_len > 0 ? b->s.tune_len : T;
    rl_liu_result lr;
    if (rl_liu_bounds(rot, p->base, T, Tt, tb, &lr)) {
      rl_sink_abort(&sink);
      return rl_usage(r->name, "invalid --len '%.17g' for Liu et al.'s bounds", T);
    }
    double row[13] = {(double)p->dim, (double)rot, p->base, T, Tt, tb,
                      lr.critical_dim, lr.critical_base, lr.extrapolation_limit,
                      lr.critical_dim_tuned, lr.beta1, lr.beta2, lr.beta3};
    rl_out_row(out, row, 13);
  }
  return rl_sink_close(&sink, NULL);
}

/* the paper's constant 32 ln c is RoPE's (pi.c): other methods divide by
 * their own sum of theta^2 (*sum_sq; 0 for the paper's) */
static void pi_meta(rl_cmd_run *r, const rl_schedule *f, double *sum_sq, rl_out *out)
{
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "pi: Chen et al. 2023, arXiv:2306.15595, Theorem 2.1 eq. 5-8, "
                            "Appendix B Figure 5");
  rl_sched_meta(&r->sched.p, f, out);
  *sum_sq = (f->type->flags & RL_ST_PLAIN_THETA) ? 0 : rl_pi_sum_theta_sq(f);
  if (f->type->flags & RL_ST_PLAIN_THETA) {
    double den = rl_pi_interp_denominator(r->sched.p.base);
    rl_out_meta_num(out, "interp_denominator_32_ln_base", den);
    rl_out_meta_num(out, "interp_constant_1_over_32_ln_base", 1.0 / den);
  } else {
    rl_out_meta(out, "interp_bound", "max|h| sum_j theta_j^2 / 8 from this method's "
                                     "frequencies (the paper's d max|h| / (32 ln c) is "
                                     "plain RoPE's); ratio = 16 rot b_over_d / sum_theta_sq");
    rl_out_meta_num(out, "interp_sum_theta_sq", *sum_sq);
    rl_out_meta_num(out, "ratio_per_b_over_d", rl_pi_ratio_theta(1.0, f->rot, *sum_sq));
  }
  /* the method and its factor are columns (empty factor: none taken), so
   * rows of runs with different methods tell apart once concatenated */
  rl_out_header(out, "dim,base,method,factor,s,b_over_d,ratio");
}

/* the rows of B(s)/d over the grid, a chunk at a time */
static int pi_rows(rl_cmd_run *r, const rl_schedule *f, double sum_sq, rl_out *out)
{
  int paper = (f->type->flags & RL_ST_PLAIN_THETA) != 0;
  double base = r->sched.p.base;
  char fdim[RL_NUMFMT_MAX], fbase[RL_NUMFMT_MAX], ffac[RL_NUMFMT_MAX];
  snprintf(fdim, sizeof fdim, "%zu", f->dim);
  rl_numfmt(base, fbase);
  ffac[0] = 0;
  if (rl_schedule_param_applies(rl_schedule_param_find("factor"), f->type))
    rl_numfmt(r->sched.p.factor, ffac);
  enum { CHUNK = 4096 };
  double sv[CHUNK], bv[CHUNK];
  for (size_t j0 = 0; j0 < r->g.points && !out->err; j0 += CHUNK) {
    size_t n = r->g.points - j0 < CHUNK ? r->g.points - j0 : CHUNK;
    rl_status st = rl_pi_b_over_d(f, &r->g, j0, n, sv, bv);
    if (st)
      return st == RL_ERANGE ? rl_grid_out_of_range(&r->grid, r->name)
                             : rl_runtime(r->name, "cannot evaluate B(s): %s", rl_strerror(st));
    for (size_t k = 0; k < n && !out->err; k++) {
      char c[3][RL_NUMFMT_MAX];
      rl_numfmt(sv[k], c[0]);
      rl_numfmt(bv[k], c[1]);
      rl_numfmt(paper ? rl_pi_ratio(bv[k], base) : rl_pi_ratio_theta(bv[k], f->rot, sum_sq),
                c[2]);
      const char *fld[7] = {fdim, fbase, f->type->name, ffac, c[0], c[1], c[2]};
      rl_out_fields(out, fld, 7);
    }
  }
  return 0;
}

static int pi(rl_cmd_run *r)
{
  rl_schedule *f;
  int rc = rl_sched_build(&r->sched.p, r->name, &f);
  if (rc)
    return rc;
  if (!rl_schedule_is_plain(f)) {
    rc = rl_usage(r->name, "method '%s' does not apply: B(s) needs a logit sum_j h_j e^{i s "
                           "theta_j} (no position map, amplitude or query scale)",
                  f->type->name);
    rl_schedule_free(f); /* after the message, which reads f */
    return rc;
  }
  rl_sink sink = {0};
  double sum_sq;
  if (!(rc = rl_sink_open(&sink, r->name, &r->co, "bound_pi.gp"))) {
    pi_meta(r, f, &sum_sq, &sink.out);
    if ((rc = pi_rows(r, f, sum_sq, &sink.out)))
      rl_sink_abort(&sink);
  }
  rl_schedule_free(f);
  return rc ? rc : rl_sink_close(&sink, NULL);
}

static int yarn(rl_cmd_run *r)
{
  const bound_run *b = r->settings;
  rl_schedule_params p = r->sched.p;
  char err[RL_ERR_MAX];
  if (rl_yarn_bound_params(&p, err))
    return rl_usage(r->name, "%s", err);
  rl_sink sink = {0};
  int rc = rl_sink_open(&sink, r->name, &r->co, "bound_yarn.gp");
  if (rc)
    return rc;
  rl_out *out = &sink.out;
  size_t rot = p.rot ? p.rot : p.dim;
  for (size_t i = 0; i < b->nlen; i++) {
    rl_yarn_result yr;
    if (!(b->len[i] > 0) || b->len[i] > RL_POS_MAX) {
      rl_sink_abort(&sink);
      return rl_usage(r->name, "invalid --len '%.17g': expected a length in (0, 2^31]",
                      b->len[i]);
    }
    if (rl_yarn_bounds(&p, b->len[i], &yr, err)) {
      rl_sink_abort(&sink);
      return rl_usage(r->name, "%s", err);
    }
    if (i == 0) {
      rl_out_meta_begin(out);
      rl_out_meta(out, "bound", "yarn: Peng et al. 2023, arXiv:2309.00071, sec. 3.2, 3.4");
      rl_sched_meta(&p, NULL, out);
      rl_out_header(out, "dim,rot,base,len,factor,beta_fast,beta_slow,low_exact,high_exact,"
                         "low,high,attention_factor");
    }
    double row[12] = {(double)p.dim, (double)rot, p.base, b->len[i], p.factor,
                      rl_schedule_get(&p, "beta-fast"), rl_schedule_get(&p, "beta-slow"),
                      yr.low_exact, yr.high_exact, yr.low, yr.high, yr.attention_factor};
    rl_out_row(out, row, 12);
  }
  return rl_sink_close(&sink, NULL);
}

/* what every bound asks before it computes: exact values, its lengths,
 * and two points for a curve */
static int check(rl_cmd_run *r)
{
  bound_run *b = r->settings;
  int rc;
  if (r->choice == RL_BOUND_PI && rl_cmd_given(r, "len"))
    return rl_usage(r->name, "--len does not apply to bound 'pi' (its s is --from, --to, "
                             "--step; --len is for 'men', 'liu' and 'yarn')");
  /* the bounds are statements about exact values (Men's B_r, Liu's
   * critical dimension, PI's and YaRN's closed forms): a framework's
   * rounding is no part of them */
  if (r->sched.p.precision && !r->sched.p.precision->exact)
    return rl_usage(r->name, "--precision '%s' is not taken by bounds: expected exact or fp64 "
                             "(the bounds are defined on exact values)",
                    r->sched.p.precision->name);
  b->s.set = rl_decl_given_bits(&r->own[0]);
  rl_bound_plan(&b->s, (rl_bound_kind)r->choice);
  if (r->choice == RL_BOUND_PI) {
    if (r->co.plot && r->g.points < 2)
      return rl_usage(r->name, "--plot draws B(s)/d against s: expected at least two values of "
                               "s (--from '%s' --to '%s' --step '%s')", r->grid.from_arg,
                      r->grid.to_arg, r->grid.step_arg);
    return 0;
  }
  if ((rc = rl_opt_values(r->name, "--len", b->s.len, 4096, &b->len, &b->nlen)))
    return rc;
  /* men's and liu's figures are curves over the lengths */
  int curve = r->choice == RL_BOUND_MEN || r->choice == RL_BOUND_LIU;
  if (r->co.plot && curve && b->nlen < 2) {
    free(b->len), b->len = NULL;
    return rl_usage(r->name, "--plot draws %s against --len: expected at least two lengths (a "
                             "list or range, e.g. --len %s)",
                    r->choice == RL_BOUND_MEN ? "the base" : "the critical dimension",
                    r->choice == RL_BOUND_MEN ? RL_MEN_LEN_DEFAULT : "512:1048576:x2");
  }
  return 0;
}

static int compute(rl_cmd_run *r)
{
  static int (*const bound[])(rl_cmd_run *) = {men, liu, pi, yarn};
  bound_run *b = r->settings;
  int rc = bound[r->choice](r);
  free(b->len);
  return rc;
}

#define LEN_ROW "      --len L            "
static const rl_cmd_choice_help choice_help[] = {
    {"men   Men et al. 2024, \"Base of RoPE Bounds Context Length\" (arXiv:2405.14591):\n"
     "      the smallest base such that B_r = sum_i cos(r theta_i) >= 0 for every\n"
     "      r = 0..L-1 (a query prefers a similar key to a random one at every\n"
     "      distance within L).  Feasible bases do not form an interval, so the\n"
     "      search is a grid, not a bisection: by default Su's staged decimal grid\n"
     "      (kexue.fm/archives/10122): B = 1000 L, then for k = 1..5 the first\n"
     "      feasible (j/10^k) B, j = 1, 2, ...  Columns:\n"
     "        dim,rot,len,base,min_similarity,argmin,previous_base,previous_first_fail\n"
     "      min_similarity is the smallest B_r at the base (at r = argmin): the\n"
     "      margin, printed to the digits its error bound leaves known (the\n"
     "      cosines' rounding, and each theta_k an ulp off carried to r);\n"
     "      previous_base is the grid point below it, infeasible, failing\n"
     "      first at r = previous_first_fail.  Signs near 0 are decided from exact\n"
     "      angles.  Pass-through pairs (--rot < --dim) count cos 0 = 1 each.\n"
     LEN_ROW "lengths, a list or range (default " RL_MEN_LEN_DEFAULT ")\n"
     "      --base B           test B instead of searching: is it enough for each\n"
     "                         --len (columns dim,rot,base,len,enough,first_fail,\n"
     "                         b_first_fail: the first r with B_r < 0 and B_r there)\n",
     "      --plot: the base against L, log-log, with the fit; for d = rot = 128 and\n"
     "      plain RoPE, the paper's fit and Table 1 and Su's values (needs two --len)\n"
     "\n"},
    {"liu   Liu et al. 2023, \"Scaling Laws of RoPE-based Extrapolation\"\n"
     "      (arXiv:2310.05209, eq. 13, 16a-d), d = --rot, base = the pre-training\n"
     "      base (their 10000), T_train = --len:\n"
     "        critical_dim   2 ceil((d/2) log_base(T_train / 2 pi)), within [0, d]\n"
     "        critical_base  base^(log_{T_train/2pi}(T_tune/2pi))\n"
     "        extrapolation_limit  2 pi tune_base^(critical_dim/d) if tune_base >\n"
     "                       critical_base, else T_tune\n"
     "        critical_dim_tuned, beta1..3 = 2 T_tune/pi, T_tune/pi, T_tune/(2 pi)\n"
     LEN_ROW "pre-training lengths T_train > 2 pi (default " RL_BOUND_LEN_DEFAULT ")\n",
     "      --plot: critical_dim against T_train (needs two --len); with --tune-len\n"
     "      or --tune-base, a panel of extrapolation_limit\n"
     "\n"},
    {"pi    Chen et al. 2023, position interpolation (arXiv:2306.15595): the\n"
     "      extrapolation quantity B(s)/d of their eq. 8 and Figure 5,\n"
     "      B(s) = sum_{k=1}^{d/2} |sum_{j<k} e^{i s theta_j}|, and the ratio of the\n"
     "      extrapolation bound to the interpolation bound of Theorem 2.1,\n"
     "      2 (B(s)/d) 32 ln base.  The constant 32 ln base (294.73 for 10000) is in\n"
     "      the metadata.  It holds for rope's frequencies only: for other methods\n"
     "      the interpolation bound is max|h| sum_j theta_j^2 / 8 from the method's\n"
     "      own theta (the proof before its RoPE step), so ratio = 16 B(s) / sum\n"
     "      theta^2 (1/s^2 smaller sum for linear); the sum is in the metadata.\n"
     "      Columns dim,base,method,factor,s,b_over_d,ratio (factor empty where the\n"
     "      method takes none).\n",
     "      --plot: B(s)/d against s, the ratio on the right axis (their Figure 5)\n"
     "\n"},
    {"yarn  YaRN (Peng et al. 2023, arXiv:2309.00071): the correction range, pair\n"
     "      indices low, high where a pair turns beta_fast, beta_slow times within L,\n"
     "      before (low_exact, high_exact) and after rounding and clamping, as\n"
     "      --truncate says; and the attention factor for --factor.\n"
     LEN_ROW "original context lengths (default " RL_BOUND_LEN_DEFAULT ")\n",
     "      --plot: the ramp per pair (gamma_i, 1 = extrapolated) for each --len, the\n"
     "      code's or the paper's as --ramp says; past 6 lengths, the range against L\n"
     "\n"}};

static const rl_cmd_decl decl = {
    .usage = "men|liu|pi|yarn [OPTIONS]",
    .about = "The published bounds on RoPE's context length, recomputed exactly.\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_GRID | RL_TAKES_TABLE,
    .grid = &grid_kind,
    .settings_size = sizeof(bound_run),
    .groups = {{NULL, rl_bound_param_list, 0, 0}, {NULL, rl_bound_len_param_list, 0, 1}},
    .plot = "bound_men.gp", /* each bound opens its own (men --base: none) */
    /* its rows carry dim, base, ... already (no second column); --len is
     * its own list, one row per length; its declared settings (Men's
     * search, Liu's fine-tuning) sweep, not --threads; pi's grid (--from,
     * --to, --step) is known by name, so '--to' is not taken for an
     * abbreviation of '--tolerance' */
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "len",
    .plot_x = "len s", .plot_y = "critical_dim|b_over_d|low|base",
    .plot_units = "len=tokens;s=tokens;base=no unit;critical_dim=dimensions;b_over_d=no unit;"
                  "low=pair index",
    .check = check,
    .compute = compute,
    .choices = rl_bound_names,
    .choice_noun = "bound",
    .choice_help = choice_help,
    .choice_col = 25,
    .grid_only = "pi",
    .own_first = 1,
};

const struct rl_cmd rl_cmd_bound = {"bound", NULL,
                                    "bounds: Men's base, Liu's critical dim, "
                                    "PI's B(s)/d, YaRN range", NULL, &decl};
