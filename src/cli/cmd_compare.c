/* cmd_compare.c: `ropelab compare`, one row per scheme of properties
 * measured with the core, never typed in: each comes from positional
 * matrices P(i, j) = total - cc (query position i, key j) built with
 * rl_scheme_prepare / rl_scheme_pair.
 *
 *   toeplitz     ||P - T(P)||_F / ||P||_F, T(P) the best Toeplitz fit in
 *                least squares (each diagonal replaced by its mean);
 *                P with the same content at every position, so that a
 *                relative scheme gives exactly a Toeplitz P (0 if P = 0)
 *   asymmetry    ||P - P^T||_F / ||P||_F, same content: whether the
 *                scheme tells i - j from j - i
 *   distinct     number of distinct diagonal means of T(P) among the
 *                2 len - 1 distances, to a relative tolerance --tol of
 *                max |mean| (for non-Toeplitz schemes: the distances the
 *                Toeplitz fit, i.e. distance alone, separates)
 *   extrapolates whether prepare and pair succeed at position 2^20 +
 *                max_len, past any training length (under --past)
 *   rank         numerical rank of P at N = 4d + 16 (capped at the table
 *                length of learned/tupe): singular values (GSL
 *                gsl_linalg_SV_decomp) above 1e-10 of the largest; a
 *                per-position feature map of dimension rank exists, so
 *                linear = yes when rank <= 2d + 2 < N (bounded by d, not
 *                growing with N), no otherwise
 *   pair_ns      timed ns per rl_scheme_pair over the rank matrix
 *   terms        which of cc, cp, pc, pp, bias, mix are nonzero over a
 *                len x len matrix with random content per position. */
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rowfmt.h"
#include "scheme_opts.h"
#include "sink.h"

enum { OPT_LEN = RL_OPT_FIRST_CMD, OPT_FORMAT, OPT_TOL };

#define RANK_TOL 1e-10 /* entries are differences of O(1) logits: error ~ d eps */
#define FAR_POS 1048576.0

