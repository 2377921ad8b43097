/* test_plan.c: the policy of a training run in the core (plan.c): a
 * checkpoint resumed under other settings is refused naming the first
 * that differs, both values quoted, and as expected the checkpoint's (the
 * value a resume must give; the expected lines are written out by hand:
 * 0.005 as typed, the shortest decimal that reads back as 0.005's double,
 * where %.17g printed 0.0050000000000000001); which schedule options a trained scheme takes (train.h: rope
 * every one, sinusoidal's and xl's frequencies come from --base); the
 * help's recipe section has a heading and one line per scheme and sizes
 * itself as snprintf does; the trained schemes' registry (names, order,
 * the properties asked of a declaration, recipes) as train.h and
 * recipe.c state them. */
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

static void settings(rl_train_settings *s, rl_train_cfg *cfg, rl_train_run *run)
{
  char err[RL_ERR_MAX];
  rl_train_settings_default(s);
  rl_train_settings_resolve(s, err, sizeof err);
  rl_train_settings_cfg(s, cfg);
  rl_train_settings_run(s, run);
}

static void expect(const rl_ckpt *ck, const rl_train_cfg *cfg, const rl_train_run *run,
                   const char *want, const char *what)
{
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_train_resume_check(ck, cfg, run, err, sizeof err);
  tap_ok(st == RL_EINVAL && !strcmp(err, want), "%s: '%s'", what, err);
}

int main(void)
{
  rl_train_settings s;
  rl_train_cfg cfg;
  rl_train_run run;
  rl_ckpt ck;
  char err[RL_ERR_MAX] = "";
  settings(&s, &cfg, &run);
  memset(&ck, 0, sizeof ck);
  ck.cfg = cfg, ck.run = run;
  tap_ok(rl_train_resume_check(&ck, &cfg, &run, err, sizeof err) == RL_OK && !err[0],
         "the same settings resume");

  rl_train_run r2 = run;
  r2.lr = 0.001;
  expect(&ck, &cfg, &r2,
         "the checkpoint was trained with --lr '0.005', this run has "
         "'0.001': expected --lr 0.005 (or no --resume)",
         "another --lr");
  rl_train_cfg c2 = cfg;
  c2.seed = 2;
  expect(&ck, &c2, &run,
         "the checkpoint was trained with --seed '1', this run has "
         "'2': expected --seed 1 (or no --resume)",
         "another --seed");
  c2 = cfg;
  c2.pos = rl_train_pos_find("nope");
  expect(&ck, &c2, &run,
         "the checkpoint was trained with --scheme 'rope', this run has "
         "'nope': expected --scheme rope (or no --resume)",
         "another --scheme");
  c2 = cfg;
  c2.dtype = RL_TDTYPE_FLOAT64; /* the checkpoint's: the default, float32 */
  expect(&ck, &c2, &run,
         "the checkpoint was trained with --dtype 'float32', this run has "
         "'float64': expected --dtype float32 (or no --resume)",
         "another --dtype");
  /* two differ: the first in the order of the help (seed before steps) */
  c2 = cfg, r2 = run;
  c2.seed = 3, r2.steps = 7;
  expect(&ck, &c2, &r2,
         "the checkpoint was trained with --seed '1', this run has "
         "'3': expected --seed 1 (or no --resume)",
         "the first of two");
  r2 = run;
  r2.threads = 1;
  expect(&ck, &cfg, &r2,
         "the checkpoint was trained with --threads '2', this run has "
         "'1': expected --threads 2 (or no --resume)",
         "another --threads");

  tap_ok(rl_train_scheme_rope(rl_train_pos_find("rope")) && !rl_train_scheme_rope(rl_train_pos_find("xl")),
         "rope alone is turned by a schedule");
  tap_ok(rl_train_sched_applies(rl_train_pos_find("rope"), "rot") && rl_train_sched_applies(rl_train_pos_find("rope"), "method"),
         "rope takes every schedule option");
  tap_ok(rl_train_sched_applies(rl_train_pos_find("sinusoidal"), "base") &&
             rl_train_sched_applies(rl_train_pos_find("xl"), "base") &&
             !rl_train_sched_applies(rl_train_pos_find("xl"), "rot") &&
             !rl_train_sched_applies(rl_train_pos_find("nope"), "base") &&
             !rl_train_sched_applies(rl_train_pos_find("t5"), "base"),
         "sinusoidal and xl take --base alone, the others nothing");

  /* the trained schemes' registry (src/core/train/pos.c): the order and
   * names train.h lists, each a name of the scheme registry, found back
   * by name; rope2d is a scheme the trainer does not train */
  static const char *const listed[] = {"nope", "sinusoidal", "learned", "t5", "alibi",
                                       "rope", "xl", "deberta", "tupe"};
  const char *const *names = rl_train_pos_names();
  int same = rl_train_pos_count() == 9 && names[9] == NULL;
  for (int k = 0; same && k < 9; k++)
    same = !strcmp(names[k], listed[k]) && rl_scheme_find(names[k]) != NULL &&
           rl_train_pos_find(listed[k]) == k;
  tap_ok(same, "9 trained schemes in train.h's order, each a scheme registry name, found back");
  tap_ok(rl_train_pos_find("rope2d") == -1 && rl_train_pos_find(NULL) == -1 &&
             rl_scheme_find("rope2d") != NULL,
         "a scheme not trained and no name: -1");
  int fixed = 0, bias = 0;
  for (int k = 0; k < 9; k++) {
    fixed += rl_train_scheme_fixed_rows(k) ? 1 << k : 0;
    bias += rl_train_scheme_bias_measure(k) ? 1 << k : 0;
  }
  tap_ok(fixed == 1 << 2 && bias == (1 << 3 | 1 << 4) && !rl_train_scheme_fixed_rows(9) &&
             !rl_train_scheme_bias_measure(-1),
         "learned alone has fixed rows; t5 and alibi alone a bias per distance");
  /* recipe.c's table as measured (layers, steps, lr, divisor, warmup
   * divisor: nope K/60, the others the generic K/20) */
  static const size_t steps[] = {3000, 3000, 3000, 3000, 3000, 3000, 2700, 2700, 3000};
  int recipes = rl_train_scheme_recipe(9) == NULL && rl_train_scheme_recipe(-1) == NULL;
  for (int k = 0; recipes && k < 9; k++) {
    const rl_train_recipe *r = rl_train_scheme_recipe(k);
    recipes = r && r->layers == 4 && r->steps == steps[k] && r->lr == 5e-3 &&
              r->min_lr_div == 0 && r->warmup_div == (k == 0 ? 60 : 0);
  }
  tap_ok(recipes, "each scheme's recipe: 4 layers, lr 5e-3 to 0, 3000 steps (xl, deberta 2700), "
                  "warmup K/20 (nope K/60)");

  char help[2048], small[16];
  int n = rl_train_recipes_help(help, sizeof help), lines = 0;
  for (const char *c = help; *c; c++)
    lines += *c == '\n';
  tap_ok(n == (int)strlen(help) && lines == 2 + (int)rl_train_pos_count(),
         "recipes: heading (2 lines) and %d schemes (%d lines)", (int)rl_train_pos_count(), lines);
  tap_ok(strstr(help, "\n  rope        --layers ") != NULL, "rope's line, the name in 11 columns");
  tap_ok(rl_train_recipes_help(small, sizeof small) == n && strlen(small) == sizeof small - 1,
         "a short buffer: cut, the length still the whole text's");
  return tap_done();
}
