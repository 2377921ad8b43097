/* decay.h: long-term decay (RoFormer section 3.4.3).
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_DECAY_H
#define ROPELAB_DECAY_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"
#include "grid.h"
#include "mc.h"
#include "param.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RoFormer's relative upper bound
 *   (1/n) * sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k},
 * as the schedule's logit has it: times the logit multiplier (attention
 * factor squared) and query scale, each term weighted by its amplitude
 * (xpos) and r mapped by the schedule (rerope).  The schedule must
 * outlive the workspaces that take it (decay, Monte Carlo).
 * by direct summation with accurate angles (the reference).  NaN when r
 * is outside [-RL_POS_MAX, RL_POS_MAX] or not finite. */
double rl_decay_bound_ref(const rl_schedule *f, double r);
/* Men et al. 2024, eq. 9: B_r = sum_i cos(r theta_i) (reference), with
 * the same multipliers, weights and map. */
double rl_decay_similarity_ref(const rl_schedule *f, double r);

/* A streaming evaluator of bound and similarity over a grid: memory is
 * O(n) whatever the number of rows.  On linear grids it advances the
 * phases by complex multiplication and re-seeds them from accurate
 * angles every RL_DECAY_RESEED rows (rows that are rounded doubles, as
 * with step 0.1, turned by their rounding); relative error stays below 1e-12
 * (measured by tests/measures/test_decay.c). */
#define RL_DECAY_RESEED 256
typedef struct rl_decay_ws rl_decay_ws;
rl_status rl_decay_alloc(const rl_schedule *f, const rl_grid *g, rl_decay_ws **out);
void rl_decay_free(rl_decay_ws *w);
/* Rows j0 .. j0+count-1: r[k], bound[k], sim[k]; any output may be NULL.
 * Calls in increasing j0 are fastest; any order is correct. */
rl_status rl_decay_eval(rl_decay_ws *w, size_t j0, size_t count,
                        double *r, double *bound, double *sim);
/* Threads rl_decay_eval may use, 1 or 2 (the default); the results are
 * bitwise the same either way. */
void rl_decay_threads(rl_decay_ws *w, int n);

/* decay's measures (`ropelab decay --measure`): their columns, in the
 * order given. */
enum { RL_DECAY_BOUND, RL_DECAY_SIMILARITY, RL_DECAY_MC, RL_DECAY_NMEASURES };
/* decay's own settings, declared once (param.h): the measures
 * (rl_decay_param_list, default bound alone), the log bins of r
 * (rl_logbins_param_list over .bins) and the Monte Carlo's
 * (rl_mc_param_list over .mc, which only mc takes). */
typedef struct rl_decay_settings {
  int order[RL_DECAY_NMEASURES]; /* RL_DECAY_*, as given */
  size_t norder;
  rl_logbins_settings bins;
  rl_mc_settings mc;
} rl_decay_settings;
const rl_param *const *rl_decay_param_list(void); /* NULL-terminated: --measure */
/* Whether s runs measure m (RL_DECAY_*). */
int rl_decay_runs(const rl_decay_settings *s, int m);
/* The measure's name, and its columns ("bound", "mc_ind_mean,...,abel_max"). */
const char *rl_decay_measure_name(int m);
const char *rl_decay_measure_columns(int m);
/* Values per row: r and every measure's columns (mc has 6). */
size_t rl_decay_row_width(const rl_decay_settings *s);

#ifdef __cplusplus
}
#endif
#endif
