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
 * The measure is the core's (rl_profile_*, src/core/measures/profile.c);
 * this file parses, runs it over the grid on the worker threads, writes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "cmd.h"
#include "grid_opts.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "scheme_opts.h"
#include "sink.h"
#include "threads.h"

enum { OPT_QUERY_POS = RL_OPT_FIRST_CMD, OPT_SAMPLES, OPT_THREADS, OPT_PLOT_NORMALIZE };

#define CHUNK 256 /* distances per worker and round */

static const rl_grid_kind grid_kind = {&rl_grid_fig2_profile, "distances", 21};

static void help(FILE *fp)
{
  fputs("usage: ropelab profile --scheme S[,S...] [OPTIONS]\n"
        "\n"
        "The positional contribution to the logit, positional = total - cc (the logit\n"
        "minus what the same content gives with position ignored), against relative\n"
        "distance r: the query at position q = --query-pos, the key at q - r.  Per\n"
        "scheme three columns: <S>_same (mean over samples, the same content x_s at\n"
        "both positions), <S>_mean and <S>_se (mean and standard error over samples,\n"
        "independent contents x_s, y_s ~ N(0, I)).  Absolute schemes depend on q.\n"
        "\n"
        "      --scheme LIST  comma-separated schemes, or 'all' (default rope)\n",
        fp);
  rl_grid_opts_help(fp, &grid_kind);
  fputs("      --query-pos Q  query position (default max(--to, 0), so that keys q - r\n"
        "                     are >= 0 for r >= 0)\n"
        "      --samples N    content samples, >= 2 (default 100)\n"
        "      --threads T    worker threads (default: online processors, at most 64)\n"
        "      --plot-normalize none|max  the --plot figure (up to four schemes: two\n"
        "                     shared panels, same content and independent content\n"
        "                     +-2 se; more: one panel per scheme with both): none\n"
        "                     draws the logits as computed, max divides each scheme by\n"
        "                     its largest |value| (the divisor in the key); the CSV is\n"
        "                     never scaled (default: max for two to four schemes,\n"
        "                     none otherwise)\n"
        "\n",
        fp);
  rl_scheme_opts_help(fp);
  rl_common_help(fp);
}

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

