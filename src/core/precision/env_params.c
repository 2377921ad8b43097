/* env_params.c: the settings of the precision envelope (`ropelab
 * precision`), declared once (rl_prec_env_param_list), their checks
 * against each other and what follows from them (rl_prec_env_plan), the
 * bins and the pipelines measured. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h" /* rl_errf */

#define PE_FIELD(f) offsetof(rl_prec_env_settings, f)

static const char *const sample_names[] = {"all", "log", NULL};
static const char *const by_names[] = {"position", "pair", NULL};
static const char *const bins_names[] = {"log", "none", NULL};

/* --against: a pipeline, named as --precision names them */
static const char *const *against_names(void)
{
  return rl_param_names(rl_schedule_param_find("precision"));
}
static rl_status against_parse(const rl_param *d, void *obj, const char *arg, char *err,
                               size_t n)
{
  int k;
  rl_status st = rl_param_enum_index(d, arg, &k, err, n);
  if (!st)
    ((rl_prec_env_settings *)obj)->against = rl_precisions()[k];
  return st;
}
static int against_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const rl_precision *p = ((const rl_prec_env_settings *)obj)->against;
  (void)d;
  return snprintf(buf, n, "%s", p ? p->name : "exact");
}
static void against_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_prec_env_settings *)obj)->against = NULL;
}

static const rl_param p_from = {
    .key = "from", .kind = RL_PK_SIZE, .offset = PE_FIELD(from), .lo = 0, .hi = RL_POS_MAX,
    .dflt = 0, .metavar = "A", .unit = "tokens", .help = "first position, >= 0"};
static const rl_param p_to = {
    .key = "to", .kind = RL_PK_SIZE, .offset = PE_FIELD(to), .lo = 0, .hi = RL_POS_MAX,
    .dflt = RL_PREC_ENV_TO, .metavar = "B", .unit = "tokens", .help = "last position"};
static const rl_param p_points = {
    .key = "points", .kind = RL_PK_SIZE, .offset = PE_FIELD(points), .bit = RL_PES_POINTS,
    .lo = 1, .hi = 100000, .dflt = RL_PREC_ENV_POINTS, .metavar = "P",
    .help = "rows (log-spaced bins) with --by position"};
static const rl_param p_sample = {
    .key = "sample", .kind = RL_PK_ENUM, .offset = PE_FIELD(sample), .names = sample_names,
    .metavar = "all|log", .help = "every position, or only each bin's last"};
static const rl_param p_distance = {
    .key = "distance", .kind = RL_PK_SIZE, .offset = PE_FIELD(distance), .lo = 0,
    .hi = RL_POS_MAX, .dflt = RL_PREC_ENV_DISTANCE, .metavar = "R", .symbol = "r",
    .unit = "tokens", .help = "r of the relative property, >= 0"};
static const rl_param p_by = {
    .key = "by", .kind = RL_PK_ENUM, .offset = PE_FIELD(by), .names = by_names,
    .metavar = "position|pair", .help = "rows"};
/* 32 bits: the generator's seed (gsl_rng_set takes an unsigned long) */
static const rl_param p_seed = {
    .key = "seed", .kind = RL_PK_SIZE, .offset = PE_FIELD(seed), .lo = 1, .hi = 4294967295.0,
    .dflt = 1, .metavar = "S", .help = "the draw of q and k"};
/* its help's lines laid out here (help rows of several lines) */
static const rl_param p_against = {
    .key = "against", .kind = RL_PK_CUSTOM, .flags = RL_PF_NAMES, .offset = PE_FIELD(against),
    .metavar = "P", .names_fn = against_names, .parse = against_parse,
    .format = against_format, .reset = against_reset,
    .help = "compare with pipeline P instead of the exact values\n"
            "                     (hf-bf16 against hf-fp32, ggml-f32 against vllm-fp32):\n"
            "                     (C, S) and the right side of logit_err are then P's"};
static const rl_param p_bins = {
    .key = "bins", .kind = RL_PK_ENUM, .offset = PE_FIELD(bins_none), .names = bins_names,
    .metavar = "none", .dflt_text = "",
    .help = "with --by position: one row per position, streamed\n"
            "                     (default: --points log-spaced bins)"};
/* -1: not asked (below the range a value must have) */
static const rl_param p_first = {
    .key = "first-exceeding", .kind = RL_PK_REAL, .offset = PE_FIELD(first_exceeding),
    .lo = 0, .hi = INFINITY, .dflt = -1, .dflt_text = "", .metavar = "E",
    .help = "only the first position whose cos_err or sin_err exceeds E (one row per "
            "pipeline; pos empty if none)"};

static const rl_param *const env_params[] = {&p_from, &p_to, &p_points, &p_sample,
                                             &p_distance, &p_by, &p_seed, &p_against,
                                             &p_bins, &p_first, NULL};

const rl_param *const *rl_prec_env_param_list(void) { return env_params; }

rl_status rl_prec_env_plan(rl_prec_env_settings *s, char *err, size_t n)
{
  int pair = s->by == RL_PES_BY_PAIR, first = s->first_exceeding >= 0;
  if (s->to < s->from)
    return rl_errf(RL_EINVAL, err, n, "invalid --to '%zu': expected a position >= --from %zu",
                   s->to, s->from);
  if ((s->set & RL_PES_POINTS) && (pair || s->bins_none || first))
    return rl_errf(RL_EINVAL, err, n, "--points sets the bins of --by position: expected it "
                   "without %s", pair ? "--by pair" : s->bins_none && !first ? "--bins none"
                                                                      : "--first-exceeding");
  if ((s->bins_none || first) && pair)
    return rl_errf(RL_EINVAL, err, n, "--%s gives rows per position: expected it without --by "
                   "pair", s->bins_none ? "bins none" : "first-exceeding");
  if (first)
    s->bins_none = 1; /* walked position by position */
  /* --against the pipeline itself is allowed: every error is 0, a check
   * of the comparison itself */
  if ((double)s->to + (double)s->distance > RL_POS_MAX)
    return rl_errf(RL_EINVAL, err, n, "invalid --distance '%zu': --to + --distance must stay "
                   "within 2147483648", s->distance);
  return RL_OK;
}

size_t rl_prec_env_bin_ends(const rl_prec_env_settings *s, size_t *ends)
{
  size_t span = s->to - s->from + 1, ne = 0;
  for (size_t k = 1; k <= s->points; k++) {
    size_t e = s->from - 1 + (size_t)ceil(pow((double)span, (double)k / (double)s->points));
    if (k == s->points || e > s->to)
      e = s->to;
    if (e >= s->from && (ne == 0 || e > ends[ne - 1]))
      ends[ne++] = e;
  }
  return ne;
}

size_t rl_prec_env_pipelines(const rl_precision *p, const rl_precision **list, size_t max)
{
  size_t np = 0;
  if (p)
    list[np++] = p;
  else
    for (const rl_precision *const *q = rl_precisions(); *q && np < max; q++)
      if (*q != rl_precision_exact())
        list[np++] = *q;
  return np;
}
