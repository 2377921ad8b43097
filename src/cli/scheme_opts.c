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

static int size_opt(const char *cmd, const char *opt, const char *arg, unsigned long long lo,
                    unsigned long long hi, size_t *out)
{
  unsigned long long v;
  int r = rl_opt_uint(cmd, opt, arg, lo, hi, &v);
  if (!r)
    *out = (size_t)v;
  return r;
}

int rl_scheme_opt(rl_scheme_opts *o, const char *cmd, int opt, const char *arg)
{
  rl_scheme_cfg *c = &o->cfg;
  unsigned long long v;
  int r = rl_sched_opt(&o->sched, cmd, opt, arg);
  if (r)
    return r;
  switch (opt) {
  case RL_SOPT_SCHEME:
    o->scheme_set = 1;
    r = parse_schemes(o, cmd, arg);
    break;
  case RL_SOPT_HEADS:
    r = size_opt(cmd, "--heads", arg, 1, 4096, &c->heads);
    break;
  case RL_SOPT_HEAD:
    o->head_set = 1;
    r = size_opt(cmd, "--head", arg, 0, 4095, &o->head);
    break;
  case RL_SOPT_WIDTH:
    r = size_opt(cmd, "--width", arg, 1, 1u << 30, &c->width);
    break;
  case RL_SOPT_MAX_LEN:
    r = size_opt(cmd, "--max-len", arg, 1, 1u << 24, &c->max_len);
    break;
  case RL_SOPT_PAST:
    if (rl_past_policy_parse(arg, &c->past))
      r = rl_usage(cmd, "invalid --past '%s': expected error, clamp or wrap", arg);
    break;
  case RL_SOPT_BUCKETS:
    r = size_opt(cmd, "--buckets", arg, 2, 1u << 20, &c->num_buckets);
    break;
  case RL_SOPT_MAX_DISTANCE:
    r = size_opt(cmd, "--max-distance", arg, 1, 1ull << 40, &c->max_distance);
    break;
  case RL_SOPT_CAUSAL: c->bidirectional = 0; break;
  case RL_SOPT_BIDIRECTIONAL: c->bidirectional = 1; break;
  case RL_SOPT_POSITION_BUCKETS:
    r = size_opt(cmd, "--position-buckets", arg, 0, 1u << 20, &c->position_buckets);
    break;
  case RL_SOPT_MAX_REL:
    r = size_opt(cmd, "--max-relative-positions", arg, 1, 1u << 20,
                 &c->max_relative_positions);
    break;
  case RL_SOPT_SEED:
    r = rl_opt_seed(cmd, arg, &v);
    if (!r)
      c->seed = (unsigned long)v;
    break;
  case RL_SOPT_IDENTITY: c->identity = 1; break;
  case RL_SOPT_PARAMS:
    if (!*arg)
      r = rl_usage(cmd, "invalid --params '': expected a file name");
    c->param_file = arg;
    break;
  case RL_SOPT_NO_TUPE_REL: c->tupe_rel = 0; break;
  default: return 0;
  }
  return r ? 0x100 + r : 1;
}

int rl_scheme_opt_default(rl_scheme_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                          const struct option *longopts)
{
  int r = c == '?' || c == ':' ? 0 : rl_scheme_opt(o, cmd, c, optarg);
  if (r > 1)
    return r - 0x100;
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
  if (o->sched.p.rot > o->sched.p.dim)
    return rl_usage(cmd, "invalid --rot '%s': expected an even integer <= --dim (%zu)",
                    o->sched.rot_arg, o->sched.p.dim);
  o->cfg.dim = o->sched.p.dim;
  o->cfg.rope = o->sched.p; /* rot 0 stays "all": rope2d builds its own halves */
  if (o->head >= o->cfg.heads)
    return rl_usage(cmd, "invalid --head '%zu': expected a head below --heads (%zu)", o->head,
                    o->cfg.heads);
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
  char err[RL_SCHEME_ERR_MAX];
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
  const rl_scheme_cfg *c = &o->cfg;
  char names[600] = "";
  for (size_t k = 0; k < o->nnames; k++) {
    if (k)
      strcat(names, ",");
    strcat(names, o->names[k]);
  }
  rl_out_meta(out, "scheme", names);
  rl_sched_meta(&c->rope, NULL, out);
  rl_out_meta_uint(out, "heads", c->heads);
  rl_out_meta_uint(out, "head", o->head);
  rl_out_meta_uint(out, "width", c->width);
  rl_out_meta_uint(out, "max_len", c->max_len);
  rl_out_meta(out, "past", rl_past_policy_name(c->past));
  rl_out_meta_uint(out, "buckets", c->num_buckets);
  rl_out_meta_uint(out, "max_distance", c->max_distance);
  rl_out_meta(out, "t5_direction", c->bidirectional ? "bidirectional" : "causal");
  rl_out_meta_uint(out, "position_buckets", c->position_buckets);
  rl_out_meta_uint(out, "max_relative_positions", c->max_relative_positions);
  rl_out_meta(out, "tupe_rel", c->tupe_rel ? "yes" : "no");
  rl_out_meta_uint(out, "seed", c->seed);
  rl_out_meta(out, "projections", c->identity ? "identity" : "random N(0,1/d)");
  if (c->param_file)
    rl_out_meta(out, "params", c->param_file);
}

void rl_scheme_opts_help(FILE *fp)
{
  rl_sched_opts_help(fp);
  fputs("scheme (defaults: the core's rl_scheme_cfg_default; the schedule above is rope's\n"
        "and rope2d's, its --dim every scheme's, its --base sinusoidal's and xl's):\n"
        "      --heads H      number of heads (default 8)\n"
        "      --head h       the head shown, 0 <= h < H (default 0)\n"
        "      --seed S       seed of every drawn parameter, 1..2^32-1 (default 1)\n"
        "      --identity     W_q = W_k = I instead of random projections\n"
        "      --params FILE  the scheme's table from FILE; one scheme only.  Format:\n"
        "                     experiments/params/README.md.  Unreadable: exit 3;\n"
        "                     malformed: exit 2\n"

        "      --width W      rope2d: position p is row p/W, column p mod W (default 32)\n"
        "      --max-len N    learned, tupe: table length (default 512)\n"
        "      --past P       learned, tupe past --max-len: error, clamp or wrap\n"
        "                     (default error)\n"
        "      --buckets N    t5, tupe: number of buckets (default 32)\n"
        "      --max-distance N  t5, tupe: distance of the last bucket (default 128)\n"
        "      --causal, --bidirectional  t5 decoder or encoder buckets\n"
        "                     (default bidirectional)\n"
        "      --position-buckets N  deberta log buckets, 0 for none (default 256)\n"
        "      --max-relative-positions N  deberta (default 512)\n"
        "      --no-tupe-rel  tupe without its T5-bucket bias (TUPE-A)\n"
        "\n",
        fp);
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
