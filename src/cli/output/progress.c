/* progress.c: see progress.h. */
#include <stdio.h>
#include <unistd.h>
#include "progress.h"

void rl_progress_init(rl_progress *p, const char *cmd, int mode, size_t total, int long_run)
{
  p->cmd = cmd;
  p->total = total;
  p->shown = 0;
  p->on = mode == RL_PROGRESS_FORCE || (mode == RL_PROGRESS_AUTO && long_run && isatty(2));
  clock_gettime(CLOCK_MONOTONIC, &p->last);
  p->t0 = p->last;
}

void rl_progress_update(rl_progress *p, size_t done)
{
  if (!p->on || !p->total)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double dt = (double)(now.tv_sec - p->last.tv_sec) + 1e-9 * (double)(now.tv_nsec - p->last.tv_nsec);
  if (p->shown && dt < 0.25)
    return;
  p->last = now;
  /* a 0% line at the start (a command whose first rows take seconds)
   * does not hold back the first measured line, which has the time left */
  p->shown = done > 0;
  double el = (double)(now.tv_sec - p->t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - p->t0.tv_nsec);
  if (done && done < p->total)
    fprintf(stderr, "\rropelab %s: %3d%% (about %.0f s left)   ", p->cmd,
            (int)(100.0 * (double)done / (double)p->total),
            el * (double)(p->total - done) / (double)done);
  else
    fprintf(stderr, "\rropelab %s: %3d%%", p->cmd, (int)(100.0 * (double)done / (double)p->total));
  fflush(stderr);
}

void rl_progress_end(rl_progress *p)
{
  if (!p->on)
    return;
  fprintf(stderr, "\rropelab %s: 100%%\n", p->cmd);
  fflush(stderr);
}

void rl_progress_stop(rl_progress *p)
{
  if (!p->on || !p->shown)
    return;
  fputc('\n', stderr);
  fflush(stderr);
}
