/* test_numfmt17.c: rl_numfmt17 (src/core/io/numfmt.c) round-trips.  Reference:
 * glibc's strtod, which rounds correctly; a second reference is glibc's
 * correctly rounded "%.17g": the two strings must agree except when the
 * 17-digit value is within the 0.0055-unit computing error of a tie
 * (numfmt.c), which a random double hits with probability ~1e-2; we
 * require round trip always and agreement for >= 95% of samples. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

static uint64_t state = 88172645463325252ull;
static uint64_t next(void) /* xorshift64: any bit pattern */
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(void)
{
  int fail = 0;
  size_t n = 2000000, bad = 0, same17 = 0, finite = 0, fast = 0;
  char buf[RL_NUMFMT_MAX], ref[64];
  for (size_t i = 0; i < n; i++) {
    double x;
    if (i % 2) {
      uint64_t b = next();
      memcpy(&x, &b, sizeof x);
    } else { /* the logit range: |x| in [1e-12, 1e12] */
      x = ldexp((double)(next() >> 11), -53) * pow(10.0, (double)(next() % 25) - 12.0);
      if (next() & 1)
        x = -x;
    }
    if (!isfinite(x))
      continue;
    finite++;
    int len = rl_numfmt17(x, buf);
    if (len <= 0 || len >= RL_NUMFMT_MAX || strlen(buf) != (size_t)len ||
        strtod(buf, NULL) != x) {
      if (bad++ < 5)
        printf("# %.17g printed as '%s'\n", x, buf);
    }
    if (fabs(x) < 1e-10 || fabs(x) > 1e40) /* outside the fast path: rl_numfmt */
      continue;
    fast++;
    snprintf(ref, sizeof ref, "%.17g", x);
    same17 += !strcmp(ref, buf);
  }
  printf("%s: %zu of %zu finite doubles read back exactly\n", bad ? "not ok" : "ok",
         finite - bad, finite);
  fail |= bad != 0;
  int agree = fast > 0 && same17 >= fast * 95 / 100;
  printf("%s: %zu of %zu in the fast range equal to glibc %%.17g (need 95%%)\n",
         agree ? "ok" : "not ok", same17, fast);
  fail |= !agree;
  /* hand cases: %g notation */
  static const struct { double x; const char *s; } hand[] = {
      {0.5, "0.5"}, {-1.5, "-1.5"}, {100, "100"}, {1e-4, "0.0001"}, {0.1, "0.10000000000000001"},
      {1e17, "1e+17"}, {123456.75, "123456.75"}, {-2.5e-5, "-2.5000000000000001e-05"}};
  for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
    rl_numfmt17(hand[i].x, buf);
    int ok = !strcmp(buf, hand[i].s);
    printf("%s: %s -> '%s'\n", ok ? "ok" : "not ok", hand[i].s, buf);
    fail |= !ok;
  }
  return fail;
}
