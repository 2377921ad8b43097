/* rope.c: RoFormer's schedule, theta_i = base^(-2i/r) (Su et al. 2021,
 * eq. 15; with partial rotary the exponent's denominator is the rotated
 * width r, as Hugging Face _compute_default_rope_parameters with
 * partial_rotary_factor).  Every variant computes this formula. */
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  (void)err;
  rl_sched_fill_plain(s, (long double)s->p.base);
  return RL_OK;
}

const rl_schedule_type rl_sched_rope = {
    "rope", "RoFormer's base^(-2i/r), unscaled", "Su et al. 2021, RoFormer, eq. 15",
    "HF _compute_default_rope_parameters; ggml ggml_rope_ext; vLLM RotaryEmbedding",
    RL_SP_TRAIN_LEN | RL_SP_VARIANT, 0, 0, init, NULL, NULL, NULL, RL_FORM_RATIO};
