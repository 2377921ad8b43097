/* out.c: CSV output, written atomically, with metadata. */
#define _GNU_SOURCE /* fopencookie: the sweep layer's line hooks */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"
#include "msg.h"
#include "json.h"
#include "out.h"
#include "out_format.h"
#include "formats/format_impl.h"
#include "path.h"
#include "ropelab.h"
#include "rl_config.h"

/* ---- temp files ------------------------------------------------------ */

int rl_tmp_refused(const char *cmd, const char *path, const char *file, int e)
{
  /* the file may be writable where its folder is not: blame the folder */
  char *dir = e == EACCES || e == EPERM || e == EROFS ? rl_path_dir(file) : NULL;
  int rc = dir ? rl_runtime(cmd,
                            "cannot write '%s': its folder '%s' refuses the temporary file it is "
                            "written to first (%s)",
                            path, dir, strerror(e))
               : rl_runtime(cmd, "cannot write '%s': %s", path, strerror(e));
  free(dir);
  return rc;
}

/* ---- the command line, shell-quoted ---------------------------------- */

static int saved_argc;
static char **saved_argv;
#define RL_SKIP_MAX 8
static struct {
  char **first;
  int n;
} skips[RL_SKIP_MAX];
static int nskips;

void rl_out_set_argv(int argc, char **argv)
{
  saved_argc = argc;
  saved_argv = argv;
  nskips = 0;
}

void rl_out_argv_skip(char **first, int n)
{
  if (nskips < RL_SKIP_MAX && n > 0)
    skips[nskips].first = first, skips[nskips++].n = n;
}

static int skipped(int i)
{
  for (int k = 0; k < nskips; k++)
    if (saved_argv + i >= skips[k].first && saved_argv + i < skips[k].first + skips[k].n)
      return 1;
  return 0;
}

static int safe_char(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         strchr("_@%+=:,./-", c) != NULL;
}

/* POSIX sh quoting: bare when harmless, else '...' with ' as '\'' ; control
 * characters leave the quotes as $'\ooo' so the metadata stays one line. */
void rl_out_quote(FILE *fp, const char *s)
{
  int bare = *s != 0;
  for (const char *p = s; *p; p++)
    if (!safe_char((unsigned char)*p))
      bare = 0;
  if (bare) {
    fputs(s, fp);
    return;
  }
  fputc('\'', fp);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\'')
      fputs("'\\''", fp);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(fp, "'$'\\%03o''", *p);
    else
      fputc(*p, fp);
  }
  fputc('\'', fp);
}

static void put_command(FILE *fp)
{
  int first = 1;
  for (int i = 0; i < saved_argc; i++) {
    if (skipped(i))
      continue;
    if (!first)
      fputc(' ', fp);
    first = 0;
    rl_out_quote(fp, saved_argv[i]);
  }
}

