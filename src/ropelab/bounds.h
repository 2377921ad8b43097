/* bounds.h: published bounds on context length (Men, Liu, PI, YaRN).
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_BOUNDS_H
#define ROPELAB_BOUNDS_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"
#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv:2405.14591,
 * eq. 9 and sec. 3.3): a context length L asks for
 *   B_r = sum_i cos(r theta_i) >= 0  for every r = 0 .. L-1
 * (the query attends more to a similar key than to a random one at every
 * distance), and the lower bound of the base is
 *   base_L = inf{ base : B_r >= 0 for every r in 0..L-1 }.
 * The set of feasible bases is not an interval (feasibility flips on
 * relative steps of about 1e-5), so no bisection; what is searched:
 *   staged (the default; Su, kexue.fm/archives/10122, "numerical
 *     solution"): B = start_factor * L (must be feasible); for stage
 *     k = 1..stages the grid b_j = (j / 10^k) * B, j = 1, 2, ... is scanned
 *     upward and the first feasible b_j becomes B.  The result is B; the
 *     previous grid point b_{j-1} of the last stage is infeasible.
 *   fine: the staged result b_s and its previous grid point p, then the
 *     geometric grid p (1 + tolerance)^k, k = 1, 2, ..., scanned upward
 *     while below b_s: the first feasible point (or b_s).  It refines
 *     the staged answer inside (p, b_s] to a relative step `tolerance`;
 *     feasible bases below p, if any, are not looked for.
 * B_r counts every pair of the head: the (dim - rot)/2 pass-through
 * pairs add cos 0 = 1 each.  The schedule is built at each candidate base
 * from sched (its method, factor, ...; logit multipliers do not change a
 * sign and are ignored); methods with a position map, amplitude or query
 * scale, and 'file' (frequencies without a base), are refused. */
/* The lengths `ropelab bound men` computes by default (the paper's table:
 * 1K .. 1M), and the length of the other bounds (LLaMA 2's 4096). */
#define RL_MEN_LEN_DEFAULT "1024:1048576:x2"
#define RL_BOUND_LEN_DEFAULT "4096"
typedef enum rl_men_search { RL_MEN_STAGED = 0, RL_MEN_FINE = 1 } rl_men_search;

typedef struct rl_men_params {
  rl_schedule_params sched; /* the schedule; its base is what is searched */
  rl_men_search search;     /* staged */
  int stages;               /* decimal stages, 1..9 (5, as Su) */
  double start_factor;      /* the search starts at start_factor * L (1000, as Su) */
  double tolerance;         /* fine: relative grid step, MIN <= tol <= 0.01 (1e-8) */
} rl_men_params;
/* The smallest fine step honoured in double precision: 1 + tol is
 * 1 + m 2^-52, so tol is carried to within 2^-53 / tol relative, and each
 * grid point p (1 + tol)^k is rounded by about 2^-52 relative; at 2^-45
 * the step is exact to 1/256 and the rounding stays under 1/128 of it.
 * Below 2^-53, 1 + tol == 1 and the grid never advanced (an endless loop). */
#define RL_MEN_TOLERANCE_MIN 0x1p-45
void rl_men_params_default(rl_men_params *p);

/* The settings of `ropelab bound` besides the schedule and the lengths,
 * declared once (rl_bound_param_list; rl_param.only names the bound that
 * takes each): Men's search and Liu's fine-tuning. */
#define RL_BOUND_THREADS_MAX 64 /* the CLI's RL_THREADS_MAX (threads.h) */
enum { RL_BS_SEARCH = 1u << 0, RL_BS_FIT = 1u << 1, RL_BS_LARGEST = 1u << 2 };
typedef struct rl_bound_settings {
  int search;          /* RL_MEN_STAGED or RL_MEN_FINE */
  size_t stages;       /* rl_men_params.stages */
  double start_factor; /* rl_men_params.start_factor */
  double tolerance;    /* rl_men_params.tolerance */
  int fit;             /* fit base = a len^k over the lengths */
  int largest_len;     /* with a base given: the largest L it is enough for */
  size_t threads;      /* threads over the lengths; 0: online cores */
  double tune_len;     /* Liu's T_tune; 0: each length */
  double tune_base;    /* Liu's fine-tuning base; 0: the base */
  const char *len;     /* the lengths, a list or range as given (the caller's
                          text); NULL: the bound's default (rl_bound_plan) */
  unsigned set;        /* RL_BS_* of the settings given */
} rl_bound_settings;
const rl_param *const *rl_bound_param_list(void); /* NULL-terminated */
/* --len, apart: each bound words what its lengths are (men's, liu's
 * T_train, yarn's original length), and pi takes none (its s is a grid) */
const rl_param *const *rl_bound_len_param_list(void);
/* Men's search settings of s into p (its schedule untouched). */
void rl_bound_settings_to_men(const rl_bound_settings *s, rl_men_params *p);
/* The bounds, in the order of rl_bound_names() (NULL-terminated: "men",
 * "liu", "pi", "yarn"). */
