/* cmd_compare.c: `ropelab compare`, one row per scheme of properties
 * measured with the core, never typed in: each comes from positional
 * matrices P(i, j) = total - cc (query position i, key j) of the core's
 * structure measures (rl_structure_props, src/core/measures/
 * structure_props.c, which says what each column is).  This file is the
 * declaration (cmd.h) and a compute() that measures every scheme before
 * any output, then writes the table as CSV (with its definitions in the
 * metadata) or as Markdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "rowfmt.h"

static const char *const cols[] = {
    "scheme", "params", "params_formula", "toeplitz", "relative", "asymmetry", "tells_sign",
    "distinct_distances", "unbounded", "rank", "rank_n", "linear", "prep_len", "pair_ns",
    "terms", "expansion"};
#define NCOL (sizeof cols / sizeof *cols)
#define NS_COL 13 /* pair_ns: only with --timings */

/* A failed measure: the scheme's own refusal of a position, or a
 * non-finite logit or norm (RL_EOVERFLOW), which is bad input when a
 * parameter file supplied the values and a bug otherwise. */
static int fail(const rl_scheme *s, const char *cmd, rl_status st, const rl_measure_err *e)
{
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  char where[96];
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  if (st != RL_EOVERFLOW)
    return rl_scheme_fail(s, cmd, st, e->j, "--len");
  if (e->nonfinite)
    snprintf(where, sizeof where, "logit at query %.17g, key %.17g", e->i, e->j);
  else
    snprintf(where, sizeof where, "norm of the positional matrix");
  return rl_scheme_overflow(cmd, rl_scheme_get_info(s)->name, c->param_file, where);
}

static int check(rl_cmd_run *r)
{
  const rl_compare_settings *s = r->settings;
  if (s->format == RL_COMPARE_MARKDOWN)
    r->co.meta = 0; /* a markdown table has no '# key=value' lines */
  return 0;
}

/* every scheme measured, before any output */
static int measure(rl_cmd_run *r, rl_scheme_props *pr)
{
  const rl_compare_settings *s = r->settings;
  double *xs = NULL;
  int rc = 0;
  if (rl_compare_contents(s->len, r->scheme.cfg.dim, (unsigned long)r->scheme.cfg.seed, &xs))
    return rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  for (size_t k = 0; k < r->scheme.nnames && !rc; k++) {
    rl_scheme *sch = NULL;
    rl_measure_err e;
    if ((rc = rl_scheme_opts_alloc(&r->scheme, r->name, r->scheme.names[k], &sch)))
      break;
    rl_status st = rl_structure_props(sch, r->scheme.cfg.head, s->len, s->tol, xs, &pr[k], &e);
    if (st)
      rc = fail(sch, r->name, st, &e);
    rl_scheme_free(sch);
  }
  free(xs);
  return rc;
}

static void meta(const rl_cmd_run *r, rl_out *out)
{
  const rl_compare_settings *s = r->settings;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&r->scheme, out);
  rl_out_meta_uint(out, "len", s->len);
  rl_out_meta_num(out, "tol", s->tol);
  rl_out_meta(out, "content", "x ~ N(0, I) from seed at every position (toeplitz, "
                              "asymmetry, distinct, rank); x_i per position (terms)");
  rl_out_meta(out, "toeplitz", "||P - T(P)||_F / ||P||_F, T(P) = diagonal means; relative = "
                               "toeplitz <= tol");
  rl_out_meta(out, "asymmetry", "||P - P^T||_F / ||P||_F; tells_sign = asymmetry > tol");
  rl_out_meta(out, "distinct", "distinct diagonal means of T(P) among 2 len - 1 distances, "
                               "to tol * max |mean|");
  rl_out_meta(out, "unbounded", "a finite logit at position 2^20 + max_len (no table "
                                "limit); not extrapolation quality (see ropelab extrapolate)");
  rl_out_meta(out, "rank", "singular values of P (rank_n x rank_n) above 1e-10 of the "
                           "largest; linear = rank <= 2 d + 2 < rank_n");
  rl_out_meta(out, "rank_n", "4 d + 16 (above any rank a per-position feature map of "
                             "dimension <= 2 d + 2 has), at least len, capped at the "
                             "learned/tupe table under --past error");
  if (s->timings)
    rl_out_meta(out, "pair_ns", "timed: ns per rl_scheme_pair (machine dependent)");
  rl_out_meta(out, "terms", "nonzero over len x len with random content");
}

/* one line of fields f (every column; pair_ns left out without
 * --timings): a CSV row, or a Markdown row "| a | b |" */
