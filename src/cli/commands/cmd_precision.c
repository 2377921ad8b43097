/* cmd_precision.c: `ropelab precision`, the precision envelope: how far a
 * framework pipeline's cos/sin table, rotation angle and logit are from
 * the exact values as position grows.  The measure, its settings, their
 * checks, the bins and the pipelines are the core's (rl_prec_env_*); this
 * file is the declaration (cmd.h) and a compute() that runs the measure
 * per pipeline and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "precision_opts.h"
#include "progress.h"
#include "rowfmt.h"

#define NPIPES 32

/* what one run holds: the schedules, the bins, the sink */
typedef struct env_run {
  const rl_precision *list[NPIPES];
  rl_schedule *built[NPIPES], *ex;
  size_t np, *ends, ne, per;
  size_t base; /* progress units of the builds, before the rows' */
  rl_prec_err *pair;
  rl_sink sink;
  rl_progress prog;
} env_run;

static void fmt_err(const rl_prec_err *e, char b[4][RL_NUMFMT_MAX], const char **fld)
{
  rl_numfmt(e->cos, b[0]);
  rl_numfmt(e->sin, b[1]);
  rl_numfmt(e->angle, b[2]);
  rl_numfmt(e->logit, b[3]);
  for (int j = 0; j < 4; j++)
    fld[j] = b[j];
}

/* a row of --by position: pipeline, its positions lo..hi, its errors */
static void pos_row(rl_out *out, const char *name, size_t lo, size_t hi, const rl_prec_err *e)
{
  char nb[2][RL_NUMFMT_MAX], eb[4][RL_NUMFMT_MAX];
  const char *fld[7] = {name, nb[0], nb[1]};
  snprintf(nb[0], sizeof nb[0], "%zu", lo);
  snprintf(nb[1], sizeof nb[1], "%zu", hi);
  fmt_err(e, eb, fld + 3);
  rl_out_fields(out, fld, 7);
}

/* --bins none: one row per position (or the first past
 * --first-exceeding), streamed: nothing kept but the pair maxima */
static rl_status streamed(const rl_prec_env_settings *s, env_run *w, size_t k, rl_prec_env *env)
{
  rl_out *out = &w->sink.out;
  rl_status st = RL_OK;
  int found = 0, first = s->first_exceeding >= 0;
  for (size_t m = s->from; m <= s->to && !st && !out->err && !found; m++) {
    rl_prec_err one = {0, 0, 0, 0};
    if ((st = rl_prec_env_run(env, (double)m, 1, w->pair, &one)))
      break;
    found = first && fmax(one.cos, one.sin) > s->first_exceeding;
    if (!first || found)
      pos_row(out, w->list[k]->name, m, m, &one);
    if ((m - s->from) % 4096 == 0)
      rl_progress_update(&w->prog, w->base + k * w->per + (m - s->from + 1));
  }
  if (first && !found && !st && !out->err) {
    const char *fld[7] = {w->list[k]->name, "", "", "", "", "", ""};
    rl_out_fields(out, fld, 7); /* none up to --to */
  }
  return st;
}

/* --by pair: one row per pair, the worst over all positions, then 'all' */
static void pair_rows(env_run *w, size_t k, const rl_prec_err *all)
{
  rl_out *out = &w->sink.out;
  for (size_t i = 0; i <= w->ex->n && !out->err; i++) {
    char nb[3][RL_NUMFMT_MAX], eb[4][RL_NUMFMT_MAX];
    const char *fld[8] = {w->list[k]->name, nb[0], nb[1], nb[2]};
    if (i < w->ex->n) {
      snprintf(nb[0], sizeof nb[0], "%zu", i);
      rl_numfmt(w->built[k]->theta[i], nb[1]);
      rl_numfmt(w->ex->theta[i], nb[2]);
      fmt_err(&w->pair[i], eb, fld + 4);
    } else {
      fld[1] = "all", fld[2] = "", fld[3] = "";
      fmt_err(all, eb, fld + 4);
    }
    rl_out_fields(out, fld, 8);
  }
}

