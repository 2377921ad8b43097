/* scheme_opts.c: the scheme options of profile, params, matrix and
 * compare (see scheme_opts.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "scheme_opts.h"

void rl_scheme_opts_init(rl_scheme_opts *o)
{
  memset(o, 0, sizeof *o);
  rl_scheme_cfg_default(&o->cfg);
  rl_sched_opts_init(&o->sched, 1);
}

static size_t scheme_names(const char **names)
{
  size_t n = 0;
  for (const rl_scheme_info *i = rl_scheme_list(); i->name && n < RL_SCHEMES_MAX; i++)
    names[n++] = i->name;
  return n;
}

static int unknown_scheme(const char *cmd, const char *arg, const char *word)
{
  const char *names[RL_SCHEMES_MAX];
  size_t n = scheme_names(names);
  if (!*word)
    return rl_usage(cmd, "invalid --scheme '%s': empty scheme name", arg);
  size_t s = rl_suggest(word, names, n);
  if (s < n)
    return rl_usage(cmd, "invalid --scheme '%s': unknown scheme '%s'; did you mean '%s'?", arg,
                    word, names[s]);
  char all[400] = "";
  for (size_t k = 0; k < n; k++) {
    if (k)
      strcat(all, ", ");
    strcat(all, names[k]);
  }
  return rl_usage(cmd, "invalid --scheme '%s': unknown scheme '%s'; expected one of %s", arg,
                  word, all);
}

/* Split arg on commas into o->names (validated; "all" expands). */
static int parse_schemes(rl_scheme_opts *o, const char *cmd, const char *arg)
{
  if (strlen(arg) >= sizeof o->list)
    return rl_usage(cmd, "invalid --scheme '%.40s...': list too long", arg);
  strcpy(o->list, arg);
  o->nnames = 0;
  char *p = o->list;
  for (;;) {
    char *e = strchr(p, ',');
    if (e)
      *e = 0;
    if (!strcmp(p, "all")) {
      for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
        int have = 0; /* "all" adds the schemes not listed yet: no duplicate columns */
        for (size_t k = 0; k < o->nnames; k++)
          have |= !strcmp(o->names[k], i->name);
        if (have)
          continue;
        if (o->nnames >= RL_SCHEMES_MAX)
          return rl_usage(cmd, "invalid --scheme '%s': too many schemes", arg);
        o->names[o->nnames++] = i->name;
      }
    } else {
      if (!rl_scheme_find(p))
        return unknown_scheme(cmd, arg, p);
      int have = 0;
      for (size_t k = 0; k < o->nnames; k++)
        have |= !strcmp(o->names[k], p);
      if (have && strstr(arg, "all"))
        goto next; /* already brought in by "all" */
      if (have)
        return rl_usage(cmd, "invalid --scheme '%s': scheme '%s' given twice", arg, p);
      if (o->nnames >= RL_SCHEMES_MAX)
        return rl_usage(cmd, "invalid --scheme '%s': too many schemes", arg);
      o->names[o->nnames++] = rl_scheme_find(p)->name;
    }
  next:
    if (!e)
      return 0;
    p = e + 1;
  }
}

#define LONGOPTS_MAX 256

const struct option *rl_scheme_longopts(const struct option *own)
{
  static struct option with[LONGOPTS_MAX];
  size_t n = 0;
  for (const struct option *o = own; o && o->name && n < LONGOPTS_MAX - 1; o++)
    with[n++] = *o;
  rl_longopts_declared(with, n, LONGOPTS_MAX, rl_scheme_param_list(), RL_SOPT_FIRST,
                       RL_SOPT_LAST);
  return rl_sched_longopts(with);
}

int rl_scheme_optval(const char *key)
{
  const rl_param *const *list = rl_scheme_param_list();
  for (int k = 0; list[k]; k++)
    if (!strcmp(list[k]->key, key))
      return RL_SOPT_FIRST + k;
  return -1;
}

