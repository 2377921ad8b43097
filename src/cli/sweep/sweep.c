/* sweep.c: see sweep.h.  The steps of a sweep:
 *   1. scan argv: the layer's own options (--shard, --jobs, --meta) come
 *      out, each swept option's value is expanded into its list;
 *   2. a first pass runs every point with output captured (rl_out's
 *      capture mode): it validates every point before anything is
 *      written, and collects each point's metadata and header, so that
 *      the metadata (once, for the whole product) and the header come
 *      first and are the same in every shard;
 *   3. the points (all, or the shard's contiguous part) run again, their
 *      lines written with the swept values in front (rl_out's point
 *      mode): in this process, or in --jobs child processes whose output
 *      goes to unlinked temp files copied out in point order, so the
 *      bytes do not depend on the number of jobs. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "cksum.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "out_format.h"
#include "rowfmt.h"
#include "facet.h"
#include "json.h"
#include "path.h"
#include "plot.h"
#include "sweep.h"
#include "threads.h"

#define MAX_PARAMS 16
#define MAX_POINTS 1000000 /* the product; metadata of every point is kept */

typedef struct param {
  const char *opt; /* long name, no "--" */
  size_t optlen;
  char col[64];    /* column name: the option with '-' as '_' */
  int slot;        /* index in the point argv of the value, or of "--opt=value" */
  int inline_eq;
  int numeric;
  char **vals;     /* texts, as passed to the command and written in the column */
  size_t n;
  char *buf;       /* "--opt=value" for inline_eq */
  int opt_slot;    /* index of "--opt" (= slot for inline_eq) */
  /* a schedule parameter that not every method takes: under a --method
   * sweep, a point whose method does not take it runs without it and
   * shows an empty cell (the comparison's baseline joins the table) */
  const rl_param *decl;
  int in_header;   /* the command writes this column itself (bound's dim,
                      base): no second column in front */
} param;

/* a method-dependent option given with one value, kept aside until the
 * scan knows whether --method is swept */
typedef struct fixed_opt {
  const char *opt;
  size_t len;
  int slot, opt_slot, inline_eq, numeric;
  const char *val;
} fixed_opt;

typedef struct sweep {
  const struct rl_cmd *cmd;
  const rl_sweep_spec *spec;
  char **rest;   /* argv without the layer's options (argv[0] first) */
  char *drop;    /* rest[i] left out of the points' argv (no-meta, progress, ...) */
  int nrest;
  param par[MAX_PARAMS];
  size_t npar;
  const char *output;
  int plot, help, no_meta, no_header, progress, meta_mode, jobs;
  const char *plot_path;
  unsigned long long shard_k, shard_n;
  int sharded;
  size_t points;
  char **pargv; /* one point's argv */
  int pargc;
  char *prefix; /* one point's swept values, each followed by ',' */
  char **full;  /* abbreviated options written out (see expand), to free */
  int nfull;
  fixed_opt fixed[MAX_PARAMS];
  size_t nfixed;
  char *skip;   /* per point: rest[i] left out (a method that does not take it) */
  /* the points that run, in order: a point that repeats another (see
   * point_repeats) is left out of the runs, the shards, the progress and
   * the metadata; nd of them */
  size_t *order, nd;
} sweep;

/* The schedule declaration of opt when some method does not take it, or
 * it applies only with another parameter's value (its when). */
static const rl_param *method_dependent(const char *opt, size_t len)
{
  char key[64];
  snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), opt);
  const rl_param *d = rl_schedule_param_find(key);
  if (!d)
    return NULL;
  if (d->when)
    return d;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++)
    if (!rl_schedule_param_applies(d, *t))
      return d;
  return NULL;
}

/* name (len bytes) is a word of the space-separated list */

static int is(const char *name, size_t len, const char *word)
{
  return strlen(word) == len && !strncmp(name, word, len);
}

/* a value following an option without '=': not itself an option (a
 * negative number still is a value) */
static int value_like(const char *s)
{
  if (s[0] != '-' || !s[1])
    return 1;
  return (s[1] >= '0' && s[1] <= '9') || s[1] == '.';
}

int rl_shard_parse(const char *cmd, const char *arg, unsigned long long *k,
                   unsigned long long *n)
{
  const char *slash = strchr(arg, '/');
  char kb[32];
  if (slash && (size_t)(slash - arg) < sizeof kb) {
    memcpy(kb, arg, (size_t)(slash - arg));
    kb[slash - arg] = 0;
    const char *p = kb;
    while (*p >= '0' && *p <= '9')
      p++;
    const char *q = slash + 1;
    while (*q >= '0' && *q <= '9')
      q++;
    if (p != kb && !*p && q != slash + 1 && !*q) {
      *k = strtoull(kb, NULL, 10);
      *n = strtoull(slash + 1, NULL, 10);
      if (*k >= 1 && *k <= *n && *n <= MAX_POINTS)
        return 0;
    }
  }
  return rl_usage(cmd, "invalid --shard '%s': expected K/N with 1 <= K <= N <= %d", arg,
                  MAX_POINTS);
}

void rl_shard_part(size_t total, unsigned long long k, unsigned long long n, size_t *lo,
                   size_t *hi)
{
  *lo = (size_t)((unsigned long long)total * (k - 1) / n);
  *hi = (size_t)((unsigned long long)total * k / n);
}

static int parse_shard(sweep *s, const char *arg)
{
  int r = rl_shard_parse(s->cmd->name, arg, &s->shard_k, &s->shard_n);
  s->sharded = !r;
  return r;
}

/* The value of option argv[*i] ("--name=value" or "--name value"), or a
 * usage error when it is missing. */
static int take_value(sweep *s, char **argv, int argc, int *i, const char *eq, const char *name,
                      const char **val)
{
  if (eq) {
    *val = eq + 1;
    return 0;
  }
  if (*i + 1 >= argc)
    return rl_usage(s->cmd->name, "option '--%s' requires a value", name);
  *val = argv[++*i];
  return 0;
}

static int not_sweepable(const char *cmd, const char *opt, size_t len, const char *val)
{
  return rl_usage(cmd, "--%.*s does not sweep in %s: give one value, not '%s' (see 'ropelab "
                       "help %s')", (int)len, opt, cmd, val, cmd);
}

/* A command that does not sweep: a numeric list is refused in so many
 * words, except in the options whose lists are the command's own (own). */
static int check_unswept(const struct rl_cmd *cmd, const char *own, int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--"))
      break;
    if (strncmp(a, "--", 2))
      continue;
    const char *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    if (rl_opt_in_list(own, a + 2, len))
      continue;
    const char *val = eq ? eq + 1 : i + 1 < argc && value_like(argv[i + 1]) ? argv[i + 1] : NULL;
    double *v = NULL;
    size_t n = 0;
    if (val && strpbrk(val, ",:") &&
        rl_values_parse(val, MAX_POINTS, &v, &n, NULL, 0) == RL_OK && n >= 2) {
      free(v);
      return not_sweepable(cmd->name, a + 2, len, val);
    }
    free(v);
  }
  return 0;
}

