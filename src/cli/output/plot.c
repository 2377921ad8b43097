/* plot.c: render a CSV with gnuplot (see plot.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "cmd.h"
#include "msg.h"
#include "out.h"
#include "path.h"
#include "plot.h"
#include "rl_config.h"

const char *rl_plot_terminal(const char *path)
{
  /* cairo terminals: antialiased and present in Debian's gnuplot-nox */
  static const char *const map[][2] = {
      {".png", "pngcairo"}, {".svg", "svg"}, {".pdf", "pdfcairo"}};
  size_t len = strlen(path);
  for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
    size_t el = strlen(map[i][0]);
    if (len > el && !strcmp(path + len - el, map[i][0]))
      return map[i][1];
  }
  return NULL;
}

int rl_plot_check(const char *cmd, const char *path)
{
  if (!rl_plot_terminal(path))
    return rl_usage(cmd, "invalid --plot '%s': expected a file name ending in .png, .svg or .pdf",
                    path);
  return 0;
}

static char *dup_tmp(const char *prefix, const char *suffix)
{
  size_t a = strlen(prefix), b = strlen(suffix);
  char *s = malloc(a + b + 1);
  if (s) {
    memcpy(s, prefix, a);
    memcpy(s + a, suffix, b + 1);
  }
  return s;
}

void rl_plot_abort(rl_plot *p)
{
  if (p->data)
    fclose(p->data);
  p->data = NULL;
  if (p->img_tmp) {
    unlink(p->img_tmp);
    rl_tmp_unregister(p->img_tmp);
    free(p->img_tmp);
  }
  free(p->img_file);
  p->img_tmp = p->img_file = NULL;
}

/* The image is always renamed into place, so its path must be one that
 * may be replaced: a regular file or a new name (a symlink's target). */
static int open_img(rl_plot *p)
{
  rl_target t;
  int e = rl_target_resolve(p->path, &t);
  if (!e && t.kind != RL_TARGET_REPLACE) {
    rl_target_free(&t);
    return rl_runtime(p->cmd, "cannot write '%s': not a regular file", p->path);
  }
  /* refused where a shell's '>' would be: an image without write permission */
  if (!e && access(t.file, F_OK) == 0 && faccessat(AT_FDCWD, t.file, W_OK, AT_EACCESS) != 0) {
    e = errno;
    rl_target_free(&t);
    return rl_runtime(p->cmd, "cannot write '%s': %s", p->path, strerror(e));
  }
  p->img_file = t.file;
  p->img_tmp = e ? NULL : rl_tmp_template(p->img_file);
  int fd = p->img_tmp ? rl_tmp_create(p->img_tmp) : -1;
  if (fd >= 0) {
    /* the name becomes the FIFO gnuplot draws into (see collect) */
    close(fd);
    sigset_t old;
    rl_signals_block(&old);
    fd = unlink(p->img_tmp) == 0 && mkfifo(p->img_tmp, 0600) == 0 ? 0 : -1;
    rl_signals_restore(&old);
    if (fd < 0) {
      e = errno;
      rl_plot_abort(p);
      return rl_runtime(p->cmd, "cannot write '%s': %s", p->path, strerror(e));
    }
  }
  if (fd < 0) {
    int made = !e && p->img_tmp; /* the temp file itself failed */
    e = e ? e : p->img_tmp ? errno : ENOMEM;
    free(p->img_tmp);
    p->img_tmp = NULL;
    int rc = made ? rl_tmp_refused(p->cmd, p->path, p->img_file, e)
                  : rl_runtime(p->cmd, "cannot write '%s': %s", p->path, strerror(e));
    rl_plot_abort(p);
    return rc;
  }
  return 0;
}

/* A file in dir with no name, read by gnuplot as /dev/fd/N: nothing is
 * left behind whatever kills us, even SIGKILL.  O_TMPFILE where the file
 * system has it, else a temp file unlinked at once.  Not close-on-exec:
 * gnuplot and the shells of its scripts inherit it.  Kept above 2 so the
 * child's dup2 onto 0 and 1 cannot clobber it. */
static int open_data(const char *dir)
{
  int fd = -1;
#ifdef O_TMPFILE
  fd = open(dir, O_TMPFILE | O_RDWR, 0600);
#endif
  if (fd < 0) {
    char *tmpl = dup_tmp(dir, "/ropelab-plot-XXXXXX");
    if (!tmpl) {
      errno = ENOMEM;
      return -1;
    }
    sigset_t old;
    rl_signals_block(&old); /* no cleanup handler between the two calls */
    fd = mkstemp(tmpl);
    if (fd >= 0)
      unlink(tmpl);
    rl_signals_restore(&old);
    free(tmpl);
  }
  if (fd >= 0 && fd < 3) {
    int hi = fcntl(fd, F_DUPFD, 3);
    close(fd);
    fd = hi;
  }
  return fd;
}

