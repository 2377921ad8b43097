/* grid_opts.c: the grid options (grid_opts.h). */
#include <math.h>
#include <string.h>
#include "grid_opts.h"

#define OUT_OF_RANGE "invalid %s '%s': %s beyond %.0f are outside the accurate range"

enum { FROM, TO, STEP, LOG, POINTS }; /* the declarations' order (grid.h) */

void rl_grid_opts_init(rl_grid_opts *o, const rl_grid_kind *k)
{
  memset(o, 0, sizeof *o);
  o->k = k;
  rl_decl_opts_init(&o->d, k->dflt->params, &o->s, RL_GOPT_FROM);
  rl_numfmt(o->s.from, o->text[0]);
  rl_numfmt(o->s.to, o->text[1]);
  rl_numfmt(o->s.step, o->text[2]);
  o->from_arg = o->text[0], o->to_arg = o->text[1], o->step_arg = o->text[2];
}

size_t rl_grid_longopts(const rl_grid_opts *o, struct option *all, size_t n, size_t cap)
{
  return rl_decl_longopts(&o->d, all, n, cap);
}

static int given(const rl_grid_opts *o, int k) { return (o->d.given >> k) & 1u; }

int rl_grid_opt(rl_grid_opts *o, const char *cmd, int c, const char *arg)
{
  int r = rl_decl_opt(&o->d, cmd, c, arg);
  if (r == RL_OPT_TAKEN) {
    if (c == RL_GOPT_FROM + FROM)
      o->from_arg = arg;
    else if (c == RL_GOPT_FROM + TO)
      o->to_arg = arg;
    else if (c == RL_GOPT_FROM + STEP)
      o->step_arg = arg;
  }
  return r;
}

static int out_of_range(const rl_grid_opts *o, const char *cmd, const char *opt,
                        const char *arg)
{
  return rl_usage(cmd, OUT_OF_RANGE, opt, arg, o->k->nouns, RL_POS_MAX);
}

int rl_grid_opts_finish(rl_grid_opts *o, const char *cmd, rl_grid *g)
{
  rl_grid_settings *s = &o->s;
  if (s->log) {
    if (given(o, STEP))
      return rl_usage(cmd, "--step cannot be combined with --log (use --points)");
    if (!given(o, FROM)) {
      s->from = o->k->dflt->log_from;
      rl_numfmt(s->from, o->text[0]);
      o->from_arg = o->text[0];
    }
    if (!(s->from > 0))
      return rl_usage(cmd, "invalid --from '%s': expected a number > 0 with --log", o->from_arg);
  } else if (o->k->dflt->has_log && given(o, POINTS)) {
    return rl_usage(cmd, "--points needs --log (a linear grid is set by --step)");
  }
  if (fabs(s->from) > RL_POS_MAX)
    return out_of_range(o, cmd, "--from", o->from_arg);
  if (fabs(s->to) > RL_POS_MAX)
    return out_of_range(o, cmd, "--to", o->to_arg);
  if (s->to < s->from || (s->log && s->points > 1 && !(s->to > s->from)))
    return rl_usage(cmd, "invalid range: --to '%s' is %s --from '%s'", o->to_arg,
                    s->to < s->from ? "below" : "not above", o->from_arg);
  rl_status st = s->log ? rl_grid_log(s->from, s->to, s->points, g)
                        : rl_grid_linear(s->from, s->to, s->step, g);
  if (st == RL_ERANGE)
    return out_of_range(o, cmd, "--to", o->to_arg);
  if (st)
    return s->log ? rl_usage(cmd, "invalid log grid from '%s' to '%s': %s", o->from_arg,
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
  if (o->k->dflt->has_log)
    rl_out_meta(out, "grid", o->s.log ? "log" : "linear");
  rl_out_meta_num(out, "from", o->s.from);
  rl_out_meta_num(out, "to", o->s.to);
  if (o->s.log)
    rl_out_meta_uint(out, "points", o->s.points);
  else
    rl_out_meta_num(out, "step", o->s.step);
}

void rl_grid_opts_help(FILE *fp, const rl_grid_kind *k)
{
  rl_decl_help_at(fp, k->dflt->params, k->col);
}
