/* structure_props.c: one scheme's measured properties, what `ropelab
 * compare` writes a row of, from the structure measures (structure.c) on
 * positional matrices P(i, j) = total - cc, and compare's settings
 * declared once (param.h).
 *
 *   toeplitz, asymmetry, distinct  P with the same content at every
 *                position (a relative scheme gives exactly a Toeplitz P)
 *   unbounded    a finite logit at position 2^20 + max_len (no table
 *                limit); not a claim that it extrapolates well
 *   rank         numerical rank of P at rank_n x rank_n, singular values
 *                above RL_COMPARE_RANK_TOL of the largest; linear when
 *                rank <= 2d + 2 < rank_n (a feature map bounded by d)
 *   pair_ns      timed ns per rl_scheme_pair (machine dependent)
 *   terms        which of cc, cp, pc, pp, bias, mix are nonzero over a
 *                len x len matrix with random content per position. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"

/* ---- the settings ---- */
static const char *const format_names[] = {"csv", "markdown", NULL};

#define FIELD(f) offsetof(rl_compare_settings, f)
/* --tol's bounds and messages; the option itself (below) prints no range
 * in its help, which says (0, 1) in words */
static const rl_param p_tol_bounds = {
    .key = "tol", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN | RL_PF_HI_OPEN,
    .offset = FIELD(tol), .lo = 0, .hi = 1, .expect = "a number in (0, 1)"};
static rl_status tol_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)d;
  return rl_param_parse(&p_tol_bounds, obj, arg, err, n);
}
static int tol_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  return rl_param_format(&p_tol_bounds, obj, buf, n);
}
static void tol_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_compare_settings *)obj)->tol = 1e-9;
}

static const rl_param p_len = {
    .key = "len", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META, .offset = FIELD(len),
    .lo = 2, .hi = 4096, /* the measures hold len x len matrices */
    .dflt = 64, .metavar = "N", .unit = "tokens",
    .help = "sequence length of the measured matrices, >= 2"};
static const rl_param p_tol = {
    .key = "tol", .kind = RL_PK_CUSTOM, .flags = RL_PF_NUMBERS | RL_PF_NO_META,
    .offset = FIELD(tol), .parse = tol_parse, .format = tol_format, .reset = tol_reset,
    .expect = "a number in (0, 1)", .metavar = "X", .dflt_text = "1e-9",
    .help = "relative tolerance of the verdicts, > 0"};
static const rl_param p_format = {
    .key = "format", .kind = RL_PK_ENUM, .flags = RL_PF_NO_META, .offset = FIELD(format),
    .names = format_names, .dflt = RL_COMPARE_CSV, .metavar = "F", .help = "csv or markdown"};
static const rl_param p_timings = {
    .key = "timings", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = FIELD(timings),
    .dflt = 0, .set_to = 1, .help = "add pair_ns, the timed cost of one logit (varies by run)"};
static const rl_param *const list[] = {&p_len, &p_tol, &p_format, &p_timings, NULL};

const rl_param *const *rl_compare_param_list(void) { return list; }

rl_status rl_compare_contents(size_t len, size_t d, unsigned long seed, double **xs)
{
  size_t nx = 4 * d + 16 > len ? 4 * d + 16 : len;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  *xs = malloc(nx * d * sizeof **xs);
  if (!rng || !*xs) {
    gsl_rng_free(rng);
    free(*xs);
    *xs = NULL;
    return RL_ENOMEM;
  }
  gsl_rng_set(rng, seed);
  for (size_t k = 0; k < nx * d; k++)
    (*xs)[k] = gsl_ran_gaussian(rng, 1.0);
  gsl_rng_free(rng);
  return RL_OK;
}

/* ---- the properties ---- */
static double now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* the terms kept, and what replaces or drops the others, in words */
static void describe_terms(unsigned nz, rl_scheme_props *pr)
{
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
  size_t l = (size_t)snprintf(pr->expansion, sizeof pr->expansion, "keeps %s",
                              *keep ? keep : "none");
  if (*drop)
    l += (size_t)snprintf(pr->expansion + l, sizeof pr->expansion - l,
                          (nz & 32) ? "; replaces %s by mix" : "; drops %s", drop);
  if (nz & 16)
    snprintf(pr->expansion + l, sizeof pr->expansion - l, "; adds bias");
}

rl_status rl_structure_props(const rl_scheme *s, size_t head, size_t n, double tol,
                             const double *xs, rl_scheme_props *pr, rl_measure_err *e)
{
  size_t d = rl_scheme_get_cfg(s)->dim, N = rl_structure_rank_len(s, n);
  memset(pr, 0, sizeof *pr);
  *e = (rl_measure_err){0};
  double *P = malloc(N * N * sizeof *P);
  rl_logit_terms *T = malloc(n * n * sizeof *T);
  rl_status st = !P || !T ? RL_ENOMEM : RL_OK;
  /* same content: Toeplitz distance, asymmetry, distinct distances */
  if (!st && !(st = rl_structure_matrix(s, head, n, xs, 0, P, NULL, e)))
    st = rl_structure_toeplitz(P, n, tol, &pr->toe);
  if (!st && (pr->unbounded = rl_structure_unbounded(s, head, xs)) < 0)
    st = RL_ENOMEM;
  /* rank of the N x N same-content positional matrix, timed */
  double t0 = now_ns();
  if (!st && !(st = rl_structure_matrix(s, head, N, xs, 0, P, NULL, e))) {
    pr->pair_ns = (now_ns() - t0) / ((double)N * (double)N);
    st = rl_structure_rank(P, N, RL_COMPARE_RANK_TOL, &pr->rank);
  }
  pr->rank_n = N;
  /* terms over random content */
  if (!st && !(st = rl_structure_matrix(s, head, n, xs, d, NULL, T, e)))
    describe_terms(rl_structure_terms(T, n * n), pr);
  free(P);
  free(T);
  pr->params = rl_scheme_param_count(s, n);
  pr->params_formula = rl_scheme_param_formula(s);
  pr->prep_len = rl_scheme_prep_len(s);
  pr->relative = pr->toe.distance <= tol;
  pr->tells_sign = pr->toe.asymmetry > tol;
  pr->linear = pr->rank <= 2 * d + 2 && pr->rank < pr->rank_n;
  return st;
}
