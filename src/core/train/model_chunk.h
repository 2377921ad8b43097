/* model_chunk.h: the trainer's compute of one dtype (model_impl.h),
 * written once over `real` and compiled twice: model_f64.c (double, the
 * model's view d, the layers rl_tl_*) and model_f32.c (float, view f,
 * rl_tlf_*), each defining IMPL_REAL, IMPL_TL, IMPL_FN, IMPL_VIEW and
 * IMPL_SCR before including it.  A chunk's forward and backward call the
 * layers in order (the gpt2_forward / gpt2_backward structure of llm.c's
 * train_gpt2.c). */
#include <math.h>
#include <string.h>
#include "layers.h"
#include "model_impl.h"
#include "pos_impl.h"
#include "ropelab.h"

typedef IMPL_REAL real;
#define TL(name) IMPL_TL(name)
#define FN(name) IMPL_FN(name)
#define V(m) (&(m)->IMPL_VIEW)
#define SCR IMPL_SCR


/* Chunk k's part of tensor i in layer l (arr: acts or dacts): each layer's
 * slice holds the chunks one after another, chunk k at its first
 * position (attention tensors: its first [b][h][t][t2] entry). */
static real *cact(const rl_train_model *m, real *const *arr, int i, size_t l,
                    const struct rl_tm_chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  size_t per = m->asize[i] / (rl_tm_layered(i) ? c->layers : 1);
  real *base = arr[i] + (rl_tm_layered(i) ? l * per : 0);
  if (i == A_PRE || i == A_ATT)
    return base + k->aoff;
  return base + k->off * (per / (c->batch * c->max_T));
}

/* Thread th's gradient of parameter tensor k (thread 0: the model's). */
static real *tgrad(rl_train_model *m, size_t th, int k)
{
  real *g = th ? V(m)->tgrads + (th - 1) * m->np : V(m)->grads;
  return g + (V(m)->p[k] - V(m)->params);
}

/* Layer l's position tables (xl: A[h][r] = W_r R_r; deberta: K^r, Q^r =
 * the layer's key and query projections of the relative embeddings, as
 * DeBERTa-v3 shares them) and the term's parameters. */
static void rel_tables(rl_train_model *m, SCR *x, size_t l, size_t T, TL(rel) *r)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H, nr = m->nrel;
  *r = (TL(rel)){x->idx, nr, (real)(1.0 / sqrt((double)hd)), NULL, NULL, NULL, NULL, NULL};
  if (m->ps->rel == RL_TPR_SINUSOID) {
    const real *W = V(m)->p[P_XLW] + l * D * hd;
    for (size_t h = 0; h < H; h++)
      for (size_t i = 0; i < T; i++)
        for (size_t a = 0; a < hd; a++) {
          real s = 0;
          for (size_t b = 0; b < hd; b++)
            s += W[(h * hd + a) * hd + b] * V(m)->xlR[i * hd + b];
          x->A[(h * nr + i) * hd + a] = s;
        }
    r->A = x->A, r->u = V(m)->p[P_XLU] + l * D, r->v = V(m)->p[P_XLV] + l * D;
  } else if (m->ps->rel == RL_TPR_TABLE) {
    TL(matmul_forward)(x->proj, V(m)->p[P_DEB], V(m)->p[P_QKVW] + l * 3 * D * D,
                         V(m)->p[P_QKVB] + l * 3 * D, nr, D, 3 * D);
    for (size_t h = 0; h < H; h++)
      for (size_t i = 0; i < nr; i++)
        for (size_t e = 0; e < hd; e++) {
          x->A[(h * nr + i) * hd + e] = x->proj[i * 3 * D + D + h * hd + e];  /* K^r: c2p */
          x->Bt[(h * nr + i) * hd + e] = x->proj[i * 3 * D + h * hd + e];     /* Q^r: p2c */
        }
    r->A = x->A, r->Bt = x->Bt, r->scale = (real)(1.0 / sqrt(3.0 * (double)hd));
  }
}

/* the content logit's scale 1 / sqrt(content_div hd): TUPE's
 * 1 / sqrt(2 hd) (Ke et al. 2021, eq. 6, which scales its positional
 * term the same way), else 1 / sqrt(hd) */
