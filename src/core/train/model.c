/* model.c: the trainer's decoder (ropelab/train.h): parameters and
 * activations laid out once, forward and backward calling the layers in
 * order (the gpt2_forward / gpt2_backward structure of llm.c's
 * train_gpt2.c), AdamW. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layers.h"
#include "ropelab.h"

/* Parameter tensors, in the order of the one array. */
enum {
  P_WTE, P_WPE, P_LN1W, P_LN1B, P_QKVW, P_QKVB, P_ATTPROJW, P_ATTPROJB, P_LN2W, P_LN2B,
  P_FCW, P_FCB, P_FCPROJW, P_FCPROJB, P_LNFW, P_LNFB, P_T5, P_COUNT
};
/* Activation tensors (and their gradients, same layout). */
enum {
  A_ENC, A_LN1, A_LN1M, A_LN1R, A_QKV, A_QKVR, A_ATTY, A_PRE, A_ATT, A_ATTPROJ, A_RES2, A_LN2,
  A_LN2M, A_LN2R, A_FCH, A_FCHT, A_FCHG, A_FCPROJ, A_RES3, A_LNF, A_LNFM, A_LNFR, A_LOGITS, A_PROBS,
  A_LOSSES, A_COUNT
};

struct rl_train_model {
  rl_train_cfg cfg;
  size_t psize[P_COUNT], asize[A_COUNT], np, na;
  double *params, *grads, *m1, *m2;
  double *p[P_COUNT], *g[P_COUNT];
  double *acts, *dacts;
  double *a[A_COUNT], *da[A_COUNT];
  double *pe;          /* sinusoidal table [max_T][D], or NULL */
  double *bias, *dbias; /* [H][T][T] for t5 and alibi */
  double *slopes;      /* alibi, H */
  double *cs, *sn;     /* rope table [max_T][rot/2] */
  size_t rot;
  int half, have_rope;
  double *dpre, *datt; /* one layer's attention scratch */
  int *inp, *tgt;
  size_t B, T, step;
  double mean_loss;
  size_t bytes;
};

static const char *const pos_names[RL_TPOS_COUNT] = {"nope", "sinusoidal", "learned",
                                                     "t5", "alibi", "rope"};
const char *const *rl_train_pos_names(void) { return pos_names; }

void rl_train_cfg_default(rl_train_cfg *c)
{
  memset(c, 0, sizeof *c);
  c->vocab = 12, c->d_model = 64, c->heads = 4, c->layers = 2, c->batch = 32, c->max_T = 64;
  c->pos = RL_TPOS_ROPE, c->num_buckets = 32, c->max_distance = 128, c->base = 10000;
  c->seed = 1;
}

static rl_status fail(char *err, rl_status st, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, RL_ERR_MAX, fmt, ap);
    va_end(ap);
  }
  return st;
}

const rl_train_cfg *rl_train_get_cfg(const rl_train_model *m) { return &m->cfg; }
size_t rl_train_nparams(const rl_train_model *m) { return m->np; }
double *rl_train_params(rl_train_model *m) { return m->params; }
double *rl_train_grads(rl_train_model *m) { return m->grads; }
size_t rl_train_bytes(const rl_train_model *m) { return m->bytes; }
const double *rl_train_probs(const rl_train_model *m) { return m->a[A_PROBS]; }
const double *rl_train_losses(const rl_train_model *m) { return m->a[A_LOSSES]; }

void rl_train_free(rl_train_model *m)
{
  if (!m)
    return;
  free(m->params), free(m->grads), free(m->m1), free(m->m2), free(m->acts), free(m->dacts);
  free(m->pe), free(m->bias), free(m->dbias), free(m->slopes), free(m->cs), free(m->sn);
  free(m->dpre), free(m->datt), free(m->inp), free(m->tgt);
  free(m);
}

static double *zalloc(rl_train_model *m, size_t n, int *oom)
{
  double *p = calloc(n ? n : 1, sizeof *p);
  if (!p)
    *oom = 1;
  m->bytes += n * sizeof *p;
  return p;
}

