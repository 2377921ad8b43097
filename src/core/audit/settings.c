/* settings.c: `ropelab audit`'s own settings, declared once (param.h),
 * what it does with them (rl_audit_plan), and how a candidate is named
 * (rl_audit_params_text, rl_audit_format_name). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "ropelab.h"

#define AUDIT_FIELD(f) offsetof(rl_audit_settings, f)

static const char *const report_names[] = {"candidates", "pairs", "positions", NULL};

/* --sin and --positions: the text as given; the reader of the file and
 * of the list names what is wrong with it (an empty name is a file that
 * cannot be read, an empty list an empty list) */
static rl_status as_given(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)err, (void)n;
  *(const char **)((char *)obj + d->offset) = arg;
  return RL_OK;
}
static int given_text(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const char *v = *(const char *const *)((const char *)obj + d->offset);
  return snprintf(buf, n, "%s", v ? v : "");
}

static const rl_param p_sin = {
    .key = "sin", .kind = RL_PK_CUSTOM, .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = AUDIT_FIELD(sin), .metavar = "FILE2", .parse = as_given, .format = given_text,
    .help = "the sin table of a cos table FILE (same shape)"};
static const rl_param p_positions = {
    .key = "positions", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = AUDIT_FIELD(positions), .metavar = "LIST", .parse = as_given,
    .format = given_text, .expect = "a list of positions",
    .help = "the position of each row, when not 0, 1, 2, ... ('0:4095:1', '0,1,10,100', ...)"};
static const rl_param p_expect = {
    .key = "expect", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = AUDIT_FIELD(expect),
    .set_to = 1, .help = "verify against the schedule options (the CI recipe)"};
/* the tolerances: -1 (below their bound) until given */
static const rl_param p_tolerance = {
    .key = "tolerance", .kind = RL_PK_REAL, .flags = RL_PF_NO_META,
    .offset = AUDIT_FIELD(tolerance), .lo = 0, .hi = INFINITY, .dflt = -1, .dflt_text = "",
    .metavar = "T", .help = "verify: absolute tolerance, T >= 0"};
static const rl_param p_rtol = {
    .key = "rtol", .kind = RL_PK_REAL, .flags = RL_PF_NO_META, .offset = AUDIT_FIELD(rtol),
    .lo = 0, .hi = INFINITY, .dflt = -1, .dflt_text = "", .metavar = "R",
    .help = "verify: relative tolerance, R >= 0 (T + R |expected|)"};
static const rl_param p_ulps = {
    .key = "ulps", .kind = RL_PK_REAL, .flags = RL_PF_NO_META, .offset = AUDIT_FIELD(ulps),
    .lo = 0, .hi = INFINITY, .dflt = -1, .dflt_text = "", .metavar = "U",
    .help = "verify: at most U ulps of the table's format"};
static const rl_param p_report = {
    .key = "report", .kind = RL_PK_ENUM, .flags = RL_PF_NO_META, .offset = AUDIT_FIELD(report),
    .names = report_names, .dflt = RL_AUDIT_REPORT_CANDIDATES, .metavar = "R",
    .help = "candidates, pairs or positions"};

static const rl_param *const list[] = {&p_sin,  &p_positions, &p_expect, &p_tolerance,
                                       &p_rtol, &p_ulps,      &p_report, NULL};
/* the ones a sweep takes: numbers and names (the files and --positions
 * keep their commas) */
static const rl_param *const sweeps[] = {&p_tolerance, &p_rtol, &p_ulps, &p_report, NULL};

const rl_param *const *rl_audit_param_list(void) { return list; }
const rl_param *const *rl_audit_sweep_param_list(void) { return sweeps; }
const char *rl_audit_report_name(int report) { return report_names[report]; }

rl_status rl_audit_plan(rl_audit_settings *s)
{
  int tolerances = s->tolerance >= 0 || s->rtol >= 0 || s->ulps >= 0;
  s->mode = tolerances ? RL_AUDIT_MODE_ALLCLOSE
            : s->expect ? RL_AUDIT_MODE_MODEL
                        : RL_AUDIT_MODE_IDENTIFY;
  /* --report describes the best candidate identification finds */
  return s->report && s->mode != RL_AUDIT_MODE_IDENTIFY ? RL_EINVAL : RL_OK;
}

const char *rl_audit_format_name(int fmt)
{
  return fmt == 16 ? "float16" : fmt == 17 ? "bfloat16" : fmt == 32 ? "float32" : "float64";
}

void rl_audit_params_text(const rl_schedule_params *p, char *buf, size_t size)
{
  const rl_schedule_type *t = p->method;
  const double *factors = rl_schedule_get_list(p, "short-factors");
  char v[RL_NUMFMT_MAX];
  size_t l = 0;
  buf[0] = 0;
#define ADD(...) (l += (size_t)snprintf(buf + l, l < size ? size - l : 0, __VA_ARGS__))
#define TAKES(key) rl_schedule_param_applies(rl_schedule_param_find(key), t)
  if ((t->uses & RL_SP_TRAIN_LEN) && p->train_len > 0 && !factors) {
    rl_numfmt(p->train_len, v);
    ADD("train_len=%s", v);
  }
  if (TAKES("ramp")) {
    if (rl_schedule_get(p, "ramp") != 0)
      ADD(";ramp=paper");
    else
      ADD(";truncate=%s", rl_schedule_get(p, "truncate") != 0 ? "yes" : "no");
  }
  if (TAKES("low-freq-factor")) {
    rl_numfmt(rl_schedule_get(p, "low-freq-factor"), v);
    ADD(";low_freq_factor=%s", v);
    rl_numfmt(rl_schedule_get(p, "high-freq-factor"), v);
    ADD(";high_freq_factor=%s", v);
  }
  if (p->set & RL_SP_ATTN) {
    rl_numfmt(p->attention_factor, v);
    ADD(";attention_factor=%s", v);
  }
  if (TAKES("fraction") && rl_schedule_param_given(p, rl_schedule_param_find("fraction"))) {
    rl_numfmt(rl_schedule_get(p, "fraction"), v);
    ADD(";fraction=%s", v);
  }
  if (factors) { /* longrope: the fitted factors, pair by pair */
    size_t n = (p->rot ? p->rot : p->dim) / 2;
    ADD(";factors=");
    for (size_t i = 0; i < n; i++)
      ADD("%s%.6g", i ? ":" : "", factors[i]);
  }
#undef TAKES
#undef ADD
}
