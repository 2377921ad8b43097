/* grid.c: the relative distances a curve is evaluated at. */
#include <math.h>
#include "ropelab.h"

static int in_range(double x)
{
  return isfinite(x) && fabs(x) <= RL_POS_MAX;
}

rl_status rl_grid_linear(double from, double to, double step, rl_grid *g)
{
  if (!isfinite(from) || !isfinite(to) || !isfinite(step) || !(step > 0) || to < from)
    return RL_EINVAL;
  if (!in_range(from) || !in_range(to))
    return RL_ERANGE;
  /* slack of 1e-12 relative so that 0:0.1:1 includes 1 despite rounding */
  double span = (to - from) / step;
  double cnt = floor(span * (1.0 + 1e-12) + 1e-12) + 1.0;
  if (!(cnt >= 1.0) || cnt > 1e15)
    return RL_EINVAL;
  g->from = from;
  g->to = to;
  g->step = step;
  g->points = (size_t)cnt;
  g->log = 0;
  return RL_OK;
}

rl_status rl_grid_log(double from, double to, size_t points, rl_grid *g)
{
  if (!isfinite(from) || !isfinite(to) || !(from > 0) || points < 1 || to < from ||
      (points > 1 && !(to > from)))
    return RL_EINVAL;
  if (!in_range(to))
    return RL_ERANGE;
  g->from = from;
  g->to = to;
  g->step = 0;
  g->points = points;
  g->log = 1;
  return RL_OK;
}

double rl_grid_at(const rl_grid *g, size_t j)
{
  if (g->log) {
    if (g->points == 1 || j == 0)
      return g->from;
    if (j + 1 == g->points)
      return g->to; /* exact end points, not exp(log(to)) */
    double t = (double)j / (double)(g->points - 1), q = g->to / g->from;
    if (isfinite(q))
      return g->from * pow(q, t);
    /* to / from overflows (--from 1e-300 --to 1e9 gave r = inf): each
     * power is finite and the product lies between from and to */
    return pow(g->from, 1 - t) * pow(g->to, t);
  }
  double r = fma((double)j, g->step, g->from);
  return r > g->to ? g->to : r; /* the slack never steps past to */
}

int rl_grid_is_exact(const rl_grid *g)
{
  if (g->log)
    return 0;
  /* from + j*step is exact for every row when from and step are integer
   * multiples of 2^-e and the largest value times 2^e stays below 2^53. */
  for (int e = 0; e <= 30; e++) {
    double sc = ldexp(1.0, e);
    double a = g->from * sc, b = g->step * sc;
    if (a == nearbyint(a) && b == nearbyint(b)) {
      double hi = fmax(fabs(g->from), fabs(g->from + (double)(g->points - 1) * g->step));
      return hi * sc < 0x1p53;
    }
  }
  return 0;
}

/* ropelab.h says where each comes from; 0 points: no log grid */
const rl_grid_default rl_grid_fig2 = {0, 256, 1, 1, 256};
const rl_grid_default rl_grid_table = {0, 15, 1, 0, 0};
const rl_grid_default rl_grid_pi_fig5 = {0, 4095, 1, 0, 0};