rl_status rl_train_new(const rl_train_cfg *cfg, rl_train_model **out, char *err)
{
  *out = NULL;
  const rl_train_cfg *c = cfg;
  if (c->vocab < 2 || c->vocab > 1u << 20)
    return fail(err, RL_EINVAL, "invalid vocabulary '%zu': expected 2 to 1048576", c->vocab);
  if (!c->heads || !c->d_model || c->d_model % c->heads || c->d_model > 4096)
    return fail(err, RL_EINVAL, "invalid d-model '%zu': expected a multiple of heads %zu, at most 4096",
                c->d_model, c->heads);
  if (!c->layers || c->layers > 64 || !c->batch || c->batch > 4096 || !c->max_T || c->max_T > 4096)
    return fail(err, RL_EINVAL,
                "invalid layers/batch/positions '%zu/%zu/%zu': expected 1..64, 1..4096, 1..4096",
                c->layers, c->batch, c->max_T);
  if ((unsigned)c->pos >= RL_TPOS_COUNT)
    return fail(err, RL_EINVAL, "invalid scheme '%d'", (int)c->pos);
  if (c->pos == RL_TPOS_SINUSOIDAL && (c->d_model % 2 || !(c->base > 1)))
    return fail(err, RL_EINVAL, "invalid sinusoidal d-model '%zu', base '%g': expected even, base > 1",
                c->d_model, c->base);
  if (c->pos == RL_TPOS_T5 && rl_t5_bucket(0, 0, (long)c->num_buckets, (long)c->max_distance) < 0)
    return fail(err, RL_EINVAL, "invalid t5 buckets '%zu', max distance '%zu'", c->num_buckets,
                c->max_distance);
  rl_train_model *m = calloc(1, sizeof *m);
  if (!m)
    return RL_ENOMEM;
  m->cfg = *c;
  size_t V = c->vocab, D = c->d_model, L = c->layers, H = c->heads, T = c->max_T;
  size_t BT = c->batch * T;
  size_t ps[P_COUNT] = {
    [P_WTE] = V * D, [P_WPE] = c->pos == RL_TPOS_LEARNED ? T * D : 0,
    [P_LN1W] = L * D, [P_LN1B] = L * D, [P_QKVW] = L * 3 * D * D, [P_QKVB] = L * 3 * D,
    [P_ATTPROJW] = L * D * D, [P_ATTPROJB] = L * D, [P_LN2W] = L * D, [P_LN2B] = L * D,
    [P_FCW] = L * 4 * D * D, [P_FCB] = L * 4 * D, [P_FCPROJW] = L * D * 4 * D,
    [P_FCPROJB] = L * D, [P_LNFW] = D, [P_LNFB] = D,
    [P_T5] = c->pos == RL_TPOS_T5 ? c->num_buckets * H : 0};
  size_t as[A_COUNT] = {
    [A_ENC] = BT * D, [A_LN1] = L * BT * D, [A_LN1M] = L * BT, [A_LN1R] = L * BT,
    [A_QKV] = L * BT * 3 * D, [A_QKVR] = c->pos == RL_TPOS_ROPE ? L * BT * 3 * D : 0,
    [A_ATTY] = L * BT * D, [A_PRE] = L * c->batch * H * T * T, [A_ATT] = L * c->batch * H * T * T,
    [A_ATTPROJ] = L * BT * D, [A_RES2] = L * BT * D, [A_LN2] = L * BT * D, [A_LN2M] = L * BT,
    [A_LN2R] = L * BT, [A_FCH] = L * BT * 4 * D, [A_FCHT] = L * BT * 4 * D,
    [A_FCHG] = L * BT * 4 * D,
    [A_FCPROJ] = L * BT * D, [A_RES3] = L * BT * D, [A_LNF] = BT * D, [A_LNFM] = BT,
    [A_LNFR] = BT, [A_LOGITS] = BT * V, [A_PROBS] = BT * V, [A_LOSSES] = BT};
  memcpy(m->psize, ps, sizeof ps);
  memcpy(m->asize, as, sizeof as);
  for (int i = 0; i < P_COUNT; i++)
    m->np += ps[i];
  for (int i = 0; i < A_COUNT; i++)
    m->na += as[i];
  int oom = 0;
  m->params = zalloc(m, m->np, &oom), m->grads = zalloc(m, m->np, &oom);
  m->m1 = zalloc(m, m->np, &oom), m->m2 = zalloc(m, m->np, &oom);
  m->acts = zalloc(m, m->na, &oom), m->dacts = zalloc(m, m->na, &oom);
  m->dpre = zalloc(m, c->batch * H * T * T, &oom), m->datt = zalloc(m, c->batch * H * T * T, &oom);
  if (c->pos == RL_TPOS_T5 || c->pos == RL_TPOS_ALIBI)
    m->bias = zalloc(m, H * T * T, &oom), m->dbias = zalloc(m, H * T * T, &oom);
  m->inp = calloc(BT, sizeof *m->inp), m->tgt = calloc(BT, sizeof *m->tgt);
  m->bytes += 2 * BT * sizeof *m->inp;
  if (oom || !m->inp || !m->tgt) {
    rl_train_free(m);
    return RL_ENOMEM;
  }
  size_t off = 0;
  for (int i = 0; i < P_COUNT; i++) {
    m->p[i] = m->params + off, m->g[i] = m->grads + off;
    off += ps[i];
  }
  off = 0;
  for (int i = 0; i < A_COUNT; i++) {
    m->a[i] = m->acts + off, m->da[i] = m->dacts + off;
    off += as[i];
  }
  /* GPT-2's initialisation (as llm.c's train_gpt2.py): N(0, 0.02^2), the
   * residual projections scaled by 1/sqrt(2L), norms 1, biases 0. */
  rl_train_rng r;
  rl_train_rng_seed(&r, c->seed);
  static const int normal[] = {P_WTE, P_WPE, P_QKVW, P_ATTPROJW, P_FCW, P_FCPROJW, P_T5};
  for (size_t k = 0; k < sizeof normal / sizeof *normal; k++) {
    int i = normal[k];
    double sd = i == P_ATTPROJW || i == P_FCPROJW ? 0.02 / sqrt(2.0 * (double)L) : 0.02;
    for (size_t j = 0; j < ps[i]; j++)
      m->p[i][j] = sd * rl_train_rng_normal(&r);
  }
  static const int ones[] = {P_LN1W, P_LN2W, P_LNFW};
  for (size_t k = 0; k < 3; k++)
    for (size_t j = 0; j < ps[ones[k]]; j++)
      m->p[ones[k]][j] = 1.0;
  rl_status st = RL_OK;
  if (c->pos == RL_TPOS_SINUSOIDAL) {
    /* pe[p][2i] = sin(p theta_i), pe[p][2i+1] = cos, theta_i = base^(-2i/D)
     * (Vaswani et al. sec. 3.5; the core's sinusoidal layout), times
     * 0.02 sqrt(2): the learned table's initial RMS per coordinate, so that
     * at initialisation neither the tokens nor the positions dominate. */
    rl_schedule *f = NULL;
    m->pe = zalloc(m, T * D, &oom);
    if (oom || (st = rl_schedule_rope(D, D, c->base, &f)) != RL_OK) {
      rl_train_free(m);
      return oom ? RL_ENOMEM : fail(err, st, "cannot build the sinusoidal frequencies");
    }
    for (size_t p = 0; p < T; p++)
      for (size_t i = 0; i < D / 2; i++) {
        double cc, ss;
        rl_angle_sincos((double)p, f->theta[i], &cc, &ss);
        m->pe[p * D + 2 * i] = 0.02 * sqrt(2.0) * ss;
        m->pe[p * D + 2 * i + 1] = 0.02 * sqrt(2.0) * cc;
      }
    rl_schedule_free(f);
  }
  if (c->pos == RL_TPOS_ALIBI) {
    m->slopes = zalloc(m, H, &oom);
    if (oom || rl_scheme_alibi_slopes(H, m->slopes) != RL_OK) {
      rl_train_free(m);
      return RL_ENOMEM;
    }
  }
  *out = m;
  return RL_OK;
}

