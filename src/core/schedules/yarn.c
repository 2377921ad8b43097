/* yarn.c: YaRN (Peng et al. 2023, "YaRN: Efficient Context Window
 * Extension of Large Language Models"): NTK-by-parts interpolation with
 * an attention temperature.
 *
 * The code's ramp (HF _compute_yarn_parameters, vLLM
 * YaRNScalingRotaryEmbedding, ggml rope_yarn): the correction dimension
 * of a pair that turns b times within L,
 *   cd(b) = r ln(L / (2 pi b)) / (2 ln base),
 * gives low = cd(beta_fast), high = cd(beta_slow), rounded outward
 * (floor, ceil) when truncating and clamped to [0, r - 1]; pair i has
 *   gamma_i = clamp((i - low) / (high - low), 0, 1)
 *   theta_i = theta_i^plain ((1 - gamma_i) + gamma_i / s):
 * pairs below low keep their frequency (extrapolated), pairs above high
 * are fully interpolated.  Where low == high, HF and vLLM add 0.001 to
 * high; ggml divides by max(0.001, high - low) (rope_yarn_ramp).
 * The paper's ramp (sec. 3.2, eq. 18-20) is linear in r_i = L / lambda_i,
 * not in the pair index: gamma(r) = clamp((r - alpha) / (beta - alpha),
 * 0, 1) with alpha = beta_slow, beta = beta_fast, and
 *   theta_i = theta_i^plain (gamma + (1 - gamma) / s).
 * Attention factor (sec. 3.4): sqrt(1/t) = 0.1 ln s + 1; with DeepSeek's
 * mscale and mscale_all_dim, get_mscale(s, mscale) / get_mscale(s,
 * mscale_all_dim) (HF; vLLM DeepseekScalingRotaryEmbedding). */
#include <stdio.h>
#include <string.h>
#include "schedule_impl.h"

/* YaRN's own parameters, in the slots its declarations below name */
enum { BETA_FAST, BETA_SLOW, RAMP, TRUNCATE, MSCALE, MSCALE_ALL_DIM };
static const rl_param p_mscale, p_mscale_all_dim;
#define OWN(p, k) ((p)->own[k])

/* --mscale or --mscale-all-dim given (they act together) */
static int mscale_given(const void *obj)
{
  const rl_schedule_params *p = obj;
  return rl_schedule_param_given(p, &p_mscale) || rl_schedule_param_given(p, &p_mscale_all_dim);
}

static rl_xr corr_dim_of(size_t rot, double train_len, double base, double b)
{
  rl_xr r = (rl_xr)rot;
  return r * rl_xlog((rl_xr)train_len / (2 * RL_PI_X * (rl_xr)b)) / (2 * rl_xlog((rl_xr)base));
}

static rl_xr corr_dim(const rl_schedule *s, double b)
{
  return corr_dim_of(s->rot, s->p.train_len, s->p.base, b);
}

/* The rounding and clamping init applies, for `ropelab bound yarn`. */
static void corr_range(size_t rot, int truncate, rl_xr *low, rl_xr *high)
{
  if (truncate) {
    *low = rl_xfloor(*low);
    *high = rl_xceil(*high);
  }
  if (*low < 0)
    *low = 0;
  if (*high > (rl_xr)(rot - 1))
    *high = (rl_xr)(rot - 1);
}

rl_status rl_yarn_correction_range(size_t rot, double base, double train_len,
                                   double beta_fast, double beta_slow, int truncate,
                                   double *low_exact, double *high_exact, double *low,
                                   double *high)
{
  if (rot < 2 || rot % 2 || !isfinite(base) || !(base > 1) || !isfinite(train_len) ||
      !(train_len > 0) || !isfinite(beta_fast) || !(beta_fast > beta_slow) || !(beta_slow > 0))
    return RL_EINVAL;
  rl_xr lo = corr_dim_of(rot, train_len, base, beta_fast);
  rl_xr hi = corr_dim_of(rot, train_len, base, beta_slow);
  *low_exact = (double)lo;
  *high_exact = (double)hi;
  corr_range(rot, truncate, &lo, &hi);
  *low = (double)lo;
  *high = (double)hi;
  return RL_OK;
}

