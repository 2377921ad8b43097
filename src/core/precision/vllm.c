/* vllm.c: vLLM's pipelines (vllm-fp32, vllm-bf16, vllm-f16).
 *
 * vllm/model_executor/layers/rotary_embedding/base.py RotaryEmbedding:
 *   _compute_inv_freq: 1.0 / (base ** (torch.arange(0, rotary_dim, 2,
 *     dtype=torch.float) / rotary_dim)), float32, as transformers;
 *   _compute_cos_sin_cache: t = torch.arange(max_position, dtype=float),
 *     freqs = einsum("i,j -> ij", t, inv_freq) (one float32 product),
 *     cos = freqs.cos(), sin = freqs.sin() (times mscale for YaRN:
 *     yarn_scaling_rope.py), cache = cat(cos, sin), then stored in the
 *     model's dtype (cache.to(dtype) in __init__);
 *   forward_native / _apply_rotary_emb: x1 * cos - x2 * sin, x2 * cos + x1
 *     * sin in the activation dtype (each product and the sum rounded; the
 *     CUDA kernel rotary_embedding_kernels.cu does the same arithmetic on
 *     scalar_t).
 * Where vLLM differs from transformers: linear_scaling_rope.py divides the
 * positions (t = t / scaling_factor, float32) instead of inv_freq;
 * ntk_scaling_rope.py builds inv_freq at base * s and divides it by s **
 * (2 / rotary_dim); the cache is built once for every position, so the
 * numbers are those of the schedule at max_position.  The frequencies and
 * tables are otherwise built by hf.c's code.  Checked bit for bit against
 * vLLM's classes running on torch (tests/precision/refs/MANIFEST.vllm).
 * Dynamic NTK is vLLM-version dependent: schedules/dynamic.c has the
 * bracket s^2 - s + 1 of versions before vLLM PR #41277 (bit for bit
 * against that class); after it (e.g. dynamic_ntk_scaling_rope.py
 * 3cfbaf33) the bracket is 1 and the cache is rope's at the unscaled
 * base. */
#include "precision_impl.h"

#define VLLM_CODE                                                                            \
  "vllm rotary_embedding/base.py RotaryEmbedding._compute_inv_freq, "                     \
  "_compute_cos_sin_cache, forward_native; linear_scaling_rope.py; ntk_scaling_rope.py"

const rl_precision rl_prec_vllm_fp32 = {
    "vllm-fp32", "vLLM, float32 model: float32 cos/sin cache", VLLM_CODE, RL_VARIANT_VLLM, 0,
    RL_DTYPE_F32, RL_DTYPE_F32, RL_DTYPE_F32, 0, rl_prec_torch_theta, rl_prec_torch_cossin,
    rl_prec_torch_sincos1, 0};

const rl_precision rl_prec_vllm_bf16 = {
    "vllm-bf16", "vLLM, bfloat16 model: the float32 cache stored in bfloat16, rotation in "
                 "bfloat16", VLLM_CODE, RL_VARIANT_VLLM, 0, RL_DTYPE_F32, RL_DTYPE_BF16,
    RL_DTYPE_BF16, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 0};

const rl_precision rl_prec_vllm_f16 = {
    "vllm-f16", "vLLM, float16 model: the float32 cache stored in float16, rotation in float16",
    VLLM_CODE, RL_VARIANT_VLLM, 0, RL_DTYPE_F32, RL_DTYPE_F16, RL_DTYPE_F16, 0,
    rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 0};

#ifdef RL_HAVE_SLEEF
const rl_precision rl_prec_vllm_fp32_sleef = {
    "vllm-fp32-sleef", "vLLM on PyTorch's default CPU build: as vllm-fp32 with SLEEF's powf, "
                       "cosf, sinf", VLLM_CODE, RL_VARIANT_VLLM, 0, RL_DTYPE_F32, RL_DTYPE_F32,
    RL_DTYPE_F32, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};

const rl_precision rl_prec_vllm_bf16_sleef = {
    "vllm-bf16-sleef", "vLLM on PyTorch's default CPU build: as vllm-bf16 with SLEEF's powf, "
                       "cosf, sinf", VLLM_CODE, RL_VARIANT_VLLM, 0, RL_DTYPE_F32, RL_DTYPE_BF16,
    RL_DTYPE_BF16, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};

const rl_precision rl_prec_vllm_f16_sleef = {
    "vllm-f16-sleef", "vLLM on PyTorch's default CPU build: as vllm-f16 with SLEEF's powf, "
                      "cosf, sinf", VLLM_CODE, RL_VARIANT_VLLM, 0, RL_DTYPE_F32, RL_DTYPE_F16,
    RL_DTYPE_F16, 0, rl_prec_torch_theta, rl_prec_torch_cossin, rl_prec_torch_sincos1, 1};
#endif
