/* fd.h: central finite differences against a backward pass (header-only,
 * for tests/train).
 *
 * For a scalar f of the entries x[0..n), the central difference
 * (f(x + h e_i) - f(x - h e_i)) / 2h differs from df/dx_i by the
 * truncation h^2 f'''/6 plus the rounding of f's two values, about
 * eps |f| / h.  With inputs and weights O(1), h = 1e-5 gives ~1e-10 and
 * ~2e-16 |f| / 1e-5 ~ 2e-11 |f| (|f| <= ~1e2 here), so the error
 * relative to the largest gradient entry is ~1e-9; the tests ask
 * <= 1e-6 (FD_TOL): three orders above what differencing itself leaves,
 * far below the O(1) relative error of a wrong term, factor or sign. */
#ifndef RL_TESTS_TRAIN_FD_H
#define RL_TESTS_TRAIN_FD_H

#include <math.h>
#include <stddef.h>

#define FD_H 1e-5
#define FD_TOL 1e-6

typedef double (*fd_fn)(void *ctx);

/* max_i |fd_i - g_i| / max_i |g_i| over x[0..n) (x restored); inf when
 * the analytic gradient is all zero but differencing finds a slope
 * above its noise (1e-8). */
static inline double fd_rel_err(fd_fn f, void *ctx, double *x, size_t n, const double *g)
{
  double worst = 0, gmax = 0;
  for (size_t i = 0; i < n; i++) {
    double x0 = x[i];
    x[i] = x0 + FD_H;
    double fp = f(ctx);
    x[i] = x0 - FD_H;
    double fm = f(ctx);
    x[i] = x0;
    double d = fabs((fp - fm) / (2 * FD_H) - g[i]);
    if (d > worst || isnan(d))
      worst = isnan(d) ? HUGE_VAL : d;
    if (fabs(g[i]) > gmax)
      gmax = fabs(g[i]);
  }
  if (gmax == 0)
    return worst > 1e-8 ? HUGE_VAL : 0; /* all zero: differencing noise only */
  return worst / gmax;
}

#endif
