/* dalloc.h: arrays of doubles for the vector loops of the core
 * (internal: not in ropelab.h). */
#ifndef RL_DALLOC_H
#define RL_DALLOC_H
#include <stdlib.h>

/* count doubles, 64-byte aligned (a cache line, an AVX-512 vector); the
 * size rounded up to a multiple of the alignment, as C11's aligned_alloc
 * asks.  Freed with free(). */
static inline double *rl_dalloc(size_t count)
{
  size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
  return aligned_alloc(64, bytes ? bytes : 64);
}

#endif
