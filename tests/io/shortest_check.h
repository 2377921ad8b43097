/* shortest_check.h: what rl_numfmt promises, checked with glibc alone
 * (snprintf's correctly rounded %e/%g and strtod's correctly rounded
 * reading), for test_shortest.c and check_shortest.c.
 *
 * For finite x != 0, with text = rl_numfmt(x), D its significant digits
 * (n of them) and E its decimal exponent (x ~ D[0].D[1..] 10^E):
 *   roundtrip  strtod(text) has the bits of x;
 *   shortest   no decimal of n - 1 digits reads back as x.  Only three can:
 *              the correctly rounded one, r = "%.{n-2}e" of x, and its two
 *              neighbours r -+ one unit in the last place (any other is
 *              farther from x than one of these on the same side, and the
 *              set of decimals reading back as x is an interval);
 *   closest    D is the n-digit decimal closest to x, "%.{n-1}e", or, when
 *              that one does not read back (it lies on the narrow side of
 *              a power of two), the neighbour on the other side;
 *   layout     text is what "%.{P}g" prints for the decimal D 10^E, with
 *              P = max(15, n) (the form ropelab has always written),
 *              computed by glibc from strtold of that decimal (64-bit
 *              significand: 19 digits, so the n <= 17 digits come back);
 *   legacy     text is "%.{P}g" of x, which is the first of "%.15g",
 *              "%.16g", "%.17g" that reads back (what rl_numfmt printed
 *              before shortest.c) once roundtrip and shortest hold; then
 *              closest and layout hold as well, so they are computed only
 *              where legacy differs: for subnormals, and for normal x only
 *              where closest took the far neighbour (counted; anything else
 *              fails).
 * Each check is independent of shortest.c's method. */
#ifndef RL_TESTS_SHORTEST_CHECK_H
#define RL_TESTS_SHORTEST_CHECK_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

typedef struct sc_stats {
  uint64_t n;                /* values checked */
  uint64_t bad_roundtrip, bad_short, bad_closest, bad_layout, bad_len;
  uint64_t legacy_diff;      /* normal x whose text differs from the 15/16/17 search */
  uint64_t legacy_diff_bad;  /* ... where the digits were the closest ones */
  uint64_t other_side;       /* D was the far neighbour (narrow side of 2^k) */
  uint64_t digits[18];       /* histogram of n */
  double first_bad;          /* the first failing x, for the message */
  int any_bad;
} sc_stats;