typedef enum rl_bound_kind { RL_BOUND_MEN, RL_BOUND_LIU, RL_BOUND_PI, RL_BOUND_YARN } rl_bound_kind;
const char *const *rl_bound_names(void);
/* The settings' defaults that depend on the bound: the lengths
 * (RL_MEN_LEN_DEFAULT for men, RL_BOUND_LEN_DEFAULT for liu and yarn). */
void rl_bound_plan(rl_bound_settings *s, rl_bound_kind kind);

typedef struct rl_men_result {
  double len;               /* L */
  double base;              /* the base found (feasible) */
  double min_similarity;    /* min over r < L of B_r at base (exact angles) */
  double min_similarity_err;/* its error bound: the cosines' rounding and each
                               theta_k an ulp off carried to r (r sum theta_k 2^-52) */
  double argmin;            /* where */
  double previous_base;     /* the grid point below base (infeasible); 0 when
                               every grid point down to the first was feasible */
  double previous_first_fail; /* first r where B_r < 0 at previous_base; -1 if none */
  double previous_similarity; /* B_r there */
  double candidates;        /* bases tested */
  double full_scans;        /* of them, scanned over r (the rest failed at a
                               remembered r); a scan of an infeasible base
                               stops after the first chunk of rows holding
                               a negative B_r */
  double rechecks;          /* rows whose sign needed exact angles */
  double ambiguous;         /* rows with |B_r| within double rounding of 0
                               (decided by the sign of the exact sum) */
  double rows_scanned;      /* rows of B_r the scans computed */
  double witness_evals;     /* B_r computed at remembered r */
} rl_men_result;

/* Progress of a search or check counts RL_MEN_PROGRESS_STEPS per length,
 * so that one long length moves too (issue 33 item 5). */
#define RL_MEN_PROGRESS_STEPS 1000

/* base_L for each of n lengths (integers 1 <= L <= RL_POS_MAX + 1) on up
 * to threads threads (lengths taken longest first).  progress (may be
 * NULL) is called, serialised, at the start with 0, then with the steps
 * done: RL_MEN_PROGRESS_STEPS for each length done plus, at most every
 * 0.2 s, the share of each length running (the CPU its search used over
 * the cost model's estimate, rl_cost_men, at most 99% until it ends).
 * RL_EINVAL with a line in err (RL_ERR_MAX bytes, may be NULL) for
 * parameters it cannot take; RL_ERANGE when the start base is not
 * feasible. */
rl_status rl_men_bases(const rl_men_params *p, const double *len, size_t n, int threads,
                       void (*progress)(void *ctx, size_t done), void *ctx,
                       rl_men_result *out, char *err);

/* B_r >= 0 for every r < len with this schedule (plus its pass-through
 * pairs)?  *first_fail = the first r with B_r < 0, or len. */
rl_status rl_men_feasible(const rl_schedule *s, double len, double *first_fail);
/* The same, calling progress (may be NULL) with 0 at the start, then at
 * most every 0.2 s with RL_MEN_PROGRESS_STEPS x 99% of the rows scanned
 * over len (the scan stops early at a failure: the share of the worst
 * case). */
rl_status rl_men_feasible_progress(const rl_schedule *s, double len,
                                   void (*progress)(void *ctx, size_t done), void *ctx,
                                   double *first_fail);
/* B_r of this schedule (plus its pass-through pairs) at distance r, from
 * exact angles (the value the sign tests decide on). */
double rl_men_similarity(const rl_schedule *s, double r);

/* Men's min_similarity ms rounded to the digits its error bound err
 * leaves known (ms itself where err is 0, ms 0 or not finite). */
double rl_men_similarity_known(double ms, double err);

/* The power law base = a x^k fitted by least squares to (ln x, ln base),
 * as Men et al. fit Figure 1 (y = 0.0424 x^1.628, x the context length in
 * tokens).  n >= 2 points with x, y > 0 and two distinct x. */
rl_status rl_men_fit(const double *x, const double *y, size_t n, double *a, double *k);

/* Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation"
 * (arXiv:2310.05209, ICLR 2024; eq. 13 and Theorem 3, eq. 16a-d), with d
 * the rotated dimensions, base the pre-training base (their 10000):
 *   critical_dim   d_extra = 2 ceil((d/2) log_base(T_train / 2 pi)),
 *                  clamped to [0, d]
 *   critical_base  beta_0 = base^(log_{T_train/2pi}(T_tune/2pi))   (16a)
 *   extrapolation_limit  for a fine-tuning base beta:
 *                  2 pi beta^(d_extra/d) when beta > beta_0 (16b),
 *                  else T_tune (16c)
 *   critical_dim_tuned  d'_extra = 2 ceil((d/2) log_beta(T_tune/2pi)),
 *                  clamped, for beta <= beta_0 (16c; d_extra otherwise)
 *   beta1..3       2 T_tune/pi, T_tune/pi, T_tune/(2 pi): below them the
 *                  lowest pair turns a quarter, half, full period within
 *                  T_tune (16d; Theorem 1 with T_tune = T_train). */
