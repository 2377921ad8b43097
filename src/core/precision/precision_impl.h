/* precision_impl.h: what the pipeline files of src/core/precision share
 * (private to the core).  A pipeline's init reads the built schedule
 * (exact theta + theta_lo and the method's parameters), writes its own
 * frequencies into theta (theta_lo zeroed) and may keep private state in
 * s->pipe; its cossin then fills one table row per position.
 *
 * float32 is C's float: FLT_EVAL_METHOD 0 (no excess precision, checked
 * below) and the build passes -ffp-contract=off, so a*b + c is two
 * roundings, as in a framework kernel without fma. */
#ifndef RL_PRECISION_IMPL_H
#define RL_PRECISION_IMPL_H
#include <float.h>
#include <math.h>
#include "ropelab.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "ropelab's float32 pipelines need FLT_EVAL_METHOD 0 (x86-64 SSE, aarch64)"
#endif

/* Private state of a framework pipeline. */
struct rl_pipe {
  float *th;          /* n: the framework's per-pair frequency (inv_freq) */
  float *ff;          /* ggml: n frequency factors (divisors), or NULL */
  float theta_scale;  /* ggml: powf(base, -2/n_dims) */
  float freq_scale;   /* ggml: 1/s for linear and yarn, else 1 */
  float ext_factor;   /* ggml: 1 for yarn, else 0 */
  float corr[2];      /* ggml: yarn correction dims */
  float pos_div;      /* vllm linear: positions divided by s (else 1) */
};

rl_status rl_pipe_alloc(rl_schedule *s);
void rl_pipe_free(rl_pipe *p);

/* The method's exact ratio theta_i / plain_i at the schedule's effective
 * base, for pipelines that apply a method generically. */
double rl_prec_ratio(const rl_schedule *s, size_t i);
/* float32 of the pipeline's table entry, rounded to the table dtype. */
static inline double rl_prec_table(const rl_precision *p, float v)
{
  switch (p->table_dtype) {
  case RL_DTYPE_BF16: return (double)rl_bf16_round(v);
  case RL_DTYPE_F16: return (double)rl_f16_round(v);
  default: return (double)v;
  }
}

/* The PyTorch family (hf.c; vllm.c shares it): the float32 inv_freq of
 * transformers' _compute_default_rope_parameters, the pipeline's init
 * and its table (float32 angle, cosf/sinf, times the attention factor in
 * float32, rounded to the table dtype). */
float rl_prec_torch_inv_freq(double base, size_t rot, size_t i);
rl_status rl_prec_torch_theta(rl_schedule *s, char *err);
void rl_prec_torch_cossin(const rl_schedule *s, double m, double scale, double *c, double *sn);

/* The pipelines (one file per family), listed in registry.c. */
extern const rl_precision rl_prec_exact, rl_prec_fp64, rl_prec_hf_fp32, rl_prec_hf_bf16,
    rl_prec_hf_f16, rl_prec_ggml_f32, rl_prec_ggml_f16, rl_prec_vllm_fp32, rl_prec_vllm_bf16,
    rl_prec_vllm_f16;
#endif
