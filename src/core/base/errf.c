/* errf.c: rl_errf and rl_cut (internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

const char *rl_cut(const char *s, char *buf, size_t n)
{
  size_t len = strlen(s);
  if (len <= RL_CUT_MAX) {
    snprintf(buf, n, "%s", s);
    return buf;
  }
  size_t keep = RL_CUT_MAX - 16;
  while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
    keep--; /* s[keep] would continue a UTF-8 character */
  snprintf(buf, n, "%.*s... (%zu bytes)", (int)keep, s, len);
  return buf;
}
