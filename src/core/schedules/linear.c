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

/* transformers: inv_freq /= factor; vLLM (LinearScalingRotaryEmbedding)
 * keeps inv_freq and divides the float32 positions by the factor */
static rl_status torch_init(const rl_schedule *s, rl_torch *t, char *err)
{
  (void)err;
  if (t->vllm)
    t->pos_div = (float)s->p.factor;
  return RL_OK;
}

static float torch_theta(const rl_schedule *s, const rl_torch *t, size_t i, float inv)
{
  (void)i;
  return t->vllm ? inv : inv / (float)s->p.factor;
}

/* llama.cpp: freq_scale = 1/s (llama-model.cpp rope_freq_scale_train) */
static void ggml_init(const rl_schedule *s, rl_ggml *g)
{
  g->freq_scale = 1.0f / (float)s->p.factor;
}

static const rl_sched_fw fw = {.torch_init = torch_init, .torch_theta = torch_theta,
                               .ggml_init = ggml_init};

/* config.json: rope_type "linear", factor required
 * (_compute_linear_scaling_rope_parameters); GGUF: rope.scaling.type
 * "linear", which llama.cpp also reads when the file has no type (a factor
 * of 0 or 1 is then no scaling: plain RoPE) */
static const char *const hf_names[] = {"linear", NULL};
static const rl_model_key hf_keys[] = {{"factor", "factor", RL_MK_REQUIRED}, {NULL, NULL, 0}};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys};
static const char *const gguf_names[] = {"linear", NULL};
static const rl_model_decl gguf = {.names = gguf_names,
                                   .flags = RL_MN_DEFAULT | RL_MN_SCALED,
                                   .note = "linear (position interpolation)"};

const rl_schedule_type rl_sched_linear = {
    .name = "linear", .summary = "position interpolation: positions divided by s",
    .paper = "Chen et al. 2023, arXiv:2306.15595",
    .code = "HF _compute_linear_scaling_rope_parameters; ggml freq_scale; vLLM "
            "LinearScalingRotaryEmbedding",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT, .needs = RL_SP_FACTOR,
    .init = init, .fw = &fw, .hf = &hf, .gguf = &gguf, .flags = RL_ST_DIVIDED};
