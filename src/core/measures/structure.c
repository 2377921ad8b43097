/* structure.c: structural measures of a scheme's positional matrix
 * P(i, j) = total - cc (query at position i, key at j), the measures
 * `compare` reports (ropelab.h "structure of the positional matrix").
 *
 *   toeplitz   ||P - T(P)||_F / ||P||_F, T(P) the least-squares Toeplitz
 *              fit: each diagonal j - i = r replaced by its mean (the
 *              orthogonal projection onto Toeplitz matrices, since the
 *              diagonals are disjoint coordinate sets);
 *   asymmetry  ||P - P^T||_F / ||P||_F;
 *   distinct   diagonal means of T(P) that differ by more than
 *              tol * max |mean| (after sorting);
 *   rank       singular values (GSL gsl_linalg_SV_decomp, one-sided
 *              Jacobi-free Golub-Reinsch) above rel_tol of the largest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include "ropelab.h"

rl_status rl_structure_matrix(const rl_scheme *s, size_t head, size_t n, const double *xs,
                              size_t stride, double *P, rl_logit_terms *T, rl_measure_err *e)
{
  size_t pl = rl_scheme_prep_len(s);
  double *pq = malloc(n * pl * sizeof *pq), *pk = malloc(n * pl * sizeof *pk);
  rl_status st = RL_OK;
  if (e)
    *e = (rl_measure_err){0};
  if (!pq || !pk) {
    st = RL_ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < n && !st; i++) {
    const double *x = xs + i * stride;
    st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, (double)i, x, pq + i * pl);
    if (!st)
      st = rl_scheme_prepare(s, head, RL_ROLE_KEY, (double)i, x, pk + i * pl);
    if (st && e)
      e->i = e->j = (double)i;
  }
  for (size_t i = 0; i < n && !st; i++)
    for (size_t j = 0; j < n && !st; j++) {
      rl_logit_terms t;
      st = rl_scheme_pair(s, head, (double)i, (double)j, pq + i * pl, pk + j * pl, &t);
      if (!st && !(isfinite(t.total) && isfinite(t.cc) && isfinite(t.total - t.cc))) {
        st = RL_EOVERFLOW;
        if (e)
          e->nonfinite = 1;
      }
      if (st && e)
        e->i = (double)i, e->j = (double)j;
      if (!st && P)
        P[i * n + j] = t.total - t.cc;
      if (!st && T)
        T[i * n + j] = t;
    }
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

rl_status rl_structure_toeplitz(const double *P, size_t n, double tol, rl_toeplitz *out)
{
  if (n < 1 || !(tol >= 0))
    return RL_EINVAL;
  double *diag = malloc((2 * n - 1) * sizeof *diag);
  if (!diag)
    return RL_ENOMEM;
  double norm = 0, dev = 0, asym = 0, vmax = 0;
  for (size_t i = 0; i < n * n; i++)
    norm += P[i] * P[i];
  size_t nd = 0;
  for (long r = -(long)n + 1; r < (long)n; r++) { /* diagonal j - i = r */
    size_t i0 = r < 0 ? (size_t)-r : 0, i1 = r < 0 ? n : n - (size_t)r;
    double m = 0;
    for (size_t i = i0; i < i1; i++)
      m += P[i * n + (size_t)((long)i + r)];
    m /= (double)(i1 - i0);
    for (size_t i = i0; i < i1; i++) {
      double d = P[i * n + (size_t)((long)i + r)] - m;
      dev += d * d;
    }
    diag[nd++] = m;
    if (fabs(m) > vmax)
      vmax = fabs(m);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double d = P[i * n + j] - P[j * n + i];
      asym += d * d;
    }
  out->distance = norm > 0 ? sqrt(dev / norm) : 0;
  out->asymmetry = norm > 0 ? sqrt(asym / norm) : 0;
  qsort(diag, nd, sizeof *diag, cmp_double);
  out->distinct = 1;
  for (size_t k = 1; k < nd; k++)
    if (diag[k] - diag[k - 1] > tol * vmax)
      out->distinct++;
  free(diag);
  int ok = isfinite(out->distance) && isfinite(out->asymmetry);
  return ok ? RL_OK : RL_EOVERFLOW;
}

rl_status rl_structure_rank(const double *P, size_t n, double rel_tol, size_t *rank)
{
  if (n < 1 || !(rel_tol >= 0))
    return RL_EINVAL;
  for (size_t i = 0; i < n * n; i++)
    if (!isfinite(P[i]))
      return RL_EOVERFLOW;
  gsl_matrix *A = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
  gsl_vector *S = gsl_vector_alloc(n), *w = gsl_vector_alloc(n);
  rl_status st = RL_OK;
  if (!A || !V || !S || !w) {
    st = RL_ENOMEM;
    goto out;
  }
  /* GSL's SVD squares products of entries (its Wilkinson shift), which
   * overflows for entries past ~1e77 and fails to converge: decompose P
   * scaled by a power of two (exact) to max |entry| in [0.5, 1); the
   * rank, relative to the largest singular value, is the same */
  double amax = 0;
  for (size_t i = 0; i < n * n; i++)
    amax = fmax(amax, fabs(P[i]));
  int ex = 0;
  if (amax > 0)
    frexp(amax, &ex);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      gsl_matrix_set(A, i, j, ldexp(P[i * n + j], -ex));
  /* GSL wants M >= N for the thin SVD; the matrix is square. */
  gsl_linalg_SV_decomp(A, V, S, w);
  double s0 = gsl_vector_get(S, 0);
  *rank = 0;
  for (size_t k = 0; k < n; k++)
    if (s0 > 0 && gsl_vector_get(S, k) > rel_tol * s0)
      (*rank)++;
out:
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(w);
  return st;
}

size_t rl_structure_rank_len(const rl_scheme *s, size_t len)
{
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  size_t N = 4 * c->dim + 16;
  /* a learned absolute table (learned, tupe) refusing positions past its
   * max_len rows: its whole table */
  unsigned fl = rl_scheme_get_info(s)->flags;
  if ((fl & RL_SCHEME_ABSOLUTE) && (fl & RL_SCHEME_LEARNED) && c->past == RL_PAST_ERROR &&
      N > c->max_len)
    N = c->max_len;
  return N < len ? len : N;
}

int rl_structure_unbounded(const rl_scheme *s, size_t head, const double *x)
{
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  double far = RL_STRUCTURE_FAR + (double)c->max_len;
  size_t pl = rl_scheme_prep_len(s);
  double *b = malloc(2 * pl * sizeof *b);
  rl_logit_terms t = {0};
  if (!b)
    return -1;
  rl_status st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, far, x, b);
  if (!st)
    st = rl_scheme_prepare(s, head, RL_ROLE_KEY, far - 1, x, b + pl);
  if (!st)
    st = rl_scheme_pair(s, head, far, far - 1, b, b + pl, &t);
  free(b);
  return !st && isfinite(t.total);
}

unsigned rl_structure_terms(const rl_logit_terms *T, size_t count)
{
  unsigned m = 0;
  for (size_t i = 0; i < count; i++) {
    const double v[6] = {T[i].cc, T[i].cp, T[i].pc, T[i].pp, T[i].bias, T[i].mix};
    for (int k = 0; k < 6; k++)
      if (v[k] != 0)
        m |= 1u << k;
  }
  return m;
}
