/* dynamic.c: dynamic NTK scaling (emozilla 2023; HF
 * _compute_dynamic_ntk_parameters): the base recomputed from the current
 * length N,
 *   base' = base * (s N / L - (s - 1))^(r/(r-2)),
 * hf:   N = max(seq_len, L): unchanged up to L; HF's forward
 *       (dynamic_rope_update) recomputes when a longer N arrives, keeps
 *       the longest N seen, and returns to the original below L;
 * vllm: DynamicNTKScalingRotaryEmbedding builds one cache at
 *       N = s L, whatever the current length (seq_len is not used): the
 *       bracket is the constant s^2 - s + 1 (as reported in vLLM's issue
 *       tracker for the Nomic embedding models).
 * llama.cpp has no dynamic NTK. */
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  if (p->variant == RL_VARIANT_VLLM && (p->set & RL_SP_SEQ_LEN)) {
    rl_sched_err(err, "--seq-len does not apply to method 'dynamic' with --variant vllm (it "
                      "scales for s L once)");
    return RL_EINVAL;
  }
  if (p->variant == RL_VARIANT_HF && !(p->set & RL_SP_SEQ_LEN)) {
    rl_sched_err(err, "method 'dynamic' with --variant hf needs --seq-len (the current length)");
    return RL_EINVAL;
  }
  if (s->rot <= 2) {
    rl_sched_err(err, "method 'dynamic' needs a rotated width above 2, not '%zu'", s->rot);
    return RL_EINVAL;
  }
  rl_xr L = (rl_xr)p->train_len, f = (rl_xr)p->factor;
  rl_xr N = p->variant == RL_VARIANT_VLLM ? f * L : (rl_xr)p->seq_len;
  if (N < L)
    N = L;
  rl_xr r = (rl_xr)s->rot;
  /* in base 2, as rl_sched_plain: at N = L the exponent is log2(base)
   * exactly and theta is rope's, bitwise */
  rl_xr lb = rl_xlog2((rl_xr)p->base) + r / (r - 2) * rl_xlog2(f * N / L - (f - 1));
  s->base = (double)rl_xexp2(lb);
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    rl_sched_set(s, i, rl_xexp2(-(rl_xr)(2 * i) / r * lb));
    s->band[i] = s->base == p->base || i == 0 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
  }
  return RL_OK;
}

const rl_schedule_type rl_sched_dynamic = {
    "dynamic", "dynamic NTK: the base recomputed from the current length",
    "emozilla 2023 (Dynamically Scaled RoPE); Peng et al. 2023 (YaRN) sec. 3.3",
    "HF _compute_dynamic_ntk_parameters, dynamic_rope_update; vLLM DynamicNTKScalingRotaryEmbedding",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_SEQ_LEN | RL_SP_VARIANT, RL_SP_FACTOR | RL_SP_TRAIN_LEN,
    (1u << RL_VARIANT_HF) | (1u << RL_VARIANT_VLLM), init, NULL, NULL, NULL, RL_FORM_DYNAMIC};
