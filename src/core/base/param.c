/* param.c: parameter declarations (ropelab.h, "parameter declarations"):
 * parsing a value's text into the field a descriptor names, checking it
 * against the declared bounds, and writing it back as text, so that every
 * front end (the CLI's options, its metadata, a config reader) forms the
 * same value and the same message from the one declaration.  Numbers are
 * read in the C locale whatever LC_NUMERIC says. */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "internal.h"

static void *field(const rl_param *d, void *obj)
{
  return (char *)obj + d->offset;
}

static const void *cfield(const rl_param *d, const void *obj)
{
  return (const char *)obj + d->offset;
}

const char *const *rl_param_names(const rl_param *d)
{
  return d->names_fn ? d->names_fn() : d->names;
}

size_t rl_param_count_names(const rl_param *d)
{
  const char *const *names = rl_param_names(d);
  size_t n = 0;
  while (names && names[n])
    n++;
  return n;
}

static int has_hi(const rl_param *d)
{
  return isfinite(d->hi);
}

void rl_param_expect(const rl_param *d, char *buf, size_t n)
{
  if (d->expect) {
    snprintf(buf, n, "%s", d->expect);
    return;
  }
  switch (d->kind) {
  case RL_PK_REAL:
    if (has_hi(d))
      snprintf(buf, n, "a number from %g to %g", d->lo, d->hi);
    else
      snprintf(buf, n, "a number %s %g", d->flags & RL_PF_LO_OPEN ? ">" : ">=", d->lo);
    break;
  case RL_PK_SIZE:
    if (has_hi(d))
      snprintf(buf, n, "an integer between %.0f and %.0f", d->lo, d->hi);
    else
      snprintf(buf, n, "an integer >= %.0f", d->lo);
    break;
  case RL_PK_EVEN:
    snprintf(buf, n, "an even integer >= %.0f", d->lo);
    break;
  case RL_PK_ENUM:
    rl_names_alternatives(rl_param_names(d), rl_param_count_names(d), buf, n);
    break;
  case RL_PK_TEXT:
    snprintf(buf, n, "a file name");
    break;
  case RL_PK_FLAG:
    snprintf(buf, n, "no value");
    break;
  case RL_PK_CUSTOM:
    if (d->flags & RL_PF_NAMES)
      rl_names_alternatives(rl_param_names(d), rl_param_count_names(d), buf, n);
    else
      snprintf(buf, n, "a value");
    break;
  }
}

/* "invalid --KEY 'ARG': expected ..." */
static rl_status bad(const rl_param *d, const char *arg, char *err, size_t n)
{
  char want[256];
  rl_param_expect(d, want, sizeof want);
  return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected %s", d->key, arg, want);
}

rl_status rl_param_number(const char *arg, double *out)
{
  static locale_t c_loc;
  if (!*arg || isspace((unsigned char)*arg))
    return RL_EINVAL;
  if (!c_loc)
    c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
  char *end;
  errno = 0;
  double x = strtod(arg, &end);
  int e = errno;
  if (old)
    uselocale(old);
  if (*end)
    return RL_EINVAL;
  if (!isfinite(x))
    return RL_EOVERFLOW;
  if (e == ERANGE)
    return RL_ERANGE;
  *out = x;
  return RL_OK;
}

static rl_status real(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  double x;
  rl_status st = rl_param_number(arg, &x);
  if (st == RL_EOVERFLOW)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected a finite number", d->key,
                   arg);
  if (st == RL_ERANGE)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': out of the range of a double", d->key,
                   arg);
  if (st)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected a number", d->key, arg);
  if (!rl_param_in_bounds(d, x))
    return bad(d, arg, err, n);
  *(double *)field(d, obj) = x;
  return RL_OK;
}

