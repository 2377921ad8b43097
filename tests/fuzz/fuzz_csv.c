/* fuzz_csv.c: libFuzzer target of the strict CSV reader (src/core/io/csv.c,
 * rl_io_slurp and rl_csv_read): any bytes must give RL_OK with a table of
 * finite numbers, or an error with a message; never a crash, a leak or
 * undefined behaviour (the build adds address and undefined sanitizers). */
#include <math.h>
#include "fuzz_file.h"
#include "core/base/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  static const char *const cols[] = {"theta", "pair", "short"};
  const char *path = fuzz_file(data, n);
  rl_csv_table t;
  char err[RL_ERR_MAX];
  /* pair and short optional (bits 1, 2), and one "# attention_factor=" line */
  rl_status st = rl_csv_read(path, cols, 3, 6u, "attention_factor", &t, err, sizeof err);
  if (st == RL_OK) {
    for (size_t r = 0; r < t.rows; r++)
      for (size_t c = 0; c < t.ncols; c++)
        if (t.present[c] && !isfinite(t.data[r * t.ncols + c]))
          abort(); /* the reader promised finite numbers */
    if (t.has_meta && !isfinite(t.meta))
      abort();
    rl_csv_free(&t);
  } else if (st != RL_ENOMEM && !err[0]) {
    abort(); /* every refusal says why */
  }
  return 0;
}