int rl_scheme_opt(rl_scheme_opts *o, const char *cmd, int opt, const char *arg)
{
  int r = rl_sched_opt(&o->sched, cmd, opt, arg);
  if (r)
    return r;
  if (opt == RL_SOPT_SCHEME) {
    o->scheme_set = 1;
    r = parse_schemes(o, cmd, arg);
    return r ? RL_OPT_FAILED(r) : RL_OPT_TAKEN;
  }
  if (opt < RL_SOPT_FIRST || opt > RL_SOPT_LAST)
    return RL_OPT_NOT_MINE;
  const rl_param *const *list = rl_scheme_param_list();
  for (int k = 0; k <= opt - RL_SOPT_FIRST; k++)
    if (!list[k])
      return RL_OPT_NOT_MINE;
  char err[RL_ERR_MAX];
  if (rl_param_parse(list[opt - RL_SOPT_FIRST], &o->cfg, arg ? arg : "", err, sizeof err))
    return RL_OPT_FAILED(rl_usage(cmd, "%s", err));
  o->given[opt - RL_SOPT_FIRST] = 1;
  return RL_OPT_TAKEN;
}


/* "alibi" or "alibi, t5": the chosen schemes, for a message */
static void chosen(const rl_scheme_opts *o, char *buf, size_t n)
{
  size_t len = 0;
  buf[0] = 0;
  for (size_t k = 0; k < o->nnames && len < n; k++)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : "", o->names[k]);
}

/* An option that none of the chosen schemes takes is an error, never
 * silently ignored (matrix --scheme alibi --buckets 8): the scheme
 * options by their declaration's `only`; the schedule's by what reads it
 * (rope and rope2d rotate by it; sinusoidal and xl take its base too). */
static int unused(const rl_scheme_opts *o, const char *cmd)
{
  char names[256];
  chosen(o, names, sizeof names);
  const rl_param *const *list = rl_scheme_param_list();
  for (size_t k = 0; list[k]; k++) {
    if (!o->given[k] || !list[k]->only)
      continue;
    int any = 0;
    for (size_t j = 0; j < o->nnames; j++)
      any |= rl_opt_in_list(list[k]->only, o->names[j], strlen(o->names[j]));
    if (!any) {
      char takers[128];
      rl_opt_list_words(list[k]->only, takers, sizeof takers);
      return rl_usage(cmd, "--%s does not apply to scheme%s '%s' (it is for %s)", list[k]->key,
                      o->nnames > 1 ? "s" : "", names, takers);
    }
  }
  int rotates = 0, takes_base = 0;
  for (size_t j = 0; j < o->nnames; j++) {
    const rl_scheme_info *i = rl_scheme_find(o->names[j]);
    rotates |= i && (i->flags & RL_SCHEME_ROTATION);
    takes_base |= rl_opt_in_list("sinusoidal xl", o->names[j], strlen(o->names[j]));
  }
  if (rotates)
    return 0;
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++) {
    if (!strcmp((*d)->key, "dim") || !rl_schedule_param_given(&o->sched.p, *d))
      continue;
    if (!strcmp((*d)->key, "base") && takes_base)
      continue;
    return rl_usage(cmd, "--%s does not apply to scheme%s '%s' (it is for rope and rope2d%s)",
                    (*d)->key, o->nnames > 1 ? "s" : "", names,
                    !strcmp((*d)->key, "base") ? ", and the base of sinusoidal and xl" : "");
  }
  return 0;
}

int rl_scheme_opt_default(rl_scheme_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                          const struct option *longopts)
{
  int r = c == '?' || c == ':' ? 0 : rl_scheme_opt(o, cmd, c, optarg);
  if (rl_opt_failed(r))
    return rl_opt_exit_code(r);
  return r ? 0 : rl_opt_default(co, cmd, c, argv, longopts);
}

