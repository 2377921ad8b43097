/* schedule.c: the schedule object every method builds (ropelab.h,
 * "frequency schedules"): defaults, argument checks common to all
 * methods, and the accessors measures use. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedule_impl.h"
#include "../precision/precision_impl.h"

void rl_schedule_params_default(rl_schedule_params *p)
{
  memset(p, 0, sizeof *p);
  p->method = &rl_sched_rope;
  p->dim = 128;    /* RoFormer Fig. 2, Llama */
  p->base = 10000; /* RoFormer eq. 15 */
  p->layout = RL_LAYOUT_INTERLEAVED;
  p->variant = RL_VARIANT_HF;
  p->factor = 1;
  p->beta_fast = 32; /* HF _compute_yarn_parameters, YaRN paper alpha/beta */
  p->beta_slow = 1;
  p->truncate = 1;   /* HF rope_scaling "truncate", default True */
  p->low_freq_factor = 1;  /* Llama 3.1 config */
  p->high_freq_factor = 4;
  p->fraction = 0.75;
  p->scale_base = 512;     /* torchscale XPOS scale_base */
  p->window = 512;         /* Su 2023, ReRoPE */
  p->leak = 16;
}

const char *rl_variant_name(rl_variant v)
{
  switch (v) {
  case RL_VARIANT_HF: return "hf";
  case RL_VARIANT_GGML: return "ggml";
  case RL_VARIANT_VLLM: return "vllm";
  }
  return "unknown";
}

const char *rl_band_name(int band)
{
  switch (band) {
  case RL_BAND_EXTRAPOLATED: return "extrapolated";
  case RL_BAND_INTERPOLATED: return "interpolated";
  case RL_BAND_BETWEEN: return "between";
  case RL_BAND_UNROTATED: return "unrotated";
  }
  return "unknown";
}

void rl_sched_err(char *err, const char *fmt, ...)
{
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, RL_SCHEDULE_ERR_MAX, fmt, ap);
  va_end(ap);
}

void rl_sched_fill_plain(rl_schedule *s, long double base)
{
  for (size_t i = 0; i < s->n; i++)
    rl_sched_set(s, i, rl_sched_plain(s, base, i));
}

static void *zalloc(size_t n, size_t size)
{
  return calloc(n ? n : 1, size);
}

rl_status rl_sched_want_band(rl_schedule *s)
{
  if (!s->band)
    s->band = zalloc(s->n, 1);
  return s->band ? RL_OK : RL_ENOMEM;
}

rl_status rl_sched_want_amp(rl_schedule *s)
{
  if (!s->amp_rate)
    s->amp_rate = zalloc(s->n, sizeof *s->amp_rate);
  return s->amp_rate ? RL_OK : RL_ENOMEM;
}

rl_status rl_sched_want_axis(rl_schedule *s)
{
  if (!s->axis)
    s->axis = zalloc(s->n, 1);
  return s->axis ? RL_OK : RL_ENOMEM;
}

double rl_sched_yarn_mscale(double s, double mscale)
{
  /* YaRN sec. 3.4: sqrt(1/t) = 0.1 ln(s) + 1; HF get_mscale */
  return s <= 1 ? 1.0 : (double)(0.1L * (long double)mscale * logl((long double)s) + 1.0L);
}

rl_status rl_schedule_alloc(size_t dim, size_t rot, rl_schedule **out)
{
  *out = NULL;
  if (dim < 2 || dim % 2 || rot < 2 || rot % 2 || rot > dim)
    return RL_EINVAL;
  rl_schedule *s = calloc(1, sizeof *s);
  if (!s)
    return RL_ENOMEM;
  s->theta = calloc(rot / 2, sizeof *s->theta);
  s->theta_lo = calloc(rot / 2, sizeof *s->theta_lo);
  if (!s->theta || !s->theta_lo) {
    free(s->theta);
    free(s->theta_lo);
    free(s);
    return RL_ENOMEM;
  }
  s->prec = rl_precision_exact();
  s->dim = dim;
  s->rot = rot;
  s->n = rot / 2;
  s->attn = s->logit_mult = 1.0;
  s->type = &rl_sched_file;
  rl_schedule_params_default(&s->p);
  s->p.method = s->type;
  s->p.dim = dim;
  s->p.rot = rot;
  *out = s;
  return RL_OK;
}

