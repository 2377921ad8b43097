/* npy_write.c: NumPy .npy files of doubles (format 1.0), written to a
 * temporary file beside the target and renamed over it when complete, so
 * that a reader never sees a partial array.
 *
 * The layout (numpy/lib/format.py, NEP 1): "\x93NUMPY", version bytes 1
 * and 0, the header length as a little-endian uint16, the header (a
 * Python dict literal "{'descr': '<f8', 'fortran_order': False, 'shape':
 * (R, C), }" padded with spaces and ended by '\n' so that magic, version,
 * length and header together are a multiple of 64 bytes, as numpy itself
 * aligns them), then R x C little-endian binary64 in C (row) order. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ropelab.h"

struct rl_npy_writer {
  FILE *f;
  char *path, *tmp;
  size_t rows, cols, done;
  int big_endian;
};

static void werr(char *err, size_t size, const char *fmt, ...)
{
  if (!err || !size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, size, fmt, ap);
  va_end(ap);
}

void rl_npy_abort(rl_npy_writer *w)
{
  if (!w)
    return;
  if (w->f)
    fclose(w->f);
  if (w->tmp)
    unlink(w->tmp);
  free(w->tmp);
  free(w->path);
  free(w);
}

rl_status rl_npy_create(const char *path, size_t rows, size_t cols, rl_npy_writer **out,
                        char *err, size_t errsize)
{
  *out = NULL;
  if (!rows || !cols || rows > SIZE_MAX / cols / 8) {
    werr(err, errsize, "invalid shape (%zu, %zu) for '%s': expected rows and columns >= 1",
         rows, cols, path);
    return RL_EINVAL;
  }
  rl_npy_writer *w = calloc(1, sizeof *w);
  size_t len = strlen(path);
  if (w) {
    w->path = malloc(len + 1);
    w->tmp = malloc(len + sizeof ".tmpXXXXXX");
  }
  if (!w || !w->path || !w->tmp) {
    if (w)
      free(w->path), free(w->tmp), free(w);
    return RL_ENOMEM;
  }
  memcpy(w->path, path, len + 1);
  memcpy(w->tmp, path, len);
  memcpy(w->tmp + len, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
  int fd = mkstemp(w->tmp);
  /* mkstemp's 0600 would outlive the rename: the mode a new file gets */
  mode_t mask = umask(0);
  umask(mask);
  if (fd >= 0)
    (void)fchmod(fd, 0666 & ~mask);
  if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
    werr(err, errsize, "cannot create '%s': %s", path, strerror(errno));
    if (fd >= 0)
      close(fd), unlink(w->tmp);
    free(w->tmp), w->tmp = NULL;
    rl_npy_abort(w);
    return RL_EIO;
  }
  const uint16_t one = 1;
  unsigned char b0;
  memcpy(&b0, &one, 1);
  w->big_endian = b0 == 0;
  w->rows = rows;
  w->cols = cols;
  char dict[160];
  int n = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }",
                   rows, cols);
  size_t total = ((10 + (size_t)n + 1) + 63) / 64 * 64, hlen = total - 10;
  unsigned char head[256];
  memcpy(head, "\x93NUMPY\x01\x00", 8);
  head[8] = (unsigned char)(hlen & 0xff);
  head[9] = (unsigned char)(hlen >> 8);
  memcpy(head + 10, dict, (size_t)n);
  memset(head + 10 + n, ' ', hlen - (size_t)n - 1);
  head[total - 1] = '\n';
  if (fwrite(head, 1, total, w->f) != total) {
    werr(err, errsize, "cannot write '%s': %s", path, strerror(errno));
    rl_npy_abort(w);
    return RL_EIO;
  }
  *out = w;
  return RL_OK;
}

const char *rl_npy_tmp_path(const rl_npy_writer *w)
{
  return w ? w->tmp : NULL;
}

rl_status rl_npy_append(rl_npy_writer *w, const double *vals, size_t nrows, char *err,
                        size_t errsize)
{
  if (nrows > w->rows - w->done) {
    werr(err, errsize, "%zu rows past the declared %zu for '%s'", w->done + nrows - w->rows,
         w->rows, w->path);
    return RL_EINVAL;
  }
  size_t k = nrows * w->cols;
  if (!w->big_endian) {
    if (fwrite(vals, sizeof *vals, k, w->f) != k)
      goto fail;
  } else {
    for (size_t i = 0; i < k; i++) {
      unsigned char b[8], r[8];
      memcpy(b, &vals[i], 8);
      for (int j = 0; j < 8; j++)
        r[j] = b[7 - j];
      if (fwrite(r, 1, 8, w->f) != 8)
        goto fail;
    }
  }
  w->done += nrows;
  return RL_OK;
fail:
  werr(err, errsize, "cannot write '%s': %s", w->path, strerror(errno));
  return RL_EIO;
}

rl_status rl_npy_commit(rl_npy_writer *w, char *err, size_t errsize)
{
  rl_status st = RL_OK;
  if (w->done != w->rows) {
    werr(err, errsize, "%zu rows written of the declared %zu for '%s'", w->done, w->rows, w->path);
    st = RL_EINVAL;
  } else if (fflush(w->f) || ferror(w->f)) {
    werr(err, errsize, "cannot write '%s': %s", w->path, strerror(errno));
    st = RL_EIO;
  }
  int rc = fclose(w->f);
  w->f = NULL;
  if (!st && rc) {
    werr(err, errsize, "cannot write '%s': %s", w->path, strerror(errno));
    st = RL_EIO;
  }
  if (!st && rename(w->tmp, w->path)) {
    werr(err, errsize, "cannot rename the finished file into '%s': %s", w->path,
         strerror(errno));
    st = RL_EIO;
  }
  if (!st)
    free(w->tmp), w->tmp = NULL; /* renamed: nothing to remove */
  rl_npy_abort(w);
  return st;
}

rl_status rl_npy_write(const char *path, const double *data, size_t rows, size_t cols, char *err,
                       size_t errsize)
{
  rl_npy_writer *w;
  rl_status st = rl_npy_create(path, rows, cols, &w, err, errsize);
  if (st)
    return st;
  if ((st = rl_npy_append(w, data, rows, err, errsize))) {
    rl_npy_abort(w);
    return st;
  }
  return rl_npy_commit(w, err, errsize);
}
