/* npy.c: one float64 array (rows, columns), C order, NumPy format 1.0
 * (numpy/lib/format.py's version 1.0 header: magic, a 2-byte length,
 * the dict, padded with spaces to a multiple of 64, ending in '\n').  The
 * shape is known at the end, so the header's length is fixed and written
 * over its placeholder then.  Numbers only (an empty n/a cell is NaN);
 * the metadata and the column names go to FILE.json (numpy refuses a
 * header dict with keys other than descr, fortran_order and shape, so
 * they cannot go into the header; out.c replaces FILE.json only when it
 * is ropelab's own). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "format_impl.h"

#define NPY_HEAD 128

typedef struct {
  size_t cols; /* the width every row must have */
} npy;

static int header(rl_fmt_stream *st, unsigned long long rows, size_t cols)
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
  return rl_fmt_put(st, h, sizeof h);
}

static int begin(rl_fmt_stream *st)
{
  return header(st, 0, 0); /* the placeholder */
}

static int row(rl_fmt_stream *st, rl_fmt_cell *c, size_t n)
{
  npy *a = st->state;
  if (!st->rows)
    a->cols = st->have_header ? st->ncols : n; /* --no-header: the first row sets the width */
  if (n != a->cols)
    return rl_fmt_refuse(st, "row %llu has %zu fields, the header %zu", st->rows + 1, n, a->cols);
  uint64_t le[128]; /* little-endian '<f8' whatever the host, 128 at a time */
  for (size_t i = 0; i < n; i++) {
    int kind = rl_fmt_cell_kind(&c[i]);
    double v = kind == RL_CELL_EMPTY ? (double)NAN : c[i].num; /* a method's n/a */
    if (kind == RL_CELL_TEXT) {
      char text[96];
      rl_fmt_list(text, sizeof text, RL_FMT_NUMBERS_ONLY);
      return rl_fmt_refuse(st,
                           "column '%s' holds text ('%.40s'): a .npy array holds numbers only; "
                           "write %s",
                           st->have_header && i < st->ncols ? st->names[i] : "?", c[i].text, text);
    }
    uint64_t b;
    memcpy(&b, &v, 8);
    unsigned char *p = (unsigned char *)&le[i % 128];
    for (int q = 0; q < 8; q++)
      p[q] = (unsigned char)(b >> (8 * q));
    if ((i % 128 == 127 || i + 1 == n) && rl_fmt_put(st, le, 8 * (i % 128 + 1)))
      return -1;
  }
  return 0;
}

static int end(rl_fmt_stream *st)
{
  npy *a = st->state;
  size_t cols = st->rows ? a->cols : st->ncols;
  return fflush(st->raw) || fseeko(st->raw, 0, SEEK_SET) || header(st, st->rows, cols) ||
                 fflush(st->raw) || fseeko(st->raw, 0, SEEK_END)
             ? -1
             : 0;
}

static const char *const ext[] = {".npy", NULL};

const rl_format_type rl_fmt_npy = {
    .name = "npy",
    .ext = ext,
    .note = "(float64 array; metadata and names in FILE.json, replaced only if ropelab "
            "wrote it)",
    .flags = RL_FMT_NUMBERS_ONLY | RL_FMT_SEEKS | RL_FMT_META_BESIDE,
    .what = "a .npy array",
    .seek_why = "its shape is written when the rows are done",
    .state_size = sizeof(npy),
    .begin = begin,
    .row = row,
    .end = end,
};
