/* csv.h: a strict reader of the small numeric CSV files a user hands the
 * core (schedule frequencies, LongRoPE factors); private to the core.
 * Lines starting with '#' are comments (one "# key=value" line may be
 * captured); the first other line is the header; every later line holds
 * one field per header column; the columns asked for hold finite numbers,
 * read in the C locale (the others may hold text).  Errors name
 * FILE:LINE, the problem and what was expected. */
#ifndef RL_IO_CSV_H
#define RL_IO_CSV_H
#include <stddef.h>
#include "ropelab.h"

#define RL_CSV_MAX_BYTES (64u << 20) /* a schedule file is kilobytes */

typedef struct rl_csv_table {
  size_t rows, ncols;
  double *data;        /* rows x ncols, column k = want[k] (malloc'ed) */
  int *present;        /* ncols flags: whether column k was in the header */
  double meta;         /* value of "# <meta_key>=..." */
  int has_meta;
} rl_csv_table;

/* Read the columns named in want (want[k] may be absent from the header
 * when bit k of optional is set).  RL_EIO when the file cannot be read,
 * RL_EFORMAT when it is malformed; err (errsize bytes) then says why. */
rl_status rl_csv_read(const char *path, const char *const *want, size_t ncols,
                      unsigned optional, const char *meta_key, rl_csv_table *t, char *err,
                      size_t errsize);
void rl_csv_free(rl_csv_table *t);

#endif