int rl_scheme_opts_finish(rl_scheme_opts *o, const char *cmd, size_t max, const char *dflt)
{
  int r;
  if (!o->scheme_set) {
    if (!dflt)
      return rl_usage(cmd, "option '--scheme' is required (see 'ropelab help %s')", cmd);
    if ((r = parse_schemes(o, cmd, dflt)))
      return r;
  }
  if (o->nnames > max)
    return rl_usage(cmd, "invalid --scheme '%s': expected one scheme", o->list);
  int rotates = 0;
  for (size_t j = 0; j < o->nnames; j++) {
    const rl_scheme_info *i = rl_scheme_find(o->names[j]);
    rotates |= i && (i->flags & RL_SCHEME_ROTATION);
  }
  if (rl_sched_config_given() && !rotates) {
    char names[256];
    chosen(o, names, sizeof names);
    return rl_usage(cmd, "--config does not apply to scheme%s '%s' (it is for rope and rope2d)",
                    o->nnames > 1 ? "s" : "", names);
  }
  if ((r = rl_sched_config_apply(&o->sched, cmd)))
    return r;
  if (o->sched.p.rot > o->sched.p.dim)
    return rl_usage(cmd, "invalid --rot '%s': expected an even integer <= --dim (%zu)",
                    o->sched.rot_arg, o->sched.p.dim);
  o->cfg.dim = o->sched.p.dim;
  o->cfg.rope = o->sched.p; /* rot 0 stays "all": rope2d builds its own halves */
  if (o->cfg.head >= o->cfg.heads)
    return rl_usage(cmd, "invalid --head '%zu': expected a head below --heads (%zu)",
                    o->cfg.head, o->cfg.heads);
  if ((r = unused(o, cmd)))
    return r;
  if (o->cfg.param_file && o->nnames != 1)
    return rl_usage(cmd, "--params needs exactly one --scheme (the file is that scheme's table)");
  return 0;
}

int rl_scheme_opts_end(rl_scheme_opts *o, const rl_common *co, const char *cmd, int argc,
                       char **argv, void (*help)(FILE *fp), size_t max, const char *dflt)
{
  int r = rl_opt_end(co, cmd, argc, argv, help);
  return r ? r : rl_scheme_opts_finish(o, cmd, max, dflt);
}

