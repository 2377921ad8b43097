/* test_structure.c: the structure measures of src/core/measures/structure.c
 * on matrices whose answers are worked by hand. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"
#include "tap.h"

int main(void)
{
  rl_toeplitz t;
  /* a Toeplitz matrix P_ij = f(j - i), f = 0, 1, 4, 9, ... by |j - i|:
   * distance 0; asymmetric only in sign of j - i: f even here, so 0;
   * distinct diagonal means = n (f(0..n-1) distinct) */
  enum { n = 6 };
  double P[n * n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      P[i * n + j] = (double)((j - i) * (j - i));
  tap_ok(!rl_structure_toeplitz(P, n, 1e-12, &t), "toeplitz runs");
  tap_le(t.distance, 0.0, "f(j - i): Toeplitz distance 0 (each diagonal constant, exact mean)");
  tap_le(t.asymmetry, 0.0, "f(|j - i|) symmetric: asymmetry 0");
  tap_ok(t.distinct == n, "distinct diagonal means of (j-i)^2 over |r| < 6: 6 (got %zu)",
         t.distinct);
  /* [[1, 0], [0, 0]]: diagonal 0 holds {1, 0}, mean 1/2, squared
   * deviations 1/4 + 1/4; ||P||_F = 1: distance sqrt(1/2) */
  double Q[4] = {1, 0, 0, 0};
  rl_structure_toeplitz(Q, 2, 1e-12, &t);
  tap_abs_close(t.distance, sqrt(0.5), 2 * DBL_EPSILON, "[[1,0],[0,0]]: distance sqrt(1/2)");
  /* [[0, 1], [0, 0]]: one entry per diagonal, Toeplitz; P - P^T has two
   * entries +-1, so asymmetry sqrt(2) / 1 */
  double U[4] = {0, 1, 0, 0};
  rl_structure_toeplitz(U, 2, 1e-12, &t);
  tap_le(t.distance, 0.0, "[[0,1],[0,0]]: Toeplitz");
  tap_abs_close(t.asymmetry, sqrt(2.0), 2 * DBL_EPSILON, "[[0,1],[0,0]]: asymmetry sqrt(2)");
  /* ranks: u v^T + w z^T (independent) has rank 2; the identity n; 0 */
  double R[n * n], I[n * n], Z[n * n] = {0};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      R[i * n + j] = (double)(i + 1) * (double)(j * j + 1) + (double)(i % 2) * (double)(j + 3);
      I[i * n + j] = i == j;
    }
  size_t rk;
  rl_structure_rank(R, n, 1e-10, &rk);
  tap_ok(rk == 2, "rank of u v^T + w z^T: 2 (got %zu)", rk);
  rl_structure_rank(I, n, 1e-10, &rk);
  tap_ok(rk == n, "rank of I_6: 6 (got %zu)", rk);
  rl_structure_rank(Z, n, 1e-10, &rk);
  tap_ok(rk == 0, "rank of 0: 0 (got %zu)", rk);
  Z[3] = NAN;
  tap_ok(rl_structure_rank(Z, n, 1e-10, &rk) == RL_EOVERFLOW, "a NaN entry: RL_EOVERFLOW");
  /* ALiBi, head 0 of 8: slope 2^-1, positional(i, j) = -|i - j| / 2
   * exactly (Press et al. 2022); Toeplitz, symmetric, n distinct */
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 8;
  rl_scheme *s;
  rl_scheme_alloc("alibi", &c, &s, NULL);
  double x[8] = {1, -2, 0.5, 3, 0, 1, 1, -1}, A[n * n];
  rl_measure_err e;
  tap_ok(!rl_structure_matrix(s, 0, n, x, 0, A, NULL, &e), "alibi matrix");
  double worst = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      worst = fmax(worst, fabs(A[i * n + j] + 0.5 * abs(i - j)));
  tap_le(worst, 0.0, "alibi positional = -|i - j| / 2 exactly");
  rl_structure_toeplitz(A, n, 1e-9, &t);
  tap_ok(t.distinct == n, "alibi: %d distinct |r| (got %zu)", n, t.distinct);
  tap_ok(rl_structure_unbounded(s, 0, x) == 1, "alibi: finite far past any table");
  rl_logit_terms T[n * n];
  double xs[n * 8];
  for (int k = 0; k < n * 8; k++)
    xs[k] = sin(k + 1.0);
  rl_structure_matrix(s, 0, n, xs, 8, NULL, T, &e);
  tap_ok(rl_structure_terms(T, n * n) == (1u | 16u), "alibi terms: cc and bias only");
  rl_scheme_free(s);
  /* learned under --past error has no row 2^20 + max_len */
  rl_scheme_alloc("learned", &c, &s, NULL);
  tap_ok(rl_structure_unbounded(s, 0, x) == 0, "learned: no logit past its table");
  tap_ok(rl_structure_rank_len(s, 16) == 4 * 8 + 16, "rank_len: 4d + 16 = 48 below the table");
  tap_ok(rl_structure_rank_len(s, 64) == 64, "rank_len: at least len");
  rl_scheme_free(s);
  return tap_done();
}
