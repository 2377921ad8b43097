/* cmd_profile.c: `ropelab profile`, the positional contribution to the
 * logit (positional = total - cc, ropelab.h "schemes") against relative
 * distance r, for one or several schemes on one grid, so all their
 * decays fit one figure.
 *
 * Anchor: the query sits at position q (--query-pos), the key at q - r.
 * Relative schemes give the same value for every q; absolute ones
 * (sinusoidal, learned, integer, binary, tupe) depend on q, which is why
 * it is an option and in the metadata.
 *
 * Content: N samples (--samples) drawn once from --seed (common random
 * numbers: every r sees the same contents).  Sample s has a query
 * content x_s and an independent key content y_s, both N(0, I_d):
 *   <scheme>_same  mean over s of positional(q, q - r; x_s, x_s): the
 *                  same content at both positions;
 *   <scheme>_mean  mean over s of positional(q, q - r; x_s, y_s),
 *   <scheme>_se    its standard error (sample sd / sqrt(N)).
 * The measure and its settings are the core's (rl_profile_*,
 * src/core/measures/profile.c); this file is the declaration (cmd.h) and
 * a compute() that runs the measure over the grid on the worker threads
 * and writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "threads.h"
#include "train_measures.h"

#define CHUNK 256 /* distances per worker and round */

static const rl_grid_kind grid_kind = {&rl_grid_fig2_profile, "distances", 21};

struct sch {
  rl_scheme *s;
  rl_profile_ws *w; /* the core's profile measure (queries prepared once) */
};

struct ctx {
  struct sch *sch;
  size_t ns;
  double q;
  const rl_grid *g;
};

struct job {
  const struct ctx *c;
  size_t j0, j1;
  double *vals; /* (j1 - j0) x 3 ns */
  double *pk;   /* scratch of the largest profile */
  rl_status st;
  size_t bad_scheme;
  double bad_pos;
  int nonfinite;
};

static void *work(void *arg)
{
  struct job *jb = arg;
  const struct ctx *c = jb->c;
  for (size_t j = jb->j0; j < jb->j1; j++) {
    double r = rl_grid_at(c->g, j);
    double *row = jb->vals + (j - jb->j0) * 3 * c->ns;
    for (size_t k = 0; k < c->ns; k++) {
      rl_profile_point pt;
      rl_measure_err e;
      rl_status st = rl_profile_eval(c->sch[k].w, r, jb->pk, &pt, &e);
      if (st) {
        jb->st = e.nonfinite ? RL_OK : st, jb->nonfinite = e.nonfinite;
        jb->bad_scheme = k, jb->bad_pos = e.j;
        return NULL;
      }
      row[3 * k] = pt.same;
      row[3 * k + 1] = pt.mean;
      row[3 * k + 2] = pt.se;
    }
  }
  return NULL;
}

/* the schemes built, the positions they are asked at probed, their
 * profile measures prepared on the contents */
static int prepare(rl_cmd_run *r, struct sch *sch, double **xs, size_t *maxp)
{
  const rl_profile_settings *s = r->settings;
  const rl_grid *g = &r->g;
  double q = s->query_pos;
  int rc;
  for (size_t k = 0; k < r->scheme.nnames; k++) {
    if ((rc = rl_scheme_opts_alloc(&r->scheme, r->name, r->scheme.names[k], &sch[k].s)))
      return rc;
    /* positions used: q, and q - r at both ends and one step in (which
     * catches non-integer steps of table schemes), before any output */
    double last = rl_grid_at(g, g->points - 1);
    if ((rc = rl_scheme_probe(sch[k].s, r->name, q, "--query-pos")) ||
        (rc = rl_scheme_probe(sch[k].s, r->name, q - r->grid.s.from, "--from")) ||
        (rc = rl_scheme_probe(sch[k].s, r->name, q - last, "--to")) ||
        (g->points > 1 &&
         (rc = rl_scheme_probe(sch[k].s, r->name, q - rl_grid_at(g, 1), "--step"))))
      return rc;
  }
  size_t N = s->samples, d = r->scheme.cfg.dim;
  if (rl_profile_contents(s, d, (unsigned long)r->scheme.cfg.seed, xs))
    return rl_runtime(r->name, "%s (--samples %zu)", rl_strerror(RL_ENOMEM), N);
  for (size_t k = 0; k < r->scheme.nnames; k++) {
    rl_status st = rl_profile_alloc(sch[k].s, r->scheme.cfg.head, q, N, *xs, *xs + N * d,
                                    &sch[k].w);
    if (st)
      return rl_scheme_fail(sch[k].s, r->name, st, q, "--query-pos");
    size_t sl = rl_profile_scratch_len(sch[k].w);
    if (sl > *maxp)
      *maxp = sl;
  }
  return 0;
}

