/* scheme_rope.c: RoPE (Su et al. 2024, RoFormer, Neurocomputing 568,
 * eq. 14-16) and its axial 2-D form as schemes.  Both rotate the
 * projected query and key with the core's rl_rope_apply_elementwise, so
 * they share the accurate angles of rl_angle_sincos.
 *
 * Prepared vector (2d): [W x, R(pos) W x]; the pair gives
 *   cc = (W_q x_i).(W_k x_j) / sqrt(d)          (the unrotated logit)
 *   total = (R_i W_q x_i).(R_j W_k x_j) / sqrt(d), mix = total - cc. */
#include <math.h>
#include <string.h>
#include "ropelab.h"
#include "scheme_impl.h"

static rl_status rope_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  size_t rot = s->cfg.rot ? s->cfg.rot : s->d;
  if (rl_freqs_rope(s->d, rot, s->cfg.base, &s->f)) {
    rl_sch_err(err, "bad rope shape: dim '%zu', rot '%zu', base '%g' (even dim, even rot "
               "<= dim, base > 1)", s->d, rot, s->cfg.base);
    return RL_EINVAL;
  }
  return RL_OK;
}

static rl_status rope_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                           const double *x, double *out)
{
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out,
                s->d);
  return rl_rope_apply_elementwise(s->f, s->cfg.layout, pos[0], out, out + s->d);
}

static rl_status rope_pair(const rl_scheme *s, size_t head, const double *pi,
                           const double *pj, const double *pq, const double *pk,
                           rl_logit_terms *t)
{
  (void)head, (void)pi, (void)pj;
  size_t d = s->d;
  t->cc = rl_sch_dot(pq, pk, d) * s->scale;
  t->total = rl_sch_dot(pq + d, pk + d, d) * s->scale;
  t->mix = t->total - t->cc;
  return RL_OK;
}

const rl_scheme_ops rl_sch_rope = {
    .info = {"rope", "RoPE: q and k rotated by position, logit depends on content and i - j",
             "Su et al. 2024, Neurocomputing 568 (RoFormer), eq. 14-16, 34",
             "ZhuiyiTechnology/roformer; Meta llama apply_rotary_emb (interleaved); "
             "HF rotate_half (half)",
             "j - i = key - query (R_i^T R_j = R_{j-i})",
             RL_SCHEME_RELATIVE | RL_SCHEME_ROTATION | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR},
    .init = rope_init,
    .prep = rope_prep,
    .pair = rope_pair,
    .prep_mult = 2,
};

/* rope2d: axial RoPE for images (Heo et al. 2024, ECCV, "Rotary position
 * embedding for vision transformer", RoPE-Axial).  Reference
 * naver-ai/rope-vit compute_axial_cis: frequencies base^(-4t/d),
 * t < d/4 (= rl_freqs_rope(d/2, d/2, base)); the first d/4 pairs rotate
 * with the column x = p % width, the next d/4 with the row y = p / width
 * (init_t_xy); rope-vit's default base is 100, ours cfg.base.  With
 * RL_LAYOUT_HALF each d/2 block is paired half-split instead. */
static rl_status rope2d_init(rl_scheme *s, gsl_rng *rng, char *err)
{
  (void)rng;
  if (s->d % 4 || s->cfg.width < 1) {
    rl_sch_err(err, "rope2d needs a dimension divisible by 4 and width >= 1, not '%zu', '%zu'",
               s->d, s->cfg.width);
    return RL_EINVAL;
  }
  if (rl_freqs_rope(s->d / 2, s->d / 2, s->cfg.base, &s->f)) {
    rl_sch_err(err, "bad base '%g': must be finite and > 1", s->cfg.base);
    return RL_EINVAL;
  }
  return RL_OK;
}

/* pos = (row, col) */
static rl_status rope2d_prep(const rl_scheme *s, size_t head, int role, const double *pos,
                             const double *x, double *out)
{
  size_t d = s->d, h = d / 2;
  rl_sch_matvec(role == RL_ROLE_QUERY ? rl_sch_wq(s, head) : rl_sch_wk(s, head), x, out, d);
  rl_status st = rl_rope_apply_elementwise(s->f, s->cfg.layout, pos[1], out, out + d);
  if (!st)
    st = rl_rope_apply_elementwise(s->f, s->cfg.layout, pos[0], out + h, out + d + h);
  return st;
}

const rl_scheme_ops rl_sch_rope2d = {
    .info = {"rope2d", "axial RoPE: half the pairs turn with the column, half with the row",
             "Heo et al. 2024, ECCV (RoPE-ViT, RoPE-Axial)",
             "naver-ai/rope-vit models/vit_rope.py compute_axial_cis, init_t_xy",
             "(row_j - row_i, col_j - col_i); 1-D p = (p / width, p % width)",
             RL_SCHEME_RELATIVE | RL_SCHEME_ROTATION | RL_SCHEME_UNBOUNDED | RL_SCHEME_LINEAR |
                 RL_SCHEME_2D},
    .init = rope2d_init,
    .prep = rope2d_prep,
    .pair = rope_pair,
    .prep_mult = 2,
};
