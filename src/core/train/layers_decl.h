/* layers_decl.h: the declarations of layers.h for one real type, included
 * by layers.h twice: RL_REAL double with RL_TL(name) rl_tl_name, then
 * float with rl_tlf_name (the comments say double; read RL_REAL). */
/* out[b,t] = wte[inp[b,t]] + (wpe ? wpe[t] : 0) (learned or fixed). */
void RL_TL(encoder_forward)(RL_REAL *out, const int *inp, const RL_REAL *wte, const RL_REAL *wpe,
                           size_t B, size_t T, size_t C);
/* dwte[inp] += dout; dwpe[t] += dout when dwpe (learned table). */
void RL_TL(encoder_backward)(RL_REAL *dwte, RL_REAL *dwpe, const RL_REAL *dout, const int *inp,
                            size_t B, size_t T, size_t C);

/* LayerNorm (Ba et al. 2016) over C, eps 1e-5: out = (x - mean) rstd w + b;
 * mean and rstd (N = B T entries) kept for the backward. */
void RL_TL(layernorm_forward)(RL_REAL *out, RL_REAL *mean, RL_REAL *rstd, const RL_REAL *inp,
                             const RL_REAL *w, const RL_REAL *b, size_t N, size_t C);
void RL_TL(layernorm_backward)(RL_REAL *dinp, RL_REAL *dw, RL_REAL *db, const RL_REAL *dout,
                              const RL_REAL *inp, const RL_REAL *w, const RL_REAL *mean,
                              const RL_REAL *rstd, size_t N, size_t C);

/* out[N][OC] = inp[N][C] w[OC][C]^T + bias[OC] (bias may be NULL), by
 * cblas_dgemm. */
void RL_TL(matmul_forward)(RL_REAL *out, const RL_REAL *inp, const RL_REAL *w, const RL_REAL *bias,
                          size_t N, size_t C, size_t OC);
void RL_TL(matmul_backward)(RL_REAL *dinp, RL_REAL *dw, RL_REAL *dbias, const RL_REAL *dout,
                           const RL_REAL *inp, const RL_REAL *w, size_t N, size_t C, size_t OC);

/* RoPE on the q and k thirds of qkv[B][T][3C] (H heads of hd = C/H):
 * pair i of a head (interleaved: dims 2i, 2i+1; half: i, i + rot/2) at
 * position t turned by cs[t][i] = attn cos, sn[t][i] = attn sin (the
 * schedule's table, rl_schedule_cossin_rows); dims from rot on, and v,
 * copied.  rot <= hd, npairs = rot/2. */
void RL_TL(rope_forward)(RL_REAL *out, const RL_REAL *inp, const RL_REAL *cs, const RL_REAL *sn,
                        size_t B, size_t T, size_t C, size_t H, size_t rot, int half);
void RL_TL(rope_backward)(RL_REAL *dinp, const RL_REAL *dout, const RL_REAL *cs, const RL_REAL *sn,
                         size_t B, size_t T, size_t C, size_t H, size_t rot, int half);

/* Causal multi-head attention on qkv[B][T][3C]: preatt = scale q.k
 * + bias[h][t][t2] (bias [H][T][T] or NULL; only t2 <= t read), att =
 * softmax over t2 <= t (zero above), out[b][t][h hd ..] = sum att v.
 * scale: 1 / sqrt(hd), or TUPE's 1 / sqrt(2 hd).  preatt, att:
 * [B][H][T][T]. */
void RL_TL(attention_forward)(RL_REAL *out, RL_REAL *preatt, RL_REAL *att, const RL_REAL *qkv,
                             const RL_REAL *bias, size_t B, size_t T, size_t C, size_t H,
                             RL_REAL scale);
/* dqkv += ..., dbias[h][t][t2] += sum over b of dpreatt (when dbias);
 * dpreatt: [B][H][T][T] scratch, overwritten; datt the same, the gradient
 * of att (or NULL: not kept). */
void RL_TL(attention_backward)(RL_REAL *dqkv, RL_REAL *dbias, RL_REAL *dpreatt, RL_REAL *datt,
                              const RL_REAL *dout, const RL_REAL *qkv, const RL_REAL *att,
                              size_t B, size_t T, size_t C, size_t H,
                              RL_REAL scale);

/* Attention with relative terms between content and position tables,
 * for Transformer-XL and DeBERTa (the core's definitions, src/core/
 * schemes/rel.c), per head h, query t, key t2 <= t, r = idx[t][t2]:
 *   preatt = scale ((q + u_h).k + (q + v_h).A[h][r] + k.Bt[h][r])
 *            + bias[h][t][t2]
 * Transformer-XL (Dai et al. 2019 sec. 3.3): A = W_r R_{t-t2}, u, v its
 * two biases, no Bt.  DeBERTa (He et al. 2021 eq. 4-5): A = K^r (c2p),
 * Bt = Q^r (p2c), no u, v.  Any of A, Bt, u, v, bias may be NULL; A, Bt:
 * [H][nrel][hd]; idx [T][T]. */
