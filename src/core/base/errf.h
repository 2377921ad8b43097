/* errf.h: an error message into a caller's buffer, for the core's readers
 * and loaders (internal: not in ropelab.h). */
#ifndef RL_ERRF_H
#define RL_ERRF_H
#include <stddef.h>
#include "ropelab.h"

/* Formats into err[0..n-1] when err is not NULL and n > 0; returns st,
 * so that a failure is one statement: return rl_errf(RL_EFORMAT, ...). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
rl_status rl_errf(rl_status st, char *err, size_t n, const char *fmt, ...);

#endif
