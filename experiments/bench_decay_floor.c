/* bench_decay_floor.c: the floor of `ropelab decay --to ROWS-1 --dim 128
 * -o FILE.csv` in CPU time: what no implementation of that command can
 * skip, measured on this machine.  (1) The square roots: ROWS x 64 of
 * them (|S_j| for every row and partial sum j), vectorised over a block
 * held in cache, each of a*a + c*c as the kernel forms them; (2) writing
 * BYTES bytes (the size of ropelab's CSV) to FILE in 4 MiB write()s,
 * then fsync and rename over FILE, as ropelab does.  Prints the CPU time
 * (user + sys, getrusage) of each part.  argv: rows, bytes, file.
 * Built with -O3 -mavx2 -mfma by bench_decay_floor.sh. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>

static double cpu(void)
{
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
         (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

enum { B = 4096 };

int main(int argc, char **argv)
{
  if (argc < 4)
    return 2;
  size_t rows = (size_t)atol(argv[1]), bytes = (size_t)atol(argv[2]);
  static double a[B], c[B], acc[B];
  for (size_t i = 0; i < B; i++)
    a[i] = 1.0 + (double)i / B, c[i] = 0.5 - (double)i / (2 * B), acc[i] = 0;
  double t0 = cpu();
  size_t total = rows * 64, done = 0;
  while (done < total) {
    for (size_t i = 0; i < B; i++) {
      acc[i] += sqrt(a[i] * a[i] + c[i] * c[i]);
      a[i] += 1e-9; /* a new value each pass: nothing to hoist */
    }
    done += B;
  }
  double t1 = cpu();
  char *buf = malloc(1 << 22);
  if (!buf)
    return 1;
  memset(buf, '7', 1 << 22);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", argv[3]);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return 1;
  for (size_t w = 0; w < bytes;) {
    size_t k = bytes - w < (1u << 22) ? bytes - w : (1u << 22);
    ssize_t r = write(fd, buf, k);
    if (r <= 0)
      return 1;
    w += (size_t)r;
  }
  if (fsync(fd) || close(fd) || rename(tmp, argv[3]))
    return 1;
  double t2 = cpu();
  double s = 0;
  for (size_t i = 0; i < B; i++)
    s += acc[i];
  printf("floor: %zu square roots %.3f s cpu (%.2f ns each; sum %g), %zu bytes written %.3f s "
         "cpu, total %.3f s\n", total, t1 - t0, 1e9 * (t1 - t0) / (double)total, s, bytes, t2 - t1,
         t2 - t0);
  free(buf);
  return 0;
}
