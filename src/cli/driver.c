/* driver.c: parse, help and run every declared command (driver.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "threads.h"

/* getopt values: --threads, --meta (RL_TAKES_FORMAT_ONLY), then group
 * k's options from OWN_FIRST + k * RL_DECL_MAX, above the scheme and grid
 * options' (0x300 .. 0x388) */
enum { OPT_THREADS = RL_OPT_FIRST_CMD, OPT_META, OWN_FIRST = 0x400 };

static size_t ngroups(const rl_cmd_decl *d)
{
  size_t k = 0;
  while (k < RL_CMD_GROUPS_MAX && d->groups[k].list)
    k++;
  return k;
}

/* t without a second option of a name: a command's own declaration
 * shadows the schedule's of its name (evaluate's --config), and a prefix
 * (--con) must not find two and call itself ambiguous */
static const struct option *unique(const struct option *t)
{
  static struct option u[400];
  size_t n = 0;
  for (const struct option *o = t; o->name && n + 1 < sizeof u / sizeof *u; o++) {
    size_t k = 0;
    while (k < n && strcmp(u[k].name, o->name))
      k++;
    if (k == n)
      u[n++] = *o;
  }
  u[n] = (struct option){NULL, 0, NULL, 0};
  return u;
}

/* the long options of r's command: a table valid until the next call */
static const struct option *longopts(rl_cmd_run *r)
{
  static struct option all[320];
  const rl_cmd_decl *d = r->cmd->decl;
  static const struct option table[] = {RL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
  static const struct option page[] = {
      {"output", required_argument, NULL, 'o'}, {"plot", required_argument, NULL, RL_OPT_PLOT},
      {"quiet", no_argument, NULL, RL_OPT_QUIET}, {"progress", no_argument, NULL, RL_OPT_PROGRESS},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  static const struct option none[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  static const struct option image[] = {
      {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const struct option format[] = {
      {"meta", required_argument, NULL, OPT_META}, {"output", required_argument, NULL, 'o'},
      {"output-format", required_argument, NULL, RL_OPT_OUTPUT_FORMAT},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  const size_t cap = sizeof all / sizeof *all;
  size_t n = rl_longopts_base(all, (d->takes & RL_TAKES_TABLE) ? table
                                   : (d->takes & RL_TAKES_NO_OUTPUT) ? none
                                   : (d->takes & RL_TAKES_OUTPUT_ONLY) ? image
                                   : (d->takes & RL_TAKES_FORMAT_ONLY) ? format : page, cap);
  if ((d->takes & RL_TAKES_THREADS) && n + 1 < cap)
    all[n++] = (struct option){"threads", required_argument, NULL, OPT_THREADS};
  if ((d->takes & RL_TAKES_SCHEME) && n + 1 < cap)
    all[n++] = (struct option)RL_SCHEME_LONGOPTS;
  all[n] = (struct option){NULL, 0, NULL, 0};
  for (size_t k = 0; k < ngroups(d); k++)
    n = rl_decl_longopts(&r->own[k], all, n, cap);
  if (d->takes & RL_TAKES_GRID)
    n = rl_grid_longopts(&r->grid, all, n, cap);
  if (d->takes & RL_TAKES_SCHEME)
    return unique(rl_scheme_longopts(all));
  if (d->takes & RL_TAKES_SCHEDULE)
    return unique(rl_sched_longopts(all));
  return all;
}

static void init(rl_cmd_run *r, const struct rl_cmd *c, void *settings)
{
  const rl_cmd_decl *d = c->decl;
  memset(r, 0, sizeof *r);
  r->cmd = c;
  r->name = c->name;
  r->settings = settings;
  rl_common_init(&r->co);
  if (d->takes & RL_TAKES_SCHEME)
    rl_scheme_opts_init(&r->scheme);
  else if (d->takes & RL_TAKES_SCHEDULE)
    rl_sched_opts_init(&r->sched, 0);
  if (d->takes & RL_TAKES_GRID)
    rl_grid_opts_init(&r->grid, d->grid);
  if (d->defaults)
    d->defaults(settings);
  for (size_t k = 0; k < ngroups(d); k++) {
    void *obj = rl_cmd_group_obj(r, k);
    /* the core's defaults where it has them, else each declaration's */
    if (d->defaults) {
      r->own[k] = (rl_decl_opts){d->groups[k].list(), obj, OWN_FIRST + (int)k * RL_DECL_MAX, 0};
    } else {
      rl_decl_opts_init(&r->own[k], d->groups[k].list(), obj,
                        OWN_FIRST + (int)k * RL_DECL_MAX);
    }
  }
}

/* decl->choices: whether the chosen one is in list (space-separated) */
static int chosen_in(const rl_cmd_run *r, const char *list)
{
  const char *name = r->cmd->decl->choices()[r->choice];
  return rl_opt_in_list(list, name, strlen(name));
}

/* an option the chosen form does not take (rl_param.only, grid_only):
 * 0, or the printed usage error */
static int not_chosen(const rl_cmd_run *r, const char *opt, const char *only)
{
  if (!r->cmd->decl->choices || !only || chosen_in(r, only))
    return 0;
  return rl_usage(r->name, "--%s does not apply to %s '%s' (it is for '%s')", opt,
                  r->cmd->decl->choice_noun, r->cmd->decl->choices()[r->choice], only);
}

/* one option of the command's own, its groups, the grid, --threads or
 * --meta: RL_OPT_TAKEN, RL_OPT_NOT_MINE or RL_OPT_FAILED(code) */
static int own_opt(rl_cmd_run *r, int c, const char *arg, const struct option *opts)
{
  const rl_cmd_decl *d = r->cmd->decl;
  int rc;
  if (c == OPT_META) {
    static const char *const modes[] = {"comments", "json"};
    int m = 0;
    if ((rc = rl_opt_enum(r->name, "--meta", arg, modes, 2, &m)))
      return RL_OPT_FAILED(rc);
    r->meta_json = m == 1;
    return RL_OPT_TAKEN;
  }
  if (c == OPT_THREADS) {
    if (rl_opt_uint(r->name, "--threads", arg, 1, RL_THREADS_MAX, &r->threads))
      return RL_OPT_FAILED(RL_EXIT_USAGE);
    r->threads_given = 1;
    return RL_OPT_TAKEN;
  }
  int t = RL_OPT_NOT_MINE;
  for (size_t k = 0; t == RL_OPT_NOT_MINE && k < ngroups(d); k++) {
    t = rl_decl_opt(&r->own[k], r->name, c, arg);
    const rl_param *p = t == RL_OPT_TAKEN ? r->own[k].list[c - r->own[k].first] : NULL;
    if (p)
      r->own_arg[k][c - r->own[k].first] = arg;
    if (p && (rc = not_chosen(r, p->key, p->only)))
      return RL_OPT_FAILED(rc);
  }
  if (t == RL_OPT_NOT_MINE && (d->takes & RL_TAKES_GRID)) {
    for (const struct option *o = opts; o->name && c >= RL_GOPT_FROM && c < RL_GOPT_LAST; o++)
      if (o->val == c && (rc = not_chosen(r, o->name, d->grid_only)))
        return RL_OPT_FAILED(rc);
    t = rl_grid_opt(&r->grid, r->name, c, arg);
  }
  return t;
}

static int parse(rl_cmd_run *r, int argc, char **argv)
{
  const rl_cmd_decl *d = r->cmd->decl;
  const struct option *opts = longopts(r);
  int c, rc, li = -1;
  while ((c = getopt_long(argc, argv, ":o:h", opts, &li)) != -1) {
    int t = own_opt(r, c, optarg, opts);
    if (rl_opt_failed(t))
      return rl_opt_exit_code(t);
    if (t == RL_OPT_TAKEN)
      continue;
    if (c >= RL_SCHOPT_FIRST && c <= RL_SCHOPT_LAST) {
      r->sched_given[c - RL_SCHOPT_FIRST] = 1;
      r->sched_last = li >= 0 ? opts[li].name : NULL;
    }
    li = -1;
    if (d->takes & RL_TAKES_SCHEME)
      rc = rl_scheme_opt_default(&r->scheme, &r->co, r->name, c, argv, opts);
    else if (d->takes & RL_TAKES_SCHEDULE)
      rc = rl_sched_opt_default(&r->sched, &r->co, r->name, c, argv, opts);
    else
      rc = rl_opt_default(&r->co, r->name, c, argv, opts);
    if (rc)
      return rc;
  }
  if (r->co.help) {
    rl_cmd_help(r->cmd, stdout);
    return RL_OPT_DONE;
  }
  /* the positional arguments */
  r->args = argv + optind;
  r->nargs = (size_t)(argc - optind);
  /* a command that takes none says what every command said before */
  if (r->nargs > d->max_args && !d->max_args)
    return rl_usage(r->name, "unexpected argument '%s'", argv[optind]);
  if (r->nargs > d->max_args && d->args_extra)
    return rl_usage(r->name, "unexpected argument '%s'%s", argv[optind + (int)d->max_args],
                    d->args_extra);
  if (r->nargs > d->max_args)
    return rl_usage(r->name, "unexpected argument '%s' (see 'ropelab help %s')",
                    argv[optind + (int)d->max_args], r->name);
  if (r->nargs < d->min_args)
    return rl_usage(r->name, "missing %s: expected %s (see 'ropelab help %s')",
                    d->args_name ? d->args_name : "arguments",
                    d->args_expect ? d->args_expect : d->usage, r->name);
  if (r->co.plot && !d->plot)
    return rl_usage(r->name, "invalid --plot '%s': %s draws no figure%s", r->co.plot, r->name,
                    d->plot_refuse ? d->plot_refuse : "");
  if (r->co.output && !(d->takes & (RL_TAKES_TABLE | RL_TAKES_FORMAT_ONLY)) && !d->output_arg)
    return rl_usage(r->name, "invalid --output '%s': %s writes no table", r->co.output, r->name);
  for (const char *k = d->fixed; k && *k;) {
    size_t l = strcspn(k, " ");
    char key[32];
    snprintf(key, sizeof key, "%.*s", (int)l, k);
    if (rl_cmd_sched_given(r, key))
      return rl_usage(r->name, "invalid --%s: %s", key, d->fixed_why);
    k += l + (k[l] == ' ');
  }
  if (d->prepare && (rc = d->prepare(r)))
    return rc;
  /* the groups' own ends: --config applied, --rot resolved, the grid */
  if ((d->takes & RL_TAKES_SCHEME) &&
      (rc = rl_scheme_opts_finish(&r->scheme, r->name, d->schemes_max, d->schemes_default)))
    return rc;
  if (!(d->takes & RL_TAKES_SCHEME) && (d->takes & RL_TAKES_SCHEDULE) &&
      (rc = rl_sched_opts_finish(&r->sched, r->name)))
    return rc;
  if ((d->takes & RL_TAKES_GRID) && (rc = rl_grid_opts_finish(&r->grid, r->name, &r->g)))
    return rc;
  if ((d->takes & RL_TAKES_THREADS) && !r->threads)
    r->threads = (unsigned long long)rl_online_cpus(RL_THREADS_MAX);
  return d->check ? d->check(r) : 0;
}

/* decl->choices: the first argument, before any option (bound men ...):
 * 0 and *choice its index, RL_OPT_DONE after the help, or a printed
 * usage error */
static int choose(const struct rl_cmd *c, int argc, char **argv, int *choice)
{
  const rl_cmd_decl *d = c->decl;
  const char *const *names = d->choices();
  size_t n = 0;
  char alt[256];
  while (names[n])
    n++;
  rl_names_alternatives(names, n, alt, sizeof alt);
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    rl_cmd_help(c, stdout);
    return RL_OPT_DONE;
  }
  if (argc < 2 || argv[1][0] == '-')
    return rl_usage(c->name, "missing %s: expected %s (see 'ropelab %s --help')",
                    d->choice_noun, alt, c->name);
  for (size_t k = 0; k < n; k++)
    if (!strcmp(argv[1], names[k])) {
      *choice = (int)k;
      return 0;
    }
  size_t s = rl_suggest(argv[1], names, n);
  if (s < n)
    return rl_usage(c->name, "unknown %s '%s': expected %s; did you mean '%s'?", d->choice_noun,
                    argv[1], alt, names[s]);
  return rl_usage(c->name, "unknown %s '%s': expected %s", d->choice_noun, argv[1], alt);
}

static int exec_decl(const struct rl_cmd *c, int argc, char **argv)
{
  const rl_cmd_decl *d = c->decl;
  int choice = -1, rc = d->choices ? choose(c, argc, argv, &choice) : 0;
  if (rc)
    return rc == RL_OPT_DONE ? RL_EXIT_OK : rc;
  void *settings = calloc(1, d->settings_size ? d->settings_size : 1);
  rl_cmd_run *r = malloc(sizeof *r);
  if (!settings || !r) {
    free(settings), free(r);
    return rl_runtime(c->name, "out of memory");
  }
  init(r, c, settings);
  r->choice = choice;
  /* the choice is the arguments' argv[0] */
  rc = d->choices ? parse(r, argc - 1, argv + 1) : parse(r, argc, argv);
  if (rc == RL_OPT_DONE) {
    rc = RL_EXIT_OK;
  } else if (!rc && r->meta_json) { /* the metadata of the table compute opens */
    rl_out_set_json(1, NULL);
    rc = d->compute(r);
    rl_out_set_json(0, NULL);
  } else if (!rc) {
    rc = d->compute(r);
  }
  free(settings), free(r);
  return rc;
}

int rl_cmd_exec(const struct rl_cmd *c, int argc, char **argv)
{
  if (c->decl && c->decl->form) {
    int rc = c->decl->form(argc, argv, &c);
    if (rc)
      return rc;
  }
  return c->decl ? exec_decl(c, argc, argv) : c->run(argc, argv);
}

int rl_cmd_sched_given(const rl_cmd_run *r, const char *key)
{
  int c = rl_sched_optval(key);
  return c >= RL_SCHOPT_FIRST && c <= RL_SCHOPT_LAST && r->sched_given[c - RL_SCHOPT_FIRST];
}

int rl_cmd_given(const rl_cmd_run *r, const char *key)
{
  const rl_cmd_decl *d = r->cmd->decl;
  for (size_t k = 0; k < ngroups(d); k++)
    for (size_t i = 0; r->own[k].list[i] && i < RL_DECL_MAX; i++)
      if (!strcmp(r->own[k].list[i]->key, key))
        return (r->own[k].given >> i) & 1u;
  return 0;
}

const char *rl_cmd_model_option_given(const rl_cmd_run *r, const char *const *own, size_t n)
{
  for (size_t k = 0; k < n; k++)
    if (rl_cmd_given(r, own[k]))
      return own[k];
  if (r->scheme.scheme_set)
    return "scheme";
  if (r->sched_last)
    return r->sched_last;
  for (size_t k = 0; k < sizeof r->scheme.given; k++)
    if (r->scheme.given[k])
      return "scheme option";
  return NULL;
}

const char *rl_cmd_arg(const rl_cmd_run *r, const char *key)
{
  const rl_cmd_decl *d = r->cmd->decl;
  for (size_t k = 0; k < ngroups(d); k++)
    for (size_t i = 0; r->own[k].list[i] && i < RL_DECL_MAX; i++)
      if (!strcmp(r->own[k].list[i]->key, key))
        return r->own_arg[k][i];
  return NULL;
}

int rl_cmd_sink_open(rl_cmd_run *r, rl_sink *s)
{
  return rl_sink_open(s, r->name, &r->co, r->cmd->decl->plot);
}

void rl_cmd_meta(const rl_cmd_run *r, rl_out *out)
{
  for (size_t k = 0; k < ngroups(r->cmd->decl); k++)
    rl_decl_meta(&r->own[k], out);
}

/* ---- help ------------------------------------------------------------- */

/* "  -o, --output ARG  its help" (RL_TAKES_FORMAT_ONLY: a table's FILE
 * unless output_arg says otherwise) */
static void help_output_arg(const rl_cmd_decl *d, FILE *fp)
{
  const char *arg = d->output_arg, *text = d->output_help;
  if (!arg && (d->takes & RL_TAKES_FORMAT_ONLY))
    arg = "FILE", text = "write to FILE, atomically (default: standard output)";
  if (arg) {
    char head[64];
    snprintf(head, sizeof head, "  -o, --output %-5s ", arg);
    rl_help_wrap(fp, head, 21, text);
  }
}

/* decl->choices: each one's section, its own rows (rl_param.only
 * naming it) and the grid where it takes it */
static void help_choices(const rl_cmd_decl *d, FILE *fp)
{
  const char *const *names = d->choices();
  for (size_t j = 0; names[j]; j++) {
    const rl_param *mine[RL_DECL_MAX + 1];
    size_t n = 0;
    fputs(d->choice_help[j].head, fp);
    for (size_t k = 0; k < ngroups(d); k++)
      for (const rl_param *const *p = d->groups[k].list(); *p && n < RL_DECL_MAX; p++)
        if (!d->groups[k].help_in_text && (*p)->only &&
            rl_opt_in_list((*p)->only, names[j], strlen(names[j])))
          mine[n++] = *p;
    mine[n] = NULL;
    rl_decl_help_at(fp, mine, d->choice_col);
    if ((d->takes & RL_TAKES_GRID) && d->grid_only &&
        rl_opt_in_list(d->grid_only, names[j], strlen(names[j])))
      rl_grid_opts_help(fp, d->grid);
    fputs(d->choice_help[j].tail, fp);
  }
}

/* the command's own part: the choices' sections, the groups' rows (with
 * choices, those that every choice takes), then help_own */
static void help_own(const rl_cmd_decl *d, FILE *fp)
{
  if (d->choices)
    help_choices(d, fp);
  for (size_t k = 0; k < ngroups(d); k++) {
    const rl_param *rows[RL_DECL_MAX + 1];
    size_t n = 0;
    for (const rl_param *const *p = d->groups[k].list(); *p && n < RL_DECL_MAX; p++)
      if (!d->groups[k].help_in_text && !(d->choices && (*p)->only))
        rows[n++] = *p;
    rows[n] = NULL;
    if (d->groups[k].title && n)
      fprintf(fp, "%s\n", d->groups[k].title);
    rl_decl_help(fp, rows);
  }
  if (d->help_own)
    d->help_own(fp);
}

static void help_decl(const struct rl_cmd *c, FILE *fp)
{
  const rl_cmd_decl *d = c->decl;
  fprintf(fp, "usage: ropelab %s %s\n\n%s", c->name, d->usage, d->about ? d->about : "");
  if (d->about && *d->about)
    fputc('\n', fp);
  if (d->own_first)
    help_own(d, fp);
  if (d->takes & RL_TAKES_SCHEME) {
    /* --scheme itself: one, or a list (the completion offers 'all' where
     * the help says so) */
    char text[160];
    if (d->schemes_max == 1)
      snprintf(text, sizeof text, "one scheme (%s%s; a wrong name lists them all)",
               d->schemes_default ? "default " : "required",
               d->schemes_default ? d->schemes_default : "");
    else
      snprintf(text, sizeof text, "comma-separated schemes, or 'all' (%s%s)",
               d->schemes_default ? "default " : "required",
               d->schemes_default ? d->schemes_default : "");
    rl_help_wrap(fp, d->schemes_max == 1 ? "      --scheme S     " : "      --scheme LIST  ", 21,
                 text);
    rl_scheme_opts_help(fp);
  } else if (d->takes & RL_TAKES_SCHEDULE) {
    /* except's options but those fixed (listed: refused by name) */
    char skip[256] = "";
    for (const char *k = d->except; k && *k;) {
      size_t l = strcspn(k, " ");
      if (!rl_opt_in_list(d->fixed, k, l))
        snprintf(skip + strlen(skip), sizeof skip - strlen(skip), "%s%.*s", *skip ? " " : "",
                 (int)l, k);
      k += l + (k[l] == ' ');
    }
    rl_sched_opts_help_except(fp, skip);
  }
  if ((d->takes & RL_TAKES_GRID) && !(d->choices && d->grid_only)) {
    const rl_grid_kind *k = d->grid;
    fprintf(fp, "%s:\n", k->nouns);
    rl_grid_opts_help(fp, k);
  }
  if (!d->own_first)
    help_own(d, fp);
  if (d->takes & RL_TAKES_THREADS)
    fputs("      --threads T    worker threads (default: online processors, at most 64);\n"
          "                     the output is the same bytes whatever T\n", fp);
  if (d->takes & RL_TAKES_NO_OUTPUT) { /* its footer follows the one blank line */
    fputs("  -h, --help         this help\n\n", fp);
    if (d->footer)
      fputs(d->footer, fp);
    return;
  }
  if (d->takes & (RL_TAKES_OUTPUT_ONLY | RL_TAKES_FORMAT_ONLY)) { /* straight after its own */
    help_output_arg(d, fp);
    if (d->takes & RL_TAKES_FORMAT_ONLY) {
      fputs("      --meta MODE    comments (default) or json: the metadata in FILE.json\n"
            "                     (replaced only if ropelab wrote it)\n", fp);
      rl_common_help_format(fp);
    }
    fputs("  -h, --help         this help\n", fp);
    if (d->footer)
      fprintf(fp, "\n%s", d->footer);
    return;
  }
  fputc('\n', fp);
  if (d->takes & RL_TAKES_TABLE) {
    if (d->plot)
      rl_common_help(fp);
    else
      rl_common_help_noplot(fp);
  } else {
    fputs("output:\n", fp);
    help_output_arg(d, fp);
    fputs("      --progress     show progress on stderr even when it is not a terminal\n"
          "      --quiet        never show progress\n"
          "  -h, --help         this help\n", fp);
  }
  if (d->footer)
    fprintf(fp, "\n%s", d->footer);
}

void rl_cmd_help(const struct rl_cmd *c, FILE *fp)
{
  if (c->decl)
    help_decl(c, fp);
  else
    c->help(fp);
}
