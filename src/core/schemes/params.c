/* scheme_params.c: reading the parameter files a user exports from a
 * checkpoint (formats in experiments/params/README.md).
 *
 * Strict on purpose: a table with a missing or duplicated row, a
 * non-number or an extra column is RL_EFORMAT with the file and line,
 * never a silently zero-filled parameter.  Numbers are read in the C
 * locale whatever the process locale is. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h"
#include "../io/csv.h"

/* A parameter file is read whole (the strict reader of src/core/io):
 * regular files only, NUL bytes refused, at most this size (a learned
 * table of 8192 positions x d = 4096 at 25 bytes a number fits). */
#define PARAMS_MAX_BYTES ((size_t)1 << 30)

typedef struct reader {
  const char *path;
  char *buf, *pos; /* the file; the start of the next line */
  char *line;      /* the current line, NUL-terminated in place */
  size_t lineno;
  locale_t c_loc, old_loc;
} reader;

static rl_status reader_open(reader *r, const char *path, char *err)
{
  *r = (reader){0};
  r->path = path;
  char msg[RL_SCHEME_ERR_MAX];
  size_t len;
  rl_status st = rl_io_slurp(path, PARAMS_MAX_BYTES, &r->buf, &len, msg, sizeof msg);
  if (st) {
    if (st != RL_ENOMEM)
      rl_sch_err(err, "parameter file: %s", msg);
    return st;
  }
  r->pos = r->buf;
  r->c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (r->c_loc == (locale_t)0) {
    free(r->buf);
    return RL_ENOMEM;
  }
  r->old_loc = uselocale(r->c_loc);
  return RL_OK;
}

static void reader_close(reader *r)
{
  uselocale(r->old_loc);
  freelocale(r->c_loc);
  free(r->buf);
}

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

/* Whether the line from p to its end holds data (neither blank nor a
 * '#' comment); *next = the start of the following line. */
static int is_data(const char *p, const char **next)
{
  const char *nl = strchr(p, '\n');
  *next = nl ? nl + 1 : p + strlen(p);
  while (blank(*p))
    p++;
  return *p && *p != '\n' && *p != '#';
}

/* The next line that is neither blank nor a '#' comment, without its end
 * of line and trailing blanks: 1; end of file: 0. */
static int next_line(reader *r)
{
  while (*r->pos) {
    char *p = r->pos, *nl = strchr(p, '\n');
    const char *next;
    r->lineno++;
    int data = is_data(p, &next);
    r->pos = p + (next - p);
    if (!data)
      continue;
    char *e = nl ? nl : p + strlen(p);
    while (e > p && blank(e[-1]))
      e--;
    *e = '\0';
    while (blank(*p))
      p++;
    r->line = p;
    return 1;
  }
  return 0;
}

/* Data lines left after the current one. */
static size_t rows_left(const reader *r)
{
  size_t n = 0;
  for (const char *p = r->pos, *next; *p; p = next)
    n += (size_t)is_data(p, &next);
  return n;
}

/* Split the line at commas into at most max fields (NUL-terminated in
 * place, blanks around fields removed); returns the count, or max + 1
 * when there are more. */
static size_t split(char *line, char **f, size_t max)
{
  size_t n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (n == max)
      return max + 1;
    f[n++] = p;
    char *c = strchr(p, ',');
    char *end = c ? c : p + strlen(p);
    char *e = end;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    *e = '\0';
    if (!c)
      return n;
    p = c + 1;
  }
}

static int parse_num(const char *s, double *v)
{
  /* strtod's ERANGE also flags an underflow to a subnormal or zero,
   * which is the correctly rounded value: only overflow (inf) is refused */
  char *end;
  *v = strtod(s, &end);
  return *s && !*end && end != s && isfinite(*v);
}

static int parse_index(const char *s, size_t limit, size_t *v)
{
  double x;
  if (!parse_num(s, &x) || x != floor(x) || x < 0 || x >= (double)limit)
    return 0;
  *v = (size_t)x;
  return 1;
}

/* The header: names[0..n-1] exactly, comma separated. */
static rl_status header(reader *r, char **f, size_t nf, const char *want, size_t *got,
                        char *err)
{
  char buf[256];
  size_t k = 0;
  if (!next_line(r)) {
    rl_sch_err(err, "empty parameter file '%s': expected header '%s'", r->path, want);
    return RL_EFORMAT;
  }
  snprintf(buf, sizeof buf, "%s", want);
  char *wf[8];
  size_t nw = split(buf, wf, 8);
  *got = split(r->line, f, nf);
  for (k = 0; k < nw; k++)
    if (k >= *got || k >= nf || strcmp(f[k], wf[k]))
      break;
  if (k < nw) {
    rl_sch_err(err, "bad header in '%s' line %zu: expected '%s'", r->path, r->lineno, want);
    return RL_EFORMAT;
  }
  return RL_OK;
}