static void help(FILE *fp)
{
  fputs("usage: ropelab compare [OPTIONS]\n"
        "\n"
        "One row per scheme of measured properties (see the metadata for each\n"
        "definition): parameter count at --len, Toeplitz distance, asymmetry,\n"
        "distinct distances, extrapolation, numerical rank and linear-attention\n"
        "verdict, cost per logit, and which logit terms the scheme keeps.\n"
        "\n"
        "      --scheme LIST  comma-separated schemes, or 'all' (default all)\n"
        "      --len N        sequence length of the measured matrices, >= 2 (default 64)\n"
        "      --tol X        relative tolerance of the verdicts, > 0 (default 1e-9)\n"
        "      --format F     csv or markdown (default csv)\n"
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

/* P (N x N, row-major) of positional or of all terms; content same
 * (x at every position) or per position (xs + i d).  ns: time per pair. */
static rl_status build(const rl_scheme *s, size_t head, size_t N, const double *xs, int same,
                       double *P, rl_logit_terms *T, double *ns, double *badpos)
{
  size_t pl = rl_scheme_prep_len(s), d = rl_scheme_get_cfg(s)->dim;
  double *pq = malloc(N * pl * sizeof *pq), *pk = malloc(N * pl * sizeof *pk);
  rl_status st = RL_OK;
  if (!pq || !pk) {
    st = RL_ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < N && !st; i++) {
    *badpos = (double)i;
    const double *x = xs + (same ? 0 : i * d);
    st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, (double)i, x, pq + i * pl);
    if (!st)
      st = rl_scheme_prepare(s, head, RL_ROLE_KEY, (double)i, x, pk + i * pl);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t i = 0; i < N && !st; i++)
    for (size_t j = 0; j < N && !st; j++) {
      rl_logit_terms t;
      st = rl_scheme_pair(s, head, (double)i, (double)j, pq + i * pl, pk + j * pl, &t);
      if (P)
        P[i * N + j] = t.total - t.cc;
      if (T)
        T[i * N + j] = t;
    }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (ns)
    *ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
          ((double)N * (double)N);
out:
  free(pq);
  free(pk);
  return st;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

struct props {
  double toeplitz, asym;
  size_t distinct, rank, rank_n;
  int extrapolates;
  double pair_ns;
  char terms[64], expansion[96];
};

static int measure(const rl_scheme_opts *so, const char *cmd, const rl_scheme *s, size_t n,
                   double tol, const double *xs, struct props *pr)
{
  size_t d = so->cfg.dim, head = so->head;
  const rl_scheme_cfg *cfg = rl_scheme_get_cfg(s);
  int rc = 0;
  double bad = 0;
  size_t N = 4 * d + 16;
  const char *nm = rl_scheme_get_info(s)->name;
  if ((!strcmp(nm, "learned") || !strcmp(nm, "tupe")) && cfg->past == RL_PAST_ERROR &&
      N > cfg->max_len)
    N = cfg->max_len;
  if (N < n)
    N = n;
  double *P = malloc(N * N * sizeof *P), *diag = malloc(2 * n * sizeof *diag);
  rl_logit_terms *T = malloc(n * n * sizeof *T);
  gsl_matrix *A = NULL, *V = NULL;
  gsl_vector *S = NULL, *w = NULL;
  if (!P || !diag || !T) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto out;
  }
  /* same content: Toeplitz distance, asymmetry, distinct distances */
  rl_status st = build(s, head, n, xs, 1, P, NULL, NULL, &bad);
  if (st) {
    rc = rl_scheme_fail(s, cmd, st, bad, "--len");
    goto out;
  }
  double norm = 0, dev = 0, asym = 0, vmax = 0;
  for (size_t i = 0; i < n * n; i++)
    norm += P[i] * P[i];
  size_t nd = 0;
  for (long r = -(long)n + 1; r < (long)n; r++) { /* diagonal j - i = r */
    double m = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++) {
      long j = (long)i + r;
      if (j >= 0 && j < (long)n)
        m += P[i * n + (size_t)j], cnt++;
    }
    m /= (double)cnt;
    for (size_t i = 0; i < n; i++) {
      long j = (long)i + r;
      if (j >= 0 && j < (long)n) {
        double e = P[i * n + (size_t)j] - m;
        dev += e * e;
      }
    }
    diag[nd++] = m;
    if (fabs(m) > vmax)
      vmax = fabs(m);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double e = P[i * n + j] - P[j * n + i];
      asym += e * e;
    }
  pr->toeplitz = norm > 0 ? sqrt(dev / norm) : 0;
  pr->asym = norm > 0 ? sqrt(asym / norm) : 0;
  qsort(diag, nd, sizeof *diag, cmp_double);
  pr->distinct = 1;
  for (size_t k = 1; k < nd; k++)
    if (diag[k] - diag[k - 1] > tol * vmax)
      pr->distinct++;

  /* past any training length */
  {
    double far = FAR_POS + (double)cfg->max_len;
    size_t pl = rl_scheme_prep_len(s);
    double *b = calloc(2 * pl + d, sizeof *b);
    rl_logit_terms t;
    if (!b) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto out;
    }
    st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, far, xs, b + d);
    if (!st)
      st = rl_scheme_prepare(s, head, RL_ROLE_KEY, far - 1, xs, b + d + pl);
    if (!st)
      st = rl_scheme_pair(s, head, far, far - 1, b + d, b + d + pl, &t);
    pr->extrapolates = !st && isfinite(t.total);
    free(b);
  }

  /* rank of the N x N same-content positional matrix */
  free(P);
  P = malloc(N * N * sizeof *P);
  if (!P) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto out;
  }
  st = build(s, head, N, xs, 1, P, NULL, &pr->pair_ns, &bad);
  if (st) {
    rc = rl_scheme_fail(s, cmd, st, bad, "--len");
    goto out;
  }
  A = gsl_matrix_alloc(N, N);
  V = gsl_matrix_alloc(N, N);
  S = gsl_vector_alloc(N);
  w = gsl_vector_alloc(N);
  if (!A || !V || !S || !w) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto out;
  }
  for (size_t i = 0; i < N; i++)
    for (size_t j = 0; j < N; j++)
      gsl_matrix_set(A, i, j, P[i * N + j]);
  gsl_linalg_SV_decomp(A, V, S, w);
  double s0 = gsl_vector_get(S, 0);
  pr->rank = 0;
  for (size_t k = 0; k < N; k++)
    if (s0 > 0 && gsl_vector_get(S, k) > RANK_TOL * s0)
      pr->rank++;
  pr->rank_n = N;

  /* terms over random content */
  st = build(s, head, n, xs, 0, NULL, T, NULL, &bad);
  if (st) {
    rc = rl_scheme_fail(s, cmd, st, bad, "--len");
    goto out;
  }
  int nz[6] = {0};
  for (size_t i = 0; i < n * n; i++) {
    const double v[6] = {T[i].cc, T[i].cp, T[i].pc, T[i].pp, T[i].bias, T[i].mix};
    for (int k = 0; k < 6; k++)
      if (v[k] != 0)
        nz[k] = 1;
  }
  static const char *const tn[6] = {"cc", "cp", "pc", "pp", "bias", "mix"};
  char keep[32] = "", drop[32] = "";
  pr->terms[0] = 0;
  for (int k = 0; k < 6; k++) {
    if (nz[k]) {
      if (pr->terms[0])
        strcat(pr->terms, "+");
      strcat(pr->terms, tn[k]);
    }
    if (k < 4) {
      char *dst = nz[k] ? keep : drop;
      if (*dst)
        strcat(dst, " ");
      strcat(dst, tn[k]);
    }
  }
  snprintf(pr->expansion, sizeof pr->expansion, "keeps %s", *keep ? keep : "none");
  if (*drop) {
    size_t l = strlen(pr->expansion);
    if (nz[5])
      snprintf(pr->expansion + l, sizeof pr->expansion - l, "; replaces %s by mix", drop);
    else
      snprintf(pr->expansion + l, sizeof pr->expansion - l, "; drops %s", drop);
  }
  if (nz[4]) {
    size_t l = strlen(pr->expansion);
    snprintf(pr->expansion + l, sizeof pr->expansion - l, "; adds bias");
  }
