/* rowfmt.h: long rows for the scheme commands: a line writer onto rl_out
 * (whose rl_out_row stops at 100 columns; `matrix --format grid` writes
 * rows of n values). */
#ifndef RL_CLI_ROWFMT_H
#define RL_CLI_ROWFMT_H

#include <stddef.h>
#include "out.h"

/* Append s (len bytes, a complete line or several) to o's stream and tee,
 * recording the first error in o->err / o->tee_err as rl_out does. */
void rl_out_write(rl_out *o, const char *s, size_t len);

/* A line of text fields (already formatted) joined by commas. */
void rl_out_fields(rl_out *o, const char *const *f, size_t n);

#endif