rl_status rl_yarn_bound_params(rl_schedule_params *p, char *err)
{
  rl_schedule_params dflt;
  rl_schedule_params_default(&dflt);
  if (p->method != &rl_sched_yarn && p->method != dflt.method) {
    rl_sched_err(err, "invalid --method '%s': the yarn bound is yarn's own", p->method->name);
    return RL_EINVAL;
  }
  p->method = &rl_sched_yarn;
  return p->set & RL_SP_FACTOR ? RL_OK : rl_schedule_set(p, "factor", 1);
}

double rl_yarn_attention_factor(double factor)
{
  return rl_sched_yarn_mscale(factor, 1.0);
}

static rl_status check(const rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  double bf = OWN(p, BETA_FAST).x, bs = OWN(p, BETA_SLOW).x;
  double ms = OWN(p, MSCALE).x, mad = OWN(p, MSCALE_ALL_DIM).x;
  if (!(bf > bs) || !(bs > 0) || !isfinite(bf)) {
    rl_sched_err(err, "invalid --beta-fast '%g' / --beta-slow '%g': expected beta-fast > "
                      "beta-slow > 0", bf, bs);
    return RL_EINVAL;
  }
  if (p->variant != RL_VARIANT_HF && !OWN(p, TRUNCATE).i) {
    rl_sched_err(err, "invalid --truncate 'no' with --variant %s: it always rounds the "
                      "correction range (hf only)", rl_variant_name(p->variant));
    return RL_EINVAL;
  }
  if (p->variant == RL_VARIANT_GGML && mscale_given(p)) {
    rl_sched_err(err, "--mscale does not apply to method 'yarn' with --variant ggml (ggml takes "
                      "one attention factor: use --attention-factor)");
    return RL_EINVAL;
  }
  if (mscale_given(p) && (!isfinite(ms) || ms < 0 || !isfinite(mad) || mad < 0)) {
    rl_sched_err(err, "invalid --mscale '%g' / --mscale-all-dim '%g': expected numbers >= 0",
                 ms, mad);
    return RL_EINVAL;
  }
  return RL_OK;
}

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  rl_status st = check(s, err);
  if (st)
    return st;
  if (rl_sched_want_band(s))
    return RL_ENOMEM;
  rl_xr f = (rl_xr)p->factor;
  rl_xr low = 0, high = 0;
  double bf = OWN(p, BETA_FAST).x, bs = OWN(p, BETA_SLOW).x;
  double ms = OWN(p, MSCALE).x, mad = OWN(p, MSCALE_ALL_DIM).x;
  int paper = OWN(p, RAMP).i;
  if (!paper) {
    low = corr_dim(s, bf);
    high = corr_dim(s, bs);
    snprintf(s->note, sizeof s->note, "correction range %.17g .. %.17g before rounding",
             (double)low, (double)high);
    corr_range(s->rot, OWN(p, TRUNCATE).i, &low, &high);
    size_t l = strlen(s->note);
    snprintf(s->note + l, sizeof s->note - l, ", %.17g .. %.17g used", (double)low,
             (double)high);
  }
  rl_xr span = high - low;
  if (p->variant == RL_VARIANT_GGML)
    span = span > (rl_xr)0.001 ? span : (rl_xr)0.001;
  else if (span == 0)
    span = (rl_xr)0.001;
  for (size_t i = 0; i < s->n; i++) {
    rl_xr th = rl_sched_plain(s, (rl_xr)p->base, i), keep; /* keep: weight of th */
    if (paper) {
      rl_xr ratio = (rl_xr)p->train_len * th / (2 * RL_PI_X);
      rl_xr g = (ratio - (rl_xr)bs) / (rl_xr)(bf - bs);
      keep = g < 0 ? 0 : g > 1 ? 1 : g;
    } else {
      rl_xr g = ((rl_xr)i - low) / span;
      keep = 1 - (g < 0 ? 0 : g > 1 ? 1 : g);
    }
    rl_sched_set(s, i, th * (keep + (1 - keep) / f));
    s->band[i] = keep == 1 || f == 1 ? RL_BAND_EXTRAPOLATED
                 : keep == 0         ? RL_BAND_INTERPOLATED
                                     : RL_BAND_BETWEEN;
  }
  if (mscale_given(p) && ms != 0 && mad != 0)
    s->attn = rl_sched_yarn_mscale(p->factor, ms) / rl_sched_yarn_mscale(p->factor, mad);
  else
    s->attn = rl_sched_yarn_mscale(p->factor, mscale_given(p) && ms != 0 ? ms : 1.0);
  /* a config's attention factor replaces the derived one in HF
   * (attention_factor); vLLM and ggml multiply by it (attn_factor) */
  if (p->set & RL_SP_ATTN)
    s->attn = p->variant == RL_VARIANT_HF ? p->attention_factor : s->attn * p->attention_factor;
  return RL_OK;
}

