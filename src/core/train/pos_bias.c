/* pos_bias.c: the trainer's schemes that add a bias of the distance to
 * the logits (pos_impl.h): t5's learned bias per head and bucket, shared
 * by the layers as in T5, and alibi's fixed -slope_h (i - j). */
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

static void t5_sizes(const rl_train_cfg *c, size_t ps[P_COUNT])
{
  ps[P_T5] = c->num_buckets * c->heads;
}

static rl_status t5_check(const rl_train_cfg *c, char *err)
{
  if (rl_t5_bucket(0, 0, (long)c->num_buckets, (long)c->max_distance) < 0)
    return rl_errf(RL_EINVAL, err, RL_ERR_MAX, "invalid t5 buckets '%zu', max distance '%zu'",
                   c->num_buckets, c->max_distance);
  return RL_OK;
}

/* the forward's rl_tl_t5_forward: key - query = -dist, causal */
static double t5_bias(const rl_train_model *m, size_t h, size_t dist)
{
  const rl_train_cfg *c = &m->cfg;
  long k = rl_t5_bucket(-(long)dist, 0, (long)c->num_buckets, (long)c->max_distance);
  return k >= 0 ? m->p[P_T5][(size_t)k * c->heads + h] : 0.0;
}

const rl_tpos rl_tpos_t5 = {
    .name = "t5", .bias = RL_TPB_BUCKETS, .content_div = 1, .param_sizes = t5_sizes,
    .check = t5_check, .pos_bias = t5_bias,
    .bias_measure = "the learned bias of the key's bucket, shared by the layers",
    .recipe = {4, 3000, 5e-3, 0}};

static rl_status alibi_init(rl_train_model *m, char *err)
{
  (void)err;
  int oom = 0;
  m->slopes = rl_tm_table(m, m->cfg.heads, &oom);
  if (oom || rl_scheme_alibi_slopes(m->cfg.heads, m->slopes) != RL_OK)
    return RL_ENOMEM;
  return RL_OK;
}

/* rl_tl_alibi_bias's */
static double alibi_bias(const rl_train_model *m, size_t h, size_t dist)
{
  return -m->slopes[h] * (double)dist;
}

const rl_tpos rl_tpos_alibi = {
    .name = "alibi", .bias = RL_TPB_SLOPES, .content_div = 1, .init = alibi_init,
    .pos_bias = alibi_bias,
    .bias_measure = "alibi's fixed -slope * distance, shared by the layers",
    .recipe = {4, 3000, 5e-3, 0}};
