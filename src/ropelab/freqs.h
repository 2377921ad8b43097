/* freqs.h: the per-pair table of a frequency schedule (`ropelab freqs`):
 * turns within a length, and a schedule against another variant's.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_FREQS_H
#define ROPELAB_FREQS_H

#include <stddef.h>
#include "param.h"
#include "schedule.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* freqs' own settings, declared once (param.h). */
typedef struct rl_freqs_settings {
  /* N > 0: columns turns = N theta_i / (2 pi), the rotations of pair i
   * within N positions, and turned = 1 where turns >= 1; with their
   * count in the metadata (0: none).  Apart from --train-len, which is
   * the method's L and changes the schedule of some methods. */
  double turns_within;
  /* 1 + a variant (hf, ggml, vllm): the same settings under that
   * variant's formula, pair by pair: column ratio_to_V = theta / theta_V,
   * and how many pairs differ and the largest ratio in the metadata
   * (0: none) */
  int compare_variant;
} rl_freqs_settings;
const rl_param *const *rl_freqs_param_list(void); /* NULL-terminated */

/* n theta_i / (2 pi), in long double: one rounding of the product. */
double rl_schedule_turns(const rl_schedule *s, size_t i, double n);
/* The pairs of s that turn at least once within n positions. */
size_t rl_schedule_turned(const rl_schedule *s, double n);

/* s against t (the same number of pairs): the pairs whose theta differs
 * (any bit), and the ratio theta_s / theta_t farthest from 1 with its
 * pair (ratio 1, pair 0 when none differs; inf where t's theta is 0 and
 * s's is not). */
typedef struct rl_schedule_diff {
  size_t differing, pair;
  double ratio;
} rl_schedule_diff;
rl_status rl_schedule_compare(const rl_schedule *s, const rl_schedule *t, rl_schedule_diff *d);
/* theta_s / theta_t of pair i (1 where both are 0). */
double rl_schedule_pair_ratio(const rl_schedule *s, const rl_schedule *t, size_t i);

#ifdef __cplusplus
}
#endif
#endif
