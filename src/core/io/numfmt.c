/* numfmt.c: doubles as the shortest text that reads back exactly.
 *
 * The result is always the string glibc's "%.*g" gives for the first
 * precision of 15, 16, 17 whose text strtod reads back as x (17 always
 * does, IEEE 754 binary64).  Doing that with snprintf and strtod costs
 * ~600 ns a number, most of a 10^6-row decay run; the fast path below
 * gets the same string in ~100 ns and hands every case it cannot decide
 * with certainty to that slow path. */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

/* The C locale, so a caller's setlocale(LC_ALL, "") cannot turn the
 * decimal point into a comma. */
static locale_t c_locale(void)
{
  static locale_t loc;
  if (!loc)
    loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  return loc;
}

static int slow(double x, char *buf)
{
  locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  int len = 0;
  for (int prec = 15; prec <= 17; prec++) {
    len = snprintf(buf, RL_NUMFMT_MAX, "%.*g", prec, x);
    if (prec == 17 || strtod(buf, NULL) == x)
      break;
  }
  if (old)
    uselocale(old);
  return len;
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

/* The fast path: 0 when undecided (the caller takes the slow path). */
static int fast(double x, char *buf)
{
  double ax = fabs(x);
  long double v;
  int e;
  if (!digits17(ax, &v, &e))
    return 0;
  /* half an ulp of x, and the margin within which the long double
   * comparison below cannot decide (its error is <= 2^-63 |x| < h/2^9) */
  int bexp;
  frexp(ax, &bexp);
  long double h = ldexpl(1.0L, bexp - 54);
  for (int p = 15; p <= 17; p++) {
    /* round to p digits; a value within 0.01 units of a tie could round
     * either way depending on v's error: let snprintf decide it */
    long double u = v / P10[17 - p], fl = floorl(u), fr = u - fl;
    if (fabsl(fr - 0.5L) < 0.01L)
      return 0;
    uint64_t m = (uint64_t)fl + (fr > 0.5L);
    int ep = e;
    if (m >= (uint64_t)P10[p]) { /* 9.99..9 rounded up to 10.0 */
      m /= 10;
      ep++;
    }
    /* the candidate m 10^(ep-p+1) reads back as x iff it lies within
     * half an ulp of x (round to nearest); 17 digits always do.  Within
     * the margin of half an ulp the comparison cannot tell: slow path. */
    if (p < 17) {
      long double diff = fabsl(scale10((long double)m, ep - p + 1) - ax);
      if (diff > h * (1 + 0x1p-8L))
        continue;
      if (diff >= h * (1 - 0x1p-8L))
        return 0;
    }
    return render_int(x < 0, m, p, ep, buf);
  }
  return 0;
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

int rl_numfmt(double x, char *buf)
{
  if (x == 0.0)
    return snprintf(buf, RL_NUMFMT_MAX, "%s", signbit(x) ? "-0" : "0");
  if (!isfinite(x))
    return snprintf(buf, RL_NUMFMT_MAX, "%s", isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
#if LDBL_MANT_DIG >= 64
  int len = fast(x, buf);
  if (len)
    return len;
#endif
  return slow(x, buf);
}