rl_status rl_train_set_rope(rl_train_model *m, const rl_schedule *sc, char *err)
{
  size_t hd = m->cfg.d_model / m->cfg.heads, T = m->cfg.max_T;
  if (m->cfg.pos != RL_TPOS_ROPE)
    return fail(err, RL_EINVAL, "invalid schedule for scheme '%s': only rope takes one",
                pos_names[m->cfg.pos]);
  if (sc->dim != hd)
    return fail(err, RL_EINVAL, "invalid schedule dim '%zu': expected the head dimension %zu",
                sc->dim, hd);
  if (!rl_schedule_is_plain(sc))
    return fail(err, RL_EINVAL,
                "invalid method '%s' for training: its logit is not a function of the "
                "cos/sin table alone (position map, amplitude or query scale)",
                sc->type ? sc->type->name : "?");
  if (sc->axis)
    return fail(err, RL_EINVAL, "invalid method 'mrope' for training: expected 1-d positions");
  size_t n = sc->n;
  double *cs = malloc(T * (n ? n : 1) * sizeof *cs), *sn = malloc(T * (n ? n : 1) * sizeof *sn);
  if (!cs || !sn) {
    free(cs), free(sn);
    return RL_ENOMEM;
  }
  rl_status st = n ? rl_schedule_cossin_rows(sc, 0.0, 1.0, T, cs, sn) : RL_OK;
  if (st != RL_OK) {
    free(cs), free(sn);
    return fail(err, st, "cannot tabulate the rope schedule for %zu positions", T);
  }
  if (!m->cs)
    m->bytes += 2 * T * n * sizeof *cs;
  free(m->cs), free(m->sn);
  m->cs = cs, m->sn = sn, m->rot = sc->rot, m->half = sc->p.layout == RL_LAYOUT_HALF;
  m->have_rope = 1;
  return RL_OK;
}

