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

/* transformers: rope_type "default", also a config without rope_scaling
 * (ROPE_INIT_FUNCTIONS); llama.cpp: rope.scaling.type "none", also a
 * scaling type whose factor is absent or 1 (llama_model::load_hparams:
 * rope_freq_scale = 1 / factor, 1 when the factor is 0) */
static const char *const hf_names[] = {"default", NULL};
static const rl_model_decl hf = {.names = hf_names, .flags = RL_MN_DEFAULT};
static const char *const gguf_names[] = {"none", NULL};
static const rl_model_decl gguf = {.names = gguf_names, .flags = RL_MN_UNSCALED};

const rl_schedule_type rl_sched_rope = {
    .name = "rope", .summary = "RoFormer's base^(-2i/r), unscaled",
    .paper = "Su et al. 2021, RoFormer, eq. 15",
    .code = "HF _compute_default_rope_parameters; ggml ggml_rope_ext; vLLM RotaryEmbedding",
    .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT, .flags = RL_ST_PLAIN_THETA, .init = init,
    .hf = &hf, .gguf = &gguf};
