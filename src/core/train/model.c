/* model.c: the trainer's decoder (ropelab/train.h): parameters and
 * activations laid out once, forward and backward calling the layers in
 * order (the gpt2_forward / gpt2_backward structure of llm.c's
 * train_gpt2.c), AdamW. */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layers.h"
#include "ropelab.h"

/* Parameter tensors, in the order of the one array. */
enum {
  P_WTE, P_WPE, P_LN1W, P_LN1B, P_QKVW, P_QKVB, P_ATTPROJW, P_ATTPROJB, P_LN2W, P_LN2B,
  P_FCW, P_FCB, P_FCPROJW, P_FCPROJB, P_LNFW, P_LNFB, P_T5,
  P_XLW, P_XLU, P_XLV, P_DEB, P_TUPE, P_TUPEQ, P_TUPEK, P_COUNT
};
/* Activation tensors (and their gradients, same layout). */
enum {
  A_ENC, A_LN1, A_LN1M, A_LN1R, A_QKV, A_QKVR, A_ATTY, A_PRE, A_ATT, A_ATTPROJ, A_RES2, A_LN2,
  A_LN2M, A_LN2R, A_FCH, A_FCHT, A_FCHG, A_FCPROJ, A_RES3, A_LNF, A_LNFM, A_LNFR, A_LOGITS, A_PROBS,
  A_LOSSES, A_COUNT
};

/* The tensors whose gradients the backward passes through.  The others
 * (norm statistics, GELU's tanh, attention logits and weights, whose
 * gradient goes through the scratch dpre, probabilities, losses) get no
 * gradient buffer: no memory and no zeroing per chunk. */
static int has_grad(int i)
{
  return !(i == A_LN1M || i == A_LN1R || i == A_LN2M || i == A_LN2R || i == A_LNFM ||
           i == A_LNFR || i == A_FCHT || i == A_PRE || i == A_ATT || i == A_PROBS ||
           i == A_LOSSES);
}

struct rl_train_model {
  rl_train_cfg cfg;
  size_t psize[P_COUNT], asize[A_COUNT], np, na, nda;
  double *params, *grads, *m1, *m2;
  double *p[P_COUNT], *g[P_COUNT];
  double *acts, *dacts;
  double *a[A_COUNT], *da[A_COUNT];
  double *pe;          /* sinusoidal table [max_T][D], or NULL */
  double *slopes;      /* alibi, H */
  double *cs, *sn;     /* rope table [max_T][rot/2] */
  size_t rot;
  int half, have_rope;
  double *dpre; /* attention logits' gradient, scratch, [batch][H][max_T][max_T] */
  int *inp, *tgt;      /* the chunks' rows, each chunk Bc x Tc */
  size_t B, T, step;
  double mean_loss, flops;
  size_t bytes;
  /* micro-batches ("chunks"): the rows sorted by the length they use
   * (through their last target: causal attention makes later positions
   * change no loss), cut into cfg.chunks groups run each at its own
   * length, on cfg.threads threads */
  size_t nch, *perm, *rowlen, count;
  struct chunk {
    size_t b0, Bc, Tc, off, aoff; /* sorted rows b0.., positions and attention entries before */
    size_t thread;
  } *ch;
  double *tgrads;        /* threads - 1 private gradients, np each */
  double *tbias, *tdbias; /* per thread [H][max_T][max_T] (t5, alibi) */
  double *probs_out, *losses_out; /* [B][T][V] and [B][T] in the caller's layout */
  double *xlR;           /* xl: R_r [max_T][hd], sines then cosines */
  size_t nrel;           /* xl: max_T; deberta: num_buckets (the key-before-query half) */
  struct scratch {       /* per thread, for xl, deberta and tupe */
    size_t *idx;         /* [max_T][max_T] relative index of a chunk */
    double *A, *Bt, *dA, *dBt; /* [H][nrel][hd] */
    double *proj, *dproj;      /* deberta: [nrel][3D] */
    double *pbar, *pm, *pr, *pq, *pk, *dpq, *dpk, *dpbar; /* tupe: [max_T][D] ([max_T]) */
    double *ones, *zeros, *dw, *db; /* tupe: the fixed LayerNorm's affine, [D] */
  } *scr;
};

/* NULL-terminated: the --scheme declaration (settings.c) reads them */
static const char *const pos_names[RL_TPOS_COUNT + 1] = {
    "nope", "sinusoidal", "learned", "t5", "alibi", "rope", "xl", "deberta", "tupe", NULL};
const char *const *rl_train_pos_names(void) { return pos_names; }

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

