/* fuzz_gguf.c: libFuzzer target of the GGUF reader (rl_model_read_gguf,
 * src/core/model/gguf.c): a model whose fields all have key, value and
 * source, whose factor lists are both there with finite factors > 0, or
 * an error of one line naming the file and nothing left in the model. */
#include <math.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  const char *path = fuzz_file(data, n);
  rl_model_rope m;
  rl_model_rope_init(&m);
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_model_read_gguf(path, &m, err, sizeof err);
  if (st == RL_OK) {
    if (!m.arch || !m.path || !m.format)
      abort();
    for (size_t i = 0; i < m.n_fields; i++)
      if (!m.fields[i].key || !m.fields[i].value || !m.fields[i].source || !m.fields[i].value[0])
        abort();
    if (m.n_factors && (!m.short_factor || !m.long_factor))
      abort();
    for (size_t i = 0; i < m.n_factors; i++)
      if (!(m.short_factor[i] > 0 && m.long_factor[i] > 0 && isfinite(m.short_factor[i]) &&
            isfinite(m.long_factor[i])))
        abort();
  } else if (st != RL_ENOMEM) {
    if (!err[0] || strchr(err, '\n') || !strstr(err, path) || m.n_fields || m.arch)
      abort();
  }
  rl_model_rope_free(&m);
  return 0;
}
