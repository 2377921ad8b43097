/* values.c: the list-and-range syntax of sweeps (the shape of hyperfine's
 * --parameter-list and --parameter-scan, in one argument):
 *   ITEM[,ITEM...]       values in the order given
 *   ITEM = NUMBER | START:STOP:STEP
 *   STEP = [+|-]S        arithmetic: START + j S, j = 0, 1, ...
 *        | xK            geometric:  START K^j
 * A range ends at the last value not past STOP; STOP itself is included
 * when a rounding of at most 1e-9 of a step separates it from a value, so
 * 0:1:0.1 ends at 1.  Values are formed as START + j S (not by repeated
 * addition) and START K^j by repeated multiplication, which is exact for
 * integers below 2^53, so 1024:1048576:x2 gives exactly the powers. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "errf.h"

/* One finite number filling [s, e) exactly, read in the C locale. */
static int number(const char *s, const char *e, double *out)
{
  static locale_t c_loc;
  char buf[64];
  size_t len = (size_t)(e - s);
  if (len == 0 || len >= sizeof buf || s[0] == ' ' || s[0] == '\t')
    return 0;
  memcpy(buf, s, len);
  buf[len] = 0;
  if (!c_loc)
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  int bad = *end || errno == ERANGE || !isfinite(v);
  if (old)
    uselocale(old);
  if (bad)
    return 0;
  *out = v;
  return 1;
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

static rl_status range(const char *s, const char *e, double **v, size_t *n, size_t *cap,
                       size_t max, char *err, size_t en)
{
  const char *c1 = memchr(s, ':', (size_t)(e - s));
  const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
  int len = (int)(e - s);
  if (!c2 || memchr(c2 + 1, ':', (size_t)(e - c2 - 1)))
    return rl_errf(RL_EINVAL, err, en, "'%.*s' is not a range: expected START:STOP:STEP", len, s);
  double a, b, step;
  if (!number(s, c1, &a) || !number(c1 + 1, c2, &b))
    return rl_errf(RL_EINVAL, err, en, "'%.*s': expected finite numbers in START:STOP:STEP", len,
                   s);
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
    /* stop within 1e-9 of a value counts as reached */
    double x = a;
    for (;;) {
      if ((st = push(v, n, cap, max, x, err, en)))
        return st;
      double y = x * step;
      if (step > 1 ? y > b * (1 + 1e-9) : y < b * (1 - 1e-9))
        break;
      x = y;
    }
    return RL_OK;
  }
  if (step == 0 || (step > 0) != (b >= a))
    return rl_errf(RL_EINVAL, err, en,
                   "'%.*s': expected a nonzero STEP that moves START toward STOP", len, s);
  double cnt = floor((b - a) / step + 1e-9) + 1;
  if (!(cnt >= 1) || cnt > (double)max)
    return rl_errf(RL_EINVAL, err, en, "'%.*s' has more than %zu values", len, s, max);
  for (size_t j = 0; j < (size_t)cnt; j++)
    if ((st = push(v, n, cap, max, fma((double)j, step, a), err, en)))
      return st;
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
