/* sched_opts.c: the schedule options (sched_opts.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "sched_opts.h"
#include "precision_opts.h"

void rl_sched_opts_init(rl_sched_opts *o, int any_dim)
{
  rl_schedule_params_default(&o->p);
  o->rot_arg = "dim";
  o->any_dim = any_dim;
}

static int num(const char *cmd, const char *opt, const char *arg, double lo, double *out)
{
  int r = rl_opt_double(cmd, opt, arg, out);
  if (!r && !(*out >= lo))
    r = rl_usage(cmd, "invalid %s '%s': expected a number >= %g", opt, arg, lo);
  return r;
}

static int positive(const char *cmd, const char *opt, const char *arg, double *out)
{
  int r = rl_opt_double(cmd, opt, arg, out);
  if (!r && !(*out > 0))
    r = rl_usage(cmd, "invalid %s '%s': expected a number > 0", opt, arg);
  return r;
}

/* A length 1..2^31 (--train-len, --seq-len). */
static int length(const char *cmd, const char *opt, const char *arg, double *out)
{
  int r = rl_opt_double(cmd, opt, arg, out);
  if (!r && !(*out >= 1 && *out <= RL_POS_MAX))
    r = rl_usage(cmd, "invalid %s '%s': expected a length from 1 to 2147483648", opt, arg);
  return r;
}

static int method_names(const char **names)
{
  int n = 0;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++)
    names[n++] = (*t)->name;
  return n;
}

static int sections(const char *cmd, const char *arg, size_t *sec)
{
  unsigned long long v[3];
  const char *p = arg;
  for (int k = 0; k < 3; k++) {
    char *end;
    if (!isdigit((unsigned char)*p))
      break;
    v[k] = strtoull(p, &end, 10);
    p = end;
    if (k < 2 && *p != ',')
      break;
    if (k == 2 && !*p && v[0] && v[1] && v[2] && v[0] + v[1] + v[2] <= RL_DIM_MAX) {
      sec[0] = (size_t)v[0], sec[1] = (size_t)v[1], sec[2] = (size_t)v[2];
      return 0;
    }
    p++;
  }
  return rl_usage(cmd, "invalid --sections '%s': expected three positive pair counts T,H,W "
                       "(e.g. 16,24,24)", arg);
}

