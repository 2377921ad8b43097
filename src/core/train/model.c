/* model.c: the trainer's decoder (ropelab/train.h): parameters and
 * activations laid out once (model_impl.h), the chunks planned and run on
 * the threads (each chunk's forward and backward: model_chunk.h, in the
 * model's dtype), AdamW on the float64 master weights. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layers.h"
#include "ropelab.h"
#include "model_impl.h"
#include "pos_impl.h"
#include "ropelab.h"
#include "../base/internal.h"

static const char *const dtype_names[RL_TDTYPE_COUNT + 1] = {"float64", "float32", NULL};
const char *const *rl_train_dtype_names(void) { return dtype_names; }

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
const double *rl_train_probs(const rl_train_model *m) { return m->probs_out; }
const double *rl_train_losses(const rl_train_model *m) { return m->losses_out; }
double rl_train_flops(const rl_train_model *m) { return m->flops; }

/* A view's arrays (the float64 view's weights and gradient are the
 * master arrays, freed once). */
#define FREE_VIEW(v, own)                                                                  \
  do {                                                                                     \
    if (own)                                                                               \
      free(v.params), free(v.grads);                                                       \
    free(v.acts), free(v.dacts), free(v.dpre), free(v.tgrads), free(v.tbias), free(v.tdbias); \
    for (size_t t = 0; v.scr && t < m->cfg.threads; t++) {                                 \
      free(v.scr[t].idx), free(v.scr[t].A), free(v.scr[t].Bt), free(v.scr[t].dA);           \
      free(v.scr[t].dBt), free(v.scr[t].proj), free(v.scr[t].dproj), free(v.scr[t].pbar);   \
      free(v.scr[t].pm), free(v.scr[t].pr), free(v.scr[t].pq), free(v.scr[t].pk);           \
      free(v.scr[t].dpq), free(v.scr[t].dpk), free(v.scr[t].dpbar), free(v.scr[t].ones);    \
      free(v.scr[t].zeros), free(v.scr[t].dw), free(v.scr[t].db), free(v.scr[t].work);      \
    }                                                                                      \
    free(v.scr);                                                                           \
  } while (0)

void rl_train_free(rl_train_model *m)
{
  if (!m)
    return;
  free(m->params), free(m->grads), free(m->m1), free(m->m2);
  free(m->pe), free(m->slopes), free(m->cs), free(m->sn), free(m->xlR);
  free(m->inp), free(m->tgt);
  free(m->perm), free(m->rowlen), free(m->ch);
  free(m->probs_out), free(m->losses_out);
  FREE_VIEW(m->d, 0);
  FREE_VIEW(m->f, 1);
  free(m->f.pe), free(m->f.slopes), free(m->f.cs), free(m->f.sn), free(m->f.xlR);
  free(m);
}
#undef FREE_VIEW

static double *zalloc(rl_train_model *m, size_t n, int *oom)
{
  double *p = calloc(n ? n : 1, sizeof *p);
  if (!p)
    *oom = 1;
  m->bytes += n * sizeof *p;
  return p;
}

double *rl_tm_table(rl_train_model *m, size_t n, int *oom) { return zalloc(m, n, oom); }

static float *fzalloc(rl_train_model *m, size_t n, int *oom)
{
  float *p = calloc(n ? n : 1, sizeof *p);
  if (!p)
    *oom = 1;
  m->bytes += n * sizeof *p;
  return p;
}

/* A float copy of n values of x (rounded to nearest), or NULL when n is 0. */
static float *fcopy(rl_train_model *m, const double *x, size_t n, int *oom)
{
  if (!n)
    return NULL;
  float *p = fzalloc(m, n, oom);
  for (size_t i = 0; p && i < n; i++)
    p[i] = (float)x[i];
  return p;
}

/* The sizes of the parameter and activation tensors of a configuration
 * rl_train_new accepts (every product below 2^57: 64 layers x 4096^4). */
