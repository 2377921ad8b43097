/* longrope.c: LongRoPE (Ding et al. 2024, "LongRoPE: Extending LLM
 * Context Window Beyond 2 Million Tokens"; Phi-3): per-pair rescale
 * factors found by search, one list for short and one for long contexts,
 *   theta_i = base^(-2i/r) / factor_i,
 * with the long list once the current length N exceeds the original L
 * (HF _compute_longrope_parameters: seq_len > original_max_position_
 * embeddings; vLLM Phi3LongRoPEScaledRotaryEmbedding switches on the
 * same condition), and the attention factor
 *   sqrt(1 + ln(s) / ln(L)), s = max_position_embeddings / L (1 if s <= 1).
 * The factors come from a CSV file with columns pair,short,long, or from
 * lists in memory (a model's config or GGUF, audit's fit). */
#include <stdio.h>
#include <string.h>
#include "schedule_impl.h"

/* Its own parameters' slots: the factors file, or the two lists in
 * memory (a model's config, audit's fit) */
enum { FILE_SLOT, SHORT_SLOT, LONG_SLOT };
/* The smallest factor taken: theta_i / factor_i stays within the schedule's
 * [0, 1] rad per position for every base (theta_0 = 1) only down to here,
 * and no published list comes near it. */
#define FACTOR_MIN 1e-6
#define FACTOR_EXPECT "a positive number >= 1e-6"

/* The attention factor sqrt(1 + ln(s) / ln(L)) (1 for s <= 1), or the
 * given one; the note says which list is in use. */
static void finish(rl_schedule *s, int use_long)
{
  const rl_schedule_params *p = &s->p;
  double sc = p->factor;
  s->attn = sc <= 1 ? 1.0 : (double)sqrtl(1 + logl((long double)sc) / logl((long double)p->train_len));
  if (p->set & RL_SP_ATTN)
    s->attn = p->attention_factor;
  if (use_long >= 0)
    snprintf(s->note, sizeof s->note, "%s factors (current length %.17g %s original %.17g)",
             use_long ? "long" : "short", p->seq_len, use_long ? ">" : "<=", p->train_len);
  else
    snprintf(s->note, sizeof s->note, "factors given in memory");
}

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  const char *file = p->own[FILE_SLOT].s;
  const double *sl = p->own[SHORT_SLOT].v, *ll = p->own[LONG_SLOT].v;
  static const char *const cols[] = {"pair", "short", "long"};
  rl_csv_table t;
  char msg[RL_ERR_MAX - 20];
  if (sl) { /* in memory: both lists (a model's config), or the list in use (audit's fit) */
    int use_long = ll ? p->seq_len > p->train_len : -1;
    const double *l = use_long > 0 ? ll : sl;
    if (rl_sched_want_band(s))
      return RL_ENOMEM;
    for (size_t i = 0; i < s->n; i++) {
      if (!(l[i] >= FACTOR_MIN)) {
        rl_sched_err(err, "invalid factor %g of pair %zu: expected " FACTOR_EXPECT, l[i], i);
        return RL_EINVAL;
      }
      if (ll)
        rl_sched_set(s, i, rl_sched_plain(s, (long double)p->base, i) / (rl_xr)l[i]);
      else
        s->theta[i] = (double)(rl_sched_plain(s, (long double)p->base, i) / (long double)l[i]);
      s->band[i] = l[i] == 1 ? RL_BAND_EXTRAPOLATED : RL_BAND_BETWEEN;
    }
    finish(s, use_long);
    return RL_OK;
  }
  if (!file) {
    rl_sched_err(err, "method 'longrope' needs --factors");
    return RL_EINVAL;
  }
  rl_status st = rl_csv_read(file, cols, 3, 0, NULL, &t, msg, sizeof msg);
  if (st) {
    rl_sched_err(err, "invalid --factors: %s", msg);
    return st;
  }
  if (t.rows != s->n) {
    rl_sched_err(err, "invalid --factors '%s': %zu rows, expected one per rotary pair (%zu)",
                 file, t.rows, s->n);
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
    if (row[0] != (double)i || !(f >= FACTOR_MIN) || !(row[1] >= FACTOR_MIN) ||
        !(row[2] >= FACTOR_MIN)) {
      rl_sched_err(err, "invalid --factors '%s': row %zu is pair %g with factors %g, %g: "
                        "expected pairs 0.. in order and factors >= 1e-6", file, i + 1,
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
  finish(s, use_long);
  return RL_OK;
}

/* The lists in memory are the caller's arrays (no option, no metadata
 * line: the metadata names their file) */
static rl_status list_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)obj;
  snprintf(err, n, "invalid --%s '%s': a list in memory, not an option", d->key, arg);
  return RL_EINVAL;
}

