/* extrapolate.c: the properties of the measures past the training
 * length (src/core/measures) that `ropelab check` holds the core to.
 *   retrieval_n1        with one token the planted key is the only key:
 *                       p = 1 exactly, for every scheme;
 *   retrieval_uniform   nope with every key equal to the query gives n
 *                       equal logits: p = 1/n (and entropy ln n);
 *   unseen_within_L     no positional input is unseen while n <= L, for
 *                       every scheme (and the schedule's method for rope).
 * Tolerances: 1/(1 + z) with z = (n - 1) e^0 summed in long double is
 * within 2 eps of 1/n; the entropy ln s - t/s with t = 0 within 2 eps
 * relative of ln n. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "check_impl.h"

static rl_scheme_cfg cfg_of(const rl_check_params *p)
{
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = p->sched.dim;
  c.rope = p->sched;
  c.seed = p->seed;
  c.heads = 2;
  c.past = RL_PAST_CLAMP;
  return c;
}

/* Run one length through name; ok 0 when the scheme cannot take cfg. */
static rl_status one(const char *name, const rl_scheme_cfg *c, const rl_check_params *p,
                     size_t n, int identical, double *prob, double *ent, int *ok)
{
  rl_scheme *s;
  *ok = 0;
  if (rl_scheme_alloc(name, c, &s, NULL))
    return RL_OK; /* e.g. rope2d at d = 2: not this check's business */
  rl_scheme_free(s);
  size_t lens[1] = {n}, dists[1] = {0};
  rl_extrap_params ep;
  rl_extrap_params_default(&ep);
  ep.train_len = n;
  ep.lens = lens, ep.nlens = 1, ep.dists = dists, ep.ndists = 1;
  ep.samples = p->trials < 2 ? 2 : p->trials > 8 ? 8 : p->trials;
  ep.seed = p->seed;
  ep.identical = identical;
  ep.threads = 1;
  ep.measures = RL_EX_RETRIEVAL | RL_EX_ENTROPY;
  rl_extrap_result res;
  rl_status st = rl_extrap_result_alloc(&ep, &res);
  if (!st)
    st = rl_extrap_run(name, c, &ep, &res, NULL, NULL, NULL);
  if (!st) {
    *prob = res.ret_mean[0];
    *ent = res.ent_mean[0];
    *ok = 1;
  }
  rl_extrap_result_free(&res);
  return st;
}

static rl_status retrieval_n1(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  double err = 0;
  size_t tested = 0;
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
    double pr = 0, h = 0;
    int ok;
    rl_status st = one(i->name, &c, p, 1, 0, &pr, &h, &ok);
    if (st)
      return st;
    if (ok) {
      tested++;
      err = fmax(err, fmax(fabs(pr - 1), fabs(h)));
    }
  }
  rl_check_set(res, err, 0);
  snprintf(res->detail, sizeof res->detail,
           "max |p - 1|, |H| with one token, over %zu schemes", tested);
  return RL_OK;
}

static rl_status retrieval_uniform(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  static const size_t ns[] = {2, 7, 100, 1000};
  double err = 0;
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    double pr = 0, h = 0;
    int ok;
    rl_status st = one("nope", &c, p, ns[k], 1, &pr, &h, &ok);
    if (st)
      return st;
    if (!ok) /* nope takes every configuration: a failure is a bug */
      return RL_EINVAL;
    double n = (double)ns[k];
    err = fmax(err, fmax(fabs(pr * n - 1), fabs(h / log(n) - 1)));
  }
  rl_check_set(res, err, 4 * DBL_EPSILON);
  snprintf(res->detail, sizeof res->detail,
           "nope, keys = query: max |n p - 1|, |H / ln n - 1| for n = 2, 7, 100, 1000");
  return RL_OK;
}

static rl_status unseen_within(const rl_check_params *p, rl_check_result *res)
{
  rl_scheme_cfg c = cfg_of(p);
  static const size_t L = 64, ns[] = {1, 2, 17, 63, 64};
  static const rl_window wins[] = {{0, 0}, {16, 4}};
  double worst = 0;
  size_t tested = 0;
  rl_extrap_method_params(&c.rope, L, L);
  for (const rl_scheme_info *i = rl_scheme_list(); i->name; i++) {
    rl_scheme *s;
    if (rl_scheme_alloc(i->name, &c, &s, NULL))
      continue;
    rl_schedule *train = NULL;
    rl_status st = RL_OK;
    if (rl_unseen_input(s) == RL_INPUT_ANGLE)
      st = rl_unseen_train_schedule(rl_scheme_get_schedule(s), L, &train);
    for (size_t k = 0; !st && k < sizeof ns / sizeof *ns; k++)
      for (size_t w = 0; !st && w < 2; w++) {
        double tot;
        st = rl_unseen_eval(s, train, L, ns[k], &wins[w], &tot, NULL);
        if (!st && !(tot <= worst))
          worst = tot;
      }
    rl_schedule_free(train);
    rl_scheme_free(s);
    if (st)
      return st;
    tested++;
  }
  rl_check_set(res, worst, 0);
  snprintf(res->detail, sizeof res->detail,
           "largest unseen fraction for n <= L = 64 over %zu schemes, with and without a "
           "window", tested);
  return RL_OK;
}

const rl_check rl_checks_extrapolate[] = {
    {"retrieval_n1", "one token: the planted key takes all attention", retrieval_n1},
    {"retrieval_uniform", "equal logits: probability 1/n, entropy ln n", retrieval_uniform},
    {"unseen_within_L", "no positional input is unseen while n <= L", unseen_within},
    {NULL, NULL, NULL},
};
