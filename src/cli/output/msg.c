/* msg.c: the one-line messages of the CLI (msg.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmd.h"
#include "msg.h"

static int vmessage(int code, const char *cmd, const char *fmt, va_list ap)
{
  /* sized to the message: a long value must not cut off its "expected" */
  char small[1024], *buf = small;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= (int)sizeof small && (buf = malloc((size_t)n + 1)))
    vsnprintf(buf, (size_t)n + 1, fmt, aq);
  va_end(aq);
  if (!buf)
    buf = small;
  /* one line whatever a quoted value holds: control characters (a
   * newline, an escape sequence) written as C escapes, here for every
   * message rather than at each call that echoes a value */
  if (cmd)
    fprintf(stderr, "ropelab %s: ", cmd);
  else
    fputs("ropelab: ", stderr);
  for (const unsigned char *p = (const unsigned char *)buf; *p; p++) {
    if (*p >= 7 && *p <= 13)
      fprintf(stderr, "\\%c", "abtnvfr"[*p - 7]);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(stderr, "\\%03o", *p);
    else
      fputc(*p, stderr);
  }
  fputc('\n', stderr);
  if (buf != small)
    free(buf);
  return code;
}

int rl_usage(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int r = vmessage(RL_EXIT_USAGE, cmd, fmt, ap);
  va_end(ap);
  return r;
}

int rl_runtime(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int r = vmessage(RL_EXIT_RUNTIME, cmd, fmt, ap);
  va_end(ap);
  return r;
}
