/* bound_params.c: the settings of `ropelab bound` besides the schedule
 * and the lengths, declared once (rl_bound_param_list): the CLI builds
 * their options, parsing, messages, help rows and metadata from here.
 * Each names the bound that takes it (rl_param.only); another bound
 * refuses it. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "ropelab.h"

#define BS_FIELD(f) offsetof(rl_bound_settings, f)

static const char *const search_names[] = {"staged", "fine", NULL};

/* RL_MEN_STAGED = 0, RL_MEN_FINE = 1: the names' order */
static const rl_param p_search = {
    .key = "search", .kind = RL_PK_ENUM, .offset = BS_FIELD(search), .bit = RL_BS_SEARCH,
    .names = search_names, .dflt = RL_MEN_STAGED, .metavar = "S", .only = "men",
    .help = "staged (Su's decimal grid) or fine: from the grid point below the staged base, "
            "up a geometric grid of ratio 1 + tolerance, the first feasible point (it refines "
            "the staged base; it does not look below that point)"};
/* RL_MEN_TOLERANCE_MIN: bounds.h says why 2^-45 */
static const rl_param p_tolerance = {
    .key = "tolerance", .kind = RL_PK_REAL, .offset = BS_FIELD(tolerance), .bit = RL_BS_SEARCH,
    .lo = RL_MEN_TOLERANCE_MIN, .hi = 0.01, .dflt = 1e-8, .metavar = "T", .only = "men",
    .expect = "a number from 2^-45 = 2.842170943040401e-14 (the smallest relative step double "
              "precision resolves) to 0.01",
    .help = "fine: relative step; about 10^(1-K)/T bases per length for K stages"};
/* Su's k = 1..5 (kexue.fm/archives/10122) */
static const rl_param p_stages = {
    .key = "stages", .kind = RL_PK_SIZE, .offset = BS_FIELD(stages), .bit = RL_BS_SEARCH,
    .lo = 1, .hi = 9, .dflt = 5, .metavar = "K", .only = "men", .help = "decimal stages"};
/* Su's B = 1000 L, feasible for L up to 1e6 */
static const rl_param p_start = {
    .key = "start-factor", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = BS_FIELD(start_factor), .bit = RL_BS_SEARCH, .lo = 0, .hi = INFINITY,
    .dflt = 1000, .metavar = "F", .only = "men",
    .help = "the search starts at F L, which must be feasible"};
static const rl_param p_fit = {
    .key = "fit", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = BS_FIELD(fit),
    .bit = RL_BS_FIT, .set_to = 1, .only = "men",
    .help = "fit base = a len^k in log-log over the lengths, as the paper's Figure 1 (y = "
            "0.0424 x^1.628, x in tokens): a, k and a for x in units of 1024 tokens in the "
            "metadata, column fit_base"};
static const rl_param p_largest = {
    .key = "largest-len", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = BS_FIELD(largest_len), .bit = RL_BS_LARGEST, .set_to = 1, .only = "men",
    .help = "with --base: the largest L for which B is enough (the first r with B_r < 0, "
            "searched up to 2^31)"};
/* 0: as many as the machine has online (the CLI asks) */
static const rl_param p_threads = {
    .key = "threads", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META | RL_PF_NO_SWEEP,
    .offset = BS_FIELD(threads),
    .lo = 1, .hi = RL_BOUND_THREADS_MAX, .dflt = 0, .dflt_text = "online cores", .metavar = "N",
    .only = "men", .help = "threads over the lengths"};
/* 0: each --len (Liu et al.'s T_tune = T_train) */
static const rl_param p_tune_len = {
    .key = "tune-len", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN | RL_PF_META_NONZERO,
    .offset = BS_FIELD(tune_len), .lo = 0, .hi = INFINITY, .dflt = 0, .dflt_text = "each --len",
    .metavar = "T", .symbol = "T_tune", .unit = "tokens", .only = "liu",
    .expect = "a length > 0", .help = "fine-tuning length, at least every --len"};
/* 0: --base (no change of base in fine-tuning) */
static const rl_param p_tune_base = {
    .key = "tune-base", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN | RL_PF_META_NONZERO,
    .offset = BS_FIELD(tune_base), .lo = 1, .hi = INFINITY, .dflt = 0, .dflt_text = "--base",
    .metavar = "B", .only = "liu", .help = "fine-tuning base"};

static const rl_param *const bound_params[] = {
    &p_search, &p_tolerance, &p_stages, &p_start, &p_fit, &p_largest, &p_threads,
    &p_tune_len, &p_tune_base, NULL};

const rl_param *const *rl_bound_param_list(void) { return bound_params; }

/* --len: the text as given (its list or range is read where the bound
 * is computed, with its own limits) */
static rl_status len_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)d, (void)err, (void)n;
  ((rl_bound_settings *)obj)->len = arg;
  return RL_OK;
}
static int len_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const char *len = ((const rl_bound_settings *)obj)->len;
  (void)d;
  return snprintf(buf, n, "%s", len ? len : "");
}
static void len_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_bound_settings *)obj)->len = NULL;
}
static const rl_param p_len = {
    .key = "len", .kind = RL_PK_CUSTOM,
    .flags = RL_PF_NO_SWEEP | RL_PF_NO_META | RL_PF_BORROWED, .offset = BS_FIELD(len),
    .metavar = "L", .symbol = "L", .unit = "tokens", .parse = len_parse, .format = len_format,
    .reset = len_reset, .help = "the lengths, a list or range"};
static const rl_param *const len_params[] = {&p_len, NULL};

const rl_param *const *rl_bound_len_param_list(void) { return len_params; }

static const char *const bound_names[] = {"men", "liu", "pi", "yarn", NULL};

const char *const *rl_bound_names(void) { return bound_names; }

void rl_bound_plan(rl_bound_settings *s, rl_bound_kind kind)
{
  if (!s->len)
    s->len = kind == RL_BOUND_MEN ? RL_MEN_LEN_DEFAULT : RL_BOUND_LEN_DEFAULT;
}

void rl_bound_settings_to_men(const rl_bound_settings *s, rl_men_params *p)
{
  p->search = s->search ? RL_MEN_FINE : RL_MEN_STAGED;
  p->stages = (int)s->stages;
  p->start_factor = s->start_factor;
  p->tolerance = s->tolerance;
}