static double content_scale(const rl_train_cfg *c)
{
  double hd = (double)(c->d_model / c->heads);
  return 1.0 / sqrt(rl_tpos_at(c->pos)->content_div * hd);
}

/* TUPE's positional logits (Ke et al. 2021 eq. 6; the core's rel.c):
 * bias[h][t][t2] = (U_q pbar_t)_h . (U_k pbar_t2)_h / sqrt(2 hd), pbar
 * the position table after a LayerNorm with no affine, shared by the
 * layers as the reference computes it once per encoder. */
static void tupe_bias(rl_train_model *m, SCR *x, real *bias, size_t T)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H;
  real sc = (real)content_scale(c);
  TL(layernorm_forward)(x->pbar, x->pm, x->pr, V(m)->p[P_TUPE], x->ones, x->zeros, T, D);
  TL(matmul_forward)(x->pq, x->pbar, V(m)->p[P_TUPEQ], NULL, T, D, D);
  TL(matmul_forward)(x->pk, x->pbar, V(m)->p[P_TUPEK], NULL, T, D, D);
  for (size_t h = 0; h < H; h++)
    for (size_t t = 0; t < T; t++)
      for (size_t t2 = 0; t2 < T; t2++) {
        real s = 0;
        for (size_t e = 0; t2 <= t && e < hd; e++)
          s += x->pq[t * D + h * hd + e] * x->pk[t2 * D + h * hd + e];
        bias[(h * T + t) * T + t2] = s * sc;
      }
}

static void tupe_bias_backward(rl_train_model *m, SCR *x, const real *dbias,
                               size_t T, size_t th)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H;
  real sc = (real)content_scale(c);
  memset(x->dpq, 0, T * D * sizeof *x->dpq);
  memset(x->dpk, 0, T * D * sizeof *x->dpk);
  memset(x->dpbar, 0, T * D * sizeof *x->dpbar);
  for (size_t h = 0; h < H; h++)
    for (size_t t = 0; t < T; t++)
      for (size_t t2 = 0; t2 <= t; t2++) {
        real g = dbias[(h * T + t) * T + t2] * sc;
        for (size_t e = 0; e < hd; e++) {
          x->dpq[t * D + h * hd + e] += g * x->pk[t2 * D + h * hd + e];
          x->dpk[t2 * D + h * hd + e] += g * x->pq[t * D + h * hd + e];
        }
      }
  TL(matmul_backward)(x->dpbar, tgrad(m, th, P_TUPEQ), NULL, x->dpq, x->pbar, V(m)->p[P_TUPEQ], T,
                        D, D);
  TL(matmul_backward)(x->dpbar, tgrad(m, th, P_TUPEK), NULL, x->dpk, x->pbar, V(m)->p[P_TUPEK], T,
                        D, D);
  TL(layernorm_backward)(tgrad(m, th, P_TUPE), x->dw, x->db, x->dpbar, V(m)->p[P_TUPE], x->ones,
                           x->pm, x->pr, T, D);
}

/* xl and deberta (rel) add terms between q, k and relative tables
 * (TL(rel)attn_*); every other scheme is plain attention, tupe's
 * positions being a bias like t5's, under its own scale. */
static int rel_attention(const rl_train_cfg *c)
{
  return rl_tpos_at(c->pos)->rel != RL_TPR_NONE;
}