static void meta(rl_cmd_run *r, const struct sch *sch, rl_out *out)
{
  const rl_profile_settings *s = r->settings;
  size_t ns = r->scheme.nnames;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&r->scheme, out);
  rl_grid_opts_meta(&r->grid, out);
  rl_out_meta_uint(out, "rows", r->g.points);
  rl_out_meta_num(out, "query_pos", s->query_pos);
  rl_out_meta(out, "anchor", "query at position query_pos, key at query_pos - r; relative "
                             "schemes do not depend on query_pos, absolute ones do");
  rl_out_meta(out, "positional", "total - cc: the logit minus the content-only logit");
  rl_out_meta_uint(out, "samples", s->samples);
  rl_out_meta(out, "content", "x_s, y_s ~ N(0, I) from seed; _same: x_s at both positions; "
                              "_mean, _se: query x_s, key y_s");
  for (size_t k = 0; k < ns; k++) {
    char key[64];
    snprintf(key, sizeof key, "%s_relpos", r->scheme.names[k]);
    rl_out_meta(out, key, rl_scheme_get_info(sch[k].s)->relpos);
  }
  /* the parameters a paper trains are random draws here: say so (the
   * figure's title repeats it) */
  rl_scheme *ss[RL_SCHEMES_MAX];
  char note[2048];
  for (size_t k = 0; k < ns; k++)
    ss[k] = sch[k].s;
  if (rl_scheme_drawn_note(ss, ns, note, sizeof note))
    rl_out_meta(out, "trained_params", note);
  char hdr[1024] = "r";
  for (size_t k = 0; k < ns; k++) {
    size_t l = strlen(hdr);
    snprintf(hdr + l, sizeof hdr - l, ",%s_same,%s_mean,%s_se", r->scheme.names[k],
             r->scheme.names[k], r->scheme.names[k]);
  }
  rl_out_header(out, hdr);
}

/* the rows of job t, or the message of its failure */
static int rows(rl_cmd_run *r, const struct sch *sch, const struct job *jb, char *line,
                rl_out *out)
{
  size_t ns = r->scheme.nnames;
  if (jb->st || jb->nonfinite) {
    char where[96];
    snprintf(where, sizeof where, "value at key position %.17g", jb->bad_pos);
    return jb->st ? rl_scheme_fail(sch[jb->bad_scheme].s, r->name, jb->st, jb->bad_pos, "--to")
                  : rl_scheme_overflow(r->name, r->scheme.names[jb->bad_scheme],
                                       r->scheme.cfg.param_file, where);
  }
  for (size_t j = jb->j0; j < jb->j1; j++) {
    char *p = line;
    p += rl_numfmt(rl_grid_at(&r->g, j), p);
    const double *v = jb->vals + (j - jb->j0) * 3 * ns;
    for (size_t m = 0; m < 3 * ns; m++) {
      *p++ = ',';
      p += rl_numfmt(v[m], p);
    }
    *p++ = '\n';
    rl_out_write(out, line, (size_t)(p - line));
  }
  return 0;
}

/* --checkpoint: the trained model's own settings; the first other option
 * given, for its message, or NULL */
static const char *not_with_checkpoint(const rl_cmd_run *r)
{
  static const char *const own[] = {"query-pos", "plot-normalize"};
  const char *o = rl_cmd_model_option_given(r, own, sizeof own / sizeof *own);
  if (o)
    return o;
  if (r->threads_given)
    return "threads";
  if (r->co.plot)
    return "plot";
  return NULL;
}

static int check(rl_cmd_run *r)
{
  rl_profile_settings *s = r->settings;
  const char *other = s->checkpoint ? not_with_checkpoint(r) : NULL;
  if (other)
    return rl_usage(r->name, "invalid --%s with --checkpoint: the trained model's own settings "
                    "are used (--samples and the output options only)", other);
  s->set = rl_decl_given_bits(&r->own[0]);
  if ((s->set & RL_PROFILE_SET_MEASURE) && !s->checkpoint)
    return rl_usage(r->name, "invalid --measure '%s': expected with --checkpoint (without it, "
                    "profile draws random contents)", rl_profile_measure_names()[s->measure]);
  if (s->plot_normalize && !r->co.plot)
    return rl_usage(r->name, "invalid --plot-normalize '%s': expected with --plot (the CSV is "
                    "never scaled)", s->plot_normalize == RL_PROFILE_NORM_MAX ? "max" : "none");
  rl_profile_plan(s, r->grid.s.to);
  return 0;
}

