/* rowfmt.h: long rows for the scheme commands: a line writer onto rl_out
 * (whose rl_out_row stops at 100 columns; `matrix --format grid` writes
 * rows of n values). */
#ifndef RL_CLI_ROWFMT_H
#define RL_CLI_ROWFMT_H

#include <stddef.h>
#include "out.h"
#include "ropelab.h"

/* Append s (len bytes, a complete line or several) to o's stream and tee,
 * recording the first error in o->err / o->tee_err as rl_out does. */
void rl_out_write(rl_out *o, const char *s, size_t len);
/* A header row the caller formatted (with its newline; wider than
 * rl_out_header takes): written, then the held metadata (out.h). */
void rl_out_header_line(rl_out *o, const char *s, size_t len);

/* The CSV line of v[0..n-1] (shortest round-trip numbers, rl_numfmt,
 * then '\n') at p, which has room for RL_ROW_MAX(n) bytes; returns its
 * length.  No terminating NUL. */
#define RL_ROW_MAX(n) ((n) * (size_t)(RL_NUMFMT_MAX + 1) + 1)
size_t rl_row_text(char *p, const double *v, size_t n);

/* A line of text fields (already formatted) joined by commas. */
void rl_out_fields(rl_out *o, const char *const *f, size_t n);

#endif