void FN(chunk_forward)(rl_train_model *m, const struct rl_tm_chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  const rl_tpos *ps = m->ps;
  size_t D = c->d_model, H = c->heads, V = c->vocab, B = k->Bc, T = k->Tc, N = B * T;
  size_t MT = c->max_T;
  real *const *a = V(m)->a;
  real *bias = V(m)->tbias ? V(m)->tbias + k->thread * H * MT * MT : NULL;
  const int *inp = m->inp + k->off, *tgt = m->tgt + k->off;
#define A(i, l) cact(m, a, i, l, k)
  TL(encoder_forward)(A(A_ENC, 0), inp, V(m)->p[P_WTE],
                        ps->embed == RL_TPE_LEARNED ? V(m)->p[P_WPE] : V(m)->pe, B, T, D);
  if (ps->bias == RL_TPB_SLOPES)
    TL(alibi_bias)(bias, V(m)->slopes, H, T);
  if (ps->bias == RL_TPB_BUCKETS)
    TL(t5_forward)(bias, V(m)->p[P_T5], H, T, c->num_buckets, c->max_distance);
  SCR *x = V(m)->scr ? &V(m)->scr[k->thread] : NULL;
  if (ps->bias == RL_TPB_ABSPAIR)
    tupe_bias(m, x, bias, T);
  if (ps->rel != RL_TPR_NONE)
    rl_tm_rel_index(m, x->idx, T);
  const real *res = A(A_ENC, 0);
  for (size_t l = 0; l < c->layers; l++) {
    real *ln1 = A(A_LN1, l), *qkv = A(A_QKV, l);
    real *qkvr = ps->rotate ? A(A_QKVR, l) : qkv;
    real *atty = A(A_ATTY, l), *attproj = A(A_ATTPROJ, l), *res2 = A(A_RES2, l);
    real *ln2 = A(A_LN2, l), *fch = A(A_FCH, l), *fchg = A(A_FCHG, l);
    real *fcproj = A(A_FCPROJ, l), *res3 = A(A_RES3, l);
    TL(layernorm_forward)(ln1, A(A_LN1M, l), A(A_LN1R, l), res, V(m)->p[P_LN1W] + l * D,
                            V(m)->p[P_LN1B] + l * D, N, D);
    TL(matmul_forward)(qkv, ln1, V(m)->p[P_QKVW] + l * 3 * D * D, V(m)->p[P_QKVB] + l * 3 * D, N, D,
                         3 * D);
    if (ps->rotate)
      TL(rope_forward)(qkvr, qkv, V(m)->cs, V(m)->sn, B, T, D, H, m->rot, m->half);
    if (rel_attention(c)) {
      TL(rel) r;
      rel_tables(m, x, l, T, &r);
      r.bias = bias;
      TL(relattn_forward_ws)(atty, A(A_PRE, l), A(A_ATT, l), qkvr, &r, B, T, D, H, x->work);
    } else
      TL(attention_forward)(atty, A(A_PRE, l), A(A_ATT, l), qkvr, bias, B, T, D, H,
                              (real)content_scale(c));
    TL(matmul_forward)(attproj, atty, V(m)->p[P_ATTPROJW] + l * D * D, V(m)->p[P_ATTPROJB] + l * D,
                         N, D, D);
    TL(residual_forward)(res2, res, attproj, N * D);
    TL(layernorm_forward)(ln2, A(A_LN2M, l), A(A_LN2R, l), res2, V(m)->p[P_LN2W] + l * D,
                            V(m)->p[P_LN2B] + l * D, N, D);
    TL(matmul_forward)(fch, ln2, V(m)->p[P_FCW] + l * 4 * D * D, V(m)->p[P_FCB] + l * 4 * D, N, D,
                         4 * D);
    TL(gelu_forward)(fchg, A(A_FCHT, l), fch, N * 4 * D);
    TL(matmul_forward)(fcproj, fchg, V(m)->p[P_FCPROJW] + l * 4 * D * D, V(m)->p[P_FCPROJB] + l * D,
                         N, 4 * D, D);
    TL(residual_forward)(res3, res2, fcproj, N * D);
    res = res3;
  }
  TL(layernorm_forward)(A(A_LNF, 0), A(A_LNFM, 0), A(A_LNFR, 0), res, V(m)->p[P_LNFW],
                          V(m)->p[P_LNFB], N, D);
  TL(matmul_forward)(A(A_LOGITS, 0), A(A_LNF, 0), V(m)->p[P_WTE], NULL, N, D, V);
  TL(crossentropy_forward)(A(A_LOSSES, 0), A(A_PROBS, 0), A(A_LOGITS, 0), tgt, N, V);
#undef A
}

