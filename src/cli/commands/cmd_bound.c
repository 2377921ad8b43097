/* cmd_bound.c: `ropelab bound men|liu|pi|yarn`, the published bounds on
 * RoPE's context length recomputed (src/core/bounds).  One row per input,
 * each carrying its inputs as columns, so that sweeps concatenate. */
#include <getopt.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "decl_opts.h"
#include "grid_opts.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "sink.h"
#include "threads.h"

static const char *const bounds[] = {"men", "liu", "pi", "yarn"};
enum { B_MEN, B_LIU, B_PI, B_YARN, NBOUNDS };

/* pi's s (Chen et al.'s relative position) */
static const rl_grid_kind grid_kind = {&rl_grid_pi_fig5, "values of s", 25};

/* whether bound name takes the declaration (rl_param.only) */
static int takes(const rl_param *d, const char *name)
{
  return !d->only || rl_opt_in_list(d->only, name, strlen(name));
}

/* the help rows of the declared settings bound name takes */
static void bound_help_rows(FILE *fp, const char *name)
{
  const rl_param *const *all = rl_bound_param_list();
  const rl_param *mine[RL_DECL_MAX + 1];
  size_t n = 0;
  for (size_t k = 0; all[k] && n < RL_DECL_MAX; k++)
    if (takes(all[k], name))
      mine[n++] = all[k];
  mine[n] = NULL;
  rl_decl_help_at(fp, mine, 25);
}