int rl_sched_opt(rl_sched_opts *o, const char *cmd, int c, const char *arg)
{
  static const char *const layouts[] = {"interleaved", "half"};
  static const char *const variants[] = {"hf", "ggml", "vllm"};
  static const char *const yesno[] = {"no", "yes"};
  static const char *const ramps[] = {"code", "paper"};
  rl_schedule_params *p = &o->p;
  int r = 0, k;
  unsigned long long v;
  switch (c) {
  case RL_SCHOPT_DIM:
    if (o->any_dim) {
      r = rl_opt_uint(cmd, "--dim", arg, 2, 65536, &v);
      if (!r)
        p->dim = (size_t)v;
    } else {
      r = rl_opt_dim(cmd, arg, &p->dim);
    }
    break;
  case RL_SCHOPT_BASE: r = rl_opt_base(cmd, arg, &p->base); break;
  case RL_SCHOPT_ROT:
    o->rot_arg = arg;
    r = rl_opt_rot(cmd, arg, &p->rot);
    break;
  case RL_SCHOPT_LAYOUT:
    if (!(r = rl_opt_enum(cmd, "--layout", arg, layouts, 2, &k)))
      p->layout = (rl_layout)k;
    break;
  case RL_SCHOPT_METHOD: {
    const char *names[64];
    int n = method_names(names);
    if (!(r = rl_opt_enum(cmd, "--method", arg, names, (size_t)n, &k)))
      p->method = rl_schedule_types()[k];
    break;
  }
  case RL_SCHOPT_PRECISION:
    r = rl_precision_opt(cmd, arg, &p->precision);
    break;
  case RL_SCHOPT_VARIANT:
    if (!(r = rl_opt_enum(cmd, "--variant", arg, variants, 3, &k)))
      p->variant = (rl_variant)k, p->set |= RL_SP_VARIANT;
    break;
  case RL_SCHOPT_FACTOR:
    if (!(r = num(cmd, "--factor", arg, 1, &p->factor)))
      p->set |= RL_SP_FACTOR;
    break;
  case RL_SCHOPT_TRAIN_LEN:
    if (!(r = length(cmd, "--train-len", arg, &p->train_len)))
      p->set |= RL_SP_TRAIN_LEN;
    break;
  case RL_SCHOPT_SEQ_LEN:
    if (!(r = length(cmd, "--seq-len", arg, &p->seq_len)))
      p->set |= RL_SP_SEQ_LEN;
    break;
  case RL_SCHOPT_BETA_FAST:
    if (!(r = positive(cmd, "--beta-fast", arg, &p->beta_fast)))
      p->set |= RL_SP_BETA;
    break;
  case RL_SCHOPT_BETA_SLOW:
    if (!(r = positive(cmd, "--beta-slow", arg, &p->beta_slow)))
      p->set |= RL_SP_BETA;
    break;
  case RL_SCHOPT_TRUNCATE:
    if (!(r = rl_opt_enum(cmd, "--truncate", arg, yesno, 2, &p->truncate)))
      p->set |= RL_SP_TRUNCATE;
    break;
  case RL_SCHOPT_MSCALE:
    if (!(r = num(cmd, "--mscale", arg, 0, &p->mscale)))
      p->set |= RL_SP_MSCALE;
    break;
  case RL_SCHOPT_MSCALE_ALL:
    if (!(r = num(cmd, "--mscale-all-dim", arg, 0, &p->mscale_all_dim)))
      p->set |= RL_SP_MSCALE;
    break;
  case RL_SCHOPT_RAMP:
    if (!(r = rl_opt_enum(cmd, "--ramp", arg, ramps, 2, &p->ramp_paper)))
      p->set |= RL_SP_RAMP;
    break;
  case RL_SCHOPT_ATTN:
    if (!(r = positive(cmd, "--attention-factor", arg, &p->attention_factor)))
      p->set |= RL_SP_ATTN;
    break;
  case RL_SCHOPT_LOW:
    if (!(r = positive(cmd, "--low-freq-factor", arg, &p->low_freq_factor)))
      p->set |= RL_SP_LLAMA3;
    break;
  case RL_SCHOPT_HIGH:
    if (!(r = positive(cmd, "--high-freq-factor", arg, &p->high_freq_factor)))
      p->set |= RL_SP_LLAMA3;
    break;
  case RL_SCHOPT_FACTORS:
    if (!*arg)
      r = rl_usage(cmd, "invalid --factors '': expected a file name");
    p->factors_file = arg, p->set |= RL_SP_FACTORS;
    break;
  case RL_SCHOPT_FRACTION:
    if (!(r = rl_opt_double(cmd, "--fraction", arg, &p->fraction)) &&
        !(p->fraction >= 0 && p->fraction <= 1))
      r = rl_usage(cmd, "invalid --fraction '%s': expected a number from 0 to 1", arg);
    p->set |= RL_SP_FRACTION;
    break;
  case RL_SCHOPT_SCALE_BASE:
    if (!(r = positive(cmd, "--scale-base", arg, &p->scale_base)))
      p->set |= RL_SP_SCALE_BASE;
    break;
  case RL_SCHOPT_WINDOW:
    if (!(r = length(cmd, "--window", arg, &p->window)))
      p->set |= RL_SP_WINDOW;
    break;
  case RL_SCHOPT_LEAK:
    if (!(r = num(cmd, "--leak", arg, 1, &p->leak)))
      p->set |= RL_SP_LEAK;
    break;
  case RL_SCHOPT_SECTIONS:
    if (!(r = sections(cmd, arg, p->sections)))
      p->set |= RL_SP_SECTIONS;
    break;
  case RL_SCHOPT_FREQS_FILE:
    if (!*arg)
      r = rl_usage(cmd, "invalid --freqs-file '': expected a file name");
    p->freqs_file = arg, p->set |= RL_SP_FREQS_FILE;
    break;
  default:
    return 0;
  }
  return r ? 0x100 + r : 1;
}

