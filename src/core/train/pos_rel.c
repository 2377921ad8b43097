/* pos_rel.c: the trainer's schemes with terms between the queries, the
 * keys and position tables (pos_impl.h): Transformer-XL and DeBERTa
 * (relative rows, relattn_* in layers_impl.h) and TUPE-A (absolute
 * positions untied from the content, a bias like t5's). */
#include <limits.h>
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

/* ---- xl: per head, (q + u).k + (q + v).W_r R_{i-j}, over sqrt(hd) */

static void xl_sizes(const rl_train_cfg *c, size_t ps[P_COUNT])
{
  size_t L = c->layers, D = c->d_model;
  ps[P_XLW] = L * D * (D / c->heads), ps[P_XLU] = L * D, ps[P_XLV] = L * D;
}

/* R_r = [sin(r f_k), k < hd/2; cos(r f_k)], f_k = base^(-2k/hd): the
 * core's xl (rel.c, after the reference's PositionalEmbedding) */
static rl_status xl_init(rl_train_model *m, char *err)
{
  const rl_train_cfg *c = &m->cfg;
  size_t T = c->max_T, hd = c->d_model / c->heads;
  int oom = 0;
  m->xlR = rl_tm_table(m, T * hd, &oom);
  if (oom)
    return RL_ENOMEM;
  rl_schedule *f = NULL;
  if (hd % 2 || rl_schedule_rope(hd, hd, c->base, &f) != RL_OK)
    return rl_errf(RL_EINVAL, err, RL_ERR_MAX,
                   "invalid xl head dimension '%zu' or base '%g': expected even, base > 1", hd,
                   c->base);
  for (size_t dist = 0; dist < T; dist++)
    for (size_t k = 0; k < hd / 2; k++) {
      double cc, ss;
      rl_angle_sincos((double)dist, f->theta[k], &cc, &ss);
      m->xlR[dist * hd + k] = ss, m->xlR[dist * hd + hd / 2 + k] = cc;
    }
  rl_schedule_free(f);
  return RL_OK;
}

static size_t xl_rows(const rl_train_cfg *c) { return c->max_T; }
/* the distance itself */
static size_t xl_row(const rl_train_cfg *c, size_t r, size_t nrel)
{
  (void)c, (void)nrel;
  return r;
}

const rl_tpos rl_tpos_xl = {
    .name = "xl", .rel = RL_TPR_SINUSOID, .content_div = 1, .param_sizes = xl_sizes,
    .init = xl_init, .rel_rows = xl_rows, .rel_row = xl_row,
    .sched = RL_TPS_BASE, /* R's frequencies are base^(-2k/hd) (cfg.base) */
    .recipe = {4, 2700, 5e-3, 0}};

/* ---- deberta: q.k + q.K^r + k.Q^r over sqrt(3 hd) */

static void deberta_sizes(const rl_train_cfg *c, size_t ps[P_COUNT])
{
  ps[P_DEB] = c->num_buckets * c->d_model;
}

static rl_status deberta_check(const rl_train_cfg *c, char *err)
{
  if (c->num_buckets < 2 ||
      rl_deberta_bucket(0, (long)c->num_buckets, (long)c->max_distance) == LONG_MIN)
    return rl_errf(RL_EINVAL, err, RL_ERR_MAX, "invalid deberta buckets '%zu', max distance '%zu'",
                   c->num_buckets, c->max_distance);
  return RL_OK;
}

/* only the table's upper half, k = num_buckets rows: a decoder's keys
 * never follow the query */
static size_t deberta_rows(const rl_train_cfg *c) { return c->num_buckets; }
/* clamp(bucket(r) + k, 0, 2k - 1) - k: the core's delta less k */
static size_t deberta_row(const rl_train_cfg *c, size_t r, size_t nrel)
{
  long b = rl_deberta_bucket((long)r, (long)c->num_buckets, (long)c->max_distance);
  return b < (long)nrel ? (size_t)b : nrel - 1;
}

const rl_tpos rl_tpos_deberta = {
    .name = "deberta", .rel = RL_TPR_TABLE, .content_div = 1, .param_sizes = deberta_sizes,
    .check = deberta_check, .rel_rows = deberta_rows, .rel_row = deberta_row,
    .recipe = {4, 2700, 5e-3, 0}};

/* ---- tupe: q.k/sqrt(2 hd) + (U_q pbar_i).(U_k pbar_j)/sqrt(2 hd) */

static void tupe_sizes(const rl_train_cfg *c, size_t ps[P_COUNT])
{
  size_t D = c->d_model;
  ps[P_TUPE] = c->max_T * D, ps[P_TUPEQ] = D * D, ps[P_TUPEK] = D * D;
}

const rl_tpos rl_tpos_tupe = {
    .name = "tupe", .bias = RL_TPB_ABSPAIR, .content_div = 2, .param_sizes = tupe_sizes,
    .recipe = {4, 3000, 5e-3, 0}};
