/* out_format.c: CSV turned into TSV, JSON Lines or .npy as it is
 * written (out_format.h). */
#define _GNU_SOURCE /* fopencookie */
#include "json.h"
#include "out_format.h"
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

const char *const rl_out_fmt_names[RL_FMT_N] = {"csv", "tsv", "jsonl", "npy"};

static int chosen = -1;

int rl_out_set_format(int fmt)
{
  int was = chosen;
  chosen = fmt;
  return was;
}

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n > t && !strcmp(s + n - t, tail);
}

rl_out_fmt rl_out_format_for(const char *path)
{
  if (chosen >= 0)
    return (rl_out_fmt)chosen;
  if (!path)
    return RL_FMT_CSV;
  if (ends_with(path, ".tsv"))
    return RL_FMT_TSV;
  if (ends_with(path, ".jsonl") || ends_with(path, ".ndjson"))
    return RL_FMT_JSONL;
  if (ends_with(path, ".npy"))
    return RL_FMT_NPY;
  return RL_FMT_CSV;
}

/* The .npy header: format 1.0, its length fixed (a multiple of 64) so
 * that the shape, known at the end, is written over the placeholder. */
#define NPY_HEAD 128

struct rl_fmt_stream {
  rl_out_fmt fmt;
  FILE *raw;
  char *line; /* the line being gathered */
  size_t len, cap;
  char **names; /* header names (jsonl, npy) */
  size_t ncols;
  int expect_header; /* 0 after --no-header: every line is a row */
  int have_header;
  char *meta;  /* jsonl: the metadata object's members so far */
  size_t mlen, mcap;
  int meta_done;
  unsigned long long rows;
  char why[256];
  char *joined; /* npy: the names, comma-separated */
};

static int grow(char **buf, size_t *cap, size_t need)
{
  if (need <= *cap)
    return 0;
  size_t c = *cap ? *cap : 256;
  while (c < need)
    c *= 2;
  char *p = realloc(*buf, c);
  if (!p)
    return -1;
  *buf = p;
  *cap = c;
  return 0;
}

static int put(rl_fmt_stream *st, const char *s, size_t n)
{
  return fwrite(s, 1, n, st->raw) == n ? 0 : -1;
}

static int puts_raw(rl_fmt_stream *st, const char *s)
{
  return put(st, s, strlen(s));
}

/* s as a JSON string into buf (json.h's escaping), appending at *len. */
static int json_str(char **buf, size_t *len, size_t *cap, const char *s)
{
  if (grow(buf, cap, *len + RL_JSON_QUOTED_MAX(strlen(s))))
    return -1;
  *len += rl_json_quote(*buf + *len, s);
  return 0;
}

/* A field that is a number as ropelab prints it (finite, or inf). */
static int numeric(const char *f, double *v)
{
  if (!*f)
    return 0;
  char *end;
  errno = 0;
  *v = strtod(f, &end);
  return !*end;
}

static int split(char *line, char ***out, size_t *n)
{
  size_t k = 1;
  for (char *c = line; *c; c++)
    k += *c == ',';
  char **f = malloc(k * sizeof *f);
  if (!f)
    return -1;
  k = 0;
  for (char *c = line;; c++) {
    f[k++] = c;
    c += strcspn(c, ",");
    if (!*c)
      break;
    *c = 0;
  }
  *out = f;
  *n = k;
  return 0;
}

static int meta_member(rl_fmt_stream *st, const char *kv)
{
  const char *eq = strchr(kv, '=');
  if (!eq)
    return 0; /* a comment that is not key=value: not metadata */
  char *key = strndup(kv, (size_t)(eq - kv));
  if (!key)
    return -1;
  int r = grow(&st->meta, &st->mcap, st->mlen + 2) ||
          (st->mlen ? (st->meta[st->mlen++] = ',', 0) : 0) ||
          json_str(&st->meta, &st->mlen, &st->mcap, key) ||
          grow(&st->meta, &st->mcap, st->mlen + 2) ||
          (st->meta[st->mlen++] = ':', 0) ||
          json_str(&st->meta, &st->mlen, &st->mcap, eq + 1);
  free(key);
  return r ? -1 : 0;
}

static int meta_flush(rl_fmt_stream *st)
{
  if (st->meta_done || !st->mlen)
    return 0;
  st->meta_done = 1;
  return puts_raw(st, "{\"ropelab_meta\":{") || put(st, st->meta, st->mlen) ||
         puts_raw(st, "}}\n");
}

