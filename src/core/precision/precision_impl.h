/* precision_impl.h: what the pipeline files of src/core/precision share
 * (private to the core).  A pipeline's init reads the built schedule
 * (exact theta + theta_lo and the method's parameters), writes its own
 * frequencies into theta (theta_lo zeroed) and may keep private state in
 * s->pipe; its cossin then fills one table row per position.
 *
 * float32 is C's float: FLT_EVAL_METHOD 0 (no excess precision, checked
 * below) and the build passes -ffp-contract=off, so a*b + c is two
 * roundings, as in a framework kernel without fma. */
#ifndef RL_PRECISION_IMPL_H
#define RL_PRECISION_IMPL_H
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h" /* rl_pipe_free */

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "ropelab's float32 pipelines need FLT_EVAL_METHOD 0 (x86-64 SSE, aarch64)"
#endif

/* Private state of a framework pipeline. */
struct rl_pipe {
  float *th;          /* n: the framework's per-pair frequency (inv_freq) */
  float *ff;          /* ggml: n frequency factors (divisors), or NULL */
  float theta_scale;  /* ggml: powf(base, -2/n_dims) */
  float freq_scale;   /* ggml: 1/s for linear and yarn, else 1 */
  float ext_factor;   /* ggml: 1 for yarn, else 0 */
  float corr[2];      /* ggml: yarn correction dims */
  float pos_div;      /* vllm linear: positions divided by s (else 1) */
  int fma;            /* ggml: the release build's fused multiply-adds */
  int sleef;          /* hf/vllm: pow, cos, sin from SLEEF (PyTorch's CPU kernels) */
};

#ifdef RL_HAVE_SLEEF
/* sleef.c: Sleef_powf8_u10 (x ** y[0..7]), Sleef_cosf8_u10 and
 * Sleef_sinf8_u10 on 8-lane vectors; usable: the CPU has AVX2 and FMA
 * (call nothing else otherwise). */
int rl_sleef_usable(void);
void rl_sleef_powf8(float x, const float *y, float *out);
void rl_sleef_cossin8(const float *a, float *c, float *s);
#endif

rl_status rl_pipe_alloc(rl_schedule *s); /* rl_pipe_free: base/internal.h */

/* bfloat16 and float16 by correct rounding from float32, written from the
 * formats' definitions (IEEE 754-2008 binary16; bfloat16 is binary32 with
 * the low 16 significand bits dropped), round to nearest, ties to even, as
 * PyTorch's c10::BFloat16 / c10::Half conversions and ggml's
 * GGML_FP32_TO_FP16 do.  NaN stays NaN (quiet). */