static void help(FILE *fp)
{
  fputs("usage: ropelab bound men|liu|pi|yarn [OPTIONS]\n"
        "\n"
        "The published bounds on RoPE's context length, recomputed exactly.\n"
        "\n"
        "men   Men et al. 2024, \"Base of RoPE Bounds Context Length\" (arXiv:2405.14591):\n"
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
        "      --len L            lengths, a list or range (default 1024:1048576:x2)\n"
        "      --base B           test B instead of searching: is it enough for each\n"
        "                         --len (columns dim,rot,base,len,enough,first_fail,\n"
        "                         b_first_fail: the first r with B_r < 0 and B_r there)\n"
        , fp);
  bound_help_rows(fp, "men");
  fputs("      --plot: the base against L, log-log, with the fit; for d = rot = 128 and\n"
        "      plain RoPE, the paper's fit and Table 1 and Su's values (needs two --len)\n"
        "\n", fp);
  /* two strings: one would pass the 4095 bytes C99 promises */
  fputs("liu   Liu et al. 2023, \"Scaling Laws of RoPE-based Extrapolation\"\n"
        "      (arXiv:2310.05209, eq. 13, 16a-d), d = --rot, base = the pre-training\n"
        "      base (their 10000), T_train = --len:\n"
        "        critical_dim   2 ceil((d/2) log_base(T_train / 2 pi)), within [0, d]\n"
        "        critical_base  base^(log_{T_train/2pi}(T_tune/2pi))\n"
        "        extrapolation_limit  2 pi tune_base^(critical_dim/d) if tune_base >\n"
        "                       critical_base, else T_tune\n"
        "        critical_dim_tuned, beta1..3 = 2 T_tune/pi, T_tune/pi, T_tune/(2 pi)\n"
        "      --len L            pre-training lengths T_train > 2 pi (default 4096)\n"
        , fp);
  bound_help_rows(fp, "liu");
  fputs("      --plot: critical_dim against T_train (needs two --len); with --tune-len\n"
        "      or --tune-base, a panel of extrapolation_limit\n"
        "\n"
        "pi    Chen et al. 2023, position interpolation (arXiv:2306.15595): the\n"
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
        fp);
  rl_grid_opts_help(fp, &grid_kind);
  fputs("      --plot: B(s)/d against s, the ratio on the right axis (their Figure 5)\n"
        "\n"
        "yarn  YaRN (Peng et al. 2023, arXiv:2309.00071): the correction range, pair\n"
        "      indices low, high where a pair turns beta_fast, beta_slow times within L,\n"
        "      before (low_exact, high_exact) and after rounding and clamping, as\n"
        "      --truncate says; and the attention factor for --factor.\n"
        "      --len L            original context lengths (default 4096)\n"
        "      --plot: the ramp per pair (gamma_i, 1 = extrapolated) for each --len, the\n"
        "      code's or the paper's as --ramp says; past 6 lengths, the range against L\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputc('\n', fp);
  rl_common_help(fp);
}

enum { OPT_LEN = RL_OPT_FIRST_CMD, OPT_DECL };

typedef struct args {
  int which;
  rl_sched_opts so;
  rl_common co;
  double *len;
  size_t nlen;
  const char *len_arg;
  rl_men_params men;
  rl_bound_settings bs; /* declared in the core (rl_bound_param_list) */
  int fit, threads, largest, len_given, search_given;
  double tune_len, tune_base;
  const char *tune_len_arg;
  rl_grid_opts grid;
} args;

typedef struct prog_ctx {
  rl_progress *p;
  size_t at; /* steps of the lengths before (run_men_check) */
} prog_ctx;

static void on_progress(void *ctx, size_t done)
{
  rl_progress_update(((prog_ctx *)ctx)->p, ((prog_ctx *)ctx)->at + done);
}

/* --base B given: is B enough for each --len (B_r >= 0 for every r < L),
 * or with --largest-len the largest L for which it is: the first r with
 * B_r < 0, scanned up to 2^31 (rl_men_feasible decides signs near 0 from
 * exact angles). */
static int run_men_check(args *a, const char *cmd)
{
  if (a->search_given || a->fit)
    return rl_usage(cmd, "--search, --tolerance, --stages, --start-factor and --fit search for "
                         "a base: expected them without --base, or --base B --len L to test B");
  if (a->largest && a->len_given)
    return rl_usage(cmd, "--largest-len finds the length: expected it without --len");
  rl_schedule *f;
  int rc = rl_sched_build(&a->so.p, cmd, &f);
  if (rc)
    return rc;
  if (!rl_schedule_is_plain(f) || (f->type->flags & RL_ST_NOT_BASE)) {
    rl_schedule_free(f);
    return rl_usage(cmd, "method '%s' is not taken by bound men: B_r is defined for a plain "
                         "frequency schedule", a->so.p.method->name);
  }
  double lens[1] = {RL_POS_MAX + 1};
  double *len = a->largest ? lens : a->len;
  size_t nlen = a->largest ? 1 : a->nlen;
  for (size_t i = 0; i < nlen; i++)
    if (!(len[i] >= 1) || len[i] != floor(len[i]) || len[i] - 1 > RL_POS_MAX) {
      rl_schedule_free(f);
      return rl_usage(cmd, "invalid --len '%.17g': expected an integer from 1 to 2147483649 "
                           "(distances up to 2^31)", len[i]);
    }
  rl_sink sink = {0};
  if ((rc = rl_sink_open(&sink, cmd, &a->co, NULL))) {
    rl_schedule_free(f);
    return rc;
  }
  rl_out *out = &sink.out;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "men: Men et al. 2024, arXiv:2405.14591, eq. 9: is the base "
                            "enough, B_r >= 0 for every r < L");
  rl_sched_meta(&a->so.p, f, out);
  rl_out_meta(out, "first_fail", "the first r with B_r < 0 (empty: none below L); b_first_fail "
                                 "its B_r from exact angles");
  rl_out_header(out, a->largest ? "dim,rot,base,largest_len,first_fail,b_first_fail"
                                : "dim,rot,base,len,enough,first_fail,b_first_fail");
  rl_progress prog;
  rl_progress_init(&prog, cmd, a->co.progress, nlen * RL_MEN_PROGRESS_STEPS, 1);
  prog_ctx pc = {&prog, 0};
  for (size_t i = 0; i < nlen && !out->err; i++) {
    double ff;
    pc.at = i * RL_MEN_PROGRESS_STEPS;
    rl_status st = rl_men_feasible_progress(f, len[i], on_progress, &pc, &ff);
    if (st) {
      rl_schedule_free(f);
      rl_sink_abort(&sink);
      return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory")
                             : rl_runtime(cmd, "%s", rl_strerror(st));
    }
    int fails = ff < len[i];
    char c[7][RL_NUMFMT_MAX];
    const char *fld[7];
    size_t m = 0;
    snprintf(c[0], sizeof c[0], "%zu", f->dim);
    snprintf(c[1], sizeof c[1], "%zu", f->rot);
    rl_numfmt(a->so.p.base, c[2]);
    rl_numfmt(a->largest ? ff : len[i], c[3]);
    fld[m++] = c[0], fld[m++] = c[1], fld[m++] = c[2], fld[m++] = c[3];
    if (!a->largest)
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
  rl_schedule_free(f);
  return rl_sink_close(&sink, &prog);
}

static int run_men(args *a, const char *cmd)
{
  if (a->largest || rl_schedule_param_given(&a->so.p, rl_schedule_param_find("base")))
    return run_men_check(a, cmd);
  for (size_t i = 0; i < a->nlen; i++)
    if (!(a->len[i] >= 1) || a->len[i] != floor(a->len[i]))
      return rl_usage(cmd, "invalid --len '%.17g': expected an integer >= 1", a->len[i]);
    else if (a->len[i] - 1 > RL_POS_MAX)
      return rl_usage(cmd, "--len '%.17g' is past the accurate range: expected at most "
                           "2147483649 (distances up to 2^31)", a->len[i]);
  if (a->fit && a->nlen < 2)
    return rl_usage(cmd, "--fit needs at least two --len values");
  a->men.sched = a->so.p;
  rl_men_result *res = calloc(a->nlen, sizeof *res);
  if (!res)
    return rl_runtime(cmd, "out of memory");
  rl_sink sink = {0};
  int rc = rl_sink_open(&sink, cmd, &a->co, "bound_men.gp");
  if (rc) {
    free(res);
    return rc;
  }
  rl_progress prog;
  rl_progress_init(&prog, cmd, a->co.progress, a->nlen * RL_MEN_PROGRESS_STEPS, 1);
  prog_ctx pc = {&prog, 0};
  char err[RL_ERR_MAX];
  rl_status st = rl_men_bases(&a->men, a->len, a->nlen, a->threads, on_progress, &pc, res, err);
  if (st) {
    rl_sink_abort(&sink);
    free(res);
    return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory")
           : st == RL_EINVAL || st == RL_ERANGE ? rl_usage(cmd, "%s", err)
                                                : rl_runtime(cmd, "%s", err);
  }
  double fa = 0, fk = 0;
  if (a->fit) {
    double *y = malloc(a->nlen * sizeof *y);
    for (size_t i = 0; y && i < a->nlen; i++)
      y[i] = res[i].base;
    st = y ? rl_men_fit(a->len, y, a->nlen, &fa, &fk) : RL_ENOMEM;
    free(y);
    if (st) {
      rl_sink_abort(&sink);
      free(res);
      return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory")
                             : rl_usage(cmd, "--fit needs two distinct --len values");
    }
  }
  rl_out *out = &sink.out;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "men: Men et al. 2024, arXiv:2405.14591, eq. 9");
  rl_sched_meta(&a->so.p, NULL, out);
  rl_out_meta(out, "search", a->men.search == RL_MEN_FINE ? "fine" : "staged");
  rl_out_meta_uint(out, "stages", (unsigned long long)a->men.stages);
  rl_out_meta_num(out, "start_factor", a->men.start_factor);
  if (a->men.search == RL_MEN_FINE)
    rl_out_meta_num(out, "tolerance", a->men.tolerance);
  double cand = 0, full = 0, rech = 0, amb = 0, rows = 0, evals = 0;
  for (size_t i = 0; i < a->nlen; i++) {
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
  if (a->fit) {
    rl_out_meta_num(out, "fit_a", fa);
    rl_out_meta_num(out, "fit_k", fk);
    rl_out_meta_num(out, "fit_a_per_1024_tokens", fa * pow(1024.0, fk));
  }
  rl_out_header(out, a->fit ? "dim,rot,len,base,min_similarity,argmin,previous_base,"
                              "previous_first_fail,fit_base"
                            : "dim,rot,len,base,min_similarity,argmin,previous_base,"
                              "previous_first_fail");
  size_t rot = a->so.p.rot ? a->so.p.rot : a->so.p.dim;
  for (size_t i = 0; i < a->nlen && !out->err; i++) {
    /* min_similarity to the digits its error bound leaves known */
    double ms = res[i].min_similarity, me = res[i].min_similarity_err;
    if (me > 0 && ms != 0 && isfinite(ms)) {
      int dig = (int)floor(log10(fabs(ms) / me));
      char t[64];
      snprintf(t, sizeof t, "%.*e", dig < 1 ? 0 : dig > 16 ? 16 : dig - 1, ms);
      ms = strtod(t, NULL);
    }
    double row[9] = {(double)a->so.p.dim, (double)rot, res[i].len, res[i].base,
                     ms, res[i].argmin, res[i].previous_base,
                     res[i].previous_first_fail, fa * pow(res[i].len, fk)};
    rl_out_row(out, row, a->fit ? 9 : 8);
  }
  free(res);
  return rl_sink_close(&sink, &prog);
}

static int run_liu(args *a, const char *cmd)
{
  size_t rot = a->so.p.rot ? a->so.p.rot : a->so.p.dim;
  double tb = a->tune_base > 0 ? a->tune_base : a->so.p.base;
  for (size_t i = 0; i < a->nlen; i++) {
    double T = a->len[i], Tt = a->tune_len > 0 ? a->tune_len : T;
    if (!(T > 6.283185307179586))
      return rl_usage(cmd, "invalid --len '%.17g': expected a length > 2 pi", T);
    if (Tt < T)
      return rl_usage(cmd, "invalid --tune-len '%s': expected at least every --len (%.17g)",
                      a->tune_len_arg, T);
    /* critical_base = base^(ln(Tt/2pi) / ln(T/2pi)) must stay a double:
     * Tt <= 2pi DBL_MAX^(ln(T/2pi) / ln base); and beta1 = 4 Tt / pi
     * (1e300 gave critical_base = inf with exit 0) */
    long double two_pi = 6.283185307179586476925286766559L;
    long double lim = two_pi * expl(logl(DBL_MAX) * logl(T / two_pi) / logl(a->so.p.base));
    if (lim > (long double)DBL_MAX * 0.78L) /* pi/4 = 0.785... */
      lim = (long double)DBL_MAX * 0.78L;
    if (Tt > (double)lim * (1 - 0x1p-40)) /* a margin for the rounding of lim */
      return rl_usage(cmd, "invalid --tune-len '%s': expected at most %.6g at --len %.17g, "
                           "--base %.17g (beyond it critical_base = base^(ln(T_tune/2pi) / "
                           "ln(T_train/2pi)) overflows a double)", a->tune_len_arg,
                      (double)lim * (1 - 0x1p-40), T, a->so.p.base);
  }
  rl_sink sink = {0};
  int rc = rl_sink_open(&sink, cmd, &a->co, "bound_liu.gp");
  if (rc)
    return rc;
  rl_out *out = &sink.out;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "liu: Liu et al. 2023, arXiv:2310.05209, eq. 13, 16a-d");
  rl_sched_meta(&a->so.p, NULL, out);
  rl_out_header(out, "dim,rot,base,len,tune_len,tune_base,critical_dim,critical_base,"
                     "extrapolation_limit,critical_dim_tuned,beta1,beta2,beta3");
  for (size_t i = 0; i < a->nlen && !out->err; i++) {
    double T = a->len[i], Tt = a->tune_len > 0 ? a->tune_len : T;
    rl_liu_result r;
    if (rl_liu_bounds(rot, a->so.p.base, T, Tt, tb, &r)) {
      rl_sink_abort(&sink);
      return rl_usage(cmd, "invalid --len '%.17g' for Liu et al.'s bounds", T);
    }
    double row[13] = {(double)a->so.p.dim, (double)rot, a->so.p.base, T, Tt, tb,
                      r.critical_dim, r.critical_base, r.extrapolation_limit,
                      r.critical_dim_tuned, r.beta1, r.beta2, r.beta3};
    rl_out_row(out, row, 13);
  }
  return rl_sink_close(&sink, NULL);
}

