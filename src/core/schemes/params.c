/* params.c: reading the parameter files a user exports from a
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
#include "../base/internal.h"

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
  char msg[RL_ERR_MAX];
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

/* ---- the largest value a table may hold ----
 *
 * A finite table can still overflow: 1e308 is finite, but a T5 bias of
 * 1e308 makes compare's Frobenius norms infinite and 1e308 - (-1e308)
 * is inf.  So each kind of table has a limit on |value|, checked at
 * load, the largest for which every quantity ropelab computes from it
 * stays finite, for every option value the commands accept.
 *
 * 1. A bound LAMBDA on |positional logit| P = total - cc.  The largest
 *    sums the measures take of P are compare's (structure.c):
 *    ||P||_F^2, ||P - P^T||_F^2 and the squared deviations from the
 *    diagonal means, over N^2 entries of at most (2 LAMBDA)^2 each, N =
 *    rank_n <= max(4d + 16, --len 4096) <= 4 * 65536 + 16 < 2^19.  So
 *    4 LAMBDA^2 N^2 < 2^2 LAMBDA^2 2^38 <= DBL_MAX (~2^1024) holds for
 *    LAMBDA = 2^491 (the sum is then < 2^1022).  The other measures sum
 *    less: profile (Welford) <= 10^8 < 2^27 samples of (2 LAMBDA)^2;
 *    extrapolate's shift <= 2^32 values, its softmax subtracts the
 *    maximum and its W1 distance telescopes to <= 2 LAMBDA.  GSL's SVD
 *    (rank) of a matrix with ||P||_F <= N LAMBDA < 2^510 squares
 *    singular values below 2^1020.  The content term cc is below
 *    g^4 d^1.5 <= 2^40 (see 3), nothing next to LAMBDA.
 *
 * 2. Draws: every N(0, 1) number ropelab draws is below g = 16 in
 *    magnitude.  gsl_ran_gaussian (GSL randist/gauss.c, the polar
 *    method, Knuth TAOCP vol. 2 sec. 3.4.1) returns y sqrt(-2 ln r2 /
 *    r2) with |y| <= sqrt(r2) and r2 >= 2^-62 (mt19937's uniforms are
 *    multiples of 2^-32), so |z| <= sqrt(124 ln 2) = 9.3; the ziggurat
 *    of extrapolate stays below 3.45 + 32 ln 2 / 3.44 = 9.9.  Hence a
 *    projection W (d x d, N(0, 1/d)) has ||W||_2 <= ||W||_F <= g
 *    sqrt(d) (identity: 1), a content vector |x| <= g sqrt(d).
 *
 * 3. Per table, |value| <= V; rows then have |p| <= V sqrt(d):
 *    t5 bias       P = bias:                               V = LAMBDA
 *    alibi slope   P = -m |i - j|, |i - j| <= 2 RL_POS_MAX = 2^32:
 *                                                          V = 2^459
 *    learned       P = (Wx.Wp + Wp.Wx + Wp.Wp) / sqrt(d) with |Wx| <=
 *                  g^2 d, |Wp| <= g d V: |P| <= g^2 d^1.5 V (2g + V)
 *                  <= 2 g^2 d^1.5 V^2 (V >= 2g):
 *                          V = sqrt(LAMBDA / (2 g^2 d^1.5)) = 2^241 / d^0.75
 *    deberta       P = (W_k^T q.P_r + W_q^T k.P_r) / sqrt(3d), |W^T q| <=
 *                  g^3 d^1.5: |P| <= 2 g^3 d^1.5 V / sqrt(3):
 *                          V = sqrt(3) LAMBDA / (2 g^3 d^1.5)
 *                            = sqrt(3) 2^478 / d^1.5
 *    tupe          the raw table only enters pos_ln (LayerNorm), whose
 *                  output is bounded by sqrt(d) whatever the input; its
 *                  variance sums d squares of at most (2V)^2:
 *                  4 d V^2 <= 2^1022:              V = 2^510 / sqrt(d)
 * Logits of real checkpoints are O(10): these limits only keep a
 * malformed or synthetic table from turning into inf or NaN. */
#define LOGIT_MAX 0x1p491
#define DRAW_MAX 16.0