/* Layer l's slice of an activation tensor of the full (batch, max_T) size. */
static double *act(rl_train_model *m, double *const *arr, int i, size_t l)
{
  size_t L = m->cfg.layers;
  return arr[i] + l * (m->asize[i] / L);
}

double rl_train_forward(rl_train_model *m, const int *inp, const int *tgt, size_t B, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, V = c->vocab, N = B * T;
  if (B > c->batch || T > c->max_T || (c->pos == RL_TPOS_ROPE && !m->have_rope))
    return NAN;
  m->B = B, m->T = T;
  memcpy(m->inp, inp, N * sizeof *inp);
  memcpy(m->tgt, tgt, N * sizeof *tgt);
  double *const *a = m->a;
  rl_tl_encoder_forward(a[A_ENC], inp, m->p[P_WTE],
                        c->pos == RL_TPOS_LEARNED ? m->p[P_WPE] : m->pe, B, T, D);
  if (c->pos == RL_TPOS_ALIBI)
    rl_tl_alibi_bias(m->bias, m->slopes, H, T);
  if (c->pos == RL_TPOS_T5)
    rl_tl_t5_forward(m->bias, m->p[P_T5], H, T, c->num_buckets, c->max_distance);
  const double *res = a[A_ENC];
  for (size_t l = 0; l < c->layers; l++) {
    double *ln1 = act(m, a, A_LN1, l), *qkv = act(m, a, A_QKV, l);
    double *qkvr = c->pos == RL_TPOS_ROPE ? act(m, a, A_QKVR, l) : qkv;
    double *atty = act(m, a, A_ATTY, l), *attproj = act(m, a, A_ATTPROJ, l);
    double *res2 = act(m, a, A_RES2, l), *ln2 = act(m, a, A_LN2, l);
    double *fch = act(m, a, A_FCH, l), *fchg = act(m, a, A_FCHG, l);
    double *fcproj = act(m, a, A_FCPROJ, l), *res3 = act(m, a, A_RES3, l);
    rl_tl_layernorm_forward(ln1, act(m, a, A_LN1M, l), act(m, a, A_LN1R, l), res,
                            m->p[P_LN1W] + l * D, m->p[P_LN1B] + l * D, N, D);
    rl_tl_matmul_forward(qkv, ln1, m->p[P_QKVW] + l * 3 * D * D, m->p[P_QKVB] + l * 3 * D, N, D,
                         3 * D);
    if (c->pos == RL_TPOS_ROPE)
      rl_tl_rope_forward(qkvr, qkv, m->cs, m->sn, B, T, D, H, m->rot, m->half);
    rl_tl_attention_forward(atty, act(m, a, A_PRE, l), act(m, a, A_ATT, l), qkvr, m->bias, B, T,
                            D, H);
    rl_tl_matmul_forward(attproj, atty, m->p[P_ATTPROJW] + l * D * D, m->p[P_ATTPROJB] + l * D,
                         N, D, D);
    rl_tl_residual_forward(res2, res, attproj, N * D);
    rl_tl_layernorm_forward(ln2, act(m, a, A_LN2M, l), act(m, a, A_LN2R, l), res2,
                            m->p[P_LN2W] + l * D, m->p[P_LN2B] + l * D, N, D);
    rl_tl_matmul_forward(fch, ln2, m->p[P_FCW] + l * 4 * D * D, m->p[P_FCB] + l * 4 * D, N, D,
                         4 * D);
    rl_tl_gelu_forward(fchg, act(m, a, A_FCHT, l), fch, N * 4 * D);
    rl_tl_matmul_forward(fcproj, fchg, m->p[P_FCPROJW] + l * 4 * D * D, m->p[P_FCPROJB] + l * D,
                         N, 4 * D, D);
    rl_tl_residual_forward(res3, res2, fcproj, N * D);
    res = res3;
  }
  rl_tl_layernorm_forward(a[A_LNF], a[A_LNFM], a[A_LNFR], res, m->p[P_LNFW], m->p[P_LNFB], N, D);
  rl_tl_matmul_forward(a[A_LOGITS], a[A_LNF], m->p[P_WTE], NULL, N, D, V);
  m->mean_loss = rl_tl_crossentropy_forward(a[A_LOSSES], a[A_PROBS], a[A_LOGITS], tgt, N, V);
  return m->mean_loss;
}

