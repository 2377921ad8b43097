/* mc.h: Monte Carlo over random queries and keys.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_MC_H
#define ROPELAB_MC_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Monte Carlo over random queries and keys                            */

/* The samples are drawn afresh from seed at every r (common random
 * numbers: every distance sees the same q, k). */
typedef struct rl_mc_result {
  double ind_mean, ind_se;   /* q^T R_r k, q and k independent N(0, sigma^2 I) */
  double self_mean, self_se; /* q^T R_r q */
  double self_expect;        /* 2 sigma^2 B_r + sigma^2 (d - r_rot): closed form */
  double abel_max;           /* max over samples of |q^T R_r k| / Abel bound (<= 1) */
} rl_mc_result;

/* The sigma rl_mc_alloc accepts.  Every result but abel_max is sigma^2
 * times the one at sigma = 1 (computed so, from unit draws); this range
 * keeps sigma^2 within 1e-200..1e200, so that sigma^2 times a unit result
 * (at most about 2^27 times the logit weight for d <= 2^20) stays finite
 * and normal, i.e. one rounding from the exact product. */
#define RL_MC_SIGMA_MIN 1e-100
#define RL_MC_SIGMA_MAX 1e100

/* The Monte Carlo settings a command takes (decay's --samples, --seed,
 * --sigma), declared once (rl_mc_param_list): the CLI's options, help,
 * messages, metadata and sweep axes come from these declarations. */
typedef struct rl_mc_settings {
  size_t samples; /* >= 2, so that the standard error is defined (1000) */
  size_t seed;    /* 1..2^32-1 (1) */
  double sigma;   /* RL_MC_SIGMA_MIN..RL_MC_SIGMA_MAX (1) */
} rl_mc_settings;
void rl_mc_settings_default(rl_mc_settings *s);
const rl_param *const *rl_mc_param_list(void); /* NULL-terminated */

typedef struct rl_mc_ws rl_mc_ws;
rl_status rl_mc_alloc(const rl_schedule *f, size_t samples, double sigma,
                      unsigned long seed, rl_mc_ws **out);
void rl_mc_free(rl_mc_ws *w);
rl_status rl_mc_eval(rl_mc_ws *w, double r, rl_mc_result *res);
/* res[j] = rl_mc_eval at r[j] for j < nr, bitwise, with every sample
 * drawn once for all nr distances instead of once per distance. */
rl_status rl_mc_eval_many(rl_mc_ws *w, size_t nr, const double *r, rl_mc_result *res);

#ifdef __cplusplus
}
#endif
#endif