/* YaRN's own parameters (the shared factor, train-len, attention-factor
 * are declared in schedule.c). */
static const char *const ramp_names[] = {"code", "paper", NULL};
static const char *const yesno_names[] = {"no", "yes", NULL};

static const rl_param p_beta_fast = {
    .key = "beta-fast", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = RL_SP_OWN(BETA_FAST), .lo = 0, .hi = INFINITY,
    .dflt = 32 /* HF _compute_yarn_parameters; the paper's beta */, .metavar = "X",
    .symbol = "beta", .unit = "rotations",
    .help = "pairs turning more than X times within L keep their frequency"};
static const rl_param p_beta_slow = {
    .key = "beta-slow", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN,
    .offset = RL_SP_OWN(BETA_SLOW), .lo = 0, .hi = INFINITY,
    .dflt = 1 /* the paper's alpha */, .metavar = "Y", .symbol = "alpha", .unit = "rotations",
    .help = "pairs turning fewer than Y times within L are fully interpolated"};
static const rl_param p_ramp = {
    .key = "ramp", .kind = RL_PK_ENUM, .offset = RL_SP_OWN(RAMP), .names = ramp_names,
    .metavar = "R",
    .help = "the ramp over the pair index (code) or over r = L/lambda (paper)"};
static const rl_param p_truncate = {
    .key = "truncate", .kind = RL_PK_ENUM, .offset = RL_SP_OWN(TRUNCATE),
    .dflt = 1 /* HF rope_scaling "truncate", True */, .names = yesno_names, .metavar = "T",
    .help = "round the correction range to integers",
    .when = "ramp=code" /* the paper's ramp has no correction range */};
static const rl_param p_mscale = {
    .key = "mscale", .kind = RL_PK_REAL, .offset = RL_SP_OWN(MSCALE), .lo = 0, .hi = INFINITY,
    .metavar = "X", .help = "mscale of the attention factor's ratio (DeepSeek configs)",
    .dflt_text = "none", .meta_if = mscale_given};
static const rl_param p_mscale_all_dim = {
    .key = "mscale-all-dim", .kind = RL_PK_REAL, .offset = RL_SP_OWN(MSCALE_ALL_DIM), .lo = 0,
    .hi = INFINITY, .metavar = "Y",
    .help = "mscale_all_dim of the attention factor's ratio (DeepSeek)",
    .dflt_text = "none", .meta_if = mscale_given};
static const rl_param *const params[] = {&p_beta_fast, &p_beta_slow, &p_ramp, &p_truncate,
                                         &p_mscale, &p_mscale_all_dim, NULL};

/* ---- the frameworks' float32 steps (precision pipelines) */

/* transformers _compute_yarn_parameters, vLLM YaRNScalingRotaryEmbedding:
 * the correction range as the exact schedule used it, re-derived in double
 * as they do (math.log, math.floor/ceil on doubles); low == high gets
 * 0.001 added (linear_ramp_factor) */