static void sizes(const rl_train_cfg *c, size_t ps[P_COUNT], size_t as[A_COUNT])
{
  size_t V = c->vocab, D = c->d_model, L = c->layers, H = c->heads, T = c->max_T;
  size_t BT = c->batch * T;
  const rl_tpos *sp = rl_tpos_at(c->pos);
  size_t p[P_COUNT] = {
    [P_WTE] = V * D,
    [P_LN1W] = L * D, [P_LN1B] = L * D, [P_QKVW] = L * 3 * D * D, [P_QKVB] = L * 3 * D,
    [P_ATTPROJW] = L * D * D, [P_ATTPROJB] = L * D, [P_LN2W] = L * D, [P_LN2B] = L * D,
    [P_FCW] = L * 4 * D * D, [P_FCB] = L * 4 * D, [P_FCPROJW] = L * D * 4 * D,
    [P_FCPROJB] = L * D, [P_LNFW] = D, [P_LNFB] = D};
  if (sp && sp->param_sizes) /* the scheme's own tensors */
    sp->param_sizes(c, p);
  size_t a[A_COUNT] = {
    [A_ENC] = BT * D, [A_LN1] = L * BT * D, [A_LN1M] = L * BT, [A_LN1R] = L * BT,
    [A_QKV] = L * BT * 3 * D, [A_QKVR] = sp && sp->rotate ? L * BT * 3 * D : 0,
    [A_ATTY] = L * BT * D, [A_PRE] = L * c->batch * H * T * T, [A_ATT] = L * c->batch * H * T * T,
    [A_ATTPROJ] = L * BT * D, [A_RES2] = L * BT * D, [A_LN2] = L * BT * D, [A_LN2M] = L * BT,
    [A_LN2R] = L * BT, [A_FCH] = L * BT * 4 * D, [A_FCHT] = L * BT * 4 * D,
    [A_FCHG] = L * BT * 4 * D,
    [A_FCPROJ] = L * BT * D, [A_RES3] = L * BT * D, [A_LNF] = BT * D, [A_LNFM] = BT,
    [A_LNFR] = BT, [A_LOGITS] = BT * V, [A_PROBS] = BT * V, [A_LOSSES] = BT};
  memcpy(ps, p, sizeof p);
  memcpy(as, a, sizeof a);
}

size_t rl_train_cfg_nparams(const rl_train_cfg *c)
{
  size_t ps[P_COUNT], as[A_COUNT], n = 0;
  sizes(c, ps, as);
  for (int i = 0; i < P_COUNT; i++)
    n += ps[i];
  return n;
}