int rl_sched_opt_default(rl_sched_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                         const struct option *longopts)
{
  int r = c == '?' || c == ':' ? 0 : rl_sched_opt(o, cmd, c, optarg);
  if (r > 1)
    return r - 0x100;
  return r ? 0 : rl_opt_default(co, cmd, c, argv, longopts);
}

int rl_sched_opts_finish(rl_sched_opts *o, const char *cmd)
{
  return rl_opt_rot_resolve(cmd, o->rot_arg, o->p.dim, &o->p.rot);
}

int rl_sched_build(const rl_schedule_params *p, const char *cmd, rl_schedule **f)
{
  char err[RL_SCHEDULE_ERR_MAX];
  rl_status st = rl_schedule_new(p, f, err);
  if (!st)
    return 0;
  if (!err[0])
    snprintf(err, sizeof err, "%s", rl_strerror(st));
  if (st == RL_EIO || st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", err);
  return rl_usage(cmd, "%s", err);
}

void rl_sched_meta(const rl_schedule_params *p, const rl_schedule *f, rl_out *out)
{
  const rl_schedule_type *t = p->method;
  char buf[400];
  rl_out_meta_uint(out, "dim", p->dim);
  rl_out_meta_uint(out, "rot", p->rot ? p->rot : p->dim);
  rl_out_meta_num(out, "base", p->base);
  rl_out_meta(out, "layout", p->layout == RL_LAYOUT_HALF ? "half" : "interleaved");
  rl_out_meta(out, "method", t->name);
  rl_out_meta(out, "variant", rl_variant_name(f ? f->p.variant : p->variant));
  if (p->precision) /* given: the default (exact) is not written, as before */
    rl_out_meta(out, "precision", p->precision->name);
  if (t->uses & RL_SP_FACTOR)
    rl_out_meta_num(out, "factor", p->factor);
  if ((t->uses & RL_SP_TRAIN_LEN) && p->train_len > 0)
    rl_out_meta_num(out, "train_len", p->train_len);
  if ((t->uses & RL_SP_SEQ_LEN) && f)
    rl_out_meta_num(out, "seq_len", f->p.seq_len);
  if (t->uses & RL_SP_BETA) {
    rl_out_meta_num(out, "beta_fast", p->beta_fast);
    rl_out_meta_num(out, "beta_slow", p->beta_slow);
    rl_out_meta(out, "ramp", p->ramp_paper ? "paper" : "code");
    if (!p->ramp_paper)
      rl_out_meta(out, "truncate", p->truncate ? "yes" : "no");
  }
  if ((t->uses & RL_SP_MSCALE) && (p->set & RL_SP_MSCALE)) {
    rl_out_meta_num(out, "mscale", p->mscale);
    rl_out_meta_num(out, "mscale_all_dim", p->mscale_all_dim);
  }
  if (t->uses & RL_SP_LLAMA3) {
    rl_out_meta_num(out, "low_freq_factor", p->low_freq_factor);
    rl_out_meta_num(out, "high_freq_factor", p->high_freq_factor);
  }
  if (t->uses & RL_SP_FACTORS)
    rl_out_meta(out, "factors", p->factors_file ? p->factors_file : "");
  if (t->uses & RL_SP_FRACTION)
    rl_out_meta_num(out, "fraction", p->fraction);
  if (t->uses & RL_SP_SCALE_BASE)
    rl_out_meta_num(out, "scale_base", p->scale_base);
  if (t->uses & RL_SP_WINDOW)
    rl_out_meta_num(out, "window", p->window);
  if (t->uses & RL_SP_LEAK)
    rl_out_meta_num(out, "leak", p->leak);
  if (t->uses & RL_SP_SECTIONS) {
    snprintf(buf, sizeof buf, "%zu,%zu,%zu", p->sections[0], p->sections[1], p->sections[2]);
    rl_out_meta(out, "sections", buf);
  }
  if (t->uses & RL_SP_FREQS_FILE)
    rl_out_meta(out, "freqs_file", p->freqs_file ? p->freqs_file : "");
  if (!f)
    return;
  if (f->base != p->base)
    rl_out_meta_num(out, "effective_base", f->base);
  rl_out_meta_num(out, "attention_factor", f->attn);
  rl_out_meta_num(out, "logit_multiplier", f->logit_mult);
  if (t->qscale) /* log-n: the query scale at the current length, on the whole logit */
    rl_out_meta_num(out, "query_scale", rl_schedule_qscale(f, f->p.seq_len));
  rl_schedule_describe(f, buf, sizeof buf);
  rl_out_meta(out, "schedule", buf);
}

void rl_sched_opts_help(FILE *fp)
{
  rl_schedule_params d;
  rl_schedule_params_default(&d);
  fprintf(fp,
          "schedule (defaults are the core's; 'ropelab help methods' lists the methods):\n"
          "      --dim D        head dimension (default %zu)\n"
          "      --base B       base of the frequencies, > 1 (default %g)\n"
          "      --rot R        rotated dimensions, even, <= D; 'dim' for all (default dim)\n"
          "      --layout L     pairing: interleaved (RoFormer, Meta) or half (NeoX, HF)\n"
          "                     (default interleaved)\n"
          "      --method M     rope, linear, ntk, dynamic, yarn, llama3, longrope, p-rope,\n"
          "                     xpos, rerope, leaky-rerope, log-n, mrope, file\n"
          "                     (default %s)\n"
          "      --variant V    formula of hf, ggml or vllm where they differ (default %s)\n"
          "      --factor S     scale s >= 1 (linear, ntk, dynamic, yarn, llama3, longrope)\n"
          "      --train-len L  original context L (dynamic, yarn, llama3, longrope, log-n)\n"
          "      --seq-len N    current length (dynamic, longrope, log-n; default L)\n"
          "      --beta-fast X, --beta-slow Y  yarn correction range (default %g, %g)\n"
          "      --truncate yes|no  yarn: round the range to integers (default yes)\n"
          "      --ramp code|paper  yarn: ramp on pair index (code) or r = L/lambda (paper)\n"
          "      --mscale X, --mscale-all-dim Y  yarn attention factor ratio\n"
          "                     (DeepSeek configs)\n"
          "      --attention-factor A  the config's attention factor (yarn, longrope, file)\n"
          "      --low-freq-factor X, --high-freq-factor Y  llama3 bands (default %g, %g)\n"
          "      --factors FILE longrope: CSV pair,short,long, one row per pair\n"
          "      --fraction P   p-rope: fraction of pairs that rotate\n"
          "      --scale-base B xpos amplitude scale (default %g)\n"
          "      --window W     rerope, leaky-rerope window (default %g)\n"
          "      --leak K       leaky-rerope: slope 1/K past the window (default %g)\n"
          "      --sections T,H,W  mrope: pairs per axis, summing to R/2\n"
          "      --freqs-file F file: CSV with a theta column (e.g. 'ropelab freqs' output)\n"
          "      --precision P  exact, fp64, or a framework pipeline: hf-fp32, hf-bf16,\n"
          "                     hf-f16, ggml-f32, ggml-f16, vllm-fp32, vllm-bf16, vllm-f16\n"
          "                     (default exact; 'ropelab help precision' explains each)\n",
          d.dim, d.base, d.method->name, rl_variant_name(d.variant), d.beta_fast, d.beta_slow,
          d.low_freq_factor, d.high_freq_factor, d.scale_base, d.window, d.leak);
}