static int row_jsonl(rl_fmt_stream *st, char **f, size_t n)
{
  if (meta_flush(st))
    return -1;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  int r = grow(&buf, &cap, 2);
  if (!r)
    buf[len++] = '{';
  for (size_t i = 0; i < n && !r; i++) {
    double v;
    if (i)
      r = grow(&buf, &cap, len + 1) || (buf[len++] = ',', 0);
    const char *name = i < st->ncols ? st->names[i] : "";
    char alt[32];
    if (i >= st->ncols)
      snprintf(alt, sizeof alt, "column%zu", i + 1), name = alt;
    r = r || json_str(&buf, &len, &cap, name) || grow(&buf, &cap, len + 1) ||
        (buf[len++] = ':', 0);
    if (r)
      break;
    if (!*f[i]) {
      r = grow(&buf, &cap, len + 5) || (memcpy(buf + len, "null", 4), len += 4, 0);
    } else if (numeric(f[i], &v) && isfinite(v)) {
      size_t l = strlen(f[i]);
      r = grow(&buf, &cap, len + l) || (memcpy(buf + len, f[i], l), len += l, 0);
    } else {
      r = json_str(&buf, &len, &cap, f[i]); /* text, or inf: JSON has no number for it */
    }
  }
  r = r || grow(&buf, &cap, len + 2) || (buf[len++] = '}', buf[len++] = '\n', 0) ||
      put(st, buf, len);
  free(buf);
  return r ? -1 : 0;
}

static int npy_header(rl_fmt_stream *st, unsigned long long rows, size_t cols)
{
  char h[NPY_HEAD];
  memset(h, ' ', sizeof h);
  memcpy(h, "\x93NUMPY\x01\x00", 8);
  h[8] = (char)((NPY_HEAD - 10) & 0xff);
  h[9] = (char)((NPY_HEAD - 10) >> 8);
  int n = snprintf(h + 10, NPY_HEAD - 10, "{'descr': '<f8', 'fortran_order': False, "
                                          "'shape': (%llu, %zu), }", rows, cols);
  if (n < 0 || n >= NPY_HEAD - 11)
    return -1;
  h[10 + n] = ' ';
  h[NPY_HEAD - 1] = '\n';
  return put(st, h, sizeof h);
}

static int row_npy(rl_fmt_stream *st, char **f, size_t n)
{
  if (!st->rows && !st->have_header && !st->ncols)
    st->ncols = n; /* --no-header: the first row sets the width */
  if (st->why[0]) { /* the first refusal stands */
    errno = EINVAL;
    return -1;
  }
  if (n != st->ncols) {
    snprintf(st->why, sizeof st->why, "row %llu has %zu fields, the header %zu", st->rows + 1, n,
             st->ncols);
    errno = EINVAL;
    return -1;
  }
  double v[128];
  for (size_t i = 0; i < n; i++) {
    double x;
    if (!*f[i]) {
      v[i % 128] = NAN; /* a method's n/a */
    } else if (numeric(f[i], &x)) {
      v[i % 128] = x;
    } else {
      snprintf(st->why, sizeof st->why,
               "column '%s' holds text ('%.40s'): a .npy array holds numbers only; write csv, tsv "
               "or jsonl", i < st->ncols && st->have_header ? st->names[i] : "?", f[i]);
      errno = EINVAL;
      return -1;
    }
    if (i % 128 == 127 || i + 1 == n) {
      size_t k = i % 128 + 1;
      uint64_t le[128];
      for (size_t j = 0; j < k; j++) { /* little-endian '<f8' whatever the host */
        uint64_t b;
        memcpy(&b, &v[j], 8);
        unsigned char *c = (unsigned char *)&le[j];
        for (int q = 0; q < 8; q++)
          c[q] = (unsigned char)(b >> (8 * q));
      }
      if (put(st, (const char *)le, 8 * k))
        return -1;
    }
  }
  st->rows++;
  return 0;
}

