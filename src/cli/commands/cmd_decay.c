/* cmd_decay.c: `ropelab decay`, RoPE's long-term decay over relative
 * distance (RoFormer section 3.4.3, Fig. 2); defaults reproduce Fig. 2. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "decl_opts.h"
#include "grid_opts.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "sched_opts.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "rowpipe.h"
#include "sink.h"
#include "threads.h"

enum {
  OPT_MEASURE = RL_OPT_FIRST_CMD,
  OPT_THREADS,
  OPT_MC, /* the Monte Carlo settings declared in the core, from here on */
  OPT_BINS = OPT_MC + RL_DECL_MAX /* --bins, declared with the bins (logbins.c) */
};

enum { M_BOUND = 1, M_SIM = 2, M_MC = 4 };

/* Rows per chunk, a multiple of RL_DECAY_RESEED (a chunk starts on a
 * re-seed row: no streaming to catch up); memory is O(CHUNK x threads),
 * not O(rows).  With mc a row costs samples x d: smaller chunks keep the
 * progress moving (the bits do not depend on where chunks start). */
#define CHUNK 16384
#define MC_CHUNK 64
#define NCOLS 9           /* r, bound, similarity, the 6 of mc */
#define PROGRESS_ROWS 100000

static const rl_grid_kind grid_kind = {&rl_grid_fig2, "distances", 21};

