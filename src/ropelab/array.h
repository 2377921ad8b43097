/* array.h: numeric arrays from a user's files (.npy, CSV).
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_ARRAY_H
#define ROPELAB_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 1-D or 2-D array of finite numbers, row-major whatever the file's
 * order.  elem is the file's storage: 16, 32 or 64 (IEEE binary16, 32,
 * 64 in a .npy), or for CSV text 32 when every field has at most 9
 * significant digits (then data holds the float32 each field denotes,
 * strtof's) and 64 otherwise. */
typedef struct rl_array {
  size_t rows, cols;   /* 1-D: cols = 1 */
  int ndim;            /* 1 or 2 */
  double *data;        /* rows x cols (malloc'ed) */
  int elem;            /* 16, 32 or 64 */
  int npy;             /* 1 for a .npy file, 0 for CSV */
  int fortran;         /* .npy: the file was in Fortran (column) order */
  char *header;        /* CSV: the header line, or NULL when none */
} rl_array;
#define RL_ARRAY_MAX_ELEMS ((size_t)1 << 27) /* 1 GiB of doubles */
/* A NumPy .npy array held in memory (format versions 1.0, 2.0, 3.0;
 * descr '<f2' '<f4' '<f8', '>' byte-swapped, '=' native; fortran_order
 * True or False; shape (n,) or (n, m), n, m >= 1).  name labels the
 * messages.  RL_EFORMAT with err
 * "NAME: problem: expected ..." for anything else, a short or long data
 * part, NaN or infinity. */
rl_status rl_npy_parse(const unsigned char *buf, size_t len, const char *name, rl_array *a,
                       char *err, size_t errsize);
/* The whole of the regular file path, NUL-terminated, at most max bytes
 * (*buf malloc'ed, *len bytes).  Opened without blocking and checked on
 * the open descriptor: a FIFO, device, socket or directory is RL_EIO
 * ("not a regular file"), never read; a larger file or one holding a
 * NUL byte (which C string functions would silently stop at) is
 * RL_EFORMAT naming FILE:LINE.  err (errsize bytes) says why. */
rl_status rl_io_slurp(const char *path, size_t max, char **buf, size_t *len, char *err,
                      size_t errsize);
/* A file: .npy when it starts with NumPy's magic string (or is named
 * *.npy), otherwise CSV of numbers (lines starting with '#' skipped, an
 * optional header line of names, the same number of fields on every
 * line).  RL_EIO (exit 3) when it cannot be read, a directory, not a
 * regular file; RL_EFORMAT (exit 2) when malformed or empty. */
rl_status rl_array_read(const char *path, rl_array *a, char *err, size_t errsize);
void rl_array_free(rl_array *a);
/* The index of header column name (CSV with a header), or -1. */
int rl_array_column(const rl_array *a, const char *name);

/* A .npy file of rows x cols doubles (format 1.0, '<f8', C order;
 * src/core/io/npy_write.c), streamed: rl_npy_create writes the header to
 * a temporary file beside path, rl_npy_append adds whole rows,
 * rl_npy_commit checks that every declared row came and renames the file
 * into place (nothing appears at path otherwise), rl_npy_abort removes
 * it.  err receives "problem 'PATH': reason" (RL_EIO for the file system,
 * RL_EINVAL for a shape or row count).  rl_npy_write: a whole array. */
typedef struct rl_npy_writer rl_npy_writer;
rl_status rl_npy_create(const char *path, size_t rows, size_t cols, rl_npy_writer **w,
                        char *err, size_t errsize);
rl_status rl_npy_append(rl_npy_writer *w, const double *vals, size_t nrows, char *err,
                        size_t errsize);
rl_status rl_npy_commit(rl_npy_writer *w, char *err, size_t errsize);
void rl_npy_abort(rl_npy_writer *w);
/* The temporary file being written (for a caller's signal handler to
 * remove), or NULL once committed or aborted. */
const char *rl_npy_tmp_path(const rl_npy_writer *w);
rl_status rl_npy_write(const char *path, const double *data, size_t rows, size_t cols, char *err,
                       size_t errsize);

#ifdef __cplusplus
}
#endif
#endif
