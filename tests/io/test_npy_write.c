/* test_npy_write.c: rl_npy_write / rl_npy_create..commit (src/core/io/
 * npy_write.c) read back by the project's own strict reader
 * (rl_array_read): the same doubles bit for bit (-0, the smallest
 * subnormal, the largest double, 0.1), shapes (1, 1), (3, 4) and
 * (2000, 3); the header's bytes checked by
 * hand against NEP 1 (magic, version 1.0, little-endian length, total a
 * multiple of 64, '\n' last); a commit with rows missing or an append past
 * the shape fails and leaves nothing at the path; a missing folder is
 * RL_EIO.  numpy's own np.load reads `angles -o FILE.npy` in the golden
 * case tests/cli/cases/angles_npy. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ropelab.h"
#include "tap.h"

static int same_bits(const double *a, const double *b, size_t n)
{
  return memcmp(a, b, n * sizeof *a) == 0;
}

static void roundtrip(const char *path, const double *v, size_t rows, size_t cols)
{
  char err[RL_ERR_MAX];
  rl_status st = rl_npy_write(path, v, rows, cols, err, sizeof err);
  rl_array a = {0};
  rl_status rs = st ? st : rl_array_read(path, &a, err, sizeof err);
  tap_bool(!st && !rs && a.npy && a.rows == rows && a.cols == cols && a.elem == 64 &&
               !a.fortran && same_bits(a.data, v, rows * cols),
           "(%zu, %zu) written and read back bit for bit (%s)", rows, cols,
           st || rs ? err : "ok");
  rl_array_free(&a);
  /* the header by hand */
  unsigned char h[10];
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(h, 1, 10, f) : 0;
  size_t hlen = got == 10 ? (size_t)h[8] | (size_t)h[9] << 8 : 0;
  unsigned char last = 0;
  if (f && hlen && !fseek(f, (long)(10 + hlen - 1), SEEK_SET))
    last = (unsigned char)fgetc(f);
  if (f)
    fclose(f);
  tap_bool(got == 10 && !memcmp(h, "\x93NUMPY\x01\x00", 8) && (10 + hlen) % 64 == 0 && last == '\n',
           "(%zu, %zu): magic, version 1.0, header length %zu (+10 a multiple of 64), '\\n' last",
           rows, cols, hlen);
}

int main(void)
{
  char dir[] = "/tmp/rl_npyXXXXXX", path[512], err[256];
  if (!mkdtemp(dir))
    return tap_bool(0, "mkdtemp"), tap_done();
  snprintf(path, sizeof path, "%s/a.npy", dir);
  double one[1] = {-0.0};
  roundtrip(path, one, 1, 1);
  double v[12] = {0.1, -0.0, DBL_TRUE_MIN, DBL_MAX, 1, 2, 3, 4, -5e-324, 1e-300, 0.5, -1};
  roundtrip(path, v, 3, 4);
  double *w = malloc(2000 * 3 * sizeof *w);
  for (size_t i = 0; i < 6000; i++)
    w[i] = (double)i / 7.0;
  roundtrip(path, w, 2000, 3);

  /* streamed, then a short commit: nothing at the path */
  snprintf(path, sizeof path, "%s/b.npy", dir);
  rl_npy_writer *wr;
  rl_status st = rl_npy_create(path, 4, 3, &wr, err, sizeof err);
  if (!st)
    st = rl_npy_append(wr, w, 2, err, sizeof err);
  rl_status ex = st ? st : rl_npy_append(wr, w, 3, err, sizeof err); /* 5 > 4 rows */
  rl_status cm = st ? st : rl_npy_commit(wr, err, sizeof err);
  tap_bool(!st && ex == RL_EINVAL && cm == RL_EINVAL && access(path, F_OK) != 0,
           "an append past the shape and a commit short of it fail, nothing at the path (%s)",
           err);
  /* the directory holds only a.npy: no temporary left */
  char cmd[600];
  snprintf(cmd, sizeof cmd, "test \"$(ls -A %s)\" = a.npy", dir);
  tap_bool(system(cmd) == 0, "no temporary file left beside the target");
  snprintf(path, sizeof path, "%s/no/such/dir.npy", dir);
  st = rl_npy_write(path, v, 3, 4, err, sizeof err);
  tap_bool(st == RL_EIO && strstr(err, "cannot create '") == err,
           "a missing folder: RL_EIO, \"%s\"", err);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    printf("# could not remove %s\n", dir);
  free(w);
  return tap_done();
}
