/* cmd_angles.c: `ropelab angles`, the cos/sin table of a schedule per
 * position, in the shapes frameworks store it, to diff against a table
 * from one's own code.  Rows are streamed in chunks computed and
 * formatted by the workers of rowpipe.h and written in order, so memory
 * does not grow with the number of positions and the bytes do not depend
 * on --threads. */
#include <getopt.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "grid_opts.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "out_format.h"
#include "rowfmt.h"
#include "rowpipe.h"
#include "sched_opts.h"
#include "sink.h"
#include "threads.h"

enum { OPT_FORMAT = RL_OPT_FIRST_CMD, OPT_THREADS };

enum { F_LONG, F_PAIRS, F_DIMS, F_HF };
static const char *const format_names[] = {"long", "pairs", "dims", "hf"};
#define NFORMATS (sizeof format_names / sizeof *format_names)

#define BUF_MIN 262144         /* bytes of text per block of rows */
#define ROWS_FAST 1024         /* positions per block at least, exact tables */
#define PROGRESS_ROWS 100000

static const rl_grid_kind grid_kind = {&rl_grid_table, "positions", 21};

static void help(FILE *fp)
{
  fputs("usage: ropelab angles [OPTIONS]\n"
        "\n"
        "The cos/sin table a schedule produces, per position m, as frameworks store\n"
        "it, to diff against a table from your own code. Every value is\n"
        "  attention_factor * cos(m * theta_i), attention_factor * sin(m * theta_i)\n"
        "with the angle m * theta_i reduced exactly (each value within 0.55 ulp\n"
        "before the attention factor, which multiplies it once, as Hugging Face\n"
        "multiplies cos and sin by attention_scaling), printed as the shortest\n"
        "decimal that reads back as the exact double.  With --precision P a\n"
        "framework pipeline's table instead (float32 angle, cosf/sinf, the attention\n"
        "factor in float32, rounded to its table dtype: see 'ropelab help precision').\n"
        "\n"
        "formats (--format):\n"
        "  long    pos,pair,cos,sin: one row per position and pair i (tidy data)\n"
        "  pairs   pos,cos0..cos{n-1},sin0..sin{n-1}: one row per position, one\n"
        "          value per pair (n = rot/2), as a complex table e^{i m theta}\n"
        "          (Meta Llama's freqs_cis: polar(1, outer(t, freqs)))\n"
        "  dims    pos,cos_d0..cos_d{r-1},sin_d0..sin_d{r-1}: one column per rotated\n"
        "          dimension where --layout puts its pair: interleaved, pair i on\n"
        "          dims 2i, 2i+1 (RoFormer, GPT-J: repeat_interleave); half, pair i\n"
        "          on dims i and i + r/2 (GPT-NeoX)\n"
        "  hf      Hugging Face's cos and sin caches (LlamaRotaryEmbedding):\n"
        "            emb = cat(freqs, freqs); cos = emb.cos() * attention_scaling,\n"
        "            sin = emb.sin() * attention_scaling\n"
        "          i.e. dims with the half layout, whatever --layout says\n"
        "Pass-through dimensions (rot < dim) are not rotated and not listed.\n"
        "Methods that map relative positions (rerope, leaky-rerope) have no table\n"
        "per position. xpos: the rotation alone, without its amplitude. mrope: text\n"
        "positions (t = h = w = pos).\n"
        "-o FILE.npy writes the same rows and columns as one NumPy array of doubles\n"
        "(format 1.0, shape (rows, columns), C order; np.load reads it) instead of\n"
        "CSV, without the metadata and header, on one thread.\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputs("positions:\n", fp);
  rl_grid_opts_help(fp, &grid_kind);
  fputs("table:\n"
        "      --format F     long, pairs, dims or hf (default long)\n"
        "      --threads T    worker threads (default: online processors, at most 64);\n"
        "                     the output is the same bytes whatever T\n"
        "\n", fp);
  rl_common_help_noplot(fp);
}

/* What the workers share, and the cos/sin of each (rowpipe.h). */
typedef struct angles_ctx {
  const rl_schedule *f;
  const rl_grid *g;
  const rl_grid_opts *go;
  int format;
  rl_layout layout;
  size_t block;               /* positions per chunk */
  double *cs[RL_THREADS_MAX]; /* 2 n block doubles per worker */
} angles_ctx;

/* Chunk c (positions c*block ...) on worker w: one row per position, or
 * with --format long one row per (position, pair). */
static int fill(void *arg, unsigned w, size_t c, double *vals, size_t *rows, char *msg)
{
  angles_ctx *x = arg;
  const rl_schedule *f = x->f;
  size_t n = f->n, rdim = f->rot;
  double *cv = x->cs[w], *sv = cv + n, *v = vals;
  size_t j0 = c * x->block, j1 = x->g->points - j0 < x->block ? x->g->points : j0 + x->block;
  *rows = 0; /* a chunk that fails is not written at all */
  /* the chunk's rows at once when its positions are an exact progression
   * (rl_schedule_cossin_rows: a recurrence, ~30x faster than per row) */
  double m0 = rl_grid_at(x->g, j0), step = j1 - j0 > 1 ? rl_grid_at(x->g, j0 + 1) - m0 : 1;
  int rows_ok = 1;
  for (size_t j = j0; j < j1 && rows_ok; j++)
    rows_ok = rl_grid_at(x->g, j) == m0 + (double)(j - j0) * step;
  if (rows_ok && rl_schedule_cossin_rows(f, m0, step, j1 - j0, cv, cv + (j1 - j0) * n))
    rows_ok = 0;
  for (size_t j = j0; j < j1; j++) {
    double m = rl_grid_at(x->g, j);
    rl_status st = RL_OK;
    if (rows_ok)
      cv = x->cs[w] + (j - j0) * n, sv = x->cs[w] + (j1 - j0 + j - j0) * n;
    else
      st = rl_schedule_cossin(f, m, cv, sv);
    if (st == RL_ERANGE) {
      rl_grid_range_msg(x->go, msg, RL_ROWPIPE_MSG);
      return RL_EXIT_USAGE;
    }
    if (st) {
      snprintf(msg, RL_ROWPIPE_MSG, "cannot evaluate the angles at position %g: %s", m,
               rl_strerror(st));
      return RL_EXIT_RUNTIME;
    }
    if (x->format == F_LONG) {
      for (size_t i = 0; i < n; i++)
        *v++ = m, *v++ = (double)i, *v++ = cv[i], *v++ = sv[i];
      continue;
    }
    *v++ = m;
    if (x->format == F_PAIRS) {
      for (size_t i = 0; i < n; i++)
        *v++ = cv[i];
      for (size_t i = 0; i < n; i++)
        *v++ = sv[i];
    } else {
      /* dimension k belongs to pair k/2 (interleaved) or k mod n (half),
       * as rl_layout_pair places them */
      int half = x->layout == RL_LAYOUT_HALF;
      for (int t = 0; t < 2; t++) {
        const double *u = t ? sv : cv;
        for (size_t k = 0; k < rdim; k++)
          *v++ = u[half ? (k < n ? k : k - n) : k / 2];
      }
    }
  }
  *rows = (j1 - j0) * (x->format == F_LONG ? n : 1);
  return 0;
}

/* -o FILE.npy: the same rows as doubles in one (rows, cols) array
 * (rl_npy_create: format 1.0, renamed into place when complete), chunk
 * after chunk on the calling thread, 30 times faster than the output
 * layer's npy (which reads the CSV text back); no metadata (the format
 * has no place for it).  Only for a run of its own (a sweep's points
 * write into the sweep's table) to a regular file or a new one (a FIFO
 * or device goes to the output layer, which refuses it). */
static int is_npy(const char *path)
{
  if (!path || rl_out_format_for(path) != RL_FMT_NPY || rl_out_hooked())
    return 0;
  struct stat sb;
  return stat(path, &sb) != 0 ? errno == ENOENT : S_ISREG(sb.st_mode);
}

static int write_npy(const char *cmd, angles_ctx *x, const char *path, size_t rows, size_t cols,
                     size_t chunks, size_t per)
{
  double *vals = malloc(x->block * per * cols * sizeof *vals);
  if (!vals)
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  char err[RL_ROWPIPE_MSG];
  rl_npy_writer *w;
  rl_status st = rl_npy_create(path, rows, cols, &w, err, sizeof err);
  if (st) {
    free(vals);
    return rl_runtime(cmd, "%s", err);
  }
  /* removed by the signal handler if the run is interrupted */
  char *tmp = strdup(rl_npy_tmp_path(w));
  if (!tmp) {
    rl_npy_abort(w);
    free(vals);
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  }
  rl_tmp_register(tmp);
  for (size_t c = 0; c < chunks; c++) {
    size_t n = 0;
    int rc = fill(x, 0, c, vals, &n, err);
    if (rc) {
      rl_npy_abort(w);
      rl_tmp_unregister(tmp);
      free(tmp);
      free(vals);
      return rc == RL_EXIT_USAGE ? rl_usage(cmd, "%s", err) : (rl_runtime(cmd, "%s", err), rc);
    }
    if ((st = rl_npy_append(w, vals, n, err, sizeof err))) {
      rl_npy_abort(w);
      rl_tmp_unregister(tmp);
      free(tmp);
      free(vals);
      return rl_runtime(cmd, "%s", err);
    }
  }
  free(vals);
  st = rl_npy_commit(w, err, sizeof err);
  rl_tmp_unregister(tmp);
  free(tmp);
  if (st)
    return rl_runtime(cmd, "%s", err);
  return 0;
}

/* The header (its own buffer: it can be wider than rl_out_header's). */
static int write_header(rl_out *out, int format, size_t n, size_t r)
{
  if (!out->header)
    return 0;
  if (format == F_LONG) {
    rl_out_header_line(out, "pos,pair,cos,sin\n", 17);
    return 0;
  }
  size_t cols = format == F_PAIRS ? n : r;
  char *h = malloc(16 + 2 * cols * 24);
  if (!h)
    return -1;
  size_t len = (size_t)sprintf(h, "pos");
  const char *sfx = format == F_PAIRS ? "" : "_d";
  for (int cs = 0; cs < 2; cs++)
    for (size_t j = 0; j < cols; j++)
      len += (size_t)sprintf(h + len, ",%s%s%zu", cs ? "sin" : "cos", sfx, j);
  h[len++] = '\n';
  rl_out_header_line(out, h, len);
  free(h);
  return 0;
}


static int run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"format", required_argument, NULL, OPT_FORMAT},
      {"threads", required_argument, NULL, OPT_THREADS},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  static struct option own_opts[32];
  rl_grid_opts go;
  rl_grid_opts_init(&go, &grid_kind);
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  rl_grid_longopts(&go, own_opts, nopt, 32);
  const struct option *opts = rl_sched_longopts(own_opts);
  const char *cmd = "angles";
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  int format = F_LONG;
  unsigned long long threads = 0;
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_FORMAT:
      if ((r = rl_opt_enum(cmd, "--format", optarg, format_names, NFORMATS, &format)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads)))
        return r;
      break;
    default:
      if (rl_opt_failed(r = rl_grid_opt(&go, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (!r && (r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_sched_opts_end(&so, &co, cmd, argc, argv, help)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (co.plot)
    return rl_usage(cmd, "--plot is not available for angles (it is a table to diff)");

  rl_grid g;
  if ((r = rl_grid_opts_finish(&go, cmd, &g)))
    return r;

  rl_schedule *f = NULL;
  if ((r = rl_sched_build(&so.p, cmd, &f)))
    return r;
  if (f->type && f->type->relpos) {
    r = rl_usage(cmd, "method '%s' has no table per position (it maps relative positions)",
                 f->type->name);
    rl_schedule_free(f);
    return r;
  }

  /* workspaces, before any output: per worker, cos and sin; chunks of
   * about BUF_MIN bytes of text (at least one position) */
  size_t n = f->n, rdim = f->rot;
  size_t per = format == F_LONG ? n : 1; /* rows per position */
  size_t cols = format == F_LONG ? 4 : 1 + 2 * (format == F_PAIRS ? n : rdim);
  size_t row_max = per * RL_ROW_MAX(cols);
  angles_ctx x = {.f = f, .g = &g, .go = &go, .format = format,
                  .layout = format == F_HF ? RL_LAYOUT_HALF : so.p.layout,
                  .block = BUF_MIN / row_max ? BUF_MIN / row_max : 1};
  if (f->prec->exact && x.block < ROWS_FAST) /* a seed per chunk: amortised over more rows */
    x.block = ROWS_FAST;
  size_t chunks = (g.points - 1) / x.block + 1;
  size_t nthreads = threads ? (size_t)threads : (size_t)rl_online_cpus(RL_THREADS_MAX);
  if (nthreads > chunks)
    nthreads = chunks;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  if (is_npy(co.output))
    nthreads = 1; /* the .npy path fills on the calling thread */
  for (size_t t = 0; t < nthreads; t++)
    if (!(x.cs[t] = malloc(2 * (n ? n : 1) * x.block * sizeof(double)))) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
  if (is_npy(co.output)) {
    rc = write_npy(cmd, &x, co.output, g.points * per, cols, chunks, per);
    goto done;
  }
  if ((rc = rl_sink_open(&sink, cmd, &co, NULL)))
    goto done;

  rl_out_meta_begin(out);
  /* hf is the half layout whatever --layout says: so says its metadata */
  rl_schedule_params mp = so.p;
  mp.layout = x.layout;
  rl_sched_meta(&mp, f, out);
  rl_grid_opts_meta(&go, out);
  rl_out_meta_uint(out, "rows", format == F_LONG ? g.points * n : g.points);
  rl_out_meta(out, "format", format_names[format]);
  if (format == F_DIMS || format == F_HF)
    rl_out_meta(out, "columns", x.layout == RL_LAYOUT_HALF
                                    ? "half layout: pair i on dims i and i + rot/2"
                                    : "interleaved layout: pair i on dims 2i and 2i+1");
  rl_out_meta(out, "values",
              "attention_factor * cos(pos * theta_i), attention_factor * sin(pos * theta_i)");
  if (f->amp_rate)
    rl_out_meta(out, "amplitude",
                "not included: the rotation table only; xpos also scales the query at m "
                "by e^(m rate_i) and the key at n by e^(-n rate_i)");
  if (f->axis)
    rl_out_meta(out, "positions", "text positions: t = h = w = pos for every axis");
  if (write_header(out, format, n, rdim)) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }

  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, g.points * per,
                   g.points * (n ? n : 1) > PROGRESS_ROWS * 64);
  rl_rowpipe pipe = {.cmd = cmd, .chunks = chunks, .rows = x.block * (per ? per : 1),
                     .cols = cols, .workers = (unsigned)nthreads, .fill = fill, .ctx = &x,
                     .prog = &prog};
  if ((rc = rl_rowpipe_run(out, &pipe)))
    goto done;
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < RL_THREADS_MAX; t++)
    free(x.cs[t]);
  rl_schedule_free(f);
  return rc;
}

const struct rl_cmd rl_cmd_angles = {"angles", run,
                                     "the cos/sin table of a schedule per position", help, NULL};
