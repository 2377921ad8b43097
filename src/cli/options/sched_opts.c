/* sched_opts.c: the schedule options (sched_opts.h), all generated from
 * the core's parameter declarations (rl_schedule_param_list): the long
 * options, their parsing and messages, the help lines and the metadata.
 * A method's new parameter, declared in its own file, appears here with
 * nothing to add. */
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "sched_opts.h"

#define LONGOPTS_MAX 256

/* --config, declared once for the long options and the help */
static const rl_param p_config = {
    .key = "config", .kind = RL_PK_TEXT, .flags = RL_PF_FILE, .metavar = "FILE",
    .help = "a model's config.json (Hugging Face) or GGUF file: its RoPE settings come "
            "first, each option given overrides one of them; the metadata names each "
            "setting's source"};
/* before --config in the list: the getopt values are LAYER_TYPE, CONFIG */
static const rl_param p_layer_type = {
    .key = "layer-type", .kind = RL_PK_TEXT, .flags = RL_PF_NO_SWEEP, .metavar = "T",
    .help = "with --config: the attention layer type whose RoPE is read, for a model "
            "with one per layer type (Gemma 3: full_attention or sliding_attention)"};
static const rl_param *const config_list[] = {&p_layer_type, &p_config, NULL};

const struct option *rl_sched_longopts(const struct option *own)
{
  static struct option all[LONGOPTS_MAX];
  size_t n = 0;
  for (const struct option *o = own; o && o->name && n < LONGOPTS_MAX - 1; o++)
    all[n++] = *o;
  n = rl_longopts_declared(all, n, LONGOPTS_MAX, config_list, RL_SCHOPT_LAYER_TYPE,
                           RL_SCHOPT_CONFIG);
  rl_longopts_declared(all, n, LONGOPTS_MAX, rl_schedule_param_list(), RL_SCHOPT_FIRST,
                       RL_SCHOPT_LAYER_TYPE - 1);
  return all;
}

/* The model file read by --config, kept to the end since the settings
 * point into it; a sweep runs the command again in this process with the
 * same file (read once).  this_run: --config seen since the last
 * rl_sched_opts_init, so that a second one is refused; the file is read
 * when the options are done, since --layer-type may follow it. */
enum { FROM_CONFIG = 1, FROM_OPTION = 2 };
static struct {
  int read, this_run;
  const char *want, *want_layer; /* this run's --config and --layer-type */
  char *layer;              /* the layer type the file was read for, or NULL */
  rl_model_rope m;
  unsigned char *from;     /* per field: FROM_CONFIG, FROM_OPTION, or 0 (not taken) */
  int factors_src;          /* LongRoPE's lists taken from the config */
} cfg;

static int config_given(const char *cmd, const char *path)
{
  if (cfg.this_run)
    return rl_usage(cmd, "invalid --config '%s': expected one config (already given '%s')", path,
                    cfg.want);
  cfg.this_run = 1;
  cfg.want = path;
  return 0;
}

