/* cmd_compare.c: `ropelab compare`, one row per scheme of properties
 * measured with the core, never typed in: each comes from positional
 * matrices P(i, j) = total - cc (query position i, key j) of the core's
 * structure measures (src/core/measures/structure.c, ropelab.h).
 *
 *   toeplitz     ||P - T(P)||_F / ||P||_F, T(P) the best Toeplitz fit in
 *                least squares (each diagonal replaced by its mean);
 *                P with the same content at every position, so that a
 *                relative scheme gives exactly a Toeplitz P (0 if P = 0)
 *   asymmetry    ||P - P^T||_F / ||P||_F, same content: whether the
 *                scheme tells i - j from j - i
 *   distinct     number of distinct diagonal means of T(P) among the
 *                2 len - 1 distances, to a relative tolerance --tol of
 *                max |mean|
 *   unbounded    whether the scheme returns a finite logit at position
 *                2^20 + max_len (no table limit under --past); not a
 *                claim that it extrapolates well: `ropelab extrapolate`
 *                measures that
 *   rank         numerical rank of P at rank_n x rank_n: singular values
 *                above 1e-10 of the largest; a per-position feature map
 *                of dimension rank exists, so linear = yes when rank <=
 *                2d + 2 < rank_n (bounded by d, not growing with n)
 *   rank_n       the size of that matrix: 4d + 16 (larger than any
 *                bounded rank, so a full rank shows), at least --len,
 *                capped at the table of learned/tupe under --past error
 *   pair_ns      (--timings only) timed ns per rl_scheme_pair: machine
 *                dependent, so not in the default table
 *   terms        which of cc, cp, pc, pp, bias, mix are nonzero over a
 *                len x len matrix with random content per position. */
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rowfmt.h"
#include "scheme_opts.h"
#include "sink.h"

enum { OPT_LEN = RL_OPT_FIRST_CMD, OPT_FORMAT, OPT_TOL, OPT_TIMINGS };

#define RANK_TOL 1e-10 /* entries are differences of O(1) logits: error ~ d eps */

static void help(FILE *fp)
{
  fputs("usage: ropelab compare [OPTIONS]\n"
        "\n"
        "One row per scheme of measured properties (see the metadata for each\n"
        "definition): parameter count at --len, Toeplitz distance, asymmetry,\n"
        "distinct distances, whether positions far past any table are defined\n"
        "(unbounded; `ropelab extrapolate` measures what changes there), numerical\n"
        "rank of the rank_n x rank_n positional matrix (rank_n = 4d + 16, larger\n"
        "than any rank a per-position feature map can have) and the linear-attention\n"
        "verdict, and which logit terms the scheme keeps.\n"
        "\n"
        "      --scheme LIST  comma-separated schemes, or 'all' (default all)\n"
        "      --len N        sequence length of the measured matrices, >= 2 (default 64)\n"
        "      --tol X        relative tolerance of the verdicts, > 0 (default 1e-9)\n"
        "      --format F     csv or markdown (default csv)\n"
        "      --timings      add pair_ns, the timed cost of one logit (varies by run)\n"
        "\n",
        fp);
  rl_scheme_opts_help(fp);
  rl_common_help_noplot(fp);
}

static const char *formula(const char *name)
{
  static const char *const f[][2] = {
      {"learned", "len*d"},
      {"t5", "buckets*H"},
      {"deberta", "2k*d (k = position_buckets or max_relative_positions)"},
      {"xl", "H*(d^2 + 2d)"},
      {"tupe", "(len + 1)*d + 2*H*d^2 (+ (buckets + 1)*H with tupe_rel)"},
  };
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    if (!strcmp(f[i][0], name))
      return f[i][1];
  return "0";
}

struct props {
  rl_toeplitz toe;
  size_t rank, rank_n;
  int unbounded;
  double pair_ns;
  char terms[64], expansion[96];
};

/* A failed measure: the scheme's own refusal of a position, or a
 * non-finite logit or norm (RL_EOVERFLOW), which is bad input when a
 * parameter file supplied the values and a bug otherwise.  e NULL: a
 * measure of the whole matrix, at no one position. */
static int fail(const rl_scheme *s, const char *cmd, rl_status st, const rl_measure_err *e)
{
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  const char *nm = rl_scheme_get_info(s)->name;
  char where[96];
  if (st == RL_EOVERFLOW) {
    if (e && e->nonfinite)
      snprintf(where, sizeof where, "logit at query %.17g, key %.17g", e->i, e->j);
    else
      snprintf(where, sizeof where, "norm of the positional matrix");
    return rl_scheme_overflow(cmd, nm, c->param_file, where);
  }
  return rl_scheme_fail(s, cmd, st, e ? e->j : 0, "--len");
}