char *rl_out_command_line(void)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  if (!fp)
    return NULL;
  put_command(fp);
  if (fclose(fp) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

static void note(rl_out *o, FILE *fp, int ok);

/* ---- metadata lists -------------------------------------------------- */

void rl_meta_add(rl_meta *m, const char *key, const char *val)
{
  if (m->n == m->cap) {
    size_t c = m->cap ? 2 * m->cap : 32;
    char **k = realloc(m->key, c * sizeof *k);
    if (k)
      m->key = k;
    char **v = k ? realloc(m->val, c * sizeof *v) : NULL;
    if (v)
      m->val = v;
    if (!k || !v) {
      m->oom = 1;
      return;
    }
    m->cap = c;
  }
  char *k = strdup(key), *v = strdup(val);
  if (!k || !v) {
    free(k);
    free(v);
    m->oom = 1;
    return;
  }
  m->key[m->n] = k;
  m->val[m->n++] = v;
}

void rl_meta_clear(rl_meta *m)
{
  for (size_t i = 0; i < m->n; i++)
    free(m->key[i]), free(m->val[i]);
  free(m->key);
  free(m->val);
  memset(m, 0, sizeof *m);
}

/* ---- the sweep layer's hooks (out.h) --------------------------------- */

enum { MODE_NORMAL, MODE_CAPTURE, MODE_POINT };
static struct {
  int mode;
  rl_meta *meta;     /* capture */
  char **header;     /* capture */
  FILE *to;          /* point */
  const char *prefix, *path;
} hookcfg;
static int json_next;
static const char *json_extra;

int rl_out_hooked(void)
{
  return hookcfg.mode != MODE_NORMAL;
}

int rl_out_capturing(void)
{
  return hookcfg.mode == MODE_CAPTURE;
}

void rl_out_mode_normal(void)
{
  memset(&hookcfg, 0, sizeof hookcfg);
}

void rl_out_mode_capture(rl_meta *meta, char **header)
{
  rl_out_mode_normal();
  hookcfg.mode = MODE_CAPTURE;
  hookcfg.meta = meta;
  hookcfg.header = header;
  *header = NULL;
}

void rl_out_mode_point(FILE *fp, const char *prefix, const char *path)
{
  rl_out_mode_normal();
  hookcfg.mode = MODE_POINT;
  hookcfg.to = fp;
  hookcfg.prefix = prefix;
  hookcfg.path = path;
}

void rl_out_set_json(int on, const char *extra)
{
  json_next = on;
  json_extra = extra;
}

struct hook {
  int capture;
  char *line; /* capture: the first line so far */
  size_t len, cap;
  char **header; /* capture: where the line goes */
  int done;      /* capture: header taken */
  FILE *to;      /* point */
  const char *prefix;
  size_t plen;
  int bol; /* point: next byte starts a line */
};

/* fopencookie's write: the number of bytes taken, or 0 with errno set */
static ssize_t hook_write(void *cookie, const char *buf, size_t size)
{
  struct hook *h = cookie;
  if (h->capture) {
    if (h->done) {
      errno = ECANCELED;
      return 0;
    }
    const char *nl = memchr(buf, '\n', size);
    size_t take = nl ? (size_t)(nl - buf) : size;
    if (h->len + take + 1 > h->cap) {
      size_t c = 2 * (h->len + take + 1);
      char *p = realloc(h->line, c);
      if (!p) {
        errno = ENOMEM;
        return 0;
      }
      h->line = p;
      h->cap = c;
    }
    memcpy(h->line + h->len, buf, take);
    h->len += take;
    h->line[h->len] = 0;
    if (!nl)
      return (ssize_t)size;
    *h->header = h->line;
    h->line = NULL;
    h->done = 1;
    errno = ECANCELED; /* the command stops: its rows are not wanted */
    return 0;
  }
  for (size_t i = 0; i < size;) {
    if (h->bol && fwrite(h->prefix, 1, h->plen, h->to) != h->plen)
      goto fail;
    const char *nl = memchr(buf + i, '\n', size - i);
    size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;
    if (fwrite(buf + i, 1, n, h->to) != n)
      goto fail;
    h->bol = nl != NULL;
    i += n;
  }
  return (ssize_t)size;
fail:
  if (!errno)
    errno = EIO;
  return 0;
}

static int hook_close(void *cookie)
{
  struct hook *h = cookie;
  free(h->line);
  free(h);
  return 0;
}

static int open_hook(rl_out *o)
{
  struct hook *h = calloc(1, sizeof *h);
  if (!h)
    return rl_runtime(o->cmd, "%s", strerror(ENOMEM));
  h->capture = hookcfg.mode == MODE_CAPTURE;
  h->header = hookcfg.header;
  h->to = hookcfg.to;
  h->prefix = hookcfg.prefix ? hookcfg.prefix : "";
  h->plen = strlen(h->prefix);
  h->bol = 1;
  cookie_io_functions_t fns = {NULL, hook_write, NULL, hook_close};
  o->fp = fopencookie(h, "w", fns);
  if (!o->fp) {
    free(h);
    return rl_runtime(o->cmd, "%s", strerror(ENOMEM));
  }
  /* capture sees each write at once (it stops at the header line) */
  if (h->capture)
    setvbuf(o->fp, NULL, _IONBF, 0);
  else
    setvbuf(o->fp, NULL, _IOFBF, 1 << 16);
  o->swept = 1;
  o->hook = h;
  o->meta = 1;
  o->header = h->capture; /* a point's own header is left out */
  o->path = hookcfg.path;
  return 0;
}

static int close_hook(rl_out *o)
{
  errno = 0;
  if (fflush(o->fp) == EOF || ferror(o->fp))
    note(o, o->fp, 0);
  fclose(o->fp);
  o->fp = NULL;
  o->swept = 0;
  if (hookcfg.mode == MODE_CAPTURE || !o->err)
    return 0;
  if (o->path)
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(o->err));
  return rl_runtime(o->cmd, "cannot write to standard output: %s", strerror(o->err));
}

