/* path.c: see path.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "path.h"

/* The length of the directory part of path including its last '/'
 * (0 when path has no '/'). */
static size_t dir_len(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) + 1 : 0;
}

static char *concat(const char *a, size_t alen, const char *b)
{
  size_t blen = strlen(b);
  char *s = malloc(alen + blen + 1);
  if (s) {
    memcpy(s, a, alen);
    memcpy(s + alen, b, blen + 1);
  }
  return s;
}

/* Follow path while its last component is a symlink; the result names
 * something that is not a symlink, or nothing (a dangling link's target,
 * which is where -o must create the file).  NULL with errno on error. */
static char *follow_links(const char *path)
{
  char *cur = strdup(path);
  for (int n = 0; cur; n++) {
    struct stat st;
    if (lstat(cur, &st) != 0) {
      if (errno == ENOENT)
        return cur;
      break;
    }
    if (!S_ISLNK(st.st_mode))
      return cur;
    char buf[PATH_MAX];
    ssize_t k = n < 40 ? readlink(cur, buf, sizeof buf - 1) : -1;
    if (n >= 40)
      errno = ELOOP;
    else if (k == (ssize_t)sizeof buf - 1)
      errno = ENAMETOOLONG;
    if (k < 0 || k == (ssize_t)sizeof buf - 1)
      break;
    buf[k] = 0;
    /* a relative target is relative to the link's directory */
    char *next = buf[0] == '/' ? strdup(buf) : concat(cur, dir_len(cur), buf);
    free(cur);
    cur = next;
  }
  int e = cur ? errno : ENOMEM;
  free(cur);
  errno = e;
  return NULL;
}

/* N for /dev/fd/N, /proc/self/fd/N, /dev/stdout, /dev/stderr; else -1.
 * Reopening /proc/self/fd/N would start a new file offset at 0 and drop
 * O_APPEND (and fails for sockets); the descriptor itself is what the
 * shell meant, as with a plain > redirection. */
static int fd_path(const char *path)
{
  static const char *const pre[] = {"/dev/fd/", "/proc/self/fd/"};
  if (!strcmp(path, "/dev/stdout"))
    return 1;
  if (!strcmp(path, "/dev/stderr"))
    return 2;
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++) {
    size_t n = strlen(pre[i]);
    if (strncmp(path, pre[i], n) || !path[n])
      continue;
    long v = 0;
    for (const char *p = path + n; *p; p++) {
      if (*p < '0' || *p > '9' || v > INT_MAX / 10)
        return -1;
      v = v * 10 + (*p - '0');
    }
    return v <= INT_MAX ? (int)v : -1;
  }
  return -1;
}

int rl_target_resolve(const char *path, rl_target *t)
{
  t->file = NULL;
  t->fd = fd_path(path);
  if (t->fd >= 0) {
    t->kind = RL_TARGET_FD;
    return 0;
  }
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return EISDIR;
    t->kind = S_ISREG(st.st_mode) ? RL_TARGET_REPLACE : RL_TARGET_OPEN;
  } else if (errno == ENOENT) {
    t->kind = RL_TARGET_REPLACE; /* new file, or a dangling link's target */
  } else {
    return errno;
  }
  t->file = t->kind == RL_TARGET_REPLACE ? follow_links(path) : strdup(path);
  return t->file ? 0 : errno ? errno : ENOMEM;
}

void rl_target_free(rl_target *t)
{
  free(t->file);
  t->file = NULL;
}

/* The name path will be written under: symlinks followed, the directory
 * part made canonical when it exists (else kept as given). */
static char *canonical(const char *path)
{
  char *f = follow_links(path);
  if (!f)
    return NULL;
  size_t dl = dir_len(f);
  char *dir = dl ? concat(f, dl, "") : strdup(".");
  char *real = dir ? realpath(dir, NULL) : NULL;
  char *out = real ? concat(real, strlen(real), "/") : NULL;
  char *res = out ? concat(out, strlen(out), f + dl) : NULL;
  free(out);
  free(real);
  free(dir);
  if (res) {
    free(f);
    return res;
  }
  return f;
}

int rl_path_same(const char *a, const char *b)
{
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  char *ca = canonical(a), *cb = canonical(b);
  int same = ca && cb ? !strcmp(ca, cb) : !strcmp(a, b);
  free(ca);
  free(cb);
  return same;
}

char *rl_tmp_template(const char *file)
{
  static const char suffix[] = ".tmpXXXXXX";
  size_t dl = dir_len(file), bl = strlen(file + dl);
  char *dir = dl ? concat(file, dl, "") : strdup(".");
  if (!dir)
    return NULL;
  long max = pathconf(dir, _PC_NAME_MAX);
  free(dir);
  size_t room = (max > (long)sizeof suffix ? (size_t)max : 255) - (sizeof suffix - 1);
  if (bl > room) {
    bl = room; /* cut before a UTF-8 character, not inside one */
    while (bl > 1 && ((unsigned char)file[dl + bl] & 0xc0) == 0x80)
      bl--;
  }
  char *t = malloc(dl + bl + sizeof suffix);
  if (t) {
    memcpy(t, file, dl + bl);
    memcpy(t + dl + bl, suffix, sizeof suffix);
  }
  return t;
}

char *rl_path_dir(const char *file)
{
  size_t dl = dir_len(file);
  return dl > 1 ? concat(file, dl - 1, "") : strdup(dl ? "/" : ".");
}