static int list_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const rl_sp_slot *v = (const rl_sp_slot *)(const void *)((const char *)obj + d->offset);
  return snprintf(buf, n, "%s", v->v ? "(in memory)" : "");
}

static void list_reset(const rl_param *d, void *obj)
{
  ((rl_sp_slot *)(void *)((char *)obj + d->offset))->v = NULL;
}

static const rl_param p_factors = {
    .key = "factors", .kind = RL_PK_TEXT,
    .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_BORROWED, .offset = RL_SP_OWN(FILE_SLOT),
    .metavar = "FILE", .help = "CSV pair,short,long, one row per pair"};
/* short-factors alone: the list in use whatever the length; with
 * long-factors: the short list, switched at L as the file's columns */
static const rl_param p_short = {
    .key = "short-factors", .kind = RL_PK_CUSTOM,
    .flags = RL_PF_NO_OPTION | RL_PF_NO_META | RL_PF_NO_SWEEP | RL_PF_BORROWED,
    .offset = RL_SP_OWN(SHORT_SLOT), .lo = FACTOR_MIN, .hi = INFINITY, .expect = FACTOR_EXPECT,
    .help = "the short factors, one per pair, in memory", .parse = list_parse,
    .format = list_format, .reset = list_reset};
static const rl_param p_long = {
    .key = "long-factors", .kind = RL_PK_CUSTOM,
    .flags = RL_PF_NO_OPTION | RL_PF_NO_META | RL_PF_NO_SWEEP | RL_PF_BORROWED,
    .offset = RL_SP_OWN(LONG_SLOT), .lo = FACTOR_MIN, .hi = INFINITY, .expect = FACTOR_EXPECT,
    .help = "the long factors, one per pair, in memory", .parse = list_parse,
    .format = list_format, .reset = list_reset};
static const rl_param *const params[] = {&p_factors, &p_short, &p_long, NULL};

/* ---- what model files call it (model/json.c, gguf.c) */

/* config.json, transformers _compute_longrope_parameters (at ef46806):
 * rope_type "longrope" (Phi-3's first configs: type "su"), short_factor
 * and long_factor required, then attention_factor if given; with a top-level
 * original_max_position_embeddings (Phi-3) L is that and s =
 * max_position_embeddings / L, else s is rope_scaling's factor and L
 * max_position_embeddings. */
