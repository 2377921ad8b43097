/* freqs.c: frequency schedules theta_i of RoPE and, later, its variants. */
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"

rl_status rl_freqs_alloc(size_t dim, size_t rot, rl_freqs **out)
{
  *out = NULL;
  if (dim < 2 || dim % 2 || rot < 2 || rot % 2 || rot > dim)
    return RL_EINVAL;
  rl_freqs *f = calloc(1, sizeof *f);
  if (!f)
    return RL_ENOMEM;
  f->theta = calloc(rot / 2, sizeof *f->theta);
  if (!f->theta) {
    free(f);
    return RL_ENOMEM;
  }
  f->dim = dim;
  f->rot = rot;
  f->n = rot / 2;
  *out = f;
  return RL_OK;
}

void rl_freqs_free(rl_freqs *f)
{
  if (!f)
    return;
  free(f->theta);
  free(f);
}

rl_status rl_freqs_rope(size_t dim, size_t rot, double base, rl_freqs **out)
{
  *out = NULL;
  if (!isfinite(base) || !(base > 1.0))
    return RL_EINVAL;
  rl_status st = rl_freqs_alloc(dim, rot, out);
  if (st)
    return st;
  rl_freqs *f = *out;
  f->base = base;
  /* RoFormer eq. 15: theta_i = 10000^(-2(i-1)/d), i = 1..d/2; with partial
   * rotary the exponent's denominator is the rotated width r (Hugging Face
   * _compute_default_rope_parameters: dim = head_dim * partial_rotary_factor).
   * exp2l(-2i/r * log2l(base)) in long double rounds to the nearest double
   * (64-bit significand, error far below half a double ulp). */
  long double lb = log2l((long double)base);
  for (size_t i = 0; i < f->n; i++)
    f->theta[i] = (double)exp2l(-(long double)(2 * i) / (long double)rot * lb);
  return RL_OK;
}

double rl_freqs_wavelength(const rl_freqs *f, size_t i)
{
  return (double)(2.0L * 3.14159265358979323846264338327950288L / (long double)f->theta[i]);
}
