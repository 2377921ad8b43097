/* schedule_impl.h: what the method files of src/core/schedules share
 * (private to the core).  A method's init reads s->p, sets each frequency
 * with rl_sched_set (theta and theta_lo), may set s->attn, s->band,
 * s->amp_rate, s->axis, s->base, and on a parameter it cannot take writes
 * one line to err and returns RL_EINVAL.  Frequencies are computed in
 * rl_xr, binary128 (__float128 and libquadmath, 113-bit significand)
 * where the compiler has it, and kept as a double-double: theta[i] is the
 * double nearest the exact value of the method's formula and theta_lo[i]
 * the rest, so that m (theta + theta_lo) is within 2^31 * 2^-106 of the
 * exact product (the evaluation's own error, ~2^-108 relative, measured by
 * tests/precision/test_exact_theta.c against MPFR).  Without binary128,
 * rl_xr is long double (64 bits: 2^31 * 2^-64 = 1.2e-10 rad at worst).
 * A method's own parameters are in s->p.own[k], k the slot its
 * declarations name (an enum in its file), filled with their defaults
 * where not given; what model files call it (.hf, .gguf) and how the
 * frameworks compute it in float32 (.fw) are declared beside them, with
 * the types of base/internal.h. */
#ifndef RL_SCHEDULE_IMPL_H
#define RL_SCHEDULE_IMPL_H
#include <math.h>
#include <stddef.h>
#include "ropelab.h"
#include "../base/internal.h"

#define RL_PI_L 3.141592653589793238462643383279502884L

#ifdef RL_HAVE_FLOAT128
#include <quadmath.h>
__extension__ typedef __float128 rl_xr;
#define RL_PI_X (__extension__ M_PIq)
#define rl_xlog logq
#define rl_xlog2 log2q
#define rl_xexp2 exp2q
#define rl_xfloor floorq
#define rl_xceil ceilq
#else
typedef long double rl_xr;
#define RL_PI_X RL_PI_L
#define rl_xlog logl
#define rl_xlog2 log2l
#define rl_xexp2 exp2l
#define rl_xfloor floorl
#define rl_xceil ceill
#endif

/* Frequency i of s: the double nearest v and the rest. */
static inline void rl_sched_set(rl_schedule *s, size_t i, rl_xr v)
{
  double hi = (double)v;
  s->theta[i] = hi;
  s->theta_lo[i] = (double)(v - (rl_xr)hi);
}

/* RoFormer's base^(-2i/r) in rl_xr for pair i of s (r = s->rot), from
 * lb = log2(base): a loop over i computes lb once (rl_sched_plain_lb),
 * since log2q costs as much as exp2q; the same bits as rl_sched_plain. */
static inline rl_xr rl_sched_plain_lb_rot(size_t rot, rl_xr lb, size_t i)
{
  return rl_xexp2(-(rl_xr)(2 * i) / (rl_xr)rot * lb);
}

static inline rl_xr rl_sched_plain_lb(const rl_schedule *s, rl_xr lb, size_t i)
{
  return rl_sched_plain_lb_rot(s->rot, lb, i);
}

static inline rl_xr rl_sched_plain(const rl_schedule *s, long double base, size_t i)
{
  return rl_sched_plain_lb(s, rl_xlog2((rl_xr)base), i);
}

/* --dim's declaration (--rot reads its value as --dim does). */
const rl_param *rl_sched_param_dim(void);

/* Fill theta with RoFormer's schedule at base (rl_sched_plain_theta,
 * declared in src/core/base/internal.h, gives the same theta faster,
 * without theta_lo). */
void rl_sched_fill_plain(rl_schedule *s, long double base);
/* One lowercase line into err (RL_ERR_MAX bytes, may be NULL). */
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

/* config.json's L for transformers' dynamic and ntk scaling (dynamic.c):
 * max_position_embeddings; dynamic: a note that llama.cpp has none. */
rl_status rl_sched_hf_len_dynamic(rl_model_src *src, int dynamic);

/* The method types (one file each), listed in registry.c. */
extern const rl_schedule_type rl_sched_rope, rl_sched_linear, rl_sched_ntk, rl_sched_dynamic,
    rl_sched_yarn, rl_sched_llama3, rl_sched_longrope, rl_sched_prope, rl_sched_xpos,
    rl_sched_rerope, rl_sched_leaky_rerope, rl_sched_logn, rl_sched_mrope, rl_sched_file;
#endif