/* The activation gradients whose first write in a chunk's backward is an
 * assignment of 0 + x (the *_first layers), so need no zeroing: the
 * residual paths' (the gradient of layer l's output, l < L - 1, and of
 * the embedding; the attention's and the MLP's residual branches) and
 * GELU's input; the rest accumulate from their first write (matrix
 * products with beta 1, the attention's, LayerNorm's, rope's). */
static int first_write(int i, size_t l, size_t L)
{
  return i == A_ENC || (i == A_RES3 && l + 1 < L) || i == A_RES2 || i == A_ATTPROJ ||
         i == A_FCPROJ || i == A_FCH;
}

void FN(chunk_backward)(rl_train_model *m, const struct rl_tm_chunk *k)
{
  const rl_train_cfg *c = &m->cfg;
  const rl_tpos *ps = m->ps;
  size_t B = k->Bc, T = k->Tc, D = c->d_model, H = c->heads, V = c->vocab, N = B * T;
  size_t L = c->layers, MT = c->max_T, th = k->thread;
  real *const *a = V(m)->a, *const *da = V(m)->da;
  /* a learned bias's gradient (t5's buckets, tupe's pairs) */
  real *dbias = V(m)->tdbias && (ps->bias == RL_TPB_BUCKETS || ps->bias == RL_TPB_ABSPAIR)
                      ? V(m)->tdbias + th * H * MT * MT
                      : NULL;
  SCR *x = V(m)->scr ? &V(m)->scr[th] : NULL;
  /* the thread's scratch holds its last chunk's: this chunk's again */
  if (ps->rel != RL_TPR_NONE)
    rl_tm_rel_index(m, x->idx, T);
  if (ps->bias == RL_TPB_ABSPAIR)
    tupe_bias(m, x, V(m)->tbias + th * H * MT * MT, T);
  real *dpre = V(m)->dpre + k->aoff;
#define A(i, l) cact(m, a, i, l, k)
#define DA(i, l) cact(m, da, i, l, k)
#define G(p) tgrad(m, th, p)
  /* this chunk's gradients of activations, zeroed where they accumulate:
   * not those whose first write is an assignment (first_write) */
  for (int i = 0; i < A_COUNT; i++)
    for (size_t l = 0; rl_tm_has_grad(i) && l < (rl_tm_layered(i) ? L : 1); l++) {
      size_t per = m->asize[i] / (rl_tm_layered(i) ? L : 1); /* per position: N of them */
      if (!first_write(i, l, L))
        memset(DA(i, l), 0, N * (per / (c->batch * MT)) * sizeof(real));
    }
  if (dbias)
    memset(dbias, 0, H * T * T * sizeof *dbias);
  TL(crossentropy_backward)(DA(A_LOGITS, 0), A(A_PROBS, 0), m->tgt + k->off, N, V, m->count);
  TL(matmul_backward)(DA(A_LNF, 0), G(P_WTE), NULL, DA(A_LOGITS, 0), A(A_LNF, 0), V(m)->p[P_WTE],
                        N, D, V);
  TL(layernorm_backward)(DA(A_RES3, L - 1), G(P_LNFW), G(P_LNFB), DA(A_LNF, 0),
                           A(A_RES3, L - 1), V(m)->p[P_LNFW], A(A_LNFM, 0), A(A_LNFR, 0), N, D);
  int rope = ps->rotate;
  for (size_t l = L; l-- > 0;) {
    real *resin = l ? A(A_RES3, l - 1) : A(A_ENC, 0);
    real *dresin = l ? DA(A_RES3, l - 1) : DA(A_ENC, 0);
    real *qkv = A(A_QKV, l), *dqkv = DA(A_QKV, l);
    real *qkvr = rope ? A(A_QKVR, l) : qkv, *dqkvr = rope ? DA(A_QKVR, l) : dqkv;
    TL(residual_backward_first)(DA(A_RES2, l), DA(A_FCPROJ, l), DA(A_RES3, l), N * D);
    TL(matmul_backward)(DA(A_FCHG, l), G(P_FCPROJW) + l * 4 * D * D, G(P_FCPROJB) + l * D,
                          DA(A_FCPROJ, l), A(A_FCHG, l), V(m)->p[P_FCPROJW] + l * 4 * D * D, N,
                          4 * D, D);
    TL(gelu_backward_first)(DA(A_FCH, l), A(A_FCH, l), A(A_FCHT, l), DA(A_FCHG, l), N * 4 * D);
    TL(matmul_backward)(DA(A_LN2, l), G(P_FCW) + l * 4 * D * D, G(P_FCB) + l * 4 * D,
                          DA(A_FCH, l), A(A_LN2, l), V(m)->p[P_FCW] + l * 4 * D * D, N, D, 4 * D);
    TL(layernorm_backward)(DA(A_RES2, l), G(P_LN2W) + l * D, G(P_LN2B) + l * D, DA(A_LN2, l),
                             A(A_RES2, l), V(m)->p[P_LN2W] + l * D, A(A_LN2M, l), A(A_LN2R, l), N,
                             D);
    TL(residual_backward_first)(dresin, DA(A_ATTPROJ, l), DA(A_RES2, l), N * D);
    TL(matmul_backward)(DA(A_ATTY, l), G(P_ATTPROJW) + l * D * D, G(P_ATTPROJB) + l * D,
                          DA(A_ATTPROJ, l), A(A_ATTY, l), V(m)->p[P_ATTPROJW] + l * D * D, N, D, D);
    if (rel_attention(c)) {
      size_t hd = D / H, nr = m->nrel;
      TL(rel) r, d;
      rel_tables(m, x, l, T, &r); /* again: the buffers hold the last layer's */
      d = r;
      d.A = r.A ? x->dA : NULL, d.Bt = r.Bt ? x->dBt : NULL, d.bias = dbias;
      d.u = r.u ? G(P_XLU) + l * D : NULL, d.v = r.v ? G(P_XLV) + l * D : NULL;
      if (d.A)
        memset(x->dA, 0, H * nr * hd * sizeof *x->dA);
      if (d.Bt)
        memset(x->dBt, 0, H * nr * hd * sizeof *x->dBt);
      TL(relattn_backward_ws)(dqkvr, &d, dpre, DA(A_ATTY, l), qkvr, A(A_ATT, l), &r, B, T, D, H,
                              x->work);
      if (ps->rel == RL_TPR_SINUSOID) { /* dW_r += dA R^T, per head */
        real *dW = G(P_XLW) + l * D * hd;
        for (size_t h = 0; h < H; h++)
          for (size_t i = 0; i < T; i++)
            for (size_t e = 0; e < hd; e++) {
              real g = x->dA[(h * nr + i) * hd + e];
              for (size_t f = 0; f < hd; f++)
                dW[(h * hd + e) * hd + f] += g * V(m)->xlR[i * hd + f];
            }
      }
      if (ps->rel == RL_TPR_TABLE) { /* back through the layer's q and k projections */
        memset(x->dproj, 0, nr * 3 * D * sizeof *x->dproj);
        for (size_t h = 0; h < H; h++)
          for (size_t i = 0; i < nr; i++)
            for (size_t e = 0; e < hd; e++) {
              x->dproj[i * 3 * D + D + h * hd + e] = x->dA[(h * nr + i) * hd + e];
              x->dproj[i * 3 * D + h * hd + e] = x->dBt[(h * nr + i) * hd + e];
            }
        TL(matmul_backward)(G(P_DEB), G(P_QKVW) + l * 3 * D * D, G(P_QKVB) + l * 3 * D,
                              x->dproj, V(m)->p[P_DEB], V(m)->p[P_QKVW] + l * 3 * D * D, nr, D, 3 * D);
      }
    } else
      TL(attention_backward)(dqkvr, dbias, dpre, NULL, DA(A_ATTY, l), qkvr, A(A_ATT, l), B, T,
                               D, H, (real)content_scale(c));
    if (rope)
      TL(rope_backward)(dqkv, dqkvr, V(m)->cs, V(m)->sn, B, T, D, H, m->rot, m->half);
    TL(matmul_backward)(DA(A_LN1, l), G(P_QKVW) + l * 3 * D * D, G(P_QKVB) + l * 3 * D, dqkv,
                          A(A_LN1, l), V(m)->p[P_QKVW] + l * 3 * D * D, N, D, 3 * D);
    TL(layernorm_backward)(dresin, G(P_LN1W) + l * D, G(P_LN1B) + l * D, DA(A_LN1, l), resin,
                             V(m)->p[P_LN1W] + l * D, A(A_LN1M, l), A(A_LN1R, l), N, D);
  }
  if (dbias && ps->bias == RL_TPB_BUCKETS)
    TL(t5_backward)(G(P_T5), dbias, H, T, c->num_buckets, c->max_distance);
  if (dbias && ps->bias == RL_TPB_ABSPAIR)
    tupe_bias_backward(m, x, dbias, T, th);
  TL(encoder_backward)(G(P_WTE), ps->embed == RL_TPE_LEARNED ? G(P_WPE) : NULL, DA(A_ENC, 0),
                         m->inp + k->off, B, T, D);
#undef A
#undef DA
#undef G
}

