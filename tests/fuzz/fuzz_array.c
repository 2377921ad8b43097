/* fuzz_array.c: libFuzzer target of the array reader behind audit and
 * check --table (src/core/io/array.c, npy.c: rl_array_read): any bytes,
 * .npy or CSV, must give RL_OK with rows x cols finite numbers that can
 * all be read, or a refusal with a message; never a crash, a write past a
 * buffer, a leak or undefined behaviour.  The reader picks .npy by the
 * magic string, so one target reaches both parsers. */
#include <math.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  const char *path = fuzz_file(data, n);
  rl_array a;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_array_read(path, &a, err, sizeof err);
  if (st == RL_OK) {
    if (!a.rows || !a.cols || a.rows > RL_ARRAY_MAX_ELEMS / a.cols)
      abort(); /* a shape the reader promised never to return */
    for (size_t k = 0; k < a.rows * a.cols; k++)
      if (!isfinite(a.data[k]))
        abort(); /* the reader promised finite numbers */
    rl_array_free(&a);
  } else if (st != RL_ENOMEM && !err[0]) {
    abort(); /* every refusal says why */
  }
  return 0;
}