static int add_param(sweep *s, const char *opt, size_t len, int numeric, int slot, int inline_eq,
                     const char *val)
{
  const char *name = s->cmd->name;
  for (size_t j = 0; j < s->npar; j++)
    if (s->par[j].optlen == len && !strncmp(s->par[j].opt, opt, len))
      return rl_usage(name, "--%.*s is swept twice: give one list", (int)len, opt);
  if (s->npar == MAX_PARAMS)
    return rl_usage(name, "more than %d swept options", MAX_PARAMS);
  param *p = &s->par[s->npar++];
  p->opt = opt;
  p->optlen = len;
  snprintf(p->col, sizeof p->col, "%.*s", (int)len, opt);
  for (char *c = p->col; *c; c++)
    if (*c == '-')
      *c = '_';
  p->slot = slot;
  p->inline_eq = inline_eq;
  p->numeric = numeric;
  if (numeric) {
    double *v = NULL;
    char flag[80];
    snprintf(flag, sizeof flag, "--%.*s", (int)len, opt);
    int r = rl_opt_values(name, flag, val, MAX_POINTS, &v, &p->n);
    if (r)
      return r;
    p->vals = calloc(p->n, sizeof *p->vals);
    for (size_t k = 0; p->vals && k < p->n; k++) {
      char b[RL_NUMFMT_MAX];
      rl_numfmt(v[k], b);
      if (!(p->vals[k] = strdup(b))) {
        free(v);
        return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
      }
    }
    free(v);
    if (!p->vals)
      return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
  } else {
    size_t n = 1;
    for (const char *c = val; *c; c++)
      n += *c == ',';
    p->vals = calloc(n, sizeof *p->vals);
    if (!p->vals)
      return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
    for (const char *c = val;; p->n++) {
      const char *e = strchr(c, ',');
      size_t l = e ? (size_t)(e - c) : strlen(c);
      if (!l)
        return rl_usage(name, "invalid --%.*s '%s': empty name in the list", (int)len, opt,
                        val);
      if (!(p->vals[p->n] = strndup(c, l)))
        return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
      if (!e) {
        p->n++;
        break;
      }
      c = e + 1;
    }
  }
  size_t maxl = 0;
  for (size_t k = 0; k < p->n; k++)
    if (strlen(p->vals[k]) > maxl)
      maxl = strlen(p->vals[k]);
  if (inline_eq && !(p->buf = malloc(len + maxl + 4)))
    return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
  return 0;
}

/* The options the layer itself reads, besides the command's sweepable
 * ones (spec numbers, names, lists). */
static const char layer_opts[] = "shard jobs meta help no-meta no-header progress quiet "
                                 "output plot";

/* An abbreviated long option (getopt_long takes any unique prefix:
 * --no-m for --no-meta) written out in full, so that the layer sees what
 * the command will: it was passed on unrecognised, and --no-m, --no-head
 * or --sha were silently ignored by the sweep.  *a is replaced by a
 * malloc'd "--full[=value]" (kept in s->full); an ambiguous prefix of
 * the options the layer knows is refused as getopt_long refuses it.  A
 * prefix of none of them is the command's own business. */
static int expand(sweep *s, char **a)
{
  const char *o = *a + 2, *eq = strchr(o, '=');
  size_t len = eq ? (size_t)(eq - o) : strlen(o);
  const char *lists[] = {layer_opts, s->spec->numbers, s->spec->names, s->spec->lists};
  if (!len)
    return 0;
  for (size_t k = 0; k < 4; k++)
    if (rl_opt_in_list(lists[k], o, len))
      return 0; /* exact: getopt_long prefers it too */
  int n = 0;
  const char *w = NULL;
  size_t wl = 0;
  char seen[512] = ""; /* the matches, once each (the lists share words) */
  size_t sl = 0;
  for (size_t k = 0; k < 4; k++)
    for (const char *q = lists[k]; q && *q;) {
      while (*q == ' ')
        q++;
      const char *e = q;
      while (*e && *e != ' ')
        e++;
      size_t l = (size_t)(e - q);
      if (l > len && !strncmp(q, o, len) && !rl_opt_in_list(seen, q, l)) {
        n++, w = q, wl = l;
        if (sl + l + 2 < sizeof seen)
          sl += (size_t)snprintf(seen + sl, sizeof seen - sl, "%s%.*s", sl ? " " : "", (int)l, q);
      }
      q = e;
    }
  if (n > 1) {
    char list[600];
    size_t ll = 0;
    for (const char *p = seen; *p && ll < sizeof list;) {
      const char *e = strchr(p, ' ');
      size_t l = e ? (size_t)(e - p) : strlen(p);
      ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s--%.*s", ll ? ", " : "", (int)l, p);
      p += l + (e != NULL);
    }
    return rl_usage(s->cmd->name, "option '--%.*s' is ambiguous: %s", (int)len, o, list);
  }
  if (n == 0)
    return 0;
  size_t rest = eq ? strlen(eq) : 0;
  char *f = malloc(wl + rest + 3);
  char **nf = realloc(s->full, ((size_t)s->nfull + 1) * sizeof *nf);
  if (!f || !nf) {
    free(f);
    if (nf)
      s->full = nf;
    return rl_runtime(s->cmd->name, "%s", rl_strerror(RL_ENOMEM));
  }
  s->full = nf;
  sprintf(f, "--%.*s%s", (int)wl, w, eq ? eq : "");
  s->full[s->nfull++] = f;
  *a = f;
  return 0;
}

