/* longrope.c: LongRoPE (Ding et al. 2024, "LongRoPE: Extending LLM
 * Context Window Beyond 2 Million Tokens"; Phi-3): per-pair rescale
 * factors found by search, one list for short and one for long contexts,
 *   theta_i = base^(-2i/r) / factor_i,
 * with the long list once the current length N exceeds the original L
 * (HF _compute_longrope_parameters: seq_len > original_max_position_
 * embeddings; vLLM Phi3LongRoPEScaledRotaryEmbedding switches on the
 * same condition), and the attention factor
 *   sqrt(1 + ln(s) / ln(L)), s = max_position_embeddings / L (1 if s <= 1).
 * The factors come from a CSV file with columns pair,short,long. */
#include <stdio.h>
#include "../io/csv.h"
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  static const char *const cols[] = {"pair", "short", "long"};
  rl_csv_table t;
  char msg[RL_ERR_MAX - 20];
  if (p->factors && p->factors_long) { /* in memory, both lists (a model's config) */
    int use_long = p->seq_len > p->train_len;
    const double *l = use_long ? p->factors_long : p->factors;
    if (rl_sched_want_band(s))
      return RL_ENOMEM;
    for (size_t i = 0; i < s->n; i++) {
      if (!(l[i] >= 1e-6)) {
        rl_sched_err(err, "invalid factor %g of pair %zu: expected factors > 0", l[i], i);
        return RL_EINVAL;
      }
      rl_sched_set(s, i, rl_sched_plain(s, (long double)p->base, i) / (rl_xr)l[i]);
      s->band[i] = l[i] == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
    }
    s->attn = p->factor <= 1 ? 1.0
                             : (double)sqrtl(1 + logl((long double)p->factor) /
                                                     logl((long double)p->train_len));
    if (p->set & RL_SP_ATTN)
      s->attn = p->attention_factor;
    snprintf(s->note, sizeof s->note, "%s factors (current length %.17g %s original %.17g)",
             use_long ? "long" : "short", p->seq_len, use_long ? ">" : "<=", p->train_len);
    return RL_OK;
  }
  if (p->factors) { /* in memory (audit's fitted factors): the list in use */
    if (rl_sched_want_band(s))
      return RL_ENOMEM;
    for (size_t i = 0; i < s->n; i++) {
      if (!(p->factors[i] >= 1e-6)) {
        rl_sched_err(err, "invalid factor %g of pair %zu: expected factors > 0", p->factors[i], i);
        return RL_EINVAL;
      }
      s->theta[i] = (double)(rl_sched_plain(s, (long double)p->base, i) / (long double)p->factors[i]);
      s->band[i] = p->factors[i] == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
    }
    s->attn = p->factor <= 1 ? 1.0
                             : (double)sqrtl(1 + logl((long double)p->factor) /
                                                     logl((long double)p->train_len));
    if (p->set & RL_SP_ATTN)
      s->attn = p->attention_factor;
    snprintf(s->note, sizeof s->note, "factors given in memory");
    return RL_OK;
  }
  rl_status st = rl_csv_read(p->factors_file, cols, 3, 0, NULL, &t, msg, sizeof msg);
  if (st) {
    rl_sched_err(err, "invalid --factors: %s", msg);
    return st;
  }
  if (t.rows != s->n) {
    rl_sched_err(err, "invalid --factors '%s': %zu rows, expected one per rotary pair (%zu)",
                 p->factors_file, t.rows, s->n);
    rl_csv_free(&t);
    return RL_EFORMAT;
  }
  int use_long = p->seq_len > p->train_len;
  if (rl_sched_want_band(s)) {
    rl_csv_free(&t);
    return RL_ENOMEM;
  }
  for (size_t i = 0; i < s->n && !st; i++) {
    const double *row = t.data + 3 * i;
    double f = row[use_long ? 2 : 1];
    if (row[0] != (double)i || !(f >= 1e-6) || !(row[1] >= 1e-6) || !(row[2] >= 1e-6)) {
      rl_sched_err(err, "invalid --factors '%s': row %zu is pair %g with factors %g, %g: "
                        "expected pairs 0.. in order and factors > 0", p->factors_file, i + 1,
                   row[0], row[1], row[2]);
      st = RL_EFORMAT;
      break;
    }
    rl_sched_set(s, i, rl_sched_plain(s, (long double)p->base, i) / (rl_xr)f);
    s->band[i] = f == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
  }
  rl_csv_free(&t);
  if (st)
    return st;
  double sc = p->factor;
  s->attn = sc <= 1 ? 1.0 : (double)sqrtl(1 + logl((long double)sc) / logl((long double)p->train_len));
  if (p->set & RL_SP_ATTN)
    s->attn = p->attention_factor;
  snprintf(s->note, sizeof s->note, "%s factors (current length %.17g %s original %.17g)",
           use_long ? "long" : "short", p->seq_len, use_long ? ">" : "<=", p->train_len);
  return RL_OK;
}

static const rl_param p_factors = {
    .key = "factors", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_SWEEP,
    .bit = RL_SP_FACTORS, .offset = RL_SP_FIELD(factors_file), .metavar = "FILE",
    .help = "CSV pair,short,long, one row per pair"};
static const rl_param *const params[] = {&p_factors, NULL};

const rl_schedule_type rl_sched_longrope = {
    "longrope", "per-pair searched factors, short and long lists, switched at L",
    "Ding et al. 2024, arXiv:2402.13753 (LongRoPE); Abdin et al. 2024 (Phi-3)",
    "HF _compute_longrope_parameters; vLLM Phi3LongRoPEScaledRotaryEmbedding",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_SEQ_LEN | RL_SP_FACTORS | RL_SP_VARIANT | RL_SP_ATTN,
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_FACTORS, 0, init, NULL, NULL, params, RL_FORM_RATIO};