out:
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(w);
  free(P);
  free(diag);
  free(T);
  return rc;
}

static int run(int argc, char **argv)
{
  static const struct option opts[] = {
      {"len", required_argument, NULL, OPT_LEN},
      {"format", required_argument, NULL, OPT_FORMAT},
      {"tol", required_argument, NULL, OPT_TOL},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const char *cmd = "compare";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  unsigned long long len = 64;
  double tol = 1e-9;
  int markdown = 0, c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_LEN:
      /* the measures hold len x len matrices */
      if ((r = rl_opt_uint(cmd, "--len", optarg, 2, 4096, &len)))
        return r;
      break;
    case OPT_FORMAT:
      if (!strcmp(optarg, "markdown"))
        markdown = 1;
      else if (!strcmp(optarg, "csv"))
        markdown = 0;
      else
        return rl_usage(cmd, "invalid --format '%s': expected csv or markdown", optarg);
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
  if (co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if ((r = rl_opt_no_args(cmd, argc, argv)) ||
      (r = rl_scheme_opts_finish(&so, cmd, RL_SCHEMES_MAX, "all")))
    return r;
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
    rl_out_meta(out, "extrapolates", "prepare and pair succeed at position 2^20 + max_len");
    rl_out_meta(out, "rank", "singular values of P (rank_n x rank_n) above 1e-10 of the "
                             "largest; linear = rank <= 2 d + 2");
    rl_out_meta(out, "pair_ns", "timed: ns per rl_scheme_pair (machine dependent)");
    rl_out_meta(out, "terms", "nonzero over len x len with random content");
  }
  static const char *const cols[] = {
      "scheme", "params", "params_formula", "toeplitz", "relative", "asymmetry", "tells_sign",
      "distinct_distances", "extrapolates", "rank", "rank_n", "linear", "prep_len", "pair_ns",
      "terms", "expansion"};
  size_t ncol = sizeof cols / sizeof *cols;
  if (markdown) {
    char line[1024] = "|";
    char sep[1024] = "|";
    for (size_t i = 0; i < ncol; i++) {
      strcat(line, " "), strcat(line, cols[i]), strcat(line, " |");
      strcat(sep, " --- |");
    }
    strcat(line, "\n"), strcat(sep, "\n");
    rl_out_write(out, line, strlen(line));
    rl_out_write(out, sep, strlen(sep));
  } else {
    char hdr[1024] = "";
    for (size_t i = 0; i < ncol; i++) {
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
      snprintf(b[1], sizeof b[1], "%.3g", pr[k].toeplitz);
      snprintf(b[2], sizeof b[2], "%.3g", pr[k].asym);
      snprintf(b[6], sizeof b[6], "%.0f", pr[k].pair_ns);
    } else {
      rl_numfmt(pr[k].toeplitz, b[1]);
      rl_numfmt(pr[k].asym, b[2]);
      rl_numfmt(pr[k].pair_ns, b[6]);
    }
    snprintf(b[3], sizeof b[3], "%zu", pr[k].distinct);
    snprintf(b[4], sizeof b[4], "%zu", pr[k].rank);
    snprintf(b[5], sizeof b[5], "%zu", pr[k].rank_n);
    snprintf(b[7], sizeof b[7], "%zu", plen[k]);
    const char *f[] = {so.names[k],
                       b[0],
                       formula(so.names[k]),
                       b[1],
                       pr[k].toeplitz <= tol ? "yes" : "no",
                       b[2],
                       pr[k].asym > tol ? "yes" : "no",
                       b[3],
                       pr[k].extrapolates ? "yes" : "no",
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
        strcat(line, " "), strcat(line, f[i]), strcat(line, " |");
      strcat(line, "\n");
      rl_out_write(out, line, strlen(line));
    } else {
      rl_out_fields(out, f, ncol);
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
    "compare", run, "measured properties of the positional schemes, one row each", help};
