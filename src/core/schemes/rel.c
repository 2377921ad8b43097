/* rel.c: the schemes that rewrite the position terms of the logit
 * in relative form (Transformer-XL, T5, DeBERTa, ALiBi) and TUPE's untied
 * absolute correlation.  Every pair is O(d) from prepared vectors; the
 * position-only parts are tables indexed by bucket or precomputed per
 * position (see each scheme). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h"

static rl_status content_prep(const rl_scheme *s, size_t head, int role,
                              const double *pos, const double *x, double *out)
{
  (void)pos;
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out,
                s->d);
  return RL_OK;
}

static double *alloc_doubles(size_t n)
{
  return malloc((n ? n : 1) * sizeof(double));
}

/* ---- xl: Dai et al. 2019, ACL, "Transformer-XL", sec. 3.3 eq. (a)-(d):
 *   A_ij = q_i^T k_j + q_i^T W_r R_{i-j} + u^T k_j + v^T W_r R_{i-j}
 * with q = W_q x_i, k = W_k x_j, scaled by 1/sqrt(d) (the reference
 * multiplies AC + BD by self.scale = 1/sqrt(d_head)).  Reference
 * kimiyoung/transformer-xl pytorch/mem_transformer.py
 * RelPartialLearnableMultiHeadAttn (r_w_bias = u, r_r_bias = v, r_net =
 * W_r) and PositionalEmbedding: R_r = [sin(r f_k) k < d/2, cos(r f_k)],
 * sines then cosines, f_k = 1/base^(2k/d), r = i - j (pos_seq counts
 * klen-1 down to 0).
 * O(d) pair: y^T R_{i-j} with y = W_r^T q expands by the angle-addition
 * formulas into sum_k cos(j f_k) A_k + sin(j f_k) B_k, where the query
 * side A_k = g_k sin(i f_k) + h_k cos(i f_k), B_k = h_k sin(i f_k) -
 * g_k cos(i f_k) (g, h the sine and cosine halves of y) is prepared once.
 * Layout: v1 = u, v2 = v (H d each, shared stream); per head
 * hd->m = W_r (d x d, the head's stream) and hd->v = W_r^T v (d). */

static rl_status xl_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  size_t d = s->d, H = s->H;
  if (d % 2) {
    rl_sch_err(err, "xl needs an even dimension, not '%zu'", d);
    return RL_EINVAL;
  }
  if (rl_schedule_rope(d, d, s->cfg.rope.base, &s->f)) {
    rl_sch_err(err, "bad base '%g': must be finite and > 1", s->cfg.rope.base);
    return RL_EINVAL;
  }
  s->v1 = alloc_doubles(H * d);
  s->v2 = alloc_doubles(H * d);
  if (!s->v1 || !s->v2)
    return RL_ENOMEM;
  rl_sch_gauss(rng, s->v1, H * d, 0.02); /* init_std of the reference */
  rl_sch_gauss(rng, s->v2, H * d, 0.02);
  return RL_OK;
}

static rl_status xl_head(const rl_scheme *s, size_t h, rl_sch_head *hd, gsl_rng *rng)
{
  size_t d = s->d;
  hd->m = alloc_doubles(d * d);
  hd->v = alloc_doubles(d);
  if (!hd->m || !hd->v)
    return RL_ENOMEM;
  rl_sch_gauss(rng, hd->m, d * d, 1.0 / sqrt((double)d));
  rl_sch_matvec_t(hd->m, s->v2 + h * d, hd->v, d);
  return RL_OK;
}

/* y (d: sine half g, cosine half h) turned into A, B at position p */
static rl_status xl_phase(const rl_scheme *s, double p, const double *y, double *A,
                          double *B)
{
  size_t n = s->f->n;
  for (size_t k = 0; k < n; k++) {
    double c, sn;
    rl_status st = rl_schedule_sincos(s->f, k, p, &c, &sn);
    if (st)
      return st;
    A[k] = y[k] * sn + y[n + k] * c;
    B[k] = y[n + k] * sn - y[k] * c;
  }
  return RL_OK;
}

