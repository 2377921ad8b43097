/* dtype.c: bfloat16 and float16 by correct rounding from float32, written
 * from the formats' definitions (IEEE 754-2008 binary16; bfloat16 is
 * binary32 with the low 16 significand bits dropped), round to nearest,
 * ties to even, as PyTorch's c10::BFloat16 / c10::Half conversions and
 * ggml's GGML_FP32_TO_FP16 do.  NaN stays NaN (quiet). */
#include <math.h>
#include <string.h>
#include "precision_impl.h"

static uint32_t bits32(float x)
{
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static float from32(uint32_t u)
{
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

uint16_t rl_bf16_bits(float x)
{
  uint32_t u = bits32(x);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((u >> 16) | 0x40u); /* NaN: keep sign, force quiet */
  /* add half an ulp minus one, plus the kept lsb: ties go to even; a
   * carry into the exponent rounds up to the next binade or to inf */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

float rl_bf16_value(uint16_t b)
{
  return from32((uint32_t)b << 16);
}

uint16_t rl_f16_bits(float x)
{
  uint32_t u = bits32(x);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u)
    return (uint16_t)(sign | 0x7e00u); /* NaN */
  if (a >= 0x477ff000u)                /* >= 65520 = max + half ulp: inf */
    return (uint16_t)(sign | 0x7c00u);
  if (a < 0x38800000u) {
    /* below 2^-14: a subnormal of binary16, a multiple of 2^-24; the
     * float32 value times 2^24 rounded to an integer (ties to even),
     * exact in float (a < 2^-14, so x * 2^24 < 1024) */
    float v = from32(a) * 0x1p24f;
    float r = nearbyintf(v); /* the default rounding mode: to nearest even */
    return (uint16_t)(sign | (uint16_t)r);
  }
  /* normal: rebias the exponent (127 -> 15) and drop 13 bits, rounding
   * to nearest even; a carry rolls into the exponent (up to inf at 65520,
   * excluded above) */
  uint32_t m = a - 0x38000000u; /* exponent - 112 */
  m += 0xfffu + ((m >> 13) & 1u);
  return (uint16_t)(sign | (uint16_t)(m >> 13));
}

float rl_f16_value(uint16_t h)
{
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) /* zero or subnormal: m 2^-24, exact in float */
    return sign ? -(float)m * 0x1p-24f : (float)m * 0x1p-24f;
  if (e == 31)
    return from32(sign | 0x7f800000u | (m << 13));
  return from32(sign | ((e + 112) << 23) | (m << 13));
}

float rl_bf16_round(float x)
{
  return rl_bf16_value(rl_bf16_bits(x));
}

float rl_f16_round(float x)
{
  return rl_f16_value(rl_f16_bits(x));
}

const char *rl_dtype_name(rl_dtype t)
{
  switch (t) {
  case RL_DTYPE_F64: return "float64";
  case RL_DTYPE_F32: return "float32";
  case RL_DTYPE_BF16: return "bfloat16";
  case RL_DTYPE_F16: return "float16";
  }
  return "unknown";
}

double rl_dtype_round(rl_dtype t, double x)
{
  switch (t) {
  case RL_DTYPE_F64: return x;
  case RL_DTYPE_F32: return (double)(float)x;
  case RL_DTYPE_BF16: return (double)rl_bf16_round((float)x);
  case RL_DTYPE_F16: return (double)rl_f16_round((float)x);
  }
  return x;
}

double rl_dtype_ulp(rl_dtype t, double x)
{
  if (!isfinite(x))
    return HUGE_VAL;
  int p, emin; /* significand bits (with the hidden one), least normal exponent */
  switch (t) {
  case RL_DTYPE_F32: p = 24; emin = -126; break;
  case RL_DTYPE_BF16: p = 8; emin = -126; break;
  case RL_DTYPE_F16: p = 11; emin = -14; break;
  default: p = 53; emin = -1022; break;
  }
  int e;
  (void)frexp(fabs(x), &e); /* |x| in [2^(e-1), 2^e) */
  if (x == 0 || e - 1 < emin)
    e = emin + 1;
  return ldexp(1.0, e - p);
}
