/* rowfmt.c: fast round-trip formatting of doubles (rowfmt.h).
 *
 * Why it round-trips.  Let 10^e <= |x| < 10^(e+1).  We print
 * m = round(|x| 10^(16-e)), 17 digits, i.e. a decimal within
 * 0.5 + delta units of 10^(e-16) of x, where delta bounds the error of
 * computing |x| 10^(16-e).  For |16 - e| <= 27, 10^|16-e| = 5^k 2^k with
 * 5^27 < 2^64 is exact in x87 long double (64-bit significand), so the
 * product (or quotient) is one rounding: relative error <= 2^-64, i.e.
 * delta <= 10^17 2^-64 < 0.0055.  The gap from x to either neighbouring
 * double is at least |x| 2^-53 (2^-54 on the lower side of a power of
 * two, where |x| = 2^k gives the same bound), so half of it is at least
 * 10^e 2^-54 > 0.555 units of 10^(e-16) > 0.5055.  strtod rounds
 * correctly, so it returns x.  Outside that exponent range (|x| below
 * ~1e-11 or above ~1e43) or without a 64-bit long double we use
 * rl_numfmt. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "ropelab.h"
#include "rowfmt.h"

static const long double pow10l_tab[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

int rl_fastfmt(double x, char *buf)
{
#if LDBL_MANT_DIG >= 64
  if (x == 0.0 || !isfinite(x))
    return rl_numfmt(x, buf);
  double ax = fabs(x);
  int e = (int)floor(log10(ax));
  int k = 16 - e;
  if (k < -26 || k > 26) /* one spare for the correction of e below */
    return rl_numfmt(x, buf);
  long double v = k >= 0 ? (long double)ax * pow10l_tab[k] : (long double)ax / pow10l_tab[-k];
  /* log10 may be off by one next to a power of ten */
  if (v >= 1e17L) {
    e++, k--;
    v = k >= 0 ? (long double)ax * pow10l_tab[k] : (long double)ax / pow10l_tab[-k];
  } else if (v < 1e16L) {
    e--, k++;
    v = k >= 0 ? (long double)ax * pow10l_tab[k] : (long double)ax / pow10l_tab[-k];
  }
  uint64_t m = (uint64_t)llroundl(v);
  if (m >= 100000000000000000ull) { /* rounded up to 10^17 */
    m /= 10;
    e++;
  }
  char dig[17];
  for (int i = 16; i >= 0; i--) {
    dig[i] = (char)('0' + m % 10);
    m /= 10;
  }
  int nd = 17;
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  char *p = buf;
  if (x < 0)
    *p++ = '-';
  if (e < -4 || e >= 17) { /* %g: exponent form */
    *p++ = dig[0];
    if (nd > 1) {
      *p++ = '.';
      memcpy(p, dig + 1, (size_t)nd - 1);
      p += nd - 1;
    }
    int ae = e < 0 ? -e : e;
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    if (ae >= 100)
      *p++ = (char)('0' + ae / 100);
    *p++ = (char)('0' + ae / 10 % 10);
    *p++ = (char)('0' + ae % 10);
  } else if (e < 0) { /* 0.000ddd */
    *p++ = '0';
    *p++ = '.';
    for (int i = -1; i > e; i--)
      *p++ = '0';
    memcpy(p, dig, (size_t)nd);
    p += nd;
  } else { /* ddd.ddd */
    int ip = e + 1; /* digits before the point, <= 17 */
    for (int i = 0; i < ip; i++)
      *p++ = dig[i];
    if (nd > ip) {
      *p++ = '.';
      memcpy(p, dig + ip, (size_t)(nd - ip));
      p += nd - ip;
    }
  }
  *p = 0;
  return (int)(p - buf);
#else
  return rl_numfmt(x, buf);
#endif
}

static void put(rl_out *o, FILE *fp, const char *s, size_t len)
{
  errno = 0;
  if (fwrite(s, 1, len, fp) != len) {
    int e = errno ? errno : EIO;
    if (fp == o->fp && !o->err)
      o->err = e;
    if (fp == o->tee && !o->tee_err)
      o->tee_err = e;
  }
}

void rl_out_write(rl_out *o, const char *s, size_t len)
{
  put(o, o->fp, s, len);
  if (o->tee)
    put(o, o->tee, s, len);
}

void rl_out_fields(rl_out *o, const char *const *f, size_t n)
{
  char line[4096];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    size_t l = strlen(f[i]);
    if (len + l + 2 > sizeof line)
      l = sizeof line - len - 2;
    if (i)
      line[len++] = ',';
    memcpy(line + len, f[i], l);
    len += l;
  }
  line[len++] = '\n';
  rl_out_write(o, line, len);
}