static rl_status xl_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                         const double *x, double *out)
{
  size_t d = s->d, n = s->f->n;
  if (role == RL_ROLE_KEY) {
    rl_sch_matvec(rl_sch_wk(s, head), x, out, d);
    for (size_t k = 0; k < n; k++) {
      rl_status st = rl_schedule_sincos(s->f, k, pos[0], &out[d + k], &out[d + n + k]);
      if (st)
        return st;
    }
    memset(out + 2 * d, 0, d * sizeof *out);
    return RL_OK;
  }
  double *y = out + 2 * d; /* scratch before its final use */
  const rl_sch_head *hd = &s->hd[head];
  rl_sch_matvec(hd->wq, x, out, d);
  rl_sch_matvec_t(hd->m, out, y, d);
  rl_status st = xl_phase(s, pos[0], y, out + d, out + d + n);
  if (!st)
    st = xl_phase(s, pos[0], hd->v, out + 2 * d, out + 2 * d + n);
  return st;
}

/* xl's key: [W_k x, cos and sin of pos, 0]; the middle is its state */
static size_t d_kslen(const rl_scheme *s)
{
  return s->d;
}

static rl_status xl_kstate(const rl_scheme *s, size_t head, const double *pos, double *st)
{
  (void)head;
  size_t n = s->f->n;
  for (size_t k = 0; k < n; k++) {
    rl_status r = rl_schedule_sincos(s->f, k, pos[0], &st[k], &st[n + k]);
    if (r)
      return r;
  }
  return RL_OK;
}

static void xl_kfrom(const rl_scheme *s, size_t head, const double *x, const double *st,
                     double *out)
{
  size_t d = s->d;
  rl_sch_matvec(rl_sch_wk(s, head), x, out, d);
  memcpy(out + d, st, d * sizeof *out);
  memset(out + 2 * d, 0, d * sizeof *out);
}

/* the key's content enters (a) and (c): (q + u).k scaled */
static void xl_kcoef(const rl_scheme *s, size_t head, const double *pq, double *ut, double *uc)
{
  const double *u = s->v1 + head * s->d;
  for (size_t k = 0; k < s->d; k++) {
    uc[k] = pq[k] * s->scale;
    ut[k] = (pq[k] + u[k]) * s->scale;
  }
}

static rl_status xl_pair(const rl_scheme *s, size_t head, const double *pi,
                         const double *pj, const double *pq, const double *pk,
                         rl_logit_terms *t)
{
  (void)pi, (void)pj;
  size_t d = s->d, n = s->f->n;
  const double *kc = pk + d, *ks = pk + d + n;
  double b = 0, dd = 0;
  for (size_t k = 0; k < n; k++) {
    b += kc[k] * pq[d + k] + ks[k] * pq[d + n + k];
    dd += kc[k] * pq[2 * d + k] + ks[k] * pq[2 * d + n + k];
  }
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;         /* (a) */
  t->cp = b * s->scale;                              /* (b) */
  t->pc = rl_sch_dot(s->v1 + head * d, pk, d) * s->scale; /* (c) */
  t->pp = dd * s->scale;                             /* (d) */
  rl_sch_total(t);
  return RL_OK;
}

static rl_status xl_encode(const rl_scheme *s, double pos, double *out)
{
  size_t n = s->f->n;
  for (size_t k = 0; k < n; k++) {
    rl_status st = rl_schedule_sincos(s->f, k, pos, &out[n + k], &out[k]);
    if (st)
      return st;
  }
  return RL_OK;
}

static size_t xl_count(const rl_scheme *s, size_t len)
{
  (void)len;
  return s->H * (s->d * s->d + 2 * s->d);
}

const rl_scheme_ops rl_sch_xl = {
    .info = {"xl", "Transformer-XL: q.k + q.W_r R_{i-j} + u.k + v.W_r R_{i-j}",
             "Dai et al. 2019, ACL, sec. 3.3",
             "kimiyoung/transformer-xl pytorch/mem_transformer.py "
             "RelPartialLearnableMultiHeadAttn, PositionalEmbedding",
             "i - j = query - key",
             RL_SCHEME_RELATIVE | RL_SCHEME_LEARNED | RL_SCHEME_UNBOUNDED,
             RL_INPUT_RELATIVE, RL_BUCKETS_NONE, RL_HAS_FREQS | RL_HAS_RELEMB},
    .init = xl_init,
    .head_init = xl_head,
    .prep = xl_prep,
    .pair = xl_pair,
    .key_state_len = d_kslen,
    .key_state = xl_kstate,
    .key_from = xl_kfrom,
    .key_coef = xl_kcoef,
    .encode = xl_encode,
    .count = xl_count,
    .count_formula = "H*(d^2 + 2d)",
    .prep_mult = 3,
    .drawn = "W_r ~ N(0, 1/d) per head, u and v ~ N(0, 0.02^2)",
    .drawn_with_file = "W_r ~ N(0, 1/d) per head, u and v ~ N(0, 0.02^2)",
};

