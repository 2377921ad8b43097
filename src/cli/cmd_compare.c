/* cmd_compare.c: placeholder while being written. */
#include <stdio.h>
#include "cmd.h"
#include "opt.h"
static void help(FILE *fp) { fputs("usage: ropelab compare (not yet available)\n", fp); }
static int run(int argc, char **argv) { (void)argc, (void)argv; return rl_usage("compare", "not yet available"); }
const struct rl_cmd rl_cmd_compare = {"compare", run, "(not yet available)", help};
