/* report.h: the plan of `ropelab report`, one page on a model's RoPE:
 * how long the training length L and the configured context C are, at
 * which lengths every section is computed, and how the models and the
 * page's folder are named.  Issue 36: every number the page states is
 * computed by one of ropelab's commands for exactly the range it names;
 * the page only lays those tables out, so the ranges are fixed here,
 * once.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_REPORT_H
#define ROPELAB_REPORT_H

#include <stddef.h>
#include "model.h"
#include "param.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* report's own settings, declared once (param.h). */
typedef struct rl_report_settings {
  const char *compare;            /* a second config, side by side, or NULL */
  const char *layer_type;         /* --layer-type of CONFIG, or NULL */
  const char *compare_layer_type; /* of the second */
  size_t samples;                 /* extrapolate's content samples (32) */
  size_t bins;                    /* the decay figure's bins per octave of r (16) */
  int replace;                    /* replace another model's report in the folder */
} rl_report_settings;
const rl_param *const *rl_report_param_list(void); /* NULL-terminated */

#define RL_REPORT_LENS_MAX 64
#define RL_REPORT_NAME_MAX 256
/* the content samples of the entropy step at most: it runs out to 4C
 * (Llama 3.1: 524288 keys a sample), 32 samples cost 3 minutes of CPU
 * where 8 cost 45 s, and with every key equal to the query the entropy
 * varies little from one sample to the next */
#define RL_REPORT_ENTROPY_SAMPLES 8
/* The entropy step's content samples for settings s: s->samples, at most
 * RL_REPORT_ENTROPY_SAMPLES (the one rule the steps and the page quote). */
size_t rl_report_entropy_samples(const rl_report_settings *s);

/* One model of the page. */
typedef struct rl_report_model {
  char name[RL_REPORT_NAME_MAX]; /* what the page calls it (see rl_report_plan_make) */
  char slug[RL_REPORT_NAME_MAX]; /* the name as a file name: [A-Za-z0-9._-] */
  double L, C;       /* training length, configured context (whole numbers) */
  int L_given;       /* the config states a training length of its own (else L = C) */
  /* Men et al.'s test: L (when below C), C, 2C, 4C */
  double men_len[4];
  size_t n_men;
  /* the distances and positions the tables quote: L and C (C once when
   * L = C), ascending */
  double at[2];
  size_t n_at;
  double at_step; /* at[1] - at[0] (a grid through both), or 1 */
} rl_report_model;

typedef struct rl_report_plan {
  rl_report_model m[2];
  size_t n;
  /* extrapolate's lengths n, the same for every model of the page (so
   * two models are compared at common lengths, each C among them): for
   * each model L/4, L/2, L, 2L, ... up to C, and C, 2C, 4C; ascending,
   * each once */
  double lens[RL_REPORT_LENS_MAX];
  size_t n_lens;
  double eval_len; /* the longest */
  char folder[2 * RL_REPORT_NAME_MAX + 16]; /* report-NAME or report-NAME-vs-NAME2 */
} rl_report_plan;

/* The plan of a page on n (1 or 2) models read from paths (their
 * layer types in layer[k], or NULL).  A model is named by what its file
 * says (config.json's _name_or_path, GGUF's general.name), else by the
 * folder holding a file named config.json, else by the file's name
 * without its extension; with the layer type after it when given; two
 * models of one name are told apart by their folders, or else as
 * "(1)" and "(2)".  RL_EINVAL with err when a model states no context
 * length. */
rl_status rl_report_plan_make(const rl_model_rope *const *info, const char *const *paths,
                              const char *const *layer, size_t n, rl_report_plan *p, char *err,
                              size_t errsize);

#ifdef __cplusplus
}
#endif
#endif
