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

#define LINE_MAX_LEN 1048576 /* a row of d <= 65536 numbers fits */

typedef struct reader {
  FILE *fp;
  const char *path;
  char *line;
  size_t lineno;
  locale_t c_loc, old_loc;
} reader;

static rl_status reader_open(reader *r, const char *path, char *err)
{
  *r = (reader){0};
  r->path = path;
  r->fp = fopen(path, "r");
  if (!r->fp) {
    rl_sch_err(err, "cannot open parameter file '%s': %s", path, strerror(errno));
    return RL_EIO;
  }
  r->line = malloc(LINE_MAX_LEN);
  r->c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!r->line || r->c_loc == (locale_t)0) {
    fclose(r->fp);
    free(r->line);
    if (r->c_loc != (locale_t)0)
      freelocale(r->c_loc);
    return RL_ENOMEM;
  }
  r->old_loc = uselocale(r->c_loc);
  return RL_OK;
}

static void reader_close(reader *r)
{
  uselocale(r->old_loc);
  freelocale(r->c_loc);
  fclose(r->fp);
  free(r->line);
}

/* The next line that is neither blank nor a '#' comment, without its end
 * of line: 1; end of file: 0; error: -1 (err set). */
static int next_line(reader *r, char *err)
{
  while (fgets(r->line, LINE_MAX_LEN, r->fp)) {
    r->lineno++;
    size_t n = strlen(r->line);
    if (n == LINE_MAX_LEN - 1 && r->line[n - 1] != '\n') {
      rl_sch_err(err, "line too long in '%s' line %zu", r->path, r->lineno);
      return -1;
    }
    while (n && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r' ||
                 r->line[n - 1] == ' ' || r->line[n - 1] == '\t'))
      r->line[--n] = '\0';
    const char *p = r->line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p && *p != '#')
      return 1;
  }
  if (ferror(r->fp)) {
    rl_sch_err(err, "cannot read parameter file '%s'", r->path);
    return -1;
  }
  return 0;
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
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return *s && !*end && end != s && isfinite(*v) && errno != ERANGE;
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
  int c = next_line(r, err);
  if (c <= 0) {
    if (!c)
      rl_sch_err(err, "empty parameter file '%s': expected header '%s'", r->path, want);
    return c ? RL_EIO : RL_EFORMAT;
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
  int c;
  while (!st && (c = next_line(&r, err)) > 0) {
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
  if (!st && c < 0)
    st = RL_EIO;
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

rl_status rl_sch_read_vec(const char *path, const char *first, size_t d, double **tab,
                          size_t *rows, char *err)
{
  reader r;
  *tab = NULL;
  rl_status st = reader_open(&r, path, err);
  if (st)
    return st;
  char **f = malloc((d + 2) * sizeof *f);
  size_t cap = 64, n = 0, maxidx = 0;
  double *t = malloc(cap * d * sizeof *t);
  unsigned char *seen = calloc(cap, 1);
  if (!f || !t || !seen) {
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
  int c = 1;
  while (!st && (c = next_line(&r, err)) > 0) {
    size_t idx;
    nf = split(r.line, f, d + 1);
    if (nf != d + 1) {
      rl_sch_err(err, "wrong number of columns in '%s' line %zu: %s%zu, expected %zu",
                 path, r.lineno, nf > d + 1 ? "more than " : "", nf > d + 1 ? d + 1 : nf,
                 d + 1);
      st = RL_EFORMAT;
      break;
    }
    if (!parse_index(f[0], 1u << 24, &idx)) {
      rl_sch_err(err, "bad index '%s' in '%s' line %zu", f[0], path, r.lineno);
      st = RL_EFORMAT;
      break;
    }
    while (idx >= cap) {
      size_t nc = cap * 2;
      double *t2 = realloc(t, nc * d * sizeof *t);
      unsigned char *s2 = t2 ? realloc(seen, nc) : NULL;
      if (t2)
        t = t2;
      if (!s2) {
        st = RL_ENOMEM;
        break;
      }
      memset(s2 + cap, 0, nc - cap);
      seen = s2;
      cap = nc;
    }
    if (st)
      break;
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
    if (idx > maxidx)
      maxidx = idx;
  }
  if (!st && c < 0)
    st = RL_EIO;
  if (!st && n == 0) {
    rl_sch_err(err, "no rows in '%s'", path);
    st = RL_EFORMAT;
  }
  if (!st && maxidx + 1 != n) {
    rl_sch_err(err, "missing rows in '%s': %zu rows but largest index %zu", path, n,
               maxidx);
    st = RL_EFORMAT;
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
