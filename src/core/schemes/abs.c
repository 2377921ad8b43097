/* abs.c: the schemes that add a position vector p_i to the input,
 * logit = (W_q(x_i + p_i))^T W_k(x_j + p_j) / sqrt(d) split into its four
 * products (RoFormer eq. 6-7 and sec. 2.2), and `nope` (no position).
 *
 * Prepared vector (2d): [W x, W p(pos)]; the pair is four dot products. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h"

/* ---- nope: no positional information (Haviv et al. 2022, "Transformer
 * language models without positional encodings still learn positional
 * information"; Kazemnejad et al. 2023, NoPE) ---- */

static rl_status nope_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                           const double *x, double *out)
{
  (void)pos;
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out,
                s->d);
  return RL_OK;
}

/* cc alone (and, for t5, alibi, tupe, terms free of content): q.k scaled */
void rl_sch_cc_coef(const rl_scheme *s, size_t head, const double *pq, double *ut, double *uc)
{
  (void)head;
  for (size_t k = 0; k < s->d; k++)
    ut[k] = uc[k] = pq[k] * s->scale;
}

static rl_status nope_pair(const rl_scheme *s, size_t head, const double *pi,
                           const double *pj, const double *pq, const double *pk,
                           rl_logit_terms *t)
{
  (void)head, (void)pi, (void)pj;
  t->cc = rl_sch_dot(pq, pk, s->d) * s->scale;
  rl_sch_total(t);
  return RL_OK;
}

const rl_scheme_ops rl_sch_nope = {
    .info = {"nope", "no position: the content-content term alone",
             "Haviv et al. 2022, Findings of EMNLP; Kazemnejad et al. 2023, NeurIPS",
             "-", "-", RL_SCHEME_RELATIVE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR,
             RL_INPUT_NONE, RL_BUCKETS_NONE, 0},
    .prep = nope_prep,
    .pair = nope_pair,
    .key_coef = rl_sch_cc_coef,
    .prep_mult = 1,
};

/* ---- the additive family ---- */

static rl_status add_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                          const double *x, double *out)
{
  size_t d = s->d;
  const double *W = role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head);
  rl_status st = s->ops->encode(s, pos[0], out + d); /* p(pos) as scratch */
  if (st)
    return st;
  double *tmp = out; /* W p first into out[0..d) via a copy of p */
  memcpy(tmp, out + d, d * sizeof *tmp);
  rl_sch_matvec(W, tmp, out + d, d);
  rl_sch_matvec(W, x, out, d);
  return RL_OK;
}

static rl_status add_pair(const rl_scheme *s, size_t head, const double *pi,
                          const double *pj, const double *pq, const double *pk,
                          rl_logit_terms *t)
{
  (void)head, (void)pi, (void)pj;
  size_t d = s->d;
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;
  t->cp = rl_sch_dot(pq, pk + d, d) * s->scale;
  t->pc = rl_sch_dot(pq + d, pk, d) * s->scale;
  t->pp = rl_sch_dot(pq + d, pk + d, d) * s->scale;
  rl_sch_total(t);
  return RL_OK;
}

/* The key's position part W_k p(pos) alone, and the key from it: the
 * arithmetic of add_prep's key, so the bytes are the same. */
static size_t add_kslen(const rl_scheme *s)
{
  return s->d;
}

static rl_status add_kstate(const rl_scheme *s, size_t head, const double *pos, double *st)
{
  size_t d = s->d;
  const double *W = rl_sch_wk(s, head);
  if (!W)
    return s->ops->encode(s, pos[0], st);
  double *p = malloc(d * sizeof *p);
  if (!p)
    return RL_ENOMEM;
  rl_status r = s->ops->encode(s, pos[0], p);
  if (!r)
    rl_sch_matvec(W, p, st, d);
  free(p);
  return r;
}

static void add_kfrom(const rl_scheme *s, size_t head, const double *x, const double *st,
                      double *out)
{
  rl_sch_matvec(rl_sch_wk(s, head), x, out, s->d);
  memcpy(out + s->d, st, s->d * sizeof *out);
}

/* the key's content enters cc and pc: (W_q x_i + W_q p_i).k scaled */
static void add_kcoef(const rl_scheme *s, size_t head, const double *pq, double *ut, double *uc)
{
  (void)head;
  for (size_t k = 0; k < s->d; k++) {
    uc[k] = pq[k] * s->scale;
    ut[k] = (pq[k] + pq[s->d + k]) * s->scale;
  }
}

#define ADD_KEY                                                                             \
  .key_state_len = add_kslen, .key_state = add_kstate, .key_from = add_kfrom,               \
  .key_coef = add_kcoef

/* sinusoidal: Vaswani et al. 2017, "Attention is all you need", sec. 3.5:
 * PE(pos, 2k) = sin(pos / base^(2k/d)), PE(pos, 2k+1) = cos(same), the
 * frequencies of rl_schedule_rope(d, d, base), angles by rl_angle_sincos
 * (accurate to 2^31).  Reference: tensor2tensor
 * get_timing_signal_1d concatenates instead; the paper interleaves. */