/* ---- the writer ------------------------------------------------------ */

static void note(rl_out *o, FILE *fp, int ok)
{
  if (ok)
    return;
  int e = errno ? errno : EIO;
  if (fp == o->fp && !o->err)
    o->err = e;
  if (fp == o->tee && !o->tee_err)
    o->tee_err = e;
}

/* -o onto a regular file or a new name: a temp file beside the final
 * one (file, symlinks followed), renamed over it by rl_out_close. */
static int open_tmp(rl_out *o, char *file)
{
  o->file = file;
  /* an existing file: refused where a shell's '>' would refuse it (no
   * write permission: a 0444 file stays), and its mode and owner kept */
  struct stat old;
  int have_old = stat(file, &old) == 0 && S_ISREG(old.st_mode);
  if (have_old && faccessat(AT_FDCWD, file, W_OK, AT_EACCESS) != 0) {
    int e = errno;
    rl_out_abort(o);
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(e));
  }
  o->links = have_old && old.st_nlink > 1;
  o->tmp = rl_tmp_template(file);
  if (!o->tmp) {
    rl_out_abort(o);
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(ENOMEM));
  }
  int fd = rl_tmp_create(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    int rc = rl_tmp_refused(o->cmd, o->path, file, e);
    rl_out_abort(o);
    return rc;
  }
  if (have_old) { /* owner first: chown clears set-id bits; best effort, as cp -p */
    if (fchown(fd, old.st_uid, old.st_gid) != 0 && fchown(fd, (uid_t)-1, old.st_gid) != 0) {
      /* another owner or group is not ours to give: the mode still is */
    }
    fchmod(fd, old.st_mode & 07777);
  }
  o->fp = fdopen(fd, "w");
  if (!o->fp) {
    int e = errno;
    close(fd);
    rl_out_abort(o);
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(e));
  }
  return 0;
}

/* A file with other hard links: renaming over it would split them, so
 * the complete temp file is copied into it in place (truncated, written,
 * fsync'ed), then removed; 0 or an errno.  Only an interruption during
 * this copy can leave it short. */
static int copy_in_place(const char *tmp, const char *file)
{
  int in = open(tmp, O_RDONLY | O_CLOEXEC), e = 0;
  int out = in < 0 ? -1 : open(file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
  if (in < 0 || out < 0)
    e = errno;
  char buf[1 << 16];
  while (!e) {
    ssize_t n = read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      e = n < 0 ? errno : 0;
      break;
    }
    for (ssize_t w = 0; !e && w < n;) {
      ssize_t k = write(out, buf + w, (size_t)(n - w));
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        e = k < 0 ? errno : EIO;
      else
        w += k;
    }
  }
  if (!e && fsync(out) != 0 && errno != EINVAL)
    e = errno;
  if (out >= 0 && close(out) != 0 && !e)
    e = errno;
  if (in >= 0)
    close(in);
  if (!e && unlink(tmp) != 0)
    e = errno;
  return e;
}

/* A copy of our descriptor n, if it is open for writing. */
static int dup_writable(int n)
{
  int fl = fcntl(n, F_GETFL);
  if (fl < 0)
    return -1;
  if ((fl & O_ACCMODE) == O_RDONLY) {
    errno = EBADF;
    return -1;
  }
  return fcntl(n, F_DUPFD_CLOEXEC, 3);
}

/* -o onto a device, FIFO, socket or descriptor: write into it as a shell
 * redirection would (no O_TRUNC: a device has nothing to truncate). */
