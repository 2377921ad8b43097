/* csv.c: the strict CSV reader (rl_csv_read, base/internal.h). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../base/internal.h"

#define MAX_COLS 64

void rl_csv_free(rl_csv_table *t)
{
  free(t->data);
  free(t->present);
  t->data = NULL;
  t->present = NULL;
}

rl_status rl_io_slurp(const char *path, size_t max, char **buf, size_t *len, char *err,
                      size_t n)
{
  *buf = NULL;
  *len = 0;
  int fd;
  uint64_t size = 0;
  rl_status st = rl_file_open_read(path, NULL, max, &fd, &size, err, n);
  if (st)
    return st;
  size_t cap = (size_t)size + 1, got = 0;
  char *b = malloc(cap + 1);
  if (!b)
    st = RL_ENOMEM;
  /* read to the end (the file may have grown since fstat), never past max */
  while (!st) {
    if (got == cap) {
      if (cap > max) {
        st = rl_errf(RL_EFORMAT, err, n, "'%s' has more than %zu bytes: expected at most %zu", path,
                     max, max);
        break;
      }
      size_t nc = cap * 2 > max + 1 ? max + 1 : cap * 2;
      char *b2 = realloc(b, nc + 1);
      if (!b2) {
        st = RL_ENOMEM;
        break;
      }
      b = b2;
      cap = nc;
    }
    ssize_t r = read(fd, b + got, cap - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      st = rl_errf(RL_EIO, err, n, "cannot read '%s': %s", path, strerror(errno));
    else if (r == 0)
      break;
    else
      got += (size_t)r;
  }
  close(fd);
  if (!st) {
    b[got] = 0;
    const char *z = memchr(b, 0, got);
    if (z) {
      size_t line = 1;
      for (const char *q = b; q < z; q++)
        line += *q == '\n';
      st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: a NUL byte: expected a text file", path, line);
    }
  }
  if (st) {
    free(b);
    return st;
  }
  /* a UTF-8 byte order mark (spreadsheets write one) is not text of the
   * first line: kept, it made the first header name or value unreadable */
  if (got >= 3 && !memcmp(b, "\xEF\xBB\xBF", 3))
    memmove(b, b + 3, (got -= 3) + 1);
  *buf = b;
  *len = got;
  return RL_OK;
}

static double num_c(const char *s, char **end)
{
  static locale_t c_loc;
  if (!c_loc)
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
  double v = strtod(s, end);
  if (old)
    uselocale(old);
  return v;
}

rl_status rl_csv_read(const char *path, const char *const *want, size_t ncols,
                      unsigned optional, const char *meta_key, rl_csv_table *t, char *err,
                      size_t n)
{
  memset(t, 0, sizeof *t);
  char cut[RL_CUT_BUF];
  char *buf = NULL;
  size_t len = 0;
  rl_status st = rl_io_slurp(path, RL_CSV_MAX_BYTES, &buf, &len, err, n);
  if (st)
    return st;
  int map[MAX_COLS]; /* header column -> want index, or -1 */
  size_t hcols = 0, cap = 0, line = 0;
  int have_header = 0;
  t->ncols = ncols;
  t->present = calloc(ncols ? ncols : 1, sizeof *t->present);
  if (!t->present) {
    free(buf);
    return RL_ENOMEM;
  }
  for (char *p = buf, *next; *p; p = next) {
    line++;
    char *nl = strchr(p, '\n');
    next = nl ? nl + 1 : p + strlen(p);
    if (nl)
      *nl = 0;
    size_t l = strlen(p);
    if (l && p[l - 1] == '\r')
      p[--l] = 0;
    if (p[0] == '#') {
      size_t kl = meta_key ? strlen(meta_key) : 0;
      if (kl && !strncmp(p + 1, " ", 1) && !strncmp(p + 2, meta_key, kl) && p[2 + kl] == '=') {
        char *end;
        double v = num_c(p + 3 + kl, &end);
        if (*end || !isfinite(v)) {
          st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: invalid %s '%s': expected a finite number",
                       path, line, meta_key, rl_cut(p + 3 + kl, cut, sizeof cut));
          goto out;
        }
        t->meta = v;
        t->has_meta = 1;
      }
      continue;
    }
    if (!l) {
      if (!have_header)
        continue;
      st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: empty line: expected %zu numbers", path, line,
                   hcols);
      goto out;
    }
    if (!have_header) {
      for (char *f = p, *e;; f = e + 1) {
        e = strchr(f, ',');
        if (e)
          *e = 0;
        if (hcols >= MAX_COLS) {
          st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: more than %d columns", path, line, MAX_COLS);
          goto out;
        }
        map[hcols] = -1;
        for (size_t k = 0; k < ncols; k++)
          if (!strcmp(f, want[k])) {
            if (t->present[k]) {
              st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: column '%s' appears twice", path, line,
                           rl_cut(f, cut, sizeof cut));
              goto out;
            }
            map[hcols] = (int)k;
            t->present[k] = 1;
          }
        hcols++;
        if (!e)
          break;
      }
      for (size_t k = 0; k < ncols; k++)
        if (!t->present[k] && !(optional & (1u << k))) {
          st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: no column '%s' in the header", path, line,
                       want[k]);
          goto out;
        }
      have_header = 1;
      continue;
    }
    if (t->rows == cap) {
      cap = cap ? 2 * cap : 64;
      double *d = realloc(t->data, cap * (ncols ? ncols : 1) * sizeof *d);
      if (!d) {
        st = RL_ENOMEM;
        goto out;
      }
      t->data = d;
    }
    double *row = t->data + t->rows * ncols;
    size_t c = 0;
    for (char *f = p, *e;; f = e + 1, c++) {
      e = strchr(f, ',');
      if (e)
        *e = 0;
      if (c >= hcols) {
        st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: more fields than the %zu header columns", path,
                     line, hcols);
        goto out;
      }
      if (map[c] < 0) { /* a column not asked for may hold text (band) */
        if (!e)
          break;
        continue;
      }
      char *end;
      double v = num_c(f, &end);
      if (!*f || *end || !isfinite(v)) {
        st = rl_errf(RL_EFORMAT, err, n,
                     "%s:%zu: invalid value '%s' in column %zu: expected a "
                     "finite number",
                     path, line, rl_cut(f, cut, sizeof cut), c + 1);
        goto out;
      }
      row[map[c]] = v;
      if (!e)
        break;
    }
    if (c + 1 != hcols) {
      st =
          rl_errf(RL_EFORMAT, err, n, "%s:%zu: %zu fields, expected %zu", path, line, c + 1, hcols);
      goto out;
    }
    t->rows++;
  }
  if (!have_header)
    st = rl_errf(RL_EFORMAT, err, n, "'%s' has no header line: expected a CSV file", path);
  else if (!t->rows)
    st = rl_errf(RL_EFORMAT, err, n, "'%s' has a header but no rows", path);
out:
  free(buf);
  if (st)
    rl_csv_free(t);
  return st;
}
