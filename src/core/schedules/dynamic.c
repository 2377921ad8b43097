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
#include <stdio.h>
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

/* transformers' dynamic NTK base past L as the real forward computes it:
 * the forward's seq_len = torch.max(position_ids) + 1 is a 0-d int64
 * tensor, so base * ((factor * seq_len / L) - (factor - 1)) ** (dim /
 * (dim - 2)) is float32 tensor arithmetic, op by op: f32(seq_len), times
 * f32(factor), over f32(L), minus f32(factor - 1) (the Python double
 * rounded), ** the double exponent (ATen's pow_tensor_scalar on a 0-d
 * tensor: std::pow(float, double) in double, rounded to float), times
 * f32(base); inv_freq is then that float32 base ** the float32 exponents
 * (the default path at t->base) */
static rl_status torch_init(const rl_schedule *s, rl_torch *t, char *err)
{
  (void)err;
  const rl_schedule_params *p = &s->p;
  if (t->vllm || !(p->seq_len > p->train_len))
    return RL_OK;
  float sl = (float)p->seq_len;
  float a = (float)p->factor * sl;
  float b = a / (float)p->train_len;
  float c = b - (float)(p->factor - 1.0);
  float d = (float)pow((double)c, (double)s->rot / (double)(s->rot - 2));
  t->base = (double)((float)p->base * d);
  return RL_OK;
}

static const rl_sched_fw fw = {.torch_init = torch_init};

/* config.json: transformers' dynamic scaling (_compute_dynamic_ntk_parameters,
 * and ntk's) reads L from max_position_embeddings, not rope_scaling's
 * original_max_position_embeddings (noted when both differ) */
rl_status rl_sched_hf_len_dynamic(rl_model_src *src, int dynamic)
{
  double orig, max_pos;
  rl_status st;
  if ((st = rl_model_src_count(src, "original_max_position_embeddings", RL_MS_SCALING, &orig)) ||
      (st = rl_model_src_count(src, "max_position_embeddings", RL_MS_TOP, &max_pos)))
    return st;
  if (!max_pos)
    return rl_model_src_missing(src, "max_position_embeddings", RL_MS_TOP,
                                "the context length (dynamic scaling reads it)");
  if (orig && orig != max_pos &&
      (st = rl_model_src_note(src, "transformers' dynamic scaling reads L from "
                                   "max_position_embeddings (%.0f), not %s (%.0f)", max_pos,
                              rl_model_src_name(src, "original_max_position_embeddings",
                                                RL_MS_SCALING), orig)))
    return st;
  if (dynamic &&
      (st = rl_model_src_note(src, "llama.cpp has no dynamic NTK scaling: its converter leaves "
                                   "this model's frequencies plain")))
    return st;
  return rl_model_src_put_num(src, "train-len", max_pos, "max_position_embeddings");
}

static rl_status hf_read(rl_model_src *src)
{
  return rl_sched_hf_len_dynamic(src, 1);
}

static const char *const hf_names[] = {"dynamic", NULL};
static const rl_model_key hf_keys[] = {{"factor", "factor", RL_MK_REQUIRED}, {NULL, NULL, 0}};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys, .read = hf_read};

const rl_schedule_type rl_sched_dynamic = {
    .name = "dynamic", .summary = "dynamic NTK: the base recomputed from the current length",
    .paper = "emozilla 2023 (Dynamically Scaled RoPE); Peng et al. 2023 (YaRN) sec. 3.3",
    .code = "HF _compute_dynamic_ntk_parameters, dynamic_rope_update; vLLM "
            "DynamicNTKScalingRotaryEmbedding",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_SEQ_LEN | RL_SP_VARIANT,
    .needs = RL_SP_FACTOR | RL_SP_TRAIN_LEN,
    .variants = (1u << RL_VARIANT_HF) | (1u << RL_VARIANT_VLLM), .min_pairs = 2, .init = init,
    .fw = &fw, .hf = &hf};