void FN(pair_norm_sums)(const rl_train_model *m, double *q, double *k, size_t *count)
{
  const rl_train_cfg *c = &m->cfg;
  size_t D = c->d_model, H = c->heads, hd = D / H, np = hd / 2;
  int half = m->ps->rotate && m->have_rope && m->half;
  for (size_t ci = 0; ci < m->nch; ci++) {
    const struct rl_tm_chunk *ck = &m->ch[ci];
    for (size_t j = 0; j < ck->Bc; j++) {
      size_t len = m->rowlen[m->perm[ck->b0 + j]];
      *count += len;
      for (size_t l = 0; l < c->layers; l++) {
        const real *base = cact(m, V(m)->a, A_QKV, l, ck) + j * ck->Tc * 3 * D;
        for (size_t t = 0; t < len; t++) {
          const real *v = base + t * 3 * D;
          for (size_t h = 0; h < H; h++)
            for (size_t i = 0; i < np; i++) {
              size_t a = half ? i : 2 * i, b = half ? i + np : 2 * i + 1;
              const real *qh = v + h * hd, *kh = v + D + h * hd;
              q[(l * H + h) * np + i] += hypot((double)qh[a], (double)qh[b]);
              k[(l * H + h) * np + i] += hypot((double)kh[a], (double)kh[b]);
            }
        }
      }
    }
  }
}

