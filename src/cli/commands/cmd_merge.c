/* cmd_merge.c: `ropelab merge SHARD...`: the parts of a sweep written with
 * --shard K/N (sweep.h) joined into exactly the bytes of the run without
 * --shard.  A shard file is the header, the whole sweep's metadata (the
 * command line without --shard), a last line '# shard=K/N', then the rows
 * of its contiguous part of the points; so the merge is the header once,
 * the metadata without that line, and the rows in shard order.  The
 * shards must agree on every metadata line and the header (their -o may
 * differ: in the merged command line it becomes the merge's own -o). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "cksum.h"
#include "cmd.h"
#include "opt.h"
#include "out_format.h"
#include "out.h"
#include "rowfmt.h"

enum { OPT_META = RL_OPT_FIRST_CMD, OPT_FORMAT };

static void help(FILE *fp)
{
  fputs("usage: ropelab merge [-o FILE] [--meta comments|json] SHARD...\n"
        "\n"
        "Join the files of a sweep run with --shard K/N (every K of 1..N once, in any\n"
        "order) into exactly the bytes the sweep writes without --shard: the metadata\n"
        "without its '# shard=' line, the header once, the rows in shard order. The\n"
        "shards must agree on every metadata line (version, command line minus --shard\n"
        "and -o, parameters) and on the header, and each shard's rows must be complete\n"
        "and match the row count, length and cksum its '# shard=' line records. The\n"
        "merged command line has the merge's -o in place of the shards' (none when the\n"
        "merge writes to standard output).\n"
        "\n"
        "  -o, --output FILE  write to FILE, atomically (default: standard output)\n"
        "      --meta MODE    comments (default) or json: the metadata in FILE.json\n"
        "                     (replaced only if ropelab wrote it)\n",
        fp);
  char formats[1024]; /* from the format registry (out_format.h) */
  rl_out_format_help(formats, sizeof formats);
  rl_help_wrap(fp, "      --output-format F  ", 21, formats);
  fputs("  -h, --help         this help\n", fp);
}

typedef struct shard_file {
  char **lines; /* metadata lines without "# " and newline */
  size_t n, cap;
  char *header;
  off_t data; /* offset of the first row */
  unsigned long long rows, bytes, cksum; /* recorded in its '# shard=' line */
} shard_file;

static void free_shard(shard_file *f)
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

static int read_shard(const char *cmd, const char *path, shard_file *f)
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

