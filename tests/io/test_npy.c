/* test_npy.c: the .npy and CSV readers (src/core/io/npy.c, array.c) on
 * byte strings written here by hand after numpy/lib/format.py: magic,
 * version, header length, a dict padded to 64 bytes, the data.  Float
 * bytes are spelled out (1.5f = 00 00 c0 3f little-endian; -0.25 as a
 * double = 00 .. 00 d0 bf; half 1 = 3c00, -2 = c000, 2^-24 = 0001), so the
 * expected values do not come from the compiler's own encoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ropelab.h"
#include "tap.h"

static unsigned char buf[4096];

/* magic, version major.0, the header length, dict + spaces + '\n' to a
 * multiple of 64 bytes, then ndata bytes of data */
static size_t npy(int major, const char *dict, const unsigned char *data, size_t ndata)
{
  size_t pre = major == 1 ? 10 : 12, dl = strlen(dict);
  size_t total = (pre + dl + 1 + 63) / 64 * 64, hlen = total - pre;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  buf[8] = (unsigned char)(hlen & 0xff);
  buf[9] = (unsigned char)(hlen >> 8);
  if (major > 1)
    buf[10] = buf[11] = 0;
  memcpy(buf + pre, dict, dl);
  memset(buf + pre + dl, ' ', hlen - dl - 1);
  buf[total - 1] = '\n';
  memcpy(buf + total, data, ndata);
  return total + ndata;
}

/* an error: RL_EFORMAT and a message holding want */
static void refused(size_t len, const char *want, const char *what)
{
  rl_array a;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
  tap_bool(st == RL_EFORMAT && strstr(err, want) && !strncmp(err, "t.npy: ", 7),
           "%s refused (%s)", what, err);
  rl_array_free(&a);
}

static const unsigned char f4_6[24] = { /* 1.5, 2, -3, 0.5, 1, 0.25 as float32 LE */
    0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0xc0,
    0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3e};
static const double f4_6v[6] = {1.5, 2, -3, 0.5, 1, 0.25};

static void good(void)
{
  rl_array a;
  char err[RL_ERR_MAX];
  /* 1.0, C order, 2 x 3 */
  size_t len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f4_6, 24);
  rl_status st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
  int same = st == RL_OK && a.rows == 2 && a.cols == 3 && a.ndim == 2 && a.elem == 32;
  for (int k = 0; same && k < 6; k++)
    same = a.data[k] == f4_6v[k];
  tap_bool(same, "v1.0 <f4 C order (2, 3)");
  rl_array_free(&a);

  /* Fortran order: the same bytes are column after column, so row 0 is
   * 1.5, -3, 1 and row 1 is 2, 0.5, 0.25; keys in another order, double
   * quotes, no trailing comma */
  len = npy(1, "{\"shape\": (2,3), \"fortran_order\": True, \"descr\": \"<f4\"}", f4_6, 24);
  st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
  static const double fo[6] = {1.5, -3, 1, 2, 0.5, 0.25};
  same = st == RL_OK && a.rows == 2 && a.cols == 3 && a.fortran;
  for (int k = 0; same && k < 6; k++)
    same = a.data[k] == fo[k];
  tap_bool(same, "v1.0 <f4 Fortran order (2, 3), keys reordered");
  rl_array_free(&a);

  /* 2.0 and 3.0 (uint32 length), 1-D float64: -0.25, 3 */
  static const unsigned char f8[16] = {0, 0, 0, 0, 0, 0, 0xd0, 0xbf, 0, 0, 0, 0, 0, 0, 0x08, 0x40};
  for (int major = 2; major <= 3; major++) {
    len = npy(major, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", f8, 16);
    st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
    tap_bool(st == RL_OK && a.ndim == 1 && a.rows == 2 && a.cols == 1 && a.elem == 64 &&
                 a.data[0] == -0.25 && a.data[1] == 3,
             "v%d.0 <f8 1-D", major);
    rl_array_free(&a);
  }

  /* big-endian float32: 1.5 = 3f c0 00 00 */
  static const unsigned char be[8] = {0x3f, 0xc0, 0, 0, 0xc0, 0x40, 0, 0};
  len = npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", be, 8);
  st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
  tap_bool(st == RL_OK && a.data[0] == 1.5 && a.data[1] == -3, "big-endian >f4 swapped");
  rl_array_free(&a);

  /* float16: 1, -2, 2^-24 (the smallest subnormal), 65504 (7bff) */
  static const unsigned char f2[8] = {0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0xff, 0x7b};
  len = npy(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }", f2, 8);
  st = rl_npy_parse(buf, len, "t.npy", &a, err, sizeof err);
  tap_bool(st == RL_OK && a.elem == 16 && a.data[0] == 1 && a.data[1] == -2 &&
               a.data[2] == 0x1p-24 && a.data[3] == 65504,
           "<f2 half, subnormal and largest finite");
  rl_array_free(&a);
}

