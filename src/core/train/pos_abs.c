/* pos_abs.c: the trainer's absolute schemes (pos_impl.h): nope, and the
 * tables added to the token embedding, sinusoidal's fixed one and a
 * learned one.  Their recipes: recipe.c says how they were measured. */
#include <math.h>
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

const rl_tpos rl_tpos_nope = {
    .name = "nope", .content_div = 1, .recipe = {4, 3000, 5e-3, 0, 60}};

static rl_status sinusoidal_check(const rl_train_cfg *c, char *err)
{
  if (c->d_model % 2 || !(c->base > 1))
    return rl_errf(RL_EINVAL, err, RL_ERR_MAX,
                   "invalid sinusoidal d-model '%zu', base '%g': expected even, base > 1",
                   c->d_model, c->base);
  return RL_OK;
}

/* pe[p][2i] = sin(p theta_i), pe[p][2i+1] = cos, theta_i = base^(-2i/D)
 * (Vaswani et al. sec. 3.5; the core's sinusoidal layout), times
 * 0.02 sqrt(2): the learned table's initial RMS per coordinate, so that
 * at initialisation neither the tokens nor the positions dominate. */
static rl_status sinusoidal_init(rl_train_model *m, char *err)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, T = c->max_T;
  rl_schedule *f = NULL;
  int oom = 0;
  rl_status st = RL_OK;
  m->pe = rl_tm_table(m, T * D, &oom);
  if (oom || (st = rl_schedule_rope(D, D, c->base, &f)) != RL_OK)
    return oom ? RL_ENOMEM : rl_errf(st, err, RL_ERR_MAX, "cannot build the sinusoidal frequencies");
  for (size_t p = 0; p < T; p++)
    for (size_t i = 0; i < D / 2; i++) {
      double cc, ss;
      rl_angle_sincos((double)p, f->theta[i], &cc, &ss);
      m->pe[p * D + 2 * i] = 0.02 * sqrt(2.0) * ss;
      m->pe[p * D + 2 * i + 1] = 0.02 * sqrt(2.0) * cc;
    }
  rl_schedule_free(f);
  return RL_OK;
}

const rl_tpos rl_tpos_sinusoidal = {
    .name = "sinusoidal", .embed = RL_TPE_FIXED, .content_div = 1,
    .check = sinusoidal_check, .init = sinusoidal_init,
    .sched = RL_TPS_BASE, /* its frequencies are base^(-2i/D) (cfg.base) */
    .recipe = {4, 3000, 5e-3, 0}};

static void learned_sizes(const rl_train_cfg *c, size_t ps[P_COUNT])
{
  ps[P_WPE] = c->max_T * c->d_model;
}

/* rows past the training length stay at their initial values; a model
 * read back has the max_T rows it was trained with */
const rl_tpos rl_tpos_learned = {
    .name = "learned", .embed = RL_TPE_LEARNED, .content_div = 1, .param_sizes = learned_sizes,
    .fixed_rows = 1, .recipe = {4, 3000, 5e-3, 0}};