int rl_plot_open(rl_plot *p, const char *cmd, const char *script, const char *path)
{
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->script = script;
  p->path = path;
  p->term = rl_plot_terminal(path);
  int rc = open_img(p);
  if (rc)
    return rc;
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  p->data_dir = dir;
  int fd = open_data(dir);
  p->data = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!p->data) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    rl_plot_abort(p);
    return rl_runtime(cmd, "cannot create a temporary file in '%s': %s", dir, strerror(e));
  }
  return 0;
}

/* The folder of the scripts: ROPELAB_PLOTS_DIR when set; the source
 * tree's plots/ for the binary of the build tree (RL_BUILD_EXE) alone; for
 * any other copy, the installed scripts: RL_PLOTS_RELDIR from the folder
 * the binary is in (so a --destdir or relocated installation uses its own),
 * else the configured RL_PLOTS_DATADIR.  Caller frees. */
static char *plots_dir(void)
{
  const char *env = getenv("ROPELAB_PLOTS_DIR");
  if (env && *env)
    return strdup(env);
  char *self = realpath("/proc/self/exe", NULL), *build = realpath(RL_BUILD_EXE, NULL);
  char *dir = NULL;
  if (self && build && strcmp(self, build) == 0)
    dir = strdup(RL_PLOTS_SRCDIR);
  else if (self && *RL_PLOTS_RELDIR) {
    char *slash = strrchr(self, '/');
    size_t a = slash ? (size_t)(slash - self) : 0, b = strlen(RL_PLOTS_RELDIR);
    struct stat st;
    char *cand = malloc(a + b + 2);
    if (cand) {
      memcpy(cand, self, a);
      cand[a] = '/';
      memcpy(cand + a + 1, RL_PLOTS_RELDIR, b + 1);
      if (stat(cand, &st) == 0 && S_ISDIR(st.st_mode))
        dir = cand;
      else
        free(cand);
    }
  }
  free(self);
  free(build);
  return dir ? dir : strdup(RL_PLOTS_DATADIR);
}

static char *find_script(const char *name)
{
  char *dir = plots_dir();
  if (!dir)
    return NULL;
  size_t a = strlen(dir), b = strlen(name);
  char *s = malloc(a + b + 2);
  if (s) {
    memcpy(s, dir, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
  }
  free(dir);
  return s;
}

/* gnuplot on PATH, found the way execvp will (so we can say what is
 * missing instead of a bare exec failure). */
static int have_program(const char *prog)
{
  const char *path = getenv("PATH");
  if (!path)
    return 0;
  size_t pl = strlen(prog);
  while (*path) {
    const char *end = strchr(path, ':');
    size_t dl = end ? (size_t)(end - path) : strlen(path);
    char buf[4096];
    if (dl + pl + 2 <= sizeof buf) {
      memcpy(buf, dl ? path : ".", dl ? dl : 1);
      size_t o = dl ? dl : 1;
      buf[o] = '/';
      memcpy(buf + o + 1, prog, pl + 1);
      struct stat st;
      if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
        return 1;
    }
    if (!end)
      break;
    path = end + 1;
  }
  return 0;
}

/* In the child, between fork and exec (async-signal-safe calls only):
 * gnuplot on the data, its stdout away from our CSV on stdout (its
 * stderr, script errors, stays visible). */
static void exec_gnuplot(char *const args[], pid_t parent, const sigset_t *mask)
{
  rl_signals_default();
#ifdef __linux__
  /* SIGKILL of ropelab cannot run our handler: let the kernel end
   * gnuplot then instead of leaving it drawing for no one */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent)
    _exit(127);
#else
  (void)parent;
#endif
  rl_signals_restore(mask);
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
  }
  execvp("gnuplot", args);
  _exit(127);
}

/* gnuplot draws into a FIFO (its IMAGE argument) whose bytes we read
 * into img, so that every write of the image is ours to check: gnuplot
 * itself exits 0 when its own writes fail (ENOSPC gave a truncated
 * image).  Reads until gnuplot has exited and the FIFO is drained, so a
 * script that never opens its output, or opens it twice, cannot hang us.
 * Returns gnuplot's wait status (-1 if waitpid failed). */
static int collect(pid_t pid, int fifo, FILE *img)
{
  char buf[1 << 16];
  int status = 0, done = 0;
  for (;;) {
    struct pollfd pfd = {fifo, POLLIN, 0};
    int ready = poll(&pfd, 1, done ? 0 : 50);
    ssize_t n = ready > 0 ? read(fifo, buf, sizeof buf) : 0;
    if (n > 0) {
      fwrite(buf, 1, (size_t)n, img); /* its error is checked at the end */
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR)
      return -1;
    if (done)
      return status;
    if (ready > 0 && n == 0) { /* no writer now: nap instead of spinning on POLLHUP */
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w < 0 && errno != EINTR)
      return -1;
    done = w == pid; /* then one more pass drains what it wrote last */
  }
}

/* Run gnuplot and wait; the signal handler ends it if we are killed
 * meanwhile.  0 with its wait status in *status (-1 if waitpid failed),
 * or the errno of a failed fork. */