void rl_train_zero_grad(rl_train_model *m) { memset(m->grads, 0, m->np * sizeof *m->grads); }

void rl_train_backward(rl_train_model *m)
{
  const rl_train_cfg *c = &m->cfg;
  size_t B = m->B, T = m->T, D = c->d_model, H = c->heads, V = c->vocab, N = B * T;
  size_t L = c->layers;
  double *const *a = m->a, *const *da = m->da;
  memset(m->dacts, 0, m->na * sizeof *m->dacts);
  if (m->dbias)
    memset(m->dbias, 0, H * T * T * sizeof *m->dbias);
  rl_tl_crossentropy_backward(da[A_LOGITS], a[A_PROBS], m->tgt, N, V);
  rl_tl_matmul_backward(da[A_LNF], m->g[P_WTE], NULL, da[A_LOGITS], a[A_LNF], m->p[P_WTE], N, D,
                        V);
  double *res = act(m, a, A_RES3, L - 1), *dres = act(m, da, A_RES3, L - 1);
  rl_tl_layernorm_backward(dres, m->g[P_LNFW], m->g[P_LNFB], da[A_LNF], res, m->p[P_LNFW],
                           a[A_LNFM], a[A_LNFR], N, D);
  for (size_t l = L; l-- > 0;) {
    double *resin = l ? act(m, a, A_RES3, l - 1) : a[A_ENC];
    double *dresin = l ? act(m, da, A_RES3, l - 1) : da[A_ENC];
    double *dres3 = act(m, da, A_RES3, l);
    double *res2 = act(m, a, A_RES2, l), *dres2 = act(m, da, A_RES2, l);
    double *qkv = act(m, a, A_QKV, l), *dqkv = act(m, da, A_QKV, l);
    int rope = c->pos == RL_TPOS_ROPE;
    double *qkvr = rope ? act(m, a, A_QKVR, l) : qkv, *dqkvr = rope ? act(m, da, A_QKVR, l) : dqkv;
    rl_tl_residual_backward(dres2, act(m, da, A_FCPROJ, l), dres3, N * D);
    rl_tl_matmul_backward(act(m, da, A_FCHG, l), m->g[P_FCPROJW] + l * 4 * D * D,
                          m->g[P_FCPROJB] + l * D, act(m, da, A_FCPROJ, l), act(m, a, A_FCHG, l),
                          m->p[P_FCPROJW] + l * 4 * D * D, N, 4 * D, D);
    rl_tl_gelu_backward(act(m, da, A_FCH, l), act(m, a, A_FCH, l), act(m, a, A_FCHT, l),
                        act(m, da, A_FCHG, l), N * 4 * D);
    rl_tl_matmul_backward(act(m, da, A_LN2, l), m->g[P_FCW] + l * 4 * D * D,
                          m->g[P_FCB] + l * 4 * D, act(m, da, A_FCH, l), act(m, a, A_LN2, l),
                          m->p[P_FCW] + l * 4 * D * D, N, D, 4 * D);
    rl_tl_layernorm_backward(dres2, m->g[P_LN2W] + l * D, m->g[P_LN2B] + l * D,
                             act(m, da, A_LN2, l), res2, m->p[P_LN2W] + l * D,
                             act(m, a, A_LN2M, l), act(m, a, A_LN2R, l), N, D);
    rl_tl_residual_backward(dresin, act(m, da, A_ATTPROJ, l), dres2, N * D);
    rl_tl_matmul_backward(act(m, da, A_ATTY, l), m->g[P_ATTPROJW] + l * D * D,
                          m->g[P_ATTPROJB] + l * D, act(m, da, A_ATTPROJ, l),
                          act(m, a, A_ATTY, l), m->p[P_ATTPROJW] + l * D * D, N, D, D);
    rl_tl_attention_backward(dqkvr, c->pos == RL_TPOS_T5 ? m->dbias : NULL, m->dpre, m->datt,
                             act(m, da, A_ATTY, l), qkvr, act(m, a, A_ATT, l), B, T, D, H);
    if (rope)
      rl_tl_rope_backward(dqkv, dqkvr, m->cs, m->sn, B, T, D, H, m->rot, m->half);
    rl_tl_matmul_backward(act(m, da, A_LN1, l), m->g[P_QKVW] + l * 3 * D * D,
                          m->g[P_QKVB] + l * 3 * D, dqkv, act(m, a, A_LN1, l),
                          m->p[P_QKVW] + l * 3 * D * D, N, D, 3 * D);
    rl_tl_layernorm_backward(dresin, m->g[P_LN1W] + l * D, m->g[P_LN1B] + l * D,
                             act(m, da, A_LN1, l), resin, m->p[P_LN1W] + l * D,
                             act(m, a, A_LN1M, l), act(m, a, A_LN1R, l), N, D);
  }
  if (c->pos == RL_TPOS_T5)
    rl_tl_t5_backward(m->g[P_T5], m->dbias, H, T, c->num_buckets, c->max_distance);
  rl_tl_encoder_backward(m->g[P_WTE], c->pos == RL_TPOS_LEARNED ? m->g[P_WPE] : NULL, da[A_ENC],
                         m->inp, B, T, D);
}

