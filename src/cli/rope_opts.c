/* rope_opts.c: --dim, --base, --rot of the RoPE commands (rope_opts.h). */
#include "rope_opts.h"

void rl_rope_opts_init(rl_rope_opts *o)
{
  o->dim = 128;
  o->rot = 0;
  o->base = 10000;
  o->rot_arg = "dim";
}

int rl_rope_opt_default(rl_rope_opts *o, rl_common *co, const char *cmd, int c, char **argv,
                        const struct option *longopts)
{
  switch (c) {
  case RL_ROPT_DIM:
    return rl_opt_dim(cmd, optarg, &o->dim);
  case RL_ROPT_BASE:
    return rl_opt_base(cmd, optarg, &o->base);
  case RL_ROPT_ROT:
    o->rot_arg = optarg;
    return rl_opt_rot(cmd, optarg, &o->rot);
  default:
    return rl_opt_default(co, cmd, c, argv, longopts);
  }
}

int rl_rope_opts_finish(rl_rope_opts *o, const char *cmd)
{
  return rl_opt_rot_resolve(cmd, o->rot_arg, o->dim, &o->rot);
}

int rl_rope_opts_freqs(const rl_rope_opts *o, const char *cmd, rl_freqs **f)
{
  rl_status st = rl_freqs_rope(o->dim, o->rot, o->base, f);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", rl_strerror(st));
  if (st)
    return rl_usage(cmd, "invalid schedule: %s", rl_strerror(st));
  return 0;
}

void rl_rope_opts_meta(const rl_rope_opts *o, rl_out *out)
{
  rl_out_meta_uint(out, "dim", o->dim);
  rl_out_meta_uint(out, "rot", o->rot);
  rl_out_meta_num(out, "base", o->base);
}

void rl_rope_opts_help(FILE *fp)
{
  fputs("      --dim D        head dimension, even >= 2 (default 128)\n"
        "      --base B       base of the schedule, > 1 (default 10000)\n"
        "      --rot R        rotated dimensions, even, <= D; 'dim' for all (default dim)\n",
        fp);
}
