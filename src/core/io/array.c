/* array.c: a user's numeric file as an rl_array, .npy (npy.c) or CSV
 * (rl_array_read).  The CSV here is a plain grid of numbers, as numpy's
 * savetxt or a spreadsheet writes it: '#' lines skipped, one optional
 * header line of names, then the same number of fields on every line. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ropelab.h"
#include "../base/internal.h"

void rl_array_free(rl_array *a)
{
  if (!a)
    return;
  free(a->data);
  free(a->header);
  a->data = NULL;
  a->header = NULL;
}

int rl_array_column(const rl_array *a, const char *name)
{
  if (!a->header)
    return -1;
  size_t l = strlen(name);
  int k = 0;
  for (const char *f = a->header;; k++) {
    const char *e = strchr(f, ',');
    size_t fl = e ? (size_t)(e - f) : strlen(f);
    if (fl == l && !memcmp(f, name, l))
      return k;
    if (!e)
      return -1;
    f = e + 1;
  }
}

static locale_t c_locale(void)
{
  static locale_t c_loc;
  if (!c_loc)
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  return c_loc;
}

/* significant digits of a decimal field (leading zeros, sign, point and
 * exponent not counted) */
static int sig_digits(const char *f, const char *end)
{
  int k = 0, started = 0;
  for (; f < end && *f != 'e' && *f != 'E'; f++)
    if (*f >= '0' && *f <= '9') {
      started |= *f != '0';
      k += started;
    }
  return k;
}

/* a field that starts as a number does (sign, then a digit or '.'
 * and a digit): such a first line is data, never a header of names */
static int looks_numeric(const char *f)
{
  while (*f == ' ' || *f == '\t')
    f++;
  if (*f == '+' || *f == '-')
    f++;
  return (*f >= '0' && *f <= '9') || (*f == '.' && f[1] >= '0' && f[1] <= '9');
}

static int has_number(const char *line)
{
  for (const char *f = line; f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL)
    if (looks_numeric(f))
      return 1;
  return 0;
}

static rl_status parse_csv(char *buf, const char *name, rl_array *a, char *err, size_t n)
{
  size_t cap = 0, count = 0, line = 0, cols = 0;
  char cut[RL_CUT_BUF];
  float *fv = NULL; /* strtof of each field, for a float32 text table */
  int narrow = 1, have_first = 0;
  locale_t old = c_locale() ? uselocale(c_locale()) : (locale_t)0;
  rl_status st = RL_OK;
  for (char *p = buf, *next; *p; p = next) {
    line++;
    char *nl = strchr(p, '\n');
    next = nl ? nl + 1 : p + strlen(p);
    if (nl)
      *nl = 0;
    size_t l = strlen(p);
    if (l && p[l - 1] == '\r')
      p[--l] = 0;
    if (p[0] == '#')
      continue;
    if (!l) {
      if (!have_first)
        continue;
      st =
          rl_errf(RL_EFORMAT, err, n, "%s:%zu: empty line: expected %zu numbers", name, line, cols);
      goto out;
    }
    size_t c = 0;
    int numeric = 1, data = have_first || has_number(p);
    for (char *f = p, *e;; f = e + 1, c++) {
      e = strchr(f, ',');
      char *fe = e ? e : f + strlen(f);
      char *end;
      double v = strtod(f, &end);
      if (f == fe || end != fe) {
        numeric = 0;
        if (data) {
          *fe = 0;
          st = rl_errf(RL_EFORMAT, err, n,
                       "%s:%zu: invalid value '%s' in column %zu: expected a "
                       "number",
                       name, line, rl_cut(f, cut, sizeof cut), c + 1);
          goto out;
        }
      } else if (!isfinite(v)) {
        *fe = 0;
        st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: '%s' in column %zu: expected finite numbers",
                     name, line, rl_cut(f, cut, sizeof cut), c + 1);
        goto out;
      } else if (numeric) {
        if (count == cap) {
          cap = cap ? 2 * cap : 1024;
          if (cap > RL_ARRAY_MAX_ELEMS) {
            st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: more than %zu values", name, line,
                         RL_ARRAY_MAX_ELEMS);
            goto out;
          }
          double *d = realloc(a->data, cap * sizeof *d);
          if (!d) {
            st = RL_ENOMEM;
            goto out;
          }
          a->data = d;
          float *g = realloc(fv, cap * sizeof *g);
          if (!g) {
            st = RL_ENOMEM;
            goto out;
          }
          fv = g;
        }
        if (sig_digits(f, fe) > 9)
          narrow = 0;
        fv[count] = strtof(f, NULL);
        a->data[count++] = v;
      }
      if (!e)
        break;
    }
    c++;
    if (!have_first) {
      cols = c;
      have_first = 1;
      if (!numeric) { /* the header */
        count = 0;
        a->header = strdup(p);
        if (!a->header) {
          st = RL_ENOMEM;
          goto out;
        }
        continue;
      }
    } else if (c != cols) {
      st = rl_errf(RL_EFORMAT, err, n, "%s:%zu: %zu fields: expected %zu as on the first line",
                   name, line, c, cols);
      goto out;
    }
    a->rows++;
  }
  if (!have_first)
    st = rl_errf(RL_EFORMAT, err, n, "%s: empty file: expected numbers (CSV or .npy)", name);
  else if (!a->rows)
    st = rl_errf(RL_EFORMAT, err, n, "%s: a header but no rows: expected numbers below it", name);