rl_status rl_sch_read_kv(const char *path, const char *hdr, size_t nkey, size_t nsub,
                         double *tab, char *err)
{
  reader r;
  rl_status st = reader_open(&r, path, err);
  if (st)
    return st;
  char *f[4];
  unsigned char *seen = calloc(nkey * nsub, 1);
  if (!seen) {
    reader_close(&r);
    return RL_ENOMEM;
  }
  /* the header decides the columns: a bias table keeps its head column
   * even for one head, so a file's shape never depends on H */
  size_t want = 1;
  for (const char *c = hdr; *c; c++)
    want += *c == ',';
  size_t got = 0;
  st = header(&r, f, 4, hdr, &got, err);
  if (!st && got != want) {
    rl_sch_err(err, "bad header in '%s' line %zu: expected '%s'", path, r.lineno, hdr);
    st = RL_EFORMAT;
  }
  size_t rows = 0;
  while (!st && next_line(&r)) {
    size_t n = split(r.line, f, 4), key, sub = 0;
    double v;
    if (n != want) {
      rl_sch_err(err, "wrong number of columns in '%s' line %zu: %zu, expected %zu",
                 path, r.lineno, n > 3 ? (size_t)4 : n, want);
      st = RL_EFORMAT;
    } else if (!parse_index(f[0], nkey, &key)) {
      rl_sch_err(err, "bad index '%s' in '%s' line %zu: expected 0..%zu", f[0], path,
                 r.lineno, nkey - 1);
      st = RL_EFORMAT;
    } else if (want == 3 && !parse_index(f[1], nsub, &sub)) {
      rl_sch_err(err, "bad head '%s' in '%s' line %zu: expected 0..%zu", f[1], path,
                 r.lineno, nsub - 1);
      st = RL_EFORMAT;
    } else if (!parse_num(f[want - 1], &v)) {
      rl_sch_err(err, "bad number '%s' in '%s' line %zu", f[want - 1], path, r.lineno);
      st = RL_EFORMAT;
    } else if (seen[key * nsub + sub]++) {
      rl_sch_err(err, "duplicate entry '%s' in '%s' line %zu", r.line, path, r.lineno);
      st = RL_EFORMAT;
    } else {
      tab[key * nsub + sub] = v;
      rows++;
    }
  }
  if (!st && rows != nkey * nsub) {
    rl_sch_err(err, "missing entries in '%s': %zu of %zu", path, rows, nkey * nsub);
    st = RL_EFORMAT;
  }
  free(seen);
  reader_close(&r);
  return st;
}

rl_status rl_sch_read_slopes(const char *path, size_t H, double *tab, char *err)
{
  return rl_sch_read_kv(path, "head,slope", H, 1, tab, err);
}

rl_status rl_sch_read_vec(const char *path, const char *first, size_t d, size_t max_rows,
                          double **tab, size_t *rows, char *err)
{
  reader r;
  *tab = NULL;
  rl_status st = reader_open(&r, path, err);
  if (st)
    return st;
  char **f = malloc((d + 2) * sizeof *f);
  double *t = NULL;
  unsigned char *seen = NULL;
  size_t n = 0, nrows = 0;
  if (!f) {
    st = RL_ENOMEM;
    goto done;
  }
  size_t nf = 0;
  st = header(&r, f, d + 2, first, &nf, err);
  if (!st) {
    int ok = nf == d + 1;
    for (size_t k = 0; ok && k < d; k++) {
      char name[32];
      snprintf(name, sizeof name, "v%zu", k);
      ok = !strcmp(f[k + 1], name);
    }
    if (!ok) {
      rl_sch_err(err, "bad header in '%s' line %zu: expected '%s,v0..v%zu'", path,
                 r.lineno, first, d - 1);
      st = RL_EFORMAT;
    }
  }
  /* indices 0..nrows-1 each once, so an index is checked against the
   * rows the file holds (and the scheme's limit) before anything the
   * size of the table is allocated */
  if (!st) {
    nrows = rows_left(&r);
    if (nrows == 0) {
      rl_sch_err(err, "no rows in '%s'", path);
      st = RL_EFORMAT;
    } else if (nrows > max_rows) {
      rl_sch_err(err, "too many rows in '%s': %zu, expected at most %zu", path, nrows,
                 max_rows);
      st = RL_EFORMAT;
    }
  }
  if (!st) {
    t = malloc(nrows * d * sizeof *t);
    seen = calloc(nrows, 1);
    if (!t || !seen)
      st = RL_ENOMEM;
  }
  while (!st && next_line(&r)) {
    size_t idx;
    nf = split(r.line, f, d + 1);
    if (nf != d + 1) {
      rl_sch_err(err, "wrong number of columns in '%s' line %zu: %s%zu, expected %zu",
                 path, r.lineno, nf > d + 1 ? "more than " : "", nf > d + 1 ? d + 1 : nf,
                 d + 1);
      st = RL_EFORMAT;
      break;
    }
    if (!parse_index(f[0], nrows, &idx)) {
      rl_sch_err(err, "bad index '%s' in '%s' line %zu: expected 0..%zu (the file's rows "
                 "hold each index once)", f[0], path, r.lineno, nrows - 1);
      st = RL_EFORMAT;
      break;
    }
    if (seen[idx]++) {
      rl_sch_err(err, "duplicate index '%s' in '%s' line %zu", f[0], path, r.lineno);
      st = RL_EFORMAT;
      break;
    }
    for (size_t k = 0; k < d; k++)
      if (!parse_num(f[k + 1], &t[idx * d + k])) {
        rl_sch_err(err, "bad number '%s' in '%s' line %zu", f[k + 1], path, r.lineno);
        st = RL_EFORMAT;
        break;
      }
    n++;
  }
done:
  free(f);
  free(seen);
  if (st)
    free(t);
  else {
    *tab = t;
    *rows = n;
  }
  reader_close(&r);
  return st;
}
