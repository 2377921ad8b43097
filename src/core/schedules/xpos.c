/* xpos.c: xPos (Sun et al. 2023, "A Length-Extrapolatable Transformer",
 * sec. 3.2; microsoft/torchscale XPOS): RoFormer's frequencies with a
 * per-pair amplitude, zeta_i = (2i + 0.4 r) / (1.4 r) (gamma = 0.4), the
 * query at m scaled by zeta_i^(m / scale_base) and the key at n by
 * zeta_i^(-n / scale_base), so pair i's logit carries
 * zeta_i^((m - n) / scale_base): it decays with the distance m - n. */
#include "schedule_impl.h"

enum { SCALE_BASE }; /* its own parameter's slot */

static rl_status init(rl_schedule *s, char *err)
{
  double B = s->p.own[SCALE_BASE].x;
  if (!isfinite(B) || !(B > 0)) {
    rl_sched_err(err, "invalid --scale-base '%g': expected a number > 0", B);
    return RL_EINVAL;
  }
  rl_sched_fill_plain(s, (long double)s->p.base);
  if (rl_sched_want_amp(s))
    return RL_ENOMEM;
  long double r = (long double)s->rot;
  for (size_t i = 0; i < s->n; i++)
    s->amp_rate[i] = (double)(logl(((long double)(2 * i) + 0.4L * r) / (1.4L * r)) /
                              (long double)B);
  return RL_OK;
}

static const rl_param p_scale_base = {
    .key = "scale-base", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = RL_SP_OWN(SCALE_BASE), .lo = 0, .hi = INFINITY,
    .dflt = 512 /* torchscale XPOS scale_base */, .metavar = "B", .unit = "tokens",
    .help = "amplitude scale"};
static const rl_param *const params[] = {&p_scale_base, NULL};

const rl_schedule_type rl_sched_xpos = {
    .name = "xpos", .summary = "RoPE with a per-pair amplitude zeta_i^((m - n)/scale_base)",
    .paper = "Sun et al. 2023, ACL (xPos), sec. 3.2", .code = "microsoft/torchscale XPOS",
    .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT, .flags = RL_ST_PLAIN_THETA, .init = init,
    .params = params};
