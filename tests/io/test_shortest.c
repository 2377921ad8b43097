/* test_shortest.c: rl_numfmt's shortest digits (src/core/io/shortest.c,
 * Schubfach) against glibc alone: every check of shortest_check.h on each
 * hard-case class and on 2 * 10^6 random bit patterns (seeded: the same
 * values every run).  experiments/check_formatter.sh runs the same checks
 * on hundreds of millions of values. */
#include "shortest_check.h"
#include "tap.h"

enum { NCLASS = 9, RANDOM = 2000000 };
static const char *const class_name[NCLASS] = {
    "powers of two and neighbours", "powers of ten", "subnormals",
    "DBL_TRUE_MIN, DBL_MIN, DBL_MAX, neighbours", "around powers of ten",
    "integers to 2^53 and past it", "halfway: interval ends on short decimals",
    "every binary exponent (every table entry), the old fast path's limits",
    "short decimals of 1 to 17 digits"};
static sc_stats by_class[NCLASS];

static void one(double x, void *arg, int cls)
{
  (void)arg;
  static uint64_t count;
  if (x != 0.0 && isfinite(x)) /* the sign is printed apart: every 4th negated */
    sc_check(count++ % 4 ? x : -x, &by_class[cls]);
}

static void report(const sc_stats *st, const char *what)
{
  uint64_t bad = st->bad_roundtrip + st->bad_short + st->bad_closest + st->bad_layout +
                 st->bad_len + st->legacy_diff_bad;
  tap_ok(bad == 0 && st->n > 0,
         "%s: %llu values: round trip %llu bad, shortest %llu, closest %llu, layout %llu, "
         "length %llu; differs from the %%.15g/16g/17g search at %llu (all where the closest "
         "decimal does not read back: %llu not)",
         what, (unsigned long long)st->n, (unsigned long long)st->bad_roundtrip,
         (unsigned long long)st->bad_short, (unsigned long long)st->bad_closest,
         (unsigned long long)st->bad_layout, (unsigned long long)st->bad_len,
         (unsigned long long)st->legacy_diff, (unsigned long long)st->legacy_diff_bad);
  if (st->any_bad)
    fprintf(stderr, "# first failure: %a (%.17g)\n", st->first_bad, st->first_bad);
}

/* Shortest forms from Python's repr (David Gay's correctly rounded
 * shortest algorithm, an independent implementation), in ropelab's
 * %g layout (exponent form below 1e-4 and from 1e15 on). */
static void test_known(void)
{
  static const struct {
    double x;
    const char *text;
  } k[] = {
      {DBL_TRUE_MIN, "5e-324"},
      {2 * DBL_TRUE_MIN, "1e-323"},
      {DBL_MIN - DBL_TRUE_MIN, "2.225073858507201e-308"}, /* largest subnormal */
      {DBL_MIN, "2.2250738585072014e-308"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {9007199254740992.0, "9007199254740992"},       /* 2^53: 16 digits, %.16g form */
      {1e15, "1e+15"},
      {123456789012345.0, "123456789012345"},
      {1e-5, "1e-05"},
      {0.0001, "0.0001"},
      {5e-324 * 3, "1.5e-323"},
      {0x1p-1022 * 0x1p-30, "2.0722615e-317"},
      {1.0 / 3.0, "0.3333333333333333"},
      {2.0 / 3.0, "0.6666666666666666"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1e23, "1e+23"},
      {5e-310, "5e-310"},
      /* powers of two whose nearest 16-digit decimal lies below them,
       * outside the narrow lower half of the interval (2^-24 is exactly
       * 5.9604644775390625e-08: "%.16g" rounds the tie to even, ...062),
       * while the one above reads back: 16 digits, not 17 */
      {0x1p-24, "5.960464477539063e-08"},
      {0x1p976, "6.386688990511104e+293"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    char buf[RL_NUMFMT_MAX];
    rl_numfmt(k[i].x, buf);
    tap_ok(strcmp(buf, k[i].text) == 0, "%a prints \"%s\" (want \"%s\")", k[i].x, buf,
           k[i].text);
  }
}

int main(void)
{
  test_known();
  sc_hard_cases(20240601, one, NULL);
  for (int c = 0; c < NCLASS; c++)
    report(&by_class[c], class_name[c]);
  sc_stats rnd = {0};
  uint64_t state = 314159265358979;
  for (int i = 0; i < RANDOM; i++) {
    double x = sc_from_bits(sc_next(&state));
    if (x != 0.0 && isfinite(x))
      sc_check(x, &rnd);
  }
  report(&rnd, "random bit patterns");
  char hist[256];
  size_t len = 0;
  for (int d = 1; d <= 17; d++)
    len += (size_t)snprintf(hist + len, sizeof hist - len, " %d:%llu", d,
                            (unsigned long long)rnd.digits[d]);
  fprintf(stderr, "# random: digits histogram%s; far neighbour taken %llu times\n", hist,
          (unsigned long long)rnd.other_side);
  return tap_done();
}