/* Step 1: the layer's options out of argv, the swept ones found. */
static int scan(sweep *s, int argc, char **argv)
{
  const char *name = s->cmd->name;
  const rl_sweep_spec *sp = s->spec;
  s->rest = calloc((size_t)argc + 2, sizeof *s->rest);
  s->drop = calloc((size_t)argc + 2, 1);
  if (!s->rest || !s->drop)
    return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
  s->rest[s->nrest++] = argv[0];
  int r;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    if (!strcmp(a, "--")) {
      while (i < argc)
        s->rest[s->nrest++] = argv[i++];
      break;
    }
    if (!strcmp(a, "-h")) {
      s->help = 1;
    } else if (!strncmp(a, "-o", 2)) {
      if (!a[2] && i + 1 >= argc)
        return rl_usage(name, "option '-o' requires a value");
      s->rest[s->nrest++] = argv[i];
      s->output = a[2] ? a + 2 : argv[++i];
      if (!a[2])
        s->rest[s->nrest++] = argv[i];
      continue;
    } else if (!strncmp(a, "--", 2)) {
      if ((r = expand(s, &a)))
        return r;
      const char *o = a + 2, *eq = strchr(o, '='), *val = NULL;
      size_t len = eq ? (size_t)(eq - o) : strlen(o);
      int start = i;
      if (is(o, len, "shard") || is(o, len, "jobs")) {
        if ((r = take_value(s, argv, argc, &i, eq, is(o, len, "shard") ? "shard" : "jobs", &val)))
          return r;
        /* neither changes a number: left out of '# command=' */
        rl_out_argv_skip(argv + start, i - start + 1);
        if (is(o, len, "shard")) {
          if (s->sharded) /* the last one would have won, silently */
            return rl_usage(name, "--shard given twice ('%s'): give it once", val);
          if ((r = parse_shard(s, val)))
            return r;
        } else {
          unsigned long long j;
          if ((r = rl_opt_uint(name, "--jobs", val, 1, RL_THREADS_MAX, &j)))
            return r;
          s->jobs = (int)j;
        }
        continue;
      }
      if (is(o, len, "meta")) {
        static const char *const modes[] = {"comments", "json", "none"};
        if ((r = take_value(s, argv, argc, &i, eq, "meta", &val)) ||
            (r = rl_opt_enum(name, "--meta", val, modes, 3, &s->meta_mode)))
          return r;
        continue;
      }
      int sweepable_num = rl_opt_in_list(sp->numbers, o, len),
          sweepable_name = rl_opt_in_list(sp->names, o, len);
      if (is(o, len, "help")) {
        s->help = 1;
      } else if (is(o, len, "no-meta") || is(o, len, "no-header") || is(o, len, "progress") ||
                 is(o, len, "quiet")) {
        s->drop[s->nrest] = 1;
        if (is(o, len, "no-meta"))
          s->no_meta = 1;
        else if (is(o, len, "no-header"))
          s->no_header = 1;
        else
          s->progress = is(o, len, "quiet") ? RL_PROGRESS_QUIET : RL_PROGRESS_FORCE;
      } else if (is(o, len, "output") || is(o, len, "plot")) {
        s->rest[s->nrest++] = a;
        if ((r = take_value(s, argv, argc, &i, eq, is(o, len, "plot") ? "plot" : "output", &val)))
          return r;
        if (!eq)
          s->rest[s->nrest++] = argv[i];
        if (is(o, len, "output")) {
          s->output = val;
        } else {
          /* a sweep draws its one table itself (rl_plot_table), not
           * each point: the option leaves the points' argv */
          s->plot = 1;
          s->plot_path = val;
          s->drop[s->nrest - 1] = 1;
          if (!eq)
            s->drop[s->nrest - 2] = 1;
        }
        continue;
      } else if (sweepable_num || sweepable_name) {
        s->rest[s->nrest++] = a;
        if (!eq && i + 1 < argc)
          s->rest[s->nrest++] = argv[++i];
        else if (!eq)
          continue; /* the command reports the missing value */
        val = eq ? eq + 1 : argv[i];
        int opt_slot = eq ? s->nrest - 1 : s->nrest - 2;
        if (sweepable_num ? strpbrk(val, ",:") != NULL : strchr(val, ',') != NULL) {
          if ((r = add_param(s, o, len, sweepable_num, s->nrest - 1, eq != NULL, val)))
            return r;
          s->par[s->npar - 1].opt_slot = opt_slot;
          s->par[s->npar - 1].decl =
              (sp->groups & RL_SWEEP_SCHED) ? method_dependent(o, len) : NULL;
        } else if ((sp->groups & RL_SWEEP_SCHED) && method_dependent(o, len) &&
                   s->nfixed < MAX_PARAMS) {
          s->fixed[s->nfixed++] =
              (fixed_opt){o, len, s->nrest - 1, opt_slot, eq != NULL, sweepable_num, val};
        }
        continue;
      } else if (!rl_opt_in_list(sp->lists, o, len)) {
        val = eq ? eq + 1 : i + 1 < argc && value_like(argv[i + 1]) ? argv[i + 1] : NULL;
        if (val && strchr(val, ','))
          return not_sweepable(name, o, len, val);
      }
    }
    s->rest[s->nrest++] = a;
  }
  /* a swept option given again elsewhere would override the point's value */
  for (size_t j = 0; j < s->npar; j++)
    for (int k = 1; k < s->nrest; k++) {
      const char *a = s->rest[k];
      if (k == s->par[j].slot || (!s->par[j].inline_eq && k == s->par[j].slot - 1) ||
          strncmp(a, "--", 2) || strncmp(a + 2, s->par[j].opt, s->par[j].optlen))
        continue;
      char c = a[2 + s->par[j].optlen];
      if (c == 0 || c == '=')
        return rl_usage(name, "--%s is swept and given again: give it once", s->par[j].col);
    }
  return 0;
}

static void free_sweep(sweep *s)
{
  for (size_t j = 0; j < s->npar; j++) {
    for (size_t k = 0; s->par[j].vals && k < s->par[j].n; k++)
      free(s->par[j].vals[k]);
    free(s->par[j].vals);
    free(s->par[j].buf);
  }
  for (int k = 0; k < s->nfull; k++)
    free(s->full[k]);
  free(s->full);
  free(s->rest);
  free(s->drop);
  free(s->pargv);
  free(s->skip);
  free(s->order);
  free(s->prefix);
}

/* index of param j at point p: the last option varies fastest */
static size_t idx_of(const sweep *s, size_t p, size_t j)
{
  for (size_t k = s->npar; k-- > j + 1;)
    p /= s->par[k].n;
  return p % s->par[j].n;
}

/* Build point p's argv (pargv) and prefix. */
static const param *method_param(const sweep *s);
static const param *when_param(const sweep *s, const rl_param *d, const char **value);

/* Param j does not apply at point p: the point's method does not take it,
 * or its declaration's condition names a swept parameter whose value at p
 * is another (--ramp code,paper --truncate yes,no: truncate at paper). */
static int inapplicable(const sweep *s, size_t p, size_t j)
{
  const rl_param *d = s->par[j].decl;
  if (!s->skip || !d)
    return 0;
  const param *mp = method_param(s);
  const rl_schedule_type *t =
      mp ? rl_schedule_type_find(mp->vals[idx_of(s, p, (size_t)(mp - s->par))]) : NULL;
  if (t && !rl_schedule_param_applies(d, t))
    return 1;
  const char *want;
  const param *wp = when_param(s, d, &want);
  return wp && strcmp(wp->vals[idx_of(s, p, (size_t)(wp - s->par))], want) != 0;
}

/* Point p repeats another: a swept option does not apply at p (the cell
 * is empty) and p has that option's second or later value, so its rows
 * would be those of the point with the first value again (`--method
 * linear,yarn --ramp code,paper`: linear once, yarn twice). */
static int point_repeats(const sweep *s, size_t p)
{
  for (size_t j = 0; j < s->npar; j++)
    if (idx_of(s, p, j) > 0 && inapplicable(s, p, j))
      return 1;
  return 0;
}

/* The cell of param j at point p: its value, or "" where it does not
 * apply (the empty cell of its rows). */
static const char *cell(const sweep *s, size_t p, size_t j)
{
  return inapplicable(s, p, j) ? "" : s->par[j].vals[idx_of(s, p, j)];
}

/* s->order: the points that do not repeat another. */
static int distinct_order(sweep *s)
{
  if (!(s->order = malloc((s->points ? s->points : 1) * sizeof *s->order)))
    return -1;
  s->nd = 0;
  for (size_t p = 0; p < s->points; p++)
    if (!point_repeats(s, p))
      s->order[s->nd++] = p;
  return 0;
}

static void set_point(sweep *s, size_t p)
{
  int n = 0;
  /* the point drops the options that do not apply to it */
  if (s->skip) {
    memset(s->skip, 0, (size_t)s->nrest);
    for (size_t j = 0; j < s->npar; j++)
      if (inapplicable(s, p, j))
        s->skip[s->par[j].opt_slot] = s->skip[s->par[j].slot] = 1;
  }
  s->pargv[n++] = s->rest[0];
  int map[1024], k0 = 1;
  /* a subcommand (bound men) stays the first argument */
  if (s->nrest > 1 && s->rest[1][0] != '-') {
    map[1] = n;
    s->pargv[n++] = s->rest[1];
    k0 = 2;
  }
  /* the sweep shows its progress after each point; where a point can run
   * for minutes (RL_SWEEP_LONG_POINTS), under --progress each running
   * point shows its own, with the time left, too */
  s->pargv[n++] = s->progress == RL_PROGRESS_FORCE && (s->spec->groups & RL_SWEEP_LONG_POINTS)
                      ? "--progress"
                      : "--quiet";
  for (int k = k0; k < s->nrest; k++) {
    map[k < 1024 ? k : 1023] = n;
    if (!s->drop[k] && !(s->skip && s->skip[k]))
      s->pargv[n++] = s->rest[k];
  }
  s->pargv[n] = NULL;
  s->pargc = n;
  char *q = s->prefix;
  *q = 0; /* every swept column may be the command's own */
  for (size_t j = 0; j < s->npar; j++) {
    param *pr = &s->par[j];
    char *v = pr->vals[idx_of(s, p, j)];
    int at = map[pr->slot < 1024 ? pr->slot : 1023];
    int shown = !pr->in_header;
    if (s->skip && s->skip[pr->slot]) {
      if (shown)
        q += sprintf(q, ","); /* not applicable: an empty cell */
      continue;
    }
    if (pr->inline_eq) {
      sprintf(pr->buf, "--%.*s=%s", (int)pr->optlen, pr->opt, v);
      s->pargv[at] = pr->buf;
    } else {
      s->pargv[at] = v;
    }
    if (shown)
      q += sprintf(q, "%s,", v);
  }
}

