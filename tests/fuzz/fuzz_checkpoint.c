/* fuzz_checkpoint.c: libFuzzer target of the trainer's checkpoint reader
 * (src/core/train/checkpoint.c).  The first byte chooses the mode:
 *   bit 1 set: field-aware (issue 33): a valid checkpoint of a tiny model
 *     of scheme data[1] % 9, written as train writes it, then for each
 *     following 3 bytes (what, which, value) one mutation of
 *     tests/train/ckpt_mutate.h: what % 30 < 27 sets that CONF field to
 *     its bounds, one past them, 0, -1, 2^31, 2^40, NaN, inf...; 27..29 an
 *     entry (which / 256 of the way) of PARM, MOM1, MOM2 to +-1e300, inf,
 *     NaN or the bound; the CRC made right; an accepted file must keep
 *     every promise (ckm_oracle: fields within train's option bounds,
 *     values within train_run.h's, a finite forward pass);
 *   else odd: the rest gets a correct length field and CRC-32 trailer
 *     before it is read, so that inputs reach the sections past the
 *     checksum; even: read as it is.  A valid checkpoint must give a
 *     model whose parameters and moments are finite (second moments
 *     >= 0) with step <= steps; anything else an error with a message. */
#include <math.h>
#include "fuzz_file.h"
#include "ckpt_mutate.h"
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

/* The field-aware mode: 0, or abort() on a broken promise. */
static int structured(const uint8_t *data, size_t n)
{
  static unsigned char *base[64]; /* one per trained scheme */
  static size_t len[64];
  int count = (int)rl_train_pos_count();
  if (count > 64)
    abort();
  int scheme = n > 1 ? data[1] % count : 0;
  const char *path = fuzz_file((const uint8_t *)"", 0);
  if (!base[scheme]) {
    if (ckm_write_tiny(scheme, path))
      abort();
    FILE *f = fopen(path, "rb");
    base[scheme] = malloc(1 << 16);
    if (!f || !base[scheme])
      abort();
    len[scheme] = fread(base[scheme], 1, 1 << 16, f);
    fclose(f);
  }
  size_t m = len[scheme];
  unsigned char *b = malloc(m);
  memcpy(b, base[scheme], m);
  ckm_layout l;
  if (ckm_walk(b, m, &l))
    abort();
  for (size_t i = 2; i + 3 <= n; i += 3) {
    int what = data[i] % 30;
    if (what < RL_CKPT_CONF_FIELDS) {
      ckm_put(b + l.conf + 8 * (size_t)what, ckm_value(what, data[i + 2] % CKM_NV), 8);
    } else {
      int ok;
      double x = ckm_tensor_value(what - RL_CKPT_CONF_FIELDS, data[i + 2] % CKM_NT, &ok);
      uint64_t bits;
      memcpy(&bits, &x, 8);
      ckm_put(b + l.tensor[what - RL_CKPT_CONF_FIELDS] + 8 * (data[i + 1] * l.np / 256), bits, 8);
    }
  }
  ckm_fix_crc(b, m);
  fuzz_file(b, m);
  free(b);
  static rl_ckpt ck;
  memset(&ck, 0, sizeof ck);
  rl_ckpt_read_opts o = {0, 0, 256u << 20};
  rl_train_model *mm = NULL;
  char err[RL_ERR_MAX] = "", why[256];
  rl_status st = rl_ckpt_read_with(path, &o, &ck, &mm, err);
  if (st == RL_OK) {
    if (ckm_oracle(&ck, mm, why, sizeof why)) {
      fprintf(stderr, "broken promise: %s\n", why);
      abort();
    }
  } else if (mm || !err[0] || strchr(err, '\n') || (st != RL_EFORMAT && st != RL_ENOMEM)) {
    abort();
  }
  rl_train_free(mm);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  if (n < 1 || n > (1u << 20))
    return 0;
  if (data[0] & 2)
    return structured(data, n);
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
