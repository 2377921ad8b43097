/* train.h: (installed as ropelab/train.h, included by ropelab.h) a tiny
 * decoder-only transformer trained in C, with the core's positional
 * schemes, on synthetic tasks whose test lengths pass the training
 * length (issue 18).
 *
 * The model: token embedding (tied to the output), L layers of pre-norm
 * (LayerNorm) causal self-attention with H heads and a GELU MLP (4 D
 * wide; the tanh approximation of GELU, as GPT-2), a final LayerNorm.
 * Forward and backward are written out per
 * layer as llm.c's train_gpt2.c does (src/core/train/layers.h): all
 * activations and gradients in buffers allocated once by rl_train_new,
 * for batches of at most cfg.batch sequences of at most cfg.max_T
 * positions; matrix products through CBLAS; in double, or in float with
 * float64 master weights (cfg.dtype).
 *
 * Positional schemes (names as rl_scheme_list's):
 *   nope        none: causal masking alone
 *   sinusoidal  Vaswani et al. 2017 sec. 3.5, added to the embedding
 *   learned     a learned table of max_T rows added to the embedding (rows
 *               past the training length stay at their initial values)
 *   t5          a learned bias per head and bucket (rl_t5_bucket, causal),
 *               shared by all layers as in T5
 *   alibi       -slope_h (i - j) on the logits (rl_scheme_alibi_slopes)
 *   rope        q and k of every head turned by a schedule's cos/sin table
 *               (rl_train_set_rope: any method whose logit is a function of
 *               the table alone, so the model can be trained with plain
 *               RoPE and evaluated under PI, NTK, YaRN, ...)
 *   xl          Transformer-XL (Dai et al. 2019 sec. 3.3) as the core's
 *               (src/core/schemes/rel.c): per head, (q + u).k + (q + v).W_r
 *               R_{i-j}, over sqrt(hd), R_r = [sin(r f), cos(r f)] of the
 *               head dimension (f_k = base^(-2k/hd)), W_r (hd x hd), u and
 *               v learned per layer and head (the reference's untied
 *               r_w_bias, r_r_bias; no memory: one segment)
 *   deberta     DeBERTa (He et al. 2021 eq. 4-5) as the core's: q.k + q.K^r
 *               + k.Q^r over sqrt(3 hd), K^r, Q^r the layer's own key and
 *               query projections (bias included) of a learned table of
 *               relative embeddings shared by the layers (DeBERTa-v3's
 *               share_att_key), at clamp(bucket(i - j) + k, 0, 2k - 1) with
 *               rl_deberta_bucket, k = num_buckets, max_position =
 *               max_distance.  A decoder's keys never follow the query, so
 *               only the table's upper half (k rows) exists here; no
 *               LayerNorm on the table (the core normalises its initial
 *               draw, HF a learned LayerNorm each forward)
 *   tupe        TUPE-A (Ke et al. 2021 eq. 6) as the core's: q.k/sqrt(2 hd)
 *               + (U_q pbar_i).(U_k pbar_j)/sqrt(2 hd), pbar a learned
 *               table of max_T positions after a LayerNorm without affine,
 *               U_q, U_k (D x D, split by head), shared by the layers (the
 *               reference computes the term once per encoder).  Not
 *               applied: the [CLS] untying (a decoder has no [CLS]; its
 *               first token is an ordinary position here) and TUPE-R's
 *               bias (use t5 for a relative bias)
 * Not trained: rope2d (2-d positions: the tasks are sequences), integer
 * and binary (fixed unnormalised features, no learned or decaying scale,
 * not among the schemes), and the rope methods that are not a
 * table of the absolute position (rerope's position map, xpos'
 * amplitudes, log-n's query scale: rl_train_set_rope refuses them). */