/* ---- t5: Raffel et al. 2020, JMLR, sec. 2.1: a scalar per bucket of
 * relative position and head, added to the logit; buckets by
 * rl_t5_bucket (rel = key - query).  T5 has no 1/sqrt(d): its init folds
 * it into W_q (HF T5PreTrainedModel._init_weights, q std (d_model
 * d_kv)^-1/2); scaling cc by 1/sqrt(d) is that same logit.
 * tab = bias, num_buckets x H, N(0, 1/d) (HF: d_model^-1/2). */

static rl_status t5_table(rl_scheme *s, gsl_rng *rng, size_t nb, char *err)
{
  s->tab_rows = nb;
  s->tab_cols = s->H;
  s->tab_format = "bucket,head,bias";
  s->tab = alloc_doubles(nb * s->H);
  if (!s->tab)
    return RL_ENOMEM;
  if (s->cfg.param_file)
    return rl_sch_read_kv(s->cfg.param_file, "bucket,head,bias", nb, s->H,
                          rl_sch_param_limit(RL_SCH_TAB_BIAS, s->d), s->tab, err);
  rl_sch_gauss(rng, s->tab, nb * s->H, 1.0 / sqrt((double)s->d));
  return RL_OK;
}

static rl_status t5_check(const rl_scheme *s, int bidir, char *err)
{
  if (s->cfg.num_buckets > 1u << 20 || s->cfg.max_distance > (size_t)LONG_MAX / 2 ||
      rl_t5_bucket(0, bidir, (long)s->cfg.num_buckets, (long)s->cfg.max_distance) < 0) {
    rl_sch_err(err, "bad buckets '%zu' or max distance '%zu': need >= %d buckets and a "
               "max distance above num_buckets/%d", s->cfg.num_buckets, s->cfg.max_distance,
               bidir ? 4 : 2, bidir ? 4 : 2);
    return RL_EINVAL;
  }
  return RL_OK;
}

static rl_status t5_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  rl_status st = t5_check(s, s->cfg.bidirectional, err);
  return st ? st : t5_table(s, rng, s->cfg.num_buckets, err);
}

static rl_status t5_pair(const rl_scheme *s, size_t head, const double *pi,
                         const double *pj, const double *pq, const double *pk,
                         rl_logit_terms *t)
{
  long b = rl_t5_bucket((long)(pj[0] - pi[0]), s->cfg.bidirectional,
                        (long)s->cfg.num_buckets, (long)s->cfg.max_distance);
  t->cc = rl_sch_dot(pq, pk, s->d) * s->scale;
  t->bias = s->tab[(size_t)b * s->H + head];
  rl_sch_total(t);
  return RL_OK;
}

static size_t t5_count(const rl_scheme *s, size_t len)
{
  (void)len;
  return s->cfg.num_buckets * s->H;
}

const rl_scheme_ops rl_sch_t5 = {
    .info = {"t5", "T5: a learned bias per log-spaced bucket of key - query and head",
             "Raffel et al. 2020, JMLR 21(140), sec. 2.1",
             "HF transformers modeling_t5.py T5Attention._relative_position_bucket",
             RL_T5_RELPOS,
             RL_SCHEME_RELATIVE | RL_SCHEME_LEARNED | RL_SCHEME_BIAS | RL_SCHEME_UNBOUNDED |
                 RL_SCHEME_INTEGER,
             RL_INPUT_BUCKET, RL_BUCKETS_T5, RL_HAS_BUCKETS},
    .init = t5_init,
    .prep = content_prep,
    .pair = t5_pair,
    .key_coef = rl_sch_cc_coef,
    .count = t5_count,
    .count_formula = "buckets*H",
    .prep_mult = 1,
    .drawn = "bucket biases (buckets x heads) ~ N(0, 1/d)",
};