typedef struct rl_liu_result {
  double critical_dim, critical_base, extrapolation_limit, critical_dim_tuned;
  double beta1, beta2, beta3;
} rl_liu_result;
/* RL_EINVAL unless rot even >= 2, base > 1, tune_base > 1,
 * train_len > 2 pi, tune_len >= train_len, all finite. */
rl_status rl_liu_bounds(size_t rot, double base, double train_len, double tune_len,
                        double tune_base, rl_liu_result *out);
/* The largest T_tune rl_liu_bounds keeps finite at train_len and base:
 * critical_base = base^(ln(T_tune/2pi) / ln(T_train/2pi)) stays a double
 * for T_tune <= 2pi DBL_MAX^(ln(T_train/2pi) / ln base), and beta1 =
 * 4 T_tune / pi for T_tune <= 0.78 DBL_MAX; less a relative 2^-40 for
 * the rounding of the limit itself. */
double rl_liu_tune_len_max(double train_len, double base);

/* Chen et al. 2023, "Extending Context Window of Large Language Models via
 * Positional Interpolation" (arXiv:2306.15595), Theorem 2.1, eq. 5-7:
 * |a(s) - a_linear(s)| <= d max|h_j| (s - s1)(s2 - s) / (8 ln c)
 * <= d max|h_j| / (32 ln c) between integers.  The constant 32 ln c
 * (294.73 for c = 10000) as a double: */
double rl_pi_interp_denominator(double base);
/* Their extrapolation quantity (eq. 8, Appendix B Figure 5):
 *   B(s)/d = (1/d) sum_{k=0}^{d/2-1} |A_{k+1}(s)|,
 *   A_k(s) = sum_{j<k} e^{i s theta_j},
 * for the rotated pairs of s (d = its rot), at s from a grid:
 * b_over_d[j] for grid row j (count rows from j0).  B(0)/d = (n+1)/4 with
 * n = d/2 pairs (16.25 for d = 128).  The schedule must be plain
 * (rl_schedule_is_plain); multipliers are left out. */
rl_status rl_pi_b_over_d(const rl_schedule *s, const rl_grid *g, size_t j0, size_t count,
                         double *sv, double *b_over_d);
/* Their ratio of the extrapolation bound (eq. 8, 2 max|h| B(s)) to the
 * interpolation bound (eq. 7, d max|h| / (32 ln c)):
 *   2 (B(s)/d) 32 ln c   (>= 2 * 294.73 ~ 600 where B(s) >= d). */
double rl_pi_ratio(double b_over_d, double base);
/* The interpolation bound from a schedule's own frequencies: the proof of
 * Theorem 2.1 before its RoPE-only step sum_j theta_j^2 ~ d / (4 ln c),
 * max|h| sum_j theta_j^2 / 8 (over the n rotated pairs).  The sum, of
 * theta + theta_lo, in long double: */
double rl_pi_sum_theta_sq(const rl_schedule *s);
/* The ratio against that bound, for schedules other than plain RoPE:
 *   2 B(s) / (sum theta^2 / 8) = 16 rot (B(s)/d) / sum theta^2
 * (B(s)/d as rl_pi_b_over_d gives it: B over rot). */
double rl_pi_ratio_theta(double b_over_d, size_t rot, double sum_theta_sq);

/* YaRN (Peng et al. 2023, arXiv:2309.00071, sec. 3.2; the code's
 * correction range, HF _find_correction_range, ggml
 * ggml_rope_yarn_corr_dims): the pair index where a pair turns b times
 * within L, cd(b) = rot ln(L / (2 pi b)) / (2 ln base); low = cd(beta_fast),
 * high = cd(beta_slow); rounded outward (floor, ceil) with truncate, then
 * clamped to [0, rot - 1]: *low_exact, *high_exact before rounding and
 * clamping, *low, *high as used.  Computed by the yarn schedule's own
 * code (src/core/schedules/yarn.c). */
rl_status rl_yarn_correction_range(size_t rot, double base, double train_len,
                                   double beta_fast, double beta_slow, int truncate,
                                   double *low_exact, double *high_exact, double *low,
                                   double *high);
/* YaRN's attention factor 0.1 ln s + 1 (1 for s <= 1), sec. 3.4 eq. 22. */
double rl_yarn_attention_factor(double factor);

/* The correction range and attention factor of the yarn schedule that
 * p (its dim, rot, base, factor, betas, truncate, mscale, variant) gives
 * for original length train_len.  err as rl_schedule_new. */
typedef struct rl_yarn_result {
  double low_exact, high_exact, low, high, attention_factor;
} rl_yarn_result;
rl_status rl_yarn_bounds(const rl_schedule_params *p, double train_len, rl_yarn_result *out,
                         char *err);
/* The schedule the yarn bound is computed for: p's method made yarn when
 * it is yarn or the default (unchosen) one, its factor 1 when not given;
 * RL_EINVAL (err: "invalid --method ...") for another method. */
rl_status rl_yarn_bound_params(rl_schedule_params *p, char *err);

/* The bound checks of `ropelab check`, NULL-terminated. */

#ifdef __cplusplus
}
#endif
#endif