void rl_adamw_default(rl_adamw *a)
{
  a->beta1 = 0.9, a->beta2 = 0.99, a->eps = 1e-8, a->weight_decay = 0.1, a->clip = 1.0;
}

double rl_train_update(rl_train_model *m, const rl_adamw *a, double lr)
{
  double ss = 0;
  for (size_t i = 0; i < m->np; i++)
    ss += m->grads[i] * m->grads[i];
  double norm = sqrt(ss), gs = a->clip > 0 && norm > a->clip ? a->clip / norm : 1.0;
  m->step++;
  double bc1 = 1.0 - pow(a->beta1, (double)m->step), bc2 = 1.0 - pow(a->beta2, (double)m->step);
  for (int k = 0; k < P_COUNT; k++) {
    int decay = k == P_WTE || k == P_WPE || k == P_QKVW || k == P_ATTPROJW || k == P_FCW ||
                k == P_FCPROJW;
    size_t off = (size_t)(m->p[k] - m->params);
    for (size_t i = off; i < off + m->psize[k]; i++) {
      double g = m->grads[i] * gs;
      m->m1[i] = a->beta1 * m->m1[i] + (1 - a->beta1) * g;
      m->m2[i] = a->beta2 * m->m2[i] + (1 - a->beta2) * g * g;
      double upd = (m->m1[i] / bc1) / (sqrt(m->m2[i] / bc2) + a->eps);
      m->params[i] -= lr * (upd + (decay ? a->weight_decay * m->params[i] : 0.0));
    }
  }
  return norm;
}

double rl_train_lr(size_t step, size_t steps, size_t warmup, double lr, double min_lr)
{
  if (step < warmup)
    return lr * (double)(step + 1) / (double)warmup;
  if (steps <= warmup + 1)
    return lr;
  double prog = (double)(step - warmup) / (double)(steps - 1 - warmup);
  if (prog > 1)
    prog = 1;
  return min_lr + 0.5 * (lr - min_lr) * (1.0 + cos(3.14159265358979323846 * prog));
}

/* ---- for train_run.h: the checkpoint's access to AdamW's state, and
 * the scan for the first non-finite value ---------------------------- */

