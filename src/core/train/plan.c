/* plan.c: the policy of a training run around the model (issue 34: the
 * core owns it, `ropelab train` parses and writes): which of the
 * schedule's options a trained scheme takes, whether a checkpoint can be
 * resumed under the settings given, and the help's section of each
 * scheme's recipe (recipe.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

/* each from the scheme's declaration (pos_impl.h) */
int rl_train_scheme_rope(int scheme)
{
  const rl_tpos *ps = rl_tpos_at(scheme);
  return ps && ps->rotate;
}

int rl_train_sched_applies(int scheme, const char *key)
{
  const rl_tpos *ps = rl_tpos_at(scheme);
  if (!ps)
    return 0;
  /* RL_TPS_BASE: sinusoidal's and xl's frequencies are base^(-2k/hd) (cfg.base) */
  return ps->sched == RL_TPS_ALL || (ps->sched == RL_TPS_BASE && !strcmp(key, "base"));
}

int rl_train_scheme_fixed_rows(int scheme)
{
  const rl_tpos *ps = rl_tpos_at(scheme);
  return ps && ps->fixed_rows;
}

const char *rl_train_scheme_bias_measure(int scheme)
{
  const rl_tpos *ps = rl_tpos_at(scheme);
  return ps && ps->pos_bias ? ps->bias_measure : NULL;
}

/* one setting of the checkpoint (have: what a resume must give) against
 * the run's (want: what this run was given) */
typedef struct cmp {
  const char *key;
  char have[48], want[48];
} cmp;

static void cmp_u(cmp *c, const char *key, unsigned long long have, unsigned long long want)
{
  c->key = key;
  snprintf(c->have, sizeof c->have, "%llu", have);
  snprintf(c->want, sizeof c->want, "%llu", want);
}

/* the shortest of %.15g, %.16g, %.17g that reads back as x: 5e-3 as the
 * user typed it, not %.17g's 0.0050000000000000001 */
static void shortest(char *buf, size_t n, double x)
{
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, n, "%.*g", p, x);
    if (strtod(buf, NULL) == x)
      return;
  }
}

static void cmp_d(cmp *c, const char *key, double have, double want)
{
  c->key = key;
  shortest(c->have, sizeof c->have, have);
  shortest(c->want, sizeof c->want, want);
}

static void cmp_s(cmp *c, const char *key, const char *have, const char *want)
{
  c->key = key;
  snprintf(c->have, sizeof c->have, "%s", have);
  snprintf(c->want, sizeof c->want, "%s", want);
}

rl_status rl_train_resume_check(const rl_ckpt *ck, const rl_train_cfg *cfg,
                                const rl_train_run *run, char *err, size_t n)
{
  cmp c[20];
  size_t k = 0;
  /* everything that shapes the model or the steps, in the help's order */
  cmp_s(&c[k++], "scheme", rl_train_pos_names()[ck->cfg.pos], rl_train_pos_names()[cfg->pos]);
  cmp_s(&c[k++], "task", rl_task_names()[ck->run.task.kind], rl_task_names()[run->task.kind]);
  cmp_u(&c[k++], "symbols", ck->run.task.symbols, run->task.symbols);
  cmp_u(&c[k++], "train-len", ck->run.train_len, run->train_len);
  cmp_u(&c[k++], "eval-len", ck->run.eval_len, run->eval_len);
  cmp_u(&c[k++], "d-model", ck->cfg.d_model, cfg->d_model);
  cmp_u(&c[k++], "heads", ck->cfg.heads, cfg->heads);
  cmp_u(&c[k++], "layers", ck->cfg.layers, cfg->layers);
  cmp_u(&c[k++], "batch", ck->cfg.batch, cfg->batch);
  cmp_u(&c[k++], "seed", ck->cfg.seed, cfg->seed);
  cmp_u(&c[k++], "steps", ck->run.steps, run->steps);
  cmp_u(&c[k++], "warmup", ck->run.warmup, run->warmup);
  cmp_d(&c[k++], "lr", ck->run.lr, run->lr);
  cmp_d(&c[k++], "min-lr", ck->run.min_lr, run->min_lr);
  cmp_d(&c[k++], "base", ck->cfg.base, cfg->base);
  /* threads and chunks regroup the gradient sums: the same bits need
   * the same */
  cmp_u(&c[k++], "threads", ck->run.threads, run->threads);
  cmp_u(&c[k++], "chunks", ck->cfg.chunks, cfg->chunks);
  /* refused, not converted: a run resumed in another dtype would be
   * neither run's bits */
  cmp_s(&c[k++], "dtype", rl_train_dtype_names()[ck->cfg.dtype],
        rl_train_dtype_names()[cfg->dtype]);
  for (size_t i = 0; i < k; i++)
    if (strcmp(c[i].have, c[i].want))
      /* the checkpoint's value is the one a resume can take */
      return rl_errf(RL_EINVAL, err, n,
                     "the checkpoint was trained with --%s '%s', this run has '%s': expected "
                     "--%s %s (or no --resume)",
                     c[i].key, c[i].have, c[i].want, c[i].key, c[i].have);
  return RL_OK;
}

int rl_train_recipes_help(char *buf, size_t n)
{
  const char *const *pos = rl_train_pos_names();
  size_t len = 0;
  int k = snprintf(buf, n, "Each scheme's defaults (where these options are not given; "
                           "measured to\nlearn the default task: "
                           "experiments/train_defaults/README.md):\n");
  for (int s = 0; k >= 0 && s < (int)rl_train_pos_count(); s++) {
    char text[160];
    len += (size_t)k;
    rl_train_recipe_text(s, text, sizeof text);
    k = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "  %-11s %s\n", pos[s],
                 text);
  }
  return k < 0 ? k : (int)(len + (size_t)k);
}
