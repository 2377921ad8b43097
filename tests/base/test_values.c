/* test_values.c: the sweep list/range syntax (src/core/base/values.c).
 * Expected values are written out by hand from the syntax's definition. */
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

/* text must parse to exactly want[0..n) (bit for bit: each expected value
 * is an exact decimal or the double nearest to it, as START + j STEP is). */
static void same(const char *text, const double *want, size_t n)
{
  double *v;
  size_t cnt;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_values_parse(text, 1000, &v, &cnt, err, sizeof err);
  size_t bad = 0;
  if (!st)
    for (size_t i = 0; i < n && i < cnt; i++)
      bad += v[i] != want[i];
  tap_ok(!st && cnt == n && bad == 0, "'%s' -> %zu values (got %zu, %zu differ) %s", text, n,
         st ? 0 : cnt, bad, err);
  if (!st)
    free(v);
}

/* text must be refused, with a message that contains needle. */
static void refused(const char *text, size_t max, const char *needle)
{
  double *v = NULL;
  size_t cnt = 0;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_values_parse(text, max, &v, &cnt, err, sizeof err);
  tap_ok(st == RL_EINVAL && strstr(err, needle) && !v && cnt == 0,
         "'%s' refused: \"%s\" contains \"%s\"", text, err, needle);
}

int main(void)
{
  same("42", (double[]){42}, 1);
  same("500,1e4,5e5", (double[]){500, 1e4, 5e5}, 3);
  same("1:8:x2", (double[]){1, 2, 4, 8}, 4);
  same("1:9:x2", (double[]){1, 2, 4, 8}, 4);
  same("8:1:x0.5", (double[]){8, 4, 2, 1}, 4);
  same("0:1:0.25", (double[]){0, 0.25, 0.5, 0.75, 1}, 5);
  same("0:1:+0.25", (double[]){0, 0.25, 0.5, 0.75, 1}, 5);
  /* START:STOP steps by 1 (or -1), as Python's range is written: a
   * table's positions 1:4 (issue 36: refused as "not a range") */
  same("1:4", (double[]){1, 2, 3, 4}, 4);
  same("3:1", (double[]){3, 2, 1}, 3);
  same("-2:0", (double[]){-2, -1, 0}, 3);
  same("0.5:2", (double[]){0.5, 1.5}, 2);
  /* 0.1 is not dyadic: each value is the decimal j/10 rounded once (the
   * literals below are the compiler's correctly rounded decimals), not
   * j * 0.1d (3 * 0.1d = 0.30000000000000004, the complaint) */
  same("0:1:0.1", (double[]){0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}, 11);
  same("1:2:0.1", (double[]){1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2}, 11);
  same("0.3:0:-0.1", (double[]){0.3, 0.2, 0.1, 0}, 4);
  same("1e-3:3e-3:1e-3", (double[]){1e-3, 2e-3, 3e-3}, 3);
  /* a factor typed to 16 digits, 2^(1/4) = 1.189207115002721: point 12
   * is 512 K^12 = 4095.999999999998 by repeated products (Python), meant
   * as 4096; the range ends at STOP 1048576 = 512 * 2^11 (point 44) */
  {
    double *v;
    size_t n;
    char err[128];
    rl_status st = rl_values_parse("512:1048576:x1.189207115002721", 1000, &v, &n, err,
                                   sizeof err);
    tap_ok(!st && n == 45 && v[12] == 4096 && v[4] == 1024 && v[44] == 1048576,
           "2^(1/4) to 16 digits: 45 points, 4096 at 12, 1048576 last (n %zu, v12 %.17g, last "
           "%.17g)", n, st ? 0.0 : v[12], st ? 0.0 : v[n - 1]);
    /* every fourth point is 512 2^(j/4) = 512 * 2^(j/4), a power of two
     * (point 28 was 65535.99999999994), and the others within 1e-13 of
     * 512 2^(j/4) computed by exp2 */
    int pow2 = 1, near = 1;
    for (size_t j = 0; !st && j < n; j++) {
      double want = 512.0 * exp2((double)j / 4);
      if (j % 4 == 0)
        pow2 &= v[j] == want;
      near &= fabs(v[j] - want) <= 1e-13 * want;
    }
    tap_ok(!st && pow2 && near, "2^(1/4) to 16 digits: every 4th point a power of two, the "
                                "rest within 1e-13 of 512 2^(j/4)");
    free(v);
  }
  /* exact powers with many digits are kept: 1.5^13 = 194.6195068359375,
   * 1.5^17 = 3^17 / 2^17 = 985.26125335693359375 (exact: 3^17 < 2^53) */
  same("1:1000:x1.5", (double[]){1, 1.5, 2.25, 3.375, 5.0625, 7.59375, 11.390625, 17.0859375,
                                 25.62890625, 38.443359375, 57.6650390625, 86.49755859375,
                                 129.746337890625, 194.6195068359375, 291.92926025390625,
                                 437.893890380859375, 656.8408355712890625,
                                 985.26125335693359375}, 18);
  /* a decimal factor that is no double: 1.1^j = 11^j / 10^j, each the
   * decimal itself (11^j < 10^15), not the power of the double nearest
   * 1.1 (1.1^10 = 2.5937424601000023 that way) */
  same("1:3:x1.1", (double[]){1, 1.1, 1.21, 1.331, 1.4641, 1.61051, 1.771561, 1.9487171,
                              2.14358881, 2.357947691, 2.5937424601, 2.85311670611}, 12);
  same("3:1:-1", (double[]){3, 2, 1}, 3);
  same("5:5:1", (double[]){5}, 1);
  same("1,4:6:1,2", (double[]){1, 4, 5, 6, 2}, 5);
  {
    /* 1K .. 1M: the eleven context lengths of Men et al. 2024's table */
    double w[11];
    for (int i = 0; i < 11; i++)
      w[i] = 1024.0 * (double)(1 << i);
    same("1024:1048576:x2", w, 11);
  }
  refused("", 10, "empty list");
  refused("1,,2", 10, "empty item");
  refused("1,", 10, "empty item");
  refused("abc", 10, "'abc' is not a finite number");
  refused("nan", 10, "'nan' is not a finite number");
  refused("1e999", 10, "'1e999' is not a finite number");
  refused("1:", 10, "expected finite numbers"); /* "1:2" is now 1, 2 (see above) */
  refused("1:2:3:4", 10, "expected START:STOP:STEP");
  refused("1:8:0", 10, "nonzero STEP");
  refused("8:1:1", 10, "nonzero STEP");
  refused("1:8:x1", 10, "factor > 1");
  refused("0:8:x2", 10, "START and STOP > 0");
  refused("1:8:xq", 10, "expected STEP");
  refused("1,2,3", 2, "more than 2 values");
  refused("0:100:1", 10, "more than 10 values");
  return tap_done();
}