double *rl_train_moment(rl_train_model *m, int which) { return which == 1 ? m->m1 : m->m2; }
uint64_t rl_train_get_step(const rl_train_model *m) { return m->step; }
void rl_train_set_step(rl_train_model *m, uint64_t step) { m->step = (size_t)step; }

static int all_finite(const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}

int rl_train_find_nonfinite(const rl_train_model *m, char *where, size_t n)
{
  const rl_train_cfg *c = &m->cfg;
  size_t BT = m->B * m->T, L = c->layers, H = c->heads;
  /* the per-layer tensors in the order the forward writes them; rows of
   * (batch, max_T) slices of which the last forward used B T */
  static const struct { int i; const char *name; } per[] = {
    {A_LN1, "ln1"}, {A_QKV, "qkv"}, {A_QKVR, "qkv after rope"}, {A_PRE, "attention logits"},
    {A_ATT, "attention weights"}, {A_ATTY, "attention output"}, {A_ATTPROJ, "attention projection"},
    {A_RES2, "residual after attention"}, {A_LN2, "ln2"}, {A_FCH, "mlp fc"}, {A_FCHG, "mlp gelu"},
    {A_FCPROJ, "mlp projection"}, {A_RES3, "residual after mlp"}};
  if (!all_finite(m->a[A_ENC], BT * c->d_model)) {
    snprintf(where, n, "embedding (token + position)");
    return 1;
  }
  for (size_t l = 0; l < L; l++)
    for (size_t k = 0; k < sizeof per / sizeof *per; k++) {
      int i = per[k].i;
      size_t slice = m->asize[i] / L, used;
      if (!slice)
        continue;
      if (i == A_PRE || i == A_ATT)
        used = m->B * H * m->T * m->T;
      else
        used = slice / (c->batch * c->max_T) * BT;
      if (!all_finite(m->a[i] + l * slice, used)) {
        snprintf(where, n, "layer %zu %s", l, per[k].name);
        return 1;
      }
    }
  static const struct { int i; const char *name; } fin[] = {
    {A_LNF, "final layernorm"}, {A_LOGITS, "logits"}, {A_PROBS, "probabilities"}};
  for (size_t k = 0; k < 3; k++) {
    size_t w = m->asize[fin[k].i] / (c->batch * c->max_T);
    if (!all_finite(m->a[fin[k].i], w * BT)) {
      snprintf(where, n, "%s", fin[k].name);
      return 1;
    }
  }
  return 0;
}

int rl_train_find_nonfinite_params(const rl_train_model *m, int which, char *where, size_t n)
{
  static const char *const names[P_COUNT] = {
    [P_WTE] = "token embedding", [P_WPE] = "position table", [P_LN1W] = "ln1 weight",
    [P_LN1B] = "ln1 bias", [P_QKVW] = "qkv weight", [P_QKVB] = "qkv bias",
    [P_ATTPROJW] = "attention projection weight", [P_ATTPROJB] = "attention projection bias",
    [P_LN2W] = "ln2 weight", [P_LN2B] = "ln2 bias", [P_FCW] = "mlp fc weight",
    [P_FCB] = "mlp fc bias", [P_FCPROJW] = "mlp projection weight",
    [P_FCPROJB] = "mlp projection bias", [P_LNFW] = "final layernorm weight",
    [P_LNFB] = "final layernorm bias", [P_T5] = "t5 bias"};
  double *const *t = which ? m->g : m->p;
  size_t L = m->cfg.layers;
  /* in the order the forward reads them: embeddings and t5's bias, each
   * layer's tensors, the final norm */
  static const int pre[] = {P_WTE, P_WPE, P_T5}, post[] = {P_LNFW, P_LNFB};
  for (size_t k = 0; k < 3; k++)
    if (!all_finite(t[pre[k]], m->psize[pre[k]])) {
      snprintf(where, n, "%s", names[pre[k]]);
      return 1;
    }
  for (size_t l = 0; l < L; l++)
    for (int k = P_LN1W; k <= P_FCPROJB; k++) {
      size_t per = m->psize[k] / L;
      if (!all_finite(t[k] + l * per, per)) {
        snprintf(where, n, "layer %zu %s", l, names[k]);
        return 1;
      }
    }
  for (size_t k = 0; k < 2; k++)
    if (!all_finite(t[post[k]], m->psize[post[k]])) {
      snprintf(where, n, "%s", names[post[k]]);
      return 1;
    }
  return 0;
}