static rl_status hf_read(rl_model_src *src)
{
  rl_model_rope *m = rl_model_src_rope(src);
  rl_status st;
  const char *kind = rl_model_src_kind(src);
  if (kind && !strcmp(kind, "su") &&
      (st = rl_model_src_note(src, "rope_scaling type 'su' is LongRoPE's former name (Phi-3's "
                                   "first configs)")))
    return st;
  size_t want = rl_model_src_rot(src) / 2;
  if ((st = rl_model_src_list(src, "short_factor", RL_MS_SCALING, &p_short, want,
                              &m->short_factor)) ||
      (st = rl_model_src_list(src, "long_factor", RL_MS_SCALING, &p_long, want,
                              &m->long_factor)))
    return st;
  m->n_factors = want;
  if ((st = rl_model_src_note(src, "LongRoPE's long list: transformers and vLLM switch to it when "
                                   "the current length exceeds the original; llama.cpp when the "
                                   "context it runs with does, for every position")) ||
      (st = rl_model_src_put_key(src, "attention-factor", "attention_factor", RL_MS_SCALING, 0)))
    return st;
  double orig, max_pos;
  if ((st = rl_model_src_count(src, "original_max_position_embeddings", RL_MS_TOP, &orig)) ||
      (st = rl_model_src_count(src, "max_position_embeddings", RL_MS_TOP, &max_pos)))
    return st;
  if (orig) { /* Phi-3: s = max_position_embeddings / original */
    if (!max_pos)
      return rl_model_src_missing(src, "max_position_embeddings", RL_MS_TOP,
                                  "the extended context length (longrope)");
    if ((st = rl_model_src_put_num(src, "factor", max_pos < orig ? 1 : max_pos / orig,
                                   "max_position_embeddings / original_max_position_embeddings")))
      return st;
    return rl_model_src_put_num(src, "train-len", orig, "original_max_position_embeddings");
  }
  if ((st = rl_model_src_put_key(src, "factor", "factor", RL_MS_SCALING, 1)))
    return st;
  if (!max_pos)
    return rl_model_src_missing(src, "max_position_embeddings", RL_MS_TOP,
                                "the context length (longrope reads it as L)");
  return rl_model_src_put_num(src, "train-len", max_pos, "max_position_embeddings");
}

static const char *const hf_names[] = {"longrope", "su", NULL};
static const rl_model_decl hf = {.names = hf_names, .read = hf_read};

/* GGUF (llama.cpp): the per-pair factors are tensors, rope_factors_long
 * and rope_factors_short (Phi-3's converter; llama.cpp switches on the
 * context it runs with), or rope_freqs (Llama 3 style factors baked in
 * at conversion, one list for every length); either makes the file this
 * method's, with rope.scaling.type longrope or none. */
static rl_status gguf_claims(rl_model_src *src, int *mine)
{
  rl_model_rope *m = rl_model_src_rope(src);
  int tf, tl, ts;
  rl_status st;
  *mine = 0;
  if ((st = rl_model_src_tensor(src, "rope_freqs", &tf)) ||
      (st = rl_model_src_tensor(src, "rope_factors_long", &tl)) ||
      (st = rl_model_src_tensor(src, "rope_factors_short", &ts)))
    return st;
  const rl_schedule_type *named = rl_model_src_named(src);
  if (named == &rl_sched_longrope && !tf && !tl && !ts)
    return rl_model_src_bad(src, "rope.scaling.type", RL_MS_SCALING,
                            "rope.scaling.type is longrope but the file has no "
                            "rope_factors_long/short tensors: expected both");
  if (tf && (tl || ts))
    return rl_model_src_tensor_bad(src, "rope_freqs", "both rope_freqs and "
                                   "rope_factors_long/short tensors: expected one kind of "
                                   "per-pair factors");
  if (!tl != !ts)
    return rl_model_src_tensor_bad(src, tl ? "rope_factors_long" : "rope_factors_short",
                                   "only one of rope_factors_long and rope_factors_short: "
                                   "expected both");
  size_t pairs = rl_model_src_rot(src) / 2;
  if (tl) {
    size_t nl, ns;
    if ((st = rl_model_src_tensor_read(src, "rope_factors_long", &p_long, pairs,
                                       &m->long_factor, &nl)) ||
        (st = rl_model_src_tensor_read(src, "rope_factors_short", &p_short, pairs,
                                       &m->short_factor, &ns)))
      return st;
    if (nl != ns)
      return rl_model_src_tensor_bad(src, "rope_factors_short", "rope_factors_short and "
                                     "rope_factors_long differ in length: expected one factor "
                                     "per rotary pair in each");
    m->n_factors = nl;
    if (named && named != &rl_sched_longrope && !(named->gguf->flags & RL_MN_UNSCALED))
      return rl_model_src_tensor_bad(src, "rope_factors_long", "LongRoPE factor tensors with "
                                     "rope.scaling.type '%s': expected longrope or no type",
                                     rl_model_src_kind(src));
    rl_model_src_method_source(src, "rope_factors_long/rope_factors_short tensors");
    *mine = 1;
    return RL_OK;
  }
  if (tf) {
    size_t nf;
    if ((st = rl_model_src_tensor_read(src, "rope_freqs", &p_long, pairs, &m->long_factor,
                                       &nf)))
      return st;
    if (!(m->short_factor = malloc(nf * sizeof *m->short_factor)))
      return RL_ENOMEM;
    memcpy(m->short_factor, m->long_factor, nf * sizeof *m->short_factor);
    m->n_factors = nf;
    rl_model_src_method_source(src, "rope_freqs tensor");
    if ((st = rl_model_src_note(src, "llama.cpp divides each pair's frequency by the rope_freqs "
                                     "tensor (Llama 3 style factors baked in at conversion); the "
                                     "llama3 parameters (factor, low/high_freq_factor, original "
                                     "length) are not in the file, so the schedule is read as "
                                     "per-pair factors (the same list short and long)")))
      return st;
    *mine = 1;
  }
  return RL_OK;
}

