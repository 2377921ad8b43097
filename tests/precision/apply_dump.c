/* apply_dump.c: prints y = rl_rope_apply_pipeline(schedule, layout, m,
 * with_attn, x) as hex floats, one per line, for ref_apply.py (which
 * computes the expected y independently in Python).
 *   apply_dump PRECISION DIM ROT BASE LAYOUT WITH_ATTN METHOD FACTOR TRAIN_LEN M X0 X1 ...
 * METHOD rope or yarn (yarn: FACTOR, TRAIN_LEN); LAYOUT half|interleaved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

int main(int argc, char **argv)
{
  if (argc < 11) {
    fprintf(stderr, "usage: apply_dump PRECISION DIM ROT BASE LAYOUT WITH_ATTN METHOD FACTOR "
                    "TRAIN_LEN M X...\n");
    return 2;
  }
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.precision = rl_precision_find(argv[1]);
  p.dim = strtoul(argv[2], NULL, 10);
  p.rot = strtoul(argv[3], NULL, 10);
  p.base = strtod(argv[4], NULL);
  rl_layout lay = strcmp(argv[5], "half") ? RL_LAYOUT_INTERLEAVED : RL_LAYOUT_HALF;
  int with_attn = atoi(argv[6]);
  p.method = rl_schedule_type_find(argv[7]);
  if (!strcmp(argv[7], "yarn")) {
    p.factor = strtod(argv[8], NULL);
    p.train_len = strtod(argv[9], NULL);
    p.set |= RL_SP_FACTOR | RL_SP_TRAIN_LEN;
  }
  double m = strtod(argv[10], NULL);
  if (!p.precision || !p.method || (size_t)(argc - 11) != p.dim) {
    fprintf(stderr, "apply_dump: bad precision, method or number of x values\n");
    return 2;
  }
  double x[512], y[512];
  for (size_t j = 0; j < p.dim; j++)
    x[j] = strtod(argv[11 + j], NULL);
  rl_schedule *s;
  char err[RL_ERR_MAX];
  if (rl_schedule_new(&p, &s, err)) {
    fprintf(stderr, "apply_dump: %s\n", err);
    return 2;
  }
  rl_status st = rl_rope_apply_pipeline(s, lay, m, with_attn, x, y);
  printf("attn %a\n", s->attn);
  for (size_t j = 0; !st && j < p.dim; j++)
    printf("%a\n", y[j]);
  rl_schedule_free(s);
  return st ? 3 : 0;
}
