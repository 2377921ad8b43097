/* rerope.c: ReRoPE and Leaky ReRoPE (Su 2023, "Rectified Rotary Position
 * Embeddings", kexue.fm 9708; bojone/rerope): RoFormer's frequencies with
 * the relative position mapped, so no distance past the window w is seen:
 *   rerope        map(r) = min(r, w)
 *   leaky-rerope  map(r) = r for r < w, w + (r - w) / k beyond
 * (odd in r).  The logit at distance r is that of RoPE at map(r). */
#include <stdio.h>
#include "schedule_impl.h"

enum { WINDOW, LEAK }; /* their own parameters' slots */

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  double w = p->own[WINDOW].x, k = p->own[LEAK].x;
  if (!isfinite(w) || !(w >= 1) || w > RL_POS_MAX) {
    rl_sched_err(err, "invalid --window '%g': expected a length from 1 to 2147483648", w);
    return RL_EINVAL;
  }
  if (s->type == &rl_sched_leaky_rerope && (!isfinite(k) || !(k >= 1))) {
    rl_sched_err(err, "invalid --leak '%g': expected a number >= 1 (the slope is 1/k)", k);
    return RL_EINVAL;
  }
  rl_sched_fill_plain(s, (long double)p->base);
  return RL_OK;
}

static double map_hard(const rl_schedule *s, double r)
{
  double a = fabs(r), w = s->p.own[WINDOW].x;
  return copysign(a < w ? a : w, r);
}

static double map_leaky(const rl_schedule *s, double r)
{
  double a = fabs(r), w = s->p.own[WINDOW].x;
  return copysign(a < w ? a : w + (a - w) / s->p.own[LEAK].x, r);
}

static const rl_param p_window = {
    .key = "window", .kind = RL_PK_REAL, .offset = RL_SP_OWN(WINDOW),
    .lo = 1, .hi = RL_POS_MAX, .dflt = 512 /* Su 2023, ReRoPE */, .metavar = "W",
    .symbol = "w", .unit = "tokens", .help = "window of relative positions kept as they are",
    .expect = "a length from 1 to 2147483648"};
static const rl_param p_leak = {
    .key = "leak", .kind = RL_PK_REAL, .offset = RL_SP_OWN(LEAK), .lo = 1,
    .hi = INFINITY, .dflt = 16, .metavar = "K", .symbol = "k",
    .help = "slope 1/K past the window"};
static const rl_param *const rerope_params[] = {&p_window, NULL};
static const rl_param *const leaky_params[] = {&p_window, &p_leak, NULL};

const rl_schedule_type rl_sched_rerope = {
    .name = "rerope", .summary = "RoPE with relative positions capped at the window w",
    .paper = "Su 2023, Rectified Rotary Position Embeddings (kexue.fm/archives/9708)",
    .code = "bojone/rerope", .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT,
    .flags = RL_ST_PLAIN_THETA, .init = init, .relpos = map_hard, .params = rerope_params};

const rl_schedule_type rl_sched_leaky_rerope = {
    .name = "leaky-rerope", .summary = "RoPE with relative positions past w growing at slope 1/k",
    .paper = "Su 2023, Rectified Rotary Position Embeddings (kexue.fm/archives/9708)",
    .code = "bojone/rerope", .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT,
    .flags = RL_ST_PLAIN_THETA, .init = init, .relpos = map_leaky, .params = leaky_params};
