/* test_numfmt.c: rl_numfmt prints the shortest text that reads back. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

static double from_bits(uint64_t u)
{
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static int same_bits(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

/* significant digits of a %g-style string: first to last nonzero digit
 * (in "443509475110990" the final zero only places the decimal point) */
static int sig_digits(const char *s)
{
  int n = 0, first = -1, last = -1;
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s < '0' || *s > '9')
      continue;
    if (*s != '0') {
      if (first < 0)
        first = n;
      last = n;
    }
    n++;
  }
  return first < 0 ? 1 : last - first + 1;
}

/* 16 digits of 1/3 read back: the double is 0.333333333333333314829...,
 * ulp 2^-54 = 5.55e-17, and 0.3333333333333333 is 1.5e-17 away (< half
 * an ulp), while 15 digits are 3.1e-16 away.  So shortest = 16. */
static void test_known(void)
{
  char buf[RL_NUMFMT_MAX];
  rl_numfmt(0.1, buf);
  tap_ok(strcmp(buf, "0.1") == 0, "0.1 prints \"%s\"", buf);
  rl_numfmt(1.0 / 3.0, buf);
  tap_ok(strtod(buf, NULL) == 1.0 / 3.0 && sig_digits(buf) == 16,
         "1/3 prints \"%s\" (16 digits, reads back)", buf);
  rl_numfmt(0.1 + 0.2, buf); /* 0.30000000000000004: needs 17 */
  tap_ok(strcmp(buf, "0.30000000000000004") == 0, "0.1 + 0.2 prints \"%s\"", buf);
  rl_numfmt(-2.5, buf);
  tap_ok(strcmp(buf, "-2.5") == 0, "-2.5 prints \"%s\"", buf);
  rl_numfmt(RL_POS_MAX, buf);
  tap_ok(strcmp(buf, "2147483648") == 0, "2^31 prints \"%s\"", buf);
  rl_numfmt(1e-300, buf);
  tap_ok(strcmp(buf, "1e-300") == 0, "1e-300 prints \"%s\"", buf);
  rl_numfmt(-0.0, buf);
  tap_ok(strcmp(buf, "-0") == 0, "-0 prints \"%s\"", buf);
  rl_numfmt(NAN, buf);
  tap_ok(strcmp(buf, "nan") == 0, "nan prints \"%s\"", buf);
  rl_numfmt(-INFINITY, buf);
  tap_ok(strcmp(buf, "-inf") == 0, "-inf prints \"%s\"", buf);
}

/* Random bit patterns cover every binade, subnormals included.  Round
 * trip must be bitwise; "shortest": one digit fewer (%.*g with p-1, the
 * closest such decimal) must not read back (test_shortest.c checks both
 * neighbours too). */
static void test_random(gsl_rng *rng)
{
  char buf[RL_NUMFMT_MAX], shorter[400]; /* %g of DBL_MAX in full: 310 */
  int n = 0, bad_rt = 0, bad_short = 0, bad_len = 0;
  for (int t = 0; t < 200000; t++) {
    uint64_t u = ((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng);
    double x = from_bits(u);
    if (!isfinite(x))
      continue;
    n++;
    int len = rl_numfmt(x, buf);
    if (len <= 0 || len >= RL_NUMFMT_MAX || (size_t)len != strlen(buf))
      bad_len++;
    if (!same_bits(strtod(buf, NULL), x))
      bad_rt++;
    int p = sig_digits(buf);
    if (p > 1) {
      snprintf(shorter, sizeof shorter, "%.*g", p - 1, x);
      if (strtod(shorter, NULL) == x)
        bad_short++;
    }
  }
  tap_ok(bad_len == 0, "%d random doubles: length returned, fits RL_NUMFMT_MAX", n);
  tap_ok(bad_rt == 0, "%d random doubles: strtod reads back the same bits (%d did not)", n,
         bad_rt);
  tap_ok(bad_short == 0, "one digit fewer does not read back (%d did)", bad_short);
}

/* A locale whose decimal point is a comma: from the system, or the one
 * the build generated under LOCPATH (tests/meson.build). */
static void test_locale(gsl_rng *rng)
{
  static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8",
                                "ru_RU.UTF-8", "de_DE"};
  const char *got = NULL;
  for (size_t j = 0; j < sizeof names / sizeof *names && !got; j++)
    if (setlocale(LC_NUMERIC, names[j]) && strcmp(localeconv()->decimal_point, ",") == 0)
      got = names[j];
  if (!got) {
    setlocale(LC_NUMERIC, "C");
    tap_skip("no comma-decimal locale available");
    return;
  }
  char probe[32];
  snprintf(probe, sizeof probe, "%g", 0.5);
  tap_ok(strcmp(probe, "0,5") == 0, "in %s printf gives \"%s\" (the locale is active)", got, probe);
  enum { N = 1000 };
  static char bufs[N][RL_NUMFMT_MAX];
  static double xs[N];
  int commas = 0;
  for (int t = 0; t < N; t++) {
    xs[t] = (gsl_rng_uniform(rng) - 0.5) * pow(10.0, (double)(t % 40 - 20));
    rl_numfmt(xs[t], bufs[t]);
    commas += strchr(bufs[t], ',') != NULL;
  }
  char half[RL_NUMFMT_MAX];
  rl_numfmt(0.5, half);
  tap_ok(strcmp(half, "0.5") == 0, "in %s rl_numfmt(0.5) = \"%s\"", got, half);
  tap_ok(commas == 0, "in %s no ',' in %d numbers", got, N);
  /* and the process locale is left as it was */
  tap_ok(strcmp(localeconv()->decimal_point, ",") == 0, "caller's locale still %s", got);
  setlocale(LC_NUMERIC, "C");
  int rt = 0;
  for (int t = 0; t < N; t++)
    rt += strtod(bufs[t], NULL) == xs[t];
  tap_ok(rt == N, "numbers printed in %s read back in C (%d of %d)", got, rt, N);
}

