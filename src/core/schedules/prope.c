/* prope.c: p-RoPE (Barbero et al. 2024, "Round and Round We Go! What
 * makes Rotary Positional Encodings useful?", sec. 6): only the fraction
 * p of pairs with the highest frequencies rotate; the lowest-frequency
 * pairs get theta = 0 and carry content alone.  The kept pairs keep
 * RoFormer's base^(-2i/r): the first floor(p r/2) pairs rotate. */
#include <stdio.h>
#include "schedule_impl.h"

enum { FRACTION }; /* its own parameter's slot */

static rl_status init(rl_schedule *s, char *err)
{
  double p = s->p.own[FRACTION].x;
  if (!(p >= 0 && p <= 1)) {
    rl_sched_err(err, "invalid --fraction '%g': expected a number from 0 to 1", p);
    return RL_EINVAL;
  }
  size_t keep = (size_t)floor(p * (double)s->n + 1e-9);
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    rl_sched_set(s, i, i < keep ? rl_sched_plain(s, (long double)s->p.base, i) : (rl_xr)0);
    s->band[i] = i < keep ? RL_BAND_EXTRAPOLATED : RL_BAND_UNROTATED;
  }
  snprintf(s->note, sizeof s->note, "%zu of %zu pairs rotate", keep, s->n);
  return RL_OK;
}

static const rl_param p_fraction = {
    .key = "fraction", .kind = RL_PK_REAL, .flags = RL_PF_REQUIRED,
    .offset = RL_SP_OWN(FRACTION), .lo = 0, .hi = 1, .dflt = 0.75, .metavar = "P",
    .symbol = "p", .help = "fraction of pairs that rotate"};
static const rl_param *const params[] = {&p_fraction, NULL};

const rl_schedule_type rl_sched_prope = {
    .name = "p-rope", .summary = "only the highest-frequency fraction p of pairs rotates",
    .paper = "Barbero et al. 2024, arXiv:2410.06205, sec. 6 (p-RoPE)",
    .code = "the formula of the paper (Gemma-style truncation of the lowest frequencies)",
    .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT, .init = init, .params = params};