static void help(FILE *fp)
{
  fputs("usage: ropelab decay [OPTIONS]\n"
        "\n"
        "RoPE's long-term decay against relative distance r, one row per r. The\n"
        "defaults reproduce RoFormer Fig. 2 (d = 128, base 10000, r = 0..256).\n"
        "With a --method, every measure is of the logit that method computes: times\n"
        "its logit multiplier (the attention factor squared, 'logit_multiplier' in\n"
        "the metadata), at its mapped relative position (rerope), with its per-pair\n"
        "amplitudes (xpos) and query scale (log-n at --seq-len).\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputs("distances:\n", fp);
  rl_grid_opts_help(fp, &grid_kind);
  rl_decl_help(fp, rl_logbins_param_list());
  fputs("measures:\n"
        "      --measure LIST comma-separated, columns in this order (default bound):\n"
        "                       bound       RoFormer's relative upper bound\n"
        "                                   (1/n) sum_j |S_j|\n"
        "                       similarity  sum_i cos(r theta_i) (Men et al. 2024, eq. 9)\n"
        "                       mc          Monte Carlo over random q, k: mc_ind_mean,\n"
        "                                   mc_ind_se, mc_self_mean, mc_self_se,\n"
        "                                   mc_self_expect, abel_max\n",
        fp);
  rl_decl_help(fp, rl_mc_param_list());
  fputs("      --threads T    worker threads (default: online processors, at most 64);\n"
        "                     the output is the same bytes whatever T\n"
        "\n", fp);
  rl_common_help(fp);
}

/* --measure: the measures in the order given (their columns follow it) */
static int parse_measure(const char *cmd, const char *arg, int *order, size_t *n, int *mask)
{
  static const char *const names[] = {"bound", "similarity", "mc"};
  static const int bits[] = {M_BOUND, M_SIM, M_MC};
  int r = rl_opt_enum_list(cmd, "--measure", arg, names, 3, order, 3, n);
  *mask = 0;
  for (size_t k = 0; !r && k < *n; k++)
    *mask |= bits[order[k]];
  return r;
}

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

static int run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"measure", required_argument, NULL, OPT_MEASURE},
      {"threads", required_argument, NULL, OPT_THREADS},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  static struct option own_opts[64];
  rl_mc_settings mc;
  rl_decl_opts mo;
  rl_decl_opts_init(&mo, rl_mc_param_list(), &mc, OPT_MC);
  rl_logbins_settings bs;
  rl_decl_opts bo;
  rl_decl_opts_init(&bo, rl_logbins_param_list(), &bs, OPT_BINS);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  nopt = rl_decl_longopts(&mo, own_opts, nopt, 64);
  nopt = rl_decl_longopts(&bo, own_opts, nopt, 64);
  rl_grid_opts go;
  rl_grid_opts_init(&go, &grid_kind);
  rl_grid_longopts(&go, own_opts, nopt, 64);
  const struct option *opts = rl_sched_longopts(own_opts);
  const char *cmd = "decay";
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  unsigned long long threads = 0;
  int mask = M_BOUND;
  int order[3] = {0, 0, 0};
  size_t norder = 1;
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_MEASURE:
      if ((r = parse_measure(cmd, optarg, order, &norder, &mask)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads)))
        return r;
      break;
    default:
      if (rl_opt_failed(r = rl_grid_opt(&go, cmd, c, optarg)) ||
          (!r && rl_opt_failed(r = rl_decl_opt(&mo, cmd, c, optarg))) ||
          (!r && rl_opt_failed(r = rl_decl_opt(&bo, cmd, c, optarg))))
        return rl_opt_exit_code(r);
      if (!r && (r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_sched_opts_end(&so, &co, cmd, argc, argv, help)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (rl_decl_any_given(&mo) && !(mask & M_MC)) {
    char names[160];
    rl_decl_names(rl_mc_param_list(), names, sizeof names);
    return rl_usage(cmd, "%s need --measure with 'mc'", names);
  }

  rl_grid g;
  rl_status st;
  if ((r = rl_grid_opts_finish(&go, cmd, &g)))
    return r;
  if (bs.stat != RL_LOGBINS_MEAN && !bs.bins)
    return rl_usage(cmd, "--bin-stat needs --bins K");
  /* the bins are of log2 r: every r must be > 0 */
  if (bs.bins && !(rl_grid_at(&g, 0) > 0))
    return rl_usage(cmd, "invalid --from '%s' with --bins: expected distances > 0 "
                    "(--from > 0, or --log)", go.from_arg);
  rl_logbins lb = {0};

  /* the workspaces, before any output: one per worker (chunks of rows
   * on a linear grid start on re-seed rows, so a worker's first block
   * costs no more than streaming would) */
  rl_schedule *f = NULL;
  decay_ctx x = {.g = &g, .mc_set = &mc, .go = &go, .order = order,
                 .norder = norder, .mask = mask, .points = g.points,
                 .rows = (mask & M_MC) ? MC_CHUNK : CHUNK};
  size_t nt = 0;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  if ((rc = rl_sched_build(&so.p, cmd, &f)))
    goto done;
  if (!threads)
    threads = (unsigned long long)rl_online_cpus(RL_THREADS_MAX);
  size_t chunks = (g.points - 1) / x.rows + 1;
  nt = (size_t)threads < chunks ? (size_t)threads : chunks;
  x.f = f;
  x.nt = nt;
  x.threads = (size_t)threads;
  st = worker_alloc(&x, 0);
  if (st == RL_ERANGE) {
    rc = rl_grid_out_of_range(&go, cmd);
    goto done;
  }
  if (st) {
    rc = st == RL_ENOMEM ? rl_runtime(cmd, "%s", rl_strerror(st))
                         : rl_usage(cmd, "invalid parameters: %s", rl_strerror(st));
    goto done;
  }
  if ((rc = rl_sink_open(&sink, cmd, &co, "decay.gp")))
    goto done;

  /* metadata: every effective parameter, defaults included */
  rl_out_meta_begin(out);
  rl_sched_meta(&so.p, f, out);
  rl_grid_opts_meta(&go, out);
  x.m = 1;
  for (size_t q = 0; q < norder; q++)
    x.m += order[q] == 2 ? 6 : 1;
  if (bs.bins) {
    if ((st = rl_logbins_init_stat(&lb, bs.bins, rl_grid_at(&g, 0),
                                   rl_grid_at(&g, g.points - 1), x.m, bs.stat))) {
      rc = rl_runtime(cmd, "%s", rl_strerror(st));
      goto done;
    }
    x.bins = &lb;
    rl_decl_meta(&bo, out);
    rl_out_meta(out, "binning",
                bs.stat == RL_LOGBINS_RANGE
                    ? "each column's smallest and largest value over the r in [2^(b/K), "
                      "2^((b+1)/K)), the last bin closed; r_first and r_last the bin's first and "
                      "last r, n its count"
                    : "each column's mean over the r in [2^(b/K), 2^((b+1)/K)), "
                      "the last bin closed; r the bin's geometric centre 2^((b+1/2)/K), n its count");
    rl_out_meta_uint(out, "distances", g.points);
    rl_out_meta_uint(out, "rows", rl_logbins_count(&g, bs.bins));
  } else {
    rl_out_meta_uint(out, "rows", g.points);
  }
  static const char *const mnames[] = {"bound", "similarity", "mc"};
  static const char *const mcols[] = {
      "bound", "similarity",
      "mc_ind_mean,mc_ind_se,mc_self_mean,mc_self_se,mc_self_expect,abel_max"};
  char mlist[64] = "";
  char cols[512];
  int range = bs.bins && bs.stat == RL_LOGBINS_RANGE;
  strcpy(cols, range ? "r_first,r_last,n" : bs.bins ? "r,n" : "r");
  for (size_t k = 0; k < norder; k++) {
    strcat(mlist, ","), strcat(mlist, mnames[order[k]]);
    if (!range) {
      strcat(cols, ","), strcat(cols, mcols[order[k]]);
      continue;
    }
    /* each column X as X_min,X_max */
    for (const char *p = mcols[order[k]]; *p;) {
      size_t len = strcspn(p, ",");
      size_t at = strlen(cols);
      snprintf(cols + at, sizeof cols - at, ",%.*s_min,%.*s_max", (int)len, p, (int)len, p);
      p += len + (p[len] == ',');
    }
  }
  rl_out_meta(out, "measure", mlist + 1);
  if (mask & M_MC) {
    rl_decl_meta(&mo, out);
  }
  rl_out_header(out, cols);

  /* rows, a chunk at a time */
  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, g.points,
                   g.points > PROGRESS_ROWS || (mask & M_MC));
  rl_rowpipe pipe = {.cmd = cmd, .chunks = chunks, .rows = x.rows, .cols = x.m,
                     .workers = (unsigned)nt, .fill = fill, .ctx = &x, .prog = &prog,
                     .take = bs.bins ? take_bins : NULL};
  if ((rc = rl_rowpipe_run(out, &pipe)))
    goto done;
  double last[2 * NCOLS + 1];
  if (bs.bins && rl_logbins_finish(&lb, last))
    rl_out_row(out, last, rl_logbins_width(&lb));
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < nt; t++) {
    free(x.buf[t]);
    free(x.mc[t]);
    rl_mc_free(x.mw[t]);
    rl_decay_free(x.dw[t]);
  }
  rl_schedule_free(f);
  rl_logbins_free(&lb);
  return rc;
}

const struct rl_cmd rl_cmd_decay = {"decay", run,
                                    "long-term decay of RoPE against relative distance", help, NULL};