static int parse_sums(const char *cmd, const char *path, shard_file *f)
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
static int check_rows(const char *cmd, const char *path, const shard_file *f, rl_out *o)
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
static int compare(const char *cmd, const shard_file *a, const char *pa, const shard_file *b,
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

static int run(int argc, char **argv)
{
  static const struct option opts[] = {{"meta", required_argument, NULL, OPT_META},
                                       {"output", required_argument, NULL, 'o'},
                                       {"output-format", required_argument, NULL, OPT_FORMAT},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  static const char *const modes[] = {"comments", "json"};
  const char *cmd = "merge", *output = NULL;
  int c, r, mode = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case 'o':
      output = optarg;
      break;
    case 'h':
      help(stdout);
      return RL_EXIT_OK;
    case OPT_META:
      if ((r = rl_opt_enum(cmd, "--meta", optarg, modes, 2, &mode)))
        return r;
      break;
    case OPT_FORMAT: {
      int k = 0;
      if ((r = rl_opt_enum(cmd, "--output-format", optarg, rl_out_fmt_names, RL_FMT_N, &k)))
        return r;
      rl_out_set_format(k);
      break;
    }
    default:
      return rl_opt_bad(cmd, c, argv, opts);
    }
  }
  int nfiles = argc - optind;
  char **files = argv + optind;
  if (nfiles < 1)
    return rl_usage(cmd, "no shard files given (see 'ropelab help merge')");

  shard_file first = {0}, f = {0};
  const char **by_k = NULL;
  shard_file *sums = NULL; /* data offset and recorded sums by K */
  char *cmdline = NULL;
  rl_out o;
  int o_open = 0, rc;
  unsigned long long k0, n0, k, n;
  if ((rc = read_shard(cmd, files[0], &first)))
    goto done;
  if (parse_k(first.lines[first.n - 1] + 6, &k0, &n0) || n0 > 1000000) {
    rc = rl_usage(cmd, "invalid shard '%s': bad '# %s' line", files[0], first.lines[first.n - 1]);
    goto done;
  }
  by_k = calloc(n0, sizeof *by_k);
  sums = calloc(n0, sizeof *sums);
  if (!by_k || !sums) {
    rc = rl_runtime(cmd, "%s", strerror(ENOMEM));
    goto done;
  }
  if ((rc = parse_sums(cmd, files[0], &first)) ||
      (rc = check_rows(cmd, files[0], &first, NULL)))
    goto done;
  by_k[k0 - 1] = files[0];
  sums[k0 - 1] = first;
  sums[k0 - 1].lines = NULL, sums[k0 - 1].header = first.header;
  for (int i = 1; i < nfiles; i++) {
    free_shard(&f);
    if ((rc = read_shard(cmd, files[i], &f)))
      goto done;
    if (parse_k(f.lines[f.n - 1] + 6, &k, &n)) {
      rc = rl_usage(cmd, "invalid shard '%s': bad '# %s' line", files[i], f.lines[f.n - 1]);
      goto done;
    }
    if (n != n0) {
      rc = rl_usage(cmd, "'%s' is shard %llu/%llu, '%s' is %llu/%llu: not the same split",
                    files[i], k, n, files[0], k0, n0);
      goto done;
    }
    if ((rc = compare(cmd, &first, files[0], &f, files[i])))
      goto done;
    if (by_k[k - 1]) {
      rc = rl_usage(cmd, "'%s' and '%s' are both shard %llu/%llu", by_k[k - 1], files[i], k, n);
      goto done;
    }
    if ((rc = parse_sums(cmd, files[i], &f)) || (rc = check_rows(cmd, files[i], &f, NULL)))
      goto done;
    by_k[k - 1] = files[i];
    sums[k - 1] = f;
    sums[k - 1].lines = NULL, sums[k - 1].header = first.header;
  }
  for (k = 0; k < n0; k++)
    if (!by_k[k]) {
      rc = rl_usage(cmd, "shard %llu/%llu is missing", k + 1, n0);
      goto done;
    }

  if (!(cmdline = swap_output(first.lines[1] + 8, output && strcmp(output, "-") ? output : NULL))) {
    rc = rl_runtime(cmd, "%s", strerror(ENOMEM));
    goto done;
  }
  rl_out_set_json(mode == 1, NULL);
  rc = rl_out_open(&o, cmd, output, 1, 1);
  rl_out_set_json(0, NULL);
  if (rc)
    goto done;
  o_open = 1;
  rl_out_meta_begin_as(&o, first.lines[0] + 8, cmdline);
  for (size_t i = 2; i + 1 < first.n; i++) {
    char *eq = strchr(first.lines[i], '=');
    if (!eq) {
      rc = rl_usage(cmd, "invalid shard '%s': metadata line '# %s' has no '='", files[0],
                    first.lines[i]);
      goto done;
    }
    *eq = 0;
    rl_out_meta(&o, first.lines[i], eq + 1);
    *eq = '=';
  }
  size_t hl = strlen(first.header);
  first.header[hl] = '\n'; /* over its terminator, for one write */
  rl_out_header_line(&o, first.header, hl + 1);
  first.header[hl] = 0;
  /* checked again as copied: a shard changed since is not merged */
  for (k = 0; k < n0 && !o.err; k++)
    if ((rc = check_rows(cmd, by_k[k], &sums[k], &o)))
      goto done;
  o_open = 0;
  rc = rl_out_close(&o);
done:
  if (o_open)
    rl_out_abort(&o);
  free_shard(&first);
  free_shard(&f);
  free(by_k);
  free(sums);
  free(cmdline);
  return rc;
}

const struct rl_cmd rl_cmd_merge = {"merge", run,
                                    "join the shards of a sweep (--shard K/N) into one table",
                                    help, NULL};
