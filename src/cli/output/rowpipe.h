/* rowpipe.h: rows computed and formatted on worker threads, written in
 * chunk order.
 *
 * The rows are cut into chunks 0..chunks-1.  Each worker (the calling
 * thread is worker 0) claims the next chunk, fills its values (the
 * command's callback, with the worker's own workspaces), formats them
 * (rl_row_text) into its own slot, waits until every earlier chunk is
 * written and writes its own, while the other workers go on with later
 * chunks.  So the output is the same bytes whatever the number of
 * workers, and writing a chunk overlaps computing the next ones.  With
 * one worker everything runs on the calling thread, chunk after chunk
 * (--threads 1 means one core; T means T threads, the caller included). */
#ifndef RL_CLI_ROWPIPE_H
#define RL_CLI_ROWPIPE_H

#include <stddef.h>
#include "out.h"
#include "progress.h"

/* Room for a fill callback's error message. */
#define RL_ROWPIPE_MSG 512

typedef struct rl_rowpipe {
  const char *cmd; /* for messages */
  size_t chunks;   /* number of chunks */
  size_t rows;     /* rows per chunk, at most */
  size_t cols;     /* values per row */
  unsigned workers; /* >= 1; more than chunks is pointless and trimmed */
  /* Chunk c's rows into vals (row-major, cols values per row) on worker
   * w (0..workers-1; one worker's calls never overlap): sets *rows and
   * returns 0, or returns an exit code with the message in msg
   * (RL_ROWPIPE_MSG bytes, without "ropelab CMD: "), *rows then counting
   * the rows before the failing one: they are written, then the run
   * stops and the message is printed. */
  int (*fill)(void *ctx, unsigned w, size_t c, double *vals, size_t *rows, char *msg);
  void *ctx;
  rl_progress *prog; /* rows written so far, or NULL */
  /* NULL: the rows are written as they are.  Otherwise each chunk's
   * values go to take instead, in chunk order, one call at a time (by
   * the worker whose turn it is to write: a reduction such as decay
   * --bins, which writes its own rows): 0, or an exit code after a
   * printed message, which stops the run.  prog is updated the same
   * way. */
  int (*take)(void *ctx, rl_out *out, const double *vals, size_t rows);
} rl_rowpipe;

/* Run p onto out.  0; or the first failing chunk's code, its message
 * printed; or RL_EXIT_RUNTIME without memory (message printed).  A
 * worker whose thread cannot be started is done without (the others, or
 * the calling thread, take its chunks).  A write error, before or during
 * the run, stops it and is left in out->err for rl_out_close to report.
 * Memory: one slot per worker of rows x cols values and their text. */
int rl_rowpipe_run(rl_out *out, const rl_rowpipe *p);

#endif
