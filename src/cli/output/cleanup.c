/* cleanup.c: temp files, the temporary folder of a page and a running
 * child, removed or ended when the process is killed (cleanup.h). */
#define _GNU_SOURCE /* getdents64 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cleanup.h"

#define RL_TMP_SLOTS 8
static const char *volatile tmp_slots[RL_TMP_SLOTS];
static volatile sig_atomic_t child_pid; /* gnuplot while it runs, else 0 */
static const char *volatile tmp_dir;     /* report's page while it is made */
static int handlers_set;
static const int cleanup_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define N_CLEANUP_SIGS (sizeof cleanup_sigs / sizeof *cleanup_sigs)

/* dir and the files in it removed with system calls only (open,
 * getdents64, unlinkat, rmdir: no opendir, which allocates), so that the
 * signal handler may call it.  Entries are read again from the start
 * until none is left: removing while reading may skip some. */
static void remove_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0) {
    char buf[4096];
    for (int pass = 0; pass < 64; pass++) {
      int removed = 0;
      ssize_t n;
      lseek(fd, 0, SEEK_SET);
      while ((n = getdents64(fd, buf, sizeof buf)) > 0)
        for (ssize_t at = 0; at < n;) {
          struct dirent64 *e = (struct dirent64 *)(void *)(buf + at);
          at += e->d_reclen;
          if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            removed += unlinkat(fd, e->d_name, 0) == 0;
        }
      if (!removed)
        break;
    }
    close(fd);
  }
  rmdir(dir);
}

static void on_signal(int sig)
{
  /* async-signal-safe: end the child (gnuplot, or report's subcommand:
   * it would run on as an orphan) and wait for it, so that it has
   * removed its own temp files and writes nothing more into ours; unlink;
   * remove the page's folder; then die of the same signal (SA_RESETHAND
   * restored the default action; the signal is pending until we return) */
  pid_t child = (pid_t)child_pid;
  if (child > 0) {
    kill(child, SIGTERM);
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
      ;
  }
  for (int i = 0; i < RL_TMP_SLOTS; i++)
    if (tmp_slots[i])
      unlink(tmp_slots[i]);
  if (tmp_dir)
    remove_dir(tmp_dir);
  raise(sig);
}

static void set_handlers(void)
{
  if (handlers_set)
    return;
  handlers_set = 1;
  for (size_t i = 0; i < N_CLEANUP_SIGS; i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    /* a signal ignored by the parent (nohup) stays ignored */
    if (sigaction(cleanup_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    sigaction(cleanup_sigs[i], &sa, NULL);
  }
}

void rl_signals_block(sigset_t *old)
{
  set_handlers();
  sigset_t block;
  sigemptyset(&block);
  for (size_t i = 0; i < N_CLEANUP_SIGS; i++)
    sigaddset(&block, cleanup_sigs[i]);
  sigprocmask(SIG_BLOCK, &block, old);
}

void rl_signals_restore(const sigset_t *old)
{
  sigprocmask(SIG_SETMASK, old, NULL);
}

void rl_signals_default(void)
{
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (size_t i = 0; i < N_CLEANUP_SIGS; i++) {
    struct sigaction old;
    if (sigaction(cleanup_sigs[i], NULL, &old) == 0 && old.sa_handler == on_signal)
      sigaction(cleanup_sigs[i], &dfl, NULL);
  }
}

void rl_child_set(pid_t pid)
{
  child_pid = (sig_atomic_t)pid;
}

void rl_tmp_register(const char *path)
{
  set_handlers();
  for (int i = 0; i < RL_TMP_SLOTS; i++)
    if (!tmp_slots[i]) {
      tmp_slots[i] = path;
      return;
    }
}

void rl_tmp_unregister(const char *path)
{
  for (int i = 0; i < RL_TMP_SLOTS; i++)
    if (tmp_slots[i] == path)
      tmp_slots[i] = NULL;
}

int rl_tmp_create(char *tmpl)
{
  /* block the cleanup signals between creating and registering the file */
  sigset_t old;
  rl_signals_block(&old);
  int fd = mkstemp(tmpl);
  int err = errno;
  if (fd >= 0) {
    rl_tmp_register(tmpl);
    /* mkstemp makes 0600; the result should look like any file we create */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
  }
  rl_signals_restore(&old);
  errno = err;
  return fd;
}

void rl_tmpdir_register(const char *path)
{
  set_handlers();
  tmp_dir = path;
}

void rl_tmpdir_remove(void)
{
  const char *d = tmp_dir;
  tmp_dir = NULL;
  if (d)
    remove_dir(d);
}

void rl_tmpdir_unregister(void)
{
  tmp_dir = NULL;
}
