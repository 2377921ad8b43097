/* rowfmt.c: long rows for the scheme commands (rowfmt.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rowfmt.h"

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

size_t rl_row_text(char *p, const double *v, size_t n)
{
  char *s = p;
  for (size_t i = 0; i < n; i++) {
    if (i)
      *s++ = ',';
    s += rl_numfmt(v[i], s);
  }
  *s++ = '\n';
  return (size_t)(s - p);
}
