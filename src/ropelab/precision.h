/* precision.h: precision pipelines: the arithmetic of framework builds (transformers, vLLM, ggml).
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_PRECISION_H
#define ROPELAB_PRECISION_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A precision pipeline is the order of operations and the number format
 * of one framework's RoPE (src/core/precision/, one file per family, a
 * registry as the schedules').  It is chosen in rl_schedule_params
 * (.precision) and carried by the built schedule, so every measure that
 * takes an rl_schedule computes through it:
 *   - the frequencies: exact (double-double, the default), fp64 (the
 *     double nearest each exact frequency, ropelab before 0.2), or the
 *     framework's float32 inv_freq (theta[] then holds those values);
 *   - cos and sin of position m (rl_rope_cossin, rl_schedule_cossin): exact
 *     pipelines give the correctly rounded double of the exact angle's
 *     cos/sin; framework ones compute the angle and cosf/sinf in float32
 *     as the framework orders them, then round the table to table_dtype;
 *   - the rotation (rl_rope_apply_pipeline): q, k rounded to act_dtype and
 *     the products and sums rounded as the framework's kernels do.
 * Measures of a relative distance r (decay, mc, check) use the table at
 * position r with the key at position 0. */

/* Number formats.  bfloat16 and float16 values are produced by correct
 * rounding (to nearest, ties to even) from float32. */
typedef enum rl_dtype {
  RL_DTYPE_F64 = 0,  /* IEEE binary64 */
  RL_DTYPE_F32 = 1,  /* IEEE binary32 (C float, no excess precision) */
  RL_DTYPE_BF16 = 2, /* bfloat16: binary32's exponent, 8-bit significand */
  RL_DTYPE_F16 = 3   /* IEEE binary16: max 65504, subnormals below 2^-14 */
} rl_dtype;
const char *rl_dtype_name(rl_dtype t);
/* x rounded to t (F64: x itself; BF16 and F16 from float32: x is first
 * rounded to float32, then to the narrow format). */
double rl_dtype_round(rl_dtype t, double x);
/* The spacing of t's numbers at |x| (ulp(x), ulp(0) the smallest
 * subnormal); inf for an infinite or NaN x. */
double rl_dtype_ulp(rl_dtype t, double x);
/* The 16-bit encodings: correct rounding of a float32, and back. */
uint16_t rl_bf16_bits(float x);
uint16_t rl_f16_bits(float x);
float rl_bf16_value(uint16_t bits);
float rl_f16_value(uint16_t bits);
/* rl_bf16_value(rl_bf16_bits(x)), rl_f16_value(rl_f16_bits(x)). */
float rl_bf16_round(float x);
float rl_f16_round(float x);

typedef struct rl_pipe rl_pipe;
typedef struct rl_precision rl_precision;
struct rl_precision {
  const char *name;     /* "exact", "fp64", "hf-fp32", ... */
  const char *summary;  /* one line */
  const char *code;     /* the reference lines it follows (file, function) */
  int variant;          /* the rl_variant whose formulas it computes; -1 any */
  int exact;            /* 1: exact and fp64 (accurate angles, doubles) */
  rl_dtype freq_dtype;  /* the frequencies as held */
  rl_dtype table_dtype; /* cos and sin as stored before the rotation */
  rl_dtype act_dtype;   /* q and k, and the rotation's results */
  int fused;            /* 1: the rotation computed in float32 and rounded
                           once to act_dtype (ggml); 2: the same with
                           fused multiply-adds (ggml built with FMA);
                           0: each product and
                           the sum rounded to act_dtype (PyTorch ops) */
  /* Replace the exact frequencies of s (theta + theta_lo, filled by the
   * method) with the pipeline's, and set up s->pipe.  NULL: keep. */
  rl_status (*init)(rl_schedule *s, char *err);
  /* c[i] = scale cos, s[i] = scale sin of position m for every pair, as
   * the pipeline computes them (scale: 1, or the attention factor). */
  void (*cossin)(const rl_schedule *s, double m, double scale, double *c, double *sn);
  /* The same for pair i alone (the row's bits), so that pair-by-pair
   * callers cost O(pairs) per position, not O(pairs^2). */
  void (*sincos1)(const rl_schedule *s, size_t i, double m, double scale, double *c,
                  double *sn);
  int sleef;            /* 1: PyTorch's default CPU build (SLEEF's powf,
                           cosf, sinf in 8-lane vectors); 0: glibc's */
};

