/* model.c: the field list of rl_model_rope, and rl_model_read's choice of
 * reader by the file's first bytes (ropelab/model.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../base/errf.h"
#include "ropelab.h"

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