out:
  if (old)
    uselocale(old);
  if (st) {
    free(fv);
    return st;
  }
  a->cols = cols;
  a->ndim = cols == 1 && !a->header ? 1 : 2;
  a->elem = narrow ? 32 : 64;
  /* at most 9 digits everywhere: the text of float32 values (numpy
   * prints float32 shortest, at most 9 digits); keep the float32 each
   * field denotes, not the nearest double */
  if (narrow)
    for (size_t k = 0; k < count; k++)
      a->data[k] = (double)fv[k];
  free(fv);
  return RL_OK;
}

rl_status rl_array_read(const char *path, rl_array *a, char *err, size_t n)
{
  memset(a, 0, sizeof *a);
  unsigned long long max = 16 * (unsigned long long)RL_ARRAY_MAX_ELEMS;
  FILE *fp;
  uint64_t size;
  rl_status ost = rl_file_fopen_read(path, NULL, max, &fp, &size, err, n);
  if (ost)
    return ost;
  char *buf = malloc((size_t)size + 1);
  if (!buf) {
    fclose(fp);
    return RL_ENOMEM;
  }
  size_t len = fread(buf, 1, (size_t)size, fp);
  int bad = ferror(fp);
  fclose(fp);
  if (bad) {
    free(buf);
    return rl_errf(RL_EIO, err, n, "%s: cannot read: read error", path);
  }
  buf[len] = 0;
  /* a UTF-8 byte order mark (spreadsheets write one) is not part of the
   * first value: taken as one, it made that line a header */
  if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
    memmove(buf, buf + 3, (len -= 3) + 1);
  size_t pl = strlen(path);
  int named_npy = pl >= 4 && !strcmp(path + pl - 4, ".npy");
  rl_status st;
  if ((len >= 6 && !memcmp(buf, "\x93NUMPY", 6)) || named_npy) {
    st = rl_npy_parse((const unsigned char *)buf, len, path, a, err, n);
  } else if (memchr(buf, 0, len)) {
    st = rl_errf(RL_EFORMAT, err, n,
                 "%s: binary data without the .npy magic string: expected "
                 "CSV text or a .npy file",
                 path);
  } else {
    st = parse_csv(buf, path, a, err, n);
    if (st)
      rl_array_free(a);
  }
  free(buf);
  return st;
}