static int open_direct(rl_out *o, const rl_target *t)
{
  int fd = t->kind == RL_TARGET_FD ? dup_writable(t->fd)
                                   : open(t->file, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  o->fp = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!o->fp) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(e));
  }
  o->direct = 1;
  return 0;
}

static int open_plain(rl_out *o, const char *cmd, const char *path)
{
  o->jextra = json_next ? json_extra : NULL;
  if (!path || !strcmp(path, "-")) {
    if (o->json)
      return rl_usage(cmd, "--meta json needs -o FILE: the metadata goes to FILE.json");
    o->fp = stdout;
    return 0;
  }
  o->path = path;
  rl_target t;
  int e = rl_target_resolve(path, &t);
  if (e)
    return rl_runtime(cmd, "cannot write '%s': %s", path, strerror(e));
  if (t.kind == RL_TARGET_REPLACE)
    return open_tmp(o, t.file); /* takes t.file */
  if (o->json) {
    rl_target_free(&t);
    return rl_usage(cmd, "--meta json needs -o naming a regular file, not '%s'", path);
  }
  int rc = open_direct(o, &t);
  rl_target_free(&t);
  return rc;
}

/* ---- the side file FILE.json ----------------------------------------- */

/* FILE.json beside -o FILE (--meta json, or a format whose metadata has
 * no place in the file): malloc'd, NULL without memory. */
static char *side_path(const rl_out *o)
{
  size_t len = strlen(o->path);
  char *jpath = malloc(len + sizeof ".json");
  if (jpath) {
    memcpy(jpath, o->path, len);
    memcpy(jpath + len, ".json", sizeof ".json");
  }
  return jpath;
}

/* The user named FILE, not FILE.json, so FILE.json is replaced only when
 * nothing is there (a dangling symlink: its target is created, as for
 * -o) or what is there is ropelab's own: a regular file (symlinks
 * followed) holding a JSON object whose first key is "ropelab", which
 * every sidecar begins with (write_sidecar).  Read without blocking: a
 * FIFO is not a regular file and is never opened. */
