/* cost.h: what a long request costs before it runs, and the largest one
 * accepted (issue 33 item 5).  The rates are CPU time per unit of work
 * measured on the development machine (2 cores, load 17-22: numbers from
 * a loaded machine, so on the slow side) with experiments/long_requests.sh;
 * a request estimated past RL_COST_MAX_CPU_S of CPU or RL_COST_MAX_BYTES
 * of memory is refused up front (exit 2) with the value and the largest
 * accepted, anything below runs with progress and the time left.
 * Part of the ropelab core API: include "ropelab.h". */
#ifndef ROPELAB_COST_H
#define ROPELAB_COST_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An hour of CPU: past it a request is not an interactive measurement
 * and a sweep of it (or a shard) is the way; 4 GB: the address space the
 * issue's sweep allows (ulimit -v 4000000). */
#define RL_COST_MAX_CPU_S 3600.0
#define RL_COST_MAX_BYTES 4e9

/* measured CPU seconds per unit (see the file comment) */
#define RL_COST_DECAY_ROW_S 2e-6      /* a row written, whatever its measures */
#define RL_COST_DECAY_PAIR_S 1.25e-7  /* bound/similarity: one pair at one r */
#define RL_COST_MC_S 1.2e-8           /* mc: one sample of one pair at one r */
#define RL_COST_EXTRAP_POS_S 1e-4     /* extrapolate: one position of N, per config */
#define RL_COST_EXTRAP_SAMPLE_S 1.7e-8 /* extrapolate: one sample x position x dim */
#define RL_COST_EXTRAP_POS_BYTES 1.1e3 /* extrapolate: memory per position of N */
#define RL_COST_TABLE_BYTES 8.0       /* a learned table: a double per position x dim of L */
#define RL_COST_TABLE_S 4e-8          /* drawing it: one Gaussian per entry */
#define RL_COST_MEN_S 1.8e-8          /* bound men: one distance of one pair, search */
#define RL_COST_PREC_BUILD_S 1.5e-6  /* precision: a pipeline's (or the exact) schedule built,
                                         a pair (exact angles in quad precision): 0.8 s at
                                         d = 2^20, load 11 */
#define RL_COST_PREC_POS_S 1e-7       /* precision: one pair at one position, one pipeline
                                         (52 ms a position at d = 2^20) */
#define RL_COST_HEAD_MATS 4.0         /* a scheme's head: d x d doubles of W_q, W_k and at
                                         most two of its own (TUPE's U_q, U_k; XL's one) */

/* Estimates in CPU seconds. */
double rl_cost_decay(size_t rows, size_t pairs, int closed_forms, size_t mc_samples);
double rl_cost_extrap(size_t configs, size_t samples, size_t eval_len, size_t dim);
double rl_cost_men(const double *len, size_t nlen, size_t pairs);
/* precision: the exact schedule and `pipelines` pipelines built, then
 * `positions` positions of each */
double rl_cost_prec(size_t pipelines, size_t positions, size_t pairs);
/* A schedule's build in units of one position's rows (both per pair):
 * the weight of each build in precision's progress. */
size_t rl_cost_prec_build_positions(void);

/* Checks: RL_OK, or RL_ERANGE with err (RL_ERR_MAX bytes) a lowercase
 * line naming the value, the largest accepted and why.  rows_what names
 * where decay's rows come from ("--points", "distances"). */
rl_status rl_cost_check_decay(size_t rows, const char *rows_what, size_t pairs, int closed_forms,
                              size_t mc_samples, char *err);
rl_status rl_cost_check_extrap(size_t configs, size_t samples, size_t train_len,
                               size_t eval_len, size_t dim, char *err);
rl_status rl_cost_check_men(const double *len, size_t nlen, size_t pairs, char *err);
/* positions_what names where the positions come from ("--to", "--points"),
 * pairs_what where the pairs do ("--dim", "--rot": twice the pairs); where
 * not one position fits beside the builds, the width is refused, naming
 * the largest that fits. */
rl_status rl_cost_check_prec(size_t pipelines, size_t positions, const char *positions_what,
                             size_t positions_given, size_t pairs, const char *pairs_what,
                             size_t pairs_given, char *err);
/* A scheme's head of dimension dim (identity: no W_q, W_k) within half of
 * RL_COST_MAX_BYTES: a profile at d = 65536 asked 137 GB and ended "out
 * of memory" (rl_scheme_alloc refuses it up front). */
rl_status rl_cost_check_scheme(size_t dim, int identity, char *err);

/* Chunk rows for a row-by-row run so a chunk costs about `seconds`:
 * progress moves at least that often (between 1 and max_rows). */
size_t rl_cost_chunk_rows(double row_cost_s, double seconds, size_t max_rows);

/* The largest estimate (CPU seconds) the rl_cost_check_* calls of this
 * thread made since rl_cost_note_reset (0: none): the sweep layer weighs
 * its points' progress and time left by it. */
void rl_cost_note_reset(void);
double rl_cost_noted(void);

/* "%.0f s", "%.1f min" or "%.1f h" of x seconds, into buf. */
void rl_cost_duration(double seconds, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
