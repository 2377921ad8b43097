/* progress.h: a percentage and the time left (from the rate so far) on
 * stderr for long runs, redrawn with '\r' at
 * most four times a second; shown when stderr is a terminal (or forced
 * with --progress), never with --quiet. */
#ifndef RL_CLI_PROGRESS_H
#define RL_CLI_PROGRESS_H

#include <stddef.h>
#include <time.h>

enum { RL_PROGRESS_QUIET = -1, RL_PROGRESS_AUTO = 0, RL_PROGRESS_FORCE = 1 };

typedef struct rl_progress {
  const char *cmd;
  int on, shown;
  size_t total;
  struct timespec last, t0; /* t0: the start, for the time left */
} rl_progress;

/* long_run: whether AUTO should show anything (e.g. rows > 1e5 or MC). */
void rl_progress_init(rl_progress *p, const char *cmd, int mode, size_t total, int long_run);
void rl_progress_update(rl_progress *p, size_t done);
void rl_progress_end(rl_progress *p);
/* Ends a line already shown without claiming 100% (a run that failed). */
void rl_progress_stop(rl_progress *p);

#endif