static inline int sc_same_bits(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

/* "d.ddde[+-]X" (from %.*e of a positive number) into digits and exponent */
static inline int sc_parse_e(const char *s, char *dig, int *exp10)
{
  int n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9')
      dig[n++] = *s;
  dig[n] = 0;
  *exp10 = *s ? atoi(s + 1) : 0;
  return n;
}

/* dig (n digits, exponent e of its first digit) plus delta (+-1) in the
 * last place, as an %e string into out; the digit count may change
 * (9.99 + 0.01 = 10.0: exponent up).  Returns the string. */
static inline char *sc_bump(const char *dig, int n, int e, int delta, char *out)
{
  char d[40];
  memcpy(d, dig, (size_t)n + 1);
  int i = n - 1;
  if (delta > 0) {
    while (i >= 0 && d[i] == '9')
      d[i--] = '0';
    if (i < 0) { /* all nines: 10...0, one more exponent */
      memmove(d + 1, d, (size_t)n + 1);
      d[0] = '1';
      e++;
      d[n] = 0;
    } else {
      d[i]++;
    }
  } else {
    while (i >= 0 && d[i] == '0')
      d[i--] = '9';
    d[i]--; /* d[0] >= 1: i >= 0 */
    if (d[0] == '0') { /* 1.00 - 0.01 = 0.99: shift */
      memmove(d, d + 1, (size_t)n);
      e--;
      /* keep n digits: pad a 9 (0.999 = 9.99e-1 with one digit more is
       * a finer decimal; the n-digit decimal is 9.99...9) */
      d[n - 1] = '9';
      d[n] = 0;
    }
  }
  sprintf(out, "%c%s%se%d", d[0], d[1] ? "." : "", d + 1, e);
  return out;
}

static inline int sc_reads_as(const char *s, double ax)
{
  return sc_same_bits(strtod(s, NULL), ax);
}

/* Check x (finite, nonzero); returns 1 when every check passed. */
static inline int sc_check(double x, sc_stats *st)
{
  char text[64];
  st->n++;
  int len = rl_numfmt(x, text);
  int ok = 1;
  if (len <= 0 || len >= RL_NUMFMT_MAX || (size_t)len != strlen(text)) {
    st->bad_len++;
    ok = 0;
  }
  if (!sc_same_bits(strtod(text, NULL), x)) {
    st->bad_roundtrip++;
    ok = 0;
  }
  double ax = fabs(x);
  const char *t = text + (text[0] == '-');
  if ((text[0] == '-') != (signbit(x) != 0))
    ok = 0, st->bad_layout++;

  /* D and E of the text */
  char D[40];
  int n = 0, E = 0, seen = 0, pos = 0, point = -1;
  const char *p = t;
  for (; *p && *p != 'e'; p++) {
    if (*p == '.') {
      point = pos;
      continue;
    }
    if (*p != '0' || seen) {
      if (!seen)
        E = pos; /* index of the first nonzero digit */
      seen = 1;
      if (n < 39)
        D[n++] = *p;
    }
    pos++;
  }
  while (n > 1 && D[n - 1] == '0')
    n--;
  D[n] = 0;
  if (point < 0)
    point = pos;
  E = point - E - 1 + (*p == 'e' ? atoi(p + 1) : 0);
  if (n < 1 || n > 17)
    ok = 0, st->bad_len++;
  else
    st->digits[n]++;
  char r[64], b[64];

  /* shortest: no n-1 digit decimal reads back */
  if (n >= 2 && n <= 17) {
    char dig[40];
    int e;
    snprintf(r, sizeof r, "%.*e", n - 2, ax);
    int m = sc_parse_e(r, dig, &e);
    if (sc_reads_as(r, ax) || sc_reads_as(sc_bump(dig, m, e, 1, b), ax) ||
        sc_reads_as(sc_bump(dig, m, e, -1, b), ax))
      ok = 0, st->bad_short++;
  }
  if (n < 1 || n > 17) {
    if (!st->any_bad)
      st->any_bad = 1, st->first_bad = x;
    return 0;
  }
  /* legacy: given roundtrip and shortest, the first of %.15g..%.17g that
   * reads back is %.{P}g (a precision below P = max(15, n) has fewer than
   * n digits); when it equals the text, closest and layout hold too (the
   * closest P-digit decimal, zeros dropped, is the closest n-digit one) */
  int P = n > 15 ? n : 15, far = 0;
  char old[64];
  snprintf(old, sizeof old, "%.*g", P, x);
  int legacy = isnormal(x) && strcmp(old, text) == 0;
  if (isnormal(x) && !legacy)
    st->legacy_diff++;
  if (!legacy) {
    /* closest */
    char dig[40];
    int e;
    snprintf(r, sizeof r, "%.*e", n - 1, ax);
    int m = sc_parse_e(r, dig, &e);
    if (sc_reads_as(r, ax)) {
      if (strcmp(dig, D) || e != E)
        ok = 0, st->bad_closest++;
    } else {
      /* the neighbour on the far side: the one that reads back */
      char up[64], dn[64], d2[40];
      int e2, ok_up = sc_reads_as(sc_bump(dig, m, e, 1, up), ax),
              ok_dn = sc_reads_as(sc_bump(dig, m, e, -1, dn), ax);
      const char *want = ok_up && !ok_dn ? up : ok_dn && !ok_up ? dn : NULL;
      if (!want)
        ok = 0, st->bad_closest++;
      else {
        sc_parse_e(want, d2, &e2);
        if (strcmp(d2, D) || e2 != E)
          ok = 0, st->bad_closest++;
        else
          far = 1, st->other_side++;
      }
    }
    /* layout: %.{P}Lg of the decimal D 10^E */
    char dec[64], want[80];
    snprintf(dec, sizeof dec, "%c%s%se%d", D[0], n > 1 ? "." : "", D + 1, E);
    snprintf(want, sizeof want, "%s%.*Lg", x < 0 ? "-" : "", P, strtold(dec, NULL));
    if (strcmp(want, text))
      ok = 0, st->bad_layout++;
    if (isnormal(x) && !far)
      st->legacy_diff_bad++, ok = 0;
  }
  if (!ok && !st->any_bad) {
    st->any_bad = 1;
    st->first_bad = x;
  }
  return ok;
}

/* splitmix64 (Steele, Lea, Flood 2014): a seeded stream of 64-bit words */
static inline uint64_t sc_next(uint64_t *state)
{
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline double sc_from_bits(uint64_t u)
{
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* strtod of a random decimal of 1..17 digits, exponent -30..30 */
static inline double sc_short_decimal(uint64_t *rs)
{
  int nd = 1 + (int)(sc_next(rs) % 17);
  uint64_t m = sc_next(rs) % UINT64_C(100000000000000000);
  char s[64];
  int len = snprintf(s, sizeof s, "%017llu", (unsigned long long)m);
  s[nd] = 0;
  (void)len;
  char t[80];
  snprintf(t, sizeof t, "0.%se%d", s, (int)(sc_next(rs) % 61) - 29);
  return strtod(t, NULL);
}

/* The hard cases, each class by name; calls fn(x, arg) for each x. */
static inline void sc_hard_cases(uint64_t seed, void (*fn)(double, void *, int), void *arg)
{
  uint64_t rs = seed;
  enum { POW2 = 0, POW10, SUBNORMAL, EXTREMES, AROUND10, INTEGERS, HALFWAY, EXPONENTS, SHORT };
  /* every power of two, normal and subnormal, and its neighbours */
  for (int q = -1074; q <= 1023; q++) {
    double v = ldexp(1.0, q);
    fn(v, arg, POW2);
    fn(nextafter(v, 0.0), arg, POW2);
    fn(nextafter(v, INFINITY), arg, POW2);
  }
  /* every power of ten that is a double or rounds to one, +- 3 ulps */
  for (int k = -324; k <= 308; k++) {
    char s[16];
    snprintf(s, sizeof s, "1e%d", k);
    double v = strtod(s, NULL);
    if (v == 0.0 || !isfinite(v))
      continue;
    fn(v, arg, POW10);
    double lo = v, hi = v;
    for (int i = 0; i < 3; i++) {
      lo = nextafter(lo, 0.0);
      hi = nextafter(hi, INFINITY);
      if (lo > 0)
        fn(lo, arg, AROUND10);
      if (isfinite(hi))
        fn(hi, arg, AROUND10);
    }
  }
  /* subnormals: the first 10^4 multiples of DBL_TRUE_MIN, the largest
   * 10^4, random ones, the smallest normal's neighbourhood */
  for (uint64_t c = 1; c <= 10000; c++) {
    fn(sc_from_bits(c), arg, SUBNORMAL);
    fn(sc_from_bits((UINT64_C(1) << 52) - c), arg, SUBNORMAL);
  }
  for (int i = 0; i < 100000; i++)
    fn(sc_from_bits(sc_next(&rs) & ((UINT64_C(1) << 52) - 1)) + 0.0, arg, SUBNORMAL);
  fn(DBL_TRUE_MIN, arg, EXTREMES);
  fn(DBL_MIN, arg, EXTREMES);
  fn(nextafter(DBL_MIN, 0.0), arg, EXTREMES);
  fn(nextafter(DBL_MIN, 1.0), arg, EXTREMES);
  fn(DBL_MAX, arg, EXTREMES);
  fn(nextafter(DBL_MAX, 0.0), arg, EXTREMES);
  fn(-DBL_MAX, arg, EXTREMES);
  fn(-DBL_TRUE_MIN, arg, EXTREMES);
  fn(DBL_EPSILON, arg, EXTREMES);
  /* values just around powers of ten: 10^k (1 +- u) for small u, and
   * 9.999.. / 1.000.. with 15 to 17 digits */
  for (int k = -320; k <= 307; k++) {
    for (int nd = 14; nd <= 18; nd++) {
      char s[64];
      snprintf(s, sizeof s, "9.%0*de%d", nd, 0, k); /* placeholder digits below */
      memset(s + 2, '9', (size_t)nd);
      fn(strtod(s, NULL), arg, AROUND10);
      snprintf(s, sizeof s, "1.%0*d1e%d", nd - 1, 0, k + 1);
      fn(strtod(s, NULL), arg, AROUND10);
    }
  }
  /* integers: 0..10^5, 2^53 +- 10^4, random ones of every size to 2^53
   * and beyond (where the spacing exceeds 1) */
  for (int i = 1; i <= 100000; i++)
    fn((double)i, arg, INTEGERS);
  for (int i = -10000; i <= 10000; i++)
    fn(9007199254740992.0 + (double)i, arg, INTEGERS);
  for (int i = 0; i < 200000; i++) {
    int bitsn = 1 + (int)(sc_next(&rs) % 53);
    uint64_t m = sc_next(&rs) >> (64 - bitsn);
    fn((double)(m | 1), arg, INTEGERS);
  }
  /* halfway: doubles in [2^53, 2^64) are integers whose rounding
   * interval ends x +- ulp/2 are integers too, often ending in zeros
   * (short decimals): whether an end counts depends on x's parity */
  for (int i = 0; i < 200000; i++) {
    int b = 53 + (int)(sc_next(&rs) % 11);
    double v = ldexp(1.0 + (double)(sc_next(&rs) >> 12) * 0x1p-52, b);
    fn(v, arg, HALFWAY);
  }
  /* every binary exponent, 40 random significands each: every entry of
   * the table of powers of ten (pow10.h) that any double uses, both
   * ends included */
  for (uint64_t be = 0; be < 2047; be++)
    for (int i = 0; i < 40; i++)
      fn(sc_from_bits((be << 52) | (sc_next(&rs) >> 12)), arg, EXPONENTS);
  /* the exponent limits of the old fast path (1e-10 .. 1e27) */
  for (int k = -12; k <= 29; k++)
    for (int i = 0; i < 500; i++)
      fn(pow(10.0, k) * (1.0 + (double)(sc_next(&rs) >> 11) * 0x1p-53 * 9.0), arg, EXPONENTS);
  /* short decimals (1 to 17 digits), as users type them: the branch
   * where a multiple of ten lies in the interval */
  for (int i = 0; i < 100000; i++)
    fn(sc_short_decimal(&rs), arg, SHORT);
}

#endif
