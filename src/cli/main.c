/* main.c: `ropelab COMMAND [OPTIONS]` dispatch (the kmod tools/kmod.c and
 * git help.c pattern).  A new command is one cmd_<name>.c file plus one
 * line in commands/registry.c; its declaration (cmd.h) gives it parsing,
 * help, sweeps, --shard, --jobs and --meta. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rl_config.h"
#include "ropelab.h"
#include "sweep.h"

static void usage(FILE *fp)
{
  fputs("usage: ropelab [--help] [--version] COMMAND [OPTIONS]\n"
        "\n"
        "A laboratory for the numerical properties of rotary position embedding.\n"
        "\n"
        "commands:\n", fp);
  /* the name column as wide as the longest name, so that two blanks
   * always separate name and summary (src/cli/dist reads them so) */
  int w = 10;
  for (const struct rl_cmd *const *c = rl_commands; *c; c++)
    if ((int)strlen((*c)->name) + 1 > w)
      w = (int)strlen((*c)->name) + 1;
  for (const struct rl_cmd *const *c = rl_commands; *c; c++)
    fprintf(fp, "  %-*s %s\n", w, (*c)->name, (*c)->summary);
  fputs("\n"
        "  help COMMAND   the options of COMMAND, with their defaults\n"
        "  help methods   the frequency schedules (context-extension methods)\n"
        "\n"
        "exit status:\n"
        "  0  success\n"
        "  1  a checked property failed (check)\n"
        "  2  usage error: bad option, value or command\n"
        "  3  runtime error: I/O, memory, gnuplot\n"
        "\n"
        "Output is CSV on standard output (or -o FILE, written atomically): the\n"
        "header row, then '# key=value' metadata lines unless --no-meta, then the\n"
        "rows; numbers are the shortest decimal that reads back exactly, always\n"
        "with '.' as decimal point.  numpy's genfromtxt(names=True), pandas'\n"
        "read_csv(comment='#') and R's read.csv(comment.char='#') read it as is.\n", fp);
}

static int unknown(const char *name)
{
  const char *names[64] = {0};
  size_t n = 0;
  for (const struct rl_cmd *const *c = rl_commands; *c && n < 64; c++)
    names[n++] = (*c)->name;
  size_t s = rl_suggest(name, names, n);
  if (s < n)
    return rl_usage(NULL, "'%s' is not a ropelab command; did you mean '%s'?", name, names[s]);
  return rl_usage(NULL, "'%s' is not a ropelab command; see 'ropelab --help'", name);
}

/* `ropelab help methods`: the schedule registry, with citations */
static int methods(void)
{
  puts("The frequency schedules (--method M of every command with RoPE in it):\n");
  char head[64];
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++) {
    snprintf(head, sizeof head, "  %-13s ", (*t)->name);
    rl_help_wrap(stdout, head, 16, (*t)->summary);
    rl_help_wrap(stdout, "                paper: ", 23, (*t)->paper);
    rl_help_wrap(stdout, "                code:  ", 23, (*t)->code);
    putchar('\n');
  }
  puts("Options each method takes: see 'ropelab help freqs'; a setting the method does\n"
       "not use is an error.");
  return RL_EXIT_OK; /* a write error: see finish */
}

static int help(int argc, char **argv)
{
  if (argc < 2) {
    usage(stdout);
    return RL_EXIT_OK;
  }
  if (argc > 2)
    return rl_usage("help", "unexpected argument '%s'", argv[2]);
  if (!strcmp(argv[1], "methods"))
    return methods();
  const struct rl_cmd *c = rl_cmd_find(argv[1]);
  if (!c)
    return unknown(argv[1]);
  rl_cmd_help(c, stdout);
  rl_sweep_help(stdout, c->name);
  return RL_EXIT_OK;
}

/* What went to standard output outside a table (--help, --version, help
 * CMD, CMD --help) must have reached it, as a table must (rl_out_close
 * reports a table's own error, so a status of 2 or 3 is left as it is):
 * a write error is exit 3.  glibc drops its buffer after a failed write,
 * so the reason is known only when the last flush is the one that fails
 * (on a full device, all but about one size in 4096). */
static int finish(const char *cmd, int rc)
{
  errno = 0;
  int flushed = fflush(stdout) != EOF, e = errno;
  if ((flushed && !ferror(stdout)) || rc == RL_EXIT_USAGE || rc == RL_EXIT_RUNTIME)
    return rc;
  if (!flushed && e)
    return rl_runtime(cmd, "cannot write to standard output: %s", strerror(e));
  return rl_runtime(cmd, "cannot write to standard output");
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0}};
  rl_out_set_argv(argc, argv);
  rl_opt_reset();
  int c;
  /* '+': stop at the command name; its options are its own */
  while ((c = getopt_long(argc, argv, "+:hV", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      usage(stdout);
      return finish(NULL, RL_EXIT_OK);
    case 'V':
      printf("ropelab %s\n", RL_VERSION);
      return finish(NULL, RL_EXIT_OK);
    default:
      if (optopt && strncmp(argv[optind - 1], "--", 2))
        return rl_usage(NULL, "unknown option '-%c' (see 'ropelab --help')", optopt);
      return rl_usage(NULL, "unknown option '%s' (see 'ropelab --help')", argv[optind - 1]);
    }
  }
  if (optind >= argc) {
    usage(stderr);
    return RL_EXIT_USAGE;
  }
  int cargc = argc - optind;
  char **cargv = argv + optind;
  rl_opt_reset();
  if (!strcmp(cargv[0], "help"))
    return finish("help", help(cargc, cargv));
  const struct rl_cmd *cmd = rl_cmd_find(cargv[0]);
  if (!cmd)
    return unknown(cargv[0]);
  return finish(cmd->name, rl_sweep_main(cmd, cargc, cargv));
}
