/* precision_opts.h: the pipeline list of the help texts. */
#ifndef RL_CLI_PRECISION_OPTS_H
#define RL_CLI_PRECISION_OPTS_H
#include <stdio.h>
#include "ropelab.h"

/* One line per pipeline: name, summary, then its dtypes and the code it
 * follows, indented. */
void rl_precision_list(FILE *fp);
#endif
