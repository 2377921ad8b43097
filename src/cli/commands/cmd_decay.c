/* cmd_decay.c: `ropelab decay`, RoPE's long-term decay over relative
 * distance (RoFormer section 3.4.3, Fig. 2); defaults reproduce Fig. 2. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "rowpipe.h"
#include "threads.h"

enum { M_BOUND = 1, M_SIM = 2, M_MC = 4 };

/* Rows per chunk, a multiple of RL_DECAY_RESEED (a chunk starts on a
 * re-seed row: no streaming to catch up); memory is O(CHUNK x threads),
 * not O(rows).  With mc a row costs samples x d: smaller chunks keep the
 * progress moving (the bits do not depend on where chunks start). */
#define CHUNK 16384
#define MC_CHUNK 64
#define NCOLS 9           /* r, bound, similarity, the 6 of mc */
#define PROGRESS_ROWS 100000

static int all_finite(const double *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return 0;
  return 1;
}

/* every value of the columns in mask finite: no exponent field all ones,
 * i.e. (u & E) + 2^52 never reaches bit 63 (adds and ors: vectorised
 * with SSE2, where a 64-bit compare is not) */
static int finite_cols(const double *rv, const double *bv, const double *sv, int mask, size_t n)
{
  const uint64_t E = UINT64_C(0x7ff) << 52, ONE = UINT64_C(1) << 52;
  uint64_t bad = 0;
  const double *cols[3] = {rv, (mask & M_BOUND) ? bv : NULL, (mask & M_SIM) ? sv : NULL};
  for (int c = 0; c < 3; c++) {
    if (!cols[c])
      continue;
    const double *v = cols[c];
    for (size_t k = 0; k < n; k++) {
      uint64_t u;
      memcpy(&u, &v[k], sizeof u);
      bad |= (u & E) + ONE;
    }
  }
  return !(bad >> 63);
}

/* What the workers share, and what each owns: a decay workspace (the
 * fast path streams a lane's phases, so each worker has its own) and,
 * with mc, a Monte Carlo one (the same seed, so the same samples). */
typedef struct decay_ctx {
  const rl_schedule *f;
  const rl_grid *g;
  size_t nt, threads; /* workers; --threads */
  const rl_mc_settings *mc_set;
  const rl_grid_opts *go;
  const int *order;
  size_t norder, m, rows, points;
  int mask;
  rl_decay_ws *dw[RL_THREADS_MAX];
  rl_mc_ws *mw[RL_THREADS_MAX];
  double *buf[RL_THREADS_MAX]; /* 3 x rows: r, bound, similarity */
  rl_mc_result *mc[RL_THREADS_MAX]; /* rows: with mc */
  rl_logbins *bins; /* --bins: the rows go here, their means out */
} decay_ctx;

/* Worker t's workspaces: worker 0's before any output (they validate
 * the parameters), the others' on the worker's own thread, in parallel. */
static rl_status worker_alloc(decay_ctx *x, size_t t)
{
  rl_status st = RL_OK;
  if (!x->dw[t] && !(st = rl_decay_alloc(x->f, x->g, &x->dw[t])))
    /* with several workers, the rows of a chunk stay on one thread (the
     * workers are the parallelism); a single worker splits its rows in
     * two only when --threads allows more than one */
    rl_decay_threads(x->dw[t], x->nt > 1 ? 1 : (int)(x->threads < 2 ? 1 : 2));
  if (!st && (x->mask & M_MC) && !x->mw[t])
    st = rl_mc_alloc(x->f, x->mc_set->samples, x->mc_set->sigma, (unsigned long)x->mc_set->seed,
                     &x->mw[t]);
  if (!st && (x->mask & M_MC) && !x->mc[t] && !(x->mc[t] = malloc(x->rows * sizeof *x->mc[t])))
    st = RL_ENOMEM;
  if (!st && !x->buf[t] && !(x->buf[t] = malloc(3 * x->rows * sizeof(double))))
    st = RL_ENOMEM;
  return st;
}

/* Chunk c (rows c*rows ...) on worker w: the values of each row in
 * column order (rowpipe.h). */