static inline uint32_t rl_prec_bits32(float x)
{
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static inline float rl_prec_from32(uint32_t u)
{
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static inline uint16_t rl_prec_bf16_bits(float x)
{
  uint32_t u = rl_prec_bits32(x);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((u >> 16) | 0x40u); /* NaN: keep sign, force quiet */
  /* add half an ulp minus one, plus the kept lsb: ties go to even; a
   * carry into the exponent rounds up to the next binade or to inf */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static inline float rl_prec_bf16_value(uint16_t b)
{
  return rl_prec_from32((uint32_t)b << 16);
}

static inline uint16_t rl_prec_f16_bits(float x)
{
  uint32_t u = rl_prec_bits32(x);
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
    float v = rl_prec_from32(a) * 0x1p24f;
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

static inline float rl_prec_f16_value(uint16_t h)
{
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) /* zero or subnormal: m 2^-24, exact in float */
    return sign ? -(float)m * 0x1p-24f : (float)m * 0x1p-24f;
  if (e == 31)
    return rl_prec_from32(sign | 0x7f800000u | (m << 13));
  return rl_prec_from32(sign | ((e + 112) << 23) | (m << 13));
}

static inline float rl_prec_bf16_round(float x)
{
  return rl_prec_bf16_value(rl_prec_bf16_bits(x));
}

static inline float rl_prec_f16_round(float x)
{
  return rl_prec_f16_value(rl_prec_f16_bits(x));
}

/* The method's exact ratio theta_i / plain_i at the schedule's effective
 * base, for pipelines that apply a method generically. */
double rl_prec_ratio(const rl_schedule *s, size_t i);
/* float32 of the pipeline's table entry, rounded to the table dtype. */
static inline double rl_prec_table(const rl_precision *p, float v)
{
  switch (p->table_dtype) {
  case RL_DTYPE_BF16: return (double)rl_prec_bf16_round(v);
  case RL_DTYPE_F16: return (double)rl_prec_f16_round(v);
  default: return (double)v;
  }
}

/* The PyTorch family (hf.c; vllm.c shares it): the float32 inv_freq of
 * transformers' _compute_default_rope_parameters, the pipeline's init
 * and its table (float32 angle, cosf/sinf, times the attention factor in
 * float32, rounded to the table dtype). */
float rl_prec_torch_inv_freq(double base, size_t rot, size_t i);
rl_status rl_prec_torch_theta(rl_schedule *s, char *err);
void rl_prec_torch_cossin(const rl_schedule *s, double m, double scale, double *c, double *sn);
void rl_prec_torch_sincos1(const rl_schedule *s, size_t i, double m, double scale, double *c,
                           double *sn);

/* Round v to t (from float32). */
static inline float rl_prec_rd(rl_dtype t, float v)
{
  switch (t) {
  case RL_DTYPE_BF16: return rl_prec_bf16_round(v);
  case RL_DTYPE_F16: return rl_prec_f16_round(v);
  default: return v;
  }
}

/* One pair turned by the table entry (c, s) in p's arithmetic; xa, xb
 * already in p's act_dtype.  PyTorch (hf, vllm) rounds each op to the
 * activation dtype: y_a = rd(rd(x_a c) - rd(x_b s)); a product of two
 * bfloat16 or float16 numbers is exact in float32, so computing it in
 * float and rounding once is the correctly rounded op.  ggml computes the
 * expression in float32 and rounds once (fused). */
static inline void rl_prec_rotate_pair(const rl_precision *p, float c, float s, float xa, float xb,
                                       float *ya, float *yb)
{
  rl_dtype t = p->act_dtype;
  if (p->fused == 2) { /* ggml built with FMA: rotate_pairs contracted (ggml.c) */
    *ya = rl_prec_rd(t, fmaf(xa, c, -(xb * s)));
    *yb = rl_prec_rd(t, fmaf(xa, s, xb * c));
  } else if (p->fused) {
    *ya = rl_prec_rd(t, xa * c - xb * s);
    *yb = rl_prec_rd(t, xa * s + xb * c);
  } else {
    *ya = rl_prec_rd(t, rl_prec_rd(t, xa * c) - rl_prec_rd(t, xb * s));
    *yb = rl_prec_rd(t, rl_prec_rd(t, xb * c) + rl_prec_rd(t, xa * s));
  }
}

/* The pipelines (one file per family), listed in registry.c. */
extern const rl_precision rl_prec_exact, rl_prec_fp64, rl_prec_hf_fp32, rl_prec_hf_bf16,
    rl_prec_hf_f16, rl_prec_ggml_f32, rl_prec_ggml_f16, rl_prec_ggml_f32_strict,
    rl_prec_ggml_f16_strict, rl_prec_vllm_fp32, rl_prec_vllm_bf16, rl_prec_vllm_f16;
#ifdef RL_HAVE_SLEEF
extern const rl_precision rl_prec_hf_fp32_sleef, rl_prec_hf_bf16_sleef, rl_prec_hf_f16_sleef,
    rl_prec_vllm_fp32_sleef, rl_prec_vllm_bf16_sleef, rl_prec_vllm_f16_sleef;
#endif
#endif