static int run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"query-pos", required_argument, NULL, OPT_QUERY_POS},
      {"samples", required_argument, NULL, OPT_SAMPLES},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"plot-normalize", required_argument, NULL, OPT_PLOT_NORMALIZE},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  static struct option own_opts[96];
  rl_grid_opts go;
  rl_grid_opts_init(&go, &grid_kind);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  rl_grid_longopts(&go, own_opts, nopt, 96);
  const struct option *opts = rl_scheme_longopts(own_opts);
  const char *cmd = "profile";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  double q = 0;
  unsigned long long samples = 100, threads = 0;
  int q_set = 0, c, r;
  const char *plot_norm = NULL; /* --plot-normalize; NULL: profile.gp decides */
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_QUERY_POS:
      q_set = 1;
      if ((r = rl_opt_double(cmd, "--query-pos", optarg, &q)))
        return r;
      break;
    case OPT_SAMPLES:
      if ((r = rl_opt_uint(cmd, "--samples", optarg, 2, 100000000, &samples)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads)))
        return r;
      break;
    case OPT_PLOT_NORMALIZE: {
      static const char *const norms[] = {"none", "max"};
      int k;
      if ((r = rl_opt_enum(cmd, "--plot-normalize", optarg, norms, 2, &k)))
        return r;
      plot_norm = norms[k];
      break;
    }
    default:
      if (rl_opt_failed(r = rl_grid_opt(&go, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (!r && (r = rl_scheme_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_scheme_opts_end(&so, &co, cmd, argc, argv, help, RL_SCHEMES_MAX, "rope")))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (plot_norm && !co.plot)
    return rl_usage(cmd, "invalid --plot-normalize '%s': expected with --plot (the CSV is never scaled)", plot_norm);
  rl_grid g;
  rl_status st;
  if ((r = rl_grid_opts_finish(&go, cmd, &g)))
    return r;
  if (!q_set)
    q = go.s.to > 0 ? go.s.to : 0;
  if (!threads)
    threads = (unsigned long long)rl_online_cpus(RL_THREADS_MAX);
  size_t ns = so.nnames, d = so.cfg.dim, N = (size_t)samples;

  struct sch sch[RL_SCHEMES_MAX];
  memset(sch, 0, sizeof sch);
  struct job jobs[RL_THREADS_MAX];
  memset(jobs, 0, sizeof jobs);
  double *xs = NULL;
  gsl_rng *rng = NULL;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  size_t maxp = 0;
  for (size_t k = 0; k < ns; k++) {
    if ((rc = rl_scheme_opts_alloc(&so, cmd, so.names[k], &sch[k].s)))
      goto done;
    /* positions used: q, and q - r at both ends and one step in (which
     * catches non-integer steps of table schemes), before any output */
    double last = rl_grid_at(&g, g.points - 1);
    if ((rc = rl_scheme_probe(sch[k].s, cmd, q, "--query-pos")) ||
        (rc = rl_scheme_probe(sch[k].s, cmd, q - go.s.from, "--from")) ||
        (rc = rl_scheme_probe(sch[k].s, cmd, q - last, "--to")) ||
        (g.points > 1 && (rc = rl_scheme_probe(sch[k].s, cmd, q - rl_grid_at(&g, 1), "--step"))))
      goto done;
  }
  /* contents: x_0, y_0, x_1, y_1, ... from --seed */
  xs = malloc(2 * N * d * sizeof *xs);
  rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!xs || !rng) {
    rc = rl_runtime(cmd, "%s (--samples %llu)", rl_strerror(RL_ENOMEM), samples);
    goto done;
  }
  gsl_rng_set(rng, so.cfg.seed);
  for (size_t n = 0; n < 2 * N * d; n++)
    xs[n] = gsl_ran_gaussian(rng, 1.0);
  /* stored as x block then y block */
  double *ys = malloc(N * d * sizeof *ys), *xb = malloc(N * d * sizeof *xb);
  if (!ys || !xb) {
    free(ys), free(xb);
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  for (size_t n = 0; n < N; n++) {
    memcpy(xb + n * d, xs + 2 * n * d, d * sizeof *xb);
    memcpy(ys + n * d, xs + (2 * n + 1) * d, d * sizeof *ys);
  }
  memcpy(xs, xb, N * d * sizeof *xs);
  memcpy(xs + N * d, ys, N * d * sizeof *xs);
  free(xb), free(ys);
  for (size_t k = 0; k < ns; k++) {
    if ((st = rl_profile_alloc(sch[k].s, so.cfg.head, q, N, xs, xs + N * d, &sch[k].w))) {
      rc = rl_scheme_fail(sch[k].s, cmd, st, q, "--query-pos");
      goto done;
    }
    size_t sl = rl_profile_scratch_len(sch[k].w);
    if (sl > maxp)
      maxp = sl;
  }
  for (size_t t = 0; t < threads; t++) {
    jobs[t].vals = malloc(CHUNK * 3 * ns * sizeof *jobs[t].vals);
    jobs[t].pk = malloc(maxp * sizeof *jobs[t].pk);
    if (!jobs[t].vals || !jobs[t].pk) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
  }

  if ((rc = rl_sink_open(&sink, cmd, &co, "profile.gp")))
    goto done;
  sink.plot.args[0] = "both"; /* profile.gp's panels, then its normalisation */
  sink.plot.args[1] = plot_norm;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&so, out);
  rl_grid_opts_meta(&go, out);
  rl_out_meta_uint(out, "rows", g.points);
  rl_out_meta_num(out, "query_pos", q);
  rl_out_meta(out, "anchor", "query at position query_pos, key at query_pos - r; relative "
                             "schemes do not depend on query_pos, absolute ones do");
  rl_out_meta(out, "positional", "total - cc: the logit minus the content-only logit");
  rl_out_meta_uint(out, "samples", samples);
  rl_out_meta(out, "content", "x_s, y_s ~ N(0, I) from seed; _same: x_s at both positions; "
                              "_mean, _se: query x_s, key y_s");
  for (size_t k = 0; k < ns; k++) {
    char key[64];
    snprintf(key, sizeof key, "%s_relpos", so.names[k]);
    rl_out_meta(out, key, rl_scheme_get_info(sch[k].s)->relpos);
  }
  {
    /* the parameters a paper trains are random draws here: say so (the
     * figure's title repeats it) */
    rl_scheme *ss[RL_SCHEMES_MAX];
    char note[2048];
    for (size_t k = 0; k < ns; k++)
      ss[k] = sch[k].s;
    if (rl_scheme_drawn_note(ss, ns, note, sizeof note))
      rl_out_meta(out, "trained_params", note);
  }
  char hdr[1024] = "r";
  for (size_t k = 0; k < ns; k++) {
    size_t l = strlen(hdr);
    snprintf(hdr + l, sizeof hdr - l, ",%s_same,%s_mean,%s_se", so.names[k], so.names[k],
             so.names[k]);
  }
  rl_out_header(out, hdr);

  struct ctx cx = {sch, ns, q, &g};
  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, g.points,
                   (double)g.points * (double)N * (double)ns * (double)d * (double)d > 1e9);
  char *line = malloc((3 * ns + 1) * (RL_NUMFMT_MAX + 1) + 2);
  if (!line) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  for (size_t j0 = 0; j0 < g.points && !out->err;) {
    size_t used = 0;
    for (size_t t = 0; t < threads && j0 < g.points; t++, used++) {
      jobs[t].c = &cx;
      jobs[t].j0 = j0;
      jobs[t].j1 = j0 + CHUNK < g.points ? j0 + CHUNK : g.points;
      j0 = jobs[t].j1;
    }
    rl_threads_run(work, jobs, sizeof *jobs, used);
    for (size_t t = 0; t < used && !out->err; t++) {
      if (jobs[t].st || jobs[t].nonfinite) {
        free(line);
        char where[96];
        snprintf(where, sizeof where, "value at key position %.17g", jobs[t].bad_pos);
        rc = jobs[t].st ? rl_scheme_fail(sch[jobs[t].bad_scheme].s, cmd, jobs[t].st,
                                         jobs[t].bad_pos, "--to")
                        : rl_scheme_overflow(cmd, so.names[jobs[t].bad_scheme],
                                             so.cfg.param_file, where);
        goto done;
      }
      for (size_t j = jobs[t].j0; j < jobs[t].j1; j++) {
        char *p = line;
        p += rl_numfmt(rl_grid_at(&g, j), p);
        const double *v = jobs[t].vals + (j - jobs[t].j0) * 3 * ns;
        for (size_t m = 0; m < 3 * ns; m++) {
          *p++ = ',';
          p += rl_numfmt(v[m], p);
        }
        *p++ = '\n';
        rl_out_write(out, line, (size_t)(p - line));
      }
    }
    rl_progress_update(&prog, j0);
  }
  free(line);
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < RL_THREADS_MAX; t++) {
    free(jobs[t].vals);
    free(jobs[t].pk);
  }
  for (size_t k = 0; k < RL_SCHEMES_MAX; k++) {
    rl_profile_free(sch[k].w);
    rl_scheme_free(sch[k].s);
  }
  gsl_rng_free(rng);
  free(xs);
  return rc;
}

const struct rl_cmd rl_cmd_profile = {
    "profile", run, "positional part of the logit vs distance, schemes side by side", help, NULL};