static int fill(void *arg, unsigned w, size_t c, double *vals, size_t *good, char *msg)
{
  decay_ctx *x = arg;
  size_t j0 = c * x->rows, n = x->points - j0 < x->rows ? x->points - j0 : x->rows;
  rl_status st;
  if (!x->buf[w] && (st = worker_alloc(x, w))) {
    snprintf(msg, RL_ROWPIPE_MSG, "%s", rl_strerror(st));
    *good = 0;
    return RL_EXIT_RUNTIME;
  }
  double *rv = x->buf[w], *bv = rv + x->rows, *sv = bv + x->rows;
  st = rl_decay_eval(x->dw[w], j0, n, rv, (x->mask & M_BOUND) ? bv : NULL,
                               (x->mask & M_SIM) ? sv : NULL);
  if (st == RL_ERANGE) {
    rl_grid_range_msg(x->go, msg, RL_ROWPIPE_MSG);
    return RL_EXIT_USAGE;
  }
  if (st) {
    snprintf(msg, RL_ROWPIPE_MSG, "cannot evaluate the decay: %s", rl_strerror(st));
    return RL_EXIT_RUNTIME;
  }
  /* the chunk's Monte Carlo rows at once: each sample drawn once for
   * all of them, the results bitwise those of one row at a time */
  int rc = 0;
  if ((x->mask & M_MC) && rl_mc_eval_many(x->mw[w], n, rv, x->mc[w])) {
    /* which row fails, one at a time: the rows before it are written */
    for (size_t k = 0; k < n; k++)
      if ((st = rl_mc_eval(x->mw[w], rv[k], &x->mc[w][k]))) {
        snprintf(msg, RL_ROWPIPE_MSG,
                 "cannot evaluate the Monte Carlo estimate at r = %g: %s", rv[k],
                 rl_strerror(st));
        rc = RL_EXIT_RUNTIME;
        n = k;
        break;
      }
    if (!st) {
      snprintf(msg, RL_ROWPIPE_MSG, "cannot evaluate the Monte Carlo estimate from r = %g",
               rv[0]);
      *good = 0;
      return RL_EXIT_RUNTIME;
    }
  }
  /* without mc: the columns interleaved in one pass per column, the
   * finite check an or of exponent fields (vectorised); a non-finite
   * value goes to the row loop below, which finds its row */
  if (!(x->mask & M_MC) && finite_cols(rv, bv, sv, x->mask, n)) {
    size_t m = x->m;
    if (m == 2) { /* r and one measure: a constant stride, vectorised */
      const double *src = x->order[0] == 0 ? bv : sv;
      for (size_t k = 0; k < n; k++) {
        vals[2 * k] = rv[k];
        vals[2 * k + 1] = src[k];
      }
      *good = n;
      return 0;
    }
    for (size_t k = 0; k < n; k++)
      vals[k * m] = rv[k];
    for (size_t q = 0; q < x->norder; q++) {
      const double *src = x->order[q] == 0 ? bv : sv;
      for (size_t k = 0; k < n; k++)
        vals[k * m + 1 + q] = src[k];
    }
    *good = n;
    return 0;
  }
  for (size_t k = 0; k < n; k++) {
    double *row = vals + k * x->m;
    size_t col = 0;
    row[col++] = rv[k];
    for (size_t q = 0; q < x->norder; q++) {
      if (x->order[q] == 0) {
        row[col++] = bv[k];
      } else if (x->order[q] == 1) {
        row[col++] = sv[k];
      } else {
        const rl_mc_result *res = &x->mc[w][k];
        row[col++] = res->ind_mean;
        row[col++] = res->ind_se;
        row[col++] = res->self_mean;
        row[col++] = res->self_se;
        row[col++] = res->self_expect;
        row[col++] = res->abel_max;
      }
    }
    /* never print nan: a non-finite value is a bug, reported as such */
    if (!all_finite(row, x->m)) {
      snprintf(msg, RL_ROWPIPE_MSG, "internal error: non-finite value at r = %g", rv[k]);
      *good = k;
      return RL_EXIT_RUNTIME;
    }
  }
  *good = n;
  return rc;
}

/* --bins: a chunk's rows into the bins, in order; a finished bin's row
 * written (rowpipe.h's take) */
static int take_bins(void *arg, rl_out *out, const double *vals, size_t rows)
{
  decay_ctx *x = arg;
  double row[2 * NCOLS + 1];
  int closed;
  for (size_t k = 0; k < rows; k++) {
    if (rl_logbins_add(x->bins, vals + k * x->m, row, &closed))
      return rl_runtime("decay", "internal error: r = %g out of order for --bins",
                        vals[k * x->m]);
    if (closed)
      rl_out_row(out, row, rl_logbins_width(x->bins));
  }
  return 0;
}