static int side_ours(const char *jpath)
{
  struct stat st;
  if (stat(jpath, &st) != 0)
    return errno == ENOENT;
  if (!S_ISREG(st.st_mode))
    return 0;
  int fd = open(jpath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  char buf[64];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = 0;
  const char *p = buf + strspn(buf, " \t\r\n");
  if (*p++ != '{')
    return 0;
  p += strspn(p, " \t\r\n");
  return !strncmp(p, "\"ropelab\"", 9);
}

/* 0, or a printed usage error when FILE.json is someone else's. */
static int side_file_check(const rl_out *o)
{
  char *jpath = side_path(o);
  if (!jpath)
    return rl_runtime(o->cmd, "%s", strerror(ENOMEM));
  int rc = side_ours(jpath) ? 0
                            : rl_usage(o->cmd,
                                       "refusing to replace '%s': not a metadata file ropelab "
                                       "wrote (the metadata of '%s' goes there; move it or "
                                       "choose another -o)",
                                       jpath, o->path);
  free(jpath);
  return rc;
}

int rl_out_open(rl_out *o, const char *cmd, const char *path, int meta, int header)
{
  memset(o, 0, sizeof *o);
  o->cmd = cmd;
  o->meta = meta;
  o->header = header;
  if (hookcfg.mode != MODE_NORMAL)
    return open_hook(o);
  o->holding = 1;
  o->json = json_next;
  int stdout_ = !path || !strcmp(path, "-");
  const rl_format_type *fmt = rl_out_format_for(stdout_ ? NULL : path);
  int seeks = (fmt->flags & RL_FMT_SEEKS) != 0;
  if (seeks && stdout_)
    return rl_usage(cmd, "%s needs -o FILE: %s", fmt->what, fmt->seek_why);
  if (seeks) { /* before opening: a FIFO would wait for its reader */
    rl_target t;
    int e = rl_target_resolve(path, &t), kind = t.kind;
    if (e)
      return rl_runtime(cmd, "cannot write '%s': %s", path, strerror(e));
    rl_target_free(&t);
    if (kind != RL_TARGET_REPLACE)
      return rl_usage(cmd, "%s needs -o naming a regular file, not '%s'", fmt->what, path);
  }
  int rc = open_plain(o, cmd, path);
  if (rc)
    return rc;
  if (seeks && !o->tmp) {
    rl_out_abort(o);
    return rl_usage(cmd, "%s needs -o naming a regular file, not '%s'", fmt->what, path);
  }
  if (fmt->flags & RL_FMT_META_BESIDE)
    o->json |= meta; /* the metadata and the names in FILE.json */
  if (o->json && (rc = side_file_check(o))) {
    rl_out_abort(o);
    return rc;
  }
  if (fmt->row) {
    o->raw = o->fp;
    if (!(o->fp = rl_fmt_open(fmt, o->raw, header, &o->fst))) {
      o->fp = o->raw;
      rl_out_abort(o);
      return rl_runtime(cmd, "%s", strerror(ENOMEM));
    }
  }
  return 0;
}

static void put_meta(rl_out *o, FILE *fp, const char *key, const char *val)
{
  errno = 0;
  note(o, fp, fprintf(fp, "# %s=%s\n", key, val) >= 0);
}

static void jmeta_add(rl_out *o, const char *key, const char *val)
{
  if (!o->jmeta && !(o->jmeta = calloc(1, sizeof *o->jmeta))) {
    o->err = ENOMEM;
    return;
  }
  rl_meta_add(o->jmeta, key, val);
  if (o->jmeta->oom && !o->err)
    o->err = ENOMEM;
}

/* One metadata line: held until the header is out, else written to the
 * file (unless --no-meta or --meta json) and to the plot copy. */
static void meta_line(rl_out *o, const char *key, const char *val)
{
  if (o->holding) {
    if (!o->held && !(o->held = calloc(1, sizeof *o->held))) {
      o->err = ENOMEM;
      return;
    }
    rl_meta_add(o->held, key, val);
    if (o->held->oom && !o->err)
      o->err = ENOMEM;
    return;
  }
  if (o->meta && !o->json)
    put_meta(o, o->fp, key, val);
  if (o->tee)
    put_meta(o, o->tee, key, val);
}

static void free_held(rl_out *o)
{
  if (o->held) {
    rl_meta_clear(o->held);
    free(o->held);
    o->held = NULL;
  }
}

void rl_out_release_meta(rl_out *o)
{
  if (!o->holding)
    return;
  o->holding = 0;
  for (size_t i = 0; o->held && i < o->held->n; i++)
    meta_line(o, o->held->key[i], o->held->val[i]);
  free_held(o);
}

static void begin_as(rl_out *o, const char *const *vc)
{
  if (o->swept)
    return; /* the sweep writes it once */
  char *cmdline = vc ? NULL : rl_out_command_line();
  if (!vc && !cmdline && !o->err)
    o->err = ENOMEM;
  const char *version = vc ? vc[0] : RL_VERSION, *command = vc ? vc[1] : cmdline ? cmdline : "";
  if (o->json) {
    jmeta_add(o, "ropelab", version);
    jmeta_add(o, "command", command);
  }
  meta_line(o, "ropelab", version);
  meta_line(o, "command", command);
  free(cmdline);
}

void rl_out_meta_begin(rl_out *o)
{
  begin_as(o, NULL);
}

void rl_out_meta_begin_as(rl_out *o, const char *version, const char *command)
{
  const char *vc[2] = {version, command};
  begin_as(o, vc);
}

void rl_out_meta(rl_out *o, const char *key, const char *val)
{
  if (o->swept) {
    if (hookcfg.mode == MODE_CAPTURE)
      rl_meta_add(hookcfg.meta, key, val);
    return;
  }
  if (o->json)
    jmeta_add(o, key, val);
  meta_line(o, key, val);
}

void rl_out_meta_num(rl_out *o, const char *key, double v)
{
  char buf[RL_NUMFMT_MAX];
  rl_numfmt(v, buf);
  rl_out_meta(o, key, buf);
}

void rl_out_meta_uint(rl_out *o, const char *key, unsigned long long v)
{
  char buf[32];
  snprintf(buf, sizeof buf, "%llu", v);
  rl_out_meta(o, key, buf);
}

static void line_one(rl_out *o, FILE *fp, const void *arg)
{
  errno = 0;
  const char *s = arg;
  size_t n = strlen(s);
  note(o, fp, fwrite(s, 1, n, fp) == n);
}

void rl_out_header(rl_out *o, const char *cols)
{
  char buf[1024];
  snprintf(buf, sizeof buf, "%s\n", cols);
  if (o->header)
    line_one(o, o->fp, buf);
  if (o->tee)
    line_one(o, o->tee, buf);
  rl_out_release_meta(o);
}

void rl_out_row(rl_out *o, const double *v, size_t n)
{
  char line[4096];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    if (len + RL_NUMFMT_MAX + 2 > sizeof line) /* > 100 columns: none of ours */
      abort();
    if (i)
      line[len++] = ',';
    len += (size_t)rl_numfmt(v[i], line + len);
  }
  line[len++] = '\n';
  line[len] = 0;
  rl_out_release_meta(o);
  line_one(o, o->fp, line);
  if (o->tee)
    line_one(o, o->tee, line);
}

