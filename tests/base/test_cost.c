/* test_cost.c: the precision cost refusal (src/core/base/cost.c) when the
 * schedules' builds leave no room for one position: the width is refused,
 * not the positions.  Expected by hand from cost.h's rates (1.5 us a pair
 * built, 0.1 us a pair and position, an hour of CPU): 17 pipelines, one
 * position, 2^30 pairs (--dim 2^31) build 18 x 2^30 x 1.5 us = 28991 s;
 * the most pairs that fit are floor(3600 / (18 x 1.5 us + 17 x 1 x
 * 0.1 us)) = floor(3600 / 28.7 us) = 125435540, so --dim at most
 * 250871080.  Before, it said "expected at most 0 ..., --sample log". */
#include <string.h>
#include "ropelab.h"
#include "tap.h"

int main(void)
{
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_cost_check_prec(17, 1, "--to", 0, (size_t)1 << 30, "--dim",
                                    (size_t)1 << 31, err);
  tap_ok(st == RL_ERANGE && !strncmp(err, "invalid --dim '2147483648': too large: ", 39),
         "the builds past the hour: --dim refused (%s)", err);
  tap_ok(strstr(err, "builds alone 28991 s") && strstr(err, "expected --dim at most 250871080 "),
         "the builds' cost and the largest --dim named");
  st = rl_cost_check_prec(1, 1, "--to", 0, (size_t)1 << 30, "--rot", (size_t)1 << 31, err);
  /* 1 pipeline: 2 builds x 2^30 x 1.5 us = 3221 s, 1 position 107 s:
   * 3328 s fits */
  tap_ok(st == RL_OK, "one pipeline of 2^30 pairs and one position: within the hour");
  /* a request that positions make long still names --to: 17 pipelines
   * of 524288 pairs, --to 1e4 (bad_precision_cost: 4022) */
  st = rl_cost_check_prec(17, 10001, "--to", 10000, 524288, "--dim", 1048576, err);
  tap_ok(st == RL_ERANGE && strstr(err, "invalid --to '10000'") &&
             strstr(err, "expected at most 4022 "),
         "the positions' cost names --to (%s)", err);
  return tap_done();
}
