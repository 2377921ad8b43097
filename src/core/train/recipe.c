/* recipe.c: each positional scheme's training defaults (its recipe): the
 * layers, peak learning rate, learning rate at the last step (the peak
 * over a divisor, or 0), steps and warmup (the steps over a divisor) that `ropelab train --scheme S` uses where the option is not given, as
 * a schedule declares its own defaults.  rl_train_settings_resolve fills
 * them in (settings.c); help and the metadata show them. */
#include <stdio.h>
#include "pos_impl.h"
#include "ropelab.h"

/* copy_all's recipe (experiments/copy_all.sh, the only one measured to
 * learn the default task, copy at L = 20, with every scheme: 4 layers,
 * peak lr 5e-3) with the cosine to 0 for every scheme and float32 (the
 * default dtype, 2.6-2.9x PyTorch float32 a CPU second), 2026-12-06:
 * - 4 layers: nope 0.30 with 2 layers at 1000 steps, 0.993 with 4 at
 *   3000 (a block more than an induction head's two to count from BOS);
 * - min-lr 0: nope seed 3 at 3000 steps scored 0.9900 (worst length
 *   0.922) ending at lr/10 and 0.9994 (worst 0.996) ending at 0;
 *   sinusoidal and tupe stalled at 0.981 and 0.989 ending at lr/10
 *   (copy_all); at 2500 steps and lr/10 nope seeds 1-3 scored 0.9951,
 *   0.9930, 0.9896: no margin;
 * - steps: 3000 (sinusoidal at 2500 scored 0.9990, 0.9998 and 0.9838
 *   for seeds 1-3, at 3000 1.0000, 0.9994, 0.9984).  3000 float32 steps
 *   of rope took 81 CPU s, 45.6 s of wall time on two nearly idle cores
 *   (load 1.5).  xl and deberta, whose steps cost the most, 2700: xl
 *   seeds 1-3 0.9988, 0.9938, 0.9990 in 44-50 s (at 3000 0.9990, 0.9939,
 *   0.9941 in 50-61 s), deberta 0.9939, 0.9982, 0.9988 in 44-45 s (at
 *   3000 0.9979, 0.9971, 0.9992 in 49-60 s); tupe
 *   3000 like the others: 0.9926, 0.9973, 0.9936 in 40-45 s (it had 3500: 0.9982,
 *   0.9961, 0.9932 in 58-61 s), 2026-12-06;
 * - warmup K/60 (50 steps) for nope: with K/20 (150) nope seed 2 left
 *   its loss plateau late (1.11 nats at step 750, seed 1 0.20) and scored
 *   0.9852 (worst length 0.895); with 50 steps seeds 1-3 scored 1.0000 at
 *   every length 1..20; a peak lr of 3e-3 or 7e-3 instead gave 0.9742
 *   and 0.9805 (2026-12-06).  tupe with 50 steps scored 0.7254 at 3000:
 *   the short warmup is not for every scheme.
 * experiments/train_defaults.sh measures these on seeds 1-3
 * (experiments/train_defaults/README.md).  Each scheme's row is in its
 * declaration (pos_abs.c, pos_bias.c, pos_rel.c, pos_rope.c: .recipe =
 * {layers, steps, lr, D, W}, min-lr = lr/D, 0: min-lr 0; warmup =
 * steps/W, 0: steps/20). */
const rl_train_recipe *rl_train_scheme_recipe(int scheme)
{
  const rl_tpos *ps = rl_tpos_at(scheme);
  return ps ? &ps->recipe : NULL;
}

/* warmup = steps over this: the recipe's, or 20 (train's K/20) */
static size_t warmup_div(const rl_train_recipe *r)
{
  return r && r->warmup_div ? r->warmup_div : 20;
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
  return snprintf(buf, n, "--layers %zu --lr %s --min-lr %s --steps %zu --warmup K/%zu",
                  r->layers, lr, last, r->steps, warmup_div(r));
}

void rl_train_recipe_apply(rl_train_settings *s)
{
  const rl_train_recipe *r = rl_train_scheme_recipe(s->scheme);
  if (!(s->set & RL_TS_STEPS) && r)
    s->steps = r->steps;
  if (!(s->set & RL_TS_WARMUP))
    s->warmup = s->steps / warmup_div(r);
  if (!r)
    return;
  if (!(s->set & RL_TS_LAYERS))
    s->layers = r->layers;
  if (!(s->set & RL_TS_LR))
    s->lr = r->lr;
  /* the last learning rate is a fraction of the peak, given or not (lr/10
   * divides, as the default did before: the same double) */
  if (!(s->set & RL_TS_MIN_LR))
    s->min_lr = r->min_lr_div > 0 ? s->lr / r->min_lr_div : 0;
}
