/* numfmt.c: doubles as text.
 *
 * rl_numfmt: the shortest decimal that reads back as x (shortest.c,
 * Schubfach), written as glibc's "%.*g" writes it at precision
 * P = max(15, digits): that is the text of the first of "%.15g",
 * "%.16g", "%.17g" that strtod reads back, which ropelab has always
 * printed, for every normal double (a decimal of at most 15 digits that
 * reads back is the only one of that length within half an ulp, so
 * "%.15g" finds it; and the closest 16 or 17 digits are what "%.16g" and
 * "%.17g" print).  Subnormals, whose precision is below 15 digits, get
 * their shortest digits too ("5e-324", where "%.15g" printed
 * "4.94065645841247e-324").
 *
 * rl_numfmt17: 17 significant digits, for `matrix`. */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "shortest.h"

/* The C locale, so a caller's setlocale(LC_ALL, "") cannot turn the
 * decimal point into a comma. */
static locale_t c_locale(void)
{
  static locale_t loc;
  if (!loc)
    loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  return loc;
}

#if LDBL_MANT_DIG >= 64
/* 10^k for k <= 27: exact in a 64-bit significand (5^27 < 2^64). */
static const long double P10[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* v * 10^k with one rounding (relative error <= 2^-64). */
static long double scale10(long double v, int k)
{
  return k >= 0 ? v * P10[k] : v / P10[-k];
}

/* "%.*g" of the p-digit decimal dig[0..p-1] * 10^(e - p + 1) (dig[0] != 0):
 * trailing zeros dropped, exponent form when e < -4 or e >= p. */
static int render(int neg, const char *dig, int p, int e, char *buf)
{
  int nd = p;
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  char *s = buf;
  if (neg)
    *s++ = '-';
  if (e < -4 || e >= p) {
    *s++ = dig[0];
    if (nd > 1) {
      *s++ = '.';
      memcpy(s, dig + 1, (size_t)nd - 1);
      s += nd - 1;
    }
    int ae = e < 0 ? -e : e;
    s += sprintf(s, "e%c%02d", e < 0 ? '-' : '+', ae);
  } else if (e < 0) {
    *s++ = '0';
    *s++ = '.';
    for (int i = -1; i > e; i--)
      *s++ = '0';
    memcpy(s, dig, (size_t)nd);
    s += nd;
  } else {
    int ip = e + 1;
    memcpy(s, dig, (size_t)ip);
    s += ip;
    if (nd > ip) {
      *s++ = '.';
      memcpy(s, dig + ip, (size_t)(nd - ip));
      s += nd - ip;
    }
  }
  *s = 0;
  return (int)(s - buf);
}

/* The 17 leading digits of |x| with a fraction: v = |x| 10^(16-e) in
 * [10^16, 10^17), relative error <= 2^-64 (under 0.0055 units); 0 when x
 * is outside the exponents the exact table covers. */
static int digits17(double ax, long double *v, int *e)
{
  *e = (int)floor(log10(ax));
  if (*e < -9 || *e > 25)
    return 0;
  *v = scale10(ax, 16 - *e);
  if (*v >= 1e17L)
    *v = scale10(ax, 16 - ++*e);
  else if (*v < 1e16L)
    *v = scale10(ax, 16 - --*e);
  return *v >= 1e16L && *v < 1e17L;
}

static int render_int(int neg, uint64_t m, int p, int e, char *buf)
{
  char dig[17];
  for (int i = p - 1; i >= 0; i--) {
    dig[i] = (char)('0' + m % 10);
    m /= 10;
  }
  return render(neg, dig, p, e, buf);
}

#endif

int rl_numfmt17(double x, char *buf)
{
  if (x == 0.0 || !isfinite(x))
    return rl_numfmt(x, buf);
#if LDBL_MANT_DIG >= 64
  /* Why 17 digits read back: the printed decimal is within 0.5 + 0.0055
   * units of 10^(e-16) of x, while half the gap to x's neighbours is at
   * least |x| 2^-54 >= 10^e 2^-54 > 0.555 such units; strtod rounds
   * correctly, so it returns x. */
  long double v;
  int e;
  if (digits17(fabs(x), &v, &e)) {
    uint64_t m = (uint64_t)llroundl(v);
    if (m >= 100000000000000000ull) { /* rounded up to 10^17 */
      m /= 10;
      e++;
    }
    return render_int(x < 0, m, 17, e, buf);
  }
#endif
  locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  int len = snprintf(buf, RL_NUMFMT_MAX, "%.17g", x);
  if (old)
    uselocale(old);
  return len;
}

/* "00" .. "99" */
static const char DIGIT2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The n decimal digits of m < 10^n (n <= 9) into p[0..n-1], two at a
 * time, in 32-bit arithmetic. */
static inline void put_digits32(char *p, uint32_t m, int n)
{
  while (n >= 2) {
    n -= 2;
    memcpy(p + n, DIGIT2 + 2 * (m % 100), 2);
    m /= 100;
  }
  if (n)
    p[0] = (char)('0' + m);
}

/* The 8 digits of v < 10^8 into p[0..7]: four independent pairs, so the
 * divisions do not wait on each other. */
static inline void put8(char *p, uint32_t v)
{
  uint32_t a = v / 10000, b = v % 10000;
  memcpy(p, DIGIT2 + 2 * (a / 100), 2);
  memcpy(p + 2, DIGIT2 + 2 * (a % 100), 2);
  memcpy(p + 4, DIGIT2 + 2 * (b / 100), 2);
  memcpy(p + 6, DIGIT2 + 2 * (b % 100), 2);
}

/* The 8 digits of v < 10^8 (leading zeros included) as the bytes of a
 * little-endian word, the first digit lowest: built in registers (four
 * 2-byte stores read back as one word would stall the load). */
static inline uint64_t digits8(uint64_t v)
{
  uint32_t a = (uint32_t)v / 10000, b = (uint32_t)v % 10000;
  uint16_t d0, d1, d2, d3;
  memcpy(&d0, DIGIT2 + 2 * (a / 100), 2);
  memcpy(&d1, DIGIT2 + 2 * (a % 100), 2);
  memcpy(&d2, DIGIT2 + 2 * (b / 100), 2);
  memcpy(&d3, DIGIT2 + 2 * (b % 100), 2);
  return (uint64_t)d0 | (uint64_t)d1 << 16 | (uint64_t)d2 << 32 | (uint64_t)d3 << 48;
}

/* The n decimal digits of m (m < 10^n, n <= 17) into p[0..n-1].  16
 * and 17 digits (most doubles) take one path: which of the two comes
 * next is close to random, and a mispredicted branch costs more than
 * the select. */
static inline void put_digits(char *p, uint64_t m, int n)
{
  if (n >= 16) {
    uint32_t hi = (uint32_t)(m / 100000000);
    put8(p + n - 8, (uint32_t)(m % 100000000));
    put8(p + n - 16, hi % 100000000);
    char d = (char)('0' + hi / 100000000); /* '0' when n is 16 */
    p[0] = n == 17 ? d : p[0];
  } else if (n > 8) {
    put8(p + n - 8, (uint32_t)(m % 100000000));
    put_digits32(p, (uint32_t)(m / 100000000), n - 8);
  } else {
    put_digits32(p, (uint32_t)m, n);
  }
}

static const uint64_t POW10[20] = {1u,
                                   10u,
                                   100u,
                                   1000u,
                                   10000u,
                                   100000u,
                                   1000000u,
                                   10000000u,
                                   100000000u,
                                   1000000000u,
                                   10000000000u,
                                   100000000000u,
                                   1000000000000u,
                                   10000000000000u,
                                   100000000000000u,
                                   1000000000000000u,
                                   10000000000000000u,
                                   100000000000000000u,
                                   1000000000000000000u,
                                   10000000000000000000u};

/* Decimal digits of m >= 1: from its bit length (log10 2 ~ 1233/4096),
 * corrected by one comparison. */
static inline int count_digits(uint64_t m)
{
#if defined(__GNUC__)
  int bits = 64 - __builtin_clzll(m);
#else
  int bits = 0;
  for (uint64_t v = m; v; v >>= 1)
    bits++;
#endif
  int n = (bits * 1233) >> 12;
  return n + (m >= POW10[n]);
}

int rl_numfmt(double x, char *buf)
{
  if (x == 0.0)
    return snprintf(buf, RL_NUMFMT_MAX, "%s", signbit(x) ? "-0" : "0");
  if (!isfinite(x))
    return snprintf(buf, RL_NUMFMT_MAX, "%s", isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
  uint64_t m;
  int e;
  double ax = fabs(x);
  if (ax < 1e15 && ax == (double)(int64_t)ax) { /* signed: one instruction each way */
    /* an integer of at most 15 digits: itself, written plainly (its
     * shortest digits, as "%.15g" would lay them out) */
    m = (uint64_t)ax;
    int n = count_digits(m);
    char *s = buf;
    if (signbit(x))
      *s++ = '-';
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n <= 8) { /* positions, counts: the digits in one word, stored whole */
      uint64_t word = digits8(m) >> 8 * (8 - n);
      memcpy(s, &word, 8); /* buf has RL_NUMFMT_MAX bytes */
      s[n] = 0;
      return (int)(s + n - buf);
    }
#endif
    put_digits(s, m, n);
    s[n] = 0;
    return (int)(s + n - buf);
  }
  rl_shortest(x, &m, &e);
  int n = count_digits(m);
  int E = e + n - 1;         /* x = d.ddd 10^E */
  int P = n > 15 ? n : 15;   /* the precision "%.*g" would need */
  char *s = buf;
  if (signbit(x))
    *s++ = '-';
  if (E < -4 || E >= P) { /* d.ddde+XX, at least two exponent digits */
    put_digits(s + 1, m, n);
    s[0] = s[1];
    if (n > 1) {
      s[1] = '.';
      s += n + 1;
    } else {
      s += 1;
    }
    *s++ = 'e';
    *s++ = E < 0 ? '-' : '+';
    int a = E < 0 ? -E : E;
    if (a >= 100) {
      *s++ = (char)('0' + a / 100);
      a %= 100;
    }
    memcpy(s, DIGIT2 + 2 * a, 2);
    s += 2;
  } else if (E < 0) { /* 0.000ddd */
    *s++ = '0';
    *s++ = '.';
    for (int i = -1; i > E; i--)
      *s++ = '0';
    put_digits(s, m, n);
    s += n;
  } else if (n > E + 1) { /* ddd.ddd */
    put_digits(s + 1, m, n);
    for (int i = 0; i <= E; i++) /* E < 17: a call to memmove costs more */
      s[i] = s[i + 1];
    s[E + 1] = '.';
    s += n + 1;
  } else { /* ddd000 */
    put_digits(s, m, n);
    s += n;
    for (int i = n; i <= E; i++)
      *s++ = '0';
  }
  *s = 0;
  return (int)(s - buf);
}