static rl_status sin_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  if (s->d % 2) {
    rl_sch_err(err, "sinusoidal needs an even dimension, not '%zu'", s->d);
    return RL_EINVAL;
  }
  rl_status st = rl_schedule_rope(s->d, s->d, s->cfg.rope.base, &s->f);
  if (st)
    rl_sch_err(err, "bad base '%g': must be finite and > 1", s->cfg.rope.base);
  return st;
}

/* The encodings of a run of integer positions, per thread: extrapolate
 * prepares its keys at positions 0, 1, 2, ... in every sample, and one
 * exact sin/cos per pair and key was ~13 us a key (45 s of CPU at N = 32K,
 * 100 samples).  A miss fills ENC_CAP doubles (1024 positions at d = 128)
 * from rl_angle_sincos_rows, the same values within the same 0.55 ulp
 * (angle_rows.c), ~0.2 us a key.  The cache is keyed by the frequencies
 * themselves (a copy, compared entry by entry), so another scheme at the
 * same address cannot read stale values.  Allocated on a thread's first
 * use, freed when the thread ends (a pthread key's destructor). */
enum { ENC_CAP = 1 << 17, ENC_PAIRS = 4096 };
typedef struct enc_cache {
  size_t n, count;
  double pos0, last; /* the first cached position; the last one asked */
  double theta[ENC_PAIRS], theta_lo[ENC_PAIRS];
  double c[ENC_CAP / 2], s[ENC_CAP / 2];
} enc_cache;
static _Thread_local enc_cache *encp;
static pthread_key_t enc_key;
static pthread_once_t enc_once = PTHREAD_ONCE_INIT;
static int enc_key_ok;

static void enc_key_init(void)
{
  enc_key_ok = !pthread_key_create(&enc_key, free);
}

static int enc_same(const enc_cache *e, const rl_schedule *f)
{
  return e->n == f->n && !memcmp(e->theta, f->theta, f->n * sizeof *f->theta) &&
         !memcmp(e->theta_lo, f->theta_lo, f->n * sizeof *f->theta_lo);
}

static int enc_cached(const rl_schedule *f, double pos, double *out)
{
  size_t n = f->n;
  if (n > ENC_PAIRS || n == 0 || !f->prec->exact || f->attn != 1.0 || pos != floor(pos) ||
      pos < 0 || pos > RL_POS_MAX)
    return 0;
  if (!encp) {
    pthread_once(&enc_once, enc_key_init);
    if (!enc_key_ok || !(encp = calloc(1, sizeof *encp)))
      return 0;
    encp->last = -2;
    if (pthread_setspecific(enc_key, encp)) {
      free(encp);
      encp = NULL;
      return 0;
    }
  }
  enc_cache *e = encp;
  if (!(e->count && enc_same(e, f) && pos >= e->pos0 && pos < e->pos0 + (double)e->count)) {
    /* fill only for a run of positions (this one follows the last asked):
     * a lone position (a query, a planted key) costs less the old way */
    int run = pos == e->last + 1;
    e->last = pos;
    if (!run)
      return 0;
    size_t count = ENC_CAP / 2 / n;
    if ((double)count - 1 > RL_POS_MAX - pos)
      count = (size_t)(RL_POS_MAX - pos) + 1;
    e->count = 0;
    if (rl_angle_sincos_rows(f->theta, f->theta_lo, n, pos, 1, count, e->c, e->s))
      return 0;
    memcpy(e->theta, f->theta, n * sizeof *f->theta);
    memcpy(e->theta_lo, f->theta_lo, n * sizeof *f->theta_lo);
    e->n = n;
    e->pos0 = pos;
    e->count = count;
  }
  e->last = pos;
  size_t j = (size_t)(pos - e->pos0);
  for (size_t k = 0; k < n; k++) {
    out[2 * k + 1] = e->c[j * n + k];
    out[2 * k] = e->s[j * n + k];
  }
  return 1;
}

static rl_status sin_encode(const rl_scheme *s, double pos, double *out)
{
  if (enc_cached(s->f, pos, out))
    return RL_OK;
  for (size_t k = 0; k < s->f->n; k++) {
    rl_status st = rl_schedule_sincos(s->f, k, pos, &out[2 * k + 1], &out[2 * k]);
    if (st)
      return st;
  }
  return RL_OK;
}

const rl_scheme_ops rl_sch_sinusoidal = {
    .info = {"sinusoidal", "fixed sines and cosines added to the input",
             "Vaswani et al. 2017, NeurIPS, sec. 3.5",
             "tensorflow/tensor2tensor common_attention.get_timing_signal_1d (order differs)",
             "absolute positions", RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR,
             RL_INPUT_ABSOLUTE, RL_BUCKETS_NONE, RL_HAS_FREQS},
    .init = sin_init,
    .prep = add_prep,
    ADD_KEY,
    .pair = add_pair,
    .encode = sin_encode,
    .prep_mult = 2,
};

