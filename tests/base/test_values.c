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
  char err[256] = "";
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
  char err[256] = "";
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
  /* 0.1 is not dyadic: STOP 1 is reached to rounding, and the values are
   * j*0.1 rounded once (fma), so 0.3 is the double nearest 3 * 0.1d */
  same("0:1:0.1", (double[]){0, 0.1, 0.2, 3 * 0.1, 0.4, 0.5, 6 * 0.1, 7 * 0.1, 0.8, 0.9, 1}, 11);
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
  refused("1:2", 10, "expected START:STOP:STEP");
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