#ifndef ROPELAB_TRAIN_H
#define ROPELAB_TRAIN_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A trained scheme is an index k < rl_train_pos_count() of the
 * trainer's registry (src/core/train/pos.c; each scheme's declaration in
 * pos_*.c), named rl_train_pos_names()[k] (NULL-terminated, the order of
 * the list above; the names are the scheme registry's).  A checkpoint
 * stores the name, not k. */
typedef int rl_train_pos;
size_t rl_train_pos_count(void);
const char *const *rl_train_pos_names(void);
/* The index of a scheme's name, or -1. */
int rl_train_pos_find(const char *name);

/* The arithmetic of the forward and backward.  float64: everything in
 * double (the gradient checks' dtype).  float32: weights, activations and
 * gradients in float, the products by sgemm; the master weights and
 * AdamW's moments stay float64 (mixed precision's master weights: the
 * float32 weights are the master weights rounded at each forward, the
 * gradient is widened for the update), so the API's arrays
 * (rl_train_params, _grads, _probs) and a checkpoint's tensors are
 * float64 in both. */
typedef enum rl_train_dtype {
  RL_TDTYPE_FLOAT64 = 0,
  RL_TDTYPE_FLOAT32,
  RL_TDTYPE_COUNT
} rl_train_dtype;
/* "float64", "float32", NULL-terminated. */
const char *const *rl_train_dtype_names(void);

typedef struct rl_train_cfg {
  size_t vocab;        /* tokens (rl_task_vocab) */
  size_t d_model;      /* D, a multiple of heads (64) */
  size_t heads;        /* H (4) */
  size_t layers;       /* L (2) */
  size_t batch;        /* sequences per forward at most (32) */
  size_t max_T;        /* positions per sequence at most (64) */
  rl_train_pos pos;    /* (rope) */
  size_t num_buckets;  /* t5 (32) */
  size_t max_distance; /* t5 (128) */
  double base;         /* sinusoidal (10000) */
  uint64_t seed;       /* initial weights (1) */
  size_t threads;      /* threads of a forward and backward (1), 1..64 */
  size_t chunks;       /* micro-batches of a forward (4): the rows sorted
                          by the positions they use (through their last
                          target), each group run at its own length, the
                          groups shared among the threads.  Results are
                          the same for a seed, threads and chunks (not
                          bit-equal across them: sums regroup) */
  int dtype;           /* rl_train_dtype (float64, the 0 of a zeroed cfg) */
} rl_train_cfg;
void rl_train_cfg_default(rl_train_cfg *cfg);

typedef struct rl_train_model rl_train_model;

/* RL_EINVAL (err: one lowercase line) for a configuration the model
 * cannot take; RL_ENOMEM. */
rl_status rl_train_new(const rl_train_cfg *cfg, rl_train_model **out, char *err);
void rl_train_free(rl_train_model *m); /* accepts NULL */
const rl_train_cfg *rl_train_get_cfg(const rl_train_model *m);
/* rope: the schedule whose table rl_schedule_cossin_rows gives turns q
 * and k (its dim must be D / H); the model copies the table for
 * positions 0..max_T-1.  RL_EINVAL for another dim or a method that is
 * not a function of the table alone (!rl_schedule_is_plain);
 * RL_ERANGE from the table.  Required before a rope model's forward. */
rl_status rl_train_set_rope(rl_train_model *m, const rl_schedule *sc, char *err);

/* All parameters in one array (the layout of src/core/train/model.c), and
 * their gradients in the same layout. */
size_t rl_train_nparams(const rl_train_model *m);
double *rl_train_params(rl_train_model *m);
double *rl_train_grads(rl_train_model *m);
/* Bytes the model allocated (parameters, AdamW moments, activations and
 * their gradients): fixed at rl_train_new. */
size_t rl_train_bytes(const rl_train_model *m);
/* For a configuration rl_train_new accepts, before building it: the
 * parameter count, and the bytes of the arrays it allocates (parameters,
 * gradients, moments, activations and theirs; within a few percent of
 * rl_train_bytes), so that a reader can refuse a model that cannot fit
 * before asking for its memory. */
size_t rl_train_cfg_nparams(const rl_train_cfg *cfg);
double rl_train_cfg_bytes(const rl_train_cfg *cfg);

/* inp, tgt: B x T tokens (B <= batch, T <= max_T); tgt -1 = no loss.
 * Returns the mean cross-entropy (nats) over the counted positions. */
double rl_train_forward(rl_train_model *m, const int *inp, const int *tgt, size_t B, size_t T);
/* grads += the gradient of the last forward's mean loss. */
void rl_train_backward(rl_train_model *m);
void rl_train_zero_grad(rl_train_model *m);
/* FLOPs of every forward and backward so far: matrix products 2 N C OC,
 * attention's q.k and att v 2 hd per causal pair, backward twice the
 * forward; elementwise work not counted; positions past a row's last
 * target are not computed, so not counted. */
double rl_train_flops(const rl_train_model *m);
/* Softmax of the last forward, [B][T][vocab], and per-position losses
 * (0 past a row's last target: causal attention makes those positions
 * change no loss, so they are not computed). */
const double *rl_train_probs(const rl_train_model *m);
const double *rl_train_losses(const rl_train_model *m);

/* AdamW (Loshchilov and Hutter 2019): decoupled weight decay on the
 * weight matrices and tables (not on biases, norms or the t5 bias). */
typedef struct rl_adamw {
  double beta1, beta2, eps, weight_decay; /* 0.9, 0.99, 1e-8, 0.1 */
  double clip; /* the gradient's global norm is clipped to this; 0 = off (1) */
} rl_adamw;
void rl_adamw_default(rl_adamw *a);
/* One step at learning rate lr; returns the gradient norm before
 * clipping.  The step count (bias correction) is the model's. */
double rl_train_update(rl_train_model *m, const rl_adamw *a, double lr);
/* Linear warmup over warmup steps to lr, then a half cosine from lr down
 * to min_lr at step steps - 1 (step counts from 0). */
double rl_train_lr(size_t step, size_t steps, size_t warmup, double lr, double min_lr);

/* The FLOP rate of this build's cblas_dgemm on n x n matrices, run on
 * `threads` threads at once for `seconds` (each its own matrices):
 * FLOPs (2 n^3 a product) over wall time; the peak that a training
 * run's rl_train_flops per second is measured against.  0 on bad input. */
double rl_train_peak_flops(size_t n, size_t threads, double seconds);
/* The same for a dtype (rl_train_dtype): sgemm for float32. */
double rl_train_peak_flops_dtype(size_t n, size_t threads, double seconds, int dtype);

/* The CBLAS of the trainer's and extrapolate's products, "openblas" or "gsl" (OpenBLAS is
 * opened at the first product where the build found it, on one thread
 * unless OPENBLAS_NUM_THREADS is set; else GSL's gslcblas), and its
 * kernel family (OpenBLAS's core name, "Haswell", "SkylakeX"; "-" for
 * gslcblas): the order of its sums is part of what makes a training run
 * the same bits again. */
const char *rl_train_blas_name(void);
const char *rl_train_blas_core(void);

/* The trainer's random numbers: SplitMix64 (Steele, Lea and Flood 2014),
 * the same stream on every machine for a seed. */
typedef struct rl_train_rng {
  uint64_t s;
} rl_train_rng;
void rl_train_rng_seed(rl_train_rng *r, uint64_t seed);
uint64_t rl_train_rng_u64(rl_train_rng *r);
double rl_train_rng_uniform(rl_train_rng *r); /* [0, 1), 53 bits */
size_t rl_train_rng_below(rl_train_rng *r, size_t n); /* [0, n), unbiased */
double rl_train_rng_normal(rl_train_rng *r);  /* N(0, 1), Box-Muller */

/* Synthetic tasks, after Kazemnejad et al. 2023 ("The Impact of
 * Positional Encoding on Length Generalization in Transformers", NeurIPS,
 * sec. 3 and app. D.1).  An example of length n is a sequence s, a
 * question then its answer, over symbols 0..symbols-1, SEP = symbols,
 * PAD = symbols + 1 and (add, add-rev) PLUS = symbols + 2:
 *   copy     x SEP x, x n symbols uniform over the alphabet
 *   reverse  x SEP (x backwards)
 *   sort     x SEP (x in ascending order; their single-token variant)
 *   recall   associative recall (Ba et al. 2016, "Using fast weights to
 *            attend to the recent past", sec. 4.1): n pairs k v with
 *            distinct keys, SEP, one of the keys; the answer is its
 *            value (one token).  n <= symbols.
 *   add      a PLUS b SEP y: a, b n digits each in base `symbols`, most
 *            significant first, leading zeros allowed (so n is both
 *            operands' length); y = a + b in n + 1 digits (the first the
 *            carry, maybe 0), most significant first: Kazemnejad et al.'s
 *            order (their Table 1, "5 3 7 2 6 + 1 9 1 7 ?" -> "5 5 6 4 3"),
 *            which makes the first answer digit depend on every carry
 *   add-rev  the same with y least significant digit first: the order of
 *            Lee et al. 2023 ("Teaching arithmetic to small transformers",
 *            ICLR 2024, "reverse") and Zhou et al. 2024, in which each
 *            digit needs only the two operand digits and the carry out of
 *            the digit generated just before it, the usual setup for
 *            length generalisation of addition
 *   count    x^n SEP x^n SEP, x one uniform symbol: Kazemnejad et al.'s
 *            Copy variant 1 ("the input tokens are the same, so the model
 *            basically counts the number of input tokens"), with an end
 *            token (SEP) so that the count is scored: the answer is the
 *            n + 1 tokens x^n SEP
 * The model reads BOS s without s's last token (rl_task_len inputs) and
 * is scored on the answer; BOS is the PAD symbol (as GPT-2's
 * <|endoftext|> both opens and separates), a fixed first token from
 * which a model without positional encoding can count positions
 * (Kazemnejad et al.'s Theorem 1 constructs absolute positions from it);
 * shorter examples in a batch are padded (PAD input, no loss). */
typedef enum rl_task_kind {
  RL_TASK_COPY = 0,
  RL_TASK_REVERSE,
  RL_TASK_RECALL,
  RL_TASK_SORT,
  RL_TASK_ADD,
  RL_TASK_ADD_REV,
  RL_TASK_COUNTING,
  RL_TASK_COUNT
} rl_task_kind;
const char *const *rl_task_names(void);
typedef struct rl_task {
  rl_task_kind kind;
  size_t symbols; /* alphabet size (10) */
} rl_task;
/* symbols + 2 (SEP, PAD); add and add-rev symbols + 3 (PLUS). */
size_t rl_task_vocab(const rl_task *t);
/* Input positions of an example of length n, BOS included: 2n + 1
 * (copy, reverse, sort), 2n + 3 (recall), 3n + 3 (add, add-rev), 2n + 2
 * (count). */
size_t rl_task_len(const rl_task *t, size_t n);
/* The answer's tokens: n (copy, reverse, sort), 1 (recall), n + 1 (add,
 * add-rev, count). */
size_t rl_task_answer_len(const rl_task *t, size_t n);
/* The answer y (rl_task_answer_len tokens) to a question q of length n
 * (the rl_task_len - rl_task_answer_len tokens before it, SEP
 * included); recall gives -1 when q's key is not among its keys. */
void rl_task_answer(const rl_task *t, size_t n, const int *q, int *y);
/* The longest example the task has: symbols for recall (distinct keys),
 * else SIZE_MAX. */
size_t rl_task_max_n(const rl_task *t);
/* One example of length n (1 <= n <= rl_task_max_n) into inp[T], tgt[T]
 * (T >= rl_task_len); outside these, all PAD and no target. */
void rl_task_example(const rl_task *t, rl_train_rng *r, size_t n, size_t T, int *inp, int *tgt);

/* Scores at one test length n over `samples` examples drawn from seed
 * (the same examples for every model):
 *   exact      the fraction of examples whose every answer token is the
 *              argmax (equal to greedy decoding reproducing y: with all
 *              argmaxes right, each step's input is the true token)
 *   token_acc  the fraction of answer tokens that are the argmax
 *   loss       the mean cross-entropy per answer token (nats)
 * RL_EINVAL when rl_task_len(n) > max_T or n > rl_task_max_n. */
typedef struct rl_train_eval {
  size_t len, samples;
  double exact, token_acc, loss;
} rl_train_eval;
rl_status rl_train_evaluate(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                            uint64_t seed, rl_train_eval *res, char *err);

/* Measures on a trained model (issue 35 item 5).
 *
 * The learned positional term of head h's attention logit when the key is
 * dist positions before the query, the same in every layer: t5 the
 * bias of bucket rl_t5_bucket(-dist, causal) as the forward adds it,
 * alibi -slope_h dist.  RL_EINVAL for another scheme or h >= heads. */
rl_status rl_train_pos_bias(const rl_train_model *m, size_t h, size_t dist, double *out);
/* Which frequencies a trained head uses (Barbero et al. 2024, "Round and
 * Round We Go! What makes Rotary Positional Encodings useful?", sec. 4):
 * the norm of each rotation pair of the queries and keys before the
 * rotation (which keeps it), per layer, head and pair, averaged over the
 * positions computed: q[(l H + h) (hd/2) + i].  Pair i is (2i, 2i+1)
 * (interleaved) or (i, i + hd/2) (half), as the model's rope layout.
 * _sums adds the last forward's sums (the positions through each row's
 * last target, *count of them); rl_train_pair_norms runs the forward on
 * `samples` examples of length n drawn from seed (rl_task_example), as
 * rl_train_evaluate does, and divides.  A rope model needs its table set. */
void rl_train_pair_norm_sums(const rl_train_model *m, double *q, double *k, size_t *count);
rl_status rl_train_pair_norms(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                              uint64_t seed, double *q, double *k, char *err);

/* The attention a trained model pays on task inputs (issue 35 item 5,
 * `extrapolate --checkpoint F`): the attention weights of the model's own
 * forward (rl_train_forward, which keeps them for the backward) on
 * `samples` examples of length n drawn from seed (rl_task_example, as
 * rl_train_evaluate), each reading T = rl_task_len(n) positions, every
 * position a query over the keys 0..t (causal).  Per layer l and head h,
 * at [l H + h] and [(l H + h) T + r]:
 *   ent      the entropy -sum_k a_k ln a_k (nats, not divided by
 *            anything) of a query's attention, averaged over the T query
 *            positions of an example, then over the examples
 *   ent_max  the same average of ln(t + 1), the entropy of uniform
 *            attention (the largest the queries can have), one number
 *   dist     the mean weight at distance r = t - key: over the queries
 *            t >= r of an example (T - r of them), then over the examples
 *   _se      the standard error over the examples (sample sd / sqrt
 *            samples; 0 for one example), through Welford's update
 * The caller gives ent, ent_se (layers x heads) and dist, dist_se
 * (layers x heads x T).  RL_EINVAL (err) when T > max_T or n > the
 * task's longest; RL_ENOMEM.  A rope model needs its table set. */
typedef struct rl_train_attn {
  size_t n, T, samples;
  double ent_max;
  double *ent, *ent_se, *dist, *dist_se;
} rl_train_attn;
rl_status rl_train_attention(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                             uint64_t seed, rl_train_attn *out, char *err);
/* The last forward's rows (rl_train_forward's B rows of T positions):
 * ent[b][l H + h] and dist[((b L + l) H + h) T + r] as rl_train_attention
 * averages them, for one example each.  0, or 1 when a row's last target
 * is before position T - 1 (its later positions were not computed). */
int rl_train_attn_rows(const rl_train_model *m, double *ent, double *dist);

/* The attention logit against distance on task inputs (issue 35 item 5,
 * `profile --checkpoint F --measure logit`): the pre-softmax score the
 * model's own forward computes for query i and key j <= i, everything in
 * it (rope: q_i . R(j - i) k_j / sqrt(hd); t5, alibi, tupe: plus their
 * bias; xl, deberta: their relative terms; each scheme's scale), on
 * `samples` examples of length n drawn from seed (rl_task_example, as
 * rl_train_evaluate and rl_train_attention), each reading T =
 * rl_task_len(n) positions.  Per layer l, head h and distance r = i - j
 * at [(l H + h) T + r]:
 *   logit     the mean over the queries i >= r of an example (T - r of
 *             them), then over the examples
 *   norot     rope only (else leave it NULL): the same with the rotation
 *             removed (R = I), q_i . k_j / sqrt(hd) of the unrotated
 *             queries and keys, summed in double, so that logit - norot
 *             is what the rotation does at each distance
 *   _se       the standard error over the examples (0 for one example)
 * The caller gives logit, logit_se and (rope, where wanted) norot,
 * norot_se, layers x heads x T each.  RL_EINVAL (err) when T > max_T or n
 * > the task's longest; RL_ENOMEM.  A rope model needs its table set. */
typedef struct rl_train_logit {
  size_t n, T, samples;
  double *logit, *logit_se, *norot, *norot_se;
} rl_train_logit;
rl_status rl_train_logit_dist(rl_train_model *m, const rl_task *t, size_t n, size_t samples,
                              uint64_t seed, rl_train_logit *out, char *err);
/* The last forward's rows: logit[((b L + l) H + h) T + r] and, for a rope
 * model where norot is not NULL, norot[...] as rl_train_logit_dist
 * averages them, for one example each.  0, or 1 when a row's last target
 * is before position T - 1. */
int rl_train_logit_rows(const rl_train_model *m, double *logit, double *norot);

#ifdef __cplusplus
}
#endif
#endif