/* The registered pipelines, NULL-terminated; one by name (or NULL). */
const rl_precision *const *rl_precisions(void);
const rl_precision *rl_precision_find(const char *name);
/* The default (exact) and today's double pipeline (fp64). */
const rl_precision *rl_precision_exact(void);
const rl_precision *rl_precision_fp64(void);

/* The per-pair seam: c = cos, s = sin of position m for pair i as the
 * schedule's pipeline computes them (no attention factor).  Exact
 * pipelines cost one accurate sincos; framework ones compute the row
 * (ggml's angles are a running product over the pairs): use
 * rl_rope_cossin for whole rows.  RL_ERANGE past RL_POS_MAX. */
rl_status rl_schedule_sincos(const rl_schedule *f, size_t i, double m, double *c, double *s);

/* y = R(m) x as the schedule's pipeline computes it: x rounded to the
 * pipeline's act_dtype, cos/sin its table (times the attention factor
 * when with_attn), products and sums rounded as its kernel does.  For
 * exact and fp64 the same as rl_rope_apply_elementwise (with_attn
 * multiplies y by attn).  x and y may alias. */
rl_status rl_rope_apply_pipeline(const rl_schedule *f, rl_layout layout, double m, int with_attn,
                                 const double *x, double *y);
/* y = the rotation of x by a table row (c, sn: n entries as
 * rl_rope_cossin / rl_schedule_cossin give them, for callers that keep
 * tables) in the schedule's pipeline's arithmetic: exact and fp64 in
 * double (y_a = x_a c - x_b s, y_b = x_b c + x_a s, pass-through copied),
 * framework pipelines as rl_rope_apply_pipeline.  x and y may alias. */
rl_status rl_rope_apply_row(const rl_schedule *f, rl_layout layout, const double *c,
                            const double *sn, const double *x, double *y);

/* The precision envelope (`ropelab precision`): a pipeline's table and
 * rotation against the exact ones over positions.  For pair i at
 * position m, with (c, s) the pipeline's table entry and (C, S) the exact
 * cos and sin (no attention factor):
 *   cos, sin  |c - C|, |s - S|
 *   angle     |atan2(s C - c S, c C + s S)|: the angle between the
 *             pipeline's and the exact rotation, radians
 *   logit     |<R_m q, R_{m+r} k> - <q, R_r k>| for the pair's two
 *             components, the left side in the pipeline's arithmetic, the
 *             right side exact (the relative property: the logit of one
 *             relative distance r should not depend on the absolute
 *             position m; Wang et al. 2024, "When Precision Meets
 *             Position: BFloat16 Breaks Down RoPE in Long-Context
 *             Training", TMLR 2025).  q and k are drawn once from seed,
 *             entries N(0, 1/sqrt(d)) so that q.k has unit variance, then
 *             rounded to the pipeline's act_dtype (both sides use the
 *             rounded vectors); the dot product is summed in double, so
 *             the attention matmul's own rounding is not counted.
 * The total logit error is that of the whole head's sum.  Exact rows are
 * advanced by complex multiplication from accurate angles re-seeded every
 * 64 positions (error below 1e-13, far under float32's 6e-8). */
