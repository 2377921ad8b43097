/* check.c: the registry of properties `ropelab check` runs.  Each family
 * of checks lives in its own file and exports a NULL-terminated array;
 * this file only concatenates them, so adding a family is one line. */
#include <stddef.h>
#include "ropelab.h"
#include "check_impl.h"

#define RL_CHECK_MAX 64

const rl_check *rl_check_list(void)
{
  static rl_check all[RL_CHECK_MAX + 1];
  static int built;
  if (!built) {
    const rl_check *families[] = {rl_checks_rope, rl_checks_schemes, rl_checks_schedules,
                                  rl_checks_bounds, rl_checks_extrapolate};
    size_t k = 0;
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
      for (const rl_check *c = families[f]; c->name && k < RL_CHECK_MAX; c++)
        all[k++] = *c;
    all[k] = (rl_check){NULL, NULL, NULL};
    built = 1;
  }
  return all;
}
