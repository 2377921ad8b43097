/* shards.c: the files --shard writes, read back, checked and joined
 * (shards.h).  Each file is read twice: once to check it against the
 * others before anything is written, then again as its rows are copied,
 * checked once more, so that a shard changed in between is not joined. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "cksum.h"
#include "cmd.h"
#include "msg.h"
#include "out.h"
#include "rowfmt.h"
#include "shards.h"

static void free_shard(rl_shard_file *f)
{
  for (size_t i = 0; i < f->n; i++)
    free(f->lines[i]);
  free(f->lines);
  free(f->header);
  memset(f, 0, sizeof *f);
}

/* path opened for reading if it is a regular file (rl_file_open_read:
 * a FIFO without a writer is refused at once instead of blocking). */
static FILE *open_regular(const char *cmd, const char *path, int *rc)
{
  FILE *fp;
  char err[RL_ERR_MAX];
  rl_status st = rl_file_fopen_read(path, NULL, 0, &fp, NULL, err, sizeof err);
  *rc = st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : st ? rl_runtime(cmd, "%s", err) : 0;
  return fp;
}

static int read_shard(const char *cmd, const char *path, rl_shard_file *f)
{
  int rc;
  FILE *fp = open_regular(cmd, path, &rc);
  if (!fp)
    return rc;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  off_t at = 0; /* where the line just read began */
  while ((at = ftello(fp), len = getline(&line, &cap, fp)) >= 0) {
    if (len == 0 || line[len - 1] != '\n') {
      rc = rl_usage(cmd, "invalid shard '%s': its last line is not complete", path);
      break;
    }
    line[len - 1] = 0;
    if (!f->header) { /* the first line */
      if (!strncmp(line, "# ", 2)) {
        rc = rl_usage(cmd, "invalid shard '%s': it begins with metadata, expected the header row "
                           "first (written by an older ropelab?)", path);
        break;
      }
      if (!(f->header = strdup(line))) {
        rc = rl_runtime(cmd, "%s", strerror(ENOMEM));
        break;
      }
      continue;
    }
    if (strncmp(line, "# ", 2))
      break; /* the first row */
    if (f->n == f->cap) {
      size_t c = f->cap ? 2 * f->cap : 64;
      char **p = realloc(f->lines, c * sizeof *p);
      if (!p) {
        rc = rl_runtime(cmd, "%s", strerror(ENOMEM));
        break;
      }
      f->lines = p;
      f->cap = c;
    }
    if (!(f->lines[f->n] = strdup(line + 2))) {
      rc = rl_runtime(cmd, "%s", strerror(ENOMEM));
      break;
    }
    f->n++;
  }
  f->data = at; /* the first row, or the end */
  if (!rc && ferror(fp))
    rc = rl_runtime(cmd, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
  if (!rc && !f->header)
    rc = rl_usage(cmd, "invalid shard '%s': empty, expected a header row", path);
  if (!rc && (f->n < 3 || strncmp(f->lines[0], "ropelab=", 8) ||
              strncmp(f->lines[1], "command=", 8) || strncmp(f->lines[f->n - 1], "shard=", 6)))
    rc = rl_usage(cmd, "'%s' is not a shard: no '# shard=K/N' metadata line (written by "
                       "--shard)", path);
  free(line);
  fclose(fp);
  return rc;
}

/* The words of a '# command=' value (split at spaces outside '...'). */
static size_t words(const char *s, const char **w, size_t *wl, size_t max)
{
  size_t n = 0;
  int q = 0;
  const char *start = s;
  for (const char *p = s;; p++) {
    if (*p == '\'')
      q = !q;
    if ((*p == ' ' && !q) || !*p) {
      if (n < max)
        w[n] = start, wl[n] = (size_t)(p - start);
      n++;
      start = p + 1;
    }
    if (!*p)
      break;
  }
  return n;
}

static int word_is(const char *w, size_t l, const char *s)
{
  return strlen(s) == l && !strncmp(w, s, l);
}

/* The command line with its output option's value replaced by repl (or
 * the option removed when repl is NULL); malloc'd. */
static char *swap_output(const char *cmdline, const char *repl)
{
  size_t max = strlen(cmdline) / 2 + 2;
  const char **w = malloc(max * sizeof *w);
  size_t *wl = malloc(max * sizeof *wl);
  char *out = NULL, *quoted = NULL;
  size_t olen = 0, qlen = 0;
  FILE *fp = open_memstream(&out, &olen);
  if (!w || !wl || !fp)
    goto fail;
  size_t n = words(cmdline, w, wl, max);
  if (repl) {
    FILE *q = open_memstream(&quoted, &qlen);
    if (!q)
      goto fail;
    rl_out_quote(q, repl);
    fclose(q);
  }
  int first = 1;
  for (size_t i = 0; i < n && i < max; i++) {
    const char *inl = NULL;
    size_t skip = 0;
    if ((word_is(w[i], wl[i], "-o") || word_is(w[i], wl[i], "--output")) && i + 1 < n)
      skip = 2;
    else if (wl[i] > 9 && !strncmp(w[i], "--output=", 9))
      inl = "--output=", skip = 1;
    else if (wl[i] > 2 && !strncmp(w[i], "-o", 2) && w[i][2] != '\'')
      inl = "-o", skip = 1;
    if (!skip) {
      fprintf(fp, "%s%.*s", first ? "" : " ", (int)wl[i], w[i]);
      first = 0;
      continue;
    }
    if (repl) {
      if (inl) { /* re-quote the whole word, as the command line did */
        char *word = malloc(strlen(inl) + strlen(repl) + 1);
        if (!word)
          goto fail;
        strcat(strcpy(word, inl), repl);
        fputs(first ? "" : " ", fp);
        rl_out_quote(fp, word);
        free(word);
      } else {
        fprintf(fp, "%s%.*s %s", first ? "" : " ", (int)wl[i], w[i], quoted);
      }
      first = 0;
    }
    i += skip - 1;
  }
  if (fclose(fp) != 0) {
    fp = NULL;
    goto fail;
  }
  free(w);
  free(wl);
  free(quoted);
  return out;
fail:
  if (fp)
    fclose(fp);
  free(out);
  free(w);
  free(wl);
  free(quoted);
  return NULL;
}

static int num(const char **p, const char *word, unsigned long long *v)
{
  size_t l = strlen(word);
  char *e;
  if (strncmp(*p, word, l) || (*p)[l] < '0' || (*p)[l] > '9')
    return -1;
  errno = 0;
  *v = strtoull(*p + l, &e, 10);
  *p = e;
  return errno ? -1 : 0;
}

/* 'K/N rows=R bytes=B cksum=C' of the '# shard=' line */
static int parse_k(const char *v, unsigned long long *k, unsigned long long *n)
{
  if (num(&v, "", k) || num(&v, "/", n))
    return -1;
  return (*v && *v != ' ') || *k < 1 || *k > *n ? -1 : 0;
}

static int parse_sums(const char *cmd, const char *path, rl_shard_file *f)
{
  const char *v = strchr(f->lines[f->n - 1], ' ');
  if (!v || num(&v, " rows=", &f->rows) || num(&v, " bytes=", &f->bytes) ||
      num(&v, " cksum=", &f->cksum) || *v || f->cksum > 0xffffffffu)
    return rl_usage(cmd, "invalid shard '%s': its '# shard=' line records no row count and "
                         "checksum (expected 'K/N rows=R bytes=B cksum=C', as --shard writes)",
                    path);
  return 0;
}

/* Read f's rows from its data offset: every row complete and with the
 * header's number of fields, their count, length and cksum those its
 * '# shard=' line records; copied to o when o is not NULL. */
static int check_rows(const char *cmd, const char *path, const rl_shard_file *f, rl_out *o)
{
  int rc;
  FILE *fp = open_regular(cmd, path, &rc);
  if (!fp)
    return rc;
  size_t fields = 1;
  for (const char *c = f->header; *c; c++)
    fields += *c == ',';
  char buf[1 << 16];
  size_t n, nf = 1;
  unsigned long long rows = 0;
  int last = '\n';
  rl_cksum ck;
  rl_cksum_init(&ck);
  if (fseeko(fp, f->data, SEEK_SET) != 0)
    rc = rl_runtime(cmd, "cannot read '%s': %s", path, strerror(errno));
  while (!rc && (!o || !o->err) && (n = fread(buf, 1, sizeof buf, fp)) > 0) {
    rl_cksum_add(&ck, buf, n);
    for (size_t i = 0; i < n && !rc; i++) {
      if (buf[i] == ',') {
        nf++;
      } else if (buf[i] == '\n') {
        rows++;
        if (nf != fields)
          rc = rl_usage(cmd, "invalid shard '%s': row %llu has %zu fields, its header %zu", path,
                        rows, nf, fields);
        nf = 1;
      }
    }
    last = buf[n - 1];
    if (o && !rc)
      rl_out_write(o, buf, n);
  }
  if (!rc && ferror(fp))
    rc = rl_runtime(cmd, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
  uint32_t sum = rl_cksum_value(&ck);
  if (rc || (o && o->err))
    ;
  else if (last != '\n')
    rc = rl_usage(cmd, "invalid shard '%s': its last row is not complete (no final newline)",
                  path);
  else if (rows != f->rows || ck.len != f->bytes)
    rc = rl_usage(cmd, "invalid shard '%s': %llu rows of %llu bytes, its '# shard=' line "
                       "records %llu rows of %llu bytes", path, rows, ck.len, f->rows, f->bytes);
  else if (sum != f->cksum)
    rc = rl_usage(cmd, "invalid shard '%s': its rows' cksum is %lu, its '# shard=' line records "
                       "%llu (rows changed)", path, (unsigned long)sum, f->cksum);
  fclose(fp);
  return rc;
}

/* first line where a and b differ (the command compared without -o) */
static int compare(const char *cmd, const rl_shard_file *a, const char *pa, const rl_shard_file *b,
                   const char *pb)
{
  if (a->n != b->n)
    return rl_usage(cmd, "'%s' is not from the same sweep as '%s': %zu metadata lines, not %zu",
                    pb, pa, b->n, a->n);
  for (size_t i = 0; i + 1 < a->n; i++) {
    int differ;
    if (i == 1) {
      char *ca = swap_output(a->lines[1] + 8, NULL), *cb = swap_output(b->lines[1] + 8, NULL);
      if (!ca || !cb) {
        free(ca);
        free(cb);
        return rl_runtime(cmd, "%s", strerror(ENOMEM));
      }
      /* the binary's path (the first word) is not the sweep: 'ropelab'
       * on PATH and build/src/ropelab make the same shards */
      const char *sa = strchr(ca, ' '), *sb = strchr(cb, ' ');
      differ = strcmp(sa ? sa : "", sb ? sb : "");
      if (differ) {
        int r = rl_usage(cmd, "'%s' is not from the same sweep as '%s': its command line "
                              "'%s' differs from '%s' (the binary's path aside)",
                         pb, pa, sb ? sb + 1 : "", sa ? sa + 1 : "");
        free(ca);
        free(cb);
        return r;
      }
      free(ca);
      free(cb);
    } else {
      differ = strcmp(a->lines[i], b->lines[i]);
    }
    if (differ) {
      const char *eq = strchr(b->lines[i], '=');
      int kl = eq ? (int)(eq - b->lines[i]) : (int)strlen(b->lines[i]);
      return rl_usage(cmd, "'%s' is not from the same sweep as '%s': its '%.*s' differs", pb,
                      pa, kl, b->lines[i]);
    }
  }
  if (strcmp(a->header, b->header))
    return rl_usage(cmd, "'%s' is not from the same sweep as '%s': its header differs", pb, pa);
  return 0;
}

/* files[i] read and checked against the first (s->first, already read
 * with its K of N in k0): the same split and sweep, a K not yet given,
 * its rows as recorded; then recorded as shard K */
static int add_shard(rl_shards *s, const char *cmd, char *const *files, size_t i,
                     rl_shard_file *f, unsigned long long k0)
{
  unsigned long long k, n;
  int rc;
  if ((rc = read_shard(cmd, files[i], f)))
    return rc;
  if (parse_k(f->lines[f->n - 1] + 6, &k, &n))
    return rl_usage(cmd, "invalid shard '%s': bad '# %s' line", files[i], f->lines[f->n - 1]);
  if (n != s->n)
    return rl_usage(cmd, "'%s' is shard %llu/%llu, '%s' is %llu/%llu: not the same split",
                    files[i], k, n, files[0], k0, s->n);
  if ((rc = compare(cmd, &s->first, files[0], f, files[i])))
    return rc;
  if (s->by_k[k - 1])
    return rl_usage(cmd, "'%s' and '%s' are both shard %llu/%llu", s->by_k[k - 1], files[i], k,
                    n);
  if ((rc = parse_sums(cmd, files[i], f)) || (rc = check_rows(cmd, files[i], f, NULL)))
    return rc;
  s->by_k[k - 1] = files[i];
  s->sums[k - 1] = *f;
  s->sums[k - 1].lines = NULL, s->sums[k - 1].header = s->first.header;
  return 0;
}

int rl_shards_load(rl_shards *s, const char *cmd, char *const *files, size_t nfiles)
{
  rl_shard_file f = {0};
  unsigned long long k0;
  int rc;
  memset(s, 0, sizeof *s);
  s->first_path = files[0];
  if ((rc = read_shard(cmd, files[0], &s->first)))
    return rc;
  rl_shard_file *first = &s->first;
  if (parse_k(first->lines[first->n - 1] + 6, &k0, &s->n) || s->n > 1000000)
    return rl_usage(cmd, "invalid shard '%s': bad '# %s' line", files[0],
                    first->lines[first->n - 1]);
  s->by_k = calloc(s->n, sizeof *s->by_k);
  s->sums = calloc(s->n, sizeof *s->sums);
  if (!s->by_k || !s->sums)
    return rl_runtime(cmd, "%s", strerror(ENOMEM));
  if ((rc = parse_sums(cmd, files[0], first)) || (rc = check_rows(cmd, files[0], first, NULL)))
    return rc;
  s->by_k[k0 - 1] = files[0];
  s->sums[k0 - 1] = *first;
  s->sums[k0 - 1].lines = NULL, s->sums[k0 - 1].header = first->header;
  for (size_t i = 1; i < nfiles && !rc; i++) {
    free_shard(&f);
    rc = add_shard(s, cmd, files, i, &f, k0);
  }
  free_shard(&f);
  for (unsigned long long k = 0; k < s->n && !rc; k++)
    if (!s->by_k[k])
      rc = rl_usage(cmd, "shard %llu/%llu is missing", k + 1, s->n);
  return rc;
}

char *rl_shards_command(const rl_shards *s, const char *output)
{
  return swap_output(s->first.lines[1] + 8, output);
}

int rl_shards_head(rl_shards *s, const char *cmd, rl_out *o, const char *command)
{
  rl_shard_file *first = &s->first;
  rl_out_meta_begin_as(o, first->lines[0] + 8, command);
  for (size_t i = 2; i + 1 < first->n; i++) {
    char *eq = strchr(first->lines[i], '=');
    if (!eq)
      return rl_usage(cmd, "invalid shard '%s': metadata line '# %s' has no '='", s->first_path,
                      first->lines[i]);
    *eq = 0;
    rl_out_meta(o, first->lines[i], eq + 1);
    *eq = '=';
  }
  size_t hl = strlen(first->header);
  first->header[hl] = '\n'; /* over its terminator, for one write */
  rl_out_header_line(o, first->header, hl + 1);
  first->header[hl] = 0;
  return 0;
}

int rl_shards_copy(const rl_shards *s, const char *cmd, rl_out *o)
{
  int rc = 0;
  for (unsigned long long k = 0; k < s->n && !o->err && !rc; k++)
    rc = check_rows(cmd, s->by_k[k], &s->sums[k], o);
  return rc;
}

void rl_shards_free(rl_shards *s)
{
  free_shard(&s->first);
  free(s->by_k);
  free(s->sums);
  memset(s, 0, sizeof *s);
}