/* the bins of pipeline k: a row each (--by position), or the pairs' */
static rl_status binned(const rl_prec_env_settings *s, env_run *w, size_t k, rl_prec_env *env)
{
  rl_out *out = &w->sink.out;
  rl_prec_err all = {0, 0, 0, 0};
  rl_status st = RL_OK;
  size_t lo = s->from;
  for (size_t b = 0; b < w->ne && !st && !out->err; b++) {
    rl_prec_err bin = {0, 0, 0, 0};
    size_t first = s->sample == 0 ? lo : w->ends[b];
    if ((st = rl_prec_env_run(env, (double)first, w->ends[b] - first + 1, w->pair, &bin)))
      break;
    all.cos = fmax(all.cos, bin.cos);
    all.sin = fmax(all.sin, bin.sin);
    all.angle = fmax(all.angle, bin.angle);
    all.logit = fmax(all.logit, bin.logit);
    if (s->by == RL_PES_BY_POSITION)
      pos_row(out, w->list[k]->name, lo, w->ends[b], &bin);
    rl_progress_update(&w->prog, w->base + k * w->per +
                                      (s->sample == 0 ? w->ends[b] - s->from + 1 : b + 1));
    lo = w->ends[b] + 1;
  }
  if (s->by == RL_PES_BY_PAIR && !st)
    pair_rows(w, k, &all);
  return st;
}

/* the pipelines and the bins: what the progress counts */
static int plan(rl_cmd_run *r, env_run *w)
{
  const rl_prec_env_settings *s = r->settings;
  w->np = rl_prec_env_pipelines(r->sched.p.precision, w->list, NPIPES);
  if (!(w->ends = malloc((s->points + 1) * sizeof *w->ends)))
    return rl_runtime(r->name, "out of memory");
  w->ne = rl_prec_env_bin_ends(s, w->ends);
  w->per = s->sample == 0 ? s->to - s->from + 1 : w->ne;
  return 0;
}

/* the exact (or --against) schedule and each pipeline's: at d = 2^20 a
 * build is ~0.8 s of CPU (exact angles of 2^19 pairs), so each counts in
 * the progress as rl_cost_prec_build_positions() positions of rows */
static int prepare(rl_cmd_run *r, env_run *w)
{
  const rl_prec_env_settings *s = r->settings;
  size_t bw = rl_cost_prec_build_positions();
  rl_schedule_params xp = r->sched.p;
  xp.precision = s->against; /* NULL: the exact values */
  int rc = rl_sched_build(&xp, r->name, &w->ex);
  if (!rc)
    rl_progress_update(&w->prog, bw);
  for (size_t k = 0; k < w->np && !rc; k++) {
    rl_schedule_params pp = r->sched.p;
    pp.precision = w->list[k];
    if (!(rc = rl_sched_build(&pp, r->name, &w->built[k])))
      rl_progress_update(&w->prog, (k + 2) * bw);
  }
  return rc;
}

static void meta(rl_cmd_run *r, env_run *w)
{
  static const char *const samples[] = {"all", "log"};
  const rl_prec_env_settings *s = r->settings;
  rl_out *out = &w->sink.out;
  rl_out_meta_begin(out);
  rl_sched_meta(&r->sched.p, w->ex, out);
  rl_out_meta(out, "compared_with", s->against ? s->against->name : "exact");
  if (s->bins_none)
    rl_out_meta(out, "bins", "none: one row per position");
  if (s->first_exceeding >= 0)
    rl_out_meta_num(out, "first_exceeding", s->first_exceeding);
  rl_out_meta_uint(out, "from", s->from);
  rl_out_meta_uint(out, "to", s->to);
  rl_out_meta(out, "sample", samples[s->sample]);
  rl_out_meta_uint(out, "distance", s->distance);
  rl_out_meta_uint(out, "seed", s->seed);
  rl_out_header(out, s->by == RL_PES_BY_POSITION
                         ? "precision,pos_from,pos,cos_err,sin_err,angle_err,logit_err"
                         : "precision,pair,theta,theta_exact,cos_err,sin_err,angle_err,"
                           "logit_err");
}

/* every pipeline's envelope in turn */
static rl_status envelopes(const rl_prec_env_settings *s, env_run *w)
{
  rl_status st = RL_OK;
  if (!(w->pair = calloc(w->ex->n, sizeof *w->pair)))
    return RL_ENOMEM;
  for (size_t k = 0; k < w->np && !st && !w->sink.out.err; k++) {
    rl_prec_env *env;
    if ((st = rl_prec_env_alloc(w->built[k], w->ex, (double)s->distance,
                                (unsigned long)s->seed, &env)))
      break;
    memset(w->pair, 0, w->ex->n * sizeof *w->pair);
    st = s->bins_none ? streamed(s, w, k, env) : binned(s, w, k, env);
    rl_prec_env_free(env);
  }
  return st;
}

/* the rotated pairs (--rot, 0: all of --dim) */
static size_t pairs(const rl_cmd_run *r)
{
  return (r->sched.p.rot ? r->sched.p.rot : r->sched.p.dim) / 2;
}

