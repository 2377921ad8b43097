/* shortest.h: the shortest decimal of a double (shortest.c), for numfmt.c. */
#ifndef RL_CORE_IO_SHORTEST_H
#define RL_CORE_IO_SHORTEST_H

#include <stdint.h>

/* For finite x != 0: |x| reads back from d 10^e (round to nearest, ties
 * to even, as strtod does), d has the fewest digits of any such decimal,
 * and among those it is the closest to |x| (ties: d even); d < 10^17 has
 * no trailing zeros. */
void rl_shortest(double x, uint64_t *d, int *e);

#endif
