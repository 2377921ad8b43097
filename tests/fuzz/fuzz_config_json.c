/* fuzz_config_json.c: libFuzzer target of the config.json reader
 * (rl_model_read_json, src/core/model/json.c, through jansson): either a
 * field list whose every value its schedule declaration accepts and whose
 * LongRoPE lists are both there with one factor per rotary pair, or an
 * error of one line.  The input's length picks the layer type asked for
 * (none, full_attention, sliding_attention, another), so that the
 * per-layer-type paths are fuzzed too. */
#include <string.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  rl_model_rope m;
  rl_model_rope_init(&m);
  static const char *const layer[] = {NULL, "full_attention", "sliding_attention", "x"};
  m.layer_type = layer[n % 4];
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_model_read_json(fuzz_file(data, n), &m, err, sizeof err);
  if (st == RL_OK) {
    rl_schedule_params p;
    rl_schedule_params_default(&p);
    char e[512];
    for (size_t i = 0; i < m.n_fields; i++) {
      const rl_param *d = rl_schedule_param_find(m.fields[i].key);
      if (!d || rl_param_parse(d, &p, m.fields[i].value, e, sizeof e) || !m.fields[i].source[0])
        abort();
    }
    if (!m.short_factor != !m.long_factor || (m.short_factor && !m.n_factors))
      abort();
    for (size_t i = 0; i < m.n_factors; i++)
      if (!(m.short_factor[i] > 0) || !(m.long_factor[i] > 0))
        abort();
    rl_model_rope_free(&m);
  } else if (st != RL_ENOMEM && (!err[0] || strchr(err, '\n'))) {
    abort();
  }
  return 0;
}