/* ---- every point's metadata, kept compactly ----------------------------
 * The metadata of all points is needed before the first byte is written
 * (sweep_meta).  Kept as each command's strdup'd strings, they were small
 * blocks left between the commands' large transient ones, and the heap
 * could not reuse the holes: ~85 KB of RSS per point of decay (100,000
 * points: 6.7 GB).  So each point's lines are copied into blocks mapped
 * apart from the heap, a value equal to the first point's shared. */
typedef struct arena {
  char *cur;
  size_t left;
  void **blocks;
  size_t *sizes, nb;
} arena;

static void *arena_alloc(arena *a, size_t n)
{
  n = (n + 7) & ~(size_t)7;
  if (n > a->left) {
    size_t sz = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
    void **b = realloc(a->blocks, (a->nb + 1) * sizeof *b);
    if (b)
      a->blocks = b;
    size_t *z = b ? realloc(a->sizes, (a->nb + 1) * sizeof *z) : NULL;
    if (z)
      a->sizes = z;
    void *m = z ? mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : MAP_FAILED;
    if (m == MAP_FAILED)
      return NULL;
    a->blocks[a->nb] = m;
    a->sizes[a->nb++] = sz;
    a->cur = m;
    a->left = sz;
  }
  void *r = a->cur;
  a->cur += n;
  a->left -= n;
  return r;
}

static void arena_free(arena *a)
{
  for (size_t i = 0; i < a->nb; i++)
    munmap(a->blocks[i], a->sizes[i]);
  free(a->blocks);
  free(a->sizes);
  memset(a, 0, sizeof *a);
}

static char *arena_str(arena *a, const char *s, const char *same_as)
{
  if (same_as && !strcmp(s, same_as))
    return (char *)(uintptr_t)same_as; /* the arena's own copy, never written */
  size_t l = strlen(s) + 1;
  char *d = arena_alloc(a, l);
  if (d)
    memcpy(d, s, l);
  return d;
}

/* m (malloc'd, then cleared) moved into *to in the arena; -1 without memory */
static int arena_meta(arena *a, rl_meta *m, rl_meta *to, const rl_meta *first)
{
  memset(to, 0, sizeof *to);
  to->key = arena_alloc(a, (m->n ? m->n : 1) * sizeof *to->key);
  to->val = arena_alloc(a, (m->n ? m->n : 1) * sizeof *to->val);
  int bad = !to->key || !to->val;
  for (size_t i = 0; !bad && i < m->n; i++) {
    int at = first && i < first->n && !strcmp(first->key[i], m->key[i]);
    to->key[i] = arena_str(a, m->key[i], at ? first->key[i] : NULL);
    to->val[i] = arena_str(a, m->val[i], at ? first->val[i] : NULL);
    bad = !to->key[i] || !to->val[i];
    to->n = i + 1;
  }
  to->cap = to->n;
  rl_meta_clear(m);
  return bad ? -1 : 0;
}

/* ---- the metadata of the whole sweep --------------------------------- */

static const char *value_at(const rl_meta *m, const char *key)
{
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->key[i], key))
      return m->val[i];
  return NULL;
}

static int same(const char *a, const char *b)
{
  return a == b || (a && b && !strcmp(a, b));
}

/* key's value at each point is a function of param j alone */
static int depends_on(const sweep *s, const rl_meta *metas, const char *key, size_t j)
{
  const char **first = calloc(s->par[j].n, sizeof *first);
  char *seen = calloc(s->par[j].n, 1);
  int ok = first && seen;
  for (size_t q = 0; ok && q < s->nd; q++) {
    size_t t = idx_of(s, s->order[q], j);
    const char *v = value_at(&metas[q], key);
    if (!seen[t])
      seen[t] = 1, first[t] = v;
    else if (!same(first[t], v))
      ok = 0;
  }
  free(first);
  free(seen);
  return ok;
}

static char *joined(const sweep *s, size_t j, char sep)
{
  size_t len = 1;
  for (size_t k = 0; k < s->par[j].n; k++)
    len += strlen(s->par[j].vals[k]) + 1;
  char *b = malloc(len), *q = b;
  if (!b)
    return NULL;
  *q = 0;
  for (size_t k = 0; k < s->par[j].n; k++)
    q += sprintf(q, "%s%s", k ? (char[]){sep, 0} : "", s->par[j].vals[k]);
  return b;
}

/* The lines after '# command=': sweep_*, then every key of any point, in
 * the order the points give them; a value that differs between points is
 * written per value of the one swept option it depends on, or per point. */
static int sweep_meta(const sweep *s, const rl_meta *metas, rl_meta *out)
{
  char buf[64], *b;
  if (s->npar) {
    size_t len = 1;
    for (size_t j = 0; j < s->npar; j++)
      len += strlen(s->par[j].col) + 1;
    char *cols = malloc(len);
    if (!cols)
      return -1;
    cols[0] = 0;
    for (size_t j = 0; j < s->npar; j++)
      strcat(cols, j ? "," : ""), strcat(cols, s->par[j].col);
    rl_meta_add(out, "sweep", cols);
    free(cols);
    snprintf(buf, sizeof buf, "%zu", s->nd);
    rl_meta_add(out, "sweep_points", buf);
    for (size_t j = 0; j < s->npar; j++) {
      char key[80];
      snprintf(key, sizeof key, "sweep_%s", s->par[j].col);
      if (!(b = joined(s, j, ',')))
        return -1;
      rl_meta_add(out, key, b);
      free(b);
    }
  }
  /* the union of the keys, each new one after its predecessor */
  rl_meta keys = {0};
  for (size_t p = 0; p < s->nd; p++) /* p: the position in s->order */
    for (size_t i = 0; i < metas[p].n; i++) {
      const char *k = metas[p].key[i];
      if (value_at(&keys, k))
        continue;
      size_t at = keys.n;
      if (i > 0)
        for (size_t q = 0; q < keys.n; q++)
          if (!strcmp(keys.key[q], metas[p].key[i - 1]))
            at = q + 1;
      rl_meta_add(&keys, k, "");
      if (keys.oom)
        break;
      char *kk = keys.key[keys.n - 1], *kv = keys.val[keys.n - 1];
      memmove(keys.key + at + 1, keys.key + at, (keys.n - 1 - at) * sizeof *keys.key);
      memmove(keys.val + at + 1, keys.val + at, (keys.n - 1 - at) * sizeof *keys.val);
      keys.key[at] = kk, keys.val[at] = kv;
    }
  for (size_t i = 0; i < keys.n && !keys.oom; i++) {
    const char *k = keys.key[i], *v0 = value_at(&metas[0], k);
    size_t p;
    for (p = 1; p < s->nd && same(v0, value_at(&metas[p], k)); p++)
      ;
    if (p == s->nd) { /* v0 is not NULL: the key came from some point */
      rl_meta_add(out, k, v0);
      continue;
    }
    size_t j;
    for (j = 0; j < s->npar; j++) /* the swept option itself: in its column */
      if (!strcmp(k, s->par[j].col)) {
        for (p = 0; p < s->nd && same(value_at(&metas[p], k), cell(s, s->order[p], j)); p++)
          ;
        if (p == s->nd)
          break;
      }
    if (j < s->npar)
      continue;
    for (j = 0; j < s->npar && !depends_on(s, metas, k, j); j++)
      ;
    size_t klen = strlen(k) + 4;
    for (size_t q = 0; q < s->npar; q++)
      klen += strlen(s->par[q].col) + 2 + 32;
    char *key = malloc(klen + strlen(s->prefix) + 64);
    if (!key) {
      rl_meta_clear(&keys);
      return -1;
    }
    if (j < s->npar) {
      /* per value of param j, at the first point that has it */
      for (size_t t = 0; t < s->par[j].n; t++) {
        for (p = 0; p < s->nd && idx_of(s, s->order[p], j) != t; p++)
          ;
        const char *v = p < s->nd ? value_at(&metas[p], k) : NULL;
        if (!v)
          continue;
        sprintf(key, "%s[%s:%s]", k, s->par[j].col, s->par[j].vals[t]);
        rl_meta_add(out, key, v);
      }
    } else {
      for (p = 0; p < s->nd; p++) {
        const char *v = value_at(&metas[p], k);
        if (!v)
          continue;
        char *q = key + sprintf(key, "%s[", k);
        for (size_t m = 0; m < s->npar; m++) /* a cell the point's method has not: empty */
          q += sprintf(q, "%s%s:%s", m ? "," : "", s->par[m].col, cell(s, s->order[p], m));
        strcpy(q, "]");
        rl_meta_add(out, key, v);
      }
    }
    free(key);
  }
  int oom = keys.oom || out->oom;
  rl_meta_clear(&keys);
  return oom ? -1 : 0;
}