static double now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Every property from the core's structure measures (rl_structure_*). */
static int measure(const rl_scheme_opts *so, const char *cmd, const rl_scheme *s, size_t n,
                   double tol, const double *xs, struct props *pr)
{
  size_t d = so->cfg.dim, head = so->cfg.head;
  int rc = 0;
  rl_measure_err e;
  size_t N = rl_structure_rank_len(s, n);
  double *P = malloc(N * N * sizeof *P);
  rl_logit_terms *T = malloc(n * n * sizeof *T);
  if (!P || !T) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto out;
  }
  /* same content: Toeplitz distance, asymmetry, distinct distances */
  rl_status st = rl_structure_matrix(s, head, n, xs, 0, P, NULL, &e);
  if (!st)
    st = rl_structure_toeplitz(P, n, tol, &pr->toe);
  if (st) {
    rc = fail(s, cmd, st, &e);
    goto out;
  }
  pr->unbounded = rl_structure_unbounded(s, head, xs);
  if (pr->unbounded < 0) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto out;
  }
  /* rank of the N x N same-content positional matrix */
  double t0 = now_ns();
  st = rl_structure_matrix(s, head, N, xs, 0, P, NULL, &e);
  pr->pair_ns = (now_ns() - t0) / ((double)N * (double)N);
  if (!st)
    st = rl_structure_rank(P, N, RANK_TOL, &pr->rank);
  if (st) {
    rc = fail(s, cmd, st, &e);
    goto out;
  }
  pr->rank_n = N;
  /* terms over random content */
  st = rl_structure_matrix(s, head, n, xs, d, NULL, T, &e);
  if (st) {
    rc = fail(s, cmd, st, &e);
    goto out;
  }
  unsigned nz = rl_structure_terms(T, n * n);
  static const char *const tn[6] = {"cc", "cp", "pc", "pp", "bias", "mix"};
  char keep[32] = "", drop[32] = "";
  pr->terms[0] = 0;
  for (int k = 0; k < 6; k++) {
    int on = (nz >> k) & 1;
    if (on) {
      if (pr->terms[0])
        strcat(pr->terms, "+");
      strcat(pr->terms, tn[k]);
    }
    if (k < 4) {
      char *dst = on ? keep : drop;
      if (*dst)
        strcat(dst, " ");
      strcat(dst, tn[k]);
    }
  }
  snprintf(pr->expansion, sizeof pr->expansion, "keeps %s", *keep ? keep : "none");
  if (*drop) {
    size_t l = strlen(pr->expansion);
    if (nz & 32)
      snprintf(pr->expansion + l, sizeof pr->expansion - l, "; replaces %s by mix", drop);
    else
      snprintf(pr->expansion + l, sizeof pr->expansion - l, "; drops %s", drop);
  }
  if (nz & 16) {
    size_t l = strlen(pr->expansion);
    snprintf(pr->expansion + l, sizeof pr->expansion - l, "; adds bias");
  }
out:
  free(P);
  free(T);
  return rc;
}

