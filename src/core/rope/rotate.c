/* rotate.c: y = R(m) x, three ways.
 *
 * R(m) is RoFormer's block-diagonal rotation (eq. 13-15): pair i turns by
 * m*theta_i, [y_a; y_b] = [cos -sin; sin cos] [x_a; x_b].  The three
 * implementations share only the angles (rl_schedule_sincos, the
 * pipeline's: exact ones accurate to |m| = 2^31) so that the tests can play them against each other:
 *   matrix      the explicit dim x dim matrix and a GSL BLAS dgemv;
 *   elementwise RoFormer eq. 34, x (*) cos + rot(x) (*) sin;
 *   complex     pairs as C99 complex numbers times e^{i m theta}
 *               (RoFormer eq. 12, Meta llama's apply_rotary_emb). */
#include <complex.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include "ropelab.h"

/* Every angle in range before any output is written, so that an error
 * leaves the caller's buffers untouched. */
static void rotate_pairs(const rl_schedule *f, rl_layout layout, const double pos[3],
                         const double *x, double *y);

static rl_status check_range(const rl_schedule *f, double m)
{
  if (!isfinite(m) || fabs(m) > RL_POS_MAX)
    return RL_ERANGE;
  for (size_t i = 0; i < f->n; i++)
    if (!isfinite(f->theta[i]) || fabs(f->theta[i]) > 1.0)
      return RL_ERANGE;
  return RL_OK;
}

/* The seam (ropelab.h, "precision"): every cos/sin comes from the
 * schedule's pipeline. */
rl_status rl_rope_cossin(const rl_schedule *f, double m, double *c, double *s)
{
  rl_status st = check_range(f, m);
  if (st)
    return st;
  f->prec->cossin(f, m, 1.0, c, s);
  return RL_OK;
}

rl_status rl_schedule_cossin(const rl_schedule *sc, double m, double *c, double *s)
{
  rl_status st = check_range(sc, m);
  if (st)
    return st;
  sc->prec->cossin(sc, m, sc->attn, c, s);
  return RL_OK;
}

rl_status rl_schedule_cossin_rows(const rl_schedule *sc, double m0, double step, size_t count,
                                  double *c, double *s)
{
  size_t n = sc->n;
  if (sc->prec->exact && floor(m0) == m0 && floor(step) == step &&
      rl_angle_sincos_rows(sc->theta, sc->theta_lo, n, m0, step, count, c, s) == RL_OK) {
    if (sc->attn != 1.0) /* as the exact pipelines' cossin: the rounded value times attn */
      for (size_t k = 0; k < count * n; k++)
        c[k] *= sc->attn, s[k] *= sc->attn;
    return RL_OK;
  }
  for (size_t j = 0; j < count; j++) {
    rl_status st = rl_schedule_cossin(sc, m0 + (double)j * step, c + j * n, s + j * n);
    if (st)
      return st;
  }
  return RL_OK;
}

rl_status rl_rope_apply_axes(const rl_schedule *f, rl_layout layout, const double pos[3],
                             const double *x, double *y)
{
  for (int a = 0; a < 3; a++) {
    rl_status st = check_range(f, pos[a]);
    if (st)
      return st;
  }
  rotate_pairs(f, layout, pos, x, y);
  return RL_OK;
}

rl_status rl_rope_matrix(const rl_schedule *f, rl_layout layout, double m, double *R)
{
  rl_status st = check_range(f, m);
  if (st)
    return st;
  size_t d = f->dim;
  memset(R, 0, d * d * sizeof *R);
  for (size_t j = f->rot; j < d; j++)
    R[j * d + j] = 1.0;
  for (size_t i = 0; i < f->n; i++) {
    double c, s;
    size_t a, b;
    rl_schedule_sincos(f, i, m, &c, &s);
    rl_layout_pair(layout, f->rot, i, &a, &b);
    R[a * d + a] = c;
    R[a * d + b] = -s;
    R[b * d + a] = s;
    R[b * d + b] = c;
  }
  return RL_OK;
}

rl_status rl_rope_apply_matrix(const rl_schedule *f, rl_layout layout, double m,
                               const double *x, double *y, double *ws)
{
  rl_status st = rl_rope_matrix(f, layout, m, ws);
  if (st)
    return st;
  size_t d = f->dim;
  gsl_matrix_const_view R = gsl_matrix_const_view_array(ws, d, d);
  gsl_vector_const_view xv = gsl_vector_const_view_array(x, d);
  gsl_vector_view yv = gsl_vector_view_array(y, d);
  gsl_blas_dgemv(CblasNoTrans, 1.0, &R.matrix, &xv.vector, 0.0, &yv.vector);
  return RL_OK;
}

/* Pair i turned by pos[axis_i] (pos[0] without axes), RoFormer eq. 34:
 * y = x cos + rot(x) sin, rot(x) = (-x_b, x_a) on the pair (Hugging Face's
 * rotate_half in the half layout).  Both members are read before either
 * is written: x and y may alias.  Positions already checked. */
static void rotate_pairs(const rl_schedule *f, rl_layout layout, const double pos[3],
                         const double *x, double *y)
{
  for (size_t i = 0; i < f->n; i++) {
    double c, s;
    size_t a, b;
    rl_schedule_sincos(f, i, pos[f->axis ? f->axis[i] : 0], &c, &s);
    rl_layout_pair(layout, f->rot, i, &a, &b);
    double xa = x[a], xb = x[b];
    y[a] = xa * c - xb * s;
    y[b] = xb * c + xa * s;
  }
  if (y != x)
    memcpy(y + f->rot, x + f->rot, (f->dim - f->rot) * sizeof *y);
}

rl_status rl_rope_apply_elementwise(const rl_schedule *f, rl_layout layout, double m,
                                    const double *x, double *y)
{
  rl_status st = check_range(f, m);
  if (st)
    return st;
  const double pos[3] = {m, m, m};
  rotate_pairs(f, layout, pos, x, y);
  return RL_OK;
}

rl_status rl_rope_apply_complex(const rl_schedule *f, rl_layout layout, double m,
                                const double *x, double *y)
{
  rl_status st = check_range(f, m);
  if (st)
    return st;
  for (size_t i = 0; i < f->n; i++) {
    double c, s;
    size_t a, b;
    rl_schedule_sincos(f, i, m, &c, &s);
    rl_layout_pair(layout, f->rot, i, &a, &b);
    /* CMPLX, not x + I*y: the latter may compute 0*y and turn -0 or inf
     * into something else. */
    double complex z = CMPLX(x[a], x[b]) * CMPLX(c, s);
    y[a] = creal(z);
    y[b] = cimag(z);
  }
  if (y != x)
    memcpy(y + f->rot, x + f->rot, (f->dim - f->rot) * sizeof *y);
  return RL_OK;
}
