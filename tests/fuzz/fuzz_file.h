/* fuzz_file.h: the input of a libFuzzer target as a file on disk, since
 * every reader of the core takes a path.  One temporary file per process
 * (in $TMPDIR), rewritten for each input and removed at exit. */
#ifndef RL_FUZZ_FILE_H
#define RL_FUZZ_FILE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_path_[4096];

static void fuzz_cleanup_(void)
{
  if (fuzz_path_[0])
    unlink(fuzz_path_);
}

/* The path of a regular file holding exactly data[0..n). */
static const char *fuzz_file(const uint8_t *data, size_t n)
{
  static int fd = -1;
  if (fd < 0) {
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_path_, sizeof fuzz_path_, "%s/ropelab-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemp(fuzz_path_);
    if (fd < 0) {
      perror("fuzz_file: mkstemp");
      abort();
    }
    atexit(fuzz_cleanup_);
  }
  if (ftruncate(fd, 0) != 0 || (n && pwrite(fd, data, n, 0) != (ssize_t)n)) {
    perror("fuzz_file: write");
    abort();
  }
  return fuzz_path_;
}
#endif
