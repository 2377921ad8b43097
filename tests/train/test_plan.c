/* test_plan.c: the policy of a training run in the core (plan.c): a
 * checkpoint resumed under other settings is refused naming the first
 * that differs, both values quoted, and as expected the checkpoint's (the
 * value a resume must give; the expected lines are written out by hand:
 * 0.005 as typed, the shortest decimal that reads back as 0.005's double,
 * where %.17g printed 0.0050000000000000001); which schedule options a trained scheme takes (train.h: rope
 * every one, sinusoidal's and xl's frequencies come from --base); the
 * help's recipe section has a heading and one line per scheme and sizes
 * itself as snprintf does. */
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
  c2.pos = RL_TPOS_NOPE;
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

  tap_ok(rl_train_scheme_rope(RL_TPOS_ROPE) && !rl_train_scheme_rope(RL_TPOS_XL),
         "rope alone is turned by a schedule");
  tap_ok(rl_train_sched_applies(RL_TPOS_ROPE, "rot") && rl_train_sched_applies(RL_TPOS_ROPE, "method"),
         "rope takes every schedule option");
  tap_ok(rl_train_sched_applies(RL_TPOS_SINUSOIDAL, "base") &&
             rl_train_sched_applies(RL_TPOS_XL, "base") &&
             !rl_train_sched_applies(RL_TPOS_XL, "rot") &&
             !rl_train_sched_applies(RL_TPOS_NOPE, "base") &&
             !rl_train_sched_applies(RL_TPOS_T5, "base"),
         "sinusoidal and xl take --base alone, the others nothing");

  char help[2048], small[16];
  int n = rl_train_recipes_help(help, sizeof help), lines = 0;
  for (const char *c = help; *c; c++)
    lines += *c == '\n';
  tap_ok(n == (int)strlen(help) && lines == 2 + RL_TPOS_COUNT,
         "recipes: heading (2 lines) and %d schemes (%d lines)", RL_TPOS_COUNT, lines);
  tap_ok(strstr(help, "\n  rope        --layers ") != NULL, "rope's line, the name in 11 columns");
  tap_ok(rl_train_recipes_help(small, sizeof small) == n && strlen(small) == sizeof small - 1,
         "a short buffer: cut, the length still the whole text's");
  return tap_done();
}