/* The second algorithm: glibc's "%.*g" at the first precision of 15, 16,
 * 17 that strtod reads back (what rl_numfmt printed before shortest.c,
 * computed the slow way).  The values include the decay curve's range,
 * integers, short decimals, powers of ten on both sides of the old fast
 * path's exponent limits, and random bit patterns.  Subnormals are left
 * out: their shortest form has fewer digits than 15 ("5e-324"); so are
 * the powers of two where the closest decimal falls outside the narrow
 * side of the rounding interval (none of these values are; see
 * test_shortest.c). */
static int reference(double x, char *buf)
{
  int len = 0;
  for (int p = 15; p <= 17; p++) {
    len = snprintf(buf, 64, "%.*g", p, x);
    if (p == 17 || strtod(buf, NULL) == x)
      break;
  }
  return len;
}

static void test_second_algorithm(gsl_rng *rng)
{
  enum { N = 400000 };
  char a[RL_NUMFMT_MAX], b[64];
  int bad = 0, n = 0;
  for (int i = 0; i < N; i++) {
    double x;
    switch (i % 6) {
    case 0: x = from_bits(((uint64_t)gsl_rng_get(rng) << 32) ^ gsl_rng_get(rng)); break;
    case 1: x = gsl_rng_uniform(rng) * 64.0; break;
    case 2: x = (double)gsl_rng_uniform_int(rng, 2000001) - 1e6; break;
    case 3: x = (double)gsl_rng_uniform_int(rng, 100000) / 1000.0; break;
    case 4: x = pow(10.0, (double)gsl_rng_uniform_int(rng, 60) - 30.0); break;
    default: x = nextafter(pow(10.0, (double)gsl_rng_uniform_int(rng, 60) - 30.0),
                           gsl_rng_uniform(rng) < 0.5 ? 0.0 : (double)INFINITY);
    }
    if (!isfinite(x) || (x != 0.0 && !isnormal(x)))
      continue;
    n++;
    rl_numfmt(x, a);
    reference(x, b);
    if (strcmp(a, b)) {
      if (bad < 3)
        fprintf(stderr, "# %a: rl_numfmt \"%s\", %%.*g \"%s\"\n", x, a, b);
      bad++;
    }
  }
  tap_ok(bad == 0, "%d doubles: the same text as %%.15g/16g/17g with strtod (%d differ)", n, bad);
}

/* Every integer below 10^8, and each with 10^8 and 10^16 added (so the
 * 8 digits are also the middle and low words of 9- and 17-digit
 * numbers), against a decimal odometer: a counter of 8 characters
 * incremented with carries, which shares nothing with rl_numfmt's
 * digit arithmetic (pairs of digits by division, numfmt.c).  Also each text's length and
 * that nothing is written past buf[RL_NUMFMT_MAX - 1]. */
static void test_all_8_digits(void)
{
  char odo[9] = "00000000";
  size_t bad = 0, bad9 = 0, bad17 = 0;
  char buf[RL_NUMFMT_MAX + 8];
  for (uint32_t v = 0; v < 100000000; v++) {
    if (v) { /* odo += 1 */
      int i = 7;
      while (odo[i] == '9')
        odo[i--] = '0';
      odo[i]++;
    }
    int lead = 0;
    while (lead < 7 && odo[lead] == '0')
      lead++;
    int len = rl_numfmt((double)v, buf);
    if (len != 8 - lead || memcmp(buf, odo + lead, (size_t)len + 1) != 0)
      bad++;
    if (v % 7 == 0) {                /* 1 in 7 of the wider ones: the same lanes, less time */
      len = rl_numfmt(1e8 + v, buf); /* "1" then the 8 digits */
      if (len != 9 || buf[0] != '1' || memcmp(buf + 1, odo, 9) != 0)
        bad9++;
      /* 10^16 + v is a double for even v (the spacing there is 2); its
       * shortest digits are 1, 8 zeros and v's 8, trailing zeros dropped:
       * "%.{max(15,n)}g" writes 17 of them as an integer, fewer as
       * 1.00000000vvvve+16 */
      if (v % 2 == 0) {
        memset(buf, 'x', sizeof buf);
        len = rl_numfmt(1e16 + v, buf);
        char want[32];
        if (odo[7] != '0') { /* 17 digits: "%.17g" writes the integer */
          memcpy(want, "100000000", 9);
          memcpy(want + 9, odo, 9);
        } else {
          memcpy(want, "1.00000000", 10);
          memcpy(want + 10, odo, 8);
          memcpy(want + 18, "e+16", 5);
          /* trailing zeros go: 1e16 + v has shortest digits without them */
          char *z = want + 17;
          while (*z == '0')
            z--;
          if (*z == '.')
            z--;
          memmove(z + 1, "e+16", 5);
        }
        if (memcmp(buf, want, strlen(want) + 1) != 0 || len != (int)strlen(want) ||
            buf[RL_NUMFMT_MAX] != 'x')
          bad17++;
      }
    }
  }
  tap_ok(bad == 0, "every integer 0 .. 10^8 - 1 printed as its digits (%zu wrong)", bad);
  tap_ok(bad9 == 0, "10^8 + v: 9 digits, v's 8 after the 1 (%zu wrong)", bad9);
  tap_ok(bad17 == 0, "10^16 + v, v even: 1.0000000vvvvvvvve+16 (%zu wrong)", bad17);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 271828);
  test_known();
  test_random(rng);
  test_second_algorithm(rng);
  test_locale(rng);
  test_all_8_digits();
  gsl_rng_free(rng);
  return tap_done();
}
