/* llama3.c: Llama 3.1's scaling (Meta, "The Llama 3 Herd of Models",
 * 2024; HF _compute_llama3_parameters, meta-llama apply_scaling): with
 * L the original context (old_context_len, 8192 for Llama 3.1), wavelength
 * lambda_i = 2 pi / theta_i,
 *   lambda_i < L / high_freq_factor            theta_i kept (extrapolated)
 *   lambda_i > L / low_freq_factor             theta_i / s (interpolated)
 *   otherwise, with g = (L / lambda_i - low) / (high - low),
 *                                              (1 - g) theta_i / s + g theta_i.
 * llama.cpp applies the same factors as a rope_freqs tensor written by
 * its converter; vLLM's Llama3RotaryEmbedding computes the same formula. */
#include <stdio.h>
#include "schedule_impl.h"

enum { LOW, HIGH }; /* its own parameters' slots */

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  double lf = p->own[LOW].x, hf = p->own[HIGH].x;
  rl_xr lo = (rl_xr)lf, hi = (rl_xr)hf;
  if (!isfinite(lf) || !isfinite(hf) || !(lo > 0) || !(hi > lo)) {
    rl_sched_err(err, "invalid --low-freq-factor '%g' / --high-freq-factor '%g': expected "
                      "0 < low < high", lf, hf);
    return RL_EINVAL;
  }
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  rl_xr L = (rl_xr)p->train_len, f = (rl_xr)p->factor;
  rl_xr low_wl = L / lo, high_wl = L / hi;
  for (size_t i = 0; i < s->n; i++) {
    rl_xr th = rl_sched_plain(s, (rl_xr)p->base, i), wl = 2 * RL_PI_X / th;
    if (wl < high_wl) {
      rl_sched_set(s, i, th);
      s->band[i] = RL_BAND_EXTRAPOLATED;
    } else if (wl > low_wl) {
      rl_sched_set(s, i, th / f);
      s->band[i] = f == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_INTERPOLATED;
    } else {
      rl_xr g = (L / wl - lo) / (hi - lo);
      rl_sched_set(s, i, (1 - g) * th / f + g * th);
      s->band[i] = f == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
    }
  }
  return RL_OK;
}

static const rl_param p_low = {
    .key = "low-freq-factor", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = RL_SP_OWN(LOW), .lo = 0, .hi = INFINITY, .dflt = 1 /* Llama 3.1 config */,
    .metavar = "X", .help = "wavelengths above L/X are interpolated"};
static const rl_param p_high = {
    .key = "high-freq-factor", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = RL_SP_OWN(HIGH), .lo = 0, .hi = INFINITY, .dflt = 4 /* Llama 3.1 config */,
    .metavar = "Y", .help = "wavelengths below L/Y keep their frequency"};
static const rl_param *const params[] = {&p_low, &p_high, NULL};

/* ---- the frameworks' float32 steps (precision pipelines) */

#define TWO_PI_F64 6.283185307179586476925286766559

/* transformers _compute_llama3_parameters (vLLM Llama3RotaryEmbedding the
 * same): wavelen = 2 * math.pi / inv_freq, bands by wavelen against
 * L / low_freq_factor and L / high_freq_factor, smooth = (L / wavelen -
 * low) / (high - low), smoothed = (1 - smooth) * inv_freq / factor +
 * smooth * inv_freq, all float32 */
static float torch_theta(const rl_schedule *s, const rl_torch *t, size_t i, float inv)
{
  (void)t, (void)i;
  const rl_schedule_params *p = &s->p;
  double L = p->train_len, lf = p->own[LOW].x, hf = p->own[HIGH].x;
  float fs = (float)p->factor;
  float wl = (1.0f / inv) * (float)TWO_PI_F64;
  if ((double)wl < L / hf)
    return inv;
  if ((double)wl > L / lf)
    return inv / fs;
  float sm = ((1.0f / wl) * (float)L - (float)lf) / (float)(hf - lf);
  return (1.0f - sm) * inv / fs + sm * inv;
}

/* llama.cpp's rope_freqs divisor of pair i, as its converter computes it
 * (convert_hf_to_gguf.py LlamaModel.generate_extra_tensors: freqs = 1.0 /
 * (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim)); per
 * freq, a 0-d float32 tensor: wavelen = 2 * math.pi / freq; 1 when
 * wavelen < L / high_freq_factor, factor when wavelen > L /
 * low_freq_factor, else smooth = (L / wavelen - low) / (high - low) and
 * 1 / ((1 - smooth) / factor + smooth); stored as float32) */
static float ggml_divisor(const rl_schedule *s, size_t i, float freq)
{
  (void)i;
  const rl_schedule_params *p = &s->p;
  double L = p->train_len, lf = p->own[LOW].x, hf = p->own[HIGH].x;
  float wl = (1.0f / freq) * (float)(2 * 3.14159265358979323846);
  if ((double)wl < L / hf)
    return 1.0f;
  if ((double)wl > L / lf)
    return (float)p->factor;
  float sm = ((1.0f / wl) * (float)L - (float)lf) / (float)(hf - lf);
  return 1.0f / ((1.0f - sm) / (float)p->factor + sm);
}

static const rl_sched_fw fw = {.torch_theta = torch_theta, .ggml_divisor = ggml_divisor};

/* ---- config.json (transformers _validate_llama3_parameters): factor,
 * low_freq_factor, high_freq_factor and rope_scaling's
 * original_max_position_embeddings are required.  llama.cpp keeps no
 * scaling type for it: its converter writes a rope_freqs tensor (read as
 * per-pair factors, longrope.c). */
static const rl_model_key hf_keys[] = {
    {"factor", "factor", RL_MK_REQUIRED},
    {"low_freq_factor", "low-freq-factor", RL_MK_REQUIRED},
    {"high_freq_factor", "high-freq-factor", RL_MK_REQUIRED},
    {NULL, NULL, 0}};

static rl_status hf_read(rl_model_src *src)
{
  double orig;
  rl_status st = rl_model_src_count(src, "original_max_position_embeddings", RL_MS_SCALING, &orig);
  if (st)
    return st;
  if (!orig)
    return rl_model_src_missing(src, "original_max_position_embeddings", RL_MS_SCALING,
                                "the original context length (llama3 requires it)");
  if ((st = rl_model_src_note(src, "llama.cpp's converter writes llama3's per-pair divisors into "
                                   "a rope_freqs tensor that ggml divides the plain frequencies "
                                   "by (no scaling type)")))
    return st;
  return rl_model_src_put_num(src, "train-len", orig,
                              rl_model_src_name(src, "original_max_position_embeddings",
                                                RL_MS_SCALING));
}

static const char *const hf_names[] = {"llama3", NULL};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys, .read = hf_read};

const rl_schedule_type rl_sched_llama3 = {
    .name = "llama3",
    .summary = "Llama 3.1: high frequencies kept, low ones divided by s, smoothed between",
    .paper = "Grattafiori et al. 2024, The Llama 3 Herd of Models",
    .code = "HF _compute_llama3_parameters; meta-llama/llama-models apply_scaling; vLLM "
            "Llama3RotaryEmbedding; llama.cpp rope_freqs from its converter",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT,
    .needs = RL_SP_FACTOR | RL_SP_TRAIN_LEN, .init = init, .params = params, .fw = &fw,
    .hf = &hf};