static rl_status integer(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  const char *p = arg;
  while (isdigit((unsigned char)*p))
    p++;
  unsigned long long v = 0;
  int ok = p != arg && !*p;
  if (ok) {
    errno = 0;
    v = strtoull(arg, NULL, 10);
    ok = errno != ERANGE;
  } else {
    /* an exact integer written as a number (1e2, 64.0, 4096.): its value;
     * 64.5 or 1e-3 stay refused, with what is expected */
    double x;
    if (rl_param_number(arg, &x) == RL_OK && x >= 0 && x == floor(x) && x < 0x1p64) {
      v = (unsigned long long)x;
      ok = 1;
    }
  }
  if (d->kind == RL_PK_EVEN) {
    /* the even-number messages of --dim and --rot: parity and the low
     * bound first, the typo guard (hi) after */
    if (!ok || (double)v < d->lo || v % 2)
      return bad(d, arg, err, n);
    if (has_hi(d) && (double)v > d->hi)
      return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected an even integer <= %.0f",
                     d->key, arg, d->hi);
  } else if (!ok || (double)v < d->lo || (has_hi(d) && (double)v > d->hi)) {
    return bad(d, arg, err, n);
  }
  *(size_t *)field(d, obj) = (size_t)v;
  return RL_OK;
}

rl_status rl_param_enum_index(const rl_param *d, const char *arg, int *idx, char *err, size_t n)
{
  const char *const *names = rl_param_names(d);
  size_t count = rl_param_count_names(d);
  for (size_t i = 0; i < count; i++)
    if (!strcmp(arg, names[i])) {
      *idx = (int)i;
      return RL_OK;
    }
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", d->key);
  return rl_names_error(opt, arg, arg, names, count, err, n);
}

rl_status rl_param_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  if (err && n)
    err[0] = 0;
  switch (d->kind) {
  case RL_PK_REAL: return real(d, obj, arg, err, n);
  case RL_PK_SIZE:
  case RL_PK_EVEN: return integer(d, obj, arg, err, n);
  case RL_PK_ENUM: {
    int k;
    rl_status st = rl_param_enum_index(d, arg, &k, err, n);
    if (!st)
      *(int *)field(d, obj) = k;
    return st;
  }
  case RL_PK_TEXT:
    if (!*arg)
      return bad(d, arg, err, n);
    *(const char **)field(d, obj) = arg;
    return RL_OK;
  case RL_PK_FLAG:
    *(int *)field(d, obj) = d->set_to;
    return RL_OK;
  case RL_PK_CUSTOM: {
    rl_status st = d->parse(d, obj, arg, err, n);
    if (st && err && n && !err[0])
      bad(d, arg, err, n);
    return st;
  }
  }
  return RL_EINVAL;
}

int rl_param_in_bounds(const rl_param *d, double x)
{
  if (!isfinite(x))
    return 0;
  if (d->flags & RL_PF_LO_OPEN ? !(x > d->lo) : !(x >= d->lo))
    return 0;
  if (has_hi(d) && (d->flags & RL_PF_HI_OPEN ? !(x < d->hi) : !(x <= d->hi)))
    return 0;
  return 1;
}

int rl_param_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  char num[RL_NUMFMT_MAX];
  const void *f = cfield(d, obj);
  switch (d->kind) {
  case RL_PK_REAL:
    rl_numfmt(*(const double *)f, num);
    return snprintf(buf, n, "%s", num);
  case RL_PK_SIZE:
  case RL_PK_EVEN: return snprintf(buf, n, "%zu", *(const size_t *)f);
  case RL_PK_FLAG: return snprintf(buf, n, "%s", *(const int *)f == d->set_to ? "yes" : "no");
  case RL_PK_ENUM: {
    int k = *(const int *)f;
    return snprintf(buf, n, "%s",
                    k >= 0 && (size_t)k < rl_param_count_names(d) ? rl_param_names(d)[k]
                                                                  : "unknown");
  }
  case RL_PK_TEXT: {
    const char *s = *(const char *const *)f;
    return snprintf(buf, n, "%s", s ? s : "");
  }
  case RL_PK_CUSTOM: return d->format ? d->format(d, obj, buf, n) : snprintf(buf, n, "%s", "");
  }
  return snprintf(buf, n, "%s", "");
}