/* ---- tupe: Ke, He, Liu 2021, ICLR, "Rethinking positional encoding in
 * language pre-training", eq. (6)-(7): positions get their own
 * projections, (U_q p_i).(U_k p_j)/sqrt(2d), the content term is also
 * /sqrt(2d), and [CLS] (position 0) is untied: its row is a learned
 * theta_{cls->others}, its column theta_{others->cls}.  Reference
 * guolinke/TUPE fairseq/modules/transformer_sentence_encoder.py: the
 * table has max_len + 1 rows after LayerNorm (pos_ln); token t uses row
 * t + 1; theta_{cls->others} = (U_q p_0).(U_k p_0), theta_{others->cls} =
 * (U_q p_1).(U_k p_1), both scaled; the column is written first, then the
 * row, so entry (0, 0) is theta_{cls->others}.  TUPE-R adds a T5 bias
 * with num_buckets + 1 entries per head: bucket num_buckets/2 (which T5
 * never produces) for the [CLS] row, num_buckets for the [CLS] column.
 * Layout: tab = raw positions (max_len+1) x d; m1 = pbar, the table
 * after LayerNorm; v3 = bias; per head hd->m = U_q then U_k, hd->v = the
 * two thetas.  The prepared vector is [W x, U pbar_{pos+1}] (2 d^2 per
 * prepare rather than a table of H (max_len+1) d projections). */

static rl_status tupe_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  size_t d = s->d, H = s->H, nb = s->cfg.num_buckets;
  s->scale = 1.0 / sqrt(2.0 * (double)d);
  s->tab_format = "position";
  s->tab_cols = d;
  rl_status st;
  if (s->cfg.max_len < 1 || s->cfg.max_len > (1u << 20)) {
    rl_sch_err(err, "bad table length '%zu': must be 1..1048576", s->cfg.max_len);
    return RL_EINVAL;
  }
  if (s->cfg.tupe_rel && (st = t5_check(s, 1, err)))
    return st;
  /* the bias first, so that it is the same numbers with and without a
   * file replacing the table */
  s->v3 = alloc_doubles((nb + 1) * H);
  if (!s->v3)
    return RL_ENOMEM;
  rl_sch_gauss(rng, s->v3, (nb + 1) * H, 0.02);
  if (s->cfg.param_file) {
    st = rl_sch_read_vec(s->cfg.param_file, "position", d, ((size_t)1 << 20) + 1,
                         rl_sch_param_limit(RL_SCH_TAB_TUPE, d), &s->tab, &s->tab_rows, err);
    if (st)
      return st;
    if (s->tab_rows < 2) {
      rl_sch_err(err, "too few rows in '%s': tupe needs max_len + 1 >= 2", s->cfg.param_file);
      return RL_EFORMAT;
    }
    s->cfg.max_len = s->tab_rows - 1;
  } else {
    s->tab_rows = s->cfg.max_len + 1;
    s->tab = alloc_doubles(s->tab_rows * d);
    if (!s->tab)
      return RL_ENOMEM;
    rl_sch_gauss(rng, s->tab, s->tab_rows * d, 0.02);
  }
  s->m1 = alloc_doubles(s->tab_rows * d); /* pbar: the table after pos_ln */
  if (!s->m1)
    return RL_ENOMEM;
  memcpy(s->m1, s->tab, s->tab_rows * d * sizeof *s->m1);
  rl_sch_layernorm(s->m1, s->tab_rows, d);
  return RL_OK;
}

/* U_q, U_k of the head, and its two [CLS] thetas */
static rl_status tupe_head(const rl_scheme *s, size_t h, rl_sch_head *hd, gsl_rng *rng)
{
  (void)h;
  size_t d = s->d;
  double *a = alloc_doubles(2 * d);
  hd->m = alloc_doubles(2 * d * d);
  hd->v = alloc_doubles(2);
  if (!a || !hd->m || !hd->v) {
    free(a);
    return RL_ENOMEM;
  }
  rl_sch_gauss(rng, hd->m, 2 * d * d, 1.0 / sqrt((double)d));
  for (size_t r = 0; r < 2; r++) {
    rl_sch_matvec(hd->m, s->m1 + r * d, a, d);
    rl_sch_matvec(hd->m + d * d, s->m1 + r * d, a + d, d);
    hd->v[r] = rl_sch_dot(a, a + d, d) * s->scale;
  }
  free(a);
  return RL_OK;
}