static void line(const rl_cmd_run *r, rl_out *out, const char *const *f, int markdown)
{
  const rl_compare_settings *s = r->settings;
  const char *g[NCOL];
  char md[1024] = "|";
  size_t m = 0;
  for (size_t i = 0; i < NCOL; i++)
    if (i != NS_COL || s->timings)
      g[m++] = f[i];
  if (!markdown) {
    rl_out_fields(out, g, m);
    return;
  }
  for (size_t i = 0; i < m; i++)
    strcat(md, " "), strcat(md, g[i]), strcat(md, " |");
  strcat(md, "\n");
  rl_out_write(out, md, strlen(md));
}

static void header(const rl_cmd_run *r, rl_out *out, int markdown)
{
  const rl_compare_settings *s = r->settings;
  if (markdown) {
    static const char *const sep[NCOL] = {"---", "---", "---", "---", "---", "---", "---", "---",
                                          "---", "---", "---", "---", "---", "---", "---", "---"};
    line(r, out, cols, 1);
    line(r, out, sep, 1);
    return;
  }
  char hdr[1024] = "";
  for (size_t i = 0; i < NCOL; i++)
    if (i != NS_COL || s->timings)
      strcat(hdr, *hdr ? "," : ""), strcat(hdr, cols[i]);
  rl_out_header(out, hdr);
}

/* scheme k's row: numbers shortest round-trip in CSV, three digits in
 * Markdown */
static void row(const rl_cmd_run *r, rl_out *out, size_t k, const rl_scheme_props *p,
                int markdown)
{
  char b[8][RL_NUMFMT_MAX + 8];
  snprintf(b[0], sizeof b[0], "%zu", p->params);
  if (markdown) {
    snprintf(b[1], sizeof b[1], "%.3g", p->toe.distance);
    snprintf(b[2], sizeof b[2], "%.3g", p->toe.asymmetry);
    snprintf(b[6], sizeof b[6], "%.0f", p->pair_ns);
  } else {
    rl_numfmt(p->toe.distance, b[1]);
    rl_numfmt(p->toe.asymmetry, b[2]);
    rl_numfmt(p->pair_ns, b[6]);
  }
  snprintf(b[3], sizeof b[3], "%zu", p->toe.distinct);
  snprintf(b[4], sizeof b[4], "%zu", p->rank);
  snprintf(b[5], sizeof b[5], "%zu", p->rank_n);
  snprintf(b[7], sizeof b[7], "%zu", p->prep_len);
  const char *f[NCOL] = {r->scheme.names[k], b[0], p->params_formula, b[1],
                         p->relative ? "yes" : "no", b[2], p->tells_sign ? "yes" : "no", b[3],
                         p->unbounded ? "yes" : "no", b[4], b[5], p->linear ? "yes" : "no",
                         b[7], b[6], p->terms, p->expansion};
  line(r, out, f, markdown);
}

static int compute(rl_cmd_run *r)
{
  const rl_compare_settings *s = r->settings;
  int markdown = s->format == RL_COMPARE_MARKDOWN;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  rl_scheme_props *pr = calloc(r->scheme.nnames, sizeof *pr);
  int rc = pr ? measure(r, pr) : rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  if (!markdown)
    meta(r, out);
  header(r, out, markdown);
  for (size_t k = 0; k < r->scheme.nnames && !out->err; k++)
    row(r, out, k, &pr[k], markdown);
  rc = rl_sink_close(&sink, NULL);
done:
  rl_sink_abort(&sink);
  free(pr);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
        "One row per scheme of measured properties (see the metadata for each\n"
        "definition): parameter count at --len, Toeplitz distance, asymmetry,\n"
        "distinct distances, whether positions far past any table are defined\n"
        "(unbounded; `ropelab extrapolate` measures what changes there), numerical\n"
        "rank of the rank_n x rank_n positional matrix (rank_n = 4d + 16, larger\n"
        "than any rank a per-position feature map can have) and the linear-attention\n"
        "verdict, and which logit terms the scheme keeps.\n",
    .takes = RL_TAKES_SCHEME | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_compare_settings),
    .groups = {{"compare:", rl_compare_param_list, 0}},
    .schemes_max = RL_SCHEMES_MAX,
    .schemes_default = "all",
    /* --format changes the columns: not swept, and markdown is not a
     * table a sweep can join */
    .sweep_numbers = "len tol", .sweep_names = "", .sweep_lists = "scheme",
    .sweep_refuse = "format=markdown", .sweep_own = rl_cmd_sweeps_none,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_compare = {
    "compare", NULL, "measured properties of the positional schemes, one row each", NULL, &decl};
