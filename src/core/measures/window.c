/* window.c: the local attention window (a Lambda-shaped mask): the first
 * `sinks` tokens plus the last `window` of a sequence, the training-free
 * way to stay within trained distances (Han et al. 2024, NAACL,
 * "LM-Infinite", sec. 4; Xiao et al. 2024, ICLR, "Efficient Streaming
 * Language Models with Attention Sinks", StreamingLLM).  As StreamingLLM
 * does (sec. 3.2: "focuses on positions within the cache rather than
 * those in the original text"), the kept keys take their cache positions
 * 0..A-1 and the query A - 1, so no distance exceeds sinks + window - 1. */
#include "ropelab.h"

size_t rl_window_keys(const rl_window *w, size_t n)
{
  if (!w || !w->window || n <= w->sinks + w->window)
    return n;
  return w->sinks + w->window;
}

long rl_window_slot(const rl_window *w, size_t n, size_t r)
{
  if (r >= n)
    return -1;
  size_t A = rl_window_keys(w, n), j = n - 1 - r; /* original position */
  if (A == n)
    return (long)j;
  if (r < w->window) /* among the last window tokens: the distance kept */
    return (long)(A - 1 - r);
  if (j < w->sinks) /* a sink keeps its position */
    return (long)j;
  return -1; /* evicted */
}
