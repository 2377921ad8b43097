/* out_format.c: choosing a format (by name, by -o's extension) and the
 * stream that cuts the CSV into typed cells for it (out_format.h,
 * formats/format_impl.h). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "formats/format_impl.h"
#include "ropelab.h"

/* ---- the registry, by name and extension ------------------------------ */

#define MAX_FORMATS 32

const rl_format_type *const *rl_out_formats(void)
{
  return rl_fmt_registry();
}

size_t rl_out_format_count(void)
{
  size_t n = 0;
  for (const rl_format_type *const *t = rl_out_formats(); *t; t++)
    n++;
  return n;
}

const char *const *rl_out_format_names(void)
{
  static const char *names[MAX_FORMATS + 1];
  if (!names[0]) {
    size_t n = 0;
    for (const rl_format_type *const *t = rl_out_formats(); *t && n < MAX_FORMATS; t++)
      names[n++] = (*t)->name;
  }
  return names;
}

const rl_format_type *rl_out_format_find(const char *name)
{
  for (const rl_format_type *const *t = rl_out_formats(); *t; t++)
    if (!strcmp((*t)->name, name))
      return *t;
  return NULL;
}

const char *rl_out_format_name(const rl_format_type *f)
{
  return f->name;
}

static const rl_format_type *chosen;

const rl_format_type *rl_out_format_set(const rl_format_type *f)
{
  const rl_format_type *was = chosen;
  chosen = f;
  return was;
}

int rl_out_set_format(int k)
{
  const rl_format_type *const *all = rl_out_formats();
  const rl_format_type *was = rl_out_format_set(k >= 0 && (size_t)k < rl_out_format_count() ? all[k]
                                                                                              : NULL);
  for (int i = 0; was && all[i]; i++)
    if (all[i] == was)
      return i;
  return -1;
}

static int ends_with(const char *s, const char *tail)
{
  size_t n = strlen(s), t = strlen(tail);
  return n > t && !strcmp(s + n - t, tail);
}

const rl_format_type *rl_out_format_for(const char *path)
{
  if (chosen)
    return chosen;
  const rl_format_type *const *all = rl_out_formats();
  for (const rl_format_type *const *t = all; path && *t; t++)
    for (const char *const *e = (*t)->ext; e && *e; e++)
      if (ends_with(path, *e))
        return *t;
  return all[0];
}

