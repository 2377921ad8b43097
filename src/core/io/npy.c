/* npy.c: a strict reader of NumPy's .npy format (rl_npy_parse).
 *
 * The format, as numpy/lib/format.py documents it (NEP 1): the magic
 * string "\x93NUMPY", a major and minor version byte (1.0, 2.0, 3.0), the
 * header length as a little-endian uint16 (1.0) or uint32 (2.0, 3.0),
 * then the header, an ASCII (3.0: UTF-8) Python dict literal with exactly
 * the keys 'descr', 'fortran_order' and 'shape', padded with spaces and
 * ended by '\n', then the raw data.  The dict is parsed here as a small
 * grammar (strings in either quote, True/False, tuples of integers with
 * an optional trailing comma), not matched as text, so that key order and
 * spacing do not matter and anything else is refused by name. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

typedef struct {
  const char *p, *end;
} cursor;

static void blanks(cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static int eat(cursor *c, char ch)
{
  blanks(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

/* a Python string literal without escapes: 'x' or "x" */
static int string(cursor *c, char *out, size_t size)
{
  blanks(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return 0;
  char q = *c->p++;
  size_t k = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || k + 1 >= size)
      return 0;
    out[k++] = *c->p++;
  }
  if (c->p >= c->end)
    return 0;
  c->p++;
  out[k] = 0;
  return 1;
}

static int word(cursor *c, const char *w)
{
  blanks(c);
  size_t l = strlen(w);
  if ((size_t)(c->end - c->p) >= l && !memcmp(c->p, w, l)) {
    c->p += l;
    return 1;
  }
  return 0;
}

/* (), (n,), (n, m), (n, m,) ...: up to 8 axes */
static int shape(cursor *c, unsigned long long *dims, int *ndim)
{
  if (!eat(c, '('))
    return 0;
  *ndim = 0;
  for (;;) {
    blanks(c);
    if (eat(c, ')'))
      return 1;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9' || *ndim >= 8)
      return 0;
    unsigned long long v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (v > (1ull << 40))
        return 0;
      v = v * 10 + (unsigned)(*c->p++ - '0');
    }
    dims[(*ndim)++] = v;
    if (eat(c, ')'))
      return 1;
    if (!eat(c, ','))
      return 0;
    if (*ndim == 1 && eat(c, ')'))
      return 1;
  }
}

static double half_to_double(uint16_t h)
{
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? (double)NAN : (double)INFINITY) : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

