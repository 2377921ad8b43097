/* rotate.c: y = R(m) x in a pipeline's arithmetic (ropelab.h,
 * rl_rope_apply_pipeline, rl_rope_apply_row; the pair rule is
 * rl_prec_rotate_pair). */
#include <stdlib.h>
#include "precision_impl.h"

#define rd rl_prec_rd

rl_status rl_rope_apply_row(const rl_schedule *f, rl_layout layout, const double *c,
                            const double *sn, const double *x, double *y)
{
  const rl_precision *p = f->prec;
  if (p->exact) {
    /* RoFormer eq. 34 in double, as rl_rope_apply_elementwise */
    for (size_t i = 0; i < f->n; i++) {
      size_t a, b;
      rl_layout_pair(layout, f->rot, i, &a, &b);
      double xa = x[a], xb = x[b];
      y[a] = xa * c[i] - xb * sn[i];
      y[b] = xb * c[i] + xa * sn[i];
    }
    for (size_t j = f->rot; y != x && j < f->dim; j++)
      y[j] = x[j];
    return RL_OK;
  }
  rl_dtype t = p->act_dtype;
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(layout, f->rot, i, &a, &b);
    float xa = rd(t, (float)x[a]), xb = rd(t, (float)x[b]);
    float ya, yb;
    rl_prec_rotate_pair(p, (float)c[i], (float)sn[i], xa, xb, &ya, &yb);
    y[a] = (double)ya;
    y[b] = (double)yb;
  }
  for (size_t j = f->rot; j < f->dim; j++)
    y[j] = (double)rd(t, (float)x[j]);
  return RL_OK;
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
  p->cossin(f, m, with_attn ? f->attn : 1.0, buf, buf + f->n);
  rl_status st = rl_rope_apply_row(f, layout, buf, buf + f->n, x, y);
  if (buf != sbuf)
    free(buf);
  return st;
}