/* s appended at *len in buf (size bytes), cut to fit. */
static void cat(char *buf, size_t size, size_t *len, const char *s)
{
  int n = snprintf(buf + *len, size - *len, "%s", s);
  if (n > 0)
    *len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

void rl_fmt_list(char *buf, size_t size, unsigned without)
{
  size_t len = 0, n = 0, k = 0;
  const rl_format_type *const *all = rl_out_formats();
  buf[0] = 0;
  for (const rl_format_type *const *t = all; *t; t++)
    n += !((*t)->flags & without);
  for (const rl_format_type *const *t = all; *t; t++) {
    if ((*t)->flags & without)
      continue;
    if (k)
      cat(buf, size, &len, k + 1 == n ? " or " : ", ");
    cat(buf, size, &len, (*t)->name);
    k++;
  }
}

void rl_out_format_help(char *buf, size_t size)
{
  size_t len = 0, n = rl_out_format_count(), k = 0;
  buf[0] = 0;
  for (const rl_format_type *const *t = rl_out_formats(); *t; t++, k++) {
    if (k)
      cat(buf, size, &len, k + 1 == n ? " or " : ", ");
    cat(buf, size, &len, (*t)->name);
    if ((*t)->note) {
      cat(buf, size, &len, " ");
      cat(buf, size, &len, (*t)->note);
    }
  }
  cat(buf, size, &len, "; default: by -o's extension (");
  k = 0;
  for (const rl_format_type *const *t = rl_out_formats(); *t; t++)
    for (const char *const *e = (*t)->ext; e && *e; e++, k++) {
      if (k)
        cat(buf, size, &len, ", ");
      cat(buf, size, &len, *e);
    }
  cat(buf, size, &len, "), else ");
  cat(buf, size, &len, rl_out_formats()[0]->name);
}

/* ---- what a format may call ------------------------------------------ */

int rl_fmt_grow(char **buf, size_t *cap, size_t need)
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

int rl_fmt_put(rl_fmt_stream *st, const void *s, size_t n)
{
  return fwrite(s, 1, n, st->raw) == n ? 0 : -1;
}

int rl_fmt_refuse(rl_fmt_stream *st, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(st->why, sizeof st->why, fmt, ap);
  va_end(ap);
  errno = EINVAL;
  return -1;
}

const char *rl_fmt_col_name(const rl_fmt_stream *st, size_t i, char *buf)
{
  if (i < st->ncols)
    return st->names[i];
  snprintf(buf, 32, "column%zu", i + 1);
  return buf;
}

int rl_fmt_cell_kind(rl_fmt_cell *c)
{
  if (c->kind != RL_CELL_UNSEEN)
    return c->kind;
  if (!c->len)
    return c->kind = RL_CELL_EMPTY;
  char *end;
  c->num = strtod(c->text, &end);
  return c->kind = *end ? RL_CELL_TEXT : RL_CELL_NUMBER;
}

/* ---- the stream ------------------------------------------------------- */

/* line cut at its commas (in place) into st->cells; -1 without memory. */
static int split(rl_fmt_stream *st, char *line, size_t len, size_t *n)
{
  size_t k = 1;
  for (size_t i = 0; i < len; i++)
    k += line[i] == ',';
  if (k > st->cellcap) {
    rl_fmt_cell *c = realloc(st->cells, k * sizeof *c);
    if (!c)
      return -1;
    st->cells = c;
    st->cellcap = k;
  }
  k = 0;
  for (char *c = line, *end = line + len;; c++) {
    char *f = c;
    c += strcspn(c, ",");
    st->cells[k++] = (rl_fmt_cell){.text = f, .len = (size_t)(c - f)};
    if (c >= end)
      break;
    *c = 0;
  }
  *n = k;
  return 0;
}

static int keep_names(rl_fmt_stream *st, size_t n)
{
  if (!(st->names = calloc(n, sizeof *st->names)))
    return -1;
  for (; st->ncols < n; st->ncols++)
    if (!(st->names[st->ncols] = strdup(st->cells[st->ncols].text)))
      return -1;
  st->have_header = 1;
  return 0;
}

static int one_line(rl_fmt_stream *st, char *line, size_t len)
{
  const rl_format_type *t = st->type;
  if (line[0] == '#')
    return t->comment ? t->comment(st, line, len) : 0;
  size_t n;
  if (split(st, line, len, &n))
    return -1;
  if (st->expect_header && !st->have_header) {
    if (keep_names(st, n))
      return -1;
    return t->header ? t->header(st, st->cells, n) : 0;
  }
  if (t->row(st, st->cells, n))
    return -1;
  st->rows++;
  return 0;
}

static ssize_t fmt_write(void *cookie, const char *buf, size_t size)
{
  rl_fmt_stream *st = cookie;
  if (st->why[0]) { /* the first refusal stands */
    errno = EINVAL;
    return 0;
  }
  for (size_t i = 0; i < size;) {
    const char *nl = memchr(buf + i, '\n', size - i);
    size_t n = nl ? (size_t)(nl - (buf + i)) : size - i;
    if (rl_fmt_grow(&st->line, &st->cap, st->len + n + 1)) {
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
  if (st->why[0])
    return EOF;
  if (st->len) { /* a last line without its newline */
    st->line[st->len] = 0;
    size_t l = st->len;
    st->len = 0;
    if (one_line(st, st->line, l))
      return EOF;
  }
  return st->type->end && st->type->end(st) ? EOF : 0;
}

FILE *rl_fmt_open(const rl_format_type *f, FILE *raw, int header, rl_fmt_stream **out)
{
  rl_fmt_stream *st = calloc(1, sizeof *st);
  if (!st || (f->state_size && !(st->state = calloc(1, f->state_size)))) {
    free(st);
    return NULL;
  }
  st->type = f;
  st->expect_header = header;
  st->raw = raw;
  FILE *fp = NULL;
  if (!f->begin || !f->begin(st)) {
    cookie_io_functions_t fns = {NULL, fmt_write, NULL, fmt_close};
    fp = fopencookie(st, "w", fns);
  }
  if (!fp) {
    rl_fmt_free(st);
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

const char *rl_fmt_names(rl_fmt_stream *st)
{
  if (st->joined)
    return st->joined;
  size_t n = 1;
  for (size_t i = 0; i < st->ncols; i++)
    n += strlen(st->names[i]) + 1;
  if (!(st->joined = calloc(n, 1)))
    return "";
  for (size_t i = 0; i < st->ncols; i++)
    strcat(strcat(st->joined, i ? "," : ""), st->names[i]);
  return st->joined;
}

void rl_fmt_free(rl_fmt_stream *st)
{
  if (!st)
    return;
  if (st->state && st->type->release)
    st->type->release(st->state);
  free(st->state);
  for (size_t i = 0; i < st->ncols && st->names; i++)
    free(st->names[i]);
  free(st->names);
  free(st->line);
  free(st->cells);
  free(st->joined);
  free(st);
}