/* The sidecar's "sweep" member: columns, values (numbers as numbers), points. */
static char *sweep_json(const sweep *s)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  if (!fp)
    return NULL;
  fputs("\"sweep\": {\"columns\": [", fp);
  for (size_t j = 0; j < s->npar; j++)
    fputs(j ? ", " : "", fp), rl_json_fput(fp, s->par[j].col);
  fputs("], \"values\": {", fp);
  for (size_t j = 0; j < s->npar; j++) {
    fputs(j ? ", " : "", fp);
    rl_json_fput(fp, s->par[j].col);
    fputs(": [", fp);
    for (size_t k = 0; k < s->par[j].n; k++) {
      fputs(k ? ", " : "", fp);
      if (s->par[j].numeric)
        fputs(s->par[j].vals[k], fp);
      else
        rl_json_fput(fp, s->par[j].vals[k]);
    }
    fputs("]", fp);
  }
  fprintf(fp, "}, \"points\": %zu}", s->nd);
  if (fclose(fp) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* ---- running the points ---------------------------------------------- */

static int run_point(sweep *s, size_t p)
{
  set_point(s, p);
  rl_opt_reset();
  return rl_cmd_exec(s->cmd, s->pargc, s->pargv);
}

/* A temp file already unlinked (nothing to clean up if we are killed). */
static int anon_tmp(void)
{
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/ropelab-sweep.XXXXXX", dir) >= (int)sizeof path)
    return -1;
  int fd = mkstemp(path);
  if (fd >= 0)
    unlink(path);
  return fd;
}

typedef struct job {
  pid_t pid;
  int fd;
} job;

static int copy_out(int fd, FILE *to)
{
  char b[1 << 16];
  if (lseek(fd, 0, SEEK_SET) != 0)
    return -1;
  for (;;) {
    ssize_t n = read(fd, b, sizeof b);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      return 0;
    if (fwrite(b, 1, (size_t)n, to) != (size_t)n)
      return 0; /* the write error is rl_out_close's to report */
  }
}

static void end_jobs(job *jobs, size_t n)
{
  for (size_t t = 0; t < n; t++)
    if (jobs[t].pid > 0) {
      kill(jobs[t].pid, SIGTERM);
      waitpid(jobs[t].pid, NULL, 0);
      jobs[t].pid = 0;
    }
  for (size_t t = 0; t < n; t++)
    if (jobs[t].fd >= 0)
      close(jobs[t].fd), jobs[t].fd = -1;
}

/* Points lo..hi-1 in up to s->jobs children at a time, copied out in order. */
static int run_parallel(sweep *s, FILE *to, size_t lo, size_t hi, rl_progress *prog,
                        size_t *failed)
{
  const char *name = s->cmd->name;
  size_t nj = (size_t)s->jobs;
  job *jobs = malloc(nj * sizeof *jobs);
  if (!jobs)
    return rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
  for (size_t t = 0; t < nj; t++)
    jobs[t].pid = 0, jobs[t].fd = -1;
  size_t next = lo;
  int rc = 0;
  for (size_t p = lo; p < hi && !rc && !ferror(to); p++) {
    while (next < hi && next < p + nj) { /* keep nj points running */
      job *jb = &jobs[next % nj];
      fflush(to);
      fflush(stdout);
      fflush(stderr);
      if ((jb->fd = anon_tmp()) < 0) {
        rc = rl_runtime(name, "cannot create a temp file in '%s': %s",
                        getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", strerror(errno));
        break;
      }
      pid_t parent = getpid();
      jb->pid = fork();
      if (jb->pid < 0) {
        rc = rl_runtime(name, "cannot start a process: %s", strerror(errno));
        break;
      }
      if (jb->pid == 0) {
        rl_signals_default(); /* the parent's temp files are not ours to remove */
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
          _exit(RL_EXIT_RUNTIME);
#else
        (void)parent;
#endif
        FILE *f = fdopen(jb->fd, "w");
        if (!f)
          _exit(RL_EXIT_RUNTIME);
        set_point(s, s->order[next]);
        rl_out_mode_point(f, s->prefix, s->output);
        rl_opt_reset();
        int r = rl_cmd_exec(s->cmd, s->pargc, s->pargv);
        if ((fflush(f) == EOF || ferror(f)) && !r)
          r = rl_runtime(name, "cannot write a temp file: %s", strerror(errno));
        _exit(r);
      }
      next++;
    }
    if (rc)
      break;
    job *jb = &jobs[p % nj];
    int st;
    while (waitpid(jb->pid, &st, 0) < 0 && errno == EINTR)
      ;
    jb->pid = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == RL_EXIT_FAIL)
      ++*failed; /* a property failed: its row is written, the sweep goes on */
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != RL_EXIT_FAIL)
      rc = WEXITSTATUS(st); /* the child said why */
    else if (!WIFEXITED(st))
      rc = rl_runtime(name, "sweep point %zu ended by signal %d", p + 1, WTERMSIG(st));
    else if (copy_out(jb->fd, to) != 0)
      rc = rl_runtime(name, "cannot read a temp file: %s", strerror(errno));
    close(jb->fd);
    jb->fd = -1;
    rl_progress_update(prog, p + 1 - lo);
  }
  end_jobs(jobs, nj);
  free(jobs);
  return rc;
}

