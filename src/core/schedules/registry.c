/* registry.c: the schedule types, in the order `ropelab help` lists them.
 * A new method is one file ending in its rl_schedule_type (with the
 * declarations of its own parameters), one line here, one line in
 * meson.build; the CLI's options, help, metadata, sweeps, completion and
 * man page follow from the declarations. */
#include <string.h>
#include "schedule_impl.h"

#ifdef RL_TEST_METHOD
extern const rl_schedule_type rl_sched_test_divided;
#endif

static const rl_schedule_type *const types[] = {
    &rl_sched_rope,   &rl_sched_linear, &rl_sched_ntk,          &rl_sched_dynamic,
    &rl_sched_yarn,   &rl_sched_llama3, &rl_sched_longrope,     &rl_sched_prope,
    &rl_sched_xpos,   &rl_sched_rerope, &rl_sched_leaky_rerope, &rl_sched_logn,
    &rl_sched_mrope,  &rl_sched_file,
#ifdef RL_TEST_METHOD /* the test build's method (tests/schedules/newmethod) */
    &rl_sched_test_divided,
#endif
    NULL};

const rl_schedule_type *const *rl_schedule_types(void)
{
  return types;
}

const rl_schedule_type *rl_schedule_type_find(const char *name)
{
  for (size_t k = 0; name && types[k]; k++)
    if (!strcmp(types[k]->name, name))
      return types[k];
  return NULL;
}