/* One head of one row of the last forward, as the per-row readers below
 * see it: chunk ck's row j, layer l, head h; o = b L H + l H + h, the
 * caller's slot for it (b the caller's row). */
struct head_at {
  const struct rl_tm_chunk *ck;
  size_t j, l, h, o;
};

/* Calls fn on every head of every row of the last forward.  0 when every
 * row reads T positions, else 1 (the readers average over t >= r, which
 * needs the whole row). */
static int each_head(const rl_train_model *m,
                     void (*fn)(const rl_train_model *, const struct head_at *, void *), void *ctx)
{
  const rl_train_cfg *c = &m->cfg;
  for (size_t ci = 0; ci < m->nch; ci++) {
    const struct rl_tm_chunk *ck = &m->ch[ci];
    for (size_t j = 0; j < ck->Bc; j++) {
      size_t b = m->perm[ck->b0 + j];
      if (m->rowlen[b] != m->T)
        return 1;
      for (size_t l = 0; l < c->layers; l++)
        for (size_t h = 0; h < c->heads; h++) {
          struct head_at at = {ck, j, l, h, (b * c->layers + l) * c->heads + h};
          fn(m, &at, ctx);
        }
    }
  }
  return 0;
}

/* Head at's [t][t2] matrix of tensor i (A_ATT or A_PRE). */
static const real *head_tt(const rl_train_model *m, int i, const struct head_at *at)
{
  size_t Tc = at->ck->Tc;
  return cact(m, V(m)->a, i, at->l, at->ck) + (at->j * m->cfg.heads + at->h) * Tc * Tc;
}

/* Sums over t >= r into means: row r of T had T - r terms. */
static void by_distance_mean(double *row, size_t T)
{
  for (size_t r = 0; r < T; r++)
    row[r] /= (double)(T - r);
}

struct attn_out { double *ent, *dist; };

