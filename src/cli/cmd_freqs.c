/* cmd_freqs.c: `ropelab freqs`, the frequency schedule theta_i of RoPE. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "ropelab.h"
#include "sink.h"

enum { OPT_DIM = RL_OPT_FIRST_CMD, OPT_BASE, OPT_ROT, OPT_TRAIN_LEN };

static void help(FILE *fp)
{
  fputs("usage: ropelab freqs [OPTIONS]\n"
        "\n"
        "The RoPE frequency schedule theta_i = base^(-2i/rot), i = 0..rot/2-1\n"
        "(RoFormer eq. 15), one row per rotary pair: pair,theta,wavelength where\n"
        "wavelength = 2*pi/theta is the number of positions per full turn.\n"
        "\n"
        "schedule:\n"
        "      --dim D        head dimension, even >= 2 (default 128)\n"
        "      --base B       base of the schedule, > 1 (default 10000)\n"
        "      --rot R        rotated dimensions, even, <= D; 'dim' for all (default dim)\n"
        "      --train-len L  add rotations = L/wavelength and full_turn = 1 when the\n"
        "                     pair turns at least once within L positions (default off)\n"
        "\n", fp);
  rl_common_help(fp);
}

static int run(int argc, char **argv)
{
  static const struct option opts[] = {
      {"dim", required_argument, NULL, OPT_DIM},
      {"base", required_argument, NULL, OPT_BASE},
      {"rot", required_argument, NULL, OPT_ROT},
      {"train-len", required_argument, NULL, OPT_TRAIN_LEN},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const char *cmd = "freqs";
  size_t dim = 128, rot = 0;
  double base = 10000, train_len = 0;
  int have_train = 0;
  const char *rot_arg = "dim";
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_DIM:
      if ((r = rl_opt_dim(cmd, optarg, &dim)))
        return r;
      break;
    case OPT_BASE:
      if ((r = rl_opt_base(cmd, optarg, &base)))
        return r;
      break;
    case OPT_ROT:
      rot_arg = optarg;
      if ((r = rl_opt_rot(cmd, optarg, &rot)))
        return r;
      break;
    case OPT_TRAIN_LEN:
      if ((r = rl_opt_double(cmd, "--train-len", optarg, &train_len)))
        return r;
      if (!(train_len > 0))
        return rl_usage(cmd, "invalid --train-len '%s': expected a number > 0", optarg);
      have_train = 1;
      break;
    default:
      if ((r = rl_opt_default(&co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if (co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if ((r = rl_opt_no_args(cmd, argc, argv)) || (r = rl_opt_rot_resolve(cmd, rot_arg, dim, &rot)))
    return r;

  rl_freqs *f;
  rl_status st = rl_freqs_rope(dim, rot, base, &f);
  if (st)
    return st == RL_ENOMEM ? rl_runtime(cmd, "%s", rl_strerror(st))
                           : rl_usage(cmd, "invalid schedule: %s", rl_strerror(st));
  rl_sink sink;
  rl_out *out = &sink.out;
  if ((r = rl_sink_open(&sink, cmd, &co, "freqs.gp"))) {
    rl_freqs_free(f);
    return r;
  }
  rl_out_meta_begin(out);
  rl_out_meta_uint(out, "dim", dim);
  rl_out_meta_uint(out, "rot", rot);
  rl_out_meta_num(out, "base", base);
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