static void bad(void)
{
  const char *d23 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  refused(0, "empty file", "empty");
  size_t len = npy(1, d23, f4_6, 24);
  buf[0] = 'x';
  refused(len, "no .npy magic", "bad magic");
  len = npy(1, d23, f4_6, 24);
  buf[6] = 4;
  refused(len, "version 4.0: expected 1.0, 2.0 or 3.0", "version 4.0");
  len = npy(1, d23, f4_6, 24);
  refused(len - 1, "truncated data: the header's shape needs 24 bytes, the file holds 23",
          "one byte short");
  len = npy(1, d23, f4_6, 24);
  refused(20, "truncated .npy header", "cut in the header");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f4_6, 24);
  refused(len, "8 bytes after the data", "header lies about the shape (too few)");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", f4_6, 24);
  refused(len, "truncated data", "header lies about the shape (too many)");
  len = npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", f4_6, 24);
  refused(len, "unsupported dtype '<i4'", "int32");
  len = npy(1, "{'descr': '|f4', 'fortran_order': False, 'shape': (2, 3), }", f4_6, 24);
  refused(len, "unsupported dtype '|f4'", "'|' byte order");
  len = npy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", f4_6, 8);
  refused(len, "structured dtype", "structured dtype");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", f4_6, 4);
  refused(len, "a 0-dimensional array", "scalar");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3), }", f4_6, 24);
  refused(len, "a 3-dimensional array", "3-D");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", f4_6, 0);
  refused(len, "empty axis", "empty axis");
  len = npy(1, "{'descr': '<f4', 'shape': (2, 3), }", f4_6, 24);
  refused(len, "lacks 'fortran_order'", "missing key");
  len = npy(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}",
            f4_6, 24);
  refused(len, "unexpected key 'descr'", "duplicate key");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", f4_6, 24);
  refused(len, "unexpected key 'x'", "unknown key");
  len = npy(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", f4_6, 24);
  refused(len, "expected True or False", "fortran_order 0");
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x)}", f4_6, 24);
  refused(len, "malformed shape", "shape not integers");
  len = npy(1, d23, f4_6, 24);
  buf[len - 24 - 1] = ' '; /* the header's closing newline */
  refused(len, "ending in a newline", "header without its newline");
  /* NaN (7fc00000) at row 1, column 1; +inf (7f800000) in a 1-D array */
  unsigned char nan[24];
  memcpy(nan, f4_6, 24);
  nan[16] = 0, nan[17] = 0, nan[18] = 0xc0, nan[19] = 0x7f;
  len = npy(1, d23, nan, 24);
  refused(len, "NaN at row 1, column 1: expected finite numbers", "NaN");
  nan[18] = 0x80;
  len = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", nan, 24);
  refused(len, "infinity at index 4", "infinity");
  /* shapes whose product wraps past 2^64: 1853298 * 9953468936841 =
   * 2^64 + 2 (worked with Python's integers), so a wrapped product asks
   * for exactly the 16 bytes present; with Fortran order the store then
   * wrote at index i * cols + j far past the buffer (ASan: heap write) */
  len = npy(1, "{'descr':'<f8','fortran_order':True,'shape':(1853298,9953468936841)}", f4_6,
            16);
  refused(len, "1853298 x 9953468936841 values: expected at most",
          "shape wrapping 2^64, Fortran order");
  len = npy(1, "{'descr':'<f8','fortran_order':False,'shape':(1853298,9953468936841)}", f4_6,
            16);
  refused(len, "1853298 x 9953468936841 values: expected at most",
          "shape wrapping 2^64, C order");
  /* one past the limit without wrapping: 2^27 + 1 rows of one column */
  len = npy(1, "{'descr':'<f8','fortran_order':False,'shape':(134217729, 1)}", f4_6, 16);
  refused(len, "134217729 x 1 values: expected at most 134217728", "2^27 + 1 values");
}

