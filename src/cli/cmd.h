/* cmd.h: one ropelab subcommand (the kmod/git pattern): each command lives
 * in its own cmd_<name>.c exporting `const struct rl_cmd rl_cmd_<name>`,
 * and main.c lists it once in RL_COMMANDS. */
#ifndef RL_CLI_CMD_H
#define RL_CLI_CMD_H

#include <stdio.h>

/* Exit codes, documented in `ropelab --help`. */
enum {
  RL_EXIT_OK = 0,      /* success */
  RL_EXIT_FAIL = 1,    /* a checked property failed (check) */
  RL_EXIT_USAGE = 2,   /* bad option, value or command */
  RL_EXIT_RUNTIME = 3  /* I/O, memory, gnuplot failure */
};

struct rl_cmd {
  const char *name;
  int (*run)(int argc, char **argv); /* argv[0] is the command name */
  const char *summary;               /* one line, for `ropelab --help` */
  void (*help)(FILE *fp);            /* options with their defaults */
};

#endif