double rl_sch_param_limit(rl_sch_table kind, size_t d)
{
  double dd = (double)d, g = DRAW_MAX;
  switch (kind) {
  case RL_SCH_TAB_BIAS: return LOGIT_MAX;
  case RL_SCH_TAB_SLOPE: return LOGIT_MAX / (2 * RL_POS_MAX);
  case RL_SCH_TAB_LEARNED: return sqrt(LOGIT_MAX / (2 * g * g * pow(dd, 1.5)));
  case RL_SCH_TAB_DEBERTA: return sqrt(3.0) * LOGIT_MAX / (2 * g * g * g * pow(dd, 1.5));
  case RL_SCH_TAB_TUPE: return 0x1p510 / sqrt(dd);
  }
  return 0;
}

/* |v| <= limit, else the message naming the value, the file, the line
 * and the range */
static int in_limit(const reader *r, const char *col, const char *text, double v, double limit,
                    char *err)
{
  if (fabs(v) <= limit)
    return 1;
  /* the limit in the fewest digits (>= 6) that do not round above it */
  char lim[40];
  for (int p = 6; p <= 17; p++) {
    snprintf(lim, sizeof lim, "%.*g", p, limit);
    if (strtod(lim, NULL) <= limit)
      break;
  }
  char cut[RL_CUT_BUF];
  rl_sch_err(err, "%s '%s' out of range in '%s' line %zu: expected -%s..%s (a larger value "
             "overflows the logits or the measures)", col, rl_cut(text, cut, sizeof cut),
             r->path, r->lineno, lim, lim);
  return 0;
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
                         double limit, double *tab, char *err)
{
  char cut[RL_CUT_BUF];
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
      rl_sch_err(err, "bad index '%s' in '%s' line %zu: expected 0..%zu",
                 rl_cut(f[0], cut, sizeof cut), path, r.lineno, nkey - 1);
      st = RL_EFORMAT;
    } else if (want == 3 && !parse_index(f[1], nsub, &sub)) {
      rl_sch_err(err, "bad head '%s' in '%s' line %zu: expected 0..%zu",
                 rl_cut(f[1], cut, sizeof cut), path, r.lineno, nsub - 1);
      st = RL_EFORMAT;
    } else if (!parse_num(f[want - 1], &v)) {
      rl_sch_err(err, "bad number '%s' in '%s' line %zu", rl_cut(f[want - 1], cut, sizeof cut),
                 path, r.lineno);
      st = RL_EFORMAT;
    } else if (!in_limit(&r, strrchr(hdr, ',') + 1, f[want - 1], v, limit, err)) {
      st = RL_EFORMAT;
    } else if (seen[key * nsub + sub]++) {
      rl_sch_err(err, "duplicate entry '%s' in '%s' line %zu", rl_cut(r.line, cut, sizeof cut),
                 path, r.lineno);
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
  return rl_sch_read_kv(path, "head,slope", H, 1, rl_sch_param_limit(RL_SCH_TAB_SLOPE, 1), tab,
                        err);
}

rl_status rl_sch_read_vec(const char *path, const char *first, size_t d, size_t max_rows,
                          double limit, double **tab, size_t *rows, char *err)
{
  char cut[RL_CUT_BUF];
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
                 "hold each index once)", rl_cut(f[0], cut, sizeof cut), path, r.lineno,
                 nrows - 1);
      st = RL_EFORMAT;
      break;
    }
    if (seen[idx]++) {
      rl_sch_err(err, "duplicate index '%s' in '%s' line %zu", rl_cut(f[0], cut, sizeof cut),
                 path, r.lineno);
      st = RL_EFORMAT;
      break;
    }
    for (size_t k = 0; k < d && !st; k++) {
      char col[32];
      snprintf(col, sizeof col, "v%zu", k);
      if (!parse_num(f[k + 1], &t[idx * d + k])) {
        rl_sch_err(err, "bad number '%s' in '%s' line %zu", rl_cut(f[k + 1], cut, sizeof cut),
                   path, r.lineno);
        st = RL_EFORMAT;
      } else if (!in_limit(&r, col, f[k + 1], t[idx * d + k], limit, err)) {
        st = RL_EFORMAT;
      }
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
