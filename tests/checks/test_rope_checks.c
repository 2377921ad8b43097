/* test_rope_checks.c: the RoPE properties of `ropelab check` at d = 1024,
 * the head size issue 7 timed, where the checks now reuse angles, sample
 * the dense matrix form and draw the Monte Carlo samples once for all
 * distances.  Each must still pass on the exact rotation and still fail
 * on a wrong one.
 *
 * The wrong rotation is the hf-fp32 pipeline (the seam every rotation of
 * the checks goes through): its angles m theta are formed in float32, so
 * at m ~ 1e5..1e6 they are off by up to half an ulp of m theta as a float
 * (2^-8..2^-5 rad), and its cos/sin are float32 numbers whose squares sum
 * to 1 only within ~1e-7.  The properties then miss by about those
 * amounts, against tolerances of 1e-15..1e-12: each failing check must
 * report an error above 1000 times its tolerance (the smallest expected
 * miss, norm's ~1e-8 against 2.3e-13, is 4e4 times).  The checks that
 * compare forms sharing the pipeline's angles (matrix / elementwise /
 * complex, the two layouts) must still pass: they hold for any angles. */
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

static const rl_check *find(const char *name)
{
  for (const rl_check *c = rl_check_list(); c->name; c++)
    if (!strcmp(c->name, name))
      return c;
  return NULL;
}

static int run(const char *name, const rl_check_params *p, rl_check_result *r)
{
  const rl_check *c = find(name);
  if (!c) {
    tap_ok(0, "check %s is registered", name);
    return 0;
  }
  rl_check_params q = *p;
  if (q.trials < rl_check_min_trials(c))
    q.trials = rl_check_min_trials(c);
  rl_status st = c->run(&q, r);
  if (st) {
    tap_ok(0, "%s: status %s", name, rl_strerror(st));
    return 0;
  }
  return 1;
}

int main(void)
{
  rl_check_params p;
  rl_schedule_params_default(&p.sched);
  p.sched.dim = 1024;
  p.seed = 5;
  p.trials = 24;
  static const char *const exact[] = {
      "relative_position", "norm_preservation", "composition",  "implementations_agree",
      "layout_equivalence", "abel_bound",       "mc_independent_mean", "mc_self_mean",
      "linear_rope",        "relative_all_methods",
  };
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++) {
    rl_check_result r = {0};
    if (run(exact[i], &p, &r))
      tap_report(r.pass, r.error, r.tolerance, "exact, d 1024: %s passes (%s)", exact[i],
                 r.detail);
  }

  p.sched.precision = rl_precision_find("hf-fp32");
  if (!p.sched.precision) {
    tap_ok(0, "the hf-fp32 pipeline exists");
    return tap_done();
  }
  static const char *const broken[] = {"relative_position", "norm_preservation", "composition",
                                       "linear_rope"};
  for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
    rl_check_result r = {0};
    if (run(broken[i], &p, &r))
      tap_ok(!r.pass && r.error > 1000 * r.tolerance,
             "float32 angles, d 1024: %s fails, error %.3g > 1000 x tolerance %.3g", broken[i],
             r.error, r.tolerance);
  }
  static const char *const shared[] = {"implementations_agree", "layout_equivalence"};
  for (size_t i = 0; i < sizeof shared / sizeof *shared; i++) {
    rl_check_result r = {0};
    if (run(shared[i], &p, &r))
      tap_report(r.pass, r.error, r.tolerance,
                 "float32 angles, d 1024: %s still passes (the forms share the angles)",
                 shared[i]);
  }
  return tap_done();
}
