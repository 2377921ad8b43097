/* test_checks.c: runs every scheme property of `ropelab check`
 * (rl_checks_schemes) at two parameter sets; each must pass within the
 * tolerance the check states. */
#include <stdio.h>
#include "ropelab.h"
#include "tap.h"

int main(void)
{
  static const struct { size_t dim, rot; double base; unsigned long seed; size_t trials; } sets[] = {
      {64, 64, 10000.0, 1, 200},
      {128, 96, 500000.0, 7, 100},
  };
  rl_check_params ps[2];
  for (size_t k = 0; k < 2; k++) {
    rl_schedule_params_default(&ps[k].sched);
    ps[k].sched.dim = sets[k].dim;
    ps[k].sched.rot = sets[k].rot;
    ps[k].sched.base = sets[k].base;
    ps[k].seed = sets[k].seed;
    ps[k].trials = sets[k].trials;
  }
  for (size_t k = 0; k < sizeof ps / sizeof *ps; k++)
    for (const rl_check *c = rl_checks_schemes; c->name; c++) {
      rl_check_result r = {0};
      rl_status st = c->run(&ps[k], &r);
      if (st) {
        tap_ok(0, "%s (dim %zu): status %s", c->name, ps[k].sched.dim, rl_strerror(st));
        continue;
      }
      tap_report(r.pass, r.error, r.tolerance, "%s (dim %zu): %s", c->name, ps[k].sched.dim,
                 r.detail);
    }
  return tap_done();
}
