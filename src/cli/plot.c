/* plot.c: render a CSV with gnuplot (see plot.h). */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
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
  char *t[2] = {p->img_tmp, p->data_tmp};
  for (int i = 0; i < 2; i++)
    if (t[i]) {
      unlink(t[i]);
      rl_tmp_unregister(t[i]);
      free(t[i]);
    }
  p->img_tmp = p->data_tmp = NULL;
}

int rl_plot_open(rl_plot *p, const char *cmd, const char *script, const char *path)
{
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->script = script;
  p->path = path;
  p->term = rl_plot_terminal(path);
  p->img_tmp = dup_tmp(path, ".tmpXXXXXX");
  if (!p->img_tmp)
    return rl_runtime(cmd, "cannot write '%s': %s", path, strerror(ENOMEM));
  int fd = rl_tmp_create(p->img_tmp);
  if (fd < 0) {
    int e = errno;
    free(p->img_tmp);
    p->img_tmp = NULL;
    return rl_runtime(cmd, "cannot write '%s': %s", path, strerror(e));
  }
  close(fd);
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  p->data_tmp = dup_tmp(dir, "/ropelab-plot-XXXXXX");
  fd = p->data_tmp ? rl_tmp_create(p->data_tmp) : -1;
  if (fd < 0) {
    int e = p->data_tmp ? errno : ENOMEM;
    free(p->data_tmp);
    p->data_tmp = NULL;
    rl_plot_abort(p);
    return rl_runtime(cmd, "cannot create a temporary file in '%s': %s", dir, strerror(e));
  }
  p->data = fdopen(fd, "w");
  if (!p->data) {
    int e = errno;
    close(fd);
    rl_plot_abort(p);
    return rl_runtime(cmd, "cannot create a temporary file in '%s': %s", dir, strerror(e));
  }
  return 0;
}

/* ROPELAB_PLOTS_DIR, else the source tree's plots/ (running from a build
 * directory), else the installed copy. */
static char *find_script(const char *name)
{
  const char *dirs[3] = {getenv("ROPELAB_PLOTS_DIR"), NULL, NULL};
  if (!dirs[0] || !*dirs[0]) {
    struct stat st;
    dirs[0] = stat(RL_PLOTS_SRCDIR, &st) == 0 && S_ISDIR(st.st_mode) ? RL_PLOTS_SRCDIR
                                                                     : RL_PLOTS_DATADIR;
  }
  size_t a = strlen(dirs[0]), b = strlen(name);
  char *s = malloc(a + b + 2);
  if (s) {
    memcpy(s, dirs[0], a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
  }
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

int rl_plot_finish(rl_plot *p, int data_err)
{
  int rc = 0;
  char *script = NULL;
  errno = 0;
  if (!data_err && (fflush(p->data) == EOF || ferror(p->data)))
    data_err = errno ? errno : EIO;
  errno = 0;
  if (fclose(p->data) == EOF && !data_err)
    data_err = errno ? errno : EIO;
  p->data = NULL;
  if (data_err) {
    rc = rl_runtime(p->cmd, "cannot plot: writing '%s': %s", p->data_tmp, strerror(data_err));
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
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    rc = rl_runtime(p->cmd, "cannot plot: cannot start gnuplot: %s", strerror(errno));
    goto done;
  }
  if (pid == 0) {
    /* gnuplot's stdout must not mix into our CSV on stdout; its stderr
     * (script errors) stays visible */
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
    }
    char term[32];
    snprintf(term, sizeof term, "%s", p->term);
    char *args[] = {"gnuplot", "-c", script, p->data_tmp, p->img_tmp, term, NULL};
    execvp("gnuplot", args);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      status = -1;
      break;
    }
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    rc = rl_runtime(p->cmd, "cannot plot: gnuplot failed (%s %d)",
                    status != -1 && WIFSIGNALED(status) ? "signal" : "exit status",
                    status == -1 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    goto done;
  }
  if (stat(p->img_tmp, &st) != 0 || st.st_size == 0) {
    rc = rl_runtime(p->cmd, "cannot plot: gnuplot wrote nothing to '%s'", p->path);
    goto done;
  }
  if (rename(p->img_tmp, p->path) != 0) {
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
