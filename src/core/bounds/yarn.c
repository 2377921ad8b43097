/* yarn.c: YaRN's correction range and attention factor as bounds (Peng et
 * al. 2023, arXiv:2309.00071, sec. 3.2 and 3.4), for `ropelab bound
 * yarn`.  Both come from the yarn schedule's own code
 * (src/core/schedules/yarn.c: rl_yarn_correction_range, and the
 * attention factor of the schedule it builds, mscale included), so the
 * bound and the frequencies can never disagree. */
#include <string.h>
#include "ropelab.h"

rl_status rl_yarn_bounds(const rl_schedule_params *p, double train_len, rl_yarn_result *out,
                         char *err)
{
  rl_schedule_params q = *p;
  rl_status st = rl_yarn_bound_params(&q, err);
  if (st || (st = rl_schedule_set(&q, "train-len", train_len)))
    return st;
  rl_schedule *s;
  if ((st = rl_schedule_new(&q, &s, err)))
    return st;
  out->attention_factor = s->attn;
  st = rl_yarn_correction_range(s->rot, q.base, train_len, rl_schedule_get(&s->p, "beta-fast"),
                                rl_schedule_get(&s->p, "beta-slow"),
                                (int)rl_schedule_get(&s->p, "truncate"), &out->low_exact,
                                &out->high_exact, &out->low, &out->high);
  rl_schedule_free(s);
  return st;
}
