/* model.c: the field list of rl_model_rope, rl_model_read's choice of
 * reader by the file's first bytes (ropelab/model.h), and the model file
 * as the methods' declarations see it (rl_model_src, base/internal.h):
 * the registry says which method a file's name for it means. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "model_impl.h"

void rl_model_rope_init(rl_model_rope *m)
{
  memset(m, 0, sizeof *m);
}

void rl_model_rope_free(rl_model_rope *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->n_fields; i++) {
    free(m->fields[i].key);
    free(m->fields[i].value);
    free(m->fields[i].source);
  }
  free(m->fields);
  for (size_t i = 0; i < m->n_notes; i++)
    free(m->notes[i]);
  free(m->notes);
  free(m->short_factor);
  free(m->long_factor);
  free(m->path);
  free(m->arch);
  free(m->name);
  rl_model_rope_init(m);
}

static char *dup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

rl_status rl_model_rope_set(rl_model_rope *m, const char *key, const char *value,
                            const char *source)
{
  char *k = dup(key), *v = dup(value), *s = dup(source ? source : "");
  if (!k || !v || !s) {
    free(k), free(v), free(s);
    return RL_ENOMEM;
  }
  for (size_t i = 0; i < m->n_fields; i++)
    if (!strcmp(m->fields[i].key, key)) {
      free(m->fields[i].key), free(m->fields[i].value), free(m->fields[i].source);
      m->fields[i] = (rl_model_field){k, v, s};
      return RL_OK;
    }
  rl_model_field *f = realloc(m->fields, (m->n_fields + 1) * sizeof *f);
  if (!f) {
    free(k), free(v), free(s);
    return RL_ENOMEM;
  }
  m->fields = f;
  m->fields[m->n_fields++] = (rl_model_field){k, v, s};
  return RL_OK;
}

const char *rl_model_rope_get(const rl_model_rope *m, const char *key)
{
  for (size_t i = 0; i < m->n_fields; i++)
    if (!strcmp(m->fields[i].key, key))
      return m->fields[i].value;
  return NULL;
}

rl_status rl_model_rope_note(rl_model_rope *m, const char *note)
{
  char *d = dup(note);
  char **n = d ? realloc(m->notes, (m->n_notes + 1) * sizeof *n) : NULL;
  if (!n) {
    free(d);
    return RL_ENOMEM;
  }
  m->notes = n;
  m->notes[m->n_notes++] = d;
  return RL_OK;
}

int rl_model_name_ok(const char *s, size_t n)
{
  if (!s || n < 1 || n > 255)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0x20 || s[i] > 0x7e)
      return 0;
  return 1;
}

rl_status rl_model_read(const char *path, rl_model_rope *m, char *err, size_t n)
{
  FILE *fp;
  rl_status st = rl_file_fopen_read(path, "config", 0, &fp, NULL, err, n);
  if (st)
    return st;
  char magic[4] = {0};
  size_t got = fread(magic, 1, 4, fp);
  fclose(fp);
  if (got == 4 && !memcmp(magic, "GGUF", 4))
    return rl_model_read_gguf(path, m, err, n);
  return rl_model_read_json(path, m, err, n);
}

/* ---- the methods' names in model files (rl_schedule_type.hf, .gguf) */

const rl_model_decl *rl_model_decl_of(const rl_schedule_type *t, int gguf)
{
  return gguf ? t->gguf : t->hf;
}

const rl_schedule_type *rl_model_method_named(int gguf, const char *name, size_t len)
{
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++) {
    const rl_model_decl *d = rl_model_decl_of(*t, gguf);
    for (const char *const *n = d ? d->names : NULL; n && *n; n++)
      if (strlen(*n) == len && !memcmp(*n, name, len))
        return *t;
  }
  return NULL;
}

const rl_schedule_type *rl_model_method_flagged(int gguf, unsigned flag)
{
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++) {
    const rl_model_decl *d = rl_model_decl_of(*t, gguf);
    if (d && (d->flags & flag))
      return *t;
  }
  return NULL;
}

void rl_model_method_names(int gguf, char *buf, size_t n)
{
  const char *names[64];
  size_t k = 0;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++) {
    const rl_model_decl *d = rl_model_decl_of(*t, gguf);
    for (const char *const *nm = d ? d->names : NULL; nm && *nm && k < 64; nm++)
      names[k++] = *nm;
  }
  rl_names_alternatives(names, k, buf, n);
}

/* ---- rl_model_src: the format's operations (model_impl.h) */

const char *rl_model_src_kind(const rl_model_src *s)
{
  return s->kind;
}

const rl_schedule_type *rl_model_src_named(const rl_model_src *s)
{
  return s->named;
}

rl_model_rope *rl_model_src_rope(rl_model_src *s)
{
  return s->m;
}

size_t rl_model_src_rot(const rl_model_src *s)
{
  return s->rot;
}

const char *rl_model_src_name(rl_model_src *s, const char *key, int where)
{
  s->ops->name(s, key, where);
  return s->name;
}

rl_status rl_model_src_number(rl_model_src *s, const char *key, int where, double *v,
                              int *found)
{
  return s->ops->number(s, key, where, v, found);
}

rl_status rl_model_src_count(rl_model_src *s, const char *key, int where, double *v)
{
  return s->ops->count(s, key, where, v);
}

rl_status rl_model_src_list(rl_model_src *s, const char *key, int where, const rl_param *d,
                            size_t want, double **v)
{
  return s->ops->list(s, key, where, d, want, v);
}

rl_status rl_model_src_ints(rl_model_src *s, const char *key, int where, size_t n, long lo,
                            long hi, const char *expect, long *v)
{
  return s->ops->ints(s, key, where, n, lo, hi, expect, v);
}

rl_status rl_model_src_put(rl_model_src *s, const char *param, const char *text,
                           const char *source)
{
  return s->ops->put(s, param, text, source);
}

rl_status rl_model_src_put_num(rl_model_src *s, const char *param, double v,
                               const char *source)
{
  return s->ops->put_num(s, param, v, source);
}

rl_status rl_model_src_put_key(rl_model_src *s, const char *param, const char *key, int where,
                               int required)
{
  return s->ops->put_key(s, param, key, where, required);
}

rl_status rl_model_src_note(rl_model_src *s, const char *fmt, ...)
{
  char buf[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return rl_model_rope_note(s->m, buf);
}

rl_status rl_model_src_missing(rl_model_src *s, const char *key, int where, const char *expect)
{
  return s->ops->missing(s, key, where, expect);
}

rl_status rl_model_src_bad(rl_model_src *s, const char *key, int where, const char *fmt, ...)
{
  char tail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tail, sizeof tail, fmt, ap);
  va_end(ap);
  return s->ops->bad(s, key, where, tail);
}

rl_status rl_model_src_tensor(rl_model_src *s, const char *name, int *found)
{
  *found = 0;
  return s->ops->tensor ? s->ops->tensor(s, name, found) : RL_OK;
}

rl_status rl_model_src_tensor_read(rl_model_src *s, const char *name, const rl_param *d,
                                   size_t want, double **v, size_t *n)
{
  return s->ops->tensor_read ? s->ops->tensor_read(s, name, d, want, v, n) : RL_EINVAL;
}

rl_status rl_model_src_tensor_bad(rl_model_src *s, const char *name, const char *fmt, ...)
{
  char tail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tail, sizeof tail, fmt, ap);
  va_end(ap);
  return s->ops->tensor_bad ? s->ops->tensor_bad(s, name, tail) : RL_EFORMAT;
}

void rl_model_src_method_source(rl_model_src *s, const char *source)
{
  s->method_source = source;
}
