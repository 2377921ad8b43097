/* linear.c: position interpolation (Chen et al. 2023, "Extending Context
 * Window of Large Language Models via Positional Interpolation"): every
 * position divided by s, i.e. theta_i / s.  Hugging Face divides inv_freq
 * by the factor (_compute_linear_scaling_rope_parameters), ggml multiplies
 * the angle by freq_scale = 1/s, vLLM divides the positions
 * (LinearScalingRotaryEmbedding): the same real numbers, rounded in
 * different orders in float32. */
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  (void)err;
  rl_xr f = (rl_xr)s->p.factor;
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    rl_sched_set(s, i, rl_sched_plain(s, (long double)s->p.base, i) / f);
    s->band[i] = f == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_INTERPOLATED;
  }
  return RL_OK;
}

const rl_schedule_type rl_sched_linear = {
    "linear", "position interpolation: positions divided by s",
    "Chen et al. 2023, arXiv:2306.15595",
    "HF _compute_linear_scaling_rope_parameters; ggml freq_scale; vLLM LinearScalingRotaryEmbedding",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT, RL_SP_FACTOR, 0, init, NULL, NULL, NULL, RL_FORM_LINEAR};