double rl_train_cfg_bytes(const rl_train_cfg *c)
{
  size_t ps[P_COUNT], as[A_COUNT];
  sizes(c, ps, as);
  double np = 0, na = 0, H = (double)c->heads, T = (double)c->max_T, BT = (double)(c->batch * c->max_T);
  for (int i = 0; i < P_COUNT; i++)
    np += (double)ps[i];
  for (int i = 0; i < A_COUNT; i++)
    na += (double)as[i] * (rl_tm_has_grad(i) ? 2 : 1);
  double nt = (double)c->threads, attn = (double)c->batch * H * T * T;
  const rl_tpos *sp = rl_tpos_at(c->pos);
  int bias = sp && sp->bias != RL_TPB_NONE;
  /* parameters, gradients, two moments, the caller's probabilities and
   * losses; the threads' gradients, activations and their gradients,
   * dpre, the threads' biases */
  double compute = (nt - 1) * np + na + attn + (bias ? 2 * nt * H * T * T : 0);
  double words = 4 * np + BT * (double)c->vocab + BT;
  /* float64: the compute arrays are words, the weights and gradient the
   * master ones; float32: floats, with their own weights and gradient */
  if (c->dtype == RL_TDTYPE_FLOAT32)
    return 8 * words + 4 * (compute + 2 * np);
  return 8 * (words + compute);
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
  if (!c->threads || c->threads > 64 || !c->chunks || c->chunks > 4096)
    return fail(err, RL_EINVAL, "invalid threads/chunks '%zu/%zu': expected 1..64, 1..4096",
                c->threads, c->chunks);
  if ((unsigned)c->dtype >= RL_TDTYPE_COUNT)
    return fail(err, RL_EINVAL, "invalid dtype '%d': expected float64 or float32", c->dtype);
  const rl_tpos *sp = rl_tpos_at(c->pos);
  if (!sp)
    return fail(err, RL_EINVAL, "invalid scheme '%d'", (int)c->pos);
  rl_status st;
  if (sp->check && (st = sp->check(c, err)) != RL_OK)
    return st;
  rl_blas_load(); /* here, before any thread of the forward starts (base/internal.h, base/blas.c) */
  rl_train_model *m = calloc(1, sizeof *m);
  if (!m)
    return RL_ENOMEM;
  m->cfg = *c;
  m->ps = sp;
  size_t V = c->vocab, D = c->d_model, L = c->layers, H = c->heads, T = c->max_T;
  size_t BT = c->batch * T;
  size_t ps[P_COUNT], as[A_COUNT];
  sizes(c, ps, as);
  memcpy(m->psize, ps, sizeof ps);
  memcpy(m->asize, as, sizeof as);
  for (int i = 0; i < P_COUNT; i++)
    m->np += ps[i];
  for (int i = 0; i < A_COUNT; i++)
    m->na += as[i], m->nda += rl_tm_has_grad(i) ? as[i] : 0;
  int oom = 0;
  m->f32 = c->dtype == RL_TDTYPE_FLOAT32;
  m->params = zalloc(m, m->np, &oom), m->grads = zalloc(m, m->np, &oom);
  m->m1 = zalloc(m, m->np, &oom), m->m2 = zalloc(m, m->np, &oom);
  m->probs_out = zalloc(m, BT * V, &oom), m->losses_out = zalloc(m, BT, &oom);
  m->inp = calloc(BT, sizeof *m->inp), m->tgt = calloc(BT, sizeof *m->tgt);
  m->perm = calloc(c->batch, sizeof *m->perm), m->rowlen = calloc(c->batch, sizeof *m->rowlen);
  m->ch = calloc(c->chunks, sizeof *m->ch);
  m->bytes += 2 * BT * sizeof *m->inp + 2 * c->batch * sizeof *m->perm + c->chunks * sizeof *m->ch;
  size_t nt = c->threads;
  int bias = sp->bias != RL_TPB_NONE;
  /* a per-thread scratch: the relative terms' or tupe's */
  int rel = sp->rel != RL_TPR_NONE || sp->bias == RL_TPB_ABSPAIR;
  if (sp->rel_rows)
    m->nrel = sp->rel_rows(c);
  /* the compute arrays of the model's dtype (model_impl.h): v is m->d
   * or m->f, za the allocator of its type; the float64 view's weights
   * and gradient are the master arrays */
#define ALLOC_VIEW(v, za, own)                                                               \
  do {                                                                                       \
    if (own)                                                                                 \
      v.params = za(m, m->np, &oom), v.grads = za(m, m->np, &oom);                           \
    v.acts = za(m, m->na, &oom), v.dacts = za(m, m->nda, &oom);                              \
    v.dpre = za(m, c->batch * H * T * T, &oom);                                              \
    if (bias)                                                                                \
      v.tbias = za(m, nt * H * T * T, &oom), v.tdbias = za(m, nt * H * T * T, &oom);         \
    v.tgrads = za(m, (nt - 1) * m->np, &oom);                                                \
    if (rel) {                                                                               \
      size_t hd_ = D / H, nr_ = m->nrel;                                                     \
      v.scr = calloc(nt, sizeof *v.scr);                                                     \
      m->bytes += nt * sizeof *v.scr;                                                        \
      oom |= !v.scr;                                                                         \
      for (size_t t = 0; v.scr && t < nt; t++) {                                             \
        v.scr[t].idx = calloc(T * T, sizeof *v.scr[t].idx);                                  \
        m->bytes += T * T * sizeof *v.scr[t].idx;                                            \
        oom |= !v.scr[t].idx;                                                                \
        if (sp->rel != RL_TPR_NONE) {                                                        \
          v.scr[t].A = za(m, H * nr_ * hd_, &oom), v.scr[t].Bt = za(m, H * nr_ * hd_, &oom); \
          v.scr[t].dA = za(m, H * nr_ * hd_, &oom);                                          \
          v.scr[t].dBt = za(m, H * nr_ * hd_, &oom);                                         \
          v.scr[t].work = m->f32 ? za(m, RL_TL_REL_WORK(T, nr_, hd_), &oom) : NULL;        \
          v.scr[t].proj = za(m, nr_ * 3 * D, &oom), v.scr[t].dproj = za(m, nr_ * 3 * D, &oom); \
        } else {                                                                             \
          v.scr[t].pbar = za(m, T * D, &oom), v.scr[t].pm = za(m, T, &oom);                  \
          v.scr[t].pr = za(m, T, &oom), v.scr[t].pq = za(m, T * D, &oom);                    \
          v.scr[t].pk = za(m, T * D, &oom), v.scr[t].dpq = za(m, T * D, &oom);               \
          v.scr[t].dpk = za(m, T * D, &oom), v.scr[t].dpbar = za(m, T * D, &oom);            \
          v.scr[t].ones = za(m, D, &oom), v.scr[t].zeros = za(m, D, &oom);                   \
          v.scr[t].dw = za(m, D, &oom), v.scr[t].db = za(m, D, &oom);                        \
          for (size_t i = 0; v.scr[t].ones && i < D; i++)                                    \
            v.scr[t].ones[i] = 1;                                                            \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
    if (!oom) {                                                                              \
      size_t off_ = 0, doff_ = 0;                                                            \
      for (int i = 0; i < P_COUNT; i++) {                                                    \
        v.p[i] = v.params + off_, v.g[i] = v.grads + off_;                                   \
        off_ += ps[i];                                                                       \
      }                                                                                      \
      off_ = 0;                                                                              \
      for (int i = 0; i < A_COUNT; i++) {                                                    \
        v.a[i] = v.acts + off_, v.da[i] = rl_tm_has_grad(i) ? v.dacts + doff_ : NULL;        \
        off_ += as[i], doff_ += rl_tm_has_grad(i) ? as[i] : 0;                               \
      }                                                                                      \
    }                                                                                        \
  } while (0)
  m->d.params = m->params, m->d.grads = m->grads;
  if (m->f32)
    ALLOC_VIEW(m->f, fzalloc, 1);
  else
    ALLOC_VIEW(m->d, zalloc, 0);
#undef ALLOC_VIEW
  if (oom || !m->inp || !m->tgt || !m->perm || !m->rowlen || !m->ch) {
    rl_train_free(m);
    return RL_ENOMEM;
  }
  size_t off = 0;
  for (int i = 0; i < P_COUNT; i++) {
    m->p[i] = m->params + off, m->g[i] = m->grads + off;
    off += ps[i];
  }
  /* GPT-2's initialisation (as llm.c's train_gpt2.py): N(0, 0.02^2), the
   * residual projections scaled by 1/sqrt(2L), norms 1, biases 0. */
  rl_train_rng r;
  rl_train_rng_seed(&r, c->seed);
  static const int normal[] = {P_WTE,  P_WPE, P_QKVW, P_ATTPROJW, P_FCW,   P_FCPROJW, P_T5,
                               P_XLW,  P_XLU, P_XLV,  P_DEB,      P_TUPE, P_TUPEQ,   P_TUPEK};
  for (size_t k = 0; k < sizeof normal / sizeof *normal; k++) {
    int i = normal[k];
    /* TUPE's U_q, U_k too: at N(0, 1/D), as the core's rel.c draws
     * them, the positional logit starts O(1) and, shared by every layer,
     * gives all layers the same random pattern; copy at L = 20 then
     * reached 0.740 (seed 1) and stalled at 0.28 loss (seed 2) in 2500
     * steps, with 0.02 0.959 and 0.984 (experiments/copy_all/README.md) */
    double sd = i == P_ATTPROJW || i == P_FCPROJW ? 0.02 / sqrt(2.0 * (double)L) : 0.02;
    for (size_t j = 0; j < ps[i]; j++)
      m->p[i][j] = sd * rl_train_rng_normal(&r);
  }
  static const int ones[] = {P_LN1W, P_LN2W, P_LNFW};
  for (size_t k = 0; k < 3; k++)
    for (size_t j = 0; j < ps[ones[k]]; j++)
      m->p[ones[k]][j] = 1.0;
  /* the scheme's fixed tables (pe, slopes, xlR) */
  if (sp->init && (st = sp->init(m, err)) != RL_OK) {
    rl_train_free(m);
    return st;
  }
  /* the fixed tables in the compute dtype */
  m->d.pe = m->pe, m->d.slopes = m->slopes, m->d.xlR = m->xlR;
  if (m->f32) {
    m->f.pe = fcopy(m, m->pe, m->pe ? T * D : 0, &oom);
    m->f.slopes = fcopy(m, m->slopes, m->slopes ? H : 0, &oom);
    m->f.xlR = fcopy(m, m->xlR, m->xlR ? T * (D / H) : 0, &oom);
    if (oom) {
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
  if (!m->ps->rotate)
    return fail(err, RL_EINVAL, "invalid schedule for scheme '%s': only rope takes one",
                m->ps->name);
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
  float *fcs = NULL, *fsn = NULL;
  if (m->f32) { /* the float32 view's table: the float64 one rounded */
    int oom = 0;
    size_t k = m->bytes;
    fcs = fcopy(m, cs, T * (n ? n : 1), &oom), fsn = fcopy(m, sn, T * (n ? n : 1), &oom);
    m->bytes = k;
    if (oom) {
      free(cs), free(sn), free(fcs), free(fsn);
      return RL_ENOMEM;
    }
  }
  if (!m->cs)
    m->bytes += 2 * T * n * (sizeof *cs + (m->f32 ? sizeof *fcs : 0));
  free(m->cs), free(m->sn), free(m->f.cs), free(m->f.sn);
  m->cs = cs, m->sn = sn, m->rot = sc->rot, m->half = sc->p.layout == RL_LAYOUT_HALF;
  m->d.cs = cs, m->d.sn = sn, m->f.cs = fcs, m->f.sn = fsn;
  m->have_rope = 1;
  return RL_OK;
}


/* The rows sorted by the positions they use, cut into chunks; chunk k
 * runs on thread (k / nt even ? k % nt : nt - 1 - k % nt), a snake over
 * the sorted lengths that gives each thread a like share. */
static void plan(rl_train_model *m, const int *inp, const int *tgt, size_t B, size_t T)
{
  size_t nt = m->cfg.threads, nact = 0;
  m->count = 0;
  for (size_t b = 0; b < B; b++) {
    size_t len = 0;
    for (size_t t = 0; t < T; t++)
      if (tgt[b * T + t] >= 0)
        len = t + 1, m->count++;
    m->rowlen[b] = len;
    /* insertion by (len, b): stable, so the order is a function of the batch */
    size_t i = nact++;
    while (i > 0 && m->rowlen[m->perm[i - 1]] > len) {
      m->perm[i] = m->perm[i - 1];
      i--;
    }
    m->perm[i] = b;
  }
  size_t first = 0; /* rows with no target change nothing: left out */
  while (first < B && !m->rowlen[m->perm[first]])
    first++;
  size_t n = B - first, nch = m->cfg.chunks < n ? m->cfg.chunks : n, off = 0, aoff = 0;
  size_t H = m->cfg.heads;
  for (size_t k = 0; k < nch; k++) {
    struct rl_tm_chunk *ck = &m->ch[k];
    ck->b0 = first + k * n / nch;
    ck->Bc = first + (k + 1) * n / nch - ck->b0;
    ck->Tc = m->rowlen[m->perm[ck->b0 + ck->Bc - 1]];
    ck->off = off, ck->aoff = aoff;
    off += ck->Bc * ck->Tc, aoff += ck->Bc * H * ck->Tc * ck->Tc;
    size_t round = k / nt, i = k % nt;
    ck->thread = round % 2 ? nt - 1 - i : i;
    for (size_t j = 0; j < ck->Bc; j++) {
      size_t b = m->perm[ck->b0 + j];
      memcpy(m->inp + ck->off + j * ck->Tc, inp + b * T, ck->Tc * sizeof *inp);
      memcpy(m->tgt + ck->off + j * ck->Tc, tgt + b * T, ck->Tc * sizeof *tgt);
    }
  }
  m->nch = nch;
}

/* FLOPs of a chunk's forward (x1) or backward (x2): the matrix products
 * 2 N C OC each, and attention's q.k and att v, 2 hd per causal pair
 * each; elementwise work not counted (llm.c's and PaLM's convention). */
static double chunk_flops(const rl_train_model *m, const struct rl_tm_chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  double N = (double)(k->Bc * k->Tc), D = (double)c->d_model, V = (double)c->vocab;
  double pairs = (double)k->Bc * (double)(k->Tc * (k->Tc + 1) / 2);
  double per_layer = 2 * N * D * (3 * D + D + 4 * D + 4 * D) + 2 * 2 * pairs * D;
  return (double)c->layers * per_layer + 2 * N * D * V;
}

/* The relative index of a chunk (query t, key t2 <= t): the row the
 * scheme's rel_row gives distance t - t2 (pos_rel.c: xl the distance,
 * deberta its bucket in the table's upper half). */
void rl_tm_rel_index(const rl_train_model *m, size_t *idx, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++)
      idx[t * T + t2] = m->ps->rel_row(c, t - t2, m->nrel);
}


/* Every chunk of one thread, in chunk order. */
struct job {
  rl_train_model *m;
  size_t th;
  int backward;
};

static void *run_job(void *arg)
{
  struct job *j = arg;
  rl_train_model *m = j->m;
  if (j->backward && j->th) {
    if (m->f32)
      memset(m->f.tgrads + (j->th - 1) * m->np, 0, m->np * sizeof *m->f.tgrads);
    else
      memset(m->d.tgrads + (j->th - 1) * m->np, 0, m->np * sizeof *m->d.tgrads);
  }
  void (*run)(rl_train_model *, const struct rl_tm_chunk *) =
      j->backward ? (m->f32 ? rl_tm_chunk_backward_f : rl_tm_chunk_backward_d)
                  : (m->f32 ? rl_tm_chunk_forward_f : rl_tm_chunk_forward_d);
  for (size_t k = 0; k < m->nch; k++)
    if (m->ch[k].thread == j->th)
      run(m, &m->ch[k]);
  return NULL;
}

/* Thread 0 is the caller; a thread that cannot start has its chunks run
 * by the caller afterwards (the same arithmetic, so the same result). */
static void run_all(rl_train_model *m, int backward)
{
  size_t nt = m->cfg.threads;
  struct job jobs[64];
  pthread_t tid[64];
  int started[64] = {0};
  for (size_t th = 0; th < nt; th++)
    jobs[th] = (struct job){m, th, backward};
  for (size_t th = 1; th < nt; th++)
    started[th] = !pthread_create(&tid[th], NULL, run_job, &jobs[th]);
  run_job(&jobs[0]);
  for (size_t th = 1; th < nt; th++) {
    if (started[th])
      pthread_join(tid[th], NULL);
    else
      run_job(&jobs[th]);
  }
}

double rl_train_forward(rl_train_model *m, const int *inp, const int *tgt, size_t B, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  if (B > c->batch || T > c->max_T || (m->ps->rotate && !m->have_rope))
    return NAN;
  m->B = B, m->T = T;
  /* float32: the weights rounded from the master weights, each forward
   * (the caller may have changed them: an update, a checkpoint, a test) */
  for (size_t i = 0; m->f32 && i < m->np; i++)
    m->f.params[i] = (float)m->params[i];
  plan(m, inp, tgt, B, T);
  run_all(m, 0);
  if (m->f32)
    rl_tm_gather_f(m);
  else
    rl_tm_gather_d(m);
  for (size_t k = 0; k < m->nch; k++)
    m->flops += chunk_flops(m, &m->ch[k]);
  /* the mean in the caller's order: the same sum for any chunking */
  double total = 0;
  for (size_t i = 0; i < B * T; i++)
    total += m->losses_out[i];
  m->mean_loss = m->count ? total / (double)m->count : 0.0;
  return m->mean_loss;
}

void rl_train_zero_grad(rl_train_model *m)
{
  memset(m->grads, 0, m->np * sizeof *m->grads);
  if (m->f32)
    memset(m->f.grads, 0, m->np * sizeof *m->f.grads);
}

void rl_train_backward(rl_train_model *m)
{
  run_all(m, 1);
  /* the threads' gradients into the model's, in thread order: the same
   * sums for a thread count */
  for (size_t th = 1; th < m->cfg.threads; th++) {
    if (m->f32) {
      const float *g = m->f.tgrads + (th - 1) * m->np;
      for (size_t i = 0; i < m->np; i++)
        m->f.grads[i] += g[i];
    } else {
      const double *g = m->d.tgrads + (th - 1) * m->np;
      for (size_t i = 0; i < m->np; i++)
        m->grads[i] += g[i];
    }
  }
  /* float32: the gradient widened for AdamW and the caller (exact) */
  for (size_t i = 0; m->f32 && i < m->np; i++)
    m->grads[i] = m->f.grads[i];
  for (size_t k = 0; k < m->nch; k++)
    m->flops += 2 * chunk_flops(m, &m->ch[k]);
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
                k == P_FCPROJW || k == P_XLW || k == P_DEB || k == P_TUPE || k == P_TUPEQ ||
                k == P_TUPEK;
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

/* entries off.. off + n of activation tensor i of the model's dtype */
static int act_finite(const rl_train_model *m, int i, size_t off, size_t n)
{
  if (!m->f32)
    return all_finite(m->d.a[i] + off, n);
  for (size_t j = 0; j < n; j++)
    if (!isfinite(m->f.a[i][off + j]))
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
  if (!act_finite(m, A_ENC, 0, BT * c->d_model)) {
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
      if (!act_finite(m, i, l * slice, used)) {
        snprintf(where, n, "layer %zu %s", l, per[k].name);
        return 1;
      }
    }
  static const struct { int i; const char *name; } fin[] = {
    {A_LNF, "final layernorm"}, {A_LOGITS, "logits"}, {A_PROBS, "probabilities"}};
  for (size_t k = 0; k < 3; k++) {
    size_t w = m->asize[fin[k].i] / (c->batch * c->max_T);
    if (!act_finite(m, fin[k].i, 0, w * BT)) {
      snprintf(where, n, "%s", fin[k].name);
      return 1;
    }
  }
  return 0;
}

static const char *const param_names[P_COUNT] = {
    [P_WTE] = "token embedding", [P_WPE] = "position table", [P_LN1W] = "ln1 weight",
    [P_LN1B] = "ln1 bias", [P_QKVW] = "qkv weight", [P_QKVB] = "qkv bias",
    [P_ATTPROJW] = "attention projection weight", [P_ATTPROJB] = "attention projection bias",
    [P_LN2W] = "ln2 weight", [P_LN2B] = "ln2 bias", [P_FCW] = "mlp fc weight",
    [P_FCB] = "mlp fc bias", [P_FCPROJW] = "mlp projection weight",
    [P_FCPROJB] = "mlp projection bias", [P_LNFW] = "final layernorm weight",
    [P_LNFB] = "final layernorm bias", [P_T5] = "t5 bias",
    [P_XLW] = "xl relative projection", [P_XLU] = "xl u bias", [P_XLV] = "xl v bias",
    [P_DEB] = "deberta relative table", [P_TUPE] = "tupe position table",
    [P_TUPEQ] = "tupe query projection", [P_TUPEK] = "tupe key projection"};

/* per layer: the tensors between P_LN1W and P_FCPROJB, and xl's */
static int per_layer(int k)
{
  return (k >= P_LN1W && k <= P_FCPROJB) || k == P_XLW || k == P_XLU || k == P_XLV;
}

void rl_train_param_name(const rl_train_model *m, size_t i, char *where, size_t n)
{
  for (int k = 0; k < P_COUNT; k++) {
    size_t off = (size_t)(m->p[k] - m->params);
    if (i < off || i >= off + m->psize[k])
      continue;
    if (per_layer(k))
      snprintf(where, n, "layer %zu %s", (i - off) / (m->psize[k] / m->cfg.layers), param_names[k]);
    else
      snprintf(where, n, "%s", param_names[k]);
    return;
  }
  snprintf(where, n, "past the parameters");
}

int rl_train_find_nonfinite_params(const rl_train_model *m, int which, char *where, size_t n)
{
  const char *const *names = param_names;
  double *const *t = which ? m->g : m->p;
  size_t L = m->cfg.layers;
  /* in the order the forward reads them: embeddings and t5's bias, each
   * layer's tensors, the final norm */
  static const int pre[] = {P_WTE, P_WPE, P_T5, P_DEB, P_TUPE, P_TUPEQ, P_TUPEK},
                   post[] = {P_LNFW, P_LNFB}, xl[] = {P_XLW, P_XLU, P_XLV};
  for (size_t k = 0; k < sizeof pre / sizeof *pre; k++) /* absent tensors have size 0 */
    if (!all_finite(t[pre[k]], m->psize[pre[k]])) {
      snprintf(where, n, "%s", names[pre[k]]);
      return 1;
    }
  for (size_t l = 0; l < L; l++) {
    for (int k = P_LN1W; k <= P_FCPROJB; k++) {
      size_t per = m->psize[k] / L;
      if (!all_finite(t[k] + l * per, per)) {
        snprintf(where, n, "layer %zu %s", l, names[k]);
        return 1;
      }
    }
    for (size_t k = 0; k < 3; k++) { /* xl's per-layer relative terms */
      size_t per = m->psize[xl[k]] / L;
      if (per && !all_finite(t[xl[k]] + l * per, per)) {
        snprintf(where, n, "layer %zu %s", l, names[xl[k]]);
        return 1;
      }
    }
  }
  for (size_t k = 0; k < 2; k++)
    if (!all_finite(t[post[k]], m->psize[post[k]])) {
      snprintf(where, n, "%s", names[post[k]]);
      return 1;
    }
  return 0;
}

/* ---- measures on a trained model (issue 35 item 5) ------------------- */

rl_status rl_train_pos_bias(const rl_train_model *m, size_t h, size_t dist, double *out)
{
  const rl_train_cfg *c = &m->cfg;
  if (h >= c->heads)
    return RL_EINVAL;
  if (!m->ps->pos_bias) /* the scheme's (pos_bias.c) */
    return RL_EINVAL;
  *out = m->ps->pos_bias(m, h, dist);
  return RL_OK;
}

void rl_train_pair_norm_sums(const rl_train_model *m, double *q, double *k, size_t *count)
{
  if (m->f32)
    rl_tm_pair_norm_sums_f(m, q, k, count);
  else
    rl_tm_pair_norm_sums_d(m, q, k, count);
}

int rl_train_attn_rows(const rl_train_model *m, double *ent, double *dist)
{
  return m->f32 ? rl_tm_attn_rows_f(m, ent, dist) : rl_tm_attn_rows_d(m, ent, dist);
}

int rl_train_logit_rows(const rl_train_model *m, double *logit, double *norot)
{
  if (norot && !(m->ps->rotate && m->have_rope))
    norot = NULL;
  return m->f32 ? rl_tm_logit_rows_f(m, logit, norot) : rl_tm_logit_rows_d(m, logit, norot);
}
