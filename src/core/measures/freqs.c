/* freqs.c: the per-pair table of a schedule (ropelab/freqs.h). */
#include <math.h>
#include <stddef.h>
#include "ropelab.h"

#define PI_L 3.14159265358979323846264338327950288L

double rl_schedule_turns(const rl_schedule *s, size_t i, double n)
{
  return (double)((long double)n * (long double)s->theta[i] / (2.0L * PI_L));
}

size_t rl_schedule_turned(const rl_schedule *s, double n)
{
  size_t k = 0;
  for (size_t i = 0; i < s->n; i++)
    k += rl_schedule_turns(s, i, n) >= 1.0;
  return k;
}

double rl_schedule_pair_ratio(const rl_schedule *s, const rl_schedule *t, size_t i)
{
  double a = s->theta[i], b = t->theta[i];
  return a == b ? 1.0 : b != 0 ? a / b : (double)HUGE_VAL;
}

rl_status rl_schedule_compare(const rl_schedule *s, const rl_schedule *t, rl_schedule_diff *d)
{
  *d = (rl_schedule_diff){0, 0, 1.0};
  if (s->n != t->n)
    return RL_EINVAL;
  double far = 0;
  for (size_t i = 0; i < s->n; i++) {
    if (s->theta[i] == t->theta[i])
      continue;
    d->differing++;
    double q = rl_schedule_pair_ratio(s, t, i);
    /* distance from 1 on a log scale: 2 and 1/2 are as far */
    double away = isinf(q) ? (double)HUGE_VAL : fabs(log(q));
    if (away > far || d->differing == 1)
      far = away, d->ratio = q, d->pair = i;
  }
  return RL_OK;
}

/* the metadata names a setting only where given: freqs' table is the
 * same bytes without them as before they existed */
static int turns_given(const void *obj)
{
  return ((const rl_freqs_settings *)obj)->turns_within > 0;
}
static const rl_param p_turns = {
    .key = "turns-within", .kind = RL_PK_REAL, .meta_if = turns_given,
    .offset = offsetof(rl_freqs_settings, turns_within), .lo = 0, .hi = 4294967296.0,
    .dflt = 0, .dflt_text = "none", .metavar = "N", .unit = "tokens",
    .help = "also columns turns (N theta / (2 pi), the rotations within N positions) and "
            "turned (1 when at least one), their count in the metadata; unlike --train-len it "
            "does not change the schedule"};
static const char *const variant_names[] = {"none", "hf", "ggml", "vllm", NULL};
static int compare_given(const void *obj)
{
  return ((const rl_freqs_settings *)obj)->compare_variant != 0;
}
static const rl_param p_compare = {
    .key = "compare-variant", .kind = RL_PK_ENUM, .meta_if = compare_given,
    .offset = offsetof(rl_freqs_settings, compare_variant), .names = variant_names, .dflt = 0,
    .metavar = "V",
    .help = "also the same settings under variant V's formula (hf, ggml, vllm): column "
            "ratio_to_V = theta / theta_V, and the pairs that differ and the largest ratio in the "
            "metadata"};
static const rl_param *const list[] = {&p_turns, &p_compare, NULL};

const rl_param *const *rl_freqs_param_list(void) { return list; }
