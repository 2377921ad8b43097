/* grid.h: grids of relative distances.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_GRID_H
#define ROPELAB_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_grid {
  double from, to, step; /* linear grid: from + j*step, j = 0.. while <= to */
  size_t points;         /* number of rows */
  int log;               /* 1: points log-spaced values from..to (from > 0) */
} rl_grid;

/* Linear grid [from, to] with step > 0; every value must lie within
 * [-RL_POS_MAX, RL_POS_MAX].  The last row is the largest grid value
 * <= to (plus a relative 1e-12 slack, so 0:0.1:1 ends at 1). */
rl_status rl_grid_linear(double from, double to, double step, rl_grid *g);
/* points >= 2 values, log-spaced from from > 0 to to > from, both ends
 * included; points == 1 gives from alone. */
rl_status rl_grid_log(double from, double to, size_t points, rl_grid *g);
/* Value of row j; for a linear grid fma(j, step, from). */
double rl_grid_at(const rl_grid *g, size_t j);
/* Nonzero when every linear grid value is an exact double, so a constant
 * angle step is exact and the fast recurrence applies. */
int rl_grid_is_exact(const rl_grid *g);

/* The default grids of the commands that evaluate over one (the CLI
 * prints these, never restates them): a linear grid from, to, step, and
 * for a log grid its first value and number of points. */
typedef struct rl_grid_default {
  double from, to, step;
  double log_from;
  size_t log_points;
} rl_grid_default;
/* RoFormer Fig. 2's r = 0..256 (decay, and profile on the same axis);
 * log-spaced, 256 points from 1 to 256. */
extern const rl_grid_default rl_grid_fig2;
/* A cos/sin table short enough to diff by eye: positions 0..15 (angles). */
extern const rl_grid_default rl_grid_table;
/* Chen et al. 2023, Appendix B Figure 5: s = 0..4095 (bound pi). */
extern const rl_grid_default rl_grid_pi_fig5;

/* A list of values in the sweep syntax: comma-separated items, each a
 * number or a range START:STOP:STEP (STEP +S / -S arithmetic, xK
 * geometric; STOP included when reached to 1e-9 of a step), e.g.
 * "500,1e4,5e5", "1:8:x2", "0:1:0.25".  *out (malloc'd, caller frees)
 * holds *count <= max values in the order given.  RL_EINVAL with a
 * message in err (the bad item quoted, what was expected) otherwise. */
rl_status rl_values_parse(const char *text, size_t max, double **out, size_t *count, char *err,
                          size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
