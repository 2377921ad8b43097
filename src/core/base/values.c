/* values.c: the list-and-range syntax of sweeps (the shape of hyperfine's
 * --parameter-list and --parameter-scan, in one argument):
 *   ITEM[,ITEM...]       values in the order given
 *   ITEM = NUMBER | START:STOP:STEP
 *   STEP = [+|-]S        arithmetic: START + j S, j = 0, 1, ...
 *        | xK            geometric:  START K^j
 * A range ends at the last value not past STOP; STOP itself is included
 * when a rounding of at most 1e-9 of a step separates it from a value, so
 * 0:1:0.1 ends at 1 (for a geometric range: within 1e-9 of STOP).  Each
 * value is formed from START, never by repeated addition or products:
 * START + j S exactly in decimal when START and S are decimal numbers
 * (1:2:0.1 gives 1.9, not 1.9000000000000001), START K^j as one long
 * double power, then rounded to the round number it stands for
 * (512:1048576:x1.189207115002721 gives 4096, not 4095.999999999998, and
 * ends at 1048576); 1024:1048576:x2 gives exactly the powers. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "internal.h"

/* One finite number filling [s, e) exactly, read as every option's
 * number is (rl_param_number: the C locale, the whole text). */
static int number(const char *s, const char *e, double *out)
{
  char buf[64];
  size_t len = (size_t)(e - s);
  if (len == 0 || len >= sizeof buf)
    return 0;
  memcpy(buf, s, len);
  buf[len] = 0;
  return rl_param_number(buf, out) == RL_OK;
}

static rl_status push(double **v, size_t *n, size_t *cap, size_t max, double x, char *err,
                      size_t en)
{
  if (*n >= max)
    return rl_errf(RL_EINVAL, err, en, "more than %zu values", max);
  if (*n == *cap) {
    size_t c = *cap ? 2 * *cap : 16;
    double *p = realloc(*v, c * sizeof *p);
    if (!p)
      return RL_ENOMEM;
    *v = p;
    *cap = c;
  }
  (*v)[(*n)++] = x;
  return RL_OK;
}

/* The text [s, e) of a decimal number as M * 10^-k, M an integer below
 * 2^53 in magnitude and 0 <= k <= 22: 1 on success (0.1 = 1e-1, 2.5e-3
 * = 25e-4, 100 = 100e0). */
static int decimal(const char *s, const char *e, long long *m, int *k)
{
  long long v = 0;
  int dec = 0, frac = 0, any = 0, neg = 0, ex = 0;
  const char *p = s;
  if (p < e && (*p == '+' || *p == '-'))
    neg = *p++ == '-';
  for (; p < e && ((*p >= '0' && *p <= '9') || *p == '.'); p++) {
    if (*p == '.') {
      if (dec)
        return 0;
      dec = 1;
      continue;
    }
    if (v > (1LL << 53) / 10)
      return 0;
    v = v * 10 + (*p - '0'), any = 1, frac += dec;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    char *end;
    char buf[16];
    size_t len = (size_t)(e - p - 1);
    if (len == 0 || len >= sizeof buf)
      return 0;
    memcpy(buf, p + 1, len);
    buf[len] = 0;
    long x = strtol(buf, &end, 10);
    if (*end || x < -22 || x > 22)
      return 0;
    ex = (int)x;
    p = e;
  }
  if (p != e || !any)
    return 0;
  int sc = frac - ex;
  for (; sc < 0; sc++) { /* 1e3 = 1000e0 */
    if (v > (1LL << 53) / 10)
      return 0;
    v *= 10;
  }
  if (sc > 22)
    return 0;
  *m = neg ? -v : v;
  *k = sc;
  return 1;
}

/* M * 10^-k as the double nearest it (strtod is correctly rounded). */
static double from_decimal(long long m, int k)
{
  char buf[48];
  double v = 0;
  snprintf(buf, sizeof buf, "%llde-%d", m, k);
  rl_param_number(buf, &v);
  return v;
}

