/* ntk.c: NTK-aware scaling, static (bloc97 2023, as used by Code Llama
 * and formalised in YaRN, Peng et al. 2023, sec. 3.1): the base becomes
 * base * s^(r/(r-2)), so the lowest frequency is exactly the plain one
 * divided by s while the highest is unchanged (hf: Hugging Face v4.45's
 * _compute_ntk_parameters).
 * vllm: NTKScalingRotaryEmbedding._compute_inv_freq (ntk_scaling_rope.py,
 * mixed_b unset) multiplies the base by s and then divides every inverse
 * frequency by s^(2/r): theta_i = base^(-2i/r) s^(-(2i+2)/r), so even the
 * highest pair is slowed, by s^(-2/r), and the lowest is again /s.
 * llama.cpp has no NTK type (users set the base). */
#include "schedule_impl.h"

/* ln of the rescaled base, shared with dynamic.c's formula */
static rl_status init(rl_schedule *s, char *err)
{
  if (s->rot <= 2) {
    rl_sched_err(err, "method 'ntk' needs a rotated width above 2, not '%zu' (s^(r/(r-2)))",
                 s->rot);
    return RL_EINVAL;
  }
  /* in base 2, as rl_sched_plain: at s = 1 the exponent is log2(base)
   * exactly and theta is rope's, bitwise */
  rl_xr r = (rl_xr)s->rot;
  rl_xr lb = rl_xlog2((rl_xr)s->p.base) + r / (r - 2) * rl_xlog2((rl_xr)s->p.factor);
  s->base = (double)rl_xexp2(lb);
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  int vllm = s->p.variant == RL_VARIANT_VLLM;
  if (vllm)
    s->base = (double)((long double)s->p.base * (long double)s->p.factor);
  rl_xr l2b = rl_xlog2((rl_xr)s->p.base), l2s = rl_xlog2((rl_xr)s->p.factor);
  for (size_t i = 0; i < s->n; i++) {
    rl_xr k = (rl_xr)(2 * i);
    rl_sched_set(s, i, vllm ? rl_xexp2(-k / r * l2b - (k + 2) / r * l2s) : rl_xexp2(-k / r * lb));
    s->band[i] = s->p.factor == 1 || (i == 0 && !vllm) ? RL_BAND_EXTRAPOLATED
                 : i + 1 == s->n                  ? RL_BAND_INTERPOLATED
                                                  : RL_BAND_BETWEEN;
  }
  return RL_OK;
}

/* vLLM NTKScalingRotaryEmbedding._compute_inv_freq: inv_freq at base * s,
 * then / s ** (2 / rotary_dim) (a Python double); transformers: the plain
 * inv_freq at the rescaled base (the default) */
static float torch_theta(const rl_schedule *s, const rl_torch *t, size_t i, float inv)
{
  if (!t->vllm)
    return t->by_ratio(s, i, inv);
  float d = (float)pow(s->p.factor, 2.0 / (double)s->rot);
  return 1.0f / t->pow(t, s->p.base * s->p.factor, i) / d;
}

static const rl_sched_fw fw = {.torch_theta = torch_theta};

/* config.json: rope_type "ntk" (transformers v4.45 _compute_ntk_parameters),
 * factor required, L from max_position_embeddings as dynamic scaling */
static rl_status hf_read(rl_model_src *src)
{
  return rl_sched_hf_len_dynamic(src, 0);
}

static const char *const hf_names[] = {"ntk", NULL};
static const rl_model_key hf_keys[] = {{"factor", "factor", RL_MK_REQUIRED}, {NULL, NULL, 0}};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys, .read = hf_read};

const rl_schedule_type rl_sched_ntk = {
    .name = "ntk", .summary = "NTK-aware: base * s^(r/(r-2)), static",
    .paper = "bloc97 2023 (NTK-aware scaled RoPE); Peng et al. 2023 (YaRN) sec. 3.1",
    .code = "HF v4.45 _compute_ntk_parameters; vLLM NTKScalingRotaryEmbedding (--variant vllm: "
            "base * s, then every theta divided by s^(2/r))",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT, .needs = RL_SP_FACTOR,
    .variants = (1u << RL_VARIANT_HF) | (1u << RL_VARIANT_VLLM), .min_pairs = 2, .init = init,
    .fw = &fw, .hf = &hf, .flags = RL_ST_LARGER_BASE};