static rl_status tupe_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                           const double *x, double *out)
{
  size_t d = s->d, row;
  rl_status st = rl_sch_row(s, pos[0], s->cfg.max_len, &row);
  if (st)
    return st;
  const rl_sch_head *hd = &s->hd[head];
  int q = role == RL_ROLE_QUERY;
  rl_sch_matvec(q ? hd->wq : hd->wk, x, out, d);
  rl_sch_matvec(hd->m + (q ? 0 : d * d), s->m1 + (row + 1) * d, out + d, d);
  return RL_OK;
}

/* tupe's key: [W_k x, U_k p(row + 1)]; the second half is its state */
static rl_status tupe_kstate(const rl_scheme *s, size_t head, const double *pos, double *st)
{
  size_t d = s->d, row;
  rl_status r = rl_sch_row(s, pos[0], s->cfg.max_len, &row);
  if (!r)
    rl_sch_matvec(s->hd[head].m + d * d, s->m1 + (row + 1) * d, st, d);
  return r;
}

static void tupe_kfrom(const rl_scheme *s, size_t head, const double *x, const double *st,
                       double *out)
{
  rl_sch_matvec(s->hd[head].wk, x, out, s->d);
  memcpy(out + s->d, st, s->d * sizeof *out);
}

long rl_tupe_bucket(long i, long j, long num_buckets, long max_distance)
{
  if (i == 0)
    return num_buckets / 2;
  if (j == 0)
    return num_buckets;
  return rl_t5_bucket(j - i, 1, num_buckets, max_distance);
}

static rl_status tupe_pair(const rl_scheme *s, size_t head, const double *pi,
                           const double *pj, const double *pq, const double *pk,
                           rl_logit_terms *t)
{
  size_t d = s->d, H = s->H, nb = s->cfg.num_buckets;
  int qcls = pi[0] == 0, kcls = pj[0] == 0;
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;
  const double *th = s->hd[head].v;
  t->pp = qcls ? th[0] : kcls ? th[1] : rl_sch_dot(pq + d, pk + d, d) * s->scale;
  if (s->cfg.tupe_rel) {
    size_t b = (size_t)rl_tupe_bucket((long)pi[0], (long)pj[0], (long)nb,
                                      (long)s->cfg.max_distance);
    t->bias = s->v3[b * H + head];
  }
  rl_sch_total(t);
  return RL_OK;
}

static rl_status tupe_encode(const rl_scheme *s, double pos, double *out)
{
  size_t row;
  rl_status st = rl_sch_row(s, pos, s->cfg.max_len, &row);
  if (st)
    return st;
  memcpy(out, s->tab + (row + 1) * s->d, s->d * sizeof *out);
  rl_sch_layernorm(out, 1, s->d);
  return RL_OK;
}

static size_t tupe_count(const rl_scheme *s, size_t len)
{
  size_t d = s->d, H = s->H;
  return (len + 1) * d + 2 * H * d * d + (s->cfg.tupe_rel ? (s->cfg.num_buckets + 1) * H : 0);
}

const rl_scheme_ops rl_sch_tupe = {
    .info = {"tupe", "TUPE: untied (U_q p_i).(U_k p_j)/sqrt(2d), [CLS] untied, optional T5 bias",
             "Ke, He, Liu 2021, ICLR, eq. (6)-(7)",
             "guolinke/TUPE fairseq/modules/transformer_sentence_encoder.py",
             "absolute positions (0 = [CLS]); bias: " RL_T5_RELPOS,
             RL_SCHEME_ABSOLUTE | RL_SCHEME_LEARNED | RL_SCHEME_BIAS | RL_SCHEME_INTEGER,
             RL_INPUT_ABSOLUTE, RL_BUCKETS_TUPE, 0},
    .init = tupe_init,
    .head_init = tupe_head,
    .prep = tupe_prep,
    .pair = tupe_pair,
    .key_state_len = d_kslen,
    .key_state = tupe_kstate,
    .key_from = tupe_kfrom,
    .key_coef = rl_sch_cc_coef,
    .encode = tupe_encode,
    .count = tupe_count,
    .count_formula = "(len + 1)*d + 2*H*d^2 (+ (buckets + 1)*H with tupe_rel)",
    .prep_mult = 2,
    .drawn = "positions ((max_len + 1) x d) ~ N(0, 0.02^2) then LayerNorm, U_q and U_k ~ "
             "N(0, 1/d) per head, relative bias ((buckets + 1) x heads) ~ N(0, 0.02^2)",
    .drawn_with_file = "U_q and U_k ~ N(0, 1/d) per head, relative bias ((buckets + 1) x heads) "
                       "~ N(0, 0.02^2)",
};

