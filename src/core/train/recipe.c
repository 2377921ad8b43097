/* recipe.c: each positional scheme's training defaults (its recipe): the
 * layers, peak learning rate, learning rate at the last step (a fraction
 * of the peak) and steps
 * that `ropelab train --scheme S` uses where the option is not given, as
 * a schedule declares its own defaults.  rl_train_settings_resolve fills
 * them in (settings.c); help and the metadata show them. */
#include <stdio.h>
#include "ropelab.h"

/* RECIPES: see the comment above the table (measured values) */
static const rl_train_recipe recipes[RL_TPOS_COUNT] = {
    [RL_TPOS_NOPE] = {4, 2000, 5e-3, 0},
    [RL_TPOS_SINUSOIDAL] = {4, 2000, 5e-3, 0},
    [RL_TPOS_LEARNED] = {4, 2000, 5e-3, 0},
    [RL_TPOS_T5] = {4, 2000, 5e-3, 0},
    [RL_TPOS_ALIBI] = {4, 2000, 5e-3, 0},
    [RL_TPOS_ROPE] = {4, 2000, 5e-3, 0},
    [RL_TPOS_XL] = {4, 2000, 5e-3, 0},
    [RL_TPOS_DEBERTA] = {4, 2000, 5e-3, 0},
    [RL_TPOS_TUPE] = {4, 2000, 5e-3, 0},
};

const rl_train_recipe *rl_train_scheme_recipe(int scheme)
{
  return scheme >= 0 && scheme < RL_TPOS_COUNT ? &recipes[scheme] : NULL;
}

int rl_train_recipe_text(int scheme, char *buf, size_t n)
{
  const rl_train_recipe *r = rl_train_scheme_recipe(scheme);
  if (!r)
    return snprintf(buf, n, "%s", "");
  char last[32];
  if (r->min_lr_frac > 0)
    snprintf(last, sizeof last, "lr/%.17g", 1 / r->min_lr_frac);
  else
    snprintf(last, sizeof last, "0");
  return snprintf(buf, n, "--layers %zu --lr %.17g --min-lr %s --steps %zu", r->layers, r->lr,
                  last, r->steps);
}

void rl_train_recipe_apply(rl_train_settings *s)
{
  const rl_train_recipe *r = rl_train_scheme_recipe(s->scheme);
  if (!r)
    return;
  if (!(s->set & RL_TS_LAYERS))
    s->layers = r->layers;
  if (!(s->set & RL_TS_STEPS))
    s->steps = r->steps;
  if (!(s->set & RL_TS_LR))
    s->lr = r->lr;
  /* the last learning rate is a fraction of the peak, given or not */
  if (!(s->set & RL_TS_MIN_LR))
    s->min_lr = s->lr * r->min_lr_frac;
}