/* The uncertainty, relative, of a factor as typed in [s, e): a factor
 * typed to 15 digits or more stands for an irrational one (2^(1/4) =
 * 1.189207115002721), known to half a unit of its last digit; a shorter
 * one is the decimal typed: 0 when that is a double (x1.5, x2), else the
 * one rounding into a double (x1.1). */
static double typed_rel(const char *s, const char *e, double step)
{
  int digits = 0, lead = 0, point = 0, after = 0;
  for (const char *c = s; c < e && *c != 'e' && *c != 'E'; c++) {
    if (*c == '.')
      point = 1;
    else if (*c >= '0' && *c <= '9') {
      lead |= *c != '0';
      digits += lead;
      after += point;
    }
  }
  if (digits < 15) {
    /* exact when the decimal M 10^-k is a double: 5^k divides M and
     * M / 5^k < 2^53; else one rounding of the decimal into the double */
    long long m;
    int k;
    if (!decimal(s, e, &m, &k))
      return 0x1p-53;
    for (; k > 0 && m % 5 == 0; k--)
      m /= 5;
    return k == 0 && llabs(m) < (1LL << 53) ? 0 : 0x1p-53;
  }
  const char *ex = s;
  while (ex < e && *ex != 'e' && *ex != 'E')
    ex++;
  int e10 = ex < e ? atoi(ex + 1) : 0;
  return 0.5 * pow(10.0, (double)(e10 - after)) / step;
}

/* x, or the shortest decimal within rel (relative) of it: point j of a
 * geometric range carries j times its factor's uncertainty, so a factor
 * typed to 16 digits lands a few ulps off the value meant (512 K^28 =
 * 65535.99999999994 for 65536 with K = 1.189207115002721); with an exact
 * factor rel is an ulp or two and exact points with many digits stay
 * (1.5^13 = 194.6195068359375). */
static double round_point(double x, double rel)
{
  static locale_t c_loc;
  char buf[40];
  if (!c_loc)
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
  double r = x;
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    double y = strtod(buf, NULL);
    if (fabs(y - x) <= rel * fabs(x)) {
      r = y;
      break;
    }
  }
  if (old)
    uselocale(old);
  return r;
}