static int run_pi(args *a, const char *cmd)
{
  rl_grid g;
  rl_schedule *f;
  int rc = rl_grid_opts_finish(&a->grid, cmd, &g);
  if (rc)
    return rc;
  if (a->co.plot && g.points < 2)
    return rl_usage(cmd, "--plot draws B(s)/d against s: expected at least two values of s "
                         "(--from '%s' --to '%s' --step '%s')", a->grid.from_arg,
                    a->grid.to_arg, a->grid.step_arg);
  if ((rc = rl_sched_build(&a->so.p, cmd, &f)))
    return rc;
  if (!rl_schedule_is_plain(f)) {
    rc = rl_usage(cmd, "method '%s' does not apply: B(s) needs a logit sum_j h_j e^{i s "
                       "theta_j} (no position map, amplitude or query scale)",
                  f->type->name);
    rl_schedule_free(f); /* after the message, which reads f */
    return rc;
  }
  rl_sink sink = {0};
  if ((rc = rl_sink_open(&sink, cmd, &a->co, "bound_pi.gp"))) {
    rl_schedule_free(f);
    return rc;
  }
  rl_out *out = &sink.out;
  rl_out_meta_begin(out);
  rl_out_meta(out, "bound", "pi: Chen et al. 2023, arXiv:2306.15595, Theorem 2.1 eq. 5-8, "
                            "Appendix B Figure 5");
  rl_sched_meta(&a->so.p, f, out);
  /* the paper's constant 32 ln c is RoPE's (pi.c): other methods divide by
   * their own sum of theta^2 */
  int paper = (f->type->flags & RL_ST_PLAIN_THETA) != 0;
  size_t rot = f->rot;
  double sum_sq = paper ? 0 : rl_pi_sum_theta_sq(f);
  if (paper) {
    double den = rl_pi_interp_denominator(a->so.p.base);
    rl_out_meta_num(out, "interp_denominator_32_ln_base", den);
    rl_out_meta_num(out, "interp_constant_1_over_32_ln_base", 1.0 / den);
  } else {
    rl_out_meta(out, "interp_bound", "max|h| sum_j theta_j^2 / 8 from this method's "
                                     "frequencies (the paper's d max|h| / (32 ln c) is "
                                     "plain RoPE's); ratio = 16 rot b_over_d / sum_theta_sq");
    rl_out_meta_num(out, "interp_sum_theta_sq", sum_sq);
    rl_out_meta_num(out, "ratio_per_b_over_d", rl_pi_ratio_theta(1.0, rot, sum_sq));
  }
  /* the method and its factor are columns (empty factor: none taken), so
   * rows of runs with different methods tell apart once concatenated */
  rl_out_header(out, "dim,base,method,factor,s,b_over_d,ratio");
  char fdim[RL_NUMFMT_MAX], fbase[RL_NUMFMT_MAX], ffac[RL_NUMFMT_MAX];
  snprintf(fdim, sizeof fdim, "%zu", f->dim);
  rl_numfmt(a->so.p.base, fbase);
  ffac[0] = 0;
  if (rl_schedule_param_applies(rl_schedule_param_find("factor"), f->type))
    rl_numfmt(a->so.p.factor, ffac);
  enum { CHUNK = 4096 };
  double sv[CHUNK], bv[CHUNK];
  for (size_t j0 = 0; j0 < g.points && !out->err; j0 += CHUNK) {
    size_t n = g.points - j0 < CHUNK ? g.points - j0 : CHUNK;
    rl_status st = rl_pi_b_over_d(f, &g, j0, n, sv, bv);
    if (st) {
      rl_sink_abort(&sink);
      rl_schedule_free(f);
      return st == RL_ERANGE ? rl_grid_out_of_range(&a->grid, cmd)
                             : rl_runtime(cmd, "cannot evaluate B(s): %s", rl_strerror(st));
    }
    for (size_t k = 0; k < n && !out->err; k++) {
      char c[3][RL_NUMFMT_MAX];
      rl_numfmt(sv[k], c[0]);
      rl_numfmt(bv[k], c[1]);
      rl_numfmt(paper ? rl_pi_ratio(bv[k], a->so.p.base) : rl_pi_ratio_theta(bv[k], rot, sum_sq),
                c[2]);
      const char *fld[7] = {fdim, fbase, f->type->name, ffac, c[0], c[1], c[2]};
      rl_out_fields(out, fld, 7);
    }
  }
  rl_schedule_free(f);
  return rl_sink_close(&sink, NULL);
}