static void attn_head(const rl_train_model *m, const struct head_at *at, void *ctx)
{
  const struct attn_out *o = ctx;
  size_t T = m->T, Tc = at->ck->Tc;
  const real *a = head_tt(m, A_ATT, at);
  double *dr = o->dist + at->o * T, e = 0;
  memset(dr, 0, T * sizeof *dr);
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++) {
      double p = (double)a[t * Tc + t2];
      if (p > 0)
        e -= p * log(p);
      dr[t - t2] += p;
    }
  o->ent[at->o] = e / (double)T;
  by_distance_mean(dr, T);
}

/* Each row's attention statistics from the last forward's weights (the
 * softmax attention_forward and relattn_forward wrote, [b][h][t][t2]):
 * ent[b][l H + h] the mean over the row's positions t of -sum a ln a,
 * dist[(b L H + l H + h) T + r] the mean over t >= r of a[t][t - r];
 * b the caller's row.  0 when every row reads T positions, else 1. */
int FN(attn_rows)(const rl_train_model *m, double *ent, double *dist)
{
  struct attn_out o = {ent, dist};
  return each_head(m, attn_head, &o);
}

struct logit_out { double *logit, *norot; };

static void logit_head(const rl_train_model *m, const struct head_at *at, void *ctx)
{
  const struct logit_out *o = ctx;
  size_t T = m->T, Tc = at->ck->Tc, D = m->cfg.d_model, hd = D / m->cfg.heads;
  double sc = content_scale(&m->cfg);
  const real *p = head_tt(m, A_PRE, at);
  const real *qkv = cact(m, V(m)->a, A_QKV, at->l, at->ck) + at->j * Tc * 3 * D + at->h * hd;
  double *lr = o->logit + at->o * T, *nr = o->norot ? o->norot + at->o * T : NULL;
  memset(lr, 0, T * sizeof *lr);
  if (nr)
    memset(nr, 0, T * sizeof *nr);
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++) {
      lr[t - t2] += (double)p[t * Tc + t2];
      if (nr) { /* in double: a reference, not the forward's sum */
        const real *q = qkv + t * 3 * D, *kk = qkv + t2 * 3 * D + D;
        double s = 0;
        for (size_t e = 0; e < hd; e++)
          s += (double)q[e] * (double)kk[e];
        nr[t - t2] += s * sc;
      }
    }
  by_distance_mean(lr, T);
  if (nr)
    by_distance_mean(nr, T);
}

/* Each row's attention logits by distance from the last forward: the
 * pre-softmax scores the forward computed ([b][h][t][t2], the scale and
 * any bias or relative terms in them), logit[(b L H + l H + h) T + r]
 * the mean over t >= r of pre[t][t - r]; norot (rope, or NULL) the same
 * of the scaled q.k before the rotation, from the layer's qkv.  0 when
 * every row reads T positions, else 1. */
int FN(logit_rows)(const rl_train_model *m, double *logit, double *norot)
{
  struct logit_out o = {logit, norot};
  return each_head(m, logit_head, &o);
}

/* The last forward's probabilities and losses, in the caller's layout:
 * rows in their order, positions past a row's last target (never
 * computed) at 0. */
void FN(gather)(rl_train_model *m)
{
  size_t T = m->T, nv = m->cfg.vocab;
  memset(m->probs_out, 0, m->B * T * nv * sizeof *m->probs_out);
  memset(m->losses_out, 0, m->B * T * sizeof *m->losses_out);
  for (size_t k = 0; k < m->nch; k++) {
    const struct rl_tm_chunk *ck = &m->ch[k];
    const real *p = cact(m, V(m)->a, A_PROBS, 0, ck), *ls = cact(m, V(m)->a, A_LOSSES, 0, ck);
    for (size_t j = 0; j < ck->Bc; j++) {
      size_t b = m->perm[ck->b0 + j];
      double *po = m->probs_out + b * T * nv, *lo = m->losses_out + b * T;
      for (size_t i = 0; i < ck->Tc * nv; i++)
        po[i] = p[j * ck->Tc * nv + i];
      for (size_t i = 0; i < ck->Tc; i++)
        lo[i] = ls[j * ck->Tc + i];
    }
  }
}
