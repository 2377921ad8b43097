/* cmd_phase.c: `ropelab phase`, a command that exists only in the test
 * build (tests/cli/newcommand): the rotation angle m theta_i of each pair
 * at one position.  It shows what a new command is: this file (its
 * descriptor, two own options declared as rl_param, a compute function)
 * and one line in commands/registry.c; the driver gives it parsing, help,
 * errors, metadata, sweeps and output formats. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "driver.h"
#include "out.h"
#include "rowfmt.h"
#include "ropelab.h"

#define PI 3.14159265358979323846

typedef struct {
  size_t position; /* m */
  int wrap;        /* angles into [-pi, pi) */
} phase_settings;

static const rl_param p_position = {
    .key = "position", .kind = RL_PK_SIZE, .offset = offsetof(phase_settings, position),
    .lo = 0, .hi = 1e9, .dflt = 1, .metavar = "M", .unit = "tokens",
    .help = "the position m whose angles m theta_i are written"};
static const rl_param p_wrap = {
    .key = "wrap", .kind = RL_PK_FLAG, .offset = offsetof(phase_settings, wrap), .set_to = 1,
    .help = "angles reduced into [-pi, pi)"};
static const rl_param *const list[] = {&p_position, &p_wrap, NULL};
static const rl_param *const *phase_params(void) { return list; }

static int compute(rl_cmd_run *r)
{
  const phase_settings *s = r->settings;
  rl_schedule *f = NULL;
  rl_sink sink = {0};
  int rc = rl_sched_build(&r->sched.p, r->name, &f);
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  rl_out_meta_begin(&sink.out);
  rl_sched_meta(&r->sched.p, f, &sink.out);
  rl_cmd_meta(r, &sink.out);
  rl_out_header(&sink.out, "pair,angle");
  for (size_t i = 0; i < f->n && !sink.out.err; i++) {
    double a = (double)s->position * f->theta[i];
    if (s->wrap)
      a -= 2 * PI * floor((a + PI) / (2 * PI));
    char b[2][RL_NUMFMT_MAX];
    snprintf(b[0], sizeof b[0], "%zu", i);
    rl_numfmt(a, b[1]);
    const char *fld[2] = {b[0], b[1]};
    rl_out_fields(&sink.out, fld, 2);
  }
  rc = rl_sink_close(&sink, NULL);
done:
  rl_sink_abort(&sink);
  rl_schedule_free(f);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about = "The angle m theta_i of each rotary pair at position m (test build).\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE,
    .settings_size = sizeof(phase_settings),
    .groups = {{"angles:", phase_params, 0}},
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "",
    .compute = compute,
};

const struct rl_cmd rl_cmd_phase = {"phase", NULL, "the angle m theta_i of each pair (test build)",
                                    NULL, &decl};
