/* file.c: rl_file_open_read, the one open-for-reading of a user's file
 * (file.h says why it is one function). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ropelab.h"
#include "../base/internal.h"

static const char *kind(mode_t m)
{
  return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISSOCK(m) ? "a socket" : "a special file";
}

rl_status rl_file_open_read(const char *path, const char *what, uint64_t max, int *fd_out,
                            uint64_t *size, char *err, size_t n)
{
  const char *sp = what ? " " : "";
  if (!what)
    what = "";
  *fd_out = -1;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': %s", what, sp, path, strerror(errno));
  struct stat sb;
  rl_status st = RL_OK;
  if (fstat(fd, &sb) != 0)
    st = rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': %s", what, sp, path, strerror(errno));
  else if (S_ISDIR(sb.st_mode))
    st = rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': is a folder, expected a file", what, sp,
                 path);
  else if (!S_ISREG(sb.st_mode))
    st = rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': not a regular file (%s)", what, sp,
                 path, kind(sb.st_mode));
  else if (max && (uint64_t)sb.st_size > max)
    st = rl_errf(RL_EFORMAT, err, n, "%s%s'%s' has %" PRIu64 " bytes: expected at most %" PRIu64,
                 what, sp, path, (uint64_t)sb.st_size, max);
  else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
    st = rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': %s", what, sp, path, strerror(errno));
  if (st) {
    close(fd);
    return st;
  }
  *fd_out = fd;
  if (size)
    *size = (uint64_t)sb.st_size;
  return RL_OK;
}

rl_status rl_file_fopen_read(const char *path, const char *what, uint64_t max, FILE **fp,
                             uint64_t *size, char *err, size_t n)
{
  int fd;
  *fp = NULL;
  rl_status st = rl_file_open_read(path, what, max, &fd, size, err, n);
  if (st)
    return st;
  if (!(*fp = fdopen(fd, "rb"))) {
    int e = errno;
    close(fd);
    return e == ENOMEM ? RL_ENOMEM
                       : rl_errf(RL_EIO, err, n, "cannot read %s%s'%s': %s", what ? what : "",
                                 what ? " " : "", path, strerror(e));
  }
  return RL_OK;
}
