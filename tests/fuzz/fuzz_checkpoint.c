/* fuzz_checkpoint.c: libFuzzer target of the trainer's checkpoint reader
 * (src/core/train/checkpoint.c).  The first byte chooses the mode: odd,
 * the rest gets a correct length field and CRC-32 trailer before it is
 * read, so that inputs reach the sections past the checksum; even, read
 * as it is.  A valid checkpoint must give a model whose parameters and
 * moments are finite (second moments >= 0) with step <= steps; anything
 * else an error with a message. */
#include <math.h>
#include "fuzz_file.h"
#include "ropelab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

/* zlib's CRC-32, bit by bit (reflected, polynomial 0xEDB88320) */
static uint32_t crc32_bits(const uint8_t *p, size_t n)
{
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  if (n < 1 || n > (1u << 20))
    return 0;
  int fix = data[0] & 1;
  size_t len = n - 1;
  uint8_t *b = malloc(len ? len : 1);
  if (!b)
    return 0;
  memcpy(b, data + 1, len);
  if (fix && len >= 28) {
    for (int i = 0; i < 8; i++)
      b[16 + i] = (uint8_t)((uint64_t)len >> (8 * i));
    uint32_t c = crc32_bits(b, len - 4);
    for (int i = 0; i < 4; i++)
      b[len - 4 + (size_t)i] = (uint8_t)(c >> (8 * i));
  }
  const char *path = fuzz_file(b, len);
  free(b);
  static rl_ckpt ck;
  rl_train_model *m = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_ckpt_read(path, 0, &ck, &m, err);
  if (st == RL_OK) {
    size_t np = rl_train_nparams(m);
    const double *p = rl_train_params(m), *m1 = rl_train_moment(m, 1), *m2 = rl_train_moment(m, 2);
    for (size_t i = 0; i < np; i++)
      if (!isfinite(p[i]) || !isfinite(m1[i]) || !(m2[i] >= 0) || !isfinite(m2[i]))
        abort();
    if (ck.step > ck.run.steps || rl_train_get_step(m) != ck.step)
      abort();
    rl_train_free(m);
  } else if (m || (st != RL_ENOMEM && !err[0])) {
    abort();
  }
  return 0;
}