typedef struct RL_TL(rel) {
  const size_t *idx;
  size_t nrel;
  RL_REAL scale;
  RL_REAL *A, *Bt, *u, *v, *bias;
} RL_TL(rel);
void RL_TL(relattn_forward)(RL_REAL *out, RL_REAL *preatt, RL_REAL *att, const RL_REAL *qkv,
                           const RL_TL(rel) *r, size_t B, size_t T, size_t C, size_t H);
/* dqkv and d's non-NULL tables (same shapes as r's) += ...; d->bias, when
 * set, takes dpreatt summed over the batch; dpreatt: scratch. */
void RL_TL(relattn_backward)(RL_REAL *dqkv, RL_TL(rel) *d, RL_REAL *dpreatt, const RL_REAL *dout,
                            const RL_REAL *qkv, const RL_REAL *att, const RL_TL(rel) *r, size_t B,
                            size_t T, size_t C, size_t H);
/* The same two as the trainer calls them, with a scratch work of
 * RL_TL_REL_WORK(T, nrel, hd) entries: the float build computes through
 * sgemm (per sequence and head, the content logits over the square and
 * the position terms against the whole tables, as its plain attention),
 * its sums in another order than the loops above; the double build is
 * the loops above (work unread, the same bits). */
#ifndef RL_TL_REL_WORK
#define RL_TL_REL_WORK(T, nrel, hd) (2 * (T) * (hd) + 2 * (T) * (nrel) + (T) + (nrel))
#endif
void RL_TL(relattn_forward_ws)(RL_REAL *out, RL_REAL *preatt, RL_REAL *att, const RL_REAL *qkv,
                              const RL_TL(rel) *r, size_t B, size_t T, size_t C, size_t H,
                              RL_REAL *work);
void RL_TL(relattn_backward_ws)(RL_REAL *dqkv, RL_TL(rel) *d, RL_REAL *dpreatt,
                               const RL_REAL *dout, const RL_REAL *qkv, const RL_REAL *att,
                               const RL_TL(rel) *r, size_t B, size_t T, size_t C, size_t H,
                               RL_REAL *work);

/* Content-free attention biases [H][T][T] (query t, key t2 <= t):
 * ALiBi -slope_h (t - t2) (Press et al. 2022, eq. in sec. 3); T5 table
 * t5[bucket][h] at rl_t5_bucket(t2 - t, causal, nb, maxd) (Raffel et al.
 * 2020 sec. 2.1), shared by all layers as in T5. */
void RL_TL(alibi_bias)(RL_REAL *bias, const RL_REAL *slopes, size_t H, size_t T);
void RL_TL(t5_forward)(RL_REAL *bias, const RL_REAL *t5, size_t H, size_t T, size_t nb,
                      size_t maxd);
void RL_TL(t5_backward)(RL_REAL *dt5, const RL_REAL *dbias, size_t H, size_t T, size_t nb,
                       size_t maxd);

/* GELU, tanh approximation (Hendrycks and Gimpel 2016, GPT-2's); th
 * keeps the tanh for the backward (tanh was a sixth of a step's time
 * when computed twice). */
void RL_TL(gelu_forward)(RL_REAL *out, RL_REAL *th, const RL_REAL *inp, size_t N);
/* The first write of a gradient that would be zeroed and then receive
 * only this (model_chunk.h): dinp = 0 + the term, the same bits as
 * zero-then-accumulate (0 + x, also for x = -0), without the zeroing. */
void RL_TL(gelu_backward_first)(RL_REAL *dinp, const RL_REAL *inp, const RL_REAL *th,
                               const RL_REAL *dout, size_t N);

void RL_TL(residual_forward)(RL_REAL *out, const RL_REAL *a, const RL_REAL *b, size_t N);
/* da = db = 0 + dout: the first write of both (as gelu_backward_first) */
void RL_TL(residual_backward_first)(RL_REAL *da, RL_REAL *db, const RL_REAL *dout, size_t N);

/* Softmax over V and cross-entropy against tgt (-1: no loss at that
 * position); losses[n] = -log p[tgt] (0 where ignored).  Returns the mean
 * over the counted positions (0 when none). */
double RL_TL(crossentropy_forward)(RL_REAL *losses, RL_REAL *probs, const RL_REAL *logits,
                                  const int *tgt, size_t N, size_t V);
/* dlogits += (probs - onehot) / count on counted positions: the gradient
 * of the mean loss over count positions (0: those counted here; a
 * micro-batch passes its whole batch's count). */
void RL_TL(crossentropy_backward)(RL_REAL *dlogits, const RL_REAL *probs, const int *tgt, size_t N,
                                 size_t V, size_t count);