/* across the settings, once the grid is known */
static int check(rl_cmd_run *r)
{
  const rl_decay_settings *s = r->settings;
  if (rl_decl_any_given(&r->own[2]) && !rl_decay_runs(s, RL_DECAY_MC)) {
    char names[160];
    rl_decl_names(rl_mc_param_list(), names, sizeof names);
    return rl_usage(r->name, "%s need --measure with 'mc'", names);
  }
  if (s->bins.stat != RL_LOGBINS_MEAN && !s->bins.bins)
    return rl_usage(r->name, "--bin-stat needs --bins K");
  /* the bins are of log2 r: every r must be > 0 */
  if (s->bins.bins && !(rl_grid_at(&r->g, 0) > 0))
    return rl_usage(r->name, "invalid --from '%s' with --bins: expected distances > 0 "
                    "(--from > 0, or --log)", r->grid.from_arg);
  /* the cost model's refusal, up front (issue 33 item 5) */
  char cerr[RL_ERR_MAX];
  size_t pairs = (r->sched.p.rot ? r->sched.p.rot : r->sched.p.dim) / 2;
  if (rl_cost_check_decay(r->g.points, r->g.log ? "--points" : "distances", pairs,
                          rl_decay_runs(s, RL_DECAY_BOUND) || rl_decay_runs(s, RL_DECAY_SIMILARITY),
                          rl_decay_runs(s, RL_DECAY_MC) ? s->mc.samples : 0, cerr))
    return rl_usage(r->name, "%s", cerr);
  return 0;
}

/* the table's columns: r (with --bins r,n or r_first,r_last,n), then each
 * measure's, each X as X_min,X_max with --bin-stat range */
static void columns(const rl_decay_settings *s, char *cols, size_t size)
{
  int range = s->bins.bins && s->bins.stat == RL_LOGBINS_RANGE;
  snprintf(cols, size, "%s", range ? "r_first,r_last,n" : s->bins.bins ? "r,n" : "r");
  for (size_t k = 0; k < s->norder; k++) {
    for (const char *p = rl_decay_measure_columns(s->order[k]); *p;) {
      size_t len = strcspn(p, ","), at = strlen(cols);
      if (range)
        snprintf(cols + at, size - at, ",%.*s_min,%.*s_max", (int)len, p, (int)len, p);
      else
        snprintf(cols + at, size - at, ",%.*s", (int)len, p);
      p += len + (p[len] == ',');
    }
  }
}

/* metadata (every effective parameter, defaults included) and header */
static void meta(const rl_cmd_run *r, const rl_schedule *f, rl_out *out)
{
  const rl_decay_settings *s = r->settings;
  rl_out_meta_begin(out);
  rl_sched_meta(&r->sched.p, f, out);
  rl_grid_opts_meta(&r->grid, out);
  if (s->bins.bins) {
    rl_decl_meta(&r->own[0], out);
    rl_out_meta(out, "binning",
                s->bins.stat == RL_LOGBINS_RANGE
                    ? "each column's smallest and largest value over the r in [2^(b/K), "
                      "2^((b+1)/K)), the last bin closed; r_first and r_last the bin's first and "
                      "last r, n its count"
                    : "each column's mean over the r in [2^(b/K), 2^((b+1)/K)), "
                      "the last bin closed; r the bin's geometric centre 2^((b+1/2)/K), n its count");
    rl_out_meta_uint(out, "distances", r->g.points);
    rl_out_meta_uint(out, "rows", rl_logbins_count(&r->g, s->bins.bins));
  } else {
    rl_out_meta_uint(out, "rows", r->g.points);
  }
  rl_decl_meta(&r->own[1], out);
  if (rl_decay_runs(s, RL_DECAY_MC))
    rl_decl_meta(&r->own[2], out);
  char cols[512];
  columns(s, cols, sizeof cols);
  rl_out_header(out, cols);
}

/* worker 0's workspaces, before any output: they validate the parameters */
static int prepare(rl_cmd_run *r, decay_ctx *x)
{
  rl_status st = worker_alloc(x, 0);
  if (st == RL_ERANGE)
    return rl_grid_out_of_range(&r->grid, r->name);
  if (st)
    return st == RL_ENOMEM ? rl_runtime(r->name, "%s", rl_strerror(st))
                           : rl_usage(r->name, "invalid parameters: %s", rl_strerror(st));
  return 0;
}