/* each worker's rows (CHUNK distances x 3 columns a scheme) and scratch */
static int alloc_jobs(const char *name, struct job *jobs, size_t threads, size_t ns, size_t maxp)
{
  for (size_t t = 0; t < threads; t++) {
    jobs[t].vals = malloc(CHUNK * 3 * ns * sizeof *jobs[t].vals);
    jobs[t].pk = malloc(maxp * sizeof *jobs[t].pk);
    if (!jobs[t].vals || !jobs[t].pk)
      return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
  }
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_profile_settings *s = r->settings;
  if (s->checkpoint)
    return rl_profile_checkpoint(r->name, s, &r->co);
  size_t ns = r->scheme.nnames, threads = (size_t)r->threads, maxp = 0;
  struct sch sch[RL_SCHEMES_MAX];
  struct job jobs[RL_THREADS_MAX];
  memset(sch, 0, sizeof sch), memset(jobs, 0, sizeof jobs);
  double *xs = NULL;
  char *line = NULL;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = prepare(r, sch, &xs, &maxp);
  if (!rc)
    rc = alloc_jobs(r->name, jobs, threads, ns, maxp);
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  static const char *const norms[] = {NULL, "none", "max"};
  sink.plot.args[0] = "both"; /* profile.gp's panels, then its normalisation */
  sink.plot.args[1] = norms[s->plot_normalize];
  meta(r, sch, out);
  struct ctx cx = {sch, ns, s->query_pos, &r->g};
  size_t points = r->g.points, d = r->scheme.cfg.dim;
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, points,
                   (double)points * (double)s->samples * (double)ns * (double)d * (double)d > 1e9);
  if (!(line = malloc((3 * ns + 1) * (RL_NUMFMT_MAX + 1) + 2))) {
    rc = rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  for (size_t j0 = 0; j0 < points && !out->err && !rc;) {
    size_t used = 0;
    for (size_t t = 0; t < threads && j0 < points; t++, used++) {
      jobs[t].c = &cx;
      jobs[t].j0 = j0;
      jobs[t].j1 = j0 + CHUNK < points ? j0 + CHUNK : points;
      j0 = jobs[t].j1;
    }
    rl_threads_run(work, jobs, sizeof *jobs, used);
    for (size_t t = 0; t < used && !out->err && !rc; t++)
      rc = rows(r, sch, &jobs[t], line, out);
    rl_progress_update(&prog, j0);
  }
  if (!rc)
    rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  free(line);
  for (size_t t = 0; t < RL_THREADS_MAX; t++)
    free(jobs[t].vals), free(jobs[t].pk);
  for (size_t k = 0; k < RL_SCHEMES_MAX; k++) {
    rl_profile_free(sch[k].w);
    rl_scheme_free(sch[k].s);
  }
  free(xs);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "--scheme S[,S...] [OPTIONS]",
    .about =
        "The positional contribution to the logit, positional = total - cc (the logit\n"
        "minus what the same content gives with position ignored), against relative\n"
        "distance r: the query at position q = --query-pos, the key at q - r.  Per\n"
        "scheme three columns: <S>_same (mean over samples, the same content x_s at\n"
        "both positions), <S>_mean and <S>_se (mean and standard error over samples,\n"
        "independent contents x_s, y_s ~ N(0, I)).  Absolute schemes depend on q.\n",
    .takes = RL_TAKES_SCHEME | RL_TAKES_GRID | RL_TAKES_THREADS | RL_TAKES_TABLE,
    .grid = &grid_kind,
    .settings_size = sizeof(rl_profile_settings),
    .groups = {{"profile:", rl_profile_param_list, 0}},
    .schemes_max = RL_SCHEMES_MAX,
    .schemes_default = "rope",
    .plot = "profile.gp",
    /* a sweep's figure: each scheme's same-content curve */
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "scheme",
    .plot_x = "r", .plot_y = "*_same",
    .plot_units = "r=tokens;*_same=logit, q·k/√d",
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_profile = {
    "profile", NULL, "positional part of the logit vs distance, schemes side by side", NULL,
    &decl};
