/* grid_opts.c: the grid options (grid_opts.h). */
#include <math.h>
#include <string.h>
#include "grid_opts.h"

#define OUT_OF_RANGE "invalid %s '%s': %s beyond %.0f are outside the accurate range"

void rl_grid_opts_init(rl_grid_opts *o, const rl_grid_kind *k)
{
  memset(o, 0, sizeof *o);
  o->k = k;
  o->from = k->dflt->from, o->to = k->dflt->to, o->step = k->dflt->step;
  o->points = k->dflt->log_points;
  rl_numfmt(o->from, o->text[0]);
  rl_numfmt(o->to, o->text[1]);
  rl_numfmt(o->step, o->text[2]);
  o->from_arg = o->text[0], o->to_arg = o->text[1], o->step_arg = o->text[2];
}

int rl_grid_opt(rl_grid_opts *o, const char *cmd, int c, const char *arg)
{
  int r = 0;
  switch (c) {
  case RL_GOPT_FROM:
    o->from_arg = arg, o->from_set = 1;
    r = rl_opt_double(cmd, "--from", arg, &o->from);
    break;
  case RL_GOPT_TO:
    o->to_arg = arg;
    r = rl_opt_double(cmd, "--to", arg, &o->to);
    break;
  case RL_GOPT_STEP:
    o->step_arg = arg, o->step_set = 1;
    r = rl_opt_step(cmd, arg, &o->step);
    break;
  case RL_GOPT_POINTS:
    o->points_set = 1;
    r = rl_opt_uint(cmd, "--points", arg, 1, (unsigned long long)1e12, &o->points);
    break;
  case RL_GOPT_LOG:
    o->log = 1;
    break;
  default:
    return 0;
  }
  return r ? 0x100 + r : 1;
}

static int out_of_range(const rl_grid_opts *o, const char *cmd, const char *opt,
                        const char *arg)
{
  return rl_usage(cmd, OUT_OF_RANGE, opt, arg, o->k->nouns, RL_POS_MAX);
}

int rl_grid_opts_finish(rl_grid_opts *o, const char *cmd, rl_grid *g)
{
  if (o->log) {
    if (o->step_set)
      return rl_usage(cmd, "--step cannot be combined with --log (use --points)");
    if (!o->from_set) {
      o->from = o->k->dflt->log_from;
      rl_numfmt(o->from, o->text[0]);
      o->from_arg = o->text[0];
    }
    if (!(o->from > 0))
      return rl_usage(cmd, "invalid --from '%s': expected a number > 0 with --log", o->from_arg);
  } else if (o->points_set) {
    return rl_usage(cmd, "--points needs --log (a linear grid is set by --step)");
  }
  if (fabs(o->from) > RL_POS_MAX)
    return out_of_range(o, cmd, "--from", o->from_arg);
  if (fabs(o->to) > RL_POS_MAX)
    return out_of_range(o, cmd, "--to", o->to_arg);
  if (o->to < o->from || (o->log && o->points > 1 && !(o->to > o->from)))
    return rl_usage(cmd, "invalid range: --to '%s' is %s --from '%s'", o->to_arg,
                    o->to < o->from ? "below" : "not above", o->from_arg);
  rl_status st = o->log ? rl_grid_log(o->from, o->to, (size_t)o->points, g)
                        : rl_grid_linear(o->from, o->to, o->step, g);
  if (st == RL_ERANGE)
    return out_of_range(o, cmd, "--to", o->to_arg);
  if (st)
    return o->log ? rl_usage(cmd, "invalid log grid from '%s' to '%s': %s", o->from_arg,
                             o->to_arg, rl_strerror(st))
                  : rl_usage(cmd, "invalid --step '%s': too many rows from '%s' to '%s'",
                             o->step_arg, o->from_arg, o->to_arg);
  return 0;
}

void rl_grid_range_msg(const rl_grid_opts *o, char *msg, size_t size)
{
  snprintf(msg, size, OUT_OF_RANGE, "--to", o->to_arg, o->k->nouns, RL_POS_MAX);
}

int rl_grid_out_of_range(const rl_grid_opts *o, const char *cmd)
{
  return out_of_range(o, cmd, "--to", o->to_arg);
}

void rl_grid_opts_meta(const rl_grid_opts *o, rl_out *out)
{
  if (o->k->flags & RL_GRID_LOG)
    rl_out_meta(out, "grid", o->log ? "log" : "linear");
  rl_out_meta_num(out, "from", o->from);
  rl_out_meta_num(out, "to", o->to);
  if (o->log)
    rl_out_meta_uint(out, "points", o->points);
  else
    rl_out_meta_num(out, "step", o->step);
}

/* One row: the option padded to the kind's column, then the text. */
static void row(FILE *fp, const rl_grid_kind *k, const char *opt, const char *text)
{
  fprintf(fp, "      %-*s%s\n", k->width, opt, text);
}

void rl_grid_opts_help(FILE *fp, const rl_grid_kind *k)
{
  const rl_grid_default *d = k->dflt;
  int lg = (k->flags & RL_GRID_LOG) != 0;
  char t[256], n[3][RL_NUMFMT_MAX], lf[RL_NUMFMT_MAX];
  rl_numfmt(d->from, n[0]);
  rl_numfmt(d->to, n[1]);
  rl_numfmt(d->step, n[2]);
  rl_numfmt(d->log_from, lf);
  if (lg)
    snprintf(t, sizeof t, "first %s (default %s; %s with --log)", k->noun, n[0], lf);
  else
    snprintf(t, sizeof t, "first %s (default %s)", k->noun, n[0]);
  row(fp, k, "--from A", t);
  if (k->flags & RL_GRID_HELP_MAX)
    snprintf(t, sizeof t, "last %s, |B| <= %.0f (default %s)", k->noun, RL_POS_MAX, n[1]);
  else
    snprintf(t, sizeof t, "last %s (default %s)", k->noun, n[1]);
  row(fp, k, "--to B", t);
  snprintf(t, sizeof t, "%s (default %s%s)",
           k->spacing ? k->spacing : lg ? "linear spacing, > 0" : "spacing, > 0", n[2],
           k->step_note ? k->step_note : "");
  row(fp, k, "--step S", t);
  if (!lg)
    return;
  snprintf(t, sizeof t, "log-spaced %s instead (needs --from > 0)", k->nouns);
  row(fp, k, "--log", t);
  snprintf(t, sizeof t, "number of log-spaced %s (default %zu; --log only)", k->nouns,
           d->log_points);
  row(fp, k, "--points N", t);
}