/* the rows, a chunk at a time (through the bins with --bins) */
static int rows(rl_cmd_run *r, decay_ctx *x, size_t chunks, rl_sink *sink)
{
  const rl_decay_settings *s = r->settings;
  rl_logbins lb = {0};
  rl_status st;
  if (s->bins.bins && (st = rl_logbins_init_stat(&lb, s->bins.bins, rl_grid_at(&r->g, 0),
                                                 rl_grid_at(&r->g, r->g.points - 1), x->m,
                                                 s->bins.stat)))
    return rl_runtime(r->name, "%s", rl_strerror(st));
  x->bins = s->bins.bins ? &lb : NULL;
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, r->g.points,
                   r->g.points > PROGRESS_ROWS || (x->mask & M_MC));
  /* at once: one row of a Monte Carlo with many samples can take seconds
   * (--samples 1e7 at d = 128: about 8 s of CPU before the first update) */
  rl_progress_update(&prog, 0);
  rl_rowpipe pipe = {.cmd = r->name, .chunks = chunks, .rows = x->rows, .cols = x->m,
                     .workers = (unsigned)x->nt, .fill = fill, .ctx = x, .prog = &prog,
                     .take = x->bins ? take_bins : NULL};
  int rc = rl_rowpipe_run(&sink->out, &pipe);
  double last[2 * NCOLS + 1];
  if (!rc && x->bins && rl_logbins_finish(&lb, last))
    rl_out_row(&sink->out, last, rl_logbins_width(&lb));
  if (!rc)
    rc = rl_sink_close(sink, &prog);
  rl_logbins_free(&lb);
  return rc;
}

static int compute(rl_cmd_run *r)
{
  const rl_decay_settings *s = r->settings;
  int mask = (rl_decay_runs(s, RL_DECAY_BOUND) ? M_BOUND : 0) |
             (rl_decay_runs(s, RL_DECAY_SIMILARITY) ? M_SIM : 0) |
             (rl_decay_runs(s, RL_DECAY_MC) ? M_MC : 0);
  /* one workspace per worker (chunks of rows on a linear grid start on
   * re-seed rows, so a worker's first block costs no more than streaming
   * would) */
  decay_ctx x = {.g = &r->g, .mc_set = &s->mc, .go = &r->grid, .order = s->order,
                 .norder = s->norder, .mask = mask, .points = r->g.points,
                 .rows = (mask & M_MC) ? MC_CHUNK : CHUNK, .m = rl_decay_row_width(s)};
  if (mask & M_MC) {
    /* mc: a chunk of about half a second, so progress moves */
    size_t pairs = (r->sched.p.rot ? r->sched.p.rot : r->sched.p.dim) / 2;
    x.rows = rl_cost_chunk_rows(rl_cost_decay(1, pairs, 1, s->mc.samples), 0.5, MC_CHUNK);
  }
  size_t chunks = (r->g.points - 1) / x.rows + 1;
  x.nt = (size_t)r->threads < chunks ? (size_t)r->threads : chunks;
  x.threads = (size_t)r->threads;
  rl_schedule *f = NULL;
  rl_sink sink = {0};
  int rc = rl_sched_build(&r->sched.p, r->name, &f);
  x.f = f;
  if (!rc && !(rc = prepare(r, &x)) && !(rc = rl_cmd_sink_open(r, &sink))) {
    meta(r, f, &sink.out);
    rc = rows(r, &x, chunks, &sink);
  }
  rl_sink_abort(&sink);
  for (size_t t = 0; t < x.nt; t++) {
    free(x.buf[t]);
    free(x.mc[t]);
    rl_mc_free(x.mw[t]);
    rl_decay_free(x.dw[t]);
  }
  rl_schedule_free(f);
  return rc;
}

static const rl_grid_kind grid_kind = {&rl_grid_fig2, "distances", 21};

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
        "RoPE's long-term decay against relative distance r, one row per r. The\n"
        "defaults reproduce RoFormer Fig. 2 (d = 128, base 10000, r = 0..256).\n"
        "With a --method, every measure is of the logit that method computes: times\n"
        "its logit multiplier (the attention factor squared, 'logit_multiplier' in\n"
        "the metadata), at its mapped relative position (rerope), with its per-pair\n"
        "amplitudes (xpos) and query scale (log-n at --seq-len).\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_GRID | RL_TAKES_THREADS | RL_TAKES_TABLE,
    .grid = &grid_kind,
    .settings_size = sizeof(rl_decay_settings),
    .groups = {{NULL, rl_logbins_param_list, offsetof(rl_decay_settings, bins)},
               {"measures:", rl_decay_param_list, 0},
               {NULL, rl_mc_param_list, offsetof(rl_decay_settings, mc)}},
    .plot = "decay.gp",
    /* every measure it ran, a row of panels each */
    .sweep_numbers = "bins", .sweep_names = "", .sweep_lists = "measure",
    .sweep_own = rl_mc_param_list,
    .plot_x = "r", .plot_y = "bound similarity mc_self_mean mc_ind_mean abel_max",
    .plot_units = "r=tokens;bound=no unit;similarity=no unit;mc_self_mean=logit, no unit;"
                  "mc_ind_mean=logit, no unit;abel_max=ratio",
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_decay = {"decay", NULL,
                                    "long-term decay of RoPE against relative distance", NULL,
                                    &decl};
