/* integer.c: a trained scheme of the test build only (ropelab-newscheme,
 * tests/meson.build): the scheme registry's "integer" baseline, the
 * position itself added to every component of the embedding, declared
 * as src/core/train/pos_abs.c declares sinusoidal and listed by the
 * registry line RL_TRAIN_POS_TEST of pos_impl.h (-DRL_TEST_TPOS).
 * Nothing else of src/ is compiled differently: the cases
 * (newscheme_*.sh) show that train, its help and recipes, the
 * checkpoint and evaluate take it from this declaration. */
#include "core/train/pos_impl.h"

static rl_status integer_init(rl_train_model *m, char *err)
{
  (void)err;
  size_t D = m->cfg.d_model, T = m->cfg.max_T;
  int oom = 0;
  m->pe = rl_tm_table(m, T * D, &oom);
  if (oom)
    return RL_ENOMEM;
  for (size_t p = 0; p < T; p++)
    for (size_t i = 0; i < D; i++)
      m->pe[p * D + i] = (double)p;
  return RL_OK;
}

const rl_tpos rl_tpos_integer = {
    .name = "integer", .embed = RL_TPE_FIXED, .content_div = 1, .init = integer_init,
    .recipe = {1, 5, 2e-3, 10}};