rl_status rl_npy_parse(const unsigned char *buf, size_t len, const char *name, rl_array *a,
                       char *err, size_t n)
{
  memset(a, 0, sizeof *a);
  a->npy = 1;
  if (len == 0)
    return rl_errf(RL_EFORMAT, err, n, "%s: empty file: expected a .npy array", name);
  if (len < 10 || memcmp(buf, "\x93NUMPY", 6))
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: no .npy magic string: expected a file written by numpy.save", name);
  unsigned major = buf[6], minor = buf[7];
  if (major < 1 || major > 3 || minor != 0)
    return rl_errf(RL_EFORMAT, err, n, "%s: .npy format version %u.%u: expected 1.0, 2.0 or 3.0",
                   name, major, minor);
  size_t pre = major == 1 ? 10 : 12;
  if (len < pre)
    return rl_errf(RL_EFORMAT, err, n, "%s: truncated .npy header: expected at least %zu bytes",
                   name, pre);
  size_t hlen = major == 1 ? (size_t)buf[8] | (size_t)buf[9] << 8
                           : (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
                                 (size_t)buf[11] << 24;
  if (hlen > len - pre)
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: truncated .npy header: %zu bytes announced, %zu present", name, hlen,
                   len - pre);
  const char *h = (const char *)buf + pre;
  if (hlen == 0 || h[hlen - 1] != '\n')
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: malformed .npy header: expected a dict ending in a newline", name);
  cursor c = {h, h + hlen};
  char descr[16] = "", key[32];
  int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0, ndim = 0;
  unsigned long long dims[8];
  if (!eat(&c, '{'))
    return rl_errf(RL_EFORMAT, err, n, "%s: malformed .npy header: expected a dict '{...}'", name);
  while (!eat(&c, '}')) {
    if (!string(&c, key, sizeof key) || !eat(&c, ':'))
      return rl_errf(RL_EFORMAT, err, n, "%s: malformed .npy header: expected 'key': value", name);
    if (!strcmp(key, "descr") && !have_descr) {
      if (!string(&c, descr, sizeof descr))
        return rl_errf(RL_EFORMAT, err, n,
                       "%s: unsupported descr: expected a type string such as '<f4' "
                       "(a structured dtype is not a table)",
                       name);
      have_descr = 1;
    } else if (!strcmp(key, "fortran_order") && !have_fortran) {
      if (word(&c, "True"))
        fortran = 1;
      else if (!word(&c, "False"))
        return rl_errf(RL_EFORMAT, err, n, "%s: malformed fortran_order: expected True or False",
                       name);
      have_fortran = 1;
    } else if (!strcmp(key, "shape") && !have_shape) {
      if (!shape(&c, dims, &ndim))
        return rl_errf(RL_EFORMAT, err, n, "%s: malformed shape: expected a tuple of integers",
                       name);
      have_shape = 1;
    } else {
      return rl_errf(RL_EFORMAT, err, n,
                     "%s: unexpected key '%s' in the .npy header: expected descr, "
                     "fortran_order and shape once each",
                     name, key);
    }
    if (!eat(&c, ',')) {
      if (!eat(&c, '}'))
        return rl_errf(RL_EFORMAT, err, n, "%s: malformed .npy header: expected ',' or '}'", name);
      break;
    }
  }
  blanks(&c);
  if (c.p != c.end)
    return rl_errf(RL_EFORMAT, err, n, "%s: malformed .npy header: text after the dict", name);
  if (!have_descr || !have_fortran || !have_shape)
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: .npy header lacks '%s': expected descr, fortran_order and shape", name,
                   !have_descr     ? "descr"
                   : !have_fortran ? "fortran_order"
                                   : "shape");
  /* byte order: '<' little, '>' big (swapped here), '=' native; '|' is
   * numpy's "not applicable", which a multi-byte float never has */
  int swap = 0, size = 0;
  const uint16_t probe = 1;
  int little = *(const unsigned char *)&probe == 1;
  if (strlen(descr) == 3 && descr[1] == 'f' && strchr("248", descr[2]) &&
      strchr("<>=", descr[0])) {
    size = descr[2] - '0';
    swap = descr[0] == '=' ? 0 : (descr[0] == '<') != little;
  } else {
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: unsupported dtype '%s': expected float16, float32 or float64 "
                   "('<f2', '<f4', '<f8'; '>' and '=' also read)",
                   name, descr);
  }
  if (ndim < 1 || ndim > 2)
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: a %d-dimensional array: expected 1-D (inverse frequencies) or "
                   "2-D (positions x columns)",
                   name, ndim);
  unsigned long long rows = dims[0], cols = ndim == 2 ? dims[1] : 1;
  if (!rows || !cols)
    return rl_errf(RL_EFORMAT, err, n, "%s: shape with an empty axis: expected at least one value",
                   name);
  /* Each axis may be up to ~1.1e12 here, so rows * cols can wrap past
   * 2^64: compare by division first, never form the product unchecked
   * (a wrapped product once passed this test and the loop below wrote
   * far past the buffer). */
  if (rows > RL_ARRAY_MAX_ELEMS / cols)
    return rl_errf(RL_EFORMAT, err, n, "%s: %llu x %llu values: expected at most %zu", name, rows,
                   cols, RL_ARRAY_MAX_ELEMS);
  size_t count = (size_t)(rows * cols), want = count * (size_t)size, have = len - pre - hlen;
  if (have < want)
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: truncated data: the header's shape needs %zu bytes, the file "
                   "holds %zu",
                   name, want, have);
  if (have > want)
    return rl_errf(RL_EFORMAT, err, n,
                   "%s: %zu bytes after the data: expected exactly %zu for the header's "
                   "shape (the header lies about the shape?)",
                   name, have - want, want);
  a->data = malloc(count * sizeof *a->data);
  if (!a->data)
    return RL_ENOMEM;
  const unsigned char *d = buf + pre + hlen;
  for (size_t k = 0; k < count; k++) {
    unsigned char b[8];
    for (int j = 0; j < size; j++)
      b[j] = d[k * (size_t)size + (size_t)(swap ? size - 1 - j : j)];
    double v;
    if (size == 2) {
      uint16_t u;
      memcpy(&u, b, 2);
      v = half_to_double(u);
    } else if (size == 4) {
      float f;
      memcpy(&f, b, 4);
      v = f;
    } else {
      memcpy(&v, b, 8);
    }
    /* C order: k = i * cols + j; Fortran: k = j * rows + i */
    size_t i = fortran ? k % (size_t)rows : k / (size_t)cols;
    size_t j = fortran ? k / (size_t)rows : k % (size_t)cols;
    if (!isfinite(v)) {
      free(a->data);
      a->data = NULL;
      if (ndim == 1)
        return rl_errf(RL_EFORMAT, err, n, "%s: %s at index %zu: expected finite numbers", name,
                       isnan(v) ? "NaN" : "infinity", i);
      return rl_errf(RL_EFORMAT, err, n, "%s: %s at row %zu, column %zu: expected finite numbers",
                     name, isnan(v) ? "NaN" : "infinity", i, j);
    }
    a->data[i * (size_t)cols + j] = v;
  }
  a->rows = (size_t)rows;
  a->cols = (size_t)cols;
  a->ndim = ndim;
  a->elem = 8 * size;
  a->fortran = fortran;
  return RL_OK;
}
