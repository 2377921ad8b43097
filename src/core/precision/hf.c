/* hf.c: Hugging Face transformers' pipelines (hf-fp32, hf-bf16, hf-f16),
 * and the float32 frequency builder vLLM shares (vllm.c).
 *
 * What the pipeline follows, in transformers:
 *   modeling_rope_utils.py _compute_default_rope_parameters: inv_freq =
 *     1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() /
 *     dim)), float32 throughout: the exponent f32(2i)/f32(r), powf, and a
 *     float32 reciprocal (a Python scalar over a tensor is
 *     tensor.reciprocal() * scalar);
 *   _compute_linear_scaling_rope_parameters: inv_freq /= factor;
 *   _compute_yarn_parameters: pos_freqs = base ** (arange/dim),
 *     inv_freq_extrapolation = 1 / pos_freqs, inv_freq_interpolation =
 *     1 / (factor * pos_freqs), inv_freq = inv_freq_interpolation * (1 -
 *     extrapolation_factor) + inv_freq_extrapolation *
 *     extrapolation_factor, the ramp (arange(dim/2).float() - low) / (high
 *     - low) clamped to [0, 1] (low, high as the exact schedule has them);
 *   _compute_llama3_parameters: wavelen = 2 * math.pi / inv_freq, bands by
 *     wavelen against L / low_freq_factor and L / high_freq_factor, smooth
 *     = (L / wavelen - low) / (high - low), smoothed = (1 - smooth) *
 *     inv_freq / factor + smooth * inv_freq, all float32;
 *   ntk: the same inv_freq at the rescaled base (a Python double);
 *   dynamic past L: the forward's seq_len = torch.max(position_ids) + 1 is
 *     a 0-d int64 tensor, so base * ((factor * seq_len / L) - (factor -
 *     1)) ** (dim / (dim - 2)) is float32 tensor arithmetic, op by op:
 *     f32(seq_len), times f32(factor), over f32(L), minus f32(factor - 1)
 *     (the Python double rounded), ** the double exponent (ATen's
 *     pow_tensor_scalar on a 0-d tensor: std::pow(float, double) in double,
 *     rounded to float), times f32(base); inv_freq is then that float32
 *     base ** the float32 exponents (tested op by op against torch 1.13 on
 *     3000 random (factor, L, dim, base, seq_len): no difference);
 *   other methods: the plain float32 inv_freq at the effective base times
 *     the method's exact ratio rounded to float32 (one more rounding);
 *   where a method's framework steps differ (linear, ntk's vLLM form,
 *     dynamic's float32 base, yarn, llama3), its own file holds them
 *     (rl_sched_fw), and this file the arithmetic they share;
 *   modeling_llama.py LlamaRotaryEmbedding.forward: freqs =
 *     inv_freq[:, None].float() @ position_ids[:, None, :].float()
 *     (autocast off: float32, one product per entry), emb = cat(freqs,
 *     freqs), cos = emb.cos() * attention_scaling, then .to(x.dtype);
 *   apply_rotary_pos_emb: q_embed = (q * cos) + (rotate_half(q) * sin) in
 *     q's dtype: each product and the sum rounded to it.
 * Which libm.  PyTorch's vectorised CPU kernels (ATen Vectorized<float>,
 * AVX2/AVX-512 builds, the default capability on x86-64) take pow, cos and
 * sin from SLEEF (Sleef_powf8_u10, Sleef_cosf8_u10, Sleef_sinf8_u10);
 * its scalar kernels (ATEN_CPU_CAPABILITY=default, and the last n mod 16
 * elements of each vectorised loop, ATen's vectorized_loop) use glibc's
 * powf, cosf, sinf.  hf-* / vllm-* are the glibc path; hf-*-sleef /
 * vllm-*-sleef the default CPU build: SLEEF for inv_freq's pow (glibc for
 * the pairs past the last multiple of 16, the loop's scalar tail) and for
 * every cos/sin entry (a table of rot/2 * positions entries, a multiple
 * of 16, on one thread; a chunk boundary of a multi-threaded run puts up
 * to 15 entries per thread on glibc).  The 0-d pow of the dynamic base is
 * a one-element loop: glibc's double pow in both.  CUDA's cosf/sinf (2
 * ulp; fast-math __cosf worse) and MKL's VML builds differ again. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "precision_impl.h"

/* 1 / base^(2i/r) as transformers builds it in float32. */
float rl_prec_torch_inv_freq(double base, size_t rot, size_t i)
{
  float e = (float)(2 * i) / (float)rot;
  return 1.0f / powf((float)base, e);
}

