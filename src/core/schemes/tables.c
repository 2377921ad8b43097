/* tables.c: what `ropelab params` lists of a scheme (ropelab/scheme.h):
 * its settings declared once, the defaults that depend on the scheme,
 * the checks of the range, and the two descriptions its rows need
 * (alibi's slope rule, DeBERTa's table row). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "ropelab.h"
#include "../base/internal.h"

static const char *const what_names[] = {"slopes", "buckets", "table", "freqs", "relemb", NULL};
static const char *const *what_list(void) { return what_names; }

static rl_status what_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  int k;
  rl_status st = rl_param_enum_index(d, arg, &k, err, n);
  if (!st)
    ((rl_params_settings *)obj)->what = RL_PARAMS_SLOPES + k;
  return st;
}
static int what_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  int w = ((const rl_params_settings *)obj)->what;
  return snprintf(buf, n, "%s", w >= RL_PARAMS_SLOPES && w <= RL_PARAMS_RELEMB
                                    ? what_names[w - RL_PARAMS_SLOPES] : "");
}
static void what_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_params_settings *)obj)->what = RL_PARAMS_DEFAULT;
}

/* an integer distance, read as a number (1e3 is 1000) */
static rl_status dist_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  double x;
  rl_status st = rl_param_number(arg, &x);
  if (st == RL_EOVERFLOW)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected a finite number", d->key, arg);
  if (st == RL_ERANGE)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': out of the range of a double", d->key,
                   arg);
  if (st)
    return rl_errf(RL_EINVAL, err, n, "invalid --%s '%s': expected a number", d->key, arg);
  if (x != floor(x) || fabs(x) > 1e15)
    return RL_EINVAL; /* the declaration's expect */
  *(long *)((char *)obj + d->offset) = (long)x;
  return RL_OK;
}
static int dist_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  return snprintf(buf, n, "%ld", *(const long *)((const char *)obj + d->offset));
}
static void dist_reset(const rl_param *d, void *obj)
{
  *(long *)((char *)obj + d->offset) = 0;
}

static const rl_param p_what = {
    .key = "what", .kind = RL_PK_CUSTOM, .flags = RL_PF_NAMES | RL_PF_NO_SWEEP,
    .offset = offsetof(rl_params_settings, what), .names_fn = what_list, .metavar = "W",
    .parse = what_parse, .format = what_format, .reset = what_reset,
    .dflt_text = "the first the scheme has",
    .help = "what to list: slopes, buckets, table, freqs or relemb (see above)"};
static const rl_param p_from = {
    .key = "from", .kind = RL_PK_CUSTOM, .flags = RL_PF_NUMBERS | RL_PF_NO_META,
    .bit = RL_PARAMS_SET_FROM, .offset = offsetof(rl_params_settings, from), .metavar = "A",
    .parse = dist_parse, .format = dist_format, .reset = dist_reset,
    .expect = "an integer of magnitude <= 1e15",
    .dflt_text = "-2 --max-distance for t5, -2 --max-relative-positions for deberta, -16 for "
                 "relemb, 0 for tupe",
    .help = "first distance for buckets and relemb (tupe: first position)"};
static const rl_param p_to = {
    .key = "to", .kind = RL_PK_CUSTOM, .flags = RL_PF_NUMBERS | RL_PF_NO_META,
    .bit = RL_PARAMS_SET_TO, .offset = offsetof(rl_params_settings, to), .metavar = "B",
    .parse = dist_parse, .format = dist_format, .reset = dist_reset,
    .expect = "an integer of magnitude <= 1e15",
    .dflt_text = "minus --from for t5 and deberta, 16 for relemb and tupe",
    .help = "last distance for buckets and relemb (tupe: last position)"};
static const rl_param *const list[] = {&p_what, &p_from, &p_to, NULL};

const rl_param *const *rl_params_param_list(void) { return list; }

/* the default range and its checks where what lists positions or
 * distances one by one */
static rl_status plan_range(const rl_scheme_info *si, const rl_scheme_cfg *cfg,
                            rl_params_settings *s, char *err, size_t n, char *note, size_t nn)
{
  int is_t5 = si->buckets == RL_BUCKETS_T5, is_tupe = si->buckets == RL_BUCKETS_TUPE;
  long from = s->from, to = s->to;
  int from_set = (s->set & RL_PARAMS_SET_FROM) != 0, to_set = (s->set & RL_PARAMS_SET_TO) != 0;
  if (s->what == RL_PARAMS_RELEMB || (s->what == RL_PARAMS_BUCKETS && is_tupe)) {
    if (!from_set)
      from = is_tupe ? 0 : -16;
    if (!to_set)
      to = 16;
    if (to < from || (is_tupe && from < 0))
      return rl_errf(RL_EINVAL, err, n, "invalid range: --from '%ld' --to '%ld': expected %sfrom "
                     "<= to", from, to, is_tupe ? "0 <= " : "");
    if ((double)to - (double)from > (is_tupe ? 4096 : 1e6))
      return rl_errf(RL_EINVAL, err, n, "invalid range: more than %s positions from '%ld' to "
                     "'%ld'", is_tupe ? "4096" : "1e6", from, to);
  } else if (s->what == RL_PARAMS_BUCKETS) {
    long span = is_t5 ? (long)cfg->max_distance : (long)cfg->max_relative_positions;
    if (!from_set)
      from = -2 * span;
    if (!to_set)
      to = from < 0 ? -from : from;
    if (to < from)
      return rl_errf(RL_EINVAL, err, n, "invalid range: --to '%ld' is below --from '%ld'", to,
                     from);
    if ((double)to - (double)from > 1e8)
      return rl_errf(RL_EINVAL, err, n, "invalid range: more than 1e8 distances from '%ld' to "
                     "'%ld'", from, to);
    /* T5's causal rule (_relative_position_bucket: relative_position =
     * -min(relative_position, 0)) gives every key after the query bucket
     * 0: a range of only those is all zeros, easily read as query - key */
    if (note && is_t5 && !cfg->bidirectional && from >= 0 && to > 0)
      snprintf(note, nn, "t5 distances are key - query; with --causal, %ld..%ld are keys after "
               "the query (masked in a decoder, all bucket 0); the keys before it are --from %ld "
               "--to %ld", from > 1 ? from : 1, to, -to, from > 0 ? -from : 0L);
  }
  s->from = from, s->to = to;
  return RL_OK;
}

