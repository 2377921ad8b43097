/* logbins.c: means of a table's rows over log-spaced bins of its first
 * column (grid.h).
 *
 * Bin b holds the r with 2^(b/K) <= r < 2^((b+1)/K), K bins per octave;
 * the last bin that [from, to] reaches is closed on the right, as
 * numpy.histogram closes its last bin, so a grid ending on a bin edge
 * (r = 65536 with K = 8) does not make a bin of one row.  The edge test
 * carries a slack of 1e-9 bin, so a power of two computed as
 * log2(r) * K = 7.999999999 still opens its bin.  Each column's mean is
 * its sum in row order divided by the count: the same double an awk or
 * numpy loop over the unbinned rows gives. */
#include <math.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include "ropelab.h"

#define EDGE_SLACK 1e-9

static long bin_of(const rl_logbins *b, double r)
{
  long k = (long)floor(log2(r) * (double)b->per_octave + EDGE_SLACK);
  return k > b->last ? b->last : k;
}

rl_status rl_logbins_init(rl_logbins *b, size_t per_octave, double from, double to,
                          size_t cols)
{
  return rl_logbins_init_stat(b, per_octave, from, to, cols, RL_LOGBINS_MEAN);
}

rl_status rl_logbins_init_stat(rl_logbins *b, size_t per_octave, double from, double to,
                               size_t cols, int stat)
{
  *b = (rl_logbins){0};
  if (per_octave < 1 || per_octave > RL_LOGBINS_MAX || cols < 1 || !isfinite(from) ||
      !isfinite(to) || !(from > 0) || to < from ||
      (stat != RL_LOGBINS_MEAN && stat != RL_LOGBINS_RANGE))
    return RL_EINVAL;
  b->stat = stat;
  b->per_octave = per_octave;
  b->cols = cols;
  b->last = LONG_MAX;
  long first = bin_of(b, from);
  long last = (long)ceil(log2(to) * (double)per_octave - EDGE_SLACK) - 1;
  b->last = last < first ? first : last;
  b->cur = first;
  if (!(b->sum = calloc(cols, sizeof *b->sum)) ||
      (stat == RL_LOGBINS_RANGE && !(b->max = calloc(cols, sizeof *b->max)))) {
    rl_logbins_free(b);
    return RL_ENOMEM;
  }
  return RL_OK;
}

size_t rl_logbins_width(const rl_logbins *b)
{
  return b->stat == RL_LOGBINS_RANGE ? 2 * b->cols + 1 : b->cols + 1;
}

void rl_logbins_free(rl_logbins *b)
{
  if (b) {
    free(b->sum);
    free(b->max);
    b->sum = b->max = NULL;
  }
}

/* the row of the current bin into out, the bin emptied */
static void close_bin(rl_logbins *b, double *out)
{
  if (b->stat == RL_LOGBINS_RANGE) {
    out[0] = b->first, out[1] = b->latest, out[2] = (double)b->count;
    for (size_t c = 1; c < b->cols; c++)
      out[1 + 2 * c] = b->sum[c], out[2 + 2 * c] = b->max[c];
    b->count = 0;
    return;
  }
  out[0] = exp2(((double)b->cur + 0.5) / (double)b->per_octave);
  out[1] = (double)b->count;
  for (size_t c = 1; c < b->cols; c++) {
    out[c + 1] = b->sum[c] / (double)b->count;
    b->sum[c] = 0;
  }
  b->count = 0;
}

rl_status rl_logbins_add(rl_logbins *b, const double *v, double *out, int *closed)
{
  *closed = 0;
  if (!(v[0] > 0))
    return RL_EINVAL;
  long k = bin_of(b, v[0]);
  if (k < b->cur)
    return RL_EINVAL; /* not increasing */
  if (k > b->cur) {
    if (b->count) {
      close_bin(b, out);
      *closed = 1;
    }
    b->cur = k;
  }
  if (b->stat == RL_LOGBINS_RANGE) {
    if (!b->count)
      b->first = v[0];
    b->latest = v[0];
    for (size_t c = 1; c < b->cols; c++) {
      if (!b->count || v[c] < b->sum[c])
        b->sum[c] = v[c];
      if (!b->count || v[c] > b->max[c])
        b->max[c] = v[c];
    }
  } else {
    for (size_t c = 1; c < b->cols; c++)
      b->sum[c] += v[c];
  }
  b->count++;
  return RL_OK;
}

int rl_logbins_finish(rl_logbins *b, double *out)
{
  if (!b->count)
    return 0;
  close_bin(b, out);
  return 1;
}

size_t rl_logbins_count(const rl_grid *g, size_t per_octave)
{
  rl_logbins b;
  if (rl_logbins_init(&b, per_octave, rl_grid_at(g, 0), rl_grid_at(g, g->points - 1), 1))
    return 0;
  size_t n = 0;
  long prev = LONG_MIN;
  for (size_t j = 0; j < g->points; j++) {
    double r = rl_grid_at(g, j);
    if (!(r > 0))
      continue;
    long k = bin_of(&b, r);
    n += k != prev;
    prev = k;
  }
  rl_logbins_free(&b);
  return n;
}

/* decay --bins K: declared here, where the bins are made, so the option,
 * its help, message, metadata and sweep come from this one line */
static const rl_param p_bins = {
    .key = "bins", .kind = RL_PK_SIZE, .offset = offsetof(rl_logbins_settings, bins), .lo = 1,
    .hi = RL_LOGBINS_MAX, .dflt = 0, .dflt_text = "none: one row per r", .metavar = "K",
    .help = "one row per log-spaced bin of r, K bins per octave: its geometric centre r, its "
            "count n and each column's mean over the bin (needs distances > 0)"};
static const char *const stat_names[] = {"mean", "range", NULL};
/* the metadata names the statistic only where it is not the mean (the
 * tables made before it existed read the same) */
static int stat_not_mean(const void *obj)
{
  return ((const rl_logbins_settings *)obj)->stat != RL_LOGBINS_MEAN;
}
static const rl_param p_stat = {
    .key = "bin-stat", .kind = RL_PK_ENUM, .offset = offsetof(rl_logbins_settings, stat),
    .names = stat_names, .dflt = RL_LOGBINS_MEAN, .metavar = "mean|range",
    .meta_if = stat_not_mean,
    .help = "with --bins: each column's mean (columns r, n, ...), or its smallest and largest "
            "value over the bin, every r of it (columns r_first, r_last, n, X_min, X_max: the "
            "envelope of an oscillating measure)"};
static const rl_param *const bins_params[] = {&p_bins, &p_stat, NULL};

const rl_param *const *rl_logbins_param_list(void) { return bins_params; }
