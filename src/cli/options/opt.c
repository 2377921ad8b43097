/* opt.c: strict parsing of option values (dav1d's habit: the whole
 * argument must be a valid value, otherwise a one-line usage error). */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "cmd.h"
#include "opt.h"
#include "out_format.h"
#include "plot.h"
#include "progress.h"

int rl_opt_double(const char *cmd, const char *opt, const char *arg, double *out)
{
  /* the core's reading of a number (C locale whatever LC_NUMERIC says,
   * the whole argument), as the declared options read theirs */
  switch (rl_param_number(arg, out)) {
  case RL_OK: return 0;
  case RL_EOVERFLOW: return rl_usage(cmd, "invalid %s '%s': expected a finite number", opt, arg);
  case RL_ERANGE: return rl_usage(cmd, "invalid %s '%s': out of the range of a double", opt, arg);
  default: return rl_usage(cmd, "invalid %s '%s': expected a number", opt, arg);
  }
}

int rl_opt_uint(const char *cmd, const char *opt, const char *arg,
                unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
  const char *p = arg;
  while (isdigit((unsigned char)*p))
    p++;
  if (p == arg || *p) {
    if (hi == (unsigned long long)-1)
      return rl_usage(cmd, "invalid %s '%s': expected an integer >= %llu", opt, arg, lo);
    return rl_usage(cmd, "invalid %s '%s': expected an integer between %llu and %llu",
                    opt, arg, lo, hi);
  }
  errno = 0;
  unsigned long long v = strtoull(arg, NULL, 10);
  if (errno == ERANGE || v < lo || v > hi) {
    if (hi == (unsigned long long)-1)
      return rl_usage(cmd, "invalid %s '%s': expected an integer >= %llu", opt, arg, lo);
    return rl_usage(cmd, "invalid %s '%s': expected an integer between %llu and %llu",
                    opt, arg, lo, hi);
  }
  *out = v;
  return 0;
}

int rl_opt_seed(const char *cmd, const char *arg, unsigned long long *seed)
{
  return rl_opt_uint(cmd, "--seed", arg, 1, 4294967295ull, seed);
}

static int parse_even(const char *cmd, const char *opt, const char *arg, size_t *out)
{
  const char *p = arg;
  while (isdigit((unsigned char)*p))
    p++;
  unsigned long long v = 0;
  if (p != arg && !*p) {
    errno = 0;
    v = strtoull(arg, NULL, 10);
    if (errno == ERANGE)
      v = 0;
  }
  if (p == arg || *p || v < 2 || v % 2)
    return rl_usage(cmd, "invalid %s '%s': expected an even integer >= 2", opt, arg);
  if (v > RL_DIM_MAX)
    return rl_usage(cmd, "invalid %s '%s': expected an even integer <= %d", opt, arg,
                    RL_DIM_MAX);
  *out = (size_t)v;
  return 0;
}

int rl_opt_dim(const char *cmd, const char *arg, size_t *dim)
{
  return parse_even(cmd, "--dim", arg, dim);
}

int rl_opt_rot(const char *cmd, const char *arg, size_t *rot)
{
  if (!strcmp(arg, "dim")) {
    *rot = 0;
    return 0;
  }
  return parse_even(cmd, "--rot", arg, rot);
}

int rl_opt_rot_resolve(const char *cmd, const char *arg, size_t dim, size_t *rot)
{
  if (*rot == 0)
    *rot = dim;
  if (*rot > dim)
    return rl_usage(cmd, "invalid --rot '%s': expected an even integer <= --dim (%zu)", arg,
                    dim);
  return 0;
}

int rl_opt_step(const char *cmd, const char *arg, double *step)
{
  int r = rl_opt_double(cmd, "--step", arg, step);
  if (r)
    return r;
  if (!(*step > 0))
    return rl_usage(cmd, "invalid --step '%s': expected a number > 0", arg);
  return 0;
}

int rl_opt_base(const char *cmd, const char *arg, double *base)
{
  int r = rl_opt_double(cmd, "--base", arg, base);
  if (r)
    return r;
  if (!(*base > 1.0))
    return rl_usage(cmd, "invalid --base '%s': expected a number > 1", arg);
  return 0;
}