/* base ** f32(2i)/f32(rot) as ATen's pow kernel computes pair i of the
 * rot/2-element loop: SLEEF on the vectorised part (two 8-lane vectors
 * per iteration, this pair's vector whole), glibc on the scalar tail. */
static float torch_pow(double base, size_t rot, size_t i, int sleef)
{
#ifdef RL_HAVE_SLEEF
  if (sleef && i < rot / 2 / 16 * 16) {
    float e[8], out[8];
    size_t q = i / 8 * 8;
    for (size_t k = 0; k < 8; k++)
      e[k] = (float)(2 * (q + k)) / (float)rot;
    rl_sleef_powf8((float)base, e, out);
    return out[i - q];
  }
#else
  (void)sleef;
#endif
  return powf((float)base, (float)(2 * i) / (float)rot);
}

static float pow_of(const rl_torch *t, double base, size_t i)
{
  return torch_pow(base, t->rot, i, t->sleef);
}

/* rope and methods that keep its frequencies: ratio 1 exactly */
static float by_ratio(const rl_schedule *s, size_t i, float inv)
{
  double ratio = rl_prec_ratio(s, i);
  return ratio == 1.0 ? inv : ratio == 0.0 ? 0.0f : inv * (float)ratio;
}

rl_status rl_prec_torch_theta(rl_schedule *s, char *err)
{
  rl_status st = rl_pipe_alloc(s);
  if (st)
    return st;
  float *th = s->pipe->th;
  int sleef = s->pipe->sleef = s->prec->sleef;
#ifdef RL_HAVE_SLEEF
  if (sleef && !rl_sleef_usable()) {
    if (err)
      snprintf(err, RL_ERR_MAX, "--precision %s needs a CPU with AVX2 and FMA (the "
                                         "SLEEF entry points PyTorch calls): use %.*s",
               s->prec->name, (int)(strlen(s->prec->name) - 6), s->prec->name);
    return RL_EINVAL;
  }
#endif
  /* the method's own float32 steps where a framework has them (its
   * file's rl_sched_fw), else the plain inv_freq times its exact ratio */
  const rl_sched_fw *fw = s->type->fw;
  rl_torch t = {.rot = s->rot, .vllm = s->p.variant == RL_VARIANT_VLLM, .base = s->base,
                .pos_div = 1.0f, .pow = pow_of, .by_ratio = by_ratio, .sleef = sleef};
  if (fw && fw->torch_init && (st = fw->torch_init(s, &t, err)))
    return st;
  for (size_t i = 0; i < s->n; i++) {
    float inv = 1.0f / torch_pow(t.base, s->rot, i, sleef);
    th[i] = fw && fw->torch_theta ? fw->torch_theta(s, &t, i, inv) : by_ratio(s, i, inv);
  }
  s->pipe->pos_div = t.pos_div;
  for (size_t i = 0; i < s->n; i++) {
    s->theta[i] = (double)th[i] / (double)s->pipe->pos_div;
    s->theta_lo[i] = 0;
  }
  return RL_OK;
}

/* One entry: the float32 angle fl(fm * inv_freq), cosf/sinf, times the
 * attention factor in float32 when it is not 1, rounded to the table
 * dtype.  The row and the single pair share it, so they agree bit for bit
 * (a framework computes each entry independently too). */