/* a request past the cost model's hour is refused before anything is
 * built (issue 33 item 5: --dim 2^20 --to 1e4 is ~2.5 h of CPU); one that
 * stops at --first-exceeding may end early: not refused */
static int check_cost(rl_cmd_run *r)
{
  const rl_prec_env_settings *s = r->settings;
  const rl_precision *list[NPIPES];
  char err[RL_ERR_MAX];
  if (s->first_exceeding >= 0)
    return 0;
  size_t np = rl_prec_env_pipelines(r->sched.p.precision, list, NPIPES);
  int all = s->sample == 0;
  size_t positions = all ? s->to - s->from + 1 : s->points;
  const rl_schedule_params *p = &r->sched.p;
  if (rl_cost_check_prec(np, positions, all ? "--to" : "--points", all ? s->to : s->points,
                         pairs(r), p->rot ? "--rot" : "--dim", p->rot ? p->rot : p->dim, err))
    return rl_usage(r->name, "%s", err);
  return 0;
}

static int check(rl_cmd_run *r)
{
  rl_prec_env_settings *s = r->settings;
  char err[RL_ERR_MAX];
  s->set = rl_decl_given_bits(&r->own[0]);
  if (rl_prec_env_plan(s, err, sizeof err))
    return rl_usage(r->name, "%s", err);
  return check_cost(r);
}

/* progress from the start: the builds, then every pipeline's rows */
static void progress_start(rl_cmd_run *r, env_run *w)
{
  size_t bw = rl_cost_prec_build_positions(), n = pairs(r);
  w->base = (w->np + 1) * bw;
  rl_progress_init(&w->prog, r->name, r->co.progress, w->base + w->per * w->np,
                   w->per * w->np * n > 10000000 || rl_cost_prec(w->np, w->per, n) > 2);
}

static int compute(rl_cmd_run *r)
{
  const rl_prec_env_settings *s = r->settings;
  env_run *w = calloc(1, sizeof *w);
  if (!w)
    return rl_runtime(r->name, "out of memory");
  int rc = plan(r, w);
  if (!rc) {
    progress_start(r, w);
    rc = prepare(r, w);
  }
  if (!rc)
    rc = rl_sink_open(&w->sink, r->name, &r->co,
                      s->by == RL_PES_BY_POSITION ? "precision.gp" : NULL);
  if (!rc) {
    meta(r, w);
    rl_status st = envelopes(s, w);
    if (st) {
      rl_sink_abort(&w->sink);
      rl_progress_stop(&w->prog);
      rc = rl_runtime(r->name, "cannot compute the envelope: %s", rl_strerror(st));
    } else {
      rc = rl_sink_close(&w->sink, &w->prog);
    }
  } else {
    rl_progress_stop(&w->prog);
  }
  free(w->pair);
  for (size_t k = 0; k < w->np; k++)
    rl_schedule_free(w->built[k]);
  rl_schedule_free(w->ex);
  free(w->ends);
  free(w);
  return rc;
}

/* the pipelines --precision names (the core's registry) and what the
 * framework ones' cos and sin are */
static void help_pipelines(FILE *fp)
{
  fputs("\npipelines (--precision):\n", fp);
  rl_precision_list(fp);
  fputs("cos and sin of the framework pipelines are glibc's cosf and sinf (within 1\n"
        "ulp); PyTorch's CPU kernels (SLEEF) and CUDA's cosf/sinf (2 ulp, CUDA Math\n"
        "API) may differ by an ulp, and CUDA's fast-math __cosf/__sinf (error up to\n"
        "2^-21.41 absolute on [-pi, pi], larger outside) by far more at large angles.\n"
        "\n", fp);
}

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
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
        "Without --precision, every pipeline but exact, one after the other.\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_prec_env_settings),
    .groups = {{"envelope:", rl_prec_env_param_list, 0, 0}},
    .plot = "precision.gp", /* --by position's; --by pair draws none */
    /* its rows carry the pipeline already (--precision a,b is one
     * column); a sweep's figure is the envelope by position on log axes
     * (--by pair's tables: 'ropelab plot', pair 0 has no log) */
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "",
    .plot_x = "pos", .plot_y = "cos_err sin_err angle_err logit_err", .plot_log = "x,y",
    .plot_units = "pos=tokens;cos_err=no unit;sin_err=no unit;angle_err=rad;logit_err=no unit",
    .check = check,
    .compute = compute,
    .own_first = 1,
    .help_own = help_pipelines,
    .plot_series = "precision",
};

const struct rl_cmd rl_cmd_precision = {
    "precision", NULL, "a framework pipeline's cos/sin, angle, logit errors vs position", NULL,
    &decl};