int rl_opt_values(const char *cmd, const char *opt, const char *arg, size_t max, double **vals,
                  size_t *n)
{
  char err[RL_ERR_MAX];
  rl_status st = rl_values_parse(arg, max, vals, n, err, sizeof err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory reading %s", opt);
  if (st)
    return rl_usage(cmd, "invalid %s '%s': %s", opt, arg, err);
  return 0;
}

void rl_opt_alternatives(const char *const *names, size_t n, char *buf, size_t size)
{
  rl_names_alternatives(names, n, buf, size);
}

static int bad_enum(const char *cmd, const char *opt, const char *arg, const char *word,
                    const char *const *names, size_t n)
{
  char err[RL_ERR_MAX];
  rl_status st = rl_names_error(opt, arg, word, names, n, err, sizeof err);
  return st == RL_ENOMEM ? rl_runtime(cmd, "%s", err) : rl_usage(cmd, "%s", err);
}

int rl_opt_enum(const char *cmd, const char *opt, const char *arg, const char *const *names,
                size_t n, int *out)
{
  for (size_t i = 0; i < n; i++)
    if (!strcmp(arg, names[i])) {
      *out = (int)i;
      return 0;
    }
  return bad_enum(cmd, opt, arg, arg, names, n);
}

int rl_opt_enum_list(const char *cmd, const char *opt, const char *arg,
                     const char *const *names, size_t n, int *idx, size_t max, size_t *count)
{
  char err[RL_ERR_MAX];
  rl_status st = rl_names_list(opt, arg, names, n, idx, max, count, err, sizeof err);
  if (!st)
    return 0;
  return st == RL_ENOMEM ? rl_runtime(cmd, "%s", err) : rl_usage(cmd, "%s", err);
}

int rl_opt_bad(const char *cmd, int c, char **argv, const struct option *longopts)
{
  const char *arg = argv[optind - 1];
  if (c == ':') {
    if (optopt) {
      for (const struct option *o = longopts; o->name; o++)
        if (!o->flag && o->val == optopt && !strncmp(arg, "--", 2))
          return rl_usage(cmd, "option '--%s' requires a value", o->name);
      return rl_usage(cmd, "option '-%c' requires a value", optopt);
    }
    return rl_usage(cmd, "option '%s' requires a value", arg);
  }
  if (optopt && strncmp(arg, "--", 2))
    return rl_usage(cmd, "unknown option '-%c' (see 'ropelab help %s')", optopt, cmd);
  /* a long option: unknown, ambiguous prefix, or given a value it does not take */
  const char *eq = strchr(arg, '=');
  if (eq && strncmp(arg, "--", 2) == 0) {
    size_t len = (size_t)(eq - arg - 2);
    for (const struct option *o = longopts; o->name; o++)
      if (o->has_arg == no_argument && !strncmp(o->name, arg + 2, len))
        return rl_usage(cmd, "option '--%s' takes no value", o->name);
  }
  if (!strncmp(arg, "--", 2)) {
    const char *names[256];
    size_t n = 0;
    char word[64];
    size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), arg + 2);
    for (const struct option *o = longopts; o->name && n < 256; o++)
      names[n++] = o->name;
    size_t s = rl_suggest(word, names, n);
    if (s < n)
      return rl_usage(cmd, "unknown option '%s'; did you mean '--%s'?", arg, names[s]);
  }
  return rl_usage(cmd, "unknown option '%s' (see 'ropelab help %s')", arg, cmd);
}

int rl_opt_no_args(const char *cmd, int argc, char **argv)
{
  if (optind < argc)
    return rl_usage(cmd, "unexpected argument '%s'", argv[optind]);
  return 0;
}

int rl_opt_end(const rl_common *co, const char *cmd, int argc, char **argv,
               void (*help)(FILE *fp))
{
  if (co->help) {
    help(stdout);
    return RL_OPT_DONE;
  }
  return rl_opt_no_args(cmd, argc, argv);
}

void rl_opt_list_words(const char *list, char *buf, size_t n)
{
  size_t w = 0;
  if (n)
    buf[0] = 0;
  for (const char *c = list; c && *c && w + 3 < n; c++)
    w += *c == ' ' ? (size_t)snprintf(buf + w, n - w, ", ") : (buf[w] = *c, buf[w + 1] = 0, 1);
}

int rl_opt_in_list(const char *list, const char *name, size_t len)
{
  if (!list)
    return 0;
  for (const char *p = list; *p;) {
    while (*p == ' ')
      p++;
    const char *e = p;
    while (*e && *e != ' ')
      e++;
    if ((size_t)(e - p) == len && len && !strncmp(p, name, len))
      return 1;
    p = e;
  }
  return 0;
}

void rl_opt_reset(void)
{
  optind = 0;
  opterr = 0;
}

void rl_common_init(rl_common *c)
{
  memset(c, 0, sizeof *c);
  c->meta = c->header = 1;
  c->progress = RL_PROGRESS_AUTO;
}

