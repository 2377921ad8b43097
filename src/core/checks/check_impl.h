/* check_impl.h: the check families (private to the core). */
#ifndef RL_CHECK_IMPL_H
#define RL_CHECK_IMPL_H
#include <stdio.h>
#include "ropelab.h"

extern const rl_check rl_checks_rope[];
extern const rl_check rl_checks_schedules[];

/* Fill a result: pass when error <= tolerance (and error is not NaN). */
static inline void rl_check_set(rl_check_result *res, double error, double tolerance)
{
  res->error = error;
  res->tolerance = tolerance;
  res->pass = error <= tolerance;
}
#endif
