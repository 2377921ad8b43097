/* rotate.c: y = R(m) x in a pipeline's arithmetic (ropelab.h,
 * rl_rope_apply_pipeline).  PyTorch (hf, vllm) rounds each elementwise
 * op to the activation dtype: y_a = rd(rd(x_a c) - rd(x_b s)); a product
 * of two bfloat16 or float16 numbers is exact in float32, so computing it
 * in float and rounding once is the correctly rounded op.  ggml computes
 * the whole expression in float32 and rounds once (fused). */
#include <stdlib.h>
#include "precision_impl.h"

static float rd(rl_dtype t, float v)
{
  switch (t) {
  case RL_DTYPE_BF16: return rl_bf16_round(v);
  case RL_DTYPE_F16: return rl_f16_round(v);
  default: return v;
  }
}

rl_status rl_rope_apply_pipeline(const rl_schedule *f, rl_layout layout, double m, int with_attn,
                                 const double *x, double *y)
{
  const rl_precision *p = f->prec;
  if (!isfinite(m) || fabs(m) > RL_POS_MAX)
    return RL_ERANGE;
  if (p->exact) {
    rl_status st = rl_rope_apply_elementwise(f, layout, m, x, y);
    for (size_t j = 0; !st && with_attn && f->attn != 1.0 && j < f->dim; j++)
      y[j] *= f->attn;
    return st;
  }
  double sbuf[2 * 256], *buf = f->n <= 256 ? sbuf : malloc(2 * f->n * sizeof *buf);
  if (!buf)
    return RL_ENOMEM;
  double *c = buf, *sn = buf + f->n;
  p->cossin(f, m, with_attn ? f->attn : 1.0, c, sn);
  rl_dtype t = p->act_dtype;
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(layout, f->rot, i, &a, &b);
    float xa = rd(t, (float)x[a]), xb = rd(t, (float)x[b]);
    float cf = (float)c[i], sf = (float)sn[i], ya, yb;
    if (p->fused) {
      ya = rd(t, xa * cf - xb * sf);
      yb = rd(t, xa * sf + xb * cf);
    } else {
      ya = rd(t, rd(t, xa * cf) - rd(t, xb * sf));
      yb = rd(t, rd(t, xb * cf) + rd(t, xa * sf));
    }
    y[a] = (double)ya;
    y[b] = (double)yb;
  }
  for (size_t j = f->rot; j < f->dim; j++)
    y[j] = (double)rd(t, (float)x[j]);
  if (buf != sbuf)
    free(buf);
  return RL_OK;
}
