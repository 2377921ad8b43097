/* profile.c: the positional contribution total - cc against relative
 * distance r for any scheme (what `profile` writes): the query at q with
 * content x_s, the key at q - r with content x_s (same) or y_s
 * (independent), s = 1..N; common random numbers, so every r sees the
 * same contents.  Queries are prepared once; per distance the keys are
 * prepared and each pair is O(d) (rl_scheme_pair). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
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

/* ---- profile's settings (measures.h) ---- */
static const char *const norm_names[] = {"none", "max", NULL};
static const char *const *norm_list(void) { return norm_names; }
static rl_status norm_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  int k;
  rl_status st = rl_param_enum_index(d, arg, &k, err, n);
  if (!st)
    ((rl_profile_settings *)obj)->plot_normalize = RL_PROFILE_NORM_NONE + k;
  return st;
}
static int norm_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  int k = ((const rl_profile_settings *)obj)->plot_normalize;
  return snprintf(buf, n, "%s", k ? norm_names[k - 1] : "");
}
static void norm_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_profile_settings *)obj)->plot_normalize = RL_PROFILE_NORM_AUTO;
}

static const rl_param p_query_pos = {
    .key = "query-pos", .kind = RL_PK_REAL, .flags = RL_PF_NO_META,
    .bit = RL_PROFILE_SET_QUERY_POS, .offset = offsetof(rl_profile_settings, query_pos),
    .lo = -INFINITY, .hi = INFINITY, .metavar = "Q", .unit = "tokens",
    .dflt_text = "max(--to, 0), so that keys q - r are >= 0 for r >= 0",
    .help = "query position"};
static const rl_param p_samples = {
    .key = "samples", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META, .bit = RL_PROFILE_SET_SAMPLES,
    .offset = offsetof(rl_profile_settings, samples), .lo = 2, .hi = 100000000, .dflt = 100,
    .metavar = "N", .help = "content samples, >= 2"};
static const rl_param p_norm = {
    .key = "plot-normalize", .kind = RL_PK_CUSTOM,
    .flags = RL_PF_NAMES | RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = offsetof(rl_profile_settings, plot_normalize), .names_fn = norm_list,
    .parse = norm_parse, .format = norm_format, .reset = norm_reset, .metavar = "none|max",
    .dflt_text = "max for two to four schemes, none otherwise",
    .help = "the --plot figure (up to four schemes: two shared panels, same content and "
            "independent content +-2 se; more: one panel per scheme with both): none draws the "
            "logits as computed, max divides each scheme by its largest |value| (the divisor in "
            "the key); the CSV is never scaled"};
static const rl_param p_checkpoint = {
    .key = "checkpoint", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = offsetof(rl_profile_settings, checkpoint), .metavar = "F",
    .dflt_text = "none",
    .help = "a model 'ropelab train --checkpoint F' wrote, measured instead (no --scheme; "
            "--samples and the output options only): t5 and alibi, the positional logit per "
            "head and distance 0..max_T-1 (head,distance,logit); rope, the mean norm of each "
            "query and key rotation pair per layer and head over --samples examples of the "
            "training length, default the checkpoint's eval_samples "
            "(layer,head,pair,theta,q_norm,k_norm; Barbero et al. 2024); other schemes, "
            "--measure logit"};
static const char *const measure_names[] = {"bias", "pair-norms", "logit", NULL};
static const rl_param p_measure = {
    .key = "measure", .kind = RL_PK_ENUM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .bit = RL_PROFILE_SET_MEASURE, .offset = offsetof(rl_profile_settings, measure),
    .names = measure_names, .dflt = RL_PROFILE_CK_BIAS, .metavar = "M",
    .dflt_text = "bias for t5 and alibi, pair-norms for rope, logit for the others",
    .help = "with --checkpoint: bias (t5, alibi) or pair-norms (rope) as above, or logit (every "
            "scheme): the attention logit before the softmax, all of it (content, rotation, "
            "bias), per layer, head and distance r = i - j over the queries i >= r, mean and se "
            "over the --samples examples (layer,head,distance,logit,logit_se; rope adds "
            "logit_norot and its se, the rotation removed): profile's random-q,k curve measured "
            "on the trained model's own q and k"};
static const rl_param *const list[] = {&p_query_pos, &p_samples, &p_norm, &p_checkpoint,
                                       &p_measure, NULL};

const rl_param *const *rl_profile_param_list(void) { return list; }
const char *const *rl_profile_measure_names(void) { return measure_names; }

void rl_profile_plan(rl_profile_settings *s, double to)
{
  if (!(s->set & RL_PROFILE_SET_QUERY_POS))
    s->query_pos = to > 0 ? to : 0;
}

rl_status rl_profile_contents(const rl_profile_settings *s, size_t d, unsigned long seed,
                              double **out)
{
  size_t N = s->samples;
  double *xs = malloc(2 * N * d * sizeof *xs), *tmp = malloc(2 * N * d * sizeof *tmp);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  *out = NULL;
  if (!xs || !tmp || !rng) {
    free(xs), free(tmp);
    if (rng)
      gsl_rng_free(rng);
    return RL_ENOMEM;
  }
  /* drawn x_0, y_0, x_1, y_1, ...; stored as the x block then the y block */
  gsl_rng_set(rng, seed);
  for (size_t n = 0; n < 2 * N * d; n++)
    tmp[n] = gsl_ran_gaussian(rng, 1.0);
  gsl_rng_free(rng);
  for (size_t n = 0; n < N; n++) {
    memcpy(xs + n * d, tmp + 2 * n * d, d * sizeof *xs);
    memcpy(xs + (N + n) * d, tmp + (2 * n + 1) * d, d * sizeof *xs);
  }
  free(tmp);
  *out = xs;
  return RL_OK;
}
