/* abs.c: the schemes that add a position vector p_i to the input,
 * logit = (W_q(x_i + p_i))^T W_k(x_j + p_j) / sqrt(d) split into its four
 * products (RoFormer eq. 6-7 and sec. 2.2), and `nope` (no position).
 *
 * Prepared vector (2d): [W x, W p(pos)]; the pair is four dot products. */
#include <math.h>
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
             "-", "-", RL_SCHEME_RELATIVE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR},
    .prep = nope_prep,
    .pair = nope_pair,
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

static rl_status sin_encode(const rl_scheme *s, double pos, double *out)
{
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
             "absolute positions", RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR},
    .init = sin_init,
    .prep = add_prep,
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
             RL_SCHEME_ABSOLUTE | RL_SCHEME_LEARNED | RL_SCHEME_LINEAR | RL_SCHEME_INTEGER},
    .init = learned_init,
    .prep = add_prep,
    .pair = add_pair,
    .encode = learned_encode,
    .count = learned_count,
    .prep_mult = 2,
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
             "absolute positions", RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR},
    .prep = add_prep,
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
             RL_SCHEME_ABSOLUTE | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR | RL_SCHEME_INTEGER},
    .init = bin_init,
    .prep = add_prep,
    .pair = add_pair,
    .encode = bin_encode,
    .prep_mult = 2,
};
