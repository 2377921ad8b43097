/* numfmt.c: doubles as the shortest text that reads back exactly. */
#include <locale.h>
#include <math.h>
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

int rl_numfmt(double x, char *buf)
{
  if (x == 0.0)
    return snprintf(buf, RL_NUMFMT_MAX, "%s", signbit(x) ? "-0" : "0");
  if (!isfinite(x))
    return snprintf(buf, RL_NUMFMT_MAX, "%s", isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
  locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
  int len = 0;
  /* 17 significant digits always round-trip (IEEE 754 binary64); fewer
   * are used when they already read back exactly. */
  for (int prec = 15; prec <= 17; prec++) {
    len = snprintf(buf, RL_NUMFMT_MAX, "%.*g", prec, x);
    if (prec == 17 || strtod(buf, NULL) == x)
      break;
  }
  if (old)
    uselocale(old);
  return len;
}
