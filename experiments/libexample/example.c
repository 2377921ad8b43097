/* example.c: a program of your own calling ropelab's core through the
 * installed library (built by run.sh with `pkg-config --cflags --libs
 * ropelab`).  It builds two schedules and prints:
 *   - RoFormer's relative upper bound at r = 10 for d = 128, base 10000
 *     (the curve of RoFormer Fig. 2 passes 17.954137 there);
 *   - the first and last theta of Llama 3's schedule (d = 128, base
 *     500000, factor 8, L = 8192, low/high frequency factors 1 and 4):
 *     pair 0 keeps its RoPE frequency 1, pair 63 is divided by 8. */
#include <math.h>
#include <stdio.h>
#include <ropelab.h>

int main(void)
{
  rl_schedule *rope = NULL, *llama3 = NULL;
  char err[RL_ERR_MAX];

  rl_status st = rl_schedule_rope(128, 128, 10000, &rope);
  if (st != RL_OK) {
    fprintf(stderr, "example: %s\n", rl_strerror(st));
    return 1;
  }
  printf("rope d=128 base=10000: bound(r=10) = %.6f\n", rl_decay_bound_ref(rope, 10));

  rl_schedule_params p;
  rl_schedule_params_default(&p); /* the core's defaults, then ours */
  p.method = rl_schedule_type_find("llama3");
  p.base = 500000;
  /* parameters a method takes are set through their declarations, which
   * record them as given (a method that does not take one refuses it) */
  rl_schedule_set(&p, "factor", 8);
  rl_schedule_set(&p, "train-len", 8192);
  st = rl_schedule_new(&p, &llama3, err);
  if (st != RL_OK) {
    fprintf(stderr, "example: %s\n", err);
    rl_schedule_free(rope);
    return 1;
  }
  /* RoFormer's theta_63 = 500000^(-126/128), divided by the factor */
  printf("llama3 d=128 base=500000 factor=8: %zu pairs, theta_0 = %g, theta_63 = %.6e "
         "(500000^(-126/128) / 8 = %.6e)\n", llama3->n, llama3->theta[0], llama3->theta[63],
         pow(500000, -126.0 / 128) / 8);
  rl_schedule_free(llama3);
  rl_schedule_free(rope);
  return 0;
}