static rl_status torch_init(const rl_schedule *s, rl_torch *t, char *err)
{
  const rl_schedule_params *p = &s->p;
  if (OWN(p, RAMP).i) {
    rl_sched_err(err, "--ramp paper has no framework pipeline (no implementation uses it): use "
                      "--precision exact");
    return RL_EINVAL;
  }
  static const double two_pi = 6.283185307179586476925286766559;
  double r = (double)s->rot;
  double lo = r * log(p->train_len / (OWN(p, BETA_FAST).x * two_pi)) / (2 * log(p->base));
  double hi = r * log(p->train_len / (OWN(p, BETA_SLOW).x * two_pi)) / (2 * log(p->base));
  if (OWN(p, TRUNCATE).i) {
    lo = floor(lo);
    hi = ceil(hi);
  }
  lo = lo < 0 ? 0 : lo;
  hi = hi > r - 1 ? r - 1 : hi;
  if (lo == hi)
    hi += 0.001;
  t->aux[0] = lo;
  t->aux[1] = hi;
  return RL_OK;
}

/* pos_freqs = base ** (arange/dim); inv_freq_extrapolation = 1 / pos_freqs,
 * inv_freq_interpolation = 1 / (factor * pos_freqs), mixed by the float32
 * ramp (arange(dim/2).float() - low) / (high - low) clamped to [0, 1] */
static float torch_theta(const rl_schedule *s, const rl_torch *t, size_t i, float inv)
{
  (void)inv;
  float fs = (float)s->p.factor;
  float pos = t->pow(t, s->p.base, i);
  float extra = 1.0f / pos, inter = 1.0f / (fs * pos);
  float lin = ((float)i - (float)t->aux[0]) / (float)(t->aux[1] - t->aux[0]);
  float ramp = lin < 0.0f ? 0.0f : lin > 1.0f ? 1.0f : lin;
  float ef = 1.0f - ramp;
  return inter * (1.0f - ef) + extra * ef;
}

/* ggml's corr_dim in float32 (ggml.c ggml_rope_yarn_corr_dim) */
static float ggml_corr_dim(size_t n_dims, double n_ctx_orig, double n_rot, double base)
{
  return (float)n_dims * logf((float)n_ctx_orig / ((float)n_rot * 2 * 3.14159265358979323846f)) /
         (2 * logf((float)base));
}

/* llama.cpp passes freq_scale = 1/s, ext_factor = 1 and ggml computes the
 * correction dims (ggml_rope_yarn_corr_dims: floorf/ceilf, clamped to
 * [0, n_dims - 1]) */
static void ggml_init(const rl_schedule *s, rl_ggml *g)
{
  const rl_schedule_params *p = &s->p;
  g->freq_scale = 1.0f / (float)p->factor;
  g->ext_factor = 1.0f;
  float lo = floorf(ggml_corr_dim(s->rot, p->train_len, OWN(p, BETA_FAST).x, p->base));
  float hi = ceilf(ggml_corr_dim(s->rot, p->train_len, OWN(p, BETA_SLOW).x, p->base));
  g->corr[0] = lo > 0 ? lo : 0;
  g->corr[1] = hi < (float)(s->rot - 1) ? hi : (float)(s->rot - 1);
}

static const rl_sched_fw fw = {.torch_init = torch_init, .torch_theta = torch_theta,
                               .ggml_init = ggml_init};

/* ---- what model files call it (model/json.c, gguf.c) */

/* config.json, transformers _compute_yarn_parameters (at ef46806): factor
 * required, beta_fast / beta_slow "or 32" / "or 1" (a zero is the
 * default), attention_factor, DeepSeek's mscale and mscale_all_dim, and
 * truncate (later transformers) */
static const rl_model_key hf_keys[] = {
    {"factor", "factor", RL_MK_REQUIRED},
    {"beta_fast", "beta-fast", RL_MK_ZERO_UNSET},
    {"beta_slow", "beta-slow", RL_MK_ZERO_UNSET},
    {"attention_factor", "attention-factor", 0},
    {"mscale", "mscale", 0},
    {"mscale_all_dim", "mscale-all-dim", 0},
    {"truncate", "truncate", RL_MK_BOOL},
    {NULL, NULL, 0}};

