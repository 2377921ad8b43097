/* fuzz_freqs_file.c: libFuzzer target of the frequency-file schedule
 * (method file, --freqs-file; src/core/schedules/file.c over the CSV
 * reader), d = 8 (4 pairs): a schedule with 0 <= theta <= 1, or an error
 * with a message. */
#include <math.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find("file");
  p.dim = 8;
  rl_schedule_set_text(&p, "freqs-file", fuzz_file(data, n), NULL, 0);
  rl_schedule *s = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_schedule_new(&p, &s, err);
  if (st == RL_OK) {
    for (size_t i = 0; i < s->n; i++)
      if (!(s->theta[i] >= 0 && s->theta[i] <= 1))
        abort();
    rl_schedule_free(s);
  } else if (st != RL_ENOMEM && !err[0]) {
    abort();
  }
  return 0;
}