static int refused(const sweep *s)
{
  const char *r = s->spec->refuse;
  for (const char *p = r; p && *p;) {
    while (*p == ' ')
      p++;
    const char *e = p;
    while (*e && *e != ' ')
      e++;
    const char *eq = memchr(p, '=', (size_t)(e - p));
    if (eq)
      for (int k = 1; k < s->nrest; k++) {
        const char *a = s->rest[k], *v = NULL;
        size_t ol = (size_t)(eq - p), vl = (size_t)(e - eq - 1);
        if (strncmp(a, "--", 2) || strncmp(a + 2, p, ol))
          continue;
        if (a[2 + ol] == '=')
          v = a + 3 + ol;
        else if (!a[2 + ol] && k + 1 < s->nrest)
          v = s->rest[k + 1];
        if (v && strlen(v) == vl && !strncmp(v, eq + 1, vl))
          return rl_usage(s->cmd->name, "a sweep writes one CSV table; --%.*s %.*s is not one",
                          (int)ol, p, (int)vl, eq + 1);
      }
    p = e;
  }
  return 0;
}

/* A shard's last metadata line, 'shard=K/N rows=R bytes=B cksum=C' (C as
 * the `cksum` utility prints it for the rows), its header, then its rows,
 * copied from the temp file rows. */
static int put_shard(sweep *s, rl_out *top, FILE *rows, const char *head)
{
  const char *name = s->cmd->name;
  char b[1 << 16];
  rl_cksum ck;
  unsigned long long nrows = 0;
  size_t n;
  rl_cksum_init(&ck);
  errno = 0;
  if (fflush(rows) == EOF || ferror(rows) || fseeko(rows, 0, SEEK_SET) != 0)
    return rl_runtime(name, "cannot write a temp file: %s", strerror(errno ? errno : EIO));
  while ((n = fread(b, 1, sizeof b, rows)) > 0) {
    rl_cksum_add(&ck, b, n);
    for (size_t i = 0; i < n; i++)
      nrows += b[i] == '\n';
  }
  if (ferror(rows) || fseeko(rows, 0, SEEK_SET) != 0)
    return rl_runtime(name, "cannot read a temp file: %s", strerror(errno ? errno : EIO));
  snprintf(b, sizeof b, "%llu/%llu rows=%llu bytes=%llu cksum=%lu", s->shard_k, s->shard_n,
           nrows, ck.len, (unsigned long)rl_cksum_value(&ck));
  rl_out_meta(top, "shard", b); /* last: merge drops it */
  rl_out_header_line(top, head, strlen(head));
  while (!top->err && (n = fread(b, 1, sizeof b, rows)) > 0)
    rl_out_write(top, b, n);
  if (ferror(rows))
    return rl_runtime(name, "cannot read a temp file: %s", strerror(errno ? errno : EIO));
  return 0;
}

/* The first name of the space-separated list that is a column of the
 * header cols, into out ("" when none). */
/* The columns of list present in cols (a header row), comma-separated:
 * each word of list names one ("a|b": the first of a and b present;
 * "*_same": every column ending "_same"); with first, only the first. */
static void columns_of(const char *list, const char *cols, int first, char *out, size_t size)
{
  size_t len = 0;
  out[0] = 0;
  for (const char *p = list; p && *p && len < size && !(first && len);) {
    p += strspn(p, " ");
    size_t l = strcspn(p, " "), got = 0;
    for (const char *a = p; a < p + l && !got;) { /* the alternatives */
      size_t al = strcspn(a, "| ");
      if (al > (size_t)(p + l - a))
        al = (size_t)(p + l - a);
      int suffix = al > 1 && a[0] == '*';
      for (const char *h = cols; al && *h && len < size;) {
        size_t hl = strcspn(h, ",");
        if (suffix ? hl >= al && !strncmp(h + hl - (al - 1), a + 1, al - 1)
                   : hl == al && !strncmp(h, a, al)) {
          len += (size_t)snprintf(out + len, size - len, "%s%.*s", len ? "," : "", (int)hl, h);
          got++;
          if (!suffix || first)
            break;
        }
        h += hl + (h[hl] == ',');
      }
      a += al + (a[al] == '|');
    }
    p += l;
  }
}

static int run_sweep(sweep *s);

/* A sweep's --plot without -o: the table goes to a temp file, the figure
 * is drawn from it, then the table is copied to standard output (all at
 * the end, not streamed). */
static int plot_via_temp(sweep *s)
{
  const char *name = s->cmd->name;
  const char *dir = getenv("TMPDIR");
  char path[PATH_MAX];
  if (!dir || !*dir)
    dir = "/tmp";
  if (snprintf(path, sizeof path, "%s/ropelab-table.XXXXXX", dir) >= (int)sizeof path)
    return rl_usage(name, "TMPDIR '%s' is too long: expected a shorter path", dir);
  int fd = mkstemp(path);
  if (fd < 0)
    return rl_runtime(name, "cannot create a temp file in '%s': %s", dir, strerror(errno));
  close(fd);
  s->output = path;
  int rc = run_sweep(s);
  s->output = NULL;
  FILE *in = rc ? NULL : fopen(path, "rb");
  if (!rc && !in)
    rc = rl_runtime(name, "cannot read the table back from '%s': %s", path, strerror(errno));
  if (in) {
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
      if (fwrite(buf, 1, k, stdout) != k)
        break;
    if (ferror(in) || fflush(stdout) || ferror(stdout))
      rc = rl_runtime(name, "cannot write standard output: %s", strerror(errno));
    fclose(in);
  }
  unlink(path);
  return rc;
}