/* Defaults of `ropelab precision` (owned here, as every default). */
#define RL_PREC_ENV_TO 131072   /* last position: 128K */
#define RL_PREC_ENV_POINTS 64   /* log-spaced rows */
#define RL_PREC_ENV_DISTANCE 1  /* r of the relative property */
typedef struct rl_prec_err {
  double cos, sin, angle, logit; /* worst absolute errors */
} rl_prec_err;
typedef struct rl_prec_env rl_prec_env;
/* pipe: the schedule under a pipeline; exact: the same schedule built
 * exact (both must outlive the workspace, same n).  distance r >= 0. */
rl_status rl_prec_env_alloc(const rl_schedule *pipe, const rl_schedule *exact, double distance,
                            unsigned long seed, rl_prec_env **out);
void rl_prec_env_free(rl_prec_env *e);
/* Positions m0, m0 + 1, ..., m0 + count - 1 (all within RL_POS_MAX, and
 * m + r too): per pair maxima merged into pair[n] (may be NULL), the
 * head's into *total (may be NULL; its logit is the whole head's sum, its
 * other fields the max over pairs).  Large counts run on two threads. */
rl_status rl_prec_env_run(rl_prec_env *e, double m0, size_t count, rl_prec_err *pair,
                          rl_prec_err *total);

/* The settings of `ropelab precision` (the envelope over positions),
 * declared once (rl_prec_env_param_list): the CLI builds their options,
 * parsing, messages and help rows from here. */
enum { RL_PES_POINTS = 1u << 0 };
enum { RL_PES_BY_POSITION = 0, RL_PES_BY_PAIR = 1 };
typedef struct rl_prec_env_settings {
  size_t from, to;         /* the positions, from <= to <= RL_POS_MAX */
  size_t points;           /* log-spaced bins (--by position) */
  int sample;              /* 0: every position, 1: each bin's last */
  size_t distance;         /* r of the relative property */
  int by;                  /* RL_PES_BY_* */
  size_t seed;             /* the draw of q and k */
  const rl_precision *against; /* compared with; NULL: the exact values */
  int bins_none;           /* one row per position */
  double first_exceeding;  /* only the first position past it; < 0: not asked */
  unsigned set;            /* RL_PES_* of the settings given */
} rl_prec_env_settings;
const rl_param *const *rl_prec_env_param_list(void); /* NULL-terminated */
/* The settings checked against each other (RL_EINVAL with the message in
 * err, n bytes), and what follows from them: --first-exceeding walks
 * position by position (bins_none). */
rl_status rl_prec_env_plan(rl_prec_env_settings *s, char *err, size_t n);
/* The bins' last positions, from - 1 + ceil(span^(k/points)) for k = 1 ..
 * points, the last one to, deduplicated, into ends (points entries):
 * their count. */
size_t rl_prec_env_bin_ends(const rl_prec_env_settings *s, size_t *ends);
/* The pipelines measured: the one given (p), or every one but exact, into
 * list (max entries): their count. */
size_t rl_prec_env_pipelines(const rl_precision *p, const rl_precision **list, size_t max);

/* cos and sin of m*(theta_hi + theta_lo), the frequency a double-double:
 * as rl_angle_sincos with the product m*theta_lo added to the exact
 * partial products (its rounding is below 2^-80 for the ranges there). */
rl_status rl_angle_sincos2(double m, double theta_hi, double theta_lo, double *c, double *s);
/* The same values, within the same 0.55 ulp (proof in
 * src/core/base/angle_rows.c), for positions m = m0 + j step, j < count
 * (m0 and step integers, every position within RL_POS_MAX), and n pairs
 * (theta_lo may be NULL: 0), into c[j n + i], s[j n + i]: a double-double
 * recurrence reseeded from exact angles, a few ns an entry.  RL_ERANGE
 * when the positions or frequencies are out of range (nothing written). */
rl_status rl_angle_sincos_rows(const double *theta, const double *theta_lo, size_t n, double m0,
                               double step, size_t count, double *c, double *s);

#ifdef __cplusplus
}
#endif
#endif
