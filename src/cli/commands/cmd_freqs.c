/* cmd_freqs.c: `ropelab freqs`, the frequency schedule theta_i of any
 * method, per rotary pair: a declared command (cmd.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "ropelab.h"

static const char *const axis_names[] = {"t", "h", "w"};

/* the other variant's schedule (--compare-variant): the same settings */
static int other(rl_cmd_run *r, const rl_freqs_settings *s, rl_schedule **g)
{
  rl_schedule_params q = r->sched.p;
  rl_schedule_set(&q, "variant", s->compare_variant - 1);
  return rl_sched_build(&q, r->name, g);
}

static void meta(rl_cmd_run *r, const rl_schedule *f, const rl_schedule *g, rl_out *out)
{
  const rl_freqs_settings *s = r->settings;
  rl_out_meta_begin(out);
  rl_sched_meta(&r->sched.p, f, out);
  rl_cmd_meta(r, out);
  if (s->turns_within > 0)
    rl_out_meta_uint(out, "pairs_turned", rl_schedule_turned(f, s->turns_within));
  if (g) {
    rl_schedule_diff d;
    rl_schedule_compare(f, g, &d);
    const char *v = rl_variant_name((rl_variant)(s->compare_variant - 1));
    char key[64], num[RL_NUMFMT_MAX];
    snprintf(key, sizeof key, "pairs_differing_from_%s", v);
    rl_out_meta_uint(out, key, d.differing);
    snprintf(key, sizeof key, "largest_ratio_to_%s", v);
    rl_numfmt(d.ratio, num);
    rl_out_meta(out, key, num);
    snprintf(key, sizeof key, "largest_ratio_pair");
    rl_out_meta_uint(out, key, d.pair);
  }
}

static void header(rl_out *out, const rl_freqs_settings *s, const rl_schedule *f,
                   const rl_schedule *g, double L, double N)
{
  char hdr[160] = "pair,theta,wavelength,ratio,band";
  strcat(hdr, L > 0 ? ",rotations,full_turn" : "");
  strcat(hdr, N > 0 ? ",turns,turned" : "");
  if (g)
    snprintf(hdr + strlen(hdr), sizeof hdr - strlen(hdr), ",ratio_to_%s",
             rl_variant_name((rl_variant)(s->compare_variant - 1)));
  strcat(hdr, f->axis ? ",axis" : "");
  rl_out_header(out, hdr);
}

/* pair i's row: the columns header() named */
static void row(rl_out *out, const rl_schedule *f, const rl_schedule *g, const double *ratio,
                size_t i, double L, double N)
{
  char b[8][RL_NUMFMT_MAX];
  const char *fld[12];
  size_t m = 0;
  snprintf(b[0], sizeof b[0], "%zu", i);
  rl_numfmt(f->theta[i], b[1]);
  rl_numfmt(rl_schedule_wavelength(f, i), b[2]);
  rl_numfmt(ratio[i], b[3]);
  fld[m++] = b[0], fld[m++] = b[1], fld[m++] = b[2], fld[m++] = b[3];
  fld[m++] = rl_band_name(f->band ? f->band[i] : RL_BAND_EXTRAPOLATED);
  if (L > 0) {
    double t = rl_schedule_turns(f, i, L);
    rl_numfmt(t, b[4]);
    fld[m++] = b[4], fld[m++] = t >= 1.0 ? "1" : "0";
  }
  if (N > 0) {
    double t = rl_schedule_turns(f, i, N);
    rl_numfmt(t, b[5]);
    fld[m++] = b[5], fld[m++] = t >= 1.0 ? "1" : "0";
  }
  if (g) {
    rl_numfmt(rl_schedule_pair_ratio(f, g, i), b[6]);
    fld[m++] = b[6];
  }
  if (f->axis)
    fld[m++] = axis_names[f->axis[i]];
  rl_out_fields(out, fld, m);
}

static int compute(rl_cmd_run *r)
{
  const rl_freqs_settings *s = r->settings;
  rl_schedule *f = NULL, *g = NULL;
  double *ratio = NULL;
  int rc = rl_sched_build(&r->sched.p, r->name, &f);
  if (!rc && s->compare_variant)
    rc = other(r, s, &g);
  rl_sink sink = {0};
  if (!rc && !(ratio = malloc(f->n * sizeof *ratio)))
    rc = rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  if (!rc)
    rl_schedule_ratios(f, ratio);
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  rl_out *out = &sink.out;
  double L = r->sched.p.train_len, N = s->turns_within;
  meta(r, f, g, out);
  header(out, s, f, g, L, N);
  /* issue 33 item 5: 2^19 rows at d = 2^20 are not silent */
  rl_progress prog;
  rl_progress_init(&prog, r->name, r->co.progress, f->n, f->n > 100000);
  for (size_t i = 0; i < f->n && !out->err; i++) {
    if (i % 4096 == 0)
      rl_progress_update(&prog, i);
    row(out, f, g, ratio, i, L, N);
  }
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  free(ratio);
  rl_schedule_free(f);
  rl_schedule_free(g);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "[OPTIONS]",
    .about =
        "The frequency schedule of a RoPE method, one row per rotary pair i:\n"
        "  theta       the frequency, radians per position (RoFormer eq. 15:\n"
        "              base^(-2i/rot); the methods rescale it)\n"
        "  wavelength  2*pi/theta, positions per full turn (inf: the pair never turns)\n"
        "  ratio       theta over RoFormer's theta_i of the same dim, rot and base\n"
        "  band        extrapolated (frequency kept), interpolated (divided by the\n"
        "              factor), between, or unrotated, as the method defines it\n"
        "With --train-len L also rotations = L/wavelength and full_turn = 1 when the\n"
        "pair turns at least once within L; with --method mrope also axis (t, h, w).\n"
        "The head's attention factor (on cos and sin) and logit multiplier (its\n"
        "square) are in the metadata.\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_freqs_settings),
    .groups = {{"pairs:", rl_freqs_param_list, 0}},
    .plot = "freqs.gp",
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "",
    .plot_x = "pair", .plot_y = "theta", .plot_log = "y",
    .plot_units = "pair=index;theta=rad/token",
    .compute = compute,
};

const struct rl_cmd rl_cmd_freqs = {"freqs", NULL,
                                    "the frequency schedule theta_i of a method, per pair", NULL,
                                    &decl};
