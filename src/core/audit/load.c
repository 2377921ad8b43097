/* load.c: a user's RoPE table or frequencies as an rl_audit_input
 * (ropelab.h, "audit").  The file is read by rl_array_read (CSV or
 * .npy); this decides which of the accepted forms it is. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

void rl_audit_input_free(rl_audit_input *in)
{
  if (!in)
    return;
  free(in->pos);
  free(in->cos);
  free(in->sin);
  free(in->freq);
  memset(in, 0, sizeof *in);
}

/* does v fit a format with p significand bits (hidden bit included) and
 * minimum normal exponent emin, largest finite max? */
static int fits(double v, int p, int emin, double max)
{
  if (v == 0)
    return 1;
  if (!(fabs(v) <= max))
    return 0;
  int e = ilogb(v);
  if (e < emin)
    e = emin;
  double q = ldexp(v, p - 1 - e); /* an integer when v has p bits at e */
  return q == nearbyint(q);
}

/* the narrowest format that holds every value exactly: bfloat16 (8
 * bits), float16 (11), float32 (24), float64 */
static int narrowest(const double *v, size_t n)
{
  int bf = 1, h = 1, f = 1;
  for (size_t k = 0; k < n && (bf || h || f); k++) {
    bf = bf && fits(v[k], 8, -126, 0x1.fep127);
    h = h && fits(v[k], 11, -14, 65504);
    f = f && (double)(float)v[k] == v[k];
  }
  return bf ? 17 : h ? 16 : f ? 32 : 64;
}

static int prefix_cols(const rl_array *a, const char *prefix, size_t *idx, size_t max)
{
  size_t k = 0, c = 0, l = strlen(prefix);
  if (!a->header)
    return 0;
  for (const char *f = a->header;; c++) {
    const char *e = strchr(f, ',');
    if (!strncmp(f, prefix, l) && k < max)
      idx[k++] = c;
    if (!e)
      break;
    f = e + 1;
  }
  return (int)k;
}