static void free_jmeta(rl_out *o)
{
  if (o->jmeta) {
    rl_meta_clear(o->jmeta);
    free(o->jmeta);
    o->jmeta = NULL;
  }
}

/* The format stream closed (its end written to the file), the file
 * itself back in o->fp; 0, or -1 with the reason in o->err or why. */
static int close_format(rl_out *o)
{
  if (!o->fst)
    return 0;
  errno = 0;
  if (fclose(o->fp) == EOF && !o->err)
    o->err = errno ? errno : EIO;
  o->fp = o->raw;
  o->raw = NULL;
  return o->err ? -1 : 0;
}

void rl_out_abort(rl_out *o)
{
  free(o->jcolumns);
  o->jcolumns = NULL;
  if (o->fst && o->raw)
    close_format(o);
  rl_fmt_free(o->fst);
  o->fst = NULL;
  free_jmeta(o);
  free_held(o);
  o->holding = 0;
  if (o->swept) {
    if (o->fp)
      fclose(o->fp);
    o->fp = NULL;
    o->swept = 0;
    return;
  }
  if (o->direct && o->fp)
    fclose(o->fp);
  if (o->tmp) {
    if (o->fp)
      fclose(o->fp);
    unlink(o->tmp);
    rl_tmp_unregister(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
  }
  if (o->path)
    o->fp = NULL;
  o->direct = 0;
  free(o->file);
  o->file = NULL;
}

/* Flush, fsync when the data is going to be renamed into place, close. */
static void finish_file(rl_out *o)
{
  errno = 0;
  if (fflush(o->fp) == EOF || ferror(o->fp))
    note(o, o->fp, 0);
  /* data on disk before the name points at it, so a crash leaves the old
   * file or the new one, never a truncated one */
  errno = 0;
  if (!o->err && !o->direct && fsync(fileno(o->fp)) != 0 && errno != EINVAL)
    note(o, o->fp, 0);
  errno = 0;
  int rc = fclose(o->fp);
  o->fp = NULL;
  if (rc == EOF && !o->err)
    o->err = errno ? errno : EIO;
}

/* ---- the JSON sidecar (--meta json) ----------------------------------- */


/* {"ropelab": V, "command": C, "parameters": {k: v, ...}, extra}: the
 * comment lines' values as strings, unchanged, in their order. */
static int write_sidecar(rl_out *o)
{
  int rc = side_file_check(o); /* again: it may have come while the rows were made */
  if (rc)
    return rc;
  char *jpath = side_path(o);
  if (!jpath)
    return rl_runtime(o->cmd, "%s", strerror(ENOMEM));
  rl_out j;
  int saved = json_next;
  json_next = 0;
  /* the sidecar is JSON text as written: the first format, csv */
  const rl_format_type *saved_fmt = rl_out_format_set(rl_out_formats()[0]);
  rc = rl_out_open(&j, o->cmd, jpath, 0, 0);
  rl_out_format_set(saved_fmt);
  json_next = saved;
  if (rc) {
    free(jpath);
    return rc;
  }
  rl_meta *m = o->jmeta;
  size_t first = 0;
  fputs("{\n", j.fp);
  if (!m || !m->n || strcmp(m->key[0], "ropelab")) { /* always first: side_ours knows it by it */
    fputs("  \"ropelab\": ", j.fp);
    rl_json_fput(j.fp, RL_VERSION);
    fputs(",\n", j.fp);
  }
  for (; m && first < m->n && first < 2 && (!strcmp(m->key[first], "ropelab") ||
                                            !strcmp(m->key[first], "command")); first++) {
    fputs("  ", j.fp);
    rl_json_fput(j.fp, m->key[first]);
    fputs(": ", j.fp);
    rl_json_fput(j.fp, m->val[first]);
    fputs(",\n", j.fp);
  }
  fputs("  \"parameters\": {", j.fp);
  for (size_t i = first; m && i < m->n; i++) {
    fputs(i > first ? ",\n    " : "\n    ", j.fp);
    rl_json_fput(j.fp, m->key[i]);
    fputs(": ", j.fp);
    rl_json_fput(j.fp, m->val[i]);
  }
  fputs(m && m->n > first ? "\n  }" : "}", j.fp);
  if (o->jextra)
    fprintf(j.fp, ",\n  %s", o->jextra);
  if (o->jcolumns) { /* .npy: the names of its columns, in order */
    fputs(",\n  \"columns\": [", j.fp);
    for (char *c = o->jcolumns, *e; c; c = e ? e + 1 : NULL) {
      e = strchr(c, ',');
      if (e)
        *e = 0;
      if (c != o->jcolumns)
        fputs(", ", j.fp);
      rl_json_fput(j.fp, c);
      if (e)
        *e = ',';
    }
    fputs("]", j.fp);
  }
  errno = 0;
  if (fputs("\n}\n", j.fp) == EOF || ferror(j.fp))
    note(&j, j.fp, 0);
  j.path = jpath;
  rc = rl_out_close(&j);
  free(jpath);
  return rc;
}

int rl_out_close(rl_out *o)
{
  if (o->swept) {
    free_jmeta(o);
    return close_hook(o);
  }
  rl_out_release_meta(o); /* a table without a header or rows */
  if (o->fst) {
    close_format(o);
    const char *why = rl_fmt_error(o->fst);
    if (why) {
      char msg[300];
      snprintf(msg, sizeof msg, "%s", why);
      rl_out_abort(o);
      return rl_usage(o->cmd, "%s", msg);
    }
    /* a format without a place for them: the header's names in FILE.json */
    const char *names = o->fst->type->flags & RL_FMT_META_BESIDE ? rl_fmt_names(o->fst) : "";
    if (o->json && !o->err && *names && !(o->jcolumns = strdup(names)))
      o->err = ENOMEM;
    rl_fmt_free(o->fst);
    o->fst = NULL;
  }
  if (!o->path) { /* stdout: flush now to catch EPIPE/ENOSPC before exit */
    errno = 0;
    if (fflush(stdout) == EOF || ferror(stdout))
      note(o, stdout, 0);
    if (o->err)
      return rl_runtime(o->cmd, "cannot write to standard output: %s", strerror(o->err));
    return 0;
  }
  finish_file(o);
  /* the sidecar in place before the CSV: whoever sees the CSV finds it */
  if (o->json && !o->err) {
    int rc = write_sidecar(o);
    if (rc) {
      rl_out_abort(o);
      return rc;
    }
  }
  free_jmeta(o);
  errno = 0;
  if (!o->err && o->tmp && o->links)
    o->err = copy_in_place(o->tmp, o->file);
  else if (!o->err && o->tmp && rename(o->tmp, o->file) != 0)
    o->err = errno ? errno : EIO;
  if (o->err) {
    int e = o->err;
    rl_out_abort(o);
    return rl_runtime(o->cmd, "cannot write '%s': %s", o->path, strerror(e));
  }
  if (o->tmp)
    rl_tmp_unregister(o->tmp);
  free(o->tmp);
  free(o->file);
  free(o->jcolumns);
  o->tmp = o->file = o->jcolumns = NULL;
  o->direct = 0;
  return 0;
}