static rl_status range(const char *s, const char *e, double **v, size_t *n, size_t *cap,
                       size_t max, char *err, size_t en)
{
  const char *c1 = memchr(s, ':', (size_t)(e - s));
  const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
  int len = (int)(e - s);
  if (!c1 || (c2 && memchr(c2 + 1, ':', (size_t)(e - c2 - 1))))
    return rl_errf(RL_EINVAL, err, en, "'%.*s' is not a range: expected START:STOP:STEP or "
                   "START:STOP", len, s);
  double a, b, step;
  if (!number(s, c1, &a) || !number(c1 + 1, c2 ? c2 : e, &b))
    return rl_errf(RL_EINVAL, err, en, "'%.*s': expected finite numbers in START:STOP:STEP", len,
                   s);
  /* START:STOP: every integer step, 1 (or -1 downward), as Python's
   * range and a table's positions 1:2048 are written */
  const char *dflt = b >= a ? ":1" : ":-1"; /* the STEP text parsed below */
  if (!c2) {
    c2 = dflt;
    e = dflt + strlen(dflt);
  }
  int geo = c2[1] == 'x';
  if (!number(c2 + 1 + geo, e, &step))
    return rl_errf(RL_EINVAL, err, en, "'%.*s': expected STEP a number (+S, -S) or xK", len, s);
  rl_status st;
  if (geo) {
    if (!(a > 0) || !(b > 0))
      return rl_errf(RL_EINVAL, err, en, "'%.*s': a geometric range needs START and STOP > 0", len,
                     s);
    if (!(step > 0) || step == 1 || (step > 1) != (b >= a))
      return rl_errf(RL_EINVAL, err, en,
                     "'%.*s': expected a factor %s 1 that moves START toward STOP", len, s,
                     b >= a ? ">" : "between 0 and");
    /* point j = START K^j from the start (one rounding of a long double
     * power, not j roundings of repeated products), then rounded to the
     * shortest decimal within what K's typed digits and the roundings
     * leave known (j units of K's, 2 ulps), and STOP itself within 1e-9
     * of it */
    double u = typed_rel(c2 + 1 + geo, e, step);
    for (size_t j = 0;; j++) {
      long double y = (long double)a * powl((long double)step, (long double)j);
      if (step > 1 ? y > (long double)b * (1 + 1e-9L) : y < (long double)b * (1 - 1e-9L))
        break;
      double rel = u > 0 ? (double)j * u + 0x1p-52 : 0; /* exact K: the power's one rounding */
      double x = fabsl(y - (long double)b) <= 1e-9L * (long double)b ? b : round_point((double)y, rel);
      if ((st = push(v, n, cap, max, x, err, en)))
        return st;
    }
    return RL_OK;
  }
  if (step == 0 || (step > 0) != (b >= a))
    return rl_errf(RL_EINVAL, err, en,
                   "'%.*s': expected a nonzero STEP that moves START toward STOP", len, s);
  double cnt = floor((b - a) / step + 1e-9) + 1;
  if (!(cnt >= 1) || cnt > (double)max)
    return rl_errf(RL_EINVAL, err, en, "'%.*s' has more than %zu values", len, s, max);
  /* decimal START and STEP: each point START + j STEP computed exactly in
   * decimal and rounded once (0:1:0.1 gives 0.3, not 0.30000000000000004;
   * 1:2:0.1 gives 1.9), else START + j STEP with one rounding (fma) */
  long long ma = 0, ms = 0;
  int ka = 0, ks = 0;
  int dec = decimal(s, c1, &ma, &ka) && decimal(c2 + 1, e, &ms, &ks);
  int k = ka > ks ? ka : ks;
  for (int q = ka; dec && q < k; q++)
    dec = llabs(ma) <= (1LL << 53) / 10 ? (ma *= 10, 1) : 0;
  for (int q = ks; dec && q < k; q++)
    dec = llabs(ms) <= (1LL << 53) / 10 ? (ms *= 10, 1) : 0;
  if (dec && fabs((double)ma + (cnt - 1) * (double)ms) >= 9007199254740992.0)
    dec = 0;
  for (size_t j = 0; j < (size_t)cnt; j++) {
    double x = dec ? from_decimal(ma + (long long)j * ms, k) : fma((double)j, step, a);
    /* the last point: STOP itself when within 1e-9 of a step */
    if (j + 1 == (size_t)cnt && fabs(x - b) <= 1e-9 * fabs(step))
      x = b;
    if ((st = push(v, n, cap, max, x, err, en)))
      return st;
  }
  return RL_OK;
}

rl_status rl_values_parse(const char *text, size_t max, double **out, size_t *count, char *err,
                          size_t errlen)
{
  double *v = NULL;
  size_t n = 0, cap = 0;
  rl_status st = RL_OK;
  const char *s = text;
  *out = NULL;
  *count = 0;
  if (!*text)
    return rl_errf(RL_EINVAL, err, errlen,
                   "empty list: expected a number, a list a,b,c or a range a:b:step");
  for (;;) {
    const char *e = strchr(s, ',');
    if (!e)
      e = s + strlen(s);
    if (e == s) {
      st = rl_errf(RL_EINVAL, err, errlen, "empty item: expected a number or START:STOP:STEP");
      break;
    }
    if (memchr(s, ':', (size_t)(e - s))) {
      st = range(s, e, &v, &n, &cap, max, err, errlen);
    } else {
      double x;
      if (!number(s, e, &x))
        st = rl_errf(RL_EINVAL, err, errlen, "'%.*s' is not a finite number", (int)(e - s), s);
      else
        st = push(&v, &n, &cap, max, x, err, errlen);
    }
    if (st || !*e)
      break;
    s = e + 1;
  }
  if (st) {
    free(v);
    return st;
  }
  *out = v;
  *count = n;
  return RL_OK;
}