void rl_schedule_free(rl_schedule *s)
{
  if (!s)
    return;
  free(s->theta);
  free(s->theta_lo);
  rl_pipe_free(s->pipe);
  free(s->amp_rate);
  free(s->band);
  free(s->axis);
  free(s);
}

/* The parameter names for messages, in RL_SP_* bit order. */
static const char *const sp_names[] = {
    "--factor", "--train-len", "--seq-len", "--beta-fast/--beta-slow", "--truncate",
    "--mscale/--mscale-all-dim", "--ramp", "--low-freq-factor/--high-freq-factor",
    "--factors", "--fraction", "--scale-base", "--window", "--leak", "--sections",
    "--freqs-file", "--variant", "--attention-factor"};


/* The attention factor A scales cos and sin, and the logits by A^2; the
 * commands then sum logits over up to 2^31 positions and multiply by
 * sigma^2 <= 1e200 (decay's Monte Carlo).  2^-64 <= A <= 2^64 keeps
 * A^2 sigma^2 2^31 below DBL_MAX (2^128 1e200 2^31 ~ 7e247) and A^2
 * sigma^2 above DBL_MIN (2^-128 1e-200 ~ 3e-239); 1e200 gave
 * logit_multiplier = inf. */
static int attn_ok(double a)
{
  return a >= 0x1p-64 && a <= 0x1p64;
}

static rl_status common_checks(const rl_schedule_params *p, char *err)
{
  const rl_schedule_type *t = p->method;
  size_t rot = p->rot ? p->rot : p->dim;
  if (p->dim < 2 || p->dim % 2) {
    rl_sched_err(err, "invalid dimension '%zu': expected an even integer >= 2", p->dim);
    return RL_EINVAL;
  }
  if (rot < 2 || rot % 2 || rot > p->dim) {
    rl_sched_err(err, "invalid rotated width '%zu': expected an even integer from 2 to the "
                      "dimension %zu", rot, p->dim);
    return RL_EINVAL;
  }
  if (!isfinite(p->base) || !(p->base > 1)) {
    rl_sched_err(err, "invalid base '%g': expected a finite number > 1", p->base);
    return RL_EINVAL;
  }
  for (unsigned b = 0; b < sizeof sp_names / sizeof *sp_names; b++) {
    unsigned bit = 1u << b;
    if ((p->set & bit) && !(t->uses & bit)) {
      rl_sched_err(err, "%s does not apply to method '%s'", sp_names[b], t->name);
      return RL_EINVAL;
    }
    if ((t->needs & bit) && !(p->set & bit)) {
      rl_sched_err(err, "method '%s' needs %s", t->name, sp_names[b]);
      return RL_EINVAL;
    }
  }
  if (t->variants && !(t->variants & (1u << p->variant))) {
    rl_sched_err(err, "method '%s' has no '%s' variant (%s implements none)", t->name,
                 rl_variant_name(p->variant),
                 p->variant == RL_VARIANT_GGML ? "llama.cpp"
                 : p->variant == RL_VARIANT_VLLM ? "vLLM" : "Hugging Face transformers");
    return RL_EINVAL;
  }
  if (!isfinite(p->factor) || !(p->factor >= 1)) {
    rl_sched_err(err, "invalid --factor '%g': expected a number >= 1", p->factor);
    return RL_EINVAL;
  }
  if (!isfinite(p->train_len) || p->train_len < 0 || p->train_len > RL_POS_MAX ||
      ((p->set & RL_SP_TRAIN_LEN) && !(p->train_len >= 1))) {
    rl_sched_err(err, "invalid --train-len '%g': expected a length from 1 to 2147483648",
                 p->train_len);
    return RL_EINVAL;
  }
  if (!isfinite(p->seq_len) || p->seq_len < 0 || p->seq_len > RL_POS_MAX ||
      ((p->set & RL_SP_SEQ_LEN) && !(p->seq_len >= 1))) {
    rl_sched_err(err, "invalid --seq-len '%g': expected a length from 1 to 2147483648",
                 p->seq_len);
    return RL_EINVAL;
  }
  if ((p->set & RL_SP_ATTN) && !attn_ok(p->attention_factor)) {
    rl_sched_err(err, "invalid --attention-factor '%g': expected a number from 2^-64 "
                      "(5.421010862427522e-20) to 2^64 (1.8446744073709552e+19)",
                 p->attention_factor);
    return RL_EINVAL;
  }
  return RL_OK;
}

