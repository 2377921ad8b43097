/* cmd_precision.c: `ropelab precision`, the precision envelope: how far a
 * framework pipeline's cos/sin table, rotation angle and logit are from
 * the exact values as position grows (the measure is the core's
 * rl_prec_env_*). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "precision_opts.h"
#include "progress.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "sink.h"

enum {
  OPT_FROM = RL_OPT_FIRST_CMD, OPT_TO, OPT_POINTS, OPT_SAMPLE, OPT_DISTANCE, OPT_BY, OPT_SEED,
  OPT_AGAINST, OPT_BINS, OPT_FIRST
};

static void help(FILE *fp)
{
  fprintf(fp,
          "usage: ropelab precision [OPTIONS]\n"
          "\n"
          "The precision envelope: a framework's RoPE pipeline (--precision) against\n"
          "the exact values, over positions --from..--to (every integer position,\n"
          "streamed; or --sample log). For pair i at position m, with (c, s) the\n"
          "pipeline's table entry and (C, S) the exact cos and sin:\n"
          "  cos_err, sin_err  |c - C|, |s - S|\n"
          "  angle_err         the angle between the two rotations, radians\n"
          "  logit_err         |<R_m q, R_{m+r} k> - <q, R_r k>| at the fixed distance\n"
          "                    r = --distance: the relative property (the logit of one\n"
          "                    distance should not depend on the absolute position;\n"
          "                    Wang et al. 2024, 'When Precision Meets Position:\n"
          "                    BFloat16 Breaks Down RoPE in Long-Context Training').\n"
          "                    Left side in the pipeline's arithmetic, right side\n"
          "                    exact, q and k drawn from --seed (q.k of unit variance)\n"
          "                    and rounded to the pipeline's activation dtype.\n"
          "--by position (default): one row per log-spaced bin of positions, the\n"
          "worst over the bin and every pair (logit_err of the whole head); --by\n"
          "pair: one row per pair, the worst over all positions, then 'all'.\n"
          "Without --precision, every pipeline but exact, one after the other.\n"
          "\n"
          "envelope:\n"
          "      --from A       first position, >= 0 (default 0)\n"
          "      --to B         last position (default %d)\n"
          "      --points P     rows (log-spaced bins) with --by position (default %d)\n"
          "      --sample all|log  every position, or only each bin's last (default all)\n"
          "      --distance R   r of the relative property, >= 0 (default %d)\n"
          "      --by position|pair  rows (default position)\n"
          "      --seed S       the draw of q and k (default 1)\n"
          "      --against P    compare with pipeline P instead of the exact values\n"
          "                     (hf-bf16 against hf-fp32, ggml-f32 against vllm-fp32):\n"
          "                     (C, S) and the right side of logit_err are then P's\n"
          "      --bins none    with --by position: one row per position, streamed\n"
          "                     (default: --points log-spaced bins)\n"
          "      --first-exceeding E  only the first position whose cos_err or sin_err\n"
          "                     exceeds E (one row per pipeline; pos empty if none)\n"
          "\n"
          "pipelines (--precision):\n",
          RL_PREC_ENV_TO, RL_PREC_ENV_POINTS, RL_PREC_ENV_DISTANCE);
  rl_precision_list(fp);
  fputs("cos and sin of the framework pipelines are glibc's cosf and sinf (within 1\n"
        "ulp); PyTorch's CPU kernels (SLEEF) and CUDA's cosf/sinf (2 ulp, CUDA Math\n"
        "API) may differ by an ulp, and CUDA's fast-math __cosf/__sinf (error up to\n"
        "2^-21.41 absolute on [-pi, pi], larger outside) by far more at large angles.\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputc('\n', fp);
  rl_common_help(fp);
}

static void fmt_err(const rl_prec_err *e, char b[4][RL_NUMFMT_MAX], const char **fld)
{
  rl_numfmt(e->cos, b[0]);
  rl_numfmt(e->sin, b[1]);
  rl_numfmt(e->angle, b[2]);
  rl_numfmt(e->logit, b[3]);
  for (int j = 0; j < 4; j++)
    fld[j] = b[j];
}

static int run(int argc, char **argv)
{
  static const struct option own_opts[] = {
      {"from", required_argument, NULL, OPT_FROM},
      {"to", required_argument, NULL, OPT_TO},
      {"points", required_argument, NULL, OPT_POINTS},
      {"sample", required_argument, NULL, OPT_SAMPLE},
      {"distance", required_argument, NULL, OPT_DISTANCE},
      {"by", required_argument, NULL, OPT_BY},
      {"seed", required_argument, NULL, OPT_SEED},
      {"against", required_argument, NULL, OPT_AGAINST},
      {"bins", required_argument, NULL, OPT_BINS},
      {"first-exceeding", required_argument, NULL, OPT_FIRST},
       RL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
  const struct option *opts = rl_sched_longopts(own_opts);
  static const char *const samples[] = {"all", "log"}, *const bys[] = {"position", "pair"};
  const char *cmd = "precision";
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  rl_common co;
  rl_common_init(&co);
  unsigned long long from = 0, to = RL_PREC_ENV_TO, points = RL_PREC_ENV_POINTS,
                     dist = RL_PREC_ENV_DISTANCE, seed = 1;
  int sample = 0, by = 0, c, r = 0, bins_none = 0, points_given = 0;
  static const char *const bins_names[] = {"log", "none"};
  const rl_precision *against = NULL;
  double first_exceeding = -1;
  const unsigned long long pmax = (unsigned long long)RL_POS_MAX;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_FROM: r = rl_opt_uint(cmd, "--from", optarg, 0, pmax, &from); break;
    case OPT_TO: r = rl_opt_uint(cmd, "--to", optarg, 0, pmax, &to); break;
    case OPT_POINTS:
      points_given = 1;
      r = rl_opt_uint(cmd, "--points", optarg, 1, 100000, &points);
      break;
    case OPT_DISTANCE: r = rl_opt_uint(cmd, "--distance", optarg, 0, pmax, &dist); break;
    case OPT_SEED: r = rl_opt_seed(cmd, optarg, &seed); break;
    case OPT_SAMPLE: r = rl_opt_enum(cmd, "--sample", optarg, samples, 2, &sample); break;
    case OPT_BY: r = rl_opt_enum(cmd, "--by", optarg, bys, 2, &by); break;
    case OPT_BINS: r = rl_opt_enum(cmd, "--bins", optarg, bins_names, 2, &bins_none); break;
    case OPT_AGAINST: {
      /* the pipeline names of --precision's declaration, under its name */
      rl_param d = *rl_schedule_param_find("precision");
      d.key = "against";
      int k;
      char err[RL_ERR_MAX];
      if (rl_param_enum_index(&d, optarg, &k, err, sizeof err))
        r = rl_usage(cmd, "%s", err);
      else
        against = rl_precisions()[k];
      break;
    }
    case OPT_FIRST:
      if (!(r = rl_opt_double(cmd, "--first-exceeding", optarg, &first_exceeding)) &&
          !(first_exceeding >= 0))
        r = rl_usage(cmd, "invalid --first-exceeding '%s': expected a number >= 0", optarg);
      break;
    default: r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts);
    }
    if (r)
      return r;
  }
  if ((r = rl_sched_opts_end(&so, &co, cmd, argc, argv, help)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (to < from)
    return rl_usage(cmd, "invalid --to '%llu': expected a position >= --from %llu", to, from);
  if (points_given && (by == 1 || bins_none || first_exceeding >= 0))
    return rl_usage(cmd, "--points sets the bins of --by position: expected it without %s",
                    by == 1 ? "--by pair" : bins_none && first_exceeding < 0 ? "--bins none"
                                                                         : "--first-exceeding");
  if ((bins_none || first_exceeding >= 0) && by == 1)
    return rl_usage(cmd, "--%s gives rows per position: expected it without --by pair",
                    bins_none ? "bins none" : "first-exceeding");
  if (first_exceeding >= 0)
    bins_none = 1; /* walked position by position */
  /* --against the pipeline itself is allowed: every error is 0, a check
   * of the comparison itself */
  if (to + dist > pmax)
    return rl_usage(cmd, "invalid --distance '%llu': --to + --distance must stay within "
                         "2147483648", dist);
  /* the pipelines: the one given, or every one but exact */
  const rl_precision *list[32];
  size_t np = 0;
  if (so.p.precision)
    list[np++] = so.p.precision;
  else
    for (const rl_precision *const *p = rl_precisions(); *p && np < 32; p++)
      if (*p != rl_precision_exact())
        list[np++] = *p;
  /* bin ends: from - 1 + ceil(span^(k/P)), deduplicated */
  unsigned long long span = to - from + 1;
  unsigned long long *ends = malloc((points + 1) * sizeof *ends);
  if (!ends)
    return rl_runtime(cmd, "out of memory");
  size_t ne = 0;
  for (unsigned long long k = 1; k <= points; k++) {
    unsigned long long e = from - 1 + (unsigned long long)ceil(pow((double)span, (double)k / (double)points));
    if (k == points || e > to)
      e = to;
    if (e >= from && (ne == 0 || e > ends[ne - 1]))
      ends[ne++] = e;
  }
  rl_schedule *ex;
  rl_schedule_params xp = so.p;
  xp.precision = against; /* NULL: the exact values */
  if ((r = rl_sched_build(&xp, cmd, &ex))) {
    free(ends);
    return r;
  }
  rl_schedule *built[32] = {0};
  for (size_t k = 0; k < np && !r; k++) {
    rl_schedule_params pp = so.p;
    pp.precision = list[k];
    r = rl_sched_build(&pp, cmd, &built[k]);
  }
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  if (!r)
    r = rl_sink_open(&sink, cmd, &co, by == 0 ? "precision.gp" : NULL);
  if (r) {
    for (size_t k = 0; k < np; k++)
      rl_schedule_free(built[k]);
    rl_schedule_free(ex);
    free(ends);
    return r;
  }
  rl_out_meta_begin(out);
  rl_sched_meta(&so.p, ex, out);
  rl_out_meta(out, "compared_with", against ? against->name : "exact");
  if (bins_none)
    rl_out_meta(out, "bins", "none: one row per position");
  if (first_exceeding >= 0)
    rl_out_meta_num(out, "first_exceeding", first_exceeding);
  rl_out_meta_uint(out, "from", from);
  rl_out_meta_uint(out, "to", to);
  rl_out_meta(out, "sample", samples[sample]);
  rl_out_meta_uint(out, "distance", dist);
  rl_out_meta_uint(out, "seed", seed);
  rl_out_header(out, by == 0 ? "precision,pos_from,pos,cos_err,sin_err,angle_err,logit_err"
                             : "precision,pair,theta,theta_exact,cos_err,sin_err,angle_err,"
                               "logit_err");
  size_t per = sample == 0 ? (size_t)span : ne;
  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, per * np, per * np * ex->n > 10000000);
  rl_status st = RL_OK;
  rl_prec_err *pair = calloc(ex->n, sizeof *pair);
  if (!pair)
    st = RL_ENOMEM;
  for (size_t k = 0; k < np && !st && !out->err; k++) {
    rl_prec_env *env;
    if ((st = rl_prec_env_alloc(built[k], ex, (double)dist, (unsigned long)seed, &env)))
      break;
    memset(pair, 0, ex->n * sizeof *pair);
    rl_prec_err all = {0, 0, 0, 0};
    if (bins_none) {
      /* one row per position (or the first past --first-exceeding),
       * streamed: nothing kept but the pair maxima */
      int found = 0;
      for (unsigned long long m = from; m <= to && !st && !out->err && !found; m++) {
        rl_prec_err one = {0, 0, 0, 0};
        if ((st = rl_prec_env_run(env, (double)m, 1, pair, &one)))
          break;
        found = first_exceeding >= 0 && fmax(one.cos, one.sin) > first_exceeding;
        if (first_exceeding < 0 || found) {
          char nb[2][RL_NUMFMT_MAX], eb[4][RL_NUMFMT_MAX];
          const char *fld[7] = {list[k]->name, nb[0], nb[1]};
          snprintf(nb[0], sizeof nb[0], "%llu", m);
          snprintf(nb[1], sizeof nb[1], "%llu", m);
          fmt_err(&one, eb, fld + 3);
          rl_out_fields(out, fld, 7);
        }
        if ((m - from) % 4096 == 0)
          rl_progress_update(&prog, k * per + (size_t)(m - from + 1));
      }
      if (first_exceeding >= 0 && !found && !st && !out->err) {
        const char *fld[7] = {list[k]->name, "", "", "", "", "", ""};
        rl_out_fields(out, fld, 7); /* none up to --to */
      }
      rl_prec_env_free(env);
      continue;
    }
    unsigned long long lo = from;
    for (size_t b = 0; b < ne && !st && !out->err; b++) {
      rl_prec_err bin = {0, 0, 0, 0};
      unsigned long long first = sample == 0 ? lo : ends[b];
      st = rl_prec_env_run(env, (double)first, (size_t)(ends[b] - first + 1), pair, &bin);
      if (st)
        break;
      all.cos = fmax(all.cos, bin.cos);
      all.sin = fmax(all.sin, bin.sin);
      all.angle = fmax(all.angle, bin.angle);
      all.logit = fmax(all.logit, bin.logit);
      if (by == 0) {
        char nb[2][RL_NUMFMT_MAX], eb[4][RL_NUMFMT_MAX];
        const char *fld[7] = {list[k]->name, nb[0], nb[1]};
        snprintf(nb[0], sizeof nb[0], "%llu", lo);
        snprintf(nb[1], sizeof nb[1], "%llu", ends[b]);
        fmt_err(&bin, eb, fld + 3);
        rl_out_fields(out, fld, 7);
      }
      rl_progress_update(&prog, k * per + (sample == 0 ? (size_t)(ends[b] - from + 1) : b + 1));
      lo = ends[b] + 1;
    }
    for (size_t i = 0; by == 1 && !st && i <= ex->n && !out->err; i++) {
      char nb[3][RL_NUMFMT_MAX], eb[4][RL_NUMFMT_MAX];
      const char *fld[8] = {list[k]->name, nb[0], nb[1], nb[2]};
      if (i < ex->n) {
        snprintf(nb[0], sizeof nb[0], "%zu", i);
        rl_numfmt(built[k]->theta[i], nb[1]);
        rl_numfmt(ex->theta[i], nb[2]);
        fmt_err(&pair[i], eb, fld + 4);
      } else {
        fld[1] = "all", fld[2] = "", fld[3] = "";
        fmt_err(&all, eb, fld + 4);
      }
      rl_out_fields(out, fld, 8);
    }
    rl_prec_env_free(env);
  }
  free(pair);
  for (size_t k = 0; k < np; k++)
    rl_schedule_free(built[k]);
  rl_schedule_free(ex);
  free(ends);
  if (st) {
    rl_sink_abort(&sink);
    rl_progress_end(&prog);
    return rl_runtime(cmd, "cannot compute the envelope: %s", rl_strerror(st));
  }
  return rl_sink_close(&sink, &prog);
}

const struct rl_cmd rl_cmd_precision = {
    "precision", run, "a framework pipeline's cos/sin, angle, logit errors vs position",
    help, NULL};
