/* errf.c: rl_errf (internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

rl_status rl_errf(rl_status st, char *err, size_t n, const char *fmt, ...)
{
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return st;
}
