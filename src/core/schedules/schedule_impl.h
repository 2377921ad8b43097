/* schedule_impl.h: what the method files of src/core/schedules share
 * (private to the core).  A method's init reads s->p, fills s->theta (n
 * values), may set s->attn, s->band, s->amp_rate, s->axis, s->base, and
 * on a parameter it cannot take writes one line to err and returns
 * RL_EINVAL.  Frequencies are computed in long double and rounded once,
 * so each is the double nearest the exact value of the method's formula
 * (error of the long double evaluation ~2^-60 relative). */
#ifndef RL_SCHEDULE_IMPL_H
#define RL_SCHEDULE_IMPL_H
#include <math.h>
#include "ropelab.h"

#define RL_PI_L 3.141592653589793238462643383279502884L

/* RoFormer's base^(-2i/r) in long double for pair i of s (r = s->rot). */
static inline long double rl_sched_plain(const rl_schedule *s, long double base, size_t i)
{
  return exp2l(-(long double)(2 * i) / (long double)s->rot * log2l(base));
}

/* Fill theta with RoFormer's schedule at base. */
void rl_sched_fill_plain(rl_schedule *s, long double base);
/* One lowercase line into err (RL_SCHEDULE_ERR_MAX bytes, may be NULL). */
void rl_sched_err(char *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Allocate s->band / s->amp_rate / s->axis (n entries); RL_ENOMEM. */
rl_status rl_sched_want_band(rl_schedule *s);
rl_status rl_sched_want_amp(rl_schedule *s);
rl_status rl_sched_want_axis(rl_schedule *s);
/* The attention factor of YaRN's paper, 0.1 ln s + 1 (1 for s <= 1),
 * scaled by mscale as Hugging Face's get_mscale. */
double rl_sched_yarn_mscale(double s, double mscale);

/* The method types (one file each), listed in registry.c. */
extern const rl_schedule_type rl_sched_rope, rl_sched_linear, rl_sched_ntk, rl_sched_dynamic,
    rl_sched_yarn, rl_sched_llama3, rl_sched_longrope, rl_sched_prope, rl_sched_xpos,
    rl_sched_rerope, rl_sched_leaky_rerope, rl_sched_logn, rl_sched_mrope, rl_sched_file;
#endif