/* ---- deberta: He et al. 2021, ICLR, "DeBERTa", eq. (4)-(5):
 *   A_ij = Q^c_i K^c_j + Q^c_i K^r_{delta(i,j)} + K^c_j Q^r_{delta}
 * all / sqrt(3d) (scale_factor 1 + |{c2p, p2c}|), K^r = W_k P, Q^r = W_q P
 * with the content projections (DeBERTa-v3 share_att_key) and P the
 * relative embeddings (2k rows, k = position_buckets, or
 * max_relative_positions without buckets).  delta = clamp(bucket(i - j)
 * + k, 0, 2k - 1) (the attention span clamp).  Reference HF transformers
 * modeling_deberta_v2.py DisentangledSelfAttention
 * .disentangled_attention_bias: its p2c gathers with -r_pos transposed,
 * which indexes Q^r by clamp(bucket(i - j) + k) as c2p does; the paper
 * writes delta(j, i) (microsoft/DeBERTa issues #47, #162).  We follow the
 * code, which trained the released checkpoints.
 * Prepared vectors: a query [q, W_k^T q], a key [k, W_q^T k], since
 * q . (W_k P_delta) = (W_k^T q) . P_delta: O(d) per pair with no
 * per-head table of 2k projections.  Layout: tab = P (2k x d). */

static size_t deberta_span(const rl_scheme *s)
{
  return s->cfg.position_buckets ? s->cfg.position_buckets : s->cfg.max_relative_positions;
}

static rl_status deberta_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  size_t d = s->d, k = deberta_span(s);
  s->scale = 1.0 / sqrt(3.0 * (double)d);
  if (k < 1 || k > (1u << 20) || s->cfg.max_relative_positions > (size_t)LONG_MAX / 2 ||
      (s->cfg.position_buckets &&
       rl_deberta_bucket(0, (long)s->cfg.position_buckets,
                         (long)s->cfg.max_relative_positions) == LONG_MIN)) {
    rl_sch_err(err, "bad position buckets '%zu' or max relative positions '%zu'",
               s->cfg.position_buckets, s->cfg.max_relative_positions);
    return RL_EINVAL;
  }
  s->tab_format = "bucket";
  s->tab_cols = d;
  if (s->cfg.param_file) {
    rl_status st = rl_sch_read_vec(s->cfg.param_file, "bucket", d, 2 * k,
                                   rl_sch_param_limit(RL_SCH_TAB_DEBERTA, d), &s->tab,
                                   &s->tab_rows, err);
    if (st)
      return st;
    if (s->tab_rows != 2 * k) {
      rl_sch_err(err, "wrong number of rows in '%s': %zu, expected 2k = '%zu'",
                 s->cfg.param_file, s->tab_rows, 2 * k);
      return RL_EFORMAT;
    }
  } else {
    s->tab_rows = 2 * k;
    s->tab = alloc_doubles(2 * k * d);
    if (!s->tab)
      return RL_ENOMEM;
    rl_sch_gauss(rng, s->tab, 2 * k * d, 0.02);
    rl_sch_layernorm(s->tab, 2 * k, d); /* norm_rel_ebd = layer_norm */
  }
  return RL_OK;
}

static rl_status deberta_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                              const double *x, double *out)
{
  (void)pos;
  const rl_sch_head *hd = &s->hd[head];
  int q = role == RL_ROLE_QUERY;
  rl_sch_matvec(q ? hd->wq : hd->wk, x, out, s->d);
  rl_sch_matvec_t(q ? hd->wk : hd->wq, out, out + s->d, s->d);
  return RL_OK;
}

