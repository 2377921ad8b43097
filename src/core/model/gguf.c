/* gguf.c: rl_model_read_gguf, the GGUF reader (ropelab/model.h).  Stub until
 * the reader lands: every file is refused. */
#include "../base/errf.h"
#include "ropelab.h"

rl_status rl_model_read_gguf(const char *path, rl_model_rope *m, char *err, size_t n)
{
  (void)m;
  return rl_errf(RL_EFORMAT, err, n, "'%s': GGUF files are not read yet", path);
}