int rl_scheme_opts_alloc(const rl_scheme_opts *o, const char *cmd, const char *name,
                         rl_scheme **out)
{
  char err[RL_ERR_MAX];
  rl_status st = rl_scheme_alloc(name, &o->cfg, out, err);
  if (!st) {
    rl_scheme_table t;
    if (o->cfg.param_file && rl_scheme_get_table(*out, &t)) {
      rl_scheme_free(*out);
      *out = NULL;
      return rl_usage(cmd, "invalid --params '%s': scheme '%s' has no parameter table",
                      o->cfg.param_file, name);
    }
    return 0;
  }
  if (!err[0])
    snprintf(err, sizeof err, "%s", rl_strerror(st));
  /* an unreadable file (or memory) is a runtime failure, exit 3; a
   * malformed file or a configuration the scheme rejects is bad input,
   * exit 2 */
  if (st == RL_EIO || st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", err);
  if (st == RL_EFORMAT)
    return rl_usage(cmd, "%s", err);
  return rl_usage(cmd, "cannot build scheme '%s': %s", name, err);
}

void rl_scheme_opts_meta(const rl_scheme_opts *o, rl_out *out)
{
  rl_scheme_opts_meta_with(o, out, NULL, NULL);
}

void rl_scheme_opts_meta_with(const rl_scheme_opts *o, rl_out *out,
                              void (*sched)(void *arg, rl_out *out), void *arg)
{
  const rl_scheme_cfg *c = &o->cfg;
  char names[600] = "", key[64], val[400];
  for (size_t k = 0; k < o->nnames; k++) {
    if (k)
      strcat(names, ",");
    strcat(names, o->names[k]);
  }
  rl_out_meta(out, "scheme", names);
  if (sched)
    sched(arg, out);
  else
    rl_sched_meta(&c->rope, NULL, out);
  for (const rl_param *const *d = rl_scheme_param_list(); *d; d++) {
    if (((*d)->flags & RL_PF_NO_META) || ((*d)->meta_if && !(*d)->meta_if(c)))
      continue;
    rl_param_meta_key(*d, key, sizeof key);
    rl_param_format(*d, c, val, sizeof val);
    rl_out_meta(out, key, val);
  }
}

void rl_scheme_opts_help(FILE *fp)
{
  rl_sched_opts_help(fp);
  fputs("scheme (defaults are the core's; the schedule above is rope's and rope2d's,\n"
        "its --dim every scheme's, its --base sinusoidal's and xl's):\n", fp);
  char text[640], dflt[128], names[400];
  for (const rl_param *const *dp = rl_scheme_param_list(); *dp; dp++) {
    const rl_param *d = *dp;
    if (d->flags & RL_PF_NO_OPTION)
      continue;
    rl_param_default_text(d, dflt, sizeof dflt);
    names[0] = 0;
    if (d->kind == RL_PK_ENUM) {
      rl_names_alternatives(rl_param_names(d), rl_param_count_names(d), names + 2,
                            sizeof names - 2);
      names[0] = ':', names[1] = ' ';
    }
    if (d->kind == RL_PK_FLAG || !dflt[0])
      snprintf(text, sizeof text, "%s%s", d->help, names);
    else
      snprintf(text, sizeof text, "%s%s (default %s)", d->help, names, dflt);
    rl_help_param(fp, d, text);
  }
  fputc('\n', fp);
}

int rl_scheme_overflow(const char *cmd, const char *name, const char *param_file,
                       const char *where)
{
  if (param_file)
    return rl_usage(cmd, "non-finite %s of scheme '%s': the values of --params '%s' are too "
                         "large for it; expected smaller values (experiments/params/README.md)",
                    where, name, param_file);
  return rl_runtime(cmd, "internal error: non-finite %s of scheme '%s'", where, name);
}

int rl_scheme_fail(const rl_scheme *s, const char *cmd, rl_status st, double pos,
                   const char *what)
{
  const rl_scheme_info *i = rl_scheme_get_info(s);
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  /* learned and tupe: absolute tables, the only schemes with a length */
  int table = (i->flags & RL_SCHEME_ABSOLUTE) && (i->flags & RL_SCHEME_LEARNED);
  if (st == RL_EOVERFLOW) {
    char where[64];
    snprintf(where, sizeof where, "result at position %.17g", pos);
    return rl_scheme_overflow(cmd, i->name, c->param_file, where);
  }
  if (st == RL_ERANGE && (!isfinite(pos) || fabs(pos) > RL_POS_MAX))
    return rl_usage(cmd, "invalid %s: position %.17g is beyond the accurate range +-%.0f", what,
                    pos, RL_POS_MAX);
  if (st == RL_ERANGE && table && (pos < 0 || pos >= (double)c->max_len))
    return rl_usage(cmd, "invalid %s: position %.17g is outside 0..%zu of scheme '%s' (--max-len "
                         "%zu with --past error; try --past clamp or wrap)",
                    what, pos, c->max_len - 1, i->name, c->max_len);
  if (st == RL_ERANGE && pos < 0)
    return rl_usage(cmd, "invalid %s: position %.17g: scheme '%s' needs positions >= 0", what,
                    pos, i->name);
  if (st == RL_EINVAL)
    return rl_usage(cmd, "invalid %s: position %.17g: scheme '%s' needs %s positions", what, pos,
                    i->name, (i->flags & RL_SCHEME_2D) ? "non-negative integer" : "integer");
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", rl_strerror(st));
  return rl_runtime(cmd, "internal error at position %.17g: %s", pos, rl_strerror(st));
}

int rl_scheme_probe(const rl_scheme *s, const char *cmd, double pos, const char *what)
{
  size_t len = rl_scheme_prep_len(s);
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  double *x = calloc(c->dim + len, sizeof *x);
  if (!x)
    return rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
  rl_status st = rl_scheme_prepare(s, 0, RL_ROLE_QUERY, pos, x, x + c->dim);
  if (!st)
    st = rl_scheme_prepare(s, 0, RL_ROLE_KEY, pos, x, x + c->dim);
  free(x);
  return st ? rl_scheme_fail(s, cmd, st, pos, what) : 0;
}
