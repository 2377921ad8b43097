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
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  rl_xr lo = (rl_xr)p->low_freq_factor, hi = (rl_xr)p->high_freq_factor;
  if (!isfinite(p->low_freq_factor) || !isfinite(p->high_freq_factor) || !(lo > 0) ||
      !(hi > lo)) {
    rl_sched_err(err, "invalid --low-freq-factor '%g' / --high-freq-factor '%g': expected "
                      "0 < low < high", p->low_freq_factor, p->high_freq_factor);
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
    .key = "low-freq-factor", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .bit = RL_SP_LLAMA3,
    .offset = RL_SP_FIELD(low_freq_factor), .lo = 0, .hi = INFINITY,
    .dflt = 1 /* Llama 3.1 config */, .metavar = "X",
    .help = "wavelengths above L/X are interpolated"};
static const rl_param p_high = {
    .key = "high-freq-factor", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .bit = RL_SP_LLAMA3,
    .offset = RL_SP_FIELD(high_freq_factor), .lo = 0, .hi = INFINITY,
    .dflt = 4 /* Llama 3.1 config */, .metavar = "Y",
    .help = "wavelengths below L/Y keep their frequency"};
static const rl_param *const params[] = {&p_low, &p_high, NULL};

const rl_schedule_type rl_sched_llama3 = {
    "llama3", "Llama 3.1: high frequencies kept, low ones divided by s, smoothed between",
    "Grattafiori et al. 2024, The Llama 3 Herd of Models",
    "HF _compute_llama3_parameters; meta-llama/llama-models apply_scaling; vLLM "
    "Llama3RotaryEmbedding; llama.cpp rope_freqs from its converter",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_LLAMA3 | RL_SP_VARIANT,
    RL_SP_FACTOR | RL_SP_TRAIN_LEN, 0, init, NULL, NULL, params, RL_FORM_LLAMA3};