int rl_common_opt(rl_common *c, const char *cmd, int opt, const char *arg)
{
  switch (opt) {
  case 'o':
    if (!*arg)
      return RL_OPT_FAILED(rl_usage(cmd, "invalid --output '': expected a file name"));
    c->output = arg;
    return RL_OPT_TAKEN;
  case RL_OPT_OUTPUT_FORMAT: {
    int k = 0;
    if (rl_opt_enum(cmd, "--output-format", arg, rl_out_fmt_names, RL_FMT_N, &k))
      return RL_OPT_FAILED(RL_EXIT_USAGE);
    rl_out_set_format(k);
    return RL_OPT_TAKEN;
  }
  case RL_OPT_NO_META: c->meta = 0; return RL_OPT_TAKEN;
  case RL_OPT_NO_HEADER: c->header = 0; return RL_OPT_TAKEN;
  case RL_OPT_PLOT:
    if (rl_plot_check(cmd, arg))
      return RL_OPT_FAILED(RL_EXIT_USAGE);
    c->plot = arg;
    return RL_OPT_TAKEN;
  case RL_OPT_QUIET: c->progress = RL_PROGRESS_QUIET; return RL_OPT_TAKEN;
  case RL_OPT_PROGRESS: c->progress = RL_PROGRESS_FORCE; return RL_OPT_TAKEN;
  case 'h': c->help = 1; return RL_OPT_TAKEN;
  default: return RL_OPT_NOT_MINE;
  }
}

int rl_opt_default(rl_common *co, const char *cmd, int c, char **argv,
                   const struct option *longopts)
{
  if (c == '?' || c == ':')
    return rl_opt_bad(cmd, c, argv, longopts);
  int r = rl_common_opt(co, cmd, c, optarg);
  return rl_opt_failed(r) ? rl_opt_exit_code(r) : 0;
}

void rl_common_help_format(FILE *fp)
{
  char formats[1024]; /* from the format registry: a new format is listed by itself */
  rl_out_format_help(formats, sizeof formats);
  rl_help_wrap(fp, "      --output-format F  ", 21, formats);
}

static void common_help(FILE *fp, int plot)
{
  fputs("output:\n"
        "  -o, --output FILE  write the CSV atomically to FILE (default: standard output)\n",
        fp);
  rl_common_help_format(fp);
  fputs("      --no-meta      omit the '# key=value' metadata lines\n"
        "      --no-header    omit the header row (so sweeps can append)\n", fp);
  if (plot)
    fputs("      --plot IMAGE   also draw IMAGE (.png, .svg or .pdf) with gnuplot\n", fp);
  fputs("      --progress     show progress on stderr even when it is not a terminal\n"
        "      --quiet        never show progress\n"
        "  -h, --help         this help\n", fp);
}

void rl_common_help(FILE *fp)
{
  common_help(fp, 1);
}

void rl_common_help_noplot(FILE *fp)
{
  common_help(fp, 0);
}

/* Columns of n bytes of UTF-8: continuation bytes (10xxxxxx) take none. */
static int columns(const char *s, size_t n)
{
  int c = 0;
  for (size_t i = 0; i < n; i++)
    c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

void rl_help_wrap(FILE *fp, const char *head, int hang, const char *text)
{
  fputs(head, fp);
  int col = columns(head, strlen(head)), fresh = 1;
  for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
    size_t n = strcspn(p, " ");
    int w = columns(p, n);
    if (!fresh && col + 1 + w > RL_HELP_WIDTH) {
      fprintf(fp, "\n%*s", hang, "");
      col = hang, fresh = 1;
    }
    if (!fresh)
      fputc(' ', fp), col++;
    fwrite(p, 1, n, fp);
    col += w, fresh = 0, p += n;
  }
  fputc('\n', fp);
}

size_t rl_longopts_base(struct option *all, const struct option *base, size_t cap)
{
  size_t n = 0;
  while (n + 1 < cap && base[n].name)
    all[n] = base[n], n++;
  return n;
}

size_t rl_longopts_declared(struct option *all, size_t n, size_t cap,
                            const rl_param *const *list, int first, int last)
{
  for (int k = 0; list[k] && n + 1 < cap && first + k <= last; k++)
    if (!(list[k]->flags & RL_PF_NO_OPTION))
      all[n++] = (struct option){list[k]->key,
                                 list[k]->kind == RL_PK_FLAG ? no_argument : required_argument,
                                 NULL, first + k};
  all[n] = (struct option){NULL, 0, NULL, 0};
  return n;
}

void rl_help_param(FILE *fp, const rl_param *d, const char *text)
{
  rl_help_param_at(fp, d, text, 21);
}

void rl_help_param_at(FILE *fp, const rl_param *d, const char *text, int col)
{
  char head[96];
  if (d->kind == RL_PK_FLAG)
    snprintf(head, sizeof head, "      --%s", d->key);
  else
    snprintf(head, sizeof head, "      --%s %s", d->key, d->metavar ? d->metavar : "X");
  size_t hl = strlen(head);
  if ((int)hl < col - 1)
    snprintf(head + hl, sizeof head - hl, "%*s", (int)(col - (int)hl), "");
  else
    snprintf(head + hl, sizeof head - hl, "  ");
  rl_help_wrap(fp, head, col, text);
}
