/* cmd_matrix.c: `ropelab matrix`, the n x n attention logit matrix of a
 * positional scheme, whole or one term of its split (RoFormer sec. 2.2;
 * terms in ropelab.h "schemes").  The measure and its settings are the
 * core's (rl_matrix_*, src/core/measures/matrix.c): the keys prepared
 * once, each row's query paired with every key, nothing n x n held.
 * This file is the declaration (cmd.h) and a compute() that runs the
 * rows on --threads workers, a block of rows at a time, formats them
 * there and writes them in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "threads.h"

#define BLOCK_VALUES 65536 /* values per worker per round: bounds the buffers */

struct ctx {
  const rl_matrix_ws *w;
  size_t n, nv;
  double offset;
  int shortest, grid;
};

struct job {
  const struct ctx *c;
  size_t i0, i1;
  double *pq, *vals; /* the query's scratch; a row's n x nv values */
  char *buf;
  size_t len, cap;
  rl_status st;
  rl_measure_err e;
};

static char *put_num(const struct ctx *c, char *p, double v)
{
  return p + (c->shortest ? rl_numfmt(v, p) : rl_numfmt17(v, p));
}

/* rows i0 .. i1 of the job, formatted: a grid row is its n values, a
 * long table a line i,j,values per pair */
static void *work(void *arg)
{
  struct job *jb = arg;
  const struct ctx *c = jb->c;
  char *p = jb->buf;
  for (size_t i = jb->i0; i < jb->i1; i++) {
    if ((jb->st = rl_matrix_row(c->w, i, jb->pq, jb->vals, &jb->e)))
      break;
    for (size_t j = 0; j < c->n; j++) {
      const double *v = jb->vals + j * c->nv;
      if (!c->grid) {
        p = put_num(c, p, c->offset + (double)i), *p++ = ',';
        p = put_num(c, p, c->offset + (double)j);
      }
      for (size_t k = 0; k < c->nv; k++) {
        if (k || !c->grid || j)
          *p++ = ',';
        p = put_num(c, p, v[k]);
      }
      if (!c->grid)
        *p++ = '\n';
    }
    if (c->grid)
      *p++ = '\n';
    jb->len = (size_t)(p - jb->buf);
  }
  return NULL;
}

static int check(rl_cmd_run *r)
{
  rl_matrix_settings *s = r->settings;
  char err[RL_ERR_MAX];
  s->set = rl_decl_given_bits(&r->own[0]);
  if (rl_matrix_plan(s, err, sizeof err))
    return rl_usage(r->name, "%s", err);
  if (s->format == RL_MATRIX_GRID)
    r->co.header = 0; /* a grid has no header row (its JSON Lines and .npy know it) */
  return 0;
}

/* the scheme, every position it is asked at probed, its keys prepared,
 * the workers' buffers: before any output */
static int prepare(rl_cmd_run *r, rl_scheme **s, rl_matrix_ws **w, struct job *jobs,
                   size_t *rows)
{
  const rl_matrix_settings *set = r->settings;
  size_t n = set->len;
  int rc;
  if ((rc = rl_scheme_opts_alloc(&r->scheme, r->name, r->scheme.names[0], s)) ||
      (rc = rl_scheme_probe(*s, r->name, (double)set->offset, "--offset")) ||
      (rc = rl_scheme_probe(*s, r->name, (double)(set->offset + n - 1), "--len")))
    return rc;
  rl_measure_err e;
  rl_status st = rl_matrix_alloc(*s, r->scheme.cfg.head, set, (unsigned long)r->scheme.cfg.seed,
                                 w, &e);
  if (st && st != RL_ENOMEM)
    return rl_scheme_fail(*s, r->name, st, e.j, "--len");
  /* rows per worker and round: ~BLOCK_VALUES values; a value takes at
   * most RL_NUMFMT_MAX + 1 bytes (and a long row 2 positions more) */
  size_t nv = rl_matrix_values(set);
  *rows = BLOCK_VALUES / n ? BLOCK_VALUES / n : 1;
  size_t per_row = n * (set->format == RL_MATRIX_GRID ? 1 : nv + 2) * (RL_NUMFMT_MAX + 1) + 2;
  for (size_t t = 0; t < r->threads && !st; t++) {
    jobs[t].cap = *rows * per_row;
    jobs[t].buf = malloc(jobs[t].cap);
    jobs[t].pq = malloc(rl_matrix_scratch_len(*w) * sizeof *jobs[t].pq);
    jobs[t].vals = malloc(n * nv * sizeof *jobs[t].vals);
    if (!jobs[t].buf || !jobs[t].pq || !jobs[t].vals)
      st = RL_ENOMEM;
  }
  return st ? rl_runtime(r->name, "%s (--len %zu)", rl_strerror(RL_ENOMEM), n) : 0;
}