static int write_file(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  if (!fp)
    return 0;
  fputs(text, fp);
  return fclose(fp) == 0;
}

static void csv(void)
{
  char dir[] = "/tmp/rl-test-npy.XXXXXX", path[256], err[256];
  if (!mkdtemp(dir)) {
    tap_skip("no temporary folder");
    return;
  }
  rl_array a;
  snprintf(path, sizeof path, "%s/t.csv", dir);
  /* a header, float32 text (at most 9 digits): kept as strtof's float */
  write_file(path, "# comment\npos,cos\n0,1\n1,0.540302306\n");
  rl_status st = rl_array_read(path, &a, err, sizeof err);
  tap_bool(st == RL_OK && a.rows == 2 && a.cols == 2 && a.elem == 32 &&
               rl_array_column(&a, "cos") == 1 && rl_array_column(&a, "sin") == -1 &&
               a.data[3] == (double)0.540302306f,
           "CSV with a header, float32 text");
  rl_array_free(&a);
  /* no header, 17 digits: float64; one column: 1-D */
  write_file(path, "0.54030230586813977\n-0.41614683654714241\n");
  st = rl_array_read(path, &a, err, sizeof err);
  tap_bool(st == RL_OK && a.ndim == 1 && a.rows == 2 && a.elem == 64 &&
               a.data[0] == 0.54030230586813977,
           "CSV 1-D without header, float64 text");
  rl_array_free(&a);
  static const struct { const char *text, *want; } bads[] = {
      {"", "empty file"},
      {"a,b\n", "a header but no rows"},
      {"1,2\n3\n", "1 fields: expected 2"},
      {"1,2\n3,nan\n", "'nan' in column 2: expected finite numbers"},
      {"1,2\n3,x\n", "invalid value 'x' in column 2"},
      {"1,2\n\n3,4\n", "empty line"},
  };
  for (size_t k = 0; k < sizeof bads / sizeof *bads; k++) {
    write_file(path, bads[k].text);
    st = rl_array_read(path, &a, err, sizeof err);
    tap_bool(st == RL_EFORMAT && strstr(err, bads[k].want) && !strncmp(err, path, strlen(path)),
             "CSV refused: %s (%s)", bads[k].want, err);
    rl_array_free(&a);
  }
  /* a directory and a missing file: RL_EIO (exit 3) */
  st = rl_array_read(dir, &a, err, sizeof err);
  tap_bool(st == RL_EIO && strstr(err, "is a folder"), "directory: RL_EIO (%s)", err);
  snprintf(path, sizeof path, "%s/none.npy", dir);
  st = rl_array_read(path, &a, err, sizeof err);
  tap_bool(st == RL_EIO, "missing file: RL_EIO (%s)", err);
  /* named .npy but CSV inside */
  write_file(path, "1,2\n");
  st = rl_array_read(path, &a, err, sizeof err);
  tap_bool(st == RL_EFORMAT && strstr(err, "no .npy magic"), "CSV named .npy refused (%s)", err);
  unlink(path);
  snprintf(path, sizeof path, "%s/t.csv", dir);
  unlink(path);
  rmdir(dir);
}

int main(void)
{
  good();
  bad();
  csv();
  return tap_done();
}
