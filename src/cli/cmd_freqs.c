/* cmd_freqs.c: `ropelab freqs`, the frequency schedule theta_i of RoPE. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rope_opts.h"
#include "ropelab.h"
#include "sink.h"

enum { OPT_TRAIN_LEN = RL_OPT_FIRST_CMD };

static void help(FILE *fp)
{
  fputs("usage: ropelab freqs [OPTIONS]\n"
        "\n"
        "The RoPE frequency schedule theta_i = base^(-2i/rot), i = 0..rot/2-1\n"
        "(RoFormer eq. 15), one row per rotary pair: pair,theta,wavelength where\n"
        "wavelength = 2*pi/theta is the number of positions per full turn.\n"
        "\n"
        "schedule:\n", fp);
  rl_rope_opts_help(fp);
  fputs("      --train-len L  add rotations = L/wavelength and full_turn = 1 when the\n"
        "                     pair turns at least once within L positions (default off)\n"
        "\n", fp);
  rl_common_help(fp);
}

static int run(int argc, char **argv)
{
  static const struct option opts[] = {
      RL_ROPE_LONGOPTS,
      {"train-len", required_argument, NULL, OPT_TRAIN_LEN},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const char *cmd = "freqs";
  rl_rope_opts ro;
  rl_rope_opts_init(&ro);
  double train_len = 0;
  int have_train = 0;
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_TRAIN_LEN:
      if ((r = rl_opt_double(cmd, "--train-len", optarg, &train_len)))
        return r;
      if (!(train_len > 0))
        return rl_usage(cmd, "invalid --train-len '%s': expected a number > 0", optarg);
      have_train = 1;
      break;
    default:
      if ((r = rl_rope_opt_default(&ro, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if (co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  rl_freqs *f;
  if ((r = rl_opt_no_args(cmd, argc, argv)) || (r = rl_rope_opts_finish(&ro, cmd)) ||
      (r = rl_rope_opts_freqs(&ro, cmd, &f)))
    return r;
  rl_sink sink;
  rl_out *out = &sink.out;
  if ((r = rl_sink_open(&sink, cmd, &co, "freqs.gp"))) {
    rl_freqs_free(f);
    return r;
  }
  rl_out_meta_begin(out);
  rl_rope_opts_meta(&ro, out);
  if (have_train)
    rl_out_meta_num(out, "train_len", train_len);
  rl_out_header(out, have_train ? "pair,theta,wavelength,rotations,full_turn"
                                : "pair,theta,wavelength");
  for (size_t i = 0; i < f->n; i++) {
    double row[5];
    row[0] = (double)i;
    row[1] = f->theta[i];
    row[2] = rl_freqs_wavelength(f, i);
    if (have_train) {
      /* L*theta/(2*pi) in long double: one rounding instead of two */
      row[3] = (double)((long double)train_len * (long double)f->theta[i] /
                        (2.0L * 3.14159265358979323846264338327950288L));
      row[4] = row[3] >= 1.0;
    }
    rl_out_row(out, row, have_train ? 5 : 3);
  }
  rl_freqs_free(f);
  return rl_sink_close(&sink, NULL);
}

const struct rl_cmd rl_cmd_freqs = {"freqs", run, "the frequency schedule theta_i and wavelengths",
                                    help};