static int run_yarn(args *a, const char *cmd)
{
  rl_schedule_params p = a->so.p;
  char perr[RL_ERR_MAX];
  if (rl_yarn_bound_params(&p, perr))
    return rl_usage(cmd, "%s", perr);
  rl_sink sink = {0};
  int rc = rl_sink_open(&sink, cmd, &a->co, "bound_yarn.gp");
  if (rc)
    return rc;
  rl_out *out = &sink.out;
  size_t rot = p.rot ? p.rot : p.dim;
  for (size_t i = 0; i < a->nlen; i++) {
    rl_yarn_result r;
    char err[RL_ERR_MAX];
    if (!(a->len[i] > 0) || a->len[i] > RL_POS_MAX) {
      rl_sink_abort(&sink);
      return rl_usage(cmd, "invalid --len '%.17g': expected a length in (0, 2^31]", a->len[i]);
    }
    if (rl_yarn_bounds(&p, a->len[i], &r, err)) {
      rl_sink_abort(&sink);
      return rl_usage(cmd, "%s", err);
    }
    if (i == 0) {
      rl_out_meta_begin(out);
      rl_out_meta(out, "bound", "yarn: Peng et al. 2023, arXiv:2309.00071, sec. 3.2, 3.4");
      rl_sched_meta(&p, NULL, out);
      rl_out_header(out, "dim,rot,base,len,factor,beta_fast,beta_slow,low_exact,high_exact,"
                         "low,high,attention_factor");
    }
    double row[12] = {(double)p.dim, (double)rot, p.base, a->len[i], p.factor,
                      rl_schedule_get(&p, "beta-fast"), rl_schedule_get(&p, "beta-slow"),
                      r.low_exact, r.high_exact, r.low, r.high, r.attention_factor};
    rl_out_row(out, row, 12);
  }
  return rl_sink_close(&sink, NULL);
}