static int run_gnuplot(const rl_plot *p, char *script, int *status, int fifo, FILE *img)
{
  /* on Linux each open of /dev/fd/N of a regular file starts at offset 0,
   * so the scripts may read their data more than once */
  char data[32], term[32];
  snprintf(data, sizeof data, "/dev/fd/%d", fileno(p->data));
  snprintf(term, sizeof term, "%s", p->term);
  char *args[] = {"gnuplot", "-c", script, data, p->img_tmp, term, NULL, NULL, NULL};
  char extra[2][16]; /* execvp takes char *const[]: writable copies */
  for (int i = 0, n = 6; i < 2 && p->args[i]; i++) {
    snprintf(extra[i], sizeof extra[i], "%s", p->args[i]);
    args[n++] = extra[i];
  }
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  sigset_t old;
  rl_signals_block(&old); /* no signal between fork and rl_child_set */
  pid_t pid = fork();
  if (pid == 0)
    exec_gnuplot(args, parent, &old);
  int e = errno;
  if (pid > 0)
    rl_child_set(pid);
  rl_signals_restore(&old);
  if (pid < 0)
    return e;
  *status = collect(pid, fifo, img);
  rl_child_set(0);
  return 0;
}

/* The FIFO at tmp replaced by a regular file holding the image, written,
 * flushed and fsync'ed with every error caught (ENOSPC, EFBIG, EIO);
 * 0 or an errno. */
static int write_image(const char *tmp, const char *file, const char *bytes, size_t n)
{
  sigset_t old;
  rl_signals_block(&old); /* tmp stays registered for cleanup throughout */
  int fd = unlink(tmp) == 0 ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
  int e = fd < 0 ? errno : 0;
  rl_signals_restore(&old);
  struct stat st; /* an image replaced keeps its mode, as -o does */
  if (!e && stat(file, &st) == 0 && S_ISREG(st.st_mode))
    fchmod(fd, st.st_mode & 07777);
  while (!e && n > 0) {
    ssize_t w = write(fd, bytes, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      e = w < 0 ? errno : EIO;
    else
      bytes += w, n -= (size_t)w;
  }
  if (!e && fsync(fd) != 0 && errno != EINVAL)
    e = errno;
  if (fd >= 0 && close(fd) != 0 && !e)
    e = errno;
  return e;
}

int rl_plot_finish(rl_plot *p, int data_err)
{
  int rc = 0;
  char *script = NULL;
  errno = 0;
  if (!data_err && (fflush(p->data) == EOF || ferror(p->data)))
    data_err = errno ? errno : EIO;
  if (data_err) {
    rc = rl_runtime(p->cmd, "cannot plot: writing the data in '%s': %s", p->data_dir,
                    strerror(data_err));
    goto done;
  }
  if (!have_program("gnuplot")) {
    rc = rl_runtime(p->cmd, "cannot plot: gnuplot not found (install gnuplot-nox)");
    goto done;
  }
  script = find_script(p->script);
  struct stat st;
  if (!script || stat(script, &st) != 0) {
    rc = rl_runtime(p->cmd, "cannot plot: '%s': %s", script ? script : p->script,
                    strerror(script ? errno : ENOMEM));
    goto done;
  }
  /* the image in memory until gnuplot succeeded, then written by us; so
   * a SIGKILL meanwhile leaves only the FIFO's name beside IMAGE */
  char *bytes = NULL;
  size_t nbytes = 0;
  FILE *img = open_memstream(&bytes, &nbytes);
  int fifo = open(p->img_tmp, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int status, e = !img ? ENOMEM : fifo < 0 ? errno : run_gnuplot(p, script, &status, fifo, img);
  if (fifo >= 0)
    close(fifo);
  if (img && fclose(img) != 0 && !e)
    e = ENOMEM;
  if (e) {
    free(bytes);
    rc = rl_runtime(p->cmd, "cannot plot: cannot start gnuplot: %s", strerror(e));
    goto done;
  }
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    free(bytes);
    rc = rl_runtime(p->cmd, "cannot plot: gnuplot failed (%s %d)",
                    status != -1 && WIFSIGNALED(status) ? "signal" : "exit status",
                    status == -1 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    goto done;
  }
  if (nbytes == 0) {
    free(bytes);
    rc = rl_runtime(p->cmd, "cannot plot: gnuplot wrote nothing to '%s'", p->path);
    goto done;
  }
  e = write_image(p->img_tmp, p->img_file, bytes, nbytes);
  free(bytes);
  if (e) {
    rc = rl_runtime(p->cmd, "cannot write '%s': %s", p->path, strerror(e));
    goto done;
  }
  if (rename(p->img_tmp, p->img_file) != 0) {
    rc = rl_runtime(p->cmd, "cannot write '%s': %s", p->path, strerror(errno));
    goto done;
  }
  rl_tmp_unregister(p->img_tmp);
  free(p->img_tmp);
  p->img_tmp = NULL;
done:
  free(script);
  rl_plot_abort(p);
  return rc;
}
