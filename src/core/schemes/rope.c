/* rope.c: RoPE (Su et al. 2024, RoFormer, Neurocomputing 568,
 * eq. 14-16) and its axial 2-D form as schemes.  Both rotate the
 * projected query and key with the core's rotation through the
 * schedule's precision pipeline (exact by default: accurate angles).
 *
 * Under a framework precision pipeline (--precision hf-bf16, ...) the
 * rotation is the pipeline's (rl_rope_apply_pipeline): W x rounded to
 * its activation dtype (both halves, so cc is the logit of the rounded
 * vectors and mix holds only what position does), cos and sin from its
 * table times the attention factor as the framework rounds them, the
 * products and sums rounded as its kernel does; the logit then takes no
 * logit multiplier (the factor is in both rotated vectors).  The dot
 * products stay in double (the attention matmul's rounding is not
 * counted, as in `ropelab precision`).
 *
 * Prepared vector (2d): [W x, R(pos) W x]; the pair gives
 *   cc = (W_q x_i).(W_k x_j) / sqrt(d)          (the unrotated logit)
 *   total = (R_i W_q x_i).(R_j W_k x_j) / sqrt(d), mix = total - cc. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h"

/* The schedule of cfg.rope for a head of dim d (rot 0 = all of it). */
static rl_status build(rl_scheme *s, size_t d, size_t rot, char *err)
{
  rl_schedule_params p = s->cfg.rope;
  p.dim = d;
  p.rot = rot;
  char msg[RL_ERR_MAX];
  rl_status st = rl_schedule_new(&p, &s->f, msg);
  if (st)
    rl_sch_err(err, "%s", msg);
  return st;
}

static rl_status rope_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  return build(s, s->d, s->cfg.rope.rot, err);
}

/* xPos: pair i of a query at pos scaled e^{pos rate_i}, of a key e^{-pos rate_i} */
static void amplify(const rl_schedule *f, rl_layout layout, int role, double pos, double *y)
{
  if (!f->amp_rate)
    return;
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(layout, f->rot, i, &a, &b);
    double g = exp((role == RL_ROLE_QUERY ? pos : -pos) * f->amp_rate[i]);
    y[a] *= g;
    y[b] *= g;
  }
}

/* x rounded to the pipeline's activation dtype (framework pipelines). */
static void round_act(const rl_schedule *f, double *v, size_t d)
{
  for (size_t k = 0; !f->prec->exact && k < d; k++)
    v[k] = rl_dtype_round(f->prec->act_dtype, v[k]);
}

/* y = R(pos) x: exact pipelines in double (the logit multiplier applied
 * by the pair), framework ones in their arithmetic with the attention
 * factor in the table. */
static rl_status turn(const rl_schedule *f, rl_layout lay, double pos, const double *x, double *y)
{
  return f->prec->exact ? rl_rope_apply_elementwise(f, lay, pos, x, y)
                        : rl_rope_apply_pipeline(f, lay, pos, 1, x, y);
}

/* Prepared: [W x, R(pos) W x]; a schedule that maps relative positions
 * (rerope) cannot rotate by absolute position, so its second half is W x
 * and the pair rotates the key by the mapped distance instead. */
static rl_status rope_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                           const double *x, double *out)
{
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out,
                s->d);
  round_act(s->f, out, s->d);
  if (s->f->type->relpos) {
    memcpy(out + s->d, out, s->d * sizeof *out);
    return RL_OK; /* pos was checked by rl_scheme_prepare */
  }
  rl_status st = turn(s->f, s->cfg.rope.layout, pos[0], out, out + s->d);
  if (!st)
    amplify(s->f, s->cfg.rope.layout, role, pos[0], out + s->d);
  return st;
}

/* <q, R_{-m} k> with m = relpos(i - j): RoFormer's <R_i q, R_j k> =
 * <q, R_{j-i} k> at the mapped distance */