void rl_param_meta_key(const rl_param *d, char *buf, size_t n)
{
  snprintf(buf, n, "%s", d->key);
  for (char *c = buf; *c; c++)
    if (*c == '-')
      *c = '_';
}

void rl_param_default_text(const rl_param *d, char *buf, size_t n)
{
  char num[RL_NUMFMT_MAX];
  if (d->dflt_text) {
    snprintf(buf, n, "%s", d->dflt_text);
    return;
  }
  switch (d->kind) {
  case RL_PK_REAL:
    rl_numfmt(d->dflt, num);
    snprintf(buf, n, "%s", num);
    return;
  case RL_PK_SIZE:
  case RL_PK_EVEN: snprintf(buf, n, "%.0f", d->dflt); return;
  case RL_PK_ENUM: {
    size_t k = (size_t)d->dflt;
    snprintf(buf, n, "%s", k < rl_param_count_names(d) ? rl_param_names(d)[k] : "");
    return;
  }
  case RL_PK_FLAG:
  case RL_PK_TEXT:
  case RL_PK_CUSTOM: snprintf(buf, n, "%s", ""); return;
  }
}

void rl_param_set_default(const rl_param *d, void *obj)
{
  void *f = field(d, obj);
  switch (d->kind) {
  case RL_PK_REAL: *(double *)f = d->dflt; return;
  case RL_PK_SIZE:
  case RL_PK_EVEN: *(size_t *)f = (size_t)d->dflt; return;
  case RL_PK_ENUM:
  case RL_PK_FLAG: *(int *)f = (int)d->dflt; return;
  case RL_PK_TEXT: *(const char **)f = NULL; return;
  case RL_PK_CUSTOM:
    if (d->reset)
      d->reset(d, obj);
    return;
  }
}

int rl_param_sweeps(const rl_param *d)
{
  if (d->flags & RL_PF_NO_SWEEP)
    return RL_PARAM_SWEEP_NONE;
  switch (d->kind) {
  case RL_PK_REAL:
  case RL_PK_SIZE:
  case RL_PK_EVEN: return RL_PARAM_SWEEP_NUMBERS;
  case RL_PK_ENUM: return RL_PARAM_SWEEP_NAMES;
  case RL_PK_CUSTOM: return d->flags & RL_PF_NAMES ? RL_PARAM_SWEEP_NAMES
                          : d->flags & RL_PF_NUMBERS ? RL_PARAM_SWEEP_NUMBERS
                                                     : RL_PARAM_SWEEP_NONE;
  case RL_PK_TEXT:
  case RL_PK_FLAG: return RL_PARAM_SWEEP_NONE;
  }
  return RL_PARAM_SWEEP_NONE;
}

int rl_param_when_split(const rl_param *d, const rl_param *const *list,
                        const rl_param **key, const char **value)
{
  const char *eq = d->when ? strchr(d->when, '=') : NULL;
  if (!eq)
    return 0;
  size_t len = (size_t)(eq - d->when);
  for (; *list; list++)
    if (strlen((*list)->key) == len && !strncmp((*list)->key, d->when, len)) {
      *key = *list;
      *value = eq + 1;
      return 1;
    }
  return 0; /* a declaration naming no parameter of its list: no condition */
}

int rl_param_when_holds(const rl_param *d, const rl_param *const *list, const void *obj,
                        const rl_param **key, char *vbuf, size_t n)
{
  const rl_param *k;
  const char *want;
  char buf[128];
  if (!rl_param_when_split(d, list, &k, &want))
    return 1;
  rl_param_format(k, obj, buf, sizeof buf);
  if (!strcmp(buf, want))
    return 1;
  if (key)
    *key = k;
  if (vbuf && n)
    snprintf(vbuf, n, "%s", buf);
  return 0;
}
