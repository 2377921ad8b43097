/* model_impl.h (internal to src/core/train): the trainer's model, shared
 * by model.c (allocation, the plan of chunks, threads, AdamW, the scans)
 * and the compute of one dtype, model_f64.c and model_f32.c (one source,
 * model_chunk.h, compiled for double and for float).
 *
 * Both dtypes keep float64 master weights and AdamW moments (params, m1,
 * m2) and a float64 copy of the gradient (grads): the API's arrays, the
 * checkpoint's tensors and AdamW's arithmetic are float64 in both.  A
 * float32 model computes in its view f: float32 weights (rounded from
 * the master weights at each forward), activations and gradients; the
 * gradient is widened into grads after each backward, AdamW updates the
 * master weights in float64 (the master-weight scheme of mixed-precision
 * training, Micikevicius et al. 2018 "Mixed Precision Training", sec.
 * 3.1, with float64 over float32 where they have float32 over float16).
 * A float64 model's view d is the master arrays themselves. */
#ifndef RL_TRAIN_MODEL_IMPL_H
#define RL_TRAIN_MODEL_IMPL_H

#include <stddef.h>
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
static inline int rl_tm_has_grad(int i)
{
  return !(i == A_LN1M || i == A_LN1R || i == A_LN2M || i == A_LN2R || i == A_LNFM ||
           i == A_LNFR || i == A_FCHT || i == A_PRE || i == A_ATT || i == A_PROBS ||
           i == A_LOSSES);
}
/* Tensors laid out once per model rather than per layer. */
static inline int rl_tm_layered(int i)
{
  return !(i == A_ENC || i == A_LNF || i == A_LNFM || i == A_LNFR || i == A_LOGITS ||
           i == A_PROBS || i == A_LOSSES);
}

/* per thread, for xl, deberta and tupe */
#define RL_TM_SCRATCH(real)                                                     \
  {                                                                             \
    size_t *idx;         /* [max_T][max_T] relative index of a chunk */        \
    real *A, *Bt, *dA, *dBt; /* [H][nrel][hd] */                               \
    real *proj, *dproj;      /* deberta: [nrel][3D] */                         \
    real *pbar, *pm, *pr, *pq, *pk, *dpq, *dpk, *dpbar; /* tupe: [max_T][D] */ \
    real *ones, *zeros, *dw, *db; /* tupe: the fixed LayerNorm's affine, [D] */ \
    real *work; /* xl, deberta, float: relattn's, RL_TL_REL_WORK(max_T, nrel, hd) */ \
  }
struct rl_tm_scratch_d RL_TM_SCRATCH(double);
struct rl_tm_scratch_f RL_TM_SCRATCH(float);

/* The arrays a forward and backward compute in, of one real type. */
#define RL_TM_VIEW(real, scratch)                                               \
  {                                                                             \
    real *params, *grads;  /* weights and thread 0's gradients, np each */      \
    real *p[P_COUNT], *g[P_COUNT];                                              \
    real *acts, *dacts, *a[A_COUNT], *da[A_COUNT];                              \
    real *pe;              /* sinusoidal table [max_T][D], or NULL */           \
    real *slopes;          /* alibi, H */                                       \
    real *cs, *sn;         /* rope table [max_T][rot/2] */                      \
    real *xlR;             /* xl: R_r [max_T][hd], sines then cosines */        \
    real *dpre;   /* attention logits' gradient, [batch][H][max_T][max_T] */    \
    real *tgrads; /* threads - 1 private gradients, np each */                  \
    real *tbias, *tdbias; /* per thread [H][max_T][max_T] (t5, alibi, tupe) */  \
    struct scratch *scr;                                                        \
  }
struct rl_tm_view_d RL_TM_VIEW(double, rl_tm_scratch_d);
struct rl_tm_view_f RL_TM_VIEW(float, rl_tm_scratch_f);

struct rl_tm_chunk {
  size_t b0, Bc, Tc, off, aoff; /* sorted rows b0.., positions and attention entries before */
  size_t thread;
};

struct rl_train_model {
  rl_train_cfg cfg;
  int f32;             /* cfg.dtype == RL_TDTYPE_FLOAT32: compute in f */
  size_t psize[P_COUNT], asize[A_COUNT], np, na, nda;
  double *params, *grads, *m1, *m2; /* float64 master weights, gradient, moments */
  double *p[P_COUNT], *g[P_COUNT];
  struct rl_tm_view_d d; /* float64: d.params = params, d.grads = grads */
  struct rl_tm_view_f f; /* float32: its own arrays (all NULL in float64) */
  double *pe, *slopes, *cs, *sn, *xlR; /* the fixed tables in float64 (d's) */
  size_t rot;
  int half, have_rope;
  int *inp, *tgt;      /* the chunks' rows, each chunk Bc x Tc */
  size_t B, T, step;
  double mean_loss, flops;
  size_t bytes;
  /* micro-batches ("chunks"): the rows sorted by the length they use
   * (through their last target: causal attention makes later positions
   * change no loss), cut into cfg.chunks groups run each at its own
   * length, on cfg.threads threads */
  size_t nch, *perm, *rowlen, count;
  struct rl_tm_chunk *ch;
  double *probs_out, *losses_out; /* [B][T][V] and [B][T] in the caller's layout */
  size_t nrel;           /* xl: max_T; deberta: num_buckets (the key-before-query half) */
  const struct rl_tpos *ps; /* the scheme's declaration (pos_impl.h) */
};

/* xl's and deberta's relative index of a chunk of T positions (model.c). */
void rl_tm_rel_index(const rl_train_model *m, size_t *idx, size_t T);
/* The compute of one dtype (model_chunk.h): a chunk's forward and
 * backward; the last forward's probabilities and losses into the
 * caller's layout (probs_out, losses_out); rl_train_pair_norm_sums;
 * rl_train_attn_rows; rl_train_logit_rows. */
void rl_tm_chunk_forward_d(rl_train_model *m, const struct rl_tm_chunk *k);
void rl_tm_chunk_backward_d(rl_train_model *m, const struct rl_tm_chunk *k);
void rl_tm_gather_d(rl_train_model *m);
void rl_tm_pair_norm_sums_d(const rl_train_model *m, double *q, double *k, size_t *count);
int rl_tm_attn_rows_d(const rl_train_model *m, double *ent, double *dist);
int rl_tm_logit_rows_d(const rl_train_model *m, double *logit, double *norot);
void rl_tm_chunk_forward_f(rl_train_model *m, const struct rl_tm_chunk *k);
void rl_tm_chunk_backward_f(rl_train_model *m, const struct rl_tm_chunk *k);
void rl_tm_gather_f(rl_train_model *m);
void rl_tm_pair_norm_sums_f(const rl_train_model *m, double *q, double *k, size_t *count);
int rl_tm_attn_rows_f(const rl_train_model *m, double *ent, double *dist);
int rl_tm_logit_rows_f(const rl_train_model *m, double *logit, double *norot);

#endif