static rl_status deberta_pair(const rl_scheme *s, size_t head, const double *pi,
                              const double *pj, const double *pq, const double *pk,
                              rl_logit_terms *t)
{
  size_t d = s->d, k = deberta_span(s);
  long b = rl_deberta_bucket((long)(pi[0] - pj[0]), (long)s->cfg.position_buckets,
                             (long)s->cfg.max_relative_positions);
  long idx = b + (long)k;
  if (b < -(long)k)
    idx = 0;
  if (idx > 2 * (long)k - 1)
    idx = 2 * (long)k - 1;
  (void)head;
  const double *P = s->tab + (size_t)idx * d;
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;
  t->cp = rl_sch_dot(pq + d, P, d) * s->scale; /* c2p: q . W_k P */
  t->pc = rl_sch_dot(pk + d, P, d) * s->scale; /* p2c: k . W_q P */
  rl_sch_total(t);
  return RL_OK;
}

static size_t deberta_count(const rl_scheme *s, size_t len)
{
  (void)len;
  return 2 * deberta_span(s) * s->d;
}

const rl_scheme_ops rl_sch_deberta = {
    .info = {"deberta", "DeBERTa: disentangled c2p + p2c over log-bucketed query - key",
             "He, Liu, Gao, Chen 2021, ICLR, eq. (4)-(5); He, Gao, Chen 2023 (v3)",
             "HF transformers modeling_deberta_v2.py make_log_bucket_position, "
             "build_relative_position, disentangled_attention_bias",
             RL_DEBERTA_RELPOS,
             RL_SCHEME_RELATIVE | RL_SCHEME_LEARNED | RL_SCHEME_UNBOUNDED | RL_SCHEME_INTEGER,
             RL_INPUT_BUCKET, RL_BUCKETS_DEBERTA, RL_HAS_BUCKETS},
    .init = deberta_init,
    .prep = deberta_prep,
    .pair = deberta_pair,
    .count = deberta_count,
    .count_formula = "2k*d (k = position_buckets or max_relative_positions)",
    .prep_mult = 2,
    .drawn = "relative embeddings (2k x d) ~ N(0, 0.02^2) then LayerNorm",
};

/* ---- alibi: Press, Smith, Lewis 2022, ICLR, sec. 3: the logit plus
 * -m_h |i - j| (the paper's causal form -m_h (i - j), j <= i, made
 * symmetric for bidirectional use), slopes by rl_scheme_alibi_slopes or
 * a "head,slope" file.  tab = slopes (H x 1). */

static rl_status alibi_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  s->tab_rows = s->H;
  s->tab_cols = 1;
  s->tab_format = "head,slope";
  s->tab = alloc_doubles(s->H);
  if (!s->tab)
    return RL_ENOMEM;
  if (s->cfg.param_file)
    return rl_sch_read_slopes(s->cfg.param_file, s->H, s->tab, err);
  return rl_scheme_alibi_slopes(s->H, s->tab);
}

static rl_status alibi_pair(const rl_scheme *s, size_t head, const double *pi,
                            const double *pj, const double *pq, const double *pk,
                            rl_logit_terms *t)
{
  t->cc = rl_sch_dot(pq, pk, s->d) * s->scale;
  t->bias = -s->tab[head] * fabs(pi[0] - pj[0]);
  rl_sch_total(t);
  return RL_OK;
}

const rl_scheme_ops rl_sch_alibi = {
    .info = {"alibi", "ALiBi: a fixed bias -m_h |i - j|, geometric slopes per head",
             "Press, Smith, Lewis 2022, ICLR, sec. 3",
             "ofirpress/attention_with_linear_biases fairseq/models/transformer.py get_slopes",
             "|query - key|", RL_SCHEME_RELATIVE | RL_SCHEME_BIAS | RL_SCHEME_UNBOUNDED,
             RL_INPUT_RELATIVE, RL_BUCKETS_NONE, RL_HAS_SLOPES},
    .init = alibi_init,
    .prep = content_prep,
    .pair = alibi_pair,
    .key_coef = rl_sch_cc_coef,
    .prep_mult = 1,
};