rl_status rl_audit_load(const char *path, const char *sin_path, const double *positions,
                        size_t npositions, rl_audit_input *in, char *err, size_t n)
{
  memset(in, 0, sizeof *in);
  rl_array a, b;
  memset(&b, 0, sizeof b);
  rl_status st = rl_array_read(path, &a, err, n);
  if (st)
    return st;
  int cpos = rl_array_column(&a, "pos"), cpair = rl_array_column(&a, "pair"),
      ccos = rl_array_column(&a, "cos"), csin = rl_array_column(&a, "sin");
  size_t rows = a.rows, cols = a.cols;
  in->elem = a.elem;
  if (sin_path) {
    st = rl_array_read(sin_path, &b, err, n);
    if (st)
      goto out;
    if (b.rows != rows || b.cols != cols) {
      st = rl_errf(RL_EFORMAT, err, n, "%s: %zu x %zu values: expected the shape of %s, %zu x %zu",
                   sin_path, b.rows, b.cols, path, rows, cols);
      goto out;
    }
    if (a.header || b.header) {
      st = rl_errf(RL_EFORMAT, err, n,
                   "%s: a header line: expected bare numbers with --sin (one row per "
                   "position, one column per pair or dimension)",
                   a.header ? path : sin_path);
      goto out;
    }
    in->kind = RL_AUDIT_TABLE;
    in->npos = rows;
    in->ncols = cols;
    in->cos = a.data, a.data = NULL;
    in->sin = b.data, b.data = NULL;
    if (b.elem > in->elem)
      in->elem = b.elem;
    snprintf(in->form, sizeof in->form, "cos and sin tables %zu x %zu", rows, cols);
  } else if (cpos >= 0 && cpair >= 0 && ccos >= 0 && csin >= 0) {
    /* pos,pair,cos,sin: rows grouped by position, pairs 0..n-1 in order */
    size_t np = 0;
    while (np < rows && a.data[np * cols + (size_t)cpair] == (double)np)
      np++;
    if (!np || rows % np) {
      st = rl_errf(RL_EFORMAT, err, n,
                   "%s: %zu rows of pos,pair,cos,sin: expected whole positions of pairs "
                   "0, 1, ..., n-1 in order",
                   path, rows);
      goto out;
    }
    in->kind = RL_AUDIT_TABLE;
    in->npos = rows / np;
    in->ncols = np;
    in->pos = malloc(in->npos * sizeof *in->pos);
    in->cos = malloc(rows * sizeof *in->cos);
    in->sin = malloc(rows * sizeof *in->sin);
    if (!in->pos || !in->cos || !in->sin) {
      st = RL_ENOMEM;
      goto out;
    }
    for (size_t r = 0; r < rows; r++) {
      const double *row = a.data + r * cols;
      size_t m = r / np, i = r % np;
      if (row[cpair] != (double)i || (i && row[cpos] != in->pos[m])) {
        st = rl_errf(RL_EFORMAT, err, n,
                     "%s: row %zu (pos %.17g, pair %.17g): expected pair %zu of position "
                     "%.17g (pairs 0..%zu in order)",
                     path, r + 1, row[cpos], row[cpair], i, i ? in->pos[m] : row[cpos], np - 1);
        goto out;
      }
      in->pos[m] = row[cpos];
      in->cos[r] = row[ccos];
      in->sin[r] = row[csin];
    }
    snprintf(in->form, sizeof in->form, "pos,pair,cos,sin");
  } else if (a.header && prefix_cols(&a, "cos", NULL, 0) == 0 &&
             prefix_cols(&a, "sin", NULL, 0) == 0 && cols == 1) {
    goto freqs;
  } else if (a.header) {
    /* pos,cos0..,sin0.. (angles pairs, dims, hf) */
    size_t *ic = malloc(2 * cols * sizeof *ic);
    if (!ic) {
      st = RL_ENOMEM;
      goto out;
    }
    size_t *is = ic + cols;
    int nc = prefix_cols(&a, "cos", ic, cols), ns = prefix_cols(&a, "sin", is, cols);
    if (nc < 1 || nc != ns || (size_t)(nc + ns + (cpos >= 0)) != cols) {
      free(ic);
      char cut[RL_CUT_BUF];
      st = rl_errf(RL_EFORMAT, err, n,
                   "%s: header '%s': expected pos,pair,cos,sin, or pos then as many "
                   "cos... as sin... columns (ropelab angles), or one column of inverse "
                   "frequencies",
                   path, rl_cut(a.header, cut, sizeof cut));
      goto out;
    }
    in->kind = RL_AUDIT_TABLE;
    in->npos = rows;
    in->ncols = (size_t)nc;
    in->cos = malloc(rows * (size_t)nc * sizeof *in->cos);
    in->sin = malloc(rows * (size_t)nc * sizeof *in->sin);
    in->pos = cpos >= 0 ? malloc(rows * sizeof *in->pos) : NULL;
    if (!in->cos || !in->sin || (cpos >= 0 && !in->pos)) {
      free(ic);
      st = RL_ENOMEM;
      goto out;
    }
    for (size_t r = 0; r < rows; r++) {
      for (size_t k = 0; k < (size_t)nc; k++) {
        in->cos[r * (size_t)nc + k] = a.data[r * cols + ic[k]];
        in->sin[r * (size_t)nc + k] = a.data[r * cols + is[k]];
      }
      if (cpos >= 0)
        in->pos[r] = a.data[r * cols + (size_t)cpos];
    }
    free(ic);
    snprintf(in->form, sizeof in->form, "pos, %d cos and sin columns", nc);
  } else if (cols == 1) {
  freqs:
    in->kind = RL_AUDIT_FREQS;
    in->ncols = rows;
    in->freq = a.data, a.data = NULL;
    for (size_t k = 0; k < rows; k++)
      if (!(in->freq[k] >= 0)) {
        st = rl_errf(RL_EFORMAT, err, n,
                     "%s: inverse frequency %.17g at index %zu: expected values >= 0", path,
                     in->freq[k], k);
        goto out;
      }
    snprintf(in->form, sizeof in->form, "inverse frequencies");
  } else {
    st = rl_errf(RL_EFORMAT, err, n,
                 "%s: a %zu x %zu table without --sin: expected one column of inverse "
                 "frequencies, columns pos,pair,cos,sin, or --sin FILE2 with its sin "
                 "table",
                 path, rows, cols);
    goto out;
  }
  if (in->kind == RL_AUDIT_TABLE) {
    if (positions) {
      if (in->pos) {
        st = rl_errf(RL_EFORMAT, err, n,
                     "%s: has a pos column and --positions was given: expected one of "
                     "them",
                     path);
        goto out;
      }
      if (npositions != in->npos) {
        st = rl_errf(RL_EFORMAT, err, n,
                     "%s: %zu rows but %zu --positions: expected one position per row", path,
                     in->npos, npositions);
        goto out;
      }
    }
    if (!in->pos) {
      in->pos = malloc(in->npos * sizeof *in->pos);
      if (!in->pos) {
        st = RL_ENOMEM;
        goto out;
      }
      for (size_t r = 0; r < in->npos; r++)
        in->pos[r] = positions ? positions[r] : (double)r;
    }
    for (size_t r = 0; r < in->npos; r++)
      if (!(fabs(in->pos[r]) <= RL_POS_MAX)) {
        st = rl_errf(RL_EFORMAT, err, n, "%s: position %.17g: expected |pos| <= 2147483648", path,
                     in->pos[r]);
        goto out;
      }
    size_t cnt = in->npos * in->ncols;
    int fc = narrowest(in->cos, cnt), fs = narrowest(in->sin, cnt);
    in->fmt = fc == 64 || fs == 64 ? 64 : fc == 32 || fs == 32 ? 32 : fc != fs ? 32 : fc;
  } else {
    in->fmt = narrowest(in->freq, in->ncols);
  }
  if (in->fmt > in->elem && in->fmt != 17)
    in->fmt = in->elem;
out:
  rl_array_free(&a);
  rl_array_free(&b);
  if (st)
    rl_audit_input_free(in);
  return st;
}