static inline void torch_entry(const rl_schedule *s, size_t i, float fm, double scale, double *c,
                               double *sn)
{
  float a = fm * s->pipe->th[i];
  float cf, sf;
#ifdef RL_HAVE_SLEEF
  if (s->pipe->sleef) {
    /* the 8-lane vector of the flattened cos input that holds pair i:
     * transformers' row is cat(freqs, freqs) (2n angles), vLLM's cache
     * row freqs (n); rows of a multiple of 8 start vectors, so the
     * vector is this row's entries 8q..8q+7 (entry j: pair j mod n) */
    size_t n = s->n, row = s->prec->variant == RL_VARIANT_VLLM ? n : 2 * n, q = i / 8 * 8;
    float av[8], cv[8], sv[8];
    for (size_t k = 0; k < 8; k++)
      av[k] = q + k < row ? fm * s->pipe->th[(q + k) % n] : 0.0f;
    rl_sleef_cossin8(av, cv, sv);
    cf = cv[i - q];
    sf = sv[i - q];
  } else
#endif
  {
    cf = cosf(a);
    sf = sinf(a);
  }
  if (scale != 1.0) {
    float fa = (float)scale;
    cf = cf * fa;
    sf = sf * fa;
  }
  *c = rl_prec_table(s->prec, cf);
  *sn = rl_prec_table(s->prec, sf);
}

void rl_prec_torch_cossin(const rl_schedule *s, double m, double scale, double *c, double *sn)
{
  /* position_ids.float(), then (vLLM linear) t / scaling_factor */
  float fm = (float)m / s->pipe->pos_div;
  for (size_t i = 0; i < s->n; i++)
    torch_entry(s, i, fm, scale, &c[i], &sn[i]);
}

void rl_prec_torch_sincos1(const rl_schedule *s, size_t i, double m, double scale, double *c,
                           double *sn)
{
  torch_entry(s, i, (float)m / s->pipe->pos_div, scale, c, sn);
}

#define HF_CODE                                                                              \
  "transformers modeling_rope_utils.py _compute_*_parameters (float32 inv_freq); "        \
  "modeling_llama.py LlamaRotaryEmbedding.forward, apply_rotary_pos_emb"

const rl_precision rl_prec_hf_fp32 = {
    "hf-fp32", "Hugging Face, float32 model: float32 inv_freq, angles, cosf/sinf",
    HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_F32, RL_DTYPE_F32, 0,
    rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 0};

const rl_precision rl_prec_hf_bf16 = {
    "hf-bf16", "Hugging Face, bfloat16 model: the float32 table cast to bfloat16, rotation in "
               "bfloat16", HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_BF16, RL_DTYPE_BF16,
    0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 0};

const rl_precision rl_prec_hf_f16 = {
    "hf-f16", "Hugging Face, float16 model: the float32 table cast to float16, rotation in "
              "float16", HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_F16, RL_DTYPE_F16,
    0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 0};

#ifdef RL_HAVE_SLEEF
const rl_precision rl_prec_hf_fp32_sleef = {
    "hf-fp32-sleef", "Hugging Face on PyTorch's default CPU build: as hf-fp32 with SLEEF's "
                     "powf, cosf, sinf", HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_F32,
    RL_DTYPE_F32, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};

const rl_precision rl_prec_hf_bf16_sleef = {
    "hf-bf16-sleef", "Hugging Face on PyTorch's default CPU build: as hf-bf16 with SLEEF's "
                     "powf, cosf, sinf", HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_BF16,
    RL_DTYPE_BF16, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};

const rl_precision rl_prec_hf_f16_sleef = {
    "hf-f16-sleef", "Hugging Face on PyTorch's default CPU build: as hf-f16 with SLEEF's "
                    "powf, cosf, sinf", HF_CODE, RL_VARIANT_HF, 0, RL_DTYPE_F32, RL_DTYPE_F16,
    RL_DTYPE_F16, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};
#endif