static void meta(const rl_cmd_run *r, const rl_scheme *s, rl_out *out)
{
  const rl_matrix_settings *set = r->settings;
  int grid = set->format == RL_MATRIX_GRID;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&r->scheme, out);
  rl_out_meta_uint(out, "len", set->len);
  rl_out_meta_uint(out, "offset", set->offset);
  rl_out_meta(out, "format", grid ? "grid" : "long");
  rl_out_meta(out, "term", rl_matrix_term_name(set->term));
  rl_out_meta(out, "content", set->content == RL_MATRIX_SAME
                                  ? "same: x_0 ~ N(0, I) at every position"
                                  : "random: x_i ~ N(0, I) per position");
  rl_out_meta(out, "rows", "query position i");
  rl_out_meta(out, "columns", "key position j");
  rl_out_meta(out, "relpos", rl_scheme_get_info(s)->relpos);
  rl_out_meta(out, "numbers", set->shortest ? "shortest round-trip (rl_numfmt)"
                                            : "at most 17 significant digits, round-trip exact");
  if (!grid) {
    char hdr[64];
    snprintf(hdr, sizeof hdr, "i,j,%s",
             set->term == RL_MATRIX_TERM_ALL ? "total,cc,cp,pc,pp,bias,mix"
                                             : rl_matrix_term_name(set->term));
    rl_out_header(out, hdr);
  }
}

/* job jb's rows, or the message of its failure */
static int rows_of(const rl_cmd_run *r, const rl_scheme *s, const struct job *jb, rl_out *out)
{
  if (jb->st == RL_EOVERFLOW && jb->e.nonfinite) {
    char where[96];
    snprintf(where, sizeof where, "logit at i = %.17g, j = %.17g", jb->e.i, jb->e.j);
    return rl_scheme_overflow(r->name, rl_scheme_get_info(s)->name, r->scheme.cfg.param_file,
                              where);
  }
  if (jb->st)
    return rl_scheme_fail(s, r->name, jb->st, jb->e.j, "--len");
  rl_out_write(out, jb->buf, jb->len);
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_matrix_settings *set = r->settings;
  rl_scheme *s = NULL;
  rl_matrix_ws *w = NULL;
  struct job jobs[RL_THREADS_MAX];
  memset(jobs, 0, sizeof jobs);
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  size_t n = set->len, rows = 1;
  int rc = prepare(r, &s, &w, jobs, &rows);
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  meta(r, s, out);
  struct ctx cx = {w, n, rl_matrix_values(set), (double)set->offset, set->shortest,
                   set->format == RL_MATRIX_GRID};
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, n, (double)n * (double)n > 4e6);
  for (size_t i0 = 0; i0 < n && !out->err && !rc;) {
    size_t used = 0;
    for (size_t t = 0; t < r->threads && i0 < n; t++, used++) {
      jobs[t].c = &cx, jobs[t].len = 0;
      jobs[t].i0 = i0;
      jobs[t].i1 = i0 + rows < n ? i0 + rows : n;
      i0 = jobs[t].i1;
    }
    rl_threads_run(work, jobs, sizeof *jobs, used);
    for (size_t t = 0; t < used && !rc; t++)
      rc = rows_of(r, s, &jobs[t], out);
    rl_progress_update(&prog, i0);
  }
  if (!rc)
    rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < RL_THREADS_MAX; t++)
    free(jobs[t].buf), free(jobs[t].pq), free(jobs[t].vals);
  rl_matrix_free(w);
  rl_scheme_free(s);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "--scheme S [OPTIONS]",
    .about =
        "The n x n attention logit of scheme S between a query at position i and a\n"
        "key at position j, i, j = offset .. offset + n - 1, whole or split into\n"
        "its terms (ropelab.h, section schemes).  Memory O(n d), streamed by rows.\n",
    .takes = RL_TAKES_SCHEME | RL_TAKES_THREADS | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_matrix_settings),
    .groups = {{"matrix:", rl_matrix_param_list, 0}},
    .schemes_max = 1,
    .plot = "heatmap.gp",
    /* --format changes the columns: not swept, and grid (no header) is
     * not a table a sweep can join */
    .sweep_numbers = "len offset", .sweep_names = "scheme term content", .sweep_lists = "",
    .sweep_refuse = "format=grid", .sweep_own = rl_cmd_sweeps_none,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_matrix = {
    "matrix", NULL, "n x n logit matrix of a positional scheme, by term", NULL, &decl};
