/* ggml.c: llama.cpp's ggml CPU pipelines (ggml-f32, ggml-f16).
 *
 * ggml/src/ggml-cpu/ops.cpp:
 *   ggml_compute_forward_rope: theta_scale = powf(freq_base, -2.0f/n_dims);
 *     corr_dims from ggml_rope_yarn_corr_dims (ggml.c: floorf/ceilf of
 *     n_dims * logf(n_ctx_orig / (n_rot * 2 * (float)M_PI)) / (2 *
 *     logf(base)), clamped to [0, n_dims - 1]);
 *   ggml_rope_cache_init: theta = p (the int32 position as float); per
 *     pair: rope_yarn(theta / ff, ...), then theta *= theta_scale, so
 *     pair i's angle is p * theta_scale^i by i float multiplications;
 *   rope_yarn: theta_interp = freq_scale * theta_extrap; with ext_factor !=
 *     0: ramp_mix = rope_yarn_ramp(...) * ext_factor, theta = theta_interp
 *     * (1 - ramp_mix) + theta_extrap * ramp_mix and mscale *= 1 + 0.1 *
 *     logf(1 / freq_scale); cos = cosf(theta) * mscale, sin likewise; the
 *     cache is float32 whatever the tensor type;
 *   rotate_pairs (f32 and f16): dst = x0 * cos - x1 * sin, x0 * sin + x1 *
 *     cos computed in float32 from the (f16 -> f32) inputs and rounded once
 *     to the tensor type.
 * Methods: linear sets freq_scale = 1/s (llama-model.cpp
 * rope_freq_scale_train); yarn also ext_factor = 1 and the correction
 * range; the others enter as freq_factors (the converter's rope_freqs /
 * rope_factors tensors, float32 divisors): here the exact ratio's inverse
 * rounded to float32, except where the converter computes its own float32
 * divisors (llama3).  What is particular to a method is in its own file
 * (rl_sched_fw: schedules/linear.c, yarn.c, llama3.c).
 * A Python number over a tensor is tensor.reciprocal() times the number
 * in float32 (as in hf.c).  llama.cpp divides its YaRN attention factor by ggml's
 * own 1 + 0.1 ln(1/freq_scale) (llama-context.cpp) so that the product is
 * the method's; that division and product are rounded here as there.
 *
 * Fused multiply-adds.  Release builds of ggml on x86-64 compile ops.cpp
 * with -mfma (ggml's CMakeLists: GGML_NATIVE=OFF turns GGML_AVX2 and
 * GGML_FMA on; native builds on FMA-capable CPUs and ARM have it too), and
 * GCC contracts a*b + c there (its default -ffp-contract=fast for GNU
 * dialects).  GCC 12 -O3 -mfma contracts, as its assembly shows:
 *   theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix
 *     -> fmaf(theta_interp, 1 - ramp_mix, theta_extrap * ramp_mix);
 *   1.0f + 0.1f * logf(1/freq_scale) -> fmaf(0.1f, logf(...), 1.0f);
 *   x0*cos - x1*sin -> fmaf(x0, cos, -(x1*sin)); x0*sin + x1*cos ->
 *     fmaf(x0, sin, x1*cos) (rotate_pairs).
 * ggml-f32 / ggml-f16 write those fmaf calls explicitly (this file is
 * built with -ffp-contract=off, so nothing else is fused); ggml-f32-strict
 * / ggml-f16-strict keep the source order with every product rounded, as
 * a build without FMA (-DGGML_FMA=OFF -DGGML_AVX2=OFF, or a compiler that
 * does not contract) computes.  Both checked bit for bit against ggml
 * built from source both ways (tests/precision/refs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "precision_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  (void)err;
  rl_status st = rl_pipe_alloc(s);
  if (st)
    return st;
  rl_pipe *g = s->pipe;
  g->fma = s->prec->fused == 2;
  g->theta_scale = powf((float)s->base, -2.0f / (float)s->rot);
  /* the scale and YaRN's ramp llama.cpp passes where the method's file
   * says (linear, yarn); else a divisor per pair where the method changes
   * the frequencies (its own, as llama.cpp's converter computes them:
   * llama3; else 1 / the exact ratio) */
  const rl_sched_fw *fw = s->type->fw;
  if (fw && fw->ggml_init) {
    rl_ggml gm = {.rot = s->rot, .freq_scale = 1.0f};
    fw->ggml_init(s, &gm);
    g->freq_scale = gm.freq_scale;
    g->ext_factor = gm.ext_factor;
    g->corr[0] = gm.corr[0];
    g->corr[1] = gm.corr[1];
  } else {
    int any = 0;
    for (size_t i = 0; i < s->n; i++)
      any |= rl_prec_ratio(s, i) != 1.0;
    if (any) {
      if (!(g->ff = calloc(s->n, sizeof *g->ff)))
        return RL_ENOMEM;
      for (size_t i = 0; i < s->n; i++) {
        double r = rl_prec_ratio(s, i);
        g->ff[i] = fw && fw->ggml_divisor
                       ? fw->ggml_divisor(s, i, rl_prec_torch_inv_freq(s->base, s->rot, i))
                   : r == 0 ? INFINITY : (float)(1.0 / r);
      }
    }
  }
