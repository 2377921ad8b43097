/* registry.c: the registry of properties `ropelab check` runs.  Each family
 * of checks lives in its own file and exports a NULL-terminated array;
 * this file only concatenates them, so adding a family is one line. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include "ropelab.h"
#include "check_impl.h"

/* Built once (pthread_once: two threads asking at once get one table)
 * and sized to what the families hold, so no check is ever dropped. */
static rl_check *all;
static rl_check none[1];

static void build(void)
{
  const rl_check *families[] = {rl_checks_rope, rl_checks_schemes, rl_checks_schedules,
                                rl_checks_bounds, rl_checks_extrapolate};
  size_t n = 0, k = 0;
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    for (const rl_check *c = families[f]; c->name; c++)
      n++;
  all = malloc((n + 1) * sizeof *all);
  if (!all)
    return; /* rl_check_list then returns an empty list */
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    for (const rl_check *c = families[f]; c->name; c++)
      all[k++] = *c;
  all[k] = (rl_check){NULL, NULL, NULL};
}

const rl_check *rl_check_list(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build);
  return all ? all : none;
}
