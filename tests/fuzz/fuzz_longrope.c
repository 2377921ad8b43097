/* fuzz_longrope.c: libFuzzer target of LongRoPE's factor file
 * (--factors, columns pair,short,long; src/core/schedules/longrope.c over
 * the CSV reader), d = 8 (4 pairs), factor 4, L = 4096, N = 8192 (the
 * long factors): finite positive frequencies, or an error with a message. */
#include <math.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find("longrope");
  p.dim = 8;
  rl_schedule_set(&p, "factor", 4);
  rl_schedule_set(&p, "train-len", 4096);
  rl_schedule_set(&p, "seq-len", 8192);
  rl_schedule_set_text(&p, "factors", fuzz_file(data, n), NULL, 0);
  rl_schedule *s = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_schedule_new(&p, &s, err);
  if (st == RL_OK) {
    for (size_t i = 0; i < s->n; i++)
      if (!(s->theta[i] >= 0) || !isfinite(s->theta[i]))
        abort();
    rl_schedule_free(s);
  } else if (st != RL_ENOMEM && !err[0]) {
    abort();
  }
  return 0;
}