/* the frequencies as ggml holds them: the angle at position 1 */
  float theta = 1.0f;
  for (size_t i = 0; i < s->n; i++) {
    float te = g->ff ? theta / g->ff[i] : theta, t = g->freq_scale * te;
    if (g->ext_factor != 0.0f) {
      float y = ((float)i - g->corr[0]) / fmaxf(0.001f, g->corr[1] - g->corr[0]);
      float mix = (1 - fminf(1, fmaxf(0, y))) * g->ext_factor;
      t = g->fma ? fmaf(t, 1 - mix, te * mix) : t * (1 - mix) + te * mix;
    }
    g->th[i] = t;
    s->theta[i] = (double)t;
    s->theta_lo[i] = 0;
    theta *= g->theta_scale;
  }
  return RL_OK;
}

/* The attention factor as ggml applies it: llama.cpp passes the method's
 * factor divided by ggml's own YaRN factor, ggml multiplies it back. */
static float mscale_of(const rl_pipe *g, double scale)
{
  float mscale = (float)scale;
  if (g->ext_factor != 0.0f) {
    float l = logf(1.0f / g->freq_scale);
    float internal = g->fma ? fmaf(0.1f, l, 1.0f) : 1.0f + 0.1f * l;
    mscale = (float)scale / internal * internal;
  }
  return mscale;
}

/* Pair i's entry from theta = p * theta_scale^i (the running product). */
static void entry(const rl_pipe *g, size_t i, float theta, float mscale, double *c, double *sn)
{
  float te = g->ff ? theta / g->ff[i] : theta, t = g->freq_scale * te;
  if (g->ext_factor != 0.0f) {
    float y = ((float)i - g->corr[0]) / fmaxf(0.001f, g->corr[1] - g->corr[0]);
    float mix = (1 - fminf(1, fmaxf(0, y))) * g->ext_factor;
    t = g->fma ? fmaf(t, 1 - mix, te * mix) : t * (1 - mix) + te * mix;
  }
  *c = (double)(cosf(t) * mscale);
  *sn = (double)(sinf(t) * mscale);
}

static void cossin(const rl_schedule *s, double m, double scale, double *c, double *sn)
{
  const rl_pipe *g = s->pipe;
  float mscale = mscale_of(g, scale), theta = (float)m;
  for (size_t i = 0; i < s->n; i++) {
    entry(g, i, theta, mscale, &c[i], &sn[i]);
    theta *= g->theta_scale;
  }
}

/* One pair: the same i float products as the row (ggml_rope_cache_init
 * forms them in sequence; their roundings depend on p, so there is no
 * shortcut), then the same entry: the row's bits. */
static void sincos1(const rl_schedule *s, size_t i, double m, double scale, double *c,
                    double *sn)
{
  const rl_pipe *g = s->pipe;
  float theta = (float)m;
  for (size_t k = 0; k < i; k++)
    theta *= g->theta_scale;
  entry(g, i, theta, mscale_of(g, scale), c, sn);
}

#define GGML_CODE                                                                            \
  "ggml-cpu/ops.cpp ggml_compute_forward_rope, ggml_rope_cache_init, rope_yarn, "          \
  "rotate_pairs; ggml.c ggml_rope_yarn_corr_dims"

const rl_precision rl_prec_ggml_f32 = {
    "ggml-f32", "llama.cpp/ggml CPU release build (FMA), float32 tensors: angles by repeated "
                "float products", GGML_CODE, RL_VARIANT_GGML, 0, RL_DTYPE_F32, RL_DTYPE_F32,
    RL_DTYPE_F32, 2, init, cossin, sincos1, 0};

const rl_precision rl_prec_ggml_f16 = {
    "ggml-f16", "llama.cpp/ggml CPU release build (FMA), float16 tensors: float32 cache, "
                "result rounded to float16", GGML_CODE, RL_VARIANT_GGML, 0, RL_DTYPE_F32,
    RL_DTYPE_F32, RL_DTYPE_F16, 2, init, cossin, sincos1, 0};

const rl_precision rl_prec_ggml_f32_strict = {
    "ggml-f32-strict", "llama.cpp/ggml CPU built without FMA, float32 tensors: every product "
                       "rounded", GGML_CODE, RL_VARIANT_GGML, 0, RL_DTYPE_F32, RL_DTYPE_F32,
    RL_DTYPE_F32, 1, init, cossin, sincos1, 0};

const rl_precision rl_prec_ggml_f16_strict = {
    "ggml-f16-strict", "llama.cpp/ggml CPU built without FMA, float16 tensors: float32 cache, "
                       "result rounded to float16", GGML_CODE, RL_VARIANT_GGML, 0, RL_DTYPE_F32,
    RL_DTYPE_F32, RL_DTYPE_F16, 1, init, cossin, sincos1, 0};
