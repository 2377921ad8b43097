/* divided.c: a method that exists only in the test build, to show what
 * adding a method with a parameter of its own touches: this file (its
 * type and its one declaration), one registry line (registry.c, under
 * RL_TEST_METHOD) and its tests; nothing under src/cli.  RoFormer's
 * frequencies divided by a divisor q >= 1 (a made-up method: linear
 * interpolation with its own option name, so the expected values are
 * those of linear's closed form theta_i = base^(-2i/r) / q). */
#include "core/schedules/schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  (void)err;
  for (size_t i = 0; i < s->n; i++)
    rl_sched_set(s, i, rl_sched_plain(s, (long double)s->p.base, i) / (rl_xr)s->p.own[0]);
  return RL_OK;
}

/* No RL_SP_* bit: a method's own parameter needs none; the CLI refuses
 * it for other methods from the declaration alone. */
static const rl_param p_divisor = {
    .key = "divisor", .kind = RL_PK_REAL, .offset = RL_SP_OWN(0), .lo = 1,
    .hi = INFINITY, .dflt = 2, .metavar = "Q", .symbol = "q",
    .help = "frequencies over Q (test build)"};
static const rl_param *const params[] = {&p_divisor, NULL};

const rl_schedule_type rl_sched_test_divided = {
    "divided", "RoFormer's frequencies divided by q (test build only)", "none", "none",
    RL_SP_TRAIN_LEN, 0, 0, init, NULL, NULL, params, RL_FORM_RATIO};
