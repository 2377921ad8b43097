/* rowfmt.c: long rows for the scheme commands (rowfmt.h). */
#if defined(__linux__)
#define _GNU_SOURCE /* sync_file_range */
#include <fcntl.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rowfmt.h"

/* Bytes of a temp file after which its write-back is started. */
#define WRITEBACK_BYTES (4u << 20)

/* The temp file that -o renames into place is fsync'ed first (out.c);
 * starting the write-back of what is written so far lets the disk work
 * while the rows are computed, so that the fsync at the end waits for
 * the last few megabytes only (Linux: sync_file_range, asynchronous). */
static void start_writeback(rl_out *o, FILE *fp, size_t len)
{
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
  if (fp != o->fp || !o->tmp || (o->unsynced += len) < WRITEBACK_BYTES)
    return;
  o->unsynced = 0;
  errno = 0;
  if (fflush(fp) == 0) /* only a hint: an error here would show at fsync */
    (void)sync_file_range(fileno(fp), 0, 0, SYNC_FILE_RANGE_WRITE);
  else if (!o->err) /* a full disk stops the run now, not at the end */
    o->err = errno ? errno : EIO;
#else
  (void)o, (void)fp, (void)len;
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
    return;
  }
  start_writeback(o, fp, len);
}

static void put_both(rl_out *o, const char *s, size_t len)
{
  put(o, o->fp, s, len);
  if (o->tee)
    put(o, o->tee, s, len);
}

void rl_out_write(rl_out *o, const char *s, size_t len)
{
  rl_out_release_meta(o); /* data: the held metadata goes before it */
  put_both(o, s, len);
}

void rl_out_header_line(rl_out *o, const char *s, size_t len)
{
  put_both(o, s, len);
  rl_out_release_meta(o);
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