static rl_status mapped_dot(const rl_scheme *s, double i, double j, const double *q,
                            const double *k, double *out)
{
  const rl_schedule *f = s->f;
  double m = rl_schedule_relpos(f, i - j), dot = 0;
  if (!f->prec->exact) {
    /* the key turned by -m in the pipeline's arithmetic (no attention
     * factor: the unrotated query has none, the pair's multiplier does) */
    double sbuf[512], *y = s->d <= 512 ? sbuf : malloc(s->d * sizeof *y);
    if (!y)
      return RL_ENOMEM;
    rl_status st = rl_rope_apply_pipeline(f, s->cfg.rope.layout, -m, 0, k, y);
    *out = rl_sch_dot(q, y, s->d);
    if (y != sbuf)
      free(y);
    return st;
  }
  for (size_t p = 0; p < f->n; p++) {
    size_t a, b;
    double c, sn;
    rl_layout_pair(s->cfg.rope.layout, f->rot, p, &a, &b);
    (void)rl_schedule_sincos(f, p, -m, &c, &sn);
    dot += q[a] * (c * k[a] - sn * k[b]) + q[b] * (sn * k[a] + c * k[b]);
  }
  for (size_t p = f->rot; p < s->d; p++)
    dot += q[p] * k[p];
  *out = dot;
  return RL_OK;
}

static rl_status rope_pair(const rl_scheme *s, size_t head, const double *pi,
                           const double *pj, const double *pq, const double *pk,
                           rl_logit_terms *t)
{
  (void)head;
  size_t d = s->d;
  const rl_schedule *f = s->f;
  /* the attention factor on cos and sin of q and k, and log-n's query
   * scale at the schedule's current length */
  double mult = rl_schedule_qscale(f, f->p.seq_len);
  if (f->prec->exact || f->type->relpos)
    mult *= f->logit_mult;
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;
  double rot;
  if (f->type->relpos) {
    rl_status st = mapped_dot(s, pi[0], pj[0], pq + d, pk + d, &rot);
    if (st)
      return st;
  } else {
    rot = rl_sch_dot(pq + d, pk + d, d);
  }
  t->total = rot * s->scale * mult;
  t->mix = t->total - t->cc;
  return RL_OK;
}

const rl_scheme_ops rl_sch_rope = {
    .info = {"rope", "RoPE: q and k rotated by position, logit depends on content and i - j",
             "Su et al. 2024, Neurocomputing 568 (RoFormer), eq. 14-16, 34",
             "ZhuiyiTechnology/roformer; Meta llama apply_rotary_emb (interleaved); "
             "HF rotate_half (half)",
             "j - i = key - query (R_i^T R_j = R_{j-i})",
             RL_SCHEME_RELATIVE | RL_SCHEME_ROTATION | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR,
             RL_INPUT_ANGLE, RL_BUCKETS_NONE, RL_HAS_FREQS},
    .init = rope_init,
    .prep = rope_prep,
    .pair = rope_pair,
    .prep_mult = 2,
};

/* rope2d: axial RoPE for images (Heo et al. 2024, ECCV, "Rotary position
 * embedding for vision transformer", RoPE-Axial).  Reference
 * naver-ai/rope-vit compute_axial_cis: frequencies base^(-4t/d),
 * t < d/4 (= rl_schedule_rope(d/2, d/2, base)); the first d/4 pairs rotate
 * with the column x = p % width, the next d/4 with the row y = p / width
 * (init_t_xy); rope-vit's default base is 100, ours cfg.rope.base.  With
 * RL_LAYOUT_HALF each d/2 block is paired half-split instead. */
static rl_status rope2d_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  if (s->d % 4 || s->cfg.width < 1) {
    rl_sch_err(err, "rope2d needs a dimension divisible by 4 and width >= 1, not '%zu', '%zu'",
               s->d, s->cfg.width);
    return RL_EINVAL;
  }
  if (s->cfg.rope.method->relpos) {
    rl_sch_err(err, "method '%s' maps relative positions, which rope2d does not take",
               s->cfg.rope.method->name);
    return RL_EINVAL;
  }
  return build(s, s->d / 2, s->d / 2, err);
}

