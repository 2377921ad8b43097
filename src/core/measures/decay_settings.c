/* decay_settings.c: `ropelab decay`'s measures, declared once
 * (ropelab/decay.h, param.h): --measure, a list of names whose order
 * is the columns'. */
#include <stdio.h>
#include <string.h>
#include "ropelab.h"

static const char *const names[] = {"bound", "similarity", "mc", NULL};
static const char *const columns[] = {
    "bound", "similarity",
    "mc_ind_mean,mc_ind_se,mc_self_mean,mc_self_se,mc_self_expect,abel_max"};

const char *rl_decay_measure_name(int m)
{
  return m >= 0 && m < RL_DECAY_NMEASURES ? names[m] : "";
}

const char *rl_decay_measure_columns(int m)
{
  return m >= 0 && m < RL_DECAY_NMEASURES ? columns[m] : "";
}

int rl_decay_runs(const rl_decay_settings *s, int m)
{
  for (size_t k = 0; k < s->norder; k++)
    if (s->order[k] == m)
      return 1;
  return 0;
}

size_t rl_decay_row_width(const rl_decay_settings *s)
{
  size_t w = 1;
  for (size_t k = 0; k < s->norder; k++)
    w += s->order[k] == RL_DECAY_MC ? 6 : 1;
  return w;
}

/* "bound,mc": each name once, in the order given */
static rl_status parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_decay_settings *s = obj;
  size_t count = 0;
  int order[RL_DECAY_NMEASURES];
  (void)d;
  rl_status st = rl_names_list("--measure", arg, names, RL_DECAY_NMEASURES, order,
                               RL_DECAY_NMEASURES, &count, err, n);
  if (st)
    return st;
  for (size_t k = 0; k < count; k++)
    s->order[k] = order[k];
  s->norder = count;
  return RL_OK;
}

static int format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const rl_decay_settings *s = obj;
  size_t len = 0;
  (void)d;
  buf[0] = 0;
  for (size_t k = 0; k < s->norder && len < n; k++)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? "," : "", names[s->order[k]]);
  return (int)len;
}

static void reset(const rl_param *d, void *obj)
{
  rl_decay_settings *s = obj;
  (void)d;
  s->order[0] = RL_DECAY_BOUND, s->norder = 1;
}

/* the help's rows after the first are a table of the measures: written
 * as they are (decl_opts.h) */
static const rl_param p_measure = {
    .key = "measure", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP,
    .offset = offsetof(rl_decay_settings, order), .metavar = "LIST",
    .parse = parse, .format = format, .reset = reset,
    .help = "comma-separated, columns in this order (default bound):\n"
            "                       bound       RoFormer's relative upper bound\n"
            "                                   (1/n) sum_j |S_j|\n"
            "                       similarity  sum_i cos(r theta_i) (Men et al. 2024, eq. 9)\n"
            "                       mc          Monte Carlo over random q, k: mc_ind_mean,\n"
            "                                   mc_ind_se, mc_self_mean, mc_self_se,\n"
            "                                   mc_self_expect, abel_max"};
static const rl_param *const list[] = {&p_measure, NULL};

const rl_param *const *rl_decay_param_list(void) { return list; }
