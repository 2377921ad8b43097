/* bounds_impl.h: what the files of src/core/bounds share (private to the
 * core): the fast sign test of Men et al.'s similarity
 *   B_r = c0 + sum_{k<n} cos(r theta_k),   r = 0, 1, 2, ...
 * (men_scan.c), used by the search for the smallest feasible base
 * (men.c).  c0 = (dim - rot)/2 counts the pass-through pairs, whose
 * angle is always 0 (cos 0 = 1): Men et al. eq. 9 sums over every pair of
 * the head, and Su (kexue.fm/archives/10122, "partial rotation") writes
 * the unrotated ones as theta = 0. */
#ifndef RL_BOUNDS_IMPL_H
#define RL_BOUNDS_IMPL_H
#include <stddef.h>
#include <stdint.h>
#include "ropelab.h"
#include "../base/internal.h"

#define RL_BSCAN_BLOCK 64   /* rows per block (the vectorised dimension) */

typedef struct rl_bscan rl_bscan;

/* A workspace for frequency sets of at most nmax pairs (one per thread). */
rl_status rl_bscan_alloc(size_t nmax, rl_bscan **out);
void rl_bscan_free(rl_bscan *w);

typedef struct rl_bscan_out {
  double first_fail;   /* first r with B_r < 0, or len when there is none */
  double fail_value;   /* B_r at first_fail (exact angles) in the upward
                          modes, else 0 */
  double min, argmin;  /* smallest B_r over the rows scanned, and its r */
  size_t rechecks;     /* rows whose sign needed the exact sum */
  size_t ambiguous;    /* rows whose exact sum was within its own error
                          bound of 0 (decided by its sign; expected 0) */
  double rows;         /* rows computed */
} rl_bscan_out;

/* How far rl_bscan_run looks. */
enum {
  RL_BSCAN_ALL = 0,   /* every row: min, argmin over 0..len-1 */
  RL_BSCAN_FIRST = 1, /* upward, stop at the first r with B_r < 0 (min,
                         argmin then cover the rows before it) */
  RL_BSCAN_ANY = 2    /* chunks of rows in the order of the smallest B_r
                         each showed before (at any base, same len; see
                         men_scan.c), stop after the first chunk holding
                         a negative row: first_fail is the lowest negative
                         r of that chunk (not the first of 0..len-1), min
                         and argmin (the deepest negative) cover the
                         chunks scanned */
};

/* tick (NULL: none) is called by rl_bscan_run after each span of rows
 * (upward) or chunk (RL_BSCAN_ANY) with the rows computed so far and the
 * rows of the length: the progress of a long scan (issue 33 item 5). */
void rl_bscan_set_tick(rl_bscan *w, void (*tick)(void *ctx, double rows_done, double rows),
                       void *ctx);

/* Forget what the scans so far showed about where B_r is small (a new
 * search; only the order of RL_BSCAN_ANY depends on it). */
void rl_bscan_forget(rl_bscan *w);

/* Scan r = 0 .. len-1 (len >= 1, len - 1 <= RL_POS_MAX) of B_r for the
 * n frequencies theta (each in [0, 1]), as mode says.  The sign of
 * every row is decided correctly: a row whose fast value lies within the
 * recurrence's error bound of 0 is recomputed from exact angles. */
rl_status rl_bscan_run(rl_bscan *w, const double *theta, size_t n, double c0, double len,
                       int mode, rl_bscan_out *out);

/* B_r from exact angles (rl_angle_sincos), summed in long double; *err
 * (may be NULL) receives its error bound. */
double rl_bscan_exact(const double *theta, size_t n, double c0, double r, double *err);

/* The sign of B_r at one r (a witness): -1 when B_r < 0, +1 otherwise,
 * from libm's cos with an error bound, falling back to the exact sum;
 * *value receives B_r.  *rechecked / *ambiguous are incremented as in
 * rl_bscan_out. */
int rl_bscan_sign(const double *theta, size_t n, double c0, double r, double *value,
                  size_t *rechecked, size_t *ambiguous);

/* A quick refutation for RoPE's own schedule, before building it:
 * rl_bscan_approx fills theta~_k = rho^k, rho = b^(-2/rot), k < rot/2, in
 * double, with *d_sum = sum_k delta_k theta~_k (delta_k its relative error
 * bound, see men_scan.c) and *t_sum = sum_k theta~_k.
 * rl_bscan_approx_value returns B_r from theta~ and in *bound a bound on
 * its distance from B_r at the schedule's true frequencies: a value below
 * -bound refutes the base for certain.  theta and tmp hold n rounded up
 * to a multiple of 8 doubles (the padding is zeroed and not summed). */
/* RoPE's own theta_k at base without a schedule: rl_sched_plain_theta
 * (src/core/base/internal.h). */

void rl_bscan_approx(double base, size_t rot, double *theta, double *d_sum, double *t_sum);
double rl_bscan_approx_value(const double *theta, size_t n, double c0, double d_sum,
                             double t_sum, double r, double *tmp, double *bound);

#endif