static int run(int argc, char **argv)
{
  static const struct option own_opts[] = {
      {"len", required_argument, NULL, OPT_LEN},
      {"format", required_argument, NULL, OPT_FORMAT},
      {"tol", required_argument, NULL, OPT_TOL},
      {"timings", no_argument, NULL, OPT_TIMINGS},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const struct option *opts = rl_scheme_longopts(own_opts);
  const char *cmd = "compare";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  unsigned long long len = 64;
  double tol = 1e-9;
  int markdown = 0, timings = 0, c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_LEN:
      /* the measures hold len x len matrices */
      if ((r = rl_opt_uint(cmd, "--len", optarg, 2, 4096, &len)))
        return r;
      break;
    case OPT_FORMAT: { /* index 1: markdown */
      static const char *const formats[] = {"csv", "markdown"};
      if ((r = rl_opt_enum(cmd, "--format", optarg, formats, 2, &markdown)))
        return r;
      break;
    }
    case OPT_TIMINGS:
      timings = 1;
      break;
    case OPT_TOL:
      if ((r = rl_opt_double(cmd, "--tol", optarg, &tol)))
        return r;
      if (!(tol > 0) || tol >= 1)
        return rl_usage(cmd, "invalid --tol '%s': expected a number in (0, 1)", optarg);
      break;
    default:
      if ((r = rl_scheme_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_scheme_opts_end(&so, &co, cmd, argc, argv, help, RL_SCHEMES_MAX, "all")))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (co.plot)
    return rl_usage(cmd, "--plot is not available for compare (see --format markdown)");
  size_t n = (size_t)len, d = so.cfg.dim, ns = so.nnames;
  size_t nx = 4 * d + 16 > n ? 4 * d + 16 : n;
  struct props *pr = calloc(ns, sizeof *pr);
  size_t *pc = calloc(ns, sizeof *pc);
  size_t *plen = calloc(ns, sizeof *plen);
  double *xs = malloc(nx * d * sizeof *xs);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  if (!pr || !pc || !plen || !xs || !rng) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  gsl_rng_set(rng, so.cfg.seed);
  for (size_t k = 0; k < nx * d; k++)
    xs[k] = gsl_ran_gaussian(rng, 1.0);
  /* everything measured before any output */
  for (size_t k = 0; k < ns; k++) {
    rl_scheme *s = NULL;
    if ((rc = rl_scheme_opts_alloc(&so, cmd, so.names[k], &s)))
      goto done;
    rc = measure(&so, cmd, s, n, tol, xs, &pr[k]);
    pc[k] = rl_scheme_param_count(s, n);
    plen[k] = rl_scheme_prep_len(s);
    rl_scheme_free(s);
    if (rc)
      goto done;
  }
  if (markdown)
    co.meta = 0; /* a markdown table has no '# key=value' lines */
  if ((rc = rl_sink_open(&sink, cmd, &co, NULL)))
    goto done;
  if (!markdown) {
    rl_out_meta_begin(out);
    rl_scheme_opts_meta(&so, out);
    rl_out_meta_uint(out, "len", len);
    rl_out_meta_num(out, "tol", tol);
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
    if (timings)
      rl_out_meta(out, "pair_ns", "timed: ns per rl_scheme_pair (machine dependent)");
    rl_out_meta(out, "terms", "nonzero over len x len with random content");
  }
  static const char *const cols[] = {
      "scheme", "params", "params_formula", "toeplitz", "relative", "asymmetry", "tells_sign",
      "distinct_distances", "unbounded", "rank", "rank_n", "linear", "prep_len", "pair_ns",
      "terms", "expansion"};
  size_t ncol = sizeof cols / sizeof *cols;
  const size_t ns_col = 13; /* pair_ns: only with --timings */
  if (markdown) {
    char line[1024] = "|";
    char sep[1024] = "|";
    for (size_t i = 0; i < ncol; i++) {
      if (i == ns_col && !timings)
        continue;
      strcat(line, " "), strcat(line, cols[i]), strcat(line, " |");
      strcat(sep, " --- |");
    }
    strcat(line, "\n"), strcat(sep, "\n");
    rl_out_write(out, line, strlen(line));
    rl_out_write(out, sep, strlen(sep));
  } else {
    char hdr[1024] = "";
    for (size_t i = 0; i < ncol; i++) {
      if (i == ns_col && !timings)
        continue;
      if (i)
        strcat(hdr, ",");
      strcat(hdr, cols[i]);
    }
    rl_out_header(out, hdr);
  }
  for (size_t k = 0; k < ns && !out->err; k++) {
    char b[10][RL_NUMFMT_MAX + 8];
    snprintf(b[0], sizeof b[0], "%zu", pc[k]);
    if (markdown) {
      snprintf(b[1], sizeof b[1], "%.3g", pr[k].toe.distance);
      snprintf(b[2], sizeof b[2], "%.3g", pr[k].toe.asymmetry);
      snprintf(b[6], sizeof b[6], "%.0f", pr[k].pair_ns);
    } else {
      rl_numfmt(pr[k].toe.distance, b[1]);
      rl_numfmt(pr[k].toe.asymmetry, b[2]);
      rl_numfmt(pr[k].pair_ns, b[6]);
    }
    snprintf(b[3], sizeof b[3], "%zu", pr[k].toe.distinct);
    snprintf(b[4], sizeof b[4], "%zu", pr[k].rank);
    snprintf(b[5], sizeof b[5], "%zu", pr[k].rank_n);
    snprintf(b[7], sizeof b[7], "%zu", plen[k]);
    const char *f[] = {so.names[k],
                       b[0],
                       formula(so.names[k]),
                       b[1],
                       pr[k].toe.distance <= tol ? "yes" : "no",
                       b[2],
                       pr[k].toe.asymmetry > tol ? "yes" : "no",
                       b[3],
                       pr[k].unbounded ? "yes" : "no",
                       b[4],
                       b[5],
                       pr[k].rank <= 2 * d + 2 && pr[k].rank < pr[k].rank_n ? "yes" : "no",
                       b[7],
                       b[6],
                       pr[k].terms,
                       pr[k].expansion};
    if (markdown) {
      char line[1024] = "|";
      for (size_t i = 0; i < ncol; i++)
        if (i != ns_col || timings)
          strcat(line, " "), strcat(line, f[i]), strcat(line, " |");
      strcat(line, "\n");
      rl_out_write(out, line, strlen(line));
    } else if (timings) {
      rl_out_fields(out, f, ncol);
    } else {
      const char *g[sizeof f / sizeof *f];
      size_t m = 0;
      for (size_t i = 0; i < ncol; i++)
        if (i != ns_col)
          g[m++] = f[i];
      rl_out_fields(out, g, m);
    }
  }
  rc = rl_sink_close(&sink, NULL);
done:
  rl_sink_abort(&sink);
  gsl_rng_free(rng);
  free(xs);
  free(pr);
  free(pc);
  free(plen);
  return rc;
}

const struct rl_cmd rl_cmd_compare = {
    "compare", run, "measured properties of the positional schemes, one row each", help, NULL};
