/* recipe.c: each positional scheme's training defaults (its recipe): the
 * layers, peak learning rate, learning rate at the last step (the peak
 * over a divisor, or 0) and steps
 * that `ropelab train --scheme S` uses where the option is not given, as
 * a schedule declares its own defaults.  rl_train_settings_resolve fills
 * them in (settings.c); help and the metadata show them. */
#include <stdio.h>
#include "ropelab.h"

/* The recipe of experiments/copy_all.sh, the only one measured to learn
 * the default task (copy, L = 20) with every scheme: 4 layers (nope 0.30
 * with 2 layers at 1000 steps, 0.993 with 4 at 3000: a block more than
 * an induction head's two to count positions from BOS), peak lr 5e-3,
 * cosine to lr/10 (to 0 for sinusoidal and tupe, which stalled at 0.981
 * and 0.989 ending at lr/10), 2500 steps, 3000 for learned, t5 and rope
 * and 3500 for tupe.  With --threads 2 (the default) and --chunks 8 these
 * are copy_all's models: seed 1 exact match 1..20 0.994 (rope) to 1.000
 * (alibi, sinusoidal), 56 to 108 s of wall time a model on two idle
 * cores (experiments/copy_all, 2026-12-05).  That is over issue 35's 60 s
 * and the margin over 99% is thin; experiments/train_defaults.sh measures
 * these defaults on seeds 1-3 (experiments/train_defaults/README.md). */
static const rl_train_recipe recipes[RL_TPOS_COUNT] = {
    /* layers, steps, lr, D: min-lr = lr/D (0: min-lr 0) */
    [RL_TPOS_NOPE] = {4, 2500, 5e-3, 10},
    [RL_TPOS_SINUSOIDAL] = {4, 2500, 5e-3, 0},
    [RL_TPOS_LEARNED] = {4, 3000, 5e-3, 10},
    [RL_TPOS_T5] = {4, 3000, 5e-3, 10},
    [RL_TPOS_ALIBI] = {4, 2500, 5e-3, 10},
    [RL_TPOS_ROPE] = {4, 3000, 5e-3, 10},
    [RL_TPOS_XL] = {4, 2500, 5e-3, 10},
    [RL_TPOS_DEBERTA] = {4, 2500, 5e-3, 10},
    [RL_TPOS_TUPE] = {4, 3500, 5e-3, 0},
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
  char lr[RL_NUMFMT_MAX], div[RL_NUMFMT_MAX], last[RL_NUMFMT_MAX + 4] = "0";
  rl_numfmt(r->lr, lr);
  if (r->min_lr_div > 0) {
    rl_numfmt(r->min_lr_div, div);
    snprintf(last, sizeof last, "lr/%s", div);
  }
  return snprintf(buf, n, "--layers %zu --lr %s --min-lr %s --steps %zu", r->layers, lr, last,
                  r->steps);
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
  /* the last learning rate is a fraction of the peak, given or not (lr/10
   * divides, as the default did before: the same double) */
  if (!(s->set & RL_TS_MIN_LR))
    s->min_lr = r->min_lr_div > 0 ? s->lr / r->min_lr_div : 0;
}
