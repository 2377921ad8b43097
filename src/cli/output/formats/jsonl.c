/* jsonl.c: JSON Lines, one object per row keyed by the header's names
 * (column<i> past them): a number as written, text as a string, an empty
 * (n/a) cell as null, inf and nan as strings (JSON has no number for
 * them); the metadata first, as one object {"ropelab_meta": {key: value,
 * ...}} with every value a string, as in the '# key=value' lines. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "format_impl.h"
#include "json.h"

typedef struct {
  char *meta; /* the metadata object's members so far */
  size_t mlen, mcap;
  int meta_done;
  char *buf; /* the row being made */
  size_t cap;
} jsonl;

/* s (n bytes) as a JSON string appended at *len (json.h's escaping). */
static int quote(char **buf, size_t *len, size_t *cap, const char *s)
{
  if (rl_fmt_grow(buf, cap, *len + RL_JSON_QUOTED_MAX(strlen(s))))
    return -1;
  *len += rl_json_quote(*buf + *len, s);
  return 0;
}

static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
  if (rl_fmt_grow(buf, cap, *len + n + 1))
    return -1;
  memcpy(*buf + *len, s, n);
  *len += n;
  return 0;
}

/* "# key=value": one member; a comment without '=' is not metadata. */
static int comment(rl_fmt_stream *st, const char *line, size_t len)
{
  jsonl *j = st->state;
  (void)len;
  const char *kv = line + (line[1] == ' ' ? 2 : 1), *eq = strchr(kv, '=');
  if (!eq)
    return 0;
  char *key = strndup(kv, (size_t)(eq - kv));
  if (!key)
    return -1;
  int r = (j->mlen && append(&j->meta, &j->mlen, &j->mcap, ",", 1)) ||
          quote(&j->meta, &j->mlen, &j->mcap, key) || append(&j->meta, &j->mlen, &j->mcap, ":", 1) ||
          quote(&j->meta, &j->mlen, &j->mcap, eq + 1);
  free(key);
  return r ? -1 : 0;
}

static int meta_flush(rl_fmt_stream *st)
{
  jsonl *j = st->state;
  if (j->meta_done || !j->mlen)
    return 0;
  j->meta_done = 1;
  static const char open[] = "{\"ropelab_meta\":{", close[] = "}}\n";
  return rl_fmt_put(st, open, sizeof open - 1) || rl_fmt_put(st, j->meta, j->mlen) ||
                 rl_fmt_put(st, close, sizeof close - 1)
             ? -1
             : 0;
}

static int row(rl_fmt_stream *st, rl_fmt_cell *c, size_t n)
{
  jsonl *j = st->state;
  if (meta_flush(st))
    return -1;
  size_t len = 0;
  int r = append(&j->buf, &len, &j->cap, "{", 1);
  for (size_t i = 0; i < n && !r; i++) {
    char alt[32];
    r = (i && append(&j->buf, &len, &j->cap, ",", 1)) ||
        quote(&j->buf, &len, &j->cap, rl_fmt_col_name(st, i, alt)) ||
        append(&j->buf, &len, &j->cap, ":", 1);
    if (r)
      break;
    int kind = rl_fmt_cell_kind(&c[i]);
    if (kind == RL_CELL_EMPTY)
      r = append(&j->buf, &len, &j->cap, "null", 4);
    else if (kind == RL_CELL_NUMBER && isfinite(c[i].num))
      r = append(&j->buf, &len, &j->cap, c[i].text, c[i].len);
    else
      r = quote(&j->buf, &len, &j->cap, c[i].text);
  }
  r = r || append(&j->buf, &len, &j->cap, "}\n", 2) || rl_fmt_put(st, j->buf, len);
  return r ? -1 : 0;
}

static void release(void *state)
{
  jsonl *j = state;
  free(j->meta);
  free(j->buf);
}

static const char *const ext[] = {".jsonl", ".ndjson", NULL};

const rl_format_type rl_fmt_jsonl = {
    .name = "jsonl",
    .ext = ext,
    .note = "(an object a row, the metadata first)",
    .state_size = sizeof(jsonl),
    .comment = comment,
    .row = row,
    .end = meta_flush,
    .release = release,
};
