/* grid.c: the relative distances a curve is evaluated at. */
#include <math.h>
#include <stddef.h>
#include "ropelab.h"

static int in_range(double x)
{
  return isfinite(x) && fabs(x) <= RL_POS_MAX;
}

rl_status rl_grid_linear(double from, double to, double step, rl_grid *g)
{
  if (!isfinite(from) || !isfinite(to) || !isfinite(step) || !(step > 0) || to < from)
    return RL_EINVAL;
  if (!in_range(from) || !in_range(to))
    return RL_ERANGE;
  /* slack of 1e-12 relative so that 0:0.1:1 includes 1 despite rounding */
  double span = (to - from) / step;
  double cnt = floor(span * (1.0 + 1e-12) + 1e-12) + 1.0;
  if (!(cnt >= 1.0) || cnt > 1e15)
    return RL_EINVAL;
  g->from = from;
  g->to = to;
  g->step = step;
  g->points = (size_t)cnt;
  g->log = 0;
  return RL_OK;
}

rl_status rl_grid_log(double from, double to, size_t points, rl_grid *g)
{
  if (!isfinite(from) || !isfinite(to) || !(from > 0) || points < 1 || to < from ||
      (points > 1 && !(to > from)))
    return RL_EINVAL;
  if (!in_range(to))
    return RL_ERANGE;
  g->from = from;
  g->to = to;
  g->step = 0;
  g->points = points;
  g->log = 1;
  return RL_OK;
}

double rl_grid_at(const rl_grid *g, size_t j)
{
  if (g->log) {
    if (g->points == 1 || j == 0)
      return g->from;
    if (j + 1 == g->points)
      return g->to; /* exact end points, not exp(log(to)) */
    double t = (double)j / (double)(g->points - 1), q = g->to / g->from;
    if (isfinite(q))
      return g->from * pow(q, t);
    /* to / from overflows (--from 1e-300 --to 1e9 gave r = inf): each
     * power is finite and the product lies between from and to */
    return pow(g->from, 1 - t) * pow(g->to, t);
  }
  double r = fma((double)j, g->step, g->from);
  return r > g->to ? g->to : r; /* the slack never steps past to */
}

int rl_grid_is_exact(const rl_grid *g)
{
  if (g->log)
    return 0;
  /* from + j*step is exact for every row when from and step are integer
   * multiples of 2^-e and the largest value times 2^e stays below 2^53. */
  for (int e = 0; e <= 30; e++) {
    double sc = ldexp(1.0, e);
    double a = g->from * sc, b = g->step * sc;
    if (a == nearbyint(a) && b == nearbyint(b)) {
      double hi = fmax(fabs(g->from), fabs(g->from + (double)(g->points - 1) * g->step));
      return hi * sc < 0x1p53;
    }
  }
  return 0;
}

/* The grid options of each command (grid.h).  One macro per option so
 * a grid's defaults are written once, beside its words; the help's
 * "|B| <= 2147483648" is RL_POS_MAX (angle.h). */
#define GRID_FIELD(f) offsetof(rl_grid_settings, f)
#define P_FROM(name, FROM, text, dtext)                                                      \
  static const rl_param name = {.key = "from", .kind = RL_PK_REAL, .offset = GRID_FIELD(from), \
                                .lo = -INFINITY, .hi = INFINITY, .dflt = FROM, .metavar = "A",  \
                                .help = text, .dflt_text = dtext}
#define P_TO(name, TO, text)                                                                 \
  static const rl_param name = {.key = "to", .kind = RL_PK_REAL, .offset = GRID_FIELD(to),    \
                                .lo = -INFINITY, .hi = INFINITY, .dflt = TO, .metavar = "B",    \
                                .help = text}
#define P_STEP(name, STEP, text, dtext)                                                      \
  static const rl_param name = {.key = "step", .kind = RL_PK_REAL, .offset = GRID_FIELD(step), \
                                .flags = RL_PF_LO_OPEN, .lo = 0, .hi = INFINITY, .dflt = STEP,  \
                                .metavar = "S", .help = text, .dflt_text = dtext}
#define POS_MAX_TEXT "2147483648"
#define STR(x) #x
#define XSTR(x) STR(x)

/* decay: RoFormer Fig. 2's r = 0..256, or 256 log-spaced from 1 */
#define FIG2_FROM 0
#define FIG2_TO 256
#define FIG2_STEP 1
#define FIG2_LOG_FROM 1
#define FIG2_POINTS 256
P_FROM(fig2_from, FIG2_FROM, "first distance",
       XSTR(FIG2_FROM) "; " XSTR(FIG2_LOG_FROM) " with --log");
P_TO(fig2_to, FIG2_TO, "last distance, |B| <= " POS_MAX_TEXT);
P_STEP(fig2_step, FIG2_STEP, "linear spacing, > 0", NULL);
static const rl_param fig2_log = {.key = "log", .kind = RL_PK_FLAG, .offset = GRID_FIELD(log),
                                  .set_to = 1,
                                  .help = "log-spaced distances instead (needs --from > 0)"};
static const rl_param fig2_points = {
    .key = "points", .kind = RL_PK_SIZE, .offset = GRID_FIELD(points), .lo = 1, .hi = 1e12,
    .dflt = FIG2_POINTS, .metavar = "N", .dflt_text = XSTR(FIG2_POINTS) "; --log only",
    .help = "number of log-spaced distances"};
static const rl_param *const fig2[] = {&fig2_from, &fig2_to, &fig2_step, &fig2_log,
                                       &fig2_points, NULL};
const rl_grid_default rl_grid_fig2 = {fig2, FIG2_LOG_FROM, 1};

/* profile: the same axis, linear; table schemes need integer steps */
P_FROM(prof_from, FIG2_FROM, "first distance", NULL);
P_TO(prof_to, FIG2_TO, "last distance");
P_STEP(prof_step, FIG2_STEP, "spacing, > 0", XSTR(FIG2_STEP) "; integer for table schemes");
static const rl_param *const prof[] = {&prof_from, &prof_to, &prof_step, NULL};
const rl_grid_default rl_grid_fig2_profile = {prof, 0, 0};

/* angles: positions 0..15 */
P_FROM(table_from, 0, "first position", NULL);
P_TO(table_to, 15, "last position, |B| <= " POS_MAX_TEXT);
P_STEP(table_step, 1, "spacing, > 0", NULL);
static const rl_param *const table[] = {&table_from, &table_to, &table_step, NULL};
const rl_grid_default rl_grid_table = {table, 0, 0};

/* bound pi: s = 0..4095 */
P_FROM(fig5_from, 0, "first value of s", NULL);
P_TO(fig5_to, 4095, "last value of s");
P_STEP(fig5_step, 1, "spacing of s", NULL);
static const rl_param *const fig5[] = {&fig5_from, &fig5_to, &fig5_step, NULL};
const rl_grid_default rl_grid_pi_fig5 = {fig5, 0, 0};

void rl_grid_settings_default(const rl_grid_default *g, rl_grid_settings *s)
{
  *s = (rl_grid_settings){0};
  for (const rl_param *const *d = g->params; *d; d++)
    rl_param_set_default(*d, s);
}
