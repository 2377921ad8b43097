/* report.c: the plan of `ropelab report` (ropelab/report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

static const rl_param p_compare = {
    .key = "compare", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_META,
    .offset = offsetof(rl_report_settings, compare), .metavar = "CONFIG2",
    .dflt_text = "none",
    .help = "a second model's config.json or GGUF file, side by side at common lengths"};
static const rl_param p_layer = {
    .key = "layer-type", .kind = RL_PK_TEXT, .flags = RL_PF_NO_META,
    .offset = offsetof(rl_report_settings, layer_type), .metavar = "T",
    .help = "the attention layer type whose RoPE is read, for a model with one per layer "
            "type (Gemma 3: full_attention or sliding_attention); given to every command"};
static const rl_param p_clayer = {
    .key = "compare-layer-type", .kind = RL_PK_TEXT, .flags = RL_PF_NO_META,
    .offset = offsetof(rl_report_settings, compare_layer_type), .metavar = "T",
    .help = "the same for CONFIG2 (the same file with another layer type compares a "
            "model's two RoPEs)"};
static const rl_param p_samples = {
    .key = "samples", .kind = RL_PK_SIZE, .offset = offsetof(rl_report_settings, samples),
    .lo = 2, .hi = 100000, .dflt = 32, .metavar = "S",
    .help = "content samples of extrapolate's retrieval and entropy (entropy at most "
            "8: it runs out to 4C)"};
static const rl_param p_bins = {
    .key = "bins", .kind = RL_PK_SIZE, .offset = offsetof(rl_report_settings, bins), .lo = 1,
    .hi = 64, .dflt = 16, .metavar = "K",
    .help = "the decay figure's bins per octave of r: each bin's smallest and largest bound "
            "and B_r over every integer r in it"};
static const rl_param p_replace = {
    .key = "replace", .kind = RL_PK_FLAG, .offset = offsetof(rl_report_settings, replace),
    .set_to = 1,
    .help = "replace the report of another model in the folder (refused otherwise)"};
static const rl_param *const list[] = {&p_compare, &p_layer,   &p_clayer, &p_samples,
                                       &p_bins,    &p_replace, NULL};

const rl_param *const *rl_report_param_list(void) { return list; }

size_t rl_report_entropy_samples(const rl_report_settings *s)
{
  return s->samples < RL_REPORT_ENTROPY_SAMPLES ? s->samples : RL_REPORT_ENTROPY_SAMPLES;
}

/* the last component of path, without a trailing slash */
static void base_of(const char *path, char *buf, size_t n)
{
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/')
    len--;
  size_t b = len;
  while (b > 0 && path[b - 1] != '/')
    b--;
  snprintf(buf, n, "%.*s", (int)(len - b), path + b);
}

/* the folder holding path ("" for none) */
static void folder_of(const char *path, char *buf, size_t n)
{
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  char *s = strrchr(tmp, '/');
  if (!s) {
    buf[0] = 0;
    return;
  }
  *s = 0;
  base_of(tmp, buf, n);
  if (!strcmp(buf, ".") || !strcmp(buf, ".."))
    buf[0] = 0;
}

static void name_model(const rl_model_rope *info, const char *path, const char *layer,
                       char *name, size_t n)
{
  char b[RL_REPORT_NAME_MAX], f[RL_REPORT_NAME_MAX];
  base_of(path, b, sizeof b);
  folder_of(path, f, sizeof f);
  if (info->name)
    snprintf(name, n, "%s", info->name);
  else if (!strcmp(b, "config.json") && f[0])
    snprintf(name, n, "%s", f);
  else {
    char *dot = strrchr(b, '.');
    if (dot && dot != b)
      *dot = 0;
    snprintf(name, n, "%s", b);
  }
  if (layer) {
    size_t len = strlen(name);
    snprintf(name + len, n - len, " (%s)", layer);
  }
}

static void slug_of(const char *name, char *slug, size_t n)
{
  size_t k = 0;
  for (const char *c = name; *c && k + 1 < n; c++) {
    int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
             *c == '.' || *c == '_' || *c == '-';
    char ch = ok ? *c : '-';
    if (ch == '-' && (k == 0 || slug[k - 1] == '-'))
      continue;
    slug[k++] = ch;
  }
  while (k > 0 && slug[k - 1] == '-')
    k--;
  slug[k] = 0;
  if (!k || !strcmp(slug, ".") || !strcmp(slug, ".."))
    snprintf(slug, n, "model");
}

