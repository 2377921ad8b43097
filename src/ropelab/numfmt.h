/* numfmt.h: numbers as text: shortest round-trip decimals.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_NUMFMT_H
#define ROPELAB_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shortest decimal (at most 17 significant digits) that strtod reads back
 * as exactly x, in the C locale whatever the process locale is.
 * buf must hold RL_NUMFMT_MAX bytes; returns the length. */
#define RL_NUMFMT_MAX 32
int rl_numfmt(double x, char *buf);
/* Exactly 17 significant digits (trailing zeros dropped, "%.17g"'s
 * notation), which always read back as x: about twice as fast as
 * rl_numfmt, for outputs of 10^7 numbers and more (`matrix`).  The last
 * digit may differ by one from glibc's correctly rounded "%.17g" where x
 * lies within 0.0055 units of a tie; it reads back exactly either way. */
int rl_numfmt17(double x, char *buf);

#ifdef __cplusplus
}
#endif
#endif
