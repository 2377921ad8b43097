/* test_grid.c: grids of relative distances. */
#include <math.h>
#include "ropelab.h"
#include "tap.h"

static void test_linear(void)
{
  rl_grid g;
  int ok = rl_grid_linear(0, 256, 1, &g) == RL_OK && g.points == 257;
  int vals = ok;
  for (size_t j = 0; ok && j < g.points; j++)
    vals &= rl_grid_at(&g, j) == (double)j;
  tap_ok(ok, "0:1:256 has 257 rows");
  tap_ok(vals, "0:1:256 row j == j");
  tap_ok(ok && rl_grid_is_exact(&g), "0:1:256 is exact");

  /* 0:0.1:1: (1 - 0)/0.1 = 10 only up to rounding; the slack must keep
   * the eleventh row, and that row must be 1, not 1 + 1 ulp */
  ok = rl_grid_linear(0, 1, 0.1, &g) == RL_OK && g.points == 11;
  tap_ok(ok, "0:0.1:1 has 11 rows");
  tap_ok(ok && rl_grid_at(&g, 10) == 1.0, "0:0.1:1 last row == 1");
  /* row j = fl(j * fl(0.1)): fl(0.1) is 0.1 (1 + d), |d| <= 2^-53, so
   * j * fl(0.1) is within 2^-53 relative of j/10, and one more rounding:
   * within 1 ulp of j/10 (not always the nearest: 3 * fl(0.1) is a near
   * tie between the neighbours of 0.3).  Against the double nearest j/10
   * (within 0.5) the difference is < 1.5 ulps and a whole number: <= 1. */
  double worst = 0;
  for (size_t j = 1; ok && j < 10; j++)
    worst = fmax(worst, tap_ulps(rl_grid_at(&g, j), (double)j / 10.0));
  tap_le(worst, 1.0, "0:0.1:1 row j vs j/10 (ulps)");
  tap_ok(ok && !rl_grid_is_exact(&g), "0:0.1:1 is not exact (0.1 is not a dyadic)");

  ok = rl_grid_linear(-4, 4, 0.125, &g) == RL_OK && g.points == 65;
  tap_ok(ok && rl_grid_is_exact(&g) && rl_grid_at(&g, 64) == 4.0 && rl_grid_at(&g, 1) == -3.875,
         "-4:0.125:4: 65 rows, exact, ends -4 .. 4");
  /* 0:3:10 stops at 9, the largest grid value <= to */
  ok = rl_grid_linear(0, 10, 3, &g) == RL_OK && g.points == 4;
  tap_ok(ok && rl_grid_at(&g, 3) == 9.0, "0:3:10 has rows 0,3,6,9");
  ok = rl_grid_linear(5, 5, 1, &g) == RL_OK && g.points == 1;
  tap_ok(ok && rl_grid_at(&g, 0) == 5.0, "5:1:5 is the single row 5");
  ok = rl_grid_linear(0, RL_POS_MAX, 0x1p20, &g) == RL_OK && g.points == 2049;
  tap_ok(ok && rl_grid_at(&g, 2048) == RL_POS_MAX && rl_grid_is_exact(&g),
         "0:2^20:2^31 has 2049 rows ending at 2^31, exact");
}

static void test_log(void)
{
  rl_grid g;
  int ok = rl_grid_log(1, 1e6, 7, &g) == RL_OK && g.points == 7;
  tap_ok(ok && rl_grid_at(&g, 0) == 1.0 && rl_grid_at(&g, 6) == 1e6, "log 1..1e6: ends exact");
  /* interior rows 10^j = pow(1e6, j/6): t = j/6 is rounded by up to
   * 2^-54, which pow amplifies by ln(1e6) = 13.8 into a relative error of
   * 13.8 * 2^-54, at most 6.9 ulps; pow itself adds < 1: tolerance 8. */
  double worst = 0;
  for (size_t j = 1; ok && j < 6; j++)
    worst = fmax(worst, tap_ulps(rl_grid_at(&g, j), pow(10.0, (double)j)));
  tap_le(worst, 8.0, "log 1..1e6, 7 points: row j = 10^j (ulps)");
  ok = rl_grid_log(3, 0x1p31, 100, &g) == RL_OK;
  tap_ok(ok && rl_grid_at(&g, 99) == 0x1p31 && rl_grid_at(&g, 0) == 3.0,
         "log 3..2^31, 100 points: ends exact");
  int mono = ok;
  for (size_t j = 1; ok && j < g.points; j++)
    mono &= rl_grid_at(&g, j) > rl_grid_at(&g, j - 1);
  tap_ok(mono && !rl_grid_is_exact(&g), "log grid increasing, not exact");
  ok = rl_grid_log(7, 7, 1, &g) == RL_OK && g.points == 1;
  tap_ok(ok && rl_grid_at(&g, 0) == 7.0, "log with 1 point is from alone");
}

static void test_errors(void)
{
  rl_grid g;
  tap_ok(rl_grid_linear(0, 10, 0, &g) == RL_EINVAL, "step 0 -> RL_EINVAL");
  tap_ok(rl_grid_linear(0, 10, -1, &g) == RL_EINVAL, "step -1 -> RL_EINVAL");
  tap_ok(rl_grid_linear(10, 0, 1, &g) == RL_EINVAL, "to < from -> RL_EINVAL");
  tap_ok(rl_grid_linear(NAN, 10, 1, &g) == RL_EINVAL, "from nan -> RL_EINVAL");
  tap_ok(rl_grid_linear(0, NAN, 1, &g) == RL_EINVAL, "to nan -> RL_EINVAL");
  tap_ok(rl_grid_linear(0, 10, NAN, &g) == RL_EINVAL, "step nan -> RL_EINVAL");
  tap_ok(rl_grid_linear(0, INFINITY, 1, &g) == RL_EINVAL, "to inf -> RL_EINVAL");
  tap_ok(rl_grid_linear(0, 2147483649.0, 1e6, &g) == RL_ERANGE, "to = 2^31+1 -> RL_ERANGE");
  tap_ok(rl_grid_linear(-2147483649.0, 0, 1e6, &g) == RL_ERANGE, "from = -(2^31+1) -> RL_ERANGE");
  tap_ok(rl_grid_log(0, 10, 5, &g) == RL_EINVAL, "log from 0 -> RL_EINVAL");
  tap_ok(rl_grid_log(10, 1, 5, &g) == RL_EINVAL, "log to < from -> RL_EINVAL");
  tap_ok(rl_grid_log(1, 10, 0, &g) == RL_EINVAL, "log 0 points -> RL_EINVAL");
  tap_ok(rl_grid_log(1, 1, 5, &g) == RL_EINVAL, "log from == to, 5 points -> RL_EINVAL");
  tap_ok(rl_grid_log(1, NAN, 5, &g) == RL_EINVAL, "log to nan -> RL_EINVAL");
  tap_ok(rl_grid_log(1, 4294967296.0, 5, &g) == RL_ERANGE, "log to = 2^32 -> RL_ERANGE");
}

int main(void)
{
  test_linear();
  test_log();
  test_errors();
  return tap_done();
}