static int one_line(rl_fmt_stream *st, char *line, size_t len)
{
  if (line[0] == '#') {
    if (st->fmt == RL_FMT_TSV)
      return put(st, line, len) || put(st, "\n", 1);
    if (st->fmt == RL_FMT_JSONL)
      return meta_member(st, line + (line[1] == ' ' ? 2 : 1));
    return 0; /* npy: the metadata is in the sidecar */
  }
  if (st->fmt == RL_FMT_TSV) {
    for (size_t i = 0; i < len; i++)
      if (line[i] == ',')
        line[i] = '\t';
    return put(st, line, len) || put(st, "\n", 1);
  }
  char **f;
  size_t n;
  if (st->expect_header && !st->have_header) {
    if (split(line, &f, &n))
      return -1;
    char **names = malloc(n * sizeof *names);
    if (!names) {
      free(f);
      return -1;
    }
    for (size_t i = 0; i < n; i++)
      names[i] = strdup(f[i]);
    free(f);
    st->names = names;
    st->ncols = n;
    st->have_header = 1;
    for (size_t i = 0; i < n; i++)
      if (!names[i])
        return -1;
    return 0;
  }
  if (split(line, &f, &n))
    return -1;
  int r = st->fmt == RL_FMT_JSONL ? row_jsonl(st, f, n) : row_npy(st, f, n);
  free(f);
  return r;
}

static ssize_t fmt_write(void *cookie, const char *buf, size_t size)
{
  rl_fmt_stream *st = cookie;
  for (size_t i = 0; i < size;) {
    const char *nl = memchr(buf + i, '\n', size - i);
    size_t n = nl ? (size_t)(nl - (buf + i)) : size - i;
    if (grow(&st->line, &st->cap, st->len + n + 1)) {
      errno = ENOMEM;
      return 0;
    }
    memcpy(st->line + st->len, buf + i, n);
    st->len += n;
    i += n;
    if (!nl)
      break;
    i++;
    st->line[st->len] = 0;
    size_t l = st->len;
    st->len = 0;
    errno = 0;
    if (one_line(st, st->line, l)) {
      if (!errno)
        errno = EIO;
      return 0;
    }
  }
  return (ssize_t)size;
}

static int fmt_close(void *cookie)
{
  rl_fmt_stream *st = cookie;
  errno = 0;
  if (st->len) { /* a last line without its newline */
    st->line[st->len] = 0;
    size_t l = st->len;
    st->len = 0;
    if (one_line(st, st->line, l))
      return EOF;
  }
  if (st->fmt == RL_FMT_JSONL && meta_flush(st))
    return EOF;
  if (st->fmt == RL_FMT_NPY) {
    if (fflush(st->raw) || fseeko(st->raw, 0, SEEK_SET) || npy_header(st, st->rows, st->ncols) ||
        fflush(st->raw) || fseeko(st->raw, 0, SEEK_END))
      return EOF;
  }
  return 0;
}

FILE *rl_fmt_open(rl_out_fmt fmt, FILE *raw, int header, rl_fmt_stream **out)
{
  rl_fmt_stream *st = calloc(1, sizeof *st);
  if (!st)
    return NULL;
  st->fmt = fmt;
  st->expect_header = header;
  st->raw = raw;
  if (fmt == RL_FMT_NPY && npy_header(st, 0, 0)) { /* the placeholder */
    free(st);
    return NULL;
  }
  cookie_io_functions_t fns = {NULL, fmt_write, NULL, fmt_close};
  FILE *fp = fopencookie(st, "w", fns);
  if (!fp) {
    free(st);
    return NULL;
  }
  setvbuf(fp, NULL, _IOFBF, 1 << 16);
  *out = st;
  return fp;
}

const char *rl_fmt_error(const rl_fmt_stream *st)
{
  return st && st->why[0] ? st->why : NULL;
}

const char *rl_fmt_names(rl_fmt_stream *w)
{
  if (w->joined)
    return w->joined;
  size_t n = 1;
  for (size_t i = 0; i < w->ncols && w->names; i++)
    n += strlen(w->names[i]) + 1;
  if (!(w->joined = calloc(n, 1)))
    return "";
  for (size_t i = 0; i < w->ncols && w->names; i++)
    strcat(strcat(w->joined, i ? "," : ""), w->names[i]);
  return w->joined;
}

void rl_fmt_free(rl_fmt_stream *st)
{
  if (!st)
    return;
  for (size_t i = 0; i < st->ncols && st->names; i++)
    free(st->names[i]);
  free(st->names);
  free(st->line);
  free(st->meta);
  free(st->joined);
  free(st);
}
