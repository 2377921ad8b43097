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

/* Digits by SWAR (several small numbers in the lanes of one 64-bit
 * word): the 8 decimal digits of v < 10^8 as the 8 ASCII bytes of one
 * word, the first digit in the lowest byte.  Each step splits every lane
 * into quotient and remainder, dividing by a multiply and a shift that
 * are exact over the lane's range (every v < 10^8 is checked against a
 * decimal counter by tests/io/test_numfmt.c):
 *   n / 100 = (n 10486) >> 20 for n < 10^4: the error n (10486/2^20 -
 *   1/100) < 0.0023 cannot reach the next integer (the fraction of n/100
 *   is at most 0.99); the product is below 2^27, inside a 32-bit lane;
 *   n / 10 = (n 103) >> 10 for n < 100: error < 0.058, fraction <= 0.9;
 *   the product is below 2^14, inside a 16-bit lane.
 * The text is then laid out in registers (the point inserted by shifts)
 * and stored whole: digits stored piecewise and read back wider would
 * stall the load (no store forwarding). */
#if defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) &&                                   \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_DIGITS 1
__extension__ typedef unsigned __int128 u128; /* GCC, Clang: not ISO C */

static inline uint64_t swar8(uint32_t v)
{
  uint64_t x = (v / 10000) | (uint64_t)(v % 10000) << 32; /* 4 + 4 digits */
  uint64_t q = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
  x = q | (x - q * 100) << 16; /* 2-digit lanes of 16 bits */
  q = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
  x = q | (x - q * 10) << 8; /* digits in bytes */
  return x + UINT64_C(0x3030303030303030);
}

/* The 16 digits of m < 10^16 with leading zeros, the first in the
 * lowest byte (memory order on this machine). */
static inline u128 digits16(uint64_t m)
{
  return swar8((uint32_t)(m / 100000000)) | (u128)swar8((uint32_t)(m % 100000000)) << 64;
}

/* The nx <= 16 digits in X's low bytes, with a point after the first k
 * (0 <= k < nx), at s; returns the end.  Writes s[0..16]. */
static inline char *with_point(char *s, u128 X, int nx, int k)
{
  u128 low = X & (((u128)1 << (8 * k)) - 1), high = X >> (8 * k);
  u128 Y = low | (u128)'.' << (8 * k) | (high << 8) << (8 * k);
  memcpy(s, &Y, 16);
  s[16] = (char)(X >> 120); /* the 16th digit when nx = 16, shifted out of Y */
  return s + nx + 1;
}
#else
/* The n digits of m < 10^n into d[0..n-1]. */
static void digits_plain(uint64_t m, int n, char *d)
{
  for (int i = n - 1; i >= 0; i--, m /= 10)
    d[i] = (char)('0' + m % 10);
}
#endif

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

/* "e+XX" or "e-XXX": at least two exponent digits, as printf */
static char *put_exp(char *s, int E)
{
  *s++ = 'e';
  *s++ = E < 0 ? '-' : '+';
  int a = E < 0 ? -E : E;
  if (a >= 100) {
    *s++ = (char)('0' + a / 100);
    a %= 100;
  }
  *s++ = (char)('0' + a / 10);
  *s++ = (char)('0' + a % 10);
  return s;
}

/* Every layout below writes within buf[0..31] (RL_NUMFMT_MAX), counting
 * a sign: the widest store ends 24 bytes in, and the longest text,
 * "-d.dddddddddddddddde-ddd", is 24 bytes and its NUL. */
int rl_numfmt(double x, char *buf)
{
  if (x == 0.0)
    return snprintf(buf, RL_NUMFMT_MAX, "%s", signbit(x) ? "-0" : "0");
  if (!isfinite(x))
    return snprintf(buf, RL_NUMFMT_MAX, "%s", isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
  uint64_t m;
  int e, n;
  double ax = fabs(x);
  char *s = buf;
  if (signbit(x))
    *s++ = '-';
  if (ax < 1e15 && ax == (double)(int64_t)ax) { /* signed: one instruction each way */
    /* an integer of at most 15 digits: itself, written plainly (its
     * shortest digits, as "%.15g" would lay them out) */
    m = (uint64_t)ax;
    n = count_digits(m);
#ifdef SWAR_DIGITS
    if (n <= 8) { /* one word: positions, counts, indices */
      uint64_t w = swar8((uint32_t)m) >> (8 * (8 - n));
      memcpy(s, &w, 8);
    } else {
      u128 X = digits16(m) >> (8 * (16 - n));
      memcpy(s, &X, 16);
    }
#else
    digits_plain(m, n, s);
#endif
    s[n] = 0;
    return (int)(s + n - buf);
  }
  rl_shortest(x, &m, &e);
  n = count_digits(m);
  int E = e + n - 1;       /* x = d.ddd 10^E */
  int P = n > 15 ? n : 15; /* the precision "%.*g" would need */
#ifdef SWAR_DIGITS
  /* the text's digits: c0 (17 digits only), then X's nx */
  char c0 = 0;
  int nx = n;
  u128 X;
  if (n == 17) {
    c0 = (char)('0' + m / UINT64_C(10000000000000000));
    X = digits16(m % UINT64_C(10000000000000000));
    nx = 16;
  } else {
    X = digits16(m) >> (8 * (16 - n)); /* leading zeros off */
  }
  if (E >= 0 && E < n - 1) { /* ddd.ddd, the commonest */
    if (c0) {
      *s++ = c0;
      s = with_point(s, X, nx, E);
    } else {
      s = with_point(s, X, nx, E + 1);
    }
  } else if (E < -4 || E >= P) { /* d.ddde+XX */
    if (c0) {
      *s++ = c0;
      s = with_point(s, X, nx, 0);
    } else if (n > 1) {
      s = with_point(s, X, nx, 1);
    } else {
      *s++ = (char)X;
    }
    s = put_exp(s, E);
  } else { /* 0.000ddd (E in -4..-1) or ddd000 (n <= E < P) */
    if (E < 0) {
      memcpy(s, "0.000000", 8);
      s += 1 - E;
    }
    if (c0)
      *s++ = c0;
    memcpy(s, &X, 16);
    s += nx;
    for (int i = n; i <= E; i++)
      *s++ = '0';
  }
#else
  char d[17];
  digits_plain(m, n, d);
  if (E < -4 || E >= P) {
    *s++ = d[0];
    if (n > 1)
      *s++ = '.';
    memcpy(s, d + 1, (size_t)n - 1);
    s = put_exp(s + n - 1, E);
  } else if (E < 0) {
    *s++ = '0';
    *s++ = '.';
    for (int i = -1; i > E; i--)
      *s++ = '0';
    memcpy(s, d, (size_t)n);
    s += n;
  } else { /* ddd.ddd or ddd000 */
    for (int i = 0; i < n || i <= E; i++) {
      if (i == E + 1)
        *s++ = '.';
      *s++ = i < n ? d[i] : '0';
    }
  }
#endif
  *s = 0;
  return (int)(s - buf);
}
