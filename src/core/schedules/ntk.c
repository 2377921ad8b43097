/* ntk.c: NTK-aware scaling, static (bloc97 2023, as used by Code Llama
 * and formalised in YaRN, Peng et al. 2023, sec. 3.1): the base becomes
 * base * s^(r/(r-2)), so the lowest frequency is exactly the plain one
 * divided by s while the highest is unchanged. */
#include "schedule_impl.h"

/* ln of the rescaled base, shared with dynamic.c's formula */
static rl_status init(rl_schedule *s, char *err)
{
  if (s->rot <= 2) {
    rl_sched_err(err, "method 'ntk' needs a rotated width above 2, not '%zu' (s^(r/(r-2)))",
                 s->rot);
    return RL_EINVAL;
  }
  /* in base 2, as rl_sched_plain: at s = 1 the exponent is log2(base)
   * exactly and theta is rope's, bitwise */
  long double r = (long double)s->rot;
  long double lb = log2l((long double)s->p.base) + r / (r - 2) * log2l((long double)s->p.factor);
  s->base = (double)exp2l(lb);
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    s->theta[i] = (double)exp2l(-(long double)(2 * i) / r * lb);
    s->band[i] = s->p.factor == 1 || i == 0        ? RL_BAND_EXTRAPOLATED
                 : i + 1 == s->n                  ? RL_BAND_INTERPOLATED
                                                  : RL_BAND_BETWEEN;
  }
  return RL_OK;
}

const rl_schedule_type rl_sched_ntk = {
    "ntk", "NTK-aware: base * s^(r/(r-2)), static",
    "bloc97 2023 (NTK-aware scaled RoPE); Peng et al. 2023 (YaRN) sec. 3.1",
    "the formula as in YaRN's appendix; HF has only the dynamic form",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT, RL_SP_FACTOR, 0, init, NULL, NULL};