rl_status rl_schedule_new(const rl_schedule_params *p, rl_schedule **out, char *err)
{
  *out = NULL;
  if (err)
    err[0] = 0;
  if (!p || !p->method) {
    rl_sched_err(err, "no schedule method given");
    return RL_EINVAL;
  }
  /* a framework pipeline computes its framework's formulas */
  const rl_precision *prec = p->precision ? p->precision : rl_precision_exact();
  rl_schedule_params q = *p;
  if (prec->variant >= 0) {
    if ((p->set & RL_SP_VARIANT) && (int)p->variant != prec->variant) {
      rl_sched_err(err, "--variant %s does not apply with --precision %s: it computes the %s "
                        "variant", rl_variant_name(p->variant), prec->name,
                   rl_variant_name((rl_variant)prec->variant));
      return RL_EINVAL;
    }
    q.variant = (rl_variant)prec->variant;
  }
  p = &q;
  rl_status st = common_checks(p, err);
  if (st)
    return st;
  rl_schedule *s;
  size_t rot = p->rot ? p->rot : p->dim;
  if ((st = rl_schedule_alloc(p->dim, rot, &s)))
    return st;
  s->p = *p;
  s->p.precision = prec;
  s->p.rot = rot;
  if (!(p->set & RL_SP_SEQ_LEN))
    s->p.seq_len = p->train_len;
  s->type = p->method;
  s->base = p->base;
  st = s->type->init(s, err); /* a method that takes --attention-factor applies it */
  /* the file names are the caller's strings: read by init, not kept */
  s->p.factors_file = s->p.freqs_file = NULL;
  s->p.factors = NULL;
  s->logit_mult = s->attn * s->attn;
  for (size_t i = 0; !st && i < s->n; i++)
    if (!isfinite(s->theta[i]) || s->theta[i] < 0 || s->theta[i] > 1) {
      rl_sched_err(err, "method '%s' gives pair %zu the frequency %g, outside [0, 1] rad per "
                        "position", s->type->name, i, s->theta[i]);
      st = RL_EINVAL;
    }
  if (!st && !attn_ok(s->attn)) {
    rl_sched_err(err, "method '%s' gives the attention factor %g: expected 2^-64 to 2^64",
                 s->type->name, s->attn);
    st = RL_EINVAL;
  }
  /* the pipeline's frequencies replace the exact ones */
  s->prec = prec;
  if (!st && prec->init)
    st = prec->init(s, err);
  if (st) {
    if (err && !err[0])
      rl_sched_err(err, "cannot build schedule '%s': %s", s->type->name, rl_strerror(st));
    rl_schedule_free(s);
    return st;
  }
  *out = s;
  return RL_OK;
}

rl_status rl_schedule_rope(size_t dim, size_t rot, double base, rl_schedule **out)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.dim = dim;
  p.rot = rot;
  p.base = base;
  *out = NULL;
  if (dim < 2 || dim % 2 || rot < 2 || rot % 2 || rot > dim || !isfinite(base) || !(base > 1))
    return RL_EINVAL;
  return rl_schedule_new(&p, out, NULL);
}

double rl_schedule_wavelength(const rl_schedule *s, size_t i)
{
  if (s->theta[i] == 0)
    return HUGE_VAL; /* an unrotated pair never turns */
  return (double)(2.0L * RL_PI_L / (long double)s->theta[i]);
}

double rl_schedule_ratio(const rl_schedule *s, size_t i)
{
  /* both as doubles: a kept frequency gives exactly 1, a power-of-two
   * factor exactly 1/s */
  return s->theta[i] / (double)rl_sched_plain(s, (long double)s->p.base, i);
}

double rl_schedule_relpos(const rl_schedule *s, double r)
{
  return s->type->relpos ? s->type->relpos(s, r) : r;
}

double rl_schedule_qscale(const rl_schedule *s, double len)
{
  return s->type->qscale ? s->type->qscale(s, len) : 1.0;
}

double rl_schedule_amplitude(const rl_schedule *s, size_t i, double r)
{
  return s->amp_rate ? exp(r * s->amp_rate[i]) : 1.0;
}

int rl_schedule_is_plain(const rl_schedule *s)
{
  return !s->type->relpos && !s->type->qscale && !s->amp_rate;
}

void rl_schedule_describe(const rl_schedule *s, char *buf, size_t size)
{
  snprintf(buf, size, "%s: %s%s%s", s->type->name, s->type->summary, s->note[0] ? "; " : "",
           s->note);
}
