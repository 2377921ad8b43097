/* grid.h: grids of relative distances.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_GRID_H
#define ROPELAB_GRID_H

#include <stddef.h>
#include <stdint.h>
#include "param.h"
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

/* The grid options of the commands that evaluate over one, declared
 * once (param.h): --from, --to, --step, and for a log grid --log and
 * --points, in that order (the CLI's option values follow it), parsed
 * into rl_grid_settings.  The ranges past RL_POS_MAX are refused when
 * the grid is made (rl_grid_linear, rl_grid_log), not here, so the
 * message can say the values are outside the accurate range. */
typedef struct rl_grid_settings {
  double from, to, step;
  size_t points; /* log grid: number of values */
  int log;       /* 1: log-spaced (--log) */
} rl_grid_settings;

/* Each command's grid: the declarations of its options, with its
 * defaults and its words (the CLI prints these, never restates them),
 * and for a log grid the first value --log starts from. */
typedef struct rl_grid_default {
  const rl_param *const *params; /* NULL-terminated */
  double log_from;               /* --from's default with --log */
  int has_log;                   /* the list has --log and --points */
} rl_grid_default;
/* RoFormer Fig. 2's r = 0..256 (decay); log-spaced, 256 points from 1
 * to 256. */
extern const rl_grid_default rl_grid_fig2;
/* The same axis for profile (linear only, integer steps for tables). */
extern const rl_grid_default rl_grid_fig2_profile;
/* A cos/sin table short enough to diff by eye: positions 0..15 (angles). */
extern const rl_grid_default rl_grid_table;
/* Chen et al. 2023, Appendix B Figure 5: s = 0..4095 (bound pi). */
extern const rl_grid_default rl_grid_pi_fig5;
/* s's settings set to g's defaults (--from's is the linear grid's). */
void rl_grid_settings_default(const rl_grid_default *g, rl_grid_settings *s);

/* Log-spaced bins of r (decay --bins): K bins per octave, bin b holding
 * 2^(b/K) <= r < 2^((b+1)/K), the last bin [from, to] reaches closed on
 * the right (numpy.histogram's rule).  Rows go in with r > 0 in
 * increasing order, r first then cols - 1 values; a bin's row comes out
 * when the next bin starts.  Its statistic:
 *   RL_LOGBINS_MEAN   the geometric centre 2^((b+0.5)/K), the count n,
 *                     and each column's sum in row order over n (what an
 *                     awk or numpy loop over the unbinned rows gives, to
 *                     the bit): cols + 1 values;
 *   RL_LOGBINS_RANGE  the bin's first and last r, n, and each column's
 *                     smallest and largest value over the bin (the
 *                     envelope of an oscillating quantity: a figure of it
 *                     keeps every extreme): 2 cols + 1 values.
 * Empty bins give no row. */
#define RL_LOGBINS_MAX 1024 /* bins per octave at most */
enum { RL_LOGBINS_MEAN = 0, RL_LOGBINS_RANGE = 1 };
typedef struct rl_logbins {
  size_t per_octave, cols, count;
  long cur, last;
  int stat;    /* RL_LOGBINS_* */
  double *sum; /* cols; [0] unused; with RANGE the smallest values */
  double *max; /* RANGE: cols, the largest values; else NULL */
  double first, latest; /* RANGE: the bin's first and latest r */
} rl_logbins;
/* RL_EINVAL: K outside 1..RL_LOGBINS_MAX, from <= 0, to < from, an
 * unknown stat. */
rl_status rl_logbins_init(rl_logbins *b, size_t per_octave, double from, double to,
                          size_t cols);
rl_status rl_logbins_init_stat(rl_logbins *b, size_t per_octave, double from, double to,
                               size_t cols, int stat);
/* The values of a bin's row: cols + 1 (mean), 2 cols + 1 (range). */
size_t rl_logbins_width(const rl_logbins *b);
void rl_logbins_free(rl_logbins *b);
/* Row v in; *closed = 1 when out (rl_logbins_width values) holds the
 * finished bin's row.  RL_EINVAL when v[0] <= 0 or lies in an earlier
 * bin. */
rl_status rl_logbins_add(rl_logbins *b, const double *v, double *out, int *closed);
/* The last bin's row into out: 1, or 0 when no row is pending. */
int rl_logbins_finish(rl_logbins *b, double *out);
/* The rows K bins per octave make of g's values > 0 (for the metadata). */
size_t rl_logbins_count(const rl_grid *g, size_t per_octave);
/* The settings, declared once (param.h): --bins K (0 for none) and
 * --bin-stat mean|range. */
typedef struct rl_logbins_settings {
  size_t bins;
  int stat;
} rl_logbins_settings;
const rl_param *const *rl_logbins_param_list(void); /* NULL-terminated */

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