static int same_text(const char *a, const char *b)
{
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static int config_read(const char *cmd)
{
  const char *path = cfg.want;
  if (cfg.read && !strcmp(path, cfg.m.path) && same_text(cfg.layer, cfg.want_layer)) {
    /* a sweep's next point: the same file */
    memset(cfg.from, 0, cfg.m.n_fields ? cfg.m.n_fields : 1);
    cfg.factors_src = 0;
    return 0;
  }
  if (cfg.read) {
    rl_model_rope_free(&cfg.m);
    free(cfg.from);
    cfg.from = NULL;
    cfg.read = cfg.factors_src = 0;
  }
  free(cfg.layer);
  cfg.layer = NULL;
  if (cfg.want_layer && !(cfg.layer = strdup(cfg.want_layer)))
    return rl_runtime(cmd, "out of memory");
  char err[RL_ERR_MAX];
  rl_model_rope_init(&cfg.m);
  cfg.m.layer_type = cfg.layer;
  rl_status st = rl_model_read(path, &cfg.m, err, sizeof err);
  if (st == RL_EIO || st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", err);
  if (st)
    return rl_usage(cmd, "%s", err);
  cfg.from = calloc(cfg.m.n_fields ? cfg.m.n_fields : 1, 1);
  if (!cfg.from)
    return rl_runtime(cmd, "out of memory");
  cfg.read = 1;
  return 0;
}

void rl_sched_opts_init(rl_sched_opts *o, int any_dim)
{
  cfg.this_run = 0;
  cfg.want = cfg.want_layer = NULL;
  rl_schedule_params_default(&o->p);
  o->rot_arg = "dim";
  o->any_dim = any_dim;
}

int rl_sched_optval(const char *key)
{
  const rl_param *const *list = rl_schedule_param_list();
  for (int k = 0; list[k]; k++)
    if (!strcmp(list[k]->key, key))
      return RL_SCHOPT_FIRST + k;
  return -1;
}

int rl_sched_opt(rl_sched_opts *o, const char *cmd, int c, const char *arg)
{
  if (c == RL_SCHOPT_CONFIG) {
    int r = config_given(cmd, arg);
    return r ? RL_OPT_FAILED(r) : RL_OPT_TAKEN;
  }
  if (c == RL_SCHOPT_LAYER_TYPE) {
    if (cfg.want_layer)
      return RL_OPT_FAILED(rl_usage(cmd, "invalid --layer-type '%s': expected one (already given '%s')",
                              arg, cfg.want_layer));
    if (!*arg)
      return RL_OPT_FAILED(rl_usage(cmd, "invalid --layer-type '': expected a layer type such as "
                                   "full_attention"));
    cfg.want_layer = arg;
    return RL_OPT_TAKEN;
  }
  if (c < RL_SCHOPT_FIRST || c > RL_SCHOPT_LAST)
    return RL_OPT_NOT_MINE;
  const rl_param *const *list = rl_schedule_param_list();
  int k = c - RL_SCHOPT_FIRST;
  for (int j = 0; j < k; j++)
    if (!list[j])
      return RL_OPT_NOT_MINE;
  const rl_param *d = list[k];
  if (!d)
    return RL_OPT_NOT_MINE;
  rl_param dim_any;
  if (o->any_dim && !strcmp(d->key, "dim")) {
    /* the scheme commands: some schemes take an odd dimension */
    dim_any = *d;
    dim_any.kind = RL_PK_SIZE;
    dim_any.hi = RL_SCHEME_DIM_MAX;
    dim_any.expect = NULL;
    d = &dim_any;
  }
  if (!strcmp(d->key, "rot"))
    o->rot_arg = arg;
  char err[RL_ERR_MAX];
  if (rl_param_parse(d, &o->p, arg, err, sizeof err))
    return RL_OPT_FAILED(rl_usage(cmd, "%s", err));
  rl_schedule_param_mark(&o->p, list[k]); /* the declaration, not a copy */
  return RL_OPT_TAKEN;
}

int rl_sched_opt_default(rl_sched_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                         const struct option *longopts)
{
  int r = c == '?' || c == ':' ? 0 : rl_sched_opt(o, cmd, c, optarg);
  if (rl_opt_failed(r))
    return rl_opt_exit_code(r);
  return r ? 0 : rl_opt_default(co, cmd, c, argv, longopts);
}

/* d given by an option itself (one parameter a bit: rl_schedule_param_given) */
static int option_given(const rl_schedule_params *p, const rl_param *d)
{
  return rl_schedule_param_given(p, d);
}

int rl_sched_config_given(void)
{
  return cfg.this_run;
}

int rl_sched_config_apply(rl_sched_opts *o, const char *cmd)
{
  if (!cfg.this_run) {
    if (cfg.want_layer)
      return rl_usage(cmd, "--layer-type '%s' needs --config (it chooses which of a model's "
                           "RoPEs the config gives)", cfg.want_layer);
    return 0;
  }
  int r = config_read(cmd);
  if (r)
    return r;
  const rl_model_rope *m = &cfg.m;
  char err[RL_ERR_MAX];
  /* the method first: the other settings are kept where it takes them */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < m->n_fields; i++) {
      const rl_model_field *f = &m->fields[i];
      if ((pass == 0) != !strcmp(f->key, "method"))
        continue;
      const rl_param *d = rl_schedule_param_find(f->key);
      if (!d)
        continue;
      if (option_given(&o->p, d)) {
        cfg.from[i] = FROM_OPTION;
        continue;
      }
      if (!rl_schedule_param_applies(d, o->p.method))
        continue;
      if (rl_param_parse(d, &o->p, f->value, err, sizeof err))
        return rl_usage(cmd, "%s (from %s in config '%s')", err, f->source, m->path);
      if (!strcmp(d->key, "rot"))
        o->rot_arg = f->value;
      rl_schedule_param_mark(&o->p, d);
      cfg.from[i] = FROM_CONFIG;
    }
  /* LongRoPE's lists: the long one once the current length exceeds L, as
   * transformers and vLLM switch (longrope.c) */
  const rl_param *fd = rl_schedule_param_find("factors");
  if (m->short_factor && m->long_factor && fd && !option_given(&o->p, fd) &&
      rl_schedule_param_applies(fd, o->p.method)) {
    size_t rot = o->p.rot ? o->p.rot : o->p.dim;
    if (rot / 2 != m->n_factors)
      return rl_usage(cmd, "invalid rotated width '%zu' for config '%s': its short_factor and "
                           "long_factor lists have %zu numbers, expected %zu (rotary width / 2)",
                      rot, m->path, m->n_factors, rot / 2);
    /* both lists: the schedule switches at L as with --factors */
    rl_schedule_set_list(&o->p, "short-factors", m->short_factor);
    rl_schedule_set_list(&o->p, "long-factors", m->long_factor);
    /* the metadata's factors= names the config */
    rl_schedule_set_text(&o->p, "factors", m->path, NULL, 0);
    cfg.factors_src = 1;
  }
  return 0;
}

int rl_sched_opts_finish(rl_sched_opts *o, const char *cmd)
{
  int r = rl_sched_config_apply(o, cmd);
  return r ? r : rl_opt_rot_resolve(cmd, o->rot_arg, o->p.dim, &o->p.rot);
}

int rl_sched_opts_end(rl_sched_opts *o, const rl_common *co, const char *cmd, int argc,
                      char **argv, void (*help)(FILE *fp))
{
  int r = rl_opt_end(co, cmd, argc, argv, help);
  return r ? r : rl_sched_opts_finish(o, cmd);
}

/* config=PATH, then where each setting of the config went: KEY.source
 * names the config's key, or the option that overrode it. */
static void config_meta(rl_out *out)
{
  char key[96], val[160];
  rl_out_meta(out, "config", cfg.m.path);
  if (cfg.layer)
    rl_out_meta(out, "layer_type", cfg.layer);
  for (size_t i = 0; i < cfg.m.n_fields; i++) {
    const rl_model_field *f = &cfg.m.fields[i];
    const rl_param *d = rl_schedule_param_find(f->key);
    if (!d || !cfg.from[i])
      continue;
    rl_param_meta_key(d, key, sizeof key - 8);
    strcat(key, ".source");
    if (cfg.from[i] == FROM_OPTION)
      snprintf(val, sizeof val, "--%s (config: %s)", d->key, f->source);
    else
      snprintf(val, sizeof val, "%s", f->source);
    rl_out_meta(out, key, val);
  }
  if (cfg.factors_src)
    rl_out_meta(out, "factors.source", "rope_scaling.short_factor, rope_scaling.long_factor");
  for (size_t i = 0; i < cfg.m.n_notes; i++)
    rl_out_meta(out, "config.note", cfg.m.notes[i]);
}

int rl_sched_build(const rl_schedule_params *p, const char *cmd, rl_schedule **f)
{
  char err[RL_ERR_MAX];
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
  char buf[400], key[64];
  for (const rl_param *const *dp = rl_schedule_param_list(); *dp; dp++) {
    const rl_param *d = *dp;
    if (d->flags & RL_PF_NO_META)
      continue;
    if (!(d->flags & RL_PF_META_ALWAYS) && !rl_schedule_param_applies(d, t))
      continue;
    const rl_schedule_params *obj = p;
    rl_schedule_params dflt;
    if (rl_schedule_param_is_own(d)) {
      /* a method's own slot: as given, else as built (the default filled
       * in), or without a built schedule the default */
      if (rl_schedule_param_given(p, d)) {
        obj = p;
      } else if (f) {
        obj = &f->p;
      } else {
        dflt = *p;
        rl_param_set_default(d, &dflt);
        obj = &dflt;
      }
    } else if (d->flags & RL_PF_META_BUILT) {
      if (f)
        obj = &f->p; /* what the method derived (variant under a pipeline, seq_len) */
      else if (!(d->flags & RL_PF_META_ALWAYS))
        continue;
    }
    if ((d->flags & RL_PF_META_SET) && !(p->set & d->bit))
      continue;
    if ((d->flags & RL_PF_META_NONZERO) && d->kind == RL_PK_REAL &&
        *(const double *)(const void *)((const char *)obj + d->offset) == 0)
      continue;
    if ((d->meta_if && !d->meta_if(obj)) ||
        !rl_param_when_holds(d, rl_schedule_param_list(), obj, NULL, NULL, 0))
      continue;
    rl_param_meta_key(d, key, sizeof key);
    rl_param_format(d, obj, buf, sizeof buf);
    rl_out_meta(out, key, buf);
  }
  if (cfg.this_run)
    config_meta(out);
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

/* "(linear, ntk, yarn; default 1)": the methods that take d (those with
 * a bit), the value of another parameter it needs ("yarn with --ramp
 * code"), and its default where it has one. */
static void help_tail(const rl_param *d, char *buf, size_t n)
{
  size_t len = 0, methods = 0, all = 1;
  buf[0] = 0;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++)
    all &= rl_schedule_param_applies(d, *t);
  if (!all)
    for (const rl_schedule_type *const *t = rl_schedule_types(); *t && len < n; t++)
      if (rl_schedule_param_applies(d, *t))
        len += (size_t)snprintf(buf + len, n - len, "%s%s", methods++ ? ", " : "(", (*t)->name);
  const rl_param *k;
  const char *want;
  if (rl_param_when_split(d, rl_schedule_param_list(), &k, &want) && len < n)
    len += (size_t)snprintf(buf + len, n - len, "%swith --%s %s", methods++ ? " " : "(", k->key,
                            want);
  char dflt[128];
  rl_param_default_text(d, dflt, sizeof dflt);
  if (dflt[0] && strcmp(dflt, "none") && len < n)
    len += (size_t)snprintf(buf + len, n - len, "%sdefault %s", methods ? "; " : "(", dflt);
  if ((methods || (dflt[0] && strcmp(dflt, "none"))) && len < n)
    snprintf(buf + len, n - len, ")");
}

/* The help line already names every value (layout, variant). */
static int names_in_help(const rl_param *d)
{
  for (const char *const *n = rl_param_names(d); *n; n++)
    if (!strstr(d->help, *n))
      return 0;
  return 1;
}

void rl_sched_opts_help(FILE *fp)
{
  rl_sched_opts_help_except(fp, "");
}


void rl_sched_opts_help_except(FILE *fp, const char *skip)
{
  fputs("schedule (defaults are the core's; 'ropelab help methods' lists the methods;\n"
        "an option the method does not take is an error):\n", fp);
  char text[640], tail[320];
  rl_help_param(fp, &p_config, p_config.help);
  rl_help_param(fp, &p_layer_type, p_layer_type.help);
  for (const rl_param *const *dp = rl_schedule_param_list(); *dp; dp++) {
    const rl_param *d = *dp;
    if (rl_opt_in_list(skip, d->key, strlen(d->key)) || (d->flags & RL_PF_NO_OPTION))
      continue;
    help_tail(d, tail, sizeof tail);
    if (((d->flags & RL_PF_NAMES) || d->kind == RL_PK_ENUM) && !names_in_help(d)) {
      char names[400];
      rl_names_alternatives(rl_param_names(d), rl_param_count_names(d), names, sizeof names);
      snprintf(text, sizeof text, "%s: %s %s", d->help, names, tail);
    } else {
      snprintf(text, sizeof text, "%s %s", d->help, tail);
    }
    rl_help_param(fp, d, text);
  }
}