static int run(int argc, char **argv)
{
  const char *cmd = "bound";
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if (argc < 2 || argv[1][0] == '-')
    return rl_usage(cmd, "missing bound: expected men, liu, pi or yarn (see 'ropelab bound "
                         "--help')");
  int which = -1;
  for (int i = 0; i < NBOUNDS; i++)
    if (!strcmp(argv[1], bounds[i]))
      which = i;
  if (which < 0) {
    size_t s = rl_suggest(argv[1], bounds, NBOUNDS);
    if (s < NBOUNDS)
      return rl_usage(cmd, "unknown bound '%s': expected men, liu, pi or yarn; did you mean "
                           "'%s'?", argv[1], bounds[s]);
    return rl_usage(cmd, "unknown bound '%s': expected men, liu, pi or yarn", argv[1]);
  }
  static const struct option base_opts[] = {
      {"len", required_argument, NULL, OPT_LEN}, RL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
  static struct option own_opts[48];
  args a;
  memset(&a, 0, sizeof a);
  rl_grid_opts_init(&a.grid, &grid_kind);
  rl_decl_opts bo;
  rl_decl_opts_init(&bo, rl_bound_param_list(), &a.bs, OPT_DECL);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  nopt = rl_decl_longopts(&bo, own_opts, nopt, 48);
  rl_grid_longopts(&a.grid, own_opts, nopt, 48);
  const struct option *opts = rl_sched_longopts(own_opts);
  a.which = which;
  rl_sched_opts_init(&a.so, 0);
  rl_common_init(&a.co);
  rl_men_params_default(&a.men);
  a.len_arg = which == B_MEN ? RL_MEN_LEN_DEFAULT : RL_BOUND_LEN_DEFAULT;
  int c, r;
  char **av = argv + 1;
  int ac = argc - 1;
  while ((c = getopt_long(ac, av, ":o:h", opts, NULL)) != -1) {
    /* a declared setting of another bound, or pi's grid elsewhere */
    const rl_param *d = c >= OPT_DECL && (r = rl_decl_opt(&bo, cmd, c, optarg)) == RL_OPT_TAKEN
                            ? rl_bound_param_list()[c - OPT_DECL] : NULL;
    if (d && !takes(d, bounds[which]))
      return rl_usage(cmd, "--%s does not apply to bound '%s' (it is for '%s')", d->key,
                      bounds[which], d->only);
    if (c >= RL_GOPT_FROM && c < RL_GOPT_LAST && which != B_PI) {
      const char *name = "";
      for (const struct option *o = opts; o->name; o++)
        if (o->val == c)
          name = o->name;
      return rl_usage(cmd, "--%s does not apply to bound '%s' (it is for 'pi')", name,
                      bounds[which]);
    }
    if (d) {
      if (!strcmp(d->key, "tune-len"))
        a.tune_len_arg = optarg; /* its messages quote it as typed */
      continue;
    }
    if (c >= OPT_DECL && rl_opt_failed(r))
      return rl_opt_exit_code(r);
    switch (c) {
    case OPT_LEN:
      /* pi's values of s are its grid, not a --len (once ignored) */
      if (which == B_PI)
        return rl_usage(cmd, "--len does not apply to bound 'pi' (its s is --from, --to, "
                             "--step; --len is for 'men', 'liu' and 'yarn')");
      a.len_arg = optarg;
      a.len_given = 1;
      break;
    default:
      if (rl_opt_failed(r = rl_grid_opt(&a.grid, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (!r && (r = rl_sched_opt_default(&a.so, &a.co, cmd, c, av, opts)))
        return r;
    }
  }
  unsigned given = rl_decl_given_bits(&bo);
  rl_bound_settings_to_men(&a.bs, &a.men);
  a.search_given = (given & RL_BS_SEARCH) != 0;
  a.fit = a.bs.fit;
  a.largest = a.bs.largest_len;
  a.threads = a.bs.threads ? (int)a.bs.threads : rl_online_cpus(RL_THREADS_MAX);
  a.tune_len = a.bs.tune_len;
  a.tune_base = a.bs.tune_base;
  if (a.co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if ((r = rl_opt_no_args(cmd, ac, av)) || (r = rl_sched_opts_finish(&a.so, cmd)))
    return r;
  /* the bounds are statements about exact values (Men's B_r, Liu's
   * critical dimension, PI's and YaRN's closed forms): a framework's
   * rounding is no part of them */
  if (a.so.p.precision && !a.so.p.precision->exact)
    return rl_usage(cmd, "--precision '%s' is not taken by bounds: expected exact or fp64 "
                         "(the bounds are defined on exact values)", a.so.p.precision->name);
  if (which != B_PI &&
      (r = rl_opt_values(cmd, "--len", a.len_arg, 4096, &a.len, &a.nlen)))
    return r;
  /* men's and liu's figures are curves over the lengths */
  if (a.co.plot && (which == B_MEN || which == B_LIU) && a.nlen < 2) {
    free(a.len);
    return rl_usage(cmd, "--plot draws %s against --len: expected at least two lengths (a list "
                         "or range, e.g. --len %s)", which == B_MEN ? "the base" : "the critical "
                         "dimension", which == B_MEN ? "1024:1048576:x2" : "512:1048576:x2");
  }
  switch (which) {
  case B_MEN: r = run_men(&a, cmd); break;
  case B_LIU: r = run_liu(&a, cmd); break;
  case B_PI: r = run_pi(&a, cmd); break;
  default: r = run_yarn(&a, cmd); break;
  }
  free(a.len);
  return r;
}

const struct rl_cmd rl_cmd_bound = {"bound", run,
                                    "bounds: Men's base, Liu's critical dim, "
                                    "PI's B(s)/d, YaRN range", help, NULL};
