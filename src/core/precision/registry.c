/* registry.c: the precision pipelines, their private state, and the
 * helpers the families share. */
#include <stdlib.h>
#include <string.h>
#include "precision_impl.h"

static const rl_precision *const all[] = {
    &rl_prec_exact,   &rl_prec_fp64,     &rl_prec_hf_fp32,  &rl_prec_hf_bf16,
    &rl_prec_hf_f16,  &rl_prec_ggml_f32, &rl_prec_ggml_f16, &rl_prec_ggml_f32_strict,
    &rl_prec_ggml_f16_strict, &rl_prec_vllm_fp32, &rl_prec_vllm_bf16, &rl_prec_vllm_f16,
#ifdef RL_HAVE_SLEEF
    &rl_prec_hf_fp32_sleef, &rl_prec_hf_bf16_sleef, &rl_prec_hf_f16_sleef,
    &rl_prec_vllm_fp32_sleef, &rl_prec_vllm_bf16_sleef, &rl_prec_vllm_f16_sleef,
#endif
    NULL};

const rl_precision *const *rl_precisions(void)
{
  return all;
}

const rl_precision *rl_precision_find(const char *name)
{
  for (size_t i = 0; name && all[i]; i++)
    if (!strcmp(all[i]->name, name))
      return all[i];
  return NULL;
}

const rl_precision *rl_precision_exact(void)
{
  return &rl_prec_exact;
}

const rl_precision *rl_precision_fp64(void)
{
  return &rl_prec_fp64;
}

rl_status rl_pipe_alloc(rl_schedule *s)
{
  rl_pipe *p = calloc(1, sizeof *p);
  if (!p)
    return RL_ENOMEM;
  p->th = calloc(s->n ? s->n : 1, sizeof *p->th);
  if (!p->th) {
    free(p);
    return RL_ENOMEM;
  }
  p->theta_scale = p->freq_scale = p->pos_div = 1.0f;
  s->pipe = p;
  return RL_OK;
}

void rl_pipe_free(rl_pipe *p)
{
  if (!p)
    return;
  free(p->th);
  free(p->ff);
  free(p);
}

double rl_prec_ratio(const rl_schedule *s, size_t i)
{
  /* theta_i over base^(-2i/r) at the effective base, both in long double
   * (the pipelines round this ratio to float32 anyway) */
  long double plain = exp2l(-(long double)(2 * i) / (long double)s->rot * log2l((long double)s->base));
  return (double)(((long double)s->theta[i] + (long double)s->theta_lo[i]) / plain);
}

rl_status rl_schedule_sincos(const rl_schedule *f, size_t i, double m, double *c, double *s)
{
  if (!isfinite(m) || fabs(m) > RL_POS_MAX || i >= f->n)
    return RL_ERANGE;
  /* the pipeline's own per-pair formula: the row's bits at O(1) pairs
   * (ggml: O(i) float products) instead of the whole row per call */
  f->prec->sincos1(f, i, m, 1.0, c, s);
  return RL_OK;
}
