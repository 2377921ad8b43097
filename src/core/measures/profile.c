/* profile.c: the positional contribution total - cc against relative
 * distance r for any scheme (what `profile` writes): the query at q with
 * content x_s, the key at q - r with content x_s (same) or y_s
 * (independent), s = 1..N; common random numbers, so every r sees the
 * same contents.  Queries are prepared once; per distance the keys are
 * prepared and each pair is O(d) (rl_scheme_pair). */
#include <math.h>
#include <stdlib.h>
#include "ropelab.h"

struct rl_profile_ws {
  const rl_scheme *s;
  size_t head, samples, d, pl;
  double q;
  const double *xs, *ys;
  double *pq; /* samples prepared queries */
};

rl_status rl_profile_alloc(const rl_scheme *s, size_t head, double q, size_t samples,
                           const double *xs, const double *ys, rl_profile_ws **out)
{
  *out = NULL;
  if (samples < 2)
    return RL_EINVAL;
  rl_profile_ws *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  *w = (rl_profile_ws){s, head, samples, rl_scheme_get_cfg(s)->dim, rl_scheme_prep_len(s),
                       q, xs, ys, NULL};
  w->pq = malloc(samples * w->pl * sizeof *w->pq);
  if (!w->pq) {
    free(w);
    return RL_ENOMEM;
  }
  for (size_t n = 0; n < samples; n++) {
    rl_status st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, q, xs + n * w->d, w->pq + n * w->pl);
    if (st) {
      rl_profile_free(w);
      return st;
    }
  }
  *out = w;
  return RL_OK;
}

void rl_profile_free(rl_profile_ws *w)
{
  if (!w)
    return;
  free(w->pq);
  free(w);
}

size_t rl_profile_scratch_len(const rl_profile_ws *w)
{
  return 2 * w->pl;
}

rl_status rl_profile_eval(const rl_profile_ws *w, double r, double *scratch,
                          rl_profile_point *out, rl_measure_err *e)
{
  double pj = w->q - r, same = 0, mean = 0, m2 = 0;
  if (e)
    *e = (rl_measure_err){w->q, pj, 0};
  for (size_t n = 0; n < w->samples; n++) {
    const double *x = w->xs + n * w->d, *y = w->ys + n * w->d, *pq = w->pq + n * w->pl;
    rl_logit_terms t1, t2;
    rl_status st = rl_scheme_prepare(w->s, w->head, RL_ROLE_KEY, pj, x, scratch);
    if (!st)
      st = rl_scheme_prepare(w->s, w->head, RL_ROLE_KEY, pj, y, scratch + w->pl);
    if (!st)
      st = rl_scheme_pair(w->s, w->head, w->q, pj, pq, scratch, &t1);
    if (!st)
      st = rl_scheme_pair(w->s, w->head, w->q, pj, pq, scratch + w->pl, &t2);
    if (st)
      return st;
    same += t1.total - t1.cc;
    /* Welford: mean and sum of squared deviations in one pass */
    double v = t2.total - t2.cc, dlt = v - mean;
    mean += dlt / (double)(n + 1);
    m2 += dlt * (v - mean);
  }
  out->same = same / (double)w->samples + 0.0; /* + 0.0: no "-0" */
  out->mean = mean + 0.0;
  out->se = sqrt(m2 / (double)(w->samples - 1) / (double)w->samples);
  if (!isfinite(out->same) || !isfinite(out->mean) || !isfinite(out->se)) {
    if (e)
      e->nonfinite = 1;
    return RL_EOVERFLOW;
  }
  return RL_OK;
}
