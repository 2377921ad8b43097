/* mrope.c: M-RoPE (Wang et al. 2024, Qwen2-VL, sec. 2.1; HF
 * apply_multimodal_rotary_pos_emb with mrope_section): RoFormer's
 * frequencies, the pairs split into three contiguous sections t, h, w
 * (in frequency order, e.g. 16, 24, 24 of 64 for Qwen2-VL), each turned
 * by its own position component.  Text tokens have t = h = w and so give
 * plain RoPE; rl_rope_apply_axes takes the three positions. */
#include <stdio.h>
#include <stdlib.h>
#include "schedule_impl.h"

enum { SECTIONS }; /* its own parameter's slot */

static rl_status init(rl_schedule *s, char *err)
{
  const size_t *sec = s->p.own[SECTIONS].z;
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

/* --sections T,H,W: three positive pair counts (their sum is checked
 * against rot/2 at init). */
static rl_status sections_parse(const rl_param *d, void *obj, const char *arg, char *err,
                                size_t n)
{
  size_t *sec = ((rl_schedule_params *)obj)->own[SECTIONS].z;
  unsigned long long v[3];
  const char *p = arg;
  for (int k = 0; k < 3; k++) {
    char *end;
    if (*p < '0' || *p > '9')
      break;
    v[k] = strtoull(p, &end, 10);
    p = end;
    if (k < 2 && *p != ',')
      break;
    if (k == 2 && !*p && v[0] && v[1] && v[2] && v[0] + v[1] + v[2] <= RL_DIM_MAX) {
      sec[0] = (size_t)v[0], sec[1] = (size_t)v[1], sec[2] = (size_t)v[2];
      return RL_OK;
    }
    p++;
  }
  snprintf(err, n, "invalid --%s '%s': expected three positive pair counts T,H,W "
                   "(e.g. 16,24,24)", d->key, arg);
  return RL_EINVAL;
}

static int sections_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  const size_t *sec = ((const rl_schedule_params *)obj)->own[SECTIONS].z;
  return snprintf(buf, n, "%zu,%zu,%zu", sec[0], sec[1], sec[2]);
}

static void sections_reset(const rl_param *d, void *obj)
{
  (void)d;
  size_t *sec = ((rl_schedule_params *)obj)->own[SECTIONS].z;
  sec[0] = sec[1] = sec[2] = 0;
}

static const rl_param p_sections = {
    .key = "sections", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_REQUIRED,
    .offset = RL_SP_OWN(SECTIONS), .metavar = "T,H,W",
    .help = "pairs per axis, summing to R/2", .dflt_text = "none",
    .parse = sections_parse, .format = sections_format, .reset = sections_reset};
static const rl_param *const params[] = {&p_sections, NULL};

/* config.json: rope_scaling type "mrope" with mrope_section, three pair
 * counts (transformers' Qwen2-VL config turns the type into "default":
 * the frequencies are RoPE's, apply_multimodal_rotary_pos_emb splits the
 * pairs) */
static rl_status hf_read(rl_model_src *src)
{
  long v[3];
  rl_status st = rl_model_src_ints(src, "mrope_section", RL_MS_SCALING, 3, 0, 65536,
                                   "three pair counts (time, height, width)", v);
  if (st)
    return st;
  size_t half = rl_model_src_rot(src) / 2;
  if ((size_t)(v[0] + v[1] + v[2]) != half)
    return rl_model_src_bad(src, "mrope_section", RL_MS_SCALING,
                            "sections summing to %zu (rotary width / 2)", half);
  char num[96];
  snprintf(num, sizeof num, "%ld,%ld,%ld", v[0], v[1], v[2]);
  if ((st = rl_model_src_note(src, "transformers' Qwen2-VL config turns rope_scaling type "
                                   "'mrope' into 'default': the frequencies are plain RoPE's, "
                                   "mrope_section splits the pairs between time, height and "
                                   "width")))
    return st;
  return rl_model_src_put(src, "sections", num, rl_model_src_name(src, "mrope_section",
                                                                  RL_MS_SCALING));
}

static const char *const hf_names[] = {"mrope", NULL};
static const rl_model_decl hf = {.names = hf_names, .read = hf_read};

const rl_schedule_type rl_sched_mrope = {
    .name = "mrope", .summary = "multimodal RoPE: pair sections turned by time, height and width",
    .paper = "Wang et al. 2024, arXiv:2409.12191 (Qwen2-VL), sec. 2.1",
    .code = "HF modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb; vLLM MRotaryEmbedding",
    .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT, .flags = RL_ST_PLAIN_THETA | RL_ST_USER_DATA,
    .min_pairs = 3, .init = init, .params = params, .hf = &hf};
