/* fuzz_params.c: libFuzzer target of the scheme parameter files
 * (--params; src/core/schemes/params.c over rl_io_slurp): the first byte
 * picks the scheme and so the reader (t5 bucket,head,bias; alibi
 * head,slope; learned, tupe position,v0..; deberta bucket,v0..), the rest
 * is the file.  Small shapes (d = 4, 2 heads, 4 buckets, deberta k = 2)
 * match the examples in experiments/params.  A scheme built from the file
 * computes a logit under the sanitizers (whether huge finite parameters
 * may overflow a logit is the loader's business, not checked here); a
 * refusal must say why. */
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  static const char *const names[] = {"t5", "alibi", "learned", "deberta", "tupe"};
  if (n < 1)
    return 0;
  const char *name = names[data[0] % 5];
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.rope.dim = 4;
  c.heads = 2;
  c.num_buckets = 4;
  c.max_distance = 8;
  c.position_buckets = 2;
  c.max_relative_positions = 8;
  c.past = RL_PAST_CLAMP;
  c.param_file = fuzz_file(data + 1, n - 1);
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_scheme_alloc(name, &c, &s, err);
  if (st == RL_OK) {
    const double x[4] = {1, -0.5, 0.25, 2};
    rl_logit_terms t;
    for (size_t h = 0; h < 2; h++) {
      rl_scheme_logit(s, h, 3, 1, x, x, &t);
      rl_scheme_logit(s, h, 0, 70000, x, x, &t);
    }
    rl_scheme_free(s);
  } else if (st != RL_ENOMEM && !err[0]) {
    abort();
  }
  return 0;
}
