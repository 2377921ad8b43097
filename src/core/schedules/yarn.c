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

double rl_yarn_attention_factor(double factor)
{
  return rl_sched_yarn_mscale(factor, 1.0);
}

static rl_status check(const rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  if (!(p->beta_fast > p->beta_slow) || !(p->beta_slow > 0) || !isfinite(p->beta_fast)) {
    rl_sched_err(err, "invalid --beta-fast '%g' / --beta-slow '%g': expected beta-fast > "
                      "beta-slow > 0", p->beta_fast, p->beta_slow);
    return RL_EINVAL;
  }
  if (p->variant != RL_VARIANT_HF && !p->truncate) {
    rl_sched_err(err, "invalid --truncate 'no' with --variant %s: it always rounds the "
                      "correction range (hf only)", rl_variant_name(p->variant));
    return RL_EINVAL;
  }
  if (p->variant == RL_VARIANT_GGML && (p->set & RL_SP_MSCALE)) {
    rl_sched_err(err, "--mscale does not apply to method 'yarn' with --variant ggml (ggml takes "
                      "one attention factor: use --attention-factor)");
    return RL_EINVAL;
  }
  if ((p->set & RL_SP_MSCALE) && (!isfinite(p->mscale) || p->mscale < 0 ||
                                  !isfinite(p->mscale_all_dim) || p->mscale_all_dim < 0)) {
    rl_sched_err(err, "invalid --mscale '%g' / --mscale-all-dim '%g': expected numbers >= 0",
                 p->mscale, p->mscale_all_dim);
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
  if (!p->ramp_paper) {
    low = corr_dim(s, p->beta_fast);
    high = corr_dim(s, p->beta_slow);
    snprintf(s->note, sizeof s->note, "correction range %.17g .. %.17g before rounding",
             (double)low, (double)high);
    corr_range(s->rot, p->truncate, &low, &high);
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
    if (p->ramp_paper) {
      rl_xr ratio = (rl_xr)p->train_len * th / (2 * RL_PI_X);
      rl_xr g = (ratio - (rl_xr)p->beta_slow) /
                      (rl_xr)(p->beta_fast - p->beta_slow);
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
  if ((p->set & RL_SP_MSCALE) && p->mscale != 0 && p->mscale_all_dim != 0)
    s->attn = rl_sched_yarn_mscale(p->factor, p->mscale) /
              rl_sched_yarn_mscale(p->factor, p->mscale_all_dim);
  else
    s->attn = rl_sched_yarn_mscale(p->factor, (p->set & RL_SP_MSCALE) && p->mscale != 0
                                                  ? p->mscale : 1.0);
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
    .key = "beta-fast", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .bit = RL_SP_BETA,
    .offset = RL_SP_FIELD(beta_fast), .lo = 0, .hi = INFINITY,
    .dflt = 32 /* HF _compute_yarn_parameters; the paper's beta */, .metavar = "X",
    .symbol = "beta", .unit = "rotations",
    .help = "pairs turning more than X times within L keep their frequency"};
static const rl_param p_beta_slow = {
    .key = "beta-slow", .kind = RL_PK_REAL, .flags = RL_PF_LO_OPEN, .bit = RL_SP_BETA,
    .offset = RL_SP_FIELD(beta_slow), .lo = 0, .hi = INFINITY,
    .dflt = 1 /* the paper's alpha */, .metavar = "Y", .symbol = "alpha", .unit = "rotations",
    .help = "pairs turning fewer than Y times within L are fully interpolated"};
static const rl_param p_ramp = {
    .key = "ramp", .kind = RL_PK_ENUM, .bit = RL_SP_RAMP, .offset = RL_SP_FIELD(ramp_paper),
    .names = ramp_names, .metavar = "R",
    .help = "the ramp over the pair index (code) or over r = L/lambda (paper)"};
static const rl_param p_truncate = {
    .key = "truncate", .kind = RL_PK_ENUM, .bit = RL_SP_TRUNCATE,
    .offset = RL_SP_FIELD(truncate), .dflt = 1 /* HF rope_scaling "truncate", True */,
    .names = yesno_names, .metavar = "T",
    .help = "round the correction range to integers",
    .when = "ramp=code" /* the paper's ramp has no correction range */};
static const rl_param p_mscale = {
    .key = "mscale", .kind = RL_PK_REAL, .flags = RL_PF_META_SET, .bit = RL_SP_MSCALE,
    .offset = RL_SP_FIELD(mscale), .lo = 0, .hi = INFINITY, .metavar = "X",
    .help = "mscale of the attention factor's ratio (DeepSeek configs)",
    .dflt_text = "none"};
static const rl_param p_mscale_all_dim = {
    .key = "mscale-all-dim", .kind = RL_PK_REAL, .flags = RL_PF_META_SET, .bit = RL_SP_MSCALE,
    .offset = RL_SP_FIELD(mscale_all_dim), .lo = 0, .hi = INFINITY, .metavar = "Y",
    .help = "mscale_all_dim of the attention factor's ratio (DeepSeek)",
    .dflt_text = "none"};
static const rl_param *const params[] = {&p_beta_fast, &p_beta_slow, &p_ramp, &p_truncate,
                                         &p_mscale, &p_mscale_all_dim, NULL};

const rl_schedule_type rl_sched_yarn = {
    "yarn", "NTK-by-parts ramp between extrapolated and interpolated pairs, with temperature",
    "Peng et al. 2023, arXiv:2309.00071 (YaRN), sec. 3.2-3.4",
    "HF _compute_yarn_parameters; ggml ggml_rope_yarn_corr_dims, rope_yarn; vLLM "
    "YaRNScalingRotaryEmbedding, DeepseekScalingRotaryEmbedding",
    RL_SP_FACTOR | RL_SP_TRAIN_LEN | RL_SP_BETA | RL_SP_TRUNCATE | RL_SP_MSCALE | RL_SP_RAMP |
        RL_SP_VARIANT | RL_SP_ATTN,
    RL_SP_FACTOR | RL_SP_TRAIN_LEN, 0, init, NULL, NULL, params, RL_FORM_YARN};