static void add_len(rl_report_plan *p, double v)
{
  if (!(v >= 1) || v != floor(v))
    return;
  for (size_t i = 0; i < p->n_lens; i++)
    if (p->lens[i] == v)
      return;
  if (p->n_lens < RL_REPORT_LENS_MAX)
    p->lens[p->n_lens++] = v;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static rl_status plan_model(const rl_model_rope *info, const char *path, rl_report_model *m,
                            char *err, size_t en)
{
  const char *tl = rl_model_rope_get(info, "train-len");
  double L = tl ? strtod(tl, NULL) : 0, C = info->context_len;
  m->L_given = L > 0;
  if (!(C > 0))
    C = L;
  if (!(L > 0))
    L = C;
  if (!(L > 0) || !(C > 0))
    return rl_errf(RL_EINVAL, err, en,
                   "config '%s' states no context length: expected max_position_embeddings "
                   "(or <arch>.context_length, or rope_scaling.original_max_position_embeddings)",
                   path);
  m->L = floor(L), m->C = floor(C);
  m->n_men = 0;
  if (m->L < m->C)
    m->men_len[m->n_men++] = m->L;
  m->men_len[m->n_men++] = m->C;
  m->men_len[m->n_men++] = 2 * m->C;
  m->men_len[m->n_men++] = 4 * m->C;
  m->n_at = 0;
  m->at[m->n_at++] = fmin(m->L, m->C);
  if (m->L != m->C)
    m->at[m->n_at++] = fmax(m->L, m->C);
  m->at_step = m->n_at == 2 ? m->at[1] - m->at[0] : 1;
  return RL_OK;
}

rl_status rl_report_plan_make(const rl_model_rope *const *info, const char *const *paths,
                              const char *const *layer, size_t n, rl_report_plan *p, char *err,
                              size_t en)
{
  memset(p, 0, sizeof *p);
  if (n < 1 || n > 2)
    return rl_errf(RL_EINVAL, err, en, "a report is on one or two models, not %zu", n);
  p->n = n;
  for (size_t k = 0; k < n; k++) {
    rl_report_model *m = &p->m[k];
    rl_status st = plan_model(info[k], paths[k], m, err, en);
    if (st)
      return st;
    name_model(info[k], paths[k], layer ? layer[k] : NULL, m->name, sizeof m->name);
    /* L/4, L/2, L, 2L, ... up to C, then C, 2C, 4C */
    for (double v = m->L / 4; v <= m->C; v *= 2)
      add_len(p, v);
    add_len(p, m->C), add_len(p, 2 * m->C), add_len(p, 4 * m->C);
  }
  if (n == 2 && !strcmp(p->m[0].name, p->m[1].name)) {
    /* two files of one name: by their folders, else by their order */
    char f[2][RL_REPORT_NAME_MAX];
    folder_of(paths[0], f[0], sizeof f[0]);
    folder_of(paths[1], f[1], sizeof f[1]);
    int by_folder = f[0][0] && f[1][0] && strcmp(f[0], f[1]);
    for (size_t k = 0; k < 2; k++) {
      size_t len = strlen(p->m[k].name);
      if (by_folder)
        snprintf(p->m[k].name + len, sizeof p->m[k].name - len, " (%s)", f[k]);
      else
        snprintf(p->m[k].name + len, sizeof p->m[k].name - len, " (%zu)", k + 1);
    }
  }
  for (size_t k = 0; k < n; k++)
    slug_of(p->m[k].name, p->m[k].slug, sizeof p->m[k].slug);
  qsort(p->lens, p->n_lens, sizeof *p->lens, cmp_double);
  p->eval_len = p->n_lens ? p->lens[p->n_lens - 1] : 1;
  if (n == 1)
    snprintf(p->folder, sizeof p->folder, "report-%.100s", p->m[0].slug);
  else
    snprintf(p->folder, sizeof p->folder, "report-%.100s-vs-%.100s", p->m[0].slug, p->m[1].slug);
  return RL_OK;
}