/* pos = (row, col) */
static rl_status rope2d_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                             const double *x, double *out)
{
  size_t d = s->d, h = d / 2;
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out, d);
  round_act(s->f, out, d);
  rl_layout lay = s->cfg.rope.layout;
  rl_status st = turn(s->f, lay, pos[1], out, out + d);
  if (!st)
    st = turn(s->f, lay, pos[0], out + h, out + d + h);
  if (!st) {
    amplify(s->f, lay, role, pos[1], out + d);
    amplify(s->f, lay, role, pos[0], out + d + h);
  }
  return st;
}

/* rope2d's key as cos and sin of its column, then of its row (the
 * state), and the turn from them: rotate_pairs' arithmetic (rope/rotate.c,
 * what rl_rope_apply_elementwise runs), so the same bytes as
 * rope2d_prep.  Exact pipelines without xPos only: the others round or
 * scale per position in ways this does not repeat. */
static size_t rope2d_kslen(const rl_scheme *s)
{
  return s->f->prec->exact && !s->f->amp_rate && !s->f->axis ? 4 * s->f->n : 0;
}

static rl_status rope2d_kstate(const rl_scheme *s, size_t head, const double *pos, double *st)
{
  (void)head;
  const rl_schedule *f = s->f;
  size_t n = f->n;
  for (size_t i = 0; i < n; i++) /* rl_rope_apply_elementwise's range check */
    if (!isfinite(f->theta[i]) || fabs(f->theta[i]) > 1.0)
      return RL_ERANGE;
  for (size_t a = 0; a < 2; a++)
    for (size_t i = 0; i < n; i++)
      (void)rl_schedule_sincos(f, i, pos[1 - a], &st[2 * a * n + i], &st[(2 * a + 1) * n + i]);
  return RL_OK;
}

static void turn_from(const rl_schedule *f, rl_layout lay, const double *c, const double *sn,
                      const double *x, double *y)
{
  for (size_t i = 0; i < f->n; i++) {
    size_t a, b;
    rl_layout_pair(lay, f->rot, i, &a, &b);
    double xa = x[a], xb = x[b];
    y[a] = xa * c[i] - xb * sn[i];
    y[b] = xb * c[i] + xa * sn[i];
  }
  memcpy(y + f->rot, x + f->rot, (f->dim - f->rot) * sizeof *y);
}

static void rope2d_kfrom(const rl_scheme *s, size_t head, const double *x, const double *st,
                         double *out)
{
  size_t d = s->d, h = d / 2, n = s->f->n;
  rl_sch_matvec(rl_sch_wk(s, head), x, out, d);
  turn_from(s->f, s->cfg.rope.layout, st, st + n, out, out + d);
  turn_from(s->f, s->cfg.rope.layout, st + 2 * n, st + 3 * n, out + h, out + d + h);
}

const rl_scheme_ops rl_sch_rope2d = {
    .info = {"rope2d", "axial RoPE: half the pairs turn with the column, half with the row",
             "Heo et al. 2024, ECCV (RoPE-ViT, RoPE-Axial)",
             "naver-ai/rope-vit models/vit_rope.py compute_axial_cis, init_t_xy",
             "(row_j - row_i, col_j - col_i); 1-D p = (p / width, p % width)",
             RL_SCHEME_RELATIVE | RL_SCHEME_ROTATION | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR |
                 RL_SCHEME_2D,
             RL_INPUT_OFFSET2D, RL_BUCKETS_NONE, RL_HAS_FREQS},
    .init = rope2d_init,
    .prep = rope2d_prep,
    .pair = rope_pair,
    .key_state_len = rope2d_kslen,
    .key_state = rope2d_kstate,
    .key_from = rope2d_kfrom,
    .prep_mult = 2,
};
