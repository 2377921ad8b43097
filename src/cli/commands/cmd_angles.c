/* cmd_angles.c: `ropelab angles`, the cos/sin table of a schedule per
 * position, in the shapes frameworks store it, to diff against a table
 * from one's own code.  Rows are streamed in chunks computed and
 * formatted by the workers of rowpipe.h and written in order, so memory
 * does not grow with the number of positions and the bytes do not depend
 * on --threads. */
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "out_format.h"
#include "rowfmt.h"
#include "rowpipe.h"
#include "threads.h"

#define BUF_MIN 262144         /* bytes of text per block of rows */
#define ROWS_FAST 1024         /* positions per block at least, exact tables */
#define PROGRESS_ROWS 100000
/* a worker's memory for a chunk (cos/sin, values, text) at most this when
 * a row alone is under it: at d = 2^20 a row is about 42 MB, and the
 * ROWS_FAST rows of an exact table asked 43 GB per worker (exit 3 "out
 * of memory" under a 4 GB address space, issue 33 item 5).  Bytes of the
 * tables up to d of about 2,000 keep their chunks (and so their bytes). */
#define WORK_MAX ((size_t)128 << 20)

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
  size_t n = f->n;
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
    v = rl_table_put(x->format, x->layout, f, m, cv, sv, v);
  }
  *rows = (j1 - j0) * rl_table_rows_per_pos(x->format, f);
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
  if (format == RL_TABLE_LONG) {
    rl_out_header_line(out, "pos,pair,cos,sin\n", 17);
    return 0;
  }
  size_t cols = format == RL_TABLE_PAIRS ? n : r;
  char *h = malloc(16 + 2 * cols * 24);
  if (!h)
    return -1;
  size_t len = (size_t)sprintf(h, "pos");
  const char *sfx = format == RL_TABLE_PAIRS ? "" : "_d";
  for (int cs = 0; cs < 2; cs++)
    for (size_t j = 0; j < cols; j++)
      len += (size_t)sprintf(h + len, ",%s%s%zu", cs ? "sin" : "cos", sfx, j);
  h[len++] = '\n';
  rl_out_header_line(out, h, len);
  free(h);
  return 0;
}


/* the metadata: the schedule's (hf is the half layout whatever --layout
 * says: so says its metadata), the grid's, the table's */
static void meta(const rl_cmd_run *r, const rl_schedule *f, int format, rl_layout layout,
                 rl_out *out)
{
  rl_out_meta_begin(out);
  rl_schedule_params mp = r->sched.p;
  mp.layout = layout;
  rl_sched_meta(&mp, f, out);
  rl_grid_opts_meta(&r->grid, out);
  rl_out_meta_uint(out, "rows", r->g.points * rl_table_rows_per_pos(format, f));
  rl_out_meta(out, "format", rl_table_format_name(format));
  if (format == RL_TABLE_DIMS || format == RL_TABLE_HF)
    rl_out_meta(out, "columns", layout == RL_LAYOUT_HALF
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
}

/* the table to the sink: metadata, header, rows by the workers */
static int write_table(rl_cmd_run *r, angles_ctx *x, size_t chunks, size_t nthreads)
{
  const rl_schedule *f = x->f;
  size_t per = rl_table_rows_per_pos(x->format, f);
  rl_sink sink = {0};
  int rc = rl_cmd_sink_open(r, &sink);
  if (rc)
    return rc;
  meta(r, f, x->format, x->layout, &sink.out);
  if (write_header(&sink.out, x->format, f->n, f->rot)) {
    rl_sink_abort(&sink);
    return rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  }
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, r->g.points * per,
                   r->g.points * (f->n ? f->n : 1) > PROGRESS_ROWS * 64);
  rl_progress_update(&prog, 0); /* at once: a chunk of a wide table takes seconds */
  rl_rowpipe pipe = {.cmd = r->name, .chunks = chunks, .rows = x->block * (per ? per : 1),
                     .cols = rl_table_columns(x->format, f), .workers = (unsigned)nthreads,
                     .fill = fill, .ctx = x, .prog = &prog};
  if (!(rc = rl_rowpipe_run(&sink.out, &pipe)))
    rc = rl_sink_close(&sink, &prog);
  rl_sink_abort(&sink);
  return rc;
}

static int compute(rl_cmd_run *r)
{
  const rl_angles_settings *s = r->settings;
  rl_schedule *f = NULL;
  int rc = rl_sched_build(&r->sched.p, r->name, &f);
  if (rc)
    return rc;
  if (f->type && f->type->relpos) {
    rc = rl_usage(r->name, "method '%s' has no table per position (it maps relative positions)",
                  f->type->name);
    rl_schedule_free(f);
    return rc;
  }
  /* workspaces, before any output: per worker, cos and sin; chunks of
   * about BUF_MIN bytes of text (at least one position) */
  size_t per = rl_table_rows_per_pos(s->format, f), cols = rl_table_columns(s->format, f);
  size_t row_max = per * RL_ROW_MAX(cols);
  angles_ctx x = {.f = f, .g = &r->g, .go = &r->grid, .format = s->format,
                  .layout = rl_table_layout(s->format, r->sched.p.layout),
                  .block = BUF_MIN / row_max ? BUF_MIN / row_max : 1};
  if (f->prec->exact && x.block < ROWS_FAST) /* a seed per chunk: amortised over more rows */
    x.block = ROWS_FAST;
  size_t row_bytes = 2 * (f->n ? f->n : 1) * sizeof(double) + per * cols * sizeof(double) + row_max;
  if (x.block > 1 && x.block > WORK_MAX / row_bytes)
    x.block = WORK_MAX / row_bytes ? WORK_MAX / row_bytes : 1;
  size_t chunks = (r->g.points - 1) / x.block + 1;
  size_t nthreads = (size_t)r->threads < chunks ? (size_t)r->threads : chunks;
  int npy = is_npy(r->co.output);
  if (npy)
    nthreads = 1; /* the .npy path fills on the calling thread */
  for (size_t t = 0; t < nthreads && !rc; t++)
    if (!(x.cs[t] = malloc(2 * (f->n ? f->n : 1) * x.block * sizeof(double))))
      rc = rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  if (!rc)
    rc = npy ? write_npy(r->name, &x, r->co.output, r->g.points * per, cols, chunks, per)
             : write_table(r, &x, chunks, nthreads);
  for (size_t t = 0; t < RL_THREADS_MAX; t++)
    free(x.cs[t]);
  rl_schedule_free(f);
  return rc;
}

static const rl_grid_kind grid_kind = {&rl_grid_table, "positions", 21};

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
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
        "CSV, without the metadata and header, on one thread.\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_GRID | RL_TAKES_THREADS | RL_TAKES_TABLE,
    .grid = &grid_kind,
    .settings_size = sizeof(rl_angles_settings),
    .groups = {{"table:", rl_angles_param_list, 0}},
    /* --format changes the columns: a sweep is one table, so it is not an axis */
    .sweep_own = rl_cmd_sweeps_none,
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "",
    .compute = compute,
};

const struct rl_cmd rl_cmd_angles = {"angles", NULL,
                                     "the cos/sin table of a schedule per position", NULL, &decl};