void rl_train_free(rl_train_model *m)
{
  if (!m)
    return;
  free(m->params), free(m->grads), free(m->m1), free(m->m2), free(m->acts), free(m->dacts);
  free(m->pe), free(m->slopes), free(m->cs), free(m->sn);
  free(m->dpre), free(m->inp), free(m->tgt);
  free(m->perm), free(m->rowlen), free(m->ch), free(m->tgrads), free(m->tbias), free(m->tdbias);
  free(m->probs_out), free(m->losses_out), free(m->xlR);
  for (size_t t = 0; m->scr && t < m->cfg.threads; t++) {
    struct scratch *x = &m->scr[t];
    free(x->idx), free(x->A), free(x->Bt), free(x->dA), free(x->dBt), free(x->proj);
    free(x->dproj), free(x->pbar), free(x->pm), free(x->pr), free(x->pq), free(x->pk);
    free(x->dpq), free(x->dpk), free(x->dpbar), free(x->ones), free(x->zeros), free(x->dw);
    free(x->db);
  }
  free(m->scr);
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

/* The sizes of the parameter and activation tensors of a configuration
 * rl_train_new accepts (every product below 2^57: 64 layers x 4096^4). */
static void sizes(const rl_train_cfg *c, size_t ps[P_COUNT], size_t as[A_COUNT])
{
  size_t V = c->vocab, D = c->d_model, L = c->layers, H = c->heads, T = c->max_T;
  size_t BT = c->batch * T;
  size_t p[P_COUNT] = {
    [P_WTE] = V * D, [P_WPE] = c->pos == RL_TPOS_LEARNED ? T * D : 0,
    [P_LN1W] = L * D, [P_LN1B] = L * D, [P_QKVW] = L * 3 * D * D, [P_QKVB] = L * 3 * D,
    [P_ATTPROJW] = L * D * D, [P_ATTPROJB] = L * D, [P_LN2W] = L * D, [P_LN2B] = L * D,
    [P_FCW] = L * 4 * D * D, [P_FCB] = L * 4 * D, [P_FCPROJW] = L * D * 4 * D,
    [P_FCPROJB] = L * D, [P_LNFW] = D, [P_LNFB] = D,
    [P_T5] = c->pos == RL_TPOS_T5 ? c->num_buckets * H : 0,
    [P_XLW] = c->pos == RL_TPOS_XL ? L * D * (D / H) : 0,
    [P_XLU] = c->pos == RL_TPOS_XL ? L * D : 0, [P_XLV] = c->pos == RL_TPOS_XL ? L * D : 0,
    [P_DEB] = c->pos == RL_TPOS_DEBERTA ? c->num_buckets * D : 0,
    [P_TUPE] = c->pos == RL_TPOS_TUPE ? T * D : 0,
    [P_TUPEQ] = c->pos == RL_TPOS_TUPE ? D * D : 0, [P_TUPEK] = c->pos == RL_TPOS_TUPE ? D * D : 0};
  size_t a[A_COUNT] = {
    [A_ENC] = BT * D, [A_LN1] = L * BT * D, [A_LN1M] = L * BT, [A_LN1R] = L * BT,
    [A_QKV] = L * BT * 3 * D, [A_QKVR] = c->pos == RL_TPOS_ROPE ? L * BT * 3 * D : 0,
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
    na += (double)as[i] * (has_grad(i) ? 2 : 1);
  double nt = (double)c->threads, attn = (double)c->batch * H * T * T;
  int bias = c->pos == RL_TPOS_T5 || c->pos == RL_TPOS_ALIBI || c->pos == RL_TPOS_TUPE;
  /* parameters, gradients, two moments, the threads' gradients;
   * activations and their gradients; dpre; the threads' biases; the
   * caller's probabilities and losses */
  double words = (3 + nt) * np + na + attn + (bias ? 2 * nt * H * T * T : 0) +
                 BT * (double)c->vocab + BT;
  return 8 * words;
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
  if ((unsigned)c->pos >= RL_TPOS_COUNT)
    return fail(err, RL_EINVAL, "invalid scheme '%d'", (int)c->pos);
  if (c->pos == RL_TPOS_SINUSOIDAL && (c->d_model % 2 || !(c->base > 1)))
    return fail(err, RL_EINVAL, "invalid sinusoidal d-model '%zu', base '%g': expected even, base > 1",
                c->d_model, c->base);
  if (c->pos == RL_TPOS_DEBERTA &&
      (c->num_buckets < 2 ||
       rl_deberta_bucket(0, (long)c->num_buckets, (long)c->max_distance) == LONG_MIN))
    return fail(err, RL_EINVAL, "invalid deberta buckets '%zu', max distance '%zu'",
                c->num_buckets, c->max_distance);
  if (c->pos == RL_TPOS_T5 && rl_t5_bucket(0, 0, (long)c->num_buckets, (long)c->max_distance) < 0)
    return fail(err, RL_EINVAL, "invalid t5 buckets '%zu', max distance '%zu'", c->num_buckets,
                c->max_distance);
  rl_train_model *m = calloc(1, sizeof *m);
  if (!m)
    return RL_ENOMEM;
  m->cfg = *c;
  size_t V = c->vocab, D = c->d_model, L = c->layers, H = c->heads, T = c->max_T;
  size_t BT = c->batch * T;
  size_t ps[P_COUNT], as[A_COUNT];
  sizes(c, ps, as);
  memcpy(m->psize, ps, sizeof ps);
  memcpy(m->asize, as, sizeof as);
  for (int i = 0; i < P_COUNT; i++)
    m->np += ps[i];
  for (int i = 0; i < A_COUNT; i++)
    m->na += as[i], m->nda += has_grad(i) ? as[i] : 0;
  int oom = 0;
  m->params = zalloc(m, m->np, &oom), m->grads = zalloc(m, m->np, &oom);
  m->m1 = zalloc(m, m->np, &oom), m->m2 = zalloc(m, m->np, &oom);
  m->acts = zalloc(m, m->na, &oom), m->dacts = zalloc(m, m->nda, &oom);
  m->dpre = zalloc(m, c->batch * H * T * T, &oom);
  size_t nt = c->threads;
  if (c->pos == RL_TPOS_T5 || c->pos == RL_TPOS_ALIBI || c->pos == RL_TPOS_TUPE)
    m->tbias = zalloc(m, nt * H * T * T, &oom), m->tdbias = zalloc(m, nt * H * T * T, &oom);
  m->tgrads = zalloc(m, (nt - 1) * m->np, &oom);
  m->probs_out = zalloc(m, BT * V, &oom), m->losses_out = zalloc(m, BT, &oom);
  m->inp = calloc(BT, sizeof *m->inp), m->tgt = calloc(BT, sizeof *m->tgt);
  m->perm = calloc(c->batch, sizeof *m->perm), m->rowlen = calloc(c->batch, sizeof *m->rowlen);
  m->ch = calloc(c->chunks, sizeof *m->ch);
  m->bytes += 2 * BT * sizeof *m->inp + 2 * c->batch * sizeof *m->perm + c->chunks * sizeof *m->ch;
  if (oom || !m->inp || !m->tgt || !m->perm || !m->rowlen || !m->ch) {
    rl_train_free(m);
    return RL_ENOMEM;
  }
  size_t off = 0;
  for (int i = 0; i < P_COUNT; i++) {
    m->p[i] = m->params + off, m->g[i] = m->grads + off;
    off += ps[i];
  }
  off = 0;
  size_t doff = 0;
  for (int i = 0; i < A_COUNT; i++) {
    m->a[i] = m->acts + off, m->da[i] = has_grad(i) ? m->dacts + doff : NULL;
    off += as[i], doff += has_grad(i) ? as[i] : 0;
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
  if (c->pos == RL_TPOS_XL || c->pos == RL_TPOS_DEBERTA || c->pos == RL_TPOS_TUPE) {
    size_t hd = D / H, nr = m->nrel = c->pos == RL_TPOS_XL ? T : c->num_buckets;
    m->scr = calloc(nt, sizeof *m->scr);
    m->bytes += nt * sizeof *m->scr;
    for (size_t t = 0; m->scr && t < nt; t++) {
      struct scratch *x = &m->scr[t];
      x->idx = calloc(T * T, sizeof *x->idx);
      m->bytes += T * T * sizeof *x->idx;
      oom |= !x->idx;
      if (c->pos != RL_TPOS_TUPE) {
        x->A = zalloc(m, H * nr * hd, &oom), x->Bt = zalloc(m, H * nr * hd, &oom);
        x->dA = zalloc(m, H * nr * hd, &oom), x->dBt = zalloc(m, H * nr * hd, &oom);
        x->proj = zalloc(m, nr * 3 * D, &oom), x->dproj = zalloc(m, nr * 3 * D, &oom);
      } else {
        x->pbar = zalloc(m, T * D, &oom), x->pm = zalloc(m, T, &oom), x->pr = zalloc(m, T, &oom);
        x->pq = zalloc(m, T * D, &oom), x->pk = zalloc(m, T * D, &oom);
        x->dpq = zalloc(m, T * D, &oom), x->dpk = zalloc(m, T * D, &oom);
        x->dpbar = zalloc(m, T * D, &oom);
        x->ones = zalloc(m, D, &oom), x->zeros = zalloc(m, D, &oom);
        x->dw = zalloc(m, D, &oom), x->db = zalloc(m, D, &oom);
        for (size_t i = 0; x->ones && i < D; i++)
          x->ones[i] = 1.0;
      }
    }
    if (c->pos == RL_TPOS_XL)
      m->xlR = zalloc(m, T * hd, &oom);
    if (!m->scr || oom) {
      rl_train_free(m);
      return RL_ENOMEM;
    }
  }
  if (c->pos == RL_TPOS_XL) {
    /* R_r = [sin(r f_k), k < hd/2; cos(r f_k)], f_k = base^(-2k/hd): the
     * core's xl (rel.c, after the reference's PositionalEmbedding) */
    size_t hd = D / H;
    rl_schedule *f = NULL;
    if (hd % 2 || rl_schedule_rope(hd, hd, c->base, &f) != RL_OK) {
      rl_train_free(m);
      return fail(err, RL_EINVAL, "invalid xl head dimension '%zu' or base '%g': expected even, base > 1",
                  hd, c->base);
    }
    for (size_t dist = 0; dist < T; dist++)
      for (size_t k = 0; k < hd / 2; k++) {
        double cc, ss;
        rl_angle_sincos((double)dist, f->theta[k], &cc, &ss);
        m->xlR[dist * hd + k] = ss, m->xlR[dist * hd + hd / 2 + k] = cc;
      }
    rl_schedule_free(f);
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

/* Tensors laid out once per model rather than per layer. */
static int layered(int i)
{
  return !(i == A_ENC || i == A_LNF || i == A_LNFM || i == A_LNFR || i == A_LOGITS ||
           i == A_PROBS || i == A_LOSSES);
}

/* Chunk k's part of tensor i in layer l (arr: acts or dacts): each layer's
 * slice holds the chunks one after another, chunk k at its first
 * position (attention tensors: its first [b][h][t][t2] entry). */
static double *cact(const rl_train_model *m, double *const *arr, int i, size_t l,
                    const struct chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  size_t per = m->asize[i] / (layered(i) ? c->layers : 1);
  double *base = arr[i] + (layered(i) ? l * per : 0);
  if (i == A_PRE || i == A_ATT)
    return base + k->aoff;
  return base + k->off * (per / (c->batch * c->max_T));
}

/* Thread th's gradient of parameter tensor k (thread 0: the model's). */
static double *tgrad(rl_train_model *m, size_t th, int k)
{
  double *g = th ? m->tgrads + (th - 1) * m->np : m->grads;
  return g + (m->p[k] - m->params);
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
    struct chunk *ck = &m->ch[k];
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
static double chunk_flops(const rl_train_model *m, const struct chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  double N = (double)(k->Bc * k->Tc), D = (double)c->d_model, V = (double)c->vocab;
  double pairs = (double)k->Bc * (double)(k->Tc * (k->Tc + 1) / 2);
  double per_layer = 2 * N * D * (3 * D + D + 4 * D + 4 * D) + 2 * 2 * pairs * D;
  return (double)c->layers * per_layer + 2 * N * D * V;
}

/* xl's and deberta's relative index of a chunk (query t, key t2 <= t):
 * xl the distance t - t2; deberta clamp(bucket(t - t2) + k, 0, 2k - 1)
 * - k (the core's delta less k: a decoder's keys never follow the query,
 * so only the table's upper half is read and only it is kept). */
static void rel_index(const rl_train_model *m, struct scratch *x, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++) {
      size_t r = t - t2;
      if (c->pos == RL_TPOS_DEBERTA) {
        long b = rl_deberta_bucket((long)r, (long)c->num_buckets, (long)c->max_distance);
        r = b < (long)m->nrel ? (size_t)b : m->nrel - 1;
      }
      x->idx[t * T + t2] = r;
    }
}

/* Layer l's position tables (xl: A[h][r] = W_r R_r; deberta: K^r, Q^r =
 * the layer's key and query projections of the relative embeddings, as
 * DeBERTa-v3 shares them) and the term's parameters. */
static void rel_tables(rl_train_model *m, struct scratch *x, size_t l, size_t T, rl_tl_rel *r)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H, nr = m->nrel;
  *r = (rl_tl_rel){x->idx, nr, 1.0 / sqrt((double)hd), NULL, NULL, NULL, NULL, NULL};
  if (c->pos == RL_TPOS_XL) {
    const double *W = m->p[P_XLW] + l * D * hd;
    for (size_t h = 0; h < H; h++)
      for (size_t i = 0; i < T; i++)
        for (size_t a = 0; a < hd; a++) {
          double s = 0;
          for (size_t b = 0; b < hd; b++)
            s += W[(h * hd + a) * hd + b] * m->xlR[i * hd + b];
          x->A[(h * nr + i) * hd + a] = s;
        }
    r->A = x->A, r->u = m->p[P_XLU] + l * D, r->v = m->p[P_XLV] + l * D;
  } else if (c->pos == RL_TPOS_DEBERTA) {
    rl_tl_matmul_forward(x->proj, m->p[P_DEB], m->p[P_QKVW] + l * 3 * D * D,
                         m->p[P_QKVB] + l * 3 * D, nr, D, 3 * D);
    for (size_t h = 0; h < H; h++)
      for (size_t i = 0; i < nr; i++)
        for (size_t e = 0; e < hd; e++) {
          x->A[(h * nr + i) * hd + e] = x->proj[i * 3 * D + D + h * hd + e];  /* K^r: c2p */
          x->Bt[(h * nr + i) * hd + e] = x->proj[i * 3 * D + h * hd + e];     /* Q^r: p2c */
        }
    r->A = x->A, r->Bt = x->Bt, r->scale = 1.0 / sqrt(3.0 * (double)hd);
  }
}

/* the content logit's scale: TUPE's 1 / sqrt(2 hd) (Ke et al. 2021,
 * eq. 6, which scales its positional term the same way), else
 * 1 / sqrt(hd) */
static double content_scale(const rl_train_cfg *c)
{
  double hd = (double)(c->d_model / c->heads);
  return 1.0 / sqrt(c->pos == RL_TPOS_TUPE ? 2.0 * hd : hd);
}

/* TUPE's positional logits (Ke et al. 2021 eq. 6; the core's rel.c):
 * bias[h][t][t2] = (U_q pbar_t)_h . (U_k pbar_t2)_h / sqrt(2 hd), pbar
 * the position table after a LayerNorm with no affine, shared by the
 * layers as the reference computes it once per encoder. */
static void tupe_bias(rl_train_model *m, struct scratch *x, double *bias, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H;
  double sc = content_scale(c);
  rl_tl_layernorm_forward(x->pbar, x->pm, x->pr, m->p[P_TUPE], x->ones, x->zeros, T, D);
  rl_tl_matmul_forward(x->pq, x->pbar, m->p[P_TUPEQ], NULL, T, D, D);
  rl_tl_matmul_forward(x->pk, x->pbar, m->p[P_TUPEK], NULL, T, D, D);
  for (size_t h = 0; h < H; h++)
    for (size_t t = 0; t < T; t++)
      for (size_t t2 = 0; t2 < T; t2++) {
        double s = 0;
        for (size_t e = 0; t2 <= t && e < hd; e++)
          s += x->pq[t * D + h * hd + e] * x->pk[t2 * D + h * hd + e];
        bias[(h * T + t) * T + t2] = s * sc;
      }
}

static void tupe_bias_backward(rl_train_model *m, struct scratch *x, const double *dbias,
                               size_t T, size_t th)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H;
  double sc = content_scale(c);
  memset(x->dpq, 0, T * D * sizeof *x->dpq);
  memset(x->dpk, 0, T * D * sizeof *x->dpk);
  memset(x->dpbar, 0, T * D * sizeof *x->dpbar);
  for (size_t h = 0; h < H; h++)
    for (size_t t = 0; t < T; t++)
      for (size_t t2 = 0; t2 <= t; t2++) {
        double g = dbias[(h * T + t) * T + t2] * sc;
        for (size_t e = 0; e < hd; e++) {
          x->dpq[t * D + h * hd + e] += g * x->pk[t2 * D + h * hd + e];
          x->dpk[t2 * D + h * hd + e] += g * x->pq[t * D + h * hd + e];
        }
      }
  rl_tl_matmul_backward(x->dpbar, tgrad(m, th, P_TUPEQ), NULL, x->dpq, x->pbar, m->p[P_TUPEQ], T,
                        D, D);
  rl_tl_matmul_backward(x->dpbar, tgrad(m, th, P_TUPEK), NULL, x->dpk, x->pbar, m->p[P_TUPEK], T,
                        D, D);
  rl_tl_layernorm_backward(tgrad(m, th, P_TUPE), x->dw, x->db, x->dpbar, m->p[P_TUPE], x->ones,
                           x->pm, x->pr, T, D);
}

/* xl and deberta add terms between q, k and relative tables
 * (rl_tl_relattn_*); every other scheme is plain attention, tupe's
 * positions being a bias like t5's, under its own scale. */
static int rel_attention(const rl_train_cfg *c)
{
  return c->pos == RL_TPOS_XL || c->pos == RL_TPOS_DEBERTA;
}

static void chunk_forward(rl_train_model *m, const struct chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, V = c->vocab, B = k->Bc, T = k->Tc, N = B * T;
  size_t MT = c->max_T;
  double *const *a = m->a;
  double *bias = m->tbias ? m->tbias + k->thread * H * MT * MT : NULL;
  const int *inp = m->inp + k->off, *tgt = m->tgt + k->off;
#define A(i, l) cact(m, a, i, l, k)
  rl_tl_encoder_forward(A(A_ENC, 0), inp, m->p[P_WTE],
                        c->pos == RL_TPOS_LEARNED ? m->p[P_WPE] : m->pe, B, T, D);
  if (c->pos == RL_TPOS_ALIBI)
    rl_tl_alibi_bias(bias, m->slopes, H, T);
  if (c->pos == RL_TPOS_T5)
    rl_tl_t5_forward(bias, m->p[P_T5], H, T, c->num_buckets, c->max_distance);
  struct scratch *x = m->scr ? &m->scr[k->thread] : NULL;
  if (c->pos == RL_TPOS_TUPE)
    tupe_bias(m, x, bias, T);
  if (c->pos == RL_TPOS_XL || c->pos == RL_TPOS_DEBERTA)
    rel_index(m, x, T);
  const double *res = A(A_ENC, 0);
  for (size_t l = 0; l < c->layers; l++) {
    double *ln1 = A(A_LN1, l), *qkv = A(A_QKV, l);
    double *qkvr = c->pos == RL_TPOS_ROPE ? A(A_QKVR, l) : qkv;
    double *atty = A(A_ATTY, l), *attproj = A(A_ATTPROJ, l), *res2 = A(A_RES2, l);
    double *ln2 = A(A_LN2, l), *fch = A(A_FCH, l), *fchg = A(A_FCHG, l);
    double *fcproj = A(A_FCPROJ, l), *res3 = A(A_RES3, l);
    rl_tl_layernorm_forward(ln1, A(A_LN1M, l), A(A_LN1R, l), res, m->p[P_LN1W] + l * D,
                            m->p[P_LN1B] + l * D, N, D);
    rl_tl_matmul_forward(qkv, ln1, m->p[P_QKVW] + l * 3 * D * D, m->p[P_QKVB] + l * 3 * D, N, D,
                         3 * D);
    if (c->pos == RL_TPOS_ROPE)
      rl_tl_rope_forward(qkvr, qkv, m->cs, m->sn, B, T, D, H, m->rot, m->half);
    if (rel_attention(c)) {
      rl_tl_rel r;
      rel_tables(m, x, l, T, &r);
      r.bias = bias;
      rl_tl_relattn_forward(atty, A(A_PRE, l), A(A_ATT, l), qkvr, &r, B, T, D, H);
    } else
      rl_tl_attention_forward(atty, A(A_PRE, l), A(A_ATT, l), qkvr, bias, B, T, D, H,
                              content_scale(c));
    rl_tl_matmul_forward(attproj, atty, m->p[P_ATTPROJW] + l * D * D, m->p[P_ATTPROJB] + l * D,
                         N, D, D);
    rl_tl_residual_forward(res2, res, attproj, N * D);
    rl_tl_layernorm_forward(ln2, A(A_LN2M, l), A(A_LN2R, l), res2, m->p[P_LN2W] + l * D,
                            m->p[P_LN2B] + l * D, N, D);
    rl_tl_matmul_forward(fch, ln2, m->p[P_FCW] + l * 4 * D * D, m->p[P_FCB] + l * 4 * D, N, D,
                         4 * D);
    rl_tl_gelu_forward(fchg, A(A_FCHT, l), fch, N * 4 * D);
    rl_tl_matmul_forward(fcproj, fchg, m->p[P_FCPROJW] + l * 4 * D * D, m->p[P_FCPROJB] + l * D,
                         N, 4 * D, D);
    rl_tl_residual_forward(res3, res2, fcproj, N * D);
    res = res3;
  }
  rl_tl_layernorm_forward(A(A_LNF, 0), A(A_LNFM, 0), A(A_LNFR, 0), res, m->p[P_LNFW],
                          m->p[P_LNFB], N, D);
  rl_tl_matmul_forward(A(A_LOGITS, 0), A(A_LNF, 0), m->p[P_WTE], NULL, N, D, V);
  rl_tl_crossentropy_forward(A(A_LOSSES, 0), A(A_PROBS, 0), A(A_LOGITS, 0), tgt, N, V);
#undef A
}

static void chunk_backward(rl_train_model *m, const struct chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  size_t B = k->Bc, T = k->Tc, D = c->d_model, H = c->heads, V = c->vocab, N = B * T;
  size_t L = c->layers, MT = c->max_T, th = k->thread;
  double *const *a = m->a, *const *da = m->da;
  double *dbias = m->tdbias && (c->pos == RL_TPOS_T5 || c->pos == RL_TPOS_TUPE)
                      ? m->tdbias + th * H * MT * MT
                      : NULL;
  struct scratch *x = m->scr ? &m->scr[th] : NULL;
  /* the thread's scratch holds its last chunk's: this chunk's again */
  if (c->pos == RL_TPOS_XL || c->pos == RL_TPOS_DEBERTA)
    rel_index(m, x, T);
  if (c->pos == RL_TPOS_TUPE)
    tupe_bias(m, x, m->tbias + th * H * MT * MT, T);
  double *dpre = m->dpre + k->aoff;
#define A(i, l) cact(m, a, i, l, k)
#define DA(i, l) cact(m, da, i, l, k)
#define G(p) tgrad(m, th, p)
  for (int i = 0; i < A_COUNT; i++) /* this chunk's gradients of activations */
    for (size_t l = 0; has_grad(i) && l < (layered(i) ? L : 1); l++) {
      size_t per = m->asize[i] / (layered(i) ? L : 1); /* per position: N of them */
      memset(DA(i, l), 0, N * (per / (c->batch * MT)) * sizeof(double));
    }
  if (dbias)
    memset(dbias, 0, H * T * T * sizeof *dbias);
  rl_tl_crossentropy_backward(DA(A_LOGITS, 0), A(A_PROBS, 0), m->tgt + k->off, N, V, m->count);
  rl_tl_matmul_backward(DA(A_LNF, 0), G(P_WTE), NULL, DA(A_LOGITS, 0), A(A_LNF, 0), m->p[P_WTE],
                        N, D, V);
  rl_tl_layernorm_backward(DA(A_RES3, L - 1), G(P_LNFW), G(P_LNFB), DA(A_LNF, 0),
                           A(A_RES3, L - 1), m->p[P_LNFW], A(A_LNFM, 0), A(A_LNFR, 0), N, D);
  int rope = c->pos == RL_TPOS_ROPE;
  for (size_t l = L; l-- > 0;) {
    double *resin = l ? A(A_RES3, l - 1) : A(A_ENC, 0);
    double *dresin = l ? DA(A_RES3, l - 1) : DA(A_ENC, 0);
    double *qkv = A(A_QKV, l), *dqkv = DA(A_QKV, l);
    double *qkvr = rope ? A(A_QKVR, l) : qkv, *dqkvr = rope ? DA(A_QKVR, l) : dqkv;
    rl_tl_residual_backward(DA(A_RES2, l), DA(A_FCPROJ, l), DA(A_RES3, l), N * D);
    rl_tl_matmul_backward(DA(A_FCHG, l), G(P_FCPROJW) + l * 4 * D * D, G(P_FCPROJB) + l * D,
                          DA(A_FCPROJ, l), A(A_FCHG, l), m->p[P_FCPROJW] + l * 4 * D * D, N,
                          4 * D, D);
    rl_tl_gelu_backward(DA(A_FCH, l), A(A_FCH, l), A(A_FCHT, l), DA(A_FCHG, l), N * 4 * D);
    rl_tl_matmul_backward(DA(A_LN2, l), G(P_FCW) + l * 4 * D * D, G(P_FCB) + l * 4 * D,
                          DA(A_FCH, l), A(A_LN2, l), m->p[P_FCW] + l * 4 * D * D, N, D, 4 * D);
    rl_tl_layernorm_backward(DA(A_RES2, l), G(P_LN2W) + l * D, G(P_LN2B) + l * D, DA(A_LN2, l),
                             A(A_RES2, l), m->p[P_LN2W] + l * D, A(A_LN2M, l), A(A_LN2R, l), N,
                             D);
    rl_tl_residual_backward(dresin, DA(A_ATTPROJ, l), DA(A_RES2, l), N * D);
    rl_tl_matmul_backward(DA(A_ATTY, l), G(P_ATTPROJW) + l * D * D, G(P_ATTPROJB) + l * D,
                          DA(A_ATTPROJ, l), A(A_ATTY, l), m->p[P_ATTPROJW] + l * D * D, N, D, D);
    if (rel_attention(c)) {
      size_t hd = D / H, nr = m->nrel;
      rl_tl_rel r, d;
      rel_tables(m, x, l, T, &r); /* again: the buffers hold the last layer's */
      d = r;
      d.A = r.A ? x->dA : NULL, d.Bt = r.Bt ? x->dBt : NULL, d.bias = dbias;
      d.u = r.u ? G(P_XLU) + l * D : NULL, d.v = r.v ? G(P_XLV) + l * D : NULL;
      if (d.A)
        memset(x->dA, 0, H * nr * hd * sizeof *x->dA);
      if (d.Bt)
        memset(x->dBt, 0, H * nr * hd * sizeof *x->dBt);
      rl_tl_relattn_backward(dqkvr, &d, dpre, DA(A_ATTY, l), qkvr, A(A_ATT, l), &r, B, T, D, H);
      if (c->pos == RL_TPOS_XL) { /* dW_r += dA R^T, per head */
        double *dW = G(P_XLW) + l * D * hd;
        for (size_t h = 0; h < H; h++)
          for (size_t i = 0; i < T; i++)
            for (size_t e = 0; e < hd; e++) {
              double g = x->dA[(h * nr + i) * hd + e];
              for (size_t f = 0; f < hd; f++)
                dW[(h * hd + e) * hd + f] += g * m->xlR[i * hd + f];
            }
      }
      if (c->pos == RL_TPOS_DEBERTA) { /* back through the layer's q and k projections */
        memset(x->dproj, 0, nr * 3 * D * sizeof *x->dproj);
        for (size_t h = 0; h < H; h++)
          for (size_t i = 0; i < nr; i++)
            for (size_t e = 0; e < hd; e++) {
              x->dproj[i * 3 * D + D + h * hd + e] = x->dA[(h * nr + i) * hd + e];
              x->dproj[i * 3 * D + h * hd + e] = x->dBt[(h * nr + i) * hd + e];
            }
        rl_tl_matmul_backward(G(P_DEB), G(P_QKVW) + l * 3 * D * D, G(P_QKVB) + l * 3 * D,
                              x->dproj, m->p[P_DEB], m->p[P_QKVW] + l * 3 * D * D, nr, D, 3 * D);
      }
    } else
      rl_tl_attention_backward(dqkvr, dbias, dpre, NULL, DA(A_ATTY, l), qkvr, A(A_ATT, l), B, T,
                               D, H, content_scale(c));
    if (rope)
      rl_tl_rope_backward(dqkv, dqkvr, m->cs, m->sn, B, T, D, H, m->rot, m->half);
    rl_tl_matmul_backward(DA(A_LN1, l), G(P_QKVW) + l * 3 * D * D, G(P_QKVB) + l * 3 * D, dqkv,
                          A(A_LN1, l), m->p[P_QKVW] + l * 3 * D * D, N, D, 3 * D);
    rl_tl_layernorm_backward(dresin, G(P_LN1W) + l * D, G(P_LN1B) + l * D, DA(A_LN1, l), resin,
                             m->p[P_LN1W] + l * D, A(A_LN1M, l), A(A_LN1R, l), N, D);
  }
  if (dbias && c->pos == RL_TPOS_T5)
    rl_tl_t5_backward(G(P_T5), dbias, H, T, c->num_buckets, c->max_distance);
  if (dbias && c->pos == RL_TPOS_TUPE)
    tupe_bias_backward(m, x, dbias, T, th);
  rl_tl_encoder_backward(G(P_WTE), c->pos == RL_TPOS_LEARNED ? G(P_WPE) : NULL, DA(A_ENC, 0),
                         m->inp + k->off, B, T, D);
#undef A
#undef DA
#undef G
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
  if (j->backward && j->th)
    memset(m->tgrads + (j->th - 1) * m->np, 0, m->np * sizeof *m->grads);
  for (size_t k = 0; k < m->nch; k++)
    if (m->ch[k].thread == j->th) {
      if (j->backward)
        chunk_backward(m, &m->ch[k]);
      else
        chunk_forward(m, &m->ch[k]);
    }
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
  if (nt > 1)
    rl_tl_blas_one_thread();
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
  size_t V = c->vocab;
  if (B > c->batch || T > c->max_T || (c->pos == RL_TPOS_ROPE && !m->have_rope))
    return NAN;
  m->B = B, m->T = T;
  plan(m, inp, tgt, B, T);
  run_all(m, 0);
  /* the caller's layout: rows in their order, positions past a row's
   * last target (never computed) at 0 */
  memset(m->probs_out, 0, B * T * V * sizeof *m->probs_out);
  memset(m->losses_out, 0, B * T * sizeof *m->losses_out);
  for (size_t k = 0; k < m->nch; k++) {
    const struct chunk *ck = &m->ch[k];
    const double *p = cact(m, m->a, A_PROBS, 0, ck), *ls = cact(m, m->a, A_LOSSES, 0, ck);
    for (size_t j = 0; j < ck->Bc; j++) {
      size_t b = m->perm[ck->b0 + j];
      memcpy(m->probs_out + b * T * V, p + j * ck->Tc * V, ck->Tc * V * sizeof *p);
      memcpy(m->losses_out + b * T, ls + j * ck->Tc, ck->Tc * sizeof *ls);
    }
    m->flops += chunk_flops(m, ck);
  }
  /* the mean in the caller's order: the same sum for any chunking */
  double total = 0;
  for (size_t i = 0; i < B * T; i++)
    total += m->losses_out[i];
  m->mean_loss = m->count ? total / (double)m->count : 0.0;
  return m->mean_loss;
}

void rl_train_zero_grad(rl_train_model *m) { memset(m->grads, 0, m->np * sizeof *m->grads); }

void rl_train_backward(rl_train_model *m)
{
  run_all(m, 1);
  /* the threads' gradients into the model's, in thread order: the same
   * sums for a thread count */
  for (size_t th = 1; th < m->cfg.threads; th++) {
    const double *g = m->tgrads + (th - 1) * m->np;
    for (size_t i = 0; i < m->np; i++)
      m->grads[i] += g[i];
  }
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
