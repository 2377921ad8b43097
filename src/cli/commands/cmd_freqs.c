/* cmd_freqs.c: `ropelab freqs`, the frequency schedule theta_i of any
 * method, per rotary pair. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "sink.h"

static void help(FILE *fp)
{
  fputs("usage: ropelab freqs [OPTIONS]\n"
        "\n"
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
        "square) are in the metadata.\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputc('\n', fp);
  rl_common_help(fp);
}

static int run(int argc, char **argv)
{
  static const struct option own_opts[] = { RL_COMMON_LONGOPTS, {NULL, 0, NULL, 0}};
  const struct option *opts = rl_sched_longopts(own_opts);
  const char *cmd = "freqs";
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1)
    if ((r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts)))
      return r;
  rl_schedule *f;
  if ((r = rl_sched_opts_end(&so, &co, cmd, argc, argv, help)) ||
      (r = rl_sched_build(&so.p, cmd, &f)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  if ((r = rl_sink_open(&sink, cmd, &co, "freqs.gp"))) {
    rl_schedule_free(f);
    return r;
  }
  double L = so.p.train_len;
  int have_train = L > 0, axes = f->axis != NULL;
  rl_out_meta_begin(out);
  rl_sched_meta(&so.p, f, out);
  char hdr[128] = "pair,theta,wavelength,ratio,band";
  if (have_train)
    strcat(hdr, ",rotations,full_turn");
  if (axes)
    strcat(hdr, ",axis");
  rl_out_header(out, hdr);
  static const char *const axis_names[] = {"t", "h", "w"};
  for (size_t i = 0; i < f->n && !out->err; i++) {
    char b[6][RL_NUMFMT_MAX];
    const char *fld[8];
    size_t m = 0;
    snprintf(b[0], sizeof b[0], "%zu", i);
    rl_numfmt(f->theta[i], b[1]);
    rl_numfmt(rl_schedule_wavelength(f, i), b[2]);
    rl_numfmt(rl_schedule_ratio(f, i), b[3]);
    fld[m++] = b[0], fld[m++] = b[1], fld[m++] = b[2], fld[m++] = b[3];
    fld[m++] = rl_band_name(f->band ? f->band[i] : RL_BAND_EXTRAPOLATED);
    if (have_train) {
      /* L*theta/(2*pi) in long double: one rounding instead of two */
      double rot = (double)((long double)L * (long double)f->theta[i] /
                            (2.0L * 3.14159265358979323846264338327950288L));
      rl_numfmt(rot, b[4]);
      fld[m++] = b[4];
      fld[m++] = rot >= 1.0 ? "1" : "0";
    }
    if (axes)
      fld[m++] = axis_names[f->axis[i]];
    rl_out_fields(out, fld, m);
  }
  rl_schedule_free(f);
  return rl_sink_close(&sink, NULL);
}

const struct rl_cmd rl_cmd_freqs = {"freqs", run,
                                    "the frequency schedule theta_i of a method, per pair", help, NULL};
