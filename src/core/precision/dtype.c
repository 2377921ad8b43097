/* dtype.c: the number formats' public entry points; the roundings
 * themselves are inline in precision_impl.h (the envelope's inner loop
 * calls them per product). */
#include <math.h>
#include "precision_impl.h"

uint16_t rl_bf16_bits(float x)
{
  return rl_prec_bf16_bits(x);
}

float rl_bf16_value(uint16_t b)
{
  return rl_prec_bf16_value(b);
}

uint16_t rl_f16_bits(float x)
{
  return rl_prec_f16_bits(x);
}

float rl_f16_value(uint16_t h)
{
  return rl_prec_f16_value(h);
}

float rl_bf16_round(float x)
{
  return rl_prec_bf16_round(x);
}

float rl_f16_round(float x)
{
  return rl_prec_f16_round(x);
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