/* L: rope_scaling's original_max_position_embeddings where the config
 * has it (DeepSeek's and Qwen's configs; later transformers), else
 * max_position_embeddings (transformers at ef46806, noted when they
 * differ) */
static rl_status hf_read(rl_model_src *src)
{
  double orig, max_pos;
  rl_status st;
  if ((st = rl_model_src_count(src, "original_max_position_embeddings", RL_MS_SCALING, &orig)) ||
      (st = rl_model_src_count(src, "max_position_embeddings", RL_MS_TOP, &max_pos)))
    return st;
  if (orig) {
    char key[96];
    snprintf(key, sizeof key, "%s",
             rl_model_src_name(src, "original_max_position_embeddings", RL_MS_SCALING));
    if (max_pos && max_pos != orig &&
        (st = rl_model_src_note(src, "transformers at ef46806 reads yarn's L from "
                                     "max_position_embeddings (%.0f); DeepSeek's code, later "
                                     "transformers and llama.cpp's "
                                     "rope.scaling.original_context_length read %s (%.0f)",
                                max_pos, key, orig)))
      return st;
    return rl_model_src_put_num(src, "train-len", orig, key);
  }
  if (!max_pos)
    return rl_model_src_missing(src, "max_position_embeddings", RL_MS_TOP,
                                "the context length (yarn reads it as L)");
  return rl_model_src_put_num(src, "train-len", max_pos, "max_position_embeddings");
}

static const char *const hf_names[] = {"yarn", NULL};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys, .read = hf_read};

/* GGUF, llama.cpp src/llama-arch.cpp LLM_KV_ROPE_SCALING_YARN_*: the betas;
 * attn_factor is noted, not read (below) */
static const rl_model_key gguf_keys[] = {
    {"rope.scaling.yarn_beta_fast", "beta-fast", 0},
    {"rope.scaling.yarn_beta_slow", "beta-slow", 0},
    {"rope.scaling.attn_factor", NULL, 0},
    {NULL, NULL, 0}};

/* With YaRN (ext_factor != 0) ggml's rope_yarn (src/ggml-cpu/ops.cpp)
 * multiplies llama.cpp's attn_factor by YaRN's own 1 + 0.1 ln(s), where
 * transformers' attention_factor replaces that factor: the key is a note. */
static rl_status gguf_read(rl_model_src *src)
{
  double v;
  int found;
  char num[RL_NUMFMT_MAX], key[160];
  rl_status st = rl_model_src_number(src, "rope.scaling.attn_factor", RL_MS_SCALING, &v, &found);
  if (st)
    return st;
  if (found && v != 1) {
    rl_numfmt(v, num);
    snprintf(key, sizeof key, "%s", rl_model_src_name(src, "rope.scaling.attn_factor", RL_MS_SCALING));
    if ((st = rl_model_src_note(src, "%s is %s: llama.cpp multiplies it onto YaRN's own "
                                     "attention factor 0.1 ln(s) + 1 (transformers' "
                                     "attention_factor replaces that factor instead), so it is "
                                     "not read as --attention-factor", key, num)))
      return st;
  }
  return RL_OK;
}

static const char *const gguf_names[] = {"yarn", NULL};
static const rl_model_decl gguf = {.names = gguf_names, .keys = gguf_keys, .read = gguf_read};

const rl_schedule_type rl_sched_yarn = {
    .name = "yarn",
    .summary = "NTK-by-parts ramp between extrapolated and interpolated pairs, with temperature",
    .paper = "Peng et al. 2023, arXiv:2309.00071 (YaRN), sec. 3.2-3.4",
    .code = "HF _compute_yarn_parameters; ggml ggml_rope_yarn_corr_dims, rope_yarn; vLLM "
            "YaRNScalingRotaryEmbedding, DeepseekScalingRotaryEmbedding",
    .uses = RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_VARIANT | RL_SP_ATTN,
    .needs = RL_SP_FACTOR | RL_SP_TRAIN_LEN, .init = init, .params = params, .fw = &fw,
    .hf = &hf, .gguf = &gguf};
