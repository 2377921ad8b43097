/* mrope.c: M-RoPE (Wang et al. 2024, Qwen2-VL, sec. 2.1; HF
 * apply_multimodal_rotary_pos_emb with mrope_section): RoFormer's
 * frequencies, the pairs split into three contiguous sections t, h, w
 * (in frequency order, e.g. 16, 24, 24 of 64 for Qwen2-VL), each turned
 * by its own position component.  Text tokens have t = h = w and so give
 * plain RoPE; rl_rope_apply_axes takes the three positions. */
#include <stdio.h>
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  const size_t *sec = s->p.sections;
  if (sec[0] + sec[1] + sec[2] != s->n || !sec[0] || !sec[1] || !sec[2]) {
    rl_sched_err(err, "invalid --sections '%zu,%zu,%zu': expected three positive pair counts "
                      "summing to rot/2 = %zu", sec[0], sec[1], sec[2], s->n);
    return RL_EINVAL;
  }
  rl_sched_fill_plain(s, (long double)s->p.base);
  if (rl_sched_want_axis(s))
    return RL_ENOMEM;
  for (size_t i = 0; i < s->n; i++)
    s->axis[i] = i < sec[0] ? 0 : i < sec[0] + sec[1] ? 1 : 2;
  snprintf(s->note, sizeof s->note, "sections t,h,w = %zu,%zu,%zu pairs", sec[0], sec[1], sec[2]);
  return RL_OK;
}

const rl_schedule_type rl_sched_mrope = {
    "mrope", "multimodal RoPE: pair sections turned by time, height and width",
    "Wang et al. 2024, arXiv:2409.12191 (Qwen2-VL), sec. 2.1",
    "HF modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb; vLLM MRotaryEmbedding",
    RL_SP_SECTIONS | RL_SP_TRAIN_LEN | RL_SP_VARIANT, RL_SP_SECTIONS, 0, init, NULL, NULL};