/* s: the context over the original length (llama.cpp's converter writes no
 * factor key for LongRoPE); with rope_freqs, 1 (the factors are the
 * scaling) */
static rl_status gguf_read(rl_model_src *src)
{
  rl_model_rope *m = rl_model_src_rope(src);
  int tl;
  rl_status st = rl_model_src_tensor(src, "rope_factors_long", &tl);
  if (st)
    return st;
  if (!m->short_factor) /* claims refused the type without tensors */
    return RL_EINVAL;
  if (!tl)
    return rl_model_src_put(src, "factor", "1", "rope_freqs tensor (factors per pair)");
  double ctx = 0, orig = 0;
  int fc, fo;
  if ((st = rl_model_src_number(src, "context_length", RL_MS_SCALING, &ctx, &fc)) ||
      (st = rl_model_src_number(src, "rope.scaling.original_context_length", RL_MS_SCALING,
                                &orig, &fo)))
    return st;
  if (fc && fo && ctx > 0 && orig > 0) {
    char src_text[400];
    snprintf(src_text, sizeof src_text, "%s / ", rl_model_src_name(src, "context_length",
                                                                  RL_MS_SCALING));
    size_t l = strlen(src_text);
    snprintf(src_text + l, sizeof src_text - l, "%s",
             rl_model_src_name(src, "rope.scaling.original_context_length", RL_MS_SCALING));
    return rl_model_src_put_num(src, "factor", ctx > orig ? ctx / orig : 1, src_text);
  }
  return RL_OK;
}

static const char *const gguf_names[] = {"longrope", NULL};
static const rl_model_decl gguf = {.names = gguf_names, .read = gguf_read,
                                   .claims = gguf_claims, .flags = RL_MN_OWN_FACTOR};

const rl_schedule_type rl_sched_longrope = {
    .name = "longrope", .summary = "per-pair searched factors, short and long lists, switched at L",
    .paper = "Ding et al. 2024, arXiv:2402.13753 (LongRoPE); Abdin et al. 2024 (Phi-3)",
    .code = "HF _compute_longrope_parameters; vLLM Phi3LongRoPEScaledRotaryEmbedding",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_SEQ_LEN | RL_SP_VARIANT | RL_SP_ATTN,
    .needs = RL_SP_FACTOR | RL_SP_TRAIN_LEN, .flags = RL_ST_USER_DATA, .init = init,
    .params = params, .hf = &hf, .gguf = &gguf};
