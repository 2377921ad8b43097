/* test_dtype.c: bfloat16 and float16 rounding (src/core/precision/dtype.c)
 * on hand-worked bit patterns: each expected encoding below is derived
 * in the comment from the format's definition (IEEE 754 binary16: 1 sign,
 * 5 exponent bits biased 15, 10 fraction bits; bfloat16: the top 16 bits
 * of binary32), round to nearest, ties to even. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

static float f_of(uint32_t u)
{
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

#define BF(u32, want, what) \
  tap_ok(rl_bf16_bits(f_of(u32)) == (want), "bf16 %s: 0x%08x -> 0x%04x (got 0x%04x)", what, \
         (unsigned)(u32), (unsigned)(want), (unsigned)rl_bf16_bits(f_of(u32)))
#define H(x, want, what) \
  tap_ok(rl_f16_bits(x) == (want), "f16 %s: %a -> 0x%04x (got 0x%04x)", what, (double)(x), \
         (unsigned)(want), (unsigned)rl_f16_bits(x))

int main(void)
{
  /* bfloat16: keep the top 16 bits; the dropped 16 decide */
  BF(0x3f800000u, 0x3f80, "1.0 exact");
  BF(0x3f808000u, 0x3f80, "1 + 2^-8, halfway, lsb 0 stays (even)");
  BF(0x3f818000u, 0x3f82, "1 + 3*2^-8, halfway, lsb 1 rounds up (even)");
  BF(0x3f808001u, 0x3f81, "just above halfway rounds up");
  BF(0x3f807fffu, 0x3f80, "just below halfway rounds down");
  BF(0x40490fdbu, 0x4049, "pi (0x0fdb dropped, below half)");
  BF(0x7f7fffffu, 0x7f80, "FLT_MAX rounds up into inf");
  BF(0x7f7f7fffu, 0x7f7f, "below half of the last ulp stays finite");
  BF(0x80000000u, 0x8000, "-0 keeps its sign");
  BF(0x00008000u, 0x0000, "subnormal halfway to even zero");
  BF(0x00018000u, 0x0002, "subnormal halfway up to even 2");
  BF(0x7f800000u, 0x7f80, "inf");
  BF(0xff800000u, 0xff80, "-inf");
  BF(0x7f800001u, 0x7fc0, "signalling NaN becomes a quiet NaN");
  tap_ok(rl_bf16_value(0x3f81) == 1.0078125f, "bf16 0x3f81 is 1 + 2^-7");

  /* float16 */
  H(1.0f, 0x3c00, "1.0");
  H(-2.0f, 0xc000, "-2");
  H(0.1f, 0x2e66, "0.1 (float32 0x3dcccccd: 1.6 * 2^-4, fraction 0.6 * 1024 = 614.4 -> 614 = 0x266)");
  H(1.0f + 0x1p-11f, 0x3c00, "1 + 2^-11, halfway, to even 0x3c00");
  H(1.0f + 3 * 0x1p-11f, 0x3c02, "1 + 3*2^-11, halfway, to even 0x3c02");
  H(65504.0f, 0x7bff, "65504, the largest finite");
  H(65519.0f, 0x7bff, "65519, below the halfway 65520");
  H(65520.0f, 0x7c00, "65520, halfway to 65536: ties to even = inf");
  H(1e6f, 0x7c00, "1e6 overflows to inf");
  H(-1e6f, 0xfc00, "-1e6 overflows to -inf");
  H(0x1p-14f, 0x0400, "2^-14, the smallest normal");
  H(0x1p-24f, 0x0001, "2^-24, the smallest subnormal");
  H(-0x1p-24f, 0x8001, "-2^-24");
  H(0x1p-25f, 0x0000, "2^-25, halfway to even zero");
  H(3 * 0x1p-25f, 0x0002, "3*2^-25 = 1.5 * 2^-24, halfway to even 2");
  H(0x1.000002p-25f, 0x0001, "just above 2^-25 rounds up");
  H(0x1p-26f, 0x0000, "2^-26 underflows to zero");
  H(1023 * 0x1p-24f, 0x03ff, "the largest subnormal");
  H(1023.5f * 0x1p-24f, 0x0400, "halfway between the largest subnormal and 2^-14: even");
  H(1.0f / 3.0f, 0x3555, "1/3 = 1.333 * 2^-2: fraction 341.33 -> 341 = 0x155");
  tap_ok(rl_f16_bits(NAN) == 0x7e00 || rl_f16_bits(NAN) == 0xfe00, "f16 NaN stays NaN");
  tap_ok(rl_f16_value(0x3555) == 0.333251953125f, "f16 0x3555 = 1365/4096");
  tap_ok(rl_f16_value(0x0001) == 0x1p-24f, "f16 0x0001 = 2^-24");
  tap_ok(rl_f16_value(0x7bff) == 65504.0f, "f16 0x7bff = 65504");
  tap_ok(isinf(rl_f16_value(0xfc00)) && rl_f16_value(0xfc00) < 0, "f16 0xfc00 = -inf");
  /* every encoding decodes and re-encodes to itself (NaNs aside) */
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000u; h++) {
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
      continue;
    bad += rl_f16_bits(rl_f16_value((uint16_t)h)) != h;
    bad += rl_bf16_bits(rl_bf16_value((uint16_t)h)) != h && !isnan(rl_bf16_value((uint16_t)h));
  }
  tap_ok(bad == 0, "all 65536 encodings round-trip (%d do not)", bad);

  /* ulps and rounding of doubles */
  tap_ok(rl_dtype_ulp(RL_DTYPE_BF16, 1.0) == 0x1p-7, "bf16 ulp(1) = 2^-7");
  tap_ok(rl_dtype_ulp(RL_DTYPE_F16, 1.0) == 0x1p-10, "f16 ulp(1) = 2^-10");
  tap_ok(rl_dtype_ulp(RL_DTYPE_F16, 1e-6) == 0x1p-24, "f16 ulp of a subnormal = 2^-24");
  tap_ok(rl_dtype_ulp(RL_DTYPE_F32, 1.5) == 0x1p-23, "f32 ulp(1.5) = 2^-23");
  tap_ok(rl_dtype_ulp(RL_DTYPE_F64, 1.0) == 0x1p-52, "f64 ulp(1) = 2^-52");
  tap_ok(isinf(rl_dtype_round(RL_DTYPE_F16, 65520.0)), "f16 round(65520) = inf");
  tap_ok(rl_dtype_round(RL_DTYPE_BF16, 1.00390625) == 1.0, "bf16 round(1 + 2^-8) = 1 (even)");
  return tap_done();
}