/* learned: an absolute table of max_len rows (BERT, Devlin et al. 2019;
 * GPT, Radford et al. 2018), init N(0, 0.02^2) as BERT's
 * initializer_range (HF BertPreTrainedModel._init_weights). */
static rl_status learned_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  size_t d = s->d;
  s->tab_format = "position";
  s->tab_cols = d;
  if (s->cfg.param_file) {
    rl_status st = rl_sch_read_vec(s->cfg.param_file, "position", d, (size_t)1 << 24,
                                   rl_sch_param_limit(RL_SCH_TAB_LEARNED, d), &s->tab,
                                   &s->tab_rows, err);
    if (st)
      return st;
    s->cfg.max_len = s->tab_rows;
    return RL_OK;
  }
  if (s->cfg.max_len < 1 || s->cfg.max_len > (1u << 24)) {
    rl_sch_err(err, "bad table length '%zu': must be 1..16777216", s->cfg.max_len);
    return RL_EINVAL;
  }
  s->tab_rows = s->cfg.max_len;
  s->tab = malloc(s->tab_rows * d * sizeof *s->tab);
  if (!s->tab)
    return RL_ENOMEM;
  rl_sch_gauss(rng, s->tab, s->tab_rows * d, 0.02);
  return RL_OK;
}

static rl_status learned_encode(const rl_scheme *s, double pos, double *out)
{
  size_t row;
  rl_status st = rl_sch_row(s, pos, s->tab_rows, &row);
  if (!st)
    memcpy(out, s->tab + row * s->d, s->d * sizeof *out);
  return st;
}

static size_t learned_count(const rl_scheme *s, size_t len)
{
  return len * s->d;
}

const rl_scheme_ops rl_sch_learned = {
    .info = {"learned", "a trained absolute table of max_len rows added to the input",
             "Devlin et al. 2019, NAACL (BERT); Gehring et al. 2017, ICML",
             "HF transformers modeling_bert.py BertEmbeddings.position_embeddings",
             "absolute positions",
             RL_SCHEME_ABSOLUTE | RL_SCHEME_LEARNED | RL_SCHEME_LINEAR | RL_SCHEME_INTEGER,
             RL_INPUT_ABSOLUTE, RL_BUCKETS_NONE, 0},
    .init = learned_init,
    .prep = add_prep,
    ADD_KEY,
    .pair = add_pair,
    .encode = learned_encode,
    .count = learned_count,
    .count_formula = "len*d",
    .prep_mult = 2,
    .drawn = "table (max_len x d) ~ N(0, 0.02^2)",
};

/* integer: the raw position added to every component, the naive baseline
 * whose unbounded values the bounded sinusoids were designed to avoid. */
static rl_status int_encode(const rl_scheme *s, double pos, double *out)
{
  for (size_t k = 0; k < s->d; k++)
    out[k] = pos;
  return RL_OK;
}

const rl_scheme_ops rl_sch_integer = {
    .info = {"integer", "naive baseline: the position itself added to every component",
             "baseline (Vaswani et al. 2017 sec. 3.5 motivates bounded codes)", "-",
             "absolute positions", RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR,
             RL_INPUT_ABSOLUTE, RL_BUCKETS_NONE, 0},
    .prep = add_prep,
    ADD_KEY,
    .pair = add_pair,
    .encode = int_encode,
    .prep_mult = 2,
};

/* binary: component k is bit k of the position (0 or 1; bits past 52 and
 * past d are dropped; negative positions are RL_ERANGE), the discrete
 * counterpart of the sinusoids' alternating frequencies. */
static rl_status bin_encode(const rl_scheme *s, double pos, double *out)
{
  if (!rl_sch_isint(pos))
    return RL_EINVAL;
  if (pos < 0)
    return RL_ERANGE;
  uint64_t p = (uint64_t)pos;
  for (size_t k = 0; k < s->d; k++)
    out[k] = k < 64 ? (double)((p >> k) & 1u) : 0.0;
  return RL_OK;
}

static rl_status bin_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)s, (void)rng, (void)err;
  return RL_OK;
}

const rl_scheme_ops rl_sch_binary = {
    .info = {"binary", "naive baseline: the bits of the position as the encoding",
             "baseline (the discrete form of Vaswani et al. 2017 sec. 3.5)",
             "-", "absolute positions",
             RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR | RL_SCHEME_INTEGER,
             RL_INPUT_ABSOLUTE, RL_BUCKETS_NONE, 0},
    .init = bin_init,
    .prep = add_prep,
    ADD_KEY,
    .pair = add_pair,
    .encode = bin_encode,
    .prep_mult = 2,
};
