/* layers.h (internal to src/core/train and its tests): one forward and
 * one backward function per layer of the trainer's decoder, in double,
 * the structure of llm.c's train_gpt2.c (Karpathy; github.com/karpathy/
 * llm.c): each forward writes preallocated activations, each backward
 * ACCUMULATES (+=) into preallocated gradients, so a layer's input
 * gradient can be summed over the paths that read it (residuals, tied
 * embeddings).  No autograd: the model (model.c) calls them in order.
 *
 * Shapes: B sequences of T positions, C channels; rows are contiguous
 * ([B][T][C]).  tests/train/test_layers.c checks every backward against
 * central finite differences of its forward. */
#ifndef RL_TRAIN_LAYERS_H
#define RL_TRAIN_LAYERS_H

#include <stddef.h>

/* out[b,t] = wte[inp[b,t]] + (wpe ? wpe[t] : 0) (learned or fixed). */
void rl_tl_encoder_forward(double *out, const int *inp, const double *wte, const double *wpe,
                           size_t B, size_t T, size_t C);
/* dwte[inp] += dout; dwpe[t] += dout when dwpe (learned table). */
void rl_tl_encoder_backward(double *dwte, double *dwpe, const double *dout, const int *inp,
                            size_t B, size_t T, size_t C);

/* LayerNorm (Ba et al. 2016) over C, eps 1e-5: out = (x - mean) rstd w + b;
 * mean and rstd (N = B T entries) kept for the backward. */
void rl_tl_layernorm_forward(double *out, double *mean, double *rstd, const double *inp,
                             const double *w, const double *b, size_t N, size_t C);
void rl_tl_layernorm_backward(double *dinp, double *dw, double *db, const double *dout,
                              const double *inp, const double *w, const double *mean,
                              const double *rstd, size_t N, size_t C);

/* out[N][OC] = inp[N][C] w[OC][C]^T + bias[OC] (bias may be NULL), by
 * cblas_dgemm. */
void rl_tl_matmul_forward(double *out, const double *inp, const double *w, const double *bias,
                          size_t N, size_t C, size_t OC);
void rl_tl_matmul_backward(double *dinp, double *dw, double *dbias, const double *dout,
                           const double *inp, const double *w, size_t N, size_t C, size_t OC);

/* RoPE on the q and k thirds of qkv[B][T][3C] (H heads of hd = C/H):
 * pair i of a head (interleaved: dims 2i, 2i+1; half: i, i + rot/2) at
 * position t turned by cs[t][i] = attn cos, sn[t][i] = attn sin (the
 * schedule's table, rl_schedule_cossin_rows); dims from rot on, and v,
 * copied.  rot <= hd, npairs = rot/2. */
void rl_tl_rope_forward(double *out, const double *inp, const double *cs, const double *sn,
                        size_t B, size_t T, size_t C, size_t H, size_t rot, int half);
void rl_tl_rope_backward(double *dinp, const double *dout, const double *cs, const double *sn,
                         size_t B, size_t T, size_t C, size_t H, size_t rot, int half);

/* Causal multi-head attention on qkv[B][T][3C]: preatt = scale q.k
 * + bias[h][t][t2] (bias [H][T][T] or NULL; only t2 <= t read), att =
 * softmax over t2 <= t (zero above), out[b][t][h hd ..] = sum att v.
 * scale: 1 / sqrt(hd), or TUPE's 1 / sqrt(2 hd).  preatt, att:
 * [B][H][T][T]. */
void rl_tl_attention_forward(double *out, double *preatt, double *att, const double *qkv,
                             const double *bias, size_t B, size_t T, size_t C, size_t H,
                             double scale);
/* dqkv += ..., dbias[h][t][t2] += sum over b of dpreatt (when dbias);
 * dpreatt: [B][H][T][T] scratch, overwritten; datt the same, the gradient
 * of att (or NULL: not kept). */
void rl_tl_attention_backward(double *dqkv, double *dbias, double *dpreatt, double *datt,
                              const double *dout, const double *qkv, const double *att,
                              size_t B, size_t T, size_t C, size_t H,
                              double scale);

/* Attention with relative terms between content and position tables,
 * for Transformer-XL and DeBERTa (the core's definitions, src/core/
 * schemes/rel.c), per head h, query t, key t2 <= t, r = idx[t][t2]:
 *   preatt = scale ((q + u_h).k + (q + v_h).A[h][r] + k.Bt[h][r])
 *            + bias[h][t][t2]
 * Transformer-XL (Dai et al. 2019 sec. 3.3): A = W_r R_{t-t2}, u, v its
 * two biases, no Bt.  DeBERTa (He et al. 2021 eq. 4-5): A = K^r (c2p),
 * Bt = Q^r (p2c), no u, v.  Any of A, Bt, u, v, bias may be NULL; A, Bt:
 * [H][nrel][hd]; idx [T][T]. */
typedef struct rl_tl_rel {
  const size_t *idx;
  size_t nrel;
  double scale;
  double *A, *Bt, *u, *v, *bias;
} rl_tl_rel;
void rl_tl_relattn_forward(double *out, double *preatt, double *att, const double *qkv,
                           const rl_tl_rel *r, size_t B, size_t T, size_t C, size_t H);
/* dqkv and d's non-NULL tables (same shapes as r's) += ...; d->bias, when
 * set, takes dpreatt summed over the batch; dpreatt: scratch. */
void rl_tl_relattn_backward(double *dqkv, rl_tl_rel *d, double *dpreatt, const double *dout,
                            const double *qkv, const double *att, const rl_tl_rel *r, size_t B,
                            size_t T, size_t C, size_t H);

/* Content-free attention biases [H][T][T] (query t, key t2 <= t):
 * ALiBi -slope_h (t - t2) (Press et al. 2022, eq. in sec. 3); T5 table
 * t5[bucket][h] at rl_t5_bucket(t2 - t, causal, nb, maxd) (Raffel et al.
 * 2020 sec. 2.1), shared by all layers as in T5. */
void rl_tl_alibi_bias(double *bias, const double *slopes, size_t H, size_t T);
void rl_tl_t5_forward(double *bias, const double *t5, size_t H, size_t T, size_t nb,
                      size_t maxd);
void rl_tl_t5_backward(double *dt5, const double *dbias, size_t H, size_t T, size_t nb,
                       size_t maxd);

/* GELU, tanh approximation (Hendrycks and Gimpel 2016, GPT-2's); th
 * keeps the tanh for the backward (tanh was a sixth of a step's time
 * when computed twice). */
void rl_tl_gelu_forward(double *out, double *th, const double *inp, size_t N);
void rl_tl_gelu_backward(double *dinp, const double *inp, const double *th, const double *dout,
                         size_t N);

void rl_tl_residual_forward(double *out, const double *a, const double *b, size_t N);
void rl_tl_residual_backward(double *da, double *db, const double *dout, size_t N);

/* Softmax over V and cross-entropy against tgt (-1: no loss at that
 * position); losses[n] = -log p[tgt] (0 where ignored).  Returns the mean
 * over the counted positions (0 when none). */
double rl_tl_crossentropy_forward(double *losses, double *probs, const double *logits,
                                  const int *tgt, size_t N, size_t V);
/* dlogits += (probs - onehot) / count on counted positions: the gradient
 * of the mean loss over count positions (0: those counted here; a
 * micro-batch passes its whole batch's count). */
void rl_tl_crossentropy_backward(double *dlogits, const double *probs, const int *tgt, size_t N,
                                 size_t V, size_t count);

#endif