static int run_sweep(sweep *s)
{
  const char *name = s->cmd->name;
  /* checked before the first point, as one run checks them: a PNG drawn
   * over the table -o names would lose the table */
  if (s->plot && rl_plot_check(name, s->plot_path))
    return RL_EXIT_USAGE;
  if (s->plot && s->output && strcmp(s->output, "-") && rl_path_same(s->plot_path, s->output))
    return rl_usage(name, "--plot '%s' is the same file as --output '%s'", s->plot_path,
                    s->output);
  if (s->plot && s->spec->plot_x && !s->output && !s->sharded && !s->no_header &&
      s->meta_mode != 1)
    return plot_via_temp(s);
  if (s->plot && !s->spec->plot_x)
    return rl_usage(name, "--plot draws one run of %s; a sweep writes one table (draw it with "
                          "'ropelab plot TABLE --x COL --y COL --hue COL')", name);
  if (s->plot && (!s->output || s->sharded || s->no_header))
    return rl_usage(name, "a sweep's --plot draws the table it writes: expected %s",
                    s->sharded ? "no --shard (draw the merged table with 'ropelab plot')"
                    : s->no_header ? "its header (no --no-header)"
                                   : "-o FILE with --meta json");
  if (s->sharded && (s->no_meta || s->no_header || s->meta_mode != 0))
    return rl_usage(name, "--shard needs the '# ' metadata and the header, which 'ropelab merge' "
                          "checks (use --meta json on the merge)");
  int r = refused(s);
  if (r)
    return r;
  s->points = 1;
  size_t vlen = 1;
  for (size_t j = 0; j < s->npar; j++) {
    if (s->points > MAX_POINTS / s->par[j].n)
      return rl_usage(name, "more than %d points in the sweep", MAX_POINTS);
    s->points *= s->par[j].n;
    size_t m = 0;
    for (size_t k = 0; k < s->par[j].n; k++)
      if (strlen(s->par[j].vals[k]) > m)
        m = strlen(s->par[j].vals[k]);
    vlen += m + 1;
  }
  s->pargv = calloc((size_t)s->nrest + 3, sizeof *s->pargv);
  s->prefix = malloc(vlen);
  rl_meta *metas = calloc(s->points, sizeof *metas), capt = {0};
  char *hdr0 = NULL, *hdr = NULL;
  arena ar = {0};
  rl_meta lines = {0};
  char *extra = NULL, *head = NULL;
  FILE *rows = NULL;
  rl_out top;
  int top_open = 0, rc = 0;
  if (!s->pargv || !s->prefix || !metas) {
    rc = rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  if (s->nrest >= 1024) {
    rc = rl_usage(name, "too many arguments for a sweep");
    goto done;
  }

  /* step 2: every point validated, its metadata and header captured
   * (metas[q] for point s->order[q]) */
  if (distinct_order(s)) {
    rc = rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  for (size_t q = 0; q < s->nd; q++) {
    size_t p = s->order[q];
    free(hdr);
    hdr = NULL;
    rl_out_mode_capture(&capt, &hdr);
    rc = run_point(s, p);
    rl_out_mode_normal();
    if (rc)
      goto done;
    if (capt.oom || arena_meta(&ar, &capt, &metas[q], q ? &metas[0] : NULL) ||
        (!hdr && !(hdr = strdup("")))) {
      rc = rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
    if (!q) {
      hdr0 = hdr;
      hdr = NULL;
      continue;
    }
    if (strcmp(hdr, hdr0)) {
      char at[256];
      size_t l = 0;
      for (size_t j = 0; j < s->npar && l < sizeof at; j++)
        l += (size_t)snprintf(at + l, sizeof at - l, "%s--%.*s %s", j ? " " : "",
                              (int)s->par[j].optlen, s->par[j].opt,
                              s->par[j].vals[idx_of(s, p, j)]);
      rc = rl_usage(name, "the columns differ between points ('%s' at the first, '%s' at %s): "
                          "a sweep writes one table", hdr0, hdr, at);
      goto done;
    }
  }
  /* a swept option the command already writes as a column is not put in
   * front again (one column per name, so readers keep it) */
  for (size_t j = 0; j < s->npar; j++) {
    size_t cl = strlen(s->par[j].col);
    for (const char *h = hdr0; *h;) {
      size_t l = strcspn(h, ",");
      if (l == cl && !strncmp(h, s->par[j].col, cl))
        s->par[j].in_header = 1;
      h += l + (h[l] == ',');
    }
  }
  set_point(s, s->order[0]);
  if (sweep_meta(s, metas, &lines) || (s->meta_mode == 1 && s->npar && !(extra = sweep_json(s)))) {
    rc = rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }

  /* step 3: the table */
  rl_out_fmt fmt = rl_out_format_for(s->output);
  if (s->sharded && fmt != RL_FMT_CSV) {
    rc = rl_usage(name, "--shard writes CSV parts for 'ropelab merge', not %s: give the format "
                        "to the merge (merge ... -o FILE.%s)",
                  rl_out_format_name(fmt), rl_out_format_name(fmt));
    goto done;
  }
  int meta = !s->no_meta && s->meta_mode != 2;
  rl_out_set_json(s->meta_mode == 1, extra);
  rc = rl_out_open(&top, name, s->output, meta, !s->no_header);
  rl_out_set_json(0, NULL);
  if (rc)
    goto done;
  top_open = 1;
  rl_out_meta_begin(&top);
  for (size_t i = 0; i < lines.n; i++)
    rl_out_meta(&top, lines.key[i], lines.val[i]);
  if (!s->no_header) {
    size_t hl = strlen(hdr0) + 2;
    for (size_t j = 0; j < s->npar; j++)
      hl += strlen(s->par[j].col) + 1;
    if (!(head = malloc(hl))) {
      rc = rl_runtime(name, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
    char *q = head;
    for (size_t j = 0; j < s->npar; j++)
      if (!s->par[j].in_header)
        q += sprintf(q, "%s,", s->par[j].col);
    q += sprintf(q, "%s\n", hdr0);
    if (!s->sharded)
      rl_out_header_line(&top, head, (size_t)(q - head));
  }
  if (!s->sharded)
    rl_out_release_meta(&top); /* the points write to top.fp directly */
  size_t lo = 0, hi = s->nd; /* positions in s->order */
  FILE *to = top.fp;
  if (s->sharded) {
    /* a contiguous part: merge concatenates in shard order.  Its rows go
     * to a temp file first, so that the '# shard=' line can record their
     * count, length and checksum, which merge verifies */
    rl_shard_part(s->nd, s->shard_k, s->shard_n, &lo, &hi);
    int fd = anon_tmp();
    if (fd < 0 || !(rows = fdopen(fd, "w+"))) {
      if (fd >= 0)
        close(fd);
      rc = rl_runtime(name, "cannot create a temp file in '%s': %s",
                      getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", strerror(errno));
      goto done;
    }
    to = rows;
  }
  rl_progress prog;
  rl_progress_init(&prog, name, s->progress, hi - lo, hi - lo > 1);
  size_t failed = 0; /* points whose checked property failed (exit 1) */
  if (s->jobs > 1 && hi - lo > 1) {
    rc = run_parallel(s, to, lo, hi, &prog, &failed);
  } else {
    for (size_t p = lo; p < hi && !rc && !top.err && !ferror(to); p++) {
      set_point(s, s->order[p]);
      rl_out_mode_point(to, s->prefix, s->output);
      rl_opt_reset();
      rc = rl_cmd_exec(s->cmd, s->pargc, s->pargv);
      if (rc == RL_EXIT_FAIL)
        failed++, rc = 0;
      rl_out_mode_normal();
      rl_progress_update(&prog, p + 1 - lo);
    }
  }
  if (rc)
    goto done;
  if (rows && (rc = put_shard(s, &top, rows, head)))
    goto done;
  top_open = 0;
  if (!top.err && !ferror(top.fp))
    rl_progress_end(&prog);
  rc = rl_out_close(&top);
  const char *head_cols = hdr0;
  if (!rc && s->plot) {
    /* the first swept column as colours, the second as panels, the third
     * as line types (relplot's hue, col, style); more join the colours */
    char hue[512] = "", logs[8] = "";
    const char *panel = NULL, *style = NULL;
    size_t len = 0, swept = 0;
    for (size_t j = 0; j < s->npar && len < sizeof hue; j++) {
      if (s->par[j].n < 2)
        continue; /* one value (a method-dependent input): not a curve */
      if (++swept == 2)
        panel = s->par[j].col;
      else if (swept == 3)
        style = s->par[j].col;
      else
        len += (size_t)snprintf(hue + len, sizeof hue - len, "%s%s", len ? "," : "",
                                s->par[j].col);
    }
    /* the rows' own series (precision's pipelines, every one by
     * default): a curve each, before the swept values (they were joined
     * into one curve that zig-zagged between pipelines) */
    char ser[64] = "";
    columns_of(s->spec->plot_series, head_cols, 1, ser, sizeof ser);
    for (size_t j = 0; j < s->npar && ser[0]; j++)
      if (!strcmp(s->par[j].col, ser))
        ser[0] = 0; /* swept: already a colour or a panel */
    if (ser[0]) {
      char h2[512];
      snprintf(h2, sizeof h2, "%s%s%s", ser, hue[0] ? "," : "", hue);
      snprintf(hue, sizeof hue, "%s", h2);
    }
    /* a log grid (--log) draws on a log x axis */
    for (int k = 1; k < s->nrest; k++)
      if (!strcmp(s->rest[k], "--log"))
        snprintf(logs, sizeof logs, "x");
    if (s->spec->plot_log)
      snprintf(logs + strlen(logs), sizeof logs - strlen(logs), "%s%s", logs[0] ? "," : "",
               s->spec->plot_log);
    /* x: the first of plot_x present; y: every measure present, a row of
     * panels each (facet by measure) */
    char px[64] = "", py[512] = "";
    columns_of(s->spec->plot_x, head_cols, 1, px, sizeof px);
    columns_of(s->spec->plot_y, head_cols, 0, py, sizeof py);
    rl_facet fc = {px, py, hue[0] ? hue : NULL, panel, style, logs[0] ? logs : NULL, NULL, 1,
                   1, s->spec->plot_units};
    rc = px[0] && py[0] ? rl_plot_table(name, s->output, s->plot_path, &fc)
                        : rl_usage(name, "--plot: none of the columns '%s' against '%s' in this "
                                         "table; draw it with 'ropelab plot'",
                                   s->spec->plot_y, s->spec->plot_x);
  }
  if (!rc && failed) {
    fprintf(stderr, "ropelab %s: %zu of %zu sweep points failed their check (their rows say "
                    "which)\n", name, failed, hi - lo);
    rc = RL_EXIT_FAIL;
  }
done:
  rl_out_mode_normal();
  if (top_open)
    rl_out_abort(&top);
  rl_meta_clear(&capt);
  arena_free(&ar); /* the points' metadata: nothing in metas[] is malloc'd */
  free(metas);
  free(hdr0);
  free(hdr);
  rl_meta_clear(&lines);
  free(extra);
  free(head);
  if (rows)
    fclose(rows);
  return rc;
}

/* The swept --method, or NULL. */
static const param *method_param(const sweep *s)
{
  for (size_t j = 0; j < s->npar; j++)
    if (!strcmp(s->par[j].col, "method"))
      return &s->par[j];
  return NULL;
}

/* The swept param that d's condition (its when) names, and the value it
 * asks for; NULL when d has none or that parameter is not swept. */
static const param *when_param(const sweep *s, const rl_param *d, const char **value)
{
  const rl_param *k;
  if (!rl_param_when_split(d, rl_schedule_param_list(), &k, value))
    return NULL;
  for (size_t j = 0; j < s->npar; j++)
    if (s->par[j].decl == k ||
        (strlen(k->key) == s->par[j].optlen && !strncmp(s->par[j].opt, k->key, s->par[j].optlen)))
      return &s->par[j];
  return NULL;
}

/* Under a --method sweep, every method-dependent input is a column: the
 * options given with one value join the swept ones (one value each, so
 * the product is unchanged).  So is an option whose condition names a
 * swept parameter (--ramp code,paper --truncate no). */
static int method_columns(sweep *s)
{
  int conditional = 0;
  const char *want;
  for (size_t j = 0; j < s->npar; j++)
    conditional |= s->par[j].decl && when_param(s, s->par[j].decl, &want);
  for (size_t k = 0; k < s->nfixed; k++) {
    const rl_param *d = method_dependent(s->fixed[k].opt, s->fixed[k].len);
    conditional |= d && when_param(s, d, &want);
  }
  int methods = method_param(s) != NULL;
  if (!methods && !conditional)
    return 0;
  for (size_t k = 0; k < s->nfixed; k++) {
    fixed_opt *f = &s->fixed[k];
    const rl_param *d = method_dependent(f->opt, f->len);
    if (!methods && !(d && when_param(s, d, &want)))
      continue; /* without a method sweep only the conditional ones */
    int r = add_param(s, f->opt, f->len, f->numeric, f->slot, f->inline_eq, f->val);
    if (r)
      return r;
    s->par[s->npar - 1].opt_slot = f->opt_slot;
    s->par[s->npar - 1].decl = method_dependent(f->opt, f->len);
  }
  if (!(s->skip = calloc((size_t)s->nrest + 1, 1)))
    return rl_runtime(s->cmd->name, "%s", rl_strerror(RL_ENOMEM));
  return 0;
}

int rl_sweep_main(const struct rl_cmd *cmd, int argc, char **argv)
{
  const rl_sweep_spec *sp = rl_sweep_find(cmd->name);
  if (!sp->cmd || !sp->numbers) {
    int r = check_unswept(cmd, sp->lists, argc, argv);
    return r ? r : rl_cmd_exec(cmd, argc, argv);
  }
  sweep s;
  memset(&s, 0, sizeof s);
  s.cmd = cmd;
  s.spec = sp;
  s.progress = RL_PROGRESS_AUTO;
  s.jobs = rl_online_cpus(RL_THREADS_MAX);
  int rc = scan(&s, argc, argv);
  if (!rc)
    rc = method_columns(&s);
  if (rc) {
    free_sweep(&s);
    return rc;
  }
  if (s.meta_mode == 1 && s.no_meta) {
    rc = rl_usage(cmd->name, "--meta json and --no-meta contradict each other");
  } else if (s.help) {
    rl_opt_reset();
    rc = rl_cmd_exec(cmd, s.nrest, s.rest);
    rl_sweep_help(stdout, cmd->name);
  } else if (s.npar || s.sharded) {
    rc = run_sweep(&s);
  } else {
    /* no sweep: the command as it is, with --meta applied */
    if (s.meta_mode == 2) {
      memmove(s.rest + 2, s.rest + 1, (size_t)(s.nrest - 1) * sizeof *s.rest);
      s.rest[1] = "--no-meta";
      s.nrest++;
    }
    rl_out_set_json(s.meta_mode == 1, NULL);
    rl_opt_reset();
    rc = rl_cmd_exec(cmd, s.nrest, s.rest);
    rl_out_set_json(0, NULL);
  }
  free_sweep(&s);
  return rc;
}

static void wrap_opts(FILE *fp, const char *list)
{
  size_t col = 13;
  fputs("             ", fp);
  for (const char *p = list; p && *p;) {
    while (*p == ' ')
      p++;
    const char *e = p;
    while (*e && *e != ' ')
      e++;
    if (e == p)
      break;
    size_t w = (size_t)(e - p) + 3;
    if (col + w > 79) {
      fputs("\n             ", fp);
      col = 13;
    }
    fprintf(fp, " --%.*s", (int)(e - p), p);
    col += w;
    p = e;
  }
  fputc('\n', fp);
}

void rl_sweep_help(FILE *fp, const char *cmd)
{
  const rl_sweep_spec *sp = rl_sweep_find(cmd);
  if (!sp->cmd || !sp->numbers)
    return;
  fputs("\n"
        "sweeps: a list or a range runs every combination (options in the order given,\n"
        "the last fastest) into one table, a column per swept option in front:\n"
        "  numbers    a list or START:STOP:STEP (xK: geometric), e.g. --base 500,1e4,5e5\n"
        "             --factor 1:8:x2; these options:\n", fp);
  wrap_opts(fp, sp->numbers);
  fputs("  names      a comma-separated list, e.g. --method rope,yarn; these options:\n", fp);
  wrap_opts(fp, sp->names);
  if (sp->lists) {
    fputs("  not swept  their commas keep their own meaning:\n", fp);
    wrap_opts(fp, sp->lists);
  }
  fputs("      --shard K/N    only the K-th of N contiguous parts of the points, for\n"
        "                     GNU parallel or a Slurm array; 'ropelab merge' joins them\n"
        "      --jobs N       run N points at a time in separate processes (default: the\n"
        "                     online CPUs); the output is the same bytes for any N\n"
        "      --meta MODE    comments ('# key=value' lines, default), json (FILE.json\n"
        "                     beside -o FILE, replaced only if ropelab wrote it; the CSV\n"
        "                     has no comment lines) or none\n", fp);
}