rl_status rl_params_plan(const rl_scheme_info *si, const rl_scheme_cfg *cfg, rl_params_settings *s,
                         char *err, size_t n, char *note, size_t nn)
{
  if (note && nn)
    note[0] = 0;
  const char *name = si->name;
  int w = s->what;
  if (w == RL_PARAMS_DEFAULT)
    w = (si->has & RL_HAS_SLOPES) ? RL_PARAMS_SLOPES
        : (si->has & RL_HAS_BUCKETS) ? RL_PARAMS_BUCKETS
        : (si->has & RL_HAS_FREQS) ? RL_PARAMS_FREQS : RL_PARAMS_TABLE;
  s->what = w;
  if (w == RL_PARAMS_SLOPES && !(si->has & RL_HAS_SLOPES))
    return rl_errf(RL_EINVAL, err, n, "invalid --what 'slopes': only scheme 'alibi' has slopes, "
                   "not '%s'", name);
  if (w == RL_PARAMS_BUCKETS && si->buckets != RL_BUCKETS_T5 &&
      si->buckets != RL_BUCKETS_DEBERTA && !(si->buckets == RL_BUCKETS_TUPE && cfg->tupe_rel))
    return rl_errf(RL_EINVAL, err, n, "invalid --what 'buckets': only schemes 't5', 'deberta' "
                   "and 'tupe' (with its T5 bias) bucket distances, not '%s'", name);
  if (w == RL_PARAMS_RELEMB && !(si->has & RL_HAS_RELEMB))
    return rl_errf(RL_EINVAL, err, n, "invalid --what 'relemb': only scheme 'xl' has a relative "
                   "embedding, not '%s'", name);
  if (w == RL_PARAMS_FREQS && !(si->has & RL_HAS_FREQS))
    return rl_errf(RL_EINVAL, err, n, "invalid --what 'freqs': scheme '%s' has no sinusoids "
                   "(sinusoidal, xl, rope, rope2d do)", name);
  if ((s->set & (RL_PARAMS_SET_FROM | RL_PARAMS_SET_TO)) && w != RL_PARAMS_BUCKETS &&
      w != RL_PARAMS_RELEMB)
    return rl_errf(RL_EINVAL, err, n, "--from and --to need --what buckets or relemb");
  return plan_range(si, cfg, s, err, n, note, nn);
}

void rl_alibi_slopes_rule(size_t heads, int from_file, char *buf, size_t n)
{
  char odd[64];
  size_t pw = 1, H = heads; /* the largest power of two <= H, as get_slopes takes it */
  while (pw * 2 <= H)
    pw *= 2;
  size_t rest = H - pw; /* heads taking every other slope of 2 pw heads */
  if (rest <= 3) {
    size_t at = 0;
    odd[0] = 0;
    for (size_t t = 0; t < rest; t++)
      at += (size_t)snprintf(odd + at, sizeof odd - at, "%s%zu", t ? ", " : "", 2 * t + 1);
  } else {
    snprintf(odd, sizeof odd, "1, 3, .., %zu", 2 * rest - 1);
  }
  if (from_file)
    snprintf(buf, n, "from --params");
  else if (!rest)
    snprintf(buf, n, "2^(-8h/H), h = 1..H (Press et al. 2022 sec. 3; get_slopes)");
  else
    snprintf(buf, n,
             "H = %zu is not a power of two: heads 0..%zu 2^(-8h/%zu), h = 1..%zu (the largest "
             "power of two below H), then heads %zu..%zu 2^(-8h/%zu), h = %s (every other slope "
             "of %zu heads; Press et al. 2022 sec. 3; get_slopes)",
             H, pw - 1, pw, pw, pw, H - 1, 2 * pw, odd, 2 * pw);
}

double rl_deberta_row(const rl_scheme_cfg *cfg, long bucket)
{
  size_t k = cfg->position_buckets ? cfg->position_buckets : cfg->max_relative_positions;
  double row = (double)bucket + (double)k;
  if (row < 0)
    row = 0;
  if (row > 2.0 * (double)k - 1)
    row = 2.0 * (double)k - 1;
  return row;
}
